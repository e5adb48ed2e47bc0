"""The typed request and response bodies of the HTTP API (they are its OpenAPI schema)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, field_validator, model_validator

from ecliptic.engine.record import GAME_SEEDS
from ecliptic.server.levels import BUILT_IN, Level

BOT_LEVELS = tuple(BUILT_IN)
"""The levels every server offers: the levels a player picks from (``ecliptic.bots.LEVELS``) and
the random bot; a host adds its own (:mod:`ecliptic.server.levels`). A request names a level,
never a free bot text (``ismcts:60s`` would let one request occupy the bot pool)."""
MAX_SEED = GAME_SEEDS - 1  # the game seeds every front end accepts (engine.record)
MAX_CLOCK_SECONDS = 30 * 24 * 3600.0
MAX_CHAT = 500


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


MAX_NAME = 40


def _a_name(value: str) -> str:
    """A person's name as every viewer is shown it: trimmed, with no control or invisible
    character (a line break would forge a line of the log; a right-to-left mark reverses what
    follows it on every viewer's screen)."""
    value = value.strip()
    if any(unicodedata.category(ch)[0] == "C" for ch in value):
        raise ValueError("a name holds no control or invisible character")
    return value


class SeatSpec(Strict):
    kind: Literal["person", "bot"] = "person"
    name: str = Field("", max_length=MAX_NAME, description="a person's display name (a bot is named after its level)")
    level: Level = Field("normal", description="a bot seat's level, one this server offers (ignored for a person)")
    open: bool = Field(False, description=(
        "a person seat anyone may sit down at, from the lobby's open tables "
        "(`POST /api/games/{id}/seats/{seat}/sit`), as well as with its join link"))

    _name = field_validator("name")(_a_name)

    @model_validator(mode="after")
    def _open_is_a_person_seat(self) -> SeatSpec:
        if self.open and self.kind != "person":
            raise ValueError("only a person seat is open to anyone (a bot plays its own seat)")
        return self


class SitRequest(Strict):
    """Sitting down at an open seat (``POST /api/games/{id}/seats/{seat}/sit``)."""

    name: str = Field("", max_length=MAX_NAME, description="the name to play under (empty: the seat's own)")

    _name = field_validator("name")(_a_name)


class OpenRequest(Strict):
    """The host opens a seat to anyone, or closes it (``PUT /api/games/{id}/seats/{seat}/open``)."""

    open: bool = Field(description="true: anyone may sit down at the seat while nobody has; false: its link only")


class CreateGame(Strict):
    game: Literal["tauceti", "ceres"]
    config: dict[str, Any] = Field(default_factory=dict, description=(
        "the engine's config table: players, factions, game (short/full), layout, advanced, "
        "advanced_specialists, expansions, ... (players defaults to the number of seats)"))
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="random (from `secrets`) when absent")
    seats: list[SeatSpec] = Field(min_length=1, max_length=4)
    clock_seconds: float | None = Field(None, gt=0, le=MAX_CLOCK_SECONDS, description=(
        "the turn clock: seconds per decision, after which a bot plays the seat until its player is back"))
    suggestions: bool = Field(False, description=(
        "the players may ask for a suggested move and their win chance (POST /api/games/{id}/suggest)"))


class SeatCreated(BaseModel):
    seat: int
    name: str
    kind: str
    token: str | None = Field(None, description=(
        "the seat's join link's token (persons only): an invitation, taken once with "
        "POST /api/games/{id}/seats/{seat}/take for the seat's own token; it plays nothing itself "
        "(a game played on from a finished one's position, made for its asker alone: the seat's own token)"))
    join_link: str | None = Field(None, description=(
        "the link to give the seat's player (the seat and the link's token after '#'); opened, it takes the seat"))


class SeatTaken(BaseModel):
    """A seat taken with its join link: the taker's own token, which only they hold."""

    seat: int
    name: str
    token: str = Field(description="the seat's token from now on (the link's token is spent)")
    taken: bool = Field(description=(
        "true: the link was taken now; false: the token given is the seat's own token already (a join link "
        "from before links were invitations), which is given back unchanged"))


class SeatLink(BaseModel):
    """A seat's new join link (the host's, for a new person; or the seat's own, to move to another device)."""

    seat: int
    name: str
    token: str = Field(description="the new link's token: an invitation taken once")
    join_link: str


class GameCreated(BaseModel):
    id: str
    admin_token: str
    seats: list[SeatCreated]


