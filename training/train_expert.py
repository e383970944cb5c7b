"""Train the expert's value model (``src/crapette/bots/expert_model.json``) by self-play.

The value model turns the value ``v`` of a greedy play-out (the opponent's count minus the
player's ``turns`` turns later, plus or minus 100 for a deal won or lost on the way) into a
win probability ``1 / (1 + exp(-(a + b v)))`` and expected deal points ``c + d v``
(``crapette.bots.value``). This script fits ``a``, ``b``, ``c`` and ``d`` on what they are
used for: at positions of self-play deals, the best line's value is the mean over samples
of the hidden cards, and the fit makes that mean predict how the deal actually ended.

Three steps, each writing a file the next one reads (JSON lines)::

    python training/train_expert.py selfplay --deals 300 --seed 7001 --out selfplay.jsonl
    python training/train_expert.py positions --records selfplay.jsonl --out positions.jsonl
    python training/train_expert.py fit --positions positions.jsonl \\
        --out src/crapette/bots/expert_model.json

1. ``selfplay`` plays seat-swapped deals between two bots (``--bots``, the expert at a
   budget of 1,024 by default: cheaper than its default and close in play) and writes each
   deal's record.
2. ``positions`` replays the records and, at every ``--every``-th decision with a choice
   (both players), finds the best line from the mover's view with the current model (the
   expert's lines and scoring, ``--rollouts`` play-outs) and then plays that line on
   ``--samples`` fresh samples of the hidden cards, writing the raw play-out values with the
   deal's outcome for the mover (won, lost or undecided, and the score margin).
3. ``fit`` maximizes the likelihood of the outcomes, each position's predicted win
   probability being the mean of the logistic over its samples (a sample that won or lost
   the deal counts 1 or 0), and fits the points by least squares the same way; it prints
   the calibration of the fit and writes the model.

The seeds of the shipped model are recorded in its ``trained`` field; the benchmarks and
the strength measurements of docs/bots.md use other seeds. It needs numpy and scipy.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterator
from typing import Any

import crapette as c
from crapette._engine import apply_unchecked
from crapette.analysis import Limit, analyse
from crapette.bots import get_bot, play_deal
from crapette.bots._greedy import play_out
from crapette.bots.expert import deep_play_out
from crapette.bots.planner import HandMemory
from crapette.bots.value import Sampler, load_model
from crapette.deal import Rng
from crapette.match import deal_seed
from crapette.records import GameRecord
from crapette.views import observe

WIN = 100


def selfplay(args: argparse.Namespace) -> None:
    """Play the deals and write their records, one JSON line each."""
    a, b = args.bots.split(",")
    rules = c.Ruleset.from_string(args.rules)
    with open(args.out, "a", encoding="utf-8") as out:
        for deal in range(args.start, args.start + args.deals):
            seed = deal_seed(args.seed, deal // 2)
            seat = deal % 2
            bots = {seat: get_bot(a, seed ^ 0xA), 1 - seat: get_bot(b, seed ^ 0xB)}
            start = c.new_game(rules, seed=seed)
            moves: list[c.Move] = []
            t0 = time.process_time()
            play_deal(
                start,
                (bots[0], bots[1]),
                on_move=lambda before, move, after, moves=moves: moves.append(move),
            )
            record = GameRecord.from_moves(
                start, moves, {"Seed": str(seed), "Player0": bots[0].name, "Player1": bots[1].name}
            )
            out.write(json.dumps(record.to_dict()) + "\n")
            out.flush()
            print(
                f"deal {deal}: {record.headers['Result']} in {len(moves)} moves,"
                f" {time.process_time() - t0:.1f} s",
                file=sys.stderr,
                flush=True,
            )


def _positions(record: GameRecord, every: int) -> Iterator[tuple[c.GameState, HandMemory]]:
    """Every ``every``-th decision with a choice, with the mover's hand memory."""
    memories = (HandMemory(), HandMemory())
    count = 0
    for state, _ in record.replay():
        for p in (0, 1):
            memories[p].see(observe(state, p))
        if len(c.legal_moves(state)) < 2 or state.stop is not None:
            continue
        count += 1
        if count % every == 0:
            yield state, memories[state.to_act]


