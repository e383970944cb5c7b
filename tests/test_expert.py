"""The expert bot, its value model and samples, and the all-seeing reference bots."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

import crapette as c
from crapette.bots import (
    AllSeeingBot,
    AllSeeingExpert,
    ExpertBot,
    PlannerBot,
    get_bot,
    play_deal,
)
from crapette.bots.expert import expert_lines, lines_after
from crapette.bots.planner import HandMemory, plan_lines
from crapette.bots.value import LineScore, Sampler, ValueModel, Work, load_model, score_lines
from crapette.deal import Rng
from crapette.errors import UnknownBotError
from crapette.outcome import winner
from crapette.views import observe, sketch
from positions import mv, position, quiet


def _mid_deal(seed: int = 4, moves: int = 50) -> c.GameState:
    return play_deal(
        c.new_game(seed=seed), (get_bot("greedy", 1), get_bot("greedy", 2)), max_moves=moves
    )


def test_the_shipped_model() -> None:
    model = load_model()
    assert isinstance(model, ValueModel)
    assert model.turns in (1, 2, 3, 4)
    assert model.win_slope > 0 and model.points_slope > 0
    rules = c.Ruleset()
    # monotone in the play-out value, exact for a deal won or lost on the way
    wins = [model.value(v, rules)[0] for v in range(-99, 100, 7)]
    assert wins == sorted(wins) and 0 < wins[0] < wins[-1] < 1
    # a deal won or lost in the play-out: a fitted probability near 1 or 0, exact points
    assert 0.5 < model.won_win <= 1 and 0 <= model.lost_win < 0.5
    assert model.value(100, rules) == (model.won_win, float(rules.win_bonus))
    assert model.value(117, rules) == (model.won_win, float(rules.win_bonus + 17))
    assert model.value(-112, rules) == (model.lost_win, -float(rules.win_bonus + 12))


def test_samples_are_consistent_with_the_view() -> None:
    state = _mid_deal()
    for player in (0, 1):
        view = observe(state, player)
        draw = Sampler(view)
        rng = Rng(5)
        seen = set()
        for _ in range(20):
            sample = draw(rng)
            assert observe(sample, player) == view
            assert sorted(sample.cards()) == sorted(state.cards())
            seen.add(sample.hands)
        assert len(seen) > 1  # the hidden cards are really drawn
        # the same generator state, the same sample
        assert draw(Rng(9)) == draw(Rng(9))


def test_samples_keep_the_remembered_hands() -> None:
    state = _mid_deal(seed=6, moves=200)
    memory = HandMemory()
    view = observe(state, 0)
    memory.hands = [state.hands[0], None]  # as if the waste had been watched
    draw = Sampler(view, memory)
    for seed in range(10):
        sample = draw(Rng(seed))
        assert sample.hands[0] == state.hands[0]
        assert observe(sample, 0) == view


def test_samples_follow_reserve_packs() -> None:
    """A face-down reserve card is one of its owner's pack (loaded cards lie face up)."""
    state = c.new_game(seed=12)
    view = observe(state, 0)
    for seed in range(10):
        sample = Sampler(view)(Rng(seed))
        for p in (0, 1):
            down = sample.reserves[p][: view.reserves_down[p]]
            assert all(c.cards.PACK[card] == p for card in down)


def test_expert_lines_include_stopping() -> None:
    """Turning a hand card is tried at every position of a line even when four moves
    rank above it (the planner tries it only among its four best)."""
    for seed in range(30):
        state = _mid_deal(seed=seed, moves=40)
        if state.stop is not None or len(c.legal_moves(state)) < 6:
            continue
        sk = sketch(observe(state, state.to_act))
        mine = expert_lines(sk)
        planner = plan_lines(sk, 4, 300)
        assert set(planner) <= set(mine) or len(mine) >= len(planner)
        stops = [line for line in mine if line[-1] == c.DRAW]
        if c.DRAW in c.legal_moves(state):
            assert stops  # stopping at once is always among the lines
            assert (c.DRAW,) in mine
        return
    pytest.skip("no position with six legal moves found")  # pragma: no cover


