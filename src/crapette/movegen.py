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
    ftops = {FACE[f[-1]] for f in state.foundations if f}
    ftops.add(_ACE_KEY)

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
        found = [_PLAY_F[s] for s, c in sources if FNEED[c] in ftops]
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
    groups = rules.group_moves != "single"
    seen = state.seen if len(state.seen) > 1 else None
    no_builds: list[int] = []

    moves: list[Move] = []
    append = moves.append
    for source, card in sources:
        plays = PLAY[source]
        if FNEED[card] in ftops:
            append(plays[FOUNDATION])
        u0, u1 = UNDER[card]
        builds = by_face.get(u0, no_builds)
        more = by_face.get(u1)
        if more:
            builds = sorted(builds + more)
        if source < 8:
            pile = houses[source]
            if groups and len(pile) > 1 and FACE[pile[-2]] in UNDER[card]:
                _house_moves_with_groups(state, source, by_face, empties, seen, moves)
            else:
                targets = sorted(builds + empties) if builds and empties else builds or empties
                depth = len(pile) - 1
                for t in targets:
                    if t != source and (
                        seen is None or _single_key(state, card, source, depth, t) not in seen
                    ):
                        append(plays[t])
        elif builds and empties:
            moves.extend(plays[t] for t in sorted(builds + empties))
        else:
            moves.extend(plays[t] for t in builds or empties)
        if loading and (load_any or source >= 8) and not (tableau_first and builds):
            face = FACE[card]
            if face in reserve_accepts:
                append(plays[OPP_RESERVE])
            if face in waste_accepts:
                append(plays[OPP_WASTE])

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


def _single_key(state: GameState, card: int, source: int, depth: int, target: int) -> int:
    """The houses key after moving ``card`` from ``depth`` in ``source`` to ``target``."""
    return (
        state.houses_key
        ^ HOUSE_KEYS[(source * 16 + depth) * 104 + card]
        ^ HOUSE_KEYS[(target * 16 + len(state.houses[target])) * 104 + card]
    )


def _house_moves_with_groups(
    state: GameState,
    source: int,
    by_face: dict[int, list[int]],
    empties: list[int],
    seen: frozenset[int] | None,
    moves: list[Move],
) -> None:
    """Append the moves of 1 or more cards of the end run of house ``source`` to other
    houses, in (target, count) order."""
    pile = state.houses[source]
    size = len(pile)
    run = 2
    while run < size and FACE[pile[-run - 1]] in UNDER[pile[-run]]:
        run += 1
    limited = state.rules.group_moves == "supermove"
    free = len(empties)
    pairs: list[tuple[int, int]] = []
    for count in range(1, run + 1):
        u0, u1 = UNDER[pile[-count]]
        for t in by_face.get(u0, ()):
            if not limited or count <= 1 << free:
                pairs.append((t, count))
        for t in by_face.get(u1, ()):
            if not limited or count <= 1 << free:
                pairs.append((t, count))
        for t in empties:
            if not limited or count <= 1 << (free - 1):
                pairs.append((t, count))
    pairs.sort()
    group = GROUP[source]
    for t, count in pairs:
        if seen is not None:
            key = state.houses_key
            src_base = (source * 16 + size - count) * 104
            dst_base = (t * 16 + len(state.houses[t])) * 104
            for card in pile[size - count :]:
                key ^= HOUSE_KEYS[src_base + card] ^ HOUSE_KEYS[dst_base + card]
                src_base += 104
                dst_base += 104
            if key in seen:
                continue
        moves.append(group[t][count - 1])
