// The Ceres belt as rings x zones: Outer, Intermediate and Inner rings, each cut into Zones
// (the rings rotate each round; view.rotation says how far), the Asteroids in their current
// Zone with the Mining Probe that claimed them, and the Comets with their Surface card slots,
// Tail tokens and Nucleus tables.

import { s, h, tip, textOf, factsOf, phaseName } from "./svg.js";

const RING_ORDER = ["Outer", "Intermediate", "Inner"];
// The rings fill the viewBox but for the Zone labels around them and the ring labels in its
// top-left corner: an Asteroid's print reads at 11.2 px (its id) and 9.7 px (what it gives) on
// a belt 78vh high (624 px on a 1280x800 page: 1.25 px a unit).
const R_OUT = 215;
const RING_W = 54;

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
    const [x, y] = polar(R_OUT + 15, mid(z, zones));
    svg.append(s("text", { class: "zone-label", x: x.toFixed(1), y: (y + 4).toFixed(1), "text-anchor": "middle" }, `Zone ${z}`));
  }
  svg.append(s("circle", { class: "sun", r: R_OUT - rings.length * RING_W - 6 }, tip("Ceres")));
  // A Comet in the belt takes a place in its cell beside the Asteroids there, where its token
  // (head and tail) covers no Asteroid's circle or print, of its cell or a neighbour's.
  const cells = {};
  const cellOf = (ring, zone) => { const key = `${ring}|${zone}`; return (cells[key] = cells[key] || { ring, zone, rocks: [], comets: [] }); };
  for (const id in belt) cellOf(belt[id].ring, belt[id].zone).rocks.push(id);
  for (const c of v.comets || []) if (c.in_belt && !c.removed) cellOf(c.ring, c.zone).comets.push(c);
  const list = Object.values(cells);
  list.forEach((cell) => { cell.ri = Math.max(0, rings.indexOf(cell.ring)); cell.rocks.sort(); });
  const prints = {};
  for (const id in belt) prints[id] = printOf(ctx, id);
  const placed = { rocks: [], comets: [] };  // what is drawn so far, for the Comets to avoid
  const rockAt = {}, cometAt = {};
  for (const cell of list.filter((c) => !c.comets.length)) {
    placeInCell(cell.ri, cell.zone, zones, cell.rocks.map(() => 2 * ROCK_R)).forEach((at, k) => {
      rockAt[cell.rocks[k]] = at;
      placed.rocks.push(rockShape(at, prints[cell.rocks[k]]));
    });
  }
  for (const cell of list.filter((c) => c.comets.length).sort((a, b) => a.zone - b.zone || a.ri - b.ri)) {
    const got = placeWithComets(cell, zones, prints, placed);
    cell.rocks.forEach((id, k) => { rockAt[id] = got.rocks[k]; placed.rocks.push(rockShape(got.rocks[k], prints[id])); });
    cell.comets.forEach((c, k) => { cometAt[c.id] = got.comets[k]; placed.comets.push(cometBox(got.comets[k])); });
  }
  for (const cell of list) {
    cell.rocks.forEach((id) => svg.append(drawAsteroid(ctx, id, belt[id], rockAt[id])));
    cell.comets.forEach((c) => svg.append(drawCometMark(ctx, c, cometAt[c.id])));
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

const ROCK_R = 20;    // an Asteroid's circle
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

// -- Where a Comet goes: boxes in the belt's viewBox units -------------------------------

// An Asteroid's print, in viewBox units (table.css: .asteroid .aid, .asteroid .gain): its id,
// then what it gives, the Resources on one line and the VP under them ("1Ice 1Gas", "2VP"),
// each line's baseline below the Asteroid's centre.
const AID_PX = 9, GAIN_PX = 7.8;
const ASCENT = 0.95, DESCENT = 0.25;         // a line's box above and below its baseline, in em
const TAIL = [[7, -7], [24, -7], [24, 7], [7, 7]];  // the box of the tail's path (drawCometMark), along +x
const CLEAR = 3;                             // the room a Comet keeps when there is room

let measurer = null;
/** The width of `text` at `px` in the table's font (table.css .ecl-table; a canvas measures
 *  it; without one, a generous 0.65 em a character). */
function textWidth(text, px, bold) {
  if (!text) return 0;
  if (measurer === null) {
    const canvas = typeof document !== "undefined" && document.createElement ? document.createElement("canvas") : null;
    measurer = (canvas && canvas.getContext && canvas.getContext("2d")) || false;
  }
  if (!measurer) return text.length * px * 0.65;
  measurer.font = `${bold ? "700 " : ""}${px}px system-ui, sans-serif`;
  return measurer.measureText(text).width;
}

/** An Asteroid's lines of print: [class, text, size, baseline], the block centred on the
 *  Asteroid's centre. What it gives ("1Ice 1Gas 2VP") is split: its Resources, then its VP. */
function printLines(ctx, id) {
  const words = (factsOf(ctx.names, id).gain || "").split(" ").filter(Boolean);
  const vp = words.filter((w) => /^\d+VP$/.test(w)), res = words.filter((w) => !/^\d+VP$/.test(w));
  const gains = [res.join(" "), vp.join(" ")].filter(Boolean);
  const lines = [["aid", id, AID_PX]].concat(gains.map((g) => ["gain", g, GAIN_PX]));
  // baselines a line apart; the block (cap height of the id to the last baseline) centred
  const pitch = lines.slice(1).map((l) => l[2] * 1.08);
  const height = 0.73 * AID_PX + pitch.reduce((a, b) => a + b, 0);
  let y = -height / 2 + 0.73 * AID_PX;
  return lines.map((l, i) => { if (i) y += pitch[i - 1]; return [...l, y]; });
}

/** The boxes of an Asteroid's print around its centre, one a line: [x0, y0, x1, y1]. */
function printOf(ctx, id) {
  return printLines(ctx, id).map(([klass, text, px, y]) => {
    const half = textWidth(text, px, klass === "aid") / 2 + 1.5;
    return [-half, y - ASCENT * px - 0.5, half, y + DESCENT * px + 0.5];
  });
}

/** An Asteroid at [x, y]: its circle and the boxes of its lines of print. */
function rockShape([x, y], print) {
  return { x, y, r: ROCK_R + 1, boxes: print.map((b) => [x + b[0], y + b[1], x + b[2], y + b[3]]) };
}

/** The box a Comet token at [x, y, angle] takes: its head and its tail along the radius. */
function cometBox([x, y, a]) {
  const r = COMET_R + 1;
  const box = [x - r, y - r, x + r, y + r];
  const [c, sn] = [Math.cos(a), Math.sin(a)];
  for (const [px, py] of TAIL) {
    const qx = x + px * c - py * sn, qy = y + px * sn + py * c;
    box[0] = Math.min(box[0], qx); box[1] = Math.min(box[1], qy);
    box[2] = Math.max(box[2], qx); box[3] = Math.max(box[3], qy);
  }
  return box;
}

/** How far apart two boxes are (negative: they overlap). */
function boxGap(a, b) {
  return Math.max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3]);
}

