"""Pictures of simulation results (the optional ``crapette[plot]`` extra: matplotlib).

[`comparison_figure`][crapette.simulation.plots.comparison_figure] draws one figure for one or more
rulesets played by the same bots on the same shuffles: bot A's share of decided deals and the first
player's share with their 95% intervals, the distributions of deal length and score margin
(move-capped deals left out, as in [`crapette.simulation.stats`][crapette.simulation.stats]), and
beside each the paired differences against the baseline (the first ruleset) of every figure:
rates, mean deal length in moves and turns, Stop! calls, mean margin and points.
"""

from __future__ import annotations

import importlib
import io
import math
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from crapette.simulation.errors import PlotError
from crapette.simulation.stats import Interval, Stats, paired_differences

if TYPE_CHECKING:
    from crapette.simulation import SimulationResult

__all__ = ["PlotError", "comparison_figure", "figure_png", "save_figure"]

INSTALL_HINT = "pip install 'crapette[plot]' (or pip install matplotlib)"


def have_matplotlib() -> bool:
    """Whether matplotlib can be imported."""
    try:
        importlib.import_module("matplotlib.figure")
    except ImportError:
        return False
    return True


def require_matplotlib(what: str = "plots") -> None:
    """Fail at once when matplotlib is missing.

    Raises:
        PlotError: matplotlib cannot be imported.
    """
    if not have_matplotlib():
        raise PlotError(f"{what} need matplotlib: {INSTALL_HINT}")


def check_plot_path(path: str) -> None:
    """Fail at once when matplotlib is missing or cannot write the format that ``path``'s
    extension names (``.png``, ``.svg``, ``.pdf``, ...).

    Raises:
        PlotError: matplotlib is missing, or the extension is not a format it writes.
    """
    require_matplotlib("plots")
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    extension = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    if extension not in formats:
        raise PlotError(
            f"cannot tell the plot format of {path!r}: end the file name with one of"
            f" {', '.join('.' + f for f in sorted(formats))}"
        )


def _short(rules: str, width: int = 28) -> str:
    return rules if len(rules) <= width else rules[: width - 1] + "…"


def _bar(extent: float, scale: float) -> float:
    """An error bar's length (scaled): never negative (rounding), 0 for none."""
    return 0.0 if math.isnan(extent) else max(0.0, scale * extent)


def _bars(
    ax: Any, labels: list[str], series: list[tuple[str, list[Interval]]], scale: float = 100.0
) -> None:
    """Points with interval bars, one group per label, one offset per series (values times
    ``scale``: 100 for rates in percent)."""
    width = 0.8 / max(len(series), 1)
    for k, (name, intervals) in enumerate(series):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(labels))]
        ys = [scale * v.value for v in intervals]
        low = [_bar(v.value - v.low, scale) for v in intervals]
        high = [_bar(v.high - v.value, scale) for v in intervals]
        ax.errorbar(xs, ys, yerr=[low, high], fmt="o", capsize=4, label=name)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)


def _differences(
    ax: Any,
    labels: list[str],
    series: list[tuple[str, list[Interval]]],
    *,
    scale: float,
    unit: str,
    base: str,
) -> None:
    """A panel of paired differences against the baseline, a dashed line at 0."""
    _bars(ax, labels, series, scale)
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_ylabel(f"{unit} (paired 95% interval)", fontsize=9)
    ax.legend(fontsize=8)
    ax.set_title(f"minus {base}", fontsize=9, loc="right", color="grey")


# The paired differences drawn beside each panel: (label, key of stats.METRICS).
_RATE_ROWS: Final = (
    ("A's share of decided deals", "share"),
    ("first player's share", "first_player"),
    ("stalemates", "stalemate"),
    ("move caps", "move_cap"),
)
_LENGTH_ROWS: Final = (
    ("moves per deal", "moves"),
    ("turns per deal", "turns"),
    ("Stop! calls per deal", "stop_calls"),
)
_SCORE_ROWS: Final = (
    ("margin A - B", "margin"),
    ("A's points per deal", "points_a"),
    ("B's points per deal", "points_b"),
)


