"""[`legal_moves`][crapette._movegen.legal_moves], and the Python engine's fast move generator.

``legal_moves`` is the native engine's (the C core) when it runs, else
``python_legal_moves``, the Python engine's. That one
computes the same list as ``crapette.testing.reference_legal_moves`` (the tests check this on
thousands of positions) from a few lookups instead of trying every move:

* a set of the faces a foundation will take next decides foundation moves, found in the
  same pass that collects the available cards;
* house targets are bitmasks (bit ``h`` for house ``h``): one scan of the houses gives, per
  colour and rank, the houses whose top takes such a card, and a precomputed table turns a
  source and a mask into its moves, already in target order;
* under enforced priorities a reserve-to-foundation or any foundation move ends the search
  early, since nothing else is legal then;
* the no-cycle rule only needs checking once a house move was made since the last move that
  cannot be undone (until then ``state.seen_log`` is ``None``: only the current layout was
  seen).

The rules it applies are those of ``_laws`` (the building predicates, ``most_cards``, the
priorities, house filling, the no-cycle rule), in their table form from ``_tables``.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Final, TypeAlias

from crapette._build import argument_type_error
from crapette._laws import fill_obligation, foundation_needs
from crapette._tables import (
    BIT,
    BITS,
    FACE,
    FNEED,
    KIND,
    LOADS,
    MOST_CARDS,
    TAKES,
    TO_HOUSES,
    layout_key_after,
)
from crapette.cards import Card
from crapette.moves import (
    CALL_STOP,
    DISCARD,
    DRAW,
    END_TURN,
    FOUNDATION,
    GROUP,
    HAND,
    LET_STAND,
    OPP_RESERVE,
    OPP_WASTE,
    PLAY,
    RESERVE,
    REVEAL,
    WASTE,
    Move,
)
from crapette.outcome import python_winner
from crapette.rules import Ruleset
from crapette.state import _NATIVE, GameState, PythonState

_Options: TypeAlias = tuple[int, bool, bool, tuple[int, ...], bool, bool, tuple[int, ...], bool]

__all__ = ["known_moves", "legal_moves", "python_legal_moves"]

_COUNTS: Final = tuple(tuple(range(1, n + 1)) for n in range(14))
_STOP_CHOICES: Final = (CALL_STOP, LET_STAND)
_BLOCKED: Final = (2, 2)
_FILL: Final = tuple(PLAY[RESERVE][h] for h in range(8))
_TO_F: Final = tuple(PLAY[s][FOUNDATION] for s in range(WASTE + 1))
_R_F: Final = _TO_F[RESERVE]


_last: tuple[GameState | None, tuple[Move, ...]] = (None, ())
"""The state ``legal_moves`` saw last and its moves: one entry, replaced as a whole (one
reference assignment, so threads can only miss it, never read a mixed entry)."""


def known_moves(state: GameState) -> tuple[Move, ...] | None:
    """The legal moves of ``state`` if ``legal_moves`` listed them last, else ``None``: the
    checked ``apply`` answers "is this move legal?" from it in the usual pattern, moves
    listed and then one of them applied, without looking at the move again."""
    last = _last
    return last[1] if last[0] is state else None


def python_legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the player to act (``state.to_act``), without duplicates, in the
    fixed order of [`ALL_MOVES`][crapette.moves.ALL_MOVES] (by source, target and count, then
    reveal, draw, discard, end, stop, pass). Empty only when the deal is over. The Python
    engine's generator (``state`` a ``PythonState``).
    """
    if not isinstance(state, PythonState):
        raise argument_type_error(GameState, state)
    global _last
    moves = _generate(state)
    _last = (state, moves)
    return moves


_last_options: tuple[Ruleset | None, _Options] = (
    None,
    (0, False, False, (), False, False, (), False),
)


