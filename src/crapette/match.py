"""Matches: deal after deal until a player's total reaches the target (300 or 150) or a fixed
number of deals (5 in the Serbian rules) has been played.

A [`Match`][crapette.match.Match] is immutable like a deal. The step from one deal to the next is
explicit: play the current deal with ``legal_moves(match.state)`` and
[`Match.play`][crapette.match.Match.play] (or ``apply`` and
[`Match.with_state`][crapette.match.Match.with_state]), and once it is over call
[`Match.next_deal`][crapette.match.Match.next_deal].
"""

from __future__ import annotations

import attrs

from crapette._engine import apply
from crapette.deal import Rng, new_game
from crapette.errors import MatchError
from crapette.moves import Move
from crapette.outcome import Outcome, outcome, resignation
from crapette.rules import Ruleset, as_ruleset
from crapette.state import GameState

__all__ = ["DealResult", "Match", "MatchOutcome", "deal_seed", "new_match"]


def deal_seed(match_seed: int, number: int) -> int:
    """The seed of deal ``number`` (0-based) of a match: SplitMix64 of the match seed
    advanced by the deal number, so every deal has fresh, reproducible packs."""
    return Rng(match_seed + number * 0x9E3779B97F4A7C15).next64()


@attrs.frozen(slots=True)
class DealResult:
    """One finished deal of a match.

    Attributes:
        seed: the deal's seed.
        starter: who made the first move.
        outcome: how it ended and its scores.
    """

    seed: int
    starter: int
    outcome: Outcome


@attrs.frozen(slots=True)
class MatchOutcome:
    """How a match ended.

    Attributes:
        winner: 0 or 1, or ``None`` for a draw (equal totals).
        totals: each player's total.
        deals: how many deals were played (a resigned deal counts).
        resigned: the player who resigned the match, or ``None`` (decision 20: the
            opponent wins it, whatever the totals).
    """

    winner: int | None
    totals: tuple[int, int]
    deals: int
    resigned: int | None = None


def _result_repr(result: DealResult) -> str:
    o = result.outcome
    return (
        f"crapette.match.DealResult(seed={result.seed}, starter={result.starter},"
        f" outcome=crapette.Outcome(winner={o.winner!r}, scores={o.scores!r},"
        f" reason={o.reason!r}))"
    )


