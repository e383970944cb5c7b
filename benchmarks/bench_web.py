"""Load check of the game server: many concurrent games against bots over loopback.

Starts ``crapette serve`` in a separate process (SQLite store in a temporary folder, its
connections bounded as in production). Every game is created first, so all of them are
open at once; then several client tasks share the moves: a task takes the next game in a
round robin, makes one move of its human seat (the server's hint, then the move, answered
after the greedy bot's reply) and puts the game back, until the deal ends or the seat has
made ``--max-moves`` moves (then it resigns). Some games are also followed over the
WebSocket, as the web page does (each update with the table as SVG). Every loop is bounded
in count and in time (``--time-limit``; games still open then are resigned).

Prints requests per second, p50/p99 latency per kind of request, the WebSocket updates
received and the errors (zero expected).

Run::

    python benchmarks/bench_web.py                      # 200 games, 8 client tasks
    python benchmarks/bench_web.py --games 20 --clients 4 --max-moves 20   # a smoke test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict, deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import websockets


def server_command(db: Path, port: int) -> list[str]:
    """``crapette serve`` on ``port`` with its games in ``db`` and room for every game."""
    return [
        sys.executable, "-m", "crapette", "serve", "--port", str(port), "--db", str(db),
        "--max-games", "100000", "--max-connections", "1024",
    ]  # fmt: skip


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Stats:
    """Latencies per kind of request, WebSocket updates and the errors seen."""

    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.updates = 0
        self.most_open = 0

    async def call(
        self, client: httpx.AsyncClient, kind: str, method: str, url: str, **kw: Any
    ) -> dict[str, Any] | None:
        """One request, timed; ``None`` (and an error recorded) unless it succeeded."""
        start = time.perf_counter()
        try:
            r = await client.request(method, url, **kw)
        except httpx.HTTPError as exc:
            self.errors.append(f"{kind}: {exc!r}")
            return None
        self.latency[kind].append(time.perf_counter() - start)
        if r.status_code >= 400:
            self.errors.append(f"{kind}: {r.status_code} {r.text[:200]}")
            return None
        data: dict[str, Any] = r.json()
        return data


class Game:
    """A game of the run, as its human seat's client knows it."""

    def __init__(self, url: str, token: str, state: dict[str, Any]) -> None:
        self.url = url
        self.headers = {"Authorization": f"Bearer {token}"}
        self.token = token
        self.state = state
        self.moves = 0


async def follow(base: str, game: Game, stats: Stats, stop: asyncio.Event) -> None:
    """Follow a game over the WebSocket until its deal ends or the run stops; every update
    must bring a newer version."""
    url = base.replace("http://", "ws://") + game.url + "/live"
    try:
        async with websockets.connect(url, max_size=2**22) as ws:
            await ws.send(json.dumps({"token": game.token, "svg": True}))
            version = -1
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except asyncio.TimeoutError:
                    continue
                message = json.loads(text)
                if message.get("type") != "update":
                    stats.errors.append(f"live: {str(message)[:200]}")
                    return
                data = message["game"]
                if data["version"] <= version:
                    stats.errors.append(f"live: version {data['version']} after {version}")
                version = data["version"]
                stats.updates += 1
                if data["status"] != "playing":
                    return
    except (OSError, websockets.WebSocketException) as exc:
        stats.errors.append(f"live: {exc!r}")


