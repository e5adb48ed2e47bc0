"""One seeded generator per game, kept in the state.

SplitMix64 is used because its whole state is one integer: cloning and
serializing the generator is free, and the sequence is identical on every
platform and Python version (unlike ``random.Random``'s internal state).

Tests script upcoming outcomes with :meth:`Rng.script_dice` and
:meth:`Rng.script_choices`; scripted values are consumed before the generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_STEP = 0x9E3779B97F4A7C15
"""How far :meth:`Rng.next_u64` moves the state (written out there too: it runs per card drawn)."""


@dataclass
class Rng:
    """Deterministic random source; ``state`` is the whole generator."""

    state: int = 0
    dice_script: tuple[int, ...] = ()
    choice_script: tuple[int, ...] = ()
    """Scripted outcomes still to come. Tuples, replaced as they are used up, so that a cloned
    generator shares them (a state is cloned thousands of times per bot decision)."""

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(state=seed & _MASK)

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def skip(self, draws: int) -> None:
        """Move on as ``draws`` calls of :meth:`next_u64` would, at once: the state moves by the
        same step each draw, so a run can start at its millionth game without drawing a million
        seeds (``ecliptic tournament --first-game``)."""
        if draws < 0:
            raise ValueError("an Rng cannot skip backwards")
        self.state = (self.state + draws * _STEP) & _MASK

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if self.choice_script:
            value, self.choice_script = self.choice_script[0], self.choice_script[1:]
            if not 0 <= value < n:
                raise ValueError(f"scripted choice {value} is outside [0, {n})")
            return value
        return self._raw_below(n)

    def d6(self) -> int:
        """One six-sided die."""
        if self.dice_script:
            value, self.dice_script = self.dice_script[0], self.dice_script[1:]
            if not 1 <= value <= 6:
                raise ValueError(f"scripted die {value} is not 1-6")
            return value
        return self._raw_below(6) + 1

    def _raw_below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` from the generator (rejection sampling). The step of
        :meth:`next_u64` is written out here: a shuffle draws once per card."""
        limit = (1 << 64) - ((1 << 64) % n)
        z = self.state
        while True:
            z = (z + 0x9E3779B97F4A7C15) & _MASK
            x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
            x ^= x >> 31
            if x < limit:
                self.state = z
                return x % n

    def roll(self, count: int) -> list[int]:
        return [self.d6() for _ in range(count)]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates in place. Scripted choices are not used for shuffles."""
        for i in range(len(items) - 1, 0, -1):
            j = self._raw_below(i + 1)
            items[i], items[j] = items[j], items[i]

    def script_dice(self, values: Sequence[int]) -> None:
        """Load the next die results (for tests and scenarios)."""
        self.dice_script += tuple(values)

    def script_choices(self, values: Sequence[int]) -> None:
        """Load the next results of :meth:`below` / :meth:`choice`."""
        self.choice_script += tuple(values)

    def copy(self) -> Rng:
        return Rng(self.state, self.dice_script, self.choice_script)
