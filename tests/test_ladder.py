"""The rating ladder: the Bradley-Terry fit, the round robin and ``crapette ladder``."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from crapette.cli import main
from crapette.errors import InvalidRulesError, UnknownBotError
from crapette.simulation.errors import SimulationError
from crapette.simulation.ladder import Ladder, bradley_terry, ladder

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_bradley_terry_two_bots() -> None:
    a, b = bradley_terry([[0, 30], [10, 0]])
    # With a virtual half win each way the odds are 30.5 to 10.5.
    assert a - b == pytest.approx(400 * math.log10(30.5 / 10.5), abs=1e-6)
    assert a + b == pytest.approx(0, abs=1e-9)


def test_bradley_terry_orders_and_centres() -> None:
    wins = [[0, 8, 9], [2, 0, 7], [1, 3, 0]]
    ratings = bradley_terry(wins)
    assert ratings[0] > ratings[1] > ratings[2]
    assert sum(ratings) == pytest.approx(0, abs=1e-6)
    assert bradley_terry([[0, 5], [5, 0]]) == pytest.approx([0, 0], abs=1e-9)
    assert bradley_terry([[0, 0], [0, 0]]) == [0.0, 0.0]  # never met
    # Perfect records stay finite.
    assert all(math.isfinite(r) for r in bradley_terry([[0, 10], [0, 0]]))


def test_ladder_round_robin() -> None:
    result = ladder(["random", "greedy", "greedy:miss=0.5"], "pagat", games=4, seed=2, bootstrap=50)
    assert isinstance(result, Ladder)
    assert result.rules == "pagat" and result.bots == ("random", "greedy", "greedy:miss=0.5")
    assert len(result.results) == 3
    assert [r.bots for r in result.results] == [
        ("random", "greedy"),
        ("random", "greedy:miss=0.5"),
        ("greedy", "greedy:miss=0.5"),
    ]
    assert result.ratings[-1].bot == "random"
    assert sum(r.rating for r in result.ratings) == pytest.approx(0, abs=1e-6)
    for r in result.ratings:
        assert r.deals == 8 and r.wins + r.losses + r.undecided == 8
        # an interval, or none where every resample agrees; never a zero-width one
        assert (r.low is None and r.high is None) or (r.low is not None and r.high is not None)
        if r.low is not None and r.high is not None:
            assert r.low <= r.rating <= r.high and r.low < r.high
    assert (
        result.ratings
        == ladder(
            ["random", "greedy", "greedy:miss=0.5"], "pagat", games=4, seed=2, bootstrap=50
        ).ratings
    )
    assert "greedy" in result.table() and "95% interval" in result.table()
    data = json.loads(json.dumps(result.to_dict()))
    assert data["ratings"][0]["bot"] == result.ratings[0].bot


def test_ladder_without_bootstrap() -> None:
    result = ladder(["random", "greedy"], games=2, seed=1, bootstrap=0)
    for r in result.ratings:
        assert r.low is None and r.high is None
        assert r.to_dict()["low"] is None
    assert "[" not in result.table()


def test_a_sweep_gets_no_zero_width_interval() -> None:
    """Four deals all won by greedy: every resample gives the same ratings, so the
    bootstrap cannot measure anything; the ladder says so instead of printing [x, x]."""
    result = ladder(["random", "greedy"], games=4, seed=0, bootstrap=100)
    assert [r.wins for r in result.ratings] == [4, 0]
    for r in result.ratings:
        assert r.low is None and r.high is None
    table = result.table()
    assert "no interval" in table and "+191, +191" not in table
    assert json.loads(json.dumps(result.to_dict()))["ratings"][0]["high"] is None


def test_absurd_bootstrap_counts_are_refused_before_any_deal() -> None:
    calls: list[tuple[int, int]] = []
    with pytest.raises(SimulationError, match="at most 100000 resamples, not 1000000000"):
        ladder(["random", "greedy"], games=2, bootstrap=10**9, progress=lambda *a: calls.append(a))
    assert calls == []


def test_progress_counts_every_deal_then_every_resample() -> None:
    calls: list[tuple[int, int]] = []
    ladder(
        ["random", "greedy", "greedy:miss=0.5"],
        games=4,
        bootstrap=200,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert {total for _, total in calls} == {3 * 4 + 200}
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == 3 * 4 + 200
    assert 3 * 4 in done  # the deals, then the resamples
    assert len([d for d in done if d > 12]) >= 100  # the bootstrap shows progress too


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"bots": ["greedy"]}, SimulationError, "at least two bots"),
        ({"bots": ["greedy", "greedy"]}, SimulationError, "named twice"),
        ({"bots": ["greedy", "nobody"]}, UnknownBotError, "unknown bot 'nobody'"),
        ({"bots": ["greedy", "greedy:miss=2"]}, UnknownBotError, "not a probability"),
        ({"games": 0}, SimulationError, "games must be a positive integer"),
        ({"bootstrap": -1}, SimulationError, "bootstrap"),
        ({"bootstrap": 100_001}, SimulationError, "at most 100000"),
        ({"rules": "nope"}, InvalidRulesError, "nope"),
    ],
)
def test_ladder_bad_input(kwargs: dict[str, object], error: type[Exception], match: str) -> None:
    args: dict[str, object] = {"bots": ["random", "greedy"], "games": 2}
    args.update(kwargs)
    with pytest.raises(error, match=match):
        ladder(**args)  # type: ignore[arg-type]


def test_ladder_command(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    assert main(["ladder", "--bots", "random,greedy", "--games", "2", "--bootstrap", "20"]) == 0
    out = capsys.readouterr().out
    assert "ladder on classic: 2 deals per pairing" in out and "greedy" in out
    assert main(["ladder", "--bots", "random,greedy", "--games", "2", "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["bot"] for r in data["ratings"]] == ["greedy", "random"]
    bad = "/nonexistent-dir/ladder.json"
    assert main(["ladder", "--bots", "random,greedy", "--games", "2", "--json", bad]) == 2
    assert "cannot write --json" in capsys.readouterr().err
    assert main(["ladder", "--bots", "random,nobody", "--games", "2"]) == 1
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_bootstrap_intervals_have_width() -> None:
    # Mixed results give intervals that contain the rating strictly inside.
    bots = ["greedy", "greedy:miss=0.05:call=0.5"]
    result = ladder(bots, "pagat", games=8, seed=2, bootstrap=100)
    won = [r.wins for r in result.ratings]
    assert all(won), won  # each side won some deals
    for r in result.ratings:
        assert r.low is not None and r.high is not None
        assert r.low < r.rating < r.high


def test_ninety_five_percent_prints_once() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "crapette", "ladder", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "95% bootstrap" in " ".join(done.stdout.split()) and "%%" not in done.stdout
    assert "%%" not in (DOCS / "cli.md").read_text(encoding="utf-8")
