/* Deferred matching (dfc_match.c, DFC_MATCH_DEFERRED): keys decide, the caller checks each
 * matched pair afterwards. With keys unique per list it is the injective diff; with keys that
 * collide, every result whose pairs all check equal is the confirmed (byte) diff's result, and
 * a key two elements of one list share either fails a pair's check or stops the diff with
 * DFC_ERR_SHARED_KEY. */
#include "dfc.h"
#include "harness.h"
#include "oracle.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static const dfc_match deferred = {DFC_MATCH_DEFERRED, NULL, NULL};

/* Two lists of distinct values from 0..<2*max, each up to max long. */
static void distinct_pair(uint64_t *a, size_t *n, uint64_t *b, size_t *m, size_t max) {
    uint64_t pool[256];
    for (size_t i = 0; i < 2 * max; i++) pool[i] = i * 7 + 1;
    shuffle(pool, 2 * max);
    *n = rng_below(max + 1);
    memcpy(a, pool, *n * sizeof(uint64_t));
    /* Most of the new list is the old one, the rest fresh values, in a partly shuffled order. */
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++)
        if (rng_below(4) != 0) b[kept++] = a[i];
    size_t fresh = rng_below(max - kept + 1);
    for (size_t i = 0; i < fresh; i++) b[kept + i] = pool[max + i];
    *m = kept + fresh;
    for (size_t swaps = rng_below(4); swaps > 0 && *m > 1; swaps--) {
        size_t i = rng_below(*m), j = rng_below(*m);
        uint64_t t = b[i];
        b[i] = b[j];
        b[j] = t;
    }
}

/* Whether every matched pair of `r` pairs equal values, and the maps agree both ways. */
static bool pairs_check(const uint64_t *a, size_t n, const uint64_t *b, size_t m, const dfc_flat_result *r) {
    for (size_t j = 0; j < m; j++) {
        int32_t i = r->new_to_old[j];
        if (i == DFC_NOT_FOUND) continue;
        if ((size_t)i >= n || a[i] != b[j] || r->old_to_new[i] != (int32_t)j) return false;
    }
    return true;
}

/* The maps are a matching: every new element's partner names it back, and no other old element
 * names a partner (so no old element has two). n old, m new. */
static bool map_pair_is_a_matching(const int32_t *old_to_new, size_t n, const int32_t *new_to_old, size_t m) {
    size_t matched_new = 0, matched_old = 0;
    for (size_t j = 0; j < m; j++) {
        if (new_to_old[j] == DFC_NOT_FOUND) continue;
        if (new_to_old[j] < 0 || (size_t)new_to_old[j] >= n || old_to_new[new_to_old[j]] != (int32_t)j) return false;
        matched_new++;
    }
    for (size_t i = 0; i < n; i++) matched_old += old_to_new[i] != DFC_NOT_FOUND;
    return matched_new == matched_old;
}

static bool same_list(const uint32_t *x, const uint32_t *y, size_t count) {
    return count == 0 || memcmp(x, y, count * sizeof(uint32_t)) == 0;
}

/* Keys unique per list: the deferred diff is the injective one, operation for operation. */
void test_deferred_match_is_injective_on_unique_keys(void) {
    dfc_context *ctx = dfc_context_create(NULL), *other = dfc_context_create(NULL);
    rng_state = 7;
    enum { MAX = 100 };
    uint64_t a[MAX], b[MAX];
    for (int round = 0; round < 400; round++) {
        size_t n, m;
        distinct_pair(a, &n, b, &m, MAX);
        dfc_list old_list = {a, n, NULL, NULL}, new_list = {b, m, NULL, NULL};
        dfc_flat_result r, expected;
        CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &deferred, DFC_DIFF_ASSUME_UNIQUE, &r), DFC_OK);
        CHECK_EQ_INT(diff_keys(other, a, n, b, m, DFC_DIFF_ASSUME_UNIQUE, &expected), DFC_OK);
        CHECK(pairs_check(a, n, b, m, &r));
        CHECK_EQ_INT(r.move_count, expected.move_count);
        CHECK(r.delete_count == expected.delete_count && same_list(r.deletes, expected.deletes, r.delete_count));
        CHECK(r.insert_count == expected.insert_count && same_list(r.inserts, expected.inserts, r.insert_count));
        CHECK(same_list(r.move_from, expected.move_from, r.move_count) && same_list(r.move_to, expected.move_to, r.move_count));
    }
    dfc_context_free(ctx);
    dfc_context_free(other);
}

