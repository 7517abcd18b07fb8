/* libFuzzer target over both diffs, with oracles (docs/RELIABILITY_METHOD.md, G5).
 *
 * Input bytes become two snapshots of small integer identifiers (duplicates and
 * empty sections included) plus refresh requests; the flat diff of the item lists
 * must replay exactly with minimal moves, or report duplicates that really exist;
 * the sectioned diff must succeed or fail with the same verdict, its two-level batch
 * must replay onto the old sections under UIKit's rules to exactly the new ones, with
 * UIKit's counts and minimal moves (oracle.h), and the trusted path must give the same
 * batch; matched on keys of 3 bits with deferred checks (DFC_MATCH_DEFERRED), the diff
 * is refused, or a matched pair is unequal, or it is that same batch. Validated (flags 0 and
 * DFC_DIFF_ASSUME_OLD_UNIQUE) on keys masked to 3 to 6 bits, DFC_MATCH_DEFERRED stops with
 * DFC_ERR_SHARED_KEY exactly when a checked list repeats a key, and is otherwise the
 * injective diff of those keys. DFC_DIFF_ASSUME_OLD_UNIQUE on an old side without
 * duplicates gives flags 0's status, result and duplicate list (both diffs). A refresh
 * decider (dfc_diff_sections_deciding) marking new items chosen by the input gives the
 * batches of dfc_diff_sections with those marks as refresh requests, after being handed
 * zeroed marks and the maps the result reports; its own status, or a stray mark bit
 * (DFC_ERR_INVALID_ARGUMENT), stops the diff with the result untouched. The bytes after
 * the two snapshots choose the marks (the whole input when there are none; its last byte
 * the stray bit, the decider's status and the key mask). Built by `make fuzz` with the
 * toolchain's clang; `make fuzz-replay` runs the corpus through a plain main (fuzz_main.c). */
#include "dfc.h"
#include "../harness.h"
#include "../oracle.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 48
#define MAX_SECTIONS 8

typedef struct side {
    uint64_t sections[MAX_SECTIONS];
    uint32_t starts[MAX_SECTIONS + 1];
    uint64_t items[MAX_ITEMS];
    size_t section_count, item_count;
} side;

static size_t take(const uint8_t **data, size_t *size) {
    if (*size == 0) return 0;
    uint8_t value = **data;
    (*data)++;
    (*size)--;
    return value;
}

static void read_side(const uint8_t **data, size_t *size, side *s) {
    s->section_count = take(data, size) % (MAX_SECTIONS + 1);
    s->starts[0] = 0;
    s->item_count = 0;
    for (size_t k = 0; k < s->section_count; k++) {
        s->sections[k] = take(data, size) % 12;
        size_t n = take(data, size) % 9;
        for (size_t i = 0; i < n && s->item_count < MAX_ITEMS; i++) s->items[s->item_count++] = take(data, size) % 64;
        s->starts[k + 1] = (uint32_t)s->item_count;
    }
}

static bool has_duplicates(const uint64_t *values, size_t count) {
    for (size_t i = 0; i < count; i++)
        for (size_t j = i + 1; j < count; j++)
            if (values[i] == values[j]) return true;
    return false;
}

/* The two contexts' duplicate lists (dfc_context_duplicates) are the same entries in the same order. */
static bool same_duplicates(const dfc_context *x, const dfc_context *y) {
    size_t xn = 0, yn = 0;
    const dfc_duplicate *xd = dfc_context_duplicates(x, &xn), *yd = dfc_context_duplicates(y, &yn);
    if (xn != yn) return false;
    for (size_t k = 0; k < xn; k++)
        if (xd[k].side != yd[k].side || xd[k].is_section != yd[k].is_section || xd[k].first != yd[k].first ||
            xd[k].duplicate != yd[k].duplicate)
            return false;
    return true;
}

