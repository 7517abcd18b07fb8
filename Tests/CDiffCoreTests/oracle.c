/* Oracles written from the rules alone (oracle.h); nothing here calls the core. */
#include "oracle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the flat diff ------------------------------------------------------------------------- */

/* Longest increasing subsequence length: the O(n^2) recurrence for small inputs,
 * a length-only patience count (no back pointers) for large ones. */
size_t oracle_lis_length(const uint32_t *values, size_t count) {
    if (count > 2000) {
        uint32_t *tops = malloc(count * sizeof(uint32_t));
        size_t piles = 0;
        for (size_t j = 0; j < count; j++) {
            size_t lo = 0, hi = piles;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (tops[mid] < values[j]) lo = mid + 1;
                else hi = mid;
            }
            tops[lo] = values[j];
            if (lo == piles) piles++;
        }
        free(tops);
        return piles;
    }
    size_t *best = malloc((count ? count : 1) * sizeof(size_t));
    size_t longest = 0;
    for (size_t j = 0; j < count; j++) {
        best[j] = 1;
        for (size_t i = 0; i < j; i++)
            if (values[i] < values[j] && best[i] + 1 > best[j]) best[j] = best[i] + 1;
        if (best[j] > longest) longest = best[j];
    }
    free(best);
    return longest;
}

/* Replays a flat result on `old` the way a list view does (deletes and move
 * sources leave, inserts and move targets take their final slots, every
 * other old element fills the remaining slots in old order) and checks that
 * it gives `new`, and that moves are minimal. */
bool oracle_flat_replay(const uint64_t *old_keys, size_t n, const uint64_t *new_keys, size_t m,
                           const dfc_flat_result *r) {
    bool ok = true;
    uint64_t *out = calloc(m ? m : 1, sizeof(uint64_t));
    bool *filled = calloc(m ? m : 1, sizeof(bool));
    bool *leaves = calloc(n ? n : 1, sizeof(bool));
    for (size_t k = 0; k < r->delete_count; k++) leaves[r->deletes[k]] = true;
    for (size_t k = 0; k < r->insert_count; k++) {
        out[r->inserts[k]] = new_keys[r->inserts[k]];
        filled[r->inserts[k]] = true;
    }
    for (size_t k = 0; k < r->move_count; k++) {
        leaves[r->move_from[k]] = true;
        if (filled[r->move_to[k]]) ok = false;
        out[r->move_to[k]] = old_keys[r->move_from[k]];
        filled[r->move_to[k]] = true;
    }
    size_t slot = 0;
    for (size_t i = 0; i < n; i++) {
        if (leaves[i]) continue;
        while (slot < m && filled[slot]) slot++;
        if (slot >= m) { ok = false; break; }
        out[slot] = old_keys[i];
        filled[slot++] = true;
    }
    for (size_t j = 0; j < m; j++)
        if (!filled[j] || out[j] != new_keys[j]) ok = false;
    /* ascending orders */
    for (size_t k = 1; k < r->delete_count; k++) if (r->deletes[k - 1] >= r->deletes[k]) ok = false;
    for (size_t k = 1; k < r->insert_count; k++) if (r->inserts[k - 1] >= r->inserts[k]) ok = false;
    for (size_t k = 1; k < r->move_count; k++) if (r->move_to[k - 1] >= r->move_to[k]) ok = false;
    /* minimal moves: matched - LIS of old indices in new order */
    uint32_t *sequence = malloc((m ? m : 1) * sizeof(uint32_t));
    size_t matched = 0;
    for (size_t j = 0; j < m; j++)
        if (r->new_to_old[j] >= 0) sequence[matched++] = (uint32_t)r->new_to_old[j];
    if (matched != r->matched) ok = false;
    if (r->move_count != matched - oracle_lis_length(sequence, matched)) ok = false;
    free(sequence);
    free(out);
    free(filled);
    free(leaves);
    return ok;
}


/* ---- the two-level batch ------------------------------------------------------------------- */

static char problem[320];

static const char *failed(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(problem, sizeof problem, format, arguments);
    va_end(arguments);
    return problem;
}

/* Identities sorted with their positions, for lookups in O(log n) without the core's tables. */
typedef struct entry {
    uint64_t id;
    uint32_t at;
} entry;

