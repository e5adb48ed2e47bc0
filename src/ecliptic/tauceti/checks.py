"""Skill checks, the 2T re-roll, and allocating damage: small decisions shared by many rules.

A skill check rolls as many dice as the player's skill set (plus face-up
Specialist bonuses). A failed check offers the re-roll for 2T as a decision of
its own; the player must use the new roll. A player holding the Neural Lattice
Exotic Tech (effect ``free_reroll``) may instead re-roll once per round without
paying (``REROLL free``). When the check is settled the caller's continuation
(registered by name, so decisions stay serializable) receives the result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ecliptic.engine.actions import Action, act
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.wording import article, plural
from ecliptic.tauceti import ship
from ecliptic.tauceti.content import Content, SkillCheck
from ecliptic.tauceti.registry import decision_kind, illegal, say
from ecliptic.tauceti.state import Decision, State

Continuation = Callable[[State, int, bool, dict[str, Any], list[Event]], None]
CONTINUATIONS: dict[str, Continuation] = {}


def continuation(name: str) -> Callable[[Continuation], Continuation]:
    def register(fn: Continuation) -> Continuation:
        CONTINUATIONS[name] = fn
        return fn

    return register


def dice_for(state: State, seat: int, skill: str) -> int:
    p = state.players[seat]
    bonus = 0
    for card_id in p.face_up:
        ability = state.content.specialist(card_id).ability
        if ability.kind == "skill_bonus" and ability.skill == skill:
            bonus += ability.amount
    return state.faction(seat).skills[skill] + bonus


def dice_by_skill(state: State, seat: int) -> dict[str, int]:
    """:func:`dice_for` of every skill, the face-up Specialists read once (for the observation)."""
    skills = dict(state.faction(seat).skills)
    for card_id in state.players[seat].face_up:
        ability = state.content.specialist(card_id).ability
        if ability.kind == "skill_bonus" and ability.skill in skills:
            skills[ability.skill] += ability.amount
    return skills


def passes(check: SkillCheck, dice: list[int]) -> bool:
    return sum(1 for d in dice if d >= check.target) >= check.successes


def describe(check: SkillCheck) -> str:
    return f"{check.skill} check: {plural(check.successes, 'die', 'dice')} showing {check.target}+"


def _roll(state: State, seat: int, check: SkillCheck, ev: list[Event]) -> list[int]:
    dice = state.rng.roll(dice_for(state, seat, check.skill))
    ok = passes(check, dice)
    say(ev, "skill_check", f"{state.players[seat].faction} rolls {dice} for {article(describe(check))}: "
        f"{'success' if ok else 'failure'}.", seat=seat, dice=dice, success=ok, skill=check.skill)
    return dice


FREE = "free"  # REROLL free: the Exotic Tech re-roll


def free_reroll_ready(state: State, seat: int) -> bool:
    """The player's Exotic Tech gives a re-roll without TAU and it is unused this round."""
    return (ship.exotic_bonus(state, seat, "free_reroll") > 0
            and state.players[seat].exotic_reroll_round != state.round)


def can_reroll(state: State, seat: int) -> bool:
    """A re-roll is possible: 2T to pay, or the free Exotic Tech re-roll."""
    return state.players[seat].tau >= state.content.numbers.reroll_tau or free_reroll_ready(state, seat)


def start_check(
    state: State, seat: int, check: SkillCheck, then: str, ctx: dict[str, Any], ev: list[Event]
) -> None:
    """Roll a skill check; on failure offer the re-roll, else continue at once."""
    dice = _roll(state, seat, check, ev)
    if not passes(check, dice) and can_reroll(state, seat):
        state.stack.append(Decision("reroll", seat, {
            "skill": check.skill, "target": check.target, "successes": check.successes,
            "dice": dice, "then": then, "ctx": ctx,
        }))
        return
    CONTINUATIONS[then](state, seat, passes(check, dice), ctx, ev)


def _check_of(d: Decision) -> SkillCheck:
    return SkillCheck(d.data["skill"], d.data["target"], d.data["successes"])


def _reroll_options(state: State, d: Decision) -> Iterable[Action]:
    return (act("REROLL"), act("REROLL", FREE), act("ACCEPT"))


def _reroll_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a == act("REROLL"):
        if state.players[d.player].tau < state.content.numbers.reroll_tau:
            return illegal("TC-REROLL-1", "a re-roll costs 2T and you do not have it")
        return None
    if a == act("REROLL", FREE):
        if not free_reroll_ready(state, d.player):
            return illegal("TC-ADV6-2", "a free re-roll needs the Neural Lattice Exotic Tech, "
                           "and it can be used once per round")
        return None
    if a == act("ACCEPT"):
        return None
    return illegal("TC-REROLL-1", "after a failed skill check: REROLL (2T), REROLL free "
                   "(Exotic Tech) or ACCEPT")


def _pay_reroll(state: State, seat: int, free: bool, ev: list[Event]) -> None:
    """2T, or the round's free Exotic Tech re-roll."""
    p = state.players[seat]
    if free:
        p.exotic_reroll_round = state.round
        say(ev, "reroll", f"{p.faction} re-rolls for free with the Exotic Tech (once this round).",
            seat=seat, free=True)
        return
    p.tau -= state.content.numbers.reroll_tau
    say(ev, "reroll", f"{p.faction} pays {state.content.numbers.reroll_tau}T to re-roll.",
        seat=seat, free=False)


def _reroll_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    check = _check_of(d)
    if a.verb == "REROLL":
        _pay_reroll(state, d.player, a.args == (FREE,), ev)
        dice = _roll(state, d.player, check, ev)
        d.data["dice"] = dice
        if not passes(check, dice) and can_reroll(state, d.player):
            return
        state.stack.pop()
        CONTINUATIONS[d.data["then"]](state, d.player, passes(check, dice), d.data["ctx"], ev)
        return
    state.stack.pop()
    CONTINUATIONS[d.data["then"]](state, d.player, False, d.data["ctx"], ev)


decision_kind(
    "reroll",
    options=_reroll_options,
    why_not=_reroll_why_not,
    perform=_reroll_perform,
    domain=lambda c: (act("REROLL"), act("REROLL", FREE), act("ACCEPT")),
)


# -- allocating damage ---------------------------------------------------------


def begin_damage(state: State, seat: int, amount: int, cause: str, ev: list[Event]) -> None:
    """The damaged player allocates each point of damage to a system of their choice."""
    if amount <= 0:
        return
    state.stack.append(Decision("damage", seat, {"left": amount, "cause": cause}))
    say(ev, "damage_due", f"{state.players[seat].faction} must allocate {amount} damage ({cause}).",
        seat=seat, amount=amount)


def _damage_domain(c: Content) -> Iterable[Action]:
    return (act("DAMAGE", s) for s in c.systems)


def _damage_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a.verb != "DAMAGE" or len(a.args) != 1 or a.args[0] not in state.content.systems:
        return illegal("TC-DMG-1", "choose the system that takes the damage: DAMAGE <system>")
    return None


def _damage_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    applied = ship.add_damage(state, d.player, a.args[0], ev, d.data["cause"])
    d.data["left"] -= 1
    if d.data["left"] <= 0 or not applied:
        state.stack.pop()


decision_kind(
    "damage",
    options=lambda s, d: _damage_domain(s.content),
    why_not=_damage_why_not,
    perform=_damage_perform,
    domain=_damage_domain,
)
