"""docs/rules.md "Stop!" for every value of ``stop`` (``enforced``, ``undo``,
``card``), with precise decisions 7, 8 and 9."""

from __future__ import annotations

import pytest

import crapette as c
from positions import cards, mv, names, play, position, quiet

CLASSIC = c.Ruleset()
UNDO = c.Ruleset.preset("pagat")
CARD = CLASSIC.replace(stop="card")
SERBIAN = c.Ruleset.preset("serbian")


def violation_position(rules: c.Ruleset, **kw: object) -> c.GameState:
    """Player 0 to act; house 3 holds AS (a foundation move), reserve top 9C fits on house
    2's TD: ``R-H2`` breaks the priority (a non-foundation move while one exists)."""
    spec: dict[str, object] = {
        "houses": quiet({1: "TD", 2: "AS"}),
        "reserve0": "5H 9C",
        "hand0": "2C",
        "hand1": "3C",
        "rules": rules,
    }
    spec.update(kw)
    return position(**spec)  # type: ignore[arg-type]


def test_enforced_offers_no_violation() -> None:
    """Enforced (default, [G4A]): "the engine offers only moves that respect the
    priorities; a violation is impossible"."""
    state = violation_position(CLASSIC)
    assert names(state) == ["H3-F"]
    with pytest.raises(c.IllegalMoveError, match="foundation move"):
        c.apply(state, mv("R-H2"))
    with pytest.raises(c.IllegalMoveError, match="no Stop! decision is open"):
        c.apply(state, c.CALL_STOP)


@pytest.mark.parametrize("rules", [UNDO, CARD], ids=["undo", "card"])
def test_callable_violation_is_legal_and_only_the_opponent_decides(rules: c.Ruleset) -> None:
    """Callable ([P], [SR]): "a move that breaks the priority rules but obeys the building
    rules is allowed; right after it ... the opponent may call "Stop!" or let it stand";
    decision 7: "after a violation only the opponent acts (call or let stand)"."""
    state = violation_position(rules)
    assert {"H3-F", "R-H2", "draw"} <= set(names(state))
    after = play(state, "R-H2")
    assert after.to_act == 1 and after.stop is not None
    assert after.stop.offender == 0 and after.stop.move == mv("R-H2")
    assert c.legal_moves(after) == (c.CALL_STOP, c.LET_STAND)
    with pytest.raises(c.IllegalMoveError, match="must first decide"):
        c.apply(after, c.DRAW)


@pytest.mark.parametrize("rules", [UNDO, CARD], ids=["undo", "card"])
def test_no_decision_after_a_legal_priority_move(rules: c.Ruleset) -> None:
    """Only a move that breaks the priority opens a Stop! decision."""
    after = play(violation_position(rules), "H3-F")
    assert after.stop is None and after.to_act == 0
    with pytest.raises(c.IllegalMoveError, match="no Stop! decision is open"):
        c.apply(after, c.LET_STAND)


@pytest.mark.parametrize("rules", [UNDO, CARD], ids=["undo", "card"])
def test_building_violations_are_never_legal(rules: c.Ruleset) -> None:
    """ "Building-rule violations (an Ace-less foundation, a same-colour house build, ...) are
    never legal: ``apply`` rejects them with a clear error in every mode."""
    state = violation_position(rules, reserve0="9D")
    with pytest.raises(c.IllegalMoveError, match="alternating colours"):
        c.apply(state, mv("R-H2"))
    with pytest.raises(c.IllegalMoveError, match="does not fit on any foundation"):
        c.apply(state, mv("R-F"))


@pytest.mark.parametrize("rules", [UNDO, CARD], ids=["undo", "card"])
def test_let_stand(rules: c.Ruleset) -> None:
    """ "If nobody calls, the move stands" and the offender goes on with the turn."""
    state = violation_position(rules)
    after = play(state, "R-H2", "pass")
    assert after.stop is None and after.to_act == 0
    assert after.houses[1] == cards("TD 9C") and after.reserves[0] == cards("5H")
    assert after.moves_made == 2  # decision 11: the decision counts
    assert "H3-F" in names(after)  # the offender goes on


# --- undo [P] --------------------------------------------------------------------------