static void check_flat(dfc_context *ctx, const side *a, const side *b) {
    dfc_list old_list = {a->items, a->item_count, NULL, NULL}, new_list = {b->items, b->item_count, NULL, NULL};
    dfc_match match = {DFC_MATCH_INJECTIVE, NULL, NULL};
    dfc_flat_result r;
    int status = dfc_diff_flat(ctx, &old_list, &new_list, &match, 0, &r);
    bool duplicates = has_duplicates(a->items, a->item_count) || has_duplicates(b->items, b->item_count);
    CHECK(duplicates == (status == DFC_ERR_DUPLICATE));
    if (status == DFC_OK) CHECK(oracle_flat_replay(a->items, a->item_count, b->items, b->item_count, &r));
    if (has_duplicates(a->items, a->item_count)) return;
    /* The old list unique, checking the new one alone changes nothing: same status, same
     * result, same duplicates (a second context: the first one's arrays stay). */
    dfc_context *own = dfc_context_create(NULL);
    CHECK(own != NULL);
    dfc_flat_result o;
    CHECK(dfc_diff_flat(own, &old_list, &new_list, &match, DFC_DIFF_ASSUME_OLD_UNIQUE, &o) == status);
    if (status == DFC_ERR_DUPLICATE) CHECK(same_duplicates(ctx, own));
    if (status == DFC_OK) {
#define SAME_FLAT(list, count, type) (o.count == r.count && (r.count == 0 || memcmp(o.list, r.list, r.count * sizeof(type)) == 0))
        CHECK(SAME_FLAT(deletes, delete_count, uint32_t) && SAME_FLAT(inserts, insert_count, uint32_t) &&
              SAME_FLAT(move_from, move_count, uint32_t) && SAME_FLAT(move_to, move_count, uint32_t) &&
              SAME_FLAT(old_to_new, old_count, int32_t) && SAME_FLAT(new_to_old, new_count, int32_t) &&
              o.matched == r.matched && o.common_prefix == r.common_prefix && o.common_suffix == r.common_suffix);
#undef SAME_FLAT
    }
    dfc_context_free(own);
}

/* Two results' batches are the same operations (the trusted path against the validated one). */
static bool same_batch(const dfc_batch *x, const dfc_batch *y) {
#define SAME(list, count, type) (x->count == y->count && (x->count == 0 || memcmp(x->list, y->list, x->count * sizeof(type)) == 0))
    return SAME(delete_sections, delete_section_count, uint32_t) && SAME(insert_sections, insert_section_count, uint32_t) &&
           SAME(move_section_from, move_section_count, uint32_t) && SAME(move_section_to, move_section_count, uint32_t) &&
           SAME(reload_sections, reload_section_count, uint32_t) && SAME(delete_items, delete_item_count, dfc_index_path) &&
           SAME(insert_items, insert_item_count, dfc_index_path) && SAME(move_item_from, move_item_count, dfc_index_path) &&
           SAME(move_item_to, move_item_count, dfc_index_path) && SAME(reload_items, reload_item_count, dfc_index_path) &&
           SAME(reconfigure_items, reconfigure_item_count, dfc_index_path);
#undef SAME
}

/* Two sectioned results of the same snapshots are the same: batches, what they hold, and maps. */
static bool same_result(const dfc_sections_result *x, const dfc_sections_result *y, const side *a, const side *b) {
#define SAME_MAP(map, count) (count == 0 || memcmp(x->map, y->map, count * sizeof(int32_t)) == 0)
    return same_batch(&x->structural, &y->structural) && same_batch(&x->refresh, &y->refresh) &&
           x->has_structural == y->has_structural && x->has_refresh == y->has_refresh &&
           SAME_MAP(old_item_to_new, a->item_count) && SAME_MAP(new_item_to_old, b->item_count) &&
           SAME_MAP(old_section_to_new, a->section_count) && SAME_MAP(new_section_to_old, b->section_count);
#undef SAME_MAP
}

/* Whether every pair a map matched holds equal values, both ways. */
static bool pairs_equal(const uint64_t *old_values, const uint64_t *new_values, size_t new_count, const int32_t *new_to_old,
                        const int32_t *old_to_new) {
    for (size_t j = 0; j < new_count; j++)
        if (new_to_old[j] != DFC_NOT_FOUND && (old_values[new_to_old[j]] != new_values[j] || old_to_new[new_to_old[j]] != (int32_t)j))
            return false;
    return true;
}

