"""The ``crapette`` command line: one subcommand per module of ``crapette.commands``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from crapette._version import __version__
from crapette.errors import CrapetteError

__all__ = ["COMMANDS", "main"]

COMMANDS: tuple[str, ...] = ("play", "show", "replay", "simulate", "compare", "ladder")
"""Subcommands, each implemented by ``crapette.commands.<name>`` with ``add_parser`` and
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
            module = importlib.import_module(f"crapette.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"crapette.commands.{name}":
                raise
            continue
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 1 error, 2 usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        result: int = args.run(args)
    except CrapetteError as exc:
        print(f"crapette {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
