"""The planner bot: its lines, what it prefers, its budget, its determinism, what it may
see, and that it plays legal moves under every preset."""

from __future__ import annotations

import pytest

import crapette as c
import crapette.bots.planner as planner
from crapette.bots import Bot, GreedyBot, PlannerBot, UnknownBotError, get_bot, play_deal
from crapette.bots.planner import SCORED_PER_ROLLOUT, plan_lines
from crapette.bots.search import candidates
from crapette.deal import Rng
from crapette.moves import Action
from crapette.outcome import winner
from crapette.views import PlayerView, determinize, observe, sketch
from positions import cards, mv, names, position, quiet


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


def _rich_view(seed: int, lines: int = 6) -> PlayerView:
    """The first view of a greedy deal where the planner has at least ``lines`` lines."""
    found: list[PlayerView] = []

    def rich(_before: c.GameState, _move: c.Move, after: c.GameState) -> bool:
        if after.stop is None and len(plan_lines(after, 4, 300)) >= lines:
            found.append(observe(after, after.to_act))
        return bool(found)

    play_deal(c.new_game(seed=seed), (GreedyBot(1), GreedyBot(2)), on_move=rich)
    assert found, "no rich position in this deal"
    return found[0]


# A position where loading the opponent (the greedy choice) strands the next reserve card:
# player 0's reserve shows 5C over 4D; 5C may go on the 6D of house 1 (then 4D on it) or
# onto the opponent's waste (6C).
STRANDED = {"houses": quiet({0: "6D"}), "reserve0": "9S 4D 5C", "up0": 2, "waste1": "6C"}


def test_it_takes_a_winning_line_the_greedy_bot_misses() -> None:
    # Player 0's last two cards are the reserve's 5H under 6C (hand and waste empty):
    # 6C then 5H onto the 7H wins; loading 6C onto the opponent's 7C (greedy) does not.
    state = position(houses=quiet({0: "7H"}), reserve0="5H 6C", up0=2, reserve1="7C", rest="hand1")
    assert names(state) == ["R-H1", "R-OR", "end"]
    view = observe(state, 0)
    assert GreedyBot(0).choose(view) == mv("R-OR")
    bot = PlannerBot(3, budget=64)
    assert bot.choose(view) == mv("R-H1")
    assert bot.line == (mv("R-H1"), mv("R-H1"))
    assert bot.rollouts == 0  # a line that wins is played without scoring the others
    after = c.apply(state, mv("R-H1"))
    assert bot.choose(observe(after, 0)) == mv("R-H1")
    assert winner(c.apply(after, mv("R-H1"))) == 0


@pytest.mark.parametrize("seed", range(4))
def test_it_prefers_emptying_the_reserve(seed: int) -> None:
    state = position(**STRANDED)  # type: ignore[arg-type]
    assert names(state) == ["R-H1", "R-OW", "draw"]
    view = observe(state, 0)
    assert GreedyBot(seed).choose(view) == mv("R-OW")
    bot = PlannerBot(seed)
    assert bot.choose(view) == mv("R-H1")
    # both reserve cards go on the house; the second uncovers the face-down 9S: a boundary
    assert bot.line == (mv("R-H1"), mv("R-H1"))
    assert bot.lines == 4 and bot.rollouts > bot.lines


def test_lines_end_at_boundaries_and_merge_transpositions() -> None:
    state = position(**STRANDED)  # type: ignore[arg-type]
    found = plan_lines(state, 4, 300)
    assert [[str(m) for m in line] for line in found] == [
        ["R-OW", "draw"],  # the greedy line first
        ["R-H1", "R-H1"],  # uncovering a face-down reserve card ends a line
        ["R-H1", "draw"],
        ["draw"],
    ]
    view = _rich_view(5)
    start = sketch(view)
    found = plan_lines(start, 4, 300)
    ends = set()
    for line in found:
        here = start
        for move in line[:-1]:
            assert move.action is Action.PLAY  # hand cards are turned only at the end
            here = c.apply(here, move)
            assert here.turn_player == view.to_act
        ends.add((here.houses, here.foundations, here.reserves, here.wastes, line[-1]))
    assert len(ends) == len(found)  # no two orders of the same moves listed twice
    assert found[0][0] == candidates(start, c.legal_moves(start), 4)[0]
    assert len(plan_lines(start, 4, 300, limit=3)) == 3
    assert len(plan_lines(start, 4, 1)) <= 4  # one position expanded: its moves only


