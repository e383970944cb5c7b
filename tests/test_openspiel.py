"""The OpenSpiel game ``python_crapette``, checked with OpenSpiel's own harness
(``random_sim_test``) and its MCTS bot."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import crapette as c
from crapette.adapters.encoding import (
    NUM_ACTIONS,
    legal_actions,
    observation_vector,
    reward_scale,
)
from crapette.adapters.openspiel import (
    OpenSpielBot,
    parse_rules_param,
    rules_param,
)
from crapette.bots import RandomBot
from crapette.cards import TEXT
from crapette.moves import ALL_MOVES
from crapette.views import observe


def random_walk(state, seed: int, steps: int):
    """Apply ``steps`` uniformly random actions (chance included) to ``state``."""
    rng = np.random.RandomState(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    "game_string",
    [
        "python_crapette(move_cap=200,num_deals=50)",
        "python_crapette(rules=pagat,move_cap=250)",
        "python_crapette(rules=serbian[house_filling:immediate],move_cap=250)",
        "python_crapette(rules=belarusian,move_cap=150,normalize=False)",
    ],
)
def test_random_sim_test(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_parameters() -> None:
    game = pyspiel.load_game("python_crapette")
    assert game.get_parameters() == {
        "rules": "classic",
        "move_cap": 0,
        "num_deals": 10000,
        "deal_offset": 0,
        "normalize": True,
    }
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == 10000
    assert game.max_game_length() == c.Ruleset().move_cap
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    capped = pyspiel.load_game("python_crapette", {"rules": "pagat(stop=card)", "move_cap": 99})
    assert capped.get_parameters()["rules"] == rules_param(
        c.Ruleset.preset("pagat").replace(stop="card")
    )
    assert capped.max_game_length() == 99
    again = pyspiel.load_game(str(capped))
    assert again.get_parameters() == capped.get_parameters()
    raw = pyspiel.load_game("python_crapette(normalize=False)")
    assert raw.max_utility() == reward_scale(c.Ruleset()) == 238


def test_rules_param_spellings() -> None:
    rules = c.Ruleset.preset("serbian").replace(house_filling="immediate", stop="undo")
    text = rules_param(rules)
    assert text == "serbian[house_filling:immediate;stop:undo]"
    assert parse_rules_param(text) == rules == parse_rules_param(str(rules))
    assert rules_param("classic") == "classic"


@pytest.mark.parametrize(
    ("game_string", "error"),
    [
        ("python_crapette(rules=nonsense)", c.InvalidRulesError),
        ("python_crapette(rules=classic[stop:maybe])", c.InvalidRulesError),
        ("python_crapette(num_deals=0)", c.InvalidRulesError),
        ("python_crapette(move_cap=-5)", c.InvalidRulesError),
        ("python_crapette(colour=blue)", pyspiel.SpielError),
    ],
)
def test_bad_parameters(game_string: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        pyspiel.load_game(game_string)


def test_the_deal_is_a_chance_node() -> None:
    game = pyspiel.load_game("python_crapette(num_deals=20,deal_offset=1000,rules=serbian)")
    state = game.new_initial_state()
    assert state.is_chance_node() and state.game_state is None
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(20))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(7)
    assert state.game_state == c.new_game(c.Ruleset.preset("serbian"), seed=1007)
    assert state.current_player() == state.game_state.to_act
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal seed=1007"


def test_actions_returns_and_observations() -> None:
    game = pyspiel.load_game("python_crapette(move_cap=120)")
    state = random_walk(game.new_initial_state(), seed=1, steps=40)
    gs = state.game_state
    assert state.legal_actions() == legal_actions(gs)
    for action in state.legal_actions():
        assert state.action_to_string(state.current_player(), action) == str(ALL_MOVES[action])
    for player in (0, 1):
        view = observe(gs, player)
        assert state.observation_string(player) == view.to_string()
        assert np.array_equal(
            np.asarray(state.observation_tensor(player), dtype=np.float32),
            observation_vector(view),
        )
    assert state.returns() == [0.0, 0.0]
    random_walk(state, seed=2, steps=1000)
    assert state.is_terminal()
    result = c.outcome(state.game_state)
    assert result is not None and result.reason == "move_cap"
    diff = (result.scores[0] - result.scores[1]) / 238
    assert state.returns() == pytest.approx([diff, -diff])


def test_information_state_strings() -> None:
    game = pyspiel.load_game("python_crapette(move_cap=300)")
    state = game.new_initial_state()
    state.apply_action(5)
    start = state.game_state
    opening = state.information_state_string(0)
    hidden = {TEXT[card] for card in (*start.hands[0], *start.hands[1])}
    assert not hidden & set(opening.replace("|", " ").split())
    before = [state.information_state_string(p) for p in (0, 1)]
    random_walk(state, seed=3, steps=150)
    lines = state.information_state_string(0).split("\n")
    assert lines[0] == opening
    assert len(lines) == 1 + len(state.history()) - 1  # one line per move
    assert lines[1:] == state.information_state_string(1).split("\n")[1:]
    assert all(
        p.split("\n")[0] == b
        for p, b in zip([state.information_state_string(p) for p in (0, 1)], before, strict=True)
    )
    draws = [line for line in lines[1:] if " draw" in line]
    assert draws and all("@T" in line for line in draws)
    # Cards only appear once they have been turned face up.
    revealed = {tok[1:3] for line in lines[1:] for tok in line.split() if tok.startswith("+")}
    still_hidden = hidden - revealed
    tokens = set(" ".join(lines).replace("|", " ").split())
    assert not still_hidden & tokens


def test_serialization_round_trip() -> None:
    game = pyspiel.load_game("python_crapette(rules=pagat,move_cap=400)")
    state = random_walk(game.new_initial_state(), seed=4, steps=200)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.game_state == state.game_state
    assert state2.history() == state.history()
    assert state2.information_state_string(1) == state.information_state_string(1)
    clone = state.clone()
    assert clone.game_state == state.game_state and str(clone) == str(state)


def test_mcts_plays_complete_deals_against_random_bot() -> None:
    game = pyspiel.load_game("python_crapette(move_cap=100,num_deals=100)")
    for deal in range(2):
        rng = np.random.RandomState(deal)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        searcher = mcts.MCTSBot(
            game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rng
        )
        mcts_player = deal % 2
        randomer = OpenSpielBot(RandomBot(seed=deal), player_id=1 - mcts_player)
        bots = [searcher, randomer] if mcts_player == 0 else [randomer, searcher]
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, rng)
        assert state.is_terminal()
        assert c.is_over(state.game_state)
        assert returns[0] == -returns[1]
        movers = {item.player for item in state.full_history()[1:]}
        assert movers == {0, 1}


def _sampled_deal(seed: int, steps: int):
    game = pyspiel.load_game("python_crapette(move_cap=80)")
    state = game.new_initial_state()
    state.apply_action(seed)
    return game, random_walk(state, seed, steps)


@pytest.mark.parametrize("steps", [0, 7, 25])
def test_resample_from_infostate_keeps_what_the_player_knows(steps: int) -> None:
    _, state = _sampled_deal(3, steps)
    if state.is_terminal():
        pytest.skip("the walk ended the deal")
    player = state.current_player()
    rng = np.random.RandomState(1)
    samples = [state.resample_from_infostate(player, rng.uniform) for _ in range(6)]
    original = state.game_state
    for sample in samples:
        assert sample.information_state_string(0) == state.information_state_string(0)
        assert sample.information_state_string(1) == state.information_state_string(1)
        assert sample.observation_string(player) == state.observation_string(player)
        assert sample.current_player() == player
        assert sample.legal_actions() == state.legal_actions()  # the same visible cards
        assert sorted(sample.game_state.cards()) == sorted(original.cards())
    assert state.game_state is original  # the state resampled from is unchanged
    hidden = {
        (s.game_state.hands, s.game_state.reserves)
        for s in samples  # the hidden cards are dealt anew
    }
    assert len(hidden) > 1
    again = np.random.RandomState(1)
    assert state.resample_from_infostate(player, again.uniform).game_state == (
        samples[0].game_state
    )  # a seeded sampler gives the same sample
    with pytest.raises(c.InvalidArgumentError, match="player_id"):
        state.resample_from_infostate(2, rng.uniform)


def test_resampling_before_and_after_the_deal_changes_nothing() -> None:
    game = pyspiel.load_game("python_crapette(move_cap=40)")
    before = game.new_initial_state()
    assert str(before.resample_from_infostate(0, np.random.RandomState(0).uniform)) == str(before)
    _, done = _sampled_deal(5, 10_000)
    assert done.is_terminal()
    assert done.resample_from_infostate(1, np.random.RandomState(0).uniform).game_state == (
        done.game_state
    )


def test_open_spiels_ismcts_bot_plays_a_deal() -> None:
    """OpenSpiel's information-set MCTS (it resamples the hidden cards through
    ``resample_from_infostate``) against a random player, to the end of a short deal."""
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("python_crapette(move_cap=60,num_deals=50)")
    rng = np.random.RandomState(4)
    searcher = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(5)),
        uct_c=2.0,
        max_simulations=12,
        random_state=np.random.RandomState(6),
    )
    searcher.set_resampler(lambda s, player: s.resample_from_infostate(player, rng.uniform))
    state = game.new_initial_state()
    state.apply_action(7)
    moves = 0
    while not state.is_terminal():
        assert moves < 60  # the move cap bounds the deal
        if state.current_player() == 0:
            action = searcher.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert state.returns()[0] == -state.returns()[1]


def test_ismcts_without_a_resampler_uses_the_games_own() -> None:
    """The bot's default: ``state.resample_from_infostate(player, UniformProbabilitySampler)``."""
    from open_spiel.python.algorithms import ismcts

    game, state = _sampled_deal(2, 3)
    searcher = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(0)), 2.0, 8
    )
    assert len(state.legal_actions()) > 1
    assert searcher.step(state) in state.legal_actions()


