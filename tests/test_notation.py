"""Move and position notation: round trips on random reachable states of every preset,
examples, and the errors for malformed or impossible text."""

from __future__ import annotations

import functools
import re

import pytest

import crapette as c
from crapette.cards import full_pack
from crapette.deal import Rng
from crapette.notation import (
    UNKNOWN_CARD,
    check_move_text,
    format_public_position,
    move_from_text,
)
from crapette.text import describe_move
from positions import walk

PRESETS = list(c.PRESETS)


@functools.cache
def sample_states(name: str, games: int = 2, plies: int = 400) -> tuple[c.GameState, ...]:
    """Every state of a few seeded random games under a preset (first ``plies`` moves)."""
    rules = c.Ruleset.preset(name)
    out = []
    for seed in range(games):
        rng = Rng(seed + 77)
        state = c.new_game(rules, seed=seed)
        out.append(state)
        while not c.is_over(state) and state.moves_made < plies:
            moves = c.legal_moves(state)
            state = c.apply_unchecked(state, moves[rng.below(len(moves))])
            out.append(state)
    return tuple(out)


@pytest.mark.parametrize("name", PRESETS)
def test_position_round_trip(name: str) -> None:
    states = sample_states(name)
    for state in states:
        line = c.format_position(state)
        assert "\n" not in line
        back = c.parse_position(line)
        assert back == state, line
        assert c.format_position(back) == line
    rules = c.Ruleset.preset(name)
    if rules.callable_stop and rules.call_window == "after_move":
        assert any(s.stop is not None for s in states)


@pytest.mark.parametrize("name", PRESETS)
def test_move_round_trip(name: str) -> None:
    for state in sample_states(name)[::7]:
        for move in c.legal_moves(state):
            text = c.format_move(move)
            assert text == str(move)
            assert c.parse_move(state, text) == move, text
            assert c.parse_move(state, text.lower()) == move
            assert c.parse_move(state, f"  {text.upper()} ") == move
            assert move_from_text(str(move)) == move
            assert describe_move(state, move)
            if move.is_play:
                card = _moved_bottom(state, move)
                assert c.parse_move(state, f"{card.text}-{text.split('-')[1]}") == move


def _moved_bottom(state: c.GameState, move: c.Move) -> c.Card:
    if move.source < 8:
        return state.houses[move.source][-move.count]
    if move.source == c.RESERVE:
        return state.reserves[state.to_act][-1]
    if move.source == c.HAND:
        assert state.turned is not None
        return state.turned
    return state.wastes[state.to_act][-1]


def hand_state(**changes: object) -> c.GameState:
    """A small hand-built position: player 0 has 7H on the reserve and A-6H on a foundation."""
    others = [x for x in full_pack(0) if x.suit != 1]
    pack1 = full_pack(1)
    hearts = [c.Card(f"{r}H") for r in "A23456"]
    fields: dict[str, object] = dict(
        rules=c.Ruleset(),
        to_act=0,
        foundations=(tuple(hearts), *((),) * 7),
        houses=tuple((x,) for x in (*others[:4], *pack1[:4])),
        reserves=((c.Card("KH"), c.Card("7H")), pack1[4:14]),
        reserve_up=(1, 1),
        hands=(tuple(c.Card(f"{r}H") for r in "89TJQ"), pack1[14:]),
        wastes=(tuple(others[4:]), ()),
    )
    fields.update(changes)
    return c.GameState(**fields)  # type: ignore[arg-type]


def test_hand_state_is_valid() -> None:
    state = hand_state()
    c.validate_position(state)
    assert c.parse_position(c.format_position(state)) == state


def test_describe_examples() -> None:
    state = hand_state()
    move = c.parse_move(state, "R-F")
    assert describe_move(state, move) == "7♥ from your reserve to a foundation"
    assert c.format_move(move) == str(move) == "R-F"
    assert c.parse_move(state, "7H-F") == move
    assert describe_move(state, c.DRAW) == "turn the top card of your hand"
    turned = state.replace(turned=state.hands[0][-1], hands=(state.hands[0][:-1], state.hands[1]))
    assert describe_move(turned, c.DISCARD) == "put Q♥ on your waste, ending your turn"


def test_one_move_text_relative_opponent_piles() -> None:
    assert c.format_move(c.Move.play(c.HAND, c.OPP_WASTE)) == "T-OW"
    assert c.format_move(c.Move.play(c.RESERVE, c.OPP_RESERVE)) == "R-OR"
    assert c.format_move(c.Move.play(1, 4, 3)) == "H2-H5x3"
    assert c.format_move(c.CALL_STOP) == "stop"
    for p in (0, 1):
        state = c.new_game(seed=3).replace(to_act=p)
        q = 1 - p
        # parse_move still reads the absolute spellings of the opponent's piles.
        for text, relative in ((f"T-W{q}", "T-OW"), (f"R-R{q}", "R-OR")):
            with pytest.raises(c.IllegalMoveError):
                c.parse_move(state, text)  # not legal in this position, but a move
            with pytest.raises(c.IllegalMoveError):
                c.parse_move(state, relative)


