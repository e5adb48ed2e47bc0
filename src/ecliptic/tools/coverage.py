"""Rule coverage: which tests and scenarios exercise each rule id, kept in the docs by a script.

A coverage document is a markdown file whose table rows read ``| id | rule | tests |``
(several tables with headings between them are fine; several rulebooks may share one
document, each owning the rows of its id prefixes). The ids are the rulebook's
paragraphs (``TC-MOV-3``); tests cite them with ``@pytest.mark.rules("TC-MOV-3")`` and
scenario files with ``rule:`` (and ``expect_illegal:``). The **tests** column is never
written by hand: ``python -m ecliptic.tools.coverage --write`` regenerates it, and the
default check mode (run by ``tests/test_rules_coverage.py``) reports

* an id that no test or scenario cites,
* a cited id that the document does not define (a typo, or a renumbered rule),
* a rule id the rules engine uses (any string literal in its package that looks like an
  id, so ids handed through helpers count too) that the document does not define,
* a malformed or duplicated id in the document, a ``rules`` marker pytest would not see,
* a **tests** column that differs from what is cited (run ``--write``),
* for a rulebook whose ids and quotes are kept in a Python registry (Ceres:
  ``src/ecliptic/ceres/rules.py``), an id the registry does not know or a **rule** column
  that differs from the registry's quote (``--write`` copies the quotes too).

Citations are read from the sources with :mod:`ast` (only real markers on collected test
functions or classes count, never a comment or a string that merely mentions an id) and
scenario files with YAML, so nothing is imported or run.

Each rulebook is a :class:`Book`: Tau Ceti (``TC-``) and Ceres (``CC-`` Comets rulebook,
``CR-`` reconstructed host rules), both in docs/rules-coverage.md, one tool for all tables.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

#: A well-formed rule id: game prefix, section (letters, then letters or digits), number.
ID = re.compile(r"(?:TC|CC|CR)-[A-Z][A-Z0-9]*-[1-9][0-9]*")
#: Anything that tries to be a rule id (used to catch malformed ones such as ``TC-ACT-PASS``).
ID_LIKE = re.compile(r"(?:TC|CC|CR)-[A-Z0-9]+(?:-[A-Z0-9]+)+")
MARKER = "rules"


@dataclass(frozen=True)
class Book:
    """One rulebook's ids: where they are listed, which prefixes they use, which package raises
    them, and (``registry``) the source file whose dict literals hold each id's quote, when the
    engine keeps the quotes itself."""

    name: str
    doc: str
    prefixes: tuple[str, ...]
    package: str
    registry: str | None = None

    def owns(self, rule_id: str) -> bool:
        return rule_id.split("-", 1)[0] in self.prefixes


BOOKS = (
    Book("Tau Ceti", "docs/rules-coverage.md", ("TC",), "src/ecliptic/tauceti"),
    Book("Ceres", "docs/rules-coverage.md", ("CC", "CR"), "src/ecliptic/ceres",
         registry="src/ecliptic/ceres/rules.py"),
)


@dataclass(frozen=True)
class Row:
    """One rule of a coverage document: its id, the quoted rule, the tests column, and the
    line it is on (0-based)."""

    rule_id: str
    rule: str
    tests: str
    line: int


@dataclass
class Citations:
    """Rule id -> the tests and scenarios that cite it, in the order they were found (test
    files by path, each in source order; then scenario files by path)."""

    by_id: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    problems: list[str] = field(default_factory=list)

    def add(self, rule_id: str, who: str) -> None:
        if who not in self.by_id[rule_id]:
            self.by_id[rule_id].append(who)


# -- the document ---------------------------------------------------------------------------


PIPE = re.compile(r"(?<!\\)\|")  # a cell border; "\|" is a pipe inside a cell


def cells(line: str) -> list[str] | None:
    """The cells of a markdown table row, or ``None`` for any other line."""
    text = line.strip()
    if not (text.startswith("|") and text.endswith("|")) or len(text) < 2:
        return None
    return [c.strip() for c in PIPE.split(text[1:-1])]


def parse_doc(text: str, book: Book) -> tuple[list[Row], list[str]]:
    """The rule rows of a coverage document, and what is wrong with its rows."""
    rows: list[Row] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for n, line in enumerate(text.splitlines()):
        row = cells(line)
        if not row or not ID_LIKE.fullmatch(row[0]) or not book.owns(row[0]):
            continue
        where = f"{book.doc}:{n + 1}"
        rule_id = row[0]
        if not ID.fullmatch(rule_id):
            problems.append(f"{where}: malformed rule id {rule_id} (want PREFIX-SECTION-<number>)")
        if len(row) != 3:
            problems.append(f"{where}: a rule row has three cells: | id | rule | tests |")
            continue
        if rule_id in seen:
            problems.append(f"{where}: {rule_id} is defined twice (first on line {seen[rule_id]})")
            continue
        seen[rule_id] = n + 1
        rows.append(Row(rule_id, row[1], row[2], n))
    return rows, problems


# -- citations in tests -----------------------------------------------------------------------


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _marker_call(node: ast.expr) -> ast.Call | None:
    """``pytest.mark.rules(...)`` (or ``mark.rules(...)``), else ``None``."""
    if isinstance(node, ast.Call) and _dotted(node.func) in (f"pytest.mark.{MARKER}", f"mark.{MARKER}"):
        return node
    return None


def _marker_ids(call: ast.Call, where: str, out: Citations) -> list[str]:
    ids: list[str] = []
    for arg in call.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            ids.append(arg.value)
        else:
            out.problems.append(f"{where}: rules marker arguments must be string literals")
    if call.keywords or not call.args:
        out.problems.append(f"{where}: write @pytest.mark.{MARKER}(\"ID\", ...) with the ids only")
    return ids


def _decorated(body: Iterable[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.expr, bool]]:
    """(test name, decorator, collected by pytest?) for every decorator in a module or class."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for dec in node.decorator_list:
                yield f"{prefix}::{node.name}", dec, node.name.startswith("test")
        elif isinstance(node, ast.ClassDef):
            name = f"{prefix}::{node.name}"
            for dec in node.decorator_list:
                yield name, dec, node.name.startswith("Test")
            yield from _decorated(node.body, name)


