"""Fixed-size numeric encodings for learning agents: integer actions, action masks and
observation vectors.

**Actions.** Every possible move has a fixed integer code, its place in
[`ALL_MOVES`][crapette.moves.ALL_MOVES] (``move.index``). A ruleset uses the first
[`num_actions(rules)`][crapette.adapters.encoding.num_actions] codes
(``Ruleset.action_count``): 791 for the standard pack
([`NUM_ACTIONS`][crapette.adapters.encoding.NUM_ACTIONS]), 792 with ``turn_end="flip"``, 848
for ``tarot56``, 1240 for ``tarot77`` (the ``tarot`` and ``bobcrapette`` presets) and 1296 for
``tarot78``: the flip and the longer house-to-house groups of the larger packs come after the
standard pack's codes, so a standard-pack code means the same move in every ruleset.
Actions are *relative to the player to act*: ``R-F`` (code of
``Move.play(RESERVE, FOUNDATION)``) means "my reserve to a foundation" for whichever player is
to act, and ``T-OW`` loads the opponent's waste. Houses keep their absolute
numbers (0..3 are player 0's column, 4..7 player 1's), as in the move text ``H1``..``H8``.

**Observations.** [`observation_vector`][crapette.adapters.encoding.observation_vector] turns a
[`PlayerView`][crapette.views.PlayerView] (what one player sees, never a hidden card) into a
``float32`` vector of [`observation_size(rules)`][crapette.adapters.encoding.observation_size]
values, all in ``[0, 1]`` ([`OBSERVATION_SIZE`][crapette.adapters.encoding.OBSERVATION_SIZE],
1796, for the standard pack; 1932 for ``tarot56``, 2646 for ``tarot77``, 2680 for
``tarot78``). ``N`` below is the number of cards of the rules' pack, both players' (104, 112,
154 or 156; [`card_count`][crapette.adapters.encoding.card_count]):

- for each of the ``N`` cards (in code order), 17 values: a one-hot of where the card lies,
  seen by the observer ([`CARD_LOCATIONS`][crapette.adapters.encoding.CARD_LOCATIONS]: a foundation,
  house 1..8, my reserve, the opponent's reserve, my waste, the opponent's waste, the turned hand
  card, or hidden), then 1 if the card is the top (exposed) card of its pile, then its depth below
  the top of its pile divided by ``N`` (0 for the top card and for hidden cards); all
  foundations are one location, so the tarot packs' 10 foundations need no more values;
- 8 scalars, counts divided by ``N``: face-down cards of my reserve and of the opponent's,
  cards in my hand and in the opponent's (the turned card not counted), whole reserve sizes
  (mine, the opponent's), waste sizes (mine, the opponent's);
- 12 values: the flags "I am to act", "it is my turn", "a Stop! decision is open", "I made
  the violation it is about", "I am player 1", my pass mark and the opponent's (a one-hot
  of 0, 1, 2 each, see ``GameState.passes``), then the moves made divided by the move cap;
- 8 flags: house ``h`` was emptied this turn and is still empty
  (``house_filling="immediate"``).

"My" is the observer's. Houses are absolute, like the actions; the flag "I am player 1"
tells a learner which column is its own. The Stop! flags do not say which move broke the
priority rule; the view's text form
([`PlayerView.to_string`][crapette.views.PlayerView.to_string]) does.

``numpy`` is needed only by [`action_mask`][crapette.adapters.encoding.action_mask] and
[`observation_vector`][crapette.adapters.encoding.observation_vector] (install the
``crapette[pettingzoo]`` or ``crapette[openspiel]`` extra).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from crapette import legal_moves
from crapette._quote import show
from crapette.cards import PACKS
from crapette.errors import InvalidMoveError
from crapette.moves import ALL_MOVES, STANDARD_MOVES, Move
from crapette.rules import Ruleset
from crapette.state import GameState
from crapette.views import PlayerView

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CARD_FEATURES",
    "CARD_LOCATIONS",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "action_mask",
    "card_count",
    "decode",
    "encode",
    "legal_actions",
    "num_actions",
    "observation_size",
    "observation_vector",
    "reward_scale",
]

NUM_ACTIONS: Final = STANDARD_MOVES
"""The number of action codes of the standard pack with discards (791): its codes are
``0 .. NUM_ACTIONS - 1``; other rulesets:
[`num_actions`][crapette.adapters.encoding.num_actions]."""

CARD_LOCATIONS: Final = (
    "foundation",
    "H1",
    "H2",
    "H3",
    "H4",
    "H5",
    "H6",
    "H7",
    "H8",
    "my_reserve",
    "opp_reserve",
    "my_waste",
    "opp_waste",
    "turned",
    "hidden",
)
"""The locations of the one-hot part of each card's features, in order."""

