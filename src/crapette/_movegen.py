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

from collections.abc import Callable, Container
from typing import Final, NamedTuple

from crapette._build import argument_type_error
from crapette._fits import tables
from crapette._laws import FALSE_CALLS, fill_obligation, foundation_needs
from crapette._tables import ACE_KEY, BIT, BITS, TO_HOUSES, PackTables, layout_key_after
from crapette.cards import Card
from crapette.moves import (
    CALL_STOP,
    DISCARD,
    DRAW,
    END_TURN,
    FLIP,
    FOUNDATION,
    GROUP,
    HAND,
    LET_STAND,
    MAX_GROUP,
    OPP_RESERVE,
    OPP_WASTE,
    PLAY,
    RESERVE,
    REVEAL,
    STANDARD_GROUP,
    WASTE,
    Move,
)
from crapette.outcome import python_winner
from crapette.rules import Ruleset
from crapette.state import _NATIVE, GameState, PythonState

__all__ = ["known_moves", "legal_moves", "python_legal_moves"]

_COUNTS: Final = tuple(tuple(range(1, n + 1)) for n in range(MAX_GROUP + 1))
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


class _Options(NamedTuple):
    """What the generator needs to know of a ruleset, read once per ruleset."""

    move_cap: int
    prune: bool  # a priority violation is illegal (but a turn's end, see prune_ends)
    prune_ends: bool  # a priority violation that ends the turn is illegal too
    reserve_first: bool  # pagat's priority, pruned: the reserve top to a foundation alone
    foundation_first: bool  # pagat's or the Serbian priority, pruned: foundation moves only
    obligations: bool  # bobcrapette's priority, pruned: no turn end while one is owed
    tableau_first: bool  # the Serbian priority, pruned: no load of a card that builds
    waste_playable: bool
    load_any: bool
    flip: bool  # turn_end="flip"
    sterile: bool  # sterile_moves="forbidden"
    calls: bool  # call_window="turn_start" with a callable Stop!
    rationed: bool
    loads: tuple[int, ...]
    most: Callable[[int], int]
    t: PackTables


_last_options: tuple[Ruleset | None, _Options | None] = (None, None)


def _options(rules: Ruleset) -> _Options:
    """What the generator needs to know of the rules, read once per ruleset (a one-entry
    cache, replaced whole)."""
    global _last_options
    last = _last_options
    if last[0] is rules and last[1] is not None:
        return last[1]
    enforced = rules.stop == "enforced"
    calls = not enforced and rules.call_window == "turn_start"
    prune = enforced or calls
    t = tables(rules)
    group = rules.group_moves
    options = _Options(
        move_cap=rules.move_cap,
        prune=prune,
        prune_ends=enforced,
        reserve_first=prune and rules.priority == "pagat",
        foundation_first=prune and rules.priority in ("pagat", "serbian"),
        obligations=enforced and rules.priority == "bobcrapette",
        tableau_first=prune and rules.priority == "serbian",
        waste_playable=rules.own_waste_playable,
        load_any=rules.load_from == "any",
        flip=rules.turn_end == "flip",
        sterile=rules.sterile_moves == "forbidden",
        calls=calls,
        rationed=rules.false_call == "rationed",
        loads=t.loads[rules.load_match == "colour"][rules.load_wrap],
        most=_most_cards(group, t.most),
        t=t,
    )
    _last_options = (rules, options)
    return options


def _most_cards(group: str, most: int) -> Callable[[int], int]:
    """The most cards one group move takes with ``free`` empty houses (``_laws.most_cards``)."""
    if group == "single":
        return lambda free: 1
    if group == "supermove":
        return lambda free: 1 << free
    return lambda free: most


def _by_index(move: Move) -> int:
    return move.index


