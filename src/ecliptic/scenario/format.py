"""Scenario files, version 1: reading and checking them (docs/scenarios.md is the players' guide).

A scenario describes an exact situation (a game, its seed, changes to the state),
the actions played from there, and what the rules must make of them. Players write
scenarios to report rules bugs, so a scenario file is read strictly: every mistake
is a :class:`ScenarioError` naming the file, the line and the field at fault, and
the nearest valid names when a name is unknown. Nothing is guessed.

The file is read with ``yaml.compose`` (the node tree keeps every line number), and
values are converted with the type of the state field they describe, so ``01.1``
in a place that holds text stays the text ``01.1`` rather than the number 1.1.

State paths (``players.Xunon.tau``, ``market.Science``, ``decks.crisis``) walk the
state's dataclass tree: fields by name, tables by key, lists by position, players
by faction name or seat. Everything that depends on one game (how players are
named, which keys a table may have, computed values like GP totals, extra script
entries, how the game is set up) sits behind a :class:`GameAdapter`, one per game, in
:mod:`ecliptic.scenario.adapters`.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import types
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, NoReturn, Union, get_args, get_origin, get_type_hints

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ecliptic.engine.actions import Action
from ecliptic.engine.codec import DecodeError, decode, encode
from ecliptic.engine.files import UnreadableFile, check_depth, read_text, too_deep
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.scenario.adapters import ADAPTERS, GameAdapter, adapter_for, suggest

FORMAT_NAME = "ecliptic-scenario"
FORMAT_VERSION = 1
FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"

TOP_KEYS = ("format", "title", "description", "source", "rule", "game", "config", "seed",
            "setup", "script", "steps", "expect")
STEP_KEYS = ("do", "by", "repeat", "until", "dice", "choices", "expect", "expect_events",
             "expect_no_events", "expect_illegal", "note")
SCRIPT_KEYS = ("dice", "choices")
MAX_REPEAT = 1000
MAX_FILE_BYTES = 1024 * 1024
"""The largest scenario file read (the longest of tests/scenarios/ is a few kilobytes)."""


# -- errors ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """A place in a scenario file: the file, the line (from 1) and the field."""

    file: str
    line: int
    field: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}"


class ScenarioError(ValueError):
    """The scenario file itself is wrong (not the engine): ``where`` says where."""

    def __init__(self, where: Where, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")

    @property
    def file(self) -> str:
        return self.where.file

    @property
    def line(self) -> int:
        return self.where.line

    @property
    def field(self) -> str:
        return self.where.field


class PathProblem(Exception):
    """A state path cannot be followed in the state at hand. ``scenario_fault`` is True when
    the path names something that cannot exist in this game (a faction nobody plays), False
    when the state simply differs from what the scenario expects (an empty list)."""

    def __init__(self, message: str, *, scenario_fault: bool = False) -> None:
        self.message = message
        self.scenario_fault = scenario_fault
        super().__init__(message)


# -- showing values in messages ------------------------------------------------------------


def show(value: Any) -> str:
    """A value as a player would write it in the scenario file."""
    value = encode(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


# -- types ------------------------------------------------------------------------------------


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def unwrap_optional(tp: Any) -> Any:
    """``X | None`` -> ``X`` (other unions are left alone)."""
    if _is_union(tp):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def is_optional(tp: Any) -> bool:
    return _is_union(tp) and type(None) in get_args(tp)


def list_item_type(tp: Any) -> Any | None:
    """The item type of a list-like type, else ``None``."""
    tp = unwrap_optional(tp)
    origin = get_origin(tp)
    if origin in (list, set, frozenset):
        args = get_args(tp)
        return args[0] if args else Any
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
        return Any
    return None


def dict_types(tp: Any) -> tuple[Any, Any] | None:
    tp = unwrap_optional(tp)
    if get_origin(tp) in (dict, FrozenDict):
        args = get_args(tp)
        return (args[0], args[1]) if args else (Any, Any)
    return None


def list_of(tp: Any) -> Any:
    """``list[tp]`` for a type known only at run time."""
    return types.GenericAlias(list, (tp,))


def is_dataclass_type(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


@cache
def field_types(cls: type) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in get_type_hints(cls).items() if k in names}


def type_words(tp: Any) -> str:
    """A type in words: 'a whole number', 'a list of text', ..."""
    if tp is Any:
        return "anything"
    if is_optional(tp):
        return f"{type_words(unwrap_optional(tp))} or null"
    if _is_union(tp):
        return " or ".join(type_words(a) for a in get_args(tp))
    if get_origin(tp) is Literal:
        return "one of " + ", ".join(str(a) for a in get_args(tp))
    item = list_item_type(tp)
    if item is not None:
        return f"a list of {type_words(item)}" if item is not Any else "a list"
    if dict_types(tp) is not None:
        return "a table"
    if is_dataclass_type(tp):
        return f"a table of {tp.__name__} fields"
    return {int: "a whole number", str: "text", bool: "true or false", float: "a number"}.get(tp, str(tp))


def empty_value(tp: Any) -> Any:
    """What a table entry that is not there means: an empty list, 0, null."""
    if is_optional(tp):
        return None
    tp = unwrap_optional(tp)
    if list_item_type(tp) is not None:
        return () if get_origin(tp) is tuple else []  # (of the type the state keeps)
    if dict_types(tp) is not None:
        return FrozenDict() if get_origin(tp) is FrozenDict else {}
    if tp is int:
        return 0
    if tp is bool:
        return False
    raise PathProblem("no such entry")


# -- reading YAML nodes ------------------------------------------------------------------------


def _construct(node: Node) -> Any:
    return SafeConstructor().construct_object(node, deep=True)


def describe_node(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a table"
    if isinstance(node, SequenceNode):
        return "a list"
    if isinstance(node, ScalarNode) and node.tag.endswith(":null"):
        return "nothing (null)"
    return repr(node.value) if isinstance(node, ScalarNode) else "something else"


class Reader:
    """Reads one scenario file's nodes, turning every mistake into a :class:`ScenarioError`."""

    def __init__(self, file: str) -> None:
        self.file = file

    def where(self, node: Node, fld: str) -> Where:
        return Where(self.file, node.start_mark.line + 1, fld)

    def fail(self, node: Node, fld: str, message: str) -> NoReturn:
        raise ScenarioError(self.where(node, fld), message)

    def mapping(self, node: Node, fld: str) -> list[tuple[str, Node, Node]]:
        """A table's entries (key as written, key node, value node); a key written twice is refused."""
        if not isinstance(node, MappingNode):
            self.fail(node, fld, f"expected a table of 'key: value' lines, got {describe_node(node)}")
        seen: dict[str, int] = {}
        out: list[tuple[str, Node, Node]] = []
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode) or key_node.tag.endswith(":null"):
                self.fail(key_node, fld, "every key must be plain text")
            key = key_node.value
            if key == "<<":
                self.fail(key_node, fld, "YAML merge keys (<<) are not allowed in scenarios; write the entries out")
            if key in seen:
                self.fail(key_node, f"{fld}: {key}" if fld else key,
                          f"{key!r} is written twice (first on line {seen[key]})")
            seen[key] = key_node.start_mark.line + 1
            out.append((key, key_node, value_node))
        return out

    def text(self, node: Node, fld: str) -> str:
        """A scalar as written (``01.1`` stays the text ``01.1``)."""
        if not isinstance(node, ScalarNode) or node.tag.endswith(":null"):
            self.fail(node, fld, f"expected text, got {describe_node(node)}")
        return str(node.value)

    def value(self, node: Node) -> Any:
        """A scalar's YAML value; an explicit tag that cannot apply (``!!int abc``) is refused."""
        try:
            return _construct(node)
        except yaml.MarkedYAMLError as exc:
            self.fail(node, "YAML", f"cannot read this value: {exc.problem}")
        except (yaml.YAMLError, ValueError, TypeError) as exc:
            self.fail(node, "YAML", f"cannot read this value: {exc}")

    def integer(self, node: Node, fld: str) -> int:
        value = self.value(node) if isinstance(node, ScalarNode) else None
        if type(value) is not int:
            self.fail(node, fld, f"expected a whole number, got {describe_node(node)}")
        return int(value)

    def items(self, node: Node, fld: str) -> list[Node]:
        """A list's item nodes; a single scalar counts as a list of one."""
        if isinstance(node, SequenceNode):
            return list(node.value)
        if isinstance(node, ScalarNode) and not node.tag.endswith(":null"):
            return [node]
        self.fail(node, fld, f"expected a list, got {describe_node(node)}")

    def texts(self, node: Node, fld: str) -> list[str]:
        return [self.text(n, f"{fld}[{i + 1}]") for i, n in enumerate(self.items(node, fld))]

    def integers(self, node: Node, fld: str) -> list[int]:
        return [self.integer(n, f"{fld}[{i + 1}]") for i, n in enumerate(self.items(node, fld))]

    # -- values typed by the state field they describe ---------------------------------------

    def plain(self, node: Node, tp: Any) -> Any:
        """JSON-ready data from a node, guided by ``tp`` only to keep plain scalars as text where
        the field holds text (``01.1``, ``no``, ``03``); type checking is :func:`decode`'s job."""
        if isinstance(node, ScalarNode):
            value = self.value(node)
            if node.style is None and not isinstance(value, str) and not _fits(tp, value) \
                    and _fits(tp, str(node.value)):
                return str(node.value)
            return value
        if isinstance(node, SequenceNode):
            base = unwrap_optional(tp)
            item = list_item_type(base)
            fixed = get_args(base) if get_origin(base) is tuple and item is Any else ()
            return [self.plain(n, fixed[i] if i < len(fixed) else (item or Any))
                    for i, n in enumerate(node.value)]
        if isinstance(node, MappingNode):
            base = unwrap_optional(tp)
            kv = dict_types(base)
            hints = field_types(base) if is_dataclass_type(base) else {}
            out: dict[Any, Any] = {}
            for key, _key_node, value_node in self.mapping(node, ""):
                value_type = kv[1] if kv else hints.get(key, Any)
                key_value: Any = key
                if kv and kv[0] is int and re.fullmatch(r"-?\d+", key):
                    key_value = int(key)
                out[key_value] = self.plain(value_node, value_type)
            return out
        return None

    def typed(self, node: Node, tp: Any, fld: str) -> Any:
        """Check a value node against ``tp``; returns the JSON-ready form (``encode(decode(...))``)."""
        data = self.plain(node, tp)
        if tp is Any:
            return data
        try:
            return encode(decode(tp, data))
        except DecodeError as exc:
            at = locate(node, exc.path)
            sub = exc.path.lstrip(".")
            self.fail(at, f"{fld}.{sub}" if sub else fld, _decode_words(exc.reason, tp if not sub else None))


