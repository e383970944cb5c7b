/**
 * Why a move is illegal: the refusal reasons of the checked apply, worded as the Python
 * library words them (crapette._laws.why_illegal and describe_illegal). The C core decides
 * what is legal; this module only explains a refusal, reading the state's fields, and the
 * shared vectors check its sentences against the Python library's for every move of the
 * table in many positions.
 * @module
 */
import * as engine from './engine.js';
import { CARD_TEXT } from './cards.js';
import { CrapetteError } from './errors.js';
import {
  FOUNDATION,
  HAND,
  OPP_RESERVE,
  OPP_WASTE,
  RESERVE,
  REVEAL,
  WASTE,
  Move,
} from './moves.js';
import { parseMove } from './notation.js';
import { repr } from './quote.js';
import { fitsFoundation, fitsHouse, fitsLoad, isRun, mostCards } from './state.js';

const LOAD_TARGETS = [OPP_RESERVE, OPP_WASTE];
const OWN_SOURCES = [RESERVE, HAND, WASTE];

const top = (pile) => pile[pile.length - 1];

/** A readable name of a move's source or target. */
export function pileName(pile) {
  const names = {
    [RESERVE]: 'your reserve',
    [HAND]: 'your turned hand card',
    [WASTE]: 'your waste',
    [FOUNDATION]: 'a foundation',
    [OPP_RESERVE]: "your opponent's reserve",
    [OPP_WASTE]: "your opponent's waste",
  };
  return names[pile] ?? `house ${pile + 1}`;
}

/** The available card at `source` for the player to act, or null. */
export function sourceCard(state, source) {
  const p = state.toAct;
  if (source === RESERVE) {
    const reserve = state.reserves[p];
    return reserve.length && state.reserveUp[p] > 0 ? top(reserve) : null;
  }
  if (source === HAND) return state.turned;
  if (source === WASTE) {
    const waste = state.wastes[p];
    return waste.length && state.rules.own_waste_playable ? top(waste) : null;
  }
  const house = state.houses[source];
  return house.length ? top(house) : null;
}

function label(state, move) {
  if (move.action === 'play') {
    let card = sourceCard(state, move.source);
    if (card !== null && move.source < 8 && move.count > 1) {
      const house = state.houses[move.source];
      if (move.count <= house.length) card = house[house.length - move.count];
    }
    if (card !== null) return `${move} (${CARD_TEXT[card]})`;
  }
  return String(move);
}

function buildingReason(state, move) {
  const p = state.toAct;
  const action = move.action;
  if (action === 'reveal') {
    if (!state.reserves[p].length) return 'your reserve is empty';
    if (state.reserveUp[p] > 0) return 'your reserve top is already face up';
    return null;
  }
  if (action === 'draw') {
    if (state.turned !== null) {
      return `a hand card (${CARD_TEXT[state.turned]}) is already turned: play or discard it`;
    }
    if (!state.hands[p].length && !state.wastes[p].length) {
      return 'your hand and waste are both empty (end your turn instead)';
    }
    return null;
  }
  if (action === 'discard') return state.turned !== null ? null : 'no hand card is turned';
  if (action === 'end') {
    if (state.turned !== null) return 'a hand card is turned: discard it to end your turn';
    if (state.hands[p].length || state.wastes[p].length) {
      return 'your turn ends only by a discard while your hand or waste has cards';
    }
    return null;
  }
  if (action !== 'play') return 'no Stop! decision is open';
  return playReason(state, move);
}

function bitLength(n) {
  return n ? Math.floor(Math.log2(n)) + 1 : 0;
}

function playReason(state, move) {
  const p = state.toAct;
  const rules = state.rules;
  const { source, target, count } = move;
  if (source === RESERVE && state.reserves[p].length && state.reserveUp[p] === 0) {
    return 'your reserve top is face down: reveal it first';
  }
  if (source === WASTE && !rules.own_waste_playable) {
    return 'your own waste is not available under these rules';
  }
  let card = sourceCard(state, source);
  if (card === null) return `${pileName(source)} has no card`;
  if (count > 1) {
    const house = state.houses[source];
    if (rules.group_moves === 'single') {
      return 'only single cards move under these rules (group_moves=single)';
    }
    if (count > house.length) return `house ${source + 1} holds only ${house.length} cards`;
    if (!isRun(house.slice(-count))) {
      return `the top ${count} cards of house ${source + 1} are not a descending run`;
    }
    card = house[house.length - count];
    if (rules.group_moves === 'supermove') {
      const free = state.houses.filter((pile, h) => !pile.length && h !== target).length;
      if (count > mostCards(rules, free)) {
        return (
          `${count} cards need ${bitLength(count) - 1} empty houses besides the` +
          ` destination; there are ${free}`
        );
      }
    }
  }
  if (target === FOUNDATION) {
    return fitsFoundation(state.foundations, card)
      ? null
      : `${CARD_TEXT[card]} does not fit on any foundation`;
  }
  if (target < 8) {
    const house = state.houses[target];
    if (!fitsHouse(house, card)) {
      return (
        `${CARD_TEXT[card]} cannot go on ${CARD_TEXT[top(house)]} in house ${target + 1}` +
        ' (houses build down in alternating colours)'
      );
    }
    return null;
  }
  if (rules.load_from === 'own' && !OWN_SOURCES.includes(source)) {
    return 'only your reserve, turned hand card and waste may load the opponent (load_from=own)';
  }
  const opp = 1 - p;
  const pile = target === OPP_RESERVE ? state.reserves[opp] : state.wastes[opp];
  if (!pile.length) return `${pileName(target)} is empty: nothing is loaded on an empty pile`;
  if (target === OPP_RESERVE && state.reserveUp[opp] === 0) {
    return "your opponent's reserve top is face down";
  }
  if (!fitsLoad(top(pile), card, rules.load_wrap)) {
    return (
      `${CARD_TEXT[card]} does not load on ${CARD_TEXT[top(pile)]}: same suit, one rank apart` +
      (rules.load_wrap ? ' (K and A adjacent)' : '')
    );
  }
  return null;
}

