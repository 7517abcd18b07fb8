/* A batch as steps applied one at a time (ALGORITHM.md, "Steps"): the one place every
 * language takes its step order from. The batch is checked against the counts as it is
 * read (a step list must never index outside the state it is applied to), then listed in
 * seven phases: item deletes, section deletes, section moves, section inserts, item moves,
 * item inserts, refreshes.
 *
 * Moves are "sequential": elements that stay keep their group and relative order; every
 * other element moves once, in target order, and is put directly after the element that
 * precedes it in its target group (already in place), or at the group's front. Its index
 * is found with a Fenwick tree over slots: per group a head chain (elements moved to the
 * front), then each current element followed by the chain of elements moved directly
 * after it; occupied slots in slot order are always the current order. */
#include "dfc_internal.h"

#include <stdlib.h>

#define DFC_NONE UINT32_MAX

typedef struct dfc_path_move {
    dfc_index_path from, to;
} dfc_path_move;

/* The steps being written: the context's step buffer and its fill. */
typedef struct dfc_step_list {
    dfc_step *steps;
    size_t count;
} dfc_step_list;

static inline void dfc__emit(dfc_step_list *list, uint32_t kind, uint32_t section, uint32_t item, uint32_t to_section,
                             uint32_t to_item) {
    dfc_step *step = &list->steps[list->count++];
    step->kind = kind;
    step->at.section = section;
    step->at.item = item;
    step->to.section = to_section;
    step->to.item = to_item;
}

static int dfc__compare_paths(const void *a, const void *b) {
    const dfc_index_path *x = a, *y = b;
    if (x->section != y->section) return x->section < y->section ? -1 : 1;
    return x->item < y->item ? -1 : (x->item > y->item);
}

static int dfc__compare_moves_by_target(const void *a, const void *b) {
    return dfc__compare_paths(&((const dfc_path_move *)a)->to, &((const dfc_path_move *)b)->to);
}

static int dfc__compare_moves_by_source(const void *a, const void *b) {
    return dfc__compare_paths(&((const dfc_path_move *)a)->from, &((const dfc_path_move *)b)->from);
}

static int dfc__compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : (x > y);
}

static inline bool dfc__path_less(dfc_index_path a, dfc_index_path b) {
    return a.section < b.section || (a.section == b.section && a.item < b.item);
}

static inline bool dfc__path_equal(dfc_index_path a, dfc_index_path b) {
    return a.section == b.section && a.item == b.item;
}

/* Sorts paths ascending (skipped when already sorted, as a diff's lists are) and drops
 * repeats; returns the new count. */
static size_t dfc__sort_unique_paths(dfc_index_path *paths, size_t count) {
    bool sorted = true;
    for (size_t i = 1; i < count && sorted; i++) sorted = !dfc__path_less(paths[i], paths[i - 1]);
    if (!sorted) qsort(paths, count, sizeof(*paths), dfc__compare_paths);
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (kept == 0 || !dfc__path_equal(paths[kept - 1], paths[i])) paths[kept++] = paths[i];
    return kept;
}

static size_t dfc__sort_unique_indices(uint32_t *values, size_t count) {
    bool sorted = true;
    for (size_t i = 1; i < count && sorted; i++) sorted = values[i] >= values[i - 1];
    if (!sorted) qsort(values, count, sizeof(*values), dfc__compare_u32);
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (kept == 0 || values[kept - 1] != values[i]) values[kept++] = values[i];
    return kept;
}

/* ---- sequential moves ------------------------------------------------------ */

static inline void dfc__fenwick_add(uint32_t *tree, size_t size, size_t position, int32_t delta) {
    for (size_t i = position + 1; i <= size; i += i & (~i + 1)) tree[i] = (uint32_t)((int64_t)tree[i] + delta);
}

/* Occupied slots in [0, position). */
static inline uint32_t dfc__fenwick_prefix(const uint32_t *tree, size_t position) {
    uint32_t sum = 0;
    for (size_t i = position; i > 0; i -= i & (~i + 1)) sum += tree[i];
    return sum;
}

/* Groups of elements 0 ..< element_count: each group's current order and target order
 * (every current element once in some target group), and which elements stay. */
typedef struct dfc_groups {
    size_t group_count, element_count;
    const uint32_t *current_starts, *current; /* group g: current[current_starts[g] ..< current_starts[g + 1]] */
    const uint32_t *target_starts, *target;
    const uint8_t *stays;
} dfc_groups;

/* Emits one step of `kind` per element that does not stay, in target order. For item
 * moves `group_section` names each group's section; section moves have one group and
 * name sections by index. O(e + g + moves log e) time, O(e + g) scratch. */
