"""Running a simulation: checking its input, playing its deals in batches (in this process,
in worker processes or as Ray tasks) and collecting the records in deal order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal

from crapette._quote import show
from crapette.bots import Bot, bot_names, get_bot, play_deal
from crapette.deal import Rng, new_game
from crapette.errors import BotError
from crapette.match import deal_seed
from crapette.moves import Action, Move
from crapette.outcome import outcome
from crapette.rules import Ruleset, as_ruleset
from crapette.simulation._botspec import BotMaker, resolve_bot, resolve_bots
from crapette.simulation._pool import GUARD_HINT, check_spawnable, in_spawn_bootstrap
from crapette.simulation._results import DealRecord, SimulationResult, summarize
from crapette.simulation.errors import PoolError, SimulationError, SimulationInterrupted
from crapette.simulation.jobs import run_jobs
from crapette.state import _NATIVE, GameState

__all__ = [
    "MAX_GAMES",
    "MAX_WORKERS",
    "BotLike",
    "compare",
    "play_numbered_deal",
    "simulate",
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

Seat = str | BotMaker
"""A bot as the runners pass it around: a [`get_bot`][crapette.bots.get_bot] name or a
``BotMaker``."""


def rules_of(rules: object) -> Ruleset:
    """A ruleset from a [`Ruleset`][crapette.Ruleset], a preset name or a rules string
    ([`crapette.rules.as_ruleset`][crapette.rules.as_ruleset]; ``None`` is refused here).

    Raises:
        SimulationError: neither a ruleset nor a string.
        InvalidRulesError: an unknown preset or a bad rules string.
    """
    if not isinstance(rules, (Ruleset, str)):
        raise SimulationError(f"rules must be a Ruleset or a string, not {show(rules)}")
    return as_ruleset(rules)


def label_of(rules: Ruleset | str, ruleset: Ruleset) -> str:
    """How results name a ruleset: the rules string as given (stripped), else the canonical
    string."""
    return rules.strip() if isinstance(rules, str) else ruleset.to_string()


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


def _seat_name(seat: Seat) -> str:
    return seat if isinstance(seat, str) else seat.name


def _build(seat: Seat, seed: int) -> Bot:
    return get_bot(seat, seed) if isinstance(seat, str) else seat(seed)


class _Tally:
    """The on-move hook of one deal: counts turns and the Stop! decisions."""

    __slots__ = ("calls", "turns", "violations")

    def __init__(self) -> None:
        self.turns = 1
        self.calls = 0
        self.violations = 0

    def __call__(self, before: GameState, move: Move, after: GameState) -> None:
        self.turns += after.turn_player != before.turn_player
        if before.stop is not None:
            self.violations += 1
            self.calls += move.action is Action.CALL_STOP


def play_numbered_deal(rules: Ruleset, bots: tuple[Seat, Seat], seed: int, deal: int) -> DealRecord:
    """Play deal number ``deal`` of a run: bot A is player 0 in even deals and player 1 in
    odd ones; ``seed`` is the deal seed. ``bots`` are names or ``BotMaker`` objects (see
    ``resolve_seats``). The deal is played by [`crapette.bots.play_deal`][crapette.bots.play_deal],
    the one game loop.

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
    tally = _Tally()
    try:
        state = play_deal(start, players, on_move=tally)
    except BotError as exc:
        raise BotError(f"{exc} in deal {deal} (seed {seed})", exc.bot, seed, exc.move, ()) from None
    result = outcome(state)
    assert result is not None
    return DealRecord(
        deal=deal,
        seed=seed,
        rules=rules.to_string(),
        player0=player0,
        starter=start.to_act,
        winner=result.winner,
        scores=result.scores,
        reason=result.reason,
        moves=state.moves_made,
        turns=tally.turns,
        stop_calls=tally.calls,
        violations=tally.violations,
    )


_Failure = tuple[str, str, str, int, Move | str]
"""Why a batch stopped: (kind ``"illegal"`` or ``"crash"``, message, bot, deal seed,
move)."""

_ChunkResult = tuple[list[DealRecord], _Failure | None]


