"""Wrap a bot written outside crapette and run it through the simulator.

``TurnSearcher`` below stands for an AI from another project: it knows nothing of crapette's
bots, only the public view API (``legal_moves``, ``after``, ``breaks_priority``). It plans a
whole sequence of moves within its turn by depth-first search and keeps the plan until the
position changes under it. ``PlannerAdapter`` makes it a crapette bot (the ``Bot``
protocol, plus the optional hooks), ``register_bot`` gives it a name, and
``crapette.simulation.simulate`` plays it against the greedy bot by that name.

Run: ``python examples/external_bot.py``.
"""

from __future__ import annotations

import crapette
from crapette.bots import register_bot, stop_decision
from crapette.simulation import simulate


# --- "another project": a small turn planner over the public view API -----------------
class TurnSearcher:
    """Depth-first search over this turn's visible moves; scores the end of each line.

    A line ends with a plain move, or with a move whose result it cannot see (turning a
    hand or reserve card) or that ends the turn (a discard), worth a small bonus so that
    the turn moves on rather than shuffling houses.
    """

    def __init__(self, nodes: int = 60) -> None:
        self.nodes = nodes

    def score(self, view: crapette.PlayerView) -> float:
        """Fewer cards of my own left is better (2 per reserve card, 1 per other card)."""
        me, other = view.player, 1 - view.player
        turned = int(view.turned is not None and view.turn_player == me)
        mine = 2 * view.reserve_sizes[me] + view.hand_sizes[me] + len(view.wastes[me]) + turned
        theirs = 2 * view.reserve_sizes[other] + view.hand_sizes[other] + len(view.wastes[other])
        return theirs - mine

    def plan(self, view: crapette.PlayerView) -> list[crapette.Move]:
        """The best line of moves found (at least one legal move)."""
        best: list[tuple[float, list[crapette.Move]]] = [(float("-inf"), [])]
        budget = [self.nodes]

        def consider(value: float, line: list[crapette.Move]) -> None:
            if value > best[0][0]:
                best[0] = (value, line)

        def search(node: crapette.PlayerView, line: list[crapette.Move]) -> None:
            cost = 0.01 * (len(line) + 1)  # shorter lines first
            children = []
            for move in node.legal_moves():  # every move of this node, then deeper
                if node.breaks_priority(move) or budget[0] <= 0:
                    continue  # never give the opponent a Stop! to call
                budget[0] -= 1
                try:
                    child = node.after(move)
                except ValueError:  # a hand or reserve card is turned: the line ends
                    consider(self.score(node) + 0.05 - cost, [*line, move])
                    continue
                if child.to_act != child.player:  # a discard: the turn ends
                    consider(self.score(child) + 0.02 - cost, [*line, move])
                    continue
                consider(self.score(child) - cost, [*line, move])
                children.append((child, [*line, move]))
            for child, child_line in children:
                search(child, child_line)

        search(view, [])
        return best[0][1] or [view.legal_moves()[0]]


# --- the adapter: a crapette bot around it ---------------------------------------------
class PlannerAdapter:
    """A crapette ``Bot`` that plays the external planner's line, move by move."""

    def __init__(self, seed: int = 0, nodes: int = 60) -> None:
        self.name = "turn-searcher"
        self.seed = seed
        self._searcher = TurnSearcher(nodes)
        self._plan: list[crapette.Move] = []
        self._expect: crapette.PlayerView | None = None

    def on_deal_start(self, view: crapette.PlayerView) -> None:
        self._plan = []

    def on_opponent_move(self, move: crapette.Move, view: crapette.PlayerView) -> None:
        self._plan = []  # the position changed under the plan

    def choose(self, view: crapette.PlayerView) -> crapette.Move:
        if view.stop is not None:
            return stop_decision(view)
        if not self._plan or view != self._expect:
            self._plan = self._searcher.plan(view)
        move = self._plan.pop(0)
        if move not in view.legal_moves():  # stale plan: plan again
            self._plan = self._searcher.plan(view)
            move = self._plan.pop(0)
        try:
            self._expect = view.after(move)
        except ValueError:
            self._expect, self._plan = None, []
        return move


def main() -> None:
    register_bot("turn-searcher", PlannerAdapter, summary="the example's external planner")
    result = simulate("classic", "turn-searcher,greedy", games=6, seed=1)
    wins = result.summary.wins
    print(f"turn-searcher vs greedy on classic: {wins[0]} - {wins[1]} deals won")


if __name__ == "__main__":
    main()
