// The serverless backend: the rules engine (the crapette JavaScript package: the C core
// compiled to WebAssembly) and the bots run in the page, and nothing is sent anywhere.
// It has the methods of api.js's server backend and returns the same payloads, built the
// way the core session builds them (crapette.session: Session.payload, the typed dicts of
// crapette.session.payload), so app.js cannot tell the two apart.
//
// What it mirrors of the session (the server's and the terminal game's), and how:
// - a match of the chosen format, dealt from the match seed (crapette.match: deal k from
//   SplitMix64 of seed + k * 0x9E3779B97F4A7C15; the starter of later deals by the rules);
// - the bots (greedy, random) seeded as the server seeds them: 64 bits of an HMAC-SHA256
//   under the game's key of "bot|deal|seat|move number"; a game dealt from a chosen seed is
//   keyed by that seed (SHA-256 of "crapette: a chosen seed|<seed>"), so it plays the very
//   same bot moves as the server does for that seed (tests/test_web_local.py compares the
//   two payload by payload);
// - undo (a human's own move of the current turn that showed no hidden card), Stop!,
//   resignation (decision 20), the next deal, the hint (the greedy bot seeded with the
//   move number) and each deal's record, in the record text format of crapette.records;
// - the game survives a reload: each game is kept in the browser's storage as its rules,
//   seed, key and the list of what was done, and replayed when the page opens it again.
//
// Unlike the server it keeps no secret from the player: every card of the deal is in the
// page's memory (a curious player can read them). It offers the bots that run without a
// search (greedy and random) and no game between two people. Legal move entries carry no
// "description" (the page writes its own words for moves).

import { BackendError } from "./api.js";
import { fromHex, hmacSha256, sha256, toHex } from "./sha256.js";

const MASK = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;
const MAX_SEED = (1n << 63n) - 1n;
const RECENT_MOVES = 40;
const LINE_WIDTH = 79;
const STORE_PREFIX = "crapette:local:";
const BOTS = ["greedy", "random"];
/** The notation of moves that can never be taken back (they show a card or end a turn). */
const NO_UNDO = new Set(["draw", "reveal", "discard", "end", "stop", "pass"]);

const refuse = (status, code, message, reason = null) => new BackendError(status, code, message, reason);

function randomHex(bytes) {
  const out = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(out);
  return toHex(out);
}

/** The key of a game dealt from a seed its creator chose (crapette.session.chosen_secret). */
const chosenSecret = (seed) => toHex(sha256(`crapette: a chosen seed|${seed}`));

/** A seed: a BigInt from 0 to 2**63 - 1, from a number or a decimal string. */
function parseSeed(value) {
  let seed;
  if (typeof value === "bigint") seed = value;
  else if (typeof value === "number" && Number.isSafeInteger(value)) seed = BigInt(value);
  else if (typeof value === "string" && /^\d{1,19}$/.test(value)) seed = BigInt(value);
  else throw refuse(422, "invalid_request", `a seed is an integer from 0 to 2**63-1, not ${JSON.stringify(value)}`);
  if (seed < 0n || seed > MAX_SEED) throw refuse(422, "invalid_request", `the seed ${seed} is not from 0 to 2**63-1`);
  return seed;
}

/** The quoted value of a record header (crapette.records: \" and \\ escaped). */
const quote = (text) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** The Result header of an outcome (crapette.records.format_result). */
function formatResult(result) {
  if (result === null) return "*";
  const scores = `${result.scores[0]}-${result.scores[1]}`;
  if (result.winner !== null) return `P${result.winner} wins ${scores}`;
  return `${result.reason.replace(/_/g, " ")} ${scores}`;
}

/** One game in the page: a match between the player's seat and a bot's (session.Session). */
class LocalGame {
  constructor(lib, { id, rules, seed, seats, secret, undo }) {
    this.lib = lib;
    this.id = id;
    this.rules = rules;
    this.seed = seed;
    this.seats = seats;
    this.secret = secret;
    this.undo = undo;
    const [state, starter] = this.dealState(0, []);
    this.match = { results: [], state, starter, resigned: null };
    this.start = state;
    this.moves = []; // [seat, notation, cards] of the current deal
    this.records = []; // the finished deals' records, as text
    this.version = 0;
    this.ended = null;
    this.fixed = 0;
    this.bots = new Map();
    this.log = []; // what was done, for the replay of a reload
    this.onChange = null;
  }

  // ------------------------------------------------------------------ the match

