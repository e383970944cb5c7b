"""Build the web page that needs no server: a static folder where a person plays whole deals
against the greedy or the random bot, the rules engine and the bots running in the browser.

The folder holds the reference web page of ``crapette serve`` (``src/crapette/web/static``),
marked ``<html data-backend="local">`` so that it takes the serverless backend
(``local.js``) instead of the server's, with the crapette JavaScript package (``js/lib``:
the C core compiled to WebAssembly) beside it in ``static/crapette/``. Every path in it is
relative, so it can be served from any folder of any static host (the docs site publishes
it as ``game/``: ``docs/hooks.py``), or opened from a local static file server.

Usage: ``python js/build_page.py OUT`` (``--docs URL``: where the page's developer link to
the documentation points; default ``../``, the docs site around ``game/``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "crapette" / "web" / "static"
LIB = ROOT / "js" / "lib"
PACKAGE_FILES = ("*.js", "crapette.wasm")
"""What the page needs of the JavaScript package (not its type declarations)."""


def page_html(source: str, docs: str) -> str:
    """The server's index.html made the serverless page's: relative paths, the local
    backend, and the documentation link to ``docs``."""
    html = source.replace('="/static/', '="static/')
    html = html.replace('href="/docs"', f'href="{docs}"')
    marked = html.replace("<html ", '<html data-backend="local" ', 1)
    if marked == html or "/static/" in marked:
        raise SystemExit("build_page: index.html no longer has the shape this script expects")
    return marked


def build(out: Path, docs: str = "../") -> list[Path]:
    """Write the page into ``out`` (emptied first); returns the files written."""
    if out.exists():
        shutil.rmtree(out)
    static = out / "static"
    shutil.copytree(STATIC, static, ignore=shutil.ignore_patterns("index.html", "__pycache__"))
    package = static / "crapette"
    package.mkdir()
    for pattern in PACKAGE_FILES:
        for path in sorted(LIB.glob(pattern)):
            shutil.copy2(path, package / path.name)
    source = (STATIC / "index.html").read_text(encoding="utf-8")
    (out / "index.html").write_text(page_html(source, docs), encoding="utf-8")
    return sorted(p for p in out.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    """The command line: build the page into the folder given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to write (emptied first)")
    parser.add_argument("--docs", default="../", help="the documentation's address")
    args = parser.parse_args(argv)
    files = build(args.out, args.docs)
    size = sum(p.stat().st_size for p in files)
    print(f"build_page: {len(files)} files, {size / 1024:.0f} KiB in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
