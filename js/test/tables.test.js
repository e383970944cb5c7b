import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ALL_MOVES, BEHAVIOUR_VERSION, CARD_TEXT, JSON_VERSION, Move, Rng, moveFromText, parseCard } from '../lib/index.js';
import { vectors } from '../vectors/load.js';

const tables = vectors('tables');

test('the move table is the Python library\'s, in its order', () => {
  assert.deepEqual(ALL_MOVES.map(String), tables.moves);
  ALL_MOVES.forEach((m, i) => {
    assert.equal(m.index, i);
    assert.equal(moveFromText(String(m)), m);
    if (m.isPlay) assert.equal(Move.play(m.source, m.target, m.count), m);
  });
});

test('the card texts are the Python library\'s', () => {
  assert.deepEqual(CARD_TEXT, tables.cards);
  tables.cards.forEach((text, i) => assert.equal(parseCard(text), i));
});

test('the behaviour and JSON versions are the Python library\'s', () => {
  assert.equal(BEHAVIOUR_VERSION, tables.behaviour);
  assert.equal(JSON_VERSION, tables.json_version);
});

test('Rng is the Python library\'s SplitMix64: the same numbers from the same seed', () => {
  for (const v of tables.rng) {
    const rng = new Rng(BigInt(v.seed));
    assert.deepEqual(v.next64.map(() => rng.next64().toString()), v.next64);
    for (const [n, value] of v.below) assert.equal(rng.below(n), value);
    assert.equal(rng.random(), v.random);
  }
});
