"""The rules reference (ecliptic.present.rules, /api/rules): every rule id the engine can name in
a refusal resolves to its rulebook sentences, search finds a sentence, the API answers 200 and
404, and the generated package data is current with its sources (the rulebook texts outside
the project, docs/rules-coverage.md, docs/rules-decisions.md)."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient

from ecliptic.ceres.game import Ceres
from ecliptic.present import rules as reference
from ecliptic.server import create_app
from ecliptic.tauceti.game import TauCeti
from ecliptic.tools import coverage

ROOT = Path(__file__).resolve().parents[1]


def _builder() -> ModuleType:
    """scripts/build-rulebook.py as a module (its name has a dash, so it is loaded by path)."""
    spec = importlib.util.spec_from_file_location("build_rulebook", ROOT / "scripts" / "build-rulebook.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_the_generated_rulebook_data_is_current_with_its_sources() -> None:
    builder = _builder()
    folder = builder.rulebooks_folder()
    if folder is None:
        pytest.skip("the rulebook texts (shared/rules/*.txt beside the project) are not here")
    data, problems = builder.build(folder)
    assert problems == [], "\n".join(problems)
    for game, d in data.items():
        committed = (ROOT / "src" / "ecliptic" / "present" / "rulebook" / f"{game}.json").read_text()
        assert committed == builder.render(d), f"{game}.json is out of date: run scripts/build-rulebook.py"


def test_every_id_of_the_coverage_tables_is_in_the_reference_with_its_sentences() -> None:
    text = (ROOT / "docs" / "rules-coverage.md").read_text()
    ids = [row.rule_id for book in coverage.BOOKS for row in coverage.parse_doc(text, book)[0]]
    assert len(ids) > 200
    for rule_id in ids:
        game = reference.game_of(rule_id)
        assert game is not None, rule_id
        found = reference.rule(game, rule_id)
        assert found is not None, f"{rule_id} is in docs/rules-coverage.md but not in the reference"
        assert found.sentences and all(s.strip() for s in found.sentences), rule_id


def test_every_rule_id_the_engine_can_raise_resolves() -> None:
    """Every id-like string literal of the whole package (the ids reach ``illegal(...)`` and
    ``IllegalAction(...)`` through helpers too), and each game's own refusal ids."""
    every_book = coverage.Book("all", "", tuple(p for b in coverage.BOOKS for p in b.prefixes), "src/ecliptic")
    raised = set(coverage.used_in_code(ROOT / "src" / "ecliptic", ROOT, every_book))
    for game in (TauCeti(), Ceres()):
        raised |= {game.game_over_rule, game.not_offered_rule}
    assert len(raised) > 100, "the engine names its rules by id"
    missing = sorted(i for i in raised if reference.rule(reference.game_of(i) or "", i) is None)
    assert missing == []


def test_a_rule_carries_its_sentences_section_and_decisions() -> None:
    move = reference.rule("tauceti", "tc-mov-3")  # any letter case
    assert move is not None and move.id == "TC-MOV-3"
    assert "TAU CETI (which you cannot move through)" in move.text
    assert move.section_title == "Move (MOV)"
    assert move.anchor == "/rules#tauceti:TC-MOV-3"
    build = reference.rule("tauceti", "TC-BUI-2")
    assert build is not None
    assert "Materials marker already left-most" in [d.topic for d in build.decisions]  # names TC-BUI-2
    tie = reference.rule("tauceti", "TC-END-6")
    assert tie is not None and any(d.topic.startswith("Ties") for d in tie.decisions)
    goal = reference.rule("tauceti", "TC-GOAL-1")  # a lead-in takes the list under it, item by item
    assert goal is not None and goal.paragraphs[-1] == "• Win battles" and len(goal.paragraphs) == 6
    assert " ".join(goal.paragraphs) == goal.text
    steal = reference.rule("tauceti", "TC-BAT-19")  # ... unless the items have ids of their own
    assert steal is not None and steal.sentences[-1].endswith("from the loser:")
    ruling = reference.rule("tauceti", "TC-DMG-1")
    assert ruling is not None and ruling.source == "ruling"
    host = reference.rule("ceres", "CR-ACT-2")
    assert host is not None and host.source == "reconstruction"
    comet = reference.rule("ceres", "CC-SUN-3")
    assert comet is not None and comet.sentences == (
        "On the other hand, if you drew the Explosion card, the players that are on the Sungrazer Comet "
        "will gain nothing more.",)
    assert reference.rule("tauceti", "TC-MOV-99") is None
    assert reference.rule("tauceti", "CC-SUN-3") is None
    assert reference.rule("chess", "TC-MOV-3") is None


