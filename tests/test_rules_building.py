"""docs/rules.md "Which cards may move" and "Where a card may go" (with group moves), for every
value of ``own_waste_playable``, ``load_from``, ``load_wrap`` and ``group_moves``. Every test
builds a concrete position with ``positions.position``."""

from __future__ import annotations

import pytest

import crapette as c
from crapette.moves import ALL_MOVES
from positions import mv, names, play, position, quiet

CLASSIC = c.Ruleset()


def illegal(state: c.GameState, text: str, reason: str) -> None:
    """The move is not legal, ``apply`` raises naming the move and the reason, and the
    state is unchanged."""
    move = mv(text)
    before = c.to_json(state)  # the full snapshot
    assert move not in c.legal_moves(state)
    with pytest.raises(c.IllegalMoveError, match=reason) as info:
        c.apply(state, move)
    assert str(move) in str(info.value)
    assert c.to_json(state) == before


# --- Available cards -------------------------------------------------------------------


def test_own_reserve_top_is_available_and_not_below() -> None:
    """Available: "The top card of your own reserve (when face up)" [P]; the cards below
    are not (here the 9C below the top could go on house 2's 10D, but it is not offered)."""
    state = position(houses=quiet({1: "TD", 2: "TH"}), reserve0="9C 5S")
    assert names(state) == ["draw"]  # 5S fits nowhere; 9C below is not available
    state = position(houses=quiet({1: "TD"}), reserve0="5S 9C")
    assert "R-H2" in names(state)


def test_houses_of_both_columns_are_available_to_either_player() -> None:
    """Available: "The outer (exposed) card of any of the 8 houses, whoever built it"; the
    tableau is common [P, BY, G4A]."""
    for to_act in (0, 1):
        state = position(houses=quiet({1: "TD", 6: "TH 9S"}), to_act=to_act)
        assert "H7-H2" in names(state)  # player 1's column to player 0's, by either player


def test_opponent_reserve_and_waste_are_not_available() -> None:
    """Not available: "the opponent's reserve, hand or waste" [P, BY, G4A]: an Ace on top
    of them is not played, and no move even names them as a source."""
    state = position(houses=quiet(), reserve1="AH", waste1="AD", hand1="AC", to_act=0)
    assert names(state) == ["draw"]
    for source in (c.OPP_RESERVE, c.OPP_WASTE):
        with pytest.raises(c.InvalidMoveError, match="no such move"):
            c.Move.play(source, c.FOUNDATION)


def test_foundation_cards_are_not_available() -> None:
    """Not available: "any foundation card": no move takes a card off a foundation."""
    with pytest.raises(c.InvalidMoveError, match="no such move"):
        c.Move.play(c.FOUNDATION, 0)


def test_hand_below_the_turned_card_is_not_available() -> None:
    """Not available: "your own hand below the turned card": the Ace on top of the hand is
    not offered while 9C is turned."""
    state = position(houses=quiet(), hand0="AS", turned="9C")
    assert names(state) == ["discard"]


def test_own_waste_not_available_by_default() -> None:
    """Not available [P, BY, G4A]: "your own waste" (``own_waste_playable=false``)."""
    state = position(houses=quiet(), waste0="AS", hand0="5C")
    assert names(state) == ["draw"]
    illegal(state, "W-F", "own waste is not available")


def test_own_waste_playable_option() -> None:
    """Variant "own waste playable" [SR, P's "many play"]: your own waste top is available
    (here it must even go to the foundation, a compulsory move)."""
    rules = CLASSIC.replace(own_waste_playable=True)
    state = position(houses=quiet(), waste0="AS", hand0="5C", rules=rules)
    assert names(state) == ["W-F"]
    state = position(houses=quiet({2: "TD"}), waste0="9C", hand0="5C", rules=rules)
    assert names(state) == ["W-H3", "draw"]
    after = play(state, "W-H3")
    assert after.wastes[0] == () and after.houses[2][-1] == c.Card("9C")


def test_opponent_waste_not_available_even_when_own_waste_playable() -> None:
    """ "own waste playable" concerns your own waste only."""
    rules = CLASSIC.replace(own_waste_playable=True)
    state = position(houses=quiet(), waste1="AS", hand0="5C", rules=rules)
    assert names(state) == ["draw"]


# --- Foundations -----------------------------------------------------------------------


def test_ace_goes_to_an_empty_foundation_leftmost() -> None:
    """Foundation [all]: "an empty foundation takes only an Ace"; the move names only "a
    foundation" and the library takes the leftmost pile that takes it (*decision*)."""
    state = position(
        houses=quiet({0: "AH"}),
        foundations={0: "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"},
        fill_foundations=False,
    )
    assert names(state) == ["H1-F"]
    after = play(state, "H1-F")
    # Pile 0 is topped by a King: nothing goes on it; the Ace takes pile 1.
    assert after.foundations[1] == (c.Card("AH"),)
    assert after.houses[0] == ()


