"""The bots' documented behaviour, tested directly: the greedy ranking tier by tier, the
search bot's rollout and position counts, and the one game loop (``play_deal``)."""

from __future__ import annotations

import functools
import itertools

import pytest

import crapette as c
from crapette._laws import violation
from crapette.bots import Bot, GreedyBot, RandomBot, SearchBot, play_deal
from crapette.bots._loop import run_deal
from crapette.bots.greedy import greedy_move, move_score, ranked_scores
from crapette.bots.search import evaluate, play_out
from crapette.deal import Rng
from crapette.errors import BotError
from crapette.views import PlayerView, observe
from positions import mv, position, quiet

# The ranking of crapette.bots.greedy, best first. Moves of one tier may come in any order;
# every move of a tier ranks above every move of the later tiers.
TIERS = (
    "a call at the start of a turn on a fault",  # call_window=turn_start
    "reveal",
    "reserve to a foundation",
    "turned card to a foundation",
    "waste to a foundation",
    "house to a foundation, emptying it",
    "house to a foundation",
    "reserve onto the opponent's reserve",
    "reserve onto the opponent's waste",
    "reserve onto a house",
    "turned card or waste onto the opponent's reserve",
    "turned card or waste onto the opponent's waste",
    "reserve onto an empty house",
    "turned card or waste onto a house",
    "house onto the opponent's reserve, emptying it",
    "house onto the opponent's waste, emptying it",
    "house onto the opponent's reserve",
    "house onto the opponent's waste",
    "useful house move",  # emptying a house onto another; a helpful shuffle
    "turned card or waste onto an empty house, the reserve not empty",
    "draw",
    "discard, flip or end",
    "pointless house move",  # a run to an empty house; a shuffle that opens nothing
    "a false call at the start of a turn",  # no fault to punish
)


def tier(state: c.GameState, move: c.Move) -> str:
    """The documented tier of ``move`` (the look-ahead of shuffles is read from the score:
    the test checks that it is one of the two documented tiers)."""
    action = move.action
    if action is c.Action.CALL_STOP:  # (Stop! decisions are left out of the samples)
        assert state.window
        if state.fault is not None:
            return "a call at the start of a turn on a fault"
        return "a false call at the start of a turn"
    if action is not c.Action.PLAY:
        return {
            c.Action.REVEAL: "reveal",
            c.Action.DRAW: "draw",
            c.Action.DISCARD: "discard, flip or end",
            c.Action.FLIP: "discard, flip or end",
            c.Action.END_TURN: "discard, flip or end",
        }[action]
    s, t = move.source, move.target
    own = "turned card or waste"
    where = {c.OPP_RESERVE: "the opponent's reserve", c.OPP_WASTE: "the opponent's waste"}
    if t == c.FOUNDATION:
        if s == c.RESERVE:
            return "reserve to a foundation"
        if s == c.HAND:
            return "turned card to a foundation"
        if s == c.WASTE:
            return "waste to a foundation"
        empties = len(state.houses[s]) == 1
        return "house to a foundation" + (", emptying it" if empties else "")
    if s == c.RESERVE:
        if t in where:
            return f"reserve onto {where[t]}"
        return "reserve onto a house" if state.houses[t] else "reserve onto an empty house"
    if s in (c.HAND, c.WASTE):
        if t in where:
            return f"{own} onto {where[t]}"
        if state.houses[t]:
            return f"{own} onto a house"
        if state.reserves[state.to_act]:
            return f"{own} onto an empty house, the reserve not empty"
        return "useful house move"  # 450, the same score as emptying a house onto another
    empties = len(state.houses[s]) == move.count
    if t in where:
        return f"house onto {where[t]}" + (", emptying it" if empties else "")
    if empties:
        return "useful house move" if state.houses[t] else "pointless house move"
    better_than_draw = move_score(state, move) > move_score(state, c.DRAW)
    return "useful house move" if better_than_draw else "pointless house move"


