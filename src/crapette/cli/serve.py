"""``crapette serve``: run the game server (JSON API and the reference web page) with
uvicorn, its connections bounded. Needs the ``web`` extra: ``pip install 'crapette[web]'``."""

from __future__ import annotations

import argparse
import os
import sqlite3
from typing import Any

from crapette.cli._output import OutputError
from crapette.errors import CrapetteError

__all__ = ["add_parser", "run"]

_SPARE_FILES = 64
"""Descriptors kept for the database, logs and the listening socket, beyond connections."""


def add_parser(subparsers: Any) -> None:
    """Add the ``serve`` subcommand to the ``crapette`` parser."""
    parser = subparsers.add_parser(
        "serve",
        help="run the web game server",
        description="Serve the JSON game API (OpenAPI schema at /docs and /openapi.json) and"
        " the reference web page at http://HOST:PORT/. Games are kept in an SQLite file and"
        " survive a restart. See 'Running a server in public' in the docs before opening it"
        " to the world.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="the SQLite file games are kept in (default games.sqlite3 in the user's data"
        " directory, such as ~/.local/share/crapette; ':memory:' keeps them in memory only;"
        " missing folders are made)",
    )
    parser.add_argument(
        "--max-games", type=_positive, default=1000, help="cap on open games (default 1000)"
    )
    parser.add_argument(
        "--max-cached",
        type=_positive,
        default=None,
        help="most games kept in memory (default: --max-games); others are read from the file",
    )
    parser.add_argument(
        "--max-body", type=_positive, default=16_384, help="largest request body in bytes"
    )
    parser.add_argument(
        "--max-connections",
        type=_positive,
        default=256,
        help="connections open at once, WebSockets included (default 256; one more is"
        " answered 503 and closed)",
    )
    parser.add_argument(
        "--header-timeout",
        type=_seconds,
        default=10.0,
        help="seconds a connection has to send its request headers, from when it opens or"
        " its last answer (default 10)",
    )
    parser.add_argument(
        "--body-timeout",
        type=_seconds,
        default=10.0,
        help="seconds a request has to send its body (default 10)",
    )
    parser.add_argument(
        "--idle-hours", type=float, default=24.0, help="hours an untouched game is kept"
    )
    parser.add_argument(
        "--finished-hours",
        type=float,
        default=1.0,
        help="hours a finished game stays readable by its players (default 1)",
    )
    parser.add_argument(
        "--allow-seeds",
        action="store_true",
        help="accept a chosen seed for a game between two people (tests, demonstrations: who"
        " chose it knows every hidden card)",
    )
    parser.set_defaults(run=run)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 3600, not {text}")
    return value


def _room_for(connections: int) -> int:
    """Raise the soft limit on open files to fit ``connections`` (and a few more) where the
    hard limit allows; returns how many connections fit."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a Unix
        return connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = connections + _SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return connections
    return max(1, min(connections, soft - _SPARE_FILES))


def _http_protocol() -> type[Any]:
    """uvicorn's HTTP protocol class, as its ``auto`` choice picks it."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn without httptools
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol
    return HttpToolsProtocol


def run(args: argparse.Namespace) -> int:
    """Start the server; returns the exit status when it stops."""
    try:
        import uvicorn

        from crapette.web import ConnectionGuard, create_app
        from crapette.web.app import default_database
    except ImportError as exc:
        raise CrapetteError(
            f"the web server needs the 'web' extra ({exc.name} is missing):"
            " pip install 'crapette[web]'"
        ) from None
    database = args.db if args.db is not None else str(default_database())
    if database != ":memory:" and os.path.isdir(database):
        raise OutputError(f"cannot write --db {database!r}: Is a directory")
    try:  # the store opens the file (and makes its missing folders) now, before serving
        app = create_app(
            database=database,
            max_open_games=args.max_games,
            max_cached=args.max_cached,
            max_body=args.max_body,
            body_timeout=args.body_timeout,
            finished_ttl=args.finished_hours * 3600.0,
            idle_ttl=args.idle_hours * 3600.0,
            allow_seeds=args.allow_seeds,
        )
    except (OSError, sqlite3.Error) as error:
        if isinstance(error, FileExistsError):  # a file where one of its folders would be
            reason = "Not a directory"
        else:
            reason = getattr(error, "strerror", None) or str(error)
        raise OutputError(f"cannot write --db {database!r}: {reason}") from None
    connections = _room_for(args.max_connections)
    if connections < args.max_connections:
        print(
            f"crapette: the limit on open files allows {connections} connections, not"
            f" {args.max_connections}"
        )
    guard = ConnectionGuard(connections, args.header_timeout)
    print(
        f"crapette: serving on http://{args.host}:{args.port}/ (games in {database}; at most"
        f" {connections} connections, request headers within {args.header_timeout:g} s)",
        flush=True,
    )
    uvicorn.run(
        guard.wrap(app),
        host=args.host,
        port=args.port,
        log_level="warning",
        # WebSocket frames are bounded like request bodies (uvicorn's default is 16 MiB)
        ws_max_size=args.max_body,
        http=guard.protocol(_http_protocol()),
        timeout_keep_alive=5,
    )
    return 0
