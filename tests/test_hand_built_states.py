"""One rule for hand-built states: a state either passes ``position_problems`` or it is
refused where it is built (the constructor, ``replace``, every reader: notation, JSON,
pickle) with one ``InvalidPositionError`` naming the field, in both engines alike; and
both engines play every state that exists alike.

The classes of state that used to be built and then played differently (or not at all):
foundations whose bottom is not an Ace, a pending Stop! decision that no violation
explains, and a Stop! decision whose prior is a state of other rules. Then a differential
of the two engines on random hand-built states (not only states reached by play), with
random pending Stop! decisions built by hand from their priors: the same legal moves, the
same state or the same error after every move of the table, the same outcome, counts,
greedy ranking, play-outs and violations. ``CRAPETTE_LONG=1`` runs more states.
"""

from __future__ import annotations

import copyreg
import io
import os
import pickle
import re
from typing import Any

import pytest

import crapette as c
from crapette._engine import python_apply, python_apply_unchecked
from crapette._laws import violation
from crapette._movegen import python_legal_moves
from crapette.bots import greedy
from crapette.bots.search import evaluate, play_out
from crapette.deal import Rng
from crapette.moves import ALL_MOVES
from crapette.outcome import counts, python_counts, python_outcome, python_winner, winner
from crapette.state import FIELDS, PendingStop, _rebuild, position_problems, to_python
from positions import position
from strategies import OPTION_VALUES, random_position

NATIVE = c.ENGINE == "native"
STATES = 1200 if os.environ.get("CRAPETTE_LONG") == "1" else 120

_NAMES = list(FIELDS)  # the constructor's keywords, "seen" last


def fields_of(state: c.GameState) -> dict[str, Any]:
    """The constructor's keywords of a state."""
    return {name: getattr(state, name) for name in _NAMES}


def _both(fields: dict[str, Any]) -> list[type]:
    """The state classes of both engines (the Python engine's alone without the native)."""
    python = type(to_python(c.new_game(seed=0)))
    return [c.GameState, python] if NATIVE else [python]


def assert_refused(fields: dict[str, Any], words: str) -> str:
    """Both engines' constructors refuse the fields with the same error, naming ``words``,
    which is ``validate_position``'s error for them."""
    problems = position_problems(fields)
    assert problems and any(words in p for p in problems), problems
    messages = set()
    for cls in _both(fields):
        stop = fields.get("stop")
        if cls is not c.GameState and stop is not None and isinstance(stop.prior, c.GameState):
            fields = {**fields, "stop": stop._replace(prior=to_python(stop.prior))}
        with pytest.raises(c.InvalidPositionError, match=re.escape(words)) as refused:
            cls(**fields)
        messages.add(str(refused.value))
    assert len(messages) == 1, messages
    with pytest.raises(c.InvalidPositionError) as checked:
        c.validate_position(fields)
    assert str(checked.value) in messages
    return messages.pop()


# -- the classes of state that used to be built ------------------------------------------------


def test_foundations_whose_bottom_is_not_an_ace_are_refused() -> None:
    """Eight occupied foundations whose bottoms are 2s and an Ace on a house top: both
    engines listed H1-F, then the native apply refused its own legal move and the Python
    engine failed with a bare AssertionError."""
    twos = ["2S", "2H", "2D", "2C", "2s", "2h", "2d", "2c"]
    state = position(houses={0: "AS"}, fill_foundations=False, rest="hand0")
    fields = fields_of(state)
    hand = list(state.hands[0])
    for card in twos:
        hand.remove(c.Card(card))
    fields["foundations"] = tuple((c.Card(card),) for card in twos)
    fields["hands"] = (tuple(hand), state.hands[1])
    assert_refused(fields, "foundation 1 (2S) is not a run up in suit from its Ace")


def _draw_position(rules: str) -> c.GameState:
    """A position where the player to act turns a hand card and breaks no priority."""
    state = c.new_game(rules, seed=12)
    rng = Rng(3)
    while True:
        moves = c.legal_moves(state)
        if c.DRAW in moves and violation(state, c.DRAW) is None and state.stop is None:
            return state
        state = c.apply_unchecked(state, moves[rng.below(len(moves))])


def test_a_pending_stop_no_violation_explains_is_refused() -> None:
    """``PendingStop(prior, DRAW, ...)`` where drawing broke nothing: its legal moves were
    stop and pass, and stop under the undo penalty failed in both engines."""
    prior = _draw_position("pagat(stop=undo)")
    after = c.apply(prior, c.DRAW)
    p = prior.to_act
    fields = {**fields_of(after), "to_act": 1 - p, "stop": PendingStop(prior, c.DRAW, p, p)}
    message = assert_refused(fields, "draw played from stop.prior leaves no Stop! decision")
    with pytest.raises(c.InvalidPositionError) as refused:
        after.replace(to_act=1 - p, stop=PendingStop(prior, c.DRAW, p, p))
    assert str(refused.value) == message


