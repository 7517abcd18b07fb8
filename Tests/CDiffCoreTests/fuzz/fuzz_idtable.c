/* libFuzzer target over the identifier table (dfc.h, "Identifier table"), with a model.
 *
 * The input is a program: a header picks 16 keys (a few small integers, and adversarial
 * keys k = inverse(C) * (H << 32 | j) whose hashes share their top 32 bits, so they share
 * home slot and fingerprint at every table size: long runs, many candidates; others share
 * the home but not the fingerprint, or sit one slot away at 64 slots), then each byte pair
 * is an operation: create (the counting allocator may be told to fail), reserve (honest
 * keys, key_count too small, NULL keys, oversized counts), insert, insert_batch (plain, or
 * confirmed against the model's keys by value), remove,
 * update, find, copy, clear, prefetch, renumbering, and calls with NULL arguments, values
 * too large for the slots and counts above DFC_MAX_COUNT. The model is the caller's side:
 * value -> key for every live entry (values distinct, as the contract asks).
 *
 * After every step: the status is the documented one (exactly, where the contract and
 * what the model knows pin it; one of the allowed ones otherwise); count matches; for every
 * key of the pool, the candidates dfc_idtable_find lists are distinct live values, include
 * every value the model has for that key, and any other candidate's key shares the key's
 * fingerprint; a failed call changed nothing (count, sizeof and every candidate list,
 * in order); calls that must not allocate did not ask the allocator; at the end every
 * allocation was released. A mismatch aborts (CHECK of ../harness.h, fatal here). `make fuzz` runs it with libFuzzer,
 * `make fuzz-replay` and `make c-coverage` replay Tests/CDiffCoreTests/fuzz/corpus_idtable
 * through fuzz_main.c. */
#include "dfc.h"
#include "../harness.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POOL 16
#define MAX_VALUES 256 /* model values stay below HONEST_VALUES; the arrays cover any slot value */
#define HONEST_VALUES 200
#define MAX_COUNT_ASKED 180
#define MAX_STEPS 160
#define MAX_BATCH 24
#define MAX_CANDIDATES (MAX_VALUES + 1)

/* ---- input ---- */

typedef struct input {
    const uint8_t *data;
    size_t size;
} input;

static uint8_t take(input *in) {
    if (in->size == 0) return 0;
    in->size--;
    return *in->data++;
}

/* ---- the model and the program state ---- */

typedef struct state {
    test_heap alloc; /* the test allocator, refusing requests above 1 MiB (the huge tables of DFC_MAX_COUNT) */
    dfc_allocator allocator;
    dfc_idtable *table;
    uint64_t pool[POOL];
    bool live[MAX_VALUES];
    uint64_t key_of[MAX_VALUES];
    size_t n;
    size_t base_size;   /* sizeof of a table without slots */
    size_t budget;      /* inserts the contract guarantees to succeed (reserve, minus what came after) */
    size_t last_reserved;
    bool marks_zero;    /* no removal marks can be in the table: room is known exactly */
} state;

typedef struct picture {
    size_t count, bytes;
    size_t found[POOL];
    int64_t candidates[POOL][MAX_CANDIDATES];
} picture;

static uint64_t spread_inverse(void) {
    const uint64_t c = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t x = c; /* Newton: each step doubles the correct low bits (3 to start) */
    for (int k = 0; k < 5; k++) x *= 2 - c * x;
    CHECK(x * c == 1);
    return x;
}

static size_t capacity_of(const state *s) {
    size_t bytes = dfc_idtable_sizeof(s->table);
    CHECK(bytes >= s->base_size && (bytes - s->base_size) % 4 == 0);
    size_t capacity = (bytes - s->base_size) / 4;
    CHECK((capacity & (capacity - 1)) == 0 && (capacity == 0 || capacity >= 16));
    return capacity;
}

static size_t limit_of(const state *s) { return capacity_of(s) / 4 * 3; }

/* A value fits a slot of a 2^bits table when value + 1 stays below the all-ones mark. */
static bool value_fits(const state *s, uint64_t value) {
    size_t capacity = capacity_of(s);
    return capacity != 0 && value + 2 < capacity;
}

static unsigned log2_of(size_t capacity) {
    unsigned bits = 0;
    while (((size_t)1 << bits) < capacity) bits++;
    return bits;
}

/* White-box (dfc_internal.h, dfc_idtable.c): the fingerprint is the hash bits [32, 64 - bits). */
static uint32_t fingerprint(uint64_t key, size_t capacity) {
    unsigned bits = log2_of(capacity);
    uint64_t spread = key * UINT64_C(0x9E3779B97F4A7C15);
    return (uint32_t)((spread >> 32) & ((UINT64_C(1) << (32u - bits)) - 1));
}

