"""Which build of the core runs: the compiled modules of a mypyc wheel, or the pure sources.

A wheel built with a C compiler ships each core module twice: the mypyc extension module and
its ``.py`` source. Python imports the extension module first. With the environment variable
``CRAPETTE_PURE=1`` set before ``import crapette``, a meta-path finder makes every
``crapette.*`` module load from its ``.py`` source instead, so both builds of one install can
be run side by side (the benchmarks do). This module must stay pure Python (it is imported
first by ``crapette/__init__.py``) and import nothing from the package.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

PACKAGE = "crapette"


def pure_requested() -> bool:
    """True when ``CRAPETTE_PURE`` asks for the pure-Python modules (set, not "" or "0")."""
    return os.environ.get("CRAPETTE_PURE", "").strip().lower() not in ("", "0", "false", "no")


class PureSourceFinder:
    """A meta-path finder that loads ``crapette.*`` modules from ``.py`` sources only."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """The spec of the source file of a ``crapette`` submodule, or None for others."""
        if not fullname.startswith(PACKAGE + ".") or path is None:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, loader).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def install_pure_finder() -> None:
    """Put a PureSourceFinder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, PureSourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, PureSourceFinder())


def compiled() -> bool:
    """True when any loaded ``crapette`` submodule is a compiled extension module."""
    extension = importlib.machinery.ExtensionFileLoader
    return any(
        isinstance(getattr(module, "__loader__", None), extension)
        for name, module in list(sys.modules.items())
        if name.startswith(PACKAGE + ".")
    )


if pure_requested():
    install_pure_finder()


def _type_name(value: object) -> str:
    """The name of ``value``'s type as mypyc's argument check writes it."""
    if value is None:
        return "None"
    if type(value) is tuple:
        if len(value) > 10:
            return f"tuple[<{len(value)} items>]"
        return "tuple[" + ", ".join(_type_name(v) for v in value) + "]"
    kind = type(value)
    if kind.__module__ == "builtins":
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"


def argument_type_error(expected: type, value: object) -> TypeError:
    """The ``TypeError`` for an argument that is not an ``expected``, worded exactly as the
    compiled build words it.

    mypyc checks the type of an argument annotated with a compiled class before the function
    body runs, with its own message; the pure build raises this same error from an explicit
    check, so both builds fail alike (``tests/test_build.py`` compares them).
    """
    return expected_type_error(f"{expected.__module__}.{expected.__qualname__}", value)


def expected_type_error(expected: str, value: object) -> TypeError:
    """mypyc's ``TypeError`` for an argument that is not of the type it names ``expected``
    (``"int"``, ``"tuple or None"``, ``"crapette.state.GameState"``)."""
    return TypeError(f"{expected} object expected; got {_type_name(value)}")
