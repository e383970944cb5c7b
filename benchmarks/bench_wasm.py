"""Speed of the WebAssembly build in Node beside the native build: random play-out plies/s.

Both builds compile the same C core (``native/crapette_core.c``): the native one for
CPython (the extension ``crapette._core``), the WebAssembly one for the JavaScript package
(``js/lib/crapette.wasm``). Both play the same whole deals inside the engine, the batch
entry point of each: deal seeds ``seed, seed + 1, ...``, both players random with
generators seeded ``1 + i`` and ``2 + i`` (``crapette._core.play_deals`` natively,
``playRandomDeals`` in JavaScript), so both count the same plies (the script checks it).
The runs are interleaved (native, WebAssembly, native, ...), every rate is CPU time, and
the table gives the median of ``--runs`` runs; the ratio is native over WebAssembly
(the target: at most 2). A last row gives random play through the JavaScript API
(``legalMoves`` + ``applyUnchecked``), for scale.

    python benchmarks/bench_wasm.py            # about half a minute
    python benchmarks/bench_wasm.py --quick    # a smoke run

Needs ``node`` (20 or later) and the native engine (``crapette.ENGINE == "native"``; the
WebAssembly figures are printed alone without it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_JS = ROOT / "js" / "bench" / "bench.js"


def native_batch(rules: str, seed: int, deals: int) -> tuple[float, int] | None:
    """Native batch random plies per CPU second and the plies played (None: no native
    engine)."""
    import crapette

    if crapette.ENGINE != "native":
        return None
    from crapette import _core  # the native batch entry point of the simulator

    ruleset = crapette.Ruleset.from_string(rules)
    batch = [(seed + i, 0, 0, 1 + i, 2 + i) for i in range(deals)]
    start = time.process_time()
    results = _core.play_deals(ruleset, batch, False)
    elapsed = time.process_time() - start
    plies = sum(row[5] for row in results)
    return plies / elapsed, plies


def wasm_runs(
    node: str, rules: str, seed: int, deals: int, runs: int, api_deals: int
) -> list[dict[str, float]]:
    """``runs`` WebAssembly runs in one node process (after its own warm-up run)."""
    out = subprocess.run(
        [
            node,
            str(BENCH_JS),
            "--rules",
            rules,
            "--seed",
            str(seed),
            "--deals",
            str(deals),
            "--runs",
            str(runs),
            "--api-deals",
            str(api_deals),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def fmt(rate: float) -> str:
    return f"{rate / 1e6:.2f}M" if rate >= 1e6 else f"{rate / 1e3:.0f}k"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=300, help="deals per run")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a smoke run (few deals and runs)")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.runs = 20, 2
    node = shutil.which("node")
    if node is None:
        print("bench_wasm: node is not installed (Node 20 or later is needed)", file=sys.stderr)
        return 2
    native_rates: list[float] = []
    wasm_rates: list[float] = []
    api_rates: list[float] = []
    plies: set[int] = set()
    native_batch(args.rules, args.seed, max(args.deals // 10, 1))  # warm-up
    for _ in range(args.runs):
        native = native_batch(args.rules, args.seed, args.deals)
        if native is not None:
            native_rates.append(native[0])
            plies.add(native[1])
        (run,) = wasm_runs(node, args.rules, args.seed, args.deals, 1, 0 if args.quick else 10)
        wasm_rates.append(run["batch"])
        plies.add(int(run["plies"]))
        if run["api"] is not None:
            api_rates.append(run["api"])
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(
        f"random play-outs, {args.rules}, {args.deals} deals a run, median of {args.runs} runs"
        f" (CPU time; node {version})"
    )
    print(f"{'engine':<44} {'plies/s':>10}")
    wasm = statistics.median(wasm_rates)
    if native_rates:
        native = statistics.median(native_rates)
        print(f"{'native batch (crapette._core.play_deals)':<44} {fmt(native):>10}")
        print(f"{'WebAssembly batch in Node (playRandomDeals)':<44} {fmt(wasm):>10}")
        print(f"{'ratio native / WebAssembly':<44} {native / wasm:>10.2f}")
    else:
        print(f"{'WebAssembly batch in Node (playRandomDeals)':<44} {fmt(wasm):>10}")
        print("(no native engine: crapette.ENGINE is not 'native')")
    if api_rates:
        api = statistics.median(api_rates)
        print(f"{'WebAssembly via the JS API (legalMoves+apply)':<44} {fmt(api):>10}")
    same = "yes" if len(plies) == 1 else f"NO ({sorted(plies)})"
    print(f"same games in both builds: {same}")
    return 0 if len(plies) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
