// The Tau Ceti star map: the hex tiles of view.layout (axial q,r), with what lies on them.
//
// A tile's kind is read from the view itself (TC is Tau Ceti, the planets are the keys of
// planet_commodity, numbers 01-10 the large sectors, later numbers the Outer Limit tiles);
// names, texts and end-game values come from present.names. Empty cells that an action names
// (PLACE q,r during setup, GO q,r into the Outer Limits) are drawn as dashed outlines.

import { s, tip, nameOf, textOf, cls, hexCentre, hexPoints, factsOf } from "./svg.js";

const SIZE = 50;
const CELL_RE = /^-?\d+,-?\d+$/;
const SHIP_Y = 22;

export function drawTauCetiBoard(ctx) {
  const v = ctx.view;
  const layout = v.layout || {};
  const cells = candidateCells(ctx, layout);
  const centres = [];
  for (const id in layout) centres.push(hexCentre(layout[id][0], layout[id][1], SIZE));
  for (const c of cells) centres.push(hexCentre(c.q, c.r, SIZE));
  if (!centres.length) centres.push([0, 0]);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of centres) {
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
  }
  const padX = SIZE * 0.87 + 3;  // a pointy-top hex is √3/2 of its radius wide each side
  const pad = SIZE + 4;
  const byTile = groupOnTiles(v);
  const away = [];
  for (const tile in byTile) if (!(tile in layout)) away.push(...byTile[tile].ships);
  const top = v.next_large_tile || away.length ? 44 : 0;
  const vb = [minX - padX, minY - pad - top, maxX - minX + 2 * padX, maxY - minY + 2 * pad + top];
  if (vb[2] < 240) {  // room for the tile to place and the ships not yet on the map
    vb[0] -= (240 - vb[2]) / 2;
    vb[2] = 240;
  }
  // Row by row, left to right: the order the keyboard visits the tiles in.
  const ids = Object.keys(layout).sort((a, b) => layout[a][1] - layout[b][1] || layout[a][0] - layout[b][0]);
  const tiles = ids.map((id) => drawTile(ctx, id, layout[id], byTile[id] || { ships: [], claims: [], battles: [] }));
  const free = cells.sort((a, b) => a.r - b.r || a.q - b.q).map((c) => drawCell(ctx, c));
  const offMap = away.length ? drawOffMap(ctx, away, vb) : null;
  return s("svg", {
    class: "ecl-map", viewBox: vb.map((n) => n.toFixed(0)).join(" "), style: `--vb-w: ${vb[2].toFixed(0)}`,
    role: "group", "aria-label": "The star map", preserveAspectRatio: "xMidYMid meet",
  },
  tiles, free, offMap,
  v.next_large_tile ? drawNextTile(ctx, v.next_large_tile, vb) : null);
}

/** Empty positions that a legal action names: keys like cell:-1,2 (or sector:-1,2). */
function candidateCells(ctx, layout) {
  const taken = new Set(Object.values(layout).map((c) => `${c[0]},${c[1]}`));
  const out = new Map();
  const consider = (key) => {
    const i = key.indexOf(":");
    const id = key.slice(i + 1);
    if (!CELL_RE.test(id) || taken.has(id) || out.has(key)) return;
    const [q, r] = id.split(",").map(Number);
    out.set(key, { key, q, r, id });
  };
  for (const key of ctx.targets.keys()) consider(key);
  // Refused moves into empty space are not drawn: they would cover the sky in dashed cells
  // (the page lists them with their reasons).
  return [...out.values()];
}

/** Ships, Claim tokens and Battle tokens by the tile they are on (a position off the layout is
 *  kept apart). A Claim token lies on an Exploration point (``claim`` is the point's id, "01.1"),
 *  so it is drawn on the point's sector; a Battle token stays in its sector while its battle is
 *  fought (the view's ``battles`` lists only the battles still to fight). */
function groupOnTiles(v) {
  const by = {};
  const at = (tile) => (by[tile] = by[tile] || { ships: [], claims: [], battles: [] });
  (v.players || []).forEach((p) => {
    if (p.position !== null && p.position !== undefined) at(p.position).ships.push(p);
    const point = p.claim ? (v.points || {})[p.claim] : null;
    if (point) at(point.sector).claims.push(p);
    if (p.battle_sector) at(p.battle_sector).battles.push(p);
  });
  return by;
}

/** The printed kind of a tile ("sector", "cosmic energy", ...): present.names[id].kind, else
 *  the kind its text names ("Zuron Asteroid (10): asteroid, ..."). */
