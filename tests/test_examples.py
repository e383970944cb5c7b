"""Every script in ``examples/`` runs as it is, without input, and prints its result."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py")) if EXAMPLES.is_dir() else []

EXPECTED = {
    "quickstart.py": "The deal ended after",
    "custom_frontend.py": "wins; scores",
    "variant_experiment.py": "Answer:",
    "bot_tournament.py": "deals won",
    "external_bot.py": "turn-searcher vs greedy on classic:",
}


def run(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(script), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_every_example_is_tested() -> None:
    if not SCRIPTS:
        pytest.skip("no examples/ directory next to the tests")
    assert {s.name for s in SCRIPTS} == set(EXPECTED)


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_example_runs(script: Path) -> None:
    result = run(script)
    assert result.returncode == 0, result.stderr
    assert EXPECTED[script.name] in result.stdout


def test_custom_frontend_auto_flag_and_seed() -> None:
    if not SCRIPTS:
        pytest.skip("no examples/ directory next to the tests")
    script = EXAMPLES / "custom_frontend.py"
    result = subprocess.run(
        [sys.executable, str(script), "--auto", "--seed", "3"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "wins; scores" in result.stdout
