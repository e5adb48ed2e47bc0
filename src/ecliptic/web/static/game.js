// The game page (/play/{id} for a seat, /watch/{id} for a spectator): the table, the
// decision and its actions, the log, chat, undo, handing the seat to a bot, hot-seat, and once
// the game is over the score sheet and the replay. A join link (#seat=N&token=...) is an
// invitation: the page takes the seat with it (POST .../take), keeps the seat's NEW token in
// localStorage and drops the link from the address; the token goes to the server in a header or
// the WebSocket's first message only. A link used already says so and the page watches.
import { api, ApiError, el, fill, fetchRematch, gameEntry, keepHostRematch, keepRematch, rememberGame, rememberSeatToken, forgetSeat, gameTitle, seatName as seatNameIn, chosenName, tableName, standIn, clockText, undoNote, playedBy } from "/static/api.js";
import { renderDecision, isSet, targetsOf, nameOf, ruleLink, useRulesApi } from "/static/actions.js";
import { Log } from "/static/log.js";
import { mountMail } from "/static/mail.js";
import { renderScore } from "/static/score.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/");
const MODE = parts[1] === "watch" ? "watch" : "play";
const GAME_ID = decodeURIComponent(parts[2] || "");
const query = new URLSearchParams(location.search);
const stored = localStorage.getItem("ecliptic.pace");
// Milliseconds between two moves of other seats, so bot moves can be followed one by one.
const PACE = query.has("pace") ? Number(query.get("pace")) : (stored !== null ? Number(stored) : 800);

const S = {
  tokens: {},          // seat -> token this browser holds for the game
  hotseat: false,
  seat: null,          // the seat whose token is in use; null: a spectator
  gv: null,            // the live GameView
  shown: null,         // a view of an earlier index (log click, replay), or null
  ui: { selected: new Set(), focus: null },
  queue: [], pumping: false, lastShown: 0,
  ws: null, wsGen: 0, wsOpen: false, retry: 0, wantSetup: true, logged: false,
  wire: null,          // with view patches: the last view this connection was sent, and its rev
  busy: false,
  mods: { table: null, extras: null, patch: null },
  passTo: null,
  myTurnBefore: false,
  suggestions: false,
  replayIndex: null,
  replaying: false, replayTimer: null, replayAsk: 0,   // the replay's "Play": on, its next step's timer; the last step asked
  levels: [{ value: "normal", label: "Normal", text: "" }],   // the bot levels (GET /api/options/{game})
  refused: { key: null, rows: [] },   // "why not" for my decision: asked for, not pushed
  notice: null,        // why this page watches or plays another seat than the address asks: {kind, seat}
  skipping: false, timer: null,   // catching up at once with the moves still queued; the pace's timer
  zoom: zoomedHere(),  // the board drawn large enough to read, scrolled (kept per game: zoomKey)
  histories: new Map(), // index -> the server's fingerprint of the log up to it (given back on reconnecting)
  rematch: null,       // the finished game's rematch: {id, seat, token} (the token: this page's seat's only)
  focusedDecision: null, // the decision of mine the keyboard was last brought to (placeFocus)
  undone: null,        // who took back which action (an undo), said until the game moves on: {index, text}
};
let log = null;

const token = () => (S.seat === null ? null : S.tokens[S.seat] || null);
const gameUrl = (rest = "") => `/api/games/${encodeURIComponent(GAME_ID)}${rest}`;

// A seat as the page names it everywhere (api.js seatName: "Player 2 · Bot (random) 2").
const seatName = (seat) => seatNameIn(S.gv, seat);

// The log's headings name a seat as the page does, and say when a bot played a person's seat.
const logOptions = () => ({ seatName, onPick: pick, playedBy: (seat, actor) => playedBy(S.gv, seat, actor) });

// The status line says whom the page plays by the person's name, then the name the table gives
// them ("you are Ann (Xunon)"): its parts are already joined by " · ".
function youAre(seat) {
  const person = chosenName(S.gv, seat);
  const table = tableName(S.gv, seat);
  return person && table ? `${person} (${table})` : (table || seatName(seat));
}

function setError(message, rule = null) {
  const box = $("error");
  box.replaceChildren();
  if (!message) return;
  box.append(message, " ", rule ? ruleLink((S.gv && S.gv.game) || "tauceti", rule) : "");
}

// -- seats and tokens -------------------------------------------------------------------

async function resolveSeats() {
  if (MODE === "watch") return;
  const frag = new URLSearchParams(location.hash.slice(1));
  let given = frag.get("token");
  const invited = given && frag.has("seat") ? Number(frag.get("seat")) : null;
  if (given && Number.isInteger(invited)) {
    // A join link: taken once, for a token of this browser's own. The same person opening their
    // link again (a bookmark) finds the seat in this browser already and plays it.
    try {
      const taken = await api(gameUrl(`/seats/${invited}/take`), { method: "POST", token: given });
      const game = (await api(gameUrl())).game;
      rememberGame({ id: GAME_ID, game, seats: { [taken.seat]: { token: taken.token, ...(taken.name ? { name: taken.name } : {}) } } });
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 403)) throw e;
      const mine = gameEntry(GAME_ID);
      if (!(mine && mine.seats && mine.seats[invited] && mine.seats[invited].token)) {
        S.notice = { kind: "used", text: e.message, seat: invited };
      }
    }
    history.replaceState(null, "", `${location.pathname}${location.search}#seat=${invited}`);
    given = null;
  } else if (given) {
    try {
      const view = await api(gameUrl(), { token: given });
      // With the seat's name, so that the lobby's "My games" says "play seat 2 (Bob)" to a
      // friend who came by a join link, as it does to the player who created the game.
      const name = ((view.seats || [])[view.seat] || {}).name;
      rememberGame({ id: GAME_ID, game: view.game, seats: { [view.seat]: { token: given, ...(name ? { name } : {}) } } });
      history.replaceState(null, "", `${location.pathname}${location.search}#seat=${view.seat}`);
    } catch (e) {
      if (!(e instanceof ApiError && (e.status === 401 || e.status === 403))) throw e;
      // Not a token of this game: the page watches, says so, and drops the token from the address.
      S.notice = { kind: "bad-token" };
      history.replaceState(null, "", `${location.pathname}${location.search}`);
      given = null;
    }
  }
  const entry = gameEntry(GAME_ID);
  S.suggestions = !!(entry && entry.suggestions);
  for (const [seat, v] of Object.entries((entry && entry.seats) || {})) if (v && v.token) S.tokens[Number(seat)] = v.token;
  const held = Object.keys(S.tokens).map(Number).sort((a, b) => a - b);
  const wanted = given ? Number(new URLSearchParams(location.hash.slice(1)).get("seat")) : Number(frag.get("seat"));
  if (frag.has("hotseat") && held.length) {
    S.hotseat = true;
    const pub = await api(gameUrl());
    const first = held.includes(pub.current_seat) ? pub.current_seat : held[0];
    S.seat = first;
    if (pub.status === "playing" && held.includes(pub.current_seat)) S.passTo = first;
  } else if (Number.isInteger(wanted) && S.tokens[wanted]) S.seat = wanted;
  else if (held.length) S.seat = held[0];
  // An address naming a seat (#seat=N, what the page shows once it has put the token away) in a
  // browser without that seat's token: the page watches (or plays the seat it holds) and says why.
  if (!S.notice && frag.has("seat") && !frag.has("token") && Number.isInteger(wanted) && wanted >= 0 && S.seat !== wanted) {
    S.notice = { kind: "no-token", seat: wanted };
  }
  if (!S.notice && S.seat === null) S.notice = { kind: "watching" };
}

