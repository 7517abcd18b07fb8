/* Matching two lists of identifiers, shared by the flat and the two-level diff:
 * argument checks, trimming the common prefix and suffix, then the validated
 * (every duplicate reported) or the trusted (run-following) matcher. */
#include "dfc_internal.h"

int dfc__check_match(const dfc_match *match) {
    if (match == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (match->kind < DFC_MATCH_INJECTIVE || match->kind > DFC_MATCH_DEFERRED)
        return DFC_ERR_INVALID_ARGUMENT;
    if (match->kind == DFC_MATCH_CALLBACK && match->equal == NULL) return DFC_ERR_INVALID_ARGUMENT;
    return DFC_OK;
}

int dfc__check_list(const dfc_list *list, const dfc_match *match) {
    if (list == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (list->count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    if (list->count == 0) return DFC_OK;
    if (list->keys == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (match->kind == DFC_MATCH_BYTES) {
        if (list->offsets == NULL) return DFC_ERR_INVALID_ARGUMENT;
        for (size_t i = 0; i < list->count; i++)
            if (list->offsets[i + 1] < list->offsets[i]) return DFC_ERR_INCONSISTENT;
        if (list->bytes == NULL && list->offsets[list->count] > list->offsets[0])
            return DFC_ERR_INVALID_ARGUMENT;
        if (dfc__byte_range_overflows(list->bytes, list->offsets[list->count])) return DFC_ERR_TOO_LARGE;
    }
    return DFC_OK;
}

/* The part of the lists left after trimming, and the maps being filled. */
typedef struct dfc_match_work {
    dfc_context *context;
    const dfc_identity *identity;
    int is_section; /* reported with duplicates */
    size_t prefix, old_end, new_end;
    int32_t *old_to_new, *new_to_old;
    bool taken_twice; /* set by the trusted matcher: two new elements found one old element */
    /* Set by the trusted matcher: the new elements it left unmatched, in the sequence-position buffer. */
    const uint32_t *unmatched_new;
    size_t unmatched_new_count;
} dfc_match_work;

/* Checks every element of `side` for duplicates with a table of its own. */
static int dfc__report_duplicates(dfc_context *context, const dfc_identity *identity, int side,
                                  int which, int is_section) {
    dfc_scratch_table table = {0};
    table.is_section = is_section;
    return dfc__scratch_table_build(context, which, identity, side, 0,
                                    identity->lists[side]->count, true, &table);
}

/* Reports equal new elements that are both unmatched (absent from the old list). */
static int dfc__check_unmatched_duplicates(dfc_match_work *w) {
    size_t unmatched = 0;
    for (size_t j = w->prefix; j < w->new_end; j++) unmatched += w->new_to_old[j] == DFC_NOT_FOUND;
    if (unmatched < 2) return DFC_OK;
    dfc_scratch_table table = {0};
    int status = dfc__scratch_table_init(w->context, DFC_BUF_SLOTS_NEW, unmatched, DFC_SIDE_NEW, &table);
    if (status != DFC_OK) return status;
    const uint64_t *new_keys = w->identity->lists[DFC_SIDE_NEW]->keys;
    for (size_t j = w->prefix; j < w->new_end; j++) {
        if (w->new_to_old[j] != DFC_NOT_FOUND) continue;
        int64_t earlier = dfc__scratch_table_find(&table, w->identity, DFC_SIDE_NEW, (uint32_t)j);
        if (earlier == DFC_NOT_FOUND) {
            dfc__scratch_table_insert(&table, new_keys[j], (uint32_t)j);
        } else if ((status = dfc__context_add_duplicate(w->context, DFC_SIDE_NEW, w->is_section, (uint32_t)earlier,
                                                        (uint32_t)j)) != DFC_OK) {
            return status;
        }
    }
    return DFC_OK;
}

/* Untrusted input with a duplicate somewhere: every old element goes in the table so
 * a duplicate anywhere is seen; a new element matching an old one already taken is a
 * new-side duplicate. Every duplicate is reported, with its first occurrence. */
static int dfc__match_reporting_duplicates(dfc_match_work *w) {
    dfc_context *context = w->context;
    const dfc_identity *identity = w->identity;
    const size_t n = identity->lists[DFC_SIDE_OLD]->count;
    dfc_scratch_table table = {0};
    table.is_section = w->is_section;
    int status = dfc__scratch_table_build(context, DFC_BUF_SLOTS, identity, DFC_SIDE_OLD, 0, n, true, &table);
    if (status != DFC_OK) return status;
    if (context->duplicate_count > 0) {
        /* With duplicates in the old list the matching cannot find every new
         * duplicate, so the new list gets its own full check. */
        return dfc__report_duplicates(context, identity, DFC_SIDE_NEW, DFC_BUF_SLOTS_NEW, w->is_section);
    }
    const uint64_t *new_keys = identity->lists[DFC_SIDE_NEW]->keys;
    /* Most new elements are one of the next few old ones: look there before hashing. The
     * cursor follows the old order; a match far away (a moved element) does not drag it. */
    enum { WINDOW = 4, RESYNC = 64 };
    size_t cursor = w->prefix;
    for (size_t j = w->prefix; j < w->new_end; j++) {
        int64_t i = DFC_NOT_FOUND;
        for (size_t k = cursor; k < cursor + WINDOW && k < n; k++) {
            if (dfc__same(identity, DFC_SIDE_OLD, (uint32_t)k, DFC_SIDE_NEW, (uint32_t)j)) {
                i = (int64_t)k;
                break;
            }
        }
        if (i == DFC_NOT_FOUND) {
            if (j + DFC_TABLE_PREFETCH < w->new_end)
                dfc__scratch_table_prefetch(&table, new_keys[j + DFC_TABLE_PREFETCH]);
            i = dfc__scratch_table_find(&table, identity, DFC_SIDE_NEW, (uint32_t)j);
        }
        if (i != DFC_NOT_FOUND && (size_t)i >= cursor && (size_t)i < cursor + RESYNC) cursor = (size_t)i + 1;
        if (i == DFC_NOT_FOUND) {
            w->new_to_old[j] = DFC_NOT_FOUND;
        } else if (w->old_to_new[i] == DFC_NOT_FOUND) {
            w->old_to_new[i] = (int32_t)j;
            w->new_to_old[j] = (int32_t)i;
        } else {
            status = dfc__context_add_duplicate(context, DFC_SIDE_NEW, w->is_section, (uint32_t)w->old_to_new[i], (uint32_t)j);
            if (status != DFC_OK) return status;
            w->new_to_old[j] = DFC_NOT_FOUND;
        }
    }
    return dfc__check_unmatched_duplicates(w);
}

/* The trusted matcher's first pass: walks both lists side by side, matching each new
 * element against the next few old ones, and lists in `pending` the new elements it
 * leaves. Returns how many it left and sets *hits to how many it matched. Inlined twice,
 * with `keys_decide` true (keys alone tell identifiers apart: no confirmation) and false.
 * The work's fields are read through locals: read through `w`, the compiler reloaded them
 * around every store to the maps and spilled the loop's state, about 55 instructions an
 * element where the common case (the old element at the cursor) needs 15. */
__attribute__((always_inline)) static inline size_t dfc__follow_old_order(const dfc_match_work *w, uint32_t *pending,
                                                                          bool keys_decide, size_t *hits_out) {
    enum { WINDOW = 4, PROBATION = 256, STUCK = 8, RESYNC_REACH = 512 };
    const dfc_identity *identity = w->identity;
    const uint64_t *const old_keys = identity->lists[DFC_SIDE_OLD]->keys;
    const uint64_t *const new_keys = identity->lists[DFC_SIDE_NEW]->keys;
    int32_t *const old_to_new = w->old_to_new, *const new_to_old = w->new_to_old;
    const size_t prefix = w->prefix, old_end = w->old_end, new_end = w->new_end;
    size_t pending_count = 0, cursor = prefix, misses_in_a_row = 0, j = prefix;
    /* Elements seen minus twice the hits: a hit takes one off, a miss adds one. */
    ptrdiff_t deficit = 0;
    for (; j < new_end; j++) {
        /* Give up on following when it mostly fails (shuffles: hits * 2 < seen, a positive
         * deficit): every element then takes the table. Hits no longer grow after that, so
         * giving up is final. The deficit is tested first: it is negative through a typical
         * change, where the whole test was ten instructions an element. */
        if (DFC_UNLIKELY(deficit > 0)) {
            if (j - prefix >= PROBATION) break;
        }
        const uint64_t key = new_keys[j];
        size_t found = SIZE_MAX;
        if (cursor < old_end && old_keys[cursor] == key &&
            (keys_decide || dfc__confirm(identity, DFC_SIDE_OLD, (uint32_t)cursor, DFC_SIDE_NEW, (uint32_t)j))) {
            found = cursor; /* the common case: the next old element */
        } else {
            /* Usually new[j] is one of the next few old elements; after a run of misses the
             * cursor may sit before a long stretch of removed elements, so look further. */
            const size_t reach = misses_in_a_row >= STUCK ? RESYNC_REACH : WINDOW;
            const size_t window_end = cursor + reach < old_end ? cursor + reach : old_end;
            for (size_t k = cursor + 1; k < window_end; k++) {
                if (old_keys[k] == key &&
                    (keys_decide || dfc__confirm(identity, DFC_SIDE_OLD, (uint32_t)k, DFC_SIDE_NEW, (uint32_t)j))) {
                    found = k;
                    break;
                }
            }
        }
        if (found != SIZE_MAX) {
            old_to_new[found] = (int32_t)j;
            new_to_old[j] = (int32_t)found;
            cursor = found + 1;
            deficit--;
            misses_in_a_row = 0;
        } else {
            new_to_old[j] = DFC_NOT_FOUND;
            pending[pending_count++] = (uint32_t)j;
            deficit++;
            misses_in_a_row = misses_in_a_row >= STUCK ? 0 : misses_in_a_row + 1;
        }
    }
    *hits_out = (size_t)((ptrdiff_t)(j - prefix) - deficit) / 2; /* seen = hits + misses, deficit = misses - hits */
    for (; j < new_end; j++) {
        new_to_old[j] = DFC_NOT_FOUND;
        pending[pending_count++] = (uint32_t)j;
    }
    return pending_count;
}

/* Trusted (unique) input. Most of a typical new list follows the old order, so a
 * first pass walks both lists side by side, matching each new element against the
 * next few old ones; only what that pass leaves (moved, inserted, deleted
 * elements) goes through a table, which is then small. Identifiers are unique, so
 * whichever way an element is matched, the match is the same. */
static int dfc__match_trusted(dfc_match_work *w) {
    const dfc_identity *identity = w->identity;
    int status = DFC_OK;
    uint32_t *pending = dfc__context_scratch(w->context, DFC_BUF_SEQUENCE_POSITION,
                                             w->new_end - w->prefix, sizeof(uint32_t), &status);
    if (pending == NULL) return status;
    const uint64_t *old_keys = identity->lists[DFC_SIDE_OLD]->keys;
    const uint64_t *new_keys = identity->lists[DFC_SIDE_NEW]->keys;
    size_t hits;
    const size_t pending_count = dfc__keys_decide(&identity->match) ? dfc__follow_old_order(w, pending, true, &hits)
                                                            : dfc__follow_old_order(w, pending, false, &hits);
    w->unmatched_new = pending;
    w->unmatched_new_count = pending_count;
    if (pending_count == 0) return DFC_OK;
    /* Each hit took a distinct old element (the cursor moves past it), and nothing else
     * has matched yet: the rest of the old middle is unmatched. */
    const size_t unmatched_old = (w->old_end - w->prefix) - hits;
    if (unmatched_old == 0) return DFC_OK; /* every pending element is an insert */
    dfc_scratch_table table = {0};
    status = dfc__scratch_table_init(w->context, DFC_BUF_SLOTS, unmatched_old, DFC_SIDE_OLD, &table);
    if (status != DFC_OK) return status;
    int32_t *const old_to_new = w->old_to_new, *const new_to_old = w->new_to_old;
    const size_t prefix = w->prefix, old_end = w->old_end;
    /* A table the caches hold needs no prefetching, which cost about 10 instructions an old
     * element (matched ones included) and 20 a lookup. */
    const bool prefetch = dfc__table_outgrows_cache((table.mask + 1) * sizeof(uint64_t));
    for (size_t i = prefix; i < old_end; i++) {
        if (prefetch && i + DFC_TABLE_PREFETCH < old_end)
            dfc__scratch_table_prefetch(&table, old_keys[i + DFC_TABLE_PREFETCH]);
        if (old_to_new[i] == DFC_NOT_FOUND) dfc__scratch_table_insert(&table, old_keys[i], (uint32_t)i);
    }
    bool taken_twice = false;
    for (size_t k = 0; k < pending_count; k++) {
        if (prefetch) {
            if (k + DFC_TABLE_PREFETCH < pending_count)
                dfc__scratch_table_prefetch(&table, new_keys[pending[k + DFC_TABLE_PREFETCH]]);
            /* Halfway there the slot has arrived: fetch what the lookup will read next, the
             * old element's key (the confirmation) and its entry in old_to_new. */
            if (k + DFC_TABLE_PREFETCH / 2 < pending_count)
                dfc__scratch_table_prefetch_match(&table, identity, new_keys[pending[k + DFC_TABLE_PREFETCH / 2]],
                                                  old_to_new);
        }
        int64_t i = dfc__scratch_table_find(&table, identity, DFC_SIDE_NEW, pending[k]);
        if (i != DFC_NOT_FOUND) {
            taken_twice |= old_to_new[i] != DFC_NOT_FOUND;
            old_to_new[i] = (int32_t)pending[k];
            new_to_old[pending[k]] = (int32_t)i;
        }
    }
    w->taken_twice |= taken_twice;
    /* Keep the ones still unmatched (the inserts), in place: validation probes only those. */
    size_t unmatched_new = 0;
    for (size_t k = 0; k < pending_count; k++)
        if (new_to_old[pending[k]] == DFC_NOT_FOUND) pending[unmatched_new++] = pending[k];
    w->unmatched_new_count = unmatched_new;
    return DFC_OK;
}

/* How many unmatched new elements dfc__unmatched_are_new takes among n old ones: a table
 * of them that stays in the L2 cache (4,096 entries at a quarter load: at most 256 KiB of
 * 8-byte slots), and fewer than the old elements looked up in it. More go to
 * dfc__list_is_unique. */
static inline size_t dfc__few_unmatched(size_t n) {
    const size_t quarter = n / 4;
    return quarter < 4096 ? quarter : 4096;
}

/* Whether any old key equals (and, unless keys decide, is confirmed equal to) a
 * new element in `table`, the unmatched new elements' slots. Inlined twice, with `keys_decide`
 * true and false: with the confirmation's possible call out of the loop, its state stays in
 * registers (about 20 instructions an old element spilled, most of them on the common path,
 * an empty home slot). */
__attribute__((always_inline)) static inline bool dfc__old_meets_unmatched(const dfc_identity *identity,
                                                                           const dfc_scratch_table *table,
                                                                           bool keys_decide) {
    const uint64_t *const old_keys = identity->lists[DFC_SIDE_OLD]->keys;
    const uint64_t *const new_keys = identity->lists[DFC_SIDE_NEW]->keys;
    const uint64_t *const slots = table->slots;
    const size_t mask = table->mask, n = identity->lists[DFC_SIDE_OLD]->count;
    const unsigned shift = table->shift;
    for (size_t i = 0; i < n; i++) {
        const uint64_t key = old_keys[i], fingerprint = key << 32;
        for (size_t position = dfc__slot_home(key, shift);; position = (position + 1) & mask) {
            const uint64_t slot = slots[position];
            if (slot == 0) break;
            if ((slot & UINT64_C(0xFFFFFFFF00000000)) != fingerprint) continue;
            const uint32_t j = (uint32_t)(slot & 0xFFFFFFFFu) - 1;
            if (new_keys[j] == key &&
                (keys_decide || dfc__confirm(identity, DFC_SIDE_OLD, (uint32_t)i, DFC_SIDE_NEW, j)))
                return true;
        }
    }
    return false;
}

/* Sets *unique to whether the new elements the trusted matcher left unmatched are all new:
 * none equal to another of them or to any old element. For a trusted-unique old list that
 * is the whole check (see dfc__match_validated); with few of them it is a small table of
 * those, every old element looked up in it, where dfc__list_is_unique hashes both lists. */
static int dfc__unmatched_are_new(dfc_match_work *w, bool *unique) {
    *unique = true;
    const size_t count = w->unmatched_new_count;
    if (count == 0) return DFC_OK;
    const dfc_identity *identity = w->identity;
    const uint64_t *new_keys = identity->lists[DFC_SIDE_NEW]->keys;
    /* Sized for four times the elements (at most a quarter full): every old element is
     * looked up, almost always in vain, and a lookup in vain walks the run at its home slot.
     * Entered and probed here rather than through dfc__scratch_table_find and _insert: the
     * compiler keeps that find out of line (about 48 instructions a call against 12), and
     * forcing it inline made the trusted matcher's own lookups longer. */
    dfc_scratch_table table = {0};
    int status = dfc__scratch_table_init(w->context, DFC_BUF_SLOTS, 4 * count, DFC_SIDE_NEW, &table);
    if (status != DFC_OK) return status;
    uint64_t *slots = table.slots;
    const size_t mask = table.mask;
    for (size_t k = 0; k < count; k++) {
        const uint32_t j = w->unmatched_new[k];
        const uint64_t key = new_keys[j], fingerprint = key << 32;
        size_t position = dfc__slot_home(key, table.shift);
        for (uint64_t slot; (slot = slots[position]) != 0; position = (position + 1) & mask) {
            if ((slot & UINT64_C(0xFFFFFFFF00000000)) != fingerprint) continue;
            const uint32_t other = (uint32_t)(slot & 0xFFFFFFFFu) - 1;
            if (new_keys[other] == key && dfc__confirm(identity, DFC_SIDE_NEW, other, DFC_SIDE_NEW, j)) {
                *unique = false;
                return DFC_OK;
            }
        }
        slots[position] = dfc__pack_slot(key, j);
    }
    *unique = dfc__keys_decide(&identity->match) ? !dfc__old_meets_unmatched(identity, &table, true)
                                                 : !dfc__old_meets_unmatched(identity, &table, false);
    return DFC_OK;
}

/* Untrusted input. Duplicates are rare, so the trusted matcher runs first and then one
 * check finds out whether its matching is the exact one: whether the old list holds no
 * two equal elements, and no new element it left unmatched equals an old element or
 * another unmatched one (dfc_unique.c). That covers every duplicate in the new list: two
 * equal new elements are either both unmatched, or one is matched to an old element the
 * other equals, or both are matched — to two old elements (two equal old ones) or to one
 * (taken twice). Only the unmatched new elements are hashed besides the old list, so a
 * typical validated diff costs one partitioned pass over the old keys more than a trusted
 * one. On a duplicate the middle is matched again by the exhaustive path, which reports
 * every duplicate. */
static int dfc__match_validated(dfc_match_work *w, bool old_unique) {
    int status = dfc__match_trusted(w);
    if (status != DFC_OK) return status;
    bool unique = !w->taken_twice;
    const size_t n = w->identity->lists[DFC_SIDE_OLD]->count;
    if (unique && old_unique && w->unmatched_new_count <= dfc__few_unmatched(n))
        status = dfc__unmatched_are_new(w, &unique);
    else if (unique)
        status = dfc__list_is_unique(w->context, w->identity, DFC_SIDE_OLD, w->unmatched_new, w->unmatched_new_count,
                                     &unique);
    if (status != DFC_OK) return status;
    if (unique) return DFC_OK;
    /* Keys alone cannot tell a repeated identifier from two that share a key: the caller
     * confirms (and reports the repeats it finds). */
    if (w->identity->match.kind == DFC_MATCH_DEFERRED) return DFC_ERR_SHARED_KEY;
    for (size_t i = w->prefix; i < w->old_end; i++) w->old_to_new[i] = DFC_NOT_FOUND;
    return dfc__match_reporting_duplicates(w);
}

int dfc__match_lists(dfc_context *context, const dfc_identity *identity, unsigned flags, int is_section,
                     int32_t *old_to_new, int32_t *new_to_old, size_t *common_prefix, size_t *common_suffix) {
    const size_t n = identity->lists[DFC_SIDE_OLD]->count, m = identity->lists[DFC_SIDE_NEW]->count;
    /* Equal leading and trailing elements are matched without touching a table. */
    size_t shorter = n < m ? n : m, prefix = 0, suffix = 0;
    while (prefix < shorter &&
           dfc__same(identity, DFC_SIDE_OLD, (uint32_t)prefix, DFC_SIDE_NEW, (uint32_t)prefix))
        prefix++;
    while (suffix < shorter - prefix &&
           dfc__same(identity, DFC_SIDE_OLD, (uint32_t)(n - 1 - suffix), DFC_SIDE_NEW,
                     (uint32_t)(m - 1 - suffix)))
        suffix++;
    const size_t old_end = n - suffix, new_end = m - suffix;
    for (size_t i = 0; i < prefix; i++) old_to_new[i] = new_to_old[i] = (int32_t)i;
    for (size_t i = prefix; i < old_end; i++) old_to_new[i] = DFC_NOT_FOUND;
    for (size_t k = 0; k < suffix; k++) {
        old_to_new[old_end + k] = (int32_t)(new_end + k);
        new_to_old[new_end + k] = (int32_t)(old_end + k);
    }
    dfc_match_work work = {context, identity, is_section, prefix, old_end, new_end, old_to_new, new_to_old, false, NULL, 0};
    const bool validate = (flags & DFC_DIFF_ASSUME_UNIQUE) == 0;
    int status = validate ? dfc__match_validated(&work, (flags & DFC_DIFF_ASSUME_OLD_UNIQUE) != 0) : dfc__match_trusted(&work);
    /* Keys alone gave one old element two partners: only a shared key does that. */
    if (status == DFC_OK && work.taken_twice && identity->match.kind == DFC_MATCH_DEFERRED) status = DFC_ERR_SHARED_KEY;
    /* A list cut short (out of memory while reporting) must not be read as the repeats of this call. */
    if (status != DFC_OK) context->duplicate_count = 0;
    *common_prefix = prefix;
    *common_suffix = suffix;
    return status;
}