function printedKind(names, id) {
  const e = names[id] || {};
  if (typeof e.kind === "string") return e.kind.replace(/_/g, " ").toLowerCase();
  const m = typeof e.text === "string" ? e.text.match(/\):\s*([a-z _]+?)[,.]/) : null;
  return m ? m[1].replace(/_/g, " ") : "";
}

/** tau-ceti, planet, sector, asteroid or outer (with the Outer Limit tile's own kind). */
function tileKind(v, names, id) {
  const printed = printedKind(names, id);
  if (id === "TC" || printed === "tau ceti") return ["tau-ceti", ""];
  if ((v.planet_commodity && id in v.planet_commodity) || printed === "planet") return ["planet", ""];
  if (printed === "sector") return ["sector", ""];
  if (printed === "asteroid") return ["asteroid", ""];
  if (printed) return ["outer", printed.replace(/ /g, "-")];
  const n = Number(id);
  if (n === 10) return ["asteroid", ""];
  if (n >= 1 && n <= 9) return ["sector", ""];
  return ["outer", outerKind(names, id)];
}

/** An Outer Limit tile's kind from its name when no kind is given ("Wormhole A"). */
function outerKind(names, id) {
  const word = String((names[id] || {}).name || "").toLowerCase();
  if (word.includes("wormhole")) return "wormhole";
  if (word.includes("asteroid")) return "asteroid-field";
  if (word.includes("cosmic")) return "cosmic-energy";
  return "";
}

