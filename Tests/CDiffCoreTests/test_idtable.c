/* The identifier table (dfc_idtable.c): against a model, at 10^5 entries, capacities and
 * wrap-around, fingerprint collisions, batches and copies, removal marks. */
#include "dfc.h"
#include "harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The multiplier of the table's Fibonacci hash and its inverse mod 2^64 (Newton's iteration:
 * each step doubles the correct low bits), to make keys with chosen products. */
static const uint64_t golden = UINT64_C(0x9E3779B97F4A7C15);
static uint64_t golden_inverse(void) {
    uint64_t inverse = golden;
    for (int step = 0; step < 6; step++) inverse *= 2 - golden * inverse;
    return inverse;
}

/* The candidates the table gives for `key`, as a bit set over values < 64 * words (a value
 * past that, or a candidate twice, fails the check). */
static void idtable_candidates(const dfc_idtable *table, uint64_t key, uint64_t *set, size_t words) {
    memset(set, 0, words * sizeof(uint64_t));
    size_t cursor = 0;
    int64_t value;
    while ((value = dfc_idtable_find(table, key, &cursor)) != DFC_NOT_FOUND) {
        CHECK(value >= 0 && (size_t)value < 64 * words);
        if (value < 0 || (size_t)value >= 64 * words) return;
        CHECK((set[value / 64] >> (value % 64) & 1) == 0);
        set[value / 64] |= UINT64_C(1) << (value % 64);
    }
}

/* A random program against a model that keeps keys by value, as a snapshot does. Eight keys
 * k << 40 share runs of slots; their products differ in bits 40..42, inside every fingerprint
 * up to 2^21 slots, so each key's candidates are exactly its own entries. Inserts that find no
 * room (or a value too large for the slots) reserve and retry; reserves rebuild by walking
 * the slots (key_count above the entries) or in order (after renumbering to 0 ..< count). */
void test_idtable_against_model(void) {
    rng_state = 11;
    enum { OPS = 30000, KEYS = 8, VALUES = 512, WORDS = VALUES / 64 };
    static uint64_t keys[VALUES]; /* keys[v]: the key of value v while v is live */
    static bool live[VALUES];
    memset(keys, 0, sizeof(keys));
    memset(live, 0, sizeof(live));
    size_t count = 0, no_room = 0, rebuilt_in_order = 0;
    dfc_idtable *table = dfc_idtable_create(NULL);
    CHECK(table != NULL);
    const size_t header = dfc_idtable_sizeof(table);
    CHECK_EQ_INT(dfc_idtable_insert(table, 0, 0), DFC_ERR_NO_ROOM); /* never reserved: no slots */
    for (int op = 0; op < OPS; op++) {
        const uint64_t key = (uint64_t)rng_below(KEYS) << 40;
        /* values near the count, so that key arrays (and tables) stay as small as the entries */
        const size_t span_values = 2 * count + 16 < VALUES ? 2 * count + 16 : VALUES;
        uint32_t value = 0; /* mostly the lowest free value, as a snapshot fills its array */
        while (value < VALUES - 1 && live[value]) value++;
        if (rng_below(4) == 0) value = (uint32_t)rng_below(span_values);
        size_t span = value + 1; /* a key_count above every live value and `value` */
        for (size_t v = span; v < VALUES; v++)
            if (live[v]) span = v + 1;
        /* phases of growth and of shrinking, 2,000 operations each */
        const bool growing = (op / 2000) % 2 == 0;
        if (op % 4000 == 0 && op > 0) { /* a tight table again (an empty one takes NULL keys) */
            dfc_idtable_free(table);
            table = dfc_idtable_create(NULL);
            CHECK_EQ_INT(dfc_idtable_reserve(table, count, NULL, span), DFC_OK);
            for (uint32_t v = 0; v < VALUES; v++)
                if (live[v]) CHECK_EQ_INT(dfc_idtable_insert(table, keys[v], v), DFC_OK);
        }
        int choice = (int)rng_below(10);
        if (!growing && (choice == 2 || choice == 3)) choice = 4; /* shrinking: removes win */
        switch (choice) {
        case 0:
        case 1:
        case 2:
        case 3: { /* insert under a free value */
            if (live[value] || count + 32 >= VALUES) break;
            /* half the time as a batch of one, as a snapshot appends: a conflict (the key, or
             * its fingerprint, is there already) is confirmed and inserted by the caller */
            const bool batch = rng_below(2) == 0;
            uint8_t conflict = 9;
            int status = batch ? dfc_idtable_insert_batch(table, &key, 1, value, &conflict, NULL)
                               : dfc_idtable_insert(table, key, value);
            if (status == DFC_ERR_NO_ROOM || status == DFC_ERR_TOO_LARGE) {
                no_room++;
                CHECK_EQ_INT(dfc_idtable_count(table), count);
                CHECK_EQ_INT(conflict, 9);
                CHECK_EQ_INT(dfc_idtable_reserve(table, count + 1, keys, span), DFC_OK);
                status = batch ? dfc_idtable_insert_batch(table, &key, 1, value, &conflict, NULL)
                               : dfc_idtable_insert(table, key, value);
            }
            CHECK_EQ_INT(status, DFC_OK);
            if (batch && conflict == 1) CHECK_EQ_INT(dfc_idtable_insert(table, key, value), DFC_OK);
            keys[value] = key;
            live[value] = true;
            count++;
            break;
        }
        case 4:
        case 5: /* remove: 1 for a live value under its key, 0 for a free one */
            CHECK_EQ_INT(dfc_idtable_remove(table, live[value] ? keys[value] : key, value), live[value] ? 1 : 0);
            if (live[value]) count--;
            live[value] = false;
            break;
        case 6: { /* update a live value to a free one */
            uint32_t to = (uint32_t)rng_below(span_values);
            if (!live[value] || live[to]) break;
            int updated = dfc_idtable_update(table, keys[value], value, to);
            if (updated == 0) { /* `to` too large for the slots: reserve room for values < VALUES */
                CHECK_EQ_INT(dfc_idtable_reserve(table, count, keys, span > to ? span : to + 1), DFC_OK);
                updated = dfc_idtable_update(table, keys[value], value, to);
            }
            CHECK_EQ_INT(updated, 1);
            keys[to] = keys[value];
            live[to] = true;
            live[value] = false;
            break;
        }
        case 7: { /* reserve, now and then: grow by walking the slots, or renumber 0 ..< count and grow in order */
            if (rng_below(4) != 0) break;
            const size_t slots = (dfc_idtable_sizeof(table) - header) / 4;
            if (rng_below(2) == 0) {
                CHECK_EQ_INT(dfc_idtable_reserve(table, count + rng_below(4), keys, span), DFC_OK);
                break;
            }
            /* Ascending, each entry moves down to the next dense value, which is free by then. */
            uint32_t next = 0;
            for (uint32_t v = 0; v < VALUES; v++) {
                if (!live[v]) continue;
                if (v != next) {
                    CHECK_EQ_INT(dfc_idtable_update(table, keys[v], v, next), 1);
                    keys[next] = keys[v];
                    live[next] = true;
                    live[v] = false;
                }
                next++;
            }
            CHECK_EQ_INT(next, count);
            size_t size = dfc_idtable_sizeof(table);
            /* past the limit while the table is small (growth quadruples such a table, so
             * "small" reaches past the model's 512 values): a rebuild in order (later, when
             * marks need it) */
            CHECK_EQ_INT(dfc_idtable_reserve(table, slots < 2048 ? slots : count + 1, keys, count), DFC_OK);
            if (dfc_idtable_sizeof(table) != size) rebuilt_in_order++;
            break;
        }
        case 8: /* a copy replaces the table, now and then */
            if (rng_below(8) != 0) break;
            {
            dfc_idtable *copy = dfc_idtable_copy(table, NULL);
            CHECK(copy != NULL);
            if (copy == NULL) break;
            CHECK_EQ_INT(dfc_idtable_count(copy), count);
            CHECK_EQ_INT(dfc_idtable_sizeof(copy), dfc_idtable_sizeof(table));
            dfc_idtable_free(table);
            table = copy;
            }
            /* fall through */
        default: /* every key's candidates are exactly the model's entries for it */
            for (uint64_t k = 0; k < KEYS; k++) {
                uint64_t found[WORDS], expected[WORDS] = {0};
                idtable_candidates(table, k << 40, found, WORDS);
                for (uint32_t v = 0; v < VALUES; v++)
                    if (live[v] && keys[v] == k << 40) expected[v / 64] |= UINT64_C(1) << (v % 64);
                CHECK(memcmp(found, expected, sizeof(found)) == 0);
            }
        }
        CHECK_EQ_INT(dfc_idtable_count(table), count);
    }
    printf("     idtable model: %zu inserts without room, %zu in-order rebuilds\n", no_room, rebuilt_in_order);
    CHECK(no_room > 0 && rebuilt_in_order > 0); /* both paths ran */
    dfc_idtable_clear(table);
    CHECK_EQ_INT(dfc_idtable_count(table), 0);
    size_t cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, 0, &cursor), DFC_NOT_FOUND);
    CHECK(dfc_idtable_sizeof(table) > 0);
    dfc_idtable_free(table);
    dfc_idtable_free(NULL);
    CHECK_EQ_INT(dfc_idtable_insert(NULL, 1, 1), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_idtable_find(NULL, 1, &cursor), DFC_NOT_FOUND);
    CHECK_EQ_INT(dfc_idtable_remove(NULL, 1, 1), 0);
    CHECK_EQ_INT(dfc_idtable_update(NULL, 1, 1, 2), 0);
    CHECK_EQ_INT(dfc_idtable_reserve(NULL, 1, NULL, 0), DFC_ERR_NULL_ARGUMENT);
}

