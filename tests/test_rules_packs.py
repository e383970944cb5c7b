"""docs/rules.md "Packs": the tarot packs (``pack = tarot56 | tarot77 | tarot78``): their
cards, the deal, foundations, houses, groups, loading by suit or by colour, who starts, the
score and the notation of their cards. Scenario tests from concrete positions; they run on
both engines."""

from __future__ import annotations

import pytest

import crapette as c
from crapette.cards import PACKS, parse_card
from positions import mv, names, position, quiet

TAROT = ("tarot56", "tarot77", "tarot78")


def rules(pack: str, **changes: object) -> c.Ruleset:
    return c.Ruleset().replace(pack=pack, **changes)


# --------------------------------------------------------------------------------------
# The packs and the deal


@pytest.mark.parametrize(
    ("pack", "size", "families", "foundations", "hand"),
    [
        ("standard", 52, 4, 8, 35),
        ("tarot56", 56, 4, 8, 39),
        ("tarot77", 77, 5, 10, 60),
        ("tarot78", 78, 5, 10, 61),
    ],
)
def test_each_pack_deals_its_cards(
    pack: str, size: int, families: int, foundations: int, hand: int
) -> None:
    """The table of "Packs": cards per player, families, foundations, the hand with a reserve
    of 13 (decision 1 per pack: 13 reserve cards, 4 houses, the rest in hand)."""
    deck = PACKS[pack]
    assert deck.size == size and deck.families == families
    state = c.new_game(rules(pack), seed=5)
    assert len(state.foundations) == foundations
    assert all(len(r) == 13 for r in state.reserves)
    assert all(len(h) == hand for h in state.hands)
    assert rules(pack).hand_size == hand
    assert sorted(state.cards()) == list(deck.cards)
    for p in (0, 1):
        own = (
            state.reserves[p] + state.hands[p] + tuple(state.houses[4 * p + i][0] for i in range(4))
        )
        assert all(card.pack == p for card in own)


def test_the_knight_sits_between_jack_and_queen_and_trumps_have_no_colour() -> None:
    """Rank values: A 1 .. J 11, N 12, Q 13, K 14 (standard Q 12, K 13); trump n is n, the
    Excuse 0; hearts and diamonds red, trumps no colour."""
    deck = PACKS["tarot78"]
    assert [parse_card(t, "tarot78").rank for t in ("AH", "TH", "JH", "NH", "QH", "KH")] == [
        1,
        10,
        11,
        12,
        13,
        14,
    ]
    assert parse_card("QH").rank == 12 and parse_card("KH").rank == 13
    assert parse_card("17M", "tarot77").rank == 17 and parse_card("0M", "tarot78").rank == 0
    trump = parse_card("5m", "tarot78")
    assert trump.trump and not trump.red and trump.suit == 4 and trump.pack == 1
    assert parse_card("NH", "tarot56").red and not parse_card("NS", "tarot56").red
    starters = {deck.text[i] for i, s in enumerate(deck.starter) if s}
    assert starters == {"AS", "AH", "AD", "AC", "As", "Ah", "Ad", "Ac", "0M", "0m"}
    tops = {deck.text[i] for i, s in enumerate(deck.top) if s}
    assert tops == {"KS", "KH", "KD", "KC", "Ks", "Kh", "Kd", "Kc", "21M", "21m"}


@pytest.mark.parametrize(("pack", "most"), [("standard", 48), ("tarot56", 52), ("tarot77", 73)])
def test_the_reserve_holds_at_most_the_pack_but_the_houses(pack: str, most: int) -> None:
    """``reserve_size`` ranges 1..pack - 4; above, both options are named."""
    assert rules(pack, reserve_size=most).hand_size == 0
    with pytest.raises(c.InvalidRulesError, match=r"reserve_size=.* pack="):
        rules(pack, reserve_size=most + 1)


def test_deal_from_explicit_tarot_orders() -> None:
    """Decision 1 with a tarot pack: the first card of an order is dealt first, the 13th is
    the reserve top, then the houses nearest the reserve first, then the hand."""
    r = rules("tarot77")
    order0 = list(PACKS["tarot77"].player_cards(0))
    order1 = list(PACKS["tarot77"].player_cards(1))
    state = c.deal(r, order0, order1, starter=0)
    assert state.reserves[0] == tuple(order0[:13])
    assert [h[0] for h in state.houses[:4]] == order0[13:17]
    assert state.hands[0] == tuple(order0[17:][::-1])
    assert len(state.hands[1]) == 60


# --------------------------------------------------------------------------------------
# Foundations


@pytest.mark.parametrize("pack", TAROT)
def test_an_empty_foundation_takes_a_starter_then_up_by_one(pack: str) -> None:
    """An empty pile takes a starter, then up by one in the family: A..10 J N Q K."""
    state = position(
        rules=rules(pack),
        houses=quiet({0: "AH", 1: "", 2: "JS", 3: ""}),
        foundations={0: "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"},
        fill_foundations=False,
    )
    moves = names(state)
    assert "H1-F" in moves and "H3-F" in moves  # the Ace; J on 10 in suit
    after = c.apply(c.apply(state, "H1-F"), "H3-F")
    assert parse_card("JS", pack) in after.foundations[0]
    knight = position(
        rules=rules(pack),
        houses=quiet({0: "NS"}),
        foundations={0: "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS"},
        fill_foundations=False,
    )
    assert "H1-F" in names(knight)
    queen = position(
        rules=rules(pack),
        houses=quiet({0: "QS"}),
        foundations={0: "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS"},
        fill_foundations=False,
    )
    assert c.why_illegal(queen, mv("H1-F")) is not None  # the Knight comes before the Queen


