"""Game records: building, text round trips, replays of random games, loud failures, and the
``crapette replay`` and ``crapette show`` commands."""

from __future__ import annotations

from pathlib import Path

import pytest

import crapette as c
from crapette.cli import main
from crapette.deal import Rng
from crapette.records import GameRecord, format_record, format_result, parse_record

PRESETS = list(c.PRESETS)


def random_game(rules: c.Ruleset, seed: int, limit: int = 2000) -> tuple[c.GameState, list]:  # type: ignore[type-arg]
    """A seeded random game: the start state and the moves (at most ``limit``)."""
    rng = Rng(seed * 31 + 7)
    start = state = c.new_game(rules, seed=seed)
    moves = []
    while not c.is_over(state) and len(moves) < limit:
        legal = c.legal_moves(state)
        move = legal[rng.below(len(legal))]
        moves.append(move)
        state = c.apply_unchecked(state, move)
    return start, moves


@pytest.mark.parametrize("name", PRESETS)
def test_random_games_record_and_replay(name: str) -> None:
    rules = c.Ruleset.preset(name)
    start, moves = random_game(rules, seed=3)
    record = GameRecord.from_moves(start, moves, {"Seed": "3", "Player0": "a", "Player1": "b"})
    assert "Position" not in record.headers
    assert record.headers["Rules"] == str(rules)
    assert record.headers["Behaviour"] == str(c.BEHAVIOUR_VERSION)
    text = format_record(record)
    back = parse_record(text)
    assert back == record
    assert hash(back) == hash(record)
    assert format_record(back) == text
    states = back.replay()
    assert len(states) == len(moves) + 1
    expected = start
    assert states[0] == expected
    for move, state in zip(moves, states[1:], strict=True):
        expected = c.apply_unchecked(expected, move)
        assert state == expected
    assert back.final_state() == expected
    assert back.headers["Result"] == format_result(c.outcome(expected))


def test_record_from_a_position() -> None:
    rules = c.Ruleset.preset("serbian")
    start, moves = random_game(rules, seed=9, limit=120)
    middle = start
    for move in moves[:60]:
        middle = c.apply(middle, move)
    texts = []
    state = middle
    for move in moves[60:]:
        texts.append(c.format_move(state, move))
        state = c.apply(state, move)
    record = GameRecord.from_moves(middle, texts, {"Date": "2024.01.02"})
    assert record.headers["Position"] == c.format_position(middle)
    assert record.moves == tuple(texts)
    assert parse_record(format_record(record)).final_state() == state
    assert record.headers["Result"] == "*"


def test_record_text_layout() -> None:
    start, moves = random_game(c.Ruleset(), seed=4, limit=60)
    record = GameRecord.from_moves(start, moves, {"Seed": "4", "Event": 'a "b" \\ c'})
    text = format_record(record)
    lines = text.splitlines()
    assert lines[0] == '[Rules "classic"]'
    assert lines[1] == '[Seed "4"]'
    assert '[Event "a \\"b\\" \\\\ c"]' in lines
    body = lines[lines.index("") + 1 :]
    assert body[0].startswith("1. ")
    assert all(len(line) <= 79 for line in body)
    assert parse_record(text).headers["Event"] == 'a "b" \\ c'


def test_parse_record_skips_numbers_and_comments() -> None:
    text = '[Rules "classic"]\n[Seed "3"]\n\n1. {first turn} H3-H4 draw\n'
    record = parse_record(text)
    assert record.moves == ("H3-H4", "draw")
    assert record.headers == {"Rules": "classic", "Seed": "3"}


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("[Rules classic]", 7, "quoted value"),
        ('[Rules "classic"', 16, "']'"),
        ('[Rules "classic]', 16, "closing"),
        ('[1x "y"]', 1, "header name"),
        ('[A "\\n"]', 4, "backslash"),
        ('[A "x"]\n[A "y"]', 8, "twice"),
        ('[A "x"]\n1. R-Q', 13, "target"),
        ('[A "x"]\n1. draw {oops', 16, "comment"),
        ('[A "x"]\n1. draw }', 16, "'}'"),
        ('[A "x"]\ndraw [B "y"]', 13, "header"),
    ],
)
def test_parse_record_malformed(text: str, position: int, fragment: str) -> None:
    with pytest.raises(c.NotationError) as info:
        parse_record(text)
    assert info.value.position == position
    assert fragment in str(info.value)


