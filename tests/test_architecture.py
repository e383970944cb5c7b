"""The package's shape: the layers import only what they may, ``import crapette`` stays
light, the facade is small, and the names that moved warn once (docs/architecture.md)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import crapette

SRC = Path(crapette.__file__).resolve().parent
# The layers of the core (docs/architecture.md, "Module map"): a module imports only from
# its own layer or the layers below it, at module level, inside a function (lazily),
# through importlib or under ``if TYPE_CHECKING:``: no exception. What the core needs from
# above (move text, the board, pictures) the layers above lend it through crapette._hooks.
LAYER = {
    **dict.fromkeys(("errors", "_version", "_quote", "_build", "_hooks", "_core", "_spec"), 0),
    **dict.fromkeys(("cards", "moves", "rules", "_tables", "_fits"), 1),
    "state": 2,
    **dict.fromkeys(("outcome", "_laws", "_movegen", "_engine", "deal"), 3),
    **dict.fromkeys(("notation", "serialize", "views", "match", "text"), 4),
    "__init__": 5,
}
CORE = set(LAYER) - {"_core"}  # _core is the C extension (native/), which imports nothing
OPTIONAL = (
    "records",
    "testing",
    "bots",
    "simulation",
    "analysis",
    "adapters",
    "svg",
    "session",
    "cli",
    "web",
)
# The optional parts each part may import, as docs/architecture.md "Who may import whom"
# says (every part may import the core); a part may always import its own modules.
ALLOWED = {
    "core": set(),
    "records": set(),
    "testing": set(),
    "svg": set(),
    "bots": set(),
    "simulation": {"bots"},
    "analysis": {"records", "bots", "simulation"},
    "adapters": {"bots"},
    "session": {"records", "bots", "analysis"},
    "web": {"records", "bots", "svg", "session"},
    "cli": set(OPTIONAL),
}
FORBIDDEN = {part: set(OPTIONAL) - allowed - {part} for part, allowed in ALLOWED.items()}
# The facade (the top of the core, not part of it) loads the pictures for a state's
# _repr_svg_ and the records for a record's JSON on first use.
FACADE_LAZY = {"crapette.svg", "crapette.records"}
# Upward imports that the parts being rebuilt still make (to be emptied by their work).
KNOWN: set[tuple[str, str]] = set()
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


def _string_arg(call: ast.Call) -> str | None:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def _imports(path: Path, *, type_checking: bool = True) -> list[str]:
    """Every module a file imports: at module level, inside functions, under
    ``if TYPE_CHECKING:`` (unless ``type_checking`` is False), and by a call of
    ``importlib.import_module`` or ``__import__`` with a literal name. ``from crapette
    import x`` counts as an import of ``crapette.x`` when ``x`` is a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    if not type_checking:
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
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                if node.module == "crapette" and (
                    (SRC / f"{alias.name}.py").exists()
                    or (SRC / alias.name).is_dir()
                    or alias.name == "_core"
                ):
                    out.append(sub)
        elif isinstance(node, ast.Call):
            func = ast.unparse(node.func)
            if func.endswith("import_module") or func == "__import__":
                name = _string_arg(node)
                out.append(name if name is not None else "<dynamic>")
    return out


def _names(node: ast.ImportFrom) -> list[str]:
    """The modules an ``from X import ...`` statement imports (``from crapette import
    records`` imports ``crapette.records``)."""
    assert node.module
    out = [node.module]
    if node.module == "crapette":
        for alias in node.names:
            if (SRC / f"{alias.name}.py").exists() or (SRC / alias.name).is_dir():
                out.append(f"crapette.{alias.name}")
    return out


def _function_imports(path: Path) -> set[str]:
    """The modules a file imports only inside functions (loaded on first use)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside: set[str] = set()
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    inside.update(_names(node))
    module_level = set(_imports(path, type_checking=False)) - inside
    return inside - module_level


MODULES = sorted(SRC.rglob("*.py"))


def test_every_module_has_a_known_part() -> None:
    parts = {_part(p) for p in MODULES}
    assert parts <= {"core", *OPTIONAL}, parts - {"core", *OPTIONAL}


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(SRC)) for p in MODULES])
def test_layering(path: Path) -> None:
    part = _part(path)
    where = path.relative_to(SRC).as_posix()
    bad = []
    lazy = _function_imports(path) & FACADE_LAZY if where == "__init__.py" else set()
    for name in _imports(path, type_checking=False):
        if name in lazy or (part == "core" and (path.stem, name) in KNOWN):
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


def _upward(name: str) -> list[str]:
    """The imports of core module ``name`` that reach a layer above it or an optional part."""
    bad = []
    for module in _imports(SRC / f"{name}.py"):
        pieces = module.split(".")
        if name == "__init__" and module in FACADE_LAZY:
            continue  # inside functions only: test_the_facade_loads_optional_parts_lazily
        if module == "<dynamic>":
            bad.append(module)
            continue
        if pieces[0] != "crapette" or len(pieces) == 1:
            continue
        other = pieces[1]
        if other in LAYER and LAYER[other] <= LAYER[name]:
            continue
        if (name, module) in KNOWN:
            continue
        bad.append(module)
    return bad


@pytest.mark.parametrize("name", sorted(CORE))
def test_the_core_imports_only_its_own_layer_or_below(name: str) -> None:
    """docs/architecture.md: a core module imports from its own layer or below, lazily or
    not, through importlib or for a type alike; nothing of the core imports an optional part."""
    assert not _upward(name), f"{name} (layer {LAYER[name]}) may not import {_upward(name)}"


def test_the_check_sees_lazy_importlib_and_type_imports(tmp_path: Path) -> None:
    """The layer check reads every kind of import a module can make."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "import importlib\n"
        "if TYPE_CHECKING:\n    from crapette.bots import Bot\n"
        "def f():\n    from crapette.notation import parse_move\n"
        "    return importlib.import_module('crapette.records')\n"
        "def g():\n    return __import__('crapette.svg')\n",
        encoding="utf-8",
    )
    found = set(_imports(sample))
    assert {"crapette.bots", "crapette.notation", "crapette.records", "crapette.svg"} <= found