@functools.cache
def sample_states() -> tuple[c.GameState, ...]:
    """Positions of random and greedy deals under every preset (Stop! decisions left out)."""
    out = []
    for k, preset in enumerate(sorted(c.PRESETS)):
        rules = c.Ruleset.preset(preset).replace(move_cap=500)
        for seed in range(2):
            bots: tuple[Bot, Bot] = (RandomBot(seed + k), GreedyBot(seed))
            play_deal(
                c.new_game(rules, seed=seed + 10 * k),
                bots,
                on_move=lambda before, _m, _a: out.append(before) if before.stop is None else None,
            )
    return tuple(out)


def test_greedy_ranks_moves_tier_by_tier() -> None:
    """The ranking is one order of move kinds: every move of a tier, in any position, scores
    above every move of a later tier, in any position."""
    low: dict[str, int] = {}
    high: dict[str, int] = {}
    for state in sample_states():
        for move in c.legal_moves(state):
            name, score = tier(state, move), move_score(state, move)
            low[name] = min(score, low.get(name, score))
            high[name] = max(score, high.get(name, score))
    assert set(low) == set(TIERS), sorted(set(TIERS) - set(low))
    for better, worse in itertools.pairwise(TIERS):
        assert low[better] > high[worse], (better, low[better], worse, high[worse])


def test_greedy_plays_a_best_ranked_move() -> None:
    for state in sample_states()[::5]:
        moves = c.legal_moves(state)
        best = max(move_score(state, m) for m in moves)
        if state.rules.callable_stop:
            continue  # a violation is ranked down: see the next test
        choice = GreedyBot(3).choose(observe(state, state.to_act))
        assert move_score(state, choice) == best


def test_scenario_reserve_before_turned_card_before_loading() -> None:
    state = position(
        houses=quiet({0: "", 1: "9S"}),
        foundations={0: "AH 2H 3H 4H 5H 6H", 1: "AD 2D 3D 4D 5D 6D"},
        reserve0="QC 7H",
        turned="7D",
        reserve1="Qh 8C",
        to_act=0,
    )
    bot = GreedyBot(0)
    assert bot.choose(observe(state, 0)) == mv("R-F")
    state = c.apply(state, "R-F")
    # the reserve now shows QC: nothing fits it; the turned 7D goes up next
    assert bot.choose(observe(state, 0)) == mv("T-F")


def test_scenario_a_pointless_shuffle_is_never_played() -> None:
    # H1's 8H can move onto H2's 9S: that uncovers 9C, which takes none of the bot's cards
    # and goes nowhere, so it opens nothing and the bot draws instead.
    state = position(houses=quiet({0: "9C 8H", 1: "9S"}), reserve0="QC 5C", hand0="2C 3C")
    moves = c.legal_moves(state)
    assert mv("H1-H2") in moves
    assert move_score(state, mv("H1-H2")) < move_score(state, c.DISCARD)
    assert GreedyBot(0).choose(observe(state, 0)) == c.DRAW


def test_scenario_a_shuffle_that_frees_a_foundation_card_is_played() -> None:
    # H1's 2D can move onto H2's 3S, uncovering 3C, which goes on the clubs foundation:
    # the look-ahead ranks it above drawing.
    state = position(
        houses=quiet({0: "3C 2D", 1: "3S"}),
        foundations={0: "AC 2C"},
        reserve0="QC 5H",
        hand0="2H 9H",
    )
    assert GreedyBot(0).choose(observe(state, 0)) == mv("H1-H2")
    assert move_score(state, mv("H1-H2")) > move_score(state, c.DRAW)


@pytest.mark.parametrize("preset", ["pagat", "serbian"])
def test_greedy_never_chooses_a_violation_and_calls_stop_as_documented(preset: str) -> None:
    rules = c.Ruleset.preset(preset).replace(move_cap=800)
    decisions = 0

    def check(before: c.GameState, move: c.Move, after: c.GameState) -> None:
        nonlocal decisions
        if before.stop is None:
            assert after.stop is None or before.to_act == 0  # only the random bot violates
            return
        if before.to_act != 1:
            return
        decisions += 1
        stop = before.stop
        call = rules.stop == "card" or stop.resume == stop.offender
        assert move == (c.CALL_STOP if call else c.LET_STAND)

    for seed in range(3):
        play_deal(c.new_game(rules, seed=seed), (RandomBot(seed), GreedyBot(seed)), on_move=check)
    assert decisions > 0


