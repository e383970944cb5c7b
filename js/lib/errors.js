/**
 * The errors the package throws on purpose: the classes of the Python library's
 * crapette.errors, with the same messages (an illegal move, a bad rules string, notation
 * that does not parse). An argument of the wrong JavaScript type throws the built-in
 * TypeError.
 * @module
 */

/** Base class of every error this package throws on purpose. */
export class CrapetteError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/** An argument outside its documented values (a player 2, a card 200, a seed that is
 *  not an integer). */
export class InvalidArgumentError extends CrapetteError {}

/** Something that is not a move at all (an unknown combination of source, target and
 *  count). */
export class InvalidMoveError extends CrapetteError {}

/** A real move that the rules do not allow in the position; the message says why. */
export class IllegalMoveError extends CrapetteError {}

/** An unknown preset or option, or a bad value. */
export class InvalidRulesError extends CrapetteError {}

/** Text that does not parse (a card, a move, a position, JSON), with the place of the
 *  problem: `text` and `position` (a 0-based index in code points, or null). */
export class NotationError extends CrapetteError {
  constructor(message, text = '', position = null) {
    super(message);
    this.text = text;
    this.position = position;
  }
}

/** A position that breaks an invariant of the game (a card missing or doubled, a
 *  counter out of range). */
export class InvalidPositionError extends NotationError {}
