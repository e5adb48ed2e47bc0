"""English for event texts and refusals: the article, the plural and the possessive a text
needs for the number or the name it holds, so no text says "a Agriculture check", "1 di(c)e"
or "Azars's"."""

from __future__ import annotations

import re

_AN_NUMBER = re.compile(r"8|1[18](?!\d)")  # eight..., eleven, eighteen


def article(phrase: object) -> str:
    """``phrase`` after "a" or "an", by how it is read (``an Agriculture check``, ``an 8``)."""
    text = str(phrase)
    an = text[:1].lower() in "aeiou" or _AN_NUMBER.match(text) is not None
    return f"{'an' if an else 'a'} {text}"


def plural(n: int, singular: str, many: str | None = None) -> str:
    """``n`` and the noun in its number: ``1 die``, ``3 dice``, ``2 sectors``."""
    return f"{n} {singular if n == 1 else many or singular + 's'}"


def possessive(name: str) -> str:
    """``Xunon's``, ``Azars'``: a name that ends in s takes the apostrophe alone."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"