static int dfc__sequential_moves(dfc_context *context, const dfc_groups *groups, uint32_t kind,
                                 const uint32_t *group_section, dfc_step_list *out) {
    const size_t e = groups->element_count, g = groups->group_count;
    const size_t slot_count = groups->current_starts[g] + groups->target_starts[g];
    size_t words;
    /* group_of, anchor, place, chain_length, slot, chain_start per element; head_length and
     * group_start per group; the tree. */
    if (!dfc__mul_size(6, e, &words) || words > SIZE_MAX - 2 * g - slot_count - 1) return DFC_ERR_TOO_LARGE;
    words += 2 * g + slot_count + 1;
    int status = DFC_OK;
    uint32_t *scratch = dfc__context_scratch(context, DFC_BUF_STEP_MOVES, words, sizeof(uint32_t), &status);
    if (scratch == NULL) return status;
    memset(scratch, 0, words * sizeof(uint32_t));
    uint32_t *group_of = scratch, *anchor = group_of + e, *place = anchor + e, *chain_length = place + e;
    uint32_t *slot = chain_length + e, *chain_start = slot + e, *head_length = chain_start + e;
    uint32_t *group_start = head_length + g, *tree = group_start + g;

    for (size_t group = 0; group < g; group++)
        for (uint32_t k = groups->current_starts[group]; k < groups->current_starts[group + 1]; k++)
            group_of[groups->current[k]] = (uint32_t)group;
    for (size_t group = 0; group < g; group++) {
        uint32_t last = DFC_NONE;
        for (uint32_t k = groups->target_starts[group]; k < groups->target_starts[group + 1]; k++) {
            uint32_t element = groups->target[k];
            anchor[element] = DFC_NONE;
            if (groups->stays[element]) {
                last = element;
            } else if (last == DFC_NONE) {
                place[element] = head_length[group]++;
            } else {
                anchor[element] = last;
                place[element] = chain_length[last]++;
            }
        }
    }
    size_t next = 0;
    for (size_t group = 0; group < g; group++) {
        group_start[group] = (uint32_t)next;
        next += head_length[group];
        for (uint32_t k = groups->current_starts[group]; k < groups->current_starts[group + 1]; k++) {
            uint32_t element = groups->current[k];
            slot[element] = (uint32_t)next;
            dfc__fenwick_add(tree, slot_count, next, 1);
            next++;
            chain_start[element] = (uint32_t)next;
            next += chain_length[element];
        }
    }
    for (size_t group = 0; group < g; group++) {
        for (uint32_t k = groups->target_starts[group]; k < groups->target_starts[group + 1]; k++) {
            uint32_t element = groups->target[k];
            if (groups->stays[element]) continue;
            uint32_t from = group_of[element];
            uint32_t from_index = dfc__fenwick_prefix(tree, slot[element]) - dfc__fenwick_prefix(tree, group_start[from]);
            dfc__fenwick_add(tree, slot_count, slot[element], -1);
            size_t destination = (anchor[element] == DFC_NONE ? group_start[group] : chain_start[anchor[element]]) +
                                 place[element];
            uint32_t to_index = dfc__fenwick_prefix(tree, destination) - dfc__fenwick_prefix(tree, group_start[group]);
            dfc__fenwick_add(tree, slot_count, destination, 1);
            if (group_section == NULL)
                dfc__emit(out, kind, from_index, 0, to_index, 0);
            else
                dfc__emit(out, kind, group_section[from], from_index, group_section[group], to_index);
        }
    }
    return DFC_OK;
}

/* ---- the batch ------------------------------------------------------------- */

/* The batch read and checked: sorted, repeat-free copies of its lists, and which old
 * section each new section continues. */
typedef struct dfc_step_input {
    const uint32_t *old_counts, *new_counts;
    size_t old_sections, new_sections;
    uint32_t *delete_sections, *insert_sections;
    size_t delete_section_count, insert_section_count;
    dfc_index_path *deletes, *inserts; /* outside deleted / inserted sections */
    size_t delete_count, insert_count;
    dfc_path_move *moves; /* by target */
    size_t move_count;
    int32_t *old_to_new, *new_to_old; /* sections; -1: deleted / inserted */
    uint8_t *section_moved;           /* by old section */
} dfc_step_input;

/* Index of `section` in the ascending `touched` (present by construction). O(log groups). */
static inline size_t dfc__group_of(const uint32_t *touched, size_t groups, uint32_t section) {
    size_t low = 0, high = groups;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (touched[mid] < section) low = mid + 1; else high = mid;
    }
    return low;
}

