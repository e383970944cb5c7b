"""The lean state, one way to build it, the checked ``apply`` that checks one move (and the
Python engine's move cache that spares it), ``Move`` field checks and ``validate_position``
of every field."""

from __future__ import annotations

import copy
import gc
import pickle
import threading
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crapette as c
from crapette.deal import Rng
from crapette.moves import ALL_MOVES, Action, Move
from crapette.state import FIELDS, position_problems, to_python
from crapette.testing import reference_legal_moves
from strategies import states, synthetic_states


def _house_moves(state: c.GameState) -> list[c.Move]:
    return [m for m in c.legal_moves(state) if m.is_play and m.source < 8 and m.target < 8]


def _lone_cards_state() -> c.GameState:
    """Five lone cards and three empty houses: thousands of layouts one turn can visit."""
    lone = [c.Card(t) for t in ("9S", "9H", "7C", "5D", "JS")]
    rest = [x for x in c.ALL_CARDS if x not in lone]
    return c.GameState(
        rules=c.Ruleset(),
        to_act=0,
        foundations=((),) * 8,
        houses=(*((x,) for x in lone), (), (), ()),
        reserves=((), ()),
        reserve_up=(0, 0),
        hands=(tuple(rest[:50]), tuple(rest[50:])),
        wastes=((), ()),
    )


def _long_turn(length: int) -> tuple[c.GameState, list[c.Move]]:
    """A start and a random walk of ``length`` house moves from it, in one turn."""
    for seed in range(20):
        start = state = _lone_cards_state()
        moves: list[c.Move] = []
        rng = Rng(seed)
        while len(moves) < length:
            options = _house_moves(state)
            if not options:
                break
            moves.append(options[rng.below(len(options))])
            state = c.apply(state, moves[-1])
        else:
            return start, moves
    raise AssertionError("no walk long enough")  # pragma: no cover


def _end_of(start: c.GameState, moves: list[c.Move]) -> c.GameState:
    for move in moves:
        start = c.apply(start, move)
    return start


# --- immutable, equal by value, one constructor ------------------------------------------


def test_a_state_is_immutable_and_replace_makes_a_copy() -> None:
    state = c.new_game(seed=4)
    with pytest.raises(AttributeError):
        state.to_act = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.houses = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del state.to_act  # type: ignore[misc]
    assert state.to_act in (0, 1)
    other = state.replace(to_act=1 - state.to_act)
    assert other.to_act == 1 - state.to_act and other != state
    assert other.replace(to_act=state.to_act) == state
    with pytest.raises(TypeError, match="colour"):
        state.replace(colour=1)
    with pytest.raises(TypeError, match="houses_key"):
        state.replace(houses_key=0)


def test_replace_of_houses_recomputes_the_layout_key() -> None:
    state = c.new_game(seed=4)
    houses = (state.houses[1], state.houses[0], *state.houses[2:])
    moved = state.replace(houses=houses)
    assert moved.houses_key == c.GameState(**{**_fields(state), "houses": houses}).houses_key
    assert moved.houses_key != state.houses_key
    assert moved.seen == {moved.houses_key}


def _fields(state: c.GameState) -> dict[str, object]:
    return {name: getattr(state, name) for name in FIELDS}


