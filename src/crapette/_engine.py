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
from typing import Any

from crapette import _hooks
from crapette._build import argument_type_error
from crapette._fits import tables
from crapette._laws import (
    FALSE_CALLS,
    ends_turn,
    foundation_pile,
    illegal_move_error,
    is_legal,
    python_refusal,
    violation,
)
from crapette._movegen import known_moves
from crapette._tables import house_key, layout_key_after
from crapette.errors import IllegalMoveError
from crapette.moves import FOUNDATION, HAND, OPP_RESERVE, RESERVE, Action, Move, listed
from crapette.outcome import python_winner
from crapette.state import (
    _FIELDS,
    _NATIVE,
    GameState,
    PendingStop,
    Pile,
    PythonState,
    SeenLog,
    make_state,
)

__all__ = ["apply", "apply_unchecked", "python_apply", "python_apply_unchecked"]


MOVES_MADE_LIMIT = 2**32 - 1
"""The most moves a state counts (the native engine's counter is 32 bits wide): a move from
a state that made this many is refused, in both engines, before the counter could wrap. No
deal gets near it (the move cap is at most 10**9); only ``apply_unchecked`` played on past
the end of a deal could."""


class _Unmakeable(Exception):
    """A move that cannot be made at all in a state (a card that is not there, no
    foundation for it, no Stop! decision to decide): ``apply_unchecked`` refuses it with
    ``IllegalMoveError``, as the native engine does."""


def _unmakeable(state: GameState, move: Move) -> IllegalMoveError:
    return illegal_move_error(state, move, python_refusal(state, move))


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
    moves taken from ``legal_moves(state)``. Another move gives an undefined state, or
    ``IllegalMoveError`` for a move that cannot be made at all (as the native engine's)."""
    if not isinstance(state, PythonState):
        raise argument_type_error(GameState, state)
    if not isinstance(move, Move):
        raise TypeError(f"not a Move: {move!r}")
    if state.moves_made >= MOVES_MADE_LIMIT:
        raise _unmakeable(state, move)
    try:
        if state.stop is not None:
            return _decide_stop(state, move)
        rules = state.rules
        if rules.stop != "enforced" and rules.call_window == "turn_start":
            return _turn_start_rules(state, move)
        if rules.stop != "enforced" and violation(state, move) is not None:
            after = _play(state, move)
            if python_winner(after) is not None:
                return after
            pending = PendingStop(state, move, state.to_act, after.to_act)
            return _with(
                after, 1 - state.to_act, pending, after.moves_made, after.hands, after.wastes
            )
        return _play(state, move)
    except _Unmakeable:
        raise _unmakeable(state, move) from None


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

    t = tables(state.rules)
    if action is Action.PLAY:
        source, target, count = move.source, move.target, move.count
        if source < 8:
            pile = houses[source]
            if count > len(pile):
                raise _Unmakeable
            cards = pile[-count:]
            houses = _set(houses, source, pile[:-count])
            key ^= _key_delta(source, len(pile) - count, cards, t.ncards)
            if count == len(pile):
                emptied |= 1 << source
        elif source == RESERVE:
            pile = reserves[p]
            if not pile:
                raise _Unmakeable
            cards = pile[-1:]
            rest = pile[:-1]
            reserves = _pair(reserves, p, rest)
            up = reserve_up[p] - 1 if reserve_up[p] > 1 else (1 if rest else 0)
            reserve_up = (up, reserve_up[1]) if p == 0 else (reserve_up[0], up)
        elif source == HAND:
            if turned is None:
                raise _Unmakeable
            cards = (turned,)
            turned = None
        else:
            pile = wastes[p]
            if not pile:
                raise _Unmakeable
            cards = pile[-1:]
            wastes = _pair(wastes, p, pile[:-1])
        if target == FOUNDATION:
            i = foundation_pile(foundations, cards[0], t)
            if i is None:
                raise _Unmakeable
            foundations = _set(foundations, i, foundations[i] + cards)
        elif target < 8:
            key ^= _key_delta(target, len(houses[target]), cards, t.ncards)
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
        if turned is not None or not (hand or wastes[p]):
            raise _Unmakeable
        if not hand:
            hand = wastes[p][::-1]
            wastes = _pair(wastes, p, ())
            passes = _pass_done(passes, p)
        turned = hand[-1]
        hands = _pair(hands, p, hand[:-1])
    elif action is Action.DISCARD:
        if turned is None:
            raise _Unmakeable
        wastes = _pair(wastes, p, wastes[p] + (turned,))
        turned = None
        to_act = 1 - p
    elif action is Action.FLIP:
        hand = hands[p]
        waste = wastes[p]
        if not hand:
            hand = waste[::-1]
            waste = ()
            passes = _pass_done(passes, p)
        hands = _pair(hands, p, hand[:-1])
        wastes = _pair(wastes, p, (*waste, hand[-1]))
        to_act = 1 - p
    elif action is Action.END_TURN:
        passes = _pass_done(passes, p)
        to_act = 1 - p
    elif action is Action.REVEAL:
        reserve_up = (1, reserve_up[1]) if p == 0 else (reserve_up[0], 1)
    else:  # a Stop! decision with no decision open
        raise _Unmakeable
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
        None,  # fault
        False,  # window
        state.false_calls,  # false_calls
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
    if depth < 0:
        raise _Unmakeable
    cards = pile[depth:]
    items = list(houses)
    items[source] = pile[:depth]
    items[target] = dest + cards
    key = layout_key_after(
        state.houses_key, houses, source, target, count, tables(state.rules).ncards
    )
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
        None,  # fault
        False,  # window
        state.false_calls,  # false_calls
        key,  # houses_key
        seen_log,  # seen_log
        seen_size,  # seen_size
    )


