/*
 * A fuzz driver of the C core, to run under AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * It decodes bytes into rules and a state (any pile lengths and cards, duplicates, missing
 * cards, counters anywhere in their range, pending Stop! decisions), checks them with
 * cr_state_check as a binding does, and calls every entry point on what passes: the legal
 * moves with and without layouts seen, every move of the table through cr_apply (legal or
 * not), the violations, the greedy ranking and bot, the outcome and counts, and short
 * play-outs and deals. After every move it checks the invariants a state keeps: the result
 * passes cr_state_check and holds the same cards. Real deals from seeds are played to
 * their end too.
 *
 *   gcc -std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
 *       native/fuzz.c native/crapette_core.c -o fuzz && ./fuzz 20000 1
 *   (arguments: iterations, seed; docs/performance.md gives the longer run)
 *
 * Built with -DCR_LIBFUZZER and clang's -fsanitize=fuzzer,address,undefined it is a
 * libFuzzer target instead (LLVMFuzzerTestOneInput).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crapette_core.h"

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
    }
    s->moves_made = (uint32_t)below(r, 200);
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
    cr_game game;
    uint64_t keys[CAPACITY];
    uint32_t index[2 * CAPACITY];
} work;

static void exercise(const cr_rules *rules, const cr_state *s, const cr_state *prior, work *w,
                     uint64_t seed) {
    uint16_t moves[CR_NMOVES], remedy[2];
    int32_t scores[CR_NMOVES];
    int n = cr_legal_moves(rules, s, NULL, moves);
    /* a log of layouts seen: the current layout and a few made-up ones */
    uint64_t keys[3] = {cr_houses_key(s) ^ 1, seed, cr_houses_key(s)};
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
        if (effect >= 0) {
            /* the undo penalty returns to the prior position (unrelated bytes here) */
            int undone = s->stop && CR_RULE(rules, STOP) == CR_STOP_UNDO &&
                         cr_move_table[move].action == CR_ACT_CALL_STOP;
            check_cards(undone ? prior : s, &out);
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
}

static long decoded;

static void fuzz_one(const uint8_t *data, size_t size, work *w) {
    reader r = {data, size, 0};
    cr_rules rules;
    cr_state s, prior;
    read_rules(&r, &rules);
    read_state(&r, &s);
    if (cr_state_check(&s) != 0) return; /* what a binding refuses */
    decoded++;
    read_state(&r, &prior);
    prior.stop = 0;
    const cr_state *p = cr_state_check(&prior) == 0 ? &prior : NULL;
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++) seed = seed << 8 | next_byte(&r);
    exercise(&rules, &s, p, w, seed);
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
    printf("fuzz: %ld inputs (%ld decoded as states), no finding\n", iterations, decoded);
    return 0;
}
#endif
