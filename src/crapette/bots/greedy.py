"""The greedy bot: a fixed, documented ranking of moves, looking one move ahead.

Every legal move gets a score and the bot plays the best (ties broken at random, from its
seed). The ranking, highest first (every move of a line ranks above every move of the later
lines; ``tests/test_bot_ranking.py`` checks it line by line):

1. **Stop! decisions**: call "Stop!" when it helps: always under the ``card`` penalty (the
   offender takes a card and the turn passes), and under ``undo`` when the violation did not
   already end the offender's turn (calling wins the turn); otherwise let it stand. Under
   ``call_window="turn_start"`` (Bobcrapette's call, before the turn's first move) the call
   ranks first when the opponent's last turn ended by a violation (``view.fault``) and last
   of all otherwise: the bot never makes a false call.
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
11. Turning a hand card; then discarding it, flipping the hand's top card onto the waste
    (``turn_end="flip"``) or ending the turn.
12. A house move that does none of the above (a pointless shuffle, or a lone card or run
    moved to an empty house) ranks below everything, so the bot never plays one while
    anything else is legal. (Under ``sterile_moves="forbidden"`` the lone card or whole
    house moved to an empty house is not legal at all; the ranking already never wanted it.)

Under callable Stop! rules a move that breaks the priority rules ranks below every other
move (the opponent would call it). Under the ``bobcrapette`` priority only a move that ends
the turn (``flip``, a discard, ``end``) while the reserve top or a starter can go to a
foundation breaks it, so the bot plays its obligations (foundation moves rank high anyway)
before it ends its turn, in any order within the turn. Every pack ranks alike: the ranking
reads piles and fits, never card ranks. With ``blocked="draw"`` the ranking does not
change; the search bots' evaluation scores a blocked deal as the draw it is.
"""

from __future__ import annotations

from crapette.bots._greedy import _greedy_choice, greedy_move, move_score, ranked_scores
from crapette.bots.base import play_on_moves, turn_start_call
from crapette.deal import Rng
from crapette.errors import InvalidArgumentError
from crapette.moves import CALL_STOP, Move
from crapette.views import PlayerView, sketch

__all__ = ["GreedyBot", "greedy_move", "move_score", "ranked_scores"]


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
        """The best-ranked legal move of the position seen by ``view``; at the start of a
        turn under ``call_window="turn_start"``, a call exactly when the opponent's last
        turn was a fault ([`turn_start_call`][crapette.bots.base.turn_start_call])."""
        moves = view.legal_moves()
        if not moves:
            raise InvalidArgumentError("GreedyBot: no legal move (the deal is over)")
        if turn_start_call(view):
            return CALL_STOP
        # The view's moves are the library's own list (legal in the sketch, which shows the
        # same cards): ranked without checking them again in Python (the native binding
        # still checks that each is legal before the core reads it).
        return _greedy_choice(sketch(view), self._rng, play_on_moves(view, moves))

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed})"
