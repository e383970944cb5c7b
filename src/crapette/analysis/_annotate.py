"""Annotated games: [`annotate`][crapette.analysis.annotate] judges every decision of a
record; [`AnnotatedRecord`][crapette.analysis.AnnotatedRecord] holds the judgments and
writes them as JSON (which
[`AnnotatedRecord.from_json`][crapette.analysis.AnnotatedRecord.from_json] reads back), as
a record with comments and as a readable report."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Literal

import attrs

from crapette import BEHAVIOUR_VERSION
from crapette._laws import violation
from crapette._quote import show
from crapette.analysis._analyse import DEEP_SAMPLES, DEFAULT_LIMIT, Limit, analyse_scores
from crapette.bots.base import call_helps
from crapette.bots.planner import HandMemory
from crapette.errors import InvalidArgumentError, NotationError
from crapette.moves import Action, Move
from crapette.records import GameRecord
from crapette.serialize import JSON_VERSION
from crapette.state import GameState
from crapette.views import PlayerView, observe

__all__ = [
    "ANNOTATION_VERSION",
    "THRESHOLDS",
    "AnnotatedRecord",
    "Decision",
    "Fault",
    "Judgment",
    "accuracy",
    "annotate",
    "annotate_many",
    "judge",
    "read_record",
]

ANNOTATION_VERSION: Final = 1
"""The version of the annotations' layout in an annotated record's JSON."""

Judgment = Literal["inaccuracy", "mistake", "blunder"]
"""How bad a move was, by the drop in win probability it cost."""

THRESHOLDS: Final[tuple[tuple[Judgment, float], ...]] = (
    ("blunder", 0.15),
    ("mistake", 0.10),
    ("inaccuracy", 0.05),
)
"""The judgments and the least drop in win probability (against the best line) that earns
each, worst first: the thresholds of lichess (0.1, 0.2 and 0.3 in "winning chances", which
run from -1 to 1, so 0.05, 0.10 and 0.15 in probability)."""

FaultKind = Literal["missed_compulsory", "missed_call", "false_call"]

ACCURACY_SCALE: Final = 0.10
"""The drop in win probability that brings a decision's accuracy to 1/e (37%)."""


def judge(loss: float, se: float = 0.0) -> Judgment | None:
    """The judgment of a decision that lost ``loss`` win probability against the best line
    (``None``: no judgment). A drop within two standard errors ``se`` of zero is not judged:
    the analysis cannot tell it from noise."""
    if not math.isfinite(loss) or loss <= 2 * se:
        return None
    for name, threshold in THRESHOLDS:
        if loss >= threshold:
            return name
    return None


def accuracy(losses: Iterable[float]) -> float:
    """A player's accuracy in percent from the win probability lost at each decision with
    a choice: the mean of ``100 * exp(-loss / 0.10)`` (100 for a best move, 61 for an
    inaccuracy of 0.05, 37 for a drop of 0.10, 22 for 0.15); ``nan`` without decisions."""
    values = [100.0 * math.exp(-max(loss, 0.0) / ACCURACY_SCALE) for loss in losses]
    return sum(values) / len(values) if values else math.nan


@attrs.frozen(slots=True)
class Fault:
    """A breach of the Stop! rules at a decision (callable Stop! rulesets only).

    Attributes:
        kind: ``"missed_compulsory"`` (the move broke a priority rule), ``"missed_call"``
            (a violation let stand when calling "Stop!" would have helped) or
            ``"false_call"`` (a call that does not help the caller: under the ``undo``
            penalty, after a violation that had already ended the offender's turn, a call
            only makes the offender's missed compulsory move for them).
        rule: the priority rule at stake (``"reserve"``, ``"foundation"``, ``"order"``,
            ``"filling"``), or ``None``.
        reason: the fault in words (the rule's own sentence for a missed compulsory move).
        remedy: the compulsory move(s) that were missed, in move notation.
    """

    kind: FaultKind
    rule: str | None
    reason: str
    remedy: tuple[str, ...] = ()

    def words(self) -> str:
        """The fault in one English sentence, as the report and the page's review say it:
        ``missed compulsory move (you had to play A♥-F): ...``."""
        if self.kind == "missed_compulsory":
            remedy = f" (you had to play {', '.join(self.remedy)})" if self.remedy else ""
            return f"missed compulsory move{remedy}: {self.reason}"
        if self.kind == "missed_call":
            return f"missed call: {self.reason}"
        return f"false call: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        """The fault as plain JSON-ready values."""
        return {
            "kind": self.kind,
            "rule": self.rule,
            "reason": self.reason,
            "remedy": list(self.remedy),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fault:
        """A fault from [`to_dict`][crapette.analysis.Fault.to_dict]'s form."""
        return cls(
            data["kind"], data.get("rule"), str(data["reason"]), tuple(data.get("remedy", ()))
        )


