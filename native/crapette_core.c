/*
 * crapette core: the rules of Russian Bank in plain C11 (see crapette_core.h).
 *
 * Each function names the Python function it mirrors; the Python reference engine is the
 * readable statement of the rules (docs/rules.md) and tests/test_native.py runs both side by
 * side. Nothing here allocates, prints or keeps state between calls.
 */
#include "crapette_core.h"

#include <string.h>

#define BIT(h) (1u << (h))
#define MOVE(src, tgt) (cr_play_index[(src)][(tgt)])
#define R_TO_F MOVE(CR_SRC_RESERVE, CR_TGT_FOUNDATION)
#define PACK_OF(r) (&cr_packs[CR_RULE(r, PACK)])

enum { NONE = CR_NO_CARD };

/* A set of faces (a card with its owner forgotten: 0..77) in two words. */
typedef struct fmask {
    uint64_t w[2];
} fmask;

/* Whether a set holds a face: `wide` is 0 (a compile-time constant) for a pack of fewer
   than 64 faces, whose sets fit the first word. */
static inline int fm_has(const uint64_t *m, int face, int wide) {
    if (!wide) return (int)((m[0] >> face) & 1u);
    return (int)((m[face >> 6] >> (face & 63)) & 1u);
}

/* ALWAYS_INLINE (below): inlined into each of its callers, where constant arguments
   specialise it: the move generator, the transitions and the greedy ranking are
   instantiated for the standard pack (its tables, 8 foundations and one-word face sets
   known at compile time, as fast as an engine of that pack alone) and for any pack. */

/* ---------------------------------------------------------------------------------------- */
/* Reading a state */

/* The prefix sums of the pile lengths, unrolled (the generator's first step); `more` (a
   compile-time constant in the specialised instances) is 0 for a pack of four families,
   whose piles 22 and 23 are empty. */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define ALWAYS_INLINE static __forceinline
#else
#define ALWAYS_INLINE static inline
#endif

ALWAYS_INLINE void offsets_pack(const cr_state *s, int *off, int more) {
    const uint8_t *l = s->len;
    int o = 0;
#define STEP(i) off[i] = o, o += l[i]
    STEP(0); STEP(1); STEP(2); STEP(3); STEP(4); STEP(5); STEP(6); STEP(7);
    STEP(8); STEP(9); STEP(10); STEP(11); STEP(12); STEP(13); STEP(14); STEP(15);
    STEP(16); STEP(17); STEP(18); STEP(19); STEP(20); STEP(21);
    if (more) {
        STEP(22); STEP(23);
    } else {
        off[22] = off[23] = o;
    }
#undef STEP
    off[CR_NPILES] = o;
}

static inline void offsets_of(const cr_state *s, int *off) { offsets_pack(s, off, 1); }

int cr_pile_offset(const cr_state *s, int pile) {
    int o = 0;
    for (int i = 0; i < pile; i++) o += s->len[i];
    return o;
}

int cr_total(const cr_state *s) { return cr_pile_offset(s, CR_NPILES); }

static inline int top_at(const cr_state *s, const int *off, int pile) {
    return s->cards[off[pile] + s->len[pile] - 1];
}

