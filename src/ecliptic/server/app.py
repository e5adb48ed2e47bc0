"""The HTTP and WebSocket API (FastAPI): :func:`create_app` builds it for one database.

The routes are thin: the game service (:mod:`ecliptic.server.games`) referees, the
dependencies below give each route the service and the caller's token, and the Pydantic
models (:mod:`ecliptic.server.models`) are the OpenAPI schema at ``/openapi.json``.

Security measures here: request bodies above :data:`MAX_BODY` bytes are refused (413)
before they are read whole; WebSocket messages above :data:`MAX_WS_MESSAGE` characters end
the connection, as does sending more than :data:`WS_RATE` messages a second (beyond a burst
of :data:`WS_BURST`); no CORS middleware (browsers keep other sites' pages out), and a
WebSocket from a page of another origin is refused. Tokens come in an ``Authorization:
Bearer`` header or a WebSocket's first message, never in a URL.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from contextlib import asynccontextmanager
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Header, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from ecliptic.server import analysis_api, auth, models, rules_api, web_api
from ecliptic.server import levels as server_levels
from ecliptic.server.bots import BotPool
from ecliptic.server.games import IDLE_SECONDS, WAKE_SECONDS, Forbidden, GameService, ServiceError, clip
from ecliptic.server.hub import Connection
from ecliptic.server.mail import Mailer, MailSettings
from ecliptic.server.notify import Notifier
from ecliptic.server.storage import Storage, is_postgresql

log = logging.getLogger("ecliptic.server")

MAX_BODY = 64 * 1024
MAX_WS_MESSAGE = 4096
WS_RATE = 10.0
WS_BURST = 30
WS_AUTH_SECONDS = 10.0
"""A WebSocket that has not authenticated by then is closed."""

API_DESCRIPTION = """\
Play **Tau Ceti: Planetary Crisis** and **Ceres** online: create a game with people, bots and open
seats, take a seat, read a seat's view (its legal actions included) and play, chat, undo, play
again. The lobby (`/`) and the game pages (`/play/{id}`, `/watch/{id}`) are clients of this API,
and the rulebooks are at `/rules`.

**A seat authenticates with its token** in the header `Authorization: Bearer <token>`, never in a
URL. `POST /api/games` answers with the admin token (the host's) and one join link per person seat:
a join link is an invitation, and `POST /api/games/{id}/seats/{seat}/take` with the link's token
as the bearer gives the seat its own fresh token. Without a token a request is a spectator's:
it sees what anyone may see.

**Live games** push over the WebSocket `/api/games/{id}/ws` (not listed below: OpenAPI describes
no WebSocket). Its first message authenticates: `{"token": "<seat token>"}` or
`{"spectator": true}`; the server then pushes each action, undo, seat change, chat message and
rematch.

The whole reference (the WebSocket's messages, join links, open tables, Play again, the turn
clock, bots) is `docs/server.md` in Ecliptic's source, the repository this server is built from:
it ships with the project, not with this page.
"""
"""The OpenAPI description (/docs): a reader there has the server, not the project's files, so
it says how to authenticate and where the WebSocket protocol is described."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse a request body longer than ``limit`` bytes with 413, whether it declares its
    length or streams it."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        received = 0
        started = False

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, watched)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"error": "too_large", "message": f"the request body is over {self.limit} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float = WS_RATE, burst: int = WS_BURST) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.last = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return "the request body is not valid JSON"
    if any(e.get("type") == "missing" and tuple(e.get("loc", ())) == ("body",) for e in errors):
        return "the request body is missing (a JSON object is expected)"
    if any(e.get("type") == "model_attributes_type" and tuple(e.get("loc", ())) == ("body",) for e in errors):
        return "the request body must be a JSON object (Content-Type: application/json)"
    parts = []
    for e in errors[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return clip("the request does not match the schema: " + "; ".join(parts))


HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}
"""The ``error`` of a refusal by the routing itself (a path or method the API does not have)."""


def _http_message(request: Request, exc: StarletteHTTPException) -> str:
    where = clip(request.url.path)
    if exc.status_code == 404:
        return f"there is nothing at {where} (the API's paths are listed at /docs)"
    if exc.status_code == 405:
        return f"{request.method} is not a method of {where}"
    return clip(str(exc.detail))


def get_service(request: Request) -> GameService:
    """The app's game service (a dependency of every route)."""
    return request.app.state.service  # type: ignore[no-any-return]


def get_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The caller's token, from ``Authorization: Bearer <token>`` (``None`` without one)."""
    return auth.bearer(authorization)


