/*
 * crapette core: the rules of Russian Bank (Crapette) in plain C11.
 *
 * The native engine behind the Python library (the extension module crapette._core) and
 * the WebAssembly build of the JavaScript package. It implements exactly what the Python
 * reference engine implements (crapette._movegen, crapette._engine, crapette._laws,
 * crapette.outcome, crapette.deal, crapette.bots._greedy), and the tests prove the two
 * equal move for move.
 *
 * Design rules: standard C11 and <stdint.h>/<string.h> only; no global mutable state (every
 * table is const), so any number of threads may use it; no allocation and no I/O: a caller
 * passes every buffer. A state is a plain struct of 196 bytes that can be copied with
 * memcpy and compared with cr_state_equal.
 *
 * Conventions: moves are indices into the fixed move table (crapette.moves.ALL_MOVES, see
 * tables.h); pile codes are those of crapette.moves (houses 0..7, RESERVE 8, HAND 9,
 * WASTE 10, FOUNDATION 11, OPP_RESERVE 12, OPP_WASTE 13); cards are codes in the ruleset's
 * pack kind (crapette.cards: 0..103 for the standard pack, pack * 52 + suit * 13 + rank - 1;
 * up to 155 for tarot78), whose tables are cr_packs[rules.pack].
 */
#ifndef CRAPETTE_CORE_H
#define CRAPETTE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "spec.h"
#include "tables.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CR_NCARDS 156      /* the most cards in play: two tarot78 packs */
#define CR_NFOUNDATIONS 10 /* 8 with four families, 10 with the trumps */
#define CR_NPILES 24
#define CR_NO_CARD 0xFF

/* Pile numbers of cr_state.len / cards: foundations 0..7, houses 8..15, reserves 16 + p,
   hands 18 + p, wastes 20 + p, and foundations 9 and 10 of a pack with trumps 22 and 23
   (a pack of four families leaves them empty: its states are laid out as if they were
   not there). cr_foundation_pile(i) is foundation i's pile. */
enum {
    CR_PILE_FOUNDATION = 0,
    CR_PILE_HOUSE = 8,
    CR_PILE_RESERVE = 16,
    CR_PILE_HAND = 18,
    CR_PILE_WASTE = 20,
    CR_PILE_FOUNDATION_MORE = 22
};
static inline int cr_foundation_pile(int i) { return i < 8 ? i : CR_PILE_FOUNDATION_MORE + i - 8; }

/* Move sources and targets (crapette.moves). */
enum {
    CR_SRC_RESERVE = 8,
    CR_SRC_HAND = 9,
    CR_SRC_WASTE = 10,
    CR_TGT_FOUNDATION = 11,
    CR_TGT_OPP_RESERVE = 12,
    CR_TGT_OPP_WASTE = 13
};

/* Actions, in the order of crapette.moves.Action. */
enum {
    CR_ACT_PLAY = 0,
    CR_ACT_REVEAL,
    CR_ACT_DRAW,
    CR_ACT_DISCARD,
    CR_ACT_END_TURN,
    CR_ACT_CALL_STOP,
    CR_ACT_LET_STAND,
    CR_ACT_FLIP
};

/* A ruleset: every option's code (native/spec.h, generated from crapette._spec), indexed by
   CR_OPT_<NAME>; the core reads only the engine's options (the match options ride along). */
typedef struct cr_rules {
    int64_t v[CR_NOPTIONS];
} cr_rules;

/* The code of option NAME of a ruleset: CR_RULE(r, STOP) == CR_STOP_UNDO. */
#define CR_RULE(r, NAME) ((r)->v[CR_OPT_##NAME])

