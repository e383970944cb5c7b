"""Puzzles: positions where one line of the turn is clearly best
([`find_puzzles`][crapette.analysis.find_puzzles]), a shipped set
([`load_puzzles`][crapette.analysis.load_puzzles]) and the engine's check of an answer
([`check_answer`][crapette.analysis.check_answer])."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any, Final, Literal

import attrs

from crapette import apply_unchecked
from crapette._quote import show
from crapette.analysis._analyse import Limit, analyse_scores
from crapette.bots.planner import _boundary, _layout, _wins
from crapette.bots.value import LineScore
from crapette.errors import CrapetteError, IllegalMoveError, InvalidArgumentError, NotationError
from crapette.moves import FOUNDATION, OPP_RESERVE, OPP_WASTE, RESERVE, Action, Move
from crapette.notation import format_position, format_public_position, parse_move, parse_position
from crapette.outcome import is_over
from crapette.records import GameRecord
from crapette.state import GameState
from crapette.views import observe

__all__ = [
    "MARGIN",
    "PUZZLE_FILE",
    "PUZZLE_LIMIT",
    "THEMES",
    "Puzzle",
    "Theme",
    "Verdict",
    "check_answer",
    "find_puzzles",
    "load_puzzles",
    "puzzle_at",
    "whole_line",
    "write_puzzles",
]

PUZZLE_FILE: Final = "puzzles.json"
"""The shipped puzzle set, a data file of ``crapette.analysis``."""

PUZZLE_VERSION: Final = 1
"""The version of a puzzle file's layout."""

MARGIN: Final = 0.10
"""How much better the solution must be than every line that starts with another move: its
win probability at least this much above the best of them, by more than three standard
errors of the difference (paired on the same samples when both lines reached the
analysis's second stage)."""

PUZZLE_LIMIT: Final = Limit(rollouts=4096)
"""The analysis limit of the puzzle search and of the answer check."""

Theme = Literal["win", "reserve", "stop", "buried", "loading", "best"]
"""What a puzzle is about (see [`THEMES`][crapette.analysis.THEMES])."""

THEMES: Final[dict[str, str]] = {
    "win": "win the deal this turn",
    "reserve": "empty the reserve",
    "stop": "spot the Stop!",
    "buried": "free a buried card",
    "loading": "loading chain",
    "best": "find the best line",
}
"""The themes, by the first that fits the solution: it wins the deal; it empties the
player's reserve; it calls Stop! on the opponent's violation; it moves house cards to
uncover a card that then plays from the house (to a foundation, onto the opponent or for
the reserve top); it loads the opponent at least twice; otherwise simply the best line."""