def test_trumps_start_at_1_under_tarot77_and_at_the_excuse_under_tarot78() -> None:
    """Trumps 1..21 (tarot78: the Excuse first); nothing goes on trump 21."""
    for pack, start, then, no in (("tarot77", "1M", "2M", "0M"), ("tarot78", "0M", "1M", "2M")):
        state = position(
            rules=rules(pack),
            houses=quiet({0: start, 1: "", 2: then, 3: ""}),
            fill_foundations=False,
        )
        assert "H1-F" in names(state), pack
        assert c.why_illegal(state, mv("H3-F")) is not None, pack
        after = c.apply(state, "H1-F")
        assert "H3-F" in names(after), pack
        del no
    top = position(
        rules=rules("tarot77"),
        houses=quiet({0: "1m"}),
        foundations={0: " ".join(f"{n}M" for n in range(1, 22))},
        fill_foundations=False,
    )
    assert c.why_illegal(top, mv("H1-F")) is None  # 1m starts another pile
    full = c.apply(top, "H1-F")
    assert full.foundations[0][-1] == parse_card("21M", "tarot77")


def test_foundations_mix_the_packs_and_take_nothing_on_a_king() -> None:
    state = position(
        rules=rules("tarot56"),
        houses=quiet({0: "2h", 1: "", 2: "As", 3: ""}),
        foundations={0: "AH"},
        fill_foundations=False,
    )
    after = c.apply(state, "H1-F")  # player 1's 2 on player 0's Ace
    assert [card.text for card in after.foundations[0]] == ["AH", "2h"]


# --------------------------------------------------------------------------------------
# Houses and groups


def test_the_knight_builds_between_jack_and_queen_in_alternating_colours() -> None:
    """N♥ on Q♠, J♥ on N♠ (RulesTests knightSlotsBetweenJackAndQueen); not J on Q."""
    state = position(
        rules=rules("tarot56"),
        houses=quiet({0: "QS", 1: "NH", 2: "NS", 3: "JH", 4: "QC", 5: "JD"}),
    )
    moves = names(state)
    assert "H2-H1" in moves and "H4-H3" in moves
    assert c.why_illegal(state, mv("H6-H5")) is not None  # J♦ on Q♣ skips the Knight


def test_a_trump_builds_only_on_a_trump_one_higher_with_no_colour_rule() -> None:
    state = position(  # a callable Stop!: the Excuse need not go up first
        rules=rules("tarot78", stop="undo"),
        houses=quiet({0: "9M", 1: "8m", 2: "1M", 3: "0m", 4: "8H", 5: "7M"}),
    )
    moves = names(state)
    assert "H2-H1" in moves  # 8 on 9, either pack
    assert "H4-H3" in moves  # the Excuse on trump 1
    assert c.why_illegal(state, mv("H6-H5")) is not None  # a trump on a suit card
    suit_on_trump = position(rules=rules("tarot78"), houses=quiet({0: "8M", 1: "7H"}))
    assert c.why_illegal(suit_on_trump, mv("H2-H1")) is not None


def test_a_long_run_of_trumps_moves_whole_under_whole_sequences() -> None:
    """Groups are runs of fits (decision 6); a house holds up to 21 trumps (22 with the
    Excuse), and ``xN`` goes that far."""
    run = " ".join(f"{n}M" for n in range(20, 4, -1))  # 16 trumps, 20 down to 5
    state = position(
        rules=rules("tarot77", group_moves="whole"),
        houses=quiet({0: run, 1: "21m", 2: ""}),
    )
    moves = names(state)
    assert "H1-H2x16" in moves  # onto 21: every card
    assert "H1-H3x16" in moves and "H1-H3" in moves  # onto the empty house: any tail
    after = c.apply(state, "H1-H2x16")
    assert len(after.houses[1]) == 17 and not after.houses[0]
    assert c.legal_moves(state) == tuple(sorted(c.legal_moves(state), key=lambda m: m.index))


# --------------------------------------------------------------------------------------
# Loading


def test_loading_by_suit_takes_the_same_family_one_rank_apart() -> None:
    """``load_match=suit``: on trump 12, trump 11 or 13."""
    state = position(
        rules=rules("tarot77"),
        houses=quiet({0: "11M", 1: "13M", 2: "14M"}),
        waste1="12m",
    )
    moves = names(state)
    assert "H1-OW" in moves and "H2-OW" in moves
    assert "H3-OW" not in moves


