"""The expert's evaluation: what a line is worth, as a win probability and expected deal
points, estimated over samples of the hidden cards.

Public on purpose: the expert bot ([`crapette.bots.expert`][crapette.bots.expert]) and the
position analysis ([`crapette.analysis`][crapette.analysis]) share it, and a bot of your
own can score its lines with it. Documented in docs/bots.md ("The expert") and
docs/analysis.md.

**One sample** of a line: the line's moves played on a complete state drawn for the hidden
cards, then greedy play for both players ([`play_out`][crapette.bots.search.play_out]) to the
start of the player's turn after ``turns`` turns of the opponent, where the play-out's value
``v`` (the opponent's count minus the player's, plus or minus 100 for a deal won or lost on
the way) is turned into

* a **win probability**: for a deal won or lost in the play-out, a fitted probability
  close to 1 or 0 (greedy play decides deals that better play may still turn round), else
  the logistic curve ``1 / (1 + exp(-(a + b v)))``;
* **expected deal points** (the player's score minus the opponent's): exact for a deal won
  or lost (the winner scores ``win_bonus`` plus the loser's count), else ``c + d v``.

The four numbers ``a``, ``b``, ``c`` and ``d`` and the play-out depth ``turns`` are the
[`ValueModel`][crapette.bots.value.ValueModel], fitted by ``training/train_expert.py``
on the outcomes of self-play deals and shipped in ``expert_model.json``.

**Many samples**: [`score_lines`][crapette.bots.value.score_lines] scores every line on
the same samples with the same play-out seed (common random numbers: lines are compared on
equal luck), keeping per line the sums that give its means and their standard errors, and
spends a budget by sequential halving (after each round the worse half of the lines drops
out, except lines the caller keeps).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

import attrs

from crapette import apply_unchecked
from crapette.bots._greedy import play_out
from crapette.bots.planner import HandMemory
from crapette.cards import PACKS
from crapette.deal import Rng, shuffled
from crapette.moves import Move
from crapette.outcome import counts, outcome
from crapette.rules import Ruleset
from crapette.state import _NATIVE, GameState, Pile, PythonState
from crapette.views import PlayerView, determinize, state_of

__all__ = [
    "MODEL_FILE",
    "LineScore",
    "Sampler",
    "ValueModel",
    "Work",
    "load_model",
    "score_lines",
]

MODEL_FILE = "expert_model.json"
"""The shipped value model, a data file of ``crapette.bots``."""

_WIN = 100  # the play-out value's bonus for a deal won (crapette.bots._greedy.evaluate)

Line = tuple[Move, ...]


@attrs.frozen(slots=True)
class ValueModel:
    """How a sample's play-out value becomes a win probability and expected points.

    Attributes:
        turns: how many of the opponent's turns a play-out plays to their end.
        win_bias: ``a`` of the win probability ``1 / (1 + exp(-(a + b v)))``.
        win_slope: ``b``.
        points_bias: ``c`` of the expected points ``c + d v``.
        points_slope: ``d``.
        won_win: the win probability of a sample whose play-out won the deal (greedy play
            wins deals that better play may still lose: less than 1).
        lost_win: the win probability of a sample whose play-out lost the deal.
        deep: the same numbers fitted for the deep play-outs of
            [`deep_play_out`][crapette.bots.expert.deep_play_out] (``None``: not fitted).
        trained: how the numbers were obtained (free text, from the model file).
    """

    turns: int
    win_bias: float
    win_slope: float
    points_bias: float
    points_slope: float
    won_win: float = 1.0
    lost_win: float = 0.0
    trained: str = ""
    deep: ValueModel | None = None

    def value(self, v: int, rules: Ruleset) -> tuple[float, float]:
        """The win probability and expected points of a play-out value ``v`` (see the
        module documentation)."""
        if v >= _WIN:
            return self.won_win, float(v - _WIN + rules.win_bonus)
        if v <= -_WIN:
            return self.lost_win, float(v + _WIN - rules.win_bonus)
        x = self.win_bias + self.win_slope * v
        win = 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0
        return win, self.points_bias + self.points_slope * v

    def to_dict(self) -> dict[str, object]:
        """The model as its JSON file holds it."""
        return attrs.asdict(self)


def _model(data: dict[str, Any], turns: int) -> ValueModel:
    deep = data.get("deep")
    return ValueModel(
        turns=int(data.get("turns", turns)),
        win_bias=float(data["win_bias"]),
        win_slope=float(data["win_slope"]),
        points_bias=float(data["points_bias"]),
        points_slope=float(data["points_slope"]),
        won_win=float(data.get("won_win", 1.0)),
        lost_win=float(data.get("lost_win", 0.0)),
        trained=str(data.get("trained", "")),
        deep=_model(deep, turns) if isinstance(deep, dict) else None,
    )


@lru_cache(maxsize=1)
def load_model() -> ValueModel:
    """The shipped value model (``crapette/bots/expert_model.json``), read once."""
    text = resources.files("crapette.bots").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    return _model(data, int(data["turns"]))


def exact_value(state: GameState, p: int) -> tuple[float, float] | None:
    """The win probability and points of a finished deal for ``p``, or ``None`` while it
    runs (a stalemate is not a win: probability 0, points the stalemate's)."""
    result = outcome(state)
    if result is None:
        return None
    points = float(result.scores[p] - result.scores[1 - p])
    return (1.0 if result.winner == p else 0.0), points


def won_value(state: GameState, p: int) -> tuple[float, float]:
    """The win probability (1) and points of a position where ``p`` has just won."""
    held = counts(state)
    return 1.0, float(state.rules.win_bonus + held[1 - p])


class Sampler:
    """Draws complete states consistent with one view: the hands the memory knows in their
    order, each face-down reserve card uniformly from the hidden cards of its owner's pack,
    then the unknown hands uniformly from the cards left (the distribution of
    [`HandMemory.sample`][crapette.bots.planner.HandMemory.sample], drawn in fewer steps:
    the view's hidden cards are sorted by pack once, not for every sample, as a decision
    draws hundreds).

    Args:
        view: what the player sees.
        memory: the hands the player remembers, or ``None`` (every hidden card uniform).
    """

    __slots__ = ("_hands", "_packs", "_view")

    def __init__(self, view: PlayerView, memory: HandMemory | None = None) -> None:
        self._view = view
        hands: list[Pile | None] = [None, None]
        if memory is not None and view.stop is None:
            hands = list(memory.hands)
        known = {card for hand in hands if hand is not None for card in hand}
        self._hands = hands
        pool = [c for c in view.hidden_cards() if c not in known]
        owner = PACKS[view.rules.pack].owner
        self._packs = (
            tuple(c for c in pool if owner[c] == 0),
            tuple(c for c in pool if owner[c] == 1),
        )

    def __call__(self, rng: Rng) -> GameState:
        """One complete state."""
        view = self._view
        if view.stop is not None:
            return determinize(view, rng)
        need0, need1 = view.reserves_down
        pack0, pack1 = self._packs
        if need0:
            pack0 = shuffled(pack0, rng)
        if need1:
            pack1 = shuffled(pack1, rng)
        rest = shuffled(pack0[need0:] + pack1[need1:], rng)
        hand0, hand1 = self._hands
        if hand0 is None:
            n = view.hand_sizes[0]
            hand0, rest = rest[:n], rest[n:]
        if hand1 is None:
            hand1 = rest[: view.hand_sizes[1]]
        return state_of(
            view,
            (pack0[:need0] + view.reserves_up[0], pack1[:need1] + view.reserves_up[1]),
            (hand0, hand1),
        )


@attrs.define(slots=True)
class LineScore:
    """The samples of one line.

    Attributes:
        line: the moves.
        n: samples scored.
        win: the sum of the samples' win probabilities.
        win2: the sum of their squares.
        points: the sum of the samples' expected points.
        points2: the sum of their squares.
        exact: the line's value when it is known without samples (a deal won at once).
        wins: the win probability of each sample, in order (``first`` is the number of
            the first sample).
        first: the number of the scoring's first sample that scored the line.
        alive: whether the line was still in the race when the scoring stopped.
    """

    line: Line
    n: int = 0
    win: float = 0.0
    win2: float = 0.0
    points: float = 0.0
    points2: float = 0.0
    exact: tuple[float, float] | None = None
    wins: list[float] = attrs.Factory(list)
    first: int = 0
    alive: bool = True

    def add(self, win: float, points: float) -> None:
        """Count one sample."""
        self.wins.append(win)
        self.n += 1
        self.win += win
        self.win2 += win * win
        self.points += points
        self.points2 += points * points

    @property
    def mean_win(self) -> float:
        """The mean win probability (``nan`` before any sample)."""
        if self.exact is not None:
            return self.exact[0]
        return self.win / self.n if self.n else math.nan

    @property
    def mean_points(self) -> float:
        """The mean expected points (``nan`` before any sample)."""
        if self.exact is not None:
            return self.exact[1]
        return self.points / self.n if self.n else math.nan

    @property
    def win_se(self) -> float:
        """The standard error of the mean win probability (0 when exact, ``nan`` below two
        samples)."""
        if self.exact is not None:
            return 0.0
        return _se(self.n, self.win, self.win2)

    @property
    def points_se(self) -> float:
        """The standard error of the mean points."""
        if self.exact is not None:
            return 0.0
        return _se(self.n, self.points, self.points2)

    def key(self) -> tuple[float, float]:
        """The ranking key (higher is better): the mean win probability, then points."""
        if self.exact is None and not self.n:
            return (-math.inf, -math.inf)
        return (self.mean_win, self.mean_points)

    def difference(self, other: LineScore) -> tuple[float, float]:
        """The mean difference of win probability between this line and ``other`` over
        the samples both scored (common random numbers), and its standard error (``nan``
        below two shared samples); an exact value counts as that value on every sample."""
        mine = self._by_sample()
        theirs = other._by_sample()
        if mine is None and theirs is None:
            return self.mean_win - other.mean_win, 0.0
        if mine is None:
            assert theirs is not None
            shared = list(theirs)
            diffs = [self.mean_win - theirs[k] for k in shared]
        elif theirs is None:
            diffs = [mine[k] - other.mean_win for k in mine]
        else:
            diffs = [mine[k] - theirs[k] for k in mine if k in theirs]
        if not diffs:
            return self.mean_win - other.mean_win, math.nan
        total = sum(diffs)
        return total / len(diffs), _se(len(diffs), total, sum(d * d for d in diffs))

    def _by_sample(self) -> dict[int, float] | None:
        if self.exact is not None:
            return None
        return {self.first + k: w for k, w in enumerate(self.wins)}


def _se(n: int, total: float, squares: float) -> float:
    if n < 2:
        return math.nan
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return math.sqrt(var / n)


@attrs.define(slots=True)
class Work:
    """What a scoring did.

    Attributes:
        samples: complete states drawn for the hidden cards.
        rollouts: play-outs run (a line on a sample).
        positions: moves played by the play-outs.
        scored: legal moves the play-outs' greedy choices scored (their cost).
        seconds: wall-clock time spent.
    """

    samples: int = 0
    rollouts: int = 0
    positions: int = 0
    scored: int = 0
    seconds: float = 0.0


def score_lines(
    scores: Sequence[LineScore],
    p: int,
    sample: Callable[[], GameState],
    rng: Rng,
    model: ValueModel,
    *,
    rollouts: int,
    positions: int | None = None,
    deadline: float | None = None,
    keep: Collection[int] = (),
    settle: bool = True,
    work: Work | None = None,
) -> Work:
    """Score the lines on samples of the hidden cards, by sequential halving; returns the
    work done (added to ``work`` if given).

    Args:
        scores: one [`LineScore`][crapette.bots.value.LineScore] per line (updated in
            place); lines with an ``exact`` value take no samples.
        p: the player whose lines they are (the values are for ``p``).
        sample: draws a complete state consistent with what ``p`` knows.
        rng: seeds the play-outs (one seed per sample, shared by the lines).
        model: the value model.
        rollouts: the most play-outs in all.
        positions: the most moves played by the play-outs in all (``None``: no limit).
        deadline: a ``time.perf_counter()`` value to stop at (``None``: no limit; with a
            deadline the result depends on the machine's speed).
        keep: indices of lines never dropped (they are scored on every sample).
        settle: stop once a single line is left (a bot's choice is made); ``False`` goes
            on sampling it to the end of the budget (an analysis wants its value).
        work: counters to add to.
    """
    work = work if work is not None else Work()
    started = time.perf_counter()
    alive = [i for i, s in enumerate(scores) if s.exact is None]
    if not alive:
        return work
    kept = set(keep)
    rounds = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 1
    spent = 0
    moved = 0
    done = 0
    turns = model.turns

    def out_of_budget() -> bool:
        if spent + len(alive) > rollouts:
            return True
        if positions is not None and moved >= positions:
            return True
        return deadline is not None and time.perf_counter() >= deadline

    drawn = 0
    while alive and not out_of_budget():
        start = sample()
        work.samples += 1
        seed = rng.next64()
        rules = start.rules
        # the samples are the engine's own states: the native play-out is called as
        # ``play_out`` calls it, without its argument checks, on the hot path of the bots
        native = None if isinstance(start, PythonState) else _NATIVE
        for i in alive:
            if not scores[i].n:
                scores[i].first = drawn
            state = start
            for move in scores[i].line:
                state = apply_unchecked(state, move)
            if native is not None:
                value, played, scored, _ = native.play_out(state, p, seed, turns)
            else:
                value, played, scored = play_out(state, p, Rng(seed), turns)
            scores[i].add(*model.value(value, rules))
            spent += 1
            moved += played
            work.rollouts += 1
            work.positions += played
            work.scored += scored
        done += 1
        drawn += 1
        if len(alive) > 1:
            left = rollouts - spent
            if positions is not None and spent:
                left = min(left, int((positions - moved) / (moved / spent)) if moved else left)
            share = (max(left, 0) + done * len(alive)) // (len(alive) * rounds)
            if done >= share:
                ranked = sorted(alive, key=lambda i: (scores[i].key(), -i), reverse=True)
                half = set(ranked[: (len(ranked) + 1) // 2]) | (kept & set(alive))
                for i in alive:
                    scores[i].alive = i in half
                alive = [i for i in alive if i in half]
                rounds = max(1, rounds - 1)
                done = 0
        if settle and len(alive) == 1 and not kept:
            break
    work.seconds += time.perf_counter() - started
    return work
