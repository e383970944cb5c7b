"""The simulator: many deals between two bots, on one machine or on a Ray cluster, with a
summary that answers rules questions with confidence intervals.

Reproducibility: deal ``i`` of a run with seed ``s`` uses the deal seed
[`crapette.match.deal_seed`][crapette.match.deal_seed] ``(s, i // 2)`` (the seeds a match deals
from) and the bots are rebuilt for every deal with seeds derived from it, so a deal's result depends
on nothing but the run seed and its number: the same seed gives the same records whatever the number
of workers or the backend.

Fairness: deals are played in pairs on the same shuffle with the seats swapped (bot A is
player 0 in even deals and player 1 in odd ones), so the luck of the cards and of starting
is shared equally.
"""

from __future__ import annotations

import contextlib
import importlib
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from math import sqrt
from typing import Any, Literal

import attrs

from crapette._quote import show
from crapette._version import BEHAVIOUR_VERSION
from crapette.bots import Bot, bot_names, get_bot
from crapette.bots import play_deal as bots_play_deal
from crapette.deal import Rng, new_game
from crapette.errors import BotError, SimulationError, SimulationInterrupted
from crapette.match import deal_seed
from crapette.moves import Move
from crapette.outcome import outcome
from crapette.rules import PRESETS, Ruleset
from crapette.simulation import stats
from crapette.simulation._botspec import BotMaker, resolve_bot, resolve_bots
from crapette.simulation._pool import (
    GUARD_HINT,
    PoolError,
    check_spawnable,
    in_spawn_bootstrap,
    run_pool,
)
from crapette.state import GameState

__all__ = [
    "MAX_GAMES",
    "MAX_WORKERS",
    "BotError",
    "BotLike",
    "BotMaker",
    "DealRecord",
    "Estimate",
    "SimulationError",
    "SimulationInterrupted",
    "SimulationResult",
    "Summary",
    "compare",
    "play_deal",
    "simulate",
    "summarize",
    "wilson",
]

Backend = Literal["local", "ray"]
Progress = Callable[[int, int], None]
"""A progress callback: ``progress(deals_done, deals_total)``."""

BotLike = str | Bot | Callable[[], Bot] | Callable[[int], Bot]
"""A bot as [`simulate`][crapette.simulation.simulate] takes it: a name for
[`get_bot`][crapette.bots.get_bot], a ``Bot`` instance (copied for every deal), a bot class or a
function of a seed, or a zero-argument factory (called for every deal)."""

MAX_GAMES = 10**12
"""The most deals one run may ask for (work is handed out lazily, so a huge count costs
nothing before the first deal)."""

MAX_WORKERS = 1024
"""The most worker processes or Ray tasks in flight."""

_Z95 = 1.959963984540054


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