def test_loading_by_colour_takes_the_other_colour_one_rank_apart() -> None:
    """``load_match=colour`` [BIT]: on a black Queen, a red King or Knight; a trump only on
    a trump."""
    state = position(
        rules=rules("tarot56", load_match="colour"),
        houses=quiet({0: "KH", 1: "ND", 2: "KS", 3: "JH", 4: "2S", 5: "3S", 6: "4S", 7: "5S"}),
        waste1="QC",
    )
    moves = names(state)
    assert "H1-OW" in moves and "H2-OW" in moves
    assert "H3-OW" not in moves and "H4-OW" not in moves
    standard = position(
        rules=c.Ruleset().replace(load_match="colour"), houses=quiet({0: "9H"}), waste1="TS"
    )
    assert "H1-OW" in names(standard)  # any pack


def test_wrap_joins_each_familys_top_and_starter() -> None:
    """``load_wrap``: K-A, 21-1 (tarot77), 21-Excuse (tarot78)."""
    tarot77 = position(  # a callable Stop!: the starters need not go up first
        rules=rules("tarot77", load_wrap=True, stop="undo"),
        houses=quiet({0: "1M", 1: "AS"}),
        waste1="21m",
    )
    assert "H1-OW" in names(tarot77)
    tarot78 = position(
        rules=rules("tarot78", load_wrap=True, stop="undo"),
        houses=quiet({0: "0M", 1: "1M"}),
        waste1="21m",
    )
    moves = names(tarot78)
    assert "H1-OW" in moves and "H2-OW" not in moves
    king = position(rules=rules("tarot56", load_wrap=True), houses={0: "KS"}, waste1="As")
    assert "H1-OW" in names(king)


# --------------------------------------------------------------------------------------
# Who starts, the score


def test_who_starts_compares_rank_values_whatever_the_family() -> None:
    """Trump 9 ties with 9♣ (the houses decide); trump 15 beats any King."""
    r = rules("tarot77")
    deck = PACKS["tarot77"]

    def order(player: int, top: str, house: str) -> list[c.Card]:
        mine = [card for card in deck.player_cards(player) if card.text not in (top, house)]
        return [*mine[:12], deck.parse(top), deck.parse(house), *mine[12:]]

    tie = c.deal(r, order(0, "9M", "5S"), order(1, "9c", "4s"))
    assert tie.to_act == 1  # equal reserve tops: player 1's lower house starts
    kings = c.deal(r, order(0, "15M", "2S"), order(1, "Kc", "3s"))
    assert kings.to_act == 1  # K (14) is lower than trump 15


def test_a_tarot77_loser_with_every_card_left_gives_116() -> None:
    """Scoring is 30, 2 per reserve card, 1 per hand or waste card, for every pack: a
    tarot77 loser with all 13 reserve cards and 60 others gives 30 + 26 + 60."""
    r = rules("tarot77")
    state = position(
        rules=r,
        houses=quiet({0: "", 1: "", 2: "", 3: ""}),
        reserve1=" ".join(card.text for card in PACKS["tarot77"].player_cards(1)[:13]),
        rest="hand1",
        fill_foundations=True,
    )
    won = c.outcome(state)
    assert won is not None and won.winner == 0
    assert won.scores == (30 + 2 * len(state.reserves[1]) + len(state.hands[1]), 0)


# --------------------------------------------------------------------------------------
# Notation


def test_tarot_cards_are_written_and_read_back() -> None:
    """The Knight ``N``; trumps ``1M``..``21M``, ``17m``, the Excuse ``0M``; no other
    spelling; symbols ``N♥`` and ``17★``; codes ``pack*n + suit*r + rank - 1``, trumps
    ``pack*n + 4*r + rank - 1`` (tarot78 ``+ rank``)."""
    assert int(parse_card("NH", "tarot56")) == 1 * 14 + 12 - 1
    assert int(parse_card("Nd", "tarot56")) == 56 + 2 * 14 + 12 - 1
    assert int(parse_card("17M", "tarot77")) == 4 * 14 + 17 - 1
    assert int(parse_card("17m", "tarot77")) == 77 + 4 * 14 + 17 - 1
    assert int(parse_card("17M", "tarot78")) == 4 * 14 + 17
    assert int(parse_card("0M", "tarot78")) == 4 * 14
    assert parse_card("nH", "tarot56") == parse_card("NH", "tarot56")  # readers take n
    assert parse_card("Nh", "tarot56").pack == 1
    for bad in ("TM", "01M", "22M", "0M"):
        with pytest.raises(c.NotationError):
            parse_card(bad, "tarot77")
    with pytest.raises(c.NotationError):
        parse_card("NH")  # the Knight is in tarot packs only
    assert parse_card("NH", "tarot56").symbol == "N♥"
    assert parse_card("17M", "tarot77").symbol == "17★"
    assert str(parse_card("17m", "tarot77")) == "17m"


@pytest.mark.parametrize("pack", TAROT)
def test_a_tarot_position_round_trips(pack: str) -> None:
    state = c.new_game(rules(pack), seed=9)
    for _ in range(30):
        moves = c.legal_moves(state)
        if not moves:
            break
        state = c.apply(state, moves[len(moves) // 2])
    assert c.parse_position(c.format_position(state)) == state