def test_format_move_takes_a_move_only() -> None:
    move = c.Move.play(c.RESERVE, c.OPP_RESERVE)
    assert c.format_move(move) == str(move) == "R-OR"
    with pytest.raises(TypeError, match="needs a Move"):
        c.format_move("R-F")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        c.format_move(c.new_game(seed=3), move)  # type: ignore[call-arg]


def test_first_moves_of_a_seeded_deal() -> None:
    state = c.new_game(c.Ruleset.preset("pagat"), seed=3)
    assert [c.format_move(m) for m in c.legal_moves(state)] == ["H3-H4", "draw"]
    assert describe_move(state, c.legal_moves(state)[0]) == "Q♠ from house 3 to house 4"


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("", 0, "expected a move"),
        ("   ", 3, "expected a move"),
        ("jump", 0, "unknown move"),
        ("R", 1, "expected '-'"),
        ("Q-F", 0, "expected a source"),
        ("H9-F", 0, "expected a source"),
        ("R-", 2, "expected a target"),
        ("R-Q", 2, "expected a target"),
        ("R-H9", 2, "expected a target"),
        ("H1-H2x", 6, "count"),
        ("H1-H2x0", 6, "count"),
        ("H1-H2x23", 6, "count"),
        ("H1-H2y", 5, "end of the move"),
        (" R-Fx", 5, "count"),
    ],
)
def test_parse_move_malformed(text: str, position: int, fragment: str) -> None:
    state = hand_state()
    with pytest.raises(c.NotationError) as info:
        c.parse_move(state, text)
    assert info.value.position == position
    assert fragment in str(info.value)
    with pytest.raises(c.NotationError):
        check_move_text(text)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("R-R0", "own reserve"),
        ("T-W0", "own waste"),
        ("R1-F", "opponent"),
        ("H1-H1", "H1 is also the target"),
        ("R-Fx2", "only from house to house, not from R to F"),
        ("KH-F", "not available"),
        ("R-H3", "illegal move"),
        ("discard", "illegal move"),
        ("stop", "illegal move"),
    ],
)
def test_parse_move_illegal(text: str, fragment: str) -> None:
    with pytest.raises(c.IllegalMoveError) as info:
        c.parse_move(hand_state(), text)
    assert fragment in str(info.value)


def test_card_named_group_count_must_agree() -> None:
    for state in sample_states("classic"):
        groups = [m for m in c.legal_moves(state) if m.count > 1]
        if groups:
            move = groups[0]
            card = state.houses[move.source][-move.count]
            target = f"H{move.target + 1}"
            assert c.parse_move(state, f"{card.text}-{target}x{move.count}") == move
            with pytest.raises(c.IllegalMoveError):
                c.parse_move(state, f"{card.text}-{target}x{move.count + 1}")
            return
    pytest.skip("no group move in the sample")


def test_public_position_hides_face_down_cards() -> None:
    state = sample_states("serbian")[30]
    public = format_public_position(state, 0)
    assert public == format_public_position(state, 1)
    hidden = sum(len(h) for h in state.hands) + sum(
        len(r) - up for r, up in zip(state.reserves, state.reserve_up, strict=True)
    )
    assert public.count(UNKNOWN_CARD) == hidden
    for card in state.hands[0] + state.hands[1]:
        assert card.text not in public.split()[6]
    with pytest.raises(c.NotationError, match="public position"):
        c.parse_position(public)
    with pytest.raises(ValueError):
        format_public_position(state, 2)


def test_position_example() -> None:
    state = c.new_game(seed=42)
    line = c.format_position(state)
    fields = line.split(" ")
    assert len(fields) == 14
    assert fields[0] == "classic"
    assert fields[2] == "-/-/-/-/-/-/-/-"
    assert fields[5] == "1/1"
    assert fields[8:] == ["-", "-", "1/1", "0", "-", "-"]


def _mutate(line: str, index: int, value: str) -> str:
    fields = line.split(" ")
    fields[index] = value
    return " ".join(fields)


@pytest.mark.parametrize(
    ("index", "value", "position_field"),
    [
        (0, "nonsense", 0),
        (1, "2", 1),
        (2, "-/-/-", 2),
        (3, "7X/-/-/-/-/-/-/-", 3),
        (5, "1-1", 5),
        (8, "7H7S", 8),
        (9, "81", 9),
        (10, "3/1", 10),
        (11, "x", 11),
        (12, "zz", 12),
        (13, "R-Q", 13),
    ],
)
def test_parse_position_malformed(index: int, value: str, position_field: int) -> None:
    line = c.format_position(c.new_game(seed=42))
    bad = _mutate(line, index, value)
    with pytest.raises(c.NotationError) as info:
        c.parse_position(bad)
    start = sum(len(f) + 1 for f in bad.split(" ")[:position_field])
    assert info.value.position is not None
    assert start <= info.value.position <= start + len(value)


def test_parse_position_truncated_and_extra() -> None:
    line = c.format_position(c.new_game(seed=42))
    with pytest.raises(c.NotationError, match="expected the rules"):
        c.parse_position("")
    with pytest.raises(c.NotationError, match="seen layout keys") as info:
        c.parse_position(" ".join(line.split(" ")[:12]))
    assert info.value.position is not None
    with pytest.raises(c.NotationError, match="end of the position"):
        c.parse_position(line + " extra")


