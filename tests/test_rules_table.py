"""docs/rules.md "Bobcrapette's table rules": the turn that ends by ``flip``, the
``bobcrapette`` priority (two obligations, broken only by ending the turn), Stop! called at
the start of one's own turn (``call_window=turn_start``) with its penalties and the false
call, ``stop=lose_draw``, sterile moves, the blocked deal as a draw, and how the options
combine. Scenario tests from concrete positions; they run on both engines."""

from __future__ import annotations

import pytest

import crapette as c
from positions import mv, names, play, position, quiet

BOB = c.Ruleset.preset("bobcrapette")
FLIP = c.Ruleset().replace(turn_end="flip", own_waste_playable=True)


def texts(pile: tuple[c.Card, ...]) -> list[str]:
    return [card.text for card in pile]


# --------------------------------------------------------------------------------------
# The turn that ends by flip


def test_a_flip_turn_turns_no_hand_card() -> None:
    """No ``T``, ``draw`` or ``discard``: the turn ends with ``flip``."""
    state = c.new_game(FLIP, seed=2)
    moves = names(state)
    assert "flip" in moves
    assert not {"draw", "discard"} & set(moves)
    assert "flip" in (c.why_illegal(state, c.DRAW) or "")
    classic = c.new_game(seed=2)
    assert "flip" not in names(classic)
    assert c.why_illegal(classic, c.FLIP) is not None


def test_flip_puts_the_hand_top_on_the_waste_and_passes_the_turn() -> None:
    state = position(rules=FLIP, houses=quiet(), hand0="3C 9D", waste0="4S", rest="hand1")
    after = c.apply(state, "flip")
    assert texts(after.wastes[0]) == ["4S", "9D"] and texts(after.hands[0]) == ["3C"]
    assert after.to_act == 1 and after.turned is None


def test_the_own_waste_top_is_available_under_flip() -> None:
    state = position(rules=FLIP, houses=quiet({0: "6S"}), hand0="3C", waste0="4S 5H")
    assert "W-H1" in names(state)


def test_flip_turns_the_waste_over_when_the_hand_is_empty() -> None:
    """Waste 2♥ 3♥ 4♥ gives waste 2♥, hand 4♥ 3♥."""
    state = position(rules=FLIP, houses=quiet(), waste0="2H 3H 4H", rest="hand1")
    after = c.apply(state, "flip")
    assert texts(after.wastes[0]) == ["2H"] and texts(after.hands[0]) == ["4H", "3H"]


def test_end_when_hand_and_waste_are_empty() -> None:
    state = position(rules=FLIP, houses=quiet(), reserve0="5C", rest="hand1")
    moves = names(state)
    assert "end" in moves and "flip" not in moves
    assert c.apply(state, "end").to_act == 1


def test_flip_is_a_hand_turn_for_house_filling_before_hand() -> None:
    """Decision: under ``house_filling=before_hand`` no flip while your reserve has cards and
    a house is empty."""
    state = position(rules=FLIP, houses=quiet({3: ""}), reserve0="5C", hand0="3C")
    assert "flip" not in names(state)
    assert "R-H4" in names(state)


def test_flip_is_a_non_foundation_move() -> None:
    """Under pagat's priority (enforced) no flip while a foundation move exists."""
    state = position(rules=FLIP, houses=quiet({0: "AH"}), hand0="3C")
    assert names(state) == ["H1-F"]


def test_a_pass_ends_with_the_flip_that_turns_the_waste_over() -> None:
    """Decision 10 under flip: the flip that turns the waste over completes a clean pass; the
    deal is blocked once both completed one."""
    state = position(rules=FLIP, houses=quiet(), waste0="2H 3H", rest="hand1", passes=(1, 2))
    after = c.apply(state, "flip")
    assert after.passes == (2, 2) and c.is_over(after)
    assert c.outcome(after) is not None and c.outcome(after).reason == "stalemate"  # type: ignore[union-attr]


# --------------------------------------------------------------------------------------
# The bobcrapette priority


def test_a_starter_must_go_up_before_the_turn_ends_but_not_before_other_moves() -> None:
    rules = FLIP.replace(priority="bobcrapette")
    state = position(rules=rules, houses=quiet({0: "AH", 1: "9S", 2: "8H"}), hand0="3C")
    moves = names(state)
    assert "flip" not in moves
    assert "H1-F" in moves and "H3-H2" in moves  # any order within the turn
    assert "Ace" in (c.why_illegal(state, c.FLIP) or "") or "AH" in (
        c.why_illegal(state, c.FLIP) or ""
    )
    after = play(state, "H3-H2", "H1-F")
    assert "flip" in names(after)