static size_t list_candidates(const dfc_idtable *table, uint64_t key, int64_t *out) {
    size_t cursor = 0, found = 0, previous = 0;
    for (;;) {
        int64_t value = dfc_idtable_find(table, key, &cursor);
        if (value == DFC_NOT_FOUND) break;
        CHECK(value >= 0 && found < MAX_CANDIDATES);
        CHECK(found == 0 || cursor > previous);
        previous = cursor;
        out[found++] = value;
    }
    return found;
}

static void take_picture(const state *s, picture *p) {
    p->count = dfc_idtable_count(s->table);
    p->bytes = dfc_idtable_sizeof(s->table);
    for (size_t k = 0; k < POOL; k++) p->found[k] = list_candidates(s->table, s->pool[k], p->candidates[k]);
}

static bool same_picture(const picture *a, const picture *b) {
    if (a->count != b->count || a->bytes != b->bytes) return false;
    for (size_t k = 0; k < POOL; k++) {
        if (a->found[k] != b->found[k]) return false;
        if (memcmp(a->candidates[k], b->candidates[k], a->found[k] * sizeof(int64_t)) != 0) return false;
    }
    return true;
}

/* The table against the model. */
static void verify(const state *s) {
    static picture p;
    take_picture(s, &p);
    CHECK(p.count == s->n);
    size_t capacity = capacity_of(s);
    CHECK(s->n <= capacity / 4 * 3);
    bool seen[MAX_VALUES];
    memset(seen, 0, sizeof(seen));
    for (size_t k = 0; k < POOL; k++) {
        bool listed[MAX_VALUES];
        memset(listed, 0, sizeof(listed));
        for (size_t i = 0; i < p.found[k]; i++) {
            int64_t value = p.candidates[k][i];
            CHECK(value < MAX_VALUES && s->live[value]); /* only live entries */
            CHECK(!listed[value]);                       /* each once */
            listed[value] = true;
            seen[value] = true;
            if (s->key_of[value] != s->pool[k])
                CHECK(fingerprint(s->key_of[value], capacity) == fingerprint(s->pool[k], capacity));
        }
        for (size_t v = 0; v < MAX_VALUES; v++)
            if (s->live[v] && s->key_of[v] == s->pool[k]) CHECK(listed[v]); /* every entry of the key */
    }
    for (size_t v = 0; v < MAX_VALUES; v++) CHECK(seen[v] == s->live[v]);
}

/* ---- model helpers ---- */

static size_t max_value_plus_one(const state *s) {
    size_t top = 0;
    for (size_t v = 0; v < MAX_VALUES; v++)
        if (s->live[v]) top = v + 1;
    return top;
}

static bool dense(const state *s) { return max_value_plus_one(s) == s->n; }

/* keys[value] for every live value; other positions hold pool keys the table must ignore. */
static void fill_keys(const state *s, uint64_t *keys, size_t key_count, uint8_t noise) {
    for (size_t v = 0; v < key_count; v++) keys[v] = s->live[v] ? s->key_of[v] : s->pool[(v + noise) % POOL];
}

static uint32_t free_value(const state *s, uint8_t choice) {
    uint32_t start = choice % HONEST_VALUES;
    for (uint32_t k = 0; k < HONEST_VALUES; k++) {
        uint32_t v = (start + k) % HONEST_VALUES;
        if (!s->live[v]) return v;
    }
    return UINT32_MAX;
}

static int32_t live_value(const state *s, uint8_t choice) {
    if (s->n == 0) return -1;
    size_t skip = choice % s->n;
    for (size_t v = 0; v < MAX_VALUES; v++)
        if (s->live[v] && skip-- == 0) return (int32_t)v;
    return -1;
}

static void model_add(state *s, uint64_t key, uint32_t value) {
    CHECK(value < MAX_VALUES && !s->live[value]);
    s->live[value] = true;
    s->key_of[value] = key;
    s->n++;
}

static void model_remove(state *s, uint32_t value) {
    CHECK(s->live[value]);
    s->live[value] = false;
    s->n--;
}

static void model_reset(state *s) {
    memset(s->live, 0, sizeof(s->live));
    s->n = 0;
    s->budget = 0;
    s->last_reserved = 0;
    s->marks_zero = true;
}

static void consume_budget(state *s, size_t inserted) { s->budget = s->budget > inserted ? s->budget - inserted : 0; }

