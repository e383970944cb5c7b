"""The payload: everything one seat of a session may know, as JSON-ready data, cards as
text (``7H``).

The typed dicts below are the one definition of its shape. The functions below them build
each part by calling its typed dict, so mypy checks every key and every value against the
definition; the game server documents its answers with the same classes (its OpenAPI
schema is generated from them), and ``web/static/local.js``, the page without a server,
builds the same payloads (``tests/test_web_local.py`` compares them).

Every payload is built from [`observe`][crapette.observe] (what the seat sees), never from
the full state, except what both seats see (the face-up cards a move took, a finished
deal's cards left, by count).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

try:  # pydantic (the game server's schema) reads typing_extensions' typed dicts only
    from typing_extensions import TypedDict
except ImportError:  # pragma: no cover - without the web extra nothing reads the schema
    from typing import TypedDict

from crapette import apply, legal_moves
from crapette.moves import FOUNDATION, HAND, OPP_RESERVE, OPP_WASTE, RESERVE, WASTE, Move
from crapette.notation import format_move
from crapette.outcome import Outcome
from crapette.records import format_result
from crapette.state import GameState
from crapette.text import describe_move
from crapette.views import PlayerView, observe

if TYPE_CHECKING:
    from crapette.session._session import Session

__all__ = [
    "DealInfo",
    "FaultInfo",
    "GamePayload",
    "LastMove",
    "LegalMove",
    "LineMove",
    "MatchInfo",
    "MovesPayload",
    "OutcomeInfo",
    "PlayerInfo",
    "PointsInfo",
    "PuzzleInfo",
    "PuzzleList",
    "PuzzlePosition",
    "PuzzleVerdict",
    "ReasonInfo",
    "ReserveView",
    "ReviewDecision",
    "ReviewPayload",
    "StopInfo",
    "TallyInfo",
    "ViewPayload",
    "game_payload",
    "last_moves",
    "legal_move",
    "match_info",
    "outcome_info",
    "view_payload",
]

RECENT_MOVES: Final = 40
"""How many of the opponent's latest moves a payload lists at most."""

ActionName = Literal["play", "reveal", "draw", "discard", "end", "stop", "pass", "flip"]
"""A move's action (``Move.action.value``)."""

# ---------------------------------------------------------------------------- the shape


class PlayerInfo(TypedDict):
    """A seat of the game."""

    kind: Literal["human", "bot"]
    name: str
    """The bot's name, or ``human``."""
    joined: bool
    """Whether the seat is taken (a bot's always is)."""


class ReserveView(TypedDict):
    """A reserve as a seat sees it."""

    down: int
    """How many cards lie face down."""
    up: list[str]
    """The face-up cards, bottom to top."""


class StopInfo(TypedDict):
    """A priority violation awaiting the Stop! decision."""

    move: str
    description: str
    """The move, in English, for the seat that sees it."""
    offender: int
    resume: int
    """Who plays on after the decision."""


class ViewPayload(TypedDict):
    """What the seat sees (built from ``crapette.observe``); cards as text (``7H``)."""

    player: int
    foundations: list[list[str]]
    houses: list[list[str]]
    reserves: list[ReserveView]
    hands: list[int]
    """Each hand's size (hands are face down)."""
    wastes: list[list[str]]
    turned: str | None
    stop: StopInfo | None
    moves_made: int
    false_calls: list[int]
    """Each player's false calls of the deal (counted under ``false_call="rationed"``, which
    allows 3; ``[0, 0]`` under other rules)."""


class _LegalMoveBase(TypedDict):
    code: int
    """The move's action code (``crapette.Move.index``)."""
    notation: str
    """The move's text, as ``POST /moves`` takes it (``R-F``, ``draw``)."""
    description: str
    """The move in plain English."""
    action: ActionName


_PlayEnds = TypedDict(
    "_PlayEnds", {"from": str, "to": str, "count": int, "violation": bool}, total=False
)
"""A play's source pile (``from``: ``H3``, ``R0``, ``T``, ``W1``), target pile (``to``:
``F`` for a foundation, ``H5``, ``R1``, ``W0``) and card count; under callable Stop! rules,
whether it breaks the priority rules (``violation``)."""


class LegalMove(_LegalMoveBase, _PlayEnds):
    """A legal move of the seat to act. A play has ``from``, ``to`` and ``count`` (and
    ``violation`` under callable Stop! rules: whether it breaks the priority rules); the
    other moves have none of them."""


class _LastMoveBase(TypedDict):
    number: int
    """The move's number in the deal, from 1."""
    seat: int
    move: str
    cards: list[str]
    """The face-up cards the move took."""


_MoveEnds = TypedDict("_MoveEnds", {"from": str, "to": str}, total=False)
"""A play's source and target piles, absolute (``R1``, ``H3``)."""


