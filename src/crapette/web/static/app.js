// The reference web page: the table drawn by the server's SVG renderer (crapette.svg.board
// with interactive=True: <g class="pile" data-pile="H3">, face-up cards carry data-card),
// click a source pile (or card) then a target pile; the server checks every move.
import { api, ApiError, follow } from "./api.js";

const $ = (selector) => document.querySelector(selector);
const ui = {
  board: $("#board"),
  message: $("#message"),
  score: $("#score"),
  status: $("#status"),
  opponentMoves: $("#opponent-moves"),
  legalMoves: $("#legal-moves"),
  invite: $("#invite"),
  inviteLink: $("#invite-link"),
  stopDialog: $("#stop-dialog"),
  stopText: $("#stop-text"),
};

const session = {
  id: null, token: null, game: null, selected: null, socket: null, lastSeen: 0, busy: false,
  drag: null, drawn: null,
};
window.crapette = session; // for the browser tests and the curious

function say(text, isError = false) {
  ui.message.textContent = text;
  ui.message.classList.toggle("error", isError);
}

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

// ---------------------------------------------------------------- moves from clicks

// The notation of a move from the player's side: own piles are R, T, W; others absolute.
function sourceText(pile, seat) {
  if (pile === `R${seat}`) return "R";
  if (pile === `W${seat}`) return "W";
  return pile;
}

function targetText(pile) {
  return pile.startsWith("F") ? "F" : pile;
}

function movesFrom(pile) {
  const game = session.game;
  return game.legal_moves.filter((m) => m.action === "play" && m.from === pile);
}

function sameTarget(move, pile) {
  return move.to === targetText(pile);
}

function pileElements() {
  return ui.board.querySelectorAll(".pile[data-pile]");
}

function highlight() {
  for (const el of pileElements()) {
    const name = el.dataset.pile;
    el.classList.toggle("selected", session.selected?.pile === name);
    const targets = session.selected ? movesFrom(session.selected.pile) : [];
    el.classList.toggle("target", targets.some((m) => sameTarget(m, name)));
  }
}

function groupCount(pile, cardElement) {
  // how many cards a click on a house card picks up (that card and those above it)
  if (!cardElement || !pile.startsWith("H")) return 1;
  const house = session.game.view.houses[Number(pile.slice(1)) - 1];
  const index = house.lastIndexOf(cardElement.dataset.card);
  return index < 0 ? 1 : house.length - index;
}

function choose(pile, target, count) {
  const candidates = movesFrom(pile).filter((m) => sameTarget(m, target));
  return (
    candidates.find((m) => m.count === count) ||
    (candidates.length ? candidates.reduce((a, b) => (a.count >= b.count ? a : b)) : null)
  );
}

async function onPileClick(event) {
  const game = session.game;
  if (!game || session.busy) return;
  const element = event.currentTarget;
  const pile = element.dataset.pile;
  const card = event.target.closest("[data-card]");
  const seat = game.seat;
  if (!game.your_turn) {
    say(game.status === "playing" ? "Wait for your opponent." : "The deal is over.", true);
    return;
  }
  if (!session.selected) {
    if (pile === `K${seat}`) return send("draw");
    const offered = movesFrom(pile);
    const mine = pile === "T" || pile === `R${seat}` || pile === `W${seat}` || pile.startsWith("H");
    if (!offered.length && !mine) {
      say(`Nothing to move from ${pile}.`, true);
      return;
    }
    session.selected = { pile, count: groupCount(pile, card) };
    highlight();
    say(offered.length ? `Selected ${pile}: click where it goes.` : `${pile} has no legal move.`);
    return;
  }
  const from = session.selected;
  session.selected = null;
  highlight();
  if (pile === from.pile) {
    say("Selection cleared.");
    return;
  }
  if (from.pile === "T" && pile === `W${seat}`) return send("discard");
  const move = choose(from.pile, pile, from.count);
  const text = move
    ? move.notation
    : `${sourceText(from.pile, seat)}-${targetText(pile)}${from.count > 1 ? "x" + from.count : ""}`;
  return send(text); // an illegal pair goes to the server too: its message says why
}

// Drag and drop: press on a source pile, release over a target pile. (A press and release
// on the same pile is a click, handled above.)
function onPointerDown(event) {
  session.drag = {
    pile: event.currentTarget.dataset.pile,
    card: event.target.closest("[data-card]"),
  };
}

