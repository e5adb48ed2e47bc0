// The server's HTTP API (docs/server.md) and the seats this browser holds.
// Tokens live in localStorage only; they go to the server in an Authorization header or a
// WebSocket's first message, never in a URL.

const STORE = "ecliptic.games";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export async function api(path, { method = "GET", token = null, body = undefined } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

// -- the games this browser knows: {id, game, created, admin, suggestions, seats: {seat: {token, name}}}

export function myGames() {
  try {
    const found = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(found) ? found : [];
  } catch { return []; }
}

function saveGames(games) { localStorage.setItem(STORE, JSON.stringify(games.slice(-100))); }

export function rememberGame(entry) {
  const games = myGames().filter((g) => g.id !== entry.id);
  const old = myGames().find((g) => g.id === entry.id);
  const merged = { ...(old || {}), ...entry, seats: { ...((old && old.seats) || {}), ...(entry.seats || {}) } };
  games.push(merged);
  saveGames(games);
  return merged;
}

export function gameEntry(id) { return myGames().find((g) => g.id === id) || null; }

export function forgetGame(id) { saveGames(myGames().filter((g) => g.id !== id)); }

// This browser holds the seat's token no more (the host gave the seat to someone else, or it moved
// to another device: its token opens nothing now).
export function forgetSeat(id, seat) {
  const games = myGames();
  const g = games.find((x) => x.id === id);
  if (!g || !g.seats || !g.seats[seat]) return;
  delete g.seats[seat];
  saveGames(games);
}

export function rememberSeatToken(id, seat, token, extra = {}) {
  return rememberGame({ id, ...extra, seats: { [seat]: { token } } });
}

// A seat's token in a finished game's rematch (`r`: its id, seat and token), kept as a join
// link's token is, so "My games" lists the new game. `known`: what the caller knows of the
// finished game (its `game`, the seat's `name`, `suggestions`), else the finished game's entry.
export function keepRematch(r, finished, known = {}) {
  const old = gameEntry(finished) || {};
  rememberGame({ id: r.id, game: known.game ?? old.game, created: Date.now(),
    suggestions: !!(known.suggestions ?? old.suggestions), seats: { [r.seat]: { token: r.token, name: known.name } } });
}

// The host's part of a rematch (`made`: the answer to the admin's POST .../rematch): the new
// game's admin token, and the join links of the seats whose person never came to the finished
// game, kept to hand out as a new game's links are (the lobby lists them under the game).
export function keepHostRematch(id, made, finished) {
  if (!made || !made.admin_token) return;
  const entry = gameEntry(id) || {};
  const old = gameEntry(finished) || {};
  const links = { ...(entry.links || {}) };
  for (const l of made.links || []) links[l.seat] = { link: l.join_link, name: l.name };
  rememberGame({ id, game: entry.game ?? old.game, created: entry.created ?? Date.now(),
    suggestions: !!(entry.suggestions ?? old.suggestions), admin: made.admin_token, links });
}

// What the holder of `token` in the finished game `id` is told of its rematch (its own new
// token, in the game's view), kept with keepRematch; null when there is none for it.
export async function fetchRematch(id, token, suggestions = undefined) {
  const view = await api(`/api/games/${encodeURIComponent(id)}`, { token });
  const r = view.rematch;
  if (!r || !r.token || r.seat === null || r.seat === undefined) return null;
  keepRematch(r, id, { game: view.game, name: ((view.seats || [])[r.seat] || {}).name, suggestions });
  return r;
}

// The seat a token belongs to is what the server says (GET /api/games/{id} with it).
export async function seatOfToken(id, token) {
  const view = await api(`/api/games/${encodeURIComponent(id)}`, { token });
  return view.seat;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...nodes(children));
  return node;
}

