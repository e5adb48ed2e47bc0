"""Playing an owner's printed values: a folder of content files read into a ContentPack, played
by ``using_content`` (and ``simulate``/``tournament --content``), side by side with the packaged
stand-ins in one process, never changing anything when the folder is bad."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ecliptic.cli import app
from ecliptic.engine.errors import ContentError
from ecliptic.games import ContentPack, content_slot, get_game, using_content
from ecliptic.present.names import name_of
from ecliptic.sim.simulate import simulate
from ecliptic.sim.tournament import merge, run_tournament

FACTIONS = ["Zorhkonian", "Xunon", "Triolor", "Azars"]
SHORT = {"game": "short", "layout": "preset"}


def _copy(game: str, folder: Path, only: tuple[str, ...] | None = None) -> Path:
    """The packaged content files of ``game`` (or only some of them) copied into ``folder``."""
    slot = content_slot(game)
    folder.mkdir(parents=True, exist_ok=True)
    for filename, text in slot.packaged_texts().items():
        if only is None or filename in only:
            (folder / filename).write_text(text, encoding="utf-8")
    return folder


def _edit(folder: Path, filename: str, old: str, new: str) -> None:
    path = folder / filename
    changed, count = re.subn(old, new, path.read_text(encoding="utf-8"), count=1, flags=re.MULTILINE)
    assert count == 1, f"pattern {old!r} not found in {filename}"
    path.write_text(changed, encoding="utf-8")


@pytest.fixture
def rich_zorhkon(tmp_path: Path) -> ContentPack:
    """Tau Ceti with Zorhkonian starting on 31T (the packaged stand-in is 12T)."""
    folder = _copy("tauceti", tmp_path / "rich")
    _edit(folder, "factions.toml", r"^start_tau = 12$", "start_tau = 31")
    return ContentPack.read("tauceti", folder)


@pytest.fixture
def icy(tmp_path: Path) -> ContentPack:
    """Ceres from a folder holding only belt.toml, with 3 starting Ice (the stand-in is 1)."""
    folder = _copy("ceres", tmp_path / "icy", only=("belt.toml",))
    _edit(folder, "belt.toml", r"^start_ice = 1\b", "start_ice = 3")
    return ContentPack.read("ceres", folder)


def _tau(pack: ContentPack | None) -> list[int]:
    game = get_game("tauceti")
    with using_content(pack):
        state = game.new_game({"players": 4, "factions": FACTIONS}, 1)
        return [p["tau"] for p in game.observe(state, 0)["players"]]


def _ice(pack: ContentPack | None) -> list[int]:
    game = get_game("ceres")
    with using_content(pack):
        state = game.new_game({"players": 2}, 1)
        return [p.resources["Ice"] for p in state.players]


def _sim(game: str, pack: ContentPack | None, workers: int = 1, games: int = 3) -> dict[str, Any]:
    config = SHORT if game == "tauceti" else {"expansions": ["comets"]}
    out = simulate(game, 2, games, 5, "random", config, workers=workers, content=pack).deterministic_json()
    return out


# -- what a pack changes ------------------------------------------------------------------------


def test_a_changed_start_tau_shows_in_the_new_game_and_its_observation(rich_zorhkon: ContentPack) -> None:
    assert _tau(None)[0] == 12
    assert _tau(rich_zorhkon) == [31, *_tau(None)[1:]]
    assert rich_zorhkon.from_folder == tuple(f"{n}.toml" for n in content_slot("tauceti").files)


def test_ceres_plays_a_folder_of_one_file_with_the_other_packaged(icy: ContentPack) -> None:
    assert icy.from_folder == ("belt.toml",)
    assert dict(icy.texts)["comets.toml"] == content_slot("ceres").packaged_texts()["comets.toml"]
    assert _ice(icy) == [ice + 2 for ice in _ice(None)]  # the Ice of round 1's Production on top


def test_a_look_up_remembered_from_the_content_follows_it(tmp_path: Path) -> None:
    """Presentation caches (here the component names) are worked out again for a pack."""
    folder = _copy("tauceti", tmp_path / "renamed", only=("tiles.toml",))
    _edit(folder, "tiles.toml", r'^name = "Zorhkon"$', 'name = "Zorhkon Prime"')
    pack = ContentPack.read("tauceti", folder)
    before = name_of("tauceti", "ZORHKON")
    assert before is not None and before[0] == "Zorhkon"
    with using_content(pack):
        inside = name_of("tauceti", "ZORHKON")
        assert inside is not None and inside[0] == "Zorhkon Prime"
    assert name_of("tauceti", "ZORHKON") == before


def test_the_observation_encoder_is_built_again_for_another_content(icy: ContentPack) -> None:
    from ecliptic.adapters.observation import encoder

    stand_ins = encoder("ceres")
    assert encoder("ceres") is stand_ins  # remembered while the content stays
    with using_content(icy):
        assert encoder("ceres") is not stand_ins
    assert encoder("ceres") is not stand_ins  # and again after: nothing of the pack's is kept


# -- the same texts, the same results ------------------------------------------------------------


@pytest.mark.parametrize("game", ["tauceti", "ceres"])
def test_a_copy_of_the_packaged_files_plays_exactly_the_stand_ins(game: str, tmp_path: Path) -> None:
    pack = ContentPack.read(game, _copy(game, tmp_path / "copy"))
    slot = content_slot(game)
    assert pack.digest == ContentPack.packaged(game).digest
    assert slot.decode(dict(pack.texts)) == slot.packaged()  # the texts decode to the packaged values
    played = _sim(game, pack)
    assert played.pop("content") == {"folder": str(tmp_path / "copy"), "digest": pack.digest,
                                     "files": list(pack.from_folder)}
    assert played == _sim(game, None)


def test_switching_back_and_forth_in_one_process_gives_each_content_its_results(
        rich_zorhkon: ContentPack, icy: ContentPack) -> None:
    stand_ins, rich = _sim("tauceti", None), _sim("tauceti", rich_zorhkon)
    ceres, ceres_icy = _sim("ceres", None), _sim("ceres", icy)
    assert rich["factions"] != stand_ins["factions"] and ceres_icy["factions"] != ceres["factions"]
    assert _sim("tauceti", None) == stand_ins
    assert _sim("ceres", icy) == ceres_icy
    assert _sim("tauceti", rich_zorhkon) == rich
    assert _sim("ceres", None) == ceres
    assert content_slot("tauceti").active() is content_slot("tauceti").packaged()


def test_worker_processes_play_the_pack_each_task_carries(rich_zorhkon: ContentPack) -> None:
    """Two workers, games of the pack: the pack travels with the tasks (a worker has no folder)
    and the results are those of this process."""
    assert _sim("tauceti", rich_zorhkon, workers=2, games=4) == _sim("tauceti", rich_zorhkon, games=4)


def test_a_pack_survives_pickle(icy: ContentPack) -> None:
    copy = pickle.loads(pickle.dumps(icy))
    assert copy == icy and copy.digest == icy.digest
    assert _ice(copy) == _ice(icy)


def test_using_content_restores_the_content_after_an_error(icy: ContentPack) -> None:
    slot = content_slot("ceres")
    stand_ins = _ice(None)
    with pytest.raises(RuntimeError), using_content(icy):
        assert slot.active() is icy.content()
        raise RuntimeError("a failing game")
    assert slot.active() is slot.packaged()
    with using_content(icy), using_content(None):  # None: the stand-ins, inside a pack's block
        assert _ice(None) == stand_ins
        assert slot.active() is slot.packaged()


# -- bad folders ---------------------------------------------------------------------------------

Change = Callable[[Path], None]


def _append(filename: str, text: str) -> Change:
    def change(folder: Path) -> None:
        with (folder / filename).open("a", encoding="utf-8") as fh:
            fh.write(text)
    return change


def _sub(filename: str, old: str, new: str) -> Change:
    return lambda folder: _edit(folder, filename, old, new)


BAD: dict[str, tuple[Change, str]] = {
    "invalid TOML": (_append("cards.toml", "\nthis is = = not toml\n"), r"cards\.toml: not valid TOML"),
    "a wrong type": (_sub("factions.toml", r"^start_tau = 12$", 'start_tau = "twelve"'), r"start_tau"),
    "a rule broken": (_sub("factions.toml", r"^start_tau = 12$", "start_tau = 5"),
                      r"faction Zorhkonian: every alien character starts with at least 10T"),
    "an unknown file": (lambda folder: (folder / "card.toml").write_text(""),
                        r"card\.toml is not a tauceti content file; the tauceti content files are game\.toml"),
    "a renamed component": (_sub("cards.toml", r'^id = "M01"$', 'id = "M99"'),
                            r"action id table does not number .*M99.*keep the packaged component ids"),
    "a file that is not text": (lambda folder: (folder / "tiles.toml").write_bytes(b"\xff\xfe\x00"),
                                r"tiles\.toml"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_folder_is_refused_naming_the_file_or_value_and_changes_nothing(case: str, tmp_path: Path) -> None:
    change, message = BAD[case]
    folder = _copy("tauceti", tmp_path / "bad")
    change(folder)
    slot = content_slot("tauceti")
    before = slot.active()
    with pytest.raises(ContentError, match=message) as refused:
        ContentPack.read("tauceti", folder)
    assert str(folder) in str(refused.value)
    assert slot.active() is before
    assert _tau(None)[0] == 12


def test_a_folder_without_content_files_or_no_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "README.txt").write_text("my printed values")
    with pytest.raises(ContentError, match="holds none of the ceres content files"):
        ContentPack.read("ceres", tmp_path)
    with pytest.raises(ContentError, match="is not a folder"):
        ContentPack.read("ceres", tmp_path / "README.txt")


def test_a_copy_of_the_whole_package_folder_reads(tmp_path: Path) -> None:
    """The action id table beside the content files is not content: it is left out."""
    folder = _copy("ceres", tmp_path / "package")
    ids = resources.files("ecliptic.ceres.content").joinpath("action-ids.toml").read_text(encoding="utf-8")
    (folder / "action-ids.toml").write_text(ids)
    assert ContentPack.read("ceres", folder).digest == ContentPack.packaged("ceres").digest


# -- the commands ----------------------------------------------------------------------------------

RUNNER = CliRunner(env={"COLUMNS": "200"})


def test_simulate_content_plays_the_folder_and_says_its_digest(rich_zorhkon: ContentPack, tmp_path: Path) -> None:
    folder = tmp_path / "rich"
    args = ["simulate", "--game", "tauceti", "--players", "2", "--games", "2", "--seed", "5", "--bot", "random",
            "--game-length", "short", "--layout", "preset", "--workers", "1", "--json"]
    result = RUNNER.invoke(app, [*args, "--content", str(folder)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["content"]["digest"] == rich_zorhkon.digest
    assert data["factions"] == _sim("tauceti", rich_zorhkon, games=2)["factions"]


def test_a_bad_content_folder_stops_the_commands_with_one_line(tmp_path: Path) -> None:
    folder = _copy("tauceti", tmp_path / "bad")
    _edit(folder, "factions.toml", r"^start_tau = 12$", "start_tau = 5")
    for command in (["simulate"], ["tournament", "--bots", "random"]):
        result = RUNNER.invoke(app, [*command, "--games", "1", "--content", str(folder)])
        assert result.exit_code == 2
        assert "Traceback" not in result.output
        assert "Error:" in result.output and "at least 10T" in result.output


def test_a_tournament_of_a_pack_says_so_and_merges_only_with_the_same_content(icy: ContentPack) -> None:
    config = {"expansions": ["comets"]}
    played = run_tournament("ceres", 2, ["random"], 2, 3, config, content=icy)
    stand_ins = run_tournament("ceres", 2, ["random"], 2, 3, config)
    assert played.to_json()["content"]["digest"] == icy.digest
    assert "content" not in stand_ins.to_json()
    assert played.deterministic_json()["results"] != stand_ins.deterministic_json()["results"]
    assert merge([played, run_tournament("ceres", 2, ["random"], 2, 4, config, content=icy)]).content == played.content
    with pytest.raises(ValueError, match="content"):
        merge([played, stand_ins])