void test_idtable_batch_and_copy(void) {
    dfc_idtable *table = dfc_idtable_create(NULL);
    uint64_t keys[] = {10, 50, 20, 10, 30};
    uint8_t conflicts[5] = {7, 7, 7, 7, 7};
    size_t inserted = 9;
    /* never reserved: no room, conflicts untouched */
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, keys, 5, 100, conflicts, &inserted), DFC_ERR_NO_ROOM);
    CHECK(conflicts[0] == 7 && inserted == 9);
    CHECK_EQ_INT(dfc_idtable_reserve(table, 8, NULL, 0), DFC_OK); /* 16 slots, 4 value bits */
    CHECK_EQ_INT(dfc_idtable_insert(table, 50, 7), DFC_OK);
    /* values 100.. do not fit 4 bits; reserving their count makes them fit */
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, keys, 5, 100, conflicts, &inserted), DFC_ERR_TOO_LARGE);
    uint64_t by_value[103] = {0};
    by_value[7] = 50;
    CHECK_EQ_INT(dfc_idtable_reserve(table, 4, by_value, 103), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, keys, 5, 100, conflicts, &inserted), DFC_OK);
    CHECK_EQ_INT(inserted, 3);
    const uint8_t expected[] = {0, 1, 0, 1, 0};
    CHECK(memcmp(conflicts, expected, 5) == 0);
    size_t cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, 10, &cursor), 100);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, 20, &cursor), 101);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, 30, &cursor), 102);
    CHECK_EQ_INT(dfc_idtable_count(table), 4);
    dfc_idtable *copy = dfc_idtable_copy(table, NULL);
    CHECK_EQ_INT(dfc_idtable_remove(table, 30, 102), 1);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(copy, 30, &cursor), 102);
    CHECK_EQ_INT(dfc_idtable_count(copy), 4);
    CHECK(dfc_idtable_copy(NULL, NULL) == NULL);
    CHECK_EQ_INT(dfc_idtable_insert_batch(NULL, keys, 5, 0, conflicts, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, NULL, 5, 0, conflicts, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, keys, 5, 0, NULL, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, keys, 5, (uint32_t)DFC_MAX_COUNT - 2, conflicts, NULL), DFC_ERR_TOO_LARGE);
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, NULL, 0, 0, NULL, &inserted), DFC_OK);
    CHECK_EQ_INT(inserted, 0);
    /* a batch that would pass the limit: no room, table unchanged */
    uint64_t many[200];
    uint8_t many_conflicts[200];
    for (uint64_t i = 0; i < 200; i++) many[i] = 5000 + i;
    size_t entries = dfc_idtable_count(table); /* 3 of 192 */
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, many, 190, 0, many_conflicts, &inserted), DFC_ERR_NO_ROOM);
    CHECK_EQ_INT(dfc_idtable_count(table), entries);
    dfc_idtable_free(table);
    dfc_idtable_free(copy);
}

/* 10^5 entries: half removed, then the table grows by walking its slots (key_count above the
 * count) and every odd entry is still found; a dense 0 ..< n table grows reading keys in order. */