function foundationSources(state) {
  const out = [];
  for (const source of [RESERVE, HAND, WASTE, 0, 1, 2, 3, 4, 5, 6, 7]) {
    const card = sourceCard(state, source);
    if (card !== null && fitsFoundation(state.foundations, card)) out.push([source, card]);
  }
  return out;
}

/**
 * The priority rule a (building-legal) move breaks, or null: `{reason, remedy, kind}`
 * (crapette._laws.violation): kind 'reserve', 'foundation', 'order' or 'filling', and the
 * compulsory moves that were missed.
 */
export function violation(state, move) {
  const action = move.action;
  if (action === 'reveal' || action === 'stop' || action === 'pass') return null;
  const rules = state.rules;
  const toFoundation = action === 'play' && move.target === FOUNDATION;
  const found = foundationSources(state);
  const rToF = Move.play(RESERVE, FOUNDATION);
  if (rules.priority === 'pagat' && found.length && found[0][0] === RESERVE) {
    if (move !== rToF) {
      return {
        reason: `your reserve top ${CARD_TEXT[found[0][1]]} can go to a foundation: that comes first`,
        remedy: [rToF],
        kind: 'reserve',
      };
    }
    return null;
  }
  if (found.length && !toFoundation) {
    const names = found.map(([, card]) => CARD_TEXT[card]).join(', ');
    return {
      reason: `a foundation move (${names}) must be made before any other move`,
      remedy: [Move.play(found[0][0], FOUNDATION)],
      kind: 'foundation',
    };
  }
  if (rules.priority === 'serbian' && action === 'play' && LOAD_TARGETS.includes(move.target)) {
    const card = sourceCard(state, move.source);
    for (let h = 0; h < 8; h++) {
      const house = state.houses[h];
      if (house.length && fitsHouse(house, card)) {
        return {
          reason: `${CARD_TEXT[card]} can be built on house ${h + 1}: the tableau comes before loading the opponent`,
          remedy: [Move.play(move.source, h)],
          kind: 'order',
        };
      }
    }
  }
  const [rule, houses] = fillObligation(state);
  if (rule === 'before_hand' && action === 'draw') {
    const first = lowestBit(houses);
    return {
      reason: `house ${first + 1} is empty: fill the empty houses from your reserve before turning a hand card`,
      remedy: fill(state, first),
      kind: 'filling',
    };
  }
  if (rule === 'immediate' && !toFoundation) {
    const fills = action === 'play' && move.source === RESERVE && move.target >= 0 && move.target < 8;
    if (!(fills && (houses >> move.target) & 1)) {
      const first = lowestBit(houses);
      return {
        reason: `house ${first + 1} was emptied this turn: fill it from your reserve first`,
        remedy: fill(state, first),
        kind: 'filling',
      };
    }
  }
  return null;
}

function lowestBit(mask) {
  let i = 0;
  while (!((mask >> i) & 1)) i++;
  return i;
}

/** The house-filling rule as it binds the player to act: [rule, bitmask of houses]. */
export function fillObligation(state) {
  const rule = state.rules.house_filling;
  if (rule === 'none' || !state.reserves[state.toAct].length) return ['none', 0];
  if (rule === 'before_hand') {
    let empty = 0;
    state.houses.forEach((house, h) => {
      if (!house.length) empty |= 1 << h;
    });
    return empty ? ['before_hand', empty] : ['none', 0];
  }
  return state.emptied ? ['immediate', state.emptied] : ['none', 0];
}

function fill(state, house) {
  const move = Move.play(RESERVE, house);
  return state.reserveUp[state.toAct] === 0 ? [REVEAL, move] : [move];
}

/** Whether a house-to-house move recreates a layout already seen this turn. */
export function recreatesLayout(state, move) {
  if (move.action !== 'play' || move.source >= 8 || move.target >= 8) return false;
  const result = engine.applyIndex(state, move.index);
  return result !== null && result.effect === 2 && state.seen.has(result.key);
}

/**
 * Why `move` is not legal in `state`, or null when it is legal (a Move; a move text is
 * read as parseMove reads it, and a text that is not a move gets the reason it cannot be
 * read).
 */
export function whyIllegal(state, move) {
  if (typeof move === 'string') {
    try {
      parseMove(state, move);
    } catch (error) {
      if (!(error instanceof CrapetteError)) throw error;
      return error.message;
    }
    return null;
  }
  if (!(move instanceof Move)) return `${repr(move)} is not a Move`;
  if (engine.isOverOf(state)) return 'the deal is over';
  const stop = state.stop;
  if (stop !== null) {
    if (move.action === 'stop' || move.action === 'pass') return null;
    return `player ${state.toAct} must first decide on the Stop! call for ${stop.move}: call stop or pass`;
  }
  const reason = buildingReason(state, move);
  if (reason !== null) return reason;
  if (state.rules.stop === 'enforced') {
    const broken = violation(state, move);
    if (broken !== null) return broken.reason;
  }
  if (recreatesLayout(state, move)) {
    return 'it recreates a layout already seen this turn (no cycles within a turn)';
  }
  return null;
}

/** A full message for an illegal move: the move, its card, and why. */
export function describeIllegal(state, move) {
  const reason = whyIllegal(state, move) ?? 'it is not legal here';
  return `illegal move ${label(state, move)} for player ${state.toAct}: ${reason}`;
}