@attrs.frozen(slots=True)
class Puzzle:
    """A position where one line is clearly best.

    Attributes:
        id: a short name (``"s12-m48"``: where it was found).
        rules: the ruleset's canonical string.
        position: the whole position in position notation (hidden cards included: the
            solver is shown ``observe(state, player)`` only, and the check uses nothing
            else).
        player: the solver (the player to act).
        solution: the best line, in move notation.
        theme: what it is about ([`THEMES`][crapette.analysis.THEMES]).
        win: the solution's win probability.
        margin: how far above the next best line it is (in win probability).
        alternatives: the next best lines with their win probabilities (at most 3).
    """

    id: str
    rules: str
    position: str
    player: int
    solution: tuple[str, ...]
    theme: Theme
    win: float
    margin: float
    alternatives: tuple[tuple[tuple[str, ...], float], ...] = ()

    def state(self) -> GameState:
        """The position as a state.

        Raises:
            NotationError: a malformed position.
        """
        return parse_position(self.position)

    def public_position(self) -> str:
        """The position as the solver sees it (hidden cards written ``??``)."""
        return format_public_position(self.state(), self.player)

    @property
    def title(self) -> str:
        """The theme in words."""
        return THEMES[self.theme]

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as plain JSON-ready values."""
        return {
            "id": self.id,
            "rules": self.rules,
            "position": self.position,
            "public": self.public_position(),
            "player": self.player,
            "solution": list(self.solution),
            "theme": self.theme,
            "title": self.title,
            "win": round(self.win, 4),
            "margin": round(self.margin, 4),
            "alternatives": [
                {"line": list(line), "win": round(win, 4)} for line, win in self.alternatives
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Puzzle:
        """A puzzle from [`to_dict`][crapette.analysis.Puzzle.to_dict]'s form.

        Raises:
            NotationError: a missing or malformed field.
        """
        try:
            theme = data["theme"]
            if theme not in THEMES:
                raise ValueError(f"unknown theme {theme!r}")
            puzzle = cls(
                id=str(data["id"]),
                rules=str(data["rules"]),
                position=str(data["position"]),
                player=int(data["player"]),
                solution=tuple(str(m) for m in data["solution"]),
                theme=theme,
                win=float(data["win"]),
                margin=float(data["margin"]),
                alternatives=tuple(
                    (tuple(str(m) for m in alt["line"]), float(alt["win"]))
                    for alt in data.get("alternatives", ())
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise NotationError(f"malformed puzzle: {exc}") from None
        return puzzle


def _theme(state: GameState, line: Sequence[Move]) -> Theme:
    """The first theme that fits the solution (see [`THEMES`][crapette.analysis.THEMES])."""
    first = line[0]
    if first.action is Action.CALL_STOP:
        return "stop"
    if _wins(state, tuple(line)):
        return "win"
    p = state.to_act
    after = state
    loads = 0
    buried = False
    uncovered: set[int] = set()
    for move in line:
        if move.action is Action.PLAY:
            source, target = move.source, move.target
            if source < 8 and target < 8 and len(after.houses[source]) > move.count:
                uncovered.add(source)
            elif (source in uncovered and target in (FOUNDATION, OPP_RESERVE, OPP_WASTE)) or (
                source == RESERVE and target in uncovered
            ):
                buried = True
            if target in (OPP_RESERVE, OPP_WASTE):
                loads += 1
        after = apply_unchecked(after, move)
    if state.reserves[p] and not after.reserves[p]:
        return "reserve"
    if buried:
        return "buried"
    if loads >= 2:
        return "loading"
    return "best"


def puzzle_at(
    state: GameState,
    *,
    limit: Limit = PUZZLE_LIMIT,
    margin: float = MARGIN,
    seed: int = 0,
    name: str = "",
) -> Puzzle | None:
    """The puzzle of ``state`` for its player to act, or ``None`` when no line is clearly
    best (by ``margin``: see [`MARGIN`][crapette.analysis.MARGIN]). Only positions with at
    least two lines to compare qualify.

    Raises:
        InvalidArgumentError: ``margin`` is not a number from 0 to 1.
    """
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin <= 1:
        raise InvalidArgumentError(f"margin must be a number from 0 to 1, not {show(margin)}")
    p = state.to_act
    view = observe(state, p)
    if len(view.legal_moves()) < 2:
        return None
    _, scores, _ = analyse_scores(view, limit, seed=seed)
    ranked = sorted(
        (s for s in scores if s.n or s.exact is not None),
        key=lambda s: (s.alive or s.exact is not None, s.key()),
        reverse=True,
    )
    if len(ranked) < 2:
        return None
    best, second = ranked[0], ranked[1]
    if best.line[0] == second.line[0] and _same_after(state, best.line, second.line):
        return None
    others = [s for s in ranked[1:] if s.line[0] != best.line[0]]
    if not others:
        return None
    runner = others[0]  # the best finalist of another move, else the best line dropped
    if runner.alive or runner.exact is not None:
        drop, se = best.difference(runner)  # on the same samples
    else:  # scored on other samples: the unpaired difference
        drop = best.mean_win - runner.mean_win
        se = math.hypot(_finite(best.win_se), _finite(runner.win_se))
    if not math.isfinite(drop) or drop < margin:
        return None
    if math.isfinite(se) and drop <= 3 * se:
        return None
    alternatives = tuple((tuple(str(m) for m in s.line), round(s.mean_win, 4)) for s in others[:3])
    return Puzzle(
        id=name or f"m{state.moves_made}",
        rules=state.rules.to_string(),
        position=format_position(state),
        player=p,
        solution=tuple(str(m) for m in best.line),
        theme=_theme(state, best.line),
        win=round(best.mean_win, 4),
        margin=round(drop, 4),
        alternatives=alternatives,
    )


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


def _same_after(state: GameState, a: Sequence[Move], b: Sequence[Move]) -> bool:
    """Whether two lines reach the same layout (one is a reordering of the other)."""
    return _layout(_play(state, a)) == _layout(_play(state, b))


def whole_line(state: GameState, line: Sequence[Move]) -> bool:
    """Whether ``line`` (legal moves from ``state``, at least one) ends where a line of the
    turn ends (see
    [`expert_lines`][crapette.bots.expert.expert_lines]): with a move that shows a new card
    or ends the turn, a won deal, or a Stop! decision."""
    p = state.to_act
    before = _play(state, line[:-1])
    if _boundary(before, line[-1]):
        return True
    after = apply_unchecked(before, line[-1])
    return is_over(after) or after.turn_player != p or after.stop is not None


def _play(state: GameState, line: Sequence[Move]) -> GameState:
    for move in line:
        state = apply_unchecked(state, move)
    return state


def find_puzzles(
    records: Iterable[GameRecord],
    *,
    limit: Limit = PUZZLE_LIMIT,
    margin: float = MARGIN,
    seed: int = 0,
    every: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Puzzle]:
    """The puzzles of some records: every ``every``-th position with a choice of each
    record where a line of the player to act is clearly best (see
    [`puzzle_at`][crapette.analysis.puzzle_at]), at most one per turn (the first found).

    Args:
        records: the deals to search.
        limit: the analysis limit per position.
        margin: how much better the solution must be.
        seed: the analysis seed.
        every: look at one position with a choice in ``every``.
        progress: called as ``progress(record number, positions looked at)``.

    Raises:
        NotationError: a record cannot be replayed.
    """
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise InvalidArgumentError(f"every must be a positive integer, not {show(every)}")
    for number, record in enumerate(records):
        label = record.headers.get("Seed", str(number))
        looked = 0
        choice = 0
        turn_done = -1
        turn = 0
        previous: GameState | None = None
        for state, _ in record.replay():
            if previous is not None and state.turn_player != previous.turn_player:
                turn += 1
            previous = state
            if turn == turn_done:
                continue
            view_moves = _choices(state)
            if view_moves < 2:
                continue
            choice += 1
            if (choice - 1) % every:
                continue
            looked += 1
            found = puzzle_at(
                state,
                limit=limit,
                margin=margin,
                seed=seed + state.moves_made,
                name=f"s{label}-m{state.moves_made}",
            )
            if progress is not None:
                progress(number, looked)
            if found is not None:
                turn_done = turn
                yield found


def _choices(state: GameState) -> int:
    from crapette import legal_moves

    return len(legal_moves(state))


@attrs.frozen(slots=True)
class Verdict:
    """The engine's judgment of an answer to a puzzle.

    Attributes:
        correct: whether the answer is as good as the solution (the same line, another
            order of the same moves, or a line the engine values within the tolerance).
        win: the answer's win probability (``nan`` for an illegal answer).
        best: the solution's win probability, scored on the same samples.
        message: what to tell the solver.
    """

    correct: bool
    win: float
    best: float
    message: str


def _parse_line(state: GameState, answer: Sequence[str | Move]) -> tuple[Move, ...]:
    """The answer's moves, checked to be legal one after another within the turn, up to
    the first new card at most."""
    if isinstance(answer, str):
        answer = answer.split()
    moves: list[Move] = []
    position = state
    p = state.to_act
    for k, item in enumerate(answer, 1):
        if position.to_act != p or (moves and _boundary(state, moves[-1])):
            raise IllegalMoveError(
                f"move {k} ({item}): the answer goes past the end of the line (a new card is"
                " seen or the turn ends after the move before)"
            )
        try:
            move = item if isinstance(item, Move) else parse_move(position, item)
        except CrapetteError as exc:
            raise IllegalMoveError(f"move {k} ({item}): {exc}") from None
        from crapette import legal_moves

        if move not in legal_moves(position):
            raise IllegalMoveError(f"move {k} ({move}) is not legal there")
        if _boundary(position, move):
            moves.append(move)
            break
        moves.append(move)
        position = apply_unchecked(position, move)
    if not moves:
        raise IllegalMoveError("the answer has no move")
    return tuple(moves)


TOLERANCE: Final = 0.02
"""An answer whose win probability is within this of the solution's counts as correct."""