def _scalar_node(text: str, at: Node) -> Node:
    """A scalar written inside a key (``bag count Xunon``), resolved as YAML would, placed at ``at``."""
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(node, ScalarNode):
        node = ScalarNode("tag:yaml.org,2002:str", text)
    node.start_mark, node.end_mark = at.start_mark, at.end_mark
    return node


def _fits(tp: Any, value: Any) -> bool:
    try:
        decode(tp, value)
    except DecodeError:
        return False
    return True


def _decode_words(reason: str, tp: Any | None) -> str:
    if tp is not None and reason.startswith("expected"):
        got = reason.split(", got ", 1)
        if len(got) == 2:
            return f"expected {type_words(tp)}, got {got[1]}"
    return reason


_DECODE_PART = re.compile(r"\[(-?\d+)\]|\.?([^.\[\]]+)")


def locate(node: Node, path: str) -> Node:
    """The deepest node a :class:`DecodeError` path (``.factions[1]``, ``.points.01.2.token``) reaches."""
    parts = [m.group(1) if m.group(1) is not None else m.group(2) for m in _DECODE_PART.finditer(path)]
    i = 0
    while i < len(parts):
        if isinstance(node, SequenceNode) and parts[i].lstrip("-").isdigit():
            index = int(parts[i])
            if not -len(node.value) <= index < len(node.value):
                return node
            node, i = node.value[index], i + 1
            continue
        if isinstance(node, MappingNode):
            found = None
            for j in range(len(parts), i, -1):  # keys may hold dots: "01.2"
                key = ".".join(parts[i:j])
                found = next((v for k, v in node.value if isinstance(k, ScalarNode) and k.value == key), None)
                if found is not None:
                    node, i = found, j
                    break
            if found is not None:
                continue
        return node
    return node


