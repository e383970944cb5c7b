"""JSON documents for states, rulesets and records: round trips and refusals."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

import crapette as c
from crapette.deal import Rng
from crapette.records import GameRecord
from crapette.serialize import JSON_VERSION, format_version, state_from_dict, state_to_dict
from positions import walk

PRESETS = list(c.PRESETS)


@functools.cache
def states(name: str) -> tuple[c.GameState, ...]:
    rules = c.Ruleset.preset(name)
    rng = Rng(99)
    state = c.new_game(rules, seed=5)
    out = [state]
    while not c.is_over(state) and state.moves_made < 300:
        moves = c.legal_moves(state)
        state = c.apply_unchecked(state, moves[rng.below(len(moves))])
        out.append(state)
    return tuple(out)


@pytest.mark.parametrize("name", PRESETS)
def test_state_round_trip(name: str) -> None:
    for state in states(name)[::3]:
        text = c.to_json(state)
        assert c.from_json(text) == state
        doc = json.loads(text)
        assert doc["format"] == "crapette"
        assert doc["version"] == format_version(state.rules) <= JSON_VERSION
        assert doc["behaviour"] == c.BEHAVIOUR_VERSION
        assert doc["type"] == "state"
    for state in states(name):
        if state.stop is not None:
            assert c.from_json(c.to_json(state, indent=2)) == state


@pytest.mark.parametrize("name", PRESETS)
def test_rules_round_trip(name: str) -> None:
    rules = c.Ruleset.preset(name).replace(move_cap=500, load_wrap=True)
    text = c.to_json(rules)
    assert c.from_json(text) == rules
    assert json.loads(text)["options"]["move_cap"] == 500


def test_record_round_trip() -> None:
    start = c.new_game(seed=8)
    moves = []
    state = start
    for _ in range(40):
        move = c.legal_moves(state)[-1]
        moves.append(move)
        state = c.apply(state, move)
    record = GameRecord.from_moves(start, moves, {"Seed": "8", "Player0": 'é "q"'})
    back = c.from_json(c.to_json(record))
    assert back == record
    assert isinstance(back, GameRecord)
    assert back.final_state() == state


def test_state_dict_layout() -> None:
    data = state_to_dict(c.new_game(seed=1))
    assert set(data) == {
        "rules",
        "to_act",
        "foundations",
        "houses",
        "reserves",
        "reserve_up",
        "hands",
        "wastes",
        "turned",
        "emptied",
        "passes",
        "moves_made",
        "seen",
        "stop",
    }
    assert data["foundations"] == [[]] * 8
    assert all(len(h) == 1 and isinstance(h[0], str) for h in data["houses"])
    assert state_from_dict(data) == c.new_game(seed=1)


def _doc(state: c.GameState) -> dict[str, object]:
    data: dict[str, object] = json.loads(c.to_json(state))
    return data


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "not valid JSON at 0"),
        ("{", "not valid JSON"),
        ("[1, 2]", "not a crapette JSON document"),
        ('{"format": "chess"}', "not a crapette JSON document"),
        ('{"format": "crapette"}', "unsupported crapette JSON version None"),
        ('{"format": "crapette", "version": 4, "type": "state"}', "unsupported"),
        ('{"format": "crapette", "version": true, "type": "state"}', "unsupported"),
        ('{"format": "crapette", "version": 1, "type": "game"}', "unknown document type"),
        ('{"format": "crapette", "version": 1, "type": "rules", "rules": "nope"}', "preset"),
        ('{"format": "crapette", "version": 1, "type": "record", "headers": 3}', "headers"),
        ('{"format": "crapette", "version": 1, "type": "state", "state": 3}', "state"),
        ("[" * 100000, "JSON"),
    ],
)
def test_refused_documents(text: str, fragment: str) -> None:
    with pytest.raises(c.NotationError) as info:
        c.from_json(text)
    assert fragment in str(info.value)


def test_future_version_is_refused_whole() -> None:
    doc = _doc(c.new_game(seed=2))
    doc["version"] = JSON_VERSION + 1
    with pytest.raises(c.NotationError, match=f"version {JSON_VERSION + 1}"):
        c.from_json(json.dumps(doc))


def test_bad_state_fields_name_the_path() -> None:
    doc = _doc(c.new_game(seed=2))
    state = doc["state"]
    assert isinstance(state, dict)
    state["houses"][3] = ["7X"]
    with pytest.raises(c.NotationError, match=r"state\.houses\[3\]\[0\]"):
        c.from_json(json.dumps(doc))
    state["houses"][3] = [state["houses"][2][0]]
    with pytest.raises(c.NotationError, match="more than once"):
        c.from_json(json.dumps(doc))
    doc = _doc(c.new_game(seed=2))
    del doc["state"]["to_act"]  # type: ignore[attr-defined]
    with pytest.raises(c.NotationError, match="missing 'to_act'"):
        c.from_json(json.dumps(doc))
    doc = _doc(c.new_game(seed=2))
    doc["state"]["passes"] = [3, 0]  # type: ignore[index]
    with pytest.raises(c.NotationError, match=r"state\.passes\[0\]"):
        c.from_json(json.dumps(doc))


def test_pending_stop_must_agree_with_its_prior() -> None:
    state = next(s for s in states("pagat") if s.stop is not None)
    doc = _doc(state)
    doc["state"]["moves_made"] += 1  # type: ignore[index]
    with pytest.raises(c.NotationError, match="not the result"):
        c.from_json(json.dumps(doc))
    doc = _doc(state)
    doc["state"]["stop"]["resume"] = 1 - doc["state"]["stop"]["resume"]  # type: ignore[index]
    with pytest.raises(c.NotationError, match="pending violation"):
        c.from_json(json.dumps(doc))


def test_rules_options_must_agree() -> None:
    doc = json.loads(c.to_json(c.Ruleset()))
    doc["options"]["stop"] = "undo"
    with pytest.raises(c.NotationError, match="different rulesets"):
        c.from_json(json.dumps(doc))
    doc["options"] = {"bogus": 1}
    with pytest.raises(c.NotationError, match="bogus"):
        c.from_json(json.dumps(doc))


def test_to_json_rejects_other_objects() -> None:
    with pytest.raises(TypeError):
        c.to_json(3)  # type: ignore[arg-type]


def test_a_value_new_in_version_3_writes_version_3() -> None:
    """``priority="bobcrapette"`` and ``stop="lose_draw"`` are values of older options that
    version 3 added: a version 2 reader could not read them, so their documents are version
    3; today's rulesets stay version 2 (docs/rules.md, decision 27)."""
    from crapette.serialize import format_version

    assert format_version(c.Ruleset()) == 2
    assert format_version(c.Ruleset.preset("serbian")) == 2
    assert format_version(c.Ruleset().replace(priority="bobcrapette")) == 3
    flip = c.Ruleset().replace(turn_end="flip", own_waste_playable=True, stop="lose_draw")
    assert format_version(flip) == 3
    assert format_version(c.Ruleset.preset("pagat").replace(stop="card")) == 2
    assert '"version": 3' in c.to_json(c.new_game(c.Ruleset().replace(priority="bobcrapette")))


