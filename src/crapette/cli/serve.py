"""``crapette serve``: run the game server (JSON API and the reference web page) with
uvicorn. Needs the ``web`` extra: ``pip install 'crapette[web]'``."""

from __future__ import annotations

import argparse
from typing import Any

from crapette.errors import CrapetteError

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Add the ``serve`` subcommand to the ``crapette`` parser."""
    parser = subparsers.add_parser(
        "serve",
        help="run the web game server",
        description="Serve the JSON game API (OpenAPI schema at /docs and /openapi.json) and"
        " the reference web page at http://HOST:PORT/. Games are kept in an SQLite file and"
        " survive a restart.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db",
        default="crapette-games.sqlite3",
        metavar="FILE",
        help="the SQLite file games are kept in (default crapette-games.sqlite3)",
    )
    parser.add_argument(
        "--max-games", type=int, default=1000, help="cap on open games (default 1000)"
    )
    parser.add_argument(
        "--max-body", type=int, default=16_384, help="largest request body in bytes"
    )
    parser.add_argument(
        "--idle-hours", type=float, default=24.0, help="hours an untouched game is kept"
    )
    parser.add_argument(
        "--allow-seeds",
        action="store_true",
        help="accept a chosen seed for a game between two people (tests, demonstrations: who"
        " chose it knows every hidden card)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the server; returns the exit status when it stops."""
    try:
        import uvicorn

        from crapette.web import create_app
    except ImportError as exc:
        raise CrapetteError(
            f"the web server needs the 'web' extra ({exc.name} is missing):"
            " pip install 'crapette[web]'"
        ) from None
    app = create_app(
        database=args.db,
        max_open_games=args.max_games,
        max_body=args.max_body,
        idle_ttl=args.idle_hours * 3600.0,
        allow_seeds=args.allow_seeds,
    )
    print(f"crapette: serving on http://{args.host}:{args.port}/ (games in {args.db})")
    # WebSocket frames are bounded like request bodies (uvicorn's default is 16 MiB)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=args.max_body)
    return 0
