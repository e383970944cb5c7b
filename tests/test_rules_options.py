"""The ``Ruleset``: the presets of docs/rules.md's variant matrix, independent
options, the canonical string that round-trips, and ``InvalidRulesError`` for bad input."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from hypothesis import given

import crapette as c
from crapette import InvalidRulesError, Ruleset, _spec
from crapette.rules import RANGES
from strategies import OPTION_VALUES, rulesets
from test_errors import MESSAGE_LIMIT

# docs/rules.md "The variant matrix", one row per option.
MATRIX = {
    "reserve_size": (13, 13, 13, 13, 12),
    "reserve_face_up": (True, True, True, True, False),
    "first_player": ("reserve", "reserve", "reserve", "reserve", "cut"),
    "own_waste_playable": (False, False, False, False, True),
    "load_from": ("any", "any", "any", "any", "own"),
    "group_moves": ("supermove", "supermove", "supermove", "single", "single"),
    "house_filling": ("before_hand", "before_hand", "before_hand", "immediate", "none"),
    "priority": ("pagat", "pagat", "pagat", "pagat", "serbian"),
    "stop": ("enforced", "undo", "enforced", "enforced", "card"),
    "match_target": (300, 300, 150, 300, None),
    "match_deals": (None, None, None, None, 5),
}
PRESET_NAMES = ("classic", "pagat", "g4a", "belarusian", "serbian")


@pytest.mark.parametrize("index", range(5), ids=PRESET_NAMES)
def test_presets_follow_the_variant_matrix(index: int) -> None:
    """docs/rules.md variant matrix: every preset holds the values of its column."""
    rules = Ruleset.preset(PRESET_NAMES[index])
    for option, row in MATRIX.items():
        assert getattr(rules, option) == row[index], option
    assert rules.hand_size == (35 if rules.reserve_size == 13 else 36)
    assert rules.load_wrap is False  # "No wrapping ... (wrap is an option)"
    assert (rules.move_cap, rules.win_bonus, rules.reserve_points, rules.hand_points) == (
        20_000,
        30,
        2,
        1,
    )


def test_presets_in_matrix_order_and_classic_is_the_default() -> None:
    """ "``classic`` is the default ruleset"; presets are found by name; the presets of the
    packs and table rules come last."""
    assert tuple(c.PRESETS) == (*PRESET_NAMES, "tarot", "bobcrapette")
    assert Ruleset() == Ruleset.preset("classic") == c.PRESETS["classic"]
    assert c.new_game(seed=1).rules == Ruleset()
    assert str(Ruleset()) == "classic"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_string_round_trip(name: str) -> None:
    """The canonical string of a preset is its name."""
    rules = Ruleset.preset(name)
    assert str(rules) == rules.to_string() == name
    assert Ruleset.from_string(name) == rules


def test_canonical_string_example() -> None:
    """A canonical string form that round-trips, e.g.
    ``serbian(house_filling=immediate)``."""
    rules = Ruleset.preset("serbian").replace(house_filling="immediate")
    assert str(rules) == "serbian(house_filling=immediate)"
    assert Ruleset.from_string("serbian(house_filling=immediate)") == rules
    assert Ruleset.from_string(" serbian( house_filling = immediate ) ") == rules
    assert eval(repr(rules), {"Ruleset": Ruleset}) == rules


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("option", sorted(OPTION_VALUES))
def test_every_single_option_change_of_every_preset(name: str, option: str) -> None:
    """ "Every option is independent: a user can take any preset and change any one option";
    each change round-trips through the canonical string and plays a deal's first moves."""
    base = Ruleset.preset(name)
    for value in OPTION_VALUES[option]:
        try:
            rules = base.replace(**{option: value})
        except InvalidRulesError as error:
            # The impossible single changes: a combination the rules refuse (a match with
            # neither target nor deals, flip without the waste, lose_draw with discards, a
            # reserve above the pack), named with the other option.
            refused = [k for k in _spec.COMBINATIONS if option in (k.first[0], k.second[0])]
            assert refused or option == "reserve_size", error
            assert option in str(error)
            continue
        assert getattr(rules, option) == value
        others = {k: getattr(base, k) for k in OPTION_VALUES if k != option}
        assert {k: getattr(rules, k) for k in others} == others
        assert Ruleset.from_string(str(rules)) == rules
        state = c.new_game(rules, seed=7)
        for _ in range(20):
            legal = c.legal_moves(state)
            if not legal:
                break
            state = c.apply(state, legal[-1])


