"""Rule coverage: every rule id of docs/rules-coverage.md (Tau Ceti, and Ceres' Comets and
reconstruction tables) has a test or scenario, every id cited or raised exists, and the generated
columns are current (``python -m ecliptic.tools.coverage --write`` regenerates them). The tool
itself is tested on small projects in a temporary folder."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ecliptic.ceres.rules import COMETS_RULES, RECONSTRUCTION_RULES
from ecliptic.tools import coverage
from ecliptic.tools.coverage import Book

ROOT = Path(__file__).resolve().parents[1]


def _report(name: str) -> coverage.BookReport | None:
    reports, _ = coverage.run(ROOT)
    return next((r for r in reports if r.book.name == name), None)


def test_no_citation_names_a_missing_or_malformed_rule_id() -> None:
    _, problems = coverage.run(ROOT)
    assert problems == [], "\n".join(problems)


def test_every_tau_ceti_rule_has_a_test_and_the_table_is_current() -> None:
    report = _report("Tau Ceti")
    assert report is not None
    assert report.problems == [], "\n".join(report.problems)
    assert report.covered == report.ids
    assert len(report.ids) > 150  # every paragraph of the rulebook, not a sample


@pytest.mark.parametrize("book", coverage.BOOKS, ids=lambda b: b.name)
def test_every_rule_id_the_engine_raises_is_in_the_table(book: Book) -> None:
    report = _report(book.name)
    assert report is not None
    used = coverage.used_in_code(ROOT / book.package, ROOT, book)
    assert used, "the engine names no rule id at all?"
    assert sorted(set(used) - set(report.ids)) == []


def test_every_ceres_rule_has_a_test_or_scenario_and_the_tables_are_current() -> None:
    """Both Ceres tables live in docs/rules-coverage.md, row for row the ids of
    ecliptic.ceres.rules in its order, and the Ceres scenario files count as citations."""
    assert all(b.doc == "docs/rules-coverage.md" for b in coverage.BOOKS)
    assert not (ROOT / "docs" / "coverage" / "ceres.md").exists(), "one coverage document, not two"
    report = _report("Ceres")
    assert report is not None
    assert report.problems == [], "\n".join(report.problems)
    assert report.ids == [*COMETS_RULES, *RECONSTRUCTION_RULES]
    assert report.covered == report.ids
    text = (ROOT / "docs" / "rules-coverage.md").read_text()
    assert text.index("## Ceres: Comets") < text.index("| CC-COMP-1 |") < text.index(
        "## Ceres host game (reconstruction)") < text.index("| CR-SETUP-1 |")
    cited = coverage.citations(ROOT)
    by_scenario = {i for i, who in cited.by_id.items() if any(w.startswith("scenarios/ceres/") for w in who)}
    assert {"CC-SETUP-8", "CC-SETUP-9", "CC-SETUP-10", "CC-SETUP-11", "CC-BELT-1", "CC-PROD-3", "CC-PROD-4",
            "CC-PROD-6", "CC-PROD-7", "CC-NEAR-1", "CC-SUN-2", "CC-SUN-3", "CC-ACT-2", "CC-ACT-7"} <= by_scenario


# -- the tool on small projects -----------------------------------------------------------------

BOOK = Book("Test", "docs/rules.md", ("TC",), "src/pkg")

DOC = """\
# Rules

