"""Position analysis: limits, determinism, exact values, what it may read, and the hint in
the library, the terminal game and the server."""

from __future__ import annotations

import math

import pytest

import crapette as c
from crapette.analysis import (
    DEFAULT_LIMIT,
    HINT_LIMIT,
    Analysis,
    Hint,
    Limit,
    LineValue,
    analyse,
    hint,
)
from crapette.analysis._analyse import explain
from crapette.bots import get_bot, play_deal
from crapette.errors import InvalidArgumentError
from crapette.outcome import counts, winner
from crapette.views import observe
from positions import position, quiet

SMALL = Limit(rollouts=96)


def _mid_deal(seed: int = 4, moves: int = 50) -> c.GameState:
    return play_deal(
        c.new_game(seed=seed), (get_bot("greedy", 1), get_bot("greedy", 2)), max_moves=moves
    )


def _choice(seed: int = 4) -> c.GameState:
    """A position of greedy self-play where the player to act has several lines."""
    for moves in range(30, 200, 7):
        state = _mid_deal(seed, moves)
        if state.stop is None and len(c.legal_moves(state)) >= 4:
            return state
    raise AssertionError("no position with a choice")  # pragma: no cover


def test_limits_are_checked() -> None:
    assert DEFAULT_LIMIT.rollouts and HINT_LIMIT.time is not None and HINT_LIMIT.time <= 1
    for bad in ({"rollouts": 0}, {"positions": -3}, {"time": 0.0}, {"rollouts": 2.5}):
        with pytest.raises(InvalidArgumentError, match="positive"):
            Limit(**bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="needs"):
        Limit()
    with pytest.raises(InvalidArgumentError, match="positive"):
        Limit(time=math.inf)
    assert Limit(time=1).time == 1


def test_analysis_of_a_position() -> None:
    state = _choice()
    view = observe(state, state.to_act)
    found = analyse(view, SMALL, multipv=3, seed=1)
    assert isinstance(found, Analysis)
    assert found.player == state.to_act
    assert 0 <= found.win <= 1 and found.win_se >= 0
    assert math.isfinite(found.points) and found.points_se >= 0
    assert 1 <= len(found.lines) <= 3
    assert all(isinstance(line, LineValue) for line in found.lines)
    best = found.best
    assert best is not None and (found.win, found.points) == (best.win, best.points)
    assert best.first in c.legal_moves(state)
    # the best line is legal move after move
    after = state
    for move in best.moves:
        assert move in c.legal_moves(after)
        after = c.apply(after, move)
    from crapette.analysis._analyse import DEEP_SAMPLES, FINALISTS

    # the limit bounds the first stage; the second adds its samples of each finalist
    assert found.rollouts <= SMALL.rollouts + DEEP_SAMPLES * FINALISTS
    assert found.samples >= 1 and found.positions > 0 and found.considered >= len(found.lines)
    data = found.to_dict()
    assert data["lines"][0]["moves"] == [str(m) for m in best.moves]


def test_analysis_is_deterministic_for_a_seed() -> None:
    state = _choice(seed=7)
    view = observe(state, state.to_act)
    a = analyse(view, SMALL, multipv=2, seed=3)
    b = analyse(view, SMALL, multipv=2, seed=3)
    assert a.lines == b.lines and a.win == b.win and a.rollouts == b.rollouts


def test_analysis_reads_no_hidden_card() -> None:
    """Two positions that differ only in hidden cards give the same analysis."""
    state = _choice(seed=9)
    p = state.to_act
    # swap the two hands' hidden contents around: a different state, the same view
    hands = state.hands
    pool = list(hands[0] + hands[1])
    pool.reverse()
    other = state.replace(hands=(tuple(pool[: len(hands[0])]), tuple(pool[len(hands[0]) :])))
    assert other != state and observe(other, p) == observe(state, p)
    a = analyse(observe(state, p), SMALL, seed=5)
    b = analyse(observe(other, p), SMALL, seed=5)
    assert a.lines == b.lines and a.win == b.win