def _key_delta(house: int, depth: int, cards: Pile, count: int) -> int:
    """The XOR of the Zobrist keys of ``cards`` lying in ``house`` from ``depth`` up in a
    game of ``count`` cards (a house's part of the layout key: ``_tables.house_key``)."""
    delta = 0
    for i, card in enumerate(cards):
        delta ^= house_key(house, depth + i, card, count)
    return delta


def _pass_done(passes: tuple[int, ...], p: int) -> tuple[int, ...]:
    """Player ``p`` finished a pass through the hand: a clean pass (no progress since it
    began) counts as complete (2); otherwise a clean pass begins (1)."""
    mark = 2 if passes[p] else 1
    return (mark, passes[1]) if p == 0 else (passes[0], mark)


def _decide_stop(state: GameState, move: Move) -> GameState:
    pending = state.stop
    assert pending is not None  # the caller's test
    moves_made = state.moves_made + 1
    if move.action is Action.LET_STAND:
        return _with(state, pending.resume, None, moves_made, state.hands, state.wastes)
    if move.action is not Action.CALL_STOP:
        raise _Unmakeable
    caller = state.to_act
    offender = pending.offender
    if state.rules.stop == "undo":
        after = pending.prior
        broken = violation(after, pending.move)
        if broken is None:  # not a state of play (one its constructor refuses)
            raise _Unmakeable
        for remedy in broken.remedy:
            after = _play(after, remedy)
        return _pass_turn(after, offender, caller, moves_made, after.hands, after.wastes)
    if state.rules.stop == "lose_draw":
        return _lose_draw(state, pending, caller, moves_made)
    hands, wastes = _penalty_card(state.hands, state.wastes, caller, offender)
    return _pass_turn(state, offender, caller, moves_made, hands, wastes)


def _lose_draw(state: GameState, pending: PendingStop, caller: int, moves_made: int) -> GameState:
    """The ``lose_draw`` penalty: a violating ``flip`` is taken back (the offender's hand,
    waste and pass marks as before it) and nothing else, so the missed move still waits; any
    other violation stands and the offender's turn ends at once; the caller plays on."""
    offender = pending.offender
    if pending.move.action is not Action.FLIP:
        return _pass_turn(state, offender, caller, moves_made, state.hands, state.wastes)
    prior = pending.prior
    taken_back = make_state(
        state.rules,
        state.to_act,
        state.foundations,
        state.houses,
        state.reserves,
        state.reserve_up,
        prior.hands,
        prior.wastes,
        state.turned,
        None,
        state.emptied,
        prior.passes,
        state.moves_made,
        None,
        False,
        state.false_calls,
        state.houses_key,
        state.seen_log,
        state.seen_size,
    )
    return _pass_turn(taken_back, offender, caller, moves_made, prior.hands, prior.wastes)


def _turn_start_rules(state: GameState, move: Move) -> GameState:
    """A move under ``call_window="turn_start"`` (with a callable Stop!): a Stop! call at
    the start of a turn (``_call``); any other move closes the turn's call window, and a move
    that ends the turn opens the next player's, keeping the move as the fault a call then
    punishes when it broke a priority rule."""
    if move.action is Action.CALL_STOP:
        return _call(state)
    broken = violation(state, move) if ends_turn(move) else None
    after = _play(state, move)
    if after.to_act == state.to_act:
        return after
    if broken is None:
        return _new_turn(after, after.to_act, None)
    # The prior is kept with its own call window closed: a call answers only the last turn.
    prior = state
    if state.window or state.fault is not None:
        prior = _remade(state, fault=None, window=False)
    return _new_turn(after, after.to_act, PendingStop(prior, move, state.to_act, after.to_act))


