"""``crapette compare``: the same bots, games and seed under several rulesets, side by side
in one table.

Example::

    crapette compare --rules classic --rules serbian --rules g4a --bots greedy,greedy

With ``--sprt`` it runs a sequential test between the two bots instead
([`crapette.simulation.sprt`][crapette.simulation.sprt]): seat-swapped pairs until the
evidence decides between ``--elo0`` and ``--elo1``::

    crapette compare --bots expert,planner --sprt --elo0 0 --elo1 50 --games 20
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import Any

from rich.table import Table

from crapette.cli.simulate import CAPTION, add_common_arguments, run_and_show, stop_calls_text
from crapette.rules import PRESETS
from crapette.simulation import SimulationResult
from crapette.simulation.stats import METRICS, Interval, Stats, paired_differences

__all__ = ["add_parser", "compare_table", "differences_table", "run", "run_sprt"]


def add_parser(subparsers: Any) -> None:
    """Add the ``compare`` subcommand."""
    parser = subparsers.add_parser(
        "compare",
        help="the same bots under several rulesets, side by side",
        description="Simulate the same bots, games and seed under each ruleset and show"
        " the summaries side by side.",
    )
    add_common_arguments(parser, rules_default="every preset")
    test = parser.add_argument_group("sequential test (--sprt)")
    test.add_argument(
        "--sprt",
        action="store_true",
        help="run a sequential probability ratio test of bot A against bot B on seat-swapped"
        " pairs (pentanomial model) under one ruleset (default classic): --games deals per"
        " batch, at most --max-games deals",
    )
    test.add_argument("--elo0", type=float, default=0.0, help="H0: A - B in Elo (default 0)")
    test.add_argument("--elo1", type=float, default=50.0, help="H1: A - B in Elo (default 50)")
    test.add_argument(
        "--alpha", type=float, default=0.05, help="chance of accepting H1 under H0 (0.05)"
    )
    test.add_argument(
        "--beta", type=float, default=0.05, help="chance of accepting H0 under H1 (0.05)"
    )
    parser.set_defaults(run=run)


def compare_table(
    results: Sequence[SimulationResult], analyses: Sequence[Stats] | None = None
) -> Table:
    """One table, a column per ruleset, every figure with its 95% interval (``analyses``
    are the results' ``stats()`` when already computed)."""
    first = results[0]
    a, b = first.bots
    table = Table(
        title=f"A: {a} vs B: {b}, {first.games} deals per ruleset, seed {first.seed}",
        caption=CAPTION,
    )
    table.add_column("", no_wrap=True)
    for result in results:
        table.add_column(result.label, justify="right", overflow="fold")
    if analyses is None:
        analyses = [r.stats() for r in results]
    rows: list[tuple[str, Any]] = [
        (f"A ({a}) win rate", lambda s: _two_lines(s["win_a"])),
        (f"B ({b}) win rate", lambda s: _two_lines(s["win_b"])),
        ("A share of decided deals", lambda s: _two_lines(s["share"])),
        ("first player wins", lambda s: _two_lines(s["first_player"])),
        ("stalemates", lambda s: _two_lines(s["stalemate"])),
        ("move caps", lambda s: f"{s.move_caps}\n{s['move_cap'].format()}"),
        ("mean moves", lambda s: _two_lines(s["moves"])),
        ("median moves", lambda s: _two_lines(s.medians["moves"])),
        ("mean turns", lambda s: _two_lines(s["turns"])),
        ("median turns", lambda s: _two_lines(s.medians["turns"])),
        ("mean margin A - B", lambda s: _two_lines(s["margin"])),
        ("A points per deal", lambda s: _two_lines(s["points_a"])),
        ("B points per deal", lambda s: _two_lines(s["points_b"])),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(s) for s in analyses))
    table.add_row("Stop! calls made", *(stop_calls_text(r.records) for r in results))
    return table


def differences_table(results: Sequence[SimulationResult]) -> Table:
    """The paired difference of every figure between each ruleset and the first."""
    base = results[0]
    table = Table(
        title=f"Paired differences against {base.label} (same shuffles)",
        caption="each ruleset minus the baseline, shuffle by shuffle; cluster-robust 95%"
        " intervals; rates in percentage points",
    )
    table.add_column("", no_wrap=True)
    for result in results[1:]:
        table.add_column(f"{result.label} - {base.label}", justify="right", overflow="fold")
    diffs = [paired_differences(base.records, r.records) for r in results[1:]]
    for metric in METRICS:
        table.add_row(metric.label, *(_two_lines(d[metric.key], sign=True) for d in diffs))
    return table


def _two_lines(value: Interval, sign: bool = False, digits: int = 1) -> str:
    if math.isnan(value.value):
        return "-"
    head, _, bounds = value.format(digits, difference=sign).partition(" [")
    return head if math.isnan(value.low) else f"{head}\n[{bounds}"


def run_sprt(args: argparse.Namespace) -> int:
    """Run ``crapette compare --sprt``."""
    import json
    import sys

    from rich.console import Console

    from crapette.simulation.errors import SimulationError
    from crapette.simulation.sprt import sprt

    rules = args.rules or ["classic"]
    if len(rules) != 1:
        raise SimulationError("--sprt tests two bots under one ruleset: give one --rules")
    for option in ("csv", "plot", "report", "precision"):
        if getattr(args, option, None) is not None:
            raise SimulationError(f"--{option} does not go with --sprt (use --json)")
    console = Console(stderr=True)
    show = args.progress if args.progress is not None else console.is_terminal

    def progress(done: int, llr: float) -> None:
        if show:
            console.print(f"{done} deals: LLR {llr:+.2f}", highlight=False)

    max_games = args.max_games - args.max_games % 2
    batch = args.games + args.games % 2
    result = sprt(
        rules[0],
        args.bots,
        args.seed,
        elo0=args.elo0,
        elo1=args.elo1,
        alpha=args.alpha,
        beta=args.beta,
        max_games=max_games,
        batch=batch,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        progress=progress,
    )
    if args.json == "-":
        json.dump(result.to_dict(), sys.stdout, indent=1)
        print()
        return 0
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result.to_dict(), out, indent=1)
    print(result.summary())
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``crapette compare``."""
    if args.sprt:
        return run_sprt(args)
    if not args.rules:
        args.rules = list(PRESETS)

    def tables(results: list[SimulationResult], analyses: list[Stats]) -> list[Table]:
        if len(results) == 1:
            return [compare_table(results, analyses)]
        return [compare_table(results, analyses), differences_table(results)]

    return run_and_show(args, tables)
