"""The shapes of the API's answers, for the OpenAPI schema (clients in other languages
generate their types from it). A seat's payload is defined once, by the typed dicts of
[`crapette.session.payload`][crapette.session.payload], which build it: they are re-exported
here, and the routes document their answers with them (a review of a finished deal and
puzzle mode too). The hint's answer is the server's own."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from crapette.session.payload import (
    DealInfo,
    FaultInfo,
    GamePayload,
    LastMove,
    LegalMove,
    LineMove,
    MatchInfo,
    MovesPayload,
    OutcomeInfo,
    PlayerInfo,
    PointsInfo,
    PuzzleInfo,
    PuzzleList,
    PuzzlePosition,
    PuzzleVerdict,
    ReasonInfo,
    ReserveView,
    ReviewDecision,
    ReviewPayload,
    StopInfo,
    TallyInfo,
    ViewPayload,
)

__all__ = [
    "DealInfo",
    "FaultInfo",
    "GamePayload",
    "Hint",
    "LastMove",
    "LegalMove",
    "LineMove",
    "MatchInfo",
    "MovesPayload",
    "OutcomeInfo",
    "PlayerInfo",
    "PointsInfo",
    "PuzzleInfo",
    "PuzzleList",
    "PuzzlePosition",
    "PuzzleVerdict",
    "ReasonInfo",
    "ReserveView",
    "ReviewDecision",
    "ReviewPayload",
    "StopInfo",
    "TallyInfo",
    "ViewPayload",
]

_Closed = ConfigDict(extra="forbid")


class Hint(BaseModel):
    """The engine's suggestion: the move to play now (``code``, ``notation``,
    ``description``), the whole best line up to the next new card, its win chance, the
    expected deal points and the reason in words (English)."""

    model_config = _Closed
    code: int
    notation: str
    description: str
    line: list[str]
    win: float | None
    points: float | None
    reason: str