/* Room known to be there for this many more entries. */
static size_t known_room(const state *s) {
    if (s->marks_zero) {
        size_t limit = limit_of(s);
        return limit > s->n ? limit - s->n : 0;
    }
    return s->budget;
}

/* ---- operations ---- */

static void new_table(state *s, bool make_fail) {
    dfc_idtable_free(s->table);
    CHECK(s->alloc.live == 0);
    s->alloc.fail_at = make_fail ? s->alloc.calls + 1 : 0;
    s->table = dfc_idtable_create(&s->allocator);
    if (make_fail) {
        CHECK(s->table == NULL && s->alloc.live == 0);
        s->table = dfc_idtable_create(&s->allocator);
    }
    CHECK(s->table != NULL);
    model_reset(s);
    CHECK(dfc_idtable_sizeof(s->table) == s->base_size);
}

/* After a successful reserve(count, key_count): the room it promised. */
static void reserved(state *s, size_t count, size_t key_count, size_t bytes_before) {
    size_t limit = limit_of(s);
    CHECK(limit >= count && limit >= key_count && limit >= s->n);
    CHECK(dfc_idtable_sizeof(s->table) >= bytes_before); /* never shrinks */
    s->budget = count > s->n ? count - s->n : 0;
    s->last_reserved = count;
    if (dfc_idtable_sizeof(s->table) != bytes_before) s->marks_zero = true;
}

/* Whether reserve(count, key_count) must rebuild, or may not (-1: depends on removal marks). */
static int must_rebuild(const state *s, size_t count, size_t key_count) {
    size_t capacity = capacity_of(s), limit = capacity / 4 * 3;
    if (capacity == 0 || count > limit || key_count > limit) return 1;
    if (s->marks_zero) return 0;
    return -1;
}

static void op_reserve_honest(state *s, input *in) {
    static uint64_t keys[MAX_VALUES];
    static picture before, after;
    uint8_t a = take(in), b = take(in);
    size_t count = a % (MAX_COUNT_ASKED + 1);
    size_t key_count = max_value_plus_one(s);
    if (!(b & 1) || !dense(s)) key_count += (b >> 1) % 4; /* (dense and b odd: the in-order rebuild) */
    fill_keys(s, keys, key_count, b);
    bool arm = (b & 0x30) == 0x30;
    if (arm) s->alloc.fail_at = s->alloc.calls + 1;
    int rebuild = must_rebuild(s, count, key_count);
    take_picture(s, &before);
    long attempts = s->alloc.calls;
    int status = dfc_idtable_reserve(s->table, count, key_count ? keys : (b & 8 ? NULL : keys), key_count);
    if (status == DFC_ERR_OUT_OF_MEMORY) {
        CHECK(arm && rebuild != 0);
        take_picture(s, &after);
        CHECK(same_picture(&before, &after));
    } else {
        CHECK(status == DFC_OK);
        if (rebuild == 1) CHECK(s->alloc.calls == attempts + 1);
        if (rebuild == 0) CHECK(s->alloc.calls == attempts);
        reserved(s, count, key_count, before.bytes);
        if (s->alloc.calls == attempts) { /* no rebuild: nothing moved */
            take_picture(s, &after);
            CHECK(same_picture(&before, &after));
        } else
            s->marks_zero = true;
    }
    s->alloc.fail_at = 0;
}

/* key_count below some entry's value: DFC_ERR_INCONSISTENT when it grows, nothing allocated. */
static void op_reserve_short_keys(state *s, input *in) {
    static uint64_t keys[MAX_VALUES];
    static picture before, after;
    uint8_t a = take(in), b = take(in);
    size_t top = max_value_plus_one(s);
    if (top == 0) return;
    size_t key_count = a % top; /* below the largest value */
    fill_keys(s, keys, key_count, b);
    size_t limit = limit_of(s);
    size_t count = b & 1 ? limit + 1 + b % 7 : b % (MAX_COUNT_ASKED + 1); /* growing, or maybe not */
    int rebuild = must_rebuild(s, count, key_count);
    if (b & 2) s->alloc.fail_at = s->alloc.calls + 1; /* must not matter: nothing is allocated */
    take_picture(s, &before);
    long attempts = s->alloc.calls;
    int status = dfc_idtable_reserve(s->table, count, keys, key_count);
    CHECK(s->alloc.calls == attempts);
    s->alloc.fail_at = 0;
    take_picture(s, &after);
    if (rebuild == 1) CHECK(status == DFC_ERR_INCONSISTENT);
    else if (rebuild == 0) CHECK(status == DFC_OK);
    else CHECK(status == DFC_OK || status == DFC_ERR_INCONSISTENT);
    CHECK(same_picture(&before, &after));
    if (status == DFC_OK) reserved(s, count, key_count, before.bytes);
}