async def run(
    base: str, games: int, clients: int, max_moves: int, followers: int, time_limit: float
) -> tuple[Stats, float, int, int]:
    """Create ``games`` games, then play them with ``clients`` tasks; returns the stats,
    the wall time, the moves made and the deals that ended."""
    stats = Stats()
    start = time.perf_counter()
    deadline = time.monotonic() + time_limit
    limits = httpx.Limits(max_connections=2 * clients)
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        open_games: deque[Game] = deque()
        seeds = iter(range(games))
        totals = [0, 0]

        async def create() -> None:
            for seed in seeds:
                body = {"opponent": "greedy", "seed": seed}
                made = await stats.call(client, "create", "POST", "/api/games", json=body)
                if made is None:
                    continue
                url = f"/api/games/{made['game_id']}"
                auth = {"Authorization": f"Bearer {made['token']}"}
                state = await stats.call(client, "get", "GET", url, headers=auth)
                if state is not None:
                    open_games.append(Game(url, made["token"], state))

        await asyncio.gather(*(create() for _ in range(clients)))
        stats.most_open = len(open_games)
        watchers = [
            asyncio.ensure_future(follow(base, game, stats, stop))
            for game in list(open_games)[:followers]
        ]

        async def player() -> None:
            while open_games and time.monotonic() < deadline:
                game = open_games.popleft()
                hint = await stats.call(client, "hint", "GET", game.url + "/hint", **_auth(game))
                state = None
                if hint is not None:
                    body = {"move": hint["notation"], "version": game.state["version"]}
                    state = await stats.call(
                        client, "move", "POST", game.url + "/moves", json=body, **_auth(game)
                    )
                if state is None:
                    continue  # an error: the game is dropped (and counted)
                game.state = state
                game.moves += 1
                totals[0] += 1
                if state["status"] != "playing":
                    totals[1] += 1
                elif game.moves >= max_moves:
                    await stats.call(client, "resign", "POST", game.url + "/resign", **_auth(game))
                else:
                    open_games.append(game)

        await asyncio.gather(*(player() for _ in range(clients)))
        for game in open_games:  # the time limit came: resign what is left
            await stats.call(client, "resign", "POST", game.url + "/resign", **_auth(game))
        stop.set()
        await asyncio.gather(*watchers)
    return stats, time.perf_counter() - start, totals[0], totals[1]


def _auth(game: Game) -> dict[str, Any]:
    return {"headers": game.headers}


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main(argv: Sequence[str] | None = None) -> int:
    """Start the server, run the load, print the figures; 1 if there were errors."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games, all open at once")
    parser.add_argument("--clients", type=int, default=8, help="client tasks making moves")
    parser.add_argument("--max-moves", type=int, default=1000, help="human moves per game")
    parser.add_argument("--followers", type=int, default=20, help="games followed live")
    parser.add_argument("--time-limit", type=float, default=900.0, help="seconds of moves")
    args = parser.parse_args(argv)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite3"
        server = subprocess.Popen(server_command(db, port), stdout=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(base + "/api/presets", timeout=2).raise_for_status()
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            stats, wall, moves, ended = asyncio.run(
                run(base, args.games, args.clients, args.max_moves, args.followers, args.time_limit)
            )
        finally:
            server.terminate()
            server.wait(20)
    every = [x for values in stats.latency.values() for x in values]
    print(
        f"{args.games} games against the greedy bot, all open at once ({stats.most_open}"
        f" created), {args.clients} client tasks, {args.followers} followed over the"
        " WebSocket; server and clients on one machine (loopback)"
    )
    print(f"  human moves made: {moves}; deals played to the end: {ended}")
    print(f"  requests: {len(every)} in {wall:.1f} s = {len(every) / wall:.0f} requests/s")
    print(
        f"  latency all: p50 {percentile(every, 0.5) * 1000:.1f} ms,"
        f" p99 {percentile(every, 0.99) * 1000:.1f} ms"
    )
    for kind, values in sorted(stats.latency.items()):
        print(
            f"    {kind:7} n={len(values):6}  p50 {percentile(values, 0.5) * 1000:6.1f} ms"
            f"  p99 {percentile(values, 0.99) * 1000:6.1f} ms"
        )
    print(f"  WebSocket updates received: {stats.updates}")
    print(f"  errors: {len(stats.errors)}")
    for error in stats.errors[:10]:
        print(f"    {error}")
    return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
