"""The runner of jobs that the simulator and the analysis of many records share
(``crapette.simulation.jobs.run_jobs``): in this process, in spawned worker processes, and
what a failing job or an early stop does."""

from __future__ import annotations

import itertools

import pytest

from crapette.simulation.errors import PoolError
from crapette.simulation.jobs import BACKENDS, run_jobs


def square(k: int) -> tuple[int, int]:
    """A job: its number and its square."""
    return k, k * k


def fail_on_three(k: int) -> int:
    """A job that raises on 3."""
    if k == 3:
        raise ValueError(f"job {k} failed")
    return k


@pytest.mark.parametrize("workers", [1, 2])
def test_every_job_runs_once_and_each_result_reaches_the_caller(workers: int) -> None:
    results: list[tuple[int, int]] = []
    run_jobs(square, ((k,) for k in range(12)), workers, lambda r: results.append(r) or True)
    assert sorted(results) == [(k, k * k) for k in range(12)]


def test_one_worker_runs_in_this_process_and_stops_when_asked() -> None:
    taken: list[int] = []
    jobs = ((k,) for k in itertools.count())  # endless: taken one at a time

    def take(result: tuple[int, int]) -> bool:
        taken.append(result[0])
        return len(taken) < 5

    run_jobs(square, jobs, 1, take)
    assert taken == [0, 1, 2, 3, 4]
    assert next(jobs) == (5,)  # nothing taken beyond the stop


def test_workers_stop_early_on_an_endless_iterator() -> None:
    taken: list[int] = []

    def take(result: tuple[int, int]) -> bool:
        taken.append(result[0])
        return len(taken) < 4

    run_jobs(square, ((k,) for k in itertools.count()), 2, take)
    assert len(taken) == 4


def test_a_failing_job_stops_the_pool_with_its_error_and_keeps_the_results_so_far() -> None:
    results: list[int] = []
    with pytest.raises(PoolError, match="job 3 failed"):
        run_jobs(fail_on_three, ((k,) for k in range(8)), 2, lambda r: results.append(r) or True)
    assert 3 not in results


def test_a_failing_job_in_this_process_raises_its_own_error() -> None:
    with pytest.raises(ValueError, match="job 3 failed"):
        run_jobs(fail_on_three, ((k,) for k in range(8)), 1, lambda r: True)


def test_the_backends() -> None:
    assert BACKENDS == ("local", "ray")
