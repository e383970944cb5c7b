/**
 * The WebAssembly engine: loads crapette.wasm (the C core of the Python library compiled
 * with clang, native/crapette_core.c behind native/wasm_api.c) and calls it. Internal: the
 * other modules of the package are its only callers.
 *
 * The module's exchange area holds one ruleset, one state (with the state before a pending
 * Stop! decision and the layout keys seen this turn) and the results of the last call. A
 * state is 196 bytes (the C struct cr_state), copied in before a call and out after it.
 * @module
 */

import { CrapetteError, InvalidArgumentError, InvalidPositionError } from './errors.js';

const WASM_URL = new URL('./crapette.wasm', import.meta.url);

async function wasmBytes() {
  const node = typeof process !== 'undefined' && process.versions && process.versions.node;
  if (node && WASM_URL.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(WASM_URL);
  }
  const response = await fetch(WASM_URL);
  if (!response.ok) {
    throw new Error(`crapette: cannot load ${WASM_URL} (HTTP ${response.status})`);
  }
  return response.arrayBuffer();
}

const { instance } = await WebAssembly.instantiate(await wasmBytes(), {});
const x = instance.exports;

/** The size of a state in bytes, and the offsets of its fields (cr_state). */
export const STATE_BYTES = 196;
export const OFF_LEN = 156;
export const OFF_TURNED = 180;
export const OFF_TO_ACT = 181;
export const OFF_RESERVE_UP = 182;
export const OFF_PASSES = 184;
export const OFF_EMPTIED = 186;
export const OFF_CALLS = 187;
export const OFF_STOP = 188;
export const OFF_FAULT = 190;
export const OFF_MOVES_MADE = 192;
export const NO_CARD = 0xff;
export const NMOVES = x.wa_nmoves();

const P_RULES = x.wa_rules();
const P_STATE = x.wa_state();
const P_PRIOR = x.wa_prior();
const P_OUT = x.wa_out();
const P_MOVES = x.wa_moves();
const P_SCORES = x.wa_scores();
const P_IO = x.wa_io();
const P_RESULT = x.wa_result();
const P_PACKS = x.wa_packs();
const P_PARAMS = x.wa_params();

let buffer = null;
let u8 = null;
let dv = null;

function views() {
  if (x.memory.buffer !== buffer) {
    buffer = x.memory.buffer;
    u8 = new Uint8Array(buffer);
    dv = new DataView(buffer);
  }
}
views();

const u64 = (value) => BigInt.asUintN(64, value);
const ioAt = (i) => dv.getBigInt64(P_IO + 8 * i, true);

// --- rules --------------------------------------------------------------------------

const rulesBytes = new WeakMap();

/** The bytes of the C struct cr_rules of a ruleset: its option codes, one int64 each. */
function encodeRules(rules) {
  let bytes = rulesBytes.get(rules);
  if (bytes) return bytes;
  bytes = new Uint8Array(new BigInt64Array(rules.codes.map(BigInt)).buffer);
  rulesBytes.set(rules, bytes);
  return bytes;
}

let loadedRules = null;
let loadedState = null;
let loadedKeys = 0;
let loadedCurrent = 0n;

function setRules(rules) {
  if (loadedRules !== rules) {
    u8.set(encodeRules(rules), P_RULES);
    loadedRules = rules;
  }
}

/**
 * Copy a position into the exchange area: a GameState's ruleset, its 140 bytes
 * (`_bytes`), the state before its pending Stop! (`_prior`, or null), the layout keys
 * seen this turn (`_keys`, a BigUint64Array, or null when only the current layout was)
 * and its layout key when known (`_current`, or null). The core checks the bytes
 * (cr_state_check) before any entry point reads them: bytes changed behind the state's
 * back are refused, never read out of bounds.
 */
function load(core) {
  setRules(core.rules);
  if (loadedState === core) return;
  loadedState = null;
  if (!(core._bytes instanceof Uint8Array) || core._bytes.length !== STATE_BYTES) {
    throw new InvalidPositionError('crapette: a state holds 140 bytes');
  }
  u8.set(core._bytes, P_STATE);
  if (x.wa_check() !== 0) throw new InvalidPositionError('crapette: the bytes of this state were changed');
  if (core._prior) u8.set(core._prior._bytes, P_PRIOR);
  const keys = core._keys;
  loadedKeys = keys ? keys.length : 0;
  if (keys) {
    const at = x.wa_seen_keys(keys.length);
    if (!at) throw new CrapetteError('crapette: out of memory for the layouts seen');
    views();
    new BigUint64Array(buffer, at, keys.length).set(keys);
  }
  loadedCurrent = keys ? (core._current ?? u64(x.wa_houses_key())) : 0n;
  loadedState = core;
}

