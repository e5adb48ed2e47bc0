"""The ``rgb_array`` render mode of both adapters (ecliptic.adapters.picture, docs/adapters.md):

* a frame is a ``uint8`` height × width × 3 array of one shape for every call of an
  environment, along whole games of Tau Ceti (1, 2 and 4 players) and Ceres with the Comets,
  so video writers can take it; text too long for the frame is cut with a line saying so;
* it is the board (Tau Ceti's tiles where the layout puts them, each Starship on its tile in
  its faction's colour; Ceres' belt) and a text panel, drawn from the seat's observation and
  its log (tests/test_adapter_render_table.py) and nothing else: it changes when the table
  does, and two states the seat cannot tell apart
  (determinizations) give it the same pixels, even when a rival's hand differs (whose own
  frame shows its hand, so the frames can tell);
* PettingZoo's ``render_test`` and Gymnasium's ``RenderCollection`` (``rgb_array_list``)
  take it (stable-baselines3's way of asking for it: tests/test_adapter_training.py); a copy
  of an environment draws as the original.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import gymnasium
import matplotlib.colors
import numpy as np
import pytest

import ecliptic.adapters.gymnasium  # noqa: F401 - registers the environments
from ecliptic.adapters import board_picture, picture
from ecliptic.adapters._common import Table
from ecliptic.adapters.pettingzoo import raw_env
from ecliptic.engine.actions import Action
from test_observation_tensor import _determinized_pairs

TAUCETI_SHAPE = (1088, 1920, 3)
CERES_SHAPE = (1088, 960, 3)


def _masked(e: Any, rng: random.Random) -> int | None:
    obs, _, terminated, truncated, _ = e.last()
    return None if terminated or truncated else rng.choice(list(np.flatnonzero(obs["action_mask"])))


@pytest.mark.parametrize(("game", "config", "shape"), [
    ("tauceti", {"players": 1}, TAUCETI_SHAPE),
    ("tauceti", {"players": 2, "config": {"game": "short"}}, TAUCETI_SHAPE),
    ("tauceti", {"players": 4, "config": {"game": "short"}, "advanced": list(range(1, 10))}, TAUCETI_SHAPE),
    ("ceres", {"players": 4, "expansions": ["comets"]}, CERES_SHAPE),
], ids=["tauceti-1", "tauceti-2", "tauceti-4-advanced", "ceres-4-comets"])
def test_a_frame_has_one_shape_and_dtype_along_a_whole_game(game: str, config: dict[str, Any],
                                                            shape: tuple[int, int, int]) -> None:
    e = raw_env(game, render_mode="rgb_array", **config)
    e.reset(seed=4)
    rng = random.Random(4)
    frames = [e.render()]
    for steps, _ in enumerate(e.agent_iter(), 1):
        e.step(_masked(e, rng))
        if steps % 40 == 0:
            frames.append(e.render())
    frames.append(e.render())  # the end of the game
    assert e.table.over and len(frames) >= 3
    assert picture.layout(game, e.table.config).shape == shape
    for frame in frames:
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape == shape
    assert len({f.tobytes() for f in frames}) == len(frames)  # each a picture of its own moment


def test_a_frame_is_the_seats_board_and_changes_when_the_table_does() -> None:
    e = raw_env("ceres", 2, expansions=["comets"], render_mode="rgb_array")
    e.reset(seed=1)
    first = e.render()
    assert np.array_equal(first, e.render())  # drawn again, the same pixels
    assert (first != first[0, 0]).any(axis=2).mean() > 0.05  # ink, not an empty frame
    e.step(_masked(e, random.Random(0)))
    assert not np.array_equal(first, e.render())
    seat = e.table.current
    obs = e.table.game.observe(e.table.state, seat)
    layout = picture.layout("ceres", e.table.config)
    assert np.array_equal(e.render(), board_picture.draw("ceres", obs, seat, layout, e.table.log))  # and its log


def _first_move(table: Table, rng: random.Random) -> Action:
    """Random play up to the first Starship move (``GO``) to a tile of the map; returns it."""
    while True:
        layout = table.game.observe(table.state, table.current)["layout"]
        moves = [a for a in table.legal() if a.verb == "GO" and a.args[0] in layout]
        if moves:
            return moves[0]
        table.apply(rng.choice(table.legal()))


def _ship_pixel(obs: dict[str, Any], tile: str) -> tuple[int, int]:
    """Where the picture puts a lone Starship on ``tile`` (the middle of its arrow)."""
    scale, ox, oy = board_picture.map_place(obs["layout"], board_picture.MAP_WIDTH, 1088 - 40)
    x, y = board_picture.hex_centre(*obs["layout"][tile])
    return round(oy + scale * (y + board_picture.SHIP_Y)), round(ox + scale * x)


def test_a_starship_is_drawn_on_its_tile_in_its_factions_colour_and_moves_with_it() -> None:
    table = Table("tauceti", {"players": 2})
    move = _first_move(table, random.Random(2))
    seat, tile = table.current, move.args[0]
    obs = table.game.observe(table.state, seat)
    colour = np.array(matplotlib.colors.to_rgb(board_picture._faction_colour(obs["players"][seat]["faction"]))) * 255
    start = str(obs["players"][seat]["position"])
    assert not any(p["position"] == tile for p in obs["players"])
    before = table.picture(seat)
    table.apply(move)
    after = table.picture(seat)
    assert not np.array_equal(before, after)
    assert np.abs(after[_ship_pixel(obs, tile)] - colour).max() <= 2  # now there
    assert np.abs(before[_ship_pixel(obs, tile)] - colour).max() > 40  # not before
    if all(p["position"] != start for p in table.game.observe(table.state, seat)["players"]):
        assert np.abs(after[_ship_pixel(obs, start)] - colour).max() > 40  # and gone from where it was


def test_something_is_drawn_where_the_layout_puts_each_tile_and_nothing_beside_the_map() -> None:
    table = Table("tauceti", {"players": 4})
    _first_move(table, random.Random(1))
    obs = table.game.observe(table.state, 0)
    frame = table.picture(0)
    scale, ox, oy = board_picture.map_place(obs["layout"], board_picture.MAP_WIDTH, 1088 - 40)
    background = np.array(picture.BACKGROUND)
    taken = {tuple(qr) for qr in obs["layout"].values()}
    for q, r in taken:
        x, y = board_picture.hex_centre(q, r)
        for dx, dy in ((-30, -5), (30, -5), (0, -40)):  # inside the hex, off its tokens
            assert np.abs(frame[int(oy + scale * (y + dy)), int(ox + scale * (x + dx))] - background).max() > 20
    q, r = max(taken)  # the tile furthest to one side: its neighbour further out is open space
    x, y = board_picture.hex_centre(q + 1, r)
    assert (q + 1, r) not in taken and ox + scale * x < board_picture.MAP_WIDTH - 50
    assert np.array_equal(frame[int(oy + scale * y), int(ox + scale * x)], background)


def test_a_rivals_hand_never_reaches_the_frame() -> None:
    """Two determinizations that deal a rival different hands: the same frame for this seat,
    different frames for the rival (its Interface shows its hand); and the face-down Knowledge
    tokens on the map re-dealt: the same frame."""
    table = Table("tauceti", {"players": 3})
    differing = tokens = 0
    for a, b, seat in _determinized_pairs("tauceti", table.config, seed=5, every=2):
        if tokens < 4 and any(a.points[p].token != b.points[p].token for p in a.points):
            table.state = a  # face-down Knowledge tokens on the map re-dealt: the map is the same
            mine = table.picture(seat)
            table.state = b
            assert np.array_equal(mine, table.picture(seat))
            tokens += 1
        for rival in range(3):
            if rival == seat or sorted(a.players[rival].hand) == sorted(b.players[rival].hand):
                continue
            table.state = a
            mine, theirs = table.picture(seat), table.picture(rival)
            table.state = b
            assert np.array_equal(mine, table.picture(seat))
            assert not np.array_equal(theirs, table.picture(rival))
            differing += 1
        if differing >= 3 and tokens == 4:
            break
    assert differing >= 3 and tokens == 4


def test_states_a_ceres_seat_cannot_tell_apart_give_it_the_same_frame() -> None:
    """Comets: the Explosion Check cards' order and the Nucleus cards in the box are face down."""
    config = {"players": 3, "expansions": ["comets"]}
    table = Table("ceres", config)
    pairs = 0
    for a, b, seat in _determinized_pairs("ceres", config, seed=3, every=6):
        table.state = a
        frame = table.picture(seat)
        table.state = b
        assert np.array_equal(frame, table.picture(seat))
        pairs += 1
        if pairs == 4:
            break
    assert pairs == 4