/* One position. Every pile is a run of bytes in cards[], piles in pile-number order, each
   bottom first; bytes after the last pile are 0. stop is 0, or a pending Stop! decision
   (call_window=after_move): 1 + move | offender << 12 | resume << 13 (cr_stop_* read it).
   fault is 0, or the faulty turn end a call at this turn's start punishes
   (call_window=turn_start), in the same form. The position before the violation (the
   "prior" of either; they never coexist) is kept by the caller. calls: bit 0, the call
   window of this turn is open (turn_start); bits 1-2 and 3-4, each player's false calls
   (false_call=rationed). */
typedef struct cr_state {
    uint8_t cards[CR_NCARDS];
    uint8_t len[CR_NPILES];
    uint8_t turned;        /* CR_NO_CARD or the turned hand card */
    uint8_t to_act;        /* 0 or 1 */
    uint8_t reserve_up[2]; /* face-up cards at the top of each reserve */
    uint8_t passes[2];     /* the stalemate rule's marks, 0..2 */
    uint8_t emptied;       /* houses emptied this turn and still empty */
    uint8_t calls;         /* the call window and the false calls */
    uint16_t stop;
    uint16_t fault;
    uint32_t moves_made;
} cr_state;

/* The layout keys seen this turn (the no-cycle rule): key k is seen when it is one of the
   first `size` keys. With an index (open addressing over positions + 1, 0 for an empty
   slot, `mask` + 1 slots, keys hashed by their low bits) the test is a lookup; without one
   (index == NULL) a scan. `filter` has bit (k & 63) set for every key k of the log (a
   superset of the first `size`), so most keys that were not seen are told at once.
   `current` is the layout key of the state itself (one of them). A NULL cr_seen (or size
   0) means only the current layout was seen. */
typedef struct cr_seen {
    const uint64_t *keys;
    const uint32_t *index;
    uint32_t mask;
    uint32_t size;
    uint64_t filter;
    uint64_t current;
} cr_seen;

/* How cr_apply changed the layouts seen: cleared (a move that cannot be undone), kept (a
   Stop! decision that lets the turn go on), or one layout added (a house-to-house move:
   *key is the new layout key). */
enum { CR_SEEN_CLEAR = 0, CR_SEEN_KEEP = 1, CR_SEEN_ADD = 2 };

/* Outcome reasons. */
enum { CR_RUNNING = 0, CR_WIN, CR_STALEMATE, CR_MOVE_CAP };

/* --- reading a state ------------------------------------------------------------------ */

/* The offset in cards[] of pile `pile`. */
int cr_pile_offset(const cr_state *s, int pile);
/* The number of cards in the piles (the turned card not counted). */
int cr_total(const cr_state *s);
/* The Zobrist key of the house layout in a game of the rules' pack
   (crapette._tables.houses_key). */
uint64_t cr_houses_key(const cr_rules *r, const cr_state *s);
/* The Zobrist key of `card` at `depth` of house `house` (any depth) in a game of `count`
   cards (104 with the standard pack). */
uint64_t cr_zobrist_key(int house, int depth, int card, int count);
/* Whether two states are equal (every field; the prior and the layouts seen are the
   caller's). */
int cr_state_equal(const cr_state *a, const cr_state *b);
/* The player whose turn it is (the offender's side resumes after a Stop! decision). */
int cr_turn_player(const cr_state *s);
static inline int cr_stop_move(const cr_state *s) { return (s->stop & 0x0FFF) - 1; }
static inline int cr_stop_offender(const cr_state *s) { return (s->stop >> 12) & 1; }
static inline int cr_stop_resume(const cr_state *s) { return (s->stop >> 13) & 1; }
static inline int cr_fault_move(const cr_state *s) { return (s->fault & 0x0FFF) - 1; }
static inline int cr_fault_offender(const cr_state *s) { return (s->fault >> 12) & 1; }
/* The call window (bit 0 of calls) and player p's false calls. */
static inline int cr_window(const cr_state *s) { return s->calls & 1; }
static inline int cr_false_calls(const cr_state *s, int p) { return (s->calls >> (1 + 2 * p)) & 3; }

