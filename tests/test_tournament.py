"""Tournaments: fair seating, honest statistics, ratings, and results fixed by the seed alone."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ecliptic.cli import app
from ecliptic.sim.simulate import SimulationInterrupted
from ecliptic.sim.tournament import (
    TournamentGame,
    TournamentInterrupted,
    TournamentResult,
    cycle_length,
    faction_names,
    merge,
    ranks_of,
    run_tournament,
    seating,
    standings_of,
    wilson,
)

FACTIONS = faction_names("tauceti")
SHORT = {"game": "short", "layout": "random"}


def test_wilson_interval_matches_the_textbook_values() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(180, 200)
    assert lo == pytest.approx(0.8506, abs=1e-4) and hi == pytest.approx(0.9343, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("n", [1, 7, 64, 400, 1000])
def test_wilson_interval_of_all_wins_reaches_one_and_of_no_wins_zero_exactly(n: int) -> None:
    assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0
    assert wilson(n, n)[0] == pytest.approx(1 - wilson(0, n)[1])  # the interval is symmetric


def test_ranks_put_winners_first_and_share_ties() -> None:
    assert ranks_of([1, 0, 0, 0], [12, 12, 5, 5]) == (1, 2, 3.5, 3.5)
    assert ranks_of([0.5, 0.5, 0], [9, 9, 9]) == (1.5, 1.5, 3)


@pytest.mark.parametrize("bots", [["h", "r", "r", "r"], ["a", "b", "c", "d"], ["a", "b", "c"], ["x"]])
def test_every_bot_plays_every_seat_and_faction_equally(bots: list[str]) -> None:
    n = cycle_length(len(bots), 4, len(FACTIONS))
    seat_games: Counter[str] = Counter()
    seats: Counter[tuple[str, int]] = Counter()
    factions: Counter[tuple[str, str]] = Counter()
    for i in range(n):
        s = seating(i, bots, 4, FACTIONS)
        assert len(s.bots) == 4 and sorted(s.factions) == sorted(FACTIONS)
        for seat, (bot, faction) in enumerate(zip(s.bots, s.factions, strict=True)):
            seat_games[bot] += 1
            seats[bot, seat] += 1
            factions[bot, faction] += 1
    for bot in set(bots):
        share = seat_games[bot]
        assert all(seats[bot, seat] == share // 4 for seat in range(4))
        assert all(factions[bot, f] == share // 4 for f in FACTIONS)
    distinct = set(bots)
    if len(distinct) == len(bots):  # no repeats: every bot gets the same number of seat-games
        assert len(set(seat_games.values())) == 1


def test_two_player_tables_rotate_all_four_factions() -> None:
    seen = Counter(seating(i, ["a", "b"], 2, FACTIONS).factions[0] for i in range(cycle_length(2, 2, 4)))
    assert set(seen) == set(FACTIONS) and len(set(seen.values())) == 1


def test_same_seed_same_results_whatever_the_number_of_workers() -> None:
    one = run_tournament("tauceti", 3, ["random", "heuristic:depth=2"], 4, 21, SHORT, workers=1)
    two = run_tournament("tauceti", 3, ["random", "heuristic:depth=2"], 4, 21, SHORT, workers=2)
    assert one.deterministic_json() == two.deterministic_json()
    other = run_tournament("tauceti", 3, ["random", "heuristic:depth=2"], 4, 22, SHORT)
    assert other.deterministic_json() != one.deterministic_json()


def test_the_json_names_the_version_that_played_and_merge_reads_it_back() -> None:
    import ecliptic

    part = run_tournament("tauceti", 2, ["random"], 2, 3, SHORT, workers=1)
    data = json.loads(json.dumps(part.to_json()))
    assert data["ecliptic"] == ecliptic.__version__
    assert TournamentResult.from_json(data).deterministic_json() == part.deterministic_json()


def test_a_bots_mean_gp_interval_is_about_its_seat_games_mean_when_its_seats_a_game_vary() -> None:
    # "a" holds 1 seat of the odd games (10 GP) and 3 of the even ones (0 GP each): its mean over
    # seat-games is 200 / 80 = 2.5, the figure shown; a mean of its games' means would be 5.0.
    def game(i: int) -> TournamentGame:
        bots = ("a", "b", "b", "b") if i % 2 else ("a", "a", "a", "b")
        gp = (10.0, 0.0, 0.0, 0.0) if i % 2 else (0.0, 0.0, 0.0, 10.0)
        returns = (1.0, 0.0, 0.0, 0.0) if i % 2 else (0.0, 0.0, 0.0, 1.0)
        return TournamentGame(i, i, bots, ("Azars", "Triolor", "Xunon", "Zorhkonian"), gp, returns,
                              ranks_of(returns, gp), 8, 100)

    a = {s.bot: s for s in standings_of(["a", "b"], [game(i) for i in range(40)])}["a"]
    assert (a.seat_games, a.mean_gp) == (80, 2.5)
    low, high = a.gp_interval("tauceti")
    assert 0 < low < 2.5 < high and (low + high) / 2 == pytest.approx(2.5)


def test_each_bots_mean_gp_has_its_interval_over_the_games_in_the_json() -> None:
    from ecliptic.balance.stats import Moments

    result = run_tournament("tauceti", 4, ["heuristic:depth=2", "random", "random", "random"], 4, 5, SHORT, workers=1)
    standings = {s["bot"]: s for s in result.to_json()["standings"]}
    for bot in ("heuristic:depth=2", "random"):
        per_game = Moments()  # three random seats in one game share its deal: one value a game
        for r in result.results:
            seats = [gp for gp, b in zip(r.gp, r.bots, strict=True) if b == bot]
            per_game.add(sum(seats) / len(seats))
        low, high = standings[bot]["mean_gp_ci95"]
        assert (low, high) == pytest.approx(per_game.interval()) and low <= standings[bot]["mean_gp"] <= high
    assert "95% CI: --json" in _table_text(result).replace("\n", " ")


def _game(index: int, bots: tuple[str, ...], winner: int) -> TournamentGame:
    returns = tuple(1.0 if seat == winner else 0.0 for seat in range(len(bots)))
    return TournamentGame(index, index, bots, ("Azars", "Triolor", "Xunon", "Zorhkonian"), (0.0,) * 4, returns,
                          ranks_of(returns, (0.0,) * 4), 8, 100)


def test_a_bot_in_two_of_four_seats_has_one_value_a_game_not_two_seat_games() -> None:
    # "a" holds seats 0 and 2 of every game; at most one of them wins: a game it wins is 1 of its
    # 2 seat-games, never 2. Its 40 games: 20 won (rate 1/4), varying as 2 p (1 - 2 p) a game,
    # less than the 2 p (1 - p) of two independent seat-games, so the naive interval is too wide.
    games = [_game(i, ("a", "b", "a", "b"), 0 if i % 2 else 1) for i in range(40)]
    a = {s.bot: s for s in standings_of(["a", "b"], games)}["a"]
    assert (a.seat_games, a.wins, a.win_rate) == (80, 20, 0.25)
    n_eff = 0.25 * 0.75 / (40 * 0.5 ** 2 / 80 ** 2)  # the games' totals (1 or 0) about 2 x 1/4
    assert n_eff == 120
    assert a.interval == pytest.approx(wilson(0.25 * 120, 120))
    naive = wilson(20, 80)
    assert naive[0] < a.interval[0] < 0.25 < a.interval[1] < naive[1]


def test_a_bot_whose_seats_change_from_game_to_game_gets_a_wider_interval_than_seat_games() -> None:
    # "a" wins each game it holds one seat of and none of those it holds three of (with "b" in the
    # rest): the games' totals swing further than 1/4 a seat-game would, and the interval says so.
    games = [_game(i, ("a", "b", "b", "b") if i % 2 else ("a", "a", "a", "b"), 0 if i % 2 else 3)
             for i in range(20)]
    a = {s.bot: s for s in standings_of(["a", "b"], games)}["a"]
    assert (a.seat_games, a.wins) == (40, 10)
    n_eff = 0.25 * 0.75 / ((10 * 0.75 ** 2 + 10 * 0.75 ** 2) / 40 ** 2)
    assert a.interval == pytest.approx(wilson(0.25 * n_eff, n_eff))
    naive = wilson(10, 40)
    assert a.interval[0] < naive[0] and naive[1] < a.interval[1]
    assert a.to_json()["win_rate_ci95"] == list(a.interval)  # the JSON's interval


def test_standings_add_up() -> None:
    result = run_tournament("tauceti", 4, ["heuristic:depth=2", "random", "random", "random"], 4, 5, SHORT)
    by_bot = {s.bot: s for s in result.standings}
    assert by_bot["heuristic:depth=2"].seat_games == 4 and by_bot["random"].seat_games == 12
    assert sum(s.wins for s in result.standings) == pytest.approx(4)
    assert sum(s.rank for s in result.standings) == pytest.approx(4 * (1 + 2 + 3 + 4))
    assert all(s.sigma > 0 for s in result.standings)
    heuristic = by_bot["heuristic:depth=2"]
    assert heuristic.by_seat == {0: 1, 1: 1, 2: 1, 3: 1}
    assert heuristic.mean_gp > by_bot["random"].mean_gp
    assert heuristic.mu > by_bot["random"].mu


def test_bad_bots_fail_before_the_first_game() -> None:
    from ecliptic.bots import BotSpecError

    with pytest.raises(BotSpecError, match="unknown bot"):
        run_tournament("tauceti", 2, ["random", "clever"], 2, 1, SHORT)
    with pytest.raises(BotSpecError, match="unknown weight"):
        run_tournament("tauceti", 2, ["random", "heuristic:w.speed=1"], 2, 1, SHORT)


def test_the_tournament_command_prints_json_and_a_table() -> None:
    runner = CliRunner()
    args = ["tournament", "--players", "2", "--bots", "random,random", "--games", "2", "--seed", "3",
            "--game-length", "short"]
    out = runner.invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["games"] == 2 and data["standings"][0]["bot"] == "random"
    assert data["standings"][0]["seat_games"] == 4
    assert "ms_per_decision" in data["timing"]
    table = runner.invoke(app, args)
    assert table.exit_code == 0 and "Win rate" in table.output and "95% CI" in table.output


def test_a_narrow_terminal_folds_a_long_bot_text_and_keeps_every_figure() -> None:
    from rich.console import Console

    from ecliptic.sim.tournament import tournament_table

    long_bot = "heuristic:depth=1/epsilon=0.5/w.energy=0.1"
    result = run_tournament("tauceti", 2, [long_bot, "random"], 2, 1, SHORT, workers=1)
    console = Console(width=80, record=True)
    console.print(tournament_table(result))
    text = console.export_text()
    assert "…" not in text
    for heading in ("Bot", "Games", "Wins", "Win rate", "95% CI", "GP", "Rank", "Rating", "ms/dec"):
        assert heading in text
    rows = text.splitlines()
    first = next(i for i, line in enumerate(rows) if line.startswith(" heuristic"))
    last = next(i for i in range(first + 1, len(rows))  # the next row, or the table's end
                if rows[i].startswith(" random") or not rows[i].strip())
    assert "".join(line.split()[0] for line in rows[first:last]) == long_bot  # all of it, folded
    assert rows[first].split()[-1].replace(".", "").isdigit()  # the row ends with its ms/dec figure


def test_the_tournament_command_refuses_a_bad_bot() -> None:
    out = CliRunner().invoke(app, ["tournament", "--bots", "random,clever", "--games", "1"])
    assert out.exit_code == 2
    assert "unknown bot 'clever'" in out.output


def test_play_takes_a_level_for_the_bots() -> None:
    out = CliRunner().invoke(app, ["play", "--level", "easy", "--players", "2", "--seed", "1",
                                   "--layout", "random"], input="quit\n")
    assert out.exit_code == 0, out.output
    bad = CliRunner().invoke(app, ["play", "--level", "expert"], input="quit\n")
    assert bad.exit_code == 2


# -- merging tournaments played in parts ---------------------------------------------------


def _parts() -> tuple[TournamentResult, TournamentResult]:
    bots = ["random", "heuristic:depth=2"]
    return (run_tournament("tauceti", 2, bots, 4, 31, SHORT), run_tournament("tauceti", 2, bots, 4, 32, SHORT))


def test_a_tournament_read_back_from_its_json_has_the_same_standings() -> None:
    one, _ = _parts()
    again = TournamentResult.from_json(json.loads(json.dumps(one.to_json())))
    assert again.deterministic_json() == one.deterministic_json()
    assert again.timing["ms_per_decision"] == pytest.approx(one.timing["ms_per_decision"])


def test_merged_parts_count_every_game_and_rate_them_again() -> None:
    one, two = _parts()
    merged = merge([TournamentResult.from_json(p.to_json()) for p in (one, two)])
    assert merged.games == 8 and merged.merged_seeds == (31, 32)
    for bot in ("random", "heuristic:depth=2"):
        a, b, m = (next(s for s in r.standings if s.bot == bot) for r in (one, two, merged))
        assert m.seat_games == a.seat_games + b.seat_games == 8
        assert m.wins == pytest.approx(a.wins + b.wins)
        assert m.mean_gp == pytest.approx((a.gp + b.gp) / 8)
        assert m.decisions == a.decisions + b.decisions
        assert m.sigma < a.sigma  # rated over twice the games
    assert [r.seed for r in merged.results] == [r.seed for r in one.results + two.results]


def test_an_older_file_without_returns_gives_the_win_to_the_first_place() -> None:
    one, two = _parts()
    data = one.to_json()
    for g in data["results"]:
        del g["returns"]
    data.pop("timing")
    old = TournamentResult.from_json(data)
    assert [s.wins for s in old.standings] == [s.wins for s in one.standings]
    assert all(s.decisions == 0 for s in old.standings)  # no timing kept: none shown
    data = two.to_json()
    for g in data["results"]:
        del g["rounds"]
    assert merge([one, TournamentResult.from_json(data)]).mean_rounds == one.mean_rounds


def test_only_runs_of_the_same_bots_game_and_configuration_merge() -> None:
    one, _ = _parts()
    other = run_tournament("tauceti", 2, ["random", "random"], 2, 31, SHORT)
    with pytest.raises(ValueError, match="differs from the first in its bots"):
        merge([one, other])
    with pytest.raises(ValueError, match="at least one"):
        merge([])


def test_the_merge_command_prints_one_table_and_refuses_bad_files(tmp_path: Path) -> None:
    one, two = _parts()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(one.to_json()))
    b.write_text(json.dumps(two.to_json()))
    runner = CliRunner()
    out = runner.invoke(app, ["tournament-merge", str(a), str(b)])
    assert out.exit_code == 0, out.output
    assert "8 games of tauceti" in out.output and "merged from 2 runs, seeds 31, 32" in out.output
    data = json.loads(runner.invoke(app, ["tournament-merge", str(a), str(b), "--json"]).output)
    assert data["games"] == 8 and data["merged_seeds"] == [31, 32]
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "tauceti"}')
    before = bad.read_text()
    out = runner.invoke(app, ["tournament-merge", str(a), str(bad)])
    assert out.exit_code == 2 and "is not the JSON of `ecliptic tournament --json`" in out.output
    assert bad.read_text() == before
    out = runner.invoke(app, ["tournament-merge", str(tmp_path / "missing.json")])
    assert out.exit_code == 2 and "cannot read" in out.output
    bad.write_text("{nope")
    out = runner.invoke(app, ["tournament-merge", str(bad)])
    assert out.exit_code == 2 and "is not valid JSON" in out.output


def test_text_in_square_brackets_is_printed_as_it_is_not_read_as_markup(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich reads ``[default]`` as a style: the calibrate command's pointer to the weights file's
    [default] table lost its table name. (Bot names in the tournament table: test_bad_files.py.)"""
    from ecliptic.bots import calibrate as cal

    def tune(*_args: object, **_kwargs: object) -> cal.Tuned:
        return cal.Tuned(None, {"card": 1.5}, 0.7, 0.6, 0.7, 0.65)

    monkeypatch.setattr(cal, "tune", tune)
    out = CliRunner().invoke(app, ["calibrate", "--games", "1", "--every", "20", "--players", "2", "--tune"])
    assert out.exit_code == 0, out.output
    assert "for the [default] table of weights/tauceti.toml:" in out.output
    assert "card = 1.5" in out.output


