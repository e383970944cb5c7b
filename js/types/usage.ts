// Compiled by `tsc -p js/tsconfig.json` (no output): the declarations of lib/index.d.ts
// describe the package as the README and docs/javascript.md use it.
import {
  GameState,
  GreedyBot,
  IllegalMoveError,
  Move,
  NotationError,
  Outcome,
  PlayerView,
  Rng,
  Ruleset,
  apply,
  formatPosition,
  fromJson,
  legalMoves,
  newGame,
  observe,
  outcome,
  parsePosition,
  playDeals,
  refusal,
  renderReason,
  toJson,
} from '../lib/index.js';
import type { Refusal } from '../lib/index.js';
import { FLIP, PACKS, formatCard, formatVersion } from '../lib/index.js';

const rules: Ruleset = Ruleset.fromString('serbian(house_filling=immediate)');
const cap: number = rules.move_cap;
let state: GameState = newGame(rules, 12345678901234567890n);
const moves0: Move[] = [...legalMoves(state)];
state = newGame('classic', '42');
const bot = new GreedyBot(7);
const rng = new Rng(1n);
while (outcome(state) === null) {
  const view: PlayerView = observe(state, state.toAct);
  const moves: Move[] = view.legalMoves();
  const move: Move = state.toAct === 0 ? bot.choose(view) : rng.choice(moves);
  state = apply(state, move);
}
const result: Outcome | null = outcome(state);
const key: bigint = state.housesKey;
const line: string = formatPosition(state);
const back: GameState = parsePosition(line);
const doc: string = toJson(back, { indent: 2 });
const read: GameState | Ruleset = fromJson(doc);
const below: number = rng.below(10);
const big: bigint = rng.below(10n);
try {
  apply(state, 'R-F');
} catch (error) {
  if (error instanceof IllegalMoveError && error.code === 'foundation') void error.params.card;
  if (error instanceof NotationError) void [error.code, error.position, error.path];
}
const found: Refusal | null = refusal(state, moves0[0]);
if (found !== null && found.code === 'house') {
  const where: number = found.params.house;
  const english: string = renderReason(found);
  void [where, english];
}
const [deal] = playDeals('classic', [{ seed: 1n, bots: ['greedy', 'random'], botSeeds: [1, 2] }], { record: true });
const recorded: Move[] | undefined = deal.record;
const tarot: GameState = newGame('bobcrapette', 7n);
const knight: string = formatCard(PACKS.tarot77.parse('NH'), tarot.rules.pack, { symbol: true });
const calls: [number, number] = tarot.falseCalls;
const faulty: boolean = tarot.fault !== null || tarot.window;
const table: number = tarot.rules.action_count;
const version: 2 | 3 = formatVersion(tarot.rules);
export const used = [cap, result, key, read, below, big, recorded, knight, calls, faulty, table, version, FLIP];
