"""The integer action encoding, action masks and observation vectors of
``crapette.adapters.encoding``."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

import numpy as np

import crapette as c
from crapette.adapters.encoding import (
    CARD_FEATURES,
    CARD_LOCATIONS,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    action_mask,
    card_count,
    decode,
    encode,
    legal_actions,
    num_actions,
    observation_size,
    observation_vector,
)
from crapette.cards import PACKS
from crapette.deal import Rng
from crapette.moves import ALL_MOVES
from crapette.views import determinize, observe


def random_positions(rules: c.Ruleset, seed: int, every: int = 7, limit: int = 400):
    """Positions of a random deal, one in ``every`` moves, at most ``limit`` moves."""
    rng = Rng(seed)
    state = c.new_game(rules, seed=seed)
    for i in range(limit):
        if c.is_over(state):
            break
        if i % every == 0:
            yield state
        moves = c.legal_moves(state)
        state = c.apply_unchecked(state, moves[rng.below(len(moves))])
    yield state


def test_action_space_is_the_move_table() -> None:
    assert NUM_ACTIONS == c.Ruleset().action_count == 791
    assert c.Ruleset.preset("tarot").replace(pack="tarot78").action_count == len(ALL_MOVES)
    for code, move in enumerate(ALL_MOVES):
        assert encode(move) == code == move.index
        if code < NUM_ACTIONS:
            assert decode(code) is move
        assert decode(code, c.Ruleset.preset("tarot").replace(pack="tarot78")) is move
    assert decode(np.int64(c.DRAW.index)) is c.DRAW
    assert decode(c.FLIP.index, c.Ruleset.preset("bobcrapette")) is c.FLIP


@pytest.mark.parametrize(
    ("rules", "actions", "size"),
    [
        ("classic", 791, 1796),
        ("bobcrapette(pack=standard)", 792, 1796),
        ("classic(pack=tarot56)", 848, 112 * 17 + 28),
        ("tarot", 1240, 154 * 17 + 28),
        ("bobcrapette", 1240, 154 * 17 + 28),
        ("tarot(pack=tarot78)", 1296, 156 * 17 + 28),
    ],
)
def test_sizes_per_ruleset(rules: str, actions: int, size: int) -> None:
    """Action and observation sizes follow the pack; every legal move of a deal, every
    card and the 10 foundations of a tarot pack fit them."""
    ruleset = c.parse_rules(rules)
    assert num_actions(ruleset) == actions and observation_size(ruleset) == size
    n = card_count(ruleset)
    state = c.new_game(ruleset.replace(move_cap=300), seed=2)
    while not c.is_over(state):
        mask = action_mask(state)
        assert mask.shape == (actions,) and mask.sum() == len(c.legal_moves(state))
        for p in (0, 1):
            vec = observation_vector(observe(state, p))
            assert vec.shape == (size,) and vec.min() >= 0.0 and vec.max() <= 1.0
            cards = vec[: n * 17].reshape(n, 17)
            assert (cards[:, :15].sum(axis=1) == 1).all()  # every card in one place
            placed = sum(len(f) for f in state.foundations)
            assert cards[:, 0].sum() == placed
        state = c.apply(state, c.legal_moves(state)[-1])
    with pytest.raises(c.InvalidMoveError, match="outside"):
        decode(actions, ruleset)


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, True, 2.0, "3", None])
def test_decode_rejects_what_is_not_a_code(bad: object) -> None:
    with pytest.raises(c.InvalidMoveError, match=r"^action "):
        decode(bad)  # type: ignore[arg-type]


def test_encode_rejects_non_moves() -> None:
    with pytest.raises(TypeError, match="needs a Move"):
        encode(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", sorted(c.PRESETS))
def test_action_mask_marks_exactly_the_legal_moves(preset: str) -> None:
    rules = c.Ruleset.preset(preset)
    for state in random_positions(rules, seed=11):
        mask = action_mask(state)
        assert mask.dtype == np.int8 and mask.shape == (rules.action_count,)
        legal = c.legal_moves(state)
        assert [decode(a, rules) for a in np.flatnonzero(mask)] == list(legal)
        assert legal_actions(state) == [m.index for m in legal]


def test_action_mask_is_empty_when_the_deal_is_over() -> None:
    state = c.new_game(c.Ruleset().replace(move_cap=3), seed=5)
    for _ in range(3):
        state = c.apply(state, c.legal_moves(state)[0])
    assert c.is_over(state)
    assert action_mask(state).sum() == 0
    assert legal_actions(state) == []


@pytest.mark.parametrize(
    "preset", ["classic", "serbian", "bobcrapette", "tarot(pack=tarot78)", "classic(pack=tarot56)"]
)
def test_observation_vector_layout(preset: str) -> None:
    rules = c.parse_rules(preset)
    n = card_count(rules)
    assert n == len(PACKS[rules.pack].cards)
    for state in random_positions(rules, seed=3):
        for player in (0, 1):
            view = observe(state, player)
            vec = observation_vector(view)
            assert vec.shape == (observation_size(rules),) and vec.dtype == np.float32
            if rules.pack == "standard":
                assert vec.shape == (OBSERVATION_SIZE,)
            assert vec.min() >= 0.0 and vec.max() <= 1.0
            cards = vec[: n * CARD_FEATURES].reshape(n, CARD_FEATURES)
            locations = cards[:, : len(CARD_LOCATIONS)]
            assert (locations.sum(axis=1) == 1).all()
            hidden = int(locations[:, CARD_LOCATIONS.index("hidden")].sum())
            assert hidden == sum(view.reserves_down) + sum(view.hand_sizes)
            assert hidden == len(view.hidden_cards())
            # every visible pile has exactly one top card
            tops = int(cards[:, len(CARD_LOCATIONS)].sum())
            piles = [*view.foundations, *view.houses, *view.reserves_up, *view.wastes]
            assert tops == sum(1 for p in piles if p) + (view.turned is not None)
            if view.turned is not None:
                assert cards[view.turned, CARD_LOCATIONS.index("turned")] == 1
            for h, pile in enumerate(view.houses):
                for depth, card in enumerate(reversed(pile)):
                    assert cards[card, CARD_LOCATIONS.index(f"H{h + 1}")] == 1
                    assert cards[card, -2] == (depth == 0)
                    assert cards[card, -1] == np.float32(depth / n)


def test_observation_hides_the_hidden_cards() -> None:
    """States that differ only in face-down cards encode the same, for both players."""
    rng = Rng(99)
    for state in random_positions(c.Ruleset(), seed=21, every=25):
        for player in (0, 1):
            view = observe(state, player)
            other = determinize(view, rng)
            assert np.array_equal(
                observation_vector(observe(other, player)), observation_vector(view)
            )


def test_observation_is_relative_to_the_observer() -> None:
    state = c.new_game(seed=8)
    mine = observation_vector(observe(state, state.to_act))
    theirs = observation_vector(observe(state, 1 - state.to_act))
    assert not np.array_equal(mine, theirs)
    cards = mine[: 104 * CARD_FEATURES].reshape(104, CARD_FEATURES)
    me = state.to_act
    top = state.reserves[me][-1]
    assert cards[top, CARD_LOCATIONS.index("my_reserve")] == 1
    other_cards = theirs[: 104 * CARD_FEATURES].reshape(104, CARD_FEATURES)
    assert other_cards[top, CARD_LOCATIONS.index("opp_reserve")] == 1