Service = Annotated[GameService, Depends(get_service)]
REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": models.Error, "description": what} for status, what in (
        (403, "no token, a wrong token, not this seat's decision; a join link used already (link_used), "
              "a link or token the host replaced (link_replaced), a seat moved to another device (seat_moved), "
              "a join link's token used before it was taken (link_not_taken)"), (404, "unknown game or seat"),
        (409, "a stale expected_index, the record before the end, email asked of a server that sends none "
              "or of a game that is over"),
        (413, "a request body over 64 KB"),
        (422, "illegal, or a request that does not match the schema"))}
"""Declared on every operation, so /openapi.json describes the refusals too (FastAPI's own 422 is replaced)."""
Token = Annotated[str | None, Depends(get_token)]


def default_notifier(database_url: str, resync: Callable[[], Awaitable[None]]) -> Notifier | None:
    """PostgreSQL LISTEN/NOTIFY when the database is PostgreSQL, so every ``ecliptic serve``
    process sharing it pushes each new action to its own clients; ``None`` (the in-process
    notifier) for SQLite, which one process serves."""
    if not is_postgresql(database_url):
        return None
    from ecliptic.server.pg_notify import PgNotifier

    return PgNotifier(database_url, on_reconnect=resync)


def create_app(database_url: str, *, notifier: Notifier | None = None, bot_workers: int = 1,
               zombie_level: str = "normal", base_url: str = "", max_body: int = MAX_BODY,
               idle_seconds: float = IDLE_SECONDS, wake_seconds: float = WAKE_SECONDS,
               resume_when_listening: bool = False, mail: MailSettings | None = None,
               levels: Mapping[str, str] | None = None) -> FastAPI:
    """The server for the database at ``database_url`` (``sqlite:///file`` or
    ``postgresql://...``); migrations run at start-up. ``base_url`` prefixes the join links
    (none by default: they are relative, ``/play/{id}#seat=0&token=...``, and a browser reads them
    against the address it reached the server at). ``idle_seconds``: a game unused that
    long leaves memory; ``wake_seconds``: how often the games due (bots, clocks) are looked for.
    ``mail``: the SMTP server, sender and public address of the "your turn" emails (none: no email).
    ``levels``: the host's own bot levels beside the built-in ones, name to bot text
    (:func:`ecliptic.server.levels.parse`; the requests may name only the levels offered)."""
    server_levels.offer(levels)
    storage = Storage(database_url)
    service = GameService(storage, notifier=notifier or default_notifier(database_url, lambda: service.resync()),
                          bots=BotPool(bot_workers), zombie_level=zombie_level, base_url=base_url,
                          idle_seconds=idle_seconds, wake_seconds=wake_seconds,
                          resume_when_listening=resume_when_listening,
                          mailer=Mailer(mail) if mail is not None else None)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.close()

    # The interactive API docs (/docs) load Swagger UI from this server, never from a CDN: a server
    # on a LAN or offline shows them too (FastAPI's own page fetches it from cdn.jsdelivr.net). No
    # ReDoc page: its bundle still fetches an image from a CDN.
    app = FastAPIOffline(title="Ecliptic game server", version="1", lifespan=lifespan, responses=REFUSALS,
                         redoc_url=None, description=API_DESCRIPTION)
    app.state.service = service
    app.add_middleware(BodyLimit, limit=max_body)

    @app.exception_handler(ServiceError)
    async def refused(_: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        detail = [{"loc": [clip(p) if isinstance(p, str) else p for p in e.get("loc", ())],
                   "msg": clip(str(e.get("msg", ""))), "type": str(e.get("type", ""))}
                  for e in exc.errors()[:20]]
        return JSONResponse({"error": "invalid_request", "message": _validation_message(exc), "detail": detail},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def not_routed(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """An unknown path (or a static file that is not there), a method a path does not
        have: the documented ``{error, message}``, not the framework's ``{"detail": ...}``."""
        return JSONResponse({"error": HTTP_CODES.get(exc.status_code, "http_error"),
                             "message": _http_message(request, exc)},
                            status_code=exc.status_code, headers=exc.headers)

    web_api.mount(app)  # the browser client: its pages, /static and the lobby's options

    @app.get("/api/health", response_model=models.Health)
    @app.head("/api/health", include_in_schema=False)  # what uptime monitors ask
    async def health() -> models.Health:
        return models.Health(database="sqlite" if storage.is_sqlite else "postgresql")

    @app.post("/api/games", response_model=models.GameCreated, status_code=201)
    async def create_game(body: models.CreateGame, svc: Service) -> models.GameCreated:
        return await svc.create(body)

    @app.get("/api/games", response_model=list[models.GameSummary])
    async def list_games(svc: Service, open_only: bool = Query(False, alias="open", description=(
            "only the games in play with a seat anyone may sit down at (the lobby's open tables)"))
            ) -> list[models.GameSummary]:
        """The newest games, public facts only; with ``?open=true`` the open tables: the games
        in play with a seat the host opened to anyone and nobody has joined yet."""
        return await svc.list_games(open_only=open_only)

    @app.get("/api/games/{game_id}", response_model=models.GameView)
    async def get_game(game_id: str, svc: Service, token: Token, refused: Annotated[bool, Query(description=(
            "also the refused candidates of the seat's decision, with the rule and the reason "
            "(not pushed over the WebSocket: ask when the player looks at why not)"))] = False) -> dict[str, Any]:
        live = await svc.live(game_id)
        seat = await svc.viewer(live, token)
        view = svc.view(live, seat, with_refused=refused)
        if seat is not None and token is not None and live.row.rematch_id is not None:
            view["rematch"] = (await svc.rematch_for(live, seat, token)).model_dump()  # its own new token
        return view

    @app.post("/api/games/{game_id}/actions", response_model=models.ActionDone)
    async def post_action(game_id: str, body: models.ActionRequest, svc: Service, token: Token) -> models.ActionDone:
        live = await svc.live(game_id)
        seat = await svc.authenticate(live, token)
        index, events = await svc.submit(game_id, seat, body.action, body.expected_index, token=token)
        return models.ActionDone(index=index, events=[models.EventOut(**e) for e in events])

    @app.post("/api/games/{game_id}/undo", response_model=models.UndoDone)
    async def undo(game_id: str, body: models.UndoRequest, svc: Service, token: Token) -> models.UndoDone:
        live = await svc.live(game_id)
        seat = await svc.authenticate(live, token)
        return models.UndoDone(index=await svc.undo(game_id, seat, body.expected_index, token=token))

    @app.post("/api/games/{game_id}/seats/{seat}/bot", response_model=models.SeatInfo)
    async def hand_over(game_id: str, seat: int, body: models.SeatHandover, svc: Service,
                        token: Token) -> models.SeatInfo:
        await svc.handover(game_id, seat, token, body.bot, body.level)
        return svc.seat_infos(await svc.live(game_id))[seat]

    @app.post("/api/games/{game_id}/seats/{seat}/take", response_model=models.SeatTaken)
    async def take_seat(game_id: str, seat: int, svc: Service, token: Token) -> models.SeatTaken:
        """Take the seat with its join link's token (Authorization: Bearer): the answer holds the
        seat's own token from now on, and the link is spent (a second take is refused 403
        ``link_used``). A join link is an invitation: its token plays nothing until it is taken, so
        whoever was told the links (the host) holds no seat, and a forwarded link seats one person."""
        return await svc.take(game_id, seat, token)

    @app.post("/api/games/{game_id}/seats/{seat}/sit", response_model=models.SeatTaken)
    async def sit_down(game_id: str, seat: int, body: models.SitRequest, svc: Service) -> models.SeatTaken:
        """Sit down at an open seat (the host opened it to anyone: ``GET /api/games?open=true``)
        under a name of your own; no token is needed. The answer holds the seat's token from now
        on. Whoever comes first is seated; a later one is refused 409 ``seat_taken``, a seat that
        is not open 403 ``not_open``."""
        return await svc.sit(game_id, seat, body.name)

    @app.put("/api/games/{game_id}/seats/{seat}/open", response_model=models.SeatInfo)
    async def open_seat(game_id: str, seat: int, body: models.OpenRequest, svc: Service,
                        token: Token) -> models.SeatInfo:
        """The host (admin token) opens a seat nobody has joined to anyone, or closes it again
        (its join link keeps working either way)."""
        return await svc.set_open(game_id, seat, token, body.open)

    @app.post("/api/games/{game_id}/seats/{seat}/link", response_model=models.SeatLink)
    async def replace_link(game_id: str, seat: int, svc: Service, token: Token) -> models.SeatLink:
        """The host (admin token) gives the seat a new join link, for someone else: the seat's old
        link and token are refused from now on (403 ``link_replaced``), its open WebSockets are
        closed with 4403, and its email address is forgotten."""
        return await svc.replace_link(game_id, seat, token)

    @app.post("/api/games/{game_id}/seats/{seat}/device-link", response_model=models.SeatLink)
    async def device_link(game_id: str, seat: int, svc: Service, token: Token) -> models.SeatLink:
        """Play on another device: the seat's own token makes a one-use link for the seat; taken
        (``/take``), it moves the seat there, and this token is refused (403 ``seat_moved``)."""
        return await svc.device_link(game_id, seat, token)

    @app.get("/api/games/{game_id}/seats/{seat}/mail", response_model=models.MailSetting)
    async def get_mail(game_id: str, seat: int, svc: Service, token: Token) -> models.MailSetting:
        """The seat's own email setting (its token only): whether the server sends email, and its address."""
        return await svc.mail_setting(game_id, seat, token)

    @app.put("/api/games/{game_id}/seats/{seat}/mail", response_model=models.MailSetting)
    async def put_mail(game_id: str, seat: int, body: models.MailRequest, svc: Service,
                       token: Token) -> models.MailSetting:
        """Email me when it is my turn (and when the game ends), at this address; the seat's token only."""
        return await svc.set_mail(game_id, seat, token, body.address)

    @app.delete("/api/games/{game_id}/seats/{seat}/mail", response_model=models.MailSetting)
    async def delete_mail(game_id: str, seat: int, svc: Service, token: Token) -> models.MailSetting:
        """Stop emailing this seat: its address is forgotten."""
        return await svc.set_mail(game_id, seat, token, None)

    @app.get("/mail/unsubscribe/{token}", response_class=HTMLResponse, include_in_schema=False)
    async def unsubscribe_page(token: str, svc: Service) -> HTMLResponse:
        """An email's unsubscribe link, opened: a page with the button (a GET changes nothing,
        so a mail scanner following every link unsubscribes nobody)."""
        known = await svc.unsubscribe(token, confirm=False)
        if known is None:
            return _unsubscribe_html(404, UNKNOWN_LINK)
        if known:
            return _unsubscribe_html(200, ALREADY_STOPPED)
        return _unsubscribe_html(200, "<p>Press the button to get no more email from this server, for any "
                                      "game, whoever gives this address.</p>"
                                      f'<form method="post" action="/mail/unsubscribe/{html.escape(token)}">'
                                      '<button type="submit">Stop all emails to me</button></form>')

    @app.post("/mail/unsubscribe/{token}", response_class=HTMLResponse, include_in_schema=False)
    async def unsubscribe(token: str, svc: Service) -> HTMLResponse:
        """The page's button, or a mail client's one-click unsubscribe (RFC 8058: a POST of
        ``List-Unsubscribe=One-Click``, whatever its body): stops every email to the address."""
        was = await svc.unsubscribe(token, confirm=True)
        if was is None:
            return _unsubscribe_html(404, UNKNOWN_LINK)
        return _unsubscribe_html(200, ALREADY_STOPPED if was else STOPPED)

    @app.get("/api/games/{game_id}/chat", response_model=list[models.ChatMessage])
    async def get_chat(game_id: str, svc: Service) -> list[models.ChatMessage]:
        return await svc.chat(game_id)

    @app.post("/api/games/{game_id}/chat", response_model=models.ChatMessage, status_code=201)
    async def post_chat(game_id: str, body: models.ChatRequest, svc: Service, token: Token) -> models.ChatMessage:
        return await svc.post_chat(game_id, token, body.text)

    @app.post("/api/games/{game_id}/rematch", response_model=models.RematchMade, status_code=201,
              responses={200: {"model": models.RematchMade, "description": "the rematch made before, the same one"}})
    async def rematch(game_id: str, svc: Service, token: Token, response: Response) -> models.RematchMade:
        """Play again: the finished game's rematch (made by the first request, 201; found by
        every later one, 200), with the asker's own new token."""
        made, answer = await svc.rematch(game_id, token)
        if not made:
            response.status_code = 200
        return answer

    @app.get("/api/games/{game_id}/record", response_model=models.GameRecordOut)
    async def record(game_id: str, svc: Service) -> models.GameRecordOut:
        return await svc.record(game_id)

    @app.websocket("/api/games/{game_id}/ws")
    async def watch(ws: WebSocket, game_id: str) -> None:
        await _watch(service, ws, game_id)

    app.include_router(rules_api.router)
    app.include_router(analysis_api.router)
    return app


UNKNOWN_LINK = ("<p>This unsubscribe link is not known here: it is mistyped, or older than half a year. "
                "To stop a game's emails, open the game and press \u201cStop emailing me\u201d.</p>")
STOPPED = "<p>Done: this server sends no more email to this address, for any game.</p>"
ALREADY_STOPPED = "<p>This address gets no email from this server already: nothing more to do.</p>"


def _unsubscribe_html(status: int, body: str) -> HTMLResponse:
    """The unsubscribe page: no address on it (whoever has the link may open it), no script, and
    no ``Referer`` carrying the link's token to anywhere else."""
    page = ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>Ecliptic: emails</title><link rel="stylesheet" href="/static/app.css"></head>'
            f'<body><main class="unsubscribe"><h1>Emails from this server</h1>{body}</main></body></html>')
    return HTMLResponse(page, status_code=status,
                        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


def _same_origin(ws: WebSocket) -> bool:
    """A browser names the page's origin; it must be this server's (cross-site WebSocket
    hijacking). Clients that are not browsers send none."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    host = ws.headers.get("host", "")
    if urlsplit(origin).netloc == host:
        return True
    # Said to the host: behind a proxy that drops the port from Host (nginx's $host), every
    # player's WebSocket is refused, and the bare 403 in the access log does not say why.
    log.warning("refused a WebSocket from a page of %s: this server was reached as %r (a reverse proxy "
                "must pass the Host header with its port, nginx: proxy_set_header Host $http_host)",
                clip(origin), clip(host))
    return False


class _Closed(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


async def _read(ws: WebSocket) -> dict[str, Any]:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > MAX_WS_MESSAGE:
            raise _Closed(1009, f"a message is at most {MAX_WS_MESSAGE} bytes")
        text = data.decode("utf-8", "replace")
    if len(text) > MAX_WS_MESSAGE:
        raise _Closed(1009, f"a message is at most {MAX_WS_MESSAGE} characters")
    try:
        parsed = json.loads(text)
    except ValueError:
        raise _Closed(1007, "a message must be a JSON object") from None
    if not isinstance(parsed, dict):
        raise _Closed(1007, "a message must be a JSON object")
    return parsed


def _since(message: dict[str, Any]) -> int | None:
    since = message.get("since")
    return since if isinstance(since, int) and not isinstance(since, bool) else None


_HISTORY = re.compile(r"[0-9a-f]{1,64}")


def _history(message: dict[str, Any]) -> str | None:
    """The fingerprint of the viewer's log at ``since`` (``GameService.history``), if it sent one."""
    history = message.get("history")
    return history if isinstance(history, str) and _HISTORY.fullmatch(history) else None


async def _watch(service: GameService, ws: WebSocket, game_id: str) -> None:
    """The WebSocket protocol (docs/server.md): the first message is ``{"token": ...}`` or
    ``{"spectator": true}``, optionally with ``"since": index``; then the server pushes."""
    if not _same_origin(ws):
        await ws.close(code=1008)
        return
    await ws.accept()
    conn: Connection | None = None
    try:
        first = await asyncio.wait_for(_read(ws), WS_AUTH_SECONDS)
        try:
            live = await service.live(game_id)
        except ServiceError as exc:
            raise _Closed(4404 if exc.status == 404 else 1011, exc.message) from None
        token = first.get("token")
        if isinstance(token, str):
            try:
                seat: int | None = await service.authenticate(live, token)
            except Forbidden as exc:  # (a spent token is told why: a link used, replaced, a seat moved)
                raise _Closed(4403, exc.message if exc.code != Forbidden.code else
                              "this is none of this game's seat tokens") from None
        elif first.get("spectator") is True:
            seat = None
        else:
            raise _Closed(4401, 'the first message must be {"token": "..."} or {"spectator": true}')
        conn = Connection(ws, game_id, seat, patches=first.get("patches") is True,
                          token=token if seat is not None and isinstance(token, str) else None)
        await service.attach(conn, _since(first), _history(first))
        conn.start()
        bucket = RateLimit()
        while not conn.closed.is_set():
            message = await _read(ws)
            if not bucket.take():
                raise _Closed(1008, "too many messages")
            if message.get("type") == "ping":
                conn.put({"type": "pong"})
            elif "since" in message:
                await service.resend(conn, _since(message), _history(message))
            else:
                conn.put({"type": "error", "message": "unknown message; send {\"type\": \"ping\"} or {\"since\": n}"})
    except (WebSocketDisconnect, asyncio.CancelledError):
        pass
    except TimeoutError:
        await _close(ws, conn, 4401, "authenticate within 10 seconds")
    except _Closed as exc:
        await _close(ws, conn, exc.code, exc.reason)
    finally:
        if conn is not None:
            service.hub.remove(conn)


async def _close(ws: WebSocket, conn: Connection | None, code: int, reason: str) -> None:
    if conn is not None:
        conn.close(code, reason)
        if conn.writer is not None:
            await asyncio.wait([conn.writer], timeout=2)
        return
    try:
        await ws.send_json({"type": "error", "message": reason})
        await ws.close(code=code, reason=reason)
    except Exception:  # already gone
        pass
