"""How often one request to the game server computes the outcome of a deal (issue 28, item 6).

    python benchmarks/bench_session.py [--games 6] [--moves 60]

Plays games against the greedy bot through the HTTP API (in process, a FastAPI
``TestClient`` on an in-memory store), the human choosing its moves with a seeded policy,
and counts the calls of the rules core's ``outcome`` (every module that holds it by name is
counted) made by each request. Prints, for ``POST /moves`` (the move and the bots' replies,
then the seat's payload) and ``GET /api/games/{id}`` (the payload):

* the calls per request (mean and largest);
* the calls per new state (a request that plays ``k`` moves makes ``k`` new states: the
  least a server can do is one call per state, to know whether the deal ended);
* the mean time of each kind of request, in process (the bots' moves included: a figure
  to compare between checkouts on one machine, not a server's latency).

``--src DIR`` runs another checkout's ``src`` (for the figures before a change)::

    git archive main src | tar -x -C /tmp/old && cp src/crapette/_core*.so /tmp/old/src/crapette/
    python benchmarks/bench_session.py --src /tmp/old/src
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Play, count and print; returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--moves", type=int, default=60, help="human moves per game at most")
    parser.add_argument("--src", help="import crapette from this folder")
    args = parser.parse_args(argv)
    if args.src:
        sys.path.insert(0, args.src)

    from fastapi.testclient import TestClient

    import crapette
    from crapette.deal import Rng
    from crapette.web import MemoryStore, create_app

    original = sys.modules["crapette.outcome"].outcome
    calls = [0]

    def counted(state: crapette.GameState) -> crapette.Outcome | None:
        calls[0] += 1
        return original(state)

    holders = [
        module
        for name, module in sys.modules.items()
        if name.startswith("crapette") and getattr(module, "outcome", None) is original
    ]
    for module in holders:
        module.outcome = counted  # type: ignore[attr-defined]

    posts: list[tuple[int, int]] = []  # (calls, new states)
    gets: list[int] = []
    post_time = get_time = 0.0
    with TestClient(create_app(MemoryStore(), allow_seeds=True)) as client:
        for game in range(args.games):
            made = client.post(
                "/api/games", json={"rules": "classic", "seed": 100 + game, "opponent": "greedy"}
            ).json()
            headers = {"Authorization": f"Bearer {made['token']}"}
            url = f"/api/games/{made['game_id']}"
            rng = Rng(game)
            for _ in range(args.moves):
                calls[0] = 0
                began = time.perf_counter()
                data = client.get(url, headers=headers).json()
                get_time += time.perf_counter() - began
                gets.append(calls[0])
                if not data["legal_moves"]:
                    break
                moves = data["legal_moves"]
                move = moves[rng.below(len(moves))]["notation"]
                before = data["version"]
                body = {"move": move, "version": before}
                calls[0] = 0
                began = time.perf_counter()
                after = client.post(f"{url}/moves", json=body, headers=headers)
                post_time += time.perf_counter() - began
                posts.append((calls[0], after.json()["version"] - before))
                assert after.status_code == 200, after.text

    total = sum(n for n, _ in posts)
    states = sum(k for _, k in posts)
    print(f"requests: {len(posts)} POST /moves, {len(gets)} GET")
    print(
        f"POST /moves: outcome computed {total / len(posts):.1f} times a request on average,"
        f" at most {max(n for n, _ in posts)}; {total / states:.2f} times per new state"
        f" ({states} states)"
    )
    alone = [n for n, k in posts if k == 1]
    if alone:
        print(
            f"POST /moves with no bot reply: {sum(alone) / len(alone):.1f} on average,"
            f" at most {max(alone)} ({len(alone)} requests)"
        )
    print(f"GET /api/games/{{id}}: {sum(gets) / len(gets):.1f} on average, at most {max(gets)}")
    print(
        f"time: POST /moves {1000 * post_time / len(posts):.2f} ms,"
        f" GET {1000 * get_time / len(gets):.2f} ms (mean, in process)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
