"""The figures of issue 25's "Done when", measured against a real ``crapette serve``.

Starts ``python -m crapette serve`` (SQLite file in a temporary folder) for each probe and
prints one line per figure:

1. RSS growth over 20,000 GETs of unknown game ids (target: at most 3 MiB);
2. RSS growth over 2,000 games created and resigned under ``--max-games 20`` (at most
   6 MiB), and whether the first of them is still readable by its player;
3. a save that fails (another process holds the database's write lock): the answer's
   status and error code, whether the next GET shows the game as stored, and, after the
   lock is released and one more move is made, the human moves stored against those
   acknowledged;
4. reads during a failing expiry sweep (the sweep is due at a fresh server's first
   request; the lock is held): how many of 10 GETs answer 200;
5. random-bot choices of a finished server game predicted from the seed shown after the
   match (the old server's formula, and a bot kept for the deal seeded from it);
6. 300 half-sent requests under a 256-descriptor limit, then a normal request: its answer
   and how long it took.

Every probe is bounded in count and time. ``--src DIR`` runs another checkout's
``src`` (for the figures before a change)::

    python benchmarks/probe_web.py
    git archive OLD src | tar -x -C /tmp/old && python benchmarks/probe_web.py --src /tmp/old/src
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

MiB = 2**20

FRESH = httpx.Limits(max_keepalive_connections=0)
"""A connection per request (a server that fails with a 500 may close its connection)."""


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A ``crapette serve`` process on a free loopback port."""

    def __init__(self, db: Path, src: str | None, *args: str, files: int | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        command = [sys.executable, "-m", "crapette", "serve", "--port", str(self.port)]
        command += ["--db", str(db), "--allow-seeds", *args]

        def limit() -> None:
            if files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.process = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=limit,
            start_new_session=True,
        )
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("crapette serve did not start")

    def rss(self) -> int:
        """Resident memory in bytes."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise SystemExit("no VmRSS")

    def stop(self) -> None:
        """``kill -9``, then wait."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


@contextmanager
def serving(db: Path, src: str | None, *args: str, files: int | None = None) -> Iterator[Server]:
    server = Server(db, src, *args, files=files)
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def locked(db: Path) -> Iterator[None]:
    """Another process holds the database's write lock meanwhile."""
    code = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None);"
        " c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.read()"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"locked"
        yield
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def stored_moves(db: Path, game_id: str) -> list[Any]:
    with sqlite3.connect(db) as conn:
        (data,) = conn.execute("SELECT data FROM games WHERE id = ?", (game_id,)).fetchone()
    moves: list[Any] = json.loads(data)["moves"]
    return moves


def probe_unknown(folder: Path, src: str | None, count: int) -> str:
    with serving(folder / "a.sqlite3", src) as server, httpx.Client(timeout=30) as client:
        headers = auth("x" * 43)
        for i in range(500):
            client.get(f"{server.url}/api/games/warm{i}", headers=headers)
        before = server.rss()
        for _ in range(count):
            client.get(f"{server.url}/api/games/{os.urandom(9).hex()}", headers=headers)
        grown = server.rss() - before
    return f"{count:,} GETs of unknown ids: RSS +{grown / MiB:.1f} MiB"


def probe_finished(folder: Path, src: str | None, count: int) -> str:
    with (
        serving(folder / "b.sqlite3", src, "--max-games", "20") as server,
        httpx.Client(timeout=30) as client,
    ):
        refused = 0

        def one() -> tuple[str, str] | None:
            nonlocal refused
            r = client.post(f"{server.url}/api/games", json={"opponent": "greedy"})
            if r.status_code != 201:
                refused += 1
                return None
            game_id, token = r.json()["game_id"], r.json()["token"]
            client.post(f"{server.url}/api/games/{game_id}/resign", headers=auth(token))
            return game_id, token

        first = one()
        before = server.rss()
        for _ in range(count - 1):
            one()
        grown = server.rss() - before
        readable = "no game"
        if first is not None:
            r = client.get(f"{server.url}/api/games/{first[0]}", headers=auth(first[1]))
            readable = f"{r.status_code}"
    return (
        f"{count:,} games created and resigned under --max-games 20: RSS +{grown / MiB:.1f}"
        f" MiB, {refused} refused; the first read by its player: {readable}"
    )


