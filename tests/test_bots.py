"""Bots: legal moves only, reproducible, no access to hidden cards, and the registry."""

from __future__ import annotations

import inspect

import pytest

import crapette as c
from crapette.bots import (
    BOT_NAMES,
    Bot,
    GreedyBot,
    RandomBot,
    SearchBot,
    UnknownBotError,
    get_bot,
)
from crapette.views import PlayerView, observe


def _play(rules: c.Ruleset, bots: tuple[Bot, Bot], seed: int) -> list[c.Move]:
    """A deal between two bots, checking every move; the moves played."""
    state = c.new_game(rules, seed=seed)
    played = []
    while not c.is_over(state):
        p = state.to_act
        move = bots[p].choose(observe(state, p))
        assert move in c.legal_moves(state), (bots[p].name, str(move), seed)
        played.append(move)
        state = c.apply(state, move)
    return played


@pytest.mark.parametrize("preset", sorted(c.PRESETS))
@pytest.mark.parametrize("names", [("random", "greedy"), ("greedy", "greedy")])
def test_bots_play_only_legal_moves(preset: str, names: tuple[str, str]) -> None:
    rules = c.Ruleset.preset(preset).replace(move_cap=300)
    for seed in range(2):
        bots = (get_bot(names[0], seed), get_bot(names[1], seed + 1))
        assert _play(rules, bots, seed)


@pytest.mark.parametrize("preset", sorted(c.PRESETS))
def test_search_bot_plays_only_legal_moves(preset: str) -> None:
    rules = c.Ruleset.preset(preset).replace(move_cap=60)
    assert _play(rules, (SearchBot(1, budget=4), GreedyBot(2)), 3)


def test_greedy_calls_stop_when_it_helps() -> None:
    rules = c.Ruleset.preset("pagat").replace(move_cap=2000)
    calls = 0
    for seed in range(3):
        state = c.new_game(rules, seed=seed)
        bots = (RandomBot(seed), GreedyBot(seed))
        while not c.is_over(state):
            p = state.to_act
            move = bots[p].choose(observe(state, p))
            if state.stop is not None and p == 1 and state.stop.resume == state.stop.offender:
                assert move == c.CALL_STOP
                calls += 1
            state = c.apply(state, move)
    assert calls > 0


def test_greedy_never_violates_under_callable_stop() -> None:
    for preset in ("pagat", "serbian"):
        rules = c.Ruleset.preset(preset).replace(move_cap=400)
        state = c.new_game(rules, seed=5)
        bots = (GreedyBot(1), GreedyBot(2))
        while not c.is_over(state):
            state = c.apply(state, bots[state.to_act].choose(observe(state, state.to_act)))
            assert state.stop is None


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_are_reproducible(name: str) -> None:
    rules = c.Ruleset().replace(move_cap=40 if name in ("search", "planner") else 200)
    runs = [_play(rules, (get_bot(name, 7), get_bot(name, 8)), 11) for _ in range(2)]
    assert runs[0] == runs[1]


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(4):
        state = c.new_game(seed=seed)
        bots = (
            (GreedyBot(seed), RandomBot(seed))
            if seed % 2 == 0
            else (RandomBot(seed), GreedyBot(seed))
        )
        while not c.is_over(state):
            state = c.apply_unchecked(
                state, bots[state.to_act].choose(observe(state, state.to_act))
            )
        result = c.outcome(state)
        assert result is not None
        wins += result.winner == seed % 2
    assert wins == 4


def test_bot_input_is_a_view() -> None:
    for cls in (RandomBot, GreedyBot, SearchBot):
        hints = inspect.signature(cls.choose).parameters["view"].annotation
        assert hints in ("PlayerView", PlayerView)
        assert isinstance(cls(0), Bot)


def test_get_bot() -> None:
    assert isinstance(get_bot("random", 1), RandomBot)
    assert isinstance(get_bot("greedy", 1), GreedyBot)
    bot = get_bot("search:12", 1)
    assert isinstance(bot, SearchBot) and bot.budget == 12
    with pytest.raises(UnknownBotError, match="random, greedy, search"):
        get_bot("alphazero", 1)
    with pytest.raises(UnknownBotError, match="an integer from 1 to"):
        get_bot("search:0", 1)
    with pytest.raises(c.CrapetteError):
        get_bot("greedy:3", 1)
    with pytest.raises(ValueError, match="budget"):
        SearchBot(1, budget=0)


def test_search_bot_answers_at_any_budget() -> None:
    # The search bot answers a legal move at every budget, the same one for the same seed.
    state = c.new_game(seed=21)
    for _ in range(30):
        state = c.apply(state, GreedyBot(0).choose(observe(state, state.to_act)))
    view = observe(state, state.to_act)
    for budget in (1, 8, 32):
        a = SearchBot(3, budget=budget).choose(view)
        assert a in view.legal_moves()
        assert a == SearchBot(3, budget=budget).choose(view)