def _options(rules: Ruleset) -> _Options:
    """What the generator needs to know of the rules, read once per ruleset (a one-entry
    cache, replaced whole): the move cap; enforced priorities; the reserve-to-foundation
    move alone (pagat's priority, enforced); the loading table; the tableau before loading
    (Serbian, enforced); the own waste playable; the group size table; any card may
    load."""
    global _last_options
    last = _last_options
    if last[0] is rules:
        return last[1]
    enforced = rules.stop == "enforced"
    options = (
        rules.move_cap,
        enforced,
        enforced and rules.priority == "pagat",
        LOADS[rules.load_wrap],
        enforced and rules.priority == "serbian",
        rules.own_waste_playable,
        MOST_CARDS[rules.group_moves],
        rules.load_from == "any",
    )
    _last_options = (rules, options)
    return options


def _generate(state: GameState) -> tuple[Move, ...]:
    """The legal moves of ``state`` (see ``legal_moves``)."""
    (
        move_cap,
        enforced,
        reserve_first,
        loads,
        tableau_first,
        waste_playable,
        most,
        load_any,
    ) = _options(state.rules)
    if state.moves_made >= move_cap or state.passes == _BLOCKED:
        return ()
    reserves, hands, wastes = state.reserves, state.hands, state.wastes
    if (
        (not reserves[0] and not hands[0] and not wastes[0])
        or (not reserves[1] and not hands[1] and not wastes[1])
    ) and python_winner(state) is not None:
        return ()
    if state.stop is not None:
        return _STOP_CHOICES
    p = state.to_act
    reserve = reserves[p]
    waste = wastes[p]
    turned = state.turned
    up = state.reserve_up[p]
    ftops = foundation_needs(state.foundations)

    # One pass over the available cards, in source order: the foundation moves, the cards
    # outside the houses, and per kind of card the mask of houses whose top takes it.
    found: list[Move] = []
    others: list[tuple[int, Card]] = []
    if reserve and up:
        card = reserve[-1]
        if FNEED[card] in ftops:
            if reserve_first:
                return (_R_F,)
            found.append(_R_F)
        others.append((RESERVE, card))
    if turned is not None:
        if FNEED[turned] in ftops:
            found.append(_TO_F[HAND])
        others.append((HAND, turned))
    if waste and waste_playable:
        card = waste[-1]
        if FNEED[card] in ftops:
            found.append(_TO_F[WASTE])
        others.append((WASTE, card))
    houses = state.houses
    takers = [0] * 27
    empty = 0
    for h in range(8):
        pile = houses[h]
        if pile:
            top = pile[-1]
            if FNEED[top] in ftops:
                found.append(_TO_F[h])
            takers[TAKES[top]] |= BIT[h]
        else:
            empty |= BIT[h]
    reveal = bool(reserve) and not up

    owed = "none"
    if enforced:
        if found:
            return (*found, REVEAL) if reveal else tuple(found)
        owed, houses_owed = fill_obligation(state)
        if owed == "immediate":
            if reveal:
                return (REVEAL,)
            return tuple(_FILL[h] for h in BITS[houses_owed])

    opp = 1 - p
    opp_reserve = reserves[opp]
    opp_waste = wastes[opp]
    reserve_loads = loads[FACE[opp_reserve[-1]]] if opp_reserve and state.reserve_up[opp] else 0
    waste_loads = loads[FACE[opp_waste[-1]]] if opp_waste else 0
    # loadable: the faces that load either pile; one test per available card.
    loadable = reserve_loads | waste_loads

    moves: list[Move] = []
    append = moves.append
    for source, card in others:
        if found and FNEED[card] in ftops:
            append(_TO_F[source])
        builds = takers[KIND[card]]
        if builds or empty:
            moves += TO_HOUSES[source][builds | empty]
        face = FACE[card]
        if loadable >> face & 1 and not (tableau_first and builds):
            if reserve_loads >> face & 1:
                append(PLAY[source][OPP_RESERVE])
            if waste_loads >> face & 1:
                append(PLAY[source][OPP_WASTE])

    log = state.seen_log
    seen: Container[int] | None = None
    if log is not None:  # SeenLog.first, inlined for a line of play (the usual case)
        if len(log.keys) == state.seen_size:
            seen = log.keys if log.positions is None else log.positions
        else:
            seen = log.first(state.seen_size)
    # The most cards one house-to-house move may carry, onto a built house and onto an empty
    # one; a group is a tail of the house's end run (in play every house is one run, since
    # cards only arrive by building on it or on an empty house; hand-built ones may not be).
    free = len(BITS[empty])
    most_built = most[free]
    most_empty = most[free - 1] if free else most[0]
    if not load_any:
        loadable = 0  # only cards from your own piles may load the opponent
    for h, pile in enumerate(houses):
        if not pile:
            continue
        card = pile[-1]
        if found and FNEED[card] in ftops:
            append(_TO_F[h])
        kind = KIND[card]
        builds = takers[kind]
        # Groups need a run on top, and either room for two cards on empty houses or a
        # built house taking the second card (one empty house under the supermove limit
        # allows at most two cards, so then only that can add a group move).
        if (
            most_built > 1
            and len(pile) > 1
            and TAKES[pile[-2]] == kind
            and (most_empty > 1 or takers[KIND[pile[-2]]])
        ):
            _group_moves(state, h, takers, empty, seen, moves, most_built, most_empty)
        elif builds or empty:
            if seen is None:
                moves += TO_HOUSES[h][builds | empty]
            else:
                key = state.houses_key
                plays = PLAY[h]
                for t in BITS[builds | empty]:
                    if layout_key_after(key, houses, h, t, 1) not in seen:
                        append(plays[t])
        if loadable >> FACE[card] & 1 and not (tableau_first and builds):
            face = FACE[card]
            if reserve_loads >> face & 1:
                append(PLAY[h][OPP_RESERVE])
            if waste_loads >> face & 1:
                append(PLAY[h][OPP_WASTE])

    if reveal:
        append(REVEAL)
    if turned is not None:
        append(DISCARD)
    elif hands[p] or waste:
        if owed != "before_hand":
            append(DRAW)
    else:
        append(END_TURN)
    return tuple(moves)


