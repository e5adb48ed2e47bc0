"""The scenario format and runner: malformed files are refused with file, line and field;
wrong expectations fail with a clear message; refusals must name the rule and leave the state
as it was. The rulebook's worked examples themselves live in tests/scenarios/ (conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.scenario import (
    ScenarioError,
    all_passed,
    format_report,
    load_scenario,
    run_paths,
    run_scenario,
)
from ecliptic.scenario.adapters import adapter_for
from ecliptic.scenario.runner import ScenarioResult, run_file
from ecliptic.tauceti.game import TauCeti

SCENARIOS = Path(__file__).parent / "scenarios"

HEAD = """\
format: ecliptic-scenario/1
title: a test scenario
game: tauceti
config: {players: 2, factions: [Xunon, Azars], layout: preset}
seed: 7
"""


def engine_rule(played: list[str], action: str) -> str:
    """The rule id the engine refuses ``action`` with after ``played`` (so these tests do not
    depend on the numbering of rule ids, which docs/rules-coverage.md owns)."""
    game = TauCeti()
    state = game.new_game({"players": 2, "factions": ["Xunon", "Azars"], "layout": "preset"}, 7)
    for text in played:
        game.apply(state, text)
    reason = game.why_not(state, Action.parse(action))
    assert reason is not None
    return reason.rule


SECOND_MAJOR = engine_rule(["REF"], "REF")  # one Major action per turn
END_FIRST = engine_rule([], "END")  # END before any Major action
REF_ARGS = engine_rule([], "REF now")


def refused(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario("t.yaml", text)
    return info.value


def run(text: str) -> ScenarioResult:
    return run_scenario(load_scenario("t.yaml", text))


def line_of(text: str, fragment: str) -> int:
    """The line (from 1) of the first line of ``text`` containing ``fragment``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


# -- malformed files are refused with the file, the line and the field -------------------------


def test_bad_yaml_names_the_line() -> None:
    text = HEAD + "steps:\n  - do: REF\n    expect: {players.Xunon.energy: [7}\n"
    err = refused(text)
    assert err.file == "t.yaml" and err.line == line_of(text, "[7}")
    assert err.field == "YAML" and "not valid YAML" in err.message


def test_an_empty_file_is_refused() -> None:
    err = refused("")
    assert (err.line, err.field) == (1, "file")


def test_unknown_top_level_key_is_refused_with_a_suggestion() -> None:
    text = HEAD + "stesp:\n  - do: REF\n"
    err = refused(text)
    assert (err.line, err.field) == (line_of(text, "stesp"), "stesp")
    assert "unknown key; did you mean steps or setup?" in err.message


def test_a_key_written_twice_is_refused() -> None:
    text = HEAD + "seed: 8\nexpect: {round: 1}\n"
    err = refused(text)
    assert err.line == line_of(text, "seed: 8")
    assert "written twice (first on line 5)" in err.message


@pytest.mark.parametrize(("extra", "fragment", "field", "words"), [
    ("expect: {players.Xunon.tau: fifteen}\n", "fifteen", "expect: players.Xunon.tau",
     "expected a whole number, got 'fifteen'"),
    ("expect: {phase: actoin}\n", "actoin", "expect: phase", "expected one of"),
    ("setup: {market: {Science: high}}\nexpect: {round: 1}\n", "high", "setup: market.Science",
     "expected int, got 'high'"),
    ("steps:\n  - do: REF\n    dice: [7]\n", "[7]", "step 1: dice[1]", "a die shows 1 to 6, not 7"),
])
def test_a_value_of_the_wrong_type_is_refused(extra: str, fragment: str, field: str, words: str) -> None:
    text = HEAD + extra
    err = refused(text)
    assert (err.line, err.field) == (line_of(text, fragment), field)
    assert words in err.message