def cite_tests(tests: Path, root: Path) -> Citations:
    """Rule ids cited by ``rules`` markers in the test sources (parsed, not imported)."""
    out = Citations()
    for path in sorted(tests.rglob("*.py")):
        label = path.relative_to(tests).with_suffix("").as_posix()
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in tree.body:  # pytestmark = pytest.mark.rules(...) marks the whole module
            if isinstance(node, ast.Assign) and any(_dotted(t) == "pytestmark" for t in node.targets):
                values = node.value.elts if isinstance(node.value, ast.List | ast.Tuple) else [node.value]
                for value in values:
                    call = _marker_call(value)
                    if call is not None:
                        for rule_id in _marker_ids(call, f"{label}:{node.lineno}", out):
                            out.add(rule_id, label)
        for name, dec, collected in _decorated(tree.body, label):
            call = _marker_call(dec)
            if call is None:
                continue
            where = f"{label}:{dec.lineno}"
            ids = _marker_ids(call, where, out)
            if not collected:
                out.problems.append(f"{where}: rules marker on {name.split('::')[-1]}, which pytest "
                                    "does not collect as a test")
                continue
            for rule_id in ids:
                out.add(rule_id, name)
    return out


# -- citations in scenario files --------------------------------------------------------------


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def _illegal_ids(node: Any) -> Iterator[str]:
    """Ids under every ``expect_illegal:`` key, wherever it is nested."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "expect_illegal":
                if isinstance(value, dict):
                    yield from _strings(value.get("rule"))
                else:
                    yield from _strings(value)
            else:
                yield from _illegal_ids(value)
    elif isinstance(node, list):
        for item in node:
            yield from _illegal_ids(item)


def cite_scenarios(scenarios: Path, tests: Path) -> Citations:
    """Rule ids named by scenario files: their ``rule:`` list and their ``expect_illegal:``."""
    out = Citations()
    if not scenarios.is_dir():
        return out
    for path in sorted([*scenarios.rglob("*.yaml"), *scenarios.rglob("*.yml")]):
        label = path.relative_to(tests).as_posix()
        try:
            data = yaml.safe_load(path.read_text())
        except yaml.YAMLError as exc:
            out.problems.append(f"{label}: not valid YAML ({exc.__class__.__name__})")
            continue
        if not isinstance(data, dict):
            continue
        for rule_id in [*_strings(data.get("rule")), *_illegal_ids(data.get("steps"))]:
            out.add(rule_id, label)
    return out


# -- ids the rules engine uses ------------------------------------------------------------------


def used_in_code(package: Path, root: Path, book: Book) -> dict[str, set[str]]:
    """Every string literal of the package that is (or tries to be) one of the book's ids,
    with file:line. Ids reach ``illegal(...)`` through helpers too, so every literal counts."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(package.rglob("*.py")):
        label = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and ID_LIKE.fullmatch(node.value) and book.owns(node.value)):
                found[node.value].add(f"{label}:{node.lineno}")
    return found


