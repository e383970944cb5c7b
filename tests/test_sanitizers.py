"""The C core under AddressSanitizer and UndefinedBehaviorSanitizer (gcc's
``-fsanitize=address,undefined``): no finding.

Short runs (docs/performance.md gives the longer commands):

* ``native/fuzz.c``, the fuzz driver of every C entry point and of the WebAssembly binding
  (``native/wasm_api.c`` compiled natively), on seeded random inputs;
* the extension module built with the sanitizers, in a Python whose allocator the
  sanitizer's runtime replaces (``LD_PRELOAD``), running the Python-level fuzz of every
  public function that reaches the binding (``tests/fuzz_binding.py``), and the tests of
  ``tests/test_native.py`` and ``tests/test_binding_guards.py`` that hand-build states and
  try every move of the table.

``CRAPETTE_FUZZ_ITERATIONS`` sets the inputs of ``fuzz.c`` and ``CRAPETTE_FUZZ_CALLS`` the
calls of the Python-level fuzz, for a long run.

They need gcc and a source checkout (``native/``); without gcc they skip, except in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "native"
FLAGS = ["-std=c11", "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]

if os.environ.get("CRAPETTE_PURE", "").strip() not in ("", "0"):
    pytest.skip("the native engine's run does these (CRAPETTE_PURE=1)", allow_module_level=True)
if not (NATIVE / "fuzz.c").is_file():
    pytest.skip("no source checkout beside the tests", allow_module_level=True)
if shutil.which("gcc") is None:
    if os.environ.get("CI") == "1":
        raise RuntimeError("CI needs gcc for the sanitizer runs")
    pytest.skip("gcc is not installed (Debian: apt-get install gcc)", allow_module_level=True)


def _runtime(name: str) -> str:
    return subprocess.run(
        ["gcc", f"-print-file-name={name}"], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_the_fuzz_driver_finds_nothing(tmp_path: Path) -> None:
    driver = tmp_path / "fuzz"
    subprocess.run(
        ["gcc", *FLAGS, f"-I{NATIVE}", str(NATIVE / "fuzz.c"), str(NATIVE / "crapette_core.c"),
         str(NATIVE / "wasm_api.c"), "-o", str(driver)],
        check=True,
    )  # fmt: skip
    iterations = os.environ.get("CRAPETTE_FUZZ_ITERATIONS", "4000")
    done = subprocess.run(
        [str(driver), iterations, "7"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "no finding" in done.stdout
    decoded = int(done.stdout.split("(")[1].split()[0])
    assert decoded > int(iterations) // 2  # most inputs reach the entry points
    binding = int(done.stdout.split("states, ")[1].split()[0])
    assert binding > int(iterations)  # and the binding, several calls each


@pytest.fixture(scope="module")
def sanitized(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The package with the extension built with the sanitizers, and the environment that
    runs it (the sanitizers' runtime preloaded)."""
    tmp_path = tmp_path_factory.mktemp("sanitized")
    package = tmp_path / "lib"
    build = subprocess.run(
        [sys.executable, str(NATIVE / "build.py"), "--sanitize", "--out", str(tmp_path / "ext")],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    shutil.copytree(ROOT / "src" / "crapette", package / "crapette")
    for old in (package / "crapette").glob("_core*"):
        if old.suffix != ".pyi":
            old.unlink()
    for built in (tmp_path / "ext" / "crapette").glob("_core*"):
        shutil.copy(built, package / "crapette" / built.name)
    env = dict(
        os.environ,
        PYTHONPATH=str(package),
        LD_PRELOAD=f"{_runtime('libasan.so')} {_runtime('libubsan.so')}",
        ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1",
        CRAPETTE_EXPECT_NATIVE="1",
    )
    env.pop("CRAPETTE_PURE", None)
    env.pop("PYTEST_ADDOPTS", None)  # its own options (CI's -q would hide the summary)
    return tmp_path, env


def _clean(done: subprocess.CompletedProcess[str]) -> str:
    output = done.stdout[-4000:] + done.stderr[-4000:]
    assert done.returncode == 0, output
    assert "ERROR: AddressSanitizer" not in output and "runtime error" not in output
    return output


def test_the_sanitized_extension_survives_the_python_fuzz(
    sanitized: tuple[Path, dict[str, str]],
) -> None:
    """The binding decodes what Python passes and calls the core: under the sanitizers the
    fuzz tests of hand-built states, of every move and of the guards pass, with no report."""
    tmp_path, env = sanitized
    tests = [str(ROOT / "tests" / name) for name in ("test_native.py", "test_binding_guards.py")]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         *tests, "-k", "hand_built or any_move or immutable or pickled_state or refused or cannot"
         " or longer or wraps", f"--rootdir={tmp_path}"],
        env=env, capture_output=True, text=True, timeout=900, cwd=ROOT / "tests",
    )  # fmt: skip
    _clean(done)
    assert "passed" in done.stdout


def test_the_sanitized_extension_survives_the_binding_fuzz(
    sanitized: tuple[Path, dict[str, str]],
) -> None:
    """Random calls of every public function that reaches the binding
    (``tests/fuzz_binding.py``): library errors only, right answers after refusals, and no
    report of the sanitizers."""
    _, env = sanitized
    calls = os.environ.get("CRAPETTE_FUZZ_CALLS", "3000")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "fuzz_binding.py"), calls, "11"],
        env=env, capture_output=True, text=True, timeout=3600, cwd=ROOT / "tests",
    )  # fmt: skip
    _clean(done)
    assert f"fuzz_binding: {calls} calls" in done.stdout and "on the native engine" in done.stdout