@attrs.frozen(slots=True)
class Decision:
    """One move of a record, judged.

    Attributes:
        ply: the move's number in the record (1 for the first move).
        player: who made it.
        move: the move, in move notation.
        forced: whether it was the only legal move (not analysed).
        win_before: the player's win probability before the move (the best line's), or
            ``None`` when not analysed.
        win_after: the win probability after the move (the best line that starts with
            it), or ``None``.
        win_se: the standard error of the best line's win probability.
        points_before: the expected deal points before the move.
        points_after: the expected deal points after it.
        loss: the win probability lost against the best line (0 for a best move).
        judgment: ``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or ``None``.
        best: the best line in move notation (empty when not analysed).
        fault: a breach of the Stop! rules, or ``None``.
    """

    ply: int
    player: int
    move: str
    forced: bool
    win_before: float | None = None
    win_after: float | None = None
    win_se: float | None = None
    points_before: float | None = None
    points_after: float | None = None
    loss: float = 0.0
    judgment: Judgment | None = None
    best: tuple[str, ...] = ()
    fault: Fault | None = None

    @property
    def judged(self) -> bool:
        """Whether the decision counts for accuracy (it had a choice and was analysed)."""
        return not self.forced and self.win_before is not None

    def to_dict(self) -> dict[str, Any]:
        """The decision as plain JSON-ready values."""
        return {
            "ply": self.ply,
            "player": self.player,
            "move": self.move,
            "forced": self.forced,
            "win_before": _round(self.win_before),
            "win_after": _round(self.win_after),
            "win_se": _round(self.win_se),
            "points_before": _round(self.points_before),
            "points_after": _round(self.points_after),
            "loss": _round(self.loss),
            "judgment": self.judgment,
            "best": list(self.best),
            "fault": self.fault.to_dict() if self.fault is not None else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        """A decision from [`to_dict`][crapette.analysis.Decision.to_dict]'s form."""
        fault = data.get("fault")
        return cls(
            ply=int(data["ply"]),
            player=int(data["player"]),
            move=str(data["move"]),
            forced=bool(data["forced"]),
            win_before=data.get("win_before"),
            win_after=data.get("win_after"),
            win_se=data.get("win_se"),
            points_before=data.get("points_before"),
            points_after=data.get("points_after"),
            loss=float(data.get("loss") or 0.0),
            judgment=data.get("judgment"),
            best=tuple(data.get("best", ())),
            fault=Fault.from_dict(fault) if fault else None,
        )


def _round(x: float | None) -> float | None:
    if x is None or not math.isfinite(x):
        return None
    return round(x, 5)


@attrs.frozen(slots=True)
class AnnotatedRecord:
    """A game record with a judgment of every move.

    Attributes:
        record: the record annotated.
        decisions: one [`Decision`][crapette.analysis.Decision] per move, in order.
        limit: the analysis limit used, as a string (``"rollouts=1536"``).
        seed: the analysis seed.
    """

    record: GameRecord
    decisions: tuple[Decision, ...]
    limit: str
    seed: int

    def accuracy(self, player: int) -> float:
        """The player's accuracy in percent (see [`accuracy`][crapette.analysis.accuracy])."""
        return accuracy(d.loss for d in self.decisions if d.player == player and d.judged)

    def count(self, player: int, judgment: Judgment) -> int:
        """How many of the player's moves earned ``judgment``."""
        return sum(1 for d in self.decisions if d.player == player and d.judgment == judgment)

    def faults(self, player: int) -> list[Decision]:
        """The player's decisions with a Stop! fault."""
        return [d for d in self.decisions if d.player == player and d.fault is not None]

    def to_dict(self) -> dict[str, Any]:
        """The JSON payload: a record document (``crapette.to_json`` of the record) with an
        ``"annotations"`` member (see docs/analysis.md)."""
        return {
            "format": "crapette",
            "version": JSON_VERSION,
            "behaviour": BEHAVIOUR_VERSION,
            "type": "record",
            **self.record.to_dict(),
            "annotations": {
                "version": ANNOTATION_VERSION,
                "limit": self.limit,
                "seed": self.seed,
                "thresholds": {name: value for name, value in THRESHOLDS},
                "accuracy": [_round(self.accuracy(0)), _round(self.accuracy(1))],
                "decisions": [d.to_dict() for d in self.decisions],
            },
        }

    def to_json(self, *, indent: int | None = None) -> str:
        """The annotated record as JSON: still a record document, which
        ``crapette.from_json`` reads as the plain record."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AnnotatedRecord:
        """An annotated record from its JSON payload.

        Raises:
            NotationError: not an annotated record document, or annotations of another
                version.
        """
        if not isinstance(data, Mapping) or data.get("type") != "record":
            raise NotationError("an annotated record is a JSON record document")
        notes = data.get("annotations")
        if not isinstance(notes, Mapping):
            raise NotationError('the record has no "annotations": it was not annotated')
        if notes.get("version") != ANNOTATION_VERSION:
            raise NotationError(
                f"annotations of version {show(notes.get('version'))}: this library reads"
                f" version {ANNOTATION_VERSION}"
            )
        record = GameRecord.from_dict(data)
        try:
            decisions = tuple(Decision.from_dict(d) for d in notes["decisions"])
            limit = str(notes["limit"])
            seed = int(notes["seed"])
        except (KeyError, TypeError, ValueError) as exc:
            raise NotationError(f"malformed annotations: {exc}") from None
        if len(decisions) != len(record.moves):
            raise NotationError(
                f"the annotations judge {len(decisions)} moves, the record has {len(record.moves)}"
            )
        return cls(record, decisions, limit, seed)

    @classmethod
    def from_json(cls, text: str) -> AnnotatedRecord:
        """An annotated record from [`to_json`][crapette.analysis.AnnotatedRecord.to_json]'s
        text.

        Raises:
            NotationError: not JSON, or not an annotated record document.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"not JSON: {exc}") from None
        return cls.from_dict(data)

    def commented(self) -> str:
        """The record's text form with a comment after every judged move or fault
        (``H3-H5 {mistake: 61% -> 49%; best R-F draw}``); ``parse_record`` reads it back as
        the plain record (comments are skipped)."""
        moves = []
        for text, d in zip(self.record.moves, self.decisions, strict=True):
            note = _note(d)
            moves.append(f"{text} {{{note}}}" if note else text)
        plain = str(self.record).split("\n\n", 1)[0]
        lines = [plain, f'[Annotator "crapette analysis {ANNOTATION_VERSION} {self.limit}"]', ""]
        line = ""
        for item in moves:
            if line and len(line) + 1 + len(item) > 79:
                lines.append(line)
                line = ""
            line = f"{line} {item}".strip()
        if line:
            lines.append(line)
        return "\n".join(lines) + "\n"

    def report(self) -> str:
        """A readable report: each player's accuracy and judgments, then every judged move
        and fault with the best line."""
        heads = self.record.headers
        names = [heads.get("Player0", "player 0"), heads.get("Player1", "player 1")]
        out = [
            f"Analysis of {heads.get('Rules', '?')} deal"
            + (f" seed {heads['Seed']}" if "Seed" in heads else "")
            + f" ({len(self.record.moves)} moves; result {heads.get('Result', '*')};"
            f" limit {self.limit}, seed {self.seed})",
            "",
        ]
        for p in (0, 1):
            judged = sum(1 for d in self.decisions if d.player == p and d.judged)
            acc = self.accuracy(p)
            shown = "-" if math.isnan(acc) else f"{acc:.0f}%"
            out.append(
                f"P{p} {names[p]}: accuracy {shown} over {judged} decisions;"
                f" {self.count(p, 'inaccuracy')} inaccuracies, {self.count(p, 'mistake')}"
                f" mistakes, {self.count(p, 'blunder')} blunders, {len(self.faults(p))}"
                " Stop! faults"
            )
        out.append("")
        for d in self.decisions:
            if d.judgment is None and d.fault is None:
                continue
            head = f"{d.ply:>4}. P{d.player} {d.move}"
            if d.judgment is not None:
                head += (
                    f"  {d.judgment}: win {_pct(d.win_before)} -> {_pct(d.win_after)}"
                    f" (-{d.loss * 100:.0f} points)"
                )
            out.append(head)
            if d.best:
                out.append(f"       best: {' '.join(d.best)}")
            if d.fault is not None:
                out.append(f"       {d.fault.words()}")
        return "\n".join(out).rstrip() + "\n"


