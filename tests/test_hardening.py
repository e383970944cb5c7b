"""Issue 14: every bad input refused cleanly with the library's own error.

One test (or a few) per item of the issue that this file covers: tall houses (2), a nested
pending Stop! (3), the JSON grammar (7), bounded values, inputs and messages (8), errors that
name piles and point into the right text (9), the exact grammar of rules strings and move
text (10), read-only module constants (11) and matches saved and resumed (17).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest

import crapette as c
from crapette.bots import get_bot
from crapette.bots.search import MAX_BUDGET, SearchBot
from crapette.deal import Rng
from crapette.match import deal_seed
from crapette.notation import move_from_text
from crapette.records import parse_record
from crapette.rules import RANGES
from crapette.serialize import JSON_VERSION

MESSAGE_LIMIT = 500  # no error message quotes more than a bounded excerpt of its input
# (an unknown option's message lists every option name: about 330 characters with the tarot
# packs' and table rules' options)


@functools.cache
def walk(name: str, steps: int, seed: int = 3) -> tuple[c.GameState, ...]:
    rng = Rng(seed)
    state = c.new_game(c.Ruleset.preset(name), seed=seed)
    out = [state]
    for _ in range(steps):
        moves = c.legal_moves(state)
        if not moves:
            break
        state = c.apply_unchecked(state, moves[rng.below(len(moves))])
        out.append(state)
    return tuple(out)


def stop_state() -> c.GameState:
    for seed in range(20):
        for state in walk("pagat", 400, seed):
            if state.stop is not None:
                return state
    raise AssertionError("no pending Stop! in the sample games")


def state_doc(state: c.GameState) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(c.to_json(state))
    return doc


# --------------------------------------------------------------------------------------
# 2. Tall houses


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


@pytest.mark.parametrize("house", [0, 7])
def test_tall_house_in_json_is_a_notation_error(house: int) -> None:
    doc = state_doc(c.new_game(seed=1))
    doc["state"]["houses"][house] = ["KS"] * 20
    with pytest.raises(c.NotationError, match=rf"state.houses\[{house}\].*at most 13"):
        c.from_json(json.dumps(doc))


# --------------------------------------------------------------------------------------
# 3. A nested pending Stop!


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


# --------------------------------------------------------------------------------------
# 7. from_json reads exactly the documented grammar


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


# --------------------------------------------------------------------------------------
# 8. Bounded values, inputs and messages


def test_every_numeric_option_has_a_documented_range() -> None:
    numeric = [name for name, (kind, _) in c.OPTIONS.items() if kind in ("int", "count_or_none")]
    assert sorted(numeric) == sorted(RANGES)
    variants = (Path(__file__).parents[1] / "docs" / "variants.md").read_text("utf-8")
    rows = {line.split("|")[1].strip(): line for line in variants.splitlines() if "|" in line}
    for name, (low, high) in RANGES.items():
        assert f"{low}..{high:,}" in rows[f"`{name}`"], name


@pytest.mark.parametrize("name", sorted(RANGES))
def test_numeric_options_accept_their_range_and_nothing_else(name: str) -> None:
    low, high = RANGES[name]
    # the range of the reserve is the largest pack's (78 cards less 4 houses)
    base = c.Ruleset(pack="tarot78") if name == "reserve_size" else c.Ruleset()
    for value in (low, high):
        rules = base.replace(**{name: value})
        assert c.Ruleset.from_string(str(rules)) == rules
        assert c.from_json(c.to_json(rules)) == rules
        c.format_position(c.new_game(rules, seed=1))
    for value in (low - 1, high + 1, 10**5000, -(10**5000)):
        with pytest.raises(c.InvalidRulesError, match=name) as info:
            base.replace(**{name: value})
        assert len(str(info.value)) < MESSAGE_LIMIT
    for text in (str(low - 1), str(high + 1), "9" * 5000):
        with pytest.raises(c.InvalidRulesError, match=name) as info:
            c.Ruleset.from_string(f"classic({name}={text})")
        assert len(str(info.value)) < MESSAGE_LIMIT


def test_win_bonus_of_five_thousand_digits_is_refused() -> None:
    with pytest.raises(c.InvalidRulesError, match=r"win_bonus.*out of range"):
        c.Ruleset(win_bonus=10**5000)


HUGE = "x" * 10_000_000


@pytest.mark.parametrize(
    "parse",
    [
        c.parse_card,
        c.parse_position,
        parse_record,
        c.from_json,
        c.Ruleset.from_string,
        lambda text: c.parse_move(c.new_game(seed=1), text),
        lambda text: c.parse_position(c.format_position(c.new_game(seed=1)) + " " + text),
        lambda text: parse_record('[Seed "1"]\n\n1. draw ' + text),
        lambda text: parse_record(f'[Seed "{text}"]\n\n1. draw').replay(),
        lambda text: c.from_json(json.dumps({"format": "crapette", "version": text})),
        lambda text: c.from_json(
            c.to_json(c.new_game(seed=1)).replace('"to_act": 0', '"to_act": "' + text + '"')
        ),
        lambda text: c.Ruleset.from_string(f"classic(stop={text})"),
        lambda text: c.from_json(
            c.to_json(c.Ruleset()).replace('"options": {', '"options": {"' + text + '": 1, ')
        ),
        lambda text: get_bot(text),
        lambda text: get_bot("search:" + text),
    ],
)
def test_error_messages_quote_a_bounded_excerpt(parse: Any) -> None:
    with pytest.raises(c.CrapetteError) as info:
        parse(HUGE)
    assert len(str(info.value)) < MESSAGE_LIMIT


def test_position_error_on_a_huge_line_quotes_an_excerpt() -> None:
    line = c.format_position(c.new_game(seed=1)).replace("0 -/", "1 -/", 1)
    fields = line.split(" ")
    fields[12] = ",".join(["00000000000000ff"] * 200_000)
    fields[9] = "1"  # house H1 marked emptied but holds a card: an impossible position
    with pytest.raises(c.NotationError, match="impossible position") as info:
        c.parse_position(" ".join(fields))
    assert len(str(info.value)) < 1000


@pytest.mark.parametrize("option", ["9" * 5000, str(MAX_BUDGET + 1), "0", "٣", "+5", " 5"])
def test_search_budget_is_capped(option: str) -> None:
    with pytest.raises(c.CrapetteError, match="search budget") as info:
        get_bot("search:" + option)
    assert len(str(info.value)) < MESSAGE_LIMIT
    assert get_bot(f"search:{MAX_BUDGET}").budget == MAX_BUDGET  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="budget"):
        SearchBot(budget=MAX_BUDGET + 1)


# --------------------------------------------------------------------------------------
# 9. Errors name piles, and point into the text they carry


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
    ("bad", "found"),
    [("ZZ-Q", "ZZ-Q"), ("R-Fx99", "99"), ("R-Q", "Q"), ("dra\u00a0w", "\u00a0")],
)
def test_record_errors_point_into_the_whole_record(bad: str, found: str) -> None:
    text = f'[Seed "1"]\n[Rules "classic"]\n\n1. R-F draw {{a comment}}\n2. {bad} discard\n'
    with pytest.raises(c.NotationError) as info:
        parse_record(text)
    error = info.value
    assert error.text == text
    assert error.position is not None
    assert text[error.position :].startswith(found)


# --------------------------------------------------------------------------------------
# 10. Exactly the documented grammar


@pytest.mark.parametrize(
    "value", ["1_0", "+1", "\u0663", "\uff11", "1\u00a0", "\u00a010", "0x10", "1e3", "10.0", ""]
)
def test_rules_numbers_are_ascii_decimal(value: str) -> None:
    with pytest.raises(c.InvalidRulesError, match="win_bonus"):
        c.Ruleset.from_string(f"classic(win_bonus={value})")


@pytest.mark.parametrize(
    "text",
    ["\u00a0classic", "classic\u3000", "classic(\u2003stop=undo)", "classic(stop=undo\u00a0)"],
)
def test_rules_strings_allow_only_ascii_blanks(text: str) -> None:
    with pytest.raises(c.InvalidRulesError):
        c.Ruleset.from_string(text)


def test_rules_strings_allow_spaces_and_tabs() -> None:
    rules = c.Ruleset.from_string(" \tclassic ( win_bonus = 010 ,\tstop=undo ) ")
    assert rules == c.Ruleset(win_bonus=10, stop="undo")


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


def test_record_moves_are_separated_by_ascii_white_space_only() -> None:
    with pytest.raises(c.NotationError) as info:
        parse_record('[Seed "1"]\n\n1. draw\u00a0discard\n')
    assert info.value.position == 19


# --------------------------------------------------------------------------------------
# 11. Read-only module constants


def test_presets_and_options_are_read_only() -> None:
    before = str(c.Ruleset(stop="undo"))
    with pytest.raises(TypeError):
        c.PRESETS["classic"] = c.Ruleset(stop="undo")  # type: ignore[index]
    with pytest.raises(TypeError):
        del c.PRESETS["pagat"]  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        c.OPTIONS["stop"] = ("bool", "")  # type: ignore[index]
    with pytest.raises(TypeError):
        RANGES["win_bonus"] = (0, 10**9)  # type: ignore[index]
    assert c.Ruleset.preset("classic") == c.Ruleset()
    assert str(c.Ruleset(stop="undo")) == before == "pagat"


# --------------------------------------------------------------------------------------
# 17. Matches saved and resumed


def _play_match(rules: c.Ruleset, seed: int) -> list[c.Match]:
    """Every match value from the first move to the end, deal after deal."""
    match = c.new_match(rules, seed=seed)
    rng = Rng(seed)
    out = [match]
    while True:
        while c.outcome(match.state) is None:
            moves = c.legal_moves(match.state)
            match = match.play(moves[rng.below(len(moves))])
            out.append(match)
        if match.outcome() is not None:
            return out
        match = match.next_deal()
        out.append(match)


@pytest.mark.parametrize(
    "rules",
    [
        c.Ruleset().replace(move_cap=60, match_target=90),
        c.Ruleset.preset("serbian").replace(move_cap=40, match_deals=3),
        c.Ruleset.preset("pagat").replace(move_cap=50, match_target=60, match_starter="alternate"),
    ],
    ids=["classic", "serbian", "pagat-alternate"],
)
def test_a_match_in_progress_is_saved_and_resumed(rules: c.Ruleset) -> None:
    matches = _play_match(rules, seed=4)
    assert matches[-1].number >= 1  # more than one deal was played
    for match in matches[::7] + matches[-3:]:
        text = c.to_json(match)
        resumed = c.from_json(text)
        assert resumed == match
        assert isinstance(resumed, c.Match)
        assert resumed.results == match.results and resumed.totals == match.totals
        assert resumed.outcome() == match.outcome()
        assert json.loads(text)["type"] == "match"
    # A resumed match goes on exactly like the original.
    middle = len(matches) // 2
    resumed = c.from_json(c.to_json(matches[middle]))
    assert isinstance(resumed, c.Match)
    assert (
        resumed.play(c.legal_moves(resumed.state)[0])
        == matches[middle].play(c.legal_moves(matches[middle].state)[0])
        or c.outcome(resumed.state) is not None
    )


def test_results_include_the_last_deal_once_the_match_is_over() -> None:
    final = _play_match(c.Ruleset().replace(move_cap=60, match_target=90), seed=4)[-1]
    result = final.outcome()
    assert result is not None
    assert len(final.results) == result.deals == final.number + 1
    last = final.results[-1]
    assert last.outcome == c.outcome(final.state)
    assert last.seed == deal_seed(final.seed, final.number)
    assert result.totals == (
        sum(r.outcome.scores[0] for r in final.results),
        sum(r.outcome.scores[1] for r in final.results),
    )


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        (("results", 0, "scores"), [0, 10**6], "over before this deal"),
        (("results", 0, "seed"), 12345, "this deal's seed"),
        (("results", 0, "reason"), "resigned", "reason"),
        (("results", 0, "reason"), "swap", "winner exactly when"),
        (("starter",), "flip", "starter"),
        (("results", 1, "starter"), "flip", r"results\[1\].starter"),
        (("seed",), 1.5, "seed"),
        (("rules",), "serbian", "not the match's rules"),
        (("results",), {}, "results"),
    ],
)
def test_a_tampered_match_is_refused(path: tuple[Any, ...], value: Any, words: str) -> None:
    matches = _play_match(c.Ruleset().replace(move_cap=60, match_target=90), seed=4)
    match = next(m for m in matches if m.number >= 2)
    doc = json.loads(c.to_json(match))
    target = doc["match"]
    for key in path[:-1]:
        target = target[key]
    if value == "flip":
        value = 1 - target[path[-1]]
    if value == "swap":
        value = "stalemate" if target["winner"] is not None else "win"
    target[path[-1]] = value
    with pytest.raises(c.NotationError, match=words):
        c.from_json(json.dumps(doc))


# --------------------------------------------------------------------------------------
# 8 and 9 on the command line: capped input, a refused --delay


@pytest.mark.parametrize("delay", ["nan", "inf", "-inf", "-1", "1e400", "61"])
def test_demo_delay_must_be_a_finite_number_of_seconds(
    delay: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rich")
    from crapette.cli import main

    assert main(["play", "--demo", "--seed", "1", f"--delay={delay}"]) == 1
    err = capsys.readouterr().err
    assert "--delay must be a number of seconds from 0 to 60" in err
    assert "Traceback" not in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize("command", [["replay", "/dev/zero"], ["show", "-"]])
def test_endless_input_is_refused_at_the_size_cap(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    pytest.importorskip("rich")
    from crapette.cli import main

    with open("/dev/zero", "rb") as zero:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(zero))
        assert main(command) == 1
    err = capsys.readouterr().err
    assert "longer than the limit of 16,777,216 bytes" in err
    assert len(err) < MESSAGE_LIMIT


def test_read_input_caps_files_and_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from crapette.cli._input import read_input

    path = tmp_path / "record.txt"
    path.write_text("draw " * 10, encoding="utf-8")
    assert read_input(path, limit=50) == "draw " * 10
    with pytest.raises(c.CrapetteError, match=r"record\.txt.*limit of 49 bytes"):
        read_input(path, limit=49)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x" * 100)))
    with pytest.raises(c.CrapetteError, match=r"standard input.*limit"):
        read_input("-", limit=99)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(c.CrapetteError, match="not UTF-8"):
        read_input(path)
