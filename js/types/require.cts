// Compiled by `tsc -p js/tsconfig.json` (no output): the CommonJS entry's declarations
// (lib/index.d.cts) as js/README.md uses them from require().
import crapette = require('../lib/index.cjs');

export async function firstMoves(): Promise<string[]> {
  const { legalMoves, newGame } = await crapette.load();
  return legalMoves(newGame('classic', 42n)).map(String);
}
