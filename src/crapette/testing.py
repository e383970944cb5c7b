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

[`option_samples`][crapette.testing.option_samples] gives, from the rule spec, values worth
trying for every option: a test that loops over it covers a new option without being edited.
"""

from __future__ import annotations

from crapette import _spec, apply_unchecked, legal_moves, why_illegal
from crapette._laws import Violation as Violation  # importable here, unversioned (a type alias)
from crapette._laws import violation
from crapette._quote import show
from crapette.errors import InvalidArgumentError
from crapette.moves import ALL_MOVES, Move
from crapette.state import GameState

__all__ = ["divide", "option_samples", "perft", "reference_legal_moves", "violation"]


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


def option_samples() -> dict[str, tuple[object, ...]]:
    """Values worth trying for every rule option, from the rule spec (``crapette._spec``):
    every value of a choice, both of a bool, and for a number the ends of its range and its
    default and the values next to it (``None`` too for a count). Keyed by option name, in
    field order. Some pairs of values cannot go together (``crapette._spec.COMBINATIONS``):
    ``Ruleset.replace`` refuses those with ``InvalidRulesError``."""
    samples: dict[str, tuple[object, ...]] = {}
    for option in _spec.OPTIONS:
        if option.kind == "choice":
            values: tuple[object, ...] = tuple(value for value, _ in option.values)
        elif option.kind == "bool":
            values = (False, True)
        else:
            assert option.range is not None
            low, high = option.range
            default = option.default if isinstance(option.default, int) else low
            near = (low, default - 1, default, default + 1, high)
            values = tuple(sorted({v for v in near if low <= v <= high}))
            if option.kind == "count":
                values = (None, *values)
        samples[option.name] = values
    return samples
