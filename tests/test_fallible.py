"""Fallible players: the bot-string syntax, the player model, and what it changes."""

from __future__ import annotations

import pytest

import crapette as c
from crapette.bots import (
    MISS_KINDS,
    Bot,
    Fallible,
    GreedyBot,
    RandomBot,
    SearchBot,
    UnknownBotError,
    get_bot,
    parse_bot,
    stop_decision,
)
from crapette.bots.fallible import miss_kind
from crapette.simulation import simulate
from crapette.views import observe

_REASON_WORDS = {
    "reserve": "your reserve top",
    "foundation": "a foundation move",
    "order": "the tableau comes before loading",
    "filling": "fill",
}


def _deal(rules: c.Ruleset, bots: tuple[Bot, Bot], seed: int) -> list[tuple[c.GameState, c.Move]]:
    """A deal between two bots, checking every move: (position, move) pairs."""
    state = c.new_game(rules, seed=seed)
    played = []
    while not c.is_over(state):
        p = state.to_act
        move = bots[p].choose(observe(state, p))
        assert move in c.legal_moves(state), (bots[p].name, str(move), seed)
        played.append((state, move))
        state = c.apply(state, move)
    return played


def test_bot_strings() -> None:
    bot = get_bot("greedy:miss=0.1:call=0.8", 3)
    assert isinstance(bot, Fallible) and isinstance(bot.bot, GreedyBot)
    assert bot.miss == dict.fromkeys(MISS_KINDS, 0.1)
    assert bot.call == 0.8 and bot.false_call == 0.0
    assert bot.name == "greedy:miss=0.1:call=0.8"
    assert isinstance(bot, Bot)
    search = get_bot("search:12:miss=0.05", 3)
    assert isinstance(search, Fallible) and isinstance(search.bot, SearchBot)
    assert search.bot.budget == 12 and search.name == "search:12:miss=0.05"
    one = get_bot("random:miss=0.2:miss_filling=1:call=0", 1)
    assert isinstance(one, Fallible) and isinstance(one.bot, RandomBot)
    assert one.miss == {"reserve": 0.2, "foundation": 0.2, "order": 0.2, "filling": 1.0}
    assert one.call == 0.0
    assert str(parse_bot(" greedy:miss=1 ")) == "greedy:miss=1"
    assert not isinstance(get_bot("greedy", 1), Fallible)


