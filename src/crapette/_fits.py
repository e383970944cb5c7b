"""The building rules as predicates over cards: where a card may go (a foundation, a house,
the opponent's reserve or waste), what a run is, and how many cards one move may carry.

Each is written once, on the tables of [`crapette._tables`][crapette._tables], and read by
everything that needs it: the move generators, ``apply``, the priorities of
[`crapette._laws`][crapette._laws] (which re-exports them), the check that a hand-built state
is possible ([`crapette.state.position_problems`][crapette.state.position_problems]) and the
bots. Every predicate takes the tables of the game's pack kind (``t``, from
[`tables`][crapette._fits.tables]; the standard pack's by default). The native engine
(``native/crapette_core.c``) states the same rules in C and is tested against these.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Final, TypeAlias

from crapette._tables import ACE_KEY, PACK_TABLES, PackTables
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
    "tables",
]

Pile: TypeAlias = tuple[Card, ...]

STANDARD: Final = PACK_TABLES["standard"]


def tables(rules: Ruleset) -> PackTables:
    """The tables of the rules' pack kind (``rules.pack``)."""
    return PACK_TABLES[rules.pack]


def foundation_pile(
    foundations: tuple[Pile, ...], card: Card, t: PackTables = STANDARD
) -> int | None:
    """The leftmost foundation that takes the card: an empty one for a starter (an Ace,
    trump 1 or the Excuse), else one whose top is the same family one rank lower
    (``fneed``: the face the top must show)."""
    need = t.fneed[card]
    face = t.face
    for i, pile in enumerate(foundations):
        if pile:
            if face[pile[-1]] == need:
                return i
        elif need == ACE_KEY:
            return i
    return None


_last_needs: tuple[tuple[Pile, ...] | None, AbstractSet[int]] = (None, frozenset())


def foundation_needs(foundations: tuple[Pile, ...], t: PackTables = STANDARD) -> AbstractSet[int]:
    """The ``fneed`` values the foundations take: ``ACE_KEY`` and the face of each top; a
    card fits a foundation when its ``fneed`` is among them. Kept for the last foundations
    asked about (a one-entry cache, replaced whole; foundations change only with a
    foundation move, and a game's foundations are of one pack kind), as the move generator
    and the priority test ask on every move."""
    global _last_needs
    last = _last_needs
    if last[0] is foundations:
        return last[1]
    face = t.face
    needs = {face[pile[-1]] for pile in foundations if pile}
    needs.add(ACE_KEY)
    _last_needs = (foundations, needs)  # never changed once stored
    return needs


def fits_foundation(foundations: tuple[Pile, ...], card: Card, t: PackTables = STANDARD) -> bool:
    """Whether some foundation takes the card (a starter always finds an empty one)."""
    return foundation_pile(foundations, card, t) is not None


def is_foundation_run(pile: Pile, t: PackTables = STANDARD) -> bool:
    """Whether a foundation pile (bottom first) is a starter and the next ranks of its family."""
    fneed, face = t.fneed, t.face
    return (
        bool(pile)
        and fneed[pile[0]] == ACE_KEY
        and all(fneed[pile[i]] == face[pile[i - 1]] for i in range(1, len(pile)))
    )


def builds_on(top: Card, card: Card, t: PackTables = STANDARD) -> bool:
    """Whether a house showing ``top`` takes ``card``: a suit card one rank lower of the other
    colour, a trump one rank lower (``takes``/``kind``)."""
    return t.takes[top] == t.kind[card]


def fits_house(house: Pile, card: Card, t: PackTables = STANDARD) -> bool:
    """Whether the card may go on the house: any card on an empty house, else one that
    builds on its top."""
    return not house or t.takes[house[-1]] == t.kind[card]


def is_run(cards: Pile, t: PackTables = STANDARD) -> bool:
    """Whether the cards (bottom first) descend one at a time, each building on the one
    below (alternating colours for suits): each card's ``takes`` is the ``kind`` of the card
    on it."""
    if len(cards) < 2:
        return True
    return list(map(t.takes.__getitem__, cards[:-1])) == list(map(t.kind.__getitem__, cards[1:]))


def fits_load(top: Card, card: Card, wrap: bool, t: PackTables = STANDARD, match: int = 0) -> bool:
    """Whether the card may be loaded on this (face-up) top: ``match`` 0 (``load_match=suit``)
    the same family one rank apart, 1 (``colour``) a suit card of the other colour or a
    trump on a trump, one rank apart; a family's top and starter adjacent when ``wrap``."""
    face = t.face
    return bool(t.loads[match][wrap][face[top]] >> face[card] & 1)


def most_cards(rules: Ruleset, free: int, t: PackTables = STANDARD) -> int:
    """The most cards one house-to-house move may carry with ``free`` empty houses besides
    the destination: 1 (``group_moves="single"``), ``2**free`` (``"supermove"``) or a whole
    run (``"whole"``: the pack's longest, ``t.most``)."""
    group = rules.group_moves
    if group == "single":
        return 1
    if group == "supermove":
        return 1 << free
    return t.most