@settings(max_examples=40, deadline=None)
@given(states(max_steps=300))
def test_equal_by_value_hashable_and_picklable(state: c.GameState) -> None:
    """Rebuilt with the public constructor, deep-copied or pickled, a state is equal and
    hashes equal; the layouts seen (shared between states) compare as a set."""
    rebuilt = c.GameState(**_fields(state))  # type: ignore[arg-type]
    for twin in (rebuilt, copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin == state and hash(twin) == hash(state)
        assert twin.seen == state.seen
        assert c.legal_moves(twin) == c.legal_moves(state)


# --- the layouts seen: shared, linear, branch-safe ---------------------------------------


@settings(max_examples=60, deadline=None)
@given(states(max_steps=300), st.integers(0, 2**32))
def test_layouts_seen_follow_every_branch(state: c.GameState, seed: int) -> None:
    """Decision 12 on a tree of play: after a house move the layouts seen are the old ones
    plus the new layout, on every branch from one state (a search plays several), and the
    state played from keeps its own; any other move forgets them."""
    rng = Rng(seed)
    for _ in range(4):  # a few house moves deep, so that the state has a history
        moves = _house_moves(state)
        if not moves:
            break
        state = c.apply(state, moves[rng.below(len(moves))])
    before = state.seen
    for move in c.legal_moves(state):
        after = c.apply(state, move)
        if after.stop is not None or after.to_act != state.to_act:
            continue
        if move.is_play and move.source < 8 and move.target < 8:
            assert after.seen == before | {after.houses_key}
            assert after.houses_key not in before
        else:
            assert after.seen == {after.houses_key}
        assert state.seen == before


def test_layouts_seen_from_several_threads() -> None:
    """States of one turn may be played on from several threads at once: every thread's
    branch keeps exactly its own history."""
    base = _end_of(*_long_turn(30))
    moves = _house_moves(base)
    assert len(moves) > 1
    results: dict[int, list[frozenset[int]]] = {}

    def play(i: int) -> None:
        rng = Rng(i)
        out = []
        state = base
        for _ in range(40):
            options = _house_moves(state)
            if not options:
                break
            nxt = c.apply(state, options[rng.below(len(options))])
            assert nxt.seen == state.seen | {nxt.houses_key}
            out.append(nxt.seen)
            state = nxt
        results[i] = out

    threads = [threading.Thread(target=play, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 6 and all(results.values())
    assert base.seen == _end_of(*_long_turn(30)).seen


def test_a_long_turn_costs_the_same_per_state() -> None:
    """Memory per retained state is flat from the first to the last moves of a
    1,000-move turn (a set of seen layouts per state would grow with the turn)."""
    start, moves = _long_turn(1000)
    gc.collect()
    tracemalloc.start()
    state = start
    kept = [state]
    marks = [tracemalloc.get_traced_memory()[0]]
    for move in moves:
        state = c.apply_unchecked(state, move)
        kept.append(state)
        marks.append(tracemalloc.get_traced_memory()[0])
    tracemalloc.stop()
    first = (marks[101] - marks[1]) / 100
    last = (marks[-1] - marks[-101]) / 100
    assert last < 1.3 * first, (first, last)
    assert kept[-1].seen == {s.houses_key for s in kept}


# --- checked apply checks the one move ---------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.one_of(states(max_steps=300), synthetic_states()))
def test_apply_accepts_exactly_the_legal_moves(state: c.GameState) -> None:
    """``apply`` checks one move without listing them all; for every move of the table it
    accepts exactly the moves of ``legal_moves`` (and of the plain reference generator),
    and rejects the others with ``why_illegal``'s reason."""
    legal = set(c.legal_moves(state))
    assert legal == set(reference_legal_moves(state))
    for move in ALL_MOVES:
        if move in legal:
            c.apply(state, move)
        else:
            with pytest.raises(c.IllegalMoveError) as info:
                c.apply(state, move)
            reason = c.why_illegal(state, move)
            assert reason is not None and reason in str(info.value)


@settings(max_examples=40, deadline=None)
@given(states(max_steps=2000))
def test_outcome_is_none_exactly_while_the_deal_runs(state: c.GameState) -> None:
    result = c.outcome(state)
    assert (result is None) == (not c.is_over(state))


# --- Move checks its fields -------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((Action.PLAY, 1.0, 2), "source"),
        ((Action.PLAY, 1, 2.0), "target"),
        ((Action.PLAY, 1, 2, 2.0), "count"),
        ((Action.PLAY, True, 2), "source"),
        (("play", 8, 11), "action"),
        ((None,), "action"),
        ((Action.PLAY, 8, 8), "no such move"),
    ],
)
def test_move_checks_its_fields(args: tuple[object, ...], field: str) -> None:
    with pytest.raises(c.InvalidMoveError, match=field):
        Move(*args)  # type: ignore[arg-type]


def test_no_float_equals_a_real_move() -> None:
    real = c.Move.play(1, 2)
    assert Move(Action.PLAY, 1, 2) == real
    with pytest.raises(c.InvalidMoveError):
        Move(Action.PLAY, 1.0, 2)  # type: ignore[arg-type]


# --- validate_position checks every field -----------------------------------------------


def _broken(state: c.GameState) -> list[tuple[str, dict[str, object]]]:
    """Field changes that make ``state`` impossible, with the field the problem names."""
    house = state.houses[0]
    return [
        ("turned", {"turned": 500}),
        ("to_act", {"to_act": 2}),
        ("foundations", {"foundations": state.foundations[:7]}),
        ("reserve_up", {"reserve_up": (1, -1)}),
        ("houses[0][1]", {"houses": ((*house, "x"), *state.houses[1:])}),
        ("houses", {"houses": state.houses[:7]}),
        ("passes", {"passes": (0, 3)}),
        ("emptied", {"emptied": 256}),
        ("moves_made", {"moves_made": -1}),
        ("rules", {"rules": "classic"}),
        ("hands", {"hands": (state.hands[0],)}),
        ("reserves[0]", {"reserves": (list(state.reserves[0]), state.reserves[1])}),
        ("stop", {"stop": ("R-F",)}),
        ("at most 13 cards", {"houses": (tuple(range(14)), *state.houses[1:])}),
    ]


@pytest.mark.parametrize("index", range(14))
def test_validate_position_names_the_bad_field(index: int) -> None:
    """Both engines refuse an impossible state where it is built (the constructor and
    ``replace``), with the same ``InvalidPositionError`` naming the field that
    ``position_problems`` of its fields names."""
    state = c.new_game(seed=2)
    field, changes = _broken(state)[index]
    fields = {**_fields(state), **changes}
    problems = position_problems(fields)
    assert problems and any(field in p for p in problems), problems
    words = field.replace("[", r"\[")
    for engine_state in (state, to_python(state)):
        with pytest.raises(c.InvalidPositionError, match=words) as refused:
            engine_state.replace(**changes)
        assert str(refused.value) == "impossible position: " + "; ".join(problems)
    with pytest.raises(c.InvalidPositionError, match=words):
        c.GameState(**fields)  # type: ignore[arg-type]
    with pytest.raises(c.InvalidPositionError, match=words):
        c.validate_position(fields)
    with pytest.raises(c.NotationError):  # still importable from notation, same error
        from crapette.notation import validate_position

        validate_position(fields)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("to_act", "1", "int object expected; got str"),
        ("houses", [()] * 8, "tuple object expected; got list"),
        ("stop", "R-F", "tuple or None object expected; got str"),
        ("moves_made", 1.5, "int object expected; got float"),
    ],
)
def test_a_field_of_the_wrong_type_is_refused_when_built(
    field: str, value: object, message: str
) -> None:
    """Both builds refuse a field of the wrong type alike, with the compiled build's words
    (its native constructor checks them before it runs), by keyword and by ``replace``."""
    state = c.new_game(seed=2)
    with pytest.raises(TypeError, match=f"^{message}$"):
        state.replace(**{field: value})
    with pytest.raises(TypeError, match=f"^{message}$"):
        c.GameState(**{**_fields(state), field: value})  # type: ignore[arg-type]


