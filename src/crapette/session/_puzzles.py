"""Puzzle mode: the shipped puzzle set ([`load_puzzles`][crapette.analysis.load_puzzles])
played as a session. The solver plays the turn's moves one by one on a seat's payload
built from the solver's view (a session loaded at the puzzle's position, both seats human);
a whole line is checked by the engine ([`check_answer`][crapette.analysis.check_answer]).
Nothing is kept between calls: a position is the puzzle's number and the moves so far."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, Literal

from crapette.analysis import PUZZLE_LIMIT, Limit, Puzzle, check_answer, load_puzzles, whole_line
from crapette.errors import SessionError
from crapette.moves import Move
from crapette.notation import format_move
from crapette.session._review import line_moves
from crapette.session._session import Seat, Session
from crapette.session.payload import PuzzleInfo, PuzzleList, PuzzlePosition, PuzzleVerdict

__all__ = ["ANSWER_LIMIT", "MAX_LINE", "puzzle_answer", "puzzle_list", "puzzle_position"]

ANSWER_LIMIT: Final = Limit(rollouts=PUZZLE_LIMIT.rollouts, time=2.0)
"""The analysis limit of an answer's check: the puzzle search's, or two seconds."""

MAX_LINE: Final = 64
"""The most moves a line of a puzzle may have (the longest solution of the set has 13)."""


def _puzzle(number: int) -> Puzzle:
    puzzles = load_puzzles()
    if not 1 <= number <= len(puzzles):
        raise SessionError("no_such_puzzle", f"there are puzzles 1 to {len(puzzles)}, not {number}")
    return puzzles[number - 1]


def _info(number: int, puzzle: Puzzle) -> PuzzleInfo:
    return PuzzleInfo(
        number=number,
        id=puzzle.id,
        rules=puzzle.rules,
        theme=puzzle.theme,
        player=puzzle.player,
        length=len(puzzle.solution),
    )


def puzzle_list() -> PuzzleList:
    """The shipped puzzle set, numbered from 1 (their solutions are not listed)."""
    return PuzzleList(puzzles=[_info(n, p) for n, p in enumerate(load_puzzles(), 1)])


def _play(number: int, line: Sequence[str]) -> tuple[Puzzle, Session, list[Move], bool]:
    """The puzzle, a session at its position after the solver's ``line``, the line's moves
    and whether it is whole.

    Raises:
        SessionError: ``no_such_puzzle``; ``bad_move`` or ``illegal_move`` (a move of the
            line); ``line_over`` (a move after the line's end).
    """
    puzzle = _puzzle(number)
    if len(line) > MAX_LINE:
        raise SessionError("bad_move", f"a line has at most {MAX_LINE} moves, not {len(line)}")
    start = puzzle.state()
    seats = [Seat("human", "human"), Seat("human", "human")]
    session = Session.new(start.rules, seed=0, seats=seats, id=f"puzzle-{number}", undo=False)
    session.load(start)
    moves: list[Move] = []
    for k, text in enumerate(line, 1):
        if moves and whole_line(start, moves):
            raise SessionError(
                "line_over",
                f"move {k} ({text}): the line ended with the move before it (it showed a new"
                " card or ended the turn): check it, or take a move back",
            )
        move = session.parse(puzzle.player, text, None)
        session.play(puzzle.player, code=move.index)
        moves.append(move)
    return puzzle, session, moves, bool(moves) and whole_line(start, moves)


def puzzle_position(number: int, line: Sequence[str] = ()) -> PuzzlePosition:
    """Puzzle ``number`` (from 1) after the solver's moves ``line`` (in notation): the
    solver's payload (from the solver's view; no move is legal once the line is whole).

    Raises:
        SessionError: ``no_such_puzzle``, ``bad_move``, ``illegal_move`` or ``line_over``.
    """
    puzzle, session, moves, complete = _play(number, line)
    game = session.payload(puzzle.player)
    if complete:
        game["legal_moves"] = []
        game["your_turn"] = False
    game["can_undo"] = bool(moves)
    texts = [format_move(m) for m in moves]
    return PuzzlePosition(
        puzzle=_info(number, puzzle),
        line=texts,
        moves=line_moves(puzzle.state(), texts),
        complete=complete,
        game=game,
    )


def _finite(x: float) -> float | None:
    return round(x, 4) if math.isfinite(x) else None


def puzzle_answer(number: int, line: Sequence[str], limit: Limit | None = None) -> PuzzleVerdict:
    """Check the solver's ``line`` for puzzle ``number`` with the engine (at ``limit``,
    default [`ANSWER_LIMIT`][crapette.session.ANSWER_LIMIT]): the solution, a line worth as
    much (or the same moves in another order), a worse line, or a line that is not whole
    yet. The verdict shows the solution.

    Raises:
        SessionError: ``no_such_puzzle``, ``bad_move`` (no move, or a malformed one),
            ``illegal_move`` or ``line_over``.
    """
    if not line:
        raise SessionError("bad_move", "the answer has no move")
    puzzle, _, moves, complete = _play(number, line)
    texts = [format_move(m) for m in moves]
    solution = line_moves(puzzle.state(), puzzle.solution)
    if not complete:
        return PuzzleVerdict(
            number=number,
            correct=False,
            verdict="partial",
            win=None,
            best=_finite(puzzle.win),
            solution=solution,
            message="not a whole line: go on to the next new card (turn a card, end the turn)"
            " or to the end of the deal",
        )
    verdict = check_answer(puzzle, texts, limit=limit if limit is not None else ANSWER_LIMIT)
    kind: Literal["solution", "equivalent", "worse"]
    if texts == list(puzzle.solution):
        kind = "solution"
    else:
        kind = "equivalent" if verdict.correct else "worse"
    return PuzzleVerdict(
        number=number,
        correct=verdict.correct,
        verdict=kind,
        win=_finite(verdict.win),
        best=_finite(verdict.best),
        solution=solution,
        message=verdict.message,
    )
