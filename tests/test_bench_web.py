"""The web load check (``benchmarks/bench_web.py``) runs on a tiny budget with no errors:
its server starts on a loopback port and stops, its games are all open at once, its
followers receive updates."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("fastapi")

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_web.py"


@pytest.mark.skipif(not SCRIPT.exists(), reason="no benchmarks/ next to the tests")
def test_the_load_check_runs_with_no_errors(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_web", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["--games", "6", "--clients", "2", "--max-moves", "8", "--followers", "2"]
    assert module.main([*argv, "--time-limit", "120"]) == 0
    out = capsys.readouterr().out
    assert "all open at once (6 created)" in out
    assert re.search(r"human moves made: 4[0-8]\b", out), out  # 8 a game, fewer if one ends
    assert int(re.search(r"WebSocket updates received: (\d+)", out).group(1)) > 16  # type: ignore[union-attr]
    assert "errors: 0" in out
