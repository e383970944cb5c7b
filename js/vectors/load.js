// The shared test vectors (js/vectors/*.json, written by js/vectors/gen_vectors.py with
// the Python library): every test file reads them through this helper.
import { readFileSync } from 'node:fs';

export function vectors(name) {
  return JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8'));
}

/**
 * A validation function for assert.throws: what a vector pins of an error, its class name;
 * for a notation error its character position (`at`); for an illegal move its reason code,
 * parameters and message (the rule spec's English, the same in both libraries). Other
 * messages are each library's own.
 */
export function expected(entry) {
  return (error) => {
    const what = `${error.name}: ${error.message}`;
    if (error.name !== entry.error) throw new Error(`expected ${entry.error}, got ${what}`);
    if ('at' in entry && error.position !== entry.at) {
      throw new Error(`expected the position ${entry.at}, got ${error.position} (${what})`);
    }
    if ('code' in entry) {
      if (error.code !== entry.code) throw new Error(`expected the code ${entry.code}, got ${error.code} (${what})`);
      const params = JSON.stringify(error.params ?? {});
      if (entry.params && params !== JSON.stringify(entry.params)) {
        throw new Error(`expected the parameters ${JSON.stringify(entry.params)}, got ${params}`);
      }
    }
    if ('message' in entry && error.message !== entry.message) {
      throw new Error(`expected the message ${JSON.stringify(entry.message)}, got ${JSON.stringify(error.message)}`);
    }
    return true;
  };
}
