// The reference web page: a card table in the player's language. The table is drawn from
// the backend's payloads (table.js); the player moves cards by dragging them, by tapping a
// card then where it goes, or from the keyboard (Tab over the piles, Enter to pick and to
// drop). Every move, the player's and the opponent's, slides into place at the chosen pace.
// The page decides nothing of the rules: legal moves, whose turn it is, the end of a deal and
// its score all come from the backend (api.js).
//
// Two more modes use the same table (body[data-mode]): the review of a finished deal (every
// move judged by the engine, the board before it, the best line drawn as arrows) and puzzle
// mode (a shipped puzzle played as a turn through puzzle.js's backend, the answer checked by
// the engine). Both need the server's engine: the page without a server hides them.
import { createBackend } from "./api.js";
import * as cards from "./cards.js";
import * as i18n from "./i18n.js";
import * as refusals from "./refusals.js";
import * as sound from "./sound.js";
import { rulesBody, guideItems } from "./rules.js";
import { createPuzzleBackend } from "./puzzle.js";
import * as review from "./review.js";
import { OPTIONS } from "./spec.js";
import { Table, pileCards } from "./table.js";
import * as words from "./words.js";

const { t } = i18n;
const $ = (selector) => document.querySelector(selector);

const SPEEDS = { slow: [700, 420], normal: [320, 160], fast: [160, 60], off: [0, 0] };
/** The slide and pause of a move, in ms, per setting. The opponent's moves of one turn
 * speed up one after the other (each takes ACCELERATION of the one before, down to
 * FLOOR_MS a move), so that a short turn is easy to follow and a long one does not drag:
 * at the normal pace a turn of 50 moves is shown in about 6.2 s (the 1st move 430 ms, from
 * the 17th on 80 ms); the button.skip control on the table shows the rest of the turn at once. */
const ACCELERATION = 0.9;
const FLOOR_MS = 80;
const GAP_WAIT_MS = 700; // how long a later version waits for the ones before it
const RATIONED_CALLS = 3; // the false calls a player may make in a deal under false_call=rationed

const settings = loadSettings();
const gameBackend = await createBackend();
let backend = gameBackend; // the game backend, or in puzzle mode the puzzle backend (puzzle.js)
/** Whether the backend runs the engine's analyses (the server; not the page without one). */
const analysis = typeof gameBackend.review === "function";
const table = new Table($("#board"));

const session = {
  game: null, // the payload on the table
  busy: false, // a request is out or moves are being shown
  selected: null, // {pile, depth}
  hint: null, // a legal move entry
  verdict: null, // {version, text, kind}: what a call at a turn's start came to, to say
  presets: [],
  guideRules: null, // the rules string whose words the first-deal guide shows
  lastSeen: 0, // the number of the opponent's latest move shown
  known: {}, // move number -> card, for the moves list
  pending: null, // the player's move in flight: {version, move, rects, card}
  resultShown: null,
  drag: null,
  unsubscribe: null,
  mode: "game", // "game", "review" (a finished deal judged) or "puzzle"
  review: null, // {data: the review of the server, index: the move shown (decisions.length: the end)}
  puzzles: null, // the shipped puzzle set, as listed
  puzzle: null, // {number, verdict}
  get token() { return backend.token; },
  get id() { return backend.gameId; },
  get backend() { return backend; },
  get idle() { return !this.busy && queue.size === 0 && taps.length === 0; },
};
window.crapette = session; // for the browser tests and the curious

// ---------------------------------------------------------------- settings

function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem("crapette:settings") || "{}");
  } catch {
    saved = {};
  }
  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return {
    speed: saved.speed || (reduce ? "off" : "normal"),
    sound: Boolean(saved.sound),
    dev: Boolean(saved.dev),
    lang: saved.lang || null,
  };
}

function saveSettings() {
  localStorage.setItem("crapette:settings", JSON.stringify(settings));
}

function timing() {
  return SPEEDS[settings.speed] || SPEEDS.normal;
}

// ---------------------------------------------------------------- messages

function say(text, kind = "info") {
  const message = $("#message");
  message.textContent = text;
  message.dataset.kind = kind;
  if (kind === "error") {
    $("#alert").textContent = text;
    sound.play("refuse");
  } else {
    announce(text);
  }
}

function announce(text) {
  const live = $("#announce");
  live.textContent = "";
  // a new text node after a tick, so that the same words are announced again
  setTimeout(() => (live.textContent = text), 30);
}

function refuse(error) {
  say(refusals.explain(error), "error");
}

// ---------------------------------------------------------------- live updates, paced

const queue = new Map(); // version -> payload, waiting to be shown
let pumping = false;
let streak = 0; // the opponent's moves shown in a row (this turn): they speed up
let turnClock = null; // {start, planned}: when the opponent's moves began to be shown, and
// the time their schedule gives them so far (the pauses absorb the drawing's own time)
let skipping = false; // the skip control was pressed: show the rest of the turn at once

function receive(payload) {
  if (!payload || payload.game_id !== backend.gameId) return;
  const shown = session.game;
  if (shown && shown.game_id === payload.game_id && payload.version <= shown.version) return;
  queue.set(payload.version, payload);
  pump();
}

async function pump() {
  if (pumping) return;
  pumping = true;
  let gapSince = null;
  try {
    while (queue.size) {
      const shownVersion = session.game && session.game.game_id === backend.gameId ? session.game.version : -1;
      for (const v of [...queue.keys()]) if (v <= shownVersion) queue.delete(v);
      if (!queue.size) break;
      const [base, basePause] = timing();
      const versions = [...queue.keys()].sort((a, b) => a - b);
      if (!base || skipping) {
        const last = queue.get(versions.at(-1));
        queue.clear();
        for (const run of document.getAnimations()) run.finish();
        show(last, 0);
        continue;
      }

      const next = versions[0];
      if (shownVersion >= 0 && next > shownVersion + 1) {
        // a later version came first (the answer to a move, before the live updates of the
        // moves in between): wait a little for those, then go on without them
        gapSince = gapSince ?? performance.now();
        if (performance.now() - gapSince < GAP_WAIT_MS) {
          await sleep(40);
          continue;
        }
      }
      gapSince = null;
      const payload = queue.get(next);
      queue.delete(next);
      const theirs = !payload.your_turn && payload.status === "playing";
      if (!theirs) {
        streak = 0;
        turnClock = null;
        refreshBusy();
        await show(payload, base);
        if (queue.size && !skipping) await sleep(basePause);
        continue;
      }
      // the opponent's moves of a turn speed up, one after the other, against a clock: a
      // move shown late (the table, or a slow machine, takes time to draw) slides for less
      // time, or is shown at once when the turn is a whole slide behind
      streak += 1;
      const factor = Math.max(FLOOR_MS / (base + basePause), ACCELERATION ** streak);
      const duration = Math.round(base * factor);
      const pause = Math.round(basePause * factor);
      turnClock = turnClock || { start: performance.now(), planned: 0 };
      const late = performance.now() - turnClock.start - turnClock.planned;
      turnClock.planned += duration + pause;
      refreshBusy();
      await show(payload, Math.max(0, Math.round(duration - Math.max(0, late))));
      const wait = turnClock.start + turnClock.planned - performance.now();
      if (queue.size && !skipping && wait > 0) await sleep(wait);
    }
  } finally {
    pumping = false;
    skipping = false;
    refreshBusy();
  }
}

