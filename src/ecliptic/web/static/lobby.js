// The lobby: a new game's form, built from GET /api/options/{game} (the engine's own options),
// the join links of a game just created, my games (tokens kept in this browser) and games to watch.
// A join link is an invitation taken once (docs/web.md): the creator's browser takes the first
// person seat's link (the creator's own seat) and keeps the others' LINKS to hand out, never a
// token that plays another seat. "Play here" (or hot-seat) on another seat takes its link here.
// Open tables: the games with a seat the host opened to anyone, where a stranger sits down.
import { api, el, fill, fetchRematch, keepHostRematch, myGames, gameEntry, rememberGame, forgetGame, gameTitle } from "/static/api.js";
import { readLast, saveLast } from "/static/lobby-last.js";

const $ = (id) => document.getElementById(id);
let options = null;   // the GameOptions of the chosen game
let pickedSeat = null;   // the "You play" the creator picked (null: none picked, the first person seat)
const NAME_KEY = "ecliptic.name";   // the name this browser sits down under at open tables
const OPEN_TABLES_SECONDS = 15;

async function start() {
  const games = await api("/api/options");
  const select = $("game");
  for (const g of games) select.append(el("option", { value: g.game, text: g.title }));
  // The form as this browser left it when it last created a game (lobby-last.js).
  const last = readLast();
  if (last && games.some((g) => g.game === last.game)) select.value = last.game;
  if (last && [...$("clock").options].some((o) => o.value === last.clock)) $("clock").value = last.clock;
  if (last) $("suggestions").checked = last.suggestions;
  select.addEventListener("change", () => loadOptions(select.value));
  $("players").addEventListener("change", () => renderSeats());
  $("create").addEventListener("submit", (e) => { e.preventDefault(); create(); });
  await loadOptions(select.value, last && last.game === select.value ? last : null);
  renderMyGames();
  renderAllGames();
  renderOpenTables();
  $("my-name").value = localStorage.getItem(NAME_KEY) || "";
  $("my-name").addEventListener("change", () => localStorage.setItem(NAME_KEY, $("my-name").value.trim()));
  // The open tables fill and empty as people sit down: asked again while the lobby is in view.
  setInterval(() => { if (document.visibilityState === "visible") renderOpenTables(); }, OPEN_TABLES_SECONDS * 1000);
}

let optionsAsked = 0;   // the last game's options asked for: an answer to an earlier choice is dropped

// `last`: the remembered choices of this game (readLast), each used where the options still have it.
async function loadOptions(game, last = null) {
  const ask = ++optionsAsked;
  const answer = await api(`/api/options/${game}`);
  if (ask !== optionsAsked) return;   // another game was chosen meanwhile (its form is on its way)
  options = answer;
  const players = $("players");
  players.replaceChildren();
  const count = last && last.players >= options.players.min && last.players <= options.players.max
    ? last.players : options.players.default;
  for (let n = options.players.min; n <= options.players.max; n++) {
    players.append(el("option", { value: n, text: n, selected: n === count }));
  }
  $("suggestions-label").hidden = !options.suggestions;
  if (last) pickedSeat = last.mySeat;
  renderSeats(last ? last.seats : null);
  renderConfig(last ? last.config : {});
  $("create").dataset.game = options.game;
}

function seatCount() { return Number($("players").value); }

