"""State benchmark: what a state costs to keep and to make (issue 13, items 1 and 2).

    python benchmarks/bench_state.py [--deals 20] [--turn 2000] [--rules classic]

Prints, on one core:

* bytes per retained state in random self-play (every state of a deal kept in a list,
  measured with ``tracemalloc``);
* a long turn of house moves (a walk of ``--turn`` distinct layouts in one turn): the
  time of checked ``apply`` and of ``apply_unchecked`` and the bytes per retained state,
  for the first and the last 10% of the turn (flat means linear: the no-cycle memory is
  shared between the states of a turn, not copied);
* checked ``apply`` against ``apply_unchecked`` in random self-play (moves/s).

Targets: <= 450 bytes per retained state; first and last tenth of a 2,000-move turn
within 20% of each other.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

import crapette
from crapette.deal import Rng


def random_deal(rules: crapette.Ruleset, seed: int) -> list[crapette.GameState]:
    """Every state of one random self-play deal."""
    state = crapette.new_game(rules, seed=seed)
    rng = Rng(seed)
    states = [state]
    while True:
        moves = crapette.legal_moves(state)
        if not moves:
            return states
        state = crapette.apply_unchecked(state, moves[rng.below(len(moves))])
        states.append(state)


def bytes_per_state(rules: crapette.Ruleset, deals: int) -> float:
    """Bytes per retained state in random self-play (the deal's states kept in a list)."""
    total = count = 0
    for seed in range(deals):
        gc.collect()
        tracemalloc.start()
        states = random_deal(rules, seed)
        total += tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        count += len(states)
        del states
    return total / count


def house_turn(length: int, seed: int = 1) -> tuple[crapette.GameState, list[crapette.Move]]:
    """A position with five lone cards and three empty houses, and a walk of ``length``
    house-to-house moves through distinct layouts in one turn (chosen at random)."""
    lone = [crapette.Card(t) for t in ("9S", "9H", "7C", "5D", "JS")]
    rest = [c for c in crapette.ALL_CARDS if c not in lone]
    state = crapette.GameState(
        rules=crapette.Ruleset(),
        to_act=0,
        foundations=((),) * 8,
        houses=(*((c,) for c in lone), (), (), ()),
        reserves=((), ()),
        reserve_up=(0, 0),
        hands=(tuple(rest[:50]), tuple(rest[50:])),
        wastes=((), ()),
    )
    rng = Rng(seed)
    start = state
    moves: list[crapette.Move] = []
    while len(moves) < length:
        options = [
            m for m in crapette.legal_moves(state) if m.is_play and m.source < 8 and m.target < 8
        ]
        if not options:  # a dead end: start the walk again with another seed
            return house_turn(length, seed + 1)
        move = options[rng.below(len(options))]
        moves.append(move)
        state = crapette.apply_unchecked(state, move)
    return start, moves


def turn_profile(start: crapette.GameState, moves: list[crapette.Move]) -> dict[str, float]:
    """Time per apply (checked and unchecked) and bytes per retained state, over the first
    and the last tenth of the turn."""
    tenth = max(len(moves) // 10, 1)
    out: dict[str, float] = {}
    for name, fn in (("apply", crapette.apply), ("apply_unchecked", crapette.apply_unchecked)):
        best_first = best_last = float("inf")
        for _ in range(5):
            state = start
            times = []
            for move in moves:
                t0 = time.perf_counter()
                state = fn(state, move)
                times.append(time.perf_counter() - t0)
            best_first = min(best_first, sum(times[:tenth]) / tenth)
            best_last = min(best_last, sum(times[-tenth:]) / tenth)
        out[f"{name} first"] = best_first
        out[f"{name} last"] = best_last
    gc.collect()
    tracemalloc.start()
    state = start
    kept = []
    marks = []
    for move in moves:
        state = crapette.apply_unchecked(state, move)
        kept.append(state)
        marks.append(tracemalloc.get_traced_memory()[0])
    tracemalloc.stop()
    out["bytes first"] = (marks[tenth] - marks[0]) / tenth
    out["bytes last"] = (marks[-1] - marks[-1 - tenth]) / tenth
    return out


def checked_vs_unchecked(rules: crapette.Ruleset, deals: int) -> tuple[float, float]:
    """Applied moves/s (CPU time) of random self-play with checked ``apply`` and with
    ``apply_unchecked`` (the same games)."""
    rates = []
    for fn in (crapette.apply, crapette.apply_unchecked):
        moves_total = 0
        start = time.process_time()
        for seed in range(deals):
            state = crapette.new_game(rules, seed=seed)
            rng = Rng(seed)
            while True:
                moves = crapette.legal_moves(state)
                if not moves:
                    break
                state = fn(state, moves[rng.below(len(moves))])
                moves_total += 1
        rates.append(moves_total / (time.process_time() - start))
    return rates[0], rates[1]


def main() -> None:
    """Run the state benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--turn", type=int, default=2000)
    parser.add_argument("--rules", default="classic")
    args = parser.parse_args()
    rules = crapette.Ruleset.from_string(args.rules)
    print(f"rules: {rules}")
    print(
        f"bytes per retained state (random self-play, {args.deals} deals):"
        f" {bytes_per_state(rules, args.deals):,.0f}"
    )
    start, moves = house_turn(args.turn)
    prof = turn_profile(start, moves)
    print(f"a turn of {len(moves)} house moves, first tenth -> last tenth:")
    for name in ("apply", "apply_unchecked"):
        first, last = prof[f"{name} first"] * 1e6, prof[f"{name} last"] * 1e6
        print(f"  {name}: {first:.2f} us -> {last:.2f} us per move ({last / first:.2f}x)")
    first, last = prof["bytes first"], prof["bytes last"]
    print(f"  bytes per retained state: {first:,.0f} -> {last:,.0f} ({last / first:.2f}x)")
    checked, unchecked = checked_vs_unchecked(rules, max(args.deals // 2, 1))
    print(
        f"random self-play: apply {checked:,.0f} moves/s, apply_unchecked {unchecked:,.0f}"
        f" moves/s (checked/unchecked {checked / unchecked:.2f})"
    )


if __name__ == "__main__":
    main()