@pytest.mark.parametrize(
    ("rules", "actions", "cards"),
    [("tarot[pack:tarot78]", 1296, 156), ("bobcrapette", 1240, 154)],
)
def test_larger_packs(rules: str, actions: int, cards: int) -> None:
    """A tarot78 and a Bobcrapette game: the ruleset's action count, an observation tensor
    of 17 values per card of the pack (and 28 more), OpenSpiel's own harness, and a whole
    game of random play to its end whose legal actions are the engine's."""
    game = pyspiel.load_game(f"python_crapette(rules={rules},move_cap=400,num_deals=5)")
    ruleset = parse_rules_param(rules)
    assert game.num_distinct_actions() == actions == ruleset.action_count
    assert game.observation_tensor_size() == cards * 17 + 28
    assert game.max_utility() == 1.0
    raw = pyspiel.load_game(f"python_crapette(rules={rules},normalize=False)")
    assert raw.max_utility() == reward_scale(ruleset) == ruleset.win_bonus + cards * 2
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    seen_big = False
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(2)
            continue
        legal = state.legal_actions()
        assert max(legal) < actions
        assert legal == legal_actions(state.game_state)
        tensor = np.asarray(state.observation_tensor(state.current_player()))
        assert tensor.shape == (cards * 17 + 28,)
        assert np.array_equal(
            tensor, observation_vector(observe(state.game_state, state.current_player()))
        )
        seen_big = seen_big or max(legal) >= NUM_ACTIONS
        state.apply_action(int(rng.choice(legal)))
    if ruleset.turn_end == "flip":
        assert seen_big  # the flip: a code only the larger table has
    assert sum(state.returns()) == 0.0
    if ruleset.turn_end == "flip":  # the information state shows each flipped card
        record = state.information_state_string(0)
        assert "flip +" in record and "@W" in record
