"""A game session: one match between two seats, humans or bots, as a player lives it. The
game server (``crapette serve``, ``crapette.web``) and the terminal game
(``crapette play``, [`crapette.cli.game`][crapette.cli.game]) are both built on
[`Session`][crapette.session.Session]; the page without a server
(``web/static/local.js``) is its JavaScript twin, checked against it action by action.

A session holds:

- **the seats**: who plays each side, a human or a bot ([`Seat`][crapette.session.Seat]);
- **the match**: deal after deal, each deal's moves and records, resigning, the next deal;
- **the one policy of undo**: a human may take back their own last move against a bot,
  within their turn, while the deal runs, and never a move that showed a card hidden
  before (a draw, a reveal, a reserve play that turned up the next reserve card) or ended
  the turn (a discard, a Stop! decision);
- **the hint**: the engine's best line from the seat's own view, with its win chance and a
  reason ([`crapette.analysis.hint`][crapette.analysis.hint] at
  `Session.hint_limit`), seeded with the move number (no secret goes
  into it); `quick_hint` is the greedy bot's choice, the hint of the page without a server;
- **the bots' randomness**: a bot seat's generator is seeded with an HMAC-SHA256 of the
  deal, the seat and the move number under the session's key (``Session.secret``), so the
  match seed, shown once the match is over, predicts none of the bots' choices; a session
  dealt from a seed its creator chose is keyed by that seed
  ([`chosen_secret`][crapette.session.chosen_secret]) and replays the same bot moves;
- **the review**: a finished deal judged move by move by the engine
  ([`Session.review`][crapette.session.Session.review], a
  [`DealReview`][crapette.session.DealReview]), never during the deal;
- **puzzle mode**: the shipped puzzles played on a seat's payload
  ([`puzzle_position`][crapette.session.puzzle_position]) and an answer checked by the
  engine ([`puzzle_answer`][crapette.session.puzzle_answer]);
- **the payload**: everything a seat may know, built from its view only
  ([`crapette.session.payload`][crapette.session.payload], whose typed dicts are the one
  definition of its shape: the server's OpenAPI schema is generated from them).
"""

from __future__ import annotations

from crapette.errors import SessionError
from crapette.session._puzzles import ANSWER_LIMIT, puzzle_answer, puzzle_list, puzzle_position
from crapette.session._review import REVIEW_DEEP, REVIEW_LIMIT, DealReview
from crapette.session._session import Seat, Session, chosen_secret, new_secret

__all__ = [
    "ANSWER_LIMIT",
    "REVIEW_DEEP",
    "REVIEW_LIMIT",
    "DealReview",
    "Seat",
    "Session",
    "SessionError",
    "chosen_secret",
    "new_secret",
    "puzzle_answer",
    "puzzle_list",
    "puzzle_position",
]
