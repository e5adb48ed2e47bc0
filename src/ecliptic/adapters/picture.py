"""Text in a fixed-size frame: the text panel of the ``rgb_array`` picture.

The board itself is drawn by :mod:`ecliptic.adapters.board_picture`; what words say better
(the decision, the seat's own Interface, the Comets' cards) is the terminal's drawing of it,
laid on a grid of character cells here. Video writers (Gymnasium's ``RecordVideo``,
PettingZoo users' frame lists) need every frame of an environment to have one size, so the
text is cut to its panel, with a line saying how much was left out; and it comes from
``observe(state, seat)``, so two states the seat cannot tell apart give the same pixels.

The glyphs are drawn once each by Matplotlib's Agg renderer (a ``Figure`` with its own
``FigureCanvasAgg``; the global backend is never touched) and kept, by character, for the
whole process; a panel is then those cells put together with NumPy, so drawing one costs a
few milliseconds and nothing grows over a long game but the (bounded) set of characters
seen. The figure is reused and lives in this module, not in an environment, so an
environment still pickles and deep-copies as before.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Frame = npt.NDArray[np.uint8]

CELL_WIDTH, CELL_HEIGHT = 8, 16
"""Pixels of one character cell: DejaVu Sans Mono's advance is 0.602 of its size, so at
13.3 px (``TEXT_EM``) a glyph is 8 px wide, with 16 px from line to line."""
TEXT_WIDTH = 118
"""Characters of a line of the text drawn into a frame (the console width it is laid out at)."""
COLUMN_WIDTH = TEXT_WIDTH + 2
"""Cells of one column of the frame: the text with one blank cell either side, so the 120
cells make 960 px, a multiple of 16 as video encoders want."""
ROWS = 68
"""Lines of a column: 68 × 16 = 1,088 px (also a multiple of 16)."""
TEXT_EM, TEXT_BASELINE = 13.3, 4
"""The font's size and the baseline's height in a cell, in px (descenders reach 0.9 px)."""
BOX_EM, BOX_BASELINE = 13.75, 3.25
"""Box drawing (U+2500-U+257F) a little larger, so its 1.164 em from bottom to top fill the
16 px and a panel's sides join from line to line without a gap."""
BACKGROUND = (16, 20, 24)
INK = (216, 222, 233)
FONT = "DejaVu Sans Mono"
"""Matplotlib's own font, so every machine draws the same frame; it has every box-drawing
character and symbol the terminal uses (▶ ★ ☄ ◆ …); a character it lacks is drawn as ``?``."""


@dataclass(frozen=True)
class Layout:
    """Where text goes: ``columns`` columns of ``rows`` lines of ``width`` characters (the
    whole frame of an environment, or the text panel beside its board)."""

    columns: int
    rows: int = ROWS
    width: int = TEXT_WIDTH

    @property
    def shape(self) -> tuple[int, int, int]:
        """The frame's shape, the same for every call of one environment."""
        return (self.rows * CELL_HEIGHT, self.columns * (self.width + 2) * CELL_WIDTH, 3)


def layout(game: str, config: dict[str, Any]) -> Layout:
    """The frame for ``game`` with ``config``: Ceres' belt, players and panel fit one column,
    960 × 1,088 px; Tau Ceti's map, beside the tracks and the panel, gets two, 1,920 × 1,088
    px, whatever its player count, so one size serves every Tau Ceti config (both sizes
    multiples of 16, as video encoders want)."""
    return Layout(columns=1 if game == "ceres" else 2)


def draw(text: str, frame_layout: Layout) -> Frame:
    """The frame of ``text`` (the terminal's drawing, lines of at most ``TEXT_WIDTH``
    characters): its panels flowed into the columns, never split when a whole panel fits
    the rest of a column; what still does not fit is cut, and the last line says how many
    lines were left out."""
    grid = _grid(_columns(text.splitlines(), frame_layout.columns, frame_layout.rows), frame_layout)
    return _GLYPHS.paint(grid)