static void op_reserve_null_keys(state *s, input *in) {
    static picture before, after;
    uint8_t a = take(in), b = take(in);
    size_t count = a % (MAX_COUNT_ASKED + 1);
    size_t key_count = b & 1 ? max_value_plus_one(s) : 0;
    int rebuild = must_rebuild(s, count, key_count);
    take_picture(s, &before);
    long attempts = s->alloc.calls;
    int status = dfc_idtable_reserve(s->table, count, NULL, key_count);
    if (s->n == 0) {
        /* An empty table takes NULL keys. */
        CHECK(status == DFC_OK);
        reserved(s, count, key_count, before.bytes);
        if (s->alloc.calls != attempts) s->marks_zero = true;
        return;
    }
    take_picture(s, &after);
    CHECK(same_picture(&before, &after));
    CHECK(s->alloc.calls == attempts);
    if (rebuild == 1) CHECK(status == DFC_ERR_NULL_ARGUMENT || (key_count < max_value_plus_one(s) && status == DFC_ERR_INCONSISTENT));
    else if (rebuild == 0) CHECK(status == DFC_OK);
    else CHECK(status == DFC_OK || status == DFC_ERR_NULL_ARGUMENT);
    if (status == DFC_OK) reserved(s, count, key_count, before.bytes);
}

static void op_reserve_oversized(state *s, input *in) {
    static uint64_t keys[MAX_VALUES];
    static picture before, after;
    uint8_t a = take(in);
    size_t honest = max_value_plus_one(s);
    fill_keys(s, keys, honest, a);
    take_picture(s, &before);
    long attempts = s->alloc.calls;
    int status;
    switch (a % 4) {
    case 0: status = dfc_idtable_reserve(s->table, DFC_MAX_COUNT + 1, keys, honest); break;
    case 1: status = dfc_idtable_reserve(s->table, a, keys, DFC_MAX_COUNT + 1 + (size_t)a); break;
    case 2: status = dfc_idtable_reserve(s->table, SIZE_MAX, keys, honest); break;
    default:
        /* DFC_MAX_COUNT itself is allowed; the allocator refuses its slots. */
        status = dfc_idtable_reserve(s->table, DFC_MAX_COUNT, keys, honest);
        CHECK(status == DFC_ERR_OUT_OF_MEMORY && s->alloc.calls == attempts + 1);
        take_picture(s, &after);
        CHECK(same_picture(&before, &after));
        return;
    }
    CHECK(status == DFC_ERR_TOO_LARGE && s->alloc.calls == attempts);
    take_picture(s, &after);
    CHECK(same_picture(&before, &after));
}

static void op_insert(state *s, input *in) {
    static picture before, after;
    uint8_t a = take(in), b = take(in);
    uint64_t key = s->pool[a % POOL];
    uint32_t value;
    size_t capacity = capacity_of(s);
    switch (b % 8) {
    case 6: value = capacity >= 2 ? (uint32_t)(capacity - 2 + b % 3) : (uint32_t)(b % 3); break; /* past the slots */
    case 7: value = b & 8 ? UINT32_MAX : (uint32_t)(UINT32_MAX - 1 - b % 4); break;
    default: value = free_value(s, (uint8_t)(a ^ b)); break;
    }
    if (value < MAX_VALUES && s->live[value]) return; /* the contract asks for distinct values */
    bool fits = value_fits(s, value);
    size_t room = known_room(s);
    take_picture(s, &before);
    long attempts = s->alloc.calls;
    int status = dfc_idtable_insert(s->table, key, value);
    CHECK(s->alloc.calls == attempts);
    CHECK(dfc_idtable_sizeof(s->table) == before.bytes);
    if (capacity == 0) CHECK(status == DFC_ERR_NO_ROOM);
    else if (!fits) CHECK(status == DFC_ERR_TOO_LARGE || (room == 0 && status == DFC_ERR_NO_ROOM));
    else if (room > 0) CHECK(status == DFC_OK);
    else if (s->marks_zero) CHECK(status == DFC_ERR_NO_ROOM);
    else CHECK(status == DFC_OK || status == DFC_ERR_NO_ROOM);
    if (status == DFC_OK) {
        model_add(s, key, value);
        consume_budget(s, 1);
    } else {
        take_picture(s, &after);
        CHECK(same_picture(&before, &after));
    }
}