def comparison_figure(
    results: Sequence[SimulationResult],
    analyses: Sequence[Stats] | None = None,
    *,
    title: str = "",
) -> Any:
    """A matplotlib ``Figure`` comparing runs of the same bots under several rulesets.

    Three rows: win rates (bot A's and the first player's share of decided deals), deal
    length in moves and the score margin. The left column shows each ruleset (intervals,
    or the distribution as a box plot: median, quartiles, mean as a triangle); the right
    column the paired differences against the baseline (the first ruleset), shuffle by
    shuffle, with their 95% intervals: rates in percentage points, lengths in moves and
    turns and the Stop! calls per deal, margin and points per deal in points.

    Args:
        results: the runs (the first is the baseline of the paired differences).
        analyses: their [`analyse`][crapette.simulation.stats.analyse] results (computed
            when omitted).
        title: a line under the figure's heading (for instance the command that made it).

    Raises:
        PlotError: matplotlib is missing.
    """
    require_matplotlib()
    from matplotlib.figure import Figure

    stats = list(analyses) if analyses is not None else [r.stats(medians=False) for r in results]
    labels = [_short(r.label) for r in results]
    fig = Figure(figsize=(11, 12), layout="constrained")
    (ax1, ax2), (ax3, ax4), (ax5, ax6) = fig.subplots(3, 2)
    _win_rates(ax1, labels, stats)
    ended = [[r for r in res.records if r.reason != "move_cap"] for res in results]
    caps = ", ".join(str(s.move_caps) for s in stats)
    _boxes(
        ax3,
        labels,
        [[r.moves for r in rs] for rs in ended],
        ylabel="moves per deal",
        title=f"Deal length (move-capped deals left out: {caps})",
    )
    _boxes(
        ax5,
        labels,
        [[_margin(r.bot_scores()) for r in rs] for rs in ended],
        ylabel="A's score minus B's",
        title="Score margin per deal",
        zero=True,
    )
    _paired_panels(results, labels, (ax2, ax4, ax6))
    a, b = results[0].bots
    heading = f"A: {a} vs B: {b}, {results[0].games} deals per ruleset, seed {results[0].seed}"
    if title:
        heading += "\n" + textwrap.fill(title, 150)
    fig.suptitle(heading, fontsize=9)
    return fig


def _margin(scores: tuple[int, int]) -> int:
    return scores[0] - scores[1]


def _win_rates(ax: Any, labels: list[str], stats: Sequence[Stats]) -> None:
    """Bot A's and the first player's share of decided deals, a dashed line at 50%."""
    _bars(
        ax,
        labels,
        [
            ("A's share of decided deals", [s["share"] for s in stats]),
            ("first player's share of decided deals", [s["first_player"] for s in stats]),
        ],
    )
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_ylabel("% of decided deals (95% interval)", fontsize=9)
    ax.set_title("Win rates", fontsize=10)
    ax.legend(fontsize=8)


def _boxes(
    ax: Any,
    labels: list[str],
    values: list[list[int]],
    *,
    ylabel: str,
    title: str,
    zero: bool = False,
) -> None:
    """A box plot per ruleset (median, quartiles, the mean as a triangle)."""
    ax.boxplot([v or [0] for v in values], showmeans=True)
    if zero:
        ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(1, len(labels) + 1))
    ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel(ylabel, fontsize=9)
    ax.set_title(title, fontsize=10)


def _paired_panels(
    results: Sequence[SimulationResult], labels: list[str], axes: tuple[Any, Any, Any]
) -> None:
    """The right column: the paired differences against the first ruleset."""
    if len(results) < 2:
        for ax in axes:
            ax.axis("off")
        axes[0].text(0.5, 0.5, "one ruleset: no paired differences", ha="center", va="center")
        return
    base = results[0]
    diffs = [paired_differences(base.records, r.records) for r in results[1:]]
    panels = (
        ("rates", "percentage points", 100.0, _RATE_ROWS),
        ("deal length and Stop! calls (mean)", "per deal", 1.0, _LENGTH_ROWS),
        ("score (mean)", "points", 1.0, _SCORE_ROWS),
    )
    for ax, (title, unit, scale, rows) in zip(axes, panels, strict=True):
        series = [(label, [d[key] for d in diffs]) for label, key in rows]
        _differences(ax, labels[1:], series, scale=scale, unit=unit, base=_short(base.label))
        ax.set_title(f"Paired differences: {title}", fontsize=10, loc="left")


def figure_png(figure: Any, dpi: int = 100) -> bytes:
    """A figure as PNG bytes."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def save_figure(figure: Any, path: str, dpi: int = 100) -> None:
    """Write a figure to ``path`` (the format follows the file name: .png, .svg, .pdf).

    Raises:
        PlotError: the file cannot be written.
    """
    try:
        figure.savefig(path, dpi=dpi)
    except (OSError, ValueError) as exc:
        raise PlotError(f"cannot write the plot {path!r}: {exc}") from None
