/*
 * A fuzz driver of the C core and of its WebAssembly binding, to run under AddressSanitizer
 * and UndefinedBehaviorSanitizer.
 *
 * It decodes bytes into rules and a state (any pile lengths and cards, duplicates, missing
 * cards, counters anywhere in their range, moves_made up to its limit, pending Stop!
 * decisions), checks them with cr_state_check as a binding does, and calls every entry point
 * on what passes: the legal moves with and without layouts seen, every move of the table
 * through cr_apply (legal or not), the violations, the greedy ranking and bot (on the legal
 * moves and on random move lists), the check of a position, the outcome and counts, and
 * short play-outs and deals. After every move it checks the invariants a state keeps: the
 * result passes cr_state_check and holds the same cards; a move from a state at the move
 * counter's limit is refused. Real deals from seeds are played to their end too.
 *
 * The binding (native/wasm_api.c, compiled natively over a fixed arena) is driven as
 * JavaScript drives it, and with anything else: random bytes in its exchange area (rules,
 * state, prior, moves, layout keys, packs), move and key counts beyond their buffers,
 * negative and huge arguments; after every refused call a valid call on a good state must
 * still give the core's own answer (legal moves and greedy scores compared).
 *
 *   gcc -std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
 *       native/fuzz.c native/crapette_core.c native/wasm_api.c -o fuzz && ./fuzz 20000 1
 *   (arguments: iterations, seed; docs/performance.md gives the longer run)
 *
 * Built with -DCR_LIBFUZZER and clang's -fsanitize=fuzzer,address,undefined it is a
 * libFuzzer target instead (LLVMFuzzerTestOneInput).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crapette_core.h"

/* The WebAssembly binding's entry points (native/wasm_api.c). */
cr_rules *wa_rules(void);
cr_state *wa_state(void);
cr_state *wa_prior(void);
cr_state *wa_out(void);
uint16_t *wa_moves(void);
int32_t *wa_scores(void);
int64_t *wa_io(void);
int64_t *wa_result(void);
uint8_t *wa_packs(void);
int wa_nmoves(void);
uint64_t *wa_seen_keys(uint32_t n);
int wa_check(void);
uint64_t wa_houses_key(void);
int wa_legal_moves(uint32_t n, uint64_t current);
int wa_is_legal(uint32_t n, uint64_t current, int move);
int wa_apply(int move, int has_prior, int known, uint64_t current);
int wa_violation(int move);
int wa_why_illegal(uint32_t n, uint64_t current, int move, int only_priority);
int wa_outcome(void);
void wa_counts(void);
int wa_winner(void);
int wa_is_over(void);
int64_t wa_evaluate(int p);
int wa_new_game(uint64_t seed);
int wa_deal(int starter);
int wa_greedy_scores(int n, uint32_t nseen, uint64_t current);
int wa_greedy_move(int n, uint64_t rng, uint32_t nseen, uint64_t current);
uint64_t wa_rng_below(uint64_t rng, uint64_t n);
uint16_t *wa_record(int64_t n);
int wa_play_deal(int from_seed, uint64_t seed, int policy0, int policy1, uint64_t rng0,
                 uint64_t rng1, int64_t record);
int64_t wa_play_random(uint64_t seed, uint64_t rng0, uint64_t rng1, int count);

static void fail(const char *what) {
    fprintf(stderr, "fuzz: %s\n", what);
    abort();
}

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static unsigned next_byte(reader *r) { return r->at < r->size ? r->data[r->at++] : 0; }

static unsigned below(reader *r, unsigned n) { return n ? next_byte(r) % n : 0; }

/* Any ruleset the spec allows: each option's code drawn from its range (native/spec.h);
   numbers from a few values near the ends of their range, which is what the rules read. */
static void read_rules(reader *r, cr_rules *rules) {
    memset(rules, 0, sizeof *rules);
    for (int i = 0; i < CR_NOPTIONS; i++) {
        const cr_option_spec *o = &cr_option_table[i];
        int64_t span = o->high - o->low;
        unsigned pick = next_byte(r);
        if (o->kind == CR_KIND_COUNT && pick % 8 == 0) {
            rules->v[i] = -1;
        } else if (span < 256) {
            rules->v[i] = o->low + (int64_t)(pick % (unsigned)(span + 1));
        } else {
            rules->v[i] = pick & 1 ? o->low + (pick >> 1) : o->high - (pick >> 1);
        }
    }
    /* a short cap keeps a fuzzed deal short */
    CR_RULE(rules, MOVE_CAP) = 1 + (int64_t)below(r, 255) * 97;
    /* mostly rulesets the bindings accept: a reserve that fits the pack (the core clamps
       one that does not) */
    int most = cr_packs[CR_RULE(rules, PACK)].size - 4;
    if (CR_RULE(rules, RESERVE_SIZE) > most && below(r, 8)) CR_RULE(rules, RESERVE_SIZE) = most;
}

