"""The native engine (the C core, ``crapette._core``) proven equal to the Python engine.

Lockstep: random deals of every preset and of random rulesets are played in both engines
side by side; after every move the legal moves, the whole state (the layouts seen
included), the outcome and the scores must agree. Deals from seeds, the greedy ranking, the
greedy bot's deals (the native batch against the Python bot, move for move) and the
play-outs of the search bots are compared the same way. Hand-built states the native object
cannot hold are refused with the library's own errors; nothing a caller passes crashes.

These tests need the native engine; CI builds it (``CI=1`` makes a missing engine a failure).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crapette as c
from crapette import _laws
from crapette._engine import python_apply, python_apply_unchecked
from crapette._movegen import python_legal_moves
from crapette.bots import _greedy
from crapette.cards import full_pack
from crapette.deal import Rng, cut, deal, shuffled
from crapette.moves import ALL_MOVES
from crapette.outcome import python_counts, python_is_over, python_outcome
from crapette.state import FIELDS, PythonState, to_python
from crapette.testing import option_samples

if c.ENGINE != "native":
    if os.environ.get("CI") == "1" and not os.environ.get("CRAPETTE_PURE"):
        raise RuntimeError("CI builds the native engine, but it does not run")
    pytest.skip(
        "the native engine does not run (CRAPETTE_PURE=1 or not built)", allow_module_level=True
    )

from crapette import _core

PRESETS = sorted(c.PRESETS)
ROOT = Path(__file__).resolve().parent.parent


def random_rules(rng: Rng) -> c.Ruleset:
    """A preset with a random choice of options changed to values worth trying (from the
    rule spec: every option, every value kind); a value that cannot go with those drawn
    before it is skipped."""
    rules = c.Ruleset.preset(PRESETS[rng.below(len(PRESETS))])
    for name, values in option_samples().items():
        if rng.below(10) < 3:
            try:
                rules = rules.replace(**{name: values[rng.below(len(values))]})
            except c.InvalidRulesError:
                continue
    return rules


def assert_same(native: c.GameState, python: c.GameState, where: str) -> None:
    """The native state and the Python engine's, field by field (a readable failure)."""
    converted = to_python(native)
    if converted != python:
        fields = (*FIELDS, "houses_key", "seen_size")
        diff = [f for f in fields if getattr(converted, f) != getattr(python, f)]
        raise AssertionError(f"{where}: the engines differ in {diff}")


def assert_same_refusals(native: c.GameState, python: c.GameState, where: str) -> None:
    """Every move of the table, legal or not: the C core's refusal (``cr_why_illegal``, its
    code and parameters) is the Python reference's (``_laws.python_refusal``), and so is
    the priority each legal move breaks (``cr_violation_reason``, under any Stop! rule)."""
    legal = set(c.legal_moves(native))
    for move in ALL_MOVES:
        found = _laws.refusal_from_core(*_core.why_illegal(native, move), native.rules)
        assert found == _laws.python_refusal(python, move), f"{where}: {move}"
        assert (found is None) == (move in legal), f"{where}: {move}"
        if move in legal and python.stop is None:
            broken = _laws.violation(python, move)
            expected = None if broken is None else broken.refusal
            core = _laws.refusal_from_core(*_core.violation_reason(native, move), native.rules)
            assert core == expected, f"{where}: {move}"


def lockstep(rules: c.Ruleset, seed: int, rng: Rng, checked_every: int = 7) -> int:
    """Play one random deal in both engines; returns the number of moves played. At about
    every 101st state (and at the end) every move's refusal is compared too."""
    native = c.new_game(rules, seed=seed)
    python = to_python(native)
    plies = 0
    while True:
        where = f"{rules} seed {seed} move {plies}"
        moves = c.legal_moves(native)
        assert moves == python_legal_moves(python), where
        if plies % 101 == 0 or not moves:
            assert_same_refusals(native, python, where)
        if not moves:
            break
        move = moves[rng.below(len(moves))]
        if plies % checked_every == 0:
            native, python = c.apply(native, move), python_apply(python, move)
        else:
            native, python = c.apply_unchecked(native, move), python_apply_unchecked(python, move)
        plies += 1
        assert_same(native, python, where)
    assert c.outcome(native) == python_outcome(python), rules
    assert c.outcome(native) is not None
    assert _core.counts(native) == python_counts(python)
    return plies


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_plays_alike_in_both_engines(preset: str) -> None:
    rng = Rng(len(preset))
    plies = sum(lockstep(c.Ruleset.preset(preset), seed, rng) for seed in range(6))
    assert plies > 1000


def test_random_rulesets_play_alike_in_both_engines() -> None:
    rng = Rng(2026)
    rulesets = [random_rules(rng) for _ in range(16)]
    assert len({str(r) for r in rulesets}) > 12
    for rules in rulesets:
        lockstep(rules, rng.next64(), rng)


