// The WebAssembly module behind the package's public functions, fuzzed: move lists of any
// length (past the module's move buffer), moves that are not legal, things that are not
// moves, states from edited JSON documents and position lines, hostile strings, bounds and
// seeds of any size, states whose private bytes were changed. A call returns or throws the
// package's own errors (CrapetteError, or TypeError for an argument of the wrong type);
// after every refused call a valid call still gives the answer it gave before.
// CRAPETTE_FUZZ_CALLS sets the number of random calls (a few thousand by default).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  ALL_MOVES,
  CrapetteError,
  GreedyBot,
  IllegalMoveError,
  InvalidArgumentError,
  InvalidPositionError,
  PRESETS,
  RandomBot,
  Rng,
  apply,
  applyUnchecked,
  deal,
  formatPosition,
  fromJson,
  greedyScores,
  isOver,
  legalMoves,
  makeState,
  newGame,
  observe,
  outcome,
  parsePosition,
  playDeals,
  toJson,
  whyIllegal,
} from '../lib/index.js';

const CALLS = Number(process.env.CRAPETTE_FUZZ_CALLS ?? 3000);
const PRESET_NAMES = Object.keys(PRESETS).sort();

/** A state of play: a seeded deal and some random legal moves. */
function played(rules, seed, steps) {
  const rng = new Rng(seed);
  let state = newGame(rules, seed);
  for (let i = 0; i < steps; i++) {
    const moves = legalMoves(state);
    if (!moves.length) break;
    state = applyUnchecked(state, moves[rng.below(moves.length)]);
  }
  return state;
}

/** What valid calls answer for a state (compared again after refused calls). */
function answers(state) {
  const moves = legalMoves(state);
  return JSON.stringify({
    moves: moves.map(String),
    scores: greedyScores(state, moves),
    position: formatPosition(state),
    outcome: outcome(state),
    over: isOver(state),
    greedy: moves.length ? String(new GreedyBot(3).choose(state)) : null,
  });
}

function anchors() {
  return [played('classic', 1, 40), played('serbian', 2, 300), played('pagat(stop=undo)', 3, 700)].map((state) => ({
    state,
    expected: answers(state),
  }));
}

function assertAnchor(anchor) {
  assert.equal(answers(anchor.state), anchor.expected);
}

const DEALS = [{ seed: 7, bots: ['greedy', 'random'], botSeeds: [1, 2] }];

test('a move list longer than the module buffer is refused, and the module is left intact', () => {
  const before = playDeals('classic', DEALS, { record: true });
  const state = played('classic', 5, 10);
  const legal = legalMoves(state);
  for (const n of [ALL_MOVES.length + 1, ALL_MOVES.length + 9, 20000]) {
    const long = Array.from({ length: n }, (_, i) => legal[i % legal.length]);
    assert.throws(() => greedyScores(state, long), (e) => e instanceof InvalidArgumentError && e.message.includes(`not ${n}`));
  }
  const longest = Array.from({ length: ALL_MOVES.length }, (_, i) => legal[i % legal.length]);
  const scores = greedyScores(state, longest);
  const once = greedyScores(state, legal);
  assert.deepEqual(scores, longest.map((m) => once[legal.indexOf(m)]));
  assert.deepEqual(playDeals('classic', DEALS, { record: true }), before);
});

test('moves that are not legal in the state are refused naming the move', () => {
  const state = newGame('classic', 1);
  const house = state.houses.findIndex((h) => h.length === 1);
  const tooMany = ALL_MOVES.find((m) => m.action === 'play' && m.source === house && m.target >= 0 && m.target < 8 && m.count === 3);
  assert.ok(tooMany);
  const message = whyIllegal(state, tooMany);
  assert.throws(
    () => greedyScores(state, [...legalMoves(state), tooMany]),
    (e) => e instanceof IllegalMoveError && e.message.startsWith(`illegal move ${tooMany}`) && e.message.endsWith(message),
  );
  for (const move of ALL_MOVES) {
    if (legalMoves(state).some((m) => m.index === move.index)) continue;
    assert.throws(() => greedyScores(state, [move]), IllegalMoveError);
  }
  assert.throws(() => greedyScores(state, [1, 2]), TypeError);
  assert.throws(() => greedyScores(state, 'R-F'), TypeError);
});

test('Rng.below refuses a bound it cannot serve, and serves every bound up to 2**64', () => {
  const rng = new Rng(9);
  for (const bound of [2n ** 64n + 1n, 2n ** 200n, 0n, -1n, 0, -5, 1.5, 2 ** 60, '3', null]) {
    assert.throws(() => rng.below(bound), InvalidArgumentError);
  }
  for (const bound of [1n, 2n ** 63n, 2n ** 63n + 1n, 2n ** 64n - 1n, 2n ** 64n]) {
    const x = rng.below(bound);
    assert.ok(x >= 0n && x < bound);
  }
  assert.equal(new Rng(9).below(52), Number(new Rng(9).below(52n)));
});

