"""Applying moves: [`apply`][crapette._engine.apply] (checked) and
[`apply_unchecked`][crapette._engine.apply_unchecked] (the fast path for
bots and simulations, which trusts that the move comes from ``legal_moves``).

Both are the native engine's (the C core) when it runs, else the Python engine's,
``python_apply`` and
``python_apply_unchecked``, written here: the
readable statement of every transition (docs/rules.md), which the native engine is tested
against move for move."""

from __future__ import annotations

from collections.abc import Callable

from crapette import _hooks
from crapette._build import argument_type_error
from crapette._laws import (
    foundation_pile,
    illegal_move_error,
    is_legal,
    python_refusal,
    violation,
)
from crapette._movegen import known_moves
from crapette._tables import house_key, layout_key_after
from crapette.moves import FOUNDATION, HAND, OPP_RESERVE, RESERVE, Action, Move, listed
from crapette.outcome import python_winner
from crapette.state import _NATIVE, GameState, PendingStop, Pile, PythonState, SeenLog, make_state

__all__ = ["apply", "apply_unchecked", "python_apply", "python_apply_unchecked"]


def python_apply(state: GameState, move: Move | str) -> GameState:
    """The Python engine's [`apply`][crapette._engine.apply] (``state`` a ``PythonState``).

    The check looks at this one move (``_laws.is_legal``), not at the whole list of legal
    moves; when ``legal_moves(state)`` was the last list made, the move is looked up in it.
    """
    if not isinstance(state, PythonState):
        raise argument_type_error(GameState, state)
    if not isinstance(move, Move):
        if not isinstance(move, str):
            raise TypeError(f"apply() needs a Move, not {move!r} ({type(move).__name__})")
        parse_move = _hooks.need(_hooks.parse_move, "parse_move")
        return python_apply_unchecked(state, parse_move(state, move))
    known = known_moves(state)
    if not ((known is not None and listed(move, known)) or is_legal(state, move)):
        raise illegal_move_error(state, move, python_refusal(state, move))
    if state.stop is None and state.rules.stop == "enforced":
        return _play(state, move)  # what apply_unchecked does here, without its checks
    return python_apply_unchecked(state, move)


def python_apply_unchecked(state: GameState, move: Move) -> GameState:
    """Like ``python_apply`` without the legality check: for
    moves taken from ``legal_moves(state)``. Anything else gives an undefined (possibly
    invalid) state."""
    if not isinstance(state, PythonState):
        raise argument_type_error(GameState, state)
    if state.stop is not None:
        return _decide_stop(state, move)
    if state.rules.stop != "enforced" and violation(state, move) is not None:
        after = _play(state, move)
        if python_winner(after) is not None:
            return after
        pending = PendingStop(state, move, state.to_act, after.to_act)
        return _with(after, 1 - state.to_act, pending, after.moves_made, after.hands, after.wastes)
    return _play(state, move)


def _set(piles: tuple[Pile, ...], i: int, value: Pile) -> tuple[Pile, ...]:
    items = list(piles)
    items[i] = value
    return tuple(items)


def _pair(pair: tuple[Pile, ...], p: int, value: Pile) -> tuple[Pile, ...]:
    return (value, pair[1]) if p == 0 else (pair[0], value)


