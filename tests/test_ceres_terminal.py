"""Ceres in the terminal (ecliptic.ui.ceres_terminal): scripted games to the end against random
bots, with and without the Comets expansion; saves that replay identically and resume; illegal
input refused with its rule id and no change; and a screen that never shows hidden information
(the Nucleus cards in the box, the order of the Explosion Check cards)."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from ecliptic.bots.base import BotSpecError
from ecliptic.ceres.game import Ceres
from ecliptic.engine.errors import SaveFileError
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.present.view import actions as present_actions
from ecliptic.ui import ceres_terminal as ct

GAME = Ceres()
COMETS = ("comets",)


def console() -> tuple[Console, io.StringIO]:
    """160 columns for the board; text lines are never wrapped (soft_wrap), so a message naming
    a temporary file reads whole however long its path."""
    out = io.StringIO()
    return Console(file=out, width=160, soft_wrap=True, color_system=None, highlight=False), out


def session(lines: Any, **kwargs: Any) -> tuple[ct.CeresSession, io.StringIO]:
    con, out = console()
    kwargs.setdefault("seed", 3)
    return ct.ceres_session(con, lines, **kwargs), out


def random_typist(ref: list[ct.CeresSession], seed: int, limit: int = 400) -> Callable[[str], str]:
    """A human who picks a legal action at random (what the menu shows) and types either its
    menu number or its notation in lower case."""
    rng = random.Random(seed)
    calls = [0]

    def read(_prompt: str) -> str:
        calls[0] += 1
        if calls[0] > limit:
            raise EOFError
        actions = GAME.legal_actions(ref[0].state)
        comets = [i for i, a in enumerate(actions) if a.verb == "LAUNCH" and a.args[0].startswith("C")]
        i = rng.choice(comets) if comets and rng.random() < 0.5 else rng.randrange(len(actions))
        return str(i + 1) if rng.random() < 0.5 else str(actions[i]).lower()

    return read


def play_random(seed: int, expansions: tuple[str, ...], players: int) -> tuple[ct.CeresSession, str]:
    ref: list[ct.CeresSession] = []
    s, out = session(random_typist(ref, seed), seed=seed, expansions=expansions, players=players)
    ref.append(s)
    assert s.run() == 0
    return s, out.getvalue()


# -- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize("expansions", [(), COMETS])
@pytest.mark.parametrize("players", [2, 3])
def test_a_scripted_game_plays_to_the_final_scores_against_random_bots(expansions: tuple[str, ...],
                                                                      players: int) -> None:
    s, out = session(["1"] * 300, expansions=expansions, players=players)
    assert s.run() == 0
    text = out.getvalue()
    assert s.state.is_over
    assert "Final scores (VP)" in text
    assert "Game over after round 3" in text
    assert re.search(r"Player \d( and Player \d)* (wins|share the win)\.", text)
    assert "Asteroid Belt" in text and "Players" in text
    assert all(f"Zone {z}" in text for z in range(1, 9))
    assert ("Comets" in text) == bool(expansions)
    # The session's record is the game: it replays to the very same final state.
    again = replay(s.current_record())
    assert GAME.to_json(again) == GAME.to_json(s.state)


def test_random_humans_play_every_comet_decision_and_every_game_ends() -> None:
    seen: set[str] = set()
    for seed in range(8):
        s, text = play_random(seed, COMETS, 2 + seed % 3)
        assert s.state.is_over, seed
        assert "Final scores (VP)" in text
        assert GAME.to_json(replay(s.current_record())) == GAME.to_json(s.state)
        for prompt in ("Take a Dust Tail token", "Take an Ion token", "Take a Coma token",
                       "Production: your Mining Probe on Comet", "Take one of the lowest Tail tokens"):
            if prompt in text:
                seen.add(prompt)
    assert {"Take a Dust Tail token", "Take an Ion token", "Take a Coma token",
            "Production: your Mining Probe on Comet", "Take one of the lowest Tail tokens"} <= seen


def test_play_ceres_returns_0_and_draws_on_the_given_console() -> None:
    con, out = console()
    assert ct.play_ceres(con, ["1"] * 300, seat=1, bots="random", seed=5, expansions=COMETS, players=2) == 0
    text = out.getvalue()
    assert "You are Player 2, against 1 bot (random)." in text
    assert "Final scores (VP)" in text


# -- the table ------------------------------------------------------------------------------


def test_the_belt_shows_rings_zones_asteroids_claims_and_the_comets() -> None:
    state = GAME.new_game({"players": 2, "expansions": ["comets"]}, 3)
    GAME.apply(state, "LAUNCH A19")
    obs = GAME.observe(state, 0)
    con, out = console()
    con.print(ct.render_board(obs, 0))
    text = out.getvalue()
    for ring in ("Outer", "Intermediate", "Inner"):
        assert ring in text
    for a in obs["belt"]:
        assert a in text
    assert "A19 ◆P1" in text  # the claim, with the claimer
    assert "1Met 1Gas 5VP" in text  # A19's Resources and VP
    for c in obs["comets"]:
        assert f"☄ {c['id']} {c['kind']}" in text
        assert f"Nucleus card {c['nucleus']}" in text
        assert f"{c['ring']} Ring, Zone {c['zone']}" in text
        for tail in c["tails"]:
            for token in tail:
                assert token in text
    assert "Explosion Check cards: 3 face down (2 Safe, 1 Explosion; order unknown)" in text
    assert "Nucleus cards in the box: 6, face down" in text


def test_a_comet_outside_the_belt_is_drawn_next_to_its_zone_and_an_exploded_one_leaves_it() -> None:
    obs = GAME.observe(GAME.new_game({"players": 2, "expansions": ["comets"]}, 3), 0)
    obs["comets"][0].update(ring=None, in_belt=False, zone=3)
    obs["comets"][1].update(in_belt=False, removed=True)
    con, out = console()
    con.print(ct.render_belt(obs))
    con.print(ct.render_comets(obs))
    text = out.getvalue()
    assert "(outside)" in text
    assert "outside the Asteroid Belt, next to Zone 3" in text
    assert "exploded: its token was removed from the Asteroid Belt" in text
    # Its empty Surface card slots take no Mining Probe any more: not "free" as the other Comet's.
    c1, c2 = text.split("Surface card slots: ")[1:3]
    assert "1 free" in c1.splitlines()[0] and "free" not in c2.splitlines()[0]
    belt_text = text.split("╭─ Comets")[0]
    assert f"☄ {obs['comets'][1]['id']}" not in belt_text


def test_a_launch_onto_a_comet_offers_its_tails_tokens_of_the_round() -> None:
    s, out = session(["LAUNCH C1", "quit"], seed=3, expansions=COMETS, players=2)
    s.run()
    text = out.getvalue()
    c1 = GAME.observe(s.state, 0)["comets"][0]
    assert "Take a Dust Tail token from a tail of Comet C1 (TAIL 1-3)." in text
    for i, tail in enumerate(c1["tails"], 1):
        assert f"{i} TAIL {i} ({tail[2]} " in text  # the Dust Tail token under table i


def test_without_the_expansion_there_are_no_comets_on_the_screen() -> None:
    s, out = session(["board", "quit"], expansions=(), players=2)
    s.run()
    text = out.getvalue()
    assert "Comets" not in text and "☄" not in text and "or a Comet" not in text
    assert "LAUNCH C1" not in text


# -- commands --------------------------------------------------------------------------------


def test_help_board_log_and_quit() -> None:
    s, out = session(["help", "board", "log", "quit"], expansions=COMETS)
    assert s.run() == 0
    text = out.getvalue()
    assert "save FILE" in text and "TAIL 2" in text
    assert text.count("╭─ Asteroid Belt") == 2  # the first display and 'board'
    assert text.count("Round 1 begins") == 2  # the event, then again in 'log'
    assert "Leaving the game" in text
    assert s.record.actions == []


def test_the_end_of_input_leaves_the_game() -> None:
    s, out = session([], expansions=COMETS)
    assert s.run() == 0
    assert "End of input: leaving the game." in out.getvalue()


def test_a_lower_case_notation_and_a_menu_number_are_both_accepted() -> None:
    s, _ = session(["launch a19", "1", "quit"], expansions=())
    s.run()
    state = GAME.new_game(s.record.config, 3)
    human_moves = []
    for action in s.record.actions:
        if state.current_player == 0:
            human_moves.append((action, str(GAME.legal_actions(state)[0])))
        GAME.apply(state, action)
    assert human_moves[0][0] == "LAUNCH A19"
    assert human_moves[1][0] == human_moves[1][1]  # number 1 of the menu
    assert len(human_moves) == 2


# -- illegal input -----------------------------------------------------------------------------


def snapshots(lines: list[str], **kwargs: Any) -> tuple[ct.CeresSession, str, list[tuple[str, str, list[str]]]]:
    """Play ``lines``; before each read, note the state's JSON and the record's actions."""
    ref: list[ct.CeresSession] = []
    taken: list[tuple[str, str, list[str]]] = []
    it = iter(lines)

    def read(_prompt: str) -> str:
        s = ref[0]
        line = next(it, None)
        if line is None:
            raise EOFError
        taken.append((line, json.dumps(GAME.to_json(s.state), sort_keys=True), list(s.record.actions)))
        return line

    con, out = console()
    s = ct.ceres_session(con, read, **kwargs)
    ref.append(s)
    s.run()
    return s, out.getvalue(), taken


@pytest.mark.parametrize(("line", "rule", "message"), [
    ("LAUNCH A24", "CR-ACT-2", "a Launch to the Inner Ring costs 3 Ice; you have 1"),
    ("JUMP A01", "CR-ACT-1", "on your turn in the Activation phase"),
    ("LAUNCH Z99", "CR-ACT-1", "there is no Asteroid or Comet Z99"),
    ("LAUNCH C1", "CC-COMP-6", "without the Comets expansion"),
    ("PASS NOW", "CR-ACT-1", "PASS takes no argument"),
])
def test_an_illegal_action_shows_its_rule_and_changes_nothing(line: str, rule: str, message: str) -> None:
    # The human (seat 0, first player) starts round 1 with 1 + 3 Ice and spends 3 on A17 first.
    _, text, taken = snapshots(["LAUNCH A17", line, "quit"], seed=3, players=2, seat=0)
    assert f"Illegal: [{rule}] " in text
    assert message in text
    assert "Nothing changed." in text
    (_, before_state, before_actions), (_, after_state, after_actions) = taken[1], taken[2]
    assert before_state == after_state
    assert before_actions == after_actions


def test_a_number_outside_the_menu_is_refused_and_changes_nothing() -> None:
    s, text, taken = snapshots(["999", "0", "quit"], seed=3, players=2, expansions=COMETS)
    assert "Choose a number from 1 to" in text
    assert taken[0][1] == taken[1][1] == taken[2][1]
    assert s.record.actions == []


def test_an_illegal_tail_choice_names_the_comets_rule() -> None:
    # Round 1, launched onto C1: only TAIL 1-3 answers the Tail token decision (CC-ACT-5).
    s, text, taken = snapshots(["LAUNCH C1", "TAIL 7", "STAY", "TAIL 1", "quit"], seed=3, expansions=COMETS)
    assert "Illegal: [CC-ACT-5] choose the tail to take a Tail token from" in text
    assert taken[1][1] == taken[2][1] == taken[3][1]
    assert s.record.actions[:2] == ["LAUNCH C1", "TAIL 1"]


# -- save and resume ----------------------------------------------------------------------------


def test_save_writes_a_record_that_replays_identically(tmp_path: Path) -> None:
    path = tmp_path / "ceres.json"
    s, out = session(["LAUNCH C1", "1", "1", "1", f"save {path}", "quit"], seed=7, expansions=COMETS,
                     players=3, bots="random")
    s.run()
    assert f"Saved {len(s.record.actions)} actions to {path}" in out.getvalue()
    record = GameRecord.load(path)
    assert record.game == "ceres"
    assert record.config == {"players": 3, "expansions": ["comets"]}
    assert record.seed == 7
    assert record.actions == s.record.actions and record.actions[0] == "LAUNCH C1"
    again = replay(record)
    assert state_digest(GAME, again) == record.digest == state_digest(GAME, s.state)
    assert json.loads(path.read_text())["cli"] == {"human_seat": 0, "bots": ["random", "random"]}


def test_save_without_a_file_name_asks_where() -> None:
    s, out = session(["save", "quit"])
    s.run()
    assert "Say where: save FILE" in out.getvalue()


def test_resume_continues_a_saved_game_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "ceres.json"
    first, _ = session(["LAUNCH C1", "1", "1", f"save {path}", "quit"], seed=7, expansions=COMETS)
    first.run()
    saved = GameRecord.load(path)
    con, out = console()
    code = ct.play_ceres(con, ["log"] + ["1"] * 300, seat=0, bots="random", resume_record=saved)
    text = out.getvalue()
    assert code == 0
    assert f"Resumed: {len(saved.actions)} actions replayed." in text
    assert "Ceres with the Comets expansion" in text
    assert "Player 1 launches a Mining Probe onto Comet C1" in text  # the log of the replayed part
    assert "Warning" not in text
    assert "Final scores (VP)" in text


def test_resume_from_a_record_of_a_finished_game_shows_the_final_scores() -> None:
    done, _ = session(["1"] * 300, seed=2, expansions=COMETS)
    done.run()
    con, out = console()
    assert ct.play_ceres(con, [], resume_record=done.current_record()) == 0
    assert "Final scores (VP)" in out.getvalue()


def test_resume_refuses_a_foreign_or_broken_record() -> None:
    con, _ = console()
    with pytest.raises(SaveFileError, match="not of Ceres"):
        ct.play_ceres(con, [], resume_record=GameRecord("tauceti", {"players": 2}, 1, []))
    with pytest.raises(SaveFileError, match=r"action 1 \('LAUNCH Z99'\) cannot be replayed"):
        ct.play_ceres(con, [], resume_record=GameRecord("ceres", {"players": 2}, 1, ["LAUNCH Z99"]))


def test_bad_options_are_refused_before_the_game_starts() -> None:
    con, _ = console()
    with pytest.raises(ValueError, match="seat 2 is not a seat"):
        ct.play_ceres(con, [], seat=2, players=2)
    with pytest.raises(ValueError, match="unknown expansion"):
        ct.play_ceres(con, [], expansions=("moons",))
    with pytest.raises(ValueError, match="1-4 players"):
        ct.play_ceres(con, [], players=5)
    with pytest.raises(BotSpecError, match="unknown bot"):
        ct.play_ceres(con, [], bots="genius")
    with pytest.raises(BotSpecError, match="one per seat"):
        ct.play_ceres(con, [], bots="random,random", players=2)


# -- hidden information ---------------------------------------------------------------------------


def _hidden_ids(state: Any) -> set[str]:
    return set(state.nucleus_box) | {c.id for c in state.content.explosion_checks}


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_the_screen_never_names_the_nucleus_cards_in_the_box_or_an_explosion_check_card(seed: int) -> None:
    s, text = play_random(seed, COMETS, 2 + seed % 3)
    for card in _hidden_ids(s.state):
        assert not re.search(rf"\b{card}\b", text), card


def test_the_board_is_the_same_whatever_the_hidden_cards_are() -> None:
    """Permuting what nobody may see (the box, the Explosion Check order) leaves the screen
    unchanged: it is drawn from what the seat may see and nothing else."""
    state = GAME.new_game({"players": 3, "expansions": ["comets"]}, 11)
    other = state.clone()
    other.nucleus_box = other.nucleus_box[1:] + other.nucleus_box[:1]
    other.explosion_deck = other.explosion_deck[::-1]
    assert other.nucleus_box != state.nucleus_box and other.explosion_deck != state.explosion_deck
    shown = []
    for st in (state, other):
        con, out = console()
        obs = GAME.observe(st, 0)
        con.print(ct.render_board(obs, 0))
        con.print(ct.describe_decision(obs, 0))
        con.print(ct.action_menu(present_actions(GAME, st, 0, obs, GAME.legal_actions(st))))
        shown.append(out.getvalue())
    assert shown[0] == shown[1]