def test_the_book_is_in_rulebook_order_with_the_advanced_rules_where_printed() -> None:
    sections = reference.book("tauceti")
    titles = [s.title for s in sections]
    assert titles[0] == "Game Overview"
    assert titles.index("Enlightenment Phase") < titles.index("Action Phase") < titles.index("End of Game")
    enlightenment = next(s for s in sections if s.title == "Enlightenment Phase")
    assert [r.id for r in enlightenment.rules][-4:] == ["TC-ADV1-1", "TC-ADV2-1", "TC-ADV3-1", "TC-ADV3-2"]
    assert [s.title for s in reference.book("ceres")][:2] == ["Components", "Game Setup"]
    with pytest.raises(reference.UnknownGame, match="known games: tauceti, ceres"):
        reference.book("chess")


def test_each_id_section_is_found_in_one_part_of_its_rulebook() -> None:
    """A quote found in the wrong place would put its rule under another part of the rulebook:
    the rules of one id section (MOV, ADV3, CC-SUN) all sit under one top-level heading (the
    components are printed in two: Global and Faction Components)."""
    parts: dict[str, set[str]] = {}
    for game in reference.GAMES:
        for section in reference.book(game):
            for r in section.rules:
                parts.setdefault(r.id.rsplit("-", 1)[0], set()).add((section.path or (section.title,))[0])
    spread = {code: sorted(p) for code, p in parts.items() if len(p) > 1}
    assert spread == {"TC-COMP": ["Faction Components", "Global Components"]}
    assert parts["TC-MOV"] == {"Move (MOV)"} and parts["TC-ADV3"] == {"Enlightenment Phase"}


def test_search_finds_a_rulebook_sentence_by_its_words() -> None:
    found = [r.id for r in reference.search("tauceti", "WORMHOLE zero sectors")]
    assert "TC-MOV-7" in found
    assert "TC-GAME-1" not in found
    assert [r.id for r in reference.search("ceres", "draw an explosion check card")][:1] == ["CC-SUN-1"]
    assert "TC-SB-6" in [r.id for r in reference.search("tauceti", "a second token of a type")]  # a decision's words
    assert len(reference.search("tauceti", "")) == len(reference._load("tauceti").rules)
    assert reference.search("tauceti", "no such words anywhere xyzzy") == []


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with tempfile.TemporaryDirectory(prefix="ecliptic-rules-") as folder, \
            TestClient(create_app(f"sqlite:///{Path(folder) / 'server.db'}")) as c:
        yield c


def test_the_api_gives_a_book_and_a_rule(client: TestClient) -> None:
    answer = client.get("/api/rules/tauceti")
    assert answer.status_code == 200
    book = answer.json()
    assert book["title"] == "Tau Ceti: Planetary Crisis"
    ids = [r["id"] for s in book["sections"] for r in s["rules"]]
    assert len(ids) == len(set(ids)) == len(reference._load("tauceti").rules)
    one = client.get("/api/rules/ceres/CC-PROD-7")
    assert one.status_code == 200
    assert one.json()["sentences"][0].startswith("If you decide that it stays there")
    assert one.json()["anchor"] == "/rules#ceres:CC-PROD-7"


def test_the_api_answers_404_for_an_unknown_rule_or_rulebook(client: TestClient) -> None:
    answer = client.get("/api/rules/tauceti/TC-MOV-99")
    assert answer.status_code == 404
    assert answer.json() == {"error": "not_found", "message": "tauceti has no rule 'TC-MOV-99'; its rule ids are "
                             "listed at /api/rules/tauceti"}
    wrong = client.get("/api/rules/tauceti/CC-ACT-1")
    assert wrong.status_code == 404 and "/api/rules/ceres/CC-ACT-1" in wrong.json()["message"]
    game = client.get("/api/rules/chess")
    assert game.status_code == 404
    assert game.json()["message"] == "no rulebook for 'chess'; the rulebooks are: tauceti, ceres"
    assert client.get("/api/rules/chess/TC-MOV-3").status_code == 404


def test_the_rules_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/rules")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/rules.js">' in page.text
    for path, kind in (("/static/rules.js", "text/javascript"), ("/static/rules.css", "text/css")):
        answer = client.get(path)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(kind)
    openapi = client.get("/openapi.json").json()
    assert {"/api/rules/{game}", "/api/rules/{game}/{rule_id}"} <= set(openapi["paths"])
    assert "/rules" not in openapi["paths"]
