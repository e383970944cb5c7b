"""The core session (``crapette.session``): the one policy of undo, checked in the core, on
the game server and in the terminal game; the match deal after deal; refusals; the bots'
seeds; the payload built by its typed dicts; the outcome computed once per state."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import pytest

import crapette as c
from crapette.errors import SessionError
from crapette.moves import ALL_MOVES, RESERVE, Action, Move
from crapette.outcome import outcome
from crapette.session import Seat, Session, chosen_secret, new_secret
from crapette.session.payload import GamePayload
from crapette.state import GameState

ONE_DEAL = c.Ruleset().replace(match_target=None, match_deals=1)
SERBIAN = c.Ruleset.preset("serbian").replace(match_target=None, match_deals=1)
HUMAN = 0
"""The human's seat in these tests (the bot plays seat 1)."""


def human_vs(
    bot: str = "greedy", *, seed: int = 5, rules: c.Ruleset = ONE_DEAL, **kwargs: Any
) -> Session:
    """A session of a human (seat 0) against a bot, dealt from a chosen seed, the bot's
    first moves made."""
    seats = [Seat("human", "human"), Seat("bot", bot)]
    secret = chosen_secret(seed)
    session = Session.new(rules, seed=seed, seats=seats, id="t", secret=secret, **kwargs)
    session.run_bots()
    return session


def shows_a_card(before: GameState, after: GameState) -> bool:
    """Whether either seat sees a card after the move that it did not see before."""
    for seat in (0, 1):
        seen = set(c.observe(before, seat).visible_cards())
        if not seen.issuperset(c.observe(after, seat).visible_cards()):
            return True
    return False


def kind_of(state: GameState, move: Move) -> str | None:
    """Which kind of move of the human this is, for the undo tests: ``quiet`` (a play that
    keeps the turn and shows nothing), ``reserve`` (a reserve play that keeps the turn and
    turns up a hidden card), ``draw``, ``reveal``, ``discard``; ``None`` for the others."""
    after = c.apply(state, move)
    keeps = after.to_act == state.to_act and after.stop is None and outcome(after) is None
    if move.action is Action.DISCARD:
        return "discard"
    if not keeps:
        return None
    if move.action is Action.DRAW:
        return "draw"
    if move.action is Action.REVEAL:
        return "reveal"
    if move.is_play and not shows_a_card(state, after):
        return "quiet"
    if move.is_play and move.source == RESERVE:
        return "reserve"
    return None


def find(kind: str) -> tuple[c.Ruleset, int, list[Move], Move]:
    """A game against the greedy bot where the human, after some moves (the hint's), can
    make a move of ``kind``: its rules, seed, the moves before it and the move."""
    rules = SERBIAN if kind == "reveal" else ONE_DEAL
    for seed in range(1, 40):
        session = human_vs(seed=seed, rules=rules)
        prefix: list[Move] = []
        for _ in range(300):
            if session.status() != "playing":
                break
            state = session.state
            assert state.to_act == HUMAN
            for move in c.legal_moves(state):
                if kind_of(state, move) == kind:
                    return rules, seed, prefix, move
            move = session.hint(HUMAN)
            prefix.append(move)
            session.play(HUMAN, code=move.index)
    pytest.fail(f"no {kind} move found")


# ---------------------------------------------------------------------------- frontends


class Frontend(Protocol):
    """One way to play a session: the core, the game server's ``Game``, the terminal."""

    @property
    def state(self) -> GameState: ...

    def play(self, move: Move) -> None: ...

    def can_undo(self) -> bool: ...

    def undo(self) -> str | None:
        """Take back the human's last move; the refusal's message, or ``None``."""


class Core:
    def __init__(self, rules: c.Ruleset, seed: int) -> None:
        self.session = human_vs(seed=seed, rules=rules)

    @property
    def state(self) -> GameState:
        return self.session.state

    def play(self, move: Move) -> None:
        self.session.play(HUMAN, code=move.index)

    def can_undo(self) -> bool:
        return self.session.can_undo(HUMAN)

    def undo(self) -> str | None:
        try:
            self.session.take_back(HUMAN)
        except SessionError as exc:
            assert exc.code == "cannot_undo"
            return exc.message
        return None


class Server(Core):
    def __init__(self, rules: c.Ruleset, seed: int) -> None:
        pytest.importorskip("fastapi")
        from crapette.web.session import Game

        self.session, _, _ = Game.create(
            "g", rules, seed=seed, opponent="greedy", seat=HUMAN, secret=chosen_secret(seed)
        )

    def undo(self) -> str | None:
        from crapette.web import WebError

        try:
            self.session.take_back(HUMAN, self.session.version)
        except WebError as exc:
            assert (exc.status, exc.code) == (409, "cannot_undo")
            return exc.message
        return None


