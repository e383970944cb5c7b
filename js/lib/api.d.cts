// Type declarations of the crapette package (lib/index.js and the modules it re-exports),
// shared by its two entries: lib/index.d.ts (import) and lib/index.d.cts (require).
// Cards are numbers 0..103 (pack * 52 + suit * 13 + rank - 1); every 64-bit value (a
// seed, a layout key) is a bigint, and a seed may also be given as a string of digits or
// a safe integer number.

/** A card: a number 0..103. */
export type Card = number;
/** A pile of cards, bottom first (the last card is the top). */
export type Pile = Card[];
/** A seed: a bigint, a string of decimal digits or a safe integer (taken modulo 2**64). */
export type Seed = bigint | string | number;
/** A player: 0 or 1. */
export type Player = 0 | 1;

// --- errors -------------------------------------------------------------------------------

/** Base class of every error the package throws on purpose. */
export class CrapetteError extends Error {}
/** An argument outside its documented values. */
export class InvalidArgumentError extends CrapetteError {}
/** Something that is not a move at all. */
export class InvalidMoveError extends CrapetteError {}
/** A real move that the rules do not allow in the position; the message says why. */
export class IllegalMoveError extends CrapetteError {}
/** An unknown preset or option, or a bad value. */
export class InvalidRulesError extends CrapetteError {}
/** Text that does not parse, with the place of the problem (in code points). */
export class NotationError extends CrapetteError {
  constructor(message: string, text?: string, position?: number | null);
  readonly text: string;
  readonly position: number | null;
}
/** A position that breaks an invariant of the game. */
export class InvalidPositionError extends NotationError {}

// --- cards --------------------------------------------------------------------------------

export const RANK_CHARS: string;
export const SUIT_CHARS: string;
/** The text of every card ("7H" of pack 0, "7h" of pack 1), by index. */
export const CARD_TEXT: readonly string[];
export function cardPack(card: Card): Player;
/** 0 spades, 1 hearts, 2 diamonds, 3 clubs. */
export function cardSuit(card: Card): number;
/** 1 (Ace) to 13 (King). */
export function cardRank(card: Card): number;
export function cardRed(card: Card): boolean;
/** Parse a card's short text ("7H", "Td", "10h"). */
export function parseCard(text: string): Card;
export function formatCard(card: Card): string;

// --- rules --------------------------------------------------------------------------------

export type FirstPlayer = 'reserve' | 'reserve_first_house' | 'cut';
export type MatchStarter = 'rule' | 'alternate';
export type LoadFrom = 'any' | 'own';
export type GroupMoves = 'single' | 'supermove' | 'whole';
export type HouseFilling = 'before_hand' | 'immediate' | 'none';
export type Priority = 'pagat' | 'serbian';
export type StopRule = 'enforced' | 'undo' | 'card';

/** Every option of a ruleset, named as in the rules strings. */
export interface RuleOptions {
  reserve_size: number;
  reserve_face_up: boolean;
  first_player: FirstPlayer;
  match_starter: MatchStarter;
  own_waste_playable: boolean;
  load_from: LoadFrom;
  load_wrap: boolean;
  group_moves: GroupMoves;
  house_filling: HouseFilling;
  priority: Priority;
  stop: StopRule;
  move_cap: number;
  win_bonus: number;
  reserve_points: number;
  hand_points: number;
  match_target: number | null;
  match_deals: number | null;
}

/** One complete set of rules (immutable); its string is canonical and round-trips. */
export class Ruleset implements Readonly<RuleOptions> {
  /** The classic preset with these options changed. */
  constructor(options?: Partial<RuleOptions>);
  readonly reserve_size: number;
  readonly reserve_face_up: boolean;
  readonly first_player: FirstPlayer;
  readonly match_starter: MatchStarter;
  readonly own_waste_playable: boolean;
  readonly load_from: LoadFrom;
  readonly load_wrap: boolean;
  readonly group_moves: GroupMoves;
  readonly house_filling: HouseFilling;
  readonly priority: Priority;
  readonly stop: StopRule;
  readonly move_cap: number;
  readonly win_bonus: number;
  readonly reserve_points: number;
  readonly hand_points: number;
  readonly match_target: number | null;
  readonly match_deals: number | null;
  /** 48 - reserve_size. */
  readonly hand_size: number;
  /** Whether priority violations are legal and the opponent may call "Stop!". */
  readonly callable_stop: boolean;
  static preset(name: 'classic' | 'pagat' | 'g4a' | 'belarusian' | 'serbian' | string): Ruleset;
  static fromString(text: string): Ruleset;
  replace(changes: Partial<RuleOptions>): Ruleset;
  equals(other: unknown): boolean;
  /** The canonical string ("classic", "serbian(house_filling=immediate)"). */
  toString(): string;
  toJSON(): string;
}
/** Every option: its kind and a one-line description. */
export const OPTIONS: Readonly<Record<keyof RuleOptions, readonly [string | readonly string[], string]>>;
export const RANGES: Readonly<Record<string, readonly [number, number]>>;
export const PRESETS: Readonly<{
  classic: Ruleset;
  pagat: Ruleset;
  g4a: Ruleset;
  belarusian: Ruleset;
  serbian: Ruleset;
}>;
export const MAX_RULES_TEXT: number;
export function parseRules(text: string): Ruleset;
export function formatRules(rules: Ruleset): string;
/** A ruleset, a preset name or a rules string (null: classic). */
export type RulesLike = Ruleset | string | null | undefined;