def test_a_valid_state_has_no_problems() -> None:
    state = c.new_game(seed=2)
    assert state.problems() == [] == position_problems(state)
    c.validate_position(state)


@settings(max_examples=200, deadline=None)
@given(
    synthetic_states(),
    st.sampled_from(
        ["turned", "to_act", "reserve_up", "passes", "emptied", "moves_made", "houses"]
    ),
    st.integers(-3, 600),
)
def test_legal_moves_never_fails_on_a_validated_state(
    state: c.GameState, field: str, value: int
) -> None:
    """A state that passes validation never makes ``legal_moves`` raise."""
    if field in ("reserve_up", "passes"):
        change = {field: (value, getattr(state, field)[1])}
    elif field == "houses":
        change = {"houses": ((value, *state.houses[0]), *state.houses[1:])}
    else:
        change = {field: value}
    try:
        changed = state.replace(**change)
    except c.InvalidPositionError:  # refused exactly when the fields are impossible
        assert position_problems({**_fields(state), **change})
        return
    assert changed.problems() == []
    c.legal_moves(changed)
    assert set(c.legal_moves(changed)) == set(reference_legal_moves(changed))


def test_cards_given_as_codes_are_the_packs_cards() -> None:
    """A state built with plain ``int`` codes for its cards holds the pack's ``Card``s, in
    both engines (the native one always did), so its text and its refusals name the cards:
    Hypothesis found a turned card given as ``14`` that made the Python engine's refusal
    fail on ``.text``."""
    state = c.new_game(seed=3)
    drawn = c.apply(state, c.DRAW)
    assert drawn.turned is not None
    codes = drawn.replace(
        houses=tuple(tuple(int(card) for card in pile) for pile in drawn.houses),
        turned=int(drawn.turned),
    )
    assert codes == drawn and repr(codes) == repr(drawn)
    assert all(type(card) is c.Card for pile in codes.houses for card in pile)
    assert type(codes.turned) is c.Card
    assert set(c.legal_moves(codes)) == set(reference_legal_moves(codes))
    assert c.why_illegal(codes, "T-F") == c.why_illegal(drawn, "T-F")


