"""The Tau Ceti content data files: rulebook counts, worked-example values, and refusal of
malformed content with a clear ContentError."""

from __future__ import annotations

import re
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from ecliptic.engine.errors import ContentError
from ecliptic.tauceti.content import (
    CONTENT_FILES,
    MAJOR_ACTIONS,
    Content,
    default_content,
    load_content,
)


@pytest.fixture(scope="module")
def content() -> Content:
    return default_content()


# --- component counts (rulebook "Global Components" / "Faction Components") ---------------


def test_packaged_content_loads_and_is_cached(content: Content) -> None:
    assert default_content() is content
    assert load_content() == content


@pytest.mark.rules("TC-COMP-1", "TC-MKT-1")
def test_global_component_counts(content: Content) -> None:
    large = [t for t in content.tiles if not t.outer_limit]
    outer = [t for t in content.tiles if t.outer_limit]
    assert len(large) == 15  # "15 hex tiles"
    assert len(outer) == 6  # one of the 6 Outer Limit Knowledge tokens each
    assert len([s for s in content.specialists if not s.advanced]) == 42  # "42 Specialist cards"
    assert len(content.systems_tokens) == 19  # "19 Systems tokens"
    assert len(content.crisis_cards) == 24  # "24 Crisis cards"
    assert len(content.crisis_tokens) == 24  # "24 Crisis tokens"
    assert len(content.knowledge_cards) == 24  # "24 Exploration cards"
    assert len(content.commodity_tokens) == 18  # "18 Commodity tokens"
    assert len(content.missions) == 30  # "30 Interplanetary Mission cards"
    assert len(content.gp_tokens) == 20  # "20 Galactic Point tokens"
    assert len(content.resources) == 6  # "6 Market Level markers"
    assert len(content.exotic_tech) == 4  # "4 Exotic Tech Cards"
    n = content.numbers
    assert n.damage_markers == 32
    assert n.virus_crystals == 4
    assert n.diplomacy_cards == 4
    assert n.market_levels == 4  # "There are 4 Mkt levels for each resource."
    # "24 Knowledge tokens": 10 on Exploration points, 6 for Outer Limit tiles, 8 on the Depot.
    assert n.knowledge_on_points + n.knowledge_for_outer_limits + 8 == 24


@pytest.mark.rules("TC-COMP-2")
def test_faction_component_counts(content: Content) -> None:
    assert [f.name for f in content.factions] == ["Zorhkonian", "Xunon", "Triolor", "Azars"]
    assert content.numbers.cubes_per_faction == 5  # "5 Resource cubes"
    assert content.numbers.action_markers == 4  # "4 Action markers"
    assert content.numbers.cubes_out_max == 4


def test_game_numbers(content: Content) -> None:
    n = content.numbers
    assert (n.short_game_rounds, n.full_game_rounds, n.longest_game_rounds) == (8, 10, 12)
    assert n.track_cap == 49
    assert n.enlightenment_energy == 2 and n.refuel_energy == 2
    assert n.pass_tau == 1
    assert (n.repair_tau_planet, n.repair_tau_space) == (1, 2)
    assert n.build_tau_per_level == 2
    assert n.reroll_tau == 2
    assert n.max_buy == 4 and n.demand_pile == 2
    assert n.npc_cubes_per_colour == 2
    assert (n.resolve_gp, n.battle_gp) == (3, 1)


@pytest.mark.rules("TC-COMP-1", "TC-MOV-3")
def test_tiles(content: Content) -> None:
    kinds = Counter(t.kind for t in content.tiles)
    assert kinds["tau_ceti"] == 1
    assert kinds["planet"] == 4
    assert kinds["sector"] == 9
    assert kinds["asteroid"] == 1
    assert kinds["wormhole"] == 2
    assert content.tile("10").name == "Zuron Asteroid"
    assert {f.home_planet for f in content.factions} == {t.id for t in content.tiles if t.is_planet}
    numbered = sorted(t.number for t in content.tiles if t.kind in ("sector", "asteroid"))
    assert numbered == list(range(1, 11))


@pytest.mark.rules("TC-SETUP-3")
def test_exploration_points_total_ten(content: Content) -> None:
    large = [t for t in content.tiles if not t.outer_limit]
    assert sum(t.exploration_points for t in large) == 10
    assert all(t.exploration_points == 1 for t in content.tiles if t.outer_limit)
    # Examples: two or more points in sectors 01 and 03; sectors 06 and 10 can be explored.
    assert content.tile("01").exploration_points >= 2
    assert content.tile("03").exploration_points >= 2
    assert content.tile("06").exploration_points >= 1
    assert content.tile("10").exploration_points >= 1


