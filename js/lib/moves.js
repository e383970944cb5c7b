/**
 * Moves: what a player can do, as frozen values from one fixed table, the same table as
 * the Python library's crapette.moves.ALL_MOVES (the same order, so a move's index is the
 * same number in both libraries and in the C core).
 *
 * A move is relative to the player to act: RESERVE is your reserve, OPP_WASTE your
 * opponent's waste. Houses are absolute: 0..3 are player 0's column, 4..7 player 1's; text
 * names them H1..H8.
 * @module
 */
import { InvalidMoveError, NotationError } from './errors.js';
import { quote, show } from './quote.js';

/** Source: your own reserve top. */
export const RESERVE = 8;
/** Source: your turned hand card. */
export const HAND = 9;
/** Source: your own waste top. */
export const WASTE = 10;
/** Target: a foundation (the engine picks the leftmost pile that takes the card). */
export const FOUNDATION = 11;
/** Target: loading your opponent's reserve. */
export const OPP_RESERVE = 12;
/** Target: loading your opponent's waste. */
export const OPP_WASTE = 13;

/** The kinds of move, in table order (crapette.moves.Action values). */
export const ACTIONS = Object.freeze(['play', 'reveal', 'draw', 'discard', 'end', 'stop', 'pass', 'flip']);

/** The longest group of the standard pack (a King down to an Ace). */
export const STANDARD_GROUP = 13;
/** The longest group of any pack (tarot78's trumps 21 down to the Excuse). */
export const MAX_GROUP = 22;
/** The moves of the standard pack without turn_end=flip: ALL_MOVES.slice(0, 791). */
export const STANDARD_MOVES = 791;

const HOUSES = [0, 1, 2, 3, 4, 5, 6, 7];
const SOURCES = [RESERVE, HAND, WASTE, ...HOUSES];
const TARGETS = [FOUNDATION, ...HOUSES, OPP_RESERVE, OPP_WASTE];
const SOURCE_TEXT = { [RESERVE]: 'R', [HAND]: 'T', [WASTE]: 'W' };
const TARGET_TEXT = { [FOUNDATION]: 'F', [OPP_RESERVE]: 'OR', [OPP_WASTE]: 'OW' };
for (const h of HOUSES) {
  SOURCE_TEXT[h] = `H${h + 1}`;
  TARGET_TEXT[h] = `H${h + 1}`;
}

let tableReady = false;

/**
 * One move: `action` ('play', 'reveal', 'draw', 'discard', 'end', 'stop', 'pass', 'flip'),
 * `source` and `target` (pile codes; -1 for a move that is not a play), `count` (cards
 * moved, more than one only from house to house) and `index` (its place in ALL_MOVES).
 * Every move is one object of the table: compare moves with ===. Its text (toString()) is
 * the move notation: R-F, H2-H5x3, T-OW, draw.
 */
export class Move {
  constructor(action, source, target, count, index) {
    if (tableReady) throw new TypeError('moves are the objects of ALL_MOVES: use Move.play() or the constants');
    this.action = action;
    this.source = source;
    this.target = target;
    this.count = count;
    this.index = index;
    const text =
      action !== 'play'
        ? action
        : `${SOURCE_TEXT[source]}-${TARGET_TEXT[target]}${count > 1 ? `x${count}` : ''}`;
    Object.defineProperty(this, 'text', { value: text });
    Object.freeze(this);
  }

  /** Whether the move takes a card from a source to a target. */
  get isPlay() {
    return this.action === 'play';
  }

  /** The move notation (crapette.notation.format_move). */
  toString() {
    return this.text;
  }

  toJSON() {
    return this.text;
  }

  /** The move of `count` cards from `source` to `target`. */
  static play(source, target, count = 1) {
    const move = PLAY_INDEX.get(`${source},${target},${count}`);
    if (move === undefined) {
      throw new InvalidMoveError(
        `no such move: from ${show(source)} to ${show(target)} with ${show(count)} cards`,
      );
    }
    return move;
  }
}

