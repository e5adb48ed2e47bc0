"""History and analysis, beyond Board Game Arena: the board at an earlier index, a suggested
move, the win-chance chart of a finished game, and a new game played on from a position of a
finished one against bots.

* **The board at an index** is a replay of the log's prefix, seen by the asker as it saw it
  then: ``observe(state_i, seat)`` for a seat token, the public observation without one.
  Replays start from the nearest cached earlier state, so stepping through a log costs one
  action a step.
* **A suggestion** is the ``normal`` bot's move and the seat's win chance, computed in the bot
  pool from copies of the game in which everything the seat cannot see is re-dealt
  (``determinize``): the worker holds the whole state (it replays the record), but the bot
  and the evaluator are given only those copies, so a suggestion tells the seat nothing it
  could not know. Off unless the game was created with ``suggestions``.
* **The win-chance chart** is drawn for a finished game only; its record (seed included) is
  public then, so the evaluator judges the true positions. At most :data:`MAX_SAMPLES`
  indices, computed once in the pool and kept in memory.
* **Play on** copies a finished game's config, seed and first ``index`` actions (actor
  :data:`~ecliptic.server.games.REPLAY`, which undo refuses, so undo never reaches into the
  copied part) into a new game: the asker at a seat, bots at the others.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ecliptic.bots.base import Bot, decision_seed, make_bot, replay_for, reseed
from ecliptic.bots.evaluator import evaluator_for
from ecliptic.engine.actions import Action
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game
from ecliptic.server import models
from ecliptic.server.games import (
    BOT_PLAYS_IT,
    PERSON,
    REPLAY,
    Broken,
    Forbidden,
    GameService,
    Invalid,
    Live,
    NotFound,
    NotOver,
    Stale,
)
from ecliptic.server.storage import ActionRow, GameRow

SUGGEST_LEVEL = "normal"
CHANCE_COPIES = 8
"""Re-dealt copies a suggestion's win chance is the mean of: one copy guesses the hidden cards."""
MAX_SAMPLES = 100
STATES_KEPT = 16
CHARTS_KEPT = 32
SUGGESTIONS_KEPT = 64


@dataclass(frozen=True)
class SuggestJob:
    """What a worker needs to suggest a move: the record so far and the seat asking."""

    game: str
    config: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    seat: int


@dataclass(frozen=True)
class ChartJob:
    game: str
    config: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    indices: tuple[int, ...]


def suggest_from(game: Any, state: Any, seat: int, seed: int, bot: Bot | None = None) -> tuple[str, float]:
    """The bot's move for ``seat`` and ``seat``'s chance of winning, judged on re-dealt copies
    only: the result depends on nothing but what ``seat`` sees and ``seed``. ``bot`` is the
    ``normal`` bot walked through the seat's decisions so far (:func:`suggest`); a fresh one
    without it. Either is seeded from ``seed`` (a bot told the seat's actions all along and
    asked here chooses alike)."""
    rng = Rng.from_seed(seed)
    world = game.determinize(state, seat, rng)
    if bot is None:
        bot = make_bot(SUGGEST_LEVEL, seed)
    reseed(bot, seed)
    action = bot.choose(game, world, seat)
    evaluator = evaluator_for(game)
    total = evaluator.chances(world)[seat]
    for _ in range(CHANCE_COPIES - 1):
        total += evaluator.chances(game.determinize(state, seat, rng))[seat]
    return str(action), min(1.0, max(0.0, total / CHANCE_COPIES))


def suggest(job: SuggestJob) -> tuple[str, float]:
    """Runs in a worker: replays the record, walking the bot through the seat's own decisions
    leading up to this one and telling it the actions the seat took (:func:`replay_for`): in
    the middle of a Move the seat started, the bot judges the next step on the copy it judged
    the start on, with the seat's actions applied, as it would its own Move (built fresh, it
    judged on a new copy and often said to stop before the first sector: docs/bots.md
    "Suggestions mid-Move"). Then :func:`suggest_from` with the seed the seat's own bot would
    have (a suggestion for a position is always the same)."""
    game = get_game(job.game)
    seed = decision_seed(job.seed, job.seat, len(job.actions))
    bot = make_bot(SUGGEST_LEVEL, seed)
    state = replay_for(bot, game, dict(job.config), job.seed, job.actions, job.seat)
    return suggest_from(game, state, job.seat, seed, bot)


