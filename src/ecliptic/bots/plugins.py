"""Bots from outside Ecliptic: a researcher's trained policy or a designer's variant bot plays in
``ecliptic play``, ``simulate``, ``tournament``, ``calibrate``, ``balance`` and on the server
without a line of Ecliptic changed (docs/bots.md, "Your own bot").

A *plug-in* is Python code that calls :func:`ecliptic.bots.register_bot` (or
:func:`ecliptic.adapters.policy.register_policy`). Three ways name one:

* an installed distribution's entry point in the group ``ecliptic.bots`` (``mybots =
  "mypkg.bots"`` or ``mybots = "mypkg.bots:register"``): a module whose import registers its
  bots, or a callable called with no arguments that does. Installed plug-ins are loaded the first
  time a bot is made, in every process (a worker too), so nothing has to pass them along;
* ``--plugin TARGET`` on every command that builds bots (repeatable);
* ``$ECLIPTIC_PLUGINS``, targets separated by commas, read in every process as well.

A target is ``MODULE`` (importable: on the Python path), ``MODULE:FUNCTION``, or a file
``path/to/bots.py`` (``path/to/bots.py:FUNCTION``), loaded by its path. The modules loaded by
``--plugin`` are passed to the processes that play the games (:func:`with_plugins` wraps what a
backend, or the server's bot pool, sends its workers), since a worker is a fresh interpreter that
never read the command line.

Whatever goes wrong (no such module, an error while importing it, a name another bot already
has) is a :class:`PluginError`: one line naming the plug-in, never a traceback.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, Generic, TypeVar

from ecliptic.bots.base import BotSpecError

GROUP = "ecliptic.bots"
"""The entry-point group of installed plug-ins."""
ENV = "ECLIPTIC_PLUGINS"
"""The environment variable naming plug-ins, separated by commas."""

_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")

_loaded: list[str] = []
"""The targets loaded by name (``--plugin``, :func:`load_plugins`), in order: what workers load."""
_done: set[str] = set()
"""Every target loaded (entry points and the environment's too), so none is loaded twice."""
_installed = False
_loading_installed = False


class PluginError(BotSpecError):
    """A plug-in that cannot be loaded: not found, failing as it is imported, or registering a
    bot name that is taken. The message is one line naming the plug-in."""


def load_plugins(targets: Iterable[str]) -> list[str]:
    """Load each target (``MODULE``, ``MODULE:FUNCTION``, ``FILE.py``, ``FILE.py:FUNCTION``) once,
    in order, and remember it for the worker processes; returns the targets loaded so far."""
    for given in targets:
        target = _key(given)
        if target and target not in _done:
            _load(target, f"plug-in {given.strip()!r}")
            _loaded.append(target)
    return loaded()


def loaded() -> list[str]:
    """The targets loaded by name in this process (``--plugin``), for its worker processes."""
    return list(_loaded)


def env_targets() -> list[str]:
    """The targets of ``$ECLIPTIC_PLUGINS`` (commas between them; blanks ignored)."""
    return [t.strip() for t in os.environ.get(ENV, "").split(",") if t.strip()]


def load_env() -> None:
    """Load ``$ECLIPTIC_PLUGINS``'s targets. They are not added to :func:`loaded`: a worker reads
    the variable itself (it inherits the environment)."""
    for given in env_targets():
        target = _key(given)
        if target not in _done:
            _load(target, f"${ENV} plug-in {given!r}")


def load_installed() -> None:
    """Load the installed entry points of the group ``ecliptic.bots`` (once per process; a plug-in
    whose loading failed is tried, and reported, again)."""
    global _installed, _loading_installed
    if _installed or _loading_installed:
        return
    _loading_installed = True  # a plug-in that makes a bot while it loads does not come back here
    try:
        for point in sorted(metadata.entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
            if point.value in _done:
                continue
            where = f"installed plug-in {point.name!r} ({point.value}"
            dist = getattr(point, "dist", None)
            where += f", from {dist.name})" if dist is not None else ")"
            try:
                found = point.load()
            except PluginError:
                raise
            except BotSpecError as exc:
                raise PluginError(f"{where}: {exc}") from None
            except ModuleNotFoundError as exc:
                raise PluginError(f"{where}: cannot be imported: no module named {exc.name!r}") from None
            except Exception as exc:
                raise PluginError(f"{where}: failed while being imported: {_why(exc)}") from None
            _call(found, where)
            _done.add(point.value)
        _installed = True
    finally:
        _loading_installed = False


def load_all(targets: Iterable[str] = ()) -> None:
    """Everything a command loads before it builds a bot: installed plug-ins, ``$ECLIPTIC_PLUGINS``
    and ``targets`` (``--plugin``)."""
    from ecliptic.bots.base import load_builtin_bots

    load_builtin_bots()
    load_installed()
    load_env()
    load_plugins(targets)


def _key(given: str) -> str:
    """A target as it is remembered: a file's by its absolute path (the same file named from two
    folders, or by ``--plugin`` and ``$ECLIPTIC_PLUGINS``, is loaded once; a worker started
    elsewhere finds it)."""
    given = given.strip()
    source, function = _split(given)
    if not source.endswith(".py"):
        return given
    path = str(Path(source).expanduser().resolve())
    return f"{path}:{function}" if function else path


def _load(target: str, where: str) -> None:
    """Import ``target`` (and call its function, if it names one); one :class:`PluginError` line
    for whatever fails. The built-in bots are registered first, so a plug-in that takes one of
    their names is refused at once rather than hiding it."""
    from ecliptic.bots.base import load_builtin_bots

    load_builtin_bots()
    source, function = _split(target)
    if source.endswith(".py"):
        module = _import_file(Path(source), where)
    else:
        if not _MODULE.fullmatch(source):
            raise PluginError(f"{where}: give a module (mypkg.bots), module:function, or a file ending in .py")
        try:
            module = importlib.import_module(source)
        except PluginError:
            raise
        except BotSpecError as exc:  # a name that is taken, registered as the module is imported
            raise PluginError(f"{where}: {exc}") from None
        except ModuleNotFoundError as exc:
            if exc.name is not None and (source == exc.name or source.startswith(exc.name + ".")):
                raise PluginError(f"{where}: no module named {exc.name!r} on the Python path (install it, add its "
                                  "folder to PYTHONPATH, or give the file: --plugin path/to/bots.py)") from None
            raise PluginError(f"{where}: failed while being imported: {_why(exc)}") from None
        except Exception as exc:
            raise PluginError(f"{where}: failed while being imported: {_why(exc)}") from None
    if function:
        found = getattr(module, function, None)
        if not callable(found):
            raise PluginError(f"{where}: module {module.__name__!r} has no function {function!r}")
        _call(found, where)
    _done.add(target)


def _split(target: str) -> tuple[str, str]:
    """``MODULE:FUNCTION`` into its two parts (a Windows drive's colon is no function)."""
    source, colon, function = target.rpartition(":")
    if not colon or not function.isidentifier():
        return target, ""
    return source, function


def _import_file(path: Path, where: str) -> ModuleType:
    """The module of a plug-in file, imported by its path and kept in ``sys.modules`` under its
    file's stem (pickled bots and policies find their classes there)."""
    if not path.is_file():
        raise PluginError(f"{where}: there is no file {str(path)!r}")
    name = path.stem
    if not name.isidentifier():
        raise PluginError(f"{where}: {path.name!r} cannot be a module's name (letters, digits and _ only)")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has a loader
        raise PluginError(f"{where}: {str(path)!r} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except PluginError:
        del sys.modules[name]
        raise
    except BotSpecError as exc:
        del sys.modules[name]
        raise PluginError(f"{where}: {exc}") from None
    except Exception as exc:
        del sys.modules[name]
        raise PluginError(f"{where}: failed while being imported: {_why(exc)}") from None
    return module


def _call(found: Any, where: str) -> None:
    """An entry point or ``MODULE:FUNCTION`` that names a function: call it (it registers)."""
    if isinstance(found, ModuleType):
        return
    if not callable(found):
        raise PluginError(f"{where}: names neither a module nor a function")
    try:
        found()
    except PluginError:
        raise
    except BotSpecError as exc:
        raise PluginError(f"{where}: {exc}") from None
    except Exception as exc:
        raise PluginError(f"{where}: failed while registering its bots: {_why(exc)}") from None


def _why(exc: BaseException) -> str:
    """An exception as one line (its first line; the name of its type first)."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


# -- worker processes ---------------------------------------------------------------------

T = TypeVar("T")
R = TypeVar("R")


def ensure(targets: Iterable[str], path: Iterable[str] = ()) -> None:
    """In a worker: put the parent's Python path entries this process lacks at the end of its
    own, then load the parent's plug-ins (each once)."""
    for entry in path:
        if entry not in sys.path:
            sys.path.append(entry)
    load_plugins(targets)


@dataclass(frozen=True)
class Plugged(Generic[T, R]):
    """``play`` with the plug-ins it needs: called in a worker, it loads them first (once), so a
    bot of a ``--plugin`` module can be made there. Picklable if ``play`` is."""

    play: Callable[[T], R]
    targets: tuple[str, ...]
    path: tuple[str, ...]

    def __call__(self, task: T) -> R:
        ensure(self.targets, self.path)
        return self.play(task)


def with_plugins(play: Callable[[T], R]) -> Callable[[T], R]:
    """``play`` as a backend (or the server's bot pool) sends it to its workers: wrapped in
    :class:`Plugged` when plug-ins were loaded by name here, as it is otherwise."""
    targets = tuple(loaded())
    if not targets:
        return play
    return Plugged(play, targets, tuple(sys.path))

