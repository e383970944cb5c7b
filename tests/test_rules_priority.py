"""docs/rules.md "Compulsory moves" under enforced Stop! (the engine offers only
moves that respect the priorities), for every value of ``priority`` and ``house_filling``
(decisions 3 and 4)."""

from __future__ import annotations

import itertools

import pytest

import crapette as c
from positions import mv, names, play, position, quiet, random_states

CLASSIC = c.Ruleset()
IMMEDIATE = CLASSIC.replace(house_filling="immediate")
NO_FILLING = CLASSIC.replace(house_filling="none")
SERBIAN_ORDER = CLASSIC.replace(priority="serbian")


def rejected(state: c.GameState, text: str, reason: str) -> None:
    """Not in ``legal_moves``; ``apply`` says why; the state is unchanged."""
    move = mv(text)
    before = c.to_json(state)  # the full snapshot
    assert move not in c.legal_moves(state)
    assert c.why_illegal(state, move) is not None
    with pytest.raises(c.IllegalMoveError, match=reason):
        c.apply(state, move)
    assert c.to_json(state) == before


# --- pagat's priority (default) --------------------------------------------------------


def test_reserve_to_foundation_comes_before_anything() -> None:
    """Default 1 [P, G4A]: "If your reserve top can go to a foundation, that must be done
    before any other move" -- even before another foundation move."""
    state = position(houses=quiet({2: "AS", 1: "TD"}), reserve0="AH", turned="9C")
    assert names(state) == ["R-F"]
    rejected(state, "H3-F", "reserve top AH can go to a foundation")
    rejected(state, "T-H2", "reserve top AH")
    rejected(state, "discard", "reserve top AH")


def test_any_foundation_move_before_non_foundation_moves() -> None:
    """Default 2: "If any available card can go to a foundation, a foundation move must be
    made (you choose which) before any non-foundation move."""
    state = position(
        houses=quiet({2: "AS", 5: "AC", 1: "6C"}),
        foundations={0: "AD"},
        reserve0="5H",
        turned="2D",
    )
    assert names(state) == ["T-F", "H3-F", "H6-F"]  # the player chooses
    rejected(state, "R-H2", "foundation move")
    rejected(state, "discard", "foundation move")
    after = play(state, "H6-F")
    assert names(after) == ["T-F", "H3-F"]
    after = play(after, "T-F", "H3-F")
    assert "discard" not in names(after)  # the turned card was played: draw now
    assert "draw" not in names(after)  # house 3 and 6 are empty: fill them first


def test_house_filling_before_hand_blocks_drawing() -> None:
    """Default 3 and decision 3 (``house_filling=before_hand``): "turning a hand card is not
    allowed while your reserve has cards and a house is empty (however it became empty)"."""
    state = position(houses=quiet({4: ""}), reserve0="5H", hand0="2C")
    assert "draw" not in names(state)
    assert "R-H5" in names(state)
    rejected(state, "draw", "house 5 is empty")
    assert "draw" in names(play(state, "R-H5"))


def test_house_filling_before_hand_satisfied_from_elsewhere() -> None:
    """Decision 3: "filling it with a card from elsewhere also satisfies it"."""
    state = position(houses=quiet({4: "", 1: "TD 9S"}), reserve0="5H", hand0="2C")
    after = play(state, "H2-H5")
    assert "draw" in names(after)


def test_house_filling_before_hand_without_reserve() -> None:
    """Default 3: the obligation holds only "while your reserve is not empty"."""
    state = position(houses=quiet({4: ""}), hand0="2C")
    assert "draw" in names(state)


def test_house_filling_before_hand_does_not_block_discard_or_end() -> None:
    """Decision 3: "Discarding and ending the turn are not blocked by it."""
    state = position(houses=quiet({4: ""}), reserve0="5H", turned="2C")
    assert "discard" in names(state)
    state = position(houses=quiet({4: ""}), reserve0="5H", rest="hand1")
    assert "end" in names(state)


