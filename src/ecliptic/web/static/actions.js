// The decision panel: the legal actions grouped by kind with their cost and effect, the
// actions a clicked target offers, SET choices (toggle targets, then confirm the one action
// whose targets are that set), the refused actions with their rule, and the notation box.
// Everything shown comes from the GameView; the client decides no rule.
import { el, tableName } from "/static/api.js";

const BIG_GROUP = 12;   // a group with more actions starts folded

// Older servers send {id, notation, label} only: the verb of the notation stands in for the group.
export function groupOf(a) { return a.group || String(a.notation).split(" ")[0]; }

export function targetsOf(a) { return Array.isArray(a.targets) ? a.targets : []; }

export function isSet(a) { return a.select === "set"; }

// A target key as a person reads it: the name present.names gives its id; a Tail (tail:N) by
// the Comet of the decision it belongs to, a player (player:N) as the game's texts name the seat.
export function nameOf(gv, key) {
  const names = (gv.present && gv.present.names) || {};
  const view = gv.view || {};
  const [kind, arg] = [key.split(":")[0], key.slice(key.indexOf(":") + 1)];
  if (kind === "tail") {
    const comet = ((view.decision || {}).data || {}).comet;
    return comet ? `Tail ${arg} of Comet ${comet}` : `Tail ${arg}`;
  }
  if (kind === "player" && tableName(gv, Number(arg))) return tableName(gv, Number(arg));
  const rest = key.includes(":") ? key.slice(key.indexOf(":") + 1) : key;
  const id = rest.includes(":") ? rest.slice(rest.lastIndexOf(":") + 1) : rest;
  const found = names[id] || names[rest] || names[key];
  return found && found.name ? found.name : rest;
}

let rulesApi = false;   // the server has the rules reference (GET /api/rules/{game}/{rule id})
const ruleTexts = new Map();

export function useRulesApi(available) { rulesApi = !!available; }

// The rulebook's sentence of a rule, for a tooltip, asked once per rule and only when wanted.
async function explain(link, game, rule) {
  const key = `${game}:${rule}`;
  if (!ruleTexts.has(key)) {
    ruleTexts.set(key, fetch(`/api/rules/${game}/${encodeURIComponent(rule)}`)
      .then((r) => (r.ok ? r.json() : null)).catch(() => null));
  }
  const found = await ruleTexts.get(key);
  const text = found && (found.text || (Array.isArray(found.sentences) ? found.sentences.join(" ") : ""));
  if (text) link.title = `${rule}: ${text}`;
}

export function ruleLink(game, rule) {
  if (!rule) return null;
  const link = el("a", { class: "rule", href: `/rules#${game}:${rule}`, target: "_blank", rel: "noopener",
    title: `the rule ${rule} in the rulebook`, text: rule });
  if (rulesApi && rule !== "UNDO") {
    const once = () => { explain(link, game, rule); };
    link.addEventListener("mouseenter", once, { once: true });
    link.addEventListener("focus", once, { once: true });
  }
  return link;
}

function sameSet(a, b) {
  if (a.length !== b.size) return false;
  return a.every((x) => b.has(x));
}

// The one SET action whose targets equal the toggled set, or null.
export function setMatch(actions, selected) {
  return actions.filter(isSet).find((a) => sameSet(targetsOf(a), selected)) || null;
}

// Every key some action of the decision could toggle or click (for the table's highlighting).
export function clickableKeys(actions) {
  const keys = new Set();
  for (const a of actions) for (const t of targetsOf(a)) keys.add(t);
  return keys;
}

// The action in words (the server's `text`) as the button's main line, its notation small beside it
// (what the notation box and the terminal take); an older server without `text`: the label. The
// tooltip keeps the label (the notation and what its ids stand for) with the help.
export function wordsOf(a) { return a.text && a.text !== a.notation ? a.text : ""; }

function actionButton(a, onAct, extraClass = "") {
  const words = wordsOf(a);
  const cost = a.cost ? el("span", { class: "cost", text: a.cost }) : null;
  const effect = a.effect ? el("span", { class: "effect", text: a.effect }) : null;
  const said = words ? `${words} (${a.notation})` : a.label;
  const aria = [said, a.cost && `cost ${a.cost}`, a.effect && `effect ${a.effect}`].filter(Boolean).join("; ");
  const title = words ? [a.label, a.help].filter(Boolean).join(": ") : a.help || a.label;
  const head = words
    ? el("span", { class: "label" }, el("span", { class: "text", text: words }), " ",
      el("span", { class: "notation", text: a.notation }))
    : el("span", { class: "label", text: a.label });
  return el("button", { type: "button", class: `action ${extraClass}`.trim(), title,
    "aria-label": aria, dataset: { notation: a.notation, group: groupOf(a) }, onclick: () => onAct(a) },
    head, cost, effect);
}