# -- a run split into parts by --first-game; a game counts once --------------------------------

SPLIT_BOTS = ["random", "heuristic:depth=2"]


def _run(games: int, first_game: int = 0, seed: int = 41) -> TournamentResult:
    return run_tournament("tauceti", 2, SPLIT_BOTS, games, seed, SHORT, first_game=first_game)


def _read_back(result: TournamentResult) -> TournamentResult:
    """The result as `tournament-merge` reads it: through its JSON."""
    return TournamentResult.from_json(json.loads(json.dumps(result.to_json())))


def _table_text(result: TournamentResult) -> str:
    """The table without its timing (each bot's ms/dec, the wall clock), which differs from run to run."""
    from rich.console import Console

    from ecliptic.sim.tournament import tournament_table

    console = Console(width=200, record=True)
    console.print(tournament_table(result))
    lines = console.export_text().rsplit("Mean rounds", 1)[0].splitlines()
    return "\n".join(line.rsplit(None, 1)[0] if line.split()[:1] in ([b] for b in SPLIT_BOTS) else line
                     for line in lines)


def test_a_run_split_by_first_game_merges_into_exactly_the_one_run() -> None:
    whole = _run(10)
    head, tail = _run(4), _run(6, first_game=4)  # not a multiple of the rotation: the seating still follows
    assert tail.results == whole.results[4:] and head.results == whole.results[:4]
    assert tail.to_json()["first_game"] == 4 and _read_back(tail).first_game == 4
    for parts in ([head, tail], [tail, head]):  # whatever the order of the files
        merged = merge([_read_back(p) for p in parts])
        assert merged.deterministic_json() == whole.deterministic_json()
        assert _table_text(merged) == _table_text(whole)


