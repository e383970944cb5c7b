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

/** Base class of every error the package throws on purpose: `code` says what went wrong
 *  (for programs), the message says it for people (in this package's own words). */
export class CrapetteError extends Error {
  constructor(message: string, options?: { code?: string | null });
  /** What went wrong; null only for an IllegalMoveError refused before the rules. */
  readonly code: string | null;
}
/** An argument outside its documented values (code 'invalid_argument'). */
export class InvalidArgumentError extends CrapetteError {
  readonly code: 'invalid_argument';
}
/** Something that is not a move at all (code 'invalid_move'). */
export class InvalidMoveError extends CrapetteError {
  readonly code: 'invalid_move';
}
/** A real move that the rules do not allow in the position: `code` and `params` are the
 *  rules' reason (null and {} when the move text was refused before the rules: a pile of
 *  the opponent, a card not available), the message says it in the Python library's words. */
export class IllegalMoveError extends CrapetteError {
  constructor(message: string, options?: { code?: ReasonCode | null; params?: object });
  readonly code: ReasonCode | null;
  readonly params: Readonly<Record<string, unknown>>;
}
/** The codes of an InvalidRulesError. */
export type RulesErrorCode =
  | 'unknown_preset'
  | 'unknown_option'
  | 'bad_value'
  | 'bad_syntax'
  | 'too_long'
  | 'refused_combination';
/** An unknown preset or option, a bad value, or two values that cannot go together. */
export class InvalidRulesError extends CrapetteError {
  constructor(message: string, options?: { code?: RulesErrorCode });
  readonly code: RulesErrorCode;
}
/** The codes of a NotationError: a card, a move or a position text that does not parse,
 *  a text that is not JSON, a JSON document that is not one this package reads or a field
 *  of it that is missing or malformed, an impossible position (InvalidPositionError). */
export type NotationErrorCode =
  | 'bad_card'
  | 'bad_move'
  | 'bad_position'
  | 'bad_json'
  | 'bad_document'
  | 'bad_field'
  | 'impossible_position';
/** Text that does not parse, with the place of the problem: the character `position` (in
 *  code points) in `text`, or the `path` of a JSON document's field ('state.houses[2]'). */
export class NotationError extends CrapetteError {
  constructor(
    message: string,
    options?: { code?: NotationErrorCode; text?: string; position?: number | null; path?: string | null },
  );
  readonly code: NotationErrorCode;
  readonly text: string;
  readonly position: number | null;
  readonly path: string | null;
}
/** A position that breaks an invariant of the game (code 'impossible_position'). */
export class InvalidPositionError extends NotationError {}

// --- cards --------------------------------------------------------------------------------

/** Rank characters of the standard pack ("A23456789TJQK"). */
export const RANK_CHARS: string;
/** Rank characters of a tarot pack's suits ("A23456789TJNQK", N the Knight). */
export const TAROT_RANK_CHARS: string;
export const SUIT_CHARS: string;
/** The family of the trumps (cardSuit of a trump). */
export const TRUMPS: 4;
/** A kind of pack (the pack option) and its cards' tables, indexed by card code. */
export interface PackKind {
  readonly name: Pack;
  /** Cards in one player's pack (52, 56, 77 or 78). */
  readonly size: number;
  /** Ranks of each suit (13, or 14 with the Knight). */
  readonly ranks: number;
  /** Trump cards (0, 21, or 22 with the Excuse). */
  readonly trumps: number;
  /** Foundation piles (8, or 10 with the trumps). */
  readonly foundations: number;
  /** Cards of both packs (the card codes are 0..count - 1). */
  readonly count: number;
  readonly rankChars: string;
  readonly text: readonly string[];
  readonly symbol: readonly string[];
  readonly owner: readonly Player[];
  readonly suit: readonly number[];
  readonly rank: readonly number[];
  readonly red: readonly boolean[];
  readonly face: readonly number[];
  readonly starter: readonly boolean[];
  readonly top: readonly boolean[];
  isCard(card: unknown): boolean;
  format(card: Card): string;
  parse(text: string): Card;
}
/** Every kind of pack, by the value of the pack option. */
export const PACKS: Readonly<Record<Pack, PackKind>>;
/** A pack kind: its name (default 'standard') or PACKS[name]. */
export type PackLike = Pack | PackKind | null | undefined;
/** The text of every card of the standard pack ("7H" of pack 0, "7h" of pack 1), by index. */
export const CARD_TEXT: readonly string[];
export function cardPack(card: Card, pack?: PackLike): Player;
/** 0 spades, 1 hearts, 2 diamonds, 3 clubs, 4 trumps. */
export function cardSuit(card: Card, pack?: PackLike): number;
/** 1 (Ace) to 13 (King; 14 with the Knight); a trump's number. */
export function cardRank(card: Card, pack?: PackLike): number;
export function cardRed(card: Card, pack?: PackLike): boolean;
/** Parse a card's short text ("7H", "Td", "10h"; "NH", "17M" with a tarot pack). */
export function parseCard(text: string, pack?: PackLike): Card;
/** The short text of a card ("7H", "17m"), or with symbol its text for people ("7♥", "17★"). */
export function formatCard(card: Card, pack?: PackLike, options?: { symbol?: boolean }): string;