class LastMove(_LastMoveBase, _MoveEnds):
    """One of the opponent's latest moves (a play has ``from`` and ``to``)."""


class TallyInfo(TypedDict):
    """A player's cards left at the end of a deal, by pile, and what they count."""

    reserve: int
    hand: int
    """Hand cards, a turned hand card included."""
    waste: int
    count: int
    """``reserve`` times the reserve points plus ``hand + waste`` times the hand points."""


class PointsInfo(TypedDict):
    """The scoring options the deal was counted with."""

    reserve: int
    """Points per reserve card (2)."""
    hand: int
    """Points per hand or waste card (1)."""
    win_bonus: int
    """The bonus the winner scored (30; 0 when nobody won)."""


class OutcomeInfo(TypedDict):
    """How the deal ended: the winner's score is ``win_bonus`` plus the loser's count; with
    no winner the lower count scores the difference."""

    winner: int | None
    scores: list[int]
    reason: Literal["win", "stalemate", "move_cap", "resigned"]
    """``resigned``: the loser resigned during the deal (it is then the opponent's win)."""
    text: str
    tally: list[TallyInfo]
    """Each player's cards left, by pile (index: player)."""
    points: PointsInfo


class DealInfo(TypedDict):
    """A finished deal of the match."""

    winner: int | None
    scores: list[int]
    reason: str


class MatchInfo(TypedDict):
    """The match's progress."""

    deal: int
    target: int | None
    deals: int | None
    totals: list[int]
    results: list[DealInfo]
    over: bool
    winner: int | None
    """Who won the match (once it is over; a resignation gives it to the opponent)."""
    resigned: int | None
    """The seat that resigned, or ``None``."""
    seed: str | None
    """The match seed as a decimal string (``JSON.parse`` keeps it exact), shown once the
    game is over."""


class _GamePayloadBase(TypedDict):
    game_id: str
    seat: int
    version: int
    status: Literal["waiting", "playing", "deal_over", "over"]
    rules: str
    players: list[PlayerInfo]
    to_act: int
    turn_player: int
    your_turn: bool
    view: ViewPayload
    legal_moves: list[LegalMove]
    """Empty unless the seat is to act."""
    last_moves: list[LastMove]
    """The other seat's moves since this seat's last move (at most 40)."""
    outcome: OutcomeInfo | None
    match: MatchInfo
    can_undo: bool
    ended: str | None


class GamePayload(_GamePayloadBase, total=False):
    """Everything a seat may know of its game (``svg``: the game server's picture of the
    seat's view, when asked for)."""

    svg: str


class MovesPayload(TypedDict):
    """The seat's legal moves at a version."""

    version: int
    legal_moves: list[LegalMove]


class _LineMoveBase(TypedDict):
    move: str
    """The move in notation, as its mover writes it (``R-F``, ``H2-OW``, ``draw``)."""
    player: int
    """Who makes it."""
    count: int
    """The cards a play moves (0 for a move that is not a play)."""
    cards: list[str]
    """The face-up cards it moves (a play), or the card it shows to both players (the card
    a ``draw`` turned, the reserve card a ``reveal`` turned up); empty when that card is not
    known at the position (the last move of a line)."""


class LineMove(_LineMoveBase, _MoveEnds):
    """A move of a review or a puzzle, with what a page needs to say it and to draw it: a
    play has ``from`` and ``to``, absolute pile names (``R1``, ``H3``, ``F``, ``T``)."""


class ReasonInfo(TypedDict):
    """A rule's reason as data: a reason code of the rule spec (``crapette._spec.REASONS``;
    a page says it with the catalogue key ``reason.<code>``) and its parameters."""

    code: str
    params: dict[str, Any]


class FaultInfo(TypedDict):
    """A breach of the Stop! rules at a move (callable Stop! rules only), as data and in
    English."""

    kind: Literal["missed_compulsory", "missed_call", "false_call"]
    """``missed_compulsory``: the move broke a priority rule; ``missed_call``: a violation
    let stand when calling Stop! would have helped; ``false_call``: a call that did not."""
    rule: str | None
    """The priority rule at stake (``reserve``, ``foundation``, ``order``, ``filling``)."""
    reason: ReasonInfo | None
    """For a missed compulsory move, the rule's reason as data."""
    remedy: list[LineMove]
    """The compulsory move(s) that were missed."""
    about: LineMove | None
    """For a missed or false call, the opponent's move that broke the rule."""
    text: str
    """The fault in English."""


