"""The C core under AddressSanitizer and UndefinedBehaviorSanitizer (gcc's
``-fsanitize=address,undefined``): no finding.

Two short runs (docs/performance.md gives the longer commands):

* ``native/fuzz.c``, the fuzz driver of every C entry point, on seeded random inputs;
* the extension module built with the sanitizers, running the Python-level fuzz of
  ``tests/test_native.py`` (hand-built states and every move of the table) in a Python
  whose allocator the sanitizer's runtime replaces (``LD_PRELOAD``).

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
         "-o", str(driver)],
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


def test_the_sanitized_extension_survives_the_python_fuzz(tmp_path: Path) -> None:
    """The binding decodes what Python passes and calls the core: under the sanitizers the
    fuzz tests of hand-built states and of every move pass, with no report."""
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
    tests = ROOT / "tests" / "test_native.py"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         str(tests), "-k", "hand_built or any_move or immutable or pickled_state",
         f"--rootdir={tmp_path}"],
        env=env, capture_output=True, text=True, timeout=900, cwd=ROOT / "tests",
    )  # fmt: skip
    output = done.stdout[-4000:] + done.stderr[-4000:]
    assert done.returncode == 0, output
    assert "ERROR: AddressSanitizer" not in output and "runtime error" not in output
    assert "passed" in done.stdout