def _pct(x: float | None) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{x * 100:.0f}%"


def _note(d: Decision) -> str:
    parts = []
    if d.judgment is not None:
        parts.append(f"{d.judgment}: {_pct(d.win_before)} -> {_pct(d.win_after)}")
        if d.best:
            parts.append(f"best {' '.join(d.best)}")
    if d.fault is not None:
        parts.append(d.fault.kind.replace("_", " "))
    return "; ".join(parts)


def fault_of(state: GameState, move: Move) -> Fault | None:
    """The Stop! fault of playing ``move`` in ``state``, if any (callable Stop! rulesets
    only: under ``stop=enforced`` nothing can be missed)."""
    if state.rules.stop == "enforced":
        return None
    pending = state.stop
    if pending is not None:
        helps = call_helps(state.rules, pending.offender, pending.resume)
        if move.action is Action.LET_STAND and helps:
            return Fault(
                "missed_call",
                None,
                f"your opponent's {pending.move} broke a priority rule: calling Stop! would"
                " have passed the turn to you",
            )
        if move.action is Action.CALL_STOP and not helps:
            return Fault(
                "false_call",
                None,
                f"{pending.move} had already ended your opponent's turn: the call only makes"
                " their missed compulsory move for them",
            )
        return None
    broken = violation(state, move)
    if broken is None:
        return None
    return Fault(
        "missed_compulsory", broken.kind, broken.reason, tuple(str(m) for m in broken.remedy)
    )