@given(rulesets(max_changes=6))
def test_canonical_string_round_trips(rules: Ruleset) -> None:
    """Any ruleset (presets with random option changes) round-trips through its string."""
    text = str(rules)
    assert Ruleset.from_string(text) == rules
    assert str(Ruleset.from_string(text)) == text
    assert hash(Ruleset.from_string(text)) == hash(rules)


def test_ruleset_is_frozen_and_hashable() -> None:
    """``Ruleset`` is an attrs frozen value object."""
    rules = Ruleset()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.stop = "undo"  # type: ignore[misc]
    assert {rules: 1}[Ruleset.preset("classic")] == 1


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Ruleset.preset("russian"), "unknown preset 'russian'.*classic, pagat"),
        (lambda: Ruleset.from_string("russian"), "unknown preset 'russian'"),
        (lambda: Ruleset.preset(3), "unknown preset"),  # type: ignore[arg-type]
        (lambda: Ruleset().replace(wrap=True), "unknown option 'wrap'.*load_wrap"),
        (lambda: Ruleset.from_string("classic(wrap=true)"), "unknown option 'wrap'"),
        (lambda: Ruleset(reserve_size="13"), "reserve_size='13'.*an integer"),  # type: ignore[arg-type]
        (lambda: Ruleset(reserve_size=True), "reserve_size=True"),
        (lambda: Ruleset(load_wrap=1), "load_wrap=1.*true or false"),  # type: ignore[arg-type]
        (lambda: Ruleset(load_wrap="yes"), "load_wrap='yes'"),  # type: ignore[arg-type]
        (lambda: Ruleset(group_moves="double"), "group_moves='double'.*single, supermove, whole"),  # type: ignore[arg-type]
        (lambda: Ruleset(stop="callable"), "stop='callable'.*enforced, undo, card"),  # type: ignore[arg-type]
        (lambda: Ruleset(house_filling=None), "house_filling=None"),  # type: ignore[arg-type]
        (lambda: Ruleset(match_target="300"), "match_target='300'"),  # type: ignore[arg-type]
        (lambda: Ruleset.from_string("classic(load_wrap=maybe)"), "load_wrap='maybe'"),
        (lambda: Ruleset.from_string("classic(move_cap=many)"), "move_cap='many'"),
        (lambda: Ruleset.from_string("classic(priority=chess)"), "priority='chess'"),
        (lambda: Ruleset.from_string("classic(stop)"), "expected option=value"),
        (lambda: Ruleset.from_string("classic(stop=undo"), "closing"),
        (lambda: Ruleset.from_string("classic(stop=undo, stop=card)"), "given twice"),
        (lambda: Ruleset.from_string(None), "must be a str"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_raises_invalid_rules_error(make: object, words: str) -> None:
    """An unknown preset or option, a value of the wrong type or a bad
    value raise ``InvalidRulesError`` naming it (never a silent default)."""
    with pytest.raises(InvalidRulesError, match=words):
        make()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"reserve_size": 0}, "reserve_size=0 is impossible"),
        ({"reserve_size": 49}, "reserve_size=49 is impossible"),
        ({"reserve_size": -3}, "reserve_size=-3"),
        ({"move_cap": 0}, "move_cap=0"),
        ({"win_bonus": -1}, "win_bonus=-1"),
        ({"reserve_points": -2}, "reserve_points=-2"),
        ({"hand_points": -1}, "hand_points=-1"),
        ({"match_target": 0}, "match_target=0"),
        ({"match_deals": 0}, "match_deals=0"),
        ({"match_target": None, "match_deals": None}, "match_target=none and match_deals=none"),
    ],
)
def test_impossible_values_and_combinations(changes: dict[str, object], words: str) -> None:
    """An impossible combination (say, a reserve size outside what a pack allows):
    ``InvalidRulesError`` naming it, from ``replace`` and from a string."""
    with pytest.raises(InvalidRulesError, match=words):
        Ruleset().replace(**changes)
    text = (
        "classic("
        + ", ".join(f"{k}={'none' if v is None else v}" for k, v in changes.items())
        + ")"
    )
    with pytest.raises(InvalidRulesError, match=words):
        Ruleset.from_string(text)


