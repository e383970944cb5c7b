"""``simulate``/``compare`` outputs: paired differences, --precision, --plot, --report, and
every output path checked before any deal is played."""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

import pytest

import crapette as c
import crapette.cli.simulate as command
from crapette._version import BEHAVIOUR_VERSION, __version__
from crapette.cli import main
from crapette.simulation import compare, plots, simulate
from crapette.simulation.report import conclusion, html_report

FAST = "classic(move_cap=400)"
OTHER = "serbian(move_cap=400)"


def _no_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a deal was played")

    monkeypatch.setattr(command, "simulate", refuse)


@pytest.mark.parametrize("option", ["--json", "--csv", "--plot", "--report"])
def test_an_unwritable_output_fails_before_any_deal(
    option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if option == "--plot":
        pytest.importorskip("matplotlib")
    _no_deals(monkeypatch)
    for bad in (str(tmp_path / "missing" / "out.png"), str(tmp_path)):
        assert main(["compare", "--rules", FAST, "--games", "2", option, bad]) == 2
        err = capsys.readouterr().err
        assert f"cannot write {option}" in err and bad in err
    assert list(tmp_path.iterdir()) == []  # the check leaves no file behind


def test_a_plot_without_matplotlib_fails_before_any_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_deals(monkeypatch)
    monkeypatch.setattr(plots, "have_matplotlib", lambda: False)
    assert main(["compare", "--games", "2", "--plot", str(tmp_path / "a.png")]) == 1
    assert "need matplotlib: pip install 'crapette[plot]'" in capsys.readouterr().err
    with pytest.raises(plots.PlotError, match="matplotlib"):
        plots.comparison_figure([])


def test_a_plot_format_matplotlib_cannot_write_fails_before_any_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    _no_deals(monkeypatch)
    assert main(["compare", "--games", "2", "--plot", str(tmp_path / "a.xyz")]) == 1
    assert "cannot tell the plot format" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_bad_precision_arguments(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_deals(monkeypatch)
    assert main(["simulate", "--precision", "0", "--games", "2"]) == 1
    assert "--precision must be a positive number" in capsys.readouterr().err
    assert main(["simulate", "--precision", "0.1", "--games", "3"]) == 1
    assert "even --games" in capsys.readouterr().err
    assert main(["simulate", "--precision", "0.1", "--games", "2", "--max-games", "0"]) == 1
    assert "--max-games must be a positive integer" in capsys.readouterr().err


def test_compare_shows_paired_differences(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "--rules", FAST, "--rules", OTHER, "--bots", "greedy,greedy"]
    assert main([*argv, "--games", "6", "--seed", "3"]) == 0
    shown = capsys.readouterr().out
    assert "Paired differences against classic(move_cap=400)" in shown
    assert "median moves" in shown and "pts" in shown


def test_precision_runs_batches_until_narrow_enough(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    argv = ["simulate", "--rules", FAST, "--bots", "greedy,random", "--games", "4"]
    assert main([*argv, "--precision", "1e6", "--target", "moves", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["results"][0]["games"] == 4  # narrow enough after one batch
    assert main([*argv, "--precision", "1e-9", "--max-games", "12", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["results"][0]["games"] == 12
    assert [r["deal"] for r in data["results"][0]["records"]] == list(range(12))
    assert data["results"][0]["stats"]["figures"]["moves"]["n"] <= 12


def test_plot_and_a_self_contained_report(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png, page = tmp_path / "out.png", tmp_path / "out.html"
    argv = ["compare", "--rules", FAST, "--rules", OTHER, "--bots", "greedy,random"]
    argv += ["--games", "4", "--seed", "5", "--plot", str(png), "--report", str(page)]
    assert main(argv) == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    text = page.read_text()
    assert "crapette compare --rules" in text and "--seed 5" in text
    assert FAST in text and OTHER in text
    assert f"<td>{__version__}</td>" in text and f"<td>{BEHAVIOUR_VERSION}</td>" in text
    image = re.search(r'src="data:image/png;base64,([^"]+)"', text)
    assert image and base64.b64decode(image.group(1)).startswith(b"\x89PNG")
    assert not re.search(r'(src|href)="(https?:|//|/)', text)  # nothing fetched from outside
    records = re.search(r'<script type="application/json" id="records">(.*?)</script>', text)
    assert records and len(json.loads(records.group(1))["records"][OTHER]) == 4


def _lines_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()


def test_piped_compare_keeps_every_name_and_interval_on_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Piped output is not a terminal, so the tables are not wrapped at
    80 columns (every preset by default: a table wider than 80)."""
    lines = _lines_of(["compare", "--bots", "greedy,greedy", "--games", "2"], capsys)
    header = next(line for line in lines if "classic" in line)
    assert all(name in header for name in c.PRESETS), header
    assert len(header) > 80
    for line in lines:
        assert line.count("[") == line.count("]"), line  # no interval split over lines
    assert any("serbian - classic" in line for line in lines)  # the paired differences


def test_piped_simulate_keeps_long_bot_names_on_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bots = "greedy:miss=0.1:call=0.8,greedy:miss=0.2:call=0.5"
    argv = ["simulate", "--rules", FAST, "--bots", bots, "--games", "2"]
    lines = _lines_of(argv, capsys)
    assert any("A: greedy:miss=0.1:call=0.8" in line for line in lines), lines[:6]
    assert any("B: greedy:miss=0.2:call=0.5" in line for line in lines), lines[:6]


def test_compare_help_names_one_default_for_the_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default: every preset" in text and "default: classic" not in text


def test_the_plot_shows_the_paired_difference_of_every_figure() -> None:
    pytest.importorskip("matplotlib")
    from crapette.simulation import compare, stats

    results = compare([FAST, OTHER], "greedy,random", 8, 5)
    fig = plots.comparison_figure(results)
    drawn: dict[str, tuple[float, float]] = {}
    for ax in fig.axes[1::2]:  # the right column: paired differences
        for container in ax.containers:
            line, (bars,) = container.lines[0], container.lines[2]
            top = bars.get_segments()[0][1][1]
            drawn[container.get_label()] = (float(line.get_ydata()[0]), float(top))
    diff = stats.paired_differences(results[0].records, results[1].records)
    labels = {
        "A's share of decided deals": ("share", 100.0),
        "first player's share": ("first_player", 100.0),
        "stalemates": ("stalemate", 100.0),
        "move caps": ("move_cap", 100.0),
        "moves per deal": ("moves", 1.0),
        "turns per deal": ("turns", 1.0),
        "Stop! calls per deal": ("stop_calls", 1.0),
        "margin A - B": ("margin", 1.0),
        "A's points per deal": ("points_a", 1.0),
        "B's points per deal": ("points_b", 1.0),
    }
    assert set(drawn) == set(labels)
    assert {key for key, _ in labels.values()} == {
        m.key for m in stats.METRICS if m.key not in ("win_a", "win_b")
    }
    for label, (key, scale) in labels.items():
        value, top = drawn[label]
        assert value == pytest.approx(scale * diff[key].value), label
        if diff[key].half_width > 0:
            assert top == pytest.approx(scale * diff[key].high), label


# --------------------------------------------------------------------------------------
# A ruleset named by the string the user gave; differences in points


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