function onPointerUp(event) {
  const drag = session.drag;
  session.drag = null;
  if (!drag || !session.game) return;
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const target = under && under.closest("#board .pile[data-pile]");
  if (!target || target.dataset.pile === drag.pile || !session.game.your_turn) return;
  session.selected = { pile: drag.pile, count: groupCount(drag.pile, drag.card) };
  onPileClick({ currentTarget: target, target });
}

function findAction(action) {
  return session.game?.legal_moves.find((m) => m.action === action);
}

async function send(text) {
  const game = session.game;
  session.busy = true;
  try {
    await api.play(session.id, session.token, text, game.version);
    say(`You played ${text}.`);
  } catch (error) {
    say(error instanceof ApiError ? `Refused: ${error.message}` : String(error), true);
  } finally {
    session.busy = false;
  }
  await refresh();
}

// ---------------------------------------------------------------- drawing

function render(game) {
  const first = !session.game || session.game.game_id !== game.game_id;
  // a reply that left the server before a live update already shown is stale
  if (!first && game.version < session.game.version) return;
  if (!first && session.game.status === "waiting" && game.status !== "waiting") {
    say("Your opponent joined: the game has begun.");
  }
  session.game = game;
  document.body.dataset.status = game.status;
  document.body.dataset.version = String(game.version);
  document.body.dataset.yourTurn = String(game.your_turn);
  if (game.svg && game.svg !== session.drawn) {
    // redraw only when the picture changed (a live update of the same version keeps the
    // table, and whatever the player is pointing at, in place)
    session.drawn = game.svg;
    ui.board.innerHTML = game.svg;
    for (const el of pileElements()) {
      el.addEventListener("click", onPileClick);
      el.addEventListener("pointerdown", onPointerDown);
    }
  }
  highlight();
  const m = game.match;
  const length = m.deals === 1 && m.target === null ? "one deal"
    : [m.target ? `to ${m.target}` : null, m.deals ? `${m.deals} deals` : null].filter(Boolean).join(", ");
  ui.score.textContent =
    `Deal ${m.deal} (${length}) · You ${m.totals[game.seat]} : ${m.totals[1 - game.seat]} Opponent`;
  ui.status.textContent = statusText(game);
  $("#btn-draw").disabled = !findAction("draw");
  $("#btn-discard").disabled = !(findAction("discard") || findAction("end"));
  $("#btn-hint").disabled = !game.your_turn;
  $("#btn-undo").disabled = !game.can_undo;
  $("#btn-resign").disabled = game.status === "over";
  $("#btn-next").hidden = game.status !== "deal_over";
  $("#btn-record").hidden = !(game.outcome || game.status === "over");
  ui.legalMoves.replaceChildren(
    ...game.legal_moves.map((move) => {
      const li = document.createElement("li");
      li.textContent = `${move.notation}: ${move.description}`;
      return li;
    }),
  );
  showOpponentMoves(game, first);
  const stop = game.view.stop;
  if (stop && game.your_turn) {
    ui.stopText.textContent = `Your opponent played ${stop.move} (${stop.description}) against the priority rules.`;
    if (!ui.stopDialog.open) ui.stopDialog.showModal();
  } else if (ui.stopDialog.open) {
    ui.stopDialog.close();
  }
  const invite = loadSeat(game.game_id)?.invite;
  ui.invite.hidden = !(invite && game.status === "waiting");
  if (invite) ui.inviteLink.value = `${location.origin}/?game=${game.game_id}&invite=${invite}`;
}

function statusText(game) {
  if (game.status === "waiting") return "Waiting for the other player to join.";
  if (game.status === "over") {
    const w = game.match.winner;
    if (game.ended) return `Game over: ${game.ended.replace(String(game.seat), "you")}.`;
    const verdict = w === null ? "a draw" : w === game.seat ? "you win" : "you lose";
    const deal = game.outcome ? `Deal over: ${game.outcome.text} (${game.outcome.reason}). ` : "";
    return `${deal}Game over: ${verdict}.`;
  }
  if (game.outcome) return `Deal over: ${game.outcome.text} (${game.outcome.reason}).`;
  if (game.view.stop && !game.your_turn) return "Your opponent decides whether to call Stop!";
  return game.your_turn ? "Your move." : "Your opponent is playing.";
}

function showOpponentMoves(game, first) {
  const fresh = game.last_moves.filter((m) => m.number > session.lastSeen);
  ui.opponentMoves.replaceChildren(
    ...game.last_moves.map((move) => {
      const li = document.createElement("li");
      li.value = move.number;
      li.textContent = move.move + (move.cards.length ? ` (${move.cards.join(" ")})` : "");
      li.classList.toggle("fresh", move.number > session.lastSeen);
      return li;
    }),
  );
  if (game.last_moves.length) session.lastSeen = game.last_moves.at(-1).number;
  if (!first) animate(fresh);
}

