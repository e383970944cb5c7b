"""Precomputed tables of the rules core: the move generator's fit masks and the Zobrist keys
of the house layout (the no-cycle rule), with the one function that computes a layout key
([`houses_key`][crapette._tables.houses_key]) and the one that moves it
([`layout_key_after`][crapette._tables.layout_key_after]). ``native/gen_tables.py`` writes
the same tables into the C core.

The card tables (``FACE``, ``RANK``, ``RED``, ``SUIT``, ``PACK``, ``TEXT``) live in
[`crapette.cards`][crapette.cards] and are re-exported here so the rules core reads every table from
one module.
"""

from __future__ import annotations

from typing import Final

from crapette.cards import FACE, PACK, RANK, RED, SUIT, TEXT, Card
from crapette.moves import PLAY, WASTE

__all__ = [
    "ACE_KEY",
    "BIT",
    "BITS",
    "FACE",
    "FNEED",
    "HOUSE_KEYS",
    "KIND",
    "LOADS",
    "MOST_CARDS",
    "PACK",
    "RANK",
    "RED",
    "SUIT",
    "TAKES",
    "TEXT",
    "TO_HOUSES",
    "house_key",
    "houses_key",
    "layout_key_after",
]

_DEPTHS = 16
_MASK = (1 << 64) - 1


def _keys() -> tuple[int, ...]:
    # SplitMix64 from a fixed seed: the same keys everywhere.
    mask = (1 << 64) - 1
    x = 0x5EED
    out = []
    for _ in range(8 * _DEPTHS * 104):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return tuple(out)


HOUSE_KEYS: Final[tuple[int, ...]] = _keys()
"""Zobrist keys: ``HOUSE_KEYS[(house * 16 + depth) * 104 + card]`` for a card at that depth
(0 = bottom) of that house."""


def house_key(house: int, depth: int, card: int) -> int:
    """The Zobrist key of ``card`` at ``depth`` (0 = bottom) of ``house``: ``HOUSE_KEYS`` for
    the 16 depths a house of play can reach, rotated a byte further for every 16 cards deeper
    (only a hand-built house is ever that deep), so that every layout has a key."""
    key = HOUSE_KEYS[(house * _DEPTHS + (depth & 15)) * 104 + card]
    turn = (depth >> 4) * 8 & 63
    return ((key << turn) | (key >> (64 - turn))) & _MASK if turn else key


def houses_key(houses: tuple[tuple[Card, ...], ...]) -> int:
    """The Zobrist hash of a house layout (XOR of the key of every card at its place)."""
    key = 0
    for h, pile in enumerate(houses):
        if len(pile) > _DEPTHS:  # (only a hand-built house: house_key's rotation)
            for depth, card in enumerate(pile):
                key ^= house_key(h, depth, card)
            continue
        base = h * _DEPTHS * 104
        for card in pile:  # HOUSE_KEYS[(h * _DEPTHS + depth) * 104 + card], depth by depth
            key ^= HOUSE_KEYS[base + card]
            base += 104
    return key


def layout_key_after(
    key: int, houses: tuple[tuple[Card, ...], ...], source: int, target: int, count: int
) -> int:
    """The layout key after ``count`` cards go from house ``source`` to house ``target``, from
    the key ``key`` of ``houses``: each moved card's key leaves its place and arrives at the
    new one (the no-cycle rule's one computation: ``apply``, the rules and the generator
    call it)."""
    pile = houses[source]
    depth = len(pile) - count
    dest = len(houses[target])
    for i, card in enumerate(pile[depth:]):
        key ^= house_key(source, depth + i, card) ^ house_key(target, dest + i, card)
    return key


ACE_KEY: Final = -2
"""The ``FNEED`` of an Ace: it goes on an empty foundation."""
# FNEED[c]: the face a foundation top must show for c to go on it (ACE_KEY for an Ace,
# which always finds an empty foundation).
FNEED: Final = tuple(ACE_KEY if RANK[c] == 1 else FACE[c] - 1 for c in range(104))

# Building on a house only looks at colour and rank: KIND[c] numbers the 26 colour-rank
# pairs, and TAKES[t] is the kind of card a house top ``t`` takes (one rank lower, the other
# colour); an Ace takes nothing, so its TAKES is the spare slot 26 that no card has.
KIND: Final = tuple(RED[c] * 13 + RANK[c] - 1 for c in range(104))
TAKES: Final = tuple(26 if RANK[t] == 1 else (not RED[t]) * 13 + RANK[t] - 2 for t in range(104))


def _adjacent(face: int, wrap: bool) -> int:
    suit, rank0 = divmod(face, 13)
    ranks = {rank0 - 1, rank0 + 1}
    if wrap:
        ranks = {r % 13 for r in ranks}
    return sum(1 << (suit * 13 + r) for r in ranks if 0 <= r < 13)


LOADS: Final = (
    tuple(_adjacent(f, False) for f in range(52)),
    tuple(_adjacent(f, True) for f in range(52)),
)
"""LOADS[wrap][face]: the faces that may be loaded on a pile showing ``face``, as a bitmask
(bit ``f`` for face ``f``)."""

BIT: Final = tuple(1 << h for h in range(8))
"""BIT[h]: the bit of house ``h`` in a bitmask of houses."""
BITS: Final = tuple(tuple(h for h in range(8) if mask >> h & 1) for mask in range(256))
"""BITS[mask]: the houses in a bitmask of houses, in ascending order."""
TO_HOUSES: Final = tuple(
    tuple(tuple(PLAY[s][t] for t in BITS[mask] if t != s) for mask in range(256))
    for s in range(WASTE + 1)
)
"""TO_HOUSES[source][mask]: the single-card moves from ``source`` to the houses in ``mask``."""

MOST_CARDS: Final = {
    "single": (1,) * 9,
    "supermove": tuple(1 << free for free in range(9)),
    "whole": (13,) * 9,
}
"""MOST_CARDS[group_moves][free]: the most cards one house-to-house move may carry with
``free`` empty houses besides the destination (read by ``_laws.most_cards``)."""
