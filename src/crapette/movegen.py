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
from crapette.outcome import is_over
from crapette.state import GameState

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
_PLAY_F: Final = {s: PLAY[s][FOUNDATION] for s in PLAY}
_R_F: Final = _PLAY_F[RESERVE]
assert SUIT  # the tables above encode suits through FACE


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the player to act (``state.to_act``), without duplicates, in the
    fixed order of :data:`crapette.ALL_MOVES` (by source, target and count, then reveal,
    draw, discard, end, stop, pass). Empty only when the deal is over.
    """
    if is_over(state):
        return ()
    if state.stop is not None:
        return _STOP_CHOICES
    rules = state.rules
    p = state.to_act
    houses = state.houses
    reserve = state.reserves[p]
    enforced = rules.stop == "enforced"
    ftops = {FACE[f[-1]] for f in state.foundations if f}
    ftops.add(_ACE_KEY)

    sources: list[tuple[int, int]] = []
    if reserve and state.reserve_up[p]:
        sources.append((RESERVE, reserve[-1]))
    if state.turned is not None:
        sources.append((HAND, state.turned))
    waste = state.wastes[p]
    if waste and rules.own_waste_playable:
        sources.append((WASTE, waste[-1]))
    for h in range(8):
        if houses[h]:
            sources.append((h, houses[h][-1]))
    reveal = bool(reserve) and not state.reserve_up[p]

    if enforced:
        found = [_PLAY_F[s] for s, c in sources if FNEED[c] in ftops]
        if found:
            if rules.priority == "pagat" and found[0] is _R_F:
                return (_R_F,)
            return (*found, REVEAL) if reveal else tuple(found)
        if rules.house_filling == "immediate" and reserve and state.emptied:
            if reveal:
                return (REVEAL,)
            return tuple(PLAY[RESERVE][h] for h in range(8) if state.emptied >> h & 1)

    empties = [h for h in range(8) if not houses[h]]
    by_face: dict[int, list[int]] = {}
    for h in range(8):
        if houses[h]:
            by_face.setdefault(FACE[houses[h][-1]], []).append(h)
    opp = 1 - p
    opp_reserve = state.reserves[opp]
    opp_waste = state.wastes[opp]
    loads = LOADS[rules.load_wrap]
    reserve_accepts = loads[FACE[opp_reserve[-1]]] if opp_reserve and state.reserve_up[opp] else ()
    waste_accepts = loads[FACE[opp_waste[-1]]] if opp_waste else ()
    load_any = rules.load_from == "any"
    tableau_first = enforced and rules.priority == "serbian"
    groups = rules.group_moves
    check_cycles = len(state.seen) > 1

    moves: list[Move] = []
    for source, card in sources:
        plays = PLAY[source]
        if FNEED[card] in ftops:
            moves.append(plays[FOUNDATION])
        u0, u1 = UNDER[card]
        builds = by_face.get(u0, []) + by_face.get(u1, [])
        if source < 8:
            targets = [(t, 1) for t in builds + empties if t != source]
            if groups != "single":
                targets += _group_targets(state, source, by_face, empties, groups == "supermove")
            targets.sort()
            group = GROUP[source]
            for t, count in targets:
                move = group[t][count - 1]
                if not check_cycles or not _recreates(state, move):
                    moves.append(move)
        else:
            moves.extend(plays[t] for t in sorted(builds + empties))
        if (load_any or source >= 8) and not (tableau_first and builds):
            face = FACE[card]
            if face in reserve_accepts:
                moves.append(plays[OPP_RESERVE])
            if face in waste_accepts:
                moves.append(plays[OPP_WASTE])

    if reveal:
        moves.append(REVEAL)
    if state.turned is not None:
        moves.append(DISCARD)
    elif state.hands[p] or waste:
        if not (enforced and rules.house_filling == "before_hand" and reserve and empties):
            moves.append(DRAW)
    else:
        moves.append(END_TURN)
    return tuple(moves)


def _group_targets(
    state: GameState,
    source: int,
    by_face: dict[int, list[int]],
    empties: list[int],
    limited: bool,
) -> list[tuple[int, int]]:
    """(target, count) pairs for moving 2 or more cards of the end run of a house."""
    pile = state.houses[source]
    run = 1
    while run < len(pile) and FACE[pile[-run - 1]] in UNDER[pile[-run]]:
        run += 1
    out: list[tuple[int, int]] = []
    free = len(empties)
    for count in range(2, run + 1):
        u0, u1 = UNDER[pile[-count]]
        for t in by_face.get(u0, []) + by_face.get(u1, []):
            if not limited or count <= 1 << free:
                out.append((t, count))
        for t in empties:
            if not limited or count <= 1 << (free - 1):
                out.append((t, count))
    return out


def _recreates(state: GameState, move: Move) -> bool:
    houses = list(state.houses)
    source, target, count = move.source, move.target, move.count
    moved = houses[source][-count:]
    houses[source] = houses[source][:-count]
    houses[target] = houses[target] + moved
    return tuple(houses) in state.seen
