"""The greedy ranking of moves and the greedy play-outs of the search bots.

Internal: the hot part of every greedy choice and of the search bot's and the planner's
rollouts. The native engine has the same ranking and play-out in C
(``native/crapette_core.c``), which these functions call for a native state; the Python
functions below are the reference it is tested against move for move, and what runs with
the Python engine. The ranking is documented in
[`crapette.bots.greedy`][crapette.bots.greedy], which re-exports its functions;
[`crapette.bots.search`][crapette.bots.search] re-exports the play-out and its evaluation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from crapette import legal_moves
from crapette._build import argument_type_error
from crapette._engine import python_apply_unchecked
from crapette._fits import tables
from crapette._laws import (
    builds_on,
    fits_foundation,
    fits_load,
    illegal_move_error,
    python_refusal,
    violation,
)
from crapette._movegen import known_moves, python_legal_moves
from crapette._quote import show
from crapette.bots.base import call_helps
from crapette.cards import Card
from crapette.deal import Rng
from crapette.errors import InvalidArgumentError
from crapette.moves import (
    ALL_MOVES,
    CALL_STOP,
    FOUNDATION,
    HAND,
    LET_STAND,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    Action,
    Move,
    listed,
)
from crapette.outcome import python_counts, python_is_over, python_winner
from crapette.state import _NATIVE, GameState, Pile, PythonState

__all__ = ["evaluate", "greedy_move", "move_score", "play_out", "ranked_scores"]


def _listed(state: GameState) -> tuple[Move, ...]:
    """The legal moves of either engine's state."""
    return python_legal_moves(state) if isinstance(state, PythonState) else legal_moves(state)


MOST_MOVES: Final = len(ALL_MOVES)
"""The longest move list the ranking takes, 1,296 (every move of the table once; a list of
legal moves is shorter): the native engine ranks moves in a buffer of this size."""
MOST_TURNS: Final = 1_000_000
"""The most opponent turns a play-out may be asked to reach (``play_out``'s ``turns``)."""


def _check_state(state: object) -> None:
    if not isinstance(state, (GameState, PythonState)):
        raise argument_type_error(GameState, state)


def _check_player(p: object) -> None:
    if isinstance(p, bool) or not isinstance(p, int) or p not in (0, 1):
        raise InvalidArgumentError(f"p must be a player, 0 or 1, not {show(p)}")


def _check_count(label: str, value: object, high: int) -> None:
    """Refuse ``value`` unless it is an ``int`` from 1 to ``high`` (``label`` names it)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise InvalidArgumentError(
            f"{label} must be an integer from 1 to {high}, not {show(value)}"
        )


def _check_rng(rng: object) -> None:
    if not isinstance(rng, Rng):
        raise argument_type_error(Rng, rng)


def _checked_moves(state: GameState, moves: object, name: str) -> tuple[Move, ...]:
    """``moves`` as a tuple, checked alike for both engines: a sequence of at most
    ``MOST_MOVES`` moves, each legal in ``state`` (the native engine checks that last part
    in C, the Python engine here, with the same message).

    Raises:
        TypeError: not a sequence of ``Move`` objects.
        InvalidArgumentError: more than ``MOST_MOVES`` moves.
        IllegalMoveError: a move that is not legal in ``state`` (the first one, named).
    """
    if not isinstance(moves, tuple):
        if not isinstance(moves, Sequence) or isinstance(moves, str):
            raise TypeError(f"{name}() needs a sequence of moves, not {show(moves)}")
        moves = tuple(moves)
    if len(moves) > MOST_MOVES:
        raise InvalidArgumentError(
            f"{name}(): moves must hold at most {MOST_MOVES} moves (each legal), not {len(moves)}"
        )
    for move in moves:
        if not isinstance(move, Move):
            raise TypeError(f"{name}() needs moves, not {show(move)}")
    if isinstance(state, PythonState):
        known = known_moves(state)
        if known is None or moves is not known:
            legal = known if known is not None else python_legal_moves(state)
            for move in moves:
                if not listed(move, legal):
                    raise illegal_move_error(state, move, python_refusal(state, move))
    return moves


_POINTLESS = -100
_VIOLATION = -10_000
_RIGHT_CALL = 2000
_FALSE_CALL = -1000
_SHUFFLE = -1  # not a score: a house shuffle whose rank needs the look-ahead


def _own_cards(state: GameState) -> list[Card]:
    """The player's own available cards: reserve top (face up), turned card, waste top."""
    p = state.to_act
    out = []
    reserve = state.reserves[p]
    if reserve and state.reserve_up[p]:
        out.append(reserve[-1])
    if state.turned is not None:
        out.append(state.turned)
    waste = state.wastes[p]
    if waste and state.rules.own_waste_playable:
        out.append(waste[-1])
    return out


