"""The two engines: the native core (``crapette._core``, the C extension) and the Python
engine (``CRAPETTE_PURE=1``, or no extension).

These run on either install. Without the extension both sides are the Python engine (the
checks still hold); ``.ci/run`` builds the extension, so there they compare the two.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import crapette
from crapette import _build

# Calls of public entry points with bad arguments, whose error type and message must not
# depend on the engine: both check their arguments and word the TypeError alike
# (crapette._build.argument_type_error). (Private helpers are not held to this.)
BAD_CALLS = r"""
import json
import crapette as c
from crapette import testing, views
from crapette.deal import Rng

state = c.new_game(seed=1)
view = c.observe(state, 0)
names = "rules to_act foundations houses reserves reserve_up hands wastes turned stop emptied"
fields = {name: getattr(state, name) for name in names.split()}
calls = {
    "new_game seed str": lambda: c.new_game(seed="1"),
    "new_game seed float": lambda: c.new_game(seed=1.5),
    "new_game seed bool": lambda: c.new_game(seed=True),
    "new_game rules int": lambda: c.new_game(3, seed=1),
    "Rng str": lambda: Rng("1"),
    "preset int": lambda: c.Ruleset.preset(3),
    "preset unknown": lambda: c.Ruleset.preset("nope"),
    "from_string None": lambda: c.Ruleset.from_string(None),
    "from_string bad option": lambda: c.Ruleset.from_string("classic(foo=1)"),
    "legal_moves str": lambda: c.legal_moves("state"),
    "legal_moves None": lambda: c.legal_moves(None),
    "apply text": lambda: c.apply(state, "R-F"),
    "apply int": lambda: c.apply(state, 3),
    "apply None": lambda: c.apply(state, None),
    "apply not a state": lambda: c.apply("state", c.DRAW),
    "apply illegal": lambda: c.apply(state, c.Move.play(0, 1)),
    "apply_unchecked not a state": lambda: c.apply_unchecked("state", c.DRAW),
    "observe player str": lambda: c.observe(state, "0"),
    "observe player 2": lambda: c.observe(state, 2),
    "observe player None": lambda: c.observe(state, None),
    "observe not a state": lambda: c.observe("state", 0),
    "determinize int rng": lambda: views.determinize(view, 5),
    "outcome str": lambda: c.outcome("state"),
    "is_over str": lambda: c.is_over("state"),
    "why_illegal str": lambda: c.why_illegal(state, "R-F"),
    "Move.play str": lambda: c.Move.play("H1", 2),
    "Move.play float": lambda: c.Move.play(0, 1.0),
    "parse_card int": lambda: c.parse_card(3),
    "perft depth str": lambda: testing.perft(state, "2"),
    "legal_moves tuple": lambda: c.legal_moves((1, "a", None)),
    "legal_moves view": lambda: c.legal_moves(view),
    "why_illegal not a state": lambda: c.why_illegal("state", c.DRAW),
    "reference_legal_moves str": lambda: testing.reference_legal_moves("state"),
    "determinize not a view": lambda: views.determinize(state, Rng(1)),
    "assign a field": lambda: setattr(state, "to_act", 1),
    "assign a property": lambda: setattr(state, "seen", frozenset()),
    "assign a method": lambda: setattr(state, "replace", None),
    "assign a new name": lambda: setattr(state, "colour", 1),
    "assign __class__": lambda: setattr(state, "__class__", int),
    "delete a field": lambda: delattr(state, "houses"),
    "delete a new name": lambda: delattr(state, "colour"),
    "GameState to_act str": lambda: state.replace(to_act="1"),
    "GameState houses list": lambda: c.GameState(**{**fields, "houses": list(state.houses)}),
    "GameState stop str": lambda: state.replace(stop="R-F"),
    "GameState houses_key str": lambda: c.GameState(**{**fields, "houses_key": "0"}),
}
out = {}
for name, call in calls.items():
    try:
        call()
    except Exception as error:
        out[name] = [type(error).__name__, str(error)]
    else:
        out[name] = ["no error", ""]