/* Keys masked to 2 bits, so most elements share a key with others in their own list: a
 * result is either refused (DFC_ERR_SHARED_KEY), or has a pair whose values differ (the
 * caller's check fails), or is exactly the confirmed diff's. Each of the three happens. A
 * result that is not refused is always a matching (dfc.h: the caller checks each pair once,
 * not whether an old element has two partners), trusted or validated with the old list trusted. */
void test_deferred_match_with_shared_keys(void) {
    dfc_context *ctx = dfc_context_create(NULL), *other = dfc_context_create(NULL);
    rng_state = 11;
    enum { MAX = 24 };
    uint64_t a[MAX], b[MAX], old_keys[MAX], new_keys[MAX];
    unsigned char old_bytes[MAX * 8], new_bytes[MAX * 8];
    uint64_t old_offsets[MAX + 1], new_offsets[MAX + 1];
    int refused = 0, rejected = 0, accepted = 0;
    for (int round = 0; round < 3000; round++) {
        size_t n, m;
        distinct_pair(a, &n, b, &m, MAX);
        for (size_t i = 0; i < n; i++) old_keys[i] = a[i] & 3, memcpy(old_bytes + i * 8, &a[i], 8), old_offsets[i] = i * 8;
        for (size_t i = 0; i < m; i++) new_keys[i] = b[i] & 3, memcpy(new_bytes + i * 8, &b[i], 8), new_offsets[i] = i * 8;
        old_offsets[n] = n * 8, new_offsets[m] = m * 8;
        dfc_list old_list = {old_keys, n, NULL, NULL}, new_list = {new_keys, m, NULL, NULL};
        dfc_flat_result r, expected;
        /* validated with the old list trusted: its shared keys stay, the new list's stop it */
        int status = dfc_diff_flat(ctx, &old_list, &new_list, &deferred, DFC_DIFF_ASSUME_OLD_UNIQUE, &r);
        CHECK(status == DFC_OK || status == DFC_ERR_SHARED_KEY);
        if (status == DFC_OK) CHECK(map_pair_is_a_matching(r.old_to_new, n, r.new_to_old, m));
        status = dfc_diff_flat(ctx, &old_list, &new_list, &deferred, DFC_DIFF_ASSUME_UNIQUE, &r);
        CHECK(status == DFC_OK || status == DFC_ERR_SHARED_KEY);
        if (status == DFC_ERR_SHARED_KEY) {
            refused++;
            continue;
        }
        CHECK(map_pair_is_a_matching(r.old_to_new, n, r.new_to_old, m));
        if (!pairs_check(a, n, b, m, &r)) {
            rejected++;
            continue;
        }
        accepted++;
        dfc_list old_bytes_list = {old_keys, n, old_bytes, old_offsets}, new_bytes_list = {new_keys, m, new_bytes, new_offsets};
        const dfc_match bytes = {DFC_MATCH_BYTES, NULL, NULL};
        CHECK_EQ_INT(dfc_diff_flat(other, &old_bytes_list, &new_bytes_list, &bytes, DFC_DIFF_ASSUME_UNIQUE, &expected), DFC_OK);
        CHECK(memcmp(r.new_to_old, expected.new_to_old, m * sizeof(int32_t)) == 0);
        CHECK(r.move_count == expected.move_count && same_list(r.move_from, expected.move_from, r.move_count) &&
              same_list(r.move_to, expected.move_to, r.move_count));
        CHECK(r.delete_count == expected.delete_count && r.insert_count == expected.insert_count);
        CHECK(oracle_flat_replay(a, n, b, m, &r));
    }
    CHECK(refused > 0);
    CHECK(rejected > 0);
    CHECK(accepted > 0);
    dfc_context_free(ctx);
    dfc_context_free(other);
}

/* The same promise for the sectioned diff, at both levels (sections and items keyed by 2 bits,
 * both deferred), under every flag: a result not refused is a matching of sections and of items. */