@pytest.mark.rules("TC-COMP-1")
def test_four_of_each_crisis_type(content: Content) -> None:
    types = content.knowledge_types
    assert len(types) == 6
    for group in (content.crisis_cards, content.crisis_tokens):
        assert Counter(x.crisis_type for x in group) == dict.fromkeys(types, 4)
    assert Counter(k.knowledge_type for k in content.knowledge_cards) == dict.fromkeys(types, 4)
    assert Counter(s.crisis_type for s in content.specialists if not s.advanced) == dict.fromkeys(types, 7)
    for s in content.specialists:
        assert s.name == content.crisis_type(s.crisis_type).specialist


@pytest.mark.rules("TC-COMP-1")
def test_crisis_cards_numbered_one_to_24(content: Content) -> None:
    assert sorted(c.number for c in content.crisis_cards) == list(range(1, 25))
    assert all(c.id == f"C{c.number:02d}" for c in content.crisis_cards)
    # The rulebook names a Chemist specialist and an astrophysicist specialist.
    assert content.crisis_type("Chemical").specialist == "Chemist"
    assert content.crisis_type("Cosmic").specialist == "Astrophysicist"


@pytest.mark.rules("TC-COMP-1")
def test_tokens(content: Content) -> None:
    assert Counter(t.resource for t in content.crisis_tokens) == dict.fromkeys(content.resources, 4)
    assert Counter(t.commodity for t in content.commodity_tokens) == {c.name: 3 for c in content.commodities}
    assert len({c.resource for c in content.commodities}) == len(content.commodities)
    gp = Counter(t.gp for t in content.gp_tokens)
    assert set(gp) == {1, 3}  # 3GP for resolving a crisis, 1GP for winning a battle
    for t in content.gp_tokens:  # one reward on the back of each
        rewards = [t.reward_tau > 0, t.reward_energy > 0, t.free_upgrade]
        assert rewards.count(True) == 1, t.id
    assert any(t.free_upgrade for t in content.gp_tokens)
    levels = Counter((t.system, t.level) for t in content.systems_tokens)
    for system in content.systems:
        assert levels[(system, 3)] >= 1  # the Upgrade example uses a level 3 token


@pytest.mark.rules("TC-IM-1")
def test_missions(content: Content) -> None:
    kinds = Counter(m.kind for m in content.missions)
    assert set(kinds) == {"skill_check", "delivery"}
    for m in content.missions:
        if m.kind == "delivery":
            assert m.pickup != m.deliver
            assert m.reward_tau == 0  # cargo capacity x sectors traveled
        else:
            assert m.check is not None and m.reward_tau > 0


# --- skill sets ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Zorhkonian", "Xunon", "Triolor", "Azars"])
@pytest.mark.rules("TC-SKILL-2", "TC-ACT-4", "TC-SETUP-19")
def test_faction_skill_sets(content: Content, name: str) -> None:
    f = content.faction(name)
    assert set(f.skills) == set(content.skills)
    values = sorted(f.skills.values())
    assert values == [2, 2, 2, 2, 3, 4]  # one primary 4, one secondary 3, the rest 2
    assert f.skills[f.specialization] == 4  # the primary skill is the comparative advantage
    assert f.start_tau >= 10  # "all alien characters start with at least 10T"
    assert set(f.action_costs) == set(MAJOR_ACTIONS)
    assert f.action_costs["REF"] == 0  # "Refueling is always free"
    assert set(f.systems) == set(content.systems)
    assert 0 <= f.start_materials < len(f.materials_track)


@pytest.mark.rules("TC-ACT-4")
def test_faction_profiles_differ(content: Content) -> None:
    profiles = {tuple(sorted(f.action_costs.items())) for f in content.factions}
    assert len(profiles) == 4  # "the same 10 Major actions ... different energy expenditures"


# --- worked-example values ----------------------------------------------------------------


@pytest.mark.rules("TC-UPG-5", "TC-BAT-8", "TC-BUI-5", "TC-IM-5")
def test_worked_example_values(content: Content) -> None:
    assert content.faction("Xunon").systems["cargo"] == 3  # Dr. Krenji's cargo capacity
    assert content.faction("Xunon").character == "Dr. Krenji"
    azars = content.faction("Azars")
    assert azars.character == "Captain Anor"
    assert azars.systems["weapons"] == 1  # "Captain Anor has a weapons power of 1"
    assert azars.systems["shields"] == 3  # "Captain Anor has a Shield power of 3"
    assert content.faction("Triolor").specialization == "Technology"
    assert content.faction("Triolor").character == "Captain Oxoroi"
    assert content.faction("Xunon").specialization == "Science"
    assert content.faction("Xunon").home_planet == "XUNO"
    assert content.faction("Zorhkonian").specialization == "Military"
    assert content.faction("Zorhkonian").character == "Captain Borzon"
    # Battle example: shields on systems 1 (weapons), 2 (shields) and 5 (cargo).
    assert content.systems[0] == "weapons"
    assert content.systems[1] == "shields"
    assert content.systems[4] == "cargo"


