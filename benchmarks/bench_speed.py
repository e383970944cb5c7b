"""Speed benchmark of the engines, side by side with python-chess.

Prints one table and the targets of issue 20 against it. Every figure is the median of
``--runs`` runs; the runs of the engines are interleaved (python, native, python, native,
...), each run a fresh subprocess, and every rate is CPU time of that process
(``time.process_time``), so load from other processes on the machine matters less. Rows:

* random self-play plies/s for every preset, with checked ``apply`` and with
  ``apply_unchecked``, next to python-chess random playouts measured in the same process
  (``ratio`` = crapette plies/s over chess plies/s of the same run, then the median);
* ``legal_moves`` calls/s and checked ``apply`` calls/s over seeded mid-game positions;
* simulator deals/s (one worker) of GreedyBot and RandomBot self-play (the native engine
  plays them in its batch loop);
* the native engine's batch of random play-outs (``crapette._core.play_deals``), plies/s;
* the planner's CPU seconds per move against the greedy bot, at its default budget and at
  1,024 rollouts a decision (the default before the native engine, which the target reads);
* bytes per retained state in random play (tracemalloc);
* apply time and bytes per retained state against the length of one turn: one long legal
  turn of king moves between houses (up to 2,000 house moves, every layout new, so the
  no-cycle rule allows each), timed at turn lengths 1, 10, 100, 1,000 and 2,000.

The engine columns: ``python`` is the Python engine (``CRAPETTE_PURE=1``); ``native`` the
C core, when the installed crapette has it (``crapette.ENGINE``). Measure an installed
package (``pip install .``, not an editable install, so that the build is the release
build). Run::

    pip install '.[bench]'                    # python-chess
    python benchmarks/bench_speed.py          # a few minutes of CPU time
    python benchmarks/bench_speed.py --quick  # a smoke run

Needs python-chess (``pip install chess``, or the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

PRESETS = ("classic", "pagat", "g4a", "belarusian", "serbian", "tarot", "bobcrapette")
"""The presets of the self-play rows: the standard pack's five, then the tarot packs' two."""
TURN_LENGTHS = (1, 10, 100, 1000, 2000)

# Work per run (identical for both builds: fixed seeds and counts).
OLD_BUDGET = 1024
"""The planner's default budget before the native engine, at which issue 20 sets its target."""

FULL = {
    "deals": 8,
    "chess_games": 16,
    "positions": 60,
    "sim_greedy": 40,
    "sim_random": 8,
    "batch_deals": 400,
    "planner_deals": 2,
}
QUICK = {
    "deals": 2,
    "chess_games": 4,
    "positions": 20,
    "sim_greedy": 6,
    "sim_random": 2,
    "batch_deals": 40,
    "planner_deals": 1,
}
NATIVE_SIM_GREEDY = 3000  # greedy deals of the simulator row with the native engine


# -- the measurements (run inside a child process) ------------------------------------------


def chess_playouts(games: int) -> float:
    """python-chess random playouts: plies per CPU second over ``games`` seeded games.

    The usual loop: ``while not board.is_game_over(): board.push(choice(legal moves))``.
    """
    import chess

    plies = 0
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return plies / (time.process_time() - start)


def self_play(rules: str, deals: int, checked: bool) -> float:
    """Random self-play plies per CPU second: ``deals`` seeded deals played to the end."""
    import crapette

    step = crapette.apply if checked else crapette.apply_unchecked
    ruleset = crapette.Ruleset.from_string(rules)
    plies = 0
    start = time.process_time()
    for seed in range(deals):
        rng = random.Random(seed)
        state = crapette.new_game(ruleset, seed=seed)
        while True:
            moves = crapette.legal_moves(state)
            if not moves:
                break
            state = step(state, rng.choice(moves))
            plies += 1
    return plies / (time.process_time() - start)


def mid_game_positions(count: int) -> list[Any]:
    """``count`` classic positions: deal ``seed``, then 50..449 seeded random moves."""
    import crapette

    positions = []
    for seed in range(count):
        rng = random.Random(seed)
        state = crapette.new_game(seed=seed)
        for _ in range(50 + rng.randrange(400)):
            moves = crapette.legal_moves(state)
            if not moves:
                break
            state = crapette.apply_unchecked(state, rng.choice(moves))
        if crapette.legal_moves(state):
            positions.append(state)
    return positions


def calls_per_second(call: Callable[[], int], seconds: float) -> float:
    """Repeat ``call`` (which returns how many calls it made) for ``seconds`` of CPU time."""
    calls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        calls += call()
    return calls / (time.process_time() - start)