// The notice above the decision: why this page watches, or plays another seat than it was asked.
function renderNotice() {
  const box = $("notice");
  const n = S.notice;
  box.hidden = !n;
  box.classList.toggle("error", !!n && (n.kind === "bad-token" || n.kind === "used" || n.kind === "taken-away"));
  if (!n) { box.replaceChildren(); return; }
  const info = n.seat !== undefined && S.gv ? (S.gv.seats || [])[n.seat] : null;
  const seat = info && info.name ? `seat ${n.seat + 1} (${info.name})` : `seat ${(n.seat ?? 0) + 1}`;
  const text = n.kind === "taken-away" && n.still
    ? `${seat[0].toUpperCase()}${seat.slice(1)}: ${n.text[0].toLowerCase()}${n.text.slice(1)} `
      + `This browser plays ${n.still.map(seatName).join(" and ")} still.`
    : n.kind === "used" || n.kind === "taken-away"
    ? `${n.text} You are watching.`
    : n.kind === "bad-token"
    ? "This join link's token is not one of this game's seats, so you are watching. Ask for your join link again."
    : n.kind === "no-token" && S.seat === null
      ? `You are watching. To play ${seat}, open your join link.`
      : n.kind === "no-token"
        ? `This browser has no token for ${seat}: you are playing ${seatName(S.seat)}. To play ${seat}, open its join link.`
        : "You are watching. To play a seat, open your join link.";
  if (box.textContent !== text) box.textContent = text;
}

// A page that cannot show the game says so everywhere it would have: the header, the decision,
// and no empty table, log or chat.
function failPage(message) {
  setError(message);
  document.body.classList.add("failed");
  document.body.dataset.state = "failed";
  $("status").textContent = "not available";
  $("decision").textContent = "This game cannot be shown.";
  $("thinking").hidden = true;
}

// -- the WebSocket ----------------------------------------------------------------------

