"""Dealing: a portable seeded shuffle, the layout of a deal from two pack orders, and who
starts.

The shuffle is the same on every Python version and platform: a SplitMix64 generator
(Steele, Lea and Flood, 2014) seeded with the seed modulo 2**64, unbiased bounded integers
by rejection, and a Fisher-Yates shuffle from the last position down. ``new_game`` shuffles
pack 0, then pack 1, then (for the cut rule) draws the cut cards, all from one generator.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence

from crapette._quote import show
from crapette.cards import PACKS, Card, Pack, full_pack
from crapette.errors import CrapetteError, InvalidArgumentError, InvalidPositionError
from crapette.rules import Ruleset, as_ruleset
from crapette.state import _NATIVE, GameState

__all__ = ["Rng", "deal", "new_game", "random_seed", "shuffled"]

_log = logging.getLogger(__name__)

_MASK = (1 << 64) - 1
_BOUND = 1 << 64  # the largest bound Rng.below serves


class Rng:
    """SplitMix64: a tiny, portable, seedable generator of 64-bit integers."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        """Seed with any ``int`` (taken modulo 2**64)."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"a seed must be an int, not {type(seed).__name__}")
        self._state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit unsigned integer."""
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias).

        Args:
            n: the bound, an ``int`` from 1 to 2**64 (the draws are 64-bit: a larger bound
                could never be served).

        Raises:
            InvalidArgumentError: ``n`` is not an ``int`` from 1 to 2**64.
        """
        if isinstance(n, bool) or not isinstance(n, int) or not 0 < n <= _BOUND:
            raise InvalidArgumentError(f"below() needs an int bound from 1 to 2**64, not {show(n)}")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) / (1 << 53)

    def choice(self, items: Sequence[object]) -> object:
        """One item of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]


def shuffled(cards: Iterable[Card], rng: Rng) -> tuple[Card, ...]:
    """The cards in a uniformly random order (Fisher-Yates, last position first)."""
    if _NATIVE is not None and type(cards) is tuple and type(rng) is Rng:
        try:
            out, rng._state = _NATIVE.shuffled(cards, rng._state)
        except TypeError:  # not all cards: the Python shuffle below
            pass
        else:
            return tuple(out)
    out_list = list(cards)
    for i in range(len(out_list) - 1, 0, -1):
        j = rng.below(i + 1)
        out_list[i], out_list[j] = out_list[j], out_list[i]
    return tuple(out_list)


def new_game(rules: Ruleset | str | None = None, *, seed: int | None = None) -> GameState:
    """A new deal, shuffled from an integer seed; the same seed always gives the same deal.

    Args:
        rules: a [`Ruleset`][crapette.Ruleset], a preset name (``"serbian"``) or a rules string
            (``"serbian(house_filling=immediate)"``); default ``classic``.
        seed: any ``int``; ``None`` (the default) draws a fresh random seed from
            [`random_seed`][crapette.deal.random_seed] and logs it (logger
            ``crapette.deal``, level INFO), so that a random deal can still be replayed:
            ``new_game(rules, seed=that_seed)``.

    Raises:
        TypeError: the seed is not an ``int``.
        InvalidRulesError: a bad rules string.
    """
    rules = _rules(rules)
    if seed is None:
        seed = random_seed()
        _log.info("new_game: a random deal, seed=%d (rules %s)", seed, rules)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed must be an int, not {type(seed).__name__}")
    if _NATIVE is not None:
        return _NATIVE.new_game(rules, seed)  # type: ignore[no-any-return]
    rng = Rng(seed)
    pack0 = shuffled(full_pack(0, rules.pack), rng)
    pack1 = shuffled(full_pack(1, rules.pack), rng)
    starter = cut(pack0, pack1, rng) if rules.first_player == "cut" else None
    return deal(rules, pack0, pack1, starter=starter)


def random_seed() -> int:
    """A fresh random deal seed (63 bits from the operating system's generator,
    ``secrets``): what ``new_game()`` uses when given no seed."""
    return secrets.randbits(63)


def cut(pack0: Sequence[Card], pack1: Sequence[Card], rng: Rng) -> int:
    """Each player cuts a random card of their own pack; the lower rank starts (a trump by
    its number, the Excuse 0); a tie is cut again."""
    while True:
        a = pack0[rng.below(len(pack0))].rank
        b = pack1[rng.below(len(pack1))].rank
        if a != b:
            return 0 if a < b else 1


def deal(
    rules: Ruleset | None,
    pack0: Sequence[Card | int | str],
    pack1: Sequence[Card | int | str],
    *,
    starter: int | None = None,
) -> GameState:
    """Deal from two explicit pack orders (decision 1 of the rules, ``docs/rules.md``).

    The first card of each order is the top of the face-down pack and is dealt first: the
    reserve (``rules.reserve_size`` cards, the last dealt on top), then the 4 houses, nearest
    the reserve first, then the rest is the hand with the next card of the order on top.

    Args:
        rules: the ruleset (default: ``classic``).
        pack0: the cards of player 0's pack (52 with the standard pack, or the rules'
            tarot pack's), in dealing order.
        pack1: the cards of player 1's pack.
        starter: who starts; by default the ruleset's first-player rule decides. For the
            ``cut`` rule without a starter, the packs' bottom cards are compared (then the
            next ones up on a tie), since an explicit order leaves nothing to cut at random.

    Raises:
        InvalidPositionError: a pack is not a sequence of exactly its owner's cards (names
            the missing, doubled or foreign cards, or the place of one that is not a card).
        InvalidArgumentError: the starter is not 0 or 1.
    """
    rules = _rules(rules)
    packs = (_check_pack(pack0, 0, rules.pack), _check_pack(pack1, 1, rules.pack))
    n = rules.reserve_size
    reserves = (packs[0][:n], packs[1][:n])
    houses = (*packs[0][n : n + 4], *packs[1][n : n + 4])
    hands = (packs[0][n + 4 :][::-1], packs[1][n + 4 :][::-1])
    house_piles = tuple((c,) for c in houses)
    up = 1 if rules.reserve_face_up else 0
    if starter is None:
        starter = first_player(rules, reserves, house_piles, packs)
    elif starter not in (0, 1):
        raise InvalidArgumentError(f"starter must be 0 or 1, not {show(starter)}")
    calls = rules.stop != "enforced" and rules.call_window == "turn_start"
    return GameState(
        rules=rules,
        to_act=starter,
        foundations=((),) * PACKS[rules.pack].foundations,
        houses=house_piles,
        reserves=reserves,
        reserve_up=(up, up),
        hands=hands,
        wastes=((), ()),
        window=calls,
    )


def first_player(
    rules: Ruleset,
    reserves: tuple[tuple[Card, ...], tuple[Card, ...]],
    houses: tuple[tuple[Card, ...], ...],
    packs: tuple[tuple[Card, ...], tuple[Card, ...]],
) -> int:
    """Who starts a freshly dealt deal under the ruleset's first-player rule.

    ``reserve``: the lower reserve top; on a tie the houses next to each reserve, then the
    next pair outward; all equal: player 0. ``reserve_first_house``: the same with the first
    house only. ``cut`` (no cut drawn): the packs' bottom cards, then the next ones up.
    """
    if rules.first_player == "cut":
        pairs = [(a, b) for a, b in zip(packs[0][::-1], packs[1][::-1], strict=True)]
    else:
        pairs = [(reserves[0][-1], reserves[1][-1])]
        outward = 4 if rules.first_player == "reserve" else 1
        pairs += [(houses[i][0], houses[4 + i][0]) for i in range(outward)]
    rank = PACKS[rules.pack].rank
    for a, b in pairs:
        if rank[a] != rank[b]:
            return 0 if rank[a] < rank[b] else 1
    return 0


def _rules(rules: Ruleset | str | None) -> Ruleset:
    return as_ruleset(rules)


def _check_pack(pack: Sequence[Card | int | str], owner: int, kind: str) -> tuple[Card, ...]:
    deck = PACKS[kind]
    size = deck.size
    if isinstance(pack, str | bytes) or not isinstance(pack, Sequence):
        raise InvalidPositionError(
            f"pack{owner} must be a sequence of {size} cards, not {type(pack).__name__}"
        )
    cards = tuple(_pack_card(c, owner, i, deck) for i, c in enumerate(pack))
    counts = Counter(cards)
    mine = deck.player_cards(owner)
    expected = set(mine)
    problems = []
    missing = [deck.text[c] for c in mine if c not in counts]
    doubled = [deck.text[c] for c, k in counts.items() if k > 1]
    foreign = [deck.text[c] for c in counts if c not in expected]
    if missing:
        problems.append("missing " + " ".join(missing))
    if doubled:
        problems.append("doubled " + " ".join(doubled))
    if foreign:
        problems.append(f"not of pack {owner}: " + " ".join(foreign))
    if problems or len(cards) != size:
        raise InvalidPositionError(
            f"pack{owner} must hold the {size} cards of player {owner}'s pack once each"
            f" ({len(cards)} given): " + "; ".join(problems or ["wrong length"])
        )
    return cards


def _pack_card(value: Card | int | str, owner: int, index: int, deck: Pack) -> Card:
    if isinstance(value, Card) and value._deck is deck:
        return value
    try:
        if isinstance(value, str):
            return deck.parse(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"a card is an int or a text like '7H', not {value!r}")
        return deck.card(int(value))
    except (CrapetteError, TypeError) as exc:
        raise InvalidPositionError(f"pack{owner}[{index}] is not a card: {exc}") from None