void test_deferred_sectioned_maps_are_a_matching(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    rng_state = 29;
    enum { MAX = 24, SECTIONS = 4 };
    uint64_t a[MAX], b[MAX], old_keys[MAX], new_keys[MAX];
    uint64_t old_sections[SECTIONS], new_sections[SECTIONS];
    uint32_t old_starts[SECTIONS + 1], new_starts[SECTIONS + 1];
    const unsigned all_flags[] = {0, DFC_DIFF_ASSUME_UNIQUE, DFC_DIFF_ASSUME_OLD_UNIQUE};
    int diffed = 0, refused = 0;
    for (int round = 0; round < 3000; round++) {
        size_t n, m;
        distinct_pair(a, &n, b, &m, MAX);
        for (size_t i = 0; i < n; i++) old_keys[i] = a[i] & 3;
        for (size_t j = 0; j < m; j++) new_keys[j] = b[j] & 3;
        /* 1-4 sections a side, keys masked too (sections 10, 11, ... share keys mod 2) */
        const size_t so = 1 + rng_below(SECTIONS), sn = 1 + rng_below(SECTIONS);
        for (size_t s = 0; s < so; s++) old_sections[s] = (10 + s) & 1;
        for (size_t s = 0; s < sn; s++) new_sections[s] = (10 + (s + round) % SECTIONS) & 1;
        old_starts[0] = new_starts[0] = 0;
        for (size_t s = 1; s < so; s++) old_starts[s] = (uint32_t)(n * s / so);
        for (size_t s = 1; s < sn; s++) new_starts[s] = (uint32_t)(m * s / sn);
        old_starts[so] = (uint32_t)n, new_starts[sn] = (uint32_t)m;
        const dfc_snapshot old_snapshot = {{old_sections, so, NULL, NULL}, {old_keys, n, NULL, NULL}, old_starts};
        const dfc_snapshot new_snapshot = {{new_sections, sn, NULL, NULL}, {new_keys, m, NULL, NULL}, new_starts};
        dfc_sections_result r;
        const unsigned flags = all_flags[round % 3];
        const int status = dfc_diff_sections(ctx, &old_snapshot, &new_snapshot, NULL, &deferred, &deferred, flags, &r);
        CHECK(status == DFC_OK || status == DFC_ERR_SHARED_KEY);
        if (status != DFC_OK) {
            refused++;
            continue;
        }
        diffed++;
        CHECK(map_pair_is_a_matching(r.old_section_to_new, so, r.new_section_to_old, sn));
        CHECK(map_pair_is_a_matching(r.old_item_to_new, n, r.new_item_to_old, m));
    }
    CHECK(diffed > 0 && refused > 0);
    dfc_context_free(ctx);
}

/* Two new elements find one old element through the table: the diff stops, naming the cause. */
void test_deferred_match_refuses_one_partner_for_two(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    const uint64_t old_keys[] = {10, 20, 20, 30}, new_keys[] = {30, 20, 20, 10};
    dfc_list old_list = {old_keys, 4, NULL, NULL}, new_list = {new_keys, 4, NULL, NULL};
    dfc_flat_result r;
    CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &deferred, DFC_DIFF_ASSUME_UNIQUE, &r), DFC_ERR_SHARED_KEY);
    CHECK(strstr(dfc_status_string(DFC_ERR_SHARED_KEY), "DFC_ERR_SHARED_KEY") != NULL);
    CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &deferred, 0, &r), DFC_ERR_SHARED_KEY);
    /* The same for a sectioned diff, at both levels. */
    const uint32_t starts[] = {0, 4};
    const uint64_t section = 1;
    dfc_snapshot old_snapshot = {{&section, 1, NULL, NULL}, old_list, starts};
    dfc_snapshot new_snapshot = {{&section, 1, NULL, NULL}, new_list, starts};
    dfc_sections_result sections;
    CHECK_EQ_INT(dfc_diff_sections(ctx, &old_snapshot, &new_snapshot, NULL, &injective, &deferred, DFC_DIFF_ASSUME_UNIQUE, &sections),
                 DFC_ERR_SHARED_KEY);
    /* Validated, keys alone cannot tell a repeat from a shared key: the diff stops the same way. */
    CHECK_EQ_INT(dfc_diff_sections(ctx, &old_snapshot, &new_snapshot, NULL, &deferred, &deferred, 0, &sections),
                 DFC_ERR_SHARED_KEY);
    dfc_context_free(ctx);
}

