// The Ceres belt as rings x zones: Outer, Intermediate and Inner rings, each cut into Zones
// (the rings rotate each round; view.rotation says how far), the Asteroids in their current
// Zone with the Mining Probe that claimed them, and the Comets with their Surface card slots,
// Tail tokens and Nucleus tables.

import { s, h, tip, textOf, factsOf, phaseName } from "./svg.js";

const RING_ORDER = ["Outer", "Intermediate", "Inner"];
const R_OUT = 200;
const RING_W = 50;

export function drawBelt(ctx) {
  const v = ctx.view;
  const belt = v.belt || {};
  const rings = ringNames(belt, v);
  let zones = 0;
  for (const a in belt) zones = Math.max(zones, belt[a].zone || 0);
  for (const c of v.comets || []) zones = Math.max(zones, c.zone || 0);
  zones = Math.max(zones, 1);
  const svg = s("svg", { class: "ecl-belt", viewBox: "-250 -250 500 500", role: "group", "aria-label": "The Asteroid Belt" });
  rings.forEach((ring, i) => svg.append(drawRing(ctx, ring, i, zones)));
  for (let z = 1; z <= zones; z++) {
    const [x, y] = polar(R_OUT + 16, mid(z, zones));
    svg.append(s("text", { class: "zone-label", x: x.toFixed(1), y: (y + 4).toFixed(1), "text-anchor": "middle" }, `Zone ${z}`));
  }
  svg.append(s("circle", { class: "sun", r: R_OUT - rings.length * RING_W - 6 }, tip("Ceres")));
  // A Comet in the belt takes a place in its cell beside the Asteroids there (the last one),
  // so that its token never covers an Asteroid's print.
  const cells = {};
  const cellOf = (ring, zone) => { const key = `${ring}|${zone}`; return (cells[key] = cells[key] || { rocks: [], comets: [] }); };
  for (const id in belt) cellOf(belt[id].ring, belt[id].zone).rocks.push(id);
  for (const c of v.comets || []) if (c.in_belt && !c.removed) cellOf(c.ring, c.zone).comets.push(c);
  for (const key in cells) {
    const { rocks, comets } = cells[key];
    const [ring, zone] = [key.slice(0, key.lastIndexOf("|")), Number(key.slice(key.lastIndexOf("|") + 1))];
    const at = placeInCell(Math.max(0, rings.indexOf(ring)), zone, zones,
      [...rocks.map(() => 2 * ROCK_R), ...comets.map(() => 2 * COMET_R)]);
    rocks.sort().forEach((id, k) => svg.append(drawAsteroid(ctx, id, belt[id], at[k])));
    comets.forEach((c, k) => svg.append(drawCometMark(ctx, c, at[rocks.length + k])));
  }
  return h("div", { class: "ecl-belt-wrap" }, h("div", { class: "ecl-belt-box ecl-zoom-box", "data-zoom-box": "belt" }, svg),
    drawComets(ctx), beltFacts(ctx));
}

function ringNames(belt, v) {
  const seen = new Set();
  for (const id in belt) seen.add(belt[id].ring);
  for (const r in v.rotation || {}) seen.add(r);
  const known = RING_ORDER.filter((r) => seen.has(r));
  for (const r of seen) if (!known.includes(r)) known.push(r);
  return known;
}

function mid(zone, zones) {
  return ((zone - 0.5) / zones) * 2 * Math.PI - Math.PI / 2;
}

function polar(r, a) {
  return [r * Math.cos(a), r * Math.sin(a)];
}

function drawRing(ctx, ring, i, zones) {
  const outer = R_OUT - i * RING_W;
  const inner = outer - RING_W;
  const g = s("g", { class: `ring ring-${i}` });
  for (let z = 1; z <= zones; z++) {
    const a0 = ((z - 1) / zones) * 2 * Math.PI - Math.PI / 2;
    const a1 = (z / zones) * 2 * Math.PI - Math.PI / 2;
    const [x0, y0] = polar(outer, a0), [x1, y1] = polar(outer, a1);
    const [x2, y2] = polar(inner, a1), [x3, y3] = polar(inner, a0);
    g.append(s("path", {
      class: "cell",
      d: `M${x0.toFixed(1)},${y0.toFixed(1)} A${outer},${outer} 0 0 1 ${x1.toFixed(1)},${y1.toFixed(1)} L${x2.toFixed(1)},${y2.toFixed(1)} A${inner},${inner} 0 0 0 ${x3.toFixed(1)},${y3.toFixed(1)} Z`,
    }, tip(`${ring} ring, Zone ${z}`)));
  }
  const rot = (ctx.view.rotation || {})[ring];
  g.append(s("text", { class: "ring-label", x: -246, y: -236 + i * 12 },
    `${ring} ring${rot !== undefined ? ` · rotated ${rot} ${rot === 1 ? "Zone" : "Zones"}` : ""}`));
  return g;
}