@pytest.mark.rules("TC-ENG-2", "TC-ENG-4")
def test_commodities(content: Content) -> None:
    assert content.commodity("nano").upgrades == ["computers", "propulsion"]
    assert content.commodity("nano").label == "nano processors"
    engineerable = {c.label for c in content.commodities if c.reverse_engineerable}
    assert engineerable == {"quark-gluon plasma", "nano processors", "octo-nanofluid"}
    assert "Xunari algae" in {c.label for c in content.commodities}
    assert len(content.commodities) == 6


@pytest.mark.rules("TC-ENL-10")
def test_biohazard_token_affecting_science(content: Content) -> None:
    assert any(t.crisis_type == "Biohazard" and t.resource == "Science" for t in content.crisis_tokens)


@pytest.mark.rules("TC-IM-5")
def test_xuno_to_zuron_asteroid_delivery(content: Content) -> None:
    assert any(m.kind == "delivery" and m.pickup == "XUNO" and m.deliver == "10" for m in content.missions)


# --- malformed content is refused ---------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    packaged = resources.files("ecliptic.tauceti.content")
    for name in CONTENT_FILES:
        filename = f"{name}.toml"
        (tmp_path / filename).write_text(packaged.joinpath(filename).read_text())
    return tmp_path


def _edit(folder: Path, filename: str, old: str, new: str) -> None:
    path = folder / filename
    text = path.read_text()
    changed, count = re.subn(old, new, text, count=1, flags=re.MULTILINE)
    assert count == 1, f"pattern {old!r} not found in {filename}"
    path.write_text(changed)


def test_copied_content_loads(folder: Path) -> None:
    assert load_content(folder) == default_content()


def test_missing_file(folder: Path) -> None:
    (folder / "tokens.toml").unlink()
    with pytest.raises(ContentError, match=r"content file tokens\.toml is missing"):
        load_content(folder)


def test_invalid_toml(folder: Path) -> None:
    with (folder / "cards.toml").open("a") as fh:
        fh.write("\nthis is = = not toml\n")
    with pytest.raises(ContentError, match=r"cards\.toml: not valid TOML"):
        load_content(folder)


def test_wrong_type_names_the_path(folder: Path) -> None:
    _edit(folder, "factions.toml", r"^start_tau = \d+$", 'start_tau = "twelve"')
    with pytest.raises(ContentError) as info:
        load_content(folder)
    message = str(info.value)
    assert "factions[0].start_tau" in message
    assert "expected int" in message


def test_wrong_type_in_nested_table(folder: Path) -> None:
    _edit(folder, "factions.toml", r"Science = 4", 'Science = "four"')
    with pytest.raises(ContentError, match=r"factions\[1\]\.skills\.Science: expected int"):
        load_content(folder)


def test_unknown_field(folder: Path) -> None:
    _edit(folder, "cards.toml", r"^\[\[crisis_cards\]\]$", '[[crisis_cards]]\nflavour = "x"')
    with pytest.raises(ContentError, match=r"crisis_cards\[0\].*unknown field\(s\) flavour"):
        load_content(folder)


def test_missing_required_field(folder: Path) -> None:
    _edit(folder, "tiles.toml", r"^cube_gp = 0\n", "")
    with pytest.raises(ContentError, match=r"tiles\[0\]\.cube_gp: missing required field"):
        load_content(folder)


@pytest.mark.rules("TC-COMP-1")
def test_count_violation(folder: Path) -> None:
    _edit(folder, "cards.toml", r'^\[\[crisis_cards\]\]\nid = "C24"\n(?:.+\n)*', "")
    with pytest.raises(ContentError, match="24 Crisis cards expected"):
        load_content(folder)


@pytest.mark.rules("TC-SKILL-2")
def test_skill_set_rule_violation(folder: Path) -> None:
    _edit(folder, "factions.toml", r"Agriculture = 3", "Agriculture = 2")
    with pytest.raises(ContentError, match="one 4, one 3, the rest 2"):
        load_content(folder)


def test_table_defined_twice(folder: Path) -> None:
    path = folder / "tokens.toml"
    path.write_text('skills = ["Military"]\n' + path.read_text())
    with pytest.raises(ContentError, match=r"tokens\.toml: table 'skills' is defined twice"):
        load_content(folder)
