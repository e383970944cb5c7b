"""The greedy bot: a fixed, documented ranking of moves, looking one move ahead.

Every legal move gets a score and the bot plays the best (ties broken at random, from its
seed). The ranking, highest first (every move of a line ranks above every move of the later
lines; ``tests/test_bot_ranking.py`` checks it line by line):

1. **Stop! decisions**: call "Stop!" when it helps: always under the ``card`` penalty (the
   offender takes a card and the turn passes), and under ``undo`` when the violation did not
   already end the offender's turn (calling wins the turn); otherwise let it stand.
2. Turning a face-down reserve top (free information).
3. **Foundations first**: the reserve's card, then the turned hand card, then the waste's,
   then a house's (one that empties its house first).
4. **Emptying the reserve**: the reserve top loaded on the opponent's reserve, then on the
   opponent's waste, then built on a house.
5. **Loading the opponent** with the turned hand card or the waste top (reserve before
   waste).
6. The reserve top put on an empty house.
7. The turned hand card or the waste top built on a house.
8. Loading the opponent from a house: emptying the house first, the opponent's reserve
   before their waste.
9. **House to house** only when the move helps, looking one move ahead: it empties a house
   onto another, or the card it uncovers takes more of your own cards (reserve top, turned
   card, waste top) than the covered top did, goes to a foundation or loads the opponent
   (using up an empty house counts against it). Putting the turned card or the waste top
   on an empty house ranks here too when your reserve is empty.
10. The turned card or the waste top on an empty house while your reserve has cards (an
    open house is worth keeping for the reserve).
11. Turning a hand card; then discarding it or ending the turn.
12. A house move that does none of the above (a pointless shuffle, or a lone card or run
    moved to an empty house) ranks below everything, so the bot never plays one while
    anything else is legal.

Under callable Stop! rules a move that breaks the priority rules ranks below every other
move (the opponent would call it).
"""

from __future__ import annotations

from crapette._laws import builds_on, fits_foundation, fits_load, violation
from crapette._movegen import legal_moves
from crapette.bots.base import call_helps
from crapette.cards import Card
from crapette.deal import Rng
from crapette.moves import (
    CALL_STOP,
    FOUNDATION,
    HAND,
    LET_STAND,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    Action,
    Move,
)
from crapette.state import GameState
from crapette.views import PlayerView, sketch

__all__ = ["GreedyBot", "greedy_move", "move_score"]

_POINTLESS = -100
_VIOLATION = -10_000


def _own_cards(state: GameState) -> list[Card]:
    """The player's own available cards: reserve top (face up), turned card, waste top."""
    p = state.to_act
    out = []
    reserve = state.reserves[p]
    if reserve and state.reserve_up[p]:
        out.append(reserve[-1])
    if state.turned is not None:
        out.append(state.turned)
    waste = state.wastes[p]
    if waste and state.rules.own_waste_playable:
        out.append(waste[-1])
    return out


def _shuffle_gain(state: GameState, move: Move) -> int:
    """What a house-to-house move that does not empty its house opens up, looking one move
    ahead: own cards that may then be built on the uncovered card, plus the uncovered card
    going to a foundation or loading the opponent, less own cards the covered top took."""
    source, target = move.source, move.target
    pile = state.houses[source]
    exposed = pile[-move.count - 1]
    own = _own_cards(state)
    gain = sum(1 for card in own if builds_on(exposed, card))
    if fits_foundation(state.foundations, exposed):
        gain += 2
    covered = state.houses[target]
    if covered:
        gain -= sum(1 for card in own if builds_on(covered[-1], card))
    else:
        gain -= 1  # an empty house used up
    q = 1 - state.to_act
    for pile_q, face_up in ((state.reserves[q], state.reserve_up[q]), (state.wastes[q], 1)):
        if (
            pile_q
            and face_up
            and state.rules.load_from == "any"
            and fits_load(pile_q[-1], exposed, state.rules.load_wrap)
        ):
            gain += 1
    return gain


def move_score(state: GameState, move: Move) -> int:
    """The greedy ranking of a legal ``move`` for the player to act (higher is better).

    Args:
        state: the position (a full state or a view's sketch; only visible cards are read).
        move: one of ``legal_moves(state)``.
    """
    action = move.action
    if action is not Action.PLAY:
        if action is Action.REVEAL:
            return 1000
        if action is Action.DRAW:
            return 100
        return 0
    source, target = move.source, move.target
    houses = state.houses
    if target == FOUNDATION:
        if source == RESERVE:
            return 960
        if source == HAND:
            return 950
        if source > HAND:
            return 940
        return 930 if len(houses[source]) == 1 else 920
    if source == RESERVE:
        if target == OPP_RESERVE:
            return 820
        if target == OPP_WASTE:
            return 800
        return 700 if houses[target] else 600
    if source >= HAND:
        if target == OPP_RESERVE:
            return 660
        if target == OPP_WASTE:
            return 650
        if houses[target]:
            return 550
        return 350 if state.reserves[state.to_act] else 450
    # From a house.
    empties = len(houses[source]) == move.count
    if target >= OPP_RESERVE:
        return 500 + (30 if empties else 0) + (10 if target == OPP_RESERVE else 0)
    if empties and houses[target]:
        return 450
    if empties:
        return _POINTLESS  # a lone card (or run) moved to an empty house
    gain = _shuffle_gain(state, move)
    return 400 + 10 * gain if gain > 0 else _POINTLESS


def greedy_move(state: GameState, rng: Rng, moves: tuple[Move, ...] | None = None) -> Move:
    """The greedy bot's move in ``state`` (for its player to act), ties broken by ``rng``.

    Args:
        state: the position (a full state or a view's sketch).
        rng: breaks ties between equally ranked moves.
        moves: ``legal_moves(state)`` if already known.
    """
    if moves is None:
        moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    stop = state.stop
    if stop is not None:
        return CALL_STOP if call_helps(state.rules, stop.offender, stop.resume) else LET_STAND
    callable_stop = state.rules.stop != "enforced"
    best: list[Move] = []
    top = _VIOLATION * 2
    for move in moves:
        score = move_score(state, move)
        if callable_stop and violation(state, move) is not None:
            score += _VIOLATION
        if score > top:
            top = score
            best = [move]
        elif score == top:
            best.append(move)
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


class GreedyBot:
    """Plays the best move by the fixed ranking of this module (see its documentation):
    foundations first, then emptying the reserve, loading the opponent, keeping houses
    open, and no pointless house shuffles; it calls "Stop!" when that helps."""

    name = "greedy"
    """The bot's name (a subclass names itself with a class attribute ``name``)."""

    def __init__(self, seed: int = 0) -> None:
        """Seed the tie-breaking generator; the same seed plays the same moves."""
        self.seed = seed
        self._rng = Rng(seed)

    def choose(self, view: PlayerView) -> Move:
        """The best-ranked legal move of the position seen by ``view``."""
        return greedy_move(sketch(view), self._rng, view.legal_moves())

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed})"