// A seat as the log names it ("Player 2"), then who plays it, as the page's other seat names.
function seatLabel(ctx, seat) {
  const player = (ctx.view.players || [])[seat];
  const table = (player && player.name) || `Player ${seat + 1}`;
  const person = ctx.seatNames[seat];
  return person && String(person).toLowerCase() !== table.toLowerCase() ? `${table} · ${person}` : table;
}

const ROCK_R = 17;    // an Asteroid's circle
const COMET_R = 8;    // a Comet token's head (its tail points away from the Sun, along the radius)

/** The centres [x, y, angle] of the things of one cell (ring index `ri`, Zone `zone`), side by
 *  side along the ring, each as wide as `widths` says, spread over at most 90% of the arc. */
function placeInCell(ri, zone, zones, widths) {
  const r = R_OUT - ri * RING_W - RING_W / 2;
  const arc = ((2 * Math.PI) / zones) * r * 0.9;
  const need = widths.reduce((a, b) => a + b, 0);
  const gap = widths.length > 1 ? Math.max(0, Math.min(6, (arc - need) / (widths.length - 1))) : 0;
  let along = -(need + gap * (widths.length - 1)) / 2;
  return widths.map((w) => {
    const a = mid(zone, zones) + (along + w / 2) / r;
    along += w + gap;
    return [...polar(r, a), a];
  });
}

function drawAsteroid(ctx, id, a, [x, y]) {
  const entry = ctx.names[id];
  const gain = factsOf(ctx.names, id).gain;
  const owned = a.probe !== null && a.probe !== undefined;
  const label = `Asteroid ${id} (${a.ring} ring, Zone ${a.zone})${owned ? `, Mining Probe of ${seatLabel(ctx, a.probe)}` : ""}`;
  return s("g", { ...ctx.t(`asteroid:${id}`, label, "asteroid"), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` },
    tip(`${label}${entry && entry.text ? ": " + entry.text : ""}`),
    s("circle", { class: "rock", r: ROCK_R }),
    s("text", { class: "aid", y: -2, "text-anchor": "middle" }, id),
    gain ? s("text", { class: "gain", y: 8, "text-anchor": "middle" }, gain) : null,
    owned ? s("circle", { class: `probe o-${a.probe}`, cx: 13, cy: -12, r: 5 }, tip(`Mining Probe of ${seatLabel(ctx, a.probe)}`)) : null);
}

function drawCometMark(ctx, c, [x, y, angle]) {
  const label = `Comet ${c.id} (${c.kind || ""}) in ${c.ring} ring, Zone ${c.zone}`;
  const deg = ((angle * 180) / Math.PI).toFixed(1);
  return s("g", { ...ctx.t(`comet:${c.id}`, label, `comet-mark ${cometClass(c)}`), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` },
    tip(label),
    s("path", { d: "M7,0 L24,-7 L21,0 L24,7 Z", class: "tail", transform: `rotate(${deg})` }),
    s("circle", { r: COMET_R }),
    s("text", { y: 3, "text-anchor": "middle" }, c.id));
}

function cometClass(c) {
  return String(c.kind || "").toLowerCase().includes("sungrazer") ? "sungrazer" : "near-sun";
}

const TAIL_ROWS = ["Coma", "Ion", "Dust"];

