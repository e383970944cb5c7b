"""Moves: what a player can do, as small immutable values from one fixed table.

A move is relative to the player to act: ``RESERVE`` is *your* reserve, ``OPP_WASTE`` is
your opponent's waste. Houses are absolute: ``0``..``3`` are player 0's column (``0``
nearest player 0's reserve), ``4``..``7`` player 1's (``4`` nearest player 1's reserve);
text names them ``H1``..``H8``.

Every possible move has a fixed place in [`ALL_MOVES`][crapette.moves.ALL_MOVES]; its
[`Move.index`][crapette.moves.Move.index] is that place. ``legal_moves`` lists moves in index order,
and the index doubles as a stable integer action encoding (see ``crapette.adapters``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final

import attrs

from crapette._quote import show
from crapette.errors import InvalidMoveError

__all__ = [
    "ALL_MOVES",
    "CALL_STOP",
    "DISCARD",
    "DRAW",
    "END_TURN",
    "FLIP",
    "FOUNDATION",
    "HAND",
    "LET_STAND",
    "OPP_RESERVE",
    "OPP_WASTE",
    "RESERVE",
    "REVEAL",
    "WASTE",
    "Action",
    "Move",
]

# Pile codes. Houses are 0..7.
RESERVE: Final = 8
"""Source: your own reserve top."""
HAND: Final = 9
"""Source: your turned hand card."""
WASTE: Final = 10
"""Source: your own waste top (only where the rules make it playable)."""
FOUNDATION: Final = 11
"""Target: a foundation (the engine picks the leftmost pile that takes the card)."""
OPP_RESERVE: Final = 12
"""Target: loading your opponent's reserve."""
OPP_WASTE: Final = 13
"""Target: loading your opponent's waste."""

HOUSES: Final = tuple(range(8))
SOURCES: Final = (RESERVE, HAND, WASTE, *HOUSES)
TARGETS: Final = (FOUNDATION, *HOUSES, OPP_RESERVE, OPP_WASTE)
STANDARD_GROUP: Final = 13
"""The longest group of the standard pack (a King down to an Ace)."""
MAX_GROUP: Final = 22
"""The longest group of any pack (tarot78's trumps 21 down to the Excuse)."""

_SOURCE_TEXT: Final = {RESERVE: "R", HAND: "T", WASTE: "W"} | {h: f"H{h + 1}" for h in HOUSES}
_TARGET_TEXT: Final = {FOUNDATION: "F", OPP_RESERVE: "OR", OPP_WASTE: "OW"} | {
    h: f"H{h + 1}" for h in HOUSES
}