def check_answer(
    puzzle: Puzzle,
    answer: Sequence[str | Move] | str,
    *,
    limit: Limit = PUZZLE_LIMIT,
    seed: int = 0,
) -> Verdict:
    """Check an answer with the engine: the answer's line (moves in move notation, or
    ``Move`` values, from the puzzle's position) is correct if it is the solution, reaches
    the same layout in another order, or is worth as much (its win probability, scored on
    the same samples as the solution's from the solver's view, within
    [`TOLERANCE`][crapette.analysis.TOLERANCE]). A partial line (the first moves of the
    solution) is not enough: the answer must go as far as the solution.

    Raises:
        NotationError: the puzzle's position is malformed.
    """
    state = puzzle.state()
    try:
        line = _parse_line(state, answer)
    except IllegalMoveError as exc:
        return Verdict(False, math.nan, puzzle.win, f"not a line here: {exc}")
    solution = tuple(parse_move_seq(state, puzzle.solution))
    if line == solution or (_same_after(state, line, solution) and len(line) >= len(solution)):
        return Verdict(True, puzzle.win, puzzle.win, "correct: " + " ".join(puzzle.solution))
    if not whole_line(state, line):
        return Verdict(
            False,
            math.nan,
            puzzle.win,
            "not a whole line: go on to the next new card (turn a card, end the turn) or to"
            " the end of the deal",
        )
    view = observe(state, puzzle.player)
    _, scores, _ = analyse_scores(view, limit, seed=seed, include=(line[0], solution[0]))
    mine = _score_of(scores, line) or _extra(view, line, solution, limit, seed)
    best = _score_of(scores, solution)
    if mine is None or best is None:  # pragma: no cover - include keeps both first moves
        return Verdict(False, math.nan, puzzle.win, "the engine could not value the answer")
    drop, _ = best.difference(mine)
    if drop <= TOLERANCE:
        return Verdict(
            True,
            mine.mean_win,
            best.mean_win,
            f"correct: the engine values your line as the solution ({_pct(mine.mean_win)})",
        )
    return Verdict(
        False,
        mine.mean_win,
        best.mean_win,
        f"not the best: your line wins {_pct(mine.mean_win)}, the solution"
        f" {' '.join(puzzle.solution)} wins {_pct(best.mean_win)}",
    )


