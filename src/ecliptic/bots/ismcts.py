"""The ISMCTS bot: single-observer information-set Monte Carlo tree search.

Every iteration deals a fresh determinization of the hidden information from the bot's
own point of view (``game.determinize``: other hands, deck orders and face-down tokens
re-dealt by the bot's generator, future dice unknown). What happens next depends on the
default policy, ``policy``:

**Greedy playouts** (``policy=greedy``, the default). A playout in which every seat plays
the heuristic bot's move is a far better judge than the evaluator alone (the other players
*are* heuristic-like, and a round played out shows what the evaluator only guesses), but
it costs 10-300 ms, so a 1 s decision affords tens of playouts, not thousands (a 200 ms
one a few): too few for a tree below the root to be worth growing. The search is
therefore the root alone, spent where it pays:

* the **shortlist**: the heuristic's judgement of every action (its one-step look-ahead on
  one determinization), keeping its ``width`` best within ``margin`` GP of its favourite;
  a lone favourite is played at once;
* **sweeps**: each iteration's determinization (with its dice: the copy rolls its own, so
  every clone of it rolls the same) is shared by every shortlisted action, each played out
  by every seat's greedy move (ties broken alike) to the end of the stage
  (:meth:`~ecliptic.bots.evaluator.Evaluator.stage`: the round; in Tau Ceti's last rounds,
  whose end is a die roll, the end of the game), then judged by the evaluator's win chances
  or the game's returns. Comparing the actions on the same deal
  and dice (common random numbers) removes most of the noise a few tens of playouts have;
* the **move**: the favourite, unless another shortlisted action beats it on the paired
  differences by more than ``z`` standard errors (after at least ``MIN_SWEEPS`` sweeps);
  then the best of those.

**The tree** (``policy=quick``): the full search, thousands of cheap iterations, each
walking one tree shared by all players:

* **Selection** by UCB1 with *availability counts*: an edge's exploration term uses how
  often it was legal when its parent was reached, not the parent's visits, because in a
  different determinization a different set of actions is legal. At the root, PUCT
  instead: ``Q + prior * P * sqrt(N) / (1 + n)`` where ``P`` is the heuristic's opinion of
  each root action (judged once, as the heuristic bot judges it: ``exp(-d / 0.5)`` for an
  action ``d`` GP worse than its favourite, normalized), so the few hundred iterations a
  decision affords start from the heuristic's choice and overrule it only on evidence.
* **Expansion** of one untried action that is legal in this determinization.
* **The other players** (``model=quick``, the default): their turns are played by the
  evaluator's cheap model (:meth:`~ecliptic.bots.evaluator.Evaluator.quick_move`; in Tau
  Ceti they pass) without tree edges, so the search spends its iterations on the bot's own
  plans over several turns; their other decisions (battles, damage...) are tree nodes.
  ``model=tree`` puts every decision of every player in the tree.
* **Rollout** by the default policy: ``rollout`` random legal actions (0 by default: they
  added noise, not strength, in our measurements), then the follow-up decisions of any
  action under way played greedily with the evaluator (at most 8: the cheap heuristic),
  then the evaluator judges the position: each seat's chance of winning from there
  (:meth:`~ecliptic.bots.evaluator.Evaluator.chances`: its point estimates through a softmax
  whose temperature shrinks as the game nears its end, so a lead counts for more in the last
  rounds than in the first). A finished game gives its returns.
* **Backup** max-n style: every edge keyed by (player, action) and crediting the reward *of
  the player who chose it*, so each player's nodes maximise that player's own reward (the
  natural extension of UCT to 4 players; no paranoid or per-player trees).

Decisions where only one action is legal are played without a tree edge, and without any
search when it is the bot's own decision. The tree's move is the most visited root action.

**Early termination** (``prune=1``, the default; "smart pruning"): the search stops as soon
as the most visited root action leads every other by more visits than there are iterations
left (on a time budget: left at the rate so far). One iteration adds at most one visit to
one root action, so the move can no longer change: on an iteration budget it is exactly the
full budget's move, in less time.

Budget: ``ismcts:200ms`` or ``ismcts:1s`` (wall clock per decision, checked after every
iteration: the search stops when one more iteration would overrun), or ``ismcts:500it``
(iterations, reproducible; with greedy playouts an iteration is one playout, and only
whole sweeps are played). Options after ``/``: ``policy`` (greedy or quick), ``w.<weight>``
evaluation weights; for greedy playouts ``width`` (3), ``margin`` (1.5 GP) and ``z`` (0.5);
for the tree ``c`` exploration constant (0.7), ``rollout`` random decisions per rollout (0),
``prior`` weight of the root prior (3; 0 turns it off and expands untried root actions
first), ``model`` (quick or tree), ``prune`` (1: early termination; 0: spend the whole
budget).
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

from ecliptic.bots.base import BotSpecError, number_option, parse_options, register_bot
from ecliptic.bots.evaluator import Evaluator, Evaluators
from ecliptic.bots.heuristic import DEPTH, greedy_move, judge, rivals_weight, settle
from ecliptic.engine.actions import Action
from ecliptic.engine.rng import Rng

GREEDY_OPTIONS = {"width", "margin", "z"}
TREE_OPTIONS = {"c", "rollout", "prior", "model", "prune"}
OPTIONS = {"policy"} | GREEDY_OPTIONS | TREE_OPTIONS
DEFAULT_BUDGET = "200ms"
SETTLE_STEPS = 8
"""Follow-up decisions played greedily before a leaf is judged (see ``_playout``)."""
MIN_SWEEPS = 2
"""Whole sweeps an action needs before it may overrule the favourite: the spread of its
paired gains, and so their standard error, is unknown after one."""
PRIOR_SCALE = 0.5
"""Points (GP) worse than the heuristic's favourite that cost a root action a factor e of its bias."""
_BUDGET = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|it)$")

