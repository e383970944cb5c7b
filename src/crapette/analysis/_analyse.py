"""Position analysis: [`analyse`][crapette.analysis.analyse] a player's view under a
[`Limit`][crapette.analysis.Limit], and the [`hint`][crapette.analysis.hint] built on it."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence

import attrs

from crapette import apply_unchecked
from crapette._laws import violation
from crapette._quote import show
from crapette.bots.expert import (
    DEFAULT_NODES,
    DEFAULT_WIDTH,
    expert_lines,
    lines_after,
    score_deep,
)
from crapette.bots.planner import HandMemory, _boundary, _wins
from crapette.bots.value import (
    LineScore,
    Sampler,
    ValueModel,
    Work,
    exact_value,
    load_model,
    score_lines,
    won_value,
)
from crapette.deal import Rng
from crapette.errors import InvalidArgumentError
from crapette.moves import Action, Move
from crapette.outcome import is_over
from crapette.state import GameState
from crapette.text import describe_move
from crapette.views import PlayerView, sketch

__all__ = [
    "DEEP_SAMPLES",
    "DEFAULT_LIMIT",
    "HINT_LIMIT",
    "MAX_LINES",
    "Analysis",
    "Hint",
    "Limit",
    "LineValue",
    "analyse",
    "hint",
]

MAX_LINES = 256
"""The most lines an analysis compares."""

FINALISTS = 4
"""The lines of the first stage that an analysis judges again by deep play-outs (with the
lines it must include); the expert bot judges more
([`DEFAULT_FINALISTS`][crapette.bots.expert.DEFAULT_FINALISTS]), as a bot has its time
per move to itself where an analysis judges every move of a deal."""

DEEP_SAMPLES = 32
"""The samples of an analysis's second stage by default (every finalist on each)."""

HINT_DEEP_SAMPLES = 16
"""The samples of a hint's second stage."""

KEPT = 3
"""The lines of a move of ``include`` that an analysis keeps to the end (its first lines in
the expert's order)."""


def _count(label: str, value: object, kind: type = int) -> None:
    """Check one limit: ``None`` or a positive number (an ``int`` unless ``kind`` is
    ``float``)."""
    if value is None:
        return
    number = isinstance(value, (int, float)) if kind is float else isinstance(value, int)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not number
        or not value > 0
        or not math.isfinite(value)
    ):
        raise InvalidArgumentError(f"Limit {label} must be a positive number, not {show(value)}")


@attrs.frozen(slots=True)
class Limit:
    """How much work an analysis may do, as ``chess.engine.Limit`` says it for a chess
    engine: it stops at the first limit reached. At least one limit must be given.

    ``rollouts`` and ``positions`` make the analysis deterministic for a seed; ``time``
    depends on the machine (a limit in seconds of wall-clock time, for answers that must
    come quickly).

    Attributes:
        rollouts: the most play-outs (a line scored on one sample of the hidden cards).
        positions: the most moves played by the play-outs.
        time: the most seconds (wall clock).

    Raises:
        InvalidArgumentError: a limit that is not a positive number, or no limit at all.
    """

    rollouts: int | None = None
    positions: int | None = None
    time: float | None = None

    def __attrs_post_init__(self) -> None:
        _count("rollouts", self.rollouts)
        _count("positions", self.positions)
        _count("time", self.time, float)
        if self.rollouts is None and self.positions is None and self.time is None:
            raise InvalidArgumentError("a Limit needs rollouts, positions or time")


DEFAULT_LIMIT = Limit(rollouts=1536)
"""The limit of [`analyse`][crapette.analysis.analyse] and the annotations by default."""

HINT_LIMIT = Limit(rollouts=1024, time=0.5)
"""The limit of [`hint`][crapette.analysis.hint] by default: it answers within a second."""


