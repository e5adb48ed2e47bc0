"""The terminal game as a person reads it in an ordinary 80-column terminal: the help fits its
lines, the Asteroid Belt folds no word, a wrapped menu item keeps its number alone at the left,
the setup is not "Round 0", and ``log`` before anything happened says so instead of printing
nothing."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from ecliptic.ceres.game import Ceres
from ecliptic.present.groups import order
from ecliptic.present.view import actions as present_actions
from ecliptic.tauceti.game import TauCeti
from ecliptic.ui import ceres_terminal as ct
from ecliptic.ui import terminal
from play_support import run

pytestmark = pytest.mark.usefixtures("folders")  # a data folder and a working folder of its own


def shown(renderable: object, width: int) -> list[str]:
    console = Console(width=width, color_system=None, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text().splitlines()


@pytest.mark.parametrize("help_text", [terminal.HELP, ct.HELP], ids=["tauceti", "ceres"])
def test_the_help_fits_an_80_column_terminal_without_a_broken_line(help_text: str) -> None:
    assert shown(help_text, 80) == shown(help_text, 200)


def test_the_asteroid_belt_at_80_columns_keeps_every_zone_and_word_whole() -> None:
    game = Ceres()
    obs = game.observe(game.new_game({"players": 3, "expansions": ["comets"]}, 5), 0)
    narrow, wide = "\n".join(shown(ct.render_belt(obs), 80)), "\n".join(shown(ct.render_belt(obs), 200))
    assert all(f"Zone {z}" in narrow for z in range(1, 9))
    assert narrow.count("income") == wide.count("income") > 0  # never "incom" then "e" below
    assert "inc:" not in narrow  # the legend names the cells' own word


def test_the_setup_is_not_called_round_0() -> None:
    game = TauCeti()
    obs = game.observe(game.new_game({"players": 2}, 4), 0)
    assert obs["round"] == 0 and obs["phase"] == "setup"
    assert terminal.header(obs).plain == "Setup phase · first player " + obs["players"][obs["first_player"]]["faction"]


def test_log_before_anything_happened_says_so() -> None:
    result = run("play", "--players", "2", "--seed", "4", input="log\nquit\n")  # the tiles to place: no event yet
    assert result.exit_code == 0, result.output
    assert "> log\nNothing has happened yet that you can see.\n" in result.output


def test_a_menu_item_wrapped_at_80_columns_goes_on_under_its_text_not_under_its_number() -> None:
    game = TauCeti()
    state = game.new_game({"players": 2, "layout": "preset"}, 11)
    obs = game.observe(state, 0)
    legal = game.legal_actions(state)
    lines = shown(terminal.action_menu(present_actions(game, state, 0, obs, legal)), 80)
    width = len(str(len(legal)))
    groups = set(order("tauceti"))
    items = [line for line in lines if line.strip() not in groups]
    assert len(items) > len(legal)  # some items do wrap at 80 columns (BUY's)
    for line in items:
        assert re.match(r"^ *\d+ ", line) or line.startswith(" " * (width + 1)), line


def test_the_tau_ceti_board_at_80_columns_cuts_no_word() -> None:
    """The star system's table had seven columns; at 80 Rich cut what could not wrap
    (``Zorhkon…``, ``Orbita…``, ``quark-g…``). Random 4-player games, seen every 40 decisions."""
    from ecliptic.bots.random_bot import RandomBot

    game = TauCeti()
    seen = 0
    for seed in (0, 3):
        state = game.new_game({"players": 4, "layout": "preset"}, seed)
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        for step in range(240):
            if step % 40 == 0:
                cut = [line for line in shown(terminal.render_board(game.observe(state, 0), 0), 80) if "…" in line]
                assert not cut, (seed, step, cut)
                seen += 1
            seat = state.current_player
            game.apply(state, bots[seat].choose(game, state, seat))
    assert seen == 12