// --- rules --------------------------------------------------------------------------------

// BEGIN GENERATED OPTIONS (python tools/generate.py)
/** The pack each player deals from. */
export type Pack = 'standard' | 'tarot56' | 'tarot77' | 'tarot78';
/** Who starts a deal. */
export type FirstPlayer = 'reserve' | 'reserve_first_house' | 'cut';
/** Who starts the later deals of a match. */
export type MatchStarter = 'rule' | 'alternate';
/** How a turn ends. */
export type TurnEnd = 'discard' | 'flip';
/** Which cards may load the opponent. */
export type LoadFrom = 'any' | 'own';
/** Which card loads on the opponent's top. */
export type LoadMatch = 'suit' | 'colour';
/** House-to-house sequences. */
export type GroupMoves = 'single' | 'supermove' | 'whole';
/** Moving a whole house onto an empty house. */
export type SterileMoves = 'allowed' | 'forbidden';
/** Filling empty houses from your reserve. */
export type HouseFilling = 'before_hand' | 'immediate' | 'none';
/** The compulsory order of moves. */
export type Priority = 'pagat' | 'serbian' | 'bobcrapette';
/** Priority violations. */
export type Stop = 'enforced' | 'undo' | 'card' | 'lose_draw';
/** When Stop! is called. */
export type CallWindow = 'after_move' | 'turn_start';
/** A wrong Stop! call at the start of a turn. */
export type FalseCall = 'lose_turn' | 'none' | 'rationed';
/** A blocked deal (stalemate or move cap). */
export type Blocked = 'scored' | 'draw';
/** The name of a preset. */
export type PresetName = 'classic' | 'pagat' | 'g4a' | 'belarusian' | 'serbian' | 'tarot' | 'bobcrapette';

/** Every option of a ruleset, named as in the rules strings. */
export interface RuleOptions {
  /** The pack each player deals from. */
  pack: Pack;
  /** Cards dealt to each reserve; the hand gets the rest of the pack but the 4 houses. */
  reserve_size: number;
  /** The dealt reserve top is face up (false: its owner turns it in play with reveal). */
  reserve_face_up: boolean;
  /** Who starts a deal. */
  first_player: FirstPlayer;
  /** Who starts the later deals of a match. */
  match_starter: MatchStarter;
  /** Your own waste top is an available card. */
  own_waste_playable: boolean;
  /** How a turn ends. */
  turn_end: TurnEnd;
  /** Which cards may load the opponent. */
  load_from: LoadFrom;
  /** Which card loads on the opponent's top. */
  load_match: LoadMatch;
  /** Loading wraps between each family's top and starter (King and Ace, trump 21 and 1). */
  load_wrap: boolean;
  /** House-to-house sequences. */
  group_moves: GroupMoves;
  /** Moving a whole house onto an empty house. */
  sterile_moves: SterileMoves;
  /** Filling empty houses from your reserve. */
  house_filling: HouseFilling;
  /** The compulsory order of moves. */
  priority: Priority;
  /** Priority violations. */
  stop: Stop;
  /** When Stop! is called. */
  call_window: CallWindow;
  /** A wrong Stop! call at the start of a turn. */
  false_call: FalseCall;
  /** A blocked deal (stalemate or move cap). */
  blocked: Blocked;
  /** A deal ends as a stalemate after this many moves. */
  move_cap: number;
  /** Points for winning a deal. */
  win_bonus: number;
  /** Points per card left in a reserve. */
  reserve_points: number;
  /** Points per card left in a hand or waste. */
  hand_points: number;
  /** A match ends when a player's total reaches this (none: no target). */
  match_target: number | null;
  /** A match ends after this many deals (none: no limit). */
  match_deals: number | null;
}