// --- moves --------------------------------------------------------------------------------

export type Action = 'play' | 'reveal' | 'draw' | 'discard' | 'end' | 'stop' | 'pass';

/** One move of the fixed table (compare with ===); its string is the move notation. */
export class Move {
  private constructor();
  readonly action: Action;
  /** A house 0..7, RESERVE, HAND or WASTE; -1 for a move that is not a play. */
  readonly source: number;
  /** FOUNDATION, a house 0..7, OPP_RESERVE or OPP_WASTE; -1 for a move that is not a play. */
  readonly target: number;
  readonly count: number;
  /** Its place in ALL_MOVES (the same in the Python library and the C core). */
  readonly index: number;
  readonly text: string;
  readonly isPlay: boolean;
  static play(source: number, target: number, count?: number): Move;
  toString(): string;
  toJSON(): string;
}
export const ALL_MOVES: readonly Move[];
export const RESERVE: 8;
export const HAND: 9;
export const WASTE: 10;
export const FOUNDATION: 11;
export const OPP_RESERVE: 12;
export const OPP_WASTE: 13;
export const REVEAL: Move;
export const DRAW: Move;
export const DISCARD: Move;
export const END_TURN: Move;
export const CALL_STOP: Move;
export const LET_STAND: Move;
export function moveAt(index: number): Move;
/** A move in its relative form (R-OR, H2-H5x3, draw), with no position needed. */
export function moveFromText(text: string): Move;

// --- states -------------------------------------------------------------------------------

/** A priority violation awaiting the "Stop!" decision. */
export interface PendingStop {
  /** The state before the violating move. */
  readonly prior: GameState;
  readonly move: Move;
  readonly offender: Player;
  /** Who acts if the violation is let stand. */
  readonly resume: Player;
}

/** One position of a deal (immutable, equal by value). */
export class GameState {
  private constructor();
  readonly rules: Ruleset;
  readonly toAct: Player;
  readonly foundations: Pile[];
  readonly houses: Pile[];
  readonly reserves: [Pile, Pile];
  readonly reserveUp: [number, number];
  readonly hands: [Pile, Pile];
  readonly wastes: [Pile, Pile];
  readonly turned: Card | null;
  readonly emptied: number;
  readonly passes: [number, number];
  readonly movesMade: number;
  readonly stop: PendingStop | null;
  readonly turnPlayer: Player;
  /** The layout key of the houses. */
  readonly housesKey: bigint;
  /** The layout keys seen this turn, the current one included. */
  readonly seen: Set<bigint>;
  cards(): Card[];
  equals(other: unknown): boolean;
}

/** The fields of a state without a pending Stop! decision, for makeState. */
export interface StateFields {
  rules: Ruleset;
  toAct: Player;
  foundations: Pile[];
  houses: Pile[];
  reserves: Pile[];
  reserveUp: number[];
  hands: Pile[];
  wastes: Pile[];
  turned?: Card | null;
  emptied?: number;
  passes?: number[];
  movesMade?: number;
  seen?: Iterable<bigint> | null;
}
/** A checked state from its fields. */
export function makeState(fields: StateFields, text?: string): GameState;
/** Every reason a state of these fields could not occur (empty for a valid one). */
export function positionProblems(fields: StateFields): string[];

// --- play ---------------------------------------------------------------------------------

export interface Outcome {
  winner: Player | null;
  scores: [number, number];
  reason: 'win' | 'stalemate' | 'move_cap';
}