@attrs.frozen(slots=True)
class LineValue:
    """One line of the player to act, with its value for that player.

    Attributes:
        moves: the line, first move first, up to the next new card (see
            [`crapette.bots.planner`][crapette.bots.planner]).
        win: the probability of winning the deal after it.
        win_se: the standard error of ``win`` (0 for a line that wins at once, ``nan``
            below two samples).
        points: the expected deal points after it (the player's score minus the
            opponent's).
        points_se: the standard error of ``points``.
        samples: how many samples of the hidden cards scored it.
    """

    moves: tuple[Move, ...]
    win: float
    win_se: float
    points: float
    points_se: float
    samples: int

    @property
    def first(self) -> Move:
        """The line's first move."""
        return self.moves[0]

    def notation(self) -> str:
        """The moves in move notation, separated by spaces."""
        return " ".join(str(m) for m in self.moves)

    def to_dict(self) -> dict[str, object]:
        """The line as plain JSON-ready values (``nan`` written as ``None``)."""
        return {
            "moves": [str(m) for m in self.moves],
            "win": _finite(self.win),
            "win_se": _finite(self.win_se),
            "points": _finite(self.points),
            "points_se": _finite(self.points_se),
            "samples": self.samples,
        }


def _finite(x: float) -> float | None:
    return round(x, 6) if math.isfinite(x) else None


@attrs.frozen(slots=True)
class Analysis:
    """What [`analyse`][crapette.analysis.analyse] found.

    Attributes:
        player: the player to act, whose values these are.
        win: the probability that ``player`` wins the deal (the best line's value).
        win_se: its standard error.
        points: the expected deal points of ``player`` (score minus the opponent's).
        points_se: its standard error.
        lines: the best lines, best first (``multipv`` of them at most).
        considered: how many lines were compared.
        samples: samples of the hidden cards drawn.
        rollouts: play-outs run.
        positions: moves played by the play-outs.
        seconds: wall-clock time spent.
        exact: whether the values are exact (a deal over, or won by a line at once).
    """

    player: int
    win: float
    win_se: float
    points: float
    points_se: float
    lines: tuple[LineValue, ...]
    considered: int
    samples: int
    rollouts: int
    positions: int
    seconds: float
    exact: bool = False

    @property
    def best(self) -> LineValue | None:
        """The best line (``None`` when the deal is over)."""
        return self.lines[0] if self.lines else None

    def to_dict(self) -> dict[str, object]:
        """The analysis as plain JSON-ready values."""
        return {
            "player": self.player,
            "win": _finite(self.win),
            "win_se": _finite(self.win_se),
            "points": _finite(self.points),
            "points_se": _finite(self.points_se),
            "lines": [line.to_dict() for line in self.lines],
            "considered": self.considered,
            "samples": self.samples,
            "rollouts": self.rollouts,
            "positions": self.positions,
            "seconds": round(self.seconds, 4),
            "exact": self.exact,
        }


def _check_view(view: object) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise InvalidArgumentError(
            f"analyse() needs a PlayerView (crapette.observe(state, player)), not {show(view)}"
        )
    return view


def _sampler(view: PlayerView, memory: HandMemory | None, rng: Rng) -> Callable[[], GameState]:
    """Draws samples of the hidden cards for ``view`` from ``rng``."""
    draw = Sampler(view, memory)
    return lambda: draw(rng)


def candidate_lines(
    state: GameState, moves: tuple[Move, ...], include: Iterable[Move] = ()
) -> tuple[list[tuple[Move, ...]], set[int]]:
    """The lines an analysis compares in ``state`` (a view's sketch): the expert's lines
    (each legal move alone at a Stop! decision), then lines starting with each move of
    ``include`` not yet first in a line; and the indices of the lines kept to the end for
    ``include`` (the first ``KEPT`` lines of each move, in the expert's order)."""
    if state.stop is not None or len(moves) == 1:
        found: list[tuple[Move, ...]] = [(m,) for m in moves]
    else:
        found = expert_lines(state, DEFAULT_WIDTH, DEFAULT_NODES, MAX_LINES)
    keep: set[int] = set()
    for move in include:
        mine = [i for i, line in enumerate(found) if line[0] == move]
        if not mine:
            start = len(found)
            found.extend(lines_after(state, move, KEPT))
            mine = list(range(start, len(found)))
        keep.update(mine[:KEPT])
    return found, keep