def registry_quotes(path: Path, book: Book) -> dict[str, str]:
    """Rule id -> quote from the dict literals of a registry module (``{"CC-COMP-1": "18 Tail
    tokens", ...}``), read with :mod:`ast` like everything else here."""
    quotes: dict[str, str] = {}
    for node in ast.parse(path.read_text(), filename=str(path)).body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if not isinstance(value, ast.Dict):
            continue
        for key, quote in zip(value.keys, value.values, strict=True):
            if (isinstance(key, ast.Constant) and isinstance(key.value, str) and book.owns(key.value)
                    and isinstance(quote, ast.Constant) and isinstance(quote.value, str)):
                quotes[key.value] = quote.value
    return quotes


# -- the report ---------------------------------------------------------------------------------


def tests_cell(citations: Iterable[str]) -> str:
    """The generated **tests** cell: ``test_file::test_name`` in file and source order, then
    the scenario files."""
    return "<br>".join(f"`{c}`" for c in citations)


def rule_cell(quote: str) -> str:
    """A registry quote as a table cell (a pipe inside a cell is written ``\\|``)."""
    return quote.replace("|", "\\|")


@dataclass
class BookReport:
    book: Book
    ids: list[str]
    covered: list[str]
    problems: list[str]
    text: str  # the document with this book's generated columns (and those of the books before it)
    drifted: bool


def check_book(root: Path, book: Book, cited: Citations, text: str | None = None) -> BookReport:
    """Compare one book's rows of its document with the citations, the engine and the registry.
    ``text`` is the document as the books before this one in the same document left it (read
    from disk when ``None``)."""
    doc = root / book.doc
    if text is None:
        if not doc.exists():
            return BookReport(book, [], [], [f"{book.doc} is missing"], "", False)
        text = doc.read_text()
    rows, problems = parse_doc(text, book)
    quotes = _quotes(root, book, rows, problems)
    defined = {r.rule_id for r in rows}
    for rule_id, where in sorted(cited.by_id.items()):
        if book.owns(rule_id) and rule_id not in defined:
            problems.append(f"{rule_id} is cited but not defined in {book.doc}: {', '.join(sorted(where))}")
    for rule_id, places in sorted(used_in_code(root / book.package, root, book).items()):
        if rule_id not in defined:
            problems.append(f"{rule_id} is used by the rules engine but not defined in {book.doc}: "
                            f"{', '.join(sorted(places))}")
    missing = [r.rule_id for r in rows if not cited.by_id.get(r.rule_id)]
    if missing:
        problems.append(f"{len(missing)} rule id(s) of {book.doc} have no test or scenario: {', '.join(missing)}")
    lines = text.splitlines(keepends=True)
    for r in rows:
        end = "\n" if lines[r.line].endswith("\n") else ""
        rule = quotes.get(r.rule_id, r.rule)
        lines[r.line] = f"| {r.rule_id} | {rule} | {tests_cell(cited.by_id.get(r.rule_id, ()))} |{end}"
    generated = "".join(lines)
    drifted = generated != text
    if drifted:
        columns, verb = ("tests and rule columns", "are") if book.registry else ("tests column", "is")
        problems.append(f"{book.name}: the {columns} of {book.doc} {verb} out of date: run "
                        "`python -m ecliptic.tools.coverage --write`")
    covered = [r.rule_id for r in rows if cited.by_id.get(r.rule_id)]
    return BookReport(book, [r.rule_id for r in rows], covered, problems, generated, drifted)


