"""Why a move is illegal, as data: every reason code of the rule spec
(``crapette._spec.REASONS``) reached from a concrete position, with its parameters, its
English sentence and the ``IllegalMoveError`` of ``apply``.

The suite runs on both engines (CI runs it again with ``CRAPETTE_PURE=1``): under the
native engine the refusal comes from the C core (``cr_why_illegal``), and each case is
checked against the Python reference (``_laws.python_refusal``) as well.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pytest

import crapette as c
from crapette import _laws, _spec
from crapette._tables import houses_key
from crapette.state import make_state, to_python
from positions import mv, play, position, quiet

PAGAT = c.Ruleset.preset("pagat")
FLIP = c.Ruleset().replace(turn_end="flip", own_waste_playable=True)
TURN_START = c.Ruleset().replace(stop="undo", call_window="turn_start")


def _won() -> c.GameState:
    # player 0 has emptied reserve, hand and waste: the deal is over
    return position(houses=quiet(), rest="hand1")


def _stop_pending() -> c.GameState:
    # a discard while H3-F waits breaks the priority: player 1 decides on the Stop! call
    state = play(position(houses=quiet({2: "AS"}), turned="9C", rules=PAGAT), "discard")
    assert state.stop is not None
    return state


def _cycle() -> c.GameState:
    # 9S went from house 1 to house 2: moving it back recreates the layout of the turn start
    return play(position(houses=quiet({0: "9S", 1: "TH"}), reserve0="5D"), "H1-H2")


def _not_a_run() -> c.GameState:
    # H1 holding 9S 5H is not a run. No state of play has one, and the constructor refuses
    # it (every state that exists is a possible one); the reason is reached by the
    # Python reference on a state of its engine built unchecked (make_state).
    with pytest.raises(c.InvalidPositionError, match="H1"):
        position(houses=quiet({0: "9S 5H", 1: "TH"}), check_runs=False)
    state = to_python(position(houses=quiet({0: "9S", 1: "TH"}), hand0="5H"))
    five = state.hands[0][-1]
    houses = ((*state.houses[0], five), *state.houses[1:])
    hands = (state.hands[0][:-1], state.hands[1])
    return make_state(
        state.rules, state.to_act, state.foundations, houses, state.reserves,
        state.reserve_up, hands, state.wastes, state.turned, None, state.emptied,
        state.passes, state.moves_made, None, False, (0, 0), houses_key(houses), None, 0,
    )  # fmt: skip


# Reasons no possible state reaches: checked on the Python reference only.
UNREACHABLE = {"group_run"}


# (code, position, move, parameters)
CASES: list[tuple[str, Callable[[], c.GameState], str, dict[str, Any]]] = [
    ("deal_over", _won, "draw", {}),
    ("stop_pending", _stop_pending, "draw", {"player": 1, "move": "discard"}),
    ("stop_none", lambda: position(houses=quiet()), "stop", {}),
    ("reveal_empty", lambda: position(houses=quiet()), "reveal", {}),
    ("reveal_up", lambda: position(houses=quiet(), reserve0="5D"), "reveal", {}),
    ("draw_turned", lambda: position(houses=quiet(), turned="9C"), "draw", {"card": "9C"}),
    (
        "draw_empty",
        lambda: position(houses=quiet(), reserve0="5D", rest="hand1"),
        "draw",
        {},
    ),
    ("discard_none", lambda: position(houses=quiet()), "discard", {}),
    ("end_turned", lambda: position(houses=quiet(), turned="9C"), "end", {}),
    ("end_cards", lambda: position(houses=quiet()), "end", {}),
    (
        "reserve_down",
        lambda: position(houses=quiet(), reserve0="5D 6D", up0=0, rules="serbian"),
        "R-F",
        {},
    ),
    ("waste_closed", lambda: position(houses=quiet(), waste0="5D"), "W-F", {}),
    ("no_card", lambda: position(houses=quiet()), "T-F", {"pile": "T"}),
    (
        "group_single",
        lambda: position(houses=quiet({0: "9S 8H", 1: "TH"}), rules="belarusian"),
        "H1-H2x2",
        {},
    ),
    (
        "group_short",
        lambda: position(houses=quiet({0: "9S 8H", 1: "TH"})),
        "H1-H2x3",
        {"house": 1, "held": 2},
    ),
    ("group_run", _not_a_run, "H1-H2x2", {"count": 2, "house": 1}),
    (
        "group_space",
        lambda: position(houses=quiet({0: "9S 8H 7C 6D", 1: "TH"})),
        "H1-H2x4",
        {"count": 4, "need": 2, "free": 0},
    ),
    ("foundation", lambda: position(houses=quiet()), "H1-F", {"card": "KS"}),
    (
        "house",
        lambda: position(houses=quiet()),
        "H1-H2",
        {"card": "KS", "onto": "KC", "house": 2},
    ),
    (
        "load_own",
        lambda: position(houses=quiet(), waste1="QS", rules="classic(load_from=own)"),
        "H1-OW",
        {},
    ),
    ("load_empty", lambda: position(houses=quiet(), turned="9C"), "T-OW", {"pile": "OW"}),
    (
        "load_down",
        lambda: position(
            houses=quiet(),
            turned="9C",
            reserve1="8c 5d",
            up1=0,
            rules="classic(reserve_face_up=false)",
        ),
        "T-OR",
        {},
    ),
    (
        "load",
        lambda: position(houses=quiet(), turned="9C", waste1="5C"),
        "T-OW",
        {"card": "9C", "onto": "5C"},
    ),
    (
        "load_wrap",
        lambda: position(houses=quiet(), turned="9C", waste1="5C", rules="classic(load_wrap=true)"),
        "T-OW",
        {"card": "9C", "onto": "5C"},
    ),
    (
        "priority_reserve",
        lambda: position(houses=quiet({2: "AS", 1: "TD"}), reserve0="AH", turned="9C"),
        "H3-F",
        {"card": "AH"},
    ),
    (
        "priority_foundation",
        lambda: position(
            houses=quiet({2: "AS", 5: "AC", 1: "6C"}),
            foundations={0: "AD"},
            reserve0="5H",
            turned="2D",
        ),
        "R-H2",
        {"cards": ("2D", "AS", "AC")},
    ),
    (
        "priority_order",
        lambda: position(
            houses=quiet({5: "TH"}), turned="9C", waste1="TC", rules="classic(priority=serbian)"
        ),
        "T-OW",
        {"card": "9C", "house": 6},
    ),
    (
        "filling_before",
        lambda: position(houses=quiet({3: "", 6: ""}), reserve0="5D"),
        "draw",
        {"house": 4},
    ),
    (
        "filling_immediate",
        lambda: position(
            houses=quiet({2: ""}),
            reserve0="5D",
            rules="classic(house_filling=immediate)",
            emptied=0b100,
        ),
        "draw",
        {"house": 3},
    ),
    ("cycle", _cycle, "H2-H1", {}),
    ("flip_rule", lambda: position(houses=quiet(), rules=FLIP), "draw", {}),
    ("flip_discard", lambda: position(houses=quiet()), "flip", {}),
    (
        "flip_empty",
        lambda: position(houses=quiet(), reserve0="5D", rest="hand1", rules=FLIP),
        "flip",
        {},
    ),
    ("end_flip", lambda: position(houses=quiet(), rules=FLIP), "end", {}),
    (
        "sterile",
        lambda: position(
            houses=quiet({0: "9S", 1: "", 2: "TH"}),
            hand0="3C",
            rules=c.Ruleset().replace(sterile_moves="forbidden"),
        ),
        "H1-H2",
        {"house": 1},
    ),
    (
        "obligation_reserve",
        lambda: position(
            houses=quiet(),
            foundations={0: "AH"},
            reserve0="9C 2H",
            hand0="3C",
            rules=FLIP.replace(priority="bobcrapette", house_filling="none"),
        ),
        "flip",
        {"card": "2H"},
    ),
    (
        "obligation_starter",
        lambda: position(
            houses=quiet({0: "AH"}), hand0="3C", rules=FLIP.replace(priority="bobcrapette")
        ),
        "flip",
        {"card": "AH"},
    ),
    (
        "stop_window",
        lambda: position(houses=quiet(), rules=TURN_START, window=False),
        "stop",
        {},
    ),
    (
        "stop_rationed",
        lambda: position(
            houses=quiet(),
            rules=TURN_START.replace(false_call="rationed"),
            window=True,
            false_calls=(3, 0),
        ),
        "stop",
        {},
    ),
    (
        "load_colour",
        lambda: position(
            houses=quiet(), turned="9C", waste1="5C", rules="classic(load_match=colour)"
        ),
        "T-OW",
        {"card": "9C", "onto": "5C"},
    ),
    (
        "load_colour_wrap",
        lambda: position(
            houses=quiet(),
            turned="9C",
            waste1="5C",
            rules="classic(load_match=colour,load_wrap=true)",
        ),
        "T-OW",
        {"card": "9C", "onto": "5C"},
    ),
]


def test_every_reason_of_the_spec_has_a_case() -> None:
    assert [code for code, *_ in CASES] == [reason.code for reason in _spec.REASONS]


@pytest.mark.parametrize(("code", "make", "text", "params"), CASES, ids=[k[0] for k in CASES])
def test_each_reason_is_reached_with_its_parameters(
    code: str, make: Callable[[], c.GameState], text: str, params: dict[str, Any]
) -> None:
    state = make()
    move = mv(text)
    if code in UNREACHABLE:
        found = _laws.python_refusal(state, move)
        assert found == _laws.Refusal(code, params)
        assert str(found) == _laws.render_reason(code, params)
        return
    found = c.refusal(state, move)
    assert found == _laws.Refusal(code, params)
    assert move not in c.legal_moves(state)
    english = _laws.render_reason(code, params)
    assert str(found) == found.message == c.why_illegal(state, move) == english
    if c.ENGINE == "native":  # the C core's answer is the Python reference's
        assert _laws.python_refusal(to_python(state), move) == found
    with pytest.raises(c.IllegalMoveError) as caught:
        c.apply(state, move)
    assert caught.value.code == code and dict(caught.value.params) == params
    assert str(caught.value).endswith(f": {english}")
    assert f"for player {state.to_act}: " in str(caught.value)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("foundation", "KS does not fit on any foundation"),
        ("reserve_down", "your reserve top is face down: reveal it first"),
        ("load_down", "your opponent's reserve top is face down"),
        ("cycle", "it recreates a layout already seen this turn"),
        ("no_card", "your turned hand card has no card"),
        ("load_empty", "your opponent's waste is empty"),
        ("group_space", "4 cards need 2 empty houses besides the destination; there are 0"),
        ("priority_foundation", "a foundation move (2D, AS, AC) must be made before"),
        ("house", "KS cannot go on KC in house 2"),
    ],
)
def test_the_english_is_the_libraries_words(code: str, words: str) -> None:
    """The English of a refusal, as the library has always written it."""
    _, make, text, _ = next(case for case in CASES if case[0] == code)
    assert words in (c.why_illegal(make(), mv(text)) or "")


def test_a_move_text_is_refused_with_the_code_of_its_move() -> None:
    state = position(houses=quiet())
    with pytest.raises(c.IllegalMoveError) as caught:
        c.apply(state, "H1-F")
    assert caught.value.code == "foundation" and caught.value.params == {"card": "KS"}
    with pytest.raises(c.IllegalMoveError) as caught:
        c.parse_move(state, "T-F")
    assert caught.value.code == "no_card"


def test_a_text_that_names_no_move_of_the_player_has_no_code() -> None:
    """Refused before the rules are asked: the message says why, there is no reason code."""
    state = position(houses=quiet())
    with pytest.raises(c.IllegalMoveError) as caught:
        c.parse_move(state, "R1-F")
    assert caught.value.code is None and caught.value.params == {}
    assert "belongs to your opponent" in str(caught.value)


def test_the_error_keeps_its_code_when_pickled() -> None:
    state = position(houses=quiet())
    with pytest.raises(c.IllegalMoveError) as caught:
        c.apply(state, mv("H1-H2"))
    again = pickle.loads(pickle.dumps(caught.value))
    assert (str(again), again.code, again.params) == (
        str(caught.value),
        "house",
        {"card": "KS", "onto": "KC", "house": 2},
    )


def test_a_refusal_is_json_ready() -> None:
    found = c.refusal(CASES[25][1](), mv(CASES[25][2]))
    assert found is not None
    assert found.to_dict() == {
        "code": "priority_foundation",
        "params": {"cards": ["2D", "AS", "AC"]},
    }


def test_a_violation_carries_its_refusal() -> None:
    """Under callable Stop! rules a priority violation is legal; its refusal is still data
    (the kind, the remedy and the reason of ``_laws.violation``)."""
    state = position(houses=quiet({2: "AS"}), turned="9C", rules=PAGAT)
    assert c.refusal(state, mv("discard")) is None
    broken = _laws.violation(state, mv("discard"))
    assert broken is not None
    assert broken.refusal == _laws.Refusal("priority_foundation", {"cards": ("AS",)})
    assert broken.reason == str(broken.refusal)
    assert c.observe(state, 0).breaks_priority(mv("discard")) == broken.reason


def test_refusal_takes_a_state_and_a_move() -> None:
    state = position(houses=quiet())
    with pytest.raises(TypeError, match="GameState object expected"):
        c.refusal("state", mv("draw"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a Move"):
        c.refusal(state, "draw")  # type: ignore[arg-type]
    assert c.refusal(state, mv("draw")) is None
