"""What the ``rgb_array`` picture shows beyond the tiles and tracks (docs/adapters.md): the
Claim tokens on their Exploration points, the battles (the Battle tokens, the battle being
fought and who fights), the Enlightenment phase (its planet, the Active deck, the cards
each seat played face down) and the log of the last actions, as the seat's log on the
server shows it and never an event hidden from the seat; the frame keeps its one shape.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import matplotlib.colors
import numpy as np

from ecliptic.adapters import board_picture, picture, table_panel
from ecliptic.adapters._common import Table
from ecliptic.adapters.pettingzoo import raw_env
from ecliptic.engine.events import Event
from ecliptic.present.names import event_text
from test_battle import start_battle
from test_exploration import ready

TAUCETI_SHAPE = (1088, 1920, 3)
CERES_SHAPE = (1088, 960, 3)
ANOR, BORZON = "Azars", "Zorhkonian"


def _rgb(colour: str) -> np.ndarray:
    return np.array(matplotlib.colors.to_rgb(colour)) * 255


def _near(pixel: np.ndarray, colour: str, tolerance: float = 3) -> bool:
    return bool(np.abs(pixel.astype(float) - _rgb(colour)).max() <= tolerance)


def _on_map(obs: dict[str, Any], tile: str, dx: float, dy: float) -> tuple[int, int]:
    """The pixel (row, column) ``dx``, ``dy`` map units from ``tile``'s middle."""
    scale, ox, oy = board_picture.map_place(obs["layout"], board_picture.MAP_WIDTH, 1088 - 40)
    x, y = board_picture.hex_centre(*obs["layout"][tile])
    return round(oy + scale * (y + dy)), round(ox + scale * (x + dx))


def _preset(first: str = ANOR, second: str = BORZON) -> Table:
    table = Table("tauceti", {"layout": "preset", "players": 2, "factions": [first, second]})
    table.new_game(1)
    return table


def _do(table: Table, notation: str) -> None:
    """The legal action written ``notation``, applied through the table (and so logged)."""
    table.apply(next(a for a in table.legal() if str(a) == notation))


def test_a_claim_token_is_drawn_on_the_point_it_claims_in_its_factions_colour() -> None:
    """Captain Anor explores 01.2 and puts her Claim token on 01.1 (test_exploration's
    example): the rival's frame shows it there, a flag in the Azars' colour."""
    table = _preset()
    ready(table.state, 0, "01.2", "Chemical")
    _do(table, "EXP 01.2")
    before = table.picture(1)
    _do(table, "CLAIM 01.1")
    after = table.picture(1)
    obs = table.game.observe(table.state, 1)
    assert obs["points"]["01.1"]["claimed_by"] == 0 and after.shape == TAUCETI_SHAPE
    fx, fy = board_picture.CLAIM_AT
    dx = board_picture.point_offsets(obs, "01")["01.1"] + fx + 2  # inside the flag, right of its pole
    at = _on_map(obs, "01", dx, board_picture.point_row("sector") + fy - 4)
    colour = board_picture._faction_colour(ANOR)
    assert _near(after[at], colour)
    assert not _near(before[at], colour, 40)
    assert table_panel.claim_lines(obs) == ["Claim token of Azars on 01.1 in Sector 01"]