void test_idtable_large(void) {
    enum { N = 100000 };
    static uint64_t keys[N];
    for (uint32_t i = 0; i < N; i++) keys[i] = (uint64_t)i * 7919;
    dfc_idtable *table = dfc_idtable_create(NULL);
    CHECK_EQ_INT(dfc_idtable_reserve(table, N, NULL, 0), DFC_OK);
    for (uint32_t i = 0; i < N; i++) CHECK_EQ_INT(dfc_idtable_insert(table, keys[i], i), DFC_OK);
    for (uint32_t i = 0; i < N; i += 97) {
        size_t cursor = 0;
        CHECK_EQ_INT(dfc_idtable_find(table, keys[i], &cursor), i);
        CHECK_EQ_INT(dfc_idtable_find(table, keys[i], &cursor), DFC_NOT_FOUND);
    }
    for (uint32_t i = 0; i < N; i += 2) CHECK_EQ_INT(dfc_idtable_remove(table, keys[i], i), 1);
    CHECK_EQ_INT(dfc_idtable_count(table), N / 2);
    const size_t size = dfc_idtable_sizeof(table);
    CHECK_EQ_INT(dfc_idtable_reserve(table, 2 * N, keys, N), DFC_OK);
    CHECK(dfc_idtable_sizeof(table) > size);
    CHECK_EQ_INT(dfc_idtable_count(table), N / 2);
    for (uint32_t i = 0; i < N; i++) {
        size_t cursor = 0;
        CHECK_EQ_INT(dfc_idtable_find(table, keys[i], &cursor), i % 2 ? (int64_t)i : DFC_NOT_FOUND);
    }
    CHECK_EQ_INT(dfc_idtable_reserve(table, DFC_MAX_COUNT + 1, keys, N), DFC_ERR_TOO_LARGE);
    CHECK_EQ_INT(dfc_idtable_reserve(table, 1, keys, (size_t)DFC_MAX_COUNT + 1), DFC_ERR_TOO_LARGE);
    dfc_idtable_free(table);

    table = dfc_idtable_create(NULL);
    CHECK_EQ_INT(dfc_idtable_reserve(table, N, NULL, 0), DFC_OK);
    for (uint32_t i = 0; i < N; i++) CHECK_EQ_INT(dfc_idtable_insert(table, keys[i], i), DFC_OK);
    const size_t dense = dfc_idtable_sizeof(table); /* 262144 slots: limit 196608 */
    CHECK_EQ_INT(dfc_idtable_reserve(table, 2 * N, keys, N), DFC_OK); /* count == key_count: in order */
    CHECK(dfc_idtable_sizeof(table) > dense);
    CHECK_EQ_INT(dfc_idtable_count(table), N);
    for (uint32_t i = 0; i < N; i++) {
        size_t cursor = 0;
        CHECK_EQ_INT(dfc_idtable_find(table, keys[i], &cursor), i);
    }
    dfc_idtable_free(table);
}

/* Slot counts are powers of two at a load of at most 3/4, 4 bytes each; and the probe
 * sequence wraps at the end: keys whose products lie in the top sixteenth (home slots at the
 * end) fill the last slots and continue at the first; every one is found, removing every
 * other one (marks across the wrap) keeps the rest findable, the freed values go back in, and
 * removing all of them leaves no mark behind. */
void test_idtable_capacities_and_wrap(void) {
    const uint64_t inverse = golden_inverse();
    dfc_idtable *empty = dfc_idtable_create(NULL);
    const size_t header = dfc_idtable_sizeof(empty); /* no slots yet */
    dfc_idtable_free(empty);
    const struct { size_t count, slots; } sizes[] = {
        {1, 16}, {12, 16}, {13, 32}, {24, 32}, {25, 64}, {786432, 1048576}, {786433, 2097152}, {1000000, 2097152},
    };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        dfc_idtable *table = dfc_idtable_create(NULL);
        CHECK_EQ_INT(dfc_idtable_reserve(table, sizes[i].count, NULL, 0), DFC_OK);
        CHECK_EQ_INT(dfc_idtable_sizeof(table), header + sizes[i].slots * 4);
        dfc_idtable_free(table);
    }
    for (size_t count = 10; count <= 48; count++) {
        dfc_idtable *table = dfc_idtable_create(NULL);
        CHECK_EQ_INT(dfc_idtable_reserve(table, count, NULL, 0), DFC_OK); /* 16, 32 or 64 slots */
        const size_t size = dfc_idtable_sizeof(table);
        uint64_t keys[48];
        for (size_t k = 0; k < count; k++) {
            /* product (0xF0000000 + k * 0x00100000) << 32: homes in the table's last sixteenth */
            const uint64_t spread = ((UINT64_C(0xF0000000) + (uint64_t)k * UINT64_C(0x00100000)) << 32) | 7;
            keys[k] = spread * inverse;
            CHECK((keys[k] * golden) >> 60 == 0xF);
            CHECK_EQ_INT(dfc_idtable_insert(table, keys[k], (uint32_t)k), DFC_OK);
        }
        for (size_t k = 0; k < count; k++) {
            size_t cursor = 0;
            CHECK_EQ_INT(dfc_idtable_find(table, keys[k], &cursor), (int64_t)k);
        }
        for (size_t k = 0; k < count; k += 2) CHECK_EQ_INT(dfc_idtable_remove(table, keys[k], (uint32_t)k), 1);
        for (size_t k = 0; k < count; k++) {
            size_t cursor = 0;
            CHECK_EQ_INT(dfc_idtable_find(table, keys[k], &cursor), k % 2 ? (int64_t)k : DFC_NOT_FOUND);
        }
        CHECK_EQ_INT(dfc_idtable_count(table), count / 2);
        /* The removed ones back (reserving as needed, in order: values 0 ..< count at the end). */
        for (size_t k = 0; k < count; k += 2) {
            int status = dfc_idtable_insert(table, keys[k], (uint32_t)k);
            if (status == DFC_ERR_NO_ROOM) {
                CHECK_EQ_INT(dfc_idtable_reserve(table, dfc_idtable_count(table) + 1, keys, count), DFC_OK);
                status = dfc_idtable_insert(table, keys[k], (uint32_t)k);
            }
            CHECK_EQ_INT(status, DFC_OK);
        }
        for (size_t k = 0; k < count; k++) { /* grown, the table may show k and k +- 32 together */
            uint64_t found;
            idtable_candidates(table, keys[k], &found, 1);
            CHECK((found >> k & 1) == 1);
        }
        /* All removed, odd ones first: no mark is left, the table takes its limit again unrebuilt. */
        for (size_t k = 1; k < count; k += 2) CHECK_EQ_INT(dfc_idtable_remove(table, keys[k], (uint32_t)k), 1);
        for (size_t k = 0; k < count; k += 2) CHECK_EQ_INT(dfc_idtable_remove(table, keys[k], (uint32_t)k), 1);
        CHECK_EQ_INT(dfc_idtable_count(table), 0);
        const size_t limit = (dfc_idtable_sizeof(table) - header) / 4 / 4 * 3;
        for (size_t k = 0; k < limit; k++) {
            const uint64_t key = (((UINT64_C(0xF0000000) + (uint64_t)k * UINT64_C(0x00010000)) << 32) | 9) * inverse;
            CHECK_EQ_INT(dfc_idtable_insert(table, key, (uint32_t)k), DFC_OK);
        }
        CHECK_EQ_INT(dfc_idtable_insert(table, 1, (uint32_t)limit), DFC_ERR_NO_ROOM);
        CHECK(dfc_idtable_sizeof(table) >= size);
        dfc_idtable_free(table);
    }
}

