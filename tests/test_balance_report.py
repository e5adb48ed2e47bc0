"""The balance report: the fold of a study's records into results.json, and the page.

The fold is checked on records written by hand (exact situations: a shared win, a first player
other than seat 0, crises, the Market, comets) and on synthetic records in many interleavings;
the page on real small studies (short Tau Ceti games and Ceres games of random bots).
"""

from __future__ import annotations

import io
import itertools
import json
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ecliptic.balance import report as report_module
from ecliptic.balance.command import balance_app
from ecliptic.balance.report import ReportError, bins, render, write_report
from ecliptic.balance.results import ResultsError, fold, results_json
from ecliptic.balance.stats import ClusteredRate, clustered_rate_difference, holm, rate_difference, share_test, wilson
from ecliptic.balance.stream import StudyFileError, read_study
from ecliptic.balance.study import Arm, Study, base_arms, run_study

SHORT = {"game": "short", "layout": "players", "advanced": []}
FACTIONS = ["Azars", "Triolor", "Xunon", "Zorhkonian"]


def header(arms: list[tuple[str, int]], game: str = "tauceti", games: int = 10) -> dict[str, Any]:
    return {"format": "ecliptic-balance/1", "game": game, "players": arms[0][1], "bots": ["random"], "seed": 1,
            "games": games, "sweep": None,
            "arms": [{"name": n, "label": f"arm {n}", "players": p, "config": {"players": p}, "content": None}
                     for n, p in arms]}


def tc_record(arm: str, index: int, totals: list[int], first: int = 0, **extra: Any) -> dict[str, Any]:
    """A Tau Ceti record whose seats score ``totals`` (all of it TAU but 1 card each)."""
    n = len(totals)
    best = max(totals)
    winners = [s for s, t in enumerate(totals) if t == best]
    out: dict[str, Any] = {
        "arm": arm, "index": index, "seed": index, "bots": ["random"] * n, "factions": FACTIONS[:n],
        "first_player": first, "points": [{"tau": t - 1, "cards": 1, "total": t} for t in totals],
        "returns": [1 / len(winners) if s in winners else 0.0 for s in range(n)], "winners": winners,
        "rounds": 8, "decisions": 100 + index, "crises": [], "prevented": 0, "no_crisis_rounds": 0,
        "market": [{"Military": 1, "Science": 1}]}
    out.update(extra)
    return out


# -- the fold, on records written by hand --------------------------------------------------


def test_win_rates_positions_and_margins_by_hand() -> None:
    records = [
        tc_record("a", 0, [10, 8, 7, 3]),             # Azars wins by 2
        tc_record("a", 1, [9, 9, 2, 1], first=2),      # Azars and Triolor share: margin 0
        tc_record("a", 2, [1, 2, 3, 12], first=3),     # Zorhkonian, first player, wins by 9
        tc_record("a", 3, [5, 6, 4, 3], first=1),      # Triolor, first player, wins by 1
    ]
    arm = fold(header([("a", 4)]), records)["arms"][0]
    rates = {f["name"]: f["win_rate"] for f in arm["factions"]}
    assert rates == {"Azars": 1.5 / 4, "Triolor": 1.5 / 4, "Xunon": 0.0, "Zorhkonian": 0.25}
    # positions counted from the first player: game 1 (first 2) has the winners at positions 2 and 3
    positions = [p["win_rate"] for p in arm["positions"]]
    assert positions == [(1 + 1 + 1) / 4, 0.0, 0.5 / 4, 0.5 / 4]
    assert arm["margin"]["histogram"] == [[0, 1], [1, 1], [2, 1], [9, 1]]
    assert arm["margin"]["mean"] == 3.0
    assert arm["rounds"]["histogram"] == [[8, 4]]
    assert arm["decisions"]["mean"] == 101.5
    azars = arm["factions"][0]
    assert azars["points"]["tau"]["mean"] == (9 + 8 + 0 + 4) / 4 and azars["points"]["cards"]["mean"] == 1
    assert list(azars["points"]) == ["tau", "cards", "total"]  # the engine's order, the total last
    # the shared win (1/2) varies less than a win or a loss: the games' spread about 1.5/4,
    # (1 - .375)^2 + (.5 - .375)^2 + 2 (.375)^2 over 4^2 seat-games squared, is the rate's variance
    n_eff = 0.375 * 0.625 / (0.6875 / 16)
    assert azars["p"] == pytest.approx(share_test(0.375 * n_eff, n_eff, 0.25))
    assert [f["p_holm"] for f in arm["factions"]] == holm([f["p"] for f in arm["factions"]])
    assert arm["total_points"]["mean"] == pytest.approx(sum(sum(r["points"][s]["total"] for s in range(4))
                                                            for r in records) / 16)