def test_house_filling_before_hand_with_face_down_reserve() -> None:
    """Options combine: a face-down reserve "has cards" (decision 3), so with
    ``reserve_face_up=false`` a house must still be filled before turning: reveal first."""
    rules = CLASSIC.replace(reserve_face_up=False)
    state = position(houses=quiet({4: ""}), reserve0="5H", hand0="2C", rules=rules)
    assert "reveal" in names(state) and "draw" not in names(state)
    rejected(state, "draw", "house 5 is empty")
    assert "R-H5" in names(play(state, "reveal"))


def test_house_filling_immediate() -> None:
    """Option ``immediate`` [BY] / decision 4: "a house emptied during your current turn and
    still empty must be filled from your reserve (if it has cards) before anything but
    foundation moves"."""
    state = position(
        houses=quiet({0: "9S 8H", 1: "9C"}), reserve0="5H", hand0="2C", rules=IMMEDIATE
    )
    after = play(state, "H1-H2")  # house 1 keeps 9S
    assert "draw" in names(after)
    state = position(houses=quiet({0: "8H", 1: "9C"}), reserve0="5H", hand0="2C", rules=IMMEDIATE)
    after = play(state, "H1-H2")  # house 1 is now empty
    assert names(after) == ["R-H1"]
    rejected(after, "draw", "house 1 was emptied this turn")
    rejected(after, "H2-H1", "house 1 was emptied this turn")  # not from elsewhere
    assert "draw" in names(play(after, "R-H1"))


def test_house_filling_immediate_after_foundation_moves() -> None:
    """Decision 4: the fill comes after "any foundation moves" (and emptying a house by a
    foundation move counts)."""
    state = position(
        houses=quiet({0: "AH", 3: "AS"}), reserve0="5H 9D", hand0="2C", rules=IMMEDIATE
    )
    after = play(state, "H1-F")
    assert names(after) == ["H4-F"]  # foundation moves first
    after = play(after, "H4-F")
    assert names(after) == ["R-H1", "R-H4"]
    after = play(after, "R-H4")
    assert names(after) == ["R-H1"]


def test_house_filling_immediate_only_for_houses_emptied_this_turn() -> None:
    """Decision 4: only "a house emptied during your current turn"; an empty house at the
    start of the turn obliges nothing, nor does an emptied house with an empty reserve."""
    state = position(houses=quiet({4: ""}), reserve0="5H", hand0="2C", rules=IMMEDIATE)
    assert "draw" in names(state)
    state = position(houses=quiet({0: "8H", 1: "9C"}), hand0="2C", rules=IMMEDIATE)
    assert "draw" in names(play(state, "H1-H2"))


def test_house_filling_immediate_blocks_discard() -> None:
    """Decision 4: "before anything but foundation moves" includes the discard."""
    state = position(houses=quiet({0: "8H", 1: "9C"}), reserve0="5H", turned="2C", rules=IMMEDIATE)
    after = play(state, "H1-H2")
    assert names(after) == ["R-H1"]


def test_house_filling_immediate_with_face_down_reserve() -> None:
    """``immediate`` with a face-down reserve: reveal, then fill."""
    rules = IMMEDIATE.replace(reserve_face_up=False)
    state = position(houses=quiet({0: "8H", 1: "9C"}), reserve0="5H", hand0="2C", rules=rules)
    after = play(state, "H1-H2")
    assert names(after) == ["reveal"]
    assert names(play(after, "reveal")) == ["R-H1"]


def test_house_filling_none() -> None:
    """Option ``none`` ("without house-filling obligations"): nothing obliges a fill."""
    state = position(houses=quiet({4: ""}), reserve0="5H", hand0="2C", rules=NO_FILLING)
    assert {"draw", "R-H5"} <= set(names(state))
    state = position(houses=quiet({0: "8H", 1: "9C"}), reserve0="5H", hand0="2C", rules=NO_FILLING)
    assert "draw" in names(play(state, "H1-H2"))


