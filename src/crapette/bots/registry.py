"""The registry of bots by name, and the one syntax of bot strings.

A bot string is ``NAME[:ARG]...[:KEY=VALUE]...``, with no spaces and no commas (a comma
separates the two bots of ``--bots``):

* ``NAME`` is a registered name ([`bot_names`][crapette.bots.bot_names]): ``random``,
  ``greedy``, ``search``, ``planner``, ``expert``, the reference bots ``allseeing`` and
  ``allseeing-expert``, or one added by
  [`register_bot`][crapette.bots.register_bot];
* each ``ARG`` (a part without ``=``) goes to the bot's factory, in order: ``search:256``
  is a search bot with a budget of 256;
* each ``KEY=VALUE`` sets a parameter of the fallible player model
  ([`Fallible`][crapette.bots.fallible.Fallible]) wrapped around the bot: ``miss``,
  ``miss_reserve``, ``miss_foundation``, ``miss_order``, ``miss_filling``, ``call`` and
  ``false_call``, each a probability written as a plain decimal (``0.25``, ``.5``, ``1``).
  ``greedy:miss=0.1:call=0.8`` is a greedy player that misses a compulsory move one time
  in ten and calls "Stop!" on 80% of the violations it could call;
  ``search:256:miss=0.05`` a fallible search bot.

[`get_bot`][crapette.bots.get_bot] builds a bot from its string;
[`parse_bot`][crapette.bots.parse_bot] reads a string without building anything, and
``str(spec)`` writes the canonical form back.

**Plug-ins.** An installed distribution adds bots through the entry point group
``crapette.bots``: each entry point's name is a bot name and its object a bot factory (as
[`register_bot`][crapette.bots.register_bot] takes it). In ``pyproject.toml``:

```toml
[project.entry-points."crapette.bots"]
mybot = "mypackage.bots:MyBot"
```

Then ``get_bot("mybot:64")``, ``simulate(..., "mybot,greedy", ...)`` and the command line
(``crapette simulate --bots mybot,greedy``, ``crapette play --bot mybot``) know the name.
The entry points are read once, on the first use of a bot name, and a plug-in's module is
imported only when its bot is first built (a module that fails to import then is an
``UnknownBotError`` naming the distribution). A name registered in the process with
``register_bot`` wins over a plug-in of the same name; a plug-in cannot take a shipped name.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import re
import warnings
from collections.abc import Callable

import attrs

from crapette._quote import quote
from crapette.bots.base import Bot, UnknownBotError

__all__ = ["BotSpec", "bot_names", "get_bot", "parse_bot", "register_bot", "unregister_bot"]

BotFactory = Callable[..., Bot]
"""Builds a bot: called as ``factory(seed)``, or ``factory(seed, *args)`` with the string
arguments of the bot string (``search:256`` calls ``factory(seed, "256")``)."""

_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")
_FALLIBLE_KEYS = (
    "miss",
    "miss_reserve",
    "miss_foundation",
    "miss_order",
    "miss_filling",
    "call",
    "false_call",
)


ENTRY_POINTS = "crapette.bots"
"""The entry point group of bot plug-ins."""


@attrs.frozen(slots=True)
class _Entry:
    factory: BotFactory | None  # None: a plug-in whose module is not imported yet
    summary: str
    plugin: importlib.metadata.EntryPoint | None = None


_REGISTRY: dict[str, _Entry] = {}
_SHIPPED = ("random", "greedy", "search", "planner", "expert", "allseeing", "allseeing-expert")
_discovered = False


def _dist(point: importlib.metadata.EntryPoint) -> str:
    dist = point.dist
    return f"{dist.name} {dist.version}" if dist is not None else "an unknown distribution"


def _origin(point: importlib.metadata.EntryPoint) -> str:
    return f"the plug-in {point.value!r} of {_dist(point)}"


def _discover() -> None:
    """Register the bots of the ``crapette.bots`` entry points (once per process)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for point in importlib.metadata.entry_points(group=ENTRY_POINTS):
        name = point.name
        if not _NAME.match(name) or name in _SHIPPED:
            why = "is a shipped bot" if name in _SHIPPED else "is not a valid bot name"
            warnings.warn(
                f"bot {quote(name)} of {_origin(point)} ignored: the name {why}", stacklevel=3
            )
            continue
        if name not in _REGISTRY:  # a name registered in the process wins
            _REGISTRY[name] = _Entry(None, f"a plug-in from {_dist(point)}", point)


