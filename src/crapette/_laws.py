"""The rules of play, each written once: the turn structure, the compulsory priorities with
their kind and remedy (``violation``), house filling (``fill_obligation``), the no-cycle rule
and the reason a move is illegal; the building rules (foundation, house, loading, group size)
are the card predicates of [`crapette._fits`][crapette._fits], re-exported here.

Every other module asks these: the Python engine's ``apply`` (``is_legal``), notation and
position validation, views and bots. They read a state's public fields only, so they serve
both engines. The Python engine's fast move generator (``_movegen``) reads the same
tables in a batched form and is tested against ``crapette.testing.reference_legal_moves``,
which tries every move of the fixed table against ``why_illegal``; the native engine states
the same rules in C (``native/crapette_core.c``) and is tested against both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple

from crapette import _hooks
from crapette._fits import (
    builds_on,
    fits_foundation,
    fits_house,
    fits_load,
    foundation_needs,
    foundation_pile,
    is_foundation_run,
    is_run,
    most_cards,
)
from crapette._tables import BITS, TEXT
from crapette._tables import layout_key_after as _key_after
from crapette.cards import Card
from crapette.errors import CrapetteError
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
from crapette.outcome import python_winner
from crapette.state import GameState as _NativeOrPython
from crapette.state import PythonState as _PythonState

_STATES = (_NativeOrPython, _PythonState)  # either engine's state class

if TYPE_CHECKING:
    from crapette.state import GameState

__all__ = [
    "VIOLATION_KINDS",
    "Violation",
    "ViolationKind",
    "builds_on",
    "describe_illegal",
    "fill_obligation",
    "fits_foundation",
    "fits_house",
    "fits_load",
    "foundation_needs",
    "foundation_pile",
    "is_foundation_run",
    "is_legal",
    "is_run",
    "layout_key_after",
    "most_cards",
    "recreates_layout",
    "source_card",
    "violation",
    "why_illegal",
]

_LOAD_TARGETS = (OPP_RESERVE, OPP_WASTE)
_OWN_SOURCES = (RESERVE, HAND, WASTE)


def is_over(state: GameState) -> bool:
    """Whether the deal has ended, read from the public fields (so that the rules here
    answer for a state of either engine)."""
    return (
        python_winner(state) is not None
        or state.passes == (2, 2)
        or state.moves_made >= state.rules.move_cap
    )


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


# --------------------------------------------------------------------------------------
# The no-cycle rule


def layout_key_after(state: GameState, source: int, target: int, count: int) -> int:
    """The layout key (``houses_key``) after ``count`` cards go from house ``source`` to
    house ``target`` (``_tables.layout_key_after`` on the state's houses)."""
    return _key_after(state.houses_key, state.houses, source, target, count)


def recreates_layout(state: GameState, move: Move) -> bool:
    """Whether a house-to-house move recreates a layout already seen this turn (docs/rules.md
    decision 12; every other move is exempt or cannot recreate one)."""
    if move.action is not Action.PLAY or move.source >= 8 or move.target >= 8:
        return False
    return state._has_seen(layout_key_after(state, move.source, move.target, move.count))


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
            if count > most_cards(rules, free):
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


ViolationKind = Literal["reserve", "foundation", "order", "filling"]
"""The kinds of broken priority, in the order the rules check them: the reserve top's
foundation move (pagat's priority), any foundation move, the Serbian tableau-before-loading
order, and house filling."""

VIOLATION_KINDS: tuple[ViolationKind, ...] = ("reserve", "foundation", "order", "filling")
"""Every [`ViolationKind`][crapette._laws.ViolationKind], in the order the rules check them."""


class Violation(NamedTuple):
    """A broken priority rule: which kind, why, and the compulsory move(s) that were missed
    (made by the ``undo`` Stop! penalty).

    Attributes:
        reason: why the move breaks a priority rule.
        remedy: the compulsory move(s) that were missed.
        kind: which priority rule: ``"reserve"``, ``"foundation"``, ``"order"`` or
            ``"filling"`` (see ``VIOLATION_KINDS``).
    """

    reason: str
    remedy: tuple[Move, ...]
    kind: ViolationKind


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
    to_foundation = action is Action.PLAY and move.target == FOUNDATION
    found = _foundation_sources(state)
    if rules.priority == "pagat" and found and found[0][0] == RESERVE:
        if move != PLAY[RESERVE][FOUNDATION]:
            return Violation(
                f"your reserve top {TEXT[found[0][1]]} can go to a foundation: that comes first",
                (PLAY[RESERVE][FOUNDATION],),
                "reserve",
            )
        return None
    if found and not to_foundation:
        names = ", ".join(TEXT[card] for _, card in found)
        return Violation(
            f"a foundation move ({names}) must be made before any other move",
            (PLAY[found[0][0]][FOUNDATION],),
            "foundation",
        )
    if rules.priority == "serbian" and action is Action.PLAY and move.target in _LOAD_TARGETS:
        card = source_card(state, move.source)  # None for a move that is not building-legal
        for h, house in enumerate(state.houses):
            if card is not None and house and fits_house(house, card):
                return Violation(
                    f"{TEXT[card]} can be built on house {h + 1}: the tableau comes before"
                    " loading the opponent",
                    (PLAY[move.source][h],),
                    "order",
                )
    rule, houses = fill_obligation(state)
    if rule == "before_hand" and action is Action.DRAW:
        first = BITS[houses][0]
        return Violation(
            f"house {first + 1} is empty: fill the empty houses from your reserve"
            " before turning a hand card",
            _fill(state, first),
            "filling",
        )
    if rule == "immediate" and not to_foundation:
        fills = action is Action.PLAY and move.source == RESERVE and 0 <= move.target < 8
        if not (fills and houses >> move.target & 1):
            first = BITS[houses][0]
            return Violation(
                f"house {first + 1} was emptied this turn: fill it from your reserve first",
                _fill(state, first),
                "filling",
            )
    return None


def fill_obligation(state: GameState) -> tuple[str, int]:
    """The house-filling rule as it binds the player to act now (docs/rules.md decisions 3
    and 4), as the rule and a bitmask of houses: ``("before_hand", empty houses)`` while
    the reserve has cards and a house is empty (no hand card may be turned);
    ``("immediate", emptied houses)`` while the reserve has cards and houses emptied this
    turn are still empty (they are filled from the reserve before anything but foundation
    moves); ``("none", 0)`` when nothing is owed. The priorities (``violation``) and the
    Python engine's move generator both ask it."""
    rule = state.rules.house_filling
    if rule == "none" or not state.reserves[state.to_act]:
        return "none", 0
    if rule == "before_hand":
        empty = 0
        for h, house in enumerate(state.houses):
            if not house:
                empty |= 1 << h
        return ("before_hand", empty) if empty else ("none", 0)
    return ("immediate", state.emptied) if state.emptied else ("none", 0)


def _fill(state: GameState, house: int) -> tuple[Move, ...]:
    fill = PLAY[RESERVE][house]
    return (REVEAL, fill) if state.reserve_up[state.to_act] == 0 else (fill,)


def _cycle_reason(state: GameState, move: Move) -> str | None:
    if recreates_layout(state, move):
        return "it recreates a layout already seen this turn (no cycles within a turn)"
    return None


def is_legal(state: GameState, move: Move) -> bool:
    """Whether ``move`` is legal in ``state``: the same answer as ``move in
    legal_moves(state)`` and ``why_illegal(state, move) is None``, checking this one move
    only."""
    if state.stop is not None:
        return (move.action is Action.CALL_STOP or move.action is Action.LET_STAND) and not (
            is_over(state)
        )
    if is_over(state) or _building_reason(state, move) is not None:
        return False
    if state.rules.stop == "enforced" and violation(state, move) is not None:
        return False
    return not recreates_layout(state, move)


def why_illegal(state: GameState, move: object) -> str | None:
    """Why ``move`` is not legal in ``state``, or ``None`` when it is legal. ``move`` is a
    [`Move`][crapette.Move] or, as for ``apply``, its text in move notation (a text that is
    not a move gets the reason it cannot be read)."""
    if not isinstance(state, _STATES):
        raise _hooks.need(_hooks.not_a_state, "not_a_state")(state)
    if isinstance(move, str):
        try:
            _hooks.need(_hooks.parse_move, "parse_move")(state, move)
        except CrapetteError as error:
            return str(error)
        return None
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
