/* The flat diff: trim, match identifiers, LIS for minimal moves. */
#include "dfc_internal.h"

enum { DFC_LOOKUP_PREFETCH = 16 };

/* The part of the lists left after trimming, and the maps being filled. */
typedef struct dfc_flat_work {
    dfc_context *context;
    const dfc_identity *identity;
    int is_section; /* reported with duplicates */
    size_t prefix, old_end, new_end;
    int32_t *old_to_new, *new_to_old;
} dfc_flat_work;

/* Checks every element of `side` for duplicates with a table of its own. */
static int dfc__report_duplicates(dfc_context *context, const dfc_identity *identity, int side,
                                  int which, int is_section) {
    dfc_scratch_table table = {0};
    table.is_section = is_section;
    return dfc__scratch_table_build(context, which, identity, side, 0,
                                    identity->lists[side]->count, true, &table);
}

static int dfc__check_unmatched_duplicates(dfc_flat_work *w);

/* Untrusted input: every old element goes in the table so a duplicate anywhere is
 * seen; a new element matching an old one already taken is a new-side duplicate. */
static int dfc__match_validated(dfc_flat_work *w) {
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
            if (j + DFC_LOOKUP_PREFETCH < w->new_end)
                dfc__scratch_table_prefetch(&table, new_keys[j + DFC_LOOKUP_PREFETCH]);
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

/* Trusted (unique) input. Most of a typical new list follows the old order, so a
 * first pass walks both lists side by side, matching each new element against the
 * next few old ones; only what that pass leaves (moved, inserted, deleted
 * elements) goes through a table, which is then small. Identifiers are unique, so
 * whichever way an element is matched, the match is the same. */
static int dfc__match_trusted(dfc_flat_work *w) {
    enum { WINDOW = 4, PROBATION = 256, STUCK = 8, RESYNC_REACH = 512 };
    const dfc_identity *identity = w->identity;
    int status = DFC_OK;
    uint32_t *pending = dfc__context_scratch(w->context, DFC_BUF_SEQUENCE_POSITION,
                                             w->new_end - w->prefix, sizeof(uint32_t), &status);
    if (pending == NULL) return status;
    size_t pending_count = 0, cursor = w->prefix, hits = 0, misses_in_a_row = 0;
    for (size_t j = w->prefix; j < w->new_end; j++) {
        size_t seen = j - w->prefix;
        /* Give up on following when it mostly fails (shuffles): every element then takes the table. */
        if (seen >= PROBATION && hits * 2 < seen) {
            w->new_to_old[j] = DFC_NOT_FOUND;
            pending[pending_count++] = (uint32_t)j;
            continue;
        }
        /* Usually new[j] is one of the next few old elements; after a run of misses
         * the cursor may sit before a long stretch of removed elements, so look further. */
        size_t reach = misses_in_a_row >= STUCK ? RESYNC_REACH : WINDOW;
        size_t found = SIZE_MAX;
        for (size_t k = cursor; k < cursor + reach && k < w->old_end; k++) {
            if (dfc__same(identity, DFC_SIDE_OLD, (uint32_t)k, DFC_SIDE_NEW, (uint32_t)j)) {
                found = k;
                break;
            }
        }
        if (found != SIZE_MAX) {
            w->old_to_new[found] = (int32_t)j;
            w->new_to_old[j] = (int32_t)found;
            cursor = found + 1;
            hits++;
            misses_in_a_row = 0;
        } else {
            w->new_to_old[j] = DFC_NOT_FOUND;
            pending[pending_count++] = (uint32_t)j;
            misses_in_a_row = misses_in_a_row >= STUCK ? 0 : misses_in_a_row + 1;
        }
    }
    if (pending_count == 0) return DFC_OK;
    size_t unmatched_old = 0;
    for (size_t i = w->prefix; i < w->old_end; i++) unmatched_old += w->old_to_new[i] == DFC_NOT_FOUND;
    if (unmatched_old == 0) return DFC_OK; /* every pending element is an insert */
    dfc_scratch_table table = {0};
    status = dfc__scratch_table_init(w->context, DFC_BUF_SLOTS, unmatched_old, DFC_SIDE_OLD, &table);
    if (status != DFC_OK) return status;
    const uint64_t *old_keys = identity->lists[DFC_SIDE_OLD]->keys;
    const uint64_t *new_keys = identity->lists[DFC_SIDE_NEW]->keys;
    for (size_t i = w->prefix; i < w->old_end; i++)
        if (w->old_to_new[i] == DFC_NOT_FOUND) dfc__scratch_table_insert(&table, old_keys[i], (uint32_t)i);
    for (size_t k = 0; k < pending_count; k++) {
        if (k + DFC_LOOKUP_PREFETCH < pending_count)
            dfc__scratch_table_prefetch(&table, new_keys[pending[k + DFC_LOOKUP_PREFETCH]]);
        int64_t i = dfc__scratch_table_find(&table, identity, DFC_SIDE_NEW, pending[k]);
        if (i != DFC_NOT_FOUND) {
            w->old_to_new[i] = (int32_t)pending[k];
            w->new_to_old[pending[k]] = (int32_t)i;
        }
    }
    return DFC_OK;
}

/* Reports equal new elements that are both unmatched (absent from the old list). */
static int dfc__check_unmatched_duplicates(dfc_flat_work *w) {
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

int dfc__match_lists(dfc_context *context, const dfc_identity *identity, bool validate, int is_section,
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
    dfc_flat_work work = {context, identity, is_section, prefix, old_end, new_end, old_to_new, new_to_old};
    int status = validate ? dfc__match_validated(&work) : dfc__match_trusted(&work);
    *common_prefix = prefix;
    *common_suffix = suffix;
    return status;
}

int dfc_diff_flat(dfc_context *context, const dfc_list *old_list, const dfc_list *new_list,
                  const dfc_match *match, unsigned flags, dfc_flat_result *result) {
    if (context == NULL || result == NULL) return DFC_ERR_NULL_ARGUMENT;
    int status = dfc__check_match(match);
    if (status != DFC_OK) return status;
    if ((status = dfc__check_list(old_list, match)) != DFC_OK) return status;
    if ((status = dfc__check_list(new_list, match)) != DFC_OK) return status;
    if ((flags & ~DFC_DIFF_ASSUME_UNIQUE) != 0) return DFC_ERR_INVALID_ARGUMENT;
    context->duplicate_count = 0;

    const dfc_identity identity = {{old_list, new_list}, *match};
    const size_t n = old_list->count, m = new_list->count;
    const bool validate = (flags & DFC_DIFF_ASSUME_UNIQUE) == 0;

    int32_t *old_to_new = dfc__context_scratch(context, DFC_BUF_OLD_TO_NEW, n, sizeof(int32_t), &status);
    if (old_to_new == NULL) return status;
    int32_t *new_to_old = dfc__context_scratch(context, DFC_BUF_NEW_TO_OLD, m, sizeof(int32_t), &status);
    if (new_to_old == NULL) return status;
    size_t prefix = 0, suffix = 0;
    status = dfc__match_lists(context, &identity, validate, 0, old_to_new, new_to_old, &prefix, &suffix);
    if (status != DFC_OK) return status;
    if (context->duplicate_count > 0) {
        dfc__context_sort_duplicates(context);
        return DFC_ERR_DUPLICATE;
    }
    const size_t old_end = n - suffix, new_end = m - suffix;

    /* Outputs, sized exactly. Only the untrimmed middle holds deletes, inserts and moves. */
    size_t delete_count = 0, insert_count = 0;
    for (size_t i = prefix; i < old_end; i++) delete_count += old_to_new[i] == DFC_NOT_FOUND;
    for (size_t j = prefix; j < new_end; j++) insert_count += new_to_old[j] == DFC_NOT_FOUND;
    const size_t sequence_count = (new_end - prefix) - insert_count;
    uint32_t *deletes = dfc__context_scratch(context, DFC_BUF_DELETES, delete_count, sizeof(uint32_t), &status);
    uint32_t *inserts = deletes ? dfc__context_scratch(context, DFC_BUF_INSERTS, insert_count, sizeof(uint32_t), &status) : NULL;
    uint32_t *sequence = inserts ? dfc__context_scratch(context, DFC_BUF_SEQUENCE, sequence_count, sizeof(uint32_t), &status) : NULL;
    uint32_t *positions = sequence ? dfc__context_scratch(context, DFC_BUF_SEQUENCE_POSITION, sequence_count, sizeof(uint32_t), &status) : NULL;
    uint8_t *keep = positions ? dfc__context_scratch(context, DFC_BUF_KEEP, sequence_count, sizeof(uint8_t), &status) : NULL;
    if (keep == NULL) return status;
    size_t d = 0, s = 0, k = 0;
    for (size_t i = prefix; i < old_end; i++)
        if (old_to_new[i] == DFC_NOT_FOUND) deletes[d++] = (uint32_t)i;
    for (size_t j = prefix; j < new_end; j++) {
        if (new_to_old[j] == DFC_NOT_FOUND) {
            inserts[k++] = (uint32_t)j;
        } else {
            sequence[s] = (uint32_t)new_to_old[j];
            positions[s++] = (uint32_t)j;
        }
    }

    size_t kept = 0;
    if ((status = dfc__lis(context, sequence, sequence_count, keep, &kept)) != DFC_OK) return status;
    const size_t move_count = sequence_count - kept;
    uint32_t *move_from = dfc__context_scratch(context, DFC_BUF_MOVE_FROM, move_count, sizeof(uint32_t), &status);
    uint32_t *move_to = move_from ? dfc__context_scratch(context, DFC_BUF_MOVE_TO, move_count, sizeof(uint32_t), &status) : NULL;
    if (move_to == NULL) return status;
    size_t moves = 0;
    for (size_t t = 0; t < sequence_count; t++) {
        if (!keep[t]) {
            move_from[moves] = sequence[t];
            move_to[moves++] = positions[t];
        }
    }

    result->deletes = deletes;
    result->delete_count = delete_count;
    result->inserts = inserts;
    result->insert_count = insert_count;
    result->move_from = move_from;
    result->move_to = move_to;
    result->move_count = moves;
    result->old_to_new = old_to_new;
    result->new_to_old = new_to_old;
    result->old_count = n;
    result->new_count = m;
    result->matched = prefix + suffix + sequence_count;
    result->common_prefix = prefix;
    result->common_suffix = suffix;
    return DFC_OK;
}