/** The skip control (button.skip): the opponent's moves waiting to be shown are shown at once. */
function skipToEnd() {
  if (!pumping && !queue.size) return;
  skipping = true;
  for (const run of document.getAnimations()) run.finish();
  refreshBusy();
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let requests = 0;
/** Clicks, taps and keys made while the page is busy (a request out, or moves being
 * shown), kept in order and made one after the other once it is idle, each against the
 * table as it is then (a move that has become impossible is refused with the reason, as
 * any other): a player's tap is never lost to an animation or a slow answer. */
const taps = [];
let draining = false;
let applying = false; // a waiting tap is being made (it does not wait behind the others)

/** Whether a tap made now must wait: the page is busy, or earlier taps wait. */
function mustWait() {
  return session.busy || (taps.length > 0 && !applying);
}

/** Do `action` now, or once the page is idle if it is busy (then in order). */
function whenIdle(action) {
  if (mustWait()) {
    taps.push({ game: session.game ? session.game.game_id : null, action });
    refreshBusy();
    return;
  }
  action();
}

function refreshBusy() {
  session.busy = requests > 0 || pumping || queue.size > 0;
  document.body.dataset.busy = String(session.busy);
  const skippable = !skipping && (pumping || queue.size > 0) && Boolean(session.game) && !session.game.your_turn;
  $("#btn-skip").disabled = !skippable;
  if (!session.busy && taps.length && !draining) {
    draining = true;
    setTimeout(drain, 0);
  }
}

/** Make the oldest waiting tap, if the page is idle; the next one follows when it is idle
 * again (right away when the tap made no request). */
function drain() {
  draining = false;
  if (session.busy) return;
  const next = taps.shift();
  if (next) {
    const game = session.game ? session.game.game_id : null;
    applying = true;
    try {
      if (next.game === game) next.action(); // (a tap made on another game is dropped)
    } finally {
      applying = false;
    }
  }
  refreshBusy();
}

async function request(work) {
  requests += 1;
  refreshBusy();
  try {
    return await work();
  } finally {
    requests -= 1;
    refreshBusy();
  }
}

// ---------------------------------------------------------------- showing a payload

/** The move that leads from the table's payload to `next`, with where its cards start. */
function motionTo(next) {
  const prev = session.game;
  if (!prev || prev.game_id !== next.game_id || prev.match.deal !== next.match.deal) return null;
  if (next.version !== prev.version + 1) return null;
  const me = next.seat;
  const pending = session.pending;
  if (pending && pending.version === prev.version) {
    const move = { ...pending.move, card: pending.card };
    return { move, actor: "you", rects: pending.rects };
  }
  const fresh = next.last_moves.filter((m) => m.number > session.lastSeen);
  if (fresh.length !== 1) return null;
  const entry = fresh[0];
  const action = words.actionOf(entry.move);
  const move = { action, count: 1, card: entry.cards[0] || null };
  if (action === "play") {
    const ends = words.ends(entry);
    Object.assign(move, ends);
    const x = entry.move.match(/x(\d+)$/);
    move.count = x ? Number(x[1]) : 1;
  } else if (action === "draw") {
    Object.assign(move, { from: `K${1 - me}`, to: "T", card: next.view.turned });
  } else if (action === "discard") {
    Object.assign(move, { from: "T", to: `W${1 - me}`, card: prev.view.turned });
  } else if (action === "reveal") {
    Object.assign(move, { from: `R${1 - me}`, to: `R${1 - me}`, card: next.view.reserves[1 - me].up.at(-1) });
  } else if (action === "flip") {
    Object.assign(move, { from: `K${1 - me}`, to: `W${1 - me}`, card: next.view.wastes[1 - me].at(-1) || null });
  }
  if (move.card) session.known[entry.number] = move.card;
  return { move, actor: "opp", rects: null };
}

function myMove(entry, game) {
  // the player's legal move entry, with its card (the top of its source, or the turned one)
  const move = { action: entry.action, from: entry.from, to: entry.to, count: entry.count || 1 };
  const me = game.seat;
  let card = null;
  if (entry.action === "play") {
    const list = pileCards(game.view, entry.from, game.turn_player);
    card = list.at(-(entry.count || 1)) || null;
  } else if (entry.action === "draw") {
    Object.assign(move, { from: `K${me}`, to: "T" });
  } else if (entry.action === "discard") {
    Object.assign(move, { from: "T", to: `W${me}` });
    card = game.view.turned;
  } else if (entry.action === "reveal") {
    Object.assign(move, { from: `R${me}`, to: `R${me}` });
  } else if (entry.action === "flip") {
    Object.assign(move, { from: `K${me}`, to: `W${me}` });
  }
  return { move, card };
}

async function show(payload, duration) {
  if (session.mode === "review") {
    session.game = payload; // (drawn when the review closes)
    return;
  }
  const motion = motionTo(payload);
  let rects = null;
  if (motion && motion.move.from && duration) {
    rects = motion.rects || table.snapshot(motion.move.from, motion.move.count || 1);
  }
  const newGame = !session.game || session.game.game_id !== payload.game_id;
  const prevStatus = newGame ? null : session.game.status;
  const newDeal = !newGame && session.game.match.deal !== payload.match.deal;
  if (newGame || newDeal) {
    session.lastSeen = 0;
    session.known = {};
  }
  let passed = null; // the player's move, shown at once with the replies that followed it
  if (session.pending && payload.version > session.pending.version) {
    if (!motion) passed = { ...session.pending.move, card: session.pending.card };
    session.pending = null;
  }
  session.game = payload;
  session.hint = null;
  if (!payload.your_turn) session.selected = null;
  document.body.dataset.status = payload.status; // (the board shows: it is measured)
  placeGuide();
  table.render(payload);
  if (motion && motion.move.action === "draw" && motion.actor === "you") {
    motion.move.card = payload.view.turned;
  }
  if (motion && motion.move.action === "flip" && motion.actor === "you") {
    motion.move.card = payload.view.wastes[payload.seat].at(-1) || null;
  }
  updatePanel(payload);
  mark();
  if (motion) {
    const text = words.describe(motion.move, motion.actor, payload.seat);
    if (motion.actor === "opp") announce(text);
    else say(text);
    if (motion.move.to && duration) {
      sound.play("card");
      await table.slide(motion.move.to, rects, {
        duration,
        count: motion.move.count || 1,
        card: motion.move.card,
      });
    }
  } else if (!newGame) {
    if (passed) say(words.describe(passed, "you", payload.seat));
    announceFresh(payload);
  }
  if (session.verdict && (newGame || payload.version > session.verdict.version)) {
    if (!newGame) say(session.verdict.text, session.verdict.kind); // (a call's verdict)
    session.verdict = null;
  }
  if (payload.last_moves.length) session.lastSeen = payload.last_moves.at(-1).number;
  if (payload.your_turn && motion && motion.actor === "opp") sound.play("turn");
  if (prevStatus === "waiting" && payload.status === "playing") say(t("say.joined.host"));
  maybeShowResult(payload);
}

function announceFresh(payload) {
  const fresh = payload.last_moves.filter((m) => m.number > session.lastSeen);
  if (!fresh.length) return;
  // several moves at once (the replies came with the answer to the player's move): the
  // message line says the player's own last move, as it does move by move
  const own = fresh.filter((entry) => entry.seat === payload.seat);
  if (own.length) $("#message").textContent = describeEntry(own.at(-1), payload.seat);
  announce(fresh.map((entry) => describeEntry(entry, payload.seat)).join(" "));
}

function describeEntry(entry, me) {
  const action = words.actionOf(entry.move);
  const move = { action, card: entry.cards[0] || session.known[entry.number] || null, count: 1 };
  if (action === "play") {
    Object.assign(move, words.ends(entry));
    const x = entry.move.match(/x(\d+)$/);
    move.count = x ? Number(x[1]) : 1;
  }
  return words.describe(move, entry.seat === me ? "you" : "opp", me);
}

// ---------------------------------------------------------------- the panel

/** The first-deal guide: in the table's place while no game is on it (a first visit),
 * in the panel beside the table during a game. */
function placeGuide() {
  const guide = $("#guide");
  if ((session.game ? session.game.rules : chosenRules()) !== session.guideRules) showGuide();
  if (session.game) {
    if (guide.parentElement !== $("#panel")) $("#panel").prepend(guide);
  } else if (guide.parentElement !== $("#table")) {
    $("#table").insertBefore(guide, $("#board"));
  }
}

function updatePanel(game) {
  document.body.dataset.status = game.status;
  placeGuide();
  document.body.dataset.version = String(game.version);
  document.body.dataset.yourTurn = String(game.your_turn);
  const me = game.seat;
  const m = game.match;
  $("#score").textContent = t("score.line", {
    deal: m.deal,
    you: m.totals[me],
    opp: m.totals[1 - me],
    format: words.matchWords(m),
  });
  $("#turn").textContent = turnText(game);
  $("#rules-name").textContent = `${words.rulesName(game.rules)} · ${words.matchWords(m)}`;
  const has = (action) => game.legal_moves.some((mv) => mv.action === action);
  $("#btn-draw").disabled = !has("draw") && !has("reveal") && !has("flip");
  $("#btn-draw").textContent = has("flip")
    ? t("button.flip")
    : has("reveal") && !has("draw") ? t("button.reveal") : t("button.draw");
  // the call at a turn's start (call_window=turn_start): offered while the rules allow it
  const options = words.optionsOf(game.rules, session.presets);
  const callAtStart = options.call_window === "turn_start";
  $("#btn-call").hidden = !callAtStart;
  $("#btn-call").disabled = !(has("stop") && !game.view.stop);
  // under false_call=rationed, the false calls the player has left this deal
  $("#btn-call").textContent = options.false_call === "rationed"
    ? t("button.call.left", { count: Math.max(0, RATIONED_CALLS - game.view.false_calls[me]) })
    : t("button.call");
  $("#btn-discard").disabled = !(has("discard") || has("end"));
  $("#btn-discard").textContent = has("end") ? t("button.end") : t("button.discard");
  $("#btn-hint").disabled = !game.your_turn || game.status !== "playing";
  // Undo: only while the deal runs (the page refuses it once the deal is over, whatever the
  // backend would say) and when the backend allows it
  $("#btn-undo").disabled = !(game.can_undo && game.status === "playing");
  $("#btn-resign").disabled = game.status === "over";
  $("#btn-next").hidden = game.status !== "deal_over";
  $("#btn-result").hidden = !(game.outcome || game.status === "over");
  $("#btn-review").hidden = !analysis || !(game.status === "deal_over" || game.status === "over");
  const list = $("#opponent-moves");
  list.replaceChildren(
    ...game.last_moves.map((entry) => {
      const li = document.createElement("li");
      li.value = entry.number;
      li.textContent = describeEntry(entry, me);
      li.classList.toggle("fresh", entry.number > session.lastSeen);
      return li;
    }),
  );
  list.scrollTop = list.scrollHeight; // the newest move in view, whole
  const stop = game.view.stop;
  const dialog = $("#stop-dialog");
  if (stop && game.your_turn) {
    const entry = game.last_moves.at(-1) || stopEntry(stop); // (a puzzle starts at the decision)
    const text = describeEntry(entry, me);
    $("#stop-text").textContent = t("stop.text", { move: text });
    if (!dialog.open) dialog.showModal();
  } else if (dialog.open) {
    dialog.close();
  }
  const invite = loadSeat(game.game_id)?.invite;
  $("#invite").hidden = !(invite && game.status === "waiting");
  if (invite) $("#invite-link").value = `${location.origin}${location.pathname}?game=${game.game_id}&invite=${invite}`;
  updateDev(game);
  if (session.mode === "puzzle") updatePuzzlePanel();
}

/** A Stop! decision's move as a recent-move entry (without its cards), to say it. */
function stopEntry(stop) {
  const entry = { number: 0, seat: stop.offender, move: stop.move, cards: [] };
  if (stop.move.includes("-")) {
    const [source, target] = stop.move.split("-");
    const own = { R: `R${stop.offender}`, W: `W${stop.offender}`, T: "T" };
    entry.from = own[source] || source;
    entry.to = target.split("x")[0];
  }
  return entry;
}

function turnText(game) {
  if (game.status === "waiting") return t("turn.waiting");
  if (game.status === "over") return game.ended ? t("turn.resigned") : t("turn.over");
  if (game.status === "deal_over") return t("turn.dealover");
  if (game.view.stop && !game.your_turn) return t("turn.stop.theirs");
  if (game.view.stop) return t("turn.stop.yours");
  return game.your_turn ? t("turn.yours") : t("turn.theirs");
}

function updateDev(game) {
  $("#dev-panel").hidden = !settings.dev;
  if (!settings.dev) return;
  // the payload's own fields and codes, for developers (no words: nothing to translate)
  const fields = {
    game_id: game.game_id, seat: game.seat, version: game.version, rules: game.rules,
    status: game.status, to_act: game.to_act, moves_made: game.view.moves_made,
    last_moves: game.last_moves.map((m) => m.number + ":" + m.move),
  };
  $("#dev-info").textContent = JSON.stringify(fields, null, 1);
  $("#legal-moves").replaceChildren(
    ...game.legal_moves.map((move) => {
      const li = document.createElement("li");
      li.textContent = move.notation + " " + move.code;
      return li;
    }),
  );
}

// ---------------------------------------------------------------- the result panel

function maybeShowResult(game) {
  if (session.mode !== "game") return;
  const over = game.status === "deal_over" || game.status === "over";
  if (!over) return;
  const key = `${game.game_id}:${game.match.deal}:${game.status}`;
  if (session.resultShown === key) return;
  session.resultShown = key;
  fillResult(game);
  say($("#result-title").textContent);
  const dialog = $("#result-dialog");
  if (!dialog.open) dialog.showModal();
  const me = game.seat;
  const won = game.outcome ? game.outcome.winner : null;
  sound.play(won === me ? "win" : won === null ? "turn" : "lose");
}

function cell(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** Whether the deal ended blocked under blocked=draw (no winner, 0 to both). */
function blockedDraw(game) {
  const outcome = game.outcome;
  if (!outcome || outcome.winner !== null || outcome.reason === "resigned") return false;
  return words.optionsOf(game.rules, session.presets).blocked === "draw";
}

function fillResult(game) {
  const me = game.seat;
  const opp = 1 - me;
  const outcome = game.outcome;
  const m = game.match;
  let title;
  if (outcome === null || outcome === undefined) title = game.ended ? resignedText(game) : t("result.over");
  else if (outcome.winner === me) title = t("result.win");
  else if (outcome.winner === opp) title = t("result.lose");
  else if (blockedDraw(game)) title = t("result.draw");
  else title = t(outcome.reason === "move_cap" ? "result.cap" : "result.stalemate");
  $("#result-title").textContent = title;
  const head = $("#result-table thead");
  const body = $("#result-table tbody");
  head.replaceChildren();
  body.replaceChildren();
  let reasonText = "";
  let scoreText = "";
  if (outcome) {
    const points = outcome.points;
    const row = cell("tr", "");
    row.replaceChildren(cell("td", ""), cell("th", t("result.you"), { scope: "col" }), cell("th", t("result.opp"), { scope: "col" }));
    head.append(row);
    const line = (label, key, values) => {
      const tr = document.createElement("tr");
      tr.dataset.row = key;
      tr.append(cell("th", label, { scope: "row" }));
      for (const [side, v] of [[me, values(me)], [opp, values(opp)]]) {
        tr.append(cell("td", v.text, { "data-side": side === me ? "you" : "opp", "data-value": String(v.value) }));
      }
      body.append(tr);
    };
    const tally = outcome.tally;
    line(t("result.row.reserve", { points: points.reserve }), "reserve", (p) => ({
      value: tally[p].reserve,
      text: t("result.times", { cards: tally[p].reserve, points: points.reserve, total: tally[p].reserve * points.reserve }),
    }));
    line(t("result.row.hand", { points: points.hand }), "hand", (p) => ({
      value: tally[p].hand + tally[p].waste,
      text: t("result.times.hand", {
        hand: tally[p].hand, waste: tally[p].waste, points: points.hand,
        total: (tally[p].hand + tally[p].waste) * points.hand,
      }),
    }));
    line(t("result.row.count"), "count", (p) => ({ value: tally[p].count, text: t("result.number", { value: tally[p].count }) }));
    line(t("result.row.bonus"), "bonus", (p) => {
      const value = outcome.winner === p ? points.win_bonus : 0;
      return { value, text: t("result.number", { value }) };
    });
    line(t("result.row.score"), "score", (p) => ({ value: outcome.scores[p], text: t("result.number", { value: outcome.scores[p] }) }));
    const w = outcome.winner;
    if (w !== null) {
      reasonText = t(w === me ? "result.reason.win.you" : "result.reason.win.opp");
      scoreText = t(w === me ? "result.sum.you" : "result.sum.opp", {
        bonus: points.win_bonus, count: tally[1 - w].count, score: outcome.scores[w],
      });
    } else {
      const low = tally[0].count <= tally[1].count ? 0 : 1;
      reasonText = t(outcome.reason === "move_cap" ? "result.reason.cap" : "result.reason.stalemate");
      if (blockedDraw(game)) reasonText = t("result.reason.draw");
      scoreText = outcome.scores[low]
        ? t(low === me ? "result.diff.you" : "result.diff.opp", {
            high: tally[1 - low].count, low: tally[low].count, score: outcome.scores[low],
          })
        : t("result.diff.none");
    }
  }
  $("#result-reason").textContent = reasonText;
  $("#result-score").textContent = scoreText;
  const parts = [t("result.totals", { you: m.totals[me], opp: m.totals[opp] }), words.matchWords(m)];
  if (m.over) {
    parts.push(m.winner === me ? t("result.match.win") : m.winner === opp ? t("result.match.lose") : t("result.match.draw"));
  } else if (game.status === "deal_over") {
    parts.push(t("result.match.next", { deal: m.deal + 1 }));
  }
  $("#result-match").textContent = parts.join(" · ");
  $("#btn-result-next").hidden = game.status !== "deal_over";
  $("#btn-result-review").hidden = !analysis;
}

function resignedText(game) {
  const who = game.ended && game.ended.endsWith(String(game.seat)) ? "you" : "opp";
  return t(`result.resigned.${who}`);
}

// ---------------------------------------------------------------- choosing moves

function plays(pile) {
  return (session.game?.legal_moves || []).filter((m) => m.action === "play" && m.from === pile);
}

function targetsOf(selected) {
  const game = session.game;
  const me = game.seat;
  const out = new Set();
  for (const m of plays(selected.pile)) {
    if (selected.pile[0] !== "H" || m.count === selected.depth || selected.depth === 1) out.add(m.to);
  }
  if (selected.pile === "T" && game.legal_moves.some((m) => m.action === "discard")) out.add(`W${me}`);
  return out;
}

function mark() {
  const marks = new Map();
  const add = (pile, c, depth) => {
    const list = marks.get(pile) || [];
    list.push(c);
    if (depth) list.depth = depth;
    marks.set(pile, list);
  };
  if (session.selected) {
    add(session.selected.pile, "selected", session.selected.depth);
    for (const pile of targetsOf(session.selected)) add(pile, "target");
  }
  const hint = session.hint;
  if (hint) {
    const me = session.game.seat;
    if (hint.action === "play") {
      add(hint.from, "hint");
      add(hint.to, "hint");
    } else if (hint.action === "draw") add(`K${me}`, "hint");
    else if (hint.action === "discard") {
      add("T", "hint");
      add(`W${me}`, "hint");
    } else if (hint.action === "reveal") add(`R${me}`, "hint");
  }
  table.mark(marks);
}

function ownSource(pile, me) {
  return pile === "T" || pile === `R${me}` || pile === `W${me}` || pile[0] === "H";
}

/** A tap, click or Enter on a pile: pick a source, or drop the picked cards there. */
function activate(pile, depth = 1, rects = null) {
  const game = session.game;
  if (!game || session.mode === "review") return;
  if (mustWait()) {
    whenIdle(() => activate(pile, depth)); // made in its turn once the page is idle
    return;
  }
  const me = game.seat;
  if (!game.your_turn) {
    say(game.status === "playing" || game.status === "waiting" ? t("say.wait") : t("say.over"), "error");
    return;
  }
  if (game.view.stop) {
    $("#stop-dialog").showModal();
    return;
  }
  const selected = session.selected;
  if (!selected) {
    if (pile === `K${me}`) return act(game.legal_moves.some((m) => m.action === "flip") ? "flip" : "draw");
    if (pile === `R${me}` && game.legal_moves.some((m) => m.action === "reveal")) return act("reveal");
    if (!ownSource(pile, me) || !pileCards(game.view, pile, game.turn_player).length) {
      say(t("say.nothing"), "error");
      return;
    }
    const size = pileCards(game.view, pile, game.turn_player).length;
    session.selected = { pile, depth: Math.min(depth, size) };
    mark();
    const top = pileCards(game.view, pile, game.turn_player).at(-session.selected.depth);
    const targets = targetsOf(session.selected);
    say(targets.size ? t("say.picked", { card: top ? cards.short(top) : "" }) : t("say.picked.none", { card: top ? cards.short(top) : "" }));
    return;
  }
  session.selected = null;
  mark();
  if (pile === selected.pile) {
    say(t("say.cleared"));
    return;
  }
  if (selected.pile === "T" && pile === `W${me}`) return act("discard", rects);
  if (pile === `R${me}` || pile === `K${me}` || pile === "T") {
    return activate(pile, depth); // another of your own piles: pick it instead
  }
  const candidates = plays(selected.pile).filter((m) => m.to === pile);
  const move =
    candidates.find((m) => m.count === selected.depth) ||
    (selected.depth === 1 && candidates.length ? candidates.reduce((a, b) => (a.count >= b.count ? a : b)) : null);
  if (move) return send(move, rects);
  // not a legal move: the backend says why (a reason code; refusals.js puts it in words)
  const source = selected.pile === `R${me}` ? "R" : selected.pile === `W${me}` ? "W" : selected.pile;
  const target = pile === "F" ? "F" : pile === `R${1 - me}` ? "OR" : pile === `W${1 - me}` ? "OW" : pile;
  const text = `${source}-${target}${selected.depth > 1 ? `x${selected.depth}` : ""}`;
  return send({ action: "play", notation: text, from: selected.pile, to: pile, count: selected.depth, illegal: true }, null);
}

function act(action, rects = null) {
  const game = session.game;
  const entry = game.legal_moves.find((m) => m.action === action) || { action, notation: action, illegal: true };
  return send(entry, rects);
}

/** Call "Crapette!" at the start of your turn (call_window=turn_start): on how your
 * opponent ended their turn. A right call takes back their turn end (their turned card goes
 * back to their hand) and you play on; a false call costs what the rules say (false_call).
 * The answer's payload tells which: after a right call the opponent's hand has grown and
 * they made no move; the verdict is said once the call is shown. */
async function callAtStart() {
  const game = session.game;
  if (!game || !game.your_turn || game.view.stop) return;
  const entry = game.legal_moves.find((m) => m.action === "stop");
  if (!entry) {
    say(t("say.call.closed"), "error");
    return;
  }
  const opp = 1 - game.seat;
  const { move, card } = myMove(entry, game);
  session.pending = { version: game.version, move, card, rects: null };
  try {
    const after = await request(() => backend.move(entry.notation, game.version));
    const right = after.last_moves.length === 0 && after.view.hands[opp] > game.view.hands[opp];
    const penalty = words.optionsOf(game.rules, session.presets).false_call;
    session.verdict = {
      version: game.version,
      text: right ? t("say.call.right") : t(`say.call.false.${penalty}`),
      kind: right ? "info" : "error",
    };
    receive(after);
    // (the page may have shown the call already: the page without a server tells it of
    // each change as it happens)
    if (session.verdict && session.game && session.game.version > session.verdict.version) {
      say(session.verdict.text, session.verdict.kind);
      session.verdict = null;
    }
  } catch (error) {
    session.pending = null;
    refuse(error);
  }
}

async function send(entry, rects) {
  const game = session.game;
  if (!entry.illegal) {
    const { move, card } = myMove(entry, game);
    session.pending = { version: game.version, move, card, rects };
  }
  try {
    const after = await request(() => backend.move(entry.notation, game.version));
    receive(after);
  } catch (error) {
    session.pending = null;
    refuse(error);
    table.render(session.game);
    mark();
  }
}

// ---------------------------------------------------------------- pointer and keys

function onPointerDown(event) {
  const game = session.game;
  if (!game || event.button > 0 || session.mode === "review") return;
  const point = table.local(event.clientX, event.clientY);
  const hit = table.hit(point.x, point.y);
  if (!hit) return;
  session.drag = { ...hit, x0: event.clientX, y0: event.clientY, moving: false, id: event.pointerId };
  const me = game.seat;
  const movable = game.your_turn && !session.busy && ownSource(hit.pile, me) && hit.pile !== `K${me}`;
  if (movable) {
    $("#board").setPointerCapture(event.pointerId);
    event.preventDefault();
  }
  session.drag.movable = movable;
}

function onPointerMove(event) {
  const drag = session.drag;
  if (!drag || !drag.movable || drag.id !== event.pointerId) return;
  const dx = event.clientX - drag.x0;
  const dy = event.clientY - drag.y0;
  if (!drag.moving) {
    if (Math.hypot(dx, dy) < 6) return;
    const size = pileCards(session.game.view, drag.pile, session.game.turn_player).length;
    if (!size) return;
    drag.moving = true;
    drag.depth = Math.min(drag.depth, size);
    session.selected = { pile: drag.pile, depth: drag.depth };
    drag.els = (table.cardEls[drag.pile] || []).slice(-drag.depth);
    for (const el of drag.els) el.classList.add("dragging");
    mark();
  }
  for (const el of drag.els) el.style.transform = `translate(${dx}px, ${dy}px)`;
  const point = table.local(event.clientX, event.clientY);
  const over = table.hit(point.x, point.y);
  for (const el of Object.values(table.pileEls)) el.classList.toggle("over", Boolean(over && el.dataset.pile === over.pile));
}

function onPointerUp(event) {
  const drag = session.drag;
  session.drag = null;
  if (!drag || drag.id !== event.pointerId) return;
  for (const el of Object.values(table.pileEls)) el.classList.remove("over");
  if (!drag.moving) {
    activate(drag.pile, drag.depth);
    const moved = Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) >= 6;
    if (!drag.movable && moved) {
      // a drag made while the page was busy (the cards could not follow it): kept as the
      // two taps it stands for, the card and where it goes
      const point = table.local(event.clientX, event.clientY);
      const over = table.hit(point.x, point.y);
      if (over && over.pile !== drag.pile) activate(over.pile, 1);
    }
    return;
  }
  const point = table.local(event.clientX, event.clientY);
  const over = table.hit(point.x, point.y);
  const rects = drag.els.map((el) => el.getBoundingClientRect());
  if (!over || over.pile === drag.pile) {
    session.selected = null;
    settleBack(drag.els);
    mark();
    return;
  }
  activate(over.pile, 1, rects);
  if (session.pending === null || session.pending.rects !== rects) settleBack(drag.els);
}

function settleBack(els) {
  const [duration] = timing();
  for (const el of els) {
    el.classList.remove("dragging");
    const from = el.style.transform;
    el.style.transform = "";
    if (duration && from) el.animate([{ transform: from }, { transform: "none" }], { duration: duration / 2 });
  }
}

function onKey(event) {
  const el = event.target.closest && event.target.closest(".pile");
  if (!el || session.mode === "review") return;
  const pile = el.dataset.pile;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    activate(pile, 1);
  } else if (event.key === "Escape") {
    session.selected = null;
    mark();
    say(t("say.cleared"));
  } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(event.key)) {
    event.preventDefault();
    const piles = [...$("#board").querySelectorAll(".pile")];
    const i = piles.indexOf(el);
    const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : -1;
    piles[(i + step + piles.length) % piles.length].focus();
  }
}

