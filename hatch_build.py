"""Build hook: compile the native engine, the C extension module ``crapette._core``.

What gets built (``native/build.py`` does the compiling, with setuptools):

* a wheel on CPython with a working C compiler: the extension in a platform wheel;
* an editable install (``pip install -e .``) on CPython with a compiler: the extension
  built in place, ``src/crapette/_core.*.so``, so that the suite runs on the native engine
  locally (after editing the C sources: ``python native/build.py``);
* ``CRAPETTE_PURE_BUILD=1``, another interpreter than CPython, or a failed compilation (no
  compiler, no Python headers): no extension, a wheel of the Python engine (``py3-none-any``;
  after a failed compilation tagged for the interpreter and platform instead, so that pip's
  cache of built wheels does not hand it to another Python version of the machine), with a
  warning in the build's output saying why (pip shows a build's
  output only with ``-v``, so the wheel also carries the reason in
  ``crapette/_engine_build.txt``, and ``import crapette`` warns once with it: the Python
  engine never runs unannounced, ``crapette/_build.py``);
* ``CRAPETTE_REQUIRE_NATIVE=1`` turns a failed compilation into a build error (release and
  CI builds use it, so that a broken compiler setup cannot quietly ship the pure package).
"""

from __future__ import annotations

import importlib.util
import os
import platform
import shutil
import sys
import tempfile
import textwrap
import traceback
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# The build requirement of the native engine, added only when it is built.
NATIVE_REQUIREMENTS = ["setuptools>=70"]


def _flag(name: str) -> bool:
    """True when the environment variable ``name`` is set to anything but "", "0" or "false"."""
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def _required() -> bool:
    return _flag("CRAPETTE_REQUIRE_NATIVE")


def _summary(error: BaseException) -> str:
    """One short line for a failed compilation: the command that failed and its status, or
    the error's type and the start of its message."""
    seen: BaseException | None = error
    while seen is not None:  # the compiler's own failure, under setuptools' wrappers
        command = getattr(seen, "cmd", None)
        if isinstance(command, (list, tuple)) and command:
            status = getattr(seen, "returncode", "?")
            return f"`{command[0]}` exited with status {status}"
        seen = seen.__cause__ or seen.__context__
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:160]}"


class NativeCoreHook(BuildHookInterface):  # type: ignore[misc]
    """Compile ``native/`` into ``crapette._core`` (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def _why_pure(self) -> str | None:
        """The reason to build no extension regardless of the compiler, or None."""
        if _flag("CRAPETTE_PURE_BUILD"):
            return "CRAPETTE_PURE_BUILD was set when it was built"
        if platform.python_implementation() != "CPython":
            return (
                f"it was built for {platform.python_implementation()}, and the native engine"
                " is a CPython extension"
            )
        return None

    def dependencies(self) -> list[str]:
        """Build requirements: setuptools drives the C compiler, unless no extension is built."""
        return [] if self._why_pure() else list(NATIVE_REQUIREMENTS)

    def _builder(self) -> Any:
        path = Path(self.root) / "native" / "build.py"
        spec = importlib.util.spec_from_file_location("crapette_native_build", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    def _compile(self, out: Path) -> list[Path] | tuple[str, str]:
        """The files built into ``out/crapette/``, or why the build failed: the last lines
        of the traceback and a one-line summary."""
        try:
            return list(self._builder().build(out))
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                raise
            lines = traceback.format_exception(type(error), error, error.__traceback__)
            return "".join(lines[-15:]), _summary(error)

    def _record(self, version: str, build_data: dict[str, Any], why: str) -> None:
        """Put ``why`` (the reason there is no native engine) in the wheel as
        ``crapette/_engine_build.txt``, which the import's warning quotes (not for an
        editable install: the import finds the checkout's sources and says so)."""
        if version == "editable":
            return
        self._work = tempfile.mkdtemp(prefix="crapette-pure-")
        record = Path(self._work) / "_engine_build.txt"
        record.write_text(why + "\n", encoding="utf-8")
        build_data["force_include"][str(record)] = "crapette/_engine_build.txt"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile into a temporary directory; add the extension to the wheel, or put it
        beside the sources for an editable install."""
        self._work: str | None = None
        if self.target_name != "wheel":
            return
        why = self._why_pure()
        if why is not None:
            self.app.display_warning(
                f"crapette: no native engine, the Python engine only ({why}); import"
                " crapette will say so"
            )
            self._record(version, build_data, why)
            return
        work = tempfile.mkdtemp(prefix="crapette-native-")
        built = self._compile(Path(work))
        if isinstance(built, tuple):
            details, summary = built
            shutil.rmtree(work, ignore_errors=True)
            if _required():
                raise RuntimeError(
                    "crapette: building the native engine failed and CRAPETTE_REQUIRE_NATIVE"
                    f" is set:\n{details}"
                )
            self.app.display_warning(
                "crapette: NO NATIVE ENGINE. Compiling it failed (no working C compiler, or no"
                " Python headers), so this install runs the Python engine, 20 to 100 times"
                " slower; import crapette will warn with this reason. Install a C compiler"
                " (and python3-dev) and reinstall to get it. The compiler's last lines:\n"
                + textwrap.indent(details, "    ")
            )
            why = f"no C compiler worked when it was built ({summary})"
            self._record(version, build_data, why)
            # tagged for this interpreter and platform, not py3-none-any: pip caches the
            # wheels it builds, and would otherwise hand this one to every other Python
            # version of the machine, where a compiler may well work
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            return
        if version == "editable":
            target = Path(self.root) / "src" / "crapette"
            for path in built:
                fresh = target / (path.name + ".new")  # renamed over the old file: a running
                shutil.copyfile(path, fresh)  # Python keeps its mapping of it
                os.replace(fresh, target / path.name)
            shutil.rmtree(work, ignore_errors=True)
            self.app.display_info(f"crapette: built the native engine in place in {target}")
            return
        self._work = work
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(work).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"crapette: built the native engine ({len(built)} files)")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the temporary build directory once the wheel is written."""
        if getattr(self, "_work", None):
            shutil.rmtree(str(self._work), ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit("this is a hatchling build hook: pip install . runs it")
