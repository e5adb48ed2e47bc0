"""The terminal game never loses a game (issue 15, items 8-10 and 12).

Bad lines at the prompt are refused and the game goes on; leaving an unfinished game any way
(``quit``, end of input, Ctrl-C, a closed terminal) autosaves it in the data folder and
``--resume autosave`` goes on; an engine failure writes a crash file of its own; ``save``
asks before replacing, never replaces what is not a regular file and leaves no temporary
file behind; and the details a player noticed (the Skills line, SHIELD in any order,
readline, the wording of the log, VP in Ceres' tables, ``make play``)."""

from __future__ import annotations

import builtins
import errno
import io
import os
import random
import re
import shlex
import signal
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from ecliptic.bots import RandomBot
from ecliptic.ceres.game import Ceres
from ecliptic.cli import PlaySession
from ecliptic.engine.actions import Action
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.tauceti import battle, checks, flow
from ecliptic.tauceti.content import default_content
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State
from ecliptic.ui import ceres_terminal as ct
from ecliptic.ui import session as sess
from ecliptic.ui import terminal
from play_support import run

pytestmark = pytest.mark.usefixtures("folders")  # a data folder and a working folder of its own

GAME = TauCeti()
PRESET = ["--seed", "1", "--layout", "preset", "--players", "2"]
BAD_LINES = ["²", "①", "9" * 5000, "save .", "save /", "save a\0b.json", "save ~nosuchuser/x.json"]


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=1000, color_system=None, highlight=False), out


def lines(*items: str | Callable[[], str]) -> Callable[[str], str]:
    """Scripted input: each item a line, or a function called in its turn (it may raise);
    then end of input."""
    feed: Iterator[str | Callable[[], str]] = iter(items)

    def read(_prompt: str) -> str:
        item = next(feed, None)
        if item is None:
            raise EOFError
        return item if isinstance(item, str) else item()

    return read


def tc_session(read: Callable[[str], str], state: State | None = None, human: int = 0,
               game: Any = GAME) -> tuple[PlaySession, io.StringIO]:
    state = state or game.new_game({"players": 2, "layout": "preset"}, 1)
    con, out = console()
    record = GameRecord("tauceti", {"players": 2, "layout": "preset"}, 1)
    bots = {s: RandomBot(s) for s in range(2) if s != human}
    return PlaySession(game, state, record, human, bots, ["random"], con, read), out


def autosaves() -> list[Path]:
    return sorted(sess.autosave_dir().glob("*.json")) if sess.autosave_dir().exists() else []


def crashes() -> list[Path]:
    return sorted(sess.crash_dir().glob("*.json")) if sess.crash_dir().exists() else []


def replays_to_its_digest(path: Path) -> GameRecord:
    record = GameRecord.load(path)
    assert record.digest == state_digest(GAME if record.game == "tauceti" else Ceres(), replay(record))
    return record


# -- 8. no input ends the game -------------------------------------------------------------


@pytest.mark.parametrize("line", BAD_LINES, ids=["superscript", "circled", "5000-digits", "dot", "root",
                                                 "nul", "no-such-user"])
def test_a_bad_line_is_refused_and_the_tau_ceti_game_goes_on(line: str, folders: Path) -> None:
    result = run("play", *PRESET, input=f"{line}\nPASS\nsave game.json\nquit\n")
    assert result.exit_code == 0, result.output
    assert "rules engine failed" not in result.output and not crashes()
    refusal = "Choose a number from 1 to" if not line.startswith("save") else "Not saved:"
    assert refusal in result.output
    assert GameRecord.load(folders / "game.json").actions[0] == "PASS"  # the game went on
    assert sorted(p.name for p in folders.iterdir()) == ["game.json"]  # nothing else written here


@pytest.mark.parametrize("line", BAD_LINES, ids=["superscript", "circled", "5000-digits", "dot", "root",
                                                 "nul", "no-such-user"])
def test_a_bad_line_is_refused_and_the_ceres_game_goes_on(line: str) -> None:
    con, out = console()
    s = ct.ceres_session(con, [line, "PASS", "quit"], seed=3)
    assert s.run() == 0
    assert "rules engine failed" not in out.getvalue() and not crashes()
    assert "PASS" in s.record.actions


# -- 9. leaving saves the game ----------------------------------------------------------------


