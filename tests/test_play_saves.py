"""The terminal game's saves as a resumed game and a power cut meet them: bots that choose after
``--resume`` as they would have had the game gone on (each decision seeded from the position,
a bot in the middle of its own decisions walked through them again), and a save whose folder is
synced after the rename, so that the rename outlives a power cut as the file does."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from ecliptic.engine import durable
from ecliptic.engine.actions import Action
from ecliptic.engine.record import GameRecord
from ecliptic.games import get_game
from ecliptic.server.bots import BotTurn, choose
from ecliptic.ui import session as sess
from play_support import run

pytestmark = pytest.mark.usefixtures("folders")  # a data folder and a working folder of its own

TC = ["--players", "2", "--seed", "11", "--layout", "preset"]
CERES = ["--game", "ceres", "--players", "3", "--seed", "5"]


def left_game(*args: str, answers: int) -> GameRecord:
    """``ecliptic play ARGS`` with the person choosing the first menu item ``answers`` times, then
    ``quit``: the game as its autosave holds it, the autosave removed (so that the next
    ``--resume autosave`` takes the game a test means)."""
    result = run("play", *args, input="1\n" * answers + "quit\n")
    assert result.exit_code == 0, result.output
    [path] = sess.autosave_dir().glob("*.json")
    record = GameRecord.load(path)
    path.unlink()
    return record


def movers(record: GameRecord) -> list[int]:
    """The seat that took each action of ``record``."""
    game = get_game(record.game)
    state = game.new_game(record.config, record.seed)
    seats = []
    for text in record.actions:
        seats.append(state.current_player)
        game.apply(state, Action.parse(text))
    return seats


@pytest.mark.parametrize("args", [TC, CERES], ids=["tauceti", "ceres"])
def test_bots_resumed_after_quit_choose_as_in_the_game_that_went_on(args: list[str]) -> None:
    straight = left_game(*args, answers=6)
    first = left_game(*args, answers=2)
    sess.write_save(sess.autosave_dir() / "left.json", first, {"human_seat": 0, "bots": ["random"]})
    resumed = left_game("--resume", "autosave", answers=4)
    assert len(first.actions) < len(resumed.actions)
    assert resumed.actions == straight.actions  # random bots: on a generator run on, they differ at once


def test_a_game_killed_between_two_of_a_bots_own_decisions_goes_on_as_it_would_have() -> None:
    """``kill -9`` leaves the autosave of the last applied action, which may be a bot's MOV before
    its steps: the resumed heuristic bot must choose the steps on the copy it judged the Move on,
    as the bot of the game that went on does (a fresh copy of the hidden tiles goes elsewhere)."""
    straight = left_game(*TC, "--bots", "heuristic", answers=9)
    seats = movers(straight)
    [k, *_] = [k + 1 for k, (seat, text) in enumerate(zip(seats, straight.actions, strict=True))
               if seat == 1 and text == "MOV"]
    killed = GameRecord(straight.game, dict(straight.config), straight.seed, straight.actions[:k])
    sess.write_save(sess.autosave_dir() / "killed.json", killed, {"human_seat": 0, "bots": ["heuristic"]})
    resumed = left_game("--resume", "autosave", answers=seats[k:].count(0))
    assert resumed.actions[k:] == straight.actions[k:]


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_the_terminal_bots_choose_as_the_servers_bot_workers_do(bots: str) -> None:
    """Both seed a decision from the game's seed, the seat and the index; the server builds a
    bot anew for every decision, so a heuristic bot in the middle of a Move's steps must first
    be walked through its own decisions to hold the copy it chose the Move on, as the
    terminal's bot of the game played straight through holds it (built anew and not walked,
    it chose other steps after ``MOV``)."""
    straight = left_game(*TC, "--bots", bots, answers=9)
    turns = [(k, seat) for k, seat in enumerate(movers(straight)) if seat != 0]
    assert len(turns) >= 5
    if bots == "heuristic":  # the case that needs the walk: a bot's own decision after its MOV
        assert any(straight.actions[k - 1] == "MOV" for k, _ in turns[1:])
    for k, seat in turns:
        turn = BotTurn(straight.game, straight.config, straight.seed, tuple(straight.actions[:k]), seat, bots)
        assert choose(turn) == straight.actions[k], f"action {k}"


def same_file(fd: int, path: Path) -> bool:
    st, want = os.fstat(fd), path.stat()
    return (st.st_dev, st.st_ino) == (want.st_dev, want.st_ino)


def test_a_save_syncs_its_folder_after_the_rename(folders: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Any]] = []
    fsync, replace = os.fsync, os.replace

    def logged_fsync(fd: int) -> None:
        calls.append(("fsync", "folder" if same_file(fd, folders) and stat.S_ISDIR(os.fstat(fd).st_mode)
                      else "file"))
        fsync(fd)

    def logged_replace(src: Any, dst: Any) -> None:
        replace(src, dst)
        calls.append(("replace", Path(dst).name))

    monkeypatch.setattr(os, "fsync", logged_fsync)
    monkeypatch.setattr(os, "replace", logged_replace)
    sess.write_save(folders / "game.json", GameRecord("tauceti", {"players": 2}, 1), {})
    assert calls == [("fsync", "file"), ("replace", "game.json"), ("fsync", "folder")]


def test_new_folders_of_the_data_folder_are_synced_in_the_folder_above(folders: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[Path] = []
    fsync = os.fsync

    def logged_fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            synced.extend(p for p in (folders, folders / "data", folders / "data" / "finished") if same_file(fd, p))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", logged_fsync)
    made = sess.new_file(folders / "data" / "finished", "game")
    assert made.parent.is_dir()
    assert synced == [folders, folders / "data"]  # where "data" was made, then where "finished" was


def test_a_folder_that_cannot_be_synced_is_skipped_quietly(folders: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As on Windows, where a folder cannot be opened: the sync is tried, and the save is
    written all the same, its lock held."""
    opened, refused = os.open, []

    def no_folders(path: Any, flags: int, *args: Any) -> int:
        if Path(path).is_dir():
            refused.append(Path(path))
            raise PermissionError(13, "Permission denied")
        return opened(path, flags, *args)

    monkeypatch.setattr(os, "open", no_folders)
    held = sess.write_save(folders / "game.json", GameRecord("tauceti", {"players": 2}, 1), {}, hold=True)
    try:
        assert refused == [folders]
        assert GameRecord.load(folders / "game.json").seed == 1
        assert held is None or sess.in_play(folders / "game.json")
    finally:
        if held is not None:
            os.close(held)