/* The batch against a copy taken before it, filled by find + insert one key at a time. */
static void op_insert_batch(state *s, input *in) {
    static picture before, after;
    uint8_t a = take(in), b = take(in);
    size_t count = a % (MAX_BATCH + 1);
    uint64_t keys[MAX_BATCH + 1];
    uint8_t conflicts[MAX_BATCH + 1], conflicts_before[MAX_BATCH + 1];
    for (size_t i = 0; i < count; i++) keys[i] = s->pool[take(in) % POOL];
    memset(conflicts, 0xA5, sizeof(conflicts));
    memcpy(conflicts_before, conflicts, sizeof(conflicts));
    size_t capacity = capacity_of(s);
    uint32_t first = (uint32_t)max_value_plus_one(s);
    int variant = b % 8;
    if (variant == 5) first = capacity >= 2 ? (uint32_t)(capacity - 1 - (count ? count : 1) + b % 3) : 0;
    if (variant == 6) first = (uint32_t)(DFC_MAX_COUNT - b % 4);
    uint64_t last_value = (uint64_t)first + (count ? count : 1) - 1;
    if (variant < 5 && last_value >= HONEST_VALUES) return; /* the model's values stay small */
    size_t room = known_room(s);
    take_picture(s, &before);
    long attempts = s->alloc.calls;
    size_t inserted = 12345;
    int status;
    if (variant == 7) {
        /* NULL arrays: allowed only with count 0; count above DFC_MAX_COUNT. */
        switch (b / 8 % 4) {
        case 0: status = dfc_idtable_insert_batch(s->table, NULL, count, first, conflicts, &inserted); break;
        case 1: status = dfc_idtable_insert_batch(s->table, keys, count, first, NULL, &inserted); break;
        case 2: status = dfc_idtable_insert_batch(s->table, NULL, 0, first, NULL, b & 1 ? NULL : &inserted); break;
        default: status = dfc_idtable_insert_batch(s->table, keys, DFC_MAX_COUNT + 1, 0, conflicts, &inserted); break;
        }
        CHECK(s->alloc.calls == attempts);
        take_picture(s, &after);
        CHECK(same_picture(&before, &after));
        switch (b / 8 % 4) {
        case 0: case 1: CHECK(status == (count == 0 ? DFC_OK : DFC_ERR_NULL_ARGUMENT)); break;
        case 2: CHECK(status == DFC_OK); if (!(b & 1)) CHECK(inserted == 0); break;
        default: CHECK(status == DFC_ERR_TOO_LARGE); break;
        }
        CHECK(memcmp(conflicts, conflicts_before, sizeof(conflicts)) == 0);
        return;
    }
    /* dfc_idtable_insert_batch_confirmed with the model's keys by value (every live value is
     * below `first` here): a candidate conflicts only when its key is the batch key's, or
     * when it is one of the batch's own entries after a conflict (no key known for it). */
    const bool confirm = (b & 0x20) != 0 && variant < 5;
    /* Reference: a copy, through single finds and inserts. */
    dfc_idtable *reference = NULL;
    uint8_t expected[MAX_BATCH + 1];
    bool definite[MAX_BATCH + 1];
    size_t expected_inserted = 0;
    if (count > 0 && capacity > 0) {
        reference = dfc_idtable_copy(s->table, NULL);
        CHECK(reference != NULL);
        for (size_t i = 0; i < count; i++) {
            size_t cursor = 0;
            bool candidate = false;
            for (int64_t v; !candidate && (v = dfc_idtable_find(reference, keys[i], &cursor)) != DFC_NOT_FOUND;) {
                if (!confirm || (uint64_t)v < first) candidate = !confirm || s->key_of[v] == keys[i];
                else candidate = expected_inserted != i || keys[(uint64_t)v - first] == keys[i];
            }
            expected[i] = candidate;
            definite[i] = true;
            if (!candidate) {
                int inserted_status = dfc_idtable_insert(reference, keys[i], first + (uint32_t)expected_inserted);
                if (inserted_status != DFC_OK) definite[i] = false; /* the batch will refuse anyway */
                expected_inserted++;
            }
        }
    }
    if (b & 0x40) s->alloc.fail_at = s->alloc.calls + 1; /* must not matter */
    status = confirm ? dfc_idtable_insert_batch_confirmed(s->table, keys, count, first, s->key_of, first, conflicts,
                                                          b & 0x80 ? NULL : &inserted)
                     : dfc_idtable_insert_batch(s->table, keys, count, first, conflicts, b & 0x80 ? NULL : &inserted);
    s->alloc.fail_at = 0;
    CHECK(s->alloc.calls == attempts);
    CHECK(dfc_idtable_sizeof(s->table) == before.bytes);
    bool fits = value_fits(s, last_value) && last_value <= DFC_MAX_COUNT;
    if (count == 0) CHECK(status == DFC_OK);
    else if ((uint64_t)first + count > DFC_MAX_COUNT) CHECK(status == DFC_ERR_TOO_LARGE);
    else if (capacity == 0) CHECK(status == DFC_ERR_NO_ROOM);
    else if (!fits) CHECK(status == DFC_ERR_TOO_LARGE || (room < count && status == DFC_ERR_NO_ROOM));
    else if (room >= count) CHECK(status == DFC_OK);
    else if (s->marks_zero) CHECK(status == DFC_ERR_NO_ROOM);
    else CHECK(status == DFC_OK || status == DFC_ERR_NO_ROOM);
    if (status == DFC_OK) {
        if (!(b & 0x80)) CHECK(inserted == expected_inserted);
        uint32_t next = first;
        for (size_t i = 0; i < count; i++) {
            CHECK(conflicts[i] == 0 || conflicts[i] == 1);
            CHECK(definite[i]);
            CHECK(conflicts[i] == expected[i]);
            /* a key already in the table, or repeated in the batch, is always a conflict */
            if (conflicts[i] == 0) {
                for (size_t v = 0; v < MAX_VALUES; v++) CHECK(!(s->live[v] && s->key_of[v] == keys[i]));
                model_add(s, keys[i], next++);
            }
        }
        consume_budget(s, next - first);
        if (reference != NULL) {
            take_picture(s, &after);
            static picture ref;
            state shadow = *s;
            shadow.table = reference;
            take_picture(&shadow, &ref);
            /* same entries (the order of a run may differ only if slots differ; they do not) */
            CHECK(same_picture(&after, &ref));
        }
    } else {
        take_picture(s, &after);
        CHECK(same_picture(&before, &after));
        CHECK(memcmp(conflicts, conflicts_before, sizeof(conflicts)) == 0);
        if (!(b & 0x80)) CHECK(inserted == 12345);
    }
    dfc_idtable_free(reference);
}

