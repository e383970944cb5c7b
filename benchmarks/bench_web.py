"""Load check of the game server: many concurrent games against bots over loopback.

Starts ``crapette.web`` under uvicorn in a separate process (SQLite store in a temporary
folder, as ``crapette serve`` runs it), then several client tasks share the games: each
game is created against the greedy bot and played by its human seat (the server's hint,
then the move) until the deal ends or the seat has made ``--max-moves`` moves, when it
resigns. Prints requests per second, p50/p99 latency per kind of request and the errors
(zero expected).

Run::

    python benchmarks/bench_web.py                      # 200 games, 8 client tasks
    python benchmarks/bench_web.py --games 20 --clients 4 --max-moves 20   # a smoke test
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx

SERVER = """
import sys, uvicorn
from crapette.web import create_app, SQLiteStore
app = create_app(SQLiteStore(sys.argv[1]), max_open_games=100_000)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Stats:
    """Latencies per kind of request and the errors seen."""

    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []

    async def call(
        self, client: httpx.AsyncClient, kind: str, method: str, url: str, **kw: object
    ) -> dict[str, object] | None:
        """One request, timed; ``None`` (and an error recorded) unless it succeeded."""
        start = time.perf_counter()
        try:
            r = await client.request(method, url, **kw)  # type: ignore[arg-type]
        except httpx.HTTPError as exc:
            self.errors.append(f"{kind}: {exc!r}")
            return None
        self.latency[kind].append(time.perf_counter() - start)
        if r.status_code >= 400:
            self.errors.append(f"{kind}: {r.status_code} {r.text[:200]}")
            return None
        data: dict[str, object] = r.json()
        return data


async def play_game(
    client: httpx.AsyncClient, stats: Stats, seed: int, max_moves: int
) -> tuple[int, bool]:
    """Create a game against the greedy bot and play it; returns (moves made, deal ended)."""
    made = await stats.call(
        client, "create", "POST", "/api/games", json={"opponent": "greedy", "seed": seed}
    )
    if made is None:
        return 0, False
    url = f"/api/games/{made['game_id']}"
    headers = {"Authorization": f"Bearer {made['token']}"}
    game = await stats.call(client, "get", "GET", url, headers=headers)
    moves = 0
    while game is not None and game["status"] == "playing" and moves < max_moves:
        hint = await stats.call(client, "hint", "GET", url + "/hint", headers=headers)
        if hint is None:
            return moves, False
        body = {"move": hint["notation"], "version": game["version"]}
        game = await stats.call(client, "move", "POST", url + "/moves", headers=headers, json=body)
        moves += 1
    ended = game is not None and game["status"] != "playing"
    if not ended:
        await stats.call(client, "resign", "POST", url + "/resign", headers=headers)
    return moves, ended


async def run(base: str, games: int, clients: int, max_moves: int) -> tuple[Stats, float, int, int]:
    """Play ``games`` games with ``clients`` tasks; returns the stats, the wall time, the
    moves made and the deals that ended."""
    stats = Stats()
    queue: asyncio.Queue[int] = asyncio.Queue()
    for seed in range(games):
        queue.put_nowait(seed)
    totals = [0, 0]

    async def worker() -> None:
        limits = httpx.Limits(max_connections=2)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
            while not queue.empty():
                seed = queue.get_nowait()
                moves, ended = await play_game(client, stats, seed, max_moves)
                totals[0] += moves
                totals[1] += ended

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    return stats, time.perf_counter() - start, totals[0], totals[1]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main() -> None:
    """Start the server, run the load, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--max-moves", type=int, default=1000, help="human moves per game")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite3"
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port)])
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
                run(base, args.games, args.clients, args.max_moves)
            )
        finally:
            server.terminate()
            server.wait(20)
    every = [x for values in stats.latency.values() for x in values]
    print(
        f"{args.games} games against the greedy bot, {args.clients} client tasks,"
        f" server and clients on one machine (loopback)"
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
    print(f"  errors: {len(stats.errors)}")
    for error in stats.errors[:10]:
        print(f"    {error}")


if __name__ == "__main__":
    main()