def analyse(
    view: PlayerView,
    limit: Limit | None = None,
    *,
    multipv: int = 1,
    seed: int = 0,
    memory: HandMemory | None = None,
    include: Sequence[Move] = (),
    deep: int = DEEP_SAMPLES,
) -> Analysis:
    """Analyse the position ``view`` shows, for its player to act, from what the view
    shows and nothing else (the hidden cards are sampled, never read).

    The player's lines up to the next new card (the expert's lines:
    [`crapette.bots.expert`][crapette.bots.expert]) are judged as the expert judges them
    (docs/analysis.md): first all of them on the same samples of the hidden cards by greedy
    play-outs, spending the limit by sequential halving; then the four best (and the lines
    of ``include``) on ``deep`` more samples by deep play-outs. Each play-out's value
    becomes a win probability and expected points through the value model fitted for its
    kind. The best line's value is the position's value, with its standard error over its
    samples.

    Args:
        view: the position as one player sees it (``crapette.observe(state, player)``).
        limit: how much work to do ([`DEFAULT_LIMIT`][crapette.analysis.DEFAULT_LIMIT]).
        multipv: how many of the best lines to report (at least 1).
        seed: seeds the samples and play-outs: the same seed gives the same analysis
            (under a limit without ``time``).
        memory: the hands the player remembers (a
            [`HandMemory`][crapette.bots.planner.HandMemory] that has followed the
            deal); ``None`` samples the hands uniformly.
        include: moves whose lines are always scored to the end (never dropped), so
            that the analysis also values them (a move actually played, say).
        deep: the samples of the second stage (0: the first stage alone). With a
            ``time`` limit the first stage gets 60% of it, the second the rest.

    Raises:
        InvalidArgumentError: not a view, a ``multipv`` below 1, a limit that is not a
            [`Limit`][crapette.analysis.Limit], a negative ``deep``, or a move of
            ``include`` that is not legal.
    """
    found, _, _ = analyse_scores(
        view, limit, multipv=multipv, seed=seed, memory=memory, include=include, deep=deep
    )
    return found


def analyse_scores(
    view: PlayerView,
    limit: Limit | None = None,
    *,
    multipv: int = 1,
    seed: int = 0,
    memory: HandMemory | None = None,
    include: Sequence[Move] = (),
    deep: int = DEEP_SAMPLES,
) -> tuple[Analysis, list[LineScore], set[int]]:
    """[`analyse`][crapette.analysis.analyse], with every line's scores (the finalists'
    from the second stage) and the indices of the lines of ``include`` (for the
    annotations)."""
    view = _check_view(view)
    if limit is None:
        limit = DEFAULT_LIMIT
    if not isinstance(limit, Limit):
        raise InvalidArgumentError(f"limit must be a crapette.analysis.Limit, not {show(limit)}")
    if isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1:
        raise InvalidArgumentError(f"multipv must be a positive integer, not {show(multipv)}")
    if isinstance(deep, bool) or not isinstance(deep, int) or deep < 0:
        raise InvalidArgumentError(f"deep must be a non-negative integer, not {show(deep)}")
    started = time.perf_counter()
    deadline = started + limit.time if limit.time is not None else None
    first_deadline = started + 0.6 * limit.time if limit.time is not None and deep else deadline
    p = view.to_act
    state = sketch(view)
    moves = view.legal_moves()
    for move in include:
        if move not in moves:
            raise InvalidArgumentError(f"{move} in include is not a legal move here")
    if not moves or is_over(state):
        return _finished(view, started), [], set()
    found, keep = candidate_lines(state, moves, include)
    rng = Rng(seed)
    scores = [LineScore(line) for line in found]
    for s in scores:
        if _wins(state, s.line):
            s.exact = won_value(_after(state, s.line), p)
    model = load_model()
    sample = _sampler(view, memory, rng)
    work = score_lines(
        scores,
        p,
        sample,
        rng,
        model,
        rollouts=limit.rollouts if limit.rollouts is not None else 1 << 40,
        positions=limit.positions,
        deadline=first_deadline,
        keep=keep,
        settle=False,
        work=Work(),
    )
    if deep and model.deep is not None:
        _second_stage(scores, keep, p, sample, rng, model.deep, deep, deadline, work)
    ranked = sorted(range(len(scores)), key=lambda i: _rank(scores[i], i), reverse=True)
    shown = [
        _line_value(scores[i])
        for i in ranked[:multipv]
        if scores[i].exact is not None or scores[i].n
    ]
    if not shown:  # not even one sample: the limit was too small
        shown = [_line_value(scores[ranked[0]])]
    best = shown[0]
    analysis = Analysis(
        player=p,
        win=best.win,
        win_se=best.win_se,
        points=best.points,
        points_se=best.points_se,
        lines=tuple(shown),
        considered=len(found),
        samples=work.samples,
        rollouts=work.rollouts,
        positions=work.positions,
        seconds=time.perf_counter() - started,
        exact=scores[ranked[0]].exact is not None,
    )
    return analysis, scores, keep