function connect() {
  const gen = ++S.wsGen;
  if (S.ws) { try { S.ws.close(); } catch { /* already closed */ } }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}${gameUrl("/ws")}`);
  S.ws = ws;
  ws.addEventListener("open", () => {
    if (gen !== S.wsGen) return;
    // The first connection asks for the whole log; a reconnection for what it missed.
    const since = S.logged ? S.gv.index : 0;
    const first = { ...(token() ? { token: token() } : { spectator: true }), ...sinceMessage(since) };
    if (S.mods.patch) first.patches = true;   // views as patches of the one sent before (docs/server.md)
    S.wire = null; S.resyncing = false;
    ws.send(JSON.stringify(first));
  });
  ws.addEventListener("message", (e) => {
    if (gen !== S.wsGen) return;
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    if (!unpatch(m, ws)) return;
    onMessage(m, ws);
  });
  ws.addEventListener("close", (e) => {
    if (gen !== S.wsGen) return;
    S.wsOpen = false;
    if (e.code === 4403 && S.seat !== null) {
      // The seat's token opens it no more: the host gave it to someone else, or it moved to another
      // device. The page forgets the token and says why, instead of going blank: a single seat's
      // page watches; a hot-seat page plays on with the other seats it holds, or watches if none.
      const reason = e.reason || "this seat's token no longer opens it";
      const lost = S.seat;
      forgetSeat(GAME_ID, lost);
      delete S.tokens[lost];
      const left = Object.keys(S.tokens).map(Number).sort((a, b) => a - b);
      const still = S.hotseat && left.length ? left : null;
      const said = `${reason[0].toUpperCase()}${reason.slice(1)}`;   // (a refused hello's reason ends with its own ".")
      S.notice = { kind: "taken-away", text: said.endsWith(".") ? said : `${said}.`, seat: lost, still };
      S.passTo = null;
      S.seat = still ? (S.gv && still.includes(S.gv.current_seat) ? S.gv.current_seat : still[0]) : null;
      if (!still) S.hotseat = false;
      document.body.dataset.seat = S.seat === null ? "" : String(S.seat);
      renderNotice();
      api(gameUrl()).then((gv) => show(gv, true)).catch(() => { /* the socket brings the view */ });
      connect();
      return;
    }
    if ([4401, 4403, 4404].includes(e.code)) {   // refused for good: a wrong token, no such game
      $("connection").textContent = `disconnected: ${e.reason || e.code}`;
      return;
    }
    $("connection").textContent = "reconnecting…";
    const delay = Math.min(5000, 300 * 2 ** S.retry++);
    setTimeout(() => { if (gen === S.wsGen) connect(); }, delay);
  });
}

// With view patches, a message's view is its patch applied to the last view this connection
// was sent. A patch for another view (or one that does not apply) asks for the whole view again:
// the hello that answers carries it, with the events missed meanwhile.
function unpatch(m, ws) {
  const patch = S.mods.patch;
  if (!patch) return true;
  if (m.type === "hello") { S.wire = { view: m.view, rev: m.rev ?? null }; S.resyncing = false; return true; }
  if (!("patch" in m)) return true;
  if (S.resyncing) return false;   // the whole view is on its way
  let next = null;
  try { next = S.wire ? patch.nextView(S.wire.view, S.wire.rev, m) : null; } catch { next = null; }
  if (!next) {
    S.wire = null;
    S.resyncing = true;
    ws.send(JSON.stringify(sinceMessage(S.gv ? S.gv.index : 0)));
    return false;
  }
  S.wire = next;
  m.view = next.view;
  document.body.dataset.patched = String(Number(document.body.dataset.patched || 0) + 1);
  return true;
}

// "Send me what followed index `since`", with the server's fingerprint of the log up to it, so
// that a log the game no longer has (an undo and another move while this page was away, a
// database put back on a backup) is sent again whole (`reset`) instead of continued.
function sinceMessage(since) {
  const history = S.histories.get(since);
  return history ? { since, history } : { since };
}

function noteHistory(m) {
  if (typeof m.history !== "string" || typeof m.index !== "number") return;
  if (m.type !== "action") for (const i of [...S.histories.keys()]) if (i > m.index) S.histories.delete(i);
  S.histories.set(m.index, m.history);
}

function onMessage(m, ws) {
  noteHistory(m);
  if (m.type === "hello") {
    S.wsOpen = true; S.retry = 0; S.logged = true;
    document.body.dataset.hellos = String(Number(document.body.dataset.hellos || 0) + 1);
    $("connection").textContent = "";
    if (m.reset) { S.queue = []; log.dropAfter(0); }   // this page's log is not the game's any more
    for (const missed of m.missed || []) log.add(missed.index, missed.seat, missed.events, false, missed.actor);
    if ((m.missed || []).length) log.render();
    if (m.setup_events && m.setup_events.length) log.setSetup(m.setup_events);
    if (S.wantSetup) { S.wantSetup = false; ws.send(JSON.stringify({ since: -1 })); }
    S.queue = S.queue.filter((q) => q.index > m.view.index);
    show(m.view, true);
    showBehind();
  } else if (m.type === "action") {
    enqueue(m);
  } else if (m.type === "undo") {
    // Who took it back: the seat of the action dropped (in the log, or still waiting to be shown).
    const dropped = log.entries.get(m.index + 1) || S.queue.find((q) => q.type === "action" && q.index === m.index + 1);
    S.undone = { index: m.index, text: undoNote(m.view, dropped ? dropped.seat : null, m.index + 1, S.seat) };
    S.queue = [];
    log.dropAfter(m.index);
    show(m.view, true);
    showBehind();
  } else if (m.type === "seat") {
    enqueue(m);
  } else if (m.type === "chat") {
    addChat(m, true);
  } else if (m.type === "rematch") {
    learnRematch(m);
    render();
  } else if (m.type === "error") {
    $("connection").textContent = m.message;
  }
}

// Other seats' moves are shown one by one, PACE ms apart; my own at once. While a bot plays my
// seat (handed over) the page follows the game as it goes, unpaced. A page that falls far behind
// catches up at once: when more than CATCH_UP moves wait (the longest stretch of other seats'
// moves between two of one seat's was 23 in 4-player short games of bots), or when a move of my
// own seat waits behind others' (another tab played it: the game went round without this
// page). "Skip to now" catches up on demand while moves wait.
const CATCH_UP = 30;

const botPlaysMe = (gv) => S.seat !== null && !!gv && ((gv.seats || [])[S.seat] || {}).controller === "bot";

const queuedMoves = () => S.queue.filter((q) => q.type === "action").length;

function farBehind() {
  if (queuedMoves() > CATCH_UP) return true;
  return S.seat !== null && S.queue.some((q, i) => i > 0 && q.type === "action" && q.seat === S.seat);
}

function enqueue(m) {
  if (S.undone && m.type === "action" && m.index > S.undone.index) S.undone = null;   // the game moved on
  S.queue.push(m);
  if (!S.skipping && farBehind()) skipToNow();
  else pump();
}

function skipToNow() {
  S.skipping = true;
  if (S.timer !== null) { clearTimeout(S.timer); S.timer = null; }
  S.pumping = false;
  pump();
}

function pump() {
  if (S.pumping) return;
  let at = S.gv ? S.gv.index : -1;   // the newest index taken from the queue
  let pending = null;                 // while catching up: the newest view, drawn once at the end
  let logged = false;
  while (S.queue.length) {
    const next = S.queue[0];
    const paced = !S.skipping && next.type === "action" && next.seat !== S.seat && PACE > 0 && !botPlaysMe(next.view);
    const wait = paced ? S.lastShown + PACE - Date.now() : 0;
    if (wait > 0) {
      S.pumping = true;
      S.timer = setTimeout(() => { S.timer = null; S.pumping = false; pump(); }, wait);
      break;
    }
    S.queue.shift();
    if (next.type === "action") {
      if (next.index <= at) continue;   // already shown (a hello was newer)
      if (at >= 0 && next.index > at + 1 && S.ws && S.wsOpen) {
        S.ws.send(JSON.stringify(sinceMessage(at)));  // a gap: ask for what was missed
      }
      log.add(next.index, next.seat, next.events, !S.skipping, next.actor);
      logged = true;
      at = next.index;
    }
    if (S.skipping) { pending = next.view; continue; }
    show(next.view, false);
    // The pace counts from the moment the table is drawn, so a slow redraw never eats into
    // the time a player has to see a move before the next one.
    if (paced) S.lastShown = Date.now();
  }
  if (!S.queue.length) S.skipping = false;
  if (pending) {
    if (logged) log.render();
    show(pending, false);
    S.lastShown = Date.now();
  }
  showBehind();
}

// While other seats' moves wait to be shown: how many, and "Skip to now".
function showBehind() {
  const box = $("behind");
  const waiting = queuedMoves();
  box.hidden = waiting === 0;
  if (box.hidden) return;
  const text = `${waiting} ${waiting === 1 ? "move" : "moves"} not shown yet`;
  if ($("behind-text").textContent !== text) $("behind-text").textContent = text;
}

async function refresh() {
  try {
    const gv = await api(gameUrl(), { token: token() });
    if (!S.gv || gv.index >= S.gv.index) show(gv, true);
  } catch (e) { setError(`Could not load the game: ${e.message}`); }
}

// -- showing a view ---------------------------------------------------------------------

// The refused candidates of my decision (often 200 rows, more than the rest of the view) are
// not pushed with every view; they are asked for once per decision of mine.
const refusedKey = (gv) => `${gv.index}:${gv.current_seat}`;

async function loadRefused(gv) {
  const key = refusedKey(gv);
  if (S.refused.key === key) return;
  S.refused = { key, rows: [] };
  try {
    const full = await api(gameUrl("?refused=true"), { token: token() });
    if (S.refused.key === key && full.index === gv.index) { S.refused.rows = full.refused || []; render(); }
  } catch { /* the actions stay playable; only "why not" is missing */ }
}

function withRefused(gv) {
  if ((gv.refused && gv.refused.length) || S.refused.key !== refusedKey(gv) || !S.refused.rows.length) return gv;
  return { ...gv, refused: S.refused.rows };
}

// The decision is mine to click when my seat is to decide and I play it (not a bot I handed it to).
function myDecision(gv) {
  if (gv.status !== "playing" || S.seat === null || gv.current_seat !== S.seat) return false;
  const info = (gv.seats || [])[S.seat];
  return !info || info.controller !== "bot";
}

function show(gv, force) {
  if (!gv) return;
  if (!force && S.gv && gv.index < S.gv.index) return;
  const changed = !S.gv || S.gv.index !== gv.index || S.gv.current_seat !== gv.current_seat;
  S.gv = gv;
  if (gv.rematch) learnRematch(gv.rematch);
  if (myDecision(gv) && gv.seat === S.seat && (gv.legal_actions || []).length) loadRefused(gv);
  if (changed) { S.ui.selected = new Set(); S.ui.focus = null; }
  if (S.hotseat && gv.status === "playing" && gv.current_seat !== S.seat && S.tokens[gv.current_seat] !== undefined) {
    S.passTo = gv.current_seat;
  }
  render();
}

function drawTable(gv, live) {
  const root = $("table");
  const ui = { seat: S.seat, selected: S.ui.selected, names: (gv.present && gv.present.names) || {},
    onTarget: live ? onTarget : () => {}, zoom: S.zoom };
  const table = S.mods.table;
  showZoom(!!(table && typeof table.renderTable === "function"));
  if (table && typeof table.renderTable === "function") {
    try { table.renderTable(root, gv, ui); return; } catch (e) {
      root.replaceChildren(el("p", { class: "error", text: `The table could not be drawn: ${e.message}` }));
    }
  }
  // Without the board module: the targets as buttons, and the observation as text.
  const keys = [];
  for (const a of live ? gv.legal_actions || [] : []) for (const t of targetsOf(a)) if (!keys.includes(t)) keys.push(t);
  root.replaceChildren(...[
    keys.length ? el("div", { class: "fallback-targets", "aria-label": "things on the table you can act on" },
      keys.map((k) => el("button", { type: "button", class: `target${S.ui.selected.has(k) ? " selected" : ""}`,
        role: "button", dataset: { target: k }, "aria-label": nameOf(gv, k), onclick: (e) => onTarget(k, e),
        text: nameOf(gv, k) }))) : null,
    el("pre", { class: "observation", text: JSON.stringify(gv.view, null, 1) })].filter(Boolean));
}

// "Zoom the board": the board drawn large enough to read on a phone, panned in its own box.
function showZoom(available) {
  const button = $("board-zoom");
  button.hidden = !available;
  button.setAttribute("aria-pressed", S.zoom ? "true" : "false");
  const text = S.zoom ? "Fit the board to the page" : "Zoom the board";
  if (button.textContent !== text) button.textContent = text;
}

// It is kept per game, and only while on: a new game, or a game's page not zoomed yet (a
// spectator's on a desktop), opens fitted; a game the player zoomed opens zoomed again, on a phone
// as on a desktop. The one key all games once shared ("ecliptic.zoom") is dropped when seen.
function zoomKey() { return `ecliptic.zoom.${GAME_ID}`; }

function zoomedHere() {
  try {
    localStorage.removeItem("ecliptic.zoom");
    return localStorage.getItem(zoomKey()) === "1";
  } catch { return false; }
}

function setZoom(on) {
  S.zoom = on;
  try {
    if (on) localStorage.setItem(zoomKey(), "1"); else localStorage.removeItem(zoomKey());
  } catch { /* kept for this page only */ }
  render();
  // Zoomed in, the box opens on the middle of the board (Tau Ceti, the Sun); redraws keep its place.
  if (on) for (const box of $("table").querySelectorAll(".ecl-zoom-box")) {
    box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
    box.scrollTop = (box.scrollHeight - box.clientHeight) / 2;
  }
}

function decisionText(gv) {
  if (gv.status === "over") {
    const winners = (gv.view && gv.view.winners) || [];
    return `Game over. ${winners.length ? `Won by ${winners.map(seatName).join(" and ")}.` : ""}`;
  }
  if (gv.present && gv.present.decision) return gv.present.decision;
  const d = gv.view && gv.view.decision;
  const who = gv.current_seat === S.seat && S.seat !== null ? "You" : seatName(gv.current_seat);
  return `${who} to decide${d && d.kind ? `: ${d.kind.replaceAll("_", " ")}` : ""}`;
}

// A person seat nobody holds yet decides nothing: the page says why the game waits instead of
// "deciding…" (an invitation not taken yet, or a seat open to anyone in the lobby), under the
// heading that says whom it waits for. "" else.
function waitingFor(gv, info) {
  if (!info || info.kind === "bot" || info.joined !== false) return "";
  const seat = gv.current_seat;
  return info.open
    ? `Seat ${seat + 1} is open to anyone: the game waits for someone to sit down at it from the lobby's open tables.`
    : chosenName(gv, seat) ? `${chosenName(gv, seat)} has not come yet: their join link has not been opened.`
      : "Nobody has come to this seat yet: its join link has not been opened.";
}