def test_parse_position_impossible() -> None:
    state = hand_state()
    line = c.format_position(state)
    fields = line.split(" ")
    # a doubled card and a missing one
    doubled = _mutate(line, 7, fields[7].replace(state.wastes[0][0].text, "7H", 1))
    with pytest.raises(c.NotationError, match="more than once") as info:
        c.parse_position(doubled)
    assert "missing" in str(info.value)
    # a foundation that is not a run from its Ace
    swapped = _mutate(line, 2, "AH3H2H4H5H6H/-/-/-/-/-/-/-")
    with pytest.raises(c.NotationError, match="foundation 1"):
        c.parse_position(swapped)
    # a house that is not a descending alternating run
    top = state.houses[0][0]
    houses = fields[3].split("/")
    houses[0] = top.text + state.houses[1][0].text
    houses[1] = "-"
    with pytest.raises(c.NotationError, match="house H1"):
        c.parse_position(_mutate(line, 3, "/".join(houses)))
    # counts that cannot happen
    with pytest.raises(c.NotationError, match="fewer than"):
        c.parse_position(_mutate(line, 5, "3/1"))
    with pytest.raises(c.NotationError, match="face down"):
        c.parse_position(_mutate(line, 5, "0/1"))
    with pytest.raises(c.NotationError, match="emptied"):
        c.parse_position(_mutate(line, 9, "1"))
    with pytest.raises(c.NotationError, match="move cap"):
        c.parse_position(_mutate(line, 11, "20001"))
    # a Stop! move that is not a violation here
    with pytest.raises(c.NotationError, match="Stop!"):
        c.parse_position(_mutate(line, 13, "R-F"))


def test_pending_stop_positions_round_trip_and_encode_the_prior() -> None:
    for name in ("pagat", "serbian"):
        stops = [s for s in sample_states(name) if s.stop is not None]
        assert stops
        for state in stops[:20]:
            line = c.format_position(state)
            assert state.stop is not None
            assert line.split(" ")[13] == str(state.stop.move)
            prior_line = c.format_position(state.stop.prior)
            assert line.rsplit(" ", 1)[0] == prior_line.rsplit(" ", 1)[0]
            assert c.parse_position(line) == state


def test_seen_keys_round_trip() -> None:
    states = [s for s in sample_states("classic") if len(s.seen) > 1]
    assert states
    for state in states:
        line = c.format_position(state)
        assert line.split(" ")[12] != "-"
        assert c.parse_position(line).seen == state.seen


def test_position_with_modified_rules() -> None:
    rules = c.Ruleset.preset("serbian").replace(house_filling="immediate", move_cap=500)
    state = c.new_game(rules, seed=4)
    line = c.format_position(state)
    assert line.split(" ")[0] == "serbian(house_filling=immediate,move_cap=500)"
    assert c.parse_position(line) == state


# --------------------------------------------------------------------------------------
# Tall houses, pile names in errors, and white space in move text


@pytest.mark.parametrize("house", [0, 7])
@pytest.mark.parametrize("height", [14, 17, 40])
def test_tall_house_in_a_position_line_is_a_notation_error(house: int, height: int) -> None:
    fields = c.format_position(c.new_game(seed=1)).split(" ")
    houses = fields[3].split("/")
    houses[house] = "KS" * height
    fields[3] = "/".join(houses)
    line = " ".join(fields)
    with pytest.raises(c.NotationError, match=rf"H{house + 1} .*{height} cards.*at most 13"):
        c.parse_position(line)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("R-Fx2", ("R", "F")),
        ("T-H3x2", ("T", "H3")),
        ("H2-Fx3", ("H2", "F")),
        ("H4-OWx2", ("H4", "OW")),
        ("H1-H1", ("H1",)),
    ],
)
def test_impossible_moves_are_named_with_piles(text: str, names: tuple[str, ...]) -> None:
    with pytest.raises(c.IllegalMoveError) as info:
        c.parse_move(c.new_game(seed=1), text)
    message = str(info.value)
    assert all(re.search(rf"\b{name}\b", message) for name in names), message
    assert not re.search(r"from -?\d+ to -?\d+|source=|target=", message), message


@pytest.mark.parametrize(
    ("text", "position"),
    [("\u00a0draw", 0), ("draw\u2003", 4), ("R-\u00a0F", 2), ("R\u2013F", 1), ("R-Ｆ", 2)],
)
def test_move_text_allows_only_ascii_white_space(text: str, position: int) -> None:
    state = walk("classic", 0)[0]
    with pytest.raises(c.NotationError) as info:
        c.parse_move(state, text)
    assert info.value.position == position
    with pytest.raises(c.NotationError):
        move_from_text(text)


def test_move_text_allows_ascii_white_space_around() -> None:
    state = walk("classic", 0)[0]
    move = c.legal_moves(state)[0]
    text = c.format_move(move)
    for padded in (f" {text}", f"{text}\t", f"\r\n {text} \n"):
        assert c.parse_move(state, padded) == move
