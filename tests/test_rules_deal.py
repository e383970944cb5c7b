"""docs/rules.md "The table", "Who starts" and decision 1 (dealing from a pack
order), for every value of ``reserve_size``, ``reserve_face_up`` and ``first_player``."""

from __future__ import annotations

import pytest

import crapette as c
from crapette.cards import RANK, full_pack
from crapette.deal import Rng, shuffled
from positions import cards, deal_order

CLASSIC = c.Ruleset()
SERBIAN = c.Ruleset.preset("serbian")
BELARUSIAN = c.Ruleset.preset("belarusian")


def test_deal_from_pack_order_classic() -> None:
    """Decision 1 + "Cards and layout" [P, BY, G4A]: the first card of the order is dealt
    first: 13 reserve cards (the 13th face up on top), the 4 houses nearest the reserve
    first, then the hand with the next card of the order on top (35 cards)."""
    p0, p1 = deal_order(0), deal_order(1)
    state = c.deal(CLASSIC, p0, p1)
    assert state.reserves[0] == p0[:13]
    assert state.reserves[0][-1] == c.Card("KS")  # the 13th card dealt is the top
    assert state.reserve_up == (1, 1)  # 12 face down + 1 face up
    assert [h[-1] for h in state.houses[:4]] == list(cards("AH 2H 3H 4H"))
    assert [h[-1] for h in state.houses[4:]] == list(cards("Ah 2h 3h 4h"))
    assert all(len(h) == 1 for h in state.houses)
    assert len(state.hands[0]) == len(state.hands[1]) == 35
    assert state.hands[0][-1] == c.Card("5H")  # the next card of the order is on top
    assert state.hands[0][0] == c.Card("KC")  # the last card of the order at the bottom
    assert state.hands[1][-1] == c.Card("5h")
    assert state.wastes == ((), ())
    assert state.foundations == ((),) * 8
    assert state.turned is None and state.stop is None
    assert sorted(state.cards()) == list(c.ALL_CARDS)


def test_deal_twelve_card_face_down_reserve() -> None:
    """Decision 1 ("With a 12-card reserve, the same with 12") and the [SR] layout: 12
    reserve cards all face down, hand 36."""
    p0, p1 = deal_order(0), deal_order(1)
    state = c.deal(SERBIAN, p0, p1, starter=0)
    assert state.reserves[0] == p0[:12] and state.reserves[1] == p1[:12]
    assert state.reserve_up == (0, 0)  # all face down
    assert [h[-1] for h in state.houses[:4]] == list(cards("KS AH 2H 3H"))
    assert len(state.hands[0]) == 36 and state.hands[0][-1] == c.Card("4H")


def test_deal_twelve_card_reserve_face_up_option() -> None:
    """Options are independent: reserve_size=12 with reserve_face_up=true deals 12 cards with
    the top face up and a 36-card hand."""
    rules = CLASSIC.replace(reserve_size=12)
    state = c.deal(rules, deal_order(0), deal_order(1))
    assert len(state.reserves[0]) == 12 and state.reserve_up == (1, 1)
    assert len(state.hands[0]) == 36


def test_deal_face_down_thirteen_card_reserve_option() -> None:
    """reserve_face_up=false alone: 13 cards all face down; the owner must reveal the top."""
    state = c.deal(CLASSIC.replace(reserve_face_up=False), deal_order(0), deal_order(1))
    assert len(state.reserves[0]) == 13 and state.reserve_up == (0, 0)
    assert "reveal" in [str(m) for m in c.legal_moves(state)]