  dealSeed(number) {
    return new this.lib.Rng((this.seed + BigInt(number) * GOLDEN) & MASK).next64();
  }

  /** Deal `number` and its starter (crapette.match._deal). */
  dealState(number, results) {
    let state = this.lib.newGame(this.rules, this.dealSeed(number));
    if (number && this.rules.match_starter === "alternate") {
      const starter = 1 - results.at(-1).starter;
      state = this.lib.makeState({
        rules: state.rules,
        toAct: starter,
        foundations: state.foundations,
        houses: state.houses,
        reserves: state.reserves,
        reserveUp: state.reserveUp,
        hands: state.hands,
        wastes: state.wastes,
        turned: state.turned,
        emptied: state.emptied,
        passes: state.passes,
        movesMade: state.movesMade,
        seen: state.seen,
      });
    }
    return [state, state.toAct];
  }

  get state() {
    return this.match.state;
  }

  get number() {
    return this.match.results.length;
  }

  /** The deal's outcome when `player` resigns it (crapette.outcome.resignation). */
  resignation(state, player) {
    const held = this.lib.counts(state);
    const scores = [0, 0];
    scores[1 - player] = this.rules.win_bonus + held[player];
    return { winner: 1 - player, scores, reason: "resigned" };
  }

  /** The finished deals, the current one included once it is over (Match.results). */
  finished() {
    const { results, state, starter, resigned } = this.match;
    let ended = this.lib.outcome(state);
    if (ended === null) {
      if (resigned === null) return results;
      ended = this.resignation(state, resigned);
    }
    return [...results, { seed: this.dealSeed(this.number), starter, outcome: ended }];
  }

  totals(finished = this.finished()) {
    return [0, 1].map((p) => finished.reduce((sum, r) => sum + r.outcome.scores[p], 0));
  }

  /** Who won the match, or null while it runs (Match.outcome). */
  matchOutcome() {
    const finished = this.finished();
    const totals = this.totals(finished);
    if (this.match.resigned !== null) return { winner: 1 - this.match.resigned, totals };
    if (finished.length === this.number) return null;
    const target = this.rules.match_target;
    const deals = this.rules.match_deals;
    const reached = target !== null && Math.max(...totals) >= target;
    const playedOut = deals !== null && finished.length >= deals;
    if (!(reached || playedOut)) return null;
    const winner = totals[0] === totals[1] ? null : totals[0] > totals[1] ? 0 : 1;
    return { winner, totals };
  }

  get over() {
    return this.ended !== null || this.matchOutcome() !== null;
  }

  dealOutcome() {
    const results = this.finished();
    return results.length > this.number ? results[this.number].outcome : null;
  }

  get dealOver() {
    return this.dealOutcome() !== null;
  }

  status() {
    if (this.over) return "over";
    if (this.dealOver) return "deal_over";
    return "playing";
  }

  changed() {
    this.version += 1;
    if (this.onChange) this.onChange(this);
  }

  // ------------------------------------------------------------------ playing

  checkVersion(version) {
    if (version !== undefined && version !== null && version !== this.version) {
      throw refuse(409, "stale_version", `the game is at version ${this.version}, not ${version}: reload and choose again`);
    }
  }

  checkCanAct(seat, version) {
    if (this.over) throw refuse(409, "game_over", "the game is over");
    if (this.dealOver) throw refuse(409, "deal_over", "the deal is over: start the next deal");
    this.checkVersion(version);
    if (this.state.toAct !== seat) {
      throw refuse(409, "not_your_turn", `player ${this.state.toAct} is to act, not you`);
    }
  }

  /** The legal move a seat means by its notation (Session.parse). */
  parse(text) {
    const { lib, state } = this;
    let move;
    try {
      move = lib.parseMove(state, text);
    } catch (error) {
      if (error instanceof lib.IllegalMoveError) {
        const reason = error.code === null ? null : { code: error.code, params: error.params };
        throw refuse(422, "illegal_move", error.message, reason);
      }
      if (error instanceof lib.CrapetteError) throw refuse(422, "bad_move", error.message);
      throw error;
    }
    if (!lib.isLegal(state, move)) {
      const found = lib.refusal(state, move);
      if (found === null) throw refuse(422, "illegal_move", `${text}: not legal here`);
      throw refuse(422, "illegal_move", `${text}: ${lib.renderReason(found)}`, found);
    }
    return move;
  }

  play(seat, text, version) {
    this.checkCanAct(seat, version);
    this.apply(this.parse(text));
    this.runBots();
  }

