"""The ASGI application: the JSON API, the live updates and the reference web page.

Build it with ``create_app``; ``crapette serve`` runs it with uvicorn. Every seat acts
with its own secret token (``Authorization: Bearer <token>``); every error is a JSON object
``{"error": {"code": ..., "message": ...}}`` with a 4xx status and the game unchanged.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Annotated, Any, Literal, TypeAlias

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import crapette
from crapette.bots import BOT_NAMES
from crapette.records import GameRecord, format_record
from crapette.rules import OPTIONS
from crapette.text import describe_move
from crapette.web.schema import GamePayload, Hint, MovesPayload
from crapette.web.session import Game, WebError, check_opponent, parse_rules
from crapette.web.store import GameStore, SQLiteStore

__all__ = ["GameManager", "create_app"]

_Strict = ConfigDict(extra="forbid", strict=True)

_Updates: TypeAlias = "asyncio.Queue[dict[str, Any]]"
"""A WebSocket follower's queue of seat payloads, one per new version of the game."""

_Follow: TypeAlias = "tuple[int, bool]"
"""What a WebSocket follower asked for: its seat, and whether payloads carry the picture."""

_BACKLOG = 64
"""A follower with this many payloads waiting gets only the newest."""


class MatchSpec(BaseModel):
    """The match format: a target score, a number of deals, or both (first reached ends)."""

    model_config = _Strict
    target: int | None = Field(default=None, ge=1, le=100_000)
    deals: int | None = Field(default=None, ge=1, le=100)


class CreateGame(BaseModel):
    """A new game."""

    model_config = _Strict
    rules: str = Field(default="classic", max_length=400, description="preset or rules string")
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**63 - 1,
        description="random if absent; refused for a game between two people unless the"
        " server allows chosen seeds",
    )
    opponent: str = Field(
        default="greedy", max_length=40, description="a bot (random, greedy, search:N) or human"
    )
    seat: Literal[0, 1] = Field(default=0, description="the creator's seat")
    match: MatchSpec | None = Field(
        default=None, description="override the rules' match format; absent: one deal"
    )
    undo: bool = Field(default=True, description="allow taking back moves against a bot")


class JoinGame(BaseModel):
    """Join a game as its second human."""

    model_config = _Strict
    invite: str = Field(max_length=200)


class PlayMove(BaseModel):
    """A move by notation (``"R-F"``, ``"draw"``) or by action code, chosen at ``version``."""

    model_config = _Strict
    move: str | None = Field(default=None, max_length=40)
    code: int | None = Field(default=None, ge=-(2**31), le=2**31)
    version: int = Field(ge=0, description="the game version the move was chosen at")


class StopDecision(BaseModel):
    """Call "Stop!" (``call: true``) or let the violation stand (``call: false``)."""

    model_config = _Strict
    call: bool
    version: int = Field(ge=0)


class Versioned(BaseModel):
    """A request that names the game version it was made at."""

    model_config = _Strict
    version: int | None = Field(default=None, ge=0)


class Created(BaseModel):
    """A created or joined seat: keep the token secret; send the invite to the other human."""

    game_id: str
    seat: int
    token: str
    invite: str | None = None
    url: str


class ErrorBody(BaseModel):
    """An error: a short machine-readable code and a sentence."""

    code: str
    message: str


class ErrorResponse(BaseModel):
    """Every 4xx answer: ``{"error": {"code": ..., "message": ...}}``."""

    error: ErrorBody


_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": text}
    for status, text in (
        (401, "no or wrong seat token"),
        (404, "no such game"),
        (409, "not now: not your turn, stale version, game over, ..."),
        (413, "request body too large"),
        (422, "malformed request, bad rules, bad or illegal move"),
    )
}


def _model(model: type[BaseModel]) -> dict[str, Any]:
    """Route options documenting the answer as ``model`` (the data is built as JSON)."""
    return {"response_model": model, "responses": _ERRORS}


_GAME = _model(GamePayload)