def test_more_work_narrows_the_error() -> None:
    state = _choice(seed=11)
    view = observe(state, state.to_act)
    small = analyse(view, Limit(rollouts=64), seed=2, deep=0)
    large = analyse(view, Limit(rollouts=1024), seed=2, deep=0)
    assert large.best is not None and small.best is not None
    assert large.best.samples > small.best.samples
    assert large.win_se < small.win_se
    # and more samples of the second stage
    few = analyse(view, Limit(rollouts=64), seed=2, deep=4)
    many = analyse(view, Limit(rollouts=64), seed=2, deep=40)
    assert few.best is not None and many.best is not None and many.best.samples == 40
    assert many.win_se < few.win_se


def test_positions_and_time_limits() -> None:
    state = _choice(seed=11)
    view = observe(state, state.to_act)
    by_positions = analyse(view, Limit(positions=500), seed=2)
    assert by_positions.positions >= 1
    # the limit is checked between samples: at most one sample over
    assert by_positions.positions < 500 + 40 * by_positions.considered * 10
    quick = analyse(view, Limit(time=0.05, rollouts=10**6), seed=2)
    assert quick.seconds < 2.0


def test_a_winning_line_is_exact() -> None:
    state = position(
        houses=quiet({0: "6S", 1: ""}), reserve0="5D", hand0="", waste0="", rest="hand1"
    )
    found = analyse(observe(state, 0), SMALL, multipv=2)
    assert found.exact and found.win == 1.0 and found.win_se == 0
    assert found.best is not None
    after = state
    for move in found.best.moves:
        after = c.apply(after, move)
    assert winner(after) == 0
    # the winner scores the bonus plus the loser's count
    assert found.points == c.Ruleset().win_bonus + counts(state)[1]
    h = hint(observe(state, 0), SMALL)
    assert "wins the deal" in h.reason


def test_a_finished_deal_is_exact() -> None:
    end = play_deal(c.new_game(seed=3), (get_bot("greedy", 1), get_bot("greedy", 2)))
    result = c.outcome(end)
    assert result is not None
    found = analyse(observe(end, end.to_act), SMALL)
    assert found.exact and found.lines == () and found.best is None
    assert found.win == (1.0 if result.winner == end.to_act else 0.0)
    with pytest.raises(InvalidArgumentError, match="over"):
        hint(observe(end, end.to_act))


def test_include_keeps_a_move_in_the_race() -> None:
    from crapette.analysis._analyse import analyse_scores

    state = _choice(seed=13)
    view = observe(state, state.to_act)
    worst = c.legal_moves(state)[-1]
    _, scores, keep = analyse_scores(view, Limit(rollouts=400), seed=1, include=(worst,))
    assert keep and all(scores[i].line[0] == worst for i in keep)
    assert all(scores[i].alive for i in keep)
    most = max(s.n for s in scores)
    assert all(scores[i].n == most for i in keep)
    with pytest.raises(InvalidArgumentError, match="not a legal move"):
        analyse(
            view, SMALL, include=(c.END_TURN,) if c.END_TURN not in c.legal_moves(state) else ()
        )


def test_bad_arguments() -> None:
    state = _choice()
    view = observe(state, state.to_act)
    with pytest.raises(InvalidArgumentError, match="PlayerView"):
        analyse(state)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="multipv"):
        analyse(view, SMALL, multipv=0)
    with pytest.raises(InvalidArgumentError, match="Limit"):
        analyse(view, 100)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="not to act"):
        hint(observe(state, 1 - state.to_act))


def test_hint_gives_a_value_and_a_reason() -> None:
    state = _choice(seed=17)
    view = observe(state, state.to_act)
    h = hint(view, Limit(rollouts=256), seed=4)
    assert isinstance(h, Hint)
    assert h.move == h.line[0] and h.move in c.legal_moves(state)
    assert 0 <= h.win <= 1
    assert h.reason.startswith(str(h.move)) and "win chance" in h.reason
    assert h.analysis.best is not None and h.analysis.best.moves == h.line


def test_hint_answers_within_a_second() -> None:
    state = _choice(seed=19)
    h = hint(observe(state, state.to_act), seed=1)
    assert h.analysis.seconds < 1.0


