"""The history and analysis routes (docs/server.md, "History and analysis"): the board at an
earlier index, a suggested move, the win-chance chart of a finished game, and playing on from
a position of a finished game. The work is :mod:`ecliptic.server.analysis`'s."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request

from ecliptic.server import auth, models
from ecliptic.server.analysis import Analysis

router = APIRouter(tags=["history and analysis"])


def get_analysis(request: Request) -> Analysis:
    """The app's analysis helpers, made on first use over the app's game service (their caches
    live as long as the app)."""
    state = request.app.state
    found: Analysis | None = getattr(state, "analysis", None)
    if found is None:
        found = state.analysis = Analysis(state.service)
    return found


def get_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    return auth.bearer(authorization)


Helpers = Annotated[Analysis, Depends(get_analysis)]
Token = Annotated[str | None, Depends(get_token)]


@router.get("/api/games/{game_id}/views/{index}", response_model=models.GameView)
async def view_at(game_id: str, index: int, analysis: Helpers, token: Token) -> dict[str, Any]:
    """The view at ``index`` (0: before the first action) as the token's seat saw it then, or
    the spectator's without a token; no legal actions."""
    return await analysis.view_at(game_id, index, token)


@router.post("/api/games/{game_id}/suggest", response_model=models.Suggestion)
async def suggest(game_id: str, analysis: Helpers, token: Token) -> models.Suggestion:
    """The ``normal`` bot's move for the seat to decide and its win chance (a game created with
    ``suggestions`` only)."""
    return await analysis.suggest(game_id, token)


@router.get("/api/games/{game_id}/win-chances", response_model=models.WinChances)
async def win_chances(game_id: str, analysis: Helpers) -> models.WinChances:
    """Each seat's chance of winning over a finished game, at most 100 indices."""
    return await analysis.win_chances(game_id)


@router.post("/api/games/{game_id}/play-on", response_model=models.GameCreated, status_code=201)
async def play_on(game_id: str, body: models.PlayOn, analysis: Helpers) -> models.GameCreated:
    """A new game starting at a position of a finished one: the asker at ``seat``, bots at the others."""
    return await analysis.play_on(game_id, body)


@router.get("/api/games/{game_id}/analysis", response_model=models.AnalysisInfo)
async def info(game_id: str, analysis: Helpers) -> models.AnalysisInfo:
    """Whether the game allows suggestions, and how many of its actions were copied from the
    game it plays on from."""
    return analysis.info(await analysis.service.live(game_id))
