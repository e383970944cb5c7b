/*
 * crapette._core: the CPython binding of the C core (crapette_core.c).
 *
 * It holds a position in a compact native object (the C struct plus the ruleset, the layouts
 * seen this turn and, during a Stop! decision, the position before the violation) and
 * exposes the engine's entry points with the same behaviour as the Python reference engine
 * (crapette._movegen, crapette._engine, crapette.outcome). crapette.state subclasses State
 * as crapette.GameState and hands this module the Python objects it returns (cards, moves,
 * PendingStop, Outcome, the errors) through setup().
 *
 * Everything a Python caller passes is checked before it reaches the core: a hand-built state
 * that could not occur is refused with InvalidPositionError in the Python engine's words (or
 * the TypeError of the pure build for a field of the wrong type); a move is looked up in the
 * fixed move table; a list of moves is bounded by its buffer and checked legal; helper
 * arguments are checked against their ranges (docs/performance.md lists every entry).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "crapette_core.h"

#ifndef CRAPETTE_SOURCE_HASH
#define CRAPETTE_SOURCE_HASH "unknown"
#endif

#define MOVE_SLOTS 2048

/* ---------------------------------------------------------------------------------------- */
/* Python objects handed over by setup() (the binding's own state, under the GIL) */

static PyObject *g_cards[CR_NPACKS][CR_NCARDS]; /* the card objects of each pack kind */
static PyObject *g_moves[CR_NMOVES];
static PyObject *g_move_keys[MOVE_SLOTS];
static int16_t g_move_vals[MOVE_SLOTS];
static PyObject *g_move_class;
static PyObject *g_pending_stop;
static PyObject *g_ruleset_class;
static PyObject *g_err_position;
static PyObject *g_err_illegal;
static PyObject *g_err_argument;
static PyObject *g_hooks; /* crapette._hooks: functions of the layers above */
static PyObject *g_reasons[4];
static int g_ready;

static PyTypeObject StateType;
static PyTypeObject RulesType;
static PyTypeObject LogType;

/* ---------------------------------------------------------------------------------------- */
/* Rulesets: the cr_rules of a Ruleset, read once and kept in a small cache */

typedef struct {
    PyObject_HEAD
    PyObject *ruleset;
    Py_hash_t hash;
    cr_rules r;
} RulesObject;

#define RULES_CACHE 16
static RulesObject *g_rules_cache[RULES_CACHE];
static int g_rules_next;

static void rules_dealloc(RulesObject *self) {
    Py_XDECREF(self->ruleset);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "crapette._core.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_dealloc = (destructor)rules_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A ruleset as the C core reads it (internal).",
};

/* The cr_rules of a Ruleset: its option codes (Ruleset._codes, in the order of
   cr_option_table), each checked against the spec's range of codes, so the core never reads
   a code it does not know. */
