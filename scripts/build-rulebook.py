#!/usr/bin/env python3
"""Build the rules reference data (``src/ecliptic/present/rulebook/<game>.json``) from its sources.

The sources are outside the package: the rulebook texts (``../shared/rules/*.txt``, searched for
in the folders above the project, or ``--rules DIR``), the rule ids with their quotes
(``docs/rules-coverage.md``, and for Ceres ``ecliptic.ceres.rules``) and the recorded decisions
(``docs/rules-decisions.md``). The package reads only the generated JSON, so an installed
Ecliptic never needs the rulebook folder; ``tests/test_rules_reference.py`` rebuilds the data in
memory and fails when the committed files are out of date.

How an id finds its sentences: the coverage table quotes each rule ("…" marks a cut), and the
quoted fragments are looked up in the rulebook, in order, around the longest one; the rule's text
is every rulebook sentence from the first fragment to the last (for Tau Ceti, whose ids are one
per paragraph, the whole paragraphs, and a lead-in ending with ":" takes the list items under it
that have no id of their own). A rule printed in no rulebook (the designers' damage ruling,
Ceres' reconstructed host game) is its own statement, in a section of its own.

Which decisions concern a rule: the ids an entry of docs/rules-decisions.md names; an entry that
names none, the rules whose sentences it quotes (a phrase found in the texts of at most
:data:`MAX_RULES_PER_QUOTE` rules); an entry that does neither is shown with the section its
neighbours under the same heading concern most (or the section its heading is named after).

Usage: ``python scripts/build-rulebook.py`` (write) or ``--check`` (exit 1 when out of date).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "ecliptic" / "present" / "rulebook"
RULEBOOK_FILES = {"tauceti": "tau-ceti-planetary-crisis.txt", "ceres": "ceres-comets.txt"}
TITLES = {"tauceti": "Tau Ceti: Planetary Crisis", "ceres": "Ceres: Comets"}
PREFIXES = {"tauceti": ("TC",), "ceres": ("CC", "CR")}

ID = re.compile(r"\b(?:TC|CC|CR)-[A-Z][A-Z0-9]*-[1-9][0-9]*\b")
ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.)\s*")
FIGURE = re.compile(r"\s*\[\d+\]")
"""The numbers of a figure's legend ("Systems tokens [6]"): shown without the figure, they mean nothing."""
MAX_RULES_PER_QUOTE = 3
"""A quoted phrase found in more rules' texts than this is too common to say which rule it reads."""
MIN_QUOTE = 14
"""Shorter quoted phrases ("positive", "sector tiles") say nothing about which rule is meant."""

# Rows whose rule cell describes an example instead of quoting it: the phrases that find it.
ANCHORS: dict[str, list[str]] = {
    "TC-EI-3": ["Captain Anor successfully explores two Exploration points in sector 01",
                "which allows her to place a Resource cube in each since they are all connected."],
    "CC-SETUP-11": ["Example: The players drew a Sungrazer and a Near-sun Comet",
                    "the equivalent Near-sun token next to Zone 4"],
}
NOT_RULES = ("Command line, bots and simulator: choices made", "Scenario files: decisions")
"""Headings of docs/rules-decisions.md whose entries say themselves that they change no rule."""
OTHER = ("other-decisions", "Other recorded decisions")
"""Where a decision goes that is about no rule or section in particular (hidden information)."""
# Rules that are printed in no rulebook text: where they are shown and what they are.
OFF_BOOK = {
    "DMG": ("rulings", "Rulings", "ruling"),
    "CR": ("reconstruction", "Ceres host game (reconstruction)", "reconstruction"),
}


def rulebooks_folder(start: Path = ROOT) -> Path | None:
    """The folder holding the rulebook texts: ``shared/rules`` beside the project or beside any
    folder above it (a work tree of the project may sit deeper than the project itself)."""
    for folder in (start, *start.parents):
        candidate = folder.parent / "shared" / "rules"
        if (candidate / RULEBOOK_FILES["tauceti"]).is_file():
            return candidate
    return None


