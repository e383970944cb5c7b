"""The Python-level fuzz of every public function that reaches the C core (the binding, not
only the core): random calls with random arguments, valid and not, of

* the state readers: the constructor, ``replace``, pickles (rebuilt from any values),
  JSON (documents with edited text or fields), position lines (edited text);
* the rules: ``legal_moves``, ``apply``, ``apply_unchecked`` (any move of the table, and
  things that are not moves), ``why_illegal``, ``outcome``, ``is_over``, ``winner``,
  ``counts``;
* dealing: ``new_game``, ``deal`` (packs of anything), ``shuffled``, ``Rng.below``;
* the bots: ``ranked_scores`` and ``greedy_move`` (move lists of any length, repeats, illegal
  moves, non-moves), ``move_score``, ``evaluate``, ``play_out`` (any ``p`` and ``turns``),
  the expert's ``deep_play_out`` (any ``p``, ``turns`` and ``width``),
  views (``observe``, ``determinize``, ``view.legal_moves``, ``view.after``) and the
  simulator's native batch.

A call may return or raise the library's own errors (``CrapetteError``, or ``TypeError``
for an argument of the wrong type); anything else is a finding, and so is a wrong answer of
a valid call made after a refused one (the answers of a few anchor states are kept and
checked again and again). Run under the sanitizer build of the extension
(``tests/test_sanitizers.py``) any out-of-bounds access in C is a finding too.

    python tests/fuzz_binding.py [CALLS] [SEED]     # prints the calls made, per function

``CRAPETTE_FUZZ_CALLS`` sets the calls of the test runs (a few thousand by default).
"""

from __future__ import annotations

import json
import pickle
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

import crapette as c
from crapette.bots import greedy
from crapette.bots.expert import deep_play_out
from crapette.bots.search import evaluate, play_out
from crapette.deal import Rng, deal, shuffled
from crapette.errors import CrapetteError
from crapette.moves import ALL_MOVES
from crapette.outcome import counts, winner
from crapette.state import FIELDS as STATE_FIELDS
from crapette.state import PendingStop, _rebuild
from crapette.views import determinize, observe, sketch
from strategies import OPTION_VALUES, random_position

FIELDS = list(STATE_FIELDS)  # the constructor's keywords, "seen" last
VALUES = FIELDS[:-1]  # the values a pickle holds (and then houses_key)


class Finding(AssertionError):
    """A call that failed otherwise than with the library's errors, or a wrong answer."""