function refusedItem(gv, r) {
  return el("li", { class: "refused-action", dataset: { notation: r.notation } },
    el("span", { class: "label", text: r.label || r.notation }), " — ",
    el("span", { class: "reason", text: r.reason || "not allowed now" }), " ", ruleLink(gv.game, r.rule));
}

// Draw the panel into `root`. `ui` = {selected: Set, focus: key|null}; `on` = {act(action), toggle(key),
// clearFocus(), notation(text)}.
export function renderDecision(root, gv, ui, on) {
  const legal = gv.legal_actions || [];
  const refused = gv.refused || [];
  const parts = [];

  if (ui.focus) {
    const here = legal.filter((a) => !isSet(a) && targetsOf(a).includes(ui.focus));
    const notHere = refused.filter((r) => targetsOf(r).includes(ui.focus));
    parts.push(el("section", { class: "focus", id: "target-actions", "aria-label": `actions on ${nameOf(gv, ui.focus)}`,
      dataset: { target: ui.focus } },
      el("h3", {}, `On ${nameOf(gv, ui.focus)} `,
        el("button", { type: "button", class: "link", text: "×", "aria-label": "close", onclick: on.clearFocus })),
      here.length ? el("div", { class: "buttons" }, here.map((a) => actionButton(a, on.act, "for-target")))
        : el("p", { class: "muted", text: "No legal action names this now." }),
      notHere.length ? el("ul", { class: "refused-list" }, notHere.slice(0, 20).map((r) => refusedItem(gv, r))) : null));
  }

  const sets = legal.filter(isSet);
  if (sets.length) {
    const keys = [...new Set(sets.flatMap(targetsOf))];
    const match = setMatch(legal, ui.selected);
    parts.push(el("section", { class: "set-select", id: "set-select", "aria-label": "choose a set" },
      el("h3", { text: `Choose: ${groupOf(sets[0])}` }),
      el("p", { class: "help", text: "Toggle the targets (here or on the table), then confirm." }),
      el("div", { class: "toggles" }, keys.map((k) => el("button", { type: "button",
        class: `toggle${ui.selected.has(k) ? " on" : ""}`, "aria-pressed": ui.selected.has(k) ? "true" : "false",
        dataset: { target: k }, onclick: () => on.toggle(k), text: nameOf(gv, k) }))),
      el("button", { type: "button", class: "primary confirm", id: "confirm-set", disabled: !match,
        title: match ? match.help || match.label : "no legal action is exactly this set",
        onclick: () => match && on.act(match) }, match ? `Confirm: ${wordsOf(match) || match.label}` : "Confirm (choose a legal set)")));
  }

  const groups = new Map();
  for (const a of legal) {
    if (isSet(a)) continue;
    const g = groupOf(a);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(a);
  }
  const list = el("div", { class: "groups", id: "groups" });
  for (const [g, actions] of groups) {
    const body = el("div", { class: "buttons" }, actions.map((a) => actionButton(a, on.act)));
    const details = el("details", { class: "group", dataset: { group: g }, open: actions.length <= BIG_GROUP },
      el("summary", {}, el("span", { class: "group-name", text: g }),
        el("span", { class: "count", text: ` ${actions.length}` })), body);
    list.append(details);
  }
  if (legal.length) parts.push(list);

  if (refused.length) {
    parts.push(el("details", { class: "refused", id: "refused" },
      el("summary", { text: `Why not? (${refused.length} ${refused.length === 1 ? "action" : "actions"} not allowed now)` }),
      el("ul", { class: "refused-list" }, refused.map((r) => refusedItem(gv, r)))));
  }

  if (legal.length) {
    const input = el("input", { id: "notation", list: "notations", autocomplete: "off", spellcheck: "false",
      placeholder: "type an action, e.g. " + legal[0].notation, "aria-label": "action notation" });
    const form = el("form", { class: "notation-form", id: "notation-form", onsubmit: (e) => {
      e.preventDefault(); if (input.value.trim()) on.notation(input.value.trim());
    } }, input, el("datalist", { id: "notations" }, legal.map((a) => el("option", { value: a.notation, label: a.label }))),
    el("button", { type: "submit", text: "Play" }));
    parts.push(form);
  }
  root.replaceChildren(...parts);
}
