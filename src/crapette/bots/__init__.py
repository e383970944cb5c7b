"""Bots: players that see a [`PlayerView`][crapette.views.PlayerView] and answer a legal move.

* [`RandomBot`][crapette.bots.RandomBot]: a uniformly random legal move;
* [`GreedyBot`][crapette.bots.GreedyBot]: a documented ranking of moves (foundations first, emptying
  the reserve, loading the opponent, keeping houses open);
* [`SearchBot`][crapette.bots.SearchBot]: determinized Monte Carlo search with greedy rollouts,
  stronger with a larger budget;
* [`PlannerBot`][crapette.bots.PlannerBot]: searches lines of moves within its turn, over
  determinizations;
* [`ExpertBot`][crapette.bots.expert.ExpertBot]: the planner's lines, chosen by their
  chance of winning the deal (a value model fitted on self-play);
* [`AllSeeingBot`][crapette.bots.allseeing.AllSeeingBot]: a reference planner that scores
  its lines on the true hidden cards (the game loop shows them to it);
* [`Fallible`][crapette.bots.Fallible]: any bot made to miss compulsory moves and overlook
  violations.

All are seeded (``crapette.deal.Rng``) and reproducible. [`get_bot`][crapette.bots.get_bot] builds
one from a bot string (``greedy``, ``search:256``, ``greedy:miss=0.1:call=0.8``);
[`register_bot`][crapette.bots.register_bot] adds names, and another package adds its own
bots through the entry point group ``crapette.bots`` (see
[`crapette.bots.registry`][crapette.bots.registry]), which makes them bot names of the
``crapette`` command too;
[`play_deal`][crapette.bots.play_deal] is the one game loop (bots against each other from any
state).
"""

from __future__ import annotations

import re

from crapette._quote import quote

# The names imported ``as`` themselves are importable from here but not versioned
# (not in __all__): the two type aliases and the helper behind stop_decision.
from crapette.bots._loop import MoveHook as MoveHook
from crapette.bots._loop import play_deal

# The expert and the all-seeing reference bots are importable from here, not versioned here:
# their modules are provisional (docs/versioning.md).
from crapette.bots.allseeing import AllSeeingBot as AllSeeingBot
from crapette.bots.allseeing import AllSeeingExpert as AllSeeingExpert
from crapette.bots.base import Bot, UnknownBotError, stop_decision
from crapette.bots.base import call_helps as call_helps
from crapette.bots.expert import ExpertBot as ExpertBot
from crapette.bots.fallible import MISS_KINDS, Fallible
from crapette.bots.greedy import GreedyBot
from crapette.bots.planner import PlannerBot
from crapette.bots.registry import BotFactory as BotFactory
from crapette.bots.registry import (
    BotSpec,
    bot_names,
    get_bot,
    parse_bot,
    register_bot,
    unregister_bot,
)
from crapette.bots.search import MAX_BUDGET, SearchBot
from crapette.bots.simple import RandomBot

__all__ = [
    "MISS_KINDS",
    "Bot",
    "BotSpec",
    "Fallible",
    "GreedyBot",
    "PlannerBot",
    "RandomBot",
    "SearchBot",
    "UnknownBotError",
    "bot_names",
    "get_bot",
    "parse_bot",
    "play_deal",
    "register_bot",
    "stop_decision",
    "unregister_bot",
]

BOT_NAMES: tuple[str, ...] = ("random", "greedy", "search", "planner")
"""The shipped bot names (importable, not versioned: [`bot_names`][crapette.bots.bot_names]
is the one list of bot names, every registered one, plug-ins included)."""


def _budget(name: str, budget: str) -> int:
    """A budget argument: an integer from 1 to ``MAX_BUDGET`` in ASCII digits."""
    if not re.fullmatch(r"[0-9]{1,9}", budget) or not 0 < int(budget) <= MAX_BUDGET:
        raise UnknownBotError(
            f"bad {name} budget {quote(budget)} in bot {quote(f'{name}:{budget}')}: expected an"
            f" integer from 1 to {MAX_BUDGET}"
        )
    return int(budget)


def _search(seed: int, budget: str | None = None) -> SearchBot:
    """A search bot, with ``search:BUDGET`` read as an integer."""
    if budget is None:
        return SearchBot(seed)
    return SearchBot(seed, budget=_budget("search", budget))


def _planner(seed: int, budget: str | None = None) -> PlannerBot:
    """A planner, with ``planner:BUDGET`` read as an integer."""
    if budget is None:
        return PlannerBot(seed)
    return PlannerBot(seed, budget=_budget("planner", budget))


def _expert(seed: int, budget: str | None = None) -> ExpertBot:
    """An expert, with ``expert:BUDGET`` read as an integer."""
    if budget is None:
        return ExpertBot(seed)
    return ExpertBot(seed, budget=_budget("expert", budget))


def _allseeing(seed: int, budget: str | None = None) -> AllSeeingBot:
    """An all-seeing planner, with ``allseeing:BUDGET`` read as an integer."""
    if budget is None:
        return AllSeeingBot(seed)
    return AllSeeingBot(seed, budget=_budget("allseeing", budget))


def _allseeing_expert(seed: int, budget: str | None = None) -> AllSeeingExpert:
    """An all-seeing expert, with ``allseeing-expert:BUDGET`` read as an integer."""
    if budget is None:
        return AllSeeingExpert(seed)
    return AllSeeingExpert(seed, budget=_budget("allseeing-expert", budget))


register_bot("random", RandomBot, summary="a uniformly random legal move")
register_bot("greedy", GreedyBot, summary="a fixed ranking of moves, one move of lookahead")
register_bot(
    "search", _search, summary="determinized Monte Carlo search with greedy rollouts (search:N)"
)
register_bot(
    "planner", _planner, summary="plans lines of moves within its turn over determinizations"
)
register_bot(
    "expert", _expert, summary="the planner's lines, chosen by their chance of winning (expert:N)"
)
register_bot(
    "allseeing",
    _allseeing,
    summary="reference: a planner scoring its lines on the true hidden cards (allseeing:N)",
)
register_bot(
    "allseeing-expert",
    _allseeing_expert,
    summary="reference: an expert scoring its lines on the true hidden cards",
)
