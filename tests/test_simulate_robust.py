"""The simulator never hangs (killed workers, exceptions in workers, missing main guards,
Ctrl-C), builds its work lazily, refuses bad input before any deal, and takes Bot
instances and factories as well as names."""

from __future__ import annotations

import importlib
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import crapette as c
from crapette.bots import GreedyBot, RandomBot
from crapette.moves import Move
from crapette.views import PlayerView

sim = importlib.import_module("crapette.simulation")
_run = importlib.import_module("crapette.simulation._run")  # where the runner lives

FAST = "classic(move_cap=400)"


class Exploding:
    """A greedy bot that raises after a few moves in the deal whose bot seed is ``bad``."""

    name = "exploding"

    def __init__(self, seed: int, bad: int = -1) -> None:
        self.inner = GreedyBot(seed)
        self.armed = seed == bad

    def choose(self, view: PlayerView) -> Move:
        if self.armed and view.moves_made > 5:
            raise RuntimeError("boom")
        return self.inner.choose(view)


def exploding_factory(seed: int) -> Exploding:
    """Explodes in deals 4 and 5 (the third shuffle) of a run with seed 1."""
    return Exploding(seed, bad=_run._bot_seed(sim.deal_seed(1, 2), 0))


def test_a_killed_worker_ends_the_run_promptly_and_keeps_the_records() -> None:
    killed: list[int] = []

    def kill_one(done: int, total: int) -> None:
        if not killed:
            victim = multiprocessing.active_children()[0]
            assert victim.pid is not None
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.pid)

    started = time.monotonic()
    with pytest.raises(sim.SimulationError, match="killed by signal 9") as info:
        sim.simulate(FAST, "greedy,greedy", 400, seed=1, workers=2, progress=kill_one)
    assert time.monotonic() - started < 60
    assert killed and info.value.records
    assert [r.deal for r in info.value.records] == sorted(r.deal for r in info.value.records)
    rules = c.parse_rules(FAST)
    replay = _run.play_numbered_deal
    for r in info.value.records[:4]:
        assert replay(rules, ("greedy", "greedy"), r.seed, r.deal) == r
    assert not multiprocessing.active_children()


def test_a_worker_dead_before_its_next_task_is_reported_as_killed() -> None:
    """Every worker killed, and gone, before the pool hands out the next task: the pool
    finds the broken pipe when it sends, and says how the worker ended (the race the test
    above meets now and then on a fast machine)."""
    killed: list[int] = []

    def kill_all(done: int, total: int) -> None:
        if killed:
            return
        for victim in multiprocessing.active_children():
            assert victim.pid is not None
            os.kill(victim.pid, signal.SIGKILL)
            victim.join(10)
            killed.append(victim.pid)

    with pytest.raises(sim.SimulationError, match="killed by signal 9") as info:
        sim.simulate(FAST, "greedy,greedy", 400, seed=1, workers=2, progress=kill_all)
    assert len(killed) == 2 and info.value.records
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("workers", [1, 2])
def test_an_exception_in_a_deal_stops_the_run_with_the_records(workers: int) -> None:
    with pytest.raises(sim.SimulationError, match="RuntimeError: boom") as info:
        sim.simulate(FAST, (exploding_factory, "greedy"), 12, seed=1, workers=workers)
    done = {r.deal for r in info.value.records}
    assert not done & {4, 5}
    if workers == 1:
        assert done == {0, 1, 2, 3}
        assert "deal 4" in str(info.value)
    else:
        # deals 4 and 5 run side by side on two workers: whichever raises first is named
        assert re.search(r"deal [45] \(seed", str(info.value))
    assert not multiprocessing.active_children()


def _run_script(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(code), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )


def test_a_script_without_main_guard_fails_at_once_saying_what_to_add(tmp_path: Path) -> None:
    started = time.monotonic()
    done = _run_script(
        tmp_path,
        f"""
        from crapette.simulation import simulate
        simulate({FAST!r}, "greedy,greedy", 40, seed=1, workers=2)
        print("finished")
        """,
    )
    assert time.monotonic() - started < 60
    assert done.returncode != 0 and "finished" not in done.stdout
    assert 'if __name__ == "__main__":' in done.stderr
    assert done.stderr.count("Traceback") <= 1


