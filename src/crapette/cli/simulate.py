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
import shlex
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from crapette import BEHAVIOUR_VERSION
from crapette.bots import bot_names
from crapette.cli._output import check_writable, write_text
from crapette.cli.show import SEED_HELP
from crapette.rules import PRESETS, Ruleset
from crapette.simulation import (
    MAX_GAMES,
    DealRecord,
    SimulationResult,
    check_positive,
    check_ray_address,
    label_of,
    parse_bots,
    ray_session,
    rules_of,
    simulate,
    stats,
    summarize,
)
from crapette.simulation.errors import RunInterrupted, SimulationError, SimulationInterrupted

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
    "stop_calls",
    "violations",
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
        help=f"bot A and bot B, comma separated, from {', '.join(bot_names())}; options as in"
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
    parser.add_argument(
        "--precision",
        type=float,
        metavar="X",
        help="play batches of --games deals until the interval of --target (and, with"
        " several rulesets, its paired differences against the first) has a half-width"
        " below X (a fraction for rates: 0.02 = 2 points), or --max-games is reached",
    )
    parser.add_argument(
        "--target",
        choices=[m.key for m in stats.METRICS],
        default="share",
        metavar="KEY",
        help="the figure --precision aims at: one of"
        f" {', '.join(m.key for m in stats.METRICS)} (default: share, bot A's share of"
        " decided deals)",
    )
    parser.add_argument(
        "--max-games",
        type=int,
        default=10_000,
        metavar="N",
        help="the most deals per ruleset with --precision (default 10000)",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the win rates, paired differences and distributions to FILE (.png, .svg;"
        " needs crapette[plot])",
    )
    parser.add_argument(
        "--report",
        metavar="FILE",
        help="write one self-contained HTML report (tables, figure, command, versions)",
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
    """Check every argument and output path, before any deal is played."""
    rulesets = [rules_of(text) for text in _rules_texts(args)]
    parse_bots(args.bots)
    check_positive("games", args.games, MAX_GAMES)
    check_positive("workers", args.workers)
    if args.ray_address is not None and args.backend != "ray":
        raise SimulationError("--ray-address needs --backend ray")
    precision = getattr(args, "precision", None)
    if precision is not None:
        if not precision > 0 or precision == float("inf"):
            raise SimulationError(f"--precision must be a positive number, not {precision}")
        check_positive("--max-games", args.max_games, MAX_GAMES)
        if args.games % 2:
            raise SimulationError("--precision plays batches of whole pairs: use an even --games")
    if getattr(args, "plot", None) is not None:
        from crapette.simulation.plots import require_matplotlib

        require_matplotlib("--plot")
    for option in ("json", "csv", "plot", "report"):
        path = getattr(args, option, None)
        if path is not None and not (path == "-" and option in ("json", "csv")):
            check_writable(path, f"--{option}")
    if getattr(args, "plot", None) is not None:
        from crapette.simulation.plots import check_plot_path

        check_plot_path(args.plot)
    if args.backend == "ray" and args.ray_address is not None:
        check_ray_address(args.ray_address)
    return rulesets


def _rules_texts(args: argparse.Namespace) -> list[str]:
    """The ``--rules`` strings as given (``classic`` without any)."""
    return [text.strip() for text in (args.rules or ["classic"])]


def run_simulations(args: argparse.Namespace) -> list[SimulationResult]:
    """Check every argument, then simulate each ruleset (with a progress bar if asked)."""
    rulesets = _check_args(args)
    texts = _rules_texts(args)
    console = Console(stderr=True)
    results: list[SimulationResult] = []
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
            disable=not _show_progress(args, console, args.games * len(rulesets)),
            transient=True,
        ) as bar,
    ):
        tasks = [bar.add_task(text, total=args.games) for text in texts]
        start = 0
        while True:
            for i, rules in enumerate(rulesets):

                def advance(done: int, _total: int, task: Any = tasks[i], at: int = start) -> None:
                    bar.update(task, completed=at + done)

                batch, stopped = _batch(args, texts[i], rules, start, advance)
                if start == 0:
                    results.append(batch)
                else:
                    results[i] = merge_results(results[i], batch)
                if stopped:
                    raise RunInterrupted([r for r in results if r.records])
            start += args.games
            if not _more(args, results, start):
                break
            for task in tasks:
                bar.update(task, total=min(start + args.games, args.max_games))
    return results


