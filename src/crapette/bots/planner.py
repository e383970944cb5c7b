"""The planner: a bot that plans each stretch of its turn as a whole.

A turn is many moves, and most of them are made before any new card is seen: until the bot
turns a hand card or uncovers a reserve card, every move it makes has a result it can see
without the hidden cards. The planner uses that. At a decision with a real choice:

1. **Lines.** On its view alone (no hidden card is drawn for this) it lists every line of
   its own moves up to the next *boundary*: turning a hand card, discarding it (the end of
   its turn), flipping the hand's top card onto the waste (``turn_end="flip"``, the end of
   its turn too), ending the turn, playing the last face-up reserve card above face-down ones
   (a new reserve card is uncovered), or a won deal. At each position it tries the few
   best moves by the greedy ranking (at most ``width``; never a priority violation or a
   pointless house shuffle when something else exists; one move when only foundation moves
   compete). A position reached by several orders of the same moves is searched once (a
   transposition table keyed by the layout), and at most ``nodes`` positions are
   expanded (the lines still open there end where they stand).
2. **Scores.** Each line is scored by playing it on determinizations of the hidden cards
   ([`crapette.views.determinize`][crapette.views.determinize]) and rolling out greedy play
   for both players to the end of the opponent's ``turns``-th next turn, scored as the
   search bot scores ([`crapette.bots.search.evaluate`][crapette.bots.search.evaluate]: the
   opponent's stalemate count minus its own, plus or minus 100 for a won or lost deal).
   Every line still in the race is scored on the same samples with the same rollout seed
   (common random numbers), so lines are compared on equal luck and a line is worth its
   *mean* over samples: a line is chosen for what it does on average over the hidden cards,
   never for what it would do if they were known.
3. **Sequential halving.** The budget (rollouts per decision) is split over rounds; after
   each round the worse half of the lines is dropped, so the promising lines get most of
   the samples. A decision also stops once the greedy choices of its rollouts have scored
   ``SCORED_PER_ROLLOUT * budget`` legal moves, which bounds its time. The best mean wins; ties go
   to the line found first (the greedy order).
4. **Following the line.** The bot plays the chosen line's first move and keeps the rest:
   while the position is the one the line predicts, its next decisions play the line's
   next moves without searching again (nothing new can be learned before the boundary).

A line that wins the deal is played at once. A larger budget scores the lines on more
samples and plays better. Forced moves and Stop! decisions are left to the greedy ranking,
and a call at the start of a turn (``call_window="turn_start"``) is made exactly when the
opponent's last turn was a fault ([`turn_start_call`][crapette.bots.base.turn_start_call]);
otherwise the call is in no line. The lines know every table rule through the legal moves
and the greedy ranking: under the ``bobcrapette`` priority a line's turn-ending move comes
after its obligations, and a sterile move is in no line where the rules forbid it.
"""

from __future__ import annotations

import math

from crapette import apply_unchecked, legal_moves
from crapette._quote import show
from crapette.bots.base import play_on_moves, turn_start_call
from crapette.bots.greedy import greedy_move
from crapette.bots.search import MAX_BUDGET, candidates, play_out
from crapette.cards import PACKS, Card
from crapette.deal import Rng, shuffled
from crapette.errors import UnknownBotError
from crapette.moves import CALL_STOP, RESERVE, Action, Move
from crapette.outcome import is_over, winner
from crapette.state import GameState, Pile
from crapette.views import PlayerView, determinize, sketch, state_of

__all__ = ["DEFAULT_PLANNER_BUDGET", "SCORED_PER_ROLLOUT", "HandMemory", "PlannerBot", "plan_lines"]

DEFAULT_PLANNER_BUDGET = 8192
"""Rollouts per decision of [`PlannerBot`][crapette.bots.planner.PlannerBot] by default."""

SCORED_PER_ROLLOUT = 240
"""The cap on a decision's work, per unit of budget: a decision stops scoring lines once
the greedy choices of its rollouts have scored this many legal moves per unit of budget
(each costs about the same; a budget of 8,192 stops after about 1,966,000), checked before
each sample."""

_BOUNDARY = (
    Action.DRAW,
    Action.DISCARD,
    Action.FLIP,
    Action.END_TURN,
    Action.REVEAL,
    Action.CALL_STOP,
)

Line = tuple[Move, ...]
"""A line of the planner's own moves, first move first."""


