"""A Hypothesis ``RuleBasedStateMachine`` over the move sequence of one deal: legal moves
applied one at a time (or in random bursts), illegal moves tried on the way, and the
engine's invariants checked after every step, under random rulesets."""

from __future__ import annotations

import copy

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import crapette as c
from crapette.deal import Rng
from crapette.moves import ALL_MOVES
from crapette.testing import reference_legal_moves
from strategies import every_card, play_rulesets, seeds


class DealMachine(RuleBasedStateMachine):
    """One deal under a random ruleset, driven move by move."""

    def __init__(self) -> None:
        super().__init__()
        self.state: c.GameState = c.new_game(seed=0)
        self.history: list[c.GameState] = []
        self.snapshots: list[str] = []

    @initialize(rules=play_rulesets(max_move_cap=2000), seed=seeds())
    def deal(self, rules: c.Ruleset, seed: int) -> None:
        self.state = c.new_game(rules, seed=seed)
        self.history = [self.state]
        self.snapshots = [c.to_json(self.state)]

    def over(self) -> bool:
        return c.is_over(self.state)

    def step(self, move: c.Move) -> None:
        before = self.state
        twin = copy.deepcopy(before)
        snapshot = c.to_json(before)
        after = c.apply(before, move)
        assert before == twin and c.to_json(before) == snapshot  # untouched
        assert after.moves_made == before.moves_made + 1
        if move is c.LET_STAND or (move is c.CALL_STOP and before.stop is not None):
            assert before.stop is not None and after.stop is None
            assert after.to_act == before.stop.resume or move is c.CALL_STOP
        elif move is c.CALL_STOP:  # a call at the start of a turn (call_window=turn_start)
            assert before.window and after.stop is None
            # the caller's window closes; a false call that costs the turn opens the other's
            assert not after.window or after.to_act != before.to_act
        if before.stop is None and move is c.DISCARD:
            assert after.turned is None
            assert after.to_act != before.to_act or after.stop is not None
        self.state = after
        self.history.append(after)
        self.snapshots.append(c.to_json(after))

    @precondition(lambda self: not self.over())
    @rule(data=st.data())
    def play_one(self, data: st.DataObject) -> None:
        legal = c.legal_moves(self.state)
        self.step(data.draw(st.sampled_from(legal), label="move"))

    @precondition(lambda self: not self.over())
    @rule(walk=st.integers(0, 2**32), count=st.integers(1, 120))
    def play_many(self, walk: int, count: int) -> None:
        rng = Rng(walk)
        for _ in range(count):
            legal = c.legal_moves(self.state)
            if not legal:
                break
            move = legal[rng.below(len(legal))]
            after = c.apply_unchecked(self.state, move)
            assert after == c.apply(self.state, move)  # both paths agree
            self.state = after
            self.history.append(after)
            self.snapshots.append(c.to_json(after))

    @rule(move=st.sampled_from(ALL_MOVES))
    def try_any_move(self, move: c.Move) -> None:
        if move in c.legal_moves(self.state):
            assert c.why_illegal(self.state, move) is None
            return
        twin = copy.deepcopy(self.state)
        snapshot = c.to_json(self.state)
        with pytest.raises(c.IllegalMoveError):
            c.apply(self.state, move)
        assert self.state == twin and c.to_json(self.state) == snapshot

    @invariant()
    def cards_once_each(self) -> None:
        assert sorted(self.state.cards()) == every_card(self.state)

    @invariant()
    def legal_moves_are_well_formed(self) -> None:
        legal = c.legal_moves(self.state)
        indexes = [m.index for m in legal]
        assert indexes == sorted(set(indexes))
        assert (not legal) == self.over() == (c.outcome(self.state) is not None)
        assert legal == reference_legal_moves(self.state)

    @invariant()
    def earlier_states_unchanged(self) -> None:
        # States are values: the last states of the history still give their full snapshot.
        for state, snapshot in zip(self.history[-5:], self.snapshots[-5:], strict=True):
            assert c.to_json(state) == snapshot

    @invariant()
    def outcome_is_final(self) -> None:
        result = c.outcome(self.state)
        if result is not None:
            assert result.reason in ("win", "stalemate", "move_cap")
            assert (result.winner is None) == (result.reason != "win")
            assert all(score >= 0 for score in result.scores)
            assert min(result.scores) == 0


DealMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=30, deadline=None)
test_deal_machine = DealMachine.TestCase
