/* The batch planner (ALGORITHM.md steps 3 and 4): UIKit's validity fixpoint over the
 * matched snapshots, then the structural and the refresh batch, written through a
 * mutable builder and handed out as read-only dfc_batch views. */
#include "dfc_internal.h"

/* What the structural batch does with an item. */
typedef enum { DFC_OP_NONE, DFC_OP_DELETE, DFC_OP_INSERT, DFC_OP_MOVE, DFC_OP_DELETE_INSERT } dfc_item_op;

/* The operation for a matched pair: old item in old section o, new item j in new
 * section t (ALGORITHM.md steps 2 and 3); `new_fresh` is whether section t is inserted,
 * `item_flags` item j's flags. */
static inline dfc_item_op dfc__classify_matched(const uint8_t *old_flags, const int32_t *section_old_to_new, uint32_t o,
                                                uint32_t t, bool new_fresh, uint8_t item_flags) {
    bool old_gone = (old_flags[o] & DFC_SECTION_GONE) != 0;
    if (old_gone && new_fresh) return DFC_OP_NONE;
    if (old_gone) return DFC_OP_INSERT;  /* UIKit forbids moving out of a deleted section */
    if (new_fresh) return DFC_OP_DELETE; /* ... and into an inserted one */
    if ((uint32_t)section_old_to_new[o] != t) {
        /* Raw-index guard: UIKit counts a move as in/out by raw section indices. */
        return o == t ? DFC_OP_DELETE_INSERT : DFC_OP_MOVE;
    }
    return (item_flags & DFC_ITEM_KEEP) ? DFC_OP_NONE : DFC_OP_MOVE;
}

/* Which refresh a new item's flags ask for in the batch that emitting writes: none when
 * the item is inserted (fresh: its section is, or its operation inserts it) or its
 * section is reloaded, else reload or reconfigure. Counting and writing both ask here. */
typedef enum { DFC_ITEM_REFRESH_NONE, DFC_ITEM_REFRESH_RELOAD, DFC_ITEM_REFRESH_RECONFIGURE } dfc_item_refresh;

static inline dfc_item_refresh dfc__item_refresh(uint8_t section_flags, dfc_item_op op, uint8_t item_flags) {
    if (!(item_flags & (DFC_ITEM_RELOAD | DFC_ITEM_RECONFIGURE))) return DFC_ITEM_REFRESH_NONE;
    if (section_flags & (DFC_SECTION_FRESH | DFC_SECTION_RELOADED)) return DFC_ITEM_REFRESH_NONE;
    if (op == DFC_OP_INSERT || op == DFC_OP_DELETE_INSERT) return DFC_ITEM_REFRESH_NONE;
    return (item_flags & DFC_ITEM_RELOAD) ? DFC_ITEM_REFRESH_RELOAD : DFC_ITEM_REFRESH_RECONFIGURE;
}

/* One classification pass marking the sections item operations touch. It also stores
 * every new item's operation, marks the matched old items it deletes, and counts the
 * operations and refreshes: the pass after which nothing converts is final, and emitting
 * reads what it left (so it needs no counting pass of its own). The plan's arrays are read
 * through locals: through `p`, every byte stored to the flags (a char store may alias
 * anything) made the compiler reload the plan's pointers, about 20 loads an item. */
