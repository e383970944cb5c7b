"""A small, readable position builder for scenario tests.

Write only the cards a test is about; :func:`position` puts every other card of the game
(104 with the standard pack, or the rules' tarot pack's) where it cannot interfere, so that
every test state holds each card exactly once::

    state = position(houses={0: "9S 8H", 4: "7C"}, reserve0="5D", hand0="KC", to_act=0)

Every pile is written bottom first, top last (as ``GameState`` stores it): ``"9S 8H"`` is
a house whose exposed card is the eight of hearts, ``hand0="2C KC"`` a hand whose next card
to turn is the king of clubs. Upper-case suit letters are pack 0, lower-case pack 1.

Where the other cards go: first, complete suits (A to K, so nothing ever goes on them) fill
the foundations left empty by the test; then whatever is left goes to the bottom of the
piles named by ``rest`` (by default the bottom of both hands, under the cards the test
wrote). Pass ``rest="hand1"`` (say) when a test needs player 0's hand empty.

For tests that need many positions rather than one, :func:`walk` and
:func:`random_states` give the states of a seeded random game.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence

import crapette as c
from crapette.cards import PACKS, STANDARD, Card, Pack, full_pack
from crapette.deal import Rng
from crapette.moves import ALL_MOVES

__all__ = ["cards", "deal_order", "leftovers", "position", "random_states", "walk"]

RestPile = str
_REST_PILES = ("hand0", "hand1", "waste0", "waste1", "reserve0", "reserve1")


def cards(text: str | Iterable[str | int] | None, deck: Pack = STANDARD) -> tuple[Card, ...]:
    """Parse ``"7H 8h"`` (or a sequence of texts / codes) into a pile of ``deck``'s cards,
    bottom first."""
    if text is None:
        return ()
    items = text.split() if isinstance(text, str) else list(text)
    return tuple(deck.parse(i) if isinstance(i, str) else deck.card(int(i)) for i in items)


def _piles(
    spec: Mapping[int, str] | Sequence[str] | None, count: int, deck: Pack
) -> list[tuple[Card, ...]]:
    piles: list[tuple[Card, ...]] = [()] * count
    if spec is None:
        return piles
    items = spec.items() if isinstance(spec, Mapping) else enumerate(spec)
    for i, text in items:
        piles[i] = cards(text, deck)
    return piles


def leftovers(used: Iterable[Card], deck: Pack = STANDARD) -> list[Card]:
    """The cards of the game not in ``used``, in code order."""
    taken = set(used)
    return [card for card in deck.cards if card not in taken]


def _family(deck: Pack, family: int) -> range:
    if family < 4:
        return range(1, deck.ranks + 1)
    return range(0 if deck.trumps == 22 else 1, 22)


def _complete_suits(
    free: list[Card], slots: int, deck: Pack
) -> tuple[list[tuple[Card, ...]], list[Card]]:
    """Take up to ``slots`` complete families (A..K, or the trumps; any pack for each rank)
    out of ``free``."""
    pool: dict[tuple[int, int], list[Card]] = {}
    for card in free:
        pool.setdefault((deck.suit[card], deck.rank[card]), []).append(card)
    piles: list[tuple[Card, ...]] = []
    for family in range(5 if deck.trumps else 4):
        ranks = _family(deck, family)
        for _copy in range(2):
            if len(piles) == slots:
                break
            if all(pool.get((family, rank)) for rank in ranks):
                piles.append(tuple(pool[(family, rank)].pop(0) for rank in ranks))
    remaining = [card for cards_ in pool.values() for card in cards_]
    return piles, sorted(remaining)


def position(
    *,
    houses: Mapping[int, str] | Sequence[str] | None = None,
    foundations: Mapping[int, str] | Sequence[str] | None = None,
    reserve0: str = "",
    reserve1: str = "",
    up0: int | None = None,
    up1: int | None = None,
    hand0: str = "",
    hand1: str = "",
    waste0: str = "",
    waste1: str = "",
    turned: str | None = None,
    to_act: int = 0,
    rules: c.Ruleset | str | None = None,
    rest: RestPile | Sequence[RestPile] = ("hand0", "hand1"),
    fill_foundations: bool = True,
    check_runs: bool = True,
    **counters: object,
) -> c.GameState:
    """Build a 104-card ``GameState`` from the piles a test cares about.

    Args:
        houses: house index (0..7, engine codes: 0..3 player 0's column) to its cards, or
            a list of up to 8 pile texts.
        foundations: foundation index to its cards (must be valid foundation piles).
        reserve0: player 0's reserve, bottom first; ``reserve1`` likewise.
        up0: face-up cards at the top of reserve 0 (default: 1 if the reserve has cards
            and the rules deal it face up, else 0); ``up1`` likewise.
        hand0: player 0's hand, bottom first (the last card is the next one turned).
        hand1: player 1's hand.
        waste0: player 0's waste, bottom first (the last card is its top).
        waste1: player 1's waste.
        turned: the turned hand card of ``to_act`` (the player whose turn it is).
        to_act: the player to act.
        rules: a ``Ruleset``, a rules string, or ``None`` for ``classic``.
        rest: where the cards not written go (after the complete suits on the
            foundations): one of ``hand0 hand1 waste0 waste1 reserve0 reserve1`` or several,
            dealt round-robin; always to the bottom of the pile.
        fill_foundations: put complete suits on the empty foundations first.
        check_runs: refuse houses that are not one descending alternating run (in play a
            house is always one: cards arrive only by building or on an empty house).
        **counters: further ``GameState`` fields (``passes``, ``emptied``, ``seen``,
            ``moves_made``, ``stop``).

    Raises:
        ValueError: a card is written twice, or a foundation pile is not A, 2, 3... in suit.
    """
    if isinstance(rules, str):
        rules = c.Ruleset.from_string(rules)
    rules = rules or c.Ruleset()
    deck = PACKS[rules.pack]
    house_piles = _piles(houses, 8, deck)
    found_piles = _piles(foundations, deck.foundations, deck)
    for pile in house_piles if check_runs else ():
        for low, high in itertools.pairwise(pile):
            trumps = deck.suit[low] == 4
            if (
                deck.rank[low] != deck.rank[high] + 1
                or (deck.suit[high] == 4) != trumps
                or (not trumps and deck.red[low] == deck.red[high])
            ):
                raise ValueError(f"house {[str(x) for x in pile]} is not one run")
    for pile in found_piles:
        for depth, card in enumerate(pile):
            first = _family(deck, deck.suit[pile[0]])[0]
            if deck.rank[card] != first + depth or deck.suit[card] != deck.suit[pile[0]]:
                raise ValueError(
                    f"foundation pile {[str(x) for x in pile]} is not A, 2, ... in suit"
                )
    piles: dict[str, tuple[Card, ...]] = {
        "reserve0": cards(reserve0, deck),
        "reserve1": cards(reserve1, deck),
        "hand0": cards(hand0, deck),
        "hand1": cards(hand1, deck),
        "waste0": cards(waste0, deck),
        "waste1": cards(waste1, deck),
    }
    turned_card = deck.parse(turned) if turned is not None else None
    used: list[Card] = [card for pile in (*house_piles, *found_piles) for card in pile]
    for pile in piles.values():
        used.extend(pile)
    if turned_card is not None:
        used.append(turned_card)
    doubled = sorted({str(x) for x in used if used.count(x) > 1})
    if doubled:
        raise ValueError(f"cards written twice: {' '.join(doubled)}")

    free = leftovers(used, deck)
    if fill_foundations:
        empty_slots = [i for i in range(deck.foundations) if not found_piles[i]]
        complete, free = _complete_suits(free, len(empty_slots), deck)
        for slot, pile in zip(empty_slots, complete, strict=False):
            found_piles[slot] = pile
    targets = [rest] if isinstance(rest, str) else list(rest)
    for name in targets:
        if name not in _REST_PILES:
            raise ValueError(f"rest pile {name!r} is not one of {', '.join(_REST_PILES)}")
    if free and not targets:
        raise ValueError(f"{len(free)} cards left over and no rest pile: {free}")
    extra: dict[str, list[Card]] = {name: [] for name in targets}
    for i, card in enumerate(free):
        extra[targets[i % len(targets)]].append(card)
    for name, more in extra.items():
        piles[name] = (*more, *piles[name])

    face_up = 1 if rules.reserve_face_up else 0

    reserve_up = (
        up0 if up0 is not None else min(face_up, len(piles["reserve0"])),
        up1 if up1 is not None else min(face_up, len(piles["reserve1"])),
    )
    state = c.GameState(
        rules=rules,
        to_act=to_act,
        foundations=tuple(found_piles),
        houses=tuple(house_piles),
        reserves=(piles["reserve0"], piles["reserve1"]),
        reserve_up=reserve_up,
        hands=(piles["hand0"], piles["hand1"]),
        wastes=(piles["waste0"], piles["waste1"]),
        turned=turned_card,
        **counters,  # type: ignore[arg-type]
    )
    assert sorted(state.cards()) == list(deck.cards), "a position must hold every card"
    return state


def deal_order(pack: int, first: str = "", kind: str = "standard") -> tuple[Card, ...]:
    """A full order of player ``pack``'s pack (of the pack kind ``kind``) beginning with the
    cards of ``first`` (in that order), the rest in code order: handy for ``crapette.deal``."""
    head = list(cards(first, PACKS[kind]))
    return tuple(head + [card for card in full_pack(pack, kind) if card not in head])


QUIET: tuple[str, ...] = ("KS", "KC", "Ks", "Kc", "KH", "KD", "Kh", "Kd")
"""Eight house cards that take nothing a test writes (tests avoid queens) and go nowhere:
the kings."""


def quiet(overrides: Mapping[int, str] | None = None) -> dict[int, str]:
    """All 8 houses filled with :data:`QUIET` kings, except the houses in ``overrides``
    (an empty string there makes an empty house)."""
    houses = dict(enumerate(QUIET))
    houses.update(overrides or {})
    return houses


_MOVES_BY_TEXT = {str(m): m for m in ALL_MOVES}


def mv(text: str) -> c.Move:
    """The move with this text (``"R-F"``, ``"T-H3"``, ``"H1-H2x3"``, ``"draw"``, ``"stop"``)."""
    return _MOVES_BY_TEXT[text]


def names(state: c.GameState) -> list[str]:
    """The texts of the legal moves, in ``legal_moves`` order."""
    return [str(m) for m in c.legal_moves(state)]


def play(state: c.GameState, *texts: str) -> c.GameState:
    """Apply the moves (checked), one after the other."""
    for text in texts:
        state = c.apply(state, mv(text))
    return state


@functools.cache
def walk(name: str, steps: int, seed: int = 3) -> tuple[c.GameState, ...]:
    """The states of a random game of the preset ``name`` dealt and played from ``seed``:
    at most ``steps`` moves (cached)."""
    rng = Rng(seed)
    state = c.new_game(c.Ruleset.preset(name), seed=seed)
    out = [state]
    for _ in range(steps):
        moves = c.legal_moves(state)
        if not moves:
            break
        state = c.apply_unchecked(state, moves[rng.below(len(moves))])
        out.append(state)
    return tuple(out)


def random_states(rules: str, seed: int, moves: int = 3000) -> list[c.GameState]:
    """The states of random play (random moves, so every kind of move shows up)."""
    rng = Rng(seed)
    state = c.new_game(rules, seed=seed)
    out = [state]
    for _ in range(moves):
        legal = c.legal_moves(state)
        if not legal:
            break
        state = c.apply_unchecked(state, legal[rng.below(len(legal))])
        out.append(state)
    return out
