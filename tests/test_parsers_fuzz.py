"""Fuzzing every parser with arbitrary and with mutated text: each may fail only with the
library's own errors (``NotationError`` or another ``CrapetteError``)."""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import crapette as c
from crapette.deal import Rng
from crapette.moves import ALL_MOVES
from crapette.records import GameRecord, format_record, parse_record
from crapette.state import position_problems

ALPHABET = st.characters(codec="utf-8")
# Text made mostly of the characters the formats use, so the fuzzer gets past the first checks.
NOTATION_CHARS = st.sampled_from(list('A23456789TJQKSHDCshdcFRWOx-/., 0123456789?{}[]"\\\n'))
notation_text = st.text(NOTATION_CHARS, max_size=60)
any_text = st.one_of(st.text(ALPHABET, max_size=60), notation_text)


@functools.cache
def states() -> tuple[c.GameState, ...]:
    out = []
    for i, name in enumerate(c.PRESETS):
        rng = Rng(i)
        state = c.new_game(c.Ruleset.preset(name), seed=i)
        for _ in range(80):
            moves = c.legal_moves(state)
            if not moves:
                break
            state = c.apply_unchecked(state, moves[rng.below(len(moves))])
        out.append(state)
    return tuple(out)


@functools.cache
def sample_record_text() -> str:
    state = start = c.new_game(seed=1)
    moves = []
    for _ in range(25):
        move = c.legal_moves(state)[0]
        moves.append(move)
        state = c.apply(state, move)
    return format_record(GameRecord.from_moves(start, moves, {"Seed": "1"}))


def _mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    for where, length, insert in edits:
        i = where % (len(text) + 1)
        text = text[:i] + insert + text[i + length :]
    return text


edits = st.lists(
    st.tuples(st.integers(0, 10_000), st.integers(0, 3), st.text(NOTATION_CHARS, max_size=3)),
    min_size=1,
    max_size=4,
)


@given(any_text)
def test_parse_card(text: str) -> None:
    try:
        card = c.parse_card(text)
    except c.NotationError as exc:
        assert exc.position is not None
    else:
        assert isinstance(card, c.Card)


@given(any_text, st.integers(0, 4))
def test_parse_move(text: str, which: int) -> None:
    state = states()[which]
    try:
        move = c.parse_move(state, text)
    except c.NotationError as exc:
        assert exc.position is not None
    except c.IllegalMoveError:
        pass
    else:
        assert move in c.legal_moves(state)


@given(st.integers(0, 4), edits)
def test_parse_position_mutated(which: int, changes: list[tuple[int, int, str]]) -> None:
    line = _mutate(c.format_position(states()[which]), changes)
    try:
        state = c.parse_position(line)
    except c.NotationError:
        pass
    else:
        assert c.parse_position(c.format_position(state)) == state


@given(any_text)
def test_parse_position_arbitrary(text: str) -> None:
    with contextlib.suppress(c.NotationError):
        c.parse_position(text)


@given(edits)
def test_parse_record_mutated(changes: list[tuple[int, int, str]]) -> None:
    text = _mutate(sample_record_text(), changes)
    try:
        record = parse_record(text)
        list(record.replay())
    except c.CrapetteError:
        pass


@given(any_text)
def test_parse_record_arbitrary(text: str) -> None:
    with contextlib.suppress(c.NotationError):
        parse_record(text)


@functools.cache
def sample_match() -> c.Match:
    """A match whose second deal is over (a short move cap ends each deal quickly)."""
    match = c.new_match(c.Ruleset().replace(move_cap=30), seed=2)
    for _ in range(2):
        while c.outcome(match.state) is None:
            match = match.play(c.legal_moves(match.state)[0])
        if match.number == 0:
            match = match.next_deal()
    return match


@given(st.sampled_from(["state", "rules", "record", "match"]), edits)
def test_from_json_mutated(kind: str, changes: list[tuple[int, int, str]]) -> None:
    obj = {
        "state": states()[3],
        "rules": c.Ruleset.preset("serbian"),
        "record": parse_record(sample_record_text()),
        "match": sample_match(),
    }[kind]
    text = _mutate(c.to_json(obj), changes)
    try:
        loaded = c.from_json(text)
    except c.NotationError:
        pass
    else:
        if isinstance(loaded, GameRecord):
            with contextlib.suppress(c.CrapetteError):
                list(loaded.replay())


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@given(st.sampled_from(["state", "rules", "record"]), json_values, st.text(max_size=12))
def test_from_json_structured(kind: str, value: object, key: str) -> None:
    doc = json.loads(c.to_json(states()[1] if kind == "state" else c.Ruleset()))
    doc["type"] = kind
    target = doc.get("state", doc)
    target[key if key else "rules"] = value
    with contextlib.suppress(c.NotationError):
        c.from_json(json.dumps(doc))


