/*
 * The WebAssembly binding of the C core (crapette_core.c) for the JavaScript package (js/).
 *
 * The core keeps no state and allocates nothing; a binding provides the buffers. This one
 * keeps a small exchange area in the module's memory that the JavaScript side writes its
 * arguments into and reads the results from (a ruleset, a state, the state before a pending
 * Stop! decision, the layout keys seen this turn, the moves, a few 64-bit scalars), and the
 * play-out work space (cr_game) of the batch entry point. JavaScript is single-threaded per
 * instance, so one exchange area per instance is enough. Every exported name starts with
 * wa_; js/src/engine.js is the one reader of this file.
 *
 * Memory: the fixed buffers are static; the buffers that grow (the seen keys of a long turn,
 * the play-out key set) come from a bump allocator above __heap_base that grows the memory
 * with memory.grow and never frees (a buffer that outgrows its room is replaced by one twice
 * as large, so the waste stays below the live size). Growing the memory detaches the
 * JavaScript views of it: the JavaScript side renews them after every call that may grow.
 *
 * Every entry point checks what JavaScript wrote before the core reads it: a count of moves
 * or keys within the buffer that holds them, move indexes in the move table and legal in the
 * state (the greedy ranking), a player 0 or 1, packs of their 52 cards, a state that passes
 * cr_state_check (wa_check, which engine.js calls on every state it loads); a refused call
 * returns an error code and writes nothing, so the next call finds the module as it was.
 *
 * Built by js/build-wasm.py with clang --target=wasm32 and wasm-ld (no C library: the core
 * needs only memcpy, memmove, memset and memcmp, written below). Compiled natively instead
 * (no __wasm__), it is the same binding over a fixed arena, which native/fuzz.c drives under
 * the sanitizers.
 */
#include <stddef.h>
#include <stdint.h>

#include "crapette_core.h"

#if defined(__wasm__)
#define EXPORT(name) __attribute__((export_name(#name))) name
#else
#define EXPORT(name) name
#endif

/* The layout the JavaScript side reads and writes (js/src/engine.js). */
_Static_assert(sizeof(cr_state) == 196, "cr_state layout");
_Static_assert(offsetof(cr_state, len) == 156, "cr_state.len");
_Static_assert(offsetof(cr_state, turned) == 180, "cr_state.turned");
_Static_assert(offsetof(cr_state, to_act) == 181, "cr_state.to_act");
_Static_assert(offsetof(cr_state, reserve_up) == 182, "cr_state.reserve_up");
_Static_assert(offsetof(cr_state, passes) == 184, "cr_state.passes");
_Static_assert(offsetof(cr_state, emptied) == 186, "cr_state.emptied");
_Static_assert(offsetof(cr_state, calls) == 187, "cr_state.calls");
_Static_assert(offsetof(cr_state, stop) == 188, "cr_state.stop");
_Static_assert(offsetof(cr_state, fault) == 190, "cr_state.fault");
_Static_assert(offsetof(cr_state, moves_made) == 192, "cr_state.moves_made");
/* The rules are the spec's table of option codes (js/lib/spec.js writes them in order). */
_Static_assert(sizeof(cr_rules) == 8 * CR_NOPTIONS, "cr_rules layout: one int64 per option");

#if defined(__wasm__)
/* ---------------------------------------------------------------------------------------- */
/* The C library functions the core calls (clang turns its own calls into these too) */

/* Word by word where they can (8 bytes at a time; unaligned loads are fine in WebAssembly):
   the core moves runs of up to 104 card bytes on every move. */
typedef uint64_t __attribute__((may_alias, aligned(1))) word;

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (; n >= 8; n -= 8, d += 8, s += 8) *(word *)d = *(const word *)s;
    while (n--) *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        for (; n >= 8; n -= 8, d += 8, s += 8) *(word *)d = *(const word *)s;
        while (n--) *d++ = *s++;
    } else if (d > s) {
        d += n;
        s += n;
        for (; n >= 8; n -= 8) {
            d -= 8;
            s -= 8;
            *(word *)d = *(const word *)s;
        }
        while (n--) *--d = *--s;
    }
    return dst;
}

