"""The fast move generator: :func:`legal_moves`.

It computes the same list as ``legality.reference_legal_moves`` (the tests check this on
thousands of positions) from a few lookups instead of trying every move:

* a set of the faces a foundation will take next decides foundation moves;
* an index from house-top face to houses finds where a card may be built;
* under enforced priorities a reserve-to-foundation or any foundation move ends the search
  early, since nothing else is legal then;
* the no-cycle rule only needs checking once a house move was made since the last move that
  cannot be undone (until then the seen set holds only the current layout).
"""

from __future__ import annotations

from typing import Final

from crapette.cards import FACE, RANK, RED, SUIT
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
from crapette.outcome import winner
from crapette.state import HOUSE_KEYS, GameState

__all__ = ["legal_moves"]

_ACE_KEY: Final = -2
# FNEED[c]: the face a foundation top must show for c to go on it (_ACE_KEY for an Ace,
# which always finds an empty foundation).
FNEED: Final = tuple(_ACE_KEY if RANK[c] == 1 else FACE[c] - 1 for c in range(104))


def _under(card: int) -> tuple[int, int]:
    if RANK[card] == 13:
        return (-10, -10)
    suits = (0, 3) if RED[card] else (1, 2)
    return (suits[0] * 13 + RANK[card], suits[1] * 13 + RANK[card])


UNDER: Final = tuple(_under(c) for c in range(104))
"""UNDER[c]: the two faces a house top must show for ``c`` to be built on it."""


def _adjacent(face: int, wrap: bool) -> frozenset[int]:
    suit, rank0 = divmod(face, 13)
    ranks = {rank0 - 1, rank0 + 1}
    if wrap:
        ranks = {r % 13 for r in ranks}
    return frozenset(suit * 13 + r for r in ranks if 0 <= r < 13)


LOADS: Final = (
    tuple(_adjacent(f, False) for f in range(52)),
    tuple(_adjacent(f, True) for f in range(52)),
)
"""LOADS[wrap][face]: the faces that may be loaded on a pile showing ``face``."""

