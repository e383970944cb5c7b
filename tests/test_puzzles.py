"""Puzzles: finding them, their themes, checking answers, the shipped set and
``crapette puzzles``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import crapette as c
from crapette.analysis import (
    MARGIN,
    THEMES,
    Limit,
    Puzzle,
    Verdict,
    check_answer,
    find_puzzles,
    load_puzzles,
    puzzle_at,
)
from crapette.analysis._puzzles import _theme, read_puzzles, write_puzzles
from crapette.bots import get_bot, play_deal
from crapette.cli import main
from crapette.errors import InvalidArgumentError, NotationError
from crapette.records import GameRecord
from crapette.views import observe
from positions import mv, position, quiet

SMALL = Limit(rollouts=192)


def _winning_position() -> c.GameState:
    """Player 0's last card is the reserve top, and it fits house 1: one line wins."""
    return position(
        houses=quiet({0: "6S", 1: "9H"}), reserve0="5D", hand0="", waste0="", rest="hand1"
    )


def _found() -> list[Puzzle]:
    """The puzzles of a greedy player against a random one (a fixed deal)."""
    start = c.new_game(seed=14)
    played: list[c.Move] = []
    play_deal(
        start,
        (get_bot("greedy", 1), get_bot("random", 2)),
        on_move=lambda before, move, after: played.append(move),
        max_moves=240,
    )
    record = GameRecord.from_moves(start, played, {"Seed": "14"})
    return list(find_puzzles([record], limit=Limit(rollouts=64), margin=0.05, every=2))


def test_puzzles_are_found_in_a_record() -> None:
    found = _found()
    assert found
    for puzzle in found:
        assert isinstance(puzzle, Puzzle) and puzzle.id.startswith("s14-m")
        assert puzzle.margin >= 0.05 and puzzle.theme in THEMES
        state = puzzle.state()
        assert state.to_act == puzzle.player and len(c.legal_moves(state)) >= 2
        after = state
        for text in puzzle.solution:
            move = c.parse_move(after, text)
            assert move in c.legal_moves(after)
            after = c.apply(after, move)
        assert all(line[0] != puzzle.solution[0] for line, _ in puzzle.alternatives)
        assert all(win <= puzzle.win - 0.05 + 1e-9 for _, win in puzzle.alternatives[:1])
        assert Puzzle.from_dict(json.loads(json.dumps(puzzle.to_dict()))) == puzzle
    assert len({p.id for p in found}) == len(found)
    # at most one per turn
    states = {p.id: p.state() for p in found}
    assert len({(s.turn_player, s.moves_made) for s in states.values()}) == len(found)


def test_no_puzzle_without_a_clear_best_line() -> None:
    state = _winning_position()
    # ending the turn instead of winning costs little here (the opponent cannot win
    # first): not a puzzle at the default margin
    assert puzzle_at(state, limit=SMALL) is None
    assert puzzle_at(c.new_game(seed=1), limit=SMALL, margin=1.0) is None
    with pytest.raises(InvalidArgumentError, match="margin"):
        puzzle_at(state, margin=2)
    with pytest.raises(InvalidArgumentError, match="every"):
        list(find_puzzles([], every=0))


def _legal_line(state: c.GameState, texts: tuple[str, ...]) -> tuple[c.Move, ...]:
    moves = []
    for text in texts:
        move = mv(text)
        assert move in c.legal_moves(state), (text, [str(m) for m in c.legal_moves(state)])
        moves.append(move)
        state = c.apply(state, move)
    return tuple(moves)


def test_themes() -> None:
    plain = position(houses=quiet({0: "6S"}), reserve0="JD 6H", hand0="2C", rest="hand1")
    assert _theme(plain, _legal_line(plain, ("draw",))) == "best"
    emptied = position(houses=quiet({0: "7S"}), reserve0="6H", hand0="2C", rest="hand1")
    assert _theme(emptied, _legal_line(emptied, ("R-H1", "draw"))) == "reserve"
    loads = position(
        houses=quiet({0: "7C", 1: "5C"}), reserve0="QD JD", reserve1="6C", hand0="2C",
        waste1="4C", rest="hand1",
    )  # fmt: skip
    assert _theme(loads, _legal_line(loads, ("H1-OR", "H2-OW", "R-H1"))) == "loading"
    buried = position(
        houses=quiet({0: "8C 7H", 1: "8S"}), reserve0="JD 7D", hand0="2C", rest="hand1"
    )
    assert _theme(buried, _legal_line(buried, ("H1-H2", "R-H1", "draw"))) == "buried"
    won = _winning_position()
    assert _theme(won, _legal_line(won, ("R-H1",))) == "win"


def test_check_answer() -> None:
    puzzle = load_puzzles()[0]
    right = check_answer(puzzle, list(puzzle.solution), limit=SMALL)
    assert isinstance(right, Verdict) and right.correct and right.message.startswith("correct")
    assert check_answer(puzzle, " ".join(puzzle.solution), limit=SMALL).correct
    if puzzle.alternatives:
        worse = list(puzzle.alternatives[0][0])
        wrong = check_answer(puzzle, worse, limit=SMALL)
        assert not wrong.correct and wrong.win < wrong.best
        assert "not the best" in wrong.message
    if len(puzzle.solution) > 1:
        part = check_answer(puzzle, list(puzzle.solution[:-1]), limit=SMALL)
        assert not part.correct and "not a whole line" in part.message
    illegal = check_answer(puzzle, "W-F", limit=SMALL)  # the own waste never plays in classic
    assert not illegal.correct and illegal.message.startswith("not a line")
    assert not check_answer(puzzle, "", limit=SMALL).correct


def test_the_shipped_set() -> None:
    puzzles = load_puzzles()
    assert len(puzzles) >= 10
    assert len({p.id for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        assert puzzle.theme in THEMES and puzzle.margin >= MARGIN
        state = puzzle.state()
        view = observe(state, puzzle.player)
        assert view.to_act == puzzle.player
        # the solution is a legal line from the position
        after = state
        for text in puzzle.solution:
            move = c.parse_move(after, text)
            assert move in c.legal_moves(after)
            after = c.apply(after, move)
    first = puzzles[0]
    assert check_answer(first, list(first.solution), limit=Limit(rollouts=32)).correct


def test_puzzle_files() -> None:
    puzzle = load_puzzles()[0]
    text = write_puzzles([puzzle], found_by="a test")
    assert read_puzzles(text) == (puzzle,)
    assert json.loads(text)["found_by"] == "a test"
    with pytest.raises(NotationError, match="version"):
        read_puzzles('{"version": 7, "puzzles": []}')
    with pytest.raises(NotationError, match="malformed"):
        read_puzzles('{"version": 1, "puzzles": [{"id": "x"}]}')


def test_puzzles_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.json"
    options = ["--games", "1", "--bots", "greedy,random", "--rollouts", "48", "--margin", "0.05"]
    code = main(["puzzles", *options, "--every", "4", "--seed", "3", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0 and "puzzles:" in text.splitlines()[-1]
    puzzles = read_puzzles(out.read_text(encoding="utf-8"))
    assert text.splitlines()[-1].startswith(f"{len(puzzles)} puzzles")
    code = main(["puzzles", "--check", "1"])
    assert code == 0 and "to play" in capsys.readouterr().out
    first = load_puzzles()[0]
    code = main(["puzzles", "--check", "1", "--answer", " ".join(first.solution)])
    assert code == 0 and capsys.readouterr().out.startswith("correct")
    assert main(["puzzles", "--check", "999"]) == 1