class _LookAhead:
    """What the one-move look-ahead of house shuffles reads in a position, gathered once:
    the player's own cards and the opponent's tops that a house card may load."""

    __slots__ = ("foundations", "loads", "match", "own", "t", "wrap")

    def __init__(self, state: GameState) -> None:
        self.foundations = state.foundations
        self.own = _own_cards(state)
        self.wrap = state.rules.load_wrap
        self.match = int(state.rules.load_match == "colour")
        self.t = tables(state.rules)
        loads: list[Card] = []
        if state.rules.load_from == "any":
            q = 1 - state.to_act
            reserve = state.reserves[q]
            if reserve and state.reserve_up[q]:
                loads.append(reserve[-1])
            waste = state.wastes[q]
            if waste:
                loads.append(waste[-1])
        self.loads = loads

    def gain(self, pile: Pile, count: int, covered: Pile) -> int:
        """What moving the top ``count`` cards of ``pile`` (not all of it) onto ``covered``
        opens up: own cards that may then be built on the uncovered card, plus the
        uncovered card going to a foundation or loading the opponent, less own cards the
        covered top took (or 1 for an empty house used up)."""
        t = self.t
        exposed = pile[-count - 1]
        gain = 0
        for card in self.own:
            if builds_on(exposed, card, t):
                gain += 1
        if fits_foundation(self.foundations, exposed, t):
            gain += 2
        if covered:
            top = covered[-1]
            for card in self.own:
                if builds_on(top, card, t):
                    gain -= 1
        else:
            gain -= 1
        for card in self.loads:
            if fits_load(card, exposed, self.wrap, t, self.match):
                gain += 1
        return gain


def _base_score(state: GameState, move: Move) -> int:
    """The ranking of ``move`` without the look-ahead: ``_SHUFFLE`` for a house-to-house
    move that keeps cards in its house (its rank depends on what it opens up)."""
    action = move.action
    if action is not Action.PLAY:
        if action is Action.REVEAL:
            return 1000
        if action is Action.DRAW:
            return 100
        if action is Action.CALL_STOP and state.window:  # at a turn start (turn_start)
            return _RIGHT_CALL if state.fault is not None else _FALSE_CALL
        return 0
    source, target = move.source, move.target
    houses = state.houses
    if target == FOUNDATION:
        if source == RESERVE:
            return 960
        if source == HAND:
            return 950
        if source > HAND:
            return 940
        return 930 if len(houses[source]) == 1 else 920
    if source == RESERVE:
        if target == OPP_RESERVE:
            return 820
        if target == OPP_WASTE:
            return 800
        return 700 if houses[target] else 600
    if source >= HAND:
        if target == OPP_RESERVE:
            return 660
        if target == OPP_WASTE:
            return 650
        if houses[target]:
            return 550
        return 350 if state.reserves[state.to_act] else 450
    # From a house.
    empties = len(houses[source]) == move.count
    if target >= OPP_RESERVE:
        return 500 + (30 if empties else 0) + (10 if target == OPP_RESERVE else 0)
    if empties and houses[target]:
        return 450
    if empties:
        return _POINTLESS  # a lone card (or run) moved to an empty house
    return _SHUFFLE