def _stop_state(rules: str, seed: int) -> c.GameState:
    """A state of play awaiting a Stop! decision."""
    state = c.new_game(rules, seed=seed)
    rng = Rng(seed)
    while state.stop is None:
        moves = c.legal_moves(state)
        assert moves, "the deal ended before any violation"
        state = c.apply_unchecked(state, moves[rng.below(len(moves))])
    return state


def test_the_rules_cannot_change_under_a_pending_stop() -> None:
    """``replace(rules=...)`` with a Stop! decision pending kept the prior's old ruleset:
    calling Stop! returned the native engine to the new rules and the Python engine to the
    old ones."""
    state = _stop_state("pagat(stop=undo)", 8)
    other = state.rules.replace(win_bonus=state.rules.win_bonus + 7)
    message = assert_refused(
        {**fields_of(state), "rules": other}, "stop.prior is a state of other rules"
    )
    for engine_state in (state, to_python(state)) if NATIVE else (state,):
        with pytest.raises(c.InvalidPositionError) as refused:
            engine_state.replace(rules=other)
        assert str(refused.value) == message


def test_a_pending_stop_must_be_its_move_from_its_prior() -> None:
    state = _stop_state("serbian", 8)
    stop = state.stop
    assert stop is not None
    fields = fields_of(state)
    assert_refused({**fields, "stop": stop._replace(offender=1 - stop.offender)}, "stop.offender")
    assert_refused({**fields, "moves_made": state.moves_made + 1}, "moves_made")
    assert_refused({**fields, "passes": (2, 2)}, "passes")
    assert_refused({**fields, "stop": stop._replace(move=c.END_TURN)}, "stop.move end")
    assert_refused({**fields, "stop": stop._replace(prior=state)}, "must not itself await")
    assert_refused({**fields, "stop": stop._replace(prior="x")}, "stop.prior must be a GameState")
    assert c.GameState(**fields) == state  # the real one is built


def test_every_reader_refuses_an_impossible_state() -> None:
    """Pickles were rebuilt without a check; notation and JSON name the problem too."""
    state = _stop_state("serbian", 8)
    values = (*(getattr(state, name) for name in _NAMES[:-1]), state.houses_key)
    bad = list(values)
    bad[_NAMES.index("moves_made")] += 1
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer)
    pickler.dispatch_table = copyreg.dispatch_table.copy()
    pickler.dispatch_table[type(state)] = lambda s: (
        (_rebuild, (tuple(bad), None)) if s is state else s.__reduce__()
    )
    pickler.dump(state)
    with pytest.raises(c.InvalidPositionError, match="moves_made"):
        pickle.loads(buffer.getvalue())
    words = c.format_position(state).split(" ")
    words[11] = str(state.rules.move_cap + 1)  # moves made (of the prior, for a Stop!)
    with pytest.raises(c.InvalidPositionError, match="beyond the rules' move cap"):
        c.parse_position(" ".join(words))
    assert pickle.loads(pickle.dumps(state)) == state


# -- the differential --------------------------------------------------------------------------


def random_rules(rng: Rng) -> c.Ruleset:
    """A preset with random options (every value of every option that changes play)."""
    presets = sorted(c.PRESETS)
    base = c.Ruleset.preset(presets[rng.below(len(presets))])
    changes = {}
    for name, values in OPTION_VALUES.items():
        if name in ("match_starter", "match_target", "match_deals") or rng.below(3):
            continue
        changes[name] = values[rng.below(len(values))]
    try:
        return base.replace(**changes)
    except c.InvalidRulesError:
        return base


def hand_built(rng: Rng) -> c.GameState:
    """A random position built by its constructor: well formed (every card once,
    foundation and house runs, reserves of their owner's cards), with random counters
    (passes, moves made up to the cap, houses emptied, layouts seen); and, from such a
    position, a pending Stop! decision built by hand after a violating move."""
    rules = random_rules(rng)
    state = random_position(rules, rng)
    fields = fields_of(state)
    fields["passes"] = (rng.below(3), rng.below(3))
    fields["moves_made"] = rules.move_cap - rng.below(3) if rng.below(6) == 0 else rng.below(500)
    fields["moves_made"] = max(0, min(fields["moves_made"], rules.move_cap))
    state = c.GameState(**fields)
    if rules.stop != "enforced" and rng.below(2):
        breaking = [m for m in c.legal_moves(state) if violation(state, m) is not None]
        if breaking:
            after = c.apply(state, breaking[rng.below(len(breaking))])
            if after.stop is not None:
                rebuilt = c.GameState(**fields_of(after))  # by hand, stop included
                assert rebuilt == after
                return rebuilt
    return state


