// The examples of the documentation run: js/examples/play.js (docs/javascript.md; the
// Python test tests/test_javascript.py also compares it with the same program written with
// the Python library), and the README's two snippets (import and require) in a project
// made by `npm init -y`, the package installed there from `npm pack`.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

test('examples/play.js plays a deal to its end', () => {
  const out = execFileSync(process.execPath, [here('../examples/play.js')], { encoding: 'utf8' });
  const [summary, position] = out.trim().split('\n');
  assert.match(summary, /^(win|stalemate|move_cap) after \d+ moves: winner (0|1|null), scores \d+-\d+$/);
  assert.match(position, /^classic [01] /);
});

test("the README's examples run in a project made by npm init -y", () => {
  // the package as npm would install it (npm pack, then npm install of the tarball, offline)
  // into a default project: its .js files are CommonJS, as for most newcomers
  const project = mkdtempSync(join(tmpdir(), 'crapette-npm-init-'));
  const npm = (...args) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, encoding: 'utf8' });
  try {
    npm('init', '-y');
    const tarball = npm('pack', here('..'), '--pack-destination', project).trim().split('\n').at(-1);
    npm('install', '--offline', join(project, tarball));
    const { type } = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    assert.ok(type === undefined || type === 'commonjs', type); // (npm 11 writes "commonjs")
    const readme = readFileSync(here('../README.md'), 'utf8');
    const [esm, cjs] = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
    assert.match(esm, /^import /m);
    assert.match(cjs, /require\('crapette'\)/);
    writeFileSync(join(project, 'play.mjs'), esm); // as the README says: a .mjs file
    writeFileSync(join(project, 'play.js'), cjs); // a plain .js file: CommonJS
    for (const file of ['play.mjs', 'play.js']) {
      const out = execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8' });
      assert.match(out, /reason: '(win|stalemate|move_cap)'/, file);
    }
    // what the README warns of: the ES example in a plain .js file of that project fails
    writeFileSync(join(project, 'wrong.js'), esm);
    const run = spawnSync(process.execPath, ['wrong.js'], { cwd: project, encoding: 'utf8' });
    assert.notEqual(run.status, 0);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

test('require() gives load(), which resolves to the ES module, once', async () => {
  const require = createRequire(import.meta.url);
  const entry = require('../lib/index.cjs');
  assert.deepEqual(Object.keys(entry), ['load']);
  const [a, b] = await Promise.all([entry.load(), entry.load()]);
  assert.equal(a, b);
  assert.equal(a, await import('../lib/index.js'));
  assert.equal(a.ENGINE, 'wasm');
});
