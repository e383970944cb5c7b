"""The routes of the server, one router per part: the rules and game creation, playing,
the live updates over a WebSocket, and the reference page. Each route is a thin call into
``GameManager`` and ``Game`` (run in a worker thread: the rules engine is synchronous)."""

from __future__ import annotations

import asyncio
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

import crapette
from crapette.bots import BOT_NAMES
from crapette.errors import SessionError
from crapette.records import format_record
from crapette.rules import OPTIONS
from crapette.session import DealReview, puzzle_answer, puzzle_list, puzzle_position
from crapette.text import describe_move
from crapette.web._error import WebError
from crapette.web._manager import BACKLOG, GameManager, Updates
from crapette.web._models import (
    ERRORS,
    Created,
    CreateGame,
    JoinGame,
    PlayMove,
    PuzzleAnswer,
    StopDecision,
    Versioned,
)
from crapette.web.schema import (
    GamePayload,
    Hint,
    MovesPayload,
    PuzzleList,
    PuzzlePosition,
    PuzzleVerdict,
    ReviewPayload,
)
from crapette.web.session import Game

__all__ = ["analysis_routes", "game_routes", "live_routes", "page_routes", "play_routes"]

Auth = Annotated[str | None, Header(description="Bearer <seat token>")]

MAX_FOLLOWERS = 16
"""The most WebSocket followers one game has at once (one more is refused)."""


def _model(model: type) -> dict[str, Any]:
    """Route options documenting the answer as ``model`` (the data is built as JSON)."""
    return {"response_model": model, "responses": ERRORS}


_GAME = _model(GamePayload)


def _json(data: Any) -> JSONResponse:
    """Data already in JSON form, sent as is (no re-validation)."""
    return JSONResponse(data)


def _run(fn: Callable[[], Any]) -> Awaitable[Any]:
    return run_in_threadpool(fn)


def _rounded(x: float, digits: int) -> float | None:
    """``x`` rounded, or ``None`` when it is not a finite number (JSON has no NaN)."""
    return round(x, digits) if math.isfinite(x) else None


def _bearer(authorization: str | None) -> str:
    if not authorization:
        raise WebError(401, "no_token", "send your seat token as 'Authorization: Bearer <token>'")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        raise WebError(401, "bad_token", "expected 'Authorization: Bearer <token>'")
    return token.strip()


def _seat_payload(
    games: GameManager, game_id: str, authorization: str | None, svg: bool = False
) -> Any:
    token = _bearer(authorization)
    with games.game(game_id) as game:
        return game.payload(game.seat_of(token), svg=svg)


def _act(
    games: GameManager,
    game_id: str,
    authorization: str | None,
    action: Callable[[Game, int], None],
) -> Any:
    """Do ``action(game, seat)`` for the token's seat; the seat's payload once stored."""
    token = _bearer(authorization)
    with games.game(game_id, write=True) as game:
        seat = game.seat_of(token)
        action(game, seat)
        payload = game.payload(seat)
    return payload


def game_routes(games: GameManager) -> APIRouter:
    """The presets, creating and joining games, and the deal records."""
    router = APIRouter()

    @router.get("/api/presets", tags=["rules"])
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

    @router.post(
        "/api/games", status_code=201, response_model=Created, responses=ERRORS, tags=["games"]
    )
    async def create_game(spec: CreateGame) -> Created:
        """Create a game; the answer holds your seat's secret token (and an invite token
        for the second human)."""
        game, token, invite = await _run(lambda: games.create(spec))
        return Created(
            game_id=game.id, seat=spec.seat, token=token, invite=invite, url=f"/?game={game.id}"
        )

    @router.post(
        "/api/games/{game_id}/join", response_model=Created, responses=ERRORS, tags=["games"]
    )
    async def join(game_id: str, body: JoinGame) -> Created:
        """Take the free human seat with the invite token (once)."""

        def work() -> tuple[int, str]:
            with games.game(game_id, write=True) as game:
                joined = game.join(body.invite)
            return joined

        seat, token = await _run(work)
        return Created(game_id=game_id, seat=seat, token=token, url=f"/?game={game_id}")

    @router.get(
        "/api/games/{game_id}/record", tags=["games"], response_model=None, responses=ERRORS
    )
    async def record(
        game_id: str,
        authorization: Auth = None,
        deal: int | None = Query(None, ge=1, le=1000),
        format: Literal["text", "json"] = Query("text"),
    ) -> Response:
        """The record of a finished deal (default: the current one, once it is over), as
        the text form or the JSON document."""
        text = await _run(lambda: _record(games, game_id, authorization, deal, format))
        if format == "json":
            return Response(text, media_type="application/json")
        return PlainTextResponse(text)

    return router