function drawTile(ctx, id, [q, r], on) {
  const v = ctx.view;
  const names = ctx.names;
  const [kind, sub] = tileKind(v, names, id);
  const [x, y] = hexCentre(q, r, SIZE);
  const entry = names[id] || {};
  const label = kind === "tau-ceti" ? nameOf(names, id) === "TC" ? "TAU CETI" : nameOf(names, id)
    : kind === "planet" ? nameOf(names, id)
      : id;
  const klass = `tile kind-${kind}${sub ? " " + sub : ""}${kind === "planet" ? " planet-" + cls(id) : ""}`;
  const title = textOf(names, id) + (kind === "planet" && v.planet_commodity[id]
    ? ` · commodity ${nameOf(names, v.planet_commodity[id])}` : "");
  const g = s("g", { ...ctx.t(`sector:${id}`, nameOf(names, id), klass), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` },
    tip(title),
    s("polygon", { class: "hex", points: hexPoints(0, 0, SIZE - 1.5) }),
    decor(kind, sub),
    s("text", { class: "tile-label", y: -30, "text-anchor": "middle" }, label),
    kind !== "planet" && kind !== "tau-ceti" && entry.name && entry.name !== id
      ? s("text", { class: "tile-name", y: -19, "text-anchor": "middle" }, short(entry.name, 18)) : null,
    kind === "planet" ? null : values(ctx, id, -10),
  );
  if (v.enlightenment && v.enlightenment.affected === id) {
    // under the tile's print (which reads above it on a halo), not over it
    g.classList.add("enlightenment");
    (g.querySelector(".decor") || g.querySelector(".hex")).after(s("circle", { class: "enlightenment-ring", r: 36, cy: 4 },
      tip("The planet the Enlightenment phase affects this round")));
  }
  if (kind === "planet") g.append(planetThings(ctx, id));
  g.append(pointsOn(ctx, id));
  if (on.ships && on.ships.length) g.append(shipsOn(ctx, on.ships));
  const extras = tokensOn(ctx, id, on);
  if (extras) g.append(extras);
  return g;
}

/** The tile's picture, faint behind what lies on it: a star, a planet, rocks, a wormhole. */
function decor(kind, sub) {
  if (kind === "tau-ceti") return s("g", { class: "decor" }, s("circle", { class: "star-glow", r: 34 }), s("circle", { class: "star", r: 16 }));
  if (kind === "planet") return s("g", { class: "decor" }, s("circle", { class: "planet-disc", r: 30, cy: 4 }));
  if (kind === "asteroid" || sub === "asteroid-field") {
    return s("g", { class: "decor rocks" }, [[-22, 8, 4], [20, 14, 5], [-10, 30, 3], [26, -4, 3], [-28, -8, 3], [8, 34, 4]]
      .map(([cx, cy, r]) => s("circle", { cx, cy, r })));
  }
  if (sub === "wormhole") return s("g", { class: "decor swirl" }, [30, 21, 12].map((r) => s("circle", { r, cy: 6 })));
  if (sub === "cosmic-energy") {
    return s("g", { class: "decor rays" }, s("path", { d: "M-30,6 L30,6 M0,-22 L0,36 M-20,-14 L20,26 M20,-14 L-20,26" }));
  }
  return null;
}

/** End-game values printed on the tile (from its present.names entry). */
function values(ctx, id, y) {
  const f = factsOf(ctx.names, id);
  const parts = [];
  if (f.orbital_gp) parts.push(`orbital ${f.orbital_gp} GP`);
  if (f.cube_gp) parts.push(`cube ${f.cube_gp} GP`);
  if (!parts.length) return null;
  return s("text", { class: "tile-gp", y, "text-anchor": "middle" }, parts.join(" · "));
}

function short(text, n) {
  return text.length > n ? text.slice(0, n - 1) + "…" : text;
}

/** The commodity sold here, its Crisis tokens and virus crystals. */
function planetThings(ctx, id) {
  const v = ctx.view;
  const names = ctx.names;
  const g = s("g", { class: "planet-things" });
  const commodity = v.planet_commodity[id];
  if (commodity) {
    g.append(s("text", { ...ctx.t(`commodity:${commodity}`, `${nameOf(names, commodity)} sold at ${nameOf(names, id)}`, "commodity"), y: -19.5, "text-anchor": "middle" },
      tip(textOf(names, commodity)), nameOf(names, commodity)));
  }
  const gp = values(ctx, id, -10);
  if (gp) g.append(gp);
  const crises = (v.planet_crises && v.planet_crises[id]) || [];
  const virus = (v.virus_on && v.virus_on[id]) || 0;
  const n = crises.length + virus;
  let i = 0;
  const xAt = (k) => (k - (n - 1) / 2) * 13;
  // one row below the print (name, commodity and GP values: three lines whose boxes meet
  // nowhere, ending at y -8 even on a phone's larger print), above the starships' row
  for (const c of crises) {
    const label = `${c.crisis_type} Crisis token ${c.id} (affected resource: ${c.resource})`;
    g.append(s("g", { ...ctx.t(`crisis:${c.id}`, label, `crisis k-${cls(c.crisis_type)}`), transform: `translate(${xAt(i++).toFixed(1)},2)` },
      tip(`${label}${names[c.id] && names[c.id].text ? ": " + names[c.id].text : ""}`),
      s("polygon", { points: "0,-7 6.5,5 -6.5,5" }),
      s("text", { y: 3.5, "text-anchor": "middle" }, c.crisis_type[0])));
  }
  for (let k = 0; k < virus; k++) {
    g.append(s("g", { class: "virus", transform: `translate(${xAt(i++).toFixed(1)},4)` },
      tip("Virus crystal"), s("polygon", { points: "0,-6 4,0 0,6 -4,0" })));
  }
  return g;
}

/** Exploration points: a face-down Knowledge token shows only its back. */
function pointsOn(ctx, tile) {
  const g = s("g", { class: "points" });
  const pts = ctx.view.points || {};
  const ids = Object.keys(pts).filter((p) => pts[p].sector === tile).sort();
  const y = ctx.view.planet_commodity && tile in ctx.view.planet_commodity ? 12 : 2;
  ids.forEach((pid, i) => {
    const pt = pts[pid];
    const x = (i - (ids.length - 1) / 2) * 20;
    const token = pt.token;
    const state = token === "hidden" ? "face-down" : token ? "face-up" : "empty";
    let label = `Exploration point ${pid}`;
    if (token === "hidden") label += ": a face-down Knowledge token";
    else if (token) label += `: ${token} Knowledge token`;
    else label += pt.explored_by !== null && pt.explored_by !== undefined ? `: explored by ${factionOf(ctx, pt.explored_by)}` : ": no token";
    const owner = pt.claimed_by !== null && pt.claimed_by !== undefined ? factionOf(ctx, pt.claimed_by) : null;
    if (owner) label += `, claimed by ${owner}`;
    const explored = pt.explored_by !== null && pt.explored_by !== undefined ? ` explored f-${cls(factionOf(ctx, pt.explored_by))}` : "";
    g.append(s("g", { ...ctx.t(`point:${pid}`, label, `point ${state}${token && token !== "hidden" ? " k-" + cls(token) : ""}${explored}`), transform: `translate(${x},${y})` },
      tip(label + (token && token !== "hidden" && ctx.names[token] ? ` (${textOf(ctx.names, token)})` : "")),
      s("circle", { r: 8, class: owner ? "claimed f-" + cls(owner) : null }),
      token && token !== "hidden" ? s("text", { y: 3.5, "text-anchor": "middle" }, token.slice(0, 2)) : null,
      token === "hidden" ? s("text", { y: 3.5, "text-anchor": "middle", class: "back" }, "?") : null));
  });
  return g;
}

function factionOf(ctx, seat) {
  const p = (ctx.view.players || [])[seat];
  return p ? p.faction : `Seat ${seat + 1}`;
}

/** The starships in a row in the lower part of the hex: below the Exploration points' row
 *  (y 2 ± 8, a claimed one's ring wider) and the Crisis tokens, above the cubes and orbitals (from y 29). */
function shipsOn(ctx, ships) {
  const g = s("g", { class: "ships" });
  ships.forEach((p, i) => {
    const x = (i - (ships.length - 1) / 2) * 17;
    const current = ctx.view.current_player === p.seat;
    const label = `${p.faction} starship (${nameOf(ctx.names, p.character)})`;
    g.append(s("g", { ...ctx.t(`player:${p.seat}`, label, `ship f-${cls(p.faction)}${current ? " current" : ""}${p.seat === ctx.seat ? " mine" : ""}`), transform: `translate(${x.toFixed(1)},${SHIP_Y})` },
      tip(label),
      s("path", { d: "M0,-8 L6,5 L0,2 L-6,5 Z" })));
  });
  return g;
}

/** Orbitals and Resource cubes (by owner), Claim tokens and Battle tokens. */
function tokensOn(ctx, tile, on) {
  const v = ctx.view;
  const orbitals = (v.orbitals && v.orbitals[tile]) || [];
  const cubes = (v.cubes && v.cubes[tile]) || [];
  if (!orbitals.length && !cubes.length && !on.claims.length && !on.battles.length) return null;
  const g = s("g", { class: "tokens" });
  orbitals.forEach((seat, i) => {
    const f = typeof seat === "number" ? factionOf(ctx, seat) : String(seat);
    g.append(s("circle", { class: `orbital f-${cls(f)}`, cx: -6 - (i % 3) * 9, cy: 33 - Math.floor(i / 3) * 9, r: 4 }, tip(`Orbital of ${f}`)));
  });
  cubes.forEach((f, i) => {
    g.append(s("rect", { class: `cube f-${cls(f)}`, x: 2 + (i % 3) * 8, y: 29 - Math.floor(i / 3) * 8, width: 6.5, height: 6.5 },
      tip(`Resource cube of ${f}`)));
  });
  on.claims.forEach((p, i) => {
    g.append(s("g", { class: `claim f-${cls(p.faction)}`, transform: `translate(${-34},${-6 + i * 12})` },
      tip(`Claim token of ${p.faction} on Exploration point ${p.claim}`),
      s("path", { d: "M-1,6 L-1,-7 L8,-4 L-1,-1" })));
  });
  on.battles.forEach((owner, i) => {
    const fought = v.battle && v.battle.sector === tile ? ", its battle being fought" : "";
    g.append(s("g", { class: `battle f-${cls(owner.faction)}`, transform: `translate(${33},${-6 + i * 12})` },
      tip(`Battle token of ${owner.faction}${against(ctx, owner)}${fought}`),
      s("circle", { r: 6 }), s("path", { d: "M-3.5,-3.5 L3.5,3.5 M3.5,-3.5 L-3.5,3.5" })));
  });
  return g;
}

/** Whom a Battle token attacks: its owner's ``battle_defender``, the Defender. */
function against(ctx, owner) {
  const d = owner.battle_defender;
  return d !== null && d !== undefined ? ` against ${factionOf(ctx, d)}` : "";
}

function drawCell(ctx, c) {
  const [x, y] = hexCentre(c.q, c.r, SIZE);
  const label = `Empty space ${c.id}`;
  return s("g", { ...ctx.t(c.key, label, "tile free-cell"), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` },
    tip(label),
    s("polygon", { class: "hex", points: hexPoints(0, 0, SIZE - 4) }),
    s("text", { "text-anchor": "middle", y: 4 }, c.id));
}

/** Ships whose position is not (yet) a tile of the layout: during setup the home planets
 *  are still to be placed. Drawn in the band above the map. */
function drawOffMap(ctx, ships, vb) {
  const g = s("g", { class: "off-map", transform: `translate(${(vb[0] + vb[2] - 14 - ships.length * 17).toFixed(1)},${(vb[1] + 2).toFixed(1)})` },
    s("text", { class: "off-map-label", x: ships.length * 8.5, y: 7, "text-anchor": "middle" }, "not on the map yet"));
  const row = shipsOn(ctx, ships);
  row.setAttribute("transform", `translate(${ships.length * 8.5},${24 - SHIP_Y})`);
  g.append(row);
  return g;
}

function drawNextTile(ctx, id, vb) {
  const label = `Tile to place: ${nameOf(ctx.names, id)}`;
  return s("g", { ...ctx.t(`sector:${id}`, label, "next-tile"), transform: `translate(${vb[0] + 8},${vb[1] + 8})` },
    tip(textOf(ctx.names, id)),
    s("rect", { width: 170, height: 30, rx: 5 }),
    s("text", { x: 8, y: 20 }, label));
}