async function animate(moves) {
  // flash the source and target piles of each new opponent move, one after the other
  for (const move of moves.slice(-8)) {
    const piles = [move.from, move.to].filter(Boolean);
    const elements = [...pileElements()].filter((el) =>
      piles.some((p) => el.dataset.pile === p || (p === "F" && el.dataset.pile.startsWith("F"))),
    );
    for (const el of elements) el.classList.add("flash");
    await new Promise((resolve) => setTimeout(resolve, 350));
    for (const el of elements) el.classList.remove("flash");
  }
}

// ---------------------------------------------------------------- game life

async function refresh() {
  if (!session.id) return;
  try {
    render(await api.game(session.id, session.token));
  } catch (error) {
    say(error.message, true);
  }
}

async function open(id, token) {
  session.id = id;
  session.token = token;
  session.lastSeen = 0;
  session.selected = null;
  history.replaceState(null, "", `/?game=${id}`);
  if (session.socket) session.socket.close();
  await refresh();
  session.socket = follow(id, token, (game) => render(game));
}

async function newGame(event) {
  event.preventDefault();
  const spec = {
    rules: $("#preset").value,
    opponent: $("#opponent").value,
  };
  const seed = $("#seed").value;
  if (seed !== "") spec.seed = Number(seed);
  if ($("#length").value === "deal") delete spec.match;
  else spec.match = matchOf($("#preset").value);
  try {
    const created = await api.create(spec);
    saveSeat(created.game_id, created.token, created.invite);
    say(created.invite ? "Send the invite link to your opponent." : "Your game has begun.");
    await open(created.game_id, created.token);
  } catch (error) {
    say(error.message, true);
  }
}

function matchOf(preset) {
  const entry = session.presets.find((p) => p.name === preset);
  return { target: entry?.match_target ?? null, deals: entry?.match_deals ?? null };
}

async function start() {
  const data = await api.presets();
  session.presets = data.presets;
  $("#preset").replaceChildren(
    ...data.presets.map((p) => {
      const option = document.createElement("option");
      option.value = p.name;
      option.textContent = p.name;
      return option;
    }),
  );
  $("#new-game").addEventListener("submit", newGame);
  document.addEventListener("pointerup", onPointerUp);
  $("#btn-draw").addEventListener("click", () => send("draw"));
  $("#btn-discard").addEventListener("click", () => send(findAction("end") ? "end" : "discard"));
  $("#btn-hint").addEventListener("click", async () => {
    try {
      const hint = await api.hint(session.id, session.token);
      say(`Hint: ${hint.notation}, ${hint.description}.`);
    } catch (error) {
      say(error.message, true);
    }
  });
  $("#btn-undo").addEventListener("click", async () => {
    try {
      await api.undo(session.id, session.token, session.game.version);
      say("Move taken back.");
    } catch (error) {
      say(error.message, true);
    }
    await refresh();
  });
  $("#btn-resign").addEventListener("click", async () => {
    if (!confirm("Resign this game?")) return;
    await api.resign(session.id, session.token).catch((error) => say(error.message, true));
    await refresh();
  });
  $("#btn-next").addEventListener("click", async () => {
    await api.nextDeal(session.id, session.token, session.game.version)
      .catch((error) => say(error.message, true));
    session.lastSeen = 0;
    await refresh();
  });
  $("#btn-record").addEventListener("click", async () => {
    try {
      const text = await api.record(session.id, session.token, session.game.match.deal);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      link.download = `crapette-${session.id}-deal${session.game.match.deal}.txt`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      say(error.message, true);
    }
  });
  for (const [button, callIt] of [["#btn-call-stop", true], ["#btn-let-stand", false]]) {
    $(button).addEventListener("click", async () => {
      ui.stopDialog.close();
      try {
        await api.stop(session.id, session.token, callIt, session.game.version);
        say(callIt ? "You called Stop!" : "You let it stand.");
      } catch (error) {
        say(error.message, true);
      }
      await refresh();
    });
  }
  const params = new URLSearchParams(location.search);
  const id = params.get("game");
  const invite = params.get("invite");
  if (id && invite) {
    try {
      const joined = await api.join(id, invite);
      saveSeat(id, joined.token, null);
      say("You joined the game.");
      return open(id, joined.token);
    } catch (error) {
      say(`Could not join: ${error.message}`, true);
    }
  }
  const seat = id ? loadSeat(id) : null;
  if (id && seat) return open(id, seat.token);
  document.body.dataset.status = "none";
}

start();