def test_a_bot_in_several_seats_of_a_game_has_one_value_a_game() -> None:
    # "random" fills every seat of every game: its returns add up to 1 a game, exactly 1/4 a
    # seat-game, which the rules fix; the interval over seat-games (as if independent) had a width
    records = [tc_record("a", i, [10, 8, 7, 3] if i % 2 else [1, 9, 2, 3]) for i in range(6)]
    (bot,) = fold(header([("a", 4)]), records)["arms"][0]["bots"]
    assert (bot["games"], bot["win_rate"]) == (24, 0.25)
    assert bot["interval"] == [0.25, 0.25] and bot["p"] == 1.0
    # "heuristic" in seats 0 and 2, "random" in 1 and 3: heuristic wins games 0, 2, 4 (seat 0 or 2)
    mixed = [tc_record("a", i, [10, 8, 7, 3] if i % 2 == 0 else [1, 9, 2, 3], bots=["heuristic", "random"] * 2)
             for i in range(6)]
    bots = {b["name"]: b for b in fold(header([("a", 4)]), mixed)["arms"][0]["bots"]}
    n_eff = 0.25 * 0.75 / (6 * 0.5 ** 2 / 12 ** 2)  # its games' totals, 1 or 0, about 2 x 1/4
    assert bots["heuristic"]["interval"] == pytest.approx(list(wilson(0.25 * n_eff, n_eff)))
    assert bots["heuristic"]["interval"][1] < wilson(3, 12)[1]


def test_a_faction_that_never_won_needs_the_games_of_one_at_its_fair_share() -> None:
    # Xunon (seat 2) never wins: worked at its rate of 0 the variance vanished and 14 games "sufficed".
    records = [tc_record("a", i, [10, 8, 7, 3] if i % 2 else [1, 9, 2, 3]) for i in range(6)]
    factions = {f["name"]: f for f in fold(header([("a", 4)]), records)["arms"][0]["factions"]}
    assert factions["Xunon"]["win_rate"] == 0.0 and factions["Zorhkonian"]["win_rate"] == 0.0
    assert factions["Xunon"]["games_needed"] == 610  # that of a rate at the fair 25%
    assert factions["Azars"]["win_rate"] == 0.5 and factions["Azars"]["games_needed"] == 783  # nearer 1/2: its own