@given(any_text)
def test_from_json_arbitrary(text: str) -> None:
    with contextlib.suppress(c.NotationError):
        c.from_json(text)


@given(st.one_of(any_text, st.text(st.sampled_from(list("classicpagtserbn(),=_ 0123456789")))))
def test_ruleset_from_string(text: str) -> None:
    try:
        rules = c.Ruleset.from_string(text)
    except c.CrapetteError:
        pass
    else:
        assert c.Ruleset.from_string(str(rules)) == rules


# The exact grammars (rules numbers, seen keys, move text) and bounded messages, fuzzed.

UNICODE_DIGITS_AND_SIGNS = st.sampled_from(list("0123456789_+-. \t\u00a0\u0663\uff11\u2003e"))


@given(st.text(UNICODE_DIGITS_AND_SIGNS, min_size=1, max_size=8))
def test_rules_numbers_only_ascii_decimal(raw: str) -> None:
    """A number in a rules string is read only when it is ``-?[0-9]+`` (blanks around)."""
    try:
        rules = c.Ruleset.from_string(f"classic(move_cap={raw})")
    except c.InvalidRulesError as exc:
        assert len(str(exc)) < 400
    else:
        body = raw.strip(" \t")
        assert body.lstrip("-").isascii() and body.lstrip("-").isdigit()
        assert rules.move_cap == int(body)


@given(st.text(st.sampled_from(list("0123456789abcdefABCDEFxX-+_ \u00a0\uff11")), max_size=18))
def test_json_seen_keys_only_hex(key: str) -> None:
    """A JSON layout key is read exactly when field 13 of a position line would read it."""
    doc = json.loads(c.to_json(states()[0]))
    doc["state"]["seen"] = [key]
    ok = 1 <= len(key) <= 16 and all(ch in "0123456789abcdefABCDEF" for ch in key)
    try:
        c.from_json(json.dumps(doc))
    except c.NotationError:
        assert not ok
    else:
        assert ok


@given(st.integers(0, 4), st.text(ALPHABET, min_size=1, max_size=3), st.integers(0, 8))
def test_move_text_with_foreign_characters(which: int, junk: str, where: int) -> None:
    """Characters other than ASCII letters, digits, ``-`` and ASCII white space around the
    move are refused with a position; errors never name internal pile codes."""
    state = states()[which]
    moves = c.legal_moves(state)
    if not moves:
        return
    text = c.format_move(moves[0])
    i = where % (len(text) + 1)
    mutated = text[:i] + junk + text[i:]
    try:
        move = c.parse_move(state, mutated)
    except c.NotationError as exc:
        assert exc.position is not None and 0 <= exc.position <= len(mutated)
    except c.IllegalMoveError as exc:
        assert not re.search(r"from -?\d+ to -?\d+|source=|target=", str(exc))
    else:
        assert move in moves
        assert all(ch.isascii() for ch in mutated)


@given(st.text(ALPHABET, min_size=1, max_size=20), st.integers(1000, 200_000))
def test_error_messages_stay_short_for_long_input(piece: str, size: int) -> None:
    """Whatever the input's length, an error message quotes a bounded excerpt of it."""
    text = (piece * (size // len(piece) + 1))[:size]
    parsers = (
        c.parse_card,
        c.parse_position,
        parse_record,
        c.from_json,
        c.Ruleset.from_string,
        lambda t: c.parse_move(states()[0], t),
    )
    for parse in parsers:
        try:
            parse(text)
        except c.CrapetteError as exc:
            assert len(str(exc)) < 1000


# The validations of values built in Python (moves, positions, records, rulesets,
# matches), fuzzed.

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-20, 120),
    st.integers(),
    st.floats(),
    st.text(max_size=4),
    st.sampled_from(list(c.Action)),
    st.tuples(st.integers(-2, 105)),
    st.lists(st.integers(0, 103), max_size=3).map(tuple),
    st.sampled_from([10**5000, "x" * 5000, float("nan"), float("inf")]),
)


def _lookalikes(value: object) -> st.SearchStrategy[object]:
    """Values that compare equal to ``value`` or look like it: a float, a bool, a str."""
    options: list[object] = [str(value), None]
    if isinstance(value, int):
        options += [float(value), value + 0.5]
        if value in (0, 1):
            options.append(bool(value))
    if isinstance(value, c.Action):
        options += [value.value, value.name]
    return st.sampled_from(options)