/** How far a box is from a circle (negative: they overlap). */
function circleGap(box, { x, y, r }) {
  const dx = Math.max(box[0] - x, 0, x - box[2]), dy = Math.max(box[1] - y, 0, y - box[3]);
  const d = Math.hypot(dx, dy);
  return d > 0 ? d - r : -r;
}

function gapToRock(box, rock) {
  return Math.min(circleGap(box, rock), ...rock.boxes.map((b) => boxGap(box, b)));
}

/** The Asteroids and Comets of a cell that has Comets: the Asteroids side by side along the
 *  ring as elsewhere, moved as a group within the cell if need be, and each Comet where its box
 *  is farthest (up to CLEAR) from every Asteroid and Comet drawn, and all of them as near the
 *  cell's middle as that allows. */
function placeWithComets(cell, zones, prints, placed) {
  const outer = R_OUT - cell.ri * RING_W, inner = outer - RING_W, r0 = outer - RING_W / 2;
  const half = Math.PI / zones;
  const centre = mid(cell.zone, zones);
  const inCell = (r, a, size) => r - size >= inner && r + size <= outer && Math.abs(a - centre) * r <= half * r - size;
  const base = placeInCell(cell.ri, cell.zone, zones, cell.rocks.map(() => 2 * ROCK_R));
  const [cx, cy] = polar(r0, centre);
  const near = placed.rocks.filter((sh) => Math.hypot(sh.x - cx, sh.y - cy) < 3 * RING_W);
  let best = null;
  for (let i = 0; i <= 4; i++) {
    const dr = ((i - 2) / 2) * (RING_W / 2 - ROCK_R);
    for (let j = -5; j <= 5; j++) {
      const da = (j / 5) * half;
      const rocks = base.map(([x, y, a]) => { const r = Math.hypot(x, y) + dr; return [...polar(r, a + da), a + da]; });
      if (!rocks.every(([x, y, a]) => inCell(Math.hypot(x, y), a, ROCK_R))) continue;
      const shapes = rocks.map((at, k) => rockShape(at, prints[cell.rocks[k]]));
      // An Asteroid moved must keep clear of the Comets already drawn.
      let worst = Math.min(CLEAR, ...shapes.flatMap((sh) => placed.comets.map((b) => gapToRock(b, sh))));
      const comets = [], boxes = [];
      for (let k = 0; k < cell.comets.length; k++) {
        let pick = null;
        for (let m = 0; m <= 8; m++) {
          const r = inner + COMET_R + (m / 8) * (RING_W - 2 * COMET_R);
          for (let n = -10; n <= 10; n++) {
            const a = centre + (n / 10) * half;
            if (!inCell(r, a, COMET_R)) continue;
            const at = [...polar(r, a), a];
            const box = cometBox(at);
            const gap = Math.min(CLEAR,
              ...near.map((sh) => gapToRock(box, sh)), ...shapes.map((sh) => gapToRock(box, sh)),
              ...placed.comets.map((b) => boxGap(box, b)), ...boxes.map((b) => boxGap(box, b)));
            const score = gap * 100 - Math.hypot(at[0] - cx, at[1] - cy);  // then near the cell's middle
            if (!pick || score > pick.score) pick = { score, gap, at, box };
          }
        }
        comets.push(pick.at); boxes.push(pick.box);
        worst = Math.min(worst, pick.gap);
      }
      const score = worst * 100 - Math.abs(dr) - Math.abs(da) * r0;
      if (!best || score > best.score) best = { score, rocks, comets };
    }
  }
  return best;
}