/** Forget what the exchange area holds (after writing a state by other means). */
function unload() {
  loadedState = null;
}

// --- the rules on a state -------------------------------------------------------------

/** The indexes of the legal moves. */
export function legalIndexes(core) {
  load(core);
  const n = x.wa_legal_moves(loadedKeys, loadedCurrent);
  if (n < 0) throw new CrapetteError('crapette: the layouts seen were not loaded');
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = dv.getUint16(P_MOVES + 2 * i, true);
  return out;
}

/** Whether the move of this index is legal. */
export function isLegalIndex(core, move) {
  load(core);
  return x.wa_is_legal(loadedKeys, loadedCurrent, move) !== 0;
}

/**
 * Play a move (trusted): returns null when it cannot be made at all, else
 * `{bytes, effect, key}` (effect 0: the layouts seen are cleared, 1: kept, 2: `key` added).
 */
export function applyIndex(core, move) {
  load(core);
  const known = core._keys ? 1 : 0;
  const effect = x.wa_apply(move, core._prior ? 1 : 0, known, loadedCurrent);
  if (effect < 0) return null;
  const key = effect === 2 ? u64(ioAt(0)) : 0n;
  return { bytes: u8.slice(P_OUT, P_OUT + STATE_BYTES), effect, key };
}

/**
 * Why the move of this index is illegal (cr_why_illegal; onlyPriority: the priority rule
 * it breaks whatever the Stop! rule, cr_violation_reason): `{code, raw}`, the reason's
 * number (0: legal; REASONS[code - 1] of spec.js) and its parameters as integers.
 */
export function whyIllegalIndex(core, move, onlyPriority) {
  load(core);
  const code = x.wa_why_illegal(loadedKeys, loadedCurrent, move, onlyPriority ? 1 : 0);
  if (code < 0) throw new InvalidArgumentError(`crapette: not a move of the table: ${move}`);
  const n = Number(ioAt(0));
  return { code, raw: Array.from(new Int32Array(buffer, P_PARAMS, n)) };
}

/** The violation kind (0 none, 1 reserve, 2 foundation, 3 order, 4 filling) and remedy. */
export function violationOf(core, move) {
  load(core);
  const kind = x.wa_violation(move);
  const n = Number(ioAt(0));
  return { kind, remedy: [Number(ioAt(1)), Number(ioAt(2))].slice(0, n) };
}

const REASONS = [null, 'win', 'stalemate', 'move_cap'];

/** null while the deal runs, else {winner, scores, reason}. */
export function outcomeOf(core) {
  load(core);
  const reason = x.wa_outcome();
  if (!reason) return null;
  const winner = Number(ioAt(0));
  return {
    winner: winner < 0 ? null : winner,
    scores: [Number(ioAt(1)), Number(ioAt(2))],
    reason: REASONS[reason],
  };
}

export function winnerOf(core) {
  load(core);
  const w = x.wa_winner();
  return w < 0 ? null : w;
}

export function isOverOf(core) {
  load(core);
  return x.wa_is_over() !== 0;
}

export function countsOf(core) {
  load(core);
  x.wa_counts();
  return [Number(ioAt(0)), Number(ioAt(1))];
}

/** The layout key of the houses of a state's bytes. */
export function housesKeyOf(rules, bytes) {
  unload();
  setRules(rules);
  u8.set(bytes, P_STATE);
  return u64(x.wa_houses_key());
}

/** Why the bytes cannot be a state the core may read (0: they can). */
export function checkBytes(bytes) {
  unload();
  u8.set(bytes, P_STATE);
  return x.wa_check();
}

// --- dealing ----------------------------------------------------------------------------

/** The bytes of the deal of a seed (a BigInt, taken modulo 2**64). */
export function newGameBytes(rules, seed) {
  unload();
  setRules(rules);
  if (x.wa_new_game(u64(seed)) !== 0) throw new InvalidArgumentError(`crapette: rules the core cannot deal: ${rules}`);
  return u8.slice(P_STATE, P_STATE + STATE_BYTES);
}

/** The bytes of the deal of two pack orders (52 card indexes each); starter -1 applies
 *  the first-player rule. */
