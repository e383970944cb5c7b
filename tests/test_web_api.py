"""The JSON game API (``crapette.web``): every endpoint, the security list of issue 12 and a
leak scan over whole games (no payload ever shows a card its seat cannot see)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from pydantic import TypeAdapter

import crapette
from crapette.cards import TEXT
from crapette.deal import Rng
from crapette.moves import ALL_MOVES
from crapette.records import parse_record
from crapette.web import MemoryStore, SQLiteStore, create_app
from crapette.web.schema import (
    GamePayload,
    Hint,
    MovesPayload,
    PuzzleList,
    PuzzlePosition,
    PuzzleVerdict,
    ReviewPayload,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MAX_REQUESTS = 2500
"""Every game loop of these tests stops after this many requests."""

PAYLOAD = TypeAdapter(GamePayload)
"""The check that an answer has the documented shape (no key more, none missing)."""


class Seat:
    """A test-side client for one seat."""

    def __init__(self, client: TestClient, game_id: str, token: str) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token
        self.headers = {"Authorization": f"Bearer {token}"}
        self.url = f"/api/games/{game_id}"

    def get(self, **params: Any) -> dict[str, Any]:
        r = self.client.get(self.url, headers=self.headers, params=params)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        PAYLOAD.validate_python(data)  # the answer has the documented shape
        return data

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(self.url + path, headers=self.headers, json=body)

    def play(self, move: str, version: int) -> Any:
        return self.post("/moves", {"move": move, "version": version})


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStore(), allow_seeds=True)) as c:
        yield c


def new_game(client: TestClient, **spec: Any) -> Seat:
    r = client.post("/api/games", json=spec)
    assert r.status_code == 201, r.text
    data = r.json()
    seat = Seat(client, data["game_id"], data["token"])
    seat.invite = data["invite"]  # type: ignore[attr-defined]
    seat.number = data["seat"]  # type: ignore[attr-defined]
    return seat


def two_humans(client: TestClient, **spec: Any) -> tuple[Seat, Seat]:
    a = new_game(client, opponent="human", **spec)
    r = client.post(f"/api/games/{a.game_id}/join", json={"invite": a.invite})  # type: ignore[attr-defined]
    assert r.status_code == 200, r.text
    b = Seat(client, a.game_id, r.json()["token"])
    assert r.json()["seat"] == 1
    return a, b


def error_of(response: Any, status: int, code: str | None = None) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert "Traceback" not in response.text
    if code is not None:
        assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message
    return message


def server_game(client: TestClient, game_id: str) -> Any:
    """The server's game: the cached one, or (a finished game leaves the cache) the stored
    one."""
    return client.app.state.games._fetch(game_id)  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- endpoints


def test_presets_openapi_and_page(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    assert [p["name"] for p in data["presets"]] == list(crapette.PRESETS)
    assert "pagat" in data["callable_stop"] and "greedy" in data["bots"]
    schema = client.get("/openapi.json").json()
    assert "GamePayload" in schema["components"]["schemas"]
    assert "from" in schema["components"]["schemas"]["LegalMove"]["properties"]
    assert "ErrorResponse" in schema["components"]["schemas"]
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/join",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/stop",
        "/api/games/{game_id}/hint",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/resign",
        "/api/games/{game_id}/next-deal",
        "/api/games/{game_id}/record",
    ):
        assert path in schema["paths"], path
    page = client.get("/")
    assert page.status_code == 200 and "<title>crapette" in page.text.lower()
    assert page.headers["content-type"].startswith("text/html")
    assert client.get("/rules", follow_redirects=False).status_code in (302, 307)
    assert client.get("/favicon.ico").status_code == 204  # browsers ask for it
    for name, kind in (("app.js", "javascript"), ("api.js", "javascript"), ("style.css", "css")):
        asset = client.get(f"/static/{name}")  # shipped as package data
        assert asset.status_code == 200 and kind in asset.headers["content-type"]


def test_create_against_a_bot_then_play_by_notation_and_by_code(client: TestClient) -> None:
    me = new_game(client, rules="classic", seed=5, opponent="greedy")
    data = me.get()
    assert data["status"] == "playing" and data["seat"] == 0
    assert data["players"][1] == {"kind": "bot", "name": "greedy", "joined": True}
    assert data["match"]["seed"] is None  # the seed would show every hidden card
    assert data["your_turn"] == (data["to_act"] == 0)
    assert data["your_turn"], "the bot plays its turn before answering"
    moves = data["legal_moves"]
    assert moves and all({"code", "notation", "description"} <= set(m) for m in moves)
    listed = client.get(me.url + "/moves", headers=me.headers).json()
    TypeAdapter(MovesPayload).validate_python(listed)
    assert listed == {"version": data["version"], "legal_moves": moves}
    first = moves[0]
    after = me.play(first["notation"], data["version"]).json()
    assert after["version"] > data["version"]
    if after["your_turn"]:
        code = after["legal_moves"][-1]["code"]
        r = me.post("/moves", {"code": code, "version": after["version"]})
        assert r.status_code == 200, r.text
        assert r.json()["version"] > after["version"]


def test_bad_create_requests_are_clear_4xx(client: TestClient) -> None:
    cases: list[tuple[Any, str]] = [
        ({"rules": "nosuch"}, "bad_rules"),
        ({"rules": "classic(reserve_size=99)"}, "bad_rules"),
        ({"opponent": "wizard"}, "bad_opponent"),
        ({"opponent": "search:100000"}, "bad_opponent"),
        ({"opponent": "search:100000:miss=0.1"}, "bad_opponent"),  # a fallible wrapper too
        ({"opponent": "planner:10000:call=0.5"}, "bad_opponent"),
        ({"seed": "five"}, "invalid_request"),
        ({"seed": "-5"}, "invalid_request"),
        ({"seed": "05"}, "invalid_request"),
        ({"seed": str(2**63)}, "invalid_request"),
        ({"seed": -1}, "invalid_request"),
        ({"seed": 5.0}, "invalid_request"),
        ({"seed": True}, "invalid_request"),
        ({"seat": 2}, "invalid_request"),
        ({"seat": True}, "invalid_request"),  # a bool is not a seat
        ({"seat": False}, "invalid_request"),
        ({"seat": 0.0}, "invalid_request"),  # nor is a float
        ({"seat": 1.0}, "invalid_request"),
        ({"seat": "1"}, "invalid_request"),
        ({"match": {"deals": True}}, "invalid_request"),
        ({"match": {"target": 150.0}}, "invalid_request"),
        ({"undo": 1}, "invalid_request"),
        ({"colour": "red"}, "invalid_request"),
        ({"match": {"target": 0}}, "invalid_request"),
        ([1, 2], "invalid_request"),
    ]
    for body, code in cases:
        message = error_of(client.post("/api/games", json=body), 422, code)
        assert message, body
    r = client.post(
        "/api/games", content=b'{"rules": ', headers={"Content-Type": "application/json"}
    )
    assert "json" in error_of(r, 422, "invalid_request").lower()
    for bad in (b"\xff\xfe{", b"[" * 5000 + b"]" * 5000):  # not UTF-8; nested too deep
        r = client.post("/api/games", content=bad, headers={"Content-Type": "application/json"})
        error_of(r, 400, "invalid_request")


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    big = json.dumps({"rules": "classic", "pad": "x" * 20_000})
    r = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    error_of(r, 413, "body_too_large")

    def chunks() -> Iterator[bytes]:
        for _ in range(40):
            yield b"x" * 1000

    r = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    error_of(r, 413, "body_too_large")


def test_tokens_act_only_for_their_own_seat_and_game(client: TestClient) -> None:
    a, b = two_humans(client, rules="classic", seed=11)
    other = new_game(client, seed=12)
    url = a.url
    error_of(client.get(url), 401, "no_token")
    error_of(client.get(url, headers={"Authorization": "Basic abc"}), 401, "bad_token")
    error_of(client.get(url, headers={"Authorization": "Bearer " + "A" * 43}), 401, "bad_token")
    # a token of another game is worthless here
    error_of(client.get(url, headers=other.headers), 401, "bad_token")
    error_of(client.get("/api/games/nosuchgame", headers=a.headers), 404, "no_such_game")
    error_of(client.get("/api/games/" + "x" * 100, headers=a.headers), 404, "no_such_game")
    # the invite works once
    error_of(client.post(url + "/join", json={"invite": a.invite}), 403, "bad_invite")  # type: ignore[attr-defined]
    error_of(client.post(url + "/join", json={"invite": "guess"}), 403, "bad_invite")
    error_of(
        client.post(other.url + "/join", json={"invite": a.invite}),  # type: ignore[attr-defined]
        403,
        "bad_invite",
    )
    # each seat sees its own view
    va, vb = a.get(), b.get()
    assert va["seat"] == 0 and vb["seat"] == 1
    assert va["view"]["player"] == 0 and vb["view"]["player"] == 1


def test_out_of_turn_stale_replayed_and_illegal_moves_leave_the_game_unchanged(
    client: TestClient,
) -> None:
    a, b = two_humans(client, rules="classic", seed=21)
    first = a.get()
    mover, waiter = (a, b) if first["to_act"] == 0 else (b, a)
    before = mover.get()
    version = before["version"]
    snapshot = server_game(client, a.game_id).to_dict()

    def unchanged() -> None:
        assert server_game(client, a.game_id).to_dict() == snapshot
        assert mover.get() == before

    legal = before["legal_moves"][0]["notation"]
    error_of(waiter.play(legal, version), 409, "not_your_turn")
    unchanged()
    error_of(mover.play(legal, version + 1), 409, "stale_version")
    unchanged()
    error_of(mover.play("Z9-Q", version), 422, "bad_move")
    error_of(mover.post("/moves", {"code": 99999, "version": version}), 422, "bad_move")
    error_of(mover.post("/moves", {"move": "draw", "code": 1, "version": version}), 422)
    error_of(mover.post("/moves", {"version": version}), 422, "bad_move")
    error_of(mover.post("/moves", {"move": "R-F"}), 422, "invalid_request")  # no version
    error_of(mover.post("/moves", {"move": 5, "version": version}), 422, "invalid_request")
    error_of(mover.post("/moves", {"move": "draw", "version": version, "x": 1}), 422)
    legal_codes = {m["code"] for m in before["legal_moves"]}
    illegal = next(m for m in ALL_MOVES if m.index not in legal_codes)
    msg = error_of(
        mover.post("/moves", {"code": illegal.index, "version": version}), 422, "illegal_move"
    )
    assert "code" in msg
    r = client.post(
        mover.url + "/moves",
        content="{not json",
        headers={**mover.headers, "Content-Type": "application/json"},
    )
    error_of(r, 422, "invalid_request")
    unchanged()
    # a replayed request: the same body twice
    ok = mover.play(legal, version)
    assert ok.status_code == 200
    error_of(mover.play(legal, version), 409, "stale_version")


def test_an_illegal_move_is_refused_with_the_rules_reason_as_data(client: TestClient) -> None:
    """The refusal body carries the rules' reason (its code and parameters) beside the
    English message, by notation and by action code alike; a text that is no move has none."""
    a, b = two_humans(client, rules="classic", seed=21)
    mover = a if a.get()["to_act"] == 0 else b
    payload = mover.get()
    version = payload["version"]
    server = server_game(client, a.game_id)
    state = server.state
    legal = {m["code"] for m in payload["legal_moves"]}
    one_of_each: dict[str, crapette.Move] = {}
    for move in ALL_MOVES:
        found = None if move.index in legal else crapette.refusal(state, move)
        if found is not None:
            one_of_each.setdefault(found.code, move)
    assert len(one_of_each) >= 4
    for move in one_of_each.values():
        expected = crapette.refusal(state, move)
        assert expected is not None
        for body in ({"move": str(move), "version": version}, {"code": move.index}):
            r = mover.post("/moves", {**body, "version": version})
            message = error_of(r, 422, "illegal_move")
            assert r.json()["error"]["reason"] == expected.to_dict()
            assert message.endswith(str(expected))
    r = mover.play("Z9-Q", version)
    error_of(r, 422, "bad_move")
    assert "reason" not in r.json()["error"]


def test_stop_decision_call_and_let_stand(client: TestClient) -> None:
    for call in (True, False):
        a, b = two_humans(client, rules="pagat", seed=3)
        seats = {0: a, 1: b}
        violated = False
        for _ in range(400):
            data = a.get()
            mover = seats[data["to_act"]]
            view = mover.get()
            bad = [m for m in view["legal_moves"] if m.get("violation")]
            if bad:
                r = mover.play(bad[0]["notation"], view["version"])
                assert r.status_code == 200, r.text
                violated = True
                break
            good = [m for m in view["legal_moves"] if m["action"] != "draw"]
            choice = (good or view["legal_moves"])[0]
            assert mover.play(choice["notation"], view["version"]).status_code == 200
        assert violated, "no violation offered in 400 moves"
        offender = mover
        caller = b if offender is a else a
        seen = caller.get()
        assert seen["your_turn"] and seen["view"]["stop"] is not None
        stop = seen["view"]["stop"]
        assert stop["move"] == bad[0]["notation"] and stop["offender"] == offender.get()["seat"]
        assert {m["action"] for m in seen["legal_moves"]} == {"stop", "pass"}
        error_of(offender.post("/stop", {"call": True, "version": seen["version"]}), 409)
        r = caller.post("/stop", {"call": call, "version": seen["version"]})
        assert r.status_code == 200, r.text
        after = r.json()
        assert after["view"]["stop"] is None
        assert after["your_turn"] == call  # calling takes the turn; letting it stand does not
        error_of(caller.post("/stop", {"call": True, "version": after["version"]}), 409)


def test_a_bot_can_win_the_deal_before_the_first_human_move(client: TestClient) -> None:
    """Seed 91785 from seat 1: the greedy bot starts and plays out its whole pack in its first
    turn. The new game is over when it is created: its record is there, and a resignation
    is refused as ``game_over`` (a drawn seed can do this too, about once in 70,000 games)."""
    me = new_game(client, rules="classic", seed=91785, opponent="greedy", seat=1)
    data = me.get()
    assert data["status"] == "over" and data["legal_moves"] == []
    assert data["outcome"]["winner"] == 0 and data["outcome"]["reason"] == "win"
    error_of(me.post("/resign"), 409, "game_over")
    record = client.get(me.url + "/record", headers=me.headers)
    assert record.status_code == 200, record.text


def test_hint_undo_resign_record_and_next_deal(client: TestClient) -> None:
    me = new_game(client, rules="classic", seed=8, opponent="greedy", match={"deals": 2})
    data = me.get()
    hint = client.get(me.url + "/hint", headers=me.headers).json()
    Hint.model_validate(hint)
    assert hint["code"] in {m["code"] for m in data["legal_moves"]}
    assert hint["notation"] and hint["description"]
    error_of(client.get(me.url + "/record", headers=me.headers), 409, "deal_running")
    # undo: a play move of mine in my turn can be taken back, a draw cannot
    undone = False
    for _ in range(60):
        data = me.get()
        plays = [m for m in data["legal_moves"] if m["action"] == "play"]
        if not plays:
            draw = next(m for m in data["legal_moves"] if m["action"] in ("draw", "discard"))
            after = me.play(draw["notation"], data["version"]).json()
            if draw["action"] == "draw":
                assert not after["can_undo"]
                error_of(me.post("/undo", {"version": after["version"]}), 409, "cannot_undo")
            continue
        after = me.play(plays[0]["notation"], data["version"]).json()
        if after["your_turn"] and after["can_undo"]:
            error_of(me.post("/undo", {"version": after["version"] - 1}), 409, "stale_version")
            back = me.post("/undo", {"version": after["version"]}).json()
            assert back["view"] == data["view"] and back["legal_moves"] == data["legal_moves"]
            undone = True
            break
    assert undone
    # play the deal out with hints
    for _ in range(MAX_REQUESTS):
        data = me.get()
        if data["status"] != "playing":
            break
        hint = client.get(me.url + "/hint", headers=me.headers).json()
        assert me.play(hint["notation"], data["version"]).status_code == 200
    assert data["status"] == "deal_over" and data["outcome"] is not None
    error_of(me.play("draw", data["version"]), 409, "deal_over")
    text = client.get(me.url + "/record", headers=me.headers).text
    record = parse_record(text)
    assert record.headers["Result"] == data["outcome"]["text"]
    assert "Seed" not in record.headers
    doc = client.get(me.url + "/record", headers=me.headers, params={"format": "json"})
    assert crapette.from_json(doc.text) == record
    r = me.post("/next-deal", {"version": data["version"]})
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["match"]["deal"] == 2 and len(second["match"]["results"]) == 1
    assert second["status"] == "playing"
    again = client.get(me.url + "/record", headers=me.headers, params={"deal": 1}).text
    assert parse_record(again) == record
    error_of(client.get(me.url + "/record", headers=me.headers, params={"deal": 2}), 409)
    error_of(me.post("/resign", {"version": second["version"], "now": True}), 422)
    error_of(me.post("/resign", {"version": second["version"] - 1}), 409, "stale_version")
    assert me.get()["status"] == "playing"
    resigned = me.post("/resign").json()
    assert resigned["status"] == "over" and resigned["ended"] == "resigned by 0"
    assert resigned["match"]["seed"] == "8"  # shown once the game is over, as a string
    # a resignation is an outcome with a winner and its score (decision 20)
    assert resigned["outcome"]["winner"] == 1 and resigned["outcome"]["reason"] == "resigned"
    assert resigned["match"]["winner"] == 1 and resigned["match"]["resigned"] == 0
    assert resigned["match"]["results"][-1]["reason"] == "resigned"
    assert resigned["outcome"]["scores"][1] > 30 and not resigned["can_undo"]
    error_of(me.post("/resign"), 409, "game_over")
    error_of(me.play("draw", resigned["version"]), 409, "game_over")
    error_of(me.post("/next-deal", {}), 409, "game_over")


def test_undo_is_not_offered_between_humans(client: TestClient) -> None:
    a, b = two_humans(client, seed=4)
    data = a.get()
    mover = a if data["to_act"] == 0 else b
    view = mover.get()
    play = next(m for m in view["legal_moves"] if m["action"] == "play")
    after = mover.play(play["notation"], view["version"]).json()
    assert not after["can_undo"]
    error_of(mover.post("/undo", {}), 409, "cannot_undo")
    error_of(mover.post("/undo"), 409, "cannot_undo")  # the body may be left out
    error_of(mover.post("/undo", {"version": 0, "seat": 1}), 422, "invalid_request")
    error_of(mover.post("/next-deal"), 409, "deal_running")


def test_an_unexpected_failure_is_a_bare_500(monkeypatch: pytest.MonkeyPatch) -> None:
    from crapette.web.session import Game

    with TestClient(create_app(MemoryStore()), raise_server_exceptions=False) as c:
        me = new_game(c, seed=3)

        def broken(self: Game, seat: int, *, svg: bool = False) -> dict[str, Any]:
            raise RuntimeError("secret internals at /srv/crapette/session.py line 1")

        monkeypatch.setattr(Game, "payload", broken)
        r = c.get(me.url, headers=me.headers)
        error_of(r, 500, "internal_error")
        assert "secret" not in r.text and "RuntimeError" not in r.text


def test_waiting_for_the_second_human(client: TestClient) -> None:
    a = new_game(client, opponent="human", seed=2)
    data = a.get()
    assert data["status"] == "waiting" and not data["legal_moves"]
    error_of(a.play("draw", data["version"]), 409, "waiting")


def test_websocket_updates_follow_the_other_seat(client: TestClient) -> None:
    a, b = two_humans(client, seed=31)
    with client.websocket_connect(b.url + "/live") as ws:
        ws.send_text(json.dumps({"token": b.token}))
        first = ws.receive_json()
        assert first["type"] == "update" and first["game"]["seat"] == 1
        data = a.get()
        mover = a if data["to_act"] == 0 else b
        view = mover.get()
        move = view["legal_moves"][0]["notation"]
        assert mover.play(move, view["version"]).status_code == 200
        update = ws.receive_json()
        assert update["game"]["version"] == view["version"] + 1
        assert update["game"]["seat"] == 1
    with client.websocket_connect(b.url + "/live") as ws:
        ws.send_text(json.dumps({"token": "wrong"}))
        assert ws.receive_json()["error"]["code"] == "bad_token"
    for hello in ("hello", json.dumps({"token": b.token, "svg": "yes"}), "[]"):
        with client.websocket_connect(b.url + "/live") as ws:
            ws.send_text(hello)
            assert ws.receive_json()["error"]["code"] == "bad_request"


def test_websocket_bad_frames_are_refused_or_ignored(client: TestClient) -> None:
    a, b = two_humans(client, seed=31)
    for hello in (b"\x00binary", json.dumps({"token": b.token, "pad": "x" * 20_000})):
        with client.websocket_connect(b.url + "/live") as ws:
            ws.send_bytes(hello) if isinstance(hello, bytes) else ws.send_text(hello)
            assert ws.receive_json()["error"]["code"] == "bad_request"
    with client.websocket_connect(b.url + "/live") as ws:
        ws.send_text(json.dumps({"token": b.token}))
        ws.receive_json()
        ws.send_bytes(b"\x00noise")  # after the hello, anything sent is ignored
        ws.send_text("more noise")
        data = a.get()
        mover = a if data["to_act"] == 0 else b
        view = mover.get()
        assert mover.play(view["legal_moves"][0]["notation"], view["version"]).status_code == 200
        assert ws.receive_json()["game"]["version"] == view["version"] + 1


def test_a_slow_follower_queue_is_bounded() -> None:
    import asyncio

    from crapette.web._manager import BACKLOG as _BACKLOG
    from crapette.web._manager import offer as _offer

    queue: asyncio.Queue[list[dict[str, Any]]] = asyncio.Queue()
    for version in range(10 * _BACKLOG):
        _offer(queue, [{"version": version}])
    assert queue.qsize() == _BACKLOG
    last = [queue.get_nowait()[0]["version"] for _ in range(_BACKLOG)]
    assert last == list(range(9 * _BACKLOG, 10 * _BACKLOG))  # the newest are kept, in order
    from crapette.web._manager import LONGEST_BATCH as longest

    _offer(queue, [{"version": v} for v in range(longest + 10)])  # one very long bot turn
    assert [p["version"] for p in queue.get_nowait()] == list(range(10, longest + 10))


def test_each_bot_move_reaches_the_follower_as_it_is_made(client: TestClient) -> None:
    me = new_game(client, seed=5, opponent="greedy")
    with client.websocket_connect(me.url + "/live") as ws:
        ws.send_text(json.dumps({"token": me.token, "svg": True}))
        seen = [ws.receive_json()["game"]]
        for _ in range(200):  # my moves (the greedy hint) until my turn passes to the bot
            data = me.get()
            if not data["your_turn"]:
                break
            hint = client.get(me.url + "/hint", headers=me.headers).json()["notation"]
            r = me.play(hint, data["version"])
            assert r.status_code == 200, r.text
            final = r.json()
            while seen[-1]["version"] < final["version"]:
                seen.append(ws.receive_json()["game"])
            if final["last_moves"] and final["last_moves"][-1]["seat"] != me.number:  # type: ignore[attr-defined]
                break
        else:
            pytest.fail("my turn never ended")
    versions = [g["version"] for g in seen]
    assert versions == list(range(versions[0], versions[-1] + 1))  # every version, in order
    bots = [g for g in seen if g["to_act"] != me.number]  # type: ignore[attr-defined]
    assert len(bots) >= 2  # the bot's turn arrived move by move, not only its end
    assert all(g["svg"].startswith("<svg") for g in seen)
    assert seen[-1] == me.get(svg=True)


def test_games_survive_a_restart_and_expire(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(SQLiteStore(db))) as c1:
        me = new_game(c1, seed=9, opponent="greedy")
        data = me.get()
        me.play(data["legal_moves"][0]["notation"], data["version"])
        before = me.get()
    with TestClient(create_app(SQLiteStore(db))) as c2:
        again = Seat(c2, me.game_id, me.token)
        assert again.get() == before
        r = again.play(before["legal_moves"][0]["notation"], before["version"])
        assert r.status_code == 200
        manager = c2.app.state.games  # type: ignore[attr-defined]
        assert manager.sweep(time.time()) == []
        assert manager.sweep(time.time() + 10 * 86_400) == [me.game_id]
        error_of(c2.get(again.url, headers=again.headers), 404, "no_such_game")


def test_finished_games_expire_sooner_and_open_games_are_capped() -> None:
    store = MemoryStore()
    with TestClient(create_app(store, max_open_games=2, finished_ttl=60)) as c:
        g1 = new_game(c, seed=1)
        new_game(c, seed=2)
        error_of(c.post("/api/games", json={}), 503, "too_many_games")
        g1.post("/resign")
        g3 = new_game(c, seed=3)  # a finished game does not count
        manager = c.app.state.games  # type: ignore[attr-defined]
        gone = manager.sweep(time.time() + 120)
        assert gone == [g1.game_id]
        assert g3.get()["status"] == "playing"


# ---------------------------------------------------------------------------- leak scan

_CARD_RE = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][CDHScdhs])(?![A-Za-z0-9])")
_SECRET_KEYS = {"token", "invite", "game_id", "url"}


def hidden_texts(state: crapette.GameState, seat: int) -> tuple[set[str], set[str]]:
    """The card texts (``7H``) and suit symbols (``7♥``, both copies hidden) the seat cannot
    see in ``state``."""
    view = crapette.observe(state, seat)
    hidden = set(view.hidden_cards())
    texts = {TEXT[c] for c in hidden}
    symbols = set()
    for c in hidden:
        twin = crapette.ALL_CARDS[(c + 52) % 104]
        if twin in hidden:
            symbols.add(crapette.Card(c).symbol)
    return texts, symbols


def scan(payload: Any, hidden: tuple[set[str], set[str]], where: str) -> None:
    """Fail if any string of the payload names a hidden card."""
    texts, symbols = hidden
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key not in _SECRET_KEYS:
                scan(value, hidden, f"{where}.{key}")
    elif isinstance(payload, list):
        for i, value in enumerate(payload):
            scan(value, hidden, f"{where}[{i}]")
    elif isinstance(payload, str):
        for found in _CARD_RE.findall(payload):
            assert found not in texts, f"{where} shows the hidden card {found}: {payload[:200]}"
        for symbol in symbols:
            pattern = rf"(?<![0-9]){re.escape(symbol)}"
            assert not re.search(pattern, payload), f"{where} shows hidden {symbol}"


def state_at(game: Any, moves_made: int) -> crapette.GameState:
    """The state of the game's current deal after its move ``moves_made`` (replayed from
    the deal's start: every applied move, Stop! decisions included, counts one)."""
    state: crapette.GameState = game._replay(moves_made - game.start.moves_made)
    assert state.moves_made == moves_made
    return state