def test_a_battle_is_drawn_its_sector_its_battle_token_and_who_fights() -> None:
    table = _preset(BORZON, ANOR)
    before = table.picture(1)
    start_battle(table.state, "01", 0, 1)  # the Zorhkonians' Battle token in 01, against the Azars
    obs = table.game.observe(table.state, 1)
    assert obs["battle"]["sector"] == "01"
    frame = table.picture(1)
    assert frame.shape == TAUCETI_SHAPE
    # the sector of the battle being fought: ringed inside its edge (the right side of the hex)
    ring = _on_map(obs, "01", (board_picture.SIZE - 4) * np.sqrt(3) / 2, 0)
    assert _near(frame[ring], board_picture.BATTLE_COLOUR, 12)
    assert not _near(before[ring], board_picture.BATTLE_COLOUR, 60)
    # the Battle token: the cross in its middle, ringed in the Zorhkonians' colour
    bx, by = board_picture.BATTLE_AT
    middle = _on_map(obs, "01", bx, by)
    assert _near(frame[middle], board_picture.BATTLE_COLOUR)
    assert not _near(before[middle], board_picture.BATTLE_COLOUR, 60)
    r, c = middle
    around = frame[r - 12:r + 13, c - 12:c + 13].reshape(-1, 3).astype(float)
    assert (np.abs(around - _rgb(board_picture._faction_colour(BORZON))).max(axis=1) <= 12).sum() >= 6
    assert table_panel.battle_line(obs) == "Battle in Sector 01: Zorhkonian against Azars; Zorhkonian attacks"
    assert table_panel.battle_token_lines(obs) == ["Battle token of Zorhkonian in Sector 01 against Azars"]


def _to_enlightenment(table: Table, rng: random.Random) -> None:
    """Random play up to a seat that may play a card face down in the Enlightenment phase."""
    while not (table.game.observe(table.state, None)["phase"] == "enlightenment"
               and any(a.verb == "PLAY" for a in table.legal())):
        table.apply(rng.choice(table.legal()))


def test_the_enlightenment_phase_is_drawn_its_planet_deck_and_cards_played_face_down() -> None:
    table = Table("tauceti", {"players": 3})
    table.new_game(7)
    rng = random.Random(7)
    _to_enlightenment(table, rng)
    seat = table.current
    rival = (seat + 1) % 3
    table.apply(next(a for a in table.legal() if a.verb == "PLAY"))
    obs = table.game.observe(table.state, rival)
    e = obs["enlightenment"]
    assert obs["phase"] == "enlightenment" and e["played"][str(seat)] == 1 and not e["mine"]
    frame = table.picture(rival)
    assert frame.shape == TAUCETI_SHAPE
    planet = e["affected"]
    ring = _on_map(obs, planet, -36, 4)  # the ring round the planet at risk, on its left
    assert _near(frame[ring], board_picture.ENLIGHTENMENT_COLOUR, 12)
    faction = obs["players"][seat]["faction"]
    line = table_panel.enlightenment_line(obs)
    assert line is not None and f"Active deck {e['active_deck']} card" in line and f"{faction} 1" in line
    # the count reaches the pixels: the same observation with no card played is another frame
    unplayed = {**obs, "enlightenment": {**e, "played": {**e["played"], str(seat): 0}}}
    layout = picture.layout("tauceti", table.config)
    assert np.array_equal(board_picture.draw("tauceti", obs, rival, layout, table.log), frame)
    assert not np.array_equal(board_picture.draw("tauceti", unplayed, rival, layout, table.log), frame)
    # the seat that played sees its own card by name, the rival does not
    mine = table.game.observe(table.state, seat)
    assert mine["enlightenment"]["mine"] and "(yours: " in (table_panel.enlightenment_line(mine) or "")
    assert "(yours: " not in line


def _played(game: str, config: dict[str, Any], steps: int, seed: int) -> Table:
    table = Table(game, config)
    table.new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        table.apply(rng.choice(table.legal()))
    return table


