"""``crapette compare``: the same bots, games and seed under several rulesets, side by side
in one table.

Example::

    crapette compare --rules classic --rules serbian --rules g4a --bots greedy,greedy
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from crapette.cli.simulate import add_common_arguments, run_simulations, write_outputs
from crapette.simulation import Estimate, SimulationResult

__all__ = ["add_parser", "compare_table", "run"]


def add_parser(subparsers: Any) -> None:
    """Add the ``compare`` subcommand."""
    parser = subparsers.add_parser(
        "compare",
        help="the same bots under several rulesets, side by side",
        description="Simulate the same bots, games and seed under each ruleset and show"
        " the summaries side by side.",
    )
    add_common_arguments(parser, rules_default="every preset")
    parser.set_defaults(run=run)


def compare_table(results: Sequence[SimulationResult]) -> Table:
    """One table, a column per ruleset."""
    first = results[0]
    a, b = first.bots
    table = Table(
        title=f"A: {a} vs B: {b}, {first.games} deals per ruleset, seed {first.seed}",
        caption="rates with 95% Wilson intervals; seats alternate on the same shuffles",
    )
    table.add_column("", no_wrap=True)
    for result in results:
        table.add_column(result.rules, justify="right", overflow="fold")
    rows: list[tuple[str, Any]] = [
        (f"A ({a}) win rate", lambda s: _two_lines(s.win_rate[0])),
        (f"B ({b}) win rate", lambda s: _two_lines(s.win_rate[1])),
        ("A share of decided deals", lambda s: _two_lines(s.decided_share[0])),
        ("first player wins", lambda s: _two_lines(s.first_player)),
        ("stalemates", lambda s: _two_lines(s.stalemate_rate)),
        ("move caps", lambda s: str(s.move_caps)),
        ("mean moves", lambda s: f"{s.mean_moves:.1f}"),
        ("mean turns", lambda s: f"{s.mean_turns:.1f}"),
        ("mean margin A - B", lambda s: f"{s.mean_margin:+.1f}"),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(r.summary) for r in results))
    return table


def _two_lines(estimate: Estimate) -> str:
    return f"{100 * estimate.rate:.1f}%\n[{100 * estimate.low:.1f}, {100 * estimate.high:.1f}]"


def run(args: argparse.Namespace) -> int:
    """Run ``crapette compare``."""
    if not args.rules:
        args.rules = ["classic", "pagat", "g4a", "belarusian", "serbian"]
    results = run_simulations(args)
    if not write_outputs(args, results):
        # Piped output is not a terminal: do not wrap the table at 80 columns.
        console = Console() if sys.stdout.isatty() else Console(width=1000)
        console.print(compare_table(results))
    return 0
