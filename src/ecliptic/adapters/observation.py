"""A fixed-length float32 tensor of what a seat may see, for learning agents.

The tensor is built **only** from ``G.observe(state, seat)``'s dict, never from the state,
so it cannot show what ``observe`` hides: two states a seat cannot tell apart give it the
same tensor (tests/test_observation_tensor.py). Its length is fixed per game and config
(the player count sets how many player blocks it has) and every value lies in the
``space``'s bounds: one-hots and flags are 0/1, counts are divided by a cap the component
list gives (the rulebook's counts, the track's 49) and clipped there, seats are counted from
the observer (block ``+0`` is the observer's own, ``+1`` the next seat in seat order), so a
policy learned in one seat plays in any. docs/observation.md names every slice.

The per-game tables (which id sits at which index) are built once per config by
``observation_tauceti`` and ``observation_ceres``; :func:`encoder` caches them. ``encode``
writes only the non-zero entries into a copy of a zeroed ``array('f')`` and hands it to
NumPy without a second copy: the observation tensor must cost no more than an engine step
(benchmarks/observation.py measures it). ``Encoder.tensor(state, seat)`` is the same tensor
built faster: the game's observation module cuts it into parts, each written from one view
``observe`` is made of, and keeps blocks so that only the parts whose inputs changed are viewed
and written again: Tau Ceti in a :class:`Recent` store (each part's last blocks with the
state's values its view was made from), Ceres in a :class:`Memo` per part keyed by those
values (docs/observation.md).

The *recall* extension is a second, separate vector for an information-state tensor: one
entry per card and token id of the game, 1 when the seat has ever seen that id in an event
addressed to it (``ids_in`` pulls the ids out of an event's data); ``ecliptic.engine.recall``
gathers the set.
"""

from __future__ import annotations

import argparse
import os
import sys
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ecliptic.engine.content import content_cache

if TYPE_CHECKING:
    from gymnasium.spaces import Box

Buffer: TypeAlias = "array[float]"
"""An ``array("f")``: float32 storage that NumPy reads without a copy."""
Writer = Callable[[Mapping[str, Any], Buffer], None]
"""Writes one observation's non-zero entries into a zeroed buffer of the encoder's size."""


class Layout:
    """The tensor's slices in order: each index gets a meaning and its bounds.

    A game module adds its sections once per config and keeps the offsets it is given to
    write at; the labels serve ``meaning``, the docs and the CLI."""

    def __init__(self) -> None:
        self.labels: list[str] = []
        self.owners: list[str] = []
        self.low: list[float] = []
        self.high: list[float] = []
        self.slices: dict[str, slice] = {}
        self.notes: dict[str, str] = {}

    @property
    def size(self) -> int:
        return len(self.labels)

    def section(self, name: str, labels: Sequence[str], note: str = "one-hot",
                low: float = 0.0, high: float = 1.0) -> int:
        """Add the slice ``name`` with one index per label; returns its first index."""
        if name in self.slices:
            raise ValueError(f"slice {name!r} added twice")
        start = len(self.labels)
        self.labels += [f"{name}[{label}]" for label in labels]
        self.owners += [name] * len(labels)
        self.low += [low] * len(labels)
        self.high += [high] * len(labels)
        self.slices[name] = slice(start, len(self.labels))
        self.notes[name] = note
        return start

    def onehot(self, name: str, options: Sequence[str], note: str = "one-hot") -> dict[str, int]:
        """A slice with one index per option: the index each option is written at."""
        start = self.section(name, options, note)
        return {o: start + i for i, o in enumerate(options)}


def cap(x: float, most: float) -> float:
    """A count scaled by its cap and clipped at 1."""
    v = x / most
    return v if v < 1.0 else 1.0