def _decision_seed(seed: int, ply: int) -> int:
    return (seed * 1_000_003 + ply * 7919 + 17) & ((1 << 64) - 1)


def annotate(
    record: GameRecord,
    limit: Limit | None = None,
    *,
    seed: int = 0,
    deep: int = DEEP_SAMPLES,
    progress: Callable[[int, int], None] | None = None,
) -> AnnotatedRecord:
    """Judge every decision of both players of ``record``.

    At each move with a choice, the position is analysed from the mover's view (with the
    hands that player can remember from the deal so far: never the hidden cards) by
    [`analyse`][crapette.analysis.analyse]; the move's value is the best line that starts
    with it, scored on the same samples as the best line, and the drop between them is
    judged by [`THRESHOLDS`][crapette.analysis.THRESHOLDS]. A move that continues the line
    the previous analysis found best, with no new card seen since, is that line's next move
    and is not analysed again. Under callable Stop! rules each move is also checked for a
    missed compulsory move, a missed call and a false call
    ([`Fault`][crapette.analysis.Fault]).

    Args:
        record: the deal to annotate.
        limit: the analysis limit per decision ([`DEFAULT_LIMIT`][crapette.analysis.DEFAULT_LIMIT]).
        seed: the analysis seed (each decision's analysis is seeded from it and the move
            number).
        deep: the samples of each analysis's second stage (see
            [`analyse`][crapette.analysis.analyse]; 0: the first stage alone).
        progress: called as ``progress(moves done, moves)`` after every move.

    Raises:
        NotationError: the record cannot be replayed (a bad start or move).
        IllegalMoveError: a move of the record is illegal.
        InvalidArgumentError: a bad limit or ``deep``.
    """
    if not isinstance(record, GameRecord):
        raise InvalidArgumentError(f"annotate() needs a GameRecord, not {show(record)}")
    limit = limit if limit is not None else DEFAULT_LIMIT
    if not isinstance(limit, Limit):
        raise InvalidArgumentError(f"limit must be a crapette.analysis.Limit, not {show(limit)}")
    if isinstance(deep, bool) or not isinstance(deep, int) or deep < 0:
        raise InvalidArgumentError(f"deep must be a non-negative integer, not {show(deep)}")
    steps = list(_steps(record))
    memories = (HandMemory(), HandMemory())
    for p in (0, 1):
        memories[p].see(observe(steps[0][0], p) if steps else observe(record.start_state(), p))
    decisions: list[Decision] = []
    pending: dict[int, _Pending] = {}
    total = len(steps)
    for ply, (state, move, after) in enumerate(steps, 1):
        p = state.to_act
        view = observe(state, p)
        memories[p].see(view)
        moves = view.legal_moves()
        fault = fault_of(state, move)
        if len(moves) == 1:
            decisions.append(Decision(ply, p, str(move), True, fault=fault))
            line = pending.get(p)
            if line is not None and line.rest and line.rest[0] == move:
                line.rest = line.rest[1:]  # a forced move of the line being followed
        else:
            decisions.append(
                _judge(
                    view,
                    move,
                    limit,
                    deep,
                    _decision_seed(seed, ply),
                    memories[p],
                    pending,
                    ply,
                    fault,
                )
            )
        if not _continues(state, move, after):
            pending.pop(p, None)
        for q in (0, 1):
            if q != p:
                memories[q].see(observe(after, q))
        if progress is not None:
            progress(ply, total)
    # the values as the JSON form holds them (rounded), so that it reads back equal
    rounded = tuple(Decision.from_dict(d.to_dict()) for d in decisions)
    return AnnotatedRecord(record, rounded, _limit_text(limit, deep), seed)