def scan_message(client: TestClient, game_id: str, message: Any, seat: int) -> dict[str, Any]:
    """Scan one WebSocket update against what the seat could see at that message's
    position (not the newest one: a bot's reply arrives move by move); its payload."""
    data: dict[str, Any] = message["game"]
    PAYLOAD.validate_python(data)
    state = state_at(server_game(client, game_id), data["view"]["moves_made"])
    scan(message, hidden_texts(state, seat), f"ws{seat}@{data['version']}")
    return data


@pytest.mark.parametrize(
    ("rules", "opponent", "seed"),
    [("classic", "greedy", 101), ("pagat", "greedy", 102), ("serbian", "random", 103)],
)
def test_leak_scan_over_whole_games_against_a_bot(
    client: TestClient, rules: str, opponent: str, seed: int
) -> None:
    """A human seat driven by the test (greedy hints, now and then a random or violating
    move) plays a whole deal; every response, and every WebSocket update (each of the
    bot's moves, with the picture), is scanned against what the seat cannot see."""
    me = new_game(client, rules=rules, seed=seed, opponent=opponent)
    rng = Rng(seed)
    scanned = updates = 0
    with client.websocket_connect(me.url + "/live") as ws:
        ws.send_text(json.dumps({"token": me.token, "svg": True}))
        seen = scan_message(client, me.game_id, ws.receive_json(), 0)["version"]
        for _ in range(MAX_REQUESTS):
            state = server_game(client, me.game_id).state
            hidden = hidden_texts(state, 0)
            data = me.get(svg="true")
            scan(data, hidden, "GET")
            scanned += 1
            if data["status"] != "playing":
                break
            r = client.get(me.url + "/hint", headers=me.headers)
            scan(r.json(), hidden, "hint")
            legal = data["legal_moves"]
            pick = r.json()["notation"]
            if rng.random() < 0.2:
                pick = legal[rng.below(len(legal))]["notation"]
            r = me.play(pick, data["version"])
            assert r.status_code == 200, r.text
            PAYLOAD.validate_python(r.json())
            scan(r.json(), hidden_texts(server_game(client, me.game_id).state, 0), "POST")
            while seen < r.json()["version"]:  # my move, then each of the bot's
                version = scan_message(client, me.game_id, ws.receive_json(), 0)["version"]
                assert version == seen + 1
                seen = version
                updates += 1
    assert data["status"] in ("deal_over", "over"), "the deal did not end in time"
    assert scanned > 20 and updates > scanned


