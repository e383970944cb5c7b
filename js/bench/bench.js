// The speed of the WebAssembly engine in Node, for benchmarks/bench_wasm.py (which prints
// it beside the native build) or on its own:
//
//     node js/bench/bench.js [--rules classic] [--deals 200] [--runs 5] [--api-deals 20]
//
// Prints one JSON object per run: `batch`, random play-out plies per CPU second of whole
// deals played inside the engine (playRandomDeals: deals seed, seed + 1, ..., both players
// random with generators seeded 1 + i and 2 + i, as the Python benchmark's native batch),
// `plies` (the plies of those deals: the same number in both builds), and `api`, plies per
// CPU second of random play through the JavaScript API (legalMoves + applyUnchecked).
import { Rng, applyUnchecked, legalMoves, newGame, playRandomDeals } from '../lib/index.js';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : process.argv[at + 1];
}

const rules = option('rules', 'classic');
const deals = Number(option('deals', '200'));
const runs = Number(option('runs', '5'));
const apiDeals = Number(option('api-deals', '20'));
const seed = BigInt(option('seed', '0'));

function cpuSeconds(start) {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

function batch() {
  const start = process.cpuUsage();
  const plies = playRandomDeals(rules, seed, deals, [1, 2]);
  return { plies, rate: plies / cpuSeconds(start) };
}

function api() {
  let plies = 0;
  const start = process.cpuUsage();
  for (let d = 0; d < apiDeals; d++) {
    let state = newGame(rules, seed + BigInt(d));
    const rng = new Rng(d);
    for (;;) {
      const moves = legalMoves(state);
      if (!moves.length) break;
      state = applyUnchecked(state, moves[rng.below(moves.length)]);
      plies++;
    }
  }
  return plies / cpuSeconds(start);
}

batch(); // warm-up: the engine's functions reach the optimizing compiler
api();
for (let run = 0; run < runs; run++) {
  const b = batch();
  console.log(JSON.stringify({ batch: b.rate, plies: b.plies, api: apiDeals ? api() : null }));
}