def _batch(
    args: argparse.Namespace,
    text: str,
    rules: Ruleset,
    start: int,
    progress: Callable[[int, int], None],
) -> tuple[SimulationResult, bool]:
    """Deals ``start`` to ``start + --games - 1`` of one ruleset, and whether Ctrl-C cut
    them short (the result then holds the deals finished)."""
    try:
        result = simulate(
            text,
            args.bots,
            args.games,
            args.seed,
            workers=args.workers,
            backend=args.backend,
            ray_address=args.ray_address,
            progress=progress,
            start=start,
        )
    except SimulationInterrupted as stop:
        records = stop.records
        bots = parse_bots(args.bots)
        label = label_of(text, rules)
        summary = summarize(records)
        cut = SimulationResult(
            rules.to_string(), bots, len(records), args.seed, records, summary, label
        )
        return cut, True
    return result, False


def _more(args: argparse.Namespace, results: Sequence[SimulationResult], played: int) -> bool:
    """Whether ``--precision`` asks for another batch after ``played`` deals per ruleset."""
    precision = getattr(args, "precision", None)
    if precision is None or played >= args.max_games:
        return False
    return not precise_enough(results, args.target, precision)


def write_interrupted(args: argparse.Namespace, stop: RunInterrupted) -> None:
    """Write the finished deals of an interrupted run to ``--json`` and ``--csv`` (marked
    ``"interrupted": true`` in the JSON), so an hour of simulation survives a Ctrl-C; the
    plot and report, which describe a whole run, are not made."""
    if not stop.records:
        return
    if args.json is not None:
        payload = _json_payload(stop.results)
        payload["interrupted"] = True
        if not _write(args.json, json.dumps(payload, indent=2) + "\n", "--json"):
            stop.written.append(args.json)
    if args.csv is not None and not _write(args.csv, _csv_text(stop.results), "--csv"):
        stop.written.append(args.csv)


def merge_results(first: SimulationResult, more: SimulationResult) -> SimulationResult:
    """One result from two runs of the same rules, bots and seed over different deals."""
    records = tuple(sorted(first.records + more.records, key=lambda r: r.deal))
    return SimulationResult(
        first.rules,
        first.bots,
        len(records),
        first.seed,
        records,
        summarize(records),
        first.label,
        batch=first.batch and more.batch,
    )


def precise_enough(results: Sequence[SimulationResult], target: str, precision: float) -> bool:
    """Whether the ``target`` figure of every run, and its paired difference against the
    first run, has a 95% interval of half-width below ``precision``."""
    widths = [stats.analyse(r.records, medians=False)[target].half_width for r in results]
    widths += [
        stats.paired_differences(results[0].records, r.records)[target].half_width
        for r in results[1:]
    ]
    return max(widths) < precision


def command_line(args: argparse.Namespace) -> str:
    """The command that made ``args``, to rerun it (the ``--plot``, ``--report``, ``--json``
    and ``--csv`` outputs left as given)."""
    argv = getattr(args, "argv", None)
    if argv is None:
        argv = sys.argv[1:]
    return shlex.join(["crapette", *argv])


def write_outputs(
    args: argparse.Namespace,
    results: Sequence[SimulationResult],
    analyses: Sequence[stats.Stats] | None = None,
) -> bool:
    """Write ``--json``, ``--csv``, ``--plot`` and ``--report``; whether one of them went
    to stdout. ``analyses`` are the results' ``stats()`` when already computed."""
    to_stdout = False
    figure = None
    if getattr(args, "plot", None) is not None or getattr(args, "report", None) is not None:
        if analyses is None:
            analyses = [r.stats() for r in results]
        from crapette.simulation import plots

        if plots.have_matplotlib():
            figure = plots.comparison_figure(results, analyses, title=command_line(args))
    if getattr(args, "plot", None) is not None:
        from crapette.simulation import plots

        plots.save_figure(figure, args.plot)
    if getattr(args, "report", None) is not None:
        from crapette.simulation import plots, report

        png = plots.figure_png(figure) if figure is not None else None
        text = report.html_report(
            results, command=command_line(args), analyses=analyses, figure_png=png
        )
        _write(args.report, text, "--report")
    if args.json is not None:
        to_stdout |= _write(
            args.json, json.dumps(_json_payload(results), indent=2) + "\n", "--json"
        )
    if args.csv is not None:
        to_stdout |= _write(args.csv, _csv_text(results), "--csv")
    return to_stdout


def _json_payload(results: Sequence[SimulationResult]) -> dict[str, Any]:
    return {
        "version": BEHAVIOUR_VERSION,
        "results": [{**r.to_dict(), "stats": r.stats(medians=False).to_dict()} for r in results],
        "differences": {
            r.label: {
                k: v.to_dict()
                for k, v in stats.paired_differences(results[0].records, r.records).items()
            }
            for r in results[1:]
        },
    }