def test_leak_scan_between_two_humans_with_live_updates(client: TestClient) -> None:
    """Two humans (mostly the greedy hint, now and then a random move, violations
    included) play a whole pagat deal; both follow it over the WebSocket, and every
    response and update of each seat is scanned."""
    a, b = two_humans(client, rules="pagat", seed=55)
    seats = {0: a, 1: b}
    rng = Rng(55)
    with (
        client.websocket_connect(a.url + "/live") as ws0,
        client.websocket_connect(b.url + "/live") as ws1,
    ):
        sockets = (ws0, ws1)
        for seat, ws in enumerate(sockets):
            ws.send_text(json.dumps({"token": seats[seat].token, "svg": seat == 1}))
            scan_message(client, a.game_id, ws.receive_json(), seat)
        for _ in range(MAX_REQUESTS):
            game = server_game(client, a.game_id)
            if game.status() != "playing":
                break
            seat = game.state.to_act
            mover = seats[seat]
            data = mover.get()
            scan(data, hidden_texts(game.state, seat), "GET")
            hint = client.get(mover.url + "/hint", headers=mover.headers).json()
            scan(hint, hidden_texts(game.state, seat), "hint")
            legal = data["legal_moves"]
            pick = hint if rng.random() < 0.8 else legal[rng.below(len(legal))]
            r = mover.play(pick["notation"], data["version"])
            assert r.status_code == 200, r.text
            state = server_game(client, a.game_id).state
            scan(r.json(), hidden_texts(state, seat), "POST")
            for watcher, ws in enumerate(sockets):
                update = scan_message(client, a.game_id, ws.receive_json(), watcher)
                assert update["version"] == r.json()["version"]
        assert server_game(client, a.game_id).status() != "playing", "the deal did not end"