/* How a table grows when its entries pass the limit (3/4 of its slots): fourfold while that
 * stays within 65,536 slots, twice beyond; every entry is still found after each growth
 * (rehashed from the caller's keys). */
void test_idtable_growth_steps(void) {
    dfc_idtable *empty = dfc_idtable_create(NULL);
    const size_t header = dfc_idtable_sizeof(empty);
    dfc_idtable_free(empty);
    enum { N = 40000 };
    static uint64_t keys[N];
    rng_state = 11;
    for (size_t v = 0; v < N; v++) keys[v] = rng_next();
    dfc_idtable *table = dfc_idtable_create(NULL);
    /* the count reserved (past the limit when the slots change: the table then grows, holding
     * the previous step's entries) and the slots the table then has */
    const struct { size_t count, slots; } steps[] = {
        {100, 256}, {193, 1024}, {769, 4096}, {3073, 16384}, {12289, 65536}, {39000, 65536}, {49153, 131072},
    };
    size_t count = 0;
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        const size_t target = steps[i].count < N ? steps[i].count : N;
        CHECK_EQ_INT(dfc_idtable_reserve(table, steps[i].count, keys, count), DFC_OK);
        CHECK_EQ_INT(dfc_idtable_sizeof(table), header + steps[i].slots * 4);
        for (; count < target; count++) CHECK_EQ_INT(dfc_idtable_insert(table, keys[count], (uint32_t)count), DFC_OK);
    }
    for (size_t v = 0; v < count; v++) {
        size_t cursor = 0;
        int64_t found;
        while ((found = dfc_idtable_find(table, keys[v], &cursor)) != DFC_NOT_FOUND && found != (int64_t)v) {}
        CHECK_EQ_INT(found, (int64_t)v);
    }
    dfc_idtable_free(table);
}

/* A batch into a table without removal marks either walks each key's run slot by slot or,
 * where the CPU can (SSE2) and the batch before it passed many occupied slots, tests the
 * run's first 4 slots at once, walking only past 4 slots, past the table's end or past a
 * shared fingerprint. Either way each key must go to the first empty slot of its run, as
 * one-by-one inserts put it. The keys go in as two batches (the first one's runs pick the
 * second's way; a first batch of 5 to 8 random keys sets the grouped test for about a third of
 * the rounds), into 16-slot tables filled to 11 entries (runs pass 4 slots and wrap): the
 * second batch's last key, a first batch key again, is refused and the others are not;
 * every key is found with its value, and the run of each key lists the same values in the
 * same order as in the table built one by one. Then runs made on purpose: keys with one
 * home near the end (the walk wraps), and keys with one home in pairs sharing a fingerprint
 * (distinct keys: the batch's own keys tell them apart). */
static void idtable_check_batch_like_one_by_one(const uint64_t *keys, size_t count, size_t first_batch) {
    CHECK(first_batch > 0 && first_batch < count && count < 16);
    dfc_idtable *batched = dfc_idtable_create(NULL), *single = dfc_idtable_create(NULL);
    CHECK_EQ_INT(dfc_idtable_reserve(batched, count, NULL, 0), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_reserve(single, count, NULL, 0), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_sizeof(batched), dfc_idtable_sizeof(single));
    uint8_t conflicts[16];
    size_t inserted = 0;
    CHECK_EQ_INT(dfc_idtable_insert_batch_confirmed(batched, keys, first_batch, 0, NULL, 0, conflicts, &inserted), DFC_OK);
    CHECK_EQ_INT(inserted, first_batch);
    /* The second batch ends with a key of the first again: refused, the others inserted. */
    uint64_t second[16];
    const size_t second_count = count - first_batch + 1;
    memcpy(second, keys + first_batch, (count - first_batch) * sizeof(uint64_t));
    second[second_count - 1] = keys[first_batch / 2];
    CHECK_EQ_INT(dfc_idtable_insert_batch_confirmed(batched, second, second_count, (uint32_t)first_batch, keys,
                                                    first_batch, conflicts, &inserted),
                 DFC_OK);
    CHECK_EQ_INT(inserted, count - first_batch);
    for (size_t j = 0; j < second_count; j++) CHECK_EQ_INT(conflicts[j], j + 1 == second_count ? 1 : 0);
    for (size_t v = 0; v < count; v++) CHECK_EQ_INT(dfc_idtable_insert(single, keys[v], (uint32_t)v), DFC_OK);
    for (size_t v = 0; v < count; v++) {
        size_t batched_cursor = 0, single_cursor = 0;
        int64_t from_batch, from_single;
        bool found = false;
        do {
            from_batch = dfc_idtable_find(batched, keys[v], &batched_cursor);
            from_single = dfc_idtable_find(single, keys[v], &single_cursor);
            CHECK_EQ_INT(from_batch, from_single);
            if (from_batch == (int64_t)v) found = true;
        } while (from_batch != DFC_NOT_FOUND && from_batch == from_single);
        CHECK(found);
    }
    dfc_idtable_free(batched);
    dfc_idtable_free(single);
}

void test_idtable_batch_runs_like_one_by_one(void) {
    enum { FULL = 11 }; /* and one key again: the limit of a 16-slot table */
    uint64_t keys[FULL];
    rng_state = 23;
    for (int round = 0; round < 4000; round++) {
        for (size_t v = 0; v < FULL; v++) keys[v] = rng_next();
        idtable_check_batch_like_one_by_one(keys, FULL, 5 + (size_t)round % 4);
    }
    /* Chosen products: home in the top 4 bits (16 slots), fingerprint in bits 32..59. The
     * first batch's 4 keys share home 1, passing 6 slots: the second batch is tested 4 slots
     * at a time. */
    const uint64_t inverse = golden_inverse();
    for (size_t v = 0; v < 4; v++) keys[v] = ((UINT64_C(1) << 60) | ((uint64_t)(v + 100) << 32) | v) * inverse;
    for (size_t v = 4; v < FULL; v++) keys[v] = ((UINT64_C(13) << 60) | ((uint64_t)(v + 1) << 32) | v) * inverse;
    idtable_check_batch_like_one_by_one(keys, FULL, 4);
    for (size_t v = 4; v < FULL; v++) keys[v] = ((UINT64_C(6) << 60) | ((uint64_t)(v / 2 + 1) << 32) | v) * inverse;
    idtable_check_batch_like_one_by_one(keys, FULL, 4);
}

/* Keys whose products differ only in their low bits: the table keeps bits 32 and up of a
 * key's Fibonacci product, so key + m * inverse(golden), whose product is key's plus m, shares
 * key's home and fingerprint for small m. Every one of them must come back as a candidate,
 * remove/update must touch exactly the named entry, and growth (rehashing from the caller's
 * keys, by slot walk or in order) keeps them all. */