// The line under the decision's heading, which already says whom the game waits for and what
// they decide ("Waiting for Triolor (seat 1) to decide their turn."): who sits at that seat, said
// once. A bot is named as it thinks; a person by the name they chose, not at all when they kept
// the lobby's (api.js chosenName).
function whoDecides(gv, info) {
  const name = chosenName(gv, gv.current_seat);
  if (info && info.kind === "bot") return `${name || seatName(gv.current_seat)} is thinking…`;
  return name ? `${name} is deciding…` : "";
}

// Each redraw is measured ("ecliptic-render" in the Performance timeline; the last 100 kept).
function render() {
  performance.mark("ecliptic-render-start");
  try { draw(); } finally {
    performance.measure("ecliptic-render", "ecliptic-render-start");
    if (performance.getEntriesByName("ecliptic-render").length > 100) performance.clearMeasures("ecliptic-render");
  }
}

function draw() {
  if (!S.gv) return;
  const live = withRefused(S.gv);
  if (S.passTo !== null) { renderPass(); return; }
  $("pass-screen").hidden = true;
  document.body.classList.remove("passing");
  const gv = S.shown || live;
  document.body.dataset.index = String(live.index);
  document.body.dataset.seat = S.seat === null ? "" : String(S.seat);
  const me = S.seat !== null ? `you are ${youAre(S.seat)}` : "watching";
  const round = gv.view && gv.view.round ? `round ${gv.view.round}` : "";
  $("status").textContent = [gameTitle(live.game), live.status === "over" ? "finished" : round, me,
    S.hotseat ? "hot-seat" : ""].filter(Boolean).join(" · ");
  // The board draws the banner itself; without it the page says it.
  const banner = !S.mods.table && live.present && live.present.banner;
  $("banner").hidden = !banner;
  if ($("banner").dataset.text !== (banner || "")) {
    $("banner").dataset.text = banner || "";
    $("banner").replaceChildren(...(banner ? [banner, " ", el("a", { href: "/rules#ceres:section:reconstruction",
      target: "_blank", rel: "noopener", text: "About the stand-in" })] : []));
  }
  const bar = $("history-bar");
  bar.hidden = !S.shown;
  if (S.shown) {
    bar.replaceChildren(`Showing the board after action ${S.shown.index} (the game is at ${live.index}). `,
      el("button", { type: "button", id: "back-to-now", text: "Back to now", onclick: () => { S.shown = null; S.replayIndex = null; playReplay(false); } }));
  }
  drawTable(gv, gv === live);
  renderNotice();
  $("decision").textContent = decisionText(live);
  const undone = S.undone ? S.undone.text : "";
  $("undone").hidden = !undone;
  if ($("undone").textContent !== undone) $("undone").textContent = undone;
  const mine = myDecision(live);
  const thinking = $("thinking");
  const other = live.status === "playing" && !mine;
  thinking.hidden = !other;
  if (other) {
    const info = (live.seats || [])[live.current_seat];
    // A person's seat a bot plays (handed over, or its turn clock ran out) is not that person deciding.
    const standing = info && info.kind !== "bot" && info.controller !== "person";
    const who = live.current_seat === S.seat ? "your seat" : seatName(live.current_seat);
    const text = standing ? `A bot is playing for ${who}${info.controller === "zombie" ? " (the turn clock ran out)" : ""}…`
      : waitingFor(live, info) || whoDecides(live, info);
    thinking.hidden = !text;
    thinking.textContent = text;
  }
  const panel = $("decision-panel");
  const held = heldFocus(panel);
  if (mine && !S.shown) {
    renderDecision(panel, live, S.ui, { act, toggle, clearFocus: () => { S.ui.focus = null; render(); }, notation: playNotation });
    panel.querySelectorAll("button, input").forEach((b) => { b.disabled = b.disabled || S.busy; });
  } else panel.replaceChildren();
  placeFocus(panel, held, mine && !S.shown ? refusedKey(live) : null);
  renderControls(live, mine);
  showClock();
  renderScore($("score"), live, seatName);
  renderFinished(live);
  notifyTurn(live, mine);
}

