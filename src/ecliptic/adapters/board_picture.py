"""The ``rgb_array`` frame as a picture of the table: the board a player would recognise.

A researcher watching a recorded game wants the star system map or the Asteroid Belt, not a
page of text, so the frame draws the board (Tau Ceti's tiles on their hex coordinates, with
the Starships, orbitals, Resource cubes and crises; Ceres' rings and Zones, with the
Asteroids, Mining Probes and Comets) and the players' tracks beside it, and keeps a text
panel (:mod:`ecliptic.adapters.picture`) for what words say better: the decision and the
seat's own Interface or the Comets' cards.

Everything drawn comes from ``observe(state, seat)``, the printed components (tile names,
faction colours, Asteroid faces) and the table's log as the seat may read it
(:mod:`ecliptic.adapters.action_log`: the events addressed to it, never a notation), as the
terminal and the browser client do, so a frame cannot show what the seat may not see. Tau
Ceti's map also carries the Claim and Battle tokens, the battle being fought and the
Enlightenment planet, which :mod:`ecliptic.adapters.table_panel` says in words. The geometry is the browser's
(``web/static/tauceti-board.js`` and ``ceres-belt.js``: a pointy-top hex of radius 50 at
``hexCentre(q, r)``, the rings 50 units wide from radius 200), scaled to the frame; the
colours are its stylesheet's (``table.css``).

Matplotlib's object API draws it on one ``Figure`` per frame size with its own
``FigureCanvasAgg``, reused from frame to frame (the global backend is never touched).
"""

from __future__ import annotations

import io
import math
import textwrap
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ecliptic.adapters import picture, table_panel
from ecliptic.adapters.action_log import ActionLog
from ecliptic.adapters.picture import CELL_HEIGHT, CELL_WIDTH, Frame, Layout

Obs = dict[str, Any]
Points = Sequence[tuple[float, float]]

FONT = "DejaVu Sans"
"""Matplotlib's own font, so every machine draws the same frame."""
INK, DIM, LINE = "#e8ecf4", "#98a2b8", "#39425c"
BACKGROUND = "#{:02x}{:02x}{:02x}".format(*picture.BACKGROUND)
SEAT_COLOURS = ("#d33b3b", "#3a78d8", "#2f9e4f", "#e0b020")
"""The browser's colours of seats 1-4 (Ceres' Mining Probes) and of the factions' printed
colours (red, blue, green, yellow: Tau Ceti's Starships, orbitals and Resource cubes)."""
PRINTED = {"red": SEAT_COLOURS[0], "blue": SEAT_COLOURS[1], "green": SEAT_COLOURS[2], "yellow": SEAT_COLOURS[3]}


class _Pen:
    """Draws in pixels (y down): polygons are kept and laid down by Matplotlib as one
    collection per layer (which Agg draws far faster than a patch each), and text is kept to
    be stamped over them from :class:`_Labels`."""

    def __init__(self) -> None:
        self.layers: dict[int, list[tuple[Points, str, str, float]]] = {}
        self.texts: list[tuple[float, float, str, float, str, bool, str, str]] = []

    def poly(self, points: Points, face: str, edge: str = "none", width: float = 0.0, layer: int = 1) -> None:
        self.layers.setdefault(layer, []).append((points, face, edge, width))

    def circle(self, x: float, y: float, r: float, face: str, edge: str = "none", width: float = 0.0,
               layer: int = 1) -> None:
        steps = _CIRCLE if r < 20 else _ROUND
        self.poly([(x + r * math.cos(a), y + r * math.sin(a)) for a in steps], face, edge, width, layer)

    def text(self, x: float, y: float, s: str, px: float, colour: str = INK, *, bold: bool = False,
             ha: str = "center", va: str = "center") -> None:
        """``s`` at (x, y), ``px`` pixels high; ``va`` "center" centres its capitals on y,
        "top" hangs it from y."""
        self.texts.append((x, y, s, px, colour, bold, ha, va))


_CIRCLE = [2 * math.pi * i / 20 for i in range(20)]
_ROUND = [2 * math.pi * i / 64 for i in range(64)]
"""The corners of a small circle (a token) and of a large one (Ceres)."""


