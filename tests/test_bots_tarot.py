"""The bots under the tarot packs and Bobcrapette's table rules: whole deals to the end, the
call at the start of a turn, the fallible players' missed and false calls, the draw.

The views of this branch do not carry ``fault``/``window``/``false_calls`` yet (another
branch adds them to ``PlayerView``); the bots read ``view.fault``. ``_table_view`` gives a
view that carries them (the view of the merged branch does it itself), so the call tests
run the bots as they will run then.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import crapette as c
from crapette.bots import Bot, Fallible, GreedyBot, PlannerBot, RandomBot, SearchBot, play_deal
from crapette.bots.base import fault_seen, turn_start_call
from crapette.bots.planner import HandMemory
from crapette.bots.search import evaluate
from crapette.deal import Rng
from crapette.views import PlayerView, observe

BOB = c.Ruleset.preset("bobcrapette")
RULESETS = {
    "tarot": c.Ruleset.preset("tarot"),
    "bobcrapette": BOB,
    "tarot78": c.Ruleset.preset("tarot").replace(pack="tarot78"),
    "bobcrapette78": BOB.replace(pack="tarot78"),
}

if "fault" in attrs.fields_dict(PlayerView):  # pragma: no cover - the merged views

    def _table_view(state: c.GameState, p: int) -> PlayerView:
        return observe(state, p)

else:

    @attrs.frozen(slots=True, cache_hash=True)
    class _TableView(PlayerView):
        """A view with the table fields the merged ``PlayerView`` carries."""

        fault: object = None
        window: bool = False
        false_calls: tuple[int, ...] = (0, 0)

    def _table_view(state: c.GameState, p: int) -> PlayerView:
        view = observe(state, p)
        fields: dict[str, Any] = {f.alias: getattr(view, f.name) for f in attrs.fields(PlayerView)}
        fields["legal"] = c.legal_moves(state)
        return _TableView(
            **fields, fault=state.fault, window=state.window, false_calls=state.false_calls
        )


def _table_deal(
    rules: c.Ruleset,
    bots: tuple[Bot, Bot],
    seed: int,
    watch: Callable[[c.GameState, c.Move], None] | None = None,
) -> c.GameState:
    """A whole deal between two bots that see the table fields, every move checked."""
    state = c.new_game(rules, seed=seed)
    while not c.is_over(state):
        p = state.to_act
        move = bots[p].choose(_table_view(state, p))
        assert move in c.legal_moves(state), (str(move), seed)
        if watch is not None:
            watch(state, move)
        state = c.apply(state, move)
    return state


def _bots(name: str, seed: int) -> Bot:
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "search":
        return SearchBot(seed, budget=4)
    if name == "planner":
        return PlannerBot(seed, budget=8, nodes=20)
    return Fallible(GreedyBot(seed), miss=0.2, call=0.5, false_call=0.2, seed=seed)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("name", ["random", "greedy", "search", "planner", "fallible"])
def test_each_bot_plays_whole_deals(ruleset: str, name: str) -> None:
    """Every bot plays whole deals of every new ruleset through the one game loop, every
    move checked by ``apply``; the deal ends."""
    rules = RULESETS[ruleset]
    if name in ("search", "planner"):
        rules = rules.replace(move_cap=1200)  # a long deal still ends; the bots play slowly
    played = 0

    def check(before: c.GameState, move: c.Move, after: c.GameState) -> None:
        nonlocal played
        assert c.apply(before, move) == after, str(move)
        played += 1

    end = play_deal(c.new_game(rules, seed=3), (_bots(name, 1), GreedyBot(2)), on_move=check)
    assert c.is_over(end) and played == end.moves_made
    outcome = c.outcome(end)
    assert outcome is not None
    if outcome.winner is None and rules.blocked == "draw":
        assert outcome.scores == (0, 0)


@pytest.mark.parametrize("name", ["greedy", "search", "planner", "fallible"])
def test_bots_with_table_views_play_bobcrapette_to_the_end(name: str) -> None:
    """With views that show the fault, every bot plays a whole Bobcrapette deal against a
    careless player and calls every fault it sees (the fallible one: some of them)."""
    careless = Fallible(GreedyBot(5), miss=1.0, seed=5)
    faults = calls = false = 0

    def watch(state: c.GameState, move: c.Move) -> None:
        nonlocal faults, calls, false
        if state.to_act != 0 or not state.window:
            return
        if state.fault is not None:
            faults += 1
            calls += move == c.CALL_STOP
        elif move == c.CALL_STOP:
            false += 1

    # A player who always misses may flip over its reserve top forever: capped.
    end = _table_deal(BOB.replace(move_cap=1500), (_bots(name, 1), careless), 4, watch)
    assert c.is_over(end)
    assert faults > 0
    if name == "fallible":
        assert 0 < calls < faults or faults == 1
    else:
        assert calls == faults and false == 0


def _position_with_fault() -> c.GameState:
    """The first position of a Bobcrapette deal where player 0 may call a fault."""
    careless = Fallible(GreedyBot(7), miss=1.0, seed=7)
    state = c.new_game(BOB, seed=11)
    bots: tuple[Bot, Bot] = (GreedyBot(1), careless)
    while not (state.fault is not None and state.to_act == 0):
        assert not c.is_over(state)
        p = state.to_act
        view = observe(state, p)
        move = bots[p].choose(view) if p == 1 else _play_on(state)
        state = c.apply(state, move)
    return state


def _play_on(state: c.GameState) -> c.Move:
    """Player 0's greedy move without calling (the test wants the fault still open)."""
    moves = tuple(m for m in c.legal_moves(state) if m != c.CALL_STOP)
    return GreedyBot(0).choose(observe(state, 0)) if len(moves) > 1 else moves[0]