// Children as nodes: arrays flattened at any depth, null, undefined and false left out (never
// rendered as the words "null" or "undefined"), anything else a text node.
export function nodes(children) {
  const out = [];
  for (const c of [children].flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    out.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return out;
}

// node.replaceChildren with el()'s children rules.
export function fill(node, ...children) {
  node.replaceChildren(...nodes(children));
  return node;
}

export function pointsName(game) { return game === "ceres" ? "VP" : "GP"; }

export function gameTitle(game) { return game === "ceres" ? "Ceres" : "Tau Ceti"; }

// The name the game's own texts give a seat (the log's sentences, the decision, the boards):
// Tau Ceti's faction, Ceres' "Player 2" (the observation's); "" when the view has none.
export function tableName(gv, seat) {
  const player = gv && gv.view && Array.isArray(gv.view.players) ? gv.view.players[seat] : null;
  if (!player) return "";
  return String((gv.game === "tauceti" ? player.faction : player.name) || "");
}

// The name of who plays a seat, when it says more than the table's name: "" for a person who
// kept the lobby's name for the seat ("Player 1": the server's name for an unnamed person would
// be a second name for Tau Ceti's "Xunon (seat 1)") or whose name is the table's (Ceres' "Player 1").
export function chosenName(gv, seat) {
  const info = gv && (gv.seats || [])[seat];
  const name = info && info.name ? String(info.name) : "";
  if (!name || name.toLowerCase() === tableName(gv, seat).toLowerCase()) return "";
  return info.kind !== "bot" && name === `Player ${seat + 1}` ? "" : name;
}

// A seat as the page names it everywhere: the table's name first, as the log's sentences say it
// ("Player 2 launches…"), then who plays it (chosenName): "Player 2 · Bot (random) 2", "Xunon · Alice",
// "Xunon" for a person who kept the lobby's name.
export function seatName(gv, seat) {
  if (!gv || seat === null || seat === undefined) return "";
  const table = tableName(gv, seat);
  const person = chosenName(gv, seat);
  if (table && person) return `${table} · ${person}`;
  const info = (gv.seats || [])[seat];
  return table || person || (info && info.name ? String(info.name) : "") || `Seat ${seat + 1}`;
}

// Who plays a seat when it is not its person: a seat handed to a bot, or one whose turn clock
// ran out ("zombie", docs/server.md). Said where the seat is waited for, so that nobody waits for
// a person who is not there, and on the seat's own page, so that its person knows why the game
// goes on without them and how to get the seat back. `me`: the page's seat (null: watching).
export function standIn(gv, seat, me) {
  const info = gv && (gv.seats || [])[seat];
  if (!info || info.kind === "bot" || info.controller === "person") return "";
  const mine = me !== null && me !== undefined && seat === me;
  if (info.controller === "zombie") {
    return mine ? "Your turn clock ran out, so a bot plays your seat until you take it back."
      : `${seatName(gv, seat)}'s turn clock ran out: a bot plays the seat until they come back.`;
  }
  return mine ? "You handed your seat to a bot: it plays until you take the seat back."
    : `${seatName(gv, seat)} handed the seat to a bot.`;
}

// The turn clock's line (the view's `deadline`, Unix seconds; `now` in ms): whose time it is,
// how much is left, and what happens then. No clock glyph: the fonts of some systems have none
// and draw an empty box. "" without a running clock.
export function clockText(gv, me, now) {
  if (!gv || gv.status !== "playing" || !gv.deadline) return "";
  const left = Math.max(0, Math.round(gv.deadline - now / 1000));
  const d = Math.floor(left / 86400), h = Math.floor((left % 86400) / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
  const pad = (n) => String(n).padStart(2, "0");
  const time = d ? `${d} d ${h} h` : h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
  const mine = me !== null && me !== undefined && gv.current_seat === me;
  return mine ? `Turn clock: you have ${time} left, then a bot plays for you.`
    : `Turn clock: ${seatName(gv, gv.current_seat)} has ${time} left, then a bot plays for them.`;
}

// What the page says when an action is taken back (an undo): who took it back, so the other
// players see why the turn went back instead of a log entry vanishing. `seat`: the seat of the
// action taken back when the page had it (null: unknown, another server process changed the log).
export function undoNote(gv, seat, index, me) {
  if (seat === null || seat === undefined) return `Action #${index} was taken back.`;
  if (me !== null && me !== undefined && seat === me) return `You took back your last action (#${index}).`;
  return `${seatName(gv, seat)} took back their last action (#${index}).`;
}

// What a log heading adds to a person's seat when a bot played that action for them (the
// server's `actor`): "by a bot" (handed over), "by a bot, clock ran out" (a zombie). "" for the
// person's own moves and for seats created for a bot (their name says it already).
export function playedBy(gv, seat, actor) {
  const info = gv && (gv.seats || [])[seat];
  if (!info || info.kind === "bot") return "";
  return actor === "zombie" ? "by a bot, clock ran out" : actor === "bot" ? "by a bot" : "";
}