class Header:
    """The slices of the header every observation begins with (the engine's
    ``observation_header``, the same in every game): the observer, the round, the phase, the
    first player, the seat whose turn it is and the seat to decide, seats counted from the
    observer. A game module adds it first and lets :meth:`write` fill it."""

    def __init__(self, layout: Layout, players: int, rounds: int, phases: Sequence[str]) -> None:
        n = self.players = players
        seats = [f"+{k}" for k in range(n)]
        relative = "one-hot, seat counted from the observer"
        self.rounds = rounds
        self.observer_at = layout.onehot("observer", [*(f"seat {s}" for s in range(n)), "spectator"],
                                         "one-hot: the absolute seat the tensor is for")
        self.round_at = layout.section("round", ["round"], f"round / {rounds}")
        self.phase_at = layout.onehot("phase", phases)
        self.first_at = layout.section("first_player", seats, relative)
        self.turn_seat_at = layout.section("turn_seat", seats, relative)
        self.current_at = layout.section("current_player", [*seats, "none"], relative)
        self.rels = [[(s - base) % n for s in range(n)] for base in range(n)]
        """``rels[observer][seat]``: the seat counted from the observer (a spectator sees from seat 0)."""
        self._observer_ix = [self.observer_at[f"seat {s}"] for s in range(n)]
        self._phase_ix = dict(self.phase_at)

    def write(self, o: Mapping[str, Any], a: Buffer) -> list[int]:
        """Fill the header's slices; returns the observer's ``rel`` (seat -> seat counted from
        the observer) for the game's own slices."""
        observer = o["observer"]
        if observer is None:
            a[self.observer_at["spectator"]] = 1.0
            rel = self.rels[0]
        else:
            a[self._observer_ix[observer]] = 1.0
            rel = self.rels[observer]
        a[self.round_at] = cap(o["round"], self.rounds)
        a[self._phase_ix[o["phase"]]] = 1.0
        a[self.first_at + rel[o["first_player"]]] = 1.0
        a[self.turn_seat_at + rel[o["turn_seat"]]] = 1.0
        cp = o["current_player"]
        a[self.current_at + (self.players if cp is None else rel[cp])] = 1.0
        return rel


class Memo:
    """Tensor blocks remembered by the key of the view they were written from.

    A game's observation module says what each part of its view is a function of: a key of
    the values the part reads (copied, so a change in place of the state cannot reach it), so
    equal keys give equal views. Unlike :class:`Recent` it keeps many blocks per part (a
    part that cycles through a few values, like Ceres' Zones, finds each again). It forgets
    everything when it is full and when the engine plays other content
    (``ecliptic.games.using_content``): a view reads the content."""

    def __init__(self, limit: int = 2048) -> None:
        self.limit = limit
        self.blocks: dict[Any, Buffer] = {}
        """The blocks by key; ``blocks.get`` is the look-up (this dict is never replaced)."""
        self._content: object = None

    def content(self, content: object) -> None:
        if content is not self._content:
            self.clear()
            self._content = content

    def clear(self) -> None:
        self.blocks.clear()

    def put(self, key: Any, block: Buffer) -> None:
        if len(self.blocks) >= self.limit:
            self.clear()
        self.blocks[key] = block

    def __len__(self) -> int:
        return len(self.blocks)


class Recent:
    """The blocks a tensor's parts last wrote, each with what its view was made from.

    A game's observation module cuts the tensor into parts, each written from one view of
    ``observe``; ``entries[key]`` holds ``(inputs, blocks)``: the state's values the view was
    made from (copied where the state changes them in place) and the blocks written. When a
    part's inputs now compare equal, the view would be equal, so the blocks are copied
    instead of written again: equality by value, so a stale entry can only cost a write,
    never give a wrong tensor. The inputs are never shown: they only decide whether a block is
    written. The keys are a fixed set per game (part, seat, whose view), so the store stays
    small; it forgets everything when the engine plays other content (a view reads it)."""

    def __init__(self) -> None:
        self.entries: dict[Any, tuple[Any, Any]] = {}
        """``(inputs, block)`` by part key, the block a Buffer or a tuple of them (``entries.get``
        is the look-up: this dict is never replaced)."""
        self._content: object = None

    def content(self, content: object) -> None:
        if content is not self._content:
            self.entries.clear()
            self._content = content

    def clear(self) -> None:
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)


@dataclass(frozen=True)
class GameEncoding:
    """What a game module gives the encoder for one config."""

    layout: Layout
    write: Writer
    recall_ids: tuple[str, ...]
    """Every card and token id of the game (the universe of the recall vector)."""
    tensor: Callable[[Any, int | None, Recent | None], Buffer] | None = None
    """The buffer ``write`` fills from ``observe(state, seat)``, built faster (the parts of
    views that have not changed copied); ``None``: the game has no faster way."""
    memos: tuple[Memo | Recent, ...] = ()
    """The stores ``tensor`` reads (``Encoder.forget`` clears them)."""


