"""Test helpers: the slow reference move generator and perft counts.

``reference_legal_moves`` tries every move of the fixed table against the plain rule checks
(``why_illegal``); it is the oracle the fast [`legal_moves`][crapette.legal_moves] is tested
against. [`violation`][crapette.testing.violation] is the priority rules spelled out in full,
which the quick test inside ``apply`` is tested against. ``perft`` counts the move sequences
of a given length from a position.

As in chess engines, ``perft(state, depth)`` is the number of leaf nodes of the game tree
``depth`` moves deep (a finished deal is a leaf that counts only at depth 0). Counts from
fixed positions catch any change in the move generator or in ``apply``; ``divide`` splits
the count by first move to find where two implementations disagree.
"""

from __future__ import annotations

from crapette._engine import apply_unchecked
from crapette._laws import Violation as Violation  # importable here as before, unversioned
from crapette._laws import violation, why_illegal
from crapette._movegen import legal_moves
from crapette._quote import show
from crapette.errors import InvalidArgumentError
from crapette.moves import ALL_MOVES, Move
from crapette.state import GameState

__all__ = ["divide", "perft", "reference_legal_moves", "violation"]


def perft(state: GameState, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` moves from ``state``.

    Raises:
        InvalidArgumentError: ``depth`` is negative.
    """
    if depth < 0:
        raise InvalidArgumentError(f"perft depth must be >= 0, not {show(depth)}")
    if depth == 0:
        return 1
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply_unchecked(state, m), depth - 1) for m in moves)


def divide(state: GameState, depth: int) -> dict[str, int]:
    """``perft(after, depth - 1)`` for each legal first move, keyed by the move's text
    (``str(move)``, the move notation), in the order of ``legal_moves``.

    Raises:
        InvalidArgumentError: ``depth`` is less than 1.
    """
    if depth < 1:
        raise InvalidArgumentError(f"divide depth must be >= 1, not {show(depth)}")
    return {str(m): perft(apply_unchecked(state, m), depth - 1) for m in legal_moves(state)}


def reference_legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move, found by trying each move of the fixed table (slow; a test oracle)."""
    return tuple(m for m in ALL_MOVES if why_illegal(state, m) is None)
