"""The shapes of the API's answers, for the OpenAPI schema (clients in other languages
generate their types from it). The server builds its answers as plain JSON data
(``crapette.web.session.Game.payload``); the tests check them against these models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "DealInfo",
    "GamePayload",
    "Hint",
    "LastMove",
    "LegalMove",
    "MatchInfo",
    "MovesPayload",
    "OutcomeInfo",
    "PlayerInfo",
    "PointsInfo",
    "ReserveView",
    "StopInfo",
    "TallyInfo",
    "ViewPayload",
]

_Closed = ConfigDict(extra="forbid")


class LegalMove(BaseModel):
    """A legal move of the seat to act."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    code: int
    """The move's action code (``crapette.Move.index``)."""
    notation: str
    """The move's text, as ``POST /moves`` takes it (``R-F``, ``draw``)."""
    description: str
    """The move in plain English."""
    action: Literal["play", "reveal", "draw", "discard", "end", "stop", "pass"]
    from_: str | None = Field(default=None, alias="from")
    """For a play: the source pile (``H3``, ``R0``, ``T``, ``W1``)."""
    to: str | None = None
    """For a play: the target pile (``F`` for a foundation, ``H5``, ``R1``, ``W0``)."""
    count: int | None = None
    violation: bool | None = None
    """Under callable Stop! rules: whether the move breaks the priority rules."""


class LastMove(BaseModel):
    """One of the opponent's latest moves."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    number: int
    seat: int
    move: str
    cards: list[str]
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None


class ReserveView(BaseModel):
    """A reserve as a seat sees it."""

    model_config = _Closed
    down: int
    up: list[str]


class StopInfo(BaseModel):
    """A priority violation awaiting the Stop! decision."""

    model_config = _Closed
    move: str
    description: str
    offender: int
    resume: int


class ViewPayload(BaseModel):
    """What the seat sees (built from ``crapette.observe``); cards as text (``7H``)."""

    model_config = _Closed
    player: int
    foundations: list[list[str]]
    houses: list[list[str]]
    reserves: list[ReserveView]
    hands: list[int]
    wastes: list[list[str]]
    turned: str | None
    stop: StopInfo | None
    moves_made: int


class TallyInfo(BaseModel):
    """A player's cards left at the end of a deal, by pile, and what they count."""

    model_config = _Closed
    reserve: int
    hand: int
    """Hand cards, a turned hand card included."""
    waste: int
    count: int
    """``reserve`` times the reserve points plus ``hand + waste`` times the hand points."""


class PointsInfo(BaseModel):
    """The scoring options the deal was counted with."""

    model_config = _Closed
    reserve: int
    """Points per reserve card (2)."""
    hand: int
    """Points per hand or waste card (1)."""
    win_bonus: int
    """The bonus the winner scored (30; 0 when nobody won)."""


class OutcomeInfo(BaseModel):
    """How the deal ended: the winner's score is ``win_bonus`` plus the loser's count; with
    no winner the lower count scores the difference."""

    model_config = _Closed
    winner: int | None
    scores: list[int]
    reason: Literal["win", "stalemate", "move_cap", "resigned"]
    """``resigned``: the loser resigned during the deal (it is then the opponent's win)."""
    text: str
    tally: list[TallyInfo]
    """Each player's cards left, by pile (index: player)."""
    points: PointsInfo


class DealInfo(BaseModel):
    """A finished deal of the match."""

    model_config = _Closed
    winner: int | None
    scores: list[int]
    reason: str


class MatchInfo(BaseModel):
    """The match's progress."""

    model_config = _Closed
    deal: int
    target: int | None
    deals: int | None
    totals: list[int]
    results: list[DealInfo]
    over: bool
    winner: int | None
    """Who won the match (once it is over; a resignation gives it to the opponent)."""
    resigned: int | None = None
    """The seat that resigned, or ``None``."""
    seed: str | None
    """The match seed as a decimal string (``JSON.parse`` keeps it exact), shown once the
    game is over."""


class PlayerInfo(BaseModel):
    """A seat of the game."""

    model_config = _Closed
    kind: Literal["human", "bot"]
    name: str
    joined: bool


class GamePayload(BaseModel):
    """Everything a seat may know of its game."""

    model_config = _Closed
    game_id: str
    seat: int
    version: int
    status: Literal["waiting", "playing", "deal_over", "over"]
    rules: str
    players: list[PlayerInfo]
    to_act: int
    turn_player: int
    your_turn: bool
    view: ViewPayload
    legal_moves: list[LegalMove]
    last_moves: list[LastMove]
    outcome: OutcomeInfo | None
    match: MatchInfo
    can_undo: bool
    ended: str | None
    svg: str | None = None


class MovesPayload(BaseModel):
    """The seat's legal moves at a version."""

    model_config = _Closed
    version: int
    legal_moves: list[LegalMove]


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