// The panel is rebuilt at every redraw: the keyboard's place in it is put back on the same
// control (an action by its notation, a toggle by its target, a group by its name), and when
// that control is gone (the move was made) or a new decision of mine appears while the
// keyboard is nowhere (the page's body), it goes to the decision's heading, whose next Tab is
// the first action, instead of the top of the page, 30 table targets away.
function heldFocus(panel) {
  const e = document.activeElement;
  if (!e || e === document.body) return { nowhere: true };
  if (!panel.contains(e)) return null;
  const summary = e.tagName === "SUMMARY" && e.parentElement ? e.parentElement.dataset.group : null;
  return { notation: e.dataset.notation || null, target: e.dataset.target || null, id: e.id || null, summary,
    inTarget: !!e.closest("#target-actions") };
}

function placeFocus(panel, held, decisionKey) {
  const fresh = decisionKey !== null && decisionKey !== S.focusedDecision;
  if (decisionKey !== null) S.focusedDecision = decisionKey;
  if (!held) return;   // the keyboard is elsewhere (chat, the log, the table): it stays there
  if (!held.nowhere) {
    const scope = held.inTarget ? "#target-actions " : "";
    const sel = held.notation ? `${scope}button.action[data-notation="${CSS.escape(held.notation)}"]`
      : held.target ? `[data-target="${CSS.escape(held.target)}"]`
        : held.summary ? `details[data-group="${CSS.escape(held.summary)}"] > summary`
          : held.id ? `#${CSS.escape(held.id)}` : null;
    const again = sel ? panel.querySelector(sel) : null;
    if (again && !again.disabled) { again.focus({ preventScroll: true }); return; }
  } else if (!fresh) return;
  const heading = $("decision");
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  // A move made low in a long list shrinks it: the new prompt would be left above the window.
  const box = heading.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) heading.scrollIntoView({ block: "nearest" });
}

function renderPass() {
  $("pass-screen").hidden = false;
  document.body.classList.add("passing");
  $("table").replaceChildren();
  $("decision-panel").replaceChildren();
  $("pass-text").textContent = `Pass the device to ${seatName(S.passTo)}. Nobody else should look at the screen.`;
  $("pass-ready").textContent = `I am ${seatName(S.passTo)}`;
  $("pass-ready").focus();
}

function onPassReady() {
  const seat = S.passTo;
  if (seat === null) return;
  S.passTo = null;
  if (seat !== S.seat) {
    S.seat = seat;
    S.gv = null; S.shown = null; S.queue = []; S.logged = false; S.wantSetup = true;
    log = new Log($("log"), logOptions());   // this seat's own events only
    refresh();
    connect();
  } else render();
}

// The controls are rebuilt only when they change: a button replaced at every pushed move
// (a bot playing fast) could never be clicked.
function renderControls(gv, mine) {
  const box = $("controls");
  const want = [];
  if (gv.undoable && !S.shown) want.push("undo");
  const info = S.seat !== null && gv.status === "playing" ? (gv.seats || [])[S.seat] : null;
  if (info) want.push(info.controller === "person" ? "hand-to-bot" : `take-back:${info.controller}`);
  if (mine && S.suggestions && S.mods.extras && S.mods.extras.suggest && !S.shown) want.push("suggest");
  if (S.seat !== null && "Notification" in window && Notification.permission === "default" && gv.status === "playing") {
    want.push("notify");
  }
  const signature = want.join(" ");
  if (box.dataset.signature === signature) return;
  box.dataset.signature = signature;
  const kinds = want.map((k) => k.split(":")[0]);
  const make = {
    "undo": () => el("button", { type: "button", id: "undo", text: "Undo my last action", onclick: undo }),
    "hand-to-bot": () => el("span", { class: "hand-over" },
      el("button", { type: "button", id: "hand-to-bot", text: "Hand my seat to a bot",
        onclick: () => handOver(true, $("hand-level").value) }),
      el("select", { id: "hand-level", "aria-label": "the bot's level" },
        S.levels.map((l) => el("option", { value: l.value, text: l.label, title: l.text, selected: l.value === "normal" })))),
    // Why the game goes on without this seat's person, beside the way back.
    "take-back": () => el("div", { class: "take-back" },
      el("p", { id: "seat-note", class: "notice", text: standIn(gv, S.seat, S.seat) }),
      el("button", { type: "button", id: "take-back", class: "primary", text: "Take my seat back",
        onclick: () => handOver(false) })),
    "suggest": () => el("button", { type: "button", id: "suggest", text: "Suggest a move", onclick: suggest }),
    "notify": () => el("button", { type: "button", id: "notify", class: "link", text: "Notify me when it is my turn",
      onclick: () => Notification.requestPermission().then(() => { delete box.dataset.signature; render(); }) }),
  };
  box.replaceChildren(...kinds.map((k) => make[k]()));
}

// The turn clock: the time left to the seat deciding (the view's deadline, Unix time).
function showClock() {
  const box = $("clock");
  const text = clockText(S.gv, S.seat, Date.now());
  box.hidden = !text;
  if (box.textContent !== text) box.textContent = text;
}