  apply(move) {
    const { lib } = this;
    const before = this.state;
    const mover = before.toAct;
    const text = lib.formatMove(move);
    const entry = [mover, text, this.cardTexts(before, move)];
    this.match = { ...this.match, state: lib.apply(before, move) };
    this.moves.push(entry);
    this.log.push(["move", text]);
    if (!this.mayTakeBack(before, text)) this.fixed = this.moves.length;
    this.changed();
  }

  /** The face-up cards a play move takes (visible to both seats before and after). */
  cardTexts(state, move) {
    const { lib } = this;
    if (move.action !== "play") return [];
    const p = state.toAct;
    const text = (card) => lib.formatCard(card, state.rules.pack); // a card of the rules' pack
    if (move.source < 8) return state.houses[move.source].slice(-move.count).map(text);
    if (move.source === lib.RESERVE) return state.reserveUp[p] ? [text(state.reserves[p].at(-1))] : [];
    if (move.source === lib.HAND) return state.turned !== null ? [text(state.turned)] : [];
    return state.wastes[p].length ? [text(state.wastes[p].at(-1))] : [];
  }

  /** Whether the move just played from `before` may be taken back (Session._may_take_back). */
  mayTakeBack(before, text) {
    if (!this.undo || NO_UNDO.has(text) || this.dealOver) return false;
    const mover = before.toAct;
    if (this.seats.some((s, i) => i !== mover && s.kind !== "bot")) return false;
    const after = this.state;
    for (const seat of [0, 1]) {
      const seen = new Set(this.lib.observe(before, seat).visibleCards());
      if (!this.lib.observe(after, seat).visibleCards().every((c) => seen.has(c))) return false;
    }
    return true;
  }

  /** A bot seat's bot for the current deal: built once, seeded from the game's key. */
  bot(seat) {
    let bot = this.bots.get(seat);
    if (bot === undefined) {
      const message = `bot|${this.number}|${seat}|${this.state.movesMade}`;
      const digest = hmacSha256(fromHex(this.secret), message);
      const seed = BigInt(`0x${toHex(digest.slice(0, 8))}`);
      bot = this.seats[seat].name === "random" ? new this.lib.RandomBot(seed) : new this.lib.GreedyBot(seed);
      this.bots.set(seat, bot);
    }
    return bot;
  }

  runBots(limit = 5000) {
    let done = 0;
    while (done < limit && !this.dealOver && !this.over) {
      const seat = this.state.toAct;
      if (this.seats[seat].kind !== "bot") break;
      this.apply(this.bot(seat).choose(this.lib.observe(this.state, seat)));
      done += 1;
    }
    return done;
  }

  hint(seat) {
    this.checkCanAct(seat, null);
    const bot = new this.lib.GreedyBot(this.state.movesMade);
    return bot.choose(this.lib.observe(this.state, seat));
  }

  canUndo(seat) {
    if (!this.undo || this.over || this.dealOver || this.moves.length <= this.fixed) return false;
    if (this.seats.some((s, i) => i !== seat && s.kind !== "bot")) return false;
    return this.moves.at(-1)[0] === seat && this.state.toAct === seat && this.state.stop === null;
  }

  takeBack(seat, version) {
    this.checkVersion(version);
    if (!this.canUndo(seat)) throw refuse(409, "cannot_undo", "there is no move of yours that may be taken back");
    let state = this.start;
    for (const [, text] of this.moves.slice(0, -1)) state = this.lib.apply(state, text);
    this.match = { ...this.match, state };
    this.moves.pop();
    this.bots.clear();
    this.log.push(["undo", seat]);
    this.changed();
  }

  resign(seat, version) {
    if (this.over) throw refuse(409, "game_over", "the game is over");
    this.checkVersion(version);
    this.match = { ...this.match, resigned: seat };
    this.seats[seat].resigned = true;
    this.ended = `resigned by ${seat}`;
    this.bots.clear();
    this.log.push(["resign", seat]);
    this.changed();
  }

  nextDeal(seat, version, { bots = true } = {}) {
    if (this.over) throw refuse(409, "game_over", "the game is over");
    this.checkVersion(version);
    if (!this.dealOver) throw refuse(409, "deal_running", "the current deal is not over");
    this.records.push(this.recordText());
    const results = this.finished();
    const [state, starter] = this.dealState(results.length, results);
    this.match = { results, state, starter, resigned: null };
    this.start = state;
    this.moves = [];
    this.fixed = 0;
    this.bots.clear();
    this.log.push(["next", seat]);
    this.changed();
    if (bots) this.runBots();
  }

