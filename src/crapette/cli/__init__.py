"""The ``crapette`` command line: one subcommand per module of ``crapette.cli`` (``play``,
``show``, ``replay``, ``simulate``, ``compare``, ``ladder``, ``analyse``, ``puzzles``,
``serve``); [`crapette.cli.game`][crapette.cli.game] is
the terminal game. The command line needs ``rich`` (``pip install 'crapette[cli]'``); the rest
of the library never imports it."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence

from crapette import __version__
from crapette.cli._output import OutputError
from crapette.errors import CrapetteError

__all__ = ["main"]

COMMANDS: tuple[str, ...] = (
    "play",
    "show",
    "replay",
    "simulate",
    "compare",
    "ladder",
    "analyse",
    "puzzles",
    "serve",
)
"""Subcommands, each implemented by ``crapette.cli.<name>`` with ``add_parser`` and
``run``."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="crapette", description="Russian Bank (Crapette): play, show, replay, simulate."
    )
    parser.add_argument("--version", action="version", version=f"crapette {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"crapette.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"crapette.cli.{name}":
                raise
            continue
        module.add_parser(sub)
    return parser


RICH_MISSING: str = (
    "crapette: the command line needs the 'rich' package; install it with"
    " pip install 'crapette[cli]'"
)
"""The one-line message printed when ``rich`` is not installed."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 1 error, 2 usage: a bad
    argument, or a file it cannot write)."""
    if importlib.util.find_spec("rich") is None:
        print(RICH_MISSING, file=sys.stderr)
        return 1
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        result: int = args.run(args)
        sys.stdout.flush()
    except OutputError as exc:  # a file it cannot write: a bad argument (status 2)
        print(f"crapette {args.command}: {exc}", file=sys.stderr)
        return 2
    except CrapetteError as exc:
        print(f"crapette {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        done = getattr(exc, "records", None)
        written = getattr(exc, "written", None)
        extra = "" if done is None else f" after {len(done)} deals; "
        if done is not None:
            extra += f"wrote them to {', '.join(written)}" if written else "nothing written"
        print(f"crapette {args.command}: interrupted{extra}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``crapette show ... | head -1``): stop quietly. Python
        # flushes stdout again at exit, so point it at devnull first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
