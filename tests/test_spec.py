"""The rule spec (``crapette._spec``): the one home of rule data, and everything generated
from it (``python tools/generate.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import crapette as c
from crapette import _spec
from crapette.rules import OPTIONS, RANGES
from crapette.testing import option_samples

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "tools" / "generate.py"


@pytest.mark.skipif(not GENERATOR.is_file(), reason="a source checkout only")
def test_every_generated_file_is_fresh() -> None:
    """A stale generated file (the C enums, the JavaScript spec, the TypeScript block, the
    Ruleset fields, the docs' option table, the catalogue keys, the card tables) fails here,
    naming the command that rewrites it."""
    done = subprocess.run(
        [sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_the_ruleset_has_one_field_per_option_in_spec_order() -> None:
    assert tuple(OPTIONS) == tuple(option.name for option in _spec.OPTIONS)
    fields = [f for f in c.Ruleset.__attrs_attrs__ if f.init]  # type: ignore[attr-defined]
    assert [f.name for f in fields] == [option.name for option in _spec.OPTIONS]
    for field, option in zip(fields, _spec.OPTIONS, strict=True):
        assert field.default == option.default, option.name


def test_presets_are_the_default_with_their_changes() -> None:
    assert list(c.PRESETS) == [preset.name for preset in _spec.PRESETS]
    default = c.Ruleset()
    for preset in _spec.PRESETS:
        rules = c.PRESETS[preset.name]
        differs = {name for name in OPTIONS if getattr(rules, name) != getattr(default, name)}
        assert differs == {name for name, _ in preset.changes}, preset.name
        for name, value in preset.changes:
            assert getattr(rules, name) == value


def test_option_codes_follow_the_spec_conventions() -> None:
    rules = c.Ruleset.preset("serbian")
    for option, code in zip(_spec.OPTIONS, rules._codes, strict=True):
        value = getattr(rules, option.name)
        if option.kind == "choice":
            assert option.values[code][0] == value
        elif value is None:
            assert code == -1
        else:
            assert code == int(value)


def test_numeric_ranges_come_from_the_spec() -> None:
    assert dict(RANGES) == {o.name: o.range for o in _spec.OPTIONS if o.range is not None}
    big = c.Ruleset().replace(pack="tarot78")  # the pack whose reserve may be largest
    for name, (low, high) in RANGES.items():
        big.replace(**{name: low})
        big.replace(**{name: high})
        with pytest.raises(c.InvalidRulesError, match=name):
            big.replace(**{name: high + 1})


@pytest.mark.parametrize("combination", _spec.COMBINATIONS, ids=lambda x: x.first[0])
def test_each_refused_combination_names_both_options(combination: _spec.Combination) -> None:
    (first, refused), (second, against) = combination.first, combination.second
    with pytest.raises(c.InvalidRulesError) as caught:
        c.Ruleset().replace(**{first: refused[0], second: against[0]})
    assert first in str(caught.value) and second in str(caught.value)


def test_option_samples_cover_every_option_and_are_allowed() -> None:
    samples = option_samples()
    assert list(samples) == list(OPTIONS)
    for name, values in samples.items():
        for value in values:
            try:
                c.Ruleset().replace(**{name: value})
            except c.InvalidRulesError as error:  # only a refused combination
                refused = any(name in (k.first[0], k.second[0]) for k in _spec.COMBINATIONS)
                too_big = name == "reserve_size" and "with pack=standard" in str(error)
                assert refused or too_big, error


def test_reason_codes_are_unique_and_their_templates_name_their_parameters() -> None:
    codes = [reason.code for reason in _spec.REASONS]
    assert len(codes) == len(set(codes))
    kinds = {"card", "cards", "house", "pile", "int", "player", "move"}
    for reason in _spec.REASONS:
        for name, kind in reason.params:
            assert "{" + name + "}" in reason.template, reason.code
            assert kind in kinds, reason.code
        assert reason.template.count("{") == len(reason.params), reason.code