# -- state paths ------------------------------------------------------------------------------------

PartKind = Literal["attr", "key", "index", "player", "any"]


@dataclass(frozen=True)
class Part:
    kind: PartKind
    value: str | int
    type: Any  # the static type of the value this part reaches (Any when unknown)


@dataclass(frozen=True)
class StatePath:
    """A dotted path into a game state, checked against the state's types.

    ``virtual`` names a computed value (``gp``) whose ``params`` come first."""

    text: str
    parts: tuple[Part, ...]
    type: Any
    virtual: str | None = None
    params: tuple[str, ...] = ()

    @property
    def is_list(self) -> bool:
        return self.type is not Any and list_item_type(self.type) is not None

    @property
    def item_type(self) -> Any:
        item = list_item_type(self.type)
        if item is not None:
            return item
        kv = dict_types(self.type)
        return kv[0] if kv else Any


def split_path(text: str) -> list[str] | None:
    """``a.b[01.2].c`` -> ``["a", "b", "01.2", "c"]``; ``None`` if the brackets do not pair up."""
    out: list[str] = []
    for m in re.finditer(r"\[([^\[\]]*)\]|([^.\[\]]+)|(\.)|(.)", text):
        bracket, word, _dot, stray = m.groups()
        if stray is not None:
            return None
        if bracket is not None:
            out.append(bracket)
        elif word is not None:
            out.append(word)
    return out if out and all(out) else None


class PathResolver:
    """Checks state paths of one scenario against the game's types before anything is played."""

    def __init__(self, adapter: GameAdapter, config: dict[str, Any]) -> None:
        self.adapter = adapter
        self.players = adapter.player_names(config)
        self.player_count = adapter.player_count(config)

    def resolve(self, text: str) -> StatePath:
        """Raise ``ValueError`` with the reason in words when ``text`` is not a path of this game."""
        segs = split_path(text.strip())
        if segs is None:
            raise ValueError(f"{text!r} is not a state path (write names separated by dots, e.g. "
                             "players.0.tau or market.Science)")
        segs = self._aliased(segs)
        head = segs[0]
        if head in self.adapter.virtuals:
            return self._virtual(text, head, segs[1:])
        return self._walk(text, self.adapter.state_type, segs, [], [])

    def _aliased(self, segs: list[str]) -> list[str]:
        for alias, target in self.adapter.aliases.items():
            words = alias.split(".")
            if segs[: len(words)] == words:
                return [*target.split("."), *segs[len(words):]]
        return segs

    def _virtual(self, text: str, name: str, rest: list[str]) -> StatePath:
        v = self.adapter.virtuals[name]
        if len(rest) < len(v.params):
            need = ".".join(f"<{p}>" for p in v.params)
            raise ValueError(f"{name} needs {len(v.params)} more part(s): {name}.{need}")
        params = tuple(rest[: len(v.params)])
        for kind, value in zip(v.params, params, strict=True):
            self._check_param(name, kind, value)
        prefix = [name, *("*" for _ in params)]
        return dataclasses.replace(self._walk(text, v.type, rest[len(v.params):], [], prefix),
                                   virtual=name, params=params)

    def _check_param(self, name: str, kind: str, value: str) -> None:
        if kind == "player":
            self.check_player(value, name)
            return
        domain = self.adapter.domain(kind)
        if domain is not None and value not in domain:
            article = "an" if kind[:1] in "aeiou" else "a"
            raise ValueError(f"{value!r} is not {article} {kind} of {name}.<{kind}>"
                             + suggest(value, domain, f"{kind}s"))

    def check_player(self, value: str, where: str) -> None:
        if value.lstrip("-").isdigit():
            if self.player_count is not None and not 0 <= int(value) < self.player_count:
                raise ValueError(f"there is no seat {value} in a game of {self.player_count} player(s) "
                                 f"(seats 0-{self.player_count - 1})")
            return
        if self.players is not None and value not in self.players:
            prefix = f"{where}: " if where else ""
            raise ValueError(f"{prefix}{value!r} is not a player of this game"
                             + suggest(value, self.players, "players"))

    def _walk(self, text: str, tp: Any, segs: list[str], parts: list[Part], pattern: list[str]) -> StatePath:
        i = 0
        while i < len(segs):
            here = ".".join(pattern) or "the state"
            base = unwrap_optional(tp)
            seg = segs[i]
            if base is Any:
                parts += [Part("any", s, Any) for s in segs[i:]]
                tp = Any
                break
            if is_dataclass_type(base):
                hints = field_types(base)
                if seg not in hints:
                    raise ValueError(f"{here} has no part {seg!r}" + suggest(seg, hints, "parts"))
                tp = hints[seg]
                parts.append(Part("attr", seg, tp))
                pattern.append(seg)
                i += 1
            elif dict_types(base) is not None:
                i, tp = self._dict_key(segs, i, base, parts, pattern)
            elif list_item_type(base) is not None:
                tp = self._list_item(seg, base, parts, pattern)
                i += 1
            else:
                raise ValueError(f"{here} is {type_words(base)}; it has no part {seg!r}")
        return StatePath(text, tuple(parts), tp)

    def _dict_key(self, segs: list[str], i: int, base: Any, parts: list[Part],
                  pattern: list[str]) -> tuple[int, Any]:
        kt, vt = dict_types(base) or (Any, Any)
        domain = self.adapter.domain(".".join(pattern))
        here = ".".join(pattern)
        if domain is not None:
            for j in range(len(segs), i, -1):  # keys may hold dots ("01.2")
                key = ".".join(segs[i:j])
                if key in domain:
                    parts.append(Part("key", key, vt))
                    pattern.append("*")
                    return j, vt
            raise ValueError(f"{segs[i]!r} is not a key of {here}" + suggest(segs[i], domain, "keys"))
        key_value: str | int = segs[i]
        if kt is int:
            if not segs[i].lstrip("-").isdigit():
                raise ValueError(f"the keys of {here} are whole numbers, not {segs[i]!r}")
            key_value = int(segs[i])
        parts.append(Part("key", key_value, vt))
        pattern.append("*")
        return i + 1, vt

    def _list_item(self, seg: str, base: Any, parts: list[Part], pattern: list[str]) -> Any:
        here = ".".join(pattern)
        item = list_item_type(base)
        fixed = get_args(base) if get_origin(base) is tuple and item is Any else ()
        if here == self.adapter.player_list:
            self.check_player(seg, here)
            parts.append(Part("player", seg, item))
            pattern.append("*")
            return item
        if not re.fullmatch(r"-?\d+", seg):
            raise ValueError(f"{seg!r} is not a position in the list {here}; use a number (0 is the "
                             "first item, -1 the last)")
        index = int(seg)
        tp = fixed[index] if fixed and -len(fixed) <= index < len(fixed) else item
        parts.append(Part("index", index, tp))
        pattern.append("*")
        return tp