class Terminal:
    def __init__(self, rules: c.Ruleset, seed: int) -> None:
        pytest.importorskip("rich")
        from rich.console import Console

        from crapette.cli.game import TerminalGame

        self.out = io.StringIO()
        self.lines: list[str] = []
        console = Console(file=self.out, width=200, color_system=None)
        self.game = TerminalGame(rules, seed=seed, human=HUMAN, console=console, input_fn=self.read)

    def read(self, prompt: str) -> str:
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def command(self, line: str) -> str:
        """What the game prints for one typed line (then the end of input quits)."""
        start = len(self.out.getvalue())
        self.lines = [line]
        self.game.run()
        return self.out.getvalue()[start:]

    @property
    def state(self) -> GameState:
        return self.game.state

    def play(self, move: Move) -> None:
        self.command(str(move))

    def can_undo(self) -> bool:
        return self.game.session.can_undo(HUMAN)

    def undo(self) -> str | None:
        text = self.command("undo")
        if "Taken back" in text:
            return None
        refusal = "there is no move of yours that may be taken back"
        assert refusal in text
        return refusal


FRONTENDS: dict[str, Callable[[c.Ruleset, int], Frontend]] = {
    "core": Core,
    "server": Server,
    "terminal": Terminal,
}


# ---------------------------------------------------------------------------- undo


@pytest.mark.parametrize("frontend", list(FRONTENDS))
def test_a_move_that_shows_nothing_and_keeps_the_turn_is_taken_back(frontend: str) -> None:
    rules, seed, prefix, move = find("quiet")
    game = FRONTENDS[frontend](rules, seed)
    for step in prefix:
        game.play(step)
    before = game.state
    game.play(move)
    assert game.state != before and game.can_undo()
    assert game.undo() is None
    assert game.state == before


@pytest.mark.parametrize("frontend", list(FRONTENDS))
@pytest.mark.parametrize("kind", ["reserve", "draw", "reveal", "discard"])
def test_no_undo_across_a_revealed_card_or_an_ended_turn(frontend: str, kind: str) -> None:
    """A reserve play that turned up the next reserve card, a draw, a reveal (each shows a
    card hidden before) and a discard (it ends the turn: the bot then plays) can never be
    taken back, in the core, on the server and in the terminal game alike."""
    rules, seed, prefix, move = find(kind)
    game = FRONTENDS[frontend](rules, seed)
    for step in prefix:
        game.play(step)
    before = game.state
    game.play(move)
    after = game.state
    assert after != before
    if kind == "discard":
        assert after.to_act == HUMAN and after.moves_made > before.moves_made + 1  # the bot played
    else:
        assert after.to_act == HUMAN and shows_a_card(before, after)
    assert not game.can_undo()
    assert game.undo() is not None
    assert game.state == after


def test_a_card_shown_fixes_every_move_before_it() -> None:
    """Undo never reaches back past a shown card: after a takeable move and then a draw,
    neither may be taken back."""
    rules, seed, prefix, _ = find("draw")
    session = human_vs(seed=seed, rules=rules)
    for step in prefix:
        session.play(HUMAN, code=step.index)
    quiet = next(
        (m for m in c.legal_moves(session.state) if kind_of(session.state, m) == "quiet"), None
    )
    if quiet is not None and c.DRAW in c.legal_moves(c.apply(session.state, quiet)):
        session.play(HUMAN, code=quiet.index)
        assert session.can_undo(HUMAN)
    session.play(HUMAN, code=c.DRAW.index)
    assert session.fixed == len(session.moves)
    with pytest.raises(SessionError, match="no move of yours"):
        session.take_back(HUMAN)


def test_undo_only_against_bots_and_only_when_the_session_allows_it() -> None:
    rules, seed, prefix, move = find("quiet")
    session = human_vs(seed=seed, rules=rules, undo=False)
    for step in prefix:
        session.play(HUMAN, code=step.index)
    session.play(HUMAN, code=move.index)
    assert not session.can_undo(HUMAN) and session.payload(HUMAN)["can_undo"] is False
    for seed in range(1, 40):  # between two people: no undo, even of a quiet move
        seats = [Seat("human", "human"), Seat("human", "human")]
        people = Session.new(ONE_DEAL, seed=seed, seats=seats)
        state = people.state
        quiet = [m for m in c.legal_moves(state) if kind_of(state, m) == "quiet"]
        if quiet:
            people.play(state.to_act, code=quiet[0].index)
            assert not people.can_undo(state.to_act)
            with pytest.raises(SessionError, match="no move of yours"):
                people.take_back(state.to_act)
            return
    pytest.fail("no quiet first move")


