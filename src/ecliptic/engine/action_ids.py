"""A game's committed, append-only table of action ids: the numbering agents are trained on.

A policy network has one output per action id, so a numbering computed from the rules (the
sorted set of every action) would change with every content or rules change and silently
break every trained checkpoint. Instead each game commits a table (``action-ids.toml`` in its
``content`` package) that only ever grows:

* the table is a list of versions (``tauceti-actions/1``, ``/2``, …); the ids count up through
  the versions' ``added`` lists, so version N's ids are ``0..size(N) - 1`` and keep their
  meaning in every later version;
* an action the rules no longer offer is ``retired`` by a new version: its id stays (never
  offered, its mask entry always false) and is never given to another action; if the rules
  offer it again a later version ``revived`` it under the same id;
* ``scripts/build-action-ids.py`` writes the next version from the rules' domain, and
  ``tests/test_action_ids.py`` fails while the table and the domain disagree.

A checkpoint records ``ActionSpace.version``; run under a later version it reads the first
``ActionSpace.sizes[its version]`` ids (the new ids are not in its output, so an agent masks
them off or extends its output layer with new units).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.errors import ContentError, IllegalAction

REGENERATE = "run scripts/build-action-ids.py"
_NOTATION = re.compile(r"[A-Z][A-Z0-9-]*( [!#-\[\]-~]+)*")
"""A canonical notation the table can hold verbatim in a TOML string: an upper-case verb and
printable ASCII arguments, without the quote and backslash that TOML would escape."""


@dataclass(frozen=True)
class Version:
    """One step of the numbering: the actions it appended (the next ids, in order), retired
    and revived."""

    name: str
    added: tuple[Action, ...] = ()
    retired: tuple[Action, ...] = ()
    revived: tuple[Action, ...] = ()


@dataclass(frozen=True)
class IdTable:
    prefix: str
    """``tauceti-actions``: every version is named ``<prefix>/<n>``."""
    versions: tuple[Version, ...]

    @property
    def version(self) -> str:
        return self.versions[-1].name

    def space(self) -> ActionSpace:
        """The numbering of the latest version."""
        by_id, retired, sizes = self._replay()
        return ActionSpace.numbered(by_id, self.version, retired, sizes)

    def offered(self) -> set[Action]:
        """The actions the latest version numbers and does not retire."""
        by_id, retired, _ = self._replay()
        return {a for i, a in enumerate(by_id) if i not in retired}

    def _replay(self) -> tuple[list[Action], set[int], dict[str, int]]:
        by_id: list[Action] = []
        retired: set[int] = set()
        sizes: dict[str, int] = {}
        for v in self.versions:
            by_id.extend(v.added)
            ids = {a: i for i, a in enumerate(by_id)}
            retired |= {ids[a] for a in v.retired}
            retired -= {ids[a] for a in v.revived}
            sizes[v.name] = len(by_id)
        return by_id, retired, sizes


def first(prefix: str, domain: Iterable[Action]) -> IdTable:
    """Version 1: the domain in sorted order (the numbering before ids were committed)."""
    return update(IdTable(prefix, ()), domain)


def update(table: IdTable, domain: Iterable[Action]) -> IdTable:
    """``table`` with one more version when ``domain`` differs from what it offers: new actions
    appended in sorted order, missing ones retired, returning ones revived; never a reordering.
    The same table when they agree."""
    domain = set(domain)
    unfit = sorted(str(a) for a in domain if not notation_fits(a))
    if unfit:
        raise ValueError(f"the table cannot hold these notations (a verb in capitals, printable ASCII "
                         f"arguments without quotes or backslashes): {unfit[:5]}")
    by_id, retired, _ = table._replay()
    known = set(by_id)
    live = {a for i, a in enumerate(by_id) if i not in retired}
    step = Version(f"{table.prefix}/{len(table.versions) + 1}",
                   added=tuple(sorted(domain - known)), retired=tuple(sorted(live - domain)),
                   revived=tuple(sorted((domain & known) - live)))
    if not (step.added or step.retired or step.revived):
        return table
    return replace(table, versions=(*table.versions, step))


def disagreement(table: IdTable, domain: Iterable[Action]) -> str | None:
    """What is wrong when the table's latest version is not the rules' domain, else ``None``."""
    domain = set(domain)
    offered = table.offered()
    if domain == offered:
        return None
    missing, gone = sorted(domain - offered), sorted(offered - domain)
    parts = [f"{len(missing)} action(s) the rules offer have no id (e.g. {', '.join(map(str, missing[:3]))})"
             if missing else "",
             f"{len(gone)} id(s) name actions the rules no longer offer (e.g. {', '.join(map(str, gone[:3]))})"
             if gone else ""]
    return f"the action id table {table.version} is out of date: {'; '.join(p for p in parts if p)}: {REGENERATE}"


def render(table: IdTable, title: str) -> str:
    """The table as TOML, one notation a line with its id beside it (so a diff shows ids)."""
    lines = [f"# {title}: the committed action ids (docs/action-ids.md). Written by scripts/build-action-ids.py:",
             "# append-only, never reordered or edited by hand. Ids count up through the versions' `added`",
             "# lists; a retired id is never offered and never given to another action.", ""]
    next_id = 0
    ids: dict[Action, int] = {}
    for v in table.versions:
        lines += ["[[version]]", f'name = "{v.name}"']
        for key in ("added", "retired", "revived"):
            actions: tuple[Action, ...] = getattr(v, key)
            if not actions:
                continue
            lines.append(f"{key} = [")
            for a in actions:
                if key == "added":
                    ids[a] = next_id
                    next_id += 1
                lines.append(f'    "{a}",  # {ids[a]}')
            lines.append("]")
        lines.append("")
    return "\n".join(lines)


def parse(text: str, prefix: str, where: str) -> IdTable:
    """Read a table; :class:`ContentError` naming ``where`` and the fault if it is not one the
    script could have written (a reused notation, a gap in the versions, retiring what is not
    offered...)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{where}: not valid TOML: {exc}") from None
    rows = data.get("version")
    if set(data) != {"version"} or not isinstance(rows, list) or not rows:
        raise ContentError(f"{where}: expected only a list of [[version]] tables")
    versions: list[Version] = []
    by_id: list[Action] = []
    retired: set[Action] = set()
    for n, row in enumerate(rows, 1):
        name = f"{prefix}/{n}"
        here = f"{where}: version {n}"
        if not isinstance(row, dict) or row.get("name") != name:
            raise ContentError(f"{here}: expected name = {name!r}")
        if not set(row) <= {"name", "added", "retired", "revived"}:
            raise ContentError(f"{here}: unknown keys {sorted(set(row) - {'name', 'added', 'retired', 'revived'})}")
        added, gone, back = (_actions(row.get(key, []), f"{here} {key}") for key in ("added", "retired", "revived"))
        if not (added or gone or back):
            raise ContentError(f"{here}: a version must add, retire or revive an action")
        known = set(by_id)
        for action in added:
            if action in known:
                raise ContentError(f"{here}: {action} already has an id; an id is never reused")
            known.add(action)
        by_id.extend(added)
        for action in gone:
            if action not in known or action in retired:
                raise ContentError(f"{here}: {action} cannot be retired: it is not offered")
            retired.add(action)
        for action in back:
            if action not in retired:
                raise ContentError(f"{here}: {action} cannot be revived: it is not retired")
            retired.discard(action)
        versions.append(Version(name, added, gone, back))
    return IdTable(prefix, tuple(versions))


def _actions(value: Any, where: str) -> tuple[Action, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ContentError(f"{where}: expected a list of action notations")
    out: list[Action] = []
    for text in value:
        if not _NOTATION.fullmatch(text):
            raise ContentError(f"{where}: {text!r} is not an action's canonical notation")
        try:
            out.append(Action.parse(text))
        except IllegalAction:  # pragma: no cover - the pattern admits only parseable text
            raise ContentError(f"{where}: {text!r} is not an action") from None
    if len(set(out)) != len(out):
        raise ContentError(f"{where}: an action is listed twice")
    return tuple(out)


def notation_fits(action: Action) -> bool:
    """Can the table hold this action's notation? (The rules' domain must only hold such.)"""
    return _NOTATION.fullmatch(str(action)) is not None


def load(package: str, filename: str, prefix: str) -> IdTable:
    """The table a game ships in its package."""
    try:
        text = resources.files(package).joinpath(filename).read_text()
    except FileNotFoundError:
        raise ContentError(f"the action id table {package}/{filename} is missing: {REGENERATE}") from None
    return parse(text, prefix, filename)