# -- reading and writing the state through a path ----------------------------------------------------


MISSING: Any = object()


def _step(adapter: GameAdapter, state: Any, obj: Any, part: Part, shown: str) -> Any:
    """Follow one part; ``MISSING`` for a table entry that is not there."""
    if obj is None:
        raise PathProblem(f"{shown} is empty (null)")
    if part.kind == "attr":
        return getattr(obj, str(part.value))
    if part.kind == "player":
        seat = adapter.seat(state, str(part.value))
        if seat is None:
            raise PathProblem(_not_a_player(adapter, state, str(part.value)), scenario_fault=True)
        return obj[seat]
    if part.kind == "index" or (part.kind == "any" and isinstance(obj, list | tuple)):
        index = int(part.value) if str(part.value).lstrip("-").isdigit() else None
        if not isinstance(obj, list | tuple) or index is None:
            raise PathProblem(f"{shown} is not a list", scenario_fault=True)
        if not -len(obj) <= index < len(obj):
            raise PathProblem(f"{shown} has no item {index} (it holds {len(obj)})")
        return obj[index]
    if isinstance(obj, dict):
        return obj.get(part.value, MISSING)
    if part.kind == "any" and dataclasses.is_dataclass(obj):
        if not hasattr(obj, str(part.value)):
            raise PathProblem(f"{shown} has no part {part.value!r}", scenario_fault=True)
        return getattr(obj, str(part.value))
    raise PathProblem(f"{shown} has no part {part.value!r}", scenario_fault=True)


def _not_a_player(adapter: GameAdapter, state: Any, name: str) -> str:
    return f"{name!r} is not a player of this game" + suggest(name, adapter.players_in(state), "players")


def _root(adapter: GameAdapter, state: Any, path: StatePath) -> tuple[Any, str]:
    if path.virtual is None:
        return state, ""
    v = adapter.virtuals[path.virtual]
    args: list[Any] = []
    for kind, text in zip(v.params, path.params, strict=True):
        if kind == "player":
            seat = adapter.seat(state, text)
            if seat is None:
                raise PathProblem(_not_a_player(adapter, state, text), scenario_fault=True)
            args.append(seat)
        else:
            args.append(text)
    return v.get(state, tuple(args)), ".".join((path.virtual, *path.params))


def _shown(prefix: str, part: Part) -> str:
    return f"{prefix}.{part.value}" if prefix else str(part.value)


def read(adapter: GameAdapter, state: Any, path: StatePath) -> Any:
    """The value at ``path``; a table entry that is not there reads as empty ([], 0, null)."""
    obj, shown = _root(adapter, state, path)
    for n, part in enumerate(path.parts):
        obj = _step(adapter, state, obj, part, shown)
        shown = _shown(shown, part)
        if obj is MISSING:
            if n == len(path.parts) - 1:
                try:
                    return empty_value(part.type)
                except PathProblem:
                    raise PathProblem(f"{shown} is not there") from None
            raise PathProblem(f"{shown} is not there")
    return obj


def write(adapter: GameAdapter, state: Any, path: StatePath, value: Any) -> None:
    """Set the value at ``path`` (a table entry that is not there is created)."""
    if path.virtual is not None:
        raise PathProblem(f"{path.virtual} is computed from the state; it cannot be set", scenario_fault=True)
    if not path.parts:
        raise PathProblem("the whole state cannot be replaced", scenario_fault=True)
    obj, shown = state, ""
    for part in path.parts[:-1]:
        obj = _step(adapter, state, obj, part, shown)
        shown = _shown(shown, part)
        if obj is MISSING:
            raise PathProblem(f"{shown} is not there")
    last = path.parts[-1]
    if obj is None:
        raise PathProblem(f"{shown} is empty (null)")
    if isinstance(obj, FrozenDict):  # a table replaced on change: put a new one
        write(adapter, state, dataclasses.replace(path, parts=path.parts[:-1], type=type(obj)),
              obj.set(last.value, value))
    elif isinstance(obj, dict):
        obj[last.value] = value
    elif isinstance(obj, list | tuple):
        seat = adapter.seat(state, str(last.value)) if last.kind == "player" else None
        index = seat if seat is not None else int(last.value) if str(last.value).lstrip("-").isdigit() else None
        if index is None or not -len(obj) <= index < len(obj):
            raise PathProblem(f"{shown} has no item {last.value} (it holds {len(obj)})")
        if isinstance(obj, list):
            obj[index] = value
        else:  # a list the state keeps as a tuple, replaced on change: put a new one
            items = list(obj)
            items[index] = value
            write(adapter, state, dataclasses.replace(path, parts=path.parts[:-1], type=type(obj)), tuple(items))
    elif last.kind in ("attr", "any") and dataclasses.is_dataclass(obj) and hasattr(obj, str(last.value)):
        try:
            setattr(obj, str(last.value), value)
        except dataclasses.FrozenInstanceError:  # a record replaced on change: put a new one
            changed = dataclasses.replace(obj, **{str(last.value): value})  # type: ignore[type-var]
            write(adapter, state, dataclasses.replace(path, parts=path.parts[:-1], type=type(obj)), changed)
    else:
        raise PathProblem(f"{_shown(shown, last)} cannot be set", scenario_fault=True)


