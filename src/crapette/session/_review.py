"""The review of a finished deal: every move of both players judged by the engine
([`annotate`][crapette.analysis.annotate], each move from its mover's own view), with the
board before each move as the reviewing seat saw it, the best line, and each Stop! fault
as data (a reason code and its parameters) that a page says in its own language and draws
on its table."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import attrs

from crapette import apply_unchecked
from crapette._laws import violation
from crapette.analysis import AnnotatedRecord, Fault, Limit, annotate
from crapette.moves import Action, Move
from crapette.notation import format_move, parse_move
from crapette.records import GameRecord
from crapette.session._session import _card_texts
from crapette.session.payload import (
    FaultInfo,
    LineMove,
    ReasonInfo,
    ReviewDecision,
    ReviewPayload,
    _pile_name,
    view_payload,
)
from crapette.state import GameState
from crapette.views import observe

__all__ = ["REVIEW_DEEP", "REVIEW_LIMIT", "DealReview", "line_move", "line_moves"]

REVIEW_LIMIT: Final = Limit(rollouts=256, time=0.02)
"""The analysis limit of each move of a review: 256 play-outs or 20 ms, whichever comes
first (a deal of 434 moves, 294 with a choice, is reviewed in about 4 s on one core)."""

REVIEW_DEEP: Final = 8
"""The samples of the second stage of each move's analysis in a review."""


def line_move(state: GameState, move: Move, after: GameState | None = None) -> LineMove:
    """A move made in ``state`` as a review or a puzzle shows it: its notation, its mover,
    its absolute piles and the face-up cards it moves; with ``after`` (the position it
    leads to), also the card a draw, a reveal or a flip showed to both players."""
    p = state.to_act
    cards = _card_texts(state, move)
    if move.action is Action.DISCARD and state.turned is not None:
        cards = [str(state.turned)]
    elif after is not None and not cards:
        if move.action is Action.DRAW and after.turned is not None:
            cards = [str(after.turned)]
        elif move.action is Action.REVEAL and after.reserves[p]:
            cards = [str(after.reserves[p][-1])]
        elif move.action is Action.FLIP and after.wastes[p]:
            cards = [str(after.wastes[p][-1])]
    entry = LineMove(
        move=format_move(move), player=p, count=move.count if move.is_play else 0, cards=cards
    )
    if move.is_play:
        entry["from"] = _pile_name(state, move.source)
        entry["to"] = _pile_name(state, move.target)
    return entry


def line_moves(state: GameState, texts: Sequence[str]) -> list[LineMove]:
    """The moves of a line in notation, played one after another from ``state``."""
    out = []
    for text in texts:
        move = parse_move(state, text)
        out.append(line_move(state, move))
        state = apply_unchecked(state, move)
    return out


def fault_info(state: GameState, move: Move, fault: Fault) -> FaultInfo:
    """A Stop! fault of playing ``move`` in ``state`` as data: a missed compulsory move
    with the rule's reason code and the moves that were compulsory; a missed or false call
    with the opponent's move that broke the rule."""
    reason = None
    remedy: list[LineMove] = []
    about = None
    if fault.kind == "missed_compulsory":
        broken = violation(state, move)
        if broken is not None:
            refusal = broken.refusal
            params = {k: list(v) if isinstance(v, tuple) else v for k, v in refusal.params.items()}
            reason = ReasonInfo(code=refusal.code, params=params)
            remedy = [line_move(state, m) for m in broken.remedy]
    elif state.stop is not None:
        about = line_move(state.stop.prior, state.stop.move)
    return FaultInfo(
        kind=fault.kind,
        rule=fault.rule,
        reason=reason,
        remedy=remedy,
        about=about,
        text=fault.words(),
    )


def _finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


@attrs.frozen
class DealReview:
    """A finished deal annotated for review: build it with
    [`DealReview.of`][crapette.session.DealReview.of] (the engine's work, a few seconds for a
    long deal at [`REVIEW_LIMIT`][crapette.session.REVIEW_LIMIT]), then ask each seat's
    [`payload`][crapette.session.DealReview.payload] (cheap).

    Attributes:
        deal: the deal's number in its match, from 1.
        annotated: the engine's judgment of every move.
    """

    deal: int
    annotated: AnnotatedRecord

    @classmethod
    def of(
        cls, record: GameRecord, deal: int, limit: Limit | None = None, deep: int | None = None
    ) -> DealReview:
        """Annotate ``record`` (deal number ``deal``) at ``limit`` per move (default
        [`REVIEW_LIMIT`][crapette.session.REVIEW_LIMIT]) with ``deep`` samples in each
        analysis's second stage (default [`REVIEW_DEEP`][crapette.session.REVIEW_DEEP])."""
        chosen = limit if limit is not None else REVIEW_LIMIT
        samples = deep if deep is not None else REVIEW_DEEP
        return cls(deal, annotate(record, chosen, deep=samples))

    def payload(self, seat: int) -> ReviewPayload:
        """The review as ``seat`` sees it: every move with its judgment, the best line and
        any fault, and the board before it from ``seat``'s view."""
        record = self.annotated.record
        walk = record.replay()
        before, _ = next(walk)
        start = before
        decisions: list[ReviewDecision] = []
        for (after, move), d in zip(walk, self.annotated.decisions, strict=True):
            assert move is not None
            decisions.append(
                ReviewDecision(
                    ply=d.ply,
                    played=line_move(before, move, after),
                    forced=d.forced,
                    judgment=d.judgment,
                    win_before=_finite(d.win_before),
                    win_after=_finite(d.win_after),
                    loss=_finite(d.loss) if d.judged else None,
                    best=line_moves(before, d.best) if d.best else [],
                    fault=fault_info(before, move, d.fault) if d.fault is not None else None,
                    turn_player=before.turn_player,
                    view=view_payload(observe(before, seat), before),
                )
            )
            before = after
        return ReviewPayload(
            deal=self.deal,
            rules=str(start.rules),
            seat=seat,
            limit=self.annotated.limit,
            accuracy=[_finite(round(self.annotated.accuracy(p), 1)) for p in (0, 1)],
            decisions=decisions,
            end=view_payload(observe(before, seat), before),
            end_turn_player=before.turn_player,
        )
