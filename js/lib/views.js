/**
 * What one player can see: observe turns a GameState into a PlayerView (the Python
 * library's crapette.views.observe), with the same fields and the same one-line string
 * form (view/1). A view holds every face-up card, the number of face-down cards of each
 * reserve, the size of both hands, whose turn it is, the open Stop! decision and the public
 * counters; never the face-down cards.
 * @module
 */
import * as engine from './engine.js';
import { PACKS } from './cards.js';
import { IllegalMoveError, InvalidArgumentError } from './errors.js';
import { renderReason, violationRefusal } from './refusals.js';
import { ALL_MOVES, Move } from './moves.js';
import { show } from './quote.js';
import { GameState, packFields, stateOfFields } from './state.js';

/** The first word of PlayerView.toString() for rules with a call at the start of a turn
 *  (view/2 adds window, false_calls and fault); every other view is written view/1. */
export const VIEW_FORMAT = 'view/2';
const VIEW_FORMAT_1 = 'view/1';

/** Whether the rules call "Stop!" at the start of a turn (the view's window and fault). */
const calls = (rules) => rules.stop !== 'enforced' && rules.call_window === 'turn_start';

/** A Stop! decision or a fault in a view's string form ('-' for none). */
const pendingText = (s) =>
  s === null ? '-' : `${s.move} by ${s.offender} resume ${s.resume} prior [${s.prior.toString()}]`;

/** A Stop! decision or a fault of a state, as a view of player's shows it. */
function pendingView(pending, player) {
  if (pending === null) return null;
  return Object.freeze({
    move: pending.move,
    offender: pending.offender,
    resume: pending.resume,
    prior: observeState(pending.prior, player, null),
  });
}

const pileText = (pile, text) => (pile.length ? pile.map((c) => text[c]).join('') : '-');
const hex16 = (key) => key.toString(16).padStart(16, '0');
const byValue = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

let internal = false;

/**
 * What one player sees of a position (immutable). Fields: rules, player, toAct,
 * foundations, houses, reservesUp (the face-up cards at the top of each reserve),
 * reservesDown (the number of face-down cards below them), handSizes, wastes, turned,
 * stop (null or {move, offender, resume, prior: the view before the violation}), emptied,
 * seen (a Set of layout keys), passes, movesMade, housesKey, and the call window's window,
 * falseCalls and fault (the faulty turn end, in the form of stop, or null).
 */
export class PlayerView {
  constructor(fields, legal) {
    if (!internal) throw new TypeError('a PlayerView comes from observe(state, player)');
    Object.assign(this, fields);
    Object.defineProperty(this, '_legal', { value: legal });
    Object.freeze(this);
  }

  /** The player whose turn it is (differs from toAct during a Stop! decision). */
  get turnPlayer() {
    return this.stop !== null ? this.stop.resume : this.toAct;
  }

  /** The number of cards in each reserve, face up and face down. */
  get reserveSizes() {
    return [0, 1].map((p) => this.reservesDown[p] + this.reservesUp[p].length);
  }

  /** Every face-up card of the view. */
  visibleCards() {
    const out = [...this.foundations, ...this.houses, ...this.reservesUp, ...this.wastes].flat();
    if (this.turned !== null) out.push(this.turned);
    return out;
  }

  /** The cards this view does not show, in index order (the cards of the rules' pack, 104
   *  with the standard pack, less the visible ones). */
  hiddenCards() {
    const visible = new Set(this.visibleCards());
    const count = PACKS[this.rules.pack].count;
    return Array.from({ length: count }, (_, c) => c).filter((c) => !visible.has(c));
  }

  /** The legal moves of the player to act: those of any state this view was observed from
   *  (legal moves depend on visible information only). */
  legalMoves() {
    return this._legal.map((i) => ALL_MOVES[i]);
  }

  /** Why `move` (one of legalMoves()) breaks a priority rule, or null when it breaks none. */
  breaksPriority(move) {
    if (!(move instanceof Move)) throw new TypeError(`breaksPriority() needs a Move, not ${show(move)}`);
    const broken = violationRefusal(sketch(this), move);
    return broken === null ? null : renderReason(broken);
  }