static RulesObject *rules_for(PyObject *ruleset) {
    for (int i = 0; i < RULES_CACHE; i++) {
        RulesObject *c = g_rules_cache[i];
        if (c && c->ruleset == ruleset) {
            Py_INCREF(c);
            return c;
        }
    }
    PyObject *codes = PyObject_GetAttrString(ruleset, "_codes");
    if (!codes) return NULL;
    if (!PyTuple_CheckExact(codes) || PyTuple_GET_SIZE(codes) != CR_NOPTIONS) {
        Py_DECREF(codes);
        PyErr_SetString(PyExc_ValueError, "a ruleset's codes do not match the rule spec");
        return NULL;
    }
    RulesObject *self = PyObject_New(RulesObject, &RulesType);
    if (!self) {
        Py_DECREF(codes);
        return NULL;
    }
    Py_INCREF(ruleset);
    self->ruleset = ruleset;
    for (int i = 0; i < CR_NOPTIONS; i++) {
        const cr_option_spec *o = &cr_option_table[i];
        long long code = PyLong_AsLongLong(PyTuple_GET_ITEM(codes, i));
        if (code == -1 && PyErr_Occurred()) goto fail;
        int none = code == -1 && o->kind == CR_KIND_COUNT;
        if (!none && (code < o->low || code > o->high)) {
            PyErr_Format(PyExc_ValueError, "option %s has the code %lld, outside %lld..%lld",
                         o->name, code, (long long)o->low, (long long)o->high);
            goto fail;
        }
        self->r.v[i] = code;
    }
    Py_DECREF(codes);
    self->hash = PyObject_Hash(ruleset);
    if (self->hash == -1) {
        Py_DECREF(self);
        return NULL;
    }
    RulesObject *old = g_rules_cache[g_rules_next];
    g_rules_cache[g_rules_next] = self;
    Py_INCREF(self);
    g_rules_next = (g_rules_next + 1) % RULES_CACHE;
    Py_XDECREF(old);
    return self;
fail:
    Py_DECREF(codes);
    Py_DECREF(self);
    return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* The layouts seen in a line of play, shared by its states (crapette.state.SeenLog) */

#define LOG_INLINE 2      /* keys held in the log object itself */
#define LOG_INDEX_FROM 32 /* a log of more keys gets an index (fewer are scanned) */

typedef struct {
    PyObject_HEAD
    uint32_t n, cap;
    uint64_t *keys;   /* inline_keys, or a heap array of cap keys */
    uint32_t *index;  /* NULL, or mask + 1 (at least 2 * cap) slots of position + 1 */
    uint32_t mask;
    uint64_t filter;  /* bit k & 63 of every key k */
    uint64_t inline_keys[LOG_INLINE];
} LogObject;

static void log_dealloc(LogObject *self) {
    if (self->keys != self->inline_keys) PyMem_Free(self->keys);
    PyMem_Free(self->index);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject LogType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "crapette._core.SeenLog",
    .tp_basicsize = sizeof(LogObject),
    .tp_dealloc = (destructor)log_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The layout keys seen in one line of play (internal).",
};

static void log_index_put(LogObject *l, uint64_t key, uint32_t pos) {
    uint32_t mask = l->mask;
    uint32_t i = (uint32_t)key & mask;
    while (l->index[i]) i = (i + 1) & mask;
    l->index[i] = pos + 1;
}

static LogObject *log_new(void) {
    LogObject *l = PyObject_New(LogObject, &LogType);
    if (!l) return NULL;
    l->n = 0;
    l->cap = LOG_INLINE;
    l->keys = l->inline_keys;
    l->index = NULL;
    l->mask = 0;
    l->filter = 0;
    return l;
}

static int log_append(LogObject *l, uint64_t key) {
    if (l->n == l->cap) {
        if (l->cap >= (1u << 30)) {
            PyErr_NoMemory();
            return -1;
        }
        uint32_t cap = l->cap + l->cap / 2 + 1; /* grow by half: logs stay small in memory */
        uint64_t *keys;
        if (l->keys == l->inline_keys) {
            keys = PyMem_Malloc(sizeof(uint64_t) * cap);
            if (keys) memcpy(keys, l->inline_keys, sizeof l->inline_keys);
        } else {
            keys = PyMem_Realloc(l->keys, sizeof(uint64_t) * cap);
        }
        if (!keys) {
            PyErr_NoMemory();
            return -1;
        }
        l->keys = keys;
        l->cap = cap;
        if (cap > LOG_INDEX_FROM) {
            uint32_t slots = 64;
            while (slots < 2 * cap) slots *= 2;
            uint32_t *index = PyMem_Calloc(slots, sizeof(uint32_t));
            if (!index) {
                PyErr_NoMemory();
                return -1;
            }
            PyMem_Free(l->index);
            l->index = index;
            l->mask = slots - 1;
            for (uint32_t i = 0; i < l->n; i++) log_index_put(l, l->keys[i], i);
        }
    }
    l->keys[l->n] = key;
    l->filter |= 1ull << (key & 63);
    if (l->index) log_index_put(l, key, l->n);
    l->n++;
    return 0;
}

/* The position of key in the log, or -1. */
static int64_t log_find(const LogObject *l, uint64_t key) {
    if (!((l->filter >> (key & 63)) & 1u)) return -1;
    if (!l->index) {
        for (uint32_t i = 0; i < l->n; i++)
            if (l->keys[i] == key) return i;
        return -1;
    }
    uint32_t mask = l->mask;
    uint32_t i = (uint32_t)key & mask;
    for (;;) {
        uint32_t v = l->index[i];
        if (!v) return -1;
        if (l->keys[v - 1] == key) return v - 1;
        i = (i + 1) & mask;
    }
}

static cr_seen log_seen(const LogObject *l, uint32_t size, uint64_t current) {
    cr_seen sn;
    sn.keys = l->keys;
    sn.index = l->index;
    sn.mask = l->mask;
    sn.size = size;
    sn.filter = l->filter;
    sn.current = current;
    return sn;
}

/* A new log holding keys[0..n) (distinct) and then key. */
static LogObject *log_from(const uint64_t *keys, uint32_t n, uint64_t key) {
    LogObject *l = log_new();
    if (!l) return NULL;
    for (uint32_t i = 0; i < n; i++)
        if (log_append(l, keys[i]) < 0) goto fail;
    if (log_append(l, key) < 0) goto fail;
    return l;
fail:
    Py_DECREF(l);
    return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* States */

/* A state's log is the LogObject its aux points to, or NULL (only the current layout was
   seen this turn); while a Stop! decision is open, aux is an AuxObject holding the log and
   the position before the violation (the prior), so that the many states without one do
   not carry a pointer for it. */
typedef struct StateObject {
    PyObject_HEAD
    RulesObject *rules;
    PyObject *aux;      /* NULL, a LogObject, or (flag HAS_AUX) an AuxObject */
    cr_state st;
    uint32_t seen_size; /* the first SEEN_SIZE keys of the log are this state's; the last is
                           its own layout, unless the flag OFF_LAST is set */
} StateObject;

typedef struct {
    PyObject_HEAD
    LogObject *log;
    StateObject *prior;
} AuxObject;

static void aux_dealloc(AuxObject *self) {
    Py_XDECREF(self->log);
    Py_XDECREF(self->prior);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject AuxType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "crapette._core.StopAux",
    .tp_basicsize = sizeof(AuxObject),
    .tp_dealloc = (destructor)aux_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The log and prior of a state awaiting a Stop! decision (internal).",
};

#define OFF_LAST 0x80000000u /* seen_size flag: the layout is an earlier key of the log */
#define HAS_AUX 0x40000000u  /* seen_size flag: aux is an AuxObject */
#define SEEN_SIZE(s) ((s)->seen_size & ~(OFF_LAST | HAS_AUX))

static inline LogObject *LOG(const StateObject *s) {
    return (s->seen_size & HAS_AUX) ? ((AuxObject *)s->aux)->log : (LogObject *)s->aux;
}

static inline StateObject *PRIOR(const StateObject *s) {
    return (s->seen_size & HAS_AUX) ? ((AuxObject *)s->aux)->prior : NULL;
}

/* Give a new state its log and prior (both references are stolen; either may be NULL). */
static int state_set_aux(StateObject *o, LogObject *log, StateObject *prior) {
    if (!prior) {
        o->aux = (PyObject *)log;
        return 0;
    }
    AuxObject *a = PyObject_New(AuxObject, &AuxType);
    if (!a) {
        Py_XDECREF(log);
        Py_DECREF(prior);
        return -1;
    }
    a->log = log;
    a->prior = prior;
    o->aux = (PyObject *)a;
    o->seen_size |= HAS_AUX;
    return 0;
}

/* The layout key of a state: the last key it saw, or computed. */
static inline uint64_t state_key(const StateObject *s) {
    LogObject *l = LOG(s);
    if (l && !(s->seen_size & OFF_LAST)) return l->keys[SEEN_SIZE(s) - 1];
    return cr_houses_key(&s->rules->r, &s->st);
}

/* The card objects of a state's pack kind, and its pack's tables. */
static inline PyObject *const *CARDS(const StateObject *s) {
    return g_cards[CR_RULE(&s->rules->r, PACK)];
}
static inline const cr_pack *PACK(const StateObject *s) {
    return &cr_packs[CR_RULE(&s->rules->r, PACK)];
}

#define IS_STATE(o) PyObject_TypeCheck((o), &StateType)

static void state_dealloc(StateObject *self) {
    Py_XDECREF(self->rules);
    Py_XDECREF(self->aux);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static StateObject *state_alloc(PyTypeObject *type) {
    StateObject *o = (StateObject *)PyObject_Malloc(sizeof(StateObject));
    if (!o) return (StateObject *)PyErr_NoMemory();
    PyObject_Init((PyObject *)o, type);
    o->rules = NULL;
    o->aux = NULL;
    o->seen_size = 0;
    return o;
}

static PyObject *hook(const char *name) {
    if (!g_hooks) {
        PyErr_SetString(PyExc_RuntimeError, "crapette._core is not set up");
        return NULL;
    }
    PyObject *fn = PyObject_GetAttrString(g_hooks, name);
    if (fn == Py_None) {
        Py_DECREF(fn);
        PyErr_Format(PyExc_RuntimeError, "crapette._hooks.%s is not registered", name);
        return NULL;
    }
    return fn;
}

/* Raise the exception a hook builds from its arguments (a TypeError worded as the pure
   build words it, say). */
static PyObject *raise_from_hook(const char *name, PyObject *a, PyObject *b) {
    PyObject *fn = hook(name);
    if (!fn) return NULL;
    PyObject *exc = b ? PyObject_CallFunctionObjArgs(fn, a, b, NULL)
                      : PyObject_CallFunctionObjArgs(fn, a, NULL);
    Py_DECREF(fn);
    if (!exc) return NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
    return NULL;
}

static PyObject *not_a_state(PyObject *value) { return raise_from_hook("not_a_state", value, NULL); }

static PyObject *type_error(const char *expected, PyObject *value) {
    PyObject *what = PyUnicode_FromString(expected);
    if (!what) return NULL;
    raise_from_hook("expected_type_error", what, value);
    Py_DECREF(what);
    return NULL;
}

/* InvalidPositionError("this state cannot be built: <what> <show(value)>") */
static PyObject *refuse(const char *what, PyObject *value) {
    PyObject *shown = NULL;
    if (value) {
        PyObject *fn = hook("show");
        if (!fn) return NULL;
        shown = PyObject_CallFunctionObjArgs(fn, value, NULL);
        Py_DECREF(fn);
        if (!shown) return NULL;
    }
    PyObject *msg = shown ? PyUnicode_FromFormat("cannot build this state: %s%U", what, shown)
                          : PyUnicode_FromFormat("cannot build this state: %s", what);
    Py_XDECREF(shown);
    if (!msg) return NULL;
    PyErr_SetObject(g_err_position, msg);
    Py_DECREF(msg);
    return NULL;
}

/* The constructor's keywords that the Python check reads, in given_fields' order. */
#define GIVEN 18

static PyObject *given_fields(PyObject *const *values);

/* An InvalidPositionError of the constructor is set: put the Python engine's error for the
   same fields in its place (crapette.state._position_error: the same words in both engines),
   unless it finds nothing wrong. given: the constructor's keywords as given. */
static void refuse_in_python_words(PyObject *const *given) {
    if (!PyErr_ExceptionMatches(g_err_position)) return;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *fields = given_fields(given);
    PyObject *fn = fields ? hook("position_error") : NULL;
    PyObject *exc = fn ? PyObject_CallFunctionObjArgs(fn, fields, (PyObject *)&StateType, NULL) : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(fields);
    if (!exc) { /* the hook's own error */
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return;
    }
    if (exc == Py_None) {
        PyErr_Restore(type, value, tb);
    } else {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    }
    Py_DECREF(exc);
}

/* The constructor's keywords as given (NULL: left out), as a dict. */
static PyObject *given_fields(PyObject *const *values) {
    static const char *const names[GIVEN] = {
        "rules", "to_act",     "foundations", "houses",      "reserves",   "reserve_up",
        "hands", "wastes",     "turned",      "stop",        "emptied",    "passes",
        "moves_made", "fault", "window",      "false_calls", "houses_key", "seen"};
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (int i = 0; i < GIVEN; i++) {
        if (values[i] && PyDict_SetItemString(d, names[i], values[i]) < 0) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

static PyObject *pile_tuple(PyObject *const *cards, const cr_state *s, int offset, int pile) {
    int n = s->len[pile];
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *c = cards[s->cards[offset + i]];
        Py_INCREF(c);
        PyTuple_SET_ITEM(t, i, c);
    }
    return t;
}

static PyObject *piles_tuple(const StateObject *self, int first, int count) {
    int off = cr_pile_offset(&self->st, first);
    PyObject *t = PyTuple_New(count);
    if (!t) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *p = pile_tuple(CARDS(self), &self->st, off, first + i);
        if (!p) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, p);
        off += self->st.len[first + i];
    }
    return t;
}

static PyObject *pair(long a, long b) {
    PyObject *x = PyLong_FromLong(a), *y = PyLong_FromLong(b);
    if (!x || !y) {
        Py_XDECREF(x);
        Py_XDECREF(y);
        return NULL;
    }
    PyObject *t = PyTuple_Pack(2, x, y);
    Py_DECREF(x);
    Py_DECREF(y);
    return t;
}

static PyObject *st_rules(StateObject *self, void *c) {
    (void)c;
    Py_INCREF(self->rules->ruleset);
    return self->rules->ruleset;
}
static PyObject *st_to_act(StateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->st.to_act);
}
static PyObject *st_foundations(StateObject *self, void *c) {
    /* piles 0..7, and 22 and 23 with the trumps (cr_foundation_pile) */
    (void)c;
    int count = PACK(self)->foundations;
    PyObject *first = piles_tuple(self, CR_PILE_FOUNDATION, 8);
    if (!first || count == 8) return first;
    PyObject *more = piles_tuple(self, CR_PILE_FOUNDATION_MORE, count - 8);
    PyObject *out = more ? PySequence_Concat(first, more) : NULL;
    Py_DECREF(first);
    Py_XDECREF(more);
    return out;
}
static PyObject *st_houses(StateObject *self, void *c) {
    (void)c;
    return piles_tuple(self, CR_PILE_HOUSE, 8);
}
static PyObject *st_reserves(StateObject *self, void *c) {
    (void)c;
    return piles_tuple(self, CR_PILE_RESERVE, 2);
}
static PyObject *st_hands(StateObject *self, void *c) {
    (void)c;
    return piles_tuple(self, CR_PILE_HAND, 2);
}
static PyObject *st_wastes(StateObject *self, void *c) {
    (void)c;
    return piles_tuple(self, CR_PILE_WASTE, 2);
}
static PyObject *st_reserve_up(StateObject *self, void *c) {
    (void)c;
    return pair(self->st.reserve_up[0], self->st.reserve_up[1]);
}
static PyObject *st_passes(StateObject *self, void *c) {
    (void)c;
    return pair(self->st.passes[0], self->st.passes[1]);
}
static PyObject *st_turned(StateObject *self, void *c) {
    (void)c;
    if (self->st.turned == CR_NO_CARD) Py_RETURN_NONE;
    return Py_NewRef(CARDS(self)[self->st.turned]);
}
static PyObject *st_emptied(StateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->st.emptied);
}
static PyObject *st_moves_made(StateObject *self, void *c) {
    (void)c;
    return PyLong_FromUnsignedLong(self->st.moves_made);
}
static PyObject *st_houses_key(StateObject *self, void *c) {
    (void)c;
    return PyLong_FromUnsignedLongLong(state_key(self));
}
static PyObject *st_seen_size(StateObject *self, void *c) {
    (void)c;
    return PyLong_FromUnsignedLong(SEEN_SIZE(self));
}
static PyObject *st_turn_player(StateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(cr_turn_player(&self->st));
}

static PyObject *st_seen(StateObject *self, void *c) {
    (void)c;
    PyObject *set = PyFrozenSet_New(NULL);
    if (!set) return NULL;
    LogObject *log = LOG(self);
    if (!log) {
        PyObject *k = PyLong_FromUnsignedLongLong(state_key(self));
        if (!k || PySet_Add(set, k) < 0) goto fail_k;
        Py_DECREF(k);
        return set;
    fail_k:
        Py_XDECREF(k);
        Py_DECREF(set);
        return NULL;
    }
    for (uint32_t i = 0; i < SEEN_SIZE(self); i++) {
        PyObject *k = PyLong_FromUnsignedLongLong(log->keys[i]);
        if (!k || PySet_Add(set, k) < 0) {
            Py_XDECREF(k);
            Py_DECREF(set);
            return NULL;
        }
        Py_DECREF(k);
    }
    return set;
}

/* A PendingStop of the prior and a stop or fault field (1 + move | offender << 12 |
   resume << 13). */
static PyObject *pending_of(StateObject *self, uint16_t field) {
    StateObject *prior = PRIOR(self);
    if (!field || !prior) Py_RETURN_NONE;
    PyObject *off = PyLong_FromLong((field >> 12) & 1);
    PyObject *res = PyLong_FromLong((field >> 13) & 1);
    PyObject *out = NULL;
    if (off && res)
        out = PyObject_CallFunctionObjArgs(g_pending_stop, (PyObject *)prior,
                                           g_moves[(field & 0x0FFF) - 1], off, res, NULL);
    Py_XDECREF(off);
    Py_XDECREF(res);
    return out;
}

