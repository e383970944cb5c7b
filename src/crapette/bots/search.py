"""The search bot: determinized Monte Carlo search with greedy rollouts.

At each decision with a real choice, the bot keeps the few best moves by the greedy
ranking (at most ``SearchBot.width``, never a priority
violation or a pointless house shuffle when something else exists) and estimates each by rollouts:

1. draw a complete state consistent with its view
   ([`crapette.views.determinize`][crapette.views.determinize]);
2. for every candidate, from that same state and with the same rollout seed (common random
   numbers, so candidates are compared on equal luck), play the move, then let both
   players follow the greedy policy to the end of the opponent's next turn;
3. score the position reached: the opponent's count minus the bot's own (2 per reserve
   card, 1 per hand and waste card, as in a stalemate), plus or minus 100 for a won or
   lost deal.

The budget is the number of rollouts per decision, spread evenly over the candidates
(rounded down, at least one each); the best mean wins, ties going to the greedy order.
A larger budget averages over more hidden-card deals and plays better. Forced moves, Stop!
decisions and choices between foundation moves only are left to the greedy ranking; a call
at the start of a turn (``call_window="turn_start"``) is made exactly when the opponent's
last turn was a fault ([`turn_start_call`][crapette.bots.base.turn_start_call]), and
otherwise the call is no candidate.
"""

from __future__ import annotations

from crapette import apply_unchecked
from crapette._quote import show
from crapette.bots._greedy import _POINTLESS, evaluate, greedy_move, play_out, ranked_scores
from crapette.bots.base import play_on_moves, turn_start_call
from crapette.deal import Rng
from crapette.errors import UnknownBotError
from crapette.moves import CALL_STOP, FOUNDATION, Move
from crapette.state import GameState
from crapette.views import PlayerView, determinize, sketch

__all__ = [
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "SearchBot",
    "candidates",
    "evaluate",
    "play_out",
]

DEFAULT_BUDGET = 256
"""Rollouts per decision of [`SearchBot`][crapette.bots.search.SearchBot] by default."""

MAX_BUDGET = 1_000_000
"""The largest search budget (rollouts per decision) a search bot accepts."""


def rollout(state: GameState, p: int, rng: Rng) -> tuple[int, int]:
    """The search bot's rollout: [`play_out`][crapette.bots.search.play_out] to the end of
    the opponent's next turn; returns the value for ``p`` and the number of moves played."""
    value, played, _ = play_out(state, p, rng)
    return value, played


def candidates(state: GameState, moves: tuple[Move, ...], width: int) -> list[Move]:
    """The moves worth searching in ``state``, best greedy rank first: at most ``width``,
    no violation or pointless shuffle unless nothing else exists, and only the best when
    every kept move goes to a foundation."""
    ranked = [
        (-score, i, move)
        for i, (move, score) in enumerate(zip(moves, ranked_scores(state, moves), strict=True))
    ]
    ranked.sort()
    best = -ranked[0][0]
    keep = [m for s, _, m in ranked if -s > _POINTLESS or -s == best]
    if all(m.target == FOUNDATION for m in keep):
        return keep[:1]
    return keep[:width]


class SearchBot:
    """Determinized Monte Carlo search over the best greedy candidates, with greedy
    rollouts to the end of the opponent's next turn (see the module documentation).

    Attributes:
        budget: rollouts per decision.
        width: how many candidate moves are searched at most.
        rollouts: how many rollouts the last decision ran (0 when it had nothing to search).
        positions: how many positions the last decision's rollouts reached (the moves they
            played, the candidate moves included).
    """

    name = "search"
    """The bot's name (a subclass names itself with a class attribute ``name``)."""

    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET, width: int = 4) -> None:
        """A search bot.

        Args:
            seed: seeds the determinizations, rollouts and tie-breaks.
            budget: rollouts per decision, from 1 to
                [`MAX_BUDGET`][crapette.bots.search.MAX_BUDGET].
            width: the number of candidate moves compared (at least 2).

        Raises:
            UnknownBotError: ``budget`` is out of range or ``width`` is below 2 (a
                ``ValueError``).
        """
        if isinstance(budget, bool) or not isinstance(budget, int) or not 0 < budget <= MAX_BUDGET:
            raise UnknownBotError(
                f"budget must be an integer from 1 to {MAX_BUDGET}, not {show(budget, limit=40)}"
            )
        if isinstance(width, bool) or not isinstance(width, int) or width < 2:
            raise UnknownBotError(f"width must be an integer of at least 2, not {show(width)}")
        self.seed = seed
        self.budget = budget
        self.width = width
        self.rollouts = 0
        self.positions = 0
        self._rng = Rng(seed)

    def candidates(self, view: PlayerView) -> list[Move]:
        """The moves worth searching, best greedy rank first (one move: nothing to search)."""
        if turn_start_call(view):
            return [CALL_STOP]
        state = sketch(view)
        moves = play_on_moves(view, view.legal_moves())
        if len(moves) == 1 or state.stop is not None:
            return [greedy_move(state, self._rng, moves)]
        return candidates(state, moves, self.width)

    def choose(self, view: PlayerView) -> Move:
        """The move with the best mean rollout value among the candidates."""
        self.rollouts = self.positions = 0
        cands = self.candidates(view)
        if len(cands) == 1:
            return cands[0]
        p = view.to_act
        rounds = max(1, self.budget // len(cands))
        totals = [0] * len(cands)
        for _ in range(rounds):
            start = determinize(view, self._rng)
            seed = self._rng.next64()
            for i, move in enumerate(cands):
                value, played = rollout(apply_unchecked(start, move), p, Rng(seed))
                totals[i] += value
                self.rollouts += 1
                self.positions += played + 1
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]

    def __repr__(self) -> str:
        return f"SearchBot(seed={self.seed}, budget={self.budget})"