def chances_at(game: Any, evaluator: Any, state: Any) -> list[float]:
    """Each seat's chance of winning: the evaluator's while playing, the result at the end (1
    shared among the winners, 0 for all when nobody won)."""
    raw = game.returns(state) if state.is_over else evaluator.chances(state)
    return [min(1.0, max(0.0, float(c))) for c in raw]


def chart(job: ChartJob) -> list[list[float]]:
    """Runs in a worker: one replay of the whole record, the chances at each of ``job.indices``."""
    game = get_game(job.game)
    evaluator = evaluator_for(game)
    state = game.new_game(dict(job.config), job.seed)
    wanted = set(job.indices)
    rows: list[list[float]] = []
    for i in range(len(job.actions) + 1):
        if i in wanted:
            rows.append(chances_at(game, evaluator, state))
        if i < len(job.actions):
            game.apply(state, Action.parse(job.actions[i]))
    return rows


def sample_indices(actions: int, limit: int = MAX_SAMPLES) -> list[int]:
    """At most ``limit`` indices of a game of ``actions`` actions, evenly spread over 0 to
    ``actions`` with both ends: the chart's cost does not grow with the game's length."""
    if actions + 1 <= limit:
        return list(range(actions + 1))
    return sorted({round(k * actions / (limit - 1)) for k in range(limit)})


def copied(live: Live) -> int:
    """How many of the game's first actions were copied from the game it plays on from."""
    n = 0
    while n < len(live.log) and live.log[n].actor == REPLAY:
        n += 1
    return n