def test_a_bot_that_saw_a_move_taken_back_is_rebuilt() -> None:
    """The bots were told of the move taken back: they are dropped, and rebuilt (and shown
    the deal so far) when next needed."""
    rules, seed, prefix, move = find("quiet")
    session = human_vs(seed=seed, rules=rules)
    for step in prefix:
        session.play(HUMAN, code=step.index)
    session.play(HUMAN, code=move.index)
    session.take_back(HUMAN)
    assert session._bots == {}


# ---------------------------------------------------------------------------- the match


def play_out(session: Session, seat: int = HUMAN, cap: int = 3000) -> None:
    """The human plays the hint until the deal is over."""
    for _ in range(cap):
        if session.status() != "playing":
            return
        session.play(seat, code=session.hint(seat).index, version=session.version)
    pytest.fail("the deal did not end")


def test_a_match_goes_deal_after_deal_and_ends() -> None:
    rules = c.Ruleset().replace(match_target=None, match_deals=2)
    session = human_vs(seed=12, rules=rules)
    first_start = session.start
    play_out(session)
    assert session.status() == "deal_over" and session.deal_outcome() is not None
    for refused in (
        lambda: session.play(HUMAN, code=0),
        lambda: session.hint(HUMAN),
    ):
        with pytest.raises(SessionError) as info:
            refused()
        assert info.value.code == "deal_over"
    record = session.record()
    session.next_deal(HUMAN, session.version)
    assert session.records == [record.to_json()] and record.moves
    assert session.match.number == 1 and session.start != first_start
    assert all(seat == 1 for seat, _, _ in session.moves)  # the bot's first turn, if it starts
    assert session.status() == "playing" and session.state.to_act == HUMAN
    play_out(session)
    assert session.status() == "over" and session.over
    payload = session.payload(HUMAN)
    assert payload["match"]["over"] and payload["match"]["seed"] == "12"
    totals = payload["match"]["totals"]
    assert totals == [sum(r["scores"][p] for r in payload["match"]["results"]) for p in (0, 1)]
    with pytest.raises(SessionError, match="the game is over"):
        session.next_deal(HUMAN)


def test_the_next_deal_waits_for_the_end_of_the_deal() -> None:
    session = human_vs(rules=c.Ruleset().replace(match_target=None, match_deals=2))
    with pytest.raises(SessionError) as info:
        session.next_deal(HUMAN)
    assert info.value.code == "deal_running" and session.match.number == 0


def test_resigning_ends_the_match_for_the_other_seat() -> None:
    session = human_vs(seed=3)
    session.resign(HUMAN)
    assert session.status() == "over" and session.ended == "resigned by 0"
    assert session.seats[HUMAN].resigned and session.match.resigned == HUMAN
    payload = session.payload(HUMAN)
    assert payload["outcome"] is not None and payload["outcome"]["reason"] == "resigned"
    assert payload["match"]["winner"] == 1 and payload["match"]["seed"] == "3"
    assert not payload["your_turn"] and payload["legal_moves"] == []
    with pytest.raises(SessionError, match="the game is over"):
        session.resign(1)


def test_refusals_name_their_reason_and_change_nothing() -> None:
    session = human_vs(seed=8)
    state, version, moves = session.state, session.version, list(session.moves)
    illegal = next(m for m in ALL_MOVES if m not in c.legal_moves(state))
    for kwargs, code in (
        ({"text": "draw", "version": version + 1}, "stale_version"),
        ({"text": str(illegal)}, "illegal_move"),
        ({"code": illegal.index}, "illegal_move"),
        ({"text": "zz"}, "bad_move"),
        ({"code": len(ALL_MOVES)}, "bad_move"),
        ({}, "bad_move"),
        ({"text": "draw", "code": 1}, "bad_move"),
    ):
        with pytest.raises(SessionError) as info:
            session.play(HUMAN, **kwargs)
        assert info.value.code == code, kwargs
    with pytest.raises(SessionError) as info:
        session.play(1, code=c.legal_moves(state)[0].index)
    assert info.value.code == "not_your_turn"
    assert (session.state, session.version, session.moves) == (state, version, moves)


def test_a_seat_not_taken_yet_waits() -> None:
    seats = [Seat("human", "human"), Seat("human", "human", joined=False)]
    session = Session.new(ONE_DEAL, seed=4, seats=seats)
    assert session.status() == "waiting"
    with pytest.raises(SessionError) as info:
        session.play(session.state.to_act, code=c.legal_moves(session.state)[0].index)
    assert info.value.code == "waiting"
    assert session.payload(0)["players"][1] == {"kind": "human", "name": "human", "joined": False}


