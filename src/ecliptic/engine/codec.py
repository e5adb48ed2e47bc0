"""Generic, type-driven conversion between dataclasses and JSON-ready data.

One mechanism serves three needs: saving game states, loading content data
files with schema validation, and reading game records. Decoding checks every
value against the dataclass annotations and reports the path of the first
value at fault (``factions[2].skills.Science: expected int, got 'four'``).
"""

from __future__ import annotations

import dataclasses
import enum
import re
import types
import typing
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from ecliptic.engine.frozendict import FrozenDict

T = TypeVar("T")

_INT_KEY = re.compile(r"-?[0-9]{1,18}")
"""A table key that stands for an integer: ASCII digits only (``int()`` raises on ``²`` and
reads ``٣``), and short (``int()`` refuses more than 4,300 digits)."""

_HINTS: dict[type, dict[str, Any]] = {}


class DecodeError(ValueError):
    """A value does not match the type it should have; ``path`` says where."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.reason = message
        super().__init__(f"{path or '<root>'}: {message}")


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = get_type_hints(cls)
        _HINTS[cls] = hints
    return hints


def encode(value: Any) -> Any:
    """Turn a dataclass tree into JSON-ready lists, dicts and scalars."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(encode(v) for v in value)
    return value


def decode(cls: type[T], data: Any, path: str = "") -> T:
    """Build a ``cls`` from JSON-ready data, checking every field."""
    return typing.cast(T, _decode(cls, data, path))


def check_fields(instance: Any) -> None:
    """Raise a :class:`DecodeError` (a ``ValueError``) naming the first field of a dataclass
    instance whose value does not match its annotation: what a frozen ``Config`` calls from
    ``__post_init__``, because Python does not check annotations (``players=True`` is an int,
    ``game="medium"`` a str) and a bad value would fail far from where it was given."""
    hints = _hints(type(instance))
    for f in dataclasses.fields(instance):
        _decode(hints[f.name], encode(getattr(instance, f.name)), f.name)


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", str(tp))


def _decode(tp: Any, data: Any, path: str) -> Any:
    if tp is Any:
        return data
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _decode(arg, data, path)
            except DecodeError as exc:
                errors.append(exc.reason)
        raise DecodeError(path, " or ".join(errors) or "unexpected null")
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise DecodeError(path, f"expected one of {list(get_args(tp))}, got {data!r}")
        return data
    if origin in (list, tuple, frozenset, set):
        if not isinstance(data, list | tuple):
            raise DecodeError(path, f"expected a list, got {data!r}")
        args = get_args(tp)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(data):
                raise DecodeError(path, f"expected {len(args)} items, got {len(data)}")
            return tuple(_decode(a, d, f"{path}[{i}]") for i, (a, d) in enumerate(zip(args, data, strict=True)))
        item = args[0] if args else Any
        items = [_decode(item, d, f"{path}[{i}]") for i, d in enumerate(data)]
        return origin(items) if origin is not list else items
    if origin is dict or origin is FrozenDict:
        if not isinstance(data, dict):
            raise DecodeError(path, f"expected a table, got {data!r}")
        kt, vt = get_args(tp) or (Any, Any)
        out = {}
        for k, v in data.items():
            key = int(k) if kt is int and isinstance(k, str) and _INT_KEY.fullmatch(k) else k
            out[_decode(kt, key, f"{path}.{k}")] = _decode(vt, v, f"{path}.{k}")
        return out if origin is dict else FrozenDict(out)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise DecodeError(path, f"expected a table for {tp.__name__}, got {data!r}")
        hints = _hints(tp)
        fields = {f.name: f for f in dataclasses.fields(tp) if f.init}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise DecodeError(path, f"unknown field(s) {', '.join(unknown)} for {tp.__name__}")
        kwargs = {}
        for name, f in fields.items():
            sub = f"{path}.{name}" if path else name
            if name in data:
                kwargs[name] = _decode(hints[name], data[name], sub)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise DecodeError(sub, "missing required field")
        try:
            return tp(**kwargs)
        except (TypeError, ValueError) as exc:
            raise DecodeError(path, str(exc)) from None
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            raise DecodeError(path, f"expected one of {[m.value for m in tp]}, got {data!r}") from None
    if tp is float:
        if isinstance(data, int | float) and not isinstance(data, bool):
            return float(data)
        raise DecodeError(path, f"expected a number, got {data!r}")
    if tp in (int, str, bool):
        if type(data) is not tp:  # (``type``, not ``isinstance``: ``True`` is an int in Python)
            expected = "true or false" if tp is bool else _type_name(tp)
            raise DecodeError(path, f"expected {expected}, got {data!r}")
        return data
    if tp is type(None):
        if data is not None:
            raise DecodeError(path, f"expected null, got {data!r}")
        return None
    raise DecodeError(path, f"cannot decode type {tp!r}")