static void dfc__mark_touched(dfc_plan *p) {
    const uint32_t *const new_starts = p->new_starts, *const matched_old_section = p->matched_old_section;
    const int32_t *const section_old_to_new = p->section_old_to_new, *const new_to_old = p->new_to_old;
    uint8_t *const old_flags = p->old_flags, *const new_flags = p->new_flags, *const item_flags = p->item_flags;
    uint8_t *const old_deleted = p->old_deleted;
    const size_t old_section_count = p->old_section_count, new_section_count = p->new_section_count;
    for (size_t t = 0; t < new_section_count; t++) new_flags[t] &= (uint8_t)~DFC_SECTION_TOUCHED;
    if (p->old_count > 0) memset(old_deleted, 0, p->old_count);
    size_t inserted = 0, moved = 0, deleted = 0, reloaded = 0, reconfigured = 0;
    /* An unmatched old item is deleted (touching its section) unless its section goes. */
    for (size_t o = 0; o < old_section_count; o++)
        if ((old_flags[o] & (DFC_SECTION_LOSES_ITEMS | DFC_SECTION_GONE)) == DFC_SECTION_LOSES_ITEMS &&
            section_old_to_new[o] >= 0)
            new_flags[section_old_to_new[o]] |= DFC_SECTION_TOUCHED;
    const int32_t *const section_new_to_old = p->section_new_to_old;
    for (size_t t = 0; t < new_section_count; t++) {
        const uint8_t section_flags = new_flags[t];
        const bool fresh = (section_flags & DFC_SECTION_FRESH) != 0;
        bool touched = false; /* section t itself, stored once after its items */
        /* The old section that section t stays as, when it does (neither side converted):
         * its items are kept or moved by the LIS alone, with no section flags to read. */
        const int32_t old_self = section_new_to_old[t];
        const uint32_t staying = !fresh && old_self >= 0 && !(old_flags[old_self] & DFC_SECTION_GONE) ? (uint32_t)old_self
                                                                                                    : DFC_NO_SECTION;
        const uint32_t end = new_starts[t + 1];
        for (uint32_t j = new_starts[t]; j < end; j++) {
            const uint32_t o = matched_old_section[j];
            const uint8_t flags = item_flags[j];
            dfc_item_op op;
            if (o == DFC_NO_SECTION) op = fresh ? DFC_OP_NONE : DFC_OP_INSERT;
            else if (o == staying) op = (flags & DFC_ITEM_KEEP) ? DFC_OP_NONE : DFC_OP_MOVE;
            else op = dfc__classify_matched(old_flags, section_old_to_new, o, (uint32_t)t, fresh, flags);
            item_flags[j] = (uint8_t)((flags & ((1u << DFC_ITEM_OP_SHIFT) - 1)) | ((unsigned)op << DFC_ITEM_OP_SHIFT));
            /* Every operation but NONE and INSERT touches the old item's section, and every
             * one but NONE and DELETE touches section t. */
            if (op != DFC_OP_NONE) {
                if (op != DFC_OP_INSERT) {
                    const int32_t old_section_now = section_old_to_new[o];
                    if (old_section_now >= 0) new_flags[old_section_now] |= DFC_SECTION_TOUCHED;
                }
                if (op != DFC_OP_DELETE) touched = true;
                if (op == DFC_OP_DELETE || op == DFC_OP_DELETE_INSERT) {
                    old_deleted[new_to_old[j]] = 1;
                    deleted++;
                }
                inserted += op == DFC_OP_INSERT || op == DFC_OP_DELETE_INSERT;
                moved += op == DFC_OP_MOVE;
            }
            /* dfc__item_refresh's first test, repeated here: without it the compiler works out
             * every item's refresh branch-free (9,000 instructions more a change at 10^3). */
            if (flags & (DFC_ITEM_RELOAD | DFC_ITEM_RECONFIGURE)) {
                const dfc_item_refresh refresh = dfc__item_refresh(section_flags, op, flags);
                reloaded += refresh == DFC_ITEM_REFRESH_RELOAD;
                reconfigured += refresh == DFC_ITEM_REFRESH_RECONFIGURE;
            }
        }
        if (touched) new_flags[t] |= DFC_SECTION_TOUCHED;
    }
    p->inserted_items = inserted;
    p->moved_items = moved;
    p->deleted_matched_items = deleted;
    p->reloaded_items = reloaded;
    p->reconfigured_items = reconfigured;
}

void dfc__plan_resolve(dfc_plan *p) {
    /* Converting a section only turns the operations of its items into ones that touch
     * fewer sections, so the touched set never grows: the second pass converts nothing. */
    for (bool changed = true; changed;) {
        changed = false;
        dfc__mark_touched(p);
        for (size_t t = 0; t < p->new_section_count; t++) {
            if ((p->new_flags[t] & DFC_SECTION_MOVED) && (p->new_flags[t] & DFC_SECTION_TOUCHED)) {
                p->new_flags[t] = (uint8_t)((p->new_flags[t] & ~DFC_SECTION_MOVED) | DFC_SECTION_FRESH);
                p->old_flags[p->section_new_to_old[t]] |= DFC_SECTION_GONE;
                changed = true;
            }
        }
    }
}