def test_undo_takes_back_makes_the_missed_move_and_passes_the_turn() -> None:
    """Penalty ``undo`` [P]: "the move is taken back, the missed compulsory move (if any) is
    made, and the turn passes to the caller"."""
    state = violation_position(UNDO)
    after = play(state, "R-H2", "stop")
    assert after.stop is None and after.to_act == 1
    assert after.reserves[0] == cards("5H 9C")  # taken back
    assert after.houses[1] == cards("TD") and after.houses[2] == ()  # AS went up
    assert any(pile == cards("AS") for pile in after.foundations)
    assert after.hands == state.hands and after.wastes == state.wastes
    assert after.moves_made == 2


def test_undo_puts_a_turned_card_back_on_top_of_the_hand() -> None:
    """Decision 8: "A hand card still turned when Stop! ends a turn goes back on top of the
    hand."""
    state = violation_position(UNDO, turned="5C")
    after = play(state, "R-H2", "stop")
    assert after.turned is None and after.hands[0][-1] == c.Card("5C")
    assert after.hands[0][:-1] == state.hands[0]


def test_undo_missed_move_reserve_to_foundation_first() -> None:
    """Decision 8: "the compulsory move made is the first missed one in a fixed order:
    reserve to a foundation" (here the violation is another foundation move)."""
    state = violation_position(UNDO, reserve0="5H AH")
    after = play(state, "H3-F", "stop")
    assert after.reserves[0] == cards("5H") and after.houses[2] == cards("AS")
    assert any(pile == cards("AH") for pile in after.foundations)


def test_undo_missed_move_turned_card_before_houses() -> None:
    """Decision 8: "else the first foundation move by source (reserve, turned card, own
    waste, houses in order)"; a violating discard is taken back too."""
    state = violation_position(UNDO, foundations={0: "AH"}, turned="2H")
    after = play(state, "discard")
    assert after.stop is not None and after.to_act == 1
    after = play(after, "stop")
    assert after.foundations[0] == cards("AH 2H") and after.houses[2] == cards("AS")
    assert after.wastes[0] == state.wastes[0] and after.turned is None
    assert after.hands[0] == state.hands[0] and after.to_act == 1


def test_undo_missed_move_own_waste_before_houses() -> None:
    """Decision 8: own waste (where playable) comes before the houses."""
    rules = UNDO.replace(own_waste_playable=True)
    state = violation_position(rules, waste0="AD")
    after = play(state, "R-H2", "stop")
    assert after.wastes[0] == () and after.houses[2] == cards("AS")


def test_undo_missed_move_houses_in_order() -> None:
    """Decision 8: houses in order: house 2's Ace before house 6's."""
    state = violation_position(UNDO, houses=quiet({1: "TD", 2: "AS", 5: "AC"}))
    after = play(state, "R-H2", "stop")
    assert after.houses[2] == () and after.houses[5] == cards("AC")


def test_undo_missed_house_filling() -> None:
    """Decision 8: "for house filling the reserve top to the first empty house"."""
    state = violation_position(UNDO, houses=quiet({4: "", 6: ""}))
    after = play(state, "draw")  # breaks house filling before_hand
    assert after.stop is not None
    after = play(after, "stop")
    assert after.houses[4] == cards("9C") and after.houses[6] == ()
    assert after.reserves[0] == cards("5H") and after.hands[0] == state.hands[0]
    assert after.to_act == 1 and after.turned is None


def test_undo_missed_house_filling_immediate() -> None:
    """Decision 8 with ``house_filling=immediate``: the emptied house is filled."""
    rules = UNDO.replace(house_filling="immediate")
    state = violation_position(rules, houses=quiet({0: "8H", 1: "9C", 3: "TS"}), reserve0="5H 9D")
    after = play(state, "H1-H2")
    assert after.stop is None
    after = play(after, "R-H4", "stop")  # 9D onto TS instead of filling house 1
    assert after.houses[0] == cards("9D") and after.houses[3] == cards("TS")
    assert after.houses[1] == cards("9C 8H") and after.to_act == 1


def test_undo_missed_serbian_tableau_move() -> None:
    """Decision 8: "for the Serbian tableau rule the same card onto the first house that
    takes it"."""
    rules = UNDO.replace(priority="serbian")
    state = violation_position(
        rules, houses=quiet({1: "7C", 5: "7S"}), reserve0="5H 6D", reserve1="7D"
    )
    after = play(state, "R-OR")
    assert after.stop is not None
    after = play(after, "stop")
    assert after.houses[1] == cards("7C 6D") and after.reserves[1] == cards("7D")
    assert after.to_act == 1