def _csv_text(results: Sequence[SimulationResult]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for result in results:
        for record in result.records:
            writer.writerow(_csv_row(result, record))
    return buffer.getvalue()


def _csv_row(result: SimulationResult, record: DealRecord) -> dict[str, Any]:
    row = record.to_dict()
    row["winner"] = "" if record.winner is None else record.winner
    row["winner_bot"] = "" if record.winner_bot is None else record.winner_bot
    return {"bot_a": result.bots[0], "bot_b": result.bots[1], **row}


def _write(path: str, text: str, option: str) -> bool:
    if path == "-":
        sys.stdout.write(text)
        return True
    write_text(path, text, option)
    return False


def bot_labels(bots: tuple[str, str]) -> tuple[str, str]:
    """Labels for bot A and bot B (``A: greedy``)."""
    return (f"A: {bots[0]}", f"B: {bots[1]}")


CAPTION = (
    "95% intervals that count each seat-swapped pair of deals (one shuffle) as a unit; means,"
    " medians and points leave out move-capped deals (counted apart)"
)
"""The caption of the simulate and compare tables."""


def result_table(result: SimulationResult, analysis: stats.Stats | None = None) -> Table:
    """A readable table of one run, every figure with its 95% interval (``analysis`` is
    ``result.stats()`` when already computed)."""
    s = result.summary
    st = analysis if analysis is not None else result.stats()
    played = ", played by the native engine's batch loop" if result.batch else ""
    table = Table(
        title=f"{result.label}: {result.games} deals, seed {result.seed}{played}", caption=CAPTION
    )
    table.add_column("")
    labels = bot_labels(result.bots)
    table.add_column(labels[0], justify="right")
    table.add_column(labels[1], justify="right")
    table.add_row("wins", str(s.wins[0]), str(s.wins[1]))
    table.add_row("win rate", str(st["win_a"]), str(st["win_b"]))
    table.add_row("share of decided deals", str(s.decided_share[0]), str(s.decided_share[1]))
    table.add_row("points per deal", str(st["points_a"]), str(st["points_b"]))
    table.add_section()
    table.add_row("first player wins (decided)", str(st["first_player"]), "")
    table.add_row("stalemates", str(st["stalemate"]), "")
    table.add_row("move caps", f"{st.move_caps} ({st['move_cap']})", "")
    table.add_row("moves per deal: mean", str(st["moves"]), "")
    table.add_row("moves per deal: median", str(st.medians["moves"]), "")
    table.add_row("turns per deal: mean", str(st["turns"]), "")
    table.add_row("turns per deal: median", str(st.medians["turns"]), "")
    table.add_row("margin A - B: mean", str(st["margin"]), "")
    table.add_row("margin A - B: median", str(st.medians["margin"]), "")
    table.add_row("Stop! calls", stop_calls_text(result.records), "")
    return table


def stop_calls_text(records: Sequence[DealRecord]) -> str:
    """``"12 in 200 deals (of 15 violations)"``: the Stop! calls made in some deals."""
    calls = sum(r.stop_calls for r in records)
    violations = sum(r.violations for r in records)
    return f"{calls} in {len(records)} deals (of {violations} violations)"


Tables = Callable[[list[SimulationResult], list[stats.Stats]], Iterable[Table]]
"""What ``simulate`` and ``compare`` print: tables of the results and their analyses."""


def _show_progress(args: argparse.Namespace, console: Console, deals: int) -> bool:
    return bool(
        args.progress
        if args.progress is not None
        else console.is_terminal and deals >= _PROGRESS_FROM
    )


def analyse_all(args: argparse.Namespace, results: Sequence[SimulationResult]) -> list[stats.Stats]:
    """Every result's ``stats()``, with a progress bar over the bootstrap of the medians
    (minutes on runs of many thousand deals) when the deals' bar was shown."""
    console = Console(stderr=True)
    deals = sum(r.games for r in results)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not _show_progress(args, console, deals),
        transient=True,
    ) as bar:
        out = []
        for result in results:
            task = bar.add_task(f"{result.label}: medians", total=stats.RESAMPLES)

            def step(done: int, total: int, task: Any = task) -> None:
                bar.update(task, completed=done, total=total)

            out.append(stats.analyse(result.records, progress=step))
    return out


def run_and_show(args: argparse.Namespace, tables: Tables) -> int:
    """Run the simulations of ``crapette simulate`` or ``compare``, analyse them, then write
    the output files, or else print ``tables(results, analyses)``; on Ctrl-C write the deals
    finished."""
    try:
        results = run_simulations(args)
    except RunInterrupted as stop:
        write_interrupted(args, stop)
        raise
    analyses = analyse_all(args, results)
    if not write_outputs(args, results, analyses):
        # Piped output is not a terminal: do not wrap the tables at 80 columns.
        console = Console() if sys.stdout.isatty() else Console(width=1000)
        for table in tables(results, analyses):
            console.print(table)
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``crapette simulate``."""
    return run_and_show(args, lambda results, analyses: map(result_table, results, analyses))
