"""A rating ladder: a round robin between bots, played by the simulator, and
Bradley-Terry ratings on the Elo scale with bootstrap intervals.

Every pair of bots plays ``games`` deals with [`simulate`][crapette.simulation.simulate] (seats
swapped on each shuffle, the same run seed for every pairing). The ratings are the
Bradley-Terry model's, fitted by the MM algorithm (Hunter, "MM algorithms for generalized
Bradley-Terry models", Annals of Statistics 32, 2004) on the decided deals, and written on
the Elo scale: a bot rated 400 points above another is expected to win 10 of every 11
decided deals against it. The ratings are centred on a mean of 0. A virtual half win each
way for every pairing keeps the ratings finite when a bot wins every deal.

The 95% intervals come from a bootstrap over deal pairs: the two deals played on one
shuffle (seats swapped) are resampled together, within each pairing, and the model refitted;
the interval is the 2.5th to 97.5th percentile of a bot's rating. Stalemates and move caps
have no winner and do not count in the fit (they are reported apart).

When every resample gives a bot the same rating (a pairing won every time, or too few deals
to resample), the bootstrap cannot measure the uncertainty: the interval is then reported as
missing (``None``, ``-`` in the table), never as a zero-width interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from crapette._quote import show
from crapette.deal import Rng
from crapette.rules import Ruleset
from crapette.simulation._results import DealRecord, SimulationResult
from crapette.simulation._run import BotLike, check_positive, resolve_seat, rules_of, simulate
from crapette.simulation.errors import SimulationError

__all__ = ["Ladder", "Rating", "bradley_terry", "ladder"]

_ELO = 400.0 / math.log(10.0)
_PRIOR = 0.5

MAX_BOOTSTRAP = 100_000
"""The most bootstrap resamples a ladder takes (each one refits the ratings: 400 to 2000
give stable 95% bounds)."""


@attrs.frozen(slots=True)
class Rating:
    """One bot's place on the ladder.

    Attributes:
        bot: the bot string.
        rating: the Bradley-Terry rating on the Elo scale (mean 0 over the ladder).
        low: the lower bound of the 95% bootstrap interval (``None`` when the bootstrap
            cannot give one: see the module documentation).
        high: the upper bound (``None`` likewise).
        deals: deals played.
        wins: deals won.
        losses: deals lost.
        undecided: stalemates and move caps.
    """

    bot: str
    rating: float
    low: float | None
    high: float | None
    deals: int
    wins: int
    losses: int
    undecided: int

    def to_dict(self) -> dict[str, Any]:
        """The rating as plain JSON-ready values."""
        return attrs.asdict(self)


@attrs.frozen(slots=True)
class Ladder:
    """The result of [`ladder`][crapette.simulation.ladder.ladder].

    Attributes:
        rules: the ruleset's canonical string.
        bots: the bot strings, in the order given.
        games: deals per pairing.
        seed: the run seed.
        bootstrap: bootstrap resamples behind the intervals.
        ratings: one [`Rating`][crapette.simulation.ladder.Rating] per bot, best first.
        results: one [`SimulationResult`][crapette.simulation.SimulationResult] per
            pairing (bot ``i`` against bot ``j`` for ``i < j``, in order).
    """

    rules: str
    bots: tuple[str, ...]
    games: int
    seed: int
    bootstrap: int
    ratings: tuple[Rating, ...]
    results: tuple[SimulationResult, ...]

    def table(self) -> str:
        """The ladder as a plain-text table, best first."""
        rows = [
            f"{'#':>2}  {'bot':<28} {'rating':>7}  {'95% interval':>16}  "
            f"{'won':>5} {'lost':>5} {'undecided':>9}"
        ]
        missing = False
        for rank, r in enumerate(self.ratings, 1):
            if r.low is None or r.high is None:
                interval = "-"
                missing = self.bootstrap > 0
            else:
                interval = f"[{r.low:+.0f}, {r.high:+.0f}]"
            rows.append(
                f"{rank:>2}  {r.bot:<28} {r.rating:>+7.0f}  {interval:>16}  "
                f"{r.wins:>5} {r.losses:>5} {r.undecided:>9}"
            )
        if missing:
            rows.append("-: no interval (every resample gave the same rating): play more deals")
        return "\n".join(rows)

    def to_dict(self) -> dict[str, Any]:
        """The ladder as plain JSON-ready values (deal records included)."""
        return {
            "rules": self.rules,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "bootstrap": self.bootstrap,
            "ratings": [r.to_dict() for r in self.ratings],
            "pairings": [r.to_dict() for r in self.results],
        }


def bradley_terry(wins: Sequence[Sequence[float]], iterations: int = 500) -> list[float]:
    """Bradley-Terry ratings on the Elo scale (mean 0) from a win matrix.

    Args:
        wins: ``wins[i][j]`` is how often bot ``i`` beat bot ``j`` (a virtual half win
            each way is added for every pair that met, so every rating is finite).
        iterations: MM iterations (the fit stops earlier once it has converged).

    Returns:
        one rating per bot; a bot that met nobody gets 0.
    """
    n = len(wins)
    met = [[wins[i][j] + wins[j][i] > 0 for j in range(n)] for i in range(n)]
    w = [[wins[i][j] + (_PRIOR if met[i][j] else 0.0) for j in range(n)] for i in range(n)]
    games = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            total = sum(w[i])
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            new.append(total / denom if denom > 0 else strength[i])
        logs = [math.log(s) for s in new]
        mean = sum(logs) / n
        new = [math.exp(x - mean) for x in logs]
        done = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if done:
            break
    return [_ELO * math.log(s) for s in strength]


def _wins(
    n: int, pairs: Sequence[tuple[int, int]], records: Sequence[Sequence[DealRecord]]
) -> list[list[float]]:
    matrix = [[0.0] * n for _ in range(n)]
    for (i, j), deals in zip(pairs, records, strict=True):
        for record in deals:
            won = record.winner_bot
            if won == 0:
                matrix[i][j] += 1
            elif won == 1:
                matrix[j][i] += 1
    return matrix


def ladder(
    bots: Sequence[BotLike],
    rules: Ruleset | str = "classic",
    games: int = 40,
    seed: int = 0,
    *,
    bootstrap: int = 400,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Ladder:
    """Play a round robin between ``bots`` and rate them.

    Args:
        bots: at least two bots with distinct names: bot strings (see
            [`get_bot`][crapette.bots.get_bot]), ``Bot`` instances, bot classes or factories,
            as [`simulate`][crapette.simulation.simulate] takes them.
        rules: a [`Ruleset`][crapette.Ruleset], a preset name or a rules string.
        games: deals per pairing (positive; an even number keeps every shuffle's seat swap).
        seed: the run seed of every pairing.
        bootstrap: resamples of deal pairs behind the intervals, 0 to 100000 (0: no
            intervals, the bounds are ``None``).
        workers: processes per pairing (see [`simulate`][crapette.simulation.simulate]).
        progress: called as ``progress(done, total)`` while the ladder works: ``total`` is
            every deal of every pairing plus every bootstrap resample, ``done`` how many are
            finished (the deals first, then the resamples).

    Raises:
        SimulationError: fewer than two bots, a bot named twice, bad counts (a ``bootstrap``
            above 100000 included).
        UnknownBotError: an unknown bot string.
        InvalidRulesError: an unknown preset or a bad rules string.
    """
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise SimulationError(f"bots must be a sequence of bots, not {show(bots)}")
    # every bot checked before any deal is played; names stay names
    seats = [resolve_seat(b.strip() if isinstance(b, str) else b, workers) for b in bots]
    names = [s if isinstance(s, str) else s.name for s in seats]
    if len(names) < 2:
        raise SimulationError(f"a ladder needs at least two bots, got {list(bots)!r}")
    if len(set(names)) != len(names):
        raise SimulationError(f"a bot is named twice in {names!r}")
    ruleset = rules_of(rules)
    games = check_positive("games", games)
    _check_bootstrap(bootstrap)
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    total = len(pairs) * games + bootstrap

    def step(done: int) -> None:
        if progress is not None:
            progress(done, total)

    results = []
    for k, (i, j) in enumerate(pairs):

        def deals(done: int, _total: int, before: int = k * games) -> None:
            step(before + done)

        results.append(
            simulate(ruleset, (seats[i], seats[j]), games, seed, workers=workers, progress=deals)
        )
    records = [r.records for r in results]
    n = len(names)
    ratings = bradley_terry(_wins(n, pairs, records))
    lows, highs = _bootstrap(
        n, pairs, records, bootstrap, seed, lambda done: step(len(pairs) * games + done)
    )
    table = [
        Rating(name, ratings[k], lows[k], highs[k], *_tally(k, pairs, records))
        for k, name in enumerate(names)
    ]
    table.sort(key=lambda r: -r.rating)
    return Ladder(
        ruleset.to_string(), tuple(names), games, seed, bootstrap, tuple(table), tuple(results)
    )


def _check_bootstrap(bootstrap: object) -> None:
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 0:
        raise SimulationError(f"bootstrap must be a non-negative integer, not {show(bootstrap)}")
    if bootstrap > MAX_BOOTSTRAP:
        raise SimulationError(
            f"bootstrap must be at most {MAX_BOOTSTRAP} resamples, not {bootstrap}: each"
            " resample refits the ratings, and 400 to 2000 give stable 95% bounds"
        )


def _tally(
    k: int, pairs: Sequence[tuple[int, int]], records: Sequence[Sequence[DealRecord]]
) -> tuple[int, int, int, int]:
    """Bot ``k``'s deals, wins, losses and undecided deals over its pairings."""
    won = lost = undecided = deals = 0
    for (i, j), deals_ij in zip(pairs, records, strict=True):
        if k not in (i, j):
            continue
        side = 0 if k == i else 1
        for record in deals_ij:
            deals += 1
            if record.winner_bot is None:
                undecided += 1
            elif record.winner_bot == side:
                won += 1
            else:
                lost += 1
    return deals, won, lost, undecided


def _bootstrap(
    n: int,
    pairs: Sequence[tuple[int, int]],
    records: Sequence[Sequence[DealRecord]],
    resamples: int,
    seed: int,
    step: Callable[[int], None],
) -> tuple[list[float | None], list[float | None]]:
    """Percentile intervals of the ratings, resampling deal pairs within each pairing;
    no bounds for a bot whose resampled ratings do not vary (nor without resamples)."""
    if resamples == 0:
        return [None] * n, [None] * n
    rng = Rng(seed ^ 0x1ADDE5)
    grouped: list[list[list[DealRecord]]] = []
    for deals in records:
        by_shuffle: dict[int, list[DealRecord]] = {}
        for record in deals:
            by_shuffle.setdefault(record.deal // 2, []).append(record)
        grouped.append(list(by_shuffle.values()))
    samples: list[list[float]] = [[] for _ in range(n)]
    every = max(1, resamples // 100)
    for done in range(1, resamples + 1):
        drawn: list[list[DealRecord]] = []
        for groups in grouped:
            picked: list[DealRecord] = []
            for _ in range(len(groups)):
                picked.extend(groups[rng.below(len(groups))])
            drawn.append(picked)
        for k, value in enumerate(bradley_terry(_wins(n, pairs, drawn), iterations=200)):
            samples[k].append(value)
        if done % every == 0 or done == resamples:
            step(done)
    lows: list[float | None] = []
    highs: list[float | None] = []
    for values in samples:
        values.sort()
        low = values[int(0.025 * (len(values) - 1))]
        high = values[math.ceil(0.975 * (len(values) - 1))]
        spread = not math.isclose(low, high, abs_tol=1e-9)
        lows.append(low if spread else None)
        highs.append(high if spread else None)
    return lows, highs
