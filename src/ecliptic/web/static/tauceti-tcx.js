// The Tau Ceti Exchange (TCX) and the shared supplies: Market levels, Crisis token stacks,
// the Supply and Demand piles, the prices at the viewing seat's planet (present.prices),
// the Galactic Depot, the decks, and the battle being fought.

import { h, nameOf, textOf, cls, stat, phaseName } from "./svg.js";

export function drawTcx(ctx) {
  const v = ctx.view;
  return h("div", { class: "ecl-tcx", role: "group", "aria-label": "Tau Ceti Exchange" },
    h("h3", null, "TCX", h("span", { class: "round" }, ` · round ${v.round} · ${phaseName("tauceti", v.phase)}`)),
    h("div", { class: "tcx-parts" }, market(ctx), crisisStacks(ctx), piles(ctx), prices(ctx), depot(ctx), decks(ctx)),
    battle(ctx));
}

function market(ctx) {
  const m = ctx.view.market || {};
  return h("div", { class: "market" }, h("h4", null, "Market levels"),
    h("div", { class: "t-row" }, Object.keys(m).map((k) =>
      h("span", { ...ctx.t(`market:${k}`, `${k} Market level ${m[k]}`, `level sk-${cls(k)}`), title: `${k} Market level ${m[k]}` },
        h("b", null, k), " ", h("span", { class: "pips" }, "●".repeat(Math.max(0, Math.min(m[k], 8)))), ` ${m[k]}`))));
}

function crisisStacks(ctx) {
  const c = ctx.view.crisis_stacks || {};
  return h("div", { class: "crisis-stacks" }, h("h4", null, "Crisis token stacks"),
    h("div", { class: "t-row" }, Object.keys(c).map((k) =>
      h("span", { class: `stack k-${cls(k)}`, title: `${k}: ${c[k]} Crisis tokens left` }, `${k} ${c[k]}`))));
}

function counts(list) {
  const out = {};
  for (const x of list) out[x] = (out[x] || 0) + 1;
  return out;
}

function piles(ctx) {
  const v = ctx.view;
  const supply = counts(v.supply || []);
  return h("div", { class: "piles" }, h("h4", null, "Supply and Demand piles"),
    h("div", { class: "t-row supply" }, "Supply pile: ",
      Object.keys(supply).sort().map((c) =>
        h("span", { ...ctx.t(`commodity:${c}`, `${nameOf(ctx.names, c)} in the Supply pile`, "commodity"), title: textOf(ctx.names, c) },
          `${nameOf(ctx.names, c)} ×${supply[c]}`))),
    h("div", { class: "t-row" }, stat("Demand pile", v.demand_pile),
      v.enlightenment && v.enlightenment.affected ? stat("Enlightenment", nameOf(ctx.names, v.enlightenment.affected)) : null,
      activeDeck(v)));
}

/** The Active deck of the Enlightenment phase: its cards lie face down, so only their number
 *  is shown (the view's ``enlightenment.active_deck``), while the phase is on or cards are in it. */
function activeDeck(v) {
  const e = v.enlightenment;
  const n = e && typeof e.active_deck === "number" ? e.active_deck : 0;
  if (!n && v.phase !== "enlightenment") return null;
  return stat("Active deck", n, { class: "stat active-deck", title: `${n} face-down cards in the Active deck` });
}

function prices(ctx) {
  const p = ctx.present.prices;
  if (!p) return null;
  const me = (ctx.view.players || [])[ctx.seat];
  const rows = Object.keys(p).map((c) => h("tr", { ...ctx.t(`commodity:${c}`, `${nameOf(ctx.names, c)} price`, "price") },
    h("th", { title: textOf(ctx.names, c) }, nameOf(ctx.names, c)),
    h("td", null, p[c].buy === null || p[c].buy === undefined ? "–" : `${p[c].buy}T`),
    h("td", null, p[c].sell === null || p[c].sell === undefined ? "–" : `${p[c].sell}T`)));
  return h("table", { class: "prices" },
    h("caption", null, `Prices${me ? " at " + nameOf(ctx.names, me.position) : ""}`),
    h("thead", null, h("tr", null, h("td", null, ""), h("th", null, "buy"), h("th", null, "sell"))),
    h("tbody", null, rows));
}

