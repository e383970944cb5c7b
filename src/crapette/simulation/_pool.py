"""A small process pool that never hangs: tasks are handed out lazily, one at a time per
worker, every wait is bounded, a worker that dies is noticed at once, and the workers are
always ended when the run stops (normally, on an error, or on Ctrl-C).

``multiprocessing.Pool`` loses a task when a worker is killed and then waits forever, and
replaces a worker that fails to start again and again; this pool stops with
[`PoolError`][crapette.simulation.errors.PoolError] instead, after handing back every result
already made.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from crapette.simulation.errors import PoolError

__all__ = ["GUARD_HINT", "PoolError", "check_spawnable", "in_spawn_bootstrap", "run_pool"]

POLL_SECONDS = 0.5
"""The longest single wait for a worker's message or end."""

JOIN_SECONDS = 2.0
"""How long a worker may take to exit when asked before it is killed."""

GUARD_HINT = (
    "worker processes start with the spawn method and import the main script again: put the"
    ' code that runs the simulation under `if __name__ == "__main__":`'
)
"""What a script calling a multi-process simulation at module level has to add."""


def in_spawn_bootstrap() -> bool:
    """Whether this process is a spawned worker still importing the parent's main script
    (the script has no main guard and is starting a simulation again)."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def check_spawnable() -> str | None:
    """Why worker processes cannot start from here, or ``None``: the main script must be a
    file that a new process can import (not standard input)."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if isinstance(path, str) and not os.path.exists(path):
        return (
            f"the main script {path!r} is not a file that worker processes can import"
            " (code read from standard input?): save it as a file with a"
            ' `if __name__ == "__main__":` guard, or use one worker'
        )
    return None


def _worker(conn: Connection, function: Callable[..., Any]) -> None:
    """A worker's loop: receive an argument tuple, answer ``("ok", result)`` or
    ``("error", text)``; ``None`` or a closed pipe ends it. Ctrl-C is the parent's job."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    conn.send(("ready", None))
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            task = pickle.loads(data)
            if task is None:
                return
            result = function(*task)
        except Exception as exc:
            text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            conn.send(("error", text))
        else:
            conn.send(("ok", result))


class _Worker:
    def __init__(self, context: Any, function: Callable[..., Any], number: int) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_worker, args=(child, function), daemon=True, name=f"crapette-worker-{number}"
        )
        self.process.start()
        child.close()
        self.ready = False
        self.task: tuple[Any, ...] | None = None


def run_pool(
    function: Callable[..., Any],
    tasks: Iterator[tuple[Any, ...]],
    workers: int,
    on_result: Callable[[Any], bool],
) -> None:
    """Run ``function(*task)`` for every task in ``workers`` spawned processes.

    Tasks are taken from the iterator only when a worker is free, so an endless or huge
    iterator costs nothing up front. ``on_result`` is called in the parent with each result,
    in completion order; it returns ``False`` to stop the run early.

    Raises:
        PoolError: a worker raised (the message holds its exception), died, or failed to
            start (with ``GUARD_HINT``); results already handed to
            ``on_result`` stay.
        KeyboardInterrupt: Ctrl-C; the workers are ended first.
    """
    context = multiprocessing.get_context("spawn")
    pool = _start(context, function, workers)
    clean = False
    try:
        _drive(pool, tasks, on_result)
        clean = True
    finally:
        _stop(pool, clean)


def _start(context: Any, function: Callable[..., Any], workers: int) -> list[_Worker]:
    """Start the workers with Ctrl-C ignored, a disposition a new Python process keeps, so
    a Ctrl-C at the terminal (sent to every process of the group) reaches only the parent
    and no worker prints a traceback."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGINT)
    if main:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    pool: list[_Worker] = []
    try:
        for i in range(workers):
            pool.append(_Worker(context, function, i))
    except BaseException:
        _stop(pool, clean=False)
        raise
    finally:
        if main:
            signal.signal(
                signal.SIGINT, previous if previous is not None else signal.default_int_handler
            )
    return pool


def _drive(
    pool: list[_Worker], tasks: Iterator[tuple[Any, ...]], on_result: Callable[[Any], bool]
) -> None:
    exhausted = False
    by_conn = {w.conn: w for w in pool}
    by_sentinel = {w.process.sentinel: w for w in pool}
    while True:
        if not exhausted:
            for w in pool:
                if w.ready and w.task is None:
                    task = next(tasks, None)
                    if task is None:
                        exhausted = True
                        break
                    w.task = task
                    try:
                        w.conn.send(task)
                    except OSError:  # it died since its last result (a broken pipe)
                        raise _lost(w) from None
        if exhausted and all(w.task is None for w in pool):
            return
        ready = wait([*by_conn, *by_sentinel], timeout=POLL_SECONDS)
        for item in ready:
            if item in by_conn:
                w = by_conn[item]
                try:
                    kind, value = w.conn.recv()
                except (EOFError, OSError):
                    raise _lost(w) from None
                if kind == "ready":
                    w.ready = True
                elif kind == "error":
                    raise PoolError(f"a worker process raised {value}")
                else:
                    w.task = None
                    if not on_result(value):
                        return
        for item in ready:
            if item in by_sentinel:
                w = by_sentinel[item]
                if w.conn.poll():
                    continue  # read its last message first, on the next round
                raise _lost(w)


def _lost(w: _Worker) -> PoolError:
    w.process.join(JOIN_SECONDS)
    code = w.process.exitcode
    how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited ({code})"
    if not w.ready:
        return PoolError(f"a worker process {how} before it started; {GUARD_HINT}")
    return PoolError(f"a worker process (pid {w.process.pid}) {how} during the run")


def _stop(pool: list[_Worker], clean: bool) -> None:
    """End every worker: politely after a clean run, at once otherwise; never wait long."""
    for w in pool:
        if clean and w.process.is_alive():
            with contextlib.suppress(OSError):
                w.conn.send(None)
        else:
            w.process.terminate()
    for w in pool:
        w.process.join(JOIN_SECONDS if clean else JOIN_SECONDS / 2)
        if w.process.is_alive():
            w.process.kill()
            w.process.join(JOIN_SECONDS)
        w.conn.close()
