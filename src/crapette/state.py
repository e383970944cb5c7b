"""The immutable [`GameState`][crapette.state.GameState] of one deal. It holds data only; the rules
that read and change it live in ``_movegen``, ``_laws`` and ``_engine``."""

from __future__ import annotations

from typing import TypeAlias

import attrs

from crapette._tables import houses_key
from crapette.cards import Card
from crapette.moves import Move
from crapette.rules import Ruleset

__all__ = ["GameState", "PendingStop", "Pile"]

Pile: TypeAlias = tuple[Card, ...]
"""A pile of cards, bottom first: ``pile[-1]`` is the top (the exposed card)."""


@attrs.frozen(slots=True, cache_hash=True)
class PendingStop:
    """A priority violation waiting for the opponent's "Stop!" decision.

    Attributes:
        prior: the state before the violating move (what ``undo`` returns to).
        move: the violating move.
        offender: the player who made it.
        resume: who acts if the violation is let stand (the offender, or the caller when the
            move ended the offender's turn).
    """

    prior: GameState
    move: Move
    offender: int
    resume: int


@attrs.frozen(slots=True, cache_hash=True)
class GameState:
    """One position of a deal: every card's place, whose move it is and the counters the
    rules need. Immutable, hashable and equal by value; ``apply`` returns a new one.

    Piles are tuples of [`Card`][crapette.Card], bottom first, so ``pile[-1]`` is the top.
    Per-player pairs are indexed by player (0 or 1). Building a state by hand needs only the
    fields up to ``wastes`` (and ``turned``); the counters start as at the beginning of a turn
    and ``seen`` and ``houses_key`` are derived from the houses.

    Attributes:
        rules: the ruleset of the deal.
        to_act: the player who makes the next move (during a "Stop!" decision, the caller).
        foundations: the 8 foundation piles, left to right.
        houses: the 8 houses; 0..3 are player 0's column (0 nearest player 0's reserve),
            4..7 player 1's (4 nearest player 1's reserve).
        reserves: each player's reserve.
        reserve_up: how many cards at the top of each reserve are face up (the rest are face
            down).
        hands: each player's face-down hand (``hand[-1]`` is the next card to turn).
        wastes: each player's face-up waste.
        turned: the turned hand card of the player whose turn it is, or ``None``.
        stop: the violation awaiting a "Stop!" decision, or ``None``.
        emptied: bit ``h`` set when house ``h`` was emptied during the current turn and is
            still empty (for ``house_filling="immediate"``).
        seen: the keys (``houses_key``) of the house layouts seen since the last move that
            cannot be undone in this turn (the no-cycle rule: no house move may recreate one;
            every other part of the layout is unchanged since that move).
        houses_key: ``houses_key(houses)``, kept up to date by ``apply`` with a few XORs.
        passes: per player, 0 while their current pass through the hand has seen progress,
            1 while it has not, 2 once they completed a whole pass without progress (the
            stalemate rule).
        moves_made: how many moves have been applied in this deal (for the move cap).
    """

    rules: Ruleset
    to_act: int
    foundations: tuple[Pile, ...]
    houses: tuple[Pile, ...]
    reserves: tuple[Pile, Pile]
    reserve_up: tuple[int, int]
    hands: tuple[Pile, Pile]
    wastes: tuple[Pile, Pile]
    turned: Card | None = None
    stop: PendingStop | None = None
    emptied: int = 0
    seen: frozenset[int] = attrs.field(
        default=attrs.Factory(lambda self: frozenset((houses_key(self.houses),)), takes_self=True)
    )
    passes: tuple[int, int] = (1, 1)
    moves_made: int = 0
    houses_key: int = attrs.field(
        default=attrs.Factory(lambda self: houses_key(self.houses), takes_self=True)
    )

    @property
    def turn_player(self) -> int:
        """The player whose turn it is (differs from ``to_act`` during a Stop! decision)."""
        return self.stop.resume if self.stop is not None else self.to_act

    def _repr_svg_(self) -> str:
        """The table as an SVG picture (Jupyter), face-down cards as backs."""
        from crapette.svg import board  # imported on first use

        return board(self)

    def _repr_html_(self) -> str:
        """The table as inline SVG (Jupyter)."""
        return self._repr_svg_()

    def cards(self) -> list[Card]:
        """Every card on the table (104 in a valid state), pile by pile."""
        out: list[Card] = []
        for pile in (*self.foundations, *self.houses, *self.reserves, *self.hands, *self.wastes):
            out.extend(pile)
        if self.turned is not None:
            out.append(self.turned)
        return out