/* Both batches while they are written: mutable arrays (the section arrays NULL on the
 * counting pass over the sections) and their counts. They leave the planner only as read-only dfc_batch views. */
typedef struct dfc_batch_builder {
    uint32_t *delete_sections, *insert_sections, *move_section_from, *move_section_to, *reload_sections;
    dfc_index_path *delete_items, *insert_items, *move_item_from, *move_item_to, *reload_items, *reconfigure_items;
    size_t delete_section_count, insert_section_count, move_section_count, reload_section_count;
    size_t delete_item_count, insert_item_count, move_item_count, reload_item_count, reconfigure_item_count;
} dfc_batch_builder;

static inline void dfc__put_section(uint32_t *array, size_t *count, uint32_t section) {
    if (array != NULL) array[*count] = section;
    (*count)++;
}

static inline dfc_index_path dfc__path(uint32_t section, uint32_t item) {
    dfc_index_path path = {section, item};
    return path;
}

/* Counts (arrays NULL) or writes the section operations of both batches, in UIKit's orders
 * (a pass over the sections, made twice). */
static void dfc__plan_sections(const dfc_plan *p, dfc_batch_builder *b) {
    b->delete_section_count = b->insert_section_count = b->move_section_count = b->reload_section_count = 0;
    for (size_t o = 0; o < p->old_section_count; o++)
        if (p->old_flags[o] & DFC_SECTION_GONE) dfc__put_section(b->delete_sections, &b->delete_section_count, (uint32_t)o);
    for (size_t t = 0; t < p->new_section_count; t++) {
        uint8_t flags = p->new_flags[t];
        if (flags & DFC_SECTION_FRESH) {
            dfc__put_section(b->insert_sections, &b->insert_section_count, (uint32_t)t);
            continue;
        }
        if (flags & DFC_SECTION_MOVED) {
            if (b->move_section_from != NULL) {
                b->move_section_from[b->move_section_count] = (uint32_t)p->section_new_to_old[t];
                b->move_section_to[b->move_section_count] = (uint32_t)t;
            }
            b->move_section_count++;
        }
        if (flags & DFC_SECTION_RELOADED) dfc__put_section(b->reload_sections, &b->reload_section_count, (uint32_t)t);
    }
}

/* The number of items deleted: the matched ones the resolve marked, and the unmatched
 * ones of every old section that stays (a section that goes takes its items with it). Only
 * sections that lose items are walked, by a loop without stores. */
static size_t dfc__deleted_items(const dfc_plan *p) {
    const uint32_t *const old_starts = p->old_starts;
    const int32_t *const old_to_new = p->old_to_new;
    size_t deleted = p->deleted_matched_items;
    for (size_t o = 0; o < p->old_section_count; o++) {
        if ((p->old_flags[o] & (DFC_SECTION_LOSES_ITEMS | DFC_SECTION_GONE)) != DFC_SECTION_LOSES_ITEMS) continue;
        for (uint32_t i = old_starts[o]; i < old_starts[o + 1]; i++) deleted += old_to_new[i] == DFC_NOT_FOUND;
    }
    return deleted;
}

/* Writes every item operation of both batches, in UIKit's orders, into the builder's
 * arrays (sized from the counts the resolve left). The plan's and the builder's arrays
 * are read through locals, which the compiler otherwise reloads after every store. */
