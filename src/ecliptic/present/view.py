"""Everything a front end shows beside the observation, in one place: each legal action with
its label, its words (:mod:`ecliptic.present.words`), group, cost, effect, targets and help;
the refused candidates with their words and rule; and the ``present`` block (names, running
score, prices, the decision, the banner).

The terminal game and the server both call :func:`actions` (the terminal groups its menu
by the same groups and prints the same costs), so the two never disagree. The data shapes
are the contract of docs/present.md.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from ecliptic.engine.actions import Action
from ecliptic.present import ceres_components
from ecliptic.present.decision import Why, decision_text
from ecliptic.present.effects import effects, samples
from ecliptic.present.groups import group, order
from ecliptic.present.help import action_help
from ecliptic.present.labels import label
from ecliptic.present.names import names
from ecliptic.present.prices import prices
from ecliptic.present.refusals import refused, strings, why_closed
from ecliptic.present.score import running_score
from ecliptic.present.targets import select, targets
from ecliptic.present.tauceti_components import POINT_ID
from ecliptic.present.words import text


@dataclass(frozen=True)
class Presented:
    """One legal action as a person is shown it."""

    action: Action
    label: str
    text: str
    group: str
    cost: str
    effect: str
    targets: list[str]
    select: str
    help: str

    def to_json(self) -> dict[str, Any]:
        return {"notation": str(self.action), "label": self.label, "text": self.text, "group": self.group,
                "cost": self.cost, "effect": self.effect, "targets": self.targets, "select": self.select,
                "help": self.help}


def actions(game: Any, state: Any, seat: int, obs: dict[str, Any], legal: Sequence[Action],
            copies: Sequence[Any] | None = None) -> list[Presented]:
    """The seat's legal actions (its own decision), presented, in the given order. ``copies``
    are the determinized copies to try them on (:func:`ecliptic.present.effects.samples`)."""
    if not legal:
        return []
    name = game.name
    kind = state.stack[-1].kind
    groups = [group(name, kind, a) for a in legal]
    told = effects(game, name, copies or samples(game, state, seat), seat, legal, groups)
    return [Presented(a, label(name, obs, a), text(name, kind, obs, a), g, e.cost, e.effect,
                      targets(name, obs, seat, a), select(name, a), action_help(name, a))
            for a, g, e in zip(legal, groups, told, strict=True)]


def refusals(game: Any, copy: Any, seat: int, obs: dict[str, Any], legal: Sequence[Action]) -> list[dict[str, Any]]:
    """The not-legal candidates of ``seat``'s decision, with the rule and the reason. They are
    judged on ``copy``, a determinized copy of the state (its legal actions are the true
    state's), so that no reason can depend on what the seat does not see."""
    name = game.name
    kind = copy.stack[-1].kind
    seen = strings(obs)
    return [{"notation": str(a), "label": label(name, obs, a), "text": text(name, kind, obs, a),
             "group": group(name, kind, a), "targets": targets(name, obs, seat, a), "rule": rule, "reason": reason}
            for a, rule, reason in refused(game, copy, seen, set(legal))]


def closed_reasons(game: Any, state: Any, seat: int, obs: dict[str, Any]) -> Why:
    """Why a verb the prompt names is closed now, for the terminal's prompt as for the
    server's (:func:`ecliptic.present.refusals.why_closed` on a determinized copy)."""
    return why_closed(game, samples(game, state, seat)[0], strings(obs))


def block(game: Any, state: Any, seat: int | None, obs: dict[str, Any],
          mentioned: Sequence[dict[str, Any]] = (), verbs: Collection[str] | None = None,
          why: Why | None = None) -> dict[str, Any]:
    """The ``present`` block of ``seat``'s view; ``mentioned`` are the action rows it is sent
    (their ids are named too), ``verbs`` the verbs of its legal actions when it decides (the
    prompt names no option the rules take away now) and ``why`` why they are taken away."""
    name = game.name
    said = strings(obs)
    seen = set(said)
    for row in mentioned:
        # (an Exploration point off the map, which only a refused candidate names, is not named:
        # the names are the same whether the refusals are sent or not)
        said.update(a for a in Action.parse(row["notation"]).args if a in seen or not POINT_ID.match(a))
    price_list = prices(name, state, seat)
    # (the price table names every commodity, also one no longer in the Supply pile or any hand)
    said.update(price_list or ())
    return {
        "names": names(name, said),
        "groups": list(order(name)),
        "score": running_score(name, state, obs, seat),
        "prices": price_list,
        "decision": decision_text(name, obs, seat, verbs, why),
        "banner": ceres_components.BANNER if name == "ceres" else None,
    }


def present(game: Any, state: Any, seat: int | None, obs: dict[str, Any], *,
            with_refused: bool = True) -> dict[str, Any]:
    """``{"legal_actions": [...], "refused": [...], "present": {...}}`` for ``seat``: actions and
    refusals only when the decision is the seat's (refusals only ``with_refused``: the server
    pushes views without them, and they are half the cost of a view)."""
    legal_rows: list[dict[str, Any]] = []
    refused_rows: list[dict[str, Any]] = []
    verbs: set[str] | None = None
    why: Why | None = None
    if seat is not None and not state.is_over and state.current_player == seat:
        legal = game.legal_actions(state)
        verbs = {a.verb for a in legal}
        copies = samples(game, state, seat)
        legal_rows = [p.to_json() for p in actions(game, state, seat, obs, legal, copies)]
        why = why_closed(game, copies[0], strings(obs))
        if with_refused:
            refused_rows = refusals(game, copies[0], seat, obs, legal)
    return {"legal_actions": legal_rows, "refused": refused_rows,
            "present": block(game, state, seat, obs, [*legal_rows, *refused_rows], verbs, why)}