def test_a_wrong_seed_type_is_refused() -> None:
    err = refused(HEAD.replace("seed: 7", "seed: seven") + "expect: {round: 1}\n")
    assert (err.line, err.field) == (5, "seed")
    assert err.message == "expected a whole number, got 'seven'"


@pytest.mark.parametrize(("key", "words"), [
    ("players.Xunon.tua", "players.* has no part 'tua'; did you mean tau?"),
    ("players.Xunnon.tau", "'Xunnon' is not a player of this game; did you mean Xunon?"),
    ("players.5.tau", "there is no seat 5 in a game of 2 player(s)"),
    ("market.Sciense", "'Sciense' is not a key of market; did you mean Science?"),
    ("cubes.99", "'99' is not a key of cubes"),
    ("crisis_deck.top", "'top' is not a position in the list crisis_deck"),
    ("round.first", "round is a whole number; it has no part 'first'"),
    ("gp.Xunon.totl", "'totl' is not a key of gp.*; did you mean total?"),
])
def test_an_unknown_state_path_is_refused_with_the_nearest_names(key: str, words: str) -> None:
    text = HEAD + f"expect:\n  {key}: 1\n"
    err = refused(text)
    assert (err.line, err.field) == (line_of(text, key), f"expect: {key}")
    assert words in err.message


def test_computed_values_cannot_be_set() -> None:
    text = HEAD + "setup:\n  gp.Xunon.total: 3\nexpect: {round: 1}\n"
    err = refused(text)
    assert err.line == line_of(text, "gp.Xunon") and "computed" in err.message


@pytest.mark.parametrize(("action", "words"), [
    ("REFF", "'REFF' is not an action of tauceti; did you mean REF?"),
    ("GO 99", "'GO 99' is not an action of tauceti (for example:"),
])
def test_an_unknown_action_is_refused(action: str, words: str) -> None:
    text = HEAD + f"steps:\n  - do: {action}\n"
    err = refused(text)
    assert (err.line, err.field) == (line_of(text, action), "step 1: do")
    assert words in err.message


def test_an_unknown_action_is_allowed_when_its_refusal_is_expected() -> None:
    result = run(HEAD + f"steps:\n  - do: REF now\n    expect_illegal: {REF_ARGS}\n")
    assert result.ok, result.message


@pytest.mark.parametrize(("line", "words"), [
    ("format: ecliptic-scenario/2", "scenario format version 2 is not supported; this Ecliptic reads "
     "ecliptic-scenario/1"),
    ("format: ecliptic-record/1", "'ecliptic-record/1' is not a scenario format"),
])
def test_a_wrong_format_version_is_refused(line: str, words: str) -> None:
    err = refused(HEAD.replace("format: ecliptic-scenario/1", line) + "expect: {round: 1}\n")
    assert (err.line, err.field) == (1, "format")
    assert words in err.message


def test_unknown_game_faction_and_setting_are_refused() -> None:
    err = refused(HEAD.replace("game: tauceti", "game: taucetti") + "expect: {round: 1}\n")
    assert (err.line, err.field) == (3, "game") and "did you mean tauceti?" in err.message
    err = refused(HEAD.replace("Azars]", "Azrs]") + "expect: {round: 1}\n")
    assert (err.line, err.field) == (4, "config.factions[1]") and "did you mean Azars?" in err.message
    err = refused(HEAD.replace("players: 2", "playrs: 2") + "expect: {round: 1}\n")
    assert (err.line, err.field) == (4, "config.playrs") and "did you mean players?" in err.message


