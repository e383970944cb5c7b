"""The simulator's errors: a run's bad input or failure, a plot that cannot be made, a worker
lost, and the two Ctrl-C errors that keep the deals finished.

They live with the simulator, the layer that raises them (the core's errors are in
[`crapette.errors`][crapette.errors]).
[`SimulationError`][crapette.simulation.errors.SimulationError] and
[`PlotError`][crapette.simulation.errors.PlotError] are
[`CrapetteError`][crapette.errors.CrapetteError]s; the two Ctrl-C errors are
``KeyboardInterrupt``s, not ``CrapetteError``s, on purpose: an ``except Exception`` (or
``except CrapetteError``) must not swallow a Ctrl-C.

```
CrapetteError (crapette.errors)
├── SimulationError         bad simulation input, or a run stopped by a lost worker
├── PlotError               a plot without matplotlib, or a plot file that cannot be written
└── PoolError               a worker process died, failed to start or raised (the runs
                            report it as a SimulationError)
KeyboardInterrupt
└── SimulationInterrupted   Ctrl-C during a simulation (holds the records made so far)
    └── RunInterrupted      Ctrl-C during `crapette simulate`/`compare` (the command line
                            catches it)
```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crapette.errors import CrapetteError

# RunInterrupted never reaches a library user (the command line catches it): importable
# from here, not in __all__.
__all__ = ["PlotError", "PoolError", "SimulationError", "SimulationInterrupted"]


class SimulationError(CrapetteError, ValueError):
    """Bad simulation input (bots, rules, counts, backend, output) or an unreachable Ray
    cluster, raised before any deal is played; or a run that could not finish (a worker
    process died or failed to start, a deal raised an exception), raised at once with the
    deals finished until then.

    Attributes:
        records: the deal records
            ([`DealRecord`][crapette.simulation.DealRecord]) completed before the error, in
            deal order (empty for bad input).
    """

    def __init__(self, message: str, records: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.records: tuple[Any, ...] = tuple(records)


class PlotError(CrapetteError, ValueError):
    """A plot asked for without matplotlib installed (the message says what to install), a
    plot file name whose extension is not a format matplotlib writes, or a plot file that
    cannot be written (``crapette.simulation.plots``)."""


class PoolError(CrapetteError):
    """A worker process of a simulation died, failed to start, or raised; ``str(error)``
    says which and why. The simulator reports it as a
    [`SimulationError`][crapette.simulation.errors.SimulationError] with the deals finished,
    so a user of [`simulate`][crapette.simulation.simulate] never sees this one."""


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C (``KeyboardInterrupt``) during a simulation: the workers are ended and the
    records made so far kept. Being a ``KeyboardInterrupt``, it stops a script as Ctrl-C
    does (it is not a [`CrapetteError`][crapette.errors.CrapetteError]).

    Attributes:
        records: the deal records
            ([`DealRecord`][crapette.simulation.DealRecord]) completed before the
            interruption, in deal order.
    """

    def __init__(self, records: Sequence[Any] = ()) -> None:
        super().__init__(f"interrupted after {len(records)} deals")
        self.records: tuple[Any, ...] = tuple(records)


class RunInterrupted(SimulationInterrupted):
    """Ctrl-C during ``crapette simulate`` or ``crapette compare``: the results of the deals
    finished so far (the ruleset being played holds only its finished deals; rulesets not
    begun are left out). A ``KeyboardInterrupt``, as its base class.

    Attributes:
        results: one [`SimulationResult`][crapette.simulation.SimulationResult] per ruleset
            with finished deals.
        records: every finished deal (a tuple, as for its base class).
        written: the files the finished deals were written to (filled in by the command).
    """

    def __init__(self, results: Sequence[Any]) -> None:
        self.results: list[Any] = list(results)
        super().__init__([record for result in self.results for record in result.records])
        self.written: list[str] = []
