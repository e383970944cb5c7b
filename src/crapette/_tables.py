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

from collections.abc import Iterator, Mapping
from typing import Final, NamedTuple

from crapette.cards import FACE, PACK, PACKS, RANK, RED, SUIT, TEXT, TRUMPS, Card, Pack
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
    "PACK_TABLES",
    "RANK",
    "RED",
    "SUIT",
    "TAKES",
    "TEXT",
    "TO_HOUSES",
    "PackTables",
    "house_key",
    "houses_key",
    "keys_of",
    "layout_key_after",
]

_DEPTHS = 16
_MASK = (1 << 64) - 1


def _keys(count: int) -> tuple[int, ...]:
    # SplitMix64 from a fixed seed: the same keys everywhere.
    mask = (1 << 64) - 1
    x = 0x5EED
    out = []
    for _ in range(8 * _DEPTHS * count):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return tuple(out)


HOUSE_KEYS: Final[tuple[int, ...]] = _keys(104)
"""Zobrist keys of the standard pack: ``HOUSE_KEYS[(house * 16 + depth) * 104 + card]`` for a
card at that depth (0 = bottom) of that house. A pack of ``n`` cards a player has the keys
``(house * 16 + depth) * 2n + card`` of the same stream."""

_KEYS: dict[int, tuple[int, ...]] = {104: HOUSE_KEYS}


def keys_of(count: int) -> tuple[int, ...]:
    """The Zobrist keys of a game of ``count`` cards (both packs), computed once."""
    keys = _KEYS.get(count)
    if keys is None:
        keys = _KEYS[count] = _keys(count)
    return keys


def house_key(house: int, depth: int, card: int, count: int = 104) -> int:
    """The Zobrist key of ``card`` at ``depth`` (0 = bottom) of ``house`` in a game of
    ``count`` cards (104 with the standard pack): the keys for the 16 depths a house of
    play reaches, rotated a byte further for every 16 cards deeper (only a hand-built house,
    or a tarot pack's run of trumps, is ever that deep), so that every layout has a key."""
    keys = HOUSE_KEYS if count == 104 else keys_of(count)
    key = keys[(house * _DEPTHS + (depth & 15)) * count + card]
    turn = (depth >> 4) * 8 & 63
    return ((key << turn) | (key >> (64 - turn))) & _MASK if turn else key


def houses_key(houses: tuple[tuple[Card, ...], ...], count: int = 104) -> int:
    """The Zobrist hash of a house layout (XOR of the key of every card at its place) in a
    game of ``count`` cards."""
    key = 0
    for h, pile in enumerate(houses):
        if len(pile) > _DEPTHS or count != 104:  # (a hand-built house, or another pack)
            for depth, card in enumerate(pile):
                key ^= house_key(h, depth, card, count)
            continue
        base = h * _DEPTHS * 104
        for card in pile:  # HOUSE_KEYS[(h * _DEPTHS + depth) * 104 + card], depth by depth
            key ^= HOUSE_KEYS[base + card]
            base += 104
    return key


def layout_key_after(
    key: int,
    houses: tuple[tuple[Card, ...], ...],
    source: int,
    target: int,
    count: int,
    cards: int = 104,
) -> int:
    """The layout key after ``count`` cards go from house ``source`` to house ``target``, from
    the key ``key`` of ``houses`` in a game of ``cards`` cards: each moved card's key leaves
    its place and arrives at the new one (the no-cycle rule's one computation: ``apply``,
    the rules and the generator call it)."""
    pile = houses[source]
    depth = len(pile) - count
    dest = len(houses[target])
    for i, card in enumerate(pile[depth:]):
        key ^= house_key(source, depth + i, card, cards) ^ house_key(target, dest + i, card, cards)
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


# --------------------------------------------------------------------------------------
# The tables of every kind of pack (the ``pack`` option); the names above are the standard
# pack's, which the standard pack's hot paths read directly.