void *memset(void *dst, int c, size_t n) {
    unsigned char *d = dst;
    uint64_t w = 0x0101010101010101ull * (unsigned char)c;
    for (; n >= 8; n -= 8, d += 8) *(word *)d = w;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y) return *x < *y ? -1 : 1;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Memory above the static data */

extern unsigned char __heap_base;
static uintptr_t g_top;

/* `bytes` of fresh memory (8-byte aligned), or NULL when the memory cannot grow. */
static void *grab(size_t bytes) {
    if (!g_top) g_top = ((uintptr_t)&__heap_base + 7u) & ~(uintptr_t)7u;
    uintptr_t start = g_top, end = start + ((bytes + 7u) & ~(size_t)7u);
    if (end < start) return NULL;
    uintptr_t have = (uintptr_t)__builtin_wasm_memory_size(0) * 65536u;
    if (end > have) {
        uintptr_t pages = (end - have + 65535u) / 65536u;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return NULL;
    }
    g_top = end;
    return (void *)start;
}
#else
/* The native build (native/fuzz.c): the C library's memory functions, and a fixed arena of
   WA_ARENA bytes for the buffers that grow (a request beyond it fails as a memory that
   cannot grow does). */
#include <stdlib.h>
#include <string.h>
#ifndef WA_ARENA
#define WA_ARENA (64u << 20)
#endif
static unsigned char *g_arena;
static size_t g_used;

static void *grab(size_t bytes) {
    if (!g_arena && !(g_arena = calloc(WA_ARENA, 1))) return NULL;
    size_t size = (bytes + 7u) & ~(size_t)7u;
    if (size < bytes || size > WA_ARENA - g_used) return NULL;
    void *out = g_arena + g_used;
    g_used += size;
    return out;
}
#endif

/* ---------------------------------------------------------------------------------------- */
/* The exchange area */

static cr_rules g_rules;
static cr_state g_state;  /* the state an entry point reads */
static cr_state g_prior;  /* its prior, when it awaits a Stop! decision */
static cr_state g_out;    /* the state an entry point writes */
static uint16_t g_moves[CR_NMOVES];
static int32_t g_scores[CR_NMOVES];
static int64_t g_io[8];   /* 64-bit scalars in and out (see each entry point) */
static int32_t g_params[CR_MAX_REASON_PARAMS]; /* a refusal's parameters (wa_why_illegal) */
static cr_result g_result;
/* The result of the last deal played, as JavaScript reads it (a layout of the binding's
   own, whatever cr_result becomes): starter, winner (-1: none), reason, turns, the two
   scores, moves, Stop! decisions met and of them called. */
static int64_t g_deal[9];
static uint8_t g_packs[CR_NCARDS]; /* both pack orders: pack 0 then pack 1 */

/* The layout keys of the state's turn, written by JavaScript (the first `n` keys of its
   log), with an index for a long log. */
#define INDEX_FROM 32
static uint64_t *g_seen_keys;
static uint32_t g_seen_cap;
static uint32_t *g_seen_index;
static uint32_t g_seen_slots;

cr_rules *EXPORT(wa_rules)(void) { return &g_rules; }
cr_state *EXPORT(wa_state)(void) { return &g_state; }
cr_state *EXPORT(wa_prior)(void) { return &g_prior; }
cr_state *EXPORT(wa_out)(void) { return &g_out; }
uint16_t *EXPORT(wa_moves)(void) { return g_moves; }
int32_t *EXPORT(wa_scores)(void) { return g_scores; }
int64_t *EXPORT(wa_io)(void) { return g_io; }
int32_t *EXPORT(wa_params)(void) { return g_params; }
int64_t *EXPORT(wa_result)(void) { return g_deal; }
uint8_t *EXPORT(wa_packs)(void) { return g_packs; }
int EXPORT(wa_nmoves)(void) { return CR_NMOVES; }

/* Room for n seen keys; returns where to write them (NULL: out of memory). May grow the
   memory. */
uint64_t *EXPORT(wa_seen_keys)(uint32_t n) {
    if (n > g_seen_cap) {
        uint32_t cap = g_seen_cap ? g_seen_cap : 64;
        while (cap < n) {
            if (cap > (1u << 27)) return NULL;
            cap *= 2;
        }
        uint64_t *keys = grab(sizeof(uint64_t) * cap);
        uint32_t *index = grab(sizeof(uint32_t) * 2 * (size_t)cap);
        if (!keys || !index) return NULL;
        g_seen_keys = keys;
        g_seen_index = index;
        g_seen_cap = cap;
        g_seen_slots = 2 * cap;
    }
    return g_seen_keys;
}