def test_the_log_shows_the_last_actions_in_the_log_region_only() -> None:
    """The newest entry is the last action, headed by its number and the seat that took it,
    with the events the frame's seat may see; without the log the frame differs only in the
    log's place (the bottom of the right column; Ceres' right column)."""
    ceres = {"players": 2, "expansions": ["comets"]}
    for game, config, steps in (("tauceti", {"players": 2}, 30), ("ceres", ceres, 12)):
        table = _played(game, config, steps, 3)
        seat = 0
        obs = table.game.observe(table.state, seat)
        last = table.log.entries[-1]
        assert last.index == steps
        lines = table.log.lines(game, obs, seat, 200, 40)
        name = obs["players"][last.seat]["faction"] if game == "tauceti" else obs["players"][last.seat]["name"]
        heading = next(i for i, line in enumerate(lines) if line.startswith(f"#{steps} {name}"))
        shown = " ".join(line.strip() for line in lines[heading:])
        assert all(event_text(game, e.text)[:25] in shown for e in last.events if e.visible(seat))
        frame = table.picture(seat)
        silent = copy.deepcopy(table)
        silent.log.start()
        quiet = silent.picture(seat)
        assert frame.shape == quiet.shape == (TAUCETI_SHAPE if game == "tauceti" else CERES_SHAPE)
        rows, cols = np.nonzero((frame != quiet).any(axis=2))
        assert rows.size
        if game == "tauceti":
            assert cols.min() > board_picture.MAP_WIDTH and rows.min() >= 1088 - board_picture.BOTTOM_ROWS * 16
        else:
            assert cols.min() >= board_picture.BELT and rows.max() < 1088 - board_picture.CERES_PANEL_ROWS * 16


def _private(table: Table, rng: random.Random) -> tuple[int, Event]:
    """Random play up to an action one of whose events only one seat may see."""
    while True:
        table.apply(rng.choice(table.legal()))
        for e in table.log.entries[-1].events:
            if e.visible_to is not None and len(e.visible_to) == 1:
                return next(iter(e.visible_to)), e


def test_an_event_hidden_from_a_seat_never_reaches_its_frame() -> None:
    """Two logs that differ only in an event one seat alone may see (the cards it drew):
    the same pixels for the other seats, different ones for that seat, whose log shows it."""
    table = Table("tauceti", {"players": 3})
    table.new_game(7)
    owner, secret = _private(table, random.Random(7))
    other = copy.deepcopy(table)
    entry = other.log.entries[-1]
    changed = tuple(Event(e.kind, e.text + " and another card", e.data, e.visible_to) if e == secret else e
                    for e in entry.events)
    other.log.entries[-1] = type(entry)(entry.index, entry.seat, changed)
    for seat in range(3):
        mine, theirs = table.picture(seat), other.picture(seat)
        assert mine.shape == TAUCETI_SHAPE
        assert np.array_equal(mine, theirs) == (seat != owner)
        obs = table.game.observe(table.state, seat)
        text = "\n".join(table.log.lines("tauceti", obs, seat, 200, 40))
        assert (event_text("tauceti", secret.text)[:30] in text) == (seat == owner)


def test_a_long_log_and_a_busy_table_keep_the_frame_shape() -> None:
    """Every entry long, a Battle token for every seat: the log is drawn, the frame's shape is
    the same, and the log still ends with the newest action (its start cut with ``…``)."""
    e = raw_env("tauceti", render_mode="rgb_array", players=4)
    e.reset(seed=1)
    table = e.table
    long = [Event("note", "A very long line of the log " * 12) for _ in range(6)]
    for _ in range(30):
        table.log.record(table.current, long)
    s = table.state
    tiles = list(s.layout)
    for seat, p in enumerate(s.players):
        p.battle_sector, p.battle_defender = tiles[seat % len(tiles)], (seat + 1) % 4
    frame = e.render()
    assert frame.shape == TAUCETI_SHAPE
    silent = copy.deepcopy(table)
    silent.log.start()
    assert not np.array_equal(frame, silent.picture(0))  # the long log is drawn, in the same frame
    obs = table.game.observe(s, 0)
    assert len(table_panel.battle_token_lines(obs)) == 4
    lines = table.log.lines("tauceti", obs, 0, 95, 9)
    assert lines[0].startswith(f"#{table.log.count} ") and lines[-1] == "  …"
    c = raw_env("ceres", render_mode="rgb_array", players=4, expansions=["comets"])
    c.reset(seed=1)
    for _ in range(30):
        c.table.log.record(c.table.current, long)
    ceres = c.render()
    assert ceres.shape == CERES_SHAPE
    c.table.log.start()
    assert not np.array_equal(ceres, c.render())