/* Keys of 3 bits (most elements share one with another), matches checked afterwards as a
 * caller of DFC_MATCH_DEFERRED checks them: a result whose pairs all hold equal values is
 * the exact diff's batch (`expected`). */
static void check_deferred(dfc_context *ctx, const side *a, const side *b, const dfc_refresh *refresh,
                           const dfc_sections_result *expected) {
    side ka = *a, kb = *b;
    for (size_t k = 0; k < ka.section_count; k++) ka.sections[k] &= 7;
    for (size_t k = 0; k < kb.section_count; k++) kb.sections[k] &= 7;
    for (size_t i = 0; i < ka.item_count; i++) ka.items[i] &= 7;
    for (size_t i = 0; i < kb.item_count; i++) kb.items[i] &= 7;
    dfc_snapshot old_s = {{ka.sections, ka.section_count, NULL, NULL}, {ka.items, ka.item_count, NULL, NULL}, ka.starts};
    dfc_snapshot new_s = {{kb.sections, kb.section_count, NULL, NULL}, {kb.items, kb.item_count, NULL, NULL}, kb.starts};
    const dfc_match deferred = {DFC_MATCH_DEFERRED, NULL, NULL};
    dfc_sections_result r;
    int status = dfc_diff_sections(ctx, &old_s, &new_s, refresh, &deferred, &deferred, DFC_DIFF_ASSUME_UNIQUE, &r);
    CHECK(status == DFC_OK || status == DFC_ERR_SHARED_KEY);
    if (status != DFC_OK) return;
    if (!pairs_equal(a->sections, b->sections, b->section_count, r.new_section_to_old, r.old_section_to_new) ||
        !pairs_equal(a->items, b->items, b->item_count, r.new_item_to_old, r.old_item_to_new))
        return;
    CHECK(same_batch(&r.structural, &expected->structural) && same_batch(&r.refresh, &expected->refresh));
}

/* Validated DFC_MATCH_DEFERRED (flags 0, and DFC_DIFF_ASSUME_OLD_UNIQUE when the old keys are
 * unique) on keys masked to `mask`: DFC_ERR_SHARED_KEY exactly when a list it checks repeats a
 * key (sections and items alike), otherwise the injective diff of the keys, batches and maps. */
static void check_deferred_validated(const side *a, const side *b, const dfc_refresh *refresh, uint64_t mask) {
    side ka = *a, kb = *b;
    for (size_t k = 0; k < ka.section_count; k++) ka.sections[k] &= mask;
    for (size_t k = 0; k < kb.section_count; k++) kb.sections[k] &= mask;
    for (size_t i = 0; i < ka.item_count; i++) ka.items[i] &= mask;
    for (size_t i = 0; i < kb.item_count; i++) kb.items[i] &= mask;
    const bool old_repeats = has_duplicates(ka.sections, ka.section_count) || has_duplicates(ka.items, ka.item_count);
    const bool new_repeats = has_duplicates(kb.sections, kb.section_count) || has_duplicates(kb.items, kb.item_count);
    dfc_snapshot old_s = {{ka.sections, ka.section_count, NULL, NULL}, {ka.items, ka.item_count, NULL, NULL}, ka.starts};
    dfc_snapshot new_s = {{kb.sections, kb.section_count, NULL, NULL}, {kb.items, kb.item_count, NULL, NULL}, kb.starts};
    const dfc_match deferred = {DFC_MATCH_DEFERRED, NULL, NULL}, exact = {DFC_MATCH_INJECTIVE, NULL, NULL};
    dfc_context *reference = dfc_context_create(NULL), *checked = dfc_context_create(NULL);
    CHECK(reference != NULL && checked != NULL);
    dfc_sections_result expected, r;
    const int expected_status = dfc_diff_sections(reference, &old_s, &new_s, refresh, &exact, &exact, 0, &expected);
    CHECK(expected_status == ((old_repeats || new_repeats) ? DFC_ERR_DUPLICATE : DFC_OK));
    int status = dfc_diff_sections(checked, &old_s, &new_s, refresh, &deferred, &deferred, 0, &r);
    CHECK(status == ((old_repeats || new_repeats) ? DFC_ERR_SHARED_KEY : DFC_OK));
    if (status == DFC_OK) CHECK(same_result(&r, &expected, &ka, &kb));
    if (!old_repeats) {
        status = dfc_diff_sections(checked, &old_s, &new_s, refresh, &deferred, &deferred, DFC_DIFF_ASSUME_OLD_UNIQUE, &r);
        CHECK(status == (new_repeats ? DFC_ERR_SHARED_KEY : DFC_OK));
        if (status == DFC_OK) CHECK(same_result(&r, &expected, &ka, &kb));
    }
    dfc_context_free(checked);
    dfc_context_free(reference);
}