/* The cr_seen of the n keys written (NULL for none: only the current layout seen); the
   caller has checked that n fits the keys written (n <= g_seen_cap). */
static const cr_seen *seen_of(uint32_t n, uint64_t current, cr_seen *sn) {
    if (!n) return NULL;
    uint64_t filter = 0;
    for (uint32_t i = 0; i < n; i++) filter |= 1ull << (g_seen_keys[i] & 63);
    sn->keys = g_seen_keys;
    sn->size = n;
    sn->filter = filter;
    sn->current = current;
    sn->index = NULL;
    sn->mask = 0;
    if (n > INDEX_FROM) {
        uint32_t slots = 64;
        while (slots < 2 * n) slots *= 2;
        uint32_t mask = slots - 1;
        memset(g_seen_index, 0, sizeof(uint32_t) * slots);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t j = (uint32_t)g_seen_keys[i] & mask;
            while (g_seen_index[j]) j = (j + 1) & mask;
            g_seen_index[j] = i + 1;
        }
        sn->index = g_seen_index;
        sn->mask = mask;
    }
    return sn;
}

/* ---------------------------------------------------------------------------------------- */
/* The rules on g_state */

/* Whether the exchange area holds what the core may read: rules of their ranges and a state
   that passes cr_state_check. JavaScript writes both (engine.js checks every state it loads);
   every entry point that reads them checks again, so that bytes written by other means are
   refused with an error code, never read out of bounds. */
static int ready(void) { return cr_rules_check(&g_rules) && cr_state_check(&g_state) == 0; }

int EXPORT(wa_check)(void) { return cr_state_check(&g_state); }
uint64_t EXPORT(wa_houses_key)(void) {
    return ready() ? cr_houses_key(&g_rules, &g_state) : 0;
}

/* The legal moves into wa_moves; seen: the n keys written, current the state's layout.
   -1 when n is more keys than were written, or the area is not ready(). */
int EXPORT(wa_legal_moves)(uint32_t n, uint64_t current) {
    if (!ready() || n > g_seen_cap) return -1;
    cr_seen sn;
    return cr_legal_moves(&g_rules, &g_state, seen_of(n, current, &sn), g_moves);
}

int EXPORT(wa_is_legal)(uint32_t n, uint64_t current, int move) {
    if (move < 0 || move >= CR_NMOVES || n > g_seen_cap || !ready()) return 0;
    cr_seen sn;
    return cr_is_legal(&g_rules, &g_state, seen_of(n, current, &sn), move);
}

/* g_out = g_state after move (with g_prior when has_prior); the layout key of g_state is
   `current` when known. Returns CR_SEEN_* or -1 (a move that cannot be made, an area that
   is not ready(), or a prior that fails cr_state_check); io[0] is the new key after
   CR_SEEN_ADD. */
int EXPORT(wa_apply)(int move, int has_prior, int known, uint64_t current) {
    if (!ready() || (has_prior && cr_state_check(&g_prior) != 0)) return -1;
    uint64_t key = 0;
    int effect = cr_apply(&g_rules, &g_state, has_prior ? &g_prior : NULL, move, &g_out,
                          known ? &current : NULL, &key);
    g_io[0] = (int64_t)key;
    return effect;
}

/* The violation kind of move; io[0] the number of remedy moves, io[1..] the moves. */
int EXPORT(wa_violation)(int move) {
    uint16_t remedy[2] = {0, 0};
    int n = 0;
    int kind = ready() ? cr_violation(&g_rules, &g_state, move, remedy, &n) : -1;
    g_io[0] = n;
    g_io[1] = remedy[0];
    g_io[2] = remedy[1];
    return kind;
}

/* Why move is illegal (cr_why_illegal; only_priority: cr_violation_reason, the priority it
   breaks whatever the Stop! rule): the reason code of spec.h (0: legal, or none broken),
   io[0] the number of its parameters, written to wa_params; -1 for a move outside the
   table, more keys than were written, or an area that is not ready(). */