def _new_turn(state: GameState, to_act: int, fault: PendingStop | None) -> GameState:
    """``state`` at the start of ``to_act``'s turn under ``call_window="turn_start"``: the
    call window open, with the fault a call would punish (or ``None``)."""
    return make_state(
        state.rules,
        to_act,
        state.foundations,
        state.houses,
        state.reserves,
        state.reserve_up,
        state.hands,
        state.wastes,
        None,
        None,
        0,
        state.passes,
        state.moves_made,
        fault,
        True,
        state.false_calls,
        state.houses_key,
        None,
        0,
    )


def _call(state: GameState) -> GameState:
    """A Stop! call at the start of the caller's turn (``call_window="turn_start"``). Right
    (the previous turn ended by a violation): the ``stop`` penalty applies to that turn end
    and the caller plays on. Wrong: ``false_call`` says what it costs (``lose_turn``: the
    caller's turn ends at once; ``none``: nothing; ``rationed``: one of 3 false calls of the
    deal)."""
    rules = state.rules
    caller = state.to_act
    moves_made = state.moves_made + 1
    fault = state.fault
    if fault is not None:
        offender = fault.offender
        if rules.stop == "undo":
            after = fault.prior
            broken = violation(after, fault.move)
            assert broken is not None
            for remedy in broken.remedy:
                after = _play(after, remedy)
            after = _pass_turn(after, offender, caller, moves_made, after.hands, after.wastes)
        elif rules.stop == "lose_draw":
            after = _lose_draw(state, fault, caller, moves_made)
        else:
            hands, wastes = _penalty_card(state.hands, state.wastes, caller, offender)
            after = _pass_turn(state, offender, caller, moves_made, hands, wastes)
        return _with(after, caller, None, moves_made, after.hands, after.wastes, calls=state)
    if rules.false_call == "lose_turn":
        after = _with(state, caller, None, moves_made, state.hands, state.wastes, calls=state)
        return _new_turn(after, 1 - caller, None)
    calls = state.false_calls
    if rules.false_call == "rationed":
        used = min(calls[caller] + 1, FALSE_CALLS)
        calls = (used, calls[1]) if caller == 0 else (calls[0], used)
    after = _with(state, caller, None, moves_made, state.hands, state.wastes)
    return _remade(after, false_calls=calls)


def _remade(state: GameState, **changes: Any) -> GameState:
    """A Python engine's state with some fields changed, built by ``make_state`` from every
    field in field order."""
    return make_state(*[changes.get(name, getattr(state, name)) for name in _FIELDS])


def _penalty_card(
    hands: tuple[Pile, ...], wastes: tuple[Pile, ...], caller: int, offender: int
) -> tuple[tuple[Pile, ...], tuple[Pile, ...]]:
    """The ``card`` penalty: the bottom card of the caller's hand (else of their waste; if
    both are empty, none) goes to the bottom of the offender's hand."""
    if hands[caller]:
        penalty, hands = hands[caller][0], _pair(hands, caller, hands[caller][1:])
    elif wastes[caller]:
        penalty, wastes = wastes[caller][0], _pair(wastes, caller, wastes[caller][1:])
    else:
        return hands, wastes
    return _pair(hands, offender, (penalty, *hands[offender])), wastes


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
    calls: GameState | None = None,
) -> GameState:
    """``state`` with these fields changed, built directly (the Stop! transitions; the
    values are the engine's own, so nothing is checked); ``turn_ends`` also puts away the
    turned card, the houses emptied and the layouts seen, which belong to a turn. The call
    window closes (the false calls are ``calls``'s, by default ``state``'s)."""
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
        None,
        False,
        (state if calls is None else calls).false_calls,
        state.houses_key,
        None if turn_ends else state.seen_log,
        0 if turn_ends else state.seen_size,
    )


def _replay_stop(prior: GameState, move: Move) -> tuple[GameState | None, str | None]:
    """The state ``move`` gives from ``prior`` in the prior's engine, or ``(None, why)``
    when it is not legal there (the check of a hand-built pending Stop! decision)."""
    if isinstance(prior, PythonState):
        if not is_legal(prior, move):
            return None, str(illegal_move_error(prior, move, python_refusal(prior, move)))
        return python_apply_unchecked(prior, move), None
    try:
        return apply(prior, move), None
    except IllegalMoveError as error:
        return None, str(error)


_hooks.replay_stop = _replay_stop

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