// ---------------------------------------------------------------- modes

/** Switch the page between the game, the review of a deal and puzzle mode. */
function setMode(mode) {
  session.mode = mode;
  document.body.dataset.mode = mode;
  $("#review-panel").hidden = mode !== "review";
  $("#review-controls").hidden = mode !== "review";
  $("#puzzle-panel").hidden = mode !== "puzzle";
  $("#puzzle-controls").hidden = mode !== "puzzle";
  session.selected = null;
  session.hint = null;
}

/** Back to the game from the review or puzzle mode (the table shows the game again). */
function leaveMode() {
  if (session.mode === "review") closeReview();
  else if (session.mode === "puzzle") leavePuzzles();
}

// ---------------------------------------------------------------- the review of a deal

/** Open the review of the deal on the table, once it is over: the server's engine judges
 * every move (a few seconds for a long deal). */
async function openReview() {
  const game = session.game;
  if (!analysis || !game || session.mode !== "game") return;
  if (game.status !== "deal_over" && game.status !== "over") return;
  const dialog = $("#result-dialog");
  if (dialog.open) dialog.close();
  say(t("review.loading"));
  let data;
  try {
    data = await request(() => gameBackend.review(game.match.deal));
  } catch (error) {
    refuse(error);
    return;
  }
  session.review = { data, index: 0 };
  setMode("review");
  fillReviewList();
  // first the player's first judged move or fault, if any
  const first = data.decisions.findIndex((d) => d.played.player === data.seat && (d.judgment || d.fault));
  showReviewAt(first >= 0 ? first : 0);
  say(t("review.ready"));
}