def test_only_an_ace_starts_a_foundation() -> None:
    """Foundation: an empty foundation takes only an Ace."""
    state = position(houses=quiet({0: "2H"}), fill_foundations=False)
    illegal(state, "H1-F", "does not fit on any foundation")


def test_foundation_builds_up_in_suit_any_pack() -> None:
    """Foundation: "built up in suit A 2 3 ... 10 J Q K" [all]; both packs mix."""
    state = position(
        houses=quiet({0: "5h", 1: "5D", 2: "6H", 3: "4S"}),
        foundations={0: "AH 2H 3H 4H"},
    )
    assert names(state) == ["H1-F"]  # 5h on 4H; not 5D (suit), 6H (rank), 4S (suit)
    illegal(state, "H2-F", "does not fit")
    after = play(state, "H1-F")
    assert after.foundations[0][-1] == c.Card("5h")
    assert names(after) == ["H3-F"]  # now 6H follows


def test_nothing_goes_on_a_king() -> None:
    """Foundation: "Nothing goes on a King": an Ace does not wrap onto a King-topped pile;
    with no empty pile it cannot go to a foundation at all."""
    spades = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
    state = position(houses=quiet({0: "As"}), foundations={3: spades}, fill_foundations=False)
    assert play(state, "H1-F").foundations[0] == (c.Card("As"),)
    state = position(houses=quiet({0: "As"}), foundations={0: spades}, fill_foundations=False)
    assert play(state, "H1-F").foundations[1] == (c.Card("As"),)


def test_one_foundation_move_for_eight_equivalent_piles() -> None:
    """*Decision*: "one card never yields eight equivalent moves": with 8 empty foundations
    an Ace gives one move; with two equivalent piles the leftmost is taken."""
    state = position(houses=quiet(), reserve0="AH", fill_foundations=False)
    assert names(state) == ["R-F"]
    assert play(state, "R-F").foundations[0] == (c.Card("AH"),)
    state = position(
        houses=quiet(),
        reserve0="5H",
        foundations={2: "AH 2H 3H 4H", 5: "Ah 2h 3h 4h"},
        fill_foundations=False,
    )
    assert names(state) == ["R-F"]
    after = play(state, "R-F")
    assert after.foundations[2][-1] == c.Card("5H") and len(after.foundations[5]) == 4


# --- Houses ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "fits"),
    [("7S", True), ("7c", True), ("7D", False), ("7h", False), ("6S", False), ("9C", False)],
)
def test_house_builds_down_in_alternating_colours(card: str, fits: bool) -> None:
    """House [all]: "built down in alternating colours (a black 10 on a red Jack)"."""
    state = position(houses=quiet({1: "8H"}), reserve0=card)
    if fits:
        assert "R-H2" in names(state)
        assert play(state, "R-H2").houses[1] == (c.Card("8H"), c.Card(card))
    else:
        illegal(state, "R-H2", "alternating colours")


def test_empty_house_takes_any_available_card() -> None:
    """House [all]: "An empty house takes any available card" (reserve, turned card, house)."""
    state = position(houses=quiet({3: "", 5: "TC 9D"}), reserve0="QC", turned="8S")
    legal = names(state)
    for text in ("R-H4", "T-H4", "H6-H4"):
        assert text in legal


# --- Loading the opponent --------------------------------------------------------------


def loading_position(card_source: str, card: str, **kw: object) -> c.GameState:
    """Player 0 to act; player 1's reserve top and waste top are 7D / 7d."""
    spec: dict[str, object] = {"houses": quiet(), "reserve1": "7D", "waste1": "7d", "hand0": "2C"}
    if card_source == "R":
        spec["reserve0"] = card
    elif card_source == "T":
        spec["turned"] = card
    elif card_source == "W":
        spec["waste0"] = card
    else:
        spec["houses"] = quiet({2: card})
    spec.update(kw)
    return position(**spec)  # type: ignore[arg-type]


@pytest.mark.parametrize("source", ["R", "T", "H3"])
@pytest.mark.parametrize(("card", "fits"), [("6D", True), ("8d", True), ("5D", False)])
def test_loading_same_suit_one_rank_apart(source: str, card: str, fits: bool) -> None:
    """Loading [all]: "a card of the same suit, exactly one rank higher or lower than the
    exposed top card (on the 7 of diamonds: the 6 or 8 of diamonds)", on the opponent's
    reserve and waste, from any available card [P, G4A]."""
    state = loading_position(source, card)
    for target in ("OR", "OW"):
        text = f"{source}-{target}"
        if fits:
            assert text in names(state)
        else:
            illegal(state, text, "does not load")


