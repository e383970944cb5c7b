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
    play_deal,
)
from crapette.bots.search import MAX_BUDGET
from crapette.views import PlayerView, observe
from test_errors import MESSAGE_LIMIT


def _play(rules: c.Ruleset, bots: tuple[Bot, Bot], seed: int) -> list[c.Move]:
    """A deal between two bots through the one game loop (which checks every move); the
    moves played, each checked again with ``apply``."""
    played: list[c.Move] = []

    def check(before: c.GameState, move: c.Move, after: c.GameState) -> None:
        assert c.apply(before, move) == after, (str(move), seed)
        played.append(move)

    end = play_deal(c.new_game(rules, seed=seed), bots, on_move=check)
    assert c.is_over(end) and len(played) == end.moves_made
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

    def watch(before: c.GameState, move: c.Move, _after: c.GameState) -> None:
        nonlocal calls
        stop = before.stop
        if stop is not None and before.to_act == 1 and stop.resume == stop.offender:
            assert move == c.CALL_STOP
            calls += 1

    for seed in range(3):
        play_deal(c.new_game(rules, seed=seed), (RandomBot(seed), GreedyBot(seed)), on_move=watch)
    assert calls > 0


def test_greedy_never_violates_under_callable_stop() -> None:
    for preset in ("pagat", "serbian"):
        rules = c.Ruleset.preset(preset).replace(move_cap=400)
        end = play_deal(
            c.new_game(rules, seed=5),
            (GreedyBot(1), GreedyBot(2)),
            on_move=lambda _b, _m, after: after.stop is not None,  # stop at a violation
        )
        assert end.stop is None and c.is_over(end)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_are_reproducible(name: str) -> None:
    rules = c.Ruleset().replace(move_cap=40 if name in ("search", "planner") else 200)
    spec = f"{name}:512" if name == "planner" else name  # the default budget is slow in Python
    runs = [_play(rules, (get_bot(spec, 7), get_bot(spec, 8)), 11) for _ in range(2)]
    assert runs[0] == runs[1]


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(4):
        bots: tuple[Bot, Bot] = (
            (GreedyBot(seed), RandomBot(seed))
            if seed % 2 == 0
            else (RandomBot(seed), GreedyBot(seed))
        )
        result = c.outcome(play_deal(c.new_game(seed=seed), bots))
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
    state = play_deal(c.new_game(seed=21), (GreedyBot(0), GreedyBot(0)), max_moves=30)
    assert state.moves_made == 30
    view = observe(state, state.to_act)
    for budget in (1, 8, 32):
        a = SearchBot(3, budget=budget).choose(view)
        assert a in view.legal_moves()
        assert a == SearchBot(3, budget=budget).choose(view)


@pytest.mark.parametrize("base", [RandomBot, GreedyBot, SearchBot])
def test_a_subclass_names_itself_with_a_class_attribute(base: type[Bot]) -> None:
    """docs/bots.md: ``class Cautious(GreedyBot): name = "cautious"`` plays as "cautious"
    (the shipped bots used to set ``self.name`` in ``__init__``, hiding the subclass's)."""
    from crapette.simulation import simulate

    named = type("Cautious", (base,), {"name": "cautious"})
    assert named().name == "cautious" and base().name == base.name
    result = simulate("classic(move_cap=60)", (named, "random"), games=2, seed=1)
    assert result.bots == ("cautious", "random")


@pytest.mark.parametrize("option", ["9" * 5000, str(MAX_BUDGET + 1), "0", "٣", "+5", " 5"])
def test_search_budget_is_capped(option: str) -> None:
    with pytest.raises(c.CrapetteError, match="search budget") as info:
        get_bot("search:" + option)
    assert len(str(info.value)) < MESSAGE_LIMIT
    assert get_bot(f"search:{MAX_BUDGET}").budget == MAX_BUDGET  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="budget"):
        SearchBot(budget=MAX_BUDGET + 1)