# --- the Serbian order -----------------------------------------------------------------


def test_serbian_priority_foundation_first_any_source() -> None:
    """[SR] "foundation first": any foundation move, the reserve one not singled out."""
    state = position(
        houses=quiet({2: "AS", 1: "TD"}), reserve0="AH", hand0="2C", rules=SERBIAN_ORDER
    )
    assert names(state) == ["R-F", "H3-F"]


def test_serbian_priority_tableau_before_loading() -> None:
    """[SR] "then building on the tableau, then loading the opponent": "A move breaks it
    ... when the moved card could have been built on a (non-empty) house and is loaded onto
    the opponent instead."""
    spec = {"reserve0": "6D", "reserve1": "7D", "waste1": "5D", "hand0": "2C"}
    state = position(houses=quiet({1: "7C"}), rules=SERBIAN_ORDER, **spec)  # type: ignore[arg-type]
    assert "R-H2" in names(state)
    rejected(state, "R-OR", "can be built on house 2")
    rejected(state, "R-OW", "can be built on house 2")
    # The same card with no house to build on may be loaded.
    state = position(houses=quiet(), rules=SERBIAN_ORDER, **spec)  # type: ignore[arg-type]
    assert {"R-OR", "R-OW"} <= set(names(state))
    # An empty house does not count as building.
    state = position(houses=quiet({1: ""}), rules=SERBIAN_ORDER, **spec)  # type: ignore[arg-type]
    assert {"R-H2", "R-OR", "R-OW"} <= set(names(state))


def test_pagat_priority_lets_a_buildable_card_load() -> None:
    """Default priority: building before loading is not a rule, so both are legal."""
    spec = {"reserve0": "6D", "reserve1": "7D", "hand0": "2C"}
    state = position(houses=quiet({1: "7C"}), **spec)  # type: ignore[arg-type]
    assert {"R-H2", "R-OR"} <= set(names(state))


@pytest.mark.parametrize("rules", ["belarusian", "pagat(house_filling=immediate)"])
def test_the_houses_emptied_in_a_turn_are_forgotten_when_the_turn_passes(rules: str) -> None:
    """``house_filling=immediate``: a house emptied during a turn must be filled from the
    reserve before other moves of *that* turn; ``state.emptied`` marks those houses and is
    cleared when the turn passes, so the next player is not held to the previous player's
    empty houses."""
    passed = 0
    for seed in range(1, 6):
        states = random_states(rules, seed)
        for before, after in itertools.pairwise(states):
            if after.turn_player != before.turn_player:
                assert after.emptied == 0
                passed += before.emptied != 0
            if before.emptied and after.turn_player == before.turn_player:
                # during the turn the marks stay until the house is filled
                assert after.emptied & before.emptied == before.emptied & ~_filled(after)
    assert passed >= 3  # turns that ended with an emptied house still marked


def _filled(state: c.GameState) -> int:
    return sum(1 << h for h in range(8) if state.houses[h])


def test_the_next_player_may_ignore_the_previous_turns_empty_houses() -> None:
    """The behaviour behind the field: after the turn passes, the next player's moves are
    the same as if no house had been emptied (under ``stop=enforced`` a still-marked house
    would forbid every move but filling it)."""
    seen = 0
    for seed in range(1, 8):
        states = random_states("belarusian", seed)
        for before, after in itertools.pairwise(states):
            if (
                before.emptied
                and after.turn_player != before.turn_player
                and after.reserves[after.to_act]
                and not all(after.houses)
            ):
                assert c.legal_moves(after) == c.legal_moves(after.replace(emptied=0))
                marked = after.replace(emptied=before.emptied & ~_filled(after))
                if marked.emptied:
                    seen += c.legal_moves(marked) != c.legal_moves(after)
    assert seen >= 1  # the marks would have mattered
