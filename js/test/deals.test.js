import assert from 'node:assert/strict';
import { test } from 'node:test';

import { deal, formatPosition, newGame } from '../lib/index.js';
import { expected, vectors } from '../vectors/load.js';

const deals = vectors('deals');

test('a seed deals the same cards as in Python (seeds as BigInt and as strings)', () => {
  for (const v of deals.seeded) {
    assert.equal(formatPosition(newGame(v.rules, BigInt(v.seed))), v.position, `${v.rules} ${v.seed}`);
    assert.equal(formatPosition(newGame(v.rules, v.seed)), v.position);
  }
});

test('a seed that is a safe number deals as its BigInt', () => {
  for (const v of deals.seeded) {
    const n = Number(v.seed);
    if (Number.isSafeInteger(n)) assert.equal(formatPosition(newGame(v.rules, n)), v.position);
  }
});

test('deals from pack orders, with and without a starter', () => {
  for (const v of deals.packs) {
    const state = deal(v.rules, v.pack0, v.pack1, { starter: v.starter });
    assert.equal(formatPosition(state), v.position);
  }
});

test('bad pack orders are refused as in Python (the error class)', () => {
  for (const v of deals.bad_packs) {
    const run = () => deal(null, v.pack0, v.pack1, { starter: v.starter });
    if (v.error) assert.throws(run, expected(v));
    else assert.equal(formatPosition(run()), v.position);
  }
});
