// The Ceres belt as rings x zones: Outer, Intermediate and Inner rings, each cut into Zones
// (the rings rotate each round; view.rotation says how far), the Asteroids in their current
// Zone with the Mining Probe that claimed them, and the Comets with their Surface card slots,
// Tail tokens and Nucleus tables.

import { s, h, tip, textOf, factsOf } from "./svg.js";

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
  const cells = {};
  for (const id in belt) {
    const a = belt[id];
    const key = `${a.ring}|${a.zone}`;
    (cells[key] = cells[key] || []).push(id);
  }
  for (const key in cells) {
    const ids = cells[key].sort();
    ids.forEach((id, k) => svg.append(drawAsteroid(ctx, id, belt[id], rings, zones, k, ids.length)));
  }
  (v.comets || []).forEach((c) => {
    if (c.in_belt && !c.removed) svg.append(drawCometMark(ctx, c, rings, zones));
  });
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
    `${ring} ring${rot !== undefined ? ` · rotated ${rot}` : ""}`));
  return g;
}

function seatLabel(ctx, seat) {
  return ctx.seatNames[seat] || `Player ${seat + 1}`;
}

function drawAsteroid(ctx, id, a, rings, zones, k, n) {
  const ri = rings.indexOf(a.ring);
  const r = R_OUT - ri * RING_W - RING_W / 2;
  const span = (2 * Math.PI) / zones;
  const angle = mid(a.zone, zones) + (k - (n - 1) / 2) * (span / Math.max(n, 2)) * 0.8;
  const [x, y] = polar(r, angle);
  const entry = ctx.names[id];
  const gain = factsOf(ctx.names, id).gain;
  const owned = a.probe !== null && a.probe !== undefined;
  const label = `Asteroid ${id} (${a.ring} ring, Zone ${a.zone})${owned ? `, Mining Probe of ${seatLabel(ctx, a.probe)}` : ""}`;
  return s("g", { ...ctx.t(`asteroid:${id}`, label, "asteroid"), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` },
    tip(`${label}${entry && entry.text ? ": " + entry.text : ""}`),
    s("circle", { class: "rock", r: 17 }),
    s("text", { class: "aid", y: -2, "text-anchor": "middle" }, id),
    gain ? s("text", { class: "gain", y: 8, "text-anchor": "middle" }, gain) : null,
    owned ? s("circle", { class: `probe o-${a.probe}`, cx: 13, cy: -12, r: 5 }, tip(`Mining Probe of ${seatLabel(ctx, a.probe)}`)) : null);
}

function drawCometMark(ctx, c, rings, zones) {
  const ri = Math.max(0, rings.indexOf(c.ring));
  const r = R_OUT - ri * RING_W - RING_W / 2;
  const span = (2 * Math.PI) / zones;
  const [x, y] = polar(r, mid(c.zone, zones) + span * 0.36);
  const label = `Comet ${c.id} (${c.kind || ""}) in ${c.ring} ring, Zone ${c.zone}`;
  return s("g", { ...ctx.t(`comet:${c.id}`, label, `comet-mark ${cometClass(c)}`), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` },
    tip(label),
    s("path", { d: "M0,0 L-16,-8 L-13,0 L-16,8 Z", class: "tail" }),
    s("circle", { r: 7 }),
    s("text", { y: 3, "text-anchor": "middle" }, c.id));
}

function cometClass(c) {
  return String(c.kind || "").toLowerCase().includes("sungrazer") ? "sungrazer" : "near-sun";
}

const TAIL_ROWS = ["Coma", "Ion", "Dust"];

/** Each Comet's card: Surface card slots, the Nucleus card's three tables, the Tail tokens. */
function drawComets(ctx) {
  const comets = ctx.view.comets || [];
  if (!comets.length) return null;
  return h("div", { class: "ecl-comets" }, comets.map((c) => {
    const where = c.removed ? "removed" : c.in_belt ? `${c.ring} ring, Zone ${c.zone}` : "not yet in the belt";
    const nucleus = ctx.names[c.nucleus];
    const tables = factsOf(ctx.names, c.nucleus).tables;
    const head = h("header", null,
      h("b", { ...ctx.t(`comet:${c.id}`, `Comet ${c.id}`, `comet ${cometClass(c)}`), title: textOf(ctx.names, c.id) }, `Comet ${c.id}`),
      ` · ${c.kind || ""} · ${where}`);
    const slots = h("div", { class: "slots" }, "Surface card: ",
      (c.slots || []).map((seat, i) => h("span", {
        class: `slot${seat !== null && seat !== undefined ? " probe o-" + seat : " empty"}`,
        title: seat !== null && seat !== undefined ? `slot ${i + 1}: Mining Probe of ${seatLabel(ctx, seat)}` : `slot ${i + 1}: empty`,
      }, seat !== null && seat !== undefined ? String(seat + 1) : "·")));
    const rows = [h("tr", null, h("th", null, ""), (c.tails || []).map((_, i) =>
      h("th", { ...ctx.t(`tail:${i + 1}`, `Tail ${i + 1} of Comet ${c.id}`, "tail-head") }, `Tail ${i + 1}`)))];
    rows.push(h("tr", { class: "nucleus" }, h("th", { title: textOf(ctx.names, c.nucleus) }, `Nucleus ${c.nucleus}`),
      (c.tails || []).map((_, i) => h("td", { class: "table-cell", title: nucleus && nucleus.text ? nucleus.text : "" },
        tables[i] || `table ${i + 1}`))));
    TAIL_ROWS.forEach((kind, row) => {
      rows.push(h("tr", null, h("th", null, kind), (c.tails || []).map((t, i) => {
        const tok = t[row];
        return h("td", { ...ctx.t(`tail:${i + 1}`, `Tail ${i + 1} of Comet ${c.id}`, `tail-cell${tok ? " has" : ""}`), title: tok ? textOf(ctx.names, tok) : "" },
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
    h("span", { class: "stat" }, h("b", null, "Round"), ` ${v.round} · ${v.phase}`),
    v.comets && v.comets.length ? h("span", { class: "stat" }, h("b", null, "Nucleus cards in the box"), ` ${v.nucleus_box}`) : null,
    ex && ex.cards !== undefined && v.comets && v.comets.length
      ? h("span", { class: "stat", title: `${ex.Safe} Safe, ${ex.Explosion} Explosion (order unknown)` }, h("b", null, "Explosion Check cards"), ` ${ex.cards}`) : null,
    (v.removed_tails || []).length ? h("span", { class: "stat", title: v.removed_tails.map((t) => textOf(ctx.names, t)).join("\n") },
      h("b", null, "Tail tokens removed"), ` ${v.removed_tails.length}`) : null);
}