CARD_FEATURES: Final = len(CARD_LOCATIONS) + 2
"""Values per card: the location one-hot, the top-of-pile flag, the depth."""

_LOC_FOUNDATION: Final = 0
_LOC_HOUSE: Final = 1
_LOC_MY_RESERVE: Final = 9
_LOC_OPP_RESERVE: Final = 10
_LOC_MY_WASTE: Final = 11
_LOC_OPP_WASTE: Final = 12
_LOC_TURNED: Final = 13
_LOC_HIDDEN: Final = 14
_SCALARS: Final = 8
_FLAGS: Final = 12
_EMPTIED: Final = 8

OBSERVATION_SIZE: Final = 104 * CARD_FEATURES + _SCALARS + _FLAGS + _EMPTIED
"""The length of [`observation_vector`][crapette.adapters.encoding.observation_vector] for the
standard pack (1796); other packs:
[`observation_size`][crapette.adapters.encoding.observation_size]."""


def num_actions(rules: Ruleset) -> int:
    """The number of action codes ``rules`` uses (``rules.action_count``): its codes are
    ``0 .. num_actions(rules) - 1``, and every legal move's code is among them."""
    return rules.action_count


def card_count(rules: Ruleset) -> int:
    """The number of cards of the rules' pack, both players' (104, 112, 154 or 156)."""
    return len(PACKS[rules.pack].cards)


def observation_size(rules: Ruleset) -> int:
    """The length of [`observation_vector`][crapette.adapters.encoding.observation_vector] under
    ``rules``: 17 values per card of the pack, then 28 (1796 for the standard pack)."""
    return card_count(rules) * CARD_FEATURES + _SCALARS + _FLAGS + _EMPTIED


def encode(move: Move) -> int:
    """The integer action code of ``move`` (its ``index`` in
    [`ALL_MOVES`][crapette.moves.ALL_MOVES]).

    Raises:
        TypeError: ``move`` is not a ``Move``.
    """
    if not isinstance(move, Move):
        raise TypeError(f"encode() needs a Move, not {move!r} ({type(move).__name__})")
    return move.index


def decode(action: int, rules: Ruleset | None = None) -> Move:
    """The move with integer action code ``action`` (relative to the player to act).

    Accepts any integer type, numpy integers included.

    Args:
        action: the code.
        rules: the ruleset whose codes are meant (default: the standard pack's 791 codes).

    Raises:
        InvalidMoveError: ``action`` is not an integer in ``0 .. num_actions(rules) - 1``.
    """
    top = NUM_ACTIONS if rules is None else num_actions(rules)
    try:
        code = int(action.__index__())
    except (AttributeError, TypeError):
        raise InvalidMoveError(
            f"action {show(action)} is not an integer action code (0..{top - 1})"
        ) from None
    if isinstance(action, bool) or not 0 <= code < top:
        raise InvalidMoveError(f"action {show(action)} is outside 0..{top - 1}")
    return ALL_MOVES[code]