_STOP_CHOICES: Final = (CALL_STOP, LET_STAND)
_BLOCKED: Final = (2, 2)
_NONE: Final[list[int]] = []
_FILL: Final = tuple(PLAY[RESERVE][h] for h in range(8))
_PLAY_F: Final = {s: PLAY[s][FOUNDATION] for s in PLAY}
_R_F: Final = _PLAY_F[RESERVE]
assert SUIT  # the tables above encode suits through FACE


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the player to act (``state.to_act``), without duplicates, in the
    fixed order of :data:`crapette.ALL_MOVES` (by source, target and count, then reveal,
    draw, discard, end, stop, pass). Empty only when the deal is over.
    """
    rules = state.rules
    if state.moves_made >= rules.move_cap or state.passes == _BLOCKED:
        return ()
    reserves, hands, wastes = state.reserves, state.hands, state.wastes
    if (
        (not reserves[0] and not hands[0] and not wastes[0])
        or (not reserves[1] and not hands[1] and not wastes[1])
    ) and winner(state) is not None:
        return ()
    if state.stop is not None:
        return _STOP_CHOICES
    p = state.to_act
    houses = state.houses
    reserve = reserves[p]
    waste = wastes[p]
    turned = state.turned
    enforced = rules.stop == "enforced"
    ftops = {_ACE_KEY}
    for pile in state.foundations:
        if pile:
            ftops.add(FACE[pile[-1]])

    sources: list[tuple[int, int]] = []
    if reserve and state.reserve_up[p]:
        sources.append((RESERVE, reserve[-1]))
    if turned is not None:
        sources.append((HAND, turned))
    if waste and rules.own_waste_playable:
        sources.append((WASTE, waste[-1]))
    empties: list[int] = []
    by_face: dict[int, list[int]] = {}
    for h in range(8):
        pile = houses[h]
        if pile:
            top = pile[-1]
            sources.append((h, top))
            face = FACE[top]
            if face in by_face:
                by_face[face].append(h)
            else:
                by_face[face] = [h]
        else:
            empties.append(h)
    reveal = bool(reserve) and not state.reserve_up[p]

    if enforced:
        found = []
        for source, card in sources:
            if FNEED[card] in ftops:
                found.append(_PLAY_F[source])
        if found:
            if found[0] is _R_F and rules.priority == "pagat":
                return (_R_F,)
            return (*found, REVEAL) if reveal else tuple(found)
        if rules.house_filling == "immediate" and reserve and state.emptied:
            if reveal:
                return (REVEAL,)
            return tuple(_FILL[h] for h in range(8) if state.emptied >> h & 1)

    opp = 1 - p
    opp_reserve = reserves[opp]
    opp_waste = wastes[opp]
    loads = LOADS[rules.load_wrap]
    reserve_accepts = loads[FACE[opp_reserve[-1]]] if opp_reserve and state.reserve_up[opp] else ()
    waste_accepts = loads[FACE[opp_waste[-1]]] if opp_waste else ()
    loading = bool(reserve_accepts or waste_accepts)
    load_any = rules.load_from == "any"
    tableau_first = enforced and rules.priority == "serbian"
    seen = state.seen if len(state.seen) > 1 else None
    # The most cards one house-to-house move may carry, onto a built house and onto an empty
    # one; a group is a tail of the house's end run (in play every house is one run, since
    # cards only arrive by building on it or on an empty house; hand-built ones may not be).
    free = len(empties)
    if rules.group_moves == "single":
        most_built, most_empty = 1, 1
    elif rules.group_moves == "supermove":
        most_built, most_empty = 1 << free, 1 << (free - 1) if free else 0
    else:
        most_built = most_empty = 13

    moves: list[Move] = []
    append = moves.append
    for source, card in sources:
        if FNEED[card] in ftops:
            append(PLAY[source][FOUNDATION])
        u0, u1 = UNDER[card]
        builds = by_face.get(u0, _NONE)
        if u1 in by_face:
            builds = sorted(builds + by_face[u1])
        if source < 8:
            size = len(houses[source])
            if size > 1 and most_built > 1:
                _house_moves(
                    state,
                    source,
                    by_face,
                    builds,
                    empties,
                    seen,
                    moves,
                    min(size, most_built),
                    min(size, most_empty),
                )
            elif builds or empties:
                plays = PLAY[source]
                targets = sorted(builds + empties) if builds and empties else builds or empties
                if seen is None:
                    for t in targets:
                        append(plays[t])
                else:
                    key = state.houses_key ^ HOUSE_KEYS[(source * 16 + size - 1) * 104 + card]
                    for t in targets:
                        if key ^ HOUSE_KEYS[(t * 16 + len(houses[t])) * 104 + card] not in seen:
                            append(plays[t])
        elif builds or empties:
            plays = PLAY[source]
            for t in sorted(builds + empties) if builds and empties else builds or empties:
                append(plays[t])
        if loading and (load_any or source >= 8) and not (tableau_first and builds):
            face = FACE[card]
            if face in reserve_accepts:
                append(PLAY[source][OPP_RESERVE])
            if face in waste_accepts:
                append(PLAY[source][OPP_WASTE])

    if reveal:
        append(REVEAL)
    if turned is not None:
        append(DISCARD)
    elif hands[p] or waste:
        if not (enforced and empties and reserve and rules.house_filling == "before_hand"):
            append(DRAW)
    else:
        append(END_TURN)
    return tuple(moves)


def _house_moves(
    state: GameState,
    source: int,
    by_face: dict[int, list[int]],
    builds: list[int],
    empties: list[int],
    seen: frozenset[int] | None,
    moves: list[Move],
    most_built: int,
    most_empty: int,
) -> None:
    """Append the moves of the top 1..n cards of house ``source`` to other houses, in
    (target, count) order: ``count`` cards go on a built house whose top is one rank above
    the group's bottom card in the other colour, and up to ``most_empty`` onto an empty one."""
    houses = state.houses
    pile = houses[source]
    size = len(pile)
    run = 1
    while run < most_built and FACE[pile[-run - 1]] in UNDER[pile[-run]]:
        run += 1
    most_built = run
    most_empty = min(run, most_empty)
    pairs = [(t, 1) for t in builds]
    for count in range(2, most_built + 1):
        u0, u1 = UNDER[pile[-count]]
        if u0 in by_face:
            pairs.extend((t, count) for t in by_face[u0])
        if u1 in by_face:
            pairs.extend((t, count) for t in by_face[u1])
    if empties:
        pairs.extend((t, count) for t in empties for count in range(1, most_empty + 1))
        pairs.sort()
    elif len(pairs) > 1:
        pairs.sort()
    group = GROUP[source]
    for t, count in pairs:
        if seen is not None:
            key = state.houses_key
            src_base = (source * 16 + size - count) * 104
            dst_base = (t * 16 + len(houses[t])) * 104
            for card in pile[size - count :]:
                key ^= HOUSE_KEYS[src_base + card] ^ HOUSE_KEYS[dst_base + card]
                src_base += 104
                dst_base += 104
            if key in seen:
                continue
        moves.append(group[t][count - 1])
