"""A self-contained HTML report of simulation runs: one file holding the tables, the figure
(a PNG embedded as base64, when matplotlib is installed), the exact command, the rules
strings, the seed and the library and behaviour versions, so another person can rerun the
command and get the same numbers; the deal records are embedded as JSON for re-analysis."""

from __future__ import annotations

import base64
import html
import json
import math
import platform
import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING

from crapette import BEHAVIOUR_VERSION, __version__
from crapette.rules import Ruleset
from crapette.simulation.stats import MEDIANS, METRICS, Interval, Stats, paired_differences

if TYPE_CHECKING:
    from crapette.simulation import SimulationResult

__all__ = ["html_report"]

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}
code,pre{background:#f4f4f4;padding:.2em .4em}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
.conclusion{font-size:1.1em;border-left:4px solid #c33;padding-left:.8em}
.note{color:#555;font-size:.9em}
img{max-width:100%}
"""


def _cell(value: Interval, difference: bool = False) -> str:
    return html.escape(value.format(difference=difference))


_WIDTH = 78


def _wrapped(command: str) -> str:
    """The command on lines of at most about 78 characters, broken before an option with a
    shell line continuation, so that it still pastes into a shell."""
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    groups: list[list[str]] = []
    for word in words:
        if not groups or (word.startswith("-") and len(word) > 1):
            groups.append([word])
        else:
            groups[-1].append(word)
    lines = [""]
    for group in groups:
        text = shlex.join(group)
        if lines[-1] and len(lines[-1]) + 1 + len(text) > _WIDTH:
            lines[-1] += " \\"
            lines.append("    " + text)
        else:
            lines[-1] = f"{lines[-1]} {text}" if lines[-1] else text
    return "\n".join(lines)


# The figures a conclusion speaks of, with how to name them.
_SPOKEN = (
    ("share", "bot A's share of decided deals"),
    ("first_player", "the first player's share of decided deals"),
    ("stalemate", "the stalemate rate"),
    ("moves", "the moves per deal"),
    ("margin", "the margin A - B"),
    ("stop_calls", "the Stop! calls per deal"),
)


def _excludes(value: Interval, point: float) -> bool:
    return not (math.isnan(value.low) or math.isnan(value.high)) and (
        value.low > point or value.high < point
    )


def conclusion(results: Sequence[SimulationResult], stats: Sequence[Stats]) -> str:
    """One paragraph that says what the runs show: with one ruleset, whether bot A won more
    or fewer decided deals than bot B; with several, which figures differ from the baseline
    beyond their 95% intervals; and how many Stop! calls were made, so that a reader can
    tell whether the Stop! rule could matter."""
    first = results[0]
    sentences = []
    if len(results) == 1:
        share = stats[0]["share"]
        a, b = first.bots
        if math.isnan(share.value):
            sentences.append("No deal was decided, so no bot can be said to be stronger.")
        elif _excludes(share, 0.5):
            more = "more" if share.value > 0.5 else "fewer"
            sentences.append(
                f"Bot A ({a}) won {share.format()} of the decided deals: {more} than bot B"
                f" ({b}), since the 95% interval excludes 50%."
            )
        else:
            sentences.append(
                f"Bot A ({a}) won {share.format()} of the decided deals: the 95% interval"
                f" includes 50%, so these deals do not tell {a} and {b} apart."
            )
    for result in results[1:]:
        diffs = paired_differences(first.records, result.records)
        found = [
            f"{name} by {diffs[key].format(difference=True)}"
            for key, name in _SPOKEN
            if _excludes(diffs[key], 0.0)
        ]
        if found:
            sentences.append(
                f"Against {first.label}, {result.label} changes {_listed(found)}; the other"
                " figures do not differ beyond their 95% intervals."
            )
        else:
            sentences.append(
                f"Against {first.label}, {result.label} changes no figure beyond its 95%"
                f" interval in {result.games} deals: any effect is too small to be seen"
                " here (more deals narrow the intervals)."
            )
    sentences.extend(_stop_sentence(result) for result in results)
    return " ".join(s for s in sentences if s)


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _stop_sentence(result: SimulationResult) -> str:
    calls = sum(r.stop_calls for r in result.records)
    violations = sum(r.violations for r in result.records)
    if violations == 0:
        if not Ruleset.from_string(result.rules).callable_stop:
            return ""  # stop=enforced: the engine offers no violating move
        return (
            f"Under {result.label} no priority rule was broken, so no Stop! could be called"
            " and the Stop! rule changed nothing (fallible players such as"
            " greedy:miss=0.1 break them)."
        )
    return (
        f"Under {result.label}, {calls} Stop! calls were made on {violations} violations"
        f" in {len(result.records)} deals."
    )


def _rules_item(label: str, rules: str) -> str:
    item = f"<li><code>{html.escape(label)}</code>"
    if label != rules:
        item += f" (the rules string <code>{html.escape(rules)}</code>)"
    return item + "</li>"


def html_report(
    results: Sequence[SimulationResult],
    *,
    command: str,
    analyses: Sequence[Stats] | None = None,
    figure_png: bytes | None = None,
) -> str:
    """The report of some runs (the first ruleset is the baseline of the paired
    differences) as one HTML document.

    Args:
        results: the runs, same bots, games and seed.
        command: the exact command that made them (shown for rerunning).
        analyses: their [`analyse`][crapette.simulation.stats.analyse] results (computed
            when omitted).
        figure_png: a PNG to embed (see
            [`crapette.simulation.plots`][crapette.simulation.plots]), or ``None``.
    """
    stats = list(analyses) if analyses is not None else [r.stats() for r in results]
    return (
        "\n".join(
            [
                *_head(results, stats, command),
                *_figure(figure_png),
                *_per_ruleset(results, stats),
                *_differences(results),
                _records(results),
                "</body></html>",
            ]
        )
        + "\n"
    )


def _head(results: Sequence[SimulationResult], stats: Sequence[Stats], command: str) -> list[str]:
    """The title, the conclusion, how to rerun and the versions, the rules strings."""
    first = results[0]
    a, b = first.bots
    esc = html.escape
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>crapette: {esc(a)} vs {esc(b)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>A: {esc(a)} vs B: {esc(b)}</h1>",
        f'<p class="conclusion">{esc(conclusion(results, stats))}</p>',
        "<h2>How to rerun</h2>",
        f"<pre>{esc(_wrapped(command))}</pre>",
        "<table>",
        f"<tr><td>crapette version</td><td>{esc(__version__)}</td></tr>",
        f"<tr><td>behaviour version</td><td>{BEHAVIOUR_VERSION}</td></tr>",
        f"<tr><td>Python</td><td>{esc(platform.python_version())}</td></tr>",
        f"<tr><td>run seed</td><td>{first.seed}</td></tr>",
        f"<tr><td>deals per ruleset</td><td>{first.games}</td></tr>",
        f"<tr><td>bots</td><td>A: {esc(a)}, B: {esc(b)}</td></tr>",
        "</table>",
        "<p>Rules strings (the first is the baseline):</p><ol>",
        *(_rules_item(r.label, r.rules) for r in results),
        "</ol>",
        '<p class="note">Deal <i>i</i> uses the shuffle <code>deal_seed(seed, i // 2)</code>'
        " with the seats swapped in odd deals; every ruleset plays the same shuffles. The same"
        " command, seed and behaviour version give the same records and numbers.</p>",
    ]


def _figure(figure_png: bytes | None) -> list[str]:
    if figure_png is None:
        return [
            '<p class="note">No figure: matplotlib is not installed'
            " (pip install 'crapette[plot]').</p>"
        ]
    data = base64.b64encode(figure_png).decode("ascii")
    return [f'<h2>Figure</h2><img alt="comparison" src="data:image/png;base64,{data}">']


def _row(label: str, cells: Sequence[str]) -> str:
    return f"<tr><td>{html.escape(label)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _per_ruleset(results: Sequence[SimulationResult], stats: Sequence[Stats]) -> list[str]:
    """The table of every figure of every ruleset."""
    out = [
        "<h2>Figures per ruleset</h2>",
        '<p class="note">95% intervals: rates by a Wilson interval at the effective sample'
        " size of the seat-swapped pairs; means by a cluster-robust interval over shuffles;"
        " medians by a cluster bootstrap. Move-capped deals are counted apart and left out of"
        " lengths, margins and points.</p>",
        "<table><tr><th></th>" + "".join(f"<th>{html.escape(r.label)}</th>" for r in results),
        "</tr>",
        _row("deals (shuffles)", [f"{s.games} ({s.shuffles})" for s in stats]),
        _row("move-capped deals", [str(s.move_caps) for s in stats]),
    ]
    out.extend(_row(m.label, [_cell(s[m.key]) for s in stats]) for m in METRICS)
    out.extend(
        _row(label, [_cell(s.medians[key]) if key in s.medians else "-" for s in stats])
        for key, label in MEDIANS
    )
    calls = [
        f"{sum(d.stop_calls for d in r.records)} ({sum(d.violations for d in r.records)})"
        for r in results
    ]
    out.append(_row("Stop! calls made (violations)", calls))
    out.append("</table>")
    return out


def _differences(results: Sequence[SimulationResult]) -> list[str]:
    """The table of the paired differences against the first ruleset (none for one)."""
    if len(results) < 2:
        return []
    first = results[0]
    diffs = [paired_differences(first.records, r.records) for r in results[1:]]
    out = [
        f"<h2>Paired differences against <code>{html.escape(first.label)}</code></h2>",
        '<p class="note">Each ruleset minus the baseline, shuffle by shuffle, with a'
        " cluster-robust 95% interval (rates in percentage points, pts).</p>",
        "<table><tr><th></th>"
        + "".join(f"<th>{html.escape(r.label)}</th>" for r in results[1:])
        + "</tr>",
    ]
    out.extend(_row(m.label, [_cell(d[m.key], difference=True) for d in diffs]) for m in METRICS)
    out.append("</table>")
    return out


def _records(results: Sequence[SimulationResult]) -> str:
    """The deal records as JSON, for re-analysis."""
    records = {r.label: [d.to_dict() for d in r.records] for r in results}
    payload = json.dumps({"version": BEHAVIOUR_VERSION, "records": records}).replace("</", "<\\/")
    return '<script type="application/json" id="records">' + payload + "</script>"
