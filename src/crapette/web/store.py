"""Where games live between requests and across restarts: a small store interface, an
in-memory store (tests) and the SQLite store (the default).

A store keeps each game as one JSON document (``crapette.web.session.Game.to_dict``:
the JSON state and record forms, seats with token digests) plus two columns the server
queries: whether the game is finished and when it last changed.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

__all__ = ["GameStore", "MemoryStore", "SQLiteStore"]


@runtime_checkable
class GameStore(Protocol):
    """The interface the server needs; implement it to keep games elsewhere."""

    def load(self, game_id: str) -> dict[str, Any] | None:
        """The stored document of a game, or ``None``."""
        ...

    def save(self, game_id: str, data: dict[str, Any], *, finished: bool, updated: float) -> None:
        """Insert or replace a game's document."""
        ...

    def delete(self, game_id: str) -> None:
        """Forget a game (no error when it is absent)."""
        ...

    def count_open(self) -> int:
        """How many unfinished games are stored."""
        ...

    def expire(self, *, finished_before: float, idle_before: float) -> list[str]:
        """Delete finished games last changed before ``finished_before`` and any game last
        changed before ``idle_before``; returns their ids."""
        ...


class MemoryStore:
    """A store in a dict: fast, lost on exit (tests, benchmarks)."""

    def __init__(self) -> None:
        self._games: dict[str, tuple[str, bool, float]] = {}
        self._lock = threading.Lock()

    def load(self, game_id: str) -> dict[str, Any] | None:
        """The stored document of a game, or ``None``."""
        with self._lock:
            row = self._games.get(game_id)
        return json.loads(row[0]) if row is not None else None

    def save(self, game_id: str, data: dict[str, Any], *, finished: bool, updated: float) -> None:
        """Insert or replace a game's document."""
        text = json.dumps(data)
        with self._lock:
            self._games[game_id] = (text, finished, updated)

    def delete(self, game_id: str) -> None:
        """Forget a game."""
        with self._lock:
            self._games.pop(game_id, None)

    def count_open(self) -> int:
        """How many unfinished games are stored."""
        with self._lock:
            return sum(1 for _, finished, _ in self._games.values() if not finished)

    def expire(self, *, finished_before: float, idle_before: float) -> list[str]:
        """Delete expired games; returns their ids."""
        with self._lock:
            gone = [
                key
                for key, (_, finished, updated) in self._games.items()
                if updated < idle_before or (finished and updated < finished_before)
            ]
            for key in gone:
                del self._games[key]
        return gone


class SQLiteStore:
    """Games in an SQLite database file (one table, one row per game).

    Every save is one statement, so it is stored whole or not at all; a save that returns
    has been committed to the write-ahead log, which survives the server process being
    killed (``synchronous=NORMAL``: the last commits may be lost on a power failure, not on
    a crash of the process).

    A database that cannot be written (a read-only file or disk) still opens: games are
    read, and each change fails (the server answers ``503 storage_unavailable``).

    Args:
        path: the database file (created with its table when missing); ``":memory:"`` for
            a private in-memory database.
        timeout: seconds a statement waits for a lock held by another connection before
            it fails.
    """

    def __init__(self, path: str | Path, *, timeout: float = 2.0) -> None:
        self.path = str(path)
        self.read_only = False
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=timeout
        )
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS games ("
                " id TEXT PRIMARY KEY, data TEXT NOT NULL,"
                " finished INTEGER NOT NULL, updated REAL NOT NULL)"
            )
            self._db.execute("CREATE INDEX IF NOT EXISTS games_updated ON games (updated)")
        except sqlite3.OperationalError as exc:
            if "readonly" not in str(exc).replace("-", "").replace(" ", ""):
                raise
            self.read_only = True
            logging.getLogger("crapette.web").warning(
                "crapette: the database %s is read-only: games are read, not changed", self.path
            )

    def load(self, game_id: str) -> dict[str, Any] | None:
        """The stored document of a game, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT data FROM games WHERE id = ?", (game_id,)).fetchone()
        return json.loads(row[0]) if row is not None else None

    def save(self, game_id: str, data: dict[str, Any], *, finished: bool, updated: float) -> None:
        """Insert or replace a game's document."""
        text = json.dumps(data)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO games (id, data, finished, updated) VALUES (?, ?, ?, ?)",
                (game_id, text, int(finished), updated),
            )

    def delete(self, game_id: str) -> None:
        """Forget a game."""
        with self._lock:
            self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def count_open(self) -> int:
        """How many unfinished games are stored."""
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM games WHERE finished = 0").fetchone()
        return int(row[0])

    def expire(self, *, finished_before: float, idle_before: float) -> list[str]:
        """Delete expired games; returns their ids."""
        where = "updated < ? OR (finished = 1 AND updated < ?)"
        with self._lock:
            rows = self._db.execute(
                f"SELECT id FROM games WHERE {where}", (idle_before, finished_before)
            ).fetchall()
            self._db.execute(f"DELETE FROM games WHERE {where}", (idle_before, finished_before))
        return [r[0] for r in rows]

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