/* Why the bytes of a state cannot be a cr_state the engine may read (lengths beyond the
   card array, a bad card, a player other than 0 or 1, ...): 0 when they can. Every entry
   point assumes a state that passes this check; bindings run it on decoded input. */
int cr_state_check(const cr_state *s);

/* Whether a state that passes cr_state_check could occur in a deal under rules r
   (crapette.state.position_problems, but for a pending Stop! decision, which the binding
   checks against its prior): every card once, houses of at most 13 cards descending in
   alternating colours, foundations up in suit from their Ace, the reserves' face-up counts
   and face-down cards, houses marked emptied that are empty, moves_made within the move
   cap. 0 when it could, else the number of the first rule broken (CR_POSITION_*). */
enum {
    CR_POSITION_OK = 0,
    CR_POSITION_TALL_HOUSE,
    CR_POSITION_CARDS,
    CR_POSITION_FOUNDATION,
    CR_POSITION_HOUSE,
    CR_POSITION_RESERVE_UP,
    CR_POSITION_FACE_DOWN,
    CR_POSITION_FOREIGN,
    CR_POSITION_EMPTIED,
    CR_POSITION_MOVE_CAP,
    CR_POSITION_TABLE_RULES /* turn_end, call_window and false_call's fields */
};
int cr_position_check(const cr_rules *r, const cr_state *s);

/* The most moves a state counts (moves_made is 32 bits wide): cr_apply refuses a move from
   a state that made this many (-1), so that the counter never wraps. */
#define CR_MOVES_MADE_LIMIT 0xFFFFFFFFu

/* --- the rules ------------------------------------------------------------------------ */

/* The legal moves of the player to act, in move-index order (crapette.legal_moves); out
   must hold CR_NMOVES entries. Returns their number (0: the deal is over). Every entry
   point assumes a ruleset of the spec's codes (the bindings check them) and a state that
   passes cr_state_check. */
int cr_legal_moves(const cr_rules *r, const cr_state *s, const cr_seen *seen, uint16_t *out);
/* Whether `move` is legal (the same as being one of cr_legal_moves). */
int cr_is_legal(const cr_rules *r, const cr_state *s, const cr_seen *seen, int move);
/* The state after `move` (trusted to be legal) into *out (which may not be s); prior is
   the state before the violation when s->stop is set (NULL otherwise); current is the
   layout key of s if the caller knows it (NULL: computed when needed). Returns CR_SEEN_*
   (or -1 for a move that cannot be made at all); for CR_SEEN_ADD *key is the new layout
   key. A result with a new pending Stop! decision has the caller keep s as its prior. */
int cr_apply(const cr_rules *r, const cr_state *s, const cr_state *prior, int move, cr_state *out,
             const uint64_t *current, uint64_t *key);
/* The priority rule `move` breaks (CR_VIOLATION_*), with the missed compulsory moves in
   remedy[0..*n) (at most 2). */
int cr_violation(const cr_rules *r, const cr_state *s, int move, uint16_t *remedy, int *n);

/* Why `move` is illegal (crapette._laws.python_refusal, in its order: the deal is over, a
   pending Stop!, the turn and building rules, the priority broken under stop=enforced, the
   no-cycle rule): CR_REASON_LEGAL (0) for a legal move, else a CR_REASON_<CODE> of spec.h
   with the reason's parameters in params[0..*n), in the spec's order: a card is its index,
   a cards list its length then each card, a house its index 0..7, a pile its move code
   (CR_SRC_* / CR_TGT_* or a house), a move its index, an int or a player itself. params
   must hold CR_MAX_REASON_PARAMS values. The error path only: cr_legal_moves does not call
   it. */
#define CR_MAX_REASON_PARAMS 16
int cr_why_illegal(const cr_rules *r, const cr_state *s, const cr_seen *seen, int move,
                   int32_t *params, int *n);