| id | rule | tests |
|---|---|---|
| TC-A-1 | "a rule \\| with a pipe" | |
| TC-A-2 | "another rule" | stale |
"""


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def test_only_real_markers_on_collected_tests_count(tmp_path: Path) -> None:
    root = _project(tmp_path, {"tests/test_x.py": '''
        import pytest
        from pytest import mark

        # @pytest.mark.rules("TC-A-3") is only a comment
        TEXT = "TC-A-4"

        @pytest.mark.rules("TC-A-1", "TC-A-2")
        def test_one() -> None:
            """mentions TC-A-5"""

        @mark.rules("TC-A-1")
        def test_two() -> None: ...

        @pytest.mark.rules("TC-A-6")
        class TestGroup:
            @pytest.mark.rules("TC-A-7")
            def test_three(self) -> None: ...

        @pytest.mark.rules("TC-A-8")
        def helper() -> None: ...

        @pytest.mark.rules(RULE)
        def test_four() -> None: ...
        '''})
    cited = coverage.cite_tests(root / "tests", root)
    assert dict(cited.by_id) == {
        "TC-A-1": ["test_x::test_one", "test_x::test_two"],
        "TC-A-2": ["test_x::test_one"],
        "TC-A-6": ["test_x::TestGroup"],
        "TC-A-7": ["test_x::TestGroup::test_three"],
    }
    assert any("helper, which pytest does not collect" in p for p in cited.problems)
    assert any("must be string literals" in p for p in cited.problems)


def test_scenarios_cite_their_rule_list_and_expected_refusals(tmp_path: Path) -> None:
    root = _project(tmp_path, {"tests/scenarios/game/one.yaml": '''
        title: x
        rule: [TC-A-1, TC-A-2]
        steps:
          - do: MOV
            expect_illegal: TC-A-3
          - do: GO 05
            expect_illegal: {rule: TC-A-4, says: far}
        note: TC-A-5 is only mentioned
        ''', "tests/scenarios/game/two.yml": "rule: TC-A-1\n"})
    cited = coverage.cite_scenarios(root / "tests/scenarios", root / "tests")
    assert dict(cited.by_id) == {
        "TC-A-1": ["scenarios/game/one.yaml", "scenarios/game/two.yml"],
        "TC-A-2": ["scenarios/game/one.yaml"],
        "TC-A-3": ["scenarios/game/one.yaml"],
        "TC-A-4": ["scenarios/game/one.yaml"],
    }


def test_every_id_like_literal_of_the_engine_is_collected(tmp_path: Path) -> None:
    root = _project(tmp_path, {"src/pkg/rules.py": '''
        def why_not(a):
            if a:
                return illegal("TC-A-1", "no")
            check(a, "TC-A-2")  # handed through a helper
            return IllegalAction("TC-ACT-PASS", "malformed id")
        DOC = "see TC-A-3 in the docs"
        '''})
    used = coverage.used_in_code(root / "src/pkg", root, BOOK)
    assert sorted(used) == ["TC-A-1", "TC-A-2", "TC-ACT-PASS"]
    assert used["TC-A-1"] == {"src/pkg/rules.py:4"}


def test_the_check_names_each_problem(tmp_path: Path) -> None:
    root = _project(tmp_path, {
        "docs/rules.md": DOC + "| TC-A-1 | twice | |\n| TC-B-X | malformed | |\n",
        "tests/test_x.py": '''
            import pytest

            @pytest.mark.rules("TC-A-1", "TC-A-9")
            def test_one() -> None: ...
            ''',
        "src/pkg/rules.py": 'X = illegal("TC-A-7", "no")\n',
    })
    reports, problems = coverage.run(root, books=(BOOK,))
    assert problems == []
    text = "\n".join(reports[0].problems)
    assert "TC-A-1 is defined twice" in text
    assert "malformed rule id TC-B-X" in text
    assert "TC-A-9 is cited but not defined in docs/rules.md: test_x::test_one" in text
    assert "TC-A-7 is used by the rules engine but not defined in docs/rules.md: src/pkg/rules.py:1" in text
    assert "have no test or scenario: TC-A-2" in text
    assert "out of date" in text


def test_write_generates_the_tests_column_and_keeps_the_rest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path, {
        "docs/rules.md": DOC,
        "tests/test_x.py": '''
            import pytest

            @pytest.mark.rules("TC-A-2", "TC-A-1")
            def test_one() -> None: ...

            @pytest.mark.rules("TC-A-1")
            def test_two() -> None: ...
            ''',
        "tests/scenarios/g/s.yaml": "rule: [TC-A-2]\n",
        "src/pkg/rules.py": 'X = illegal("TC-A-1", "no")\n',
    })
    monkeypatch.setattr(coverage, "BOOKS", (BOOK,))
    assert coverage.main(["--root", str(root)]) == 1  # the column is stale
    assert coverage.main(["--write", "--root", str(root)]) == 0
    assert (root / "docs/rules.md").read_text() == DOC.replace(
        '| "a rule \\| with a pipe" | |', '| "a rule \\| with a pipe" | `test_x::test_one`<br>`test_x::test_two` |'
    ).replace("| stale |", "| `test_x::test_one`<br>`scenarios/g/s.yaml` |")
    assert coverage.main(["--root", str(root)]) == 0


def test_a_missing_document_is_reported(tmp_path: Path) -> None:
    required = Book("Now", "docs/now.md", ("TC",), "src/now")
    reports, problems = coverage.run(_project(tmp_path, {"tests/test_x.py": ""}), books=(required,))
    assert problems == []
    assert reports[0].problems == ["docs/now.md is missing"]


SHARED = """\
# Rules