def test_invalid_rules_error_is_a_crapette_value_error() -> None:
    """Errors derive from ``CrapetteError`` (and ``ValueError``)."""
    assert issubclass(InvalidRulesError, c.CrapetteError)
    assert issubclass(InvalidRulesError, ValueError)


def test_reserve_size_bounds_are_playable() -> None:
    """The extreme legal reserve sizes (1 and 48, hand 47 and 0) deal and play."""
    for size in (1, 48):
        rules = Ruleset().replace(reserve_size=size)
        state = c.new_game(rules, seed=5)
        assert len(state.reserves[0]) == size and len(state.hands[0]) == 48 - size
        assert c.legal_moves(state)


# --------------------------------------------------------------------------------------
# Numeric options in their documented ranges, the exact grammar of rules strings,
# read-only tables


def test_every_numeric_option_has_a_documented_range() -> None:
    numeric = [name for name, (kind, _) in c.OPTIONS.items() if kind in ("int", "count_or_none")]
    assert sorted(numeric) == sorted(RANGES)
    page = Path(__file__).parents[1] / "docs" / "variants.md"
    if not page.is_file():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    variants = page.read_text("utf-8")
    rows = {line.split("|")[1].strip(): line for line in variants.splitlines() if "|" in line}
    for name, (low, high) in RANGES.items():
        assert f"{low}..{high:,}" in rows[f"`{name}`"], name


@pytest.mark.parametrize("name", sorted(RANGES))
def test_numeric_options_accept_their_range_and_nothing_else(name: str) -> None:
    low, high = RANGES[name]
    # the range of the reserve is the largest pack's (78 cards less 4 houses)
    base = c.Ruleset(pack="tarot78") if name == "reserve_size" else c.Ruleset()
    for value in (low, high):
        rules = base.replace(**{name: value})
        assert c.Ruleset.from_string(str(rules)) == rules
        assert c.from_json(c.to_json(rules)) == rules
        c.format_position(c.new_game(rules, seed=1))
    for value in (low - 1, high + 1, 10**5000, -(10**5000)):
        with pytest.raises(c.InvalidRulesError, match=name) as info:
            base.replace(**{name: value})
        assert len(str(info.value)) < MESSAGE_LIMIT
    for text in (str(low - 1), str(high + 1), "9" * 5000):
        with pytest.raises(c.InvalidRulesError, match=name) as info:
            c.Ruleset.from_string(f"classic({name}={text})")
        assert len(str(info.value)) < MESSAGE_LIMIT


def test_win_bonus_of_five_thousand_digits_is_refused() -> None:
    with pytest.raises(c.InvalidRulesError, match=r"win_bonus.*out of range"):
        c.Ruleset(win_bonus=10**5000)


@pytest.mark.parametrize(
    "value", ["1_0", "+1", "\u0663", "\uff11", "1\u00a0", "\u00a010", "0x10", "1e3", "10.0", ""]
)
def test_rules_numbers_are_ascii_decimal(value: str) -> None:
    with pytest.raises(c.InvalidRulesError, match="win_bonus"):
        c.Ruleset.from_string(f"classic(win_bonus={value})")


@pytest.mark.parametrize(
    "text",
    ["\u00a0classic", "classic\u3000", "classic(\u2003stop=undo)", "classic(stop=undo\u00a0)"],
)
def test_rules_strings_allow_only_ascii_blanks(text: str) -> None:
    with pytest.raises(c.InvalidRulesError):
        c.Ruleset.from_string(text)


def test_rules_strings_allow_spaces_and_tabs() -> None:
    rules = c.Ruleset.from_string(" \tclassic ( win_bonus = 010 ,\tstop=undo ) ")
    assert rules == c.Ruleset(win_bonus=10, stop="undo")


def test_presets_and_options_are_read_only() -> None:
    before = str(c.Ruleset(stop="undo"))
    with pytest.raises(TypeError):
        c.PRESETS["classic"] = c.Ruleset(stop="undo")  # type: ignore[index]
    with pytest.raises(TypeError):
        del c.PRESETS["pagat"]  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        c.OPTIONS["stop"] = ("bool", "")  # type: ignore[index]
    with pytest.raises(TypeError):
        RANGES["win_bonus"] = (0, 10**9)  # type: ignore[index]
    assert c.Ruleset.preset("classic") == c.Ruleset()
    assert str(c.Ruleset(stop="undo")) == before == "pagat"