def test_a_payload_depends_only_on_the_seats_view() -> None:
    """The strongest form of the leak check: at every position of whole games (each bot
    move included), a seat's payload with the picture, its hint and the error message of
    every move it could send are the same when the cards it cannot see are dealt
    otherwise (``determinize``). A payload that showed a hidden card, in any form (a
    symbol, the order of a hand, a count), would differ."""
    from crapette.views import determinize
    from crapette.web.session import Game, WebError

    def twin(game: Game, seat: int, rng: Rng) -> Game:
        other = Game.from_dict(game.to_dict())
        other.match = other.match.with_state(determinize(crapette.observe(game.state, seat), rng))
        return other

    def refusals(game: Game, seat: int) -> list[str]:
        out = []
        for move in ALL_MOVES:
            try:
                game.parse(seat, None, move.index)
                out.append("legal")
            except WebError as exc:
                out.append(exc.message)
        return out

    def check(game: Game, humans: list[int], rng: Rng, deep: bool) -> None:
        for seat in humans:
            other = twin(game, seat, rng)
            assert other.payload(seat, svg=True) == game.payload(seat, svg=True)
            if game.status() == "playing" and game.state.to_act == seat:
                assert other.hint(seat) == game.hint(seat)
                if deep:
                    assert refusals(other, seat) == refusals(game, seat)
            checked.append(seat)

    checked: list[int] = []
    for rules, opponent, seed in (("pagat", "greedy", 7), ("serbian", "human", 8)):
        ruleset = crapette.Ruleset.from_string(rules).replace(match_target=None, match_deals=1)
        game, _, invite = Game.create("g", ruleset, seed=seed, opponent=opponent, seat=0)
        if invite is not None:
            game.join(invite)
        rng = Rng(seed)
        humans = [i for i, s in enumerate(game.seats) if s.kind == "human"]
        # each bot move as it is made
        game.on_move = lambda *_, g=game, humans=humans, rng=rng: check(g, humans, rng, False)
        for step in range(3000):
            check(game, humans, rng, step % 10 == 0)
            if game.status() != "playing":
                break
            seat = game.state.to_act
            legal = crapette.legal_moves(game.state)
            move = legal[rng.below(len(legal))] if rng.random() < 0.25 else game.hint(seat)
            game.play(seat, text=None, code=move.index, version=game.version)
        assert game.status() == "over", f"{rules}: the deal did not end"
    assert len(checked) > 500


