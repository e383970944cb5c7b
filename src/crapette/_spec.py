"""The rule spec: every rule option, preset, combination refused, refusal reason and
violation kind, defined once as plain data.

This module is the one home of rule data. It holds no logic: [`crapette.rules`][crapette.rules]
builds the [`Ruleset`][crapette.rules.Ruleset] from it, and ``tools/generate.py`` writes from
it everything other languages and the docs need (the C option, reason and violation enums and
the option table of ``native/spec.h``, the JavaScript spec module ``js/lib/spec.js`` and its
copy for the web page, the option block of ``js/lib/index.d.ts``, the typed field block of
``Ruleset`` in ``rules.py``, the option table of ``docs/variants.md`` and the catalogue keys
of the web page). A test fails, naming that command, when a generated file is stale.

Conventions the generated code relies on:

* an option's **code** (its value in the C rules table ``cr_rules.v``) is the index of the
  value among ``values`` for a choice, ``0``/``1`` for a bool, the number itself for an
  int, and ``-1`` for ``none`` of a count;
* an option's catalogue keys (the page's words) are ``option.<name>.<value>`` for choices
  and bools (``option.stop.undo``, ``option.load_wrap.true``) and ``option.<name>`` for
  numbers; a preset's is ``preset.<name>``; a refusal reason's ``reason.<code>``;
* a reason's template names its parameters in braces; the parameter's type says how it is
  written: ``card`` (a card's text), ``cards`` (cards separated by ", "), ``house`` (a
  house number 1..8), ``pile`` (a move source or target, in words), ``int``, ``player``
  (0 or 1) and ``move`` (a move's text).

See docs/architecture.md, "Adding a rule option", for the files a new option touches.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = [
    "COMBINATIONS",
    "OPTIONS",
    "PACKS",
    "PRESETS",
    "REASONS",
    "VIOLATION_KINDS",
    "Combination",
    "Option",
    "Pack",
    "Preset",
    "Reason",
    "ViolationKind",
]


class Option(NamedTuple):
    """One rule option.

    Attributes:
        name: the field of ``Ruleset`` and the word of rules strings.
        kind: ``"choice"``, ``"bool"``, ``"int"`` or ``"count"`` (an int or ``none``).
        default: the value of the ``classic`` preset (every new option's default is the
            behaviour before it existed).
        doc: one line saying what it decides.
        values: for a choice, each value with one line saying what it means (the order is
            the value's code); empty otherwise.
        range: for a number, the lowest and highest value allowed.
        engine: whether the rules engine reads it (``False``: only matches do).
        source: the rule texts it comes from (docs/rules.md names them).
        since: the JSON format version that first writes it: a document of a ruleset whose
            options of a later version are all at their default is written in the older
            version, as before those options existed.
        value_since: the values of an older option that a later format version added, each
            with that version (a document of a ruleset using one is written in it).
    """

    name: str
    kind: str
    default: object
    doc: str
    values: tuple[tuple[str, str], ...] = ()
    range: tuple[int, int] | None = None
    engine: bool = True
    source: str = ""
    since: int = 2
    value_since: tuple[tuple[str, int], ...] = ()


class Preset(NamedTuple):
    """A named ruleset: the options that differ from the default.

    Attributes:
        name: its name (``Ruleset.preset(name)``).
        doc: one line naming its source.
        changes: the options that differ from the default (the ``classic`` preset).
    """

    name: str
    doc: str
    changes: tuple[tuple[str, object], ...] = ()


class Combination(NamedTuple):
    """Two option values that cannot go together (``InvalidRulesError`` names both).

    Attributes:
        first: an option and the values of it that are refused with ``second``.
        second: the other option and its values.
        why: why the two cannot go together (the end of the error message).
    """

    first: tuple[str, tuple[object, ...]]
    second: tuple[str, tuple[object, ...]]
    why: str


class Reason(NamedTuple):
    """Why a move is illegal: a stable code, its English template, its parameters.

    Attributes:
        code: the stable code (the C core's ``CR_REASON_<CODE>``, the page's catalogue key
            ``reason.<code>``, the ``code`` of the server's refusal).
        template: the English sentence, with the parameters in braces.
        params: each parameter's name and type, in the order the engines give them.
    """

    code: str
    template: str
    params: tuple[tuple[str, str], ...] = ()


class ViolationKind(NamedTuple):
    """A kind of broken priority, in the order the rules check them.

    Attributes:
        name: the kind (``Violation.kind``).
        doc: which compulsory move was missed.
    """

    name: str
    doc: str


class Pack(NamedTuple):
    """A pack each player deals from (the ``pack`` option).

    Attributes:
        name: the value of the ``pack`` option.
        cards: cards in one player's pack.
        ranks: ranks in each of the 4 suits (13: A 2..10 J Q K; 14: with the Knight N).
        trumps: trump cards, a fifth family numbered 1..21 (0: none; 22: the Excuse is
            trump 0).
        foundations: foundation piles on the table (two per family).
        doc: one line describing it.
    """

    name: str
    cards: int
    ranks: int
    trumps: int
    foundations: int
    doc: str


PACKS: Final = (
    Pack("standard", 52, 13, 0, 8, "4 suits of A 2..10 J Q K"),
    Pack("tarot56", 56, 14, 0, 8, "4 suits of A 2..10 J N Q K (N: the Knight)"),
    Pack("tarot77", 77, 14, 21, 10, "tarot56 and trumps 1..21, a fifth family"),
    Pack("tarot78", 78, 14, 22, 10, "tarot77 and the Excuse as trump 0"),
)
"""The packs, in the order of the ``pack`` option's values."""

OPTIONS: Final = (
    Option(
        "pack",
        "choice",
        "standard",
        "the pack each player deals from",
        values=(
            ("standard", "52 cards: 4 suits of A 2..10 J Q K, 8 foundations"),
            ("tarot56", "56 cards: 4 suits of A 2..10 J N Q K (N: the Knight), 8 foundations"),
            ("tarot77", "77 cards: tarot56 and trumps 1..21, a fifth family; 10 foundations"),
            ("tarot78", "78 cards: tarot77 and the Excuse as trump 0; 10 foundations"),
        ),
        source="[all] standard, [BOB] tarot56 and tarot77, [BIT] tarot78",
        since=3,
    ),
    Option(
        "reserve_size",
        "int",
        13,
        "cards dealt to each reserve; the hand gets the rest of the pack but the 4 houses",
        range=(1, 74),
        source="[P, BY, G4A] 13, [SR] 12, [BOB] 13 or 19",
    ),
    Option(
        "reserve_face_up",
        "bool",
        True,
        "the dealt reserve top is face up (false: its owner turns it in play with reveal)",
        source="[P, BY, G4A] true, [SR] false",
    ),
    Option(
        "first_player",
        "choice",
        "reserve",
        "who starts a deal",
        values=(
            ("reserve", "the lower reserve top, ties broken by the houses outward"),
            ("reserve_first_house", "the lower reserve top, ties broken by the first houses"),
            ("cut", "the lower card of a cut of each pack"),
        ),
        source="[P, BY, G4A] reserve, [SR] cut",
    ),
    Option(
        "match_starter",
        "choice",
        "rule",
        "who starts the later deals of a match",
        values=(
            ("rule", "the first-player rule, applied to each new deal"),
            ("alternate", "the players take turns"),
        ),
        engine=False,
        source="decision",
    ),
    Option(
        "own_waste_playable",
        "bool",
        False,
        "your own waste top is an available card",
        source="[P, BY, G4A] false, [SR, BOB] true",
    ),
    Option(
        "turn_end",
        "choice",
        "discard",
        "how a turn ends",
        values=(
            ("discard", "you turn hand cards one at a time and end by discarding one"),
            ("flip", "no hand card is turned: you end with flip, your hand's top to your waste"),
        ),
        source="[P, BY, G4A, SR] discard, [BOB] flip",
        since=3,
    ),
    Option(
        "load_from",
        "choice",
        "any",
        "which cards may load the opponent",
        values=(
            ("any", "any available card"),
            ("own", "only your reserve top, turned hand card and own waste top"),
        ),
        source="[P, G4A] any, [SR] own",
    ),
    Option(
        "load_match",
        "choice",
        "suit",
        "which card loads on the opponent's top",
        values=(
            ("suit", "the same family, one rank up or down"),
            ("colour", "a suit card of the other colour or a trump on a trump, one rank apart"),
        ),
        source="[P, BOB] suit, [BIT] colour",
        since=3,
    ),
    Option(
        "load_wrap",
        "bool",
        False,
        "loading wraps between each family's top and starter (King and Ace, trump 21 and 1)",
        source="[P] an option",
    ),
    Option(
        "group_moves",
        "choice",
        "supermove",
        "house-to-house sequences",
        values=(
            ("single", "single cards only"),
            ("supermove", "at most 2**e cards, with e empty houses besides the destination"),
            ("whole", "any tail of the run, with no space limit"),
        ),
        source="[P, G4A] supermove, [BY, SR, BOB] single, [P] Crossley's whole",
    ),
    Option(
        "sterile_moves",
        "choice",
        "allowed",
        "moving a whole house onto an empty house",
        values=(
            ("allowed", "allowed"),
            ("forbidden", "illegal: it changes nothing"),
        ),
        source="[BOB] forbidden",
        since=3,
    ),
    Option(
        "house_filling",
        "choice",
        "before_hand",
        "filling empty houses from your reserve",
        values=(
            (
                "before_hand",
                "no hand card is turned while your reserve has cards and a house is empty",
            ),
            (
                "immediate",
                "a house emptied in your turn is filled at once (after foundation moves)",
            ),
            ("none", "no obligation"),
        ),
        source="[P, G4A] before_hand, [BY] immediate, [SR] none",
    ),
    Option(
        "priority",
        "choice",
        "pagat",
        "the compulsory order of moves",
        values=(
            ("pagat", "your reserve top to a foundation first, then any foundation move"),
            ("serbian", "foundation, then building on the tableau, then loading the opponent"),
            (
                "bobcrapette",
                "a starter or your reserve top that can go to a foundation must, before your"
                " turn ends",
            ),
        ),
        source="[P, G4A, BY] pagat, [SR] serbian, [BOB] bobcrapette",
        value_since=(("bobcrapette", 3),),
    ),
    Option(
        "stop",
        "choice",
        "enforced",
        "priority violations",
        values=(
            ("enforced", "impossible: the engine offers only moves that respect them"),
            ("undo", "legal; the opponent may call Stop!: the move is taken back"),
            ("card", "legal; the opponent may call Stop!: the caller gives a penalty card"),
            (
                "lose_draw",
                "legal; the opponent may call Stop!: the offender loses the flip that ended"
                " their turn",
            ),
        ),
        source="[G4A] enforced, [P] undo, [SR] card, [BOB] lose_draw",
        value_since=(("lose_draw", 3),),
    ),
    Option(
        "call_window",
        "choice",
        "after_move",
        "when Stop! is called",
        values=(
            ("after_move", "right after the violating move, by calling or letting it stand"),
            ("turn_start", "at the start of your own turn, before your first move"),
        ),
        source="[P, SR] after_move, [BOB] turn_start",
        since=3,
    ),
    Option(
        "false_call",
        "choice",
        "lose_turn",
        "a wrong Stop! call at the start of a turn",
        values=(
            ("lose_turn", "your turn ends at once"),
            ("none", "nothing happens"),
            ("rationed", "nothing happens, but after 3 in a deal you may not call again"),
        ),
        source="[BOB]",
        since=3,
    ),
    Option(
        "blocked",
        "choice",
        "scored",
        "a blocked deal (stalemate or move cap)",
        values=(
            ("scored", "the lower count scores the difference"),
            ("draw", "a draw: no winner, no points"),
        ),
        source="[BY, G4A, P] scored, [BOB] draw",
        since=3,
    ),
    Option(
        "move_cap",
        "int",
        20_000,
        "a deal ends as a stalemate after this many moves",
        range=(1, 1_000_000_000),
        source="decision",
    ),
    Option(
        "win_bonus",
        "int",
        30,
        "points for winning a deal",
        range=(0, 1_000_000),
        source="[all]",
    ),
    Option(
        "reserve_points",
        "int",
        2,
        "points per card left in a reserve",
        range=(0, 1_000_000),
        source="[all]",
    ),
    Option(
        "hand_points",
        "int",
        1,
        "points per card left in a hand or waste",
        range=(0, 1_000_000),
        source="[all]",
    ),
    Option(
        "match_target",
        "count",
        300,
        "a match ends when a player's total reaches this (none: no target)",
        range=(1, 1_000_000_000),
        engine=False,
        source="[BY, P] 300, [G4A] 150",
    ),
    Option(
        "match_deals",
        "count",
        None,
        "a match ends after this many deals (none: no limit)",
        range=(1, 1_000_000),
        engine=False,
        source="[SR] 5",
    ),
)
"""Every option, in field order (the order of canonical rules strings)."""

PRESETS: Final = (
    Preset("classic", "pagat's rules with every priority enforced (the default)"),
    Preset(
        "pagat", "John McLeod's page on pagat.com: callable Stop!, taken back", (("stop", "undo"),)
    ),
    Preset(
        "g4a", "the G4A Russian Bank app: enforced rules, a match to 150", (("match_target", 150),)
    ),
    Preset(
        "belarusian",
        "the Belarusian rules page: single cards, houses filled at once",
        (("group_moves", "single"), ("house_filling", "immediate")),
    ),
    Preset(
        "serbian",
        "Ruska banka: a face-down reserve, a cut, the penalty card, 5 deals",
        (
            ("reserve_size", 12),
            ("reserve_face_up", False),
            ("first_player", "cut"),
            ("own_waste_playable", True),
            ("load_from", "own"),
            ("group_moves", "single"),
            ("house_filling", "none"),
            ("priority", "serbian"),
            ("stop", "card"),
            ("match_target", None),
            ("match_deals", 5),
        ),
    ),
    Preset("tarot", "the classic game with the 77-card tarot pack", (("pack", "tarot77"),)),
    Preset(
        "bobcrapette",
        "the Bobcrapette app: the tarot pack and the French table rules",
        (
            ("pack", "tarot77"),
            ("own_waste_playable", True),
            ("turn_end", "flip"),
            ("group_moves", "single"),
            ("sterile_moves", "forbidden"),
            ("house_filling", "none"),
            ("priority", "bobcrapette"),
            ("stop", "lose_draw"),
            ("call_window", "turn_start"),
            ("blocked", "draw"),
        ),
    ),
)
"""The presets, in the order of the variant matrix (the order canonical strings try them)."""

COMBINATIONS: Final = (
    Combination(
        ("turn_end", ("flip",)),
        ("own_waste_playable", (False,)),
        "hand cards go to your waste unturned, so they could never be played",
    ),
    Combination(
        ("stop", ("lose_draw",)),
        ("turn_end", ("discard",)),
        "there is no draw to lose (a discard taken back would be a gift)",
    ),
    Combination(
        ("match_target", (None,)),
        ("match_deals", (None,)),
        "a match would never end; set at least one of them",
    ),
)
"""The option values that cannot go together (besides ``reserve_size`` against the pack,
which the pack's size decides)."""

VIOLATION_KINDS: Final = (
    ViolationKind("reserve", "your reserve top could go to a foundation"),
    ViolationKind("foundation", "a foundation move was available"),
    ViolationKind("order", "the card could be built on the tableau instead of loading"),
    ViolationKind("filling", "an empty house had to be filled from your reserve"),
)
"""The kinds of broken priority, in the order the rules check them."""

REASONS: Final = (
    Reason("deal_over", "the deal is over"),
    Reason(
        "stop_pending",
        "player {player} must first decide on the Stop! call for {move}: call stop or pass",
        (("player", "player"), ("move", "move")),
    ),
    Reason("stop_none", "no Stop! decision is open"),
    Reason("reveal_empty", "your reserve is empty"),
    Reason("reveal_up", "your reserve top is already face up"),
    Reason(
        "draw_turned",
        "a hand card ({card}) is already turned: play or discard it",
        (("card", "card"),),
    ),
    Reason("draw_empty", "your hand and waste are both empty (end your turn instead)"),
    Reason("discard_none", "no hand card is turned"),
    Reason("end_turned", "a hand card is turned: discard it to end your turn"),
    Reason("end_cards", "your turn ends only by a discard while your hand or waste has cards"),
    Reason("reserve_down", "your reserve top is face down: reveal it first"),
    Reason("waste_closed", "your own waste is not available under these rules"),
    Reason("no_card", "{pile} has no card", (("pile", "pile"),)),
    Reason("group_single", "only single cards move under these rules (group_moves=single)"),
    Reason(
        "group_short",
        "house {house} holds only {held} cards",
        (("house", "house"), ("held", "int")),
    ),
    Reason(
        "group_run",
        "the top {count} cards of house {house} are not a descending run",
        (("count", "int"), ("house", "house")),
    ),
    Reason(
        "group_space",
        "{count} cards need {need} empty houses besides the destination; there are {free}",
        (("count", "int"), ("need", "int"), ("free", "int")),
    ),
    Reason("foundation", "{card} does not fit on any foundation", (("card", "card"),)),
    Reason(
        "house",
        "{card} cannot go on {onto} in house {house} (houses build down in alternating colours)",
        (("card", "card"), ("onto", "card"), ("house", "house")),
    ),
    Reason(
        "load_own",
        "only your reserve, turned hand card and waste may load the opponent (load_from=own)",
    ),
    Reason(
        "load_empty",
        "{pile} is empty: nothing is loaded on an empty pile",
        (("pile", "pile"),),
    ),
    Reason("load_down", "your opponent's reserve top is face down"),
    Reason(
        "load",
        "{card} does not load on {onto}: same suit, one rank apart",
        (("card", "card"), ("onto", "card")),
    ),
    Reason(
        "load_wrap",
        "{card} does not load on {onto}: same suit, one rank apart (K and A adjacent)",
        (("card", "card"), ("onto", "card")),
    ),
    Reason(
        "priority_reserve",
        "your reserve top {card} can go to a foundation: that comes first",
        (("card", "card"),),
    ),
    Reason(
        "priority_foundation",
        "a foundation move ({cards}) must be made before any other move",
        (("cards", "cards"),),
    ),
    Reason(
        "priority_order",
        "{card} can be built on house {house}: the tableau comes before loading the opponent",
        (("card", "card"), ("house", "house")),
    ),
    Reason(
        "filling_before",
        "house {house} is empty: fill the empty houses from your reserve before turning a"
        " hand card",
        (("house", "house"),),
    ),
    Reason(
        "filling_immediate",
        "house {house} was emptied this turn: fill it from your reserve first",
        (("house", "house"),),
    ),
    Reason("cycle", "it recreates a layout already seen this turn (no cycles within a turn)"),
    Reason("flip_rule", "no hand card is turned under these rules: end your turn with flip"),
    Reason("flip_discard", "a turn ends by a discard under these rules, not by flip"),
    Reason("flip_empty", "your hand and waste are both empty (end your turn instead)"),
    Reason("end_flip", "your turn ends only by flip while your hand or waste has cards"),
    Reason(
        "sterile",
        "moving every card of house {house} onto an empty house changes nothing"
        " (sterile_moves=forbidden)",
        (("house", "house"),),
    ),
    Reason(
        "obligation_reserve",
        "your reserve top {card} can go to a foundation: that comes before your turn ends",
        (("card", "card"),),
    ),
    Reason(
        "obligation_starter",
        "{card} can start a foundation: that comes before your turn ends",
        (("card", "card"),),
    ),
    Reason("stop_window", "Stop! is called only at the start of your turn, before your first move"),
    Reason("stop_rationed", "you have made your 3 false calls of this deal: no more calls"),
    Reason(
        "load_colour",
        "{card} does not load on {onto}: the other colour, one rank apart",
        (("card", "card"), ("onto", "card")),
    ),
    Reason(
        "load_colour_wrap",
        "{card} does not load on {onto}: the other colour, one rank apart (K and A adjacent)",
        (("card", "card"), ("onto", "card")),
    ),
)
"""Every reason a move can be illegal, in the order of their codes (code 0 is "legal")."""