def _json(data: Any) -> JSONResponse:
    """Data already in JSON form, sent as is (no re-validation)."""
    return JSONResponse(data)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class BodyLimit:
    """ASGI middleware: refuse request bodies above ``limit`` bytes with a JSON 413.

    The body is read here (at most ``limit + 1`` bytes) before the application sees it, so
    a client that sends no ``Content-Length`` is bounded as well.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the declared length, then read and count the body."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(scope, receive, send)
                    return
        chunks: list[bytes] = []
        seen = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, receive, send)  # a disconnect: let the app see it
                return
            body = message.get("body", b"")
            seen += len(body)
            if seen > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            more = message.get("more_body", False)
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = _error(
            413, "body_too_large", f"request bodies are limited to {self.limit} bytes"
        )
        await response(scope, receive, send)


def _offer(queue: _Updates, payload: dict[str, Any]) -> None:
    """Queue a payload for a follower; one that fell ``_BACKLOG`` payloads behind (a slow
    reader, whose socket is not drained) loses the oldest, so a queue never grows past it
    (each payload is a whole seat's view: the newest is all a client needs)."""
    while queue.qsize() >= _BACKLOG:
        queue.get_nowait()
    queue.put_nowait(payload)


class GameManager:
    """The games of one server: a write-through cache over a store, a lock per game, the
    caps and the expiry, and the live-update subscribers.

    Args:
        store: where games are kept.
        max_open_games: the cap on unfinished games.
        finished_ttl: seconds a finished game is kept after its last change.
        idle_ttl: seconds an untouched game is kept.
    """

    def __init__(
        self,
        store: GameStore,
        *,
        max_open_games: int,
        finished_ttl: float,
        idle_ttl: float,
        allow_seeds: bool = False,
    ) -> None:
        self.store = store
        self.allow_seeds = allow_seeds
        self.max_open_games = max_open_games
        self.finished_ttl = finished_ttl
        self.idle_ttl = idle_ttl
        self._games: dict[str, Game] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[tuple[_Follow, _Updates, asyncio.AbstractEventLoop]]]
        self._subscribers = {}
        self._announced: dict[str, int] = {}
        self._last_sweep = 0.0

    def sweep(self, now: float | None = None) -> list[str]:
        """Expire finished and idle games now; returns their ids."""
        now = time.time() if now is None else now
        gone = self.store.expire(
            finished_before=now - self.finished_ttl, idle_before=now - self.idle_ttl
        )
        with self._lock:
            for key in gone:
                self._games.pop(key, None)
                self._locks.pop(key, None)
                self._announced.pop(key, None)
        self._last_sweep = now
        return gone

    def maybe_sweep(self) -> None:
        """Expire games if the last sweep is more than a minute old (called on requests)."""
        if time.time() - self._last_sweep > 60:
            self.sweep()

    def create(self, spec: CreateGame) -> tuple[Game, str, str | None]:
        """A new game, stored.

        Raises:
            WebError: bad rules or opponent; 503 when the cap on open games is reached.
        """
        rules = parse_rules(spec.rules)
        if spec.match is not None:
            try:
                rules = rules.replace(match_target=spec.match.target, match_deals=spec.match.deals)
            except crapette.CrapetteError as exc:
                raise WebError(422, "bad_rules", str(exc)) from None
        else:
            rules = rules.replace(match_target=None, match_deals=1)
        opponent = check_opponent(spec.opponent)
        self.maybe_sweep()
        if self.store.count_open() >= self.max_open_games:
            raise WebError(503, "too_many_games", "the server has too many open games: try later")
        if spec.seed is not None and opponent == "human" and not self.allow_seeds:
            raise WebError(
                422,
                "seed_not_allowed",
                "a game between two people is dealt from a seed the server draws (whoever"
                " chose the seed would know every hidden card); the server allows chosen"
                " seeds only when started with --allow-seeds",
            )
        seed = spec.seed if spec.seed is not None else secrets.randbits(63)
        game_id = secrets.token_urlsafe(12)
        game, token, invite = Game.create(
            game_id, rules, seed=seed, opponent=opponent, seat=spec.seat, undo=spec.undo
        )
        with self._lock:
            self._games[game_id] = game
            self._locks[game_id] = threading.Lock()
        self._save(game)
        return game, token, invite

    def _lock_of(self, game_id: str) -> threading.Lock:
        with self._lock:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
            return lock

    @contextmanager
    def game(self, game_id: str, *, write: bool = False) -> Iterator[Game]:
        """The game under its lock; saved and announced afterwards when ``write`` and
        changed. On an error the cached game is dropped, so the stored copy (unchanged)
        is what the next request sees.

        Raises:
            WebError: 404 ``no_such_game``.
        """
        if len(game_id) > 64:
            raise WebError(404, "no_such_game", "no game has this id")
        self.maybe_sweep()
        with self._lock_of(game_id):
            game = self._games.get(game_id)
            if game is None:
                data = self.store.load(game_id)
                if data is None:
                    raise WebError(404, "no_such_game", "no game has this id (or it expired)")
                game = Game.from_dict(data)
                with self._lock:
                    self._games[game_id] = game
            before = game.version
            if write:
                game.on_move = self.announce
            try:
                yield game
            except BaseException:
                if write and game.version != before:
                    with self._lock:
                        self._games.pop(game_id, None)
                        self._announced.pop(game_id, None)
                raise
            finally:
                game.on_move = None
            if write and game.version != before:
                self._save(game)
                self.announce(game)

    def _save(self, game: Game) -> None:
        self.store.save(game.id, game.to_dict(), finished=game.over, updated=game.updated)

    def subscribe(
        self, game_id: str, follow: _Follow, queue: _Updates, loop: asyncio.AbstractEventLoop
    ) -> None:
        """Send the payload of each new version of the game to ``queue`` (on ``loop``), as
        ``follow = (seat, svg)`` asks (``svg``: with the picture of the seat's view)."""
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add((follow, queue, loop))

    def unsubscribe(
        self, game_id: str, follow: _Follow, queue: _Updates, loop: asyncio.AbstractEventLoop
    ) -> None:
        """Stop sending to ``queue``."""
        with self._lock:
            subs = self._subscribers.get(game_id)
            if subs is not None:
                subs.discard((follow, queue, loop))
                if not subs:
                    del self._subscribers[game_id]

    def announce(self, game: Game) -> None:
        """Send every subscriber of the game its seat's payload of the game's version (once
        per version: each move, a bot's included, is announced as it is made, under the
        game's lock)."""
        with self._lock:
            if self._announced.get(game.id) == game.version:
                return
            self._announced[game.id] = game.version
            subs = list(self._subscribers.get(game.id, ()))
        payloads: dict[_Follow, dict[str, Any]] = {}
        for follow, queue, loop in subs:
            if follow not in payloads:
                payloads[follow] = game.payload(follow[0], svg=follow[1])
            loop.call_soon_threadsafe(_offer, queue, payloads[follow])


