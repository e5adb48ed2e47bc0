"""The heuristic bot: greedy one-step look-ahead with the game's evaluator.

For each legal action it takes a determinized copy of the game (everything its seat cannot
see re-dealt by its own generator), applies the action, plays out its own follow-up
decisions of that action greedily (the steps of a Move, which IM to keep, ...; see
:meth:`~ecliptic.bots.evaluator.Evaluator.quiet`), and judges the result with the
evaluator: its own value minus ``rivals`` times the strongest rival's. All candidates are
judged on the same determinized copy with the same dice (common random numbers), so the
comparison is between actions, not between lucky and unlucky rolls; ``samples=N`` averages
over N copies.

Options (``heuristic:samples=2/depth=6/epsilon=0.3/rivals=0.5/w.energy=0.1``): ``samples``
determinized copies per decision (1), ``depth`` follow-up decisions played out at most (6),
``epsilon`` chance of a random legal action instead (0; the ``easy`` level uses it),
``rivals`` (the weights file's value), ``w.<weight>`` evaluation weights.

The bot is fair (it reads only ``legal_actions`` and its own determinized copies) and
deterministic for a fixed seed.
"""

from __future__ import annotations

from typing import Any

from ecliptic.bots.base import BotSpecError, number_option, parse_options, register_bot
from ecliptic.bots.evaluator import Evaluator, Evaluators, advantage
from ecliptic.engine.actions import Action
from ecliptic.engine.rng import Rng

OPTIONS = {"samples", "depth", "epsilon", "rivals"}
TIE = 1e-9
DEPTH = 6
"""Follow-up decisions (a Move's steps and the like) played out before an action is judged."""
UNKNOWN = -1e9
"""The judgement of an action that cannot be tried on the determinized copy."""


class HeuristicBot:
    """Greedy one-step look-ahead (see the module text)."""

    name = "heuristic"
    remembers = True
    """It keeps a copy from one decision to the next (``_keep``): a bot built anew mid-Move is
    walked through its own decisions first (:func:`ecliptic.bots.base.replay_for`), and told the
    action actually taken at each (:meth:`taken`)."""

    def __init__(self, seed: int, *, samples: int = 1, depth: int = DEPTH, epsilon: float = 0.0,
                 rivals: float | None = None, options: dict[str, str] | None = None) -> None:
        self.rng = Rng.from_seed(seed)
        self.samples = samples
        self.depth = depth
        self.epsilon = epsilon
        self.options = dict(options or {})
        self.rivals = rivals
        self.evaluator = Evaluators(self.options)
        self._kept: tuple[int, Any] | None = None
        self._judged: tuple[int, Any, Action] | None = None
        """The seat, the copy and the choice of the last decision judged on a copy (for :meth:`taken`)."""

    def choose(self, game: Any, state: Any, seat: int) -> Action:
        actions: list[Action] = game.legal_actions(state)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action to choose from (is the game over?)")
        self._judged = None
        if len(actions) == 1:
            return actions[0]
        if self.epsilon > 0 and self.rng.below(1_000_000) < self.epsilon * 1_000_000:
            return actions[self.rng.below(len(actions))]
        ev = self.evaluator(game)
        clock = ev.clock(state)
        totals = [0.0] * len(actions)
        first: Any = None
        for k in range(self.samples):
            world = self._kept_copy(game, state, seat, actions) if k == 0 else None
            if world is None:
                world = game.determinize(state, seat, self.rng)
            first = world if k == 0 else first
            possible = set(game.legal_actions(world))
            for i, action in enumerate(actions):
                # An action about something the copy re-dealt (stealing a card seen in the
                # loser's hand) cannot be tried there: it is judged the worst.
                totals[i] += (self.judge(game, ev, world, seat, action, clock) if action in possible
                              else UNKNOWN)
        best = self._best(actions, totals)
        self._keep(game, ev, first, seat, best)
        self._judged = (seat, first, best)
        return best

    def taken(self, game: Any, seat: int, action: Action) -> None:
        """Told that ``action`` was taken for ``seat`` at the decision it last chose for: when
        that was not its own choice (a person's step it is walked through to suggest the next
        one), it keeps the copy it judged the decision on with ``action`` applied instead, as
        it would have kept its own, so the Move a person started is judged on the copy it was
        judged on, not stopped on a fresh one (docs/bots.md "Suggestions mid-Move"). The
        copy is then checked at the next decision like any kept copy (``_kept_copy``); its
        own choice, or a decision it chose at random or had no choice in, changes nothing."""
        judged, self._judged = self._judged, None
        if judged is None or judged[0] != seat or judged[2] == action:
            return
        self._keep(game, self.evaluator(game), judged[1], seat, action)

    def judge(self, game: Any, ev: Evaluator, world: Any, seat: int, action: Action,
              clock: float | None = None) -> float:
        """The objective after ``action`` and its greedy follow-up on a copy of ``world``."""
        return judge(game, ev, world, seat, action, self.depth, self._rivals(ev), clock)

    def _keep(self, game: Any, ev: Evaluator, world: Any, seat: int, action: Action) -> None:
        """Keep the copy the chosen action was judged on, with the action applied, while the
        action's own follow-up decisions (a Move's steps) are still to come. A fresh copy
        would roll other dice and draw other tiles: a Move chosen for the sectors it would
        reach on one copy was then stopped before its first sector on the next, a Major
        action and its energy spent for nothing (docs/bots.md, "Habits")."""
        self._kept = None
        if world is None or action not in set(game.legal_actions(world)):
            return
        kept = world.clone()
        game.apply(kept, action)
        if not ev.quiet(kept, seat):
            self._kept = (seat, kept)

    def _kept_copy(self, game: Any, state: Any, seat: int, actions: list[Action]) -> Any:
        """The kept copy, if it still shows ``seat`` exactly what the game shows it (nothing
        it learnt since contradicts the copy) and offers the same actions; else ``None``."""
        kept, self._kept = self._kept, None
        if kept is None or kept[0] != seat:
            return None
        world = kept[1]
        if game.legal_actions(world) != actions or game.observe(world, seat) != game.observe(state, seat):
            return None
        return world

    def _rivals(self, ev: Evaluator) -> float:
        return self.rivals if self.rivals is not None else rivals_weight(ev)

    def _best(self, actions: list[Action], totals: list[float]) -> Action:
        return best_of(actions, totals, self.rng)


