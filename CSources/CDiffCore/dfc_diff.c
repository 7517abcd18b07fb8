/* The flat diff: match the lists (dfc_match.c), then deletes, inserts and the
 * minimal moves off the LIS of old indices in new order. */
#include "dfc_internal.h"

int dfc_diff_flat(dfc_context *context, const dfc_list *old_list, const dfc_list *new_list,
                  const dfc_match *match, unsigned flags, dfc_flat_result *result) {
    if (context == NULL) return DFC_ERR_NULL_ARGUMENT;
    context->duplicate_count = 0; /* whatever this call returns, no earlier call's duplicates remain */
    if (result == NULL) return DFC_ERR_NULL_ARGUMENT;
    int status = dfc__check_match(match);
    if (status != DFC_OK) return status;
    if ((status = dfc__check_list(old_list, match)) != DFC_OK) return status;
    if ((status = dfc__check_list(new_list, match)) != DFC_OK) return status;
    if ((flags & ~DFC_DIFF_FLAGS) != 0) return DFC_ERR_INVALID_ARGUMENT;

    const dfc_identity identity = {{old_list, new_list}, *match};
    const size_t n = old_list->count, m = new_list->count;

    int32_t *old_to_new = dfc__context_scratch(context, DFC_BUF_OLD_TO_NEW, n, sizeof(int32_t), &status);
    if (old_to_new == NULL) return status;
    int32_t *new_to_old = dfc__context_scratch(context, DFC_BUF_NEW_TO_OLD, m, sizeof(int32_t), &status);
    if (new_to_old == NULL) return status;
    size_t prefix = 0, suffix = 0;
    status = dfc__match_lists(context, &identity, flags, 0, old_to_new, new_to_old, &prefix, &suffix);
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
