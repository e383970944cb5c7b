"""The end of a deal: who won, why, and the scores (the rules, ``docs/rules.md``, "The end
of a deal and the score", decisions 9 to 13).

[`winner`][crapette.outcome.winner], [`is_over`][crapette.outcome.is_over],
[`outcome`][crapette.outcome.outcome] and [`counts`][crapette.outcome.counts] are the native
engine's when it runs, else the Python engine's (``python_*``), written here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import attrs

from crapette import _hooks
from crapette._build import argument_type_error
from crapette._quote import show
from crapette.errors import InvalidArgumentError
from crapette.state import _NATIVE, GameState, PythonState

__all__ = ["Outcome", "counts", "is_over", "outcome", "resignation"]

Reason = Literal["win", "stalemate", "move_cap", "resigned"]


@attrs.frozen(slots=True)
class Outcome:
    """How a deal ended.

    Attributes:
        winner: 0 or 1, or ``None`` for a stalemate or the move cap (no winner).
        scores: each player's score for the deal.
        reason: ``"win"`` (a player emptied reserve, hand and waste), ``"stalemate"`` (both
            players went through their hand without progress), ``"move_cap"``, or
            ``"resigned"`` (the loser resigned the match during the deal:
            [`Match.resign`][crapette.match.Match.resign], decision 20; never the result of
            [`outcome`][crapette.outcome.outcome]).
    """

    winner: int | None
    scores: tuple[int, int]
    reason: Reason


def python_winner(state: GameState) -> int | None:
    """The player who has emptied reserve, hand and waste (a turned hand card counts as a
    hand card), or ``None``."""
    holder = state.turn_player if state.turned is not None else -1
    for p in (0, 1):
        if not state.reserves[p] and not state.hands[p] and not state.wastes[p] and p != holder:
            return p
    return None


def python_is_over(state: GameState) -> bool:
    """Whether the deal has ended (a win, a stalemate or the move cap)."""
    if not isinstance(state, PythonState):
        raise argument_type_error(GameState, state)
    return (
        python_winner(state) is not None
        or state.passes == (2, 2)
        or state.moves_made >= state.rules.move_cap
    )


def python_counts(state: GameState) -> tuple[int, int]:
    """Each player's count as a stalemate scores it: ``reserve_points`` (2) per own reserve
    card and ``hand_points`` (1) per own hand and waste card, the turned hand card counting
    as a hand card (decision 13). The one home of the score: outcomes and the bots'
    evaluation read it."""
    if not isinstance(state, PythonState):
        raise argument_type_error(GameState, state)
    rules = state.rules
    holder = state.turn_player if state.turned is not None else -1
    return (
        rules.reserve_points * len(state.reserves[0])
        + rules.hand_points * (len(state.hands[0]) + len(state.wastes[0]) + (holder == 0)),
        rules.reserve_points * len(state.reserves[1])
        + rules.hand_points * (len(state.hands[1]) + len(state.wastes[1]) + (holder == 1)),
    )


def python_outcome(state: GameState) -> Outcome | None:
    """``None`` while the deal runs; otherwise the [`Outcome`][crapette.outcome.Outcome].

    A win scores ``win_bonus`` (30) plus 2 per card in the loser's reserve and 1 per card in
    the loser's hand and waste. A stalemate or the move cap: each player counts 2 per own
    reserve card and 1 per own hand and waste card; the lower count scores the difference
    (with ``blocked="draw"``, nobody scores).
    """
    if not python_is_over(state):  # (which checks that ``state`` is a GameState)
        return None
    won = python_winner(state)
    scored = python_counts(state)
    if won is not None:
        scores = [0, 0]
        scores[won] = state.rules.win_bonus + scored[1 - won]
        return Outcome(won, (scores[0], scores[1]), "win")
    if state.passes == (2, 2):
        reason: Reason = "stalemate"
    else:
        reason = "move_cap"
    if state.rules.blocked == "draw":
        return Outcome(None, (0, 0), reason)
    diff = scored[1] - scored[0]
    return Outcome(None, (max(diff, 0), max(-diff, 0)), reason)


def _python_winner_checked(state: GameState) -> int | None:
    if not isinstance(state, PythonState):
        raise argument_type_error(GameState, state)
    return python_winner(state)


_hooks.Outcome = Outcome

winner: Callable[[GameState], int | None] = (
    _python_winner_checked if _NATIVE is None else _NATIVE.winner
)
"""The player who has emptied reserve, hand and waste (a turned hand card counts as a hand
card), or ``None``."""

is_over: Callable[[GameState], bool] = python_is_over if _NATIVE is None else _NATIVE.is_over
"""Whether the deal has ended (a win, a stalemate or the move cap)."""

counts: Callable[[GameState], tuple[int, int]] = (
    python_counts if _NATIVE is None else _NATIVE.counts
)
"""Each player's count as a stalemate scores it: ``reserve_points`` (2) per own reserve card
and ``hand_points`` (1) per own hand and waste card, the turned hand card counting as a hand
card (decision 13). The one home of the score: outcomes and the bots' evaluation read it."""

outcome: Callable[[GameState], Outcome | None] = (
    python_outcome if _NATIVE is None else _NATIVE.outcome
)
"""``None`` while the deal runs; otherwise the [`Outcome`][crapette.outcome.Outcome].

A win scores ``win_bonus`` (30) plus ``reserve_points`` (2) per card in the loser's reserve
and ``hand_points`` (1) per card in the loser's hand and waste. A stalemate or the move cap:
each player counts 2 per own reserve card and 1 per own hand and waste card; the lower count
scores the difference."""


def resignation(state: GameState, player: int) -> Outcome:
    """The outcome of a deal that ``player`` resigns in ``state`` (decision 20): the
    opponent wins it, scored as a win with the cards where they lie (``win_bonus`` plus 2
    per card in the resigner's reserve and 1 per card in the resigner's hand and waste, a
    turned hand card counting as a hand card, with the ruleset's scoring options).

    Raises:
        InvalidArgumentError: ``player`` is not 0 or 1, or the deal is already over (a
            finished deal keeps its own outcome).
    """
    if not isinstance(state, GameState):
        raise argument_type_error(GameState, state)
    if isinstance(player, bool) or player not in (0, 1):
        raise InvalidArgumentError(f"the player who resigns is 0 or 1, not {show(player)}")
    if is_over(state):
        raise InvalidArgumentError("the deal is over: it keeps its own outcome")
    held = counts(state)
    scores = [0, 0]
    scores[1 - player] = state.rules.win_bonus + held[player]
    return Outcome(1 - player, (scores[0], scores[1]), "resigned")