// `remembered`: the seats as last created (else the rows on the form now are kept as they are).
function renderSeats(remembered = null) {
  const box = $("seats");
  const previous = remembered || [...box.querySelectorAll(".seat")].map(readSeat);
  box.replaceChildren(el("legend", { text: "Seats" }));
  const perSeat = options.options.filter((o) => o.kind === "per_seat");
  for (let i = 0; i < seatCount(); i++) {
    const was = (previous[i] && previous[i].kind !== undefined && previous[i]) || { kind: i === 0 ? "person" : "bot", name: i === 0 ? "" : "", level: "normal" };
    const kind = el("select", { class: "kind", "aria-label": `seat ${i + 1}: person or bot` },
      el("option", { value: "person", text: "Person", selected: was.kind === "person" }),
      el("option", { value: "bot", text: "Bot", selected: was.kind === "bot" }),
      el("option", { value: "open", text: "Open: anyone may sit down", selected: was.kind === "open",
        title: "the seat is listed in the lobby's open tables: whoever comes first plays it" }));
    const name = el("input", { class: "name", value: was.name || "", placeholder: `Player ${i + 1}`, maxlength: 40,
      "aria-label": `seat ${i + 1}: name` });
    const wasLevel = options.bot_levels.some((l) => l.value === was.level) ? was.level : "normal";
    const level = el("select", { class: "level", "aria-label": `seat ${i + 1}: bot level` },
      options.bot_levels.map((l) => el("option", { value: l.value, text: l.label, title: l.text,
        selected: l.value === wasLevel })));
    const extras = perSeat.map((o) => el("select", { class: "per-seat", dataset: { option: o.name },
      "aria-label": `seat ${i + 1}: ${o.label}`, title: o.help },
      el("option", { value: "", text: `${o.label}: at random` }),
      o.choices.map((c) => el("option", { value: c.value, text: c.label, title: c.text,
        selected: was.extras && was.extras[o.name] === String(c.value) }))));
    const row = el("div", { class: "seat row", dataset: { seat: i } },
      el("span", { class: "seat-no", text: `Seat ${i + 1}` }), kind, name, level, ...extras);
    // An open seat is named by whoever sits down at it; a bot by its level.
    const sync = () => { level.hidden = kind.value !== "bot"; name.hidden = kind.value !== "person"; };
    kind.addEventListener("change", () => { sync(); renderMySeat(); });
    sync();
    box.append(row);
  }
  const mySeat = el("select", { id: "my-seat", "aria-label": "the seat you play" });
  mySeat.addEventListener("change", () => { pickedSeat = mySeat.value; });
  box.append(el("label", { id: "my-seat-label" }, "You play ", mySeat));
  renderMySeat();
  renderSeatChoices();
}

// Which seat the creator plays: one of the person seats (the first, unless chosen), every person
// seat on this device (hot-seat, with two or more), or none (a host who only hosts: a game of
// friends, or of friends and bots). An open seat is for someone else. Only the seats played here
// are taken in this browser; every other person seat's link is kept to hand out. A choice the
// creator made is kept while it is one (a seat made a bot and a person again is theirs again);
// "none" is never fallen into: while there is a person seat, the first is the creator's.
function renderMySeat(was = pickedSeat) {
  const select = $("my-seat");
  const persons = [...document.querySelectorAll("#seats .seat")]
    .filter((row) => row.querySelector(".kind").value === "person").map((row) => row.dataset.seat);
  const hotseat = persons.length > 1;
  const keep = was === "none" || persons.includes(was) || (was === "all" && hotseat) ? was : (persons[0] ?? "none");
  select.replaceChildren(...persons.map((seat) => el("option", { value: seat, text: `Seat ${Number(seat) + 1}` })),
    hotseat ? el("option", { value: "all", text: `all ${persons.length} seats on this device (hot-seat)` }) : null,
    el("option", { value: "none", text: "none: I only host" }));
  select.value = keep;
}

function readSeat(row) {
  const extras = {};
  for (const s of row.querySelectorAll(".per-seat")) extras[s.dataset.option] = s.value;
  return { kind: row.querySelector(".kind").value, name: row.querySelector(".name").value,
    level: row.querySelector(".level").value, extras };
}