def bench_calls(count: int, seconds: float) -> dict[str, float]:
    """``legal_moves`` and checked ``apply`` calls/s over mid-game positions."""
    import crapette

    positions = mid_game_positions(count)
    pairs = [(s, m) for s in positions for m in crapette.legal_moves(s)]

    def generate() -> int:
        for state in positions:
            crapette.legal_moves(state)
        return len(positions)

    def apply_all() -> int:
        for state, move in pairs:
            crapette.apply(state, move)
        return len(pairs)

    return {
        "legal_moves calls/s": calls_per_second(generate, seconds),
        "apply calls/s": calls_per_second(apply_all, seconds),
    }


def batch_playouts(deals: int) -> float:
    """The native engine's batch loop: random play-outs of whole classic deals, plies per
    CPU second (``crapette._core.play_deals`` with random policies)."""
    import crapette
    from crapette import _core

    rules = crapette.Ruleset.preset("classic")
    jobs = [(seed, 0, 0, seed, seed + 1) for seed in range(deals)]
    start = time.process_time()
    rows = _core.play_deals(rules, jobs, False)
    elapsed = time.process_time() - start
    return sum(row[5] for row in rows) / elapsed


def planner_seconds(deals: int, budget: int | None = None) -> float:
    """CPU seconds per move of the planner at ``budget`` (its default when None), against the
    greedy bot (every move of its deals, forced ones included)."""
    import crapette
    from crapette.bots import GreedyBot, PlannerBot, play_deal

    spent = [0.0, 0]

    class Timed(PlannerBot):
        def choose(self, view: Any) -> Any:
            start = time.process_time()
            move = super().choose(view)
            spent[0] += time.process_time() - start
            spent[1] += 1
            return move

    for seed in range(deals):
        planner = Timed(seed) if budget is None else Timed(seed, budget=budget)
        pair = (planner, GreedyBot(seed + 1))
        bots = pair if seed % 2 == 0 else (pair[1], pair[0])
        play_deal(crapette.new_game(seed=1000 + seed), bots)
    return spent[0] / spent[1]


def bench_simulator(greedy: int, random_deals: int) -> dict[str, float]:
    """Simulator deals per CPU second on one worker, GreedyBot and RandomBot self-play."""
    try:
        from crapette.simulation import simulate
    except ImportError:  # before the simulation package existed
        from crapette.simulate import simulate  # type: ignore[no-redef]

    out = {}
    for bot, deals in (("greedy", greedy), ("random", random_deals)):
        start = time.process_time()
        simulate("classic", (bot, bot), deals, 1)
        out[f"simulator {bot} deals/s"] = deals / (time.process_time() - start)
    return out


def bytes_per_state(deals: int) -> float:
    """Traced bytes per state retained over random self-play (classic, every state kept)."""
    import crapette

    kept: list[Any] = []
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for seed in range(deals):
        rng = random.Random(seed)
        state = crapette.new_game(seed=seed)
        while True:
            kept.append(state)
            moves = crapette.legal_moves(state)
            if not moves:
                break
            state = crapette.apply_unchecked(state, rng.choice(moves))
    gc.collect()  # a full collection empties the free lists (of the move tuples, say)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    # the list itself holds 8 bytes per state; the rest is the states
    return (after - before) / len(kept) - 8