static inline unsigned popcount8(unsigned m) {
    unsigned n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

/* The lowest set bit of a non-zero mask (the compilers' builtin where there is one). */
static inline int lowest_bit(unsigned m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
#else
    int i = 0;
    while (!(m & 1u)) {
        m >>= 1;
        i++;
    }
    return i;
#endif
}

/* crapette._tables.house_key: the Zobrist key of a card at a depth of a house. The keys of
   the 16 depths a house of play reaches are crapette._tables.HOUSE_KEYS (for a game of
   `count` cards, 104 with the standard pack), the SplitMix64 sequence from 0x5EED: key i is
   the mix of 0x5EED + (i + 1) * the golden gamma, computed
   here rather than read from a table (a few multiplications cost less than the cache
   misses of a 104 KB table); a deeper card (only in a hand-built house) takes the key of its
   depth modulo 16, rotated a byte further for every 16 cards. */
static inline uint64_t zkey(int house, int depth, int card, int count) {
    uint64_t index = (uint64_t)((house * CR_ZOBRIST_DEPTHS + (depth & 15)) * count + card);
    uint64_t z = 0x5EEDull + (index + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    if (depth < CR_ZOBRIST_DEPTHS) return z;
    unsigned rot = (unsigned)((depth >> 4) * 8) & 63u;
    return rot ? (z << rot) | (z >> (64u - rot)) : z;
}

uint64_t cr_zobrist_key(int house, int depth, int card, int count) {
    return zkey(house, depth, card, count);
}

uint64_t cr_houses_key(const cr_rules *r, const cr_state *s) {
    int count = PACK_OF(r)->count;
    uint64_t key = 0;
    int o = 0;
    for (int i = 0; i < CR_PILE_HOUSE; i++) o += s->len[i];
    for (int h = 0; h < 8; h++) {
        int n = s->len[CR_PILE_HOUSE + h];
        for (int d = 0; d < n; d++) key ^= zkey(h, d, s->cards[o + d], count);
        o += n;
    }
    return key;
}

int cr_state_equal(const cr_state *a, const cr_state *b) {
    return memcmp(a->cards, b->cards, CR_NCARDS) == 0 && memcmp(a->len, b->len, CR_NPILES) == 0 &&
           a->turned == b->turned && a->to_act == b->to_act &&
           a->reserve_up[0] == b->reserve_up[0] && a->reserve_up[1] == b->reserve_up[1] &&
           a->passes[0] == b->passes[0] && a->passes[1] == b->passes[1] &&
           a->emptied == b->emptied && a->calls == b->calls && a->stop == b->stop &&
           a->fault == b->fault && a->moves_made == b->moves_made;
}

int cr_turn_player(const cr_state *s) { return s->stop ? cr_stop_resume(s) : s->to_act; }

int cr_state_check(const cr_state *s) {
    int total = 0;
    for (int i = 0; i < CR_NPILES; i++) total += s->len[i];
    if (total > CR_NCARDS) return 1;
    for (int i = 0; i < total; i++)
        if (s->cards[i] >= CR_NCARDS) return 2;
    for (int i = total; i < CR_NCARDS; i++)
        if (s->cards[i] != 0) return 3;
    if (s->turned != NONE && s->turned >= CR_NCARDS) return 4;
    if (s->to_act > 1) return 5;
    if (s->passes[0] > 2 || s->passes[1] > 2) return 6;
    if (s->reserve_up[0] > CR_NCARDS || s->reserve_up[1] > CR_NCARDS) return 7;
    if (s->stop) {
        int move = cr_stop_move(s);
        if ((s->stop & 0xC000) || move < 0 || move >= CR_NMOVES) return 8;
    }
    if (total + (s->turned != NONE) > CR_NCARDS) return 9;
    if (s->calls & 0xE0) return 10;
    if (s->fault) {
        int move = cr_fault_move(s);
        if ((s->fault & 0xC000) || move < 0 || move >= CR_NMOVES || s->stop) return 11;
    }
    return 0;
}

static inline int calls_at_turn_start(const cr_rules *r);

int cr_position_check(const cr_rules *r, const cr_state *s) {
    const cr_pack *pk = PACK_OF(r);
    int off[CR_NPILES + 1];
    offsets_of(s, off);
    for (int h = 0; h < 8; h++)
        if (s->len[CR_PILE_HOUSE + h] > pk->most) return CR_POSITION_TALL_HOUSE;
    /* every card of the pack once: the piles and the turned card */
    uint8_t seen[CR_NCARDS];
    memset(seen, 0, sizeof seen);
    int total = off[CR_NPILES] + (s->turned != NONE);
    if (total != pk->count) return CR_POSITION_CARDS;
    for (int i = 0; i < off[CR_NPILES]; i++) {
        if (s->cards[i] >= pk->count || seen[s->cards[i]]) return CR_POSITION_CARDS;
        seen[s->cards[i]] = 1;
    }
    if (s->turned != NONE && (s->turned >= pk->count || seen[s->turned])) return CR_POSITION_CARDS;
    /* foundations: a starter, then the next faces of its family (_fits.is_foundation_run);
       the piles a pack of 8 foundations does not have stay empty */
    for (int f = pk->foundations; f < 10; f++)
        if (s->len[cr_foundation_pile(f)]) return CR_POSITION_FOUNDATION;
    for (int f = 0; f < pk->foundations; f++) {
        int pile = cr_foundation_pile(f);
        int n = s->len[pile];
        const uint8_t *c = s->cards + off[pile];
        if (n && !pk->starter[c[0]]) return CR_POSITION_FOUNDATION;
        for (int i = 1; i < n; i++)
            if (pk->starter[c[i]] || pk->face[c[i]] != pk->face[c[i - 1]] + 1)
                return CR_POSITION_FOUNDATION;
    }
    /* houses: runs down (_fits.is_run) */
    for (int h = 0; h < 8; h++) {
        int pile = CR_PILE_HOUSE + h;
        const uint8_t *c = s->cards + off[pile];
        for (int i = 0; i + 1 < s->len[pile]; i++)
            if (pk->takes[c[i]] != pk->kind[c[i + 1]]) return CR_POSITION_HOUSE;
    }
    for (int p = 0; p < 2; p++) {
        int pile = CR_PILE_RESERVE + p, n = s->len[pile], up = s->reserve_up[p];
        if (up > n) return CR_POSITION_RESERVE_UP;
        if (n && !up && CR_RULE(r, RESERVE_FACE_UP)) return CR_POSITION_FACE_DOWN;
        for (int i = 0; i < n - up; i++)
            if (s->cards[off[pile] + i] / pk->size != p) return CR_POSITION_FOREIGN;
    }
    for (int h = 0; h < 8; h++)
        if ((s->emptied >> h) & 1u && s->len[CR_PILE_HOUSE + h]) return CR_POSITION_EMPTIED;
    if ((int64_t)s->moves_made > CR_RULE(r, MOVE_CAP)) return CR_POSITION_MOVE_CAP;
    /* the table rules' fields (position_problems): no turned card under flip; the call
       window and a fault only under turn_start calls, a fault the other player's turn end
       while the window is open; false calls only when rationed */
    if (CR_RULE(r, TURN_END) == CR_TURN_END_FLIP && s->turned != NONE) return CR_POSITION_TABLE_RULES;
    int calls = calls_at_turn_start(r);
    if (!calls && (cr_window(s) || s->fault)) return CR_POSITION_TABLE_RULES;
    if (s->fault && (cr_fault_offender(s) != 1 - s->to_act || !cr_window(s)))
        return CR_POSITION_TABLE_RULES;
    if ((!calls || CR_RULE(r, FALSE_CALL) != CR_FALSE_CALL_RATIONED) && (s->calls >> 1))
        return CR_POSITION_TABLE_RULES;
    return CR_POSITION_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* Moving cards in the one card array */

/* Take the top n cards of a pile into buf (bottom first). */
static void take_top(cr_state *s, int pile, int n, uint8_t *buf) {
    int end = cr_pile_offset(s, pile) + s->len[pile];
    memcpy(buf, s->cards + end - n, (size_t)n);
    memmove(s->cards + end - n, s->cards + end, (size_t)(CR_NCARDS - end));
    memset(s->cards + CR_NCARDS - n, 0, (size_t)n);
    s->len[pile] = (uint8_t)(s->len[pile] - n);
}

/* Put n cards (bottom first) on top of a pile; the state must have room. */
static void put_top(cr_state *s, int pile, const uint8_t *buf, int n) {
    int end = cr_pile_offset(s, pile) + s->len[pile];
    memmove(s->cards + end + n, s->cards + end, (size_t)(CR_NCARDS - end - n));
    memcpy(s->cards + end, buf, (size_t)n);
    s->len[pile] = (uint8_t)(s->len[pile] + n);
}

/* Move the top n cards of pile a onto pile b, in order (a != b); off: the offsets of s. */
ALWAYS_INLINE void move_block(cr_state *s, const int *off, int a, int b, int n) {
    int ea = off[a] + s->len[a], eb = off[b] + s->len[b];
    uint8_t buf[CR_NCARDS];
    memcpy(buf, s->cards + ea - n, (size_t)n);
    if (a < b) {
        memmove(s->cards + ea - n, s->cards + ea, (size_t)(eb - ea));
        memcpy(s->cards + eb - n, buf, (size_t)n);
    } else {
        memmove(s->cards + eb + n, s->cards + eb, (size_t)(ea - n - eb));
        memcpy(s->cards + eb, buf, (size_t)n);
    }
    s->len[a] = (uint8_t)(s->len[a] - n);
    s->len[b] = (uint8_t)(s->len[b] + n);
}

static int take_bottom(cr_state *s, int pile) {
    int start = cr_pile_offset(s, pile);
    int card = s->cards[start];
    memmove(s->cards + start, s->cards + start + 1, (size_t)(CR_NCARDS - start - 1));
    s->cards[CR_NCARDS - 1] = 0;
    s->len[pile]--;
    return card;
}

static void put_bottom(cr_state *s, int pile, int card) {
    int start = cr_pile_offset(s, pile);
    memmove(s->cards + start + 1, s->cards + start, (size_t)(CR_NCARDS - start - 1));
    s->cards[start] = (uint8_t)card;
    s->len[pile]++;
}

/* ---------------------------------------------------------------------------------------- */
/* Building rules (crapette._laws) */

/* _laws.foundation_pile: the leftmost foundation that takes the card (a starter: an empty
   one; else one whose top is the card's face - 1), or -1. */
ALWAYS_INLINE int foundation_pile(const cr_pack *pk, const cr_state *s, const int *off, int card) {
    int starter = pk->starter[card];
    int need = pk->face[card] - 1;
    for (int i = 0; i < pk->foundations; i++) {
        int pile = cr_foundation_pile(i);
        if (s->len[pile]) {
            if (!starter && pk->face[top_at(s, off, pile)] == need) return i;
        } else if (starter) {
            return i;
        }
    }
    return -1;
}

/* The faces that fit a foundation: the starters, and the face after every foundation top
   (_laws.foundation_needs): after a family's top comes the next family's starter, which
   fits anyway, and after the last face nothing. */
ALWAYS_INLINE fmask fit_faces(const cr_pack *pk, const cr_state *s, const int *off, int wide) {
    fmask tops = {{0, 0}};
    for (int i = 0; i < pk->foundations; i++) {
        int pile = cr_foundation_pile(i);
        if (s->len[pile]) {
            int f = pk->face[top_at(s, off, pile)];
            if (wide) tops.w[f >> 6] |= 1ull << (f & 63);
            else tops.w[0] |= 1ull << f;
        }
    }
    fmask fits;
    fits.w[0] = (tops.w[0] << 1) | pk->starters[0];
    fits.w[1] = wide ? (tops.w[1] << 1) | (tops.w[0] >> 63) | pk->starters[1] : 0;
    return fits;
}

ALWAYS_INLINE int fits_mask(const cr_pack *pk, const fmask *fits, int card, int wide) {
    return fm_has(fits->w, pk->face[card], wide);
}

/* _laws.fits_load: the loads table of the rules' match and wrap. */
static inline const uint64_t (*loads_of(const cr_rules *r, const cr_pack *pk))[2] {
    int colour = CR_RULE(r, LOAD_MATCH) == CR_LOAD_MATCH_COLOUR;
    return pk->loads[colour][CR_RULE(r, LOAD_WRAP) ? 1 : 0];
}

static inline int fits_load(const cr_pack *pk, const uint64_t (*loads)[2], int top, int card) {
    return fm_has(loads[pk->face[top]], pk->face[card], 1);
}

/* _laws.most_cards: 1, 2**free or the pack's longest run. */
static inline int most_cards(const cr_rules *r, const cr_pack *pk, int free) {
    if (CR_RULE(r, GROUP_MOVES) == CR_GROUP_MOVES_SINGLE) return 1;
    if (CR_RULE(r, GROUP_MOVES) == CR_GROUP_MOVES_WHOLE) return pk->most;
    return free < 8 ? 1 << free : 255;
}

/* Whether a move ends its player's turn (_laws.ends_turn). */
static inline int ends_turn(int action) {
    return action == CR_ACT_DISCARD || action == CR_ACT_END_TURN || action == CR_ACT_FLIP;
}

/* Whether Stop! is called at the start of a turn (call_window=turn_start, callable). */
static inline int calls_at_turn_start(const cr_rules *r) {
    return CR_RULE(r, STOP) != CR_STOP_ENFORCED &&
           CR_RULE(r, CALL_WINDOW) == CR_CALL_WINDOW_TURN_START;
}

/* _laws.forbids_violation: whether a priority violation by a move of this action is
   illegal (stop=enforced; under call_window=turn_start, unless the move ends the turn). */
static inline int forbids_violation(const cr_rules *r, int action) {
    if (CR_RULE(r, STOP) == CR_STOP_ENFORCED) return 1;
    return CR_RULE(r, CALL_WINDOW) == CR_CALL_WINDOW_TURN_START && !ends_turn(action);
}

/* _laws.source_card: the available card at a source for the player to act, or -1. */
static int source_card(const cr_rules *r, const cr_state *s, const int *off, int source) {
    int p = s->to_act;
    if (source == CR_SRC_RESERVE) {
        int pile = CR_PILE_RESERVE + p;
        return s->len[pile] && s->reserve_up[p] ? top_at(s, off, pile) : -1;
    }
    if (source == CR_SRC_HAND) return s->turned == NONE ? -1 : s->turned;
    if (source == CR_SRC_WASTE) {
        int pile = CR_PILE_WASTE + p;
        return s->len[pile] && CR_RULE(r, OWN_WASTE_PLAYABLE) ? top_at(s, off, pile) : -1;
    }
    if (source < 8) {
        int pile = CR_PILE_HOUSE + source;
        return s->len[pile] ? top_at(s, off, pile) : -1;
    }
    return -1;
}

/* ---------------------------------------------------------------------------------------- */
/* The end of a deal (crapette.outcome) */

int cr_winner(const cr_state *s) {
    /* a turned card belongs to the player whose turn it is */
    int holder = s->turned != NONE ? cr_turn_player(s) : -1;
    for (int p = 0; p < 2; p++) {
        if (!s->len[CR_PILE_RESERVE + p] && !s->len[CR_PILE_HAND + p] &&
            !s->len[CR_PILE_WASTE + p] && p != holder)
            return p;
    }
    return -1;
}

int cr_is_over(const cr_rules *r, const cr_state *s) {
    return cr_winner(s) >= 0 || (s->passes[0] == 2 && s->passes[1] == 2) ||
           s->moves_made >= CR_RULE(r, MOVE_CAP);
}

void cr_counts(const cr_rules *r, const cr_state *s, int64_t *counts) {
    int holder = s->turned != NONE ? cr_turn_player(s) : -1;
    for (int p = 0; p < 2; p++) {
        counts[p] = CR_RULE(r, RESERVE_POINTS) * s->len[CR_PILE_RESERVE + p] +
                    CR_RULE(r, HAND_POINTS) * (s->len[CR_PILE_HAND + p] + s->len[CR_PILE_WASTE + p] +
                                      (holder == p));
    }
}

int cr_outcome(const cr_rules *r, const cr_state *s, int *winner, int64_t *scores) {
    if (!cr_is_over(r, s)) return CR_RUNNING;
    int won = cr_winner(s);
    int64_t counts[2];
    cr_counts(r, s, counts);
    *winner = won;
    if (won >= 0) {
        scores[won] = CR_RULE(r, WIN_BONUS) + counts[1 - won];
        scores[1 - won] = 0;
        return CR_WIN;
    }
    int64_t diff = counts[1] - counts[0];
    if (CR_RULE(r, BLOCKED) == CR_BLOCKED_DRAW) diff = 0; /* a blocked deal is a draw */
    scores[0] = diff > 0 ? diff : 0;
    scores[1] = diff < 0 ? -diff : 0;
    return s->passes[0] == 2 && s->passes[1] == 2 ? CR_STALEMATE : CR_MOVE_CAP;
}

/* ---------------------------------------------------------------------------------------- */
/* The priorities (crapette._laws.violation) */

static int fill_remedy(const cr_state *s, int house, uint16_t *remedy) {
    if (s->reserve_up[s->to_act] == 0) {
        remedy[0] = CR_MOVE_REVEAL;
        remedy[1] = (uint16_t)MOVE(CR_SRC_RESERVE, house);
        return 2;
    }
    remedy[0] = (uint16_t)MOVE(CR_SRC_RESERVE, house);
    return 1;
}

int cr_violation(const cr_rules *r, const cr_state *s, int move, uint16_t *remedy, int *n) {
    uint16_t spare[2];
    int count = 0;
    if (!remedy) remedy = spare;
    if (!n) n = &count;
    *n = 0;
    if (move < 0 || move >= CR_NMOVES) return CR_VIOLATION_NONE;
    const cr_move_info *m = &cr_move_table[move];
    int action = m->action;
    if (action == CR_ACT_REVEAL || action == CR_ACT_CALL_STOP || action == CR_ACT_LET_STAND)
        return CR_VIOLATION_NONE;
    const cr_pack *pk = PACK_OF(r);
    int off[CR_NPILES + 1];
    offsets_of(s, off);
    int p = s->to_act;
    int play = action == CR_ACT_PLAY;
    int to_foundation = play && m->target == CR_TGT_FOUNDATION;
    /* _foundation_sources: the available cards that fit a foundation, in source order */
    static const uint8_t sources[11] = {CR_SRC_RESERVE, CR_SRC_HAND, CR_SRC_WASTE, 0, 1, 2, 3, 4, 5, 6, 7};
    int first = -1, starter = -1;
    for (int i = 0; i < 11; i++) {
        int card = source_card(r, s, off, sources[i]);
        if (card >= 0 && foundation_pile(pk, s, off, card) >= 0) {
            if (first < 0) first = sources[i];
            if (starter < 0 && pk->starter[card]) starter = sources[i];
        }
    }
    int priority = (int)CR_RULE(r, PRIORITY);
    if (priority == CR_PRIORITY_BOBCRAPETTE) {
        /* the two obligations, broken only by a move that ends the turn */
        if (first >= 0 && ends_turn(action)) {
            if (first == CR_SRC_RESERVE) {
                remedy[0] = (uint16_t)R_TO_F;
                *n = 1;
                return CR_VIOLATION_RESERVE;
            }
            if (starter >= 0) {
                remedy[0] = (uint16_t)MOVE(starter, CR_TGT_FOUNDATION);
                *n = 1;
                return CR_VIOLATION_FOUNDATION;
            }
        }
    } else if (priority == CR_PRIORITY_PAGAT && first == CR_SRC_RESERVE) {
        if (move != R_TO_F) {
            remedy[0] = (uint16_t)R_TO_F;
            *n = 1;
            return CR_VIOLATION_RESERVE;
        }
        return CR_VIOLATION_NONE;
    } else if (first >= 0 && !to_foundation) {
        remedy[0] = (uint16_t)MOVE(first, CR_TGT_FOUNDATION);
        *n = 1;
        return CR_VIOLATION_FOUNDATION;
    }
    if (priority == CR_PRIORITY_SERBIAN && play &&
        (m->target == CR_TGT_OPP_RESERVE || m->target == CR_TGT_OPP_WASTE)) {
        int card = source_card(r, s, off, m->source);
        if (card >= 0) {
            for (int h = 0; h < 8; h++) {
                int pile = CR_PILE_HOUSE + h;
                /* (h == source only with a card foreign to the pack: no move there) */
                if (s->len[pile] && h != m->source &&
                    pk->takes[top_at(s, off, pile)] == pk->kind[card]) {
                    remedy[0] = (uint16_t)MOVE(m->source, h);
                    *n = 1;
                    return CR_VIOLATION_ORDER;
                }
            }
        }
    }
    int reserve = s->len[CR_PILE_RESERVE + p] > 0;
    int turns_hand_card = action == CR_ACT_DRAW || action == CR_ACT_FLIP;
    if (CR_RULE(r, HOUSE_FILLING) == CR_HOUSE_FILLING_BEFORE_HAND && turns_hand_card && reserve) {
        for (int h = 0; h < 8; h++) {
            if (!s->len[CR_PILE_HOUSE + h]) {
                *n = fill_remedy(s, h, remedy);
                return CR_VIOLATION_FILLING;
            }
        }
    }
    if (CR_RULE(r, HOUSE_FILLING) == CR_HOUSE_FILLING_IMMEDIATE && reserve && !to_foundation && s->emptied) {
        int fills = play && m->source == CR_SRC_RESERVE && m->target < 8 &&
                    ((s->emptied >> m->target) & 1u);
        if (!fills) {
            *n = fill_remedy(s, lowest_bit(s->emptied), remedy);
            return CR_VIOLATION_FILLING;
        }
    }
    return CR_VIOLATION_NONE;
}


/* ---------------------------------------------------------------------------------------- */
/* Move generation (crapette._movegen.legal_moves) */

static inline int seen_has(const cr_seen *sn, uint64_t key) {
    if (!((sn->filter >> (key & 63)) & 1u)) return 0;
    if (sn->index) {
        uint32_t i = (uint32_t)key & sn->mask;
        for (;;) {
            uint32_t v = sn->index[i];
            if (!v) return 0;
            if (sn->keys[v - 1] == key) return v - 1 < sn->size;
            i = (i + 1) & sn->mask;
        }
    }
    for (uint32_t i = 0; i < sn->size; i++)
        if (sn->keys[i] == key) return 1;
    return 0;
}

/* TO_HOUSES[source][mask]: the single-card moves from source to the houses in mask. */
static inline int to_houses(int source, unsigned mask, uint16_t *out, int n) {
    if (source < 8) mask &= ~BIT(source);
    for (; mask; mask &= mask - 1) out[n++] = (uint16_t)MOVE(source, lowest_bit(mask));
    return n;
}

typedef struct gen {
    const cr_state *s;
    const int *off;
    const uint8_t *takers;
    unsigned empty;
    const cr_seen *seen; /* NULL: no layout but the current one was seen */
    uint64_t key;        /* the current layout key (when seen) */
    int most_built, most_empty;
    int sterile;         /* sterile_moves=forbidden */
    uint16_t *late;      /* groups of more than 13 cards: they come last in the table */
    int nlate;
} gen;

/* _movegen._group_moves: the moves of the top 1..n cards of house `source` (whose top two
   cards form a run) to other houses, in (target, count) order; groups of more than 13 cards
   go to g->late. */
ALWAYS_INLINE int group_moves(gen *g, int source, uint16_t *out, int n, const cr_pack *pk) {
    const cr_state *s = g->s;
    int pile = CR_PILE_HOUSE + source;
    int size = s->len[pile];
    const uint8_t *cards = s->cards + g->off[pile]; /* bottom first */
#define FROM_TOP(i) cards[size - (i)]
    int limit = size < g->most_built ? size : g->most_built;
    int run = 2;
    while (run < limit && pk->takes[FROM_TOP(run + 1)] == pk->kind[FROM_TOP(run)]) run++;
    unsigned targets = g->empty;
    int sizes[8] = {0};
    for (int count = 1; count <= run; count++) {
        unsigned mask = g->takers[pk->kind[FROM_TOP(count)]];
        if (mask) {
            targets |= mask;
            for (unsigned left = mask; left; left &= left - 1) sizes[lowest_bit(left)] = count;
        }
    }
    targets &= ~BIT(source); /* (a hand-built house that is not a run could list itself) */
    int to_empty = run < g->most_empty ? run : g->most_empty;
    uint64_t lifted[CR_MAX_GROUP + 1];
    if (g->seen) {
        /* the layout key with the top c cards lifted off the source */
        uint64_t key = g->key;
        lifted[0] = key;
        for (int c = 1; c <= run; c++) {
            key ^= zkey(source, size - c, FROM_TOP(c), pk->count);
            lifted[c] = key;
        }
    }
    /* the whole house onto an empty one changes nothing: a sterile move */
    if (g->sterile && to_empty == size) to_empty--;
    for (unsigned left = targets; left; left &= left - 1) {
        int t = lowest_bit(left);
        int lo, hi;
        if ((g->empty >> t) & 1u) {
            lo = 1;
            hi = to_empty;
        } else {
            lo = hi = sizes[t];
        }
        int dst = s->len[CR_PILE_HOUSE + t];
        /* the moves of 1..13 cards are consecutive in the table; longer groups (a tarot
           pack's runs: a 52-card pack's runs stop at 13) come last, in g->late */
        int base = cr_group_index[source][t][1] - 1;
        for (int count = lo; count <= hi; count++) {
            if (g->seen) {
                uint64_t key = lifted[count];
                for (int i = 0; i < count; i++)
                    key ^= zkey(t, dst + i, cards[size - count + i], pk->count);
                if (seen_has(g->seen, key)) continue;
            }
            if (pk->size <= 52 || count <= 13) out[n++] = (uint16_t)(base + count);
            else g->late[g->nlate++] = (uint16_t)cr_group_index[source][t][count];
        }
    }
#undef FROM_TOP
    return n;
}

/* The move that ends the turn by the rules of the turn (discard, flip or end), or -1. */
static int turn_end_move(const cr_rules *r, const cr_state *s) {
    int p = s->to_act;
    int cards = s->len[CR_PILE_HAND + p] || s->len[CR_PILE_WASTE + p];
    if (CR_RULE(r, TURN_END) == CR_TURN_END_FLIP) return cards ? CR_MOVE_FLIP : CR_MOVE_END_TURN;
    if (s->turned != NONE) return CR_MOVE_DISCARD;
    return cards ? -1 : CR_MOVE_END_TURN;
}

/* Whether the player to act may call Stop! now (turn_start: the window is open and, under
   false_call=rationed, a false call is left). */
static inline int may_call(const cr_rules *r, const cr_state *s) {
    return cr_window(s) && !(CR_RULE(r, FALSE_CALL) == CR_FALSE_CALL_RATIONED &&
                             cr_false_calls(s, s->to_act) >= 3);
}

/* Append the moves that end the turn and the Stop! call (in table order) after an early
   stop of the generator under turn_start, where a turn's end is legal even when it breaks
   a priority rule. */
static int ends_and_call(const cr_rules *r, const cr_state *s, uint16_t *out, int n) {
    int end = turn_end_move(r, s);
    if (end >= 0 && end != CR_MOVE_FLIP) out[n++] = (uint16_t)end;
    if (may_call(r, s)) out[n++] = CR_MOVE_CALL_STOP;
    if (end == CR_MOVE_FLIP) out[n++] = CR_MOVE_FLIP;
    return n;
}

/* The move generator (cr_legal_moves) for the pack `pk`, whose face sets are two words when
   `wide` (both compile-time constants where it is instantiated). */
ALWAYS_INLINE int generate(const cr_rules *r, const cr_state *s, const cr_seen *seen,
                           uint16_t *out, const cr_pack *pk, int wide) {
    if (s->moves_made >= CR_RULE(r, MOVE_CAP) || (s->passes[0] == 2 && s->passes[1] == 2)) return 0;
    const uint8_t *len = s->len;
    if (((!len[CR_PILE_RESERVE] && !len[CR_PILE_HAND] && !len[CR_PILE_WASTE]) ||
         (!len[CR_PILE_RESERVE + 1] && !len[CR_PILE_HAND + 1] && !len[CR_PILE_WASTE + 1])) &&
        cr_winner(s) >= 0)
        return 0;
    if (s->stop) {
        out[0] = CR_MOVE_CALL_STOP;
        out[1] = CR_MOVE_LET_STAND;
        return 2;
    }
    int enforced = CR_RULE(r, STOP) == CR_STOP_ENFORCED;
    int calls = calls_at_turn_start(r);
    int prune = enforced || calls; /* a violation is illegal (a turn's end: only enforced) */
    int priority = (int)CR_RULE(r, PRIORITY);
    int reserve_first = prune && priority == CR_PRIORITY_PAGAT;
    int foundation_first = prune && priority != CR_PRIORITY_BOBCRAPETTE;
    int obligations = enforced && priority == CR_PRIORITY_BOBCRAPETTE;
    int immediate = prune && CR_RULE(r, HOUSE_FILLING) == CR_HOUSE_FILLING_IMMEDIATE;
    int fill_before_hand = prune && CR_RULE(r, HOUSE_FILLING) == CR_HOUSE_FILLING_BEFORE_HAND;
    int tableau_first = prune && priority == CR_PRIORITY_SERBIAN;
    int flip = CR_RULE(r, TURN_END) == CR_TURN_END_FLIP;
    int off[CR_NPILES + 1];
    offsets_pack(s, off, pk->foundations > 8);
    int p = s->to_act;
    int reserve_pile = CR_PILE_RESERVE + p, waste_pile = CR_PILE_WASTE + p;
    int reserve = len[reserve_pile];
    int up = s->reserve_up[p];
    fmask fits = fit_faces(pk, s, off, wide);

    int n = 0;
    int nfound = 0;
    int owed = 0; /* bobcrapette: the reserve top or a starter can go to a foundation */
    uint16_t found[11];
    int osrc[3], ocard[3], nothers = 0;
    if (reserve && up) {
        int card = top_at(s, off, reserve_pile);
        if (fits_mask(pk, &fits, card, wide)) {
            if (reserve_first) {
                out[0] = (uint16_t)R_TO_F;
                return calls ? ends_and_call(r, s, out, 1) : 1;
            }
            found[nfound++] = (uint16_t)R_TO_F;
            owed = 1;
        }
        osrc[nothers] = CR_SRC_RESERVE;
        ocard[nothers++] = card;
    }
    if (s->turned != NONE) {
        if (fits_mask(pk, &fits, s->turned, wide)) {
            found[nfound++] = (uint16_t)MOVE(CR_SRC_HAND, CR_TGT_FOUNDATION);
            owed |= pk->starter[s->turned];
        }
        osrc[nothers] = CR_SRC_HAND;
        ocard[nothers++] = s->turned;
    }
    if (len[waste_pile] && CR_RULE(r, OWN_WASTE_PLAYABLE)) {
        int card = top_at(s, off, waste_pile);
        if (fits_mask(pk, &fits, card, wide)) {
            found[nfound++] = (uint16_t)MOVE(CR_SRC_WASTE, CR_TGT_FOUNDATION);
            owed |= pk->starter[card];
        }
        osrc[nothers] = CR_SRC_WASTE;
        ocard[nothers++] = card;
    }
    uint8_t takers[64] = {0};
    unsigned empty = 0;
    for (int h = 0; h < 8; h++) {
        int pile = CR_PILE_HOUSE + h;
        if (len[pile]) {
            int t = top_at(s, off, pile);
            if (fits_mask(pk, &fits, t, wide)) {
                found[nfound++] = (uint16_t)MOVE(h, CR_TGT_FOUNDATION);
                owed |= pk->starter[t];
            }
            takers[pk->takes[t]] |= BIT(h);
        } else {
            empty |= BIT(h);
        }
    }
    int reveal = reserve && !up;

    if (prune) {
        if (nfound && foundation_first) {
            memcpy(out, found, sizeof(uint16_t) * (size_t)nfound);
            n = nfound;
            if (reveal) out[n++] = CR_MOVE_REVEAL;
            return calls ? ends_and_call(r, s, out, n) : n;
        }
        if (immediate && reserve && s->emptied) {
            /* (no foundation priority) foundation moves are never a violation: with the
               fills, in table order */
            memcpy(out, found, sizeof(uint16_t) * (size_t)nfound);
            n = nfound;
            if (reveal) {
                out[n++] = CR_MOVE_REVEAL;
            } else {
                for (int h = 0; h < 8; h++)
                    if ((s->emptied >> h) & 1u) out[n++] = (uint16_t)MOVE(CR_SRC_RESERVE, h);
            }
            for (int i = 1; i < n; i++) {
                uint16_t v = out[i];
                int j = i - 1;
                for (; j >= 0 && out[j] > v; j--) out[j + 1] = out[j];
                out[j + 1] = v;
            }
            return calls ? ends_and_call(r, s, out, n) : n;
        }
    }

    int opp = 1 - p;
    int opp_reserve = CR_PILE_RESERVE + opp, opp_waste = CR_PILE_WASTE + opp;
    const uint64_t (*loads)[2] = loads_of(r, pk);
    static const uint64_t no_loads[2] = {0, 0};
    const uint64_t *reserve_loads = len[opp_reserve] && s->reserve_up[opp]
                                        ? loads[pk->face[top_at(s, off, opp_reserve)]]
                                        : no_loads;
    const uint64_t *waste_loads =
        len[opp_waste] ? loads[pk->face[top_at(s, off, opp_waste)]] : no_loads;
    fmask loadable;
    loadable.w[0] = reserve_loads[0] | waste_loads[0];
    loadable.w[1] = wide ? reserve_loads[1] | waste_loads[1] : 0;

    for (int i = 0; i < nothers; i++) {
        int source = osrc[i], card = ocard[i];
        if (nfound && fits_mask(pk, &fits, card, wide)) out[n++] = (uint16_t)MOVE(source, CR_TGT_FOUNDATION);
        unsigned builds = takers[pk->kind[card]];
        if (builds | empty) n = to_houses(source, builds | empty, out, n);
        int face = pk->face[card];
        if (fm_has(loadable.w, face, wide) && !(tableau_first && builds)) {
            if (fm_has(reserve_loads, face, wide)) out[n++] = (uint16_t)MOVE(source, CR_TGT_OPP_RESERVE);
            if (fm_has(waste_loads, face, wide)) out[n++] = (uint16_t)MOVE(source, CR_TGT_OPP_WASTE);
        }
    }

    uint16_t late[CR_NMOVES];
    gen g;
    g.s = s;
    g.off = off;
    g.takers = takers;
    g.empty = empty;
    g.seen = seen && seen->size ? seen : NULL;
    g.key = g.seen ? g.seen->current : 0;
    g.sterile = CR_RULE(r, STERILE_MOVES) == CR_STERILE_MOVES_FORBIDDEN;
    g.late = late;
    g.nlate = 0;
    int free = (int)popcount8(empty);
    g.most_built = most_cards(r, pk, free);
    g.most_empty = free ? most_cards(r, pk, free - 1) : most_cards(r, pk, 0);
    if (CR_RULE(r, LOAD_FROM) != CR_LOAD_FROM_ANY) loadable.w[0] = loadable.w[1] = 0;
    for (int h = 0; h < 8; h++) {
        int pile = CR_PILE_HOUSE + h;
        int size = len[pile];
        if (!size) continue;
        const uint8_t *cards = s->cards + off[pile];
        int card = cards[size - 1];
        if (nfound && fits_mask(pk, &fits, card, wide)) out[n++] = (uint16_t)MOVE(h, CR_TGT_FOUNDATION);
        int kind = pk->kind[card];
        unsigned builds = takers[kind];
        if (g.most_built > 1 && size > 1 && pk->takes[cards[size - 2]] == kind &&
            (g.most_empty > 1 || takers[pk->kind[cards[size - 2]]])) {
            n = group_moves(&g, h, out, n, pk);
        } else if (builds | empty) {
            unsigned targets = builds | empty;
            if (g.sterile && size == 1) targets = builds; /* a lone card onto an empty house */
            if (!g.seen) {
                n = to_houses(h, targets, out, n);
            } else {
                uint64_t key = g.key ^ zkey(h, size - 1, card, pk->count);
                unsigned mask = targets & ~BIT(h);
                for (; mask; mask &= mask - 1) {
                    int t = lowest_bit(mask);
                    uint64_t after = key ^ zkey(t, len[CR_PILE_HOUSE + t], card, pk->count);
                    if (!seen_has(g.seen, after)) out[n++] = (uint16_t)MOVE(h, t);
                }
            }
        }
        int face = pk->face[card];
        if (fm_has(loadable.w, face, wide) && !(tableau_first && builds)) {
            if (fm_has(reserve_loads, face, wide)) out[n++] = (uint16_t)MOVE(h, CR_TGT_OPP_RESERVE);
            if (fm_has(waste_loads, face, wide)) out[n++] = (uint16_t)MOVE(h, CR_TGT_OPP_WASTE);
        }
    }

    if (reveal) out[n++] = CR_MOVE_REVEAL;
    int blocked = obligations && owed; /* no turn's end while an obligation waits */
    if (flip) {
        int end = -1;
        if (len[CR_PILE_HAND + p] || len[waste_pile]) {
            if (!blocked && (calls || !(fill_before_hand && empty && reserve))) end = CR_MOVE_FLIP;
        } else if (!blocked) {
            end = CR_MOVE_END_TURN;
        }
        if (end == CR_MOVE_END_TURN) out[n++] = CR_MOVE_END_TURN;
        if (calls && may_call(r, s)) out[n++] = CR_MOVE_CALL_STOP;
        if (end == CR_MOVE_FLIP) out[n++] = CR_MOVE_FLIP;
    } else {
        if (s->turned != NONE) {
            if (!blocked) out[n++] = CR_MOVE_DISCARD;
        } else if (len[CR_PILE_HAND + p] || len[waste_pile]) {
            if (!(fill_before_hand && empty && reserve)) out[n++] = CR_MOVE_DRAW;
        } else if (!blocked) {
            out[n++] = CR_MOVE_END_TURN;
        }
        if (calls && may_call(r, s)) out[n++] = CR_MOVE_CALL_STOP;
    }
    if (g.nlate) {
        /* groups of more than 13 cards, in table order (by count, source, target) */
        for (int i = 1; i < g.nlate; i++) {
            uint16_t v = late[i];
            int j = i - 1;
            while (j >= 0 && late[j] > v) {
                late[j + 1] = late[j];
                j--;
            }
            late[j + 1] = v;
        }
        memcpy(out + n, late, sizeof(uint16_t) * (size_t)g.nlate);
        n += g.nlate;
    }
    return n;
}

static int legal_moves_standard(const cr_rules *r, const cr_state *s, const cr_seen *seen,
                                uint16_t *out) {
    return generate(r, s, seen, out, &cr_packs[CR_PACK_STANDARD], 0);
}

static int legal_moves_any(const cr_rules *r, const cr_state *s, const cr_seen *seen,
                           uint16_t *out) {
    return generate(r, s, seen, out, PACK_OF(r), 1);
}

int cr_legal_moves(const cr_rules *r, const cr_state *s, const cr_seen *seen, uint16_t *out) {
    if (CR_RULE(r, PACK) == CR_PACK_STANDARD) return legal_moves_standard(r, s, seen, out);
    return legal_moves_any(r, s, seen, out);
}

int cr_is_legal(const cr_rules *r, const cr_state *s, const cr_seen *seen, int move) {
    uint16_t moves[CR_NMOVES];
    int n = cr_legal_moves(r, s, seen, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == move) return 1;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Why a move is illegal (crapette._laws.python_refusal): a reason code and its parameters */

typedef struct why {
    int32_t *params;
    int n;
} why;

static int because1(why *w, int code, int32_t a) {
    w->params[w->n++] = a;
    return code;
}
static int because2(why *w, int code, int32_t a, int32_t b) {
    w->params[w->n++] = a;
    w->params[w->n++] = b;
    return code;
}
static int because3(why *w, int code, int32_t a, int32_t b, int32_t c) {
    w->params[w->n++] = a;
    w->params[w->n++] = b;
    w->params[w->n++] = c;
    return code;
}

/* _laws.violation's reason: the priority `move` breaks as a refusal (its kind from
   cr_violation), whatever the Stop! rule. */
static int violation_reason(const cr_rules *r, const cr_state *s, int move, why *w) {
    uint16_t remedy[2];
    int n = 0;
    int kind = cr_violation(r, s, move, remedy, &n);
    if (kind == CR_VIOLATION_NONE) return CR_REASON_LEGAL;
    const cr_pack *pk = PACK_OF(r);
    int off[CR_NPILES + 1];
    offsets_of(s, off);
    const cr_move_info *m = &cr_move_table[move];
    int bob = CR_RULE(r, PRIORITY) == CR_PRIORITY_BOBCRAPETTE;
    if (kind == CR_VIOLATION_RESERVE)
        return because1(w, bob ? CR_REASON_OBLIGATION_RESERVE : CR_REASON_PRIORITY_RESERVE,
                        source_card(r, s, off, CR_SRC_RESERVE));
    if (kind == CR_VIOLATION_FOUNDATION && bob)
        return because1(w, CR_REASON_OBLIGATION_STARTER,
                        source_card(r, s, off, cr_move_table[remedy[0]].source));
    if (kind == CR_VIOLATION_FOUNDATION) {
        /* _foundation_sources: every available card that fits, in source order */
        static const uint8_t sources[11] = {CR_SRC_RESERVE, CR_SRC_HAND, CR_SRC_WASTE, 0, 1, 2, 3, 4, 5, 6, 7};
        int count = w->n++;
        w->params[count] = 0;
        for (int i = 0; i < 11; i++) {
            int card = source_card(r, s, off, sources[i]);
            if (card >= 0 && foundation_pile(pk, s, off, card) >= 0) {
                w->params[w->n++] = card;
                w->params[count]++;
            }
        }
        return CR_REASON_PRIORITY_FOUNDATION;
    }
    if (kind == CR_VIOLATION_ORDER)
        return because2(w, CR_REASON_PRIORITY_ORDER, source_card(r, s, off, m->source),
                        cr_move_table[remedy[0]].target);
    int house = cr_move_table[remedy[n - 1]].target; /* the fill move */
    return because1(w,
                    CR_RULE(r, HOUSE_FILLING) == CR_HOUSE_FILLING_BEFORE_HAND
                        ? CR_REASON_FILLING_BEFORE
                        : CR_REASON_FILLING_IMMEDIATE,
                    house);
}

int cr_violation_reason(const cr_rules *r, const cr_state *s, int move, int32_t *params, int *n) {
    why w = {params, 0};
    int code = violation_reason(r, s, move, &w);
    *n = w.n;
    return code;
}

/* _laws._play_reason: the building rules of a card move. */
static int play_reason(const cr_rules *r, const cr_state *s, const cr_move_info *m, why *w) {
    const cr_pack *pk = PACK_OF(r);
    int off[CR_NPILES + 1];
    offsets_of(s, off);
    int p = s->to_act;
    int source = m->source, target = m->target, count = m->count;
    if (source == CR_SRC_RESERVE && s->len[CR_PILE_RESERVE + p] && !s->reserve_up[p])
        return CR_REASON_RESERVE_DOWN;
    if (source == CR_SRC_WASTE && !CR_RULE(r, OWN_WASTE_PLAYABLE)) return CR_REASON_WASTE_CLOSED;
    int card = source_card(r, s, off, source);
    if (card < 0) return because1(w, CR_REASON_NO_CARD, source);
    if (count > 1) {
        int pile = CR_PILE_HOUSE + source;
        int size = s->len[pile];
        const uint8_t *cards = s->cards + off[pile];
        if (CR_RULE(r, GROUP_MOVES) == CR_GROUP_MOVES_SINGLE) return CR_REASON_GROUP_SINGLE;
        if (count > size) return because2(w, CR_REASON_GROUP_SHORT, source, size);
        for (int i = size - count; i < size - 1; i++)
            if (pk->takes[cards[i]] != pk->kind[cards[i + 1]])
                return because2(w, CR_REASON_GROUP_RUN, count, source);
        card = cards[size - count];
        if (CR_RULE(r, GROUP_MOVES) == CR_GROUP_MOVES_SUPERMOVE) {
            int free = 0;
            for (int h = 0; h < 8; h++) free += !s->len[CR_PILE_HOUSE + h] && h != target;
            if (count > most_cards(r, pk, free)) {
                int need = 0;
                while ((count >> (need + 1)) > 0) need++; /* count.bit_length() - 1 */
                return because3(w, CR_REASON_GROUP_SPACE, count, need, free);
            }
        }
    }
    if (target == CR_TGT_FOUNDATION)
        return foundation_pile(pk, s, off, card) < 0 ? because1(w, CR_REASON_FOUNDATION, card)
                                                     : CR_REASON_LEGAL;
    if (target < 8) {
        int pile = CR_PILE_HOUSE + target;
        if (s->len[pile] && pk->takes[top_at(s, off, pile)] != pk->kind[card])
            return because3(w, CR_REASON_HOUSE, card, top_at(s, off, pile), target);
        if (CR_RULE(r, STERILE_MOVES) == CR_STERILE_MOVES_FORBIDDEN && source < 8 &&
            !s->len[pile] && count == s->len[CR_PILE_HOUSE + source])
            return because1(w, CR_REASON_STERILE, source);
        return CR_REASON_LEGAL;
    }
    /* loading the opponent */
    if (CR_RULE(r, LOAD_FROM) == CR_LOAD_FROM_OWN && source < 8) return CR_REASON_LOAD_OWN;
    int opp = 1 - p;
    int pile = (target == CR_TGT_OPP_RESERVE ? CR_PILE_RESERVE : CR_PILE_WASTE) + opp;
    if (!s->len[pile]) return because1(w, CR_REASON_LOAD_EMPTY, target);
    if (target == CR_TGT_OPP_RESERVE && !s->reserve_up[opp]) return CR_REASON_LOAD_DOWN;
    int top = top_at(s, off, pile);
    if (!fits_load(pk, loads_of(r, pk), top, card)) {
        int wrap = CR_RULE(r, LOAD_WRAP) != 0;
        int code = CR_RULE(r, LOAD_MATCH) == CR_LOAD_MATCH_COLOUR
                       ? (wrap ? CR_REASON_LOAD_COLOUR_WRAP : CR_REASON_LOAD_COLOUR)
                       : (wrap ? CR_REASON_LOAD_WRAP : CR_REASON_LOAD);
        return because2(w, code, card, top);
    }
    return CR_REASON_LEGAL;
}

/* _laws._building_reason: the turn structure and the building rules. */
static int building_reason(const cr_rules *r, const cr_state *s, int move, why *w) {
    const cr_move_info *m = &cr_move_table[move];
    int p = s->to_act;
    int hand_or_waste = s->len[CR_PILE_HAND + p] || s->len[CR_PILE_WASTE + p];
    int flip = CR_RULE(r, TURN_END) == CR_TURN_END_FLIP;
    switch (m->action) {
    case CR_ACT_REVEAL:
        if (!s->len[CR_PILE_RESERVE + p]) return CR_REASON_REVEAL_EMPTY;
        return s->reserve_up[p] ? CR_REASON_REVEAL_UP : CR_REASON_LEGAL;
    case CR_ACT_DRAW:
        if (flip) return CR_REASON_FLIP_RULE;
        if (s->turned != NONE) return because1(w, CR_REASON_DRAW_TURNED, s->turned);
        return hand_or_waste ? CR_REASON_LEGAL : CR_REASON_DRAW_EMPTY;
    case CR_ACT_DISCARD:
        if (flip) return CR_REASON_FLIP_RULE;
        return s->turned != NONE ? CR_REASON_LEGAL : CR_REASON_DISCARD_NONE;
    case CR_ACT_FLIP:
        if (!flip) return CR_REASON_FLIP_DISCARD;
        return hand_or_waste ? CR_REASON_LEGAL : CR_REASON_FLIP_EMPTY;
    case CR_ACT_END_TURN:
        if (s->turned != NONE) return CR_REASON_END_TURNED;
        if (!hand_or_waste) return CR_REASON_LEGAL;
        return flip ? CR_REASON_END_FLIP : CR_REASON_END_CARDS;
    case CR_ACT_PLAY:
        return play_reason(r, s, m, w);
    case CR_ACT_CALL_STOP:
        if (calls_at_turn_start(r)) {
            if (!cr_window(s)) return CR_REASON_STOP_WINDOW;
            return may_call(r, s) ? CR_REASON_LEGAL : CR_REASON_STOP_RATIONED;
        }
        return CR_REASON_STOP_NONE;
    default:
        return CR_REASON_STOP_NONE;
    }
}

/* _laws.recreates_layout: a house-to-house move whose layout was seen this turn. */
static int recreates_layout(const cr_rules *r, const cr_state *s, const cr_seen *seen,
                            const cr_move_info *m) {
    if (m->action != CR_ACT_PLAY || m->source >= 8 || m->target >= 8) return 0;
    if (!seen || !seen->size) return 0; /* only the current layout was seen: a move changes it */
    int off[CR_NPILES + 1];
    offsets_of(s, off);
    int pile = CR_PILE_HOUSE + m->source;
    int size = s->len[pile], dst = s->len[CR_PILE_HOUSE + m->target];
    const uint8_t *cards = s->cards + off[pile];
    uint64_t key = seen->current;
    int n = PACK_OF(r)->count;
    for (int i = 0; i < m->count; i++) {
        int card = cards[size - m->count + i];
        key ^= zkey(m->source, size - m->count + i, card, n) ^ zkey(m->target, dst + i, card, n);
    }
    return seen_has(seen, key);
}

int cr_why_illegal(const cr_rules *r, const cr_state *s, const cr_seen *seen, int move,
                   int32_t *params, int *n) {
    why w = {params, 0};
    int code = CR_REASON_LEGAL;
    int action = cr_move_table[move].action;
    if (cr_is_over(r, s)) {
        code = CR_REASON_DEAL_OVER;
    } else if (s->stop) {
        if (action != CR_ACT_CALL_STOP && action != CR_ACT_LET_STAND)
            code = because2(&w, CR_REASON_STOP_PENDING, s->to_act, cr_stop_move(s));
    } else {
        code = building_reason(r, s, move, &w);
        if (code == CR_REASON_LEGAL && forbids_violation(r, action))
            code = violation_reason(r, s, move, &w);
        if (code == CR_REASON_LEGAL && recreates_layout(r, s, seen, &cr_move_table[move]))
            code = CR_REASON_CYCLE;
    }
    *n = w.n;
    return code;
}

/* ---------------------------------------------------------------------------------------- */
/* Applying moves (crapette._engine) */

static inline uint8_t pass_done(uint8_t mark) { return mark ? 2 : 1; }

/* _engine._play: the plain transition for a move of the player to act. */
ALWAYS_INLINE int play_pack(const cr_rules *r, const cr_state *s, int move, cr_state *o,
                            const uint64_t *current, uint64_t *key, const cr_pack *pk) {
    const cr_move_info *m = &cr_move_table[move];
    int p = s->to_act;
    *o = *s;
    o->stop = 0;
    o->fault = 0;
    o->calls = (uint8_t)(s->calls & ~1u); /* any move closes the call window */
    o->moves_made = s->moves_made + 1;
    int effect = CR_SEEN_CLEAR;
    uint8_t buf[CR_NCARDS];
    switch (m->action) {
    case CR_ACT_PLAY: {
        int source = m->source, target = m->target, count = m->count;
        int a, b;
        int off[CR_NPILES + 1];
        offsets_pack(s, off, pk->foundations > 8);
        if (source < 8) {
            a = CR_PILE_HOUSE + source;
            if (count > s->len[a] || count < 1) return -1;
        } else if (source == CR_SRC_RESERVE) {
            a = CR_PILE_RESERVE + p;
            if (!s->len[a]) return -1;
        } else if (source == CR_SRC_HAND) {
            if (s->turned == NONE) return -1;
            a = -1;
        } else if (source == CR_SRC_WASTE) {
            a = CR_PILE_WASTE + p;
            if (!s->len[a]) return -1;
        } else {
            return -1;
        }
        int card = a < 0 ? s->turned : s->cards[off[a] + s->len[a] - count];
        if (target == CR_TGT_FOUNDATION) {
            int i = foundation_pile(pk, s, off, card);
            if (i < 0) return -1;
            b = cr_foundation_pile(i);
        } else if (target < 8) {
            b = CR_PILE_HOUSE + target;
        } else if (target == CR_TGT_OPP_RESERVE) {
            b = CR_PILE_RESERVE + (1 - p);
        } else if (target == CR_TGT_OPP_WASTE) {
            b = CR_PILE_WASTE + (1 - p);
        } else {
            return -1;
        }
        /* the layout key: a card leaving a house, arriving on one (every move that touches
           the houses, so that a caller who knows the key keeps knowing it) */
        int need_key = current || (source < 8 && target < 8);
        uint64_t k = 0;
        if (need_key) {
            int nc = pk->count;
            k = current ? *current : cr_houses_key(r, s);
            if (source < 8) {
                int depth = s->len[a] - count, from = off[a] + depth;
                for (int i = 0; i < count; i++)
                    k ^= zkey(source, depth + i, s->cards[from + i], nc);
            }
            if (target < 8) {
                int dst = s->len[b];
                if (a < 0) {
                    k ^= zkey(target, dst, card, nc);
                } else {
                    int from = off[a] + s->len[a] - count;
                    for (int i = 0; i < count; i++) k ^= zkey(target, dst + i, s->cards[from + i], nc);
                }
            }
            if (key) *key = k;
        }
        if (a >= 0) {
            if (source < 8 && count == s->len[a]) o->emptied |= (uint8_t)BIT(source);
            move_block(o, off, a, b, count);
        } else {
            buf[0] = s->turned;
            put_top(o, b, buf, 1);
            o->turned = NONE;
        }
        if (source < 8 && target < 8) {
            o->emptied &= (uint8_t)~BIT(target);
            return CR_SEEN_ADD;
        }
        if (source == CR_SRC_RESERVE) {
            int up = s->reserve_up[p];
            o->reserve_up[p] = (uint8_t)(up > 1 ? up - 1 : (o->len[a] ? 1 : 0));
        }
        if (target < 8) o->emptied &= (uint8_t)~BIT(target);
        if (target == CR_TGT_OPP_RESERVE) o->reserve_up[1 - p] = (uint8_t)(o->reserve_up[1 - p] + 1);
        if (source >= 8) o->passes[0] = o->passes[1] = 0;
        break;
    }
    case CR_ACT_DRAW: {
        int hand = CR_PILE_HAND + p, waste = CR_PILE_WASTE + p;
        if (s->turned != NONE) return -1;
        if (!s->len[hand]) {
            int w = s->len[waste];
            if (!w) return -1;
            take_top(o, waste, w, buf);
            for (int i = 0, j = w - 1; i < j; i++, j--) {
                uint8_t t = buf[i];
                buf[i] = buf[j];
                buf[j] = t;
            }
            put_top(o, hand, buf, w);
            o->passes[p] = pass_done(s->passes[p]);
        }
        take_top(o, hand, 1, buf);
        o->turned = buf[0];
        break;
    }
    case CR_ACT_DISCARD:
        if (s->turned == NONE) return -1;
        buf[0] = s->turned;
        put_top(o, CR_PILE_WASTE + p, buf, 1);
        o->turned = NONE;
        o->to_act = (uint8_t)(1 - p);
        break;
    case CR_ACT_END_TURN:
        o->passes[p] = pass_done(s->passes[p]);
        o->to_act = (uint8_t)(1 - p);
        break;
    case CR_ACT_FLIP: {
        /* the hand's top card face up onto the waste (the waste turned over first when the
           hand is empty), ending the turn */
        int hand = CR_PILE_HAND + p, waste = CR_PILE_WASTE + p;
        if (!s->len[hand]) {
            int w = s->len[waste];
            if (!w) return -1;
            take_top(o, waste, w, buf);
            for (int i = 0, j = w - 1; i < j; i++, j--) {
                uint8_t t = buf[i];
                buf[i] = buf[j];
                buf[j] = t;
            }
            put_top(o, hand, buf, w);
            o->passes[p] = pass_done(s->passes[p]);
        }
        take_top(o, hand, 1, buf);
        put_top(o, waste, buf, 1);
        o->to_act = (uint8_t)(1 - p);
        break;
    }
    case CR_ACT_REVEAL:
        o->reserve_up[p] = 1;
        break;
    default:
        return -1; /* Stop! decisions never reach here */
    }
    if (o->to_act != p) o->emptied = 0;
    if (current && key && m->action != CR_ACT_PLAY) *key = *current; /* the houses are as they were */
    return effect;
}

static int play_standard(const cr_rules *r, const cr_state *s, int move, cr_state *o,
                         const uint64_t *current, uint64_t *key) {
    return play_pack(r, s, move, o, current, key, &cr_packs[CR_PACK_STANDARD]);
}

static int play_any(const cr_rules *r, const cr_state *s, int move, cr_state *o,
                    const uint64_t *current, uint64_t *key) {
    return play_pack(r, s, move, o, current, key, PACK_OF(r));
}

/* _engine._play: the plain transition for a move of the player to act (for the standard
   pack in its own instance, see ALWAYS_INLINE). */
ALWAYS_INLINE int play(const cr_rules *r, const cr_state *s, int move, cr_state *o,
                       const uint64_t *current, uint64_t *key) {
    if (CR_RULE(r, PACK) == CR_PACK_STANDARD) return play_standard(r, s, move, o, current, key);
    return play_any(r, s, move, o, current, key);
}

/* _engine._pass_turn: the offender's turn ends after a Stop! call; a still-turned hand card
   goes back on top of the offender's hand and the caller acts in a new turn (its call
   window closed: a call was the caller's first move, or the caller decided after the
   move). */
static void pass_turn(cr_state *o, int offender, int caller, uint32_t moves_made) {
    if (o->turned != NONE) {
        uint8_t card = o->turned;
        put_top(o, CR_PILE_HAND + offender, &card, 1);
    }
    o->turned = NONE;
    o->to_act = (uint8_t)caller;
    o->stop = 0;
    o->fault = 0;
    o->calls = (uint8_t)(o->calls & ~1u);
    o->moves_made = moves_made;
    o->emptied = 0;
}

/* _engine._penalty_card: the bottom card of the caller's hand (else of their waste; if both
   are empty, none) goes to the bottom of the offender's hand. */
static void penalty_card(cr_state *o, int caller, int offender) {
    int from = CR_PILE_HAND + caller;
    if (!o->len[from]) from = CR_PILE_WASTE + caller;
    if (o->len[from]) {
        int penalty = take_bottom(o, from);
        put_bottom(o, CR_PILE_HAND + offender, penalty);
    }
}

/* _engine._lose_draw: a violating flip is taken back (the piles and pass marks of the
   prior: the flip changed only the offender's hand and waste) and nothing else; any other
   violation stands. The offender's turn ends either way. */
static int lose_draw(const cr_state *s, const cr_state *prior, int move, int offender,
                     int caller, uint32_t moves_made, cr_state *o) {
    *o = *s;
    if (cr_move_table[move].action == CR_ACT_FLIP) {
        if (!prior) return -1;
        memcpy(o->cards, prior->cards, sizeof o->cards);
        memcpy(o->len, prior->len, sizeof o->len);
        o->turned = prior->turned; /* none under flip (the same), and the prior's cards fit */
        o->passes[0] = prior->passes[0];
        o->passes[1] = prior->passes[1];
    }
    pass_turn(o, offender, caller, moves_made);
    return CR_SEEN_CLEAR;
}

/* _engine._decide_stop (and the undo penalty of a call at the start of a turn): back to
   the prior, the missed compulsory move made, the turn to the caller. */
static int undo_penalty(const cr_rules *r, const cr_state *prior, int move, int offender,
                        int caller, uint32_t moves_made, cr_state *o) {
    if (!prior || prior->stop) return -1;
    uint16_t remedy[2];
    int nr = 0;
    if (cr_violation(r, prior, move, remedy, &nr) == CR_VIOLATION_NONE) return -1;
    cr_state a = *prior, b;
    for (int i = 0; i < nr; i++) {
        if (play(r, &a, remedy[i], &b, NULL, NULL) < 0) return -1;
        a = b;
    }
    *o = a;
    pass_turn(o, offender, caller, moves_made);
    return CR_SEEN_CLEAR;
}

/* _engine._decide_stop */
static int decide_stop(const cr_rules *r, const cr_state *s, const cr_state *prior, int move,
                       cr_state *o) {
    uint32_t moves_made = s->moves_made + 1;
    int action = cr_move_table[move].action;
    if (action == CR_ACT_LET_STAND) {
        *o = *s;
        o->to_act = (uint8_t)cr_stop_resume(s);
        o->stop = 0;
        o->moves_made = moves_made;
        return CR_SEEN_KEEP;
    }
    if (action != CR_ACT_CALL_STOP) return -1;
    int caller = s->to_act, offender = cr_stop_offender(s);
    int stop = (int)CR_RULE(r, STOP);
    if (stop == CR_STOP_UNDO)
        return undo_penalty(r, prior, cr_stop_move(s), offender, caller, moves_made, o);
    if (stop == CR_STOP_LOSE_DRAW)
        return lose_draw(s, prior, cr_stop_move(s), offender, caller, moves_made, o);
    *o = *s;
    penalty_card(o, caller, offender);
    pass_turn(o, offender, caller, moves_made);
    return CR_SEEN_CLEAR;
}

/* _engine._call: a Stop! call at the start of the caller's turn (call_window=turn_start).
   Right (a fault): its penalty, the caller plays on. Wrong: lose_turn ends the caller's turn
   at once; none costs nothing; rationed uses one of 3 false calls of the deal. */
static int call_at_turn_start(const cr_rules *r, const cr_state *s, const cr_state *prior,
                              cr_state *o) {
    uint32_t moves_made = s->moves_made + 1;
    int caller = s->to_act;
    uint8_t false_calls = (uint8_t)(s->calls & ~1u);
    int effect;
    if (s->fault) {
        int offender = cr_fault_offender(s), move = cr_fault_move(s);
        int stop = (int)CR_RULE(r, STOP);
        if (stop == CR_STOP_UNDO) {
            effect = undo_penalty(r, prior, move, offender, caller, moves_made, o);
        } else if (stop == CR_STOP_LOSE_DRAW) {
            effect = lose_draw(s, prior, move, offender, caller, moves_made, o);
        } else {
            *o = *s;
            penalty_card(o, caller, offender);
            pass_turn(o, offender, caller, moves_made);
            effect = CR_SEEN_CLEAR;
        }
        if (effect >= 0) o->calls = false_calls;
        return effect;
    }
    *o = *s;
    o->moves_made = moves_made;
    o->calls = false_calls;
    int penalty = (int)CR_RULE(r, FALSE_CALL);
    if (penalty == CR_FALSE_CALL_LOSE_TURN) {
        /* the caller's turn ends at once, drawing nothing: a new turn for the other */
        o->to_act = (uint8_t)(1 - caller);
        o->emptied = 0;
        o->calls |= 1;
        return CR_SEEN_CLEAR;
    }
    if (penalty == CR_FALSE_CALL_RATIONED) {
        int used = cr_false_calls(s, caller);
        if (used < 3) used++;
        int shift = 1 + 2 * caller;
        o->calls = (uint8_t)((o->calls & ~(3u << shift)) | ((unsigned)used << shift));
    }
    return CR_SEEN_KEEP;
}

int cr_apply(const cr_rules *r, const cr_state *s, const cr_state *prior, int move, cr_state *out,
             const uint64_t *current, uint64_t *key) {
    if (move < 0 || move >= CR_NMOVES || s->moves_made >= CR_MOVES_MADE_LIMIT) return -1;
    if (s->stop) {
        int effect = decide_stop(r, s, prior, move, out);
        if (effect >= 0 && current && key) *key = cr_houses_key(r, out); /* (undo: the prior's) */
        return effect;
    }
    if (calls_at_turn_start(r)) {
        int action = cr_move_table[move].action;
        if (action == CR_ACT_CALL_STOP) {
            int effect = call_at_turn_start(r, s, prior, out);
            if (effect >= 0 && current && key) *key = cr_houses_key(r, out);
            return effect;
        }
        int broken = ends_turn(action) && cr_violation(r, s, move, NULL, NULL) != CR_VIOLATION_NONE;
        int effect = play(r, s, move, out, current, key);
        if (effect < 0 || out->to_act == s->to_act) return effect;
        /* a new turn: its call window opens, with the fault a call would punish */
        out->calls |= 1;
        if (broken) out->fault = (uint16_t)((move + 1) | (s->to_act << 12) | (out->to_act << 13));
        return effect;
    }
    if (CR_RULE(r, STOP) != CR_STOP_ENFORCED && cr_violation(r, s, move, NULL, NULL) != CR_VIOLATION_NONE) {
        int effect = play(r, s, move, out, current, key);
        if (effect < 0 || cr_winner(out) >= 0) return effect;
        int resume = out->to_act;
        out->to_act = (uint8_t)(1 - s->to_act);
        out->stop = (uint16_t)((move + 1) | (s->to_act << 12) | (resume << 13));
        return effect;
    }
    return play(r, s, move, out, current, key);
}

/* ---------------------------------------------------------------------------------------- */
/* Dealing (crapette.deal) */

uint64_t cr_rng_next(uint64_t *rng) {
    uint64_t z = (*rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t cr_rng_below(uint64_t *rng, uint64_t n) {
    /* Rng.below: rejection below the largest multiple of n that fits in 64 bits */
    if (!n) return 0;
    uint64_t rem = (UINT64_MAX % n + 1) % n; /* 2**64 mod n */
    for (;;) {
        uint64_t x = cr_rng_next(rng);
        if (rem == 0 || x < 0 - rem) return x % n;
    }
}

static void shuffle(uint8_t *cards, int n, uint64_t *rng) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)cr_rng_below(rng, (uint64_t)(i + 1));
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
}

void cr_deal(const cr_rules *r, const uint8_t *pack0, const uint8_t *pack1, int starter,
             cr_state *out) {
    const cr_pack *pk = PACK_OF(r);
    const uint8_t *packs[2] = {pack0, pack1};
    int size = pk->size;
    int n = (int)CR_RULE(r, RESERVE_SIZE);
    if (n > size - 4) n = size - 4; /* (a ruleset the bindings refuse: the pack is smaller) */
    memset(out, 0, sizeof *out);
    /* piles in order: foundations (empty), houses 0..3 from pack 0 and 4..7 from pack 1,
       the reserves, the hands (the rest, reversed: the next card of the order on top) */
    int o = 0;
    for (int p = 0; p < 2; p++)
        for (int h = 0; h < 4; h++) {
            out->cards[o++] = packs[p][n + h];
            out->len[CR_PILE_HOUSE + p * 4 + h] = 1;
        }
    for (int p = 0; p < 2; p++) {
        memcpy(out->cards + o, packs[p], (size_t)n);
        o += n;
        out->len[CR_PILE_RESERVE + p] = (uint8_t)n;
    }
    for (int p = 0; p < 2; p++) {
        int rest = size - n - 4;
        for (int i = 0; i < rest; i++) out->cards[o++] = packs[p][size - 1 - i];
        out->len[CR_PILE_HAND + p] = (uint8_t)rest;
    }
    out->turned = NONE;
    uint8_t up = CR_RULE(r, RESERVE_FACE_UP) ? 1 : 0;
    out->reserve_up[0] = out->reserve_up[1] = up;
    out->passes[0] = out->passes[1] = 1;
    if (calls_at_turn_start(r)) out->calls = 1; /* the first turn's call window */
    if (starter < 0) {
        /* deal.first_player */
        int pairs[CR_NCARDS / 2][2];
        int npairs = 0;
        if (CR_RULE(r, FIRST_PLAYER) == CR_FIRST_PLAYER_CUT) {
            for (int i = size - 1; i >= 0; i--) {
                pairs[npairs][0] = pack0[i];
                pairs[npairs++][1] = pack1[i];
            }
        } else {
            pairs[npairs][0] = pack0[n - 1];
            pairs[npairs++][1] = pack1[n - 1];
            int outward = CR_RULE(r, FIRST_PLAYER) == CR_FIRST_PLAYER_RESERVE ? 4 : 1;
            for (int i = 0; i < outward; i++) {
                pairs[npairs][0] = pack0[n + i];
                pairs[npairs++][1] = pack1[n + i];
            }
        }
        starter = 0;
        for (int i = 0; i < npairs; i++) {
            int a = pk->rank[pairs[i][0]], b = pk->rank[pairs[i][1]];
            if (a != b) {
                starter = a < b ? 0 : 1;
                break;
            }
        }
    }
    out->to_act = (uint8_t)starter;
}

void cr_new_game(const cr_rules *r, uint64_t seed, cr_state *out) {
    const cr_pack *pk = PACK_OF(r);
    int size = pk->size;
    uint64_t rng = seed;
    uint8_t pack0[CR_NCARDS / 2], pack1[CR_NCARDS / 2];
    for (int i = 0; i < size; i++) {
        pack0[i] = (uint8_t)i;
        pack1[i] = (uint8_t)(size + i);
    }
    shuffle(pack0, size, &rng);
    shuffle(pack1, size, &rng);
    int starter = -1;
    if (CR_RULE(r, FIRST_PLAYER) == CR_FIRST_PLAYER_CUT) {
        /* deal.cut: each player cuts a random card of their own pack; a tie is cut again */
        for (;;) {
            int a = pk->rank[pack0[cr_rng_below(&rng, (uint64_t)size)]];
            int b = pk->rank[pack1[cr_rng_below(&rng, (uint64_t)size)]];
            if (a != b) {
                starter = a < b ? 0 : 1;
                break;
            }
        }
    }
    cr_deal(r, pack0, pack1, starter, out);
}

/* ---------------------------------------------------------------------------------------- */
/* The greedy ranking (crapette.bots._greedy) */

enum { POINTLESS = -100, VIOLATION = -10000, SHUFFLE = -1, RIGHT_CALL = 2000, FALSE_CALL = -1000 };

typedef struct lookahead {
    int own[3], nown;
    int loads[2], nloads;
    const cr_pack *pk;
    const uint64_t (*match)[2]; /* the loads table of the rules' match and wrap */
} lookahead;

ALWAYS_INLINE void lookahead_of(const cr_rules *r, const cr_state *s, const int *off,
                                lookahead *a, const cr_pack *pk) {
    int p = s->to_act;
    a->nown = a->nloads = 0;
    a->pk = pk;
    a->match = loads_of(r, pk);
    int pile = CR_PILE_RESERVE + p;
    if (s->len[pile] && s->reserve_up[p]) a->own[a->nown++] = top_at(s, off, pile);
    if (s->turned != NONE) a->own[a->nown++] = s->turned;
    pile = CR_PILE_WASTE + p;
    if (s->len[pile] && CR_RULE(r, OWN_WASTE_PLAYABLE)) a->own[a->nown++] = top_at(s, off, pile);
    if (CR_RULE(r, LOAD_FROM) == CR_LOAD_FROM_ANY) {
        int q = 1 - p;
        pile = CR_PILE_RESERVE + q;
        if (s->len[pile] && s->reserve_up[q]) a->loads[a->nloads++] = top_at(s, off, pile);
        pile = CR_PILE_WASTE + q;
        if (s->len[pile]) a->loads[a->nloads++] = top_at(s, off, pile);
    }
}

/* _LookAhead.gain (count below the source's size: the caller's test) */
ALWAYS_INLINE int gain_of(const cr_state *s, const int *off, const lookahead *a, int source,
                          int count, int target, const cr_pack *pk) {
    int pile = CR_PILE_HOUSE + source;
    int exposed = s->cards[off[pile] + s->len[pile] - count - 1];
    int gain = 0;
    for (int i = 0; i < a->nown; i++)
        if (pk->takes[exposed] == pk->kind[a->own[i]]) gain++;
    if (foundation_pile(pk, s, off, exposed) >= 0) gain += 2;
    int covered = CR_PILE_HOUSE + target;
    if (s->len[covered]) {
        int t = top_at(s, off, covered);
        for (int i = 0; i < a->nown; i++)
            if (pk->takes[t] == pk->kind[a->own[i]]) gain--;
    } else {
        gain--;
    }
    for (int i = 0; i < a->nloads; i++)
        if (fits_load(pk, a->match, a->loads[i], exposed)) gain++;
    return gain;
}

/* _base_score */
ALWAYS_INLINE int base_score(const cr_state *s, int move) {
    const cr_move_info *m = &cr_move_table[move];
    if (m->action != CR_ACT_PLAY) {
        if (m->action == CR_ACT_REVEAL) return 1000;
        if (m->action == CR_ACT_DRAW) return 100;
        if (m->action == CR_ACT_CALL_STOP && cr_window(s)) return s->fault ? RIGHT_CALL : FALSE_CALL;
        return 0;
    }
    int source = m->source, target = m->target;
    const uint8_t *len = s->len;
    if (target == CR_TGT_FOUNDATION) {
        if (source == CR_SRC_RESERVE) return 960;
        if (source == CR_SRC_HAND) return 950;
        if (source > CR_SRC_HAND) return 940;
        return len[CR_PILE_HOUSE + source] == 1 ? 930 : 920;
    }
    if (source == CR_SRC_RESERVE) {
        if (target == CR_TGT_OPP_RESERVE) return 820;
        if (target == CR_TGT_OPP_WASTE) return 800;
        return len[CR_PILE_HOUSE + target] ? 700 : 600;
    }
    if (source >= CR_SRC_HAND) {
        if (target == CR_TGT_OPP_RESERVE) return 660;
        if (target == CR_TGT_OPP_WASTE) return 650;
        if (len[CR_PILE_HOUSE + target]) return 550;
        return len[CR_PILE_RESERVE + s->to_act] ? 350 : 450;
    }
    int empties = len[CR_PILE_HOUSE + source] == m->count;
    if (target >= CR_TGT_OPP_RESERVE)
        return 500 + (empties ? 30 : 0) + (target == CR_TGT_OPP_RESERVE ? 10 : 0);
    if (empties && len[CR_PILE_HOUSE + target]) return 450;
    if (empties) return POINTLESS;
    return SHUFFLE;
}

/* The greedy ranking for the pack `pk` (a compile-time constant where it is instantiated). */
ALWAYS_INLINE void greedy_scores(const cr_rules *r, const cr_state *s, const uint16_t *moves,
                                 int n, int32_t *scores, const cr_pack *pk) {
    int callable = CR_RULE(r, STOP) != CR_STOP_ENFORCED;
    int off[CR_NPILES + 1];
    int ahead_ready = 0;
    lookahead ahead;
    memset(&ahead, 0, sizeof ahead);
    for (int i = 0; i < n; i++) {
        int move = moves[i];
        if (move >= CR_NMOVES) {
            scores[i] = POINTLESS; /* not a move: the bindings refuse it first */
            continue;
        }
        int score = base_score(s, move);
        if (score == SHUFFLE) {
            const cr_move_info *m = &cr_move_table[move];
            if (m->count >= s->len[CR_PILE_HOUSE + m->source]) {
                score = POINTLESS; /* more cards than the house holds: not legal */
            } else {
                if (!ahead_ready) {
                    offsets_pack(s, off, pk->foundations > 8);
                    lookahead_of(r, s, off, &ahead, pk);
                    ahead_ready = 1;
                }
                int gain = gain_of(s, off, &ahead, m->source, m->count, m->target, pk);
                score = gain > 0 ? 400 + 10 * gain : POINTLESS;
            }
        }
        if (callable && cr_violation(r, s, move, NULL, NULL) != CR_VIOLATION_NONE) score += VIOLATION;
        scores[i] = score;
    }
}

static void greedy_scores_standard(const cr_rules *r, const cr_state *s, const uint16_t *moves,
                                   int n, int32_t *scores) {
    greedy_scores(r, s, moves, n, scores, &cr_packs[CR_PACK_STANDARD]);
}

static void greedy_scores_any(const cr_rules *r, const cr_state *s, const uint16_t *moves, int n,
                              int32_t *scores) {
    greedy_scores(r, s, moves, n, scores, PACK_OF(r));
}

void cr_greedy_scores(const cr_rules *r, const cr_state *s, const uint16_t *moves, int n,
                      int32_t *scores) {
    if (CR_RULE(r, PACK) == CR_PACK_STANDARD) greedy_scores_standard(r, s, moves, n, scores);
    else greedy_scores_any(r, s, moves, n, scores);
}

int cr_first_illegal(const cr_rules *r, const cr_state *s, const cr_seen *seen,
                     const uint16_t *moves, int n) {
    uint16_t legal[CR_NMOVES];
    uint64_t bits[(CR_NMOVES + 63) / 64];
    memset(bits, 0, sizeof bits);
    int k = cr_legal_moves(r, s, seen, legal);
    for (int i = 0; i < k; i++) bits[legal[i] >> 6] |= 1ull << (legal[i] & 63);
    for (int i = 0; i < n; i++)
        if (moves[i] >= CR_NMOVES || !((bits[moves[i] >> 6] >> (moves[i] & 63)) & 1u)) return i;
    return -1;
}

int cr_rules_check(const cr_rules *r) {
    for (int i = 0; i < CR_NOPTIONS; i++) {
        const cr_option_spec *o = &cr_option_table[i];
        int64_t v = r->v[i];
        if ((v < o->low || v > o->high) && !(v == -1 && o->kind == CR_KIND_COUNT)) return 0;
    }
    return 1;
}

int cr_packs_check(const cr_rules *r, const uint8_t *pack0, const uint8_t *pack1) {
    const uint8_t *packs[2] = {pack0, pack1};
    int size = PACK_OF(r)->size;
    for (int p = 0; p < 2; p++) {
        uint8_t seen[CR_NCARDS / 2];
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < size; i++) {
            int card = packs[p][i] - size * p;
            if (card < 0 || card >= size || seen[card]) return 0;
            seen[card] = 1;
        }
    }
    return 1;
}

int cr_greedy_move(const cr_rules *r, const cr_state *s, const uint16_t *moves, int n,
                   uint64_t *rng) {
    if (n <= 0) return -1;
    if (n > CR_NMOVES) n = CR_NMOVES; /* the scores' room: the bindings refuse longer lists */
    if (n == 1) return moves[0];
    if (s->stop) {
        /* bots.base.call_helps */
        int helps = CR_RULE(r, STOP) == CR_STOP_CARD || cr_stop_resume(s) == cr_stop_offender(s);
        return helps ? CR_MOVE_CALL_STOP : CR_MOVE_LET_STAND;
    }
    int32_t scores[CR_NMOVES];
    cr_greedy_scores(r, s, moves, n, scores);
    int32_t top = scores[0];
    for (int i = 1; i < n; i++)
        if (scores[i] > top) top = scores[i];
    int best = 0, first = -1;
    for (int i = 0; i < n; i++)
        if (scores[i] == top) {
            if (first < 0) first = i;
            best++;
        }
    if (best == 1) return moves[first];
    uint64_t pick = cr_rng_below(rng, (uint64_t)best);
    for (int i = 0; i < n; i++)
        if (scores[i] == top && pick-- == 0) return moves[i];
    return moves[first]; /* not reached */
}

/* ---------------------------------------------------------------------------------------- */
/* Key sets and play-outs */

void cr_keyset_init(cr_keyset *k, uint64_t *keys, uint32_t *index, uint32_t capacity) {
    k->keys = keys;
    k->index = index;
    k->capacity = capacity;
    k->size = 0;
    k->filter = 0;
    memset(index, 0, sizeof(uint32_t) * 2 * (size_t)capacity);
}

void cr_keyset_clear(cr_keyset *k) {
    uint32_t mask = 2 * k->capacity - 1;
    for (uint32_t j = 0; j < k->size; j++) {
        uint32_t i = (uint32_t)k->keys[j] & mask;
        while (k->index[i] != j + 1) i = (i + 1) & mask;
        k->index[i] = 0;
    }
    k->size = 0;
    k->filter = 0;
}

int cr_keyset_has(const cr_keyset *k, uint64_t key) {
    cr_seen sn = cr_keyset_seen(k);
    return seen_has(&sn, key);
}

int cr_keyset_add(cr_keyset *k, uint64_t key) {
    if (k->size >= k->capacity) return -1;
    uint32_t mask = 2 * k->capacity - 1;
    uint32_t i = (uint32_t)key & mask;
    while (k->index[i]) i = (i + 1) & mask;
    k->keys[k->size++] = key;
    k->index[i] = k->size;
    k->filter |= 1ull << (key & 63);
    return 0;
}

cr_seen cr_keyset_seen(const cr_keyset *k) {
    cr_seen sn;
    sn.keys = k->keys;
    sn.index = k->index;
    sn.mask = 2 * k->capacity - 1;
    sn.size = k->size;
    sn.filter = k->filter;
    sn.current = k->size ? k->keys[k->size - 1] : 0;
    return sn;
}

int cr_game_start(cr_game *g, const cr_rules *r, const cr_state *s, const cr_state *prior,
                  const cr_seen *seen) {
    g->state = *s;
    if (prior) g->prior = *prior;
    else memset(&g->prior, 0, sizeof g->prior);
    g->nmoves = 0;
    g->key = seen && seen->size ? seen->current : cr_houses_key(r, s);
    g->key_known = 1;
    cr_keyset_clear(&g->seen);
    if (seen && seen->size) {
        for (uint32_t i = 0; i < seen->size; i++) {
            /* the first `size` keys of a log hold each key once */
            if (cr_keyset_add(&g->seen, seen->keys[i]) < 0) return -1;
        }
    }
    return 0;
}

int cr_game_list(cr_game *g, const cr_rules *r) {
    cr_seen sn = cr_keyset_seen(&g->seen);
    sn.current = g->key;
    g->nmoves = cr_legal_moves(r, &g->state, g->seen.size ? &sn : NULL, g->moves);
    return g->nmoves;
}

int cr_game_play(cr_game *g, const cr_rules *r, int move) {
    cr_state next;
    uint64_t key = 0;
    const uint64_t *current = g->key_known ? &g->key : NULL;
    int effect = cr_apply(r, &g->state, &g->prior, move, &next, current, &key);
    if (effect < 0) return -2;
    if ((next.stop && !g->state.stop) || next.fault) {
        /* the position before the violation, its own call window closed */
        g->prior = g->state;
        g->prior.calls = (uint8_t)(g->prior.calls & ~1u);
        g->prior.fault = 0;
    }
    if (effect == CR_SEEN_ADD) {
        /* _engine._extend: the first house move of a turn logs the turn's layout too */
        if (!g->seen.size) {
            uint64_t first = current ? *current : cr_houses_key(r, &g->state);
            if (key != first) {
                if (cr_keyset_add(&g->seen, first) < 0 || cr_keyset_add(&g->seen, key) < 0) return -1;
            }
        } else if (!cr_keyset_has(&g->seen, key)) {
            if (cr_keyset_add(&g->seen, key) < 0) return -1;
        }
    } else if (effect == CR_SEEN_CLEAR) {
        cr_keyset_clear(&g->seen);
    }
    if (current) {
        g->key = key; /* cr_apply keeps a known layout key known */
    } else if (effect == CR_SEEN_ADD) {
        g->key = key;
        g->key_known = 1;
    }
    g->state = next;
    return 0;
}

int64_t cr_evaluate(const cr_rules *r, const cr_state *s, int p) {
    if (p != 0 && p != 1) return 0;
    int64_t counts[2];
    cr_counts(r, s, counts);
    int64_t value = counts[1 - p] - counts[p];
    int won = cr_winner(s);
    if (won >= 0) value += won == p ? 100 : -100;
    /* a blocked deal under blocked=draw: nobody wins, nobody scores */
    else if (CR_RULE(r, BLOCKED) == CR_BLOCKED_DRAW && cr_is_over(r, s)) value = 0;
    return value;
}

int cr_play_out(cr_game *g, const cr_rules *r, int p, uint64_t *rng, int turns, int64_t *value,
                int64_t *played, int64_t *scored) {
    int seen_opponent = cr_turn_player(&g->state) != p;
    int64_t back = 0, moves = 0, listed = 0, cap = 400 * (int64_t)turns;
    while (moves < cap) {
        int n = cr_game_list(g, r);
        if (!n) break;
        listed += n;
        int move = cr_greedy_move(r, &g->state, g->moves, n, rng);
        int err = cr_game_play(g, r, move);
        if (err) return err;
        moves++;
        if (cr_turn_player(&g->state) != p) {
            seen_opponent = 1;
        } else if (seen_opponent) {
            seen_opponent = 0;
            if (++back >= turns) break;
        }
    }
    *value = cr_evaluate(r, &g->state, p);
    *played = moves;
    *scored = listed;
    return 0;
}

/* crapette.bots.search.candidates: the moves worth searching, best greedy rank first (ties
   by list order), at most `width`; no pointless move (score <= -100) unless it ranks
   first, and only the best when every kept move goes to a foundation. */
static int candidates(const cr_rules *r, const cr_state *s, const uint16_t *moves, int n,
                      int width, uint16_t *out) {
    int32_t scores[CR_NMOVES];
    uint8_t taken[CR_NMOVES];
    cr_greedy_scores(r, s, moves, n, scores);
    int32_t best = scores[0];
    for (int i = 1; i < n; i++)
        if (scores[i] > best) best = scores[i];
    int foundations = 1;
    for (int i = 0; i < n; i++) {
        taken[i] = !(scores[i] > -100 || scores[i] == best);
        if (!taken[i]) foundations &= cr_move_table[moves[i]].target == CR_TGT_FOUNDATION;
    }
    int limit = foundations ? 1 : width, kept = 0;
    while (kept < limit) {
        int pick = -1;
        for (int i = 0; i < n; i++)
            if (!taken[i] && (pick < 0 || scores[i] > scores[pick])) pick = i;
        if (pick < 0) break;
        taken[pick] = 1;
        out[kept++] = moves[pick];
    }
    return kept;
}

int cr_lookahead_move(cr_game *g, cr_game *scratch, const cr_rules *r, uint64_t *rng, int width,
                      int *move, int64_t *played, int64_t *scored) {
    int n = cr_game_list(g, r);
    if (n <= 0) return -2;
    if (n == 1 || g->state.stop) {
        *move = cr_greedy_move(r, &g->state, g->moves, n, rng);
        return 0;
    }
    uint16_t tried[CR_MAX_WIDTH];
    if (width < 1) width = 1;
    if (width > CR_MAX_WIDTH) width = CR_MAX_WIDTH;
    int k = candidates(r, &g->state, g->moves, n, width, tried);
    *move = tried[0];
    if (k == 1) return 0;
    int q = g->state.to_act;
    uint64_t seed = cr_rng_next(rng);
    int64_t top = 0;
    cr_seen sn = cr_keyset_seen(&g->seen);
    sn.current = g->key;
    for (int i = 0; i < k; i++) {
        uint64_t sub = seed;
        int64_t value, moves, listed;
        int err = cr_game_start(scratch, r, &g->state, &g->prior, g->seen.size ? &sn : NULL);
        if (!err) err = cr_game_play(scratch, r, tried[i]);
        if (!err) err = cr_play_out(scratch, r, q, &sub, 1, &value, &moves, &listed);
        if (err) return err;
        *played += moves;
        *scored += listed;
        if (i == 0 || value > top) {
            *move = tried[i];
            top = value;
        }
    }
    return 0;
}

int cr_deep_play_out(cr_game *g, cr_game *scratch, const cr_rules *r, int p, uint64_t *rng,
                     int turns, int width, int64_t *value, int64_t *played, int64_t *scored) {
    int64_t moved = 0, positions = 0, listed = 0;
    for (int own = 1; own >= 0; own--) {
        while (moved < 400 && !cr_is_over(r, &g->state) &&
               (cr_turn_player(&g->state) == p) == own) {
            int move, err = cr_lookahead_move(g, scratch, r, rng, width, &move, &positions, &listed);
            if (!err) err = cr_game_play(g, r, move);
            if (err) return err;
            moved++;
        }
    }
    int64_t more = 0, more_listed = 0;
    int err = cr_play_out(g, r, p, rng, turns, value, &more, &more_listed);
    if (err) return err;
    *played = moved + positions + more;
    *scored = listed + more_listed;
    return 0;
}

int cr_play_deal(cr_game *g, const cr_rules *r, const int *policies, uint64_t *rng,
                 uint16_t *record, int64_t record_cap, cr_result *out) {
    int32_t turns = 1, violations = 0, calls = 0;
    int64_t played = 0;
    out->starter = g->state.to_act;
    for (;;) {
        int n = cr_game_list(g, r);
        if (!n) break;
        int p = g->state.to_act;
        int move;
        if (policies[p] == CR_POLICY_GREEDY) {
            move = cr_greedy_move(r, &g->state, g->moves, n, &rng[p]);
        } else {
            move = g->moves[cr_rng_below(&rng[p], (uint64_t)n)];
        }
        int before = cr_turn_player(&g->state);
        if (g->state.stop) {
            violations++;
            calls += move == CR_MOVE_CALL_STOP;
        }
        int err = cr_game_play(g, r, move);
        if (err) return err;
        if (record && played < record_cap) record[played] = (uint16_t)move;
        played++;
        turns += cr_turn_player(&g->state) != before;
    }
    int winner = -1;
    out->reason = cr_outcome(r, &g->state, &winner, out->scores);
    out->winner = winner;
    out->turns = turns;
    out->violations = violations;
    out->calls = calls;
    out->moves = g->state.moves_made;
    return 0;
}
