"""Which engine runs: the native core (the C extension module ``crapette._core``) or the
Python engine.

A wheel built where a C compiler works carries ``crapette._core``, the C core of
``native/`` compiled for CPython (``hatch_build.py`` builds it; an editable install builds
it in place). ``import crapette`` uses it unless the environment variable
``CRAPETTE_PURE=1`` is set before the import, or it cannot be loaded (no compiler at
install time, PyPy): then the Python engine runs, the readable reference of the rules.

The Python engine never runs silently: unless ``CRAPETTE_PURE`` chose it, the import warns
once (a ``RuntimeWarning``) that it runs, why (the reason the build recorded in
``crapette/_engine_build.txt``, the extension's import error, or the interpreter), and how
to get the native engine. ``CRAPETTE_REQUIRE_NATIVE=1`` turns a missing native core into an
``ImportError`` (the release checks use it). This module must import nothing from the
package but the extension itself (it is imported first by ``crapette/__init__.py``).
"""

from __future__ import annotations

import hashlib
import os
import platform
import warnings
from pathlib import Path
from types import ModuleType

PACKAGE = "crapette"

BUILD_RECORD = "_engine_build.txt"
"""The file a wheel built without the native engine carries beside this module: one line,
why (``hatch_build.py`` writes it); the import's warning quotes it."""

NATIVE_SOURCES = ("crapette_core.h", "crapette_core.c", "tables.h", "pymodule.c")
"""The files of ``native/`` the extension is built from (their hash is compiled in)."""


def _flag(name: str) -> bool:
    """Whether the environment variable ``name`` is set to anything but "", "0", "false"
    or "no"."""
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def pure_requested() -> bool:
    """True when ``CRAPETTE_PURE`` asks for the Python engine."""
    return _flag("CRAPETTE_PURE")


def source_hash(folder: Path) -> str:
    """The hash of the native sources in ``folder`` (what the build compiles in as
    ``crapette._core.SOURCE_HASH``)."""
    digest = hashlib.sha256()
    for name in NATIVE_SOURCES:
        digest.update(name.encode())
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()[:16]


def _check_fresh(module: ModuleType) -> None:
    """Warn when the extension was built from other sources than those of the checkout it is
    imported from (an editable install whose C sources changed since the build)."""
    folder = Path(__file__).resolve().parent.parent.parent / "native"
    if not (folder / NATIVE_SOURCES[0]).is_file():
        return  # an installed package: no sources beside it
    try:
        current = source_hash(folder)
    except OSError:
        return
    built = getattr(module, "SOURCE_HASH", "")
    if built != current:
        warnings.warn(
            f"crapette._core was built from other sources than {folder} ({built} against"
            f" {current}): rebuild it with `python native/build.py`",
            RuntimeWarning,
            stacklevel=3,
        )


def native_core() -> ModuleType | None:
    """The native core module, or ``None`` when the Python engine runs (``CRAPETTE_PURE=1``,
    or no native core installed: then with the warning of ``python_engine_warning``).

    Raises:
        ImportError: ``CRAPETTE_REQUIRE_NATIVE=1`` and the native core cannot be loaded.
    """
    if pure_requested():
        if _flag("CRAPETTE_REQUIRE_NATIVE"):
            raise ImportError("CRAPETTE_REQUIRE_NATIVE=1 and CRAPETTE_PURE=1 contradict")
        return None
    try:
        from crapette import _core
    except ImportError as error:
        if _flag("CRAPETTE_REQUIRE_NATIVE"):
            raise ImportError(f"CRAPETTE_REQUIRE_NATIVE=1: {error}") from error
        warnings.warn(python_engine_warning(error), RuntimeWarning, stacklevel=2)
        return None
    module: ModuleType = _core
    _check_fresh(module)
    return module


def _why_python_engine(error: ImportError, here: Path) -> tuple[str, str]:
    """Why the native engine is missing, and how to get it (two sentences' worth)."""
    implementation = platform.python_implementation()
    reinstall = (
        "install a C compiler (Linux: gcc and the Python headers, such as `apt install gcc"
        " python3-dev`; macOS: `xcode-select --install`; Windows: the Visual Studio Build"
        " Tools), then reinstall from source, past pip's cache of the wheel built without"
        " it: `pip install --force-reinstall --no-cache-dir --no-binary crapette crapette`"
    )
    if implementation != "CPython":
        return (
            f"the native engine is a CPython extension and this is {implementation}",
            "run crapette on CPython",
        )
    if (here.parent.parent / "native" / NATIVE_SOURCES[0]).is_file():  # a source checkout
        return (
            "no native engine was built in this checkout (no working C compiler when it was"
            " installed, or CRAPETTE_PURE_BUILD was set)",
            "install a C compiler, then run `python native/build.py` (or `pip install -e .` again)",
        )
    record = here / BUILD_RECORD
    if record.is_file():
        return record.read_text(encoding="utf-8").strip(), reinstall
    if any(here.glob("_core.*")):
        return f"its extension module cannot be loaded ({error})", (
            "reinstall crapette for this interpreter and platform: `pip install"
            " --force-reinstall crapette`"
        )
    return "this copy of crapette was installed without its native engine", reinstall


def python_engine_warning(error: ImportError) -> str:
    """The import's warning when the Python engine runs unasked: that it runs, why, and how
    to get the native engine (or to choose the Python engine and silence the warning)."""
    why, how = _why_python_engine(error, Path(__file__).resolve().parent)
    return (
        f"crapette runs its Python engine, 20 to 100 times slower than the native engine,"
        f" because {why}. To get the native engine, {how}. To choose the Python engine and"
        " silence this warning, set CRAPETTE_PURE=1."
    )


def _type_name(value: object) -> str:
    """The name of ``value``'s type as the argument checks write it."""
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
    """The ``TypeError`` for an argument that is not an ``expected`` (``"crapette.state.GameState
    object expected; got str"``), worded alike by both engines (``tests/test_build.py``
    compares them)."""
    return expected_type_error(f"{expected.__module__}.{expected.__qualname__}", value)


def expected_type_error(expected: str, value: object) -> TypeError:
    """The ``TypeError`` for a value that is not of the type named ``expected`` (``"int"``,
    ``"tuple or None"``, ``"crapette.state.GameState"``)."""
    return TypeError(f"{expected} object expected; got {_type_name(value)}")
