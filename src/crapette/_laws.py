"""The rules as plain, obviously correct checks: building rules, the turn structure, the
compulsory priorities, the no-cycle rule, and the reason a move is illegal.

``crapette.testing.reference_legal_moves`` tries every move of the fixed table against these
checks; it is slow and serves as the oracle the fast generator in ``_movegen`` is tested
against, and ``why_illegal`` explains a rejected move.
"""

from __future__ import annotations

import attrs

from crapette._tables import houses_key
from crapette.cards import FACE, RANK, RED, SUIT, TEXT, Card
from crapette.moves import (
    FOUNDATION,
    HAND,
    OPP_RESERVE,
    OPP_WASTE,
    PLAY,
    RESERVE,
    REVEAL,
    WASTE,
    Action,
    Move,
)
from crapette.outcome import is_over
from crapette.state import GameState, Pile

__all__ = [
    "Violation",
    "fits_foundation",
    "fits_house",
    "fits_load",
    "foundation_pile",
    "is_run",
    "source_card",
    "violation",
    "why_illegal",
]

_LOAD_TARGETS = (OPP_RESERVE, OPP_WASTE)
_OWN_SOURCES = (RESERVE, HAND, WASTE)


def pile_name(pile: int) -> str:
    """A readable name of a move's source or target."""
    names = {
        RESERVE: "your reserve",
        HAND: "your turned hand card",
        WASTE: "your waste",
        FOUNDATION: "a foundation",
        OPP_RESERVE: "your opponent's reserve",
        OPP_WASTE: "your opponent's waste",
    }
    return names.get(pile, f"house {pile + 1}")


def source_card(state: GameState, source: int) -> Card | None:
    """The available card at ``source`` for the player to act, or ``None``."""
    p = state.to_act
    if source == RESERVE:
        reserve = state.reserves[p]
        return reserve[-1] if reserve and state.reserve_up[p] > 0 else None
    if source == HAND:
        return state.turned
    if source == WASTE:
        waste = state.wastes[p]
        return waste[-1] if waste and state.rules.own_waste_playable else None
    house = state.houses[source]
    return house[-1] if house else None


def fits_foundation(foundations: tuple[Pile, ...], card: Card) -> bool:
    """Whether some foundation takes the card (an Ace always finds an empty one)."""
    return foundation_pile(foundations, card) is not None


def foundation_pile(foundations: tuple[Pile, ...], card: Card) -> int | None:
    """The leftmost foundation that takes the card: an empty one for an Ace, else one whose
    top is the same suit one rank lower."""
    for i, pile in enumerate(foundations):
        if not pile:
            if RANK[card] == 1:
                return i
        elif FACE[pile[-1]] == FACE[card] - 1 and RANK[card] > 1:
            return i
    return None


def fits_house(house: Pile, card: Card) -> bool:
    """Whether the card may go on the house: any card on an empty house, else one rank
    lower in the other colour."""
    if not house:
        return True
    top = house[-1]
    return RANK[top] == RANK[card] + 1 and RED[top] != RED[card]


def fits_load(top: Card, card: Card, wrap: bool) -> bool:
    """Whether the card may be loaded on this (face-up) top: same suit, one rank apart
    (King and Ace adjacent when ``wrap``)."""
    if SUIT[top] != SUIT[card]:
        return False
    gap = abs(RANK[top] - RANK[card])
    return gap == 1 or (wrap and gap == 12)


def is_run(cards: Pile) -> bool:
    """Whether the cards (bottom first) descend one rank at a time in alternating colours."""
    return all(fits_house(cards[i : i + 1], cards[i + 1]) for i in range(len(cards) - 1))


def _label(state: GameState, move: Move) -> str:
    if move.action is Action.PLAY:
        card = source_card(state, move.source)
        if card is not None and move.source < 8 and move.count > 1:
            house = state.houses[move.source]
            if move.count <= len(house):
                card = house[-move.count]
        if card is not None:
            return f"{move} ({TEXT[card]})"
    return str(move)