static PyObject *st_stop(StateObject *self, void *c) {
    (void)c;
    return pending_of(self, self->st.stop);
}
static PyObject *st_fault(StateObject *self, void *c) {
    (void)c;
    return pending_of(self, self->st.fault);
}
static PyObject *st_window(StateObject *self, void *c) {
    (void)c;
    return PyBool_FromLong(cr_window(&self->st));
}
static PyObject *st_false_calls(StateObject *self, void *c) {
    (void)c;
    return pair(cr_false_calls(&self->st, 0), cr_false_calls(&self->st, 1));
}

static PyGetSetDef state_getset[] = {
    {"rules", (getter)st_rules, NULL, "the ruleset of the deal", NULL},
    {"to_act", (getter)st_to_act, NULL, "the player who makes the next move", NULL},
    {"foundations", (getter)st_foundations, NULL, "the 8 (or 10) foundation piles", NULL},
    {"houses", (getter)st_houses, NULL, "the 8 houses", NULL},
    {"reserves", (getter)st_reserves, NULL, "each player's reserve", NULL},
    {"reserve_up", (getter)st_reserve_up, NULL, "face-up cards at the top of each reserve", NULL},
    {"hands", (getter)st_hands, NULL, "each player's face-down hand", NULL},
    {"wastes", (getter)st_wastes, NULL, "each player's waste", NULL},
    {"turned", (getter)st_turned, NULL, "the turned hand card, or None", NULL},
    {"stop", (getter)st_stop, NULL, "the violation awaiting a Stop! decision, or None", NULL},
    {"emptied", (getter)st_emptied, NULL, "houses emptied this turn and still empty", NULL},
    {"passes", (getter)st_passes, NULL, "the stalemate rule's pass marks", NULL},
    {"moves_made", (getter)st_moves_made, NULL, "moves applied in this deal", NULL},
    {"fault", (getter)st_fault, NULL, "the faulty turn end a call at this turn's start punishes", NULL},
    {"window", (getter)st_window, NULL, "whether Stop! may still be called this turn", NULL},
    {"false_calls", (getter)st_false_calls, NULL, "each player's false calls this deal", NULL},
    {"houses_key", (getter)st_houses_key, NULL, "the layout key of the houses", NULL},
    {"seen", (getter)st_seen, NULL, "the layout keys seen this turn", NULL},
    {"seen_size", (getter)st_seen_size, NULL, "how many layouts this turn's log holds", NULL},
    {"turn_player", (getter)st_turn_player, NULL, "the player whose turn it is", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* -- building a state from Python values ---------------------------------------------- */

static int card_value(PyObject *item, int count) {
    if (!PyLong_Check(item) || PyBool_Check(item)) return -1;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(item, &overflow);
    if (overflow || v < 0 || v >= count) return -1;
    return (int)v;
}

typedef struct builder {
    uint8_t piles[CR_NPILES][CR_NCARDS];
    int total;
    int count; /* the cards of the pack kind: every card code is below it */
} builder;

/* Read `count` piles of `name` (a tuple of tuples of cards) into b->piles[first...]. */
static int read_piles(builder *b, cr_state *st, PyObject *value, int first, int count,
                      const char *name) {
    if (PyTuple_GET_SIZE(value) != count) {
        char what[80];
        snprintf(what, sizeof what, "%s must be a tuple of %d piles, not ", name, count);
        refuse(what, value);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        PyObject *pile = PyTuple_GET_ITEM(value, i);
        if (!PyTuple_Check(pile)) {
            char what[80];
            snprintf(what, sizeof what, "%s[%d] must be a tuple of cards, not ", name, i);
            refuse(what, pile);
            return -1;
        }
        Py_ssize_t n = PyTuple_GET_SIZE(pile);
        if (b->total + n > b->count) {
            char what[80];
            snprintf(what, sizeof what, "a state holds at most %d cards", b->count);
            refuse(what, NULL);
            return -1;
        }
        for (Py_ssize_t j = 0; j < n; j++) {
            PyObject *item = PyTuple_GET_ITEM(pile, j);
            int card = card_value(item, b->count);
            if (card < 0) {
                char what[80];
                snprintf(what, sizeof what, "%s[%d][%d] is not a card: ", name, i, (int)j);
                refuse(what, item);
                return -1;
            }
            b->piles[first + i][j] = (uint8_t)card;
        }
        st->len[first + i] = (uint8_t)n;
        b->total += (int)n;
    }
    return 0;
}

/* The foundations: piles 0..7, and 22 and 23 of a pack with trumps (cr_foundation_pile). */
static int read_foundations(builder *b, cr_state *st, PyObject *value, int count) {
    if (PyTuple_GET_SIZE(value) != count) {
        char what[80];
        snprintf(what, sizeof what, "foundations must be a tuple of %d piles, not ", count);
        refuse(what, value);
        return -1;
    }
    if (count == 8) return read_piles(b, st, value, CR_PILE_FOUNDATION, 8, "foundations");
    PyObject *first = PyTuple_GetSlice(value, 0, 8), *more = PyTuple_GetSlice(value, 8, count);
    int ok = first && more &&
             read_piles(b, st, first, CR_PILE_FOUNDATION, 8, "foundations") == 0 &&
             read_piles(b, st, more, CR_PILE_FOUNDATION_MORE, count - 8, "foundations[8:]") == 0;
    Py_XDECREF(first);
    Py_XDECREF(more);
    return ok ? 0 : -1;
}

static int small_int(PyObject *value, long low, long high, long *out) {
    if (!PyLong_Check(value) || PyBool_Check(value)) return -1;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow || v < low || v > high) return -1;
    *out = v;
    return 0;
}

static int read_pair(PyObject *value, long high, uint8_t *out, const char *what) {
    long a, b;
    if (PyTuple_GET_SIZE(value) != 2 || small_int(PyTuple_GET_ITEM(value, 0), 0, high, &a) < 0 ||
        small_int(PyTuple_GET_ITEM(value, 1), 0, high, &b) < 0) {
        refuse(what, value);
        return -1;
    }
    out[0] = (uint8_t)a;
    out[1] = (uint8_t)b;
    return 0;
}

static int move_index(PyObject *move);

static PyObject *state_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"rules",     "to_act",     "foundations", "houses",   "reserves",
                             "reserve_up", "hands",     "wastes",      "turned",   "stop",
                             "emptied",   "passes",     "moves_made",  "fault",    "window",
                             "false_calls", "houses_key", "seen_log",  "seen_size", "seen",
                             NULL};
    PyObject *rules, *to_act, *foundations, *houses, *reserves, *reserve_up, *hands, *wastes;
    PyObject *turned = Py_None, *stop = Py_None, *emptied = NULL, *passes = NULL;
    PyObject *moves_made = NULL, *fault = Py_None, *window = NULL, *false_calls = NULL;
    PyObject *houses_key = Py_None, *seen_log = Py_None, *seen_size = NULL;
    PyObject *seen = Py_None;
    if (!g_ready) {
        PyErr_SetString(PyExc_RuntimeError, "crapette._core is not set up");
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOO|OOOOOOOOOOO$O:GameState", kwlist,
                                     &rules, &to_act, &foundations, &houses, &reserves,
                                     &reserve_up, &hands, &wastes, &turned, &stop, &emptied,
                                     &passes, &moves_made, &fault, &window, &false_calls,
                                     &houses_key, &seen_log, &seen_size, &seen))
        return NULL;
    if (seen_log != Py_None || (seen_size && seen_size != Py_None)) {
        /* the pure build's internal arguments: the native state keeps its own log */
        long size = -1;
        if (seen_log != Py_None || !seen_size || small_int(seen_size, -1, -1, &size) < 0) {
            PyErr_SetString(PyExc_TypeError,
                            "seen_log and seen_size are internal to the pure build: pass seen=");
            return NULL;
        }
    }
    /* The types the pure build checks, in its order and words (crapette.state._check_types) */
    if (!PyLong_Check(to_act)) return type_error("int", to_act);
    if (!PyTuple_Check(foundations)) return type_error("tuple", foundations);
    if (!PyTuple_Check(houses)) return type_error("tuple", houses);
    if (!PyTuple_Check(reserves)) return type_error("tuple", reserves);
    if (!PyTuple_Check(reserve_up)) return type_error("tuple", reserve_up);
    if (!PyTuple_Check(hands)) return type_error("tuple", hands);
    if (!PyTuple_Check(wastes)) return type_error("tuple", wastes);
    if (stop != Py_None && !PyTuple_Check(stop)) return type_error("tuple or None", stop);
    if (emptied && !PyLong_Check(emptied)) return type_error("int", emptied);
    if (passes && !PyTuple_Check(passes)) return type_error("tuple", passes);
    if (moves_made && !PyLong_Check(moves_made)) return type_error("int", moves_made);
    if (fault != Py_None && !PyTuple_Check(fault)) return type_error("tuple or None", fault);
    if (window && !PyBool_Check(window)) return type_error("bool", window);
    if (false_calls && !PyTuple_Check(false_calls)) return type_error("tuple", false_calls);
    if (houses_key != Py_None && !PyLong_Check(houses_key)) return type_error("int or None", houses_key);
    PyObject *seen_items = NULL;
    int seen_given = seen == Py_None ? 0 : PyObject_IsTrue(seen); /* as `if seen:` does */
    if (seen_given < 0) return NULL;
    if (seen_given) {
        seen_items = PySequence_List(seen);
        if (!seen_items) return NULL;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(seen_items); i++) {
            PyObject *k = PyList_GET_ITEM(seen_items, i);
            if (!PyLong_Check(k)) {
                Py_DECREF(seen_items);
                return type_error("int", k);
            }
        }
    }
    StateObject *self = NULL;
    builder *b = NULL;
    LogObject *new_log = NULL;
    StateObject *new_prior = NULL;
    PyObject *given[GIVEN] = {rules,   to_act, foundations, houses,     reserves,
                              reserve_up, hands, wastes,    turned,     stop,
                              emptied, passes, moves_made,  fault,      window,
                              false_calls, houses_key, seen_items ? seen_items : seen};
    PyObject *fields = NULL;
    int worded = 0; /* the error set is already the Python engine's */
    if (seen_items) { /* a copy: the list below is sorted in place */
        given[GIVEN - 1] = PyList_GetSlice(seen_items, 0, PyList_GET_SIZE(seen_items));
        if (!given[GIVEN - 1]) {
            Py_DECREF(seen_items);
            return NULL;
        }
    } else {
        Py_INCREF(given[GIVEN - 1]);
    }
    if (!PyObject_TypeCheck(rules, (PyTypeObject *)g_ruleset_class)) {
        refuse("rules must be a Ruleset, not ", rules);
        goto fail;
    }
    self = state_alloc(type);
    if (!self) goto fail;
    memset(&self->st, 0, sizeof self->st);
    self->rules = rules_for(rules);
    if (!self->rules) goto fail;
    cr_state *st = &self->st;
    long v;
    if (small_int(to_act, 0, 1, &v) < 0) {
        refuse("to_act must be 0 or 1, not ", to_act);
        goto fail;
    }
    st->to_act = (uint8_t)v;
    b = PyMem_Malloc(sizeof *b);
    if (!b) {
        PyErr_NoMemory();
        goto fail;
    }
    b->total = 0;
    const cr_pack *pk = PACK(self);
    b->count = pk->count;
    if (read_foundations(b, st, foundations, pk->foundations) < 0 ||
        read_piles(b, st, houses, CR_PILE_HOUSE, 8, "houses") < 0 ||
        read_piles(b, st, reserves, CR_PILE_RESERVE, 2, "reserves") < 0 ||
        read_piles(b, st, hands, CR_PILE_HAND, 2, "hands") < 0 ||
        read_piles(b, st, wastes, CR_PILE_WASTE, 2, "wastes") < 0)
        goto fail;
    int o = 0;
    for (int p = 0; p < CR_NPILES; p++) {
        memcpy(st->cards + o, b->piles[p], st->len[p]);
        o += st->len[p];
    }
    char up_what[80];
    snprintf(up_what, sizeof up_what, "reserve_up must be a pair of integers from 0 to %d, not ",
             pk->count);
    if (read_pair(reserve_up, pk->count, st->reserve_up, up_what) < 0) goto fail;
    if (passes) {
        if (read_pair(passes, 2, st->passes, "passes must be a pair of integers from 0 to 2, not ") < 0)
            goto fail;
    } else {
        st->passes[0] = st->passes[1] = 1;
    }
    st->turned = CR_NO_CARD;
    if (turned != Py_None) {
        int card = card_value(turned, pk->count);
        if (card < 0) {
            refuse("turned must be a card or None, not ", turned);
            goto fail;
        }
        if (o + 1 > pk->count) {
            refuse("a state holds no more cards than both packs", NULL);
            goto fail;
        }
        st->turned = (uint8_t)card;
    }
    if (emptied) {
        if (small_int(emptied, 0, 255, &v) < 0) {
            refuse("emptied must be a bitmask of houses from 0 to 255, not ", emptied);
            goto fail;
        }
        st->emptied = (uint8_t)v;
    }
    if (moves_made) {
        unsigned long long m = PyLong_AsUnsignedLongLong(moves_made);
        if ((m == (unsigned long long)-1 && PyErr_Occurred()) || PyBool_Check(moves_made) ||
            m > 0xFFFFFFFFull) {
            PyErr_Clear();
            refuse("moves_made must be an integer from 0 to 4294967295, not ", moves_made);
            goto fail;
        }
        st->moves_made = (uint32_t)m;
    }
    if (window) st->calls |= (uint8_t)(window == Py_True);
    if (false_calls) {
        uint8_t calls[2];
        if (read_pair(false_calls, 3, calls, "false_calls must be a pair of integers from 0 to 3, not ") < 0)
            goto fail;
        st->calls |= (uint8_t)((calls[0] << 1) | (calls[1] << 3));
    }
    uint64_t key = cr_houses_key(&self->rules->r, st);
    if (houses_key != Py_None) {
        unsigned long long k = PyLong_AsUnsignedLongLong(houses_key);
        if ((k == (unsigned long long)-1 && PyErr_Occurred()) || k != key) {
            PyErr_Clear();
            refuse("houses_key is not the layout key of the houses: ", houses_key);
            goto fail;
        }
    }
    if (stop != Py_None) {
        if (!PyObject_TypeCheck(stop, (PyTypeObject *)g_pending_stop) || PyTuple_GET_SIZE(stop) != 4) {
            refuse("stop must be a PendingStop or None, not ", stop);
            goto fail;
        }
        PyObject *prior = PyTuple_GET_ITEM(stop, 0);
        PyObject *move = PyTuple_GET_ITEM(stop, 1);
        long off, res;
        if (!IS_STATE(prior)) {
            refuse("stop.prior must be a GameState, not ", prior);
            goto fail;
        }
        if (((StateObject *)prior)->st.stop) {
            refuse("stop.prior must not itself await a Stop! decision", NULL);
            goto fail;
        }
        int idx = move_index(move);
        if (idx < 0) {
            PyErr_Clear();
            refuse("stop.move must be a Move, not ", move);
            goto fail;
        }
        if (small_int(PyTuple_GET_ITEM(stop, 2), 0, 1, &off) < 0 ||
            small_int(PyTuple_GET_ITEM(stop, 3), 0, 1, &res) < 0) {
            refuse("stop.offender and stop.resume must be 0 or 1, not ", stop);
            goto fail;
        }
        st->stop = (uint16_t)((idx + 1) | (off << 12) | (res << 13));
        Py_INCREF(prior);
        new_prior = (StateObject *)prior;
    }
    if (fault != Py_None) {
        if (!PyObject_TypeCheck(fault, (PyTypeObject *)g_pending_stop) || PyTuple_GET_SIZE(fault) != 4) {
            refuse("fault must be a PendingStop or None, not ", fault);
            goto fail;
        }
        if (new_prior) {
            refuse("a state cannot hold both a pending Stop! and a fault", NULL);
            goto fail;
        }
        PyObject *prior = PyTuple_GET_ITEM(fault, 0);
        PyObject *move = PyTuple_GET_ITEM(fault, 1);
        long off, res;
        if (!IS_STATE(prior)) {
            refuse("fault.prior must be a GameState, not ", prior);
            goto fail;
        }
        if (((StateObject *)prior)->st.stop || ((StateObject *)prior)->st.fault) {
            refuse("fault.prior must hold neither a pending Stop! nor a fault", NULL);
            goto fail;
        }
        int idx = move_index(move);
        if (idx < 0) {
            PyErr_Clear();
            refuse("fault.move must be a Move, not ", move);
            goto fail;
        }
        if (small_int(PyTuple_GET_ITEM(fault, 2), 0, 1, &off) < 0 ||
            small_int(PyTuple_GET_ITEM(fault, 3), 0, 1, &res) < 0) {
            refuse("fault.offender and fault.resume must be 0 or 1, not ", fault);
            goto fail;
        }
        st->fault = (uint16_t)((idx + 1) | (off << 12) | (res << 13));
        Py_INCREF(prior);
        new_prior = (StateObject *)prior;
    }
    if (seen_items) {
        /* the keys other than the current layout's, sorted, then the current one */
        uint64_t *keys = PyMem_Malloc(sizeof(uint64_t) * ((size_t)PyList_GET_SIZE(seen_items) + 1));
        if (!keys) {
            PyErr_NoMemory();
            goto fail;
        }
        uint32_t n = 0;
        if (PyList_Sort(seen_items) < 0) {
            PyMem_Free(keys);
            goto fail;
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(seen_items); i++) {
            PyObject *item = PyList_GET_ITEM(seen_items, i);
            unsigned long long k = PyLong_AsUnsignedLongLong(item);
            if ((k == (unsigned long long)-1 && PyErr_Occurred())) {
                PyErr_Clear();
                PyMem_Free(keys);
                refuse("seen must hold layout keys, integers from 0 to 2**64 - 1, not ", item);
                goto fail;
            }
            if (k != key && (n == 0 || keys[n - 1] != k)) keys[n++] = k;
        }
        if (n) {
            new_log = log_from(keys, n, key);
            if (!new_log) {
                PyMem_Free(keys);
                goto fail;
            }
            self->seen_size = n + 1;
        }
        PyMem_Free(keys);
    }
    if (cr_state_check(st) != 0) {
        refuse("the state's cards do not fit the native layout", NULL);
        goto fail;
    }
    /* a state that could not occur in a deal: refused (crapette.state.position_problems,
       checked here in C; the Python engine's words below) */
    if (cr_position_check(&self->rules->r, st) != CR_POSITION_OK) {
        refuse("impossible position", NULL);
        goto fail;
    }
    if (stop != Py_None || fault != Py_None) {
        /* a pending Stop! decision (or a fault) must be the one its move makes from its
           prior: the Python check replays it */
        fields = given_fields(given);
        if (!fields) goto fail;
        PyObject *fn = hook("position_error");
        PyObject *exc = fn ? PyObject_CallFunctionObjArgs(fn, fields, (PyObject *)&StateType, NULL) : NULL;
        Py_XDECREF(fn);
        if (!exc) {
            worded = 1;
            goto fail;
        }
        if (exc != Py_None) {
            PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
            Py_DECREF(exc);
            worded = 1;
            goto fail;
        }
        Py_DECREF(exc);
    }
    PyMem_Free(b);
    Py_XDECREF(seen_items);
    Py_XDECREF(given[GIVEN - 1]);
    Py_XDECREF(fields);
    if (state_set_aux(self, new_log, new_prior) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
fail:
    if (!worded) refuse_in_python_words(given);
    Py_XDECREF(fields);
    PyMem_Free(b);
    Py_XDECREF(seen_items);
    Py_XDECREF(given[GIVEN - 1]);
    Py_XDECREF(new_log);
    Py_XDECREF(new_prior);
    Py_XDECREF(self);
    return NULL;
}