def _continues(state: GameState, move: Move, after: GameState) -> bool:
    """Whether the mover's line goes on after ``move`` with nothing new seen."""
    from crapette.bots.planner import _boundary

    return (
        state.stop is None
        and after.stop is None
        and after.to_act == state.to_act
        and not _boundary(state, move)
    )


@attrs.define(slots=True)
class _Pending:
    """The rest of the line a player's last analysis valued, while it may still be followed."""

    rest: list[Move]
    win: float
    win_se: float
    points: float


def _judge(
    view: PlayerView,
    move: Move,
    limit: Limit,
    deep: int,
    seed: int,
    memory: HandMemory,
    pending: dict[int, _Pending],
    ply: int,
    fault: Fault | None,
) -> Decision:
    """The decision of playing ``move`` in ``view`` (a position with a choice)."""
    p = view.to_act
    line = pending.get(p)
    if line is not None and line.rest and line.rest[0] == move:
        best = tuple(str(m) for m in line.rest)
        line.rest = line.rest[1:]
        return Decision(
            ply,
            p,
            str(move),
            False,
            line.win,
            line.win,
            line.win_se,
            line.points,
            line.points,
            0.0,
            None,
            best,
            fault,
        )
    _, scores, keep = analyse_scores(
        view, limit, seed=seed, memory=memory, include=(move,), deep=deep
    )
    top = max(
        range(len(scores)),
        key=lambda i: (scores[i].alive or scores[i].exact is not None, scores[i].key(), -i),
    )
    best_score = scores[top]
    best = tuple(str(m) for m in best_score.line)
    win, se, points = best_score.mean_win, best_score.win_se, best_score.mean_points
    if best_score.line[0] == move:
        pending[p] = _Pending(list(best_score.line[1:]), win, se, points)
        return Decision(
            ply, p, str(move), False, win, win, se, points, points, 0.0, None, best, fault
        )
    mine = [scores[i] for i in keep if scores[i].n or scores[i].exact is not None]
    if not mine:  # the limit allowed no sample of the move's lines
        pending.pop(p, None)
        return Decision(
            ply, p, str(move), False, win, None, se, points, None, 0.0, None, best, fault
        )
    chosen = max(mine, key=lambda s: s.key())
    pending[p] = _Pending(list(chosen.line[1:]), chosen.mean_win, chosen.win_se, chosen.mean_points)
    drop, drop_se = best_score.difference(chosen)
    loss = max(0.0, drop) if math.isfinite(drop) else 0.0
    verdict = judge(loss, drop_se if math.isfinite(drop_se) else 0.0)
    return Decision(
        ply,
        p,
        str(move),
        False,
        win,
        chosen.mean_win,
        se,
        points,
        chosen.mean_points,
        loss,
        verdict,
        best,
        fault,
    )