def long_turn(length: int) -> tuple[Any, list[Any]]:
    """A classic position and ``length`` legal house moves that player 0 makes in one turn.

    Five kings stand alone in five houses, three houses are empty, the foundations are
    empty and no ace is in reach, so a king moving to an empty house is legal as long as the
    layout it makes is new (the no-cycle rule). The moves walk through distinct placements of
    the five kings (8*7*6*5*4 = 6,720 of them), found by a seeded depth-first search.
    """
    import crapette
    from crapette.cards import full_pack

    kings = [crapette.parse_card(t) for t in ("KS", "KH", "KD", "KC", "Ks")]
    # Each player's own pack fills their reserve and hand: aces at the bottom of the hand
    # (never turned in this turn), a low card (2..5) on top of the reserve, which fits
    # nowhere while no foundation is started and the only house tops are kings.
    rng = random.Random(7)
    reserves, hands = [], []
    for owner in (0, 1):
        own = [c for c in full_pack(owner) if c not in kings]
        aces = [c for c in own if str(c)[0] == "A"]
        low = [c for c in own if str(c)[0] in "2345"]
        others = [c for c in own if c not in aces and c not in low]
        rng.shuffle(others)
        reserves.append(tuple(others[:12] + low[:1]))
        hands.append(tuple(aces + low[1:] + others[12:]))
    start_places = (0, 1, 2, 3, 4)
    houses = tuple((kings[start_places.index(h)],) if h in start_places else () for h in range(8))
    state = crapette.GameState(
        rules=crapette.Ruleset.preset("classic"),
        to_act=0,
        foundations=((),) * 8,
        houses=houses,
        reserves=(reserves[0], reserves[1]),
        reserve_up=(1, 1),
        hands=(hands[0], hands[1]),
        wastes=((), ()),
    )
    # depth-first search over placements: a placement maps each king to a house
    path = [start_places]
    seen = {start_places}
    search = random.Random(length)
    while len(path) <= length:
        places = path[-1]
        options = [
            (*places[:k], h, *places[k + 1 :])
            for k in range(5)
            for h in range(8)
            if h not in places
        ]
        search.shuffle(options)
        nxt = next((p for p in options if p not in seen), None)
        if nxt is None:
            raise RuntimeError("the walk got stuck; try another seed")
        seen.add(nxt)
        path.append(nxt)
    moves = []
    for a, b in itertools.pairwise(path):
        k = next(i for i in range(5) if a[i] != b[i])
        moves.append(crapette.Move.play(a[k], b[k]))
    return state, moves