// `remembered`: {option name: its form value} as last created; an option or a value the engine no
// longer offers takes its default.
function renderConfig(remembered = {}) {
  const box = $("config");
  box.replaceChildren();
  const has = (o, v) => (o.choices || []).some((c) => String(c.value) === v);
  for (const o of options.options) {
    if (o.kind === "per_seat") continue;
    const was = remembered[o.name];
    const set = el("fieldset", { class: `option option-${o.kind}`, dataset: { option: o.name, kind: o.kind } },
      el("legend", { text: o.label, title: o.help }));
    if (o.help) set.append(el("p", { class: "help", text: o.help }));
    if (o.kind === "choice") {
      set.append(el("select", { "aria-label": o.label, name: o.name },
        o.choices.map((c) => el("option", { value: c.value, text: c.text ? `${c.label} (${c.text})` : c.label,
          title: c.text, selected: typeof was === "string" && has(o, was) ? String(c.value) === was : c.value === o.default }))));
    } else if (o.kind === "multi") {
      for (const c of o.choices) {
        set.append(el("label", { class: "check", title: c.text },
          el("input", { type: "checkbox", value: c.value,
            checked: Array.isArray(was) ? was.includes(String(c.value)) : (o.default || []).includes(c.value),
            "aria-label": c.label }),
          el("span", { class: "check-label", text: c.label }),
          c.text ? el("span", { class: "check-text", text: ` — ${c.text}` }) : null,
          c.rule ? el("a", { class: "rule", href: `/rules#${options.game}:${c.rule}`, target: "_blank", rel: "noopener",
            text: ` ${c.rule}` }) : null));
      }
    } else if (o.kind === "bool") {
      set.append(el("label", { class: "check" }, el("input", { type: "checkbox",
        checked: typeof was === "boolean" ? was : !!o.default,
        "aria-label": o.label }), ` ${o.label}`));
    } else if (o.kind === "seat") {
      set.append(el("select", { class: "seat-choice", "aria-label": o.label, name: o.name,
        dataset: { was: typeof was === "string" ? was : "" } }));
    }
    box.append(set);
  }
  renderSeatChoices();
}

function renderSeatChoices() {
  for (const select of document.querySelectorAll("#config .seat-choice")) {
    const was = select.value || select.dataset.was || "0";
    select.replaceChildren();
    for (let i = 0; i < seatCount(); i++) {
      select.append(el("option", { value: i, text: `Seat ${i + 1}`, selected: String(i) === was }));
    }
  }
}

// The config's form values as they are (what renderConfig takes back), for remembering.
function formValues() {
  const out = {};
  for (const set of document.querySelectorAll("#config fieldset.option")) {
    const kind = set.dataset.kind;
    if (kind === "multi") out[set.dataset.option] = [...set.querySelectorAll("input:checked")].map((i) => i.value);
    else if (kind === "bool") out[set.dataset.option] = set.querySelector("input").checked;
    else out[set.dataset.option] = set.querySelector("select").value;
  }
  return out;
}

function readConfig() {
  const config = { players: seatCount() };
  for (const set of document.querySelectorAll("#config fieldset.option")) {
    const name = set.dataset.option, kind = set.dataset.kind;
    const option = options.options.find((o) => o.name === name);
    const typed = (v) => { const c = option.choices.find((x) => String(x.value) === v); return c ? c.value : v; };
    if (kind === "choice") config[name] = typed(set.querySelector("select").value);
    else if (kind === "multi") config[name] = [...set.querySelectorAll("input:checked")].map((i) => typed(i.value));
    else if (kind === "bool") config[name] = set.querySelector("input").checked;
    else if (kind === "seat") config[name] = Number(set.querySelector("select").value);
  }
  const seats = [...document.querySelectorAll("#seats .seat")].map(readSeat);
  for (const o of options.options.filter((x) => x.kind === "per_seat")) {
    const chosen = seats.map((s) => s.extras[o.name] || "");
    if (chosen.some((c) => c)) {
      // The engine takes one value per seat or none: the seats left "at random" get the others, shuffled.
      const rest = o.choices.map((c) => String(c.value)).filter((v) => !chosen.includes(v));
      for (let i = rest.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [rest[i], rest[j]] = [rest[j], rest[i]]; }
      config[o.name] = chosen.map((c) => c || rest.shift());
    }
  }
  return config;
}

