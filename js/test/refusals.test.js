// Refusals and errors as codes: the rules' reason of an illegal move (code and parameters,
// from the C core; English from the rule spec's templates) and the code of every other error
// of the package. The shared vectors compare the refusals with the Python library's on
// thousands of positions (games.test.js); this file checks what they cannot: the API.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  ALL_MOVES,
  DISCARD,
  DRAW,
  IllegalMoveError,
  InvalidPositionError,
  InvalidRulesError,
  Move,
  NotationError,
  REASONS,
  Ruleset,
  apply,
  fromJson,
  isLegal,
  legalMoves,
  formatPosition,
  newGame,
  observe,
  parseCard,
  parseMove,
  parsePosition,
  refusal,
  renderReason,
  toJson,
  whyIllegal,
} from '../lib/index.js';

function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

test('an illegal move is refused with its reason code, its parameters and the English', () => {
  const state = newGame('classic', 42);
  assert.deepEqual(refusal(state, DISCARD), { code: 'discard_none', params: {} });
  const error = thrown(() => apply(state, DISCARD));
  assert.ok(error instanceof IllegalMoveError);
  assert.equal(error.code, 'discard_none');
  assert.deepEqual(error.params, {});
  assert.equal(error.message, 'illegal move discard for player 0: no hand card is turned');
  let seed = 1;
  while (!isLegal(newGame('classic', seed), DRAW)) seed++;
  const drawn = apply(newGame('classic', seed), DRAW);
  const found = refusal(drawn, DRAW);
  assert.equal(found.code, 'draw_turned');
  assert.match(found.params.card, /^[A2-9TJQK][SHDCshdc]$/);
  assert.equal(renderReason(found), `a hand card (${found.params.card}) is already turned: play or discard it`);
  assert.equal(whyIllegal(drawn, DRAW), renderReason(found));
  for (const move of legalMoves(state)) assert.equal(refusal(state, move), null);
});

test('every move of the table is refused with a code of the spec, or is legal', () => {
  const codes = new Set(REASONS.map((r) => r.code));
  let state = newGame('pagat(group_moves=whole)', 7);
  const met = new Set();
  for (let n = 0; n < 300 && legalMoves(state).length; n++) {
    for (const move of ALL_MOVES) {
      const found = refusal(state, move);
      assert.equal(found === null, isLegal(state, move), String(move));
      if (found === null) continue;
      assert.ok(codes.has(found.code), found.code);
      const reason = REASONS.find((r) => r.code === found.code);
      assert.deepEqual(Object.keys(found.params), reason.params.map(([name]) => name));
      met.add(found.code);
    }
    const legal = legalMoves(state);
    state = apply(state, legal[(n * 7) % legal.length]);
  }
  assert.ok(met.size >= 12, [...met].join(' '));
});

test('renderReason writes each parameter by its type', () => {
  assert.equal(
    renderReason({ code: 'priority_foundation', params: { cards: ['2D', 'AS'] } }),
    'a foundation move (2D, AS) must be made before any other move',
  );
  assert.equal(renderReason({ code: 'no_card', params: { pile: 'T' } }), 'your turned hand card has no card');
  assert.equal(renderReason({ code: 'no_card', params: { pile: 'H3' } }), 'house 3 has no card');
  assert.equal(
    renderReason({ code: 'load_empty', params: { pile: 'OW' } }),
    "your opponent's waste is empty: nothing is loaded on an empty pile",
  );
  assert.equal(
    renderReason({ code: 'stop_pending', params: { player: 1, move: 'discard' } }),
    'player 1 must first decide on the Stop! call for discard: call stop or pass',
  );
  assert.throws(() => renderReason({ code: 'nope', params: {} }), TypeError);
});

test('a move text that names no move of the player has no reason code', () => {
  const state = newGame('classic', 42);
  const error = thrown(() => parseMove(state, 'R1-F'));
  assert.ok(error instanceof IllegalMoveError);
  assert.equal(error.code, null);
  assert.deepEqual(error.params, {});
  assert.match(error.message, /belongs to your opponent/);
  const rules = thrown(() => parseMove(state, 'discard'));
  assert.deepEqual([rules.code, rules.params], ['discard_none', {}]); // a move the rules refuse
});

