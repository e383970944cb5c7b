"""The crapette game server (``crapette serve``, the ``web`` extra): a JSON API with an
OpenAPI schema, live updates over a WebSocket and a reference web page.

    from crapette.web import create_app
    app = create_app(database=":memory:")   # an ASGI app: uvicorn.run(app)

FastAPI is imported only here (and only when this package is imported).
"""

from __future__ import annotations

from crapette.web._limits import ConnectionGuard
from crapette.web.app import GameManager, create_app
from crapette.web.session import Game, WebError
from crapette.web.store import GameStore, MemoryStore, SQLiteStore

__all__ = [
    "ConnectionGuard",
    "Game",
    "GameManager",
    "GameStore",
    "MemoryStore",
    "SQLiteStore",
    "WebError",
    "create_app",
]
