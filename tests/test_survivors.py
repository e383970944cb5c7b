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