def test_why_illegal_reads_move_text_as_apply_does() -> None:
    """``why_illegal`` takes a move text as ``apply`` does: ``None`` for a legal one, the
    reason for an illegal or unreadable one."""
    state = c.new_game(seed=1)
    legal = c.legal_moves(state)[0]
    assert c.why_illegal(state, str(legal)) is None
    assert (
        c.why_illegal(state, "R-F")
        == "illegal move R-F (3S) for player 0: 3S does not fit on any foundation"
    )
    assert "unknown move 'zz'" in (c.why_illegal(state, "zz") or "")


def test_layout_keys_seen_are_checked() -> None:
    """``seen`` holds 64-bit layout keys: a key that is not an integer is refused when the
    state is built, one out of range is a named problem (no position line could hold it)."""
    state = c.new_game(seed=1)
    for key in ("x", 1.5):
        with pytest.raises(TypeError, match=f"^int object expected; got {type(key).__name__}$"):
            state.replace(seen=(key,))
    for keys in ((-1,), (2**70,)):
        assert "seen must hold layout keys" in " ".join(
            position_problems({**_fields(state), "seen": keys})
        )
        for engine_state in (state, to_python(state)):  # refused when built, in both
            with pytest.raises(c.InvalidPositionError, match="seen must hold layout keys"):
                engine_state.replace(seen=keys)
    assert state.replace(seen=(5, 2**64 - 1)).problems() == []


# --- the Python engine's one-entry move cache -------------------------------------------


def _two_positions() -> tuple[c.GameState, c.GameState, c.Move]:
    """Two Python-engine positions and a move legal in the first only."""
    from crapette._engine import python_apply_unchecked
    from crapette._movegen import python_legal_moves
    from crapette.state import to_python

    first = to_python(c.new_game(seed=4))
    for move in python_legal_moves(first):
        second = python_apply_unchecked(first, move)
        extra = [m for m in python_legal_moves(first) if m not in python_legal_moves(second)]
        if extra and second.to_act == first.to_act:
            return first, second, extra[0]
    raise AssertionError("no such pair")  # pragma: no cover


def test_the_move_cache_answers_only_for_the_state_it_listed() -> None:
    """``apply`` looks a move up in the moves ``legal_moves`` listed last only when they are
    this state's: a move legal in the last listed position is still refused here."""
    from crapette._engine import python_apply
    from crapette._movegen import known_moves, python_legal_moves

    first, second, move = _two_positions()
    python_legal_moves(first)
    assert known_moves(first) is not None and known_moves(second) is None
    with pytest.raises(c.IllegalMoveError):
        python_apply(second, move)
    python_legal_moves(second)
    with pytest.raises(c.IllegalMoveError):
        python_apply(second, move)
    assert python_apply(first, move) is not None


def test_the_move_cache_spares_the_check_of_a_listed_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """After ``legal_moves(state)``, applying one of its moves asks no rule again (the
    one-entry cache); another position's move is checked by the rules."""
    import crapette._engine as engine
    from crapette._movegen import python_legal_moves

    first, second, _ = _two_positions()
    calls = []
    real = engine.is_legal
    monkeypatch.setattr(engine, "is_legal", lambda s, m: calls.append(m) or real(s, m))
    moves = python_legal_moves(first)
    engine.python_apply(first, moves[-1])
    assert calls == []
    engine.python_apply(second, python_legal_moves(second)[0])
    assert calls == []
    engine.python_apply(first, moves[0])  # the cache holds the second position now
    assert calls == [moves[0]]