def test_the_reserve_top_must_go_up_before_the_turn_ends_or_be_played_elsewhere() -> None:
    rules = FLIP.replace(priority="bobcrapette", house_filling="none")
    state = position(
        rules=rules, houses=quiet({0: "3S"}), foundations={0: "AH"}, reserve0="9C 2H", hand0="3C"
    )
    assert "flip" not in names(state)
    assert "R-F" in names(state) and "R-H1" in names(state)
    built = c.apply(state, "R-H1")  # the reserve top built on a house: no obligation left
    assert "flip" in names(built)


def test_a_non_starter_foundation_move_is_no_obligation() -> None:
    rules = FLIP.replace(priority="bobcrapette")
    state = position(rules=rules, houses=quiet({0: "2H"}), foundations={0: "AH"}, hand0="3C")
    assert {"H1-F", "flip"} <= set(names(state))


def test_draw_is_no_violation_under_the_bobcrapette_priority() -> None:
    rules = c.Ruleset().replace(priority="bobcrapette")
    state = position(rules=rules, houses=quiet({0: "AH"}), hand0="3C")
    assert "draw" in names(state)
    turned = c.apply(state, "draw")
    assert "discard" not in names(turned)  # the turn's end waits for the Ace


def test_the_undo_penalty_makes_the_reserve_top_or_else_the_first_starter() -> None:
    """Precise decision 8 under the bobcrapette priority: the reserve top to a foundation,
    else the first starter by source."""
    rules = FLIP.replace(priority="bobcrapette", stop="undo")
    state = position(rules=rules, houses=quiet({0: "AH", 2: "AD"}), hand0="3C")
    after = c.apply(state, "flip")
    assert after.stop is not None and after.to_act == 1
    called = c.apply(after, "stop")
    assert called.to_act == 1 and texts(called.hands[0])[-1] == "3C"
    assert any(texts(pile) == ["AH"] for pile in called.foundations)
    assert not any(texts(pile) == ["AD"] for pile in called.foundations)


# --------------------------------------------------------------------------------------
# Stop! at the start of one's own turn


def test_stop_is_legal_at_every_turn_start_fault_or_not_and_there_is_no_pass() -> None:
    state = c.new_game(BOB, seed=4)
    assert "stop" in names(state) and "pass" not in names(state)
    some = next(m for m in c.legal_moves(state) if m.action is c.Action.PLAY)
    after = c.apply(state, some)
    if after.to_act == state.to_act:
        assert "stop" not in names(after)
        assert "first move" in (c.why_illegal(after, c.CALL_STOP) or "")


def test_only_a_turns_end_may_break_a_priority_rule_under_turn_start() -> None:
    """Under ``call_window=turn_start`` with pagat's priority a discard while a foundation
    move exists is legal (the fault), any other violation is not."""
    rules = c.Ruleset().replace(stop="undo", call_window="turn_start")
    state = position(rules=rules, houses=quiet({0: "AH", 1: "9S", 2: "8H"}), turned="3C")
    moves = names(state)
    assert "discard" in moves
    assert "H3-H2" not in moves and "H1-F" in moves


def fault_position() -> c.GameState:
    """Player 0 to act under the bobcrapette preset with an Ace on house 1: a flip now is a
    fault."""
    return position(
        rules=BOB,
        houses=quiet({0: "AH"}),
        hand0="3C 9D",
        waste0="4S",
        hand1="5C 6D",
        rest=("hand0", "hand1"),
        window=False,
    )


def test_a_right_call_takes_the_flip_back_under_lose_draw_and_the_caller_plays_on() -> None:
    """``stop=lose_draw``: the violating flip is taken back (hand, waste, pass marks) and
    nothing else: the Ace still waits; the caller plays on."""
    state = fault_position()
    flipped = c.apply(state, "flip")
    assert flipped.to_act == 1 and flipped.fault is not None and flipped.window
    called = c.apply(flipped, "stop")
    assert called.to_act == 1 and not called.window and called.fault is None
    assert called.hands[0] == state.hands[0] and called.wastes[0] == state.wastes[0]
    assert called.houses == state.houses  # the board is not corrected
    assert called.moves_made == flipped.moves_made + 1  # a call counts for the cap
    assert "stop" not in names(called)


def test_an_uncalled_fault_lapses_at_the_first_move() -> None:
    flipped = c.apply(fault_position(), "flip")
    other = next(m for m in c.legal_moves(flipped) if m is not c.CALL_STOP)
    after = c.apply(flipped, other)
    assert after.fault is None
    assert "stop" not in names(after) or after.to_act != flipped.to_act