  // ------------------------------------------------------------------ records

  /** The current deal's record as text (GameRecord.from_moves, then format_record). */
  recordText() {
    const { lib } = this;
    const names = this.seats.map((s) => s.name);
    const headers = [
      ["Rules", String(this.rules)],
      ["Position", lib.formatPosition(this.start)],
      ["Player0", names[0]],
      ["Player1", names[1]],
      ["Result", formatResult(lib.outcome(this.state))],
      ["Behaviour", String(lib.BEHAVIOUR_VERSION)],
      ["Deal", String(this.number + 1)],
    ];
    const lines = headers.map(([key, value]) => `[${key} ${quote(value)}]`);
    lines.push("");
    const groups = [];
    this.moves.forEach(([seat, text], i) => {
      if (!groups.length || seat !== this.moves[i - 1][0]) groups.push([]);
      groups.at(-1).push(text);
    });
    groups.forEach((group, k) => {
      let line = `${k + 1}.`;
      const indent = " ".repeat(line.length);
      group.forEach((text, i) => {
        if (i && line.length + 1 + text.length > LINE_WIDTH) {
          lines.push(line);
          line = indent;
        }
        line += ` ${text}`;
      });
      lines.push(line);
    });
    return `${lines.join("\n")}\n`;
  }

  record(deal) {
    const number = deal ?? this.number + 1;
    if (number >= 1 && number <= this.records.length) return this.records[number - 1];
    if (number === this.records.length + 1 && (this.dealOver || this.over)) return this.recordText();
    throw refuse(409, "deal_running", "a deal's record is given once the deal is over");
  }

  // ------------------------------------------------------------------ payloads

  /** Everything a seat may know (Session.payload), built from its view. */
  payload(seat) {
    const { lib, state } = this;
    const view = lib.observe(state, seat);
    const result = this.dealOutcome();
    const acting = !this.over && result === null && state.toAct === seat;
    const legal = acting ? lib.legalMoves(state).map((move) => this.moveEntry(move)) : [];
    return {
      game_id: this.id,
      seat,
      version: this.version,
      status: this.status(),
      rules: String(this.rules),
      players: this.seats.map((s) => ({ kind: s.kind, name: s.name, joined: true })),
      to_act: view.toAct,
      turn_player: view.turnPlayer,
      your_turn: acting,
      view: this.viewJson(view),
      legal_moves: legal,
      last_moves: this.recent(seat),
      outcome: this.outcomeJson(result),
      match: this.matchJson(),
      can_undo: this.canUndo(seat),
      ended: this.ended,
    };
  }

  moveEntry(move) {
    const { lib, state } = this;
    const entry = { code: move.index, notation: lib.formatMove(move), action: move.action };
    if (move.isPlay) {
      entry.from = this.pileName(move.source);
      entry.to = this.pileName(move.target);
      entry.count = move.count;
      if (state.rules.callable_stop) entry.violation = lib.apply(state, move).stop !== null;
    }
    return entry;
  }

  /** A pile's absolute name as the page names it (H3, R0, W1, T, F). */
  pileName(code) {
    const { lib } = this;
    const p = this.state.toAct;
    if (code < 8) return `H${code + 1}`;
    const names = {
      [lib.RESERVE]: `R${p}`,
      [lib.HAND]: "T",
      [lib.WASTE]: `W${p}`,
      [lib.FOUNDATION]: "F",
      [lib.OPP_RESERVE]: `R${1 - p}`,
      [lib.OPP_WASTE]: `W${1 - p}`,
    };
    return names[code];
  }

  /** The other seat's moves since this seat's last move (at most RECENT_MOVES). */
  recent(seat) {
    const out = [];
    for (let number = this.moves.length - 1; number >= 0; number--) {
      const [who, text, cards] = this.moves[number];
      if (who === seat) break;
      const entry = { number: number + 1, seat: who, move: text, cards };
      if (text.includes("-")) {
        const [source, target] = [text.slice(0, text.indexOf("-")), text.slice(text.indexOf("-") + 1)];
        const own = { R: `R${who}`, W: `W${who}`, T: "T" };
        entry.from = own[source] ?? source;
        entry.to = target.split("x")[0];
      }
      out.push(entry);
      if (out.length >= RECENT_MOVES) break;
    }
    return out.reverse();
  }