def test_quit_autosaves_in_the_data_folder_and_resume_autosave_goes_on(folders: Path) -> None:
    first = run("play", *PRESET, input="PASS\nquit\n")
    assert first.exit_code == 0, first.output
    [saved] = autosaves()
    assert str(saved) in first.output and "ecliptic play --resume autosave" in first.output
    assert replays_to_its_digest(saved).actions[0] == "PASS"
    assert list(folders.iterdir()) == []  # nothing in the working folder unasked
    later = run("play", *PRESET, input="")  # the next game says where the unfinished one is
    assert "Your last unfinished game" in later.output and str(saved) in later.output
    [left_later] = set(autosaves()) - {saved}  # left before its first move: saved too
    left_later.unlink()  # so that the game left last is the first one again
    resumed = run("play", "--resume", "autosave", input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Resumed" in resumed.output
    assert autosaves() == [saved]  # saved over itself, not a second file
    assert GameRecord.load(saved).actions[0] == "PASS"


def test_resume_autosave_without_one_is_refused_with_one_line() -> None:
    result = run("play", "--resume", "autosave")
    assert result.exit_code == 2
    assert "there is no unfinished game to resume" in result.output


@pytest.mark.parametrize(("leave", "code"), [
    (lambda: (_ for _ in ()).throw(EOFError()), 0),  # Ctrl-D
    (lambda: (_ for _ in ()).throw(KeyboardInterrupt()), sess.EXIT_INTERRUPTED),  # Ctrl-C
    (lambda: (_ for _ in ()).throw(OSError(errno.EIO, "Input/output error")), sess.EXIT_HANGUP),
], ids=["eof", "ctrl-c", "eio"])
def test_every_way_of_leaving_saves_the_game(leave: Callable[[], str], code: int, folders: Path) -> None:
    s, out = tc_session(lines("PASS", leave))
    assert s.run() == code
    [saved] = autosaves()
    assert replays_to_its_digest(saved).actions == s.record.actions
    assert "rules engine" not in out.getvalue()
    assert str(saved) in out.getvalue()
    assert list(folders.iterdir()) == []


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP on this platform")
def test_sighup_saves_the_game_through_the_handler_run_installs() -> None:
    def hang_up() -> str:
        os.kill(os.getpid(), signal.SIGHUP)  # the terminal closes while the prompt waits
        return "PASS"

    before = signal.getsignal(signal.SIGHUP)
    s, out = tc_session(lines("PASS", hang_up))
    assert s.run() == sess.EXIT_HANGUP
    assert "SIGHUP" in out.getvalue()
    [saved] = autosaves()
    assert replays_to_its_digest(saved).actions == s.record.actions
    assert signal.getsignal(signal.SIGHUP) == before  # the handler is put back


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP on this platform")
def test_a_second_sighup_or_ctrl_c_while_saving_does_not_cut_the_save_short(monkeypatch: pytest.MonkeyPatch) -> None:
    write = sess.write_save

    def write_while_signalled(*args: Any, **kwargs: Any) -> int | None:
        if s._leaving:  # the save on the way out, not the autosave kept as the game goes
            os.kill(os.getpid(), signal.SIGHUP)  # closing a terminal sends more than one
            os.kill(os.getpid(), signal.SIGINT)
        return write(*args, **kwargs)

    monkeypatch.setattr(sess, "write_save", write_while_signalled)
    s, _ = tc_session(lines("PASS", lambda: os.kill(os.getpid(), signal.SIGHUP) or "PASS"))  # type: ignore[func-returns-value]
    assert s.run() == sess.EXIT_HANGUP
    [saved] = autosaves()
    assert replays_to_its_digest(saved).actions == s.record.actions
    assert [p.name for p in saved.parent.iterdir()] == [saved.name]  # no temporary file left


def test_sigterm_saves_the_game_through_the_handler_run_installs() -> None:
    def terminate() -> str:
        os.kill(os.getpid(), signal.SIGTERM)  # kill PID while the prompt waits
        return "PASS"

    before = signal.getsignal(signal.SIGTERM)
    s, out = tc_session(lines("PASS", terminate))
    assert s.run() == sess.EXIT_TERMINATED == 143
    assert "Asked to stop (SIGTERM): leaving the game." in out.getvalue()
    [saved] = autosaves()
    assert replays_to_its_digest(saved).actions == s.record.actions
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is put back


# -- 9b. the autosave is kept as the game goes ----------------------------------------------------


def test_the_autosave_holds_every_applied_action_before_it_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """After each action, the human's and each bot's, the autosave is the game as it stands
    (its digest that of the state) before any of the action's events is printed: a process
    killed at any moment after that loses nothing."""
    checked: list[int] = []
    show = PlaySession.show_events

    def show_after_checking(self: PlaySession, events: Any) -> None:
        assert self.autosave is not None and sess.in_play(self.autosave)
        record = GameRecord.load(self.autosave)
        assert record.actions == self.record.actions
        assert record.digest == state_digest(GAME, self.state)
        checked.append(len(record.actions))
        show(self, events)

    monkeypatch.setattr(PlaySession, "show_events", show_after_checking)
    s, _ = tc_session(lines("PASS", "1", "1"))
    assert s.run() == 0
    assert checked == list(range(1, len(s.record.actions) + 1))  # every action, one by one
    assert len(s.record.actions) > 3  # the human's three, and the bot's moves between them
    [saved] = autosaves()
    assert not sess.in_play(saved)  # let go when the session ended


def test_a_game_is_in_its_autosave_from_the_start() -> None:
    def look() -> str:
        [saved] = autosaves()
        record = replays_to_its_digest(saved)
        assert record.actions == [] and record.seed == 1
        return "quit"

    s, _ = tc_session(lines(look))
    assert s.run() == 0


def test_a_signal_while_the_autosave_is_written_waits_until_it_is_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    write = sess.write_save
    whole: list[bool] = []

    def write_while_interrupted(*args: Any, **kwargs: Any) -> int | None:
        if s.record.actions and not s._leaving and not whole:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C as the autosave after PASS is written
            fd = write(*args, **kwargs)
            whole.append(True)  # not cut short: the interrupt waited
            return fd
        return write(*args, **kwargs)

    monkeypatch.setattr(sess, "write_save", write_while_interrupted)
    s, out = tc_session(lines("PASS", "PASS"))
    assert s.run() == sess.EXIT_INTERRUPTED
    assert whole == [True] and s.record.actions == ["PASS"]  # left right after that write
    [saved] = autosaves()
    assert replays_to_its_digest(saved).actions == ["PASS"]
    assert [p.name for p in saved.parent.iterdir()] == [saved.name]  # no temporary file left
    assert "Interrupted" in out.getvalue()


def test_a_game_being_played_is_not_the_game_left_last(folders: Path) -> None:
    """Its autosave is held while it runs: ``--resume autosave`` elsewhere takes the game left
    before it, and resuming its file by name is refused (two processes would write it)."""
    left = run("play", *PRESET, input="PASS\nquit\n")
    assert left.exit_code == 0, left.output
    [older] = autosaves()

    def elsewhere() -> str:
        [playing] = set(autosaves()) - {older}
        assert sess.in_play(playing) and not sess.in_play(older)
        assert sess.latest_autosave() == sess.resolve_save(Path("autosave")) == older
        refused = run("play", "--resume", str(playing), input="quit\n")
        assert refused.exit_code == 2 and "is the game being played now in another ecliptic play" in refused.output
        return "quit"

    s, _ = tc_session(lines(elsewhere))
    assert s.run() == 0
    assert s.autosave is not None and not sess.in_play(s.autosave)
    assert sess.latest_autosave() == s.autosave  # left now: the game left last


def test_the_hangup_handler_leaves_the_game_saved() -> None:
    def hang_up() -> str:
        s.on_hangup(signal.SIGINT, None)  # what SIGHUP calls, whichever signal number
        return "PASS"

    s, _ = tc_session(lines("PASS", hang_up))
    assert s.run() == sess.EXIT_HANGUP
    assert len(autosaves()) == 1


def test_an_interrupt_while_an_action_is_applied_saves_the_record_before_it() -> None:
    class Interrupted(TauCeti):
        def apply(self, state: Any, action: Action | str) -> Any:
            if str(action) == "REF":
                raise KeyboardInterrupt  # in the middle of the engine's work
            return super().apply(state, action)

    s, _ = tc_session(lines("PASS", "REF"), game=Interrupted())
    assert s.run() == sess.EXIT_INTERRUPTED
    [saved] = autosaves()
    record = GameRecord.load(saved)
    assert "REF" not in record.actions[len(s.record.actions) - 1:]
    assert record.digest is None  # the state may be half changed: no digest to check it by
    replay(record)  # the record itself replays


class Broken(TauCeti):
    """An engine with a bug: PASS, a legal action, fails."""

    def apply(self, state: Any, action: Action | str) -> Any:
        if str(action) == "PASS" and state.current_player == 0:
            raise RuntimeError("boom")
        return super().apply(state, action)


def test_crash_files_never_overwrite_each_other(folders: Path) -> None:
    for _ in range(2):
        s, out = tc_session(lines("PASS"), game=Broken())
        assert s.run() == sess.EXIT_ENGINE_BUG
        assert "the rules engine failed (RuntimeError: boom)" in out.getvalue()
    files = crashes()
    assert len(files) == 2  # the same game and seed in the same second: two files all the same
    assert any(str(path) in out.getvalue() for path in files)  # the second run names its own
    for path in files:
        assert GameRecord.load(path).actions == []  # the record stops before the failed PASS
    assert autosaves() == []  # the crash file holds the game now: one place, not two
    assert list(folders.iterdir()) == []


def test_a_ceres_engine_failure_is_reported_with_a_crash_file() -> None:
    class BrokenCeres(Ceres):
        def apply(self, state: Any, action: Action | str) -> Any:
            if str(action) == "PASS":
                raise RuntimeError("boom")
            return super().apply(state, action)

    con, out = console()
    s = ct.ceres_session(con, ["PASS"], seed=3)
    s.game = BrokenCeres()
    assert s.run() == sess.EXIT_ENGINE_BUG
    assert "the rules engine failed (RuntimeError: boom)" in out.getvalue()
    assert len(crashes()) == 1


def test_the_cli_reports_a_crash_with_exit_1_and_no_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TauCeti, "apply", Broken.apply)
    result = run("play", *PRESET, input="PASS\n")
    assert result.exit_code == 1
    assert "this is a bug" in result.output and len(crashes()) == 1