def test_a_right_call_with_undo_returns_the_position_and_makes_the_missed_move() -> None:
    rules = BOB.replace(turn_end="discard", stop="undo")
    state = position(
        rules=rules, houses=quiet({0: "AH"}), turned="3C", hand0="9D", hand1="5C", window=False
    )
    discarded = c.apply(state, "discard")
    assert discarded.fault is not None
    called = c.apply(discarded, "stop")
    assert called.to_act == 1 and called.turned is None
    assert texts(called.hands[0])[-1] == "3C"  # the turned card back on top of the hand
    assert any(texts(pile) == ["AH"] for pile in called.foundations)


def test_a_right_call_with_the_card_penalty_gives_a_card() -> None:
    rules = BOB.replace(stop="card")
    state = position(
        rules=rules,
        houses=quiet({0: "AH"}),
        hand0="3C 9D",
        hand1="5c 6d",
        rest=("waste0", "waste1"),
        window=False,
    )
    called = c.apply(c.apply(state, "flip"), "stop")
    assert called.to_act == 1
    assert texts(called.hands[0])[0] == "5c" and "5c" not in texts(called.hands[1])


def test_a_false_call_loses_the_turn_under_lose_turn() -> None:
    state = c.new_game(BOB, seed=4)
    caller = state.to_act
    after = c.apply(state, "stop")
    assert after.to_act == 1 - caller and after.window and after.fault is None
    assert after.hands == state.hands and after.wastes == state.wastes  # nothing drawn


def test_a_false_call_costs_nothing_under_none() -> None:
    state = c.new_game(BOB.replace(false_call="none"), seed=4)
    after = c.apply(state, "stop")
    assert after.to_act == state.to_act and not after.window
    assert "stop" not in names(after)


def test_three_false_calls_a_deal_under_rationed() -> None:
    rules = BOB.replace(false_call="rationed")
    state = c.new_game(rules, seed=4)
    player = state.to_act
    for used in (1, 2, 3):
        state = c.apply(state, "stop")
        assert state.false_calls[player] == used
        state = state.replace(window=True)  # as at the next turn start
    assert "stop" not in names(state)
    assert "3 false calls" in (c.why_illegal(state, c.CALL_STOP) or "")


def test_false_calls_are_inert_without_turn_start() -> None:
    """Inert but allowed: ``call_window`` and ``false_call`` under ``enforced``."""
    rules = c.Ruleset().replace(call_window="turn_start", false_call="rationed")
    state = c.new_game(rules, seed=4)
    assert "stop" not in names(state) and not state.window


# --------------------------------------------------------------------------------------
# lose_draw after the move


def test_lose_draw_after_the_move_keeps_other_violations_and_ends_the_turn() -> None:
    rules = FLIP.replace(stop="lose_draw")
    state = position(rules=rules, houses=quiet({0: "AH", 1: "9S", 2: "8H"}), hand0="3C")
    moved = c.apply(state, "H3-H2")  # a violation: the Ace comes first
    assert moved.stop is not None and moved.to_act == 1
    called = c.apply(moved, "stop")
    assert called.to_act == 1 and called.houses == moved.houses  # the move stands


def test_lose_draw_after_the_move_takes_a_flip_back() -> None:
    rules = FLIP.replace(stop="lose_draw")
    state = position(rules=rules, houses=quiet({0: "AH"}), hand0="3C 9D", waste0="4S")
    called = c.apply(c.apply(state, "flip"), "stop")
    assert called.to_act == 1
    assert called.hands[0] == state.hands[0] and called.wastes[0] == state.wastes[0]


# --------------------------------------------------------------------------------------
# Sterile moves, the blocked deal


def test_a_lone_card_onto_an_empty_house_is_sterile() -> None:
    rules = c.Ruleset().replace(sterile_moves="forbidden")
    state = position(rules=rules, houses=quiet({0: "9S", 1: "", 2: "TH"}), hand0="3C")
    moves = names(state)
    assert "H1-H2" not in moves and "H1-H3" in moves
    assert "changes nothing" in (c.why_illegal(state, mv("H1-H2")) or "")
    allowed = position(houses=quiet({0: "9S", 1: "", 2: "TH"}), hand0="3C")
    assert "H1-H2" in names(allowed)


def test_a_whole_house_moved_as_a_group_onto_an_empty_house_is_sterile() -> None:
    rules = c.Ruleset().replace(sterile_moves="forbidden")
    state = position(rules=rules, houses=quiet({0: "TH 9S", 1: "", 2: ""}), hand0="3C")
    moves = names(state)
    assert "H1-H2x2" not in moves and "H1-H2" in moves


