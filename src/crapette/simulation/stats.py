"""Statistics of simulated deals that respect how the deals were drawn.

The simulator plays deals in pairs on one shuffle with the seats swapped, and
[`compare`][crapette.simulation.compare] plays the same shuffles under every ruleset. Two deals of a
pair are not independent (the shuffle favours one seat in both), and neither are two
rulesets' results on one shuffle. So every figure here treats the **shuffle** (a deal pair)
as the unit of sampling, a *cluster* of deals, identified by the deal seed:

* **Rates** (win rates, the first player's share, stalemates, move caps) get a Wilson score
  interval computed with the *effective sample size* ``n / deff``, where the design effect
  ``deff`` is the cluster-robust variance of the rate over the binomial variance (Korn and
  Graubard 1998). Pairs that agree widen the interval; pairs that disagree (seat swapping
  cancels luck) narrow it. Without clustering this is the plain Wilson interval.
* **Means** (deal length in moves and turns, the score margin, points per deal) and **paired
  differences** between rulesets get a cluster-robust (sandwich) normal interval: every
  figure is a ratio of sums over deals, linearized, with the variance summed over shuffles
  (Cameron and Miller 2015). A difference between two rulesets is computed shuffle by
  shuffle over the shuffles both played, so the shared luck of the cards cancels.
* **Medians** get a percentile cluster bootstrap: shuffles are resampled with replacement
  ([`RESAMPLES`][crapette.simulation.stats.RESAMPLES] times, from the fixed seed
  [`BOOTSTRAP_SEED`][crapette.simulation.stats.BOOTSTRAP_SEED], so a result is reproducible) and the
  median recomputed (Davison and Hinkley 1997, section 3.8; Field and Welsh 2007). Beyond
  1,000 shuffles (2,000 deals), where the bootstrap would cost more than playing the deals,
  a median gets Woodruff's interval instead, the interval the bootstrap approaches as the
  sample grows: the cluster-robust standard error ``se`` of the share of values at or below
  the median, mapped back through the quantiles, ``[Q(0.5 - 1.96 se), Q(0.5 + 1.96 se)]``
  (Woodruff 1952; Francisco and Fuller 1991).

Deals stopped by the move cap have no natural end: they are counted apart (the move-cap
rate) and left out of every length, margin and points figure.

References:
    E. L. Korn and B. I. Graubard, "Confidence intervals for proportions with small expected
    number of positive counts estimated from survey data", Survey Methodology 24(2), 1998.
    A. C. Cameron and D. L. Miller, "A practitioner's guide to cluster-robust inference",
    Journal of Human Resources 50(2), 2015.
    A. C. Davison and D. V. Hinkley, "Bootstrap Methods and their Application", Cambridge
    University Press, 1997.
    C. A. Field and A. H. Welsh, "Bootstrapping clustered data", JRSS B 69(3), 2007.
    R. S. Woodruff, "Confidence intervals for medians and other position measures", JASA
    47(260), 1952.
    C. A. Francisco and W. A. Fuller, "Quantile estimation with a complex survey design",
    Annals of Statistics 19(1), 1991.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import attrs

__all__ = ["METRICS", "Interval", "Stats", "analyse", "paired_differences", "wilson_interval"]

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""

RESAMPLES = 2000
"""Bootstrap resamples for the medians."""

BOOTSTRAP_SEED = 20141
"""The fixed seed of the bootstrap resampling (so the same records give the same numbers)."""

_BOOTSTRAP_MAX_SHUFFLES = 1000
"""Above this many shuffles the medians get Woodruff's interval, not the bootstrap."""