# The bots the native engine plays itself (its batch loop): their names and policy codes.
_BATCH_POLICIES = {"random": 0, "greedy": 1}


def batch_policies(seats: tuple[Seat, Seat]) -> tuple[int, int] | None:
    """The native engine's policy codes of the two seats when it runs and both are its own
    bots by name (``random``, ``greedy``: it plays exactly their moves), else ``None``."""
    if _NATIVE is None:
        return None
    codes = []
    for seat in seats:
        if not isinstance(seat, str) or seat not in _BATCH_POLICIES:
            return None
        if get_bot(seat, 0).name != seat:  # a plug-in registered under the name: not ours
            return None
        codes.append(_BATCH_POLICIES[seat])
    return codes[0], codes[1]


def _batch_chunk(
    rules: Ruleset, policies: tuple[int, int], seed: int, deals: range
) -> list[DealRecord]:
    """The deals of a chunk played inside the native engine: the same seeds, bot seeds and
    records as ``play_numbered_deal`` (tests/test_simulate.py compares them)."""
    assert _NATIVE is not None
    jobs = []
    for deal in deals:
        dseed = deal_seed(seed, deal // 2)
        player0 = deal % 2
        jobs.append(
            (
                dseed & _MASK64,
                policies[player0],
                policies[1 - player0],
                _bot_seed(dseed, player0),
                _bot_seed(dseed, 1 - player0),
            )
        )
    rows = _NATIVE.play_deals(rules, jobs, False)
    text = rules.to_string()
    return [
        DealRecord(
            deal=deal,
            seed=deal_seed(seed, deal // 2),
            rules=text,
            player0=deal % 2,
            starter=row[0],
            winner=row[1],
            scores=(row[2], row[3]),
            reason=row[4],
            moves=row[5],
            turns=row[6],
            stop_calls=row[8],
            violations=row[7],
        )
        for deal, row in zip(deals, rows, strict=True)
    ]


_MASK64 = (1 << 64) - 1


def _play_chunk(
    rules_text: str,
    bots: tuple[Seat, Seat],
    seed: int,
    deals: range,
    batch: tuple[int, int] | None = None,
) -> _ChunkResult:
    """Play some deals of a run (a worker's task); stops at the first illegal move or
    exception and returns the records made and what went wrong. With ``batch`` (the
    policies of ``batch_policies``) the native engine plays them."""
    rules = Ruleset.from_string(rules_text)
    if batch is not None:
        try:
            return _batch_chunk(rules, batch, seed, deals), None
        except Exception as exc:
            first = deals[0] if len(deals) else 0
            message = f"deals from {first} (rules {rules_text}) raised {type(exc).__name__}: {exc}"
            return [], ("crash", message, "", deal_seed(seed, first // 2), "")
    records = []
    for deal in deals:
        dseed = deal_seed(seed, deal // 2)
        try:
            records.append(play_numbered_deal(rules, bots, dseed, deal))
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
    factories become ``BotMaker`` objects (checked to give a bot, and to be picklable when
    worker processes need them).

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


class _Collector:
    """Gathers the batches of a run as they finish: the records, the first failure, and
    the progress callback."""

    def __init__(self, games: int, progress: Progress | None) -> None:
        self.games = games
        self.progress = progress
        self.records: list[DealRecord] = []
        self.failure: _Failure | None = None

    def take(self, result: _ChunkResult) -> bool:
        """Keep a batch's records; ``False`` (stop the run) when the batch failed."""
        self.records.extend(result[0])
        if result[1] is not None:
            self.failure = result[1]
            return False
        if self.progress is not None:
            self.progress(len(self.records), self.games)
        return True

    def ordered(self) -> list[DealRecord]:
        """The records so far, in deal order."""
        return sorted(self.records, key=lambda r: r.deal)

    def raise_failure(self) -> None:
        """Raise the first failure, with the records made.

        Raises:
            BotError: a bot returned an illegal move.
            SimulationError: a deal raised.
        """
        if self.failure is None:
            return
        kind, message, bot, bad_seed, move = self.failure
        if kind == "illegal":
            raise BotError(message, bot, bad_seed, move, self.ordered())
        raise SimulationError(f"the run stopped: {message}", self.ordered())


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
    batch: bool = True,
) -> SimulationResult:
    """Play ``games`` deals between two bots and summarize them.

    Args:
        rules: a [`Ruleset`][crapette.Ruleset], a preset name or a rules string (the
            result's [`label`][crapette.simulation.SimulationResult] is this string).
        bots: bot A and bot B: ``"greedy,random"``, or a pair whose items are each a name
            of [`crapette.bots.get_bot`][crapette.bots.get_bot], a ``Bot`` instance (deep-copied for
            every deal, so every deal starts from its state), a bot class or function taking a seed
            (called with the deal's bot seed), or a zero-argument factory.
        games: how many deals (1 to 10**12).
        seed: the run seed (an integer from -2**63 to 2**64 - 1); the same seed gives the
            same records whatever ``workers`` and ``backend``.
        workers: processes (local backend; more than 1 uses worker processes started with
            the spawn method) or Ray tasks in flight (Ray backend); at most 1024.
        backend: ``"local"`` or ``"ray"`` (needs the ``crapette[ray]`` extra).
        ray_address: the address of an existing Ray cluster (``host:port`` or
            ``ray://host:port``); by default a local Ray is started (or the running one used).
        progress: called as ``progress(done, total)`` after every finished batch of deals.
        start: the number of the first deal (deals ``start`` to ``start + games - 1`` are
            played; even, to keep seat-swapped pairs whole): a run continued in batches
            gives the records one long run would, and ``simulate(rules, bots, 2, seed,
            start=record.deal // 2 * 2)`` replays the pair of deals a record belongs to.
        batch: when the native engine runs and both bots are the ``random`` or ``greedy``
            bot by name, play the deals inside the native engine (its batch loop: the same
            records, many times faster; ``SimulationResult.batch`` says so). ``False``
            plays every deal through the Python game loop.

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
    ruleset = rules_of(rules)
    games = check_positive("games", games, MAX_GAMES)
    workers = check_positive("workers", workers, MAX_WORKERS)
    seed = _check_seed(seed)
    start = _check_start(start)
    progress = check_progress(progress)
    if backend not in ("local", "ray"):
        raise SimulationError(f"unknown backend {backend!r}: expected local or ray")
    seats = resolve_seats(bots, workers, backend)
    if backend == "local" and workers > 1:
        problem = check_spawnable()
        if problem is not None:
            raise SimulationError(problem)
    text = ruleset.to_string()
    policies = batch_policies(seats) if batch else None
    jobs = ((text, seats, seed, chunk, policies) for chunk in _chunks(games, workers, start))
    run = _Collector(games, progress)
    try:
        if backend == "local" and workers > 1:
            workers = min(workers, -(-games // _chunk_size(games, workers)))
        run_jobs(_play_chunk, jobs, workers, run.take, backend=backend, ray_address=ray_address)
    except KeyboardInterrupt:
        raise SimulationInterrupted(run.ordered()) from None
    except PoolError as exc:
        raise SimulationError(f"the run stopped: {exc}", run.ordered()) from None
    run.raise_failure()
    records = run.ordered()
    names = (_seat_name(seats[0]), _seat_name(seats[1]))
    return SimulationResult(
        text,
        names,
        games,
        seed,
        tuple(records),
        summarize(records),
        label_of(rules, ruleset),
        batch=policies is not None,
    )


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
    shuffle by shuffle. Each result is labelled by the rules string given for it.

    Raises:
        SimulationError: no ruleset, or bad bots; and as
            [`simulate`][crapette.simulation.simulate].
        InvalidRulesError: an unknown preset or a bad rules string.
    """
    if isinstance(rulesets, (str, Ruleset)):
        rulesets = [rulesets]
    given = list(rulesets)
    for rules in given:
        rules_of(rules)
    if not given:
        raise SimulationError("compare needs at least one ruleset")
    resolve_seats(bots, options.get("workers", 1), options.get("backend", "local"))
    return [simulate(r, bots, games, seed, **options) for r in given]
