"""The experiment findings of issue 23: a ruleset is named by the string the user gave in
every table, figure, report and JSON document; differences are in points; the report wraps
its command, concludes in a sentence and counts the Stop! calls; ``n`` agrees with
``games``; the help prints "95%"."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from crapette.cli import main
from crapette.simulation import compare, simulate
from crapette.simulation.report import conclusion, html_report

DOCS = Path(__file__).resolve().parent.parent / "docs"
GIVEN = "pagat(stop=card,move_cap=400)"  # the same rules as classic(stop=card,move_cap=400)
BASE = "classic(move_cap=400)"
BOTS = "greedy:miss=0.3,greedy"


@pytest.fixture(scope="module")
def runs() -> list:  # type: ignore[type-arg]
    return compare([BASE, GIVEN], BOTS, 12, 3)


def test_results_are_labelled_by_the_string_given(runs: list) -> None:  # type: ignore[type-arg]
    base, given = runs
    assert given.rules.startswith("classic(") and given.label == GIVEN
    assert base.label == BASE == base.rules
    assert simulate(" pagat ", BOTS, 2, 1).label == "pagat"  # stripped
    from crapette import parse_rules

    assert simulate(parse_rules(GIVEN), BOTS, 2, 1).label == given.rules  # a Ruleset: canonical
    assert given.to_dict()["label"] == GIVEN and given.to_dict()["rules"] == given.rules


def test_the_report_names_the_given_string_and_speaks_in_points(runs: list) -> None:  # type: ignore[type-arg]
    page = html.unescape(html_report(runs, command="crapette compare " + "--x y " * 30))
    assert f"<th>{GIVEN}</th>" in page and f"<code>{GIVEN}</code>" in page
    assert "<th>classic(stop=card" not in page  # the canonical string only as a note
    assert f"(the rules string <code>{runs[1].rules}</code>)" in page
    diffs = page.split("Paired differences against", 1)[1]
    cells = re.findall(r"<td>([^<]*)</td>", diffs)
    rates = [cell for cell in cells if "pts" in cell]
    assert rates and not [cell for cell in cells if "%" in cell]  # points, as the terminal
    command = re.search(r"<pre>(.*?)</pre>", page, re.S)
    assert command is not None
    lines = command.group(1).splitlines()
    assert len(lines) > 2 and all(len(line) <= 80 for line in lines)
    assert all(line.endswith(" \\") for line in lines[:-1])  # still pastes into a shell
    assert "pre{white-space:pre-wrap" in page
    assert '<p class="conclusion">' in page
    calls = sum(r.stop_calls for r in runs[1].records)
    assert calls > 0 and f"{calls} Stop! calls were made" in page
    assert "Stop! calls made (violations)" in page


def test_the_conclusion_says_what_differs(runs: list) -> None:  # type: ignore[type-arg]
    text = conclusion(runs, [r.stats() for r in runs])
    assert text.startswith(f"Against {BASE}, {GIVEN} changes ")
    assert "Stop! calls per deal by +" in text  # the fallible bot's violations get called
    assert f"Under {BASE}" not in text  # stop=enforced: no Stop! sentence
    one = conclusion(runs[:1], [runs[0].stats()])
    assert one.startswith("Bot A (greedy:miss=0.3) won ")
    quiet = compare(["pagat(move_cap=400)"], "greedy,greedy", 4, 1)
    assert "no priority rule was broken" in conclusion(quiet, [quiet[0].stats()])


def test_the_json_and_tables_of_compare(
    runs: list,  # type: ignore[type-arg]
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out.json"
    argv = ["compare", "--rules", BASE, "--rules", GIVEN, "--bots", BOTS, "--games", "12"]
    assert main([*argv, "--seed", "3", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [r["label"] for r in data["results"]] == [BASE, GIVEN]
    assert list(data["differences"]) == [GIVEN]
    for figure in data["differences"][GIVEN].values():
        assert figure["n"] <= data["results"][0]["games"] == 12  # was 24: both sides added
    assert data["differences"][GIVEN]["win_a"]["n"] == 12
    assert data["results"][1]["records"][0]["stop_calls"] >= 0
    assert main([*argv, "--seed", "3"]) == 0
    shown = capsys.readouterr().out
    assert GIVEN in shown and "classic(stop=card" not in shown
    assert " pts" in shown and "Stop! calls made" in shown


def test_the_figure_names_the_given_string(runs: list) -> None:  # type: ignore[type-arg]
    pytest.importorskip("matplotlib")
    from crapette.simulation import plots

    fig = plots.comparison_figure(runs)
    labels = [t.get_text() for ax in fig.axes for t in ax.get_xticklabels()]
    assert any(label.startswith("pagat(stop=card") for label in labels)
    assert not any(label.startswith("classic(stop=card") for label in labels)


def test_ninety_five_percent_prints_once() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "crapette", "ladder", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "95% bootstrap" in " ".join(done.stdout.split()) and "%%" not in done.stdout
    assert "%%" not in (DOCS / "cli.md").read_text(encoding="utf-8")