def test_lines_after_start_with_the_move() -> None:
    state = _mid_deal(seed=8, moves=30)
    sk = sketch(observe(state, state.to_act))
    for move in c.legal_moves(state):
        lines = lines_after(sk, move, 3)
        assert 1 <= len(lines) <= 3
        assert all(line[0] == move for line in lines)


def test_score_lines_spends_its_budget_by_halving() -> None:
    view, lines = _many_lines()
    scores = [LineScore(line) for line in lines]
    draw = Sampler(view)
    rng = Rng(1)
    work = score_lines(scores, view.to_act, lambda: draw(rng), rng, load_model(), rollouts=200)
    assert isinstance(work, Work)
    assert work.rollouts == sum(s.n for s in scores) <= 200
    assert all(0 <= s.mean_win <= 1 for s in scores if s.n)
    alive = [s for s in scores if s.alive]
    assert len(alive) < len(scores)  # the worse lines dropped out
    assert max(s.n for s in alive) > min(s.n for s in scores)


def _many_lines() -> tuple[c.PlayerView, list[tuple[c.Move, ...]]]:
    """A position of greedy self-play with at least four lines to compare."""
    for seed in range(40):
        for moves in (30, 60, 90):
            state = _mid_deal(seed=seed, moves=moves)
            if state.stop is not None:
                continue
            view = observe(state, state.to_act)
            lines = expert_lines(sketch(view))
            if len(lines) >= 4:
                return view, lines
    raise AssertionError("no position with four lines")  # pragma: no cover


def test_score_lines_keeps_the_lines_it_is_told_to() -> None:
    view, lines = _many_lines()
    scores = [LineScore(line) for line in lines]
    draw = Sampler(view)
    rng = Rng(2)
    last = len(lines) - 1
    score_lines(
        scores, view.to_act, lambda: draw(rng), rng, load_model(), rollouts=300, keep={last},
        settle=False,
    )  # fmt: skip
    assert scores[last].alive
    assert scores[last].n == max(s.n for s in scores)
    best = max((s for s in scores if s.alive), key=lambda s: s.key())
    drop, se = best.difference(scores[last])
    assert drop >= -1e-12 or best is scores[last]
    assert math.isfinite(se) or scores[last].n < 2


def test_expert_parameters_are_checked() -> None:
    with pytest.raises(UnknownBotError, match="budget"):
        ExpertBot(budget=0)
    with pytest.raises(UnknownBotError, match="width"):
        ExpertBot(width=1)
    with pytest.raises(UnknownBotError, match="through_hand"):
        ExpertBot(through_hand=1)  # type: ignore[arg-type]
    assert ExpertBot().through_hand and not ExpertBot(through_hand=False).through_hand
    with pytest.raises(UnknownBotError, match="expert budget"):
        get_bot("expert:lots")
    assert get_bot("expert:64", 3).budget == 64
    assert get_bot("expert").name == "expert"
    assert isinstance(get_bot("allseeing:32"), AllSeeingBot)
    assert isinstance(get_bot("allseeing-expert:32"), AllSeeingExpert)


def test_expert_plays_legal_reproducible_deals() -> None:
    def deal(seed: int) -> list[c.Move]:
        played: list[c.Move] = []
        play_deal(
            c.new_game(seed=21),
            (ExpertBot(seed, budget=24), get_bot("greedy", 5)),
            on_move=lambda before, move, after: played.append(move),
            max_moves=120,
        )
        return played

    first = deal(1)
    assert len(first) == 120
    assert deal(1) == first


def test_expert_takes_a_winning_line() -> None:
    """With a last reserve card that fits a house and nothing else left, the expert
    plays it: the deal is won at once."""
    state = position(
        houses=quiet({0: "6S", 1: ""}), reserve0="5D", hand0="", waste0="", rest="hand1"
    )
    bot = ExpertBot(1, budget=16)
    move = bot.choose(observe(state, 0))
    assert winner(c.apply(state, move)) == 0