int EXPORT(wa_why_illegal)(uint32_t n, uint64_t current, int move, int only_priority) {
    int count = 0, code;
    if (move < 0 || move >= CR_NMOVES || n > g_seen_cap || !ready()) return -1;
    if (only_priority) {
        code = cr_violation_reason(&g_rules, &g_state, move, g_params, &count);
    } else {
        cr_seen sn;
        code = cr_why_illegal(&g_rules, &g_state, seen_of(n, current, &sn), move, g_params, &count);
    }
    g_io[0] = count;
    return code;
}

/* The outcome reason (CR_RUNNING while it runs); io[0] the winner (-1), io[1..2] scores.
   (The queries below answer -1, or 0 and zero counts, for an area that is not ready().) */
int EXPORT(wa_outcome)(void) {
    int winner = -1;
    int64_t scores[2] = {0, 0};
    int reason = ready() ? cr_outcome(&g_rules, &g_state, &winner, scores) : -1;
    g_io[0] = winner;
    g_io[1] = scores[0];
    g_io[2] = scores[1];
    return reason;
}

void EXPORT(wa_counts)(void) {
    if (ready()) cr_counts(&g_rules, &g_state, g_io);
    else g_io[0] = g_io[1] = 0;
}
int EXPORT(wa_winner)(void) { return ready() ? cr_winner(&g_state) : -1; }
int EXPORT(wa_is_over)(void) { return ready() ? cr_is_over(&g_rules, &g_state) : 0; }
int64_t EXPORT(wa_evaluate)(int p) { return ready() ? cr_evaluate(&g_rules, &g_state, p) : 0; }

/* Dealing into g_state: -1 (g_state untouched) for rules that fail cr_rules_check, and for
   wa_deal unless the packs are each their player's cards of the rules' pack and starter is -1,
   0 or 1. */
int EXPORT(wa_new_game)(uint64_t seed) {
    if (!cr_rules_check(&g_rules)) return -1;
    cr_new_game(&g_rules, seed, &g_state);
    return 0;
}
int EXPORT(wa_deal)(int starter) {
    if (!cr_rules_check(&g_rules) || starter < -1 || starter > 1 ||
        !cr_packs_check(&g_rules, g_packs, g_packs + cr_packs[g_rules.v[CR_OPT_PACK]].size))
        return -1;
    cr_deal(&g_rules, g_packs, g_packs + cr_packs[g_rules.v[CR_OPT_PACK]].size, starter, &g_state);
    return 0;
}

/* Whether wa_moves[0..n) may be ranked: n within the buffer (else -2), every move legal in
   g_state with the nseen keys written (else the index of the first that is not); -1 when
   they may. */
static int check_moves(int n, uint32_t nseen, uint64_t current) {
    if (n < 0 || n > CR_NMOVES || nseen > g_seen_cap || !ready()) return -2;
    cr_seen sn;
    int bad = cr_first_illegal(&g_rules, &g_state, seen_of(nseen, current, &sn), g_moves, n);
    return bad;
}

/* The greedy scores of wa_moves[0..n) into wa_scores: -1 when written, else check_moves's
   refusal (nothing written). */
int EXPORT(wa_greedy_scores)(int n, uint32_t nseen, uint64_t current) {
    int bad = check_moves(n, nseen, current);
    if (bad != -1) return bad;
    cr_greedy_scores(&g_rules, &g_state, g_moves, n, g_scores);
    return -1;
}

/* The greedy bot's move among wa_moves[0..n) (io[0] the generator state after the choice),
   or a refusal: -1 for no move, -2 as check_moves, -3 - i for move i not legal. */
int EXPORT(wa_greedy_move)(int n, uint64_t rng, uint32_t nseen, uint64_t current) {
    if (n == 0) return -1;
    int bad = check_moves(n, nseen, current);
    if (bad == -2) return -2;
    if (bad >= 0) return -3 - bad;
    int move = cr_greedy_move(&g_rules, &g_state, g_moves, n, &rng);
    g_io[0] = (int64_t)rng;
    return move;
}

/* A uniform value below n (Rng.below) from the generator state; io[0] is the state after
   (0 for n = 0, drawing nothing). */