def test_the_serve_command_builds_the_app_and_runs_uvicorn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from crapette.cli import main

    seen: dict[str, Any] = {}

    def fake_run(app: Any, **options: Any) -> None:
        seen["app"], seen["options"] = app, options

    monkeypatch.setattr(uvicorn, "run", fake_run)
    db = tmp_path / "g.sqlite3"
    assert main(["serve", "--port", "8123", "--db", str(db), "--max-games", "5"]) == 0
    options = seen["options"]
    http = options.pop("http")
    assert options == {
        "host": "127.0.0.1",
        "port": 8123,
        "log_level": "warning",
        "ws_max_size": 16_384,
        "timeout_keep_alive": 5,
    }
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    assert issubclass(http, HttpToolsProtocol)  # uvicorn's protocol, its connections bounded
    assert callable(seen["app"])
    assert db.exists()
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8123/" in out and "at most 256 connections" in out


def test_the_database_lives_in_the_users_data_directory_by_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``crapette serve`` writes no file into the current folder: its database is in the
    user's data directory unless ``--db`` says otherwise."""
    import uvicorn

    from crapette.cli import main
    from crapette.web.app import default_database

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "8124"]) == 0
    expected = tmp_path / "data" / "crapette" / "games.sqlite3"
    assert default_database() == expected and expected.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["data"]
    assert str(expected) in capsys.readouterr().out
    assert main(["serve", "--port", "8125", "--db", ":memory:"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["data"]


def test_a_game_between_two_people_is_dealt_from_a_seed_the_server_draws() -> None:
    """Security: whoever chose the seed of a game between two people would know every
    hidden card, so the default server refuses one (a bot game keeps its seed); a server
    started with ``allow_seeds`` (``--allow-seeds``) accepts it, for tests."""
    with TestClient(create_app(MemoryStore())) as c:
        message = error_of(
            c.post("/api/games", json={"opponent": "human", "seed": 5}), 422, "seed_not_allowed"
        )
        assert "--allow-seeds" in message
        a = new_game(c, opponent="human")  # no seed: the server draws one
        joined = c.post(f"/api/games/{a.game_id}/join", json={"invite": a.invite})  # type: ignore[attr-defined]
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        new_game(c, opponent="greedy", seed=5)
    with TestClient(create_app(MemoryStore(), allow_seeds=True)) as c:
        new_game(c, opponent="human", seed=5)


# ---------------------------------------------------------------------------- review, puzzles

REVIEW = TypeAdapter(ReviewPayload)
POSITION = TypeAdapter(PuzzlePosition)
VERDICT = TypeAdapter(PuzzleVerdict)


def test_a_finished_deal_is_reviewed_never_a_running_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pagat deal where the player breaks a priority rule and turns cards where it had
    better moves, then resigns: refused while it runs; then every move judged, the board
    before each as the seat saw it (nothing it could not see), a fault with the rule's
    reason code and the missed move, a judgment with the best line; kept for the next ask.
    (The server's limit, 256 play-outs or 20 ms, is here 256 play-outs: the same judgments
    on any machine.)"""
    from crapette.analysis import Limit
    from crapette.web.session import Game

    monkeypatch.setattr(Game, "review_limit", Limit(rollouts=256))
    me = new_game(client, rules="pagat", seed=3, opponent="greedy")
    error_of(client.get(me.url + "/review", headers=me.headers), 409, "deal_running")
    error_of(client.get(me.url + "/review"), 401, "no_token")
    for _ in range(14):
        data = me.get()
        legal = data["legal_moves"]
        bad = [m for m in legal if m.get("violation")]
        bad += [m for m in legal if m["action"] in ("draw", "discard")]
        assert me.play((bad or legal)[0]["notation"], data["version"]).status_code == 200
    assert me.post("/resign").status_code == 200
    started = time.monotonic()
    r = client.get(me.url + "/review", headers=me.headers)
    assert r.status_code == 200, r.text
    review = r.json()
    REVIEW.validate_python(review)  # the documented shape, no key more
    game = server_game(client, me.game_id)
    states = [state for state, _ in game.record().replay()]
    assert len(review["decisions"]) == len(game.moves) == len(states) - 1
    for decision, state, (who, text, _) in zip(
        review["decisions"], states, game.moves, strict=False
    ):
        assert decision["played"]["move"] == text and decision["played"]["player"] == who
        assert decision["view"]["moves_made"] == state.moves_made
        scan(decision["view"], hidden_texts(state, 0), f"review@{decision['ply']}")
        line = state
        for step in decision["best"]:  # every best line is legal from its position
            line = crapette.apply(line, crapette.parse_move(line, step["move"]))
    faults = [d for d in review["decisions"] if d["fault"]]
    assert faults and all(d["played"]["player"] == 0 for d in faults)
    fault = faults[0]["fault"]
    assert fault["kind"] == "missed_compulsory"
    assert fault["reason"] == {"code": "priority_foundation", "params": {"cards": ["AC"]}}
    assert [m["move"] for m in fault["remedy"]] == ["T-F"] and "T-F" in fault["text"]
    judged = [d for d in review["decisions"] if d["judgment"]]
    assert judged and all(d["best"] and d["loss"] > 0 for d in judged)
    mine = next(d for d in judged if d["played"]["player"] == 0)
    assert mine["win_after"] < mine["win_before"]
    assert review["accuracy"][0] < review["accuracy"][1]
    assert review["limit"] == "rollouts=256,deep=8"
    assert time.monotonic() - started < 15
    again = client.get(me.url + "/review", headers=me.headers).json()
    assert again == review  # the review is kept
    error_of(client.get(me.url + "/review?deal=2", headers=me.headers), 409, "deal_running")


def test_the_puzzles_are_listed_without_their_solutions(client: TestClient) -> None:
    listed = client.get("/api/puzzles").json()
    TypeAdapter(PuzzleList).validate_python(listed)
    puzzles = listed["puzzles"]
    assert len(puzzles) == 32 and [p["number"] for p in puzzles] == list(range(1, 33))
    assert "solution" not in json.dumps(listed) and "position" not in json.dumps(listed)
    schema = client.get("/openapi.json").json()
    for path in (
        "/api/games/{game_id}/review",
        "/api/puzzles",
        "/api/puzzles/{number}",
        "/api/puzzles/{number}/answer",
    ):
        assert path in schema["paths"], path
    assert "ReviewPayload" in schema["components"]["schemas"]


def test_a_puzzle_is_played_move_by_move_and_checked_by_the_engine(client: TestClient) -> None:
    """Puzzle 1 (the solver is seat 1: H7-OW R-H7): each position is the solver's payload
    (never a card hidden from the solver); the solution is right, the alternative wrong
    (with the solution shown), a partial line not whole; refusals have their codes."""
    from crapette.analysis import load_puzzles

    puzzle = load_puzzles()[0]
    state = puzzle.state()
    start = client.get("/api/puzzles/1").json()
    POSITION.validate_python(start)
    game = start["game"]
    PAYLOAD.validate_python(game)
    assert game["seat"] == puzzle.player == 1 and game["your_turn"] and not start["complete"]
    assert start["puzzle"]["theme"] == puzzle.theme and start["line"] == []
    assert puzzle.solution[0] in [m["notation"] for m in game["legal_moves"]]
    scan(start, hidden_texts(state, 1), "puzzle")
    first = client.get("/api/puzzles/1", params={"line": "H7-OW"}).json()
    assert first["line"] == ["H7-OW"] and not first["complete"] and first["game"]["can_undo"]
    whole = client.get("/api/puzzles/1", params={"line": "H7-OW R-H7"}).json()
    assert whole["complete"] and whole["game"]["legal_moves"] == []
    assert not whole["game"]["your_turn"]

    def answer(*line: str) -> Any:
        return client.post("/api/puzzles/1/answer", json={"line": list(line)})

    right = answer(*puzzle.solution).json()
    VERDICT.validate_python(right)
    assert right["correct"] and right["verdict"] == "solution"
    wrong = answer("discard").json()
    assert not wrong["correct"] and wrong["verdict"] == "worse"
    assert wrong["win"] < wrong["best"]
    assert [m["move"] for m in wrong["solution"]] == list(puzzle.solution)
    assert wrong["solution"][0]["from"] == "H7" and wrong["solution"][0]["to"] == "W0"
    partial = answer("H7-OW").json()
    assert not partial["correct"] and partial["verdict"] == "partial"
    body = error_of(client.get("/api/puzzles/1", params={"line": "H1-H2"}), 422, "illegal_move")
    assert "H1-H2" in body
    r = client.get("/api/puzzles/1", params={"line": "H1-H2"}).json()
    assert r["error"]["reason"]["code"] == "house"
    error_of(client.get("/api/puzzles/1", params={"line": "H7-OW R-H7 draw"}), 422, "line_over")
    error_of(client.get("/api/puzzles/1", params={"line": "Z9"}), 422, "bad_move")
    error_of(client.get("/api/puzzles/33"), 404, "no_such_puzzle")
    error_of(client.get("/api/puzzles/0"), 404, "no_such_puzzle")
    error_of(answer(), 422, "bad_move")
    error_of(answer("R-H7x99" * 10), 422, "invalid_request")
    bad = client.post("/api/puzzles/1/answer", json={"line": ["draw"], "more": 1})
    error_of(bad, 422, "invalid_request")
    error_of(client.post("/api/puzzles/1/answer", json={"line": ["draw"] * 65}), 422)


def test_the_engine_makes_one_analysis_at_a_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a review is being made, another that waits too long for the engine is answered
    503 analysis_busy with Retry-After (and nothing is kept of it); the first is answered."""
    import threading

    import crapette.web._routes as routes
    from crapette.session import DealReview

    slow = threading.Event()
    real = DealReview.of

    def held(*args: Any, **kwargs: Any) -> DealReview:
        slow.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(DealReview, "of", held)
    monkeypatch.setattr(routes, "ANALYSIS_WAIT", 0.2)
    seats = [new_game(client, rules="classic", seed=5 + k, opponent="greedy") for k in range(2)]
    for seat in seats:
        assert seat.post("/resign").status_code == 200
    answers: list[Any] = []
    first = threading.Thread(
        target=lambda: answers.append(
            client.get(seats[0].url + "/review", headers=seats[0].headers)
        )
    )
    first.start()
    time.sleep(0.3)  # the first review holds the engine
    busy = client.get(seats[1].url + "/review", headers=seats[1].headers)
    error_of(busy, 503, "analysis_busy")
    assert busy.headers["Retry-After"] == "5"
    slow.set()
    first.join(30)
    assert answers and answers[0].status_code == 200, answers
    again = client.get(seats[1].url + "/review", headers=seats[1].headers)
    assert again.status_code == 200, again.text  # once the engine is free
