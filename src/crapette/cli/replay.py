"""``crapette replay``: replay a game record move by move and print the result."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from crapette.cli._input import read_input
from crapette.cli.show import load_document
from crapette.outcome import outcome
from crapette.records import GameRecord, format_result, parse_record
from crapette.text import board, describe_move

__all__ = ["add_parser", "load_record", "run"]


def add_parser(subparsers: Any) -> None:
    """Add the ``replay`` subcommand to the ``crapette`` parser."""
    parser = subparsers.add_parser(
        "replay",
        help="replay a game record and print each move and the result",
        description="Replay a game record (the text form, or a JSON record document), printing"
        " each move and the final result. Exits with status 1 at the first illegal move, or"
        " when the record's Result header disagrees with the replay.",
    )
    parser.add_argument("file", metavar="FILE", help="the record file ('-': standard input)")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.add_argument("--board", action="store_true", help="print the final board")
    parser.add_argument(
        "--ascii", action="store_true", help="write cards 7S/7s instead of 7♠ (with --board)"
    )
    parser.set_defaults(run=run)


def load_record(text: str) -> GameRecord:
    """A record from its text form or a JSON record document.

    Raises:
        NotationError: the text is neither.
    """
    return load_document(text, GameRecord, parse_record, "a game record")


def run(args: argparse.Namespace) -> int:
    """Replay the record; returns the exit status."""
    record = load_record(read_input(args.file))
    if not args.quiet:
        for key, value in record.headers.items():
            if key != "Position":
                print(f"{key}: {value}")
    before = state = record.start_state()
    for number, (state, move) in enumerate(record.replay()):
        if move is not None and not args.quiet:
            said = describe_move(before, move, ascii=args.ascii)
            print(f"{number:5}. P{before.to_act} {record.moves[number - 1]:10} {said}")
        before = state
    result = format_result(outcome(state))
    print(f"Result: {result}")
    if args.board:
        print(board(state, ascii=args.ascii))
    claimed = record.headers.get("Result")
    if claimed is not None and claimed != result:
        print(
            f"crapette replay: the record's Result header says {claimed!r} but the replay"
            f" gives {result!r}",
            file=sys.stderr,
        )
        return 1
    return 0