async function create() {
  const error = $("create-error");
  error.textContent = "";
  const seats = [...document.querySelectorAll("#seats .seat")].map(readSeat)
    .map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level }
      : s.kind === "open" ? { kind: "person", open: true } : { kind: "person", name: s.name.trim() }));
  const body = { game: options.game, config: readConfig(), seats };
  const seed = $("seed").value.trim();
  if (seed) body.seed = Number(seed);
  const clock = $("clock").value;
  if (clock) body.clock_seconds = Number(clock);
  const suggestions = options.suggestions && $("suggestions").checked;
  if (suggestions) body.suggestions = true;
  $("create-button").disabled = true;
  try {
    const created = await api("/api/games", { method: "POST", body });
    saveLast({ game: options.game, players: seatCount(), seats: [...document.querySelectorAll("#seats .seat")].map(readSeat),
      mySeat: pickedSeat, config: formValues(), clock: $("clock").value, suggestions: $("suggestions").checked });
    const entry = { id: created.id, game: options.game, created: Date.now(), admin: created.admin_token,
      suggestions, seats: {}, links: {} };
    const persons = created.seats.filter((s) => s.join_link);
    for (const s of persons) entry.links[s.seat] = { link: s.join_link, name: s.name };
    const chosen = $("my-seat").value;
    // The creator's own seat, as chosen ("You play"), or every person seat that is not open (hot-seat);
    // none for a host who only hosts.
    const mine = persons.filter((p) => (chosen === "all" ? !seats[p.seat].open : String(p.seat) === chosen));
    for (const p of mine) {
      const taken = await api(`/api/games/${created.id}/seats/${p.seat}/take`, { method: "POST", token: p.token });
      entry.seats[p.seat] = { token: taken.token, name: p.name };
      delete entry.links[p.seat];
    }
    rememberGame(entry);
    renderMyGames();
    showCreated(created, entry, seats);
    // Nothing to hand out (every other seat is a bot or open to anyone, or all are played here): the
    // lobby opens the game at once: the creator's seat, the hot-seat page, or a game of bots to watch.
    const toGive = persons.filter((p) => !entry.seats[p.seat] && !seats[p.seat].open);
    if (!toGive.length) location.assign(openAtOnce(created, entry, chosen));
    else { renderAllGames(); renderOpenTables(); }   // the lobby stays: its lists have the new game
  } catch (e) {
    error.textContent = `The game was not created: ${e.message}`;
  } finally {
    $("create-button").disabled = false;
  }
}

// The game page a creator with no link to hand out is sent to.
function openAtOnce(created, entry, chosen) {
  const held = Object.keys(entry.seats);
  if (chosen === "all" && held.length > 1) return `/play/${created.id}#hotseat`;
  if (held.length) return `/play/${created.id}#seat=${held[0]}`;
  // Bots play a game of bots in a moment: its watch page replays it when it is over already.
  return created.seats.some((s) => s.join_link) ? `/watch/${created.id}` : `/watch/${created.id}#replay`;
}

// Copies the join link. The clipboard API exists only on https (and localhost): served over the
// network by plain http (friends on one LAN) it is missing, so the link's field is selected and
// copied the old way, or left selected for Ctrl+C, and the button says which.
function copyButton(text, label, field) {
  const b = el("button", { type: "button", class: "copy", "aria-label": label, text: "Copy" });
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = "Copied"; return; } catch { /* below */ }
    field.focus();
    field.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    b.textContent = copied ? "Copied" : "Selected: press Ctrl+C";
  });
  return b;
}

// The links this browser keeps to hand out: a seat's join link, for the seats it holds no token of.
function linkRow(id, seat, name, joinLink) {
  const link = new URL(joinLink, location.origin).href;
  const field = el("input", { class: "join-link", readonly: true, value: link, "aria-label": `join link of seat ${seat + 1}`,
    size: 40 });
  return [field, copyButton(link, `copy the join link of seat ${seat + 1}`, field)];
}

// Hot-seat: every person seat is played on this device, so this browser takes the links it
// still has (each is spent: nobody else can take those seats then).
async function takeAll(id) {
  const entry = gameEntry(id);
  for (const [seat, held] of Object.entries((entry && entry.links) || {})) {
    const token = new URLSearchParams(new URL(held.link, location.origin).hash.slice(1)).get("token");
    try {
      const taken = await api(`/api/games/${id}/seats/${seat}/take`, { method: "POST", token });
      rememberGame({ id, seats: { [seat]: { token: taken.token, name: held.name } } });
      forgetLink(id, seat);
    } catch { /* taken by its person already: played from their device */ }
  }
  location.href = `/play/${id}#hotseat`;
}

function forgetLink(id, seat) {
  const entry = gameEntry(id);
  if (!entry || !entry.links) return;
  const links = { ...entry.links };
  delete links[seat];
  forgetGame(id);
  rememberGame({ ...entry, links });
}

function mineText(created, entry) {
  const mine = Object.keys(entry.seats).map(Number);
  if (mine.length > 1) return `You play seats ${mine.map((s) => s + 1).join(", ")} on this device (hot-seat).`;
  if (mine.length) return `You play seat ${mine[0] + 1}.`;
  return created.seats.some((s) => s.join_link) ? "You only host: this browser plays no seat." : "";
}

