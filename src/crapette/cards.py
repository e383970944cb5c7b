"""Cards: the packs the players deal from, the encoding of their cards and lookup tables.

Each player has a pack of their own; the ``pack`` option of the rules says which kind (the
52-card ``standard`` pack, or a tarot pack: ``tarot56`` adds a Knight to each suit,
``tarot77`` adds the trumps 1..21 as a fifth family, ``tarot78`` the Excuse as trump 0; see
[`PACKS`][crapette.cards.PACKS]). A [`Card`][crapette.cards.Card] is an ``int``, its code in
the pack kind of its game::

    code = pack * n + suit * r + (rank - 1)           # a suit card
    code = pack * n + 4 * r + (rank - 1)              # trump 1..21 of tarot77
    code = pack * n + 4 * r + rank                    # trump 0..21 of tarot78

with ``n`` the cards of one pack (52, 56, 77 or 78), ``r`` the ranks of a suit (13, or 14
with the Knight), ``pack`` 0 or 1 (whose pack the card belongs to), ``suit`` 0..3 in the
order spades, hearts, diamonds, clubs, and ``rank`` 1 (Ace) to 13 or 14 (King); a trump's
rank is its number (the Excuse 0). With the standard pack a card is ``pack * 52 + suit * 13
+ rank - 1``, 0..103. Being an ``int`` keeps piles cheap to copy, hash and compare; the
tables below let the move generator look a property up instead of computing it.

The text form is rank then suit, ``A 2 3 4 5 6 7 8 9 T J Q K`` (tarot packs: ``... T J N Q
K``, ``N`` the Knight) and ``S H D C``; the suit letter is upper case for pack 0 and lower
case for pack 1: ``7H`` is the seven of hearts of player 0's pack, ``7h`` the one of player
1's pack. A trump is its number then ``M`` (pack 0) or ``m`` (pack 1): ``1M``..``21M``,
``17m``, the Excuse ``0M``.
"""

from __future__ import annotations

import re
import types
from collections.abc import Mapping
from typing import ClassVar, Final, final

from crapette import _spec
from crapette._quote import quote, show
from crapette.errors import InvalidArgumentError, NotationError

__all__ = ["ALL_CARDS", "PACKS", "Card", "Pack", "format_card", "full_pack", "parse_card"]

RANK_CHARS: Final = "A23456789TJQK"
"""Rank characters of the standard pack, index ``rank - 1``."""
TAROT_RANK_CHARS: Final = "A23456789TJNQK"
"""Rank characters of a tarot pack's suits, index ``rank - 1`` (``N``: the Knight)."""
SUIT_CHARS: Final = "SHDC"
"""Suit letters of pack 0 (pack 1 uses the lower-case letters), index ``suit``."""
SUIT_SYMBOLS: Final = "♠♥♦♣"
"""Suit symbols for human-readable text, index ``suit``."""
TRUMP_SYMBOL: Final = "★"
"""The symbol of a trump in human-readable text (``17★``)."""
RANK_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TAROT_RANK_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TRUMPS: Final = 4
"""The family (``Card.suit``) of the trumps."""


