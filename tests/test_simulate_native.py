"""The simulator's native batch loop: the native engine plays deals between the random and
greedy bots itself, giving exactly the records of the Python game loop, and says so."""

from __future__ import annotations

import json

import pytest

import crapette as c
from crapette.simulation import simulate
from crapette.simulation._run import batch_policies

needs_native = pytest.mark.skipif(c.ENGINE != "native", reason="the native engine does not run")


@needs_native
@pytest.mark.parametrize("preset", sorted(c.PRESETS))
@pytest.mark.parametrize("bots", ["greedy,greedy", "greedy,random", "random,greedy"])
def test_the_batch_loop_gives_the_game_loops_records(preset: str, bots: str) -> None:
    games = 12 if "random" in bots else 40
    batch = simulate(preset, bots, games, seed=17)
    loop = simulate(preset, bots, games, seed=17, batch=False)
    assert batch.batch and not loop.batch
    assert batch.records == loop.records
    assert batch.summary == loop.summary


@needs_native
def test_the_batch_loop_is_used_only_for_the_engines_own_bots() -> None:
    assert batch_policies(("greedy", "random")) == (1, 0)
    for seats in (("greedy", "search:4"), ("greedy:miss=0.1", "greedy"), ("planner:8", "random")):
        assert batch_policies(seats) is None
    assert not simulate("classic", "greedy,search:4", 2, seed=1).batch


@needs_native
def test_workers_and_batches_give_the_same_records() -> None:
    one = simulate("pagat", "greedy,greedy", 24, seed=5)
    two = simulate("pagat", "greedy,greedy", 24, seed=5, workers=2)
    later = simulate("pagat", "greedy,greedy", 8, seed=5, start=16)
    assert one.records == two.records and one.records[16:] == later.records


@needs_native
def test_the_command_says_which_loop_played(capsys: pytest.CaptureFixture[str]) -> None:
    from crapette import cli

    args = ["simulate", "--rules", "classic", "--bots", "greedy,greedy", "--games", "4"]
    assert cli.main(args) == 0
    assert "native engine's batch loop" in capsys.readouterr().out
    assert cli.main(["simulate", "--bots", "greedy,search:4", "--games", "2"]) == 0
    assert "batch loop" not in capsys.readouterr().out


def test_the_result_says_whether_the_batch_loop_played() -> None:
    result = simulate("classic", "greedy,greedy", 2, seed=3)
    assert result.batch == (c.ENGINE == "native")
    assert json.loads(json.dumps(result.to_dict()))["batch"] == result.batch