def probe_failed_save(folder: Path, src: str | None) -> str:
    db = folder / "c.sqlite3"
    with serving(db, src) as server, httpx.Client(timeout=60, limits=FRESH) as client:
        r = client.post(f"{server.url}/api/games", json={"seed": 5, "opponent": "greedy"})
        game_id, token = r.json()["game_id"], r.json()["token"]
        base = f"{server.url}/api/games/{game_id}"
        client.headers.update(auth(token))
        acknowledged = []
        data = client.get(base).json()
        seat = data["seat"]
        with locked(db):
            move = client.get(base + "/hint").json()["notation"]
            r = client.post(base + "/moves", json={"move": move, "version": data["version"]})
            failed = r.status_code
            try:
                code = r.json()["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = r.text[:40]
            after = client.get(base).json()
            as_stored = after["version"] == data["version"]
        if r.status_code == 200:
            acknowledged.append(move)
        data = client.get(base).json()
        move = client.get(base + "/hint").json()["notation"]
        r = client.post(base + "/moves", json={"move": move, "version": data["version"]})
        if r.status_code == 200:
            acknowledged.append(move)
    stored = [t for s, t, _ in stored_moves(db, game_id) if s == seat]
    return (
        f"a failed save answers {failed} {code}; the next GET shows the game as stored:"
        f" {as_stored}; after recovery {len(stored)} human moves stored,"
        f" {len(acknowledged)} acknowledged"
    )


def probe_sweep(folder: Path, src: str | None, reads: int) -> str:
    db = folder / "d.sqlite3"
    with serving(db, src) as server:
        r = httpx.post(f"{server.url}/api/games", json={"seed": 6, "opponent": "greedy"})
        game_id, token = r.json()["game_id"], r.json()["token"]
    with locked(db), serving(db, src) as server, httpx.Client(timeout=60, limits=FRESH) as client:
        ok = 0
        start = time.monotonic()
        for _ in range(reads):
            r = client.get(f"{server.url}/api/games/{game_id}", headers=auth(token))
            ok += r.status_code == 200
        took = time.monotonic() - start
    return f"reads during a failing sweep: {ok} of {reads} answer 200 ({took:.1f} s)"


def probe_prediction(folder: Path, src: str | None) -> str:
    sys.path.insert(0, src) if src else None
    from crapette import observe
    from crapette.bots import RandomBot
    from crapette.records import parse_record

    hits = {"old formula": 0, "kept, match seed": 0, "kept, low 32 bits": 0}
    choices = 0
    chance = 0.0
    with serving(folder / "e.sqlite3", src) as server, httpx.Client(timeout=60) as client:
        for _ in range(3):  # dealt from seeds the server draws
            r = client.post(f"{server.url}/api/games", json={"opponent": "random"})
            game_id, token = r.json()["game_id"], r.json()["token"]
            client.headers.update(auth(token))
            base = f"{server.url}/api/games/{game_id}"
            data = client.get(base).json()
            for _ in range(3000):
                if data["status"] != "playing":
                    break
                move = client.get(base + "/hint").json()["notation"]
                data = client.post(
                    base + "/moves", json={"move": move, "version": data["version"]}
                ).json()
            shown = int(data["match"]["seed"])
            record = parse_record(client.get(base + "/record").text)
            bot = 1 - data["seat"]
            kept = {
                "kept, match seed": RandomBot(shown),
                "kept, low 32 bits": RandomBot(shown & 0xFFFFFFFF),
            }
            before = None
            for state, move in record.replay():
                if before is not None and move is not None and before.to_act == bot:
                    view = observe(before, bot)
                    n = len(view.legal_moves())
                    guesses = {
                        "old formula": RandomBot(
                            (shown + 7919 * before.moves_made) & 0xFFFFFFFF
                        ).choose(view),
                        **{name: b.choose(view) for name, b in kept.items()},
                    }
                    if n > 1:
                        choices += 1
                        chance += 1 / n
                        for name, guess in guesses.items():
                            hits[name] += guess == move
                before = state
    shown_hits = ", ".join(f"{name} {hits[name]}" for name in hits)
    return (
        f"random-bot choices predicted from the seed shown after the match: {shown_hits} of"
        f" {choices} (chance alone: {chance:.0f})"
    )


def probe_slow(folder: Path, src: str | None) -> str:
    with serving(folder / "f.sqlite3", src, files=256) as server:
        held = []
        for _ in range(300):
            try:
                s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
                s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\n")
                held.append(s)
            except OSError:
                break
        time.sleep(0.5)
        start = time.monotonic()
        answer = b"no answer"
        while time.monotonic() - start < 30:
            try:
                with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
                    s.settimeout(5)
                    s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    line = s.recv(100).split(b"\r\n", 1)[0]
                    if line:
                        answer = line
                        if b" 200 " in line:
                            break
            except OSError as exc:
                answer = repr(exc).encode()
            time.sleep(0.5)
        took = time.monotonic() - start
        for s in held:
            s.close()
    return (
        f"300 half-sent requests under 256 descriptors, then a normal one: {answer.decode()}"
        f" after {took:.1f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the probes and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", help="run crapette from this src folder (another checkout)")
    parser.add_argument("--unknown", type=int, default=20_000)
    parser.add_argument("--finished", type=int, default=2_000)
    parser.add_argument("--reads", type=int, default=10)
    parser.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="probes to run: unknown finished save sweep predict slow",
    )
    args = parser.parse_args(argv)
    probes = {
        "unknown": lambda f: probe_unknown(f, args.src, args.unknown),
        "finished": lambda f: probe_finished(f, args.src, args.finished),
        "save": lambda f: probe_failed_save(f, args.src),
        "sweep": lambda f: probe_sweep(f, args.src, args.reads),
        "predict": lambda f: probe_prediction(f, args.src),
        "slow": lambda f: probe_slow(f, args.src),
    }
    with tempfile.TemporaryDirectory() as folder:
        for name, probe in probes.items():
            if args.only is None or name in args.only:
                try:
                    line = probe(Path(folder))
                except (httpx.HTTPError, ValueError, KeyError) as exc:  # the server broke
                    line = f"failed: {exc!r}"
                print(f"{name}: {line}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