class Card(int):
    """One card: an ``int``, its code in the pack kind of its game.

    Build one from its code or its text: ``Card(6)`` and ``Card("7S")`` are the seven of
    spades of pack 0 of the standard pack; ``Card("7s")`` is the same card of pack 1.
    ``Card("NH", pack="tarot56")`` is the Knight of hearts of player 0's tarot pack,
    ``Card("17m", pack="tarot77")`` trump 17 of player 1's. A card knows its pack kind
    ([`pack_name`][crapette.cards.Card.pack_name]); cards of the standard pack are of this
    class itself, those of a tarot pack of a subclass per pack kind.
    """

    __slots__ = ()

    _deck: ClassVar[Pack]

    def __new__(cls, value: int | str, pack: str | None = None) -> Card:
        """Return the card with this code (0..103 for the standard pack) or this text
        (``"7H"``, ``"7h"``, ``"17M"``) of the pack kind ``pack`` (default: the standard
        pack, or the pack kind of ``cls``).

        Raises:
            NotationError: a text that is not a card of the pack.
            InvalidArgumentError: a code outside the pack, or an unknown pack kind.
            TypeError: neither an ``int`` nor a ``str``.
        """
        deck = _deck_of(pack) if pack is not None else cls.__dict__.get("_deck")
        if deck is None:  # building the standard pack's own cards
            return int.__new__(cls, value)
        if isinstance(value, str):
            return deck.parse(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(
                f"a card is an int in range({len(deck.cards)}) or a text like '7H', not {value!r}"
            )
        return deck.card(value)

    @property
    def pack(self) -> int:
        """The player (0 or 1) whose pack the card belongs to."""
        return self._deck.owner[self]

    @property
    def pack_name(self) -> str:
        """The pack kind of the card's game: ``"standard"``, ``"tarot56"``, ``"tarot77"``
        or ``"tarot78"`` (the ``pack`` option of the rules)."""
        return self._deck.name

    @property
    def suit(self) -> int:
        """The family: 0 spades, 1 hearts, 2 diamonds, 3 clubs, 4 trumps."""
        return self._deck.suit[self]

    @property
    def rank(self) -> int:
        """The rank: 1 (Ace) to 13 (King; 14 with the Knight of a tarot pack); a trump's
        number (the Excuse 0)."""
        return self._deck.rank[self]

    @property
    def red(self) -> bool:
        """True for hearts and diamonds (trumps have no colour)."""
        return self._deck.red[self]

    @property
    def trump(self) -> bool:
        """True for a trump (the Excuse included)."""
        return self._deck.suit[self] == TRUMPS

    @property
    def text(self) -> str:
        """The short text form, ``"7H"`` (pack 0), ``"7h"`` (pack 1), ``"17M"``."""
        return self._deck.text[self]

    @property
    def symbol(self) -> str:
        """A human-readable form with the suit symbol, ``"7♥"``, ``"17★"`` (the pack is
        not shown)."""
        return self._deck.symbol[self]

    def __str__(self) -> str:
        return self._deck.text[self]

    def __repr__(self) -> str:
        deck = self._deck
        if deck.name == "standard":
            return f"Card({deck.text[self]!r})"
        return f"Card({deck.text[self]!r}, pack={deck.name!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (int(self), self._deck.name))


_TRUMP_TEXT: Final = re.compile(r"(0|[1-9][0-9]?)([Mm])\Z")


@final
class Pack:
    """A kind of pack (the ``pack`` option): its cards and their tables, indexed by code.

    Attributes:
        name: the value of the ``pack`` option (``"standard"``, ``"tarot77"``, ...).
        size: cards in one player's pack.
        ranks: ranks in each of the 4 suits (13, or 14 with the Knight).
        trumps: trump cards (0, 21, or 22 with the Excuse).
        foundations: foundation piles on the table (two per family).
        families: 4, or 5 with the trumps.
        cards: every card of both players' packs, by code.
        owner: the player whose pack each card belongs to.
        suit: each card's family (4: trumps).
        rank: each card's rank (a trump's number).
        red: whether each card is red.
        face: each card's code with the owner forgotten (``code % size``).
        text: each card's short text (``"NH"``, ``"17m"``).
        symbol: each card's text for people (``"N♥"``, ``"17★"``).
        starter: whether each card starts a foundation (an Ace, trump 1, or the Excuse).
        top: whether each card ends a foundation (a King, or trump 21).
    """

    __slots__ = (
        "_by_text",
        "cards",
        "face",
        "families",
        "foundations",
        "name",
        "owner",
        "rank",
        "ranks",
        "red",
        "size",
        "starter",
        "suit",
        "symbol",
        "text",
        "top",
        "trumps",
    )

    def __init__(self, spec: _spec.Pack, card_class: type[Card]) -> None:
        self.name = spec.name
        self.size = spec.cards
        self.ranks = spec.ranks
        self.trumps = spec.trumps
        self.foundations = spec.foundations
        self.families = 5 if spec.trumps else 4
        chars = RANK_CHARS if spec.ranks == 13 else TAROT_RANK_CHARS
        names = RANK_NAMES if spec.ranks == 13 else TAROT_RANK_NAMES
        low_trump = 0 if spec.trumps == 22 else 1
        suit, rank, text, symbol = [], [], [], []
        for owner in (0, 1):
            for face in range(spec.cards):
                family, index = divmod(face, spec.ranks)
                if family < 4:
                    letter = SUIT_CHARS[family] if owner == 0 else SUIT_CHARS[family].lower()
                    suit.append(family)
                    rank.append(index + 1)
                    text.append(chars[index] + letter)
                    symbol.append(names[index] + SUIT_SYMBOLS[family])
                else:
                    number = face - 4 * spec.ranks + low_trump
                    suit.append(TRUMPS)
                    rank.append(number)
                    text.append(f"{number}{'M' if owner == 0 else 'm'}")
                    symbol.append(f"{number}{TRUMP_SYMBOL}")
        count = 2 * spec.cards
        self.owner = tuple(code // spec.cards for code in range(count))
        self.face = tuple(code % spec.cards for code in range(count))
        self.suit = tuple(suit)
        self.rank = tuple(rank)
        self.red = tuple(s in (HEARTS, DIAMONDS) for s in suit)
        self.text = tuple(text)
        self.symbol = tuple(symbol)
        self.starter = tuple(
            r == (low_trump if s == TRUMPS else 1) for s, r in zip(suit, rank, strict=True)
        )
        self.top = tuple(
            r == (21 if s == TRUMPS else spec.ranks) for s, r in zip(suit, rank, strict=True)
        )
        self.cards = tuple(card_class(code) for code in range(count))
        self._by_text = dict(zip(self.text, self.cards, strict=True))

    def card(self, code: int) -> Card:
        """The card with this code.

        Raises:
            InvalidArgumentError: a code outside ``0..len(cards) - 1``.
        """
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < len(self.cards):
            raise InvalidArgumentError(
                f"no card has index {show(code)}: a card index is 0..{len(self.cards) - 1}"
                + ("" if self.name == "standard" else f" in the {self.name} pack")
            )
        return self.cards[code]

    def player_cards(self, player: int) -> tuple[Card, ...]:
        """The cards of one player's pack, by code.

        Raises:
            InvalidArgumentError: ``player`` is not 0 or 1.
        """
        if isinstance(player, bool) or player not in (0, 1):
            raise InvalidArgumentError(f"pack must be 0 or 1, not {show(player)}")
        return self.cards[player * self.size : (player + 1) * self.size]

    def parse(self, text: str) -> Card:
        """Parse a card's short text (``"7H"``, ``"Td"``, ``"10h"``; ``"NH"``, ``"17M"``
        in a tarot pack; a rank letter in either case, the suit letter's case tells the
        pack).

        Raises:
            NotationError: the text is not a card of this pack, with the position of the
                bad character.
        """
        if not isinstance(text, str):
            raise TypeError(f"a card text must be a str, not {type(text).__name__}")
        card = self._by_text.get(text)
        if card is not None:
            return card
        trump = _TRUMP_TEXT.match(text)
        if trump is not None:
            return self._trump(text, int(trump.group(1)), trump.group(2))
        chars = RANK_CHARS if self.ranks == 13 else TAROT_RANK_CHARS
        body = text
        if body.startswith("10"):
            body = "T" + body[2:]
        if len(body) == 2 and body[0].upper() in chars and body[1] in SUIT_CHARS + "shdc":
            return self._by_text[body[0].upper() + body[1]]
        if body[:1].isdigit() and self.trumps and text[-1:] in "Mm":
            raise NotationError(
                f"expected a trump number 1..21 (the Excuse 0M in tarot78) without leading zeros"
                f" at 0 in {quote(text, 0)}",
                text,
                0,
            )
        if not body or body[0].upper() not in chars:
            what = f"one of {chars}" + (", or a trump number" if self.trumps else "")
            if body[:1] == "N" and self.ranks == 13:
                what += "; N, the Knight, is in tarot packs only"
            raise NotationError(f"expected a rank ({what}) at 0 in {quote(text, 0)}", text, 0)
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

    def _trump(self, text: str, number: int, letter: str) -> Card:
        low = 0 if self.trumps == 22 else 1
        if not self.trumps or not low <= number <= 21:
            where = (
                "the standard pack and tarot56 have no trumps"
                if not self.trumps
                else "the Excuse 0M is in tarot78 only"
                if number == 0
                else "trumps are 1..21"
            )
            raise NotationError(
                f"no trump {quote(text, 0)} in the {self.name} pack: {where}", text, 0
            )
        owner = 0 if letter == "M" else 1
        return self.cards[owner * self.size + 4 * self.ranks + number - low]

    def __repr__(self) -> str:
        return f"PACKS[{self.name!r}]"


def _deck_of(name: str) -> Pack:
    try:
        return PACKS[name]
    except (KeyError, TypeError):
        raise InvalidArgumentError(
            f"unknown pack {show(name)}: expected one of {', '.join(PACKS)}"
        ) from None


def _build() -> dict[str, Pack]:
    decks: dict[str, Pack] = {}
    for spec in _spec.PACKS:
        if spec.name == "standard":
            cls: type[Card] = Card
        else:
            cls = types.new_class("Card", (Card,), {}, lambda ns: ns.update(__slots__=()))
            cls.__module__ = __name__
            cls.__qualname__ = "Card"
        deck = Pack(spec, cls)
        cls._deck = deck
        decks[spec.name] = deck
    return decks


PACKS: Final[Mapping[str, Pack]] = types.MappingProxyType(_build())
"""Every kind of pack, by the value of the ``pack`` option, in the order of its values."""

STANDARD: Final = PACKS["standard"]
"""The 52-card pack."""

ALL_CARDS: Final[tuple[Card, ...]] = STANDARD.cards
"""All 104 cards of the standard packs in code order."""

PACK: Final[tuple[int, ...]] = STANDARD.owner
SUIT: Final[tuple[int, ...]] = STANDARD.suit
RANK: Final[tuple[int, ...]] = STANDARD.rank
RED: Final[tuple[bool, ...]] = STANDARD.red
TEXT: Final[tuple[str, ...]] = STANDARD.text
SYMBOL: Final[tuple[str, ...]] = STANDARD.symbol
"""The suit-symbol form of each card of the standard pack (``"7♥"``), as
[`format_card`][crapette.cards.format_card] writes it with ``symbol=True``."""
FACE: Final[tuple[int, ...]] = STANDARD.face
"""The card's face (suit and rank) with the pack forgotten: ``suit * 13 + rank - 1``."""


def parse_card(text: str, pack: str = "standard") -> Card:
    """Parse a card's short text form (``"7H"``, ``"Td"``, ``"10h"``; with a tarot
    ``pack``, ``"NH"`` and ``"17M"`` too).

    Raises:
        NotationError: the text is not a card, with the position of the bad character.
        InvalidArgumentError: an unknown pack kind.
    """
    return _deck_of(pack).parse(text)


def format_card(card: Card | int, *, symbol: bool = False) -> str:
    """The text of a card: its short form (``"7H"``, ``"7h"``, ``"17M"``), which
    [`parse_card`][crapette.cards.parse_card] reads back, or with ``symbol=True`` the
    suit-symbol form shown on screens (``"7♥"``, ``"10♠"``, ``"17★"``; the pack is not
    shown). A plain ``int`` is a card of the standard pack.

    Raises:
        InvalidArgumentError: ``card`` is an ``int`` outside 0..103.
        TypeError: ``card`` is not an ``int``.
    """
    if isinstance(card, bool) or not isinstance(card, int):
        raise TypeError(f"a card must be an int from 0 to 103, not {card!r}")
    deck = card._deck if isinstance(card, Card) else STANDARD
    if not 0 <= card < len(deck.cards):
        raise _index_error(card)
    return deck.symbol[card] if symbol else deck.text[card]


def _index_error(value: int) -> InvalidArgumentError:
    return InvalidArgumentError(f"no card has index {show(value)}: a card index is 0..103")


def full_pack(pack: int, kind: str = "standard") -> tuple[Card, ...]:
    """The cards of one player's pack (``pack`` 0 or 1) in code order (spades A..K, hearts,
    ..., then the trumps), of the pack kind ``kind``.

    Raises:
        InvalidArgumentError: ``pack`` is not 0 or 1, or an unknown pack kind.
    """
    return _deck_of(kind).player_cards(pack)