class ReviewDecision(TypedDict):
    """One move of a reviewed deal, judged from its mover's view."""

    ply: int
    """The move's number in the deal (1 for the first)."""
    played: LineMove
    forced: bool
    """It was the only legal move (not analysed)."""
    judgment: Literal["inaccuracy", "mistake", "blunder"] | None
    win_before: float | None
    """The mover's win chance with the best line."""
    win_after: float | None
    """The mover's win chance with the best line that starts with the move played."""
    loss: float | None
    """The win chance lost against the best line (0 for a best move)."""
    best: list[LineMove]
    """The best line from the position (empty when the move was not analysed)."""
    fault: FaultInfo | None
    turn_player: int
    view: ViewPayload
    """The board before the move, as the reviewing seat saw it."""


class ReviewPayload(TypedDict):
    """A finished deal reviewed for a seat: every move of both players judged (annotated by
    the engine from each mover's own view) with the board before it."""

    deal: int
    rules: str
    seat: int
    """The reviewing seat (its side at the bottom of each board)."""
    limit: str
    """The analysis limit per move (``rollouts=256,time=0.02,deep=8``)."""
    accuracy: list[float | None]
    """Each player's accuracy in percent (``None`` without a judged move)."""
    decisions: list[ReviewDecision]
    end: ViewPayload
    """The board after the last move."""
    end_turn_player: int


class PuzzleInfo(TypedDict):
    """A puzzle of the shipped set, as listed (never its solution)."""

    number: int
    """Its number in the set, from 1."""
    id: str
    rules: str
    theme: Literal["win", "reserve", "stop", "buried", "loading", "best"]
    player: int
    """The solver's seat."""
    length: int
    """How many moves the solution has."""


class PuzzleList(TypedDict):
    """The shipped puzzle set."""

    puzzles: list[PuzzleInfo]


class PuzzlePosition(TypedDict):
    """A puzzle's position after the solver's moves so far, as a seat's payload (the
    solver's seat, built from the solver's view)."""

    puzzle: PuzzleInfo
    line: list[str]
    """The solver's moves so far, in notation."""
    moves: list[LineMove]
    """The same moves, with their piles and cards (to say them)."""
    complete: bool
    """Whether the line is whole (it shows a new card, ends the turn, wins the deal or
    reaches a Stop! decision): nothing more may be played, the line may be checked."""
    game: GamePayload


class PuzzleVerdict(TypedDict):
    """The engine's check of an answer."""

    number: int
    correct: bool
    verdict: Literal["solution", "equivalent", "worse", "partial"]
    """``solution``: the solution itself; ``equivalent``: another line the engine values as
    much (or the same moves in another order); ``worse``: a line worth less; ``partial``:
    not a whole line."""
    win: float | None
    """The answer's win chance (``None`` for a partial line)."""
    best: float | None
    """The solution's win chance, on the same samples."""
    solution: list[LineMove]
    message: str
    """The verdict in English."""


_SCHEMAS: tuple[type, ...] = (
    PlayerInfo,
    ReserveView,
    StopInfo,
    ViewPayload,
    LegalMove,
    LastMove,
    TallyInfo,
    PointsInfo,
    OutcomeInfo,
    DealInfo,
    MatchInfo,
    GamePayload,
    MovesPayload,
    LineMove,
    ReasonInfo,
    FaultInfo,
    ReviewDecision,
    ReviewPayload,
    PuzzleInfo,
    PuzzleList,
    PuzzlePosition,
    PuzzleVerdict,
)
for _schema in _SCHEMAS:  # closed: a key not defined here is an error (for pydantic)
    _schema.__pydantic_config__ = {"extra": "forbid"}  # type: ignore[attr-defined]

# ---------------------------------------------------------------------------- building it


def game_payload(session: Session, seat: int) -> GamePayload:
    """Everything ``seat`` may know of ``session``, built from its view."""
    state = session.state
    view = observe(state, seat)
    result = session.deal_outcome()
    acting = not session.over and result is None and not session.waiting
    acting = acting and state.to_act == seat
    return GamePayload(
        game_id=session.id,
        seat=seat,
        version=session.version,
        status=session.status(),
        rules=str(session.rules),
        players=[PlayerInfo(kind=s.kind, name=s.name, joined=s.joined) for s in session.seats],
        to_act=view.to_act,
        turn_player=view.turn_player,
        your_turn=acting,
        view=view_payload(view, state),
        legal_moves=[legal_move(state, m) for m in legal_moves(state)] if acting else [],
        last_moves=last_moves(session.moves, seat),
        outcome=outcome_info(result, state),
        match=match_info(session),
        can_undo=session.can_undo(seat),
        ended=session.ended,
    )


def legal_move(state: GameState, move: Move) -> LegalMove:
    """The entry of a legal move of the player to act."""
    entry = LegalMove(
        code=move.index,
        notation=format_move(move),
        description=describe_move(state, move),
        action=_ACTIONS[move.action.value],
    )
    if move.is_play:
        entry["from"] = _pile_name(state, move.source)
        entry["to"] = _pile_name(state, move.target)
        entry["count"] = move.count
        if state.rules.callable_stop:
            entry["violation"] = apply(state, move).stop is not None
    return entry


