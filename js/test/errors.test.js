import assert from 'node:assert/strict';
import { test } from 'node:test';

import { GameState, formatPosition, fromJson, parsePosition } from '../lib/index.js';
import { expected, vectors } from '../vectors/load.js';

const errors = vectors('errors');

test('positions that do not parse are refused as in Python (class, character position)', () => {
  for (const v of errors.positions) {
    if (v.error) assert.throws(() => parsePosition(v.text), expected(v), JSON.stringify(v.text));
    else assert.equal(formatPosition(parsePosition(v.text)), v.position);
  }
});

test('JSON documents that do not read are refused as in Python (class, character position)', () => {
  for (const v of errors.json) {
    if (v.error) {
      assert.throws(() => fromJson(v.text), expected(v), JSON.stringify(v.text));
    } else {
      const value = fromJson(v.text);
      assert.equal(value instanceof GameState ? formatPosition(value) : String(value), v.result);
    }
  }
});