@attrs.frozen(slots=True, repr=False)
class Match:
    """A match in progress.

    Built by [`new_match`][crapette.new_match] (or read back with
    [`from_json`][crapette.from_json]); the constructor takes the deals finished before the
    current one as ``results`` (``match.results[:match.number]``).

    Attributes:
        rules: the ruleset, including the match format (``match_target``, ``match_deals``).
        seed: the match seed; deal ``k`` is dealt from ``deal_seed(seed, k)``.
        state: the current deal.
        starter: who started the current deal.
        resigned: the player who resigned the match ([`Match.resign`][crapette.match.Match.resign]),
            or ``None``.
    """

    rules: Ruleset
    seed: int
    _results: tuple[DealResult, ...]
    state: GameState
    starter: int
    resigned: int | None = attrs.field(default=None, kw_only=True)
    _finished_memo: tuple[DealResult, ...] | None = attrs.field(
        default=None, init=False, eq=False, repr=False
    )
    """``_finished()``, computed once: a match is immutable, and each of ``results``,
    ``totals``, ``outcome()`` and ``next_deal()`` needs it (the game server asks a match for
    them many times a request)."""

    def __repr__(self) -> str:
        """Code that builds this match again (after ``import crapette``), as
        ``repr(state)`` does for a state."""
        results = ", ".join(_result_repr(r) for r in self._results)
        if len(self._results) == 1:
            results += ","
        return (
            f"crapette.Match(rules=crapette.parse_rules({str(self.rules)!r}), seed={self.seed},"
            f" results=({results}), state={self.state!r}, starter={self.starter})"
        )

    @property
    def results(self) -> tuple[DealResult, ...]:
        """The finished deals, in order: the deals before the current one, and the current
        deal too once it is over (so the last deal of a finished match is among them)."""
        return self._finished()

    @property
    def number(self) -> int:
        """The 0-based number of the current deal."""
        return len(self._results)

    @property
    def totals(self) -> tuple[int, int]:
        """Each player's total, counting the current deal once it is over."""
        scores = [r.outcome.scores for r in self._finished()]
        return (sum(s[0] for s in scores), sum(s[1] for s in scores))

    def _finished(self) -> tuple[DealResult, ...]:
        """The finished deals, the current one included once it is over (its outcome is
        computed on the first call only)."""
        finished = self._finished_memo
        if finished is None:
            finished = self._results
            ended = outcome(self.state)
            if ended is None and self.resigned is not None:
                ended = resignation(self.state, self.resigned)
            if ended is not None:
                result = DealResult(deal_seed(self.seed, self.number), self.starter, ended)
                finished = (*finished, result)
            object.__setattr__(self, "_finished_memo", finished)
        return finished

    def _check_running(self) -> None:
        if self.resigned is not None:
            raise MatchError(f"the match is over: player {self.resigned} resigned")

    def play(self, move: Move) -> Match:
        """The match after ``move`` in the current deal (checked like ``apply``).

        Raises:
            MatchError: the match was resigned.
        """
        self._check_running()
        return attrs.evolve(self, state=apply(self.state, move))

    def with_state(self, state: GameState) -> Match:
        """The match with the current deal replaced by a later state of it.

        Raises:
            MatchError: not a state of the match's rules, or the match was resigned.
        """
        self._check_running()
        if not isinstance(state, GameState) or state.rules != self.rules:
            raise MatchError("with_state() needs a state of the current deal's rules")
        return attrs.evolve(self, state=state)

    def resign(self, player: int) -> Match:
        """The match after ``player`` resigns it (decision 20): the opponent wins the match
        whatever the totals. A deal in progress ends there, won by the opponent and scored
        as a win with the cards where they lie
        ([`resignation`][crapette.outcome.resignation]); between deals (the current deal
        over) no deal is added.

        Raises:
            MatchError: the match is already over (resigned or finished), or ``player`` is
                not 0 or 1.
        """
        if isinstance(player, bool) or player not in (0, 1):
            raise MatchError(f"the player who resigns is 0 or 1, not {player!r}")
        self._check_running()
        if self.outcome() is not None:
            raise MatchError("the match is over: there is nothing to resign")
        return attrs.evolve(self, resigned=player)

    def outcome(self) -> MatchOutcome | None:
        """``None`` while the match runs; otherwise who won it and the totals (a resigned
        match is won by the resigner's opponent)."""
        finished = self._finished()
        if self.resigned is not None:
            totals = (
                sum(r.outcome.scores[0] for r in finished),
                sum(r.outcome.scores[1] for r in finished),
            )
            return MatchOutcome(1 - self.resigned, totals, len(finished), self.resigned)
        if len(finished) == len(self._results):
            return None  # the current deal is still being played
        return _decide(self.rules, finished)

    def next_deal(self) -> Match:
        """Record the finished current deal and deal the next one.

        Raises:
            MatchError: the current deal is not over, or the match is over.
        """
        self._check_running()
        results = self._finished()
        if len(results) == self.number:
            raise MatchError("the current deal is not over yet")
        if self.outcome() is not None:
            raise MatchError("the match is over: there is no next deal")
        state, starter = _deal(self.rules, self.seed, len(results), results)
        return Match(self.rules, self.seed, results, state, starter)


def new_match(rules: Ruleset | str | None = None, *, seed: int) -> Match:
    """A new match and its first deal.

    Args:
        rules: a [`Ruleset`][crapette.Ruleset], a preset name or a rules string (default
            ``classic``: a race to 300).
        seed: any ``int``; the whole match is determined by it (and the moves played).
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed must be an int, not {type(seed).__name__}")
    ruleset = as_ruleset(rules)
    state, starter = _deal(ruleset, seed, 0, ())
    return Match(ruleset, seed, (), state, starter)


def _deal(
    rules: Ruleset, seed: int, number: int, results: tuple[DealResult, ...]
) -> tuple[GameState, int]:
    """Deal number ``number``: both packs shuffled from its seed (each player's pack is
    shuffled by the opponent: who shuffles does not change the draw), and its starter by the
    first-player rule, or alternating from the first deal's starter."""
    state = new_game(rules, seed=deal_seed(seed, number))
    if number and rules.match_starter == "alternate":
        starter = 1 - results[-1].starter
        state = state.replace(to_act=starter)
    return state, state.to_act


def _decide(rules: Ruleset, finished: tuple[DealResult, ...]) -> MatchOutcome | None:
    """How a match with these finished deals ended, or ``None`` if it goes on."""
    totals = (
        sum(r.outcome.scores[0] for r in finished),
        sum(r.outcome.scores[1] for r in finished),
    )
    reached = rules.match_target is not None and max(totals) >= rules.match_target
    played_out = rules.match_deals is not None and len(finished) >= rules.match_deals
    if not (reached or played_out):
        return None
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return MatchOutcome(winner, totals, len(finished))
