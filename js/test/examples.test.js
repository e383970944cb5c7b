// The examples of the documentation run: js/examples/play.js (docs/javascript.md) and the
// README's snippet (tests/test_javascript.py also compares the first with the same program
// written with the Python library).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

test('examples/play.js plays a deal to its end', () => {
  const out = execFileSync(process.execPath, [here('../examples/play.js')], { encoding: 'utf8' });
  const [summary, position] = out.trim().split('\n');
  assert.match(summary, /^(win|stalemate|move_cap) after \d+ moves: winner (0|1|null), scores \d+-\d+$/);
  assert.match(position, /^classic [01] /);
});

test("the README's example runs", () => {
  const readme = readFileSync(here('../README.md'), 'utf8');
  const code = readme.match(/```js\n([\s\S]*?)```/)[1];
  const file = here('../examples/.readme-example.js'); // inside the package: 'crapette' resolves
  writeFileSync(file, code);
  try {
    const out = execFileSync(process.execPath, [file], { encoding: 'utf8' });
    assert.match(out, /reason: '(win|stalemate|move_cap)'/);
  } finally {
    rmSync(file, { force: true });
  }
});