/* -- equality, hashing, pickling ------------------------------------------------------- */

static int same_seen(const StateObject *a, const StateObject *b) {
    uint32_t size = SEEN_SIZE(a);
    if (size != SEEN_SIZE(b)) return 0;
    LogObject *la = LOG(a), *lb = LOG(b);
    if (la == lb || !la) return 1; /* no log: only the (equal) current layout */
    for (uint32_t i = 0; i < size; i++) {
        int64_t pos = log_find(lb, la->keys[i]);
        if (pos < 0 || pos >= size) return 0;
    }
    return 1;
}

static int state_equal(StateObject *a, StateObject *b) {
    if (a == b) return 1;
    if (!cr_state_equal(&a->st, &b->st) || !same_seen(a, b)) return 0;
    if (a->rules != b->rules && a->rules->ruleset != b->rules->ruleset) {
        int eq = PyObject_RichCompareBool(a->rules->ruleset, b->rules->ruleset, Py_EQ);
        if (eq <= 0) return eq;
    }
    StateObject *pa = PRIOR(a), *pb = PRIOR(b);
    if (pa != pb) {
        if (!pa || !pb) return 0;
        return state_equal(pa, pb);
    }
    return 1;
}

static PyObject *state_richcompare(PyObject *a, PyObject *b, int op) {
    if ((op != Py_EQ && op != Py_NE) || !IS_STATE(a) || !IS_STATE(b)) Py_RETURN_NOTIMPLEMENTED;
    int eq = state_equal((StateObject *)a, (StateObject *)b);
    if (eq < 0) return NULL;
    if (op == Py_NE) eq = !eq;
    return PyBool_FromLong(eq);
}