/* Any bytes as a state: lengths and cards in range or not; cr_state_check decides. */
static void read_state(reader *r, cr_state *s) {
    memset(s, 0, sizeof *s);
    int mode = (int)below(r, 8);   /* 0: any lengths; 1: any card bytes; else in range */
    int total = 0, room = CR_NCARDS - (int)below(r, 30);
    for (int i = 0; i < CR_NPILES; i++) {
        int cap = room - total < 16 ? room - total : 16;
        int n = mode == 0 ? (int)next_byte(r) : (int)below(r, (unsigned)cap + 1);
        s->len[(i * 7) % CR_NPILES] = (uint8_t)n; /* piles in a shuffled order */
        total += n;
    }
    for (int i = 0; i < CR_NCARDS; i++) {
        unsigned v = next_byte(r);
        s->cards[i] = (uint8_t)(i < total ? (mode == 1 ? v : v % CR_NCARDS) : 0);
    }
    s->turned = (uint8_t)(below(r, 3) ? CR_NO_CARD : next_byte(r) % (mode == 1 ? 256 : CR_NCARDS));
    s->to_act = (uint8_t)below(r, mode == 1 ? 4 : 2);
    s->reserve_up[0] = (uint8_t)below(r, 20);
    s->reserve_up[1] = (uint8_t)below(r, 20);
    s->passes[0] = (uint8_t)below(r, 3);
    s->passes[1] = (uint8_t)below(r, 3);
    s->emptied = (uint8_t)next_byte(r);
    if (below(r, 4) == 0) {
        unsigned move = (next_byte(r) << 8 | next_byte(r)) % CR_NMOVES;
        s->stop = (uint16_t)((move + 1) | below(r, 2) << 12 | below(r, 2) << 13);
    } else if (below(r, 4) == 0) {
        unsigned move = (next_byte(r) << 8 | next_byte(r)) % CR_NMOVES;
        s->fault = (uint16_t)((move + 1) | below(r, 2) << 12 | below(r, 2) << 13);
    }
    s->calls = (uint8_t)(next_byte(r) & (mode == 1 ? 0xFF : 0x1F));
    s->moves_made = (uint32_t)below(r, 200);
    if (below(r, 16) == 0) s->moves_made = CR_MOVES_MADE_LIMIT - below(r, 2); /* its limit */
}

static void check_cards(const cr_state *before, const cr_state *after) {
    int a[CR_NCARDS] = {0}, b[CR_NCARDS] = {0};
    int na = cr_total(before), nb = cr_total(after);
    for (int i = 0; i < na; i++) a[before->cards[i]]++;
    for (int i = 0; i < nb; i++) b[after->cards[i]]++;
    if (before->turned != CR_NO_CARD) a[before->turned]++;
    if (after->turned != CR_NO_CARD) b[after->turned]++;
    for (int i = 0; i < CR_NCARDS; i++) {
        if (a[i] != b[i]) {
            fprintf(stderr, "fuzz: a move changed the cards of a state (card %d)\n", i);
            abort();
        }
    }
    if (cr_state_check(after) != 0) {
        fprintf(stderr, "fuzz: a move made a state that fails cr_state_check (%d)\n", cr_state_check(after));
        abort();
    }
}

enum { CAPACITY = 1 << 12 };

typedef struct work {
    cr_game game, scratch;
    uint64_t keys[CAPACITY], scratch_keys[CAPACITY];
    uint32_t index[2 * CAPACITY], scratch_index[2 * CAPACITY];
} work;

