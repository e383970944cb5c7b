"""The PettingZoo AEC environment, checked with PettingZoo's own test harness."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

import crapette as c
from crapette.adapters.encoding import NUM_ACTIONS, OBSERVATION_SIZE
from crapette.adapters.pettingzoo import AGENTS, env, raw_env, reward_scale
from crapette.cards import TEXT


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("rules", ["classic", "serbian", "pagat"])
def test_api_test_with_a_move_cap(rules: str) -> None:
    api_test(env(rules=rules, max_moves=300), num_cycles=400)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_api_test_over_a_whole_deal() -> None:
    game = env(rules="belarusian")
    api_test(game, num_cycles=5000)


def test_seed_test() -> None:
    seed_test(lambda: env(max_moves=500), num_cycles=300)


def play_random(
    game, seed: int, stop_after: int | None = None
) -> tuple[list[str], dict[str, float]]:
    """Play random legal actions from ``reset(seed=seed)``; returns the agents selected
    and the sum of the rewards each agent received."""
    game.reset(seed=seed)
    for agent in game.possible_agents:
        game.action_space(agent).seed(seed)
    selected = []
    total = {agent: 0.0 for agent in game.possible_agents}
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        selected.append(agent)
        total[agent] += reward
        if termination or truncation:
            game.step(None)
            continue
        game.step(game.action_space(agent).sample(observation["action_mask"]))
        if stop_after is not None and len(selected) >= stop_after:
            break
    return selected, total


def test_reset_seed_deals_new_game_with_that_seed() -> None:
    game = raw_env(rules="serbian")
    game.reset(seed=1234)
    assert game.game_state == c.new_game(c.Ruleset.preset("serbian"), seed=1234)
    assert game.agent_selection == AGENTS[game.game_state.to_act]
    game.reset()
    second = game.game_state
    game.reset(seed=1234)
    game.reset()
    assert game.game_state == second != c.new_game(c.Ruleset.preset("serbian"), seed=1234)


def test_observations_and_masks() -> None:
    game = env()
    game.reset(seed=7)
    state = game.unwrapped.game_state
    to_act = game.agent_selection
    for agent in AGENTS:
        obs = game.observe(agent)
        assert obs["observation"].shape == (OBSERVATION_SIZE,)
        assert game.observation_space(agent).contains(obs)
        if agent == to_act:
            legal = [m.index for m in c.legal_moves(state)]
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        else:
            assert obs["action_mask"].sum() == 0
            assert obs["action_mask"].shape == (NUM_ACTIONS,)


def test_a_player_acts_several_times_in_a_row() -> None:
    selected, _ = play_random(env(), seed=3, stop_after=200)
    assert any(a == b for a, b in itertools.pairwise(selected))
    assert set(selected) == set(AGENTS)


def test_final_rewards_are_zero_sum_scaled_score_differences() -> None:
    game = env(rules="classic")
    _, total = play_random(game, seed=5)
    raw = game.unwrapped
    result = c.outcome(raw.game_state)
    assert result is not None and result.reason == "win"
    expected = (result.scores[0] - result.scores[1]) / reward_scale(raw.rules)
    assert total == {"player_0": expected, "player_1": -expected}
    assert -1 <= expected <= 1 and expected != 0
    assert not game.agents  # both agents are done


def test_the_move_cap_truncates() -> None:
    game = raw_env(max_moves=40, normalize=False)
    game.reset(seed=2)
    truncated = False
    while game.agents:
        agent = game.agent_selection
        observation, _, termination, truncation, info = game.last()
        if termination or truncation:
            assert truncation and not termination
            assert info["reason"] == "move_cap"
            truncated = True
            game.step(None)
            continue
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert agent in AGENTS
    assert truncated
    assert game.game_state.moves_made == 40


def test_illegal_actions() -> None:
    game = raw_env()
    game.reset(seed=4)
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(c.IllegalMoveError):
        game.step(illegal)
    wrapped = env()
    wrapped.reset(seed=4)
    offender = wrapped.agent_selection
    wrapped.step(illegal)
    assert wrapped.terminations[offender]
    assert wrapped.rewards[offender] == -1


def test_render_shows_only_visible_cards(capsys: pytest.CaptureFixture[str]) -> None:
    game = env(render_mode="ansi")
    game.reset(seed=9)
    text = game.render()
    assert isinstance(text, str) and "player_0" in text
    state = game.unwrapped.game_state
    words = set(text.replace("|", " ").split())
    hidden = [*state.hands[0], *state.hands[1]]
    for p in (0, 1):
        hidden.extend(state.reserves[p][: len(state.reserves[p]) - state.reserve_up[p]])
    assert not words & {TEXT[card] for card in hidden}
    assert TEXT[state.reserves[0][-1]] in words
    human = env(render_mode="human")
    human.reset(seed=9)
    human.step(int(np.flatnonzero(human.observe(human.agent_selection)["action_mask"])[0]))
    assert "move 1" in capsys.readouterr().out


def test_bad_arguments() -> None:
    with pytest.raises(c.InvalidRulesError):
        env(rules="nonsense")
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="rgb_array")  # type: ignore[arg-type]


def test_using_the_raw_environment_before_reset_is_a_library_error() -> None:
    from crapette.errors import AdapterError

    game = raw_env()
    for use in (lambda: game.observe("player_0"), lambda: game.view("player_1"), game.render):
        game.render_mode = "ansi"
        with pytest.raises(AdapterError, match=r"call reset\(\)") as info:
            use()
        assert isinstance(info.value, c.CrapetteError) and isinstance(info.value, RuntimeError)


def test_there_is_no_parallel_api_and_pettingzoo_agrees() -> None:
    """One agent acts at a time, often many times in a row: PettingZoo's own conversion to
    the parallel API refuses the environment (docs/adapters.md says why)."""
    from pettingzoo.utils.conversions import aec_to_parallel

    game = raw_env()
    assert game.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(game)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    ("rules", "actions", "cards"),
    [("tarot(pack=tarot78)", 1296, 156), ("bobcrapette", 1240, 154)],
)
def test_larger_packs(rules: str, actions: int, cards: int) -> None:
    """A tarot78 and a Bobcrapette environment: spaces sized by the ruleset, PettingZoo's
    own harness, and a whole deal of random play with masks of the engine's legal moves."""
    game = env(rules=rules, max_moves=400)
    for agent in AGENTS:
        assert game.action_space(agent).n == actions
        space = game.observation_space(agent)
        assert space["observation"].shape == (cards * 17 + 28,)
        assert space["action_mask"].shape == (actions,)
    api_test(env(rules=rules, max_moves=300), num_cycles=400)
    game.reset(seed=2)
    raw = game.unwrapped
    for agent in AGENTS:
        game.action_space(agent).seed(2)
    played = 0
    for agent in game.agent_iter():
        observation, _, termination, truncation, _ = game.last()
        if termination or truncation:
            game.step(None)
            continue
        assert game.observation_space(agent).contains(observation)
        legal = [m.index for m in c.legal_moves(raw.game_state)]
        assert np.flatnonzero(observation["action_mask"]).tolist() == legal
        game.step(game.action_space(agent).sample(observation["action_mask"]))
        played += 1
    assert c.is_over(raw.game_state) and played == raw.game_state.moves_made
