"""Applying moves: [`apply`][crapette._engine.apply] (checked) and
[`apply_unchecked`][crapette._engine.apply_unchecked] (the fast path for
bots and simulations, which trusts that the move comes from ``legal_moves``)."""

from __future__ import annotations

from crapette._laws import describe_illegal, fits_foundation, violation
from crapette._movegen import foundation_ready, legal_moves
from crapette._tables import CARD_KEYS, HOUSE_KEYS
from crapette.cards import FACE, RANK, Card
from crapette.errors import IllegalMoveError
from crapette.moves import (
    FOUNDATION,
    HAND,
    OPP_RESERVE,
    RESERVE,
    Action,
    Move,
)
from crapette.outcome import winner
from crapette.state import GameState, PendingStop, Pile

__all__ = ["apply", "apply_unchecked"]


def apply(state: GameState, move: Move) -> GameState:
    """The state after ``move``; ``state`` itself is never changed.

    Raises:
        TypeError: ``state`` is not a ``GameState`` or ``move`` not a ``Move``.
        IllegalMoveError: the move is not in ``legal_moves(state)``; the message names the
            move and says why.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"apply() needs a GameState, not {type(state).__name__}")
    if not isinstance(move, Move):
        raise TypeError(f"apply() needs a Move, not {move!r} ({type(move).__name__})")
    if move not in legal_moves(state):
        raise IllegalMoveError(describe_illegal(state, move))
    return apply_unchecked(state, move)


def apply_unchecked(state: GameState, move: Move) -> GameState:
    """Like [`apply`][crapette._engine.apply] without the legality check: for moves taken from
    ``legal_moves(state)``. Anything else gives an undefined (possibly invalid) state."""
    if state.stop is not None:
        return _decide_stop(state, move)
    if state.rules.stop != "enforced" and _breaks_priority(state, move):
        after = _play(state, move)
        if winner(after) is not None:
            return after
        return _with(
            after,
            to_act=1 - state.to_act,
            stop=PendingStop(state, move, state.to_act, after.to_act),
        )
    return _play(state, move)


def _breaks_priority(state: GameState, move: Move) -> bool:
    """Whether ``violation(state, move)`` finds a broken priority, from quick tests: the
    rules are spelled out in ``_laws.violation``, which also names the remedy; only the
    rare Serbian loading case is left to it."""
    action = move.action
    if action is Action.REVEAL:
        return False
    rules = state.rules
    p = state.to_act
    target = move.target
    if target == FOUNDATION:
        # A foundation move only breaks pagat's "the reserve goes first".
        if rules.priority != "pagat" or move.source == RESERVE:
            return False
        reserve = state.reserves[p]
        return (
            bool(reserve)
            and state.reserve_up[p] > 0
            and fits_foundation(state.foundations, reserve[-1])
        )
    if foundation_ready(state):
        return True
    if rules.priority == "serbian" and target >= OPP_RESERVE:
        return violation(state, move) is not None
    if state.reserves[p]:
        if rules.house_filling == "before_hand" and action is Action.DRAW:
            return not all(state.houses)
        if rules.house_filling == "immediate" and state.emptied:
            # Anything but filling an emptied house from the reserve.
            return not (move.source == RESERVE and target < 8 and state.emptied >> target & 1)
    return False


def _set(piles: tuple[Pile, ...], i: int, value: Pile) -> tuple[Pile, ...]:
    items = list(piles)
    items[i] = value
    return tuple(items)


def _pair(pair: tuple[Pile, Pile], p: int, value: Pile) -> tuple[Pile, Pile]:
    return (value, pair[1]) if p == 0 else (pair[0], value)


def _foundation_for(foundations: tuple[Pile, ...], card: Card) -> int:
    if RANK[card] == 1:
        return foundations.index(())
    need = FACE[card] - 1
    for i, pile in enumerate(foundations):
        if pile and FACE[pile[-1]] == need:
            return i
    raise AssertionError(f"no foundation takes {card!r}")  # pragma: no cover


def _with(state: GameState, **changes: object) -> GameState:
    fields = {
        "rules": state.rules,
        "to_act": state.to_act,
        "foundations": state.foundations,
        "houses": state.houses,
        "reserves": state.reserves,
        "reserve_up": state.reserve_up,
        "hands": state.hands,
        "wastes": state.wastes,
        "turned": state.turned,
        "stop": state.stop,
        "emptied": state.emptied,
        "seen": state.seen,
        "passes": state.passes,
        "moves_made": state.moves_made,
        "houses_key": state.houses_key,
    }
    fields.update(changes)
    return GameState(**fields)  # type: ignore[arg-type]


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
    seen: frozenset[int] | None = None
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
            i = _foundation_for(foundations, cards[0])
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
            seen = state.seen | {key}
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
    return GameState(
        state.rules,
        to_act,
        foundations,
        houses,
        reserves,
        reserve_up,
        hands,
        wastes,
        turned,
        None,
        emptied,
        seen if seen is not None else frozenset((key,)),
        passes,
        state.moves_made + 1,
        key,
    )


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
    # Each moved card's key leaves its old place and arrives at its new one.
    key = state.houses_key
    old, new = source * 16 + depth, target * 16 + len(dest)
    for card in cards:
        keys = CARD_KEYS[card]
        key ^= keys[old] ^ keys[new]
        old += 1
        new += 1
    emptied = state.emptied & ~(1 << target)
    if not depth:
        emptied |= 1 << source
    return GameState(
        state.rules,
        state.to_act,
        state.foundations,
        tuple(items),
        state.reserves,
        state.reserve_up,
        state.hands,
        state.wastes,
        state.turned,
        None,
        emptied,
        state.seen | {key},
        state.passes,
        state.moves_made + 1,
        key,
    )


def _key_delta(house: int, depth: int, cards: Pile) -> int:
    """The XOR of the Zobrist keys of ``cards`` lying in ``house`` from ``depth`` up."""
    delta = 0
    base = (house * 16 + depth) * 104
    for card in cards:
        delta ^= HOUSE_KEYS[base + card]
        base += 104
    return delta


def _pass_done(passes: tuple[int, int], p: int) -> tuple[int, int]:
    """Player ``p`` finished a pass through the hand: a clean pass (no progress since it
    began) counts as complete (2); otherwise a clean pass begins (1)."""
    mark = 2 if passes[p] else 1
    return (mark, passes[1]) if p == 0 else (passes[0], mark)


def _decide_stop(state: GameState, move: Move) -> GameState:
    pending = state.stop
    assert pending is not None
    moves_made = state.moves_made + 1
    if move.action is Action.LET_STAND:
        return _with(state, to_act=pending.resume, stop=None, moves_made=moves_made)
    caller = state.to_act
    offender = pending.offender
    if state.rules.stop == "undo":
        after = pending.prior
        broken = violation(after, pending.move)
        assert broken is not None
        for remedy in broken.remedy:
            after = _play(after, remedy)
        return _pass_turn(after, offender, caller, moves_made)
    after = _with(state, stop=None)
    hands, wastes = after.hands, after.wastes
    if hands[caller]:
        penalty, hands = hands[caller][0], _pair(hands, caller, hands[caller][1:])
    elif wastes[caller]:
        penalty, wastes = wastes[caller][0], _pair(wastes, caller, wastes[caller][1:])
    else:
        return _pass_turn(after, offender, caller, moves_made)
    hands = _pair(hands, offender, (penalty, *hands[offender]))
    after = _with(after, hands=hands, wastes=wastes)
    return _pass_turn(after, offender, caller, moves_made)


def _pass_turn(state: GameState, offender: int, caller: int, moves_made: int) -> GameState:
    """End the offender's turn after a Stop! call: a still-turned hand card goes back on top
    of the offender's hand, and the caller is to act."""
    hands = state.hands
    if state.turned is not None:
        hands = _pair(hands, offender, (*hands[offender], state.turned))
    return _with(
        state,
        to_act=caller,
        hands=hands,
        turned=None,
        stop=None,
        emptied=0,
        seen=frozenset((state.houses_key,)),
        moves_made=moves_made,
    )
