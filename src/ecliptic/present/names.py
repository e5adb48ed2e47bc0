"""Names and texts for every component id a view mentions: ``{id: {name, text}}``.

Only ids that appear in what the seat is sent (its observation, its legal and refused
actions) are named, so the names add no id to what the seat already sees; the texts come
from the printed components (:mod:`ecliptic.present.tauceti_components`,
:mod:`ecliptic.present.ceres_components`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ecliptic.engine.content import content_cache
from ecliptic.present import ceres_components, tauceti_components


@content_cache
def name_of(game: str, thing: str) -> tuple[str, str] | None:
    if game == "ceres":
        return ceres_components.name_of(thing)
    return tauceti_components.name_of(thing)


def names(game: str, mentioned: Iterable[str]) -> dict[str, dict[str, str]]:
    out = {}
    for thing in sorted(set(mentioned)):
        found = name_of(game, thing)
        if found is not None:
            out[thing] = {"name": found[0], "text": found[1]}
    return out


CARD_IN_TEXT = re.compile(r"\b[CSMK]\d\d\b")
"""A Tau Ceti card's id in an event's text (Crisis, Specialist, Mission, Exploration cards)."""
SAYS_WHAT = ("IM ", "Crisis ", "crisis ", "card ")
"""Words before an id that already say what it is of (``IM M21``, ``Crisis C17 (Chemical)``)."""


def _with_id(name: str, thing: str, *, enclosed: bool = False) -> str:
    """``Diplomat (Political Specialist, S37)``, ``Biohazard Crisis card #1 (C01)``: the name and
    the id the actions' notation uses; ``Diplomat, Political Specialist, S37`` for an id the
    text gives in parentheses (``+2 T (S37)``), so that none nest."""
    if enclosed:
        return f"{name.replace(' (', ', ').removesuffix(')')}, {thing}"
    if name.endswith(")"):
        return f"{name[:-1]}, {thing})"
    return f"{name} ({thing})"


def event_text(game: str, text: str) -> str:
    """An event's text for the log, each card it gives by its id alone named as the hand names
    it (:func:`name_of`, the ``present.names`` the browser shows for a hand): ``You recruit S37,
    C01.`` reads ``You recruit Diplomat (Political Specialist, S37), Biohazard Crisis card #1
    (C01).`` An id the text already says what it is of is kept as it is: after ``IM``,
    ``Crisis`` or ``card``, or next to the card's own name (``Astrophysicist S20``, ``S39
    (Diplomat)``). Only ids in the text are named, so nothing is told that the text did not
    tell. Ceres' texts name each component with its kind already (``Asteroid A14``)."""
    if game != "tauceti" or CARD_IN_TEXT.search(text) is None:
        return text

    def named(m: re.Match[str]) -> str:
        thing = m.group()
        found = name_of(game, thing)
        if found is None:
            return thing
        before, after = text[:m.start()], text[m.end():]
        short = found[0].split(" (")[0]
        if before.endswith(SAYS_WHAT) or before.endswith(short + " ") or after.startswith(f" ({short}"):
            return thing
        return _with_id(found[0], thing, enclosed=before.endswith("(") and after.startswith(")"))

    return CARD_IN_TEXT.sub(named, text)
