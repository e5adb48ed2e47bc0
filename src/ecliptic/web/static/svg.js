// Tiny DOM helpers shared by the table's modules: build SVG and HTML elements from
// plain attribute objects, so every drawing module reads as a description of the table.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes; children may be nodes, strings or arrays of them. */
export function s(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** An HTML element with attributes (`class`, `title`, `data-*`, ...) and children. */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  if (!attrs) return;
  for (const k in attrs) {
    const v = attrs[k];
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(node, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else node.append(typeof c === "object" ? c : String(c));
  }
}

/** An SVG <title> child: the tooltip a pointer shows over its parent. */
export function tip(text) {
  return text ? s("title", null, text) : null;
}

/** The name of an id for people: present.names[id].name, else the id itself. */
export function nameOf(names, id) {
  const entry = names && names[id];
  return entry && entry.name ? entry.name : String(id);
}

/** The tooltip of an id: its name and text from present.names. */
export function textOf(names, id) {
  const entry = names && names[id];
  if (!entry) return String(id);
  const name = entry.name || String(id);
  return entry.text ? `${name}: ${entry.text}` : name;
}

/** A safe CSS class fragment from a faction or other word ("Dr. X" -> "Dr-X"). */
export function cls(word) {
  return String(word).replace(/[^A-Za-z0-9_-]+/g, "-");
}

/** Pointy-top hex centre of axial (q, r) at radius `size`. */
export function hexCentre(q, r, size) {
  return [size * Math.sqrt(3) * (q + r / 2), size * 1.5 * r];
}

/** The points attribute of a pointy-top hexagon around (x, y). */
export function hexPoints(x, y, size) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(x + size * Math.cos(a)).toFixed(1)},${(y + size * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

// The view's phase keys as the rulebooks name the phases ("Each round consists of 3 phases":
// the Enlightenment, Action and Battle phases; Ceres with Comets: the Asteroid Belt, Production
// and Activation phases, the Comets' decisions being the end of the Production phase).
const PHASE_NAMES = {
  tauceti: { setup: "Game Setup", enlightenment: "Enlightenment phase", action: "Action phase",
    battle: "Battle phase", over: "the game is over" },
  ceres: { setup: "Setup", belt: "Asteroid Belt phase", production: "Production phase",
    comets: "Production phase (the Comets)", activation: "Activation phase", over: "the game is over" },
};

/** A phase key of the view (``phase``) in the rulebook's words. */
export function phaseName(game, phase) {
  const known = (PHASE_NAMES[game] || {})[phase];
  return known || String(phase || "").replaceAll("_", " ");
}

/** A labelled count: "TAU 12". */
export function stat(label, value, attrs) {
  return h("span", { class: "stat", ...(attrs || {}) }, h("b", null, label), " ", String(value));
}

/** The printed facts of a component, for drawing on it: structured fields of its
 *  present.names entry when the server gives them, else read off its text (the presentation
 *  module words them "2 GP per orbital", "gain 1 Ice, 1 VP", "Gives 2 Metal, 1 VP",
 *  "table 1: 2 Ice, 5 VP"). Only words are read here, never a rule. */
export function factsOf(names, id) {
  const e = (names && names[id]) || {};
  const text = typeof e.text === "string" ? e.text : "";
  const num = (re) => { const m = text.match(re); return m ? Number(m[1]) : undefined; };
  const out = {
    orbital_gp: typeof e.orbital_gp === "number" ? e.orbital_gp : num(/(\d+) GP per orbital/),
    cube_gp: typeof e.cube_gp === "number" ? e.cube_gp : num(/(\d+) GP per Resource cube/),
    gain: e.resources ? amountsShort(e.resources, e.vp) : shortAmounts((text.match(/(?:gain|Gives) ([^;(]+?)(?:[;(]|\.?$)/) || [])[1]),
    tables: Array.isArray(e.tables) ? e.tables.map((t) => amountsShort(t.resources || {}, t.vp))
      : [...text.matchAll(/table (\d+): ([^;(]+)/g)].map((m) => shortAmounts(m[2])),
    commodity: e.commodity,
  };
  return out;
}

function amountsShort(resources, vp) {
  const parts = Object.entries(resources).filter(([, n]) => n).map(([k, n]) => `${n}${k.slice(0, 3)}`);
  if (vp) parts.push(`${vp}VP`);
  return parts.join(" ");
}

/** "2 Ice, 1 Metal, 3 VP" -> "2Ice 1Met 3VP". */
function shortAmounts(words) {
  if (!words) return "";
  return words.split(",").map((w) => w.trim()).filter(Boolean).map((w) => {
    const m = w.match(/^(\d+) (\S+)/);
    return m ? `${m[1]}${m[2] === "VP" ? "VP" : m[2].slice(0, 3)}` : w;
  }).join(" ");
}

/** The commodity name a Commodity token (Q..) stands for: present.names[Q].commodity, else
 *  the commodity whose name entry the token's name begins with ("Xunari algae token"). */
export function commodityOfToken(names, token, known) {
  const e = (names && names[token]) || {};
  if (e.commodity) return e.commodity;
  for (const c of known) {
    const n = names[c] && names[c].name;
    if (n && typeof e.name === "string" && e.name.startsWith(n)) return c;
  }
  return null;
}
