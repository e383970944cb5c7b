// The JavaScript side of the API: what the shared vectors cannot say (argument types,
// 64-bit values, immutability, the views' and bots' methods).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as lib from '../lib/index.js';

import {
  ALL_MOVES,
  DISCARD,
  DRAW,
  ENGINE,
  GameState,
  GreedyBot,
  IllegalMoveError,
  InvalidArgumentError,
  InvalidMoveError,
  InvalidPositionError,
  Move,
  NotationError,
  PRESETS,
  RESERVE,
  FOUNDATION,
  RandomBot,
  Ruleset,
  apply,
  applyUnchecked,
  formatPosition,
  formatPublicPosition,
  fromJson,
  isLegal,
  isOver,
  legalMoves,
  makeState,
  newGame,
  observe,
  outcome,
  parsePosition,
  playDeals,
  playRandomDeals,
  positionProblems,
  toJson,
  whyIllegal,
} from '../lib/index.js';

test('the engine is the WebAssembly build', () => {
  assert.equal(ENGINE, 'wasm');
});

test('seeds: BigInt, strings and safe numbers deal alike; taken modulo 2**64', () => {
  const a = formatPosition(newGame('classic', 12345n));
  assert.equal(formatPosition(newGame('classic', '12345')), a);
  assert.equal(formatPosition(newGame('classic', 12345)), a);
  assert.equal(formatPosition(newGame('classic', 12345n + (1n << 64n))), a);
  assert.equal(formatPosition(newGame('classic', -1n)), formatPosition(newGame('classic', (1n << 64n) - 1n)));
  assert.equal(formatPosition(newGame(null, 5)), formatPosition(newGame(PRESETS.classic, 5)));
});

test('seeds that are not integers, or numbers already rounded, are refused', () => {
  assert.throws(() => newGame('classic', 2 ** 60), InvalidArgumentError);
  assert.throws(() => newGame('classic', 1.5), TypeError);
  assert.throws(() => newGame('classic', '12a'), InvalidArgumentError);
  assert.throws(() => newGame('classic', {}), TypeError);
});

test('a deal without a seed is a random deal', () => {
  const state = newGame('serbian');
  assert.equal(state.cards().length, 104);
  assert.equal(positionProblems(fieldsOf(state)).length, 0);
});

function fieldsOf(s) {
  return {
    rules: s.rules,
    toAct: s.toAct,
    foundations: s.foundations,
    houses: s.houses,
    reserves: s.reserves,
    reserveUp: s.reserveUp,
    hands: s.hands,
    wastes: s.wastes,
    turned: s.turned,
    emptied: s.emptied,
    passes: s.passes,
    movesMade: s.movesMade,
    seen: s.seen,
  };
}

test('states are immutable values: apply returns a new one, equal by value', () => {
  const state = newGame('classic', 1);
  const before = formatPosition(state);
  const move = legalMoves(state)[0];
  const after = apply(state, move);
  assert.equal(formatPosition(state), before);
  assert.notEqual(after, state);
  assert.throws(() => {
    state.rules = null;
  }, TypeError);
  assert.ok(apply(state, move).equals(after));
  assert.ok(!after.equals(state));
  assert.ok(parsePosition(formatPosition(after)).equals(after));
  assert.throws(() => new GameState(), TypeError);
});

test('makeState builds a checked state from fields; positionProblems lists what is wrong', () => {
  const state = apply(newGame('classic', 3), legalMoves(newGame('classic', 3))[0]);
  assert.ok(makeState(fieldsOf(state)).equals(state));
  const bad = { ...fieldsOf(state), hands: [state.hands[0].slice(1), state.hands[1]] };
  assert.match(positionProblems(bad)[0], /^missing cards: /);
  assert.throws(() => makeState(bad), InvalidPositionError);
  assert.deepEqual(positionProblems({ ...fieldsOf(state), toAct: 2 }), ['to_act must be 0 or 1, not 2']);
});

