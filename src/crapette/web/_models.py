"""The request bodies of the API (strict: unknown fields, wrong types and out-of-range
numbers are refused; a ``bool`` or a ``float`` is never an integer) and the small answers
and errors that the OpenAPI schema documents."""

from __future__ import annotations

import re
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, field_validator

_Strict = ConfigDict(extra="forbid", strict=True)

_MAX_SEED: Final = 2**63 - 1
_SEED_TEXT: Final = re.compile(r"(0|[1-9][0-9]{0,18})\Z")


class MatchSpec(BaseModel):
    """The match format: a target score, a number of deals, or both (first reached ends)."""

    model_config = _Strict
    target: int | None = Field(default=None, ge=1, le=100_000)
    deals: int | None = Field(default=None, ge=1, le=100)


class CreateGame(BaseModel):
    """A new game."""

    model_config = _Strict
    rules: str = Field(default="classic", max_length=400, description="preset or rules string")
    seed: int | str | None = Field(
        default=None,
        description="0 to 2**63-1, as a decimal string (JSON.parse keeps it exact) or an"
        " integer; random if absent; refused for a game between two people unless the"
        " server allows chosen seeds",
    )
    opponent: str = Field(
        default="greedy", max_length=40, description="a bot (random, greedy, search:N) or human"
    )
    seat: int = Field(default=0, ge=0, le=1, description="the creator's seat, 0 or 1")
    match: MatchSpec | None = Field(
        default=None, description="override the rules' match format; absent: one deal"
    )
    undo: bool = Field(default=True, description="allow taking back moves against a bot")

    @field_validator("seed")
    @classmethod
    def _seed(cls, value: int | str | None) -> int | None:
        """A seed from its decimal string or its integer, in range."""
        if isinstance(value, str):
            if not _SEED_TEXT.match(value):
                raise ValueError("a seed string is decimal digits with no sign or leading zero")
            value = int(value)
        if value is not None and not 0 <= value <= _MAX_SEED:
            raise ValueError(f"a seed is from 0 to {_MAX_SEED}")
        return value


class JoinGame(BaseModel):
    """Join a game as its second human."""

    model_config = _Strict
    invite: str = Field(max_length=200)


class PlayMove(BaseModel):
    """A move by notation (``"R-F"``, ``"draw"``) or by action code, chosen at ``version``."""

    model_config = _Strict
    move: str | None = Field(default=None, max_length=40)
    code: int | None = Field(default=None, ge=-(2**31), le=2**31)
    version: int = Field(ge=0, description="the game version the move was chosen at")


class StopDecision(BaseModel):
    """Call "Stop!" (``call: true``) or let the violation stand (``call: false``)."""

    model_config = _Strict
    call: bool
    version: int = Field(ge=0)


class PuzzleAnswer(BaseModel):
    """An answer to a puzzle: the solver's line, moves in notation (``["H7-OW", "R-H7"]``)."""

    model_config = _Strict
    line: list[str] = Field(max_length=64, description="the moves of the line, in notation")

    @field_validator("line")
    @classmethod
    def _short_moves(cls, value: list[str]) -> list[str]:
        """Each move is a short text."""
        if any(len(move) > 40 for move in value):
            raise ValueError("a move is at most 40 characters")
        return value


class Versioned(BaseModel):
    """A request that names the game version it was made at."""

    model_config = _Strict
    version: int | None = Field(default=None, ge=0)


class Created(BaseModel):
    """A created or joined seat: keep the token secret; send the invite to the other human."""

    game_id: str
    seat: int
    token: str
    invite: str | None = None
    url: str


class Reason(BaseModel):
    """Why the rules refuse a move, as data: a reason code of the rule spec
    (``crapette._spec.REASONS``; a page translates it with the catalogue key
    ``reason.<code>``) and its parameters by name (cards as texts such as ``"7H"``, houses
    as numbers 1..8, piles as notation tokens such as ``"R"`` or ``"OW"``)."""

    code: str
    params: dict[str, Any]


class ErrorBody(BaseModel):
    """An error: a short machine-readable code and a sentence; for a move the rules refuse
    (``illegal_move``), the rules' reason as data too."""

    code: str
    message: str
    reason: Reason | None = None


class ErrorResponse(BaseModel):
    """Every error answer: ``{"error": {"code": ..., "message": ...}}``."""

    error: ErrorBody


ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    status: {"model": ErrorResponse, "description": text}
    for status, text in (
        (401, "no or wrong seat token"),
        (404, "no such game"),
        (408, "the request was not sent in time"),
        (409, "not now: not your turn, stale version, game over, deal still running, ..."),
        (413, "request body too large"),
        (422, "malformed request, bad rules, bad or illegal move"),
        (
            503,
            "too many games, the store failed, or the engine is busy with other analyses"
            " (nothing changed; see Retry-After)",
        ),
    )
}
"""The error answers every route documents."""