/* First position in the ascending `paths` at or after (section, 0). O(log count). */
static inline size_t dfc__first_in_section(const dfc_index_path *paths, size_t count, uint32_t section) {
    size_t low = 0, high = count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (paths[mid].section < section) low = mid + 1; else high = mid;
    }
    return low;
}

static bool dfc__path_in(dfc_index_path path, const uint32_t *counts, size_t section_count) {
    return path.section < section_count && path.item < counts[path.section];
}

/* Section lists and the section map: deletes and inserts in range, every moved section
 * surviving once and landing once on a section that is not inserted, as many survivors as
 * continued sections. The unmoved survivors fill the remaining new sections in order. */
static int dfc__read_sections(const dfc_batch *batch, dfc_step_input *in) {
    for (size_t i = 0; i < in->old_sections; i++) in->old_to_new[i] = 0, in->section_moved[i] = 0;
    for (size_t i = 0; i < in->new_sections; i++) in->new_to_old[i] = 0;
    for (size_t i = 0; i < in->delete_section_count; i++) {
        if (in->delete_sections[i] >= in->old_sections) return DFC_ERR_INCONSISTENT;
        in->old_to_new[in->delete_sections[i]] = -1;
    }
    for (size_t i = 0; i < in->insert_section_count; i++) {
        if (in->insert_sections[i] >= in->new_sections) return DFC_ERR_INCONSISTENT;
        in->new_to_old[in->insert_sections[i]] = -1;
    }
    if (in->old_sections - in->delete_section_count != in->new_sections - in->insert_section_count)
        return DFC_ERR_INCONSISTENT;
    /* Targets of moves first (-2 marks a new section taken by a move). */
    for (size_t i = 0; i < batch->move_section_count; i++) {
        uint32_t from = batch->move_section_from[i], to = batch->move_section_to[i];
        if (from >= in->old_sections || to >= in->new_sections || in->old_to_new[from] < 0 || in->section_moved[from] ||
            in->new_to_old[to] != 0)
            return DFC_ERR_INCONSISTENT;
        in->section_moved[from] = 1;
        in->new_to_old[to] = -2 - (int32_t)from;
    }
    size_t next_old = 0;
    for (size_t t = 0; t < in->new_sections; t++) {
        if (in->new_to_old[t] == -1) continue;
        if (in->new_to_old[t] <= -2) {
            in->new_to_old[t] = -2 - in->new_to_old[t];
        } else {
            while (next_old < in->old_sections && (in->old_to_new[next_old] < 0 || in->section_moved[next_old])) next_old++;
            if (next_old == in->old_sections) return DFC_ERR_INCONSISTENT;
            in->new_to_old[t] = (int32_t)next_old++;
        }
        in->old_to_new[in->new_to_old[t]] = (int32_t)t;
    }
    return DFC_OK;
}

/* Item lists: in range, deletes inside deleted sections and inserts inside inserted ones
 * dropped (UIKit drops them too), moves between surviving sections only, no row both moved
 * and deleted or inserted, and every continued section's rows adding up. */
