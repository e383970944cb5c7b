// Plays one game on the serverless page's backend (src/crapette/web/static/local.js) in
// Node, for tests/test_web_local.py: a seeded policy chooses each action from the payload
// (legal moves, the hint's move, undo, the next deal, resigning), and every action is
// written out with the payloads it produced, the hint and the records, as JSON on stdout.
// The Python test replays the same actions on the server's Game and compares.
//
// Usage: node tests/web_local_driver.mjs '{"rules": "classic", "seed": "7", "opponent":
//   "greedy", "seat": 0, "match": null, "steps": 200, "policy": 1, "resign": false}'

import * as lib from "../js/lib/index.js";
import { createLocalBackend } from "../src/crapette/web/static/local.js";

const spec = JSON.parse(process.argv[2]);

class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) { this.items.set(key, String(value)); }
}

let state = BigInt(spec.policy) & ((1n << 64n) - 1n);
function pick(n) { // a tiny seeded generator (the policy's, not the game's)
  state = (state * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
  return Number((state >> 33n) % BigInt(n));
}

const storage = new MemoryStorage();
const backend = createLocalBackend(lib, { storage });
const updates = [];
backend.subscribe((payload) => updates.push(payload));
const steps = [];
const created = await backend.create({
  rules: spec.rules, opponent: spec.opponent, seed: spec.seed, seat: spec.seat,
  ...(spec.match ? { match: spec.match } : {}),
});
let payload = await backend.state();
steps.push({ action: ["create"], payload, updates: [] });

// refusals, which change nothing: a stale version, an illegal move, a text that is no move
const refused = {
  stale: await refusal(() => backend.move("draw", payload.version + 5)),
  illegal: await refusal(() => backend.move("W-F", payload.version)),
  houses: await refusal(() => backend.move("H1-H2", payload.version)),
  foundation: await refusal(() => backend.move("H3-F", payload.version)),
  end: await refusal(() => backend.move("end", payload.version)),
  nonsense: await refusal(() => backend.move("zz", payload.version)),
};

async function refusal(fn) {
  try {
    await fn();
    return null;
  } catch (error) {
    return { code: error.code, status: error.status, message: error.message, reason: error.reason ?? null };
  }
}

for (let i = 0; i < spec.steps && payload.status !== "over"; i++) {
  let action;
  let hint = null;
  if (payload.status === "deal_over") {
    action = ["next", payload.version];
  } else if (!payload.your_turn) {
    break;
  } else {
    hint = await backend.hint();
    const roll = pick(10);
    if (payload.can_undo && roll === 0) action = ["undo", payload.version];
    else if (roll < 5) action = ["move", hint.notation, payload.version];
    else {
      const legal = payload.legal_moves;
      action = ["move", legal[pick(legal.length)].notation, payload.version];
    }
  }
  updates.length = 0;
  if (action[0] === "next") payload = await backend.nextDeal(action[1]);
  else if (action[0] === "undo") payload = await backend.undo(action[1]);
  // a Stop! decision on a pending violation goes to its own endpoint; a call at the start of
  // a turn (call_window=turn_start) is a move like any other
  else if ((action[1] === "stop" || action[1] === "pass") && payload.view.stop !== null) {
    payload = await backend.stop(action[1] === "stop", action[2]);
  }
  else payload = await backend.move(action[1], action[2]);
  const step = { action, hint, payload, updates: [...updates] };
  if (payload.status !== "playing") step.record = await backend.record(payload.match.deal);
  steps.push(step);
}

if (spec.resign && payload.status !== "over") {
  updates.length = 0;
  payload = await backend.resign();
  steps.push({ action: ["resign"], payload, updates: [...updates], record: null });
}

// a reload: a new backend over the same storage resumes the game where it was
const again = createLocalBackend(lib, { storage });
const resumed = await again.resume(created.game_id, null);

process.stdout.write(JSON.stringify({ created, steps, refused, resumed, final: payload }));