static Py_hash_t state_hash(StateObject *self) {
    uint64_t h = 1469598103934665603ull;
    const unsigned char *p = (const unsigned char *)&self->st;
    for (size_t i = 0; i < sizeof self->st; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    h ^= (uint64_t)SEEN_SIZE(self) * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)self->rules->hash;
    Py_hash_t out = (Py_hash_t)(h >> 1);
    return out == -1 ? -2 : out;
}

static PyObject *state_values(StateObject *self) {
    static getter getters[] = {(getter)st_rules,   (getter)st_to_act,    (getter)st_foundations,
                               (getter)st_houses,  (getter)st_reserves,  (getter)st_reserve_up,
                               (getter)st_hands,   (getter)st_wastes,    (getter)st_turned,
                               (getter)st_stop,    (getter)st_emptied,   (getter)st_passes,
                               (getter)st_moves_made, (getter)st_fault, (getter)st_window,
                               (getter)st_false_calls, (getter)st_houses_key};
    int n = (int)(sizeof getters / sizeof getters[0]);
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = getters[i]((PyObject *)self, NULL);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *state_reduce(StateObject *self, PyObject *unused) {
    (void)unused;
    PyObject *rebuild = hook("rebuild_state");
    if (!rebuild) return NULL;
    PyObject *values = state_values(self);
    PyObject *keys;
    LogObject *log = LOG(self);
    if (log) {
        keys = PyList_New(SEEN_SIZE(self));
        if (keys) {
            for (uint32_t i = 0; i < SEEN_SIZE(self); i++) {
                PyObject *k = PyLong_FromUnsignedLongLong(log->keys[i]);
                if (!k) {
                    Py_CLEAR(keys);
                    break;
                }
                PyList_SET_ITEM(keys, i, k);
            }
        }
    } else {
        keys = Py_None;
        Py_INCREF(keys);
    }
    PyObject *out = NULL;
    if (values && keys) out = Py_BuildValue("(O(OO))", rebuild, values, keys);
    Py_DECREF(rebuild);
    Py_XDECREF(values);
    Py_XDECREF(keys);
    return out;
}

static PyObject *state_copy(PyObject *self, PyObject *unused) {
    (void)unused;
    Py_INCREF(self);
    return self;
}

static PyObject *call_hook(const char *name, PyObject *a, PyObject *b) {
    PyObject *fn = hook(name);
    if (!fn) return NULL;
    PyObject *out = b ? PyObject_CallFunctionObjArgs(fn, a, b, NULL) : PyObject_CallFunctionObjArgs(fn, a, NULL);
    Py_DECREF(fn);
    return out;
}

static PyObject *state_str(PyObject *self) { return call_hook("board", self, NULL); }
static PyObject *state_repr(PyObject *self) { return call_hook("state_repr", self, NULL); }
static PyObject *state_svg(PyObject *self, PyObject *unused) {
    (void)unused;
    return call_hook("svg_board", self, NULL);
}
static PyObject *state_problems(PyObject *self, PyObject *unused) {
    (void)unused;
    return call_hook("position_problems", self, NULL);
}

static PyObject *state_replace(PyObject *self, PyObject *args, PyObject *kwds) {
    if (PyTuple_GET_SIZE(args)) {
        PyErr_SetString(PyExc_TypeError, "GameState.replace() takes keyword arguments only");
        return NULL;
    }
    PyObject *changes = kwds ? Py_NewRef(kwds) : PyDict_New();
    if (!changes) return NULL;
    PyObject *out = call_hook("state_replace", self, changes);
    Py_DECREF(changes);
    return out;
}

static PyObject *state_cards(StateObject *self, PyObject *unused) {
    /* every card on the table, pile by pile, the turned card last */
    (void)unused;
    int total = cr_total(&self->st);
    int turned = self->st.turned != CR_NO_CARD;
    PyObject *out = PyList_New(total + turned);
    if (!out) return NULL;
    PyObject *const *cards = CARDS(self);
    /* in the order of the fields: the foundations (piles 0..7, 22, 23), then the rest */
    static const int order[CR_NPILES] = {0,  1,  2,  3,  4,  5,  6,  7,  22, 23, 8,  9,
                                         10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21};
    int off[CR_NPILES + 1], at = 0;
    for (int p = 0, o = 0; p <= CR_NPILES; p++) {
        off[p] = o;
        if (p < CR_NPILES) o += self->st.len[p];
    }
    for (int k = 0; k < CR_NPILES; k++) {
        int p = order[k];
        for (int i = 0; i < self->st.len[p]; i++)
            PyList_SET_ITEM(out, at++, Py_NewRef(cards[self->st.cards[off[p] + i]]));
    }
    if (turned) PyList_SET_ITEM(out, total, Py_NewRef(cards[self->st.turned]));
    return out;
}

static PyObject *state_has_seen(StateObject *self, PyObject *arg) {
    /* whether a layout key is among those seen this turn (the current one included) */
    unsigned long long key = PyLong_AsUnsignedLongLong(arg);
    if (key == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    LogObject *log = LOG(self);
    if (!log) return PyBool_FromLong(key == cr_houses_key(&self->rules->r, &self->st));
    int64_t pos = log_find(log, key);
    return PyBool_FromLong(pos >= 0 && pos < SEEN_SIZE(self));
}

static PyMethodDef state_methods[] = {
    {"__reduce__", (PyCFunction)state_reduce, METH_NOARGS, "Pickle by value."},
    {"__copy__", state_copy, METH_NOARGS, "A state is immutable: itself."},
    {"__deepcopy__", state_copy, METH_O, "A state is immutable: itself."},
    {"_has_seen", (PyCFunction)state_has_seen, METH_O,
     "Whether a layout key was seen this turn (the no-cycle rule)."},
    {"replace", (PyCFunction)(void (*)(void))state_replace, METH_VARARGS | METH_KEYWORDS,
     "A copy with the given fields changed (the constructor's keywords except houses_key,\n"
     "which follows houses; changing houses forgets the layouts seen unless seen is given\n"
     "too).\n\nRaises:\n    TypeError: a keyword that is not a field."},
    {"problems", (PyCFunction)state_problems, METH_NOARGS,
     "Everything that makes this state impossible, as crapette.state.position_problems\n"
     "lists it: empty, since a state is checked when it is built."},
    {"cards", (PyCFunction)state_cards, METH_NOARGS,
     "Every card on the table (both packs in a valid state), pile by pile."},
    {"_repr_svg_", (PyCFunction)state_svg, METH_NOARGS, "The table as an SVG picture (Jupyter)."},
    {"_repr_html_", (PyCFunction)state_svg, METH_NOARGS, "The table as inline SVG (Jupyter)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "crapette.state.GameState",
    .tp_basicsize = sizeof(StateObject),
    .tp_dealloc = (destructor)state_dealloc,
    .tp_repr = state_repr,
    .tp_hash = (hashfunc)state_hash,
    .tp_str = state_str,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "GameState(rules, to_act, foundations, houses, reserves, reserve_up, hands, wastes,"
              " turned=None, stop=None, emptied=0, passes=(1, 1), moves_made=0, fault=None,"
              " window=False, false_calls=(0, 0), houses_key=None, seen_log=None, seen_size=-1,"
              " *, seen=None)\n--\n\n"
              "One position of a deal (the native engine's): every card's place, whose move it\n"
              "is and the counters the rules need. Immutable, hashable and equal by value;\n"
              "apply returns a new one. See crapette.state for the fields.",
    .tp_richcompare = state_richcompare,
    .tp_methods = state_methods,
    .tp_getset = state_getset,
    .tp_new = state_new,
};

/* ---------------------------------------------------------------------------------------- */
/* Moves */

static inline uint32_t move_slot(PyObject *p) { return (uint32_t)(((uintptr_t)p >> 4) & (MOVE_SLOTS - 1)); }

/* The index of a Move (the table's own object, or one equal to it); -1 with TypeError for
   anything else. */
static int move_index(PyObject *move) {
    uint32_t i = move_slot(move);
    while (g_move_keys[i]) {
        if (g_move_keys[i] == move) return g_move_vals[i];
        i = (i + 1) & (MOVE_SLOTS - 1);
    }
    if (!g_move_class || !PyObject_TypeCheck(move, (PyTypeObject *)g_move_class)) {
        PyErr_Format(PyExc_TypeError, "not a Move: %R", move);
        return -1;
    }
    PyObject *index = PyObject_GetAttrString(move, "index");
    if (!index) return -1;
    long v = PyLong_AsLong(index);
    Py_DECREF(index);
    if (v < 0 || v >= CR_NMOVES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "not a Move");
        return -1;
    }
    return (int)v;
}

static PyObject *moves_tuple(const uint16_t *moves, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *m = g_moves[moves[i]];
        Py_INCREF(m);
        PyTuple_SET_ITEM(t, i, m);
    }
    return t;
}

static inline const cr_seen *seen_of(const StateObject *s, cr_seen *buf) {
    LogObject *log = LOG(s);
    if (!log) return NULL;
    *buf = log_seen(log, SEEN_SIZE(s), state_key(s));
    return buf;
}

/* The C core's refusal of a move as (code, params): a reason number of spec.h (0: legal)
   and its parameters as integers (cr_why_illegal; only_priority: cr_violation_reason). */
static PyObject *refusal_of(StateObject *s, int move, int only_priority) {
    int32_t params[CR_MAX_REASON_PARAMS];
    int n = 0, code;
    if (only_priority) {
        code = cr_violation_reason(&s->rules->r, &s->st, move, params, &n);
    } else {
        cr_seen sn;
        code = cr_why_illegal(&s->rules->r, &s->st, seen_of(s, &sn), move, params, &n);
    }
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(params[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return Py_BuildValue("(iN)", code, t);
}

/* Raise the IllegalMoveError of an illegal move: the C core says why (a code and its
   parameters), the hook _laws._illegal_from_core renders the spec's English template. */
static PyObject *illegal(StateObject *s, PyObject *move) {
    int idx = move_index(move);
    if (idx < 0) return NULL;
    PyObject *why = refusal_of(s, idx, 0);
    if (!why) return NULL;
    PyObject *fn = hook("illegal_move_error");
    if (!fn) {
        Py_DECREF(why);
        return NULL;
    }
    PyObject *err = PyObject_CallFunctionObjArgs(fn, (PyObject *)s, move, PyTuple_GET_ITEM(why, 0),
                                                 PyTuple_GET_ITEM(why, 1), NULL);
    Py_DECREF(fn);
    Py_DECREF(why);
    if (!err) return NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(err), err);
    Py_DECREF(err);
    return NULL;
}

/* The state after a move (trusted), or NULL with IllegalMoveError when the move cannot be
   made at all (apply_unchecked of a move that is not legal). */
static PyObject *do_apply(StateObject *s, int move) {
    StateObject *o = state_alloc(Py_TYPE(s));
    if (!o) return NULL;
    LogObject *l = LOG(s);
    StateObject *prior = PRIOR(s);
    uint32_t size = SEEN_SIZE(s);
    uint64_t key = 0, current = 0;
    const uint64_t *known = NULL;
    if (l && !(s->seen_size & OFF_LAST)) {
        current = l->keys[size - 1];
        known = &current;
    }
    int effect = cr_apply(&s->rules->r, &s->st, prior ? &prior->st : NULL, move, &o->st, known, &key);
    Py_INCREF(s->rules);
    o->rules = s->rules;
    if (effect < 0) {
        Py_DECREF(o);
        return illegal(s, g_moves[move]);
    }
    LogObject *new_log = NULL;
    if (effect == CR_SEEN_KEEP) {
        Py_XINCREF(l);
        new_log = l;
        o->seen_size = s->seen_size & ~HAS_AUX;
    } else if (effect == CR_SEEN_ADD) {
        /* _engine._extend / SeenLog.after */
        if (!l) {
            uint64_t first = cr_houses_key(&s->rules->r, &s->st);
            if (key != first) {
                new_log = log_from(&first, 1, key);
                if (!new_log) goto fail;
                o->seen_size = 2;
            }
        } else {
            int64_t pos = log_find(l, key);
            if (pos >= 0 && pos < size) {
                Py_INCREF(l);
                new_log = l;
                o->seen_size = size | OFF_LAST; /* a layout seen before (not a legal move) */
            } else if (pos == size || l->n == size) {
                if (pos != size && log_append(l, key) < 0) goto fail;
                Py_INCREF(l);
                new_log = l;
                o->seen_size = size + 1;
            } else {
                new_log = log_from(l->keys, size, key);
                if (!new_log) goto fail;
                o->seen_size = size + 1;
            }
        }
    }
    StateObject *new_prior = NULL;
    if (o->st.stop && !s->st.stop) {
        Py_INCREF(s);
        new_prior = s;
    } else if (o->st.fault) {
        /* the position before the faulty turn end, its own call window closed */
        if (!(s->st.calls & 1) && !s->st.fault) {
            Py_INCREF(s);
            new_prior = s;
        } else {
            new_prior = state_alloc(Py_TYPE(s));
            if (!new_prior) {
                Py_XDECREF(new_log);
                goto fail;
            }
            new_prior->st = s->st;
            new_prior->st.calls = (uint8_t)(s->st.calls & ~1u);
            new_prior->st.fault = 0;
            Py_INCREF(s->rules);
            new_prior->rules = s->rules;
            new_prior->seen_size = s->seen_size & ~HAS_AUX;
            LogObject *log = LOG(s);
            Py_XINCREF(log);
            new_prior->aux = (PyObject *)log;
        }
    }
    if (state_set_aux(o, new_log, new_prior) < 0) goto fail;
    return (PyObject *)o;
fail:
    Py_DECREF(o);
    return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* Module functions */

static PyObject *py_legal_moves(PyObject *mod, PyObject *arg) {
    (void)mod;
    if (!IS_STATE(arg)) return not_a_state(arg);
    StateObject *s = (StateObject *)arg;
    uint16_t moves[CR_NMOVES];
    cr_seen sn;
    int n = cr_legal_moves(&s->rules->r, &s->st, seen_of(s, &sn), moves);
    return moves_tuple(moves, n);
}

static PyObject *py_apply_unchecked(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply_unchecked(state, move) takes 2 arguments");
        return NULL;
    }
    if (!IS_STATE(args[0])) return not_a_state(args[0]);
    int move = move_index(args[1]);
    if (move < 0) return NULL;
    return do_apply((StateObject *)args[0], move);
}

static PyObject *py_apply(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply(state, move) takes 2 arguments");
        return NULL;
    }
    if (!IS_STATE(args[0])) return not_a_state(args[0]);
    StateObject *s = (StateObject *)args[0];
    PyObject *move = args[1];
    if (PyUnicode_Check(move)) {
        /* move text: parse_move reads it against the position (and refuses an illegal one) */
        PyObject *fn = hook("parse_move");
        if (!fn) return NULL;
        PyObject *parsed = PyObject_CallFunctionObjArgs(fn, (PyObject *)s, move, NULL);
        Py_DECREF(fn);
        if (!parsed) return NULL;
        int idx = move_index(parsed);
        Py_DECREF(parsed);
        if (idx < 0) return NULL;
        return do_apply(s, idx);
    }
    if (!g_move_class || !PyObject_TypeCheck(move, (PyTypeObject *)g_move_class)) {
        PyErr_Format(PyExc_TypeError, "apply() needs a Move, not %R (%s)", move, Py_TYPE(move)->tp_name);
        return NULL;
    }
    int idx = move_index(move);
    if (idx < 0) return NULL;
    cr_seen sn;
    if (!cr_is_legal(&s->rules->r, &s->st, seen_of(s, &sn), idx)) return illegal(s, move);
    return do_apply(s, idx);
}

static PyObject *py_winner(PyObject *mod, PyObject *arg) {
    (void)mod;
    if (!IS_STATE(arg)) return not_a_state(arg);
    int w = cr_winner(&((StateObject *)arg)->st);
    if (w < 0) Py_RETURN_NONE;
    return PyLong_FromLong(w);
}

static PyObject *py_is_over(PyObject *mod, PyObject *arg) {
    (void)mod;
    if (!IS_STATE(arg)) return not_a_state(arg);
    StateObject *s = (StateObject *)arg;
    return PyBool_FromLong(cr_is_over(&s->rules->r, &s->st));
}

static PyObject *py_outcome(PyObject *mod, PyObject *arg) {
    (void)mod;
    if (!IS_STATE(arg)) return not_a_state(arg);
    StateObject *s = (StateObject *)arg;
    int winner = -1;
    int64_t scores[2];
    int reason = cr_outcome(&s->rules->r, &s->st, &winner, scores);
    if (reason == CR_RUNNING) Py_RETURN_NONE;
    PyObject *cls = hook("Outcome");
    if (!cls) return NULL;
    PyObject *w = winner < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(winner);
    PyObject *sc = Py_BuildValue("(LL)", (long long)scores[0], (long long)scores[1]);
    PyObject *out = NULL;
    if (w && sc) out = PyObject_CallFunctionObjArgs(cls, w, sc, g_reasons[reason], NULL);
    Py_DECREF(cls);
    Py_XDECREF(w);
    Py_XDECREF(sc);
    return out;
}

static PyObject *py_counts(PyObject *mod, PyObject *arg) {
    (void)mod;
    if (!IS_STATE(arg)) return not_a_state(arg);
    StateObject *s = (StateObject *)arg;
    int64_t c[2];
    cr_counts(&s->rules->r, &s->st, c);
    return Py_BuildValue("(LL)", (long long)c[0], (long long)c[1]);
}

static PyObject *py_evaluate(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    /* evaluate(state, p): crapette.bots.search.evaluate */
    (void)mod;
    long p;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "evaluate(state, p) takes 2 arguments");
        return NULL;
    }
    if (small_int(args[1], 0, 1, &p) < 0) {
        PyErr_SetString(g_err_argument, "p must be a player, 0 or 1");
        return NULL;
    }
    if (!IS_STATE(args[0])) return not_a_state(args[0]);
    StateObject *s = (StateObject *)args[0];
    return PyLong_FromLongLong((long long)cr_evaluate(&s->rules->r, &s->st, (int)p));
}

