"""Tests written against one-line bugs that the rest of the suite let through (the mutation
test of issue 23): a match that ends only *above* its target, reserve plays no longer
counted as progress for the stalemate rule, and the houses emptied during a turn still
marked once the turn has passed. Each test here fails on its mutant."""

from __future__ import annotations

import itertools

import pytest

import crapette as c
from crapette.bots import GreedyBot, play_deal
from crapette.deal import Rng
from crapette.moves import HAND, RESERVE, WASTE


def _first_deal(target: int) -> c.Match:
    """The first deal of a match to ``target`` (seed 11), played to its end by two greedy
    bots (the deal does not depend on the target)."""
    match = c.new_match(f"classic(match_target={target})", seed=11)
    return match.with_state(play_deal(match.state, (GreedyBot(1), GreedyBot(2))))


def test_a_match_ends_when_a_total_reaches_the_target_exactly() -> None:
    """docs/rules.md, matches: the match ends once a player's total *reaches* the target
    (``>=``): a deal that brings the winner exactly to it ends the match."""
    result = c.outcome(_first_deal(10**6).state)
    assert result is not None and result.winner is not None
    points = max(result.scores)
    for target, over in ((points, True), (points + 1, False), (points - 1, True)):
        match = _first_deal(target)
        assert match.totals == result.scores
        decided = match.outcome()
        assert (decided is not None) is over, (target, points)
        if decided is not None:
            assert decided.winner == result.winner and decided.totals == result.scores
            with pytest.raises(c.MatchError, match="the match is over"):
                match.next_deal()
        else:
            assert match.next_deal().number == 1


def _states(rules: str, seed: int, moves: int = 3000) -> list[c.GameState]:
    """The states of random play (random moves, so every kind of move shows up)."""
    rng = Rng(seed)
    state = c.new_game(rules, seed=seed)
    out = [state]
    for _ in range(moves):
        legal = c.legal_moves(state)
        if not legal:
            break
        state = c.apply_unchecked(state, legal[rng.below(len(legal))])
        out.append(state)
    return out


@pytest.mark.parametrize(
    ("source", "rules"),
    [(RESERVE, "classic"), (HAND, "classic"), (WASTE, "serbian"), (RESERVE, "serbian")],
)
def test_a_card_played_from_reserve_turned_card_or_waste_is_progress(
    source: int, rules: str
) -> None:
    """Decision 10: "progress is playing a card from your own reserve, turned card or own
    waste anywhere but your own waste": it clears both players' pass marks, whatever they
    were. A card moved between houses is not progress."""
    played = 0
    for seed in range(1, 4):
        for state in _states(rules, seed)[::7]:
            for move in c.legal_moves(state):
                if not move.is_play or move.source != source:
                    continue
                for marks in ((1, 2), (2, 1), (1, 1)):
                    after = c.apply(state.replace(passes=marks), move)
                    assert after.passes == (0, 0), (str(move), marks)
                played += 1
                break
    assert played >= 10  # the walk met such moves
    houses = 0
    for state in _states(rules, 5)[::5]:
        for move in c.legal_moves(state):
            if move.is_play and move.source < 8 and move.target < 8:
                after = c.apply(state.replace(passes=(1, 2)), move)
                assert after.passes == (1, 2)
                houses += 1
    assert houses > 0


@pytest.mark.parametrize("rules", ["belarusian", "pagat(house_filling=immediate)"])
def test_the_houses_emptied_in_a_turn_are_forgotten_when_the_turn_passes(rules: str) -> None:
    """``house_filling=immediate``: a house emptied during a turn must be filled from the
    reserve before other moves of *that* turn; ``state.emptied`` marks those houses and is
    cleared when the turn passes, so the next player is not held to the previous player's
    empty houses."""
    passed = 0
    for seed in range(1, 6):
        states = _states(rules, seed)
        for before, after in itertools.pairwise(states):
            if after.turn_player != before.turn_player:
                assert after.emptied == 0
                passed += before.emptied != 0
            if before.emptied and after.turn_player == before.turn_player:
                # during the turn the marks stay until the house is filled
                assert after.emptied & before.emptied == before.emptied & ~_filled(after)
    assert passed >= 3  # turns that ended with an emptied house still marked


def _filled(state: c.GameState) -> int:
    return sum(1 << h for h in range(8) if state.houses[h])


def test_the_next_player_may_ignore_the_previous_turns_empty_houses() -> None:
    """The behaviour behind the field: after the turn passes, the next player's moves are
    the same as if no house had been emptied (under ``stop=enforced`` a still-marked house
    would forbid every move but filling it)."""
    seen = 0
    for seed in range(1, 8):
        states = _states("belarusian", seed)
        for before, after in itertools.pairwise(states):
            if (
                before.emptied
                and after.turn_player != before.turn_player
                and after.reserves[after.to_act]
                and not all(after.houses)
            ):
                assert c.legal_moves(after) == c.legal_moves(after.replace(emptied=0))
                marked = after.replace(emptied=before.emptied & ~_filled(after))
                if marked.emptied:
                    seen += c.legal_moves(marked) != c.legal_moves(after)
    assert seen >= 1  # the marks would have mattered


# -- survivor 5: the Python engine's one-entry move cache -------------------------------


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