def _record(
    games: GameManager, game_id: str, authorization: str | None, deal: int | None, form: str
) -> str:
    token = _bearer(authorization)
    with games.game(game_id) as game:
        game.seat_of(token)
        _, rec = game.finished_record(deal)
    return crapette.to_json(rec) if form == "json" else format_record(rec)


def play_routes(games: GameManager) -> APIRouter:
    """A seat's payload, its moves, Stop! decisions, hints, undo, resigning and the next
    deal."""
    router = APIRouter()

    async def act(
        game_id: str, authorization: str | None, action: Callable[[Game, int], None]
    ) -> Any:
        return _json(await _run(lambda: _act(games, game_id, authorization, action)))

    def versioned(
        step: Callable[[Game, int, int | None], None], body: Versioned | None
    ) -> Callable[[Game, int], None]:
        version = body.version if body is not None else None
        return lambda game, seat: step(game, seat, version)

    @router.get("/api/games/{game_id}", tags=["play"], **_GAME)
    async def get_game(game_id: str, authorization: Auth = None, svg: bool = Query(False)) -> Any:
        """Your seat's view, legal moves, the opponent's last moves, score and match.
        With ``svg=true`` also the table as an SVG picture."""
        return _json(await _run(lambda: _seat_payload(games, game_id, authorization, svg)))

    @router.get("/api/games/{game_id}/moves", tags=["play"], **_model(MovesPayload))
    async def get_moves(game_id: str, authorization: Auth = None) -> Any:
        """Your legal moves (empty unless you are to act), with the game version."""
        data = await _run(lambda: _seat_payload(games, game_id, authorization))
        return _json({"version": data["version"], "legal_moves": data["legal_moves"]})

    @router.post("/api/games/{game_id}/moves", tags=["play"], **_GAME)
    async def play(game_id: str, body: PlayMove, authorization: Auth = None) -> Any:
        """Play a move by notation or action code; the bots answer before this returns."""

        def action(game: Game, seat: int) -> None:
            game.play(seat, text=body.move, code=body.code, version=body.version)

        return await act(game_id, authorization, action)

    @router.post("/api/games/{game_id}/stop", tags=["play"], **_GAME)
    async def stop(game_id: str, body: StopDecision, authorization: Auth = None) -> Any:
        """Call "Stop!" on the opponent's violation, or let it stand."""

        def action(game: Game, seat: int) -> None:
            if game.state.stop is None or game.state.to_act != seat:
                raise WebError(409, "no_stop_decision", "there is no Stop! decision for you")
            text = "stop" if body.call else "pass"
            game.play(seat, text=text, code=None, version=body.version)

        return await act(game_id, authorization, action)

    @router.get("/api/games/{game_id}/hint", tags=["play"], **_model(Hint))
    async def hint(game_id: str, authorization: Auth = None) -> Any:
        """The engine's suggestion for your position: the best line it finds from your
        view, with its win chance and a reason."""

        def work() -> dict[str, Any]:
            token = _bearer(authorization)
            with games.game(game_id) as game:
                advice = game.advice(game.seat_of(token))
                move = advice.move
                return {
                    "code": move.index,
                    "notation": crapette.format_move(move),
                    "description": describe_move(game.state, move),
                    "line": [crapette.format_move(m) for m in advice.line],
                    "win": _rounded(advice.win, 4),
                    "points": _rounded(advice.points, 2),
                    "reason": advice.reason,
                }

        return _json(await _run(work))

    @router.post("/api/games/{game_id}/undo", tags=["play"], **_GAME)
    async def undo(game_id: str, body: Versioned | None = None, authorization: Auth = None) -> Any:
        """Take back your last move (against a bot, within your turn, while the deal runs;
        never a move that showed a hidden card or ended the turn)."""
        return await act(game_id, authorization, versioned(Game.take_back, body))

    @router.post("/api/games/{game_id}/resign", tags=["play"], **_GAME)
    async def resign(
        game_id: str, body: Versioned | None = None, authorization: Auth = None
    ) -> Any:
        """Resign the game: the other seat wins the match (the body, with the version, may
        be left out)."""
        return await act(game_id, authorization, versioned(Game.resign, body))

    @router.post("/api/games/{game_id}/next-deal", tags=["play"], **_GAME)
    async def next_deal(
        game_id: str, body: Versioned | None = None, authorization: Auth = None
    ) -> Any:
        """Start the next deal of the match once the current one is over."""
        return await act(game_id, authorization, versioned(Game.next_deal, body))

    return router


