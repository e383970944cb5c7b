// The shared test vectors (js/vectors/*.json, written by js/vectors/gen_vectors.py with
// the Python library): every test file reads them through this helper.
import { readFileSync } from 'node:fs';

export function vectors(name) {
  return JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8'));
}

/** An assertion object for assert.throws: the error's class name and exact message. */
export function expected(entry) {
  return { name: entry.error, message: entry.message };
}