/* What the refresh decider is to do and what it was handed. */
typedef struct decider_state {
    uint8_t marks[MAX_ITEMS]; /* to set, one per new item */
    int status;               /* to return */
    int calls;
    bool zeroed;              /* every mark it was handed was 0 */
    size_t new_count, old_count;
    int32_t new_to_old[MAX_ITEMS], old_to_new[MAX_ITEMS];
} decider_state;

static int decide_marks(void *user_data, const int32_t *new_item_to_old, size_t new_count,
                        const int32_t *old_item_to_new, size_t old_count, uint8_t *marks) {
    decider_state *d = user_data;
    d->calls++;
    d->new_count = new_count;
    d->old_count = old_count;
    d->zeroed = true;
    if (new_count > MAX_ITEMS || old_count > MAX_ITEMS) return d->status;
    for (size_t j = 0; j < new_count; j++) d->zeroed = d->zeroed && marks[j] == 0;
    if (new_count > 0) memcpy(d->new_to_old, new_item_to_old, new_count * sizeof(int32_t));
    if (old_count > 0) memcpy(d->old_to_new, old_item_to_new, old_count * sizeof(int32_t));
    if (new_count > 0) memcpy(marks, d->marks, new_count);
    return d->status;
}

/* dfc_diff_sections_deciding against dfc_diff_sections given the decider's marks as refresh
 * requests (reload wins), merged with the input's own: the same status; when DFC_OK the
 * decider was called once with zeroed marks and the maps the result reports, and the results
 * are the same; when not, it was never called. Then a stray mark bit and a refusing decider
 * stop the diff with DFC_ERR_INVALID_ARGUMENT and the decider's status, the result untouched. */