def live(adapter: GameAdapter, state: Any, path: StatePath) -> Any:
    """The value at ``path`` itself (not a copy), so a list can be changed in place; a table
    entry that is not there is first created empty."""
    if path.virtual is not None:
        raise PathProblem(f"{path.virtual} is computed from the state; it cannot be changed", scenario_fault=True)
    value = read(adapter, state, path)
    if path.parts and path.parts[-1].kind in ("key", "any"):
        obj, shown = state, ""
        for part in path.parts[:-1]:
            obj = _step(adapter, state, obj, part, shown)
            shown = _shown(shown, part)
        key = path.parts[-1].value
        if isinstance(obj, FrozenDict) and key not in obj:
            write(adapter, state, path, value)
        elif isinstance(obj, dict) and key not in obj:
            obj[key] = value
    return value


# -- the scenario model ------------------------------------------------------------------------------

SetupKind = Literal["set", "top", "bottom", "move"]
CheckKind = Literal["equals", "len", "has", "lacks", "count"]


@dataclass(frozen=True)
class SetupOp:
    """One ``setup`` entry: set a value, reorder a list, or move items/amounts between places."""

    kind: SetupKind
    path: StatePath
    value: Any
    node: Node
    where: Where
    key: str
    dest: StatePath | None = None
    position: Literal["top", "bottom"] = "bottom"


@dataclass(frozen=True)
class Check:
    """One expectation: ``path: value``, ``path len: n``, ``path has: [..]``, ``path lacks: [..]``,
    ``path count ITEM: n``."""

    kind: CheckKind
    path: StatePath
    expected: Any
    where: Where
    key: str
    item: Any = None


@dataclass(frozen=True)
class EventPattern:
    """An event to find: its kind, words its text contains, and values of its data."""

    kind: str
    text: str | None
    data: tuple[tuple[str, Any, str | None], ...]  # (key, value, the value as written if plain text)
    where: Where

    def describe(self) -> str:
        extra = [f"{k}: {show(v)}" for k, v, _ in self.data]
        if self.text is not None:
            extra.insert(0, f"text: {self.text!r}")
        return self.kind + (f" ({', '.join(extra)})" if extra else "")


@dataclass(frozen=True)
class ScriptLoad:
    """Randomness to script, in the order written: ``("dice", 5, where)``, ``("choices", 0, where)``
    or a game's own entry (``("bag_draw", "Xunon", where)``)."""

    entries: tuple[tuple[str, int | str, Where], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.entries)


@dataclass(frozen=True)
class IllegalExpectation:
    rule: str
    says: str | None
    where: Where


@dataclass(frozen=True)
class Step:
    number: int
    where: Where
    action: str | None = None
    by: str | None = None
    repeat: tuple[str, ...] = ()
    until: tuple[Check, ...] = ()
    script: ScriptLoad = ScriptLoad()
    expect: tuple[Check, ...] = ()
    expect_events: tuple[EventPattern, ...] = ()
    expect_no_events: tuple[EventPattern, ...] = ()
    illegal: IllegalExpectation | None = None
    note: str = ""

    @property
    def label(self) -> str:
        if self.action is not None:
            return f"step {self.number} ({self.action})"
        if self.repeat:
            until = ", ".join(f"{c.key}: {show(c.expected)}" for c in self.until)
            return f"step {self.number} (repeat {' or '.join(self.repeat)} until {until})"
        if self.script:
            return f"step {self.number} (script)"
        return f"step {self.number} (expect)"


@dataclass(frozen=True)
class Scenario:
    path: Path
    title: str
    game: str
    config: dict[str, Any]
    seed: int
    rules: tuple[str, ...] = ()
    description: str = ""
    source: str = ""
    setup: tuple[SetupOp, ...] = ()
    setup_where: Where | None = None
    config_where: Where | None = None
    script: ScriptLoad = ScriptLoad()
    steps: tuple[Step, ...] = ()
    expect: tuple[Check, ...] = ()

    @property
    def adapter(self) -> GameAdapter:
        return adapter_for(self.game)


# -- loading -----------------------------------------------------------------------------------------


def load_scenario(path: Path | str, text: str | None = None) -> Scenario:
    """Read and check a scenario file; every mistake raises :class:`ScenarioError`. The file is
    read as every command reads its files (:func:`ecliptic.engine.files.read_text`: a folder, a
    FIFO, a symlink loop, a file over :data:`MAX_FILE_BYTES` or one that is not UTF-8 is refused
    before it is parsed)."""
    path = Path(path)
    file = str(path)
    if text is None:
        try:
            text = read_text(path, max_bytes=MAX_FILE_BYTES)
        except UnreadableFile as exc:
            raise ScenarioError(Where(file, 1, "file"), str(exc)) from None
    return _Loader(path, text).load()


def _node_children(node: Any) -> list[Any] | None:
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return list(node.value) if isinstance(node, SequenceNode) else None


def _compose(text: str, file: str) -> Node:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        # The loader walks the tree recursively: a tree that only just composed would overflow there.
        check_depth(node, "the file", children=_node_children)
    except UnreadableFile as exc:
        raise ScenarioError(Where(file, 1, "YAML"), str(exc)) from None
    except RecursionError:  # in the composer itself
        raise ScenarioError(Where(file, 1, "YAML"), str(too_deep("the file"))) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        why = str(exc.problem or "") + (f" ({exc.context})" if exc.context else "")
        raise ScenarioError(Where(file, line, "YAML"), f"not valid YAML: {why.strip()}") from None
    except yaml.YAMLError as exc:
        raise ScenarioError(Where(file, 1, "YAML"), f"not valid YAML: {exc}") from None
    if node is None:
        raise ScenarioError(Where(file, 1, "file"), "the file is empty; a scenario starts with "
                            f"'format: {FORMAT}'")
    return node


