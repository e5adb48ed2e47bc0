"""The kind of each action, for grouping a menu: the Interface's action names where the
rulebook has them (Move, Explore, Sell/Buy, Build, Recruit, ...: the Major actions; Trade for the
Minor trades), then what a card or a battle asks.

A group is a presentation choice, not a rule: it is chosen from the decision kind and the
verb only. ``tests/test_present.py`` checks that every action either game can ever offer
has a group of its own (none falls to :data:`OTHER`).
"""

from __future__ import annotations

from ecliptic.engine.actions import Action

OTHER = "Other"

TAUCETI_GROUPS = ("Setup", "Move", "Explore", "Sell/Buy", "Trade", "Build", "Recruit", "Missions", "Repair", "Refuel",
                  "Cards", "Crisis", "Check", "Damage", "Battle", "Shield", "Pass")
CERES_GROUPS = ("Launch", "Jump", "Tail", "Stay", "Pass")

_TAUCETI_VERBS = {
    "MOV": "Move", "GO": "Move", "JUMP": "Move", "STOP": "Move",
    "EXP": "Explore", "CLAIM": "Explore", "NOCLAIM": "Explore",
    "BUY": "Sell/Buy", "SELL": "Sell/Buy", "SELL-K": "Trade", "TRADE-K": "Trade", "TRADE-S": "Trade",
    "CUBE-MAT": "Trade", "DECLINE": "Trade",
    "BUI": "Build", "UPG": "Build", "ENG": "Build",
    "REC": "Recruit",
    "IM": "Missions", "IM-CHECK": "Missions", "PICKUP": "Missions", "DELIVER": "Missions",
    "ASSIST-LOAD": "Missions", "ASSIST-DROP": "Missions",
    "REP": "Repair", "FIX": "Repair",
    "REF": "Refuel",
    "PLAY-S": "Cards", "PLAY": "Cards", "GP-TOKEN": "Cards",
    "RESOLVE": "Crisis",
    "REROLL": "Check",
    "DAMAGE": "Damage", "VIRUS": "Damage", "DROP-VIRUS": "Damage", "KEEP-VIRUS": "Damage",
    "BATTLE": "Battle", "READY": "Battle", "ATTACK": "Battle", "RETREAT": "Battle", "TAKEOVER": "Battle",
    "STEAL": "Battle",
    "SHIELD": "Shield",
    "PLACE": "Setup",
    "PASS": "Pass", "END": "Pass", "DONE": "Pass",
}
_TAUCETI_KINDS = {
    # Verbs several decisions share: the decision says what they are about.
    ("keep_specialist", "KEEP"): "Recruit",
    ("keep_mission", "KEEP"): "Missions",
    ("reroll", "ACCEPT"): "Check",
    ("trade_offer", "ACCEPT"): "Trade",
    ("battle_prepare", "PLAY-S"): "Battle",
}
_CERES_VERBS = {"LAUNCH": "Launch", "JUMP": "Jump", "TAIL": "Tail", "STAY": "Stay", "PASS": "Pass"}


def group(game: str, kind: str, action: Action) -> str:
    """The group of ``action`` offered by a ``kind`` decision of ``game``."""
    if game == "ceres":
        return _CERES_VERBS.get(action.verb, OTHER)
    return _TAUCETI_KINDS.get((kind, action.verb)) or _TAUCETI_VERBS.get(action.verb, OTHER)


def order(game: str) -> tuple[str, ...]:
    """The groups in the order a menu lists them."""
    return (*(CERES_GROUPS if game == "ceres" else TAUCETI_GROUPS), OTHER)
