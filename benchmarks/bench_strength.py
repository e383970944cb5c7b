"""Strength benchmark: bot A against bot B over seat-swapped deals, with the time per move.

    python benchmarks/bench_strength.py --pair planner,search --pair planner,greedy \
        --games 40 --seed 11 --workers 2 --log deals.jsonl

For each pair it prints bot A's share of the decided deals and the mean score margin, each
with a 95% interval that treats the two seat-swapped deals of a shuffle as one sample
(``crapette.simulation.stats.ratio_interval``: a Wilson interval at the design's effective
sample size for the share, a cluster-robust interval for the margin), the deals stopped by
the move cap, and bot A's time per move (wall clock and process CPU time: mean and max over
every move it chose, forced moves included), and bot B's CPU time per move likewise. Deal
``i`` of a pair uses the deal seed
``deal_seed(seed, i // 2)`` with bot A as player ``i % 2`` (the simulator's design), so
runs are reproducible and can be extended: ``--start 40 --games 40`` plays deals 40..79.
With ``--log`` every finished deal is appended as one JSON line (so a run cut short keeps
its deals; ``--summarize FILE`` prints the figures of a log).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from collections.abc import Iterable
from typing import Any

import crapette as c
from crapette.bots import get_bot, play_deal
from crapette.match import deal_seed
from crapette.simulation.stats import ratio_interval


class Timed:
    """A bot whose every decision is timed (wall clock and process CPU time); its hooks
    (``on_deal_start``, ``on_opponent_move`` and, for the all-seeing bots, ``peek``) are
    the wrapped bot's."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)
        self.wall: list[float] = []
        self.cpu: list[float] = []
        peek = getattr(bot, "peek", None)
        if peek is not None:  # the game loop shows the state only to a bot that has the hook
            self.peek = peek

    def choose(self, view: Any) -> Any:
        t0, c0 = time.perf_counter(), time.process_time()
        move = self.bot.choose(view)
        self.wall.append(time.perf_counter() - t0)
        self.cpu.append(time.process_time() - c0)
        return move

    def on_deal_start(self, view: Any) -> None:
        hook = getattr(self.bot, "on_deal_start", None)
        if hook is not None:
            hook(view)

    def on_opponent_move(self, move: Any, view: Any) -> None:
        hook = getattr(self.bot, "on_opponent_move", None)
        if hook is not None:
            hook(move, view)