def _pct(x: float) -> str:
    return f"{x * 100:.0f}%" if math.isfinite(x) else "-"


def parse_move_seq(state: GameState, texts: Sequence[str]) -> Iterator[Move]:
    """The moves of a line in move notation, played one after another from ``state``."""
    for text in texts:
        move = parse_move(state, text)
        yield move
        state = apply_unchecked(state, move)


def _score_of(scores: Sequence[LineScore], line: tuple[Move, ...]) -> LineScore | None:
    for s in scores:
        if s.line == line:
            return s
    return None


def _extra(
    view: Any, line: tuple[Move, ...], solution: tuple[Move, ...], limit: Limit, seed: int
) -> LineScore | None:
    """Score an answer that is not among the analysis's lines against the solution, on
    the same samples (both kept to the end)."""
    from crapette.analysis._analyse import score_given

    scored = score_given(view, [solution, line], limit, seed=seed)
    return scored[1]


@lru_cache(maxsize=1)
def _shipped() -> tuple[Puzzle, ...]:
    text = resources.files("crapette.analysis").joinpath(PUZZLE_FILE).read_text(encoding="utf-8")
    return read_puzzles(text)


def read_puzzles(text: str) -> tuple[Puzzle, ...]:
    """The puzzles of a puzzle file's text (``{"version": 1, "puzzles": [...]}``).

    Raises:
        NotationError: not a puzzle file of this version.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("version") != PUZZLE_VERSION:
        raise NotationError(f"not a puzzle file of version {PUZZLE_VERSION}")
    items = data.get("puzzles")
    if not isinstance(items, list):
        raise NotationError('a puzzle file needs a "puzzles" list')
    return tuple(Puzzle.from_dict(item) for item in items)


def write_puzzles(puzzles: Iterable[Puzzle], **about: Any) -> str:
    """A puzzle file's text for ``puzzles`` (``about`` adds fields, such as how they were
    found)."""
    return (
        json.dumps(
            {"version": PUZZLE_VERSION, **about, "puzzles": [p.to_dict() for p in puzzles]},
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )


def load_puzzles() -> tuple[Puzzle, ...]:
    """The puzzle set shipped with the package (``crapette/analysis/puzzles.json``)."""
    return _shipped()