def test_expert_lines_go_through_a_known_hand() -> None:
    """With the player's true hand, turning a hand card no longer ends a line: some lines
    go on after it, and every line still ends at the end of the turn, an uncovered
    reserve card or the node limit."""
    for seed in range(40):
        state = _mid_deal(seed=seed, moves=40)
        if state.stop is not None or c.DRAW not in c.legal_moves(state):
            continue
        through = expert_lines(state, through_hand=True)
        plain = expert_lines(state)
        assert all(c.DRAW not in line[:-1] for line in plain)
        inner = [line for line in through if c.DRAW in line[:-1]]
        if not inner:
            continue
        p = state.to_act
        for line in inner:
            after = state
            for move in line[:-1]:
                after = c.apply(after, move)  # every move legal where the line plays it
                assert after.to_act == p and after.stop is None
        return
    pytest.skip("no position whose lines turn two hand cards")  # pragma: no cover


def test_expert_wins_through_its_known_hand() -> None:
    """Player 0's reserve and hand are empty and its waste holds the last card, which fits
    a house: turning the waste over shows that card (nothing hidden: docs/rules.md, "your
    waste is turned over (without shuffling) to form a new hand, as part of the draw"),
    so the expert plans the whole winning line, turn and play, and plays it."""
    state = position(
        houses=quiet({0: "6S", 1: ""}), reserve0="", hand0="", waste0="5D", rest="hand1"
    )
    bot = ExpertBot(1, budget=16)
    view = observe(state, 0)
    bot.on_deal_start(view)
    assert bot.choose(view) == c.DRAW
    assert len(bot.line) == 2 and bot.lines >= 1
    state = c.apply(state, c.DRAW)
    move = bot.choose(observe(state, 0))
    assert bot.lines == 0 and move == bot.line[1]  # followed, not searched again
    assert winner(c.apply(state, move)) == 0


def test_the_all_seeing_expert_plans_through_its_whole_hand() -> None:
    """The all-seeing expert knows its hand from the state it is shown, remembered or
    not: with one hand card that wins the deal, its line turns it and plays it; the
    expert, which has not seen that hand, stops its line at the turned card."""
    state = position(
        houses=quiet({0: "6S", 1: ""}), reserve0="", hand0="5D", waste0="", rest="hand1"
    )
    view = observe(state, 0)
    seeing = AllSeeingExpert(1, budget=16)
    seeing.on_deal_start(view)
    seeing.peek(state)
    assert seeing.choose(view) == c.DRAW and len(seeing.line) == 2
    assert winner(c.apply(c.apply(state, c.DRAW), seeing.line[1])) == 0
    plain = ExpertBot(1, budget=16)
    plain.on_deal_start(view)
    assert plain.choose(view) == c.DRAW and plain.line == (c.DRAW,)


def test_the_expert_follows_its_line_through_turned_cards() -> None:
    """Over a deal against greedy, the expert follows lines through hand cards it
    remembers: after such a turned card, with a choice to make, it plays the line's next
    move without a new search, and every move it plays is legal (the game loop checks
    them)."""
    bot = ExpertBot(3, budget=64)
    followed = 0

    class Watch:
        name = "watch"

        def __init__(self) -> None:
            self.last: c.Move | None = None

        def choose(self, view: c.PlayerView) -> c.Move:
            move = bot.choose(view)
            if self.last == c.DRAW and len(view.legal_moves()) > 1 and bot.lines == 0:
                nonlocal followed
                followed += 1
            self.last = move
            return move

        def on_deal_start(self, view: c.PlayerView) -> None:
            bot.on_deal_start(view)

        def on_opponent_move(self, move: c.Move, view: c.PlayerView) -> None:
            self.last = None
            bot.on_opponent_move(move, view)

    for seed in (5, 6, 7):
        play_deal(c.new_game(seed=seed), (Watch(), get_bot("greedy", 2)), max_moves=1500)
        if followed:
            return
    pytest.fail("the expert never followed a line through a turned hand card")