static void op_remove(state *s, input *in) {
    static picture before, after;
    uint8_t a = take(in), b = take(in);
    int32_t value = live_value(s, a);
    take_picture(s, &before);
    long attempts = s->alloc.calls;
    if (value >= 0 && b % 4 != 0) {
        CHECK(dfc_idtable_remove(s->table, s->key_of[value], (uint32_t)value) == 1);
        model_remove(s, (uint32_t)value);
        s->marks_zero = false;
    } else if (value >= 0 && b % 8 == 0) {
        /* the entry's value under another key: the table tells entries apart by (fingerprint,
         * value), so it may take it when the fingerprints agree */
        uint64_t other = s->pool[b / 8 % POOL];
        int removed = dfc_idtable_remove(s->table, other, (uint32_t)value);
        CHECK(removed == 0 || removed == 1);
        if (other == s->key_of[value] || fingerprint(other, capacity_of(s)) != fingerprint(s->key_of[value], capacity_of(s)))
            CHECK(removed == (other == s->key_of[value]));
        if (removed) {
            model_remove(s, (uint32_t)value);
            s->marks_zero = false;
        } else {
            take_picture(s, &after);
            CHECK(same_picture(&before, &after));
        }
    } else {
        uint32_t absent = b & 4 ? UINT32_MAX : free_value(s, b);
        if (b & 16) absent = (uint32_t)(capacity_of(s) + b % 5);
        if (absent < MAX_VALUES && s->live[absent]) return;
        CHECK(dfc_idtable_remove(s->table, s->pool[a % POOL], absent) == 0);
        CHECK(dfc_idtable_remove(NULL, s->pool[a % POOL], absent) == 0);
        take_picture(s, &after);
        CHECK(same_picture(&before, &after));
    }
    CHECK(s->alloc.calls == attempts);
}