@pytest.mark.parametrize(("steps", "field", "words"), [
    ("  - do: REF\n    repeat: PASS\n    until: {round: 2}\n", "step 1", "not both"),
    ("  - repeat: PASS\n", "step 1", "'repeat' needs 'until'"),
    ("  - expect_illegal: TC-ACT-1\n", "step 1", "'expect_illegal' needs the action in 'do'"),
    ("  - do: REF\n    expect_illegal: TC-ACT-1\n    expect_events: [refuel]\n", "step 1",
     "a refused action has no events"),
    ("  - note: nothing\n", "step 1", "this step does nothing"),
    ("  - do: REF\n    expct: {round: 1}\n", "step 1: expct", "did you mean expect?"),
    ("  - REF\n", "step 1", "write '- do: REF'"),
])
def test_malformed_steps_are_refused(steps: str, field: str, words: str) -> None:
    text = HEAD + "steps:\n" + steps
    err = refused(text)
    assert err.field == field and words in err.message
    assert err.line >= line_of(text, "steps:") + 1


def test_a_bad_setup_key_is_refused() -> None:
    text = HEAD + "setup:\n  bag => cubes.XUNO: [Xunon]\nexpect: {round: 1}\n"
    err = refused(text)
    assert err.line == line_of(text, "=>") and "cannot read this setup key" in err.message
    text = HEAD + "setup:\n  round -> bag: [Xunon]\nexpect: {round: 1}\n"
    err = refused(text)
    assert "round is a whole number; move items between two lists" in err.message


def test_text_that_looks_like_a_number_stays_text() -> None:
    """``01.1`` (a float in YAML) and ``03`` (an int) are ids where the state holds text."""
    text = HEAD + ("setup:\n  players.Xunon.position: 03\n"
                   "expect:\n  players.Xunon.position: 03\n  players.Xunon.claim: null\n"
                   "  points.01.1.sector: 01\n")
    assert run(text).ok


# -- running: what passes and what fails ------------------------------------------------------


REFUEL = HEAD + """\
steps:
  - do: REF
    by: Xunon
    expect_events: [{kind: refuel, energy: 2}]
expect:
  players.Xunon.energy: 7
"""


def test_a_correct_scenario_passes() -> None:
    result = run(REFUEL)
    assert result.ok and result.status == "passed" and result.steps_run == 1


def test_a_wrong_final_expectation_fails_with_a_clear_message() -> None:
    text = REFUEL.replace("players.Xunon.energy: 7", "players.Xunon.energy: 8")
    result = run(text)
    assert result.status == "failed"
    assert result.line == line_of(text, "energy: 8")
    assert result.message == "expect players.Xunon.energy: expected 8, got 7"


def test_a_wrong_event_expectation_names_the_step_and_the_events() -> None:
    text = REFUEL.replace("energy: 2}", "energy: 3}")
    result = run(text)
    assert result.status == "failed" and result.line == line_of(text, "energy: 3}")
    assert result.message.startswith("step 1 (REF): expected event refuel (energy: 3), but the events were: ")
    assert "refuel (seat: 0, energy: 2)" in result.message


def test_the_wrong_player_acting_fails() -> None:
    result = run(REFUEL.replace("by: Xunon", "by: Azars"))
    assert result.status == "failed"
    assert result.message == ("step 1 (REF): expected Azars (seat 1) to act, but Xunon is to decide (turn)")


def test_an_unexpected_refusal_fails_with_the_rule_and_the_reason() -> None:
    result = run(HEAD + "steps:\n  - do: END\n")
    assert result.status == "failed"
    assert result.message.startswith(f"step 1 (END): the action was refused: [{END_FIRST}] take a Major action or PASS")


def test_setup_changes_a_frozen_record_and_a_pile_by_replacing_them() -> None:
    """Exploration points are frozen and the decks are tuples (clones share them): changing a
    point or reordering a deck replaces the record or the pile in the state."""
    text = HEAD + """\
setup:
  points.01.1.claimed_by: 1
  points.01.1.face_up: true
  decks.knowledge top: [K05]
expect:
  points.01.1.claimed_by: 1
  points.01.1.face_up: true
  decks.knowledge.0: K05
"""
    assert run(text).ok
    without = text.replace("setup:\n  points.01.1.claimed_by: 1\n", "setup:\n")
    assert without != text and run(without).status == "failed"