class PackTables(NamedTuple):
    """The rules' tables of one kind of pack, indexed by card code (``PACK_TABLES[name]``).

    Attributes:
        name: the pack kind.
        ncards: cards in play (both packs: 104, 112, 154 or 156).
        foundations: foundation piles (8, or 10 with the trumps).
        most: the longest group a move may carry (13, 14, 21 or 22: a whole run).
        face: ``code % size``: the card with its owner forgotten.
        rank: the rank (a trump's number).
        fneed: the face a foundation top must show for the card to go on it (``ACE_KEY``
            for a starter, which goes on an empty foundation).
        kind: the card's building kind (colour and rank; a trump's number).
        takes: the kind a house top takes (``none`` for an Ace, and for a trump with no
            trump below it).
        none: the kind no card has.
        loads: ``loads[match][wrap][face]``: the faces that load on a pile showing
            ``face`` (``match`` 0 for ``suit``, 1 for ``colour``), as a bitmask.
        text: the card's text.
        owner: the player whose pack the card belongs to.
        cards: the card objects, by code.
    """

    name: str
    ncards: int
    foundations: int
    most: int
    face: tuple[int, ...]
    rank: tuple[int, ...]
    fneed: tuple[int, ...]
    kind: tuple[int, ...]
    takes: tuple[int, ...]
    none: int
    loads: tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]
    text: tuple[str, ...]
    owner: tuple[int, ...]
    cards: tuple[Card, ...]


def _pack_tables(deck: Pack) -> PackTables:
    r = deck.ranks
    trumps = bool(deck.trumps)
    none = 2 * r + 22 if trumps else 2 * r
    low = 0 if deck.trumps == 22 else 1
    kind, takes, fneed = [], [], []
    for code in range(len(deck.cards)):
        suit, rank, red = deck.suit[code], deck.rank[code], deck.red[code]
        if suit == TRUMPS:
            kind.append(2 * r + rank)
            takes.append(2 * r + rank - 1 if rank - 1 >= low else none)
        else:
            kind.append(red * r + rank - 1)
            takes.append((not red) * r + rank - 2 if rank > 1 else none)
        fneed.append(ACE_KEY if deck.starter[code] else deck.face[code] - 1)
    faces = deck.size  # faces 0..size-1: the cards of pack 0
    # the faces of each family by rank, to find a top's neighbours at once
    by_rank: dict[tuple[int, int], int] = {(deck.suit[f], deck.rank[f]): f for f in range(faces)}
    families = range(5 if deck.trumps else 4)

    def loads(match: int, wrap: bool) -> tuple[int, ...]:
        out = []
        for top in range(faces):
            family, rank = deck.suit[top], deck.rank[top]
            if family == TRUMPS or not match:
                kin = [family]
            else:  # colour: the suits of the other colour
                kin = [f for f in families if f != TRUMPS and (f in (1, 2)) != deck.red[top]]
            mask = 0
            for other in kin:
                for near in (rank - 1, rank + 1):
                    face = by_rank.get((other, near))
                    if face is not None:
                        mask |= 1 << face
                if wrap:  # a family's top and starter are adjacent
                    start = 0 if other == TRUMPS and deck.trumps == 22 else 1
                    end = 21 if other == TRUMPS else deck.ranks
                    if deck.top[top] and (other, start) in by_rank:
                        mask |= 1 << by_rank[(other, start)]
                    if deck.starter[top] and (other, end) in by_rank:
                        mask |= 1 << by_rank[(other, end)]
            out.append(mask)
        return tuple(out)

    most = max(r, deck.trumps)
    return PackTables(
        name=deck.name,
        ncards=len(deck.cards),
        foundations=deck.foundations,
        most=most,
        face=deck.face,
        rank=deck.rank,
        fneed=tuple(fneed),
        kind=tuple(kind),
        takes=tuple(takes),
        none=none,
        loads=(
            (loads(0, False), loads(0, True)),
            (loads(1, False), loads(1, True)),
        ),
        text=deck.text,
        owner=deck.owner,
        cards=deck.cards,
    )


class _Lazy(Mapping[str, PackTables]):
    """Each pack kind's tables, computed the first time they are read (``import crapette``
    computes none but the standard pack's)."""

    def __init__(self) -> None:
        self._tables: dict[str, PackTables] = {}

    def __getitem__(self, name: str) -> PackTables:
        tables = self._tables.get(name)
        if tables is None:
            tables = self._tables[name] = _pack_tables(PACKS[name])
        return tables

    def __iter__(self) -> Iterator[str]:
        return iter(PACKS)

    def __len__(self) -> int:
        return len(PACKS)


PACK_TABLES: Final[Mapping[str, PackTables]] = _Lazy()
"""The rules' tables of every kind of pack (``PACK_TABLES[rules.pack]``, computed the first
time a pack kind is read)."""