def test_the_expert_follows_its_line() -> None:
    state = _mid_deal(seed=13, moves=80)
    bot = ExpertBot(2, budget=64)
    bot.on_deal_start(observe(state, state.to_act))
    for _ in range(30):
        p = state.to_act
        move = bot.choose(observe(state, p))
        searched = bot.lines
        state = c.apply(state, move)
        follows = bot.line and len(bot.line) > 2 and searched
        if follows and state.to_act == p and state.stop is None:
            # the next move of the line is played without a new search
            nxt = bot.choose(observe(state, p))
            assert bot.lines == 0 and nxt == bot.line[1]
            return
        if state.to_act != p:
            return
    pytest.skip("no line of three moves met")  # pragma: no cover


def test_all_seeing_bot_scores_on_the_state_it_is_shown() -> None:
    state = _mid_deal(seed=2, moves=40)
    bot = AllSeeingBot(1, budget=32)
    view = observe(state, state.to_act)
    bot.peek(state)
    bot.choose(view)
    assert bot._truth == state
    # shown another position, it falls back on samples
    bot.peek(c.new_game(seed=99))
    bot.choose(view)
    assert bot._truth is None
    expert = AllSeeingExpert(1, budget=32)
    expert.peek(state)
    expert.choose(view)
    assert expert._truth == state
    sampler = expert._sampler(view)
    assert sampler() is state


def test_the_game_loop_shows_the_state_only_to_peeking_bots() -> None:
    shown: list[c.GameState] = []

    class Peeker(PlannerBot):
        name = "peeker"

        def peek(self, state: c.GameState) -> None:
            shown.append(state)

    states: list[c.GameState] = []
    play_deal(
        c.new_game(seed=4),
        (Peeker(1, budget=8), get_bot("greedy", 2)),
        on_move=lambda before, move, after: states.append(before),
        max_moves=40,
    )
    assert shown and all(s.to_act == 0 for s in shown)
    assert shown == [s for s in states if s.to_act == 0]


def test_all_seeing_bot_plays_through_the_simulator() -> None:
    from crapette.simulation import simulate

    result = simulate("classic(move_cap=300)", "allseeing:16,planner:16", 2, seed=5)
    assert result.bots == ("allseeing:16", "planner:16") and len(result.records) == 2


def test_move_in_positions_helper() -> None:
    assert mv("draw") == c.DRAW


def test_lookahead_move_is_a_legal_better_rollout_choice() -> None:
    from crapette.bots.expert import lookahead_move
    from crapette.bots.search import candidates

    for seed in range(6):
        state = _mid_deal(seed=seed, moves=35)
        moves = c.legal_moves(state)
        move = lookahead_move(state, Rng(seed))
        assert move in moves
        if len(moves) > 1 and state.stop is None:
            tried = candidates(state, moves, 2)
            assert move in tried  # one of the two best by the greedy ranking
    assert lookahead_move(state, Rng(1)) == lookahead_move(state, Rng(1))


def test_deep_play_outs_end_at_the_players_next_turn() -> None:
    from crapette.bots.expert import deep_play_out

    state = _mid_deal(seed=5, moves=60)
    p = state.to_act
    values = {deep_play_out(state, p, Rng(k)) for k in range(4)}
    assert all(isinstance(v, int) for v in values)
    assert deep_play_out(state, p, Rng(2)) == deep_play_out(state, p, Rng(2))


def test_the_second_stage_picks_among_the_finalists() -> None:
    view, lines = _many_lines()
    one = ExpertBot(3, budget=256, finalists=1)
    one.choose(view)
    first_stage = one.work.rollouts
    assert first_stage <= 256
    three = ExpertBot(3, budget=256, finalists=3, deep=4)
    three.choose(view)
    assert three.work.rollouts == first_stage + 3 * 4  # the same first stage, then 3 x 4
    assert three.line in lines
    with pytest.raises(UnknownBotError, match="finalists"):
        ExpertBot(finalists=-1)


