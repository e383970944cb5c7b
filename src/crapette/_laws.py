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

A refusal is data: a [`Refusal`][crapette.Refusal] holds a reason code of the rule
spec (``crapette._spec.REASONS``) and its parameters, and its English is the spec's template
filled in by one renderer (``render_reason``). The C core answers with the same codes
(``cr_why_illegal``), and the lockstep test compares the two.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeAlias

from crapette import _hooks, _spec
from crapette._build import argument_type_error
from crapette._fits import (
    STANDARD,
    builds_on,
    fits_foundation,
    fits_house,
    fits_load,
    foundation_needs,
    foundation_pile,
    is_foundation_run,
    is_run,
    most_cards,
    tables,
)
from crapette._tables import ACE_KEY, BITS
from crapette._tables import layout_key_after as _key_after
from crapette.cards import Card
from crapette.errors import CrapetteError, IllegalMoveError
from crapette.moves import (
    ALL_MOVES,
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
from crapette.state import _NATIVE, GameState, PythonState

_STATES = (GameState, PythonState)  # either engine's state class

if TYPE_CHECKING:
    from crapette.rules import Ruleset

__all__ = [
    "FALSE_CALLS",
    "VIOLATION_KINDS",
    "Refusal",
    "RefusalParam",
    "Violation",
    "ViolationKind",
    "builds_on",
    "ends_turn",
    "fill_obligation",
    "fits_foundation",
    "fits_house",
    "fits_load",
    "forbids_violation",
    "foundation_needs",
    "foundation_pile",
    "illegal_move_error",
    "is_foundation_run",
    "is_legal",
    "is_run",
    "layout_key_after",
    "most_cards",
    "python_refusal",
    "recreates_layout",
    "refusal",
    "refusal_from_core",
    "render_reason",
    "source_card",
    "violation",
    "why_illegal",
]

_LOAD_TARGETS = (OPP_RESERVE, OPP_WASTE)
_OWN_SOURCES = (RESERVE, HAND, WASTE)
_TURN_ENDS = (Action.DISCARD, Action.END_TURN, Action.FLIP)

FALSE_CALLS = 3
"""The false calls a player may make in a deal under ``false_call="rationed"``."""


def ends_turn(move: Move) -> bool:
    """Whether the move ends its player's turn: a discard, ``flip`` or ``end``."""
    return move.action in _TURN_ENDS


# --------------------------------------------------------------------------------------
# Refusals: a reason code of the spec and its parameters

RefusalParam: TypeAlias = int | str | tuple[str, ...]
"""The value of a refusal's parameter, by the parameter's type in the spec: a ``card`` is
its text (``"7H"``), ``cards`` a tuple of texts, a ``house`` its number 1..8, a ``pile`` its
token of move notation (``"R"``, ``"T"``, ``"W"``, ``"F"``, ``"OR"``, ``"OW"``, ``"H1"``..``"H8"``),
an ``int`` and a ``player`` (0 or 1) a number, a ``move`` its text (``"R-F"``)."""

_REASONS: dict[str, _spec.Reason] = {reason.code: reason for reason in _spec.REASONS}

_PILE_TOKENS = {RESERVE: "R", HAND: "T", WASTE: "W", FOUNDATION: "F", OPP_RESERVE: "OR"}
_PILE_TOKENS[OPP_WASTE] = "OW"
_PILE_TOKENS.update({h: f"H{h + 1}" for h in range(8)})

_PILE_WORDS = {
    "R": "your reserve",
    "T": "your turned hand card",
    "W": "your waste",
    "F": "a foundation",
    "OR": "your opponent's reserve",
    "OW": "your opponent's waste",
}


def pile_name(pile: int) -> str:
    """A readable name of a move's source or target."""
    return _pile_words(_PILE_TOKENS[pile])


def _pile_words(token: str) -> str:
    return _PILE_WORDS.get(token) or f"house {token[1:]}"


def _words(kind: str, value: RefusalParam) -> str:
    """One parameter as the English templates write it."""
    if kind == "cards":
        assert isinstance(value, tuple)
        return ", ".join(value)
    if kind == "pile":
        assert isinstance(value, str)
        return _pile_words(value)
    return str(value)


def render_reason(code: str, params: Mapping[str, RefusalParam]) -> str:
    """The English sentence of a reason: its template in the spec, each parameter written
    by its type. The one renderer of refusals in Python (the native engine's refusals go
    through it too)."""
    reason = _REASONS[code]
    return reason.template.format(
        **{name: _words(kind, params[name]) for name, kind in reason.params}
    )


class Refusal(NamedTuple):
    """Why a move is illegal, as data: a reason code of the rule spec and its parameters.

    ``str(refusal)`` is the English sentence (the spec's template, filled in); the page and
    other front ends translate by ``code`` instead (the catalogue key ``reason.<code>``).
    Both engines give equal refusals.

    Attributes:
        code: the reason's stable code (``"foundation"``, ``"cycle"``, ...; every code is in
            ``crapette._spec.REASONS``, with its English template and its parameters).
        params: each parameter of the reason by name, written by its type in the spec: a
            ``card`` as its text (``"7H"``), ``cards`` as a tuple of texts, a ``house`` as
            its number 1..8, a ``pile`` as its token of move notation (``"R"``, ``"T"``,
            ``"W"``, ``"F"``, ``"OR"``, ``"OW"``, ``"H1"``..``"H8"``), an ``int`` and a
            ``player`` as a number, a ``move`` as its text (``"R-F"``).
    """

    code: str
    params: Mapping[str, RefusalParam]

    def __str__(self) -> str:
        return render_reason(self.code, self.params)

    @property
    def message(self) -> str:
        """The English sentence (``str(refusal)``)."""
        return render_reason(self.code, self.params)

    def to_dict(self) -> dict[str, object]:
        """The refusal as JSON-ready data: ``{"code": ..., "params": {...}}`` (a ``cards``
        parameter as a list), as the game server sends it."""
        params = {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()}
        return {"code": self.code, "params": params}


def _refuse(code: str, **params: RefusalParam) -> Refusal:
    return Refusal(code, params)


_CORE_REASONS: tuple[str, ...] = ("", *(reason.code for reason in _spec.REASONS))


def refusal_from_core(
    code: int, raw: tuple[int, ...], rules: Ruleset | None = None
) -> Refusal | None:
    """A refusal of the C core (``cr_why_illegal``: a reason number, 0 for a legal move, and
    its parameters as integers: a card's index in the pack of ``rules`` (the standard pack
    when ``None``), a ``cards`` list as its length then each card, a house's index 0..7, a
    pile's move code, a move's index) as a ``Refusal``."""
    if code == 0:
        return None
    text = (STANDARD if rules is None else tables(rules)).text
    reason = _REASONS[_CORE_REASONS[code]]
    params: dict[str, RefusalParam] = {}
    at = 0
    for name, kind in reason.params:
        value = raw[at]
        at += 1
        if kind == "card":
            params[name] = text[value]
        elif kind == "cards":
            params[name] = tuple(text[card] for card in raw[at : at + value])
            at += value
        elif kind == "house":
            params[name] = value + 1
        elif kind == "pile":
            params[name] = _PILE_TOKENS[value]
        elif kind == "move":
            params[name] = str(ALL_MOVES[value])
        else:
            params[name] = value
    return Refusal(reason.code, params)


def is_over(state: GameState) -> bool:
    """Whether the deal has ended, read from the public fields (so that the rules here
    answer for a state of either engine)."""
    return (
        python_winner(state) is not None
        or state.passes == (2, 2)
        or state.moves_made >= state.rules.move_cap
    )


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
    cards = tables(state.rules).ncards
    return _key_after(state.houses_key, state.houses, source, target, count, cards)


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
            return f"{move} ({card.text})"
    return str(move)


def _building_reason(state: GameState, move: Move) -> Refusal | None:
    p = state.to_act
    action = move.action
    if action is Action.REVEAL:
        if not state.reserves[p]:
            return _refuse("reveal_empty")
        if state.reserve_up[p] > 0:
            return _refuse("reveal_up")
        return None
    flip = state.rules.turn_end == "flip"
    if action is Action.DRAW or action is Action.DISCARD:
        if flip:
            return _refuse("flip_rule")
        if action is Action.DISCARD:
            return None if state.turned is not None else _refuse("discard_none")
        if state.turned is not None:
            return _refuse("draw_turned", card=state.turned.text)
        if not state.hands[p] and not state.wastes[p]:
            return _refuse("draw_empty")
        return None
    if action is Action.FLIP:
        if not flip:
            return _refuse("flip_discard")
        if not state.hands[p] and not state.wastes[p]:
            return _refuse("flip_empty")
        return None
    if action is Action.END_TURN:
        if state.turned is not None:
            return _refuse("end_turned")
        if state.hands[p] or state.wastes[p]:
            return _refuse("end_flip" if flip else "end_cards")
        return None
    if action is Action.CALL_STOP and _calls_at_turn_start(state.rules):
        return _call_reason(state)
    if action is not Action.PLAY:
        return _refuse("stop_none")
    return _play_reason(state, move)


def _calls_at_turn_start(rules: Ruleset) -> bool:
    """Whether Stop! is called at the start of a turn (``call_window="turn_start"`` with a
    callable Stop!)."""
    return rules.stop != "enforced" and rules.call_window == "turn_start"


def _call_reason(state: GameState) -> Refusal | None:
    """Why ``stop`` cannot be called now under ``call_window="turn_start"``, or ``None``."""
    if not state.window:
        return _refuse("stop_window")
    if state.rules.false_call == "rationed" and state.false_calls[state.to_act] >= FALSE_CALLS:
        return _refuse("stop_rationed")
    return None


def _play_reason(state: GameState, move: Move) -> Refusal | None:
    p = state.to_act
    rules = state.rules
    t = tables(rules)
    source, target, count = move.source, move.target, move.count
    if source == RESERVE and state.reserves[p] and state.reserve_up[p] == 0:
        return _refuse("reserve_down")
    if source == WASTE and not rules.own_waste_playable:
        return _refuse("waste_closed")
    card = source_card(state, source)
    if card is None:
        return _refuse("no_card", pile=_PILE_TOKENS[source])
    if count > 1:
        house = state.houses[source]
        if rules.group_moves == "single":
            return _refuse("group_single")
        if count > len(house):
            return _refuse("group_short", house=source + 1, held=len(house))
        if not is_run(house[-count:], t):
            return _refuse("group_run", count=count, house=source + 1)
        card = house[-count]
        if rules.group_moves == "supermove":
            free = sum(1 for h, pile in enumerate(state.houses) if not pile and h != target)
            if count > most_cards(rules, free, t):
                return _refuse("group_space", count=count, need=count.bit_length() - 1, free=free)
    if target == FOUNDATION:
        if not fits_foundation(state.foundations, card, t):
            return _refuse("foundation", card=card.text)
        return None
    if target < 8:
        house = state.houses[target]
        if not fits_house(house, card, t):
            return _refuse("house", card=card.text, onto=house[-1].text, house=target + 1)
        if (
            rules.sterile_moves == "forbidden"
            and source < 8
            and not house
            and count == len(state.houses[source])
        ):
            return _refuse("sterile", house=source + 1)
        return None
    # Loading the opponent.
    if rules.load_from == "own" and source not in _OWN_SOURCES:
        return _refuse("load_own")
    opp = 1 - p
    pile = state.reserves[opp] if target == OPP_RESERVE else state.wastes[opp]
    if not pile:
        return _refuse("load_empty", pile=_PILE_TOKENS[target])
    if target == OPP_RESERVE and state.reserve_up[opp] == 0:
        return _refuse("load_down")
    colour = rules.load_match == "colour"
    if not fits_load(pile[-1], card, rules.load_wrap, t, colour):
        code = ("load_colour" if colour else "load") + ("_wrap" if rules.load_wrap else "")
        return _refuse(code, card=card.text, onto=pile[-1].text)
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
        reason: why the move breaks a priority rule (the English of ``refusal``).
        remedy: the compulsory move(s) that were missed.
        kind: which priority rule: ``"reserve"``, ``"foundation"``, ``"order"`` or
            ``"filling"`` (see ``VIOLATION_KINDS``).
        refusal: the same reason as data: its code (``priority_reserve``,
            ``priority_foundation``, ``priority_order``, ``filling_before`` or
            ``filling_immediate``) and parameters.
    """

    reason: str
    remedy: tuple[Move, ...]
    kind: ViolationKind
    refusal: Refusal


def _violation(refusal: Refusal, remedy: tuple[Move, ...], kind: ViolationKind) -> Violation:
    return Violation(str(refusal), remedy, kind, refusal)


def _foundation_sources(state: GameState) -> list[tuple[int, Card]]:
    """Available cards that fit a foundation, in the fixed source order."""
    out = []
    t = tables(state.rules)
    for source in (RESERVE, HAND, WASTE, *range(8)):
        card = source_card(state, source)
        if card is not None and fits_foundation(state.foundations, card, t):
            out.append((source, card))
    return out


def violation(state: GameState, move: Move) -> Violation | None:
    """The priority rule this (building-legal) move breaks, or ``None``.

    Pagat's priority: any move but reserve-to-foundation while that exists; any
    non-foundation move while a foundation move exists. The Serbian order: a non-foundation
    move while a foundation move exists; loading a card that could be built on a non-empty
    house. Bobcrapette's: a move that ends the turn (``flip``, a discard, ``end``) while your
    reserve top or a starter (an Ace, trump 1, the Excuse) can go to a foundation; nothing
    else. House filling: turning a hand card (``draw``, or ``flip``) while the reserve has
    cards and a house is empty (``before_hand``); anything but a foundation move or filling
    an emptied house from the reserve while one waits (``immediate``). Revealing a reserve
    top is never one.
    """
    action = move.action
    if action in (Action.REVEAL, Action.CALL_STOP, Action.LET_STAND):
        return None
    rules = state.rules
    to_foundation = action is Action.PLAY and move.target == FOUNDATION
    found = _foundation_sources(state)
    if rules.priority == "bobcrapette":
        if found and action in _TURN_ENDS:
            if found[0][0] == RESERVE:
                return _violation(
                    _refuse("obligation_reserve", card=found[0][1].text),
                    (PLAY[RESERVE][FOUNDATION],),
                    "reserve",
                )
            starter = tables(rules).fneed
            for source, card in found:
                if starter[card] == ACE_KEY:
                    return _violation(
                        _refuse("obligation_starter", card=card.text),
                        (PLAY[source][FOUNDATION],),
                        "foundation",
                    )
    elif rules.priority == "pagat" and found and found[0][0] == RESERVE:
        if move != PLAY[RESERVE][FOUNDATION]:
            return _violation(
                _refuse("priority_reserve", card=found[0][1].text),
                (PLAY[RESERVE][FOUNDATION],),
                "reserve",
            )
        return None
    elif found and not to_foundation:
        return _violation(
            _refuse("priority_foundation", cards=tuple(card.text for _, card in found)),
            (PLAY[found[0][0]][FOUNDATION],),
            "foundation",
        )
    if rules.priority == "serbian" and action is Action.PLAY and move.target in _LOAD_TARGETS:
        loaded = source_card(state, move.source)  # None for a move not building-legal
        t = tables(rules)
        for h, house in enumerate(state.houses):
            if loaded is not None and house and fits_house(house, loaded, t):
                return _violation(
                    _refuse("priority_order", card=loaded.text, house=h + 1),
                    (PLAY[move.source][h],),
                    "order",
                )
    rule, houses = fill_obligation(state)
    if rule == "before_hand" and (action is Action.DRAW or action is Action.FLIP):
        first = BITS[houses][0]
        return _violation(
            _refuse("filling_before", house=first + 1), _fill(state, first), "filling"
        )
    if rule == "immediate" and not to_foundation:
        fills = action is Action.PLAY and move.source == RESERVE and 0 <= move.target < 8
        if not (fills and houses >> move.target & 1):
            first = BITS[houses][0]
            return _violation(
                _refuse("filling_immediate", house=first + 1), _fill(state, first), "filling"
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


def forbids_violation(rules: Ruleset, move: Move) -> bool:
    """Whether a priority violation by ``move`` is illegal (rather than a legal move the
    opponent may call Stop! on): always under ``stop="enforced"``; under
    ``call_window="turn_start"`` unless the move ends the turn (only a turn's end can be
    called at the start of the next turn)."""
    if rules.stop == "enforced":
        return True
    return rules.call_window == "turn_start" and move.action not in _TURN_ENDS


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
    if forbids_violation(state.rules, move) and violation(state, move) is not None:
        return False
    return not recreates_layout(state, move)


def python_refusal(state: GameState, move: Move) -> Refusal | None:
    """The reference answer to "why is ``move`` illegal in ``state``": ``None`` when it is
    legal, else the refusal, checked in this order: the deal is over; a Stop! decision is
    open; the turn structure and the building rules; under ``stop="enforced"`` the broken
    priority; the no-cycle rule. It reads a state's public fields only (so it answers for a
    state of either engine); the native engine's ``cr_why_illegal`` mirrors it."""
    if is_over(state):
        return _refuse("deal_over")
    if state.stop is not None:
        if move.action in (Action.CALL_STOP, Action.LET_STAND):
            return None
        return _refuse("stop_pending", player=state.to_act, move=str(state.stop.move))
    reason = _building_reason(state, move)
    if reason is not None:
        return reason
    if forbids_violation(state.rules, move):
        broken = violation(state, move)
        if broken is not None:
            return broken.refusal
    if recreates_layout(state, move):
        return _refuse("cycle")
    return None


