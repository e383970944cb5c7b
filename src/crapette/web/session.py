"""One game on the server: a match between two seats (humans or bots), their secret tokens,
the moves of the current deal, and the per-seat JSON payloads.

Nothing here knows about HTTP: ``crapette.web.app`` maps requests onto these methods and
``WebError`` onto JSON error responses. Every payload for a seat is built from
``crapette.observe`` (what that seat sees), never from the full state.

Secrets: the match seed (every card of every deal follows from it) is shown only once the
game is over, and no bot's randomness is derived from it. Each game dealt from a seed the
server drew holds a 256-bit key (``Game.secret``, drawn with ``secrets``, kept in the store
and never sent); a bot seat's generator is seeded with an HMAC-SHA256 of the deal, the
seat and the move number under that key, so the seed revealed after a match predicts none
of the bots' choices. (A game dealt from a seed its creator chose is keyed by that seed,
so that it replays the same bot moves: its creator knows every card anyway.) A bot is built once per
deal and kept across its moves, with the hooks of ``crapette.bots.play_deal``
(``on_deal_start``, ``on_opponent_move``); a bot rebuilt after a restart is shown the deal
so far. The hint is the engine's analysis of the seat's own view, seeded with the move
number: a function of the seat's view and public data only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

import crapette
from crapette import (
    Action,
    GameState,
    Match,
    Move,
    Ruleset,
    from_json,
    new_match,
    observe,
    to_json,
)
from crapette.bots import Bot, Fallible, get_bot, notify_deal_start, notify_opponent_move
from crapette.errors import WebError
from crapette.moves import ALL_MOVES, listed
from crapette.records import GameRecord, format_result
from crapette.svg import board
from crapette.text import describe_move

__all__ = ["HINT_DEEP", "HINT_LIMIT", "MAX_SEARCH_BUDGET", "Game", "Seat", "WebError"]

MAX_SEARCH_BUDGET: Final = 8192
"""The largest search budget a client may ask for (``search:N``, ``planner:N``; the
planner's default)."""

HINT_LIMIT: Any = None
"""The analysis limit of the server's hints (``None``: ``crapette.analysis.HINT_LIMIT``,
1,024 play-outs or half a second)."""

HINT_DEEP: int | None = None
"""The samples of the second stage of the server's hints (``None``: the analysis's, 16)."""

_RECENT_MOVES: Final = 40
"""How many of the opponent's latest moves a payload lists."""

_NO_UNDO: Final = frozenset(
    a.value
    for a in (
        Action.DRAW,
        Action.REVEAL,
        Action.DISCARD,
        Action.END_TURN,
        Action.CALL_STOP,
        Action.LET_STAND,
    )
)
"""The notation of moves that can never be taken back (they show a card or end a turn)."""

_MAX_SEED: Final = 2**63 - 1
"""The largest seed a client may choose (and the range the server draws from)."""

_DEPRECATED: Final = {
    "hash_token": "_hash_token",
    "check_opponent": "_check_opponent",
    "parse_rules": "_parse_rules",
    "RECENT_MOVES": "_RECENT_MOVES",
}
"""Implementation helpers that were public before 0.x; importable with a warning."""


def __getattr__(name: str) -> Any:
    """The deprecated names of ``_DEPRECATED`` (with a ``DeprecationWarning``)."""
    private = _DEPRECATED.get(name)
    if private is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"crapette.web.session.{name} is an implementation helper and will be removed",
        DeprecationWarning,
        stacklevel=2,
    )
    return globals()[private]


def _hash_token(token: str) -> str:
    """The stored form of a secret token (SHA-256, hex): the store never holds tokens."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _token_matches(token: str, digest: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored digest."""
    if digest is None:
        return False
    return hmac.compare_digest(_hash_token(token), digest)


def _new_secret() -> str:
    """A game's key for its bots' randomness: 256 bits from ``secrets``, as hex."""
    return secrets.token_hex(32)


def _chosen_secret(seed: int) -> str:
    """The key of a game dealt from a seed its creator chose: a function of the seed, so
    that such a game (a test, a demonstration) plays the same bot moves each time. Its
    creator knows every card already; nothing is kept from them."""
    return hashlib.sha256(f"crapette: a chosen seed|{seed}".encode()).hexdigest()


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
class Seat:
    """One side of the table.

    Attributes:
        kind: ``"human"`` or ``"bot"``.
        name: the bot name, or ``"human"``.
        token_hash: the digest of the seat's secret token (``None`` until a human joins).
        invite_hash: the digest of the invite token of a free human seat.
        resigned: whether the seat resigned.
    """

    kind: str
    name: str
    token_hash: str | None = None
    invite_hash: str | None = None
    resigned: bool = False