def test_it_follows_its_line_without_searching_again() -> None:
    for seed in range(7, 30):
        view = _rich_view(seed)
        bot = PlannerBot(2, budget=64)
        previous = bot.choose(view)
        line = bot.line
        assert previous == line[0] and bot.rollouts > 0
        if len(line) > 2:
            break
    else:
        pytest.fail("no line of three moves found")
    for move in line[1:]:
        view = view.after(previous)
        assert bot.choose(view) == move
        assert bot.rollouts == 0 and bot.lines == 0
        previous = move
    # a position the line did not predict: it searches again
    bot.choose(_rich_view(5))
    assert bot.lines > 1


@pytest.mark.parametrize("budget", [4, 16, 64, 300])
def test_it_keeps_to_its_budget(budget: int) -> None:
    view = _rich_view(11, lines=8)
    bot = PlannerBot(1, budget=budget)
    bot.choose(view)
    assert 1 < bot.lines <= max(2, budget // 4) == bot.max_lines
    assert bot.lines <= bot.rollouts <= budget
    assert bot.rollouts <= bot.positions <= bot.scored


def test_the_cap_is_checked_before_each_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _rich_view(11, lines=8)
    bot = PlannerBot(1, budget=64)
    starts: list[int] = []
    real = planner.HandMemory.sample

    def sample(memory: planner.HandMemory, seen: PlayerView, rng: Rng) -> c.GameState:
        starts.append(bot.scored)
        return real(memory, seen, rng)

    monkeypatch.setattr(planner.HandMemory, "sample", sample)
    bot.choose(view)
    cap = SCORED_PER_ROLLOUT * 64
    assert len(starts) > 1 and starts[0] == 0
    assert starts[-1] < cap  # every sample began under the cap
    assert bot.scored >= cap or bot.rollouts + bot.lines > 64  # it ran to the cap or budget


def test_it_stops_at_its_cap_on_rollout_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _rich_view(11, lines=8)
    monkeypatch.setattr(planner, "SCORED_PER_ROLLOUT", 1)  # a cap of `budget` moves scored
    bot = PlannerBot(1, budget=200)
    bot.choose(view)
    assert bot.rollouts == bot.lines  # one sample of every line, then the cap stops it
    assert bot.scored >= 200


def test_a_larger_budget_scores_more_samples() -> None:
    view = _rich_view(11, lines=8)
    spent = []
    for budget in (8, 64, 512):
        bot = PlannerBot(1, budget=budget)
        bot.choose(view)
        spent.append(bot.rollouts)
    assert spent[0] < spent[1] < spent[2]


def test_it_is_reproducible() -> None:
    rules = c.Ruleset().replace(move_cap=160)
    runs = [_deal(rules, (get_bot("planner:16", 4), GreedyBot(5)), 6) for _ in range(2)]
    assert runs[0] == runs[1]
    view = _rich_view(13)
    lines = {PlannerBot(9, budget=32).choose(view) for _ in range(3)}
    assert len(lines) == 1


def test_it_sees_only_its_view(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _rich_view(17)
    p = view.to_act
    # two complete states that differ only in hidden cards: the same view, the same choice
    real = [determinize(view, Rng(seed)) for seed in (100, 200)]
    assert real[0] != real[1] and observe(real[0], p) == observe(real[1], p) == view
    moves = [PlannerBot(4, budget=48).choose(observe(state, p)) for state in real]
    assert moves[0] == moves[1]
    # every sample it scores is drawn from the view, never the real hidden cards
    samples: list[c.GameState] = []

    def recording(seen: PlayerView, rng: Rng) -> c.GameState:
        sample = determinize(seen, rng)
        samples.append(sample)
        return sample

    monkeypatch.setattr(planner, "determinize", recording)
    bot = PlannerBot(4, budget=48)
    bot.choose(observe(real[0], p))
    assert samples and all(observe(s, p) == view for s in samples)
    assert any(s.hands != real[0].hands for s in samples)


@pytest.mark.parametrize("preset", sorted(c.PRESETS))
def test_planner_plays_only_legal_moves(preset: str) -> None:
    rules = c.Ruleset.preset(preset).replace(move_cap=80)
    assert _deal(rules, (PlannerBot(1, budget=6), GreedyBot(2)), 3)


def test_planner_bot_strings() -> None:
    bot = get_bot("planner", 1)
    assert isinstance(bot, PlannerBot) and bot.budget == planner.DEFAULT_PLANNER_BUDGET == 8192
    assert get_bot("planner:16", 1).budget == 16  # type: ignore[attr-defined]
    with pytest.raises(UnknownBotError, match="bad planner budget '0'"):
        get_bot("planner:0")
    for bad in ({"budget": 0}, {"width": 1}, {"nodes": 0}, {"turns": 0}, {"turns": 5}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            PlannerBot(**bad)
    with pytest.raises(ValueError, match="budget"):
        PlannerBot(budget=True)


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


class _Watcher:
    """A fallible greedy player that checks a hand memory against the real hands."""

    def __init__(self, seed: int, real: list[c.GameState]) -> None:
        self.name = "watcher"
        self.memory = planner.HandMemory()
        self.bot = get_bot("greedy:miss=0.2:call=0.7", seed)
        self.real = real
        self.known = 0

    def on_deal_start(self, view: PlayerView) -> None:
        self.memory.forget()
        self.memory.see(view)

    def on_opponent_move(self, _move: c.Move, view: PlayerView) -> None:
        self.memory.see(view)

    def choose(self, view: PlayerView) -> c.Move:
        self.memory.see(view)
        state = self.real[-1]
        sample = self.memory.sample(view, Rng(self.known))
        assert observe(sample, view.player) == view
        assert sorted(sample.cards()) == list(c.ALL_CARDS)
        for q in (0, 1):
            hand = self.memory.hands[q]
            if hand is not None:
                assert hand == state.hands[q]  # never a wrong order
                # the samples keep it (a Stop! decision is sampled as determinize does)
                assert sample.hands[q] == hand or view.stop is not None
                self.known += 1
        return self.bot.choose(view)


@pytest.mark.parametrize("preset", ["classic", "pagat", "serbian"])
def test_the_hand_memory_knows_a_waste_turned_over(preset: str) -> None:
    known = 0
    for seed in range(2):
        start = c.new_game(preset, seed=seed)
        real = [start]
        bots = (_Watcher(1, real), _Watcher(2, real))
        play_deal(start, bots, on_move=lambda _b, _m, after, real=real: real.append(after))
        known += bots[0].known + bots[1].known
    assert known > 50


def test_the_hand_memory_forgets_what_it_cannot_follow() -> None:
    memory = planner.HandMemory()
    state = position(houses=quiet(), reserve0="9S", waste0="2D 3C 4H", rest="hand1")
    memory.see(observe(state, 1))
    after = c.apply(state, mv("draw"))  # the waste turned over, 2D turned
    memory.see(observe(after, 1))
    assert memory.hands[0] == (cards("4H 3C"))
    assert memory.hands[1] is None
    memory.see(observe(after, 0))  # another player's view: start again
    assert memory.hands == [None, None]