def test_ranked_scores_are_the_move_scores_less_the_violations() -> None:
    """``ranked_scores`` (the look-ahead gathered once per position) scores every move as
    ``move_score`` does, 10,000 lower for a priority violation under callable Stop! rules."""
    shuffles = 0
    for state in sample_states():
        moves = c.legal_moves(state)
        expected = [
            move_score(state, m)
            - (10_000 if state.rules.callable_stop and violation(state, m) is not None else 0)
            for m in moves
        ]
        assert ranked_scores(state, moves) == expected
        shuffles += sum(m.source < 8 and m.target < 8 for m in moves)
    assert shuffles > 100  # house-to-house moves (the look-ahead) were among them


def _loop_play_out(state: c.GameState, p: int, rng: Rng, turns: int) -> tuple[int, int, int]:
    """``play_out`` written on the one game loop: greedy players on the whole state,
    stopped when ``p``'s turn comes back ``turns`` times after an opponent's turn."""
    seen_opponent, back, scored, played = state.turn_player != p, 0, 0, []

    def greedy(position: c.GameState, moves: tuple[c.Move, ...]) -> c.Move:
        nonlocal scored
        scored += len(moves)
        return greedy_move(position, rng, moves)

    def turn_over(_before: c.GameState, move: c.Move, after: c.GameState) -> bool:
        nonlocal seen_opponent, back
        played.append(move)
        if after.turn_player != p:
            seen_opponent = True
            return False
        if seen_opponent:
            seen_opponent, back = False, back + 1
        return back >= turns

    end = run_deal(state, (greedy, greedy), ("g", "g"), on_move=turn_over, max_moves=400 * turns)
    return evaluate(end, p), len(played), scored


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_play_out_plays_the_game_loop_of_two_greedy_players(turns: int) -> None:
    """The search bots' play-out (a loop of its own, compiled) plays the same moves, stops
    at the same move and scores the same as greedy play through the game loop."""
    states = sample_states()[::9]
    values = set()
    for k, state in enumerate(states):
        for p in (0, 1):
            got = play_out(state, p, Rng(k), turns)
            assert got == _loop_play_out(state, p, Rng(k), turns), (k, p)
            values.add(got[0])
    assert len(states) > 20 and len(values) > 5


def test_greedy_move_uses_the_moves_it_is_given() -> None:
    state = c.new_game(seed=4)
    moves = c.legal_moves(state)
    assert greedy_move(state, Rng(0), moves[-1:]) == moves[-1]


def _mid_game(seed: int) -> PlayerView:
    """The first view of a greedy deal where the search bot has candidates to compare."""
    found: list[PlayerView] = []

    def has_choice(_before: c.GameState, _move: c.Move, after: c.GameState) -> bool:
        view = observe(after, after.to_act)
        if len(SearchBot(0).candidates(view)) > 1:
            found.append(view)
        return bool(found)

    play_deal(c.new_game(seed=seed), (GreedyBot(1), GreedyBot(2)), on_move=has_choice)
    return found[0]


