"""The balance studio's games: a record per game, the arms of a sweep, the study file, resume."""

from __future__ import annotations

import errno
import gzip
import hashlib
import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ecliptic.balance import stream
from ecliptic.balance.probes import GameTask, play_recorded
from ecliptic.balance.stream import FORMAT, StudyFileError, StudyWriter, checksum, read_study, with_checksum
from ecliptic.balance.study import Arm, Study, base_arms, run_study, with_contents
from ecliptic.games import get_game
from ecliptic.sim.simulate import game_seeds

SHORT = {"game": "short", "layout": "players", "advanced": []}


def small_study(games: int = 3, sweep: str | None = "advanced", game: str = "tauceti") -> Study:
    config = SHORT if game == "tauceti" else {"expansions": ["comets"]}
    return Study(game, ("random",), games, 7, tuple(base_arms(game, 4, config, sweep)), sweep)


# -- the record of one game -------------------------------------------------------------


def test_a_tau_ceti_record_is_what_the_engine_reported() -> None:
    task = GameTask("a", 0, 99, "tauceti", {**SHORT, "players": 3}, ("random",) * 3)
    record = play_recorded(task)
    g = get_game("tauceti")
    state = g.new_game(dict(task.config), 99)
    crises, decisions = [], 0
    from ecliptic.bots.base import bot_seed, make_bot

    bots = [make_bot("random", bot_seed(99, s)) for s in range(3)]
    while not state.is_over:
        events = g.apply(state, bots[state.current_player].choose(g, state, state.current_player))
        crises += [e.data["crisis_type"] for e in events if e.kind == "crisis"]
        decisions += 1
    view = g.observe(state, None)
    assert record["decisions"] == decisions
    assert [c[1] for c in record["crises"]] == crises
    assert record["points"] == view["final_scores"]
    assert record["winners"] == view["winners"]
    assert record["returns"] == g.returns(state)
    assert record["factions"] == [p["faction"] for p in view["players"]]
    assert len(record["market"]) == record["rounds"] == view["round"]
    assert all(set(m) == set(view["market"]) for m in record["market"])


def test_a_ceres_record_counts_the_comets_only_with_comets() -> None:
    with_comets = play_recorded(GameTask("a", 0, 5, "ceres", {"players": 3, "expansions": ["comets"]}, ("random",) * 3))
    without = play_recorded(GameTask("a", 0, 5, "ceres", {"players": 3}, ("random",) * 3))
    assert set(with_comets["comets"]) == {"launches", "stays", "jumps", "explosions"}
    assert "comets" not in without
    assert set(with_comets["points"][0]) == {"asteroids", "tail_tokens", "nucleus_tables", "total"}


def test_the_same_task_gives_the_same_record() -> None:
    task = GameTask("a", 3, 1234, "tauceti", {**SHORT, "players": 2}, ("random", "heuristic"))
    assert play_recorded(task) == play_recorded(task)


# -- arms and tasks ---------------------------------------------------------------------


def test_the_advanced_sweep_is_each_rule_alone_against_all_off_and_all_on() -> None:
    arms = base_arms("tauceti", 4, SHORT, "advanced")
    assert [a.config["advanced"] for a in arms] == [[], *[[n] for n in range(1, 10)], list(range(1, 10))]
    assert arms[0].name == "advanced-off" and arms[-1].name == "advanced-all"


def test_the_players_and_comets_sweeps() -> None:
    assert [a.players for a in base_arms("tauceti", 4, SHORT, "players")] == [1, 2, 3, 4]
    assert [a.config["players"] for a in base_arms("ceres", 2, {}, "players")] == [1, 2, 3, 4]
    comets = base_arms("ceres", 4, {"expansions": ["comets"]}, "comets")
    assert [a.config["expansions"] for a in comets] == [[], ["comets"]]


@pytest.mark.parametrize(("game", "sweep", "words"), [("tauceti", "nope", "unknown sweep"),
                                                      ("ceres", "advanced", "Tau Ceti's"),
                                                      ("tauceti", "comets", "Ceres's")])