class Fuzz:
    """The fuzz's generator, its pool of states and the answers of its anchor states."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)
        self.calls: Counter[str] = Counter()
        self.refused = 0
        self.states: list[c.GameState] = []
        for i in range(24):
            self.states.append(self._played(i) if i % 2 else self._hand_built())
        self.anchors = [(s, *self._answers(s)) for s in self.states[:6]]

    # -- random values ------------------------------------------------------------------

    def below(self, n: int) -> int:
        return self.rng.below(n)

    def pick(self, items: Any) -> Any:
        return items[self.below(len(items))]

    def rules(self) -> c.Ruleset:
        base = c.Ruleset.preset(self.pick(sorted(c.PRESETS)))
        changes = {}
        for name, values in OPTION_VALUES.items():
            if name not in ("match_starter", "match_target", "match_deals") and self.below(3) == 0:
                changes[name] = self.pick(values)
        changes["move_cap"] = self.pick((30, 200, 1000, 3000))
        try:
            return base.replace(**changes)
        except c.InvalidRulesError:
            return base.replace(move_cap=200)

    def _played(self, i: int) -> c.GameState:
        state = c.new_game(self.rules(), seed=self.rng.next64())
        for _ in range(self.below(300)):
            moves = c.legal_moves(state)
            if not moves:
                break
            state = c.apply_unchecked(state, self.pick(moves))
        return state

    def _hand_built(self) -> c.GameState:
        state = random_position(self.rules(), self.rng)
        if state.rules.stop != "enforced":
            from crapette._laws import violation

            breaking = [m for m in c.legal_moves(state) if violation(state, m) is not None]
            if breaking:
                after = c.apply(state, self.pick(breaking))
                if after.stop is not None:
                    return c.GameState(**{n: getattr(after, n) for n in FIELDS})
        return state

    def state(self) -> c.GameState:
        if self.below(8) == 0:  # a new one now and then, from play or by hand
            self.states[self.below(len(self.states))] = (
                self._played(0) if self.below(2) else self._hand_built()
            )
        return self.pick(self.states)

    def junk(self) -> Any:
        return self.pick(
            (
                None,
                True,
                -1,
                0,
                1,
                2,
                103,
                104,
                255,
                256,
                2**32 - 1,
                2**32,
                2**64,
                -(2**70),
                1.5,
                "R-F",
                "",
                "x" * 300,
                (),
                (0,),
                ((),),
                [1, 2],
                tuple(range(14)),
                (tuple(range(200)),),
                object(),
                {"a": 1},
                c.DRAW,
                c.Ruleset(),
            )
        )

    def move(self) -> Any:
        roll = self.below(10)
        if roll < 7:
            return self.pick(ALL_MOVES)
        if roll < 9:
            return str(self.pick(ALL_MOVES))
        return self.junk()

    def moves(self, state: c.GameState) -> Any:
        legal = c.legal_moves(state)
        roll = self.below(8)
        if roll == 0:
            return self.junk()
        if roll < 4 and legal:  # legal moves, repeated, up to past the buffer
            n = self.pick((0, 1, len(legal), 790, 791, 792, 800, 1000, self.below(2000)))
            return [self.pick(legal) for _ in range(n)]
        n = self.pick((0, 1, 2, 5, 791, 792, self.below(1200)))
        out: list[Any] = [
            self.pick(legal) if legal and self.below(2) else self.pick(ALL_MOVES) for _ in range(n)
        ]
        if out and self.below(4) == 0:
            out[self.below(len(out))] = self.junk()
        return tuple(out) if self.below(2) else out

    def fields(self, state: c.GameState) -> dict[str, Any]:
        """The constructor's keywords of ``state`` with one to three of them changed: junk,
        cards moved between piles, counters off by one, a stop from another state."""
        fields = {n: getattr(state, n) for n in FIELDS}
        junked: set[str] = set()
        for _ in range(1 + self.below(3)):
            name = self.pick(FIELDS)
            roll = self.below(6)
            value = fields[name]
            if roll == 0 or name in junked:  # (junk is not changed as its field would be)
                fields[name] = self.junk()
                junked.add(name)
            elif name in ("foundations", "houses", "reserves", "hands", "wastes") and roll < 4:
                piles = [list(p) for p in value]
                source = self.below(len(piles))
                if piles[source]:
                    card = piles[source].pop(self.below(len(piles[source])))
                    other = self.pick(("foundations", "houses", "reserves", "hands", "wastes"))
                    if other in junked:
                        other = name
                    target = [list(p) for p in fields[other]] if other != name else piles
                    where = self.below(len(target))
                    target[where].insert(self.below(len(target[where]) + 1), card)
                    if other != name:
                        fields[other] = tuple(tuple(p) for p in target)
                fields[name] = tuple(tuple(p) for p in piles)
            elif name in ("reserve_up", "passes"):
                fields[name] = (value[0] + self.pick((-1, 1, 2, 100)), value[1])
            elif name in ("to_act", "emptied", "moves_made"):
                fields[name] = value + self.pick((-1, 1, 2, 255, 2**32))
            elif name == "turned":
                fields[name] = None if value is not None else self.below(110)
            elif name == "stop":
                other = self.pick(self.states)
                prior = other.stop.prior if other.stop is not None else other
                fields[name] = PendingStop(
                    prior, self.pick(ALL_MOVES), self.below(3), self.below(2)
                )
            elif name == "seen":
                fields[name] = (*value, self.pick((0, 2**64 - 1, 2**64, -1, self.rng.next64())))
            elif name == "rules":
                fields[name] = self.rules()
        return fields

    # -- anchors: valid calls whose answers are known --------------------------------------

    @staticmethod
    def _answers(state: c.GameState) -> tuple[Any, ...]:
        legal = c.legal_moves(state)
        scores = greedy.ranked_scores(state, legal)
        outcome = play_out(state, state.to_act, Rng(5), 1) if legal else None
        return legal, scores, outcome, c.outcome(state), c.to_json(state)

    def check_anchor(self) -> None:
        state, *expected = self.pick(self.anchors)
        if list(self._answers(state)) != expected:
            raise Finding(f"an anchor state answers otherwise after a refused call: {state!r}")

    # -- the calls --------------------------------------------------------------------------

    def one(self) -> None:
        name, call = self.pick(self.operations)
        self.calls[name] += 1
        try:
            call(self)
        except (CrapetteError, TypeError):
            self.refused += 1
            self.check_anchor()
        except Finding:
            raise
        except Exception as error:
            raise Finding(f"{name}: {type(error).__name__}: {error}") from error

    def op_rules(self) -> None:
        state = self.state() if self.below(10) else self.junk()
        pick = self.below(6)
        if pick == 0:
            c.legal_moves(state)
        elif pick == 1:
            c.outcome(state)
        elif pick == 2:
            c.is_over(state)
        elif pick == 3:
            winner(state)
        elif pick == 4:
            c.why_illegal(state, self.move())
        else:
            counts(state)

    def op_apply(self) -> None:
        state, move = self.state(), self.move()
        after = (c.apply if self.below(2) else c.apply_unchecked)(state, move)
        c.legal_moves(after)
        if self.below(4) == 0:
            self.states[self.below(len(self.states))] = after

    def op_why(self) -> None:
        c.why_illegal(self.state(), self.move())

    def op_build(self) -> None:
        state = self.state()
        fields = self.fields(state)
        if self.below(2):
            built = c.GameState(**fields)
        else:
            built = state.replace(**{k: v for k, v in fields.items() if k in FIELDS})
        if built.problems():
            raise Finding(f"a state was built with problems: {built.problems()} ({built.rules})")
        c.legal_moves(built)

    def op_pickle(self) -> None:
        state = self.state()
        if self.below(3) == 0:
            if pickle.loads(pickle.dumps(state)) != state:
                raise Finding("a pickled state came back otherwise")
            return
        fields = self.fields(state)
        key = self.pick((state.houses_key, None, -1, 2**64))
        values = (*(fields[n] for n in VALUES), key)
        keys = (
            None
            if self.below(2)
            else list(fields["seen"])
            if isinstance(fields["seen"], (tuple, frozenset))
            else self.junk()
        )
        c.legal_moves(_rebuild(values, keys))  # what pickle.loads calls

    def op_json(self) -> None:
        state = self.state()
        text = c.to_json(state)
        if self.below(2):
            chars = list(text)
            for _ in range(1 + self.below(4)):
                i = self.below(len(chars))
                chars[i] = self.pick('{}[]",:0123456789abcdefxyz- \\')
            text = "".join(chars)
        else:
            data = json.loads(text)
            inner = data["state"]
            key = self.pick(sorted(inner))
            inner[key] = self.pick(
                (None, 0, -1, 2**64, "7H", [], [[]], ["ZZ"], {"x": 1}, inner.get(key))
            )
            text = json.dumps(data)
        loaded = c.from_json(text)
        if isinstance(loaded, c.GameState):
            c.legal_moves(loaded)

    def op_notation(self) -> None:
        text = c.format_position(self.state())
        chars = list(text)
        for _ in range(1 + self.below(3)):
            i = self.below(len(chars))
            chars[i] = self.pick("0123456789/-AKQJT2SHDCshdc ?x,")
        c.legal_moves(c.parse_position("".join(chars)))

    def op_deal(self) -> None:
        pick = self.below(4)
        if pick == 0:
            seed = self.pick((0, -1, 2**64, 2**70, self.rng.next64(), 1.5, "3", None))
            c.new_game(self.rules() if self.below(5) else self.junk(), seed=seed)
            return
        if pick == 1:
            packs = [list(range(52)), list(range(52, 104))]
            for _ in range(self.below(3)):
                p = self.below(2)
                packs[p][self.below(52)] = self.pick((0, 51, 52, 103, 104, -1, "AS", None))
            starter = self.pick((None, 0, 1, 2, -1))
            deal(self.rules(), packs[0], packs[1], starter=starter)
            return
        if pick == 2:
            cards = tuple(self.pick(c.ALL_CARDS) for _ in range(self.below(300)))
            shuffled(cards if self.below(5) else (*cards, self.junk()), Rng(self.rng.next64()))
            return
        Rng(self.rng.next64()).below(self.pick((1, 2, 2**63, 2**64, 2**64 + 1, 0, -5, 2**90, 1.0)))

    def op_greedy(self) -> None:
        state = self.state()
        pick = self.below(4)
        if pick == 0:
            greedy.ranked_scores(state, self.moves(state))
        elif pick == 1:
            rng = Rng(self.rng.next64()) if self.below(8) else self.junk()
            greedy.greedy_move(state, rng, self.moves(state) if self.below(4) else None)
        elif pick == 2:
            greedy.move_score(state, self.move())
        else:
            evaluate(state, self.pick((0, 1, 2, -1, True, None)))

    def op_play_out(self) -> None:
        state = self.state()
        turns = self.pick((1, 1, 2, 3, 0, -1, 10**6, 10**6 + 1, 1.5, None))
        if turns == 10**6 and state.rules.move_cap > 1000:
            turns = 2  # to the end of a long deal: slow, not more reach
        play_out(state, self.pick((0, 1, 0, 1, 2, None)), Rng(self.rng.next64()), turns)

    def op_deep_play_out(self) -> None:
        if self.below(4):
            return  # a deep play-out is a few hundred play-outs: now and then
        state = self.state()
        turns = self.pick((1, 1, 2, 0, -1, 10**6 + 1, 1.5, None))
        width = self.pick((1, 2, 2, 3, 64, 0, 65, -1, True, 2.5, None))
        deep_play_out(state, self.pick((0, 1, 0, 1, 2, None)), Rng(self.rng.next64()), turns, width)

    def op_views(self) -> None:
        state = self.state()
        view = observe(state, self.pick((0, 1, 0, 1, 2)))
        pick = self.below(3)
        if pick == 0:
            c.legal_moves(determinize(view, Rng(self.rng.next64())))
        elif pick == 1:
            if view.legal_moves() != c.legal_moves(state):
                raise Finding("a view lists other moves than its state")
            c.legal_moves(sketch(view))
        else:
            view.after(self.move())

    def op_batch(self) -> None:
        if self.below(40):
            return  # whole deals are slow: now and then
        from crapette.simulation import simulate

        simulate(
            ("greedy", "random"),
            rules=self.rules().replace(move_cap=200),
            games=2,
            seed=self.rng.next64(),
        )

    operations: ClassVar[list[tuple[str, Callable[[Fuzz], None]]]] = [
        ("rules", op_rules),
        ("apply", op_apply),
        ("apply", op_apply),
        ("why_illegal", op_why),
        ("build", op_build),
        ("build", op_build),
        ("pickle", op_pickle),
        ("json", op_json),
        ("notation", op_notation),
        ("deal", op_deal),
        ("greedy", op_greedy),
        ("greedy", op_greedy),
        ("play_out", op_play_out),
        ("deep_play_out", op_deep_play_out),
        ("views", op_views),
        ("batch", op_batch),
    ]


def fuzz(calls: int, seed: int = 1) -> Fuzz:
    """Make ``calls`` random calls; raises ``Finding`` at the first finding."""
    run = Fuzz(seed)
    for _ in range(calls):
        run.one()
    return run


def main(argv: list[str]) -> int:
    calls = int(argv[0]) if argv else 10_000
    seed = int(argv[1]) if len(argv) > 1 else 1
    start = time.process_time()
    run = fuzz(calls, seed)
    spent = time.process_time() - start
    per = ", ".join(f"{name} {n}" for name, n in sorted(run.calls.items()))
    print(
        f"fuzz_binding: {sum(run.calls.values())} calls ({run.refused} refused with the"
        f" library's errors) on the {c.ENGINE} engine in {spent:.1f} s of CPU: {per};"
        " no finding"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