def test_a_loaded_game_plays_on_and_its_moves_stay() -> None:
    start = c.new_game(SERBIAN, seed=2)
    moves = []
    state = start
    while state.to_act == start.to_act and len(moves) < 3:
        move = c.legal_moves(state)[0]
        moves.append(move)
        state = c.apply(state, move)
    session = human_vs(seed=9)
    session.load(start, moves)
    assert session.rules == SERBIAN and session.state == state and session.start == start
    assert session.fixed == len(moves) == len(session.moves) and not session.can_undo(HUMAN)
    assert [m for _, m in session.history()] == moves
    assert session.match.number == 0 and session.records == []


def test_a_session_names_two_seats_and_known_bots() -> None:
    with pytest.raises(c.CrapetteError, match="two seats"):
        Session.new(ONE_DEAL, seed=1, seats=[Seat("human", "human")])
    with pytest.raises(c.CrapetteError, match="nosuch"):
        Session.new(ONE_DEAL, seed=1, seats=[Seat("human", "human"), Seat("bot", "nosuch")])


# ---------------------------------------------------------------------------- the bots' seeds


def test_the_bot_seed_is_an_hmac_of_the_deal_the_seat_and_the_move() -> None:
    """The formula is pinned: the page without a server (local.js) and every stored game
    depend on it (a game of a chosen seed replays the same bot moves)."""
    assert chosen_secret(21) == "14e43ee7f8e25bf1dd1fdc7592963d5f6114da128b33a5943b87c35e40c64baf"
    session = Session.new(
        ONE_DEAL,
        seed=21,
        seats=[Seat("human", "human"), Seat("bot", "greedy")],
        secret=chosen_secret(21),
    )
    assert session._bot_seed(1) == 18398339540228565116
    session.secret = "00" * 32
    assert session._bot_seed(1) == 16570823314293217371
    assert session._bot_seed(0) != session._bot_seed(1)
    assert len({new_secret() for _ in range(4)}) == 4 and len(new_secret()) == 64
    drawn = Session.new(ONE_DEAL, seed=21, seats=session.seats)
    assert drawn.secret != chosen_secret(21) and len(bytes.fromhex(drawn.secret)) == 32


def test_a_chosen_seed_replays_the_same_bot_moves() -> None:
    games = []
    for _ in range(2):
        session = human_vs("random", seed=33)
        play_out(session)
        games.append([text for _, text, _ in session.moves])
    assert games[0] == games[1]
    seats = [Seat("human", "human"), Seat("bot", "random")]
    other = Session.new(ONE_DEAL, seed=33, seats=seats)  # the same deal, a key drawn anew
    other.run_bots()
    play_out(other)
    assert [text for _, text, _ in other.moves] != games[0]


def test_the_terminal_game_and_the_server_play_the_same_bots() -> None:
    """``crapette play --seed N`` is a session keyed by the chosen seed ``N``: its bot
    makes the moves a server game dealt from the chosen seed ``N`` makes (the same human
    moves given)."""
    pytest.importorskip("fastapi")
    pytest.importorskip("rich")
    from rich.console import Console

    from crapette.cli.game import TerminalGame
    from crapette.web.session import Game

    seed = 17
    server, _, _ = Game.create(
        "g", ONE_DEAL, seed=seed, opponent="greedy", seat=HUMAN, secret=chosen_secret(seed)
    )
    play_out(server)
    terminal: list[TerminalGame] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Next deal"):
            return "n"
        return str(terminal[0].session.hint(HUMAN))

    out = Console(file=io.StringIO(), width=200, color_system=None)
    terminal.append(TerminalGame(ONE_DEAL, seed=seed, human=HUMAN, console=out, input_fn=read))
    terminal[0].run()
    assert [t for _, t, _ in terminal[0].session.moves] == [t for _, t, _ in server.moves]
    assert terminal[0].state == server.state


# ---------------------------------------------------------------------------- the payload


def payloads(session: Session, seat: int = HUMAN) -> Iterator[GamePayload]:
    """The seat's payload at each of its decisions of a whole game (hints played)."""
    for _ in range(3000):
        yield session.payload(seat)
        if session.status() != "playing":
            return
        session.play(seat, code=session.hint(seat).index)


