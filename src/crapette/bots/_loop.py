"""The one game loop: bots play a deal from a state, with a hook after every move.

The simulator, the ``crapette play --demo``, the search bot's rollouts and the tests all
play through [`play_deal`][crapette.bots.play_deal], so a deal between bots is played one way only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from crapette import apply_unchecked, legal_moves, why_illegal
from crapette._quote import show
from crapette.bots.base import Bot, _notify_deal_start, _notify_opponent_move
from crapette.errors import BotError
from crapette.moves import Move, listed
from crapette.state import GameState
from crapette.views import _observe

__all__ = ["MoveHook", "play_deal"]

Chooser = Callable[[GameState, tuple[Move, ...]], Move]
"""A player that sees the whole state: ``chooser(state, legal_moves) -> move``."""
MoveHook = Callable[[GameState, Move, GameState], object]
"""Called after each move as ``on_move(before, move, after)``; a true result stops the
deal there."""


def play_deal(
    state: GameState,
    bots: Sequence[Bot],
    *,
    on_move: MoveHook | None = None,
    max_moves: int | None = None,
) -> GameState:
    """Let ``bots[0]`` and ``bots[1]`` play from ``state`` until the deal ends; returns the
    last state.

    Each bot sees only its player's view ([`observe`][crapette.observe]), and the view hands it
    the legal moves the loop has already listed (``view.legal_moves()`` does not list them
    again). Every move a bot returns is checked.

    Args:
        state: where to start (any state; the deal need not be new).
        bots: the bot of player 0 and the bot of player 1 (the same bot may play both).
            Their optional hooks are called: ``on_deal_start(view)`` once before the first
            move, ``on_opponent_move(move, view)`` after each move of the other player, and
            ``peek(state)`` with the whole state (hidden cards included) before each
            ``choose`` of a bot that has it: only reference bots that are meant to see
            everything have it ([`AllSeeingBot`][crapette.bots.allseeing.AllSeeingBot]).
        on_move: called after every move with the state before it, the move and the state
            after it; for progress, records and time limits. If it returns a true value,
            the loop stops after that move.
        max_moves: stop after this many moves (``None``: play to the end of the deal).

    Raises:
        BotError: not two bots (objects with a ``choose`` method), or a bot returned a move
            that is not legal; the message names the bot, the player, the move and why it is
            illegal. (The loop does not know how the deal was made: the error's ``seed`` is
            -1; the simulator fills it in.)
    """
    if len(bots) != 2:
        raise BotError(f"play_deal needs two bots, got {len(bots)}", "", -1, None, ())
    for p, bot in enumerate(bots):
        if not callable(getattr(bot, "choose", None)):
            raise BotError(
                f"play_deal needs two bots: bot {p} ({show(bot)}) has no choose(view) method",
                "",
                -1,
                None,
                (),
            )

    def seat(p: int) -> Chooser:
        bot = bots[p]
        peek = getattr(bot, "peek", None)
        if peek is None:
            return lambda state, moves: bot.choose(_observe(state, p, moves))

        def seeing(state: GameState, moves: tuple[Move, ...]) -> Move:
            peek(state)  # the all-seeing reference bot is shown the whole state first
            return bot.choose(_observe(state, p, moves))

        return seeing

    names = tuple(getattr(bot, "name", type(bot).__name__) for bot in bots)
    for p in (0, 1):
        _notify_deal_start(bots[p], _observe(state, p, None))
    watchers = [hasattr(bot, "on_opponent_move") for bot in bots]
    hook = on_move
    if any(watchers):

        def hook(before: GameState, move: Move, after: GameState) -> object:
            other = 1 - before.to_act
            if watchers[other]:
                _notify_opponent_move(bots[other], move, _observe(after, other, None))
            return on_move(before, move, after) if on_move is not None else None

    return run_deal(state, (seat(0), seat(1)), names, on_move=hook, max_moves=max_moves)


def run_deal(
    state: GameState,
    choosers: tuple[Chooser, Chooser],
    names: Sequence[str],
    *,
    on_move: MoveHook | None = None,
    max_moves: int | None = None,
) -> GameState:
    """The loop of [`play_deal`][crapette.bots.play_deal], for players that see the whole
    state: each ``choosers[p](state, legal_moves)`` answers a move for player ``p``.
    Internal: the search bot's rollouts play greedy moves on the states they sample this
    way."""
    if max_moves is not None and max_moves < 0:
        raise BotError(f"max_moves must be 0 or more, not {show(max_moves)}", "", -1, None, ())
    played = 0
    while max_moves is None or played < max_moves:
        moves = legal_moves(state)
        if not moves:
            break
        p = state.to_act
        move = choosers[p](state, moves)
        if not listed(move, moves):
            reason = why_illegal(state, move) if isinstance(move, Move) else "not a Move"
            raise BotError(
                f"bot {names[p]!r} (player {p}) returned the illegal move {move} at move"
                f" {state.moves_made + 1} (rules {state.rules}): {reason}",
                names[p],
                -1,
                move,
                (),
            )
        after = apply_unchecked(state, move)
        played += 1
        if on_move is not None and on_move(state, move, after):
            return after
        state = after
    return state