static void exercise(const cr_rules *rules, const cr_state *s, const cr_state *prior, work *w,
                     uint64_t seed, reader *r) {
    uint16_t moves[CR_NMOVES], remedy[2];
    int32_t scores[CR_NMOVES];
    (void)cr_position_check(rules, s);
    int n = cr_legal_moves(rules, s, NULL, moves);
    /* a log of layouts seen: the current layout and a few made-up ones */
    uint64_t keys[3] = {cr_houses_key(rules, s) ^ 1, seed, cr_houses_key(rules, s)};
    cr_seen seen = {keys, NULL, 0, 3, ~0ull, keys[2]};
    int m = cr_legal_moves(rules, s, &seen, moves + 0);
    (void)m;
    n = cr_legal_moves(rules, s, NULL, moves);
    for (int move = 0; move < CR_NMOVES; move++) {
        cr_state out;
        uint64_t key = 0;
        int nr = 0;
        cr_violation(rules, s, move, remedy, &nr);
        int effect = cr_apply(rules, s, prior, move, &out, NULL, &key);
        if (effect >= 0 && s->moves_made >= CR_MOVES_MADE_LIMIT)
            fail("a move from a state at the move counter's limit was made");
        if (effect >= 0) {
            /* the undo and lose_draw penalties return to (the piles of) the prior position,
               unrelated bytes here: only the result's soundness is checked then */
            int stop = (int)CR_RULE(rules, STOP);
            int from_prior = (s->stop || s->fault) && cr_move_table[move].action == CR_ACT_CALL_STOP &&
                             (stop == CR_STOP_UNDO || stop == CR_STOP_LOSE_DRAW);
            if (from_prior) {
                if (cr_state_check(&out) != 0) {
                    fprintf(stderr, "fuzz: a call made a state that fails cr_state_check\n");
                    abort();
                }
            } else {
                check_cards(s, &out);
            }
            uint16_t after[CR_NMOVES];
            cr_legal_moves(rules, &out, NULL, after);
        }
        (void)cr_is_legal(rules, s, &seen, move);
        int32_t params[CR_MAX_REASON_PARAMS];
        int np = 0;
        int code = cr_why_illegal(rules, s, move & 1 ? &seen : NULL, move, params, &np);
        if (code < 0 || code >= CR_NREASONS || np > CR_MAX_REASON_PARAMS) abort();
        code = cr_violation_reason(rules, s, move, params, &np);
        if (code < 0 || code >= CR_NREASONS || np > CR_MAX_REASON_PARAMS) abort();
    }
    if (n) {
        cr_greedy_scores(rules, s, moves, n, scores);
        uint64_t rng = seed;
        (void)cr_greedy_move(rules, s, moves, n, &rng);
        if (cr_first_illegal(rules, s, NULL, moves, n) != -1)
            fail("cr_first_illegal refused a legal move");
    }
    /* a list of any moves (repeats, moves of the table that are not legal, indexes beyond
       it): the check names one, and the ranking itself never reads outside the state */
    uint16_t any[CR_NMOVES];
    int k = (int)below(r, CR_NMOVES + 1);
    for (int i = 0; i < k; i++) any[i] = (uint16_t)((next_byte(r) << 8 | next_byte(r)) % (CR_NMOVES + 40));
    int bad = cr_first_illegal(rules, s, NULL, any, k);
    if (bad >= k) fail("cr_first_illegal answered an index beyond the list");
    for (int i = 0; i < (bad < 0 ? k : bad); i++)
        if (!cr_is_legal(rules, s, NULL, any[i])) fail("cr_first_illegal passed an illegal move");
    cr_greedy_scores(rules, s, any, k, scores);
    if (k) {
        uint64_t rng = seed;
        (void)cr_greedy_move(rules, s, any, k, &rng);
    }
    int winner;
    int64_t out_scores[2], counts[2];
    (void)cr_outcome(rules, s, &winner, out_scores);
    cr_counts(rules, s, counts);
    (void)cr_evaluate(rules, s, 0);
    cr_keyset_init(&w->game.seen, w->keys, w->index, CAPACITY);
    if (cr_game_start(&w->game, rules, s, prior, NULL) == 0) {
        uint64_t rng = seed;
        int64_t value, played, listed;
        cr_play_out(&w->game, rules, s->to_act, &rng, 1, &value, &played, &listed);
    }
    /* the expert's deep play-out (its look-ahead in a scratch game), on one state in eight */
    cr_keyset_init(&w->game.seen, w->keys, w->index, CAPACITY);
    cr_keyset_init(&w->scratch.seen, w->scratch_keys, w->scratch_index, CAPACITY);
    if (seed % 8 == 0 && cr_game_start(&w->game, rules, s, prior, NULL) == 0) {
        uint64_t rng = seed;
        int64_t value, played, listed;
        int width = 1 + (int)((seed >> 8) % 3);
        cr_deep_play_out(&w->game, &w->scratch, rules, s->to_act, &rng, 1, width, &value, &played,
                         &listed);
    }
}