function notifyTurn(gv, mine) {
  const base = `${gameTitle(gv.game)} ${GAME_ID} — Ecliptic`;
  document.title = mine ? `▶ Your turn — ${base}` : gv.status === "over" ? `Finished — ${base}` : base;
  if (mine && !S.myTurnBefore && document.hidden && "Notification" in window && Notification.permission === "granted") {
    try { new Notification("Ecliptic: your turn", { body: decisionText(gv), tag: GAME_ID }); } catch { /* not allowed here */ }
  }
  S.myTurnBefore = mine;
}

// -- the finished game: replay, win chances, play on --------------------------------------

function renderFinished(gv) {
  const box = $("finished");
  if (gv.status !== "over") { box.hidden = true; box.replaceChildren(); delete box.dataset.index; return; }
  box.hidden = false;
  const extras = S.mods.extras;
  if (box.dataset.index !== String(gv.index)) {
    // Built once per finished game: the replay's place, and the chart (computed by the server).
    box.dataset.index = String(gv.index);
    const chart = el("div", { class: "win-chart", id: "win-chart", "aria-label": "win chance per player" });
    fill(box, el("div", { id: "rematch-box", class: "rematch" }), el("h2", { text: "Replay" }), el("div", { id: "replay-box" }),
      extras && extras.renderWinChart ? el("h2", { text: "Win chances" }) : null,
      extras && extras.renderWinChart ? chart : null);
    if (extras && extras.renderWinChart) {
      Promise.resolve().then(() => extras.renderWinChart(chart, GAME_ID, { onSelect: (i) => replayTo(i), seatName }))
        .catch((e) => { chart.textContent = `No chart: ${e.message}`; });
    }
  }
  renderRematch($("rematch-box"));
  const replay = $("replay-box");
  const at = S.replayIndex === null ? gv.index : S.replayIndex;
  if (!(extras && extras.viewAt)) {
    replay.replaceChildren(el("p", { class: "muted", text: "The replay is not available on this server." }));
    return;
  }
  const step = (i) => () => replayTo(Math.max(0, Math.min(gv.index, i)));
  // The buttons are rebuilt at each step: the keyboard stays on the one it pressed (not the page's top).
  const pressed = replay.contains(document.activeElement) ? document.activeElement.id : null;
  fill(replay,
    el("div", { class: "replay", role: "group", "aria-label": "replay" },
      el("button", { type: "button", id: "replay-start", "aria-label": "to the start", onclick: step(0), text: "«" }),
      el("button", { type: "button", id: "replay-prev", "aria-label": "one action back", onclick: step(at - 1), text: "◀" }),
      el("span", { id: "replay-index", text: ` ${at} / ${gv.index} ` }),
      el("button", { type: "button", id: "replay-next", "aria-label": "one action on", onclick: step(at + 1), text: "▶" }),
      el("button", { type: "button", id: "replay-end", "aria-label": "to the end", onclick: step(gv.index), text: "»" }),
      el("button", { type: "button", id: "replay-play", "aria-pressed": S.replaying ? "true" : "false",
        title: "the replay steps on by itself, one action a second", onclick: () => playReplay(!S.replaying),
        text: S.replaying ? "Pause" : "Play" })),
    extras.playOnFrom ? el("p", {}, el("button", { type: "button", id: "play-on",
      text: `Play on from action ${at} against bots`, onclick: () => playOn(at) })) : null);
  if (pressed && $(pressed)) $(pressed).focus({ preventScroll: true });
}

// -- play again: the rematch with the same people (docs/web.md) ----------------------------

// What the server said of the rematch: its id for anyone, and for this page's seat its own new
// token, which is kept as a join link's token is (localStorage), so "My games" lists it too.
function learnRematch(r) {
  if (!r || !r.id) return;
  if (r.token && r.seat !== null && r.seat !== undefined && r.seat === S.seat) {
    keepRematchToken(r.id, r.seat, r.token);
    S.rematch = { id: r.id, seat: r.seat, token: r.token };
  } else if (!S.rematch || S.rematch.id !== r.id) S.rematch = { id: r.id, seat: null, token: null };
}

function keepRematchToken(id, seat, tokenOf) {
  const name = S.gv && (S.gv.seats || [])[seat] ? S.gv.seats[seat].name : undefined;
  keepRematch({ id, seat, token: tokenOf }, GAME_ID, { game: S.gv ? S.gv.game : undefined, name, suggestions: S.suggestions });
}

const adminToken = () => { const entry = gameEntry(GAME_ID); return (entry && entry.admin) || null; };

// Where a page with no seat in the rematch watches it. The rematch has the finished game's seats
// and bots (docs/server.md "Play again"), so a game of bots alone (every seat's kind, as the server
// tells it, is "bot") has one of bots alone: opened as the lobby opens a new game of bots
// (/watch/{id}#replay), it is replayed from its start when the bots have finished it already,
// and watched live while they play. A rematch with people in it is watched live.
function rematchWatchUrl(id) {
  const seats = (S.gv && S.gv.seats) || [];
  const botsOnly = seats.length > 0 && seats.every((s) => s.kind === "bot");
  return `/watch/${encodeURIComponent(id)}${botsOnly ? "#replay" : ""}`;
}

function renderRematch(box) {
  if (!box) return;
  const r = S.rematch;
  const mine = r && r.token ? "join" : r && S.seat !== null ? "wait" : r ? "watch" : (S.seat !== null || adminToken()) ? "offer" : "";
  const signature = `${mine}:${r ? r.id : ""}:${S.busy}`;
  if (box.dataset.signature === signature) return;
  box.dataset.signature = signature;
  if (mine === "offer") {
    fill(box, el("button", { type: "button", id: "play-again", class: "primary", disabled: S.busy,
      text: "Play again", title: "the same game, seats and bots, the next player first, a new shuffle", onclick: playAgain }));
  } else if (mine === "join") {
    fill(box, el("p", { id: "rematch-ready", text: "Rematch ready — " },
      el("a", { id: "rematch-join", class: "button primary", href: `/play/${r.id}#seat=${r.seat}`, text: "Join",
        onclick: (e) => { e.preventDefault(); joinRematch(r); } })));
  } else if (mine === "wait") {
    fill(box, el("p", { text: "Rematch ready — its token is on its way…" }));
  } else if (mine === "watch") {
    fill(box, el("p", { text: "Rematch ready — " }, el("a", { id: "rematch-watch", href: rematchWatchUrl(r.id), text: "Watch it" })));
  } else box.replaceChildren();
}

