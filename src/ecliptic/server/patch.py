"""View patches: what changed between two views a viewer was sent, as a JSON Patch.

At a thousand WebSocket viewers an action sends a thousand copies of a view (about 8 KB in
Tau Ceti: 8 MB on the network), although it changes little of the view. A connection that
opts in (docs/server.md) is sent the difference from the view it has instead (about 650
bytes; docs/server-benchmark.md: the bytes, not the server's CPU, are what this saves): a
list of RFC 6902 operations (``add``, ``remove``, ``replace``; paths are JSON Pointers,
RFC 6901). RFC 7386's merge patch would be simpler, but it cannot set a value to
``null`` (a ``null`` removes the member), and views hold ``null`` where a value is absent.

A view's **rev** is a digest of its JSON text, so a client can tell which view a patch
applies to (``base``) and asks for the whole view again when it is not the one it has.

:func:`apply` is the reference the browser's ``web/static/patch.js`` is tested against.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from typing import Any

Op = dict[str, Any]
ARRAY_INDEX = re.compile(r"0|[1-9][0-9]*")


def encode(data: Any) -> str:
    """The compact JSON text the server sends (one encoding for the digest and the wire)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def rev(text: str) -> str:
    """The revision of a view given its JSON text: 64 bits of BLAKE2b, enough that two views
    of one viewer never share one by chance."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def pointer(path: tuple[str | int, ...]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def diff(old: Any, new: Any) -> list[Op]:
    """Operations that turn ``old`` into ``new`` (both JSON data: dicts, lists, str, int,
    float, bool, None). ``True`` and ``1`` differ here, as they do in JavaScript, and ``1``
    and ``1.0`` are one number, as they are there. Where the operations on a container would
    be longer than the container itself, they are one ``replace`` of it."""
    ops: list[Op] = []
    _diff(old, new, (), ops)
    return ops


def _same_kind(a: Any, b: Any) -> bool:
    return type(a) is type(b) or (type(a) in (int, float) and type(b) in (int, float))


def _unchanged(a: Any, b: Any) -> bool:
    """Equal scalars of one kind: the common case, checked without a call per node."""
    return a is b or (type(a) is type(b) and type(a) is not dict and type(a) is not list and a == b)


def _diff(old: Any, new: Any, path: tuple[str | int, ...], ops: list[Op]) -> None:
    if not _same_kind(old, new):
        ops.append({"op": "replace", "path": pointer(path), "value": new})
        return
    if isinstance(new, dict):
        inner: list[Op] = []
        for key in old:
            if key not in new:
                inner.append({"op": "remove", "path": pointer((*path, key))})
        for key, value in new.items():
            if key not in old:
                inner.append({"op": "add", "path": pointer((*path, key)), "value": value})
            elif not _unchanged(old[key], value):
                _diff(old[key], value, (*path, key), inner)
        _keep_shorter(inner, new, path, ops)
    elif isinstance(new, list):
        inner = []
        common = min(len(old), len(new))
        for i in range(common):
            if not _unchanged(old[i], new[i]):
                _diff(old[i], new[i], (*path, i), inner)
        for i in range(common, len(new)):
            inner.append({"op": "add", "path": pointer((*path, i)), "value": new[i]})
        for i in range(len(old) - 1, common - 1, -1):  # from the end, so each index is still there
            inner.append({"op": "remove", "path": pointer((*path, i))})
        _keep_shorter(inner, new, path, ops)
    elif old != new:
        ops.append({"op": "replace", "path": pointer(path), "value": new})


def _keep_shorter(inner: list[Op], new: Any, path: tuple[str | int, ...], ops: list[Op]) -> None:
    if len(inner) > 2 and len(encode(inner)) > len(encode(new)) + len(pointer(path)) + 30:
        ops.append({"op": "replace", "path": pointer(path), "value": new})
    else:
        ops.extend(inner)


def _parse(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise ValueError(f"a JSON Pointer starts with '/': {path!r}")
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _index(container: list[Any], token: str, adding: bool) -> int:
    if token == "-" and adding:
        return len(container)
    if not ARRAY_INDEX.fullmatch(token):
        raise ValueError(f"{token!r} is not an array index")
    i = int(token)
    if i > len(container) or (i == len(container) and not adding):
        raise ValueError(f"index {i} is out of the array (length {len(container)})")
    return i


def apply(doc: Any, ops: list[Op], *, in_place: bool = False) -> Any:
    """``doc`` with ``ops`` applied (``doc`` itself is not changed, unless ``in_place``: a
    client that keeps only the newest view need not copy it); a ``ValueError`` for an
    operation that does not fit the document (the client then asks for the whole view)."""
    if not in_place:
        doc = copy.deepcopy(doc)
    for op in ops:
        try:
            doc = _apply_one(doc, op)
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ValueError(f"the patch operation {op!r} does not fit the document ({exc!r})") from None
    return doc


def _apply_one(doc: Any, op: Op) -> Any:
    """``doc`` after one operation (changed in place, except a replacement of the whole)."""
    kind, tokens = op.get("op"), _parse(op.get("path", ""))
    if kind not in ("add", "remove", "replace"):
        raise ValueError(f"unknown patch operation {kind!r}")
    if not tokens:
        if kind == "remove":
            raise ValueError("the whole document cannot be removed")
        return copy.deepcopy(op["value"])
    parent = doc
    for token in tokens[:-1]:
        parent = parent[_index(parent, token, False)] if isinstance(parent, list) else parent[token]
    last = tokens[-1]
    if isinstance(parent, list):
        i = _index(parent, last, kind == "add")
        if kind == "add":
            parent.insert(i, copy.deepcopy(op["value"]))
        elif kind == "remove":
            del parent[i]
        else:
            parent[i] = copy.deepcopy(op["value"])
    elif isinstance(parent, dict):
        if kind != "add" and last not in parent:
            raise ValueError(f"no member {last!r} to {kind}")
        if kind == "remove":
            del parent[last]
        else:
            parent[last] = copy.deepcopy(op["value"])
    else:
        raise ValueError(f"{op.get('path')!r} goes through a value that is not an object or array")
    return doc