def score_given(
    view: PlayerView,
    lines: Sequence[tuple[Move, ...]],
    limit: Limit,
    *,
    seed: int = 0,
    memory: HandMemory | None = None,
) -> list[LineScore]:
    """Score the given lines of the player to act, every one on every sample (none is
    dropped), as [`analyse`][crapette.analysis.analyse] scores its lines."""
    view = _check_view(view)
    p = view.to_act
    state = sketch(view)
    rng = Rng(seed)
    scores = [LineScore(tuple(line)) for line in lines]
    for s in scores:
        if _wins(state, s.line):
            s.exact = won_value(_after(state, s.line), p)
    deadline = time.perf_counter() + limit.time if limit.time is not None else None
    score_lines(
        scores,
        p,
        _sampler(view, memory, rng),
        rng,
        load_model(),
        rollouts=limit.rollouts if limit.rollouts is not None else 1 << 40,
        positions=limit.positions,
        deadline=deadline,
        keep=range(len(scores)),
        settle=False,
    )
    return scores


def _second_stage(
    scores: list[LineScore],
    keep: set[int],
    p: int,
    sample: Callable[[], GameState],
    rng: Rng,
    model: ValueModel,
    samples: int,
    deadline: float | None,
    work: Work,
) -> None:
    """Score the finalists (the best lines of the first stage, and the lines kept) again
    by deep play-outs: their scores are replaced by the second stage's, and the lines
    that are not finalists are marked out of the race."""
    ranked = sorted(range(len(scores)), key=lambda i: _rank(scores[i], i), reverse=True)
    finalists = [i for i in ranked if scores[i].exact is None and scores[i].n][:FINALISTS]
    finalists += [i for i in sorted(keep) if i not in finalists and scores[i].exact is None]
    if not finalists:
        return
    deep = {i: LineScore(scores[i].line) for i in finalists}
    score_deep(list(deep.values()), p, sample, rng, model, samples, deadline=deadline, work=work)
    for i, score in enumerate(scores):
        if i in deep:
            scores[i] = deep[i]
        elif score.exact is None:
            score.alive = False


def _rank(score: LineScore, i: int) -> tuple[bool, float, float, int]:
    """Lines still in the race (or exact) first, by value; then the lines dropped along
    the way, by their value when dropped; ties to the line found first."""
    win, points = score.key()
    return (score.alive or score.exact is not None, win, points, -i)


def _after(state: GameState, line: tuple[Move, ...]) -> GameState:
    for move in line:
        state = apply_unchecked(state, move)
    return state


def _line_value(score: LineScore) -> LineValue:
    return LineValue(
        score.line,
        score.mean_win,
        score.win_se,
        score.mean_points,
        score.points_se,
        score.n,
    )


def _finished(view: PlayerView, started: float) -> Analysis:
    """The analysis of a deal that is over: exact."""
    p = view.to_act
    value = exact_value(sketch(view), p)
    win, points = value if value is not None else (math.nan, math.nan)
    return Analysis(
        player=p,
        win=win,
        win_se=0.0,
        points=points,
        points_se=0.0,
        lines=(),
        considered=0,
        samples=0,
        rollouts=0,
        positions=0,
        seconds=time.perf_counter() - started,
        exact=True,
    )


@attrs.frozen(slots=True)
class Hint:
    """A suggestion for the player to act: the best line found, its value and why.

    Attributes:
        move: the move to play now (the line's first move).
        line: the whole line up to the next new card.
        win: the probability of winning the deal after the line.
        win_se: its standard error.
        points: the expected deal points after it.
        reason: why, in a sentence (see [`hint`][crapette.analysis.hint]).
        analysis: the analysis behind it.
    """

    move: Move
    line: tuple[Move, ...]
    win: float
    win_se: float
    points: float
    reason: str
    analysis: Analysis


