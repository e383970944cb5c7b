"""Make docs/studies.md and its figures: rule-variant questions answered by simulation.

Run from the repository root (needs ``pip install -e '.[plot]'``)::

    python docs/studies/make_studies.py    # the full run (about 10 minutes of one free core)
    python docs/studies/make_studies.py --games 8 --out /tmp/studies    # a smoke run

Every study is a [`compare`][crapette.simulation.compare] run, the library call behind the
``crapette compare`` command printed under each figure; every figure with an interval shows
95% intervals from [`crapette.simulation.stats`][crapette.simulation.stats] (seat-swapped pairs and
shared shuffles analysed as pairs). The page is rewritten from scratch each time: edit this script,
not the page.
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from crapette._version import BEHAVIOUR_VERSION, __version__
from crapette.simulation import SimulationResult, compare, stats

SEED = 2026
FALLIBLE = "greedy:miss=0.2:call=0.5"
"""A fallible greedy player: misses each kind of compulsory move one time in five and
calls one violation in two."""

PRESETS = ("classic", "pagat", "g4a", "belarusian", "serbian")


def command(rules: Sequence[str], bots: str, games: int) -> str:
    """The ``crapette compare`` command equivalent to one study run."""
    argv = ["crapette", "compare"]
    for r in rules:
        argv += ["--rules", r]
    argv += ["--bots", bots, "--games", str(games), "--seed", str(SEED)]
    return shlex.join(argv)


def run(rules: Sequence[str], bots: str, games: int, workers: int) -> list[SimulationResult]:
    """One study: the same bots on the same shuffles under each ruleset."""
    started = time.monotonic()
    results = compare(list(rules), bots, games, SEED, workers=workers)
    print(f"  {bots} under {len(rules)} rulesets: {time.monotonic() - started:.1f} s", flush=True)
    return results


def pct(x: stats.Interval, sign: bool = False) -> str:
    """A rate as ``52.3% [48.1, 56.5]`` (points for a difference)."""
    if math.isnan(x.value):
        return "-"
    head = f"{100 * x.value:+.1f} pts" if sign else f"{100 * x.value:.1f}%"
    if math.isnan(x.low):
        return head
    return f"{head} [{100 * x.low:.1f}, {100 * x.high:.1f}]"


def num(x: stats.Interval, sign: bool = False) -> str:
    """A mean as ``321.4 [310.2, 332.6]``."""
    if math.isnan(x.value):
        return "-"
    head = f"{x.value:+.1f}" if sign else f"{x.value:.1f}"
    return head if math.isnan(x.low) else f"{head} [{x.low:.1f}, {x.high:.1f}]"


def errorbars(
    ax: Any,
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[Any]]],
    scale: float = 100.0,
) -> None:
    """Points with 95% interval bars: one group per label, one offset per series."""
    width = 0.8 / max(len(series), 1)
    for k, (name, values) in enumerate(series):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(labels))]
        ys = [scale * v.value for v in values]
        lo = [max(0.0, scale * (v.value - v.low)) if not math.isnan(v.low) else 0 for v in values]
        hi = [max(0.0, scale * (v.high - v.value)) if not math.isnan(v.high) else 0 for v in values]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=4, label=name)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=8, rotation=15, ha="right")


def save(fig: Any, out: Path, name: str, cmds: Sequence[str]) -> str:
    """Write a figure whose footer names the commands that made it; its markdown."""
    lines = [row for c in cmds for row in textwrap.wrap(c, 120, subsequent_indent="    ")]
    height = fig.get_size_inches()[1]
    footer = (len(lines) * 6.5 * 1.25 / 72 + 0.1) / height
    fig.get_layout_engine().set(rect=(0, footer, 1, 1 - footer))
    fig.text(0.01, 0.005, "\n".join(lines), fontsize=6.5, family="monospace", va="bottom")
    fig.savefig(out / "studies" / name, dpi=90)
    return f"![{name}](studies/{name})\n\n" + "".join(f"`{c}`\n\n" for c in cmds)


def verdict(x: stats.Interval, null: float) -> str:
    """``"above"``, ``"below"`` or ``"within"``: where ``null`` lies against the interval."""
    if math.isnan(x.low):
        return "within"
    return "above" if x.low > null else "below" if x.high < null else "within"


def names(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` with each item in backticks."""
    quoted = [f"`{x}`" for x in items]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def stall_answer(greedy: Sequence[stats.Stats], fallible: Sequence[stats.Stats]) -> str:
    """One paragraph: which presets stall, and how often."""
    worst = max(range(len(PRESETS)), key=lambda i: greedy[i]["stalemate"].value)
    others = [i for i in range(len(PRESETS)) if i != worst]
    top = max(
        max(s["stalemate"].high, s["move_cap"].high)
        for i in others
        for s in (greedy[i], fallible[i])
    )
    return (
        f"**Answer.** `{PRESETS[worst]}` stalls in {pct(greedy[worst]['stalemate'])} of the"
        f" deals of greedy players ({pct(fallible[worst]['stalemate'])} with fallible"
        " players); every other preset almost never stalls (each rate's upper bound is at"
        f" most {100 * top:.1f}%).\n"
    )


