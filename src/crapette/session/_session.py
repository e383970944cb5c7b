"""The session: seats, the match, the policy of undo, the hint, the bots and their seeds.

Nothing here knows about HTTP or terminals: the game server maps requests onto these
methods (and a refusal onto an HTTP status), the terminal game maps typed commands onto them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar

import attrs

from crapette import Refusal, apply, legal_moves, refusal
from crapette.bots import Bot, MoveHook, get_bot
from crapette.errors import CrapetteError, IllegalMoveError, InvalidArgumentError, SessionError
from crapette.match import Match, new_match
from crapette.moves import ALL_MOVES, HAND, RESERVE, Action, Move, listed
from crapette.notation import format_move, parse_move
from crapette.outcome import Outcome
from crapette.records import GameRecord
from crapette.rules import Ruleset
from crapette.session.payload import GamePayload, game_payload
from crapette.state import GameState
from crapette.views import observe

if TYPE_CHECKING:
    from crapette.analysis import Hint, Limit
    from crapette.session._review import DealReview

__all__ = ["Seat", "Session", "chosen_secret", "new_secret"]

Status = Literal["waiting", "playing", "deal_over", "over"]
"""Where a session stands (``Session.status``)."""

_NO_UNDO = frozenset(
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

_BOT_MOVES_AT_ONCE = 5000
"""The most bot moves one action lets the bots make (a deal between two bots is played on
by calling ``run_bots`` again)."""

S = TypeVar("S", bound="Session")


def new_secret() -> str:
    """A session's key for its bots' randomness: 256 bits from ``secrets``, as hex."""
    return secrets.token_hex(32)


def chosen_secret(seed: int) -> str:
    """The key of a session dealt from a seed its creator chose: a function of the seed, so
    that such a game (a test, a demonstration, ``crapette play --seed N``) plays the same
    bot moves each time. Its creator knows every card already; nothing is kept from them."""
    return hashlib.sha256(f"crapette: a chosen seed|{seed}".encode()).hexdigest()


@attrs.define
class Seat:
    """One side of the table.

    Attributes:
        kind: ``"human"`` or ``"bot"``.
        name: the bot name (one [`get_bot`][crapette.bots.get_bot] knows), or ``"human"``.
        joined: whether the seat is taken (a bot's always is; a human's once they join:
            ``False`` only for the second human of a server game until they come).
        resigned: whether the seat resigned.
    """

    kind: Literal["human", "bot"]
    name: str
    joined: bool = True
    resigned: bool = False


def _card_texts(state: GameState, move: Move) -> list[str]:
    """The face-up cards a play move takes (visible to both seats before and after)."""
    if move.action is not Action.PLAY:
        return []
    p = state.to_act
    if move.source < 8:
        return [str(c) for c in state.houses[move.source][-move.count :]]
    if move.source == RESERVE:
        return [str(state.reserves[p][-1])] if state.reserve_up[p] else []
    if move.source == HAND:
        return [str(state.turned)] if state.turned is not None else []
    return [str(state.wastes[p][-1])] if state.wastes[p] else []


@attrs.define
class Session:
    """A match between two seats, as its players live it: each action checked (the seat,
    its turn, the version it was chosen at), the bots answering, the policy of undo, the
    hint, each deal's record and each seat's payload.

    Build one with [`Session.new`][crapette.session.Session.new]. A refused action raises
    [`SessionError`][crapette.session.SessionError] (the game server's subclass raises
    ``WebError``, with an HTTP status) and changes nothing.

    Attributes:
        id: the session's name (the game id of a server game).
        rules: the ruleset (with the match format).
        seed: the match seed (the payload shows it only once the match is over).
        seats: the two seats.
        match: the match, current deal included (a resignation included:
            ``Match.resign``).
        start: the start position of the current deal (for the record and undo).
        moves: the moves of the current deal: ``(seat, notation, cards)``, ``cards`` the
            face-up cards a play took.
        records: the finished deals' records, as JSON documents.
        version: bumped by every change; an action may name the version it was chosen at.
        undo: whether a human may take back their own moves against a bot.
        ended: why the match ended early (``"resigned by 0"``), or ``None``.
        fixed: how many moves of the current deal can no longer be taken back (the last
            one that showed a hidden card, ended a turn or was another seat's, and all
            before it).
        secret: the key of the bots' randomness (hex, 256 bits; never shown to a seat).
        on_move: called after each move (a seat's or a bot's) as ``on_move(before, move,
            after)``, as [`play_deal`][crapette.bots.play_deal] calls its hook; not stored.
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
    ended: str | None = None
    fixed: int = 0
    secret: str = attrs.field(factory=new_secret, repr=False)
    on_move: MoveHook | None = attrs.field(default=None, eq=False, repr=False)
    _bots: dict[int, Bot] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    hint_limit: ClassVar[Limit | None] = None
    """The analysis limit of the hints (``None``: ``crapette.analysis.HINT_LIMIT``, 1,024
    play-outs or half a second); a class setting, not stored."""

    hint_deep: ClassVar[int | None] = None
    """The samples of the second stage of the hints (``None``: the analysis's, 16)."""

    review_limit: ClassVar[Limit | None] = None
    """The analysis limit of each move of a review (``None``:
    [`REVIEW_LIMIT`][crapette.session.REVIEW_LIMIT], 256 play-outs or 20 ms); a class
    setting, not stored."""

    review_deep: ClassVar[int | None] = None
    """The samples of the second stage of a review's analyses (``None``:
    [`REVIEW_DEEP`][crapette.session.REVIEW_DEEP], 8)."""

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls: type[S],
        rules: Ruleset,
        *,
        seed: int,
        seats: Sequence[Seat],
        id: str = "",
        undo: bool = True,
        secret: str | None = None,
    ) -> S:
        """A new session, at the first deal of the match of ``seed``. The bots have not
        moved yet: call [`run_bots`][crapette.session.Session.run_bots] (the game server
        does at once; the terminal game once it has drawn the table).

        Args:
            rules: the ruleset, with the match format.
            seed: the match seed.
            seats: seat 0 and seat 1.
            id: the session's name.
            undo: whether a human may take back their own moves against a bot.
            secret: the key of the bots' randomness (default: 256 new random bits; a seed
                its creator chose: [`chosen_secret`][crapette.session.chosen_secret]).

        Raises:
            UnknownBotError: a bot seat names no bot.
            InvalidArgumentError: not two seats.
        """
        if len(seats) != 2:
            raise InvalidArgumentError(f"a session has two seats, not {len(seats)}")
        for seat in seats:
            if seat.kind == "bot":
                get_bot(seat.name)  # an unknown name is refused now, not at the bot's turn
        match = new_match(rules, seed=seed)
        own = [attrs.evolve(seat) for seat in seats]  # (a resignation marks the session's own)
        session = cls(id, rules, seed, own, match, match.state, undo=undo)
        if secret is not None:
            session.secret = secret
        return session

    # ------------------------------------------------------------------ where it stands

    @property
    def state(self) -> GameState:
        """The current deal's state."""
        return self.match.state

    @property
    def waiting(self) -> bool:
        """Whether a seat is not taken yet (the second human of a server game)."""
        return not all(s.joined for s in self.seats)

    @property
    def over(self) -> bool:
        """Whether the match is over (played out, or a seat resigned)."""
        return self.ended is not None or self.match.outcome() is not None

    @property
    def deal_over(self) -> bool:
        """Whether the current deal is over (played out, or resigned)."""
        return self.deal_outcome() is not None

    def deal_outcome(self) -> Outcome | None:
        """How the current deal ended (a resignation included), or ``None``. (A match
        computes its deal's outcome once: asking again costs nothing.)"""
        results = self.match.results
        return results[self.match.number].outcome if len(results) > self.match.number else None

    def status(self) -> Status:
        """``waiting``, ``playing``, ``deal_over`` or ``over``."""
        if self.over:
            return "over"
        if self.deal_over:
            return "deal_over"
        if self.waiting:
            return "waiting"
        return "playing"

    def _changed(self) -> None:
        """Every change calls this: the version goes up."""
        self.version += 1

    def _refusal(
        self, code: str, message: str, reason: dict[str, Any] | None = None
    ) -> SessionError:
        """The error that refuses an action (the game server's names an HTTP status);
        ``reason``: an illegal move's refusal as data (``Refusal.to_dict()``)."""
        return SessionError(code, message, reason)

    # ------------------------------------------------------------------ playing

    def _check_version(self, version: int | None) -> None:
        """Refuse an action chosen at another version (``None``: no version named)."""
        if version is not None and version != self.version:
            raise self._refusal(
                "stale_version",
                f"the game is at version {self.version}, not {version}: reload and choose again",
            )

    def _check_can_act(self, seat: int, version: int | None) -> None:
        if self.over:
            raise self._refusal("game_over", "the game is over")
        if self.deal_over:
            raise self._refusal("deal_over", "the deal is over: start the next deal")
        if self.waiting:
            raise self._refusal("waiting", "the second player has not joined yet")
        self._check_version(version)
        if self.state.to_act != seat:
            raise self._refusal("not_your_turn", f"player {self.state.to_act} is to act, not you")

    def parse(self, seat: int, text: str | None, code: int | None) -> Move:
        """The legal move a seat means by notation or by action code
        ([`Move.index`][crapette.moves.Move.index]).

        Raises:
            SessionError: ``bad_move`` (give exactly one; malformed) or ``illegal_move``.
        """
        state = self.state
        if (text is None) == (code is None):
            raise self._refusal("bad_move", "give exactly one of 'move' (notation) and 'code'")
        try:
            if text is not None:
                move = parse_move(state, text)
            else:
                assert code is not None
                if not 0 <= code < len(ALL_MOVES):
                    raise self._refusal(
                        "bad_move", f"action code {code} is not one of 0..{len(ALL_MOVES) - 1}"
                    )
                move = ALL_MOVES[code]
        except IllegalMoveError as exc:
            data = None if exc.code is None else Refusal(exc.code, exc.params).to_dict()
            raise self._refusal("illegal_move", str(exc), data) from None
        except SessionError:
            raise
        except CrapetteError as exc:
            raise self._refusal("bad_move", str(exc)) from None
        if not listed(move, legal_moves(state)):
            found = refusal(state, move)
            label = text if text is not None else f"code {code}"
            if found is None:  # (cannot be: a move not listed is refused by the rules)
                raise self._refusal("illegal_move", f"{label}: not legal here")
            raise self._refusal("illegal_move", f"{label}: {found}", found.to_dict())
        return move

    def play(
        self,
        seat: int,
        *,
        text: str | None = None,
        code: int | None = None,
        version: int | None = None,
    ) -> None:
        """Play a seat's move, by notation or by action code, then the bots' replies.

        Raises:
            SessionError: the seat may not act (``game_over``, ``deal_over``,
                ``waiting``, ``stale_version``, ``not_your_turn``) or the move is bad
                (``bad_move``, ``illegal_move``); the session is unchanged.
        """
        self._check_can_act(seat, version)
        move = self.parse(seat, text, code)
        self._apply(move)
        self.run_bots()

    def _apply(self, move: Move) -> None:
        before = self.state
        mover = before.to_act
        text = format_move(move)
        entry = (mover, text, _card_texts(before, move))
        self.match = self.match.play(move)
        self.moves.append(entry)
        if not self._may_take_back(before, text):
            self.fixed = len(self.moves)
        after = self.state
        for seat, bot in self._bots.items():  # as play_deal tells a bot of each opponent move
            if seat != mover:
                _tell_opponent_move(bot, move, after, seat)
        self._changed()
        if self.on_move is not None:
            self.on_move(before, move, after)

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

    # ------------------------------------------------------------------ the bots

    def _bot(self, seat: int) -> Bot:
        """The bot of a bot seat for the current deal: built once (its generator seeded
        from the session's key) and kept across its moves."""
        bot = self._bots.get(seat)
        if bot is None:
            bot = get_bot(self.seats[seat].name, seed=self._bot_seed(seat))
            self._catch_up(bot, seat)
            self._bots[seat] = bot
        return bot

    def _bot_seed(self, seat: int) -> int:
        """The seed of a bot built now for ``seat``: 64 bits of HMAC-SHA256 under
        ``secret`` of ``bot|deal|seat|move number`` (the deal counted from 0, the moves
        of the deal made so far)."""
        message = f"bot|{self.match.number}|{seat}|{self.state.moves_made}"
        digest = hmac.new(bytes.fromhex(self.secret), message.encode(), hashlib.sha256)
        return int.from_bytes(digest.digest()[:8], "big")

    def _catch_up(self, bot: Bot, seat: int) -> None:
        """Show a bot built during a deal what ``play_deal`` would have shown it: the
        deal's start, then each of the opponent's moves so far."""
        state = self.start
        start = getattr(bot, "on_deal_start", None)
        if start is not None:
            start(observe(state, seat))
        if not hasattr(bot, "on_opponent_move"):
            return
        for mover, text, _ in self.moves:
            move = parse_move(state, text)
            state = apply(state, move)
            if mover != seat:
                _tell_opponent_move(bot, move, state, seat)

    def run_bots(self, limit: int = _BOT_MOVES_AT_ONCE) -> int:
        """Let bot seats act until a human is to act or the deal ends (at most ``limit``
        moves); returns how many moves they made."""
        done = 0
        while done < limit and not self.deal_over and not self.over:
            seat = self.state.to_act
            if self.seats[seat].kind != "bot":
                break
            move = self._bot(seat).choose(observe(self.state, seat))
            self._apply(move)
            done += 1
        return done

    def advice(self, seat: int) -> Hint:
        """The engine's hint for the seat ([`crapette.analysis.hint`][crapette.analysis.hint]
        at the class's `hint_limit`, with `hint_deep` samples in its second stage): the best
        line with its win chance, the expected deal points and a reason, from the seat's view
        only, seeded with the move number (no secret goes into it).

        Raises:
            SessionError: the seat may not act.
        """
        from crapette.analysis import hint

        self._check_can_act(seat, None)
        view = observe(self.state, seat)
        if self.hint_deep is None:
            return hint(view, self.hint_limit, seed=self.state.moves_made)
        return hint(view, self.hint_limit, seed=self.state.moves_made, deep=self.hint_deep)

    def hint(self, seat: int) -> Move:
        """The move the engine suggests for the seat: the first move of
        [`advice`][crapette.session.Session.advice]'s best line.

        Raises:
            SessionError: the seat may not act.
        """
        return self.advice(seat).move

    def quick_hint(self, seat: int) -> Move:
        """The greedy bot's choice for the seat, from the seat's view (seeded with the move
        number): the hint of the page without a server, whose engine does not run the
        analysis yet.

        Raises:
            SessionError: the seat may not act.
        """
        self._check_can_act(seat, None)
        bot = get_bot("greedy", seed=self.state.moves_made)
        return bot.choose(observe(self.state, seat))

    # ------------------------------------------------------------------ undo

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

    def take_back(self, seat: int, version: int | None = None) -> None:
        """Undo the seat's last move.

        Raises:
            SessionError: ``cannot_undo`` or ``stale_version``.
        """
        self._check_version(version)
        if not self.can_undo(seat):
            raise self._refusal("cannot_undo", "there is no move of yours that may be taken back")
        before = self._replay(len(self.moves) - 1)
        self.match = self.match.with_state(before)
        self.moves.pop()
        self._bots.clear()  # they saw the move: rebuilt (and shown the deal) when next needed
        self._changed()

    def _replay(self, count: int) -> GameState:
        """The current deal's state after its first ``count`` moves."""
        state = self.start
        for _, text, _ in self.moves[:count]:
            state = apply(state, parse_move(state, text))
        return state

    def history(self) -> list[tuple[GameState, Move]]:
        """The current deal so far: each move with the state it was made in."""
        out = []
        state = self.start
        for _, text, _ in self.moves:
            move = parse_move(state, text)
            out.append((state, move))
            state = apply(state, move)
        return out

    # ------------------------------------------------------------------ the match

    def resign(self, seat: int, version: int | None = None) -> None:
        """The seat resigns the whole match: the other seat wins it (decision 20).

        Raises:
            SessionError: ``game_over`` or ``stale_version``.
        """
        if self.over:
            raise self._refusal("game_over", "the game is over")
        self._check_version(version)
        self.match = self.match.resign(seat)
        self.seats[seat].resigned = True
        self.ended = f"resigned by {seat}"
        self._bots.clear()
        self._changed()

    def next_deal(self, seat: int, version: int | None = None, *, bots: bool = True) -> None:
        """Start the next deal of the match once the current one is over; the bots then
        play until a human is to act (unless ``bots`` is false).

        Raises:
            SessionError: ``game_over``, ``stale_version`` or ``deal_running``.
        """
        if self.over:
            raise self._refusal("game_over", "the game is over")
        self._check_version(version)
        if not self.deal_over:
            raise self._refusal("deal_running", "the current deal is not over")
        self.records.append(self.record().to_json())
        self.match = self.match.next_deal()
        self.start = self.match.state
        self.moves = []
        self.fixed = 0
        self._bots.clear()
        self._changed()
        if bots:
            self.run_bots()

    def load(self, start: GameState, moves: Sequence[Move] = ()) -> None:
        """Play on from ``start`` after ``moves`` (a saved game), as the first deal of a
        new match of its rules and the session's seed. None of those moves may be taken
        back.

        Raises:
            IllegalMoveError: a move is not legal where it is made.
        """
        state = start
        played = []
        for move in moves:
            played.append((state.to_act, format_move(move), _card_texts(state, move)))
            state = apply(state, move)
        self.rules = start.rules
        self.match = Match(start.rules, self.seed, (), start, start.to_act).with_state(state)
        self.start = start
        self.moves = played
        self.fixed = len(played)
        self.records = []
        self.ended = None
        for seat in self.seats:
            seat.resigned = False
        self._bots.clear()
        self._changed()

    def finished_record(self, deal: int | None = None) -> tuple[int, GameRecord]:
        """The number and the record of a finished deal of the match (``deal`` from 1;
        default: the current deal, once it is over). A deal's record starts from the full
        position: it is given only once the deal is over.

        Raises:
            SessionError: ``deal_running`` (the deal is not over, or not played yet).
        """
        number = deal if deal is not None else self.match.number + 1
        if 1 <= number <= len(self.records):
            return number, GameRecord.from_json(self.records[number - 1])
        if number == len(self.records) + 1 and (self.deal_over or self.over):
            return number, self.record()
        raise self._refusal("deal_running", "a deal's record is given once the deal is over")

    def review(self, deal: int | None = None) -> DealReview:
        """The engine's review of a finished deal (the deal of
        [`finished_record`][crapette.session.Session.finished_record]) at the class's
        `review_limit`: every move of both players judged from its mover's view;
        [`DealReview.payload`][crapette.session.DealReview.payload] gives it as a seat sees
        it. Never during a deal: a review shows the deal's record.

        Raises:
            SessionError: ``deal_running``.
        """
        from crapette.session._review import DealReview

        number, record = self.finished_record(deal)
        return DealReview.of(record, number, self.review_limit, self.review_deep)

    def record(self) -> GameRecord:
        """The current deal's record (its start written as a ``Position``: no seed)."""
        names = [s.name for s in self.seats]
        return GameRecord.from_moves(
            self.start,
            [text for _, text, _ in self.moves],
            {"Player0": names[0], "Player1": names[1], "Deal": str(self.match.number + 1)},
        )

    # ------------------------------------------------------------------ the payload

    def payload(self, seat: int) -> GamePayload:
        """Everything the seat may know, as JSON-ready data built from its view
        ([`crapette.session.payload`][crapette.session.payload])."""
        return game_payload(self, seat)


def _tell_opponent_move(bot: Bot, move: Move, after: GameState, seat: int) -> None:
    """Call the bot's ``on_opponent_move`` hook, if it has one, with ``seat``'s view."""
    hook = getattr(bot, "on_opponent_move", None)
    if hook is not None:
        hook(move, observe(after, seat))