@pytest.mark.parametrize("card", ["6H", "5D", "9D", "6c", "7d"])
def test_loading_rejects_other_suits_and_ranks(card: str) -> None:
    """Loading: same suit and exactly one rank apart only (not the same rank)."""
    state = loading_position("R", card, waste1="8C")
    illegal(state, "R-OR", "same suit, one rank apart")


def test_loaded_card_goes_on_top_face_up_and_chains() -> None:
    """Loading: "Chains are fine (8♦ then 7♦, or then 9♦)"; a card loaded on a reserve is
    face up (decision 2: "Cards loaded onto a reserve are face up")."""
    state = loading_position("R", "9D 8D")  # reserve top 8D, then 9D below it
    after = play(state, "R-OR")
    assert after.reserves[1][-2:] == (c.Card("7D"), c.Card("8D"))
    assert after.reserve_up[1] == 2
    assert after.reserves[0][-1] == c.Card("9D") and after.reserve_up[0] == 1
    after = play(after, "R-OR")  # 9D on 8D
    assert after.reserves[1][-1] == c.Card("9D") and after.reserve_up[1] == 3
    state = loading_position("R", "7d 8D", waste1="8C", up0=2)  # 7d face up: loaded earlier
    assert play(state, "R-OR", "R-OR").reserves[1][-3:] == tuple(
        map(c.Card, ["7D", "8D", "7d"])
    )  # 8D then 7d


def test_no_wrap_by_default_and_wrap_option() -> None:
    """Loading: "No wrapping between King and Ace (wrap is an option)": ``load_wrap``."""
    houses = quiet({5: "5C", 7: "5S"})  # frees KD and Kd
    wrap = CLASSIC.replace(load_wrap=True)
    state = loading_position("R", "KD", reserve1="AD", waste1="Ad", houses=houses)
    illegal(state, "R-OR", "does not load")
    illegal(state, "R-OW", "does not load")
    state = loading_position("R", "KD", reserve1="AD", waste1="Ad", rules=wrap, houses=houses)
    assert {"R-OR", "R-OW"} <= set(names(state))
    state = loading_position("R", "QD", reserve1="AD", waste1="Ad", rules=wrap, houses=houses)
    illegal(state, "R-OR", r"\(K and A adjacent\)")
    # An Ace on a King: an Ace must go to a foundation first, so only callable Stop! rules
    # let it be loaded at all (as a priority violation).
    for rules, legal in ((CLASSIC.replace(stop="undo"), False), (wrap.replace(stop="undo"), True)):
        state = loading_position("R", "AD", reserve1="KD", waste1="Kd", rules=rules, houses=houses)
        assert ("R-OR" in names(state)) == legal
        assert ("R-OW" in names(state)) == legal


def test_nothing_is_loaded_on_an_empty_pile() -> None:
    """Loading: "Nothing is loaded on an empty pile"."""
    state = loading_position("R", "6D", reserve1="", waste1="", rest="hand1")
    illegal(state, "R-OR", "empty")
    illegal(state, "R-OW", "empty")


def test_nothing_is_loaded_on_a_face_down_card() -> None:
    """Loading: nothing on "a face-down card" ([SR] reserve: "a face-down reserve top is
    not available and cannot be loaded")."""
    # (a face-down top, only where the rules deal it face down; a face-down card is its
    # owner's own)
    rules = CLASSIC.replace(reserve_face_up=False)
    state = loading_position("R", "6D", reserve1="5d", up1=0, up0=1, rules=rules)
    illegal(state, "R-OR", "face down")
    assert "R-OW" in names(state)


@pytest.mark.parametrize(("source", "legal"), [("R", True), ("T", True), ("H3", False)])
def test_load_from_own(source: str, legal: bool) -> None:
    """Variant [SR] ``load_from=own``: "only from your reserve, hand card (and own waste top
    where playable)": a house card may not load the opponent."""
    rules = CLASSIC.replace(load_from="own")
    state = loading_position(source, "6D", rules=rules)
    if legal:
        assert f"{source}-OR" in names(state)
    else:
        illegal(state, f"{source}-OR", "load_from=own")
        illegal(state, f"{source}-OW", "load_from=own")


def test_load_from_own_waste_where_playable() -> None:
    """``load_from=own`` with ``own_waste_playable``: the own waste top may load."""
    rules = CLASSIC.replace(load_from="own", own_waste_playable=True)
    state = loading_position("W", "6D", rules=rules)
    assert {"W-OR", "W-OW"} <= set(names(state))