def test_text_too_long_for_the_frame_is_cut_and_says_so() -> None:
    tall = "\n".join(f"line {i}" for i in range(200))
    one = picture.Layout(columns=1)
    frame = picture.draw(tall, one)
    assert frame.shape == CERES_SHAPE
    shown = "\n".join(tall.splitlines()[:picture.ROWS - 1])
    assert np.array_equal(frame[:-picture.CELL_HEIGHT], picture.draw(shown, one)[:-picture.CELL_HEIGHT])
    cut = picture.draw(f"… {200 - picture.ROWS + 1} more lines not shown", one)[:picture.CELL_HEIGHT]
    assert np.array_equal(frame[-picture.CELL_HEIGHT:], cut)
    assert picture.draw("x" * 500, one).shape == CERES_SHAPE  # a long line is cut at the column


def test_panels_are_not_split_between_columns_when_they_fit() -> None:
    top = ["╭─ A", *["│ a"] * 40, "╰─"]
    bottom = ["╭─ B", *["│ b"] * 40, "╰─"]
    columns = picture._columns([*top, *bottom], 2)
    assert columns == [top, bottom]


def test_a_character_the_font_lacks_is_drawn_as_a_question_mark() -> None:
    one = picture.Layout(columns=1)
    assert np.array_equal(picture.draw("漢", one), picture.draw("?", one))