def test_setup_moves_components_and_keeps_them_countable() -> None:
    text = HEAD + """\
setup:
  bag -> cubes.XUNO: [Xunon, Xunon]
  damage_supply -> players.Xunon.damage.shields: 2
  decks.crisis top: [C05, C01]
  decks.specialist bottom: [S01]
  decks.crisis -> players.Azars.hand top: [C24]
expect:
  cubes.XUNO: [Xunon, Xunon]
  bag count Xunon: 3
  players.Xunon.damage.shields: 2
  players.Xunon.damage.cargo: 0
  damage_supply: 32
  decks.crisis.0: C05
  decks.crisis.1: C01
  decks.crisis len: 23
  decks.specialist.-1: S01
  players.Azars.hand: [C24]
  effective.Xunon.shields: 0
"""
    result = run(text)
    assert result.status == "failed"
    assert result.message == "expect damage_supply: expected 32, got 30"
    assert run(text.replace("damage_supply: 32", "damage_supply: 30")).ok


def test_a_setup_that_breaks_the_component_counts_is_an_error_in_the_file() -> None:
    text = HEAD + "setup:\n  cubes.XUNO: [Xunon]\nexpect: {round: 1}\n"
    result = run(text)
    assert result.status == "error" and result.line == line_of(text, "setup:")
    assert "Xunon Resource cubes: 6 instead of 5" in result.message


def test_moving_what_is_not_there_is_an_error_in_the_file() -> None:
    text = HEAD + "setup:\n  decks.crisis top: [C99]\nexpect: {round: 1}\n"
    result = run(text)
    assert result.status == "error" and result.line == line_of(text, "C99")
    assert result.message.startswith("setup: decks.crisis top: C99 is not in decks.crisis")


def test_dice_the_game_never_rolls_fail_the_scenario() -> None:
    text = REFUEL.replace("    by: Xunon\n", "    by: Xunon\n    dice: [3]\n")
    result = run(text)
    assert result.status == "failed" and result.line == line_of(text, "dice: [3]")
    assert result.message.startswith("1 scripted dice were never rolled: [3]")


def test_repeat_until_plays_the_first_legal_action_until_the_condition_holds() -> None:
    text = HEAD + """\
steps:
  - repeat: [DONE, PASS]
    until: {phase: enlightenment, round: 2}
    bag_draw: Azars
    expect_events: [{kind: bag_draw, colour: Azars}]
"""
    assert run(text).ok


def test_repeat_fails_when_no_listed_action_can_be_played() -> None:
    text = HEAD + "steps:\n  - repeat: REF\n    until: {round: 2}\n"
    result = run(text)
    assert result.status == "failed"
    assert "REF cannot be played now" in result.message and "round: expected 2, got 1" in result.message


def test_a_bag_draw_of_a_colour_not_in_the_bag_is_an_error() -> None:
    text = HEAD + "steps:\n  - bag_draw: Triolo\n"
    result = run(text)
    assert result.status == "error" and result.line == line_of(text, "Triolo")
    assert "no Triolo Resource cube is in the Enlightenment bag now; did you mean Triolor?" in result.message


def test_step_expectations_are_checked_after_the_step() -> None:
    text = HEAD + "steps:\n  - do: REF\n    expect: {players.Xunon.energy: 5, legal: [END]}\n"
    result = run(text)
    assert result.status == "failed"
    assert result.message == "step 1 (REF): expect players.Xunon.energy: expected 5, got 7"


def test_has_lacks_len_and_missing_entries() -> None:
    text = HEAD + """\
expect:
  bag has: [Xunon, Azars]
  bag lacks: [Nobody]
  legal has: [REF, PASS]
  market len: 6
  cubes.03: []
  players.Xunon.knowledge has: [Chemical]
"""
    assert run(text).ok
    result = run(text.replace("bag has: [Xunon, Azars]", "bag has: [Xunon, Xunon, Xunon, Xunon, Xunon, Xunon]"))
    assert result.status == "failed" and result.message.startswith("expect bag has: [Xunon] missing")