/* The reason of the priority rule `move` breaks (CR_REASON_PRIORITY_* or
   CR_REASON_FILLING_*, or 0 for none), whatever the Stop! rule, with its parameters as
   cr_why_illegal gives them (PlayerView.breaks_priority). */
int cr_violation_reason(const cr_rules *r, const cr_state *s, int move, int32_t *params, int *n);

/* The winner (0 or 1) or -1; whether the deal is over; the outcome (CR_RUNNING while it
   runs) with the scores; the stalemate counts of both players. */
int cr_winner(const cr_state *s);
int cr_is_over(const cr_rules *r, const cr_state *s);
int cr_outcome(const cr_rules *r, const cr_state *s, int *winner, int64_t *scores);
void cr_counts(const cr_rules *r, const cr_state *s, int64_t *counts);

/* --- dealing --------------------------------------------------------------------------- */

/* SplitMix64 (crapette.deal.Rng): the next 64-bit value, and a uniform value below n > 0
   (0 for n = 0, drawing nothing). */
uint64_t cr_rng_next(uint64_t *rng);
uint64_t cr_rng_below(uint64_t *rng, uint64_t n);
/* The deal of crapette.new_game(rules, seed=seed) (the seed taken modulo 2**64). */
void cr_new_game(const cr_rules *r, uint64_t seed, cr_state *out);
/* Deal from two pack orders (crapette.deal): starter -1 applies the first-player rule. */
void cr_deal(const cr_rules *r, const uint8_t *pack0, const uint8_t *pack1, int starter,
             cr_state *out);

/* --- the greedy bot and play-outs ------------------------------------------------------ */

/* The index in moves[0..n) of the first move that is not legal in s (cr_is_legal), or -1
   when every one is: what a binding checks before the greedy functions below. */
int cr_first_illegal(const cr_rules *r, const cr_state *s, const cr_seen *seen,
                     const uint16_t *moves, int n);

/* Whether a cr_rules holds codes within their options' ranges (cr_option_table of spec.h:
   low..high, or -1 for a count's none): 1 when it does. cr_deal and cr_new_game read only
   such rules. */
int cr_rules_check(const cr_rules *r);

/* Whether pack0 and pack1 are each the cards of their own pack once, in the rules' kind of
   pack (52, 56, 77 or 78 cards; cr_deal reads only such packs): 1 when they are. */
int cr_packs_check(const cr_rules *r, const uint8_t *pack0, const uint8_t *pack1);

/* The greedy score of each of moves[0..n) into scores[0..n) (crapette.bots.greedy.
   ranked_scores), for moves legal in s (a move outside the move table, or one the state
   cannot make, scores as a pointless move: never an access outside s). */
void cr_greedy_scores(const cr_rules *r, const cr_state *s, const uint16_t *moves, int n,
                      int32_t *scores);
/* The greedy bot's move among the legal moves[0..n), ties broken by *rng as
   crapette.bots.greedy.greedy_move breaks them; -1 for n <= 0; n is at most CR_NMOVES
   (a longer list is read to its first CR_NMOVES moves). */
int cr_greedy_move(const cr_rules *r, const cr_state *s, const uint16_t *moves, int n,
                   uint64_t *rng);

/* A set of layout keys for play-outs: the caller gives room for `capacity` keys (a power
   of two) and an index of 2 * capacity slots. */
typedef struct cr_keyset {
    uint64_t *keys;
    uint32_t *index;
    uint32_t capacity;
    uint32_t size;
    uint64_t filter;
} cr_keyset;
void cr_keyset_init(cr_keyset *k, uint64_t *keys, uint32_t *index, uint32_t capacity);
void cr_keyset_clear(cr_keyset *k);
/* Add a key (not already in the set); -1 when the set is full. */
int cr_keyset_add(cr_keyset *k, uint64_t key);
int cr_keyset_has(const cr_keyset *k, uint64_t key);
/* The keys as a cr_seen. */
cr_seen cr_keyset_seen(const cr_keyset *k);