function closeReview() {
  session.review = null;
  setMode("game");
  table.arrows([]);
  const game = session.game;
  if (game) {
    table.render(game);
    updatePanel(game);
    mark();
  }
  say("");
}

/** The review's list of moves: each with its mark (?!, ?, ??) and a fault's sign; the end. */
function fillReviewList() {
  const { data } = session.review;
  const me = data.seat;
  $("#review-title").textContent = t("review.title", { deal: data.deal });
  const [mine, theirs] = [data.accuracy[me], data.accuracy[1 - me]];
  $("#review-accuracy").textContent = t("review.accuracy", {
    you: mine === null ? "–" : review.percent(mine / 100),
    opp: theirs === null ? "–" : review.percent(theirs / 100),
  });
  const item = (index, text, decision) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.index = String(index);
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.setAttribute("aria-hidden", "true");
    if (decision) {
      button.dataset.judgment = decision.judgment || "";
      button.dataset.fault = String(Boolean(decision.fault));
      button.dataset.player = decision.played.player === me ? "you" : "opp";
      mark.textContent = decision.judgment ? review.MARKS[decision.judgment] : decision.fault ? "!" : "";
    }
    const label = document.createElement("span");
    label.textContent = text;
    button.append(mark, label);
    if (decision && decision.judgment) {
      const word = document.createElement("span");
      word.className = "sr-only";
      word.textContent = t(`review.judgment.${decision.judgment}`);
      button.append(word);
    }
    button.addEventListener("click", () => showReviewAt(index));
    li.append(button);
    return li;
  };
  const items = data.decisions.map((d, i) => item(i, `${d.ply}. ${review.played(d.played, me)}`, d));
  items.push(item(data.decisions.length, t("review.end"), null));
  $("#review-moves").replaceChildren(...items);
}

