// Type declarations of `require('crapette')` (lib/index.cjs): one function, load(), whose
// promise resolves to the ES module with every export of `import ... from 'crapette'`
// (declared in lib/api.d.cts).
import type * as crapette from './api.cjs';

/** The package's ES module, loaded (once; every call resolves to the same object). */
export declare function load(): Promise<typeof crapette>;