  viewJson(view) {
    const { lib, state } = this;
    const text = (card) => lib.formatCard(card, state.rules.pack); // a card of the rules' pack
    const pile = (cards) => cards.map(text);
    const pending = state.stop;
    const stop =
      view.stop !== null && pending !== null
        ? { move: lib.formatMove(pending.move), offender: view.stop.offender, resume: view.stop.resume }
        : null;
    return {
      player: view.player,
      foundations: view.foundations.map(pile),
      houses: view.houses.map(pile),
      reserves: [0, 1].map((p) => ({ down: view.reservesDown[p], up: pile(view.reservesUp[p]) })),
      hands: [...view.handSizes],
      wastes: view.wastes.map(pile),
      turned: view.turned !== null ? text(view.turned) : null,
      stop,
      moves_made: view.movesMade,
      false_calls: [...view.falseCalls],
    };
  }

  outcomeJson(result) {
    if (result === null) return null;
    const { rules, state } = this;
    const tally = (p) => {
      const reserve = state.reserves[p].length;
      const hand = state.hands[p].length + (state.turned !== null && state.turnPlayer === p ? 1 : 0);
      const waste = state.wastes[p].length;
      return { reserve, hand, waste, count: rules.reserve_points * reserve + rules.hand_points * (hand + waste) };
    };
    return {
      winner: result.winner,
      scores: [...result.scores],
      reason: result.reason,
      text: formatResult(result),
      tally: [tally(0), tally(1)],
      points: {
        reserve: rules.reserve_points,
        hand: rules.hand_points,
        win_bonus: result.winner !== null ? rules.win_bonus : 0,
      },
    };
  }

  matchJson() {
    const finished = this.finished();
    const over = this.over;
    const done = this.matchOutcome();
    return {
      deal: this.number + 1,
      target: this.rules.match_target,
      deals: this.rules.match_deals,
      totals: this.totals(finished),
      results: finished.map((r) => ({ winner: r.outcome.winner, scores: [...r.outcome.scores], reason: r.outcome.reason })),
      over,
      winner: done !== null ? done.winner : null,
      resigned: this.match.resigned,
      seed: over ? String(this.seed) : null,
    };
  }

  // ------------------------------------------------------------------ storage

  saved() {
    return {
      format: "crapette-local/1",
      id: this.id,
      rules: String(this.rules),
      seed: String(this.seed),
      seats: this.seats.map((s) => ({ ...s, resigned: false })),
      secret: this.secret,
      undo: this.undo,
      log: this.log,
    };
  }

  /** A game from `saved()`: its deals replayed, step by step as they were made. */
  static restore(lib, data) {
    if (!data || data.format !== "crapette-local/1") throw new Error("not a saved game");
    const game = new LocalGame(lib, {
      id: data.id,
      rules: lib.parseRules(data.rules),
      seed: BigInt(data.seed),
      seats: data.seats,
      secret: data.secret,
      undo: data.undo,
    });
    for (const [kind, value] of data.log) {
      if (kind === "move") game.apply(game.parse(value));
      else if (kind === "undo") game.takeBack(value, null);
      else if (kind === "next") game.nextDeal(value, null, { bots: false });
      else if (kind === "resign") game.resign(value, null);
    }
    return game;
  }
}

/**
 * The serverless backend over `lib`, the crapette JavaScript package (its module object).
 * `storage` keeps the games across reloads (the page's localStorage; null: kept in memory
 * only); `secret` draws a game's key (default: 256 random bits from the browser).
 */