@given(st.sampled_from(ALL_MOVES), st.integers(0, 3), st.data())
def test_move_fields_are_checked(real: c.Move, field: int, data: st.DataObject) -> None:
    """A ``Move`` with one field of a real move replaced by a lookalike or by anything is one
    of the fixed table or an ``InvalidMoveError`` (``Move(Action.PLAY, 1.0, 2)`` used to
    equal a real move)."""
    fields: list[object] = [real.action, real.source, real.target, real.count]
    fields[field] = data.draw(st.one_of(_lookalikes(fields[field]), junk))
    try:
        move = c.Move(*fields)  # type: ignore[arg-type]
    except c.InvalidMoveError:
        return
    assert ALL_MOVES[move.index] == move and str(move) == str(ALL_MOVES[move.index])
    assert {type(move.source), type(move.target), type(move.count)} == {int}
    assert c.format_move(move) == str(move)


# Every public field of the keyword constructor but ``houses_key`` (derived); ``seen_log``
# and ``seen_size`` are internal.
STATE_FIELDS = tuple(
    name
    for name in inspect.signature(c.GameState).parameters
    if name not in ("houses_key", "seen_log", "seen_size")
)


def test_the_fuzzed_fields_are_the_constructors() -> None:
    """Both builds show the constructor's own parameters (the pure build's ``__new__``
    takes ``*args``): without them the test below would fuzz nothing."""
    assert set(STATE_FIELDS) == {
        *["rules", "to_act", "foundations", "houses", "reserves", "reserve_up", "hands", "wastes"],
        *["turned", "stop", "emptied", "passes", "moves_made", "seen"],
        *["fault", "window", "false_calls"],
    }


@given(st.integers(0, 4), st.sampled_from(STATE_FIELDS), junk)
def test_validate_position_checks_every_field(which: int, field: str, value: object) -> None:
    """Whatever a field holds, ``position_problems`` of the fields answers a list (never
    raises) and the state is refused where it is built (``replace``) with
    ``InvalidPositionError`` exactly when the list is not empty (or ``TypeError`` for a
    field of the wrong type); a state built can be used, written and read back."""
    state = states()[which]
    fields = {name: getattr(state, name) for name in STATE_FIELDS}
    fields[field] = value
    problems = position_problems(fields)
    try:
        changed = state.replace(**{field: value})
    except TypeError:
        return  # the keyword constructor's own type check
    except c.InvalidPositionError as error:
        assert problems and str(error) == "impossible position: " + "; ".join(problems)
        with pytest.raises(c.InvalidPositionError):
            c.validate_position(fields)
        return
    assert problems == [] == changed.problems()
    c.validate_position(changed)
    c.legal_moves(changed)
    assert c.parse_position(c.format_position(changed)) == changed
    assert c.from_json(c.to_json(changed)) == changed


header_names = st.one_of(
    st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,5}", fullmatch=True),
    st.text(st.sampled_from(list("AaZz09_ -[")), max_size=6),
)
header_values = st.one_of(
    st.text(ALPHABET, max_size=8),
    st.sampled_from(["a\nb", "x\r", "] [", '"', "\\", "{x}", "12."]),
    st.integers(),
    st.none(),
)
move_texts = st.one_of(st.sampled_from([str(m) for m in ALL_MOVES[::7]]), notation_text)


@given(st.dictionaries(header_names, header_values, max_size=3), st.lists(move_texts, max_size=4))
@example({"Event": "a\nb"}, [])
@example({"Event": "] [", "Note": '"\\'}, ["{x}", "12.", "draw"])
def test_game_records_built_directly_round_trip(
    headers: dict[str, object], moves: list[str]
) -> None:
    """A ``GameRecord`` is refused with a library error or written and read back equal."""
    try:
        record = GameRecord(headers, moves)  # type: ignore[arg-type]
    except c.NotationError:
        return
    assert parse_record(format_record(record)) == record
    assert hash(record) == hash(parse_record(str(record)))


@given(st.sampled_from(sorted(c.OPTIONS)), junk)
def test_ruleset_options_take_exactly_their_documented_values(name: str, value: object) -> None:
    """Every option value is refused with ``InvalidRulesError`` or gives a ruleset whose
    string and JSON can be written and read back."""
    try:
        rules = c.Ruleset().replace(**{name: value})
    except c.InvalidRulesError as exc:
        assert len(str(exc)) < 400
        return
    assert c.Ruleset.from_string(str(rules)) == rules
    assert c.from_json(c.to_json(rules)) == rules


@given(json_values, st.sampled_from(["rules", "seed", "results", "starter", "state", "extra"]))
def test_match_documents_with_any_field_value(value: object, key: str) -> None:
    doc = json.loads(c.to_json(sample_match()))
    doc["match"][key] = value
    try:
        match = c.from_json(json.dumps(doc))
    except c.NotationError:
        return
    assert isinstance(match, c.Match)
    assert c.from_json(c.to_json(match)) == match
