"""The JavaScript package (js/) stays equal to the library: the committed test vectors are
what the library writes today, the committed WebAssembly file is the build of the committed
C sources (and, where clang is installed, rebuilding it gives the same bytes), and the
documentation's example prints in JavaScript what the same program prints in Python.

The JavaScript tests themselves run with ``node --test`` in ``js/`` (``.ci/run``). A test
that needs ``node`` or ``clang`` is skipped when the tool is missing, unless ``CI`` is set:
then it fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

import crapette
from crapette.bots import GreedyBot
from crapette.deal import Rng

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "js"
IN_CI = bool(os.environ.get("CI"))

pytestmark = pytest.mark.skipif(
    not (JS / "package.json").exists(), reason="no js/ beside the tests"
)


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def need(*tools: str) -> list[str]:
    """The paths of the first tool found of each group, or skip (fail in CI)."""
    found = []
    for tool in tools:
        path = next((p for name in tool.split("|") if (p := shutil.which(name))), None)
        if path is None:
            message = (
                f"{tool.replace('|', ' or ')} is not installed (Debian: apt-get install"
                " nodejs npm clang lld wasi-libc libclang-rt-14-dev-wasm32, as the README says)"
            )
            if IN_CI:
                pytest.fail(f"{message} (CI must install it)")
            pytest.skip(message)
        found.append(path)
    return found


def test_the_vectors_are_what_the_library_writes_today(tmp_path: Path) -> None:
    generator = load(JS / "vectors" / "gen_vectors.py")
    written = generator.write(tmp_path)
    assert [p.name for p in written] == [f"{name}.json" for name in generator.FILES]
    stale = [p.name for p in written if p.read_bytes() != (JS / "vectors" / p.name).read_bytes()]
    assert not stale, (
        f"js/vectors/{', '.join(stale)} differ from what the library writes now: if the change"
        " of behaviour is meant, run python js/vectors/gen_vectors.py and make the JavaScript"
        " tests (cd js && node --test) pass"
    )


def test_the_wasm_file_is_built_from_the_current_sources() -> None:
    build = load(JS / "build_wasm.py")
    assert build.check_fresh() is None


def test_a_stale_wasm_file_is_noticed(tmp_path: Path) -> None:
    build = load(JS / "build_wasm.py")
    build.MANIFEST = tmp_path / "manifest.json"
    build.MANIFEST.write_text('{"sources_sha256": "0", "wasm_sha256": "0"}')
    problem = build.check_fresh()
    assert problem is not None and "C sources changed" in problem


def test_rebuilding_the_wasm_file_gives_the_same_bytes() -> None:
    need("clang|clang-14", "wasm-ld|wasm-ld-14")
    if not any(
        Path(p, "string.h").is_file()
        for p in ("/usr/include/wasm32-wasi", "/usr/share/wasi-sysroot/include")
    ):
        if IN_CI:
            pytest.fail("the wasi-libc headers are not installed (CI must install wasi-libc)")
        pytest.skip("the wasi-libc headers are not installed (Debian: apt-get install wasi-libc)")
    build = load(JS / "build_wasm.py")
    clang, _ = build.toolchain()
    recorded = json.loads(build.MANIFEST.read_text())["clang"]
    if build.clang_version(clang) != recorded and not IN_CI:
        pytest.skip(f"another clang than the one that built the file ({recorded})")
    assert build.check_rebuild() is None


def python_example() -> str:
    """js/examples/play.js written with the Python library."""
    greedy = GreedyBot(7)
    rng = Rng(2024)
    state = crapette.new_game("classic", seed=12345678901234567890)
    moves = 0
    while crapette.outcome(state) is None:
        if state.to_act == 0:
            move = greedy.choose(crapette.observe(state, 0))
        else:
            legal = crapette.legal_moves(state)
            move = legal[rng.below(len(legal))]
        state = crapette.apply(state, move)
        moves += 1
    result = crapette.outcome(state)
    assert result is not None
    winner = "null" if result.winner is None else result.winner
    scores = f"{result.scores[0]}-{result.scores[1]}"
    summary = f"{result.reason} after {moves} moves: winner {winner}, scores {scores}"
    return f"{summary}\n{crapette.format_position(state)}\n"


def test_the_documented_example_prints_what_python_prints() -> None:
    (node,) = need("node")
    out = subprocess.run(
        [node, str(JS / "examples" / "play.js")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert out.stdout == python_example()
    docs = (ROOT / "docs" / "javascript.md").read_text()
    assert '--8<-- "js/examples/play.js"' in docs
    assert out.stdout.splitlines()[0] in docs


def test_the_benchmark_runs_and_both_builds_play_the_same_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    need("node")
    bench = load(ROOT / "benchmarks" / "bench_wasm.py")
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "WebAssembly batch in Node" in out
    assert "same games in both builds: yes" in out