def _factory(name: str) -> BotFactory:
    """The factory of a registered name, importing a plug-in's module on first use.

    Raises:
        UnknownBotError: the plug-in cannot be loaded, or its object is not callable.
    """
    entry = _REGISTRY[name]
    if entry.factory is not None:
        return entry.factory
    assert entry.plugin is not None
    try:
        factory = entry.plugin.load()
    except Exception as exc:
        raise UnknownBotError(
            f"bot {quote(name)}: {_origin(entry.plugin)} failed to load:"
            f" {type(exc).__name__}: {exc}"
        ) from exc
    if not callable(factory):
        raise UnknownBotError(
            f"bot {quote(name)}: {_origin(entry.plugin)} is not a bot factory"
            f" ({quote(repr(factory))})"
        )
    doc = inspect.getdoc(factory) or ""
    summary = doc.strip().splitlines()[0] if doc.strip() else entry.summary
    _REGISTRY[name] = _Entry(factory, summary, entry.plugin)
    return factory  # type: ignore[no-any-return]


def register_bot(
    name: str, factory: BotFactory, *, summary: str = "", replace: bool = False
) -> None:
    """Make ``name`` a bot name of [`get_bot`][crapette.bots.get_bot] (and so of ``simulate``,
    ``compare``, the ladder and the command line in the same process).

    Args:
        name: lower-case letters, digits, ``_`` and ``-``, starting with a letter.
        factory: ``factory(seed)`` (or ``factory(seed, *args)`` for bot strings with
            arguments, such as ``mybot:64``) returns a new [`Bot`][crapette.bots.Bot].
        summary: one line for listings.
        replace: allow replacing a name already registered.

    Raises:
        UnknownBotError: a malformed name, a factory that is not callable, or a name already
            registered without ``replace=True`` (a ``ValueError``).
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise UnknownBotError(
            f"bad bot name {quote(str(name))}: lower-case letters, digits, _ and -, starting"
            " with a letter"
        )
    if not callable(factory):
        raise UnknownBotError(
            f"the factory of bot {quote(name)} is not callable: {quote(repr(factory))}"
        )
    if name in _REGISTRY and not replace:
        raise UnknownBotError(f"bot {quote(name)} is already registered (pass replace=True)")
    _REGISTRY[name] = _Entry(factory, summary)


def unregister_bot(name: str) -> None:
    """Remove a registered name (a no-op when it is not registered)."""
    _discover()
    _REGISTRY.pop(name, None)


def bot_names() -> tuple[str, ...]:
    """Every registered bot name, in registration order: the shipped bots first, then the
    names registered in the process and the plug-ins of the ``crapette.bots`` entry points."""
    _discover()
    return tuple(_REGISTRY)


def bot_summaries() -> dict[str, str]:
    """Every registered name with its one-line summary."""
    _discover()
    return {name: entry.summary for name, entry in _REGISTRY.items()}


@attrs.frozen(slots=True)
class BotSpec:
    """A parsed bot string.

    Attributes:
        name: the registered name.
        args: the factory's arguments (strings), in order.
        params: the fallible player's parameters (key, value) in the order given; empty for
            a bot that is not wrapped.
    """

    name: str
    args: tuple[str, ...] = ()
    params: tuple[tuple[str, float], ...] = ()

    def __str__(self) -> str:
        parts = [self.name, *self.args, *(f"{k}={_number(v)}" for k, v in self.params)]
        return ":".join(parts)


def _number(value: float) -> str:
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _known() -> str:
    return ", ".join(_REGISTRY)


def parse_bot(text: str) -> BotSpec:
    """Read a bot string (see the module documentation) without building the bot.

    Raises:
        UnknownBotError: not a string, an unknown name, an unknown parameter, a value that
            is not a number in [0, 1], a parameter given twice, or an argument after a
            parameter. The message quotes the string and lists what is allowed.
    """
    if not isinstance(text, str):
        raise UnknownBotError(f"a bot name must be a str, not {quote(repr(text))}")
    _discover()
    parts = text.strip().split(":")
    name = parts[0]
    if name not in _REGISTRY:
        raise UnknownBotError(
            f"unknown bot {quote(name)} in {quote(text)}: expected one of {_known()}"
            " (options as in search:256 or greedy:miss=0.1:call=0.8)"
        )
    args: list[str] = []
    params: list[tuple[str, float]] = []
    for part in parts[1:]:
        key, eq, value = part.partition("=")
        if not eq:
            if params:
                raise UnknownBotError(
                    f"bot {quote(text)}: argument {quote(part)} after a parameter; arguments"
                    " come first"
                )
            if not part:
                raise UnknownBotError(f"bot {quote(text)}: an empty option between colons")
            args.append(part)
            continue
        if key not in _FALLIBLE_KEYS:
            raise UnknownBotError(
                f"bot {quote(text)}: unknown parameter {quote(key)}; expected one of"
                f" {', '.join(_FALLIBLE_KEYS)}"
            )
        if any(k == key for k, _ in params):
            raise UnknownBotError(f"bot {quote(text)}: parameter {quote(key)} given twice")
        # plain ASCII decimals only (float() would also take "1_0", " 0.5", "١" or "1e-1")
        number = float(value) if _DECIMAL.fullmatch(value) else -1.0
        if not 0.0 <= number <= 1.0:
            raise UnknownBotError(
                f"bot {quote(text)}: {key}={quote(value)} is not a probability (a number"
                " from 0 to 1)"
            )
        params.append((key, number))
    return BotSpec(name, tuple(args), tuple(params))


def _binds(factory: BotFactory, *args: object) -> bool:
    """Whether ``factory(*args)`` matches its signature (``True`` when it has none)."""
    try:
        inspect.signature(factory).bind(*args)
    except TypeError:
        return False
    except ValueError:  # a callable without a signature (a builtin): just try it
        return True
    return True


def get_bot(name: str, seed: int = 0) -> Bot:
    """A new bot from its bot string (see the module documentation).

    Args:
        name: e.g. ``"greedy"``, ``"search:256"``, ``"greedy:miss=0.1:call=0.8"``.
        seed: seeds the bot (and the fallible player's own generator); the same seed plays
            the same moves.

    Raises:
        UnknownBotError: an unknown name or parameter, a bad argument (for instance a
            search budget that is not a positive integer), or a value out of range; the
            message quotes the string and lists the known names or parameters.
    """
    spec = parse_bot(name)
    factory = _factory(spec.name)
    if not _binds(factory, seed, *spec.args):
        what = "no arguments" if not _binds(factory, seed, "") else "fewer arguments"
        given = ":".join(spec.args)
        raise UnknownBotError(
            f"bot {quote(name)}: {spec.name} takes {what} (given {quote(str(given))})"
        )
    try:
        bot = factory(seed, *spec.args)
    except UnknownBotError:
        raise
    except ValueError as exc:
        raise UnknownBotError(f"bad bot {quote(name)}: {exc}") from None
    if not spec.params:
        return bot
    from crapette.bots.fallible import Fallible

    try:
        player = Fallible(bot, seed=seed, **dict(spec.params))
    except ValueError as exc:
        raise UnknownBotError(f"bad bot {quote(name)}: {exc}") from None
    player.name = str(spec)
    return player
