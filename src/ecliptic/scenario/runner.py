"""Running scenario files and reporting, in words, the first thing that went differently.

A run builds the game from the scenario's config and seed, applies the setup,
checks that every component is still in exactly one place, then plays each step
through the game's public API (``apply``) and checks what the step expects. The
first difference stops the run: "step 3 (REF): expected refusal TC-ACT-3, but
the action was legal", "expect players.Xunon.tau: expected 15, got 14".

A result is ``passed``, ``failed`` (the engine disagrees with the scenario, or
crashed) or ``error`` (the scenario file is wrong: the report names its line and
field). ``run_paths`` and ``format_report`` are what ``ecliptic scenario run`` needs.
"""

from __future__ import annotations

import copy
import os
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ecliptic.engine.actions import Action
from ecliptic.engine.codec import decode, encode
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.scenario.format import (
    MAX_REPEAT,
    Check,
    EventPattern,
    PathProblem,
    Scenario,
    ScenarioError,
    ScriptLoad,
    SetupOp,
    Step,
    Where,
    check_items,
    live,
    load_scenario,
    read,
    show,
    write,
)

Status = Literal["passed", "failed", "error"]
SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class ScenarioResult:
    """What became of one scenario file."""

    path: Path
    title: str
    status: Status
    message: str = ""
    line: int | None = None
    rules: tuple[str, ...] = ()
    steps_run: int = 0
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "passed"

    @property
    def location(self) -> str:
        shown = display_path(self.path)
        return f"{shown}:{self.line}" if self.line is not None else shown