def first_player_and_stalls(games: int, workers: int, out: Path) -> tuple[str, str]:
    """Studies 1 and 4 (the same runs): the first player's advantage and the stall rates of
    the presets; the two sections of the page."""
    pairs = {"greedy,greedy": "greedy", f"{FALLIBLE},{FALLIBLE}": "fallible"}
    runs = {bots: run(PRESETS, bots, games, workers) for bots in pairs}
    analysed = {b: [r.stats(medians=False) for r in rs] for b, rs in runs.items()}
    cmds = [command(PRESETS, b, games) for b in pairs]

    fig = Figure(figsize=(9, 4.8), layout="constrained")
    ax = fig.subplots()
    errorbars(
        ax,
        PRESETS,
        [(f"{pairs[b]} players", [s["first_player"] for s in analysed[b]]) for b in pairs],
    )
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_ylabel("first player's share of decided deals, % (95% interval)")
    ax.set_title("Study 1: the first player's advantage under each preset", fontsize=10)
    ax.legend(fontsize=8)
    fig1 = save(fig, out, "first_player.png", cmds)

    fig = Figure(figsize=(9, 4.8), layout="constrained")
    ax = fig.subplots()
    series = []
    for b in pairs:
        series.append((f"stalemates, {pairs[b]}", [s["stalemate"] for s in analysed[b]]))
        series.append((f"move caps, {pairs[b]}", [s["move_cap"] for s in analysed[b]]))
    errorbars(ax, PRESETS, series)
    ax.set_ylabel("% of deals (95% interval)")
    ax.set_title("Study 4: how often each preset stalls", fontsize=10)
    ax.legend(fontsize=8)
    fig4 = save(fig, out, "stalls.png", cmds)

    rows1, rows4 = [], []
    for i, preset in enumerate(PRESETS):
        g, f = analysed["greedy,greedy"][i], analysed[f"{FALLIBLE},{FALLIBLE}"][i]
        rows1.append([f"`{preset}`", pct(g["first_player"]), pct(f["first_player"])])
        rows4.append(
            [
                f"`{preset}`",
                pct(g["stalemate"]),
                pct(g["move_cap"]),
                pct(f["stalemate"]),
                pct(f["move_cap"]),
            ]
        )
    answers = []
    for bots, who in pairs.items():
        groups: dict[str, list[str]] = {"above": [], "within": [], "below": []}
        for preset, s in zip(PRESETS, analysed[bots], strict=True):
            groups[verdict(s["first_player"], 0.5)].append(preset)
        parts = []
        if groups["above"]:
            parts.append(f"the first player has a real advantage under {names(groups['above'])}")
        if groups["within"]:
            parts.append(f"none is detectable under {names(groups['within'])}")
        if groups["below"]:
            parts.append(f"the second player has the edge under {names(groups['below'])}")
        answers.append(f"With {who} players, " + "; ".join(parts) + ".")
    first = [
        "## 1. The first player's advantage under each preset\n",
        "The share of decided deals won by the player who moved first, for two greedy players"
        f" and for two fallible greedy players (`{FALLIBLE}`), {games} deals per preset"
        " (seat-swapped pairs on the same shuffles for every preset).\n",
        table(["preset", "greedy players", "fallible players"], rows1),
        "\n**Answer.** " + " ".join(answers) + " (A share whose interval lies above 50% is a"
        " real first-player advantage.) Under `stop=enforced` presets (`classic`, `g4a`,"
        " `belarusian`) a fallible player cannot break a priority, so it plays as the greedy"
        " player and the two columns agree.\n",
        fig1,
    ]
    stalls = [
        "## 4. How often each preset stalls\n",
        "A stalemate is a deal that ends with no winner (both players stuck); a move cap is"
        " a deal stopped after the rules' `move_cap` moves. Both are counted apart, and"
        " neither is averaged into lengths or margins.\n",
        stall_answer(analysed["greedy,greedy"], analysed[f"{FALLIBLE},{FALLIBLE}"]),
        table(
            [
                "preset",
                "stalemates (greedy)",
                "move caps (greedy)",
                "stalemates (fallible)",
                "move caps (fallible)",
            ],
            rows4,
        ),
        "\n" + fig4,
    ]
    return "\n".join(first), "\n".join(stalls)