test('layout keys are BigInts, never rounded', () => {
  let state = newGame('classic', 8);
  for (let i = 0; i < 60 && !isOver(state); i++) state = apply(state, new GreedyBot(i).choose(state));
  assert.equal(typeof state.housesKey, 'bigint');
  assert.ok(state.seen.has(state.housesKey));
  const doc = JSON.parse(toJson(state));
  for (const hex of doc.state.seen) assert.ok(state.seen.has(BigInt('0x' + hex)));
});

test('apply takes a Move or a move text, and refuses anything else', () => {
  const state = newGame('classic', 42);
  const [move] = legalMoves(state);
  assert.ok(apply(state, String(move)).equals(apply(state, move)));
  assert.throws(() => apply(state, move.index), TypeError);
  assert.throws(() => apply(state, 'R-Q'), NotationError);
  assert.throws(() => apply(state, DISCARD), IllegalMoveError);
  assert.throws(() => apply('state', move), TypeError);
  assert.equal(isLegal(state, move), true);
  assert.equal(isLegal(state, DRAW), false);
  assert.equal(whyIllegal(state, move), null);
  assert.equal(whyIllegal(state, 'discard'), 'illegal move discard for player 0: no hand card is turned');
  assert.throws(() => whyIllegal(state, 3), TypeError);
  assert.ok(applyUnchecked(state, move).equals(apply(state, move)));
});

test('moves are the objects of one table', () => {
  assert.equal(Move.play(RESERVE, FOUNDATION), ALL_MOVES[0]);
  assert.throws(() => Move.play(RESERVE, RESERVE), InvalidMoveError);
  assert.throws(() => new Move('play', 8, 11, 1, 0), TypeError);
  assert.equal(JSON.stringify(ALL_MOVES[0]), '"R-F"');
});

test('rulesets: read-only options, replace, equality', () => {
  const r = Ruleset.fromString('serbian(house_filling=immediate)');
  assert.equal(r.house_filling, 'immediate');
  assert.equal(r.hand_size, 36);
  assert.ok(r.callable_stop);
  assert.ok(r.equals(PRESETS.serbian.replace({ house_filling: 'immediate' })));
  assert.equal(String(new Ruleset({ stop: 'undo' })), 'pagat');
  assert.throws(() => {
    r.stop = 'undo';
  }, TypeError);
  assert.ok(fromJson(toJson(r)).equals(r));
});

test('views: what a player sees, its legal moves and its priority check', () => {
  const state = newGame('classic', 42);
  const view = observe(state, 1);
  assert.equal(view.player, 1);
  assert.deepEqual(view.legalMoves(), legalMoves(state));
  assert.equal(view.hiddenCards().length, 104 - view.visibleCards().length);
  assert.deepEqual(view.handSizes, [35, 35]);
  assert.equal(view.breaksPriority(legalMoves(state)[0]), null);
  assert.throws(() => observe(state, 2), { name: 'InvalidArgumentError', message: 'player must be 0 or 1, not 2' });
  assert.throws(() => formatPublicPosition(state, -1), InvalidArgumentError);
});

test('bots play a deal to its end; a finished deal has no move to choose', () => {
  let state = newGame('classic', 9);
  const bots = [new GreedyBot(1), new RandomBot(2)];
  while (!isOver(state)) state = apply(state, bots[state.toAct].choose(observe(state, state.toAct)));
  assert.notEqual(outcome(state), null);
  assert.equal(legalMoves(state).length, 0);
  assert.throws(() => bots[0].choose(state), InvalidArgumentError);
});

test('playDeals and playRandomDeals play inside the engine, the same deals every time', () => {
  const [a] = playDeals('classic', [{ seed: 1n, bots: ['greedy', 'greedy'], botSeeds: [3, 4] }], { record: true });
  const [b] = playDeals('classic', [{ seed: '1', bots: ['greedy', 'greedy'], botSeeds: ['3', 4n] }], { record: true });
  assert.deepEqual(a, { ...b, seed: 1n });
  let state = newGame('classic', 1);
  for (const move of a.record) state = apply(state, move);
  assert.deepEqual(outcome(state), { winner: a.winner, scores: a.scores, reason: a.reason });
  assert.throws(() => playDeals('classic', [{ seed: 1, bots: ['search', 'greedy'] }]), InvalidArgumentError);
  const plies = playRandomDeals('classic', 0, 3);
  assert.equal(plies, playRandomDeals('classic', 0, 3));
  assert.ok(plies > 100);
});