static int dfc__read_items(dfc_context *context, const dfc_batch *batch, dfc_step_input *in) {
    size_t kept = 0;
    for (size_t i = 0; i < in->delete_count; i++) {
        if (!dfc__path_in(in->deletes[i], in->old_counts, in->old_sections)) return DFC_ERR_INCONSISTENT;
        if (in->old_to_new[in->deletes[i].section] >= 0) in->deletes[kept++] = in->deletes[i];
    }
    in->delete_count = dfc__sort_unique_paths(in->deletes, kept);
    kept = 0;
    for (size_t i = 0; i < in->insert_count; i++) {
        if (!dfc__path_in(in->inserts[i], in->new_counts, in->new_sections)) return DFC_ERR_INCONSISTENT;
        if (in->new_to_old[in->inserts[i].section] >= 0) in->inserts[kept++] = in->inserts[i];
    }
    in->insert_count = dfc__sort_unique_paths(in->inserts, kept);
    for (size_t i = 0; i < in->move_count; i++) {
        const dfc_path_move move = {batch->move_item_from[i], batch->move_item_to[i]};
        if (!dfc__path_in(move.from, in->old_counts, in->old_sections) ||
            !dfc__path_in(move.to, in->new_counts, in->new_sections) || in->old_to_new[move.from.section] < 0 ||
            in->new_to_old[move.to.section] < 0)
            return DFC_ERR_INCONSISTENT;
        in->moves[i] = move;
    }
    /* No source twice or deleted; no target twice or inserted (merges of sorted lists). */
    qsort(in->moves, in->move_count, sizeof(*in->moves), dfc__compare_moves_by_source);
    for (size_t i = 0, d = 0; i < in->move_count; i++) {
        if (i > 0 && dfc__path_equal(in->moves[i - 1].from, in->moves[i].from)) return DFC_ERR_INCONSISTENT;
        while (d < in->delete_count && dfc__path_less(in->deletes[d], in->moves[i].from)) d++;
        if (d < in->delete_count && dfc__path_equal(in->deletes[d], in->moves[i].from)) return DFC_ERR_INCONSISTENT;
    }
    qsort(in->moves, in->move_count, sizeof(*in->moves), dfc__compare_moves_by_target);
    for (size_t i = 0, n = 0; i < in->move_count; i++) {
        if (i > 0 && dfc__path_equal(in->moves[i - 1].to, in->moves[i].to)) return DFC_ERR_INCONSISTENT;
        while (n < in->insert_count && dfc__path_less(in->inserts[n], in->moves[i].to)) n++;
        if (n < in->insert_count && dfc__path_equal(in->inserts[n], in->moves[i].to)) return DFC_ERR_INCONSISTENT;
    }
    /* Rows add up in every continued section: old - deleted - moved out + moved in + inserted. */
    int status = DFC_OK;
    int64_t *balance = dfc__context_scratch(context, DFC_BUF_STEP_BALANCE, in->new_sections + 1, sizeof(int64_t), &status);
    if (balance == NULL) return status;
    for (size_t t = 0; t < in->new_sections; t++)
        balance[t] = in->new_to_old[t] < 0 ? 0 : (int64_t)in->old_counts[in->new_to_old[t]] - (int64_t)in->new_counts[t];
    for (size_t i = 0; i < in->delete_count; i++) balance[in->old_to_new[in->deletes[i].section]]--;
    for (size_t i = 0; i < in->insert_count; i++) balance[in->inserts[i].section]++;
    for (size_t i = 0; i < in->move_count; i++) {
        balance[in->old_to_new[in->moves[i].from.section]]--;
        balance[in->moves[i].to.section]++;
    }
    for (size_t t = 0; t < in->new_sections; t++)
        if (balance[t] != 0) return DFC_ERR_INCONSISTENT;
    return DFC_OK;
}

/* Phase 3: the survivors, in old order, become the new order. */
static int dfc__section_move_steps(dfc_context *context, const dfc_step_input *in, dfc_step_list *out) {
    size_t survivors = in->old_sections - in->delete_section_count;
    int status = DFC_OK;
    uint32_t *words = dfc__context_scratch(context, DFC_BUF_STEP_GROUPS, 3 * survivors + 4, sizeof(uint32_t), &status);
    if (words == NULL) return status;
    uint32_t *number = words, *target = number + survivors, *starts = target + survivors;
    uint8_t *stays = (uint8_t *)(starts + 4);
    /* Elements are survivor numbers (old order); the target lists them in new order. A
     * survivor's number is its old index less the deleted sections before it. */
    uint32_t survivor = 0;
    for (size_t o = 0; o < in->old_sections; o++) {
        if (in->old_to_new[o] < 0) continue;
        number[survivor] = survivor;
        stays[survivor] = (uint8_t)!in->section_moved[o];
        survivor++;
    }
    size_t k = 0;
    for (size_t t = 0; t < in->new_sections; t++) {
        if (in->new_to_old[t] < 0) continue;
        uint32_t o = (uint32_t)in->new_to_old[t];
        size_t low = 0, high = in->delete_section_count;
        while (low < high) {
            size_t mid = low + (high - low) / 2;
            if (in->delete_sections[mid] < o) low = mid + 1; else high = mid;
        }
        target[k++] = o - (uint32_t)low;
    }
    starts[0] = 0, starts[1] = (uint32_t)survivors;
    dfc_groups groups = {1, survivors, starts, number, starts, target, stays};
    return dfc__sequential_moves(context, &groups, DFC_STEP_MOVE_SECTION, NULL, out);
}

/* Phase 5: in the continued sections that items move into or out of (at final section
 * indices by now, deleted rows gone, inserted rows still missing), the surviving rows
 * become the final order. Elements are old rows, numbered per touched section. */
