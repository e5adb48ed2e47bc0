// The Rules page: both rulebooks by section from /api/rules/{game}, each rule id an anchor
// (/rules#tauceti:TC-MOV-3), the recorded decisions under their rules, a search box that
// filters as you type. The page only shows the server's text; it decides nothing.

const GAMES = ["tauceti", "ceres"];
const PREFIX = { TC: "tauceti", CC: "ceres", CR: "ceres" };
const SOURCES = { ruling: "the designers' published ruling, not in the rulebook text",
                  reconstruction: "reconstruction of the host game, not in the Comets rulebook" };

const books = document.getElementById("books");
const toc = document.getElementById("toc");
const tocBox = document.getElementById("toc-box");
const query = document.getElementById("q");
const count = document.getElementById("count");

/** An element with attributes and children (strings become text nodes, never HTML). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** The markdown of docs/rules-decisions.md that entries use: `code`, **bold**, *emphasis*,
 *  [text](link) (shown as its text). Built as nodes, so nothing in the text becomes markup. */
function markdown(text) {
  const out = [];
  const pattern = /`([^`]+)`|\*\*(.+?)\*\*|\*([^*]+)\*|\[([^\]]+)\]\([^)]*\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(el("code", { text: m[1] }));
    else if (m[2] !== undefined) out.push(el("strong", {}, markdown(m[2])));
    else if (m[3] !== undefined) out.push(el("em", {}, markdown(m[3])));
    else out.push(m[4]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function decisionNode(d) {
  return el("details", { class: "decision", "data-search": `${d.topic} ${d.text}`.toLowerCase() },
    el("summary", {}, el("span", { class: "tag", text: "Decision" }), " ", markdown(d.topic || d.heading.at(-1) || "")),
    el("p", {}, markdown(d.text)),
    el("p", { class: "where", text: `docs/rules-decisions.md › ${d.heading.join(" › ")}` }));
}

function ruleNode(game, rule, section) {
  const id = `${game}:${rule.id}`;
  const haystack = [rule.id, section.title, ...section.path, rule.text,
                    ...rule.decisions.map((d) => `${d.topic} ${d.text}`)].join(" ").toLowerCase();
  const text = el("div", { class: "text" }, rule.paragraphs.map((para) => {
    const line = el("p", { text: para });
    line.dataset.plain = para;
    return line;
  }));
  return el("article", { class: "rule", id, "data-search": haystack, "aria-labelledby": `${id}:id` },
    el("h4", {},
      el("a", { class: "rid", id: `${id}:id`, href: `#${id}`, title: "Link to this rule", text: rule.id }),
      SOURCES[rule.source] ? el("span", { class: "source", text: SOURCES[rule.source] }) : null),
    text,
    rule.decisions.length ? el("div", { class: "decisions" }, rule.decisions.map(decisionNode)) : null);
}

function sectionNode(game, section) {
  const id = `${game}:section:${section.id}`;
  return el("section", { class: "section", id, "aria-labelledby": `${id}:h` },
    el("h3", { id: `${id}:h` },
      section.path.length ? el("span", { class: "path", text: section.path.join(" › ") + " › " }) : null,
      section.title),
    section.rules.map((r) => ruleNode(game, r, section)),
    section.decisions.length
      ? el("div", { class: "decisions section-decisions" },
          el("p", { class: "lead", text: "Recorded decisions on this section" }), section.decisions.map(decisionNode))
      : null);
}

