"""Bots: players that see a :class:`~crapette.views.PlayerView` and answer a legal move.

* :class:`RandomBot`: a uniformly random legal move;
* :class:`GreedyBot`: a documented ranking of moves (foundations first, emptying the
  reserve, loading the opponent, keeping houses open);
* :class:`SearchBot`: determinized Monte Carlo search with greedy rollouts, stronger with a
  larger budget.

All are seeded (``crapette.deal.Rng``) and reproducible. :func:`get_bot` builds one by name;
:func:`play_deal` is the one game loop (bots against each other from any state).
"""

from __future__ import annotations

from crapette.bots._loop import MoveHook, play_deal
from crapette.bots.base import Bot, UnknownBotError
from crapette.bots.greedy import GreedyBot
from crapette.bots.search import SearchBot
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
"""The names :func:`get_bot` knows."""


def get_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name: ``"random"``, ``"greedy"`` or ``"search"``; ``"search:N"`` sets
    the search bot's budget to N rollouts per decision.

    Raises:
        UnknownBotError: the name is not one of :data:`BOT_NAMES` (the message lists them),
            or a search budget is not a positive integer.
    """
    if not isinstance(name, str):
        raise UnknownBotError(f"a bot name must be a str, not {name!r}")
    base, _, option = name.strip().partition(":")
    if base == "random" and not option:
        return RandomBot(seed)
    if base == "greedy" and not option:
        return GreedyBot(seed)
    if base == "search":
        if not option:
            return SearchBot(seed)
        if not option.isdigit() or int(option) <= 0:
            raise UnknownBotError(
                f"bad search budget {option!r} in bot {name!r}: expected a positive integer"
            )
        return SearchBot(seed, budget=int(option))
    raise UnknownBotError(
        f"unknown bot {name!r}: expected one of {', '.join(BOT_NAMES)} (or search:BUDGET)"
    )