def display_path(path: Path) -> str:
    """A path relative to the working folder when it lies inside it (as a player typed it)."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except (ValueError, OSError, RuntimeError):  # outside it, or a symlink loop (RuntimeError before 3.13)
        return str(path)


class Failure(Exception):
    """The run stops here. ``scenario_fault``: the file is wrong rather than the engine."""

    def __init__(self, where: Where | None, message: str, *, scenario_fault: bool = False,
                 detail: str = "") -> None:
        self.where = where
        self.message = message
        self.scenario_fault = scenario_fault
        self.detail = detail
        super().__init__(message)


# -- running ---------------------------------------------------------------------------------


def run_file(path: Path | str) -> ScenarioResult:
    """Load and run one scenario file. Whatever is wrong with the file, the result says so:
    nothing it holds raises (so a run of many files goes on past a bad one)."""
    path = Path(path)
    try:
        scenario = load_scenario(path)
    except ScenarioError as exc:
        return ScenarioResult(path, "", "error", f"{exc.field}: {exc.message}", exc.line)
    except Exception as exc:  # a mistake the loader's checks did not foresee: still the file's
        return ScenarioResult(path, "", "error", f"file: cannot be loaded: {type(exc).__name__}: {exc}", 1,
                              detail="".join(traceback.format_exception(exc)))
    return run_scenario(scenario)


def run_scenario(scenario: Scenario) -> ScenarioResult:
    """Play a loaded scenario and report the first difference."""
    run = _Run(scenario)
    try:
        run.run()
    except Failure as exc:
        status: Status = "error" if exc.scenario_fault else "failed"
        return ScenarioResult(scenario.path, scenario.title, status, exc.message,
                              exc.where.line if exc.where else None, scenario.rules, run.steps_run, exc.detail)
    except Exception as exc:  # outside the engine's apply (already a crash report): see the message
        # A setup can write a state the rules never reach (an empty decision stack, say); what
        # crashes then is the file's doing. Without a setup it is the engine's.
        status = "error" if scenario.setup else "failed"
        where = scenario.setup_where if scenario.setup else None
        why = " (the setup may have made a state the game cannot be in)" if scenario.setup else ""
        return ScenarioResult(scenario.path, scenario.title, status,
                              f"the run crashed after {run.steps_run} step(s): {type(exc).__name__}: {exc}{why}",
                              where.line if where else None, scenario.rules, run.steps_run,
                              "".join(traceback.format_exception(exc)))
    return ScenarioResult(scenario.path, scenario.title, "passed", rules=scenario.rules, steps_run=run.steps_run)


def scenario_files(paths: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """The scenario files named or found (recursively) in folders, and the paths that do not
    exist. A name that is there but is no file (a symlink loop, a FIFO) is run, so that its
    report says what it is."""
    found: list[Path] = []
    missing: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and not p.is_dir())
        elif os.path.lexists(path):
            found.append(path)
        else:
            missing.append(path)
    return found, missing


def run_paths(paths: Sequence[Path | str]) -> list[ScenarioResult]:
    """Run every scenario file named, or found in the folders named (``*.yaml``, ``*.yml``)."""
    found, missing = scenario_files(Path(p) for p in paths)
    results = [ScenarioResult(p, "", "error", "no such file or folder") for p in missing]
    return results + [run_file(p) for p in found]


class _Run:
    """One run of one scenario; raises :class:`Failure` at the first difference."""

    def __init__(self, scenario: Scenario) -> None:
        self.sc = scenario
        self.adapter = scenario.adapter
        self.rules = self.adapter.rules()
        self.state: Any = None
        self.steps_run = 0
        # Where each scripted value still in the generator's scripts came from.
        self.sources: dict[str, list[Where]] = {"dice": [], "choices": []}

    def run(self) -> None:
        self.state = self._new_state()
        for op in self.sc.setup:
            self._setup(op)
        problems = self.adapter.problems(self.state)
        where = self.sc.setup_where or self.sc.config_where or Where(str(self.sc.path), 1, "setup")
        if problems:
            raise Failure(where, "after the setup the components do not add up (each card, token and cube "
                          "must be in exactly one place): " + "; ".join(problems), scenario_fault=True)
        if self.sc.setup:
            self._loadable(where)
        if not self.adapter.script_before_setup:
            self._load(self.sc.script)
        for step in self.sc.steps:
            self._step(step)
            self.steps_run += 1
        for check in self.sc.expect:
            self._check(check, "")
        self._leftovers()

    def _loadable(self, where: Where) -> None:
        """The state the setup wrote must be one the game would load from a save file: the
        game's own checks of a save (an unknown card, a decision no rule asks) refuse the
        states its rules could never reach, before a step trips over them."""
        try:
            self.rules.from_json(self.rules.to_json(self.state))
        except Exception as exc:  # a SaveFileError, or whatever a check the game lacks lets through
            raise Failure(where, f"after the setup the state is not one the game can be in: {exc}",
                          scenario_fault=True) from None

    def _new_state(self) -> Any:
        """The game of the config and seed. Where the game makes its random choices while setting
        up (Ceres), the top-level script is loaded first, so that it can steer them."""
        prime = self._prime if self.adapter.script_before_setup else None
        try:
            return self.adapter.new_state(self.sc.config, self.sc.seed, prime)
        except (ValueError, TypeError) as exc:
            scripted = self._scripted_at(str(exc))
            if scripted is not None:  # a scripted value the setup's draw cannot take (a choice of 2 of 2)
                raise Failure(scripted, f"{scripted.field}: the game's setup cannot use it: {exc}",
                              scenario_fault=True) from None
            where = self.sc.config_where or Where(str(self.sc.path), 1, "config")
            raise Failure(where, f"config: the game cannot be set up: {exc}", scenario_fault=True) from None

    def _scripted_at(self, message: str) -> Where | None:
        """Where the scripted value a generator refused (``scripted choice 2 is outside [0, 2)``)
        was written: the first one still waiting, which is the one just drawn."""
        for name, prefix in (("choices", "scripted choice "), ("dice", "scripted die ")):
            if message.startswith(prefix) and self.sources[name]:
                left = len(getattr(self.state.rng, "choice_script" if name == "choices" else "dice_script"))
                return self.sources[name][max(len(self.sources[name]) - left - 1, 0)]
        return None

    def _prime(self, state: Any) -> None:
        self.state = state
        self._load(self.sc.script)

    # -- setup -----------------------------------------------------------------------------
    def _setup(self, op: SetupOp) -> None:
        try:
            if op.kind == "set":
                value = copy.deepcopy(op.value) if op.path.type is Any else decode(op.path.type, op.value)
                write(self.adapter, self.state, op.path, value)
            elif op.kind in ("top", "bottom"):
                items = self._take(op.path, op.value)
                self._put(op.path, items, op.kind)
            elif isinstance(op.value, int):
                self._move_amount(op)
            else:
                assert op.dest is not None
                items = self._take(op.path, op.value)
                self._put(op.dest, items, op.position)
        except PathProblem as exc:
            raise Failure(op.where, f"setup: {op.key}: {exc.message}", scenario_fault=True) from None

    def _list(self, path: Any) -> list[Any]:
        """A copy of the list (or pile: a tuple) at ``path``, to change and :meth:`_store`."""
        value = live(self.adapter, self.state, path)
        if not isinstance(value, list | tuple):
            raise PathProblem(f"{path.text} is {show(value)}, not a list", scenario_fault=True)
        return list(value)

    def _store(self, path: Any, items: list[Any]) -> None:
        """Put the changed items back, as a tuple where the state keeps a tuple (the piles)."""
        pile = isinstance(live(self.adapter, self.state, path), tuple)
        write(self.adapter, self.state, path, tuple(items) if pile else items)

    def _take(self, path: Any, wanted: list[Any]) -> list[Any]:
        """Take each wanted item out of the list at ``path`` (one at a time, as many as listed)."""
        source = self._list(path)
        taken = []
        for item in wanted:
            index = next((i for i, x in enumerate(source) if encode(x) == item), None)
            if index is None:
                raise PathProblem(f"{show(item)} is not in {path.text} (it holds {_short(source)})",
                                  scenario_fault=True)
            taken.append(source.pop(index))
        self._store(path, source)
        return taken

    def _put(self, path: Any, items: list[Any], position: str) -> None:
        target = self._list(path)
        self._store(path, items + target if position == "top" else target + items)

    def _move_amount(self, op: SetupOp) -> None:
        assert op.dest is not None
        amount = int(op.value)
        have = read(self.adapter, self.state, op.path)
        if have < amount:
            raise PathProblem(f"{op.path.text} is {have}; {amount} cannot be taken from it", scenario_fault=True)
        write(self.adapter, self.state, op.path, have - amount)
        write(self.adapter, self.state, op.dest, read(self.adapter, self.state, op.dest) + amount)

    # -- randomness ----------------------------------------------------------------------------
    def _load(self, script: ScriptLoad) -> None:
        rng = self.state.rng
        for key, value, where in script.entries:
            before = {"dice": len(rng.dice_script), "choices": len(rng.choice_script)}
            if key == "dice":
                rng.script_dice([int(value)])
            elif key == "choices":
                rng.script_choices([int(value)])
            else:
                try:
                    self.adapter.script_keys[key].load(self.state, str(value))
                except ValueError as exc:
                    raise Failure(where, f"{where.field}: {exc}", scenario_fault=True) from None
            for name, scripted in (("dice", rng.dice_script), ("choices", rng.choice_script)):
                added = len(scripted) - before[name]
                self.sources[name] += [where] * added

    def _leftovers(self) -> None:
        """Scripted values the game never used mean it did not roll (or choose) where the scenario
        says it would."""
        rng = self.state.rng
        for name, left in (("dice", rng.dice_script), ("choices", rng.choice_script)):
            if left:
                first = self.sources[name][len(self.sources[name]) - len(left)]
                what = "dice were never rolled" if name == "dice" else "choices were never used"
                raise Failure(first, f"{len(left)} scripted {what}: {show(list(left))} (scripted from line "
                              f"{first.line} on)")

    # -- steps -------------------------------------------------------------------------------------
    def _step(self, step: Step) -> None:
        self._load(step.script)
        events: list[Event] = []
        if step.action is not None:
            events = self._do(step)
        elif step.repeat:
            events = self._repeat(step)
        self._events(step, events)
        for check in step.expect:
            self._check(check, f"{step.label}: ")

    def _do(self, step: Step) -> list[Event]:
        assert step.action is not None
        action = Action.parse(step.action)
        if step.by is not None:
            self._by(step, step.by)
        before = self.rules.to_json(self.state) if step.illegal is not None else None
        try:
            events: list[Event] = self.rules.apply(self.state, action)
        except IllegalAction as exc:
            self._refused(step, exc, before)
            return []
        except Exception as exc:
            raise self._crash(step, exc) from None
        if step.illegal is not None:
            raise Failure(step.illegal.where, f"{step.label}: expected refusal {step.illegal.rule}, but the "
                          "action was legal")
        self._components(step)
        return events

    def _by(self, step: Step, by: str) -> None:
        seat = self.adapter.seat(self.state, by)
        if seat is None:
            names = ", ".join(self.adapter.players_in(self.state))
            raise Failure(step.where, f"{step.label}: by: {by!r} is not a player of this game (players: {names})",
                          scenario_fault=True)
        if self.state.current_player != seat:
            raise Failure(step.where, f"{step.label}: expected {self.adapter.player_label(self.state, seat)} to "
                          f"act, but {self.adapter.decision_label(self.state)}")

    def _refused(self, step: Step, exc: IllegalAction, before: Any) -> None:
        expected = step.illegal
        if expected is None:
            raise Failure(step.where, f"{step.label}: the action was refused: [{exc.rule}] {exc.reason} "
                          f"({self.adapter.decision_label(self.state)})")
        if exc.rule != expected.rule:
            raise Failure(expected.where, f"{step.label}: expected refusal {expected.rule}, but it was refused "
                          f"with {exc.rule}: {exc.reason}")
        if expected.says is not None and expected.says.lower() not in exc.reason.lower():
            raise Failure(expected.where, f"{step.label}: refused with {exc.rule} as expected, but the reason "
                          f"does not say {expected.says!r}: {exc.reason}")
        after = self.rules.to_json(self.state)
        if after != before:
            raise Failure(step.where, f"{step.label}: refused with {exc.rule} as expected, but the refusal "
                          f"changed the state: {_difference(before, after)}")

    def _crash(self, step: Step, exc: Exception) -> Failure:
        return Failure(step.where, f"{step.label}: the engine crashed: {type(exc).__name__}: {exc}",
                       detail="".join(traceback.format_exception(exc)))

    def _components(self, step: Step) -> None:
        problems = self.adapter.problems(self.state)
        if problems:
            raise Failure(step.where, f"{step.label}: after this action the components no longer add up "
                          "(each card, token and cube must be in exactly one place): " + "; ".join(problems))

    def _repeat(self, step: Step) -> list[Event]:
        """Apply the first legal action of ``repeat`` until every ``until`` check holds."""
        events: list[Event] = []
        for count in range(MAX_REPEAT + 1):
            failing = self._failing(step.until)
            if failing is None:
                return events
            if count == MAX_REPEAT:
                raise Failure(step.where, f"{step.label}: still not there after {MAX_REPEAT} actions: {failing}")
            action = next((a for a in map(Action.parse, step.repeat)
                           if self.adapter.refusal(self.state, a) is None), None)
            if action is None:
                raise Failure(step.where, f"{step.label}: {' and '.join(step.repeat)} cannot be played now "
                              f"({self.adapter.decision_label(self.state)}) and the condition does not hold "
                              f"after {count} action(s): {failing}")
            try:
                events += self.rules.apply(self.state, action)
            except Exception as exc:
                raise self._crash(step, exc) from None
            self._components(step)
        return events

    # -- expectations --------------------------------------------------------------------------------
    def _check(self, check: Check, context: str) -> None:
        verdict = self._verdict(check)
        if verdict is not None:
            raise Failure(check.where, f"{context}expect {check.key}: {verdict}")

    def _failing(self, checks: Sequence[Check]) -> str | None:
        for check in checks:
            verdict = self._verdict(check)
            if verdict is not None:
                return f"{check.key}: {verdict}"
        return None

    def _verdict(self, check: Check) -> str | None:
        """``None`` when the check holds, else what differs, in words."""
        try:
            actual = encode(read(self.adapter, self.state, check.path))
            if check.kind == "equals":
                return None if actual == check.expected else f"expected {show(check.expected)}, got {show(actual)}"
            items = list(check_items(actual))
        except PathProblem as exc:
            if exc.scenario_fault:
                raise Failure(check.where, f"{check.key}: {exc.message}", scenario_fault=True) from None
            return f"expected {_wanted(check)}, but {exc.message}"
        if check.kind == "len":
            return None if len(items) == check.expected else \
                f"expected {check.expected} item(s), got {len(items)}: {_short(items)}"
        if check.kind == "count":
            n = items.count(check.item)
            return None if n == check.expected else \
                f"expected {check.expected} × {show(check.item)}, got {n} (it holds {_short(items)})"
        if check.kind == "has":
            missing = _missing(items, check.expected)
            return None if not missing else f"{show(missing)} missing; it holds {_short(items)}"
        present = [x for x in check.expected if x in items]
        return None if not present else f"expected no {show(present)}; it holds {_short(items)}"

    # -- events ----------------------------------------------------------------------------------------
    def _events(self, step: Step, events: list[Event]) -> None:
        at = 0
        for pattern in step.expect_events:
            found = next((i for i in range(at, len(events)) if _matches(pattern, events[i])), None)
            if found is None:
                later = "after the events matched before it, " if at else ""
                raise Failure(pattern.where, f"{step.label}: expected event {pattern.describe()}, but {later}the "
                              f"events were: {_events_text(events[at:])}")
            at = found + 1
        for pattern in step.expect_no_events:
            hit = next((e for e in events if _matches(pattern, e)), None)
            if hit is not None:
                raise Failure(pattern.where, f"{step.label}: expected no event {pattern.describe()}, but got "
                              f"{_event_text(hit)}: {hit.text}")


def _matches(pattern: EventPattern, event: Event) -> bool:
    if event.kind != pattern.kind:
        return False
    if pattern.text is not None and pattern.text.lower() not in event.text.lower():
        return False
    for key, value, raw in pattern.data:
        if key not in event.data:
            return False
        actual = encode(event.data[key])
        if actual != value and not (raw is not None and actual == raw):
            return False
    return True


def _event_text(event: Event) -> str:
    data = ", ".join(f"{k}: {show(v)}" for k, v in event.data.items())
    return f"{event.kind} ({data})" if data else event.kind


def _events_text(events: Sequence[Event]) -> str:
    if not events:
        return "none"
    shown = [_event_text(e) for e in events[:20]]
    more = f" and {len(events) - 20} more" if len(events) > 20 else ""
    return "; ".join(shown) + more


def _missing(items: list[Any], wanted: list[Any]) -> list[Any]:
    pool = list(items)
    out = []
    for x in wanted:
        if x in pool:
            pool.remove(x)
        else:
            out.append(x)
    return out


def _wanted(check: Check) -> str:
    if check.kind == "equals":
        return show(check.expected)
    if check.kind == "count":
        return f"{check.expected} × {show(check.item)}"
    if check.kind == "len":
        return f"{check.expected} item(s)"
    return f"{'' if check.kind == 'has' else 'no '}{show(check.expected)}"


def _short(items: Any, limit: int = 12) -> str:
    items = list(encode(items))
    if len(items) <= limit:
        return show(items)
    return show(items[:limit])[:-1] + f", ... {len(items) - limit} more]"


def _difference(before: Any, after: Any, path: str = "") -> str:
    """The first place two JSON-ready values differ, in words."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after), key=str):
            if before.get(key) != after.get(key):
                return _difference(before.get(key), after.get(key), f"{path}.{key}" if path else str(key))
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            if b != a:
                return _difference(b, a, f"{path}.{i}")
    return f"{path or 'the state'} went from {show(before)} to {show(after)}"


