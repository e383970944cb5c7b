"""Engine benchmark: prints legal_moves calls per second over seeded mid-game positions and
random self-play throughput (deals/s, applied moves/s, mean moves per deal), on one core.

    python benchmarks/bench_engine.py [--positions 200] [--deals 40] [--rules classic]

Targets (2-core CI machine): >= 150,000 legal_moves calls/s and >= 100,000 applied moves/s.
"""

from __future__ import annotations

import argparse
import time

import crapette
from crapette.deal import Rng


def mid_game_positions(rules: crapette.Ruleset, count: int) -> list[crapette.GameState]:
    """``count`` positions: deal ``seed``, then 50..449 random legal moves (seeded)."""
    positions = []
    for seed in range(count):
        state = crapette.new_game(rules, seed=seed)
        rng = Rng(seed)
        for _ in range(50 + rng.below(400)):
            moves = crapette.legal_moves(state)
            if not moves:
                break
            state = crapette.apply_unchecked(state, moves[rng.below(len(moves))])
        if crapette.legal_moves(state):
            positions.append(state)
    return positions


def bench_legal_moves(positions: list[crapette.GameState], seconds: float) -> float:
    """legal_moves calls per second, cycling over the positions."""
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for state in positions:
            crapette.legal_moves(state)
        calls += len(positions)
    return calls / (time.perf_counter() - start)


def bench_self_play(rules: crapette.Ruleset, deals: int) -> tuple[float, float, float]:
    """Random self-play: (deals/s, applied moves/s, mean moves per deal)."""
    moves_total = 0
    start = time.perf_counter()
    for seed in range(deals):
        state = crapette.new_game(rules, seed=seed)
        rng = Rng(seed)
        while True:
            moves = crapette.legal_moves(state)
            if not moves:
                break
            state = crapette.apply_unchecked(state, moves[rng.below(len(moves))])
            moves_total += 1
    elapsed = time.perf_counter() - start
    return deals / elapsed, moves_total / elapsed, moves_total / deals


def main() -> None:
    """Run both benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rules", default="classic")
    args = parser.parse_args()
    rules = crapette.Ruleset.from_string(args.rules)
    positions = mid_game_positions(rules, args.positions)
    mean_moves = sum(len(crapette.legal_moves(s)) for s in positions) / len(positions)
    rate = bench_legal_moves(positions, args.seconds)
    print(f"rules: {rules}")
    print(
        f"legal_moves: {rate:,.0f} calls/s over {len(positions)} mid-game positions"
        f" ({mean_moves:.1f} legal moves on average)"
    )
    deals_rate, moves_rate, per_deal = bench_self_play(rules, args.deals)
    print(
        f"random self-play: {deals_rate:,.1f} deals/s, {moves_rate:,.0f} applied moves/s,"
        f" {per_deal:,.0f} moves per deal (mean of {args.deals} deals)"
    )


if __name__ == "__main__":
    main()
