// A small client of the crapette JSON API (the same calls any other client makes).

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const error = (data && data.error) || { code: "http_error", message: String(data) };
    throw new ApiError(response.status, error.code, error.message);
  }
  return data;
}

export const api = {
  presets: () => call("GET", "/api/presets"),
  create: (spec) => call("POST", "/api/games", { body: spec }),
  join: (id, invite) => call("POST", `/api/games/${id}/join`, { body: { invite } }),
  game: (id, token) => call("GET", `/api/games/${id}?svg=true`, { token }),
  play: (id, token, move, version) =>
    call("POST", `/api/games/${id}/moves`, { token, body: { move, version } }),
  stop: (id, token, callIt, version) =>
    call("POST", `/api/games/${id}/stop`, { token, body: { call: callIt, version } }),
  hint: (id, token) => call("GET", `/api/games/${id}/hint`, { token }),
  undo: (id, token, version) => call("POST", `/api/games/${id}/undo`, { token, body: { version } }),
  resign: (id, token) => call("POST", `/api/games/${id}/resign`, { token }),
  record: (id, token, deal) => call("GET", `/api/games/${id}/record?deal=${deal}`, { token }),
  nextDeal: (id, token, version) =>
    call("POST", `/api/games/${id}/next-deal`, { token, body: { version } }),
};

// Live updates: calls onUpdate(game payload, with its picture) on every change of the
// game: each move, a bot's reply move by move, as it is made.
export function follow(id, token, onUpdate) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/live`);
  socket.addEventListener("open", () => socket.send(JSON.stringify({ token, svg: true })));
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "update") onUpdate(message.game);
  });
  return socket;
}