/** The code of a refusal reason (the rule spec's REASONS). */
export type ReasonCode =
  | 'deal_over'
  | 'stop_pending'
  | 'stop_none'
  | 'reveal_empty'
  | 'reveal_up'
  | 'draw_turned'
  | 'draw_empty'
  | 'discard_none'
  | 'end_turned'
  | 'end_cards'
  | 'reserve_down'
  | 'waste_closed'
  | 'no_card'
  | 'group_single'
  | 'group_short'
  | 'group_run'
  | 'group_space'
  | 'foundation'
  | 'house'
  | 'load_own'
  | 'load_empty'
  | 'load_down'
  | 'load'
  | 'load_wrap'
  | 'priority_reserve'
  | 'priority_foundation'
  | 'priority_order'
  | 'filling_before'
  | 'filling_immediate'
  | 'cycle'
  | 'flip_rule'
  | 'flip_discard'
  | 'flip_empty'
  | 'end_flip'
  | 'sterile'
  | 'obligation_reserve'
  | 'obligation_starter'
  | 'stop_window'
  | 'stop_rationed'
  | 'load_colour'
  | 'load_colour_wrap';
/** The parameters of each refusal reason, by code. */
export interface ReasonParams {
  /** the deal is over */
  deal_over: {};
  /** player {player} must first decide on the Stop! call for {move}: call stop or pass */
  stop_pending: { player: Player; move: string };
  /** no Stop! decision is open */
  stop_none: {};
  /** your reserve is empty */
  reveal_empty: {};
  /** your reserve top is already face up */
  reveal_up: {};
  /** a hand card ({card}) is already turned: play or discard it */
  draw_turned: { card: string };
  /** your hand and waste are both empty (end your turn instead) */
  draw_empty: {};
  /** no hand card is turned */
  discard_none: {};
  /** a hand card is turned: discard it to end your turn */
  end_turned: {};
  /** your turn ends only by a discard while your hand or waste has cards */
  end_cards: {};
  /** your reserve top is face down: reveal it first */
  reserve_down: {};
  /** your own waste is not available under these rules */
  waste_closed: {};
  /** {pile} has no card */
  no_card: { pile: PileToken };
  /** only single cards move under these rules (group_moves=single) */
  group_single: {};
  /** house {house} holds only {held} cards */
  group_short: { house: number; held: number };
  /** the top {count} cards of house {house} are not a descending run */
  group_run: { count: number; house: number };
  /** {count} cards need {need} empty houses besides the destination; there are {free} */
  group_space: { count: number; need: number; free: number };
  /** {card} does not fit on any foundation */
  foundation: { card: string };
  /** {card} cannot go on {onto} in house {house} (houses build down in alternating colours) */
  house: { card: string; onto: string; house: number };
  /** only your reserve, turned hand card and waste may load the opponent (load_from=own) */
  load_own: {};
  /** {pile} is empty: nothing is loaded on an empty pile */
  load_empty: { pile: PileToken };
  /** your opponent's reserve top is face down */
  load_down: {};
  /** {card} does not load on {onto}: same suit, one rank apart */
  load: { card: string; onto: string };
  /** {card} does not load on {onto}: same suit, one rank apart (K and A adjacent) */
  load_wrap: { card: string; onto: string };
  /** your reserve top {card} can go to a foundation: that comes first */
  priority_reserve: { card: string };
  /** a foundation move ({cards}) must be made before any other move */
  priority_foundation: { cards: string[] };
  /** {card} can be built on house {house}: the tableau comes before loading the opponent */
  priority_order: { card: string; house: number };
  /** house {house} is empty: fill the empty houses from your reserve before turning a hand card */
  filling_before: { house: number };
  /** house {house} was emptied this turn: fill it from your reserve first */
  filling_immediate: { house: number };
  /** it recreates a layout already seen this turn (no cycles within a turn) */
  cycle: {};
  /** no hand card is turned under these rules: end your turn with flip */
  flip_rule: {};
  /** a turn ends by a discard under these rules, not by flip */
  flip_discard: {};
  /** your hand and waste are both empty (end your turn instead) */
  flip_empty: {};
  /** your turn ends only by flip while your hand or waste has cards */
  end_flip: {};
  /** moving every card of house {house} onto an empty house changes nothing (sterile_moves=forbidden) */
  sterile: { house: number };
  /** your reserve top {card} can go to a foundation: that comes before your turn ends */
  obligation_reserve: { card: string };
  /** {card} can start a foundation: that comes before your turn ends */
  obligation_starter: { card: string };
  /** Stop! is called only at the start of your turn, before your first move */
  stop_window: {};
  /** you have made your 3 false calls of this deal: no more calls */
  stop_rationed: {};
  /** {card} does not load on {onto}: the other colour, one rank apart */
  load_colour: { card: string; onto: string };
  /** {card} does not load on {onto}: the other colour, one rank apart (K and A adjacent) */
  load_colour_wrap: { card: string; onto: string };
}
// END GENERATED OPTIONS

