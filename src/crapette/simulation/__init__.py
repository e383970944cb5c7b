"""The simulator: many deals between two bots, on one machine or on a Ray cluster, with a
summary that answers rules questions with confidence intervals.

Reproducibility: deal ``i`` of a run with seed ``s`` uses the deal seed
[`crapette.match.deal_seed`][crapette.match.deal_seed] ``(s, i // 2)`` (the seeds a match deals
from) and the bots are rebuilt for every deal with seeds derived from it, so a deal's result depends
on nothing but the run seed and its number: the same seed gives the same records whatever the number
of workers or the backend.

Fairness: deals are played in pairs on the same shuffle with the seats swapped (bot A is
player 0 in even deals and player 1 in odd ones), so the luck of the cards and of starting
is shared equally.

The statistics are in [`crapette.simulation.stats`][crapette.simulation.stats], the figures in
[`crapette.simulation.plots`][crapette.simulation.plots], the HTML report in
[`crapette.simulation.report`][crapette.simulation.report] and the rating ladder in
[`crapette.simulation.ladder`][crapette.simulation.ladder].
"""

from __future__ import annotations

from crapette.errors import BotError
from crapette.match import deal_seed as deal_seed
from crapette.simulation import stats as stats
from crapette.simulation._botspec import BotMaker as BotMaker
from crapette.simulation._ray import check_ray_address as check_ray_address
from crapette.simulation._ray import ray_session as ray_session
from crapette.simulation._results import DealRecord, Estimate, SimulationResult, Summary, summarize
from crapette.simulation._run import MAX_GAMES as MAX_GAMES
from crapette.simulation._run import MAX_WORKERS as MAX_WORKERS
from crapette.simulation._run import BotLike as BotLike
from crapette.simulation._run import Seat as Seat
from crapette.simulation._run import check_positive as check_positive
from crapette.simulation._run import check_progress as check_progress
from crapette.simulation._run import compare, simulate
from crapette.simulation._run import label_of as label_of
from crapette.simulation._run import parse_bots as parse_bots
from crapette.simulation._run import resolve_seat as resolve_seat
from crapette.simulation._run import resolve_seats as resolve_seats
from crapette.simulation._run import rules_of as rules_of
from crapette.simulation.errors import SimulationError, SimulationInterrupted

# The names of __all__ are versioned. The others imported ``as`` themselves stay importable
# from here, unversioned: the limits, the bots as the runners hold them, and the
# runners' helpers that the ladder and the command line use.
__all__ = [
    "BotError",
    "DealRecord",
    "Estimate",
    "SimulationError",
    "SimulationInterrupted",
    "SimulationResult",
    "Summary",
    "compare",
    "simulate",
    "summarize",
]