Key = tuple[int, Action]


class Node:
    """One edge's statistics and the edges below it."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Key, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class IsmctsBot:
    """Information-set MCTS with a time or iteration budget (see the module text)."""

    name = "ismcts"

    def __init__(self, seed: int, *, iterations: int | None = None, seconds: float | None = None,
                 greedy: bool = True, width: int = 3, margin: float = 1.5, z: float = 0.5,
                 c: float = 0.7, rollout: int = 0, prior: float = 3.0, quick: bool = True,
                 prune: bool = True, options: dict[str, str] | None = None) -> None:
        if (iterations is None) == (seconds is None):
            raise ValueError("give the ISMCTS bot a budget in iterations or in seconds (one of them)")
        self.rng = Rng.from_seed(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.greedy = greedy
        self.width = width
        self.margin = margin
        self.z = z
        self.c = c
        self.rollout = rollout
        self.prior = prior
        self.quick = quick
        self.prune = prune
        self.options = dict(options or {})
        self.last_iterations = 0
        self._slowest_move = 0.0
        self.evaluator = Evaluators(self.options)

    def choose(self, game: Any, state: Any, seat: int) -> Action:
        start = time.perf_counter()
        actions: list[Action] = game.legal_actions(state)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action to choose from (is the game over?)")
        self.last_iterations = 0
        if len(actions) == 1:
            return actions[0]
        ev = self.evaluator(game)
        if self.greedy:
            return self._sweeps(game, ev, state, seat, actions, start)
        priors = self._priors(game, ev, state, seat, actions) if self.prior > 0 else {}
        root = Node()
        done = 0
        while True:
            self._iterate(game, ev, state, seat, root, actions, priors)
            done += 1
            if self.iterations is not None:
                left = self.iterations - done
            else:
                spent = time.perf_counter() - start
                assert self.seconds is not None
                if spent + spent / done > self.seconds:  # another iteration would overrun
                    break
                left = int((self.seconds - spent) / (spent / done))  # at the rate so far
            if left <= 0 or (self.prune and _decided(root, seat, actions, left)):
                break
        self.last_iterations = done
        return self._most_visited(root, seat, actions, priors)

    # One iteration ------------------------------------------------------------------------

    def _iterate(self, game: Any, ev: Evaluator, state: Any, seat: int, root: Node,
                 root_actions: list[Action], priors: dict[Action, float]) -> None:
        world = game.determinize(state, seat, self.rng)
        node = root
        path: list[tuple[Node, int]] = []
        while not world.is_over:
            player: int = world.current_player
            legal: list[Action] = game.legal_actions(world)
            if node is root:  # the real choices, less any the copy cannot play (see _priors)
                possible = set(legal)
                legal = [a for a in root_actions if a in possible] or legal
            if len(legal) == 1:
                game.apply(world, legal[0])
                continue
            if self.quick and player != seat:
                quick = ev.quick_move(world, legal)
                if quick is not None:  # the other players' modelled move: no tree edge
                    game.apply(world, quick)
                    continue
            if node is root and priors:
                child, action, fresh = self._select_root(node, player, legal, priors)
            else:
                child, action, fresh = self._select(node, player, legal)
            game.apply(world, action)
            path.append((child, player))
            node = child
            if fresh:
                break
        rewards = self._playout(game, ev, world)
        for child, player in path:
            child.visits += 1
            child.reward += rewards[player]

    def _select(self, node: Node, player: int, legal: list[Action]) -> tuple[Node, Action, bool]:
        """Count availability, expand an untried action if any, else pick by UCB1."""
        untried: list[Action] = []
        for action in legal:
            child = node.children.get((player, action))
            if child is None:
                untried.append(action)
            else:
                child.avail += 1
        if untried:
            return self._expand(node, player, untried[self.rng.below(len(untried))])
        best: tuple[Node, Action] | None = None
        best_score = float("-inf")
        for action in legal:
            child = node.children[(player, action)]
            score = child.reward / child.visits + self.c * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best, best_score = (child, action), score
        assert best is not None
        return best[0], best[1], False

    def _select_root(self, root: Node, player: int, legal: list[Action],
                     priors: dict[Action, float]) -> tuple[Node, Action, bool]:
        """PUCT at the root: ``Q + prior * P * sqrt(N) / (1 + n)``, with ``P`` the heuristic's
        opinion (normalized) and an untried action valued at the mean of the tried ones."""
        total_prior = sum(priors.get(a, 0.0) for a in legal) or 1.0
        tried = [root.children[(player, a)] for a in legal if (player, a) in root.children]
        visits = sum(c.visits for c in tried)
        first = sum(c.reward for c in tried) / visits if visits else 0.0
        scale = self.prior * math.sqrt(visits + 1)
        best: Action | None = None
        best_score = float("-inf")
        for action in legal:
            child = root.children.get((player, action))
            if child is not None:
                child.avail += 1
            n = child.visits if child is not None else 0
            q = child.reward / n if child is not None and n else first
            score = q + scale * priors.get(action, 0.0) / total_prior / (1 + n)
            if score > best_score:
                best, best_score = action, score
        assert best is not None
        child = root.children.get((player, best))
        if child is None:
            return self._expand(root, player, best)
        return child, best, False

    def _expand(self, node: Node, player: int, action: Action) -> tuple[Node, Action, bool]:
        child = Node()
        child.avail = 1
        node.children[(player, action)] = child
        return child, action, True

    def _playout(self, game: Any, ev: Evaluator, world: Any) -> list[float]:
        """Random legal actions for at most ``rollout`` decisions, then the follow-up decisions
        of an action under way played greedily (as the heuristic does), then the evaluator."""
        for _ in range(self.rollout):
            if world.is_over:
                break
            legal: list[Action] = game.legal_actions(world)
            game.apply(world, legal[self.rng.below(len(legal))] if len(legal) > 1 else legal[0])
        for _ in range(SETTLE_STEPS):  # half an action is worth nothing: finish it first
            if world.is_over or ev.quiet(world, world.current_player):
                break
            settle(game, ev, world, world.current_player, 1)
        if world.is_over:
            return [float(r) for r in game.returns(world)]
        return ev.chances(world)

    # Greedy playouts: the root's shortlist in paired sweeps ----------------------------------

    def _sweeps(self, game: Any, ev: Evaluator, state: Any, seat: int, actions: list[Action],
                start: float) -> Action:
        """``policy=greedy``: the heuristic's shortlist, each candidate played out by every
        seat's greedy move to the end of the stage, all candidates on the same determinization
        (a sweep), as many whole sweeps as the budget allows; the heuristic's favourite unless
        another candidate does better by ``z`` standard errors."""
        judged = self._judged(game, ev, state, seat, actions)
        if not judged:  # nothing could be tried on the copy: nothing to prefer
            return actions[self.rng.below(len(actions))]
        shortlist = self._shortlist(judged)
        if len(shortlist) == 1:
            return shortlist[0]
        deadline = start + self.seconds if self.seconds is not None else None
        self._slowest_move = 0.0
        sweeps = [Sweep() for _ in shortlist]
        complete = 0
        while self._another_sweep(len(shortlist), start, complete):
            world = game.determinize(state, seat, self.rng)
            possible = set(game.legal_actions(world))
            stage = ev.stage(world)
            ties = self.rng.next_u64()  # the dice are the copy's own: every clone rolls the same
            rewards: list[float] = []
            out_of_time = False
            for action in shortlist:
                if action not in possible:  # about something this copy re-dealt: no sweep,
                    self.last_iterations += 1  # but a try, so an iteration budget still ends
                    break
                began = time.perf_counter()
                copy = world.clone()
                game.apply(copy, action)
                reward = self._greedy_playout(game, ev, copy, seat, stage, Rng.from_seed(ties), deadline)
                self.last_iterations += 1
                if reward is None:
                    out_of_time = True
                    break
                rewards.append(reward)
                if deadline is not None and not complete and len(rewards) == 1:
                    took = time.perf_counter() - began  # a first sweep that cannot end in time
                    out_of_time = time.perf_counter() + took * (len(shortlist) - 1) > deadline
                    if out_of_time:  # buys nothing: the favourite it is
                        break
            if out_of_time:
                break  # (an incomplete sweep is not counted)
            if len(rewards) < len(shortlist):
                continue
            complete += 1
            for sweep, reward in zip(sweeps, rewards, strict=True):
                sweep.add(reward, reward - rewards[0])
        return shortlist[_paired_choice(sweeps, self.z)]

    def _shortlist(self, judged: dict[Action, float]) -> list[Action]:
        """The favourite first, then the next best, at most ``width`` within ``margin`` of it;
        equal judgements in an order drawn by the bot's generator, as the heuristic breaks ties."""
        actions = list(judged)
        self.rng.shuffle(actions)
        actions.sort(key=lambda a: -judged[a])
        top = judged[actions[0]]
        return [a for a in actions[:self.width] if judged[a] >= top - self.margin]

    def _another_sweep(self, size: int, start: float, complete: int) -> bool:
        """Does the budget leave room for another whole sweep of ``size`` playouts? On a time
        budget: at the rate of the sweeps so far (the first is always tried)."""
        if self.iterations is not None:
            return self.last_iterations + size <= self.iterations
        assert self.seconds is not None
        spent = time.perf_counter() - start
        if not complete:
            return spent < self.seconds
        return spent + spent / complete <= self.seconds

    def _greedy_playout(self, game: Any, ev: Evaluator, world: Any, seat: int, stage: int, rng: Rng,
                        deadline: float | None) -> float | None:
        """Every seat plays the heuristic's move until the stage ends (or the game: then its
        returns); the seat's chance of winning there, or ``None`` once the next move might not
        end before the deadline (as long as the slowest move so far in this decision)."""
        while not world.is_over and ev.stage(world) == stage:
            now = time.perf_counter()
            if deadline is not None and now + self._slowest_move > deadline:
                return None
            game.apply(world, greedy_move(game, ev, world, rng))
            self._slowest_move = max(self._slowest_move, time.perf_counter() - now)
        if world.is_over:
            return float(game.returns(world)[seat])
        return ev.chances(world)[seat]

    # The root ------------------------------------------------------------------------------

    def _priors(self, game: Any, ev: Evaluator, state: Any, seat: int,
                actions: list[Action]) -> dict[Action, float]:
        """Each root action's standing in the heuristic's one-step judgement: 1 for its
        favourite, ``exp(-d / PRIOR_SCALE)`` for an action judged ``d`` points worse."""
        judged = self._judged(game, ev, state, seat, actions)
        if not judged:
            return {}
        top = max(judged.values())
        return {a: math.exp((v - top) / PRIOR_SCALE) for a, v in judged.items()}

    def _judged(self, game: Any, ev: Evaluator, state: Any, seat: int,
                actions: list[Action]) -> dict[Action, float]:
        """Each root action judged as the heuristic bot judges it, on one determinized copy;
        an action about something the copy re-dealt cannot be tried there and is left out."""
        world = game.determinize(state, seat, self.rng)
        possible = set(game.legal_actions(world))
        rivals = rivals_weight(ev)
        return {a: judge(game, ev, world, seat, a, DEPTH, rivals) for a in actions if a in possible}

    def _most_visited(self, root: Node, seat: int, actions: list[Action],
                      priors: dict[Action, float]) -> Action:
        def key(a: Action) -> tuple[int, float]:
            child = root.children.get((seat, a))
            return (child.visits if child else 0, priors.get(a, 0.0))

        top = max(key(a) for a in actions)
        best = [a for a in actions if key(a) == top]
        return best[0] if len(best) == 1 else best[self.rng.below(len(best))]