STOP_RULES = ("classic", "pagat", "classic(stop=card)")
"""Stop! enforced (no violation possible), callable with the move taken back (`undo`, as
`pagat`), callable with a penalty card (`card`, as `serbian`); everything else classic."""


def stop_rule(games: int, workers: int, out: Path) -> str:
    """Study 2: what the Stop! rule and its penalties change with fallible players."""
    grid = [(m, c) for m in (0.1, 0.3) for c in (0.5, 1.0)]
    labels = [f"A misses {m:.0%}\nB calls {c:.0%}" for m, c in grid]
    bots = [f"greedy:miss={m},greedy:call={c}" for m, c in grid]
    runs = [run(STOP_RULES, b, games, workers) for b in bots]
    analysed = [[r.stats(medians=False) for r in rs] for rs in runs]
    cmds = [command(STOP_RULES, b, games) for b in bots]

    fig = Figure(figsize=(10, 8.5), layout="constrained")
    ax1, ax2 = fig.subplots(2, 1)
    errorbars(
        ax1,
        [x.replace("\n", ", ") for x in labels],
        [(rules, [a[i]["share"] for a in analysed]) for i, rules in enumerate(STOP_RULES)],
    )
    ax1.axhline(50, color="grey", lw=0.8, ls="--")
    ax1.set_ylabel("A's share of decided deals, %")
    ax1.set_title(
        "Study 2: a player who misses compulsory moves (A) against a greedy"
        " player who calls Stop! (B)",
        fontsize=10,
    )
    ax1.legend(fontsize=8)
    errorbars(
        ax2,
        [x.replace("\n", ", ") for x in labels],
        [(rules, [a[i]["moves"] for a in analysed]) for i, rules in enumerate(STOP_RULES)],
        scale=1.0,
    )
    ax2.set_ylabel("moves per deal (mean, move caps left out)")
    ax2.legend(fontsize=8)
    fig2 = save(fig, out, "stop_rule.png", cmds)

    rows = []
    card_vs_undo = []
    for (m, c), rs, a in zip(grid, runs, analysed, strict=True):
        diffs = [stats.paired_differences(rs[0].records, r.records) for r in rs[1:]]
        card_vs_undo.append(stats.paired_differences(rs[1].records, rs[2].records)["share"])
        rows.append(
            [
                f"{m:.0%}",
                f"{c:.0%}",
                pct(a[0]["share"]),
                pct(a[1]["share"]),
                pct(diffs[0]["share"], True),
                pct(a[2]["share"]),
                pct(diffs[1]["share"], True),
                pct(card_vs_undo[-1], True),
            ]
        )
    harsher = sum(verdict(d, 0.0) == "below" for d in card_vs_undo)
    longer = [
        d["moves"].value
        for rs in runs
        for d in (stats.paired_differences(rs[0].records, r.records) for r in rs[1:])
    ]
    grows = all(
        a.value > b.value
        for a, b in zip(
            [stats.paired_differences(rs[0].records, rs[1].records)["share"] for rs in runs],
            [stats.paired_differences(rs[0].records, rs[1].records)["share"] for rs in runs][1:],
            strict=False,
        )
    )
    costs = [stats.paired_differences(rs[0].records, rs[1].records)["share"] for rs in runs]
    cost = costs[1]  # A misses 10%, B calls every violation: undo minus classic
    loss = f"{-100 * cost.value:.1f} points [{-100 * cost.high:.1f}, {-100 * cost.low:.1f}]"
    if verdict(cost, 0.0) == "below":
        head = (
            "The Stop! rule turns mistakes into lost deals: a player who misses 10% of its"
            " compulsory moves against an opponent who calls every violation loses"
            f" {loss} of its share of decided deals under `undo` (against `classic`, where the"
            " same player cannot err)"
        )
    else:
        head = (
            "At this many deals, a player who misses 10% of its compulsory moves against an"
            " opponent who calls every violation loses no detectable share of decided deals"
            f" under `undo` against `classic` ({loss})"
        )
    answer = (
        "**Answer.** "
        + head
        + (", and the cost grows with the miss rate and the call rate." if grows else ".")
        + " The `card` penalty costs the"
        f" offender more than `undo` in {harsher} of the {len(grid)} cells (the paired"
        " `card - undo` interval lies below 0). Against `classic`, the mean deal length"
        f" changes by {min(longer):+.0f} to {max(longer):+.0f} moves under callable Stop! rules"
        " (the paired intervals are in the second table).\n"
    )
    length_rows = []
    for (m, c), rs, a in zip(grid, runs, analysed, strict=True):
        diffs = [stats.paired_differences(rs[0].records, r.records) for r in rs[1:]]
        length_rows.append(
            [
                f"{m:.0%}",
                f"{c:.0%}",
                num(a[0]["moves"]),
                num(diffs[0]["moves"], True),
                num(diffs[1]["moves"], True),
            ]
        )
    text = [
        "## 2. What the Stop! rule and its penalties change\n",
        "The shipped bots never break a priority, so the Stop! rules only matter with players"
        " who make mistakes. Bot A is a greedy player who misses each kind of compulsory move"
        " with the given chance (`greedy:miss=M`, and who always calls); bot B is a greedy"
        ' player who never misses and calls "Stop!" on the given share of A\'s violations'
        f" (`greedy:call=C`). {games} deals per cell. Under `classic` (`stop=enforced`) a"
        " violation is impossible, so A plays as a plain greedy player; under `pagat`"
        " (`stop=undo`) a called violation is taken back, the missed compulsory move is made"
        " for the offender and the turn passes to the caller; under `classic(stop=card)` the"
        " move stands, the caller gives the offender a card from the bottom of their hand and"
        " the turn passes to the caller.\n",
        "A's share of decided deals, and the paired difference against `classic` (same"
        " shuffles):\n",
        table(
            [
                "A misses",
                "B calls",
                "classic",
                "pagat (undo)",
                "undo - classic",
                "stop=card",
                "card - classic",
                "card - undo",
            ],
            rows,
        ),
        "\nDeal length in moves (mean, move-capped deals left out) and its paired difference"
        " against `classic`:\n",
        table(["A misses", "B calls", "classic", "undo - classic", "card - classic"], length_rows),
        "\n" + answer,
        fig2,
    ]
    return "\n".join(text)