function depot(ctx) {
  const v = ctx.view;
  const k = v.depot_knowledge || {};
  const systems = v.depot_systems || [];
  return h("div", { class: "depot" }, h("h4", null, "Galactic Depot"),
    h("div", { class: "t-row" }, "Knowledge: ", Object.keys(k).map((t) =>
      h("span", { ...ctx.t(`knowledge:${t}`, `${t} Knowledge in the Depot`, `ktoken k-${cls(t)}`), title: `${t}: ${k[t]} in the Depot${ctx.names[t] && ctx.names[t].text ? " · " + ctx.names[t].text : ""}` }, `${t} ${k[t]}`))),
    h("div", { class: "t-row systems-tokens", title: systems.map((y) => textOf(ctx.names, y)).join("\n") },
      `Systems tokens: ${systems.length}`));
}

// A deck's key in the view as the rulebook names the deck.
const DECK_NAMES = {
  crisis: "Crisis cards", specialist: "Specialist cards", knowledge: "Knowledge cards",
  mission: "IM cards", exotic: "Exotic Tech cards", outer_limit: "Outer Limit tiles", large_tiles: "Large tiles",
};

function decks(ctx) {
  const v = ctx.view;
  const d = v.decks || {};
  const discards = v.discards || {};
  return h("div", { class: "decks" }, h("h4", null, "Decks"),
    h("div", { class: "t-row" }, Object.keys(d).map((k) => {
      const gone = discards[k] || [];
      return h("span", { class: "deck", title: gone.length ? `discarded: ${gone.map((c) => nameOf(ctx.names, c)).join(", ")}` : "" },
        `${DECK_NAMES[k] || k.replaceAll("_", " ")} ${d[k]}${gone.length ? ` (${gone.length} discarded)` : ""}`);
    })),
    h("div", { class: "t-row" }, stat("GP tokens", v.gp_supply), stat("Damage markers", v.damage_supply),
      stat("Diplomacy cards", v.diplomacy_left),
      v.bag ? h("span", { class: "stat", title: `Resource cubes in the Enlightenment bag: ${Object.entries(v.bag).map(([f, n]) => `${f} ${n}`).join(", ")}` },
        h("b", null, "Enlightenment bag"), ` ${Object.values(v.bag).reduce((a, b) => a + b, 0)}`) : null));
}

/** The battle being fought (the view's ``battle``): its Initiator (who placed the Battle token)
 *  and Defender in the rulebook's words, who attacks next (``attacker``) until it is won, the
 *  shields; and the sectors whose battles are still to fight this Battle phase (``battles``). */
function battle(ctx) {
  const b = ctx.view.battle;
  const waiting = ctx.view.battles || [];
  const players = ctx.view.players || [];
  const f = (seat) => (players[seat] ? players[seat].faction : `Seat ${seat + 1}`);
  const later = waiting.length ? h("div", { class: "battles-left" },
    `Battles still to fight: ${waiting.map((t) => nameOf(ctx.names, t)).join(", ")}`) : null;
  if (!b) return later ? h("div", { class: "battle-panel", role: "status" }, later) : null;
  const shields = b.shields || {};
  const over = b.winner !== null && b.winner !== undefined;
  const next = !over && players[b.attacker] ? h("div", { class: "attacker" }, `${f(b.attacker)} attacks next`) : null;
  return h("div", { class: "battle-panel", role: "status" }, h("h4", null, `Battle at ${nameOf(ctx.names, b.sector)}`),
    h("div", null, `${f(b.initiator)} (Initiator) against ${f(b.defender)} (Defender)`,
      over ? ` · won by ${f(b.winner)}` : "",
      b.retreated !== null && b.retreated !== undefined ? ` · ${f(b.retreated)} retreated` : ""),
    next,
    Object.keys(shields).map((seat) => h("div", null, `${f(Number(seat))} shields: ${[].concat(shields[seat]).join(", ") || "none"}`)),
    later);
}