# -- 10. save FILE ---------------------------------------------------------------------------


def test_save_asks_before_replacing_and_save_bang_does_not(folders: Path) -> None:
    target = folders / "game.json"
    target.write_text("old")
    prompts: list[str] = []

    def still_old() -> str:
        assert target.read_text() == "old"  # "n": the file was left alone
        return "PASS"

    def replaced() -> str:
        assert GameRecord.load(target).actions[0] == "PASS"  # "y": replaced by the game
        return "save! game.json"

    script = lines("save game.json", "n", still_old, "save game.json", "y", replaced, "quit")

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return script(prompt)

    s, out = tc_session(read)
    s.run()
    questions = [p for p in prompts if "Replace it?" in p]
    assert questions == [f"{Path('game.json')} exists. Replace it? [y/N] "] * 2  # save! did not ask
    assert "Not saved: game.json is unchanged" in out.getvalue()
    assert GameRecord.load(target).actions == s.record.actions  # save! replaced it without asking


@pytest.mark.parametrize("make", ["fifo", "folder", "symlink"])
def test_save_never_replaces_what_is_not_a_regular_file(make: str, folders: Path) -> None:
    target = folders / "thing"
    if make == "fifo":
        os.mkfifo(target)
    elif make == "folder":
        target.mkdir()
    else:
        (folders / "elsewhere.json").write_text("keep")
        target.symlink_to(folders / "elsewhere.json")
    s, out = tc_session(lines("save! thing", "quit"))
    s.run()
    assert "Not saved:" in out.getvalue()
    mode = target.lstat().st_mode
    assert {"fifo": stat.S_ISFIFO, "folder": stat.S_ISDIR, "symlink": stat.S_ISLNK}[make](mode)
    if make == "symlink":
        assert (folders / "elsewhere.json").read_text() == "keep"