def house_filling(games: int, workers: int, out: Path) -> str:
    """Study 3: does filling houses at once change the length of a deal?"""
    studies = [
        (
            "greedy,greedy",
            ("classic", "classic(house_filling=immediate)", "classic(house_filling=none)"),
        ),
        (
            f"{FALLIBLE},{FALLIBLE}",
            ("pagat", "pagat(house_filling=immediate)", "pagat(house_filling=none)"),
        ),
    ]
    runs = [run(rules, b, games, workers) for b, rules in studies]
    cmds = [command(rules, b, games) for b, rules in studies]
    fig = Figure(figsize=(10, 5), layout="constrained")
    axes = fig.subplots(1, 2)
    rows = []
    sentences = []
    for ax, (bots, rules), rs in zip(axes, studies, runs, strict=True):
        ended = [[r.moves for r in res.records if r.reason != "move_cap"] or [0] for res in rs]
        ax.boxplot(ended, showmeans=True)
        ax.set_xticks(range(1, len(rules) + 1))
        ax.set_xticklabels(
            [r.split("(")[-1].rstrip(")") if "(" in r else f"{r} (before_hand)" for r in rules],
            fontsize=8,
        )
        who = "greedy players" if bots == "greedy,greedy" else "fallible players"
        ax.set_title(f"{who}: moves per deal", fontsize=10)
        immediate = stats.paired_differences(rs[0].records, rs[1].records)["moves"]
        none = stats.paired_differences(rs[0].records, rs[2].records)["moves"]
        found = {
            "within": "no change this many deals can detect",
            "above": "longer deals",
            "below": "shorter deals",
        }[verdict(immediate, 0.0)]
        sentence = (
            f"With {who} (`{rules[0]}`), filling at once changes the mean deal length by"
            f" {num(immediate, True)} moves: {found}."
        )
        if none.value == 0 and none.half_width == 0:
            sentence += (
                " Without the obligation (`none`) the deals are the very same: the greedy"
                " ranking fills an empty house from the reserve before it turns a hand card"
                " anyway, so the default obligation never binds it."
            )
        sentences.append(sentence)
        for res in rs:
            s = res.stats()
            d = stats.paired_differences(rs[0].records, res.records)
            rows.append(
                [
                    who,
                    f"`{res.label}`",
                    num(s["moves"]),
                    num(s.medians["moves"]),
                    num(s["turns"]),
                    num(d["moves"], True) if res is not rs[0] else "",
                    str(s.move_caps),
                ]
            )
    fig.suptitle("Study 3: house filling and deal length", fontsize=10)
    fig3 = save(fig, out, "house_filling.png", cmds)
    answer = "**Answer.** " + " ".join(sentences) + "\n"
    text = [
        "## 3. Does immediate house filling change deal length?\n",
        "`house_filling=before_hand` (the default) obliges a player to fill empty houses from"
        " the reserve before turning a hand card; `immediate` as soon as a house empties;"
        " `none` never. Fallible players run under `pagat` (callable Stop!), where a missed"
        f" filling can happen; greedy players under `classic`. {games} deals per ruleset.\n",
        table(
            [
                "players",
                "rules",
                "moves (mean)",
                "moves (median)",
                "turns (mean)",
                "moves: paired difference",
                "move caps",
            ],
            rows,
        ),
        "\n" + answer,
        fig3,
    ]
    return "\n".join(text)


