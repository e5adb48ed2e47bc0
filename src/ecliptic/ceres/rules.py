"""Rule ids: every sentence of the Comets rulebook, and every rule of the reconstruction.

``CC-<SECTION>-<n>`` numbers the sentences of ``rules/ceres-comets.txt`` in order
(sections COMP, SETUP, BELT, PROD, NEAR for "Near-Sun Comet", SUN for "Sungrazer Comet",
ACT). ``CR-<SECTION>-<n>`` numbers the rules of the host game, a documented reconstruction
of base Ceres (docs/ceres.md, docs/rules-decisions.md (section Ceres)). An
:class:`~ecliptic.engine.errors.IllegalAction` names one of these ids, and every id has
tests marked ``@pytest.mark.rules(id)`` (docs/rules-coverage.md).
"""

from __future__ import annotations

COMETS_RULES: dict[str, str] = {
    # Components
    "CC-COMP-1": "18 Tail tokens",
    "CC-COMP-2": "2 Double-sided Comet tokens",
    "CC-COMP-3": "2 Double-sided Surface cards",
    "CC-COMP-4": "8 Nucleus cards",
    "CC-COMP-5": "3 Explosion Check cards",
    "CC-COMP-6": "To integrate the Comets expansion in your game, add the following rules on the "
                 "following game phases.",
    # Game Setup
    "CC-SETUP-1": "In the Setting up the Game Board sequence, add the 4 steps:",
    "CC-SETUP-2": "1. Place the two Surface cards next to the Game board, near the Asteroid Belt.",
    "CC-SETUP-3": "2. Shuffle the Nucleus cards, form a face-down pile and reveal one under each Surface card.",
    "CC-SETUP-4": "Depending on the Nucleus cards you drew, flip the Surface cards to match the color "
                  "of the Nucleus cards.",
    "CC-SETUP-5": "Return the remaining Nucleus cards to the game box.",
    "CC-SETUP-6": "3. Shuffle the Tail tokens face down, and reveal one of each type (Coma, Ion, Dust Tail) "
                  "under each resource table of both Comets forming separate tails",
    "CC-SETUP-7": "4. ... place the corresponding Comet tokens outside the Asteroid Belt next to the Zones "
                  "as described below:",
    "CC-SETUP-8": "Both Comets are Sungrazers. At random, place a Comet token next to Zone 3 and the other "
                  "next to Zone 5.",
    "CC-SETUP-9": "One is Sungrazer and the other is Near-sun. Place the Sungrazer next to Zone 5 and the "
                  "Near-Sun next to Zone 4.",
    "CC-SETUP-10": "Both Comets are Near-Sun. At random, place a Comet token next to Zone 3 and the other "
                   "next to Zone 4.",
    "CC-SETUP-11": "Example: ... a Sungrazer and a Near-sun Comet ... the Sungrazer token next to Zone 5 and "
                   "the equivalent Near-sun token next to Zone 4",
    # Asteroid Belt Phase
    "CC-BELT-1": "After rotating the Asteroid Rings, move both Comets to the next adjacent ring towards the "
                 "center of the Asteroid Belt.",
    "CC-BELT-2": "Thus, in the 1st round the Comets will end on the Outer Ring, in the 2nd round will end on "
                 "the Intermediate Ring and in the 3rd round on the Inner Ring.",
    # Production Phase
    "CC-PROD-1": "Remove all remaining Tail tokens under each Nucleus card, depending on the number of the "
                 "round, as follows:",
    "CC-PROD-2": "1st round: No tokens",
    "CC-PROD-3": "2nd round: Dust Tail tokens",
    "CC-PROD-4": "3rd round: Ion Tail tokens",
    "CC-PROD-5": "Afterwards, starting from the Mining Probe on the leftmost slot on a Surface card of a "
                 "Comet, its owner decides if it will stay there or if it will jump onto an available "
                 "Asteroid of the same Zone.",
    "CC-PROD-6": "If you decide to jump onto an available Asteroid in the same zone, you claim it and you "
                 "gain the Asteroid's Resources and Victory points.",
    "CC-PROD-7": "If you decide that it stays there, choose one of the lowest available Tail tokens, take "
                 "it in front of you and gain the depicted Resources and any Victory Points.",
    "CC-PROD-8": "In addition in the 3rd round, depending on whether the Comet is a Near-sun or Sungrazer, "
                 "perform the corresponding resolution:",
    # Near-Sun Comet
    "CC-NEAR-1": "Gain the Resources and Victory Points depicted in the table of the Nucleus card, which "
                 "is located above the Tail token you just chose.",
    # Sungrazer Comet
    "CC-SUN-1": "After each player decides if they want to jump onto an Asteroid or remain on the Comet, "
                "draw an Explosion Check card to determine if the Sungrazer Comet explodes or not.",
    "CC-SUN-2": "If you drew a Safe card, the players that are on the Sungrazer Comet gain the Resources "
                "and Victory Points depicted on the table of the Nucleus card, which is located above the "
                "Tail token they just chose.",
    "CC-SUN-3": "On the other hand, if you drew the Explosion card, the players that are on the Sungrazer "
                "Comet will gain nothing more.",
    "CC-SUN-4": "Remove the Comet token from the Asteroid Belt",
    "CC-SUN-5": "and then reshuffle the Explosion Check cards.",
    # Activation Phase
    "CC-ACT-1": "During your turn, if you are performing the Launch action, you may choose one of the "
                "Comets in the Asteroid belt to land your Mining Probe there instead of an Asteroid, by "
                "paying Ice as described in the main game rules.",
    "CC-ACT-2": "Place the Mining Probe on the leftmost available slot onto the appropriate Comet's "
                "Surface card.",
    "CC-ACT-3": "The number of available slots depends on the player count.",
    "CC-ACT-4": "Then, depending on the number of the round, you choose one of the available Tail tokens "
                "under the Nucleus card of the comet you chose and take it in front of you, gaining the "
                "depicted Resources and any Victory points:",
    "CC-ACT-5": "1st round: a Dust tail token",
    "CC-ACT-6": "2nd round: an Ion tail token",
    "CC-ACT-7": "3rd round: a Coma token, plus the Resources and Victory Points depicted in the table of "
                "the Nucleus card, that is located above the Coma token you just chose.",
}