def _layout(state: GameState) -> tuple[object, ...]:
    """What a line changes in a position: the cards' places (the counters aside)."""
    return (
        state.houses,
        state.foundations,
        state.reserves,
        state.reserve_up,
        state.wastes,
        state.turned,
        state.emptied,
    )


def _boundary(state: GameState, move: Move) -> bool:
    """Whether ``move`` ends a line: its result shows a card not seen before (a hand card
    turned, a reserve card uncovered), or it ends the turn."""
    if move.action in _BOUNDARY:
        return True
    if move.action is Action.PLAY and move.source == RESERVE:
        p = state.to_act
        return state.reserve_up[p] == 1 and len(state.reserves[p]) > 1
    return False


def _wins(state: GameState, line: Line, *, through_hand: bool = False) -> bool:
    """Whether playing ``line`` from ``state`` wins the deal for the player to act (read
    from visible cards: a win is an empty reserve, hand and waste; with ``through_hand``
    the player's hand in ``state`` is the true one, so a turned hand card is read too)."""
    p = state.to_act
    for move in line:
        if move.action is not Action.PLAY and not (through_hand and move.action is Action.DRAW):
            return False
        state = apply_unchecked(state, move)
    return winner(state) == p


def plan_lines(state: GameState, width: int, nodes: int, limit: int = MAX_BUDGET) -> list[Line]:
    """The lines the planner compares in ``state`` (a view's sketch or a full state; only
    visible cards are read), in the order they are found: the greedy line first.

    A line ends with its boundary move (see the module documentation), with a move that
    wins, ends the turn or opens a Stop! decision, or where the search stopped (after
    ``nodes`` positions expanded, or ``limit`` lines listed).

    Args:
        state: the position; its player to act is the one who plans.
        width: moves tried at each position (the best by the greedy ranking).
        nodes: positions expanded at most.
        limit: lines listed at most.
    """
    p = state.to_act
    out: list[Line] = []
    seen: set[tuple[object, ...]] = set()
    expanded = 0

    def walk(position: GameState, line: Line) -> None:
        nonlocal expanded
        key = _layout(position)
        if key in seen:
            return  # reached before by another order of the same moves
        seen.add(key)
        if line and (expanded >= nodes or len(out) >= limit):
            out.append(line)
            return
        expanded += 1
        for move in candidates(position, legal_moves(position), width):
            if len(out) >= limit:
                return
            longer = (*line, move)
            if _boundary(position, move):
                out.append(longer)
                continue
            after = apply_unchecked(position, move)
            if is_over(after) or after.turn_player != p or after.stop is not None:
                out.append(longer)
                continue
            walk(after, longer)

    walk(state, ())
    return out


