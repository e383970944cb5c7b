/**
 * The errors the package throws on purpose: the classes of the Python library's
 * crapette.errors (the shared test vectors check that both libraries refuse the same
 * inputs with the same class, at the same character position). Each error has a `code`
 * saying what went wrong, for programs to branch on; its message is this package's own
 * sentence for people. An argument of the wrong JavaScript type throws the built-in
 * TypeError.
 *
 * An IllegalMoveError's code is the rules' reason code (the rule spec's REASONS, the same
 * in the Python library, the C core and the game server), with its `params`; its message
 * is the spec's English template filled in, the same words as the Python library's.
 * @module
 */

/** Base class of every error this package throws on purpose. */
export class CrapetteError extends Error {
  /**
   * @param {string} message the sentence for people
   * @param {{code?: string|null}} [options] what went wrong, for programs
   */
  constructor(message, { code = null } = {}) {
    super(message);
    this.name = new.target.name;
    /** What went wrong (a short snake_case word; see each class). */
    this.code = code ?? new.target.defaultCode ?? 'error';
  }
}

/** An argument outside its documented values (a player 2, a card 200, a seed that is
 *  not an integer). Code: 'invalid_argument'. */
export class InvalidArgumentError extends CrapetteError {
  static defaultCode = 'invalid_argument';
}

/** Something that is not a move at all (an unknown combination of source, target and
 *  count). Code: 'invalid_move'. */
export class InvalidMoveError extends CrapetteError {
  static defaultCode = 'invalid_move';
}

/**
 * A real move that the rules do not allow in the position. `code` is the rules' reason
 * (a code of REASONS in spec.js, such as 'foundation' or 'cycle') and `params` its
 * parameters; both are null and {} when the move was refused before the rules were asked
 * (a move text naming a pile of the opponent or a card that is not available).
 */
export class IllegalMoveError extends CrapetteError {
  /**
   * @param {string} message
   * @param {{code?: string|null, params?: object}} [options]
   */
  constructor(message, { code = null, params = {} } = {}) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

/** An unknown preset or option, a bad value, or two values that cannot go together.
 *  Codes: 'unknown_preset', 'unknown_option', 'bad_value', 'bad_syntax', 'too_long',
 *  'refused_combination'. */
export class InvalidRulesError extends CrapetteError {
  static defaultCode = 'bad_value';
}

/**
 * Text that does not parse (a card, a move, a position, JSON, a JSON document), with the
 * place of the problem: `text`, `position` (a 0-based index in code points, or null) and,
 * in a JSON document, `path` (the field, such as 'state.houses[2][0]', or null). Codes:
 * 'bad_card', 'bad_move', 'bad_position', 'bad_json' (not JSON), 'bad_document' (not a
 * crapette document, or an unsupported version or type), 'bad_field' (a field of the
 * document is missing or malformed).
 */
export class NotationError extends CrapetteError {
  /**
   * @param {string} message
   * @param {{code?: string, text?: string, position?: number|null, path?: string|null}} [options]
   */
  constructor(message, { code = null, text = '', position = null, path = null } = {}) {
    super(message, { code });
    this.text = text;
    this.position = position;
    this.path = path;
  }

  static defaultCode = 'bad_notation';
}

/** A position that breaks an invariant of the game (a card missing or doubled, a
 *  counter out of range). Code: 'impossible_position'. */
export class InvalidPositionError extends NotationError {
  static defaultCode = 'impossible_position';
}
