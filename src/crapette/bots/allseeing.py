"""The all-seeing reference bot: a planner (or an expert) that scores its lines on the true
hidden cards instead of samples.

A bot sees a [`PlayerView`][crapette.views.PlayerView] and nothing else. This one is the
exception on purpose: it measures what seeing the hidden cards (both hands and the
face-down reserve cards) is worth to a bot. The game loop
([`play_deal`][crapette.bots.play_deal], and so the simulator, ``compare`` and the ladder)
shows it the whole state through its ``peek`` hook before each decision; it then scores
every line on that state, where the planner scores it on determinizations of its view.
Everything else is the planner's (or the expert's): the same lines, rollouts, sequential
halving and line following, so the difference between the two is the value of the
information.

Only the game loop calls ``peek``: a game server or the terminal game, which ask bots for
moves through their views alone, get a plain planner (it falls back to samples whenever the
state it was shown is not the position of the view it is asked about).
"""

from __future__ import annotations

from collections.abc import Callable

from crapette.bots.expert import DEFAULT_EXPERT_BUDGET, ExpertBot
from crapette.bots.planner import DEFAULT_PLANNER_BUDGET, PlannerBot
from crapette.moves import Move
from crapette.state import GameState
from crapette.views import PlayerView, _observe

__all__ = ["AllSeeingBot", "AllSeeingExpert"]


def _truth(state: GameState | None, view: PlayerView) -> GameState | None:
    """``state`` if it is the position ``view`` shows, else ``None``."""
    if state is None or _observe(state, view.player, None) != view:
        return None
    return state


class AllSeeingBot(PlannerBot):
    """The planner, scoring its lines on the true state shown to it by the game loop
    (see the module documentation). Its samples are all that one state, so its rollouts
    differ only by the greedy tie-breaks."""

    name = "allseeing"

    def __init__(self, seed: int = 0, budget: int = DEFAULT_PLANNER_BUDGET) -> None:
        """An all-seeing planner.

        Args:
            seed: seeds the rollouts and tie-breaks.
            budget: rollouts per decision (as the planner's).

        Raises:
            UnknownBotError: a bad budget.
        """
        super().__init__(seed, budget=budget)
        self._shown: GameState | None = None
        self._truth: GameState | None = None

    def peek(self, state: GameState) -> None:
        """Be shown the whole state of the coming decision (the game loop's hook)."""
        self._shown = state

    def choose(self, view: PlayerView) -> Move:
        """The planner's choice, its lines scored on the state shown."""
        self._truth = _truth(self._shown, view)
        return super().choose(view)

    def _sample(self, view: PlayerView) -> GameState:
        if self._truth is not None:
            return self._truth
        return super()._sample(view)

    def __repr__(self) -> str:
        return f"AllSeeingBot(seed={self.seed}, budget={self.budget})"


class AllSeeingExpert(ExpertBot):
    """The expert, scoring its lines on the true state shown to it by the game loop."""

    name = "allseeing-expert"

    def __init__(self, seed: int = 0, budget: int = DEFAULT_EXPERT_BUDGET) -> None:
        """An all-seeing expert.

        Args:
            seed: seeds the play-outs and tie-breaks.
            budget: play-outs per decision (as the expert's).

        Raises:
            UnknownBotError: a bad budget.
        """
        super().__init__(seed, budget=budget)
        self._shown: GameState | None = None
        self._truth: GameState | None = None

    def peek(self, state: GameState) -> None:
        """Be shown the whole state of the coming decision (the game loop's hook)."""
        self._shown = state

    def choose(self, view: PlayerView) -> Move:
        """The expert's choice, its lines scored on the state shown."""
        self._truth = _truth(self._shown, view)
        return super().choose(view)

    def _known_hand(self, view: PlayerView) -> GameState | None:
        """The true state: the all-seeing expert knows its hand, so its lines go on through
        the hand cards turned (unless ``through_hand`` is off)."""
        if self.through_hand and self._truth is not None:
            return self._truth
        return super()._known_hand(view)

    def _sampler(self, view: PlayerView) -> Callable[[], GameState]:
        truth = self._truth
        if truth is not None:
            return lambda: truth
        return super()._sampler(view)

    def __repr__(self) -> str:
        return f"AllSeeingExpert(seed={self.seed}, budget={self.budget})"
