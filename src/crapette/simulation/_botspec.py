"""Bots given to the simulator: names, ``Bot`` instances or factories, all turned into one
picklable shape, [`BotMaker`][crapette.simulation.BotMaker], that builds a fresh bot for each
deal."""

from __future__ import annotations

import copy
import inspect
import pickle
from collections.abc import Sequence
from typing import Any, Literal

import attrs

from crapette._quote import show
from crapette.bots import Bot, get_bot
from crapette.errors import CrapetteError

__all__ = ["BotMaker", "resolve_bot"]

Kind = Literal["name", "instance", "factory", "seeded"]


@attrs.frozen(slots=True)
class BotMaker:
    """Builds the bot of one seat for one deal: ``factory(seed)``.

    Attributes:
        name: the bot's name in results and messages.
        kind: ``"name"`` (a [`get_bot`][crapette.bots.get_bot] name, seeded per deal),
            ``"instance"`` (a copy of the given bot for every deal), ``"factory"`` (a
            zero-argument callable called for every deal) or ``"seeded"`` (a callable
            called with the deal's bot seed).
        spec: the name, bot or callable.
    """

    name: str
    kind: Kind
    spec: Any

    def __call__(self, seed: int) -> Bot:
        """A bot for a deal whose bot seed is ``seed``."""
        if self.kind == "name":
            return get_bot(self.spec, seed)
        if self.kind == "instance":
            bot: Any = copy.deepcopy(self.spec)
        elif self.kind == "factory":
            bot = self.spec()
        else:
            bot = self.spec(seed)
        if not _is_bot(bot):
            raise TypeError(f"bot factory {self.name!r} returned {bot!r}, not a Bot")
        return bot  # type: ignore[no-any-return]

    def check_picklable(self, error: type[CrapetteError]) -> None:
        """Fail when the factory cannot be sent to worker processes.

        Raises:
            error: it cannot be pickled (a lambda or a local function, say).
        """
        if self.kind == "name":
            return
        try:
            pickle.dumps(self.spec)
        except Exception as exc:
            raise error(
                f"bot {self.name!r} ({self.spec!r}) cannot be sent to worker processes ({exc});"
                " define the bot class or factory at module level, or use workers=1"
            ) from None


def _is_bot(value: object) -> bool:
    return (
        not isinstance(value, type)
        and callable(getattr(value, "choose", None))
        and isinstance(getattr(value, "name", None), str)
    )


def resolve_bot(spec: object, error: type[CrapetteError]) -> BotMaker:
    """A [`BotMaker`][crapette.simulation.BotMaker] from a bot name, a ``Bot`` instance, a bot class
    or another factory taking a seed, or a zero-argument factory. A factory is called once here
    (seed 0) to check that it gives a bot.

    Raises:
        UnknownBotError: an unknown bot name or bad bot options.
        error: anything else that is not a bot or a bot factory.
    """
    if isinstance(spec, BotMaker):
        return spec
    if isinstance(spec, str):
        name = spec.strip()
        get_bot(name, 0)
        return BotMaker(name, "name", name)
    if _is_bot(spec):
        return BotMaker(str(getattr(spec, "name", "")), "instance", spec)
    if not callable(spec):
        raise error(f"a bot must be a name, a Bot or a factory returning a Bot, not {show(spec)}")
    try:
        signature = inspect.signature(spec)
    except (TypeError, ValueError):
        signature = None
    kind: Kind = "seeded"
    if signature is not None:
        try:
            signature.bind(0)
        except TypeError:
            try:
                signature.bind()
            except TypeError:
                raise error(
                    f"bot factory {spec!r} must take no argument or one seed argument"
                ) from None
            kind = "factory"
    factory = BotMaker(getattr(spec, "__name__", repr(spec)), kind, spec)
    try:
        bot = factory(0)
    except CrapetteError:
        raise
    except Exception as exc:
        raise error(f"bot factory {spec!r} failed: {type(exc).__name__}: {exc}") from exc
    return attrs.evolve(factory, name=bot.name)


def resolve_bots(bots: object, error: type[CrapetteError]) -> tuple[BotMaker, BotMaker]:
    """Bot A and bot B from ``"greedy,random"`` or a pair of names, bots or factories.

    Raises:
        UnknownBotError: an unknown name.
        error: not two bots, or something that is not a bot.
    """
    if isinstance(bots, str):
        items: Sequence[object] = bots.split(",")
    elif isinstance(bots, Sequence) and not isinstance(bots, bytes):
        items = list(bots)
    else:
        raise error(
            f"bots must be 'A,B' or a pair of bot names, Bots or factories, not {show(bots)}"
        )
    if len(items) != 2 or any(isinstance(i, str) and not i.strip() for i in items):
        raise error(f"expected two bots (bot A and bot B, e.g. greedy,random), got {show(bots)}")
    return (resolve_bot(items[0], error), resolve_bot(items[1], error))