def test_every_bot_calls_a_fault_at_the_start_of_its_turn() -> None:
    state = _position_with_fault()
    assert state.window and c.CALL_STOP in c.legal_moves(state)
    view = _table_view(state, 0)
    assert fault_seen(view) and turn_start_call(view)
    for bot in (GreedyBot(1), SearchBot(1, budget=8), PlannerBot(1, budget=16)):
        assert bot.choose(view) == c.CALL_STOP, bot.name
    # The rollouts' greedy player sees the whole state: it calls too, in either engine.
    assert c.legal_moves(state)  # (the state is a position of play)
    from crapette.bots.greedy import greedy_move

    assert greedy_move(state, Rng(0)) == c.CALL_STOP
    # A view that shows no fault: nobody calls.
    plain = attrs.evolve(observe(state, 0), fault=None)
    assert not fault_seen(plain)
    for bot in (GreedyBot(1), SearchBot(1, budget=8), PlannerBot(1, budget=16)):
        assert bot.choose(plain) != c.CALL_STOP, bot.name


def test_no_bot_calls_without_a_fault() -> None:
    """At the start of every turn of a deal between careful players the call is legal and
    no fault is pending: no bot calls, under any false-call penalty."""
    for penalty in ("lose_turn", "none", "rationed"):
        rules = BOB.replace(false_call=penalty, move_cap=300)
        windows = 0

        def watch(state: c.GameState, move: c.Move) -> None:
            nonlocal windows
            assert state.fault is None and move != c.CALL_STOP
            windows += state.window

        _table_deal(rules, (GreedyBot(1), GreedyBot(2)), 1, watch)
        assert windows > 10


def _binomial_ok(hits: int, trials: int, p: float) -> bool:
    """Whether ``hits`` of ``trials`` is within 4.5 standard deviations of ``p``."""
    sd = math.sqrt(trials * p * (1 - p))
    return abs(hits - trials * p) <= 4.5 * sd + 1


@pytest.mark.parametrize("penalty", ["lose_turn", "none", "rationed"])
def test_fallible_false_call_rate(penalty: str) -> None:
    """A fallible player calls at the start of a faultless turn with its ``false_call``
    chance; under ``rationed`` never more than 3 times a deal."""
    rules = BOB.replace(false_call=penalty)
    chance = 0.25
    windows = false = 0
    for seed in range(3):
        per_deal = 0

        def watch(state: c.GameState, move: c.Move) -> None:
            nonlocal windows, false, per_deal
            if state.to_act != 0 or not state.window or state.fault is not None:
                return
            if c.CALL_STOP not in c.legal_moves(state):
                return  # rationed: no false call left
            windows += 1
            if move == c.CALL_STOP:
                false += 1
                per_deal += 1

        bot = Fallible(GreedyBot(seed), false_call=chance, seed=seed)
        _table_deal(rules, (bot, GreedyBot(seed + 1)), seed, watch)
        if penalty == "rationed":
            assert per_deal <= 3
    if penalty == "rationed":
        assert 0 < false <= 9
    else:
        assert windows > 100 and _binomial_ok(false, windows, chance), (false, windows)