/** Show the review at move `index` (decisions.length: the end of the deal): the board before
 * the move, the move played and the best line as arrows, and what the engine says of it. */
function showReviewAt(index) {
  const r = session.review;
  if (!r) return;
  const { data } = r;
  const count = data.decisions.length;
  r.index = Math.max(0, Math.min(Number.isFinite(index) ? index : count, count));
  const d = data.decisions[r.index] || null;
  const me = data.seat;
  document.body.dataset.reviewIndex = String(r.index);
  const board = d
    ? { view: d.view, seat: me, turn_player: d.turn_player }
    : { view: data.end, seat: me, turn_player: data.end_turn_player };
  table.render(board);
  const marks = new Map();
  if (d) {
    const arrows = review.decisionArrows(d);
    table.arrows(arrows);
    const first = arrows.find((a) => a.kind === "best");
    if (first) {
      marks.set(first.from, ["best"]);
      if (first.to) marks.set(first.to, ["best"]);
    }
  }
  table.mark(marks);
  $("#turn").textContent = d ? t("review.head", { ply: d.ply, total: count }) : t("review.end");
  $("#review-move").textContent = d ? review.played(d.played, me) : t("review.end");
  const judgment = $("#review-judgment");
  judgment.className = d && d.judgment ? d.judgment : "";
  if (!d) judgment.textContent = "";
  else if (d.judgment) {
    judgment.textContent = t("review.judged", {
      judgment: t(`review.judgment.${d.judgment}`),
      before: review.percent(d.win_before),
      after: review.percent(d.win_after),
    });
  } else if (d.forced) judgment.textContent = t("review.forced");
  else if (d.win_before === null) judgment.textContent = t("review.unjudged");
  else judgment.textContent = t("review.good", { win: review.percent(d.win_after ?? d.win_before) });
  const same = d && d.best.length && d.best[0].move === d.played.move;
  $("#review-best").textContent = d && d.best.length
    ? t(same ? "review.best.same" : "review.best", { line: review.lineText(d.best, me) })
    : "";
  $("#review-fault").textContent = d && d.fault ? review.faultText(d.fault, d.played.player === me, me) : "";
  for (const button of $("#review-moves").querySelectorAll("button")) {
    const current = Number(button.dataset.index) === r.index;
    button.setAttribute("aria-current", String(current));
    if (current) button.scrollIntoView({ block: "nearest" });
  }
  $("#btn-review-first").disabled = r.index === 0;
  $("#btn-review-prev").disabled = r.index === 0;
  $("#btn-review-next").disabled = r.index === count;
  $("#btn-review-last").disabled = r.index === count;
}