def test_replay_fails_loudly_naming_the_move() -> None:
    start, moves = random_game(c.Ruleset(), seed=2, limit=30)
    record = GameRecord.from_moves(start, moves, {"Seed": "2"})
    broken = GameRecord(record.headers, (*record.moves[:10], "R-R0", *record.moves[11:]))
    with pytest.raises(c.IllegalMoveError, match=r"move 11 \(R-R0\)"):
        broken.replay()
    garbled = GameRecord(record.headers, (*record.moves[:4], "Q-F"))
    with pytest.raises(c.NotationError, match=r"move 5 \(Q-F\)"):
        garbled.replay()
    with pytest.raises(c.IllegalMoveError, match="move 1"):
        GameRecord.from_moves(start, ["discard"])
    with pytest.raises(c.NotationError, match="Seed"):
        GameRecord({"Rules": "classic"}, ()).start_state()
    with pytest.raises(c.NotationError, match="Rules"):
        GameRecord.from_moves(start, [], {"Rules": "pagat"})


def _write(tmp_path: Path, record: GameRecord, name: str = "game.txt") -> Path:
    path = tmp_path / name
    path.write_text(format_record(record), encoding="utf-8")
    return path


def test_cli_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start, moves = random_game(c.Ruleset.preset("pagat"), seed=6)
    record = GameRecord.from_moves(start, moves, {"Seed": "6"})
    assert main(["replay", str(_write(tmp_path, record))]) == 0
    out = capsys.readouterr().out
    assert f"Result: {record.headers['Result']}" in out
    assert f"{len(moves):5}. P" in out
    json_path = tmp_path / "game.json"
    json_path.write_text(c.to_json(record), encoding="utf-8")
    assert main(["replay", "--quiet", "--board", str(json_path)]) == 0
    assert "Result:" in capsys.readouterr().out


def test_cli_replay_illegal_move_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start, moves = random_game(c.Ruleset(), seed=6, limit=20)
    record = GameRecord.from_moves(start, moves, {"Seed": "6"})
    bad = GameRecord(record.headers, (*record.moves[:5], "T-W0"))
    assert main(["replay", str(_write(tmp_path, bad))]) == 1
    err = capsys.readouterr().err
    assert "move 6 (T-W0)" in err
    wrong = GameRecord({**record.headers, "Result": "P1 wins 99-0"}, record.moves)
    assert main(["replay", str(_write(tmp_path, wrong))]) == 1
    assert "Result header" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.txt")]) == 1


def test_cli_show(capsys: pytest.CaptureFixture[str]) -> None:
    state = c.new_game(c.Ruleset.preset("serbian"), seed=12)
    line = c.format_position(state)
    assert main(["show", line]) == 0
    out = capsys.readouterr().out
    assert "Player 0" in out and "H8:" in out and "to act" in out
    # split into words, the position must follow "--" (its fields may start with "-")
    assert main(["show", "--public", "1", "--moves", "--", *line.split(" ")]) == 0
    out = capsys.readouterr().out
    assert "??" in out and "Legal moves" in out
    assert main(["show", "--seed", "12", "--rules", "serbian"]) == 0
    assert "??" not in capsys.readouterr().out
    assert main(["show", c.to_json(state)]) == 0
    assert main(["show", "not a position"]) == 1
    assert "crapette show:" in capsys.readouterr().err


def test_docs_record_example_replays() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "notation.md").read_text(encoding="utf-8")
    block = doc.split("## Game records", 1)[1].split("```", 2)[1]
    record = parse_record(block)
    assert record.headers["Seed"] == "42"
    assert len(record.replay()) == len(record.moves) + 1 == 15