static void dfc__plan_write_items(const dfc_plan *p, dfc_batch_builder *b) {
    const uint32_t *const old_starts = p->old_starts, *const new_starts = p->new_starts;
    const uint32_t *const matched_old_section = p->matched_old_section;
    const int32_t *const old_to_new = p->old_to_new, *const new_to_old = p->new_to_old;
    const uint8_t *const old_deleted = p->old_deleted, *const item_flags = p->item_flags;
    dfc_index_path *const delete_items = b->delete_items, *const insert_items = b->insert_items;
    dfc_index_path *const move_item_from = b->move_item_from, *const move_item_to = b->move_item_to;
    dfc_index_path *const reload_items = b->reload_items, *const reconfigure_items = b->reconfigure_items;
    size_t deletes = 0, inserts = 0, moves = 0, reloads = 0, reconfigures = 0;
    /* Item deletes, by ascending old path (= ascending flat old index). */
    for (size_t o = 0; o < p->old_section_count; o++) {
        const uint32_t first = old_starts[o], end = old_starts[o + 1];
        const bool unmatched_deleted = !(p->old_flags[o] & DFC_SECTION_GONE);
        for (uint32_t i = first; i < end; i++) {
            bool deleted = old_to_new[i] == DFC_NOT_FOUND ? unmatched_deleted : old_deleted[i] != 0;
            if (deleted) delete_items[deletes++] = dfc__path((uint32_t)o, i - first);
        }
    }
    /* Inserts, moves and refreshes, by ascending new path. */
    for (size_t t = 0; t < p->new_section_count; t++) {
        const uint32_t first = new_starts[t], end = new_starts[t + 1];
        const uint8_t section_flags = p->new_flags[t];
        for (uint32_t j = first; j < end; j++) {
            const uint8_t flags = item_flags[j];
            if ((flags & ~DFC_ITEM_KEEP) == 0) continue; /* no operation, no refresh: most items */
            const dfc_item_op op = (dfc_item_op)((flags >> DFC_ITEM_OP_SHIFT) & 7);
            if (op == DFC_OP_INSERT || op == DFC_OP_DELETE_INSERT) {
                insert_items[inserts++] = dfc__path((uint32_t)t, j - first);
            } else if (op == DFC_OP_MOVE) {
                const uint32_t o = matched_old_section[j];
                move_item_from[moves] = dfc__path(o, (uint32_t)new_to_old[j] - old_starts[o]);
                move_item_to[moves++] = dfc__path((uint32_t)t, j - first);
            }
            if (!(flags & (DFC_ITEM_RELOAD | DFC_ITEM_RECONFIGURE))) continue; /* as in dfc__mark_touched */
            switch (dfc__item_refresh(section_flags, op, flags)) {
            case DFC_ITEM_REFRESH_NONE: break;
            case DFC_ITEM_REFRESH_RELOAD: reload_items[reloads++] = dfc__path((uint32_t)t, j - first); break;
            case DFC_ITEM_REFRESH_RECONFIGURE: reconfigure_items[reconfigures++] = dfc__path((uint32_t)t, j - first); break;
            }
        }
    }
}

/* Points the builder's arrays into two context buffers sized exactly for its counts. */
static int dfc__builder_allocate(dfc_context *context, dfc_batch_builder *b) {
    int status = DFC_OK;
    size_t section_total = b->delete_section_count + b->insert_section_count + 2 * b->move_section_count +
                           b->reload_section_count;
    size_t path_total = b->delete_item_count + b->insert_item_count + 2 * b->move_item_count + b->reload_item_count +
                        b->reconfigure_item_count;
    uint32_t *sections = dfc__context_scratch(context, DFC_BUF_OUT_SECTIONS, section_total, sizeof(uint32_t), &status);
    if (sections == NULL) return status;
    dfc_index_path *paths = dfc__context_scratch(context, DFC_BUF_OUT_PATHS, path_total, sizeof(dfc_index_path), &status);
    if (paths == NULL) return status;
    b->delete_sections = sections;
    b->insert_sections = b->delete_sections + b->delete_section_count;
    b->move_section_from = b->insert_sections + b->insert_section_count;
    b->move_section_to = b->move_section_from + b->move_section_count;
    b->reload_sections = b->move_section_to + b->move_section_count;
    b->delete_items = paths;
    b->insert_items = b->delete_items + b->delete_item_count;
    b->move_item_from = b->insert_items + b->insert_item_count;
    b->move_item_to = b->move_item_from + b->move_item_count;
    b->reload_items = b->move_item_to + b->move_item_count;
    b->reconfigure_items = b->reload_items + b->reload_item_count;
    return DFC_OK;
}