void test_idtable_fingerprint_collisions(void) {
    const uint64_t inverse = golden_inverse();
    CHECK(golden * inverse == 1);
    const uint64_t base = 12345; /* base * golden has a low half far from 2^32 - 8: no carry */
    CHECK((uint32_t)(base * golden) < UINT32_MAX - 8);
    uint64_t keys[6];
    for (int m = 0; m < 6; m++) keys[m] = base + (uint64_t)m * inverse;
    for (int m = 1; m < 6; m++) CHECK((keys[m] * golden) >> 32 == (keys[0] * golden) >> 32 && keys[m] != keys[0]);

    uint64_t by_value[32] = {0}; /* the caller's key array: by_value[v] for every live v */
    dfc_idtable *table = dfc_idtable_create(NULL);
    CHECK_EQ_INT(dfc_idtable_reserve(table, 6, NULL, 32), DFC_OK); /* values < 32 fit */
    for (uint32_t m = 0; m < 4; m++) {
        CHECK_EQ_INT(dfc_idtable_insert(table, keys[m], 10 + m), DFC_OK);
        by_value[10 + m] = keys[m];
    }
    /* A key never inserted still sees the four candidates; the caller's key check rejects them. */
    size_t cursor = 0, seen = 0;
    int64_t value;
    while ((value = dfc_idtable_find(table, keys[5], &cursor)) != DFC_NOT_FOUND) {
        CHECK(value >= 10 && value < 14);
        seen |= (size_t)1 << (value - 10);
    }
    CHECK_EQ_INT(seen, 15);
    /* A batch of a fifth sharing key and a fresh key: the first is a conflict to confirm. */
    uint64_t batch[2] = {keys[4], 999};
    uint8_t conflicts[2] = {9, 9};
    size_t inserted = 0;
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, batch, 2, 20, conflicts, &inserted), DFC_OK);
    CHECK_EQ_INT(inserted, 1);
    CHECK_EQ_INT(conflicts[0], 1);
    CHECK_EQ_INT(conflicts[1], 0);
    by_value[20] = 999;
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, 999, &cursor), 20);
    /* Remove and update name one entry by fingerprint and value, whatever the run order. */
    CHECK_EQ_INT(dfc_idtable_remove(table, keys[1], 11), 1);
    CHECK_EQ_INT(dfc_idtable_remove(table, keys[5], 11), 0); /* gone, under any key of that fingerprint */
    CHECK_EQ_INT(dfc_idtable_remove(table, 999, 12), 0);     /* 12 is there, under another fingerprint */
    CHECK_EQ_INT(dfc_idtable_update(table, keys[3], 13, 30), 1);
    CHECK_EQ_INT(dfc_idtable_update(table, keys[3], 13, 31), 0);
    by_value[30] = keys[3];
    cursor = 0;
    seen = 0;
    while ((value = dfc_idtable_find(table, keys[0], &cursor)) != DFC_NOT_FOUND) seen += (size_t)value;
    CHECK_EQ_INT(seen, 10 + 12 + 30);
    CHECK_EQ_INT(dfc_idtable_count(table), 4);
    /* 11's slot, mid-run, holds a removal mark. A batch key with the same home and the next
     * fingerprint (product + 2^32) walks the whole run, finds no conflict, and takes the mark;
     * a repeat of keys[0] in the same batch conflicts, and the mark is not taken twice. */
    const uint64_t neighbour = base + (UINT64_C(1) << 32) * inverse;
    CHECK((neighbour * golden) >> 40 == (keys[0] * golden) >> 40);
    uint64_t refill[2] = {neighbour, keys[0]};
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, refill, 2, 21, conflicts, NULL), DFC_OK);
    CHECK(conflicts[0] == 0 && conflicts[1] == 1);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, neighbour, &cursor), 21);
    CHECK_EQ_INT(dfc_idtable_count(table), 5);
    CHECK_EQ_INT(dfc_idtable_insert_batch(table, NULL, 0, 0, NULL, NULL), DFC_OK);
    by_value[21] = neighbour;
    /* Growth walks the slots and rehashes keys[value]: all entries survive it. */
    CHECK_EQ_INT(dfc_idtable_reserve(table, 5000, by_value, 31), DFC_OK);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, neighbour, &cursor), 21);
    cursor = 0;
    seen = 0;
    while ((value = dfc_idtable_find(table, keys[2], &cursor)) != DFC_NOT_FOUND) seen += (size_t)value;
    CHECK_EQ_INT(seen, 10 + 12 + 30);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, 999, &cursor), 20);
    dfc_idtable_free(table);

    /* Six colliding keys as values 0 ..< 6, grown in order: each sees all six. */
    table = dfc_idtable_create(NULL);
    CHECK_EQ_INT(dfc_idtable_reserve(table, 6, keys, 6), DFC_OK);
    for (uint32_t m = 0; m < 6; m++) CHECK_EQ_INT(dfc_idtable_insert(table, keys[m], m), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_reserve(table, 5000, keys, 6), DFC_OK);
    for (int m = 0; m < 6; m++) {
        uint64_t found;
        idtable_candidates(table, keys[m], &found, 1);
        CHECK_EQ_INT(found, 63);
    }
    dfc_idtable_free(table);
}

/* A snapshot near its table's limit that removes one entry and inserts another, over and over
 * (reserving before each insert, as a caller must), rebuilds only now and then: clearing marks
 * grows the table (4x at this size) when the entries fill more than 3/4 of its limit, so the
 * next rebuild is many cycles away. Counted by the allocator: each rebuild is one allocation. */
void test_idtable_remove_insert_cycle(void) {
    enum { N = 700, CYCLES = 10000 }; /* 1024 slots, limit 768 */
    rng_state = 5;
    static uint64_t keys[N];
    for (size_t v = 0; v < N; v++) keys[v] = rng_next();
    test_heap heap = {0}; /* counts only */
    dfc_allocator allocator = {test_allocate, test_release, &heap};
    dfc_idtable *table = dfc_idtable_create(&allocator);
    CHECK_EQ_INT(dfc_idtable_reserve(table, N, keys, N), DFC_OK);
    for (uint32_t v = 0; v < N; v++) CHECK_EQ_INT(dfc_idtable_insert(table, keys[v], v), DFC_OK);
    const long before = heap.calls;
    for (int cycle = 0; cycle < CYCLES; cycle++) {
        uint32_t v = (uint32_t)rng_below(N);
        CHECK_EQ_INT(dfc_idtable_remove(table, keys[v], v), 1);
        keys[v] = rng_next();
        CHECK_EQ_INT(dfc_idtable_reserve(table, N, keys, N), DFC_OK);
        CHECK_EQ_INT(dfc_idtable_insert(table, keys[v], v), DFC_OK);
    }
    CHECK_EQ_INT(dfc_idtable_count(table), N);
    printf("     idtable cycle: %ld rebuilds in %d remove+reserve+insert cycles, %zu bytes\n", heap.calls - before,
           CYCLES, dfc_idtable_sizeof(table));
    CHECK(heap.calls - before <= 20);
    for (uint32_t v = 0; v < N; v++) {
        size_t cursor = 0;
        int64_t found;
        while ((found = dfc_idtable_find(table, keys[v], &cursor)) != DFC_NOT_FOUND && found != v) {}
        CHECK_EQ_INT(found, v);
    }
    dfc_idtable_free(table);
    CHECK_EQ_INT(heap.live, 0);
}