test('a state whose private bytes were changed is refused, never read out of bounds', () => {
  const anchor = anchors()[0];
  const state = played('classic', 8, 30);
  state._bytes[104] = 200; // a pile longer than the card array
  assert.throws(() => legalMoves(state), InvalidPositionError);
  assert.throws(() => greedyScores(state, []), InvalidPositionError);
  assertAnchor(anchor);
  const other = played('classic', 9, 30);
  other._bytes[0] = 250; // a card that does not exist
  assert.throws(() => outcome(other), InvalidPositionError);
  assertAnchor(anchor);
});

/** Small random edits of a text, and hostile strings. */
function edited(rng, text) {
  const roll = rng.below(6);
  if (roll === 0) return ['', ' ', '\u0000', '\ud800', 'x'.repeat(100000), '{'.repeat(5000), '[' + '1,'.repeat(3000) + '1]', '\u{1F0A1}'.repeat(50)][rng.below(8)];
  const chars = Array.from(text);
  for (let i = 0, n = 1 + rng.below(4); i < n; i++) {
    const at = rng.below(chars.length);
    const pick = '{}[]",:0123456789abcdefxyzAKQJTSHDCshdc-/? \\\u00e9\ud83c';
    chars[at] = pick[rng.below(pick.length)];
  }
  return chars.join('');
}

function randomMoves(rng, state) {
  const legal = legalMoves(state);
  const n = [0, 1, 5, 790, 791, 792, 1000, rng.below(3000)][rng.below(8)];
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(legal.length && rng.below(3) ? legal[rng.below(legal.length)] : ALL_MOVES[rng.below(ALL_MOVES.length)]);
  }
  if (out.length && rng.below(6) === 0) out[rng.below(out.length)] = [null, 3, 'R-F', {}, -1][rng.below(5)];
  return out;
}

test(`random calls (${CALLS}) meet only the package's errors, and valid calls stay right`, () => {
  const rng = new Rng(2024);
  const fixed = anchors();
  const pool = [...fixed.map((a) => a.state), played('g4a', 4, 100), played('belarusian', 5, 500), played('serbian(house_filling=immediate)', 6, 200)];
  const counts = { refused: 0, answered: 0 };
  const calls = [
    (s) => greedyScores(s, randomMoves(rng, s)),
    (s) => new GreedyBot(rng.below(100)).choose(s),
    (s) => new RandomBot(rng.below(100)).choose(s),
    (s) => apply(s, rng.below(2) ? ALL_MOVES[rng.below(ALL_MOVES.length)] : edited(rng, 'R-H3')),
    (s) => applyUnchecked(s, ALL_MOVES[rng.below(ALL_MOVES.length)]),
    (s) => whyIllegal(s, ALL_MOVES[rng.below(ALL_MOVES.length)]),
    (s) => legalMoves(fromJson(edited(rng, toJson(s)))),
    (s) => legalMoves(parsePosition(edited(rng, formatPosition(s)))),
    (s) => observe(s, [0, 1, 2, -1, null][rng.below(5)]).legalMoves(),
    (s) => {
      const f = {
        rules: s.rules, toAct: s.toAct, foundations: s.foundations, houses: s.houses, reserves: s.reserves,
        reserveUp: s.reserveUp, hands: s.hands, wastes: s.wastes, turned: s.turned, emptied: s.emptied,
        passes: s.passes, movesMade: s.movesMade,
      };
      const names = Object.keys(f);
      f[names[rng.below(names.length)]] = [null, -1, 2 ** 32, 1e13, [[]], [[200]], 'x', [1, 2]][rng.below(8)];
      return legalMoves(makeState(f));
    },
    () => new Rng(rng.below(1000)).below([0, 1, 2n ** 64n, 2n ** 64n + 1n, -3n, 2 ** 53, 0.5][rng.below(7)]),
    () => {
      const packs = [Array.from({ length: 52 }, (_, i) => i), Array.from({ length: 52 }, (_, i) => 52 + i)];
      packs[rng.below(2)][rng.below(52)] = [0, 51, 52, 103, 104, -1, 'AS', null, 1.5][rng.below(9)];
      return deal(PRESET_NAMES[rng.below(PRESET_NAMES.length)], packs[0], packs[1], { starter: [null, 0, 1, 2][rng.below(4)] });
    },
    () => playDeals(`classic(move_cap=${[50, 200][rng.below(2)]})`, [{ seed: rng.below(1000), bots: [['greedy', 'random', 'x'][rng.below(3)], 'random'], botSeeds: [rng.below(9), -1] }], { record: rng.below(2) === 1 }),
  ];
  for (let i = 0; i < CALLS; i++) {
    const state = pool[rng.below(pool.length)];
    try {
      calls[rng.below(calls.length)](state);
      counts.answered++;
    } catch (error) {
      if (!(error instanceof CrapetteError || error instanceof TypeError)) {
        throw new Error(`call ${i}: not the package's error: ${error && error.name}: ${error && error.message}`);
      }
      counts.refused++;
      assertAnchor(fixed[rng.below(fixed.length)]);
    }
  }
  assert.ok(counts.refused > CALLS / 10 && counts.answered > CALLS / 10, JSON.stringify(counts));
  for (const anchor of fixed) assertAnchor(anchor);
});
