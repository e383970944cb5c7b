// The page's one door to the game: a *backend*. Everything the page knows of the rules comes
// through it; the page itself decides nothing rule-related (which moves are legal, whose
// turn it is, when and how a deal ends and what it scores all come in the payloads).
//
// This module gives the backend of `crapette serve` (HTTP + WebSocket). The serverless mode
// (local.js: the rules engine and the bots running in the browser) supplies another object
// with the same methods and the same payloads; app.js takes whichever `createBackend()`
// returns.
//
// The Backend interface (every method returns a Promise; a refusal rejects it with a
// BackendError {code, message, status}, `code` one of the API's error codes: illegal_move,
// not_your_turn, stale_version, deal_over, game_over, cannot_undo, ...; `message` in English,
// for illegal moves the library's reason, e.g. "QC cannot go on 7D in house 3 (houses build
// down in alternating colours)"):
//
//   presets()                  -> {presets: [{name, rules, match_target, match_deals,
//                                  callable_stop, options: {option: value, ...}}], bots: [..]}
//   create(spec)               -> {game_id, seat, invite}; spec = {rules, opponent, seed?,
//                                  match?: {target, deals}}; the backend then holds the seat.
//   join(gameId, invite)       -> {game_id, seat}: take the second human seat.
//   resume(gameId, token)      -> opens an existing seat (a reload of the page).
//   state()                    -> the seat's Payload (below).
//   move(notation, version)    -> Payload after the move and the bots' replies.
//   stop(callIt, version)      -> Payload after calling Stop! (true) or letting it stand.
//   undo(version)              -> Payload after taking back the seat's last move.
//   hint()                     -> {code, notation}: the greedy bot's choice for the seat.
//   nextDeal(version)          -> Payload of the next deal of the match.
//   resign()                   -> Payload of the resigned game.
//   record(deal)               -> the record of a finished deal, as text.
//   subscribe(onUpdate)        -> unsubscribe(): onUpdate(payload) for every new version, in
//                                  order, one per move (each of a bot's moves included), so
//                                  that the page can show them one by one.
//   The engine's analyses, which only the server has (the page hides the review and the
//   puzzles when the backend lacks these methods: the page without a server):
//   review(deal)               -> the review of a finished deal (GET /api/games/{id}/review):
//                                  {deal, seat, accuracy, decisions [{ply, played, forced,
//                                  judgment, win_before, win_after, loss, best, fault,
//                                  turn_player, view}], end, end_turn_player}; a move is
//                                  {move, player, count, cards, from?, to?}.
//   puzzles()                  -> {puzzles: [{number, id, rules, theme, player, length}]}.
//   puzzle(number, line)       -> {puzzle, line, complete, game: Payload}: the position after
//                                  the solver's moves `line` (notation).
//   answer(number, line)       -> {correct, verdict, win, best, solution, message}.
//   token, gameId, seat        -> the open seat (token: a secret; null when not needed).
//
// The Payload (GET /api/games/{id}; see docs/web.md): version, status (waiting, playing,
// deal_over, over), rules (a rules string "preset(option=value, ...)"), seat, to_act,
// turn_player, your_turn, view {foundations, houses, reserves [{down, up}], hands, wastes,
// turned, stop, moves_made, false_calls}, legal_moves [{code, notation, action, from, to, count,
// violation?}], last_moves [{number, seat, move, cards, from?, to?}] (the opponent's moves
// since the seat's last one), outcome {winner, scores, reason, tally [{reserve, hand, waste,
// count}] per player, points {reserve, hand, win_bonus}} or null, match {deal, target, deals,
// totals, results, over, winner}, can_undo, ended. Cards are written "7H", "TD", "QS".

export class BackendError extends Error {
  /** reason: for an illegal move, the rules' refusal as data, {code, params} (the page
   *  translates it by its code), else null. */
  constructor(status, code, message, reason = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;
  }
}

async function call(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new BackendError(0, "network", String(error));
  }
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const error = (data && data.error) || { code: "http_error", message: String(data) };
    throw new BackendError(response.status, error.code, error.message, error.reason || null);
  }
  return data;
}

/** The backend of `crapette serve`: its JSON API over HTTP and its live updates. */
export function createServerBackend() {
  const seat = { gameId: null, token: null, seat: null };
  const path = (tail = "") => `/api/games/${seat.gameId}${tail}`;
  const auth = () => ({ token: seat.token });
  const act = (tail, body) => call("POST", path(tail), { ...auth(), body });
  return {
    get gameId() { return seat.gameId; },
    get token() { return seat.token; },
    get seat() { return seat.seat; },
    presets: () => call("GET", "/api/presets"),
    async create(spec) {
      const created = await call("POST", "/api/games", { body: spec });
      Object.assign(seat, { gameId: created.game_id, token: created.token, seat: created.seat });
      return created;
    },
    async join(gameId, invite) {
      const joined = await call("POST", `/api/games/${gameId}/join`, { body: { invite } });
      Object.assign(seat, { gameId, token: joined.token, seat: joined.seat });
      return joined;
    },
    async resume(gameId, token) {
      Object.assign(seat, { gameId, token, seat: null });
      const payload = await call("GET", path(), auth());
      seat.seat = payload.seat;
      return payload;
    },
    state: () => call("GET", path(), auth()),
    move: (notation, version) => act("/moves", { move: notation, version }),
    stop: (callIt, version) => act("/stop", { call: callIt, version }),
    undo: (version) => act("/undo", { version }),
    hint: () => call("GET", path("/hint"), auth()),
    nextDeal: (version) => act("/next-deal", { version }),
    resign: () => act("/resign"),
    record: (deal) => call("GET", path(`/record?deal=${deal}`), auth()),
    review: (deal) => call("GET", path(`/review?deal=${deal}`), auth()),
    puzzles: () => call("GET", "/api/puzzles"),
    puzzle: (number, line) => call("GET", `/api/puzzles/${number}?line=${encodeURIComponent(line.join(" "))}`),
    answer: (number, line) => call("POST", `/api/puzzles/${number}/answer`, { body: { line } }),
    subscribe(onUpdate) {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      let socket = null;
      let closed = false;
      let retries = 0;
      const connect = () => {
        socket = new WebSocket(`${scheme}://${location.host}${path("/live")}`);
        socket.addEventListener("open", () => {
          retries = 0;
          socket.send(JSON.stringify({ token: seat.token, svg: false }));
        });
        socket.addEventListener("message", (event) => {
          const message = JSON.parse(event.data);
          if (message.type === "update") onUpdate(message.game);
        });
        socket.addEventListener("close", () => {
          if (!closed && retries < 5) setTimeout(connect, 500 * ++retries);
        });
      };
      connect();
      return () => {
        closed = true;
        if (socket) socket.close();
      };
    },
  };
}

/** The backend this page uses: the server's, or, on the page without a server (built by
 * `python js/build_page.py`, which marks it `<html data-backend="local">` and puts the
 * crapette JavaScript package beside it), the engine and the bots in the page (local.js). */
export async function createBackend() {
  if (document.documentElement.dataset.backend !== "local") return createServerBackend();
  const [lib, { createLocalBackend }] = await Promise.all([
    import("./crapette/index.js"),
    import("./local.js"),
  ]);
  return createLocalBackend(lib);
}