class SeatInfo(BaseModel):
    seat: int
    name: str
    kind: str
    controller: str
    joined: bool = Field(True, description=(
        "a person has taken the seat with its join link (a bot seat always counts as joined): "
        "the host sees who has come"))
    open: bool = Field(False, description=(
        "anyone may sit down at the seat now (`POST /api/games/{id}/seats/{seat}/sit`): the host "
        "opened it and nobody has joined it yet"))


class Rematch(BaseModel):
    """The game that plays a finished one again with the same people ("Play again"). Anyone
    may know that it exists; a seat's new token goes to that seat only (docs/server.md)."""

    id: str = Field(description="the new game's id")
    seat: int | None = Field(default=None, description="the asker's seat in it (the same as in the finished game)")
    token: str | None = Field(default=None, description="that seat's token in the new game: given to its holder only")
    join_link: str | None = Field(default=None, description="that seat's join link in the new game")
    admin_token: str | None = Field(default=None, description="the new game's admin token: to the admin only")


class RematchMade(Rematch):
    """The answer to "Play again" (``POST .../rematch``): the rematch, and for the admin the
    links to hand out."""

    links: list[SeatLink] = Field(default_factory=list, description=(
        "to the admin only: the join links of the seats whose person never took their seat of the "
        "finished game, to hand out (a seat's person who did gets its own new token)"))


class GameSummary(BaseModel):
    id: str
    game: str
    players: int
    status: str
    index: int | None = Field(None, description="actions played (when the game is loaded in this process)")
    created_at: float
    clock_seconds: float | None
    seats: list[SeatInfo]
    rematch: str | None = Field(None, description="the id of the game that plays this one again, once made")


class EventOut(BaseModel):
    kind: str
    text: str
    data: dict[str, Any]
    private: bool = Field(False, description="seen by some seats only")


class LabelledAction(BaseModel):
    """A legal action as a person is shown it (docs/present.md): from the presentation module,
    the same texts the terminal menu prints."""

    id: int
    notation: str
    label: str = Field(description="the notation and what its ids stand for, as the terminal prints it")
    text: str = Field(description=(
        "the action in the rulebook's words, short enough for a button ('Take an Interplanetary Mission', "
        "'Buy 1 Xunari algae'); the notation when no phrase says it"))
    group: str = Field("", description="the kind of action, for grouping (Move, Explore, Trade, ... / Launch, ...)")
    cost: str = Field("", description="what it spends, as the engine performs it ('' when nothing)")
    effect: str = Field("", description="what it does, as the engine performs it; says when the outcome is random")
    targets: list[str] = Field(default_factory=list, description=(
        "target keys of the board things it is about: <kind>:<id>, e.g. sector:05, point:01.2, cell:-3,1, "
        "system:<seat>:<system>, card:S11, crisis:X09, commodity:algae, knowledge:Cosmic, gp:G04, "
        "market:Industry, player:<seat>, asteroid:A07, comet:C1, tail:2"))
    select: Literal["one", "set"] = Field("one", description=(
        "set: the action is the exact set of its targets (toggle them), e.g. SHIELD"))
    help: str = Field("", description="tooltip text, with the rule id")


class RefusedAction(BaseModel):
    """A candidate action of the current decision that is not legal now, and why."""

    notation: str
    label: str
    text: str = Field(description="the action in the rulebook's words, as a legal action's text")
    group: str
    targets: list[str]
    rule: str = Field(description="the rule id that refuses it")
    reason: str


class NameText(BaseModel):
    name: str
    text: str


class SeatScore(BaseModel):
    seat: int
    total: int
    by_source: dict[str, int]


class Price(BaseModel):
    buy: int
    sell: int


class Present(BaseModel):
    """What the view says beside the observation (docs/present.md)."""

    names: dict[str, NameText] = Field(description="every card, token, tile, character id the view mentions")
    groups: list[str] = Field(default_factory=list, description=(
        "the action groups in the order a menu lists them (the terminal's order; Pass last but Other)"))
    score: list[SeatScore] = Field(description="the running score of the GP (VP) counted so far, on public facts")
    prices: dict[str, Price] | None = Field(description="Tau Ceti: per unit at the viewing seat's planet")
    decision: str = Field(description="what is being decided and by whom")
    banner: str | None = Field(None, description="Ceres: the host game is a reconstruction")


class GameView(BaseModel):
    id: str
    game: str
    status: str
    index: int
    seat: int | None = Field(description="whose view this is (null: a spectator)")
    current_seat: int | None
    seats: list[SeatInfo]
    view: dict[str, Any] = Field(description="observe(state, seat)")
    legal_actions: list[LabelledAction] = Field(description="only for the seat whose decision it is")
    undoable: bool = Field(False, description="this seat may take back the last action now")
    deadline: float | None = Field(None, description="when the turn clock runs out (Unix time)")
    present: Present
    refused: list[RefusedAction] = Field(default_factory=list, description=(
        "only for the seat whose decision it is: candidates that are not legal now, with the rule (at most 300)"))
    rematch: Rematch | None = Field(None, description=(
        "the game that plays this finished one again; its token and link only in GET /api/games/{id} with this "
        "seat's token"))