def test_disjoint_ranges_of_one_seed_merge_in_game_order_and_say_which_games() -> None:
    first, third = _run(2), _run(2, first_game=4)
    merged = merge([_read_back(third), _read_back(first)])
    assert merged.games == 4 and [r.seed for r in merged.results] == [r.seed for r in first.results + third.results]
    assert merged.to_json()["merged_parts"] == [{"seed": 41, "first_game": 0, "games": 2},
                                                {"seed": 41, "first_game": 4, "games": 2}]
    assert "merged from 2 runs, seeds 41 (games 0–1), 41 (games 4–5)" in _table_text(merged)
    again = merge([_read_back(merged), _read_back(_run(2, first_game=2))])  # the gap filled: one run again
    assert again.deterministic_json() == _run(6).deterministic_json()


def test_parts_that_hold_the_same_games_are_refused_naming_them() -> None:
    head, middle = _run(4), _run(4, first_game=2)
    with pytest.raises(ValueError, match=r"^a\.json is named twice: its games \(games 0–3 of seed 41\)"):
        merge([head, head], ["a.json", "a.json"])
    with pytest.raises(ValueError, match=r"^a\.json and b\.json hold the same games \(games 2–3 of seed 41\)"):
        merge([head, middle], ["a.json", "b.json"])
    with pytest.raises(ValueError, match=r"tournament 1 and tournament 3 hold the same games \(games 2–3"):
        merge([middle, _run(2, seed=42), head])
    # a file merged before the ranges were kept names only its runs' seeds: its parts are found again
    older = merge([head, _run(2, seed=42)]).to_json()
    del older["merged_parts"]
    assert _read_back(merge([TournamentResult.from_json(older), _run(2, first_game=4)])).games == 8
    older["results"] += older["results"][:4]  # what merging a file with itself used to write
    older["timing"]["games"] += older["timing"]["games"][:4]
    older["merged_seeds"], older["games"] = [41, 42, 41], 10
    with pytest.raises(ValueError, match=r"holds games 0–3 of seed 41 twice"):
        merge([TournamentResult.from_json(older)], ["old.json"])