def bench_long_turn(repeats: int) -> dict[str, float]:
    """Checked ``apply`` time and traced bytes per retained state at several turn lengths."""
    import crapette

    longest = max(TURN_LENGTHS)
    state0, moves = long_turn(longest)
    window = {n: max(1, n // 10) for n in TURN_LENGTHS}  # moves n-w+1..n are averaged
    # time: cumulative CPU time after each move; per window the best of ``repeats`` runs
    # (after one run to warm up)
    runs: list[list[float]] = []
    for _ in range(repeats + 1):
        times = [0.0]
        state = state0
        start = time.process_time()
        for move in moves:
            state = crapette.apply(state, move)
            times.append(time.process_time() - start)
        runs.append(times)
        assert state.to_act == 0 and state.moves_made == state0.moves_made + longest  # 1 turn
    runs = runs[1:]
    # memory: traced bytes after each move, every state kept
    kept = [state0]
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    memory = [0]
    for move in moves:
        kept.append(crapette.apply(kept[-1], move))
        memory.append(tracemalloc.get_traced_memory()[0] - base)
    tracemalloc.stop()
    out = {}
    for n in TURN_LENGTHS:
        w = window[n]
        best = min(times[n] - times[n - w] for times in runs)
        out[f"turn of {n}: apply us/move"] = best / w * 1e6
        out[f"turn of {n}: bytes/state"] = (memory[n] - memory[n - w]) / w - 8
    return out


def child(quick: bool) -> dict[str, float]:
    """Every measurement once; returns row name -> value."""
    import crapette

    work = QUICK if quick else FULL
    native = getattr(crapette, "ENGINE", "python") == "native"
    out: dict[str, float] = {"NATIVE": float(native)}
    chess_rate = chess_playouts(work["chess_games"])
    out["python-chess random playouts plies/s"] = chess_rate
    for preset in PRESETS:
        for checked in (False, True):
            name = f"{preset} self-play {'apply' if checked else 'apply_unchecked'}"
            rate = self_play(preset, work["deals"], checked)
            out[f"{name} plies/s"] = rate
            out[f"{name} x chess"] = rate / chess_rate
    out.update(bench_calls(work["positions"], 0.3 if quick else 1.0))
    greedy = NATIVE_SIM_GREEDY if native and not quick else work["sim_greedy"]
    out.update(bench_simulator(greedy, work["sim_random"]))
    out["native batch random play-outs plies/s"] = (
        batch_playouts(work["batch_deals"]) if native else float("nan")
    )
    out["planner CPU s per move (default budget)"] = planner_seconds(work["planner_deals"])
    out[f"planner CPU s per move (budget {OLD_BUDGET:,})"] = planner_seconds(
        work["planner_deals"], OLD_BUDGET
    )
    out["bytes per retained state (random play)"] = bytes_per_state(2 if quick else 4)
    out.update(bench_long_turn(1 if quick else 3))
    return out


# -- the parent: run the builds interleaved, print the table --------------------------------


def run_child(pure: bool, quick: bool, python: str = sys.executable) -> dict[str, float]:
    """Run :func:`child` in a fresh ``python``, with or without ``CRAPETTE_PURE=1``."""
    env = dict(os.environ)
    env.pop("CRAPETTE_PURE", None)
    if pure:
        env["CRAPETTE_PURE"] = "1"
    args = [python, os.path.abspath(__file__), "--child"] + (["--quick"] if quick else [])
    result = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def installed_engine() -> str:
    """The engine the crapette this interpreter imports runs by default."""
    env = {k: v for k, v in os.environ.items() if k != "CRAPETTE_PURE"}
    result = subprocess.run(
        [sys.executable, "-c", "import crapette; print(crapette.ENGINE)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def fmt(value: float) -> str:
    """A figure with a sensible number of digits."""
    if value != value:  # NaN: not measured by this engine
        return "-"
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 0.1:
        return f"{value:.2f}"
    return f"{value:.4f}"


# The targets of issue 20: (row, the column it reads, the bound, whether higher is better).
TARGETS = (
    ("classic self-play apply_unchecked plies/s", "native", 1_000_000, True),
    ("classic self-play apply_unchecked x chess", "native", 60, True),
    ("classic self-play apply x chess", "native", 45, True),
    ("native batch random play-outs plies/s", "native", 5_000_000, True),
    ("simulator greedy deals/s", "native", 3000, True),
    (f"planner CPU s per move (budget {OLD_BUDGET:,})", "native", 0.056 / 5, False),
    ("bytes per retained state (random play)", "native", 200, False),
)
"""The planner's bound: a fifth of 0.056 s, its CPU time per move at 1,024 rollouts a decision
(then its default budget) before the native engine."""


def print_targets(medians: dict[str, dict[str, float]]) -> None:
    """The targets, each against its measured figure."""
    print()
    print("| target | measured | |")
    print("|---|---|---|")
    for row, column, bound, higher in TARGETS:
        if column not in medians:
            continue
        value = medians[column][row]
        met = value >= bound if higher else value <= bound
        sign = ">=" if higher else "<="
        print(f"| {row} {sign} {fmt(bound)} | {fmt(value)} | {'met' if met else 'missed'} |")


def main() -> None:
    """Run the benchmark and print the table (or, with ``--child``, one run as JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per engine (median)")
    parser.add_argument("--quick", action="store_true", help="less work per run")
    parser.add_argument("--native-only", action="store_true", help="skip the Python engine")
    parser.add_argument(
        "--baseline",
        metavar="PYTHON",
        help="also run this interpreter (another crapette install, e.g. an older release in"
        " its own venv, with python-chess) as a 'baseline' column",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.quick)))
        return

    import crapette

    engines = ["baseline"] if args.baseline else []
    if not args.native_only:
        engines.append("python")
    if installed_engine() == "native":
        engines.append("native")
    results: dict[str, list[dict[str, float]]] = {b: [] for b in engines}
    for run in range(args.runs):
        for engine in engines:
            print(f"run {run + 1}/{args.runs}: {engine}", file=sys.stderr, flush=True)
            if engine == "baseline":
                values = run_child(False, args.quick, args.baseline)
                values.pop("NATIVE", None)
                values.pop("COMPILED", None)
            else:
                values = run_child(engine == "python", args.quick)
                assert bool(values.pop("NATIVE")) == (engine == "native"), engine
            results[engine].append(values)
    rows = list(results[engines[-1]][0])
    medians = {
        b: {r: statistics.median(v.get(r, float("nan")) for v in results[b]) for r in rows}
        for b in engines
    }

    import chess

    print(
        f"crapette {crapette.__version__}, python-chess {chess.__version__}, Python"
        f" {sys.version.split()[0]}; median of {args.runs} interleaved runs per engine,"
        " CPU time"
    )
    ratio = "python" in engines and "native" in engines
    head = ["benchmark", *engines] + (["native / python"] if ratio else [])
    lines = [head]
    for row in rows:
        line = [row] + [fmt(medians[b][row]) for b in engines]
        if ratio:
            quotient = medians["native"][row] / medians["python"][row]
            line.append("-" if quotient != quotient else f"{quotient:.2f}x")
        lines.append(line)
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for line in lines[1:]:
        figures = zip(line[1:], widths[1:], strict=True)
        cells = [line[0].ljust(widths[0])] + [c.rjust(w) for c, w in figures]
        print("| " + " | ".join(cells) + " |")
    print_targets(medians)


if __name__ == "__main__":
    main()