class Encoder:
    """The observation tensor of one game and config (build it with :func:`encoder`)."""

    def __init__(self, game: str, config: Mapping[str, Any], encoding: GameEncoding) -> None:
        self.game = game
        self.config = dict(config)
        self.players = int(config["players"])
        layout = encoding.layout
        self.size = layout.size
        self.slices: dict[str, slice] = dict(layout.slices)
        self.notes: dict[str, str] = dict(layout.notes)
        self._labels = tuple(layout.labels)
        self._owners = tuple(layout.owners)
        self.low = np.array(layout.low, dtype=np.float32)
        self.high = np.array(layout.high, dtype=np.float32)
        self._write = encoding.write
        self._tensor = encoding.tensor
        self._memos = encoding.memos
        self._zeros = array("f", bytes(4 * self.size))
        self.recall_ids = encoding.recall_ids
        self.recall_size = len(self.recall_ids)
        self._recall_index = {x: i for i, x in enumerate(self.recall_ids)}
        self._recall_zeros = array("f", bytes(4 * self.recall_size))
        self._space: Box | None = None

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """Pickled (a vector env's worker, a deep copy) as its game and config: the writer is a
        closure over the index tables, which the other side builds again (or has cached)."""
        return encoder, (self.game, self.config)

    def encode(self, observation: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """The tensor of one ``observe(state, seat)`` dict (a fresh array the caller owns).
        A dict that is not an observation of this game and player count is a ``ValueError``."""
        buf = array("f", self._zeros)
        try:
            if len(observation["players"]) != self.players:
                raise ValueError(f"an observation of {len(observation['players'])} players, "
                                 f"not {self.players}")
            self._write(observation, buf)
        except (KeyError, IndexError, TypeError, AttributeError) as e:
            raise ValueError(f"not an observation of a {self.game} game like {self.config}: "
                             f"{type(e).__name__} {e}") from None
        except ValueError as e:
            raise ValueError(f"not an observation of a {self.game} game like {self.config}: {e}") from None
        return np.frombuffer(buf, dtype=np.float32)

    def tensor(self, state: Any, seat: int | None, store: Recent | None = None) -> npt.NDArray[np.float32]:
        """``encode(G.observe(state, seat))``, the same values, at the cost of what changed
        since the states seen before (both games cut it into parts, docs/observation.md). ``store``:
        where the parts seen before are kept, the encoder's own by default; an environment
        gives its own (:meth:`new_store`), so environments stepped in turn in one process
        (a vector env) do not keep replacing each other's parts. A seat not in the game is a
        ``SeatError``, a state of another game or player count a ``ValueError``."""
        if self._tensor is None:
            from ecliptic.games import get_game

            return self.encode(get_game(self.game).observe(state, seat))
        return np.frombuffer(self._tensor(state, seat, store), dtype=np.float32)

    def new_store(self) -> Recent:
        """A store of parts for :meth:`tensor`, for one environment."""
        return Recent()

    def forget(self) -> None:
        """Empty the store of ``tensor`` (it fills again as states come; for measurements)."""
        for memo in self._memos:
            memo.clear()

    def meaning(self, index: int) -> str:
        """What the value at ``index`` says, with its slice's encoding."""
        return f"{self._labels[self._check(index)]}: {self.notes[self._owners[index]]}"

    def slice_of(self, index: int) -> str:
        """The name of the slice ``index`` lies in."""
        return self._owners[self._check(index)]

    def _check(self, index: int) -> int:
        if not isinstance(index, int | np.integer) or isinstance(index, bool) or not 0 <= index < self.size:
            raise IndexError(f"no index {index!r}: the {self.game} tensor has indices 0-{self.size - 1}")
        return int(index)

    @property
    def space(self) -> Box:
        """The gymnasium Box the tensor lies in (its honest per-index bounds)."""
        if self._space is None:
            from gymnasium.spaces import Box

            self._space = Box(self.low, self.high, (self.size,), np.float32)
        return self._space

    def encode_recall(self, seen: Iterable[str]) -> npt.NDArray[np.float32]:
        """1 at each card or token id in ``seen`` (ids of other things are ignored)."""
        buf = array("f", self._recall_zeros)
        index = self._recall_index
        for x in seen:
            i = index.get(x)
            if i is not None:
                buf[i] = 1.0
        return np.frombuffer(buf, dtype=np.float32)

    def recall_meaning(self, index: int) -> str:
        if not 0 <= index < self.recall_size:
            raise IndexError(f"no recall index {index!r}: 0-{self.recall_size - 1}")
        return f"recall[{self.recall_ids[index]}]: 1 if the seat has seen this id"

    def ids_in(self, data: Any) -> set[str]:
        """The card and token ids of this game named anywhere in an event's JSON data."""
        found: set[str] = set()
        _collect(data, self._recall_index, found)
        return found


_PUNCTUATION = ".,;:!?()[]'\""


def _collect(value: Any, universe: Mapping[str, int], out: set[str]) -> None:
    if isinstance(value, str):
        if value in universe:
            out.add(value)
        elif " " in value:  # "crisis C10", a cause or a text that names an id inside a sentence
            out.update(w for w in (x.strip(_PUNCTUATION) for x in value.split()) if w in universe)
    elif isinstance(value, Mapping):
        for v in value.values():
            _collect(v, universe, out)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            _collect(v, universe, out)


GAMES = ("tauceti", "ceres")


def _normalized(game: str, config: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    """The game's full config (defaults filled in, checked by the game) as a hashable key."""
    from ecliptic.engine.codec import encode
    from ecliptic.engine.rules import build_config
    from ecliptic.games import get_game

    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    data = encode(build_config(get_game(game).config_type, config))
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in data.items()))