/** Each Comet's card: Surface card slots, the Nucleus card's three tables, the Tail tokens. */
function drawComets(ctx) {
  const v = ctx.view;
  const comets = v.comets || [];
  if (!comets.length) return null;
  return h("div", { class: "ecl-comets" }, comets.map((c) => {
    // ``removed`` is set only by an Explosion Check card (CC-SUN-4): the Comet exploded.
    const where = c.removed ? "exploded: its Comet token is removed from the Asteroid Belt"
      : c.in_belt ? `${c.ring} ring, Zone ${c.zone}` : "not yet in the belt";
    const nucleus = ctx.names[c.nucleus];
    const tables = factsOf(ctx.names, c.nucleus).tables;
    const head = h("header", null,
      h("b", { ...ctx.t(`comet:${c.id}`, `Comet ${c.id}`, `comet ${cometClass(c)}`), title: textOf(ctx.names, c.id) }, `Comet ${c.id}`),
      ` · ${c.kind || ""} · ${where}`);
    const slots = h("div", { class: "slots" }, "Surface card: ",
      (c.slots || []).map((seat, i) => {
        const said = seat !== null && seat !== undefined ? `slot ${i + 1}: Mining Probe of ${seatLabel(ctx, seat)}` : `slot ${i + 1}: empty`;
        return h("span", { class: `slot${seat !== null && seat !== undefined ? " probe o-" + seat : " empty"}`,
          title: said, role: "img", "aria-label": said }, seat !== null && seat !== undefined ? String(seat + 1) : "·");
      }));
    // A Tail target key (tail:1..3) names a tail of the Comet of the decision (view.decision's
    // comet): only that Comet's tails are targets. Its "Tail N" heading is the keyboard's one
    // stop per tail; the tokens under it answer a click only.
    const decided = ((v.decision || {}).data || {}).comet;
    const tailAttrs = (i, klass, stop) => {
      if (decided && decided !== c.id) return { class: klass };
      const attrs = ctx.t(`tail:${i + 1}`, `Tail ${i + 1} of Comet ${c.id}`, klass);
      if (!stop) { delete attrs.tabindex; delete attrs.role; delete attrs["aria-label"]; }
      return attrs;
    };
    const rows = [h("tr", null, h("th", null, ""), (c.tails || []).map((_, i) =>
      h("th", { ...tailAttrs(i, "tail-head", true) }, `Tail ${i + 1}`)))];
    rows.push(h("tr", { class: "nucleus" }, h("th", { title: textOf(ctx.names, c.nucleus) }, `Nucleus ${c.nucleus}`),
      (c.tails || []).map((_, i) => h("td", { class: "table-cell", title: nucleus && nucleus.text ? nucleus.text : "" },
        tables[i] || `table ${i + 1}`))));
    TAIL_ROWS.forEach((kind, row) => {
      rows.push(h("tr", null, h("th", null, kind), (c.tails || []).map((t, i) => {
        const tok = t[row];
        return h("td", { ...tailAttrs(i, `tail-cell${tok ? " has" : ""}`, false), title: tok ? textOf(ctx.names, tok) : "" },
          tok ? h("span", { class: "tail-token" }, tok, factsOf(ctx.names, tok).gain ? ` ${factsOf(ctx.names, tok).gain}` : "") : "–");
      })));
    });
    return h("section", { class: `comet-card ${cometClass(c)}${c.removed ? " removed" : ""}` }, head, slots, h("table", { class: "tails" }, h("tbody", null, rows)));
  }));
}

function beltFacts(ctx) {
  const v = ctx.view;
  const ex = v.explosion_deck;
  return h("div", { class: "belt-facts" },
    h("span", { class: "stat" }, h("b", null, "Round"), ` ${v.round} · ${phaseName("ceres", v.phase)}`),
    v.comets && v.comets.length ? h("span", { class: "stat" }, h("b", null, "Nucleus cards in the box"), ` ${v.nucleus_box}`) : null,
    ex && ex.cards !== undefined && v.comets && v.comets.length
      ? h("span", { class: "stat", title: `${ex.Safe} Safe, ${ex.Explosion} Explosion (order unknown)` }, h("b", null, "Explosion Check cards"), ` ${ex.cards}`) : null,
    (v.removed_tails || []).length ? h("span", { class: "stat", title: v.removed_tails.map((t) => textOf(ctx.names, t)).join("\n") },
      h("b", null, "Tail tokens removed"), ` ${v.removed_tails.length}`) : null);
}
