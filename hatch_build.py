"""Build hook: compile the core modules with mypyc when the wheel is built with a C compiler.

The list of compiled modules lives in ONE place, ``pyproject.toml``::

    [tool.hatch.build.targets.wheel.hooks.custom]
    compiled-modules = ["cards", "moves", ...]

What gets built:

* a regular wheel build on CPython with a working C compiler: the listed modules are compiled
  with mypyc into extension modules that sit beside their ``.py`` sources in a platform wheel
  (the sources stay, so ``CRAPETTE_PURE=1`` can still run them);
* ``CRAPETTE_PURE_BUILD=1``, an editable install, another interpreter than CPython, or a
  failed compilation (no compiler, no Python headers): the pure-Python ``py3-none-any`` wheel,
  with a warning on stderr saying why;
* ``CRAPETTE_REQUIRE_COMPILED=1`` turns a failed compilation into a build error (release and
  CI builds use it, so that a broken compiler setup cannot quietly ship the pure package).

Unlike hatch-mypyc (the hook black uses), this one compiles in a temporary directory, so no
extension module is ever left in ``src/`` where an editable install would import it, and it
never renames ``pyproject.toml`` during the build.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# The build requirements of the compiled build, added to the build environment only when
# compilation is wanted. mypy carries mypyc; setuptools drives the C compiler.
COMPILE_REQUIREMENTS = ["mypy==2.4.1", "setuptools>=70"]

PACKAGE = "crapette"

_SETUP_SCRIPT = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

out, tmp, *paths = sys.argv[1:]
setup(
    name="crapette-mypyc",
    ext_modules=mypycify(paths, opt_level="3"),
    script_args=["build_ext", "--build-lib", out, "--build-temp", tmp],
)
"""


def _flag(name: str) -> bool:
    """True when the environment variable ``name`` is set to anything but "", "0" or "false"."""
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


class CompileCoreHook(BuildHookInterface):  # type: ignore[misc]
    """Compile the modules named in ``compiled-modules`` with mypyc (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def _why_pure(self) -> str | None:
        """The reason to build the pure wheel regardless of the compiler, or None."""
        if _flag("CRAPETTE_PURE_BUILD"):
            return "CRAPETTE_PURE_BUILD is set"
        if platform.python_implementation() != "CPython":
            return f"mypyc does not support {platform.python_implementation()}"
        return None

    def dependencies(self) -> list[str]:
        """Build requirements: mypy, setuptools and the runtime dependencies (mypyc type-checks
        the code against them) unless the build is pure anyway."""
        if self._why_pure():
            return []
        return [*COMPILE_REQUIREMENTS, *self.metadata.core.dependencies]

    def _module_paths(self) -> list[Path]:
        """The source files of the modules to compile, checked to exist."""
        names = self.config.get("compiled-modules", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise TypeError("compiled-modules must be a list of module names")
        package_dir = Path(self.root) / "src" / PACKAGE
        paths = []
        for name in names:
            path = package_dir / (name.replace(".", "/") + ".py")
            if not path.is_file():
                raise FileNotFoundError(
                    f"compiled-modules names {name!r}, but {path} does not exist"
                    " (update [tool.hatch.build.targets.wheel.hooks.custom] in pyproject.toml)"
                )
            paths.append(path)
        return paths

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile into a temporary directory and add the extension modules to the wheel."""
        self._out_dir: str | None = None
        if self.target_name != "wheel":
            return
        why = "an editable install stays pure" if version == "editable" else self._why_pure()
        if why is None:
            paths = self._module_paths()
            if not paths:
                why = "compiled-modules is empty"
        if why is not None:
            if version != "editable":
                self.app.display_info(f"crapette: building the pure-Python wheel ({why})")
            return
        work = tempfile.mkdtemp(prefix="crapette-mypyc-")
        out = os.path.join(work, "lib")
        try:
            process = subprocess.run(
                [sys.executable, "-c", _SETUP_SCRIPT, out, os.path.join(work, "tmp")]
                + [str(p) for p in paths],
                cwd=work,  # keep setuptools away from our pyproject.toml
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                check=False,
            )
        except OSError as error:  # the interpreter itself could not start: not expected
            process = subprocess.CompletedProcess([], 1, str(error))
        if process.returncode != 0:
            shutil.rmtree(work, ignore_errors=True)
            if _flag("CRAPETTE_REQUIRE_COMPILED"):
                raise RuntimeError(
                    "crapette: mypyc compilation failed and CRAPETTE_REQUIRE_COMPILED is set:\n"
                    + process.stdout
                )
            tail = textwrap.indent("\n".join(process.stdout.splitlines()[-15:]), "    ")
            message = (
                "crapette: mypyc compilation failed (no C compiler or Python headers?);"
                f" building the pure-Python wheel instead. Last lines:\n{tail}"
            )
            self.app.display_warning(message)
            return
        self._out_dir = work
        built = sorted(p for p in Path(out).rglob("*") if p.is_file())
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(out).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(
            f"crapette: compiled {len(paths)} modules with mypyc ({len(built)} extension files)"
        )

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the temporary build directory once the wheel is written."""
        if getattr(self, "_out_dir", None):
            shutil.rmtree(str(self._out_dir), ignore_errors=True)