def test_a_blocked_deal_is_a_draw() -> None:
    """``blocked=draw``: the stalemate and the move cap score nothing, with no winner."""
    for rules in (c.Ruleset().replace(blocked="draw"), BOB):
        state = position(
            rules=rules,
            houses=quiet(),
            reserve0="2C",
            hand1="3D",
            rest="hand0",
            passes=(2, 2),
            window=rules.call_window == "turn_start",
        )
        assert c.outcome(state) == c.Outcome(None, (0, 0), "stalemate")
    capped = position(
        rules=c.Ruleset().replace(blocked="draw", move_cap=5), houses=quiet(), moves_made=5
    )
    assert c.outcome(capped) == c.Outcome(None, (0, 0), "move_cap")


# --------------------------------------------------------------------------------------
# Presets and combinations


def test_the_tarot_and_bobcrapette_presets() -> None:
    tarot = c.Ruleset.preset("tarot")
    assert tarot == c.Ruleset().replace(pack="tarot77") and str(tarot) == "tarot"
    assert (
        BOB.pack,
        BOB.turn_end,
        BOB.own_waste_playable,
        BOB.group_moves,
        BOB.sterile_moves,
        BOB.house_filling,
        BOB.priority,
        BOB.stop,
        BOB.call_window,
        BOB.false_call,
        BOB.blocked,
    ) == (
        "tarot77",
        "flip",
        True,
        "single",
        "forbidden",
        "none",
        "bobcrapette",
        "lose_draw",
        "turn_start",
        "lose_turn",
        "draw",
    )
    assert (BOB.reserve_size, BOB.reserve_face_up, BOB.load_from, BOB.load_wrap) == (
        13,
        True,
        "any",
        False,
    )
    assert BOB.hand_size == 60 and str(BOB) == "bobcrapette"
    assert str(BOB.replace(pack="tarot56")) == "bobcrapette(pack=tarot56)"


def test_todays_canonical_strings_stay() -> None:
    for name in ("classic", "pagat", "g4a", "belarusian", "serbian"):
        assert str(c.Ruleset.preset(name)) == name
    assert (
        str(c.Ruleset().replace(stop="undo", house_filling="none")) == "pagat(house_filling=none)"
    )


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"turn_end": "flip", "own_waste_playable": False}, ("turn_end", "own_waste_playable")),
        ({"turn_end": "discard"}, ("stop", "turn_end")),
        ({"reserve_size": 74}, ("pack", "reserve_size")),
    ],
)
def test_refused_combinations_name_both_options(
    changes: dict[str, object], named: tuple[str, str]
) -> None:
    with pytest.raises(c.InvalidRulesError) as caught:
        BOB.replace(**changes)
    assert all(name in str(caught.value) for name in named)
    assert BOB.replace(turn_end="discard", stop="undo").turn_end == "discard"


def test_everything_else_combines() -> None:
    c.Ruleset.preset("pagat").replace(pack="tarot78", turn_end="flip", own_waste_playable=True)
    c.Ruleset.preset("serbian").replace(turn_end="flip")
    c.Ruleset().replace(priority="bobcrapette", stop="card")
    c.Ruleset().replace(call_window="turn_start", stop="undo")


def test_a_foundation_move_stays_legal_while_an_emptied_house_waits_under_bobcrapette() -> None:
    """``house_filling=immediate`` owes the fill before anything *but foundation moves*;
    with no foundation priority (``bobcrapette``) a foundation move is no violation, so it
    is listed beside the fill."""
    rules = c.Ruleset().replace(priority="bobcrapette", house_filling="immediate")
    state = position(rules=rules, houses=quiet({0: "AD", 4: ""}), reserve0="5C 9H", emptied=0b10000)
    assert names(state) == ["R-H5", "H1-F"]
    pagat = position(
        rules=rules.replace(priority="pagat"),
        houses=quiet({0: "AD", 4: ""}),
        reserve0="5C 9H",
        emptied=0b10000,
    )
    assert names(pagat) == ["H1-F"]


def test_the_table_rules_fields_must_fit_the_rules_in_both_engines() -> None:
    """A state's call window, fault and false calls belong to ``call_window=turn_start`` (and
    false calls to ``false_call=rationed``), a turned card never to ``turn_end=flip``: the
    constructor and ``replace`` refuse the others in both engines (the native one checks in
    C, worded by the Python check)."""
    state = c.new_game(BOB, seed=4)
    assert state.window
    with pytest.raises(c.InvalidPositionError, match="window and fault"):
        state.replace(rules=BOB.replace(call_window="after_move"))
    with pytest.raises(c.InvalidPositionError, match="false_calls"):
        state.replace(false_calls=(1, 0))
    with pytest.raises(c.InvalidPositionError, match="turn_end=flip"):
        position(rules=FLIP, houses=quiet(), turned="9C")
