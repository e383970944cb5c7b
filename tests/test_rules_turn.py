"""docs/rules.md "A turn", the Serbian face-down reserve (decision 2), the end-of-turn
move (decision 5) and "no cycles within a turn" (decision 12)."""

from __future__ import annotations

import pytest

import crapette as c
from positions import cards, mv, names, play, position, quiet

CLASSIC = c.Ruleset()
SERBIAN = c.Ruleset.preset("serbian")


def test_draw_turns_the_top_hand_card() -> None:
    """Turn 2 [all]: "you may turn the top card of your hand (a move of its own). It becomes
    available." The same player goes on."""
    state = position(houses=quiet({1: "TD"}), hand0="5C 9C", rest="hand1")
    assert names(state) == ["draw"]
    after = play(state, "draw")
    assert after.turned == c.Card("9C") and after.hands[0] == (c.Card("5C"),)
    assert after.to_act == 0
    assert names(after) == ["T-H2", "discard"]


def test_one_turned_card_at_a_time_then_the_next() -> None:
    """Turn 2: "At most one hand card is turned at a time"; "Once the turned card has been
    played elsewhere you may turn the next one"."""
    state = position(houses=quiet({1: "TD"}), hand0="5C", turned="9C", rest="hand1")
    assert "draw" not in names(state)
    with pytest.raises(c.IllegalMoveError, match="already turned"):
        c.apply(state, c.DRAW)
    after = play(state, "T-H2")
    assert after.turned is None and after.to_act == 0
    assert names(after) == ["draw"]


def test_draw_only_without_compulsory_moves() -> None:
    """Turn 2: "When no compulsory move remains, you may turn the top card of your hand"."""
    state = position(houses=quiet({2: "AS"}), hand0="5C")
    assert names(state) == ["H3-F"]
    with pytest.raises(c.IllegalMoveError, match="foundation move"):
        c.apply(state, c.DRAW)


def test_foundation_move_appearing_with_the_turned_card_must_be_made() -> None:
    """Turn 2: "compulsory moves apply as before: a foundation move that appears must be
    made" (here by the turned Ace itself)."""
    state = position(houses=quiet(), hand0="5C AC")
    after = play(state, "draw")
    assert names(after) == ["T-F"]


def test_discard_ends_the_turn() -> None:
    """Turn 3 [all]: "you put it on your own waste: this ends your turn"."""
    state = position(houses=quiet(), hand0="5C", turned="9C", waste0="2H")
    after = play(state, "discard")
    assert after.wastes[0] == cards("2H 9C") and after.turned is None
    assert after.to_act == 1
    with pytest.raises(c.IllegalMoveError, match="no hand card is turned"):
        c.apply(after, c.DISCARD)


def test_discard_blocked_by_a_compulsory_move() -> None:
    """Turn 3: "Like every non-foundation move, this discard is not allowed while a
    compulsory move remains."""
    state = position(houses=quiet({3: "AD"}), turned="9C")
    assert names(state) == ["H4-F"]
    with pytest.raises(c.IllegalMoveError, match="foundation move"):
        c.apply(state, c.DISCARD)


def test_waste_turned_over_only_when_a_hand_card_is_needed() -> None:
    """ "Empty hand" [P, BY, SR]: "turn your waste over, without shuffling, to form a new
    hand, then turn its top card": the first card discarded comes up first, and the rest
    follow in the order they were discarded."""
    state = position(houses=quiet(), waste0="2C 5D 9H", rest="hand1")
    assert state.hands[0] == ()
    assert names(state) == ["draw"]
    after = play(state, "draw")
    assert after.wastes[0] == ()
    assert after.turned == c.Card("2C")
    assert after.hands[0] == cards("9H 5D")  # 5D is the next card to turn
    after = play(after, "discard", "draw", "discard")  # player 1 (hand1) draws and discards
    assert after.turned is None and after.to_act == 0
    assert play(after, "draw").turned == c.Card("5D")


def test_waste_not_turned_over_at_the_end_of_a_turn() -> None:
    """ "Empty hand": "Do it only when you need a hand card, never at the end of a turn: the
    opponent may still load onto your waste." """
    state = position(houses=quiet(), turned="7D", waste0="2C", reserve1="6D", rest="hand1")
    after = play(state, "discard")
    assert after.hands[0] == () and after.wastes[0] == cards("2C 7D")
    assert after.to_act == 1
    assert "R-OW" in names(after)  # player 1 loads the 6D on player 0's waste
    assert play(after, "R-OW").wastes[0][-1] == c.Card("6D")


def test_end_of_turn_move_only_with_hand_and_waste_empty() -> None:
    """ "Hand and waste both empty" [SR; *decision*]: "the turn ends when you have no legal
    move or choose to stop (an explicit end-of-turn move, legal only in that situation"."""
    state = position(houses=quiet({1: "TD"}), reserve0="9C", rest="hand1")
    assert names(state) == ["R-H2", "end"]
    after = play(state, "end")
    assert after.to_act == 1 and after.reserves[0] == cards("9C")
    for spec in ({"hand0": "5C"}, {"waste0": "5C"}, {"turned": "5C"}):
        other = position(houses=quiet({1: "TD"}), reserve0="9C", rest="hand1", **spec)
        assert "end" not in names(other)
        with pytest.raises(c.IllegalMoveError):
            c.apply(other, c.END_TURN)


def test_end_of_turn_blocked_by_compulsory_move() -> None:
    """Decision 5: "The end-of-turn move (hand and waste empty) counts like a discard: a
    non-foundation move" -- not allowed while a foundation move remains."""
    state = position(houses=quiet({1: "AS"}), reserve0="9C", rest="hand1")
    assert names(state) == ["H2-F"]
    with pytest.raises(c.IllegalMoveError, match="foundation move"):
        c.apply(state, c.END_TURN)


