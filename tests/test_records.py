"""Game records: building, text round trips, replays of random games, loud failures, and the
``crapette replay`` and ``crapette show`` commands."""

from __future__ import annotations

from pathlib import Path

import pytest

import crapette as c
from crapette.cli import main
from crapette.deal import Rng
from crapette.records import GameRecord, format_record, format_result, parse_record
from crapette.text import board
from test_errors import MESSAGE_LIMIT

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
    states = [state for state, _ in back.replay()]
    assert [move for _, move in back.replay()] == [None, *moves]
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
        texts.append(c.format_move(move))
        state = c.apply(state, move)
    record = GameRecord.from_moves(middle, texts, {"Date": "2024.01.02"})
    assert record.headers["Position"] == c.format_position(middle)
    assert record.moves == tuple(texts)
    assert parse_record(format_record(record)).final_state() == state
    assert record.headers["Result"] == "*"


def test_record_headers_escaped() -> None:
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
        list(broken.replay())
    with pytest.raises(c.NotationError, match=r"move 5 \('Q-F'\) is not a move"):
        GameRecord(record.headers, (*record.moves[:4], "Q-F"))
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


def test_cli_show(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = c.new_game(c.Ruleset.preset("serbian"), seed=12)
    line = c.format_position(state)
    assert main(["show", line]) == 0
    out = capsys.readouterr().out
    assert out == str(state) + "\n"  # the one board renderer
    assert "player 0" in out and "H8 " in out and "to act" in out and "♠" in out
    # split into words, the position must follow "--" (its fields may start with "-")
    assert main(["show", "--public", "1", "--moves", "--", *line.split(" ")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(board(state, hidden=True, bottom=1)) and "Legal moves" in out
    assert "face down (top last)" not in out
    assert main(["show", "--deal-seed", "12", "--rules", "serbian", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert out == board(state, ascii=True) + "\n" and "♠" not in out
    assert main(["show", c.to_json(state)]) == 0
    assert capsys.readouterr().out == str(state) + "\n"
    assert main(["show", "not a position"]) == 1
    assert "crapette show:" in capsys.readouterr().err


def test_cli_show_reads_files_and_says_when_one_is_missing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = c.new_game(c.Ruleset.preset("g4a"), seed=5)
    for name, text in (
        ("pos.txt", c.format_position(state) + "\n"),
        ("pos.json", c.to_json(state)),
    ):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert main(["show", str(path)]) == 0
        assert capsys.readouterr().out == str(state) + "\n"
    assert main(["show", str(tmp_path / "missing.txt")]) == 1
    err = capsys.readouterr().err
    assert "No such file" in err and "missing.txt" in err
    assert main(["show", str(tmp_path)]) == 1
    assert "Is a directory" in capsys.readouterr().err


def test_seed_means_the_same_deals_on_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    """``--seed S`` names a series of deals, deal K shuffled from
    ``deal_seed(S, K - 1)``: the deals of ``play --seed S``'s match and ``simulate --seed S``
    (each played twice); ``--deal-seed N`` is the deal of ``new_game(seed=N)``."""
    from crapette.cli.game import TerminalGame
    from crapette.match import deal_seed

    for k in (1, 2):
        assert main(["show", "--seed", "42", "--deal", str(k)]) == 0
        expected = c.new_game(seed=deal_seed(42, k - 1))
        assert capsys.readouterr().out == str(expected) + "\n"
    game = TerminalGame(c.Ruleset(), seed=42, human=0)
    assert game.state == c.new_game(seed=deal_seed(42, 0))
    assert c.new_match(seed=42).state == game.state
    from crapette.simulation import simulate

    run = simulate("classic(move_cap=30)", "greedy,greedy", games=4, seed=42)
    assert [r.seed for r in run.records] == [deal_seed(42, k // 2) for k in range(4)]
    assert main(["show", "--deal-seed", "42"]) == 0
    assert capsys.readouterr().out == str(c.new_game(seed=42)) + "\n"
    assert main(["show", "--seed", "1", "--deal-seed", "2"]) == 1
    assert "not both" in capsys.readouterr().err


def test_show_piped_into_head_prints_no_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """``crapette show --seed 3 | head -1``: the reader has gone when the
    board is written; the command stops quietly (status 1, nothing on stderr)."""
    import io
    import os
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader went away
    stdout = open(write_end, "w", encoding="utf-8")  # noqa: SIM115
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    try:
        assert main(["show", "--seed", "3", "--moves"]) == 1
    finally:
        stdout.close()
    assert stderr.getvalue() == ""


def test_docs_record_example_replays() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "notation.md").read_text(encoding="utf-8")
    block = doc.split("## Game records", 1)[1].split("```", 2)[1]
    record = parse_record(block)
    assert record.headers["Seed"] == "42"
    assert len(list(record.replay())) == len(record.moves) + 1 == 15


LAYOUT = """\
[Rules "classic"]
[Seed "42"]
[Player0 "greedy"]
[Player1 "greedy"]
[Result "*"]
[Behaviour "2"]
[Event "layout"]

1. H7-F R-H8 R-H7 R-H6 R-H2 H1-H3 R-H1 draw discard
2. H3-OW draw T-F draw discard
3. draw discard
4. H3-OW R-H3 draw discard
5. H4-OW R-H4 R-F R-F H8-F H8-F R-H8 R-F H8-F R-OR R-F R-H8 H3-H8 draw T-F draw
   T-H6 draw T-F draw T-H3 draw discard
6. draw discard
7. draw T-H2 draw T-OW H3-OW draw T-H3 draw T-H7 draw T-F draw discard
8. H2-OW draw
"""


def test_record_text_layout_to_the_character() -> None:
    """The whole text of a record, to the character: the standard headers in their order,
    then the others; a blank line; one numbered line per run of moves by one player, wrapped
    before column 80 with the continuation indented under the first move."""
    from crapette.bots import GreedyBot, play_deal

    start = c.new_game(seed=42)
    moves: list[c.Move] = []
    play_deal(
        start, (GreedyBot(1), GreedyBot(2)), on_move=lambda b, m, a: moves.append(m), max_moves=60
    )
    headers = {"Event": "layout", "Seed": "42", "Player1": "greedy", "Player0": "greedy"}
    record = GameRecord.from_moves(start, moves, headers)
    assert str(record) == format_record(record) == LAYOUT
    assert max(len(line) for line in LAYOUT.splitlines()) < 80
    assert parse_record(LAYOUT) == record
    assert GameRecord.from_dict(record.to_dict()) == record
    assert GameRecord.from_json(record.to_json()) == record


def test_record_headers_are_immutable_and_move_texts_checked() -> None:
    """A record's headers cannot be changed (nor by changing the dict it was built from),
    and its move texts are checked when it is built."""
    record = GameRecord({"Seed": "1"}, ("draw",))
    with pytest.raises(TypeError):
        record.headers["Seed"] = "2"  # type: ignore[index]
    assert hash(record) == hash(GameRecord({"Seed": "1"}, ("draw",)))
    assert record.headers == {"Seed": "1"}
    given = {"Seed": "1"}
    copied = GameRecord(given, ("draw",))
    given["Seed"] = "2"  # the caller's dict is copied: the record does not change
    assert copied == record and hash(copied) == hash(record) and str(copied) == str(record)
    for bad in ("{x}", "12.", "[Seed", "R-Q"):
        with pytest.raises(c.NotationError, match="is not a move"):
            GameRecord({"Seed": "1"}, ("draw", bad))
    with pytest.raises(c.NotationError, match="is not a move"):
        GameRecord.from_dict({"headers": {"Seed": "1"}, "moves": ["12."]})


# --------------------------------------------------------------------------------------
# Errors point into the whole record; input read with a size cap


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


def test_record_moves_are_separated_by_ascii_white_space_only() -> None:
    with pytest.raises(c.NotationError) as info:
        parse_record('[Seed "1"]\n\n1. draw\u00a0discard\n')
    assert info.value.position == 19


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