MAX_REVIEWS = 32
"""The most finished deals whose review the server keeps (the least recently asked for goes
first)."""

ANALYSIS_WAIT = 20.0
"""Seconds a review or an answer's check waits for the engine before ``503 analysis_busy``
(the server runs one such analysis at a time)."""

_PUZZLE_STATUS = {"no_such_puzzle": 404, "bad_move": 422, "illegal_move": 422, "line_over": 422}
"""The HTTP status of each refusal of puzzle mode."""


def _puzzle_work(work: Callable[[], Any]) -> Any:
    """``work()``, its refusals answered with their HTTP status."""
    try:
        return work()
    except SessionError as exc:
        status = _PUZZLE_STATUS.get(exc.code, 409)
        raise WebError(status, exc.code, exc.message, exc.reason) from None


def analysis_routes(games: GameManager) -> APIRouter:
    """The review of a finished deal and puzzle mode: the engine's analyses, bounded (each
    move of a review at ``Game.review_limit``, an answer at ``crapette.session.ANSWER_LIMIT``)
    and made one at a time; a deal's review is kept for its next askers."""
    router = APIRouter()
    reviews: OrderedDict[tuple[str, int, int], DealReview] = OrderedDict()
    kept = threading.Lock()
    engine = threading.BoundedSemaphore(1)

    def analysed(work: Callable[[], Any]) -> Any:
        """``work()`` once the engine is free (503 ``analysis_busy`` after a wait)."""
        if not engine.acquire(timeout=ANALYSIS_WAIT):
            raise WebError(503, "analysis_busy", "the engine is busy with other analyses")
        try:
            return work()
        finally:
            engine.release()

    @router.get("/api/games/{game_id}/review", tags=["analysis"], **_model(ReviewPayload))
    async def review(
        game_id: str, authorization: Auth = None, deal: int | None = Query(None, ge=1, le=1000)
    ) -> Any:
        """A finished deal reviewed (default: the current deal, once it is over; refused
        while it runs): every move of both players judged by the engine from its mover's
        view (a judgment, the win chance before and after, the best line, a Stop! fault),
        with the board before each move as your seat saw it."""

        def work() -> Any:
            token = _bearer(authorization)
            with games.game(game_id) as game:
                seat = game.seat_of(token)
                number, record = game.finished_record(deal)
            key = (game_id, number, len(record.moves))
            with kept:
                found = reviews.get(key)
                if found is not None:
                    reviews.move_to_end(key)
            if found is None:
                found = analysed(
                    lambda: DealReview.of(record, number, Game.review_limit, Game.review_deep)
                )
                with kept:
                    reviews[key] = found
                    while len(reviews) > MAX_REVIEWS:
                        reviews.popitem(last=False)
            return found.payload(seat)

        return _json(await _run(work))

    @router.get("/api/puzzles", tags=["puzzles"], **_model(PuzzleList))
    def puzzles() -> Any:
        """The shipped puzzle set (each puzzle's number, rules, theme and solver; not its
        solution)."""
        return _json(puzzle_list())

    @router.get("/api/puzzles/{number}", tags=["puzzles"], **_model(PuzzlePosition))
    async def puzzle(
        number: int,
        line: str = Query(
            "", max_length=2000, description="the solver's moves so far, in notation, spaced"
        ),
    ) -> Any:
        """A puzzle's position after the solver's moves so far (``line``): the solver's
        payload, built from the solver's view; no move is legal once the line is whole."""
        moves = line.split()
        return _json(await _run(lambda: _puzzle_work(lambda: puzzle_position(number, moves))))

    @router.post("/api/puzzles/{number}/answer", tags=["puzzles"], **_model(PuzzleVerdict))
    async def answer(number: int, body: PuzzleAnswer) -> Any:
        """Check an answer with the engine: the solution, a line worth as much, a worse
        line, or a line that is not whole yet; the verdict shows the solution."""

        def work() -> Any:
            return analysed(lambda: puzzle_answer(number, body.line))

        return _json(await _run(lambda: _puzzle_work(work)))

    return router


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


def _hello(first: str | bytes, max_body: int) -> tuple[str, bool] | None:
    """The token and picture wish of a follower's first frame, or ``None``."""
    try:
        if not isinstance(first, str) or len(first) > max_body:
            return None
        hello = json.loads(first)
        token, svg = hello["token"], hello.get("svg", False)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
    if not isinstance(token, str) or not isinstance(svg, bool):
        return None
    return token, svg


