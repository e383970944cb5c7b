import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  ALL_MOVES,
  GreedyBot,
  apply,
  applyUnchecked,
  formatPosition,
  formatPublicPosition,
  fromJson,
  greedyScores,
  legalMoves,
  newGame,
  observe,
  outcome,
  parseMove,
  parsePosition,
  toJson,
  whyIllegal,
} from '../lib/index.js';
import { expected, vectors } from '../vectors/load.js';

const data = vectors('games');
const { games } = data;

function checkpoint(state, cp, where) {
  assert.equal(formatPosition(state), cp.position, `${where}: position`);
  assert.deepEqual(outcome(state), cp.outcome, `${where}: outcome`);
  const back = parsePosition(cp.position);
  assert.ok(back.equals(state), `${where}: parsePosition gives the state back`);
  if (cp.views) {
    assert.equal(observe(state, 0).toString(), cp.views[0], `${where}: view of player 0`);
    assert.equal(observe(state, 1).toString(), cp.views[1], `${where}: view of player 1`);
  }
  if (cp.public) assert.equal(formatPublicPosition(state, 0), cp.public, `${where}: public position`);
  if (cp.json) {
    const indent = cp.json.includes('\n') ? 2 : null;
    assert.equal(toJson(state, { indent }), cp.json, `${where}: JSON`);
    assert.ok(fromJson(cp.json).equals(state), `${where}: fromJson gives the state back`);
  }
  for (const [index, message, unchecked] of cp.refusals ?? []) {
    assert.throws(() => apply(state, ALL_MOVES[index]), { name: 'IllegalMoveError', message }, where);
    if (unchecked) assert.equal(formatPosition(applyUnchecked(state, ALL_MOVES[index])), unchecked, where);
  }
  for (const [reason, moves] of Object.entries(cp.reasons ?? {})) {
    for (const index of moves) {
      assert.equal(whyIllegal(state, ALL_MOVES[index]), reason || null, `${where}: ${ALL_MOVES[index]}`);
    }
  }
  for (const t of cp.texts ?? []) {
    if (t.error) {
      assert.throws(() => parseMove(state, t.text), expected(t), `${where}: ${JSON.stringify(t.text)}`);
    } else {
      assert.equal(parseMove(state, t.text).index, t.move, `${where}: ${JSON.stringify(t.text)}`);
    }
  }
  if (cp.greedy) {
    const view = observe(state, state.toAct);
    assert.equal(new GreedyBot(cp.greedy.seed).choose(view).index, cp.greedy.move, `${where}: greedy move`);
    assert.equal(new GreedyBot(cp.greedy.seed).choose(state).index, cp.greedy.move, `${where}: greedy on the state`);
    assert.deepEqual(greedyScores(state, legalMoves(state)), cp.greedy.scores, `${where}: greedy scores`);
  }
}

for (const game of games) {
  test(`${game.kind} deal ${game.seed} of ${game.rules}: every legal move list, state and checkpoint`, () => {
    let state = newGame(game.rules, BigInt(game.seed));
    for (let n = 0; ; n++) {
      const where = `${game.rules} seed ${game.seed} after ${n} moves`;
      const cp = game.checkpoints[String(n)];
      if (cp) checkpoint(state, cp, where);
      if (n === game.plies.length) break;
      const ply = game.plies[n];
      const sep = ply.indexOf(-1);
      assert.deepEqual(legalMoves(state).map((m) => m.index), ply.slice(0, sep), `${where}: legal moves`);
      state = apply(state, ALL_MOVES[ply[sep + 1]]);
    }
    assert.equal(formatPosition(state), game.final.position);
    assert.deepEqual(outcome(state), game.final.outcome);
  });
}

test('scenarios: every move\'s reason where a King-Ace load fits but a priority forbids it', () => {
  for (const sc of data.scenarios) {
    const state = parsePosition(sc.position);
    for (const [reason, moves] of Object.entries(sc.reasons)) {
      for (const index of moves) {
        assert.equal(whyIllegal(state, ALL_MOVES[index]), reason || null, `${sc.position}: ${ALL_MOVES[index]}`);
      }
    }
  }
});