static long decoded, binding_calls;

/* The binding's answers for a good state, against the core's own: the legal moves (with
   no layouts seen) and the greedy scores of them. */
static void binding_agrees(const cr_rules *rules, const cr_state *s) {
    uint16_t moves[CR_NMOVES];
    int32_t scores[CR_NMOVES];
    *wa_rules() = *rules;
    *wa_state() = *s;
    int n = cr_legal_moves(rules, s, NULL, moves);
    binding_calls += 2;
    if (wa_legal_moves(0, 0) != n || memcmp(wa_moves(), moves, sizeof(uint16_t) * (size_t)n) != 0)
        fail("the binding's legal moves are not the core's");
    if (!n) return;
    cr_greedy_scores(rules, s, moves, n, scores);
    if (wa_greedy_scores(n, 0, 0) != -1 || memcmp(wa_scores(), scores, sizeof(int32_t) * (size_t)n) != 0)
        fail("the binding's greedy scores are not the core's");
}

/* Calls of the binding with anything in its arguments and its exchange area. */
static void hostile_calls(reader *r, int calls) {
    for (int c = 0; c < calls; c++) {
        unsigned op = below(r, 16);
        uint64_t big = 0;
        for (int i = 0; i < 8; i++) big = big << 8 | next_byte(r);
        int small = (int)(int8_t)next_byte(r) * (int)(1 + below(r, 40));
        binding_calls++;
        switch (op) {
        case 0: { /* any bytes as the state (or the rules, or the prior) */
            uint8_t *area = below(r, 3) == 0 ? (uint8_t *)wa_rules()
                            : below(r, 2)    ? (uint8_t *)wa_state()
                                             : (uint8_t *)wa_prior();
            size_t size = area == (uint8_t *)wa_rules() ? sizeof(cr_rules) : sizeof(cr_state);
            for (size_t i = 0; i < size; i++)
                if (below(r, 4) == 0) area[i] = (uint8_t)next_byte(r);
            (void)wa_check();
            (void)wa_houses_key();
            break;
        }
        case 1:
            (void)wa_legal_moves((uint32_t)small, big);
            break;
        case 2:
            (void)wa_is_legal((uint32_t)small, big, small * 7);
            (void)wa_why_illegal((uint32_t)small, big, small * 7, (int)below(r, 2));
            break;
        case 3:
            (void)wa_apply(small * 5, (int)below(r, 2), (int)below(r, 2), big);
            break;
        case 4:
            (void)wa_violation(small * 7);
            (void)wa_outcome();
            wa_counts();
            (void)wa_winner();
            (void)wa_is_over();
            (void)wa_evaluate(small);
            break;
        case 5: { /* any move indexes, any count */
            uint16_t *m = wa_moves();
            for (int i = 0; i < CR_NMOVES; i++)
                if (below(r, 8) == 0) m[i] = (uint16_t)(next_byte(r) << 8 | next_byte(r));
            (void)wa_greedy_scores(small * 13, (uint32_t)below(r, 4), big);
            break;
        }
        case 6:
            (void)wa_greedy_move(small * 13, big, (uint32_t)below(r, 4), big);
            break;
        case 7: { /* layout keys: room for some, a count of more */
            uint32_t n = below(r, 2) ? below(r, 70) : (uint32_t)small;
            uint64_t *keys = wa_seen_keys(n);
            if (keys)
                for (uint32_t i = 0; i < n; i++) keys[i] = big ^ (uint64_t)i * 0x9E3779B97F4A7C15ull;
            (void)wa_legal_moves(n + below(r, 3), big);
            break;
        }
        case 8:
            (void)wa_rng_below(big, below(r, 3) ? (uint64_t)small : big);
            break;
        case 9: { /* packs of any bytes, any starter */
            uint8_t *packs = wa_packs();
            for (int i = 0; i < 104; i++)
                packs[i] = below(r, 8) ? (uint8_t)i : (uint8_t)next_byte(r);
            (void)wa_deal(small);
            break;
        }
        case 10:
            (void)wa_new_game(big);
            break;
        case 11:
            (void)wa_record(below(r, 2) ? (int64_t)small : (int64_t)big);
            break;
        case 12: /* a whole deal (a small move cap, or refused rules) */
            if (below(r, 8) == 0 && CR_RULE(wa_rules(), MOVE_CAP) > 0 && CR_RULE(wa_rules(), MOVE_CAP) < 400)
                (void)wa_play_deal((int)below(r, 2), big, small, (int)below(r, 2), big, big >> 7,
                                   (int64_t)small);
            break;
        case 13:
            (void)wa_nmoves();
            (void)wa_io();
            (void)wa_result();
            (void)wa_out();
            break;
        default: /* a valid-looking call on whatever the area holds */
            (void)wa_legal_moves(0, 0);
            (void)wa_apply(small & 1023, 0, 0, 0);
            break;
        }
    }
}