def _python_refusal_checked(state: GameState, move: Move) -> Refusal | None:
    if not isinstance(state, GameState):
        raise argument_type_error(GameState, state)
    if not isinstance(move, Move):
        raise TypeError(f"not a Move: {move!r}")  # worded as the native engine words it
    return python_refusal(state, move)


def _native_refusal(state: GameState, move: Move) -> Refusal | None:
    assert _NATIVE is not None
    code, raw = _NATIVE.why_illegal(state, move)
    return refusal_from_core(code, raw, state.rules)


refusal: Callable[[GameState, Move], Refusal | None] = (
    _python_refusal_checked if _NATIVE is None else _native_refusal
)
"""Why ``move`` is illegal in ``state`` as data, or ``None`` when it is legal: a
[`Refusal`][crapette.Refusal] (a reason code of the rule spec and its parameters), answered
by the engine that runs (the native engine's C core, ``cr_why_illegal``, or the Python
reference ``python_refusal``; the lockstep test holds them equal).
``str(refusal(state, move))`` is ``why_illegal(state, move)``.

Raises:
    TypeError: ``state`` is not a ``GameState`` or ``move`` not a ``Move``.
"""


def why_illegal(state: GameState, move: object) -> str | None:
    """Why ``move`` is not legal in ``state``, or ``None`` when it is legal. ``move`` is a
    [`Move`][crapette.Move] or, as for ``apply``, its text in move notation (a text that is
    not a move gets the reason it cannot be read). The reason of a ``Move`` is the English of
    [`refusal`][crapette.refusal], which gives its code and parameters."""
    if not isinstance(state, _STATES):
        raise _hooks.need(_hooks.not_a_state, "not_a_state")(state)
    if isinstance(move, str):
        try:
            _hooks.need(_hooks.parse_move, "parse_move")(state, move)
        except CrapetteError as error:
            return str(error)
        return None
    if not isinstance(move, Move):
        if not isinstance(state, GameState):
            raise argument_type_error(GameState, state)
        return f"{move!r} is not a Move"
    found = refusal(state, move)
    return None if found is None else str(found)


def illegal_move_error(state: GameState, move: Move, found: Refusal | None) -> IllegalMoveError:
    """The ``IllegalMoveError`` of an illegal move: a message naming the move, its card, the
    player and the reason, with the refusal's code and parameters (``found``: the move's
    refusal, of either engine)."""
    reason = "it is not legal here" if found is None else str(found)
    message = f"illegal move {_label(state, move)} for player {state.to_act}: {reason}"
    if found is None:
        return IllegalMoveError(message)
    return IllegalMoveError(message, code=found.code, params=found.params)


def _illegal_from_core(
    state: GameState, move: Move, code: int, raw: tuple[int, ...]
) -> IllegalMoveError:
    """The native engine's ``IllegalMoveError`` from ``cr_why_illegal``'s answer."""
    return illegal_move_error(state, move, refusal_from_core(code, raw, state.rules))


_hooks.illegal_move_error = _illegal_from_core  # the native engine's illegal-move path
