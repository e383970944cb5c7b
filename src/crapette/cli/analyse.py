"""``crapette analyse``: judge every move of game records (annotated games).

Example::

    crapette analyse game.txt                      # the report on standard output
    crapette analyse game.txt --json game.annotated.json --commented game.annotated.txt
    crapette analyse deals/*.txt --out-dir annotated --workers 2
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from crapette.analysis import (
    DEEP_SAMPLES,
    DEFAULT_LIMIT,
    AnnotatedRecord,
    Limit,
    annotate_many,
    read_record,
)
from crapette.cli._input import read_input
from crapette.errors import CrapetteError

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Add the ``analyse`` subcommand."""
    parser = subparsers.add_parser(
        "analyse",
        help="judge every move of game records: mistakes, accuracy, best lines",
        description="Analyse every decision of both players of each record (the text form"
        " or a JSON record document) from what the mover could see, and judge each move"
        " by the win probability it lost against the best line (inaccuracy, mistake,"
        " blunder; Stop! faults under callable Stop! rules). Prints a report per record.",
    )
    parser.add_argument("records", nargs="+", metavar="RECORD", help="record files ('-': stdin)")
    parser.add_argument(
        "--rollouts",
        type=int,
        default=None,
        help=f"play-outs per decision (default {DEFAULT_LIMIT.rollouts} without --time)",
    )
    parser.add_argument(
        "--positions", type=int, default=None, help="moves played by the play-outs per decision"
    )
    parser.add_argument(
        "--time", type=float, default=None, help="seconds per decision (not reproducible)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the analysis seed (default 0)")
    parser.add_argument(
        "--deep",
        type=int,
        default=DEEP_SAMPLES,
        help=f"samples of each analysis's second stage, deep play-outs (default {DEEP_SAMPLES})",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="write the annotated record as JSON (one record only)"
    )
    parser.add_argument(
        "--commented",
        metavar="FILE",
        help="write the record with a comment after each judged move (one record only)",
    )
    parser.add_argument(
        "--out-dir",
        metavar="DIR",
        help="write NAME.annotated.json and NAME.report.txt for every record into DIR",
    )
    parser.add_argument("--quiet", action="store_true", help="print no report")
    parser.add_argument(
        "--workers", type=int, default=1, help="processes or Ray tasks in flight (default 1)"
    )
    parser.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="where records run"
    )
    parser.add_argument("--ray-address", metavar="ADDR", help="an existing Ray cluster")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar (default: on a terminal)",
    )
    parser.set_defaults(run=run)


def _limit(args: argparse.Namespace) -> Limit:
    rollouts = args.rollouts
    if rollouts is None and args.positions is None and args.time is None:
        rollouts = DEFAULT_LIMIT.rollouts
    return Limit(rollouts=rollouts, positions=args.positions, time=args.time)


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise CrapetteError(f"cannot write {path}: {exc.strerror}") from None


def run(args: argparse.Namespace) -> int:
    """Run ``crapette analyse``."""
    limit = _limit(args)
    if args.deep < 0:
        raise CrapetteError(f"--deep must be 0 or more, not {args.deep}")
    if (args.json or args.commented) and len(args.records) > 1:
        raise CrapetteError("--json and --commented take one record; use --out-dir for several")
    if args.out_dir is not None and not os.path.isdir(args.out_dir):
        raise CrapetteError(f"--out-dir {args.out_dir}: not a directory")
    records = [read_record(read_input(name)) for name in args.records]
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    console = Console(stderr=True)
    show = args.progress if args.progress is not None else console.is_terminal
    with Progress(
        "{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not show,
        transient=True,
    ) as bar:
        if len(records) == 1 and args.workers == 1 and args.backend == "local":
            from crapette.analysis import annotate

            task = bar.add_task("moves", total=len(records[0].moves))

            def moves_done(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            annotated = [
                annotate(records[0], limit, seed=args.seed, deep=args.deep, progress=moves_done)
            ]
        else:
            task = bar.add_task("records", total=len(records))

            def records_done(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            annotated = annotate_many(
                records,
                limit,
                seed=args.seed,
                deep=args.deep,
                workers=args.workers,
                backend=args.backend,
                ray_address=args.ray_address,
                progress=records_done,
            )
    for name, result in zip(args.records, annotated, strict=True):
        _outputs(args, name, result)
    return 0


def _outputs(args: argparse.Namespace, name: str, result: AnnotatedRecord) -> None:
    if args.json:
        _write(args.json, result.to_json(indent=1) + "\n")
    if args.commented:
        _write(args.commented, result.commented())
    report = result.report()
    if args.out_dir is not None:
        stem = "stdin" if name == "-" else Path(name).name.rsplit(".", 1)[0]
        _write(
            os.path.join(args.out_dir, f"{stem}.annotated.json"), result.to_json(indent=1) + "\n"
        )
        _write(os.path.join(args.out_dir, f"{stem}.report.txt"), report)
    if not args.quiet:
        if len(args.records) > 1:
            print(f"== {name}")
        print(report)
