// The table, drawn from the server's GameView: renderTable(root, gameView, ui).
//
// Everything comes from gameView.view (the seat's observation) and gameView.present (names,
// score, prices, banner); the actions only say which drawn things are click targets. The
// client decides no rule: a thing is a target because a legal action names its key.
//
// Modules: tauceti-board.js (the hex map), tauceti-interfaces.js (every player's Interface),
// tauceti-tcx.js (the TCX and supplies), ceres-belt.js (rings x zones, Comets), ceres-players.js,
// svg.js (element helpers and reading printed facts off present.names). table.css is linked
// by the first draw when the page has not linked it.
//
// What is read from the GameView besides the observation:
// - legal_actions[].targets / refused[].targets: the keys <kind>:<id> (COMMON2.md); a key in a
//   legal action is a target (class target, tabindex 0, role button, aria-label), one only in
//   refused is class refused, one in ui.selected is class selected. cell:q,r (or sector:q,r)
//   keys of empty positions are drawn as dashed cells.
// - present.names[id] = {name, text}: names and tooltips. A tile's end-game values, what an
//   Asteroid, Tail token or Nucleus table gives and a Commodity token's commodity are taken
//   from structured fields when sent (orbital_gp, cube_gp, resources/vp, tables, commodity),
//   else from the text's words.
// - present.score (running GP by source), present.prices (at the seat's planet), present.banner.
// - seats[].name: the people's names on the boards.
// Clicks and Enter/Space on a drawn thing call ui.onTarget(key, event); the innermost
// target (or refused/selected thing) wins over a plain thing inside it.
// ui.zoom: the map (the belt) is drawn large enough that its smallest print reads at 10 px or
// more, in a box of its own that scrolls (class ecl-zoomed on the host; table.css); the box's
// scroll position outlives the redraws.

import { h } from "./svg.js";
import { drawTauCetiBoard } from "./tauceti-board.js";
import { drawInterfaces } from "./tauceti-interfaces.js";
import { drawTcx } from "./tauceti-tcx.js";
import { drawBelt } from "./ceres-belt.js";
import { drawCeresPlayers } from "./ceres-players.js";

/** Draw the whole table of `gameView` into `root`, replacing what was there. */
export function renderTable(root, gameView, ui) {
  const ctx = makeContext(gameView, ui || {});
  const game = gameView.game || (gameView.view && gameView.view.game);
  const parts = game === "ceres"
    ? [banner(ctx), drawBelt(ctx), drawCeresPlayers(ctx)]
    : [h("div", { class: "ecl-map-box ecl-zoom-box", "data-zoom-box": "map" }, drawTauCetiBoard(ctx)),
      drawTcx(ctx), drawInterfaces(ctx)];
  const table = h("div", { class: `ecl-table ecl-${game === "ceres" ? "ceres" : "tauceti"}` }, parts);
  const doc = root.ownerDocument || document;
  ensureStyles(doc);
  const focused = focusedTarget(root, doc);
  const scrolled = scrollsOf(root);
  root.replaceChildren(h("div", { class: `ecl-host${ui && ui.zoom ? " ecl-zoomed" : ""}` }, table));
  restoreScrolls(root, scrolled);
  if (focused) refocus(root, focused);
  publishSeatColours(doc, game, ctx.view);
  root._eclUi = ui || {};
  if (!root._eclWired) {
    root._eclWired = true;
    root.addEventListener("click", (event) => activate(root, event));
    root.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") activate(root, event);
    });
  }
  return table;
}

/** Each seat's colour as the table draws it (table.css: a faction's in Tau Ceti, the classes
 *  f-<Faction>; a seat's in Ceres, o-<n>), named --seat-<n> on the page's root so that what is
 *  drawn beside the table (extras.js' win-chance chart) colours a seat as its board and panel. */
function publishSeatColours(doc, game, view) {
  const style = doc.documentElement && doc.documentElement.style;
  if (!style) return;
  for (const p of view.players || []) {
    if (typeof p.seat !== "number") continue;
    const name = game === "ceres" ? `seat${p.seat}` : String(p.faction || "").toLowerCase();
    if (name) style.setProperty(`--seat-${p.seat}`, `var(--${name})`);
  }
}

/** Where the zoomed map's box is scrolled to, so that a redraw (every move) leaves it there. */
function scrollsOf(root) {
  const out = {};
  for (const box of root.querySelectorAll("[data-zoom-box]")) {
    if (box.scrollLeft || box.scrollTop) out[box.dataset.zoomBox] = [box.scrollLeft, box.scrollTop];
  }
  return out;
}

function restoreScrolls(root, scrolled) {
  for (const box of root.querySelectorAll("[data-zoom-box]")) {
    const at = scrolled[box.dataset.zoomBox];
    if (at) { box.scrollLeft = at[0]; box.scrollTop = at[1]; }
  }
}

const CSS_URL = new URL("./table.css", import.meta.url).href;

/** The table's stylesheet, linked once into the page that draws it (if the page has not). */
function ensureStyles(doc) {
  for (const link of doc.querySelectorAll('link[rel="stylesheet"]')) if (link.href === CSS_URL) return;
  doc.head.append(h("link", { rel: "stylesheet", href: CSS_URL, "data-ecl-table": "" }));
}

/** The focused target (its key and which of the things with that key), so that a redraw
 *  (after every action) leaves the keyboard where it was. */