# --------------------------------------------------------------------------------------
# from_json reads exactly the documented grammar


def state_doc(state: c.GameState) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(c.to_json(state))
    return doc


def stop_state() -> c.GameState:
    for seed in range(20):
        for state in walk("pagat", 400, seed):
            if state.stop is not None:
                return state
    raise AssertionError("no pending Stop! in the sample games")


@pytest.mark.parametrize("house", [0, 7])
def test_tall_house_in_json_is_a_notation_error(house: int) -> None:
    doc = state_doc(c.new_game(seed=1))
    doc["state"]["houses"][house] = ["KS"] * 20
    with pytest.raises(c.NotationError, match=rf"state.houses\[{house}\].*at most 13"):
        c.from_json(json.dumps(doc))


def nested_stop_text(depth: int) -> str:
    """A state document whose pending Stop! nests ``depth`` times (written as text: the
    json module itself cannot write so deep a document)."""
    doc = state_doc(stop_state())
    inner = doc["state"]
    stop = inner["stop"]
    template = json.dumps({**inner, "stop": "@@"})
    before, after = template.split('"@@"')
    head = json.dumps({k: v for k, v in doc.items() if k != "state"})[:-1] + ', "state": '
    opening = before + '{"prior": '
    rest = {k: v for k, v in stop.items() if k != "prior"}
    closing = ", " + json.dumps(rest)[1:] + after
    return head + opening * depth + json.dumps(stop["prior"]) + closing * depth + "}"


@pytest.mark.parametrize("depth", [1, 2, 300, 495, 5000])
def test_nested_pending_stop_is_refused(depth: int) -> None:
    text = nested_stop_text(depth)
    if depth == 1:
        assert c.from_json(text) == stop_state()
        return
    # Too deep for the json module itself: still the library's error.
    words = "cannot itself hold a pending Stop!" if depth <= 300 else None
    with pytest.raises(c.NotationError, match=words):
        c.from_json(text)


@pytest.mark.parametrize("key", ["-f", "0x1f", "+1f", "1_f", " 1f", "1f ", "", "1" * 17, "１"])
def test_seen_keys_follow_the_position_grammar(key: str) -> None:
    doc = state_doc(c.new_game(seed=2))
    doc["state"]["seen"] = [key]
    with pytest.raises(c.NotationError, match=r"state.seen\[0\]"):
        c.from_json(json.dumps(doc))


def test_seen_keys_the_writer_uses_are_read() -> None:
    doc = state_doc(c.new_game(seed=2))
    doc["state"]["seen"] = ["00000000000000ff", "1F"]
    state = c.from_json(json.dumps(doc))
    assert isinstance(state, c.GameState) and {0xFF, 0x1F} <= state.seen


@pytest.mark.parametrize("version", [1.0, True, "1", [1], None, 0, JSON_VERSION + 1])
def test_only_the_integer_version_is_read(version: object) -> None:
    doc = state_doc(c.new_game(seed=2))
    doc["version"] = version
    with pytest.raises(c.NotationError, match="unsupported crapette JSON version"):
        c.from_json(json.dumps(doc))


@pytest.mark.parametrize("field", ["to_act", "moves_made"])
def test_integer_fields_refuse_floats(field: str) -> None:
    doc = state_doc(c.new_game(seed=2))
    doc["state"][field] = 0.0
    with pytest.raises(c.NotationError, match=f"state.{field}"):
        c.from_json(json.dumps(doc))
