"""``crapette ladder``: a round robin between bots and their Bradley-Terry ratings.

Example::

    crapette ladder --bots random,greedy,search --rules classic --games 40 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from crapette.cli._output import check_writable, write_text

__all__ = ["add_parser", "run"]

DEFAULT_BOTS = "random,greedy,search,planner"
"""The bots of ``crapette ladder`` without ``--bots``."""


def add_parser(subparsers: Any) -> None:
    """Add the ``ladder`` subcommand."""
    parser = subparsers.add_parser(
        "ladder",
        help="a round robin between bots, rated (Bradley-Terry, Elo scale)",
        description="Play every pair of bots on the same shuffles (seats swapped) and fit"
        " Bradley-Terry ratings on the Elo scale, with 95% bootstrap intervals over deal"
        " pairs.",
    )
    parser.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        help="bot strings, comma separated, at least two, e.g."
        f" greedy,search:64,greedy:miss=0.1 (default: {DEFAULT_BOTS})",
    )
    parser.add_argument(
        "--rules", default="classic", help="a preset or a rules string (default: classic)"
    )
    parser.add_argument("--games", type=int, default=40, help="deals per pairing (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="the run seed (default 0)")
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=400,
        help="bootstrap resamples behind the intervals, 0 to 100000 (default 400)",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar (default: on a terminal)",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes per pairing (default 1)")
    parser.add_argument("--json", metavar="FILE", help="write the ladder as JSON ('-': stdout)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``crapette ladder``."""
    from crapette.simulation.ladder import ladder

    if args.json and args.json != "-":
        check_writable(args.json, "--json")

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    console = Console(stderr=True)
    show = args.progress if args.progress is not None else console.is_terminal
    bots = args.bots.split(",")
    deals = len(bots) * (len(bots) - 1) // 2 * args.games
    with Progress(
        "{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not show,
        transient=True,
    ) as bar:
        task = bar.add_task("deals", total=None)

        def progress(done: int, total: int) -> None:
            phase = "deals" if done < deals or done == total == deals else "bootstrap"
            bar.update(task, completed=done, total=total, description=phase)

        result = ladder(
            bots,
            args.rules,
            args.games,
            args.seed,
            bootstrap=args.bootstrap,
            workers=args.workers,
            progress=progress,
        )
    if args.json == "-":
        json.dump(result.to_dict(), sys.stdout, indent=1)
        print()
        return 0
    if args.json:
        write_text(args.json, json.dumps(result.to_dict(), indent=1), "--json")
    print(
        f"ladder on {result.rules}: {result.games} deals per pairing, seed {result.seed},"
        f" {result.bootstrap} bootstrap resamples"
    )
    print(result.table())
    return 0