@pytest.mark.parametrize("size", [1, 5, 20, 48])
def test_deal_other_reserve_sizes(size: int) -> None:
    """``reserve_size`` is an option: hand = 48 - reserve_size."""
    state = c.deal(CLASSIC.replace(reserve_size=size), deal_order(0), deal_order(1))
    assert len(state.reserves[0]) == size and len(state.hands[0]) == 48 - size
    assert sorted(state.cards()) == list(c.ALL_CARDS)


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (deal_order(0)[:51], "missing KC"),
        ((*deal_order(0)[:51], c.Card("AS")), "doubled AS"),
        ((*deal_order(0)[:51], c.Card("Kc")), "not of pack 0: Kc"),
    ],
)
def test_deal_rejects_bad_packs(bad: tuple[c.Card, ...], words: str) -> None:
    """Packs that are not one full 52-card pack each raise ValueError
    naming the missing or doubled cards."""
    with pytest.raises(ValueError, match=words):
        c.deal(CLASSIC, bad, deal_order(1))


def _order(pack: int, top: str, houses: str, bottom: str = "", size: int = 13) -> list[c.Card]:
    """A pack order whose reserve top, 4 houses and bottom card are the given cards."""
    named = [top, *houses.split(), *bottom.split()]
    fill = [x for x in deal_order(pack) if str(x) not in named]
    order = [*fill[: size - 1], c.Card(top), *cards(houses), *fill[size - 1 :], *cards(bottom)]
    assert len(order) == 52
    return order


def _packs(top0: str, top1: str, houses0: str, houses1: str) -> tuple[list[c.Card], list[c.Card]]:
    return _order(0, top0, houses0), _order(1, top1, houses1)


@pytest.mark.parametrize(
    ("top0", "top1", "houses0", "houses1", "starter"),
    [
        # The lower reserve top begins [P, BY].
        ("5D", "9d", "2C 3C 4C 6C", "7c 8c 9c Tc", 0),
        ("9D", "5d", "2C 3C 4C 6C", "7c 8c 9c Tc", 1),
        # Suits do not matter, only ranks: a tie goes to the houses next to the reserves.
        ("7S", "7h", "2C 3C 4C 6C", "8c 9c Tc Jc", 0),
        ("7S", "7h", "9C 3C 4C 6C", "8c 9c Tc Jc", 1),
        # Tie on the first house too: the next pair outward decides, and so on.
        ("7S", "7h", "8C 3C 4C 6C", "8d 2c Tc Jc", 1),
        ("7S", "7h", "8C 3C 4C 6C", "8d 3c 9c Jc", 0),
        ("7S", "7h", "8C 3C 4C 6C", "8d 3d 4d 2c", 1),
        # All tie: player 0 starts (decision).
        ("7S", "7h", "8C 3C 4C 6C", "8d 3d 4d 6d", 0),
    ],
)
def test_first_player_reserve_rule(
    top0: str, top1: str, houses0: str, houses1: str, starter: int
) -> None:
    """Who starts [P, BY]: lower reserve top; ties by the houses next to each reserve, then
    outward; all tie -> player 0 (*decision*). ``first_player=reserve``."""
    p0, p1 = _packs(top0, top1, houses0, houses1)
    state = c.deal(CLASSIC, p0, p1)
    assert state.reserves[0][-1] == c.Card(top0) and state.houses[0] == (cards(houses0)[0],)
    assert state.to_act == starter


@pytest.mark.parametrize(
    ("houses0", "houses1", "starter"),
    [
        ("9C 3C 4C 6C", "8c 9c Tc Jc", 1),  # the first house decides
        ("2C 3C 4C 6C", "8c 9c Tc Jc", 0),
        ("8C 9C 4C 6C", "8d 2c 3c 5c", 0),  # first houses tie: player 0, houses 2+ ignored
        ("8C 2C 4C 6C", "8d 9c 3c 5c", 0),
    ],
)
def test_first_player_reserve_first_house_option(houses0: str, houses1: str, starter: int) -> None:
    """The option ``first_player=reserve_first_house`` (no preset uses it) breaks a reserve
    tie by the first house only; if that ties too, player 0 starts."""
    p0, p1 = _packs("7S", "7h", houses0, houses1)
    rules = BELARUSIAN.replace(first_player="reserve_first_house")
    assert c.deal(rules, p0, p1).to_act == starter


