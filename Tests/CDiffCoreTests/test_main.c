/* C-only tests of CDiffCore: keys, tables, LIS, flat diffs, bad arguments,
 * allocation failure, and the API contract table (test_contract.c).
 * Prints "N passed, N failed"; `--list-contract` prints the functions the
 * contract table covers (check_symbols.sh compares them with the exports). */
#include "dfc.h"
#include "harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int harness_failures_in_test = 0;

/* ---- deterministic random numbers (splitmix64) ---------------------------- */

static uint64_t rng_state;
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
static size_t rng_below(size_t bound) { return bound == 0 ? 0 : (size_t)(rng_next() % bound); }

static void shuffle(uint64_t *values, size_t count) {
    for (size_t i = count; i > 1; i--) {
        size_t j = rng_below(i);
        uint64_t t = values[i - 1];
        values[i - 1] = values[j];
        values[j] = t;
    }
}

/* ---- references independent of the core ---------------------------------- */

/* Longest increasing subsequence length: the O(n^2) recurrence for small inputs,
 * a length-only patience count (no back pointers) for large ones. */
static size_t reference_lis_length(const uint32_t *values, size_t count) {
    if (count > 2000) {
        uint32_t *tops = malloc(count * sizeof(uint32_t));
        size_t piles = 0;
        for (size_t j = 0; j < count; j++) {
            size_t lo = 0, hi = piles;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (tops[mid] < values[j]) lo = mid + 1;
                else hi = mid;
            }
            tops[lo] = values[j];
            if (lo == piles) piles++;
        }
        free(tops);
        return piles;
    }
    size_t *best = malloc((count ? count : 1) * sizeof(size_t));
    size_t longest = 0;
    for (size_t j = 0; j < count; j++) {
        best[j] = 1;
        for (size_t i = 0; i < j; i++)
            if (values[i] < values[j] && best[i] + 1 > best[j]) best[j] = best[i] + 1;
        if (best[j] > longest) longest = best[j];
    }
    free(best);
    return longest;
}

/* Replays a flat result on `old` the way a list view does (deletes and move
 * sources leave, inserts and move targets take their final slots, every
 * other old element fills the remaining slots in old order) and checks that
 * it gives `new`, and that moves are minimal. */
static bool replay_matches(const uint64_t *old_keys, size_t n, const uint64_t *new_keys, size_t m,
                           const dfc_flat_result *r) {
    bool ok = true;
    uint64_t *out = calloc(m ? m : 1, sizeof(uint64_t));
    bool *filled = calloc(m ? m : 1, sizeof(bool));
    bool *leaves = calloc(n ? n : 1, sizeof(bool));
    for (size_t k = 0; k < r->delete_count; k++) leaves[r->deletes[k]] = true;
    for (size_t k = 0; k < r->insert_count; k++) {
        out[r->inserts[k]] = new_keys[r->inserts[k]];
        filled[r->inserts[k]] = true;
    }
    for (size_t k = 0; k < r->move_count; k++) {
        leaves[r->move_from[k]] = true;
        if (filled[r->move_to[k]]) ok = false;
        out[r->move_to[k]] = old_keys[r->move_from[k]];
        filled[r->move_to[k]] = true;
    }
    size_t slot = 0;
    for (size_t i = 0; i < n; i++) {
        if (leaves[i]) continue;
        while (slot < m && filled[slot]) slot++;
        if (slot >= m) { ok = false; break; }
        out[slot] = old_keys[i];
        filled[slot++] = true;
    }
    for (size_t j = 0; j < m; j++)
        if (!filled[j] || out[j] != new_keys[j]) ok = false;
    /* ascending orders */
    for (size_t k = 1; k < r->delete_count; k++) if (r->deletes[k - 1] >= r->deletes[k]) ok = false;
    for (size_t k = 1; k < r->insert_count; k++) if (r->inserts[k - 1] >= r->inserts[k]) ok = false;
    for (size_t k = 1; k < r->move_count; k++) if (r->move_to[k - 1] >= r->move_to[k]) ok = false;
    /* minimal moves: matched - LIS of old indices in new order */
    uint32_t *sequence = malloc((m ? m : 1) * sizeof(uint32_t));
    size_t matched = 0;
    for (size_t j = 0; j < m; j++)
        if (r->new_to_old[j] >= 0) sequence[matched++] = (uint32_t)r->new_to_old[j];
    if (matched != r->matched) ok = false;
    if (r->move_count != matched - reference_lis_length(sequence, matched)) ok = false;
    free(sequence);
    free(out);
    free(filled);
    free(leaves);
    return ok;
}

/* ALGORITHM.md's LIS pseudo-code, line by line (plain binary search). */
static void spec_lis(const uint32_t *s, size_t m, uint8_t *keep) {
    size_t *tails = malloc((m ? m : 1) * sizeof(size_t));
    long *prev = malloc((m ? m : 1) * sizeof(long));
    size_t len = 0;
    for (size_t j = 0; j < m; j++) {
        size_t lo = 0, hi = len;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (s[tails[mid]] > s[j]) hi = mid;
            else lo = mid + 1;
        }
        prev[j] = lo > 0 ? (long)tails[lo - 1] : -1;
        tails[lo] = j;
        if (lo == len) len++;
    }
    memset(keep, 0, m);
    for (long j = len ? (long)tails[len - 1] : -1; j != -1; j = prev[j]) keep[j] = 1;
    free(tails);
    free(prev);
}

/* ---- keys ---------------------------------------------------------------- */

static void test_xxh3_known_answers(void) {
    CHECK(dfc_hash_one("abc", 3, 0) == UINT64_C(0x78af5f94892f3950));
    CHECK(dfc_hash_one("", 0, 0) == UINT64_C(0x2D06800538D394C2));
    CHECK(dfc_hash_one(NULL, 0, 0) == UINT64_C(0x2D06800538D394C2));
    CHECK(dfc_hash_one("abc", 3, 1) != dfc_hash_one("abc", 3, 0));
    /* One buffer, many identifiers: each equals hashing it alone (every length class 0..300). */
    static unsigned char bytes[300 * 301 / 2];
    uint64_t offsets[302], keys[301];
    size_t total = 0;
    for (size_t length = 0; length <= 300; length++) {
        offsets[length] = total;
        for (size_t k = 0; k < length; k++) bytes[total + k] = (unsigned char)(length * 31 + k);
        total += length;
    }
    offsets[301] = total;
    CHECK_EQ_INT(dfc_hash_bytes(bytes, offsets, 301, 0, keys), DFC_OK);
    for (size_t length = 0; length <= 300; length++)
        CHECK(keys[length] == dfc_hash_one(bytes + offsets[length], length, 0));
}

static void test_hash_bytes_arguments(void) {
    uint64_t offsets[3] = {0, 2, 1}, keys[2] = {7, 7};
    CHECK_EQ_INT(dfc_hash_bytes("ab", offsets, 2, 0, keys), DFC_ERR_INCONSISTENT);
    CHECK(keys[0] == 7 && keys[1] == 7);
    CHECK_EQ_INT(dfc_hash_bytes(NULL, NULL, 0, 0, NULL), DFC_OK);
    CHECK_EQ_INT(dfc_hash_bytes("ab", NULL, 2, 0, keys), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_hash_bytes("ab", offsets, 2, 0, NULL), DFC_ERR_NULL_ARGUMENT);
    uint64_t good[3] = {0, 1, 2};
    CHECK_EQ_INT(dfc_hash_bytes(NULL, good, 2, 0, keys), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_hash_bytes("ab", good, DFC_MAX_COUNT + 1, 0, keys), DFC_ERR_TOO_LARGE);
}

/* ---- version ------------------------------------------------------------------ */

static void test_version(void) {
    /* The library linked reports the header's version, and the three forms agree. */
    CHECK_EQ_INT(dfc_version(), DFC_VERSION_NUMBER);
    CHECK(strcmp(dfc_version_string(), DFC_VERSION_STRING) == 0);
    char expected[32];
    snprintf(expected, sizeof(expected), "%d.%d.%d", DFC_VERSION_MAJOR, DFC_VERSION_MINOR, DFC_VERSION_RELEASE);
    CHECK(strcmp(DFC_VERSION_STRING, expected) == 0);
    CHECK_EQ_INT(DFC_VERSION_NUMBER, DFC_VERSION_MAJOR * 10000 + DFC_VERSION_MINOR * 100 + DFC_VERSION_RELEASE);
}