/* The key whose Fibonacci product is home << (64 - bits) | fingerprint << 32 | low: it lands in
 * slot `home` of a 2^bits-slot table with that fingerprint. */
static uint64_t idtable_key_at(unsigned bits, uint64_t home, uint64_t fingerprint, uint64_t low) {
    return ((home << (64 - bits)) | (fingerprint << 32) | low) * golden_inverse();
}

/* dfc_idtable_find answers a first call from the key's home slot when that slot holds a
 * candidate, and walks the run otherwise: the home slot holding another fingerprint, a removal
 * mark, an empty slot (fingerprint 0 must not match either), and a candidate the caller
 * rejects (the next call resumes past it). */
void test_idtable_home_slot_first(void) {
    dfc_idtable *table = dfc_idtable_create(NULL);
    const size_t bare = dfc_idtable_sizeof(table);
    CHECK_EQ_INT(dfc_idtable_reserve(table, 8, NULL, 0), DFC_OK);
    const size_t capacity = (dfc_idtable_sizeof(table) - bare) / 4;
    unsigned bits = 0;
    while (((size_t)1 << bits) < capacity) bits++;
    CHECK(((size_t)1 << bits) == capacity && bits >= 4);
    const uint64_t home = 5;
    const uint64_t a = idtable_key_at(bits, home, 1, 0), b = idtable_key_at(bits, home, 2, 0);
    const uint64_t a_twin = idtable_key_at(bits, home, 1, 7); /* a's home and fingerprint */
    const uint64_t zero = idtable_key_at(bits, home, 0, 0), empty_home = idtable_key_at(bits, home + 3, 0, 0);
    CHECK(a != a_twin);
    CHECK_EQ_INT(dfc_idtable_insert(table, a, 0), DFC_OK); /* slot 5 */
    CHECK_EQ_INT(dfc_idtable_insert(table, b, 1), DFC_OK); /* slot 6 */
    size_t cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, a, &cursor), 0); /* the home slot */
    CHECK_EQ_INT(cursor, 1);
    CHECK_EQ_INT(dfc_idtable_find(table, a, &cursor), DFC_NOT_FOUND);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, b, &cursor), 1); /* home holds a's fingerprint: walked */
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, zero, &cursor), DFC_NOT_FOUND);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, empty_home, &cursor), DFC_NOT_FOUND); /* empty home, fingerprint 0 */
    CHECK_EQ_INT(dfc_idtable_insert(table, a_twin, 2), DFC_OK); /* slot 7 */
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, a_twin, &cursor), 0); /* a, which the caller rejects */
    CHECK_EQ_INT(dfc_idtable_find(table, a_twin, &cursor), 2); /* resumed past it */
    CHECK_EQ_INT(dfc_idtable_find(table, a_twin, &cursor), DFC_NOT_FOUND);
    CHECK_EQ_INT(dfc_idtable_remove(table, a, 0), 1); /* mid-run: slot 5 becomes a removal mark */
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, a, &cursor), 2); /* only a_twin, a candidate the caller rejects */
    CHECK_EQ_INT(dfc_idtable_find(table, a, &cursor), DFC_NOT_FOUND);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, zero, &cursor), DFC_NOT_FOUND); /* a mark's fingerprint bits are 0 */
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, b, &cursor), 1); /* home is a mark: walked */
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, a_twin, &cursor), 2);
    CHECK_EQ_INT(dfc_idtable_insert(table, zero, 3), DFC_OK); /* takes the mark in slot 5 */
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, zero, &cursor), 3);
    CHECK_EQ_INT(cursor, 1);
    dfc_idtable_free(table);
}

/* A batch into a table holding a removal mark goes through the loop that knows marks: a mark
 * (fingerprint bits 0) is no entry, even for a key whose fingerprint is 0, and the first mark
 * of a key's run takes it. A batch into a table without marks (the one-test-a-slot loop) is
 * checked by the tests above; this is the other loop, plain and confirmed. */
void test_idtable_batch_into_marks(void) {
    for (int confirmed = 0; confirmed < 2; confirmed++) {
        dfc_idtable *table = dfc_idtable_create(NULL);
        CHECK_EQ_INT(dfc_idtable_reserve(table, 8, NULL, 0), DFC_OK); /* 16 slots */
        const unsigned bits = 4;
        const uint64_t a = idtable_key_at(bits, 5, 1, 0), b = idtable_key_at(bits, 5, 2, 0);
        const uint64_t zero = idtable_key_at(bits, 5, 0, 0), far = idtable_key_at(bits, 11, 3, 0);
        CHECK_EQ_INT(dfc_idtable_insert(table, a, 0), DFC_OK); /* slot 5 */
        CHECK_EQ_INT(dfc_idtable_insert(table, b, 1), DFC_OK); /* slot 6 */
        CHECK_EQ_INT(dfc_idtable_remove(table, a, 0), 1);     /* slot 5: a mark, b's run goes on */
        const size_t room = dfc_idtable_room(table);
        CHECK_EQ_INT(room, 10); /* 12 less one entry and one mark */
        const uint64_t batch[2] = {zero, far}, by_value[2] = {a, b};
        uint8_t conflicts[2] = {9, 9};
        size_t inserted = 0;
        const int status = confirmed ? dfc_idtable_insert_batch_confirmed(table, batch, 2, 2, by_value, 2, conflicts, &inserted)
                                     : dfc_idtable_insert_batch(table, batch, 2, 2, conflicts, &inserted);
        CHECK_EQ_INT(status, DFC_OK);
        CHECK_EQ_INT(inserted, 2);
        CHECK(conflicts[0] == 0 && conflicts[1] == 0);
        CHECK_EQ_INT(dfc_idtable_room(table), room - 1); /* zero took the mark: one entry more, one mark less */
        size_t cursor = 0;
        CHECK_EQ_INT(dfc_idtable_find(table, zero, &cursor), 2);
        CHECK_EQ_INT(cursor, 1); /* in its home slot, the mark's */
        cursor = 0;
        CHECK_EQ_INT(dfc_idtable_find(table, far, &cursor), 3);
        cursor = 0;
        CHECK_EQ_INT(dfc_idtable_find(table, b, &cursor), 1);
        /* A batch longer than the loop's prefetch distance, into a table that still holds a
         * mark (b's removal leaves one mid-run): every key goes in, in order, and is found. */
        CHECK_EQ_INT(dfc_idtable_reserve(table, 40, (const uint64_t[4]){a, b, zero, far}, 4), DFC_OK);
        CHECK_EQ_INT(dfc_idtable_insert(table, a, 0), DFC_OK);
        CHECK_EQ_INT(dfc_idtable_remove(table, b, 1), 1);
        enum { LONG_BATCH = 20 };
        uint64_t many[LONG_BATCH], known[4 + LONG_BATCH] = {a, b, zero, far};
        uint8_t many_conflicts[LONG_BATCH];
        for (uint32_t k = 0; k < LONG_BATCH; k++) many[k] = known[4 + k] = 1000 + 7919 * (uint64_t)k;
        CHECK_EQ_INT(confirmed ? dfc_idtable_insert_batch_confirmed(table, many, LONG_BATCH, 4, known, 4, many_conflicts, &inserted)
                               : dfc_idtable_insert_batch(table, many, LONG_BATCH, 4, many_conflicts, &inserted),
                     DFC_OK);
        CHECK_EQ_INT(inserted, LONG_BATCH);
        for (uint32_t k = 0; k < LONG_BATCH; k++) {
            CHECK_EQ_INT(many_conflicts[k], 0);
            cursor = 0;
            int64_t found;
            while ((found = dfc_idtable_find(table, many[k], &cursor)) != DFC_NOT_FOUND && found != 4 + (int64_t)k) {}
            CHECK_EQ_INT(found, 4 + (int64_t)k);
        }
        dfc_idtable_free(table);
    }
}