@pytest.mark.parametrize(
    ("houses0", "houses1", "starter"),
    [
        ("9C 3C 4C 6C", "8c 9c Tc Jc", 1),  # the first house decides
        ("8C 9C 4C 6C", "8d 2c 3c 5c", 1),  # first houses tie: the next pair outward (9 > 2)
        ("8C 2C 4C 6C", "8d 9c 3c 5c", 0),
        ("8C 2C 4C 6C", "8d 2d 3c 5c", 1),  # two pairs tie: the third decides (4 > 3)
        ("8C 2C 4C 6C", "8d 2d 4d 6d", 0),  # all tie: player 0 (decision)
    ],
)
def test_first_player_belarusian_compares_houses_outward(
    houses0: str, houses1: str, starter: int
) -> None:
    """Who starts [P, BY] and the variant matrix ("same" for belarusian): on equal reserve
    tops "compare the house cards next to each player's reserve, then the next pair outward,
    and so on"; all tie -> player 0."""
    p0, p1 = _packs("7S", "7h", houses0, houses1)
    assert BELARUSIAN.first_player == "reserve"
    assert c.deal(BELARUSIAN, p0, p1).to_act == starter


def test_first_player_cut_ignores_reserve_tops() -> None:
    """[SR] "Each player cuts their own pack; the lower card begins": with ``first_player=cut``
    the reserve tops do not decide. ``deal`` without a starter compares the packs' bottom
    cards, then the next ones up on a tie (documented in ``crapette.deal.deal``)."""
    p0 = _order(0, "2S", "2C 3C 4C 6C", bottom="9C", size=12)
    p1 = _order(1, "Kh", "7c 8c 9c Tc", bottom="2c", size=12)
    twelve = CLASSIC.replace(reserve_size=12)
    assert c.deal(twelve, p0, p1).to_act == 0  # the reserve rule: 2S < Kh
    assert c.deal(twelve.replace(first_player="cut"), p0, p1).to_act == 1  # cut: 9C > 2c
    # A tie on the bottom cards is cut again with the next cards up.
    p0 = _order(0, "2S", "2C 3C 4C 6C", bottom="5C 9C", size=12)
    p1 = _order(1, "Kh", "7c 8c 9c Tc", bottom="6c 9d", size=12)
    assert c.deal(twelve.replace(first_player="cut"), p0, p1).to_act == 0  # 9 = 9, 5 < 6


def test_first_player_cut_in_new_game_follows_the_documented_draw() -> None:
    """[SR] the cut (re-cut on a tie) in ``new_game``: one generator shuffles pack 0, then
    pack 1, then draws a random card of each pack until the ranks differ; lower starts."""
    starters = set()
    for seed in range(40):
        rng = Rng(seed)
        pack0 = shuffled(full_pack(0), rng)
        pack1 = shuffled(full_pack(1), rng)
        while True:
            a = RANK[pack0[rng.below(52)]]
            b = RANK[pack1[rng.below(52)]]
            if a != b:
                break
        expected = 0 if a < b else 1
        state = c.new_game(SERBIAN, seed=seed)
        assert state.to_act == expected
        assert state == c.deal(SERBIAN, pack0, pack1, starter=expected)
        starters.add(expected)
    assert starters == {0, 1}


def test_explicit_starter_overrides_the_rule() -> None:
    """``deal(..., starter=)`` lets a match (or a user) say who starts."""
    state = c.deal(CLASSIC, deal_order(0), deal_order(1), starter=1)
    assert state.to_act == 1
    with pytest.raises(ValueError, match="starter"):
        c.deal(CLASSIC, deal_order(0), deal_order(1), starter=2)


def test_first_player_reserve_rule_in_new_game() -> None:
    """``new_game`` applies the same first-player rule as ``deal``."""
    for seed in range(20):
        state = c.new_game(seed=seed)
        a, b = state.reserves[0][-1].rank, state.reserves[1][-1].rank
        if a != b:
            assert state.to_act == (0 if a < b else 1)
