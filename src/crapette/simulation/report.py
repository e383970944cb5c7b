"""A self-contained HTML report of simulation runs: one file holding the tables, the figure
(a PNG embedded as base64, when matplotlib is installed), the exact command, the rules
strings, the seed and the library and behaviour versions, so another person can rerun the
command and get the same numbers; the deal records are embedded as JSON for re-analysis."""

from __future__ import annotations

import base64
import html
import json
import platform
from collections.abc import Sequence
from typing import TYPE_CHECKING

from crapette._version import BEHAVIOUR_VERSION, __version__
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
.note{color:#555;font-size:.9em}
img{max-width:100%}
"""


def _cell(value: Interval) -> str:
    return html.escape(value.format())


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
    first = results[0]
    a, b = first.bots
    esc = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>crapette: {esc(a)} vs {esc(b)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>A: {esc(a)} vs B: {esc(b)}</h1>",
        "<h2>How to rerun</h2>",
        f"<pre>{esc(command)}</pre>",
        "<table>",
        f"<tr><td>crapette version</td><td>{esc(__version__)}</td></tr>",
        f"<tr><td>behaviour version</td><td>{BEHAVIOUR_VERSION}</td></tr>",
        f"<tr><td>Python</td><td>{esc(platform.python_version())}</td></tr>",
        f"<tr><td>run seed</td><td>{first.seed}</td></tr>",
        f"<tr><td>deals per ruleset</td><td>{first.games}</td></tr>",
        f"<tr><td>bots</td><td>A: {esc(a)}, B: {esc(b)}</td></tr>",
        "</table>",
        "<p>Rules strings (the first is the baseline):</p><ol>",
        *(f"<li><code>{esc(r.rules)}</code></li>" for r in results),
        "</ol>",
        '<p class="note">Deal <i>i</i> uses the shuffle <code>deal_seed(seed, i // 2)</code>'
        " with the seats swapped in odd deals; every ruleset plays the same shuffles. The same"
        " command, seed and behaviour version give the same records and numbers.</p>",
    ]
    if figure_png is not None:
        data = base64.b64encode(figure_png).decode("ascii")
        out.append(f'<h2>Figure</h2><img alt="comparison" src="data:image/png;base64,{data}">')
    else:
        out.append(
            '<p class="note">No figure: matplotlib is not installed'
            " (pip install 'crapette[plot]').</p>"
        )
    out.append("<h2>Figures per ruleset</h2>")
    out.append(
        '<p class="note">95% intervals: rates by a Wilson interval at the effective sample'
        " size of the seat-swapped pairs; means by a cluster-robust interval over shuffles;"
        " medians by a cluster bootstrap. Move-capped deals are counted apart and left out of"
        " lengths, margins and points.</p>"
    )
    out.append("<table><tr><th></th>")
    out.extend(f"<th>{esc(r.rules)}</th>" for r in results)
    out.append("</tr>")
    out.append("<tr><td>deals (shuffles)</td>")
    out.extend(f"<td>{s.games} ({s.shuffles})</td>" for s in stats)
    out.append("</tr><tr><td>move-capped deals</td>")
    out.extend(f"<td>{s.move_caps}</td>" for s in stats)
    out.append("</tr>")
    for m in METRICS:
        out.append(f"<tr><td>{esc(m.label)}</td>")
        out.extend(f"<td>{_cell(s[m.key])}</td>" for s in stats)
        out.append("</tr>")
    for key, label in MEDIANS:
        out.append(f"<tr><td>{esc(label)}</td>")
        out.extend(
            f"<td>{_cell(s.medians[key])}</td>" if key in s.medians else "<td>-</td>" for s in stats
        )
        out.append("</tr>")
    out.append("</table>")
    if len(results) > 1:
        out.append(f"<h2>Paired differences against <code>{esc(first.rules)}</code></h2>")
        out.append(
            '<p class="note">Each ruleset minus the baseline, shuffle by shuffle, with a'
            " cluster-robust 95% interval (rates in percentage points).</p>"
        )
        diffs = [paired_differences(first.records, r.records) for r in results[1:]]
        out.append("<table><tr><th></th>")
        out.extend(f"<th>{esc(r.rules)}</th>" for r in results[1:])
        out.append("</tr>")
        for m in METRICS:
            out.append(f"<tr><td>{esc(m.label)}</td>")
            out.extend(f"<td>{_cell(d[m.key])}</td>" for d in diffs)
            out.append("</tr>")
        out.append("</table>")
    records = {r.rules: [d.to_dict() for d in r.records] for r in results}
    payload = json.dumps({"version": BEHAVIOUR_VERSION, "records": records}).replace("</", "<\\/")
    out.append('<script type="application/json" id="records">' + payload + "</script>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