static bool keys_repeat(const uint64_t *keys, size_t count) {
    for (size_t i = 0; i < count; i++)
        for (size_t j = i + 1; j < count; j++)
            if (keys[i] == keys[j]) return true;
    return false;
}

/* A validated deferred diff stops with DFC_ERR_SHARED_KEY exactly when a list it checks holds
 * two equal keys (with DFC_DIFF_ASSUME_OLD_UNIQUE: the new list, the old one's keys made
 * unique); otherwise it is the injective diff of the keys. */
void test_deferred_validated_refuses_repeated_keys(void) {
    dfc_context *ctx = dfc_context_create(NULL), *other = dfc_context_create(NULL);
    rng_state = 13;
    enum { MAX = 24 };
    uint64_t a[MAX], b[MAX], old_keys[MAX], new_keys[MAX];
    int refused = 0, diffed = 0;
    for (int round = 0; round < 3000; round++) {
        size_t n, m;
        distinct_pair(a, &n, b, &m, MAX);
        const unsigned flags = round % 2 == 0 ? 0 : DFC_DIFF_ASSUME_OLD_UNIQUE;
        /* Keys masked to 4 bits: repeats are common. The old keys stay whole under the flag. */
        for (size_t i = 0; i < n; i++) old_keys[i] = flags ? a[i] : a[i] & 15;
        for (size_t i = 0; i < m; i++) new_keys[i] = b[i] & 15;
        dfc_list old_list = {old_keys, n, NULL, NULL}, new_list = {new_keys, m, NULL, NULL};
        dfc_flat_result r, expected;
        const int status = dfc_diff_flat(ctx, &old_list, &new_list, &deferred, flags, &r);
        const bool repeated = keys_repeat(new_keys, m) || (!flags && keys_repeat(old_keys, n));
        CHECK_EQ_INT(status, repeated ? DFC_ERR_SHARED_KEY : DFC_OK);
        if (status != DFC_OK) {
            refused++;
            continue;
        }
        diffed++;
        CHECK_EQ_INT(diff_keys(other, old_keys, n, new_keys, m, DFC_DIFF_ASSUME_UNIQUE, &expected), DFC_OK);
        CHECK(memcmp(r.new_to_old, expected.new_to_old, m * sizeof(int32_t)) == 0);
        CHECK(r.move_count == expected.move_count && r.delete_count == expected.delete_count &&
              r.insert_count == expected.insert_count);
    }
    CHECK(refused > 0 && diffed > 0);
    dfc_context_free(ctx);
    dfc_context_free(other);
}

/* diff_keys with each identifier the 8 bytes of its key, matched by bytes: keys only propose
 * matches, each one confirmed (the duplicate check's confirming loop). Lists of up to 800. */
static int diff_key_bytes(dfc_context *ctx, const uint64_t *a, size_t n, const uint64_t *b, size_t m, unsigned flags,
                          dfc_flat_result *r) {
    enum { MAX = 800 };
    static uint64_t old_offsets[MAX + 1], new_offsets[MAX + 1];
    if (n > MAX || m > MAX) return DFC_ERR_TOO_LARGE;
    for (size_t i = 0; i <= n; i++) old_offsets[i] = 8 * i;
    for (size_t j = 0; j <= m; j++) new_offsets[j] = 8 * j;
    static const dfc_match by_bytes = {DFC_MATCH_BYTES, NULL, NULL};
    dfc_list old_list = {a, n, a, old_offsets}, new_list = {b, m, b, new_offsets};
    return dfc_diff_flat(ctx, &old_list, &new_list, &by_bytes, flags, r);
}

/* DFC_DIFF_ASSUME_OLD_UNIQUE checks the new list alone, through a small table of the new
 * elements left unmatched when they are few: on a unique old list it finds exactly the
 * duplicates (and gives exactly the result) of the diff that checks both lists. Lists of up to
 * 400, the new one the old one with a few elements dropped, some fresh, and repeats of old or
 * fresh elements (next to their first, far away, in the common prefix), so both ways of
 * checking run. */