def norm(text: str) -> str:
    """Text for matching: straight quotes, one space, lower case."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = re.sub(r"\s*\[[^\]]*\]", "", text)  # figure numbers, editors' inserts, printed brackets alike
    return re.sub(r"\s+", " ", text).strip().lower()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# -- the rulebook text ------------------------------------------------------------------------


@dataclass
class Section:
    id: str
    title: str
    path: list[str]
    rules: list[str] = field(default_factory=list)


@dataclass
class Sentence:
    text: str
    section: int  # index into the sections
    block: int  # paragraph / bullet number, so sentences of one paragraph stay together
    start: int = 0  # offset in the joined, normalized text
    end: int = 0


ABBREVIATIONS = ("e.g.", "i.e.", "Dr.", "vs.")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"(\[•])")


def sentences_of(block: str) -> list[str]:
    """A paragraph's sentences (a bullet or a numbered step stays whole when it is one sentence)."""
    parts: list[str] = []
    for piece in SENTENCE_END.split(block):
        if parts and (parts[-1].endswith(ABBREVIATIONS) or re.fullmatch(r"\d+\.", parts[-1])):
            parts[-1] += " " + piece
        else:
            parts.append(piece)
    return [p.strip() for p in parts if p.strip()]


def is_heading(line: str) -> bool:
    text = line.strip()
    return (0 < len(text) <= 60 and not text.endswith((".", ":", ")", '"', "!", "?", ","))
            and not text.startswith(("•", "[", "Example")) and not text[0].isdigit())


@dataclass
class Book:
    sections: list[Section]
    sentences: list[Sentence]
    text: str  # every sentence normalized, joined by one space


def parse_rulebook(text: str) -> Book:
    """Sections (from the table of contents and the heading lines) and sentences of a rulebook."""
    lines = text.splitlines()
    toc: dict[str, int] = {}
    body_start = 0
    for n, line in enumerate(lines):
        if line.lstrip().startswith("•") and not toc and n > 0 and "Table of Contents" not in line:
            # the first bullets are the table of contents, up to the first blank line after them
            m = n
            while m < len(lines) and lines[m].strip():
                entry = lines[m]
                toc[entry.strip().lstrip("• ").strip()] = (len(entry) - len(entry.lstrip())) // 2
                m += 1
            body_start = m
            break
    sections: list[Section] = []
    sentences: list[Sentence] = []
    stack: list[tuple[int, str]] = []  # (level, title)
    toc_level = -1  # the level of the last heading of the table of contents
    ids: set[str] = set()
    block = 0
    for line in lines[body_start:]:
        if not line.strip():
            continue
        title = line.strip()
        if title in toc or is_heading(line):
            # a heading the table of contents leaves out (TAU, Tau Ceti Exchange) is one level
            # below the last one it lists
            level = toc[title] if title in toc else toc_level + 1
            if title in toc:
                toc_level = level
            while stack and stack[-1][0] >= level:
                stack.pop()
            path = [t for _, t in stack]
            stack.append((level, title))
            ident = slug(title)
            if ident in ids:  # "Resource Cubes" is an Important Concept and a step of the Global Setup
                ident = slug(f"{path[-1] if path else ''} {title}")
            ids.add(ident)
            sections.append(Section(ident, title, path))
            continue
        if not sections:
            continue
        block += 1
        for sentence in sentences_of(line.strip()):
            sentences.append(Sentence(sentence, len(sections) - 1, block))
    joined = ""
    for s in sentences:
        if joined:
            joined += " "
        s.start = len(joined)
        joined += norm(s.text)
        s.end = len(joined)
    return Book(sections, sentences, joined)


def locate(book: Book, fragments: list[str]) -> tuple[int, int] | None:
    """The span of sentences (first, last index) holding the fragments in order, anchored on the
    longest; ``None`` when one is missing."""
    keys = [norm(f) for f in fragments if len(norm(f)) >= 3]
    if not keys:
        return None
    anchor = max(range(len(keys)), key=lambda i: len(keys[i]))
    at = book.text.find(keys[anchor])
    if at < 0:
        return None
    lo, hi = at, at + len(keys[anchor])
    for key in reversed(keys[:anchor]):
        found = book.text.rfind(key, 0, lo)
        if found < 0:
            return None
        lo = found
    for key in keys[anchor + 1:]:
        found = book.text.find(key, hi)
        if found < 0:
            return None
        hi = found + len(key)
    first = next(i for i, s in enumerate(book.sentences) if s.end > lo)
    last = next(i for i, s in enumerate(book.sentences) if s.end >= hi)
    return first, last