def test_race_keeps_the_leader_and_the_finalists_within_z_standard_errors() -> None:
    from crapette.bots.expert import race

    leader = [0.6, 0.7, 0.5, 0.6, 0.8, 0.7]
    close = [0.6, 0.6, 0.6, 0.5, 0.8, 0.7]  # behind by 0.033, noisy: kept
    clearly = [v - 0.2 for v in leader]  # always 0.2 behind: no spread, dropped
    ahead_once = [0.0, 0.7, 0.5, 0.6, 0.8, 0.7]  # behind once by 0.6: 1 standard error
    wins = [close, leader, clearly, ahead_once]
    assert race(wins, [0, 1, 2, 3], 3.0) == [0, 1, 3]
    assert race(wins, [0, 1, 2, 3], 0.5) == [1]
    assert race(wins, [2], 3.0) == [2]
    assert race([leader, list(leader)], [0, 1], 3.0) == [0, 1]  # a tie: both stay


def test_the_second_stage_races_its_finalists() -> None:
    """Every ``DEEP_RACE_EVERY`` samples the finalists clearly behind are judged no
    further: never fewer play-outs than the leader's samples, never more than without the
    race, and the line played is a finalist; ``deep_race=0`` judges all on every sample."""
    from crapette.bots.expert import DEEP_RACE_EVERY

    view, lines = _many_lines()
    first = ExpertBot(3, budget=256, finalists=1)
    first.choose(view)
    deep = 3 * DEEP_RACE_EVERY
    whole = ExpertBot(3, budget=256, finalists=4, deep=deep, deep_race=0)
    whole.choose(view)
    assert whole.work.rollouts == first.work.rollouts + 4 * deep
    raced = ExpertBot(3, budget=256, finalists=4, deep=deep, deep_race=0.01)
    raced.choose(view)
    assert raced.work.samples == whole.work.samples
    assert first.work.rollouts + deep <= raced.work.rollouts < whole.work.rollouts
    assert raced.line in lines and whole.line in lines
    for bad in (-1, 101, True, "3"):
        with pytest.raises(UnknownBotError, match="deep_race"):
            ExpertBot(deep_race=bad)  # type: ignore[arg-type]


def test_the_second_stage_stops_at_its_work_bound() -> None:
    """The second stage takes no new sample once its play-outs have scored more than
    ``deep_work`` moves, and never fewer than ``DEEP_MIN_SAMPLES``: every finalist is
    judged on the same samples; the work counts what its play-outs did."""
    from crapette.bots.expert import DEEP_MIN_SAMPLES, deep_play_out

    view, lines = _many_lines()
    first = ExpertBot(3, budget=256, finalists=1)
    first.choose(view)
    unbounded = ExpertBot(3, budget=256, finalists=3, deep=20, deep_work=10**12)
    unbounded.choose(view)
    assert unbounded.work.rollouts == first.work.rollouts + 3 * 20
    assert unbounded.work.samples == first.work.samples + 20
    bounded = ExpertBot(3, budget=256, finalists=3, deep=20, deep_work=1)
    bounded.choose(view)
    assert bounded.work.rollouts == first.work.rollouts + 3 * DEEP_MIN_SAMPLES
    assert bounded.work.samples == first.work.samples + DEEP_MIN_SAMPLES
    assert bounded.line in lines
    with pytest.raises(UnknownBotError, match="deep_work"):
        ExpertBot(deep_work=0)

    work = Work()
    state = _mid_deal(seed=5, moves=60)
    deep_play_out(state, state.to_act, Rng(2), work=work)
    assert work.scored > 0 and work.positions > 0