def _card_texts(state: GameState, move: Move) -> list[str]:
    """The face-up cards a play move takes (visible to both seats before and after)."""
    if move.action is not Action.PLAY:
        return []
    p = state.to_act
    if move.source < 8:
        return [str(c) for c in state.houses[move.source][-move.count :]]
    if move.source == crapette.RESERVE:
        return [str(state.reserves[p][-1])] if state.reserve_up[p] else []
    if move.source == crapette.HAND:
        return [str(state.turned)] if state.turned is not None else []
    return [str(state.wastes[p][-1])] if state.wastes[p] else []


@attrs.define
class Game:
    """A match on the server between two seats.

    Attributes:
        id: the public game id.
        rules: the ruleset (with the match format).
        seed: the match seed (never shown to a seat before the match is over).
        seats: the two seats.
        match: the match, current deal included (a resignation included:
            ``Match.resign``).
        start: the start position of the current deal (for the record and undo).
        moves: the moves of the current deal: ``(seat, notation, cards)``.
        records: the finished deals' records, as JSON documents.
        version: bumped by every change; a move must name the version it was chosen at.
        undo: whether a human may take back their own moves against a bot.
        created: creation time (epoch seconds).
        updated: time of the last change.
        ended: why the game ended early (``"resigned by 0"``), or ``None``.
        fixed: how many moves of the current deal can no longer be taken back (the last
            one that showed a hidden card, ended a turn or was another seat's, and all
            before it).
        secret: the game's key for its bots' randomness (hex, 256 bits; stored, never
            sent to a seat).
        on_move: called with the game after each move (not stored): the server collects
            each move's payloads, a bot's reply included, and sends them to the seats
            following the game once the change is stored.
    """

    id: str
    rules: Ruleset
    seed: int
    seats: list[Seat]
    match: Match
    start: GameState
    moves: list[tuple[int, str, list[str]]] = attrs.field(factory=list)
    records: list[str] = attrs.field(factory=list)
    version: int = 0
    undo: bool = True
    created: float = attrs.field(factory=time.time)
    updated: float = attrs.field(factory=time.time)
    ended: str | None = None
    fixed: int = 0
    secret: str = attrs.field(factory=_new_secret, repr=False)
    on_move: Callable[[Game], None] | None = attrs.field(default=None, eq=False, repr=False)
    _bots: dict[int, Bot] = attrs.field(factory=dict, init=False, eq=False, repr=False)

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
        """A new game; returns it, the creator's token and the invite token (human
        opponent) or ``None``. ``secret`` is the key of its bots' randomness (default: 256
        new random bits)."""
        token = secrets.token_urlsafe(32)
        invite = secrets.token_urlsafe(24) if opponent == "human" else None
        mine = Seat("human", "human", token_hash=_hash_token(token))
        if invite is not None:
            other = Seat("human", "human", invite_hash=_hash_token(invite))
        else:
            other = Seat("bot", opponent)
        seats = [mine, other] if seat == 0 else [other, mine]
        match = new_match(rules, seed=seed)
        game = cls(game_id, rules, seed, seats, match, match.state, undo=undo)
        if secret is not None:
            game.secret = secret
        game.run_bots()
        return game, token, invite

    # ------------------------------------------------------------------ seats

    def seat_of(self, token: str) -> int:
        """The seat whose token this is.

        Raises:
            WebError: 401 ``bad_token``.
        """
        found = -1
        for i, seat in enumerate(self.seats):
            if _token_matches(token, seat.token_hash):
                found = i
        if found < 0:
            raise WebError(401, "bad_token", "this token is not a seat of this game")
        return found

    def join(self, invite: str) -> tuple[int, str]:
        """Take the free human seat with its invite token; returns the seat and its token.

        Raises:
            WebError: 403 ``bad_invite`` (wrong, used or no invite).
        """
        for i, seat in enumerate(self.seats):
            if seat.invite_hash is not None and _token_matches(invite, seat.invite_hash):
                token = secrets.token_urlsafe(32)
                seat.token_hash = _hash_token(token)
                seat.invite_hash = None
                self._changed()
                return i, token
        raise WebError(403, "bad_invite", "this invite is wrong or already used")

    @property
    def waiting(self) -> bool:
        """Whether a human seat is still free."""
        return any(s.token_hash is None and s.kind == "human" for s in self.seats)

    @property
    def state(self) -> GameState:
        """The current deal's state."""
        return self.match.state

    @property
    def over(self) -> bool:
        """Whether the game is over (match over or a seat resigned)."""
        return self.ended is not None or self.match.outcome() is not None

    @property
    def deal_over(self) -> bool:
        """Whether the current deal is over (played out, or resigned)."""
        return self.deal_outcome() is not None

    def deal_outcome(self) -> crapette.Outcome | None:
        """How the current deal ended (a resignation included), or ``None``."""
        results = self.match.results
        return results[self.match.number].outcome if len(results) > self.match.number else None

    def status(self) -> str:
        """``waiting``, ``playing``, ``deal_over`` or ``over``."""
        if self.over:
            return "over"
        if self.deal_over:
            return "deal_over"
        if self.waiting:
            return "waiting"
        return "playing"

    def _changed(self) -> None:
        self.version += 1
        self.updated = time.time()

    # ------------------------------------------------------------------ playing

    def _check_version(self, version: int | None) -> None:
        """Refuse a request made at another version (``None``: no version named).

        Raises:
            WebError: 409 ``stale_version``.
        """
        if version is not None and version != self.version:
            raise WebError(
                409,
                "stale_version",
                f"the game is at version {self.version}, not {version}: reload and choose again",
            )

    def _check_can_act(self, seat: int, version: int | None) -> None:
        if self.over:
            raise WebError(409, "game_over", "the game is over")
        if self.deal_over:
            raise WebError(409, "deal_over", "the deal is over: start the next deal")
        if self.waiting:
            raise WebError(409, "waiting", "the second player has not joined yet")
        self._check_version(version)
        if self.state.to_act != seat:
            raise WebError(409, "not_your_turn", f"player {self.state.to_act} is to act, not you")

    def parse(self, seat: int, text: str | None, code: int | None) -> Move:
        """The legal move a seat means by notation or by action code.

        Raises:
            WebError: 422 ``bad_move`` (give exactly one; malformed; illegal here).
        """
        state = self.state
        if (text is None) == (code is None):
            raise WebError(422, "bad_move", "give exactly one of 'move' (notation) and 'code'")
        try:
            if text is not None:
                move = crapette.parse_move(state, text)
            else:
                assert code is not None
                if not 0 <= code < len(ALL_MOVES):
                    raise WebError(
                        422,
                        "bad_move",
                        f"action code {code} is not one of 0..{len(ALL_MOVES) - 1}",
                    )
                move = ALL_MOVES[code]
        except crapette.IllegalMoveError as exc:
            raise WebError(422, "illegal_move", str(exc)) from None
        except crapette.CrapetteError as exc:
            raise WebError(422, "bad_move", str(exc)) from None
        if not listed(move, crapette.legal_moves(state)):
            reason = crapette.why_illegal(state, move) or "not legal here"
            label = text if text is not None else f"code {code}"
            raise WebError(422, "illegal_move", f"{label}: {reason}")
        return move

    def play(self, seat: int, *, text: str | None, code: int | None, version: int | None) -> None:
        """Play a seat's move, then the bots' replies.

        Raises:
            WebError: the seat may not act, or the move is bad (the game is unchanged).
        """
        self._check_can_act(seat, version)
        move = self.parse(seat, text, code)
        self._apply(move)
        self.run_bots()

    def _apply(self, move: Move) -> None:
        before = self.state
        mover = before.to_act
        text = crapette.format_move(move)
        entry = (mover, text, _card_texts(before, move))
        self.match = self.match.play(move)
        self.moves.append(entry)
        if not self._may_take_back(before, text):
            self.fixed = len(self.moves)
        after = self.state
        for seat, bot in self._bots.items():  # as play_deal tells a bot of each opponent move
            if seat != mover:
                notify_opponent_move(bot, move, observe(after, seat))
        self._changed()
        if self.on_move is not None:
            self.on_move(self)

    def _may_take_back(self, before: GameState, text: str) -> bool:
        """Whether the move just played from ``before`` may be taken back: a move of a human
        against bots that ended no turn, did not end the deal, and showed neither seat a
        card it could not see before (a reserve play that turns up the next reserve card
        shows one)."""
        if not self.undo or text in _NO_UNDO or self.deal_over:
            return False
        mover = before.to_act
        if any(s.kind != "bot" for i, s in enumerate(self.seats) if i != mover):
            return False
        after = self.state
        for seat in (0, 1):
            seen = set(observe(before, seat).visible_cards())
            if not seen.issuperset(observe(after, seat).visible_cards()):
                return False
        return True

    def _bot(self, seat: int) -> Bot:
        """The bot of a bot seat for the current deal: built once (its generator seeded
        from the game's secret) and kept across its moves."""
        bot = self._bots.get(seat)
        if bot is None:
            bot = get_bot(self.seats[seat].name, seed=self._bot_seed(seat))
            self._catch_up(bot, seat)
            self._bots[seat] = bot
        return bot

    def _bot_seed(self, seat: int) -> int:
        """A bot's seed: 64 bits of HMAC-SHA256 under ``secret`` of the deal, the seat and
        the move number at which the bot is built."""
        message = f"bot|{self.match.number}|{seat}|{self.state.moves_made}"
        digest = hmac.new(bytes.fromhex(self.secret), message.encode(), hashlib.sha256)
        return int.from_bytes(digest.digest()[:8], "big")

    def _catch_up(self, bot: Bot, seat: int) -> None:
        """Show a bot built during a deal what ``play_deal`` would have shown it: the
        deal's start, then each of the opponent's moves so far."""
        state = self.start
        notify_deal_start(bot, observe(state, seat))
        if not hasattr(bot, "on_opponent_move"):
            return
        for mover, text, _ in self.moves:
            move = crapette.parse_move(state, text)
            state = crapette.apply(state, move)
            if mover != seat:
                notify_opponent_move(bot, move, observe(state, seat))

    def run_bots(self, limit: int = 5000) -> int:
        """Let bot seats act until a human is to act or the deal ends; returns the count."""
        done = 0
        while done < limit and not self.deal_over and not self.over:
            seat = self.state.to_act
            if self.seats[seat].kind != "bot":
                break
            move = self._bot(seat).choose(observe(self.state, seat))
            self._apply(move)
            done += 1
        return done

    def hint(self, seat: int) -> Move:
        """The move the engine suggests for the seat: the first move of
        [`advice`][crapette.web.session.Game.advice]'s best line.

        Raises:
            WebError: the seat may not act.
        """
        move: Move = self.advice(seat).move
        return move

    def advice(self, seat: int) -> Any:
        """The engine's hint for the seat ([`crapette.analysis.hint`][crapette.analysis.hint]
        at [`HINT_LIMIT`][crapette.web.session.HINT_LIMIT]): the best line with its win
        chance and a reason, from the seat's view only, seeded with the move number (no
        secret goes into it).

        Raises:
            WebError: the seat may not act.
        """
        from crapette.analysis import hint

        self._check_can_act(seat, None)
        view = observe(self.state, seat)
        if HINT_DEEP is None:
            return hint(view, HINT_LIMIT, seed=self.state.moves_made)
        return hint(view, HINT_LIMIT, seed=self.state.moves_made, deep=HINT_DEEP)

    def can_undo(self, seat: int) -> bool:
        """Whether the seat may take back its last move: only against a bot, only its own
        move of the current turn while the deal runs, and never a move that showed a card
        hidden before (a reserve card turned up, a draw, a reveal) or ended the turn (a
        discard, a Stop! decision)."""
        if not self.undo or self.over or self.deal_over or len(self.moves) <= self.fixed:
            return False
        if any(s.kind != "bot" for i, s in enumerate(self.seats) if i != seat):
            return False
        last_seat = self.moves[-1][0]
        return last_seat == seat and self.state.to_act == seat and self.state.stop is None

    def take_back(self, seat: int, version: int | None) -> None:
        """Undo the seat's last move.

        Raises:
            WebError: 409 ``cannot_undo`` or ``stale_version``.
        """
        self._check_version(version)
        if not self.can_undo(seat):
            raise WebError(409, "cannot_undo", "there is no move of yours that may be taken back")
        before = self._replay(len(self.moves) - 1)
        self.match = self.match.with_state(before)
        self.moves.pop()
        self._bots.clear()  # they saw the move: rebuilt (and shown the deal) when next needed
        self._changed()

    def _replay(self, count: int) -> GameState:
        state = self.start
        for _, text, _ in self.moves[:count]:
            state = crapette.apply(state, crapette.parse_move(state, text))
        return state

    def resign(self, seat: int, version: int | None = None) -> None:
        """The seat resigns the whole game: the other seat wins the match (decision 20).

        Raises:
            WebError: 409 ``game_over`` or ``stale_version``.
        """
        if self.over:
            raise WebError(409, "game_over", "the game is over")
        self._check_version(version)
        self.match = self.match.resign(seat)
        self.seats[seat].resigned = True
        self.ended = f"resigned by {seat}"
        self._bots.clear()
        self._changed()

    def next_deal(self, seat: int, version: int | None = None) -> None:
        """Start the next deal of the match once the current one is over.

        Raises:
            WebError: 409 when the deal runs, the game is over or the version is stale.
        """
        if self.over:
            raise WebError(409, "game_over", "the game is over")
        self._check_version(version)
        if not self.deal_over:
            raise WebError(409, "deal_running", "the current deal is not over")
        self.records.append(to_json(self.record()))
        self.match = self.match.next_deal()
        self.start = self.match.state
        self.moves = []
        self.fixed = 0
        self._bots.clear()
        self._changed()
        self.run_bots()

    def record(self) -> GameRecord:
        """The current deal's record (its start written as a ``Position``: no seed)."""
        names = [s.name for s in self.seats]
        return GameRecord.from_moves(
            self.start,
            [text for _, text, _ in self.moves],
            {"Player0": names[0], "Player1": names[1], "Deal": str(self.match.number + 1)},
        )

    # ------------------------------------------------------------------ payloads

    def payload(self, seat: int, *, svg: bool = False) -> dict[str, Any]:
        """Everything a seat may know, as JSON-ready data (built from its view)."""
        state = self.state
        view = observe(state, seat)
        result = self.deal_outcome()
        acting = not self.over and result is None and not self.waiting and state.to_act == seat
        legal: list[dict[str, Any]] = []
        if acting:
            for move in crapette.legal_moves(state):
                legal.append(_move_entry(state, move))
        out: dict[str, Any] = {
            "game_id": self.id,
            "seat": seat,
            "version": self.version,
            "status": self.status(),
            "rules": str(self.rules),
            "players": [
                {
                    "kind": s.kind,
                    "name": s.name,
                    "joined": s.token_hash is not None or s.kind == "bot",
                }
                for s in self.seats
            ],
            "to_act": view.to_act,
            "turn_player": view.turn_player,
            "your_turn": acting,
            "view": _view_json(view, state),
            "legal_moves": legal,
            "last_moves": self._recent(seat),
            "outcome": _outcome_json(result, state),
            "match": self._match_json(),
            "can_undo": self.can_undo(seat),
            "ended": self.ended,
        }
        if svg:
            out["svg"] = _svg(view)
        return out

    def _recent(self, seat: int) -> list[dict[str, Any]]:
        """The other seat's moves since this seat's last move (at most _RECENT_MOVES)."""
        out: list[dict[str, Any]] = []
        for number in range(len(self.moves) - 1, -1, -1):
            who, text, cards = self.moves[number]
            if who == seat:
                break
            entry = {"number": number + 1, "seat": who, "move": text, "cards": cards}
            entry.update(_ends(text, who))
            out.append(entry)
            if len(out) >= _RECENT_MOVES:
                break
        out.reverse()
        return out

    def _match_json(self) -> dict[str, Any]:
        match = self.match
        finished = self.over
        done = match.outcome()
        return {
            "deal": match.number + 1,
            "target": self.rules.match_target,
            "deals": self.rules.match_deals,
            "totals": list(match.totals),
            "results": [
                {
                    "winner": r.outcome.winner,
                    "scores": list(r.outcome.scores),
                    "reason": r.outcome.reason,
                }
                for r in match.results
            ],
            "over": finished,
            "winner": done.winner if done is not None else None,
            "resigned": match.resigned,
            "seed": str(self.seed) if finished else None,
        }

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        """The stored form: JSON state and record documents, seats with token digests and
        the game's secret (the store is never shown to a seat)."""
        return {
            "id": self.id,
            "rules": str(self.rules),
            "seed": self.seed,
            "seats": [attrs.asdict(s) for s in self.seats],
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
        """A game from ``to_dict``'s form (also the form before ``fixed`` and ``secret``:
        none of its moves may be taken back, and it gets a new secret)."""
        rules = Ruleset.from_string(data["rules"])
        start = from_json(data["start"])
        assert isinstance(start, GameState)
        match = from_json(data["match"])
        assert isinstance(match, Match)
        moves = [(s, t, list(c)) for s, t, c in data["moves"]]
        seats = [Seat(**s) for s in data["seats"]]
        ended = data["ended"]
        if match.resigned is None and match.outcome() is None:
            for i, seat in enumerate(seats):  # a game resigned before resignations were stored
                if seat.resigned:
                    match = match.resign(i)
                    break
        return cls(
            data["id"],
            rules,
            data["seed"],
            seats,
            match,
            start,
            moves,
            list(data["records"]),
            data["version"],
            data["undo"],
            data["created"],
            data["updated"],
            ended,
            fixed=data.get("fixed", len(moves)),
            secret=data.get("secret") or _new_secret(),
        )


def _move_entry(state: GameState, move: Move) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "code": move.index,
        "notation": crapette.format_move(move),
        "description": describe_move(state, move),
        "action": move.action.value,
    }
    if move.is_play:
        entry["from"] = _pile_name(state, move.source, own=True)
        entry["to"] = _pile_name(state, move.target, own=False)
        entry["count"] = move.count
        if state.rules.callable_stop:
            entry["violation"] = crapette.apply(state, move).stop is not None
    return entry