def test_a_sweep_the_game_has_not_is_refused(game: str, sweep: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        base_arms(game, 4, {}, sweep)


def test_every_arm_plays_the_same_seeds_and_the_factions_rotate_over_the_seats() -> None:
    study = small_study(games=16)
    tasks = list(study.tasks())
    assert len(tasks) == study.total == 16 * 11
    assert [t.arm for t in tasks[:11]] == [a.name for a in study.arms]  # game 0 of every arm first
    seeds = game_seeds(7, 16)
    assert all(t.seed == seeds[t.index] for t in tasks)
    base = [t for t in tasks if t.arm == "advanced-off"]
    seats = Counter((s, f) for t in base for s, f in enumerate(t.config["factions"]))
    assert set(seats.values()) == {4}  # every faction 4 times in every seat over 16 games


def test_content_arms_double_every_arm() -> None:
    class Pack:
        folder, digest = Path("/x/printed"), "abc"

    arms = with_contents(base_arms("ceres", 2, {}, "comets"), [Pack()])
    assert [a.name for a in arms] == ["without-comets@stand-ins", "with-comets@stand-ins",
                                      "without-comets@printed", "with-comets@printed"]
    assert arms[2].to_json()["content"] == {"folder": "/x/printed", "digest": "abc"}


def test_a_bad_study_is_refused_before_any_game() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        Study("tauceti", ("nobot",), 2, 0, tuple(base_arms("tauceti", 4, SHORT, None))).check()
    with pytest.raises(ValueError, match="share a name"):
        arm = Arm("a", "a", 2, {"players": 2})
        Study("ceres", ("random",), 2, 0, (arm, arm))


# -- the study file and resuming ----------------------------------------------------------


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The uninterrupted run every resumed run must equal, byte for byte."""
    path = tmp_path_factory.mktemp("whole") / "games.jsonl"
    result = run_study(small_study(), path)
    assert (result.played, result.resumed) == (33, 0)
    return path


def test_the_file_is_a_header_and_a_record_per_game(whole: Path) -> None:
    study = read_study(whole)
    assert study.header["format"] == FORMAT and len(study.header["arms"]) == 11
    records = list(study.records())
    assert [(r["arm"], r["index"]) for r in records] == [(t.arm, t.index) for t in small_study().tasks()]


def stop_after(n: int) -> Any:
    def progress(done: int, total: int) -> None:
        if done >= n:
            raise KeyboardInterrupt

    return progress


def test_a_run_stopped_by_ctrl_c_resumes_without_replaying_a_game(tmp_path: Path, whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run_study(small_study(), path, progress=stop_after(13))
    assert len(lines(path)) == 1 + 13  # every finished game is kept
    result = run_study(small_study(), path, resume=True)
    assert (result.played, result.resumed) == (20, 13)
    assert path.read_bytes() == whole.read_bytes()


def test_a_line_torn_by_a_crash_is_played_again(tmp_path: Path, whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    kept = lines(whole)[:8]
    path.write_text("".join(kept) + lines(whole)[8][:40])  # killed in the middle of writing game 8
    assert len(list(read_study(path).records())) == 7
    result = run_study(small_study(), path, resume=True)
    assert (result.played, result.resumed) == (26, 7)
    assert path.read_bytes() == whole.read_bytes()


def test_more_games_per_arm_extend_a_finished_study_into_the_file_of_a_longer_one(tmp_path: Path,
                                                                                    whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(whole.read_bytes())
    result = run_study(small_study(games=4), path, resume=True)
    assert (result.played, result.resumed) == (11, 33)
    assert lines(path)[1:34] == lines(whole)[1:]  # the games found are kept as they were written
    assert read_study(path).header["games"] == 4
    fresh = tmp_path / "fresh.jsonl"
    run_study(small_study(games=4), fresh)
    assert path.read_bytes() == fresh.read_bytes()  # a study of 4 from the start, its header included


def test_the_header_says_the_games_of_the_last_run_never_fewer_than_the_file_holds(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run_study(small_study(), path, progress=stop_after(13))  # game 0 of every arm, game 1 of two
    assert run_study(small_study(games=2), path, resume=True).played == 9
    fresh = tmp_path / "fresh.jsonl"
    run_study(small_study(games=2), fresh)
    assert path.read_bytes() == fresh.read_bytes()
    assert run_study(small_study(games=1), path, resume=True).played == 0  # the file holds 2 per arm
    assert path.read_bytes() == fresh.read_bytes()


@pytest.mark.parametrize(("where", "name", "failure"), [
    (stream.os, "replace", OSError(errno.ENOSPC, "No space left on device")),
    (shutil, "copyfileobj", KeyboardInterrupt()),
])
def test_a_header_rewrite_cut_short_leaves_the_file_whole(tmp_path: Path, whole: Path, monkeypatch: Any,
                                                          where: Any, name: str, failure: BaseException) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(whole.read_bytes())

    def fail(*args: Any) -> None:
        raise failure

    monkeypatch.setattr(where, name, fail)
    expected = StudyFileError if isinstance(failure, OSError) else type(failure)  # a disk's error is said
    with pytest.raises(expected) as caught:
        run_study(small_study(games=4), path, resume=True)
    if isinstance(failure, OSError):
        assert "cannot write the study file" in str(caught.value) and "No space left" in str(caught.value)
    assert path.read_bytes() == whole.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]  # no temporary file is left
    monkeypatch.undo()
    assert run_study(small_study(games=4), path, resume=True).played == 11


def test_an_existing_file_is_not_overwritten_without_resume(tmp_path: Path, whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(whole.read_bytes())
    with pytest.raises(StudyFileError, match="--resume"):
        run_study(small_study(), path)
    assert path.read_bytes() == whole.read_bytes()


def test_resume_refuses_another_study(tmp_path: Path, whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(whole.read_bytes())
    other = Study("tauceti", ("random",), 3, 8, small_study().arms, "advanced")  # another seed
    with pytest.raises(StudyFileError, match="another study"):
        run_study(other, path, resume=True)
    assert path.read_bytes() == whole.read_bytes()


ARMS = [a.name for a in small_study().arms]


@pytest.mark.parametrize(("other", "words"), [
    (Study("tauceti", ("random",), 3, 8, small_study().arms, "advanced"), "the file has seed 7, these options 8"),
    (Study("tauceti", ("heuristic",), 3, 7, small_study().arms, "advanced"),
     'the file has bots ["random"], these options ["heuristic"]'),
    (Study("tauceti", ("random",), 3, 7, small_study().arms[:2], "advanced"),
     f'the file has arms {json.dumps(ARMS)}, these options ["advanced-off", "advanced-1"]'),
    (Study("tauceti", ("random",), 3, 7, tuple(base_arms("tauceti", 4, {**SHORT, "game": "full"}, "advanced")),
           "advanced"),
     "the file has config.game \"short\" in arm 'advanced-off', these options \"full\""),
])
def test_resume_names_what_differs(tmp_path: Path, whole: Path, other: Study, words: str) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(whole.read_bytes())
    with pytest.raises(StudyFileError) as caught:
        run_study(other, path, resume=True)
    assert f"holds another study: {words}; --resume continues" in str(caught.value)
    assert path.read_bytes() == whole.read_bytes()


def test_lines_carry_checksums_and_a_file_written_before_them_still_loads_and_resumes(tmp_path: Path,
                                                                                     whole: Path) -> None:
    rows = [json.loads(row) for row in lines(whole)]
    for row in rows:
        content = {k: v for k, v in row.items() if k != "checksum"}
        canonical = json.dumps(content, sort_keys=True, separators=(",", ":")).encode()
        assert row["checksum"] == hashlib.sha256(canonical).hexdigest() == checksum(row)
    # A file written before lines carried checksums: the same lines without them.
    old = [json.dumps({k: v for k, v in row.items() if k != "checksum"}, sort_keys=True,
                      **({} if number == 0 else {"separators": (",", ":")})) + "\n" for number, row in enumerate(rows)]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(old[:14]))
    assert [r["decisions"] for r in read_study(path).records()] == [r["decisions"] for r in rows[1:14]]
    result = run_study(small_study(), path, resume=True)
    assert (result.played, result.resumed) == (20, 13)
    assert path.read_text() == "".join(old)  # continued in its own form, without checksums
    committed = Path(__file__).parents[1] / "docs" / "balance" / "ceres-4p-comets" / "games.jsonl.gz"
    assert "checksum" not in read_study(committed).header
    assert sum(1 for _ in read_study(committed).records()) == 8000


def edited(rows: list[str], number: int, change: Any) -> list[str]:
    """The rows with line ``number`` (1 the header) changed by ``change`` and laid out as the
    writer lays out a record, its checksum kept as it was."""
    row = json.loads(rows[number - 1])
    change(row)
    return [*rows[:number - 1], json.dumps(row, sort_keys=True, separators=(",", ":")) + "\n", *rows[number:]]


def test_resume_refuses_a_record_edited_after_it_was_written(tmp_path: Path, whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    rows = edited(lines(whole)[:6], 3, lambda r: r.update(decisions=r["decisions"] + 1))
    path.write_text("".join(rows))
    with pytest.raises(StudyFileError, match="line 3: the record of game 0 of arm 'advanced-1' does not match its "
                                             "checksum: the line was edited after it was written"):
        run_study(small_study(), path, resume=True)
    assert path.read_text() == "".join(rows)  # refused before anything is changed


def test_a_record_without_its_checksum_or_an_edited_header_is_refused(tmp_path: Path, whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(edited(lines(whole), 4, lambda r: r.pop("checksum"))))
    with pytest.raises(StudyFileError, match=re.escape("line 4: the record of game 0 of arm 'advanced-2' has no "
                                                       "checksum (every line of this file carries one)")):
        list(read_study(path).records())
    header = json.loads(lines(whole)[0])
    header["arms"][0]["label"] = "a label of my own"
    path.write_text("".join([json.dumps(header, sort_keys=True) + "\n", *lines(whole)[1:]]))
    with pytest.raises(StudyFileError, match="line 1: the header does not match its checksum"):
        read_study(path)


def test_resume_refuses_an_edited_file(tmp_path: Path, whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    rows = lines(whole)
    path.write_text("".join([rows[0], rows[2], rows[1], *rows[3:10]]))
    with pytest.raises(StudyFileError, match="line 2: game 0 of arm 'advanced-1' is not the study's next game"):
        run_study(small_study(), path, resume=True)


@pytest.mark.parametrize(("text", "words"), [
    ("", "is empty"),
    ('{"format": "other/9"}\n', "not a study file of this version"),
    ("nope\n", "line 1: not JSON"),
    (f'{{"format": "{FORMAT}"}}\n', "names no arms"),
])
def test_a_bad_header_is_a_clear_error(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(text)
    with pytest.raises(StudyFileError, match=words):
        read_study(path)


def test_a_bad_record_names_its_line(tmp_path: Path, whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    rows = lines(whole)
    path.write_text("".join([rows[0], rows[1], "[1, 2]\n", *rows[3:]]))
    with pytest.raises(StudyFileError, match="line 3: a record is a JSON object"):
        list(read_study(path).records())
    record = json.loads(rows[1])
    del record["points"]
    path.write_text(rows[0] + json.dumps(record) + "\n")
    with pytest.raises(StudyFileError, match="line 2: the record has no 'points'"):
        list(read_study(path).records())


def test_a_missing_file_and_a_gzipped_one(tmp_path: Path, whole: Path) -> None:
    with pytest.raises(StudyFileError, match="cannot read"):
        read_study(tmp_path / "none.jsonl")
    packed = tmp_path / "games.jsonl.gz"
    packed.write_bytes(gzip.compress(whole.read_bytes()))
    assert list(read_study(packed).records()) == list(read_study(whole).records())
    with pytest.raises(StudyFileError, match="gzipped"):
        StudyWriter(packed, {"arms": []}, resume=True)


def test_resume_refuses_a_file_the_engine_now_plays_differently(tmp_path: Path, whole: Path) -> None:
    path = tmp_path / "games.jsonl"
    rows = lines(whole)
    record = json.loads(rows[5])
    record["decisions"] += 1  # as if the rules had changed since the game was recorded (and its checksum with it)
    path.write_text("".join([*rows[:5], json.dumps(with_checksum(record)) + "\n"]))
    with pytest.raises(StudyFileError, match="line 6: game 0 of arm 'advanced-4' plays differently now"):
        run_study(small_study(), path, resume=True)
    assert len(lines(path)) == 6


def test_the_header_keeps_the_version_that_began_the_study_and_another_version_resumes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ecliptic

    path = tmp_path / "games.jsonl"
    run_study(small_study(2, sweep=None), path)
    assert read_study(path).header["ecliptic"] == ecliptic.__version__
    monkeypatch.setattr(ecliptic, "__version__", "9.9.9")  # a later Ecliptic that plays the games alike
    result = run_study(small_study(3, sweep=None), path, resume=True)
    assert (result.played, result.resumed) == (1, 2)
    header = read_study(path).header
    assert header["ecliptic"] != "9.9.9" and header["games"] == 3
