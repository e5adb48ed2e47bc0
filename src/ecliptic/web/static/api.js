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

// A seat as the page names it everywhere: the table's name first, as the log's sentences say it
// ("Player 2 launches…"), then who plays it: "Player 2 · Bot (random) 2", "Xunon · Alice". A
// person who kept the lobby's name for the seat ("Player 1") is named once.
export function seatName(gv, seat) {
  if (!gv || seat === null || seat === undefined) return "";
  const info = (gv.seats || [])[seat];
  const person = info && info.name ? String(info.name) : "";
  const table = tableName(gv, seat);
  if (table && person && table.toLowerCase() !== person.toLowerCase()) return `${table} · ${person}`;
  return table || person || `Seat ${seat + 1}`;
}