def _generate(state: GameState) -> tuple[Move, ...]:
    """The legal moves of ``state`` (see ``legal_moves``)."""
    o = _options(state.rules)
    if state.moves_made >= o.move_cap or state.passes == _BLOCKED:
        return ()
    reserves, hands, wastes = state.reserves, state.hands, state.wastes
    if (
        (not reserves[0] and not hands[0] and not wastes[0])
        or (not reserves[1] and not hands[1] and not wastes[1])
    ) and python_winner(state) is not None:
        return ()
    if state.stop is not None:
        return _STOP_CHOICES
    t = o.t
    fneed, face, kind_of, takes = t.fneed, t.face, t.kind, t.takes
    p = state.to_act
    reserve = reserves[p]
    waste = wastes[p]
    turned = state.turned
    up = state.reserve_up[p]
    ftops = foundation_needs(state.foundations, t)

    # One pass over the available cards, in source order: the foundation moves, the cards
    # outside the houses, and per kind of card the mask of houses whose top takes it.
    found: list[Move] = []
    others: list[tuple[int, Card]] = []
    owed = False  # bobcrapette: a starter or the reserve top can go to a foundation
    if reserve and up:
        card = reserve[-1]
        if fneed[card] in ftops:
            if o.reserve_first:
                return (_R_F, *_ends(state, o, p)) if o.calls else (_R_F,)
            found.append(_R_F)
            owed = True
        others.append((RESERVE, card))
    if turned is not None:
        if fneed[turned] in ftops:
            found.append(_TO_F[HAND])
            owed = owed or fneed[turned] == ACE_KEY
        others.append((HAND, turned))
    if waste and o.waste_playable:
        card = waste[-1]
        if fneed[card] in ftops:
            found.append(_TO_F[WASTE])
            owed = owed or fneed[card] == ACE_KEY
        others.append((WASTE, card))
    houses = state.houses
    takers = [0] * (t.none + 1)
    empty = 0
    for h in range(8):
        pile = houses[h]
        if pile:
            top = pile[-1]
            if fneed[top] in ftops:
                found.append(_TO_F[h])
                owed = owed or fneed[top] == ACE_KEY
            takers[takes[top]] |= BIT[h]
        else:
            empty |= BIT[h]
    reveal = bool(reserve) and not up

    owed_fill = "none"
    if o.prune:
        if found and o.foundation_first:
            moves_found = (*found, REVEAL) if reveal else tuple(found)
            return (*moves_found, *_ends(state, o, p)) if o.calls else moves_found
        owed_fill, houses_owed = fill_obligation(state)
        if owed_fill == "immediate":
            fills = (REVEAL,) if reveal else tuple(_FILL[h] for h in BITS[houses_owed])
            if found:  # (no foundation priority) foundation moves are never a violation
                fills = tuple(sorted((*found, *fills), key=_by_index))
            return (*fills, *_ends(state, o, p)) if o.calls else fills

    opp = 1 - p
    opp_reserve = reserves[opp]
    opp_waste = wastes[opp]
    loads = o.loads
    reserve_loads = loads[face[opp_reserve[-1]]] if opp_reserve and state.reserve_up[opp] else 0
    waste_loads = loads[face[opp_waste[-1]]] if opp_waste else 0
    # loadable: the faces that load either pile; one test per available card.
    loadable = reserve_loads | waste_loads
    tableau_first = o.tableau_first

    moves: list[Move] = []
    append = moves.append
    for source, card in others:
        if found and fneed[card] in ftops:
            append(_TO_F[source])
        builds = takers[kind_of[card]]
        if builds or empty:
            moves += TO_HOUSES[source][builds | empty]
        cface = face[card]
        if loadable >> cface & 1 and not (tableau_first and builds):
            if reserve_loads >> cface & 1:
                append(PLAY[source][OPP_RESERVE])
            if waste_loads >> cface & 1:
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
    most_built = o.most(free)
    most_empty = o.most(free - 1) if free else o.most(0)
    if not o.load_any:
        loadable = 0  # only cards from your own piles may load the opponent
    late: list[Move] = []  # groups of more than 13 cards: after the others (table order)
    for h, pile in enumerate(houses):
        if not pile:
            continue
        card = pile[-1]
        if found and fneed[card] in ftops:
            append(_TO_F[h])
        kind = kind_of[card]
        builds = takers[kind]
        # Groups need a run on top, and either room for two cards on empty houses or a
        # built house taking the second card (one empty house under the supermove limit
        # allows at most two cards, so then only that can add a group move).
        if (
            most_built > 1
            and len(pile) > 1
            and takes[pile[-2]] == kind
            and (most_empty > 1 or takers[kind_of[pile[-2]]])
        ):
            _group_moves(state, h, takers, empty, seen, moves, late, most_built, most_empty, o)
        elif builds or empty:
            targets = builds | empty
            if o.sterile and len(pile) == 1:
                targets = builds  # a lone card onto an empty house changes nothing
            if seen is None:
                moves += TO_HOUSES[h][targets]
            else:
                key = state.houses_key
                plays = PLAY[h]
                for dest in BITS[targets]:
                    if layout_key_after(key, houses, h, dest, 1, t.ncards) not in seen:
                        append(plays[dest])
        if loadable >> face[card] & 1 and not (tableau_first and builds):
            cface = face[card]
            if reserve_loads >> cface & 1:
                append(PLAY[h][OPP_RESERVE])
            if waste_loads >> cface & 1:
                append(PLAY[h][OPP_WASTE])

    if reveal:
        append(REVEAL)
    if o.flip:
        if hands[p] or waste:
            if not (o.obligations and owed) and (o.calls or owed_fill != "before_hand"):
                end: Move | None = FLIP
            else:
                end = None
        else:
            end = None if o.obligations and owed else END_TURN
        if end is END_TURN:
            append(END_TURN)
        if o.calls and _may_call(state, o, p):
            append(CALL_STOP)
        if end is FLIP:
            append(FLIP)
    else:
        if turned is not None:
            if not (o.obligations and owed):
                append(DISCARD)
        elif hands[p] or waste:
            if owed_fill != "before_hand":
                append(DRAW)
        elif not (o.obligations and owed):
            append(END_TURN)
        if o.calls and _may_call(state, o, p):
            append(CALL_STOP)
    if late:
        moves += late
    return tuple(moves)


