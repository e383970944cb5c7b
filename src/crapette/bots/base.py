"""The bot protocol and the registry of bots by name."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from crapette.errors import UnknownBotError
from crapette.moves import Move
from crapette.views import PlayerView

__all__ = ["Bot", "UnknownBotError"]


@runtime_checkable
class Bot(Protocol):
    """A player program: it sees a [`PlayerView`][crapette.views.PlayerView] (never the full
    state) and answers one of ``view.legal_moves()``.

    Attributes:
        name: a short name for tables and error messages.
    """

    name: str

    def choose(self, view: PlayerView) -> Move:
        """The move to make in the position seen by ``view`` (the bot is ``view.to_act``)."""
        ...