def _ends(text: str, seat: int) -> dict[str, str]:
    """The absolute pile names (``from``, ``to``) of a play move's notation by ``seat``."""
    if "-" not in text:
        return {}
    source, _, target = text.partition("-")
    target = target.partition("x")[0]
    own = {"R": f"R{seat}", "W": f"W{seat}", "T": "T"}
    return {"from": own.get(source, source), "to": target}


def _pile_name(state: GameState, code: int, *, own: bool) -> str:
    """A pile's absolute name as the SVG renderer writes it (``H3``, ``R0``, ``W1``, ``T``,
    ``F``)."""
    p = state.to_act
    if code < 8:
        return f"H{code + 1}"
    names = {
        crapette.RESERVE: f"R{p}",
        crapette.HAND: "T",
        crapette.WASTE: f"W{p}",
        crapette.FOUNDATION: "F",
        crapette.OPP_RESERVE: f"R{1 - p}",
        crapette.OPP_WASTE: f"W{1 - p}",
    }
    return names[code]


def _pile(pile: Sequence[object]) -> list[str]:
    return [str(c) for c in pile]


def _view_json(view: crapette.PlayerView, state: GameState) -> dict[str, Any]:
    stop = None
    pending = state.stop
    if view.stop is not None and pending is not None:
        s = view.stop
        stop = {
            "move": crapette.format_move(pending.move),
            "description": _their(describe_move(pending.prior, pending.move)),
            "offender": s.offender,
            "resume": s.resume,
        }
    return {
        "player": view.player,
        "foundations": [_pile(p) for p in view.foundations],
        "houses": [_pile(p) for p in view.houses],
        "reserves": [
            {"down": view.reserves_down[p], "up": _pile(view.reserves_up[p])} for p in (0, 1)
        ],
        "hands": list(view.hand_sizes),
        "wastes": [_pile(w) for w in view.wastes],
        "turned": str(view.turned) if view.turned is not None else None,
        "stop": stop,
        "moves_made": view.moves_made,
    }


