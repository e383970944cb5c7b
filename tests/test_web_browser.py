"""The reference web page in a real browser: Playwright driving Debian's Chromium against
``crapette serve``'s app on a loopback port.

Skipped only when Chromium (or Playwright) is missing and ``CI`` is not set: CI installs
Chromium (``.ci/run``), so there a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
IN_CI = bool(os.environ.get("CI"))
if not IN_CI and not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)
if not IN_CI:
    pytest.importorskip("playwright.sync_api")
    pytest.importorskip("uvicorn")

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402

from crapette.records import parse_record  # noqa: E402
from crapette.web import MemoryStore, create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]
DOCS = Path(__file__).resolve().parent.parent / "docs"
SHOTS = os.environ.get("CRAPETTE_SCREENSHOTS")
"""Set to write the screenshots into docs/ (else they go to a temporary folder)."""
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 1080, "height": 2340}
HANDSET = {
    "viewport": {"width": 412, "height": 892},  # 1080x2340 device pixels at 2.625 per px
    "device_scale_factor": 2.625,
    "is_mobile": True,
    "has_touch": True,
}
"""A real phone of 1080x2340 pixels: its browser lays the page out 412 CSS pixels wide."""
WAIT_MS = 15_000


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app under uvicorn on 127.0.0.1 in a thread, for the module's tests."""
    port = _free_port()
    config = uvicorn.Config(
        create_app(MemoryStore(), allow_seeds=True),
        host="127.0.0.1",
        port=port,
        log_level="warning",
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(20)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(WAIT_MS)
    yield ctx
    ctx.close()


def game_of(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("() => window.crapette.game")
    return data


def start_game(page: Page, base: str, preset: str, opponent: str, seed: int) -> dict[str, Any]:
    page.goto(base + "/")
    page.wait_for_selector("#preset option[value='classic']", state="attached")
    page.select_option("#preset", preset)
    page.select_option("#opponent", opponent)
    page.fill("#seed", str(seed))
    page.click("#btn-new")
    page.wait_for_function("() => window.crapette.game && window.crapette.game.svg")
    return game_of(page)


def wait_change(page: Page, version: int) -> dict[str, Any]:
    page.wait_for_function(
        "v => window.crapette.game && window.crapette.game.version !== v && !window.crapette.busy",
        arg=version,
    )
    return game_of(page)


def wait_my_turn(page: Page, version: int) -> dict[str, Any]:
    """The page's game once it changed from ``version`` and is back with the player (the
    bot's reply arrives move by move over the WebSocket) or the deal ended."""
    page.wait_for_function(
        """v => { const g = window.crapette.game;
                  return g && g.version !== v && !window.crapette.busy
                         && (g.your_turn || g.status !== "playing"); }""",
        arg=version,
    )
    return game_of(page)


def click_pile(page: Page, name: str) -> None:
    """A real click on the pile's hit area (the renderer's ``rect.hit``)."""
    page.locator(f"#board .pile[data-pile='{name}'] > rect.hit").click(force=True)


def click_move(page: Page, game: dict[str, Any], move: dict[str, Any]) -> None:
    """Make ``move`` by clicks on the table (a house card is clicked as the card itself)."""
    seat = game["seat"]
    action = move["action"]
    if action == "draw":
        click_pile(page, f"K{seat}")
    elif action == "discard":
        click_pile(page, "T")
        click_pile(page, f"W{seat}")
    elif action in ("end", "reveal"):
        page.click("#btn-discard") if action == "end" else click_pile(page, f"R{seat}")
    elif action == "play":
        source = move["from"]
        if source.startswith("H"):
            house = game["view"]["houses"][int(source[1:]) - 1]
            card = house[-move["count"]]
            page.locator(f"#board .pile[data-pile='{source}'] [data-card='{card}']").dispatch_event(
                "click"
            )
        else:
            click_pile(page, source)
        target = move["to"]
        click_pile(page, "F1" if target == "F" else target)
    else:  # a Stop! decision
        page.click("#btn-call-stop" if action == "stop" else "#btn-let-stand")


def hint(base: str, game: dict[str, Any], token: str) -> dict[str, Any]:
    r = httpx.get(
        f"{base}/api/games/{game['game_id']}/hint",
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return DOCS if SHOTS else tmp_path


def test_a_whole_deal_against_the_greedy_bot_by_clicks(
    context: BrowserContext, server: str, shots: Path
) -> None:
    page = context.new_page()
    game = start_game(page, server, "classic", "greedy", 7)
    token = page.evaluate("() => window.crapette.token")
    deadline = time.monotonic() + 300
    clicks = 0
    for _ in range(1500):
        assert time.monotonic() < deadline, "the deal took too long"
        if game["status"] != "playing":
            break
        assert game["your_turn"]
        chosen = hint(server, game, token)
        move = next(m for m in game["legal_moves"] if m["code"] == chosen["code"])
        click_move(page, game, move)
        clicks += 1
        game = wait_my_turn(page, game["version"])
        assert "Refused" not in page.inner_text("#message"), page.inner_text("#message")
        if clicks == 12:
            page.screenshot(path=str(shots / "web-table.png"))
    assert game["status"] in ("deal_over", "over"), "the deal did not end"
    assert game["outcome"] is not None
    assert "Deal over" in page.inner_text("#status")
    assert clicks > 10
    with page.expect_download() as download:
        page.click("#btn-record")
    record = parse_record(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record.headers["Result"] == game["outcome"]["text"]


def test_an_illegal_drop_is_refused_with_a_message(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    game = start_game(page, server, "classic", "greedy", 12)
    houses = game["view"]["houses"]
    legal = {(m.get("from"), m.get("to")) for m in game["legal_moves"]}
    pair = next(
        (f"H{i + 1}", f"H{j + 1}")
        for i in range(8)
        for j in range(8)
        if i != j and houses[i] and houses[j] and (f"H{i + 1}", f"H{j + 1}") not in legal
    )
    before = game["version"]
    top = houses[int(pair[0][1:]) - 1][-1]
    page.locator(f"#board .pile[data-pile='{pair[0]}'] [data-card='{top}']").dispatch_event("click")
    assert "selected" in (
        page.locator(f"#board .pile[data-pile='{pair[0]}']").get_attribute("class") or ""
    )
    click_pile(page, pair[1])
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('Refus')")
    assert "error" in (page.locator("#message").get_attribute("class") or "")
    assert pair[0] in page.inner_text("#message")
    assert game_of(page)["version"] == before


def test_drag_and_drop_plays_a_move(context: BrowserContext, server: str) -> None:
    page = context.new_page()
    game = start_game(page, server, "classic", "greedy", 5)
    for _ in range(50):  # find a position where a play move is offered
        plays = [m for m in game["legal_moves"] if m["action"] == "play" and m["count"] == 1]
        if plays:
            break
        click_move(page, game, game["legal_moves"][0])
        game = wait_change(page, game["version"])
        assert game["status"] == "playing"
    move = plays[0]
    source = page.locator(f"#board .pile[data-pile='{move['from']}'] > rect.hit")
    target_name = "F1" if move["to"] == "F" else move["to"]
    target = page.locator(f"#board .pile[data-pile='{target_name}'] > rect.hit")
    source.drag_to(target, force=True)
    after = wait_change(page, game["version"])
    assert f"You played {move['notation']}" in page.inner_text("#message")
    assert after["version"] > game["version"]


def test_invite_stop_decision_and_a_phone_sized_second_player(
    browser: Browser, context: BrowserContext, server: str, shots: Path
) -> None:
    host = context.new_page()
    start_game(host, server, "pagat", "human", 3)
    link = host.input_value("#invite-link")
    assert "invite=" in link
    phone = browser.new_context(viewport=PHONE)
    phone.set_default_timeout(WAIT_MS)
    try:
        guest = phone.new_page()
        guest.goto(link)
        guest.wait_for_function("() => window.crapette.game && window.crapette.game.svg")
        host.wait_for_function("() => window.crapette.game.status !== 'waiting'")
        assert "opponent joined" in host.inner_text("#message")  # not the invite prompt
        mine, theirs = game_of(host), game_of(guest)
        assert (mine["seat"], theirs["seat"]) == (0, 1)
        assert theirs["view"]["player"] == 1 and theirs["svg"] != mine["svg"]
        assert guest.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        box = guest.locator("#board svg").bounding_box()
        assert box is not None and box["width"] > 900
        tokens = {
            0: host.evaluate("() => window.crapette.token"),
            1: guest.evaluate("() => window.crapette.token"),
        }
        pages = {0: host, 1: guest}
        base = f"{server}/api/games/{mine['game_id']}"
        # play (over the API) until one side has a priority violation on offer, and make it
        offender = -1
        for _ in range(400):
            state = httpx.get(base, headers={"Authorization": f"Bearer {tokens[0]}"}).json()
            seat = state["to_act"]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            view = httpx.get(base, headers=auth).json()
            bad = [m for m in view["legal_moves"] if m.get("violation")]
            moves = bad or [m for m in view["legal_moves"] if m["action"] != "draw"]
            move = (moves or view["legal_moves"])[0]
            r = httpx.post(
                base + "/moves",
                headers=auth,
                json={"move": move["notation"], "version": view["version"]},
            )
            assert r.status_code == 200, r.text
            if bad:
                offender = seat
                break
        assert offender >= 0, "no violation came up"
        caller = pages[1 - offender]
        caller.wait_for_selector("#stop-dialog[open]")
        assert "Stop" in caller.inner_text("#stop-dialog")
        if offender == 1:
            host.screenshot(path=str(shots / "web-stop.png"))
        version = game_of(caller)["version"]
        caller.click("#btn-call-stop")
        after = wait_change(caller, version)
        assert after["view"]["stop"] is None
        assert "called Stop" in caller.inner_text("#message")
        assert after["your_turn"]  # the caller takes the turn
        offended = game_of(pages[offender])
        if offended["version"] == version:
            offended = wait_change(pages[offender], version)
        assert offended["version"] == after["version"] and not offended["your_turn"]
        guest.screenshot(path=str(shots / "web-phone.png"))
    finally:
        phone.close()


def test_a_handset_plays_by_taps(browser: Browser, server: str, shots: Path) -> None:
    """On a phone's own layout width (412 CSS pixels, touch): nothing overflows sideways,
    the table spans the width, and moves are made by taps."""
    handset = browser.new_context(**HANDSET)  # type: ignore[arg-type]
    handset.set_default_timeout(WAIT_MS)
    try:
        page = handset.new_page()
        game = start_game(page, server, "classic", "greedy", 9)
        token = page.evaluate("() => window.crapette.token")
        width = HANDSET["viewport"]["width"]  # type: ignore[index]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        box = page.locator("#board svg").bounding_box()
        assert box is not None and box["width"] > 0.85 * width
        for _ in range(6):
            chosen = hint(server, game, token)
            move = next(m for m in game["legal_moves"] if m["code"] == chosen["code"])
            seat = game["seat"]
            if move["action"] == "draw":
                taps = [f"K{seat}"]
            elif move["action"] == "discard":
                taps = ["T", f"W{seat}"]
            elif move["action"] == "play" and move["count"] == 1:
                taps = [move["from"], "F1" if move["to"] == "F" else move["to"]]
            else:
                break
            for name in taps:
                page.locator(f"#board .pile[data-pile='{name}'] > rect.hit").tap(force=True)
            game = wait_my_turn(page, game["version"])
            assert "Refused" not in page.inner_text("#message"), page.inner_text("#message")
            if game["status"] != "playing":
                break
        assert game["view"]["moves_made"] > 0
        page.screenshot(path=str(shots / "web-handset.png"))
    finally:
        handset.close()