def test_explain_names_what_a_line_does() -> None:
    state = position(houses=quiet({0: "6S", 1: "9H"}), reserve0="JD 5D", hand0="8C", rest="hand1")
    view = observe(state, 0)
    from positions import mv

    assert "plays 1 card from your reserve" in explain(view, (mv("R-H1"), mv("draw")))
    assert explain(view, (mv("draw"),)).startswith("draw")


def test_terminal_hint_gives_the_reason() -> None:
    from test_play import make_game

    game, out = make_game(["hint"])
    game.run()
    lines = out.getvalue().splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("Hint: "))
    assert "win chance" in lines[at + 1]


def test_server_hint_has_the_new_fields() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from crapette.web import MemoryStore, create_app
    from crapette.web.schema import Hint as HintModel

    with TestClient(create_app(MemoryStore(), allow_seeds=True)) as client:
        made = client.post(
            "/api/games", json={"rules": "classic", "seed": 8, "opponent": "greedy"}
        ).json()
        headers = {"Authorization": f"Bearer {made['token']}"}
        url = f"/api/games/{made['game_id']}"
        data = client.get(url, headers=headers).json()
        answer = client.get(url + "/hint", headers=headers).json()
    HintModel.model_validate(answer)
    assert answer["code"] in {m["code"] for m in data["legal_moves"]}
    assert answer["notation"] == answer["line"][0] and answer["description"]
    assert 0 <= answer["win"] <= 1 and "win chance" in answer["reason"]


def test_the_second_stage_judges_the_finalists_again() -> None:
    from crapette.analysis._analyse import FINALISTS, analyse_scores
    from crapette.bots.value import load_model

    state = _choice(seed=21)
    view = observe(state, state.to_act)
    first, first_scores, _ = analyse_scores(view, SMALL, seed=4, deep=0)
    both, scores, _ = analyse_scores(view, SMALL, seed=4, deep=6)
    if load_model().deep is None:  # pragma: no cover - a model without its deep part
        assert both == first
        return
    finalists = [s for s in scores if s.alive and s.exact is None]
    assert 1 <= len(finalists) <= FINALISTS
    assert all(s.n == 6 for s in finalists)  # the second stage's samples only
    assert both.rollouts == first.rollouts + 6 * len(finalists)
    assert both.best is not None and both.best.samples == 6
    # the best line is a finalist of the first stage
    ranked = sorted(first_scores, key=lambda s: (s.alive, s.key()), reverse=True)
    assert both.best.moves in [s.line for s in ranked[:FINALISTS]]
    with pytest.raises(InvalidArgumentError, match="deep"):
        analyse(view, SMALL, deep=-1)


@pytest.mark.parametrize("preset", ["tarot", "bobcrapette", "tarot(pack=tarot78)"])
def test_samples_of_a_tarot_position_give_each_pack_its_own_cards(preset: str) -> None:
    """The hidden cards are drawn by their pack (a face-down reserve card comes from its
    owner's pack), whatever the pack's size: a tarot position is analysed, and every
    sample's reserves and hands hold the view's hidden cards, each reserve its owner's."""
    from crapette.bots.value import Sampler
    from crapette.cards import PACKS
    from crapette.deal import Rng

    rules = c.parse_rules(preset)
    owner = PACKS[rules.pack].owner
    state = play_deal(
        c.new_game(rules, seed=61), (get_bot("greedy", 1), get_bot("greedy", 2)), max_moves=40
    )
    assert state.moves_made == 40
    view = observe(state, state.to_act)
    found = hint(view, Limit(rollouts=16), seed=1, deep=2)
    assert found.move in c.legal_moves(state)
    draw = Sampler(view)
    for n in range(20):
        sample = draw(Rng(n))
        hidden = [
            card
            for p in (0, 1)
            for card in (
                *sample.reserves[p][: len(sample.reserves[p]) - state.reserve_up[p]],
                *sample.hands[p],
            )
        ]
        assert sorted(hidden) == sorted(view.hidden_cards())
        for p in (0, 1):
            down = sample.reserves[p][: len(sample.reserves[p]) - state.reserve_up[p]]
            assert all(owner[card] == p for card in down), (p, down)