/* dfc_idtable_insert_batch_confirmed: a key sharing an entry's fingerprint (or an earlier
 * batch key's) is inserted unless the full keys are equal, so new keys take values in batch
 * order; dfc_idtable_insert_batch flags the same keys on fingerprints alone. Then at 10^5
 * random keys, where fingerprints meet by chance (within the first half, and between the
 * halves): no conflict, every key at value i. */
void test_idtable_batch_confirmed_keeps_order(void) {
    dfc_idtable *plain = dfc_idtable_create(NULL), *confirmed = dfc_idtable_create(NULL);
    const size_t bare = dfc_idtable_sizeof(plain);
    CHECK_EQ_INT(dfc_idtable_reserve(plain, 8, NULL, 0), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_reserve(confirmed, 8, NULL, 0), DFC_OK);
    const size_t capacity = (dfc_idtable_sizeof(plain) - bare) / 4;
    unsigned bits = 0;
    while (((size_t)1 << bits) < capacity) bits++;
    const uint64_t a = idtable_key_at(bits, 5, 1, 0), a_twin = idtable_key_at(bits, 5, 1, 7);
    const uint64_t c = idtable_key_at(bits, 9, 2, 0), c_twin = idtable_key_at(bits, 9, 2, 3);
    CHECK(a != a_twin && c != c_twin);
    CHECK_EQ_INT(dfc_idtable_insert(plain, a, 0), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_insert(confirmed, a, 0), DFC_OK);
    const uint64_t batch[4] = {a_twin, c, c_twin, a}, known[1] = {a};
    uint8_t conflicts[4];
    size_t inserted = 0;
    CHECK_EQ_INT(dfc_idtable_insert_batch(plain, batch, 4, 1, conflicts, &inserted), DFC_OK);
    CHECK_EQ_INT(inserted, 1);
    CHECK(conflicts[0] == 1 && conflicts[1] == 0 && conflicts[2] == 1 && conflicts[3] == 1);
    CHECK_EQ_INT(dfc_idtable_insert_batch_confirmed(confirmed, batch, 4, 1, known, 1, conflicts, &inserted), DFC_OK);
    CHECK_EQ_INT(inserted, 3);
    CHECK(conflicts[0] == 0 && conflicts[1] == 0 && conflicts[2] == 0 && conflicts[3] == 1);
    size_t cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(confirmed, a_twin, &cursor), 0); /* a: the caller rejects it */
    CHECK_EQ_INT(dfc_idtable_find(confirmed, a_twin, &cursor), 1);
    cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(confirmed, c_twin, &cursor), 2);
    CHECK_EQ_INT(dfc_idtable_find(confirmed, c_twin, &cursor), 3);
    /* After a conflict the batch's values no longer follow its keys: a later match within
     * the batch is a conflict again (a, repeated, conflicts; then c_twin meets c). */
    dfc_idtable_clear(confirmed);
    const uint64_t after_conflict[4] = {a, a, c, c_twin};
    CHECK_EQ_INT(dfc_idtable_insert_batch_confirmed(confirmed, after_conflict, 4, 0, NULL, 0, conflicts, &inserted), DFC_OK);
    CHECK(inserted == 2 && conflicts[0] == 0 && conflicts[1] == 1 && conflicts[2] == 0 && conflicts[3] == 1);
    dfc_idtable_free(plain);
    dfc_idtable_free(confirmed);

    enum { MANY = 100000 };
    uint64_t *keys = malloc(MANY * sizeof *keys);
    uint8_t *flags = malloc(MANY);
    CHECK(keys != NULL && flags != NULL);
    uint64_t state = 0x2545F4914F6CDD1DULL;
    for (size_t i = 0; i < MANY; i++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17; /* xorshift64: distinct, never 0 */
        keys[i] = state;
    }
    /* The first half entered, then the second half as one batch against it. */
    for (int pass = 0; pass < 2; pass++) {
        dfc_idtable *table = dfc_idtable_create(NULL);
        CHECK_EQ_INT(dfc_idtable_reserve(table, MANY, NULL, 0), DFC_OK);
        size_t first = 0, second = 0;
        CHECK_EQ_INT(dfc_idtable_insert_batch_confirmed(table, keys, MANY / 2, 0, NULL, 0, flags, &first), DFC_OK);
        if (pass == 0) {
            CHECK_EQ_INT(dfc_idtable_insert_batch(table, keys + MANY / 2, MANY / 2, MANY / 2, flags, &second), DFC_OK);
            CHECK(first == MANY / 2 && second < MANY / 2); /* fingerprints met by chance */
        } else {
            CHECK_EQ_INT(
                dfc_idtable_insert_batch_confirmed(table, keys + MANY / 2, MANY / 2, MANY / 2, keys, MANY / 2, flags, &second),
                DFC_OK);
            CHECK(first == MANY / 2 && second == MANY / 2);
            size_t misplaced = 0;
            for (size_t i = 0; i < MANY; i++) {
                size_t walk = 0;
                int64_t value;
                while ((value = dfc_idtable_find(table, keys[i], &walk)) != DFC_NOT_FOUND && keys[value] != keys[i]) {}
                if (value != (int64_t)i) misplaced++;
            }
            CHECK_EQ_INT(misplaced, 0);
        }
        dfc_idtable_free(table);
    }
    free(keys);
    free(flags);
}

