"""The ``Ruleset`` (issue 3): the presets of docs/rules.md's variant matrix, independent
options, the canonical string that round-trips, and ``InvalidRulesError`` for bad input."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given

import crapette as c
from crapette import InvalidRulesError, Ruleset, _spec
from strategies import OPTION_VALUES, rulesets

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
    """Issue 3: "a canonical string form that round-trips, e.g.
    ``serbian(house_filling=immediate)``"."""
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
    """Issue 3 "Bad input": an unknown preset or option, a value of the wrong type or a bad
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
    """Issue 3 "Bad input": "an impossible combination (say, a reserve size outside what a
    pack allows)": ``InvalidRulesError`` naming it, from ``replace`` and from a string."""
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