def test_the_same_script_with_the_guard_works(tmp_path: Path) -> None:
    done = _run_script(
        tmp_path,
        f"""
        from crapette.simulation import simulate
        if __name__ == "__main__":
            print(simulate({FAST!r}, "greedy,greedy", 8, seed=1, workers=2).summary.games)
        """,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "8"


def test_code_from_standard_input_is_refused_at_once() -> None:
    code = f'from crapette.simulation import simulate\nsimulate({FAST!r}, "greedy,greedy", 8, 1, 2)'
    done = subprocess.run(
        [sys.executable, "-"], input=code, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1 and "standard input" in done.stderr
    assert done.stderr.count("Traceback") == 1


def _ctrl_c_as_in_a_terminal() -> None:
    """In the child, before it runs Python: Ctrl-C acts as at a terminal even when the
    tests themselves run with it ignored (a background job inherits an ignored SIGINT,
    and Python then installs no handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT")
def test_ctrl_c_exits_130_with_one_clean_line_and_writes_the_finished_deals(
    tmp_path: Path,
) -> None:
    out_json, out_csv = tmp_path / "out.json", tmp_path / "out.csv"
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "crapette", "compare", "--rules", "classic", "--bots"),
            *("greedy,greedy", "--games", "10000000", "--workers", "2", "--no-progress"),
            *("--rules", "serbian", "--json", str(out_json), "--csv", str(out_csv)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    time.sleep(6)  # the workers are started and playing
    started = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
    try:
        _out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # a run that did not stop must not go on running
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        pytest.fail(
            f"Ctrl-C did not stop the run in 60 s; stdout {out[-2000:]!r}, stderr {err[-2000:]!r}"
        )
    assert time.monotonic() - started < 30
    assert process.returncode == 130
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1
    found = re.fullmatch(
        r"crapette compare: interrupted after (\d+) deals; wrote them to (.*)", lines[0]
    )
    assert found, lines[0]
    assert found[2] == f"{out_json}, {out_csv}"
    payload = json.loads(out_json.read_text(encoding="utf-8"))
    assert payload["interrupted"] is True
    (result,) = payload["results"]  # serbian was never begun
    assert result["rules"].startswith("classic") and result["bots"] == ["greedy", "greedy"]
    deals = [r["deal"] for r in result["records"]]
    assert len(deals) == int(found[1]) > 0 and deals == sorted(deals)
    assert len(out_csv.read_text(encoding="utf-8").splitlines()) == len(deals) + 1


@pytest.mark.parametrize("workers", [1, 2])
def test_a_huge_run_starts_at_once_and_stops_on_interrupt(workers: int) -> None:
    def stop(done: int, total: int) -> None:
        assert total == 10**12
        raise KeyboardInterrupt

    started = time.monotonic()
    with pytest.raises(sim.SimulationInterrupted) as info:
        sim.simulate(FAST, "greedy,greedy", 10**12, seed=1, workers=workers, progress=stop)
    assert time.monotonic() - started < 60
    assert len(info.value.records) >= 16
    assert isinstance(info.value, KeyboardInterrupt)
    assert not multiprocessing.active_children()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"bots": None}, "bots is required"),
        ({"bots": 3}, "bots must be"),
        ({"bots": ("greedy", 3)}, "a bot must be a name"),
        ({"bots": ("greedy", lambda a, b: None)}, "no argument or one seed"),
        ({"bots": ("greedy", lambda: 3)}, "not a Bot"),
        ({"progress": "x"}, "progress must be a function"),
        ({"games": 10**12 + 1}, "games must be at most"),
        ({"workers": 10**6}, "workers must be at most"),
        ({"seed": 2**70}, "seed must be between"),
        ({"start": 3}, "start must be an even integer"),
        ({"bots": ("greedy", lambda seed: GreedyBot(seed)), "workers": 2}, "cannot be sent"),
    ],
)
def test_bad_input_raises_the_library_error_before_any_deal(
    kwargs: dict[str, object], match: str
) -> None:
    args: dict[str, object] = {"rules": FAST, "bots": "greedy,random", "games": 2, "seed": 1}
    args.update(kwargs)
    with pytest.raises(sim.SimulationError, match=match):
        sim.simulate(**args)  # type: ignore[arg-type]


def test_bot_instances_classes_and_factories_play_like_names() -> None:
    by_name = sim.simulate(FAST, "greedy,random", 6, seed=4)
    by_class = sim.simulate(FAST, (GreedyBot, RandomBot), 6, seed=4)
    assert by_class.records == by_name.records and by_class.bots == ("greedy", "random")
    seeded = sim.simulate(FAST, (lambda seed: GreedyBot(seed), "random"), 6, seed=4)
    assert seeded.records == by_name.records
    instance = sim.simulate(FAST, (GreedyBot(7), "random"), 6, seed=4)
    assert instance.bots == ("greedy", "random")
    assert instance == sim.simulate(FAST, (GreedyBot(7), "random"), 6, seed=4, workers=2)
    zero = sim.simulate(FAST, (lambda: GreedyBot(7), "random"), 6, seed=4)
    assert zero.records == instance.records  # every deal starts from the same bot
    results = sim.compare([FAST, "pagat(move_cap=400)"], (GreedyBot, "random"), 2, seed=4)
    assert results[0].records == by_name.records[:2]


def test_a_run_in_batches_equals_one_long_run() -> None:
    whole = sim.simulate(FAST, "greedy,random", 8, seed=2)
    first = sim.simulate(FAST, "greedy,random", 4, seed=2)
    second = sim.simulate(FAST, "greedy,random", 4, seed=2, start=4)
    assert first.records + second.records == whole.records


def test_the_ladder_takes_bot_classes_and_instances_as_well_as_names() -> None:
    from crapette.simulation.ladder import ladder

    by_name = ladder(["greedy", "random"], FAST, games=4, seed=3, bootstrap=0)
    by_class = ladder([GreedyBot, "random"], FAST, games=4, seed=3, bootstrap=0)
    assert by_class.bots == ("greedy", "random")
    assert by_class.results[0].records == by_name.results[0].records
    instance = ladder([GreedyBot(5), RandomBot(5)], FAST, games=4, seed=3, bootstrap=0)
    assert instance.bots == ("greedy", "random") and len(instance.results[0].records) == 4
    with pytest.raises(sim.SimulationError, match="named twice"):
        ladder([GreedyBot, "greedy"], FAST, games=2)
