"""Build the WebAssembly engine of the JavaScript package, ``js/lib/crapette.wasm``, from the
C core (``native/crapette_core.c``) and its WebAssembly binding (``native/wasm_api.c``).

    python js/build_wasm.py            # build js/lib/crapette.wasm and js/lib/crapette.wasm.json
    python js/build_wasm.py --check    # rebuild in a temporary folder: the same bytes as the
                                       # committed file? (exit status 1 when not)
    python js/build_wasm.py --fresh    # only check that the committed file was built from the
                                       # current sources (no compiler needed)

It needs Debian's ``clang`` and ``lld`` (``wasm-ld``) with the WebAssembly headers of
``wasi-libc`` (``apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32``); no
emscripten and no downloaded toolchain. The module links no C library: the binding defines
the four memory functions the core calls. The build is deterministic (no paths, names or
producer strings in the output): the same sources and the same clang give the same bytes,
which ``--check`` proves. The built file is committed, so that the JavaScript package and
the Python wheel that serves it need no compiler; ``crapette.wasm.json`` beside it records
the hash of the sources it was built from, the hash of the file and the clang that built it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
NATIVE = ROOT / "native"
OUTPUT = HERE / "lib" / "crapette.wasm"
MANIFEST = HERE / "lib" / "crapette.wasm.json"

SOURCES = ("crapette_core.h", "tables.h", "crapette_core.c", "wasm_api.c")
"""The files of ``native/`` the module is built from, in the order they are hashed."""

CFLAGS = (
    "--target=wasm32-wasi",
    "-std=c11",
    "-O3",
    "-nostdinc",
    "-Wall",
    "-Wextra",
    "-Wno-missing-field-initializers",
    "-Werror",
)
"""The compiler flags (besides the include folders, which do not change the output)."""

LDFLAGS = ("--no-entry", "--strip-all", "--gc-sections", "-O2", "-z", "stack-size=65536")
"""The linker flags: no start function, no names or custom sections, unused code dropped."""


def source_hash() -> str:
    """The hash of the sources (names and bytes), as recorded in the manifest."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(name.encode())
        digest.update(b"\0")
        digest.update((NATIVE / name).read_bytes())
    return digest.hexdigest()


def _tool(names: tuple[str, ...], variable: str) -> str:
    given = os.environ.get(variable)
    if given:
        return given
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit(
        f"build_wasm: none of {', '.join(names)} found (set {variable}); on Debian:"
        " apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32"
    )


def toolchain() -> tuple[str, str]:
    """The clang and wasm-ld commands (``$CLANG``, ``$WASM_LD`` or found on the PATH)."""
    return _tool(("clang", "clang-14"), "CLANG"), _tool(("wasm-ld", "wasm-ld-14"), "WASM_LD")


def clang_version(clang: str) -> str:
    """The first line of ``clang --version`` (``Debian clang version 14.0.6``)."""
    out = subprocess.run([clang, "--version"], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()[0].strip()


def _includes(clang: str) -> list[str]:
    resource = subprocess.run(
        [clang, "-print-resource-dir"], capture_output=True, text=True, check=True
    ).stdout.strip()
    folders = [Path(resource) / "include"]
    for candidate in (Path("/usr/include/wasm32-wasi"), Path("/usr/share/wasi-sysroot/include")):
        if (candidate / "string.h").is_file():
            folders.append(candidate)
            break
    else:
        raise SystemExit(
            "build_wasm: the WebAssembly C headers (wasi-libc) are missing; on Debian:"
            " apt-get install wasi-libc"
        )
    return [arg for folder in folders for arg in ("-isystem", str(folder))]


def build(out: Path) -> Path:
    """Compile and link the module into ``out`` (a file path); returns it."""
    clang, wasm_ld = toolchain()
    includes = _includes(clang)
    with tempfile.TemporaryDirectory(prefix="crapette-wasm-") as temp:
        objects = []
        for name in ("crapette_core.c", "wasm_api.c"):
            obj = Path(temp) / (name[:-2] + ".o")
            extra = ["-fno-builtin"] if name == "wasm_api.c" else []  # it defines memcpy & co
            subprocess.run(
                [clang, *CFLAGS, *extra, *includes, "-c", name, "-o", str(obj)],
                cwd=NATIVE,
                check=True,
            )
            objects.append(str(obj))
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([wasm_ld, *LDFLAGS, *objects, "-o", str(out)], check=True)
    return out


def manifest(wasm: Path, clang: str) -> dict[str, str]:
    """What the manifest records for a built file."""
    return {
        "sources_sha256": source_hash(),
        "wasm_sha256": hashlib.sha256(wasm.read_bytes()).hexdigest(),
        "clang": clang_version(clang),
    }


def check_fresh() -> str | None:
    """Why the committed module is not the build of the current sources (None: it is)."""
    if not OUTPUT.is_file() or not MANIFEST.is_file():
        return f"{OUTPUT.relative_to(ROOT)} or its manifest is missing: run python js/build_wasm.py"
    recorded = json.loads(MANIFEST.read_text())
    if recorded.get("sources_sha256") != source_hash():
        return (
            "the C sources changed since js/lib/crapette.wasm was built:"
            " run python js/build_wasm.py and commit the result"
        )
    if recorded.get("wasm_sha256") != hashlib.sha256(OUTPUT.read_bytes()).hexdigest():
        return "js/lib/crapette.wasm is not the file its manifest records: rebuild it"
    return None


def check_rebuild() -> str | None:
    """Rebuild into a temporary folder; why the bytes differ from the committed file (None:
    they are the same)."""
    stale = check_fresh()
    if stale:
        return stale
    with tempfile.TemporaryDirectory(prefix="crapette-wasm-check-") as temp:
        rebuilt = build(Path(temp) / "crapette.wasm")
        if rebuilt.read_bytes() != OUTPUT.read_bytes():
            clang, _ = toolchain()
            recorded = json.loads(MANIFEST.read_text()).get("clang")
            return (
                f"rebuilding gives other bytes than js/lib/crapette.wasm (built by {recorded},"
                f" rebuilt by {clang_version(clang)})"
            )
    return None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="rebuild and compare the bytes")
    group.add_argument("--fresh", action="store_true", help="check the sources hash only")
    args = parser.parse_args(argv)
    if args.check or args.fresh:
        problem = check_rebuild() if args.check else check_fresh()
        if problem:
            print(f"build_wasm: {problem}", file=sys.stderr)
            return 1
        print(f"build_wasm: {OUTPUT.relative_to(ROOT)} is up to date")
        return 0
    clang, _ = toolchain()
    build(OUTPUT)
    MANIFEST.write_text(json.dumps(manifest(OUTPUT, clang), indent=2) + "\n")
    size = OUTPUT.stat().st_size
    print(f"built {OUTPUT.relative_to(ROOT)} ({size:,} bytes, {clang_version(clang)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