# -- expect_illegal: the rule must match and the state must be unchanged ---------------------------

ILLEGAL = HEAD + f"""\
steps:
  - do: REF
  - do: REF
    expect_illegal: {SECOND_MAJOR}
"""


def test_expect_illegal_passes_when_the_rule_matches_and_the_state_is_unchanged() -> None:
    assert run(ILLEGAL).ok


def test_expect_illegal_fails_when_another_rule_refuses() -> None:
    text = ILLEGAL.replace(f"expect_illegal: {SECOND_MAJOR}", "expect_illegal: TC-REF-99")
    result = run(text)
    assert result.status == "failed" and result.line == line_of(text, "TC-REF-99")
    assert result.message == (f"step 2 (REF): expected refusal TC-REF-99, but it was refused with {SECOND_MAJOR}: "
                              "one Major action per turn")


def test_expect_illegal_fails_when_the_action_is_legal() -> None:
    text = HEAD + f"steps:\n  - do: REF\n    expect_illegal: {SECOND_MAJOR}\n"
    result = run(text)
    assert result.status == "failed"
    assert result.message == f"step 1 (REF): expected refusal {SECOND_MAJOR}, but the action was legal"


def test_expect_illegal_checks_the_reason_when_asked() -> None:
    text = ILLEGAL.replace(f"expect_illegal: {SECOND_MAJOR}",
                           f"expect_illegal: {{rule: {SECOND_MAJOR}, says: two Major}}")
    result = run(text)
    assert result.status == "failed" and "does not say 'two Major'" in result.message
    assert run(text.replace("two Major", "one major action")).ok


def test_expect_illegal_fails_when_the_refusal_changed_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = adapter_for("tauceti").rules()
    honest = rules.apply

    def sloppy(state: Any, action: Any) -> Any:
        if str(action) == "REF" and state.players[0].markers_used:
            state.players[0].energy -= 1  # a bug: the refusal changes the state
            raise IllegalAction(SECOND_MAJOR, "one Major action per turn")
        return honest(state, action)

    monkeypatch.setattr(rules, "apply", sloppy)
    result = run(ILLEGAL)
    assert result.status == "failed"
    assert result.message == (f"step 2 (REF): refused with {SECOND_MAJOR} as expected, but the refusal changed "
                              "the state: state.players.0.energy went from 7 to 6")


def test_an_engine_crash_is_a_failure_with_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = adapter_for("tauceti").rules()

    def crash(state: Any, action: Any) -> Any:
        raise KeyError("C99")

    monkeypatch.setattr(rules, "apply", crash)
    result = run(REFUEL)
    assert result.status == "failed"
    assert result.message == "step 1 (REF): the engine crashed: KeyError: 'C99'"
    assert "Traceback" in result.detail


def test_an_action_that_breaks_the_component_counts_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = adapter_for("tauceti").rules()
    honest = rules.apply

    def leaky(state: Any, action: Any) -> Any:
        events = honest(state, action)
        state.bag.append("Xunon")
        return events

    monkeypatch.setattr(rules, "apply", leaky)
    result = run(REFUEL)
    assert result.status == "failed"
    assert "after this action the components no longer add up" in result.message
    assert "Xunon Resource cubes: 6 instead of 5" in result.message


# -- running files and folders -----------------------------------------------------------------------