/** The arrow keys step through the review (Home and End: its start and end). */
function onReviewKey(event) {
  if (session.mode !== "review" || event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = event.target.tagName;
  if (tag === "SELECT" || tag === "INPUT" || document.querySelector("dialog[open]")) return;
  const steps = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
  const index = session.review.index;
  if (event.key in steps) showReviewAt(index + steps[event.key]);
  else if (event.key === "Home") showReviewAt(0);
  else if (event.key === "End") showReviewAt(Infinity);
  else return;
  event.preventDefault();
}

// ---------------------------------------------------------------- puzzle mode

function fillPuzzlePick() {
  const chosen = $("#puzzle-pick").value;
  $("#puzzle-pick").replaceChildren(
    ...session.puzzles.map((p) => {
      const option = document.createElement("option");
      option.value = String(p.number);
      option.textContent = t("puzzle.option", { number: p.number, theme: t(`puzzle.theme.${p.theme}`) });
      return option;
    }),
  );
  if (chosen) $("#puzzle-pick").value = chosen;
}

/** Open puzzle mode (the shipped set, from the server) at the chosen puzzle. */
async function openPuzzles() {
  if (!analysis) return;
  try {
    if (!session.puzzles) session.puzzles = (await request(() => gameBackend.puzzles())).puzzles;
  } catch (error) {
    refuse(error);
    return;
  }
  fillPuzzlePick();
  await startPuzzle(Number($("#puzzle-pick").value) || 1);
}

/** Puzzle `number` on the table, as the solver's turn: its moves are made as a game's. */
async function startPuzzle(number) {
  if (session.mode === "review") closeReview();
  const dialog = $("#result-dialog");
  if (dialog.open) dialog.close();
  if (session.unsubscribe) {
    session.unsubscribe(); // (the live updates of the game: back when puzzle mode closes)
    session.unsubscribe = null;
  }
  queue.clear();
  backend = createPuzzleBackend(gameBackend, number);
  session.puzzle = { number, verdict: null };
  session.game = null;
  session.pending = null;
  setMode("puzzle");
  $("#puzzle-pick").value = String(number);
  try {
    show(await request(() => backend.state()), 0);
    say(t("puzzle.task"));
  } catch (error) {
    refuse(error);
  }
  updatePuzzlePanel();
}

/** The puzzle panel: its theme, the line so far, the engine's verdict and the solution. */
function updatePuzzlePanel() {
  const p = session.puzzle;
  if (!p || session.mode !== "puzzle" || !session.puzzles) return;
  const info = session.puzzles[p.number - 1];
  const line = backend.line;
  if (p.verdict && line.length && line.join(" ") !== p.verdict.line) p.verdict = null; // a new line
  const me = backend.seat;
  $("#score").textContent = t("puzzle.score", { number: p.number, total: session.puzzles.length });
  if (session.game) $("#rules-name").textContent = words.rulesName(session.game.rules); // (no match)
  $("#puzzle-theme").textContent = t("puzzle.theme.line", { theme: t(`puzzle.theme.${info.theme}`) });
  const moves = session.game && session.game.game_id === backend.gameId ? puzzleMoves() : [];
  $("#puzzle-line").textContent = moves.length
    ? t("puzzle.line", { line: review.lineText(moves, me) })
    : t("puzzle.line.empty");
  $("#turn").textContent = backend.complete ? t("puzzle.turn.complete") : t("puzzle.turn.play");
  $("#btn-puzzle-check").disabled = !line.length;
  $("#btn-puzzle-solution").hidden = !p.verdict;
  const verdict = $("#puzzle-verdict");
  if (p.verdict) {
    verdict.textContent = verdictText(p.verdict);
    verdict.dataset.correct = String(p.verdict.correct);
    $("#puzzle-solution").textContent = t("puzzle.solution", { line: review.lineText(p.verdict.solution, me) });
  } else {
    verdict.textContent = "";
    delete verdict.dataset.correct;
    $("#puzzle-solution").textContent = "";
  }
}

/** The moves of the puzzle's line so far, with their piles and cards (the server's). */
function puzzleMoves() {
  return (backend.position && backend.position.moves) || [];
}

function verdictText(verdict) {
  return t(`puzzle.verdict.${verdict.verdict}`, { win: review.percent(verdict.win), best: review.percent(verdict.best) });
}

/** Check the line with the engine (on the server): right or wrong, and the solution. */
async function checkPuzzle() {
  if (session.mode !== "puzzle" || !backend.line.length) return;
  say(t("puzzle.checking"));
  try {
    const verdict = await request(() => backend.answer());
    session.puzzle.verdict = { ...verdict, line: backend.line.join(" ") };
    updatePuzzlePanel();
    say(verdictText(verdict), verdict.correct ? "info" : "error");
    sound.play(verdict.correct ? "win" : "refuse");
  } catch (error) {
    refuse(error);
  }
}

async function resetPuzzle() {
  if (session.mode !== "puzzle") return;
  try {
    show(await request(() => backend.reset()), 0);
  } catch (error) {
    refuse(error);
  }
}

/** The puzzle's start with the solution drawn on it as numbered arrows. */
async function showSolution() {
  const verdict = session.puzzle && session.puzzle.verdict;
  if (!verdict) return;
  await resetPuzzle();
  table.arrows(review.lineArrows(verdict.solution));
  say(t("puzzle.solution", { line: review.lineText(verdict.solution, backend.seat) }));
}

/** Leave puzzle mode: the game (if any) back on the table, followed live again. */
async function leavePuzzles() {
  backend = gameBackend;
  session.puzzle = null;
  setMode("game");
  queue.clear();
  session.game = null;
  session.pending = null;
  say("");
  if (!backend.gameId) {
    document.body.dataset.status = "none";
    placeGuide();
    $("#turn").textContent = t("turn.none");
    $("#score").textContent = t("score.none");
    for (const button of $("#controls").querySelectorAll("button")) button.disabled = true;
    return;
  }
  try {
    show(await request(() => backend.state()), 0);
    session.unsubscribe = backend.subscribe(receive);
  } catch (error) {
    refuse(error);
  }
}

// ---------------------------------------------------------------- game life

function saveSeat(id, token, invite) {
  localStorage.setItem(`crapette:${id}`, JSON.stringify({ token, invite }));
}

function loadSeat(id) {
  try {
    return JSON.parse(localStorage.getItem(`crapette:${id}`) || "null");
  } catch {
    return null;
  }
}

async function open(first) {
  history.replaceState(null, "", `${location.pathname}?game=${backend.gameId}`);
  if (session.unsubscribe) session.unsubscribe();
  queue.clear();
  session.game = null;
  session.selected = null;
  session.resultShown = null;
  const payload = first || (await request(() => backend.state()));
  show(payload, 0);
  session.unsubscribe = backend.subscribe(receive);
}

function matchOf(preset) {
  const entry = session.presets.find((p) => p.name === preset);
  return { target: entry?.match_target ?? null, deals: entry?.match_deals ?? null };
}

async function newGame(event) {
  if (event) event.preventDefault();
  if (session.mode !== "game") leaveMode();
  const spec = { rules: chosenRules(), opponent: $("#opponent").value };
  const seed = $("#seed").value;
  if (seed !== "") spec.seed = Number(seed);
  if ($("#length").value === "match") spec.match = matchOf($("#preset").value);
  try {
    const created = await request(() => backend.create(spec));
    saveSeat(created.game_id, created.token, created.invite);
    const dialog = $("#result-dialog");
    if (dialog.open) dialog.close();
    await open(null);
    say(created.invite ? t("say.invite") : t("say.started"));
  } catch (error) {
    refuse(error);
  }
}

/** Offer only the opponents the backend has: its bots (a "search:64" option is the bot
 * "search"), and a second person unless it says `human: false` (the page without a
 * server has no games between two people). */
function offerOpponents(data) {
  const bots = new Set(data.bots || []);
  for (const option of $("#opponent").options) {
    const name = option.value.split(":")[0];
    const offered = name === "human" ? data.human !== false : bots.has(name);
    option.hidden = !offered;
    option.disabled = !offered;
  }
  if ($("#opponent").selectedOptions[0]?.disabled) $("#opponent").value = data.bots[0];
}

function fillPresets() {
  const chosen = $("#preset").value;
  $("#preset").replaceChildren(
    ...session.presets.map((p) => {
      const option = document.createElement("option");
      option.value = p.name;
      option.textContent = t(`preset.${p.name}`);
      return option;
    }),
  );
  if (chosen) $("#preset").value = chosen;
}

/** The rule options the New game form offers beside the preset: every option of the spec
 * but the match's (the Length field and the preset set those). */
const FORM_OPTIONS = OPTIONS.filter((o) => o.kind !== "count");

/** The New game form's option fields, one per rule option, in the spec's order: a list of
 * its values' words for a choice or a flag, a number within its range for a count. */
function fillOptionFields() {
  const chosen = new Map([...document.querySelectorAll("[data-option]")].map((f) => [f.dataset.option, f.value]));
  const fields = FORM_OPTIONS.map((option) => {
    const label = document.createElement("label");
    const name = document.createElement("span");
    name.textContent = t(`new.option.${option.name}`);
    let field;
    if (option.kind === "int") {
      field = document.createElement("input");
      field.type = "number";
      field.min = String(option.range[0]);
      field.max = String(option.range[1]);
      field.required = true;
    } else {
      field = document.createElement("select");
      const values = option.kind === "bool" ? [true, false] : option.values;
      field.append(
        ...values.map((value) => {
          const entry = document.createElement("option");
          entry.value = String(value);
          entry.textContent = t(`option.${option.name}.${value}`);
          return entry;
        }),
      );
    }
    field.id = `option-${option.name}`;
    field.dataset.option = option.name;
    field.addEventListener("change", showGuide);
    label.append(name, " ", field);
    return label;
  });
  $("#option-fields").replaceChildren(...fields);
  if (chosen.size) {
    for (const field of document.querySelectorAll("[data-option]")) {
      field.value = chosen.get(field.dataset.option);
    }
  } else {
    setOptionFields();
  }
}

/** The option fields set to the chosen preset's values. */
function setOptionFields() {
  const preset = session.presets.find((p) => p.name === ($("#preset").value || "classic"));
  if (!preset) return;
  for (const field of document.querySelectorAll("[data-option]")) {
    field.value = String(preset.options[field.dataset.option]);
  }
  showGuide();
}

/** The rules string of the New game form: the preset, with the options whose fields differ
 * from its values (`tarot(pack=tarot56, sterile_moves=forbidden)`). A number field that
 * holds no whole number keeps the preset's value. */
function chosenRules() {
  const name = $("#preset").value || "classic";
  const preset = session.presets.find((p) => p.name === name);
  const changes = [];
  for (const field of document.querySelectorAll("[data-option]")) {
    const option = field.dataset.option;
    const value = field.value.trim();
    if (!preset || value === "" || value === String(preset.options[option])) continue;
    if (field.type === "number" && !/^\d+$/.test(value)) continue;
    changes.push(`${option}=${value}`);
  }
  return changes.length ? `${name}(${changes.join(", ")})` : name;
}

/** The first-deal guide in the words of the rules on the table, or else of the form's. */
function showGuide() {
  const rules = session.game ? session.game.rules : chosenRules();
  session.guideRules = rules;
  $("#guide-steps").replaceChildren(...guideItems(words.optionsOf(rules, session.presets)));
}

function openRules() {
  const game = session.game;
  const rules = game ? game.rules : chosenRules();
  const options = words.optionsOf(rules, session.presets);
  const { preset } = words.parseRules(rules);
  const match = game ? game.match : { ...matchOf(preset), ...($("#length").value === "deal" ? { target: null, deals: 1 } : {}) };
  $("#rules-body").replaceChildren(rulesBody(options, words.rulesName(rules), match));
  $("#rules-dialog").showModal();
}

function relabel() {
  i18n.translate();
  document.title = t("app.title");
  fillPresets();
  fillOptionFields();
  showGuide();
  if (session.game) {
    table.render(session.game);
    updatePanel(session.game);
    mark();
    if ($("#result-dialog").open) fillResult(session.game);
  } else {
    $("#turn").textContent = t("turn.none");
    $("#score").textContent = t("score.none");
  }
  if ($("#rules-dialog").open) openRules();
  if (session.mode === "review") {
    fillReviewList();
    showReviewAt(session.review.index);
  }
  if (session.mode === "puzzle") {
    fillPuzzlePick();
    updatePuzzlePanel();
  }
}

function wire() {
  const board = $("#board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", () => {
    if (session.drag && session.drag.els) settleBack(session.drag.els);
    session.drag = null;
  });
  board.addEventListener("keydown", onKey);
  $("#new-game").addEventListener("submit", newGame);
  $("#preset").addEventListener("change", setOptionFields);
  // every game button made while the page is busy waits its turn (whenIdle), as taps do
  const onClick = (selector, action) => $(selector).addEventListener("click", () => whenIdle(action));
  onClick("#btn-draw", () => {
    const game = session.game;
    if (game && game.legal_moves.some((m) => m.action === "flip")) act("flip");
    else if (game && game.legal_moves.some((m) => m.action === "reveal") && !game.legal_moves.some((m) => m.action === "draw")) act("reveal");
    else if (game) act("draw");
  });
  onClick("#btn-call", callAtStart);
  onClick("#btn-discard", () => {
    const game = session.game;
    if (game) act(game.legal_moves.some((m) => m.action === "end") ? "end" : "discard");
  });
  $("#btn-skip").addEventListener("click", skipToEnd);
  onClick("#btn-hint", async () => {
    if (!session.game || !session.game.your_turn) return;
    try {
      const hint = await request(() => backend.hint());
      const game = session.game;
      const entry = game.legal_moves.find((m) => m.code === hint.code);
      if (!entry) return;
      session.hint = entry;
      mark();
      const { move, card } = myMove(entry, game);
      say(t("say.hint", { move: words.describe({ ...move, card: card || (entry.action === "discard" ? game.view.turned : null) }, "hint", game.seat) }));
    } catch (error) {
      refuse(error);
    }
  });
  onClick("#btn-undo", async () => {
    const game = session.game;
    if (!game || game.status !== "playing" || !game.can_undo) {
      say(t("say.noundo"), "error");
      return;
    }
    try {
      const after = await request(() => backend.undo(game.version));
      receive(after);
      say(t("say.undone"));
    } catch (error) {
      refuse(error);
    }
  });
  onClick("#btn-resign", () => {
    if (session.game && session.game.status !== "over") $("#confirm-dialog").showModal();
  });
  $("#btn-confirm-no").addEventListener("click", () => $("#confirm-dialog").close());
  $("#btn-confirm-yes").addEventListener("click", async () => {
    $("#confirm-dialog").close();
    try {
      receive(await request(() => backend.resign()));
    } catch (error) {
      refuse(error);
    }
  });
  const nextDeal = async () => {
    const dialog = $("#result-dialog");
    if (dialog.open) dialog.close();
    try {
      receive(await request(() => backend.nextDeal(session.game.version)));
    } catch (error) {
      refuse(error);
    }
  };
  onClick("#btn-next", nextDeal);
  onClick("#btn-result-next", nextDeal);
  $("#btn-result-new").addEventListener("click", () => newGame(null));
  $("#btn-result-close").addEventListener("click", () => $("#result-dialog").close());
  $("#btn-result").addEventListener("click", () => {
    fillResult(session.game);
    $("#result-dialog").showModal();
  });
  $("#btn-record").addEventListener("click", async () => {
    try {
      const text = await backend.record(session.game.match.deal);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      link.download = `crapette-${backend.gameId}-deal${session.game.match.deal}.txt`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      refuse(error);
    }
  });
  for (const [button, callIt] of [["#btn-call-stop", true], ["#btn-let-stand", false]]) {
    onClick(button, async () => {
      $("#stop-dialog").close();
      try {
        receive(await request(() => backend.stop(callIt, session.game.version)));
        say(callIt ? t("move.you.stop") : t("move.you.pass"));
      } catch (error) {
        refuse(error);
      }
    });
  }
  $("#btn-review").addEventListener("click", () => whenIdle(openReview));
  $("#btn-result-review").addEventListener("click", () => whenIdle(openReview));
  $("#btn-review-first").addEventListener("click", () => showReviewAt(0));
  $("#btn-review-prev").addEventListener("click", () => showReviewAt(session.review.index - 1));
  $("#btn-review-next").addEventListener("click", () => showReviewAt(session.review.index + 1));
  $("#btn-review-last").addEventListener("click", () => showReviewAt(Infinity));
  $("#btn-review-close").addEventListener("click", closeReview);
  document.addEventListener("keydown", onReviewKey);
  $("#btn-puzzles").hidden = !analysis;
  $("#btn-puzzles").addEventListener("click", () => whenIdle(() => openPuzzles()));
  $("#puzzle-pick").addEventListener("change", () => whenIdle(() => startPuzzle(Number($("#puzzle-pick").value))));
  onClick("#btn-puzzle-check", checkPuzzle);
  onClick("#btn-puzzle-reset", resetPuzzle);
  onClick("#btn-puzzle-solution", showSolution);
  onClick("#btn-puzzle-next", () => startPuzzle((session.puzzle.number % session.puzzles.length) + 1));
  onClick("#btn-puzzle-close", leavePuzzles);
  $("#btn-rules").addEventListener("click", openRules);
  $("#btn-rules-close").addEventListener("click", () => $("#rules-dialog").close());
  $("#btn-settings").addEventListener("click", () => {
    const box = $("#settings");
    box.hidden = !box.hidden;
    $("#btn-settings").setAttribute("aria-expanded", String(!box.hidden));
  });
  $("#speed").value = settings.speed;
  $("#speed").addEventListener("change", () => {
    settings.speed = $("#speed").value;
    saveSettings();
  });
  $("#sound").checked = settings.sound;
  sound.setEnabled(settings.sound);
  $("#sound").addEventListener("change", () => {
    settings.sound = $("#sound").checked;
    sound.setEnabled(settings.sound);
    saveSettings();
    sound.play("card");
  });
  $("#dev").checked = settings.dev;
  $("#dev").addEventListener("change", () => {
    settings.dev = $("#dev").checked;
    saveSettings();
    if (session.game) updateDev(session.game);
    else $("#dev-panel").hidden = !settings.dev;
  });
  $("#language").addEventListener("change", async () => {
    settings.lang = $("#language").value;
    saveSettings();
    await i18n.use(settings.lang);
    relabel();
  });
  $("#btn-guide-done").addEventListener("click", () => {
    localStorage.setItem("crapette:guide-done", "1");
    $("#guide").hidden = true;
  });
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      if (session.mode === "review") showReviewAt(session.review.index);
      else if (session.game) {
        table.render(session.game);
        mark();
      }
    }, 100);
  });
}

async function start() {
  const params = new URLSearchParams(location.search);
  await i18n.init(params.get("lang") || settings.lang);
  $("#language").replaceChildren(
    ...i18n.languages().map((l) => {
      const option = document.createElement("option");
      option.value = l.code;
      option.textContent = l.name;
      option.lang = l.code;
      return option;
    }),
  );
  $("#language").value = i18n.current();
  const data = await backend.presets();
  session.presets = data.presets;
  offerOpponents(data);
  wire();
  relabel();
  $("#guide").hidden = Boolean(localStorage.getItem("crapette:guide-done"));
  placeGuide();
  document.body.classList.remove("loading");
  const id = params.get("game");
  const invite = params.get("invite");
  if (id && invite) {
    try {
      const joined = await request(() => backend.join(id, invite));
      saveSeat(id, joined.token, null);
      await open(null);
      say(t("say.joined"));
      return;
    } catch (error) {
      refuse(error);
    }
  }
  const seat = id ? loadSeat(id) : null;
  if (id && seat) {
    try {
      const payload = await request(() => backend.resume(id, seat.token));
      await open(payload);
    } catch (error) {
      refuse(error);
    }
    return;
  }
  document.body.dataset.status = "none";
}

start();