class Sweep:
    """One shortlisted action's rewards over the complete sweeps, and their differences from
    the heuristic's favourite's reward in the same sweep (paired: same deal, same dice)."""

    __slots__ = ("diff", "diff_sq", "n", "reward")

    def __init__(self) -> None:
        self.n = 0
        self.reward = 0.0
        self.diff = 0.0
        self.diff_sq = 0.0

    def add(self, reward: float, diff: float) -> None:
        self.n += 1
        self.reward += reward
        self.diff += diff
        self.diff_sq += diff * diff

    def gain(self, z: float) -> float:
        """The mean paired gain over the favourite less ``z`` standard errors of it."""
        if self.n < MIN_SWEEPS:  # no spread, no evidence: one sweep never overrules
            return float("-inf")
        mean = self.diff / self.n
        variance = max(self.diff_sq - self.n * mean * mean, 0.0) / max(self.n - 1, 1)
        return mean - z * math.sqrt(max(variance, 1e-12) / self.n)


def _paired_choice(sweeps: list[Sweep], z: float) -> int:
    """The index of the move to play: the favourite (0) unless other candidates gain on it by
    more than ``z`` standard errors; then the one of those with the best mean reward."""
    best = 0
    for i in range(1, len(sweeps)):
        if sweeps[i].gain(z) > 0 and sweeps[i].reward > sweeps[best].reward:
            best = i
    return best