/* ---- identifier table ------------------------------------------------------ */

/* The multiplier of the table's Fibonacci hash and its inverse mod 2^64 (Newton's iteration:
 * each step doubles the correct low bits), to make keys with chosen products. */
static const uint64_t golden = UINT64_C(0x9E3779B97F4A7C15);
static uint64_t golden_inverse(void) {
    uint64_t inverse = golden;
    for (int step = 0; step < 6; step++) inverse *= 2 - golden * inverse;
    return inverse;
}

/* An allocator that counts the blocks asked for and those still live, and fails the
 * fail_at-th request (never when fail_at is 0). */
typedef struct failing_allocator {
    long fail_at;
    long calls;
    long live;
} failing_allocator;

static void *failing_allocate(void *user, size_t size) {
    failing_allocator *state = user;
    if (++state->calls == state->fail_at) return NULL;
    state->live++;
    return malloc(size);
}

static void failing_release(void *user, void *pointer) {
    failing_allocator *state = user;
    if (pointer != NULL) state->live--;
    free(pointer);
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
static void test_idtable_against_model(void) {
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
            /* past the limit while the table is small: a rebuild in order (later, when marks need it) */
            CHECK_EQ_INT(dfc_idtable_reserve(table, slots < 256 ? slots : count + 1, keys, count), DFC_OK);
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

static void test_idtable_batch_and_copy(void) {
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
static void test_idtable_large(void) {
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
static void test_idtable_capacities_and_wrap(void) {
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

/* Keys whose products differ only in their low bits: the table keeps bits 32 and up of a
 * key's Fibonacci product, so key + m * inverse(golden), whose product is key's plus m, shares
 * key's home and fingerprint for small m. Every one of them must come back as a candidate,
 * remove/update must touch exactly the named entry, and growth (rehashing from the caller's
 * keys, by slot walk or in order) keeps them all. */
static void test_idtable_fingerprint_collisions(void) {
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
 * doubles the table when the entries fill more than 3/4 of its limit, so the next rebuild is
 * many cycles away. Counted by the allocator: each rebuild is one allocation. */
static void test_idtable_remove_insert_cycle(void) {
    enum { N = 700, CYCLES = 10000 }; /* 1024 slots, limit 768 */
    rng_state = 5;
    static uint64_t keys[N];
    for (size_t v = 0; v < N; v++) keys[v] = rng_next();
    failing_allocator heap = {0, 0, 0}; /* counts only */
    dfc_allocator allocator = {failing_allocate, failing_release, &heap};
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

/* Removal marks: fill to the limit, remove everything, reserve for nothing, fill again. The
 * table takes the same number of entries without allocating. */
static void test_idtable_removed_marks(void) {
    rng_state = 23;
    enum { SLOTS = 128, LIMIT = SLOTS / 4 * 3 };
    uint64_t keys[LIMIT];
    uint32_t order[LIMIT];
    failing_allocator heap = {0, 0, 0}; /* counts only */
    dfc_allocator allocator = {failing_allocate, failing_release, &heap};
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
        for (uint32_t i = 0; i < LIMIT; i++) CHECK_EQ_INT(dfc_idtable_remove(table, keys[order[i]], order[i]), 1);
        CHECK_EQ_INT(dfc_idtable_count(table), 0);
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

/* Clearing marks keeps the capacity when the entries leave a quarter of the limit free.
 * 1024 slots (limit 768) hold one run of 760 keys sharing home and fingerprint: values
 * 0 ..< 59, then 60 ..< 760, then 59 at the run's end. Removing 60 ..< 760 leaves 700 marks
 * (none at the run's end); reserving for 70 entries (60 + 10 + 700 > 768) clears them, in
 * order (values 0 ..< 60), and must keep the 1024 slots, not drop to the 128 that 70 need. */
static void test_idtable_clearing_marks_keeps_capacity(void) {
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

/* ---- LIS -------------------------------------------------------------------- */

static void check_lis(dfc_context *ctx, const uint32_t *values, size_t count, const uint8_t *expected) {
    uint8_t keep[16];
    size_t length = 99;
    CHECK_EQ_INT(dfc_lis(ctx, values, count, keep, &length), DFC_OK);
    size_t expected_length = 0;
    for (size_t j = 0; j < count; j++) {
        CHECK_EQ_INT(keep[j], expected[j]);
        expected_length += expected[j];
    }
    CHECK_EQ_INT(length, expected_length);
}

static void test_lis_tie_breaks(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    /* Worked by hand from ALGORITHM.md's pseudo-code. */
    check_lis(ctx, (const uint32_t[]){2, 1}, 2, (const uint8_t[]){0, 1});
    check_lis(ctx, (const uint32_t[]){2, 1, 0}, 3, (const uint8_t[]){0, 0, 1}); /* abc -> cba keeps a */
    check_lis(ctx, (const uint32_t[]){1, 3, 2}, 3, (const uint8_t[]){1, 0, 1});
    check_lis(ctx, (const uint32_t[]){3, 1, 2}, 3, (const uint8_t[]){0, 1, 1});
    check_lis(ctx, (const uint32_t[]){1, 2, 3, 0}, 4, (const uint8_t[]){1, 1, 1, 0}); /* move one to the front */
    check_lis(ctx, (const uint32_t[]){3, 0, 1, 2}, 4, (const uint8_t[]){0, 1, 1, 1});
    check_lis(ctx, (const uint32_t[]){2, 3, 0, 1}, 4, (const uint8_t[]){0, 0, 1, 1}); /* later run wins the tie */
    check_lis(ctx, (const uint32_t[]){4, 5, 0, 1, 2, 3}, 6, (const uint8_t[]){0, 0, 1, 1, 1, 1});
    check_lis(ctx, (const uint32_t[]){0, 4, 1, 5, 2, 6}, 6, (const uint8_t[]){1, 0, 1, 0, 1, 1});
    check_lis(ctx, NULL, 0, (const uint8_t[]){0});
    /* random: length equals the quadratic reference and the kept values increase */
    rng_state = 3;
    for (int round = 0; round < 300; round++) {
        size_t count = rng_below(200);
        uint64_t values64[200];
        uint32_t values[200];
        uint8_t keep[200];
        for (size_t j = 0; j < count; j++) values64[j] = j * 3;
        shuffle(values64, count);
        for (size_t j = 0; j < count; j++) values[j] = (uint32_t)values64[j];
        size_t length = 0;
        CHECK_EQ_INT(dfc_lis(ctx, values, count, keep, &length), DFC_OK);
        CHECK_EQ_INT(length, reference_lis_length(values, count));
        uint32_t last = 0;
        bool first = true;
        size_t kept = 0;
        for (size_t j = 0; j < count; j++) {
            if (!keep[j]) continue;
            CHECK(first || values[j] > last);
            last = values[j];
            first = false;
            kept++;
        }
        CHECK_EQ_INT(kept, length);
    }
    /* exactly the spec's positions, on nearly sorted and on shuffled inputs up to 5,000 */
    for (int round = 0; round < 200; round++) {
        size_t count = rng_below(5000);
        uint64_t *values64 = malloc((count + 1) * sizeof(uint64_t));
        uint32_t *values = malloc((count + 1) * sizeof(uint32_t));
        uint8_t *expected = malloc(count + 1), *actual = malloc(count + 1);
        for (size_t j = 0; j < count; j++) values64[j] = j * (1 + rng_below(3));
        if (round % 3 == 0) shuffle(values64, count);
        else
            for (size_t k = 0; k < count / 10 + 1 && count > 1; k++) {
                size_t i = rng_below(count), j = rng_below(count);
                uint64_t t = values64[i];
                values64[i] = values64[j];
                values64[j] = t;
            }
        /* make the values distinct: the spec takes distinct integers */
        for (size_t j = 0; j < count; j++) values[j] = (uint32_t)(values64[j] * 5000 + j % 5000);
        spec_lis(values, count, expected);
        CHECK_EQ_INT(dfc_lis(ctx, values, count, actual, NULL), DFC_OK);
        CHECK(memcmp(expected, actual, count) == 0);
        free(values64);
        free(values);
        free(expected);
        free(actual);
    }
    /* nearly sorted lists long enough for the tails to pass the counting search's 8,192
     * entries, so the search from the strided guess runs too: exactly the spec's positions.
     * Rounds 4-5 are longer (hundreds of strides) and begin with their largest values, so
     * the last tail is an outlier far above the line the others follow. */
    for (int round = 0; round < 6; round++) {
        size_t count = round < 4 ? 20000 + (size_t)round * 7000 : 300000;
        uint32_t *values = malloc(count * sizeof(uint32_t));
        uint8_t *expected = malloc(count), *actual = malloc(count);
        for (size_t j = 0; j < count; j++) values[j] = (uint32_t)j * 3;
        for (size_t k = 0; k < count / (20 + (size_t)round * 10); k++) {
            size_t i = rng_below(count), j = rng_below(count);
            uint32_t t = values[i];
            values[i] = values[j];
            values[j] = t;
        }
        if (round >= 4)
            for (size_t k = 0; k < 3; k++) {
                uint32_t t = values[k];
                values[k] = values[count - 1 - k];
                values[count - 1 - k] = t;
            }
        spec_lis(values, count, expected);
        size_t length = 0;
        CHECK_EQ_INT(dfc_lis(ctx, values, count, actual, &length), DFC_OK);
        CHECK(length > 8192);
        CHECK(memcmp(expected, actual, count) == 0);
        free(values);
        free(expected);
        free(actual);
    }
    /* UINT32_MAX, which the counting search uses to mark unused entries, repeated after
     * two blocks of tails: still the first greater entry, never past the tails */
    {
        enum { RISING = 150 };
        uint32_t values[RISING + 3];
        uint8_t kept[RISING + 3];
        for (size_t j = 0; j < RISING; j++) values[j] = (uint32_t)j * 7;
        values[RISING] = UINT32_MAX;
        values[RISING + 1] = UINT32_MAX;
        values[RISING + 2] = 3;
        size_t length = 0;
        CHECK_EQ_INT(dfc_lis(ctx, values, RISING + 3, kept, &length), DFC_OK);
        CHECK_EQ_INT(length, RISING + 1);
        CHECK(kept[RISING + 1] == 1 && kept[RISING] == 0 && kept[RISING + 2] == 0);
        /* and a value equal to a middle tail, in the counting search's range */
        values[RISING] = 7 * 100;
        CHECK_EQ_INT(dfc_lis(ctx, values, RISING + 1, kept, &length), DFC_OK);
        CHECK_EQ_INT(length, RISING);
    }
    uint8_t keep[1];
    CHECK_EQ_INT(dfc_lis(NULL, (const uint32_t[]){1}, 1, keep, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_lis(ctx, NULL, 1, keep, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_lis(ctx, (const uint32_t[]){1}, 1, NULL, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_lis(ctx, (const uint32_t[]){1}, DFC_MAX_COUNT + 1, keep, NULL), DFC_ERR_TOO_LARGE);
    dfc_context_free(ctx);
}

/* ---- flat diff -------------------------------------------------------------- */

static const dfc_match injective = {DFC_MATCH_INJECTIVE, NULL, NULL};

static int diff_keys(dfc_context *ctx, const uint64_t *a, size_t n, const uint64_t *b, size_t m,
                     unsigned flags, dfc_flat_result *r) {
    dfc_list old_list = {a, n, NULL, NULL}, new_list = {b, m, NULL, NULL};
    return dfc_diff_flat(ctx, &old_list, &new_list, &injective, flags, r);
}

static void test_flat_known_answers(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_flat_result r;
    /* header example */
    uint64_t a[] = {1, 2, 3, 4}, b[] = {2, 3, 4, 1, 5};
    CHECK_EQ_INT(diff_keys(ctx, a, 4, b, 5, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.move_count, 1);
    CHECK_EQ_INT(r.move_from[0], 0);
    CHECK_EQ_INT(r.move_to[0], 3);
    CHECK_EQ_INT(r.insert_count, 1);
    CHECK_EQ_INT(r.inserts[0], 4);
    CHECK_EQ_INT(r.delete_count, 0);
    CHECK(replay_matches(a, 4, b, 5, &r));
    /* abc -> cba: c and b move (b to its own index: still a move), a stays */
    uint64_t c[] = {1, 2, 3}, d[] = {3, 2, 1};
    CHECK_EQ_INT(diff_keys(ctx, c, 3, d, 3, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.move_count, 2);
    CHECK_EQ_INT(r.move_from[0], 2);
    CHECK_EQ_INT(r.move_to[0], 0);
    CHECK_EQ_INT(r.move_from[1], 1);
    CHECK_EQ_INT(r.move_to[1], 1);
    /* identical lists: all prefix, nothing to do */
    CHECK_EQ_INT(diff_keys(ctx, c, 3, c, 3, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.move_count + r.insert_count + r.delete_count, 0);
    CHECK_EQ_INT(r.common_prefix, 3);
    /* empty to something and back */
    CHECK_EQ_INT(diff_keys(ctx, NULL, 0, c, 3, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.insert_count, 3);
    CHECK_EQ_INT(diff_keys(ctx, c, 3, NULL, 0, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.delete_count, 3);
    CHECK_EQ_INT(diff_keys(ctx, NULL, 0, NULL, 0, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.matched, 0);
    /* first moved to the end of a long list is one move */
    enum { N = 5000 };
    static uint64_t x[N], y[N];
    for (size_t i = 0; i < N; i++) x[i] = i, y[i] = (i + 1) % N;
    CHECK_EQ_INT(diff_keys(ctx, x, N, y, N, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.move_count, 1);
    CHECK_EQ_INT(r.move_from[0], 0);
    CHECK_EQ_INT(r.move_to[0], N - 1);
    dfc_context_free(ctx);
}

static void random_pair(uint64_t *a, size_t *n, uint64_t *b, size_t *m, size_t max) {
    size_t count = rng_below(max + 1);
    for (size_t i = 0; i < count; i++) a[i] = i * 2 + 1;
    shuffle(a, count);
    *n = count;
    /* new: keep a random subset, add fresh ids, then perturb by a few random moves or a shuffle */
    size_t k = 0;
    for (size_t i = 0; i < count; i++) if (rng_below(10) < 8) b[k++] = a[i];
    size_t fresh = rng_below(max / 4 + 1);
    for (size_t i = 0; i < fresh && k < max; i++) b[k++] = (count + i) * 2 + 2;
    int style = (int)rng_below(3);
    if (style == 0) shuffle(b, k);
    else {
        size_t swaps = rng_below(k / 3 + 1);
        for (size_t s = 0; s < swaps && k > 1; s++) {
            size_t i = rng_below(k), j = rng_below(k);
            uint64_t t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
    }
    *m = k;
}

static void test_flat_random_replay(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 42;
    enum { MAX = 120 };
    uint64_t a[MAX], b[MAX];
    for (int round = 0; round < 3000; round++) {
        size_t n, m;
        random_pair(a, &n, b, &m, MAX);
        dfc_flat_result r, r_unique;
        CHECK_EQ_INT(diff_keys(ctx, a, n, b, m, 0, &r), DFC_OK);
        if (!replay_matches(a, n, b, m, &r)) {
            fprintf(stderr, "  replay failed in round %d (seed 42)\n", round);
            harness_failures_in_test++;
            break;
        }
        /* the trusted path gives the same answer */
        size_t moves = r.move_count;
        CHECK_EQ_INT(diff_keys(ctx, a, n, b, m, DFC_DIFF_ASSUME_UNIQUE, &r_unique), DFC_OK);
        CHECK_EQ_INT(r_unique.move_count, moves);
        CHECK(replay_matches(a, n, b, m, &r_unique));
    }
    dfc_context_free(ctx);
}

/* Large lists with long removed stretches, inserted runs and scattered moves: the
 * trusted path (run following) and the validated path (full table) must agree
 * exactly, and replay. */
static void test_flat_large_modes_agree(void) {
    dfc_context *ctx = dfc_context_create(NULL), *ctx2 = dfc_context_create(NULL);
    rng_state = 777;
    enum { N = 30000 };
    uint64_t *a = malloc(N * sizeof(uint64_t)), *b = malloc(2 * N * sizeof(uint64_t));
    for (int round = 0; round < 24; round++) {
        for (size_t i = 0; i < N; i++) a[i] = i;
        size_t m = 0;
        size_t churn = 1 + rng_below(30); /* percent */
        for (size_t i = 0; i < N; i++) {
            if (rng_below(1000) < 2) i += rng_below(round % 2 ? 2000 : 40); /* removed stretch */
            if (i >= N) break;
            if (rng_below(100) < churn / 2) b[m++] = N + i; /* inserted */
            if (rng_below(100) >= churn / 2) b[m++] = a[i];
        }
        for (size_t k = 0; k < m * churn / 200; k++) { /* scattered moves */
            size_t i = rng_below(m), j = rng_below(m);
            uint64_t t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
        if (round % 6 == 5) shuffle(b, m);
        dfc_flat_result r1, r2;
        CHECK_EQ_INT(diff_keys(ctx, a, N, b, m, 0, &r1), DFC_OK);
        CHECK_EQ_INT(diff_keys(ctx2, a, N, b, m, DFC_DIFF_ASSUME_UNIQUE, &r2), DFC_OK);
        CHECK(replay_matches(a, N, b, m, &r2));
        CHECK_EQ_INT(r1.move_count, r2.move_count);
        CHECK_EQ_INT(r1.delete_count, r2.delete_count);
        CHECK_EQ_INT(r1.insert_count, r2.insert_count);
        CHECK(r1.move_count == r2.move_count && memcmp(r1.move_from, r2.move_from, r1.move_count * 4) == 0 &&
              memcmp(r1.move_to, r2.move_to, r1.move_count * 4) == 0);
        CHECK(memcmp(r1.old_to_new, r2.old_to_new, N * 4) == 0);
    }
    free(a);
    free(b);
    dfc_context_free(ctx);
    dfc_context_free(ctx2);
}

/* Every arrangement of every subset of {0..4}: 326 sequences. */
static size_t all_sequences(uint64_t sequences[][5], size_t lengths[]) {
    size_t count = 0;
    for (unsigned code = 0; code < 6 * 6 * 6 * 6 * 6; code++) {
        /* digits in base 6: 0 ends the sequence, d > 0 is identifier d - 1 */
        uint64_t seq[5];
        size_t length = 0;
        unsigned rest = code, used = 0;
        bool valid = true, ended = false;
        for (int k = 0; k < 5; k++, rest /= 6) {
            unsigned digit = rest % 6;
            if (digit == 0) { ended = true; continue; }
            if (ended || (used & (1u << digit))) { valid = false; break; }
            used |= 1u << digit;
            seq[length++] = digit - 1;
        }
        if (!valid) continue;
        memcpy(sequences[count], seq, sizeof(seq));
        lengths[count++] = length;
    }
    return count;
}

/* docs/RELIABILITY.md, G2: all 106,276 pairs of such sequences, both matching paths,
 * replayed, with moves minimal against the quadratic reference. */
static void test_flat_exhaustive_small(void) {
    static uint64_t sequences[400][5];
    static size_t lengths[400];
    size_t count = all_sequences(sequences, lengths);
    CHECK_EQ_INT(count, 326);
    dfc_context *ctx = dfc_context_create(NULL);
    size_t pairs = 0;
    for (size_t a = 0; a < count; a++) {
        for (size_t b = 0; b < count; b++) {
            dfc_flat_result r;
            for (unsigned flags = 0; flags <= DFC_DIFF_ASSUME_UNIQUE; flags++) {
                if (diff_keys(ctx, sequences[a], lengths[a], sequences[b], lengths[b], flags, &r) != DFC_OK ||
                    !replay_matches(sequences[a], lengths[a], sequences[b], lengths[b], &r)) {
                    fprintf(stderr, "  exhaustive pair %zu/%zu (flags %u) failed\n", a, b, flags);
                    harness_failures_in_test++;
                    dfc_context_free(ctx);
                    return;
                }
            }
            pairs++;
        }
    }
    CHECK_EQ_INT(pairs, 106276);
    dfc_context_free(ctx);
}

/* Byte identifiers whose keys are forced to collide: matching must use the bytes. */
static void test_forced_collisions(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 99;
    enum { MAX = 80 };
    uint64_t a[MAX], b[MAX];
    for (int round = 0; round < 500; round++) {
        size_t n, m;
        random_pair(a, &n, b, &m, MAX);
        /* identifiers as 8-byte strings; keys masked to 2 bits */
        unsigned char old_bytes[MAX * 8], new_bytes[MAX * 8];
        uint64_t old_offsets[MAX + 1], new_offsets[MAX + 1], old_keys[MAX], new_keys[MAX];
        for (size_t i = 0; i <= n; i++) old_offsets[i] = i * 8;
        for (size_t i = 0; i <= m; i++) new_offsets[i] = i * 8;
        for (size_t i = 0; i < n; i++) { memcpy(old_bytes + i * 8, &a[i], 8); old_keys[i] = a[i] & 3; }
        for (size_t i = 0; i < m; i++) { memcpy(new_bytes + i * 8, &b[i], 8); new_keys[i] = b[i] & 3; }
        dfc_list old_list = {old_keys, n, old_bytes, old_offsets}, new_list = {new_keys, m, new_bytes, new_offsets};
        dfc_match bytes = {DFC_MATCH_BYTES, NULL, NULL};
        dfc_flat_result r;
        CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &bytes, 0, &r), DFC_OK);
        CHECK(replay_matches(a, n, b, m, &r));
        size_t moves = r.move_count, deletes = r.delete_count;
        CHECK_EQ_INT(diff_keys(ctx, a, n, b, m, 0, &r), DFC_OK);
        CHECK_EQ_INT(r.move_count, moves);
        CHECK_EQ_INT(r.delete_count, deletes);
    }
    dfc_context_free(ctx);
}

/* Equality through a callback: identifiers equal when their values are equal mod 1000. */
static int equal_mod_1000(void *user, int a_side, uint32_t a, int b_side, uint32_t b) {
    const uint64_t *const *lists = user;
    return lists[a_side][a] % 1000 == lists[b_side][b] % 1000;
}

static void test_callback_identity(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    uint64_t a[] = {1001, 2002, 3003}, b[] = {3, 1, 4};
    uint64_t ka[] = {7, 7, 7}, kb[] = {7, 7, 7}; /* one key for all: only the callback decides */
    const uint64_t *lists[2] = {a, b};
    dfc_list old_list = {ka, 3, NULL, NULL}, new_list = {kb, 3, NULL, NULL};
    dfc_match callback = {DFC_MATCH_CALLBACK, equal_mod_1000, lists};
    dfc_flat_result r;
    CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &callback, 0, &r), DFC_OK);
    CHECK_EQ_INT(r.delete_count, 1); /* 2002 */
    CHECK_EQ_INT(r.deletes[0], 1);
    CHECK_EQ_INT(r.insert_count, 1); /* 4 */
    CHECK_EQ_INT(r.inserts[0], 2);
    CHECK_EQ_INT(r.new_to_old[0], 2);
    CHECK_EQ_INT(r.new_to_old[1], 0);
    CHECK_EQ_INT(r.move_count, 1);
    dfc_match missing = {DFC_MATCH_CALLBACK, NULL, NULL};
    CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &missing, 0, &r), DFC_ERR_INVALID_ARGUMENT);
    dfc_context_free(ctx);
}

static void test_duplicates_reported(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_flat_result r;
    memset(&r, 0xAB, sizeof(r));
    dfc_flat_result untouched = r;
    size_t count = 0;
    const dfc_duplicate *d;
    /* old has 5 twice and 7 three times */
    uint64_t a[] = {5, 7, 5, 7, 1, 7}, b[] = {1, 2};
    CHECK_EQ_INT(diff_keys(ctx, a, 6, b, 2, 0, &r), DFC_ERR_DUPLICATE);
    CHECK(memcmp(&r, &untouched, sizeof(r)) == 0);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 3);
    if (count == 3) {
        CHECK(d[0].side == DFC_SIDE_OLD && d[0].first == 0 && d[0].duplicate == 2);
        CHECK(d[1].side == DFC_SIDE_OLD && d[1].first == 1 && d[1].duplicate == 3);
        CHECK(d[2].side == DFC_SIDE_OLD && d[2].first == 1 && d[2].duplicate == 5);
    }
    /* new duplicates: in the common prefix, in the suffix, among inserts */
    uint64_t c[] = {1, 2, 3}, e[] = {1, 9, 1, 9, 3, 3};
    CHECK_EQ_INT(diff_keys(ctx, c, 3, e, 6, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 3);
    if (count == 3) {
        CHECK(d[0].side == DFC_SIDE_NEW && d[0].first == 0 && d[0].duplicate == 2);
        CHECK(d[1].side == DFC_SIDE_NEW && d[1].first == 1 && d[1].duplicate == 3);
        CHECK(d[2].side == DFC_SIDE_NEW && d[2].first == 4 && d[2].duplicate == 5);
    }
    /* both lists: old reported, new too */
    uint64_t f[] = {4, 4}, g[] = {6, 6};
    CHECK_EQ_INT(diff_keys(ctx, f, 2, g, 2, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 2);
    if (count == 2) CHECK(d[0].side == DFC_SIDE_OLD && d[1].side == DFC_SIDE_NEW);
    /* a clean diff clears the list */
    CHECK_EQ_INT(diff_keys(ctx, c, 3, c, 3, 0, &r), DFC_OK);
    CHECK(dfc_context_duplicates(ctx, &count) == NULL && count == 0);
    dfc_context_free(ctx);
}

/* A validated diff runs the trusted matcher, then one uniqueness check over the old list
 * and the new elements left unmatched. Every way two equal elements can be matched must
 * still come out as a duplicate: both matched in the middle (to two equal old elements),
 * one matched and one inserted, both inserted, the two in the trimmed prefix and suffix,
 * and a duplicate far from the rest in a long list that the walk follows. */
static void test_validated_duplicates_in_every_matching_shape(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_flat_result r;
    size_t count = 0;
    const dfc_duplicate *d;
    /* both lists hold 7 twice and the walk pairs them up: old and new both reported */
    uint64_t a[] = {9, 7, 3, 7, 8}, b[] = {9, 7, 3, 7, 5};
    CHECK_EQ_INT(diff_keys(ctx, a, 5, b, 5, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 2);
    if (count == 2) CHECK(d[0].side == DFC_SIDE_OLD && d[1].side == DFC_SIDE_NEW && d[1].first == 1 && d[1].duplicate == 3);
    /* old unique; new: 4 matched at 0, and again as an insert at 3 */
    uint64_t c[] = {4, 5, 6}, e[] = {4, 5, 6, 4, 1};
    CHECK_EQ_INT(diff_keys(ctx, c, 3, e, 5, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 1);
    if (count == 1) CHECK(d[0].side == DFC_SIDE_NEW && d[0].first == 0 && d[0].duplicate == 3);
    /* old unique; new: 8 inserted twice, nothing else changed */
    uint64_t f[] = {1, 2, 3}, g[] = {1, 8, 2, 8, 3};
    CHECK_EQ_INT(diff_keys(ctx, f, 3, g, 5, 0, &r), DFC_ERR_DUPLICATE);
    d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 1);
    if (count == 1) CHECK(d[0].side == DFC_SIDE_NEW && d[0].first == 1 && d[0].duplicate == 3);
    /* 10,000 unique elements followed in order, with one new element equal to an old one
     * far away (matched by the walk elsewhere): one new duplicate */
    enum { LONG = 10000 };
    uint64_t *old_keys = malloc(LONG * sizeof(uint64_t)), *new_keys = malloc((LONG + 1) * sizeof(uint64_t));
    CHECK(old_keys != NULL && new_keys != NULL);
    if (old_keys != NULL && new_keys != NULL) {
        for (size_t i = 0; i < LONG; i++) old_keys[i] = new_keys[i] = (uint64_t)i * 2654435761u + 17;
        new_keys[LONG] = old_keys[1234];
        CHECK_EQ_INT(diff_keys(ctx, old_keys, LONG, new_keys, LONG + 1, 0, &r), DFC_ERR_DUPLICATE);
        d = dfc_context_duplicates(ctx, &count);
        CHECK_EQ_INT(count, 1);
        if (count == 1) CHECK(d[0].side == DFC_SIDE_NEW && d[0].first == 1234 && d[0].duplicate == LONG);
        /* the last element made new again: unique lists, diffed */
        new_keys[LONG] = 1;
        CHECK_EQ_INT(diff_keys(ctx, old_keys, LONG, new_keys, LONG + 1, 0, &r), DFC_OK);
        CHECK_EQ_INT(r.insert_count, 1);
    }
    free(old_keys);
    free(new_keys);
    dfc_context_free(ctx);
}

/* The duplicates of one list as the core reports them: each later occurrence with the
 * first one, in (duplicate, first) order. O(n^2) but only over the planted ones. */
static size_t reference_duplicates(const uint64_t *values, size_t count, uint32_t *first, uint32_t *later,
                                   size_t limit) {
    size_t found = 0;
    for (size_t j = 1; j < count && found < limit; j++)
        for (size_t i = 0; i < j; i++)
            if (values[i] == values[j]) {
                first[found] = (uint32_t)i;
                later[found++] = (uint32_t)j;
                break;
            }
    return found;
}

/* Lists long enough to be checked in many partitions, with duplicates planted in the
 * old list, the new list (between two unmatched, or an unmatched and a matched
 * element) or both: the verdict and the report are the exhaustive ones, and a clean
 * pair diffs exactly as trusted input does. Keys masked to a few bits (byte identity)
 * make every partition's table confirm through collisions. */
static void test_duplicates_found_in_large_lists(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 2024;
    enum { N = 9000, PLANTED = 8 };
    uint64_t *a = malloc(N * sizeof(uint64_t)), *b = malloc(2 * N * sizeof(uint64_t));
    uint64_t *old_keys = malloc(N * sizeof(uint64_t)), *new_keys = malloc(2 * N * sizeof(uint64_t));
    uint64_t *old_offsets = malloc((N + 1) * sizeof(uint64_t)), *new_offsets = malloc((2 * N + 1) * sizeof(uint64_t));
    for (int round = 0; round < 120; round++) {
        const size_t n = N - rng_below(N / 2);
        for (size_t i = 0; i < n; i++) a[i] = round % 2 ? rng_next() : i * 3;
        shuffle(a, n);
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (rng_below(10) == 0) continue;                      /* deleted */
            if (rng_below(10) == 0) b[m++] = rng_next();           /* inserted */
            b[m++] = a[i];
        }
        for (size_t k = 0; k < m / 20; k++) {                      /* moved */
            size_t x = rng_below(m), y = rng_below(m);
            uint64_t t = b[x]; b[x] = b[y]; b[y] = t;
        }
        const int kind = round % 5; /* 0 none, 1 old, 2 new (any two), 3 new (copy of a kept one), 4 both */
        const int planted = 1 + (round / 5) % PLANTED; /* one alone must be found in any partition */
        for (int k = 0; k < planted && (kind == 1 || kind == 4); k++) a[rng_below(n)] = a[rng_below(n)];
        for (int k = 0; k < planted && (kind == 2 || kind == 4); k++) b[rng_below(m)] = b[rng_below(m)];
        if (kind == 3) b[rng_below(m)] = a[rng_below(n)];
        uint32_t first[2 * PLANTED + 2], later[2 * PLANTED + 2];
        size_t expected_old = reference_duplicates(a, n, first, later, PLANTED + 1);
        size_t expected_new = reference_duplicates(b, m, first + expected_old, later + expected_old, PLANTED + 1);
        size_t expected = expected_old + expected_new;
        for (int bytes = 0; bytes < 2; bytes++) {
            dfc_flat_result r;
            int status;
            if (bytes) {
                for (size_t i = 0; i <= n; i++) old_offsets[i] = i * 8;
                for (size_t i = 0; i <= m; i++) new_offsets[i] = i * 8;
                for (size_t i = 0; i < n; i++) old_keys[i] = a[i] & 63;
                for (size_t i = 0; i < m; i++) new_keys[i] = b[i] & 63;
                dfc_list old_list = {old_keys, n, a, old_offsets}, new_list = {new_keys, m, b, new_offsets};
                dfc_match match = {DFC_MATCH_BYTES, NULL, NULL};
                status = dfc_diff_flat(ctx, &old_list, &new_list, &match, 0, &r);
            } else {
                status = diff_keys(ctx, a, n, b, m, 0, &r);
            }
            CHECK_EQ_INT(status, expected == 0 ? DFC_OK : DFC_ERR_DUPLICATE);
            size_t count = 0;
            const dfc_duplicate *d = dfc_context_duplicates(ctx, &count);
            CHECK_EQ_INT(count, expected);
            for (size_t k = 0; k < count && k < expected; k++) {
                CHECK(d[k].side == (k < expected_old ? DFC_SIDE_OLD : DFC_SIDE_NEW));
                CHECK(d[k].first == first[k] && d[k].duplicate == later[k]);
            }
            if (status == DFC_OK && !bytes) {
                CHECK(replay_matches(a, n, b, m, &r));
                size_t moves = r.move_count, deletes = r.delete_count, inserts = r.insert_count;
                CHECK_EQ_INT(diff_keys(ctx, a, n, b, m, DFC_DIFF_ASSUME_UNIQUE, &r), DFC_OK);
                CHECK(r.move_count == moves && r.delete_count == deletes && r.insert_count == inserts);
            }
        }
    }
    free(a);
    free(b);
    free(old_keys);
    free(new_keys);
    free(old_offsets);
    free(new_offsets);
    dfc_context_free(ctx);
}

static void test_bad_arguments(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_flat_result r;
    uint64_t k[] = {1, 2};
    dfc_list good = {k, 2, NULL, NULL}, null_keys = {NULL, 2, NULL, NULL}, empty = {NULL, 0, NULL, NULL};
    dfc_list huge = {k, DFC_MAX_COUNT + 1, NULL, NULL};
    dfc_match bad_kind = {7, NULL, NULL}, bytes = {DFC_MATCH_BYTES, NULL, NULL};
    CHECK_EQ_INT(dfc_diff_flat(NULL, &good, &good, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, NULL, &good, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, NULL, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, NULL, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, &injective, 0, NULL), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &null_keys, &good, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &empty, &empty, &injective, 0, &r), DFC_OK);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &huge, &good, &injective, 0, &r), DFC_ERR_TOO_LARGE);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &huge, &injective, 0, &r), DFC_ERR_TOO_LARGE);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, &bad_kind, 0, &r), DFC_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, &injective, 8, &r), DFC_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &good, &good, &bytes, 0, &r), DFC_ERR_INVALID_ARGUMENT);
    uint64_t backwards[] = {0, 3, 1};
    dfc_list bad_offsets = {k, 2, "abc", backwards};
    CHECK_EQ_INT(dfc_diff_flat(ctx, &bad_offsets, &good, &bytes, 0, &r), DFC_ERR_INCONSISTENT);
    CHECK_EQ_INT(dfc_context_reserve(NULL, 1, 1), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_context_reserve(ctx, DFC_MAX_COUNT + 1, 1), DFC_ERR_TOO_LARGE);
    CHECK(dfc_context_sizeof(NULL) == 0);
    CHECK(dfc_context_allocation_count(NULL) == 0);
    dfc_context_free(NULL);
    dfc_context_reset(NULL);
    dfc_context_shrink(NULL);
    /* every status has a distinct readable name */
    for (int s = DFC_OK; s <= DFC_ERR_UNKNOWN_IDENTIFIER; s++) {
        CHECK(strncmp(dfc_status_string(s), "DFC_", 4) == 0);
        for (int t = DFC_OK; t < s; t++) CHECK(strcmp(dfc_status_string(s), dfc_status_string(t)) != 0);
    }
    CHECK(strstr(dfc_status_string(-5), "UNKNOWN") != NULL);
    dfc_context_free(ctx);
}

/* ---- memory ----------------------------------------------------------------- */

static void test_warm_context_allocates_nothing(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    enum { N = 20000 };
    static uint64_t a[N], b[N];
    rng_state = 5;
    for (size_t i = 0; i < N; i++) a[i] = b[i] = i;
    shuffle(b, N);
    dfc_flat_result r;
    CHECK_EQ_INT(dfc_context_reserve(ctx, N, N), DFC_OK);
    uint64_t before = dfc_context_allocation_count(ctx);
    for (int round = 0; round < 3; round++) CHECK_EQ_INT(diff_keys(ctx, a, N, b, N, 0, &r), DFC_OK);
    CHECK_EQ_INT(dfc_context_allocation_count(ctx), before);
    CHECK(dfc_context_sizeof(ctx) > N * 16);
    dfc_context_reset(ctx);
    CHECK_EQ_INT(diff_keys(ctx, a, N, b, N, 0, &r), DFC_OK);
    CHECK_EQ_INT(dfc_context_allocation_count(ctx), before);
    dfc_context_shrink(ctx);
    CHECK(dfc_context_sizeof(ctx) < 1024);
    dfc_context_free(ctx);
}

static void test_allocation_failure_every_k(void) {
    uint64_t a[64], b[64];
    for (size_t i = 0; i < 64; i++) a[i] = i, b[i] = 63 - i;
    a[0] = 5, a[5] = 0; /* break the prefix so the table runs */
    for (long fail_at = 1; fail_at < 60; fail_at++) {
        failing_allocator state = {fail_at, 0, 0};
        dfc_allocator allocator = {failing_allocate, failing_release, &state};
        dfc_context *ctx = dfc_context_create(&allocator);
        if (ctx == NULL) {
            CHECK_EQ_INT(state.live, 0);
            continue;
        }
        dfc_flat_result r;
        memset(&r, 0x5A, sizeof(r));
        dfc_flat_result untouched = r;
        int status = diff_keys(ctx, a, 64, b, 64, 0, &r);
        CHECK(status == DFC_OK || status == DFC_ERR_OUT_OF_MEMORY);
        if (status != DFC_OK) CHECK(memcmp(&r, &untouched, sizeof(r)) == 0);
        /* a failed call leaves the context usable */
        state.fail_at = -1;
        CHECK_EQ_INT(diff_keys(ctx, a, 64, b, 64, 0, &r), DFC_OK);
        CHECK(replay_matches(a, 64, b, 64, &r));
        dfc_context_free(ctx);
        CHECK_EQ_INT(state.live, 0);

        /* the sectioned diff: fails cleanly at every allocation, works afterwards */
        state = (failing_allocator){fail_at, 0, 0};
        ctx = dfc_context_create(&allocator);
        if (ctx != NULL) {
            uint64_t sections_old[] = {1, 2, 3}, sections_new[] = {3, 1, 4};
            uint32_t starts[] = {0, 20, 40, 64}, starts_new[] = {0, 30, 50, 64};
            dfc_snapshot so = {{sections_old, 3, NULL, NULL}, {a, 64, NULL, NULL}, starts};
            dfc_snapshot sn = {{sections_new, 3, NULL, NULL}, {b, 64, NULL, NULL}, starts_new};
            dfc_sections_result sr;
            int status2 = dfc_diff_sections(ctx, &so, &sn, NULL, &injective, &injective, 0, &sr);
            CHECK(status2 == DFC_OK || status2 == DFC_ERR_OUT_OF_MEMORY);
            state.fail_at = -1;
            CHECK_EQ_INT(dfc_diff_sections(ctx, &so, &sn, NULL, &injective, &injective, 0, &sr), DFC_OK);
            dfc_context_free(ctx);
        }
        CHECK_EQ_INT(state.live, 0);

        /* ... and in place (the refresh-only planner), trusted or checked */
        state = (failing_allocator){fail_at, 0, 0};
        ctx = dfc_context_create(&allocator);
        if (ctx != NULL) {
            uint64_t sections[] = {1, 2, 3};
            uint32_t starts[] = {0, 20, 40, 64}, reloads[] = {3, 30, 3};
            dfc_snapshot snapshot = {{sections, 3, NULL, NULL}, {a, 64, NULL, NULL}, starts};
            dfc_refresh refresh = {reloads, 3, reloads, 1, NULL, 0};
            dfc_sections_result sr;
            const unsigned flags = fail_at % 2 ? DFC_DIFF_ASSUME_UNIQUE : 0;
            int status2 = dfc_diff_sections(ctx, &snapshot, &snapshot, &refresh, &injective, &injective, flags, &sr);
            CHECK(status2 == DFC_OK || status2 == DFC_ERR_OUT_OF_MEMORY);
            state.fail_at = -1;
            CHECK_EQ_INT(dfc_diff_sections(ctx, &snapshot, &snapshot, &refresh, &injective, &injective, flags, &sr), DFC_OK);
            CHECK(!sr.has_structural && sr.refresh.reload_item_count == 2 && sr.refresh.reconfigure_item_count == 0);
            dfc_context_free(ctx);
        }
        CHECK_EQ_INT(state.live, 0);

        state = (failing_allocator){fail_at, 0, 0};
        dfc_idtable *table = dfc_idtable_create(&allocator);
        if (table != NULL) {
            /* a failed reserve leaves no slots (inserts find no room); a later one works */
            uint64_t keys[200];
            for (uint32_t i = 0; i < 200; i++) keys[i] = i;
            int reserved = dfc_idtable_reserve(table, 200, NULL, 0);
            CHECK(reserved == DFC_OK || reserved == DFC_ERR_OUT_OF_MEMORY);
            for (uint32_t i = 0; i < 100; i++) CHECK_EQ_INT(dfc_idtable_insert(table, i, i), reserved == DFC_OK ? DFC_OK : DFC_ERR_NO_ROOM);
            state.fail_at = -1;
            size_t held = dfc_idtable_count(table);
            CHECK_EQ_INT(dfc_idtable_reserve(table, 400, keys, 100), DFC_OK);
            CHECK_EQ_INT(dfc_idtable_count(table), held);
            dfc_idtable_free(table);
        }
        CHECK_EQ_INT(state.live, 0);
    }
}

/* ---- sectioned diff ------------------------------------------------------------ */

/* diff_sections with both sides' duplicate checking chosen: `flags` 0 or DFC_DIFF_ASSUME_UNIQUE. */
static int diff_sections_flags(dfc_context *ctx, unsigned flags, const uint64_t *os, size_t so, const uint64_t *oi,
                               const uint32_t *ostarts, const uint64_t *ns, size_t sn, const uint64_t *ni,
                               const uint32_t *nstarts, const dfc_refresh *refresh, dfc_sections_result *r) {
    dfc_snapshot a = {{os, so, NULL, NULL}, {oi, ostarts[so], NULL, NULL}, ostarts};
    dfc_snapshot b = {{ns, sn, NULL, NULL}, {ni, nstarts[sn], NULL, NULL}, nstarts};
    return dfc_diff_sections(ctx, &a, &b, refresh, &injective, &injective, flags, r);
}

static int diff_sections(dfc_context *ctx, const uint64_t *os, size_t so, const uint64_t *oi, const uint32_t *ostarts,
                         const uint64_t *ns, size_t sn, const uint64_t *ni, const uint32_t *nstarts,
                         const dfc_refresh *refresh, dfc_sections_result *r) {
    return diff_sections_flags(ctx, 0, os, so, oi, ostarts, ns, sn, ni, nstarts, refresh, r);
}

static void test_sections_known_answers(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_sections_result r;
    /* docs/BATCH_RULES.md test vector 6: x moves into a newly inserted section -> section insert + item delete, no move */
    uint64_t s1[] = {100}, i1[] = {1};
    uint32_t st1[] = {0, 1};
    uint64_t s2[] = {200, 100}, i2[] = {1};
    uint32_t st2[] = {0, 1, 1};
    CHECK_EQ_INT(diff_sections(ctx, s1, 1, i1, st1, s2, 2, i2, st2, NULL, &r), DFC_OK);
    CHECK(r.has_structural && !r.has_refresh);
    CHECK_EQ_INT(r.structural.insert_section_count, 1);
    CHECK_EQ_INT(r.structural.insert_sections[0], 0);
    CHECK_EQ_INT(r.structural.delete_item_count, 1);
    CHECK(r.structural.delete_items[0].section == 0 && r.structural.delete_items[0].item == 0);
    CHECK_EQ_INT(r.structural.move_item_count + r.structural.insert_item_count + r.structural.move_section_count, 0);
    /* docs/BATCH_RULES.md test vector 7, roles reversed: x leaves a deleted section -> section delete + item insert */
    CHECK_EQ_INT(diff_sections(ctx, s2, 2, i2, st2, s1, 1, i1, st1, NULL, &r), DFC_OK);
    CHECK_EQ_INT(r.structural.delete_section_count, 1);
    CHECK_EQ_INT(r.structural.delete_sections[0], 0);
    CHECK_EQ_INT(r.structural.insert_item_count, 1);
    CHECK(r.structural.insert_items[0].section == 0 && r.structural.insert_items[0].item == 0);
    /* same snapshot, a reload and a reconfigure of one item: reload wins, refresh batch only */
    uint32_t reload[] = {0}, reconfigure[] = {0};
    dfc_refresh refresh = {reload, 1, reconfigure, 1, NULL, 0};
    CHECK_EQ_INT(diff_sections(ctx, s1, 1, i1, st1, s1, 1, i1, st1, &refresh, &r), DFC_OK);
    CHECK(!r.has_structural && r.has_refresh);
    CHECK_EQ_INT(r.refresh.reload_item_count, 1);
    CHECK_EQ_INT(r.refresh.reconfigure_item_count, 0);
    /* sections swapped with no item changes: one section move */
    uint64_t s3[] = {1, 2}, i3[] = {10, 20};
    uint32_t st3[] = {0, 1, 2};
    uint64_t s4[] = {2, 1}, i4[] = {20, 10};
    CHECK_EQ_INT(diff_sections(ctx, s3, 2, i3, st3, s4, 2, i4, st3, NULL, &r), DFC_OK);
    CHECK_EQ_INT(r.structural.move_section_count, 1);
    /* LIS of old indices in new order [1, 0] keeps the later run: section 2 (old 1) moves to 0 */
    CHECK(r.structural.move_section_from[0] == 1 && r.structural.move_section_to[0] == 0);
    CHECK_EQ_INT(r.structural.move_item_count, 0);
    CHECK_EQ_INT(r.new_section_to_old[0], 1);
    CHECK_EQ_INT(r.old_item_to_new[0], 1);
    /* bad input */
    uint32_t bad_starts[] = {0, 2};
    dfc_snapshot inconsistent = {{s1, 1, NULL, NULL}, {i1, 1, NULL, NULL}, bad_starts};
    dfc_snapshot consistent = {{s1, 1, NULL, NULL}, {i1, 1, NULL, NULL}, st1};
    CHECK_EQ_INT(dfc_diff_sections(ctx, &inconsistent, &consistent, NULL, &injective, &injective, 0, &r), DFC_ERR_INCONSISTENT);
    uint32_t far[] = {5};
    dfc_refresh out_of_range = {far, 1, NULL, 0, NULL, 0};
    CHECK_EQ_INT(diff_sections(ctx, s1, 1, i1, st1, s1, 1, i1, st1, &out_of_range, &r), DFC_ERR_UNKNOWN_IDENTIFIER);
    dfc_snapshot good = {{s1, 1, NULL, NULL}, {i1, 1, NULL, NULL}, st1};
    dfc_snapshot no_starts = {{s1, 1, NULL, NULL}, {i1, 1, NULL, NULL}, NULL};
    CHECK_EQ_INT(dfc_diff_sections(NULL, &good, &good, NULL, &injective, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_sections(ctx, &good, &no_starts, NULL, &injective, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_sections(ctx, &good, &good, NULL, NULL, &injective, 0, &r), DFC_ERR_NULL_ARGUMENT);
    CHECK_EQ_INT(dfc_diff_sections(ctx, &good, &good, NULL, &injective, &injective, 4, &r), DFC_ERR_INVALID_ARGUMENT);
    /* duplicates: a section twice in old, an item twice across sections in new */
    uint64_t dup_sections[] = {1, 1}, dup_items[] = {7, 7};
    uint32_t dup_starts[] = {0, 1, 2};
    size_t count = 0;
    CHECK_EQ_INT(diff_sections(ctx, dup_sections, 2, i3, st3, s3, 2, dup_items, dup_starts, NULL, &r), DFC_ERR_DUPLICATE);
    const dfc_duplicate *d = dfc_context_duplicates(ctx, &count);
    CHECK_EQ_INT(count, 2);
    if (count == 2) {
        CHECK(d[0].side == DFC_SIDE_OLD && d[0].is_section == 1 && d[0].first == 0 && d[0].duplicate == 1);
        CHECK(d[1].side == DFC_SIDE_NEW && d[1].is_section == 0 && d[1].first == 0 && d[1].duplicate == 1);
    }
    dfc_context_free(ctx);
}

/* A refresh batch copied out of the context (the next diff reuses its buffers). */
typedef struct refresh_copy {
    size_t reload_sections, reload_items, reconfigure_items;
    uint32_t sections[8];
    dfc_index_path reloads[64], reconfigures[64];
} refresh_copy;

static refresh_copy copy_refresh(const dfc_batch *batch) {
    refresh_copy c = {batch->reload_section_count, batch->reload_item_count, batch->reconfigure_item_count, {0}, {{0, 0}}, {{0, 0}}};
    if (c.reload_sections > 8 || c.reload_items > 64 || c.reconfigure_items > 64) return c;
    if (c.reload_sections) memcpy(c.sections, batch->reload_sections, c.reload_sections * sizeof(uint32_t));
    if (c.reload_items) memcpy(c.reloads, batch->reload_items, c.reload_items * sizeof(dfc_index_path));
    if (c.reconfigure_items) memcpy(c.reconfigures, batch->reconfigure_items, c.reconfigure_items * sizeof(dfc_index_path));
    return c;
}

static bool same_refresh(const refresh_copy *a, const refresh_copy *b) {
    return a->reload_sections == b->reload_sections && a->reload_items == b->reload_items &&
           a->reconfigure_items == b->reconfigure_items &&
           memcmp(a->sections, b->sections, sizeof a->sections) == 0 &&
           memcmp(a->reloads, b->reloads, sizeof a->reloads) == 0 &&
           memcmp(a->reconfigures, b->reconfigures, sizeof a->reconfigures) == 0;
}

/* Snapshots whose sections and items all stay in place take the refresh-only planner; its
 * refresh batch must equal the general planner's, reached by giving the new snapshot one
 * more (empty) section at the end. Near misses (an item across a section boundary with the
 * same flat order, two items swapped, a section renamed) must not take it. */
static void test_sections_refresh_in_place(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_sections_result r;
    rng_state = 1414;
    enum { MAX_SECTIONS = 6, MAX_ITEMS = 1000 };
    uint64_t sections[MAX_SECTIONS + 1], section_copy[MAX_SECTIONS + 1], items[MAX_ITEMS], item_copy[MAX_ITEMS];
    uint64_t changed[MAX_ITEMS];
    uint32_t starts[MAX_SECTIONS + 2], start_copy[MAX_SECTIONS + 2], moved_starts[MAX_SECTIONS + 2];
    uint32_t reloads[24], reconfigures[24], section_reloads[4];
    for (int trial = 0; trial < 600; trial++) {
        const size_t so = rng_below(MAX_SECTIONS);
        const size_t per_section = trial % 50 == 0 ? 160 : 24; /* a few long runs of clear flags */
        starts[0] = 0;
        for (size_t s = 0; s < so; s++) {
            sections[s] = 1 + s;
            starts[s + 1] = starts[s] + (uint32_t)rng_below(per_section);
        }
        const size_t n = starts[so];
        for (size_t i = 0; i < n; i++) items[i] = 5000 + i * 7;
        dfc_refresh refresh = {reloads, n ? rng_below(24) : 0, reconfigures, n ? rng_below(24) : 0, section_reloads,
                               so ? rng_below(4) : 0};
        for (size_t k = 0; k < refresh.reload_item_count; k++) reloads[k] = (uint32_t)rng_below(n);
        for (size_t k = 0; k < refresh.reconfigure_item_count; k++)
            reconfigures[k] = rng_below(3) == 0 && refresh.reload_item_count ? reloads[rng_below(refresh.reload_item_count)]
                                                                             : (uint32_t)rng_below(n);
        for (size_t k = 0; k < refresh.reload_section_count; k++) section_reloads[k] = (uint32_t)rng_below(so);
        const dfc_refresh *request = trial % 7 == 0 ? NULL : &refresh;
        const unsigned flags = trial % 2 ? DFC_DIFF_ASSUME_UNIQUE : 0;
        /* The new side: the old arrays themselves, or equal copies. */
        memcpy(section_copy, sections, sizeof sections);
        memcpy(item_copy, items, n * sizeof(uint64_t));
        memcpy(start_copy, starts, (so + 1) * sizeof(uint32_t));
        const bool shared = trial % 4 < 2;
        const uint64_t *new_sections = shared ? sections : section_copy, *new_items = shared ? items : item_copy;
        const uint32_t *new_starts = shared ? starts : start_copy;

        CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, new_sections, so, new_items, new_starts,
                                         request, &r),
                     DFC_OK);
        CHECK(!r.has_structural);
        for (size_t i = 0; i < n; i++) CHECK(r.old_item_to_new[i] == (int32_t)i && r.new_item_to_old[i] == (int32_t)i);
        const refresh_copy fast = copy_refresh(&r.refresh);
        const int fast_has_refresh = r.has_refresh;
        sections[so] = 999; /* the general planner: one more section, empty, at the end */
        starts[so + 1] = starts[so];
        CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, sections, so + 1, items, starts, request, &r), DFC_OK);
        CHECK(r.has_structural && r.structural.insert_section_count == 1 && r.structural.insert_sections[0] == so);
        CHECK_EQ_INT(r.structural.delete_item_count + r.structural.insert_item_count + r.structural.move_item_count +
                         r.structural.move_section_count + r.structural.delete_section_count, 0);
        const refresh_copy general = copy_refresh(&r.refresh);
        CHECK(same_refresh(&fast, &general));
        CHECK_EQ_INT(fast_has_refresh, r.has_refresh);

        /* Near misses: each changes the layout, so the batch must have structural operations. */
        if (so >= 2 && starts[1] > 0) { /* the last item of section 0 opens section 1: same flat order */
            memcpy(moved_starts, starts, (so + 1) * sizeof(uint32_t));
            moved_starts[1]--;
            CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, sections, so, items, moved_starts, request, &r), DFC_OK);
            CHECK(r.has_structural && r.structural.move_item_count + r.structural.delete_item_count == 1);
        }
        if (n >= 2) { /* two neighbours swapped */
            memcpy(changed, items, n * sizeof(uint64_t));
            size_t i = rng_below(n - 1);
            changed[i] = items[i + 1];
            changed[i + 1] = items[i];
            CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, sections, so, changed, starts, NULL, &r), DFC_OK);
            CHECK(r.has_structural);
        }
        if (so >= 1) { /* a section renamed */
            uint64_t renamed[MAX_SECTIONS + 1];
            memcpy(renamed, sections, so * sizeof(uint64_t));
            renamed[rng_below(so)] = 777;
            CHECK_EQ_INT(diff_sections_flags(ctx, flags, sections, so, items, starts, renamed, so, items, starts, NULL, &r), DFC_OK);
            CHECK(r.has_structural && r.structural.delete_section_count == 1 && r.structural.insert_section_count == 1);
        }
    }
    dfc_context_free(ctx);
}

void test_reserve_covers_every_flat_diff(void); /* test_reserve.c */

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--list-contract") == 0) return contract_list();
    const harness_test tests[] = {
        {"version", test_version},
        {"xxh3_known_answers", test_xxh3_known_answers},
        {"hash_bytes_arguments", test_hash_bytes_arguments},
        {"idtable_against_model", test_idtable_against_model},
        {"idtable_large", test_idtable_large},
        {"idtable_capacities_and_wrap", test_idtable_capacities_and_wrap},
        {"idtable_fingerprint_collisions", test_idtable_fingerprint_collisions},
        {"idtable_batch_and_copy", test_idtable_batch_and_copy},
        {"idtable_remove_insert_cycle", test_idtable_remove_insert_cycle},
        {"idtable_removed_marks", test_idtable_removed_marks},
        {"idtable_clearing_marks_keeps_capacity", test_idtable_clearing_marks_keeps_capacity},
        {"lis_tie_breaks", test_lis_tie_breaks},
        {"flat_known_answers", test_flat_known_answers},
        {"flat_random_replay", test_flat_random_replay},
        {"flat_large_modes_agree", test_flat_large_modes_agree},
        {"flat_exhaustive_small", test_flat_exhaustive_small},
        {"forced_collisions", test_forced_collisions},
        {"callback_identity", test_callback_identity},
        {"duplicates_reported", test_duplicates_reported},
        {"validated_duplicates_in_every_matching_shape", test_validated_duplicates_in_every_matching_shape},
        {"duplicates_found_in_large_lists", test_duplicates_found_in_large_lists},
        {"bad_arguments", test_bad_arguments},
        {"sections_known_answers", test_sections_known_answers},
        {"sections_refresh_in_place", test_sections_refresh_in_place},
        {"warm_context_allocates_nothing", test_warm_context_allocates_nothing},
        {"reserve_covers_every_flat_diff", test_reserve_covers_every_flat_diff},
        {"allocation_failure_every_k", test_allocation_failure_every_k},
        {"contract", test_contract},
        {"size_guards", test_size_guards},
    };
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        harness_failures_in_test = 0;
        tests[i].run();
        if (harness_failures_in_test == 0) {
            passed++;
            printf("ok   %s\n", tests[i].name);
        } else {
            failed++;
            printf("FAIL %s (%d checks)\n", tests[i].name, harness_failures_in_test);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