class _Loader:
    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.r = Reader(str(path))
        self.root = _compose(text, str(path))
        self.adapter: GameAdapter | None = None
        self.paths: PathResolver | None = None

    # -- top level -----------------------------------------------------------------------------
    def load(self) -> Scenario:
        r = self.r
        if not isinstance(self.root, MappingNode):
            r.fail(self.root, "file", f"a scenario is a table of keys (format, title, game, ...), got "
                   f"{describe_node(self.root)}")
        top = {k: (kn, vn) for k, kn, vn in r.mapping(self.root, "")}
        for key, (kn, _vn) in top.items():
            if key not in TOP_KEYS:
                r.fail(kn, key, "unknown key" + suggest(key, TOP_KEYS, "keys"))
        self._format(top)
        title = self._required_text(top, "title")
        game = self._game(top)
        config, config_where = self._config(top)
        seed = r.integer(top["seed"][1], "seed") if "seed" in top else 0
        rules = tuple(r.texts(top["rule"][1], "rule")) if "rule" in top else ()
        setup, setup_where = self._setup(top)
        script = self._script(top["script"][1], "script") if "script" in top else ScriptLoad()
        steps = self._steps(top["steps"][1]) if "steps" in top else ()
        expect = self._checks(top["expect"][1], "expect") if "expect" in top else ()
        if not steps and not expect:
            r.fail(self.root, "file", "a scenario needs 'steps', 'expect' or both")
        return Scenario(
            path=self.path, title=title, game=game, config=config, seed=seed, rules=rules,
            description=self._optional_text(top, "description"), source=self._optional_text(top, "source"),
            setup=setup, setup_where=setup_where, config_where=config_where, script=script,
            steps=steps, expect=expect,
        )

    def _format(self, top: dict[str, tuple[Node, Node]]) -> None:
        if "format" not in top:
            self.r.fail(self.root, "format", f"the first line of a scenario must be 'format: {FORMAT}'")
        node = top["format"][1]
        text = self.r.text(node, "format")
        name, _, version = text.partition("/")
        if name != FORMAT_NAME or not version.isdigit():
            self.r.fail(node, "format", f"{text!r} is not a scenario format; write 'format: {FORMAT}'")
        if int(version) != FORMAT_VERSION:
            self.r.fail(node, "format", f"scenario format version {version} is not supported; this "
                        f"Ecliptic reads {FORMAT}")

    def _required_text(self, top: dict[str, tuple[Node, Node]], key: str) -> str:
        if key not in top:
            self.r.fail(self.root, key, f"the scenario has no '{key}'")
        text = self.r.text(top[key][1], key).strip()
        if not text:
            self.r.fail(top[key][1], key, f"'{key}' must not be empty")
        return text

    def _optional_text(self, top: dict[str, tuple[Node, Node]], key: str) -> str:
        return self.r.text(top[key][1], key) if key in top else ""

    def _game(self, top: dict[str, tuple[Node, Node]]) -> str:
        game = self._required_text(top, "game")
        if game not in ADAPTERS:
            self.r.fail(top["game"][1], "game", f"unknown game {game!r}" + suggest(game, ADAPTERS, "games"))
        self.adapter = adapter_for(game)
        return game

    def _config(self, top: dict[str, tuple[Node, Node]]) -> tuple[dict[str, Any], Where | None]:
        assert self.adapter is not None
        if "config" not in top:
            self.paths = PathResolver(self.adapter, {})
            return {}, None
        node = top["config"][1]
        self.r.mapping(node, "config")
        config = self.r.plain(node, self.adapter.config_type)
        fields = field_types(self.adapter.config_type)
        for key, kn, _vn in self.r.mapping(node, "config"):
            if key not in fields:
                self.r.fail(kn, f"config.{key}", "unknown setting" + suggest(key, fields, "settings"))
        for sub, message in self.adapter.check_config(config):
            self.r.fail(locate(node, sub), f"config.{sub}", message)
        self.r.typed(node, self.adapter.config_type, "config")
        self.paths = PathResolver(self.adapter, config)
        return config, self.r.where(top["config"][0], "config")

    # -- state paths ----------------------------------------------------------------------------
    def _path(self, text: str, node: Node, fld: str) -> StatePath:
        assert self.paths is not None
        try:
            return self.paths.resolve(text)
        except ValueError as exc:
            self.r.fail(node, fld, str(exc))

    # -- setup ----------------------------------------------------------------------------------
    def _setup(self, top: dict[str, tuple[Node, Node]]) -> tuple[tuple[SetupOp, ...], Where | None]:
        if "setup" not in top:
            return (), None
        node = top["setup"][1]
        if isinstance(node, ScalarNode) and node.tag.endswith(":null"):
            return (), self.r.where(top["setup"][0], "setup")
        ops = tuple(self._setup_op(key, kn, vn) for key, kn, vn in self.r.mapping(node, "setup"))
        return ops, self.r.where(top["setup"][0], "setup")

    def _setup_op(self, key: str, kn: Node, vn: Node) -> SetupOp:
        fld = f"setup: {key}"
        words = key.split()
        where = self.r.where(kn, fld)
        usage = ("write 'PATH: value', 'PATH top: [..]', 'PATH bottom: [..]', 'FROM -> TO: [..]' "
                 "or 'FROM -> TO top: [..]'")
        if len(words) == 1:
            path = self._path(words[0], kn, fld)
            if path.virtual is not None:
                self.r.fail(kn, fld, f"{path.virtual} is computed from the state; it cannot be set")
            return SetupOp("set", path, self.r.typed(vn, path.type, fld), vn, where, key)
        if len(words) == 2 and words[1] in ("top", "bottom"):
            path = self._list_path(words[0], kn, fld)
            value = self.r.typed(vn, list_of(path.item_type), fld)
            return SetupOp("top" if words[1] == "top" else "bottom", path, value, vn, where, key)
        if len(words) in (3, 4) and words[1] == "->" and (len(words) == 3 or words[3] in ("top", "bottom")):
            return self._move(words, kn, vn, fld, where, key)
        self.r.fail(kn, fld, f"cannot read this setup key; {usage}")

    def _list_path(self, text: str, node: Node, fld: str) -> StatePath:
        path = self._path(text, node, fld)
        if path.virtual is not None:
            self.r.fail(node, fld, f"{path.virtual} is computed from the state; it cannot be changed")
        if path.type is not Any and not path.is_list:
            self.r.fail(node, fld, f"{text} is {type_words(path.type)}, not a list")
        return path

    def _move(self, words: list[str], kn: Node, vn: Node, fld: str, where: Where, key: str) -> SetupOp:
        src = self._path(words[0], kn, fld)
        dst = self._path(words[2], kn, fld)
        for p in (src, dst):
            if p.virtual is not None:
                self.r.fail(kn, fld, f"{p.virtual} is computed from the state; it cannot be changed")
        position: Literal["top", "bottom"] = "top" if len(words) == 4 and words[3] == "top" else "bottom"
        counts = [unwrap_optional(p.type) is int for p in (src, dst)]
        if all(counts):
            if len(words) == 4:
                self.r.fail(kn, fld, "top/bottom is for lists; between two numbers write 'FROM -> TO: amount'")
            amount = self.r.integer(vn, fld)
            if amount < 0:
                self.r.fail(vn, fld, "the amount moved must not be negative")
            return SetupOp("move", src, amount, vn, where, key, dst, position)
        for p in (src, dst):
            if p.type is not Any and not p.is_list:
                self.r.fail(kn, fld, f"{p.text} is {type_words(p.type)}; move items between two lists "
                            "or an amount between two numbers")
        if src.type is not Any and dst.type is not Any and src.item_type != dst.item_type:
            self.r.fail(kn, fld, f"{src.text} holds {type_words(src.item_type)} but {dst.text} holds "
                        f"{type_words(dst.item_type)}")
        item = src.item_type if src.type is not Any else dst.item_type
        value = self.r.typed(vn, list_of(item), fld)
        return SetupOp("move", src, value, vn, where, key, dst, position)

    # -- expectations ---------------------------------------------------------------------------
    def _checks(self, node: Node, fld: str) -> tuple[Check, ...]:
        if isinstance(node, ScalarNode) and node.tag.endswith(":null"):
            self.r.fail(node, fld, f"'{fld}' is empty; list what must hold, or remove the key")
        return tuple(self._check(key, kn, vn, fld) for key, kn, vn in self.r.mapping(node, fld))

    def _check(self, key: str, kn: Node, vn: Node, prefix: str) -> Check:
        fld = f"{prefix}: {key}"
        words = key.split()
        where = self.r.where(kn, fld)
        path = self._path(words[0], kn, fld) if words else None
        if path is None:
            self.r.fail(kn, fld, "an empty key")
        if len(words) == 1:
            return Check("equals", path, self.r.typed(vn, path.type, fld), where, key)
        op = words[1]
        container = path.type is Any or path.is_list or dict_types(path.type) is not None
        if op in ("len", "has", "lacks", "count") and not container:
            self.r.fail(kn, fld, f"{words[0]} is {type_words(path.type)}; '{op}' is for lists and tables")
        if len(words) == 2 and op == "len":
            return Check("len", path, self.r.integer(vn, fld), where, key)
        if len(words) == 2 and op in ("has", "lacks"):
            items = self.r.typed(vn, list_of(path.item_type), fld)
            return Check("has" if op == "has" else "lacks", path, items, where, key)
        if len(words) == 3 and op == "count":
            item = self.r.typed(_scalar_node(words[2], kn), path.item_type, fld)
            return Check("count", path, self.r.integer(vn, fld), where, key, item)
        self.r.fail(kn, fld, "cannot read this key; write 'PATH: value', 'PATH len: n', 'PATH has: [..]', "
                    "'PATH lacks: [..]' or 'PATH count ITEM: n'")

    # -- randomness --------------------------------------------------------------------------------
    def _script(self, node: Node, fld: str, entries: list[tuple[str, Node, Node]] | None = None) -> ScriptLoad:
        assert self.adapter is not None
        entries = self.r.mapping(node, fld) if entries is None else entries
        out: list[tuple[str, int | str, Where]] = []
        known = (*SCRIPT_KEYS, *self.adapter.script_keys)
        for key, kn, vn in entries:
            sub = f"{fld}: {key}" if fld else key
            if key not in known:
                self.r.fail(kn, sub, "unknown script entry" + suggest(key, known, "script entries"))
            for i, item in enumerate(self.r.items(vn, sub)):
                at = f"{sub}[{i + 1}]"
                if key in self.adapter.script_keys:
                    out.append((key, self.r.text(item, at), self.r.where(item, at)))
                    continue
                n = self.r.integer(item, at)
                if key == "dice" and not 1 <= n <= 6:
                    self.r.fail(item, at, f"a die shows 1 to 6, not {n}")
                if key == "choices" and n < 0:
                    self.r.fail(item, at, f"a choice is a position counted from 0, not {n}")
                out.append((key, n, self.r.where(item, at)))
        return ScriptLoad(tuple(out))

    # -- steps ---------------------------------------------------------------------------------------
    def _steps(self, node: Node) -> tuple[Step, ...]:
        if not isinstance(node, SequenceNode):
            self.r.fail(node, "steps", f"'steps' is a list ('- do: ACTION' lines), got {describe_node(node)}")
        return tuple(self._step(i + 1, n) for i, n in enumerate(node.value))

    def _step(self, number: int, node: Node) -> Step:
        assert self.adapter is not None
        fld = f"step {number}"
        if isinstance(node, ScalarNode) and not node.tag.endswith(":null"):
            self.r.fail(node, fld, f"write '- do: {node.value}' (a step is a table)")
        entries = self.r.mapping(node, fld)
        keys = {k: (kn, vn) for k, kn, vn in entries}
        allowed = (*STEP_KEYS, *self.adapter.script_keys)
        for key, (kn, _vn) in keys.items():
            if key not in allowed:
                self.r.fail(kn, f"{fld}: {key}", "unknown step key" + suggest(key, allowed, "step keys"))
        where = self.r.where(node, fld)
        script_entries = [(k, kn, vn) for k, kn, vn in entries if k in (*SCRIPT_KEYS, *self.adapter.script_keys)]
        script = self._script(node, fld, script_entries)
        self._step_shape(keys, node, fld)
        action = by = None
        if "do" in keys:
            action = self._action(keys["do"][1], f"{fld}: do", may_be_illegal="expect_illegal" in keys)
        if "by" in keys:
            by = self.r.text(keys["by"][1], f"{fld}: by")
            assert self.paths is not None
            try:
                self.paths.check_player(by, "")
            except ValueError as exc:
                self.r.fail(keys["by"][1], f"{fld}: by", str(exc))
        repeat: tuple[str, ...] = ()
        until: tuple[Check, ...] = ()
        if "repeat" in keys:
            items = self.r.items(keys["repeat"][1], f"{fld}: repeat")
            repeat = tuple(self._action(n, f"{fld}: repeat", may_be_illegal=False) for n in items)
            until = self._checks(keys["until"][1], f"{fld}: until")
        return Step(
            number=number, where=where, action=action, by=by, repeat=repeat, until=until, script=script,
            expect=self._checks(keys["expect"][1], f"{fld}: expect") if "expect" in keys else (),
            expect_events=self._events(keys, "expect_events", fld),
            expect_no_events=self._events(keys, "expect_no_events", fld),
            illegal=self._illegal(keys["expect_illegal"][1], f"{fld}: expect_illegal")
            if "expect_illegal" in keys else None,
            note=self.r.text(keys["note"][1], f"{fld}: note") if "note" in keys else "",
        )

    def _step_shape(self, keys: dict[str, tuple[Node, Node]], node: Node, fld: str) -> None:
        """Which keys go together: one of do / repeat+until / a script / an expect."""
        r = self.r
        if "do" in keys and "repeat" in keys:
            r.fail(keys["repeat"][0], fld, "a step either does one action (do) or repeats some (repeat), not both")
        if ("repeat" in keys) != ("until" in keys):
            have, need = ("repeat", "until") if "repeat" in keys else ("until", "repeat")
            r.fail(keys[have][0], fld, f"'{have}' needs '{need}': repeat: [PASS] with until: {{phase: battle}}")
        if "by" in keys and "do" not in keys:
            r.fail(keys["by"][0], fld, "'by' names who does the action of 'do'")
        if "expect_illegal" in keys:
            if "do" not in keys:
                r.fail(keys["expect_illegal"][0], fld, "'expect_illegal' needs the action in 'do'")
            for k in ("expect_events", "expect_no_events"):
                if k in keys:
                    r.fail(keys[k][0], fld, f"a refused action has no events; remove '{k}'")
        if ("expect_events" in keys or "expect_no_events" in keys) and "do" not in keys and "repeat" not in keys:
            k = "expect_events" if "expect_events" in keys else "expect_no_events"
            r.fail(keys[k][0], fld, "events come from an action: add 'do' or 'repeat'")
        meaningful = {"do", "repeat", "expect", "dice", "choices", *self._script_keys()}
        if not meaningful & set(keys):
            r.fail(node, fld, "this step does nothing: give it 'do', 'repeat', 'dice', 'choices' or 'expect'")

    def _script_keys(self) -> Collection[str]:
        assert self.adapter is not None
        return self.adapter.script_keys

    def _action(self, node: Node, fld: str, *, may_be_illegal: bool) -> str:
        """An action in notation; unless the step expects a refusal it must be one the game knows."""
        assert self.adapter is not None
        text = " ".join(self.r.text(node, fld).split())
        if not text:
            self.r.fail(node, fld, "an empty action")
        if may_be_illegal:
            return text
        action = Action.parse(text)
        space = self.adapter.action_space()
        if action in space:
            return text
        verbs = sorted({a.verb for a in space.actions})
        if action.verb not in verbs:
            self.r.fail(node, fld, f"{action.verb!r} is not an action of {self.adapter.name}"
                        + suggest(action.verb, verbs, "actions"))
        same = [str(a) for a in space.actions if a.verb == action.verb]
        close = difflib.get_close_matches(text, same, n=3, cutoff=0.5) or same[:3]
        self.r.fail(node, fld, f"{text!r} is not an action of {self.adapter.name} (for example: "
                    f"{', '.join(close)}); to test a refusal, add expect_illegal")

    def _illegal(self, node: Node, fld: str) -> IllegalExpectation:
        if isinstance(node, MappingNode):
            keys = {k: (kn, vn) for k, kn, vn in self.r.mapping(node, fld)}
            for key, (kn, _vn) in keys.items():
                if key not in ("rule", "says"):
                    self.r.fail(kn, f"{fld}.{key}", "unknown key" + suggest(key, ("rule", "says"), "keys"))
            if "rule" not in keys:
                self.r.fail(node, fld, "name the rule id: expect_illegal: {rule: TC-ACT-3}")
            says = self.r.text(keys["says"][1], f"{fld}.says") if "says" in keys else None
            return IllegalExpectation(self.r.text(keys["rule"][1], f"{fld}.rule"), says, self.r.where(node, fld))
        return IllegalExpectation(self.r.text(node, fld), None, self.r.where(node, fld))

    def _events(self, keys: dict[str, tuple[Node, Node]], key: str, fld: str) -> tuple[EventPattern, ...]:
        if key not in keys:
            return ()
        node = keys[key][1]
        out = []
        for i, item in enumerate(self.r.items(node, f"{fld}: {key}")):
            sub = f"{fld}: {key}[{i + 1}]"
            if isinstance(item, ScalarNode):
                out.append(EventPattern(self.r.text(item, sub), None, (), self.r.where(item, sub)))
                continue
            entries = self.r.mapping(item, sub)
            found = {k: vn for k, _kn, vn in entries}
            if "kind" not in found:
                self.r.fail(item, sub, "an event pattern needs its kind: {kind: refuel}")
            text = self.r.text(found["text"], f"{sub}.text") if "text" in found else None
            data = tuple(
                (k, self.r.plain(vn, Any),
                 str(vn.value) if isinstance(vn, ScalarNode) and vn.style is None else None)
                for k, _kn, vn in entries if k not in ("kind", "text")
            )
            out.append(EventPattern(self.r.text(found["kind"], f"{sub}.kind"), text, data, self.r.where(item, sub)))
        return tuple(out)


def check_items(value: Any) -> Sequence[Any]:
    """The items ``has``/``lacks``/``count``/``len`` look at: a list's items, a table's keys."""
    value = encode(value)
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, list):
        return value
    raise PathProblem(f"{show(value)} is neither a list nor a table")