def test_the_facade_loads_optional_parts_lazily() -> None:
    """The facade's imports of the pictures and of the moved names happen inside functions."""
    tree = ast.parse((SRC / "__init__.py").read_text(encoding="utf-8"))
    top_level = {
        node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "crapette.svg" not in top_level and "crapette.records" not in top_level
    assert not any(m.startswith(("crapette.bots", "crapette.simulation")) for m in top_level)


def test_the_layer_table_covers_the_core() -> None:
    on_disk = {p.stem for p in SRC.glob("*.py")} - {"__main__", "svg", "testing"}
    assert on_disk == CORE, on_disk ^ CORE


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
    assert len(crapette.__all__) <= 60  # 58 and refusal, Refusal
    assert len(set(crapette.__all__)) == len(crapette.__all__)
    for name in crapette.__all__:
        assert hasattr(crapette, name), name
    public = {n for n in vars(crapette) if not n.startswith("_")}
    modules = {n for n in public if type(getattr(crapette, n)).__name__ == "module"}
    assert public - modules - {"annotations"} == set(crapette.__all__) - {"__version__"}
    assert dir(crapette) == sorted(crapette.__all__)  # no helper, module or import shows


def test_the_facade_has_no_shim_for_old_names() -> None:
    """No name answers at the top level but the facade's (0.1.0 was never published: the
    names that moved while the package took its shape have no shim)."""
    assert not hasattr(crapette, "__getattr__")
    for name in ("simulate", "perft", "full_pack", "Rng", "GreedyBot", "OPPONENT_RESERVE"):
        with pytest.raises(AttributeError, match=name):
            getattr(crapette, name)


# The private modules and names of the core that the optional parts may use, and which
# modules use them (docs/architecture.md, "Private modules"): every other name of the
# core reaches them through the facade or a public module.
PRIVATE_USES: dict[tuple[str, str], tuple[str, ...]] = {
    # the bounded excerpt of an input that every layer's messages quote
    ("crapette._quote", "*"): ("crapette.",),
    # the rule spec's data: the testing helpers try every value of every option
    ("crapette._spec", "*"): ("crapette.testing",),
    # the priority rule a move breaks: faults explained (analysis, review, terminal game)
    # and the fallible bots' misses
    ("crapette._laws", "violation"): (
        "crapette.testing",
        "crapette.analysis.",
        "crapette.session.",
        "crapette.bots.",
        "crapette.cli.game",
    ),
    ("crapette._laws", "VIOLATION_KINDS"): ("crapette.bots.fallible",),
    ("crapette._laws", "Violation"): ("crapette.testing",),
    ("crapette._laws", "FALSE_CALLS"): ("crapette.cli.game",),
    # the search bots' play-out loop, next to the engine (compiled with it in C)
    ("crapette._laws", "*"): ("crapette.bots._greedy",),
    ("crapette._engine", "*"): ("crapette.bots._greedy",),
    ("crapette._movegen", "*"): ("crapette.bots._greedy",),
    ("crapette._fits", "*"): ("crapette.bots._greedy",),
    ("crapette._build", "*"): ("crapette.bots._greedy",),
    # the native engine's batch functions (play-outs, whole deals in C)
    ("crapette.state", "_NATIVE"): (
        "crapette.bots._greedy",
        "crapette.bots.expert",
        "crapette.bots.value",
        "crapette.simulation._run",
    ),
    # the game loop and the all-seeing bots build views of states they hold, unchecked
    ("crapette.views", "_observe"): ("crapette.bots._loop", "crapette.bots.allseeing"),
}


def _private_uses(path: Path) -> list[tuple[str, str]]:
    """The (module, name) pairs a file imports that are private to the core: any name of a
    core module whose name starts with an underscore, or a private name of a core module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "crapette":
            out.extend(
                (f"crapette.{a.name}", "*")
                for a in node.names
                if a.name.startswith("_") and not a.name.startswith("__")
            )
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.count(".") == 1:
            head, module = node.module.split(".")
            if head != "crapette" or (module not in CORE and module != "_core"):
                continue
            for alias in node.names:
                if module.startswith("_") or alias.name.startswith("_"):
                    out.append((node.module, alias.name))
    return out


@pytest.mark.parametrize(
    "path", [p for p in MODULES if _part(p) in OPTIONAL], ids=lambda p: str(p.relative_to(SRC))
)
def test_the_optional_parts_use_only_the_private_names_they_are_lent(path: Path) -> None:
    rel = path.relative_to(SRC).with_suffix("")
    name = ".".join(("crapette", *rel.parts)).removesuffix(".__init__")
    for module, attr in _private_uses(path):
        users = PRIVATE_USES.get((module, attr)) or PRIVATE_USES.get((module, "*"), ())
        assert any(name.startswith(user) for user in users), (
            f"{name} imports {attr} from {module}: import it from the facade or a public "
            "module, or add it to PRIVATE_USES and docs/architecture.md with its reason"
        )


def test_the_private_uses_check_sees_a_private_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from crapette._engine import apply_unchecked\nfrom crapette.views import _observe\n"
        "from crapette import apply, _spec\nfrom crapette.bots._greedy import play_out\n"
    )
    assert sorted(_private_uses(probe)) == [
        ("crapette._engine", "apply_unchecked"),
        ("crapette._spec", "*"),
        ("crapette.views", "_observe"),
    ]


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
