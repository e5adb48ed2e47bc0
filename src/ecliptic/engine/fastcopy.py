"""Fast deep copies of dataclass trees, with a copier generated once per class from its field types.

Bots clone a state thousands of times per decision, and :func:`copy.deepcopy` spends most of its
time on generality a game state does not need: a memo of every object (a state is a tree, never
a graph), the ``__reduce_ex__`` protocol, and a type dispatch at every value. A state's field
annotations already say what needs copying, so this module reads them once per class and writes
(with :func:`exec`) one plain function per dataclass:

* immutable values are shared: ``int``, ``str``, ``bool``, ``float``, ``None``, ``Literal``,
  enums, tuples, frozensets and :class:`~ecliptic.engine.frozendict.FrozenDict` of immutable
  values, frozen dataclasses of immutable fields;
* ``list[T]``, ``dict[K, V]`` and ``set[T]`` are copied, their items copied as ``T``/``V`` say
  (a list of strings is one C-level ``list.copy``);
* a nested dataclass is copied by its own generated copier;
* ``Any`` (a decision's JSON-ready ``data``) is copied as JSON data: dicts and lists are rebuilt,
  scalars are shared;
* anything else (an unknown class, a type hint that cannot be resolved) falls back to
  :func:`copy.deepcopy`, so a field added later is always copied safely, only not as fast.

The copier of a plain (non-slots, non-frozen) dataclass copies the instance ``__dict__`` in one
C-level call (every scalar field at once) and then replaces only the mutable fields with their
copies (an attribute that is not a field is therefore shared). Reading the generated source:
:func:`copier_source`. A state must be a tree: no memo is kept, so one list held by two fields
would become two lists (``tests/test_clone.py`` checks that states are trees).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ecliptic.engine.frozendict import FrozenDict

T = TypeVar("T")

Copier = Callable[[Any], Any]

_SCALARS: frozenset[type] = frozenset({int, str, bool, float, complex, bytes, type(None)})
_COPIERS: dict[type, Copier] = {}
_SOURCES: dict[type, str] = {}
_IMMUTABLE: dict[type, bool] = {}
_BUILDING: set[type] = set()


def deep_copy(obj: T) -> T:
    """A copy of ``obj`` that shares no mutable object with it (for a tree of dataclasses)."""
    fn = _COPIERS.get(type(obj))
    if fn is None:
        fn = copier(type(obj))
    return cast(T, fn(obj))


def copier(cls: type[T]) -> Callable[[T], T]:
    """The generated copy function of a dataclass (built on first use, then reused)."""
    fn = _COPIERS.get(cls)
    if fn is None:
        if not (dataclasses.is_dataclass(cls) and isinstance(cls, type)):
            return cast(Callable[[T], T], copy_any)
        _build(cls)
        fn = _COPIERS[cls]
    return cast(Callable[[T], T], fn)


def copier_source(cls: type) -> str:
    """The Python source generated for ``cls`` (for reading and debugging)."""
    copier(cls)
    return _SOURCES.get(cls, "# shared: every field is immutable\n")


def copy_any(value: Any) -> Any:
    """Copy a value whose type is not declared (``Any``): JSON-like data is rebuilt, scalars and
    immutable values are shared, dataclasses use their copier, anything else is deep-copied."""
    t = type(value)
    if t in _SCALARS:
        return value
    if t is list:
        return [copy_any(v) for v in value]
    if t is dict:
        return {k: copy_any(v) for k, v in value.items()}
    if t is tuple:
        return tuple(copy_any(v) for v in value)
    if dataclasses.is_dataclass(t):
        return copier(t)(value)
    if isinstance(value, enum.Enum | frozenset):
        return value
    return copy.deepcopy(value)


# -- code generation -------------------------------------------------------------------------


class _Gen:
    """Writes the body of one copier; ``names`` are the helpers its code refers to."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = {"_copy_any": copy_any, "_deepcopy": copy.deepcopy, "_scalars": _SCALARS}
        self.depth = 0

    def ref(self, obj: Any, hint: str) -> str:
        name = f"_{hint}_{id(obj):x}"
        self.names[name] = obj
        return name

    def expr(self, tp: Any, x: str) -> str | None:
        """Python source that copies the value of expression ``x`` of type ``tp``, or ``None``
        when such a value is immutable and can be shared."""
        if _immutable(tp):
            return None
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if tp is Any:  # (an item of a decision's data: a scalar is shared without a call)
            return f"({x} if {x}.__class__ in _scalars else _copy_any({x}))" if x.isidentifier() else f"_copy_any({x})"
        if origin is list:  # (an empty list is copied without building a comprehension)
            return self._items(args[0] if args else Any, x, f"{x}.copy()",
                               "([{inner} for {v} in {x}] if {x} else [])")
        if origin is set:
            return self._items(args[0] if args else Any, x, f"set({x})", "{{{inner} for {v} in {x}}}")
        if origin is dict:
            return self._items(args[1] if args else Any, x, f"{x}.copy()",
                               "({{{k}: {inner} for {k}, {v} in {x}.items()}} if {x} else {{}})")
        if origin is tuple:
            item = args[0] if len(args) == 2 and args[1] is Ellipsis else Any
            return self._items(item, x, x, "tuple([{inner} for {v} in {x}])")
        if origin is typing.Union or origin is types.UnionType:
            rest = [a for a in args if a is not type(None)]
            if len(rest) == 1:
                inner = self.expr(rest[0], x)
                return None if inner is None else f"(None if {x} is None else {inner})"
            return f"_copy_any({x})"
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return f"{self.ref(_copier_for_nested(tp), 'copy_' + tp.__name__)}({x})"
        return f"_deepcopy({x})"

    def _items(self, item_type: Any, x: str, shallow: str, template: str) -> str:
        """A copy of a container: ``shallow`` when its items are immutable, else ``template``
        (a comprehension over ``{v}``, keys ``{k}``) with the items' own copy."""
        self.depth += 1
        v, k = f"v{self.depth}", f"k{self.depth}"
        inner = self.expr(item_type, v)
        self.depth -= 1
        return shallow if inner is None else template.format(v=v, k=k, x=x, inner=inner)


