/* The two-level diff (ALGORITHM.md steps 1 and 2): argument checks, sections and
 * items matched (dfc_match.c), a LIS per level; the batch planner (dfc_plan.c)
 * makes the batches. */
#include "dfc_internal.h"

static int dfc__check_snapshot(const dfc_snapshot *snapshot, const dfc_match *section_match,
                               const dfc_match *item_match) {
    if (snapshot == NULL) return DFC_ERR_NULL_ARGUMENT;
    int status;
    if ((status = dfc__check_list(&snapshot->sections, section_match)) != DFC_OK) return status;
    if ((status = dfc__check_list(&snapshot->items, item_match)) != DFC_OK) return status;
    if (snapshot->section_starts == NULL) return DFC_ERR_NULL_ARGUMENT;
    const uint32_t *starts = snapshot->section_starts;
    if (starts[0] != 0 || starts[snapshot->sections.count] != snapshot->items.count) return DFC_ERR_INCONSISTENT;
    for (size_t s = 0; s < snapshot->sections.count; s++)
        if (starts[s + 1] < starts[s]) return DFC_ERR_INCONSISTENT;
    return DFC_OK;
}

static int dfc__check_refresh(const dfc_refresh *refresh, size_t item_count, size_t section_count) {
    if (refresh == NULL) return DFC_OK;
    const struct { const uint32_t *indices; size_t count; size_t limit; } lists[] = {
        {refresh->reload_items, refresh->reload_item_count, item_count},
        {refresh->reconfigure_items, refresh->reconfigure_item_count, item_count},
        {refresh->reload_sections, refresh->reload_section_count, section_count},
    };
    for (size_t k = 0; k < 3; k++) {
        if (lists[k].count == 0) continue;
        if (lists[k].indices == NULL) return DFC_ERR_NULL_ARGUMENT;
        if (lists[k].count > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
        for (size_t x = 0; x < lists[k].count; x++)
            if (lists[k].indices[x] >= lists[k].limit) return DFC_ERR_UNKNOWN_IDENTIFIER;
    }
    return DFC_OK;
}

/* Room for a LIS over up to `count` values: the values, their positions, the keep flags. */
static int dfc__lis_scratch(dfc_context *context, size_t count, uint32_t **sequence, uint32_t **positions,
                            uint8_t **keep) {
    int status = DFC_OK;
    if ((*sequence = dfc__context_scratch(context, DFC_BUF_SEQUENCE, count, sizeof(uint32_t), &status)) == NULL ||
        (*positions = dfc__context_scratch(context, DFC_BUF_SEQUENCE_POSITION, count, sizeof(uint32_t), &status)) == NULL ||
        (*keep = dfc__context_scratch(context, DFC_BUF_KEEP, count, 1, &status)) == NULL)
        return status;
    return DFC_OK;
}

/* The item LIS of every surviving section: marks DFC_ITEM_KEEP on new items that stay. */
static int dfc__item_lis(dfc_context *context, dfc_plan *p) {
    uint32_t *sequence, *positions;
    uint8_t *keep;
    int status = dfc__lis_scratch(context, p->new_count, &sequence, &positions, &keep);
    if (status != DFC_OK) return status;
    const uint32_t *const new_starts = p->new_starts, *const matched_old_section = p->matched_old_section;
    const int32_t *const new_to_old = p->new_to_old;
    uint8_t *const item_flags = p->item_flags;
    for (size_t t = 0; t < p->new_section_count; t++) {
        int32_t o = p->section_new_to_old[t];
        if (o < 0) continue;
        size_t count = 0;
        const uint32_t end = new_starts[t + 1];
        for (uint32_t j = new_starts[t]; j < end; j++) {
            if (matched_old_section[j] == (uint32_t)o) {
                sequence[count] = (uint32_t)new_to_old[j];
                positions[count++] = j;
            }
        }
        if ((status = dfc__lis(context, sequence, count, keep, NULL)) != DFC_OK) return status;
        for (size_t k = 0; k < count; k++)
            if (keep[k]) item_flags[positions[k]] |= DFC_ITEM_KEEP;
    }
    return DFC_OK;
}

/* The section LIS: marks DFC_SECTION_MOVED on surviving sections off it. */
static int dfc__section_lis(dfc_context *context, dfc_plan *p) {
    uint32_t *sequence, *positions;
    uint8_t *keep;
    int status = dfc__lis_scratch(context, p->new_section_count, &sequence, &positions, &keep);
    if (status != DFC_OK) return status;
    size_t count = 0;
    for (size_t t = 0; t < p->new_section_count; t++) {
        if (p->section_new_to_old[t] >= 0) {
            sequence[count] = (uint32_t)p->section_new_to_old[t];
            positions[count++] = (uint32_t)t;
        }
    }
    if ((status = dfc__lis(context, sequence, count, keep, NULL)) != DFC_OK) return status;
    for (size_t k = 0; k < count; k++)
        if (!keep[k]) p->new_flags[positions[k]] |= DFC_SECTION_MOVED;
    return DFC_OK;
}

/* The plan's per-section flags and item LIS verdicts for a diff that is not in place: the
 * old section of every matched new item, GONE / LOSES_ITEMS / FRESH, then both LIS. */
static int dfc__plan_items(dfc_context *context, dfc_plan *p) {
    /* The one pass over the old items: each matched item tells its new position which
     * old section it comes from (the only scattered writes of the planner). */
    uint32_t *const matched_old_section = p->matched_old_section;
    const uint32_t *const old_starts = p->old_starts;
    const int32_t *const old_to_new = p->old_to_new;
    memset(matched_old_section, 0xFF, p->new_count * sizeof(uint32_t));
    for (size_t s = 0; s < p->old_section_count; s++) {
        uint8_t flags = (uint8_t)(p->section_old_to_new[s] < 0 ? DFC_SECTION_GONE : 0);
        const uint32_t end = old_starts[s + 1];
        for (uint32_t i = old_starts[s]; i < end; i++) {
            int32_t j = old_to_new[i];
            if (j >= 0) matched_old_section[j] = (uint32_t)s;
            else flags |= DFC_SECTION_LOSES_ITEMS;
        }
        p->old_flags[s] = flags;
    }
    for (size_t t = 0; t < p->new_section_count; t++)
        p->new_flags[t] = (uint8_t)(p->section_new_to_old[t] < 0 ? DFC_SECTION_FRESH : 0);
    if (p->new_count > 0) memset(p->item_flags, 0, p->new_count);
    int status = dfc__section_lis(context, p);
    if (status != DFC_OK) return status;
    return dfc__item_lis(context, p);
}

/* Marks the refresh requests (checked in range) on the new items and sections. */
static void dfc__flag_refresh(dfc_plan *p, const dfc_refresh *refresh) {
    if (refresh == NULL) return;
    for (size_t k = 0; k < refresh->reload_item_count; k++) p->item_flags[refresh->reload_items[k]] |= DFC_ITEM_RELOAD;
    for (size_t k = 0; k < refresh->reconfigure_item_count; k++)
        p->item_flags[refresh->reconfigure_items[k]] |= DFC_ITEM_RECONFIGURE;
    for (size_t k = 0; k < refresh->reload_section_count; k++)
        p->new_flags[refresh->reload_sections[k]] |= DFC_SECTION_RELOADED;
}

/* Whether two arrays of `count` elements of `size` bytes hold the same bytes; without reading
 * them when they are one array. */
static bool dfc__same_array(const void *a, const void *b, size_t count, size_t size) {
    return a == b || count == 0 || memcmp(a, b, count * size) == 0;
}

/* Whether, keys being the identifiers, both snapshots list the same sections and items in
 * the same order with the same section sizes: the whole of an in-place match, found by
 * comparing arrays (memcmp streams them; the element-wise matcher reloads both lists per
 * element) and costing nothing when the caller passes one set of arrays for both sides.
 * Complexity O(n + s), the n term one memcmp of the item keys; stops at the first difference. */
static bool dfc__same_layout(const dfc_snapshot *a, const dfc_snapshot *b) {
    return a->sections.count == b->sections.count && a->items.count == b->items.count &&
           dfc__same_array(a->section_starts, b->section_starts, a->sections.count + 1, sizeof(uint32_t)) &&
           dfc__same_array(a->sections.keys, b->sections.keys, a->sections.count, sizeof(uint64_t)) &&
           dfc__same_array(a->items.keys, b->items.keys, a->items.count, sizeof(uint64_t));
}

/* The identity map over `count` elements, both ways. */
static void dfc__identity_maps(int32_t *forward, int32_t *backward, size_t count) {
    for (size_t i = 0; i < count; i++) forward[i] = backward[i] = (int32_t)i;
}

/* Asks `decide` for its refresh marks, one zeroed byte per new item, once the items are
 * matched; *marked tells whether it set any. Marks other than the two refresh bits are refused. */
static int dfc__decide_refresh(dfc_context *context, const dfc_plan *p, dfc_refresh_decider decide, void *user_data,
                               uint8_t **marks, bool *marked) {
    int status = DFC_OK;
    *marks = dfc__context_scratch(context, DFC_BUF_REFRESH_MARKS, p->new_count, 1, &status);
    if (*marks == NULL) return status;
    if (p->new_count > 0) memset(*marks, 0, p->new_count);
    status = decide(user_data, p->new_to_old, p->new_count, p->old_to_new, p->old_count, *marks);
    if (status != DFC_OK) return status;
    /* Eight marks at a time: most are clear. */
    uint64_t seen = 0;
    size_t j = 0;
    for (uint64_t word; j + 8 <= p->new_count; j += 8) seen |= (memcpy(&word, *marks + j, sizeof word), word);
    for (; j < p->new_count; j++) seen |= (*marks)[j];
    const uint64_t allowed = 0x0101010101010101u * (DFC_REFRESH_RELOAD | DFC_REFRESH_RECONFIGURE);
    if (seen & ~allowed) return DFC_ERR_INVALID_ARGUMENT;
    *marked = seen != 0;
    return DFC_OK;
}

/* Adds the decider's marks to the item flags (after dfc__plan_items, which clears them);
 * counts the reloads and reconfigures among them into the bounds. */
static void dfc__flag_marks(dfc_plan *p, const uint8_t *marks, size_t *reload_bound, size_t *reconfigure_bound) {
    for (size_t j = 0; j < p->new_count; j++) {
        uint64_t word;
        if (p->new_count - j >= 8 && (memcpy(&word, marks + j, sizeof word), word == 0)) {
            j += 7;
            continue;
        }
        if (marks[j] == 0) continue;
        if (marks[j] & DFC_REFRESH_RELOAD) {
            p->item_flags[j] |= DFC_ITEM_RELOAD;
            ++*reload_bound;
        } else {
            p->item_flags[j] |= DFC_ITEM_RECONFIGURE;
            ++*reconfigure_bound;
        }
    }
}

int dfc_diff_sections(dfc_context *context, const dfc_snapshot *old_snapshot, const dfc_snapshot *new_snapshot,
                      const dfc_refresh *refresh, const dfc_match *section_match, const dfc_match *item_match,
                      unsigned flags, dfc_sections_result *result) {
    return dfc_diff_sections_deciding(context, old_snapshot, new_snapshot, refresh, NULL, NULL, section_match,
                                      item_match, flags, result);
}

int dfc_diff_sections_deciding(dfc_context *context, const dfc_snapshot *old_snapshot,
                               const dfc_snapshot *new_snapshot, const dfc_refresh *refresh,
                               dfc_refresh_decider decide, void *user_data, const dfc_match *section_match,
                               const dfc_match *item_match, unsigned flags, dfc_sections_result *result) {
    if (context == NULL) return DFC_ERR_NULL_ARGUMENT;
    context->duplicate_count = 0; /* whatever this call returns, no earlier call's duplicates remain */
    if (result == NULL) return DFC_ERR_NULL_ARGUMENT;
    int status;
    if ((status = dfc__check_match(section_match)) != DFC_OK) return status;
    if ((status = dfc__check_match(item_match)) != DFC_OK) return status;
    if ((status = dfc__check_snapshot(old_snapshot, section_match, item_match)) != DFC_OK) return status;
    if ((status = dfc__check_snapshot(new_snapshot, section_match, item_match)) != DFC_OK) return status;
    if ((flags & ~DFC_DIFF_FLAGS) != 0) return DFC_ERR_INVALID_ARGUMENT;
    if ((status = dfc__check_refresh(refresh, new_snapshot->items.count, new_snapshot->sections.count)) != DFC_OK)
        return status;
    const bool validate = (flags & DFC_DIFF_ASSUME_UNIQUE) == 0;

    dfc_plan p = {0};
    p.old_section_count = old_snapshot->sections.count;
    p.new_section_count = new_snapshot->sections.count;
    p.old_count = old_snapshot->items.count;
    p.new_count = new_snapshot->items.count;
    p.old_starts = old_snapshot->section_starts;
    p.new_starts = new_snapshot->section_starts;
    const size_t so = p.old_section_count, sn = p.new_section_count, n = p.old_count, m = p.new_count;

#define DFC_SCRATCH(field, which, count, type)                                                   \
    do {                                                                                         \
        p.field = dfc__context_scratch(context, which, count, sizeof(type), &status);            \
        if (p.field == NULL) return status;                                                      \
    } while (0)
    DFC_SCRATCH(section_old_to_new, DFC_BUF_SECTION_OLD_TO_NEW, so, int32_t);
    DFC_SCRATCH(section_new_to_old, DFC_BUF_SECTION_NEW_TO_OLD, sn, int32_t);
    DFC_SCRATCH(old_to_new, DFC_BUF_OLD_TO_NEW, n, int32_t);
    DFC_SCRATCH(new_to_old, DFC_BUF_NEW_TO_OLD, m, int32_t);
    DFC_SCRATCH(old_deleted, DFC_BUF_OLD_ITEM_DELETED, n, uint8_t);
    DFC_SCRATCH(matched_old_section, DFC_BUF_MATCHED_OLD_SECTION, m, uint32_t);
    DFC_SCRATCH(old_flags, DFC_BUF_SECTION_FLAGS_OLD, so, uint8_t);
    DFC_SCRATCH(new_flags, DFC_BUF_SECTION_FLAGS_NEW, sn, uint8_t);
    DFC_SCRATCH(item_flags, DFC_BUF_ITEM_FLAGS, m, uint8_t);
#undef DFC_SCRATCH

    bool in_place;
    if (!validate && dfc__keys_decide(section_match) && dfc__keys_decide(item_match) &&
        dfc__same_layout(old_snapshot, new_snapshot)) {
        /* Trusted integer keys, equal arrays: every section and item matches in place. */
        dfc__identity_maps(p.section_old_to_new, p.section_new_to_old, sn);
        dfc__identity_maps(p.old_to_new, p.new_to_old, m);
        in_place = true;
    } else {
        /* Step 1 and 2: match sections, then items across the whole snapshot. */
        size_t prefix, suffix;
        const dfc_identity section_identity = {{&old_snapshot->sections, &new_snapshot->sections}, *section_match};
        status = dfc__match_lists(context, &section_identity, flags, 1, p.section_old_to_new, p.section_new_to_old,
                                  &prefix, &suffix);
        if (status != DFC_OK) return status;
        const size_t section_prefix = prefix;
        const dfc_identity item_identity = {{&old_snapshot->items, &new_snapshot->items}, *item_match};
        status = dfc__match_lists(context, &item_identity, flags, 0, p.old_to_new, p.new_to_old, &prefix, &suffix);
        if (status != DFC_OK) return status;
        if (context->duplicate_count > 0) {
            dfc__context_sort_duplicates(context);
            return DFC_ERR_DUPLICATE;
        }
        in_place = section_prefix == so && so == sn && prefix == n && n == m &&
                   memcmp(p.old_starts, p.new_starts, (so + 1) * sizeof(uint32_t)) == 0;
    }
    /* The caller's refresh decisions, now that the matching is known (before the planning,
     * so that a caller refusing the matching stops the diff early). */
    uint8_t *marks = NULL;
    bool marked = false;
    if (decide != NULL && (status = dfc__decide_refresh(context, &p, decide, user_data, &marks, &marked)) != DFC_OK)
        return status;
    size_t reload_bound = refresh ? refresh->reload_item_count : 0;
    size_t reconfigure_bound = refresh ? refresh->reconfigure_item_count : 0;
    dfc_batch structural, fresh;
    if (in_place) {
        /* Everything matched in place (a reload, a reconfigure, nothing at all): both LIS
         * would keep every section and item, and the validity fixpoint would convert
         * nothing; only the refresh requests make operations. */
        if (m > 0) memset(p.item_flags, 0, m);
        if (sn > 0) memset(p.new_flags, 0, sn);
        if (marked) dfc__flag_marks(&p, marks, &reload_bound, &reconfigure_bound);
        dfc__flag_refresh(&p, refresh);
        status = dfc__plan_emit_refresh_only(context, &p, reload_bound, reconfigure_bound, &structural, &fresh);
    } else {
        if ((status = dfc__plan_items(context, &p)) != DFC_OK) return status;
        if (marked) dfc__flag_marks(&p, marks, &reload_bound, &reconfigure_bound);
        dfc__flag_refresh(&p, refresh);
        /* Steps 3 and 4: the batch planner. */
        dfc__plan_resolve(&p);
        status = dfc__plan_emit(context, &p, &structural, &fresh);
    }
    if (status != DFC_OK) return status;

    result->structural = structural;
    result->refresh = fresh;
    result->has_structural = (structural.delete_section_count | structural.insert_section_count |
                              structural.move_section_count | structural.delete_item_count |
                              structural.insert_item_count | structural.move_item_count) != 0;
    result->has_refresh = (fresh.reload_section_count | fresh.reload_item_count | fresh.reconfigure_item_count) != 0;
    result->old_item_to_new = p.old_to_new;
    result->new_item_to_old = p.new_to_old;
    result->old_section_to_new = p.section_old_to_new;
    result->new_section_to_old = p.section_new_to_old;
    return DFC_OK;
}
