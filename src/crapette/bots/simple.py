"""The random bot: a uniformly random legal move."""

from __future__ import annotations

from crapette.deal import Rng
from crapette.moves import Move
from crapette.views import PlayerView

__all__ = ["RandomBot"]


class RandomBot:
    """Plays a legal move chosen uniformly at random (a baseline, and the weakest bot).

    Deals between random bots are long (about 1,700 moves): nothing steers them towards
    emptying their piles.
    """

    name = "random"
    """The bot's name (a subclass names itself with a class attribute ``name``)."""

    def __init__(self, seed: int = 0) -> None:
        """Seed the bot's generator; the same seed plays the same moves."""
        self.seed = seed
        self._rng = Rng(seed)

    def choose(self, view: PlayerView) -> Move:
        """A uniformly random move of ``view.legal_moves()``."""
        moves = view.legal_moves()
        return moves[self._rng.below(len(moves))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"