function drawAsteroid(ctx, id, a, [x, y]) {
  const entry = ctx.names[id];
  const owned = a.probe !== null && a.probe !== undefined;
  const label = `Asteroid ${id} (${a.ring} ring, Zone ${a.zone})${owned ? `, Mining Probe of ${seatLabel(ctx, a.probe)}` : ""}`;
  return s("g", { ...ctx.t(`asteroid:${id}`, label, "asteroid"), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` },
    tip(`${label}${entry && entry.text ? ": " + entry.text : ""}`),
    s("circle", { class: "rock", r: ROCK_R }),
    printLines(ctx, id).map(([klass, text, , y]) => s("text", { class: klass, y: y.toFixed(1), "text-anchor": "middle" }, text)),
    owned ? s("circle", { class: `probe o-${a.probe}`, cx: 15, cy: -14, r: 5 }, tip(`Mining Probe of ${seatLabel(ctx, a.probe)}`)) : null);
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
    const head = h("header", null, h("h3", { class: "comet-name" },
      h("b", { ...ctx.t(`comet:${c.id}`, `Comet ${c.id}`, `comet ${cometClass(c)}`), title: textOf(ctx.names, c.id) }, `Comet ${c.id}`),
      ` · ${c.kind || ""} · ${where}`));
    // The Surface card's slots: a Mining Probe landing on the Comet takes the leftmost free one
    // (their number depends on the player count); a free slot is an empty ring, and the words
    // after them say how many are free (two bare dots said nothing).
    const held = (seat) => seat !== null && seat !== undefined;
    const free = (c.slots || []).filter((seat) => !held(seat)).length;
    const slots = h("div", { class: "slots", title: "The Comet's Surface card: a Mining Probe that lands on the Comet takes its leftmost free slot." },
      "Surface card: ",
      (c.slots || []).map((seat, i) => {
        const said = held(seat) ? `slot ${i + 1}: Mining Probe of ${seatLabel(ctx, seat)}` : `slot ${i + 1}: free`;
        return h("span", { class: `slot${held(seat) ? " probe o-" + seat : " empty"}`,
          title: said, role: "img", "aria-label": said }, held(seat) ? String(seat + 1) : "");
      }),
      h("span", { class: "slots-free" }, !(c.slots || []).length ? "no slots"
        // (an exploded Comet takes no more Mining Probes: its free slots are not "free")
        : c.removed ? (free === c.slots.length ? "no Mining Probe was on it" : "its Mining Probes gain nothing more")
        : free === c.slots.length ? `no Mining Probe yet (${free} ${free === 1 ? "slot" : "slots"} free)`
        : free ? `${free} ${free === 1 ? "slot" : "slots"} free` : "no slot free"));
    // A Tail target key (tail:1..3) names a tail of the Comet of the decision (view.decision's
    // comet): only that Comet's tails are targets. Its "Tail N" heading is the keyboard's one
    // stop per tail; the token a TAIL takes answers a click only.
    const decided = ((v.decision || {}).data || {}).comet;
    const tailAttrs = (i, klass) => {
      if (decided && decided !== c.id) return { class: klass };
      return ctx.t(`tail:${i + 1}`, `Tail ${i + 1} of Comet ${c.id}`, klass);
    };
    // A token's cell is a target only when a legal TAIL takes that token (tail-token:<id>), so
    // a Dust-tail choice outlines the Dust tokens it can take, not every cell of the tails.
    const tokenAttrs = (tok, klass) => {
      if (!tok || (decided && decided !== c.id)) return { class: klass };
      const attrs = ctx.t(`tail-token:${tok}`, textOf(ctx.names, tok), klass);
      delete attrs.tabindex; delete attrs.role; delete attrs["aria-label"];
      return attrs;
    };
    const rows = [h("tr", null, h("td", null, ""), (c.tails || []).map((_, i) =>
      h("th", { ...tailAttrs(i, "tail-head") }, `Tail ${i + 1}`)))];
    rows.push(h("tr", { class: "nucleus" }, h("th", { title: textOf(ctx.names, c.nucleus) }, `Nucleus ${c.nucleus}`),
      (c.tails || []).map((_, i) => h("td", { class: "table-cell", title: nucleus && nucleus.text ? nucleus.text : "" },
        tables[i] || `table ${i + 1}`))));
    TAIL_ROWS.forEach((kind, row) => {
      rows.push(h("tr", null, h("th", null, kind), (c.tails || []).map((t, i) => {
        const tok = t[row];
        return h("td", { ...tokenAttrs(tok, `tail-cell${tok ? " has" : ""}`), title: tok ? textOf(ctx.names, tok) : "" },
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