def reward_scale(rules: Ruleset) -> int:
    """The largest score one deal can give under ``rules``:
    ``win_bonus + N * max(reserve_points, hand_points)``, ``N`` the pack's cards (104 for
    the standard pack; [`card_count`][crapette.adapters.encoding.card_count]). Both adapters
    divide score differences by it, so rewards lie in ``[-1, 1]``."""
    return rules.win_bonus + card_count(rules) * max(rules.reserve_points, rules.hand_points)


def legal_actions(state: GameState) -> list[int]:
    """The codes of the legal moves of the player to act, ascending (empty iff the deal is
    over)."""
    return [move.index for move in legal_moves(state)]


def action_mask(state: GameState) -> npt.NDArray[np.int8]:
    """A 0/1 ``int8`` array of length
    [`num_actions(state.rules)`][crapette.adapters.encoding.num_actions]: 1 at the code of every
    legal move of the player to act (all zeros once the deal is over)."""
    import numpy as np

    mask = np.zeros(num_actions(state.rules), dtype=np.int8)
    mask[legal_actions(state)] = 1
    return mask


def observation_vector(view: PlayerView) -> npt.NDArray[np.float32]:
    """The fixed-size ``float32`` encoding of a player's view (see the module docstring for
    the layout). Only what the view shows is encoded: the hidden cards all read "hidden".
    """
    import numpy as np

    n = card_count(view.rules)
    part = n * CARD_FEATURES
    out = np.zeros(part + _SCALARS + _FLAGS + _EMPTIED, dtype=np.float32)
    cards = out[:part].reshape(n, CARD_FEATURES)
    cards[:, _LOC_HIDDEN] = 1.0
    me = view.player
    opp = 1 - me

    placed: list[int] = []
    locations: list[int] = []
    depths: list[int] = []

    def put(pile: tuple[int, ...], location: int) -> None:
        size = len(pile)
        placed.extend(pile)
        locations.extend([location] * size)
        depths.extend(range(size - 1, -1, -1))

    for pile in view.foundations:
        put(pile, _LOC_FOUNDATION)
    for h, pile in enumerate(view.houses):
        put(pile, _LOC_HOUSE + h)
    put(view.reserves_up[me], _LOC_MY_RESERVE)
    put(view.reserves_up[opp], _LOC_OPP_RESERVE)
    put(view.wastes[me], _LOC_MY_WASTE)
    put(view.wastes[opp], _LOC_OPP_WASTE)
    if view.turned is not None:
        put((view.turned,), _LOC_TURNED)
    if placed:
        rows = np.asarray(placed, dtype=np.intp)
        depth = np.asarray(depths, dtype=np.float32)
        cards[rows, _LOC_HIDDEN] = 0.0
        cards[rows, np.asarray(locations, dtype=np.intp)] = 1.0
        cards[rows, CARD_FEATURES - 2] = depth == 0
        cards[rows, CARD_FEATURES - 1] = depth / n

    reserve_sizes = view.reserve_sizes
    i = part
    out[i : i + _SCALARS] = (
        view.reserves_down[me] / n,
        view.reserves_down[opp] / n,
        view.hand_sizes[me] / n,
        view.hand_sizes[opp] / n,
        reserve_sizes[me] / n,
        reserve_sizes[opp] / n,
        len(view.wastes[me]) / n,
        len(view.wastes[opp]) / n,
    )
    i += _SCALARS
    stop = view.stop
    out[i] = view.to_act == me
    out[i + 1] = view.turn_player == me
    out[i + 2] = stop is not None
    out[i + 3] = stop is not None and stop.offender == me
    out[i + 4] = me == 1
    out[i + 5 + min(view.passes[me], 2)] = 1.0
    out[i + 8 + min(view.passes[opp], 2)] = 1.0
    out[i + 11] = min(view.moves_made / max(view.rules.move_cap, 1), 1.0)
    i += _FLAGS
    for h in range(8):
        out[i + h] = (view.emptied >> h) & 1
    return out