def test_crises_market_and_comets_by_hand() -> None:
    records = [
        tc_record("a", 0, [3, 1], crises=[[1, "Biohazard", "Azar"], [2, "Biohazard", "Xuno"], [2, "Cosmic", "Azar"]],
                  prevented=2, no_crisis_rounds=1,
                  market=[{"Military": 1, "Science": 1}, {"Military": 3, "Science": 1}]),
        tc_record("a", 1, [1, 3], crises=[[1, "Cosmic", "Azar"]], prevented=0, no_crisis_rounds=3,
                  market=[{"Military": 2, "Science": 1}]),
    ]
    crises = fold(header([("a", 2)]), records)["arms"][0]["crises"]
    assert crises["types"] == [
        {"name": "Biohazard", "activations": 2, "per_game": 1.0, "games_with": 1, "share_of_games": 0.5},
        {"name": "Cosmic", "activations": 2, "per_game": 1.0, "games_with": 2, "share_of_games": 1.0}]
    assert [(p["name"], p["activations"]) for p in crises["planets"]] == [("Azar", 3), ("Xuno", 1)]
    assert crises["prevented"]["total"] == 2 and crises["no_crisis_rounds"]["mean"] == 2.0
    market = fold(header([("a", 2)]), records)["arms"][0]["market"]
    assert market["rounds"] == [{"round": 1, "games": 2, "levels": {"Military": 1.5, "Science": 1.0}},
                                {"round": 2, "games": 1, "levels": {"Military": 3.0, "Science": 1.0}}]
    ceres = {"arm": "c", "index": 0, "seed": 0, "bots": ["random"] * 2, "factions": ["Player 1", "Player 2"],
             "first_player": 1, "points": [{"asteroids": 4, "tail_tokens": 2, "nucleus_tables": 1, "total": 7},
                                           {"asteroids": 6, "tail_tokens": 0, "nucleus_tables": 0, "total": 6}],
             "returns": [1.0, 0.0], "winners": [0], "rounds": 9, "decisions": 40,
             "comets": {"launches": 3, "stays": 1, "jumps": 2, "explosions": 1}}
    plain = {**ceres, "arm": "p"}
    del plain["comets"]
    results = fold(header([("p", 2), ("c", 2)], game="ceres"), [ceres, plain])
    without, with_comets = results["arms"]
    assert without["comets"] is None and without["crises"] is None and without["market"] is None
    assert with_comets["comets"]["games"] == 1 and with_comets["comets"]["jumps"]["mean"] == 2.0
    assert with_comets["positions"][1]["points"]["tail_tokens"]["mean"] == 2  # seat 0 is position 1


def test_comparisons_are_one_holm_family_and_allow_for_the_fair_share() -> None:
    rng = random.Random(4)
    records = []
    for i in range(40):
        records.append(tc_record("base", i, [rng.randint(0, 20) for _ in range(4)], first=i % 4,
                                 rounds=rng.randint(6, 10)))
        records.append(tc_record("two", i, [rng.randint(0, 20) for _ in range(2)], first=i % 2,
                                 rounds=rng.randint(6, 10)))
        records.append(tc_record("solo", i, [rng.randint(0, 20)], rounds=rng.randint(6, 10)))
    results = fold(header([("base", 4), ("two", 2), ("solo", 1)]), records)

    def returns_of(arm: str, faction: str) -> ClusteredRate:  # the faction's one seat a game, by hand
        c = ClusteredRate()
        for rec in records:
            if rec["arm"] == arm and faction in rec["factions"]:
                won = Fraction(rec["returns"][rec["factions"].index(faction)]).limit_denominator(4)
                c.add(won, 1, len(rec["factions"]))
        return c
    rows = results["comparisons"]
    assert not any(r["constant"] for r in rows)
    assert [r["p_holm"] for r in rows] == holm([r["p"] for r in rows])  # one family over every measure
    assert {r["measure"] for r in rows} == {"win_rate", "total", "rounds"}
    rates = [r for r in rows if r["measure"] == "win_rate"]
    assert {r["arm"] for r in rates} == {"two"}  # a solo game's win is not a share of a table's
    base = {f["name"]: f for f in results["arms"][0]["factions"]}
    for r in rates:
        two = next(f for f in results["arms"][1]["factions"] if f["name"] == r["group"])
        expected = clustered_rate_difference(returns_of("two", r["group"]), returns_of("base", r["group"]),
                                             null=0.5 - 0.25)
        # Ties share wins here, which vary less than a win or a loss: the seat-games' test is wider.
        naive = rate_difference(two["wins"], two["games"], base[r["group"]]["wins"], base[r["group"]]["games"],
                                null=0.5 - 0.25)
        assert expected.value == pytest.approx(naive.value) and expected.p <= naive.p
        assert (r["difference"], r["null"], r["p"]) == (expected.value, 0.25, expected.p)
    solo = results["arms"][2]
    assert solo["margin"] is None and solo["factions"][0]["p"] is None and solo["factions"][0]["fair_share"] is None


