// The log: one entry per action (the events this viewer may see), dice drawn as dice faces;
// clicking an entry asks for the board at that moment.
import { el } from "/static/api.js";

const FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

export function diceOf(event) {
  const d = event.data || {};
  const values = Array.isArray(d.dice) ? d.dice : (Number.isInteger(d.die) ? [d.die] : []);
  return values.filter((v) => Number.isInteger(v) && v >= 1 && v <= 6);
}

export function diceFaces(values) {
  return el("span", { class: "dice", role: "img", "aria-label": `dice: ${values.join(", ")}` },
    values.map((v) => el("span", { class: "die", title: String(v), text: FACES[v - 1] })));
}

export function eventLine(event) {
  const dice = diceOf(event);
  return el("li", { class: `event${event.private ? " private" : ""}`, dataset: { kind: event.kind } },
    dice.length ? diceFaces(dice) : null, dice.length ? " " : null, event.text);
}

export class Log {
  // `playedBy(seat, actor)`: what the heading adds when a bot played a person's seat ("" else).
  constructor(root, { seatName, onPick, playedBy = () => "" }) {
    this.root = root;
    this.seatName = seatName;
    this.playedBy = playedBy;
    this.onPick = onPick;
    this.entries = new Map();   // index -> {seat, events, actor}
    this.setup = [];
    this.list = el("ol", { class: "log-list", reversed: true });
    root.replaceChildren(this.list);
  }

  setSetup(events) { if (events && events.length) { this.setup = events; this.render(); } }

  // `redraw` false: many entries at once (a hello's missed moves, a catch-up), drawn by one render().
  add(index, seat, events, redraw = true, actor = null) {
    this.entries.set(index, { seat, events: events || [], actor });
    if (redraw) this.render();
  }

  dropAfter(index) {
    for (const i of [...this.entries.keys()]) if (i > index) this.entries.delete(i);
    this.render();
  }

  render() {
    const items = [];
    const indices = [...this.entries.keys()].sort((a, b) => b - a);
    for (const i of indices) {
      const { seat, events, actor } = this.entries.get(i);
      const by = seat === null || seat === undefined ? "" : this.playedBy(seat, actor);
      const who = seat === null || seat === undefined ? "" : `${this.seatName(seat)}${by ? ` · ${by}` : ""}`;
      const pick = el("button", { type: "button", class: "log-pick link", dataset: { index: i },
        "aria-label": `#${i} ${who}: show the board after this action`, onclick: () => this.onPick(i) }, `#${i} ${who}`);
      const data = seat === null || seat === undefined ? { index: i } : { index: i, seat };
      items.push(el("li", { class: "log-entry", dataset: data }, pick,
        el("ul", { class: "events" }, events.map(eventLine))));
    }
    if (this.setup.length) {
      const pick = el("button", { type: "button", class: "log-pick link", dataset: { index: 0 },
        "aria-label": "Setup: show the board at the start", onclick: () => this.onPick(0) }, "Setup");
      items.push(el("li", { class: "log-entry", dataset: { index: 0 } }, pick,
        el("ul", { class: "events" }, this.setup.map(eventLine))));
    }
    this.list.replaceChildren(...items);
  }
}