def test_a_copy_with_another_seed_written_in_is_not_read_as_other_games() -> None:
    data = _run(2).to_json()
    data["seed"] = 43
    with pytest.raises(ValueError, match=r"game 1: its seed \d+ is not that of game 0 of the run seed 43"):
        TournamentResult.from_json(data, "copy.json")
    data["seed"], data["first_game"] = 41, 1
    with pytest.raises(ValueError, match=r"copy\.json is not the JSON .*\(game 1: its seed \d+ is not that of game 1"):
        TournamentResult.from_json(data, "copy.json")


def test_the_merge_command_refuses_the_same_games_twice_and_changes_nothing(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(_run(4).to_json()))
    b.write_text(json.dumps(_run(4, first_game=4).to_json()))
    before = a.read_bytes()
    out = CliRunner().invoke(app, ["tournament-merge", str(a), str(a)])
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.strip() == f"Error: {a} is named twice: its games (games 0–3 of seed 41) would count twice"
    assert a.read_bytes() == before
    joined = CliRunner().invoke(app, ["tournament-merge", str(b), str(a), "--json"])
    assert joined.exit_code == 0, joined.output
    data = json.loads(joined.stdout)
    assert data["games"] == 8 and data["first_game"] == 0 and "merged_seeds" not in data


def test_the_tournament_command_plays_from_its_first_game_and_refuses_bad_seeds() -> None:
    runner = CliRunner()
    args = ["tournament", "--players", "2", "--bots", ",".join(SPLIT_BOTS), "--game-length", "short",
            "--layout", "random", "--seed", "41", "--workers", "1"]
    out = runner.invoke(app, [*args, "--games", "2", "--first-game", "4", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["first_game"] == 4 and [g["seed"] for g in data["results"]] == [r.seed for r in _run(6).results[4:]]
    assert "seed 41 (games 4–5)" in runner.invoke(app, [*args, "--games", "2", "--first-game", "4"]).stdout
    for bad, says in ((["--seed", "-1"], "not -1: the games' generator keeps 64 bits, so -1 would play the games of "
                                         "seed 18446744073709551615 under another name"),
                      (["--seed", str(2**64)], "would play the games of seed 0"),
                      (["--first-game", "-1"], "the first game must be 0 or more")):
        out = runner.invoke(app, [*args, "--games", "1", *bad])
        assert out.exit_code == 2 and out.stdout == "", out.output
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and says in lines[0], out.stderr
    with pytest.raises(ValueError, match="the seed must be from 0 to 18446744073709551615, not -1"):
        run_tournament("tauceti", 2, ["random"], 1, -1, SHORT)


# -- Ctrl-C: the finished games are kept, as an exact part --------------------------------------


def _stop_at(game: int) -> Callable[[int, int], None]:
    """A progress callback that presses Ctrl-C once ``game`` games are done."""
    def progress(done: int, _total: int) -> None:
        if done == game:
            raise KeyboardInterrupt
    return progress


def test_ctrl_c_keeps_the_finished_games_as_a_part_that_merges_with_the_rest() -> None:
    with pytest.raises(TournamentInterrupted) as stopped:
        run_tournament("tauceti", 2, SPLIT_BOTS, 6, 41, SHORT, progress=_stop_at(2))
    partial = stopped.value.result
    whole = _run(6)
    assert partial.games == 2 and partial.games_asked == 6 and partial.results == whole.results[:2]
    data = partial.to_json()
    assert data["partial"] is True and data["games_asked"] == 6 and data["first_game"] == 0 and data["games"] == 2
    assert "Partial: 2 of 6 games of tauceti" in _table_text(partial)
    rest = _run(4, first_game=2)
    assert merge([_read_back(partial), _read_back(rest)]).deterministic_json() == whole.deterministic_json()


def test_a_simulation_and_a_tournament_stop_with_the_one_run_interruption() -> None:
    """One class for every run (the command line answers them with one handler): what the finished
    games show is its ``partial``, under the run's own name too (``summary``, ``result``)."""
    from ecliptic.sim.simulate import RunInterrupted, simulate

    with pytest.raises(RunInterrupted) as sim:
        simulate("tauceti", 2, 3, seed=41, config=SHORT, progress=_stop_at(1))
    with pytest.raises(RunInterrupted) as tour:
        run_tournament("tauceti", 2, ["random"], 3, 41, SHORT, progress=_stop_at(1))
    assert isinstance(sim.value, SimulationInterrupted) and isinstance(tour.value, TournamentInterrupted)
    assert sim.value.partial is sim.value.summary and tour.value.partial is tour.value.result
    assert (sim.value.partial.games, sim.value.partial.games_asked) == (1, 3)
    assert (tour.value.partial.games, tour.value.partial.games_asked) == (1, 3)
    assert str(sim.value) == str(tour.value) == "interrupted after 1 of 3 games"


def _interrupting(real: Callable[..., Any], after: int) -> Callable[..., Any]:
    """``real``, until it has played ``after`` games: then Ctrl-C, as if pressed during the next."""
    calls: list[int] = []

    def play(*args: Any, **kwargs: Any) -> Any:
        if len(calls) == after:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*args, **kwargs)
    return play


TOURNAMENT_ARGS = ["tournament", "--players", "2", "--bots", ",".join(SPLIT_BOTS), "--game-length", "short",
                   "--layout", "random", "--seed", "41", "--workers", "1", "--games", "6"]


def test_ctrl_c_on_the_command_prints_the_finished_games_and_exits_130(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    import ecliptic.sim.tournament as tour

    real = tour.play_game
    runner = CliRunner()
    monkeypatch.setattr(tour, "play_game", _interrupting(real, 2))
    out = runner.invoke(app, [*TOURNAMENT_ARGS, "--json"])
    assert out.exit_code == 130, out.output
    assert out.stderr.strip() == ("Error: interrupted after 2 of 6 games: the results are those of the 2 finished "
                                  "(games 0–1 of seed 41); play the rest with --first-game 2 --games 4 and merge the "
                                  "two --json files with tournament-merge")
    partial = json.loads(out.stdout)
    assert partial["partial"] is True and partial["games"] == 2 and partial["games_asked"] == 6
    monkeypatch.setattr(tour, "play_game", _interrupting(real, 2))
    table = runner.invoke(app, TOURNAMENT_ARGS)
    assert table.exit_code == 130 and "Partial: 2 of 6 games of tauceti" in table.stdout
    monkeypatch.setattr(tour, "play_game", _interrupting(real, 0))
    nothing = runner.invoke(app, [*TOURNAMENT_ARGS, "--json"])
    assert nothing.exit_code == 130 and nothing.stdout == ""
    assert nothing.stderr.strip() == "Error: interrupted before any game finished: nothing to show"
    monkeypatch.setattr(tour, "play_game", real)
    rest = runner.invoke(app, [*TOURNAMENT_ARGS[:-1], "4", "--first-game", "2", "--json"])
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(out.stdout)
    b.write_text(rest.stdout)
    merged = json.loads(runner.invoke(app, ["tournament-merge", str(a), str(b), "--json"]).stdout)
    whole = json.loads(runner.invoke(app, [*TOURNAMENT_ARGS, "--json"]).stdout)
    assert merged.pop("timing") and whole.pop("timing")
    assert merged == whole


# -- piped output: no terminal width to fit ---------------------------------------------------------

LONG_BOT = "heuristic:depth=1/epsilon=0.5/w.energy=0.1"


def test_a_piped_table_keeps_every_bot_name_whole_whatever_columns_says(tmp_path: Path) -> None:
    """Under CliRunner, as in a pipe, stdout is no terminal: Rich used to fit 80 columns (or $COLUMNS)
    and split ismcts:200ms into ismcts:200m / s. The same table must come out at any COLUMNS."""
    data = _run(2).to_json()
    names = {"random": "ismcts:200ms", "heuristic:depth=2": LONG_BOT}
    data["bots"] = [names[b] for b in data["bots"]]
    for game in data["results"]:
        game["bots"] = [names[b] for b in game["bots"]]
    path = tmp_path / "renamed.json"
    path.write_text(json.dumps(data))
    outputs = []
    for columns in ("40", "80", "400"):
        out = CliRunner(env={"COLUMNS": columns}).invoke(app, ["tournament-merge", str(path)])
        assert out.exit_code == 0, out.output
        outputs.append(out.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    lines = outputs[0].splitlines()
    assert lines[0].startswith("2 games of tauceti") and lines[0].endswith(f"bots ismcts:200ms,{LONG_BOT}")
    rows = {line.split()[0]: line.split() for line in lines if line.split()[:1] in (["ismcts:200ms"], [LONG_BOT])}
    assert set(rows) == {"ismcts:200ms", LONG_BOT} and all(len(row) == 9 for row in rows.values())


def test_ctrl_c_after_the_last_game_while_the_backend_closes_keeps_the_whole_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ray started for the run takes a while to shut down: Ctrl-C then comes after every game is in."""
    from ecliptic.sim.backends import LocalBackend

    def close(_self: LocalBackend) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LocalBackend, "close", close)
    out = CliRunner().invoke(app, [*TOURNAMENT_ARGS[:-1], "2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["games"] == 2 and "partial" not in data