def _differ(native: c.GameState, python: c.GameState) -> list[str]:
    """The fields in which the engines' states differ, compared as values (not through
    ``to_python``: ``apply_unchecked`` of an illegal move may give a state that no
    constructor builds, which the engines must still make alike)."""
    diff = [
        n
        for n in (*_NAMES, "houses_key", "seen_size")
        if n not in ("stop", "fault") and getattr(native, n) != getattr(python, n)
    ]
    for name in ("stop", "fault"):
        a, b = getattr(native, name), getattr(python, name)
        if (a is None) != (b is None):
            diff.append(name)
        elif a is not None and b is not None:
            if tuple(a[1:]) != tuple(b[1:]):
                diff.append(name)
            diff += [f"{name}.prior.{n}" for n in _differ(a.prior, b.prior)]
    return diff


def _same(native: c.GameState, python: c.GameState, where: str) -> None:
    diff = _differ(native, python)
    if diff:
        raise AssertionError(f"{where}: the engines differ in {diff}")


def _outcome(call: Any, *args: Any) -> Any:
    """A call's result, or its error's type and message."""
    try:
        return call(*args)
    except (c.CrapetteError, TypeError) as error:
        return type(error).__name__, str(error)


@pytest.mark.skipif(not NATIVE, reason="compares the native engine with the Python engine")
def test_the_engines_agree_on_random_hand_built_states() -> None:
    rng = Rng(32)
    stops = 0
    for i in range(STATES):
        native = hand_built(rng)
        python = to_python(native)
        stops += native.stop is not None
        where = f"state {i}: {c.format_position(native)}"
        legal = c.legal_moves(native)
        assert legal == python_legal_moves(python), where
        assert c.outcome(native) == python_outcome(python), where
        assert winner(native) == python_winner(python), where
        assert counts(native) == python_counts(python), where
        for p in (0, 1):
            assert evaluate(native, p) == evaluate(python, p), where
        moves = list(legal) + [ALL_MOVES[rng.below(len(ALL_MOVES))] for _ in range(25)]
        for move in moves:
            for apply_n, apply_p in (
                (c.apply, python_apply),
                (c.apply_unchecked, python_apply_unchecked),
            ):
                a, b = _outcome(apply_n, native, move), _outcome(apply_p, python, move)
                if isinstance(a, tuple):
                    assert a == b, f"{where} {apply_n.__name__} {move}"
                else:
                    _same(a, b, f"{where} {apply_n.__name__} {move}")
            assert _outcome(greedy.ranked_scores, native, [move]) == _outcome(
                greedy.ranked_scores, python, [move]
            ), f"{where} ranked_scores {move}"
        if legal:
            a, b = Rng(i), Rng(i)
            assert greedy.greedy_move(native, a, legal) == greedy.greedy_move(python, b, legal)
            assert a._state == b._state
            for turns in (1, 2):
                a, b = Rng(i), Rng(i)
                p = native.to_act
                assert play_out(native, p, a, turns) == play_out(python, p, b, turns), where
                assert a._state == b._state
        assert pickle.loads(pickle.dumps(native)) == native
        assert c.from_json(c.to_json(native)) == native
        assert c.parse_position(c.format_position(native)) == native
    assert stops > STATES // 20  # pending Stop! decisions built by hand are among them


def test_random_hand_built_states_meet_only_library_errors() -> None:
    """On the engine that runs: every public function on a random hand-built state answers
    or raises a library error (no ``AssertionError``, ``IndexError``...)."""
    rng = Rng(320)
    for _ in range(STATES // 3):
        state = hand_built(rng)
        assert state.problems() == []
        for move in ALL_MOVES[:: 1 + rng.below(7)]:
            _outcome(c.apply, state, move)
            _outcome(c.apply_unchecked, state, move)
            _outcome(c.why_illegal, state, move)
            _outcome(greedy.move_score, state, move)
        c.outcome(state)
        c.is_over(state)
        legal = c.legal_moves(state)
        greedy.ranked_scores(state, legal)
        if legal:
            greedy.greedy_move(state, Rng(1), legal)
            play_out(state, 0, Rng(2))