static void op_update(state *s, input *in) {
    static picture before, after;
    uint8_t a = take(in), b = take(in);
    int32_t old_value = live_value(s, a);
    uint32_t new_value = free_value(s, b);
    if (b % 4 == 3) new_value = b & 4 ? UINT32_MAX : (uint32_t)(capacity_of(s) - 2 + b % 3);
    if (new_value < MAX_VALUES && s->live[new_value]) return;
    take_picture(s, &before);
    long attempts = s->alloc.calls;
    int result;
    bool expect;
    if (old_value >= 0 && b % 8 != 7) {
        result = dfc_idtable_update(s->table, s->key_of[old_value], (uint32_t)old_value, new_value);
        expect = value_fits(s, new_value);
    } else {
        uint32_t absent = b & 16 ? UINT32_MAX : free_value(s, (uint8_t)(b + 1));
        if (absent < MAX_VALUES && s->live[absent]) return;
        if (absent == new_value) return;
        result = dfc_idtable_update(s->table, s->pool[a % POOL], absent, new_value);
        expect = false;
    }
    CHECK(result == (expect ? 1 : 0));
    CHECK(s->alloc.calls == attempts);
    if (result) {
        CHECK(new_value < MAX_VALUES);
        uint64_t key = s->key_of[old_value];
        model_remove(s, (uint32_t)old_value);
        model_add(s, key, new_value);
        CHECK(dfc_idtable_sizeof(s->table) == before.bytes);
    } else {
        take_picture(s, &after);
        CHECK(same_picture(&before, &after));
    }
}

/* Every value + shift (or - shift), in the order the contract asks: the last first when values
 * grow, the first first when they shrink, so values stay distinct at every step. */
static void op_renumber(state *s, input *in) {
    uint8_t a = take(in);
    uint32_t shift = 1 + a % 3;
    bool grow = a & 4;
    size_t top = max_value_plus_one(s);
    if (s->n == 0) return;
    if (grow && top + shift > HONEST_VALUES) return;
    if (grow) {
        for (size_t v = top; v-- > 0;) {
            if (!s->live[v]) continue;
            uint64_t key = s->key_of[v];
            int expected = value_fits(s, v + shift) ? 1 : 0;
            CHECK(dfc_idtable_update(s->table, key, (uint32_t)v, (uint32_t)(v + shift)) == expected);
            if (!expected) return;
            model_remove(s, (uint32_t)v);
            model_add(s, key, (uint32_t)(v + shift));
        }
    } else {
        for (size_t v = 0; v < top; v++) {
            if (!s->live[v]) continue;
            if (v < shift || s->live[v - shift]) continue;
            uint64_t key = s->key_of[v];
            CHECK(dfc_idtable_update(s->table, key, (uint32_t)v, (uint32_t)(v - shift)) == 1);
            model_remove(s, (uint32_t)v);
            model_add(s, key, (uint32_t)(v - shift));
        }
    }
}

static void op_copy(state *s, input *in) {
    static picture before, copied;
    uint8_t a = take(in);
    take_picture(s, &before);
    long live = s->alloc.live;
    if (a & 1) {
        /* a failing first or second allocation: NULL, nothing leaked */
        size_t failing = 1 + (a >> 1) % 2;
        s->alloc.fail_at = s->alloc.calls + (long)failing;
        dfc_idtable *copy = dfc_idtable_copy(s->table, &s->allocator);
        CHECK((copy == NULL) == (failing == 1 || capacity_of(s) > 0));
        dfc_idtable_free(copy);
        s->alloc.fail_at = 0;
        CHECK(s->alloc.live == live);
        CHECK(dfc_idtable_copy(NULL, &s->allocator) == NULL);
        return;
    }
    dfc_idtable *copy = dfc_idtable_copy(s->table, a & 2 ? NULL : &s->allocator);
    CHECK(copy != NULL);
    state shadow = *s;
    shadow.table = copy;
    take_picture(&shadow, &copied);
    CHECK(same_picture(&before, &copied)); /* same entries, same capacity, same order */
    if (a & 4 || (a & 2)) {
        dfc_idtable_free(copy); /* the original goes on; a copy by malloc is dropped */
    } else {
        dfc_idtable_free(s->table); /* the copy goes on */
        s->table = copy;
    }
}

static void op_clear(state *s) {
    size_t bytes = dfc_idtable_sizeof(s->table);
    dfc_idtable_clear(s->table);
    CHECK(dfc_idtable_sizeof(s->table) == bytes);
    memset(s->live, 0, sizeof(s->live));
    s->n = 0;
    s->marks_zero = true;
    s->budget = s->last_reserved;
}