class _Labels:
    """Every label drawn so far, as its coverage (0-255) by Matplotlib's FreeType font, kept by
    text, size and weight: labels repeat from frame to frame (tile names, Asteroids, the
    column heads), and drawing a text is what costs most (a millisecond or more each).
    Bounded: forgotten all at once when it grows past ``LIMIT``."""

    LIMIT = 4096

    def __init__(self) -> None:
        self._fonts: dict[bool, Any] = {}
        self._kept: dict[tuple[str, float, bool], tuple[npt.NDArray[np.uint8], int]] = {}

    def get(self, text: str, px: float, bold: bool) -> tuple[npt.NDArray[np.uint8], int]:
        """The coverage of ``text`` and the row of its baseline in it."""
        key = (text, round(px * 2) / 2, bold)
        kept = self._kept.get(key)
        if kept is None:
            if len(self._kept) >= self.LIMIT:
                self._kept.clear()
            font = self._font(bold)
            font.set_size(key[1], 72)
            font.set_text(text, 0.0)
            font.draw_glyphs_to_bitmap(antialiased=True)
            image = np.asarray(font.get_image()).copy()
            kept = self._kept[key] = (image, image.shape[0] - 1 - int(font.get_descent() / 64))
        return kept

    def _font(self, bold: bool) -> Any:
        if bold not in self._fonts:
            from matplotlib import font_manager
            from matplotlib.ft2font import FT2Font

            prop = font_manager.FontProperties(family=FONT, weight="bold" if bold else "normal")
            self._fonts[bold] = FT2Font(font_manager.findfont(prop, fallback_to_default=False))
        return self._fonts[bold]

    def stamp(self, frame: Frame, texts: Sequence[tuple[float, float, str, float, str, bool, str, str]]) -> None:
        """Blend each text's colour into ``frame`` by its coverage (cut at the frame's edges)."""
        from matplotlib.colors import to_rgb

        height, width, _ = frame.shape
        for x, y, text, px, colour, bold, ha, va in texts:
            if not text.strip():
                continue
            image, baseline = self.get(text, px, bold)
            h, w = image.shape
            left = round(x - (w / 2 if ha == "center" else w if ha == "right" else 0))
            top = round(y + px * (0.36 if va == "center" else 0.9)) - baseline
            x0, y0, x1, y1 = max(left, 0), max(top, 0), min(left + w, width), min(top + h, height)
            if x0 >= x1 or y0 >= y1:
                continue
            alpha = image[y0 - top:y1 - top, x0 - left:x1 - left, None].astype(np.float32) / 255
            region = frame[y0:y1, x0:x1]
            ink = np.array(to_rgb(colour), np.float32) * 255
            region[...] = np.rint(region * (1 - alpha) + ink * alpha).astype(np.uint8)


class _Canvas:
    """One reused figure (and axes, in pixels) per frame size, and the labels, shared by the
    environments of a process (so an environment still pickles and deep-copies as before)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.figures: dict[tuple[int, int], Any] = {}
        self.labels = _Labels()

    def draw(self, width: int, height: int, paint: Callable[[_Pen], None]) -> Frame:
        from matplotlib.collections import PolyCollection

        pen = _Pen()
        paint(pen)
        with self._lock:
            figure = self._figure(width, height)
            ax = figure.axes[0]
            for layer in sorted(pen.layers):
                items = pen.layers[layer]
                ax.add_collection(PolyCollection(
                    [p for p, *_ in items], facecolors=[f for _, f, _, _ in items],
                    edgecolors=[e for _, _, e, _ in items], linewidths=[w * 0.72 for *_, w in items],
                    zorder=layer, antialiaseds=True))
            try:
                figure.canvas.draw()
                frame: Frame = np.asarray(figure.canvas.buffer_rgba())[:height, :width, :3].copy()
            finally:
                for collection in list(ax.collections):
                    collection.remove()
            self.labels.stamp(frame, pen.texts)
        return frame

    def _figure(self, width: int, height: int) -> Any:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        figure = self.figures.get((width, height))
        if figure is None:
            figure = Figure(figsize=(width / 100, height / 100), dpi=100, facecolor=BACKGROUND)
            FigureCanvasAgg(figure)
            ax = figure.add_axes((0, 0, 1, 1))
            ax.set_axis_off()
            ax.set_xlim(0, width)
            ax.set_ylim(height, 0)
            self.figures[(width, height)] = figure
        return figure


_CANVAS = _Canvas()


def draw(game: str, obs: Obs, seat: int, frame_layout: Layout, log: ActionLog | None = None) -> Frame:
    """The frame of ``obs`` (what ``seat`` observes) for ``game``, of ``frame_layout``'s shape,
    with the last entries of ``log`` as ``seat`` may read them (none without a log)."""
    height, width, _ = frame_layout.shape
    log = log if log is not None else ActionLog()
    if game == "ceres":
        return _ceres(obs, seat, width, height, log)
    return _tauceti(obs, seat, width, height, log)


def _text(renderables: Sequence[Any], width: int) -> str:
    """The terminal's drawing of ``renderables``, ``width`` characters wide, as plain text."""
    from rich.console import Console

    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False).print(*renderables)
    return out.getvalue()


def _paste(frame: Frame, text: str, top: int, left: int, rows: int | None = None) -> None:
    """The text panel: ``text`` in the character cells from (``top``, ``left``) to the frame's
    right edge and its bottom (or ``rows`` lines down), cut with a line saying how much was
    left out."""
    rows = (frame.shape[0] - top) // CELL_HEIGHT if rows is None else rows
    chars = (frame.shape[1] - left) // CELL_WIDTH - 2
    panel = picture.draw(text, Layout(columns=1, rows=rows, width=chars))
    frame[top:top + panel.shape[0], left:left + panel.shape[1]] = panel


