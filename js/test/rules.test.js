import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PRESETS, Ruleset, fromJson, parseRules, toJson } from '../lib/index.js';
import { expected, vectors } from '../vectors/load.js';

const rules = vectors('rules');

test('presets: canonical strings and JSON documents', () => {
  assert.deepEqual(Object.keys(PRESETS), Object.keys(rules.presets));
  for (const [name, v] of Object.entries(rules.presets)) {
    const r = Ruleset.preset(name);
    assert.equal(String(r), v.string);
    assert.equal(toJson(r), v.json);
    assert.ok(fromJson(v.json).equals(r));
  }
});

test('random rulesets: canonical strings round-trip, JSON byte for byte', () => {
  for (const v of rules.random) {
    const r = parseRules(v.string);
    assert.equal(String(r), v.string);
    assert.equal(toJson(r), v.json);
    assert.equal(toJson(r, { indent: 2 }), v.json2);
    assert.equal(String(fromJson(v.json)), v.string);
  }
});

test('rules strings parse as in Python, or are refused as there (the error class)', () => {
  for (const v of rules.strings) {
    if (v.error) {
      assert.throws(() => Ruleset.fromString(v.text), expected(v), JSON.stringify(v.text));
    } else {
      assert.equal(String(Ruleset.fromString(v.text)), v.canonical, v.text);
    }
  }
});