function showCreated(created, entry, seats) {
  const box = $("created");
  box.hidden = false;
  const persons = created.seats.filter((s) => s.join_link);
  const toGive = persons.filter((s) => !entry.seats[s.seat]);   // the links there are to hand out
  const rows = created.seats.map((s) => {
    if (!s.join_link) return el("li", {}, `Seat ${s.seat + 1}: ${s.name}`);
    if (entry.seats[s.seat]) {
      return el("li", { class: "join mine" }, el("span", { text: `Seat ${s.seat + 1}: ${s.name} (you) ` }),
        el("a", { class: "play-here", href: `/play/${created.id}#seat=${s.seat}`, text: "play here" }));
    }
    const open = seats[s.seat].open
      ? el("span", { class: "open-note",
        text: "— open to anyone: whoever sits down first from the lobby's open tables plays it; or give this link · " })
      : null;
    return el("li", { class: "join" },
      el("span", { text: `Seat ${s.seat + 1}: ${s.name} ` }), open,
      el("a", { class: "play-here", href: s.join_link, title: "takes this seat in this browser: its link is then used",
        text: "play here" }), " · ", ...linkRow(created.id, s.seat, s.name, s.join_link));
  });
  const held = Object.keys(entry.seats);
  // With links to hand out first, the creator's own seat is one click away.
  const openMine = held.length === 1 && toGive.length
    ? el("a", { class: "primary button", id: "open-my-seat", href: `/play/${created.id}#seat=${held[0]}`,
      text: "Open your seat" })
    : null;
  const hotseat = persons.length > 1 && held.length < persons.length
    ? el("a", { class: openMine ? "button" : "primary button", id: "hotseat-link", href: `/play/${created.id}#hotseat`,
      text: `Play all ${persons.length} seats on this device (hot-seat)` })
    : null;
  if (hotseat) hotseat.addEventListener("click", (e) => { e.preventDefault(); takeAll(created.id); });
  fill(box,
    el("h3", { text: `Game ${created.id} created` }),
    openMine ? el("p", {}, openMine) : null,
    el("p", { class: "help", text: [mineText(created, entry), toGive.length
      ? "Give each other player their own join link: it seats one person, once (the secret after # never reaches a server log)."
      : ""].filter(Boolean).join(" ") }),
    el("ul", {}, rows),
    hotseat ? el("p", {}, hotseat) : null,
    persons.length === 0 ? el("p", {}, el("a", { href: `/watch/${created.id}#replay`, text: "Watch the bots play" })) : null,
  );
  box.scrollIntoView({ block: "nearest" });
}

// A friend who left a finished game before its rematch was made (Play again, docs/web.md) finds
// the rematch here: the finished game's view, asked with the seat's old token, holds that seat's
// new token, which is kept as the game page keeps it. The host finds the new game's admin token
// and the join links of the seats whose person never came, by asking with the admin token.
async function collectRematches(mine, summaries) {
  const known = new Set(mine.map((g) => g.id));
  let found = false;
  await Promise.all(mine.map(async (g) => {
    const next = (summaries[g.id] || {}).rematch;
    if (!next) return;
    if (g.admin && !(gameEntry(next) || {}).admin) {
      try {
        keepHostRematch(next, await api(`/api/games/${g.id}/rematch`, { method: "POST", token: g.admin }), g.id);
        found = true;
      } catch { /* the new game has no admin in this browser */ }
    }
    if (known.has(next)) return;
    for (const held of Object.values(g.seats || {})) {
      if (!held || !held.token) continue;
      try {
        if (await fetchRematch(g.id, held.token)) found = true;
      } catch { /* that seat keeps the finished game only */ }
    }
  }));
  return found;
}