def _shuffle_score(state: GameState, move: Move, ahead: _LookAhead) -> int:
    """The rank of a house-to-house move that keeps cards in its house (one of more cards
    than the house holds, which is not legal, ranks as pointless, as in the C core)."""
    pile = state.houses[move.source]
    if move.count >= len(pile):
        return _POINTLESS
    gain = ahead.gain(pile, move.count, state.houses[move.target])
    return 400 + 10 * gain if gain > 0 else _POINTLESS


def move_score(state: GameState, move: Move) -> int:
    """The greedy ranking of a legal ``move`` for the player to act (higher is better).

    Args:
        state: the position (a full state or a view's sketch; only visible cards are read).
        move: one of ``legal_moves(state)`` (another move gets the score its kind would
            have, as the ranking's tests compare with a draw).

    Raises:
        TypeError: ``state`` is not a ``GameState`` or ``move`` not a ``Move``.
        IllegalMoveError: a house move of more cards than the house holds (no score: the
            move cannot be made at all).
    """
    _check_state(state)
    if not isinstance(move, Move):
        raise TypeError(f"move_score() needs a Move, not {show(move)}")
    source = move.source
    if move.action is Action.PLAY and 0 <= source < 8 and move.count > len(state.houses[source]):
        raise illegal_move_error(state, move, python_refusal(state, move))
    score = _base_score(state, move)
    if score == _SHUFFLE:
        return _shuffle_score(state, move, _LookAhead(state))
    return score


def ranked_scores(state: GameState, moves: Sequence[Move]) -> list[int]:
    """The greedy score of each of ``moves`` (legal in ``state``), in order: the
    [`move_score`][crapette.bots.greedy.move_score], less 10,000 for a move that breaks a
    priority under callable Stop! rules (the opponent would call it); under
    ``call_window="turn_start"`` a Stop! call ranks first when the last turn ended by a
    violation and last otherwise.

    Raises:
        TypeError: ``state`` is not a ``GameState``, or ``moves`` not a sequence of moves.
        InvalidArgumentError: more than ``MOST_MOVES`` moves (the move table's size).
        IllegalMoveError: a move that is not legal in ``state`` (the first, named).
    """
    _check_state(state)
    moves = _checked_moves(state, moves, "ranked_scores")
    if _NATIVE is not None and not isinstance(state, PythonState):
        return _NATIVE.greedy_scores(state, moves)
    return _python_scores(state, moves)


def _python_scores(state: GameState, moves: tuple[Move, ...]) -> list[int]:
    """``ranked_scores`` of legal moves, by the Python engine."""
    callable_stop = state.rules.stop != "enforced"
    ahead: _LookAhead | None = None
    scores = []
    for move in moves:
        score = _base_score(state, move)
        if score == _SHUFFLE:
            if ahead is None:
                ahead = _LookAhead(state)
            score = _shuffle_score(state, move, ahead)
        if callable_stop and violation(state, move) is not None:
            score += _VIOLATION
        scores.append(score)
    return scores


def greedy_move(state: GameState, rng: Rng, moves: Sequence[Move] | None = None) -> Move:
    """The greedy bot's move in ``state`` (for its player to act), ties broken by ``rng``.

    Args:
        state: the position (a full state or a view's sketch).
        rng: breaks ties between equally ranked moves.
        moves: ``legal_moves(state)`` if already known (or some of them: the move is chosen
            among these).

    Raises:
        TypeError: ``state`` is not a ``GameState``, ``rng`` not an ``Rng`` or ``moves`` not
            a sequence of moves.
        InvalidArgumentError: no move to choose from (``moves`` empty, or the deal over),
            or more than ``MOST_MOVES`` moves (the move table's size).
        IllegalMoveError: a move that is not legal in ``state`` (the first, named).
    """
    _check_state(state)
    _check_rng(rng)
    moves = _listed(state) if moves is None else _checked_moves(state, moves, "greedy_move")
    if not moves:
        raise InvalidArgumentError(
            "greedy_move() needs a legal move to choose from: moves is empty"
        )
    return _greedy_choice(state, rng, moves)