def _wrap(pen: _Pen, x: float, y: float, text: str, px: float, chars: int, lines: int, colour: str = INK) -> int:
    """``text`` wrapped at ``chars`` in at most ``lines`` lines from ``y`` down; returns the lines drawn."""
    shown = textwrap.wrap(text, chars)[:lines]
    for i, line in enumerate(shown):
        pen.text(x, y + i * px * 1.3, line, px, colour, ha="left", va="top")
    return len(shown)


# -- Tau Ceti -------------------------------------------------------------------------------

SIZE = 50.0
"""The browser's hex radius: the unit of every offset on a tile below (tauceti-board.js)."""
MAP_WIDTH = 1104
"""Pixels of the map, at the left; the players' tracks and the text panel take the rest."""
PANEL_TOP = 336
"""Where the text panel begins, under the header, the decision and four players' tracks."""
BOTTOM_ROWS = 16
"""Lines at the bottom of the right column for the "On the table" panel (when something is
on) and the log, which takes the rest: the seat's Interface and the TCX get the 31 between."""
BATTLE_COLOUR, ENLIGHTENMENT_COLOUR = "#ff6b3d", "#ffe27a"
"""The browser's Battle token cross and Enlightenment ring (table.css)."""
KIND_FILL = {"tau-ceti": ("#5a4a12", "#e0c050"), "planet": ("#24344a", "#58648a"), "sector": ("#243052", "#58648a"),
             "asteroid": ("#3b3530", "#58648a"), "outer": ("#2f2442", "#8a6ab8")}


def _tauceti(obs: Obs, seat: int, width: int, height: int, log: ActionLog) -> Frame:
    from rich.panel import Panel
    from rich.text import Text

    from ecliptic.ui import terminal

    def paint(pen: _Pen) -> None:
        _star_map(pen, obs, MAP_WIDTH, height - 40)
        _symbols(pen, 16, height - 30)
        pen.poly([(MAP_WIDTH, 0), (MAP_WIDTH + 1, 0), (MAP_WIDTH + 1, height), (MAP_WIDTH, height)], LINE)
        _tracks(pen, obs, seat, MAP_WIDTH + 16, width - MAP_WIDTH - 32)

    frame = _CANVAS.draw(width, height, paint)
    left = MAP_WIDTH + CELL_WIDTH
    chars = (width - left) // CELL_WIDTH - 2  # the panel's width: its right side shows
    bottom = (height - PANEL_TOP) // CELL_HEIGHT - BOTTOM_ROWS
    # the Enlightenment phase is said in the "On the table" panel, not twice
    tcx = terminal.render_tcx({**obs, "enlightenment": {**obs["enlightenment"], "affected": ""}})
    _paste(frame, _text([terminal.render_interface(obs, seat), tcx], chars), PANEL_TOP, left, bottom)
    table = _text([Panel(Text("\n".join(lines)), title="On the table", title_align="left")
                   for lines in [table_panel.table_lines(obs)] if lines], chars)
    table_rows = min(len(table.splitlines()), BOTTOM_ROWS - 3)
    table = "".join(line + "\n" for line in table.splitlines()[:table_rows])
    seen = log.lines("tauceti", obs, seat, chars - 4, BOTTOM_ROWS - table_rows - 2)
    events = _text([Panel(Text("\n".join(seen) or "no action yet"), title="Log (newest last)", title_align="left",
                          height=BOTTOM_ROWS - table_rows)], chars)
    top = PANEL_TOP + bottom * CELL_HEIGHT
    _paste(frame, table + events, top, left)
    return frame


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """The browser's ``hexCentre``: axial (q, r) of a pointy-top hex, y down."""
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def map_place(layout: dict[str, Sequence[int]], width: int, height: int) -> tuple[float, float, float]:
    """How the map's units become pixels of a ``width`` × ``height`` area: (scale, x, y) of
    the origin. The whole layout fits, centred; a small one (during the setup) is drawn no
    larger than a 7 × 8 hex map would be, so a tile keeps about one size along a game."""
    centres = [hex_centre(int(q), int(r)) for q, r in layout.values()] or [(0.0, 0.0)]
    xs, ys = [x for x, _ in centres], [y for _, y in centres]
    span_x = max(max(xs) - min(xs) + 2 * (SIZE * 0.87 + 3), 7 * SIZE * math.sqrt(3))
    span_y = max(max(ys) - min(ys) + 2 * (SIZE + 4), 8 * SIZE * 1.5)
    scale = min(width / span_x, (height - 40) / span_y)
    return scale, width / 2 - scale * (max(xs) + min(xs)) / 2, 40 + (height - 40) / 2 - scale * (max(ys) + min(ys)) / 2


def _faction_colour(faction: str, seat: int | None = None) -> str:
    from ecliptic.ui import terminal

    try:
        return PRINTED.get(terminal.content().faction(faction).colour, SEAT_COLOURS[(seat or 0) % 4])
    except KeyError:
        return SEAT_COLOURS[(seat or 0) % 4]


