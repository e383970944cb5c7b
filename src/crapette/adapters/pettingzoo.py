"""A PettingZoo AEC environment for one deal of Russian Bank (``pip install
crapette[pettingzoo]``).

::

    from crapette.adapters.pettingzoo import env

    game = env(rules="classic", max_moves=2000)
    game.reset(seed=42)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            action = game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

**Agents** are ``"player_0"`` and ``"player_1"``. A turn is a series of moves by one player,
so the same agent is often selected several times in a row: ``agent_selection`` always
names the player to act (during a "Stop!" decision, the opponent who may call it).

**Actions** are the integer codes of [`crapette.adapters.encoding`][crapette.adapters.encoding]
(``Discrete(rules.action_count)``: 791 for the standard pack, 1240 for the ``tarot`` and
``bobcrapette`` presets, 1296 for ``tarot78``; see
[`num_actions`][crapette.adapters.encoding.num_actions]), relative to the player to act. The
observation vector has [`observation_size(rules)`][crapette.adapters.encoding.observation_size]
values (1796 for the standard pack, 2646 for 77 cards, 2680 for 78).

**Observations** are dicts: ``"observation"``, the ``float32`` vector of
[`observation_vector`][crapette.adapters.encoding.observation_vector] built from the agent's
[`PlayerView`][crapette.views.PlayerView] (never a hidden card), and ``"action_mask"``, an
``int8`` 0/1 vector of the agent's legal actions (all zeros when it is not to act).

**Rewards** come only at the end of the deal and are zero-sum: a player gets
``(own score - opponent's score) / scale`` where the scores are those of
``crapette.outcome`` and ``scale = win_bonus + N * max(reserve_points, hand_points)`` (``N``
the pack's cards, 104 for the standard pack), the
largest score a deal can give, so rewards lie in ``[-1, 1]`` (with ``normalize=False`` the
raw score difference). A win, a stalemate and the rules' move cap all end the deal; a deal
ended by the move cap (``max_moves``) is reported as a *truncation*, the others as
*terminations*; the rewards are the same either way.

**Seeding**: ``reset(seed=s)`` deals ``crapette.new_game(rules, seed=s)``; a later
``reset()`` without a seed deals the next deal of a reproducible stream started by ``s``
(without any seed, the stream starts from OS entropy).

**No parallel API.** PettingZoo's ``ParallelEnv`` is for games whose agents act at the same
time; in Russian Bank they never do. One player acts at a time, makes a variable number of
moves in a row (a turn is many moves), and the opponent acts in the middle of that turn only
to decide a "Stop!". A parallel step would take an action from both agents every time and
throw one away (the waiting agent's mask is all zeros), and PettingZoo's own
``aec_to_parallel`` refuses games whose agents do not take turns in a fixed cycle; so the
environment is AEC only (``metadata["is_parallelizable"]`` is ``False``).
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]
from pettingzoo.utils.env import AECEnv as _AECEnvType  # type: ignore[import-untyped,unused-ignore]

from crapette import apply
from crapette.adapters.encoding import (
    action_mask,
    decode,
    num_actions,
    observation_size,
    observation_vector,
    reward_scale,
)
from crapette.deal import Rng, new_game
from crapette.errors import AdapterError, InvalidArgumentError
from crapette.outcome import outcome
from crapette.rules import Ruleset
from crapette.state import GameState
from crapette.text import board
from crapette.views import PlayerView, observe

__all__ = ["AGENTS", "env", "raw_env", "reward_scale"]

AGENTS = ("player_0", "player_1")
"""The agent names, by player number."""

RenderMode = Literal["ansi", "human"]


def _ruleset(rules: Ruleset | str | None) -> Ruleset:
    if rules is None:
        return Ruleset()
    if isinstance(rules, Ruleset):
        return rules
    return Ruleset.from_string(rules)


class raw_env(AECEnv):  # type: ignore[misc]
    """One deal of Russian Bank as a PettingZoo AEC environment (see the module docstring).

    Args:
        rules: a [`Ruleset`][crapette.Ruleset], a rules string (``"serbian"``,
            ``"classic(house_filling=none)"``) or ``None`` for ``classic``.
        render_mode: ``"ansi"`` (``render()`` returns the text) or ``"human"`` (prints it
            after every step), or ``None``.
        max_moves: if given, replaces the rules' move cap: the deal ends (as a truncation)
            after this many moves.
        normalize: divide the rewards by [`reward_scale`][crapette.adapters.pettingzoo.reward_scale]
            (the default) or give raw score differences.

    Raises:
        InvalidRulesError: a bad rules string or ``max_moves``.
        InvalidArgumentError: an unknown ``render_mode`` (a ``ValueError``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "render_modes": ["ansi", "human"],
        "name": "crapette_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rules: Ruleset | str | None = None,
        render_mode: RenderMode | None = None,
        max_moves: int | None = None,
        normalize: bool = True,
    ) -> None:
        super().__init__()
        ruleset = _ruleset(rules)
        if max_moves is not None:
            ruleset = ruleset.replace(move_cap=max_moves)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgumentError(
                f"render_mode {render_mode!r:.60} is not one of 'ansi', 'human'"
            )
        self.rules = ruleset
        self.render_mode = render_mode
        self.normalize = normalize
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        actions = num_actions(ruleset)
        self.action_spaces = {a: spaces.Discrete(actions) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, 1.0, shape=(observation_size(ruleset),), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
                }
            )
            for a in AGENTS
        }
        self.game_state: GameState | None = None
        self._stream: Rng | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(rules.action_count)`` (791 for the
        standard pack)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal: ``crapette.new_game(rules, seed=seed)`` when ``seed`` is given,
        else the next deal of the current seed stream. ``options`` is ignored."""
        if seed is not None:
            self._stream = Rng(seed)
            deal_seed = seed
        else:
            if self._stream is None:
                self._stream = Rng(secrets.randbits(64))
            deal_seed = self._stream.next64()
        self.game_state = new_game(self.rules, seed=deal_seed)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.game_state.to_act]

    def _state(self) -> GameState:
        """The current position.

        Raises:
            AdapterError: ``reset()`` was never called.
        """
        if self.game_state is None:
            raise AdapterError(
                "the environment has no deal yet: call reset() before observing or stepping it"
            )
        return self.game_state

    def view(self, agent: str) -> PlayerView:
        """What ``agent`` sees of the current position."""
        return observe(self._state(), AGENTS.index(agent))

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The observation of ``agent``: its view as a vector and its action mask."""
        state = self._state()
        player = AGENTS.index(agent)
        if state.to_act == player:
            mask = action_mask(state)
        else:
            mask = np.zeros(num_actions(self.rules), dtype=np.int8)
        return {"observation": observation_vector(observe(state, player)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the move with code ``action`` for the selected agent (``None`` for an agent
        whose deal has ended).

        Raises:
            InvalidMoveError: the action is not an action code at all.
            IllegalMoveError: the action is not a legal move of the agent to act.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state()
        assert action is not None, "only an agent whose deal has ended may step None"
        state = apply(state, decode(action, self.rules))
        self.game_state = state
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        result = outcome(state)
        if result is not None:
            diff = float(result.scores[0] - result.scores[1])
            if self.normalize:
                diff /= reward_scale(self.rules)
            self.rewards = {AGENTS[0]: diff, AGENTS[1]: -diff}
            ended = self.truncations if result.reason == "move_cap" else self.terminations
            for a in self.agents:
                ended[a] = True
                self.infos[a] = {
                    "winner": result.winner,
                    "scores": result.scores,
                    "reason": result.reason,
                }
        self.agent_selection = AGENTS[state.to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The position as text ([`board`][crapette.text.board], the library's one board, in
        its ASCII card spelling): returned for ``"ansi"``, printed for ``"human"``. Only what
        the players see is shown (face-down cards are counted, not named)."""
        if self.render_mode is None:
            return None
        text = board(self._state(), hidden=True, ascii=True, names=AGENTS)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (text rendering only)."""


def env(
    rules: Ruleset | str | None = None,
    render_mode: RenderMode | None = None,
    max_moves: int | None = None,
    normalize: bool = True,
) -> _AECEnvType:
    """The environment wrapped as PettingZoo's classic games are: an illegal action ends the
    deal with reward -1 for its author, out-of-range actions are asserted, and the
    reset-before-use order is enforced. Arguments as for
    [`raw_env`][crapette.adapters.pettingzoo.raw_env]."""
    game = raw_env(rules=rules, render_mode=render_mode, max_moves=max_moves, normalize=normalize)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)
