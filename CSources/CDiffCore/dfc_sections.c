/* The two-level diff (ALGORITHM.md steps 1-4): sections, items across sections,
 * the UIKit validity fixpoint, and the refresh batch. */
#include "dfc_internal.h"

/* Per-section flags. */
enum {
    DFC_SECTION_GONE = 1,      /* old section: deleted, or converted to delete + insert */
    DFC_SECTION_FRESH = 2,     /* new section: inserted, or converted */
    DFC_SECTION_MOVED = 4,     /* new section: surviving, off the section LIS, not converted */
    DFC_SECTION_TOUCHED = 8,   /* new section: some item operation touches it (this round) */
    DFC_SECTION_RELOADED = 16  /* new section: reload requested */
};

/* Per-new-item flags; bits 3-5 hold the item's dfc_item_op from the last classification. */
enum { DFC_ITEM_KEEP = 1, DFC_ITEM_RELOAD = 2, DFC_ITEM_RECONFIGURE = 4, DFC_ITEM_OP_SHIFT = 3 };

/* What the structural batch does with an item. */
typedef enum { DFC_OP_NONE, DFC_OP_DELETE, DFC_OP_INSERT, DFC_OP_MOVE, DFC_OP_DELETE_INSERT } dfc_item_op;

typedef struct dfc_plan {
    size_t old_section_count, new_section_count, old_count, new_count;
    const uint32_t *old_starts, *new_starts;
    int32_t *section_old_to_new, *section_new_to_old;
    int32_t *old_to_new, *new_to_old;
    uint32_t *old_section_of, *new_section_of;
    uint8_t *old_flags, *new_flags, *item_flags;
} dfc_plan;

/* The operation for a matched pair (old i, new j); see ALGORITHM.md step 2 and 3. */
static inline dfc_item_op dfc__classify_matched(const dfc_plan *p, uint32_t i, uint32_t j) {
    uint32_t o = p->old_section_of[i], t = p->new_section_of[j];
    bool old_gone = (p->old_flags[o] & DFC_SECTION_GONE) != 0;
    bool new_fresh = (p->new_flags[t] & DFC_SECTION_FRESH) != 0;
    if (old_gone && new_fresh) return DFC_OP_NONE;
    if (old_gone) return DFC_OP_INSERT;  /* UIKit forbids moving out of a deleted section */
    if (new_fresh) return DFC_OP_DELETE; /* ... and into an inserted one */
    if ((uint32_t)p->section_old_to_new[o] != t) {
        /* Raw-index guard: UIKit counts a move as in/out by raw section indices. */
        return o == t ? DFC_OP_DELETE_INSERT : DFC_OP_MOVE;
    }
    return (p->item_flags[j] & DFC_ITEM_KEEP) ? DFC_OP_NONE : DFC_OP_MOVE;
}

static inline void dfc__touch_new(dfc_plan *p, uint32_t t) { p->new_flags[t] |= DFC_SECTION_TOUCHED; }

static inline void dfc__touch_old(dfc_plan *p, uint32_t o) {
    int32_t t = p->section_old_to_new[o];
    if (t >= 0) p->new_flags[t] |= DFC_SECTION_TOUCHED;
}

static inline dfc_item_op dfc__stored_op(const dfc_plan *p, size_t j) {
    return (dfc_item_op)((p->item_flags[j] >> DFC_ITEM_OP_SHIFT) & 7);
}

/* One classification pass marking the sections item operations touch. It also
 * stores every new item's operation: the pass after which nothing converts is
 * final, and emitting reads the stored operations. */