RECONSTRUCTION_RULES: dict[str, str] = {
    "CR-SETUP-1": "1-4 players; each takes a supply of Mining Probes and starting Ice.",
    "CR-SETUP-2": "The Asteroid Belt: Outer, Intermediate and Inner Rings across numbered Zones, one "
                  "Asteroid on each ring position.",
    "CR-ROUND-1": "3 rounds, each an Asteroid Belt phase, a Production phase and an Activation phase.",
    "CR-ROUND-2": "The first player of round 1 is chosen; it passes clockwise each round.",
    "CR-BELT-1": "In the Asteroid Belt phase the rings rotate (inner rings faster).",
    "CR-PROD-1": "In the Production phase each player gains Ice income.",
    "CR-PROD-2": "Each claimed Asteroid gives its owner its income.",
    "CR-ACT-1": "In the Activation phase players take turns clockwise from the first player; a turn is "
                "one Launch action or a pass.",
    "CR-ACT-2": "Launch pays Ice by ring: launching to farther Asteroids costs more.",
    "CR-ACT-3": "Launch places a Mining Probe from your supply.",
    "CR-ACT-4": "Launch lands on an available Asteroid (no Mining Probe on it).",
    "CR-ACT-5": "The Mining Probe claims the Asteroid: gain its Resources and Victory Points.",
    "CR-ACT-6": "A player who passes takes no more turns; the phase ends when every player has passed.",
    "CR-END-1": "After the 3rd round the player with the most Victory Points wins; ties share the win.",
    "CR-END-2": "Nothing can be done once the game is over.",
}

RULES: dict[str, str] = {**COMETS_RULES, **RECONSTRUCTION_RULES}