def _greedy_choice(state: GameState, rng: Rng, moves: tuple[Move, ...]) -> Move:
    """``greedy_move`` of checked arguments (at least one legal move)."""
    if _NATIVE is not None and not isinstance(state, PythonState):
        move, rng._state = _NATIVE.greedy_move(state, rng._state, moves)
        return move
    if len(moves) == 1:
        return moves[0]
    stop = state.stop
    if stop is not None:
        return CALL_STOP if call_helps(state.rules, stop.offender, stop.resume) else LET_STAND
    scores = _python_scores(state, moves)
    top = max(scores)
    best = [move for move, score in zip(moves, scores, strict=True) if score == top]
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


_WIN = 100
_ROLLOUT_CAP = 400


def evaluate(state: GameState, p: int) -> int:
    """How good ``state`` is for player ``p``: the opponent's count minus ``p``'s (the
    stalemate counts of [`crapette.outcome.counts`][crapette.outcome.counts], with the
    ruleset's points), plus or minus 100 for a won or lost deal; 0 for a deal that ended
    blocked (a stalemate or the move cap) under ``blocked="draw"``, where nobody scores.

    Raises:
        TypeError: ``state`` is not a ``GameState``.
        InvalidArgumentError: ``p`` is not 0 or 1.
    """
    _check_state(state)
    _check_player(p)
    if _NATIVE is not None and not isinstance(state, PythonState):
        return _NATIVE.evaluate(state, p)
    return _python_evaluate(state, p)


def _python_evaluate(state: GameState, p: int) -> int:
    """``evaluate`` by the Python engine."""
    scored = python_counts(state)
    value = scored[1 - p] - scored[p]
    won = python_winner(state)
    if won is not None:
        value += _WIN if won == p else -_WIN
    elif state.rules.blocked == "draw" and python_is_over(state):
        value = 0  # a blocked deal is a draw: nobody scores
    return value


def play_out(state: GameState, p: int, rng: Rng, turns: int = 1) -> tuple[int, int, int]:
    """Greedy play for both players from ``state`` to the end of the opponent's
    ``turns``-th next turn (or the end of the deal; at most ``400 * turns`` moves); returns
    the [`evaluate`][crapette.bots.search.evaluate] value of the result for ``p``, the
    moves played and the legal moves the greedy ranking scored (the measure of the
    play-out's cost).

    It plays exactly the game [`play_deal`][crapette.bots.play_deal] plays between two
    greedy players seeing the whole sampled state, stopped at the same move
    (``tests/test_bot_ranking.py`` compares them); it is a loop of its own because the
    search bots spend most of their time in it (compiled with the core).

    Args:
        state: a complete state (a sample of the hidden cards).
        p: the player the result is scored for.
        rng: breaks the greedy ties.
        turns: how many of the opponent's turns to play (1: to the end of the opponent's
            next turn; 2: then ``p``'s next turn and the opponent's turn after it), from 1
            to 1,000,000.

    Raises:
        TypeError: ``state`` is not a ``GameState`` or ``rng`` not an ``Rng``.
        InvalidArgumentError: ``p`` is not 0 or 1, or ``turns`` not an integer from 1 to
            1,000,000.
    """
    _check_state(state)
    _check_player(p)
    _check_rng(rng)
    _check_count("turns", turns, MOST_TURNS)
    if _NATIVE is not None and not isinstance(state, PythonState):
        value, played, scored, rng._state = _NATIVE.play_out(state, p, rng._state, turns)
        return value, played, scored
    seen_opponent = state.turn_player != p
    back = played = scored = 0
    cap = _ROLLOUT_CAP * turns
    while played < cap:
        moves = python_legal_moves(state)
        if not moves:
            break
        scored += len(moves)
        state = python_apply_unchecked(state, _greedy_choice(state, rng, moves))
        played += 1
        if state.turn_player != p:
            seen_opponent = True
        elif seen_opponent:
            seen_opponent = False
            back += 1
            if back >= turns:
                break
    return _python_evaluate(state, p), played, scored