def test_a_mean_the_same_in_every_game_of_both_arms_is_left_out_of_the_holm_family() -> None:
    # Every game lasts 8 rounds in both arms (as Ceres' 3): "mean rounds" cannot differ, and counting
    # it in the family would make the correction of the win rates and totals stricter.
    rng = random.Random(4)
    records = [tc_record(arm, i, [rng.randint(6 if arm == "b" and s == 0 else 0, 20) for s in range(4)], first=i % 4)
               for i in range(40) for arm in ("base", "b")]  # Azars (seat 0) score higher in arm b
    results = fold(header([("base", 4), ("b", 4)], games=40), records)
    rows = results["comparisons"]
    rounds = next(r for r in rows if r["measure"] == "rounds")
    assert (rounds["constant"], rounds["p"], rounds["p_holm"], rounds["significant"]) == (True, 1.0, None, False)
    tested = [r for r in rows if r["measure"] != "rounds"]
    assert not any(r["constant"] for r in tested)
    assert [r["p_holm"] for r in tested] == holm([r["p"] for r in tested])
    assert [r["p_holm"] for r in tested] != holm([r["p"] for r in rows])[:-1]  # the old, stricter family
    assert results["holm_families"]["comparisons"] == (
        "all 5 comparisons with the base arm that can differ, one family; 1 more is the same in every game of "
        "both arms, known exactly, and left out")
    page = _page(results)
    assert any(line.startswith("Against the base arm (arm base): ") and " of the 5 comparisons are" in line
               for line in page.conclusions())
    assert ("Not tested, as the same in every game of the arm and of the base (known exactly, left out of Holm's "
            "correction, which they would only make stricter): arm b, mean rounds 8.00 rounds in every game of "
            "both.") in page.conclusions()
    assert any("All 5 comparisons of arms against the base arm on this page that can differ" in note
               and "1 more, a measure the same in every game of both arms, is known exactly" in note
               for note in page.notes())
    length = next(b for b in page.comparisons() if b.title == "Mean rounds")
    assert _cells(length)[0][7:9] == ["–", "no (the same in every game of both)"]
    from rich.console import Console

    terminal = Console(record=True, width=200)
    terminal.print(report_module.summary(results))
    assert ("of the 5 comparisons with the base arm are significant after Holm; 1 more cannot differ (the same in "
            "every game of both arms) and is left out of the correction") in terminal.export_text()


def synthetic(rng: random.Random, arm: str, index: int, players: int) -> dict[str, Any]:
    """A record with shared wins often (totals from a narrow range), so that returns such as 1/3
    are summed: a float sum of them would depend on the order."""
    totals = [rng.randint(5, 8) for _ in range(players)]
    crises = [[rng.randint(1, 8), rng.choice(["Biohazard", "Cosmic", "Political"]), rng.choice(["Azar", "Xuno"])]
              for _ in range(rng.randint(0, 3))]
    return tc_record(arm, index, totals, first=rng.randrange(players), crises=crises, rounds=rng.randint(6, 10),
                     market=[{"Military": rng.randint(1, 5)} for _ in range(rng.randint(1, 4))])


def test_the_fold_does_not_depend_on_the_interleaving_of_the_arms() -> None:
    rng = random.Random(11)
    records = [synthetic(rng, arm, i, players) for i in range(150) for arm, players in (("a", 4), ("b", 3))]
    assert any(0 < r < 0.5 for rec in records for r in rec["returns"])  # shared wins of three are there
    head = header([("a", 4), ("b", 3)], games=150)
    expected = results_json(fold(head, records))
    for seed in range(3):
        shuffled = records[:]
        random.Random(seed).shuffle(shuffled)
        assert results_json(fold(head, shuffled)) == expected
    by_arm = [r for r in records if r["arm"] == "a"] + [r for r in records if r["arm"] == "b"][::-1]
    assert results_json(fold(head, by_arm)) == expected
    assert results_json(fold(head, iter(records))) == expected  # a stream is enough