_ACTIONS: Final[dict[str, ActionName]] = {
    "play": "play",
    "reveal": "reveal",
    "draw": "draw",
    "discard": "discard",
    "end": "end",
    "stop": "stop",
    "pass": "pass",
    "flip": "flip",
}


def last_moves(moves: Sequence[tuple[int, str, list[str]]], seat: int) -> list[LastMove]:
    """The other seat's moves since ``seat``'s last move (at most ``RECENT_MOVES``), from
    a session's ``moves``."""
    out: list[LastMove] = []
    for number in range(len(moves) - 1, -1, -1):
        who, text, cards = moves[number]
        if who == seat:
            break
        entry = LastMove(number=number + 1, seat=who, move=text, cards=cards)
        if "-" in text:
            source, _, target = text.partition("-")
            own = {"R": f"R{who}", "W": f"W{who}", "T": "T"}
            entry["from"] = own.get(source, source)
            entry["to"] = target.partition("x")[0]
        out.append(entry)
        if len(out) >= RECENT_MOVES:
            break
    out.reverse()
    return out


def _pile_name(state: GameState, code: int) -> str:
    """A pile's absolute name as the SVG renderer writes it (``H3``, ``R0``, ``W1``, ``T``,
    ``F``)."""
    p = state.to_act
    if code < 8:
        return f"H{code + 1}"
    names = {
        RESERVE: f"R{p}",
        HAND: "T",
        WASTE: f"W{p}",
        FOUNDATION: "F",
        OPP_RESERVE: f"R{1 - p}",
        OPP_WASTE: f"W{1 - p}",
    }
    return names[code]


def _pile(pile: Sequence[object]) -> list[str]:
    return [str(c) for c in pile]


def view_payload(view: PlayerView, state: GameState) -> ViewPayload:
    """What the seat of ``view`` sees (``state``: the pending Stop! move's description)."""
    stop = None
    pending = state.stop
    if view.stop is not None and pending is not None:
        stop = StopInfo(
            move=format_move(pending.move),
            description=_their(describe_move(pending.prior, pending.move)),
            offender=view.stop.offender,
            resume=view.stop.resume,
        )
    return ViewPayload(
        player=view.player,
        foundations=[_pile(p) for p in view.foundations],
        houses=[_pile(p) for p in view.houses],
        reserves=[
            ReserveView(down=view.reserves_down[p], up=_pile(view.reserves_up[p])) for p in (0, 1)
        ],
        hands=list(view.hand_sizes),
        wastes=[_pile(w) for w in view.wastes],
        turned=str(view.turned) if view.turned is not None else None,
        stop=stop,
        moves_made=view.moves_made,
        false_calls=list(view.false_calls),
    )


def _their(text: str) -> str:
    """A move description written for its mover, reworded for the opponent."""
    return text.replace("your opponent's", "\0").replace("your ", "their ").replace("\0", "your")


def outcome_info(result: Outcome | None, state: GameState) -> OutcomeInfo | None:
    """How the deal of ``state`` ended (``result``), or ``None`` while it runs."""
    if result is None:
        return None
    rules = state.rules
    return OutcomeInfo(
        winner=result.winner,
        scores=list(result.scores),
        reason=result.reason,
        text=format_result(result),
        tally=[_tally(state, p) for p in (0, 1)],
        points=PointsInfo(
            reserve=rules.reserve_points,
            hand=rules.hand_points,
            win_bonus=rules.win_bonus if result.winner is not None else 0,
        ),
    )


def _tally(state: GameState, player: int) -> TallyInfo:
    """A player's cards left at the end of a deal, by pile, and what they count (docs/rules.md,
    "The end of a deal and the score"; a turned hand card counts as a hand card): the
    figures a result panel shows beside the scores."""
    rules = state.rules
    reserve = len(state.reserves[player])
    hand = len(state.hands[player]) + (state.turned is not None and state.turn_player == player)
    waste = len(state.wastes[player])
    return TallyInfo(
        reserve=reserve,
        hand=hand,
        waste=waste,
        count=rules.reserve_points * reserve + rules.hand_points * (hand + waste),
    )


def match_info(session: Session) -> MatchInfo:
    """The match's progress (its seed once it is over)."""
    match = session.match
    finished = session.over
    done = match.outcome()
    rules = session.rules
    return MatchInfo(
        deal=match.number + 1,
        target=rules.match_target,
        deals=rules.match_deals,
        totals=list(match.totals),
        results=[
            DealInfo(
                winner=r.outcome.winner, scores=list(r.outcome.scores), reason=r.outcome.reason
            )
            for r in match.results
        ],
        over=finished,
        winner=done.winner if done is not None else None,
        resigned=match.resigned,
        seed=str(session.seed) if finished else None,
    )
