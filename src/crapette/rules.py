"""The [`Ruleset`][crapette.rules.Ruleset]: every rule option as an independent field, the named
presets, and the canonical string form (``"serbian(house_filling=immediate)"``) that round-trips."""

from __future__ import annotations

import re
import types
from collections.abc import Mapping
from typing import Any, Final, Literal

import attr
import attrs

from crapette import _spec
from crapette._quote import quote, show
from crapette.errors import InvalidRulesError

__all__ = ["OPTIONS", "PRESETS", "RANGES", "Ruleset", "format_rules", "parse_rules"]

# BEGIN GENERATED TYPES (python tools/generate.py)
Pack = Literal["standard", "tarot56", "tarot77", "tarot78"]
"""The values of the ``pack`` option."""
FirstPlayer = Literal["reserve", "reserve_first_house", "cut"]
"""The values of the ``first_player`` option."""
MatchStarter = Literal["rule", "alternate"]
"""The values of the ``match_starter`` option."""
TurnEnd = Literal["discard", "flip"]
"""The values of the ``turn_end`` option."""
LoadFrom = Literal["any", "own"]
"""The values of the ``load_from`` option."""
LoadMatch = Literal["suit", "colour"]
"""The values of the ``load_match`` option."""
GroupMoves = Literal["single", "supermove", "whole"]
"""The values of the ``group_moves`` option."""
SterileMoves = Literal["allowed", "forbidden"]
"""The values of the ``sterile_moves`` option."""
HouseFilling = Literal["before_hand", "immediate", "none"]
"""The values of the ``house_filling`` option."""
Priority = Literal["pagat", "serbian", "bobcrapette"]
"""The values of the ``priority`` option."""
Stop = Literal["enforced", "undo", "card", "lose_draw"]
"""The values of the ``stop`` option."""
CallWindow = Literal["after_move", "turn_start"]
"""The values of the ``call_window`` option."""
FalseCall = Literal["lose_turn", "none", "rationed"]
"""The values of the ``false_call`` option."""
Blocked = Literal["scored", "draw"]
"""The values of the ``blocked`` option."""
# END GENERATED TYPES

OPTIONS: Final[Mapping[str, tuple[str | tuple[str, ...], str]]] = types.MappingProxyType(
    {
        option.name: (
            tuple(value for value, _ in option.values)
            if option.kind == "choice"
            else "count_or_none"
            if option.kind == "count"
            else option.kind,
            option.doc,
        )
        for option in _spec.OPTIONS
    }
)
"""Every option of [`Ruleset`][crapette.Ruleset], in field order: its kind (``"bool"``,
``"int"``, ``"count_or_none"`` or the tuple of allowed names) and a one-line description
(read-only; the data is ``crapette._spec.OPTIONS``)."""

RANGES: Final[Mapping[str, tuple[int, int]]] = types.MappingProxyType(
    {option.name: option.range for option in _spec.OPTIONS if option.range is not None}
)
"""The allowed range (lowest, highest) of every numeric option (read-only). Values outside
raise [`InvalidRulesError`][crapette.InvalidRulesError]."""

_PACKS: Final = {pack.name: pack for pack in _spec.PACKS}
_LARGEST: Final = max(pack.cards for pack in _spec.PACKS)

_INT_TEXT: Final = re.compile(r"-?[0-9]+\Z")
_BLANKS: Final = " \t"

MAX_RULES_TEXT: Final = 1000
"""The longest rules string [`Ruleset.from_string`][crapette.rules.Ruleset.from_string] reads."""


def _check(name: str) -> Any:
    def validate(_inst: object, _attr: object, value: object) -> None:
        _validate_value(name, value)

    return validate


def _describe(name: str) -> str:
    kind = OPTIONS[name][0]
    if isinstance(kind, tuple):
        return "one of " + ", ".join(kind)
    if kind == "bool":
        return "true or false"
    low, high = RANGES[name]
    what = f"an integer from {low} to {high}"
    return what + " or none" if kind == "count_or_none" else what


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate_value(name: str, value: object) -> None:
    kind = OPTIONS[name][0]
    if isinstance(kind, tuple):
        ok = isinstance(value, str) and value in kind
    elif kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "int":
        ok = _is_int(value)
    else:
        ok = value is None or _is_int(value)
    if not ok:
        raise InvalidRulesError(
            f"option {name}={_short(value)} is invalid: expected {_describe(name)}"
        )
    if name in RANGES and value is not None:
        low, high = RANGES[name]
        assert isinstance(value, int)
        if not low <= value <= high:
            if name == "reserve_size":
                raise InvalidRulesError(
                    f"option reserve_size={_short(value)} is impossible: the largest pack,"
                    f" of {_LARGEST} cards, deals 4 houses, so the reserve holds 1 to"
                    f" {_LARGEST - 4} cards"
                )
            raise InvalidRulesError(
                f"option {name}={_short(value)} is out of range: expected {_describe(name)}"
            )


