"""The Ray backend gives the same results as the local one (a local Ray with 2 CPUs)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest

# The simulation subpackage (``crapette.simulation``).
sim = importlib.import_module("crapette.simulation")

ray = pytest.importorskip("ray")

RULES = "classic(move_cap=400)"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_equals_local(local_ray: None) -> None:
    done: list[int] = []
    remote = sim.simulate(
        RULES,
        "greedy,random",
        4,
        seed=7,
        workers=2,
        backend="ray",
        progress=lambda d, t: done.append(d),
    )
    local = sim.simulate(RULES, "greedy,random", 4, seed=7)
    assert remote == local
    assert done[-1] == 4
    assert ray.is_initialized()  # a running Ray is used, not shut down


def test_ray_compare_equals_local(local_ray: None) -> None:
    rules = [RULES, "serbian(move_cap=300)"]
    remote = sim.compare(rules, "random,greedy", 2, 3, workers=2, backend="ray")
    assert remote == sim.compare(rules, "random,greedy", 2, 3)
