"""Running many jobs on worker processes or a Ray cluster: what the simulator's runs and
the analysis of many records ([`annotate_many`][crapette.analysis.annotate_many]) share, and
what a study of your own can use.

A job is a tuple of arguments for one picklable, module-level function. The jobs are taken
from their iterator only when a worker is free (an endless iterator costs nothing up front)
and every result is handed to ``on_result`` in the calling process, in completion order.
The local pool never hangs: a worker that dies is noticed at once, every wait is bounded,
and the workers are always ended when the run stops (normally, on an error or on Ctrl-C).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from crapette.simulation._pool import run_pool
from crapette.simulation._ray import run_ray

__all__ = ["BACKENDS", "run_jobs"]

BACKENDS = ("local", "ray")
"""Where jobs run: ``"local"`` (this process or spawned worker processes) or ``"ray"`` (Ray
tasks, with ``crapette[ray]``)."""


def run_jobs(
    function: Callable[..., Any],
    jobs: Iterator[tuple[Any, ...]],
    workers: int,
    on_result: Callable[[Any], bool],
    *,
    backend: str = "local",
    ray_address: str | None = None,
) -> None:
    """Run ``function(*job)`` for every job and hand each result to ``on_result``, which
    returns ``False`` to stop the run early.

    With ``backend="local"``, one worker runs the jobs in this process, one after the other;
    more start that many processes with the ``spawn`` method (so a script that runs jobs
    must do it under ``if __name__ == "__main__":``). With ``backend="ray"``, at most
    ``2 * workers`` Ray tasks are in flight.

    Args:
        function: a module-level function (workers import it by name).
        jobs: the argument tuples, taken one at a time.
        workers: processes, or Ray tasks in flight (the caller checks it is positive).
        on_result: called with each result; ``False`` stops the run.
        backend: one of [`BACKENDS`][crapette.simulation.jobs.BACKENDS].
        ray_address: an existing Ray cluster for ``backend="ray"`` (``None``: a local Ray).

    Raises:
        PoolError: a worker process raised (the message holds its exception), died, or
            failed to start, or a Ray task failed; the results already handed to
            ``on_result`` stay. With one local worker, a job's own exception propagates
            as it is.
        SimulationError: Ray is not installed or its cluster cannot be reached.
        KeyboardInterrupt: Ctrl-C; the workers are ended first.
    """
    if backend == "ray":
        run_ray(function, jobs, workers, ray_address, on_result)
    elif workers == 1:
        for job in jobs:
            if not on_result(function(*job)):
                return
    else:
        run_pool(function, jobs, workers, on_result)