def _short(value: object) -> str:
    """The repr of an option value, cut short for a huge one (a bounded excerpt)."""
    return show(value, limit=40)


@attrs.frozen(slots=True, repr=False)
class Ruleset:
    """One complete set of rules. Every field is an independent option.

    The default value of every field is the ``classic`` preset. Build a variant with
    [`preset`][crapette.rules.Ruleset.preset] and [`replace`][crapette.rules.Ruleset.replace], or
    parse its canonical string with [`from_string`][crapette.rules.Ruleset.from_string]. Invalid
    values raise [`InvalidRulesError`][crapette.InvalidRulesError]. See ``docs/rules.md`` for the
    meaning of each option and its source.
    """

    # BEGIN GENERATED FIELDS (python tools/generate.py)
    pack: Pack = attr.ib(default="standard", validator=_check("pack"))
    """The pack each player deals from: ``standard``: 52 cards: 4 suits of A 2..10 J Q K, 8
    foundations; ``tarot56``: 56 cards: 4 suits of A 2..10 J N Q K (N: the Knight), 8
    foundations; ``tarot77``: 77 cards: tarot56 and trumps 1..21, a fifth family; 10
    foundations; ``tarot78``: 78 cards: tarot77 and the Excuse as trump 0; 10 foundations."""
    reserve_size: int = attr.ib(default=13, validator=_check("reserve_size"))
    """Cards dealt to each reserve; the hand gets the rest of the pack but the 4 houses (1 to
    74)."""
    reserve_face_up: bool = attr.ib(default=True, validator=_check("reserve_face_up"))
    """The dealt reserve top is face up (false: its owner turns it in play with reveal)."""
    first_player: FirstPlayer = attr.ib(default="reserve", validator=_check("first_player"))
    """Who starts a deal: ``reserve``: the lower reserve top, ties broken by the houses
    outward; ``reserve_first_house``: the lower reserve top, ties broken by the first houses;
    ``cut``: the lower card of a cut of each pack."""
    match_starter: MatchStarter = attr.ib(default="rule", validator=_check("match_starter"))
    """Who starts the later deals of a match: ``rule``: the first-player rule, applied to each
    new deal; ``alternate``: the players take turns."""
    own_waste_playable: bool = attr.ib(default=False, validator=_check("own_waste_playable"))
    """Your own waste top is an available card."""
    turn_end: TurnEnd = attr.ib(default="discard", validator=_check("turn_end"))
    """How a turn ends: ``discard``: you turn hand cards one at a time and end by discarding
    one; ``flip``: no hand card is turned: you end with flip, your hand's top to your waste."""
    load_from: LoadFrom = attr.ib(default="any", validator=_check("load_from"))
    """Which cards may load the opponent: ``any``: any available card; ``own``: only your
    reserve top, turned hand card and own waste top."""
    load_match: LoadMatch = attr.ib(default="suit", validator=_check("load_match"))
    """Which card loads on the opponent's top: ``suit``: the same family, one rank up or down;
    ``colour``: a suit card of the other colour or a trump on a trump, one rank apart."""
    load_wrap: bool = attr.ib(default=False, validator=_check("load_wrap"))
    """Loading wraps between each family's top and starter (King and Ace, trump 21 and 1)."""
    group_moves: GroupMoves = attr.ib(default="supermove", validator=_check("group_moves"))
    """House-to-house sequences: ``single``: single cards only; ``supermove``: at most 2**e
    cards, with e empty houses besides the destination; ``whole``: any tail of the run, with no
    space limit."""
    sterile_moves: SterileMoves = attr.ib(default="allowed", validator=_check("sterile_moves"))
    """Moving a whole house onto an empty house: ``allowed``: allowed; ``forbidden``: illegal:
    it changes nothing."""
    house_filling: HouseFilling = attr.ib(default="before_hand", validator=_check("house_filling"))
    """Filling empty houses from your reserve: ``before_hand``: no hand card is turned while
    your reserve has cards and a house is empty; ``immediate``: a house emptied in your turn is
    filled at once (after foundation moves); ``none``: no obligation."""
    priority: Priority = attr.ib(default="pagat", validator=_check("priority"))
    """The compulsory order of moves: ``pagat``: your reserve top to a foundation first, then
    any foundation move; ``serbian``: foundation, then building on the tableau, then loading
    the opponent; ``bobcrapette``: a starter or your reserve top that can go to a foundation
    must, before your turn ends."""
    stop: Stop = attr.ib(default="enforced", validator=_check("stop"))
    """Priority violations: ``enforced``: impossible: the engine offers only moves that respect
    them; ``undo``: legal; the opponent may call Stop!: the move is taken back; ``card``:
    legal; the opponent may call Stop!: the caller gives a penalty card; ``lose_draw``: legal;
    the opponent may call Stop!: the offender loses the flip that ended their turn."""
    call_window: CallWindow = attr.ib(default="after_move", validator=_check("call_window"))
    """When Stop! is called: ``after_move``: right after the violating move, by calling or
    letting it stand; ``turn_start``: at the start of your own turn, before your first move."""
    false_call: FalseCall = attr.ib(default="lose_turn", validator=_check("false_call"))
    """A wrong Stop! call at the start of a turn: ``lose_turn``: your turn ends at once;
    ``none``: nothing happens; ``rationed``: nothing happens, but after 3 in a deal you may not
    call again."""
    blocked: Blocked = attr.ib(default="scored", validator=_check("blocked"))
    """A blocked deal (stalemate or move cap): ``scored``: the lower count scores the
    difference; ``draw``: a draw: no winner, no points."""
    move_cap: int = attr.ib(default=20000, validator=_check("move_cap"))
    """A deal ends as a stalemate after this many moves (1 to 1000000000)."""
    win_bonus: int = attr.ib(default=30, validator=_check("win_bonus"))
    """Points for winning a deal (0 to 1000000)."""
    reserve_points: int = attr.ib(default=2, validator=_check("reserve_points"))
    """Points per card left in a reserve (0 to 1000000)."""
    hand_points: int = attr.ib(default=1, validator=_check("hand_points"))
    """Points per card left in a hand or waste (0 to 1000000)."""
    match_target: int | None = attr.ib(default=300, validator=_check("match_target"))
    """A match ends when a player's total reaches this (none: no target) (1 to 1000000000, or
    ``None``)."""
    match_deals: int | None = attr.ib(default=None, validator=_check("match_deals"))
    """A match ends after this many deals (none: no limit) (1 to 1000000, or ``None``)."""
    # END GENERATED FIELDS

    _codes: tuple[int, ...] = attr.ib(init=False, eq=False, hash=False, repr=False)
    """The option codes in spec order (the C core's rules table; see ``crapette._spec``)."""

    def __attrs_post_init__(self) -> None:
        cards = _PACKS[self.pack].cards
        if self.reserve_size > cards - 4:
            raise InvalidRulesError(
                f"option reserve_size={self.reserve_size} is impossible with pack={self.pack}:"
                f" a pack of {cards} cards deals 4 houses, so the reserve holds 1 to"
                f" {cards - 4} cards"
            )
        for combination in _spec.COMBINATIONS:
            (first, refused), (second, against) = combination.first, combination.second
            one, other = getattr(self, first), getattr(self, second)
            if one in refused and other in against:
                raise InvalidRulesError(
                    f"options {first}={_format_value(one)} and"
                    f" {second}={_format_value(other)}: {combination.why}"
                )
        object.__setattr__(self, "_codes", tuple(_code(self, option) for option in _spec.OPTIONS))

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand: the pack's cards but the reserve and the 4 houses
        (``48 - reserve_size`` with the standard pack)."""
        return _PACKS[self.pack].cards - self.reserve_size - 4

    @property
    def action_count(self) -> int:
        """How many action codes this ruleset can use: a prefix of
        [`ALL_MOVES`][crapette.moves.ALL_MOVES] (791 for the standard pack with discards; more
        with ``turn_end="flip"`` and the longer runs of a tarot pack: 848 for ``tarot56``,
        1240 for ``tarot77``, 1296 for ``tarot78``). Every legal move's ``index`` is below it."""
        from crapette._tables import PACK_TABLES  # the tables import the rules' modules
        from crapette.moves import action_count

        return action_count(PACK_TABLES[self.pack].most, self.turn_end == "flip")

    @property
    def callable_stop(self) -> bool:
        """Whether priority violations are legal and the opponent may call "Stop!"."""
        return self.stop != "enforced"

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """The preset with this name, one of [`PRESETS`][crapette.rules.PRESETS] (``classic``,
        ``pagat``, ...)."""
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            shown = show(name)
            raise InvalidRulesError(
                f"unknown preset {shown}: expected one of {', '.join(PRESETS)}"
            ) from None

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with some options changed; unknown option names raise ``InvalidRulesError``."""
        for key in changes:
            if key not in OPTIONS:
                raise InvalidRulesError(
                    f"unknown option {quote(key)}: expected one of {', '.join(OPTIONS)}"
                )
        return attrs.evolve(self, **changes)

    def to_string(self) -> str:
        """The canonical string: the nearest preset, then the options that differ from it,
        in field order (``"classic"``, ``"serbian(house_filling=immediate)"``)."""
        best: tuple[int, str, list[str]] | None = None
        for rank, (name, preset) in enumerate(PRESETS.items()):
            diff = [
                f"{field}={_format_value(getattr(self, field))}"
                for field in OPTIONS
                if getattr(self, field) != getattr(preset, field)
            ]
            if best is None or len(diff) < len(best[2]):
                best = (rank, name, diff)
        assert best is not None
        _, name, diff = best
        return f"{name}({', '.join(diff)})" if diff else name

    @classmethod
    def from_string(cls, text: str) -> Ruleset:
        """Parse a canonical string (or any ``preset(option=value, ...)`` string).

        Raises:
            InvalidRulesError: an unknown preset or option, or a bad value.
        """
        if not isinstance(text, str):
            raise InvalidRulesError(f"a rules string must be a str, not {type(text).__name__}")
        if len(text) > MAX_RULES_TEXT:
            raise InvalidRulesError(
                f"rules string {quote(text)} is too long: at most {MAX_RULES_TEXT} characters"
            )
        body = text.strip(_BLANKS)
        name, sep, rest = body.partition("(")
        name = name.strip(_BLANKS)
        base = cls.preset(name)
        if not sep:
            return base
        if not rest.endswith(")"):
            raise InvalidRulesError(f"rules string {quote(text)} lacks the closing ')'")
        inner = rest[:-1].strip(_BLANKS)
        changes: dict[str, object] = {}
        if inner:
            for item in inner.split(","):
                key, eq, raw = item.partition("=")
                key = key.strip(_BLANKS)
                if not eq:
                    raise InvalidRulesError(
                        f"expected option=value, got {quote(item.strip(_BLANKS))} in {quote(text)}"
                    )
                if key not in OPTIONS:
                    raise InvalidRulesError(
                        f"unknown option {quote(key)} in {quote(text)}: expected one of"
                        f" {', '.join(OPTIONS)}"
                    )
                if key in changes:
                    raise InvalidRulesError(f"option {key!r} given twice in {quote(text)}")
                changes[key] = _parse_value(key, raw.strip(_BLANKS))
        return base.replace(**changes)

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"Ruleset.from_string({self.to_string()!r})"


def _format_value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_value(name: str, raw: str) -> object:
    kind = OPTIONS[name][0]
    if isinstance(kind, tuple):
        return raw  # validated by the field
    if kind == "bool" and raw in ("true", "false"):
        return raw == "true"
    if kind == "count_or_none" and raw == "none":
        return None
    if kind != "bool" and _INT_TEXT.match(raw):
        if len(raw.lstrip("-")) > 12:
            raise InvalidRulesError(
                f"option {name}={quote(raw)} is out of range: expected {_describe(name)}"
            )
        return int(raw)
    raise InvalidRulesError(f"option {name}={quote(raw)} is invalid: expected {_describe(name)}")


def _code(rules: Ruleset, option: _spec.Option) -> int:
    """An option's code in the C core's rules table (``crapette._spec`` says how)."""
    value = getattr(rules, option.name)
    if option.kind == "choice":
        return [name for name, _ in option.values].index(value)
    if value is None:
        return -1
    return int(value)


_PRESETS: dict[str, Ruleset] = {
    preset.name: Ruleset().replace(**dict(preset.changes)) for preset in _spec.PRESETS
}

PRESETS: Final[Mapping[str, Ruleset]] = types.MappingProxyType(_PRESETS)
"""The named presets, in the order of the variant matrix in the rules (read-only)."""


def parse_rules(text: str) -> Ruleset:
    """Parse a rules string: a preset name (``"serbian"``) or a preset with options
    (``"serbian(house_filling=immediate)"``), as [`format_rules`][crapette.rules.format_rules]
    writes it. ``Ruleset.from_string`` is the same function.

    Raises:
        InvalidRulesError: an unknown preset or option, or a bad value.
    """
    return Ruleset.from_string(text)


def format_rules(rules: Ruleset) -> str:
    """The canonical rules string of ``rules`` (``str(rules)``, ``rules.to_string()``):
    the nearest preset, then the options that differ from it."""
    if not isinstance(rules, Ruleset):
        raise TypeError(f"format_rules() needs a Ruleset, not {type(rules).__name__}")
    return rules.to_string()


def as_ruleset(rules: Ruleset | str | None, default: str = "classic") -> Ruleset:
    """A ruleset from a [`Ruleset`][crapette.rules.Ruleset], a preset name or a rules string
    (``None``: the ``default`` preset). Every function that takes rules accepts these three
    forms.

    Raises:
        InvalidRulesError: a bad rules string, or something that is none of these.
    """
    if isinstance(rules, Ruleset):
        return rules
    if rules is None:
        return PRESETS[default]
    if not isinstance(rules, str):
        raise InvalidRulesError(
            f"rules must be a Ruleset, a preset name or a rules string, not {rules!r}"
        )
    return Ruleset.from_string(rules)