@pytest.mark.parametrize(("change", "words"), [
    ({"arm": "nope"}, "no arm of the study is named 'nope'"),
    ({"arm": ["a"]}, "no arm of the study is named ['a']"),
    ({"points": [{"total": 1}]}, "'points' must list the 4 seats"),
    ({"returns": [2, 0, 0, 0]}, "'returns' must be numbers from 0 to 1"),
    ({"first_player": 4}, "'first_player' must be a seat"),
    ({"winners": [7]}, "'winners' must list seats"),
    ({"rounds": "8"}, "'rounds' must be a whole number"),
    ({"crises": [[1, "Cosmic"]]}, "'crises' must list [round, crisis type, planet]"),
    ({"market": [{"Military": "high"}]}, "'market' must list each round's levels by resource"),
    ({"comets": {"launches": 1}}, "'comets' must count launches"),
])
def test_a_bad_record_is_a_clear_error(change: dict[str, Any], words: str) -> None:
    good = tc_record("a", 3, [1, 2, 3, 4])
    if "comets" in change:
        del good["crises"]
    with pytest.raises(ResultsError, match=re.escape(words)) as caught:
        fold(header([("a", 4)]), [tc_record("a", 0, [1, 2, 3, 4]), {**good, **change}])
    assert str(caught.value).startswith("the study file, line 3")


def test_a_bad_header_is_a_clear_error() -> None:
    with pytest.raises(ResultsError, match="game is 'chess'"):
        fold({**header([("a", 4)]), "game": "chess"}, [])
    with pytest.raises(ResultsError, match="two arms 'a'"):
        fold(header([("a", 4), ("a", 2)]), [])


def test_bins_are_one_per_value_or_round_widths() -> None:
    assert bins([{3: 1, 5: 2}, {4: 1}]) == [(3, 4), (4, 5), (5, 6)]
    assert bins([{120: 1, 899: 1}]) == [(lo, lo + 50) for lo in range(100, 900, 50)]
    assert bins([{0: 1, 26: 1}]) == [(lo, lo + 2) for lo in range(0, 27, 2)]
    assert bins([]) == []


# -- the report of real small studies --------------------------------------------------------


@pytest.fixture(scope="module")
def studies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """8 short Tau Ceti games on two arms (Advanced Rules off, Advanced Rule 9 alone) and 8 Ceres
    games without and with the Comets, all of random bots; each with its report written."""
    root = tmp_path_factory.mktemp("balance")
    tc_arms = (Arm("off", "Advanced Rules off", 4, {**SHORT, "players": 4}),
               Arm("rule-9", "Advanced Rule 9 alone", 4, {**SHORT, "advanced": [9], "players": 4}))
    out = {}
    for name, study in (("tauceti", Study("tauceti", ("random",), 8, 5, tc_arms, "advanced")),
                        ("ceres", Study("ceres", ("random",), 8, 5, tuple(base_arms("ceres", 3, {}, "comets")),
                                        "comets"))):
        folder = root / name
        run_study(study, folder / "games.jsonl")
        write_report(folder / "games.jsonl", folder)
        out[name] = folder
    return out


def test_the_page_names_every_faction_and_arm_and_its_figures_exist(studies: dict[str, Path]) -> None:
    for name, folder in studies.items():
        page = (folder / "index.html").read_text(encoding="utf-8")
        study = read_study(folder / "games.jsonl")
        for arm in study.header["arms"]:
            assert arm["label"] in page
        if name == "tauceti":
            for faction in FACTIONS:
                assert faction in page
            for words in ("Crisis types", "Market levels", "GP by source", "TAU"):
                assert words in page
        else:
            for words in ("Comet outcomes", "Tail tokens", "Nucleus tables", "VP by source", "Explosions"):
                assert words in page
        assert "ONE Holm family" in page and "Significant after Holm" in page
        assert "ecliptic balance report" in page
        images = re.findall(r'<img src="([^"]+)"', page)
        assert images and all((folder / src).is_file() for src in images)
        assert sorted(images) == sorted(f"figures/{p.name}" for p in (folder / "figures").glob("*.svg"))
        assert not re.search(r"(https?:)?//|<script|<link", page)  # self-contained: nothing to fetch


def test_results_json_is_the_fold_of_the_file_and_rebuilding_gives_the_same_bytes(
        studies: dict[str, Path], tmp_path: Path) -> None:
    folder = studies["tauceti"]
    study = read_study(folder / "games.jsonl")
    assert (folder / "results.json").read_text(encoding="utf-8") == results_json(fold(study.header, study.records()))
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert [a["games"] for a in results["arms"]] == [8, 8]
    assert not re.search(r"seconds|date|time", (folder / "results.json").read_text(encoding="utf-8"), re.I)
    again = tmp_path / "again"
    write_report(folder / "games.jsonl", again)
    for path in [Path("results.json"), *(p.relative_to(folder) for p in (folder / "figures").glob("*.svg"))]:
        assert (again / path).read_bytes() == (folder / path).read_bytes(), path