uint64_t EXPORT(wa_rng_below)(uint64_t rng, uint64_t n) {
    uint64_t x = cr_rng_below(&rng, n);
    g_io[0] = (int64_t)rng;
    return x;
}

/* ---------------------------------------------------------------------------------------- */
/* Whole deals (the batch entry point, as crapette._core.play_deals) */

static cr_game g_game;
static uint32_t g_game_cap;
static uint16_t *g_record;
static int64_t g_record_cap;

static int game_room(uint32_t capacity) {
    if (g_game_cap >= capacity) return 0;
    uint64_t *keys = grab(sizeof(uint64_t) * capacity);
    uint32_t *index = grab(sizeof(uint32_t) * 2 * (size_t)capacity);
    if (!keys || !index) return -1;
    g_game_cap = capacity;
    cr_keyset_init(&g_game.seen, keys, index, capacity);
    return 0;
}

/* Room to record `n` moves of a deal, 0 < n <= 2**28; returns where they are written (NULL:
   no memory, or n out of range). */
uint16_t *EXPORT(wa_record)(int64_t n) {
    if (n <= 0 || n > ((int64_t)1 << 28)) return NULL;
    if (n > g_record_cap) {
        uint16_t *buf = grab(sizeof(uint16_t) * (size_t)n);
        if (!buf) return NULL;
        g_record = buf;
        g_record_cap = n;
    }
    return g_record;
}

/* Play the deal of `seed` to its end, player p following policy p (CR_POLICY_*) with the
   generator seeded rng_p, from g_state when seed_given is 0 (else cr_new_game(seed)); the
   result into wa_result (g_deal), the first `record` moves into wa_record's buffer. Returns 0, -1
   when out of memory, -2 for a move that could not be made, -3 for rules that fail
   cr_rules_check or a g_state that fails cr_state_check. */
int EXPORT(wa_play_deal)(int from_seed, uint64_t seed, int policy0, int policy1, uint64_t rng0,
                         uint64_t rng1, int64_t record) {
    cr_state start;
    if (!cr_rules_check(&g_rules)) return -3;
    if (from_seed) cr_new_game(&g_rules, seed, &start);
    else if (cr_state_check(&g_state) != 0) return -3;
    else start = g_state;
    int policies[2] = {policy0, policy1};
    if (record > g_record_cap) record = g_record_cap;
    if (game_room(4096) < 0) return -1;
    for (;;) {
        uint64_t rng[2] = {rng0, rng1};
        int err = cr_game_start(&g_game, &g_rules, &start, NULL, NULL);
        if (!err)
            err = cr_play_deal(&g_game, &g_rules, policies, rng, record > 0 ? g_record : NULL,
                               record, &g_result);
        if (err == -1) {
            if (g_game_cap >= (1u << 26) || game_room(g_game_cap * 2) < 0) return -1;
            continue;
        }
        g_state = g_game.state;
        g_deal[0] = g_result.starter;
        g_deal[1] = g_result.winner;
        g_deal[2] = g_result.reason;
        g_deal[3] = g_result.turns;
        g_deal[4] = g_result.scores[0];
        g_deal[5] = g_result.scores[1];
        g_deal[6] = g_result.moves;
        g_deal[7] = g_result.violations;
        g_deal[8] = g_result.calls;
        return err;
    }
}

/* Play `count` deals of seeds seed, seed + 1, ... with both players random (generators
   seeded rng0 + i and rng1 + i); returns the plies played (the benchmark's loop, with no
   call per deal), or -1. io[0] is the number of wins, io[1] of stalemates, io[2] of move
   caps. */
int64_t EXPORT(wa_play_random)(uint64_t seed, uint64_t rng0, uint64_t rng1, int count) {
    int64_t plies = 0;
    g_io[0] = g_io[1] = g_io[2] = 0;
    for (int i = 0; i < count; i++) {
        int err = wa_play_deal(1, seed + (uint64_t)i, CR_POLICY_RANDOM, CR_POLICY_RANDOM,
                               rng0 + (uint64_t)i, rng1 + (uint64_t)i, 0);
        if (err) return -1;
        plies += g_result.moves;
        g_io[g_result.reason - 1]++;
    }
    return plies;
}