/* The read-only views of both batches the builder wrote. */
static void dfc__builder_views(const dfc_batch_builder *b, dfc_batch *structural, dfc_batch *refresh) {
    const dfc_batch structural_view = {
        .delete_sections = b->delete_sections, .delete_section_count = b->delete_section_count,
        .insert_sections = b->insert_sections, .insert_section_count = b->insert_section_count,
        .move_section_from = b->move_section_from, .move_section_to = b->move_section_to,
        .move_section_count = b->move_section_count,
        .delete_items = b->delete_items, .delete_item_count = b->delete_item_count,
        .insert_items = b->insert_items, .insert_item_count = b->insert_item_count,
        .move_item_from = b->move_item_from, .move_item_to = b->move_item_to, .move_item_count = b->move_item_count,
    };
    const dfc_batch refresh_view = {
        .reload_sections = b->reload_sections, .reload_section_count = b->reload_section_count,
        .reload_items = b->reload_items, .reload_item_count = b->reload_item_count,
        .reconfigure_items = b->reconfigure_items, .reconfigure_item_count = b->reconfigure_item_count,
    };
    *structural = structural_view;
    *refresh = refresh_view;
}

int dfc__plan_emit(dfc_context *context, dfc_plan *p, dfc_batch *structural, dfc_batch *refresh) {
    dfc_batch_builder b = {0};
    dfc__plan_sections(p, &b); /* counting the sections' operations */
    b.delete_item_count = dfc__deleted_items(p);
    b.insert_item_count = p->inserted_items;
    b.move_item_count = p->moved_items;
    b.reload_item_count = p->reloaded_items;
    b.reconfigure_item_count = p->reconfigured_items;
    int status = dfc__builder_allocate(context, &b);
    if (status != DFC_OK) return status;
    dfc__plan_sections(p, &b);
    dfc__plan_write_items(p, &b);
    dfc__builder_views(&b, structural, refresh);
    return DFC_OK;
}

int dfc__plan_emit_refresh_only(dfc_context *context, const dfc_plan *p, size_t reload_bound, size_t reconfigure_bound,
                                dfc_batch *structural, dfc_batch *refresh) {
    dfc_batch_builder b = {0};
    for (size_t t = 0; t < p->new_section_count; t++) b.reload_section_count += (p->new_flags[t] & DFC_SECTION_RELOADED) != 0;
    b.reload_item_count = reload_bound;
    b.reconfigure_item_count = reconfigure_bound;
    int status = dfc__builder_allocate(context, &b);
    if (status != DFC_OK) return status;
    b.reload_section_count = b.reload_item_count = b.reconfigure_item_count = 0;
    for (size_t t = 0; t < p->new_section_count; t++)
        if (p->new_flags[t] & DFC_SECTION_RELOADED) b.reload_sections[b.reload_section_count++] = (uint32_t)t;
    if (reload_bound + reconfigure_bound > 0) {
        /* Flagged items are few: skip 8 clear flags at a time, and walk the sections along. */
        const uint8_t *flags = p->item_flags;
        const size_t m = p->new_count;
        uint32_t t = 0;
        for (size_t j = 0; j < m; j++) {
            uint64_t word;
            if (m - j >= 8 && (memcpy(&word, flags + j, sizeof word), word == 0)) {
                j += 7;
                continue;
            }
            if (flags[j] == 0) continue;
            while (p->new_starts[t + 1] <= j) t++;
            if (p->new_flags[t] & DFC_SECTION_RELOADED) continue; /* the section reload refreshes it */
            const dfc_index_path path = dfc__path(t, (uint32_t)j - p->new_starts[t]);
            if (flags[j] & DFC_ITEM_RELOAD) b.reload_items[b.reload_item_count++] = path;
            else b.reconfigure_items[b.reconfigure_item_count++] = path;
        }
    }
    dfc__builder_views(&b, structural, refresh);
    return DFC_OK;
}
