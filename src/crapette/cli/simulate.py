"""``crapette simulate``: bots play many deals under one or more rulesets; a table per
ruleset, and the records as JSON or CSV.

Example::

    crapette simulate --rules classic --rules 'serbian(house_filling=immediate)' \\
        --bots greedy,random --games 200 --seed 1 --workers 2 --json out.json
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from crapette._version import BEHAVIOUR_VERSION
from crapette.bots import BOT_NAMES
from crapette.cli.show import SEED_HELP
from crapette.rules import PRESETS, Ruleset
from crapette.simulation import (
    DealRecord,
    SimulationError,
    SimulationResult,
    check_positive,
    check_ray_address,
    parse_bots,
    parse_rules,
    ray_session,
    simulate,
)

__all__ = [
    "add_common_arguments",
    "add_parser",
    "result_table",
    "run",
    "run_simulations",
    "write_outputs",
]

_PROGRESS_FROM = 20
"""Runs of at least this many deals in all show a progress bar (on a terminal)."""

CSV_FIELDS = (
    "rules",
    "bot_a",
    "bot_b",
    "deal",
    "seed",
    "player0",
    "starter",
    "winner",
    "winner_bot",
    "score0",
    "score1",
    "reason",
    "moves",
    "turns",
)


def add_common_arguments(parser: argparse.ArgumentParser, rules_default: str = "classic") -> None:
    """The options ``simulate`` and ``compare`` share; ``rules_default`` says which rulesets
    run when no ``--rules`` is given."""
    parser.add_argument(
        "--rules",
        action="append",
        metavar="RULES",
        help=f"a preset ({', '.join(PRESETS)}) or a rules string such as"
        f" 'serbian(house_filling=immediate)'; repeat for several (default: {rules_default})",
    )
    parser.add_argument(
        "--bots",
        default="greedy,random",
        help=f"bot A and bot B, comma separated, from {', '.join(BOT_NAMES)}; options as in"
        " search:BUDGET, fallible players as in greedy:miss=0.1:call=0.8 (default: greedy,random)",
    )
    parser.add_argument("--games", type=int, default=100, help="deals per ruleset (default 100)")
    parser.add_argument(
        "--seed", type=int, default=0, help=f"the deals of the run. {SEED_HELP} (default 0)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="processes or Ray tasks in flight (default 1)"
    )
    parser.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="where deals run"
    )
    parser.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="an existing Ray cluster (host:port or ray://host:port); default: start a local Ray",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="write results and records as JSON (- = stdout)"
    )
    parser.add_argument("--csv", metavar="FILE", help="write the deal records as CSV (- = stdout)")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"show a progress bar (default: on a terminal for {_PROGRESS_FROM}+ deals)",
    )


def add_parser(subparsers: Any) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate",
        help="bots play many deals; win rates with 95%% confidence intervals",
        description="Bots play many deals under each ruleset; one table per ruleset.",
    )
    add_common_arguments(parser)
    parser.set_defaults(run=run)


def _check_args(args: argparse.Namespace) -> list[Ruleset]:
    rulesets = [parse_rules(text) for text in (args.rules or ["classic"])]
    parse_bots(args.bots)
    check_positive("games", args.games)
    check_positive("workers", args.workers)
    if args.ray_address is not None and args.backend != "ray":
        raise SimulationError("--ray-address needs --backend ray")
    if args.backend == "ray" and args.ray_address is not None:
        check_ray_address(args.ray_address)
    return rulesets


def run_simulations(args: argparse.Namespace) -> list[SimulationResult]:
    """Check every argument, then simulate each ruleset (with a progress bar if asked)."""
    rulesets = _check_args(args)
    console = Console(stderr=True)
    total = args.games * len(rulesets)
    show = (
        args.progress
        if args.progress is not None
        else (console.is_terminal and total >= _PROGRESS_FROM)
    )
    results = []
    session: contextlib.AbstractContextManager[Any] = (
        ray_session(args.ray_address, args.workers)
        if args.backend == "ray"
        else contextlib.nullcontext()
    )
    with (
        session,
        Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=not show,
            transient=True,
        ) as bar,
    ):
        for rules in rulesets:
            task = bar.add_task(str(rules), total=args.games)

            def advance(done: int, _total: int, task: Any = task) -> None:
                bar.update(task, completed=done)

            results.append(
                simulate(
                    rules,
                    args.bots,
                    args.games,
                    args.seed,
                    workers=args.workers,
                    backend=args.backend,
                    ray_address=args.ray_address,
                    progress=advance,
                )
            )
    return results


def write_outputs(args: argparse.Namespace, results: Sequence[SimulationResult]) -> bool:
    """Write ``--json`` and ``--csv``; whether one of them went to stdout."""
    to_stdout = False
    if args.json is not None:
        payload = {"version": BEHAVIOUR_VERSION, "results": [r.to_dict() for r in results]}
        text = json.dumps(payload, indent=2) + "\n"
        to_stdout |= _write(args.json, text)
    if args.csv is not None:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        for result in results:
            for record in result.records:
                writer.writerow(_csv_row(result, record))
        to_stdout |= _write(args.csv, buffer.getvalue())
    return to_stdout


def _csv_row(result: SimulationResult, record: DealRecord) -> dict[str, Any]:
    row = record.to_dict()
    row["winner"] = "" if record.winner is None else record.winner
    row["winner_bot"] = "" if record.winner_bot is None else record.winner_bot
    return {"bot_a": result.bots[0], "bot_b": result.bots[1], **row}


def _write(path: str, text: str) -> bool:
    if path == "-":
        sys.stdout.write(text)
        return True
    try:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        raise SimulationError(f"cannot write {path!r}: {exc.strerror}") from None
    return False


def bot_labels(bots: tuple[str, str]) -> tuple[str, str]:
    """Labels for bot A and bot B (``A: greedy``)."""
    return (f"A: {bots[0]}", f"B: {bots[1]}")


def result_table(result: SimulationResult) -> Table:
    """A readable table of one run."""
    s = result.summary
    table = Table(
        title=f"{result.rules}: {result.games} deals, seed {result.seed}",
        caption="rates with 95% Wilson intervals; seats alternate on the same shuffles",
    )
    table.add_column("")
    labels = bot_labels(result.bots)
    table.add_column(labels[0], justify="right")
    table.add_column(labels[1], justify="right")
    table.add_row("wins", str(s.wins[0]), str(s.wins[1]))
    table.add_row("win rate", str(s.win_rate[0]), str(s.win_rate[1]))
    table.add_row("share of decided deals", str(s.decided_share[0]), str(s.decided_share[1]))
    table.add_row("mean score", f"{s.mean_scores[0]:.1f}", f"{s.mean_scores[1]:.1f}")
    table.add_section()
    table.add_row("first player wins (decided)", str(s.first_player), "")
    table.add_row("stalemates (incl. move cap)", str(s.stalemate_rate), f"cap: {s.move_caps}")
    table.add_row("mean moves per deal", f"{s.mean_moves:.1f}", "")
    table.add_row("mean turns per deal", f"{s.mean_turns:.1f}", "")
    table.add_row("mean margin A - B", f"{s.mean_margin:+.1f}", "")
    return table


def run(args: argparse.Namespace) -> int:
    """Run ``crapette simulate``."""
    results = run_simulations(args)
    if not write_outputs(args, results):
        console = Console()
        for result in results:
            console.print(result_table(result))
    return 0