def test_a_failed_save_leaves_the_old_file_and_no_temporary_file(folders: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    target = folders / "game.json"
    target.write_text("old")

    def full_disk(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    s, out = tc_session(lines("save! game.json"))
    s.autosave = folders / "unused"  # keep this test about the save alone
    s.run()
    assert "Cannot save to game.json: No space left on device" in out.getvalue()
    assert target.read_text() == "old"
    assert sorted(p.name for p in folders.iterdir()) == ["game.json"]


def test_the_save_message_quotes_a_path_with_spaces(folders: Path) -> None:
    s, out = tc_session(lines("save my game.json"))
    s.run()
    assert f"ecliptic play --resume {shlex.quote('my game.json')}" in out.getvalue()


# -- 12. what a player noticed -----------------------------------------------------------------


def test_the_skills_line_counts_face_up_specialist_bonuses_as_the_checks_do() -> None:
    content = default_content()
    card = next(s for s in content.specialists if s.ability.kind == "skill_bonus")
    skill = card.ability.skill
    state = GAME.new_game({"players": 2, "layout": "preset", "factions": ["Xunon", "Azars"]}, 1)
    state.specialist_deck = tuple(c for c in state.specialist_deck if c != card.id)
    state.players[0].face_up += (card.id,)
    dice = checks.dice_for(state, 0, skill)
    assert dice == content.faction("Xunon").skills[skill] + card.ability.amount
    obs = GAME.observe(state, 0)
    assert obs["players"][0]["skills"][skill] == dice
    con, out = console()
    con.print(terminal.render_interface(obs, 0))
    assert re.search(rf"Skills\s.*\b{skill} {dice}\b", out.getvalue())


def _shield_decision() -> State:
    """A battle in sector 01: the defender (seat 1, Shields power 3) assigns shields."""
    state = GAME.new_game({"layout": "preset", "players": 2, "factions": ["Zorhkonian", "Azars"]}, 1)
    state.bag.remove("Azars")
    state.cubes.setdefault("01", []).append("Azars")
    state.stack.clear()
    state.phase = "battle"
    state.players[0].battle_sector, state.players[0].battle_defender = "01", 1
    state.battles = ("01",)
    flow.advance(state, [])
    assert state.decision.kind == "battle_shield" and state.current_player == 1
    return state


def test_shield_systems_in_any_order_are_the_same_choice() -> None:
    in_order, any_order = _shield_decision(), _shield_decision()
    GAME.apply(in_order, "SHIELD 1,2,5")
    GAME.apply(any_order, "SHIELD 5,1,2")
    assert GAME.to_json(any_order) == GAME.to_json(in_order)
    assert battle.canonical_shields(Action("SHIELD", ("5,1,2",))) == Action("SHIELD", ("1,2,5",))
    for malformed in (Action("SHIELD", None), Action("SHIELD", (5,)), None, "SHIELD 1"):  # type: ignore[arg-type]
        assert battle.canonical_shields(malformed) is malformed  # left for the rules to refuse
    assert GAME.why_not(_shield_decision(), Action("SHIELD", ("2,2",))) is not None
    assert all(a.args[0].split(",") == sorted(a.args[0].split(",")) for a in GAME.legal_actions(_shield_decision())
               if a.verb == "SHIELD" and a.args[0] != "-")  # the notation stays ascending


def test_the_session_records_and_shows_the_canonical_shields() -> None:
    s, out = tc_session(lines("shield 5,1,2"), state=_shield_decision(), human=1)
    s.run()
    assert s.record.actions[0] == "SHIELD 1,2,5"
    assert "(shield 5,1,2 is SHIELD 1,2,5)" in out.getvalue()


def test_a_terminal_prompt_reads_with_readline(monkeypatch: pytest.MonkeyPatch) -> None:
    prompts: list[str] = []
    monkeypatch.setattr(sess, "stdin_is_tty", lambda: True)
    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        return "PASS"

    monkeypatch.setattr(builtins, "input", fake_input)
    con = Console(file=io.StringIO(), force_terminal=True, color_system="standard")
    assert sess.terminal_reader(con)("> ") == "PASS"
    assert "readline" in sys.modules
    # The prompt goes to input() itself, its colour codes marked as taking no room on the line.
    assert prompts and prompts[0].startswith("\x01\x1b[") and "\x02> " in prompts[0]


FAULTS = re.compile(r"\((s|es|c)\)|\bwin\(s\)|\ba [AEIOU]|s's\b|Face up: Face up|\b1 dice\b")
RULE_ID = re.compile(r"\b(CR|CC|TC)-[A-Z0-9]+-\d+")


def _random_events(game: Any, config: dict[str, Any], seed: int) -> list[str]:
    state, ev = game.new_game_events(config, seed)
    bot = RandomBot(seed)
    while not state.is_over:
        ev += game.apply(state, bot.choose(game, state, state.current_player))
    return [e.text for e in ev]


@pytest.mark.parametrize("seed", range(12))
def test_event_texts_have_no_wording_faults(seed: int) -> None:
    rng = random.Random(seed)
    config = {"players": 1 + seed % 4, "game": rng.choice(["short", "full"]), "layout": "random",
              "advanced": rng.sample(range(1, 10), rng.randrange(10)), "advanced_specialists": seed % 2 == 0}
    texts = _random_events(GAME, config, seed)
    texts += _random_events(Ceres(), {"players": 1 + seed % 4, "expansions": ["comets"] if seed % 2 else []}, seed)
    bad = [t for t in texts if FAULTS.search(t)]
    assert not bad, bad[:5]


def test_wording_of_a_check_a_possessive_and_the_winners() -> None:
    content = default_content()
    check = next(m.check for m in content.missions if m.check and m.check.skill[0] in "AEIOU")
    assert checks.describe(check).startswith(f"{check.skill} check: ")
    assert "di(c)e" not in checks.describe(check)
    assert all(not s.ability.text.lower().startswith("face up") for s in content.specialists)
    from ecliptic.engine.wording import article, plural, possessive

    assert article(f"{check.skill} check") == f"an {check.skill} check"
    assert (plural(1, "die", "dice"), plural(3, "die", "dice")) == ("1 die", "3 dice")
    assert (possessive("Azars"), possessive("Xunon")) == ("Azars'", "Xunon's")


def test_the_ceres_log_shows_no_rule_ids() -> None:
    texts = [t for seed in range(40) for t in _random_events(Ceres(), {"players": 1 + seed % 4,
                                                                       "expansions": ["comets"]}, seed)]
    leaks = [t for t in texts if RULE_ID.search(t)]
    assert not leaks, leaks[:5]


def test_ceres_tables_say_vp() -> None:
    sim = run("simulate", "--game", "ceres", "--players", "2", "--games", "2", "--workers", "1")
    assert sim.exit_code == 0, sim.output
    assert "Mean VP by source" in sim.output and "GP" not in sim.output
    tour = run("tournament", "--game", "ceres", "--players", "2", "--bots", "random", "--games", "2",
               "--workers", "1")
    assert tour.exit_code == 0, tour.output
    assert "VP and Rank are means" in tour.output and "GP" not in tour.output


def test_make_play_serves_the_browser_client_and_opens_it() -> None:
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    recipe = re.search(r"^play:.*\n\t\S*ecliptic serve(.*)$", makefile, re.M)
    assert recipe is not None
    assert shlex.split(recipe.group(1)) == ["--open"]
    assert "--open" in run("serve", "--help").output


def test_the_readmes_short_terminal_game_starts_against_normal_bots() -> None:
    result = run("play", "--game-length", "short", "--layout", "random", "--level", "normal", "--seed", "1",
                 input="")
    assert result.exit_code == 0, result.output
    assert "short game" in result.output and "against 1 bot (normal)" in result.output
    assert "Setup: place" not in result.output  # no manual tile placement first


@pytest.mark.parametrize("option", [["--faction", "Xunon"], ["--layout", "preset"], ["--game-length", "short"],
                                    ["--advanced", "1"], ["--advanced-specialists"]])
def test_play_ceres_refuses_tau_cetis_options(option: list[str]) -> None:
    result = run("play", "--game", "ceres", *option, input="quit\n")
    assert result.exit_code == 2
    assert "Tau Ceti's" in result.output and option[0] in result.output


def test_an_autosave_that_cannot_be_written_is_said_and_leaves_nothing(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("ECLIPTIC_DATA_DIR", str(blocked))
    s, out = tc_session(lines("PASS", "quit"))
    assert s.run() == 0
    assert "The game could not be saved in" in out.getvalue()
    assert blocked.read_text() == ""


def test_a_full_disk_while_autosaving_leaves_no_empty_autosave(monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    s, out = tc_session(lines("PASS", "quit"))
    assert s.run() == 0
    assert "No space left on device" in out.getvalue()
    assert out.getvalue().count("could not be autosaved") == 1  # said once, though tried after each action
    assert list(sess.autosave_dir().iterdir()) == []  # neither the empty file nor a temporary one
    assert sess.latest_autosave() is None