static PyObject *py_violation(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    /* (kind, remedy moves) of the priority rule a move breaks: kind 0 for none */
    (void)mod;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "violation(state, move) takes 2 arguments");
        return NULL;
    }
    if (!IS_STATE(args[0])) return not_a_state(args[0]);
    StateObject *s = (StateObject *)args[0];
    int move = move_index(args[1]);
    if (move < 0) return NULL;
    uint16_t remedy[2];
    int n = 0;
    int kind = cr_violation(&s->rules->r, &s->st, move, remedy, &n);
    PyObject *moves = moves_tuple(remedy, n);
    if (!moves) return NULL;
    PyObject *out = Py_BuildValue("(iN)", kind, moves);
    return out;
}

static PyObject *why_illegal_of(PyObject *const *args, Py_ssize_t nargs, int only_priority,
                                const char *usage) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    if (!IS_STATE(args[0])) return not_a_state(args[0]);
    int move = move_index(args[1]);
    if (move < 0) return NULL;
    return refusal_of((StateObject *)args[0], move, only_priority);
}

static PyObject *py_why_illegal(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    return why_illegal_of(args, nargs, 0, "why_illegal(state, move) takes 2 arguments");
}

static PyObject *py_violation_reason(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    return why_illegal_of(args, nargs, 1, "violation_reason(state, move) takes 2 arguments");
}

static PyObject *new_state(PyObject *ruleset, const cr_state *st) {
    StateObject *o = state_alloc(&StateType);
    if (!o) return NULL;
    o->st = *st;
    o->rules = rules_for(ruleset);
    if (!o->rules) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}

static PyObject *py_new_game(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    /* new_game(ruleset, seed): crapette.deal.new_game's deal (the seed taken mod 2**64) */
    (void)mod;
    if (nargs != 2 || !PyObject_TypeCheck(args[0], (PyTypeObject *)g_ruleset_class) ||
        !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "new_game(ruleset, seed) needs a Ruleset and an int");
        return NULL;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[1]);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    RulesObject *r = rules_for(args[0]);
    if (!r) return NULL;
    cr_state st;
    cr_new_game(&r->r, seed, &st);
    Py_DECREF(r);
    return new_state(args[0], &st);
}