async function renderMyGames() {
  const list = $("my-games");
  let mine = myGames().slice().reverse();
  // On a phone "My games" comes before the form when there are some (app.css).
  document.body.classList.toggle("has-games", mine.length > 0);
  if (!mine.length) { list.replaceChildren(el("li", { class: "muted", text: "none yet" })); return; }
  let summaries = {};
  try { for (const g of await api("/api/games")) summaries[g.id] = g; } catch { summaries = {}; }
  if (await collectRematches(mine, summaries)) mine = myGames().slice().reverse();
  // Whose decision each game in play waits for (the public view says so): a game played over
  // days is found by the player whose move it is, first in the list, and the tab's title counts them.
  const waiting = {};
  await Promise.all(mine.filter((g) => (summaries[g.id] || {}).status === "playing").map(async (g) => {
    try { waiting[g.id] = (await api(`/api/games/${g.id}`)).current_seat; } catch { /* shown without it */ }
  }));
  const heldSeats = (g) => Object.keys(g.seats || {}).map(Number).sort((a, b) => a - b);
  const myTurn = (g) => waiting[g.id] !== undefined && waiting[g.id] !== null && heldSeats(g).includes(waiting[g.id]);
  const ordered = [...mine.filter(myTurn), ...mine.filter((g) => !myTurn(g))];
  const turns = mine.filter(myTurn).length;
  document.title = turns ? `(${turns}) Ecliptic — lobby` : "Ecliptic — lobby";
  list.replaceChildren(...ordered.map((g) => {
    const s = summaries[g.id];
    const seats = heldSeats(g);
    const status = s ? `${s.status}${s.index !== null && s.index !== undefined ? `, ${s.index} actions` : ""}` : "";
    const turn = myTurn(g)
      ? el("span", { class: "your-turn", text: `your turn (seat ${waiting[g.id] + 1})` })
      : null;
    const forget = el("button", { type: "button", class: "link", text: "forget",
      "aria-label": `forget game ${g.id} in this browser` });
    forget.addEventListener("click", () => { forgetGame(g.id); renderMyGames(); });
    return el("li", { class: "my-game", dataset: { id: g.id } },
      el("strong", { text: `${gameTitle(g.game)} ${g.id}` }), status ? ` (${status}) ` : " ", turn, turn ? " " : null,
      // One link per seat this browser holds a token for: the game page plays it with that token.
      seats.map((seat) => [el("a", { class: "my-seat", href: `/play/${g.id}#seat=${seat}`, dataset: { seat },
        text: `play seat ${seat + 1}${g.seats[seat].name ? ` (${g.seats[seat].name})` : ""}` }), " "]),
      seats.length > 1 ? el("a", { href: `/play/${g.id}#hotseat`, text: "hot-seat" }) : null, " ",
      el("a", { href: `/watch/${g.id}`, text: "watch" }), " ", forget,
      invitations(g, s));
  }));
}

// The join links this browser keeps to hand out (the host's), each seat saying whether its person
// has come (the listing's `joined`), and the host's "new link" for a seat given to someone else
// (the old link and the seat's token stop working: POST .../link with the admin token).
function invitations(g, summary) {
  const held = Object.entries(g.links || {});
  // A finished game has no seat left to come to: its links are not offered (its rematch's are).
  if (!held.length || (summary && summary.status === "over")) return null;
  const joined = (seat) => (((summary && summary.seats) || [])[seat] || {}).joined;
  return el("ul", { class: "invitations" }, held.map(([seat, l]) => {
    const n = Number(seat);
    const renew = g.admin ? el("button", { type: "button", class: "link new-link", text: "new link",
      "aria-label": `new link for seat ${n + 1} (gives the seat to someone else)` }) : null;
    if (renew) {
      renew.addEventListener("click", async () => {
        try {
          const made = await api(`/api/games/${g.id}/seats/${n}/link`, { method: "POST", token: g.admin });
          rememberGame({ id: g.id, links: { ...(gameEntry(g.id).links || {}), [n]: { link: made.join_link, name: l.name } } });
          renderMyGames();
        } catch (e) { renew.textContent = `no new link: ${e.message}`; }
      });
    }
    return el("li", { class: "invitation", dataset: { seat: n } },
      `Seat ${n + 1}${l.name ? ` (${l.name})` : ""}: `,
      el("span", { class: "joined", text: joined(n) ? "has joined" : "not joined yet" }), " ",
      // a joined seat's link is spent: nothing to copy (the host's "new link" gives the seat to someone else)
      ...(joined(n) ? [] : linkRow(g.id, n, l.name, l.link)), " ", renew,
      g.admin && !joined(n) ? openToggle(g, n, summary) : null);
  }));
}