def _may_call(state: GameState, o: _Options, p: int) -> bool:
    """Whether the player to act may call Stop! (``call_window="turn_start"``): the turn's
    call window is open and, under ``false_call="rationed"``, a false call is left."""
    return state.window and not (o.rationed and state.false_calls[p] >= FALSE_CALLS)


def _ends(state: GameState, o: _Options, p: int) -> tuple[Move, ...]:
    """The moves that end the turn, and the Stop! call, when the generator stops early
    with the foundation or filling moves a pruned priority leaves (under
    ``call_window="turn_start"``, where a turn's end is legal even when it breaks a
    priority rule: the next player may call it)."""
    moves: list[Move] = []
    hand, waste = state.hands[p], state.wastes[p]
    ending: Move | None
    if o.flip:
        ending = FLIP if hand or waste else END_TURN
    elif state.turned is not None:
        ending = DISCARD
    else:
        ending = None if hand or waste else END_TURN
    if ending is not None and ending is not FLIP:
        moves.append(ending)
    if _may_call(state, o, p):
        moves.append(CALL_STOP)
    if ending is FLIP:
        moves.append(FLIP)
    return tuple(moves)


def _group_moves(
    state: GameState,
    source: int,
    takers: list[int],
    empty: int,
    seen: Container[int] | None,
    moves: list[Move],
    late: list[Move],
    most_built: int,
    most_empty: int,
    o: _Options,
) -> None:
    """Append the moves of the top 1..n cards of house ``source`` (whose top two cards form
    a run) to other houses, in (target, count) order: ``count`` cards go on a built house
    whose top takes the group's bottom card, and up to ``most_empty`` onto an empty one.
    Groups of more than 13 cards go to ``late`` (they come last in the table)."""
    t = o.t
    takes, kind_of = t.takes, t.kind
    houses = state.houses
    pile = houses[source]
    size = len(pile)
    limit = min(size, most_built)
    run = 2
    while run < limit and takes[pile[-run - 1]] == kind_of[pile[-run]]:
        run += 1
    # sizes[t]: the size of the group built house t takes; at most one size fits, as the
    # cards of a run differ in kind.
    targets = empty
    sizes = {}
    for count in range(1, run + 1):
        mask = takers[kind_of[pile[-count]]]
        if mask:
            targets |= mask
            for dest in BITS[mask]:
                sizes[dest] = count
    to_empty = _COUNTS[run if run < most_empty else most_empty]
    group = GROUP[source]
    key = state.houses_key
    for dest in BITS[targets]:
        onto_empty = empty >> dest & 1
        for count in to_empty if onto_empty else (sizes[dest],):
            if onto_empty and o.sterile and count == size:
                continue  # the whole house onto an empty one changes nothing
            if (
                seen is not None
                and layout_key_after(key, houses, source, dest, count, t.ncards) in seen
            ):
                continue
            (moves if count <= STANDARD_GROUP else late).append(group[dest][count - 1])
    if len(late) > 1:
        late.sort(key=_index)


def _index(move: Move) -> int:
    return move.index


legal_moves = python_legal_moves if _NATIVE is None else _NATIVE.legal_moves
"""Every legal move of the player to act (``state.to_act``), without duplicates, in the
fixed order of [`ALL_MOVES`][crapette.moves.ALL_MOVES] (by source, target and count, then
reveal, draw, discard, end, stop, pass). Empty only when the deal is over. The native
engine's when it runs, else ``python_legal_moves``."""