void test_old_unique_check_finds_every_repeat(void) {
    dfc_context *ctx = dfc_context_create(NULL), *other = dfc_context_create(NULL), *bytes = dfc_context_create(NULL);
    rng_state = 17;
    enum { MAX = 400 };
    static uint64_t a[MAX], b[2 * MAX];
    int repeats = 0, clean = 0;
    for (int round = 0; round < 1500; round++) {
        const size_t n = 1 + rng_below(MAX);
        for (size_t i = 0; i < n; i++) a[i] = i * 13 + 5;
        shuffle(a, n);
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (rng_below(16) != 0) b[m++] = a[i];
        const size_t fresh = rng_below(round % 3 == 0 ? n : 8);
        for (size_t k = 0; k < fresh && m < 2 * MAX; k++) b[m++] = 100000 + k;
        const size_t repeated = rng_below(3);
        for (size_t k = 0; k < repeated && m > 0 && m < 2 * MAX; k++) {
            const uint64_t again = b[rng_below(m)];
            b[m++] = again;
        }
        for (size_t swaps = rng_below(6); swaps > 0 && m > 1; swaps--) {
            size_t i = rng_below(m), j = rng_below(m);
            uint64_t t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
        dfc_flat_result r, expected;
        const int status = diff_keys(ctx, a, n, b, m, DFC_DIFF_ASSUME_OLD_UNIQUE, &r);
        const int full = diff_keys(other, a, n, b, m, 0, &expected);
        CHECK_EQ_INT(status, full);
        CHECK_EQ_INT(status, keys_repeat(b, m) ? DFC_ERR_DUPLICATE : DFC_OK);
        /* The same lists matched by their bytes, each key match confirmed: the same answer. */
        dfc_flat_result by_bytes;
        CHECK_EQ_INT(diff_key_bytes(bytes, a, n, b, m, DFC_DIFF_ASSUME_OLD_UNIQUE, &by_bytes), status);
        if (status == DFC_ERR_DUPLICATE) {
            repeats++;
            size_t count = 0, expected_count = 0, byte_count = 0;
            const dfc_duplicate *found = dfc_context_duplicates(ctx, &count);
            const dfc_duplicate *all = dfc_context_duplicates(other, &expected_count);
            const dfc_duplicate *by_bytes_found = dfc_context_duplicates(bytes, &byte_count);
            CHECK(count == expected_count && (count == 0 || memcmp(found, all, count * sizeof *found) == 0));
            CHECK(byte_count == count && (count == 0 || memcmp(found, by_bytes_found, count * sizeof *found) == 0));
            continue;
        }
        CHECK(memcmp(by_bytes.new_to_old, expected.new_to_old, m * sizeof(int32_t)) == 0);
        clean++;
        CHECK(memcmp(r.new_to_old, expected.new_to_old, m * sizeof(int32_t)) == 0);
        CHECK(r.move_count == expected.move_count && same_list(r.move_to, expected.move_to, r.move_count));
    }
    CHECK(repeats > 300 && clean > 300);
    dfc_context_free(ctx);
    dfc_context_free(other);
    dfc_context_free(bytes);
}

/* Lists of only empty identifiers matched by bytes may come without bytes (NULL) and with
 * offsets that are not 0: confirming a key match must not offset the NULL pointer (UBSan,
 * under which make c-test runs, stops on `NULL + 5`). Flat and sectioned. */
void test_byte_match_of_empty_identifiers_without_bytes(void) {
    dfc_context *ctx = dfc_context_create(NULL);
    const dfc_match bytes = {DFC_MATCH_BYTES, NULL, NULL};
    const uint64_t empty_key = dfc_hash_one(NULL, 0, 0);
    for (uint64_t start = 0; start <= 5; start += 5) {
        uint64_t keys[] = {empty_key}, offsets[] = {start, start};
        dfc_list old_list = {keys, 1, NULL, offsets}, new_list = {keys, 1, NULL, offsets};
        dfc_flat_result r;
        CHECK_EQ_INT(dfc_diff_flat(ctx, &old_list, &new_list, &bytes, 0, &r), DFC_OK);
        CHECK(r.new_to_old[0] == 0 && r.delete_count == 0 && r.insert_count == 0 && r.move_count == 0);
        /* Two of them in one list are a duplicate, found by confirming their equal keys. */
        uint64_t two_keys[] = {empty_key, empty_key}, two_offsets[] = {start, start, start};
        dfc_list two = {two_keys, 2, NULL, two_offsets};
        CHECK_EQ_INT(dfc_diff_flat(ctx, &two, &new_list, &bytes, 0, &r), DFC_ERR_DUPLICATE);
    }
    dfc_context_free(ctx);
}