/** One complete set of rules (immutable); its string is canonical and round-trips. */
export interface Ruleset extends Readonly<RuleOptions> {}
export class Ruleset {
  /** The classic preset with these options changed. */
  constructor(options?: Partial<RuleOptions>);
  /** Cards dealt to each hand: the pack's cards but the reserve and the 4 houses. */
  readonly hand_size: number;
  /** How many moves of ALL_MOVES these rules can make (a prefix: 791 for the standard pack). */
  readonly action_count: number;
  /** Whether priority violations are legal and the opponent may call "Stop!". */
  readonly callable_stop: boolean;
  static preset(name: PresetName | string): Ruleset;
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
  tarot: Ruleset;
  bobcrapette: Ruleset;
}>;
export const MAX_RULES_TEXT: number;
export function parseRules(text: string): Ruleset;
export function formatRules(rules: Ruleset): string;
/** A ruleset, a preset name or a rules string (null: classic). */
export type RulesLike = Ruleset | string | null | undefined;

// --- moves --------------------------------------------------------------------------------

export type Action = 'play' | 'reveal' | 'draw' | 'discard' | 'end' | 'stop' | 'pass' | 'flip';

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
/** Turn your hand's top card onto your waste, ending your turn (turn_end=flip). */
export const FLIP: Move;
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
  /** Under call_window=turn_start: the faulty turn end a call at this turn's start punishes. */
  readonly fault: PendingStop | null;
  /** Under call_window=turn_start: whether the player to act may still call "Stop!". */
  readonly window: boolean;
  /** Under false_call=rationed: each player's wrong calls in this deal (0..3). */
  readonly falseCalls: [number, number];
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
  /** Under call_window=turn_start: the call window of this turn is open. */
  window?: boolean;
  /** Under false_call=rationed: each player's wrong calls. */
  falseCalls?: number[];
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
/** A token of move notation naming a pile: R, T, W, F, OR, OW, H1..H8. */
export type PileToken = 'R' | 'T' | 'W' | 'F' | 'OR' | 'OW' | `H${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}`;
/** Why a move is illegal, as data: a reason code of the rule spec and its parameters. */
export type Refusal = { [C in ReasonCode]: { readonly code: C; readonly params: Readonly<ReasonParams[C]> } }[ReasonCode];
/** Every refusal reason of the rule spec: its code, English template and parameters. */
export const REASONS: readonly { code: ReasonCode; template: string; params: [string, string][] }[];
/** Why a move is illegal as data (null when it is legal), answered by the C core. */
export function refusal(state: GameState, move: Move): Refusal | null;
/** The English sentence of a refusal (the spec's template, filled in). */
export function renderReason(refusal: { code: ReasonCode; params: object }): string;
/** Why a move is not legal, in English (null when it is); a text is read as parseMove reads
 *  it (the message of its error when it is not a legal move). */
export function whyIllegal(state: GameState, move: Move | string): string | null;
/** The message of the IllegalMoveError of an illegal move. */
export function describeIllegal(state: GameState, move: Move): string;

// --- notation and JSON ----------------------------------------------------------------------

export const UNKNOWN_CARD: '??';
export function formatMove(move: Move): string;
export function parseMove(state: GameState, text: string): Move;
export function checkMoveText(text: string, offset?: number): void;
export function formatPosition(state: GameState): string;
export function formatPublicPosition(state: GameState, player: Player): string;
export function parsePosition(text: string): GameState;
export const JSON_VERSION: 3;
/** The JSON format version of a document of these rules: 2 unless a version 3 option differs
 *  from its default. */
export function formatVersion(rules: Ruleset): 2 | 3;
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