class _Record(Protocol):
    """What the statistics read from a deal record
    ([`DealRecord`][crapette.simulation.DealRecord])."""

    @property
    def seed(self) -> int: ...
    @property
    def starter(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def winner_bot(self) -> int | None: ...
    def bot_scores(self) -> tuple[int, int]: ...
    @property
    def reason(self) -> str: ...
    @property
    def moves(self) -> int: ...
    @property
    def turns(self) -> int: ...
    @property
    def stop_calls(self) -> int: ...


@attrs.frozen(slots=True)
class Interval:
    """A statistic with its 95% interval.

    Attributes:
        value: the estimate (``nan`` when no deal counts).
        low: the lower bound (``nan`` when it cannot be estimated, e.g. from one shuffle).
        high: the upper bound.
        n: how many deals the figure is computed from.
        percent: whether the figure is a rate (shown as a percentage).
    """

    value: float
    low: float
    high: float
    n: int
    percent: bool = False

    @property
    def half_width(self) -> float:
        """Half the interval's width (``inf`` when it cannot be estimated)."""
        width = (self.high - self.low) / 2
        return math.inf if math.isnan(width) else width

    def format(self, digits: int = 1, *, difference: bool = False) -> str:
        """``"52.3% [48.1, 56.5]"`` for a rate, ``"321.4 [310.2, 332.6]"`` otherwise.

        Args:
            digits: decimals.
            difference: the figure is a difference
                ([`paired_differences`][crapette.simulation.stats.paired_differences]): the
                value is signed, and a difference of rates is in percentage points,
                ``"-5.5 pts [-9.1, -1.9]"``.
        """
        scale = 100.0 if self.percent else 1.0
        unit = (" pts" if difference else "%") if self.percent else ""

        def show(x: float) -> str:
            return "-" if math.isnan(x) else f"{scale * x:.{digits}f}"

        if math.isnan(self.value):
            return "-"
        head = f"{scale * self.value:+.{digits}f}" if difference else show(self.value)
        return f"{head}{unit} [{show(self.low)}, {show(self.high)}]"

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values (``None`` for ``nan``)."""
        return {
            "value": _finite(self.value),
            "low": _finite(self.low),
            "high": _finite(self.high),
            "n": self.n,
        }


def _finite(x: float) -> float | None:
    return None if math.isnan(x) or math.isinf(x) else x


NAN = float("nan")


def wilson_interval(successes: float, trials: float) -> tuple[float, float]:
    """The 95% Wilson score interval of ``successes / trials`` (both may be fractional, as
    with an effective sample size); ``(0, 1)`` for no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, successes / trials))
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _cluster_variance(num: Sequence[float], den: Sequence[float], total: float) -> float:
    """The cluster-robust variance of ``sum(num) / sum(den)`` (linearized ratio), with the
    small-sample factor G / (G - 1); ``nan`` with fewer than two clusters."""
    g = len(num)
    if g < 2 or total == 0:
        return NAN
    ratio = sum(num) / total
    ss = math.fsum((a - ratio * b) ** 2 for a, b in zip(num, den, strict=True))
    return g / (g - 1) * ss / (total * total)


def ratio_interval(num: Sequence[float], den: Sequence[float], *, rate: bool = False) -> Interval:
    """The ratio ``sum(num) / sum(den)`` of per-cluster sums with its 95% interval.

    Args:
        num: the numerator summed within each cluster (shuffle).
        den: the denominator summed within each cluster (for a mean, the deals counted).
        rate: the ratio is a proportion (0/1 outcomes over trials): use the Wilson interval
            with the effective sample size (Korn and Graubard 1998); otherwise a normal
            interval with the cluster-robust standard error (Cameron and Miller 2015).
    """
    total = math.fsum(den)
    n = round(total)
    if total <= 0:
        return Interval(NAN, NAN, NAN, 0, rate) if not rate else Interval(NAN, 0.0, 1.0, 0, rate)
    value = math.fsum(num) / total
    var = _cluster_variance(num, den, total)
    if rate:
        # no spread to measure (one shuffle, or every deal alike): the plain Wilson interval
        spread = not math.isnan(var) and var > 0 and 0 < value < 1
        n_eff = value * (1 - value) / var if spread else total
        low, high = wilson_interval(value * n_eff, n_eff)
        return Interval(value, low, high, n, True)
    if math.isnan(var):
        return Interval(value, NAN, NAN, n)
    half = Z95 * math.sqrt(var)
    return Interval(value, value - half, value + half, n)