class HandMemory:
    """The order of each player's hand as far as the views seen so far show it.

    A view shows every card of both wastes, bottom first, but not the hands. When a player
    needs a hand card with an empty hand, the waste is turned over (without shuffling) to
    make the new hand and its first card is turned: a player who remembers the waste then
    knows the order of that whole hand, as a careful human player does (under
    ``turn_end="flip"`` the waste turned over, its first card flipped back onto the waste,
    shows the rest of the hand the same way). The memory follows
    the views it is shown, one after another: a hand whose order it knows loses its top
    card at each draw; anything it cannot follow (a penalty card, a card put back by the
    ``undo`` penalty, views too far apart) makes it forget that hand.

    Attributes:
        hands: per player, the hand's cards bottom first (the last is the next to be
            turned), or ``None`` when the order is not known.
    """

    def __init__(self) -> None:
        """An empty memory: no hand known."""
        self.hands: list[Pile | None] = [None, None]
        self._last: PlayerView | None = None

    def forget(self) -> None:
        """Forget everything (a new deal)."""
        self.hands = [None, None]
        self._last = None

    def see(self, view: PlayerView) -> None:
        """Update the memory with the next view (views of one player, in the order of
        play; several moves may lie between two of them)."""
        before = self._last
        self._last = view
        if before is None or before.player != view.player:
            self.hands = [None, None]
            return
        hidden: set[Card] | None = None
        for q in (0, 1):
            known, turned = self._follow(before, view, q)
            if known is not None:
                if hidden is None:
                    hidden = set(view.hidden_cards())
                if not hidden.issuperset(known) or not hidden.isdisjoint(turned):
                    known = None  # not what the view shows: forget
            self.hands[q] = known

    def _follow(self, before: PlayerView, view: PlayerView, q: int) -> tuple[Pile | None, Pile]:
        """Player ``q``'s hand in ``view`` as far as ``before`` and the memory show it, and
        the remembered cards turned since ``before`` (they must now be face up)."""
        n = view.hand_sizes[q]
        waste = before.wastes[q]
        if before.hand_sizes[q] == 0 and waste and n == len(waste) - 1:
            if not view.wastes[q] and view.turned == waste[0]:
                return waste[::-1][:-1], ()  # the waste turned over, its bottom card turned
            if view.rules.turn_end == "flip" and view.wastes[q] == waste[:1]:
                return waste[::-1][:-1], ()  # turned over, its bottom card flipped back
        known = self.hands[q]
        if known is None or n > len(known):
            return None, ()
        return known[:n], known[n:]

    def sample(self, view: PlayerView, rng: Rng) -> GameState:
        """A complete state consistent with ``view`` and with the hands remembered: like
        [`determinize`][crapette.views.determinize] (face-down reserve cards from their
        owner's pack, then the hands, uniformly from the cards left), with every known
        hand in its known order."""
        hands = self.hands
        if (hands[0] is None and hands[1] is None) or view.stop is not None:
            return determinize(view, rng)
        known = {card for hand in hands if hand is not None for card in hand}
        pool = list(shuffled(tuple(c for c in view.hidden_cards() if c not in known), rng))
        owner = PACKS[view.rules.pack].owner
        downs: list[Pile] = []
        for q in (0, 1):
            need = view.reserves_down[q]
            own = [c for c in pool if owner[c] == q][:need]
            if len(own) < need:  # pragma: no cover - not a position of play
                own = pool[:need]
            taken = set(own)
            pool = [c for c in pool if c not in taken]
            downs.append(tuple(own))
        dealt: list[Pile] = []
        for q in (0, 1):
            hand = hands[q]
            if hand is None:
                hand = tuple(pool[: view.hand_sizes[q]])
                pool = pool[view.hand_sizes[q] :]
            dealt.append(hand)
        return state_of(
            view,
            (downs[0] + view.reserves_up[0], downs[1] + view.reserves_up[1]),
            (dealt[0], dealt[1]),
        )