def test_never_a_destination() -> None:
    """ "Never a destination: either hand, your own reserve, your own waste (except the
    discard that ends your turn), the opponent's hand" [P]: no move names them."""
    for target in (c.RESERVE, c.HAND, c.WASTE):
        with pytest.raises(c.InvalidMoveError, match="no such move"):
            c.Move.play(0, target)
    targets = {m.target for m in ALL_MOVES if m.is_play}
    assert targets == {*range(8), c.FOUNDATION, c.OPP_RESERVE, c.OPP_WASTE}


# --- Moving several cards --------------------------------------------------------------

RUN = "9S 8H 7C 6D"  # a descending run in alternating colours


def group_position(empty: int, rules: c.Ruleset = CLASSIC) -> c.GameState:
    """House 1 holds RUN, house 2 a red ten (takes the 9S); ``empty`` houses among 4..8 are
    empty. Player 0's hand holds a card; the reserve is empty so empty houses oblige nothing."""
    over = {0: RUN, 1: "TD"}
    over.update({7 - i: "" for i in range(empty)})
    return position(houses=quiet(over), hand0="2C", rules=rules)


@pytest.mark.parametrize(
    ("empty", "max_to_house", "max_to_empty"),
    [(0, 1, 0), (1, 2, 1), (2, 4, 2), (3, 4, 4)],
)
def test_supermove_limit(empty: int, max_to_house: int, max_to_empty: int) -> None:
    """Default [P, G4A] ``group_moves=supermove``: "with e empty houses not counting the
    destination, at most 2**e cards"; the move names the bottom card of the group
    (decision 6)."""
    state = group_position(empty)
    legal = set(names(state))
    # To house 2 (the ten takes the 9S, the bottom of the whole run of 4).
    assert ("H1-H2x4" in legal) == (max_to_house >= 4)
    if max_to_house < 4:
        illegal(state, "H1-H2x4", f"need 2 empty houses besides the destination; there are {empty}")
    # To an empty house (it does not count itself): any tail up to 2**(e-1).
    for count in range(1, 5):
        text = "H1-H8" + (f"x{count}" if count > 1 else "")
        assert (text in legal) == (count <= max_to_empty)


def test_group_move_keeps_the_order_of_the_cards() -> None:
    """Decision 6: a group moves as one move, house to house, bottom card named."""
    after = play(group_position(2), "H1-H2x4")
    assert after.houses[0] == ()
    assert [str(x) for x in after.houses[1]] == ["TD", "9S", "8H", "7C", "6D"]
    assert after.moves_made == 1


def test_group_move_only_along_a_run() -> None:
    """Only "a sequence (descending, alternating colours) at the end of a house" moves. A
    house that is not one run cannot arise in play, and one built by hand is refused where
    it is built; of a run, only its tail moves: 8H 7C from 9S 8H 7C onto TD is no run."""
    with pytest.raises(c.InvalidPositionError, match=r"house H1 \(9S8H7H\) does not descend"):
        position(houses=quiet({0: "9S 8H 7H", 1: "TD", 7: "", 6: ""}), hand0="2C", check_runs=False)
    state = position(houses=quiet({0: "9S 8H 7C", 1: "TD", 7: "", 6: ""}), hand0="2C")
    assert "H1-H2x3" in names(state)
    illegal(state, "H1-H2x2", "cannot go on TD")


def test_group_moves_single_option() -> None:
    """Option ``group_moves=single``: "single cards only" (belarusian, serbian)."""
    state = group_position(3, CLASSIC.replace(group_moves="single"))
    legal = names(state)
    assert not [m for m in legal if "x" in m]
    illegal(state, "H1-H2x4", "only single cards move")
    assert "H1-H8" in legal


def test_group_moves_whole_option() -> None:
    """Option ``group_moves=whole`` (Crossley's variation in [P]): "lets any tail of the end
    run move, with no space limit" (decision 6)."""
    state = group_position(0, CLASSIC.replace(group_moves="whole"))
    assert "H1-H2x4" in names(state)
    state = group_position(1, CLASSIC.replace(group_moves="whole"))
    assert {"H1-H8", "H1-H8x2", "H1-H8x3", "H1-H8x4"} <= set(names(state))


def test_group_moves_go_house_to_house_only() -> None:
    """Decision 6: "Group moves go house to house only"."""
    with pytest.raises(c.InvalidMoveError, match="no such move"):
        c.Move.play(c.RESERVE, 0, 2)
    with pytest.raises(c.InvalidMoveError, match="no such move"):
        c.Move.play(0, c.FOUNDATION, 2)