static PyObject *py_deal(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    /* deal(ruleset, pack0, pack1, starter): crapette.deal.deal from two checked pack orders
       (tuples of the pack's card codes; starter -1 for the first-player rule) */
    (void)mod;
    long starter;
    if (nargs != 4 || !PyObject_TypeCheck(args[0], (PyTypeObject *)g_ruleset_class) ||
        !PyTuple_Check(args[1]) || !PyTuple_Check(args[2]) || small_int(args[3], -1, 1, &starter) < 0) {
        PyErr_SetString(PyExc_TypeError, "deal(ruleset, pack0, pack1, starter)");
        return NULL;
    }
    RulesObject *r = rules_for(args[0]);
    if (!r) return NULL;
    const cr_pack *pk = &cr_packs[CR_RULE(&r->r, PACK)];
    uint8_t packs[2][CR_NCARDS / 2];
    for (int p = 0; p < 2; p++) {
        if (PyTuple_GET_SIZE(args[1 + p]) != pk->size) {
            Py_DECREF(r);
            PyErr_SetString(PyExc_TypeError, "a pack holds the pack kind's cards");
            return NULL;
        }
        for (int i = 0; i < pk->size; i++) {
            int c = card_value(PyTuple_GET_ITEM(args[1 + p], i), pk->count);
            if (c < 0 || c / pk->size != p) {
                Py_DECREF(r);
                PyErr_SetString(PyExc_TypeError, "a pack holds its owner's card codes");
                return NULL;
            }
            packs[p][i] = (uint8_t)c;
        }
    }
    if (!cr_packs_check(&r->r, packs[0], packs[1])) {
        Py_DECREF(r);
        PyErr_SetString(g_err_position, "each pack must hold its player's cards once");
        return NULL;
    }
    cr_state st;
    cr_deal(&r->r, packs[0], packs[1], (int)starter, &st);
    Py_DECREF(r);
    return new_state(args[0], &st);
}

static PyObject *py_shuffled(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    /* shuffled(cards, rng_state) -> (tuple, rng_state): crapette.deal.shuffled of a tuple
       of cards (Fisher-Yates from the last place, SplitMix64's Rng.below) */
    (void)mod;
    if (nargs != 2 || !PyTuple_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "shuffled(cards, rng_state) needs a tuple and an int");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args[0]);
    uint64_t rng = PyLong_AsUnsignedLongLongMask(args[1]);
    if (rng == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        /* any objects: the shuffle moves them, it reads none */
        PyTuple_SET_ITEM(out, i, Py_NewRef(PyTuple_GET_ITEM(args[0], i)));
    }
    for (Py_ssize_t i = n - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)cr_rng_below(&rng, (uint64_t)(i + 1));
        PyObject *t = PyTuple_GET_ITEM(out, i);
        PyTuple_SET_ITEM(out, i, PyTuple_GET_ITEM(out, j));
        PyTuple_SET_ITEM(out, j, t);
    }
    return Py_BuildValue("(NK)", out, (unsigned long long)rng);
}

/* -- the greedy bot and the play-outs ---------------------------------------------------- */

/* The moves of a tuple into out (room for CR_NMOVES), each legal in s: a longer tuple is
   refused with InvalidArgumentError, a move that is not legal with IllegalMoveError naming
   it (crapette.bots._greedy checks both first, alike for both engines; this is the
   binding's own guard of the buffer and of the core). */
static int read_moves(StateObject *s, PyObject *seq, uint16_t *out, int *n) {
    if (!PyTuple_Check(seq)) {
        PyErr_SetString(PyExc_TypeError, "moves must be a tuple of moves");
        return -1;
    }
    Py_ssize_t k = PyTuple_GET_SIZE(seq);
    if (k > CR_NMOVES) {
        PyErr_Format(g_err_argument, "moves must hold at most %d moves, not %zd", CR_NMOVES, k);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        int m = move_index(PyTuple_GET_ITEM(seq, i));
        if (m < 0) return -1;
        out[i] = (uint16_t)m;
    }
    cr_seen sn;
    int bad = cr_first_illegal(&s->rules->r, &s->st, seen_of(s, &sn), out, (int)k);
    if (bad >= 0) {
        illegal(s, PyTuple_GET_ITEM(seq, bad));
        return -1;
    }
    *n = (int)k;
    return 0;
}

