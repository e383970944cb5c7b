"""The expert: the planner's lines, judged by the chance of winning the deal, the best of
them judged again by deeper play-outs.

The expert plans like the planner ([`crapette.bots.planner`][crapette.bots.planner]): at a
decision with a real choice it lists the lines of its own moves up to the next new card and
follows the chosen line. It judges them in two stages:

1. **Ranking by the chance of winning.** The planner ranks lines by the mean of a card
   count (the opponent's count minus its own after greedy play-outs, plus or minus 100 for
   a deal won or lost on the way). The expert scores the same play-outs by the *win
   probability* of the position they reach, from a value model fitted on the outcomes of
   self-play deals (``expert_model.json``, read by ``crapette.bots.value``):
   a count lead is worth little once the deal is won anyway and much when it is close.
   Sequential halving spends ``budget`` play-outs. Stopping is a line too: at every
   position of a line the expert also tries its boundary move (turning a hand card,
   discarding, ending the turn) however the greedy ranking places it.
2. **Deep play-outs for the finalists.** The ``finalists`` best lines are judged again on
   ``deep`` fresh samples (the same for every finalist) by
   [`deep_play_out`][crapette.bots.expert.deep_play_out]: the rest of the turn being played
   and the opponent's next turn are played by a player who looks one move ahead on the
   sample ([`lookahead_move`][crapette.bots.expert.lookahead_move]), then greedy play. The
   play-outs of the first stage are greedy, and greedy play misses what a planning player
   finds (a two-move opening left to the opponent, a move set up for oneself), the same way
   on every sample; the deeper play-outs cost about ten greedy ones each, so only the few
   lines the first stage cannot separate get them, and they race
   ([`race`][crapette.bots.expert.race]): a finalist clearly behind the leader on the
   samples so far is judged no further. The native engine plays a deep play-out in C.

Its lines go further than the planner's where the player knows its hand (remembered from
the waste turned over, or empty: the next card turned is the waste's bottom card): turning a
hand card shows nothing new there, so its lines go on through the cards turned
(``through_hand``; [`expert_lines`][crapette.bots.expert.expert_lines]) and it follows them
without searching again at each card.

Everything else is the planner's: the hand memory, common random numbers and following the
chosen line. See docs/bots.md ("The expert") for its figures against the planner.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Final

from crapette import apply_unchecked, legal_moves
from crapette._quote import show
from crapette.bots._greedy import (
    MOST_TURNS,
    _check_count,
    _check_player,
    _check_rng,
    _check_state,
    play_out,
)
from crapette.bots.greedy import greedy_move
from crapette.bots.planner import HandMemory, Line, _boundary, _layout, _wins
from crapette.bots.search import MAX_BUDGET, candidates
from crapette.bots.value import LineScore, Sampler, ValueModel, Work, load_model, score_lines
from crapette.deal import Rng
from crapette.errors import UnknownBotError
from crapette.moves import Action, Move
from crapette.outcome import is_over
from crapette.state import _NATIVE, GameState, PythonState
from crapette.views import PlayerView, observe, sketch

__all__ = [
    "DEEP_MIN_SAMPLES",
    "DEEP_RACE_EVERY",
    "DEFAULT_DEEP_RACE",
    "DEFAULT_DEEP_SAMPLES",
    "DEFAULT_DEEP_WORK",
    "DEFAULT_EXPERT_BUDGET",
    "DEFAULT_FINALISTS",
    "DEFAULT_NODES",
    "DEFAULT_WIDTH",
    "LOOKAHEAD_WIDTH",
    "MAX_LOOKAHEAD_WIDTH",
    "ExpertBot",
    "deep_play_out",
    "expert_lines",
    "lines_after",
    "lookahead_move",
    "race",
    "score_deep",
]

DEFAULT_EXPERT_BUDGET = 4096
"""Play-outs per decision of [`ExpertBot`][crapette.bots.expert.ExpertBot] by default (its
first stage: the lines' ranking)."""

DEFAULT_FINALISTS = 6
"""Lines the expert judges again with deep play-outs (its second stage)."""

DEFAULT_DEEP_SAMPLES = 320
"""Samples of the hidden cards of the second stage (every finalist on each)."""

DEFAULT_DEEP_WORK = 20_000_000
"""The most work of the second stage, in legal moves scored by its play-outs' greedy
choices (``Work.scored``): the stage takes no new sample once it has done more, so that
the rare position whose deep play-outs are long costs a bounded time on every machine."""

DEFAULT_DEEP_RACE = 2.5
"""The racing of the second stage: every ``DEEP_RACE_EVERY`` samples, a finalist whose
deep values fall short of the leader's by more than this many standard errors of their
paired differences (the same samples and seeds for both) is judged no further. ``0``: every
finalist takes every sample."""

DEEP_RACE_EVERY: Final = 32
"""How many samples of the second stage pass between two checks of its racing."""

DEEP_MIN_SAMPLES = 8
"""The samples the second stage takes at least, whatever its work."""

LOOKAHEAD_WIDTH = 2
"""Moves the deep play-outs' players compare at each decision."""

MAX_LOOKAHEAD_WIDTH: Final = 64
"""The widest look-ahead [`deep_play_out`][crapette.bots.expert.deep_play_out] takes (the
native engine's ``CR_MAX_WIDTH``)."""

DEFAULT_WIDTH = 4
"""Moves tried at each position of a line (besides the boundary move)."""

DEFAULT_NODES = 300
"""Positions expanded per decision at most."""

_STOPS = (Action.DRAW, Action.DISCARD, Action.END_TURN)


def expert_lines(
    state: GameState,
    width: int = DEFAULT_WIDTH,
    nodes: int = DEFAULT_NODES,
    limit: int = 1024,
    *,
    through_hand: bool = False,
) -> list[Line]:
    """The lines the expert compares in ``state`` (a view's sketch or a full state): the
    planner's lines ([`plan_lines`][crapette.bots.planner.plan_lines]), where every
    position also tries its boundary move (turning a hand card, discarding, ending the
    turn) when it is legal and not already among the ``width`` moves tried.

    With ``through_hand`` the player's hand in ``state`` is the true one (remembered, or
    empty: turning the waste over shows a card the player has seen), so turning a hand card
    shows nothing new and does not end a line: the lines go on through the hand cards
    turned, up to the end of the turn or an uncovered reserve card."""
    p = state.to_act
    out: list[Line] = []
    seen: set[tuple[object, ...]] = set()
    expanded = 0

    def walk(position: GameState, line: Line) -> None:
        nonlocal expanded
        key = _layout(position)
        if key in seen:
            return
        seen.add(key)
        if line and (expanded >= nodes or len(out) >= limit):
            out.append(line)
            return
        expanded += 1
        moves = legal_moves(position)
        tried = candidates(position, moves, width)
        for move in moves:
            if move.action in _STOPS and move not in tried:
                tried.append(move)
        for move in tried:
            if len(out) >= limit:
                return
            longer = (*line, move)
            if _boundary(position, move) and not (through_hand and move.action is Action.DRAW):
                out.append(longer)
                continue
            after = apply_unchecked(position, move)
            if is_over(after) or after.turn_player != p or after.stop is not None:
                out.append(longer)
                continue
            walk(after, longer)

    walk(state, ())
    return out


def lookahead_move(
    state: GameState, rng: Rng, width: int = LOOKAHEAD_WIDTH, work: Work | None = None
) -> Move:
    """The move of a deep play-out's player in ``state`` (a complete state, a sample of
    the hidden cards): among the ``width`` best moves by the greedy ranking, the one
    whose greedy play-out to the end of the opponent's next turn, on this state, scores
    best for the player; the greedy move where there is nothing to compare (one legal
    move, a Stop! decision, foundation moves only). It plays as a player who looks one
    move ahead with the cards known: a stand-in for a player who plans, which greedy play
    is not. Its play-outs' moves and scored moves are added to ``work``."""
    moves = legal_moves(state)
    if len(moves) == 1 or state.stop is not None:
        return greedy_move(state, rng, moves)
    tried = candidates(state, moves, width)
    if len(tried) == 1:
        return tried[0]
    q = state.to_act
    seed = rng.next64()
    best = tried[0]
    top: int | None = None
    for move in tried:
        value, positions, scored = play_out(apply_unchecked(state, move), q, Rng(seed))
        if work is not None:
            work.positions += positions
            work.scored += scored
        if top is None or value > top:
            best, top = move, value
    return best


def deep_play_out(
    state: GameState,
    p: int,
    rng: Rng,
    turns: int = 1,
    width: int = LOOKAHEAD_WIDTH,
    work: Work | None = None,
) -> int:
    """A deep play-out from ``state`` (complete) for player ``p``: the rest of the turn
    being played and the turn after it by [`lookahead_move`][crapette.bots.expert.lookahead_move]
    for both players, then greedy play to the end of the opponent's ``turns``-th next turn;
    returns the play-out value (as [`play_out`][crapette.bots.search.play_out]'s). The
    moves played and the legal moves scored, its cost, are added to ``work``.

    The native engine plays it in C (the expert spends most of its second stage here);
    ``tests/test_expert.py`` checks that it plays the very moves of this module's
    Python loop, the reference, with the same generator draws.

    Raises:
        TypeError: ``state`` is not a ``GameState`` or ``rng`` not an ``Rng``.
        InvalidArgumentError: ``p`` is not 0 or 1, ``turns`` not an integer from 1 to
            1,000,000, or ``width`` not one from 1 to ``MAX_LOOKAHEAD_WIDTH``.
    """
    _check_state(state)
    _check_player(p)
    _check_rng(rng)
    _check_count("turns", turns, MOST_TURNS)
    _check_count("width", width, MAX_LOOKAHEAD_WIDTH)
    if _NATIVE is not None and not isinstance(state, PythonState):
        value, positions, scored, rng._state = _NATIVE.deep_play_out(
            state, p, rng._state, turns, width
        )
        if work is not None:
            work.positions += positions
            work.scored += scored
        return int(value)
    return _deep_play_out(state, p, rng, turns, width, work)


def _deep_play_out(
    state: GameState, p: int, rng: Rng, turns: int, width: int, work: Work | None
) -> int:
    """``deep_play_out`` in Python: the reference of the native engine's loop, and the
    Python engine's."""
    moved = 0
    for own in (True, False):
        while moved < _DEEP_CAP and not is_over(state) and (state.turn_player == p) == own:
            state = apply_unchecked(state, lookahead_move(state, rng, width, work))
            moved += 1
    value, positions, scored = play_out(state, p, rng, turns)
    if work is not None:
        work.positions += moved + positions
        work.scored += scored
    return value


_DEEP_CAP = 400
"""The most moves the look-ahead part of a deep play-out makes."""


def score_deep(
    scores: Sequence[LineScore],
    p: int,
    sample: Callable[[], GameState],
    rng: Rng,
    model: ValueModel,
    samples: int,
    *,
    deadline: float | None = None,
    work: Work | None = None,
) -> Work:
    """Score every line on ``samples`` samples of the hidden cards by deep play-outs
    ([`deep_play_out`][crapette.bots.expert.deep_play_out]; the same samples and seeds for
    every line), through ``model`` (the value model of the deep play-outs); lines with an
    ``exact`` value take no samples. With a ``deadline`` (a ``time.perf_counter()`` value)
    it stops there, after two samples at least."""
    work = work if work is not None else Work()
    started = time.perf_counter()
    lines = [s for s in scores if s.exact is None]
    for k in range(samples):
        if not lines or (deadline is not None and k >= 2 and time.perf_counter() >= deadline):
            break
        start = sample()
        work.samples += 1
        seed = rng.next64()
        for score in lines:
            state = start
            for move in score.line:
                state = apply_unchecked(state, move)
            value = deep_play_out(state, p, Rng(seed))
            score.add(*model.value(value, start.rules))
            work.rollouts += 1
    work.seconds += time.perf_counter() - started
    return work


def race(wins: Sequence[Sequence[float]], judged: list[int], z: float) -> list[int]:
    """The finalists of ``judged`` still in the race: the leader (the best sum of
    ``wins``, ties to the first), and every other whose mean shortfall against the leader,
    over their paired samples, is at most ``z`` standard errors of that shortfall. The
    lines judged have the same samples, in the same order (``wins[k]`` for line ``k``)."""
    if len(judged) < 2:
        return judged
    leader = max(judged, key=lambda k: (sum(wins[k]), -k))
    top = wins[leader]
    n = len(top)
    kept = []
    for k in judged:
        if k != leader and n > 1:
            gaps = [a - b for a, b in zip(top, wins[k], strict=True)]
            mean = sum(gaps) / n
            spread = sum((g - mean) ** 2 for g in gaps) / (n - 1)
            if mean > 0 and mean * mean * n > z * z * spread:
                continue
        kept.append(k)
    return kept


def lines_after(state: GameState, move: Move, most: int) -> list[Line]:
    """Up to ``most`` lines that start with ``move`` in ``state`` (the expert's lines of the
    position after it, in their order, each prefixed with ``move``)."""
    p = state.to_act
    if _boundary(state, move) or state.stop is not None:
        return [(move,)]
    after = apply_unchecked(state, move)
    if is_over(after) or after.turn_player != p or after.stop is not None:
        return [(move,)]
    rest = expert_lines(after, DEFAULT_WIDTH, DEFAULT_NODES, most)
    return [(move, *line) for line in rest[:most]] or [(move,)]


class ExpertBot:
    """Plans its turn in lines up to the next new card like the planner, and chooses the
    line with the best mean win probability over samples of the hidden cards (see the
    module documentation).

    Attributes:
        budget: play-outs per decision.
        width: moves tried at each position of a line.
        nodes: positions expanded per decision at most.
        max_lines: the most lines a decision compares.
        through_hand: whether its lines go on through the hand cards it knows.
        memory: the hands' orders remembered from the views seen.
        line: the line chosen at the last decision that searched.
        lines: how many lines the last decision compared (0 when it did not search).
        work: what the last decision's scoring did (samples, play-outs, moves played).
    """

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        budget: int = DEFAULT_EXPERT_BUDGET,
        width: int = DEFAULT_WIDTH,
        nodes: int = DEFAULT_NODES,
        finalists: int = DEFAULT_FINALISTS,
        deep: int = DEFAULT_DEEP_SAMPLES,
        deep_work: int = DEFAULT_DEEP_WORK,
        deep_race: float = DEFAULT_DEEP_RACE,
        through_hand: bool = True,
    ) -> None:
        """An expert.

        Args:
            seed: seeds the samples, play-outs and tie-breaks; the same seed plays the same
                moves.
            budget: play-outs per decision, from 1 to
                [`MAX_BUDGET`][crapette.bots.search.MAX_BUDGET].
            width: moves tried at each position (at least 2).
            nodes: positions expanded per decision at most (positive).
            finalists: lines judged again by deep play-outs (0 or 1: no second stage).
            deep: samples of the second stage.
            deep_work: the most work of the second stage (see
                [`DEFAULT_DEEP_WORK`][crapette.bots.expert.DEFAULT_DEEP_WORK]).
            deep_race: the standard errors behind the leader at which a finalist is
                judged no further (see
                [`DEFAULT_DEEP_RACE`][crapette.bots.expert.DEFAULT_DEEP_RACE]; 0: never).
            through_hand: when the player knows the order of its hand (remembered, or
                empty), its lines go on through the hand cards turned
                ([`expert_lines`][crapette.bots.expert.expert_lines]); ``False``: they end
                at every turned card, as the planner's do.

        Raises:
            UnknownBotError: a parameter is not an integer or out of range (a
                ``ValueError``).
        """
        limits = (
            ("budget", budget, 1, MAX_BUDGET),
            ("width", width, 2, 1000),
            ("nodes", nodes, 1, 1_000_000),
            ("finalists", finalists, 0, 64),
            ("deep", deep, 1, 100_000),
            ("deep_work", deep_work, 1, 10**12),
        )
        for label, value, low, high in limits:
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise UnknownBotError(
                    f"{label} must be an integer from {low} to {high}, not {show(value)}"
                )
        self.seed = seed
        self.budget = budget
        self.width = width
        self.nodes = nodes
        self.finalists = finalists
        self.deep = deep
        self.deep_work = deep_work
        if (
            isinstance(deep_race, bool)
            or not isinstance(deep_race, (int, float))
            or not 0 <= deep_race <= 100
        ):
            raise UnknownBotError(
                f"deep_race must be a number from 0 to 100, not {show(deep_race)}"
            )
        self.deep_race = float(deep_race)
        if not isinstance(through_hand, bool):
            raise UnknownBotError(f"through_hand must be True or False, not {show(through_hand)}")
        self.through_hand = through_hand
        self.max_lines = max(min(2, budget), budget // 4)
        self.memory = HandMemory()
        self.line: Line = ()
        self.lines = 0
        self.work = Work()
        self._rng = Rng(seed)
        self._rest: list[Move] = []
        self._at: GameState | None = None
        self._model = load_model()

    def on_deal_start(self, view: PlayerView) -> None:
        """Forget the line being followed and the hands remembered (a new deal starts)."""
        self._rest = []
        self._at = None
        self.memory.forget()
        self.memory.see(view)

    def on_opponent_move(self, move: Move, view: PlayerView) -> None:
        """Remember what the opponent's move shows (a waste turned over into a hand)."""
        self.memory.see(view)

    def choose(self, view: PlayerView) -> Move:
        """The next move of the line being followed if the position is the one it
        predicts; otherwise the first move of the best line found by a new search."""
        self.lines = 0
        self.work = Work()
        self.memory.see(view)
        at = self._at
        if self._rest and at is not None and view == observe(at, view.player):
            return self._follow(self._rest.pop(0))
        self._rest = []
        state = sketch(view)
        moves = view.legal_moves()
        if len(moves) == 1 or state.stop is not None:
            return greedy_move(state, self._rng, moves)
        planned = self._known_hand(view)
        known = planned is not None
        if planned is not None:  # turning a hand card shows nothing new
            state = planned
        found = expert_lines(state, self.width, self.nodes, self.max_lines, through_hand=known)
        self.lines = len(found)
        won = [line for line in found if _wins(state, line, through_hand=known)]
        if won:
            best = won[0]
        elif len(found) == 1:
            best = found[0]
        else:
            best = self._best(view, found)
        self.line = best
        self._rest = list(best[1:])
        self._at = state
        return self._follow(best[0])

    def _known_hand(self, view: PlayerView) -> GameState | None:
        """A state of ``view`` holding the player's true hand when the player knows its
        order (remembered, or empty: turning the waste over shows its bottom card first),
        for lines through the hand; ``None`` when it does not or ``through_hand`` is off."""
        p = view.to_act
        if self.through_hand and (view.hand_sizes[p] == 0 or self.memory.hands[p] is not None):
            return Sampler(view, self.memory)(Rng(0))  # the rest of the hidden cards: any
        return None

    def _sampler(self, view: PlayerView) -> Callable[[], GameState]:
        """Draws complete states consistent with ``view`` and the hands remembered."""
        draw = Sampler(view, self.memory)
        rng = self._rng
        return lambda: draw(rng)

    def _best(self, view: PlayerView, found: list[Line]) -> Line:
        """The line with the best mean win probability (then points), by sequential
        halving over the budget."""
        scores = [LineScore(line) for line in found]
        score_lines(
            scores,
            view.to_act,
            self._sampler(view),
            self._rng,
            self._model,
            rollouts=self.budget,
            work=self.work,
        )
        ranked = sorted(
            range(len(scores)), key=lambda i: (scores[i].alive, scores[i].key(), -i), reverse=True
        )
        if self.finalists < 2 or len(ranked) < 2:
            return found[ranked[0]]
        return self._deep(view, [found[i] for i in ranked[: self.finalists]])

    def _deep(self, view: PlayerView, finalists: list[Line]) -> Line:
        """The finalist with the best mean win probability over deep play-outs (the same
        samples and seeds for every finalist still judged); ties to the first stage's
        order. Every ``DEEP_RACE_EVERY`` samples the finalists clearly behind the leader
        are judged no further ([`race`][crapette.bots.expert.race])."""
        p = view.to_act
        draw = self._sampler(view)
        wins: list[list[float]] = [[] for _ in finalists]
        judged = list(range(len(finalists)))
        work = self.work
        cap = work.scored + self.deep_work
        for sample in range(self.deep):
            if sample >= DEEP_MIN_SAMPLES and work.scored > cap:
                break  # every finalist still judged has the same samples
            if self.deep_race and sample and sample % DEEP_RACE_EVERY == 0:
                judged = race(wins, judged, self.deep_race)
            start = draw()
            seed = self._rng.next64()
            work.samples += 1
            for k in judged:
                state = start
                for move in finalists[k]:
                    state = apply_unchecked(state, move)
                value = deep_play_out(state, p, Rng(seed), work=work)
                wins[k].append(self._model.value(value, start.rules)[0])
                work.rollouts += 1
        best = max(judged, key=lambda k: (sum(wins[k]), -k))
        return finalists[best]

    def _follow(self, move: Move) -> Move:
        """Play ``move``; while the line goes on, the state it was planned on follows it
        (its inner moves show no card that state does not hold as it is), and the next
        view is checked against that state's."""
        if self._rest and self._at is not None:
            self._at = apply_unchecked(self._at, move)
        return move

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed}, budget={self.budget})"
