"""A sequential probability ratio test between two bots on seat-swapped pairs of deals.

Is bot A stronger than bot B? A fixed number of deals either wastes deals (the answer was
clear long before) or stops too early. A sequential test plays pairs of deals until the
evidence is enough in one direction or the other, with both error rates fixed in advance:
Wald's SPRT (A. Wald, "Sequential tests of statistical hypotheses", Annals of Mathematical
Statistics 16(2), 1945), in the generalized form that Stockfish's testing framework
(fishtest) uses for engine patches.

**The two hypotheses** are Elo differences of A over B: ``H0: elo = elo0`` against
``H1: elo = elo1`` (``elo0 < elo1``), on the logistic scale: a difference of ``elo`` points
means an expected score per deal of ``1 / (1 + 10 ** (-elo / 400))`` (a win scores 1, a
stalemate or the move cap 1/2, a loss 0).

**The pentanomial model.** The two deals of a shuffle (seats swapped) are not independent:
the cards favour one seat in both. So the unit of the test is the *pair*, whose score for A
is 0, 1/2, 1, 3/2 or 2 (two losses, a loss and a stalemate, ..., two wins): five outcomes
with unknown probabilities, counted in the *pentanomial* ``(n0, n1, n2, n3, n4)``. Nothing is
assumed about those probabilities beyond their mean. Under each hypothesis the most likely
distribution of the five outcomes whose mean pair score is the hypothesis's (the maximum of
the likelihood under that constraint, an empirical likelihood: A. B. Owen, "Empirical
likelihood ratio confidence intervals for a single functional", Biometrika 75(2), 1988)
gives the log-likelihood ratio

    LLR = sum over k of n_k * log(p1_k / p0_k),

with ``p_k = f_k / (1 + lam * (x_k - s))``: ``f_k`` the observed frequency of pair score
``x_k`` (as a fraction of 1), ``s`` the hypothesis's expected score and ``lam`` the number
that makes the ``p_k`` sum to one. (An outcome never seen gets the frequency ``1e-3`` of a
pair, so the ratio exists from the first pair.)

**Stopping.** After every batch of pairs the test compares the LLR with Wald's bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``: below the first it accepts H0,
above the second H1; in between it plays on, up to ``max_games`` deals (then it is
inconclusive). ``alpha`` is the chance of accepting H1 when H0 holds (a false alarm:
declaring A stronger by ``elo1`` when it is only ``elo0``), ``beta`` the chance of accepting
H0 when H1 holds (missing a real gain). Checking after batches rather than after every
pair only makes both errors slightly smaller.

The report also gives the Elo difference estimated from the pairs with a 95% interval (the
pair scores' mean and variance, mapped through the logistic curve): an estimate, not the
test, which only says which hypothesis the evidence favours.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from crapette._quote import show
from crapette.rules import Ruleset
from crapette.simulation._results import DealRecord
from crapette.simulation._run import (
    MAX_GAMES,
    Backend,
    BotLike,
    check_positive,
    resolve_seats,
    rules_of,
    simulate,
)
from crapette.simulation.errors import SimulationError
from crapette.simulation.stats import Z95

__all__ = [
    "PAIR_SCORES",
    "SprtResult",
    "elo_of_score",
    "llr",
    "pentanomial",
    "score_of_elo",
    "sprt",
    "wald_bounds",
]

PAIR_SCORES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The five outcomes of a pair of deals as bot A's mean score per deal (two losses, a loss
and a stalemate, a win and a loss or two stalemates, a win and a stalemate, two wins)."""

_UNSEEN = 1e-3
"""The count given to a pair outcome never seen (so every log-likelihood is finite)."""