def _play(state: GameState, move: Move) -> GameState:
    """The plain transition for a move of the player to act (no Stop! handling)."""
    source, target = move.source, move.target
    if 0 <= source < 8 and 0 <= target < 8:
        return _house_to_house(state, source, target, move.count)
    p = state.to_act
    foundations = state.foundations
    houses = state.houses
    reserves = state.reserves
    reserve_up = state.reserve_up
    hands = state.hands
    wastes = state.wastes
    turned = state.turned
    emptied = state.emptied
    passes = state.passes
    to_act = p
    action = move.action
    seen_log: SeenLog | None = None
    seen_size = 0
    key = state.houses_key

    if action is Action.PLAY:
        source, target, count = move.source, move.target, move.count
        if source < 8:
            pile = houses[source]
            cards = pile[-count:]
            houses = _set(houses, source, pile[:-count])
            key ^= _key_delta(source, len(pile) - count, cards)
            if count == len(pile):
                emptied |= 1 << source
        elif source == RESERVE:
            pile = reserves[p]
            cards = pile[-1:]
            rest = pile[:-1]
            reserves = _pair(reserves, p, rest)
            up = reserve_up[p] - 1 if reserve_up[p] > 1 else (1 if rest else 0)
            reserve_up = (up, reserve_up[1]) if p == 0 else (reserve_up[0], up)
        elif source == HAND:
            assert turned is not None
            cards = (turned,)
            turned = None
        else:
            pile = wastes[p]
            cards = pile[-1:]
            wastes = _pair(wastes, p, pile[:-1])
        if target == FOUNDATION:
            i = foundation_pile(foundations, cards[0])
            assert i is not None, f"no foundation takes {cards[0]!r}"
            foundations = _set(foundations, i, foundations[i] + cards)
        elif target < 8:
            key ^= _key_delta(target, len(houses[target]), cards)
            houses = _set(houses, target, houses[target] + cards)
            emptied &= ~(1 << target)
        elif target == OPP_RESERVE:
            q = 1 - p
            reserves = _pair(reserves, q, reserves[q] + cards)
            reserve_up = (
                (reserve_up[0] + 1, reserve_up[1])
                if q == 0
                else (
                    reserve_up[0],
                    reserve_up[1] + 1,
                )
            )
        else:
            q = 1 - p
            wastes = _pair(wastes, q, wastes[q] + cards)
        if source >= 8:
            passes = (0, 0)
        if source < 8 and target < 8:
            seen_log, seen_size = _extend(state, key)
    elif action is Action.DRAW:
        hand = hands[p]
        if not hand:
            hand = wastes[p][::-1]
            wastes = _pair(wastes, p, ())
            passes = _pass_done(passes, p)
        turned = hand[-1]
        hands = _pair(hands, p, hand[:-1])
    elif action is Action.DISCARD:
        assert turned is not None
        wastes = _pair(wastes, p, wastes[p] + (turned,))
        turned = None
        to_act = 1 - p
    elif action is Action.END_TURN:
        passes = _pass_done(passes, p)
        to_act = 1 - p
    elif action is Action.REVEAL:
        reserve_up = (1, reserve_up[1]) if p == 0 else (reserve_up[0], 1)
    else:  # pragma: no cover - Stop! decisions never reach here
        raise AssertionError(f"{move} is not a move of play")
    if to_act != p:
        emptied = 0
    # Positional (field order) for speed: see make_state.
    return make_state(
        state.rules,  # rules
        to_act,  # to_act
        foundations,  # foundations
        houses,  # houses
        reserves,  # reserves
        reserve_up,  # reserve_up
        hands,  # hands
        wastes,  # wastes
        turned,  # turned
        None,  # stop
        emptied,  # emptied
        passes,  # passes
        state.moves_made + 1,  # moves_made
        key,  # houses_key
        seen_log,  # seen_log
        seen_size,  # seen_size
    )


def _extend(state: GameState, key: int) -> tuple[SeenLog | None, int]:
    """The layouts seen this turn (log and size), after a house move to layout ``key``."""
    log = state.seen_log
    if log is None:
        if key == state.houses_key:
            return None, 0
        return SeenLog([state.houses_key, key]), 2
    return log.after(state.seen_size, key)


def _house_to_house(state: GameState, source: int, target: int, count: int) -> GameState:
    """The most frequent move, on its own path: ``count`` cards from house to house. Only
    the two houses, their layout key, ``emptied`` and ``seen`` change."""
    houses = state.houses
    pile = houses[source]
    dest = houses[target]
    depth = len(pile) - count
    cards = pile[depth:]
    items = list(houses)
    items[source] = pile[:depth]
    items[target] = dest + cards
    key = layout_key_after(state.houses_key, houses, source, target, count)
    emptied = state.emptied & ~(1 << target)
    seen_log, seen_size = _extend(state, key)
    if not depth:
        emptied |= 1 << source
    # Positional (field order) for speed: see make_state.
    return make_state(
        state.rules,  # rules
        state.to_act,  # to_act
        state.foundations,  # foundations
        tuple(items),  # houses
        state.reserves,  # reserves
        state.reserve_up,  # reserve_up
        state.hands,  # hands
        state.wastes,  # wastes
        state.turned,  # turned
        None,  # stop
        emptied,  # emptied
        state.passes,  # passes
        state.moves_made + 1,  # moves_made
        key,  # houses_key
        seen_log,  # seen_log
        seen_size,  # seen_size
    )