PACK_RULES = (
    "classic",
    "classic(pack=tarot56)",
    "tarot",
    "tarot(pack=tarot78)",
    "bobcrapette(pack=standard)",
    "bobcrapette",
)
"""Study 5's rulesets: the standard pack and each tarot pack under classic's table rules, then
Bobcrapette's table rules with the standard pack and with its own tarot77 pack."""


def tarot_pack(games: int, workers: int, out: Path) -> str:
    """Study 5: does the tarot pack lengthen deals or change the first player's advantage?"""
    bots = "greedy,greedy"
    rs = run(PACK_RULES, bots, games, workers)
    cmd = command(PACK_RULES, bots, games)
    analysed = [r.stats() for r in rs]
    diffs = [stats.paired_differences(rs[0].records, r.records) for r in rs]
    bob_pack = stats.paired_differences(rs[4].records, rs[5].records)

    fig = Figure(figsize=(10, 4.8), layout="constrained")
    left, right = fig.subplots(1, 2)
    labels = [r.split("(")[-1].rstrip(")") if "(" in r else r for r in PACK_RULES]
    labels = [
        f"{r.split('(')[0]}: {lab}" if "(" in r else lab
        for r, lab in zip(PACK_RULES, labels, strict=True)
    ]
    ended = [[r.moves for r in res.records if r.reason != "move_cap"] or [0] for res in rs]
    left.boxplot(ended, showmeans=True)
    left.set_xticks(range(1, len(labels) + 1))
    left.set_xticklabels(labels, fontsize=7, rotation=20, ha="right")
    left.set_title("moves per deal (greedy players)", fontsize=10)
    errorbars(right, labels, [("greedy players", [s["first_player"] for s in analysed])])
    right.axhline(50, color="grey", lw=0.8, ls="--")
    right.set_ylabel("first player's share of decided deals, % (95% interval)", fontsize=8)
    right.set_title("the first player's advantage", fontsize=10)
    fig.suptitle("Study 5: the tarot packs and Bobcrapette's table rules", fontsize=10)
    fig5 = save(fig, out, "tarot_pack.png", [cmd])

    rows = []
    for res, s, d in zip(rs, analysed, diffs, strict=True):
        first = res is rs[0]
        rows.append(
            [
                f"`{res.label}`",
                num(s["moves"]),
                num(d["moves"], True) if not first else "",
                num(s["turns"]),
                pct(s["first_player"]),
                pct(d["first_player"], True) if not first else "",
                pct(s["stalemate"]),
            ]
        )
    words = {
        "above": "longer",
        "within": "no longer nor shorter by a difference this many deals can detect",
        "below": "shorter",
    }
    edge: dict[str, list[str]] = {"above": [], "within": [], "below": []}
    for rules, s in zip(PACK_RULES, analysed, strict=True):
        edge[verdict(s["first_player"], 0.5)].append(rules)
    moved = [
        PACK_RULES[i]
        for i in range(1, len(rs))
        if verdict(diffs[i]["first_player"], 0.0) != "within"
    ]
    answer = [
        "**Answer.** Against `classic` (same shuffles, seat for seat), classic's table rules"
        f" with the 56-card pack play {num(diffs[1]['moves'], True)} moves"
        f" ({words[verdict(diffs[1]['moves'], 0.0)]}), with the 77-card pack (`tarot`)"
        f" {num(diffs[2]['moves'], True)} ({words[verdict(diffs[2]['moves'], 0.0)]}) and with"
        f" the 78-card pack {num(diffs[3]['moves'], True)}"
        f" ({words[verdict(diffs[3]['moves'], 0.0)]}).",
        "Bobcrapette's table rules with the standard pack change the length by"
        f" {num(diffs[4]['moves'], True)} moves ({words[verdict(diffs[4]['moves'], 0.0)]}),"
        " and its 77-card pack under the same table rules by"
        f" {num(bob_pack['moves'], True)} more ({words[verdict(bob_pack['moves'], 0.0)]}).",
    ]
    if edge["above"]:
        answer.append(f"The first player has a real advantage under {names(edge['above'])}.")
    if edge["within"]:
        answer.append(f"No first-player advantage is detectable under {names(edge['within'])}.")
    if edge["below"]:
        answer.append(f"The second player has the edge under {names(edge['below'])}.")
    if moved:
        answer.append(
            "Against `classic`, the first player's share changes beyond doubt under"
            f" {names(moved)}."
        )
    else:
        answer.append(
            "No pack or table rule changes the first player's share against `classic` by a"
            " difference this many deals can detect (every paired interval includes 0)."
        )
    answer.append(
        "Under `blocked=draw` (`bobcrapette`) a stalled deal is a draw, left out of the"
        " decided deals; the last column shows how often deals stall."
    )
    text = [
        "## 5. Does the tarot pack lengthen deals or change the first player's advantage?\n",
        "The same greedy players on the same shuffles under the standard pack and each tarot"
        " pack (`tarot56`, `tarot77` as the `tarot` preset, `tarot78` with the Excuse as"
        " trump 0), all with classic's table rules, then under Bobcrapette's table rules with"
        f" the standard pack and with its own 77-card pack. {games} deals per ruleset"
        " (seat-swapped pairs); paired differences against `classic`.\n",
        table(
            [
                "rules",
                "moves (mean)",
                "moves - classic",
                "turns (mean)",
                "first player's share",
                "share - classic",
                "stalemates",
            ],
            rows,
        ),
        "\n" + " ".join(answer) + "\n",
        fig5,
    ]
    return "\n".join(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run every study and write the page and its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400, help="deals per ruleset and study")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parents[1],
        help="the docs folder to write studies.md and studies/*.png into",
    )
    args = parser.parse_args(argv)
    (args.out / "studies").mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    cpu_started = time.process_time()
    first, stalls = first_player_and_stalls(args.games, args.workers, args.out)
    parts = [
        first,
        stop_rule(args.games, args.workers, args.out),
        house_filling(args.games, args.workers, args.out),
        stalls,
        tarot_pack(args.games, args.workers, args.out),
    ]
    minutes = (time.monotonic() - started) / 60
    cpu = (time.process_time() - cpu_started) / 60
    rerun = f"python docs/studies/make_studies.py --games {args.games}"
    head = [
        "# Rule-variant studies\n",
        "<!-- Generated by docs/studies/make_studies.py: edit the script, not this page. -->\n",
        "Questions people ask about these rules, answered by simulation. The page and its"
        f" figures were made by `{rerun}` (crapette {__version__}, behaviour version"
        f" {BEHAVIOUR_VERSION}, run seed {SEED}, one worker process); rerun it"
        " to get the same numbers. Each figure names the `crapette compare` commands that"
        " give its numbers.\n",
        "All intervals are 95% intervals that analyse the seat-swapped pairs and the shuffles"
        " shared by the rulesets as pairs (see [Statistics](bots.md#statistics)): a paired"
        " difference whose interval excludes 0 is a real difference; one that includes 0 is"
        " none that this many deals can detect. The players are greedy bots, perfect or"
        " fallible (see [Fallible players](bots.md)).\n",
    ]
    page = "\n".join(head) + "\n" + "\n".join(parts)
    (args.out / "studies.md").write_text(page.rstrip() + "\n", encoding="utf-8")
    print(f"wrote {args.out / 'studies.md'}: {minutes:.1f} minutes, {cpu:.1f} of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
