/**
 * Cards: each player deals from a pack of their own, of the kind the `pack` option of the
 * rules names (the 52-card `standard` pack, or a tarot pack: `tarot56` adds a Knight to
 * each suit, `tarot77` the trumps 1..21 as a fifth family, `tarot78` the Excuse as trump
 * 0). A card is a number, its code in the pack kind of its game, as in the Python library
 * (crapette.cards):
 *
 *     pack * n + suit * r + (rank - 1)     a suit card
 *     pack * n + 4 * r + (rank - 1)        trump 1..21 of tarot77
 *     pack * n + 4 * r + rank              trump 0..21 of tarot78
 *
 * with `n` the cards of one pack (52, 56, 77 or 78), `r` the ranks of a suit (13, or 14
 * with the Knight), `pack` 0 or 1 (whose pack it is), suits spades, hearts, diamonds,
 * clubs. With the standard pack a card is `pack * 52 + suit * 13 + (rank - 1)`, 0..103.
 * Cards are written rank then suit, the suit letter upper case for pack 0 (`7H`) and lower
 * case for pack 1 (`7h`); the Knight is `N` (`NH`); a trump is its number then `M` or `m`
 * (`17M`, `17m`, the Excuse `0M`). The functions below read a card of the standard pack
 * unless they are given a pack kind (`PACKS[rules.pack]`, or its name).
 * @module
 */
import { InvalidArgumentError, NotationError } from './errors.js';
import { quote, show } from './quote.js';
import { PACKS as PACK_SPEC } from './spec.js';

/** Rank characters of the standard pack, index rank - 1. */
export const RANK_CHARS = 'A23456789TJQK';
/** Rank characters of a tarot pack's suits, index rank - 1 (N: the Knight). */
export const TAROT_RANK_CHARS = 'A23456789TJNQK';
/** Suit letters of pack 0 (pack 1 uses the lower-case letters), index suit. */
export const SUIT_CHARS = 'SHDC';
/** Suit symbols for people, index suit. */
export const SUIT_SYMBOLS = '♠♥♦♣';
/** The symbol of a trump in text for people (`17★`). */
export const TRUMP_SYMBOL = '★';
/** The family (suit) of the trumps. */
export const TRUMPS = 4;

const RANK_NAMES = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const TAROT_RANK_NAMES = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'N', 'Q', 'K'];
const TRUMP_TEXT = /^(0|[1-9][0-9]?)([Mm])$/;

/**
 * A kind of pack (the `pack` option): its cards' tables, indexed by card code. `name`,
 * `size` (cards in one player's pack), `ranks` (13, or 14 with the Knight), `trumps` (0,
 * 21 or 22), `foundations` (8, or 10 with the trumps), `count` (cards of both packs), and
 * per card `text`, `symbol`, `owner`, `suit` (4: trumps), `rank` (a trump's number), `red`,
 * `face` (the code with the owner forgotten), `starter` (an Ace, trump 1 or the Excuse)
 * and `top` (a King or trump 21).
 */
export class Pack {
  constructor(spec) {
    const ranks = spec.ranks ?? (spec.cards === 52 ? 13 : 14);
    const trumps = spec.cards - 4 * ranks;
    this.name = spec.name;
    this.size = spec.cards;
    this.ranks = ranks;
    this.trumps = trumps;
    this.foundations = spec.foundations;
    this.count = 2 * spec.cards;
    this.rankChars = ranks === 13 ? RANK_CHARS : TAROT_RANK_CHARS;
    const names = ranks === 13 ? RANK_NAMES : TAROT_RANK_NAMES;
    const low = trumps === 22 ? 0 : 1;
    const text = [];
    const symbol = [];
    const suit = [];
    const rank = [];
    for (let owner = 0; owner < 2; owner++) {
      for (let face = 0; face < spec.cards; face++) {
        const family = Math.floor(face / ranks);
        if (family < 4) {
          const letter = owner === 0 ? SUIT_CHARS[family] : SUIT_CHARS[family].toLowerCase();
          suit.push(family);
          rank.push((face % ranks) + 1);
          text.push(this.rankChars[face % ranks] + letter);
          symbol.push(names[face % ranks] + SUIT_SYMBOLS[family]);
        } else {
          const number = face - 4 * ranks + low;
          suit.push(TRUMPS);
          rank.push(number);
          text.push(`${number}${owner === 0 ? 'M' : 'm'}`);
          symbol.push(`${number}${TRUMP_SYMBOL}`);
        }
      }
    }
    const codes = Array.from({ length: this.count }, (_, c) => c);
    this.text = Object.freeze(text);
    this.symbol = Object.freeze(symbol);
    this.suit = Object.freeze(suit);
    this.rank = Object.freeze(rank);
    this.owner = Object.freeze(codes.map((c) => Math.floor(c / spec.cards)));
    this.face = Object.freeze(codes.map((c) => c % spec.cards));
    this.red = Object.freeze(suit.map((s) => s === 1 || s === 2));
    this.starter = Object.freeze(codes.map((c) => rank[c] === (suit[c] === TRUMPS ? low : 1)));
    this.top = Object.freeze(codes.map((c) => rank[c] === (suit[c] === TRUMPS ? 21 : ranks)));
    this._byText = new Map(text.map((t, c) => [t, c]));
    Object.freeze(this);
  }