test('refusal needs a GameState and a Move', () => {
  const state = newGame('classic', 42);
  assert.throws(() => refusal('state', DRAW), TypeError);
  assert.throws(() => refusal(state, 'draw'), TypeError);
  assert.throws(() => whyIllegal(state, 5), TypeError);
});

test('a view says which priority a legal move breaks under callable Stop! rules', () => {
  let state = newGame('pagat', 3);
  const priority = new Set(['priority_reserve', 'priority_foundation', 'priority_order', 'filling_before', 'filling_immediate']);
  const templates = REASONS.filter((r) => priority.has(r.code)).map((r) => r.template.split('{')[0]);
  let found = 0;
  for (let n = 0; n < 400 && legalMoves(state).length && found < 3; n++) {
    const view = observe(state, state.toAct);
    for (const move of legalMoves(state)) {
      const why = view.breaksPriority(move);
      if (why === null) continue;
      found++;
      assert.ok(templates.some((t) => why.startsWith(t) || why.includes(t.trim())), why);
      assert.notEqual(apply(state, move).stop, null); // the opponent may call Stop!
    }
    const legal = legalMoves(state);
    state = apply(state, legal[(n * 5) % legal.length]);
  }
  assert.ok(found > 0);
});

test('notation errors have a code and the character position', () => {
  const card = thrown(() => parseCard('7X'));
  assert.ok(card instanceof NotationError);
  assert.deepEqual([card.code, card.position, card.text], ['bad_card', 1, '7X']);
  const state = newGame('classic', 42);
  const move = thrown(() => parseMove(state, 'R-Q'));
  assert.deepEqual([move.code, move.position], ['bad_move', 2]);
  const position = thrown(() => parsePosition('classic 0'));
  assert.deepEqual([position.code, position.position], ['bad_position', 9]);
  const fields = formatPosition(state).split(' ');
  fields[6] = '-/-'; // the hands: 70 cards missing
  const impossible = thrown(() => parsePosition(fields.join(' ')));
  assert.ok(impossible instanceof InvalidPositionError);
  assert.equal(impossible.code, 'impossible_position');
});

test('JSON errors: not JSON (with the position), not a document, a bad field (with its path)', () => {
  const syntax = thrown(() => fromJson('{"a": }'));
  assert.deepEqual([syntax.code, syntax.position], ['bad_json', 6]);
  assert.ok(!/Expecting/.test(syntax.message), syntax.message); // not Python's json words
  const document = thrown(() => fromJson('{"format": "crapette", "version": true}'));
  assert.equal(document.code, 'bad_document');
  assert.match(document.message, /version true\b/); // JavaScript's words for values
  const doc = JSON.parse(toJson(newGame('classic', 1)));
  doc.state.to_act = 2;
  const bad = thrown(() => fromJson(JSON.stringify(doc)));
  assert.deepEqual([bad.code, bad.path, bad.position], ['bad_field', 'state.to_act', null]);
  doc.state.to_act = 0;
  delete doc.state.houses;
  assert.equal(thrown(() => fromJson(JSON.stringify(doc))).path, 'state.houses');
});

test('rules errors have a code', () => {
  const cases = [
    ['nope', 'unknown_preset'],
    ['classic(colour=1)', 'unknown_option'],
    ['classic(stop=never)', 'bad_value'],
    ['classic(move_cap=0)', 'bad_value'],
    ['classic(stop=undo', 'bad_syntax'],
    ['classic(stop)', 'bad_syntax'],
    ['classic(match_target=none, match_deals=none)', 'refused_combination'],
    [`classic(${'x'.repeat(1000)})`, 'too_long'],
  ];
  for (const [text, code] of cases) {
    const error = thrown(() => Ruleset.fromString(text));
    assert.ok(error instanceof InvalidRulesError, text);
    assert.equal(error.code, code, text);
  }
  assert.match(thrown(() => Ruleset.fromString('nope')).message, /"nope"/);
});

test('a Move is the only move object', () => {
  assert.ok(ALL_MOVES.every((m) => m instanceof Move));
});