static void dfc__mark_touched(dfc_plan *p) {
    for (size_t t = 0; t < p->new_section_count; t++) p->new_flags[t] &= (uint8_t)~DFC_SECTION_TOUCHED;
    for (size_t i = 0; i < p->old_count; i++) {
        uint32_t o = p->old_section_of[i];
        if (p->old_to_new[i] == DFC_NOT_FOUND && !(p->old_flags[o] & DFC_SECTION_GONE)) dfc__touch_old(p, o);
    }
    for (size_t j = 0; j < p->new_count; j++) {
        uint32_t t = p->new_section_of[j];
        int32_t i = p->new_to_old[j];
        dfc_item_op op = i == DFC_NOT_FOUND ? ((p->new_flags[t] & DFC_SECTION_FRESH) ? DFC_OP_NONE : DFC_OP_INSERT)
                                            : dfc__classify_matched(p, (uint32_t)i, (uint32_t)j);
        p->item_flags[j] = (uint8_t)((p->item_flags[j] & ((1u << DFC_ITEM_OP_SHIFT) - 1)) | ((unsigned)op << DFC_ITEM_OP_SHIFT));
        if (i == DFC_NOT_FOUND) {
            if (op == DFC_OP_INSERT) dfc__touch_new(p, t);
            continue;
        }
        switch (op) {
        case DFC_OP_NONE: break;
        case DFC_OP_DELETE: dfc__touch_old(p, p->old_section_of[i]); break;
        case DFC_OP_INSERT: dfc__touch_new(p, t); break;
        case DFC_OP_MOVE:
        case DFC_OP_DELETE_INSERT:
            dfc__touch_old(p, p->old_section_of[i]);
            dfc__touch_new(p, t);
            break;
        }
    }
}

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
    for (size_t t = 0; t < p->new_section_count; t++) {
        int32_t o = p->section_new_to_old[t];
        if (o < 0) continue;
        size_t count = 0;
        for (uint32_t j = p->new_starts[t]; j < p->new_starts[t + 1]; j++) {
            int32_t i = p->new_to_old[j];
            if (i >= 0 && p->old_section_of[i] == (uint32_t)o) {
                sequence[count] = (uint32_t)i;
                positions[count++] = j;
            }
        }
        if ((status = dfc__lis(context, sequence, count, keep, NULL)) != DFC_OK) return status;
        for (size_t k = 0; k < count; k++)
            if (keep[k]) p->item_flags[positions[k]] |= DFC_ITEM_KEEP;
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

static inline dfc_index_path dfc__old_path(const dfc_plan *p, uint32_t i) {
    uint32_t o = p->old_section_of[i];
    dfc_index_path path = {o, i - p->old_starts[o]};
    return path;
}

static inline dfc_index_path dfc__new_path(const dfc_plan *p, uint32_t j) {
    uint32_t t = p->new_section_of[j];
    dfc_index_path path = {t, j - p->new_starts[t]};
    return path;
}

/* Fills both batches. `paths` and `sections` are NULL on the counting pass. */
static void dfc__emit(const dfc_plan *p, dfc_batch *structural, dfc_batch *refresh, dfc_index_path *paths,
                      uint32_t *sections) {
    /* Section operations. */
    size_t ds = 0, is = 0, ms = 0, rs = 0;
    for (size_t o = 0; o < p->old_section_count; o++)
        if (p->old_flags[o] & DFC_SECTION_GONE) {
            if (sections) ((uint32_t *)structural->delete_sections)[ds] = (uint32_t)o;
            ds++;
        }
    for (size_t t = 0; t < p->new_section_count; t++) {
        uint8_t flags = p->new_flags[t];
        if (flags & DFC_SECTION_FRESH) {
            if (sections) ((uint32_t *)structural->insert_sections)[is] = (uint32_t)t;
            is++;
        } else {
            if (flags & DFC_SECTION_MOVED) {
                if (sections) {
                    ((uint32_t *)structural->move_section_from)[ms] = (uint32_t)p->section_new_to_old[t];
                    ((uint32_t *)structural->move_section_to)[ms] = (uint32_t)t;
                }
                ms++;
            }
            if (flags & DFC_SECTION_RELOADED) {
                if (sections) ((uint32_t *)refresh->reload_sections)[rs] = (uint32_t)t;
                rs++;
            }
        }
    }
    /* Item deletes, by ascending old path (= ascending flat old index). */
    size_t di = 0;
    for (size_t i = 0; i < p->old_count; i++) {
        int32_t j = p->old_to_new[i];
        bool deleted;
        if (j == DFC_NOT_FOUND) {
            deleted = !(p->old_flags[p->old_section_of[i]] & DFC_SECTION_GONE);
        } else {
            dfc_item_op op = dfc__stored_op(p, (size_t)j);
            deleted = op == DFC_OP_DELETE || op == DFC_OP_DELETE_INSERT;
        }
        if (deleted) {
            if (paths) ((dfc_index_path *)structural->delete_items)[di] = dfc__old_path(p, (uint32_t)i);
            di++;
        }
    }
    /* Inserts, moves and refreshes, by ascending new path. */
    size_t ii = 0, mi = 0, ri = 0, ci = 0;
    for (size_t j = 0; j < p->new_count; j++) {
        uint32_t t = p->new_section_of[j];
        int32_t i = p->new_to_old[j];
        dfc_item_op op = dfc__stored_op(p, j);
        bool fresh = (p->new_flags[t] & DFC_SECTION_FRESH) != 0;
        if (op == DFC_OP_INSERT || op == DFC_OP_DELETE_INSERT) {
            if (paths) ((dfc_index_path *)structural->insert_items)[ii] = dfc__new_path(p, (uint32_t)j);
            ii++;
            fresh = true;
        } else if (op == DFC_OP_MOVE) {
            if (paths) {
                ((dfc_index_path *)structural->move_item_from)[mi] = dfc__old_path(p, (uint32_t)i);
                ((dfc_index_path *)structural->move_item_to)[mi] = dfc__new_path(p, (uint32_t)j);
            }
            mi++;
        }
        uint8_t flags = p->item_flags[j];
        if (fresh || !(flags & (DFC_ITEM_RELOAD | DFC_ITEM_RECONFIGURE))) continue;
        if (p->new_flags[t] & DFC_SECTION_RELOADED) continue; /* the section reload refreshes it */
        if (flags & DFC_ITEM_RELOAD) {
            if (paths) ((dfc_index_path *)refresh->reload_items)[ri] = dfc__new_path(p, (uint32_t)j);
            ri++;
        } else {
            if (paths) ((dfc_index_path *)refresh->reconfigure_items)[ci] = dfc__new_path(p, (uint32_t)j);
            ci++;
        }
    }
    structural->delete_section_count = ds;
    structural->insert_section_count = is;
    structural->move_section_count = ms;
    structural->delete_item_count = di;
    structural->insert_item_count = ii;
    structural->move_item_count = mi;
    refresh->reload_section_count = rs;
    refresh->reload_item_count = ri;
    refresh->reconfigure_item_count = ci;
}

int dfc_diff_sections(dfc_context *context, const dfc_snapshot *old_snapshot, const dfc_snapshot *new_snapshot,
                      const dfc_refresh *refresh, const dfc_match *section_match, const dfc_match *item_match,
                      unsigned flags, dfc_sections_result *result) {
    if (context == NULL || result == NULL) return DFC_ERR_NULL_ARGUMENT;
    int status;
    if ((status = dfc__check_match(section_match)) != DFC_OK) return status;
    if ((status = dfc__check_match(item_match)) != DFC_OK) return status;
    if ((status = dfc__check_snapshot(old_snapshot, section_match, item_match)) != DFC_OK) return status;
    if ((status = dfc__check_snapshot(new_snapshot, section_match, item_match)) != DFC_OK) return status;
    if ((flags & ~DFC_DIFF_ASSUME_UNIQUE) != 0) return DFC_ERR_INVALID_ARGUMENT;
    if ((status = dfc__check_refresh(refresh, new_snapshot->items.count, new_snapshot->sections.count)) != DFC_OK)
        return status;
    context->duplicate_count = 0;
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
    DFC_SCRATCH(old_section_of, DFC_BUF_OLD_ITEM_SECTION, n, uint32_t);
    DFC_SCRATCH(new_section_of, DFC_BUF_NEW_ITEM_SECTION, m, uint32_t);
    DFC_SCRATCH(old_flags, DFC_BUF_SECTION_FLAGS_OLD, so, uint8_t);
    DFC_SCRATCH(new_flags, DFC_BUF_SECTION_FLAGS_NEW, sn, uint8_t);
    DFC_SCRATCH(item_flags, DFC_BUF_ITEM_FLAGS, m, uint8_t);
#undef DFC_SCRATCH

    /* Step 1 and 2: match sections, then items across the whole snapshot. */
    size_t prefix, suffix;
    const dfc_identity section_identity = {{&old_snapshot->sections, &new_snapshot->sections}, *section_match};
    status = dfc__match_lists(context, &section_identity, validate, 1, p.section_old_to_new, p.section_new_to_old,
                              &prefix, &suffix);
    if (status != DFC_OK) return status;
    const dfc_identity item_identity = {{&old_snapshot->items, &new_snapshot->items}, *item_match};
    status = dfc__match_lists(context, &item_identity, validate, 0, p.old_to_new, p.new_to_old, &prefix, &suffix);
    if (status != DFC_OK) return status;
    if (context->duplicate_count > 0) {
        dfc__context_sort_duplicates(context);
        return DFC_ERR_DUPLICATE;
    }
    for (size_t s = 0; s < so; s++)
        for (uint32_t i = p.old_starts[s]; i < p.old_starts[s + 1]; i++) p.old_section_of[i] = (uint32_t)s;
    for (size_t s = 0; s < sn; s++)
        for (uint32_t j = p.new_starts[s]; j < p.new_starts[s + 1]; j++) p.new_section_of[j] = (uint32_t)s;
    for (size_t s = 0; s < so; s++) p.old_flags[s] = (uint8_t)(p.section_old_to_new[s] < 0 ? DFC_SECTION_GONE : 0);
    for (size_t s = 0; s < sn; s++) p.new_flags[s] = (uint8_t)(p.section_new_to_old[s] < 0 ? DFC_SECTION_FRESH : 0);
    memset(p.item_flags, 0, m);
    if ((status = dfc__section_lis(context, &p)) != DFC_OK) return status;
    if ((status = dfc__item_lis(context, &p)) != DFC_OK) return status;
    if (refresh != NULL) {
        for (size_t k = 0; k < refresh->reload_item_count; k++) p.item_flags[refresh->reload_items[k]] |= DFC_ITEM_RELOAD;
        for (size_t k = 0; k < refresh->reconfigure_item_count; k++)
            p.item_flags[refresh->reconfigure_items[k]] |= DFC_ITEM_RECONFIGURE;
        for (size_t k = 0; k < refresh->reload_section_count; k++)
            p.new_flags[refresh->reload_sections[k]] |= DFC_SECTION_RELOADED;
    }

    /* Step 3: a moved section touched by an item operation becomes delete + insert;
     * repeat, since its items' operations change. */
    for (bool changed = true; changed;) {
        changed = false;
        dfc__mark_touched(&p);
        for (size_t t = 0; t < sn; t++) {
            if ((p.new_flags[t] & DFC_SECTION_MOVED) && (p.new_flags[t] & DFC_SECTION_TOUCHED)) {
                p.new_flags[t] = (uint8_t)((p.new_flags[t] & ~DFC_SECTION_MOVED) | DFC_SECTION_FRESH);
                p.old_flags[p.section_new_to_old[t]] |= DFC_SECTION_GONE;
                changed = true;
            }
        }
    }

    /* Step 4 and output: count, allocate exactly, fill. */
    dfc_batch structural = {0}, fresh = {0};
    dfc__emit(&p, &structural, &fresh, NULL, NULL);
    size_t section_total = structural.delete_section_count + structural.insert_section_count +
                           2 * structural.move_section_count + fresh.reload_section_count;
    size_t path_total = structural.delete_item_count + structural.insert_item_count +
                        2 * structural.move_item_count + fresh.reload_item_count + fresh.reconfigure_item_count;
    uint32_t *sections = dfc__context_scratch(context, DFC_BUF_OUT_SECTIONS, section_total, sizeof(uint32_t), &status);
    if (sections == NULL) return status;
    dfc_index_path *paths = dfc__context_scratch(context, DFC_BUF_OUT_PATHS, path_total, sizeof(dfc_index_path), &status);
    if (paths == NULL) return status;
    uint32_t *next_section = sections;
    structural.delete_sections = next_section;
    next_section += structural.delete_section_count;
    structural.insert_sections = next_section;
    next_section += structural.insert_section_count;
    structural.move_section_from = next_section;
    next_section += structural.move_section_count;
    structural.move_section_to = next_section;
    next_section += structural.move_section_count;
    fresh.reload_sections = next_section;
    dfc_index_path *next_path = paths;
    structural.delete_items = next_path;
    next_path += structural.delete_item_count;
    structural.insert_items = next_path;
    next_path += structural.insert_item_count;
    structural.move_item_from = next_path;
    next_path += structural.move_item_count;
    structural.move_item_to = next_path;
    next_path += structural.move_item_count;
    fresh.reload_items = next_path;
    next_path += fresh.reload_item_count;
    fresh.reconfigure_items = next_path;
    dfc__emit(&p, &structural, &fresh, paths, sections);

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