def play(args: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """One deal: bot A (timed) against bot B, through the one game loop
    (``crapette.bots.play_deal``, which calls the bots' hooks as a game does)."""
    rules_text, a, b, seed, deal = args
    rules = c.Ruleset.from_string(rules_text)
    shuffle = deal_seed(seed, deal // 2)
    seat = deal % 2
    timed = Timed(get_bot(a, shuffle ^ 0xA))
    other = Timed(get_bot(b, shuffle ^ 0xB))
    bots = {seat: timed, 1 - seat: other}
    state = play_deal(c.new_game(rules, seed=shuffle), (bots[0], bots[1]))
    wall, cpu = timed.wall, timed.cpu
    result = c.outcome(state)
    assert result is not None
    won = None if result.winner is None else int(result.winner != seat)
    return {
        "a": a,
        "b": b,
        "rules": rules_text,
        "seed": seed,
        "deal": deal,
        "winner_bot": won,
        "margin": result.scores[seat] - result.scores[1 - seat],
        "reason": result.reason,
        "moves": state.moves_made,
        "a_moves": len(wall),
        "wall_sum": sum(wall),
        "wall_max": max(wall, default=0.0),
        "cpu_sum": sum(cpu),
        "cpu_max": max(cpu, default=0.0),
        "b_moves": len(other.cpu),
        "b_cpu_sum": sum(other.cpu),
        "b_cpu_max": max(other.cpu, default=0.0),
    }


def _per_shuffle(
    deals: list[dict[str, Any]], num: Any, den: Any
) -> tuple[list[float], list[float]]:
    """Sums of ``num(deal)`` and ``den(deal)`` per shuffle (the two seats of a deal pair)."""
    sums: dict[int, list[float]] = {}
    for d in deals:
        pair = sums.setdefault(d["deal"] // 2, [0.0, 0.0])
        pair[0] += num(d)
        pair[1] += den(d)
    return [a for a, _ in sums.values()], [b for _, b in sums.values()]


def summarize(rows: Iterable[dict[str, Any]]) -> None:
    """Print the figures of some deal rows, per pair."""
    pairs: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for row in rows:
        pairs.setdefault((row["a"], row["b"], row["rules"]), []).append(row)
    for (a, b, rules), deals in pairs.items():
        wins = sum(1 for d in deals if d["winner_bot"] == 0)
        losses = sum(1 for d in deals if d["winner_bot"] == 1)
        capped = sum(1 for d in deals if d.get("reason") == "move_cap")
        share = ratio_interval(
            *_per_shuffle(
                deals, lambda d: d["winner_bot"] == 0, lambda d: d["winner_bot"] is not None
            ),
            rate=True,
        )
        ended = [d for d in deals if d.get("reason") != "move_cap"]
        margin = ratio_interval(*_per_shuffle(ended, lambda d: d["margin"], lambda d: 1))
        moves = sum(d["a_moves"] for d in deals)
        print(
            f"{a} vs {b} on {rules}: {len(deals)} deals, {wins} won, {losses} lost,"
            f" {len(deals) - wins - losses} undecided ({capped} at the move cap);"
            f" share of decided {share}; margin {margin};"
            f" {a} per move ({moves} moves): wall mean"
            f" {sum(d['wall_sum'] for d in deals) / max(moves, 1):.3f} s max"
            f" {max(d['wall_max'] for d in deals):.2f} s, CPU mean"
            f" {sum(d['cpu_sum'] for d in deals) / max(moves, 1):.3f} s max"
            f" {max(d['cpu_max'] for d in deals):.2f} s" + _other(b, deals),
            flush=True,
        )


def _other(b: str, deals: list[dict[str, Any]]) -> str:
    """Bot B's CPU time per move, when the log has it (logs written before did not)."""
    timed = [d for d in deals if "b_moves" in d]
    moves = sum(d["b_moves"] for d in timed)
    if not moves:
        return ""
    return (
        f"; {b} per move ({moves} moves): CPU mean"
        f" {sum(d['b_cpu_sum'] for d in timed) / moves:.3f} s max"
        f" {max(d['b_cpu_max'] for d in timed):.2f} s"
    )


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pair", action="append", help="A,B (repeatable)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--games", type=int, default=40, help="deals per pair")
    parser.add_argument("--start", type=int, default=0, help="first deal number")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log", help="append every deal as a JSON line to this file")
    parser.add_argument("--summarize", metavar="FILE", help="only print the figures of a log")
    args = parser.parse_args()
    if args.summarize:
        with open(args.summarize, encoding="utf-8") as log:
            summarize(json.loads(line) for line in log if line.strip())
        return
    pairs = [tuple(p.split(",")) for p in (args.pair or ["planner,search", "planner,greedy"])]
    for a, b in pairs:  # fail early on a bad name
        get_bot(a)
        get_bot(b)
    rules = c.Ruleset.from_string(args.rules).to_string()
    tasks = [
        (rules, a, b, args.seed, deal)
        for deal in range(args.start, args.start + args.games)
        for a, b in pairs
    ]
    rows = []
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    try:
        if args.workers > 1:
            with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
                results: Iterable[dict[str, Any]] = pool.imap_unordered(play, tasks)
                for row in results:
                    rows.append(row)
                    if log:
                        log.write(json.dumps(row) + "\n")
                        log.flush()
        else:
            for task in tasks:
                row = play(task)
                rows.append(row)
                if log:
                    log.write(json.dumps(row) + "\n")
                    log.flush()
    finally:
        if log:
            log.close()
    summarize(sorted(rows, key=lambda r: (r["a"], r["b"], r["deal"])))


if __name__ == "__main__":
    main()
