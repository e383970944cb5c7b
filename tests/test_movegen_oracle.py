"""The fast move generator agrees with the obviously correct one: ``legal_moves(state) ==
reference_legal_moves(state)`` on thousands of positions, under every preset and random
rulesets, from played deals and from random well-formed positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crapette as c
from crapette.deal import Rng
from crapette.outcome import winner
from crapette.testing import reference_legal_moves, violation
from strategies import play_rulesets, random_position, random_walk

PRESETS = tuple(c.PRESETS)


def agree(state: c.GameState) -> None:
    fast = c.legal_moves(state)
    slow = reference_legal_moves(state)
    assert fast == slow, (
        f"rules {state.rules}: fast {[str(m) for m in fast]} != reference"
        f" {[str(m) for m in slow]}\n{state!r}"
    )


@pytest.mark.parametrize("name", PRESETS)
def test_oracle_along_played_deals(name: str) -> None:
    """Every 4th position of two random deals per preset (300 to 500 per preset)."""
    rules = c.Ruleset.preset(name)
    checked = 0
    for seed in (11, 12):
        state = c.new_game(rules, seed=seed)
        for i, (before, _move) in enumerate(random_walk(state, Rng(seed), 1500)):
            if i % 4 == 0:
                agree(before)
                checked += 1
    assert checked > 300


@pytest.mark.parametrize("name", PRESETS)
def test_oracle_on_random_positions(name: str) -> None:
    """200 random well-formed positions per preset: long runs, empty houses, face-down
    reserves, turned cards, emptied houses and seen layouts in every combination."""
    rules = c.Ruleset.preset(name)
    rng = Rng(len(name))
    for _ in range(200):
        agree(random_position(rules, rng))


@settings(max_examples=30)
@given(play_rulesets(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_oracle_random_rulesets_played(rules: c.Ruleset, seed: int, walk: int) -> None:
    """Random rulesets (presets with options changed): every 15th position of a deal."""
    state = c.new_game(rules, seed=seed)
    for i, (before, _move) in enumerate(random_walk(state, Rng(walk), 450)):
        if i % 15 == 0:
            agree(before)


@settings(max_examples=40)
@given(play_rulesets(), st.integers(0, 2**64 - 1))
def test_oracle_random_rulesets_positions(rules: c.Ruleset, seed: int) -> None:
    """Random rulesets on random positions."""
    rng = Rng(seed)
    for _ in range(10):
        agree(random_position(rules, rng))


def test_oracle_at_decisions_and_ends() -> None:
    """Open Stop! decisions and finished deals: both generators agree (two choices; none)."""
    decisions = ends = 0
    for name in ("pagat", "serbian"):
        for seed in range(3):
            state = c.new_game(c.Ruleset.preset(name), seed=seed)
            for before, move in random_walk(state, Rng(seed), 5000):
                if before.stop is not None:
                    agree(before)
                    decisions += 1
                state = c.apply_unchecked(before, move)
            if c.is_over(state):
                agree(state)
                ends += 1
    assert decisions > 10 and ends > 2


@pytest.mark.parametrize("stop", ["undo", "card"])
@pytest.mark.parametrize("name", PRESETS)
def test_quick_priority_test_agrees_with_violation(name: str, stop: str) -> None:
    """``apply_unchecked`` opens a Stop! decision from a quick test; it must agree with the
    spelled-out ``violation`` of the plain rules (``crapette.testing``) for every legal move
    of played and random positions (docs/rules.md "Compulsory moves"); a violating
    move that wins the deal ends it with no decision."""
    rules = c.Ruleset.preset(name).replace(stop=stop, call_window="after_move")
    rng = Rng(7)
    states = [before for before, _ in random_walk(c.new_game(rules, seed=3), Rng(3), 800)]
    states += [random_position(rules, rng) for _ in range(100)]
    broken = 0
    for state in states:
        if state.stop is not None:
            continue
        for move in c.legal_moves(state):
            expected = violation(state, move) is not None
            after = c.apply_unchecked(state, move)
            assert (after.stop is not None) == (expected and winner(after) is None), (
                str(move),
                state,
            )
            broken += expected
    assert broken > 0