static PyObject *py_greedy_scores(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "greedy_scores(state, moves)");
        return NULL;
    }
    if (!IS_STATE(args[0])) return not_a_state(args[0]);
    StateObject *s = (StateObject *)args[0];
    uint16_t moves[CR_NMOVES];
    int32_t scores[CR_NMOVES];
    int n;
    if (read_moves(s, args[1], moves, &n) < 0) return NULL;
    cr_greedy_scores(&s->rules->r, &s->st, moves, n, scores);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(scores[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *py_greedy_move(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    /* greedy_move(state, rng_state, moves) -> (move, rng_state) */
    (void)mod;
    if (nargs != 3 || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "greedy_move(state, rng_state, moves)");
        return NULL;
    }
    if (!IS_STATE(args[0])) return not_a_state(args[0]);
    StateObject *s = (StateObject *)args[0];
    uint64_t rng = PyLong_AsUnsignedLongLongMask(args[1]);
    if (rng == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    uint16_t moves[CR_NMOVES];
    int n;
    if (read_moves(s, args[2], moves, &n) < 0) return NULL;
    if (!n) {
        PyErr_SetString(g_err_argument, "greedy_move() needs at least one legal move: moves is empty");
        return NULL;
    }
    int move = cr_greedy_move(&s->rules->r, &s->st, moves, n, &rng);
    return Py_BuildValue("(OK)", g_moves[move], (unsigned long long)rng);
}

/* The play-out work spaces, kept between calls (the GIL is held throughout): the game played
   out, and the scratch game of the deep play-outs' look-ahead */
typedef struct workspace {
    cr_game *game;
    uint64_t *keys;
    uint32_t *index;
} workspace;

static workspace g_work[2];
static cr_game *g_game;
static uint32_t g_capacity;

static int workspace_room(workspace *w, uint32_t capacity) {
    if (!w->game) {
        w->game = PyMem_Malloc(sizeof *w->game);
        if (!w->game) {
            PyErr_NoMemory();
            return -1;
        }
    }
    uint64_t *keys = PyMem_Realloc(w->keys, sizeof(uint64_t) * capacity);
    if (!keys) {
        PyErr_NoMemory();
        return -1;
    }
    w->keys = keys;
    uint32_t *index = PyMem_Realloc(w->index, sizeof(uint32_t) * 2 * (size_t)capacity);
    if (!index) {
        PyErr_NoMemory();
        return -1;
    }
    w->index = index;
    cr_keyset_init(&w->game->seen, w->keys, w->index, capacity);
    return 0;
}

static int game_room(uint32_t capacity) {
    if (g_game && g_capacity >= capacity) {
        return 0;
    }
    for (int i = 0; i < 2; i++)
        if (workspace_room(&g_work[i], capacity) < 0) return -1;
    g_game = g_work[0].game;
    g_capacity = capacity;
    return 0;
}

static int game_grow(void) {
    if (g_capacity >= (1u << 26)) {
        PyErr_SetString(PyExc_MemoryError, "a turn saw too many layouts");
        return -1;
    }
    return game_room(g_capacity * 2);
}

/* play_out(state, p, rng_state, turns) and, with `deep`, deep_play_out(state, p, rng_state,
   turns, width): (value, played, scored, rng_state) */
static PyObject *play_out_call(PyObject *const *args, Py_ssize_t nargs, int deep) {
    long p, turns, width = 0;
    if (nargs != 4 + deep || !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, deep ? "deep_play_out(state, p, rng_state, turns, width)"
                                              : "play_out(state, p, rng_state, turns)");
        return NULL;
    }
    if (small_int(args[1], 0, 1, &p) < 0) {
        PyErr_SetString(g_err_argument, "p must be a player, 0 or 1");
        return NULL;
    }
    if (small_int(args[3], 1, 1000000, &turns) < 0) {
        PyErr_SetString(g_err_argument, "turns must be an integer from 1 to 1000000");
        return NULL;
    }
    if (deep && small_int(args[4], 1, CR_MAX_WIDTH, &width) < 0) {
        PyErr_Format(g_err_argument, "width must be an integer from 1 to %d", CR_MAX_WIDTH);
        return NULL;
    }
    if (!IS_STATE(args[0])) return not_a_state(args[0]);
    StateObject *s = (StateObject *)args[0];
    uint64_t rng0 = PyLong_AsUnsignedLongLongMask(args[2]);
    if (rng0 == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    if (game_room(4096) < 0) return NULL;
    for (;;) {
        uint64_t rng = rng0;
        cr_seen sn;
        int64_t value = 0, played = 0, scored = 0;
        StateObject *prior = PRIOR(s);
        const cr_rules *r = &s->rules->r;
        int err = cr_game_start(g_game, r, &s->st, prior ? &prior->st : NULL, seen_of(s, &sn));
        if (!err && deep)
            err = cr_deep_play_out(g_game, g_work[1].game, r, (int)p, &rng, (int)turns, (int)width,
                                   &value, &played, &scored);
        else if (!err)
            err = cr_play_out(g_game, r, (int)p, &rng, (int)turns, &value, &played, &scored);
        if (err == -1) {
            if (game_grow() < 0) return NULL;
            continue;
        }
        if (err) {
            PyErr_SetString(g_err_illegal, "a play-out could not apply a move");
            return NULL;
        }
        return Py_BuildValue("(LLLK)", (long long)value, (long long)played, (long long)scored,
                             (unsigned long long)rng);
    }
}

static PyObject *py_play_out(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    return play_out_call(args, nargs, 0);
}

static PyObject *py_deep_play_out(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    return play_out_call(args, nargs, 1);
}

static PyObject *py_play_deals(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    /* play_deals(ruleset, deals, record) where deals is a sequence of
       (seed, policy0, policy1, rng0, rng1); returns a list of
       (starter, winner, score0, score1, reason, moves, turns, violations, calls[, moves]) */
    (void)mod;
    if (nargs != 3 || !PyObject_TypeCheck(args[0], (PyTypeObject *)g_ruleset_class)) {
        PyErr_SetString(PyExc_TypeError, "play_deals(ruleset, deals, record)");
        return NULL;
    }
    int record = PyObject_IsTrue(args[2]);
    if (record < 0) return NULL;
    PyObject *deals = PySequence_Fast(args[1], "deals must be a sequence");
    if (!deals) return NULL;
    RulesObject *r = rules_for(args[0]);
    PyObject *out = r ? PyList_New(0) : NULL;
    uint16_t *moves = NULL;
    int64_t cap = 0;
    if (!out) goto fail;
    if (record) {
        cap = CR_RULE(&r->r, MOVE_CAP) < 100000 ? CR_RULE(&r->r, MOVE_CAP) : 100000;
        moves = PyMem_Malloc(sizeof(uint16_t) * (size_t)(cap > 0 ? cap : 1));
        if (!moves) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    if (game_room(4096) < 0) goto fail;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(deals); i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(deals, i);
        unsigned long long seed, rng0, rng1;
        int pol0, pol1;
        if (!PyArg_ParseTuple(item, "KiiKK", &seed, &pol0, &pol1, &rng0, &rng1)) goto fail;
        int policies[2] = {pol0 ? CR_POLICY_GREEDY : CR_POLICY_RANDOM,
                           pol1 ? CR_POLICY_GREEDY : CR_POLICY_RANDOM};
        cr_state start;
        cr_new_game(&r->r, seed, &start);
        cr_result res;
        int64_t recorded = 0;
        for (;;) {
            uint64_t rng[2] = {rng0, rng1};
            int err = cr_game_start(g_game, &r->r, &start, NULL, NULL);
            int64_t room = cap;
            if (!err) err = cr_play_deal(g_game, &r->r, policies, rng, moves, room, &res);
            if (err == -1) {
                if (game_grow() < 0) goto fail;
                continue;
            }
            if (err) {
                PyErr_SetString(g_err_illegal, "a deal could not apply a move");
                goto fail;
            }
            recorded = res.moves < cap ? res.moves : cap;
            break;
        }
        PyObject *w = res.winner < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(res.winner);
        PyObject *row;
        if (record) {
            PyObject *ms = moves_tuple(moves, (int)recorded);
            row = (w && ms) ? Py_BuildValue("(iNLLOLiiiN)", res.starter, w, (long long)res.scores[0],
                                            (long long)res.scores[1], g_reasons[res.reason],
                                            (long long)res.moves, res.turns, res.violations,
                                            res.calls, ms)
                            : NULL;
            if (!row) Py_XDECREF(ms);
        } else {
            row = w ? Py_BuildValue("(iNLLOLiii)", res.starter, w, (long long)res.scores[0],
                                    (long long)res.scores[1], g_reasons[res.reason],
                                    (long long)res.moves, res.turns, res.violations, res.calls)
                    : NULL;
        }
        if (!row || PyList_Append(out, row) < 0) {
            Py_XDECREF(row);
            goto fail;
        }
        Py_DECREF(row);
    }
    PyMem_Free(moves);
    Py_DECREF(deals);
    Py_XDECREF(r);
    return out;
fail:
    PyMem_Free(moves);
    Py_DECREF(deals);
    Py_XDECREF(r);
    Py_XDECREF(out);
    return NULL;
}

/* -- set-up --------------------------------------------------------------------------------- */

static PyObject *py_setup(PyObject *mod, PyObject *args, PyObject *kwds) {
    (void)mod;
    static char *kwlist[] = {"cards",         "moves",          "move_class",    "pending_stop",
                             "ruleset_class", "position_error", "illegal_error", "argument_error",
                             "hooks",         NULL};
    PyObject *cards, *moves, *move_class, *pending, *ruleset, *pos_err, *ill_err, *arg_err, *hooks;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "$OOOOOOOOO:setup", kwlist, &cards, &moves,
                                     &move_class, &pending, &ruleset, &pos_err, &ill_err, &arg_err,
                                     &hooks))
        return NULL;
    int packs_ok = PyTuple_Check(cards) && PyTuple_GET_SIZE(cards) == CR_NPACKS;
    for (int k = 0; packs_ok && k < CR_NPACKS; k++) {
        PyObject *pack = PyTuple_GET_ITEM(cards, k);
        packs_ok = PyTuple_Check(pack) && PyTuple_GET_SIZE(pack) == cr_packs[k].count;
    }
    if (!packs_ok || !PyTuple_Check(moves) || PyTuple_GET_SIZE(moves) != CR_NMOVES) {
        PyErr_SetString(PyExc_TypeError,
                        "cards and moves must be every pack's cards and the move table");
        return NULL;
    }
    for (int k = 0; k < CR_NPACKS; k++) {
        PyObject *pack = PyTuple_GET_ITEM(cards, k);
        for (int i = 0; i < CR_NCARDS; i++) {
            /* codes beyond the pack hold None: no state of the pack has them */
            PyObject *card = i < cr_packs[k].count ? PyTuple_GET_ITEM(pack, i) : Py_None;
            Py_XSETREF(g_cards[k][i], Py_NewRef(card));
        }
    }
    memset(g_move_keys, 0, sizeof g_move_keys);
    for (int i = 0; i < CR_NMOVES; i++) {
        PyObject *m = PyTuple_GET_ITEM(moves, i);
        Py_XSETREF(g_moves[i], Py_NewRef(m));
        uint32_t slot = move_slot(m);
        while (g_move_keys[slot]) slot = (slot + 1) & (MOVE_SLOTS - 1);
        g_move_keys[slot] = m;
        g_move_vals[slot] = (int16_t)i;
    }
    Py_XSETREF(g_move_class, Py_NewRef(move_class));
    Py_XSETREF(g_pending_stop, Py_NewRef(pending));
    Py_XSETREF(g_ruleset_class, Py_NewRef(ruleset));
    Py_XSETREF(g_err_position, Py_NewRef(pos_err));
    Py_XSETREF(g_err_illegal, Py_NewRef(ill_err));
    Py_XSETREF(g_err_argument, Py_NewRef(arg_err));
    Py_XSETREF(g_hooks, Py_NewRef(hooks));
    g_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *py_layout_key(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    /* house_key(house, depth, card, count=104): one Zobrist key, for the Python tables to
       agree (count: the cards in play) */
    (void)mod;
    long h, d, c, count = 104;
    if ((nargs != 3 && nargs != 4) || (nargs == 4 && small_int(args[3], 1, CR_NCARDS, &count) < 0) ||
        small_int(args[0], 0, 7, &h) < 0 || small_int(args[1], 0, 255, &d) < 0 ||
        small_int(args[2], 0, count - 1, &c) < 0) {
        PyErr_SetString(PyExc_TypeError, "house_key(house, depth, card, count=104)");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(cr_zobrist_key((int)h, (int)d, (int)c, (int)count));
}

static PyMethodDef core_methods[] = {
    {"setup", (PyCFunction)(void (*)(void))py_setup, METH_VARARGS | METH_KEYWORDS,
     "Hand the module the Python objects it returns (crapette.state calls it once)."},
    {"legal_moves", py_legal_moves, METH_O, "The legal moves (crapette.legal_moves)."},
    {"apply", (PyCFunction)(void (*)(void))py_apply, METH_FASTCALL, "The checked apply."},
    {"apply_unchecked", (PyCFunction)(void (*)(void))py_apply_unchecked, METH_FASTCALL,
     "apply without the legality check."},
    {"winner", py_winner, METH_O, "The winner, or None."},
    {"is_over", py_is_over, METH_O, "Whether the deal has ended."},
    {"outcome", py_outcome, METH_O, "The Outcome, or None while the deal runs."},
    {"counts", py_counts, METH_O, "Each player's stalemate count."},
    {"evaluate", (PyCFunction)(void (*)(void))py_evaluate, METH_FASTCALL,
     "The play-outs' value of a state for a player."},
    {"violation", (PyCFunction)(void (*)(void))py_violation, METH_FASTCALL,
     "(kind, remedy) of the priority rule a move breaks (kind 0: none)."},
    {"why_illegal", (PyCFunction)(void (*)(void))py_why_illegal, METH_FASTCALL,
     "(code, params) of the reason a move is illegal (cr_why_illegal; code 0: legal)."},
    {"violation_reason", (PyCFunction)(void (*)(void))py_violation_reason, METH_FASTCALL,
     "(code, params) of the priority a move breaks (cr_violation_reason; code 0: none)."},
    {"new_game", (PyCFunction)(void (*)(void))py_new_game, METH_FASTCALL,
     "The deal of a seed (crapette.new_game)."},
    {"deal", (PyCFunction)(void (*)(void))py_deal, METH_FASTCALL, "Deal from two pack orders."},
    {"shuffled", (PyCFunction)(void (*)(void))py_shuffled, METH_FASTCALL,
     "crapette.deal.shuffled of a tuple of cards, and the generator state after it."},
    {"greedy_scores", (PyCFunction)(void (*)(void))py_greedy_scores, METH_FASTCALL,
     "The greedy ranking of moves."},
    {"greedy_move", (PyCFunction)(void (*)(void))py_greedy_move, METH_FASTCALL,
     "The greedy bot's move and the generator state after it."},
    {"deep_play_out", (PyCFunction)(void (*)(void))py_deep_play_out, METH_FASTCALL,
     "deep_play_out(state, p, rng_state, turns, width): crapette.bots.expert.deep_play_out"},
    {"play_out", (PyCFunction)(void (*)(void))py_play_out, METH_FASTCALL,
     "The greedy play-out of the search bots."},
    {"play_deals", (PyCFunction)(void (*)(void))py_play_deals, METH_FASTCALL,
     "Play whole deals with the random and greedy policies."},
    {"house_key", (PyCFunction)(void (*)(void))py_layout_key, METH_FASTCALL,
     "The Zobrist key of a card at a depth of a house."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    "crapette._core",
    "The native rules engine of crapette (C11 core and its CPython binding).",
    -1,
    core_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&RulesType) < 0 || PyType_Ready(&LogType) < 0 || PyType_Ready(&AuxType) < 0 ||
        PyType_Ready(&StateType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    g_reasons[0] = Py_NewRef(Py_None);
    g_reasons[CR_WIN] = PyUnicode_InternFromString("win");
    g_reasons[CR_STALEMATE] = PyUnicode_InternFromString("stalemate");
    g_reasons[CR_MOVE_CAP] = PyUnicode_InternFromString("move_cap");
    if (!g_reasons[1] || !g_reasons[2] || !g_reasons[3] ||
        PyModule_AddObject(m, "State", Py_NewRef((PyObject *)&StateType)) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_HASH", CRAPETTE_SOURCE_HASH) < 0 ||
        PyModule_AddIntConstant(m, "STATE_BYTES", (long)sizeof(StateObject)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
