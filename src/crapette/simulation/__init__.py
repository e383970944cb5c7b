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
import multiprocessing
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from math import sqrt
from typing import Any, Literal

import attrs

from crapette._version import BEHAVIOUR_VERSION
from crapette.bots import bot_names, get_bot
from crapette.bots import play_deal as bots_play_deal
from crapette.deal import Rng, new_game
from crapette.errors import BotError, SimulationError
from crapette.match import deal_seed
from crapette.moves import Move
from crapette.outcome import outcome
from crapette.rules import PRESETS, Ruleset
from crapette.state import GameState

__all__ = [
    "BotError",
    "DealRecord",
    "Estimate",
    "SimulationError",
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
    """A proportion with its 95% Wilson score interval.

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
    """What a run says.

    Attributes:
        games: deals played.
        wins: deals won by bot A and by bot B.
        win_rate: each bot's wins over all deals (stalemates count as not won).
        decided_share: each bot's share of the decided deals (deals with a winner).
        first_player: the starter's share of the decided deals (0.5 means no advantage).
        stalemate_rate: deals without a winner (stalemates and move caps) over all deals.
        move_caps: deals ended by the move cap.
        mean_moves: mean deal length in moves.
        mean_turns: mean deal length in turns.
        mean_scores: each bot's mean score per deal.
        mean_margin: the mean of bot A's score minus bot B's.
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


def summarize(records: Sequence[DealRecord]) -> Summary:
    """The [`Summary`][crapette.simulation.Summary] of some deal records."""
    n = len(records)
    wins = [0, 0]
    starter_wins = 0
    caps = 0
    scores = [0, 0]
    for r in records:
        won = r.winner_bot
        if won is not None:
            wins[won] += 1
            starter_wins += r.winner == r.starter
        caps += r.reason == "move_cap"
        a, b = r.bot_scores()
        scores[0] += a
        scores[1] += b
    decided = wins[0] + wins[1]
    div = max(n, 1)
    return Summary(
        games=n,
        wins=(wins[0], wins[1]),
        win_rate=(wilson(wins[0], n), wilson(wins[1], n)),
        decided_share=(wilson(wins[0], decided), wilson(wins[1], decided)),
        first_player=wilson(starter_wins, decided),
        stalemate_rate=wilson(n - decided, n),
        move_caps=caps,
        mean_moves=sum(r.moves for r in records) / div,
        mean_turns=sum(r.turns for r in records) / div,
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


def parse_rules(rules: Ruleset | str) -> Ruleset:
    """A ruleset from a [`Ruleset`][crapette.Ruleset], a preset name or a rules string.

    Raises:
        InvalidRulesError: unknown preset or bad rules string.
    """
    if isinstance(rules, Ruleset):
        return rules
    if not isinstance(rules, str):
        raise SimulationError(f"rules must be a Ruleset or a string, not {rules!r}")
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


def play_deal(rules: Ruleset, bots: tuple[str, str], seed: int, deal: int) -> DealRecord:
    """Play deal number ``deal`` of a run: bot A is player 0 in even deals and player 1 in
    odd ones; ``seed`` is the deal seed.

    Raises:
        BotError: a bot returned an illegal move (``records`` is empty).
    """
    player0 = deal % 2
    names = (bots[player0], bots[1 - player0])
    players = (
        get_bot(names[0], _bot_seed(seed, player0)),
        get_bot(names[1], _bot_seed(seed, 1 - player0)),
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


_ChunkResult = tuple[list[DealRecord], tuple[str, str, int, Move | str] | None]


def _play_chunk(
    rules_text: str, bots: tuple[str, str], seed: int, deals: list[int]
) -> _ChunkResult:
    """Play some deals of a run (a worker's task); stops at the first illegal move and
    returns the records made and the error (message, bot, deal seed, move)."""
    rules = Ruleset.from_string(rules_text)
    records = []
    for deal in deals:
        try:
            records.append(play_deal(rules, bots, deal_seed(seed, deal // 2), deal))
        except BotError as exc:
            move = exc.move if isinstance(exc.move, Move) else repr(exc.move)
            return records, (str(exc), exc.bot, exc.seed, move)
    return records, None


def _chunks(games: int, workers: int) -> list[list[int]]:
    size = max(1, min(16, games // (workers * 4) or 1))
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]


def check_positive(name: str, value: object) -> int:
    """``value`` if it is a positive ``int``.

    Raises:
        SimulationError: it is not (the message names ``name``).
    """
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise SimulationError(f"{name} must be a positive integer, not {value!r}")
    return value


def simulate(
    rules: Ruleset | str,
    bots: str | Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    backend: Backend = "local",
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``games`` deals between two bots and summarize them.

    Args:
        rules: a [`Ruleset`][crapette.Ruleset], a preset name or a rules string.
        bots: bot A and bot B: ``"greedy,random"`` or ``("greedy", "random")`` (names of
            [`crapette.bots.get_bot`][crapette.bots.get_bot]).
        games: how many deals (positive).
        seed: the run seed (any ``int``); the same seed gives the same records whatever
            ``workers`` and ``backend``.
        workers: processes (local backend; more than 1 uses ``multiprocessing`` with the
            spawn method) or Ray tasks in flight (Ray backend).
        backend: ``"local"`` or ``"ray"`` (needs the ``crapette[ray]`` extra).
        ray_address: the address of an existing Ray cluster (``host:port`` or
            ``ray://host:port``); by default a local Ray is started (or the running one used).
        progress: called as ``progress(done, total)`` after every finished batch of deals.

    Raises:
        SimulationError: bad ``games``, ``workers``, ``backend`` or ``seed``, Ray missing or
            its cluster unreachable; raised before any deal is played.
        UnknownBotError: an unknown bot name.
        InvalidRulesError: an unknown preset or a bad rules string.
        BotError: a bot returned an illegal move; its ``records`` holds the deals finished.
    """
    ruleset = parse_rules(rules)
    names = parse_bots(bots)
    games = check_positive("games", games)
    workers = check_positive("workers", workers)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulationError(f"seed must be an integer, not {seed!r}")
    if backend not in ("local", "ray"):
        raise SimulationError(f"unknown backend {backend!r}: expected local or ray")
    chunks = _chunks(games, workers)
    text = ruleset.to_string()
    if backend == "ray":
        results = _run_ray(text, names, seed, chunks, workers, ray_address, progress, games)
    elif workers == 1:
        results = _run_serial(text, names, seed, chunks, progress, games)
    else:
        results = _run_pool(text, names, seed, chunks, workers, progress, games)
    records: list[DealRecord] = []
    error = None
    for chunk_records, chunk_error in results:
        records.extend(chunk_records)
        if chunk_error is not None and error is None:
            error = chunk_error
    records.sort(key=lambda r: r.deal)
    if error is not None:
        message, bot, bad_seed, move = error
        raise BotError(message, bot, bad_seed, move, records)
    return SimulationResult(text, names, games, seed, tuple(records), summarize(records))


def _run_serial(
    text: str,
    names: tuple[str, str],
    seed: int,
    chunks: list[list[int]],
    progress: Progress | None,
    games: int,
) -> list[_ChunkResult]:
    out = []
    done = 0
    for chunk in chunks:
        result = _play_chunk(text, names, seed, chunk)
        out.append(result)
        done += len(result[0])
        if progress is not None:
            progress(done, games)
        if result[1] is not None:
            break
    return out


def _run_pool(
    text: str,
    names: tuple[str, str],
    seed: int,
    chunks: list[list[int]],
    workers: int,
    progress: Progress | None,
    games: int,
) -> list[_ChunkResult]:
    out = []
    done = 0
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(workers, len(chunks))) as pool:
        args = [(text, names, seed, chunk) for chunk in chunks]
        for result in pool.imap_unordered(_star_chunk, args):
            out.append(result)
            done += len(result[0])
            if progress is not None:
                progress(done, games)
            if result[1] is not None:
                pool.terminate()
                break
    return out


def _star_chunk(args: tuple[str, tuple[str, str], int, list[int]]) -> _ChunkResult:
    return _play_chunk(*args)


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
    names: tuple[str, str],
    seed: int,
    chunks: list[list[int]],
    workers: int,
    address: str | None,
    progress: Progress | None,
    games: int,
) -> list[_ChunkResult]:
    with ray_session(address, workers) as ray:
        task = ray.remote(_play_chunk)
        pending = [task.remote(text, names, seed, chunk) for chunk in chunks]
        out: list[_ChunkResult] = []
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            result: _ChunkResult = ray.get(ready[0])
            out.append(result)
            done += len(result[0])
            if progress is not None:
                progress(done, games)
            if result[1] is not None:
                for ref in pending:
                    ray.cancel(ref)
                break
        return out


def compare(
    rulesets: Iterable[Ruleset | str],
    bots: str | Sequence[str],
    games: int,
    seed: int,
    **options: Any,
) -> list[SimulationResult]:
    """[`simulate`][crapette.simulation.simulate] the same bots, games and seed under several
    rulesets (all are checked before any deal is played); ``options`` go to
    [`simulate`][crapette.simulation.simulate]."""
    parsed = [parse_rules(r) for r in rulesets]
    if not parsed:
        raise SimulationError("compare needs at least one ruleset")
    parse_bots(bots)
    return [simulate(r, bots, games, seed, **options) for r in parsed]