def _their(text: str) -> str:
    """A move description written for its mover, reworded for the opponent."""
    return text.replace("your opponent's", "\0").replace("your ", "their ").replace("\0", "your")


def _outcome_json(result: crapette.Outcome | None, state: GameState) -> dict[str, Any] | None:
    if result is None:
        return None
    rules = state.rules
    return {
        "winner": result.winner,
        "scores": list(result.scores),
        "reason": result.reason,
        "text": format_result(result),
        "tally": [_tally(state, p) for p in (0, 1)],
        "points": {
            "reserve": rules.reserve_points,
            "hand": rules.hand_points,
            "win_bonus": rules.win_bonus if result.winner is not None else 0,
        },
    }


def _tally(state: GameState, player: int) -> dict[str, int]:
    """A player's cards left at the end of a deal, by pile, and what they count (docs/rules.md,
    "The end of a deal and the score"; a turned hand card counts as a hand card): the
    figures a result panel shows beside the scores."""
    rules = state.rules
    reserve = len(state.reserves[player])
    hand = len(state.hands[player]) + (state.turned is not None and state.turn_player == player)
    waste = len(state.wastes[player])
    return {
        "reserve": reserve,
        "hand": hand,
        "waste": waste,
        "count": rules.reserve_points * reserve + rules.hand_points * (hand + waste),
    }


def _svg(view: crapette.PlayerView) -> str:
    """The view as an interactive SVG table: the one renderer, ``crapette.svg.board``."""
    return board(view, interactive=True)