static void fuzz_one(const uint8_t *data, size_t size, work *w) {
    reader r = {data, size, 0};
    cr_rules rules;
    cr_state s, prior;
    read_rules(&r, &rules);
    read_state(&r, &s);
    if (cr_state_check(&s) != 0) { /* what a binding refuses: the WebAssembly one too */
        *wa_rules() = rules;
        *wa_state() = s;
        binding_calls += 2;
        if (wa_legal_moves(0, 0) != -1 || wa_greedy_scores(0, 0, 0) != -2)
            fail("the binding read a state that fails cr_state_check");
        return;
    }
    decoded++;
    read_state(&r, &prior);
    prior.stop = 0;
    const cr_state *p = cr_state_check(&prior) == 0 ? &prior : NULL;
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++) seed = seed << 8 | next_byte(&r);
    exercise(&rules, &s, p, w, seed, &r);
    binding_agrees(&rules, &s);
    hostile_calls(&r, 1 + (int)below(&r, 6));
    binding_agrees(&rules, &s); /* a refused call leaves nothing behind */
}

/* A real deal played to its end with random moves, every state exercised a little. */
static void play(uint64_t seed, work *w, uint8_t *bytes) {
    reader r = {bytes, 64, 0};
    cr_rules rules;
    read_rules(&r, &rules);
    CR_RULE(&rules, MOVE_CAP) = 3000;
    cr_state s;
    cr_new_game(&rules, seed, &s);
    cr_keyset_init(&w->game.seen, w->keys, w->index, CAPACITY);
    if (cr_game_start(&w->game, &rules, &s, NULL, NULL) != 0) return;
    uint64_t rng = seed;
    for (int ply = 0; ply < 3000; ply++) {
        int n = cr_game_list(&w->game, &rules);
        if (!n) break;
        cr_state before = w->game.state;
        int move = w->game.moves[cr_rng_below(&rng, (uint64_t)n)];
        if (cr_game_play(&w->game, &rules, move) != 0) break;
        check_cards(&before, &w->game.state);
    }
    int policies[2] = {CR_POLICY_GREEDY, CR_POLICY_RANDOM};
    uint64_t rngs[2] = {seed, seed + 1};
    cr_result result;
    cr_new_game(&rules, seed ^ 0x5eed, &s);
    if (cr_game_start(&w->game, &rules, &s, NULL, NULL) == 0)
        cr_play_deal(&w->game, &rules, policies, rngs, NULL, 0, &result);
}

#ifdef CR_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static work w;
    fuzz_one(data, size, &w);
    return 0;
}
#else
int main(int argc, char **argv) {
    long iterations = argc > 1 ? atol(argv[1]) : 20000;
    uint64_t rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    work *w = calloc(1, sizeof *w);
    if (!w) return 2;
    uint8_t bytes[512];
    for (long i = 0; i < iterations; i++) {
        for (size_t j = 0; j < sizeof bytes; j++) bytes[j] = (uint8_t)cr_rng_next(&rng);
        fuzz_one(bytes, sizeof bytes, w);
        if (i % 200 == 0) play(cr_rng_next(&rng), w, bytes);
    }
    free(w);
    printf("fuzz: %ld inputs (%ld decoded as states, %ld calls of the WebAssembly binding),"
           " no finding\n", iterations, decoded, binding_calls);
    return 0;
}
#endif