export function dealBytes(rules, pack0, pack1, starter) {
  unload();
  setRules(rules);
  if (pack0.length !== pack1.length || 2 * pack0.length > OFF_LEN) {
    throw new InvalidPositionError('crapette: each pack must hold its player\'s cards once');
  }
  u8.set(pack0, P_PACKS);
  u8.set(pack1, P_PACKS + pack0.length);
  if (x.wa_deal(starter) !== 0) {
    throw new InvalidPositionError('crapette: each pack must hold its player\'s cards once');
  }
  return u8.slice(P_STATE, P_STATE + STATE_BYTES);
}

// --- the greedy bot and whole deals ---------------------------------------------------

/** Copy move indexes into the module's move buffer (NMOVES entries): a longer list is
 *  refused before anything is written. */
function setMoves(moves) {
  if (moves.length > NMOVES) {
    throw new InvalidArgumentError(`moves must hold at most ${NMOVES} moves (each legal), not ${moves.length}`);
  }
  const out = new Uint16Array(buffer, P_MOVES, moves.length);
  for (let i = 0; i < moves.length; i++) out[i] = moves[i];
}

/** The greedy scores of moves (indexes): `{scores}`, or `{illegal: i}` for the first move
 *  that is not legal in the state (the core checks every move before it ranks any). */
export function greedyScoresOf(core, moves) {
  load(core);
  setMoves(moves);
  const bad = x.wa_greedy_scores(moves.length, loadedKeys, loadedCurrent);
  if (bad === -2) throw new InvalidArgumentError(`moves must hold at most ${NMOVES} moves, not ${moves.length}`);
  if (bad >= 0) return { illegal: bad };
  return { scores: Array.from(new Int32Array(buffer, P_SCORES, moves.length)) };
}

/** The greedy bot's move among moves (indexes) and the generator state after it:
 *  `{move, rng}`, or `{illegal: i}` for the first move that is not legal in the state. */
export function greedyMoveOf(core, moves, rng) {
  load(core);
  setMoves(moves);
  const move = x.wa_greedy_move(moves.length, u64(rng), loadedKeys, loadedCurrent);
  if (move === -1) throw new InvalidArgumentError('the greedy bot needs a legal move to choose from: moves is empty');
  if (move === -2) throw new InvalidArgumentError(`moves must hold at most ${NMOVES} moves, not ${moves.length}`);
  if (move < -2) return { illegal: -3 - move };
  return { move, rng: u64(ioAt(0)) };
}

/** A uniform value below n and the generator state after it (crapette.deal.Rng.below). */
export function rngBelow(rng, n) {
  const bound = BigInt(n);
  if (bound <= 0n || bound >= 1n << 64n) throw new InvalidArgumentError(`rngBelow() needs a bound from 1 to 2**64 - 1, not ${n}`);
  const value = x.wa_rng_below(u64(rng), bound);
  return { value: u64(value), rng: u64(ioAt(0)) };
}

/** Play one deal to its end in the core (the batch entry point). */
export function playDealRaw(rules, seed, policies, rngs, record) {
  unload();
  setRules(rules);
  let at = 0;
  if (record > 0) {
    at = x.wa_record(BigInt(record));
    if (!at) throw new CrapetteError('crapette: out of memory for the record');
  }
  const err = x.wa_play_deal(1, u64(seed), policies[0], policies[1], u64(rngs[0]), u64(rngs[1]), BigInt(record));
  views();
  if (err === -1) throw new CrapetteError('crapette: out of memory for the layouts seen');
  if (err === -3) throw new InvalidArgumentError(`crapette: rules the core cannot deal: ${rules}`);
  if (err) throw new CrapetteError('crapette: a deal could not apply a move');
  const r = new BigInt64Array(buffer, P_RESULT, 9);
  const winner = Number(r[1]);
  const moves = Number(r[6]);
  return {
    starter: Number(r[0]),
    winner: winner < 0 ? null : winner,
    reason: REASONS[Number(r[2])],
    turns: Number(r[3]),
    scores: [Number(r[4]), Number(r[5])],
    moves,
    violations: Number(r[7]),
    calls: Number(r[8]),
    record: record > 0 ? Array.from(new Uint16Array(buffer, at, Math.min(moves, record))) : null,
  };
}

/** Play `count` random deals in one call (the benchmark): the plies played. */
export function playRandomBatch(rules, seed, rng0, rng1, count) {
  unload();
  setRules(rules);
  const plies = x.wa_play_random(u64(seed), u64(rng0), u64(rng1), count);
  views();
  if (plies < 0n) throw new CrapetteError('crapette: out of memory for the layouts seen');
  return Number(plies);
}
