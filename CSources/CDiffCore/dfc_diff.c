/* The flat diff: trim, match through an identifier table, LIS for minimal moves. */
#include "dfc_internal.h"

/* Checks every element of `side` for duplicates with a table of its own. */
static int dfc__report_duplicates(dfc_context *context, const dfc_identity *identity, int side,
                                  int which) {
    dfc_scratch_table table = {0};
    return dfc__scratch_table_build(context, which, identity, side, 0,
                                    identity->lists[side]->count, true, &table);
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

    /* Equal leading and trailing elements are matched without touching a table. */
    size_t shorter = n < m ? n : m, prefix = 0, suffix = 0;
    while (prefix < shorter &&
           dfc__same(&identity, DFC_SIDE_OLD, (uint32_t)prefix, DFC_SIDE_NEW, (uint32_t)prefix))
        prefix++;
    while (suffix < shorter - prefix &&
           dfc__same(&identity, DFC_SIDE_OLD, (uint32_t)(n - 1 - suffix), DFC_SIDE_NEW,
                     (uint32_t)(m - 1 - suffix)))
        suffix++;
    const size_t old_end = n - suffix, new_end = m - suffix;

    int32_t *old_to_new = dfc__context_scratch(context, DFC_BUF_OLD_TO_NEW, n, sizeof(int32_t), &status);
    if (old_to_new == NULL) return status;
    int32_t *new_to_old = dfc__context_scratch(context, DFC_BUF_NEW_TO_OLD, m, sizeof(int32_t), &status);
    if (new_to_old == NULL) return status;
    for (size_t i = 0; i < prefix; i++) old_to_new[i] = new_to_old[i] = (int32_t)i;
    for (size_t i = prefix; i < old_end; i++) old_to_new[i] = DFC_NOT_FOUND;
    for (size_t k = 0; k < suffix; k++) {
        old_to_new[old_end + k] = (int32_t)(new_end + k);
        new_to_old[new_end + k] = (int32_t)(old_end + k);
    }

    /* Validation puts every old element in the table so that a duplicate anywhere is seen. */
    dfc_scratch_table old_table = {0};
    status = dfc__scratch_table_build(context, DFC_BUF_SLOTS, &identity, DFC_SIDE_OLD,
                                      validate ? 0 : prefix, validate ? n : old_end, validate,
                                      &old_table);
    if (status != DFC_OK) return status;
    if (context->duplicate_count > 0) {
        /* With duplicates in the old list the matching below cannot find every new
         * duplicate, so the new list gets its own full check. */
        status = dfc__report_duplicates(context, &identity, DFC_SIDE_NEW, DFC_BUF_SLOTS_NEW);
        dfc__context_sort_duplicates(context);
        return status == DFC_OK ? DFC_ERR_DUPLICATE : status;
    }

    /* New elements found in no old element go in a second table, to catch duplicates among them. */
    dfc_scratch_table unmatched_table = {0};
    if (validate) {
        status = dfc__scratch_table_init(context, DFC_BUF_SLOTS_NEW, new_end - prefix,
                                         DFC_SIDE_NEW, &unmatched_table);
        if (status != DFC_OK) return status;
    }

    enum { PREFETCH = 16 };
    const uint64_t *new_keys = new_list->keys;
    for (size_t j = prefix; j < new_end; j++) {
        if (j + PREFETCH < new_end) dfc__scratch_table_prefetch(&old_table, new_keys[j + PREFETCH]);
        int64_t i = dfc__scratch_table_find(&old_table, &identity, DFC_SIDE_NEW, (uint32_t)j);
        if (i != DFC_NOT_FOUND && old_to_new[i] != DFC_NOT_FOUND) {
            /* Only reachable when validating: two new elements equal one old element. */
            status = dfc__context_add_duplicate(context, DFC_SIDE_NEW, 0, (uint32_t)old_to_new[i],
                                                (uint32_t)j);
            if (status != DFC_OK) return status;
            new_to_old[j] = DFC_NOT_FOUND;
            continue;
        }
        if (i != DFC_NOT_FOUND) {
            old_to_new[i] = (int32_t)j;
            new_to_old[j] = (int32_t)i;
            continue;
        }
        new_to_old[j] = DFC_NOT_FOUND;
        if (validate) {
            int64_t earlier = dfc__scratch_table_find(&unmatched_table, &identity, DFC_SIDE_NEW, (uint32_t)j);
            if (earlier != DFC_NOT_FOUND) {
                status = dfc__context_add_duplicate(context, DFC_SIDE_NEW, 0, (uint32_t)earlier, (uint32_t)j);
                if (status != DFC_OK) return status;
                continue;
            }
            dfc__scratch_table_insert(&unmatched_table, new_keys[j], (uint32_t)j);
        }
    }
    if (context->duplicate_count > 0) {
        dfc__context_sort_duplicates(context);
        return DFC_ERR_DUPLICATE;
    }

    /* Outputs. Only the untrimmed middle can hold deletes, inserts and moves. */
    const size_t middle_old = old_end - prefix, middle_new = new_end - prefix;
    uint32_t *deletes = dfc__context_scratch(context, DFC_BUF_DELETES, middle_old, sizeof(uint32_t), &status);
    uint32_t *inserts = deletes ? dfc__context_scratch(context, DFC_BUF_INSERTS, middle_new, sizeof(uint32_t), &status) : NULL;
    uint32_t *sequence = inserts ? dfc__context_scratch(context, DFC_BUF_SEQUENCE, middle_new, sizeof(uint32_t), &status) : NULL;
    uint32_t *positions = sequence ? dfc__context_scratch(context, DFC_BUF_SEQUENCE_POSITION, middle_new, sizeof(uint32_t), &status) : NULL;
    uint8_t *keep = positions ? dfc__context_scratch(context, DFC_BUF_KEEP, middle_new, sizeof(uint8_t), &status) : NULL;
    if (keep == NULL) return status;

    size_t delete_count = 0, insert_count = 0, sequence_count = 0;
    for (size_t i = prefix; i < old_end; i++)
        if (old_to_new[i] == DFC_NOT_FOUND) deletes[delete_count++] = (uint32_t)i;
    for (size_t j = prefix; j < new_end; j++) {
        if (new_to_old[j] == DFC_NOT_FOUND) {
            inserts[insert_count++] = (uint32_t)j;
        } else {
            sequence[sequence_count] = (uint32_t)new_to_old[j];
            positions[sequence_count++] = (uint32_t)j;
        }
    }
    size_t kept = 0;
    if ((status = dfc__lis(context, sequence, sequence_count, keep, &kept)) != DFC_OK) return status;
    const size_t move_count = sequence_count - kept;
    uint32_t *move_from = dfc__context_scratch(context, DFC_BUF_MOVE_FROM, move_count, sizeof(uint32_t), &status);
    uint32_t *move_to = move_from ? dfc__context_scratch(context, DFC_BUF_MOVE_TO, move_count, sizeof(uint32_t), &status) : NULL;
    if (move_to == NULL) return status;
    size_t moves = 0;
    for (size_t k = 0; k < sequence_count; k++) {
        if (!keep[k]) {
            move_from[moves] = sequence[k];
            move_to[moves++] = positions[k];
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
