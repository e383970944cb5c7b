"""The [`Ruleset`][crapette.rules.Ruleset]: every rule option as an independent field, the named
presets, and the canonical string form (``"serbian(house_filling=immediate)"``) that round-trips."""

from __future__ import annotations

import re
import types
from collections.abc import Mapping
from typing import Any, Final, Literal

import attr
import attrs

from crapette._quote import quote, show
from crapette.errors import InvalidRulesError

__all__ = ["OPTIONS", "PRESETS", "RANGES", "Ruleset", "format_rules", "parse_rules"]

FirstPlayer = Literal["reserve", "reserve_first_house", "cut"]
MatchStarter = Literal["rule", "alternate"]
LoadFrom = Literal["any", "own"]
GroupMoves = Literal["single", "supermove", "whole"]
HouseFilling = Literal["before_hand", "immediate", "none"]
Priority = Literal["pagat", "serbian"]
Stop = Literal["enforced", "undo", "card"]

# Every option: its kind ("bool", "int", "count_or_none" or the tuple of allowed names) and
# one line of documentation.
_OPTIONS: dict[str, tuple[str | tuple[str, ...], str]] = {
    "reserve_size": ("int", "cards dealt to each reserve (13 classic, 12 Serbian); hand = 48 - it"),
    "reserve_face_up": ("bool", "the dealt reserve top is face up (false: its owner turns it)"),
    "first_player": (
        ("reserve", "reserve_first_house", "cut"),
        "lower reserve top starts, ties by the houses outward / by the first house only / a cut",
    ),
    "match_starter": (("rule", "alternate"), "later deals of a match: same rule, or alternate"),
    "own_waste_playable": ("bool", "your own waste top is an available card"),
    "load_from": (("any", "own"), "which cards may load the opponent: any available / own piles"),
    "load_wrap": ("bool", "loading wraps between King and Ace"),
    "group_moves": (
        ("single", "supermove", "whole"),
        "house-to-house sequences: single cards / supermove limit / whole sequences",
    ),
    "house_filling": (
        ("before_hand", "immediate", "none"),
        "fill empty houses from the reserve: before turning a hand card / at once / never",
    ),
    "priority": (("pagat", "serbian"), "compulsory order: pagat's / foundation, tableau, loading"),
    "stop": (
        ("enforced", "undo", "card"),
        "priority violations: impossible / callable, taken back / callable, penalty card",
    ),
    "move_cap": ("int", "a deal ends as a stalemate after this many moves"),
    "win_bonus": ("int", "points for winning a deal"),
    "reserve_points": ("int", "points per card in a reserve"),
    "hand_points": ("int", "points per card in a hand or waste"),
    "match_target": ("count_or_none", "a match ends when a total reaches this (none: no target)"),
    "match_deals": ("count_or_none", "a match ends after this many deals (none: no limit)"),
}

OPTIONS: Final[Mapping[str, tuple[str | tuple[str, ...], str]]] = types.MappingProxyType(_OPTIONS)
"""Every option of [`Ruleset`][crapette.Ruleset]: its kind and a one-line description
(read-only)."""

_MILLION: Final = 1_000_000
_BILLION: Final = 1_000_000_000