def positions(args: argparse.Namespace) -> None:
    """Write the raw play-out values of the best line at positions of the records."""
    model = load_model()
    with (
        open(args.records, encoding="utf-8") as lines,
        open(args.out, "a", encoding="utf-8") as out,
    ):
        for number, text in enumerate(lines):
            record = GameRecord.from_dict(json.loads(text))
            final = record.final_state()
            result = c.outcome(final)
            assert result is not None
            for state, memory in _positions(record, args.every):
                p = state.to_act
                view = observe(state, p)
                seed = args.seed + number * 100_003 + state.moves_made
                found = analyse(view, Limit(rollouts=args.rollouts), seed=seed, memory=memory)
                best = found.best
                assert best is not None
                rng = Rng(seed ^ 0x5A5A)
                draw = Sampler(view, memory)
                values = []
                if found.exact:
                    values = [WIN + int(best.points) - state.rules.win_bonus]
                else:
                    for _ in range(args.samples):
                        sample = draw(rng)
                        for m in best.moves:
                            sample = apply_unchecked(sample, m)
                        v, _, _ = play_out(sample, p, Rng(rng.next64()), model.turns)
                        values.append(v)
                deep = []
                if found.exact:
                    deep = list(values)
                else:
                    for _ in range(args.deep):
                        sample = draw(rng)
                        for m in best.moves:
                            sample = apply_unchecked(sample, m)
                        deep.append(deep_play_out(sample, p, Rng(rng.next64())))
                won = None if result.winner is None else int(result.winner == p)
                row = {
                    "deal": number,
                    "move": state.moves_made,
                    "won": won,
                    "margin": result.scores[p] - result.scores[1 - p],
                    "win_bonus": state.rules.win_bonus,
                    "values": values,
                    "deep": deep,
                }
                out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"record {number} done", file=sys.stderr, flush=True)


def _load(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _fit_values(rows: list[dict[str, Any]], key: str) -> dict[str, float]:
    """Fit the win probability (a, b, won, lost) and the points (c, d) of the play-out
    values under ``key`` of the positions, and print the calibration of the fit."""
    import numpy as np
    from scipy.optimize import minimize

    rows = [r for r in rows if r.get(key)]
    n = max(len(r[key]) for r in rows)
    v = np.zeros((len(rows), n))
    mask = np.zeros((len(rows), n))
    for i, r in enumerate(rows):
        v[i, : len(r[key])] = r[key]
        mask[i, : len(r[key])] = 1
    y = np.array([r["won"] for r in rows], float)
    won = (v >= WIN) & (mask > 0)
    lost = (v <= -WIN) & (mask > 0)
    open_ = (mask > 0) & ~won & ~lost
    counts = mask.sum(axis=1)

    def predict(theta: np.ndarray) -> np.ndarray:
        a, b, w, q = theta
        p = 1 / (1 + np.exp(-(a + b * v)))
        won_p = 1 / (1 + np.exp(-w))
        lost_p = 1 / (1 + np.exp(-q))
        p = np.where(won, won_p, np.where(lost, lost_p, p)) * mask
        return np.clip(p.sum(axis=1) / counts, 1e-6, 1 - 1e-6)

    def loss(theta: np.ndarray) -> float:
        p = predict(theta)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))

    start = np.array([0.1, 0.04, 3.0, -3.0])
    fitted = minimize(loss, start, method="Nelder-Mead", options={"xatol": 1e-7, "maxiter": 4000})
    a, b, w, q = (float(x) for x in fitted.x)
    won_win = 1 / (1 + math.exp(-w))
    lost_win = 1 / (1 + math.exp(-q))
    p = predict(fitted.x)
    brier = float(np.mean((p - y) ** 2))
    print(
        f"{key}: a={a:.4f} b={b:.5f}, won {won_win:.4f}, lost {lost_win:.4f};"
        f" log loss {fitted.fun:.4f}, Brier {brier:.4f}, {len(rows)} positions"
    )
    for lo in np.arange(0, 1, 0.1):
        sel = (p >= lo) & (p < lo + 0.1)
        if sel.any():
            mean, share = p[sel].mean(), y[sel].mean()
            print(f"  {lo:.1f}-{lo + 0.1:.1f}: {sel.sum():5d} positions, {mean:.3f} vs {share:.3f}")
    # points: mean over samples of (exact for won/lost samples, c + d v otherwise)
    bonus = np.array([r["win_bonus"] for r in rows], float)[:, None]
    exact = np.where(won, v - WIN + bonus, np.where(lost, v + WIN - bonus, 0.0)) * mask
    x1 = open_.sum(axis=1) / counts
    x2 = (v * open_).sum(axis=1) / counts
    target = np.array([r["margin"] for r in rows], float) - exact.sum(axis=1) / counts
    design = np.c_[x1, x2]
    (cc, dd), *_ = np.linalg.lstsq(design, target, rcond=None)
    rmse = float(np.sqrt(np.mean((design @ np.array([cc, dd]) - target) ** 2)))
    print(f"{key} points: c={cc:.3f} d={dd:.4f}; rmse {rmse:.1f}")
    return {
        "win_bias": round(a, 5),
        "win_slope": round(b, 6),
        "won_win": round(won_win, 5),
        "lost_win": round(lost_win, 5),
        "points_bias": round(float(cc), 4),
        "points_slope": round(float(dd), 5),
    }


