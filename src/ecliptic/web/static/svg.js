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

/** A labelled count: "TAU 12". */
export function stat(label, value, attrs) {
  return h("span", { class: "stat", ...(attrs || {}) }, h("b", null, label), " ", String(value));
}