static int entry_order(const void *a, const void *b) {
    const entry *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static entry *sorted_entries(const uint64_t *ids, size_t count) {
    entry *entries = malloc((count ? count : 1) * sizeof(entry));
    if (entries == NULL) return NULL;
    for (size_t k = 0; k < count; k++) entries[k] = (entry){ids[k], (uint32_t)k};
    qsort(entries, count, sizeof(entry), entry_order);
    return entries;
}

/* The position of `id`, or -1. */
static int64_t position_of(const entry *entries, size_t count, uint64_t id) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entries[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < count && entries[lo].id == id ? (int64_t)entries[lo].at : -1;
}

/* One section of the list being replayed: its identity and its items. */
typedef struct column {
    uint64_t id;
    uint64_t *items;
    size_t count, capacity;
} column;

static bool column_insert(column *c, size_t at, uint64_t id) {
    if (c->count == c->capacity) {
        size_t capacity = c->capacity ? 2 * c->capacity : 8;
        uint64_t *grown = realloc(c->items, capacity * sizeof(uint64_t));
        if (grown == NULL) return false;
        c->items = grown;
        c->capacity = capacity;
    }
    memmove(c->items + at + 1, c->items + at, (c->count - at) * sizeof(uint64_t));
    c->items[at] = id;
    c->count++;
    return true;
}

static bool column_fill(column *c, uint64_t id, const uint64_t *items, size_t count) {
    c->id = id;
    for (size_t k = 0; k < count; k++)
        if (!column_insert(c, c->count, items[k])) return false;
    return true;
}

/* One operation on an index or an index path: `move` is the move's position in its list, or -1. */
typedef struct step {
    uint32_t section, item;
    int64_t move;
} step;

static int step_ascending(const void *a, const void *b) {
    const step *x = a, *y = b;
    if (x->section != y->section) return x->section < y->section ? -1 : 1;
    return x->item < y->item ? -1 : x->item > y->item;
}

static int step_descending(const void *a, const void *b) { return step_ascending(b, a); }

static size_t count_of(const oracle_snapshot *s, size_t section) { return s->starts[section + 1] - s->starts[section]; }

static bool paths_ascend(const dfc_index_path *paths, size_t count) {
    for (size_t k = 1; k < count; k++)
        if (paths[k - 1].section > paths[k].section ||
            (paths[k - 1].section == paths[k].section && paths[k - 1].item >= paths[k].item))
            return false;
    return true;
}

static bool indices_ascend(const uint32_t *values, size_t count) {
    for (size_t k = 1; k < count; k++)
        if (values[k - 1] >= values[k]) return false;
    return true;
}

/* The ordering and bounds rules of one batch's lists; NULL when they hold. */
static const char *check_lists(const dfc_batch *b, const oracle_snapshot *o, const oracle_snapshot *n) {
    if (!indices_ascend(b->delete_sections, b->delete_section_count)) return failed("deleteSections not ascending");
    if (!indices_ascend(b->insert_sections, b->insert_section_count)) return failed("insertSections not ascending");
    if (!indices_ascend(b->move_section_to, b->move_section_count)) return failed("moveSections not ascending by destination");
    if (!indices_ascend(b->reload_sections, b->reload_section_count)) return failed("reloadSections not ascending");
    if (!paths_ascend(b->delete_items, b->delete_item_count)) return failed("deleteItems not ascending");
    if (!paths_ascend(b->insert_items, b->insert_item_count)) return failed("insertItems not ascending");
    if (!paths_ascend(b->move_item_to, b->move_item_count)) return failed("moveItems not ascending by destination");
    if (!paths_ascend(b->reload_items, b->reload_item_count)) return failed("reloadItems not ascending");
    if (!paths_ascend(b->reconfigure_items, b->reconfigure_item_count)) return failed("reconfigureItems not ascending");
    for (size_t k = 0; k < b->delete_section_count; k++)
        if (b->delete_sections[k] >= o->section_count) return failed("deleteSections %u out of %zu old sections", b->delete_sections[k], o->section_count);
    for (size_t k = 0; k < b->insert_section_count; k++)
        if (b->insert_sections[k] >= n->section_count) return failed("insertSections %u out of %zu new sections", b->insert_sections[k], n->section_count);
    for (size_t k = 0; k < b->move_section_count; k++)
        if (b->move_section_from[k] >= o->section_count || b->move_section_to[k] >= n->section_count)
            return failed("moveSections %u -> %u out of bounds", b->move_section_from[k], b->move_section_to[k]);
    for (size_t k = 0; k < b->reload_section_count; k++)
        if (b->reload_sections[k] >= n->section_count) return failed("reloadSections %u out of bounds", b->reload_sections[k]);
    const struct { const dfc_index_path *paths; size_t count; const oracle_snapshot *in; const char *name; } lists[] = {
        {b->delete_items, b->delete_item_count, o, "deleteItems"},
        {b->move_item_from, b->move_item_count, o, "moveItems (from)"},
        {b->insert_items, b->insert_item_count, n, "insertItems"},
        {b->move_item_to, b->move_item_count, n, "moveItems (to)"},
        {b->reload_items, b->reload_item_count, n, "reloadItems"},
        {b->reconfigure_items, b->reconfigure_item_count, n, "reconfigureItems"},
    };
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
        for (size_t k = 0; k < lists[l].count; k++) {
            const dfc_index_path p = lists[l].paths[k];
            if (p.section >= lists[l].in->section_count || p.item >= count_of(lists[l].in, p.section))
                return failed("%s (%u, %u) out of bounds", lists[l].name, p.section, p.item);
        }
    return NULL;
}

/* The refresh batch: nothing structural, nothing both reloaded and reconfigured. */
static const char *check_refresh(const dfc_sections_result *r, const oracle_snapshot *n) {
    const dfc_batch *f = &r->refresh;
    if (f->delete_section_count + f->insert_section_count + f->move_section_count + f->delete_item_count +
            f->insert_item_count + f->move_item_count != 0)
        return failed("the refresh batch holds structural operations");
    if ((r->has_refresh != 0) != (f->reload_section_count + f->reload_item_count + f->reconfigure_item_count != 0))
        return failed("has_refresh %d does not match the refresh batch", r->has_refresh);
    const char *wrong = check_lists(f, n, n);
    if (wrong) return wrong;
    for (size_t a = 0, b = 0; a < f->reload_item_count && b < f->reconfigure_item_count;) {
        const dfc_index_path x = f->reload_items[a], y = f->reconfigure_items[b];
        if (x.section == y.section && x.item == y.item) return failed("(%u, %u) both reloaded and reconfigured", x.section, x.item);
        if (x.section < y.section || (x.section == y.section && x.item < y.item)) a++;
        else b++;
    }
    return NULL;
}

/* Everything the replay needs, released in one place. */
typedef struct replay {
    column *columns, *moved_columns;
    uint64_t *moved_items;
    step *steps;
    uint8_t *deleted, *moved_from, *inserted, *moved_to; /* sections: old, old, new, new */
    size_t *old_target;                                  /* old section -> new index (B6 section map) */
    long *expected_count;
    uint32_t *sequence, *old_section_of;
    size_t *section_moves;
    entry *old_items, *old_sections;
    size_t column_count, moved_count;
} replay;

static void replay_free(replay *p, size_t columns) {
    for (size_t k = 0; p->columns && k < columns; k++) free(p->columns[k].items);
    for (size_t k = 0; p->moved_columns && k < p->moved_count; k++) free(p->moved_columns[k].items);
    free(p->columns);
    free(p->moved_columns);
    free(p->moved_items);
    free(p->steps);
    free(p->deleted);
    free(p->moved_from);
    free(p->inserted);
    free(p->moved_to);
    free(p->old_target);
    free(p->expected_count);
    free(p->sequence);
    free(p->old_section_of);
    free(p->section_moves);
    free(p->old_items);
    free(p->old_sections);
}

static const char *replay_run(replay *p, const oracle_snapshot *o, const oracle_snapshot *n, const dfc_batch *b) {
    const size_t so = o->section_count, sn = n->section_count, items_old = o->starts[so], items_new = n->starts[sn];
    const size_t total = so + sn + 1, steps = b->delete_item_count + b->insert_item_count + b->move_item_count +
                                               b->delete_section_count + b->insert_section_count + b->move_section_count + 1;
    p->columns = calloc(total, sizeof(column));
    p->moved_columns = calloc(b->move_section_count + 1, sizeof(column));
    p->moved_count = b->move_section_count;
    p->moved_items = calloc(b->move_item_count + 1, sizeof(uint64_t));
    p->steps = calloc(steps, sizeof(step));
    p->deleted = calloc(so + 1, 1);
    p->moved_from = calloc(so + 1, 1);
    p->inserted = calloc(sn + 1, 1);
    p->moved_to = calloc(sn + 1, 1);
    p->old_target = calloc(so + 1, sizeof(size_t));
    p->expected_count = calloc(sn + 1, sizeof(long));
    p->sequence = calloc(items_new + sn + 1, sizeof(uint32_t));
    p->old_section_of = calloc(items_old + 1, sizeof(uint32_t));
    p->section_moves = calloc(sn + 1, sizeof(size_t));
    p->old_items = sorted_entries(o->items, items_old);
    p->old_sections = sorted_entries(o->sections, so);
    if (!p->columns || !p->moved_columns || !p->moved_items || !p->steps || !p->deleted || !p->moved_from ||
        !p->inserted || !p->moved_to || !p->old_target || !p->expected_count || !p->sequence || !p->old_section_of ||
        !p->section_moves || !p->old_items || !p->old_sections)
        return failed("oracle out of memory");

    /* Section flags; a section deleted and moved, moved twice, or inserted and moved in breaks UIKit's rules. */
    for (size_t k = 0; k < b->delete_section_count; k++) p->deleted[b->delete_sections[k]] = 1;
    for (size_t k = 0; k < b->insert_section_count; k++) p->inserted[b->insert_sections[k]] = 1;
    for (size_t k = 0; k < b->move_section_count; k++) {
        const uint32_t from = b->move_section_from[k], to = b->move_section_to[k];
        if (p->deleted[from] || p->moved_from[from]) return failed("section %u moved and deleted, or moved twice", from);
        if (p->inserted[to] || p->moved_to[to]) return failed("section %u both inserted and moved in, or two moved in", to);
        p->moved_from[from] = p->moved_to[to] = 1;
    }

    /* 1. Item deletes and move sources leave, at old paths, descending. */
    size_t count = 0;
    for (size_t k = 0; k < b->delete_item_count; k++) p->steps[count++] = (step){b->delete_items[k].section, b->delete_items[k].item, -1};
    for (size_t k = 0; k < b->move_item_count; k++) p->steps[count++] = (step){b->move_item_from[k].section, b->move_item_from[k].item, (int64_t)k};
    for (size_t s = 0; s < so; s++)
        if (!column_fill(&p->columns[s], o->sections[s], o->items + o->starts[s], count_of(o, s))) return failed("oracle out of memory");
    p->column_count = so;
    qsort(p->steps, count, sizeof(step), step_descending);
    for (size_t k = 0; k < count; k++) {
        const step st = p->steps[k];
        if (k > 0 && step_ascending(&p->steps[k - 1], &st) == 0) return failed("old path (%u, %u) deleted or moved twice", st.section, st.item);
        if (p->deleted[st.section]) return failed("item (%u, %u) %s a deleted section", st.section, st.item, st.move < 0 ? "deleted in" : "moved out of");
        if (p->moved_from[st.section]) return failed("item (%u, %u) touched in moved section %u", st.section, st.item, st.section);
        column *c = &p->columns[st.section];
        if (st.move >= 0) p->moved_items[st.move] = c->items[st.item];
        memmove(c->items + st.item, c->items + st.item + 1, (c->count - st.item - 1) * sizeof(uint64_t));
        c->count--;
    }

    /* 2. Deleted and moved sections leave, at old indices, descending. */
    count = 0;
    for (size_t k = 0; k < b->delete_section_count; k++) p->steps[count++] = (step){b->delete_sections[k], 0, -1};
    for (size_t k = 0; k < b->move_section_count; k++) p->steps[count++] = (step){b->move_section_from[k], 0, (int64_t)k};
    qsort(p->steps, count, sizeof(step), step_descending);
    for (size_t k = 0; k < count; k++) {
        const step st = p->steps[k];
        if (st.move >= 0) p->moved_columns[st.move] = p->columns[st.section];
        else free(p->columns[st.section].items);
        memmove(p->columns + st.section, p->columns + st.section + 1, (p->column_count - st.section - 1) * sizeof(column));
        p->columns[--p->column_count] = (column){0, NULL, 0, 0};
    }

    /* 3. Inserted sections (with their items) and moved ones enter, at new indices, ascending. */
    count = 0;
    for (size_t k = 0; k < b->insert_section_count; k++) p->steps[count++] = (step){b->insert_sections[k], 0, -1};
    for (size_t k = 0; k < b->move_section_count; k++) p->steps[count++] = (step){b->move_section_to[k], 0, (int64_t)k};
    qsort(p->steps, count, sizeof(step), step_ascending);
    for (size_t k = 0; k < count; k++) {
        const step st = p->steps[k];
        if (st.section > p->column_count) return failed("section enters at %u, past %zu sections", st.section, p->column_count);
        memmove(p->columns + st.section + 1, p->columns + st.section, (p->column_count - st.section) * sizeof(column));
        p->column_count++;
        if (st.move >= 0) {
            p->columns[st.section] = p->moved_columns[st.move];
            p->moved_columns[st.move] = (column){0, NULL, 0, 0};
        } else {
            p->columns[st.section] = (column){0, NULL, 0, 0};
            if (!column_fill(&p->columns[st.section], n->sections[st.section], n->items + n->starts[st.section],
                             count_of(n, st.section)))
                return failed("oracle out of memory");
        }
    }

    /* 4. Item inserts and move targets enter, at new paths, ascending. */
    count = 0;
    for (size_t k = 0; k < b->insert_item_count; k++) p->steps[count++] = (step){b->insert_items[k].section, b->insert_items[k].item, -1};
    for (size_t k = 0; k < b->move_item_count; k++) p->steps[count++] = (step){b->move_item_to[k].section, b->move_item_to[k].item, (int64_t)k};
    qsort(p->steps, count, sizeof(step), step_ascending);
    for (size_t k = 0; k < count; k++) {
        const step st = p->steps[k];
        if (k > 0 && step_ascending(&p->steps[k - 1], &st) == 0) return failed("new path (%u, %u) inserted or moved to twice", st.section, st.item);
        if (p->inserted[st.section]) return failed("item (%u, %u) %s an inserted section", st.section, st.item, st.move < 0 ? "inserted in" : "moved into");
        if (p->moved_to[st.section]) return failed("item (%u, %u) touched in moved section %u", st.section, st.item, st.section);
        if (st.section >= p->column_count || st.item > p->columns[st.section].count)
            return failed("item enters at (%u, %u), past the end", st.section, st.item);
        const uint64_t id = st.move >= 0 ? p->moved_items[st.move] : n->items[n->starts[st.section] + st.item];
        if (!column_insert(&p->columns[st.section], st.item, id)) return failed("oracle out of memory");
    }

    /* The replay gives the new snapshot exactly. */
    if (p->column_count != sn) return failed("replay gives %zu sections, the new snapshot has %zu", p->column_count, sn);
    for (size_t t = 0; t < sn; t++) {
        const column *c = &p->columns[t];
        if (c->id != n->sections[t]) return failed("replay: section %zu is %llu, expected %llu", t, (unsigned long long)c->id, (unsigned long long)n->sections[t]);
        if (c->count != count_of(n, t)) return failed("replay: section %zu holds %zu items, expected %zu", t, c->count, count_of(n, t));
        for (size_t i = 0; i < c->count; i++)
            if (c->items[i] != n->items[n->starts[t] + i])
                return failed("replay: item (%zu, %zu) is %llu, expected %llu", t, i, (unsigned long long)c->items[i],
                              (unsigned long long)n->items[n->starts[t] + i]);
    }

    /* Counts as UIKit checks them, moves counted by raw section index. */
    if (sn != so - b->delete_section_count + b->insert_section_count)
        return failed("%zu sections != %zu - %zu deleted + %zu inserted", sn, so, b->delete_section_count, b->insert_section_count);
    for (size_t k = 0; k < b->move_section_count; k++) p->old_target[b->move_section_from[k]] = b->move_section_to[k];
    for (size_t s = 0, t = 0; s < so; s++) {
        if (p->deleted[s] || p->moved_from[s]) continue;
        while (t < sn && (p->inserted[t] || p->moved_to[t])) t++;
        p->old_target[s] = t++;
    }
    for (size_t s = 0; s < so; s++)
        if (!p->deleted[s]) p->expected_count[p->old_target[s]] = (long)count_of(o, s);
    for (size_t k = 0; k < b->delete_item_count; k++) {
        const uint32_t s = b->delete_items[k].section;
        if (!p->deleted[s]) p->expected_count[p->old_target[s]]--;
    }
    for (size_t k = 0; k < b->insert_item_count; k++) p->expected_count[b->insert_items[k].section]++;
    for (size_t k = 0; k < b->move_item_count; k++) {
        const uint32_t from = b->move_item_from[k].section, to = b->move_item_to[k].section;
        if (from == to) continue; /* raw indices: not counted as in or out */
        if (!p->deleted[from]) p->expected_count[p->old_target[from]]--;
        p->expected_count[to]++;
    }
    for (size_t t = 0; t < sn; t++)
        if (!p->inserted[t] && p->expected_count[t] != (long)count_of(n, t))
            return failed("section %zu: UIKit's count check expects %ld items, the new snapshot has %zu", t, p->expected_count[t], count_of(n, t));

    /* Minimal section moves: every matched section off the LIS moves, or became delete + insert. */
    size_t matched = 0, converted = 0;
    for (size_t t = 0; t < sn; t++) {
        const int64_t s = position_of(p->old_sections, so, n->sections[t]);
        if (s < 0) continue;
        p->sequence[matched++] = (uint32_t)s;
        converted += p->deleted[s];
    }
    const size_t section_lis = oracle_lis_length(p->sequence, matched);
    if (b->move_section_count + converted != matched - section_lis)
        return failed("%zu section moves + %zu turned into delete + insert, expected %zu matched - %zu LIS",
                      b->move_section_count, converted, matched, section_lis);

    /* Minimal item moves in every section that stays: its items from the same section, off their LIS. */
    for (size_t s = 0; s < so; s++)
        for (uint32_t i = o->starts[s]; i < o->starts[s + 1]; i++) p->old_section_of[i] = (uint32_t)s;
    for (size_t k = 0; k < b->move_item_count; k++) {
        const uint32_t from = b->move_item_from[k].section, to = b->move_item_to[k].section;
        if (o->sections[from] == n->sections[to]) p->section_moves[to]++;
    }
    for (size_t t = 0; t < sn; t++) {
        const int64_t s = position_of(p->old_sections, so, n->sections[t]);
        if (s < 0 || p->deleted[s]) continue;
        size_t stayed = 0;
        for (uint32_t j = n->starts[t]; j < n->starts[t + 1]; j++) {
            const int64_t i = position_of(p->old_items, items_old, n->items[j]);
            if (i >= 0 && p->old_section_of[i] == (uint32_t)s) p->sequence[stayed++] = (uint32_t)i;
        }
        const size_t lis = oracle_lis_length(p->sequence, stayed);
        if (p->section_moves[t] != stayed - lis)
            return failed("section %zu: %zu item moves within it, expected %zu matched - %zu LIS", t, p->section_moves[t], stayed, lis);
    }
    return NULL;
}

const char *oracle_sections_replay(const oracle_snapshot *old_snapshot, const oracle_snapshot *new_snapshot,
                                   const dfc_sections_result *r) {
    const dfc_batch *b = &r->structural;
    const size_t operations = b->delete_section_count + b->insert_section_count + b->move_section_count +
                              b->delete_item_count + b->insert_item_count + b->move_item_count;
    if ((r->has_structural != 0) != (operations != 0))
        return failed("has_structural %d with %zu structural operations", r->has_structural, operations);
    if (b->reload_section_count + b->reload_item_count + b->reconfigure_item_count != 0)
        return failed("the structural batch holds reloads or reconfigures");
    const char *wrong = check_lists(b, old_snapshot, new_snapshot);
    if (wrong == NULL) wrong = check_refresh(r, new_snapshot);
    if (wrong) return wrong;
    replay p;
    memset(&p, 0, sizeof p);
    wrong = replay_run(&p, old_snapshot, new_snapshot, b);
    replay_free(&p, old_snapshot->section_count + new_snapshot->section_count + 1);
    return wrong;
}