function render(data) {
  books.replaceChildren();
  toc.replaceChildren();
  for (const book of data) {
    books.append(el("section", { class: "book", id: `book-${book.game}`, "aria-labelledby": `book-${book.game}-h` },
      el("h2", { id: `book-${book.game}-h`, text: book.title }),
      book.sections.map((s) => sectionNode(book.game, s))));
    toc.append(el("h2", {}, el("a", { href: `#book-${book.game}`, text: book.title })),
      el("ol", {}, book.sections.map((s) => el("li", { "data-for": `${book.game}:section:${s.id}` },
        el("a", { href: `#${book.game}:section:${s.id}` }, s.title,
          el("span", { class: "n", text: ` ${s.rules.length}` }))))));
  }
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Show only the rules (and sections) holding every word typed; mark the words. */
function filter() {
  const words = query.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const marker = words.length ? new RegExp(words.map(escapeRegExp).join("|"), "gi") : null;
  let shown = 0;
  let total = 0;
  for (const section of books.querySelectorAll(".section")) {
    let visible = 0;
    for (const rule of section.querySelectorAll(".rule")) {
      total += 1;
      const match = words.every((w) => rule.dataset.search.includes(w));
      rule.hidden = !match;
      if (match) visible += 1;
      for (const line of rule.querySelectorAll(".text p")) {
        if (marker) highlight(line, marker);
        else line.textContent = line.dataset.plain;
      }
      for (const d of rule.querySelectorAll(".decision")) {
        d.open = match && words.length > 0 && words.some((w) => d.dataset.search.includes(w));
      }
    }
    let loose = 0;
    for (const d of section.querySelectorAll(".section-decisions .decision")) {
      const match = words.every((w) => d.dataset.search.includes(w));
      d.hidden = !match;
      d.open = match && words.length > 0;
      if (match) loose += 1;
    }
    const box = section.querySelector(".section-decisions");
    if (box) box.hidden = loose === 0;
    section.hidden = visible === 0 && loose === 0;
    const entry = toc.querySelector(`[data-for="${CSS.escape(section.id)}"]`);
    if (entry) {
      entry.hidden = section.hidden;
      entry.querySelector(".n").textContent = ` ${visible}`;
    }
    shown += visible;
  }
  count.textContent = words.length ? `${shown} of ${total} rules` : `${total} rules`;
  books.classList.toggle("nothing", words.length > 0 && shown === 0);
}

function highlight(node, marker) {
  const plain = node.dataset.plain;
  const parts = [];
  let last = 0;
  for (const m of plain.matchAll(marker)) {
    if (m.index > last) parts.push(plain.slice(last, m.index));
    parts.push(el("mark", { text: m[0] }));
    last = m.index + m[0].length;
  }
  parts.push(plain.slice(last));
  node.replaceChildren(...parts);
}

/** Scroll to the rule (or section) the address names: #tauceti:TC-MOV-3, or #TC-MOV-3. */
function follow() {
  let target = decodeURIComponent(location.hash.slice(1));
  if (!target) return;
  if (!target.includes(":") && PREFIX[target.split("-")[0].toUpperCase()]) {
    target = `${PREFIX[target.split("-")[0].toUpperCase()]}:${target.toUpperCase()}`;
  }
  const node = document.getElementById(target);
  if (!node) return;
  if (node.hidden || node.closest("[hidden]")) {
    query.value = "";
    filter();
  }
  for (const old of books.querySelectorAll(".target")) old.classList.remove("target");
  node.classList.add("target");
  node.scrollIntoView({ block: "start" });
}

async function load() {
  try {
    const answers = await Promise.all(GAMES.map((g) => fetch(`/api/rules/${g}`)));
    const bad = answers.find((a) => !a.ok);
    if (bad) throw new Error(`the server answered ${bad.status}`);
    render(await Promise.all(answers.map((a) => a.json())));
  } catch (error) {
    books.replaceChildren(el("p", { class: "error", role: "alert",
      text: `The rulebooks could not be loaded (${error.message}). Reload the page to try again.` }));
    return;
  }
  tocBox.open = window.matchMedia("(min-width: 900px)").matches;
  query.addEventListener("input", () => {
    filter();
    window.scrollTo(0, 0);  // the first matches, not wherever the page was
  });
  window.addEventListener("hashchange", follow);
  document.addEventListener("keydown", (event) => {  // "/" goes to the search box, as on most sites
    if (event.key === "/" && event.target !== query && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      query.focus();
    }
  });
  toc.addEventListener("click", (event) => {
    if (event.target.closest("a") && !window.matchMedia("(min-width: 900px)").matches) tocBox.open = false;
  });
  filter();
  follow();
  document.body.dataset.ready = "true";
}

load();
