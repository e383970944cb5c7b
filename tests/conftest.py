"""Shared test configuration: Hypothesis profiles, and the two selections of the suite.

``ci`` (the default, used by ``.ci/run``) is derandomized so every run explores the same
examples; ``dev`` searches harder: ``HYPOTHESIS_PROFILE=dev pytest``.

Two markers, given here by module so that a new test of an engine-level module is in its
selection without a decorator:

* ``engine``: the tests of what the engine does (the rules, states, moves, outcomes, views,
  notation, records, the bots' choices, bad input), whose code differs between the native
  engine and the Python engine. The README's test command runs the whole suite on the
  native engine, then ``CRAPETTE_PURE=1 python -m pytest -m engine``: these again on the
  Python engine. Everything else (the server, the web page, the command line, the
  simulator's machinery, the docs, the JavaScript package) runs on whichever engine is
  installed and does not depend on which, so the native pass covers it.
* ``native``: the tests that need the native engine itself (the lockstep comparison of the
  two engines, the sanitizers, the native batch loop) or that the lockstep comparison
  carries over to the Python engine (the move generator against the reference one); the
  native pass runs them, and the release wheels run ``engine or native`` against each
  wheel.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "dev",
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ENGINE_MODULES = frozenset(
    {
        "test_bot_ranking",
        "test_bots",
        "test_build",
        "test_errors",
        "test_faces",
        "test_fallible",
        "test_match",
        "test_notation",
        "test_parsers_fuzz",
        "test_perft",
        "test_planner",
        "test_properties",
        "test_records",
        "test_rules_building",
        "test_rules_deal",
        "test_rules_end",
        "test_rules_options",
        "test_rules_priority",
        "test_rules_refusals",
        "test_rules_stop",
        "test_rules_turn",
        "test_serialize",
        "test_state",
        "test_stateful",
        "test_views",
    }
)
"""The modules of the ``engine`` selection (see the module docstring)."""

NATIVE_MODULES = frozenset(
    {"test_movegen_oracle", "test_native", "test_sanitizers", "test_simulate_native"}
)
"""The modules of the ``native`` selection. ``test_movegen_oracle`` is here rather than in
``engine``: it holds the engine's ``legal_moves`` to the plain reference generator, which
costs the same on both engines (a third of the Python-engine pass), and the Python engine's
generator is held to the native one move for move by the lockstep tests (``test_native``,
``test_hand_built_states``), so the native pass proves it equal to the reference too; the
release wheels run it against each wheel."""


def pytest_configure(config: pytest.Config) -> None:
    """Declare the markers."""
    config.addinivalue_line(
        "markers", "engine: a test of the engine's behaviour, run on both engines"
    )
    config.addinivalue_line("markers", "native: a test that needs the native engine itself")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by its module: ``engine`` or ``native`` (or neither)."""
    for item in items:
        module = Path(str(item.fspath)).stem
        if module in ENGINE_MODULES:
            item.add_marker(pytest.mark.engine)
        if module in NATIVE_MODULES:
            item.add_marker(pytest.mark.native)


@pytest.fixture(autouse=True)
def _quick_hints(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """The sessions' hints (the server's and the terminal game's) from a small analysis
    (tests/test_analysis.py checks the hint at its real limit).

    The web tests (``test_web_*``) play whole deals by hints, from seeds chosen as deals
    that the greedy bot's moves finish in a few dozen moves; a small analysis plays long
    shuffles of sequences between houses instead. There the hint's move is the greedy
    bot's choice (``Session.quick_hint``), its value, reason and fields still the
    analysis's: the server's hint route runs as it does for a user."""
    import attrs

    from crapette.analysis import Hint, Limit
    from crapette.session import Session

    monkeypatch.setattr(Session, "hint_limit", Limit(rollouts=24))
    monkeypatch.setattr(Session, "hint_deep", 2)
    if not Path(str(request.node.fspath)).stem.startswith("test_web_"):
        return
    analysed = Session.advice

    def greedy_advice(self: Session, seat: int) -> Hint:
        found = analysed(self, seat)
        move = self.quick_hint(seat)
        return attrs.evolve(found, move=move, line=(move,))

    monkeypatch.setattr(Session, "advice", greedy_advice)