## First game

| id | rule | tests |
|---|---|---|
| TC-A-1 | first | |

## Second game

| id | rule | tests |
|---|---|---|
| CC-B-1 | old quote | |
| CC-B-2 | second | |
"""

REGISTRY = '''
RULES: dict[str, str] = {
    "CC-B-1": "new quote "
              "with a | pipe",
    "CC-B-2": "second",
}
'''


def _shared_project(tmp_path: Path, test_ids: str) -> tuple[Path, tuple[Book, Book]]:
    root = _project(tmp_path, {
        "docs/rules.md": SHARED,
        "tests/test_x.py": f'''
            import pytest

            @pytest.mark.rules({test_ids})
            def test_one() -> None: ...
            ''',
        "tests/scenarios/second/s.yaml": "rule: [CC-B-2]\n",
        "src/first/rules.py": "",
        "src/second/rules.py": REGISTRY,
    })
    books = (Book("First", "docs/rules.md", ("TC",), "src/first"),
             Book("Second", "docs/rules.md", ("CC",), "src/second", registry="src/second/rules.py"))
    return root, books


def test_books_sharing_a_document_are_regenerated_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, books = _shared_project(tmp_path, '"TC-A-1", "CC-B-1"')
    monkeypatch.setattr(coverage, "BOOKS", books)
    assert coverage.main(["--root", str(root)]) == 1
    assert coverage.main(["--write", "--root", str(root)]) == 0
    assert (root / "docs/rules.md").read_text() == SHARED.replace(
        "| TC-A-1 | first | |", "| TC-A-1 | first | `test_x::test_one` |"
    ).replace(
        "| CC-B-1 | old quote | |", "| CC-B-1 | new quote with a \\| pipe | `test_x::test_one` |"
    ).replace("| CC-B-2 | second | |", "| CC-B-2 | second | `scenarios/second/s.yaml` |")
    assert coverage.main(["--root", str(root)]) == 0


def test_a_shared_document_still_fails_for_an_uncited_or_unknown_id(tmp_path: Path) -> None:
    root, books = _shared_project(tmp_path, '"TC-A-1", "CC-B-9"')
    (root / "docs/rules.md").write_text(SHARED + "| CC-B-3 | not in the registry | |\n")
    reports, problems = coverage.run(root, books=books)
    assert problems == []
    first, second = reports
    assert not any("no test or scenario" in p for p in first.problems)
    text = "\n".join(second.problems)
    assert "have no test or scenario: CC-B-1, CC-B-3" in text
    assert "CC-B-9 is cited but not defined in docs/rules.md: test_x::test_one" in text
    assert "CC-B-3 is in docs/rules.md but not in src/second/rules.py" in text
    assert "Second: the tests and rule columns of docs/rules.md are out of date" in text