test('the TypeScript declarations declare every export, and nothing else', async () => {
  const { readFileSync } = await import('node:fs');
  const dts = readFileSync(new URL('../lib/api.d.cts', import.meta.url), 'utf8');
  const declared = new Set([...dts.matchAll(/^export (?:const|function|class) (\w+)/gm)].map((m) => m[1]));
  const runtime = new Set(Object.keys(await import('../lib/index.js')));
  assert.deepEqual([...declared].sort(), [...runtime].sort());
});

test('cards of the tarot packs: the Knight, the trumps, the Excuse, by pack kind', () => {
  const { PACKS, formatCard, parseCard, NotationError, InvalidArgumentError } = lib;
  assert.equal(PACKS.standard.count, 104);
  assert.deepEqual(
    ['tarot56', 'tarot77', 'tarot78'].map((k) => [PACKS[k].count, PACKS[k].foundations]),
    [[112, 8], [154, 10], [156, 10]],
  );
  const t77 = PACKS.tarot77;
  assert.equal(parseCard('NH', 'tarot77'), 14 + 11); // hearts: 14 ranks, the Knight is rank 12
  assert.equal(formatCard(25, 'tarot77', { symbol: true }), 'N♥');
  assert.equal(parseCard('1M', 'tarot77'), 56);
  assert.equal(parseCard('21m', 'tarot77'), 77 + 76);
  assert.equal(t77.symbol[parseCard('17M', 'tarot77')], '17★');
  assert.equal(parseCard('0M', 'tarot78'), 56);
  assert.ok(PACKS.tarot78.starter[56] && PACKS.tarot77.starter[56] && PACKS.tarot77.top[76]);
  assert.equal(parseCard('10h', 'tarot56'), 56 + 14 + 9);
  assert.throws(() => parseCard('0M', 'tarot77'), (e) => e instanceof NotationError && e.position === 0);
  assert.throws(() => parseCard('NH'), (e) => e instanceof NotationError && e.position === 0);
  assert.throws(() => parseCard('NX', 'tarot56'), (e) => e instanceof NotationError && e.position === 1);
  assert.throws(() => formatCard(104), InvalidArgumentError);
  assert.equal(formatCard(155, 'tarot78'), '21m');
  assert.throws(() => formatCard(0, 'tarot79'), InvalidArgumentError);
});

test('the flip move, the call window and the moves a ruleset can make', () => {
  const { ALL_MOVES, FLIP, PRESETS, Ruleset, newGame, legalMoves, formatPosition, parsePosition, toJson, fromJson } = lib;
  assert.equal(ALL_MOVES.length, 1296);
  assert.equal(FLIP.index, 791);
  assert.equal(String(FLIP), 'flip');
  assert.equal(PRESETS.classic.action_count, 791);
  assert.equal(Ruleset.fromString('classic(turn_end=flip, own_waste_playable=true)').action_count, 792);
  assert.equal(PRESETS.tarot.action_count, 792 + 56 * 8);
  const state = newGame('bobcrapette', 5n);
  assert.equal(state.foundations.length, 10);
  assert.ok(legalMoves(state).includes(FLIP));
  assert.ok(legalMoves(state).every((m) => m.index < state.rules.action_count));
  const line = formatPosition(state);
  assert.equal(line.split(' ').length, 15);
  assert.ok(parsePosition(line).equals(state));
  const doc = toJson(state);
  assert.match(doc, /"version": 3/);
  assert.ok(fromJson(doc).equals(state));
  assert.match(toJson(newGame('classic', 5n)), /"version": 2/);
});