def _owner_colour(obs: Obs, owner: object) -> str:
    """An orbital's or cube's owner (a seat, or a faction's name) as its faction's colour."""
    if isinstance(owner, int) and 0 <= owner < len(obs["players"]):
        return _faction_colour(obs["players"][owner]["faction"], owner)
    return _faction_colour(str(owner))


def _tile_kind(tile: str) -> str:
    from ecliptic.ui import terminal

    try:
        t = terminal.content().tile(tile)
    except KeyError:
        return "outer"
    if t.kind == "tau_ceti":
        return "tau-ceti"
    if t.is_planet:
        return "planet"
    if t.outer_limit:
        return "outer"
    return "asteroid" if t.kind == "asteroid" else "sector"


def _star_map(pen: _Pen, obs: Obs, width: int, height: int) -> None:
    from ecliptic.present.tauceti_components import commodity_label
    from ecliptic.ui import terminal

    layout = obs["layout"]
    scale, ox, oy = map_place(layout, width, height)
    k = scale
    ships: dict[str, list[dict[str, Any]]] = {}
    for p in obs["players"]:
        ships.setdefault(str(p["position"]), []).append(p)
    homes = {f.home_planet: f.name for f in terminal.content().factions}
    for tile, (q, r) in layout.items():
        cx, cy = hex_centre(q, r)
        x, y = ox + k * cx, oy + k * cy
        kind = _tile_kind(tile)
        fill, edge = KIND_FILL[kind]
        if kind == "planet" and tile in homes:
            edge = _faction_colour(homes[tile])
        pen.poly(_hexagon(x, y, k * (SIZE - 1.5)), fill, edge, 3.0 if kind == "planet" else 1.5, layer=1)
        name = terminal.tile_name(tile)
        label = name if kind in ("planet", "tau-ceti") else tile
        pen.text(x, y - k * 31, label, 11 * k, bold=True)
        facts = _tile_facts(tile)
        if kind == "planet":
            commodity = obs["planet_commodity"].get(tile)
            if commodity:
                pen.text(x, y - k * 20, commodity_label(commodity), 7.5 * k, DIM)
            if facts:
                pen.text(x, y - k * 12, facts, 7 * k, DIM)
        else:
            if name != tile:
                pen.text(x, y - k * 20, name if len(name) <= 18 else name[:17] + "…", 7.5 * k, DIM)
            if facts:
                pen.text(x, y - k * 11, facts, 7 * k, DIM)
        _crises(pen, obs, tile, x, y, k)
        _points(pen, obs, tile, x, y + k * point_row(kind), k)
        if table_panel.in_enlightenment(obs) and obs["enlightenment"]["affected"] == tile:
            pen.circle(x, y + k * 4, k * 36, "none", ENLIGHTENMENT_COLOUR, 2.5, layer=2)
        if (obs.get("battle") or {}).get("sector") == tile:
            pen.poly(_hexagon(x, y, k * (SIZE - 4)), "none", BATTLE_COLOUR, 4.0, layer=2)
        _battle_tokens(pen, obs, tile, x, y, k)
        on = ships.get(tile, [])
        for i, p in enumerate(on):
            _ship(pen, x + k * (i - (len(on) - 1) / 2) * 15, y + k * SHIP_Y, k, p, obs)
        for i, owner in enumerate(obs["orbitals"].get(tile, [])):  # from the middle leftwards
            dx, dy = _token_place(i)
            pen.circle(x - k * (dx + 4), y + k * dy, k * 4, _owner_colour(obs, owner), "#000000", 0.8, layer=3)
        for i, owner in enumerate(obs["cubes"].get(tile, [])):  # and rightwards
            dx, dy = _token_place(i)
            left, top, side = x + k * (dx + 0.75), y + k * (dy - 3.25), k * 6.5
            pen.poly([(left, top), (left + side, top), (left + side, top + side), (left, top + side)],
                     _owner_colour(obs, owner), "#000000", 0.8, layer=3)
    away = [p for p in obs["players"] if str(p["position"]) not in layout]
    if away:
        pen.text(16, 20, "Not on the map yet:", 15, DIM, ha="left")
        for i, p in enumerate(away):
            _ship(pen, 196 + i * 26, 20, 1.5, p, obs)
    if obs.get("next_large_tile"):
        pen.text(width - 16, 20, f"Tile to place: {terminal.tile_name(obs['next_large_tile'])}", 15, ha="right")


SHIP_Y = 16
"""The Starships' row on a tile, under its Exploration points (or its crises)."""
CLAIM_FLAG = ((-1.0, -7.0), (8.0, -4.0), (-1.0, -1.0))
CLAIM_POLE = ((-1.8, -7.0), (-0.2, -7.0), (-0.2, 6.0), (-1.8, 6.0))
CLAIM_AT = (9.0, -4.0)
"""A Claim token, the browser's flag (``M-1,6 L-1,-7 L8,-4 L-1,-1``), planted at ``CLAIM_AT``
from the middle of the Exploration point it claims, at the point's top right."""
BATTLE_AT, BATTLE_STEP = (34.0, -6.0), 12.0
"""Where a tile's first Battle token lies from its middle (the browser's), the next under it."""


