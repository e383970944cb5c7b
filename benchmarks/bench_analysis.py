"""Analysis benchmark: the calibration of the win probability and the CPU time of a whole
annotated deal.

    python benchmarks/bench_analysis.py calibration --deals 200 --seed 9001 --log cal.jsonl
    python benchmarks/bench_analysis.py calibration --summarize cal.jsonl
    python benchmarks/bench_analysis.py deal --deals 3 --seed 9101

``calibration`` plays self-play deals (``--bots``, the planner at a budget of 1,024 by
default: close to the self-play the value model was fitted on) on the shuffles
``deal_seed(seed, i)``, analyses ``--positions`` positions with a
choice of each deal (evenly spread, from the mover's view, with the hands the mover
remembers, at the analysis's default limit) and compares the win probability given to the
mover with how the deal ended. It prints the calibration table: ten bins of predicted
probability, each with its positions, the mean prediction and the share won with a 95%
interval (Wilson's, at the effective sample size of positions clustered by deal: several
positions of one deal share its outcome), then the Brier score (the mean squared error of
the predictions; 0.25 is what always saying 50% scores) and the Brier score of the bin
means. Undecided deals (stalemates, the move cap) are left out. With ``--log`` every
position is appended as a JSON line; ``--summarize`` prints the table of a log.

``deal`` annotates whole deals (planner self-play on ``deal_seed(seed, i)``) at the default
limit and prints the CPU time of each (``time.process_time``, one core), with the moves and
decisions analysed.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Iterable
from typing import Any

import crapette as c
from crapette.analysis import DEFAULT_LIMIT, analyse, annotate
from crapette.bots import get_bot, play_deal
from crapette.bots.planner import HandMemory
from crapette.match import deal_seed
from crapette.records import GameRecord
from crapette.simulation.stats import ratio_interval


def _self_play(rules: c.Ruleset, bots: str, seed: int) -> tuple[c.GameState, list[c.Move]]:
    a, b = bots.split(",")
    start = c.new_game(rules, seed=seed)
    moves: list[c.Move] = []
    play_deal(
        start,
        (get_bot(a, seed ^ 0xA), get_bot(b, seed ^ 0xB)),
        on_move=lambda before, move, after: moves.append(move),
    )
    return start, moves


def calibration_rows(args: argparse.Namespace, deal: int) -> list[dict[str, Any]]:
    """The analysed positions of one self-play deal."""
    rules = c.Ruleset.from_string(args.rules)
    seed = deal_seed(args.seed, deal)
    start, moves = _self_play(rules, args.bots, seed)
    states = [start]
    for move in moves:
        states.append(c.apply_unchecked(states[-1], move))
    result = c.outcome(states[-1])
    assert result is not None
    memories = (HandMemory(), HandMemory())
    choices = []
    seen: list[list[c.PlayerView]] = [[], []]
    for i, state in enumerate(states[:-1]):
        for p in (0, 1):
            seen[p].append(c.observe(state, p))
        if len(c.legal_moves(state)) > 1 and state.stop is None:
            choices.append(i)
    picked = (
        [choices[(k * len(choices)) // args.positions] for k in range(args.positions)]
        if len(choices) >= args.positions
        else choices
    )
    rows = []
    cursor = 0
    for i in picked:
        state = states[i]
        p = state.to_act
        while cursor <= i:
            for q in (0, 1):
                memories[q].see(seen[q][cursor])
            cursor += 1
        t0 = time.process_time()
        found = analyse(c.observe(state, p), seed=seed + i, memory=memories[p])
        cpu = time.process_time() - t0
        won = None if result.winner is None else int(result.winner == p)
        rows.append(
            {
                "deal": deal,
                "seed": seed,
                "move": i,
                "predicted": found.win,
                "se": found.win_se,
                "points": found.points,
                "won": won,
                "margin": result.scores[p] - result.scores[1 - p],
                "cpu": cpu,
            }
        )
    return rows


def _interval(rows: list[dict[str, Any]]) -> str:
    by_deal: dict[int, list[float]] = {}
    for r in rows:
        pair = by_deal.setdefault(r["deal"], [0.0, 0.0])
        pair[0] += r["won"]
        pair[1] += 1
    est = ratio_interval(
        [a for a, _ in by_deal.values()], [b for _, b in by_deal.values()], rate=True
    )
    return f"{est.value * 100:5.1f}% [{est.low * 100:5.1f}, {est.high * 100:5.1f}]"


def summarize(rows: Iterable[dict[str, Any]]) -> None:
    """Print the calibration table and the Brier score of some positions."""
    decided = [r for r in rows if r["won"] is not None and math.isfinite(r["predicted"])]
    if not decided:
        print("no decided position")
        return
    deals = len({r["deal"] for r in decided})
    print(f"{len(decided)} positions of {deals} decided deals")
    print("| predicted | positions | mean predicted | won (95% interval) |")
    print("|---|---|---|---|")
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        part = [
            r for r in decided if lo <= r["predicted"] < hi or (k == 9 and r["predicted"] == 1.0)
        ]
        if not part:
            print(f"| {lo:.1f}-{hi:.1f} | 0 | - | - |")
            continue
        mean = sum(r["predicted"] for r in part) / len(part)
        print(f"| {lo:.1f}-{hi:.1f} | {len(part)} | {mean * 100:.1f}% | {_interval(part)} |")
    brier = sum((r["predicted"] - r["won"]) ** 2 for r in decided) / len(decided)
    base = sum(r["won"] for r in decided) / len(decided)
    climate = sum((base - r["won"]) ** 2 for r in decided) / len(decided)
    print(
        f"Brier score {brier:.4f} (always 50%: 0.2500; always the base rate {base:.3f}:"
        f" {climate:.4f}); skill {1 - brier / climate:.3f}"
    )
    cpu = [r["cpu"] for r in decided if "cpu" in r]
    if cpu:
        print(f"analysis CPU per position: mean {sum(cpu) / len(cpu):.3f} s, max {max(cpu):.2f} s")


def calibration(args: argparse.Namespace) -> None:
    """Run the calibration benchmark."""
    if args.summarize:
        with open(args.summarize, encoding="utf-8") as log:
            summarize(json.loads(line) for line in log if line.strip())
        return
    rows: list[dict[str, Any]] = []
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    try:
        for deal in range(args.start, args.start + args.deals):
            part = calibration_rows(args, deal)
            rows.extend(part)
            if log:
                for row in part:
                    log.write(json.dumps(row) + "\n")
                log.flush()
    finally:
        if log:
            log.close()
    summarize(rows)


def deal(args: argparse.Namespace) -> None:
    """Run the whole-deal benchmark."""
    rules = c.Ruleset.from_string(args.rules)
    total = 0.0
    for k in range(args.start, args.start + args.deals):
        seed = deal_seed(args.seed, k)
        start, moves = _self_play(rules, args.bots, seed)
        record = GameRecord.from_moves(start, moves, {"Seed": str(seed)})
        t0 = time.process_time()
        annotated = annotate(record)
        cpu = time.process_time() - t0
        total += cpu
        judged = sum(1 for d in annotated.decisions if d.judged)
        print(
            f"deal {k} (seed {seed}): {len(moves)} moves, {judged} decisions with a choice,"
            f" annotated at {DEFAULT_LIMIT} in {cpu:.1f} s of CPU",
            flush=True,
        )
    print(f"mean {total / args.deals:.1f} s of CPU per deal (target: at most 30 s)")


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    cal = sub.add_parser("calibration", help="the calibration table and Brier score")
    cal.add_argument("--deals", type=int, default=200)
    cal.add_argument("--start", type=int, default=0)
    cal.add_argument("--seed", type=int, default=9001)
    cal.add_argument("--positions", type=int, default=8, help="positions per deal")
    cal.add_argument("--bots", default="planner:1024,planner:1024")
    cal.add_argument("--rules", default="classic")
    cal.add_argument("--log")
    cal.add_argument("--summarize", metavar="FILE")
    cal.set_defaults(run=calibration)
    whole = sub.add_parser("deal", help="the CPU time of whole annotated deals")
    whole.add_argument("--deals", type=int, default=3)
    whole.add_argument("--start", type=int, default=0)
    whole.add_argument("--seed", type=int, default=9101)
    whole.add_argument("--bots", default="planner:1024,planner:1024")
    whole.add_argument("--rules", default="classic")
    whole.set_defaults(run=deal)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
