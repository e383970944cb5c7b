"""The games of one server: a bounded cache of open games over a store, a lock per game in
use, all-or-nothing writes, the caps, the expiry sweep and the live-update subscribers.

All or nothing: a request that changes a game works on the cached object under the game's
lock; the change is stored before anyone sees it (the answer, and the WebSocket payloads of
each version, collected meanwhile, are sent only after the save). When the save fails the
cached object is dropped, so memory holds exactly what the store holds, and the request is
answered ``503 storage_unavailable``.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final, TypeAlias

import crapette
from crapette.session import chosen_secret
from crapette.session.payload import GamePayload
from crapette.web._error import WebError
from crapette.web._models import CreateGame
from crapette.web.session import _MAX_SEED, Game, _check_opponent, _parse_rules
from crapette.web.store import GameStore

__all__ = ["GameManager"]

_log = logging.getLogger("crapette.web")

Updates: TypeAlias = "asyncio.Queue[list[GamePayload]]"
"""A WebSocket follower's queue of batches of seat payloads: a batch per stored change,
holding a payload per new version of the game (a move, and each of a bot's replies)."""

Follow: TypeAlias = "tuple[int, bool]"
"""What a WebSocket follower asked for: its seat, and whether payloads carry the picture."""

_Subscriber: TypeAlias = "tuple[Follow, Updates, asyncio.AbstractEventLoop]"

BACKLOG: Final = 64
"""A follower with this many changes waiting gets only the newest payload."""

LONGEST_BATCH: Final = 512
"""A change of more versions than this (a bot's turn that long) brings a follower its last
``LONGEST_BATCH`` payloads."""

_GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
"""What a game id can be (``secrets.token_urlsafe``): anything else is no game, looked up
nowhere."""

STORAGE_RETRY: Final = 5
"""Seconds a client is told to wait (``Retry-After``) after ``storage_unavailable``."""


def offer(queue: Updates, batch: list[GamePayload]) -> None:
    """Queue a change's payloads for a follower; one that fell ``BACKLOG`` changes behind
    (a slow reader, whose socket is not drained) loses the oldest, so a queue never grows
    past it (each payload is a whole seat's view: the newest is all a client needs)."""
    while queue.qsize() >= BACKLOG:
        queue.get_nowait()
    queue.put_nowait(batch[-LONGEST_BATCH:])


def _storage_error(action: str, exc: BaseException) -> WebError:
    _log.error("crapette: the store failed to %s: %r", action, exc)
    return WebError(
        503,
        "storage_unavailable",
        f"the server could not {action} (its storage failed); nothing was changed: try again"
        f" in {STORAGE_RETRY} s",
    )


class _GameLock:
    """A game's lock and how many requests hold or wait for it (the entry is dropped when
    none does, so ids asked for leave nothing behind)."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0


class GameManager:
    """The games of one server: a bounded cache of open games over a store, a lock per
    game in use, all-or-nothing writes, the caps and the expiry, and the live-update
    subscribers.

    Memory is bounded whatever the requests: a game id that is not stored leaves nothing
    behind; a finished game leaves the cache once stored (its players still read it, from
    the store, until it expires); at most ``max_cached`` open games are cached (the least
    recently used leaves first, and is read back from the store when asked for).

    Args:
        store: where games are kept.
        max_open_games: the cap on unfinished games.
        finished_ttl: seconds a finished game is kept after its last change.
        idle_ttl: seconds an untouched game is kept.
        allow_seeds: accept a chosen seed for a game between two people.
        max_cached: the most games kept in memory (default ``max_open_games``).
        sweep_every: seconds between expiry sweeps; a failing sweep is logged and tried
            again after twice as long each time (up to an hour).
    """

    def __init__(
        self,
        store: GameStore,
        *,
        max_open_games: int,
        finished_ttl: float,
        idle_ttl: float,
        allow_seeds: bool = False,
        max_cached: int | None = None,
        sweep_every: float = 60.0,
    ) -> None:
        self.store = store
        self.allow_seeds = allow_seeds
        self.max_open_games = max_open_games
        self.max_cached = max(1, max_cached if max_cached is not None else max_open_games)
        self.finished_ttl = finished_ttl
        self.idle_ttl = idle_ttl
        self.sweep_every = sweep_every
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._locks: dict[str, _GameLock] = {}
        self._lock = threading.Lock()
        self._create_lock = threading.Lock()
        self._subscribers: dict[str, set[_Subscriber]] = {}
        self._next_sweep = 0.0
        self._sweep_delay = sweep_every

    # ------------------------------------------------------------------ expiry

    def sweep(self, now: float | None = None) -> list[str]:
        """Expire finished and idle games now; returns their ids.

        Raises:
            WebError: 503 ``storage_unavailable`` when the store fails.
        """
        now = time.time() if now is None else now
        try:
            gone = self.store.expire(
                finished_before=now - self.finished_ttl, idle_before=now - self.idle_ttl
            )
        except Exception as exc:
            raise _storage_error("expire old games", exc) from None
        with self._lock:
            for key in gone:
                self._games.pop(key, None)
        return gone

    def maybe_sweep(self) -> None:
        """Expire games when the next sweep is due (called on requests; one request at a
        time sweeps). A failing sweep is logged, never fails the request, and is tried
        again after twice the delay each time, up to an hour."""
        now = time.time()
        with self._lock:
            if now < self._next_sweep:
                return
            self._next_sweep = now + self._sweep_delay  # the others go on meanwhile
        try:
            self.sweep(now)
        except WebError:
            self._sweep_delay = min(self._sweep_delay * 2, 3600.0)
            _log.warning("crapette: expiry sweep failed; next try in %.0f s", self._sweep_delay)
        else:
            self._sweep_delay = self.sweep_every
        with self._lock:
            self._next_sweep = time.time() + self._sweep_delay

    # ------------------------------------------------------------------ games

    def create(self, spec: CreateGame) -> tuple[Game, str, str | None]:
        """A new game, stored (and only then cached).

        Raises:
            WebError: bad rules or opponent; 503 when the cap on open games is reached or
                the store fails (then nothing is kept).
        """
        rules = _parse_rules(spec.rules)
        if spec.match is not None:
            try:
                rules = rules.replace(match_target=spec.match.target, match_deals=spec.match.deals)
            except crapette.CrapetteError as exc:
                raise WebError(422, "bad_rules", str(exc)) from None
        else:
            rules = rules.replace(match_target=None, match_deals=1)
        opponent = _check_opponent(spec.opponent)
        seed = spec.seed
        if seed is not None and opponent == "human" and not self.allow_seeds:
            raise WebError(
                422,
                "seed_not_allowed",
                "a game between two people is dealt from a seed the server draws (whoever"
                " chose the seed would know every hidden card); the server allows chosen"
                " seeds only when started with --allow-seeds",
            )
        assert not isinstance(seed, str)  # the request model reads a string as its int
        self.maybe_sweep()
        self._check_room()
        # a drawn seed gets a secret key for the bots; a chosen one, a key of its own
        # (its chooser knows every card: the game replays the same bot moves, for tests)
        key = None if seed is None else chosen_secret(seed)
        seed = seed if seed is not None else secrets.randbelow(_MAX_SEED + 1)
        game, token, invite = Game.create(
            secrets.token_urlsafe(12),
            rules,
            seed=seed,
            opponent=opponent,
            seat=spec.seat,
            undo=spec.undo,
            secret=key,
        )
        with self._create_lock:  # the count and the insert together: the cap holds
            self._check_room()
            self._save(game, "store the new game")
        self._keep(game)
        return game, token, invite

    def _check_room(self) -> None:
        try:
            count = self.store.count_open()
        except Exception as exc:
            raise _storage_error("count the open games", exc) from None
        if count >= self.max_open_games:
            raise WebError(503, "too_many_games", "the server has too many open games: try later")

    @contextmanager
    def _locked(self, game_id: str) -> Iterator[None]:
        """Hold the game's lock; its entry lives only while a request holds or awaits it."""
        with self._lock:
            entry = self._locks.get(game_id)
            if entry is None:
                entry = self._locks[game_id] = _GameLock()
            entry.users += 1
        try:
            with entry.lock:
                yield
        finally:
            with self._lock:
                entry.users -= 1
                if entry.users == 0:
                    del self._locks[game_id]

    def _keep(self, game: Game) -> None:
        """Cache an open game as the most recently used (the least recently used leaves
        past ``max_cached``); a finished one leaves the cache."""
        with self._lock:
            if game.over:
                self._games.pop(game.id, None)
                return
            self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > self.max_cached:
                self._games.popitem(last=False)

    def _drop(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    def _fetch(self, game_id: str) -> Game:
        with self._lock:
            game = self._games.get(game_id)
        if game is not None:
            return game
        try:
            data = self.store.load(game_id)
        except Exception as exc:
            raise _storage_error("read the game", exc) from None
        if data is None:
            raise WebError(404, "no_such_game", "no game has this id (or it expired)")
        return Game.from_dict(data)

    @contextmanager
    def game(self, game_id: str, *, write: bool = False) -> Iterator[Game]:
        """The game under its lock. With ``write``, a change made in the block is stored
        when it ends, and only then announced; if the block fails or the save fails, the
        cached game is dropped so that the stored copy (unchanged) is what every later
        request sees.

        Raises:
            WebError: 404 ``no_such_game``; 503 ``storage_unavailable`` (nothing changed).
        """
        if not _GAME_ID.match(game_id):
            raise WebError(404, "no_such_game", "no game has this id")
        self.maybe_sweep()
        with self._locked(game_id):
            game = self._fetch(game_id)
            before = game.version
            pending: list[tuple[int, list[tuple[_Subscriber, GamePayload]]]] = []
            if write:
                game.on_move = lambda *_: pending.append((game.version, self._payloads(game)))
            try:
                yield game
            except BaseException:
                if write and game.version != before:
                    self._drop(game_id)
                raise
            finally:
                game.on_move = None
            if write and game.version != before:
                if not pending or pending[-1][0] != game.version:
                    pending.append((game.version, self._payloads(game)))
                try:
                    self._save(game, "store the change")
                except WebError:
                    self._drop(game_id)
                    raise
                batches: dict[int, tuple[_Subscriber, list[GamePayload]]] = {}
                for _, sends in pending:
                    for sub, payload in sends:
                        batches.setdefault(id(sub), (sub, []))[1].append(payload)
                for (_, queue, loop), batch in batches.values():
                    loop.call_soon_threadsafe(offer, queue, batch)
            self._keep(game)

    def _save(self, game: Game, action: str) -> None:
        try:
            self.store.save(game.id, game.to_dict(), finished=game.over, updated=game.updated)
        except Exception as exc:
            raise _storage_error(action, exc) from None

    def cached(self) -> int:
        """How many games are in memory now."""
        with self._lock:
            return len(self._games)

    def in_use(self) -> int:
        """How many game locks exist now (one per game a request holds or awaits)."""
        with self._lock:
            return len(self._locks)

    # ------------------------------------------------------------------ live updates

    def subscribe(
        self, game_id: str, follow: Follow, queue: Updates, loop: asyncio.AbstractEventLoop
    ) -> None:
        """Send the payload of each new version of the game to ``queue`` (on ``loop``), as
        ``follow = (seat, svg)`` asks (``svg``: with the picture of the seat's view)."""
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add((follow, queue, loop))

    def unsubscribe(
        self, game_id: str, follow: Follow, queue: Updates, loop: asyncio.AbstractEventLoop
    ) -> None:
        """Stop sending to ``queue``."""
        with self._lock:
            subs = self._subscribers.get(game_id)
            if subs is not None:
                subs.discard((follow, queue, loop))
                if not subs:
                    del self._subscribers[game_id]

    def _payloads(self, game: Game) -> list[tuple[_Subscriber, GamePayload]]:
        """Each subscriber's payload of the game's current version (built now, under the
        game's lock; sent once the change is stored)."""
        with self._lock:
            subs = list(self._subscribers.get(game.id, ()))
        built: dict[Follow, GamePayload] = {}
        out = []
        for sub in subs:
            follow = sub[0]
            if follow not in built:
                built[follow] = game.payload(follow[0], svg=follow[1])
            out.append((sub, built[follow]))
        return out