def _columns(lines: list[str], columns: int, rows: int = ROWS) -> list[list[str]]:
    """``lines`` in ``columns`` columns of at most ``rows`` lines: whole panels (a panel
    begins with ``╭``) where they fit, line by line when they do not, cut at the end."""
    blocks: list[list[str]] = []
    for line in lines:
        if not blocks or line.startswith("╭"):
            blocks.append([])
        blocks[-1].append(line)
    out: list[list[str]] = [[]]
    for block in blocks:
        if len(out[-1]) + len(block) > rows and out[-1] and len(block) <= rows and len(out) < columns:
            out.append([])
        out[-1].extend(block)
    if len(out) <= columns and all(len(c) <= rows for c in out):
        return out
    # whole panels do not fit: fill every column line by line, and cut what is left
    out = [lines[i * rows:(i + 1) * rows] for i in range(columns)]
    left = len(lines) - columns * rows
    if left > 0:
        out[-1][-1] = f"… {left + 1} more lines not shown"
    return out


def _grid(columns: Sequence[list[str]], frame_layout: Layout) -> list[str]:
    """The frame's rows of text, ``columns × (width + 2)`` characters each."""
    rows = []
    width = frame_layout.width
    for r in range(frame_layout.rows):
        row = ""
        for c in range(frame_layout.columns):
            line = columns[c][r] if c < len(columns) and r < len(columns[c]) else ""
            row += " " + line[:width].ljust(width) + " "
        rows.append(row)
    return rows


class _Glyphs:
    """Every character drawn so far, as a ``CELL_HEIGHT × CELL_WIDTH`` cell in colour (the
    glyph's coverage, 0-255, blended from the background to the ink), drawn by Matplotlib's
    Agg in one reused figure; shared by all environments of a process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._index: dict[str, int] = {" ": 0}
        ramp = np.linspace(0.0, 1.0, 256)[:, None]
        self._colours = np.rint(np.array(BACKGROUND) * (1 - ramp) + np.array(INK) * ramp).astype(np.uint8)
        self._cells: Frame = np.broadcast_to(self._colours[0], (1, CELL_HEIGHT, CELL_WIDTH, 3)).copy()
        """By character index: the cell in colour, ink on the background."""
        self._figure: Any = None
        self._known: Any = None

    def paint(self, rows: list[str]) -> Frame:
        """The frame of ``rows`` (strings of equal length), one cell per character."""
        with self._lock:
            new = sorted({ch for row in rows for ch in row} - self._index.keys())
            if new:
                self._add(new)
            index = self._index
            ids = np.array([[index[ch] for ch in row] for row in rows], np.intp)
            cells = self._cells[ids]  # rows × columns × cell height × cell width × 3
        height, width = ids.shape
        frame: Frame = cells.transpose(0, 2, 1, 3, 4).reshape(height * CELL_HEIGHT, width * CELL_WIDTH, 3)
        return frame

    def _add(self, chars: list[str]) -> None:
        """Draw ``chars`` in one figure, white on black, one every other cell, and cut it into
        cells."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        if self._figure is None:
            self._figure = Figure(dpi=100, facecolor="black")
            FigureCanvasAgg(self._figure)
            from matplotlib import font_manager
            from matplotlib.ft2font import FT2Font

            self._known = FT2Font(font_manager.findfont(FONT, fallback_to_default=False))
        figure = self._figure
        figure.clear()
        # every other cell of the strip is left empty: a glyph wider than its cell (the box
        # drawing is) must not bleed into the next glyph's cell
        figure.set_size_inches(2 * len(chars) * CELL_WIDTH / 100, CELL_HEIGHT / 100)
        for i, ch in enumerate(chars):
            shown = ch if self._known.get_char_index(ord(ch)) else "?"
            em, baseline = (BOX_EM, BOX_BASELINE) if "\u2500" <= ch <= "\u257f" else (TEXT_EM, TEXT_BASELINE)
            figure.text(i / len(chars), baseline / CELL_HEIGHT, shown, color="white",
                        fontfamily=FONT, fontsize=em * 72 / 100, va="baseline", ha="left",
                        usetex=False, parse_math=False, antialiased=True)  # whatever a user's rcParams say
        figure.canvas.draw()
        strip = np.asarray(figure.canvas.buffer_rgba())[:CELL_HEIGHT, :2 * len(chars) * CELL_WIDTH, 0]
        cells = strip.reshape(CELL_HEIGHT, len(chars), 2, CELL_WIDTH)[:, :, 0].transpose(1, 0, 2)
        start = len(self._cells)
        self._cells = np.concatenate([self._cells, self._colours[cells]])
        for i, ch in enumerate(chars):
            self._index[ch] = start + i
        figure.clear()


_GLYPHS = _Glyphs()