  /** The stable one-line text form (crapette.views.PlayerView.to_string). */
  toString() {
    const text = PACKS[this.rules.pack].text;
    const pile = (cards) => pileText(cards, text);
    const withCalls = calls(this.rules);
    const fields = [
      withCalls ? VIEW_FORMAT : VIEW_FORMAT_1,
      this.rules.toString(),
      `player ${this.player}`,
      `to_act ${this.toAct}`,
      'F ' + this.foundations.map(pile).join(' '),
      'H ' + this.houses.map(pile).join(' '),
      `R0 ${this.reservesDown[0]}:${pile(this.reservesUp[0])}`,
      `R1 ${this.reservesDown[1]}:${pile(this.reservesUp[1])}`,
      `hands ${this.handSizes[0]} ${this.handSizes[1]}`,
      `W0 ${pile(this.wastes[0])}`,
      `W1 ${pile(this.wastes[1])}`,
      `T ${this.turned !== null ? text[this.turned] : '-'}`,
      `stop ${pendingText(this.stop)}`,
      `moves ${this.movesMade}`,
      `passes ${this.passes[0]}${this.passes[1]}`,
      `emptied ${this.emptied.toString(16).padStart(2, '0')}`,
      'seen ' + [...this.seen].sort(byValue).map(hex16).join(','),
    ];
    if (withCalls) {
      fields.push(
        `window ${this.window ? 1 : 0}`,
        `false_calls ${this.falseCalls[0]}${this.falseCalls[1]}`,
        `fault ${pendingText(this.fault)}`,
      );
    }
    return fields.join(' | ');
  }
}

function observeState(state, player, legal) {
  const stop = pendingView(state.stop, player);
  const [up0, up1] = state.reserveUp;
  const [r0, r1] = state.reserves;
  const fields = {
    rules: state.rules,
    player,
    toAct: state.toAct,
    foundations: state.foundations,
    houses: state.houses,
    reservesUp: [up0 ? r0.slice(r0.length - up0) : [], up1 ? r1.slice(r1.length - up1) : []],
    reservesDown: [r0.length - up0, r1.length - up1],
    handSizes: [state.hands[0].length, state.hands[1].length],
    wastes: state.wastes,
    turned: state.turned,
    stop,
    emptied: state.emptied,
    seen: state.seen,
    passes: state.passes,
    movesMade: state.movesMade,
    housesKey: state.housesKey,
    window: state.window,
    falseCalls: state.falseCalls,
    fault: pendingView(state.fault, player),
  };
  internal = true;
  try {
    return new PlayerView(fields, legal ?? engine.legalIndexes(state));
  } finally {
    internal = false;
  }
}

/**
 * What `player` (0 or 1) sees of `state`.
 * @throws {InvalidArgumentError} player is not 0 or 1.
 */
export function observe(state, player) {
  if (!(state instanceof GameState)) {
    throw new TypeError(`a GameState is needed, not ${show(state)}`);
  }
  if (player !== 0 && player !== 1) {
    throw new InvalidArgumentError(`player must be 0 or 1, not ${show(player)}`);
  }
  return observeState(state, player, null);
}

/**
 * A state with the view's visible cards where the hidden places hold placeholder cards
 * (crapette.views.sketch): not a valid deal, but what the bots rank moves on (they read
 * visible cards only). A pending Stop! decision is kept as its move, offender and resume.
 * Internal to the package.
 */
export function sketch(view) {
  const [d0, d1] = view.reservesDown;
  const [n0, n1] = view.handSizes;
  const pad = (n) => Array.from({ length: n }, (_, i) => i);
  const stop = view.stop;
  const bytes = packFields({
    rules: view.rules,
    toAct: view.toAct,
    foundations: view.foundations,
    houses: view.houses,
    reserves: [[...pad(d0), ...view.reservesUp[0]], [...pad(d1), ...view.reservesUp[1]]],
    reserveUp: [view.reservesUp[0].length, view.reservesUp[1].length],
    hands: [pad(n0), pad(n1)],
    wastes: view.wastes,
    turned: view.turned,
    emptied: view.emptied,
    passes: view.passes,
    movesMade: view.movesMade,
    stop: stop === null ? 0 : (stop.move.index + 1) | (stop.offender << 12) | (stop.resume << 13),
    window: view.window,
    falseCalls: view.falseCalls,
  });
  if (bytes === null) throw new IllegalMoveError('this view cannot be sketched');
  return stateOfFields(view.rules, bytes, view.seen);
}
