"""One face per concept: every text has one writer and one reader that round-trip, the
readable board is ``str(state)``, ``repr(state)`` pastes back, and the entry points take
rules and moves in any of their documented forms."""

from __future__ import annotations

import pytest

import crapette as c
from crapette.cards import SYMBOL
from crapette.moves import ALL_MOVES
from crapette.records import GameRecord, format_record, parse_record
from crapette.text import board
from test_notation import sample_states

PRESETS = sorted(c.PRESETS)


def test_cards_format_and_parse() -> None:
    for card in c.ALL_CARDS:
        text = c.format_card(card)
        assert text == str(card) == card.text and c.parse_card(text) == card
        assert c.format_card(card, symbol=True) == card.symbol == SYMBOL[card]
    assert c.format_card(c.parse_card("Th"), symbol=True) == "10♥"
    for index in (104, -1):  # the same error as Card(104)
        with pytest.raises(c.InvalidArgumentError, match=f"index {index}"):
            c.format_card(index)
        with pytest.raises(c.InvalidArgumentError, match=f"index {index}"):
            c.Card(index)
    for bad in (True, "7H"):
        with pytest.raises(TypeError):
            c.format_card(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_format_and_parse(preset: str) -> None:
    rules = c.Ruleset.preset(preset).replace(house_filling="none", move_cap=900)
    text = c.format_rules(rules)
    assert text == str(rules) == rules.to_string()
    assert c.parse_rules(text) == rules == c.Ruleset.from_string(text)
    with pytest.raises(c.InvalidRulesError):
        c.parse_rules(preset + "(no_such_option=1)")
    with pytest.raises(TypeError):
        c.format_rules(text)  # type: ignore[arg-type]


def test_rules_in_any_form() -> None:
    rules = c.parse_rules("serbian(house_filling=immediate)")
    for form in (rules, "serbian(house_filling=immediate)"):
        assert c.new_game(form, seed=5) == c.new_game(rules, seed=5)
        assert c.new_match(form, seed=5) == c.new_match(rules, seed=5)
    assert c.new_game("pagat", seed=1) == c.new_game(c.Ruleset.preset("pagat"), seed=1)
    assert c.new_game(None, seed=1) == c.new_game(seed=1)
    for bad in ("nonsense", 3):
        with pytest.raises(c.InvalidRulesError):
            c.new_game(bad, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", PRESETS)
def test_the_move_text_is_str_and_apply_reads_it(preset: str) -> None:
    for state in sample_states(preset)[::9]:
        snapshot = c.to_json(state)
        for move in c.legal_moves(state):
            text = str(move)
            assert c.format_move(move) == text
            assert c.apply(state, text) == c.apply(state, move)
            assert c.apply(state, f" {text.lower()} ") == c.apply(state, move)
        assert c.to_json(state) == snapshot


@pytest.mark.parametrize("preset", PRESETS)
def test_str_is_the_board_and_repr_pastes_back(preset: str) -> None:
    namespace = {"crapette": c}
    for state in sample_states(preset)[::13]:
        assert str(state) == board(state)
        assert eval(repr(state), namespace) == state
        shown = board(state, hidden=True)
        hidden = [*state.hands[0], *state.hands[1]]
        for p in (0, 1):
            hidden.extend(state.reserves[p][: len(state.reserves[p]) - state.reserve_up[p]])
        words = set(shown.split())
        # a face-down card is named only if another copy of its face is visible
        visible = {card.symbol for card in state.cards() if card not in hidden}
        assert {card.symbol for card in hidden} & words <= visible
        assert board(state, ascii=True).count("♠") == 0


def test_record_forms_agree() -> None:
    state = c.new_game(seed=11)
    moves = list(c.legal_moves(state)[:1])
    record = GameRecord.from_moves(state, moves, {"Seed": "11"})
    assert str(record) == format_record(record)
    assert GameRecord.from_text(str(record)) == parse_record(str(record)) == record
    assert GameRecord.from_dict(record.to_dict()) == record
    assert c.from_json(record.to_json()) == GameRecord.from_json(c.to_json(record)) == record


def test_every_move_repr_pastes_back() -> None:
    """``repr(move)`` is code that gives the move back (with ``import crapette``)."""
    import crapette

    namespace = {"crapette": crapette}
    for move in ALL_MOVES:
        assert eval(repr(move), namespace) is move
