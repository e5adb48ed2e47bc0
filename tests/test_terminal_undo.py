"""``undo`` at the terminal, under the game server's policy (:mod:`ecliptic.engine.undo`): the
human's own last action is taken back while no bot has moved since and it taught nothing (no
die, no shuffle, nothing hidden shown); the game, and its autosave, go back to before it."""

from __future__ import annotations

import io
import signal
from typing import Any

import pytest
from rich.console import Console

from ecliptic.engine.actions import Action
from ecliptic.engine.record import GameRecord, state_digest
from ecliptic.ui import ceres_terminal as ct
from ecliptic.ui import session as sess

pytestmark = pytest.mark.usefixtures("folders")  # a data folder and a working folder of its own

COMETS = ["comets"]


def played(lines: list[str], autosaved: list[list[str]] | None = None) -> tuple[ct.CeresSession, str]:
    """Ceres with the Comets, 3 players, seed 5: the human's first turn offers LAUNCH C1, after
    which the human chooses a Tail token (two decisions of the human in a row). At the prompt
    after the lines, the actions the autosave holds are put in ``autosaved``, then ``quit``."""
    out = io.StringIO()
    typed = iter(lines)
    session: list[ct.CeresSession] = []

    def read(_prompt: str) -> str:
        line = next(typed, None)
        if line is None:
            if autosaved is not None and session[0].autosave is not None:
                autosaved.append(GameRecord.load(session[0].autosave).actions)
            return "quit"
        return line

    s = ct.ceres_session(Console(file=out, width=200, color_system=None), read, seed=5, players=3,
                         expansions=COMETS, echo=True)
    session.append(s)
    s.run()
    return s, out.getvalue()


def ice(s: ct.CeresSession) -> int:
    return int(s.observation()["players"][0]["resources"]["Ice"])


def test_undo_takes_back_the_humans_own_last_action_and_the_autosave_follows() -> None:
    start, _ = played([])
    autosaved: list[list[str]] = []
    s, text = played(["LAUNCH C1", "undo"], autosaved)
    assert "Took back LAUNCH C1. Choose again." in text
    assert s.record.actions == [] and ice(s) == ice(start)
    assert s.observation() == start.observation()
    assert autosaved == [[]]  # written again at once, before the human chose anything else
    again, _ = played(["LAUNCH C1", "undo", "LAUNCH C1", "1"])  # and the game goes on from there
    assert again.record.actions[:2] == ["LAUNCH C1", "TAIL 1"]


def test_undo_after_the_bots_moved_or_with_nothing_played_is_refused_and_changes_nothing() -> None:
    s, text = played(["undo", "LAUNCH A01", "undo"])
    assert text.count("Nothing to take back: undo takes back your own last action, before anyone else has "
                      "moved.") == 2
    assert s.record.actions[0] == "LAUNCH A01" and len(s.record.actions) > 1  # the bots' moves stay


def test_undo_of_an_action_that_taught_something_is_refused_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sess, "why_not_undoable", lambda *args: "it had a random outcome (dice or a shuffle)")
    s, text = played(["LAUNCH C1", "undo"])
    assert "LAUNCH C1 cannot be taken back: it had a random outcome (dice or a shuffle)." in text
    assert s.record.actions == ["LAUNCH C1"]


def test_undo_with_something_after_it_and_two_menu_numbers_are_answered_in_words() -> None:
    s, text = played(["LAUNCH C1", "undo 3", "1 2"])
    assert "undo takes nothing after it: 'undo' takes back your last action." in text
    assert "Choose one number from 1 to " in text and "at a time (a number alone on the line)" in text
    assert "is not an action of Ceres" not in text
    assert s.record.actions == ["LAUNCH C1"]  # nothing taken back, nothing chosen


class _InterruptedWhileTakenBack(list[str]):
    """The record's actions, where taking the last one back is where Ctrl-C lands."""

    session: ct.CeresSession

    def __delitem__(self, index: Any) -> None:
        self.session.on_interrupt(signal.SIGINT, None)
        super().__delitem__(index)


def test_ctrl_c_in_the_middle_of_an_undo_saves_a_game_that_resumes_without_a_warning() -> None:
    """Ctrl-C after the state went back but before the record did: the autosave written on
    the way out holds no digest of a state its actions do not lead to (which a resume would
    report as rules changed since), so the game resumes as saved, with LAUNCH C1 played."""
    out = io.StringIO()
    typed = iter(["LAUNCH C1", "undo"])
    session: list[ct.CeresSession] = []

    def read(_prompt: str) -> str:
        line = next(typed, "quit")
        if line == "undo":
            actions = _InterruptedWhileTakenBack(session[0].record.actions)
            actions.session = session[0]
            session[0].record.actions = actions
        return line

    s = ct.ceres_session(Console(file=out, width=200, color_system=None), read, seed=5, players=3,
                         expansions=COMETS, echo=True)
    session.append(s)
    assert s.run() == sess.EXIT_INTERRUPTED
    assert s.autosave is not None
    saved = GameRecord.load(s.autosave)
    assert saved.actions == ["LAUNCH C1"]
    replayed = ct.Ceres().new_game(saved.config, saved.seed)
    for action in saved.actions:
        ct.Ceres().apply(replayed, Action.parse(action))
    assert saved.digest in (None, state_digest(ct.Ceres(), replayed))


def test_a_resumed_game_may_take_back_the_last_action_it_was_left_after() -> None:
    """Leaving a game is no move of anyone's: resumed at the seat it was left at, the human's
    own last action is taken back as had the game gone on; at another seat, it is not that
    seat's to take back."""
    from play_support import run

    game = ["play", "--game", "ceres", "--expansions", "comets", "--players", "3", "--seed", "5"]
    assert run(*game, input="LAUNCH C1\nquit\n").exit_code == 0
    resumed = run("play", "--resume", "autosave", input="undo\nquit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Took back LAUNCH C1. Choose again." in resumed.output
    assert run(*game, input="LAUNCH C1\nquit\n").exit_code == 0
    other = run("play", "--resume", "autosave", "--seat", "2", input="undo\nquit\n")
    assert "Took back" not in other.output and "Nothing to take back" in other.output
