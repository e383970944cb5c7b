"""Bots: players that see a [`PlayerView`][crapette.views.PlayerView] and answer a legal move.

* [`RandomBot`][crapette.bots.RandomBot]: a uniformly random legal move;
* [`GreedyBot`][crapette.bots.GreedyBot]: a documented ranking of moves (foundations first, emptying
  the reserve, loading the opponent, keeping houses open);
* [`SearchBot`][crapette.bots.SearchBot]: determinized Monte Carlo search with greedy rollouts,
  stronger with a larger budget.

All are seeded (``crapette.deal.Rng``) and reproducible. [`get_bot`][crapette.bots.get_bot] builds
one by name; [`play_deal`][crapette.bots.play_deal] is the one game loop (bots against each
other from any state).
"""

from __future__ import annotations

import re

from crapette._quote import quote
from crapette.bots._loop import MoveHook, play_deal
from crapette.bots.base import Bot, UnknownBotError
from crapette.bots.greedy import GreedyBot
from crapette.bots.search import MAX_BUDGET, SearchBot
from crapette.bots.simple import RandomBot

__all__ = [
    "BOT_NAMES",
    "Bot",
    "GreedyBot",
    "MoveHook",
    "RandomBot",
    "SearchBot",
    "UnknownBotError",
    "get_bot",
    "play_deal",
]

BOT_NAMES: tuple[str, ...] = ("random", "greedy", "search")
"""The names [`get_bot`][crapette.bots.get_bot] knows."""


def get_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name: ``"random"``, ``"greedy"`` or ``"search"``; ``"search:N"`` sets
    the search bot's budget to N rollouts per decision (N in ASCII digits, from 1 to
    [`MAX_BUDGET`][crapette.bots.search.MAX_BUDGET]).

    Raises:
        UnknownBotError: the name is not one of [`BOT_NAMES`][crapette.bots.BOT_NAMES] (the
            message lists them), or a search budget is not an integer in that range.
    """
    if not isinstance(name, str):
        raise UnknownBotError(f"a bot name must be a str, not {type(name).__name__}")
    base, _, option = name.strip(" \t").partition(":")
    if base == "random" and not option:
        return RandomBot(seed)
    if base == "greedy" and not option:
        return GreedyBot(seed)
    if base == "search":
        if not option:
            return SearchBot(seed)
        if not re.fullmatch(r"[0-9]{1,9}", option) or not 0 < int(option) <= MAX_BUDGET:
            raise UnknownBotError(
                f"bad search budget {quote(option)} in bot {quote(name)}: expected an integer"
                f" from 1 to {MAX_BUDGET}"
            )
        return SearchBot(seed, budget=int(option))
    raise UnknownBotError(
        f"unknown bot {quote(name)}: expected one of {', '.join(BOT_NAMES)} (or search:BUDGET)"
    )
