"""What a run gives back: one [`DealRecord`][crapette.simulation.DealRecord] per deal, their
[`Summary`][crapette.simulation.Summary] and the run's
[`SimulationResult`][crapette.simulation.SimulationResult]."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from crapette import BEHAVIOUR_VERSION
from crapette.simulation import stats

__all__ = ["DealRecord", "Estimate", "SimulationResult", "Summary", "summarize"]


@attrs.frozen(slots=True)
class DealRecord:
    """The result of one deal.

    Attributes:
        deal: the deal's number in the run (0-based).
        seed: the deal seed (``crapette.new_game(rules, seed=seed)`` replays the shuffle).
        rules: the ruleset's canonical string.
        player0: which bot sat as player 0: 0 for bot A (the first named), 1 for bot B.
        starter: the player (0 or 1) who made the first move.
        winner: the winning player, or ``None`` (stalemate or move cap).
        scores: the players' scores (player 0, player 1).
        reason: ``"win"``, ``"stalemate"`` or ``"move_cap"``.
        moves: moves applied (Stop! decisions included).
        turns: turns played.
        stop_calls: the "Stop!" calls made (a player called it on the opponent's
            violation).
        violations: the violations a "Stop!" could be called on (every Stop! decision,
            called or let stand); always 0 under ``stop=enforced``.
    """

    deal: int
    seed: int
    rules: str
    player0: int
    starter: int
    winner: int | None
    scores: tuple[int, int]
    reason: str
    moves: int
    turns: int
    stop_calls: int = 0
    violations: int = 0

    @property
    def winner_bot(self) -> int | None:
        """The winning bot (0 for bot A, 1 for bot B), or ``None``."""
        return None if self.winner is None else self.winner ^ self.player0

    def bot_scores(self) -> tuple[int, int]:
        """The scores of bot A and bot B."""
        if self.player0 == 0:
            return self.scores
        return (self.scores[1], self.scores[0])

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON-ready values."""
        return {
            "deal": self.deal,
            "seed": self.seed,
            "rules": self.rules,
            "player0": self.player0,
            "starter": self.starter,
            "winner": self.winner,
            "winner_bot": self.winner_bot,
            "score0": self.scores[0],
            "score1": self.scores[1],
            "reason": self.reason,
            "moves": self.moves,
            "turns": self.turns,
            "stop_calls": self.stop_calls,
            "violations": self.violations,
        }