def test_the_training_script_runs(tmp_path: Path) -> None:
    """training/train_expert.py's three steps on a tiny scale: the model it writes is one
    the bot can load."""
    pytest.importorskip("scipy")
    import json
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[1] / "training" / "train_expert.py"
    if not script.exists():
        pytest.skip("no training/ next to the tests")  # pragma: no cover
    records, found, model = tmp_path / "r.jsonl", tmp_path / "p.jsonl", tmp_path / "m.json"
    small = ["--every", "15", "--rollouts", "16", "--samples", "4", "--deep", "2"]
    steps = [
        ["selfplay", "--deals", "4", "--bots", "greedy,random", "--out", str(records)],
        ["positions", "--records", str(records), *small, "--out", str(found)],
        ["fit", "--positions", str(found), "--out", str(model), "--note", "a test"],
    ]
    for step in steps:
        subprocess.run([sys.executable, str(script), *step], check=True, capture_output=True)
    data = json.loads(model.read_text(encoding="utf-8"))
    assert data["trained"] == "a test" and "deep" in data
    from crapette.bots.value import _model

    fitted = _model(data, data["turns"])
    assert fitted.deep is not None and 0 <= fitted.lost_win <= fitted.won_win <= 1


@pytest.mark.skipif(c.ENGINE != "native", reason="compares the native engine with Python")
def test_the_native_deep_play_out_plays_the_python_loop() -> None:
    """The native engine's deep play-out (C) plays the very game of the Python loop, its
    reference, on the same state: the same value, work and generator draws, from positions
    of every preset (Stop! decisions included), for both players, at two widths. (The
    Python loop's parts, the greedy ranking and play-out, are held to the Python engine's
    by tests/test_bot_ranking.py.)"""
    from crapette.bots.expert import _deep_play_out, deep_play_out

    compared = 0
    for k, preset in enumerate(sorted(c.PRESETS)):
        rules = c.Ruleset.preset(preset).replace(move_cap=400)
        states: list[c.GameState] = []
        play_deal(
            c.new_game(rules, seed=k),
            (get_bot("random", k), get_bot("greedy", k)),
            on_move=lambda before, _m, _a, into=states: into.append(before),
        )
        for i, state in enumerate(states[5::37]):
            for p in (0, 1):
                width = 2 + (i + p) % 2
                native, python = Work(), Work()
                a, b = Rng(100 * k + i), Rng(100 * k + i)
                got = deep_play_out(state, p, a, 1, width, native)
                expected = _deep_play_out(state, p, b, 1, width, python)
                assert (got, native.positions, native.scored, a.next64()) == (
                    expected,
                    python.positions,
                    python.scored,
                    b.next64(),
                ), (preset, i, p)
                compared += 1
    assert compared > 50


def test_deep_play_out_checks_its_arguments() -> None:
    from crapette.bots.expert import MAX_LOOKAHEAD_WIDTH, deep_play_out

    state = _mid_deal(seed=5, moves=60)
    for width in (0, MAX_LOOKAHEAD_WIDTH + 1, True, 2.0):
        with pytest.raises(c.InvalidArgumentError, match="width must be an integer from 1 to 64"):
            deep_play_out(state, 0, Rng(1), width=width)  # type: ignore[arg-type]
    with pytest.raises(c.InvalidArgumentError, match="turns"):
        deep_play_out(state, 0, Rng(1), turns=0)
    with pytest.raises(c.InvalidArgumentError, match="p must be a player"):
        deep_play_out(state, 2, Rng(1))
    with pytest.raises(TypeError):
        deep_play_out(state, 0, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        deep_play_out("state", 0, Rng(1))  # type: ignore[arg-type]
    assert deep_play_out(state, 0, Rng(1), width=MAX_LOOKAHEAD_WIDTH) == deep_play_out(
        state, 0, Rng(1), width=MAX_LOOKAHEAD_WIDTH
    )


def test_the_documented_measurement_is_the_logs() -> None:
    """docs/bots.md's figures of the expert against the planner are what the benchmark
    prints from the log kept in ``benchmarks/results`` (``--summarize``)."""
    root = Path(__file__).resolve().parent.parent
    log = root / "benchmarks" / "results" / "expert-planner-2037.jsonl"
    printed = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "bench_strength.py"), "--summarize", str(log)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    docs = (root / "docs" / "bots.md").read_text(encoding="utf-8")
    command = "--pair expert,planner --games 400 --seed 2037"
    block = docs.split(command, 1)[1].split("\n", 1)[1].split("```", 1)[0]
    assert " ".join(block.split()) == " ".join(printed.split())
