// Puzzle mode's backend: a puzzle of the shipped set played as a game. It has the methods of
// the game backends that a turn needs (api.js: state, move, stop, undo), so that the page
// plays a puzzle with the same table, drags, taps and keys as a game; the position after
// each move comes from the server (GET /api/puzzles/{n}?line=...: the solver's payload,
// built from the solver's view), which also refuses an illegal move with its reason. The
// line is checked by the engine (answer). Nothing of the rules is decided here.
import { BackendError } from "./api.js";

/** The backend of puzzle `number` (from 1) on the server backend `server`. */
export function createPuzzleBackend(server, number) {
  const line = [];
  let version = 0; // the page shows a payload only if it is newer: each answer is
  let last = null; // the server's last position answer: {puzzle, line, complete, game}
  const position = async () => {
    const data = await server.puzzle(number, line);
    last = data;
    return { ...data.game, version: ++version };
  };
  const refuse = () => Promise.reject(new BackendError(409, "puzzle_mode", "puzzle_mode"));
  return {
    gameId: `puzzle-${number}`,
    token: null,
    number,
    get seat() { return last ? last.game.seat : null; },
    get line() { return [...line]; },
    get complete() { return Boolean(last && last.complete); },
    /** The server's last answer: {puzzle, line, moves, complete, game}. */
    get position() { return last; },
    presets: () => server.presets(),
    state: position,
    async move(notation) {
      line.push(notation);
      try {
        return await position();
      } catch (error) {
        line.pop();
        throw error;
      }
    },
    stop(callIt) { return this.move(callIt ? "stop" : "pass"); },
    async undo() {
      line.pop();
      return position();
    },
    async reset() {
      line.length = 0;
      return position();
    },
    answer: () => server.answer(number, line),
    hint: refuse,
    nextDeal: refuse,
    resign: refuse,
    record: refuse,
    subscribe() { return () => {}; },
  };
}