class _Kept(OrderedDict[Any, Any]):
    """A small least-recently-used table."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class Analysis:
    """The analysis routes' helpers, over one :class:`GameService` (one per app)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._states = _Kept(STATES_KEPT)
        """(game id, index) -> (the notations of the prefix, its state): never changed once kept."""
        self._states_lock = threading.Lock()
        self._charts = _Kept(CHARTS_KEPT)
        self._charting: dict[str, asyncio.Future[models.WinChances]] = {}
        self._suggestions = _Kept(SUGGESTIONS_KEPT)

    # -- the board at an index -------------------------------------------------------------

    async def view_at(self, game_id: str, index: int, token: str | None) -> dict[str, Any]:
        """The GameView at ``index`` as ``token``'s seat (or a spectator) saw it then, with no
        legal actions: for the log and the replay."""
        svc = self.service
        live = await svc.live(game_id)
        seat = await svc.viewer(live, token)
        if not 0 <= index <= live.index:
            raise NotFound(f"game {game_id} has no index {index}: its indices are 0 to {live.index} "
                           f"(the number of actions played)")
        log, events = live.log[:index], live.events[:index]  # (an undo may come while the replay runs)
        if index == live.index:
            state = live.state
        else:
            state = await asyncio.to_thread(self._state_at, live.row, tuple(r.notation for r in log))
        past = replace(live, state=state, log=log, events=events,
                       row=replace(live.row, status="over" if state.is_over else "playing"))
        view = svc.view(past, seat)
        view.update(legal_actions=[], undoable=False, deadline=None)  # (a view never carries refusals unasked)
        return view

    def _state_at(self, row: GameRow, notations: tuple[str, ...]) -> Any:
        """The state after ``notations`` (runs in a thread), replayed from the nearest kept
        state before it whose prefix is the same (an undo changes the log's end)."""
        n = len(notations)
        with self._states_lock:
            base: tuple[int, Any] | None = None
            for (game_id, j), (prefix, state) in self._states.items():
                if game_id == row.id and j <= n and (base is None or j > base[0]) and prefix == notations[:j]:
                    base = (j, state)
            if base is not None and base[0] == n:
                self._states.move_to_end((row.id, n))
                return base[1]
        game = get_game(row.game)
        if base is None:
            start, state = 0, game.new_game(dict(row.config), row.seed)
        else:
            start, state = base[0], base[1].clone()  # a kept state is never changed
        for notation in notations[start:]:
            game.apply(state, Action.parse(notation))
        with self._states_lock:
            self._states.keep((row.id, n), (notations, state))
        return state

    # -- a suggested move ------------------------------------------------------------------

    async def suggest(self, game_id: str, token: str | None) -> models.Suggestion:
        svc = self.service
        live = await svc.live(game_id)
        seat = await svc.authenticate(live, token)
        if not live.row.suggestions:
            raise Forbidden("suggestions are off for this game: they are chosen when a game is created "
                            "(\"suggestions\": true)")
        state = live.state
        if state.is_over:
            raise Forbidden("the game is over: there is no decision to suggest a move for")
        if state.current_player != seat:
            raise Forbidden(svc.not_yours(live))
        if live.seat(seat).controller != PERSON:
            raise Forbidden(BOT_PLAYS_IT)
        actions = tuple(r.notation for r in live.log)
        key = (game_id, len(actions), seat)
        kept = self._suggestions.get(key)
        if kept is not None and kept[0] == actions:
            notation, chance = kept[1]
        else:
            job = SuggestJob(live.row.game, dict(live.row.config), live.row.seed, actions, seat)
            notation, chance = await svc.bots.run(suggest, job)
            self._suggestions.keep(key, (actions, (notation, chance)))
        live = await svc.live(game_id)
        if tuple(r.notation for r in live.log) != actions:
            raise Stale("the game moved on while the move was being thought of; ask again", index=live.index)
        found = [a for a in svc.view(live, seat)["legal_actions"] if a["notation"] == notation]
        if not found:
            raise Broken(f"the suggested move {notation!r} is not legal here (a bug)")
        return models.Suggestion(index=len(actions), notation=notation, label=found[0]["label"], win_chance=chance)

    # -- the win-chance chart --------------------------------------------------------------

    async def win_chances(self, game_id: str) -> models.WinChances:
        live = await self.service.live(game_id)
        if not live.state.is_over:
            raise NotOver("the win-chance chart is drawn once the game is over: before, it would judge "
                          "positions that no seat may see whole")
        kept = self._charts.get(game_id)
        if kept is not None:
            self._charts.move_to_end(game_id)
            return kept  # type: ignore[no-any-return]
        running = self._charting.get(game_id)
        if running is None:
            running = asyncio.ensure_future(self._chart(live))
            self._charting[game_id] = running
            running.add_done_callback(lambda _: self._charting.pop(game_id, None))
        return await asyncio.shield(running)

    async def _chart(self, live: Live) -> models.WinChances:
        row = live.row
        actions = tuple(r.notation for r in live.log)
        indices = sample_indices(len(actions))
        rows = await self.service.bots.run(chart, ChartJob(row.game, dict(row.config), row.seed, actions,
                                                            tuple(indices)))
        result = models.WinChances(
            id=row.id, game=row.game, seats=self.service.seat_infos(live), actions=len(actions),
            points=[models.WinChancePoint(index=i, chances=c) for i, c in zip(indices, rows, strict=True)])
        self._charts.keep(row.id, result)
        return result

    # -- play on from a position -------------------------------------------------------------

    async def play_on(self, game_id: str, req: models.PlayOn) -> models.GameCreated:
        svc = self.service
        live = await svc.live(game_id)
        if not live.state.is_over:
            raise NotOver("a game is played on from a position of a finished game only (its record, the seed "
                          "included, is public then)")
        n = live.index
        if req.index >= n:
            raise Invalid(f"index {req.index} is not a position before the end: this game has {n} actions, "
                          f"so the index is 0 to {n - 1}")
        players = live.row.players
        if req.seat >= players:
            raise Invalid(f"seat {req.seat} is not one of this game's seats (0 to {players - 1})")
        seats = [{"kind": "person", "name": req.name} if i == req.seat else {"kind": "bot", "level": req.level}
                 for i in range(players)]
        prefix = _copied_log(live.log[:req.index])
        new = models.CreateGame.model_validate({"game": live.row.game, "config": dict(live.row.config),
                                                "seed": live.row.seed, "seats": seats,
                                                "suggestions": req.suggestions})
        return await svc.create(new, prefix, taken=True)  # (its one person is the asker: the seat is theirs)

    def info(self, live: Live) -> models.AnalysisInfo:
        return models.AnalysisInfo(id=live.row.id, suggestions=live.row.suggestions, copied=copied(live))


def _copied_log(rows: Sequence[ActionRow]) -> list[ActionRow]:
    return [ActionRow(i, r.seat, r.notation, REPLAY, False) for i, r in enumerate(rows)]