export function createLocalBackend(lib, { storage = globalThis.localStorage ?? null, secret = () => randomHex(32) } = {}) {
  const seat = { gameId: null, token: null, seat: null };
  const games = new Map();
  const listeners = new Set();

  const save = (game) => {
    if (!storage) return;
    try {
      storage.setItem(STORE_PREFIX + game.id, JSON.stringify(game.saved()));
    } catch {
      // a full or refused storage: the game goes on, it only will not survive a reload
    }
  };

  const current = () => {
    const game = games.get(seat.gameId);
    if (!game) throw refuse(404, "no_such_game", `there is no game ${seat.gameId} in this browser`);
    return game;
  };

  /** Run an action of the open seat: each new version goes to the subscribers (in order,
   *  before the answer, as the server's live updates come), and the game is saved. */
  const act = (work) => {
    const game = current();
    const updates = [];
    game.onChange = () => updates.push(game.payload(seat.seat));
    try {
      work(game);
    } finally {
      game.onChange = null;
      if (updates.length) save(game);
    }
    for (const payload of updates) for (const listener of listeners) listener(payload);
    return game.payload(seat.seat);
  };

  const wrap = (fn) => async (...args) => {
    try {
      return fn(...args);
    } catch (error) {
      if (error instanceof BackendError) throw error;
      if (error instanceof lib.CrapetteError) throw refuse(422, "invalid_request", error.message);
      throw error;
    }
  };

  return {
    local: true,
    get gameId() { return seat.gameId; },
    get token() { return seat.token; },
    get seat() { return seat.seat; },
    presets: wrap(() => ({
      presets: Object.entries(lib.PRESETS).map(([name, r]) => ({
        name,
        rules: String(r),
        match_target: r.match_target,
        match_deals: r.match_deals,
        callable_stop: r.callable_stop,
        options: Object.fromEntries(Object.keys(lib.OPTIONS).map((key) => [key, r[key]])),
      })),
      bots: [...BOTS],
      human: false,
      callable_stop: Object.entries(lib.PRESETS).filter(([, r]) => r.callable_stop).map(([n]) => n),
    })),
    create: wrap((spec = {}) => {
      let rules;
      try {
        rules = lib.parseRules(spec.rules ?? "classic");
        rules = spec.match
          ? rules.replace({ match_target: spec.match.target ?? null, match_deals: spec.match.deals ?? null })
          : rules.replace({ match_target: null, match_deals: 1 });
      } catch (error) {
        if (error instanceof lib.CrapetteError) throw refuse(422, "bad_rules", error.message);
        throw error;
      }
      const opponent = spec.opponent ?? "greedy";
      if (!BOTS.includes(opponent)) {
        throw refuse(422, "bad_opponent", `the page without a server plays against ${BOTS.join(" or ")}, not ${opponent}`);
      }
      const chosen = spec.seed !== undefined && spec.seed !== null && spec.seed !== "";
      const seed = chosen ? parseSeed(spec.seed) : BigInt(`0x${randomHex(8)}`) & MAX_SEED;
      const mine = spec.seat === 1 ? 1 : 0;
      const seats = [0, 1].map((i) =>
        i === mine ? { kind: "human", name: "human", resigned: false } : { kind: "bot", name: opponent, resigned: false },
      );
      const game = new LocalGame(lib, {
        id: randomHex(8),
        rules,
        seed,
        seats,
        secret: chosen ? chosenSecret(seed) : secret(),
        undo: spec.undo ?? true,
      });
      games.set(game.id, game);
      Object.assign(seat, { gameId: game.id, token: null, seat: mine });
      game.runBots();
      save(game);
      return { game_id: game.id, seat: mine, token: null, invite: null };
    }),
    join: wrap(() => {
      throw refuse(403, "bad_invite", "the page without a server has no games between two people");
    }),
    resume: wrap((gameId) => {
      let game = games.get(gameId);
      if (!game) {
        const text = storage ? storage.getItem(STORE_PREFIX + gameId) : null;
        if (!text) throw refuse(404, "no_such_game", `there is no game ${gameId} in this browser`);
        try {
          game = LocalGame.restore(lib, JSON.parse(text));
        } catch (error) {
          throw refuse(404, "no_such_game", `the game ${gameId} kept in this browser cannot be read (${error.message})`);
        }
        games.set(gameId, game);
      }
      const mine = game.seats.findIndex((s) => s.kind === "human");
      Object.assign(seat, { gameId, token: null, seat: mine });
      return game.payload(mine);
    }),
    state: wrap(() => current().payload(seat.seat)),
    move: wrap((notation, version) => act((g) => g.play(seat.seat, notation, version))),
    stop: wrap((callIt, version) =>
      act((g) => {
        if (g.state.stop === null || g.state.toAct !== seat.seat) {
          throw refuse(409, "no_stop_decision", "there is no Stop! decision for you");
        }
        g.play(seat.seat, callIt ? "stop" : "pass", version);
      }),
    ),
    undo: wrap((version) => act((g) => g.takeBack(seat.seat, version))),
    hint: wrap(() => {
      const move = current().hint(seat.seat);
      return { code: move.index, notation: lib.formatMove(move) };
    }),
    nextDeal: wrap((version) => act((g) => g.nextDeal(seat.seat, version))),
    resign: wrap(() => act((g) => g.resign(seat.seat, null))),
    record: wrap((deal) => current().record(deal)),
    subscribe(onUpdate) {
      listeners.add(onUpdate);
      return () => listeners.delete(onUpdate);
    },
  };
}