RANGES: Final[Mapping[str, tuple[int, int]]] = types.MappingProxyType(
    {
        "reserve_size": (1, 48),
        "move_cap": (1, _BILLION),
        "win_bonus": (0, _MILLION),
        "reserve_points": (0, _MILLION),
        "hand_points": (0, _MILLION),
        "match_target": (1, _BILLION),
        "match_deals": (1, _MILLION),
    }
)
"""The allowed range (lowest, highest) of every numeric option (read-only). Values outside
raise [`InvalidRulesError`][crapette.InvalidRulesError]."""

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
                    f"option reserve_size={_short(value)} is impossible: a pack of 52 cards"
                    " deals 4 houses, so the reserve holds 1 to 48 cards"
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

    reserve_size: int = attr.ib(default=13, validator=_check("reserve_size"))
    """Cards dealt to each reserve; the hand gets ``48 - reserve_size``."""
    reserve_face_up: bool = attr.ib(default=True, validator=_check("reserve_face_up"))
    """Whether the dealt reserve top is face up; if not, its owner turns it in play."""
    first_player: FirstPlayer = attr.ib(default="reserve", validator=_check("first_player"))
    """Who starts a deal: ``reserve`` (lower reserve top, ties by the houses outward),
    ``reserve_first_house`` (ties by the first house only), ``cut`` (lower cut card)."""
    match_starter: MatchStarter = attr.ib(default="rule", validator=_check("match_starter"))
    """Who starts the later deals of a match: ``rule`` (the first-player rule) or ``alternate``."""
    own_waste_playable: bool = attr.ib(default=False, validator=_check("own_waste_playable"))
    """Whether your own waste top is an available card."""
    load_from: LoadFrom = attr.ib(default="any", validator=_check("load_from"))
    """``any`` available card may load the opponent, or only your ``own`` reserve, turned hand
    card and own waste top."""
    load_wrap: bool = attr.ib(default=False, validator=_check("load_wrap"))
    """Whether loading wraps between King and Ace."""
    group_moves: GroupMoves = attr.ib(default="supermove", validator=_check("group_moves"))
    """House-to-house sequences: ``single`` cards only, ``supermove`` (at most ``2**e`` cards
    with ``e`` empty houses besides the destination) or ``whole`` (any tail of the run)."""
    house_filling: HouseFilling = attr.ib(default="before_hand", validator=_check("house_filling"))
    """``before_hand``: no hand card may be turned while your reserve has cards and a house is
    empty; ``immediate``: a house emptied in your turn is filled from your reserve before
    anything but foundation moves; ``none``: no obligation."""
    priority: Priority = attr.ib(default="pagat", validator=_check("priority"))
    """``pagat``: reserve-to-foundation first, then any foundation move; ``serbian``:
    foundation, then building on the tableau, then loading the opponent."""
    stop: Stop = attr.ib(default="enforced", validator=_check("stop"))
    """``enforced``: priority violations are not legal moves; ``undo`` and ``card``: they are,
    and the opponent may call "Stop!" with that penalty."""
    move_cap: int = attr.ib(default=20_000, validator=_check("move_cap"))
    """A deal that reaches this many applied moves ends, scored as a stalemate."""
    win_bonus: int = attr.ib(default=30, validator=_check("win_bonus"))
    """Points for winning a deal."""
    reserve_points: int = attr.ib(default=2, validator=_check("reserve_points"))
    """Points per card in a reserve, when scoring."""
    hand_points: int = attr.ib(default=1, validator=_check("hand_points"))
    """Points per card in a hand or waste (a turned hand card counts), when scoring."""
    match_target: int | None = attr.ib(default=300, validator=_check("match_target"))
    """A match ends when a player's total reaches this; ``None`` for no target."""
    match_deals: int | None = attr.ib(default=None, validator=_check("match_deals"))
    """A match ends after this many deals; ``None`` for no limit."""

    def __attrs_post_init__(self) -> None:
        if self.match_target is None and self.match_deals is None:
            raise InvalidRulesError(
                "options match_target=none and match_deals=none: a match would never end;"
                " set at least one of them"
            )

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand: ``48 - reserve_size``."""
        return 48 - self.reserve_size

    @property
    def callable_stop(self) -> bool:
        """Whether priority violations are legal and the opponent may call "Stop!"."""
        return self.stop != "enforced"

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """The preset with this name: one of ``classic``, ``pagat``, ``g4a``, ``belarusian``,
        ``serbian``."""
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


_CLASSIC = Ruleset()

_PRESETS: dict[str, Ruleset] = {
    "classic": _CLASSIC,
    "pagat": attrs.evolve(_CLASSIC, stop="undo"),
    "g4a": attrs.evolve(_CLASSIC, match_target=150),
    "belarusian": attrs.evolve(
        _CLASSIC,
        group_moves="single",
        house_filling="immediate",
    ),
    "serbian": attrs.evolve(
        _CLASSIC,
        reserve_size=12,
        reserve_face_up=False,
        first_player="cut",
        own_waste_playable=True,
        load_from="own",
        group_moves="single",
        house_filling="none",
        priority="serbian",
        stop="card",
        match_target=None,
        match_deals=5,
    ),
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
