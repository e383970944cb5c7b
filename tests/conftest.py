"""Shared test configuration: Hypothesis profiles.

``ci`` (the default, used by ``.ci/run``) is derandomized so every run explores the same
examples; ``dev`` searches harder: ``HYPOTHESIS_PROFILE=dev pytest``.
"""

import os

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


@pytest.fixture(autouse=True)
def _quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sessions' hints (the server's and the terminal game's) from a small analysis:
    the web tests play whole deals by hints, each an analysis (tests/test_analysis.py
    checks the hint at its real limit)."""
    from crapette.analysis import Limit
    from crapette.session import Session

    monkeypatch.setattr(Session, "hint_limit", Limit(rollouts=24))
    monkeypatch.setattr(Session, "hint_deep", 2)