def test_run_file_reports_a_load_error_as_an_error_result(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(HEAD.replace("seed: 7", "seed: [7]") + "expect: {round: 1}\n")
    result = run_file(path)
    assert result.status == "error" and result.line == 5
    assert result.message == "seed: expected a whole number, got a list"


def test_run_paths_finds_scenarios_in_folders_and_reports_missing_paths(tmp_path: Path) -> None:
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "good.yaml").write_text(REFUEL)
    (tmp_path / "wrong.yml").write_text(REFUEL.replace("energy: 7", "energy: 9"))
    (tmp_path / "notes.txt").write_text("not a scenario")
    results = run_paths([tmp_path, tmp_path / "missing.yaml"])
    assert [(r.path.name, r.status) for r in results] == [
        ("missing.yaml", "error"), ("good.yaml", "passed"), ("wrong.yml", "failed"),
    ]
    report = format_report(results)
    assert "PASS  " in report and "FAIL  " in report and "ERROR " in report
    assert report.endswith("3 scenario(s): 1 passed, 1 failed, 1 with errors in the file")
    assert "wrong.yml:" in report and "expected 9, got 7" in report
    assert not all_passed(results)
    assert format_report([]) == "no scenario files found"


def test_every_rulebook_example_scenario_passes() -> None:
    results = run_paths([SCENARIOS])
    assert len(results) >= 16
    assert all_passed(results), format_report(results)
    assert all(r.rules for r in results)  # each names the rules it exercises


# -- Ceres -------------------------------------------------------------------------------------------

CERES = """\
format: ecliptic-scenario/1
title: a Ceres test scenario
game: ceres
config: {players: 2, expansions: [comets]}
seed: 0
"""
"""Seed 0 deals a Sungrazer (N3) under C1, next to Zone 5, and a Near-sun (N6) under C2, next to
Zone 4: one of each kind, so setting up draws nothing at random. Seed 12 deals two Sungrazers."""

CERES_LAUNCH = CERES + """\
steps:
  - do: LAUNCH C1
    by: P1
    expect_events: [{kind: pay, seat: 0, ice: 1}, {kind: launch_comet, slot: 0}]
  - do: TAIL 1
    by: 0
expect:
  players.P1.tail_tokens: [T15]
  players.0.tail_tokens: [T15]
  players.P1.resources: {Ice: 3, Metal: 1, Gas: 0}
  comets.C1.slots: [0, null]
  comets.0.slots: [0, null]
  surface.C1: [P1, null]
  vp.P1: {asteroids: 0, tail_tokens: 0, nucleus_tables: 0, total: 0}
  current_player: P2
  decision: turn
"""


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("expansions", [[], ["comets"]])
def test_the_ceres_adapter_builds_the_game_ceres_new_game_builds(players: int, expansions: list[str]) -> None:
    """The adapter sets Ceres up itself (to load the script before the Comets' setup): without a
    script it must be exactly the game of ``Ceres().new_game``."""
    from ecliptic.ceres.game import Ceres

    adapter = adapter_for("ceres")
    config = {"players": players, "expansions": expansions}
    for seed in range(12):
        expected = Ceres().to_json(Ceres().new_game(config, seed))
        assert adapter.rules().to_json(adapter.new_state(config, seed)) == expected
        assert adapter.rules().to_json(adapter.new_state(config, seed, lambda state: None)) == expected


def test_a_ceres_scenario_addresses_players_by_p_name_or_seat_and_comets_by_surface_card() -> None:
    result = run(CERES_LAUNCH)
    assert result.ok, result.message
    assert result.steps_run == 2


def test_a_ceres_player_who_is_not_in_the_game_is_refused() -> None:
    err = refused(CERES + "expect:\n  players.P3.probes: 5\n")
    assert err.field == "expect: players.P3.probes"
    assert "'P3' is not a player of this game (players: P1, P2)" in err.message
    err = refused(CERES + "expect:\n  players.p1.probes: 5\n")
    assert "did you mean P1?" in err.message
    err = refused(CERES + "steps:\n  - do: PASS\n    by: Player1\n")
    assert err.field == "step 1: by" and "(players: P1, P2)" in err.message