def _decided(root: Node, seat: int, actions: list[Action], left: int) -> bool:
    """Is the move settled: is the most visited root action more than ``left`` visits ahead
    of every other, so that no other can catch it in the ``left`` iterations to come?

    Each iteration adds one visit to at most one root action, so once the leader is more than
    ``left`` visits ahead of every other action, no other action can reach (or tie) its count:
    the move is settled and the rest of the budget would not change it ("smart pruning").
    On an iteration budget the move is exactly the one the full budget plays."""
    first = second = 0
    for action in actions:
        child = root.children.get((seat, action))
        n = child.visits if child is not None else 0
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second > left


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """``"200ms"`` -> (None, 0.2); ``"1s"`` -> (None, 1.0); ``"500it"`` -> (500, None)."""
    m = _BUDGET.match(text.strip().lower())
    if m is None:
        raise BotSpecError(f"an ISMCTS budget is a time or an iteration count, like 200ms, 1s or 500it "
                           f"(got {text!r})")
    amount, unit = float(m.group(1)), m.group(2)
    if amount <= 0:
        raise BotSpecError(f"the ISMCTS budget must be positive (got {text!r})")
    if unit == "it":
        if amount != int(amount):
            raise BotSpecError(f"an iteration budget is a whole number (got {text!r})")
        return int(amount), None
    return None, amount / 1000 if unit == "ms" else amount