// Every token this browser holds for the finished game gets its successor: the other seats'
// through the game's view with their old token (hot-seat), the admin's by asking again.
async function collectRematchTokens(id) {
  for (const [seat, old] of Object.entries(S.tokens)) {
    if (Number(seat) === S.seat && S.rematch && S.rematch.token) continue;
    try { await fetchRematch(GAME_ID, old, S.suggestions); } catch { /* that seat keeps its old token only */ }
  }
  const admin = adminToken();
  if (admin) {
    try {
      keepHostRematch(id, await api(gameUrl("/rematch"), { method: "POST", token: admin }), GAME_ID);
    } catch { /* the new game has no admin in this browser */ }
  }
}

async function playAgain() {
  if (S.busy) return;
  S.busy = true;
  setError("");
  render();
  try {
    const made = await api(gameUrl("/rematch"), { method: "POST", token: token() || adminToken() });
    if (made.token && made.seat !== null) keepRematchToken(made.id, made.seat, made.token);
    S.rematch = { id: made.id, seat: made.seat ?? null, token: made.token || null };
    await joinRematch(S.rematch);
  } catch (e) {
    setError(`No rematch: ${e.message}`);
  } finally { S.busy = false; render(); }
}

async function joinRematch(r) {
  await collectRematchTokens(r.id);
  location.href = r.token ? `/play/${r.id}#${S.hotseat ? "hotseat" : `seat=${r.seat}`}` : rematchWatchUrl(r.id);
}

async function replayTo(index) {
  const extras = S.mods.extras;
  if (!extras || !extras.viewAt) return;
  S.replayIndex = index;
  const ask = ++S.replayAsk;   // a step asked for later (a press while one is on its way) wins
  try {
    const shown = index === S.gv.index ? null : await extras.viewAt(GAME_ID, token(), index);
    if (ask !== S.replayAsk) return;
    S.shown = shown;
  } catch (e) { setError(`That position could not be shown: ${e.message}`); }
  render();
}

// The replay's "Play": one action on every REPLAY_STEP_MS until the end (where it stops) or a
// second press; started at the end, it plays from the start. The buttons stay usable meanwhile.
const REPLAY_STEP_MS = 1000;

function playReplay(on) {
  if (S.replayTimer !== null) { clearTimeout(S.replayTimer); S.replayTimer = null; }
  S.replaying = on && !!S.gv && S.gv.status === "over" && !!(S.mods.extras && S.mods.extras.viewAt);
  render();
  if (!S.replaying) return;
  const at = S.replayIndex === null ? S.gv.index : S.replayIndex;
  if (at >= S.gv.index) replayTo(0).then(nextReplayStep);
  else nextReplayStep();
}

function nextReplayStep() {
  if (!S.replaying || S.replayTimer !== null) return;
  S.replayTimer = setTimeout(async () => {
    S.replayTimer = null;
    if (!S.replaying) return;
    const at = S.replayIndex === null ? S.gv.index : S.replayIndex;
    if (at < S.gv.index) await replayTo(at + 1);
    if ((S.replayIndex === null ? S.gv.index : S.replayIndex) >= S.gv.index) playReplay(false);   // the end: it stops
    else nextReplayStep();
  }, REPLAY_STEP_MS);
}

async function playOn(index) {
  try {
    const made = await S.mods.extras.playOnFrom(GAME_ID, index, S.seat === null ? 0 : S.seat, "normal");
    const seatRow = (made.seats || []).find((s) => s.token);
    const tokenOf = made.token || (seatRow && seatRow.token);
    const seat = made.seat ?? (seatRow ? seatRow.seat : 0);
    if (tokenOf) rememberSeatToken(made.id, seat, tokenOf, { game: S.gv.game });
    location.href = `/play/${made.id}#seat=${seat}`;
  } catch (e) { setError(`Could not start a game from here: ${e.message}`); }
}

// -- deciding -------------------------------------------------------------------------------

function onTarget(key) {
  const gv = S.gv;
  if (!gv || S.shown) return;
  const legal = gv.legal_actions || [];
  const setKeys = new Set(legal.filter(isSet).flatMap(targetsOf));
  if (setKeys.has(key)) { toggle(key); return; }
  S.ui.focus = key;
  render();
  const first = document.querySelector("#target-actions button.action");
  if (first) first.focus();
}

function toggle(key) {
  if (S.ui.selected.has(key)) S.ui.selected.delete(key); else S.ui.selected.add(key);
  render();
  const again = document.querySelector(`#set-select [data-target="${CSS.escape(key)}"]`);
  if (again) again.focus();
}

function act(a) { return send(a.notation); }

// Typed notation: one the view already refuses (a row of "Why not?") is answered with its reason
// at once, as the server would answer it; any other text is the server's to judge.
function playNotation(text) {
  const said = (t) => t.trim().split(/\s+/).map((w, i) => (i === 0 ? w.toUpperCase() : w)).join(" ");
  const row = (withRefused(S.gv).refused || []).find((r) => said(r.notation) === said(text));
  if (!row) return send(text);
  setError(`Not played: ${row.reason || "not allowed now"}`, row.rule);
  return undefined;
}

async function send(notation) {
  if (S.busy || !S.gv) return;
  S.busy = true;
  setError("");
  render();
  try {
    await api(gameUrl("/actions"), { method: "POST", token: token(), body: { action: notation, expected_index: S.gv.index } });
    S.busy = false;
    if (!S.wsOpen) await refresh(); else render();
  } catch (e) {
    S.busy = false;
    if (e instanceof ApiError && e.status === 409) { await refresh(); return; }
    setError(`Not played: ${e.message}`, e instanceof ApiError ? e.body.rule : null);
    render();
  }
}

async function undo() {
  try {
    await api(gameUrl("/undo"), { method: "POST", token: token(), body: { expected_index: S.gv.index } });
    if (!S.wsOpen) await refresh();
  } catch (e) {
    setError(`Not undone: ${e.message}`, e instanceof ApiError ? e.body.rule : null);
  }
}

async function handOver(bot, level = "normal") {
  try {
    await api(gameUrl(`/seats/${S.seat}/bot`), { method: "POST", token: token(), body: bot ? { bot: true, level } : { bot: false } });
    await refresh();
  } catch (e) { setError(`The seat did not change hands: ${e.message}`); }
}

async function suggest() {
  const box = $("suggestion");
  box.hidden = false;
  box.textContent = "thinking…";
  try {
    const s = await S.mods.extras.suggest(GAME_ID, token());
    const chance = typeof s.win_chance === "number" ? ` — estimated win chance ${Math.round(s.win_chance * 100)}%` : "";
    box.replaceChildren(`Suggested: ${s.label || s.notation}${chance} `,
      el("button", { type: "button", text: "Play it", onclick: () => send(s.notation) }));
  } catch (e) { box.textContent = `No suggestion: ${e.message}`; }
}

// -- the log and chat ---------------------------------------------------------------------

