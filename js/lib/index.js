/**
 * crapette: the rules engine of Russian Bank (Crapette) for JavaScript, the C core of the
 * Python library compiled to WebAssembly. One engine, proven equal to the Python library
 * by shared test vectors: the same deals from the same seeds, the same legal moves, the
 * same states after every move, notation, JSON and refusals (reason codes from the C core).
 *
 * The module loads crapette.wasm (beside this file) when it is imported (a top-level
 * await), so every function below is synchronous.
 * @module crapette
 */
export { ALL_MOVES, CALL_STOP, DISCARD, DRAW, END_TURN, FLIP, FOUNDATION, HAND, LET_STAND, Move, OPP_RESERVE, OPP_WASTE, RESERVE, REVEAL, WASTE, moveAt, moveFromText } from './moves.js';
export { CARD_TEXT, PACKS, RANK_CHARS, SUIT_CHARS, TAROT_RANK_CHARS, TRUMPS, cardPack, cardRank, cardRed, cardSuit, formatCard, parseCard } from './cards.js';
export { CrapetteError, IllegalMoveError, InvalidArgumentError, InvalidMoveError, InvalidPositionError, InvalidRulesError, NotationError } from './errors.js';
export { MAX_RULES_TEXT, OPTIONS, PRESETS, RANGES, Ruleset, formatRules, parseRules } from './rules.js';
export { GameState, makeState, positionProblems } from './state.js';
export { apply, applyUnchecked, counts, deal, isLegal, isOver, legalMoves, newGame, outcome, randomSeed, winner } from './play.js';
export { describeIllegal, refusal, renderReason, whyIllegal } from './refusals.js';
export { REASONS } from './spec.js';
export { UNKNOWN_CARD, checkMoveText, formatMove, formatPosition, formatPublicPosition, parseMove, parsePosition } from './notation.js';
export { BEHAVIOUR_VERSION, JSON_VERSION, formatVersion, fromJson, toJson } from './json.js';
export { PlayerView, VIEW_FORMAT, observe } from './views.js';
export { GreedyBot, RandomBot, Rng, greedyScores, playDeals, playRandomDeals } from './bots.js';

/** Which engine runs: always 'wasm' (the C core compiled to WebAssembly). */
export const ENGINE = 'wasm';
/** The version of this package (the Python library's version it matches). */
export const VERSION = '0.1.0';