def point_row(kind: str) -> float:
    """The row of a tile's Exploration points below its middle: lower on a planet, under its
    commodity and end-game values."""
    return 12.0 if kind == "planet" else 1.0


def point_offsets(obs: Obs, tile: str) -> dict[str, float]:
    """Each Exploration point of ``tile`` by id: how far right of the tile's middle it is
    (in the map's units), in the order of their ids."""
    ids = sorted(p for p, pt in obs["points"].items() if pt["sector"] == tile)
    return {pid: (i - (len(ids) - 1) / 2) * 20 for i, pid in enumerate(ids)}


def _hexagon(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    """The corners of a pointy-top hex round (x, y)."""
    return [(x + radius * math.cos(math.radians(60 * i - 30)), y + radius * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


def _battle_tokens(pen: _Pen, obs: Obs, tile: str, x: float, y: float, k: float) -> None:
    """The Battle tokens on ``tile``, the browser's: a dark disc ringed in the colour of the
    faction that placed it, crossed by two strokes; a token the observation gives no owner
    (none should be) is ringed white."""
    owners: list[object] = [p["seat"] for p in obs["players"] if p["battle_sector"] == tile]
    owners += [None] * max(0, list(obs.get("battles", [])).count(tile) - len(owners))
    for i, owner in enumerate(owners):
        cx, cy = x + k * BATTLE_AT[0], y + k * (BATTLE_AT[1] + i * BATTLE_STEP)
        pen.circle(cx, cy, k * 6, "#111111", _owner_colour(obs, owner) if owner is not None else "#ffffff", 2.5,
                   layer=3)
        d, w = k * 3.5, k * 0.9
        for s in (1, -1):  # the two strokes of the cross
            pen.poly([(cx - s * (d + w), cy - d + w), (cx - s * (d - w), cy - d - w), (cx + s * (d + w), cy + d - w),
                      (cx + s * (d - w), cy + d + w)], BATTLE_COLOUR, layer=4)


def _token_place(i: int) -> tuple[float, float]:
    """The ``i``-th orbital's (or cube's) distance from the tile's middle line and its row,
    under the Starships: three a row side by side, then two nearer the middle where the hex
    narrows, then on along that row."""
    if i < 3:
        return 1 + i * 9, 29
    return 1 + (i - 3) * 9, 38


def _tile_facts(tile: str) -> str:
    """The end-game values printed on the tile."""
    from ecliptic.ui import terminal

    try:
        t = terminal.content().tile(tile)
    except KeyError:
        return ""
    parts = [f"orbital {t.orbital_gp} GP" if t.orbital_gp else "", f"cube {t.cube_gp} GP" if t.cube_gp else ""]
    return " · ".join(p for p in parts if p)


def _crises(pen: _Pen, obs: Obs, tile: str, x: float, y: float, k: float) -> None:
    crises = obs["planet_crises"].get(tile, [])
    virus = int(obs.get("virus_on", {}).get(tile, 0))
    n = len(crises) + virus
    for i in range(n):
        cx, cy = x + k * (i - (n - 1) / 2) * 15, y + k * 1
        if i < len(crises):
            pen.poly([(cx, cy - 8 * k), (cx + 7.5 * k, cy + 6 * k), (cx - 7.5 * k, cy + 6 * k)], "#c0392b", "#ffffff",
                     0.8, layer=3)
            pen.text(cx, cy + 1.5 * k, str(crises[i]["crisis_type"])[0], 7 * k, bold=True)
        else:
            pen.poly([(cx, cy - 6 * k), (cx + 4 * k, cy), (cx, cy + 6 * k), (cx - 4 * k, cy)], "#9be15d", "#264d12",
                     0.8, layer=3)


def _points(pen: _Pen, obs: Obs, tile: str, x: float, y: float, k: float) -> None:
    """Exploration points: a face-down Knowledge token shows only its back (``?``); a claimed
    one is ringed in its claimer's colour and carries the Claim token."""
    for pid, dx in point_offsets(obs, tile).items():
        pt = obs["points"][pid]
        px = x + k * dx
        token = pt["token"]
        claimed = pt["claimed_by"]
        edge = _owner_colour(obs, claimed) if claimed is not None else "#cfd6e8"
        face = "#59607a" if token == "hidden" else "#e8ecf4" if token else "none"
        pen.circle(px, y, k * 7, face, edge, 3.0 if claimed is not None else 1.2, layer=2)
        if claimed is not None:
            fx, fy = px + k * CLAIM_AT[0], y + k * CLAIM_AT[1]
            pen.poly([(fx + k * u, fy + k * v) for u, v in CLAIM_POLE], "#ffffff", layer=3)
            pen.poly([(fx + k * u, fy + k * v) for u, v in CLAIM_FLAG], edge, "#ffffff", 1.0, layer=3)
        if token:
            pen.text(px, y, "?" if token == "hidden" else str(token)[:2], 8 * k,
                     INK if token == "hidden" else "#111111", bold=True)


def _ship(pen: _Pen, x: float, y: float, k: float, p: dict[str, Any], obs: Obs) -> None:
    """A Starship, the browser's arrow in its faction's colour, outlined white when it is to play."""
    current = obs["current_player"] == p["seat"]
    pen.poly([(x, y - 9 * k), (x + 6 * k, y + 6 * k), (x, y + 3 * k), (x - 6 * k, y + 6 * k)],
             _faction_colour(p["faction"], p["seat"]), "#ffffff" if current else "#000000", 2.0 if current else 1.0,
             layer=4)


def _symbols(pen: _Pen, x: float, y: float) -> None:
    """The key to the map's tokens, in two rows along its bottom edge, the first at ``y``."""
    grey = "#b8c0d0"
    Mark = Callable[[float, float], None]
    rows: list[list[tuple[str, Mark]]] = [[
        ("Starship (white edge: to play)",
         lambda at, y: pen.poly([(at, y - 9), (at + 6, y + 6), (at, y + 3), (at - 6, y + 6)], grey, layer=4)),
        ("orbital", lambda at, y: pen.circle(at, y, 5, grey, layer=4)),
        ("Resource cube", lambda at, y: pen.poly([(at - 5, y - 5), (at + 5, y - 5), (at + 5, y + 5), (at - 5, y + 5)],
                                                 grey, layer=4)),
        ("crisis", lambda at, y: pen.poly([(at, y - 8), (at + 7, y + 6), (at - 7, y + 6)], "#c0392b", layer=4)),
        ("virus crystal", lambda at, y: pen.poly([(at, y - 6), (at + 4, y), (at, y + 6), (at - 4, y)], "#9be15d",
                                                 layer=4)),
    ], [
        ("Exploration point (? face down)", lambda at, y: pen.circle(at, y, 6, "#59607a", "#cfd6e8", 1.2, layer=4)),
        ("Claim token (on the point it claims)",
         lambda at, y: pen.poly([(at - 4 + 1.3 * u, y + 1.3 * v) for u, v in CLAIM_FLAG], grey, layer=4)),
        ("Battle token", lambda at, y: pen.circle(at, y, 6, "#111111", BATTLE_COLOUR, 2.0, layer=4)),
        ("battle being fought", lambda at, y: pen.poly(_hexagon(at, y, 8), "none", BATTLE_COLOUR, 2.5, layer=4)),
        ("Enlightenment planet", lambda at, y: pen.circle(at, y, 7, "none", ENLIGHTENMENT_COLOUR, 2.0, layer=4)),
    ]]
    for row, items in enumerate(rows):
        at, line = x, y + row * 20
        for label, mark in items:
            mark(at + 8, line)
            pen.text(at + 20, line, label, 14, DIM, ha="left")
            at += 36 + len(label) * 7.6


TRACKS = ("TAU", "Energy", "Materials", "Action markers", "GP")
"""The columns of the tracks; GP is the GP tokens (their GP) during the game, the final score
(★ the winners) at its end."""


def _tracks(pen: _Pen, obs: Obs, seat: int, x: float, width: float) -> None:
    """The header, the decision and every player's tracks, a row each in its faction's colour
    (the legend of the map's colours)."""
    from ecliptic.ui import terminal

    pen.text(x, 14, terminal.header(obs).plain, 22, bold=True, ha="left", va="top")
    _wrap(pen, x, 48, terminal.describe_decision(obs, seat).plain, 16, int(width / 8.6), 4)
    top = 140
    columns = [x + 250 + i * 90 for i in range(len(TRACKS))]
    columns[3] += 25
    columns[4] += 50
    for label, cx in zip(TRACKS, columns, strict=True):
        pen.text(cx, top, label, 14, DIM, ha="center")
    pen.text(x + 28, top, "Faction · character · at", 14, DIM, ha="left")
    for i, p in enumerate(obs["players"]):
        y = top + 34 + i * 36
        colour = _faction_colour(p["faction"], p["seat"])
        pen.poly([(x, y - 10), (x + 20, y - 10), (x + 20, y + 10), (x, y + 10)], colour,
                 "#ffffff" if obs["current_player"] == p["seat"] else "none", 2.0, layer=4)
        you = " (you)" if p["seat"] == seat else ""
        pen.text(x + 28, y - 7, f"{p['faction']}{you}", 15, colour, bold=True, ha="left")
        where = terminal.tile_name(str(p["position"])) if p["position"] is not None else "not on the map"
        pen.text(x + 28, y + 9, f"{p['character']} · {where}", 12, DIM, ha="left")
        markers = "passed" if p["passed"] else f"{p['markers_left']} left"
        final = obs["final_scores"]
        gp = f"{final[i]['total']} GP" if final else f"{p['gp_tokens']} ({p['gp_token_points']} GP)"
        if p["seat"] in obs["winners"]:
            gp += " ★"
        for value, cx in zip((p["tau"], p["energy"], p["materials"], markers, gp), columns, strict=True):
            pen.text(cx, y, str(value), 16, bold=True)


# -- Ceres ------------------------------------------------------------------------------------

R_OUT, RING_W = 200.0, 50.0
"""The browser's belt: the outer ring's outer radius and a ring's width (ceres-belt.js)."""
BELT = 660
"""Pixels of the belt's square, at the top left; the players are beside it."""
CERES_PANEL_ROWS = 22
"""Lines of the text panel under the belt (the decision, the Comets' cards)."""
RING_FILL = ("#1e2740", "#222c48", "#273251")
RING_ORDER = ("Outer", "Intermediate", "Inner")


LOG_PX = 12
"""The size of Ceres' log lines, beside the belt under the players."""


def _ceres(obs: Obs, seat: int, width: int, height: int, log: ActionLog) -> Frame:
    from ecliptic.ui import ceres_terminal

    panel_top = height - CERES_PANEL_ROWS * CELL_HEIGHT

    def paint(pen: _Pen) -> None:
        # the round, the phase and the first player: 16 px, so the whole line fits the frame
        pen.text(16, 12, ceres_terminal.header(obs).plain, 16, bold=True, ha="left", va="top")
        belt(pen, obs, BELT / 2, 44 + BELT / 2, BELT / 500)
        x, column = BELT + 8, width - BELT - 16
        y = _ceres_players(pen, obs, seat, x, 52, column)
        _log(pen, log.lines("ceres", obs, seat, int(column / 6.9), int((panel_top - 20 - y - 24) / (LOG_PX * 1.3))),
             x, y)
        pen.poly([(0, panel_top - 8), (width, panel_top - 8), (width, panel_top - 7), (0, panel_top - 7)], LINE)

    frame = _CANVAS.draw(width, height, paint)
    parts: list[Any] = [ceres_terminal.describe_decision(obs, seat)]
    comets = ceres_terminal.render_comets(obs)
    if comets is not None:
        parts.append(comets)
    parts.append(ceres_terminal.render_players(obs, seat))  # who holds which Asteroids; cut first
    _paste(frame, _text(parts, width // CELL_WIDTH - 2), panel_top, 0)
    return frame


def _polar(cx: float, cy: float, r: float, a: float) -> tuple[float, float]:
    return cx + r * math.cos(a), cy + r * math.sin(a)


def _mid(zone: int, zones: int) -> float:
    """The angle of a Zone's middle: Zone 1 just clockwise of the top, as the browser draws it."""
    return (zone - 0.5) / zones * 2 * math.pi - math.pi / 2


def belt(pen: _Pen, obs: Obs, cx: float, cy: float, k: float) -> None:
    """The rings (outer to inner) cut into Zones, the Asteroids in their Zones with the Mining
    Probe on them, the Comet tokens on the belt (or beside their Zone outside it)."""
    from ecliptic.present.ceres_components import asteroid_label

    seen = {a["ring"] for a in obs["belt"].values()} | set(obs.get("rotation", {}))
    rings = [r for r in RING_ORDER if r in seen] + sorted(seen - set(RING_ORDER))
    zones = max([a["zone"] for a in obs["belt"].values()] + [c["zone"] or 0 for c in obs["comets"]] + [1])
    for i, ring in enumerate(rings):
        outer, inner = k * (R_OUT - i * RING_W), k * (R_OUT - (i + 1) * RING_W)
        for z in range(1, zones + 1):
            a0, a1 = (z - 1) / zones * 2 * math.pi - math.pi / 2, z / zones * 2 * math.pi - math.pi / 2
            arc = [a0 + (a1 - a0) * t / 12 for t in range(13)]
            pen.poly([_polar(cx, cy, outer, a) for a in arc] + [_polar(cx, cy, inner, a) for a in reversed(arc)],
                     RING_FILL[i % 3], "#3c4769", 1.0, layer=1)
        rot = obs.get("rotation", {}).get(ring)
        turned = f" · rotated {rot} Zone{'' if rot == 1 else 's'}" if rot is not None else ""
        pen.text(cx - k * 246, cy - k * 238 + i * 17, f"{ring} ring{turned}", 13, DIM, ha="left")
    for z in range(1, zones + 1):
        pen.text(*_polar(cx, cy, k * (R_OUT + 18), _mid(z, zones)), f"Zone {z}", 13, DIM)
    pen.circle(cx, cy, k * (R_OUT - len(rings) * RING_W - 6), "#7a5a24", layer=1)
    pen.text(cx, cy, "Ceres", 15, "#f0d8a0", bold=True)
    cells: dict[tuple[str, int], list[tuple[str, Any]]] = {}
    for aid in sorted(obs["belt"]):
        a = obs["belt"][aid]
        cells.setdefault((a["ring"], a["zone"]), []).append(("asteroid", aid))
    for c in obs["comets"]:
        if c["in_belt"] and not c["removed"] and c["ring"] is not None:
            cells.setdefault((c["ring"], c["zone"]), []).append(("comet", c))
    for (ring, zone), things in cells.items():
        ri = rings.index(ring) if ring in rings else 0
        r = k * (R_OUT - ri * RING_W - RING_W / 2)
        widths = [k * (34 if what == "asteroid" else 16) for what, _ in things]
        gap = k * 6
        along = -(sum(widths) + gap * (len(widths) - 1)) / 2
        for (what, thing), w in zip(things, widths, strict=True):
            a = _mid(zone, zones) + (along + w / 2) / r
            along += w + gap
            x, y = _polar(cx, cy, r, a)
            if what == "asteroid":
                probe = obs["belt"][thing]["probe"]
                pen.circle(x, y, k * 17, "#5a5248", "#a9998a", 1.2, layer=2)
                pen.text(x, y - k * 5, thing, 9 * k, bold=True)
                pen.text(x, y + k * 6, asteroid_label(thing).split(" · ")[0], 6.5 * k, "#d8d0c4")
                if probe is not None:
                    pen.circle(x + k * 13, y - k * 12, k * 6, SEAT_COLOURS[probe % 4], "#000000", 1.0, layer=3)
                    pen.text(x + k * 13, y - k * 12, str(probe + 1), 7 * k, "#111111", bold=True)
            else:
                _comet(pen, x, y, a, k, thing)
    for c in obs["comets"]:
        if not c["removed"] and c["ring"] is None and c["zone"]:
            a = _mid(c["zone"], zones) + (0.12 if c["id"] == "C2" else -0.12)
            _comet(pen, *_polar(cx, cy, k * (R_OUT + 34), a), a, k, c)


def _comet(pen: _Pen, x: float, y: float, a: float, k: float, c: dict[str, Any]) -> None:
    """A Comet token: its head, and its tail pointing away from the Sun."""
    tail = [(7, 0), (24, -7), (21, 0), (24, 7)]
    cos, sin = math.cos(a), math.sin(a)
    pen.poly([(x + k * (u * cos - v * sin), y + k * (u * sin + v * cos)) for u, v in tail], "#9fd3ff", layer=3)
    sungrazer = "sungrazer" in str(c.get("kind", "")).lower()
    pen.circle(x, y, k * 8, "#ffe27a" if sungrazer else "#bfe8ff", "#ffffff", 1.0, layer=3)
    pen.text(x, y, str(c["id"]), 6.5 * k, "#111111", bold=True)


def _log(pen: _Pen, lines: Sequence[str], x: float, y: float) -> None:
    """The log's last lines from ``y`` down, under its heading."""
    pen.text(x, y, "Log (newest last)", 14, bold=True, ha="left", va="top")
    for i, line in enumerate(lines or ["no action yet"]):
        pen.text(x, y + 22 + i * LOG_PX * 1.3, line, LOG_PX, INK if lines else DIM, ha="left", va="top")


def _ceres_players(pen: _Pen, obs: Obs, seat: int, x: float, y: float, width: float) -> float:
    """Each player's colour (the key to the Mining Probes), Resources, VP, probes left and
    Tail tokens taken, and who is to play; returns where the next thing may go."""
    pen.text(x, y, "Players", 17, bold=True, ha="left", va="top")
    y += 36
    for p in obs["players"]:
        s = p["seat"]
        colour = SEAT_COLOURS[s % 4]
        pen.circle(x + 9, y + 9, 8, colour, "#ffffff" if obs["current_player"] == s else "#000000", 2.0, layer=4)
        marks = " (you)" if s == seat else ""
        marks += " · to play" if obs["current_player"] == s else ""
        marks += " · first" if s == obs["first_player"] else ""
        marks += " · passed" if p["passed"] else ""
        marks += " · winner ★" if s in obs["winners"] else ""
        pen.text(x + 24, y + 9, f"{p['name']}{marks}", 15, colour, bold=True, ha="left")
        res = " · ".join(f"{r} {n}" for r, n in p["resources"].items())
        pen.text(x + 24, y + 31, res, 14, ha="left")
        vp = p["vp"]
        by = f" ({vp['asteroids']}/{vp['tail_tokens']}/{vp['nucleus_tables']})" if obs["comets"] else ""
        pen.text(x + 24, y + 51, f"VP {vp['total']}{by} · Probes left {p['probes']}", 14, ha="left")
        tails = " ".join(p["tail_tokens"]) or "none"
        pen.text(x + 24, y + 71, f"Asteroids {len(p['asteroids'])}" + (f" · Tail tokens {tails}"
                                                                      if obs["comets"] else ""), 13, DIM, ha="left")
        y += 92
    notes = ["Numbers on a probe: its player."]
    if obs["comets"]:
        notes.append("VP by source: Asteroids / Tail tokens / Nucleus tables.")
        deck = obs["explosion_deck"]
        notes.append(f"Explosion Check cards {deck['cards']}, Nucleus cards in the box {obs['nucleus_box']}.")
    return y + 12 + 1.3 * 12 * _wrap(pen, x, y, " ".join(notes), 12, int(width / 6.6), 5, DIM)
