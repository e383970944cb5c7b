"""Bot and simulator benchmarks: speed, scaling over workers, and playing strength.

Prints:

* deals per second of RandomBot and GreedyBot self-play (one process);
* the speed-up from 1 to 2 workers on the same GreedyBot run (target >= 1.7x);
* strength over ``--deals`` deals of ``classic`` (default 200): GreedyBot's share of the
  decided deals against RandomBot (target >= 90%) and SearchBot's at its default budget
  against GreedyBot (target >= 65%), with 95% intervals;
* the search bot's mean and maximum seconds per move (target < 1 s).

Run::

    python benchmarks/bench_bots.py            # the full run (a few minutes on 2 cores)
    python benchmarks/bench_bots.py --quick    # fewer deals, for a smoke test
"""

from __future__ import annotations

import argparse
import time

import crapette as c
from crapette.bots import GreedyBot, SearchBot, get_bot
from crapette.bots.search import DEFAULT_BUDGET
from crapette.simulation import deal_seed, simulate
from crapette.views import observe


def self_play_rate(bot: str, deals: int, seed: int = 1) -> tuple[float, float]:
    """Deals per second and mean moves per deal of ``bot`` against itself."""
    start = time.perf_counter()
    result = simulate("classic", (bot, bot), deals, seed)
    elapsed = time.perf_counter() - start
    return deals / elapsed, result.summary.mean_moves


def scaling(deals: int) -> tuple[float, float]:
    """Seconds for the same GreedyBot run on 1 and on 2 workers (results must agree).

    The 2-worker time includes starting the worker processes (spawn: a fresh interpreter
    importing crapette, about half a second), so the run must be long enough to amortize it.
    """
    times = []
    results = []
    for workers in (1, 2):
        start = time.perf_counter()
        results.append(simulate("classic", "greedy,greedy", deals, 3, workers=workers))
        times.append(time.perf_counter() - start)
    assert results[0] == results[1], "results differ between 1 and 2 workers"
    return times[0], times[1]


def search_move_times(deals: int, seed: int = 5) -> tuple[float, float, int]:
    """Mean and maximum seconds per move of the search bot (default budget) playing
    GreedyBot, and the number of moves timed."""
    times: list[float] = []
    for i in range(deals):
        dseed = deal_seed(seed, i)
        state = c.new_game(seed=dseed)
        bots = (SearchBot(dseed), GreedyBot(dseed + 1))
        if i % 2:
            bots = (bots[1], bots[0])
        while not c.is_over(state):
            p = state.to_act
            view = observe(state, p)
            start = time.perf_counter()
            move = bots[p].choose(view)
            if isinstance(bots[p], SearchBot):
                times.append(time.perf_counter() - start)
            state = c.apply(state, move)
    return sum(times) / len(times), max(times), len(times)


def main() -> None:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals for the strength runs")
    parser.add_argument("--speed-deals", type=int, default=40, help="deals for speed runs")
    parser.add_argument("--timing-deals", type=int, default=4, help="deals for move timing")
    parser.add_argument("--workers", type=int, default=2, help="workers for strength runs")
    parser.add_argument("--quick", action="store_true", help="small counts for a smoke run")
    parser.add_argument("--skip-search", action="store_true", help="skip the search bot runs")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.speed_deals, args.timing_deals = 20, 10, 1

    print(f"crapette {c.__version__} (behaviour {c.BEHAVIOUR_VERSION})")
    for bot in ("random", "greedy"):
        rate, moves = self_play_rate(
            bot, args.speed_deals if bot == "greedy" else 4 + args.speed_deals // 10
        )
        print(f"{bot:>7} self-play: {rate:8.2f} deals/s  ({moves:.0f} moves per deal)")

    one, two = scaling(10 * args.speed_deals)
    print(
        f"scaling, {10 * args.speed_deals} greedy deals: 1 worker {one:.2f} s, 2 workers"
        f" {two:.2f} s, speed-up {one / two:.2f}x (target >= 1.7x)"
    )

    start = time.perf_counter()
    result = simulate("classic", "greedy,random", args.deals, 11, workers=args.workers)
    s = result.summary
    print(
        f"greedy vs random, {args.deals} deals: greedy wins {s.decided_share[0]} of"
        f" {s.wins[0] + s.wins[1]} decided deals (target >= 90%);"
        f" stalemates {s.stalemate_rate}; {time.perf_counter() - start:.1f} s"
    )
    if args.skip_search:
        return
    start = time.perf_counter()
    result = simulate("classic", "search,greedy", args.deals, 12, workers=args.workers)
    s = result.summary
    print(
        f"search (budget {DEFAULT_BUDGET}) vs greedy, {args.deals} deals: search wins"
        f" {s.decided_share[0]} of {s.wins[0] + s.wins[1]} decided deals (target >= 65%);"
        f" margin {s.mean_margin:+.1f}; {time.perf_counter() - start:.1f} s"
    )
    mean, worst, count = search_move_times(args.timing_deals)
    print(
        f"search bot time per move over {count} moves: mean {mean:.4f} s, max {worst:.4f} s"
        " (target < 1 s)"
    )
    assert get_bot("search", 0).name == "search"


if __name__ == "__main__":
    main()