/* Removal marks: fill to the limit, remove everything, reserve for nothing, fill again. The
 * table takes the same number of entries without allocating. */
void test_idtable_removed_marks(void) {
    rng_state = 23;
    enum { SLOTS = 128, LIMIT = SLOTS / 4 * 3 };
    uint64_t keys[LIMIT];
    uint32_t order[LIMIT];
    test_heap heap = {0}; /* counts only */
    dfc_allocator allocator = {test_allocate, test_release, &heap};
    dfc_idtable *table = dfc_idtable_create(&allocator);
    CHECK_EQ_INT(dfc_idtable_reserve(table, LIMIT, NULL, 0), DFC_OK);
    const size_t size = dfc_idtable_sizeof(table);
    const long calls = heap.calls;
    for (int round = 0; round < 4; round++) {
        for (uint32_t v = 0; v < LIMIT; v++) {
            keys[v] = round == 1 ? (uint64_t)rng_below(4) << 40 : rng_next(); /* round 1: long shared runs */
            CHECK_EQ_INT(dfc_idtable_insert(table, keys[v], v), DFC_OK);
            order[v] = v;
        }
        CHECK_EQ_INT(dfc_idtable_insert(table, 1, LIMIT), DFC_ERR_NO_ROOM);
        for (uint32_t i = LIMIT; i > 1; i--) { /* remove in a random order */
            uint32_t j = (uint32_t)rng_below(i), t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        CHECK_EQ_INT(dfc_idtable_room(table), 0);
        for (uint32_t i = 0; i < LIMIT; i++) {
            /* A removal never lowers the room (it raises it when its slot ends a run). */
            const size_t room = dfc_idtable_room(table);
            CHECK_EQ_INT(dfc_idtable_remove(table, keys[order[i]], order[i]), 1);
            CHECK(dfc_idtable_room(table) >= room);
        }
        CHECK_EQ_INT(dfc_idtable_count(table), 0);
        /* The last removal of each run cleared the marks before it: every slot is free again. */
        CHECK_EQ_INT(dfc_idtable_room(table), LIMIT);
        for (uint32_t v = 0; v < LIMIT; v++) {
            size_t cursor = 0;
            CHECK_EQ_INT(dfc_idtable_find(table, keys[v], &cursor), DFC_NOT_FOUND);
        }
        CHECK_EQ_INT(dfc_idtable_reserve(table, 0, NULL, 0), DFC_OK);
    }
    CHECK_EQ_INT(heap.calls, calls);
    CHECK_EQ_INT(dfc_idtable_sizeof(table), size);
    dfc_idtable_free(table);
}

/* dfc_idtable_room after removals, as dfc.h says: one key entered with values 0, 1, 2 fills
 * three slots of one run; removing 0 and 1 leaves marks (the room stays), removing 2 ends the
 * run and empties all three. */
void test_idtable_room_after_removals(void) {
    const uint64_t key = 77;
    dfc_idtable *table = dfc_idtable_create(NULL);
    CHECK_EQ_INT(dfc_idtable_reserve(table, 12, NULL, 0), DFC_OK);
    const size_t empty = dfc_idtable_room(table);
    for (uint32_t v = 0; v < 3; v++) CHECK_EQ_INT(dfc_idtable_insert(table, key, v), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_room(table), empty - 3);
    CHECK_EQ_INT(dfc_idtable_remove(table, key, 0), 1);
    CHECK_EQ_INT(dfc_idtable_room(table), empty - 3);
    CHECK_EQ_INT(dfc_idtable_remove(table, key, 1), 1);
    CHECK_EQ_INT(dfc_idtable_room(table), empty - 3);
    CHECK_EQ_INT(dfc_idtable_remove(table, key, 2), 1);
    CHECK_EQ_INT(dfc_idtable_room(table), empty);
    size_t cursor = 0;
    CHECK_EQ_INT(dfc_idtable_find(table, key, &cursor), DFC_NOT_FOUND);
    dfc_idtable_free(table);
}

/* Clearing marks keeps the capacity when the entries leave a quarter of the limit free.
 * 1024 slots (limit 768) hold one run of 760 keys sharing home and fingerprint: values
 * 0 ..< 59, then 60 ..< 760, then 59 at the run's end. Removing 60 ..< 760 leaves 700 marks
 * (none at the run's end); reserving for 70 entries (60 + 10 + 700 > 768) clears them, in
 * order (values 0 ..< 60), and must keep the 1024 slots, not drop to the 128 that 70 need. */
void test_idtable_clearing_marks_keeps_capacity(void) {
    enum { FILL = 760, KEEP = 60 };
    const uint64_t inverse = golden_inverse(), base = 12345;
    CHECK((uint32_t)(base * golden) < UINT32_MAX - FILL);
    static uint64_t keys[FILL];
    for (uint32_t v = 0; v < FILL; v++) keys[v] = base + (uint64_t)v * inverse;
    dfc_idtable *table = dfc_idtable_create(NULL);
    CHECK_EQ_INT(dfc_idtable_reserve(table, FILL, NULL, 0), DFC_OK);
    const size_t size = dfc_idtable_sizeof(table);
    for (uint32_t v = 0; v < KEEP - 1; v++) CHECK_EQ_INT(dfc_idtable_insert(table, keys[v], v), DFC_OK);
    for (uint32_t v = KEEP; v < FILL; v++) CHECK_EQ_INT(dfc_idtable_insert(table, keys[v], v), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_insert(table, keys[KEEP - 1], KEEP - 1), DFC_OK);
    for (uint32_t v = KEEP; v < FILL; v++) CHECK_EQ_INT(dfc_idtable_remove(table, keys[v], v), 1);
    CHECK_EQ_INT(dfc_idtable_count(table), KEEP);
    /* 60 + 9 entries and 700 marks still fit the limit; a tenth more does not */
    CHECK_EQ_INT(dfc_idtable_reserve(table, KEEP + 8, keys, KEEP), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_sizeof(table), size);
    CHECK_EQ_INT(dfc_idtable_reserve(table, KEEP + 10, keys, KEEP), DFC_OK);
    CHECK_EQ_INT(dfc_idtable_sizeof(table), size);
    uint64_t found;
    idtable_candidates(table, keys[0], &found, 1);
    CHECK_EQ_INT(found, (UINT64_C(1) << KEEP) - 1);
    /* marks gone: 768 - 60 entries more fit */
    for (uint32_t v = KEEP; v < FILL; v++) {
        int status = dfc_idtable_insert(table, keys[v] ^ UINT64_C(0x5555), v);
        if (status != DFC_OK) {
            CHECK_EQ_INT(status, DFC_OK);
            break;
        }
    }
    dfc_idtable_free(table);
}