def test_names_are_shown_as_text_never_as_markup(tmp_path: Path) -> None:
    head = header([("a", 2), ("b", 2)])
    head["arms"][1]["label"] = "<img src=x onerror=alert(1)>"
    head["arms"][1]["content"] = {"folder": "printed & <b>final</b>", "digest": "9f2c41d0"}
    records = [tc_record(arm, i, [i % 3, 1]) for i in range(4) for arm in ("a", "b")]
    page = render(fold(head, records), tmp_path, command="ecliptic balance report games.jsonl").read_text("utf-8")
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<b>final" not in page and "printed &amp; &lt;b&gt;final&lt;/b&gt; (digest 9f2c41d0)" in page
    assert "the packaged stand-ins" in page  # the header's content: arm a plays them


def test_a_corrupt_line_or_a_missing_file_is_a_clear_error(studies: dict[str, Path], tmp_path: Path) -> None:
    lines = (studies["ceres"] / "games.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    broken = tmp_path / "games.jsonl"
    broken.write_text("".join([*lines[:3], '{"arm": "with-comets", "index": \n', *lines[3:]]), encoding="utf-8")
    with pytest.raises(StudyFileError, match="line 4: not JSON"):
        write_report(broken, tmp_path / "out")
    result = CliRunner().invoke(balance_app, ["report", str(broken), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "line 4: not JSON" in result.output and "Traceback" not in result.output
    with pytest.raises(StudyFileError, match="cannot read the study file"):
        write_report(tmp_path / "none.jsonl", tmp_path / "out")
    assert not (tmp_path / "out" / "index.html").exists()


def test_without_the_balance_extra_the_report_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    real = report_module.importlib.util.find_spec
    monkeypatch.setattr(report_module.importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    with pytest.raises(ReportError, match=re.escape("install the balance extra: pip install 'ecliptic[balance]'")):
        write_report(tmp_path / "games.jsonl", tmp_path)
    assert not list(tmp_path.iterdir())


def test_a_report_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "out"
    blocker.write_text("a file, not a folder", encoding="utf-8")
    records = [tc_record("a", i, [i, 1]) for i in range(3)]
    with pytest.raises(ReportError, match="cannot write the report into"):
        render(fold(header([("a", 2)]), records), blocker, command="ecliptic balance report games.jsonl")
    assert blocker.read_text(encoding="utf-8") == "a file, not a folder"


def test_mean_intervals_are_cut_at_zero_where_the_quantity_cannot_cross_it(tmp_path: Path) -> None:
    from ecliptic.balance.stats import Moments

    def seat(cubes: int, virus: int, assists: int) -> dict[str, int]:
        return {"tau": 3, "cubes": cubes, "virus_crystals": virus, "assists": assists,
                "total": 3 + cubes + virus + assists}

    # Azars (seat 0): one game in eight with a Resource cube, one with a virus crystal, assists -1 and +1;
    # Triolor (seat 1) the same games, on the arm "odd" with a content whose cube GP is negative once.
    azars = [seat(1, -1, -1), seat(0, 0, 1), *[seat(0, 0, 0)] * 6]
    records = [tc_record("a", i, [0, 0], points=[azars[i], seat(0, 0, 0)], prevented=2 if i == 0 else 0)
               for i in range(8)]
    records += [tc_record("odd", i, [0, 0], points=[seat(0, 0, 0), seat(-1 if i == 0 else 1 if i == 1 else 0, 0, 0)])
                for i in range(8)]
    results = fold(header([("a", 2), ("odd", 2)]), records)
    arm, odd = results["arms"]

    def t_interval(values: list[int]) -> tuple[float, float]:
        m = Moments()
        for v in values:
            m.add(v)
        return m.interval()

    points = arm["factions"][0]["points"]
    cubes_low, cubes_high = t_interval([1] + [0] * 7)
    assert cubes_low < 0  # Student's t alone reaches below any game's GP of Resource cubes
    assert (points["cubes"]["low"], points["cubes"]["high"], points["cubes"]["mean"]) == (0.0, cubes_high, 0.125)
    virus_low, virus_high = t_interval([-1] + [0] * 7)
    assert virus_high > 0  # and above any game's deduction
    assert (points["virus_crystals"]["low"], points["virus_crystals"]["high"]) == (virus_low, 0.0)
    assert (points["assists"]["low"], points["assists"]["high"]) == t_interval([-1, 1] + [0] * 6)  # either sign
    assert arm["crises"]["prevented"]["low"] == 0.0 > t_interval([2] + [0] * 7)[0]
    triolor = odd["factions"][1]["points"]["cubes"]
    assert (triolor["low"], triolor["high"]) == t_interval([-1, 1] + [0] * 6)  # a negative cube GP: not cut
    page = render(results, tmp_path, command="ecliptic balance report games.jsonl").read_text("utf-8")
    assert "The interval of a mean is cut at 0 where the quantity cannot cross it" in page
    assert "from above for a deduction (Advanced Rules 7-9); assists, the total" in page


# -- the page as a designer reads it ---------------------------------------------------------


def _conclusions(page: str) -> list[str]:
    import html

    found = re.search(r'<ul class="conclusions">(.*?)</ul>', page, re.S)
    assert found, "the page has no 'What this study shows' list"
    return [html.unescape(li) for li in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]


class _NoFigures:
    """Stands in for ecliptic.balance.figures where a test reads the page's words, not its figures
    (drawing them is most of a report's time)."""

    from ecliptic.balance.figures import Series

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None


def _page(results: dict[str, Any]) -> Any:
    page = report_module._Page(results, Path("figures"))
    page.draw = _NoFigures()
    return page


def _cells(block: Any) -> list[list[str]]:
    return [list(row) for table in block.tables for row in table.rows]


def test_the_page_says_what_the_study_shows_and_that_too_few_games_measure_nothing() -> None:
    # Arm a: Azars (seat 0, always the first player) wins all 40 games, arm b: Triolor; Xunon and Zorhkonian never.
    records = [tc_record(arm, i, [10, 1, 2, 3] if arm == "a" else [1, 10, 2, 3]) for i in range(40) for arm in "ab"]
    page = _page(fold(header([("a", 4), ("b", 4)], games=40), records))
    lines = page.conclusions()
    factions = next(line for line in lines if line.startswith("arm a: Factions (fair share 25.0%)"))
    assert "significantly off the fair share after Holm: Azars 100.0% [91.2%, 100.0%]" in factions
    seats = next(line for line in lines if line.startswith("arm a: Seat order, from the first player"))
    assert "first player (0) 100.0%" in seats
    assert any("arm b, win rate of Triolor 0.0% → 100.0%" in line for line in lines)
    # Xunon and Zorhkonian win 0% in both arms: the same rate, but 40 games cannot tell a 5-point difference
    assert any(line.startswith("2 of the other comparisons rest on fewer games per arm than needed") for line in lines)
    rates = next(b for b in page.comparisons() if b.title == "Win rates")
    assert [row[8] for row in _cells(rates) if row[1] in ("win rate of Xunon", "win rate of Zorhkonian")] == [
        "no (too few games to tell)"] * 2

    # Evenly shared wins on 40 games: no rate is off, and none is measured either.
    even = [tc_record("a", i, [10 if s == i % 4 else 1 for s in range(4)]) for i in range(40)]
    page = _page(fold(header([("a", 4)], games=40), even))
    factions = next(line for line in page.conclusions() if line.startswith("Factions"))
    assert "none is significantly off it, but with 40 games each a difference of 5 points needs about" in factions
    assert "not measured, which is not evidence of balance" in factions
    assert {row[7] for row in _cells(page.win_rates("factions"))} == {"no (too few games to tell)"}
    # ... and on 800 such games a 5-point difference would have shown: within about 5 points.
    many = [tc_record("a", i, [10 if s == i % 4 else 1 for s in range(4)]) for i in range(800)]
    page = _page(fold(header([("a", 4)], games=800), many))
    factions = next(line for line in page.conclusions() if line.startswith("Factions"))
    assert factions.endswith("Azars, Triolor, Xunon, Zorhkonian are within about 5 points of it (not significantly "
                             "off it, on enough games to see 5 points four times in five).")
    assert {row[7] for row in _cells(page.win_rates("factions"))} == {"no"}
    assert not any("not measured" in line for line in page.conclusions())


def test_stand_ins_are_marked_and_positions_named_alike_on_the_page_and_in_the_summary(
        studies: dict[str, Path]) -> None:
    from rich.console import Console

    from ecliptic.balance.report import summary

    for game, doc in (("tauceti", "docs/content-stand-ins.md"), ("ceres", "docs/ceres.md")):
        page = (studies[game] / "index.html").read_text(encoding="utf-8")
        stand_ins = _conclusions(page)[0]
        assert stand_ins.startswith("Stand-in numbers: every arm plays")
        assert "invented" in stand_ins and doc in stand_ins
        assert re.search(r"<th>Content</th><td>the packaged stand-ins \([^<]*invented[^<]*" + re.escape(doc), page)
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(summary(json.loads((studies[game] / "results.json").read_text(encoding="utf-8"))))
        text = console.export_text()
        assert "Stand-in numbers: every arm plays the packaged stand-ins (" in text and doc in text
    ceres = (studies["ceres"] / "index.html").read_text(encoding="utf-8")  # positions named one way throughout
    assert "<td>win rate of first player (0)</td>" in ceres and "position 0" not in ceres
    # An owner's content beside the stand-ins: only the stand-in arm is marked.
    head = header([("a", 2), ("b", 2)])
    head["arms"][1]["content"] = {"folder": "printed", "digest": "0123456789abcdef" * 4}
    page = _page(fold(head, [tc_record(arm, i, [i % 3, 1]) for i in range(4) for arm in ("a", "b")]))
    assert page.conclusions()[0].startswith("Stand-in numbers: the arm on the stand-ins (arm a) plays the packaged")
    # the arms table names the content by the start of its digest, so that the table fits a laptop's width
    assert [row[4] for row in page.arm_rows().rows] == ["stand-ins", "printed (digest 0123456789ab)"]


def test_win_rate_axes_read_in_percent_as_the_tables(studies: dict[str, Path]) -> None:
    svg = (studies["tauceti"] / "figures" / "win-rate-factions.svg").read_text(encoding="utf-8")
    ticks = re.findall(r">(\d+)%</text>", svg)
    assert len(ticks) >= 3, "the win-rate axis is not written in percent"


def test_wide_tables_wrap_between_a_mean_and_its_interval_never_inside_it(studies: dict[str, Path]) -> None:
    page = (studies["tauceti"] / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"td\s*\{[^}]*nowrap", page)  # a cell may wrap, so a 10-column table fits 1280 pixels
    cells = re.findall(r"<td>([^<]*\[[^<]*\])</td>", page)
    assert cells and all(" " not in c[c.index("["):] for c in cells)  # "[9.64, 10.32]" stays on one line
    assert any("\u00a0" in c for c in cells)


def test_the_crisis_heatmaps_colour_bar_reads_as_numbers_up_to_the_largest(tmp_path: Path) -> None:
    # One arm (the usual study): beside one row a vertical bar had room for 0.0, 0.5 and 1.0 only,
    # and no colour of the cells (about 1.4 crises a game) could be read off it.
    from ecliptic.balance.figures import heatmap

    path = tmp_path / "crises.svg"
    heatmap(path, "Crises that became active, per game", ["arm a"], ["Biohazard", "Chemical", "Cosmic"],
            [[1.33, 1.40, 1.21]], "crises per game")
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text(encoding="utf-8"))
    assert texts[-1] == "crises per game"  # the bar is named
    ticks = [float(t) for t in texts[texts.index("Crises that became active, per game") + 1:-1]]
    assert len(ticks) >= 5 and ticks[0] == 0.0 and ticks[-1] >= 1.2
    steps = {round(100 * (b - a)) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1  # evenly spaced, round numbers