static void op_find_edges(state *s, input *in) {
    static picture before, after;
    uint8_t a = take(in);
    uint64_t key = s->pool[a % POOL];
    take_picture(s, &before);
    size_t cursor = SIZE_MAX;
    CHECK(dfc_idtable_find(s->table, key, &cursor) == DFC_NOT_FOUND);
    cursor = 0;
    CHECK(dfc_idtable_find(NULL, key, &cursor) == DFC_NOT_FOUND);
    CHECK(dfc_idtable_find(s->table, key, NULL) == DFC_NOT_FOUND);
    /* a cursor already past the last candidate stays there */
    int64_t list[MAX_CANDIDATES];
    size_t found = list_candidates(s->table, key, list);
    cursor = 0;
    for (size_t i = 0; i < found; i++) CHECK(dfc_idtable_find(s->table, key, &cursor) == list[i]);
    CHECK(dfc_idtable_find(s->table, key, &cursor) == DFC_NOT_FOUND);
    CHECK(dfc_idtable_find(s->table, key, &cursor) == DFC_NOT_FOUND);
    dfc_idtable_prefetch(s->table, key);
    dfc_idtable_prefetch(NULL, key);
    take_picture(s, &after);
    CHECK(same_picture(&before, &after));
}

static void op_null_table(state *s, input *in) {
    uint8_t a = take(in);
    uint64_t key = s->pool[a % POOL];
    uint64_t keys[1] = {key};
    uint8_t conflicts[1] = {7};
    size_t inserted = 99;
    CHECK(dfc_idtable_reserve(NULL, a, keys, 1) == DFC_ERR_NULL_ARGUMENT);
    CHECK(dfc_idtable_insert(NULL, key, a) == DFC_ERR_NULL_ARGUMENT);
    CHECK(dfc_idtable_insert_batch(NULL, keys, 1, 0, conflicts, &inserted) == DFC_ERR_NULL_ARGUMENT);
    CHECK(conflicts[0] == 7 && inserted == 99);
    CHECK(dfc_idtable_update(NULL, key, 0, 1) == 0);
    CHECK(dfc_idtable_count(NULL) == 0 && dfc_idtable_sizeof(NULL) == 0);
    dfc_idtable_clear(NULL);
    dfc_idtable_free(NULL);
    (void)s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static state s;
    memset(&s, 0, sizeof(s));
    harness_fatal = 1;
    s.alloc.limit = (size_t)1 << 20;
    s.allocator.allocate = test_allocate;
    s.allocator.release = test_release;
    s.allocator.user_data = &s.alloc;
    input in = {data, size};

    /* The key pool. */
    const uint64_t inverse = spread_inverse();
    uint8_t h0 = take(&in), h1 = take(&in), h2 = take(&in);
    uint32_t high = (uint32_t)h0 << 24 | (uint32_t)h1 << 8 | h2; /* h0 = 0xFF: runs wrap past the end */
    for (size_t k = 0; k < 4; k++) s.pool[k] = take(&in) % 8 + k * (h2 & 1 ? UINT64_C(1) << 32 : 8);
    for (size_t j = 0; j < 6; j++) s.pool[4 + j] = inverse * ((uint64_t)high << 32 | j);          /* home + fp */
    for (size_t j = 0; j < 2; j++) s.pool[10 + j] = inverse * ((uint64_t)(high ^ 1) << 32 | j);   /* home only */
    for (size_t j = 0; j < 2; j++) s.pool[12 + j] = inverse * ((uint64_t)(high + (1u << 26)) << 32 | j); /* next */
    s.pool[14] = UINT64_MAX;
    s.pool[15] = inverse * ((uint64_t)(high ^ 0x80000000u) << 32); /* the far side */

    dfc_idtable *probe = dfc_idtable_create(&s.allocator);
    CHECK(probe != NULL);
    s.base_size = dfc_idtable_sizeof(probe);
    s.table = probe;
    model_reset(&s);
    CHECK(dfc_idtable_count(s.table) == 0);

    for (size_t step = 0; step < MAX_STEPS && in.size > 0; step++) {
        uint8_t op = take(&in);
        switch (op % 20) {
        case 0: case 1: case 2: op_reserve_honest(&s, &in); break;
        case 3: op_reserve_short_keys(&s, &in); break;
        case 4: op_reserve_null_keys(&s, &in); break;
        case 5: op_reserve_oversized(&s, &in); break;
        case 6: case 7: case 8: op_insert(&s, &in); break;
        case 9: case 10: op_insert_batch(&s, &in); break;
        case 11: case 12: op_remove(&s, &in); break;
        case 13: op_update(&s, &in); break;
        case 14: op_renumber(&s, &in); break;
        case 15: op_copy(&s, &in); break;
        case 16: op_clear(&s); break;
        case 17: op_find_edges(&s, &in); break;
        case 18: op_null_table(&s, &in); break;
        default: new_table(&s, take(&in) & 1); break;
        }
        verify(&s);
    }
    dfc_idtable_free(s.table);
    CHECK(s.alloc.live == 0); /* every allocation released */
    return 0;
}