def test_fallible_missed_call_rate() -> None:
    """A fallible player notices a fault at the start of its turn with its ``call`` chance
    and otherwise plays on (the fault lapses)."""
    chance = 0.4
    faults = calls = 0

    def watch(state: c.GameState, move: c.Move) -> None:
        nonlocal faults, calls
        if state.to_act == 0 and state.fault is not None:
            faults += 1
            calls += move == c.CALL_STOP

    for seed in range(4):
        bot = Fallible(GreedyBot(seed), call=chance, seed=seed)
        careless = Fallible(GreedyBot(seed + 9), miss=1.0, seed=seed + 9)
        _table_deal(BOB.replace(move_cap=1500), (bot, careless), seed, watch)
    assert faults > 30 and _binomial_ok(calls, faults, chance), (calls, faults)


def test_fallible_misses_are_turn_ends_under_bobcrapette() -> None:
    """Under the bobcrapette priority the only violation a careless player makes is a
    turn end (``flip``) while an obligation waits; the opponent then sees a fault."""
    careless = Fallible(GreedyBot(3), miss=1.0, seed=3)
    flips = 0

    def watch(state: c.GameState, move: c.Move) -> None:
        nonlocal flips
        if state.to_act == 1 and observe(state, 1).breaks_priority(move) is not None:
            assert move.action in (c.Action.FLIP, c.Action.END_TURN)
            after = c.apply(state, move)
            assert after.fault is not None and after.to_act == 0
            flips += 1

    _table_deal(BOB.replace(move_cap=1500), (GreedyBot(1), careless), 2, watch)
    assert flips > 0


def test_false_call_is_inert_after_moves() -> None:
    """Under ``call_window=after_move`` a call is offered only after a violation: a
    ``false_call`` chance changes nothing (the same deal, move for move)."""
    rules = c.Ruleset.preset("pagat").replace(move_cap=400)
    moves: list[list[c.Move]] = [[], []]
    for k, chance in enumerate((0.0, 0.9)):
        bot = Fallible(GreedyBot(1), miss=0.2, false_call=chance, seed=1)
        play_deal(
            c.new_game(rules, seed=6),
            (bot, GreedyBot(2)),
            on_move=lambda _b, m, _a, k=k: moves[k].append(m),  # type: ignore[misc]
        )
    assert moves[0] == moves[1]


def test_fallible_name_states_false_calls() -> None:
    bot = Fallible(GreedyBot(1), call=0.5, false_call=0.1)
    assert bot.name == "greedy:call=0.5:false_call=0.1"
    from crapette.bots import get_bot

    assert get_bot(bot.name, 1).name == bot.name


def test_a_blocked_deal_evaluates_as_a_draw() -> None:
    """The search bots' evaluation of a deal that ended blocked: 0 under ``blocked=draw``
    (nobody scores), the count difference under ``blocked=scored``."""
    for blocked in ("draw", "scored"):
        state = play_deal(
            c.new_game(BOB.replace(blocked=blocked), seed=2),
            (GreedyBot(1), GreedyBot(2)),
            max_moves=80,
        )
        stuck = state.replace(passes=(2, 2))
        assert evaluate(state, 0) != 0  # the counts differ: a draw is not their difference
        assert c.is_over(stuck)
        outcome = c.outcome(stuck)
        assert outcome is not None and outcome.winner is None
        for p in (0, 1):
            value = evaluate(stuck, p)
            if blocked == "draw":
                assert value == 0
            else:
                assert value == outcome.scores[p] - outcome.scores[1 - p]
        # A running deal is still scored by the counts.
        assert evaluate(state, 0) == -evaluate(state, 1)


def test_hand_memory_follows_a_flipped_waste() -> None:
    """Under ``turn_end=flip`` a waste turned over into a hand, its first card flipped
    back, shows the rest of the hand: the memory knows it, and is right every time."""
    rules = BOB.replace(pack="tarot56")
    memory = HandMemory()
    known = 0

    def watch(state: c.GameState, _move: c.Move) -> None:
        nonlocal known
        memory.see(observe(state, 0))
        for q in (0, 1):
            hand = memory.hands[q]
            if hand is not None:
                assert hand == state.hands[q]
                known += len(hand) > 0

    end = _table_deal(rules, (GreedyBot(1), GreedyBot(2)), 3, watch)
    assert c.is_over(end) and known > 0
    # Its samples hold the known hands in order, with the pack's own cards.
    state = c.new_game(rules, seed=3)
    view = observe(state, 0)
    memory.forget()
    memory.see(view)
    sample = memory.sample(view, Rng(1))
    assert sorted(sample.reserves[0] + sample.reserves[1] + sample.hands[0] + sample.hands[1]) == (
        sorted(view.hidden_cards() + sum(view.reserves_up, ()))
    )