def test_the_wrong_ceres_player_acting_fails_naming_both() -> None:
    result = run(CERES + "steps:\n  - do: PASS\n    by: P2\n")
    assert result.status == "failed"
    assert result.message == "step 1 (PASS): expected P2 (seat 1) to act, but P1 is to decide (turn)"
    result = run(CERES + "steps:\n  - do: LAUNCH C1\n  - do: PASS\n")
    assert result.message.startswith("step 2 (PASS): the action was refused: [CC-ACT-5] ")
    assert result.message.endswith("(P1 is to decide (tail on Comet C1))")


@pytest.mark.parametrize(("key", "words"), [
    ("comets.C3.zone", "'C3' is not a position in the list comets"),
    ("players.P1.resources.Ise", "'Ise' is not a key of players.*.resources; did you mean Ice?"),
    ("players.P1.vp.asteroid", "did you mean asteroids?"),
    ("vp.P1.totl", "'totl' is not a key of vp.*; did you mean total?"),
    ("zone.A99", "'A99' is not an asteroid of zone.<asteroid>"),
    ("asteroids_in_zone.9", "'9' is not a zone of asteroids_in_zone.<zone>"),
    ("lowest_tails.C3", "'C3' is not a comet of lowest_tails.<comet> (comets: C1, C2)"),
    ("claims.A99", "'A99' is not a key of claims"),
])
def test_an_unknown_ceres_path_is_refused_with_the_nearest_names(key: str, words: str) -> None:
    err = refused(CERES + f"expect:\n  {key}: 1\n")
    assert err.field == f"expect: {key}"
    assert words in err.message


def test_ceres_computed_values() -> None:
    text = CERES + """\
setup:
  explosion_deck top: [E3]
expect:
  zone.A01: 2
  zone.A17: 4
  asteroids_in_zone.5: [A04, A11, A18]
  claimed_by.A04: null
  lowest_tails.C1: [T15, T18, T13]
  in_belt.C1: true
  surface.C2: [null, null]
  vp.P2.total: 0
  current_player: P1
  decision: turn
  legal has: [PASS, LAUNCH C1, LAUNCH C2, LAUNCH A24]
  legal len: 27
  explosion_deck.0: E3
"""
    result = run(text)
    assert result.ok, result.message
    assert refused(CERES + "setup:\n  vp.P1.total: 3\nexpect: {round: 1}\n").message.endswith(
        "vp is computed from the state; it cannot be set")


def test_a_ceres_config_is_checked_with_suggestions() -> None:
    err = refused(CERES.replace("[comets]", "[comet]") + "expect: {round: 1}\n")
    assert (err.line, err.field) == (4, "config.expansions[0]")
    assert "there is no expansion 'comet'; did you mean comets?" in err.message
    err = refused(CERES.replace("players: 2", "players: 5") + "expect: {round: 1}\n")
    assert err.field == "config.players" and "1-4 players" in err.message
    err = refused(CERES.replace("players: 2", "factions: [Xunon]") + "expect: {round: 1}\n")
    assert err.field == "config.factions" and "unknown setting" in err.message


def test_an_unknown_ceres_action_is_refused() -> None:
    err = refused(CERES + "steps:\n  - do: LAUNCH A99\n")
    assert err.field == "step 1: do" and "'LAUNCH A99' is not an action of ceres" in err.message
    err = refused(CERES + "steps:\n  - do: JUMPP A01\n")
    assert "did you mean JUMP?" in err.message


TWO_SUNGRAZERS = CERES.replace("seed: 0", "seed: 12")


@pytest.mark.parametrize(("choice", "zones"), [(0, (3, 5)), (1, (5, 3))])
def test_the_top_level_script_steers_the_random_placement_of_the_comet_tokens(choice: int,
                                                                               zones: tuple[int, int]) -> None:
    """For Ceres the top-level script is loaded before the Comets' setup: its only random choice."""
    text = TWO_SUNGRAZERS + f"""\
script: {{choices: [{choice}]}}
expect:
  comets.C1.kind: Sungrazer
  comets.C2.kind: Sungrazer
  comets.C1.zone: {zones[0]}
  comets.C2.zone: {zones[1]}
"""
    result = run(text)
    assert result.ok, result.message


