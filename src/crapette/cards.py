"""Cards: the 104 cards of the two packs, their encoding and lookup tables.

A [`Card`][crapette.cards.Card] is an ``int`` from 0 to 103::

    index = pack * 52 + suit * 13 + (rank - 1)

with ``pack`` 0 or 1 (whose pack the card belongs to), ``suit`` 0..3 in the order
spades, hearts, diamonds, clubs, and ``rank`` 1 (Ace) to 13 (King). Being an ``int``
keeps piles cheap to copy, hash and compare; the tables below let the move generator
look a property up instead of computing it.

The text form is rank then suit, ``A 2 3 4 5 6 7 8 9 T J Q K`` and ``S H D C``; the
suit letter is upper case for pack 0 and lower case for pack 1: ``7H`` is the seven
of hearts of player 0's pack, ``7h`` the one of player 1's pack.
"""

from __future__ import annotations

from typing import Final

from crapette._quote import quote, show
from crapette.errors import InvalidArgumentError, NotationError

__all__ = ["ALL_CARDS", "Card", "format_card", "full_pack", "parse_card"]

RANK_CHARS: Final = "A23456789TJQK"
"""Rank characters, index ``rank - 1``."""
SUIT_CHARS: Final = "SHDC"
"""Suit letters of pack 0 (pack 1 uses the lower-case letters), index ``suit``."""
SUIT_SYMBOLS: Final = "♠♥♦♣"
"""Suit symbols for human-readable text, index ``suit``."""
RANK_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)


class Card(int):
    """One of the 104 cards, an ``int`` in ``range(104)``.

    Build one from its index or its text: ``Card(6)`` and ``Card("7S")`` are the seven
    of spades of pack 0; ``Card("7s")`` is the same card of pack 1.
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        """Return the card with this index (0..103) or this text (``"7H"``, ``"7h"``).

        Raises:
            NotationError: a text that is not a card.
            InvalidArgumentError: an index outside 0..103.
            TypeError: neither an ``int`` nor a ``str``.
        """
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"a card is an int in range(104) or a text like '7H', not {value!r}")
        if not 0 <= value < 104:
            raise _index_error(value)
        return _CARDS[value] if _CARDS else int.__new__(cls, value)

    @property
    def pack(self) -> int:
        """The player (0 or 1) whose pack the card belongs to."""
        return PACK[self]

    @property
    def suit(self) -> int:
        """The suit: 0 spades, 1 hearts, 2 diamonds, 3 clubs."""
        return SUIT[self]

    @property
    def rank(self) -> int:
        """The rank: 1 (Ace) to 13 (King)."""
        return RANK[self]

    @property
    def red(self) -> bool:
        """True for hearts and diamonds."""
        return RED[self]

    @property
    def text(self) -> str:
        """The short text form, ``"7H"`` (pack 0) or ``"7h"`` (pack 1)."""
        return TEXT[self]

    @property
    def symbol(self) -> str:
        """A human-readable form with the suit symbol, ``"7♥"`` (the pack is not shown)."""
        return SYMBOL[self]

    def __str__(self) -> str:
        return TEXT[self]

    def __repr__(self) -> str:
        return f"Card({TEXT[self]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


def _text(index: int) -> str:
    pack, rest = divmod(index, 52)
    suit, rank0 = divmod(rest, 13)
    letter = SUIT_CHARS[suit]
    return RANK_CHARS[rank0] + (letter if pack == 0 else letter.lower())


_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card(i) for i in range(104))

ALL_CARDS: Final[tuple[Card, ...]] = _CARDS
"""All 104 cards in index order."""

PACK: Final[tuple[int, ...]] = tuple(i // 52 for i in range(104))
SUIT: Final[tuple[int, ...]] = tuple(i % 52 // 13 for i in range(104))
RANK: Final[tuple[int, ...]] = tuple(i % 13 + 1 for i in range(104))
RED: Final[tuple[bool, ...]] = tuple(SUIT[i] in (HEARTS, DIAMONDS) for i in range(104))
TEXT: Final[tuple[str, ...]] = tuple(_text(i) for i in range(104))
SYMBOL: Final[tuple[str, ...]] = tuple(
    RANK_NAMES[i % 13] + SUIT_SYMBOLS[i % 52 // 13] for i in range(104)
)
"""The suit-symbol form of each card (``"7♥"``), as
[`format_card`][crapette.cards.format_card] writes it with ``symbol=True``."""
FACE: Final[tuple[int, ...]] = tuple(i % 52 for i in range(104))
"""The card's face (suit and rank) with the pack forgotten: ``suit * 13 + rank - 1``."""

_BY_TEXT: Final[dict[str, Card]] = {TEXT[i]: _CARDS[i] for i in range(104)}


def parse_card(text: str) -> Card:
    """Parse a card's short text form (``"7H"``, ``"Td"``, ``"10h"``).

    Raises:
        NotationError: the text is not a card, with the position of the bad character.
    """
    if not isinstance(text, str):
        raise TypeError(f"a card text must be a str, not {type(text).__name__}")
    card = _BY_TEXT.get(text)
    if card is not None:
        return card
    body = text
    if body.startswith("10"):
        body = "T" + body[2:]
    if len(body) == 2 and body[0].upper() in RANK_CHARS and body[1] in SUIT_CHARS + "shdc":
        return _BY_TEXT[body[0].upper() + body[1]]
    if not body or body[0].upper() not in RANK_CHARS:
        raise NotationError(
            f"expected a rank (one of {RANK_CHARS}) at 0 in {quote(text, 0)}", text, 0
        )
    shift = len(text) - len(body)
    if len(body) < 2 or body[1] not in SUIT_CHARS + "shdc":
        raise NotationError(
            f"expected a suit letter (S H D C for pack 0, s h d c for pack 1) at {1 + shift}"
            f" in {quote(text, 1 + shift)}",
            text,
            1 + shift,
        )
    raise NotationError(
        f"unexpected text at {2 + shift} in card {quote(text, 2 + shift)}", text, 2 + shift
    )


def format_card(card: Card | int, *, symbol: bool = False) -> str:
    """The text of a card: its short form (``"7H"``, ``"7h"``), which
    [`parse_card`][crapette.cards.parse_card] reads back, or with ``symbol=True`` the
    suit-symbol form shown on screens (``"7♥"``, ``"10♠"``; the pack is not shown).

    Raises:
        InvalidArgumentError: ``card`` is an ``int`` outside 0..103.
        TypeError: ``card`` is not an ``int``.
    """
    if isinstance(card, bool) or not isinstance(card, int):
        raise TypeError(f"a card must be an int from 0 to 103, not {card!r}")
    if not 0 <= card < 104:
        raise _index_error(card)
    return SYMBOL[card] if symbol else TEXT[card]


def _index_error(value: int) -> InvalidArgumentError:
    return InvalidArgumentError(f"no card has index {show(value)}: a card index is 0..103")


def full_pack(pack: int) -> tuple[Card, ...]:
    """The 52 cards of one player's pack in index order (spades A..K, hearts, ...).

    Raises:
        InvalidArgumentError: ``pack`` is not 0 or 1.
    """
    if isinstance(pack, bool) or pack not in (0, 1):
        raise InvalidArgumentError(f"pack must be 0 or 1, not {show(pack)}")
    return _CARDS[pack * 52 : pack * 52 + 52]