def _limit_text(limit: Limit, deep: int) -> str:
    """The limit as the annotations write it: ``rollouts=1536,deep=32``."""
    parts = []
    for name in ("rollouts", "positions", "time"):
        value = getattr(limit, name)
        if value is not None:
            parts.append(f"{name}={value:g}" if isinstance(value, float) else f"{name}={value}")
    parts.append(f"deep={deep}")
    return ",".join(parts)


def _steps(record: GameRecord) -> Iterator[tuple[GameState, Move, GameState]]:
    """Each move of the record with the positions before and after it."""
    walk = record.replay()
    before, _ = next(walk)
    for after, move in walk:
        assert move is not None
        yield before, move, after
        before = after


def read_record(text: str) -> GameRecord:
    """A record from a file's text: the JSON document or the text form.

    Raises:
        NotationError: neither form.
    """
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return GameRecord.from_json(text)
    from crapette.records import parse_record

    return parse_record(text)


def _annotate_job(
    text: str,
    rollouts: int | None,
    positions: int | None,
    seconds: float | None,
    seed: int,
    deep: int,
) -> str:
    """A worker's task: annotate one record (its JSON form), answer the annotated JSON."""
    record = GameRecord.from_json(text)
    limit = Limit(rollouts=rollouts, positions=positions, time=seconds)
    return annotate(record, limit, seed=seed, deep=deep).to_json()


def annotate_many(
    records: Sequence[GameRecord],
    limit: Limit | None = None,
    *,
    seed: int = 0,
    deep: int = DEEP_SAMPLES,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[AnnotatedRecord]:
    """[`annotate`][crapette.analysis.annotate] many records, in worker processes (the
    simulator's pool, ``workers > 1``) or as Ray tasks (``backend="ray"``); the results
    are in the records' order and equal one process's.

    Args:
        records: the records.
        limit: the analysis limit per decision.
        seed: the analysis seed (the same for every record).
        deep: the samples of each analysis's second stage.
        workers: processes, or Ray tasks in flight.
        backend: ``"local"`` or ``"ray"`` (needs ``crapette[ray]``).
        ray_address: an existing Ray cluster (``None``: a local Ray).
        progress: called as ``progress(records done, records)`` after each record.

    Raises:
        InvalidArgumentError: bad ``workers`` or ``backend``.
        SimulationError: a worker failed (its message names the exception).
    """
    from crapette.simulation.errors import PoolError, SimulationError
    from crapette.simulation.jobs import run_jobs

    limit = limit if limit is not None else DEFAULT_LIMIT
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 1024:
        raise InvalidArgumentError(
            f"workers must be an integer from 1 to 1024, not {show(workers)}"
        )
    if backend not in ("local", "ray"):
        raise InvalidArgumentError(f"unknown backend {show(backend)}: expected local or ray")
    items = list(records)
    total = len(items)
    if backend == "local" and workers == 1:
        out = []
        for k, record in enumerate(items, 1):
            out.append(annotate(record, limit, seed=seed, deep=deep))
            if progress is not None:
                progress(k, total)
        return out
    jobs = iter(
        [
            (k, record.to_json(), limit.rollouts, limit.positions, limit.time, seed, deep)
            for k, record in enumerate(items)
        ]
    )
    results: dict[int, AnnotatedRecord] = {}

    def take(result: tuple[int, str]) -> bool:
        k, text = result
        results[k] = AnnotatedRecord.from_json(text)
        if progress is not None:
            progress(len(results), total)
        return True

    try:
        if backend == "local":
            workers = min(workers, max(total, 1))
        run_jobs(_numbered_job, jobs, workers, take, backend=backend, ray_address=ray_address)
    except PoolError as exc:
        raise SimulationError(f"the analysis stopped: {exc}") from None
    return [results[k] for k in range(total)]


def _numbered_job(
    k: int,
    text: str,
    rollouts: int | None,
    positions: int | None,
    seconds: float | None,
    seed: int,
    deep: int,
) -> tuple[int, str]:
    return k, _annotate_job(text, rollouts, positions, seconds, seed, deep)