class Action(enum.Enum):
    """The kinds of move."""

    value: str

    PLAY = "play"
    """Move one card (or a group of cards between houses) from a source to a target."""
    REVEAL = "reveal"
    """Turn your face-down reserve top face up (Serbian reserve; a free move)."""
    DRAW = "draw"
    """Turn the top card of your hand (turning your waste over first if the hand is empty)."""
    DISCARD = "discard"
    """Put your turned hand card on your own waste; this ends your turn."""
    END_TURN = "end"
    """End your turn when your hand and waste are both empty."""
    CALL_STOP = "stop"
    """Call "Stop!" on the opponent's priority violation (callable Stop! rules only)."""
    LET_STAND = "pass"
    """Let the opponent's priority violation stand (callable Stop! rules only)."""
    FLIP = "flip"
    """Turn your hand's top card face up onto your waste, ending your turn
    (``turn_end="flip"``)."""


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class Move:
    """One move. Use the constants (``DRAW``, ``DISCARD``, ...) and
    [`play`][crapette.moves.Move.play]; a ``Move`` built directly is checked against the table of
    possible moves.

    Attributes:
        action: the kind of move.
        source: for ``PLAY``, where the card comes from (a house 0..7, ``RESERVE``, ``HAND``,
            ``WASTE``); ``-1`` otherwise.
        target: for ``PLAY``, where it goes (``FOUNDATION``, a house, ``OPP_RESERVE``,
            ``OPP_WASTE``); ``-1`` otherwise.
        count: how many cards move (more than one only from house to house).
    """

    action: Action
    source: int = -1
    target: int = -1
    count: int = 1

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.action, Action):
            raise InvalidMoveError(
                "no such move: action must be an Action (like Action.PLAY),"
                f" not {show(self.action)}"
            )
        for name in ("source", "target", "count"):
            value = getattr(self, name)
            # Exactly int: a float or a bool would compare equal to a real move.
            if type(value) is not int:
                raise InvalidMoveError(
                    f"no such move: {name} must be an int,"
                    f" not {show(value)} ({type(value).__name__})"
                )
        if _TABLE_READY and (self.action, self.source, self.target, self.count) not in _INDEX:
            raise InvalidMoveError(
                f"no such move: {self.action.value} source={show(self.source)}"
                f" target={show(self.target)} count={show(self.count)} (group moves go from house"
                f" to house only, 1..{MAX_GROUP} cards)"
            )

    @staticmethod
    def play(source: int, target: int, count: int = 1) -> Move:
        """The move of ``count`` cards from ``source`` to ``target``.

        Raises:
            InvalidMoveError: no such move, or an argument is not an ``int`` (a ``bool``
                or a ``float`` such as ``1.0`` is refused, though it compares equal).
        """
        if any(isinstance(x, bool) or not isinstance(x, int) for x in (source, target, count)):
            raise InvalidMoveError(
                f"no such move: from {show(source)} to {show(target)} with {show(count)} cards"
                " (pile codes and counts are int)"
            )
        try:
            return ALL_MOVES[_INDEX[(Action.PLAY, source, target, count)]]
        except (KeyError, TypeError):
            raise InvalidMoveError(
                f"no such move: from {show(source)} to {show(target)} with {show(count)} cards"
            ) from None

    @property
    def index(self) -> int:
        """The move's place in [`ALL_MOVES`][crapette.moves.ALL_MOVES] (its integer action code)."""
        return _INDEX[(self.action, self.source, self.target, self.count)]

    @property
    def is_play(self) -> bool:
        """Whether the move takes a card from a source to a target."""
        return self.action is Action.PLAY

    def __str__(self) -> str:
        if self.action is not Action.PLAY:
            return self.action.value
        text = f"{_SOURCE_TEXT[self.source]}-{_TARGET_TEXT[self.target]}"
        return f"{text}x{self.count}" if self.count > 1 else text

    def __repr__(self) -> str:
        if self.action is not Action.PLAY:
            return f"crapette.{self.action.name}"
        count = f", {self.count}" if self.count > 1 else ""
        return f"crapette.Move.play({self.source}, {self.target}{count})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        """Pickled by its index: a move unpickles (or deep-copies) as the table's own
        object, as the moves of ``legal_moves`` are."""
        return (_move_at, (self.index,))


def listed(move: Move, moves: Sequence[Move]) -> bool:
    """Whether ``move`` is one of ``moves``: first by identity (the moves of the table are
    single objects, so a move taken from a list of legal moves is found without comparing
    values), then by value (a move built anew). Internal; not in ``__all__``."""
    for other in moves:
        if other is move:
            return True
    return move in moves


def _move_at(index: int) -> Move:
    """The move at ``index`` of [`ALL_MOVES`][crapette.moves.ALL_MOVES] (for unpickling)."""
    return ALL_MOVES[index]


_TABLE_READY = False


def _build_table() -> tuple[Move, ...]:
    moves: list[Move] = []
    for source in SOURCES:
        for target in TARGETS:
            if source == target:
                continue
            group = source in HOUSES and target in HOUSES
            counts = range(1, STANDARD_GROUP + 1 if group else 2)
            moves.extend(Move(Action.PLAY, source, target, count) for count in counts)
    moves.extend(Move(action) for action in Action if action not in (Action.PLAY, Action.FLIP))
    moves.append(Move(Action.FLIP))
    for count in range(STANDARD_GROUP + 1, MAX_GROUP + 1):
        for source in HOUSES:
            moves.extend(Move(Action.PLAY, source, t, count) for t in HOUSES if t != source)
    return tuple(moves)


ALL_MOVES: Final[tuple[Move, ...]] = _build_table()
"""Every possible move, in the fixed order of ``legal_moves``: card moves by source (your
reserve, your turned card, your waste, houses 1..8), then target (foundation, houses 1..8,
opponent's reserve, opponent's waste), then count (groups of up to 13 cards); then reveal,
draw, discard, end, stop, pass; then flip (``turn_end="flip"``); then the groups of 14 to 22
cards that only tarot packs make, by count, source and target. So the moves of the standard
pack are the first 791, and a ruleset's moves are a prefix of the table
([`action_count`][crapette.moves.action_count])."""

STANDARD_MOVES: Final = 791
"""The moves of the standard pack without ``turn_end="flip"``: ``ALL_MOVES[:791]``."""
_INDEX: Final[dict[tuple[Action, int, int, int], int]] = {
    (m.action, m.source, m.target, m.count): i for i, m in enumerate(ALL_MOVES)
}
_TABLE_READY = True

REVEAL: Final = ALL_MOVES[_INDEX[(Action.REVEAL, -1, -1, 1)]]
"""Turn your face-down reserve top face up."""
DRAW: Final = ALL_MOVES[_INDEX[(Action.DRAW, -1, -1, 1)]]
"""Turn the top card of your hand."""
DISCARD: Final = ALL_MOVES[_INDEX[(Action.DISCARD, -1, -1, 1)]]
"""Put your turned hand card on your waste, ending your turn."""
END_TURN: Final = ALL_MOVES[_INDEX[(Action.END_TURN, -1, -1, 1)]]
"""End your turn (only with hand and waste both empty)."""
CALL_STOP: Final = ALL_MOVES[_INDEX[(Action.CALL_STOP, -1, -1, 1)]]
"""Call "Stop!" on the opponent's violation."""
LET_STAND: Final = ALL_MOVES[_INDEX[(Action.LET_STAND, -1, -1, 1)]]
"""Let the opponent's violation stand."""

FLIP: Final = ALL_MOVES[_INDEX[(Action.FLIP, -1, -1, 1)]]
"""Put your hand's top card face up on your waste, ending your turn (``turn_end="flip"``)."""


def action_count(most: int, flip: bool) -> int:
    """How many moves of [`ALL_MOVES`][crapette.moves.ALL_MOVES] a ruleset can make: a
    prefix of the table, ``791`` for the standard pack with discards, one more with flip or a
    tarot pack, and 56 more for each group size above 13 the pack's runs reach (``most``:
    13, 14, 21 or 22). Internal: ``crapette.rules.Ruleset.action_count`` reads it."""
    if most <= STANDARD_GROUP and not flip:
        return STANDARD_MOVES
    return STANDARD_MOVES + 1 + 56 * (most - STANDARD_GROUP)


# PLAY[source][target] is the single-card move; GROUP[source][target][count] any count.
PLAY: Final[dict[int, dict[int, Move]]] = {
    s: {t: ALL_MOVES[_INDEX[(Action.PLAY, s, t, 1)]] for t in TARGETS if t != s} for s in SOURCES
}
GROUP: Final[dict[int, dict[int, tuple[Move, ...]]]] = {
    s: {
        t: tuple(ALL_MOVES[_INDEX[(Action.PLAY, s, t, c)]] for c in range(MAX_GROUP + 1) if c)
        for t in HOUSES
        if t != s
    }
    for s in HOUSES
}