# --- penalty card [SR] -----------------------------------------------------------------


def test_card_penalty_from_the_callers_hand_bottom() -> None:
    """Penalty ``card`` [SR]: "the move stands; the caller gives the offender one penalty
    card, the bottom card of the caller's hand ..., which goes to the bottom of the
    offender's hand; the turn passes to the caller"."""
    state = violation_position(CARD, hand1="3C 4D", rest="hand0")
    after = play(state, "R-H2", "stop")
    assert after.houses[1] == cards("TD 9C")  # the move stands
    assert after.hands[1] == cards("4D")
    assert after.hands[0] == (c.Card("3C"), *state.hands[0])
    assert after.to_act == 1 and after.stop is None


def test_card_penalty_from_the_callers_waste_bottom() -> None:
    """Penalty ``card``: "(if the caller's hand is empty, of the caller's waste ...)"."""
    state = violation_position(CARD, hand1="", waste1="3C 4D", rest="hand0")
    after = play(state, "R-H2", "stop")
    assert after.wastes[1] == cards("4D")
    assert after.hands[0][0] == c.Card("3C")


def test_card_penalty_none_when_caller_has_no_hand_or_waste() -> None:
    """Penalty ``card``: "if both are empty, none"; the turn still passes."""
    state = violation_position(CARD, hand1="", reserve1="4D", rest="hand0")
    after = play(state, "R-H2", "stop")
    assert after.hands[0] == state.hands[0] and after.to_act == 1
    assert after.houses[1] == cards("TD 9C")


def test_card_penalty_turned_card_back_on_the_hand() -> None:
    """Decision 8 (a turned card goes back on top of the hand) under ``card`` too."""
    state = violation_position(CARD, turned="5C", hand1="3C 4D", rest="hand0")
    after = play(state, "R-H2", "stop")
    assert after.turned is None
    assert after.hands[0] == (c.Card("3C"), *state.hands[0], c.Card("5C"))


def test_card_penalty_after_a_violating_discard() -> None:
    """A violating discard ends the turn; "Stop!" still gives the penalty card, and either
    way the caller is to act."""
    state = violation_position(CARD, turned="5C", hand1="3C 4D", rest="hand0")
    after = play(state, "discard")
    assert after.to_act == 1 and after.stop is not None
    assert play(after, "pass").to_act == 1
    called = play(after, "stop")
    assert called.to_act == 1 and called.wastes[0][-1] == c.Card("5C")
    assert called.hands[0][0] == c.Card("3C")


def test_serbian_preset_stop_card_on_loading_instead_of_building() -> None:
    """The serbian preset: priority ``serbian`` with penalty ``card``: loading a card that
    could be built on a house is a violation the opponent may call."""
    state = position(
        houses=quiet({1: "7C"}),
        reserve0="5H 6D",
        up0=1,
        reserve1="7D",
        up1=1,
        hand1="3C 4S",
        rules=SERBIAN,
        rest="hand0",
    )
    after = play(state, "R-OR")
    assert after.stop is not None and after.to_act == 1
    after = play(after, "stop")
    assert after.reserves[1] == cards("7D 6D") and after.hands[0][0] == c.Card("3C")


# --- decisions 7 and 9 -----------------------------------------------------------------


@pytest.mark.parametrize("rules", [UNDO, CARD], ids=["undo", "card"])
def test_winning_violation_ends_the_deal_without_decision(rules: c.Ruleset) -> None:
    """Decision 7: "A move that wins the deal ends it at once, with no decision."""
    state = violation_position(rules, reserve0="9C", hand0="", rest="hand1")
    after = play(state, "R-H2")
    assert after.stop is None
    result = c.outcome(after)
    assert result is not None and result.winner == 0 and result.reason == "win"
    assert c.legal_moves(after) == ()


def test_penalty_card_can_empty_the_caller() -> None:
    """Decision 9: "Wins are checked for both players after every move (the penalty card
    can empty the caller)."""
    state = violation_position(CARD, hand1="3C", rest="hand0")
    assert state.reserves[1] == () and state.wastes[1] == ()
    after = play(state, "R-H2", "stop")
    result = c.outcome(after)
    assert result is not None and result.winner == 1 and result.reason == "win"
    loser = 2 * len(after.reserves[0]) + len(after.hands[0]) + len(after.wastes[0])
    assert result.scores == (0, 30 + loser)
    assert c.legal_moves(after) == ()
