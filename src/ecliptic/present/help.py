"""The tooltip of an action: what its verb does, with the rule id that says so, and the names
of the components it names (their texts are in the view's ``present.names`` once, not
repeated in every action that names them)."""

from __future__ import annotations

from ecliptic.engine.actions import Action
from ecliptic.present.names import name_of

TAUCETI_VERBS = {
    "MOV": ("Move: fly up to your Propulsion power in sectors, one GO at a time", "TC-MOV-1"),
    "GO": ("Fly one sector on (a hazard is settled where it is met)", "TC-MOV-1"),
    "JUMP": ("Try the wormhole: go through it to the other wormhole", "TC-MOV-6"),
    "STOP": ("End the move here", "TC-MOV-1"),
    "EXP": ("Explore: a skill check to reveal the Knowledge token of an Exploration point", "TC-EXP-2"),
    "CLAIM": ("Put your Claim token on another Exploration point of the sector", "TC-CLAIM-1"),
    "NOCLAIM": ("Keep your Claim token", "TC-CLAIM-1"),
    "BUY": ("Buy commodities on this planet: Market level × demand × quantity", "TC-SB-2"),
    "SELL": ("Sell commodities on this planet: Market level × demand × quantity", "TC-SB-2"),
    "SELL-K": ("Sell a Knowledge token for the TAU on its back", "TC-TRADE-2"),
    "TRADE-K": ("Trade two Knowledge tokens for one, with the Galactic Depot or a player", "TC-TRADE-2"),
    "TRADE-S": ("Trade two Specialists for one of the top three of the deck", "TC-TRADE-1"),
    "CUBE-MAT": ("A Resource cube on your home planet for one space on the Materials track", "TC-CUBE-1"),
    "DECLINE": ("Decline the Knowledge trade offered to you", "TC-TRADE-2"),
    "BUI": ("Build an orbital in a sector where you may expand your Economic Influence", "TC-BUI-1"),
    "UPG": ("Upgrade a system with a commodity (or a free upgrade)", "TC-UPG-1"),
    "ENG": ("Reverse engineer a commodity, so that it can upgrade a system", "TC-ENG-1"),
    "REC": ("Recruit: pay the TAU beside your Materials marker for a Specialist and a Crisis card",
            "TC-REC-1"),
    "IM": ("Take an Interplanetary Mission: draw 3 and keep one", "TC-IM-2"),
    "IM-CHECK": ("Attempt the skill check of an Interplanetary Mission", "TC-IM-1"),
    "PICKUP": ("Pick up the commodity of a pickup/deliver mission", "TC-IM-4"),
    "DELIVER": ("Deliver the commodity of a pickup/deliver mission", "TC-IM-4"),
    "ASSIST-LOAD": ("Load a Resource cube of your home planet to assist a planet in crisis", "TC-ASSIST-1"),
    "ASSIST-DROP": ("Drop the Resource cube off on the planet in crisis", "TC-ASSIST-1"),
    "REP": ("Repair: 1T per Damage marker on a planet, 2T in space", "TC-REP-1"),
    "FIX": ("Repair one Damage marker of this system", "TC-REP-1"),
    "REF": ("Refuel: +2 energy", "TC-REF-1"),
    "PLAY-S": ("Turn a Specialist card face up to use its ability", "TC-SPEC-1"),
    "PLAY": ("Play a card face down into the Active deck: +2 energy", "TC-ENL-1"),
    "GP-TOKEN": ("Trade a GP token in for the reward on its back", "TC-TRADE-2"),
    "RESOLVE": ("Resolve a crisis from any sector: a Knowledge token with its Specialist, or 3 Knowledge "
                "tokens", "TC-RES-1"),
    "REROLL": ("Re-roll the skill check for 2T", "TC-REROLL-1"),
    "DAMAGE": ("This system takes the next point of damage", "TC-DMG-1"),
    "VIRUS": ("The virus crystal goes on this system", "TC-ADV3-1"),
    "DROP-VIRUS": ("Drop the virus crystal off on this planet", "TC-ADV3-1"),
    "KEEP-VIRUS": ("Keep the virus crystal", "TC-ADV3-1"),
    "BATTLE": ("Place a Battle token: a battle with that player in that sector after the Action phase",
               "TC-BAT-1"),
    "READY": ("Ready for the battle", "TC-BAT-1"),
    "ATTACK": ("Attack: roll the battle dice", "TC-BAT-1"),
    "RETREAT": ("Retreat from the battle", "TC-BAT-1"),
    "TAKEOVER": ("Take over a cube or an orbital of the loser in the battle sector", "TC-BAT-1"),
    "STEAL": ("Take a card, Knowledge token or cargo cube from the loser", "TC-BAT-1"),
    "SHIELD": ("Shield exactly these systems against the attack (toggle them)", "TC-BAT-6"),
    "PLACE": ("Place the large hex tile here", "TC-SETUP-1"),
    "PASS": ("Pass: no Major action this turn", "TC-ACT-3"),
    "END": ("End your turn", "TC-ACT-3"),
    "DONE": ("Done with this", "TC-ACT-3"),
    "KEEP": ("Keep this card", "TC-TRADE-1"),
    "ACCEPT": ("Accept", "TC-ACT-3"),
}
CERES_VERBS = {
    "LAUNCH": ("Launch a Mining Probe onto this Asteroid or Comet, paying Ice by ring", "CR-ACT-2"),
    "JUMP": ("Jump from the Comet onto this Asteroid of its Zone", "CC-PROD-7"),
    "STAY": ("Stay on the Comet and take a Tail token", "CC-PROD-7"),
    "TAIL": ("Take the Tail token of this tail", "CC-ACT-5"),
    "PASS": ("Pass: no more turns this round", "CR-ACT-1"),
}


def verb_help(game: str, verb: str) -> tuple[str, str] | None:
    return (CERES_VERBS if game == "ceres" else TAUCETI_VERBS).get(verb)


def action_help(game: str, action: Action) -> str:
    parts = []
    found = verb_help(game, action.verb)
    if found is not None:
        parts.append(f"{found[0]} ({found[1]}).")
    named = [f"{arg}: {found[0]}" for arg in action.args if (found := name_of(game, arg)) is not None]
    if named:
        parts.append("; ".join(named) + ".")
    return " ".join(parts)
