"""One game on the server: a [`Session`][crapette.session.Session] (the match, its seats,
undo, the hint, the bots and the payloads) with what the server adds: the seats' secret
tokens, the stored form, and the HTTP status of each refusal.

Nothing here knows about HTTP requests: ``crapette.web.app`` maps requests onto these
methods and ``WebError`` onto JSON error responses.

Secrets: the match seed (every card of every deal follows from it) is shown only once the
game is over, and no bot's randomness is derived from it. Each game dealt from a seed the
server drew holds a 256-bit key (``Game.secret``, drawn with ``secrets``, kept in the store
and never sent) from which the session seeds its bots. (A game dealt from a seed its
creator chose is keyed by that seed, so that it replays the same bot moves: its creator
knows every card anyway.) The store holds a digest of each seat's token, never the token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Any, Final

import attrs

import crapette
from crapette import GameState, Match, Ruleset, from_json, to_json
from crapette.bots import Fallible, get_bot
from crapette.session import Seat, Session
from crapette.session.payload import GamePayload
from crapette.svg import board
from crapette.views import observe
from crapette.web._error import WebError

__all__ = ["MAX_SEARCH_BUDGET", "Game", "WebError"]

MAX_SEARCH_BUDGET: Final = 8192
"""The largest search budget a client may ask for (``search:N``, ``planner:N``; the
planner's default)."""

_MAX_SEED: Final = 2**63 - 1
"""The largest seed a client may choose (and the range the server draws from)."""

_UNPROCESSABLE: Final = frozenset({"bad_move", "illegal_move"})
"""The session's refusals answered 422 (the request itself is wrong); the others are 409
(not now)."""


def _hash_token(token: str) -> str:
    """The stored form of a secret token (SHA-256, hex): the store never holds tokens."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _token_matches(token: str, digest: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored digest."""
    if digest is None:
        return False
    return hmac.compare_digest(_hash_token(token), digest)


def _parse_rules(text: str) -> Ruleset:
    """A preset name or rules string as a ruleset.

    Raises:
        WebError: 422 ``bad_rules`` with the library's message.
    """
    try:
        return Ruleset.from_string(text)
    except crapette.CrapetteError as exc:
        raise WebError(422, "bad_rules", str(exc)) from None


def _check_opponent(name: str) -> str:
    """``"human"`` or a bot name ``crapette.bots.get_bot`` knows, with a capped search
    budget.

    Raises:
        WebError: 422 ``bad_opponent``.
    """
    if name == "human":
        return name
    try:
        bot = get_bot(name)
    except crapette.CrapetteError as exc:
        raise WebError(422, "bad_opponent", f"{exc} (or human)") from None
    while isinstance(bot, Fallible):  # the budget of the bot a fallible player wraps
        bot = bot.bot
    budget = getattr(bot, "budget", 0)
    if isinstance(budget, int) and budget > MAX_SEARCH_BUDGET:
        raise WebError(422, "bad_opponent", f"search budget {budget} is above {MAX_SEARCH_BUDGET}")
    return name.strip()


@attrs.define
class Game(Session):
    """A match on the server between two seats: a [`Session`][crapette.session.Session]
    whose refusals are ``WebError`` (the session's code, with its HTTP status), with the
    seats' tokens and the times the store keeps.

    Attributes:
        token_hashes: the digest of each seat's secret token (``None`` for a bot seat, or a
            human seat nobody has taken yet).
        invite_hashes: the digest of the invite token of a free human seat, else ``None``.
        created: creation time (epoch seconds).
        updated: time of the last change.
    """

    token_hashes: list[str | None] = attrs.field(factory=lambda: [None, None], kw_only=True)
    invite_hashes: list[str | None] = attrs.field(factory=lambda: [None, None], kw_only=True)
    created: float = attrs.field(factory=time.time, kw_only=True)
    updated: float = attrs.field(factory=time.time, kw_only=True)

    # ------------------------------------------------------------------ creation

    @classmethod
    def create(
        cls,
        game_id: str,
        rules: Ruleset,
        *,
        seed: int,
        opponent: str,
        seat: int,
        undo: bool = True,
        secret: str | None = None,
    ) -> tuple[Game, str, str | None]:
        """A new game, the bots' first moves made; returns it, the creator's token and the
        invite token (human opponent) or ``None``. ``secret`` is the key of its bots'
        randomness (default: 256 new random bits)."""
        token = secrets.token_urlsafe(32)
        invite = secrets.token_urlsafe(24) if opponent == "human" else None
        mine = Seat("human", "human")
        other = Seat("human", "human", joined=False) if invite else Seat("bot", opponent)
        seats = [mine, other] if seat == 0 else [other, mine]
        game = cls.new(rules, seed=seed, seats=seats, id=game_id, undo=undo, secret=secret)
        game.token_hashes[seat] = _hash_token(token)
        if invite is not None:
            game.invite_hashes[1 - seat] = _hash_token(invite)
        game.run_bots()
        return game, token, invite

    # ------------------------------------------------------------------ seats

    def seat_of(self, token: str) -> int:
        """The seat whose token this is.

        Raises:
            WebError: 401 ``bad_token``.
        """
        found = -1
        for i, digest in enumerate(self.token_hashes):
            if _token_matches(token, digest):
                found = i
        if found < 0:
            raise WebError(401, "bad_token", "this token is not a seat of this game")
        return found

    def join(self, invite: str) -> tuple[int, str]:
        """Take the free human seat with its invite token; returns the seat and its token.

        Raises:
            WebError: 403 ``bad_invite`` (wrong, used or no invite).
        """
        for i, digest in enumerate(self.invite_hashes):
            if digest is not None and _token_matches(invite, digest):
                token = secrets.token_urlsafe(32)
                self.token_hashes[i] = _hash_token(token)
                self.invite_hashes[i] = None
                self.seats[i].joined = True
                self._changed()
                return i, token
        raise WebError(403, "bad_invite", "this invite is wrong or already used")

    def _changed(self) -> None:
        super()._changed()
        self.updated = time.time()

    def _refusal(self, code: str, message: str, reason: dict[str, Any] | None = None) -> WebError:
        return WebError(422 if code in _UNPROCESSABLE else 409, code, message, reason)

    # ------------------------------------------------------------------ payloads

    def payload(self, seat: int, *, svg: bool = False) -> GamePayload:
        """Everything a seat may know (the session's payload), with ``svg`` the table as
        an interactive SVG picture (``crapette.svg.board``) of the seat's view."""
        out = super().payload(seat)
        if svg:
            out["svg"] = board(observe(self.state, seat), interactive=True)
        return out

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        """The stored form: JSON state and record documents, seats with token digests and
        the game's secret (the store is never shown to a seat)."""
        return {
            "id": self.id,
            "rules": str(self.rules),
            "seed": self.seed,
            "seats": [
                {
                    "kind": s.kind,
                    "name": s.name,
                    "token_hash": self.token_hashes[i],
                    "invite_hash": self.invite_hashes[i],
                    "resigned": s.resigned,
                }
                for i, s in enumerate(self.seats)
            ],
            "match": to_json(self.match),
            "start": to_json(self.start),
            "moves": [[s, t, list(c)] for s, t, c in self.moves],
            "records": list(self.records),
            "version": self.version,
            "undo": self.undo,
            "created": self.created,
            "updated": self.updated,
            "ended": self.ended,
            "fixed": self.fixed,
            "secret": self.secret,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """A game from ``to_dict``'s form."""
        start = from_json(data["start"])
        assert isinstance(start, GameState)
        match = from_json(data["match"])
        assert isinstance(match, Match)
        stored = data["seats"]
        seats = [
            Seat(
                s["kind"],
                s["name"],
                joined=s["kind"] == "bot" or s["token_hash"] is not None,
                resigned=s["resigned"],
            )
            for s in stored
        ]
        return cls(
            data["id"],
            Ruleset.from_string(data["rules"]),
            data["seed"],
            seats,
            match,
            start,
            [(s, t, list(c)) for s, t, c in data["moves"]],
            list(data["records"]),
            data["version"],
            data["undo"],
            data["ended"],
            data["fixed"],
            data["secret"],
            token_hashes=[s["token_hash"] for s in stored],
            invite_hashes=[s["invite_hash"] for s in stored],
            created=data["created"],
            updated=data["updated"],
        )