function buildTable() {
  const moves = [];
  for (const source of SOURCES) {
    for (const target of TARGETS) {
      if (source === target) continue;
      const group = source < 8 && target < 8;
      for (let count = 1; count <= (group ? STANDARD_GROUP : 1); count++) {
        moves.push(new Move('play', source, target, count, moves.length));
      }
    }
  }
  for (const action of ACTIONS.slice(1)) moves.push(new Move(action, -1, -1, 1, moves.length));
  // the groups of 14 to 22 cards that only tarot packs make, by count, source and target
  for (let count = STANDARD_GROUP + 1; count <= MAX_GROUP; count++) {
    for (const source of HOUSES) {
      for (const target of HOUSES) {
        if (target !== source) moves.push(new Move('play', source, target, count, moves.length));
      }
    }
  }
  return Object.freeze(moves);
}

/** Every possible move, in the fixed order of legalMoves (crapette.moves.ALL_MOVES): card
 *  moves by source, target and count (groups of up to 13 cards), then reveal, draw,
 *  discard, end, stop, pass, then flip (turn_end=flip), then the groups of 14 to 22 cards
 *  of the tarot packs. A ruleset's moves are a prefix (Ruleset.action_count). */
export const ALL_MOVES = buildTable();
tableReady = true;

const PLAY_INDEX = new Map(
  ALL_MOVES.filter((m) => m.isPlay).map((m) => [`${m.source},${m.target},${m.count}`, m]),
);
const byAction = (action) => ALL_MOVES.find((m) => m.action === action);

/** Turn your face-down reserve top face up. */
export const REVEAL = byAction('reveal');
/** Turn the top card of your hand. */
export const DRAW = byAction('draw');
/** Put your turned hand card on your waste, ending your turn. */
export const DISCARD = byAction('discard');
/** End your turn (only with hand and waste both empty). */
export const END_TURN = byAction('end');
/** Turn your hand's top card face up onto your waste, ending your turn (turn_end=flip). */
export const FLIP = byAction('flip');
/** Call "Stop!" on the opponent's violation. */
export const CALL_STOP = byAction('stop');
/** Let the opponent's violation stand. */
export const LET_STAND = byAction('pass');

export const KEYWORDS = Object.freeze({
  draw: DRAW,
  discard: DISCARD,
  end: END_TURN,
  reveal: REVEAL,
  stop: CALL_STOP,
  pass: LET_STAND,
  flip: FLIP,
});

/** How many moves of ALL_MOVES a ruleset can make (a prefix of the table): 791 for the
 *  standard pack with discards, one more with flip or a tarot pack, and 56 more for each
 *  group size above 13 the pack's runs reach (`most`: 13, 14, 21 or 22). */
export function actionCount(most, flip) {
  if (most <= STANDARD_GROUP && !flip) return STANDARD_MOVES;
  return STANDARD_MOVES + 1 + 56 * (most - STANDARD_GROUP);
}

const BY_TEXT = new Map(ALL_MOVES.map((m) => [m.text, m]));

/** The white space the text formats allow: space, tab, carriage return, line feed. */
export const WHITESPACE = ' \t\r\n';

export function stripWhitespace(text) {
  let a = 0;
  let b = text.length;
  while (a < b && WHITESPACE.includes(text[a])) a++;
  while (b > a && WHITESPACE.includes(text[b - 1])) b--;
  return text.slice(a, b);
}

/** The move written in its relative form (R-OR, H2-H5x3, draw), with no position needed
 *  (crapette.notation.move_from_text). */
export function moveFromText(text) {
  let move = BY_TEXT.get(text);
  if (move === undefined && /^[\x00-\x7f]*$/.test(text)) {
    const body = stripWhitespace(text);
    const word = body.toLowerCase();
    move =
      BY_TEXT.get(body.toUpperCase().replaceAll('X', 'x')) ??
      (Object.hasOwn(KEYWORDS, word) ? KEYWORDS[word] : undefined);
  }
  if (move === undefined) {
    throw new NotationError(`${quote(text)} is not a move in relative form (R-F, T-H3, H2-H5x3, R-OR, draw, flip, ...)`, {
      code: 'bad_move',
      text,
      position: 0,
    });
  }
  return move;
}

/** The move with this index of ALL_MOVES. */
export function moveAt(index) {
  const move = ALL_MOVES[index];
  if (!Number.isInteger(index) || move === undefined) {
    throw new InvalidMoveError(`no such move: index ${show(index)} (a move index is 0..${ALL_MOVES.length - 1})`);
  }
  return move;
}
