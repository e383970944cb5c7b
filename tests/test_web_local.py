"""The serverless page's backend (``src/crapette/web/static/local.js``, issue 21) against the
core session ``crapette.session.Session`` (the game server's ``Game`` is one): the same
game, action by action, over today's presets and the tarot packs with Bobcrapette's table
rules (flips, calls at the start of a turn, the Knight and the trumps).

``tests/web_local_driver.mjs`` plays a game on the local backend in Node (a seeded policy
picks moves, the hint's move, undo, the next deal of a match, resigning) and writes out each
action with the payloads it produced. Here the same actions are replayed on a ``Session``
with the same seats, created from the same chosen seed (and so with the same bot key: the
bots play the same moves), and every payload, every live update, every hint, every deal
record and every refusal must be the session's (a refusal's HTTP status the server's),
except the fields the local backend leaves out on purpose (the English ``description`` of a
move; the game id is its own).

Skipped without ``node`` unless ``CI`` is set (CI installs it: ``.ci/run``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from crapette import Ruleset
from crapette.errors import SessionError
from crapette.records import format_record
from crapette.session import Seat, Session, chosen_secret

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "tests" / "web_local_driver.mjs"
NODE = shutil.which("node")
if NODE is None:
    if os.environ.get("CI"):
        pytest.fail("node is missing (CI must install it)", pytrace=False)
    pytest.skip("node is not installed (Debian: apt-get install nodejs)", allow_module_level=True)

SCENARIOS = [
    {"rules": "classic", "seed": "501", "opponent": "greedy", "seat": 0, "policy": 1},
    {"rules": "classic", "seed": "9007199254740993", "opponent": "random", "seat": 1, "policy": 2},
    {"rules": "pagat", "seed": "77", "opponent": "greedy", "seat": 0, "policy": 3},
    {"rules": "g4a", "seed": "12", "opponent": "greedy", "seat": 1, "policy": 4},
    {"rules": "belarusian", "seed": "4242", "opponent": "greedy", "seat": 0, "policy": 5},
    {"rules": "serbian", "seed": "31337", "opponent": "greedy", "seat": 0, "policy": 6},
    {
        "rules": "serbian",
        "seed": "8",
        "opponent": "random",
        "seat": 1,
        "policy": 7,
        "resign": True,
        "steps": 15,
    },
    {
        "rules": "classic(match_starter=alternate,reserve_size=4)",
        "seed": "2",
        "opponent": "greedy",
        "seat": 0,
        "policy": 8,
        "match": {"target": None, "deals": 3},
    },
    {
        "rules": "pagat(group_moves=whole,house_filling=immediate)",
        "seed": "5",
        "opponent": "greedy",
        "seat": 1,
        "policy": 9,
        "match": {"target": 40, "deals": None},
    },
    # the tarot packs and Bobcrapette's table rules: flips, calls at turn start (false calls
    # included), the Knight and the trumps on the table
    {"rules": "bobcrapette", "seed": "61", "opponent": "greedy", "seat": 0, "policy": 10},
    {
        "rules": "bobcrapette(pack=tarot78,false_call=rationed)",
        "seed": "62",
        "opponent": "greedy",
        "seat": 1,
        "policy": 11,
    },
    {"rules": "tarot(stop=undo)", "seed": "63", "opponent": "greedy", "seat": 0, "policy": 12},
]


def drive(scenario: dict[str, Any]) -> dict[str, Any]:
    """The local backend's game of a scenario, as the driver writes it."""
    spec = {"match": None, "steps": 400, "resign": False, **scenario}
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(DRIVER), json.dumps(spec)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def plain(payload: dict[str, Any]) -> dict[str, Any]:
    """A payload without what the local backend leaves out (descriptions) or names its own
    way (the game id)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "description"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    out: dict[str, Any] = strip(payload)
    out.pop("game_id", None)
    return out


def refusal(action: Any) -> dict[str, Any] | None:
    """A refusal as the page reports it: the session's code and message, with the status
    the server answers it with (docs/web.md: 422 for a bad or illegal move, else 409)."""
    try:
        action()
    except SessionError as exc:
        status = 422 if exc.code in ("bad_move", "illegal_move") else 409
        return {"code": exc.code, "status": status, "message": exc.message, "reason": exc.reason}
    return None


def same_refusal(local: dict[str, Any] | None, server: dict[str, Any] | None) -> None:
    """The local backend refuses as the server does: the same code, status and rules'
    reason (code and parameters), and the same message, except for a text that is no move
    at all (``bad_move``), whose message is the JavaScript package's own."""
    assert local is not None and server is not None
    if server["code"] == "bad_move":
        local, server = dict(local), dict(server)
        del local["message"], server["message"]
    assert local == server


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: f"{s['rules']}-{s['seed']}")
def test_the_local_backend_plays_the_servers_game(scenario: dict[str, Any]) -> None:
    local = drive(scenario)
    rules = Ruleset.from_string(scenario["rules"])
    match = scenario.get("match")
    if match is not None:
        rules = rules.replace(match_target=match["target"], match_deals=match["deals"])
    else:
        rules = rules.replace(match_target=None, match_deals=1)
    seed = int(scenario["seed"])
    seat = scenario["seat"]
    moved: dict[int, dict[str, Any]] = {}
    seats = [Seat("human", "human"), Seat("bot", scenario["opponent"])]
    if seat == 1:
        seats.reverse()
    game = Session.new(rules, seed=seed, seats=seats, id="g", secret=chosen_secret(seed))
    game.on_move = lambda *_: moved.__setitem__(game.version, plain(game.payload(seat)))
    game.run_bots()
    moved.clear()  # (the page's create sends no update: its answer is the payload)

    steps = local["steps"]
    assert steps[0]["action"] == ["create"]
    assert steps[0]["payload"] == plain(game.payload(seat)) | {
        "game_id": local["created"]["game_id"]
    }
    assert local["created"]["seat"] == seat and local["created"]["invite"] is None

    version = game.version
    refused = local["refused"]
    assert refused["stale"] == refusal(
        lambda: game.play(seat, text="draw", code=None, version=version + 5)
    )
    for name, text in (
        ("illegal", "W-F"),
        ("houses", "H1-H2"),
        ("foundation", "H3-F"),
        ("end", "end"),
        ("nonsense", "zz"),
    ):
        server = refusal(lambda text=text: game.play(seat, text=text, code=None, version=version))
        same_refusal(refused[name], server)
    assert refused["stale"]["code"] == "stale_version"
    assert refused["illegal"]["code"] == "illegal_move"
    assert refused["illegal"]["reason"]["code"] in ("waste_closed", "no_card", "foundation")
    assert refused["nonsense"]["code"] == "bad_move" and refused["nonsense"]["reason"] is None
    assert game.version == version

    kinds: set[str] = set()
    for step in steps[1:]:
        action = step["action"]
        kinds.add(
            action[0]
            if action[0] != "move"
            else action[1]
            if action[1] in ("stop", "pass")
            else "move"
        )
        if step.get("hint") is not None:
            assert step["hint"]["notation"] == str(game.quick_hint(seat)), action
        moved.clear()
        if action[0] == "move":
            game.play(seat, text=action[1], code=None, version=action[2])
        elif action[0] == "undo":
            game.take_back(seat, action[1])
        elif action[0] == "next":
            game.next_deal(seat, action[1])
        else:
            assert action[0] == "resign"
            game.resign(seat)
        assert plain(step["payload"]) == plain(game.payload(seat)), action
        for update in step["updates"]:  # the live updates of each move, in order
            if update["version"] in moved:
                assert plain(update) == moved[update["version"]], (action, update["version"])
        assert [u["version"] for u in step["updates"]] == sorted(
            {u["version"] for u in step["updates"]}
        )
        if step.get("record") is not None:
            assert step["record"] == format_record(game.record())
    assert plain(local["resumed"]) == plain(local["final"])  # a reload replays the game
    assert "move" in kinds