def test_glyphs_and_labels_are_drawn_once_in_reused_figures() -> None:
    """Memory does not grow over a long game: a text drawn before adds no cell and no figure."""
    e = raw_env("tauceti", 2, render_mode="rgb_array")
    e.reset(seed=2)
    e.render()
    glyphs = picture._GLYPHS
    figure, cells = glyphs._figure, len(glyphs._cells)
    for _ in range(3):
        e.render()
    assert glyphs._figure is figure and len(glyphs._cells) == cells
    assert not figure.texts  # cleared after use
    canvas = board_picture._CANVAS
    boards, labels = dict(canvas.figures), len(canvas.labels._kept)
    e.render()
    assert canvas.figures == boards and len(canvas.labels._kept) == labels
    assert all(not f.axes[0].collections for f in boards.values())  # emptied after each frame


def test_pettingzoos_render_test_passes_with_rgb_array() -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: raw_env("tauceti", 2, render_mode=render_mode),
                custom_tests={"rgb_array": lambda frame: frame.shape == TAUCETI_SHAPE})
    assert "rgb_array" in raw_env("ceres", 2).metadata["render_modes"]


def test_gymnasiums_render_collection_gathers_frames_of_one_shape() -> None:
    """``render_mode="rgb_array_list"``: Gymnasium wraps the ``rgb_array`` environment in
    ``RenderCollection``, which keeps a frame per reset and step (what ``RecordVideo`` saves)."""
    env = gymnasium.make("ecliptic/Ceres-v0", players=2, opponents="random", expansions=["comets"],
                         render_mode="rgb_array_list")
    assert isinstance(env, gymnasium.wrappers.RenderCollection)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(4):
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            break
    frames = env.render()
    assert len(frames) >= 3 and {f.shape for f in frames} == {CERES_SHAPE}
    assert env.metadata["render_fps"] == 2


def test_a_copy_draws_the_same_frame_as_the_original() -> None:
    e = raw_env("ceres", 2, render_mode="rgb_array")
    e.reset(seed=3)
    e.step(_masked(e, random.Random(3)))
    frame = e.render()
    assert np.array_equal(pickle.loads(pickle.dumps(e)).render(), frame)
    assert np.array_equal(copy.deepcopy(e).render(), frame)


def test_a_panels_sides_join_from_line_to_line() -> None:
    frame = picture.draw("╭─╮\n│ │\n│ │\n╰─╯", picture.Layout(columns=1))
    side = frame[picture.CELL_HEIGHT // 2:3 * picture.CELL_HEIGHT + picture.CELL_HEIGHT // 2,
                 picture.CELL_WIDTH:2 * picture.CELL_WIDTH]  # the left side, from corner to corner
    ink = (side.astype(int) - np.array(picture.BACKGROUND)).max(axis=2).max(axis=1)
    assert ink.min() > 60  # no row of pixels without the stroke


def test_a_glyph_is_the_same_whatever_is_drawn_beside_it() -> None:
    alone, beside = picture._Glyphs(), picture._Glyphs()
    alone._add(["a"])
    beside._add(["─", "a"])  # box drawing is wider than its cell
    assert np.array_equal(alone._cells[alone._index["a"]], beside._cells[beside._index["a"]])