@attrs.frozen(slots=True)
class Estimate:
    """A proportion with its 95% interval: a Wilson score interval (in a
    [`Summary`][crapette.simulation.Summary], at the effective sample size of the seat-swapped
    pairs).

    Attributes:
        successes: the count.
        trials: out of how many (0 gives a rate of 0 and the interval 0..1).
        rate: ``successes / trials``.
        low: the lower bound of the 95% interval.
        high: the upper bound.
    """

    successes: int
    trials: int
    rate: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{100 * self.rate:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"

    def to_dict(self) -> dict[str, Any]:
        """The estimate as plain JSON-ready values."""
        return attrs.asdict(self)


def wilson_estimate(successes: int, trials: int) -> Estimate:
    """The proportion ``successes / trials`` with its plain 95% Wilson score interval
    ([`wilson_interval`][crapette.simulation.stats.wilson_interval])."""
    if trials <= 0:
        return Estimate(successes, trials, 0.0, 0.0, 1.0)
    low, high = stats.wilson_interval(successes, trials)
    return Estimate(successes, trials, successes / trials, low, high)


@attrs.frozen(slots=True)
class Summary:
    """What a run says, in brief ([`analyse`][crapette.simulation.stats.analyse] gives every figure
    with an interval and the medians).

    The intervals are 95% Wilson intervals with the effective sample size of the design:
    the two deals of a seat-swapped pair share a shuffle and are analysed as a pair (see
    [`crapette.simulation.stats`][crapette.simulation.stats]).

    Attributes:
        games: deals played.
        wins: deals won by bot A and by bot B.
        win_rate: each bot's wins over all deals (stalemates count as not won).
        decided_share: each bot's share of the decided deals (deals with a winner).
        first_player: the starter's share of the decided deals (0.5 means no advantage).
        stalemate_rate: deals without a winner (stalemates and move caps) over all deals.
        move_caps: deals ended by the move cap.
        mean_moves: mean deal length in moves, move-capped deals left out.
        mean_turns: mean deal length in turns, move-capped deals left out.
        mean_scores: each bot's mean score per deal, move-capped deals left out.
        mean_margin: the mean of bot A's score minus bot B's, move-capped deals left out.
    """

    games: int
    wins: tuple[int, int]
    win_rate: tuple[Estimate, Estimate]
    decided_share: tuple[Estimate, Estimate]
    first_player: Estimate
    stalemate_rate: Estimate
    move_caps: int
    mean_moves: float
    mean_turns: float
    mean_scores: tuple[float, float]
    mean_margin: float

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-ready values."""
        return attrs.asdict(self, value_serializer=_plain)


def _plain(_inst: object, _field: object, value: object) -> object:
    if isinstance(value, tuple):
        return list(value)
    return value


def _paired(
    records: Sequence[DealRecord],
    hit: Callable[[DealRecord], bool],
    counted: Callable[[DealRecord], bool],
) -> Estimate:
    """A rate over the records with its pair-aware Wilson interval."""
    groups: dict[int, list[int]] = {}
    for r in records:
        cell = groups.setdefault(r.seed, [0, 0])
        if counted(r):
            cell[0] += hit(r)
            cell[1] += 1
    num = [float(a) for a, _ in groups.values()]
    den = [float(b) for _, b in groups.values()]
    interval = stats.ratio_interval(num, den, rate=True)
    successes, trials = int(sum(num)), int(sum(den))
    if trials == 0:
        return Estimate(0, 0, 0.0, 0.0, 1.0)
    return Estimate(successes, trials, successes / trials, interval.low, interval.high)


def _every(r: DealRecord) -> bool:
    return True


def _decided(r: DealRecord) -> bool:
    return r.winner is not None


def summarize(records: Sequence[DealRecord]) -> Summary:
    """The [`Summary`][crapette.simulation.Summary] of some deal records."""
    n = len(records)
    wins = [0, 0]
    caps = 0
    scores = [0, 0]
    moves = turns = 0
    for r in records:
        won = r.winner_bot
        if won is not None:
            wins[won] += 1
        if r.reason == "move_cap":
            caps += 1
            continue
        a, b = r.bot_scores()
        scores[0] += a
        scores[1] += b
        moves += r.moves
        turns += r.turns
    div = max(n - caps, 1)
    return Summary(
        games=n,
        wins=(wins[0], wins[1]),
        win_rate=(
            _paired(records, lambda r: r.winner_bot == 0, _every),
            _paired(records, lambda r: r.winner_bot == 1, _every),
        ),
        decided_share=(
            _paired(records, lambda r: r.winner_bot == 0, _decided),
            _paired(records, lambda r: r.winner_bot == 1, _decided),
        ),
        first_player=_paired(records, lambda r: r.winner == r.starter, _decided),
        stalemate_rate=_paired(records, lambda r: r.winner is None, _every),
        move_caps=caps,
        mean_moves=moves / div,
        mean_turns=turns / div,
        mean_scores=(scores[0] / div, scores[1] / div),
        mean_margin=(scores[0] - scores[1]) / div,
    )


@attrs.frozen(slots=True)
class SimulationResult:
    """The records and summary of one run.

    Attributes:
        rules: the ruleset's canonical string (``Ruleset.from_string(rules)`` rebuilds it).
        bots: the names of bot A and bot B.
        games: deals played.
        seed: the run seed.
        records: one [`DealRecord`][crapette.simulation.DealRecord] per deal, in deal order.
        summary: the [`Summary`][crapette.simulation.Summary] of the records.
        label: how tables, plots and reports name the ruleset: the rules string as the user
            gave it (``"pagat(stop=card)"``, whose canonical string is
            ``"classic(stop=card)"``: the same rules), else the canonical string.
        batch: whether the native engine played the deals itself (its batch loop, for the
            ``random`` and ``greedy`` bots: the same records as the Python game loop).
    """

    rules: str
    bots: tuple[str, str]
    games: int
    seed: int
    records: tuple[DealRecord, ...]
    summary: Summary
    label: str = attrs.field(default=attrs.Factory(lambda self: self.rules, takes_self=True))
    batch: bool = attrs.field(default=False, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready values (records included)."""
        return {
            "version": BEHAVIOUR_VERSION,
            "rules": self.rules,
            "label": self.label,
            "bots": list(self.bots),
            "batch": self.batch,
            "games": self.games,
            "seed": self.seed,
            "summary": self.summary.to_dict(),
            "records": [r.to_dict() for r in self.records],
        }

    def stats(self, *, medians: bool = True) -> stats.Stats:
        """Every figure of the run with its 95% interval
        ([`analyse`][crapette.simulation.stats.analyse])."""
        return stats.analyse(self.records, medians=medians)