/** A new deal, the same as the Python library's new_game(rules, seed=seed). */
export function newGame(rules?: RulesLike, seed?: Seed | null): GameState;
/** Deal from two explicit pack orders (cards or card texts). */
export function deal(
  rules: RulesLike,
  pack0: Array<Card | string>,
  pack1: Array<Card | string>,
  options?: { starter?: Player | null },
): GameState;
export function randomSeed(): bigint;
export function legalMoves(state: GameState): Move[];
export function isLegal(state: GameState, move: Move): boolean;
/** The state after a move (a Move or its text); throws IllegalMoveError with the reason. */
export function apply(state: GameState, move: Move | string): GameState;
export function applyUnchecked(state: GameState, move: Move): GameState;
export function outcome(state: GameState): Outcome | null;
export function isOver(state: GameState): boolean;
export function winner(state: GameState): Player | null;
export function counts(state: GameState): [number, number];
/** Why a move is not legal (null when it is). */
export function whyIllegal(state: GameState, move: Move | string | unknown): string | null;
export function describeIllegal(state: GameState, move: Move): string;

// --- notation and JSON ----------------------------------------------------------------------

export const UNKNOWN_CARD: '??';
export function formatMove(move: Move): string;
export function parseMove(state: GameState, text: string): Move;
export function checkMoveText(text: string, offset?: number): void;
export function formatPosition(state: GameState): string;
export function formatPublicPosition(state: GameState, player: Player): string;
export function parsePosition(text: string): GameState;
export const JSON_VERSION: 2;
export const BEHAVIOUR_VERSION: number;
/** The JSON document of a state or a ruleset, as the Python library writes it. */
export function toJson(obj: GameState | Ruleset, options?: { indent?: number | string | null }): string;
/** Read a "state" or "rules" document. */
export function fromJson(text: string): GameState | Ruleset;

// --- views and bots ------------------------------------------------------------------------

export const VIEW_FORMAT: 'view/1';

export interface StopView {
  readonly move: Move;
  readonly offender: Player;
  readonly resume: Player;
  readonly prior: PlayerView;
}

/** What one player sees of a position. */
export class PlayerView {
  private constructor();
  readonly rules: Ruleset;
  readonly player: Player;
  readonly toAct: Player;
  readonly foundations: Pile[];
  readonly houses: Pile[];
  readonly reservesUp: [Pile, Pile];
  readonly reservesDown: [number, number];
  readonly handSizes: [number, number];
  readonly wastes: [Pile, Pile];
  readonly turned: Card | null;
  readonly stop: StopView | null;
  readonly emptied: number;
  readonly seen: Set<bigint>;
  readonly passes: [number, number];
  readonly movesMade: number;
  readonly housesKey: bigint;
  readonly turnPlayer: Player;
  readonly reserveSizes: [number, number];
  visibleCards(): Card[];
  hiddenCards(): Card[];
  legalMoves(): Move[];
  breaksPriority(move: Move): string | null;
  /** The one-line form view/1, as the Python library writes it. */
  toString(): string;
}
export function observe(state: GameState, player: Player): PlayerView;

/** SplitMix64, the Python library's portable generator. */
export class Rng {
  constructor(seed: Seed);
  state: bigint;
  next64(): bigint;
  below(n: number): number;
  below(n: bigint): bigint;
  random(): number;
  choice<T>(items: readonly T[]): T;
}

export interface Bot {
  readonly name: string;
  choose(subject: PlayerView | GameState): Move;
}
export class GreedyBot implements Bot {
  constructor(seed?: Seed);
  readonly name: 'greedy';
  readonly seed: Seed;
  choose(subject: PlayerView | GameState): Move;
}
export class RandomBot implements Bot {
  constructor(seed?: Seed);
  readonly name: 'random';
  readonly seed: Seed;
  choose(subject: PlayerView | GameState): Move;
}
export function greedyScores(state: GameState, moves: readonly Move[]): number[];

export interface DealSpec {
  seed: Seed;
  bots?: Array<'random' | 'greedy'>;
  botSeeds?: Seed[];
}
export interface DealResult {
  seed: Seed;
  starter: Player;
  winner: Player | null;
  scores: [number, number];
  reason: 'win' | 'stalemate' | 'move_cap';
  moves: number;
  turns: number;
  /** The Stop! decisions met (priority violations under callable Stop! rules). */
  violations: number;
  /** Of them, called. */
  calls: number;
  record?: Move[];
}
export function playDeals(rules: RulesLike, deals: readonly DealSpec[], options?: { record?: boolean }): DealResult[];
export function playRandomDeals(rules: RulesLike, seed: Seed, count: number, botSeeds?: Seed[]): number;

export const ENGINE: 'wasm';
export const VERSION: string;
