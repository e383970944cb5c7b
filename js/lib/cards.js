/**
 * Cards: the 104 cards of the two packs as numbers 0..103,
 * `pack * 52 + suit * 13 + (rank - 1)` (suits spades, hearts, diamonds, clubs; ranks 1 Ace
 * to 13 King), written as in the Python library: rank then suit, the suit letter upper case
 * for pack 0 (`7H`) and lower case for pack 1 (`7h`).
 * @module
 */
import { InvalidArgumentError, NotationError } from './errors.js';
import { quote, show } from './quote.js';

/** Rank characters, index rank - 1. */
export const RANK_CHARS = 'A23456789TJQK';
/** Suit letters of pack 0 (pack 1 uses the lower-case letters), index suit. */
export const SUIT_CHARS = 'SHDC';

/** The text of every card, by index. */
export const CARD_TEXT = Object.freeze(
  Array.from({ length: 104 }, (_, i) => {
    const pack = Math.floor(i / 52);
    const suit = Math.floor((i % 52) / 13);
    const letter = SUIT_CHARS[suit];
    return RANK_CHARS[i % 13] + (pack === 0 ? letter : letter.toLowerCase());
  }),
);

const BY_TEXT = new Map(CARD_TEXT.map((t, i) => [t, i]));

/** The player (0 or 1) whose pack a card belongs to. */
export const cardPack = (card) => Math.floor(card / 52);
/** The suit of a card: 0 spades, 1 hearts, 2 diamonds, 3 clubs. */
export const cardSuit = (card) => Math.floor((card % 52) / 13);
/** The rank of a card: 1 (Ace) to 13 (King). */
export const cardRank = (card) => (card % 13) + 1;
/** Whether a card is red (hearts or diamonds). */
export const cardRed = (card) => cardSuit(card) === 1 || cardSuit(card) === 2;

function upperIs(ch, chars) {
  // Python's `ch.upper() in chars` for one character
  const up = ch.toUpperCase();
  return up.length > 0 && chars.includes(up);
}

/** Parse a card's short text ("7H", "Td", "10h"); throws NotationError. */
export function parseCard(text) {
  if (typeof text !== 'string') throw new TypeError(`a card text must be a string, not ${typeof text}`);
  const card = BY_TEXT.get(text);
  if (card !== undefined) return card;
  let body = text;
  if (body.startsWith('10')) body = 'T' + body.slice(2);
  const chars = Array.from(body);
  const suits = SUIT_CHARS + 'shdc';
  if (chars.length === 2 && upperIs(chars[0], RANK_CHARS) && suits.includes(chars[1])) {
    return BY_TEXT.get(chars[0].toUpperCase() + chars[1]);
  }
  if (!chars.length || !upperIs(chars[0], RANK_CHARS)) {
    throw new NotationError(`card ${quote(text, 0)}: expected a rank (${RANK_CHARS}) at 0`, {
      code: 'bad_card',
      text,
      position: 0,
    });
  }
  const shift = Array.from(text).length - chars.length;
  if (chars.length < 2 || !suits.includes(chars[1])) {
    throw new NotationError(
      `card ${quote(text, 1 + shift)}: expected a suit (SHDC for pack 0, shdc for pack 1) at ${1 + shift}`,
      { code: 'bad_card', text, position: 1 + shift },
    );
  }
  throw new NotationError(`card ${quote(text, 2 + shift)}: unexpected text at ${2 + shift}`, {
    code: 'bad_card',
    text,
    position: 2 + shift,
  });
}

/** The short text of a card ("7H", "7h"). */
export function formatCard(card) {
  if (!Number.isInteger(card)) throw new TypeError(`a card is an integer from 0 to 103, not ${show(card)}`);
  if (card < 0 || card >= 104) {
    throw new InvalidArgumentError(`no card has the index ${show(card)}: a card index is 0..103`);
  }
  return CARD_TEXT[card];
}