def fit(args: argparse.Namespace) -> None:
    """Fit the model (the greedy play-outs' and the deep play-outs') and write it."""
    rows = [r for r in _load(args.positions) if r["won"] is not None]
    if args.base:
        with open(args.base, encoding="utf-8") as base:
            model = json.load(base)
        model.pop("deep", None)
        print(f"play-out model kept from {args.base}")
    else:
        model = {"turns": load_model().turns, **_fit_values(rows, "values")}
        model["trained"] = args.note or f"{len(rows)} positions of {args.positions}"
    if any(r.get("deep") for r in rows):
        deep = _fit_values(rows, "deep")
        model["deep"] = {**deep, "trained": args.deep_note or f"{len(rows)} positions"}
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(model, out, indent=2)
        out.write("\n")
    print(f"wrote {args.out}")


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    s = sub.add_parser("selfplay", help="play deals and write their records")
    s.add_argument("--deals", type=int, default=300)
    s.add_argument("--start", type=int, default=0, help="first deal number")
    s.add_argument("--seed", type=int, default=7001)
    s.add_argument("--bots", default="expert:1024,expert:1024")
    s.add_argument("--rules", default="classic")
    s.add_argument("--out", required=True)
    s.set_defaults(run=selfplay)
    q = sub.add_parser("positions", help="value the best line at positions of the records")
    q.add_argument("--records", required=True)
    q.add_argument("--every", type=int, default=5)
    q.add_argument("--rollouts", type=int, default=512)
    q.add_argument("--samples", type=int, default=48, help="greedy play-outs per position")
    q.add_argument("--deep", type=int, default=24, help="deep play-outs per position")
    q.add_argument("--seed", type=int, default=17)
    q.add_argument("--out", required=True)
    q.set_defaults(run=positions)
    f = sub.add_parser("fit", help="fit the model")
    f.add_argument("--positions", required=True)
    f.add_argument("--out", required=True)
    f.add_argument("--note", default="", help="the model's 'trained' field")
    f.add_argument("--deep-note", default="", help="the deep model's 'trained' field")
    f.add_argument(
        "--base", help="keep the play-out model of this model file (fit the deep model only)"
    )
    f.set_defaults(run=fit)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