def _building_reason(state: GameState, move: Move) -> str | None:
    p = state.to_act
    action = move.action
    if action is Action.REVEAL:
        if not state.reserves[p]:
            return "your reserve is empty"
        if state.reserve_up[p] > 0:
            return "your reserve top is already face up"
        return None
    if action is Action.DRAW:
        if state.turned is not None:
            return f"a hand card ({TEXT[state.turned]}) is already turned: play or discard it"
        if not state.hands[p] and not state.wastes[p]:
            return "your hand and waste are both empty (end your turn instead)"
        return None
    if action is Action.DISCARD:
        return None if state.turned is not None else "no hand card is turned"
    if action is Action.END_TURN:
        if state.turned is not None:
            return "a hand card is turned: discard it to end your turn"
        if state.hands[p] or state.wastes[p]:
            return "your turn ends only by a discard while your hand or waste has cards"
        return None
    if action is not Action.PLAY:
        return "no Stop! decision is open"
    return _play_reason(state, move)


def _play_reason(state: GameState, move: Move) -> str | None:
    p = state.to_act
    rules = state.rules
    source, target, count = move.source, move.target, move.count
    if source == RESERVE and state.reserves[p] and state.reserve_up[p] == 0:
        return "your reserve top is face down: reveal it first"
    if source == WASTE and not rules.own_waste_playable:
        return "your own waste is not available under these rules"
    card = source_card(state, source)
    if card is None:
        return f"{pile_name(source)} has no card"
    if count > 1:
        house = state.houses[source]
        if rules.group_moves == "single":
            return "only single cards move under these rules (group_moves=single)"
        if count > len(house):
            return f"house {source + 1} holds only {len(house)} cards"
        if not is_run(house[-count:]):
            return f"the top {count} cards of house {source + 1} are not a descending run"
        card = house[-count]
        if rules.group_moves == "supermove":
            free = sum(1 for h, pile in enumerate(state.houses) if not pile and h != target)
            if count > 2**free:
                return (
                    f"{count} cards need {count.bit_length() - 1} empty houses besides the"
                    f" destination; there are {free}"
                )
    if target == FOUNDATION:
        if not fits_foundation(state.foundations, card):
            return f"{TEXT[card]} does not fit on any foundation"
        return None
    if target < 8:
        house = state.houses[target]
        if not fits_house(house, card):
            return (
                f"{TEXT[card]} cannot go on {TEXT[house[-1]]} in house {target + 1}"
                " (houses build down in alternating colours)"
            )
        return None
    # Loading the opponent.
    if rules.load_from == "own" and source not in _OWN_SOURCES:
        return "only your reserve, turned hand card and waste may load the opponent (load_from=own)"
    opp = 1 - p
    pile = state.reserves[opp] if target == OPP_RESERVE else state.wastes[opp]
    if not pile:
        return f"{pile_name(target)} is empty: nothing is loaded on an empty pile"
    if target == OPP_RESERVE and state.reserve_up[opp] == 0:
        return "your opponent's reserve top is face down"
    if not fits_load(pile[-1], card, rules.load_wrap):
        return f"{TEXT[card]} does not load on {TEXT[pile[-1]]}: same suit, one rank apart" + (
            " (K and A adjacent)" if rules.load_wrap else ""
        )
    return None


@attrs.frozen(slots=True)
class Violation:
    """A broken priority rule: why, and the compulsory move(s) that were missed (made by
    the ``undo`` Stop! penalty)."""

    reason: str
    remedy: tuple[Move, ...]


def _foundation_sources(state: GameState) -> list[tuple[int, Card]]:
    """Available cards that fit a foundation, in the fixed source order."""
    out = []
    for source in (RESERVE, HAND, WASTE, *range(8)):
        card = source_card(state, source)
        if card is not None and fits_foundation(state.foundations, card):
            out.append((source, card))
    return out