def _quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, linear between order statistics."""
    if not ordered:
        return NAN
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def _median(values: Sequence[float]) -> float:
    return _quantile(sorted(values), 0.5)


Progress = Callable[[int, int], None]
"""A progress callback: ``progress(done, total)``."""


def cluster_bootstrap(
    clusters: Sequence[Sequence[float]],
    statistic: Callable[[list[float]], float] = _median,
    *,
    resamples: int = RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    progress: Progress | None = None,
) -> Interval:
    """A statistic of the pooled values and its 95% percentile cluster-bootstrap interval:
    whole clusters are drawn with replacement, ``resamples`` times, from ``random.Random``
    seeded with ``seed``.

    Args:
        clusters: the values of each cluster (a cluster may be empty).
        statistic: a function of the pooled values (default: the median, computed from the
            counts of each cluster drawn, without building the resampled list: the same
            numbers, faster on large runs).
        resamples: how many bootstrap samples.
        seed: the resampling seed.
        progress: called as ``progress(done, resamples)`` now and then (about a hundred
            times) while resampling.
    """
    pooled = [x for cluster in clusters for x in cluster]
    if not pooled:
        return Interval(NAN, NAN, NAN, 0)
    value = statistic(pooled)
    g = len(clusters)
    if g < 2:
        return Interval(value, NAN, NAN, len(pooled))
    rng = random.Random(seed)
    draws = []
    indices = range(g)
    median = _WeightedMedian(clusters) if statistic is _median else None
    every = max(1, resamples // 100)
    for done in range(1, resamples + 1):
        drawn = rng.choices(indices, k=g)
        if median is not None:
            draw = median.of(drawn)
            if draw is not None:
                draws.append(draw)
        else:
            sample = [x for i in drawn for x in clusters[i]]
            if sample:
                draws.append(statistic(sample))
        if progress is not None and (done % every == 0 or done == resamples):
            progress(done, resamples)
    draws.sort()
    return Interval(value, _quantile(draws, 0.025), _quantile(draws, 0.975), len(pooled))


def woodruff_median(clusters: Sequence[Sequence[float]]) -> Interval:
    """The median of the pooled values and its 95% Woodruff interval: the quantiles at
    ``0.5 -/+ 1.96 se``, where ``se`` is the cluster-robust standard error of the share of
    values at or below the median (what the bootstrap of the median approaches in large
    samples, at the cost of one sort)."""
    ordered = sorted(x for cluster in clusters for x in cluster)
    if not ordered:
        return Interval(NAN, NAN, NAN, 0)
    value = _quantile(ordered, 0.5)
    total = len(ordered)
    below = [float(sum(1 for x in cluster if x <= value)) for cluster in clusters]
    var = _cluster_variance(below, [float(len(c)) for c in clusters], total)
    if math.isnan(var):
        return Interval(value, NAN, NAN, total)
    half = Z95 * math.sqrt(var)
    low = _quantile(ordered, max(0.0, 0.5 - half))
    high = _quantile(ordered, min(1.0, 0.5 + half))
    return Interval(value, low, high, total)


class _WeightedMedian:
    """The median of a resample of whole clusters, from how often each cluster was drawn:
    one pass over the pooled values sorted once, the same number ``_median`` gives for the
    resampled list (the same order statistics, the same interpolation)."""

    __slots__ = ("owner", "sizes", "values")

    def __init__(self, clusters: Sequence[Sequence[float]]) -> None:
        order = sorted((x, c) for c, cluster in enumerate(clusters) for x in cluster)
        self.values = [x for x, _ in order]
        self.owner = [c for _, c in order]
        self.sizes = [len(cluster) for cluster in clusters]

    def of(self, drawn: Sequence[int]) -> float | None:
        """The median of the clusters ``drawn`` (with repeats), or ``None`` if empty."""
        return self.of_counts(Counter(drawn))

    def of_counts(self, times: Counter[int]) -> float | None:
        """The median of a resample that drew cluster ``c`` ``times[c]`` times."""
        total = sum(k * self.sizes[c] for c, k in times.items())
        if total == 0:
            return None
        pos = 0.5 * (total - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, total - 1)
        # how many resampled values lie at or below each pooled value, in sorted order
        below = list(itertools.accumulate(map(times.get, self.owner, itertools.repeat(0))))
        low = self.values[bisect.bisect_right(below, lo)]
        high = self.values[bisect.bisect_right(below, hi)]
        return low + (high - low) * (pos - lo)


@attrs.frozen(slots=True)
class Metric:
    """One figure of [`Stats`][crapette.simulation.stats.Stats]: a ratio of per-deal sums.

    Attributes:
        key: the short name (``"first_player"``).
        label: the name in tables.
        rate: whether it is a proportion.
        num: the numerator's value for one deal record.
        den: the denominator's value for one deal record (1 per deal counted).
    """

    key: str
    label: str
    rate: bool
    num: Callable[[Any], float]
    den: Callable[[Any], float]


def _capped(r: _Record) -> bool:
    return r.reason == "move_cap"


def _ended(r: _Record) -> float:
    return 0.0 if _capped(r) else 1.0


def _margin(r: _Record) -> int:
    a, b = r.bot_scores()
    return a - b


METRICS: tuple[Metric, ...] = (
    Metric("win_a", "bot A win rate", True, lambda r: r.winner_bot == 0, lambda r: 1),
    Metric("win_b", "bot B win rate", True, lambda r: r.winner_bot == 1, lambda r: 1),
    Metric(
        "share",
        "bot A share of decided deals",
        True,
        lambda r: r.winner_bot == 0,
        lambda r: r.winner is not None,
    ),
    Metric(
        "first_player",
        "first player wins (decided deals)",
        True,
        lambda r: r.winner is not None and r.winner == r.starter,
        lambda r: r.winner is not None,
    ),
    Metric("stalemate", "stalemates", True, lambda r: r.reason == "stalemate", lambda r: 1),
    Metric("move_cap", "move caps", True, _capped, lambda r: 1),
    Metric("moves", "moves per deal", False, lambda r: _ended(r) * r.moves, _ended),
    Metric("turns", "turns per deal", False, lambda r: _ended(r) * r.turns, _ended),
    Metric(
        "margin",
        "margin A - B",
        False,
        lambda r: _ended(r) * _margin(r),
        _ended,
    ),
    Metric(
        "points_a", "bot A points per deal", False, lambda r: _ended(r) * r.bot_scores()[0], _ended
    ),
    Metric(
        "points_b", "bot B points per deal", False, lambda r: _ended(r) * r.bot_scores()[1], _ended
    ),
    Metric("stop_calls", "Stop! calls per deal", False, lambda r: r.stop_calls, lambda r: 1),
)
"""Every ratio figure, in table order. Lengths, margins and points leave out move-capped
deals (their ``den`` is 0); the Stop! calls count every deal (a call is made when a player
calls "Stop!" on the opponent's violation, so under ``stop=enforced`` there are none)."""

MEDIANS: tuple[tuple[str, str], ...] = (
    ("moves", "median moves per deal"),
    ("turns", "median turns per deal"),
    ("margin", "median margin A - B"),
)
"""The figures that also get a median (move-capped deals left out)."""

_METRIC = {m.key: m for m in METRICS}


def _clusters(records: Iterable[_Record]) -> dict[int, list[_Record]]:
    """Records grouped by shuffle (deal seed), in order of first appearance."""
    out: dict[int, list[_Record]] = {}
    for r in records:
        out.setdefault(r.seed, []).append(r)
    return out


def _sums(metric: Metric, groups: Iterable[list[_Record]]) -> tuple[list[float], list[float]]:
    num, den = [], []
    for group in groups:
        num.append(float(sum(metric.num(r) for r in group)))
        den.append(float(sum(metric.den(r) for r in group)))
    return num, den


def _median_value(r: _Record, key: str) -> float:
    if key == "moves":
        return float(r.moves)
    if key == "turns":
        return float(r.turns)
    return float(_margin(r))


@attrs.frozen(slots=True)
class Stats:
    """Every figure of some deal records, each with its 95% interval (see the module).

    Attributes:
        games: deals analysed.
        shuffles: distinct shuffles (deal seeds), the clusters.
        move_caps: deals stopped by the move cap (left out of lengths, margins, points).
        figures: each [`METRICS`][crapette.simulation.stats.METRICS] key to its
            [`Interval`][crapette.simulation.stats.Interval].
        medians: ``"moves"``, ``"turns"`` and ``"margin"`` to their median with a
            cluster-bootstrap interval.
    """

    games: int
    shuffles: int
    move_caps: int
    figures: dict[str, Interval]
    medians: dict[str, Interval]

    def __getitem__(self, key: str) -> Interval:
        """A figure by key (``stats["first_player"]``)."""
        return self.figures[key]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values."""
        return {
            "games": self.games,
            "shuffles": self.shuffles,
            "move_caps": self.move_caps,
            "figures": {k: v.to_dict() for k, v in self.figures.items()},
            "medians": {k: v.to_dict() for k, v in self.medians.items()},
        }


def analyse(
    records: Sequence[_Record],
    *,
    medians: bool = True,
    resamples: int = RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    progress: Progress | None = None,
) -> Stats:
    """Every figure of some deal records with its 95% interval.

    Args:
        records: deal records ([`DealRecord`][crapette.simulation.DealRecord]).
        medians: also bootstrap the medians (the slow part; skip it in tight loops).
        resamples: bootstrap resamples for the medians.
        seed: the bootstrap seed.
        progress: called as ``progress(done, resamples)`` while the medians are
            bootstrapped (about a hundred times), for long runs.
    """
    groups = list(_clusters(records).values())
    figures = {m.key: ratio_interval(*_sums(m, groups), rate=m.rate) for m in METRICS}
    med: dict[str, Interval] = {}
    if medians:
        values = {
            key: [[_median_value(r, key) for r in g if not _capped(r)] for g in groups]
            for key, _label in MEDIANS
        }
        med = _medians(values, resamples, seed, progress)
    return Stats(
        games=len(records),
        shuffles=len(groups),
        move_caps=sum(_capped(r) for r in records),
        figures=figures,
        medians=med,
    )


def _medians(
    values: dict[str, list[list[float]]],
    resamples: int,
    seed: int,
    progress: Progress | None,
) -> dict[str, Interval]:
    """``cluster_bootstrap(values[key], resamples=resamples, seed=seed)`` for every key at
    once: the clusters are the same shuffles for every figure, so one series of draws serves
    them all (the same numbers as one bootstrap per figure, in a third of the time). Beyond
    ``_BOOTSTRAP_MAX_SHUFFLES`` shuffles, ``woodruff_median`` of each key."""
    first = next(iter(values.values()))
    g = len(first)
    if g < 2 or not any(first):
        return {key: cluster_bootstrap(v, resamples=0, seed=seed) for key, v in values.items()}
    if g > _BOOTSTRAP_MAX_SHUFFLES:
        if progress is not None:
            progress(resamples, resamples)
        return {key: woodruff_median(v) for key, v in values.items()}
    medians = {key: _WeightedMedian(v) for key, v in values.items()}
    draws: dict[str, list[float]] = {key: [] for key in values}
    rng = random.Random(seed)
    indices = range(g)
    every = max(1, resamples // 100)
    for done in range(1, resamples + 1):
        times = Counter(rng.choices(indices, k=g))
        for key, median in medians.items():
            draw = median.of_counts(times)
            if draw is not None:
                draws[key].append(draw)
        if progress is not None and (done % every == 0 or done == resamples):
            progress(done, resamples)
    out = {}
    for key, v in values.items():
        ordered = sorted(draws[key])
        pooled = [x for cluster in v for x in cluster]
        out[key] = Interval(
            _median(pooled), _quantile(ordered, 0.025), _quantile(ordered, 0.975), len(pooled)
        )
    return out


def paired_differences(
    baseline: Sequence[_Record], other: Sequence[_Record]
) -> dict[str, Interval]:
    """Each [`METRICS`][crapette.simulation.stats.METRICS] figure of ``other`` minus the baseline's,
    with a 95% cluster-robust interval computed shuffle by shuffle over the shuffles both played
    (the rulesets of a [`compare`][crapette.simulation.compare] run share their shuffles).

    The ``n`` of a difference is the number of deals of *each* side it compares (for a
    figure that counts only some deals, such as the decided ones, the smaller side's count):
    the differences of two runs of 200 deals have ``n == 200``, as each run's own figures.
    """
    base_groups = _clusters(baseline)
    other_groups = _clusters(other)
    shared = [k for k in base_groups if k in other_groups]
    out = {}
    for metric in METRICS:
        a_num, a_den = _sums(metric, (base_groups[k] for k in shared))
        b_num, b_den = _sums(metric, (other_groups[k] for k in shared))
        out[metric.key] = _difference(a_num, a_den, b_num, b_den, metric.rate)
    return out


def _difference(
    a_num: list[float], a_den: list[float], b_num: list[float], b_den: list[float], rate: bool
) -> Interval:
    """``sum(b_num)/sum(b_den) - sum(a_num)/sum(a_den)`` with a linearized cluster-robust
    normal interval over the shared clusters."""
    a_total, b_total = math.fsum(a_den), math.fsum(b_den)
    n = round(min(a_total, b_total))
    if a_total <= 0 or b_total <= 0:
        return Interval(NAN, NAN, NAN, n, rate)
    ra, rb = math.fsum(a_num) / a_total, math.fsum(b_num) / b_total
    value = rb - ra
    g = len(a_num)
    if g < 2:
        return Interval(value, NAN, NAN, n, rate)
    terms = [
        (bn - rb * bd) / b_total - (an - ra * ad) / a_total
        for an, ad, bn, bd in zip(a_num, a_den, b_num, b_den, strict=True)
    ]
    half = Z95 * math.sqrt(g / (g - 1) * math.fsum(t * t for t in terms))
    return Interval(value, value - half, value + half, n, rate)


def metric(key: str) -> Metric:
    """The [`Metric`][crapette.simulation.stats.Metric] named ``key``.

    Raises:
        KeyError: no such figure.
    """
    return _METRIC[key]