def hint(
    view: PlayerView,
    limit: Limit | None = None,
    *,
    seed: int = 0,
    memory: HandMemory | None = None,
    deep: int = HINT_DEEP_SAMPLES,
) -> Hint:
    """The best line for the player to act with its win chance and a reason in words, at a
    limit that answers within a second ([`HINT_LIMIT`][crapette.analysis.HINT_LIMIT]:
    1,024 play-outs or half a second, whichever comes first, then 16 samples of deep
    play-outs for the finalists).

    The reason names what the line does, first match wins: a line that wins the deal; a
    compulsory move (the rules demand it: the sentence of the priority rule); a line that
    empties the reserve, plays reserve cards, loads the opponent, plays cards to the
    foundations, frees a house; or simply the line worth the most; followed by how much
    better it is than the next best line when another was compared.

    Args:
        view: the position as the player to act sees it.
        limit: the first stage's limit ([`HINT_LIMIT`][crapette.analysis.HINT_LIMIT]).
        seed: seeds the samples and play-outs.
        memory: the hands the player remembers (see [`analyse`][crapette.analysis.analyse]).
        deep: the samples of the second stage (16).

    Raises:
        InvalidArgumentError: as [`analyse`][crapette.analysis.analyse], or a deal that is
            over (nothing to hint).
    """
    view = _check_view(view)
    if not view.legal_moves():
        raise InvalidArgumentError("the deal is over: there is nothing to hint")
    if view.to_act != view.player:
        raise InvalidArgumentError(
            f"player {view.player} is not to act in this view: a hint is for the player to act"
        )
    limit = limit if limit is not None else HINT_LIMIT
    found = analyse(view, limit, multipv=2, seed=seed, memory=memory, deep=deep)
    best = found.best
    assert best is not None
    reason = explain(view, best.moves)
    if len(found.lines) > 1:
        other = found.lines[1]
        gap = best.win - other.win
        if math.isfinite(gap) and gap >= 0.005:
            reason += (
                f" (win chance {_pct(best.win)}, {gap * 100:.0f} points above the next best"
                f" line, {other.first})"
            )
        else:
            reason += f" (win chance {_pct(best.win)}; {other.first} is about as good)"
    else:
        reason += f" (win chance {_pct(best.win)})"
    return Hint(best.first, best.moves, best.win, best.win_se, best.points, reason, found)


def _pct(x: float) -> str:
    return "-" if not math.isfinite(x) else f"{x * 100:.0f}%"


def explain(view: PlayerView, line: Sequence[Move]) -> str:
    """Why a line is good, in words (the first sentence of a hint: see
    [`hint`][crapette.analysis.hint])."""
    state = sketch(view)
    p = view.to_act
    first = line[0]
    if first.action is Action.CALL_STOP:
        return "Call Stop!: your opponent broke a priority rule"
    if first.action is Action.LET_STAND:
        return "Let the violation stand: calling would not help you"
    if _wins(state, tuple(line)):
        return f"{_describe(state, first)}: this line wins the deal"
    if state.rules.stop != "enforced":
        others = [m for m in view.legal_moves() if m != first]
        broken = [violation(state, m) for m in others]
        if others and all(b is not None for b in broken) and violation(state, first) is None:
            reason = broken[0].reason if broken[0] is not None else ""
            return f"{_describe(state, first)}: compulsory ({reason})"
    after = state
    reserve = len(state.reserves[p])
    loaded = founded = 0
    for move in line:
        if move.action is Action.PLAY:
            if move.target == 11:
                founded += 1
            elif move.target in (12, 13):
                loaded += 1
        after = apply_unchecked(after, move)
    played = reserve - len(after.reserves[p])
    what = _describe(state, first)
    if reserve and not after.reserves[p]:
        return f"{what}: this line empties your reserve"
    if played > 0:
        return f"{what}: this line plays {_cards(played)} from your reserve"
    if loaded:
        return f"{what}: this line loads {_cards(loaded)} onto your opponent"
    if founded:
        return f"{what}: this line plays {_cards(founded)} to the foundations"
    empty_before = sum(1 for h in state.houses if not h)
    empty_after = sum(1 for h in after.houses if not h)
    if empty_after > empty_before:
        return f"{what}: this line empties a house"
    if _boundary(state, first) or len(line) == 1:
        return f"{what}: the best move here"
    return f"{what}: the best line here ({len(line)} moves)"


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _describe(state: GameState, move: Move) -> str:
    return f"{move} ({describe_move(state, move)})"