def test_name_reads_back_as_the_same_player() -> None:
    bot = Fallible(GreedyBot(2), miss=0.25, miss_order=0.5, call=0.75)
    again = get_bot(bot.name, 2)
    assert isinstance(again, Fallible)
    assert (again.miss, again.call) == (bot.miss, bot.call)
    assert Fallible(GreedyBot(2)).name == "greedy"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("greedy:mis=0.1", "unknown parameter 'mis'; expected one of miss, miss_reserve"),
        ("greedy:miss=1.5", r"miss='1.5' is not a probability"),
        ("greedy:call=-0.1", r"call='-0.1' is not a probability"),
        ("greedy:miss=x", "not a probability"),
        ("greedy:miss=nan", "not a probability"),
        ("greedy:miss=0.1:miss=0.2", "given twice"),
        ("search:miss=0.1:64", "argument '64' after a parameter"),
        ("greedy:false_call=2", r"false_call='2' is not a probability"),
        ("greedy:3", "greedy takes no arguments"),
        ("search:0:miss=0.1", "an integer from 1 to"),
        ("alphazero:miss=0.1", "unknown bot 'alphazero'.*random, greedy, search"),
        ("greedy::miss=0.1", "empty option"),
        ("greedy:miss=0.1_0", "not a probability"),
        ("greedy:miss=\u0661", "not a probability"),  # an Arabic-Indic digit one
        ("greedy:call=1e-1", "not a probability"),
        ("greedy:call=nan", "not a probability"),
        ("greedy:miss=", "not a probability"),
    ],
)
def test_bad_bot_strings(text: str, match: str) -> None:
    with pytest.raises(UnknownBotError, match=match) as info:
        get_bot(text, 0)
    assert isinstance(info.value, ValueError) and isinstance(info.value, c.CrapetteError)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"miss": 1.5},
        {"miss": -0.01},
        {"call": 2},
        {"miss": True},
        {"miss": "0.1"},
        {"miss_filling": 1.1},
        {"false_call": 1.5},
    ],
)
def test_bad_parameters(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Fallible(GreedyBot(0), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["classic", "g4a", "belarusian"])
def test_no_miss_under_enforced_stop(preset: str) -> None:
    # Under stop=enforced no violating move is legal: a fallible player plays exactly as
    # the bot it wraps, however often it would miss.
    rules = c.Ruleset.preset(preset).replace(move_cap=400)
    plain = _deal(rules, (GreedyBot(1), GreedyBot(2)), 4)
    fallible = _deal(
        rules, (Fallible(GreedyBot(1), miss=1.0, call=0.0), Fallible(GreedyBot(2), miss=1)), 4
    )
    assert [m for _, m in plain] == [m for _, m in fallible]


def test_perfect_fallible_player_is_the_bot() -> None:
    rules = c.Ruleset.preset("pagat").replace(move_cap=400)
    plain = _deal(rules, (GreedyBot(1), GreedyBot(2)), 5)
    wrapped = _deal(rules, (Fallible(GreedyBot(1), call=0.3), Fallible(GreedyBot(2))), 5)
    assert [m for _, m in plain] == [m for _, m in wrapped]


@pytest.mark.parametrize(
    "rules",
    [
        "pagat",
        "serbian",
        "pagat(house_filling=immediate)",
        "serbian(house_filling=before_hand)",
        "serbian(house_filling=immediate,priority=pagat)",
    ],
)
def test_miss_kinds_name_the_broken_rule(rules: str) -> None:
    # Every violation a careless player makes is classified as the first rule it breaks,
    # the one the engine's reason names.
    ruleset = c.Ruleset.from_string(rules).replace(move_cap=500)
    seen = set()
    for seed in range(2):
        bots = (Fallible(GreedyBot(seed), miss=0.5, seed=seed), RandomBot(seed))
        for state, move in _deal(ruleset, bots, seed):
            if state.stop is not None:
                continue
            view = observe(state, state.to_act)
            moves = view.legal_moves()
            kind = miss_kind(view, moves, move)
            reason = view.breaks_priority(move)
            assert (kind is None) == (reason is None)
            if kind is not None:
                assert reason is not None and _REASON_WORDS[kind] in reason, (kind, reason)
                seen.add(kind)
    assert seen


def test_each_kind_is_missed_alone() -> None:
    rules = c.Ruleset.preset("serbian").replace(move_cap=800, house_filling="before_hand")
    for kind in MISS_KINDS:
        bot = Fallible(GreedyBot(3), **{f"miss_{kind}": 1.0})  # type: ignore[arg-type]
        kinds = set()
        for state, move in _deal(rules, (bot, GreedyBot(4)), 2):
            if state.to_act == 0 and state.stop is None:
                view = observe(state, 0)
                found = miss_kind(view, view.legal_moves(), move)
                if found is not None:
                    kinds.add(found)
        assert kinds <= {kind}
        if kind != "reserve":  # serbian priority has no reserve-first rule
            assert kinds == {kind}, kind


def test_call_is_the_chance_of_noticing() -> None:
    rules = c.Ruleset.preset("pagat").replace(move_cap=600)
    careless = Fallible(GreedyBot(1), miss=0.5)
    for call, expect in ((0.0, "let"), (1.0, "default")):
        watcher = Fallible(GreedyBot(2), call=call)
        decisions = 0
        for state, move in _deal(rules, (careless, watcher), 3):
            if state.stop is not None:
                decisions += 1
                view = observe(state, 1)
                if expect == "let":
                    assert move == c.LET_STAND
                else:
                    assert move == stop_decision(view)
        assert decisions > 3


def test_fallible_players_are_reproducible() -> None:
    rules = c.Ruleset.preset("serbian").replace(move_cap=500)
    runs = [
        _deal(rules, (get_bot("greedy:miss=0.3:call=0.5", 7), get_bot("random:call=0.5", 8)), 9)
        for _ in range(2)
    ]
    assert [m for _, m in runs[0]] == [m for _, m in runs[1]]
    a = simulate("pagat", "greedy:miss=0.2:call=0.7,greedy", games=4, seed=5)
    b = simulate("pagat", "greedy:miss=0.2:call=0.7,greedy", games=4, seed=5)
    assert a.records == b.records


def test_callable_stop_rules_now_differ() -> None:
    # Perfect greedy players give classic and pagat the same deals; fallible ones do not.
    bots = "greedy:miss=0.2:call=0.8,greedy:miss=0.2:call=0.8"
    plain = [simulate(r, "greedy,greedy", games=4, seed=2).records for r in ("classic", "pagat")]
    assert [(d.winner, d.moves) for d in plain[0]] == [(d.winner, d.moves) for d in plain[1]]
    classic = simulate("classic", bots, games=4, seed=2).records
    pagat = simulate("pagat", bots, games=4, seed=2).records
    assert [(d.winner, d.moves) for d in classic] == [(d.winner, d.moves) for d in plain[0]]
    assert [(d.winner, d.moves) for d in classic] != [(d.winner, d.moves) for d in pagat]
