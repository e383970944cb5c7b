"""Bots as plug-ins: the registry, the optional hooks, the view's public questions and the
default Stop! decision."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import crapette as c
from crapette.bots import (
    Fallible,
    GreedyBot,
    RandomBot,
    UnknownBotError,
    bot_names,
    get_bot,
    parse_bot,
    register_bot,
    stop_decision,
    unregister_bot,
)
from crapette.bots.registry import BotSpec
from crapette.moves import ALL_MOVES
from crapette.simulation import simulate
from crapette.views import PlayerView, observe


class Recorder:
    """A greedy player that records the hooks it receives."""

    def __init__(self, seed: int = 0, tag: str = "") -> None:
        self.name = "recorder"
        self.seed = seed
        self.tag = tag
        self._greedy = GreedyBot(seed)
        self.starts: list[PlayerView] = []
        self.seen: list[tuple[c.Move, PlayerView]] = []
        self.chosen = 0

    def on_deal_start(self, view: PlayerView) -> None:
        self.starts.append(view)

    def on_opponent_move(self, move: c.Move, view: PlayerView) -> None:
        self.seen.append((move, view))

    def choose(self, view: PlayerView) -> c.Move:
        self.chosen += 1
        return self._greedy.choose(view)


@pytest.fixture
def recorders() -> Iterator[list[Recorder]]:
    made: list[Recorder] = []

    def factory(seed: int, tag: str = "") -> Recorder:
        bot = Recorder(seed, tag)
        made.append(bot)
        return bot

    register_bot("recorder", factory, summary="records its hooks")
    try:
        yield made
    finally:
        unregister_bot("recorder")


def test_register_and_build(recorders: list[Recorder]) -> None:
    assert bot_names()[:3] == ("random", "greedy", "search")
    assert "recorder" in bot_names()
    bot = get_bot("recorder:blue", 5)
    assert isinstance(bot, Recorder) and (bot.seed, bot.tag) == (5, "blue")
    wrapped = get_bot("recorder:blue:miss=0.5", 5)
    assert isinstance(wrapped, Fallible) and isinstance(wrapped.bot, Recorder)
    assert wrapped.name == "recorder:blue:miss=0.5"
    with pytest.raises(UnknownBotError, match="recorder takes fewer arguments"):
        get_bot("recorder:a:b", 1)
    with pytest.raises(ValueError, match="already registered"):
        register_bot("recorder", Recorder)
    register_bot("recorder", Recorder, replace=True)
    assert type(get_bot("recorder", 1)) is Recorder


def test_unregistered_names_fail() -> None:
    unregister_bot("nobody")  # a no-op
    with pytest.raises(UnknownBotError, match="unknown bot 'nobody'"):
        get_bot("nobody")
    for bad in ("Bad", "a b", "x:y", "a,b", "", "9lives"):
        with pytest.raises(ValueError, match="bad bot name"):
            register_bot(bad, GreedyBot)
    with pytest.raises(ValueError, match="not callable"):
        register_bot("thing", 3)  # type: ignore[arg-type]


def test_parse_bot() -> None:
    assert parse_bot("search:64:miss=0.25:call=0.5") == BotSpec(
        "search", ("64",), (("miss", 0.25), ("call", 0.5))
    )
    assert str(parse_bot("greedy:call=1.0")) == "greedy:call=1"
    with pytest.raises(UnknownBotError, match="must be a str"):
        parse_bot(3)  # type: ignore[arg-type]


def test_simulate_calls_the_hooks(recorders: list[Recorder]) -> None:
    result = simulate("pagat", "recorder,recorder:miss=0.3", games=2, seed=3)
    players = [bot for bot in recorders if bot.chosen]  # (the names are checked first)
    assert len(players) == 4  # two bots per deal, rebuilt for every deal
    for bot in players:
        assert len(bot.starts) == 1 and bot.starts[0].moves_made == 0
        assert bot.seen, "the opponent moved"
        for move, view in bot.seen:
            assert view.player == bot.starts[0].player
            assert move in ALL_MOVES
    # Every move is seen by exactly one bot: the one that did not make it.
    for deal, pair in zip(result.records, (players[0:2], players[2:4]), strict=True):
        assert sum(len(bot.seen) for bot in pair) == deal.moves


def test_hooks_are_optional() -> None:
    assert not hasattr(GreedyBot(0), "on_opponent_move")
    assert not hasattr(Fallible(GreedyBot(0)), "on_opponent_move")
    rec = Recorder()
    wrapped = Fallible(rec)
    view = observe(c.new_game(seed=1), 0)
    wrapped.on_deal_start(view)  # type: ignore[attr-defined]
    assert rec.starts == [view]


def _positions(rules: str, seeds: int = 2, cap: int = 300) -> Iterator[c.GameState]:
    ruleset = c.Ruleset.from_string(rules).replace(move_cap=cap)
    for seed in range(seeds):
        bots = (Fallible(GreedyBot(seed), miss=0.3), RandomBot(seed))
        state = c.new_game(ruleset, seed=seed)
        while not c.is_over(state):
            yield state
            state = c.apply(state, bots[state.to_act].choose(observe(state, state.to_act)))


@pytest.mark.parametrize("rules", ["pagat", "serbian", "pagat(house_filling=immediate)"])
def test_breaks_priority_is_what_enforced_rules_forbid(rules: str) -> None:
    found = 0
    for state in _positions(rules):
        if state.stop is not None:
            continue
        enforced = c.legal_moves(state.replace(rules=state.rules.replace(stop="enforced")))
        view = observe(state, state.to_act)
        for move in view.legal_moves():
            broken = view.breaks_priority(move)
            assert (broken is None) == (move in enforced), (str(move), broken)
            found += broken is not None
    assert found


@pytest.mark.parametrize("rules", ["classic", "serbian", "pagat"])
def test_after_is_the_view_after_the_move(rules: str) -> None:
    checked = hidden = 0
    for state in _positions(rules, seeds=1):
        p = state.to_act
        view = observe(state, p)
        for move in view.legal_moves():
            try:
                after = view.after(move)
            except ValueError:
                hidden += 1
                continue
            assert after == observe(c.apply(state, move), p)
            checked += 1
    assert checked > 100 and hidden > 10


def test_after_refuses() -> None:
    state = next(s for s in _positions("classic") if c.DRAW in c.legal_moves(s))
    view = observe(state, state.to_act)
    with pytest.raises(ValueError, match="hidden cards"):
        view.after(c.DRAW)
    with pytest.raises(c.IllegalMoveError, match="not a legal move"):
        view.after(c.DISCARD)
    with pytest.raises(ValueError, match="not to act"):
        observe(state, 1 - state.to_act).after(view.legal_moves()[0])


def test_stop_decision_is_the_greedy_rule() -> None:
    decisions = 0
    for state in _positions("pagat", seeds=3, cap=600):
        if state.stop is None:
            continue
        view = observe(state, state.to_act)
        assert stop_decision(view) == GreedyBot(0).choose(view)
        decisions += 1
    assert decisions
    with pytest.raises(ValueError, match="no Stop! decision"):
        stop_decision(observe(c.new_game(seed=1), 0))