@pytest.mark.parametrize("budget", [1, 7, 24])
def test_search_bot_runs_its_budget_of_rollouts(budget: int) -> None:
    view = _mid_game(21)
    bot = SearchBot(3, budget=budget)
    cands = bot.candidates(view)
    assert len(cands) > 1
    bot = SearchBot(3, budget=budget)
    bot.choose(view)
    assert bot.rollouts == len(cands) * max(1, budget // len(cands))
    # every rollout reaches at least the candidate's position and at most the rollout cap
    assert bot.rollouts <= bot.positions <= bot.rollouts * 401


def test_search_bot_counts_positions_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    import crapette.bots.search as search

    played = []
    real = search.rollout

    def counting(state: c.GameState, p: int, rng: Rng) -> tuple[int, int]:
        value, moves = real(state, p, rng)
        played.append(moves)
        return value, moves

    monkeypatch.setattr(search, "rollout", counting)
    bot = SearchBot(5, budget=16)
    bot.choose(_mid_game(21))
    assert bot.rollouts == len(played) and bot.positions == sum(played) + len(played)
    # a forced move searches nothing
    forced = SearchBot(5, budget=16)
    state = c.new_game(seed=3)
    view = observe(state, state.to_act)
    if len(forced.candidates(view)) == 1:
        forced.choose(view)
        assert (forced.rollouts, forced.positions) == (0, 0)


def test_play_deal_hook_max_moves_and_early_stop() -> None:
    start = c.new_game(seed=9)
    log: list[tuple[c.GameState, c.Move, c.GameState]] = []
    end = play_deal(
        start, (GreedyBot(1), RandomBot(2)), on_move=lambda *step: log.append(step), max_moves=50
    )
    assert len(log) == 50 == end.moves_made and log[-1][2] == end
    state = start
    for before, move, after in log:
        assert before == state and c.apply(before, move) == after
        state = after
    # a true hook result stops after that move
    end = play_deal(start, (GreedyBot(1), RandomBot(2)), on_move=lambda b, m, a: m == c.DRAW)
    assert end.moves_made == next(i for i, step in enumerate(log, 1) if step[1] == c.DRAW)
    # a finished deal plays nothing
    over = play_deal(start, (GreedyBot(1), GreedyBot(2)))
    assert c.is_over(over) and play_deal(over, (GreedyBot(1), GreedyBot(2))) == over


def test_play_deal_hands_the_listed_moves_to_the_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    import crapette.views as views

    calls = 0
    real = views.legal_moves

    def counted(state: c.GameState) -> tuple[c.Move, ...]:
        nonlocal calls
        calls += 1
        return real(state)

    monkeypatch.setattr(views, "legal_moves", counted)
    end = play_deal(c.new_game(seed=9), (GreedyBot(1), RandomBot(2)), max_moves=200)
    assert end.moves_made == 200 and calls == 0  # no second generation on the bots' views
    observe(end, 0).legal_moves()
    assert calls == 1  # a view made by observe() lists them itself


def test_play_deal_refuses_an_illegal_bot_move() -> None:
    class Cheater:
        name = "cheater"

        def choose(self, view: PlayerView) -> c.Move:
            return c.END_TURN

    start = c.new_game(seed=9)
    snapshot = c.to_json(start)
    with pytest.raises(BotError, match=r"cheater.*illegal move end") as info:
        play_deal(start, (Cheater(), Cheater()))
    assert info.value.bot == "cheater" and info.value.move == c.END_TURN
    assert c.to_json(start) == snapshot


def test_scenario_a_shuffle_onto_an_empty_house_pays_for_the_house() -> None:
    # H1's 7S can move to the empty H2, uncovering 8H, on which the reserve's 7C could go:
    # one card gained, one empty house used up, so nothing is won and the bot ranks it as a
    # pointless shuffle ("using up an empty house counts against it").
    state = position(
        houses=quiet({0: "9C 8H 7S", 1: ""}),
        reserve0="QC 7C",
        hand0="2C 3C",
        rules="classic(house_filling=none)",
    )
    assert mv("H1-H2") in c.legal_moves(state)
    assert move_score(state, mv("H1-H2")) < move_score(state, c.DRAW)
    assert tier(state, mv("H1-H2")) == "pointless house move"


def test_scenario_a_shuffle_that_opens_a_load_is_played() -> None:
    # As in the pointless shuffle above (8H onto 9S uncovers 9C), but the opponent's reserve
    # shows the 10 of clubs: the uncovered 9C could load it, so the look-ahead ranks the
    # shuffle above drawing.
    houses = quiet({0: "9C 8H", 1: "9S"})
    state = position(houses=houses, reserve0="QC 5C", hand0="2C 3C", reserve1="4d Tc")
    assert mv("H1-H2") in c.legal_moves(state)
    assert move_score(state, mv("H1-H2")) > move_score(state, c.DRAW)
    shut = position(houses=houses, reserve0="QC 5C", hand0="2C 3C", reserve1="Tc 4d")
    assert move_score(shut, mv("H1-H2")) < move_score(shut, c.DRAW)
    # A house card may load the opponent only under load_from=any.
    own = position(
        houses=houses,
        reserve0="QC 5C",
        hand0="2C 3C",
        reserve1="4d Tc",
        rules="classic(load_from=own)",
    )
    assert move_score(own, mv("H1-H2")) < move_score(own, c.DRAW)
