"""What the public functions that reach the C core check before it: moves that are not
legal in the state, move lists longer than the core's buffer, helper arguments out of
their range, a counter at its limit, a bound a 64-bit generator cannot serve. Each is
refused with the library's own error naming the input, alike in both engines (the suite
runs with and without ``CRAPETTE_PURE=1``; with the native engine the Python engine's
answer is compared too), and the engine answers valid calls correctly afterwards.

The Python-level fuzz of every such function under the sanitizers is ``tests/fuzz_binding.py``
(``tests/test_sanitizers.py`` runs it).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import crapette as c
from crapette._engine import python_apply_unchecked
from crapette.bots import greedy
from crapette.bots.search import evaluate, play_out
from crapette.deal import Rng
from crapette.moves import ALL_MOVES, Action
from crapette.state import _FIELDS, make_state, to_python

NATIVE = c.ENGINE == "native"
MOST_MOVES = len(ALL_MOVES)  # the longest move list the ranking takes (1296)
MOVES_MADE_LIMIT = 2**32 - 1  # the most moves a state counts (crapette._engine)


def _engines(state: c.GameState) -> list[c.GameState]:
    """The state in the engine that runs, and in the Python engine when that is another."""
    return [state, to_python(state)] if NATIVE else [state]


def _unchecked(state: c.GameState, move: object) -> c.GameState:
    """``apply_unchecked`` of the state's own engine."""
    if NATIVE and state is not to_python(state):
        return c.apply_unchecked(state, move)  # type: ignore[arg-type]
    return python_apply_unchecked(state, move)  # type: ignore[arg-type]


def _same_refusal(
    call: Callable[[c.GameState], object], state: c.GameState, error: type[Exception]
) -> str:
    """``call`` raises ``error`` with the same message in both engines; the message."""
    messages = []
    for engine_state in _engines(state):
        with pytest.raises(error) as refused:
            call(engine_state)
        messages.append(str(refused.value))
    assert len(set(messages)) == 1, messages
    return messages[0]


def _position_with_a_short_house() -> tuple[c.GameState, c.Move]:
    """A position of play with a house of one card, and a move of three cards from it."""
    state = c.new_game("classic", seed=1)
    house = next(h for h in range(8) if len(state.houses[h]) == 1)
    move = next(
        m
        for m in ALL_MOVES
        if m.action is Action.PLAY and m.source == house and 0 <= m.target < 8 and m.count == 3
    )
    return state, move


# -- move lists handed to the greedy ranking ---------------------------------------------------


def test_a_house_move_of_more_cards_than_the_house_holds_is_refused() -> None:
    """``ranked_scores`` and ``greedy_move`` used to hand such a move to the core, which read
    before the card array (and the Python engine raised ``IndexError``)."""
    state, move = _position_with_a_short_house()
    legal = c.legal_moves(state)
    message = _same_refusal(
        lambda s: greedy.ranked_scores(s, (*legal, move)), state, c.IllegalMoveError
    )
    assert message.startswith(f"illegal move {move}") and c.why_illegal(state, move) in message
    _same_refusal(lambda s: greedy.greedy_move(s, Rng(1), (move,)), state, c.IllegalMoveError)
    _same_refusal(lambda s: greedy.move_score(s, move), state, c.IllegalMoveError)
    # the engine answers the legal list as before
    for engine_state in _engines(state):
        assert greedy.ranked_scores(engine_state, legal) == greedy.ranked_scores(state, legal)


def test_every_move_of_the_table_is_legal_or_refused_by_the_ranking() -> None:
    state = c.new_game("serbian", seed=4)
    legal = set(c.legal_moves(state))
    for move in ALL_MOVES:
        if move in legal:
            continue
        _same_refusal(lambda s, m=move: greedy.ranked_scores(s, [m]), state, c.IllegalMoveError)


def test_a_move_list_longer_than_the_move_table_is_refused() -> None:
    """801 legal moves (repeats) used to be 801 scores in Python and ``ValueError`` in C; in
    the WebAssembly module they were written past the move buffer."""
    state = c.new_game("classic", seed=2)
    legal = c.legal_moves(state)
    longest = (legal * (MOST_MOVES // len(legal) + 1))[:MOST_MOVES]
    scores = greedy.ranked_scores(state, longest)
    assert scores == [
        dict(zip(legal, greedy.ranked_scores(state, legal), strict=True))[m] for m in longest
    ]
    too_long = (*longest, *legal)[: MOST_MOVES + 10]
    message = _same_refusal(
        lambda s: greedy.ranked_scores(s, too_long), state, c.InvalidArgumentError
    )
    assert "moves" in message and str(MOST_MOVES) in message and str(len(too_long)) in message
    _same_refusal(lambda s: greedy.greedy_move(s, Rng(0), too_long), state, c.InvalidArgumentError)
    assert greedy.ranked_scores(state, legal) == greedy.ranked_scores(to_python(state), legal)


def test_greedy_move_with_no_move_is_refused_alike() -> None:
    state = c.new_game("classic", seed=3)
    message = _same_refusal(
        lambda s: greedy.greedy_move(s, Rng(0), ()), state, c.InvalidArgumentError
    )
    assert "moves is empty" in message
    over = c.new_game("classic(move_cap=1)", seed=3)
    over = c.apply(over, c.legal_moves(over)[0])
    assert c.legal_moves(over) == ()
    _same_refusal(lambda s: greedy.greedy_move(s, Rng(0)), over, c.InvalidArgumentError)


def test_the_ranking_takes_moves_only() -> None:
    state = c.new_game("classic", seed=3)
    for bad in ("R-F", [1, 2], (None,), 5):
        _same_refusal(lambda s, b=bad: greedy.ranked_scores(s, b), state, TypeError)
    _same_refusal(lambda s: greedy.greedy_move(s, 5, ()), state, TypeError)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        greedy.ranked_scores("state", ())  # type: ignore[arg-type]


# -- helper arguments ---------------------------------------------------------------------------


_TURNS = "turns must be an integer from 1 to 1000000, not"


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda s: evaluate(s, 2), "p must be a player, 0 or 1, not 2"),
        (lambda s: evaluate(s, -1), "p must be a player, 0 or 1, not -1"),
        (lambda s: evaluate(s, True), "p must be a player, 0 or 1, not True"),
        (lambda s: play_out(s, 2, Rng(0)), "p must be a player, 0 or 1, not 2"),
        (lambda s: play_out(s, 0, Rng(0), 0), f"{_TURNS} 0"),
        (lambda s: play_out(s, 0, Rng(0), -3), f"{_TURNS} -3"),
        (lambda s: play_out(s, 0, Rng(0), 2_000_000), f"{_TURNS} 2000000"),
        (lambda s: play_out(s, 0, Rng(0), 1.5), f"{_TURNS} 1.5"),
    ],
)
def test_helper_arguments_out_of_range_are_refused_alike(
    call: Callable[[c.GameState], object], words: str
) -> None:
    """``play_out(turns=0)`` was a native ``TypeError`` and ``(0, 0, 0)`` in Python,
    ``evaluate(p=2)`` a ``TypeError`` against an ``IndexError``."""
    state = c.new_game("classic", seed=5)
    assert _same_refusal(call, state, c.InvalidArgumentError) == words