def rivals_weight(ev: Evaluator) -> float:
    """The evaluator's weight of the strongest rival in the objective (its ``rivals``)."""
    return float(getattr(ev, "rivals", 0.5))


def judge(game: Any, ev: Evaluator, world: Any, seat: int, action: Action, depth: int,
          rivals: float, clock: float | None = None) -> float:
    """``seat``'s objective after ``action`` and its greedy follow-up on a copy of ``world``:
    its value minus ``rivals`` times the strongest rival's, at ``clock`` (the evaluator's
    clock of ``world`` unless given: every candidate of a decision is judged at the same)."""
    at = ev.clock(world) if clock is None else clock
    s = world.clone()
    game.apply(s, action)
    settle(game, ev, s, seat, depth, at)
    return advantage(ev.values(s, at), seat, rivals)


def best_of(actions: list[Action], totals: list[float], rng: Rng) -> Action:
    """The best-judged action; ties broken by ``rng`` so that no action is favoured by its
    place in the sorted list."""
    top = max(totals)
    best = [a for a, t in zip(actions, totals, strict=True) if t >= top - TIE]
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


def greedy_move(game: Any, ev: Evaluator, world: Any, rng: Rng, depth: int = DEPTH) -> Action:
    """The heuristic bot's move for whoever is to move in ``world``, judged on ``world``
    itself: a copy that is already determinized (a search's playout), so nothing is re-dealt
    and the player's own hidden information is simply what the copy holds."""
    actions: list[Action] = game.legal_actions(world)
    if len(actions) == 1:
        return actions[0]
    seat: int = world.current_player
    rivals = rivals_weight(ev)
    clock = ev.clock(world)
    return best_of(actions, [judge(game, ev, world, seat, a, depth, rivals, clock) for a in actions], rng)


def settle(game: Any, ev: Evaluator, state: Any, seat: int, depth: int, clock: float | None = None) -> None:
    """Play ``seat``'s follow-up decisions of the action under way, each by the evaluator's
    one-step judgement of ``seat``'s own value (at ``clock``), until the position is quiet
    or ``depth`` decisions were made."""
    for _ in range(depth):
        if state.is_over or ev.quiet(state, seat):
            return
        actions: list[Action] = game.legal_actions(state)
        if len(actions) == 1:
            game.apply(state, actions[0])
            continue
        best: Action | None = None
        best_value = float("-inf")
        for action in actions:
            s = state.clone()
            game.apply(s, action)
            value = ev.value(s, seat, clock)
            if value > best_value + TIE:
                best, best_value = action, value
        assert best is not None
        game.apply(state, best)


def _make(option: str | None, seed: int) -> HeuristicBot:
    words, named = parse_options("heuristic", option, OPTIONS)
    if words:
        raise BotSpecError(f"the heuristic bot takes only key=value options (got {'/'.join(words)!r})")
    samples = int(number_option("heuristic", named, "samples", 1, 1, 64))
    depth = int(number_option("heuristic", named, "depth", DEPTH, 0, 50))
    epsilon = number_option("heuristic", named, "epsilon", 0.0, 0.0, 1.0)
    rivals = number_option("heuristic", named, "rivals", -1.0, 0.0, 10.0) if "rivals" in named else None
    weights = {k: v for k, v in named.items() if k.startswith("w.")}
    return HeuristicBot(seed, samples=samples, depth=depth, epsilon=epsilon, rivals=rivals, options=weights)


register_bot("heuristic", _make)