def _quotes(root: Path, book: Book, rows: list[Row], problems: list[str]) -> dict[str, str]:
    """The rule cells a registry dictates (empty without a registry); ids of the document that
    the registry does not know are problems (ids only in the registry are caught as ids the
    engine uses)."""
    if book.registry is None:
        return {}
    path = root / book.registry
    if not path.exists():
        problems.append(f"{book.registry} (the registry of {book.name}'s rule ids) is missing")
        return {}
    quotes = registry_quotes(path, book)
    for r in rows:
        if r.rule_id not in quotes:
            problems.append(f"{r.rule_id} is in {book.doc} but not in {book.registry}")
    return {r.rule_id: rule_cell(quotes[r.rule_id]) for r in rows if r.rule_id in quotes}


def citations(root: Path) -> Citations:
    """Every citation of a rule id in the tests and scenario files under ``root/tests``."""
    tests = root / "tests"
    merged = Citations()
    for part in (cite_tests(tests, root), cite_scenarios(tests / "scenarios", tests)):
        merged.problems += part.problems
        for rule_id, who in part.by_id.items():
            for w in who:
                merged.add(rule_id, w)
    for rule_id in list(merged.by_id):
        if not ID_LIKE.fullmatch(rule_id):
            merged.problems.append(f"{rule_id!r} is cited but is not a rule id: "
                                   f"{', '.join(sorted(merged.by_id[rule_id]))}")
    return merged


def run(root: Path, books: Iterable[Book] | None = None) -> tuple[list[BookReport], list[str]]:
    """Reports for every book (default :data:`BOOKS`), in order, and the citation problems.
    Books sharing a document are generated one after the other into the same text, so the
    last report of a document holds the whole regenerated document."""
    books = tuple(BOOKS if books is None else books)
    cited = citations(root)
    texts: dict[str, str] = {}
    reports = []
    for book in books:
        report = check_book(root, book, cited, texts.get(book.doc))
        if report.text:
            texts[book.doc] = report.text
        reports.append(report)
    known = {p for b in books for p in b.prefixes}
    stray = [f"{i} is cited but belongs to no rulebook: {', '.join(sorted(w))}"
             for i, w in sorted(cited.by_id.items()) if i.split("-", 1)[0] not in known]
    return reports, cited.problems + stray


def project_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` holding pyproject.toml (else ``start``)."""
    for folder in (start, *start.parents):
        if (folder / "pyproject.toml").exists():
            return folder
    return start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ecliptic.tools.coverage", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="regenerate the tests column of each document")
    parser.add_argument("--root", type=Path, default=None,
                        help="the project folder (default: the one holding pyproject.toml, from here up)")
    args = parser.parse_args(argv)
    args.root = args.root or project_root(Path.cwd())
    reports, problems = run(args.root)
    failed = bool(problems)
    for p in problems:
        print(p)
    if args.write:
        final = {rep.book.doc: rep.text for rep in reports}  # the last book's text holds them all
        for doc in sorted({rep.book.doc for rep in reports if rep.drifted}):
            (args.root / doc).write_text(final[doc])
            print(f"{doc}: generated columns rewritten")
    for rep in reports:
        left = [p for p in rep.problems if not (args.write and "out of date" in p)]
        for p in left:
            print(p)
        failed = failed or bool(left)
        print(f"{rep.book.name}: {len(rep.ids)} rule ids, {len(rep.covered)} covered by a test or scenario")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