static void check_deciding(const side *a, const side *b, const dfc_refresh *refresh, const uint8_t *marks,
                           uint8_t pick, unsigned flags) {
    dfc_snapshot old_s = {{a->sections, a->section_count, NULL, NULL}, {a->items, a->item_count, NULL, NULL}, a->starts};
    dfc_snapshot new_s = {{b->sections, b->section_count, NULL, NULL}, {b->items, b->item_count, NULL, NULL}, b->starts};
    const dfc_match match = {DFC_MATCH_INJECTIVE, NULL, NULL};
    uint32_t reload[4 + MAX_ITEMS], reconfigure[4 + MAX_ITEMS];
    dfc_refresh merged = {reload, refresh->reload_item_count, reconfigure, refresh->reconfigure_item_count,
                          refresh->reload_sections, refresh->reload_section_count};
    if (refresh->reload_item_count) memcpy(reload, refresh->reload_items, refresh->reload_item_count * sizeof(uint32_t));
    if (refresh->reconfigure_item_count)
        memcpy(reconfigure, refresh->reconfigure_items, refresh->reconfigure_item_count * sizeof(uint32_t));
    for (size_t j = 0; j < b->item_count; j++) {
        if (marks[j] & DFC_REFRESH_RELOAD) reload[merged.reload_item_count++] = (uint32_t)j;
        else if (marks[j] & DFC_REFRESH_RECONFIGURE) reconfigure[merged.reconfigure_item_count++] = (uint32_t)j;
    }
    dfc_context *plain = dfc_context_create(NULL), *deciding = dfc_context_create(NULL);
    CHECK(plain != NULL && deciding != NULL);
    dfc_sections_result expected, r;
    const int expected_status = dfc_diff_sections(plain, &old_s, &new_s, &merged, &match, &match, flags, &expected);
    decider_state d;
    memset(&d, 0, sizeof d);
    memcpy(d.marks, marks, b->item_count);
    d.status = DFC_OK;
    int status = dfc_diff_sections_deciding(deciding, &old_s, &new_s, refresh, decide_marks, &d, &match, &match, flags, &r);
    CHECK(status == expected_status);
    CHECK(d.calls == (expected_status == DFC_OK ? 1 : 0));
    if (status == DFC_OK) {
        CHECK(d.zeroed && d.new_count == b->item_count && d.old_count == a->item_count);
        CHECK(b->item_count == 0 || memcmp(d.new_to_old, r.new_item_to_old, b->item_count * sizeof(int32_t)) == 0);
        CHECK(a->item_count == 0 || memcmp(d.old_to_new, r.old_item_to_new, a->item_count * sizeof(int32_t)) == 0);
        CHECK(same_result(&r, &expected, a, b));
    }
    /* Stops: the result is left as it was (a byte pattern no diff writes). */
    dfc_sections_result untouched, stopped;
    memset(&untouched, 0xA5, sizeof untouched);
    if (b->item_count > 0) {
        memset(&d, 0, sizeof d);
        memcpy(d.marks, marks, b->item_count);
        d.marks[pick % b->item_count] |= (uint8_t)(4u << (pick >> 4) % 6); /* a bit of 4 ..< 256 */
        stopped = untouched;
        status = dfc_diff_sections_deciding(deciding, &old_s, &new_s, refresh, decide_marks, &d, &match, &match, flags,
                                            &stopped);
        CHECK(status == (expected_status == DFC_OK ? DFC_ERR_INVALID_ARGUMENT : expected_status));
        CHECK(d.calls == (expected_status == DFC_OK ? 1 : 0));
        CHECK(memcmp(&stopped, &untouched, sizeof stopped) == 0);
    }
    const int refusals[2] = {DFC_ERR_SHARED_KEY, (pick & 1) ? -1 - (int)(pick >> 1) : 10 + (int)(pick >> 1)};
    for (size_t k = 0; k < 2; k++) {
        memset(&d, 0, sizeof d);
        memcpy(d.marks, marks, b->item_count);
        d.status = refusals[k];
        stopped = untouched;
        status = dfc_diff_sections_deciding(deciding, &old_s, &new_s, refresh, decide_marks, &d, &match, &match, flags,
                                            &stopped);
        CHECK(status == (expected_status == DFC_OK ? refusals[k] : expected_status));
        CHECK(d.calls == (expected_status == DFC_OK ? 1 : 0));
        CHECK(memcmp(&stopped, &untouched, sizeof stopped) == 0);
    }
    dfc_context_free(deciding);
    dfc_context_free(plain);
}

