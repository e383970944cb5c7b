"""The immutable [`GameState`][crapette.state.GameState] of one deal, the one way to build
it, and the check that a hand-built state could occur
([`position_problems`][crapette.state.position_problems],
[`validate_position`][crapette.state.validate_position]).

A state holds data only; the rules that read and change it live in ``_laws``, ``_movegen``
and ``_engine``.

Two engines, one class name. With the native engine (the C core, ``crapette._core``, see
docs/performance.md) ``GameState`` is a native object: the position in 140 bytes of C, the
pile tuples built when a field is read. Without it (no compiler at install, PyPy,
``CRAPETTE_PURE=1``) ``GameState`` is the Python engine's slotted class,
``PythonState``, which the Python engine (the readable reference of the rules) builds and
reads. Both have the same constructor, fields, methods, equality, hashing and pickling;
``ENGINE`` says which one runs, and [`to_python`][crapette.state.to_python] turns a native
state into the Python engine's (the tests run both engines side by side on it).

The no-cycle rule needs the house layouts seen since the last move that cannot be undone;
instead of a set per state, states of one turn share a log of layout keys (``SeenLog``),
each state knowing how many of its keys it has seen, so a turn of ``k`` house moves costs
``O(k)`` time and memory, not ``O(k**2)``.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Collection, Container, Mapping
from itertools import chain
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias, final

from crapette import _build, _hooks
from crapette._build import argument_type_error, expected_type_error
from crapette._fits import is_foundation_run, is_run
from crapette._hooks import need
from crapette._quote import quote, show
from crapette._tables import PACK_TABLES, PackTables
from crapette._tables import houses_key as _houses_key
from crapette.cards import PACKS, Card
from crapette.errors import IllegalMoveError, InvalidArgumentError, InvalidPositionError
from crapette.moves import ALL_MOVES, Move
from crapette.rules import Ruleset

__all__ = [
    "ENGINE",
    "GameState",
    "PendingStop",
    "position_problems",
    "to_python",
    "validate_position",
]

Pile: TypeAlias = tuple[Card, ...]
"""A pile of cards, bottom first: ``pile[-1]`` is the top (the exposed card)."""

_NATIVE: Final = _build.native_core()

ENGINE: Final[str] = "native" if _NATIVE is not None else "python"
"""Which engine runs: ``"native"`` (the C core) or ``"python"`` (the Python engine)."""


_INDEX_FROM: Final = 12
"""A log gets a dict index once it holds this many keys (below, a list scan is faster)."""


@final
class SeenLog:
    """The layout keys seen in one line of play, in order, shared by its states: a state
    has seen the first ``seen_size`` keys of its ``seen_log`` (the no-cycle rule). Once the
    log is long, ``positions`` maps each key to its position, so a lookup stays a dict lookup.

    The log only grows. A state of size ``n`` extends the log in place only when ``n`` is
    its length: it appends its key (``list.append`` is atomic), checks that the key landed
    at position ``n``, and only then records its position. A state that loses a race (or
    extends an older state, as a search does) branches off with a copy of its keys, so
    states may be played on from several threads. Internal: ``GameState.seen`` gives the
    keys as a frozenset.

    Attributes:
        keys: the layout keys, in the order they were seen.
        positions: each key's position in ``keys`` once the log is long, else ``None``.
    """

    __slots__ = ("keys", "positions")

    def __init__(self, keys: list[int]) -> None:
        self.keys = keys
        self.positions: dict[int, int] | None = None
        if len(keys) >= _INDEX_FROM:
            self.positions = {key: i for i, key in enumerate(keys)}

    def holds(self, size: int, key: int) -> bool:
        """Whether ``key`` is among the first ``size`` keys."""
        positions = self.positions
        if positions is None:
            keys = self.keys
            return key in keys if len(keys) == size else key in keys[:size]
        pos = positions.get(key)
        return pos is not None and pos < size

    def first(self, size: int) -> Container[int]:
        """The first ``size`` keys as a container for ``in`` tests at C speed (the key list
        or its index itself when ``size`` is its length, as in a line of play)."""
        keys = self.keys
        positions = self.positions
        if len(keys) == size:
            return keys if positions is None else positions
        return keys[:size] if positions is None else frozenset(keys[:size])

    def after(self, size: int, key: int) -> tuple[SeenLog, int]:
        """The log and size of a state that has seen the first ``size`` keys and then the
        layout ``key``: unchanged if ``key`` is among them, else ``key`` at position
        ``size``, in this log when it can grow in place (or already holds ``key`` there),
        else in a copy."""
        keys = self.keys
        positions = self.positions
        if positions is not None:
            pos = positions.get(key)
            if pos is not None:
                if pos < size:
                    return self, size  # seen before
                if pos == size:
                    return self, size + 1  # another line of play added the same key here
        else:
            if len(keys) == size:
                if key in keys:
                    return self, size
            elif key in keys[:size]:
                return self, size
            elif keys[size] == key:
                return self, size + 1
        if len(keys) == size:
            keys.append(key)
            if keys[size] == key:
                if positions is not None:
                    positions[key] = size
                elif size + 1 >= _INDEX_FROM:
                    self.positions = {k: i for i, k in enumerate(keys[: size + 1])}
                return self, size + 1
        # Another line of play owns the next place: branch off with a copy of our keys.
        mine = keys[:size]
        mine.append(key)
        return SeenLog(mine), size + 1


_FIELDS: Final = (
    "rules",
    "to_act",
    "foundations",
    "houses",
    "reserves",
    "reserve_up",
    "hands",
    "wastes",
    "turned",
    "stop",
    "emptied",
    "passes",
    "moves_made",
    "fault",
    "window",
    "false_calls",
    "houses_key",
    "seen_log",
    "seen_size",
)
_PUBLIC_FIELDS: Final = (*_FIELDS[:-2], "seen")
FIELDS: Final = tuple(name for name in _PUBLIC_FIELDS if name != "houses_key")
"""The public fields of a state, as the keyword constructor and ``replace`` take them
(``houses_key`` follows the houses)."""
_VALUES: Final = _FIELDS[:-2]  # compared as they are (the seen log is compared as a set)


@final
class GameState:  # the Python engine's class (PythonState)
    """One position of a deal: every card's place, whose move it is and the counters the
    rules need. Immutable (assignment raises ``AttributeError``), hashable and equal by
    value; ``apply`` returns a new one.

    Build one with keywords: ``GameState(rules=..., to_act=0, foundations=..., houses=...,
    reserves=..., reserve_up=..., hands=..., wastes=...)``; ``turned``, ``stop``,
    ``emptied``, ``seen``, ``passes`` and ``moves_made`` are optional (the counters start as
    at the beginning of a turn; ``seen`` and ``houses_key`` are derived from the houses).
    [`replace`][crapette.state.GameState.replace] gives a copy with some fields changed;
    [`problems`][crapette.state.GameState.problems] lists what makes a hand-built state
    impossible.

    Piles are tuples of [`Card`][crapette.Card], bottom first, so ``pile[-1]`` is the top.
    Per-player pairs are tuples of two, indexed by player (0 or 1).

    Attributes:
        rules: the ruleset of the deal.
        to_act: the player who makes the next move (during a "Stop!" decision, the caller).
        foundations: the 8 foundation piles, left to right.
        houses: the 8 houses; 0..3 are player 0's column (0 nearest player 0's reserve),
            4..7 player 1's (4 nearest player 1's reserve).
        reserves: each player's reserve.
        reserve_up: how many cards at the top of each reserve are face up (the rest are face
            down).
        hands: each player's face-down hand (``hand[-1]`` is the next card to turn).
        wastes: each player's face-up waste.
        turned: the turned hand card of the player whose turn it is, or ``None``.
        stop: the violation awaiting a "Stop!" decision, or ``None``.
        emptied: bit ``h`` set when house ``h`` was emptied during the current turn and is
            still empty (for ``house_filling="immediate"``).
        passes: per player, 0 while their current pass through the hand has seen progress,
            1 while it has not, 2 once they completed a whole pass without progress (the
            stalemate rule).
        moves_made: how many moves have been applied in this deal (for the move cap).
        fault: under ``call_window="turn_start"``, the priority violation that ended the
            previous turn (a ``PendingStop`` whose ``prior`` is the state before it), which
            a Stop! call at the start of this turn punishes; ``None`` otherwise.
        window: under ``call_window="turn_start"``, whether the player to act may still
            call Stop! this turn (no move made yet, no call made); ``False`` otherwise.
        false_calls: under ``false_call="rationed"``, each player's wrong Stop! calls in
            this deal (at most 3); ``(0, 0)`` otherwise.
        houses_key: ``houses_key(houses)``, kept up to date by ``apply`` with a few XORs.
        seen_log: the layout keys seen this turn, shared with the other states of the turn
            (the first ``seen_size`` are this state's, see ``seen``), or ``None`` when only
            the current layout was seen. Internal.
        seen_size: how many keys of ``seen_log`` this state has seen (0 without a log).
    """

    __slots__ = _FIELDS

    rules: Final[Ruleset]
    to_act: Final[int]
    foundations: Final[tuple[Pile, ...]]
    houses: Final[tuple[Pile, ...]]
    reserves: Final[tuple[Pile, ...]]
    reserve_up: Final[tuple[int, ...]]
    hands: Final[tuple[Pile, ...]]
    wastes: Final[tuple[Pile, ...]]
    turned: Final[Card | None]
    stop: Final[PendingStop | None]
    emptied: Final[int]
    passes: Final[tuple[int, ...]]
    moves_made: Final[int]
    fault: Final[PendingStop | None]
    window: Final[bool]
    false_calls: Final[tuple[int, ...]]
    houses_key: Final[int]
    seen_log: Final[SeenLog | None]
    seen_size: Final[int]

    def __init__(
        self,
        rules: Ruleset,
        to_act: int,
        foundations: tuple[Pile, ...],
        houses: tuple[Pile, ...],
        reserves: tuple[Pile, ...],
        reserve_up: tuple[int, ...],
        hands: tuple[Pile, ...],
        wastes: tuple[Pile, ...],
        turned: Card | None = None,
        stop: PendingStop | None = None,
        emptied: int = 0,
        passes: tuple[int, ...] = (1, 1),
        moves_made: int = 0,
        fault: PendingStop | None = None,
        window: bool = False,
        false_calls: tuple[int, ...] = (0, 0),
        houses_key: int | None = None,
        seen_log: SeenLog | None = None,
        seen_size: int = -1,
        *,
        seen: Collection[int] | None = None,
    ) -> None:
        """Build a state by keyword (see the class docstring). ``seen`` is the set of house
        layout keys seen this turn (the current layout is always added); ``houses_key`` is
        computed from ``houses`` when not given.

        A state is checked when it is built, by both engines alike: a field of the wrong
        type raises ``TypeError``; a state that could not occur in a deal (every reason
        [`position_problems`][crapette.state.position_problems] gives) raises
        ``InvalidPositionError`` naming the field, so that every state that exists is one
        both engines play alike.

        ``seen_log`` and ``seen_size`` are internal: given (``seen_size >= 0``), the fields
        are stored as passed, in field order (a pickled state is rebuilt so), and checked.

        Raises:
            TypeError: a field of the wrong type.
            InvalidPositionError: a state that could not occur (naming every problem).
        """
        key_given = houses_key is not None
        if seen_size < 0:  # the public form: check the types, derive the layout fields
            fields = (rules, to_act, foundations, houses, reserves, reserve_up, hands, wastes)
            _check_types(
                (
                    *fields,
                    *(turned, stop, emptied, passes, moves_made, fault, window, false_calls),
                    houses_key,
                )
            )
            key = _layout_key(houses, rules) if houses_key is None else houses_key
            houses_key = key
            seen_log = None
            seen_size = 0
            if seen:
                _check_keys(seen)
                extra = sorted({k for k in seen if k != key})
                if extra:
                    seen_log = SeenLog([*extra, key])
                    seen_size = len(extra) + 1
        self.rules = rules
        self.to_act = to_act
        self.foundations = foundations
        self.houses = houses
        self.reserves = reserves
        self.reserve_up = reserve_up
        self.hands = hands
        self.wastes = wastes
        self.turned = turned
        self.stop = stop
        self.emptied = emptied
        self.passes = passes
        self.moves_made = moves_made
        self.fault = fault
        self.window = window
        self.false_calls = false_calls
        self.houses_key = 0 if houses_key is None else houses_key
        self.seen_log = seen_log
        self.seen_size = seen_size  # (the last field: the state is built, see _write_once)
        problems = _problems(self, PythonState, check_key=key_given)
        if problems:
            raise _impossible(problems)
        # the cards as the pack's Card objects, as the native engine holds them (after the
        # check, whose words quote the fields as given)
        deck = PACKS[rules.pack].cards
        for i in (2, 3, 4, 6, 7):  # foundations, houses, reserves, hands, wastes
            _SET[i](self, _as_cards(getattr(self, _FIELDS[i]), deck))
        _SET[8](self, _as_card(turned, deck))

    @property
    def seen(self) -> frozenset[int]:
        """The keys (``houses_key``) of the house layouts seen since the last move that
        cannot be undone in this turn, the current one included (the no-cycle rule: no house
        move may recreate one; every other part of the layout is unchanged since that
        move)."""
        log = self.seen_log
        if log is None:
            return frozenset((self.houses_key,))
        return frozenset(log.keys[: self.seen_size])

    def _has_seen(self, key: int) -> bool:
        """Whether the layout ``key`` was seen this turn (the current layout included)."""
        log = self.seen_log
        if log is None:
            return key == self.houses_key
        return log.holds(self.seen_size, key)

    @property
    def turn_player(self) -> int:
        """The player whose turn it is (differs from ``to_act`` during a Stop! decision)."""
        stop = self.stop
        return stop.resume if stop is not None else self.to_act

    def __str__(self) -> str:
        """The readable board ([`board`][crapette.text.board])."""
        return str(need(_hooks.board, "board")(self))

    def __repr__(self) -> str:
        """Code that rebuilds the state: ``crapette.parse_position('<position line>')``."""
        return _state_repr(self)

    def _repr_svg_(self) -> str:
        """The table as an SVG picture (Jupyter), face-down cards as backs."""
        return str(need(_hooks.svg_board, "svg_board")(self))

    def _repr_html_(self) -> str:
        """The table as inline SVG (Jupyter)."""
        return self._repr_svg_()

    def cards(self) -> list[Card]:
        """Every card on the table (every card of the game in a valid state), pile by pile."""
        out: list[Card] = []
        for pile in (*self.foundations, *self.houses, *self.reserves, *self.hands, *self.wastes):
            out.extend(pile)
        if self.turned is not None:
            out.append(self.turned)
        return out

    def problems(self) -> list[str]:
        """Everything that makes this state impossible, as
        [`position_problems`][crapette.state.position_problems] lists it: empty, since a
        state is checked when it is built (ask ``position_problems`` of the fields to
        check them before building)."""
        return position_problems(self)

    def replace(self, **changes: Any) -> GameState:
        """A copy with the given fields changed (the constructor's keywords except
        ``houses_key``, which follows ``houses``; changing ``houses`` forgets the layouts
        seen unless ``seen`` is given too).

        Raises:
            TypeError: a keyword that is not a field.
        """
        for name in changes:
            if name not in _PUBLIC_FIELDS or name == "houses_key":
                raise TypeError(f"GameState.replace() got an unexpected field {name!r}")
        if "houses" not in changes and "seen" not in changes:
            values: dict[str, Any] = {name: getattr(self, name) for name in _FIELDS}
            values.update(changes)
            _check_types(tuple(values[name] for name in _VALUES))
            return PythonState(**values)
        fields: dict[str, Any] = {name: getattr(self, name) for name in _PUBLIC_FIELDS}
        if "houses" in changes:
            del fields["houses_key"]
            if "seen" not in changes:
                fields["seen"] = None
        fields.update(changes)
        return PythonState(**fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PythonState):
            return NotImplemented
        if self is other:
            return True
        if self._values() != other._values() or self.seen_size != other.seen_size:
            return False
        return (self.seen_log is other.seen_log) or self.seen == other.seen

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((self._values(), self.seen_size))

    def _values(self) -> tuple[object, ...]:
        return (
            self.rules,
            self.to_act,
            self.foundations,
            self.houses,
            self.reserves,
            self.reserve_up,
            self.hands,
            self.wastes,
            self.turned,
            self.stop,
            self.emptied,
            self.passes,
            self.moves_made,
            self.fault,
            self.window,
            self.false_calls,
            self.houses_key,
        )

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: object) -> GameState:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        log = self.seen_log
        return (_rebuild, (self._values(), None if log is None else log.keys[: self.seen_size]))


PythonState: Final = GameState
"""The Python engine's state class (``GameState`` itself without the native engine)."""


# The fields whose type the constructor checks (as the native engine's constructor does):
# their position among the constructor's arguments, the type and whether None is allowed.
_CHECKED: Final = (
    (1, int, False),  # to_act
    (2, tuple, False),  # foundations
    (3, tuple, False),  # houses
    (4, tuple, False),  # reserves
    (5, tuple, False),  # reserve_up
    (6, tuple, False),  # hands
    (7, tuple, False),  # wastes
    (9, tuple, True),  # stop (a PendingStop is a tuple)
    (10, int, False),  # emptied
    (11, tuple, False),  # passes
    (12, int, False),  # moves_made
    (13, tuple, True),  # fault (a PendingStop is a tuple)
    (14, bool, False),  # window
    (15, tuple, False),  # false_calls
    (16, int, True),  # houses_key
)


def _check_types(fields: tuple[object, ...]) -> None:
    """The public constructor's type checks, in argument order and worded as the native
    engine words them, so that both engines refuse a field of the wrong type alike."""
    for i, kind, optional in _CHECKED:
        value = fields[i]
        if not isinstance(value, kind) and not (optional and value is None):
            raise expected_type_error(kind.__name__ + (" or None" if optional else ""), value)


def _as_card(value: Any, deck: tuple[Card, ...]) -> Any:
    """``value`` as the pack's ``Card`` when it is the code of one (a plain ``int`` given
    for a card, say); anything else as it is, for ``position_problems`` to name."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(deck):
        return deck[value]
    return value


def _as_cards(piles: Any, deck: tuple[Card, ...]) -> Any:
    """Each pile of ``piles`` (a tuple of piles) with its cards as the pack's ``Card``s."""
    return tuple(
        tuple(_as_card(c, deck) for c in pile) if isinstance(pile, tuple) else pile
        for pile in piles
    )


def _check_keys(seen: Collection[object]) -> None:
    """The keys of ``seen`` must be integers (the native engine refuses another key with
    these words); their range is for ``position_problems`` to check."""
    for key in seen:
        if not isinstance(key, int):
            raise expected_type_error("int", key)


def _layout_key(houses: tuple[Pile, ...], rules: object) -> int:
    """``houses_key(houses)`` in a game of the rules' pack, or 0 for houses that are not 8
    piles of cards (no state of play; ``position_problems`` names what is wrong)."""
    try:
        count = PACK_TABLES[rules.pack].ncards if isinstance(rules, Ruleset) else 104
        return _houses_key(houses, count)
    except (IndexError, TypeError):
        return 0


# A state's fields are slots, written once: by the constructor (``__init__``, through
# ``_write_once``) or by ``make_state`` (through the slots' own setters); after that,
# assignment and deletion raise as the native class's read-only fields do.
_new_object: Final = object.__new__
_SET: Final[tuple[Any, ...]] = tuple(vars(GameState)[name].__set__ for name in _FIELDS)
"""The slots' setters, in field order."""
_SETTER: Final[dict[str, Any]] = dict(zip(_FIELDS, _SET, strict=True))
_built: Final = vars(GameState)["seen_size"].__get__  # raises until the last field is set


def _write_once(self: GameState, name: str, value: object) -> None:
    """Assignment to a state: a field written by the constructor, once; anything else is
    refused as the native class refuses it."""
    setter = _SETTER.get(name)
    if setter is not None:
        try:
            _built(self)
        except AttributeError:  # the constructor is filling it in
            setter(self, value)
            return
    _read_only(self, name, value)


def _read_only(self: object, name: str, value: object = None) -> None:
    """Assignment and deletion of the Python engine's state, refused as the native class
    refuses them."""
    if name == "__class__":
        raise TypeError(
            "__class__ assignment only supported for mutable types or ModuleType subclasses"
        )
    attribute = getattr(PythonState, name, None)
    kind = "crapette.state.GameState"
    if name in _FIELDS or isinstance(attribute, property):
        raise AttributeError(f"attribute {name!r} of {kind!r} objects is not writable")
    if attribute is not None:
        raise AttributeError(f"{kind!r} object attribute {name!r} is read-only")
    raise AttributeError(f"{kind!r} object has no attribute {name!r}")


setattr(PythonState, "__setattr__", _write_once)  # noqa: B010 - hidden from mypy, which
setattr(PythonState, "__delattr__", _read_only)  # noqa: B010 - keeps refusing assignment


def make_state(
    rules: Ruleset,
    to_act: int,
    foundations: tuple[Pile, ...],
    houses: tuple[Pile, ...],
    reserves: tuple[Pile, ...],
    reserve_up: tuple[int, ...],
    hands: tuple[Pile, ...],
    wastes: tuple[Pile, ...],
    turned: Card | None,
    stop: PendingStop | None,
    emptied: int,
    passes: tuple[int, ...],
    moves_made: int,
    fault: PendingStop | None,
    window: bool,
    false_calls: tuple[int, ...],
    houses_key: int,
    seen_log: SeenLog | None,
    seen_size: int,
) -> GameState:
    """The Python engine's internal constructor: every field given, in field order, nothing
    derived or checked (its ``apply`` builds every state with it, from a state that passed
    the checks, by the rules), stored through the slots' setters."""
    state: GameState = _new_object(PythonState)
    put = _SET
    put[0](state, rules)
    put[1](state, to_act)
    put[2](state, foundations)
    put[3](state, houses)
    put[4](state, reserves)
    put[5](state, reserve_up)
    put[6](state, hands)
    put[7](state, wastes)
    put[8](state, turned)
    put[9](state, stop)
    put[10](state, emptied)
    put[11](state, passes)
    put[12](state, moves_made)
    put[13](state, fault)
    put[14](state, window)
    put[15](state, false_calls)
    put[16](state, houses_key)
    put[17](state, seen_log)
    put[18](state, seen_size)
    return state


class PendingStop(NamedTuple):
    """A priority violation waiting for the opponent's "Stop!" decision.

    Attributes:
        prior: the state before the violating move (what ``undo`` returns to).
        move: the violating move.
        offender: the player who made it.
        resume: who acts if the violation is let stand (the offender, or the caller when the
            move ended the offender's turn).
    """

    prior: GameState
    move: Move
    offender: int
    resume: int


# --------------------------------------------------------------------------------------
# Validity of a hand-built state


def _pile_text(cards: Pile, t: PackTables) -> str:
    return "".join(t.text[c] for c in cards) or "-"


def _is_int(value: object, low: int, high: int) -> bool:
    """Whether ``value`` is an int (a ``Card`` is one; a bool is not) in ``low..high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


_CARD_TYPES: Final = frozenset((int, Card, *(type(deck.cards[0]) for deck in PACKS.values())))


def _pile_problem(value: object, what: str, count: int) -> str | None:
    """Why ``value`` is not a pile (a tuple of card codes below ``count``), or ``None``."""
    if not isinstance(value, tuple):
        return f"{what} must be a tuple of cards, not {type(value).__name__}"
    for i, card in enumerate(value):
        if not _is_int(card, 0, count - 1):
            return f"{what}[{i}] is not a card: {show(card)}"
    return None


_TUPLE: Final = frozenset((tuple,))


@functools.cache
def _codes(count: int) -> frozenset[int]:
    """Every card code of a game of ``count`` cards."""
    return frozenset(range(count))


def _whole_pack(groups: tuple[object, ...], turned: object, t: PackTables) -> list[Card] | None:
    """The cards of the piles of ``groups`` (the foundations, houses, reserves, hands and
    wastes), pile by pile, and the turned card, when each group is a tuple of its number
    of tuples of plain cards (ints or ``Card``s) holding every card of the game once, as
    every possible state does: checked at C speed. ``None`` otherwise, when the detailed
    checks find what is wrong (or that nothing is: a subclass of tuple or int)."""
    piles: list[object] = []
    for group, n in zip(groups, (t.foundations, 8, 2, 2, 2), strict=True):
        if type(group) is not tuple or len(group) != n:
            return None
        piles.extend(group)
    if not _TUPLE.issuperset(map(type, piles)):
        return None
    cards: list[Card] = list(chain.from_iterable(piles))  # type: ignore[arg-type]
    if turned is not None:
        cards.append(turned)  # type: ignore[arg-type]
    if len(cards) != t.ncards or not _CARD_TYPES.issuperset(map(type, cards)):
        return None
    return cards if _codes(t.ncards).issubset(cards) else None


def _piles_problem(value: object, n: int, what: str, count: int) -> str | None:
    if not isinstance(value, tuple) or len(value) != n:
        return f"{what} must be a tuple of {n} piles, not {show(value)}"
    for i, pile in enumerate(value):
        problem = _pile_problem(pile, f"{what}[{i}]", count)
        if problem is not None:
            return problem
    return None


def _pair_problem(value: object, high: int, what: str) -> str | None:
    if type(value) is tuple and len(value) == 2:
        a, b = value
        if type(a) is int and type(b) is int and 0 <= a <= high and 0 <= b <= high:
            return None  # (the usual case, at once)
    if (
        not isinstance(value, tuple)
        or len(value) != 2
        or not all(_is_int(x, 0, high) for x in value)
    ):
        return f"{what} must be a pair of integers from 0 to {high}, not {show(value)}"
    return None


_DEFAULTS: Final[dict[str, Any]] = {
    "turned": None,
    "stop": None,
    "emptied": 0,
    "passes": (1, 1),
    "moves_made": 0,
    "fault": None,
    "window": False,
    "false_calls": (0, 0),
    "houses_key": None,
    "seen": None,
}


class _Fields:
    """The fields of a state that may not exist, given as the constructor's keywords, read
    as a state's are (``position_problems`` of a mapping)."""

    __slots__ = (*_VALUES, "seen")

    def __init__(self, fields: Mapping[str, Any]) -> None:
        for name in fields:
            if name not in _DEFAULTS and name not in _VALUES:
                raise TypeError(f"position_problems() got an unexpected field {name!r}")
        for name in _VALUES[:8]:
            if name not in fields:
                raise TypeError(f"position_problems() needs the field {name!r}")
        values = {**_DEFAULTS, **fields}
        for name in _VALUES:
            setattr(self, name, values[name])
        key = values["houses_key"]
        if key is None:
            key = _layout_key(values["houses"], values["rules"])
        self.houses_key = key
        seen = values["seen"]
        try:
            self.seen = frozenset((*seen, key)) if seen else frozenset((key,))
        except TypeError:  # not a collection of hashable keys
            self.seen = frozenset((None,))


def position_problems(state: GameState | Mapping[str, Any]) -> list[str]:
    """Every reason a state could not occur in a deal, as readable sentences naming the field
    (empty for a valid state): the type and range of every field, every card of both packs
    once, foundations built up in their family from a starter, houses descending one rank at
    a time (alternating colours for suits), possible counts, the fields of the table rules,
    and a pending Stop! decision that is the violation its move makes from ``stop.prior`` (a
    state of the same ruleset). Like python-chess's ``Board.status()``, the list form of
    [`validate_position`][crapette.state.validate_position].

    A ``GameState`` is checked when it is built (its constructor, ``replace`` and every
    reader refuse what this names), so a state that exists has no problem; pass the
    constructor's keywords as a mapping to ask about a state before building it.

    Args:
        state: a ``GameState``, or a mapping of the constructor's keywords (``rules``,
            ``to_act``, ``foundations``, ``houses``, ``reserves``, ``reserve_up``,
            ``hands``, ``wastes`` and optionally ``turned``, ``stop``, ``emptied``,
            ``passes``, ``moves_made``, ``fault``, ``window``, ``false_calls``,
            ``houses_key``, ``seen``).

    Raises:
        TypeError: a mapping with a keyword that is not a field, or without a required one.
    """
    if isinstance(state, Mapping):
        return _problems(_Fields(state), None)
    if not isinstance(state, (GameState, PythonState)):
        return [f"not a GameState: {type(state).__name__}"]
    return _problems(state, type(state))


def _problems(state: Any, engine: type | None, *, check_key: bool = True) -> list[str]:
    """``position_problems`` of a state, a state being built or ``_Fields``: ``engine`` is
    the class ``stop.prior`` must be (``None``: either engine's); ``check_key`` whether
    ``houses_key`` may differ from the layout key of the houses (it was given, not
    derived)."""
    problems: list[str] = []
    rules = state.rules
    if not isinstance(rules, Ruleset):
        problems.append(f"rules must be a Ruleset, not {type(rules).__name__}")
        t = PACK_TABLES["standard"]
    else:
        t = PACK_TABLES[rules.pack]
    count = t.ncards
    if not _is_int(state.to_act, 0, 1):
        problems.append(f"to_act must be 0 or 1, not {show(state.to_act)}")
    foundations, houses, reserves = state.foundations, state.houses, state.reserves
    hands, wastes, turned = state.hands, state.wastes, state.turned
    whole = _whole_pack((foundations, houses, reserves, hands, wastes), turned, t)
    shape = [
        _pair_problem(state.reserve_up, count, "reserve_up"),
        _pair_problem(state.passes, 2, "passes"),
        _pair_problem(state.false_calls, 3, "false_calls"),
    ]
    if whole is None:
        shape[:0] = [
            _piles_problem(foundations, t.foundations, "foundations", count),
            _piles_problem(houses, 8, "houses", count),
            _piles_problem(reserves, 2, "reserves", count),
            _piles_problem(hands, 2, "hands", count),
            _piles_problem(wastes, 2, "wastes", count),
        ]
    if whole is None and turned is not None and not _is_int(turned, 0, count - 1):
        shape.append(f"turned must be a card or None, not {show(turned)}")
    if not _is_int(state.emptied, 0, 255):
        shape.append(
            f"emptied must be a bitmask of houses from 0 to 255, not {show(state.emptied)}"
        )
    if not _is_int(state.moves_made, 0, 10**12):
        shape.append(f"moves_made must be an integer from 0, not {show(state.moves_made)}")
    if not all(_is_int(k, 0, 2**64 - 1) for k in state.seen):
        shape.append("seen must hold layout keys, integers from 0 to 2**64 - 1")
    stop = state.stop
    if stop is not None and not isinstance(stop, PendingStop):
        shape.append(f"stop must be a PendingStop or None, not {type(stop).__name__}")
    if state.fault is not None and not isinstance(state.fault, PendingStop):
        shape.append(f"fault must be a PendingStop or None, not {type(state.fault).__name__}")
    if not isinstance(state.window, bool):
        shape.append(f"window must be a bool, not {show(state.window)}")
    problems.extend(p for p in shape if p is not None)
    if problems:
        return problems  # the checks below read the fields as cards and piles
    if any(len(pile) > t.most for pile in houses):
        tall = [f"H{h + 1}" for h, pile in enumerate(houses) if len(pile) > t.most]
        run = "a run from King to Ace" if t.most == 13 else f"a run of the {rules.pack} pack"
        problems.append(f"houses hold at most {t.most} cards ({run}): {' '.join(tall)}")
    elif check_key and state.houses_key != _houses_key(houses, count):
        problems.append("houses_key is not the layout key of the houses")
    if whole is None:  # every card once? (told at once for the whole pack above)
        cards = [
            card
            for group in (foundations, houses, reserves, hands, wastes)
            for pile in group
            for card in pile
        ]
        if turned is not None:
            cards.append(turned)
        counts = Counter(cards)
        missing = [t.text[c] for c in range(count) if c not in counts]
        doubled = [t.text[c] for c in sorted(counts) if counts[c] > 1]
        if missing:
            problems.append("missing cards: " + " ".join(missing))
        if doubled:
            problems.append("cards written more than once: " + " ".join(doubled))
    for i, pile in enumerate(foundations):
        if pile and not is_foundation_run(pile, t):
            run = "in suit from its Ace" if t.most == 13 else "in its family from its starter"
            problems.append(f"foundation {i + 1} ({_pile_text(pile, t)}) is not a run up {run}")
    for i, pile in enumerate(houses):
        if not is_run(pile, t):
            problems.append(
                f"house H{i + 1} ({_pile_text(pile, t)}) does not descend one rank at a time in"
                " alternating colours"
            )
    for p in (0, 1):
        reserve, up = reserves[p], state.reserve_up[p]
        if up > len(reserve):
            problems.append(
                f"player {p}'s reserve has {len(reserve)} cards, fewer than its {up} face-up"
                " cards (reserve_up)"
            )
        elif reserve and up == 0 and rules.reserve_face_up:
            problems.append(
                f"player {p}'s reserve top is face down, but these rules deal it face up"
            )
        foreign = [t.text[c] for c in reserve[: max(len(reserve) - up, 0)] if t.owner[c] != p]
        if foreign:
            problems.append(
                f"face-down cards of player {p}'s reserve come from the other pack: "
                + " ".join(foreign)
            )
    if state.emptied:
        for h in range(8):
            if state.emptied >> h & 1 and houses[h]:
                problems.append(f"house H{h + 1} is marked emptied this turn but holds cards")
    if state.moves_made > rules.move_cap:
        problems.append(
            f"{state.moves_made} moves made is beyond the rules' move cap of {rules.move_cap}"
        )
    if rules.turn_end == "flip" and turned is not None:
        problems.append("turned must be None: no hand card is turned under turn_end=flip")
    calls = rules.stop != "enforced" and rules.call_window == "turn_start"
    if not calls and (state.window or state.fault is not None):
        problems.append(
            "window and fault belong to call_window=turn_start with a callable stop: they must"
            " be False and None under these rules"
        )
    if state.fault is not None:
        fault = state.fault
        if fault.offender != 1 - state.to_act or not state.window:
            problems.append(
                "fault must be the other player's turn end, before the first move of this turn"
            )
        elif not isinstance(fault.prior, (GameState, PythonState)) or fault.prior.rules != rules:
            problems.append("fault.prior must be a state of the same rules")
    if (rules.false_call != "rationed" or not calls) and state.false_calls != (0, 0):
        problems.append("false_calls must be (0, 0) unless false_call=rationed")
    if stop is not None and not problems:
        problems.extend(_stop_problems(state, stop, engine))
    return problems


# The fields a pending Stop! decision must share with the state its move gives from
# stop.prior (the rules are compared first; the layout key follows the houses).
_AFTER: Final = (
    "to_act",
    "foundations",
    "houses",
    "reserves",
    "reserve_up",
    "hands",
    "wastes",
    "turned",
    "emptied",
    "passes",
    "moves_made",
    "seen",
)


def _stop_problems(state: Any, stop: PendingStop, engine: type | None) -> list[str]:
    """Why a pending Stop! decision is not the one its move makes from ``stop.prior``: a
    Stop! decision exists only after a move that breaks a priority under callable Stop!
    rules, so the state must be that move's result from the prior (a state of the same
    ruleset, with no decision of its own), field for field."""
    prior, move, offender, resume = stop
    engines = (GameState, PythonState) if engine is None else (engine,)
    if not isinstance(prior, engines):
        return [f"stop.prior must be a GameState of the same engine, not {type(prior).__name__}"]
    if prior.stop is not None:
        return ["stop.prior must not itself await a Stop! decision"]
    if prior.rules != state.rules:
        return [
            f"stop.prior is a state of other rules ({prior.rules}) than the state's"
            f" ({state.rules}): the decision would be played by the prior's"
        ]
    if not isinstance(move, Move):
        return [f"stop.move must be a Move, not {show(move)}"]
    if not (_is_int(offender, 0, 1) and _is_int(resume, 0, 1)):
        return [f"stop.offender and stop.resume must be 0 or 1, not {show((offender, resume))}"]
    after, reason = need(_hooks.replay_stop, "replay_stop")(prior, move)
    if after is None:
        return [f"stop.move {move} cannot be played in stop.prior: {reason}"]
    pending = after.stop
    if pending is None:
        return [
            f"stop: {move} played from stop.prior leaves no Stop! decision (it breaks no"
            " priority these rules let the opponent call)"
        ]
    differ = [name for name in _AFTER if getattr(state, name) != getattr(after, name)]
    if (offender, resume) != (pending.offender, pending.resume):
        differ.append("stop.offender/stop.resume")
    if differ:
        return [
            f"the state's {', '.join(differ)} are not those {move} played from stop.prior"
            " gives (a Stop! decision follows its violating move)"
        ]
    return []


def _impossible(problems: list[str], text: str = "") -> InvalidPositionError:
    """The error of an impossible state (``validate_position``'s)."""
    where = f" {quote(text)}" if text else ""
    return InvalidPositionError(f"impossible position{where}: " + "; ".join(problems), text, None)


def _position_error(fields: Any, engine: type | None) -> InvalidPositionError | None:
    """The error for a state (or a mapping of its fields) that its constructor refuses,
    or ``None`` when it has no problem: the native engine's constructor words its
    refusals with it, as the Python engine's does."""
    if isinstance(fields, Mapping):
        problems = _problems(_Fields(fields), engine)
    else:
        problems = _problems(fields, engine)
    return _impossible(problems) if problems else None


def validate_position(state: GameState | Mapping[str, Any], text: str = "") -> None:
    """Check that ``state`` could occur in a deal (see
    [`position_problems`][crapette.state.position_problems]); a state that exists passed
    this check when it was built.

    Args:
        state: the state to check, or a mapping of the constructor's keywords.
        text: the text it was read from, quoted in the error (optional).

    Raises:
        InvalidPositionError: naming every problem found (a ``NotationError``).
    """
    problems = position_problems(state)
    if problems:
        raise _impossible(problems, text)


# --------------------------------------------------------------------------------------
# The native build's GameState


def _state_repr(state: GameState) -> str:
    """``repr(state)``: code that rebuilds it, ``crapette.parse_position('<position line>')``
    (a hand-built state that no position line can hold: its fields)."""
    if position_problems(state):
        parts = ", ".join(f"{name}={show(getattr(state, name), 10_000)}" for name in _PUBLIC_FIELDS)
        return f"GameState({parts})"
    text = need(_hooks.format_position, "format_position")(state)
    return f"crapette.parse_position({text!r})"


def _replace(state: GameState, changes: dict[str, Any]) -> GameState:
    """``state.replace(**changes)`` of a native state (see ``GameState.replace``)."""
    for name in changes:
        if name not in _PUBLIC_FIELDS or name == "houses_key":
            raise TypeError(f"GameState.replace() got an unexpected field {name!r}")
    fields = {name: getattr(state, name) for name in _PUBLIC_FIELDS if name != "houses_key"}
    if "houses" in changes and "seen" not in changes:
        fields["seen"] = None
    fields.update(changes)
    return GameState(**fields)


if not TYPE_CHECKING and _NATIVE is not None:
    GameState = _NATIVE.State


def to_python(state: GameState) -> GameState:
    """The same position as a state of the Python engine (``PythonState``): ``state`` itself
    without the native engine. The tests compare the two engines on it, and the Python
    engine explains an illegal move of a native state from it.

    Raises:
        TypeError: ``state`` is not a ``GameState``.
    """
    if isinstance(state, PythonState):
        return state
    if not isinstance(state, GameState):
        raise argument_type_error(GameState, state)
    stop = state.stop
    if stop is not None:
        stop = PendingStop(to_python(stop.prior), stop.move, stop.offender, stop.resume)
    fault = state.fault
    if fault is not None:
        fault = PendingStop(to_python(fault.prior), fault.move, fault.offender, fault.resume)
    return PythonState(
        rules=state.rules,
        to_act=state.to_act,
        foundations=state.foundations,
        houses=state.houses,
        reserves=state.reserves,
        reserve_up=state.reserve_up,
        hands=state.hands,
        wastes=state.wastes,
        turned=state.turned,
        stop=stop,
        emptied=state.emptied,
        passes=state.passes,
        moves_made=state.moves_made,
        fault=fault,
        window=state.window,
        false_calls=state.false_calls,
        houses_key=state.houses_key,
        seen=state.seen,
    )


def _rebuild(fields: tuple[Any, ...], keys: list[int] | None) -> GameState:
    """A pickled state, rebuilt for the engine that runs (pickles move between engines)."""
    values: dict[str, Any] = dict(zip(_VALUES, fields, strict=True))
    if _NATIVE is not None:
        return GameState(**values, seen=keys)
    log = None if keys is None else SeenLog(keys)
    return PythonState(**values, seen_log=log, seen_size=0 if keys is None else len(keys))


_hooks.not_a_state = lambda value: argument_type_error(GameState, value)
_hooks.expected_type_error = expected_type_error
_hooks.show = show
_hooks.rebuild_state = _rebuild
_hooks.state_repr = _state_repr
_hooks.state_replace = _replace
_hooks.position_problems = position_problems
_hooks.position_error = _position_error
if _NATIVE is not None:
    _NATIVE.setup(
        cards=tuple(deck.cards for deck in PACKS.values()),
        moves=ALL_MOVES,
        move_class=Move,
        pending_stop=PendingStop,
        ruleset_class=Ruleset,
        position_error=InvalidPositionError,
        illegal_error=IllegalMoveError,
        argument_error=InvalidArgumentError,
        hooks=_hooks,
    )
