"""Build the native core: the CPython extension module ``crapette._core`` from the C sources
of this folder.

    python native/build.py                # in place, beside the sources in src/crapette/
                                          # (an editable install; rerun after editing C)
    python native/build.py --out DIR      # into DIR/crapette/ (the wheel build, hatch_build.py)
    python native/build.py --debug        # -O0 -g, for gdb
    python native/build.py --sanitize     # with gcc's -fsanitize=address,undefined

It needs setuptools (the build's own requirement; the ``dev`` extra has it) and a C
compiler. The hash of the sources is compiled in as ``crapette._core.SOURCE_HASH``, so an
editable install warns when its extension is older than its sources.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SOURCES = ("crapette_core.c", "pymodule.c")


def _source_hash() -> str:
    spec = importlib.util.spec_from_file_location(
        "_crapette_build", ROOT / "src/crapette/_build.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.source_hash(HERE))


def compile_args(debug: bool = False, sanitize: bool = False) -> list[str]:
    """The compiler flags of the build (MSVC or a gcc-like compiler)."""
    if sys.platform == "win32" and "GCC" not in sys.version:
        return ["/O2", "/std:c11"] if not debug else ["/Od", "/Zi", "/std:c11"]
    flags = ["-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers"]
    flags += ["-O0", "-g"] if debug else ["-O3"]
    if sanitize:
        flags += ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"]
    return flags


def build(out: Path, *, debug: bool = False, sanitize: bool = False) -> list[Path]:
    """Compile the extension into ``out/crapette/``; returns the files written."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    source_hash = _source_hash()
    extension = Extension(
        "crapette._core",
        sources=[str(HERE / name) for name in SOURCES],
        include_dirs=[str(HERE)],
        define_macros=[("CRAPETTE_SOURCE_HASH", f'"{source_hash}"')],
        extra_compile_args=compile_args(debug, sanitize),
        extra_link_args=["-fsanitize=address,undefined"] if sanitize else [],
    )
    distribution = Distribution({"name": "crapette-native", "ext_modules": [extension]})
    with tempfile.TemporaryDirectory(prefix="crapette-native-") as temp:
        command = build_ext(distribution)
        command.build_lib = str(out)
        command.build_temp = temp
        command.force = True
        command.ensure_finalized()
        command.run()
        written = [Path(path) for path in command.get_outputs()]
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="build into OUT/crapette/ instead of in place")
    parser.add_argument("--debug", action="store_true", help="-O0 -g")
    parser.add_argument("--sanitize", action="store_true", help="-fsanitize=address,undefined")
    args = parser.parse_args(argv)
    if args.out is not None:
        files = build(args.out, debug=args.debug, sanitize=args.sanitize)
    else:
        with tempfile.TemporaryDirectory(prefix="crapette-inplace-") as temp:
            files = []
            for path in build(Path(temp), debug=args.debug, sanitize=args.sanitize):
                target = ROOT / "src" / path.relative_to(temp)
                # a new file renamed over the old one: a running Python keeps its mapping
                fresh = target.with_name(target.name + ".new")
                shutil.copyfile(path, fresh)
                os.replace(fresh, target)
                files.append(target)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for path in files:
        print(f"built {path} ({suffix})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