def wilson(successes: int, trials: int) -> Estimate:
    """The proportion ``successes / trials`` with its 95% Wilson score interval."""
    if trials <= 0:
        return Estimate(successes, trials, 0.0, 0.0, 1.0)
    rate = successes / trials
    z2 = _Z95 * _Z95
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z95 * sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return Estimate(successes, trials, rate, max(0.0, centre - half), min(1.0, centre + half))


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

    def every(r: DealRecord) -> bool:
        return True

    def decided(r: DealRecord) -> bool:
        return r.winner is not None

    return Summary(
        games=n,
        wins=(wins[0], wins[1]),
        win_rate=(
            _paired(records, lambda r: r.winner_bot == 0, every),
            _paired(records, lambda r: r.winner_bot == 1, every),
        ),
        decided_share=(
            _paired(records, lambda r: r.winner_bot == 0, decided),
            _paired(records, lambda r: r.winner_bot == 1, decided),
        ),
        first_player=_paired(records, lambda r: r.winner == r.starter, decided),
        stalemate_rate=_paired(records, lambda r: r.winner is None, every),
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
        rules: the ruleset's canonical string.
        bots: the names of bot A and bot B.
        games: deals played.
        seed: the run seed.
        records: one [`DealRecord`][crapette.simulation.DealRecord] per deal, in deal order.
        summary: the [`Summary`][crapette.simulation.Summary] of the records.
    """

    rules: str
    bots: tuple[str, str]
    games: int
    seed: int
    records: tuple[DealRecord, ...]
    summary: Summary

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready values (records included)."""
        return {
            "version": BEHAVIOUR_VERSION,
            "rules": self.rules,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "summary": self.summary.to_dict(),
            "records": [r.to_dict() for r in self.records],
        }

    def stats(self, *, medians: bool = True) -> stats.Stats:
        """Every figure of the run with its 95% interval
        ([`analyse`][crapette.simulation.stats.analyse])."""
        return stats.analyse(self.records, medians=medians)


def parse_rules(rules: Ruleset | str) -> Ruleset:
    """A ruleset from a [`Ruleset`][crapette.Ruleset], a preset name or a rules string.

    Raises:
        InvalidRulesError: unknown preset or bad rules string.
    """
    if isinstance(rules, Ruleset):
        return rules
    if not isinstance(rules, str):
        raise SimulationError(f"rules must be a Ruleset or a string, not {show(rules)}")
    if rules in PRESETS:
        return Ruleset.preset(rules)
    return Ruleset.from_string(rules)


def parse_bots(bots: str | Sequence[str]) -> tuple[str, str]:
    """Two bot names from ``"greedy,random"`` or a pair of names; each is checked.

    Raises:
        SimulationError: not exactly two names.
        UnknownBotError: an unknown name (the message lists the known ones).
    """
    names = bots.split(",") if isinstance(bots, str) else list(bots)
    names = [str(n).strip() for n in names]
    if len(names) != 2 or not all(names):
        raise SimulationError(
            f"expected two bots (bot A and bot B, e.g. greedy,random), got {bots!r};"
            f" bots: {', '.join(bot_names())}"
        )
    for name in names:
        get_bot(name, 0)
    return (names[0], names[1])


def _bot_seed(seed: int, who: int) -> int:
    return Rng(seed ^ (0xB07 + who)).next64()


Seat = str | BotMaker
"""A bot as the runners pass it around: a [`get_bot`][crapette.bots.get_bot] name or a
[`BotMaker`][crapette.simulation.BotMaker]."""


def _seat_name(seat: Seat) -> str:
    return seat if isinstance(seat, str) else seat.name


def _build(seat: Seat, seed: int) -> Bot:
    return get_bot(seat, seed) if isinstance(seat, str) else seat(seed)


def play_deal(rules: Ruleset, bots: tuple[Seat, Seat], seed: int, deal: int) -> DealRecord:
    """Play deal number ``deal`` of a run: bot A is player 0 in even deals and player 1 in
    odd ones; ``seed`` is the deal seed. ``bots`` are names or
    [`BotMaker`][crapette.simulation.BotMaker] objects (see ``resolve_seats``).

    Raises:
        BotError: a bot returned an illegal move (``records`` is empty).
    """
    player0 = deal % 2
    seats = (bots[player0], bots[1 - player0])
    players = (
        _build(seats[0], _bot_seed(seed, player0)),
        _build(seats[1], _bot_seed(seed, 1 - player0)),
    )
    start = new_game(rules, seed=seed)
    turns = 1

    def count_turns(before: GameState, _move: Move, after: GameState) -> None:
        nonlocal turns
        turns += after.turn_player != before.turn_player

    try:
        state = bots_play_deal(start, players, on_move=count_turns)
    except BotError as exc:
        raise BotError(f"{exc} in deal {deal} (seed {seed})", exc.bot, seed, exc.move, ()) from None
    starter = start.to_act
    result = outcome(state)
    assert result is not None
    return DealRecord(
        deal=deal,
        seed=seed,
        rules=rules.to_string(),
        player0=player0,
        starter=starter,
        winner=result.winner,
        scores=result.scores,
        reason=result.reason,
        moves=state.moves_made,
        turns=turns,
    )


_Failure = tuple[str, str, str, int, Move | str]
"""Why a batch stopped: (kind ``"illegal"`` or ``"crash"``, message, bot, deal seed,
move)."""

_ChunkResult = tuple[list[DealRecord], _Failure | None]


def _play_chunk(rules_text: str, bots: tuple[Seat, Seat], seed: int, deals: range) -> _ChunkResult:
    """Play some deals of a run (a worker's task); stops at the first illegal move or
    exception and returns the records made and what went wrong."""
    rules = Ruleset.from_string(rules_text)
    records = []
    for deal in deals:
        dseed = deal_seed(seed, deal // 2)
        try:
            records.append(play_deal(rules, bots, dseed, deal))
        except BotError as exc:
            move = exc.move if isinstance(exc.move, Move) else repr(exc.move)
            return records, ("illegal", str(exc), exc.bot, exc.seed, move)
        except Exception as exc:
            message = (
                f"deal {deal} (seed {dseed}, rules {rules_text}) raised {type(exc).__name__}: {exc}"
            )
            return records, ("crash", message, "", dseed, "")
    return records, None


def _chunk_size(games: int, workers: int) -> int:
    return max(1, min(16, games // (workers * 4) or 1))


def _chunks(games: int, workers: int, start: int = 0) -> Iterator[range]:
    """The deal numbers ``start .. start + games - 1`` in batches, made lazily."""
    size = _chunk_size(games, workers)
    end = start + games
    return (range(i, min(i + size, end)) for i in range(start, end, size))


def check_positive(name: str, value: object, limit: int | None = None) -> int:
    """``value`` if it is a positive ``int`` (at most ``limit`` if given).

    Raises:
        SimulationError: it is not (the message names ``name``).
    """
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise SimulationError(f"{name} must be a positive integer, not {show(value)}")
    if limit is not None and value > limit:
        raise SimulationError(f"{name} must be at most {limit}, not {show(value)}")
    return value


def _check_start(start: object) -> int:
    if (
        isinstance(start, bool)
        or not isinstance(start, int)
        or not 0 <= start <= MAX_GAMES
        or start % 2
    ):
        raise SimulationError(
            f"start must be an even integer from 0 to {MAX_GAMES} (pairs stay whole),"
            f" not {show(start)}"
        )
    return start


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulationError(f"seed must be an integer, not {show(seed)}")
    if not -(2**63) <= seed < 2**64:
        raise SimulationError(f"seed must be between -2**63 and 2**64 - 1, not {show(seed)}")
    return seed


def check_progress(progress: object) -> Progress | None:
    """``progress`` if it is ``None`` or callable.

    Raises:
        SimulationError: it is neither.
    """
    if progress is not None and not callable(progress):
        raise SimulationError(
            f"progress must be a function progress(done, total) or None, not {show(progress)}"
        )
    return progress


def resolve_seats(bots: object, workers: int = 1, backend: str = "local") -> tuple[Seat, Seat]:
    """Bot A and bot B as the runners take them: names stay names; ``Bot`` instances and
    factories become [`BotMaker`][crapette.simulation.BotMaker] objects (checked to give a bot, and
    to be picklable when worker processes need them).

    Raises:
        SimulationError: not two bots, something that is not a bot, or an unpicklable
            factory for ``workers > 1`` on the local backend.
        UnknownBotError: an unknown bot name.
    """
    if bots is None:
        raise SimulationError(
            "bots is required: 'A,B' (e.g. 'greedy,random') or a pair of names, Bots or"
            f" factories; bots: {', '.join(bot_names())}"
        )
    if isinstance(bots, str):
        return parse_bots(bots)
    a, b = resolve_bots(bots, SimulationError)
    return (_seat(a, workers, backend), _seat(b, workers, backend))


def resolve_seat(bot: object, workers: int = 1, backend: str = "local") -> Seat:
    """One bot as the runners take it (see ``resolve_seats``), for tools that play many
    bots through [`simulate`][crapette.simulation.simulate], such as the ladder.

    Raises:
        SimulationError: not a bot, or an unpicklable factory for ``workers > 1`` on the
            local backend.
        UnknownBotError: an unknown bot name.
    """
    return _seat(resolve_bot(bot, SimulationError), workers, backend)


def _seat(maker: BotMaker, workers: int, backend: str) -> Seat:
    if maker.kind == "name":
        return str(maker.spec)
    if workers > 1 and backend == "local":
        maker.check_picklable(SimulationError)
    return maker


def simulate(
    rules: Ruleset | str,
    bots: str | Sequence[BotLike],
    games: int,
    seed: int,
    workers: int = 1,
    backend: Backend = "local",
    ray_address: str | None = None,
    progress: Progress | None = None,
    *,
    start: int = 0,
) -> SimulationResult:
    """Play ``games`` deals between two bots and summarize them.

    Args:
        rules: a [`Ruleset`][crapette.Ruleset], a preset name or a rules string.
        bots: bot A and bot B: ``"greedy,random"``, or a pair whose items are each a name
            of [`crapette.bots.get_bot`][crapette.bots.get_bot], a ``Bot`` instance (deep-copied for
            every deal, so every deal starts from its state), a bot class or function taking a seed
            (called with the deal's bot seed), or a zero-argument factory.
        games: how many deals (1 to [`MAX_GAMES`][crapette.simulation.MAX_GAMES]).
        seed: the run seed (an integer from -2**63 to 2**64 - 1); the same seed gives the
            same records whatever ``workers`` and ``backend``.
        workers: processes (local backend; more than 1 uses worker processes started with
            the spawn method) or Ray tasks in flight (Ray backend); at most
            [`MAX_WORKERS`][crapette.simulation.MAX_WORKERS].
        backend: ``"local"`` or ``"ray"`` (needs the ``crapette[ray]`` extra).
        ray_address: the address of an existing Ray cluster (``host:port`` or
            ``ray://host:port``); by default a local Ray is started (or the running one used).
        progress: called as ``progress(done, total)`` after every finished batch of deals.
        start: the number of the first deal (deals ``start`` to ``start + games - 1`` are
            played; even, to keep seat-swapped pairs whole): a run continued in batches
            gives the records one long run would.

    Raises:
        SimulationError: bad ``games``, ``workers``, ``backend``, ``seed``, ``bots`` or
            ``progress``, Ray missing or its cluster unreachable: raised before any deal is
            played. Also a worker process that died or failed to start, or a deal that
            raised: raised at once, ``records`` holding the deals finished.
        SimulationInterrupted: Ctrl-C; ``records`` holds the deals finished.
        UnknownBotError: an unknown bot name.
        InvalidRulesError: an unknown preset or a bad rules string.
        BotError: a bot returned an illegal move; its ``records`` holds the deals finished.
    """
    if in_spawn_bootstrap():
        raise SystemExit(f"crapette: a simulation started in a worker process; {GUARD_HINT}")
    ruleset = parse_rules(rules)
    games = check_positive("games", games, MAX_GAMES)
    workers = check_positive("workers", workers, MAX_WORKERS)
    seed = _check_seed(seed)
    start = _check_start(start)
    progress = check_progress(progress)
    if backend not in ("local", "ray"):
        raise SimulationError(f"unknown backend {backend!r}: expected local or ray")
    seats = resolve_seats(bots, workers, backend)
    names = (_seat_name(seats[0]), _seat_name(seats[1]))
    chunks = _chunks(games, workers, start)
    text = ruleset.to_string()
    if backend == "local" and workers > 1:
        problem = check_spawnable()
        if problem is not None:
            raise SimulationError(problem)
    collected: list[DealRecord] = []
    failures: list[_Failure] = []

    def take(result: _ChunkResult) -> bool:
        collected.extend(result[0])
        if result[1] is not None:
            failures.append(result[1])
            return False
        if progress is not None:
            progress(len(collected), games)
        return True

    def ordered() -> list[DealRecord]:
        return sorted(collected, key=lambda r: r.deal)

    try:
        if backend == "ray":
            _run_ray(text, seats, seed, chunks, workers, ray_address, take)
        elif workers == 1:
            for chunk in chunks:
                if not take(_play_chunk(text, seats, seed, chunk)):
                    break
        else:
            jobs = ((text, seats, seed, chunk) for chunk in chunks)
            size = _chunk_size(games, workers)
            run_pool(_play_chunk, jobs, min(workers, -(-games // size)), take)
    except KeyboardInterrupt:
        raise SimulationInterrupted(ordered()) from None
    except PoolError as exc:
        raise SimulationError(f"the run stopped: {exc}", ordered()) from None
    records = ordered()
    if failures:
        kind, message, bot, bad_seed, move = failures[0]
        if kind == "illegal":
            raise BotError(message, bot, bad_seed, move, records)
        raise SimulationError(f"the run stopped: {message}", records)
    return SimulationResult(text, names, games, seed, tuple(records), summarize(records))


def _import_ray() -> Any:
    """Ray, an optional dependency (typed ``Any`` so type checks pass without it).

    Raises:
        SimulationError: Ray is not installed.
    """
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SimulationError("the Ray backend needs Ray: pip install 'crapette[ray]'") from None


def check_ray_address(address: str) -> None:
    """Fail early when a Ray address is malformed or its host and port do not answer.

    Raises:
        SimulationError: the address is not ``host:port``, ``ray://host:port`` or ``auto``,
            or nothing answers there within 5 seconds.
    """
    if address == "auto":
        return
    target = address.split("://", 1)[-1].rstrip("/")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise SimulationError(
            f"bad Ray address {address!r}: expected host:port, ray://host:port or auto"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise SimulationError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None


@contextlib.contextmanager
def ray_session(address: str | None = None, num_cpus: int | None = None) -> Iterator[Any]:
    """Ray, ready to run tasks: the Ray already running in this process, else a cluster
    joined at ``address``, else a new local Ray with ``num_cpus`` CPUs. A Ray started here is
    shut down on exit. Yields the ``ray`` module.

    Raises:
        SimulationError: Ray is missing, the address is unreachable, or Ray fails to start.
    """
    ray = _import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address is not None:
        check_ray_address(address)
    try:
        if address is None:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    except Exception as exc:  # Ray raises many kinds (ConnectionError, RuntimeError...)
        raise SimulationError(f"cannot start or join Ray ({address or 'local'}): {exc}") from exc
    try:
        yield ray
    finally:
        ray.shutdown()


def _run_ray(
    text: str,
    seats: tuple[Seat, Seat],
    seed: int,
    chunks: Iterator[range],
    workers: int,
    address: str | None,
    take: Callable[[_ChunkResult], bool],
) -> None:
    """Run the batches as Ray tasks, at most ``2 * workers`` in flight (so the work is made
    lazily), waiting at most a second at a time; a lost task stops the run."""
    with ray_session(address, workers) as ray:
        task = ray.remote(_play_chunk)
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < 2 * workers:
                    chunk = next(chunks, None)
                    if chunk is None:
                        break
                    pending.append(task.remote(text, seats, seed, chunk))
                if not pending:
                    return
                ready, pending = ray.wait(pending, num_returns=1, timeout=1.0)
                if not ready:
                    continue
                try:
                    result: _ChunkResult = ray.get(ready[0], timeout=60)
                except Exception as exc:  # Ray's task, worker and timeout errors
                    raise PoolError(f"a Ray task failed: {type(exc).__name__}: {exc}") from None
                if not take(result):
                    return
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


def compare(
    rulesets: Iterable[Ruleset | str],
    bots: str | Sequence[BotLike],
    games: int,
    seed: int,
    **options: Any,
) -> list[SimulationResult]:
    """[`simulate`][crapette.simulation.simulate] the same bots, games and seed under several
    rulesets (all are checked before any deal is played); ``options`` go to
    [`simulate`][crapette.simulation.simulate]. The rulesets share their shuffles:
    [`paired_differences`][crapette.simulation.stats.paired_differences] compares two of them
    shuffle by shuffle.

    Raises:
        SimulationError: no ruleset, or bad bots; and as
            [`simulate`][crapette.simulation.simulate].
        InvalidRulesError: an unknown preset or a bad rules string.
    """
    if isinstance(rulesets, (str, Ruleset)):
        rulesets = [rulesets]
    parsed = [parse_rules(r) for r in rulesets]
    if not parsed:
        raise SimulationError("compare needs at least one ruleset")
    resolve_seats(bots, options.get("workers", 1), options.get("backend", "local"))
    return [simulate(r, bots, games, seed, **options) for r in parsed]