async function pick(index) {
  const extras = S.mods.extras;
  if (!extras || !extras.viewAt) { setError("Earlier positions are not available on this server."); return; }
  if (S.replaying) playReplay(false);   // a position picked in the log: the replay's play stops there
  if (index === S.gv.index) { S.shown = null; render(); return; }
  try { S.shown = await extras.viewAt(GAME_ID, token(), index); render(); }
  catch (e) { setError(`That position could not be shown: ${e.message}`); }
}

// `live`: pushed while the page is open. The chat is at the foot of the side column (on a phone,
// below the whole board): a message from someone else that arrives out of sight is announced in
// the decision box, where the eyes are, until the chat is seen.
function addChat(m, live = false) {
  const list = $("chat-messages");
  if (list.querySelector(`[data-id="${m.id}"]`)) return;
  list.append(el("li", { dataset: { id: m.id } }, el("strong", { text: `${m.name}: ` }), m.text));
  list.scrollTop = list.scrollHeight;
  if (live && (S.seat === null || m.seat !== S.seat) && !chatInSight()) {
    $("chat-alert-text").textContent = `${m.name}: ${m.text}`;
    $("chat-alert").hidden = false;
  }
}

function chatInSight() {
  const r = $("chat-messages").getBoundingClientRect();
  return !document.hidden && r.height > 0 && r.top < window.innerHeight && r.bottom > 0;
}

function showChat() {
  $("chat-alert").hidden = true;
  $("chat-messages").scrollIntoView({ block: "center" });
  if (!$("chat-form").hidden) $("chat-text").focus({ preventScroll: true });
}

async function loadChat() {
  // A spectator reads the chat but has no box to write in (the server takes the seats' words only):
  // said, so that nobody looks for the missing box. Both are set with the first view, before the
  // earlier messages come: a seat's box must not appear seconds after its decision on a slow line.
  $("chat-readonly").hidden = S.seat !== null;
  const form = $("chat-form");
  form.hidden = S.seat === null;
  if (S.seat !== null) form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    if (!text) return;
    try { addChat(await api(gameUrl("/chat"), { method: "POST", token: token(), body: { text } })); input.value = ""; }
    catch (err) { setError(`Not sent: ${err.message}`); }
  });
  try { for (const m of await api(gameUrl("/chat"))) addChat(m); } catch { /* the game view shows the error */ }
}

function linkStyles(href) {
  const link = el("link", { rel: "stylesheet", href });
  const loaded = new Promise((resolve) => { link.addEventListener("load", resolve); link.addEventListener("error", resolve); });
  document.head.append(link);
  return loaded;
}

async function loadModules() {
  let files = [];
  try { files = (await api("/api/web/modules")).files; } catch { files = []; }
  useRulesApi(files.includes("rules.js"));   // the rules reference comes with its page
  if (files.includes("table.js")) {
    // The board's style sheet first, so that the first board drawn is drawn styled (table.js
    // would link it at its first draw, and the board would show unstyled until it loaded).
    if (files.includes("table.css")) await linkStyles("/static/table.css");
    try { S.mods.table = await import("/static/table.js"); } catch (e) { S.mods.table = null; }
  }
  if (files.includes("patch.js")) {
    try { S.mods.patch = await import("/static/patch.js"); } catch (e) { S.mods.patch = null; }
  }
  if (files.includes("extras.js")) {
    try { S.mods.extras = await import("/static/extras.js"); } catch (e) { S.mods.extras = null; }
  }
}

async function main() {
  if (!GAME_ID) { failPage("No game named in the address."); return; }
  $("pass-ready").addEventListener("click", onPassReady);
  $("skip-to-now").addEventListener("click", skipToNow);
  $("chat-alert-show").addEventListener("click", showChat);
  window.addEventListener("scroll", () => { if (!$("chat-alert").hidden && chatInSight()) $("chat-alert").hidden = true; },
    { passive: true });
  // The page's first Tab stop: past the header and the table's targets, to the decision.
  $("skip-to-decision").addEventListener("click", () => { $("decision").tabIndex = -1; $("decision").focus(); });
  $("board-zoom").addEventListener("click", () => setZoom(!S.zoom));
  log = new Log($("log"), logOptions());
  await loadModules();
  try { await resolveSeats(); } catch (e) {
    failPage(e instanceof ApiError && e.status === 404 ? `There is no game ${GAME_ID}.` : `Could not open the game: ${e.message}`);
    return;
  }
  if (S.mods.extras && S.mods.extras.analysisInfo && S.seat !== null) {
    try { S.suggestions = !!(await S.mods.extras.analysisInfo(GAME_ID)).suggestions; } catch { /* kept from the lobby */ }
  }
  try { show(await api(gameUrl(), { token: token() }), true); } catch (e) {
    failPage(e instanceof ApiError && e.status === 404 ? `There is no game ${GAME_ID}.` : `Could not load the game: ${e.message}`);
    return;
  }
  connect();
  // "Watch the bots play" (/watch/{id}#replay): a game over already is replayed from its start;
  // one still going is watched live.
  if (MODE === "watch" && new URLSearchParams(location.hash.slice(1)).has("replay") && S.gv.status === "over") {
    playReplay(true);
  }
  loadChat();
  mountMail($("mail"), GAME_ID, () => ({ seat: S.seat, token: token(), over: !!S.gv && S.gv.status === "over" }));
  mountDevice();
  setInterval(showClock, 1000);
  api(`/api/options/${S.gv.game}`).then((o) => {
    S.levels = o.bot_levels; delete $("controls").dataset.signature; render();
  }).catch(() => { /* the default level stays */ });
}

// "Play on another device": the seat's own token makes a one-use link for the seat
// (POST .../device-link); opened on the other device, it moves the seat there, and this page,
// whose token then opens nothing, says so (its socket is closed with 4403).
function mountDevice() {
  const box = $("device");
  if (!box) return;
  const draw = () => {
    box.hidden = S.seat === null || S.hotseat || !token();
    if (box.hidden || box.dataset.seat === String(S.seat)) return;
    box.dataset.seat = String(S.seat);
    const button = el("button", { type: "button", id: "device-link-button", text: "Play on another device" });
    const out = el("p", { class: "help", id: "device-link-out" });
    button.addEventListener("click", async () => {
      try {
        const made = await api(gameUrl(`/seats/${S.seat}/device-link`), { method: "POST", token: token() });
        const link = new URL(made.join_link, location.origin).href;
        const field = el("input", { class: "join-link", id: "device-link", readonly: true, value: link, size: 40,
          "aria-label": "link that moves this seat to another device" });
        fill(out, "Open this link on the other device (once): the seat moves there, and this page watches. ", field);
      } catch (e) { fill(out, `No link was made: ${e.message}`); }
    });
    fill(box, button, out);
  };
  draw();
  setInterval(draw, 1000);
}

main();
