"""The OpenSpiel game ``python_crapette``: one deal of Russian Bank (``pip install
crapette[openspiel]``). Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import crapette.adapters.openspiel  # registers python_crapette

    game = pyspiel.load_game("python_crapette(rules=serbian,move_cap=2000)")

**Game parameters**

- ``rules`` (string, ``"classic"``): the ruleset, a preset name or a ruleset string.
  OpenSpiel game strings reserve ``( ) , =``, so a ruleset with options is written with
  ``[ ] ; :`` instead: ``serbian[house_filling:immediate;stop:undo]`` is
  ``serbian(house_filling=immediate, stop=undo)``. Both spellings are accepted (the usual
  one only through a parameter dict); [`rules_param`][crapette.adapters.openspiel.rules_param]
  converts.
- ``move_cap`` (int, ``0``): if positive, replaces the rules' move cap. It bounds the deal:
  ``max_game_length()`` is the move cap. Keep it small for tree search and tests.
- ``num_deals`` (int, ``10000``) and ``deal_offset`` (int, ``0``): the deal is a **chance
  node** at the start of the game, with ``num_deals`` equally likely outcomes; outcome
  ``k`` deals ``crapette.new_game(rules, seed=deal_offset + k)``. Change ``deal_offset``
  to evaluate on deals never seen in training.
- ``normalize`` (bool, ``True``): divide the returns by the largest possible score (see
  below), or give raw score differences.

**Actions** are the integer codes of [`crapette.adapters.encoding`][crapette.adapters.encoding],
relative to the player to act; a player makes several moves in a row during a turn. Their
number, ``num_distinct_actions()``, is the ruleset's ``Ruleset.action_count``: 791 for the
standard pack, 1240 for the ``tarot`` and ``bobcrapette`` presets (77 cards), 1296 for
``tarot78`` (see [`num_actions`][crapette.adapters.encoding.num_actions]); the observation
tensor has [`observation_size(rules)`][crapette.adapters.encoding.observation_size] values
(1796 for the standard pack, 2646 for 77 cards, 2680 for 78).

**Returns** are zero-sum and come at the end of the deal: player 0 gets
``(score_0 - score_1) / scale`` with the scores of ``crapette.outcome`` and
``scale = win_bonus + N * max(reserve_points, hand_points)``, ``N`` the pack's cards (104 for
the standard pack, 154 for ``tarot77``; so returns lie in
``[-1, 1]``), player 1 the opposite.

**Information.** Face-down cards are hidden from both players alike (nothing is private to
one player), so the game is of imperfect information with only public observations:

- the observation string is [`PlayerView.to_string`][crapette.views.PlayerView.to_string] of
  the player's view, and the observation tensor is
  [`observation_vector`][crapette.adapters.encoding.observation_vector];
- the information-state string (perfect recall) is the player's view at the deal, then one
  line per move: the mover, the move and the cards the move turned face up with where they
  now lie (``T`` the turned hand card, ``R0``/``R1`` a reserve, ``W0``/``W1`` a waste after
  a flip), e.g. ``1 draw +7h@T``, ``0 flip +17M@W0``.

**Resampling**: ``CrapetteState.resample_from_infostate(player, sampler)`` deals the cards a
player cannot see at random (the [`determinize`][crapette.views.determinize] of the player's
view), which is what OpenSpiel's information-set Monte Carlo tree search needs; so
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays the game::

    from open_spiel.python.algorithms import ismcts, mcts

    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(), uct_c=2.0, max_simulations=100)
    action = bot.step(state)

**Serialization**: OpenSpiel serializes a Python state as a pickle of its attributes; the
position inside is stored as its ``crapette.notation.format_position`` text, so
``pyspiel.serialize_game_and_state`` and ``deserialize_game_and_state`` round-trip.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from crapette import apply_unchecked
from crapette.adapters.encoding import (
    OBSERVATION_SIZE,
    decode,
    legal_actions,
    num_actions,
    observation_size,
    observation_vector,
    reward_scale,
)
from crapette.bots.base import Bot
from crapette.deal import Rng, new_game
from crapette.errors import InvalidArgumentError, InvalidMoveError, InvalidRulesError
from crapette.moves import ALL_MOVES, RESERVE, Action, Move
from crapette.notation import format_position, parse_position
from crapette.outcome import outcome
from crapette.rules import Ruleset
from crapette.state import GameState
from crapette.views import determinize, observe

__all__ = [
    "DEFAULT_PARAMS",
    "GAME_TYPE",
    "CrapetteGame",
    "CrapetteObserver",
    "CrapetteState",
    "OpenSpielBot",
    "parse_rules_param",
    "rules_param",
]

SHORT_NAME: Final = "python_crapette"

DEFAULT_PARAMS: Final[dict[str, Any]] = {
    "rules": "classic",
    "move_cap": 0,
    "num_deals": 10000,
    "deal_offset": 0,
    "normalize": True,
}
"""The game parameters and their defaults."""

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Russian Bank (Crapette)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)
"""The registered `pyspiel.GameType`."""

_TO_SAFE: Final = str.maketrans({"(": "[", ")": "]", ",": ";", "=": ":", " ": None})
_FROM_SAFE: Final = str.maketrans({"[": "(", "]": ")", ";": ",", ":": "="})


def rules_param(rules: Ruleset | str) -> str:
    """The ``rules`` game parameter for a ruleset: its canonical string written with
    ``[ ] ; :`` (``"serbian[house_filling:immediate]"``), which OpenSpiel game strings can
    carry.

    Raises:
        InvalidRulesError: ``rules`` is a string that is not a valid ruleset.
    """
    ruleset = rules if isinstance(rules, Ruleset) else parse_rules_param(rules)
    return ruleset.to_string().translate(_TO_SAFE)


def parse_rules_param(text: str) -> Ruleset:
    """The ruleset of a ``rules`` game parameter, in either spelling
    (``"serbian[stop:undo]"`` or ``"serbian(stop=undo)"``).

    Raises:
        InvalidRulesError: not a valid ruleset.
    """
    if not isinstance(text, str):
        raise InvalidRulesError(f"the rules parameter must be a string, not {text!r}")
    return Ruleset.from_string(text.translate(_FROM_SAFE))


_NO_REVEAL: Final = frozenset((Action.DISCARD, Action.END_TURN))


@functools.lru_cache(maxsize=8)
def _uniform(n: int) -> list[tuple[int, float]]:
    p = 1.0 / n
    return [(k, p) for k in range(n)]


class CrapetteGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_crapette`` (see the module docstring for its parameters).

    Attributes:
        rules: the ruleset of the deals (with ``move_cap`` applied).
        num_deals: the number of chance outcomes of the deal.
        deal_offset: the seed of chance outcome 0.
        normalize: whether returns are divided by the largest possible score.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**DEFAULT_PARAMS, **(params or {})}
        unknown = set(given) - set(DEFAULT_PARAMS)
        if unknown:
            raise InvalidRulesError(
                f"unknown parameter(s) {', '.join(sorted(unknown))} for {SHORT_NAME}:"
                f" expected {', '.join(DEFAULT_PARAMS)}"
            )
        base = parse_rules_param(given["rules"])
        rules = base
        move_cap = int(given["move_cap"])
        if move_cap < 0:
            raise InvalidRulesError(f"move_cap={move_cap} is invalid: expected 0 or more")
        if move_cap:
            rules = rules.replace(move_cap=move_cap)
        num_deals = int(given["num_deals"])
        if num_deals < 1:
            raise InvalidRulesError(f"num_deals={num_deals} is invalid: expected 1 or more")
        self.rules = rules
        self.num_deals = num_deals
        self.deal_offset = int(given["deal_offset"])
        self.normalize = bool(given["normalize"])
        bound = float(reward_scale(rules))
        if self.normalize:
            bound = 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(rules),
            max_chance_outcomes=num_deals,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=rules.move_cap,
        )
        canonical = {
            "rules": rules_param(base),
            "move_cap": move_cap,
            "num_deals": num_deals,
            "deal_offset": self.deal_offset,
            "normalize": self.normalize,
        }
        super().__init__(GAME_TYPE, info, canonical)

    def new_initial_state(self) -> CrapetteState:
        """The state before the deal (a chance node)."""
        return CrapetteState(self)

    def max_chance_nodes_in_history(self) -> int:
        """One: the deal."""
        return 1

    def make_py_observer(
        self,
        iig_obs_type: Any = None,
        params: dict[str, Any] | None = None,
    ) -> CrapetteObserver:
        """The observer: perfect-recall observation types get the information-state
        string (no tensor), the others the view's string and vector."""
        if params:
            raise InvalidArgumentError(f"observation parameters are not supported: {params!r:.60}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CrapetteObserver(perfect_recall, observation_size(self.rules))


class _Frozen:
    """An immutable position held by a state, with its outcome worked out once: shared (not
    copied) by ``State.clone`` and pickled as its position text."""

    __slots__ = ("result", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.result = outcome(state)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Frozen:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_thaw, (format_position(self.state),))


def _thaw(text: str) -> _Frozen:
    return _Frozen(parse_position(text))


class CrapetteState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_crapette``: before the deal (a chance node), during it, or at
    its end. The [`GameState`][crapette.GameState] is
    [`game_state`][crapette.adapters.openspiel.CrapetteState.game_state]."""

    def __init__(self, game: CrapetteGame) -> None:
        super().__init__(game)
        self._held: _Frozen | None = None
        self._rules_text = game.rules.to_string()
        self._num_deals = game.num_deals
        self._offset = game.deal_offset
        self._normalize = game.normalize
        self._opening: tuple[str, str] = ("", "")
        self._record: tuple[str, ...] = ()

    @property
    def game_state(self) -> GameState | None:
        """The position, or ``None`` before the deal."""
        return None if self._held is None else self._held.state

    def _state(self) -> GameState:
        assert self._held is not None, "the deal has not been made"
        return self._held.state

    def current_player(self) -> int:
        """The player to act, ``CHANCE`` before the deal or ``TERMINAL`` after it."""
        held = self._held
        if held is None:
            return int(pyspiel.PlayerId.CHANCE)
        if held.result is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return held.state.to_act

    def _legal_actions(self, player: int) -> list[int]:
        """The codes of the legal moves of ``player`` (the player to act), ascending."""
        return legal_actions(self._state())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals: ``num_deals`` equally likely outcomes."""
        assert self._held is None, "the only chance node is the deal"
        return _uniform(self._num_deals)

    def _apply_action(self, action: int) -> None:
        if self._held is None:
            if not 0 <= action < self._num_deals:
                raise InvalidMoveError(f"no such deal {action}: deals are 0..{self._num_deals - 1}")
            rules = Ruleset.from_string(self._rules_text)
            start = new_game(rules, seed=self._offset + action)
            self._held = _Frozen(start)
            self._opening = (observe(start, 0).to_string(), observe(start, 1).to_string())
            return
        before = self._held.state
        move = decode(action, self._held.state.rules)
        after = apply_unchecked(before, move)
        self._held = _Frozen(after)
        self._record = (*self._record, _record_line(before, after, move))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed={self._offset + action}"
        return str(ALL_MOVES[action])

    def is_terminal(self) -> bool:
        """Whether the deal has ended (a win, a stalemate or the move cap)."""
        return self._held is not None and self._held.result is not None

    def returns(self) -> list[float]:
        """Zero-sum returns at the end of the deal (see the module docstring); zeros before."""
        if self._held is None or self._held.result is None:
            return [0.0, 0.0]
        result = self._held.result
        diff = float(result.scores[0] - result.scores[1])
        if self._normalize:
            diff /= reward_scale(self._held.state.rules)
        return [diff, -diff]

    def _information_state(self, player: int) -> str:
        """The information-state string of ``player`` (see the module docstring)."""
        if self._held is None:
            return f"player {player}: before the deal"
        return "\n".join((self._opening[player], *self._record))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> CrapetteState:
        """A state that ``player_id`` cannot tell from this one: the same history, the same
        visible cards, and the face-down cards (both hands and the face-down reserve cards)
        dealt at random ([`determinize`][crapette.views.determinize] of the player's view).

        Its information-state string is this state's for both players (the face-down cards
        are hidden from both alike). The sample follows the current view: the order of a
        hand turned over from a waste, which the players saw, is dealt at random like any
        hidden order. Before the deal and after its end the state is returned as it is (a
        copy).

        Args:
            player_id: the player whose information the sample keeps (0 or 1).
            probability_sampler: a function returning a number in ``[0, 1)`` each time it is
                called, such as ``pyspiel.UniformProbabilitySampler(0., 1.)`` (what
                OpenSpiel's IS-MCTS passes) or ``numpy.random.RandomState(seed).uniform``
                for a reproducible sample; it is called once, to seed the deal of the hidden
                cards.

        Raises:
            InvalidArgumentError: ``player_id`` is not 0 or 1.
        """
        if player_id not in (0, 1):
            raise InvalidArgumentError(f"player_id must be 0 or 1, not {player_id!r:.40}")
        sample = self.clone()
        held = self._held
        if held is None or held.result is not None:
            return sample  # type: ignore[no-any-return]
        seed = int(float(probability_sampler()) * 2.0**53)
        sample._held = _Frozen(determinize(observe(held.state, player_id), Rng(seed)))
        return sample  # type: ignore[no-any-return]

    def __str__(self) -> str:
        if self._held is None:
            return "before the deal"
        return format_position(self._held.state)


def _record_line(before: GameState, after: GameState, move: Move) -> str:
    """One line of the information state: mover, move, and the cards it turned face up."""
    if move.action in _NO_REVEAL or (move.is_play and move.source != RESERVE):
        # Only drawing, flipping, revealing, playing from a reserve and the Stop! decisions
        # (which may make a missed reserve move) can turn a face-down card up.
        return f"{before.to_act} {move}"
    hidden = set(before.hands[0]) | set(before.hands[1])
    for p in (0, 1):
        reserve = before.reserves[p]
        hidden.update(reserve[: len(reserve) - before.reserve_up[p]])
    shown = []
    if after.turned is not None and after.turned in hidden:
        shown.append(f"+{after.turned.text}@T")
    for p in (0, 1):
        reserve = after.reserves[p]
        for card in reserve[len(reserve) - after.reserve_up[p] :]:
            if card in hidden:
                shown.append(f"+{card.text}@R{p}")
        waste = after.wastes[p]
        if waste and waste[-1] in hidden:  # a flip (turn_end="flip") shows a hand card
            shown.append(f"+{waste[-1].text}@W{p}")
    return " ".join((str(before.to_act), str(move), *shown))


class CrapetteObserver:
    """OpenSpiel's Python observer protocol: ``tensor``/``dict`` filled by
    [`set_from`][crapette.adapters.openspiel.CrapetteObserver.set_from], and
    [`string_from`][crapette.adapters.openspiel.CrapetteObserver.string_from].

    Args:
        perfect_recall: give the information-state string (and no tensor) instead of the
            current view.
    """

    def __init__(self, perfect_recall: bool, size: int = OBSERVATION_SIZE) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: npt.NDArray[np.float32] | None
        self.dict: dict[str, npt.NDArray[np.float32]]
        if perfect_recall:
            self.tensor = None
            self.dict = {}
        else:
            self.tensor = np.zeros(size, dtype=np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CrapetteState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into
        ``tensor`` (zeros before
        the deal)."""
        if self.tensor is None:
            return
        game_state = state.game_state
        if game_state is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = observation_vector(observe(game_state, player))

    def string_from(self, state: CrapetteState, player: int) -> str:
        """``player``'s information-state string (perfect recall) or view string."""
        if self.perfect_recall:
            return state._information_state(player)
        game_state = state.game_state
        if game_state is None:
            return f"player {player}: before the deal"
        return observe(game_state, player).to_string()


class OpenSpielBot(pyspiel.Bot):  # type: ignore[misc]
    """An OpenSpiel bot that plays a ``crapette`` bot (``crapette.bots.RandomBot``, ...):
    it shows the bot the player's view and answers the code of the bot's move.

    Args:
        bot: the ``crapette`` bot.
        player_id: the player it plays (0 or 1).
    """

    def __init__(self, bot: Bot, player_id: int) -> None:
        super().__init__()
        self.bot = bot
        self.player_id = player_id

    def step(self, state: CrapetteState) -> int:
        """The bot's move in ``state``, as an action code."""
        game_state = state.game_state
        assert game_state is not None, "the deal has not been made"
        return self.bot.choose(observe(game_state, self.player_id)).index

    def restart_at(self, state: CrapetteState) -> None:
        """Nothing to reset (the bot sees only the current view)."""

    def inform_action(self, state: CrapetteState, player_id: int, action: int) -> None:
        """Ignored (the bot sees only the current view)."""


pyspiel.register_game(GAME_TYPE, CrapetteGame)