def score_of_elo(elo: float) -> float:
    """The expected score per deal of a bot ``elo`` points stronger (logistic scale)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_of_score(score: float) -> float:
    """The Elo difference of an expected score per deal (``inf`` at 1, ``-inf`` at 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR: below the first accept H0, above the second accept H1."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def pentanomial(records: Sequence[DealRecord]) -> tuple[int, int, int, int, int]:
    """Count the pairs of deals (the two deals of one shuffle, seats swapped) by bot A's
    pair score: ``(n0, n1, n2, n3, n4)``, ``n_k`` the pairs that scored ``k / 2`` points.
    A shuffle whose pair is incomplete is not counted.

    Args:
        records: deal records of a run (bot A is the first bot).
    """
    halves: dict[int, list[int]] = {}
    for record in records:
        won = record.winner_bot
        half_points = 1 if won is None else (2 if won == 0 else 0)
        halves.setdefault(record.deal // 2, []).append(half_points)
    counts = [0] * 5
    for pair in halves.values():
        if len(pair) == 2:
            counts[pair[0] + pair[1]] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def _frequencies(counts: Sequence[int]) -> list[float]:
    """The outcome frequencies, an unseen outcome counted as ``_UNSEEN`` of a pair."""
    padded = [max(float(n), _UNSEEN) for n in counts]
    total = sum(padded)
    return [n / total for n in padded]


def _lagrange(freqs: Sequence[float], s: float) -> float:
    """The ``lam`` of the constrained maximum: ``sum f_k (x_k - s) / (1 + lam (x_k - s)) = 0``
    (by bisection: the sum falls as ``lam`` grows, over the interval where every
    ``1 + lam (x_k - s)`` stays positive)."""
    lo = -1.0 / (1.0 - s) + 1e-12
    hi = 1.0 / s - 1e-12
    for _ in range(200):
        mid = (lo + hi) / 2
        total = sum(
            f * (x - s) / (1 + mid * (x - s)) for f, x in zip(freqs, PAIR_SCORES, strict=True)
        )
        if total > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of ``H1: elo1`` against ``H0: elo0`` given a pentanomial
    (see the module documentation): positive when the pairs favour H1.

    Raises:
        SimulationError: not five non-negative counts, or a hypothesis that is not finite.
    """
    if len(counts) != 5 or any(
        isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in counts
    ):
        raise SimulationError(f"a pentanomial is five non-negative counts, not {show(counts)}")
    for label, elo in (("elo0", elo0), ("elo1", elo1)):
        if not math.isfinite(elo):
            raise SimulationError(f"{label} must be a finite number, not {show(elo)}")
    pairs = sum(counts)
    if pairs == 0:
        return 0.0
    freqs = _frequencies(counts)
    total = 0.0
    for elo, sign in ((elo1, 1.0), (elo0, -1.0)):
        s = score_of_elo(elo)
        lam = _lagrange(freqs, s)
        # log p_k = log f_k - log(1 + lam (x_k - s)); the log f_k cancel in the ratio
        terms = zip(counts, PAIR_SCORES, strict=True)
        total -= sign * sum(n * math.log1p(lam * (x - s)) for n, x in terms if n)
    return total


def _elo_estimate(counts: Sequence[int]) -> tuple[float, float, float]:
    """The Elo difference of the pairs' mean score, with a 95% interval (``nan`` bounds
    for fewer than two pairs)."""
    pairs = sum(counts)
    if pairs == 0:
        return math.nan, math.nan, math.nan
    mean = sum(n * x for n, x in zip(counts, PAIR_SCORES, strict=True)) / pairs
    if pairs < 2:
        return elo_of_score(mean), math.nan, math.nan
    var = sum(n * (x - mean) ** 2 for n, x in zip(counts, PAIR_SCORES, strict=True)) / (pairs - 1)
    half = Z95 * math.sqrt(var / pairs)
    low = elo_of_score(max(mean - half, 0.0))
    high = elo_of_score(min(mean + half, 1.0))
    return elo_of_score(mean), low, high


@attrs.frozen(slots=True)
class SprtResult:
    """What [`sprt`][crapette.simulation.sprt.sprt] found.

    Attributes:
        rules: the ruleset's canonical string.
        bots: bot A and bot B.
        seed: the run seed.
        elo0: the Elo difference of H0.
        elo1: the Elo difference of H1.
        alpha: the chance of accepting H1 when H0 holds.
        beta: the chance of accepting H0 when H1 holds.
        llr: the log-likelihood ratio when the test stopped.
        lower: Wald's lower bound (accept H0 at or below it).
        upper: Wald's upper bound (accept H1 at or above it).
        decision: ``"H1"`` (A is stronger by ``elo1``), ``"H0"`` (not stronger than
            ``elo0``) or ``None`` (``max_games`` reached first).
        counts: the pentanomial: pairs that scored 0, 1/2, 1, 3/2 and 2 points for A.
        elo: the Elo difference estimated from the pairs' mean score.
        elo_low: the lower bound of its 95% interval.
        elo_high: the upper bound.
        records: every deal played, in order.
        history: the LLR after each batch, as ``(deals played, llr)``.
    """

    rules: str
    bots: tuple[str, str]
    seed: int
    elo0: float
    elo1: float
    alpha: float
    beta: float
    llr: float
    lower: float
    upper: float
    decision: str | None
    counts: tuple[int, int, int, int, int]
    elo: float
    elo_low: float
    elo_high: float
    records: tuple[DealRecord, ...]
    history: tuple[tuple[int, float], ...]

    @property
    def games(self) -> int:
        """Deals played."""
        return len(self.records)

    @property
    def pairs(self) -> int:
        """Complete pairs counted."""
        return sum(self.counts)

    def summary(self) -> str:
        """A few readable lines: the verdict, the evidence and the error rates."""
        a, b = self.bots
        if self.decision == "H1":
            verdict = f"H1 accepted: {a} is stronger than {b} by about {self.elo1:g} Elo or more"
        elif self.decision == "H0":
            verdict = f"H0 accepted: {a} is not stronger than {b} by more than {self.elo0:g} Elo"
        else:
            verdict = "inconclusive: the deal limit came before either bound"
        n0, n1, n2, n3, n4 = self.counts
        low = "-" if math.isnan(self.elo_low) else f"{self.elo_low:+.0f}"
        high = "-" if math.isnan(self.elo_high) else f"{self.elo_high:+.0f}"
        return "\n".join(
            [
                f"SPRT {a} vs {b} on {self.rules}, seed {self.seed}: {verdict}",
                f"H0: elo = {self.elo0:g}, H1: elo = {self.elo1:g}; alpha {self.alpha:g} (false"
                f" H1), beta {self.beta:g} (false H0)",
                f"LLR {self.llr:+.2f} in [{self.lower:.2f}, {self.upper:.2f}] after"
                f" {self.games} deals ({self.pairs} pairs)",
                f"pairs scoring 0, 1/2, 1, 3/2, 2 points for {a}: {n0}, {n1}, {n2}, {n3}, {n4}",
                f"Elo {a} - {b}: {self.elo:+.0f} [{low}, {high}] (95%, from the pair scores)",
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready values (deal records included)."""

        def finite(x: float) -> float | None:
            return x if math.isfinite(x) else None

        return {
            "rules": self.rules,
            "bots": list(self.bots),
            "seed": self.seed,
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "llr": self.llr,
            "lower": self.lower,
            "upper": self.upper,
            "decision": self.decision,
            "pentanomial": list(self.counts),
            "elo": finite(self.elo),
            "elo_low": finite(self.elo_low),
            "elo_high": finite(self.elo_high),
            "games": self.games,
            "history": [list(h) for h in self.history],
            "records": [r.to_dict() for r in self.records],
        }


def _check_rate(label: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 0.5:
        raise SimulationError(f"{label} must be a number between 0 and 0.5, not {show(value)}")
    return float(value)


def sprt(
    rules: Ruleset | str,
    bots: str | Sequence[BotLike],
    seed: int = 0,
    *,
    elo0: float = 0.0,
    elo1: float = 50.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = 4000,
    batch: int = 20,
    workers: int = 1,
    backend: Backend = "local",
    ray_address: str | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> SprtResult:
    """Play seat-swapped pairs of deals between bot A and bot B until the sequential test
    decides (see the module documentation) or ``max_games`` deals are played.

    The deals are the simulator's ([`simulate`][crapette.simulation.simulate]: deal ``i``
    on the shuffle ``deal_seed(seed, i // 2)``, bot A as player ``i % 2``), played in
    batches of ``batch`` deals; the test looks at the evidence after each batch, so the
    same arguments give the same decision whatever ``workers``.

    Args:
        rules: a [`Ruleset`][crapette.Ruleset], a preset name or a rules string.
        bots: bot A and bot B, as [`simulate`][crapette.simulation.simulate] takes them.
        seed: the run seed.
        elo0: the Elo difference of A over B under H0.
        elo1: the Elo difference under H1 (above ``elo0``).
        alpha: the chance of accepting H1 when H0 holds (0 to 0.5).
        beta: the chance of accepting H0 when H1 holds (0 to 0.5).
        max_games: the most deals (even); the test is inconclusive if it gets there.
        batch: deals per batch (even, so that pairs stay whole).
        workers: processes (or Ray tasks) per batch.
        backend: ``"local"`` or ``"ray"``.
        ray_address: an existing Ray cluster.
        progress: called after every batch as ``progress(deals played, llr)``.

    Raises:
        SimulationError: bad hypotheses, error rates or counts, and as
            [`simulate`][crapette.simulation.simulate].
        UnknownBotError: an unknown bot string.
        InvalidRulesError: an unknown preset or a bad rules string.
    """
    ruleset = rules_of(rules)
    seats = resolve_seats(bots, workers, backend)
    for label, elo in (("elo0", elo0), ("elo1", elo1)):
        if isinstance(elo, bool) or not isinstance(elo, (int, float)) or not math.isfinite(elo):
            raise SimulationError(f"{label} must be a finite number, not {show(elo)}")
    if not elo0 < elo1:
        raise SimulationError(f"elo0 ({elo0:g}) must be below elo1 ({elo1:g})")
    alpha = _check_rate("alpha", alpha)
    beta = _check_rate("beta", beta)
    max_games = check_positive("max_games", max_games, MAX_GAMES)
    batch = check_positive("batch", batch, MAX_GAMES)
    if max_games % 2 or batch % 2:
        raise SimulationError(
            f"max_games ({max_games}) and batch ({batch}) must be even: the test counts pairs"
        )
    if progress is not None and not callable(progress):
        raise SimulationError(f"progress must be a function or None, not {show(progress)}")
    lower, upper = wald_bounds(alpha, beta)
    records: list[DealRecord] = []
    history: list[tuple[int, float]] = []
    value = 0.0
    decision: str | None = None
    names: tuple[str, str] = ("", "")
    while len(records) < max_games:
        size = min(batch, max_games - len(records))
        result = simulate(
            ruleset,
            seats,
            size,
            seed,
            workers=workers,
            backend=backend,
            ray_address=ray_address,
            start=len(records),
        )
        names = result.bots
        records.extend(result.records)
        value = llr(pentanomial(records), elo0, elo1)
        history.append((len(records), value))
        if progress is not None:
            progress(len(records), value)
        if value >= upper:
            decision = "H1"
            break
        if value <= lower:
            decision = "H0"
            break
    counts = pentanomial(records)
    elo, low, high = _elo_estimate(counts)
    return SprtResult(
        ruleset.to_string(),
        names,
        seed,
        float(elo0),
        float(elo1),
        alpha,
        beta,
        value,
        lower,
        upper,
        decision,
        counts,
        elo,
        low,
        high,
        tuple(records),
        tuple(history),
    )