def test_states_of_play_agree_on_every_query() -> None:
    """winner, is_over, counts, why_illegal and the violation of every legal move."""
    rng = Rng(7)
    for preset in PRESETS:
        state = c.new_game(preset, seed=3)
        for _ in range(400):
            moves = c.legal_moves(state)
            if not moves:
                break
            python = to_python(state)
            assert c.is_over(state) == python_is_over(python) is False
            for move in moves:
                kind, remedy = _core.violation(state, move)
                broken = c._laws.violation(python, move)  # type: ignore[attr-defined]
                expected = 0 if broken is None else 1 + _KINDS.index(broken.kind)
                assert (kind, remedy) == (expected, () if broken is None else broken.remedy)
            state = c.apply_unchecked(state, moves[rng.below(len(moves))])


_KINDS = ("reserve", "foundation", "order", "filling")


def test_deals_from_seeds_are_the_python_deals() -> None:
    rng = Rng(11)
    seeds = [0, 1, -1, 2**63, 2**64 - 1, 2**64, -(2**70), *(rng.next64() for _ in range(150))]
    for i, seed in enumerate(seeds):
        rules = c.Ruleset.preset(PRESETS[i % 5]) if i % 3 else random_rules(rng)
        r = Rng(seed)
        pack0 = shuffled(full_pack(0, rules.pack), r)
        pack1 = shuffled(full_pack(1, rules.pack), r)
        starter = cut(pack0, pack1, r) if rules.first_player == "cut" else None
        expected = deal(rules, pack0, pack1, starter=starter)
        assert to_python(c.new_game(rules, seed=seed)) == to_python(expected), seed


def _positions(count: int) -> Iterator[c.GameState]:
    """Mid-deal positions of every preset and random rulesets."""
    rng = Rng(99)
    for i in range(count):
        rules = c.Ruleset.preset(PRESETS[i % 5]) if i % 2 else random_rules(rng)
        state = c.new_game(rules, seed=i)
        for _ in range(rng.below(500)):
            moves = c.legal_moves(state)
            if not moves:
                break
            state = c.apply_unchecked(state, moves[rng.below(len(moves))])
        if c.legal_moves(state):
            yield state


def test_the_greedy_ranking_is_the_python_ranking() -> None:
    for state in _positions(500):
        moves = c.legal_moves(state)
        python = to_python(state)
        assert _core.greedy_scores(state, moves) == _greedy.ranked_scores(python, moves)
        a, b = Rng(state.moves_made), Rng(state.moves_made)
        assert _greedy.greedy_move(state, a, moves) == _greedy.greedy_move(python, b, moves)
        assert a._state == b._state  # the same draws of the tie-breaking generator
        assert _greedy.evaluate(state, 0) == _greedy.evaluate(python, 0)


def test_play_outs_are_the_python_play_outs() -> None:
    for i, state in enumerate(_positions(120)):
        python = to_python(state)
        for turns in (1, 2, 3):
            a, b = Rng(i), Rng(i)
            p = state.to_act
            assert _greedy.play_out(state, p, a, turns) == _greedy.play_out(python, p, b, turns)
            assert a._state == b._state


def _python_greedy_deal(rules: c.Ruleset, seed: int, rngs: tuple[Rng, Rng]) -> list[c.Move]:
    """The moves of a deal between two Python greedy bots on the Python engine."""
    state = to_python(c.new_game(rules, seed=seed))
    played = []
    while True:
        moves = python_legal_moves(state)
        if not moves:
            return played
        move = _greedy.greedy_move(state, rngs[state.to_act], moves)
        played.append(move)
        state = python_apply_unchecked(state, move)


# Deals per preset of the greedy comparison: 150 in the suite (1,050 over the 7 presets),
# more with CRAPETTE_LONG=1 (2,000 per preset).
GREEDY_DEALS = 2000 if os.environ.get("CRAPETTE_LONG") == "1" else 150


@pytest.mark.parametrize("preset", PRESETS)
def test_native_greedy_deals_are_the_python_bots_deals(preset: str) -> None:
    """Move for move over hundreds of deals of each preset (more than a thousand in all):
    the native batch plays exactly the deals of the Python greedy bot."""
    rules = c.Ruleset.preset(preset)
    deals = [(seed * 7919 + 1, 1, 1, seed, seed + 1) for seed in range(GREEDY_DEALS)]
    results = _core.play_deals(rules, deals, True)
    for (seed, _, _, r0, r1), row in zip(deals, results, strict=True):
        assert list(row[9]) == _python_greedy_deal(rules, seed, (Rng(r0), Rng(r1))), seed
        assert row[5] == len(row[9])


def test_native_random_deals_are_random_bot_deals() -> None:
    rules = c.Ruleset.preset("pagat")
    for seed in range(5):
        row = _core.play_deals(rules, [(seed, 0, 1, 40 + seed, 50 + seed)], True)[0]
        state = to_python(c.new_game(rules, seed=seed))
        rngs = (Rng(40 + seed), Rng(50 + seed))
        for move in row[9]:
            moves = python_legal_moves(state)
            if state.to_act == 0:
                expected = moves[rngs[0].below(len(moves))]
            else:
                expected = _greedy.greedy_move(state, rngs[1], moves)
            assert move == expected
            state = python_apply_unchecked(state, move)
        assert python_outcome(state) == c.Outcome(row[1], (row[2], row[3]), row[4])