def test_helpers_at_the_edges_of_their_ranges_answer_alike() -> None:
    state = c.new_game("classic(move_cap=60)", seed=5)
    answers = {
        (play_out(s, 1, Rng(7), 1_000_000), evaluate(s, 0), evaluate(s, 1)) for s in _engines(state)
    }
    assert len(answers) == 1
    (value, played, _), _, _ = answers.pop()
    assert played == 60 and isinstance(value, int)  # to the move cap, not 400 million moves


# -- apply_unchecked of a move that cannot be made ---------------------------------------------


def test_apply_unchecked_of_a_move_that_cannot_be_made_is_a_library_error() -> None:
    """The Python engine used to fail with a bare ``AssertionError`` (a discard with no
    turned card, a Stop! decision with none open) or ``IndexError``; both engines now raise
    ``IllegalMoveError`` with the same message, and a state or the same error for every
    move of the table."""
    state = c.new_game("pagat", seed=6)
    for move in (c.DISCARD, c.CALL_STOP, c.LET_STAND):
        message = _same_refusal(lambda s, m=move: _unchecked(s, m), state, c.IllegalMoveError)
        assert message.startswith(f"illegal move {move}")
    for move in ALL_MOVES:
        outcomes: list[object] = []
        for engine_state in _engines(state):
            try:  # (the result of an illegal move may be a state no constructor builds)
                after = _unchecked(engine_state, move)
                outcomes.append(tuple(getattr(after, name) for name in _FIELDS[:-2]))
            except c.IllegalMoveError as error:
                outcomes.append(str(error))
        assert len(outcomes) == 1 or outcomes[0] == outcomes[1], move


def test_the_limit_is_the_engines() -> None:
    from crapette._engine import MOVES_MADE_LIMIT as limit
    from crapette.bots._greedy import MOST_MOVES as most

    assert limit == MOVES_MADE_LIMIT and most == MOST_MOVES == 1296


def test_the_move_counter_never_wraps() -> None:
    """A state at the 32-bit counter's limit cannot be built (its moves are beyond any move
    cap: the native engine used to hold it and wrap to 0 on the next move), and a move from
    one is refused before the counter could wrap (the Python engine's guard, the C core's
    ``CR_MOVES_MADE_LIMIT`` being checked by ``native/fuzz.c``)."""
    state = c.new_game("classic", seed=7)
    for moves in (MOVES_MADE_LIMIT, MOVES_MADE_LIMIT - 1, 10**9 + 1):
        message = _same_refusal(
            lambda s, n=moves: s.replace(moves_made=n), state, c.InvalidPositionError
        )
        assert f"{moves} moves made is beyond the rules' move cap" in message
    python = to_python(state)
    values = [getattr(python, name) for name in _FIELDS]
    values[_FIELDS.index("moves_made")] = MOVES_MADE_LIMIT
    at_limit = make_state(*values)  # the engine's own constructor: no check
    with pytest.raises(c.IllegalMoveError, match="the deal is over"):
        python_apply_unchecked(at_limit, c.legal_moves(state)[0])
    values[_FIELDS.index("moves_made")] = MOVES_MADE_LIMIT - 1
    below = python_apply_unchecked(make_state(*values), c.legal_moves(state)[0])
    assert below.moves_made == MOVES_MADE_LIMIT


# -- Rng.below ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bound", [2**64 + 1, 2**65, 2**200, 0, -1, -(2**70), 2.5, True, "3", None])
def test_rng_below_refuses_a_bound_it_cannot_serve(bound: object) -> None:
    """Above 2**64 the rejection limit was 0 and no 64-bit draw was below it: ``below``
    never returned."""
    rng = Rng(9)
    with pytest.raises(
        c.InvalidArgumentError, match=r"below\(\) needs an int bound from 1 to 2\*\*64"
    ):
        rng.below(bound)  # type: ignore[arg-type]
    assert rng._state == Rng(9)._state  # nothing drawn


def test_rng_below_serves_every_bound_up_to_2_to_the_64() -> None:
    rng = Rng(10)
    for bound in (1, 2, 52, 2**63, 2**63 + 1, 2**64 - 1, 2**64):
        assert 0 <= rng.below(bound) < bound
    with pytest.raises(c.InvalidArgumentError):
        rng.choice(())
