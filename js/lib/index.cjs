'use strict';
/**
 * The CommonJS entry of crapette: what `require('crapette')` gives. The package is an ES
 * module that loads its WebAssembly engine with a top-level await, which `require()`
 * cannot wait for (Node refuses with ERR_REQUIRE_ASYNC_MODULE); so this entry holds one
 * function, `load()`, whose promise resolves to the ES module itself, with every export of
 * `import ... from 'crapette'` (and every function synchronous from then on):
 *
 *   const { load } = require('crapette');
 *   load().then(({ newGame, legalMoves }) => console.log(legalMoves(newGame('classic', 42n)).map(String)));
 *
 * The module is loaded once; every call of `load()` resolves to the same object.
 */
let loading = null;

/** @returns {Promise<typeof import('./index.js')>} the package's ES module, loaded. */
function load() {
  if (loading === null) loading = import('./index.js');
  return loading;
}

module.exports = { load };
