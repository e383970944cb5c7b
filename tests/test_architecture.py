"""The package's shape: the layers import only what they may, ``import crapette`` stays
light, the facade is small, and the names that moved warn once (docs/architecture.md)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import crapette

SRC = Path(crapette.__file__).resolve().parent
CORE = {
    "__init__",
    "_engine",
    "_laws",
    "_movegen",
    "_quote",
    "_tables",
    "_version",
    "cards",
    "deal",
    "errors",
    "match",
    "moves",
    "notation",
    "outcome",
    "rules",
    "serialize",
    "state",
    "text",
    "views",
}
OPTIONAL = ("records", "testing", "bots", "simulation", "adapters", "svg", "cli", "web")
# What each part may not import (besides the core, which every part may import).
FORBIDDEN = {
    "core": set(OPTIONAL),
    "records": {"testing", "bots", "simulation", "adapters", "cli", "web"},
    "testing": {"records", "bots", "simulation", "adapters", "cli", "web"},
    "bots": {"records", "testing", "simulation", "adapters", "cli", "web"},
    "simulation": {"records", "testing", "adapters", "cli", "web"},
    "adapters": {"records", "testing", "simulation", "cli", "web"},
    "svg": {"records", "testing", "bots", "simulation", "adapters", "cli", "web"},
    "cli": set(),
    "web": {"testing", "simulation", "adapters", "cli"},
}


def _part(path: Path) -> str:
    rel = path.relative_to(SRC)
    if len(rel.parts) == 1:
        if rel.stem == "__main__":
            return "cli"  # python -m crapette runs the command line
        return "core" if rel.stem in CORE else rel.stem
    return rel.parts[0]


def _imports(path: Path) -> list[str]:
    """The modules a file imports, leaving out ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    out: list[str] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


def _function_imports(path: Path) -> set[str]:
    """The modules a file imports only inside functions (loaded on first use)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside: set[str] = set()
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    inside.add(node.module)
    module_level = set(_imports(path)) - inside
    return inside - module_level


# The core's one lazy way up: the Jupyter hooks (GameState/PlayerView._repr_svg_) load the
# renderer inside the method, so `import crapette` never loads it.
LAZY = {"crapette.svg"}

MODULES = sorted(SRC.rglob("*.py"))


def test_every_module_has_a_known_part() -> None:
    parts = {_part(p) for p in MODULES}
    assert parts <= {"core", *OPTIONAL}, parts - {"core", *OPTIONAL}


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(SRC)) for p in MODULES])
def test_layering(path: Path) -> None:
    part = _part(path)
    bad = []
    lazy = _function_imports(path) & LAZY
    for name in _imports(path):
        if name in lazy:
            continue
        pieces = name.split(".")
        if pieces[0] == "rich" and part != "cli":
            bad.append(name)
        if pieces[0] == "crapette" and len(pieces) > 1 and pieces[1] in FORBIDDEN[part]:
            bad.append(name)
    assert not bad, f"{path.relative_to(SRC)} ({part}) may not import {bad}"


def test_import_crapette_is_light() -> None:
    code = (
        "import json, sys, crapette\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('crapette', 'multiprocessing', 'rich', 'ray', 'numpy'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout)
    heavy = [
        m
        for m in loaded
        if m.split(".")[0] in ("multiprocessing", "rich", "ray", "numpy")
        or (m.startswith("crapette.") and m.split(".")[1] in OPTIONAL)
    ]
    assert not heavy, heavy


def test_the_facade_is_small_and_exact() -> None:
    assert len(crapette.__all__) < 60
    assert len(set(crapette.__all__)) == len(crapette.__all__)
    for name in crapette.__all__:
        assert hasattr(crapette, name), name
    public = {n for n in vars(crapette) if not n.startswith("_")}
    modules = {n for n in public if type(getattr(crapette, n)).__name__ == "module"}
    assert public - modules - {"annotations", "importlib", "warnings", "Any"} == (
        set(crapette.__all__) - {"__version__"}
    )


def test_moved_names_warn_once_and_name_their_home() -> None:
    code = (
        "import warnings, crapette\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    first = crapette.simulate\n"
        "    again = crapette.simulate\n"
        "    alias = crapette.OPPONENT_RESERVE\n"
        "from crapette.simulation import simulate\n"
        "assert first is again is simulate and alias == crapette.OPP_RESERVE\n"
        "print(len(caught)); print(caught[0].category.__name__); print(caught[0].message)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    count, category, message = done.stdout.splitlines()
    assert (count, category) == ("2", "DeprecationWarning")
    assert "crapette.simulation.simulate" in message


def test_every_moved_name_resolves() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for name in crapette._MOVED:
            assert getattr(crapette, name) is not None, name
            assert name not in crapette.__all__
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = crapette.no_such_name  # type: ignore[attr-defined]


def test_the_old_error_homes_still_work() -> None:
    from crapette.bots import UnknownBotError
    from crapette.errors import BotError as Bot2
    from crapette.simulation import BotError, SimulationError

    assert UnknownBotError is crapette.errors.UnknownBotError
    assert BotError is Bot2 and issubclass(SimulationError, crapette.CrapetteError)


def test_library_errors_for_bad_input() -> None:
    from crapette.bots import SearchBot
    from crapette.cards import full_pack

    with pytest.raises(crapette.InvalidPositionError, match="pack0"):
        crapette.deal(None, full_pack(0)[:-1], full_pack(1))
    with pytest.raises(crapette.CrapetteError, match="budget"):
        SearchBot(budget=0)
    with pytest.raises(crapette.MatchError, match="not over"):
        crapette.new_match(seed=1).next_deal()
    with pytest.raises(crapette.InvalidMoveError, match="no such move"):
        crapette.Move.play(crapette.RESERVE, 0, 2)
    for error in (
        crapette.InvalidMoveError,
        crapette.IllegalMoveError,
        crapette.InvalidPositionError,
        crapette.MatchError,
    ):
        assert issubclass(error, crapette.CrapetteError) and issubclass(error, ValueError)


def test_the_command_line_says_when_rich_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from crapette import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "rich" else real(name, *a)
    )
    assert cli.main(["play", "--demo"]) == 1
    err = capsys.readouterr().err
    assert err == cli.RICH_MISSING + "\n"
    assert "crapette[cli]" in err and "\n" not in err.rstrip("\n")