# --- Serbian face-down reserve (decision 2) --------------------------------------------


def serbian_position(**kw: object) -> c.GameState:
    spec: dict[str, object] = {
        "houses": quiet({1: "TD"}),
        "reserve0": "5C 9C",
        "hand0": "2H",
        "rules": SERBIAN,
    }
    spec.update(kw)
    return position(**spec)  # type: ignore[arg-type]


def test_serbian_face_down_reserve_top_is_not_available_and_is_revealed() -> None:
    """[SR] "12 reserve cards all face down; the owner turns the top card ... (a face-down
    reserve top is not available and cannot be loaded)"; decision 2: "its owner turns it as
    a free move of their turn"."""
    state = serbian_position()
    assert state.reserve_up == (0, 0)
    assert "R-H2" not in names(state) and "reveal" in names(state)
    with pytest.raises(c.IllegalMoveError, match="face down"):
        c.apply(state, mv("R-H2"))
    after = play(state, "reveal")
    assert after.reserve_up[0] == 1 and after.to_act == 0 and after.stop is None
    assert "reveal" not in names(after) and "R-H2" in names(after)


def test_serbian_next_reserve_card_turned_up_at_once() -> None:
    """Decision 2: "after a reserve card is played the next one is turned up at once"."""
    after = play(serbian_position(), "reveal", "R-H2")
    assert after.reserves[0] == cards("5C") and after.reserve_up[0] == 1
    assert "reveal" not in names(after)


def test_serbian_reveal_is_never_a_violation() -> None:
    """Decision 2: revealing is "a free move of their turn (never a violation)": with a
    foundation move waiting, revealing opens no Stop! decision (``stop=card``) and is legal
    under enforced priorities too."""
    state = serbian_position(houses=quiet({1: "TD", 2: "AS"}))
    after = play(state, "reveal")
    assert after.stop is None and after.to_act == 0
    enforced = serbian_position(
        houses=quiet({1: "TD", 2: "AS"}), rules=SERBIAN.replace(stop="enforced")
    )
    assert names(enforced) == ["H3-F", "reveal"]


def test_serbian_face_down_reserve_cannot_be_loaded() -> None:
    """[SR]: a face-down reserve top "cannot be loaded" by the opponent."""
    state = serbian_position(houses=quiet(), reserve1="5s 8d", turned="9d")
    assert "T-OR" not in names(state)  # 9d would fit on 8d if it were face up
    state = serbian_position(houses=quiet(), reserve1="5s 8d", up1=1, turned="9d")
    assert "T-OR" in names(state)


# --- No cycles within a turn (decision 12) ---------------------------------------------


def cycle_position(**kw: object) -> c.GameState:
    spec: dict[str, object] = {
        "houses": quiet({0: "9S 8H", 1: "9C"}),
        "hand0": "2C",
        "reserve0": "6D",
        "reserve1": "7D",
    }
    spec.update(kw)
    return position(**spec)  # type: ignore[arg-type]


def test_no_move_recreates_a_layout_seen_this_turn() -> None:
    """Decision 12: "a move that recreates a layout already seen in the same turn (the
    turn's starting layout included) is not legal"."""
    state = cycle_position()
    after = play(state, "H1-H2")  # 8H from 9S to 9C
    assert "H2-H1" not in names(after)  # back onto 9S: the starting layout
    with pytest.raises(c.IllegalMoveError, match="recreates a layout"):
        c.apply(after, mv("H2-H1"))


def test_no_cycle_through_three_houses() -> None:
    """Decision 12 for a longer cycle: 8H goes H1 -> H2 -> H3; going back to either house
    recreates a layout seen in the turn."""
    state = cycle_position(houses=quiet({0: "9S 8H", 1: "9C", 2: "9s"}))
    after = play(state, "H1-H2", "H2-H3")
    legal = names(after)
    assert "H3-H1" not in legal and "H3-H2" not in legal


def test_no_cycle_with_group_moves() -> None:
    """Decision 12 applies to group moves too."""
    state = cycle_position(houses=quiet({0: "TD 9S 8H", 1: "TH", 6: "", 7: ""}), reserve0="")
    after = play(state, "H1-H2x2")
    assert "H2-H1x2" not in names(after)


def test_a_different_layout_with_the_same_houses_is_legal() -> None:
    """Decision 12: "a layout is where every card lies ... both reserves"; after the 6D is
    loaded on the opponent's reserve, putting 8H back recreates the houses but not the
    layout, so it is legal."""
    state = cycle_position()
    after = play(state, "H1-H2", "R-OR")
    assert "H2-H1" in names(after)
    assert play(after, "H2-H1").houses == state.houses


def test_cycles_only_within_a_turn() -> None:
    """Decision 12: "in the same turn": the next player may move the card back."""
    state = cycle_position(hand0="2C", hand1="3C", reserve0="", reserve1="")
    after = play(state, "H1-H2", "draw", "discard")
    assert after.to_act == 1
    assert "H2-H1" in names(after)


@pytest.mark.parametrize("text", ["draw", "discard", "end"])
def test_discard_end_and_draw_are_not_cycles(text: str) -> None:
    """Decision 12: "Discard, end of turn and the Stop decisions are exempt": they are legal
    whatever the layout history."""
    spec = {
        "draw": {"hand0": "2C"},
        "discard": {"turned": "3C"},
        "end": {"rest": "hand1", "hand0": ""},
    }[text]
    state = cycle_position(**spec)  # type: ignore[arg-type]
    after = play(state, "H1-H2")
    assert text in names(after)
