"""The building rules as predicates over cards: where a card may go (a foundation, a house,
the opponent's reserve or waste), what a run is, and how many cards one move may carry.

Each is written once, on the tables of [`crapette._tables`][crapette._tables], and read by
everything that needs it: the move generators, ``apply``, the priorities of
[`crapette._laws`][crapette._laws] (which re-exports them), the check that a hand-built state
is possible ([`crapette.state.position_problems`][crapette.state.position_problems]) and the
bots. The native engine (``native/crapette_core.c``) states the same rules in C and is
tested against these.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Final, TypeAlias

from crapette._tables import ACE_KEY, FACE, FNEED, KIND, MOST_CARDS, RANK, SUIT, TAKES
from crapette.cards import Card

if TYPE_CHECKING:
    from crapette.rules import Ruleset

__all__ = [
    "builds_on",
    "fits_foundation",
    "fits_house",
    "fits_load",
    "foundation_needs",
    "foundation_pile",
    "is_foundation_run",
    "is_run",
    "most_cards",
]

Pile: TypeAlias = tuple[Card, ...]


def foundation_pile(foundations: tuple[Pile, ...], card: Card) -> int | None:
    """The leftmost foundation that takes the card: an empty one for an Ace, else one whose
    top is the same suit one rank lower (``_tables.FNEED``: the face the top must show)."""
    need = FNEED[card]
    for i, pile in enumerate(foundations):
        if pile:
            if FACE[pile[-1]] == need:
                return i
        elif need == ACE_KEY:
            return i
    return None


_last_needs: tuple[tuple[Pile, ...] | None, AbstractSet[int]] = (None, frozenset())


def foundation_needs(foundations: tuple[Pile, ...]) -> AbstractSet[int]:
    """The ``FNEED`` values the foundations take: ``ACE_KEY`` and the face of each top; a
    card fits a foundation when its ``FNEED`` is among them. Kept for the last foundations
    asked about (a one-entry cache, replaced whole; foundations change only with a
    foundation move), as the move generator and the priority test ask on every move."""
    global _last_needs
    last = _last_needs
    if last[0] is foundations:
        return last[1]
    needs = {FACE[pile[-1]] for pile in foundations if pile}
    needs.add(ACE_KEY)
    _last_needs = (foundations, needs)  # never changed once stored
    return needs


def fits_foundation(foundations: tuple[Pile, ...], card: Card) -> bool:
    """Whether some foundation takes the card (an Ace always finds an empty one)."""
    return foundation_pile(foundations, card) is not None


def is_foundation_run(pile: Pile) -> bool:
    """Whether a foundation pile (bottom first) is its Ace and the next ranks in suit: its
    faces (``_tables.FACE``, the pack forgotten) are those of its suit from the Ace up
    (each card's ``FNEED`` is the face below it)."""
    if not pile or len(pile) > 13 or FNEED[pile[0]] != ACE_KEY:
        return False
    first = FACE[pile[0]]
    return tuple(map(FACE.__getitem__, pile)) == _SUIT_FACES[first : first + len(pile)]


# The faces of the four suits, Ace to King: a foundation run's faces are a slice of one.
_SUIT_FACES: Final = tuple(range(52))


def builds_on(top: Card, card: Card) -> bool:
    """Whether a house showing ``top`` takes ``card``: one rank lower, the other colour
    (``_tables.TAKES``/``KIND``)."""
    return TAKES[top] == KIND[card]


def fits_house(house: Pile, card: Card) -> bool:
    """Whether the card may go on the house: any card on an empty house, else one rank
    lower in the other colour."""
    return not house or TAKES[house[-1]] == KIND[card]


def is_run(cards: Pile) -> bool:
    """Whether the cards (bottom first) descend one rank at a time in alternating colours:
    each card's ``TAKES`` is the ``KIND`` of the card on it."""
    if len(cards) < 2:
        return True
    return list(map(TAKES.__getitem__, cards[:-1])) == list(map(KIND.__getitem__, cards[1:]))


def fits_load(top: Card, card: Card, wrap: bool) -> bool:
    """Whether the card may be loaded on this (face-up) top: same suit, one rank apart
    (King and Ace adjacent when ``wrap``)."""
    if SUIT[top] != SUIT[card]:
        return False
    gap = abs(RANK[top] - RANK[card])
    return gap == 1 or (wrap and gap == 12)


def most_cards(rules: Ruleset, free: int) -> int:
    """The most cards one house-to-house move may carry with ``free`` empty houses besides
    the destination: 1 (``group_moves="single"``), ``2**free`` (``"supermove"``) or a whole
    run (``"sequences"``); the table ``_tables.MOST_CARDS``."""
    return MOST_CARDS[rules.group_moves][free]