def violation(state: GameState, move: Move) -> Violation | None:
    """The priority rule this (building-legal) move breaks, or ``None``.

    Pagat's priority: any move but reserve-to-foundation while that exists; any
    non-foundation move while a foundation move exists. The Serbian order: a non-foundation
    move while a foundation move exists; loading a card that could be built on a non-empty
    house. House filling: turning a hand card while the reserve has cards and a house is
    empty (``before_hand``); anything but a foundation move or filling an emptied house from
    the reserve while one waits (``immediate``). Revealing a reserve top is never one.
    """
    action = move.action
    if action in (Action.REVEAL, Action.CALL_STOP, Action.LET_STAND):
        return None
    rules = state.rules
    p = state.to_act
    to_foundation = action is Action.PLAY and move.target == FOUNDATION
    found = _foundation_sources(state)
    if rules.priority == "pagat" and found and found[0][0] == RESERVE:
        if move != PLAY[RESERVE][FOUNDATION]:
            return Violation(
                f"your reserve top {TEXT[found[0][1]]} can go to a foundation: that comes first",
                (PLAY[RESERVE][FOUNDATION],),
            )
        return None
    if found and not to_foundation:
        names = ", ".join(TEXT[card] for _, card in found)
        return Violation(
            f"a foundation move ({names}) must be made before any other move",
            (PLAY[found[0][0]][FOUNDATION],),
        )
    if rules.priority == "serbian" and action is Action.PLAY and move.target in _LOAD_TARGETS:
        card = source_card(state, move.source)
        assert card is not None
        for h, house in enumerate(state.houses):
            if house and fits_house(house, card):
                return Violation(
                    f"{TEXT[card]} can be built on house {h + 1}: the tableau comes before"
                    " loading the opponent",
                    (PLAY[move.source][h],),
                )
    reserve = state.reserves[p]
    if rules.house_filling == "before_hand" and action is Action.DRAW and reserve:
        empty = [h for h, house in enumerate(state.houses) if not house]
        if empty:
            return Violation(
                f"house {empty[0] + 1} is empty: fill the empty houses from your reserve"
                " before turning a hand card",
                _fill(state, empty[0]),
            )
    if rules.house_filling == "immediate" and reserve and not to_foundation:
        waiting = [h for h in range(8) if state.emptied >> h & 1]
        if waiting and not (
            action is Action.PLAY and move.source == RESERVE and move.target in waiting
        ):
            return Violation(
                f"house {waiting[0] + 1} was emptied this turn: fill it from your reserve first",
                _fill(state, waiting[0]),
            )
    return None


def _fill(state: GameState, house: int) -> tuple[Move, ...]:
    fill = PLAY[RESERVE][house]
    return (REVEAL, fill) if state.reserve_up[state.to_act] == 0 else (fill,)


def _cycle_reason(state: GameState, move: Move) -> str | None:
    if move.action is not Action.PLAY or move.source >= 8 or move.target >= 8:
        return None
    houses = list(state.houses)
    moved = houses[move.source][-move.count :]
    houses[move.source] = houses[move.source][: -move.count]
    houses[move.target] = houses[move.target] + moved
    if houses_key(tuple(houses)) in state.seen:
        return "it recreates a layout already seen this turn (no cycles within a turn)"
    return None


def why_illegal(state: GameState, move: object) -> str | None:
    """Why ``move`` is not legal in ``state``, or ``None`` when it is legal."""
    if not isinstance(move, Move):
        return f"{move!r} is not a Move"
    if is_over(state):
        return "the deal is over"
    if state.stop is not None:
        if move.action in (Action.CALL_STOP, Action.LET_STAND):
            return None
        return (
            f"player {state.to_act} must first decide on the Stop! call for"
            f" {state.stop.move}: call stop or pass"
        )
    reason = _building_reason(state, move)
    if reason is not None:
        return reason
    if state.rules.stop == "enforced":
        broken = violation(state, move)
        if broken is not None:
            return broken.reason
    return _cycle_reason(state, move)


def describe_illegal(state: GameState, move: Move) -> str:
    """A full message for an illegal move: the move, its card, and why."""
    reason = why_illegal(state, move) or "it is not legal here"
    return f"illegal move {_label(state, move)} for player {state.to_act}: {reason}"