# -- a finished game's autosave, removed for good ---------------------------------------------------

CERES_TO_THE_END = "1\n" * 400  # the first menu item every time: a Ceres game ends well before


def test_removing_a_file_durably_syncs_its_folder_after_the_unlink(folders: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    target = folders / "game.json"
    target.write_text("{}")
    synced: list[bool] = []  # for each folder sync: whether the file was gone by then
    fsync = os.fsync

    def logged_fsync(fd: int) -> None:
        if same_file(fd, folders):
            synced.append(not target.exists())
        fsync(fd)

    monkeypatch.setattr(os, "fsync", logged_fsync)
    durable.remove(target)
    assert synced == [True]


def test_a_finished_games_autosave_is_removed_and_its_folder_synced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Else a power cut soon after the end could bring the autosave back."""
    gone: list[bool] = []  # for each sync of the autosaves' folder: whether the autosave was gone
    fsync = os.fsync

    def logged_fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode) and same_file(fd, sess.autosave_dir()):
            gone.append(not any(sess.autosave_dir().glob("*.json")))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", logged_fsync)
    result = run("play", *CERES, input=CERES_TO_THE_END)
    assert result.exit_code == 0, result.output
    assert "Final scores (VP)" in result.output and list(sess.autosave_dir().glob("*.json")) == []
    assert gone and gone[-1] is True  # the last sync of the folder came after the removal


def test_an_autosave_back_after_its_game_was_filed_is_not_filed_twice() -> None:
    """A power cut between filing the finished game and removing its autosave leaves both; the
    next ``--resume autosave`` shows the end, says where the game was kept, and removes it."""
    assert run("play", *CERES, input=CERES_TO_THE_END).exit_code == 0
    [kept] = sess.finished_dir().glob("*.json")
    record = GameRecord.load(kept)
    back = sess.autosave_dir() / "back.json"
    sess.write_save(back, record, {"human_seat": 0, "bots": ["random"]})  # what the autosave held last
    result = run("play", "--resume", "autosave", input="")
    assert result.exit_code == 0, result.output
    assert "Final scores (VP)" in result.output
    assert f"The game was kept already in {kept}." in result.output
    assert list(sess.finished_dir().glob("*.json")) == [kept] and not back.exists()