// The host opens a seat nobody has joined to anyone (PUT .../open with the admin token): it is
// listed in every lobby's open tables until someone sits down, or the host closes it again.
function openToggle(g, seat, summary) {
  const info = ((summary && summary.seats) || [])[seat] || {};
  const box = el("input", { type: "checkbox", class: "open-seat", checked: !!info.open,
    "aria-label": `seat ${seat + 1}: open to anyone in the lobby` });
  const said = el("span", { class: "open-said" });
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      await api(`/api/games/${g.id}/seats/${seat}/open`, { method: "PUT", token: g.admin, body: { open: box.checked } });
      renderOpenTables();
    } catch (e) {
      box.checked = !box.checked;
      said.textContent = ` ${e.message}`;
    } finally {
      box.disabled = false;
    }
  });
  return el("label", { class: "check open-toggle" }, " ", box, " open to anyone", said);
}

// Open tables (docs/web.md): the games in play with a seat anyone may sit down at. "Sit down"
// asks the server for the seat under the name given above; the answer's token is kept as a join
// link's is, and the game page opens at that seat. A game this browser holds a seat of is shown
// without the button (a person plays one seat of a table).
async function renderOpenTables() {
  const list = $("open-tables");
  let games = [];
  try { games = await api("/api/games?open=true"); } catch (e) {
    list.replaceChildren(el("li", { class: "error", text: e.message })); return;
  }
  if (!games.length) {
    list.replaceChildren(el("li", { class: "muted", text: "no open table now: create a game with an open seat" }));
    return;
  }
  list.replaceChildren(...games.slice(0, 50).map((g) => {
    const mine = gameEntry(g.id);
    const seated = mine && Object.keys(mine.seats || {}).length > 0;
    const seats = g.seats.map((s, i) => [i ? ", " : "", s.open ? el("em", { text: "open seat" }) : s.name]);
    const sits = seated ? [el("span", { class: "muted", text: " you play at this table " }),
      el("a", { href: `/play/${g.id}`, text: "open it" })]
      : g.seats.filter((s) => s.open).map((s) => {
        const b = el("button", { type: "button", class: "sit", dataset: { seat: s.seat },
          text: `Sit down at seat ${s.seat + 1}`, "aria-label": `sit down at seat ${s.seat + 1} of game ${g.id}` });
        b.addEventListener("click", () => sitDown(g, s.seat, b));
        return [" ", b];
      });
    const clock = g.clock_seconds ? `, ${clockWords(g.clock_seconds)} a decision` : ", no turn clock";
    return el("li", { class: "open-table", dataset: { id: g.id } },
      el("strong", { text: `${gameTitle(g.game)} ${g.id}` }), ` — ${g.players} players (`, ...seats.flat(), `)${clock}`,
      g.index ? `, ${g.index} actions played` : "", ...sits.flat());
  }));
}

function clockWords(seconds) {
  if (seconds % 86400 === 0) return seconds === 86400 ? "1 day" : `${seconds / 86400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "1 minute" : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

async function sitDown(g, seat, button) {
  const name = $("my-name").value.trim();
  localStorage.setItem(NAME_KEY, name);
  button.disabled = true;
  try {
    const sat = await api(`/api/games/${g.id}/seats/${seat}/sit`, { method: "POST", body: { name } });
    rememberGame({ id: g.id, game: g.game, created: Date.now(), seats: { [seat]: { token: sat.token, name: sat.name } } });
    location.href = `/play/${g.id}#seat=${seat}`;
  } catch (e) {
    $("open-error").textContent = `You were not seated: ${e.message}`;
    renderOpenTables();
  }
}

async function renderAllGames() {
  const list = $("all-games");
  let games = [];
  try { games = await api("/api/games"); } catch (e) {
    list.replaceChildren(el("li", { class: "error", text: e.message })); return;
  }
  if (!games.length) { list.replaceChildren(el("li", { class: "muted", text: "no games yet" })); return; }
  list.replaceChildren(...games.slice(0, 50).map((g) => el("li", {},
    el("a", { href: `/watch/${g.id}`, text: `${gameTitle(g.game)} ${g.id}` }),
    ` — ${g.players} players (${g.seats.map((s) => s.name).join(", ")}), ${g.status}`,
    g.index !== null && g.index !== undefined ? `, ${g.index} actions` : "")));
}

start().catch((e) => { $("create-error").textContent = `The lobby could not load: ${e.message}`; });
