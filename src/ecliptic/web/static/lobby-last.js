// The lobby's last choices: a player who creates the same kind of table every evening (Tau Ceti,
// 4 seats, two friends and a hard bot, the short game) finds the form as they left it. Kept in
// this browser only (localStorage), written when a game is created; the seed is not kept (a
// new game is a new shuffle). What is read back is checked against the form the engine's
// options build now: a stale or hand-edited entry falls back to the defaults, field by field,
// and never stops the lobby from loading.
export const LAST_KEY = "ecliptic.lobby.last";
const VERSION = 1;

const text = (x) => (typeof x === "string" ? x : "");

function seatOf(x) {
  if (!x || typeof x !== "object") return null;
  const kind = ["person", "bot", "open"].includes(x.kind) ? x.kind : null;
  if (!kind) return null;
  const extras = {};
  if (x.extras && typeof x.extras === "object") for (const k in x.extras) extras[k] = text(x.extras[k]);
  return { kind, name: text(x.name).slice(0, 40), level: text(x.level), extras };
}

// The stored choices, shaped as the form reads them, or null (none, another version, not JSON).
export function readLast() {
  let last;
  try { last = JSON.parse(localStorage.getItem(LAST_KEY) || "null"); } catch { return null; }
  if (!last || typeof last !== "object" || last.v !== VERSION || typeof last.game !== "string") return null;
  const config = {};
  if (last.config && typeof last.config === "object") {
    for (const k in last.config) {
      const v = last.config[k];
      if (typeof v === "string" || typeof v === "boolean") config[k] = v;
      else if (Array.isArray(v)) config[k] = v.filter((c) => typeof c === "string");
    }
  }
  return {
    game: last.game,
    players: Number.isInteger(last.players) ? last.players : null,
    seats: Array.isArray(last.seats) ? last.seats.map(seatOf) : [],
    mySeat: text(last.mySeat) || null,
    config,
    clock: text(last.clock),
    suggestions: last.suggestions === true,
  };
}

export function saveLast(choices) {
  try { localStorage.setItem(LAST_KEY, JSON.stringify({ v: VERSION, ...choices })); } catch { /* storage full or off */ }
}