static int dfc__item_move_steps(dfc_context *context, const dfc_step_input *in, dfc_step_list *out) {
    if (in->move_count == 0) return DFC_OK;
    int status = DFC_OK;
    /* Touched new sections, ascending: each move's target section and its source's new section. */
    uint32_t *touched = dfc__context_scratch(context, DFC_BUF_STEP_TOUCHED, 2 * in->move_count, sizeof(uint32_t), &status);
    if (touched == NULL) return status;
    for (size_t i = 0; i < in->move_count; i++) {
        touched[2 * i] = in->moves[i].to.section;
        touched[2 * i + 1] = (uint32_t)in->old_to_new[in->moves[i].from.section];
    }
    const size_t groups = dfc__sort_unique_indices(touched, 2 * in->move_count);
    /* Elements: the old rows of every touched section. */
    size_t elements = 0, rows_after = 0;
    for (size_t g = 0; g < groups; g++) {
        elements += in->old_counts[in->new_to_old[touched[g]]];
        rows_after += in->new_counts[touched[g]];
    }
    if (elements > DFC_MAX_COUNT || rows_after > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    /* first_element, group_of_section lookup by binary search; current, target, starts, stays. */
    size_t words = groups + 2 * (groups + 1) + 2 * elements + (elements + 3) / 4 + 1;
    uint32_t *scratch = dfc__context_scratch(context, DFC_BUF_STEP_GROUPS, words, sizeof(uint32_t), &status);
    if (scratch == NULL) return status;
    uint32_t *first = scratch, *current_starts = first + groups, *target_starts = current_starts + groups + 1;
    uint32_t *current = target_starts + groups + 1, *target = current + elements;
    uint8_t *stays = (uint8_t *)(target + elements);
    uint32_t next = 0;
    for (size_t g = 0; g < groups; g++) {
        first[g] = next;
        next += in->old_counts[in->new_to_old[touched[g]]];
    }
    memset(stays, 1, elements);
    for (size_t i = 0; i < in->move_count; i++) {
        size_t g = dfc__group_of(touched, groups, (uint32_t)in->old_to_new[in->moves[i].from.section]);
        stays[first[g] + in->moves[i].from.item] = 0;
    }
    /* Inserts and move targets are sorted by new section, so a cursor each walks them;
     * deletes are by old section, found per group by binary search. */
    size_t n = 0, m = 0, c = 0, tpos = 0;
    for (size_t g = 0; g < groups; g++) {
        const uint32_t t = touched[g], o = (uint32_t)in->new_to_old[t];
        current_starts[g] = (uint32_t)c;
        target_starts[g] = (uint32_t)tpos;
        size_t d = dfc__first_in_section(in->deletes, in->delete_count, o);
        for (uint32_t row = 0; row < in->old_counts[o]; row++) {
            if (d < in->delete_count && in->deletes[d].section == o && in->deletes[d].item == row) {
                d++;
                continue;
            }
            current[c++] = first[g] + row;
        }
        /* Target: new rows of t minus inserted positions; move targets take their mover, the
         * other positions the next current element that stays. */
        while (n < in->insert_count && in->inserts[n].section < t) n++;
        while (m < in->move_count && in->moves[m].to.section < t) m++;
        size_t carried = current_starts[g];
        for (uint32_t row = 0; row < in->new_counts[t]; row++) {
            if (n < in->insert_count && in->inserts[n].section == t && in->inserts[n].item == row) {
                n++;
                continue;
            }
            if (m < in->move_count && in->moves[m].to.section == t && in->moves[m].to.item == row) {
                size_t source_group = dfc__group_of(touched, groups, (uint32_t)in->old_to_new[in->moves[m].from.section]);
                target[tpos++] = first[source_group] + in->moves[m].from.item;
                m++;
                continue;
            }
            while (carried < c && !stays[current[carried]]) carried++;
            if (carried == c) return DFC_ERR_INCONSISTENT;
            target[tpos++] = current[carried++];
        }
        while (carried < c && !stays[current[carried]]) carried++;
        if (carried != c) return DFC_ERR_INCONSISTENT;
    }
    current_starts[groups] = (uint32_t)c;
    target_starts[groups] = (uint32_t)tpos;
    if (c != tpos) return DFC_ERR_INCONSISTENT;
    dfc_groups moves = {groups, elements, current_starts, current, target_starts, target, stays};
    return dfc__sequential_moves(context, &moves, DFC_STEP_MOVE_ITEM, touched, out);
}

/* ---- public ---------------------------------------------------------------- */

/* memcpy that accepts an absent source when there is nothing to copy. */
static inline void dfc__copy(void *destination, const void *source, size_t bytes) {
    if (bytes > 0) memcpy(destination, source, bytes);
}

static bool dfc__list_missing(const void *list, size_t count) { return count > 0 && list == NULL; }

/* Emits the refresh lists at their (final) positions, sorted, each once. */
static int dfc__refresh_steps(const dfc_batch *batch, const dfc_step_input *in, uint32_t *sections,
                              dfc_index_path *reloads, dfc_index_path *reconfigures, bool with_reloads,
                              dfc_step_list *out) {
    size_t count;
    if (with_reloads) {
        dfc__copy(sections, batch->reload_sections, batch->reload_section_count * sizeof(uint32_t));
        count = dfc__sort_unique_indices(sections, batch->reload_section_count);
        for (size_t i = 0; i < count; i++) {
            if (sections[i] >= in->new_sections) return DFC_ERR_INCONSISTENT;
            dfc__emit(out, DFC_STEP_RELOAD_SECTION, sections[i], 0, sections[i], 0);
        }
        dfc__copy(reloads, batch->reload_items, batch->reload_item_count * sizeof(dfc_index_path));
        count = dfc__sort_unique_paths(reloads, batch->reload_item_count);
        for (size_t i = 0; i < count; i++) {
            if (!dfc__path_in(reloads[i], in->new_counts, in->new_sections)) return DFC_ERR_INCONSISTENT;
            dfc__emit(out, DFC_STEP_RELOAD_ITEM, reloads[i].section, reloads[i].item, reloads[i].section, reloads[i].item);
        }
    }
    dfc__copy(reconfigures, batch->reconfigure_items, batch->reconfigure_item_count * sizeof(dfc_index_path));
    count = dfc__sort_unique_paths(reconfigures, batch->reconfigure_item_count);
    for (size_t i = 0; i < count; i++) {
        if (!dfc__path_in(reconfigures[i], in->new_counts, in->new_sections)) return DFC_ERR_INCONSISTENT;
        dfc__emit(out, DFC_STEP_RECONFIGURE_ITEM, reconfigures[i].section, reconfigures[i].item, reconfigures[i].section,
                  reconfigures[i].item);
    }
    return DFC_OK;
}

static bool dfc__sections_in(const uint32_t *sections, size_t count, size_t section_count) {
    for (size_t i = 0; i < count; i++)
        if (sections[i] >= section_count) return false;
    return true;
}

static bool dfc__paths_in(const dfc_index_path *paths, size_t count, const uint32_t *counts, size_t section_count) {
    for (size_t i = 0; i < count; i++)
        if (!dfc__path_in(paths[i], counts, section_count)) return false;
    return true;
}

/* Every index within its space (old: deletes and move sources; new: the rest), checked
 * before anything is allocated. O(k). */
static bool dfc__batch_in_range(const dfc_batch *b, const uint32_t *old_counts, size_t old_sections,
                                const uint32_t *new_counts, size_t new_sections) {
    return dfc__sections_in(b->delete_sections, b->delete_section_count, old_sections) &&
           dfc__sections_in(b->insert_sections, b->insert_section_count, new_sections) &&
           dfc__sections_in(b->move_section_from, b->move_section_count, old_sections) &&
           dfc__sections_in(b->move_section_to, b->move_section_count, new_sections) &&
           dfc__sections_in(b->reload_sections, b->reload_section_count, new_sections) &&
           dfc__paths_in(b->delete_items, b->delete_item_count, old_counts, old_sections) &&
           dfc__paths_in(b->move_item_from, b->move_item_count, old_counts, old_sections) &&
           dfc__paths_in(b->insert_items, b->insert_item_count, new_counts, new_sections) &&
           dfc__paths_in(b->move_item_to, b->move_item_count, new_counts, new_sections) &&
           dfc__paths_in(b->reload_items, b->reload_item_count, new_counts, new_sections) &&
           dfc__paths_in(b->reconfigure_items, b->reconfigure_item_count, new_counts, new_sections);
}

int dfc_batch_steps(dfc_context *context, const dfc_batch *batch, const uint32_t *old_counts, size_t old_section_count,
                    const uint32_t *new_counts, size_t new_section_count, dfc_steps *result) {
    if (context == NULL || batch == NULL || result == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (dfc__list_missing(old_counts, old_section_count) || dfc__list_missing(new_counts, new_section_count) ||
        dfc__list_missing(batch->delete_sections, batch->delete_section_count) ||
        dfc__list_missing(batch->insert_sections, batch->insert_section_count) ||
        (batch->move_section_count > 0 && (batch->move_section_from == NULL || batch->move_section_to == NULL)) ||
        dfc__list_missing(batch->reload_sections, batch->reload_section_count) ||
        dfc__list_missing(batch->delete_items, batch->delete_item_count) ||
        dfc__list_missing(batch->insert_items, batch->insert_item_count) ||
        (batch->move_item_count > 0 && (batch->move_item_from == NULL || batch->move_item_to == NULL)) ||
        dfc__list_missing(batch->reload_items, batch->reload_item_count) ||
        dfc__list_missing(batch->reconfigure_items, batch->reconfigure_item_count))
        return DFC_ERR_NULL_ARGUMENT;
    const size_t counts[] = {old_section_count, new_section_count, batch->delete_section_count,
                             batch->insert_section_count, batch->move_section_count, batch->reload_section_count,
                             batch->delete_item_count, batch->insert_item_count, batch->move_item_count,
                             batch->reload_item_count, batch->reconfigure_item_count};
    size_t total = 0; /* every step comes from one entry of the batch's lists */
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        if (counts[i] > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
        if (i >= 2) total += counts[i];
    }
    if (total > DFC_MAX_COUNT) return DFC_ERR_TOO_LARGE;
    const bool structural = batch->delete_section_count || batch->insert_section_count || batch->move_section_count ||
                            batch->delete_item_count || batch->insert_item_count || batch->move_item_count;
    /* A reload inside a structural batch is a delete plus an insert whose new place UIKit
     * derives from the rest of the batch: callers list it as that pair. */
    if (structural && (batch->reload_section_count || batch->reload_item_count)) return DFC_ERR_INVALID_ARGUMENT;
    if (!dfc__batch_in_range(batch, old_counts, old_section_count, new_counts, new_section_count))
        return DFC_ERR_INCONSISTENT;
    /* Without a structural operation no section or row comes or goes: the counts must not change
     * (a refresh batch is given the new counts twice). */
    if (!structural && (old_section_count != new_section_count ||
                        (old_section_count > 0 && memcmp(old_counts, new_counts, old_section_count * sizeof(uint32_t)) != 0)))
        return DFC_ERR_INCONSISTENT;

    int status = DFC_OK;
    dfc_step *steps = dfc__context_scratch(context, DFC_BUF_STEPS, total ? total : 1, sizeof(dfc_step), &status);
    if (steps == NULL) return status;
    /* Copies of the lists (sorted and trimmed in place), then the section maps. Word counts:
     * index 1, path 2, move 4. */
    const size_t list_words = batch->delete_section_count + batch->insert_section_count + batch->reload_section_count +
                              2 * (batch->delete_item_count + batch->insert_item_count + batch->reload_item_count +
                                   batch->reconfigure_item_count) +
                              4 * batch->move_item_count;
    uint32_t *lists = dfc__context_scratch(context, DFC_BUF_STEP_LISTS, list_words + 1, sizeof(uint32_t), &status);
    if (lists == NULL) return status;
    const size_t map_words = old_section_count + new_section_count + (old_section_count + 3) / 4 + 1;
    uint32_t *maps = dfc__context_scratch(context, DFC_BUF_STEP_MAPS, map_words, sizeof(uint32_t), &status);
    if (maps == NULL) return status;

    dfc_step_input in = {0};
    in.old_counts = old_counts, in.new_counts = new_counts;
    in.old_sections = old_section_count, in.new_sections = new_section_count;
    uint32_t *cursor = lists;
    in.delete_sections = cursor, cursor += batch->delete_section_count;
    in.insert_sections = cursor, cursor += batch->insert_section_count;
    uint32_t *reload_sections = cursor;
    cursor += batch->reload_section_count;
    in.deletes = (dfc_index_path *)cursor, cursor += 2 * batch->delete_item_count;
    in.inserts = (dfc_index_path *)cursor, cursor += 2 * batch->insert_item_count;
    dfc_index_path *reloads = (dfc_index_path *)cursor;
    cursor += 2 * batch->reload_item_count;
    dfc_index_path *reconfigures = (dfc_index_path *)cursor;
    cursor += 2 * batch->reconfigure_item_count;
    in.moves = (dfc_path_move *)cursor;
    in.old_to_new = (int32_t *)maps, in.new_to_old = in.old_to_new + old_section_count;
    in.section_moved = (uint8_t *)(in.new_to_old + new_section_count);

    dfc_step_list out = {steps, 0};
    if (!structural) {
        status = dfc__refresh_steps(batch, &in, reload_sections, reloads, reconfigures, true, &out);
    } else {
        if (batch->delete_section_count)
            memcpy(in.delete_sections, batch->delete_sections, batch->delete_section_count * sizeof(uint32_t));
        if (batch->insert_section_count)
            memcpy(in.insert_sections, batch->insert_sections, batch->insert_section_count * sizeof(uint32_t));
        in.delete_section_count = dfc__sort_unique_indices(in.delete_sections, batch->delete_section_count);
        in.insert_section_count = dfc__sort_unique_indices(in.insert_sections, batch->insert_section_count);
        if (batch->delete_item_count)
            memcpy(in.deletes, batch->delete_items, batch->delete_item_count * sizeof(dfc_index_path));
        if (batch->insert_item_count)
            memcpy(in.inserts, batch->insert_items, batch->insert_item_count * sizeof(dfc_index_path));
        in.delete_count = batch->delete_item_count, in.insert_count = batch->insert_item_count;
        in.move_count = batch->move_item_count;
        status = dfc__read_sections(batch, &in);
        if (status == DFC_OK) status = dfc__read_items(context, batch, &in);
        if (status != DFC_OK) return status;
        /* 1. item deletes, last first; 2. section deletes, last first. */
        for (size_t i = in.delete_count; i-- > 0;)
            dfc__emit(&out, DFC_STEP_DELETE_ITEM, in.deletes[i].section, in.deletes[i].item, in.deletes[i].section,
                      in.deletes[i].item);
        for (size_t i = in.delete_section_count; i-- > 0;)
            dfc__emit(&out, DFC_STEP_DELETE_SECTION, in.delete_sections[i], 0, in.delete_sections[i], 0);
        /* 3. section moves; 4. section inserts, first first. */
        if (batch->move_section_count) status = dfc__section_move_steps(context, &in, &out);
        if (status != DFC_OK) return status;
        for (size_t i = 0; i < in.insert_section_count; i++)
            dfc__emit(&out, DFC_STEP_INSERT_SECTION, in.insert_sections[i], 0, in.insert_sections[i], 0);
        /* 5. item moves; 6. item inserts, first first; 7. reconfigures. */
        status = dfc__item_move_steps(context, &in, &out);
        if (status != DFC_OK) return status;
        for (size_t i = 0; i < in.insert_count; i++)
            dfc__emit(&out, DFC_STEP_INSERT_ITEM, in.inserts[i].section, in.inserts[i].item, in.inserts[i].section,
                      in.inserts[i].item);
        status = dfc__refresh_steps(batch, &in, reload_sections, reloads, reconfigures, false, &out);
    }
    if (status != DFC_OK) return status;
    result->steps = steps;
    result->count = out.count;
    return DFC_OK;
}

int dfc_flat_steps(dfc_context *context, const dfc_flat_result *flat, dfc_steps *result) {
    if (context == NULL || flat == NULL || result == NULL) return DFC_ERR_NULL_ARGUMENT;
    if (dfc__list_missing(flat->deletes, flat->delete_count) || dfc__list_missing(flat->inserts, flat->insert_count) ||
        (flat->move_count > 0 && (flat->move_from == NULL || flat->move_to == NULL)))
        return DFC_ERR_NULL_ARGUMENT;
    if (flat->old_count > DFC_MAX_COUNT || flat->new_count > DFC_MAX_COUNT || flat->delete_count > DFC_MAX_COUNT ||
        flat->insert_count > DFC_MAX_COUNT || flat->move_count > DFC_MAX_COUNT)
        return DFC_ERR_TOO_LARGE;
    for (size_t i = 0; i < flat->delete_count; i++)
        if (flat->deletes[i] >= flat->old_count) return DFC_ERR_INCONSISTENT;
    for (size_t i = 0; i < flat->insert_count; i++)
        if (flat->inserts[i] >= flat->new_count) return DFC_ERR_INCONSISTENT;
    for (size_t i = 0; i < flat->move_count; i++)
        if (flat->move_from[i] >= flat->old_count || flat->move_to[i] >= flat->new_count) return DFC_ERR_INCONSISTENT;
    /* One section: the flat lists as index paths in section 0. */
    const size_t paths = flat->delete_count + flat->insert_count + 2 * flat->move_count;
    int status = DFC_OK;
    dfc_index_path *buffer = dfc__context_scratch(context, DFC_BUF_STEP_FLAT, paths + 1, sizeof(dfc_index_path), &status);
    if (buffer == NULL) return status;
    dfc_index_path *deletes = buffer, *inserts = deletes + flat->delete_count, *from = inserts + flat->insert_count;
    dfc_index_path *to = from + flat->move_count;
    for (size_t i = 0; i < flat->delete_count; i++) deletes[i] = (dfc_index_path){0, flat->deletes[i]};
    for (size_t i = 0; i < flat->insert_count; i++) inserts[i] = (dfc_index_path){0, flat->inserts[i]};
    for (size_t i = 0; i < flat->move_count; i++) {
        from[i] = (dfc_index_path){0, flat->move_from[i]};
        to[i] = (dfc_index_path){0, flat->move_to[i]};
    }
    dfc_batch batch = {0};
    batch.delete_items = deletes, batch.delete_item_count = flat->delete_count;
    batch.insert_items = inserts, batch.insert_item_count = flat->insert_count;
    batch.move_item_from = from, batch.move_item_to = to, batch.move_item_count = flat->move_count;
    const uint32_t old_count = (uint32_t)flat->old_count, new_count = (uint32_t)flat->new_count;
    return dfc_batch_steps(context, &batch, &old_count, 1, &new_count, 1, result);
}