def quoted(cell: str) -> list[str]:
    """The quoted parts of a coverage row's rule cell, cut at each ellipsis ("…" or "...")."""
    cell = cell.replace("\\|", "|")
    parts = re.findall(r'"([^"]*)"', cell)
    return [p for q in parts for p in ELLIPSIS.split(q) if p.strip()]


def fragments_with_inserts_removed(fragments: list[str]) -> list[str]:
    """An editor's insert ("transporting [quark-gluon plasma]") cuts the quote where it stands."""
    return [p for f in fragments for p in re.split(r"\s*\[[^\]]*\]\s*", f) if p.strip()]


# -- the coverage rows -------------------------------------------------------------------------


@dataclass
class Row:
    rule_id: str
    cell: str
    heading: str


def coverage_rows(text: str) -> list[Row]:
    rows: list[Row] = []
    heading = ""
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
            continue
        match = re.match(r"\|\s*((?:TC|CC|CR)-[A-Z0-9]+-\d+)\s*\|(.*)\|(.*)\|\s*$", line)
        if match:
            rows.append(Row(match.group(1), match.group(2).strip(), heading))
    return rows


def ceres_quotes(path: Path) -> dict[str, str]:
    quotes: dict[str, str] = {}
    for node in ast.parse(path.read_text()).body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if isinstance(value, ast.Dict):
            for key, quote in zip(value.keys, value.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(quote, ast.Constant):
                    quotes[str(key.value)] = str(quote.value)
    return quotes


# -- the decisions -----------------------------------------------------------------------------


@dataclass
class Decision:
    id: str
    topic: str
    text: str  # markdown, as written (``code``, **bold**, *emphasis*, [links](...))
    heading: list[str]
    game: str


def parse_decisions(text: str) -> list[Decision]:
    """Every top-level bullet of docs/rules-decisions.md, with its headings (after ``# Ceres``
    the decisions are Ceres')."""
    out: list[Decision] = []
    headings: dict[int, str] = {}
    game = "tauceti"
    current: list[str] | None = None
    seen: set[str] = set()

    def close() -> None:
        if current is None:
            return
        # continuation lines join the entry; a nested bullet starts a line of its own
        body = "".join(("\n" if line.lstrip().startswith("- ") and n else " " if n else "") + line.strip()
                       for n, line in enumerate(current))
        match = re.match(r"- \*\*(.+?)\*\*\s*(.*)$", body, re.DOTALL)
        topic, rest = (match.group(1), match.group(2)) if match else ("", body[2:])
        note = re.match(r"(\([^)]*\))\s*(.*)$", rest, re.DOTALL)  # "**Ties** (changed in issue 15) — ..."
        if note and note.group(2).startswith("—"):
            topic, rest = f"{topic} {note.group(1)}", note.group(2)
        path = [headings[k] for k in sorted(headings)]
        base = f"{slug(path[-1] if path else '')[:24]}-{slug(topic or rest)[:40]}".strip("-")
        ident, n = base, 2
        while ident in seen:
            ident, n = f"{base}-{n}", n + 1
        seen.add(ident)
        # an entry without a **topic** is about its heading
        out.append(Decision(ident, topic.strip() or (path[-1] if path else ""), rest.strip().lstrip("—").strip(),
                            path, game))

    for line in text.splitlines():
        if line.startswith("#"):
            close()
            current = None
            level = len(line) - len(line.lstrip("#"))
            title = line.lstrip("#").strip()
            if level == 1:
                headings.clear()
                game = "ceres" if title == "Ceres" else game
                continue
            for k in [k for k in headings if k >= level]:
                del headings[k]
            headings[level] = title
        elif line.startswith("- "):
            close()
            current = [line]
        elif current is not None and line.startswith("  ") and line.strip():
            current.append(line)
        elif current is not None:  # a blank line or a paragraph ends the entry
            close()
            current = None
    close()
    return out


def decision_quotes(text: str) -> list[str]:
    plain = text.replace("\u201c", '"').replace("\u201d", '"')
    phrases = re.findall(r'"([^"]+)"', plain)
    return [p for q in phrases for p in ELLIPSIS.split(q) if len(p.strip()) >= MIN_QUOTE]


# -- the build ---------------------------------------------------------------------------------


def build(rules_dir: Path, root: Path = ROOT) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Each game's reference data, and the problems (an id whose sentences were not found)."""
    problems: list[str] = []
    rows = coverage_rows((root / "docs" / "rules-coverage.md").read_text())
    registry = ceres_quotes(root / "src" / "ecliptic" / "ceres" / "rules.py")
    decisions = parse_decisions((root / "docs" / "rules-decisions.md").read_text())
    out: dict[str, dict[str, Any]] = {}
    for game, filename in RULEBOOK_FILES.items():
        book = parse_rulebook((rules_dir / filename).read_text())
        rules: dict[str, dict[str, Any]] = {}
        spans: dict[str, tuple[int, int]] = {}  # rule id -> its first and last sentence
        extra: dict[str, Section] = {}
        for row in rows:
            if row.rule_id.split("-", 1)[0] not in PREFIXES[game]:
                continue
            code = row.rule_id.split("-")[1]
            summary = registry.get(row.rule_id, row.cell.replace("\\|", "|"))
            off = OFF_BOOK.get(code) or OFF_BOOK.get(row.rule_id.split("-", 1)[0])
            entry: dict[str, Any] = {"id": row.rule_id, "code": code, "summary": summary, "sentences": [],
                                     "source": "rulebook", "decisions": []}
            if off is not None:
                section_id, title, source = off
                section = extra.setdefault(section_id, Section(section_id, title, []))
                entry["source"] = source
                entry["sentences"] = [summary]
                section.rules.append(row.rule_id)
                entry["section"] = section_id
                rules[row.rule_id] = entry
                continue
            fragments = ANCHORS.get(row.rule_id) or (quoted(row.cell) if game == "tauceti" else
                                                     [p for p in ELLIPSIS.split(summary) if p.strip()])
            span = locate(book, fragments) or locate(book, fragments_with_inserts_removed(fragments))
            if span is None:
                problems.append(f"{row.rule_id}: the quote is not in {filename}: {row.cell[:80]}")
                continue
            first, last = span
            if game == "tauceti":  # an id is a whole paragraph or bullet there (docs/rules-coverage.md)
                while first > 0 and book.sentences[first - 1].block == book.sentences[first].block:
                    first -= 1
                while last + 1 < len(book.sentences) and book.sentences[last + 1].block == book.sentences[last].block:
                    last += 1
            if book.sentences[first].section != book.sentences[last].section:
                problems.append(f"{row.rule_id}: the quote spans two sections")
            spans[row.rule_id] = (first, last)
            entry["section"] = book.sections[book.sentences[first].section].id
            rules[row.rule_id] = entry
        claimed = {i for first, last in spans.values() for i in range(first, last + 1)}
        for rid, (first, last) in spans.items():
            # a lead-in ("The various ways you can earn GPs are:") takes the list under it when
            # no item of the list has an id of its own
            if game == "tauceti" and book.sentences[last].text.endswith(":"):
                end = last
                while (end + 1 < len(book.sentences) and end + 1 not in claimed
                       and book.sentences[end + 1].section == book.sentences[last].section
                       and re.match(r"(•|\d+\.)\s", book.sentences[end + 1].text)):
                    end += 1
                spans[rid] = (first, end)
        for rid, (first, last) in spans.items():
            chosen = book.sentences[first:last + 1]
            rules[rid]["sentences"] = [FIGURE.sub("", s.text) for s in chosen]
            rules[rid]["paragraphs"] = [" ".join(FIGURE.sub("", s.text) for s in chosen if s.block == b)
                                        for b in dict.fromkeys(s.block for s in chosen)]
        for entry in rules.values():
            entry.setdefault("paragraphs", entry["sentences"])
        # rules in rulebook order within each section (the ids' order for ties)
        order = {rid: n for n, rid in enumerate(rules)}
        for rid in sorted(spans, key=lambda r: (spans[r][0], order[r])):
            next(s for s in book.sections if s.id == rules[rid]["section"]).rules.append(rid)
        texts = {rid: norm(" ".join(e["sentences"])) for rid, e in rules.items()}
        section_of = {rid: e["section"] for rid, e in rules.items()}
        game_decisions: dict[str, dict[str, Any]] = {}
        unplaced: list[Decision] = []
        by_heading: dict[tuple[str, ...], list[str]] = {}  # heading -> sections its decisions concern
        for d in decisions:
            if d.game != game or (d.heading and d.heading[0] in NOT_RULES):
                continue
            # the ids an entry names say what it concerns; only an entry naming none is placed by
            # the sentences it quotes
            concerned = [i for i in ID.findall(d.text + " " + d.topic) if i in rules]
            for phrase in [] if concerned else decision_quotes(d.text):
                key = norm(phrase)
                hits = [rid for rid, t in texts.items() if key in t]
                if 0 < len(hits) <= MAX_RULES_PER_QUOTE:
                    concerned += hits
            concerned = list(dict.fromkeys(concerned))
            if not concerned:
                unplaced.append(d)
                continue
            game_decisions[d.id] = {"id": d.id, "topic": d.topic, "text": d.text, "heading": d.heading,
                                    "rules": concerned, "section": None}
            for rid in concerned:
                rules[rid]["decisions"].append(d.id)
            for depth in range(1, len(d.heading) + 1):
                by_heading.setdefault(tuple(d.heading[:depth]), []).extend(section_of[r] for r in concerned)
        section_decisions: dict[str, list[str]] = {}
        for d in unplaced:
            # a decision quoting no sentence and naming no id is about the rulebook section its
            # neighbours under the same heading concern most
            for depth in range(len(d.heading), 0, -1):
                near = by_heading.get(tuple(d.heading[:depth]))
                if near:
                    target = max(dict.fromkeys(near), key=near.count)
                    game_decisions[d.id] = {"id": d.id, "topic": d.topic, "text": d.text, "heading": d.heading,
                                            "rules": [], "section": target}
                    section_decisions.setdefault(target, []).append(d.id)
                    break
            else:
                titled = [x.id for x in book.sections if any(norm(x.title) == norm(h) for h in d.heading)]
                target = titled[0] if titled else OTHER[0]
                if not titled:
                    extra.setdefault(OTHER[0], Section(OTHER[0], OTHER[1], []))
                game_decisions[d.id] = {"id": d.id, "topic": d.topic, "text": d.text, "heading": d.heading,
                                        "rules": [], "section": target}
                section_decisions.setdefault(target, []).append(d.id)
        sections = [s for s in [*book.sections, *extra.values()] if s.rules or s.id in section_decisions]
        out[game] = {
            "game": game,
            "title": TITLES[game],
            "source": filename,
            "sections": [{"id": s.id, "title": s.title, "path": s.path, "rules": s.rules,
                          "decisions": section_decisions.get(s.id, [])} for s in sections],
            "rules": rules,
            "decisions": game_decisions,
        }
    return out, problems


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", type=Path, default=None, help="the folder of the rulebook texts")
    parser.add_argument("--check", action="store_true", help="only check that the generated files are current")
    args = parser.parse_args(argv)
    folder = args.rules or rulebooks_folder()
    if folder is None:
        print("the rulebook texts (shared/rules/*.txt) are not found; give --rules DIR", file=sys.stderr)
        return 2
    data, problems = build(folder)
    for p in problems:
        print(p, file=sys.stderr)
    stale = [g for g, d in data.items() if not (OUT / f"{g}.json").is_file()
             or (OUT / f"{g}.json").read_text() != render(d)]
    if args.check:
        for g in stale:
            print(f"{OUT / g}.json is out of date: run scripts/build-rulebook.py", file=sys.stderr)
        return 1 if stale or problems else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for game, d in data.items():
        (OUT / f"{game}.json").write_text(render(d))
        print(f"{game}: {len(d['rules'])} rules in {len(d['sections'])} sections, "
              f"{len(d['decisions'])} decisions -> {OUT / game}.json")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