# -- reporting ------------------------------------------------------------------------------------------

_HEADS = {"passed": "PASS", "failed": "FAIL", "error": "ERROR"}


def format_result(result: ScenarioResult, *, verbose: bool = False) -> str:
    """One scenario: ``PASS path  title``, and for a failure where and what, indented."""
    head = f"{_HEADS[result.status]:<5} {display_path(result.path)}" + (f"  {result.title}" if result.title else "")
    if result.ok:
        return head
    lines = [head, f"      {result.location}: {result.message}"]
    if verbose and result.detail:
        lines += ["      " + line for line in result.detail.rstrip().splitlines()]
    return "\n".join(lines)


def summary(results: Sequence[ScenarioResult]) -> str:
    counts = {s: sum(1 for r in results if r.status == s) for s in ("passed", "failed", "error")}
    return (f"{len(results)} scenario(s): {counts['passed']} passed, {counts['failed']} failed, "
            f"{counts['error']} with errors in the file")


def format_report(results: Sequence[ScenarioResult], *, verbose: bool = False) -> str:
    """Every result, then the counts; what ``ecliptic scenario run`` prints."""
    if not results:
        return "no scenario files found"
    return "\n".join([*(format_result(r, verbose=verbose) for r in results), summary(results)])


def all_passed(results: Sequence[ScenarioResult]) -> bool:
    return bool(results) and all(r.ok for r in results)