function focusedTarget(root, doc) {
  const el = doc.activeElement;
  if (!el || !root.contains(el) || !el.hasAttribute("data-target")) return null;
  const key = el.getAttribute("data-target");
  const same = [...root.querySelectorAll("[data-target]")].filter((e) => e.getAttribute("data-target") === key);
  return { key, index: Math.max(0, same.indexOf(el)) };
}

function refocus(root, { key, index }) {
  const same = [...root.querySelectorAll("[tabindex][data-target]")].filter((e) => e.getAttribute("data-target") === key);
  const el = same[Math.min(index, same.length - 1)];
  if (el) el.focus({ preventScroll: true });
}

/** What every drawing module needs: the view, names, and the key -> state sets. */
function makeContext(gameView, ui) {
  const present = gameView.present || {};
  const targets = new Map();  // key -> the legal actions that name it
  for (const a of gameView.legal_actions || []) {
    for (const key of a.targets || []) {
      if (!targets.has(key)) targets.set(key, []);
      targets.get(key).push(a);
    }
  }
  const refused = new Set();
  for (const r of gameView.refused || []) {
    for (const key of r.targets || []) if (!targets.has(key)) refused.add(key);
  }
  const selected = ui.selected instanceof Set ? ui.selected : new Set(ui.selected || []);
  const view = gameView.view || {};
  const seat = ui.seat !== undefined && ui.seat !== null ? ui.seat
    : (gameView.seat !== undefined ? gameView.seat : view.observer);
  return {
    gameView,
    view,
    present,
    names: idNames(present.names, ui.names),
    seatNames: seatNames(ui.names, gameView.seats),
    seat: seat === undefined ? null : seat,
    targets,
    refused,
    selected,
    /** Attributes that make a drawn thing a click target for `key` (class target/refused/selected). */
    t(key, label, klass) {
      const classes = klass ? [klass] : [];
      const attrs = { "data-target": key };
      const actions = targets.get(key);
      if (actions) {
        classes.push("target");
        attrs.tabindex = 0;
        attrs.role = "button";
        attrs["aria-label"] = `${label || key}: ${actionsText(actions)}`;
      } else if (refused.has(key)) {
        classes.push("refused");
        attrs.tabindex = 0;
        attrs.role = "button";
        attrs["aria-label"] = `${label || key} (not allowed now)`;
      }
      if (selected.has(key)) {
        classes.push("selected");
        attrs["aria-pressed"] = "true";
      }
      if (classes.length) attrs.class = classes.join(" ");
      return attrs;
    },
  };
}

/** present.names, with any {id: {name, text}} entries the page passes in ui.names on top. */
function idNames(fromView, given) {
  const out = Object.assign({}, fromView || {});
  if (given && typeof given === "object" && !Array.isArray(given)) {
    for (const k in given) if (given[k] && typeof given[k] === "object") out[k] = given[k];
  }
  return out;
}

/** What clicking a target offers, for its aria-label: the first actions in words, as their
 * buttons say them (the label, from a server that sends no words). */
function actionsText(actions) {
  const labels = actions.slice(0, 3).map((a) => (a.text && a.text !== a.notation ? a.text : a.label || a.notation || ""));
  const more = actions.length - labels.length;
  return labels.join("; ") + (more > 0 ? `; and ${more} more` : "");
}

/** ui.names may be the seats' display names (a list or {seat: name}); else "Seat N". */
function seatNames(given, seats) {
  const out = {};
  if (Array.isArray(seats)) {
    seats.forEach((s, i) => {
      const name = s && (s.name || s.player || s.label);
      if (typeof name === "string" && name) out[s.seat !== undefined ? s.seat : i] = name;
    });
  }
  if (Array.isArray(given)) given.forEach((n, i) => { if (typeof n === "string") out[i] = n; });
  else if (given && typeof given === "object") {
    for (const k in given) if (typeof given[k] === "string") out[k] = given[k];
  }
  return out;
}

/** The innermost actionable thing under the event: a target (or selected thing) wins over a
 *  plain drawn thing inside it, so a ship in a target sector clicks the sector; a refused thing
 *  ("why not") wins only when nothing around it is a target, so a Crisis token that cannot be
 *  resolved now does not hide its planet's sector. */
function activate(root, event) {
  const start = event.target instanceof Element ? event.target : null;
  if (!start) return;
  let plain = null;
  let refused = null;
  for (let node = start; node && node !== root; node = node.parentElement) {
    if (!node.hasAttribute || !node.hasAttribute("data-target")) continue;
    const c = node.classList;
    if (c.contains("target") || c.contains("selected")) {
      fire(root, node, event);
      return;
    }
    if (c.contains("refused")) { if (!refused) refused = node; continue; }
    if (!plain) plain = node;
  }
  if (refused) fire(root, refused, event);
  else if (plain && event.type === "click") fire(root, plain, event);
}

function fire(root, node, event) {
  const ui = root._eclUi || {};
  if (event.type === "keydown") event.preventDefault();
  if (typeof ui.onTarget === "function") ui.onTarget(node.getAttribute("data-target"), event);
}

// Ceres' one line about the host game, with the rules page's section on it for who wants more.
const BANNER_RULES = "/rules#ceres:section:reconstruction";

function banner(ctx) {
  const text = ctx.present.banner;
  return text ? h("div", { class: "ecl-banner", role: "note" }, text, " ",
    h("a", { href: BANNER_RULES, target: "_blank", rel: "noopener" }, "About the stand-in")) : null;
}