  /** Whether `card` is a card code of this pack kind. */
  isCard(card) {
    return Number.isInteger(card) && card >= 0 && card < this.count;
  }

  /** The short text of a card ("7H", "NH", "17m"); throws on a code outside the pack. */
  format(card) {
    if (!Number.isInteger(card)) {
      throw new TypeError(`a card is an integer from 0 to ${this.count - 1}, not ${show(card)}`);
    }
    if (card < 0 || card >= this.count) {
      throw new InvalidArgumentError(
        `no card has the index ${show(card)}: a card index is 0..${this.count - 1}` +
          (this.name === 'standard' ? '' : ` in the ${this.name} pack`),
      );
    }
    return this.text[card];
  }

  /**
   * Parse a card's short text ("7H", "Td", "10h"; "NH" and "17M" in a tarot pack; the rank
   * letter in either case, the suit letter's case tells the pack).
   * @throws {NotationError} not a card of this pack, with the position of the bad character.
   */
  parse(text) {
    if (typeof text !== 'string') throw new TypeError(`a card text must be a string, not ${typeof text}`);
    const card = this._byText.get(text);
    if (card !== undefined) return card;
    const bad = (message, position) =>
      new NotationError(`card ${quote(text, position)}: ${message} at ${position}`, {
        code: 'bad_card',
        text,
        position,
      });
    const trump = TRUMP_TEXT.exec(text);
    if (trump !== null) {
      const number = Number(trump[1]);
      const low = this.trumps === 22 ? 0 : 1;
      if (!this.trumps || number < low || number > 21) {
        const where = !this.trumps
          ? 'the standard pack and tarot56 have no trumps'
          : number === 0
            ? 'the Excuse 0M is in tarot78 only'
            : 'trumps are 1..21';
        throw bad(`no such trump in the ${this.name} pack (${where})`, 0);
      }
      const owner = trump[2] === 'M' ? 0 : 1;
      return owner * this.size + 4 * this.ranks + number - low;
    }
    const chars = this.rankChars;
    const upperIn = (ch) => ch !== undefined && ch.toUpperCase().length > 0 && chars.includes(ch.toUpperCase());
    let body = text;
    if (body.startsWith('10')) body = 'T' + body.slice(2);
    const cps = Array.from(body);
    const suits = SUIT_CHARS + 'shdc';
    if (cps.length === 2 && upperIn(cps[0]) && suits.includes(cps[1])) {
      return this._byText.get(cps[0].toUpperCase() + cps[1]);
    }
    if (cps.length && /[0-9]/.test(cps[0]) && this.trumps && /[Mm]$/.test(text)) {
      throw bad('expected a trump number 1..21 (the Excuse 0M in tarot78) without leading zeros', 0);
    }
    if (!cps.length || !upperIn(cps[0])) {
      let what = `one of ${chars}` + (this.trumps ? ', or a trump number' : '');
      if (cps[0] === 'N' && this.ranks === 13) what += '; N, the Knight, is in tarot packs only';
      throw bad(`expected a rank (${what})`, 0);
    }
    const shift = Array.from(text).length - cps.length;
    if (cps.length < 2 || !suits.includes(cps[1])) {
      throw bad('expected a suit (SHDC for pack 0, shdc for pack 1)', 1 + shift);
    }
    throw bad('unexpected text', 2 + shift);
  }
}

/** Every kind of pack, by the value of the `pack` option, in the order of its values. */
export const PACKS = Object.freeze(Object.fromEntries(PACK_SPEC.map((spec) => [spec.name, new Pack(spec)])));

/** The 52-card pack. */
export const STANDARD = PACKS.standard;

/** The pack kind named `pack` (a name, a Pack, or null/undefined for the standard pack). */
export function packOf(pack) {
  if (pack === undefined || pack === null) return STANDARD;
  if (pack instanceof Pack) return pack;
  if (typeof pack === 'string' && Object.hasOwn(PACKS, pack)) return PACKS[pack];
  throw new InvalidArgumentError(`unknown pack ${show(pack)}: expected one of ${Object.keys(PACKS).join(', ')}`);
}

/** The text of every card of the standard pack, by index. */
export const CARD_TEXT = STANDARD.text;

/** The player (0 or 1) whose pack a card belongs to (`pack`: the pack kind, by default
 *  the standard pack). */
export const cardPack = (card, pack) => packOf(pack).owner[card];
/** The family of a card: 0 spades, 1 hearts, 2 diamonds, 3 clubs, 4 trumps. */
export const cardSuit = (card, pack) => packOf(pack).suit[card];
/** The rank of a card: 1 (Ace) to 13 (King; 14 with the Knight); a trump's number. */
export const cardRank = (card, pack) => packOf(pack).rank[card];
/** Whether a card is red (hearts or diamonds; trumps have no colour). */
export const cardRed = (card, pack) => packOf(pack).red[card];

/** Parse a card's short text ("7H", "Td", "10h"; "NH", "17M" with a tarot `pack`);
 *  throws NotationError. */
export function parseCard(text, pack) {
  return packOf(pack).parse(text);
}

/** The short text of a card ("7H", "7h", "17M"), or with `symbol` true its text for people
 *  ("7♥", "10♠", "17★"). */
export function formatCard(card, pack, { symbol = false } = {}) {
  const deck = packOf(pack);
  const text = deck.format(card);
  return symbol ? deck.symbol[card] : text;
}