def test_a_choice_scripted_where_ceres_draws_nothing_is_left_over() -> None:
    """A Sungrazer and a Near-sun are placed without a draw: the scripted choice is never used."""
    text = CERES + "script:\n  choices: [1]\nexpect:\n  comets.C1.zone: 5\n"
    result = run(text)
    assert result.status == "failed" and result.line == line_of(text, "choices: [1]")
    assert result.message.startswith("1 scripted choices were never used: [1]")
    result = run(CERES + "steps:\n  - choices: [0]\n  - do: PASS\n")
    assert result.status == "failed" and "1 scripted choices were never used: [0]" in result.message


def test_a_ceres_setup_that_breaks_the_component_counts_is_an_error_in_the_file() -> None:
    text = CERES + "setup:\n  players.P1.tail_tokens: [T01]\nexpect: {round: 1}\n"
    result = run(text)
    assert result.status == "error" and result.line == line_of(text, "setup:")
    assert "Tail tokens: in two places: ['T01']" in result.message
    moved = CERES + "setup:\n  removed_tails -> players.P1.tail_tokens: [T01]\nexpect: {round: 1}\n"
    result = run(moved)
    assert result.status == "error" and "T01 is not in removed_tails" in result.message


def test_a_ceres_action_that_breaks_the_component_counts_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Tail token and Mining Probe invariants of ecliptic.ceres.invariants run after every action."""
    rules = adapter_for("ceres").rules()
    honest = rules.apply

    def leaky(state: Any, action: Any) -> Any:
        events = honest(state, action)
        if str(action).startswith("TAIL"):
            state.removed_tails.append(state.players[0].tail_tokens[-1])  # the token is in two places
        return events

    monkeypatch.setattr(rules, "apply", leaky)
    result = run(CERES_LAUNCH)
    assert result.status == "failed" and result.line == line_of(CERES_LAUNCH, "- do: TAIL 1")
    assert "step 2 (TAIL 1): after this action the components no longer add up" in result.message
    assert "Tail tokens: in two places: ['T15']" in result.message


def test_a_ceres_refusal_must_name_the_rule_and_change_nothing() -> None:
    full = CERES + """\
steps:
  - {do: LAUNCH C1, by: P1}
  - {do: TAIL 1, by: P1}
  - {do: LAUNCH C1, by: P2}
  - {do: TAIL 2, by: P2}
  - do: LAUNCH C1
    expect_illegal: {rule: CC-ACT-3, says: no available slot}
"""
    assert run(full).ok
    result = run(full.replace("rule: CC-ACT-3", "rule: CC-ACT-1"))
    assert result.status == "failed"
    assert result.message.startswith("step 5 (LAUNCH C1): expected refusal CC-ACT-1, but it was refused with "
                                     "CC-ACT-3: Comet C1's Surface card has no available slot")


def test_every_ceres_scenario_passes_and_cites_comets_rules() -> None:
    results = run_paths([SCENARIOS / "ceres"])
    assert len(results) >= 15
    assert all_passed(results), format_report(results)
    assert all(any(r.startswith("CC-") for r in result.rules) for result in results)


def test_the_ceres_example_of_docs_scenarios_md_passes() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenarios.md").read_text()
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", doc, re.S) if "game: ceres" in b]
    assert len(blocks) == 1
    result = run_scenario(load_scenario("docs/scenarios.md", blocks[0]))
    assert result.ok, result.message


def test_a_scripted_choice_the_ceres_setup_cannot_take_is_an_error_at_its_line() -> None:
    text = TWO_SUNGRAZERS + "script:\n  choices: [2]\nexpect: {round: 1}\n"
    result = run(text)
    assert result.status == "error" and result.line == line_of(text, "choices: [2]")
    assert result.message == ("script: choices[1]: the game's setup cannot use it: scripted choice 2 is "
                              "outside [0, 2)")