def _copier_for_nested(cls: type) -> Copier:
    """The copier of a dataclass met in a field: built now, or, if it is being built (a class
    that contains itself), a function that looks it up when called."""
    if cls not in _COPIERS and cls not in _BUILDING:
        _build(cls)
    if cls in _COPIERS:
        return _COPIERS[cls]
    return lambda value: _COPIERS[cls](value)


def _hints(cls: type) -> dict[str, Any] | None:
    try:
        return typing.get_type_hints(cls)
    except Exception:  # an unresolvable forward reference: copy such a class with deepcopy
        return None


def _immutable(tp: Any) -> bool:
    """Can a value of type ``tp`` be shared between a state and its copy?"""
    if tp in _SCALARS or tp is type(None):
        return True
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Literal:
        return True
    if origin in (tuple, frozenset, FrozenDict):
        return all(a is Ellipsis or _immutable(a) for a in args)
    if origin is typing.Union or origin is types.UnionType:
        return all(_immutable(a) for a in args)
    if isinstance(tp, type):
        if issubclass(tp, enum.Enum):
            return True
        if dataclasses.is_dataclass(tp):
            return _immutable_dataclass(tp)
    return False


def _immutable_dataclass(cls: type) -> bool:
    if cls not in _IMMUTABLE:
        _IMMUTABLE[cls] = False  # while deciding (a class that contains itself is not shared)
        params = getattr(cls, "__dataclass_params__", None)
        hints = _hints(cls)
        _IMMUTABLE[cls] = bool(
            params is not None and params.frozen and hints is not None
            and all(_immutable(hints[f.name]) for f in dataclasses.fields(cls))
        )
    return _IMMUTABLE[cls]


def _build(cls: type) -> None:
    if _immutable_dataclass(cls):
        _COPIERS[cls] = _share
        return
    hints = _hints(cls)
    if hints is None:
        _COPIERS[cls] = copy.deepcopy
        return
    _BUILDING.add(cls)
    try:
        source, names = _write(cls, hints)
    finally:
        _BUILDING.discard(cls)
    exec(compile(source, f"<fastcopy {cls.__qualname__}>", "exec"), names)
    _SOURCES[cls] = source
    _COPIERS[cls] = names[f"copy_{cls.__name__}"]


def _write(cls: type, hints: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The source of the copier of ``cls`` and the names it refers to."""
    gen = _Gen()
    gen.names.update(_cls=cls, _new=object.__new__, _set=object.__setattr__)
    fields = [f.name for f in dataclasses.fields(cls)]
    lines = [f"def copy_{cls.__name__}(o):"]
    if _plain(cls):  # one C-level copy of the instance dict, then the mutable fields replaced
        lines.append("    d = o.__dict__.copy()")
        for name in fields:
            code = gen.expr(hints[name], f"d[{name!r}]")
            if code is not None:
                lines.append(f"    d[{name!r}] = {code}")
        lines += ["    n = _new(_cls)", "    n.__dict__ = d"]
    else:  # slots or frozen: every field set through object.__setattr__
        lines.append("    n = _new(_cls)")
        for name in fields:
            code = gen.expr(hints[name], f"o.{name}")
            lines.append(f"    _set(n, {name!r}, {code or f'o.{name}'})")
    lines.append("    return n")
    return "\n".join(lines) + "\n", dict(gen.names)


def _plain(cls: type) -> bool:
    """Instances keep every field in a writable ``__dict__`` (no slots anywhere, not frozen)."""
    params = getattr(cls, "__dataclass_params__", None)
    slots = any("__slots__" in vars(c) for c in cls.__mro__[:-1])
    return not slots and not (params is not None and params.frozen)


def _share(value: Any) -> Any:
    return value