async def _receive_frame(websocket: WebSocket) -> str | bytes:
    """The next frame a WebSocket client sends, text or bytes.

    Raises:
        WebSocketDisconnect: the client left.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else message.get("bytes") or b""


def _bearer(authorization: str | None) -> str:
    if not authorization:
        raise WebError(401, "no_token", "send your seat token as 'Authorization: Bearer <token>'")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        raise WebError(401, "bad_token", "expected 'Authorization: Bearer <token>'")
    return token.strip()


Auth = Annotated[str | None, Header(description="Bearer <seat token>")]


def create_app(
    store: GameStore | None = None,
    *,
    database: str = "crapette-games.sqlite3",
    max_open_games: int = 1000,
    max_body: int = 16_384,
    finished_ttl: float = 3600.0,
    idle_ttl: float = 86_400.0,
    allow_seeds: bool = False,
) -> FastAPI:
    """The crapette game server as an ASGI application.

    Args:
        store: where games are kept; default an ``crapette.web.store.SQLiteStore`` on
            ``database``.
        database: the SQLite file of the default store.
        max_open_games: a new game is refused (503) while this many are unfinished.
        max_body: the largest request body in bytes (413 above).
        finished_ttl: seconds a finished game is kept after its last change.
        idle_ttl: seconds a game nobody touches is kept.
        allow_seeds: accept a chosen seed for a game between two people too (for tests
            and demonstrations: the person who chose it knows every hidden card); games
            against a bot always accept one.
    """
    games = GameManager(
        store if store is not None else SQLiteStore(database),
        max_open_games=max_open_games,
        finished_ttl=finished_ttl,
        idle_ttl=idle_ttl,
        allow_seeds=allow_seeds,
    )
    app = FastAPI(
        title="crapette",
        version=crapette.__version__,
        description="Russian Bank (Crapette) over JSON: create a game, act for your seat with"
        " its secret token, follow the other side over a WebSocket.",
    )
    app.state.games = games

    @app.exception_handler(WebError)
    async def web_error(_: Request, exc: WebError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = []
        for err in exc.errors():
            where = ".".join(str(x) for x in err.get("loc", ()))
            details.append({"field": where, "message": str(err.get("msg", ""))})
        text = "; ".join(f"{d['field']}: {d['message']}" for d in details) or "bad request"
        body = {"error": {"code": "invalid_request", "message": text, "details": details}}
        return JSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {400: "invalid_request", 404: "not_found", 405: "method_not_allowed"}
        code = codes.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def crash(_: Request, exc: Exception) -> JSONResponse:  # a bug: nothing of it shown
        return _error(500, "internal_error", "the server failed on this request")

    def run(fn: Callable[[], Any]) -> Awaitable[Any]:
        from starlette.concurrency import run_in_threadpool

        return run_in_threadpool(fn)

    def seat_payload(game_id: str, authorization: str | None, svg: bool = False) -> Any:
        token = _bearer(authorization)
        with games.game(game_id) as game:
            return game.payload(game.seat_of(token), svg=svg)

    def act(game_id: str, authorization: str | None, action: Callable[[Game, int], None]) -> Any:
        token = _bearer(authorization)
        with games.game(game_id, write=True) as game:
            seat = game.seat_of(token)
            action(game, seat)
            return game.payload(seat)

    async def act_versioned(
        game_id: str,
        authorization: str | None,
        body: Versioned | None,
        step: Callable[[Game, int, int | None], None],
    ) -> Any:
        """``act`` for the steps whose body only carries the optional version."""
        version = body.version if body is not None else None
        return _json(
            await run(lambda: act(game_id, authorization, lambda g, s: step(g, s, version)))
        )

    @app.get("/api/presets", tags=["rules"])
    def presets() -> dict[str, Any]:
        """The rules presets (name, canonical string and every option's value) and the bot
        names."""
        return {
            "presets": [
                {
                    "name": n,
                    "rules": str(r),
                    "match_target": r.match_target,
                    "match_deals": r.match_deals,
                    "callable_stop": r.callable_stop,
                    "options": {key: getattr(r, key) for key in OPTIONS},
                }
                for n, r in crapette.PRESETS.items()
            ],
            "bots": list(BOT_NAMES),
            "callable_stop": [n for n, r in crapette.PRESETS.items() if r.callable_stop],
        }

    @app.post(
        "/api/games", status_code=201, response_model=Created, responses=_ERRORS, tags=["games"]
    )
    async def create_game(spec: CreateGame) -> Created:
        """Create a game; the answer holds your seat's secret token (and an invite token
        for the second human)."""
        game, token, invite = await run(lambda: games.create(spec))
        return Created(
            game_id=game.id, seat=spec.seat, token=token, invite=invite, url=f"/?game={game.id}"
        )

    @app.post(
        "/api/games/{game_id}/join", response_model=Created, responses=_ERRORS, tags=["games"]
    )
    async def join(game_id: str, body: JoinGame) -> Created:
        """Take the free human seat with the invite token (once)."""

        def work() -> tuple[int, str]:
            with games.game(game_id, write=True) as game:
                return game.join(body.invite)

        seat, token = await run(work)
        return Created(game_id=game_id, seat=seat, token=token, url=f"/?game={game_id}")

    @app.get("/api/games/{game_id}", tags=["play"], **_GAME)
    async def get_game(game_id: str, authorization: Auth = None, svg: bool = Query(False)) -> Any:
        """Your seat's view, legal moves, the opponent's last moves, score and match.
        With ``svg=true`` also the table as an SVG picture."""
        return _json(await run(lambda: seat_payload(game_id, authorization, svg)))

    @app.get("/api/games/{game_id}/moves", tags=["play"], **_model(MovesPayload))
    async def get_moves(game_id: str, authorization: Auth = None) -> Any:
        """Your legal moves (empty unless you are to act), with the game version."""
        data = await run(lambda: seat_payload(game_id, authorization))
        return _json({"version": data["version"], "legal_moves": data["legal_moves"]})

    @app.post("/api/games/{game_id}/moves", tags=["play"], **_GAME)
    async def play(game_id: str, body: PlayMove, authorization: Auth = None) -> Any:
        """Play a move by notation or action code; the bots answer before this returns."""

        def action(game: Game, seat: int) -> None:
            game.play(seat, text=body.move, code=body.code, version=body.version)

        return _json(await run(lambda: act(game_id, authorization, action)))

    @app.post("/api/games/{game_id}/stop", tags=["play"], **_GAME)
    async def stop(game_id: str, body: StopDecision, authorization: Auth = None) -> Any:
        """Call "Stop!" on the opponent's violation, or let it stand."""

        def action(game: Game, seat: int) -> None:
            if game.state.stop is None or game.state.to_act != seat:
                raise WebError(409, "no_stop_decision", "there is no Stop! decision for you")
            text = "stop" if body.call else "pass"
            game.play(seat, text=text, code=None, version=body.version)

        return _json(await run(lambda: act(game_id, authorization, action)))

    @app.get("/api/games/{game_id}/hint", tags=["play"], **_model(Hint))
    async def hint(game_id: str, authorization: Auth = None) -> Any:
        """The greedy bot's suggestion for your position."""

        def work() -> dict[str, Any]:
            token = _bearer(authorization)
            with games.game(game_id) as game:
                seat = game.seat_of(token)
                move = game.hint(seat)
                state = game.state
                return {
                    "code": move.index,
                    "notation": crapette.format_move(move),
                    "description": describe_move(state, move),
                }

        return _json(await run(work))

    @app.post("/api/games/{game_id}/undo", tags=["play"], **_GAME)
    async def undo(game_id: str, body: Versioned | None = None, authorization: Auth = None) -> Any:
        """Take back your last move (against a bot, within your turn, not a draw)."""
        return await act_versioned(game_id, authorization, body, Game.take_back)

    @app.post("/api/games/{game_id}/resign", tags=["play"], **_GAME)
    async def resign(
        game_id: str, body: Versioned | None = None, authorization: Auth = None
    ) -> Any:
        """Resign the game (the body, with the version, may be left out)."""
        return await act_versioned(game_id, authorization, body, Game.resign)

    @app.post("/api/games/{game_id}/next-deal", tags=["play"], **_GAME)
    async def next_deal(
        game_id: str, body: Versioned | None = None, authorization: Auth = None
    ) -> Any:
        """Start the next deal of the match once the current one is over."""
        return await act_versioned(game_id, authorization, body, Game.next_deal)

    @app.get("/api/games/{game_id}/record", tags=["games"], response_model=None, responses=_ERRORS)
    async def record(
        game_id: str,
        authorization: Auth = None,
        deal: int | None = Query(None, ge=1, le=1000),
        format: Literal["text", "json"] = Query("text"),
    ) -> Response:
        """The record of a finished deal (default: the current one, once it is over), as
        the text form or the JSON document."""

        def work() -> str:
            token = _bearer(authorization)
            with games.game(game_id) as game:
                game.seat_of(token)
                number = deal if deal is not None else game.match.number + 1
                if number <= len(game.records):
                    doc = game.records[number - 1]
                    rec = crapette.from_json(doc)
                    assert isinstance(rec, GameRecord)
                elif number == len(game.records) + 1 and (game.deal_over or game.over):
                    rec = game.record()
                else:
                    raise WebError(
                        409, "deal_running", "a deal's record is given once the deal is over"
                    )
                return crapette.to_json(rec) if format == "json" else format_record(rec)

        text = await run(work)
        if format == "json":
            return Response(text, media_type="application/json")
        return PlainTextResponse(text)

    @app.websocket("/api/games/{game_id}/live")
    async def live(websocket: WebSocket, game_id: str) -> None:
        """Live updates: send ``{"token": ...}`` first; then each change of the game is a
        message with your seat's whole payload (as ``GET /api/games/{id}``)."""
        await websocket.accept()

        async def refuse(code: str, message: str) -> None:
            await websocket.send_json({"error": {"code": code, "message": message}})
            await websocket.close(code=1008)

        try:
            first = await asyncio.wait_for(_receive_frame(websocket), timeout=10)
            try:
                if not isinstance(first, str) or len(first) > max_body:
                    raise TypeError
                hello = json.loads(first)
                token, svg = hello["token"], hello.get("svg", False)
                if not isinstance(token, str) or not isinstance(svg, bool):
                    raise TypeError
            except (ValueError, KeyError, TypeError, AttributeError):
                await refuse("bad_request", 'send {"token": "...", "svg": false} first (text)')
                return
            try:
                payload = await run(lambda: seat_payload(game_id, f"Bearer {token}"))
            except WebError as exc:
                await refuse(exc.code, exc.message)
                return
            seat = payload["seat"]
            loop = asyncio.get_running_loop()
            queue: _Updates = asyncio.Queue()
            games.subscribe(game_id, (seat, svg), queue, loop)
            try:
                # (subscribed first, then read: a change in between is queued, not lost)
                sent = await run(lambda: seat_payload(game_id, f"Bearer {token}", svg))
                await websocket.send_json({"type": "update", "game": sent})
                receiver = asyncio.ensure_future(_receive_frame(websocket))
                try:
                    while True:
                        getter = asyncio.ensure_future(queue.get())
                        done, _ = await asyncio.wait(
                            {receiver, getter}, return_when=asyncio.FIRST_COMPLETED
                        )
                        if receiver in done:
                            getter.cancel()
                            receiver.result()  # raises WebSocketDisconnect when the client left
                            # anything else a client sends is ignored
                            receiver = asyncio.ensure_future(_receive_frame(websocket))
                            continue
                        data = getter.result()
                        if queue.qsize() >= _BACKLOG - 1:  # a slow client: skip to the newest
                            while not queue.empty():
                                data = queue.get_nowait()
                        if data["version"] > sent["version"]:
                            await websocket.send_json({"type": "update", "game": data})
                            sent = data
                finally:
                    receiver.cancel()
            finally:
                games.unsubscribe(game_id, (seat, svg), queue, loop)
        except (WebSocketDisconnect, asyncio.TimeoutError, WebError):
            return

    static = resources.files("crapette.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        return Response((static / "index.html").read_bytes(), media_type="text/html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)  # no icon: a browser's request is not an error

    @app.get("/rules", include_in_schema=False)
    def rules_page() -> RedirectResponse:
        return RedirectResponse("https://crapette.readthedocs.io/en/latest/rules/")

    app.add_middleware(BodyLimit, limit=max_body)
    return app
