// The score sheet: GP (Tau Ceti) or VP (Ceres) by source per player, from the engine's final
// scores once the game is over, else the running score the server counts (present.score).
import { el, pointsName, tableName } from "/static/api.js";

const SOURCE_NAMES = {
  tau: "TAU", cards: "Cards", orbitals: "Orbitals", cubes: "Resource cubes", gp_tokens: "GP tokens",
  assists: "Assists", virus_crystals: "Virus crystals", specialization_raised: "Specialization raised",
  home_crises: "Crises at home", asteroids: "Asteroids", tail_tokens: "Tail tokens", nucleus_tables: "Nucleus tables",
};

export function sourceName(key) { return SOURCE_NAMES[key] || key.replaceAll("_", " "); }

// [{seat, total, by_source}] from the view, or null when it has none.
export function scoreRows(gv) {
  const finals = gv.view && Array.isArray(gv.view.final_scores) ? gv.view.final_scores : null;
  if (finals && finals.length) {
    return finals.map((s, seat) => {
      const by = {};
      for (const [k, v] of Object.entries(s)) if (k !== "total" && typeof v === "number") by[k] = v;
      return { seat, total: s.total, by_source: by };
    });
  }
  const running = gv.present && Array.isArray(gv.present.score) ? gv.present.score : null;
  return running && running.length ? running : null;
}

// A column's heading: the name the game's texts give the seat (Tau Ceti's faction, the colour
// on the table; Ceres' "Player 2", as the log says it); who plays it is the heading's tooltip.
function shortName(gv, seat, seatName) {
  const info = (gv.seats || [])[seat];
  return tableName(gv, seat) || (info ? info.name : seatName(seat));
}

export function renderScore(root, gv, seatName) {
  const rows = scoreRows(gv);
  if (!rows) { root.replaceChildren(); root.hidden = true; return; }
  root.hidden = false;
  const over = gv.status === "over";
  const sources = [];
  for (const r of rows) for (const k of Object.keys(r.by_source || {})) if (!sources.includes(k)) sources.push(k);
  const winners = new Set((gv.view && gv.view.winners) || []);
  const table = el("table", { class: "score-sheet", id: "score-sheet" },
    el("caption", { text: over ? `Final score (${pointsName(gv.game)})` : `Running score (${pointsName(gv.game)} counted so far)` }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Source" }),
      rows.map((r) => el("th", { scope: "col", class: winners.has(r.seat) && over ? "winner" : "", title: seatName(r.seat),
        text: `${shortName(gv, r.seat, seatName)}${winners.has(r.seat) && over ? " ★" : ""}` })))),
    el("tbody", {}, sources.map((k) => el("tr", {}, el("th", { scope: "row", text: sourceName(k) }),
      rows.map((r) => el("td", { text: (r.by_source || {})[k] ?? 0 })))),
    el("tr", { class: "total" }, el("th", { scope: "row", text: "Total" }), rows.map((r) => el("td", { text: r.total })))));
  root.replaceChildren(table);
}