/* The work space of a play-out: the current and prior states, the layouts seen this turn
   (with the key of the turn's starting layout), the legal moves. */
typedef struct cr_game {
    cr_state state;
    cr_state prior;
    cr_keyset seen;
    uint64_t key;  /* the layout key of state, when key_known */
    int key_known;
    uint16_t moves[CR_NMOVES];
    int nmoves;
} cr_game;

/* Start a play-out from `s` with its layouts seen (`seen` may be NULL: only the current
   one); prior as for cr_apply. -1 if the keys do not fit. */
int cr_game_start(cr_game *g, const cr_rules *r, const cr_state *s, const cr_state *prior,
                  const cr_seen *seen);
/* List the legal moves into g->moves (returns their number), and play one of them. */
int cr_game_list(cr_game *g, const cr_rules *r);
/* -1 if the layouts seen outgrow the key set (the caller retries with more room). */
int cr_game_play(cr_game *g, const cr_rules *r, int move);

/* Policies of cr_play_deal. */
enum { CR_POLICY_RANDOM = 0, CR_POLICY_GREEDY = 1 };

/* What one played deal gives. */
typedef struct cr_result {
    int32_t starter;
    int32_t winner; /* -1: none */
    int32_t reason; /* CR_WIN, CR_STALEMATE or CR_MOVE_CAP */
    int32_t turns;
    int32_t violations; /* Stop! decisions met (priority violations under callable rules) */
    int32_t calls;      /* of them, called */
    int64_t scores[2];
    int64_t moves;
} cr_result;

/* Play a deal from g's state to its end, player p following policies[p] with the
   generator rng[p] (the Python bots' RandomBot / GreedyBot of those seeds); the moves are
   written to record[0..record_cap) when record is not NULL. -1: the key set is too small. */
int cr_play_deal(cr_game *g, const cr_rules *r, const int *policies, uint64_t *rng,
                 uint16_t *record, int64_t record_cap, cr_result *out);

/* The greedy play-out of crapette.bots.search.play_out: both players greedy from g's state
   to the end of the opponent's `turns`-th next turn (at most 400 * turns moves), scored for
   player p (crapette.bots.search.evaluate). Returns 0, or -1 if the key set is too small. */
int cr_play_out(cr_game *g, const cr_rules *r, int p, uint64_t *rng, int turns, int64_t *value,
                int64_t *played, int64_t *scored);

/* The widest look-ahead of cr_deep_play_out (crapette.bots.expert's LOOKAHEAD_WIDTH is 2). */
#define CR_MAX_WIDTH 64

/* crapette.bots.expert.lookahead_move in g's position: the move (among the `width` best by
   the greedy ranking, 1 to CR_MAX_WIDTH) whose greedy play-out, played in `scratch`, scores
   best for the player to act; adds its play-outs' moves and scored moves. Returns 0, -1 if a
   key set is too small, -2 if there is no move. */
int cr_lookahead_move(cr_game *g, cr_game *scratch, const cr_rules *r, uint64_t *rng, int width,
                      int *move, int64_t *played, int64_t *scored);

/* crapette.bots.expert.deep_play_out from g's state for player p: look-ahead moves to the end
   of the opponent's next turn (400 moves at most), then cr_play_out; `scratch` is the look-ahead's
   work space. Returns 0, -1 if a key set is too small, -2 if a move could not be played. */
int cr_deep_play_out(cr_game *g, cr_game *scratch, const cr_rules *r, int p, uint64_t *rng,
                     int turns, int width, int64_t *value, int64_t *played, int64_t *scored);

/* The crapette.bots.search.evaluate value of a state for player p (0 for another p). */
int64_t cr_evaluate(const cr_rules *r, const cr_state *s, int p);

#ifdef __cplusplus
}
#endif

#endif