def test_the_scenarios_reach_every_kind_of_action() -> None:
    """Undo, the next deal of a match, Stop! decisions and resigning all happen somewhere
    in the scenarios above (else their comparison would test nothing)."""
    seen: set[str] = set()
    statuses: set[str] = set()
    turn_start_calls = 0
    for scenario in SCENARIOS:
        turn_start = Ruleset.from_string(scenario["rules"]).call_window == "turn_start"
        for step in drive(scenario)["steps"]:
            action = step["action"]
            special = action[0] == "move" and action[1] in ("stop", "pass", "flip")
            seen.add(action[1] if special else action[0])
            turn_start_calls += turn_start and action[:2] == ["move", "stop"]
            statuses.add(step["payload"]["status"])
    assert {"create", "move", "undo", "next", "resign", "flip"} <= seen
    assert seen & {"stop", "pass"}
    assert turn_start_calls  # a call at the start of a turn (call_window=turn_start)
    assert {"playing", "deal_over", "over"} <= statuses


def test_the_built_page_is_self_contained(tmp_path: Path) -> None:
    """``js/build_page.py`` writes a folder that needs nothing outside it: the page marked
    for the local backend, relative paths only, and every module a script imports present."""
    import importlib.util
    import re

    spec = importlib.util.spec_from_file_location("build_page", ROOT / "js" / "build_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "game"
    files = module.build(out)
    html = (out / "index.html").read_text(encoding="utf-8")
    assert '<html data-backend="local"' in html and "/static/" not in html
    assert (out / "static" / "crapette" / "crapette.wasm").read_bytes()[:4] == b"\0asm"
    imported = 0
    for path in files:
        if path.suffix != ".js":
            continue
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"""(?:from|import)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""", text):
            assert (path.parent / target).resolve().is_file(), (path, target)
            imported += 1
        assert 'fetch("/' not in text and "fetch(`/" not in text, path
    assert imported > 30
    with pytest.raises(SystemExit):
        module.page_html("<html><body></body></html>", "../")
