// Type declarations of `import ... from 'crapette'` (lib/index.js): every export, declared
// in lib/api.d.cts (shared with the CommonJS entry, lib/index.d.cts).
export * from './api.cjs';