class PlannerBot:
    """Plans each stretch of its turn up to the next new card, scoring the lines by
    rollouts over determinizations with sequential halving, and follows the chosen line
    (see the module documentation).

    Attributes:
        budget: rollouts per decision.
        width: moves tried at each position of a line.
        nodes: positions expanded per decision at most.
        turns: how many of the opponent's turns a rollout plays to their end.
        max_lines: the most lines a decision compares (a quarter of the budget, at least
            2 when the budget allows).
        remember: whether samples keep the remembered hands in their known order.
        memory: the hands' orders remembered from the views seen.
        line: the line chosen at the last decision that searched (empty before any).
        lines: how many lines the last decision compared (0 when it did not search).
        rollouts: how many rollouts the last decision ran.
        positions: how many moves the last decision's rollouts played.
        scored: how many legal moves the greedy ranking scored in the last decision's
            rollouts (its measure of cost: see
            [`SCORED_PER_ROLLOUT`][crapette.bots.planner.SCORED_PER_ROLLOUT]).
    """

    name = "planner"

    def __init__(
        self,
        seed: int = 0,
        budget: int = DEFAULT_PLANNER_BUDGET,
        width: int = 4,
        nodes: int = 300,
        turns: int = 2,
        remember: bool = True,
    ) -> None:
        """A planner.

        Args:
            seed: seeds the determinizations, rollouts and tie-breaks; the same seed plays
                the same moves.
            budget: rollouts per decision, from 1 to
                [`MAX_BUDGET`][crapette.bots.search.MAX_BUDGET]; a decision compares at
                most a quarter as many lines (at least 2), each scored at least once, and
                stops once its rollouts have scored ``SCORED_PER_ROLLOUT * budget`` moves.
            width: moves tried at each position (at least 2).
            nodes: positions expanded per decision at most (positive).
            turns: how many of the opponent's turns each rollout plays to their end (1 to
                4; 2 plays the opponent's next turn, the planner's own next turn and the
                opponent's turn after it).
            remember: sample the hidden cards with the hands it remembers in their known
                order ([`HandMemory`][crapette.bots.planner.HandMemory]); ``False``
                samples every hidden card uniformly, as the search bot does.

        Raises:
            UnknownBotError: a parameter is not an integer or out of range (a
                ``ValueError``).
        """
        limits = (
            ("budget", budget, 1, MAX_BUDGET),
            ("width", width, 2, 1000),
            ("nodes", nodes, 1, 1_000_000),
            ("turns", turns, 1, 4),
        )
        for label, value, low, high in limits:
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise UnknownBotError(
                    f"{label} must be an integer from {low} to {high}, not {show(value)}"
                )
        self.seed = seed
        self.budget = budget
        self.width = width
        self.nodes = nodes
        self.turns = turns
        self.remember = remember
        self.max_lines = max(min(2, budget), budget // 4)
        self.memory = HandMemory()
        self.line: Line = ()
        self.lines = 0
        self.rollouts = 0
        self.positions = 0
        self.scored = 0
        self._rng = Rng(seed)
        self._rest: list[Move] = []
        self._expect: PlayerView | None = None

    def on_deal_start(self, view: PlayerView) -> None:
        """Forget the line being followed and the hands remembered (a new deal starts)."""
        self._rest = []
        self._expect = None
        self.memory.forget()
        self.memory.see(view)

    def on_opponent_move(self, move: Move, view: PlayerView) -> None:
        """Remember what the opponent's move shows (a waste turned over into a hand)."""
        self.memory.see(view)

    def choose(self, view: PlayerView) -> Move:
        """The next move of the line being followed if the position is the one it
        predicts; otherwise the first move of the best line found by a new search."""
        self.lines = self.rollouts = self.positions = self.scored = 0
        self.memory.see(view)
        if self._rest and view == self._expect:
            return self._follow(view, self._rest.pop(0))
        self._rest = []
        if turn_start_call(view):
            return CALL_STOP
        state = sketch(view)
        moves = play_on_moves(view, view.legal_moves())
        if len(moves) == 1 or state.stop is not None:
            return greedy_move(state, self._rng, moves)
        found = plan_lines(state, self.width, self.nodes, self.max_lines)
        self.lines = len(found)
        won = [line for line in found if _wins(state, line)]
        if won:
            best = won[0]
        elif len(found) == 1:
            best = found[0]
        else:
            best = self._best(view, found)
        self.line = best
        self._rest = list(best[1:])
        return self._follow(view, best[0])

    def _follow(self, view: PlayerView, move: Move) -> Move:
        """Play ``move`` and remember the view the rest of the line expects after it."""
        self._expect = None
        if self._rest:
            try:
                self._expect = view.after(move)
            except ValueError:  # pragma: no cover - a line's inner moves show no new card
                self._rest = []
        return move

    def _best(self, view: PlayerView, found: list[Line]) -> Line:
        """The line with the best mean rollout value, by sequential halving: each round
        gets an equal share of the rollouts still affordable, then the worse half of the
        lines drops out."""
        p = view.to_act
        cap = SCORED_PER_ROLLOUT * self.budget
        alive = list(range(len(found)))
        totals = [0] * len(found)
        rounds = max(1, math.ceil(math.log2(len(found))))
        done = 0  # samples in this round
        while self.rollouts + len(alive) <= self.budget and self.scored < cap:
            start = self._sample(view)
            seed = self._rng.next64()
            for i in alive:
                state = start
                for move in found[i]:
                    state = apply_unchecked(state, move)
                value, played, scored = play_out(state, p, Rng(seed), self.turns)
                totals[i] += value
                self.rollouts += 1
                self.positions += played
                self.scored += scored
            done += 1
            share = (self._affordable(cap) + done * len(alive)) // (len(alive) * rounds)
            if done >= share and len(alive) > 1:
                alive.sort(key=lambda i: (-totals[i], i))
                alive = sorted(alive[: (len(alive) + 1) // 2])
                rounds = max(1, rounds - 1)
                done = 0
            if len(alive) == 1:
                break
        return found[min(alive, key=lambda i: (-totals[i], i))]

    def _sample(self, view: PlayerView) -> GameState:
        """A complete state consistent with ``view`` to score the lines on: with the
        remembered hands in their known order, or uniformly (``remember=False``)."""
        if self.remember:
            return self.memory.sample(view, self._rng)
        return determinize(view, self._rng)

    def _affordable(self, cap: int) -> int:
        """How many more rollouts this decision may run, by its budget and by its cap on
        the moves its rollouts score (at the mean cost of its rollouts so far)."""
        left = self.budget - self.rollouts
        if self.rollouts:
            per = self.scored / self.rollouts
            left = min(left, int((cap - self.scored) / per)) if per else left
        return max(0, left)

    def __repr__(self) -> str:
        return f"PlannerBot(seed={self.seed}, budget={self.budget})"
