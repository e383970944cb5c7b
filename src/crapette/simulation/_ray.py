"""The Ray backend of the simulator (the optional ``crapette[ray]`` extra): joining or
starting Ray, and running the batches of a run as Ray tasks."""

from __future__ import annotations

import contextlib
import importlib
import socket
from collections.abc import Callable, Iterator
from typing import Any

from crapette.simulation.errors import PoolError, SimulationError

__all__ = ["check_ray_address", "ray_session", "run_ray"]


def _import_ray() -> Any:
    """Ray, an optional dependency (typed ``Any`` so type checks pass without it).

    Raises:
        SimulationError: Ray is not installed.
    """
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SimulationError("the Ray backend needs Ray: pip install 'crapette[ray]'") from None


def check_ray_address(address: str) -> None:
    """Fail early when a Ray address is malformed or its host and port do not answer.

    Raises:
        SimulationError: the address is not ``host:port``, ``ray://host:port`` or ``auto``,
            or nothing answers there within 5 seconds.
    """
    if address == "auto":
        return
    target = address.split("://", 1)[-1].rstrip("/")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise SimulationError(
            f"bad Ray address {address!r}: expected host:port, ray://host:port or auto"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise SimulationError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None


@contextlib.contextmanager
def ray_session(address: str | None = None, num_cpus: int | None = None) -> Iterator[Any]:
    """Ray, ready to run tasks: the Ray already running in this process, else a cluster
    joined at ``address``, else a new local Ray with ``num_cpus`` CPUs. A Ray started here is
    shut down on exit. Yields the ``ray`` module.

    Raises:
        SimulationError: Ray is missing, the address is unreachable, or Ray fails to start.
    """
    ray = _import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address is not None:
        check_ray_address(address)
    try:
        if address is None:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    except Exception as exc:  # Ray raises many kinds (ConnectionError, RuntimeError...)
        raise SimulationError(f"cannot start or join Ray ({address or 'local'}): {exc}") from exc
    try:
        yield ray
    finally:
        ray.shutdown()


def run_ray(
    function: Callable[..., Any],
    tasks: Iterator[tuple[Any, ...]],
    workers: int,
    address: str | None,
    on_result: Callable[[Any], bool],
) -> None:
    """Run ``function(*task)`` for every task as Ray tasks, at most ``2 * workers`` in
    flight (so the work is made lazily), waiting at most a second at a time; ``on_result``
    gets each result and returns ``False`` to stop. A lost task stops the run.

    Raises:
        PoolError: a Ray task failed.
    """
    with ray_session(address, workers) as ray:
        remote = ray.remote(function)
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < 2 * workers:
                    task = next(tasks, None)
                    if task is None:
                        break
                    pending.append(remote.remote(*task))
                if not pending:
                    return
                ready, pending = ray.wait(pending, num_returns=1, timeout=1.0)
                if not ready:
                    continue
                try:
                    result = ray.get(ready[0], timeout=60)
                except Exception as exc:  # Ray's task, worker and timeout errors
                    raise PoolError(f"a Ray task failed: {type(exc).__name__}: {exc}") from None
                if not on_result(result):
                    return
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