def live_routes(games: GameManager, max_body: int) -> APIRouter:
    """The WebSocket of live updates."""
    router = APIRouter()
    followers: dict[str, int] = {}

    @router.websocket("/api/games/{game_id}/live")
    async def live(websocket: WebSocket, game_id: str) -> None:
        """Live updates: send ``{"token": ...}`` first; then each change of the game is a
        message with your seat's whole payload (as ``GET /api/games/{id}``)."""
        await websocket.accept()

        async def refuse(code: str, message: str) -> None:
            await websocket.send_json({"error": {"code": code, "message": message}})
            await websocket.close(code=1008)

        try:
            first = await asyncio.wait_for(_receive_frame(websocket), timeout=10)
            hello = _hello(first, max_body)
            if hello is None:
                await refuse("bad_request", 'send {"token": "...", "svg": false} first (text)')
                return
            token, svg = hello
            try:
                payload = await _run(lambda: _seat_payload(games, game_id, f"Bearer {token}"))
            except WebError as exc:
                await refuse(exc.code, exc.message)
                return
            if followers.get(game_id, 0) >= MAX_FOLLOWERS:
                await refuse("too_many_followers", f"a game has at most {MAX_FOLLOWERS} followers")
                return
            followers[game_id] = followers.get(game_id, 0) + 1
            try:
                await _follow(websocket, games, game_id, token, payload["seat"], svg)
            finally:
                followers[game_id] -= 1
                if not followers[game_id]:
                    del followers[game_id]
        except (WebSocketDisconnect, asyncio.TimeoutError, WebError):
            return

    return router


async def _follow(
    websocket: WebSocket, games: GameManager, game_id: str, token: str, seat: int, svg: bool
) -> None:
    """Send the follower its payload, then each newer one, until it leaves."""
    loop = asyncio.get_running_loop()
    queue: Updates = asyncio.Queue()
    games.subscribe(game_id, (seat, svg), queue, loop)
    try:
        # (subscribed first, then read: a change in between is queued, not lost)
        sent = await _run(lambda: _seat_payload(games, game_id, f"Bearer {token}", svg))
        await websocket.send_json({"type": "update", "game": sent})
        receiver = asyncio.ensure_future(_receive_frame(websocket))
        getter: asyncio.Future[Any] | None = None
        try:
            while True:
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait(
                    {receiver, getter}, return_when=asyncio.FIRST_COMPLETED
                )
                if receiver in done:
                    receiver.result()  # raises WebSocketDisconnect when the client left
                    # anything else a client sends is ignored
                    receiver = asyncio.ensure_future(_receive_frame(websocket))
                    if getter not in done:
                        getter.cancel()  # (a cancelled get loses no batch)
                        continue
                batch = getter.result()
                if queue.qsize() >= BACKLOG - 1:  # a slow client: skip to the newest
                    while not queue.empty():
                        batch = queue.get_nowait()
                    batch = batch[-1:]
                for data in batch:
                    if data["version"] > sent["version"]:
                        await websocket.send_json({"type": "update", "game": data})
                        sent = data
        finally:
            # whichever way the follower ends (the client left, a send failed, the server
            # stops), neither waiting task outlives it: each is cancelled and awaited, so
            # none is left pending ("Task was destroyed but it is pending!" in the log)
            await _settle(receiver, getter)
    finally:
        games.unsubscribe(game_id, (seat, svg), queue, loop)


async def _settle(*tasks: asyncio.Future[Any] | None) -> None:
    """Cancel the tasks still running and wait until every one has finished."""
    running = [task for task in tasks if task is not None and not task.done()]
    for task in running:
        task.cancel()
    if running:
        await asyncio.wait(running)
    for done in tasks:  # retrieve their outcome: no "exception was never retrieved"
        if done is not None and done.done() and not done.cancelled():
            done.exception()


def page_routes() -> APIRouter:
    """The reference web page and its small companions."""
    router = APIRouter()
    static = resources.files("crapette.web") / "static"

    @router.get("/", include_in_schema=False)
    def index() -> Response:
        return Response((static / "index.html").read_bytes(), media_type="text/html")

    @router.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)  # no icon: a browser's request is not an error

    @router.get("/rules", include_in_schema=False)
    def rules_page() -> RedirectResponse:
        return RedirectResponse("https://crapette.readthedocs.io/en/latest/rules/")

    return router