static void check_sections(dfc_context *ctx, const side *a, const side *b, const uint8_t *data, size_t size,
                           const uint8_t *marks, uint8_t pick) {
    dfc_snapshot old_s = {{a->sections, a->section_count, NULL, NULL}, {a->items, a->item_count, NULL, NULL}, a->starts};
    dfc_snapshot new_s = {{b->sections, b->section_count, NULL, NULL}, {b->items, b->item_count, NULL, NULL}, b->starts};
    uint32_t reload[4], reconfigure[4], reload_sections[2];
    size_t nr = 0, nc = 0, ns = 0;
    for (size_t k = 0; k < 4 && b->item_count && k < size; k++) reload[nr++] = data[k] % b->item_count;
    for (size_t k = 4; k < 8 && b->item_count && k < size; k++) reconfigure[nc++] = data[k] % b->item_count;
    if (b->section_count && size > 8) reload_sections[ns++] = data[8] % b->section_count;
    dfc_refresh refresh = {reload, nr, reconfigure, nc, reload_sections, ns};
    dfc_match match = {DFC_MATCH_INJECTIVE, NULL, NULL};
    dfc_sections_result r;
    int status = dfc_diff_sections(ctx, &old_s, &new_s, &refresh, &match, &match, 0, &r);
    const bool old_duplicates = has_duplicates(a->sections, a->section_count) || has_duplicates(a->items, a->item_count);
    bool duplicates = old_duplicates || has_duplicates(b->sections, b->section_count) || has_duplicates(b->items, b->item_count);
    CHECK(duplicates == (status == DFC_ERR_DUPLICATE));
    if (!old_duplicates) {
        /* The old side unique: DFC_DIFF_ASSUME_OLD_UNIQUE gives the same status, result and
         * duplicates (its own context: the first one's arrays and duplicates stay). */
        dfc_context *own = dfc_context_create(NULL);
        CHECK(own != NULL);
        dfc_sections_result o;
        CHECK(dfc_diff_sections(own, &old_s, &new_s, &refresh, &match, &match, DFC_DIFF_ASSUME_OLD_UNIQUE, &o) == status);
        if (status == DFC_ERR_DUPLICATE) CHECK(same_duplicates(ctx, own));
        if (status == DFC_OK) CHECK(same_result(&o, &r, a, b));
        dfc_context_free(own);
    }
    static const uint64_t masks[4] = {7, 15, 31, 63};
    check_deferred_validated(a, b, &refresh, masks[(pick >> 2) & 3]);
    check_deciding(a, b, &refresh, marks, pick, 0);
    if (!duplicates) check_deciding(a, b, &refresh, marks, pick, DFC_DIFF_ASSUME_UNIQUE);
    if (!old_duplicates) check_deciding(a, b, &refresh, marks, pick, DFC_DIFF_ASSUME_OLD_UNIQUE);
    if (status != DFC_OK) return;
    const oracle_snapshot before = {a->sections, a->section_count, a->items, a->starts};
    const oracle_snapshot after = {b->sections, b->section_count, b->items, b->starts};
    const char *problem = oracle_sections_replay(&before, &after, &r);
    if (problem != NULL) fprintf(stderr, "sectioned batch: %s\n", problem);
    CHECK(problem == NULL);
    /* The trusted path gives the same batches (a second context: the first one's arrays stay). */
    dfc_context *trusted = dfc_context_create(NULL);
    CHECK(trusted != NULL);
    dfc_sections_result again;
    CHECK(dfc_diff_sections(trusted, &old_s, &new_s, &refresh, &match, &match, DFC_DIFF_ASSUME_UNIQUE, &again) == DFC_OK);
    CHECK(same_batch(&r.structural, &again.structural) && same_batch(&r.refresh, &again.refresh));
    check_deferred(trusted, a, b, &refresh, &r);
    dfc_context_free(trusted);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    harness_fatal = 1;
    const uint8_t *cursor = data;
    size_t left = size;
    side a, b;
    read_side(&cursor, &left, &a);
    read_side(&cursor, &left, &b);
    dfc_context *ctx = dfc_context_create(NULL);
    if (ctx == NULL) return 0;
    /* The decider's marks, two bits a new item: from the bytes the snapshots left, or from the
     * whole input when they left none. */
    const uint8_t *source = left > 0 ? cursor : data;
    const size_t source_size = left > 0 ? left : size;
    uint8_t marks[MAX_ITEMS] = {0};
    for (size_t j = 0; j < b.item_count && source_size > 0; j++)
        marks[j] = (uint8_t)((source[(j / 4) % source_size] >> (2 * (j % 4))) & 3);
    const uint8_t pick = size > 0 ? data[size - 1] : 0;
    check_flat(ctx, &a, &b);
    check_sections(ctx, &a, &b, data, size, marks, pick);
    dfc_context_free(ctx);
    return 0;
}
