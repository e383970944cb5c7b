"""The planner: a bot that plans the visible part of its turn as a whole.

A turn is many moves; the search bot ([`crapette.bots.search`][crapette.bots.search]) compares
single moves
followed by greedy play. The planner searches over *sequences* of its own moves:

1. draw a complete state consistent with its view (a determinization,
   [`crapette.views.determinize`][crapette.views.determinize]);
2. from it, search every line of its own moves up to the next boundary: turning a hand
   card (new information), the end of its turn, or a won deal. At each position it tries
   the few best moves by the greedy ranking (at most
   ``width``; never a
   priority violation or a pointless house shuffle when something else exists; one move
   when only foundation moves compete). Positions reached by several orders of the same
   moves are searched once (a transposition table keyed by the position);
3. at a boundary, a greedy rollout to the end of the opponent's next turn scores the line
   ([`crapette.bots.search.rollout`][crapette.bots.search.rollout]: the opponent's count minus its
   own, plus or minus
   100 for a won or lost deal), with the same rollout seed for every line of a sample
   (common random numbers);
4. a first move is worth the best line that starts with it; its value is averaged over
   determinizations until the budget (rollouts per decision) is spent. Within one
   determinization, once the budget is spent, the lines still open are rolled out where
   they stand, so a decision costs at most about the budget plus a few rollouts.

A larger budget averages over more determinizations. Forced moves, Stop! decisions and
choices between foundation moves only are left to the greedy ranking.
"""

from __future__ import annotations

from crapette._engine import apply_unchecked
from crapette._movegen import legal_moves
from crapette.bots.greedy import greedy_move
from crapette.bots.search import candidates, rollout
from crapette.deal import Rng
from crapette.moves import Action, Move
from crapette.outcome import is_over
from crapette.state import GameState
from crapette.views import PlayerView, determinize, sketch

__all__ = ["DEFAULT_PLANNER_BUDGET", "PlannerBot"]

DEFAULT_PLANNER_BUDGET = 128
"""Rollouts per decision of [`PlannerBot`][crapette.bots.planner.PlannerBot] by default."""

_BOUNDARY = (Action.DRAW, Action.DISCARD, Action.END_TURN)


class PlannerBot:
    """Plans lines of moves up to the next hand card or the end of its turn, over
    determinizations of the hidden cards (see the module documentation).

    Attributes:
        budget: rollouts per decision.
        width: moves tried at each position of a line.
        nodes: positions searched per determinization at most (then lines are cut and
            rolled out).
    """

    def __init__(
        self, seed: int = 0, budget: int = DEFAULT_PLANNER_BUDGET, width: int = 3, nodes: int = 300
    ) -> None:
        """A planner.

        Args:
            seed: seeds the determinizations, rollouts and tie-breaks.
            budget: rollouts per decision (a positive integer); at least one
                determinization is always searched in full.
            width: moves tried at each position (at least 2).
            nodes: positions searched per determinization at most (positive).

        Raises:
            ValueError: ``budget`` or ``nodes`` is not positive, or ``width`` is below 2.
        """
        for label, value, low in (("budget", budget, 1), ("width", width, 2), ("nodes", nodes, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{label} must be an integer of at least {low}, not {value!r}")
        self.name = "planner"
        self.seed = seed
        self.budget = budget
        self.width = width
        self.nodes = nodes
        self._rng = Rng(seed)

    def choose(self, view: PlayerView) -> Move:
        """The first move of the best line, averaged over determinizations."""
        state = sketch(view)
        moves = legal_moves(state)
        if len(moves) == 1 or state.stop is not None:
            return greedy_move(state, self._rng, moves)
        roots = candidates(state, moves, self.width + 1)
        if len(roots) == 1:
            return roots[0]
        p = view.to_act
        totals = [0.0] * len(roots)
        spent = 0
        while spent < self.budget:
            start = determinize(view, self._rng)
            search = _Search(p, self._rng.next64(), self.width, self.nodes, self.budget)
            for i, move in enumerate(roots):
                totals[i] += search.value(apply_unchecked(start, move), move)
            spent += max(search.rollouts, 1)
        best = max(range(len(roots)), key=lambda i: (totals[i], -i))
        return roots[best]

    def __repr__(self) -> str:
        return f"PlannerBot(seed={self.seed}, budget={self.budget})"


class _Search:
    """The line search in one determinization."""

    def __init__(self, player: int, seed: int, width: int, nodes: int, rollouts: int) -> None:
        self.player = player
        self.max_rollouts = rollouts
        self.seed = seed
        self.width = width
        self.nodes = nodes
        self.rollouts = 0
        self.table: dict[GameState, float] = {}

    def value(self, state: GameState, last: Move) -> float:
        """The best value of the lines from ``state``, reached by the move ``last``."""
        cached = self.table.get(state)
        if cached is not None:
            return cached
        p = self.player
        if (
            last.action in _BOUNDARY
            or state.turn_player != p
            or state.stop is not None
            or len(self.table) >= self.nodes
            or self.rollouts >= self.max_rollouts
            or is_over(state)
        ):
            self.rollouts += 1
            result = float(rollout(state, p, Rng(self.seed))[0])
        else:
            moves = legal_moves(state)
            self.table[state] = float("-inf")  # (no cycles within a turn: never read)
            result = max(
                self.value(apply_unchecked(state, move), move)
                for move in candidates(state, moves, self.width)
            )
        self.table[state] = result
        return result
