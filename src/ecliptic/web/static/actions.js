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

// A refused action as its button would say it: the words, the notation beside them (the label,
// notation and notes, from a server that sends no words).
function refusedName(r) {
  const words = wordsOf(r);
  if (!words) return el("span", { class: "label", text: r.label || r.notation });
  return el("span", { class: "label", title: r.label || r.notation }, el("span", { class: "text", text: words }), " ",
    el("span", { class: "notation", text: r.notation }));
}

function refusedItem(gv, r) {
  return el("li", { class: "refused-action", dataset: { notation: r.notation } },
    refusedName(r), " — ",
    el("span", { class: "reason", text: r.reason || "not allowed now" }), " ", ruleLink(gv.game, r.rule));
}

const SHARED_SHOWN = 3;   // a reason many actions share names this many of them, then "and N more"
const RULE_SHOWN = 4;     // a rule refusing with more distinct reasons folds the rest under it

// One line for the actions refused for the very same reason ("you do not have the Knowledge
// tokens you offer" is the why of 90 TRADE-K): the reason once, then which actions it refuses.
function sharedItem(gv, rows) {
  const names = rows.map((r) => wordsOf(r) || r.label || r.notation);
  const more = names.length - SHARED_SHOWN;
  return el("li", { class: "refused-action shared", dataset: { notation: rows[0].notation, count: rows.length } },
    el("span", { class: "reason", text: rows[0].reason || "not allowed now" }), " ", ruleLink(gv.game, rows[0].rule),
    el("span", { class: "which", title: rows.map((r) => r.notation).join("\n"),
      text: ` — ${names.slice(0, SHARED_SHOWN).join(", ")}${more > 0 ? ` and ${more} more` : ""}` }));
}

// The groups in the order the server lists them (present.groups: the Interface's actions first,
// Pass last, as the terminal's menu); a group it does not name keeps its place after them.
function inOrder(gv, groups) {
  const order = (gv.present && Array.isArray(gv.present.groups)) ? gv.present.groups : [];
  const rank = (g) => (order.includes(g) ? order.indexOf(g) : order.length);
  return [...groups].sort(([a], [b]) => rank(a) - rank(b));
}

// The folds (<details data-fold>) a player opened or closed, by seat and key: the panel is drawn
// anew on every view, and a list the player opened should not close under them; on a hot-seat
// device each player's folds are their own.
const folds = new Map();
let foldSeat = "";   // the seat whose panel is being drawn (renderDecision)

function fold(key, openByDefault, summary, ...body) {
  const mine = `${foldSeat}:${key}`;
  const open = folds.has(mine) ? folds.get(mine) : openByDefault;
  const details = el("details", { dataset: { fold: key }, open }, ...body);
  const head = el("summary", { onclick: () => { folds.set(mine, !details.open); } }, summary);
  details.prepend(head);
  return details;
}

// The refused candidates, as a player looks for one: by the group of the action (as the legal
// ones are grouped), then by rule. Actions refused for the same reason are one line; a rule with
// many different reasons (every far position of a GO: "is not next to …") shows a few and folds
// the rest.
function refusedGroups(gv, refused) {
  const byGroup = new Map();
  for (const r of refused) {
    const g = groupOf(r);
    if (!byGroup.has(g)) byGroup.set(g, new Map());
    const byRule = byGroup.get(g);
    if (!byRule.has(r.rule)) byRule.set(r.rule, new Map());
    const byReason = byRule.get(r.rule);
    if (!byReason.has(r.reason)) byReason.set(r.reason, []);
    byReason.get(r.reason).push(r);
  }
  const single = byGroup.size === 1;
  return inOrder(gv, byGroup).map(([g, byRule]) => {
    const items = [];
    for (const [rule, byReason] of byRule) {
      const lines = [...byReason.values()].map((rows) => (rows.length > 1 ? sharedItem(gv, rows) : refusedItem(gv, rows[0])));
      items.push(...lines.slice(0, RULE_SHOWN));
      if (lines.length > RULE_SHOWN) {
        items.push(el("li", { class: "refused-more" }, fold(`refused:${g}:${rule}`, false,
          `${lines.length - RULE_SHOWN} more refused by ${rule}`, el("ul", { class: "refused-list" }, lines.slice(RULE_SHOWN)))));
      }
    }
    const count = [...byRule.values()].reduce((n, byReason) => n + [...byReason.values()].reduce((m, rows) => m + rows.length, 0), 0);
    const group = fold(`refused:${g}`, single, [el("span", { class: "group-name", text: g }), el("span", { class: "count", text: ` ${count}` })],
      el("ul", { class: "refused-list" }, items));
    group.classList.add("refused-group");
    group.dataset.group = g;
    return group;
  });
}

// Draw the panel into `root`. `ui` = {selected: Set, focus: key|null}; `on` = {act(action), toggle(key),
// clearFocus(), notation(text)}.
export function renderDecision(root, gv, ui, on) {
  foldSeat = String(gv.seat ?? "spectator");
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
  // A big group starts folded, even beside a lone END or PASS: its targets are lit on the table,
  // and on a phone (the panel above the table) 26 open LAUNCH buttons put the belt 2,500 px down.
  // A group the player opened or closed stays so.
  const list = el("div", { class: "groups", id: "groups" });
  for (const [g, actions] of inOrder(gv, groups)) {
    const details = fold(`group:${g}`, actions.length <= BIG_GROUP,
      [el("span", { class: "group-name", text: g }), el("span", { class: "count", text: ` ${actions.length}` })],
      el("div", { class: "buttons" }, actions.map((a) => actionButton(a, on.act))));
    details.classList.add("group");
    details.dataset.group = g;
    list.append(details);
  }
  if (legal.length) parts.push(list);

  if (refused.length) {
    const why = fold("refused", false, `Why not? (${refused.length} ${refused.length === 1 ? "action" : "actions"} not allowed now)`,
      el("div", { class: "refused-groups" }, refusedGroups(gv, refused)));
    why.className = "refused";
    why.id = "refused";
    parts.push(why);
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