def encoder(game: str, config: Mapping[str, Any] | None = None) -> Encoder:
    """The encoder of ``game`` with ``config`` (the game's config table; ``None``: default),
    built once per distinct config."""
    return _encoder(game, _normalized(game, config))


@content_cache
def _encoder(game: str, key: tuple[tuple[str, Any], ...]) -> Encoder:
    config = {k: list(v) if isinstance(v, tuple) else v for k, v in key}
    if game == "tauceti":
        from ecliptic.adapters import observation_tauceti as module
    else:
        from ecliptic.adapters import observation_ceres as module  # type: ignore[no-redef]
    return Encoder(game, config, module.build(config))


def ids_in(game: str, event: Any) -> set[str]:
    """The card and token ids of ``game`` that an event's JSON (``Event.to_json()`` or its
    data) names: what a seat that was shown the event has seen. The id universe does not
    depend on the config."""
    return encoder(game, None).ids_in(event)


def describe(game: str, config: Mapping[str, Any] | None, index: int) -> str:
    return encoder(game, config).meaning(index)


def advanced_rules(text: str) -> list[int]:
    """Tau Ceti's Advanced Rules as a command or a text parameter names them: numbers between
    ``,`` or ``;`` (``"1,2,5"``, ``"1;2;5"``, the form OpenSpiel's ``load_game`` text needs),
    or ``"all"``; anything else is refused saying how to write them."""
    if text.strip().lower() == "all":
        return list(range(1, 10))
    try:
        return [int(part) for part in text.replace(";", ",").split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"advanced={text!r}: name the Advanced Rules as numbers, '1,2,5' "
                         "(or '1;2;5'), or 'all'") from None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ecliptic.adapters.observation --game tauceti --players 4 --index 1234``."""
    parser = argparse.ArgumentParser(prog="python -m ecliptic.adapters.observation",
                                     description="Say what an index of the observation tensor means.")
    parser.add_argument("--game", choices=GAMES, default="tauceti")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--short", action="store_true", help="Tau Ceti: the short game")
    parser.add_argument("--advanced", default="", help="Tau Ceti: Advanced Rules, e.g. 1,2,5 or all")
    parser.add_argument("--advanced-specialists", action="store_true")
    parser.add_argument("--comets", action="store_true", help="Ceres: with the Comets expansion")
    parser.add_argument("--index", type=int, action="append", help="an index (repeatable)")
    parser.add_argument("--all", action="store_true", help="list every index")
    args = parser.parse_args(argv)
    # An option of the other game would change nothing: say so rather than answer for a config
    # the reader did not ask about (``--game tauceti --comets`` is not Tau Ceti with the Comets).
    others = {"tauceti": [("--comets", args.comets)],
              "ceres": [("--short", args.short), ("--advanced", bool(args.advanced)),
                        ("--advanced-specialists", args.advanced_specialists)]}[args.game]
    stray = [flag for flag, given in others if given]
    if stray:
        other = "Ceres" if args.game == "tauceti" else "Tau Ceti"
        what = "is an option" if len(stray) == 1 else "are options"
        print(f"error: {', '.join(stray)} {what} of {other}, not of --game {args.game}", file=sys.stderr)
        return 2
    config: dict[str, Any] = {}
    if args.players is not None:
        config["players"] = args.players
    try:
        if args.game == "tauceti":
            if args.short:
                config["game"] = "short"
            if args.advanced:
                config["advanced"] = advanced_rules(args.advanced)
            if args.advanced_specialists:
                config["advanced_specialists"] = True
        elif args.comets:
            config["expansions"] = ["comets"]
        enc = encoder(args.game, config)
        indices = range(enc.size) if args.all else (args.index or [])
        if not indices:
            print(f"{args.game}: {enc.size} values; slices:")
            for name, sl in enc.slices.items():
                print(f"  {sl.start:5d}-{sl.stop - 1:5d}  {name}: {enc.notes[name]}")
            return 0
        for i in indices:
            print(f"{i}: {enc.meaning(i)}")
    except (ValueError, IndexError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def run() -> int:
    """:func:`main` as a command: when the reader of its output stops reading (``--all | head``)
    it ends quietly with 141, as a program ended by SIGPIPE does, not with a traceback (that
    is the reader's choice, not an error of the tool)."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's own flush cannot fail
        return 141
    return code


if __name__ == "__main__":
    raise SystemExit(run())