class ActionRequest(Strict):
    # Strict types: JSON ``true`` or ``1.0`` is no action id and no index.
    action: StrictStr | StrictInt = Field(description="the notation ('GO 05') or the id in the game's action space")
    expected_index: StrictInt = Field(ge=0, description="the index the client last saw (optimistic concurrency)")


class ActionDone(BaseModel):
    index: int
    events: list[EventOut]


class UndoRequest(Strict):
    expected_index: StrictInt = Field(ge=0)


class UndoDone(BaseModel):
    index: int


class SeatHandover(Strict):
    bot: bool = Field(description="true: a bot plays the seat; false: its person takes it back")
    level: Level | None = None


class ChatRequest(Strict):
    text: str = Field(min_length=1, max_length=MAX_CHAT)


MAX_ADDRESS = 254
"""The longest email address (RFC 5321's limit on a path)."""
_ADDRESS = re.compile(r"[^@\s<>(),;:\"\[\]\\]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}")


class MailRequest(Strict):
    """A seat asks to be emailed when it is its turn (``PUT /api/games/{id}/seats/{seat}/mail``)."""

    address: str = Field(max_length=MAX_ADDRESS, description="where to send the email, e.g. ann@example.org")

    @field_validator("address")
    @classmethod
    def _an_address(cls, value: str) -> str:
        """One plain address, ``name@domain.tld``: no display name, no list, no space or line
        break (which would let a request write a header of the email), and no control or
        invisible character (a NUL goes into the SMTP command as it is; a right-to-left mark
        shows the page another address than the one emails go to)."""
        value = value.strip()
        if not _ADDRESS.fullmatch(value) or any(unicodedata.category(ch)[0] == "C" for ch in value):
            raise ValueError("not an email address (one address like ann@example.org is expected)")
        return value


class MailSetting(BaseModel):
    """A seat's own email setting, told to that seat only (its token is asked for)."""

    offered: bool = Field(description="whether this server sends email at all (its host configured SMTP)")
    seat: int
    address: str | None = Field(None, description="the address the seat gave, or null")
    over: bool = Field(False, description="the game is over: no address is taken (the page offers none), "
                                          "and the addresses given are deleted once the end's email is claimed")


class ChatMessage(BaseModel):
    id: int
    seat: int | None
    name: str
    text: str
    created_at: float


class GameRecordOut(BaseModel):
    game: str
    config: dict[str, Any]
    seed: int
    actions: list[str]
    digest: str


class Suggestion(BaseModel):
    index: int = Field(description="the index of the decision the move is suggested for")
    notation: str
    label: str
    win_chance: float = Field(ge=0, le=1, description=(
        "the seat's chance of winning as the evaluator judges the position, from copies of the game in which "
        "everything the seat cannot see is re-dealt"))


class WinChancePoint(BaseModel):
    index: int
    chances: list[float] = Field(description="each seat's chance of winning at this index (the result at the end)")


class WinChances(BaseModel):
    id: str
    game: str
    seats: list[SeatInfo]
    actions: int = Field(description="the number of actions of the game")
    points: list[WinChancePoint] = Field(description="at most 100 indices, evenly spread, the first and last included")


class PlayOn(Strict):
    index: StrictInt = Field(ge=0, description="the number of the finished game's actions the new game starts with")
    seat: StrictInt = Field(0, ge=0, description="the asker's seat; bots play the others")
    level: Level = Field("normal", description="the bots' level, one this server offers")
    name: str = Field("", max_length=40)
    suggestions: bool = False


class AnalysisInfo(BaseModel):
    id: str
    suggestions: bool = Field(description="the game allows POST /suggest")
    copied: int = Field(description="the actions copied from the finished game this one plays on from (0: none)")


class Error(BaseModel):
    """Every refusal's body (docs/server.md's refusal table)."""

    model_config = ConfigDict(extra="allow")
    error: str = Field(description="forbidden, link_used, link_replaced, seat_moved, link_not_taken, not_found, "
                                   "stale_index, game_not_over, too_large, illegal, invalid_request or invalid")
    message: str
    index: int | None = Field(None, description="stale_index: the game's index now")
    rule: str | None = Field(None, description="illegal: the rule id")
    detail: list[dict[str, Any]] | None = Field(None, description="invalid_request: the fields at fault")


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    database: str