def _group_moves(
    state: GameState,
    source: int,
    takers: list[int],
    empty: int,
    seen: Container[int] | None,
    moves: list[Move],
    most_built: int,
    most_empty: int,
) -> None:
    """Append the moves of the top 1..n cards of house ``source`` (whose top two cards form
    a run) to other houses, in (target, count) order: ``count`` cards go on a built house
    whose top takes the group's bottom card, and up to ``most_empty`` onto an empty one."""
    houses = state.houses
    pile = houses[source]
    size = len(pile)
    limit = min(size, most_built)
    run = 2
    while run < limit and TAKES[pile[-run - 1]] == KIND[pile[-run]]:
        run += 1
    # sizes[t]: the size of the group built house t takes; at most one size fits, as the
    # cards of a run differ in kind.
    targets = empty
    sizes = {}
    for count in range(1, run + 1):
        mask = takers[KIND[pile[-count]]]
        if mask:
            targets |= mask
            for t in BITS[mask]:
                sizes[t] = count
    to_empty = _COUNTS[run if run < most_empty else most_empty]
    group = GROUP[source]
    if seen is None:
        for t in BITS[targets]:
            for count in to_empty if empty >> t & 1 else (sizes[t],):
                moves.append(group[t][count - 1])
        return
    key = state.houses_key
    for t in BITS[targets]:
        for count in to_empty if empty >> t & 1 else (sizes[t],):
            if layout_key_after(key, houses, source, t, count) not in seen:
                moves.append(group[t][count - 1])


legal_moves = python_legal_moves if _NATIVE is None else _NATIVE.legal_moves
"""Every legal move of the player to act (``state.to_act``), without duplicates, in the
fixed order of [`ALL_MOVES`][crapette.moves.ALL_MOVES] (by source, target and count, then
reveal, draw, discard, end, stop, pass). Empty only when the deal is over. The native
engine's when it runs, else ``python_legal_moves``."""