def test_the_hint_is_the_engines_analysis_of_the_seats_view() -> None:
    """The session's hint (the server's and the terminal game's) is the analysis of the
    seat's own view at the session's limit, seeded with the move number; ``quick_hint``
    (the page without a server's) is the greedy bot's choice."""
    from crapette.analysis import hint
    from crapette.bots import get_bot
    from crapette.views import observe

    session = human_vs(seed=11)
    state, version = session.state, session.version
    view = observe(state, HUMAN)
    advice = session.advice(HUMAN)
    expected = hint(view, Session.hint_limit, seed=state.moves_made, deep=Session.hint_deep)
    assert advice.line == expected.line and advice.reason == expected.reason
    assert advice.win == expected.win and "win chance" in advice.reason
    assert session.hint(HUMAN) == advice.move == advice.line[0]
    assert session.quick_hint(HUMAN) == get_bot("greedy", seed=state.moves_made).choose(view)
    assert session.state is state and session.version == version  # a hint changes nothing
    with pytest.raises(SessionError) as refused:
        session.advice(1 - HUMAN)
    assert refused.value.code == "not_your_turn"


@pytest.mark.parametrize("preset", ["classic", "pagat", "serbian"])
def test_the_payload_has_the_shape_its_typed_dicts_define(preset: str) -> None:
    """Every payload validates against ``GamePayload`` with no key more (what the server's
    OpenAPI schema is generated from), its keys in the definition's order."""
    pydantic = pytest.importorskip("pydantic")
    check = pydantic.TypeAdapter(GamePayload)
    rules = c.Ruleset.preset(preset).replace(match_target=None, match_deals=1)
    order = [k for k in GamePayload.__annotations__ if k != "svg"]
    seen = 0
    for payload in payloads(human_vs(seed=6, rules=rules)):
        check.validate_python(payload)
        assert list(payload) == order
        seen += 1
    assert seen > 20
    with pytest.raises(pydantic.ValidationError):
        check.validate_python({**payload, "extra": 1})
    broken = dict(payload)
    del broken["can_undo"]
    with pytest.raises(pydantic.ValidationError):
        check.validate_python(broken)


def test_the_servers_schema_is_generated_from_the_typed_dicts() -> None:
    pytest.importorskip("fastapi")
    from crapette.session.payload import LegalMove
    from crapette.web import MemoryStore, create_app

    schemas = create_app(MemoryStore()).openapi()["components"]["schemas"]
    for typed in (GamePayload, LegalMove):
        schema = schemas[typed.__name__]
        assert set(schema["properties"]) == set(typed.__annotations__)
        assert set(schema["required"]) == set(typed.__required_keys__)
        assert schema["additionalProperties"] is False
    assert set(schemas["LegalMove"]["properties"]) - set(schemas["LegalMove"]["required"]) == {
        "from",
        "to",
        "count",
        "violation",
    }


def test_a_payload_shows_the_opponents_moves_since_the_seats_last_one() -> None:
    session = human_vs(seed=5)
    last = []
    for payload in payloads(session):
        last = payload["last_moves"]
        if last:
            break
    assert last and all(m["seat"] == 1 for m in last)
    numbers = [m["number"] for m in last]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    for entry in last:
        assert session.moves[entry["number"] - 1][1] == entry["move"]
        if "-" in entry["move"]:
            assert "from" in entry and "to" in entry
        else:
            assert "from" not in entry


# ---------------------------------------------------------------------------- the outcome


@pytest.fixture
def outcome_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the calls of the rules core's ``outcome`` made through any module."""
    original = sys.modules["crapette.outcome"].outcome  # (crapette.outcome is the function)
    calls = [0]

    def counted(state: GameState) -> c.Outcome | None:
        calls[0] += 1
        return original(state)

    for name, loaded in list(sys.modules.items()):
        if name.startswith("crapette") and getattr(loaded, "outcome", None) is original:
            monkeypatch.setattr(loaded, "outcome", counted)
    yield calls


def test_the_outcome_is_computed_once_per_state(outcome_calls: list[int]) -> None:
    """A move that keeps the turn, then everything a request asks (the payload, the
    status, whether undo is allowed): one computation of the deal's outcome, for the one
    new state (it was 18 before the session core)."""
    rules, seed, prefix, move = find("quiet")
    session = human_vs(seed=seed, rules=rules)
    for step in prefix:
        session.play(HUMAN, code=step.index)
    session.payload(HUMAN)
    outcome_calls[0] = 0
    session.play(HUMAN, code=move.index, version=session.version)
    session.payload(HUMAN)
    assert (session.status(), session.over, session.deal_over) == ("playing", False, False)
    assert outcome_calls[0] == 1
    outcome_calls[0] = 0
    session.payload(0)
    session.payload(1)
    assert outcome_calls[0] == 0