def test_a_native_state_is_immutable_hashable_picklable_and_small() -> None:
    state = c.new_game("pagat", seed=5)
    moves = c.legal_moves(state)
    after = c.apply(state, moves[0])
    again = c.apply(state, moves[0])
    assert after == again and hash(after) == hash(again) and after is not again
    assert len({after, again}) == 1
    assert pickle.loads(pickle.dumps(after)) == after
    with pytest.raises(AttributeError):
        state.to_act = 1  # type: ignore[misc]
    # the C state (196 bytes: the cards of two tarot78 packs) and the object header
    assert _core.STATE_BYTES <= 240


def test_a_pickled_state_moves_between_engines(tmp_path: Path) -> None:
    state = c.new_game("serbian", seed=8)
    rng = Rng(3)
    while state.stop is None and c.legal_moves(state):  # on to a pending Stop! decision
        moves = c.legal_moves(state)
        state = c.apply_unchecked(state, moves[rng.below(len(moves))])
    assert state.stop is not None
    path = tmp_path / "state.pickle"
    path.write_bytes(pickle.dumps(state))
    code = (
        "import pickle, sys, crapette as c\n"
        "s = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "print(c.ENGINE, c.format_position(s))"
    )
    env = dict(os.environ, CRAPETTE_PURE="1")
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], env=env, capture_output=True, text=True, check=True
    ).stdout.split(" ", 1)
    assert out[0] == "python" and out[1].strip() == c.format_position(state)


# -- hand-built states: refused with the library's errors, never a crash -------------------

cards = st.integers(-3, 110)
piles = st.lists(cards, max_size=20).map(tuple)
junk = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
    st.text(max_size=3), piles, st.lists(piles, max_size=9).map(tuple),
    st.tuples(st.integers(-2, 300), st.integers(-2, 300)),
)  # fmt: skip
JUNK_FIELDS = ("to_act", "foundations", "houses", "reserves", "reserve_up", "hands", "wastes",
          "turned", "emptied", "passes", "moves_made", "seen")  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 300), st.sampled_from(JUNK_FIELDS), junk)
def test_a_hand_built_state_is_held_or_refused(
    preset: str, moves: int, field: str, value: object
) -> None:
    """Whatever a field holds, both engines' constructors build a state or refuse it alike:
    ``TypeError`` for a field of the wrong type, else ``InvalidPositionError`` with the same
    words (the Python engine's) exactly when ``position_problems`` of the fields finds a
    problem. A state built is played alike by both engines."""
    state = c.new_game(preset, seed=moves)
    rng = Rng(moves)
    for _ in range(moves):
        legal = c.legal_moves(state)
        if not legal:
            break
        state = c.apply_unchecked(state, legal[rng.below(len(legal))])
    try:
        built = state.replace(**{field: value})
    except TypeError as error:
        with pytest.raises(TypeError) as python_error:
            to_python(state).replace(**{field: value})
        assert str(python_error.value) == str(error)
        return
    except c.InvalidPositionError as error:
        with pytest.raises(c.InvalidPositionError) as python_error:
            to_python(state).replace(**{field: value})
        assert str(python_error.value) == str(error)
        return
    python = to_python(built)
    assert python == to_python(state).replace(**{field: value})
    assert built.problems() == python.problems() == []
    for _ in range(30):  # play on: the engines agree
        legal = c.legal_moves(built)
        assert legal == python_legal_moves(python)
        if not legal:
            break
        move = legal[rng.below(len(legal))]
        built = c.apply_unchecked(built, move)
        python = python_apply_unchecked(python, move)
        assert_same(built, python, f"{field}={value!r}")


def test_apply_unchecked_of_any_move_never_crashes() -> None:
    """Every move of the table, legal or not, from positions of play: a state or an
    IllegalMoveError, never a crash."""
    for state in _positions(60):
        for move in c.moves.ALL_MOVES:  # type: ignore[attr-defined]
            try:
                after = c.apply_unchecked(state, move)
            except c.IllegalMoveError:
                continue
            assert isinstance(after, c.GameState)
            c.legal_moves(after)


def test_python_state_objects_are_not_native_ones() -> None:
    state = c.new_game(seed=1)
    python = to_python(state)
    assert isinstance(python, PythonState) and not isinstance(python, c.GameState)
    with pytest.raises(TypeError, match="GameState"):
        c.legal_moves(python)
    assert to_python(python) is python


def test_the_native_layout_keys_are_the_python_ones() -> None:
    """(tests/test_spec.py checks that native/tables.h is written from the Python tables.)"""
    from crapette._tables import HOUSE_KEYS, house_key

    every = [(h, d, card) for h in range(8) for d in range(16) for card in range(104)]
    assert [_core.house_key(*k) for k in every] == list(HOUSE_KEYS)  # computed in C
    for h, d, card in ((0, 16, 0), (7, 31, 103), (3, 47, 50), (5, 103, 7)):
        assert _core.house_key(h, d, card) == house_key(h, d, card)