def _make(option: str | None, seed: int) -> IsmctsBot:
    words, named = parse_options("ismcts", option, OPTIONS)
    if len(words) > 1:
        raise BotSpecError(f"the ISMCTS bot takes one budget (got {'/'.join(words)!r})")
    iterations, seconds = parse_budget(words[0] if words else DEFAULT_BUDGET)
    policy = named.get("policy", "greedy")
    if policy not in ("greedy", "quick"):
        raise BotSpecError(f"ismcts option policy is greedy or quick (got {policy!r})")
    foreign = sorted(k for k in (TREE_OPTIONS if policy == "greedy" else GREEDY_OPTIONS) if k in named)
    if foreign:
        raise BotSpecError(f"ismcts option {foreign[0]} does not apply to policy={policy}: greedy playouts "
                           f"take {', '.join(sorted(GREEDY_OPTIONS))}, the tree (policy=quick) "
                           f"{', '.join(sorted(TREE_OPTIONS))}")
    width = number_option("ismcts", named, "width", 3, 2, 100)
    if width != int(width):
        raise BotSpecError(f"ismcts option width is a whole number (got {named['width']!r})")
    margin = number_option("ismcts", named, "margin", 1.5, 0.0, 1000.0)
    z = number_option("ismcts", named, "z", 0.5, 0.0, 10.0)
    c = number_option("ismcts", named, "c", 0.7, 0.0, 100.0)
    rollout = int(number_option("ismcts", named, "rollout", 0, 0, 10_000))
    prior = number_option("ismcts", named, "prior", 3.0, 0.0, 100.0)
    model = named.get("model", "quick")
    if model not in ("tree", "quick"):
        raise BotSpecError(f"ismcts option model is tree or quick (got {model!r})")
    prune = number_option("ismcts", named, "prune", 1, 0, 1)
    if prune not in (0, 1):
        raise BotSpecError(f"ismcts option prune is 0 or 1 (got {named['prune']!r})")
    weights = {k: v for k, v in named.items() if k.startswith("w.")}
    return IsmctsBot(seed, iterations=iterations, seconds=seconds, greedy=policy == "greedy", width=int(width),
                     margin=margin, z=z, c=c, rollout=rollout, prior=prior, quick=model == "quick",
                     prune=prune == 1, options=weights)


register_bot("ismcts", _make)
