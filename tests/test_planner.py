"""The planner bot: legal, reproducible, configurable by bot string, stronger than greedy."""

from __future__ import annotations

import pytest

import crapette as c
from crapette.bots import Bot, GreedyBot, PlannerBot, UnknownBotError, get_bot
from crapette.bots.search import candidates
from crapette.views import observe


def _deal(rules: c.Ruleset, bots: tuple[Bot, Bot], seed: int) -> list[c.Move]:
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
def test_planner_plays_only_legal_moves(preset: str) -> None:
    rules = c.Ruleset.preset(preset).replace(move_cap=80)
    assert _deal(rules, (PlannerBot(1, budget=6), GreedyBot(2)), 3)


def test_planner_is_reproducible() -> None:
    rules = c.Ruleset().replace(move_cap=120)
    runs = [_deal(rules, (get_bot("planner:8", 4), GreedyBot(5)), 6) for _ in range(2)]
    assert runs[0] == runs[1]


def test_planner_bot_strings() -> None:
    bot = get_bot("planner", 1)
    assert isinstance(bot, PlannerBot) and bot.budget == 128
    assert get_bot("planner:16", 1).budget == 16  # type: ignore[attr-defined]
    with pytest.raises(UnknownBotError, match="bad planner budget '0'"):
        get_bot("planner:0")
    with pytest.raises(ValueError, match="budget"):
        PlannerBot(budget=0)
    with pytest.raises(ValueError, match="width"):
        PlannerBot(width=1)


def test_candidates_keep_the_greedy_choice_first() -> None:
    state = c.new_game(seed=8)
    for _ in range(40):
        moves = c.legal_moves(state)
        if c.is_over(state):
            break
        if state.stop is None:
            kept = candidates(state, moves, 3)
            assert 1 <= len(kept) <= 3 and set(kept) <= set(moves)
        state = c.apply(state, GreedyBot(0).choose(observe(state, state.to_act)))
