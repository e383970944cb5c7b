"""The ASGI application: the JSON API, the live updates and the reference web page.

Build it with ``create_app``; ``crapette serve`` runs it with uvicorn. Every seat acts
with its own secret token (``Authorization: Bearer <token>``); every error is a JSON object
``{"error": {"code": ..., "message": ...}}`` with a 4xx status (or 503: the server is full
or its storage failed, with ``Retry-After``) and the game unchanged.
"""

from __future__ import annotations

import logging
import os
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import crapette
from crapette.web._error import WebError
from crapette.web._limits import BodyLimit, error_response
from crapette.web._manager import STORAGE_RETRY, GameManager
from crapette.web._routes import (
    analysis_routes,
    game_routes,
    live_routes,
    page_routes,
    play_routes,
)
from crapette.web.store import GameStore, SQLiteStore

__all__ = ["GameManager", "create_app", "default_database"]

_TOO_MANY_RETRY = 60
"""Seconds a client is told to wait after ``too_many_games``."""


def default_database() -> Path:
    """Where ``crapette serve`` keeps its games by default: ``games.sqlite3`` in the
    user's data directory (``platformdirs.user_data_path("crapette")``: on Linux
    ``$XDG_DATA_HOME/crapette``, else ``~/.local/share/crapette``)."""
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs comes with the web extra
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "crapette" / "games.sqlite3"
    return platformdirs.user_data_path("crapette", appauthor=False) / "games.sqlite3"


def create_app(
    store: GameStore | None = None,
    *,
    database: str | Path | None = None,
    max_open_games: int = 1000,
    max_cached: int | None = None,
    max_body: int = 16_384,
    body_timeout: float = 10.0,
    finished_ttl: float = 3600.0,
    idle_ttl: float = 86_400.0,
    allow_seeds: bool = False,
) -> FastAPI:
    """The crapette game server as an ASGI application.

    Args:
        store: where games are kept; default an ``crapette.web.store.SQLiteStore`` on
            ``database``.
        database: the SQLite file of the default store (``":memory:"`` for a private
            in-memory one); default [`default_database`][crapette.web.app.default_database]
            (its folder is created).
        max_open_games: a new game is refused (503) while this many are unfinished.
        max_cached: the most games kept in memory (default ``max_open_games``); the others
            are read from the store when asked for.
        max_body: the largest request body in bytes (413 above).
        body_timeout: seconds a client has to send a request body (408 after).
        finished_ttl: seconds a finished game is kept after its last change.
        idle_ttl: seconds a game nobody touches is kept.
        allow_seeds: accept a chosen seed for a game between two people too (for tests
            and demonstrations: the person who chose it knows every hidden card); games
            against a bot always accept one.
    """
    if store is None:
        path = default_database() if database is None else database
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        store = SQLiteStore(path)
    games = GameManager(
        store,
        max_open_games=max_open_games,
        max_cached=max_cached,
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
    _add_error_handlers(app)
    app.include_router(game_routes(games))
    app.include_router(play_routes(games))
    app.include_router(analysis_routes(games))
    app.include_router(live_routes(games, max_body))
    static = resources.files("crapette.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.include_router(page_routes())
    app.add_middleware(BodyLimit, limit=max_body, timeout=body_timeout)
    return app


def _add_error_handlers(app: FastAPI) -> None:
    """Every error as ``{"error": {"code": ..., "message": ...}}`` (an illegal move adds
    ``"reason"``: the rules' refusal as data); nothing of a bug shown."""

    @app.exception_handler(WebError)
    async def web_error(_: Request, exc: WebError) -> JSONResponse:
        headers = {}
        if exc.status == 503:
            busy = exc.code in ("storage_unavailable", "analysis_busy")
            wait = STORAGE_RETRY if busy else _TOO_MANY_RETRY
            headers["Retry-After"] = str(wait)
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

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
        response: JSONResponse = error_response(exc.status_code, code, str(exc.detail))
        return response

    @app.exception_handler(Exception)
    async def crash(_: Request, exc: Exception) -> JSONResponse:  # a bug: nothing of it shown
        logging.getLogger("crapette.web").error("crapette: internal error", exc_info=exc)
        response: JSONResponse = error_response(
            500, "internal_error", "the server failed on this request"
        )
        return response