def _key_delta(house: int, depth: int, cards: Pile) -> int:
    """The XOR of the Zobrist keys of ``cards`` lying in ``house`` from ``depth`` up (a
    house's part of the layout key: ``_tables.house_key``)."""
    delta = 0
    for i, card in enumerate(cards):
        delta ^= house_key(house, depth + i, card)
    return delta


def _pass_done(passes: tuple[int, ...], p: int) -> tuple[int, ...]:
    """Player ``p`` finished a pass through the hand: a clean pass (no progress since it
    began) counts as complete (2); otherwise a clean pass begins (1)."""
    mark = 2 if passes[p] else 1
    return (mark, passes[1]) if p == 0 else (passes[0], mark)


def _decide_stop(state: GameState, move: Move) -> GameState:
    pending = state.stop
    assert pending is not None
    moves_made = state.moves_made + 1
    if move.action is Action.LET_STAND:
        return _with(state, pending.resume, None, moves_made, state.hands, state.wastes)
    caller = state.to_act
    offender = pending.offender
    if state.rules.stop == "undo":
        after = pending.prior
        broken = violation(after, pending.move)
        assert broken is not None
        for remedy in broken.remedy:
            after = _play(after, remedy)
        return _pass_turn(after, offender, caller, moves_made, after.hands, after.wastes)
    hands, wastes = state.hands, state.wastes
    if hands[caller]:
        penalty, hands = hands[caller][0], _pair(hands, caller, hands[caller][1:])
    elif wastes[caller]:
        penalty, wastes = wastes[caller][0], _pair(wastes, caller, wastes[caller][1:])
    else:
        return _pass_turn(state, offender, caller, moves_made, hands, wastes)
    hands = _pair(hands, offender, (penalty, *hands[offender]))
    return _pass_turn(state, offender, caller, moves_made, hands, wastes)


def _pass_turn(
    state: GameState,
    offender: int,
    caller: int,
    moves_made: int,
    hands: tuple[Pile, ...],
    wastes: tuple[Pile, ...],
) -> GameState:
    """End the offender's turn after a Stop! call (``state`` with these hands and wastes): a
    still-turned hand card goes back on top of the offender's hand, and the caller is to act
    in a new turn."""
    if state.turned is not None:
        hands = _pair(hands, offender, (*hands[offender], state.turned))
    return _with(state, caller, None, moves_made, hands, wastes, turn_ends=True)


def _with(
    state: GameState,
    to_act: int,
    stop: PendingStop | None,
    moves_made: int,
    hands: tuple[Pile, ...],
    wastes: tuple[Pile, ...],
    *,
    turn_ends: bool = False,
) -> GameState:
    """``state`` with these fields changed, built directly (the Stop! transitions; the
    values are the engine's own, so nothing is checked); ``turn_ends`` also puts away the
    turned card, the houses emptied and the layouts seen, which belong to a turn."""
    return make_state(
        state.rules,
        to_act,
        state.foundations,
        state.houses,
        state.reserves,
        state.reserve_up,
        hands,
        wastes,
        None if turn_ends else state.turned,
        stop,
        0 if turn_ends else state.emptied,
        state.passes,
        moves_made,
        state.houses_key,
        None if turn_ends else state.seen_log,
        0 if turn_ends else state.seen_size,
    )


apply: Callable[[GameState, Move | str], GameState] = (
    python_apply if _NATIVE is None else _NATIVE.apply
)
"""The state after ``move``; ``state`` itself is never changed.

``move`` is a [`Move`][crapette.Move] or its text in move notation, read by
[`parse_move`][crapette.parse_move]: ``apply(state, "R-F")`` plays by text in one step.

Raises:
    TypeError: ``state`` is not a ``GameState`` or ``move`` neither a ``Move`` nor a str.
    NotationError: ``move`` is a malformed move text.
    IllegalMoveError: the move is not in ``legal_moves(state)``; the message names the
        move and says why.
"""

apply_unchecked: Callable[[GameState, Move], GameState] = (
    python_apply_unchecked if _NATIVE is None else _NATIVE.apply_unchecked
)
"""Like [`apply`][crapette._engine.apply] without the legality check: for moves taken from
``legal_moves(state)``. Anything else gives an undefined (possibly invalid) state (the native
engine refuses a move it cannot make at all with ``IllegalMoveError``)."""
