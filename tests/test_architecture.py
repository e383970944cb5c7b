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
    "_build",
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
# The optional parts each part may import, as docs/architecture.md "Who may import whom"
# says (every part may import the core); a part may always import its own modules.
ALLOWED = {
    "core": set(),
    "records": set(),
    "testing": set(),
    "svg": set(),
    "bots": set(),
    "simulation": {"bots"},
    "adapters": {"bots"},
    "web": {"records", "bots", "svg"},
    "cli": set(OPTIONAL),
}
FORBIDDEN = {part: set(OPTIONAL) - allowed - {part} for part, allowed in ALLOWED.items()}
# The layers of the core (docs/architecture.md, "Module map"): a module imports only from
# its own layer or the layers below it ...
LAYER = {
    **dict.fromkeys(("errors", "_version", "_quote", "_build"), 0),
    **dict.fromkeys(("cards", "moves", "rules", "_tables"), 1),
    "state": 2,
    **dict.fromkeys(("outcome", "_laws", "_movegen", "_engine", "deal"), 3),
    **dict.fromkeys(("notation", "serialize", "views", "match", "text"), 4),
    "__init__": 5,
}
# ... but for these, the page's exceptions, all inside a function (lazy): state validates
# with the card predicates of _laws; GameState.__str__/__repr__ and the move texts of apply
# and why_illegal load a layer up.
UPWARD = {("state", "_laws"): True, ("state", "text"): True, ("state", "notation"): True}
UPWARD[("_engine", "notation")] = True  # True: only inside a function (lazy)
UPWARD[("_laws", "notation")] = True
# Third-party packages that only some modules may import (a module path prefix).
ONLY_IN = {
    "rich": ("cli/",),
    "fastapi": ("web/",),
    "multiprocessing": ("simulation/_pool.py",),
    "ray": ("simulation/",),
    "matplotlib": ("simulation/plots.py",),
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
    where = path.relative_to(SRC).as_posix()
    bad = []
    lazy = _function_imports(path) & LAZY
    for name in _imports(path):
        if name in lazy:
            continue
        pieces = name.split(".")
        if pieces[0] in ONLY_IN and not where.startswith(ONLY_IN[pieces[0]]):
            bad.append(name)
        if pieces[0] == "crapette" and len(pieces) > 1 and pieces[1] in FORBIDDEN[part]:
            bad.append(name)
    assert not bad, f"{where} ({part}) may not import {bad}"


def _relative_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        ast.unparse(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level
    ]


def test_imports_are_absolute() -> None:
    """The layering checks read absolute imports: a relative one would slip past them."""
    found = {str(p.relative_to(SRC)): _relative_imports(p) for p in MODULES}
    assert not {k: v for k, v in found.items() if v}


@pytest.mark.parametrize("name", sorted(LAYER))
def test_the_core_imports_only_its_own_layer_or_below(name: str) -> None:
    """docs/architecture.md: a core module imports from its own layer or below, except the
    upward imports the page names (``UPWARD``), lazy ones only inside functions."""
    path = SRC / f"{name}.py"
    inside = _function_imports(path)
    bad = []
    for module in _imports(path):
        pieces = module.split(".")
        if pieces[0] != "crapette" or len(pieces) == 1 or pieces[1] not in LAYER:
            continue
        other = pieces[1]
        if LAYER[other] <= LAYER[name]:
            continue
        lazy_only = UPWARD.get((name, other))
        if lazy_only is None or (lazy_only and module not in inside):
            bad.append(module)
    assert not bad, f"{name} (layer {LAYER[name]}) may not import {bad}"


def test_the_layer_table_covers_the_core_and_its_exceptions_are_used() -> None:
    assert set(LAYER) == CORE
    used = {
        (name, module.split(".")[1])
        for name in LAYER
        for module in _imports(SRC / f"{name}.py")
        if module.startswith("crapette.")
    }
    assert set(UPWARD) <= used  # an exception nobody needs any more is to be removed


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