print(json.dumps(out))
"""


def _run(code: str, pure: bool | None, **env_changes: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("CRAPETTE_PURE", "PYTHONWARNINGS")}
    if pure is not None:
        env["CRAPETTE_PURE"] = "1" if pure else ""
    env.update(env_changes)
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.strip().splitlines()[-1]


def _native_available() -> bool:
    return (
        _run("from crapette import _build; print(_build.native_core() is not None)", False)
        == "True"
    )


NATIVE = _native_available()
needs_native = pytest.mark.skipif(
    not NATIVE and os.environ.get("CI") != "1",
    reason="the native extension is not built (python native/build.py)",
)


def test_engine_says_which_engine_runs() -> None:
    """``crapette.ENGINE`` is "native" exactly when the extension module is loaded (the name
    ``COMPILED`` of a retired mypyc build is gone)."""
    loaded = "crapette._core" in sys.modules
    assert ("native" if loaded else "python") == crapette.ENGINE
    assert not hasattr(crapette, "COMPILED")
    assert (crapette.GameState.__module__, crapette.GameState.__qualname__) == (
        "crapette.state",
        "GameState",
    )
    if os.environ.get("CRAPETTE_EXPECT_NATIVE") == "1" and not _build.pure_requested():
        # (set by .ci/run, for its native pass, and by .ci/wheel-test)
        assert crapette.ENGINE == "native", "the native engine does not run"


@needs_native
def test_crapette_pure_selects_the_python_engine() -> None:
    """With the extension built, ``CRAPETTE_PURE=1`` runs the Python engine and no
    setting (or ``CRAPETTE_PURE=0``, empty) runs the native one: read the right way round."""
    assert NATIVE, "CI builds the native extension: it must load"
    code = "import sys, crapette; print(crapette.ENGINE, 'crapette._core' in sys.modules)"
    assert _run(code, pure=True) == "python False"
    assert _run(code, pure=False) == "native True"
    assert _run(code, pure=None, CRAPETTE_PURE="0") == "native True"
    assert _run(code, pure=None, CRAPETTE_PURE="no") == "native True"


def test_require_native_refuses_to_run_without_it() -> None:
    """``CRAPETTE_REQUIRE_NATIVE=1`` makes a missing native engine an ImportError (here by
    asking for the Python engine at the same time)."""
    code = "import crapette"
    env = dict(os.environ, CRAPETTE_PURE="1", CRAPETTE_REQUIRE_NATIVE="1")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode != 0 and "CRAPETTE_REQUIRE_NATIVE" in result.stderr


@needs_native
def test_the_extension_is_built_from_these_sources() -> None:
    """The extension loaded from a source checkout was built from its C sources (an edited
    C file that was not rebuilt warns at import and fails here)."""
    native = Path(crapette.__file__).resolve().parent.parent.parent / "native"
    if not native.is_dir():
        pytest.skip("an installed package: no sources beside it")
    code = "from crapette import _core; print(_core.SOURCE_HASH)"
    assert _run(code, pure=False) == _build.source_hash(native)


def test_bad_arguments_raise_the_same_errors_in_both_engines() -> None:
    """Every bad call raises the same error type and message, native or Python."""
    pure = json.loads(_run(BAD_CALLS, pure=True))
    installed = json.loads(_run(BAD_CALLS, pure=False))
    assert installed == pure
    assert pure["observe player str"] == ["InvalidArgumentError", "player must be 0 or 1, not '0'"]
    assert pure["apply not a state"][0] == "TypeError"


# ---------------------------------------------------------------------------- the warning

WARNING = "crapette runs its Python engine"
NO_EXTENSION = "import sys; sys.modules['crapette._core'] = None  # the extension cannot load\n"
"""Code that makes the import of the native core fail, as where none was built."""


def _python(code: str, cwd: Path | None = None, **env_changes: str) -> tuple[str, str]:
    """Run ``code`` in a fresh interpreter (no engine variable set unless given); its
    standard output and error."""
    drop = ("CRAPETTE_PURE", "CRAPETTE_REQUIRE_NATIVE", "PYTHONWARNINGS")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_changes)
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=cwd, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout, result.stderr


def test_the_python_engine_never_runs_unannounced() -> None:
    """Without its native core and without ``CRAPETTE_PURE``, ``import crapette`` warns
    once (every module of the package imported) that the Python engine runs, why and how to
    get the native engine; ``CRAPETTE_PURE=1`` chooses it silently."""
    code = NO_EXTENSION + (
        "import crapette, crapette.bots, crapette.simulation, crapette.records\n"
        "import importlib; importlib.reload(crapette)\n"
        "print(crapette.ENGINE)"
    )
    out, err = _python(code)
    assert out.split() == ["python"]
    assert err.count(WARNING) == 1, err
    assert "RuntimeWarning" in err and "because" in err
    assert "To get the native engine" in err and "CRAPETTE_PURE=1" in err
    out, err = _python(code, CRAPETTE_PURE="1")
    assert out.split() == ["python"] and err == ""
    if NATIVE:  # where the native engine loads, nothing is said
        out, err = _python("import crapette; print(crapette.ENGINE)")
        assert out.split() == ["native"] and WARNING not in err


def test_a_wheel_built_without_a_compiler_says_why_at_import(tmp_path: Path) -> None:
    """The wheel a build without a working C compiler makes (``CC=/bin/false``) holds the
    Python engine, is tagged for this interpreter (pip caches built wheels: a py3-none-any
    one would reach other Python versions) and carries the reason; installed (here:
    unpacked on ``PYTHONPATH``, away from the checkout), its import warns once, quoting that
    reason."""
    import zipfile

    root = Path(__file__).resolve().parent.parent
    if not (root / "hatch_build.py").is_file():
        pytest.skip("no source tree beside the tests (an installed-wheel run)")
    pytest.importorskip("hatchling", reason="the dev extra installs hatchling")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CRAPETTE_")}
    env.update(CC="/bin/false", CXX="/bin/false")
    command = [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps"]
    command += ["--no-index", "-q", "-w", str(tmp_path / "dist"), str(root)]
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=300)
    (wheel,) = (tmp_path / "dist").glob("crapette-*.whl")
    tag = f"-cp{sys.version_info[0]}{sys.version_info[1]}-"  # (not py3-none-any: pip's cache)
    assert tag in wheel.name and "-none-any" not in wheel.name, wheel.name
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert not any(n.startswith("crapette/_core.") and not n.endswith(".pyi") for n in names)
        archive.extractall(site)
    record = (site / "crapette" / _build.BUILD_RECORD).read_text(encoding="utf-8")
    assert record.startswith("no C compiler worked") and "/bin/false" in record
    code = "import crapette, crapette.bots; print(crapette.ENGINE, crapette.__file__)"
    out, err = _python(code, cwd=tmp_path, PYTHONPATH=str(site))
    engine, location = out.split()
    assert engine == "python" and Path(location).is_relative_to(site)
    assert err.count(WARNING) == 1, err
    assert "no C compiler worked when it was built" in err and "--no-binary" in err
