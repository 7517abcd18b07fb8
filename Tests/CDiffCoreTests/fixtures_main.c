/* Runs every fixture (the *.json files below Tests/Fixtures) through the C API alone:
 * identifiers are NFC-normalized (utf8proc), keyed with dfc_hash_bytes, matched
 * byte-wise by dfc_diff_sections; the batches (or the error object) are built as
 * JSON (cJSON) and compared with the fixture's "expect". Pinned keys are checked
 * with dfc_hash_one. Every batch is also replayed onto the old snapshot by the independent
 * oracle (oracle.h: UIKit's order and counts, moves minimal against a plain LIS), with
 * identifiers numbered by sorting their bytes, not by the core's tables.
 * Prints one line per failure and "C fixtures: N passed, N failed"; fails when none passed.
 * Outline fixtures (docs/FIXTURES.md) are validated here and turned into their
 * visible rows, one section, which the core diffs like any flat snapshot.
 *
 *     fixtures-tests [DIR]     (default Tests/Fixtures)
 */
#define _DEFAULT_SOURCE
#include "dfc.h"
#include "oracle.h"

#include <cJSON.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

/* ---- identifiers ---------------------------------------------------------- */

/* One list of identifiers: NFC bytes in one buffer, offsets, keys, original spellings. */
typedef struct idlist {
    char *bytes;
    uint64_t *offsets;
    uint64_t *keys;
    const char **names; /* as written in the fixture */
    size_t count;
} idlist;

static char *nfc(const char *text) {
    utf8proc_uint8_t *normalized = utf8proc_NFC((const utf8proc_uint8_t *)text);
    return (char *)normalized; /* NULL on invalid UTF-8 */
}

static int idlist_init(idlist *list, const char **names, size_t count) {
    memset(list, 0, sizeof(*list));
    list->count = count;
    list->names = names;
    list->offsets = calloc(count + 1, sizeof(uint64_t));
    list->keys = calloc(count ? count : 1, sizeof(uint64_t));
    size_t total = 0, capacity = 64;
    list->bytes = malloc(capacity);
    if (!list->offsets || !list->keys || !list->bytes) return 0;
    for (size_t i = 0; i < count; i++) {
        char *form = nfc(names[i]);
        if (form == NULL) return 0;
        size_t length = strlen(form);
        while (total + length > capacity) {
            capacity *= 2;
            char *grown = realloc(list->bytes, capacity);
            if (grown == NULL) { free(form); return 0; }
            list->bytes = grown;
        }
        memcpy(list->bytes + total, form, length);
        total += length;
        list->offsets[i + 1] = total;
        free(form);
    }
    return dfc_hash_bytes(list->bytes, list->offsets, count, 0, list->keys) == DFC_OK;
}

static void idlist_free(idlist *list) {
    free(list->bytes);
    free(list->offsets);
    free(list->keys);
    free(list->names);
}

static int idlist_equal(const idlist *list, size_t i, const char *nfc_bytes, size_t length) {
    return list->offsets[i + 1] - list->offsets[i] == length &&
           memcmp(list->bytes + list->offsets[i], nfc_bytes, length) == 0;
}

/* Index of the identifier equal to `name` (NFC), through a table built by the caller, or -1. */
static int64_t idlist_find(const idlist *list, dfc_idtable *table, const char *name) {
    char *form = nfc(name);
    if (form == NULL) return -1;
    size_t length = strlen(form), cursor = 0;
    uint64_t key = dfc_hash_one(form, length, 0);
    int64_t found;
    while ((found = dfc_idtable_find(table, key, &cursor)) != DFC_NOT_FOUND)
        if (idlist_equal(list, (size_t)found, form, length)) break;
    free(form);
    return found;
}

/* A table of the list: key i -> i. Room is reserved first (inserts never grow a table); the
 * list's keys are its key array, read in order when the table is rebuilt. NULL on failure. */
static dfc_idtable *idlist_table(const idlist *list) {
    dfc_idtable *table = dfc_idtable_create(NULL);
    if (table == NULL) return NULL;
    int status = dfc_idtable_reserve(table, list->count, list->keys, list->count);
    for (size_t i = 0; status == DFC_OK && i < list->count; i++)
        status = dfc_idtable_insert(table, list->keys[i], (uint32_t)i);
    if (status != DFC_OK) {
        dfc_idtable_free(table);
        return NULL;
    }
    return table;
}

/* ---- snapshots ------------------------------------------------------------------ */

typedef struct document {
    idlist sections, items;
    uint32_t *starts;
    const cJSON *json;
} document;

static int document_init(document *d, const cJSON *json) {
    memset(d, 0, sizeof(*d));
    d->json = json;
    const cJSON *sections = cJSON_GetObjectItemCaseSensitive(json, "sections");
    size_t section_count = (size_t)cJSON_GetArraySize(sections), item_count = 0;
    const cJSON *section;
    cJSON_ArrayForEach(section, sections) item_count += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(section, "items"));
    const char **section_names = calloc(section_count + 1, sizeof(char *));
    const char **item_names = calloc(item_count + 1, sizeof(char *));
    d->starts = calloc(section_count + 1, sizeof(uint32_t));
    if (!section_names || !item_names || !d->starts) return 0;
    size_t s = 0, i = 0;
    cJSON_ArrayForEach(section, sections) {
        section_names[s] = cJSON_GetObjectItemCaseSensitive(section, "id")->valuestring;
        const cJSON *item;
        cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(section, "items")) item_names[i++] = item->valuestring;
        d->starts[++s] = (uint32_t)i;
    }
    return idlist_init(&d->sections, section_names, section_count) && idlist_init(&d->items, item_names, item_count);
}

static void document_free(document *d) {
    idlist_free(&d->sections);
    idlist_free(&d->items);
    free(d->starts);
}

static dfc_snapshot document_snapshot(const document *d) {
    dfc_snapshot snapshot = {{d->sections.keys, d->sections.count, d->sections.bytes, d->sections.offsets},
                             {d->items.keys, d->items.count, d->items.bytes, d->items.offsets},
                             d->starts};
    return snapshot;
}

/* ---- identities for the oracle -------------------------------------------------- */

typedef struct named {
    const char *bytes;
    uint64_t length;
    uint64_t *slot; /* where its number goes */
} named;

static int named_order(const void *a, const void *b) {
    const named *x = a, *y = b;
    const uint64_t shorter = x->length < y->length ? x->length : y->length;
    const int order = memcmp(x->bytes, y->bytes, (size_t)shorter);
    if (order != 0) return order;
    return x->length < y->length ? -1 : x->length > y->length;
}

/* Numbers the identifiers of two lists by their NFC bytes (sorted; equal bytes, one number),
 * so the oracle compares identities without the core's keys or tables. 0 when out of memory. */
static int number_identities(const idlist *a, const idlist *b, uint64_t *ids_a, uint64_t *ids_b) {
    const size_t total = a->count + b->count;
    named *all = malloc((total ? total : 1) * sizeof(named));
    if (all == NULL) return 0;
    const idlist *lists[2] = {a, b};
    uint64_t *ids[2] = {ids_a, ids_b};
    size_t k = 0;
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l]->count; i++)
            all[k++] = (named){lists[l]->bytes + lists[l]->offsets[i], lists[l]->offsets[i + 1] - lists[l]->offsets[i], &ids[l][i]};
    qsort(all, total, sizeof(named), named_order);
    uint64_t number = 0;
    for (k = 0; k < total; k++) {
        if (k > 0 && named_order(&all[k - 1], &all[k]) != 0) number++;
        *all[k].slot = number;
    }
    free(all);
    return 1;
}

/* The oracle's verdict on a result (NULL: it holds), or a note that it could not run. */
static const char *oracle_verdict(const document *old_doc, const document *new_doc, const dfc_sections_result *r) {
    uint64_t *sections = malloc((old_doc->sections.count + new_doc->sections.count + 1) * sizeof(uint64_t));
    uint64_t *items = malloc((old_doc->items.count + new_doc->items.count + 1) * sizeof(uint64_t));
    const char *verdict = "oracle out of memory";
    if (sections && items && number_identities(&old_doc->sections, &new_doc->sections, sections, sections + old_doc->sections.count) &&
        number_identities(&old_doc->items, &new_doc->items, items, items + old_doc->items.count)) {
        const oracle_snapshot before = {sections, old_doc->sections.count, items, old_doc->starts};
        const oracle_snapshot after = {sections + old_doc->sections.count, new_doc->sections.count,
                                       items + old_doc->items.count, new_doc->starts};
        verdict = oracle_sections_replay(&before, &after, r);
    }
    free(sections);
    free(items);
    return verdict;
}

/* ---- the expect object ---------------------------------------------------------------- */

static cJSON *index_array(const uint32_t *values, size_t count) {
    cJSON *array = cJSON_CreateArray();
    for (size_t k = 0; k < count; k++) cJSON_AddItemToArray(array, cJSON_CreateNumber(values[k]));
    return array;
}

static cJSON *path(dfc_index_path p) {
    cJSON *array = cJSON_CreateArray();
    cJSON_AddItemToArray(array, cJSON_CreateNumber(p.section));
    cJSON_AddItemToArray(array, cJSON_CreateNumber(p.item));
    return array;
}

static cJSON *path_array(const dfc_index_path *paths, size_t count) {
    cJSON *array = cJSON_CreateArray();
    for (size_t k = 0; k < count; k++) cJSON_AddItemToArray(array, path(paths[k]));
    return array;
}

static cJSON *batch_json(const dfc_batch *b) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddItemToObject(json, "deleteSections", index_array(b->delete_sections, b->delete_section_count));
    cJSON_AddItemToObject(json, "insertSections", index_array(b->insert_sections, b->insert_section_count));
    cJSON *moves = cJSON_CreateArray();
    for (size_t k = 0; k < b->move_section_count; k++) {
        cJSON *move = cJSON_CreateArray();
        cJSON_AddItemToArray(move, cJSON_CreateNumber(b->move_section_from[k]));
        cJSON_AddItemToArray(move, cJSON_CreateNumber(b->move_section_to[k]));
        cJSON_AddItemToArray(moves, move);
    }
    cJSON_AddItemToObject(json, "moveSections", moves);
    cJSON_AddItemToObject(json, "reloadSections", index_array(b->reload_sections, b->reload_section_count));
    cJSON_AddItemToObject(json, "deleteItems", path_array(b->delete_items, b->delete_item_count));
    cJSON_AddItemToObject(json, "insertItems", path_array(b->insert_items, b->insert_item_count));
    cJSON *item_moves = cJSON_CreateArray();
    for (size_t k = 0; k < b->move_item_count; k++) {
        cJSON *move = cJSON_CreateArray();
        cJSON_AddItemToArray(move, path(b->move_item_from[k]));
        cJSON_AddItemToArray(move, path(b->move_item_to[k]));
        cJSON_AddItemToArray(item_moves, move);
    }
    cJSON_AddItemToObject(json, "moveItems", item_moves);
    cJSON_AddItemToObject(json, "reloadItems", path_array(b->reload_items, b->reload_item_count));
    cJSON_AddItemToObject(json, "reconfigureItems", path_array(b->reconfigure_items, b->reconfigure_item_count));
    return json;
}

/* One batch's steps (dfc_batch_steps) appended in the fixtures' form; 0 when the core refused. */
static int append_steps(cJSON *steps, dfc_context *context, const dfc_batch *batch, const dfc_snapshot *before,
                        const dfc_snapshot *after) {
    static const char *const names[] = {NULL, "deleteItem", "deleteSection", "moveSection", "insertSection", "moveItem",
                                        "insertItem", "reloadSection", "reloadItem", "reconfigureItem"};
    size_t old_sections = before->sections.count, new_sections = after->sections.count;
    uint32_t *old_counts = malloc((old_sections + 1) * sizeof(uint32_t)), *new_counts = malloc((new_sections + 1) * sizeof(uint32_t));
    for (size_t k = 0; k < old_sections; k++) old_counts[k] = before->section_starts[k + 1] - before->section_starts[k];
    for (size_t k = 0; k < new_sections; k++) new_counts[k] = after->section_starts[k + 1] - after->section_starts[k];
    dfc_steps result;
    int status = dfc_batch_steps(context, batch, old_counts, old_sections, new_counts, new_sections, &result);
    for (size_t k = 0; status == DFC_OK && k < result.count; k++) {
        const dfc_step *step = &result.steps[k];
        cJSON *entry = cJSON_CreateArray();
        cJSON_AddItemToArray(entry, cJSON_CreateString(step->kind <= DFC_STEP_RECONFIGURE_ITEM ? names[step->kind] : "?"));
        switch (step->kind) {
        case DFC_STEP_DELETE_SECTION: case DFC_STEP_INSERT_SECTION: case DFC_STEP_RELOAD_SECTION:
            cJSON_AddItemToArray(entry, cJSON_CreateNumber(step->at.section));
            break;
        case DFC_STEP_MOVE_SECTION:
            cJSON_AddItemToArray(entry, cJSON_CreateNumber(step->at.section));
            cJSON_AddItemToArray(entry, cJSON_CreateNumber(step->to.section));
            break;
        case DFC_STEP_MOVE_ITEM:
            cJSON_AddItemToArray(entry, path(step->at));
            cJSON_AddItemToArray(entry, path(step->to));
            break;
        default:
            cJSON_AddItemToArray(entry, path(step->at));
        }
        cJSON_AddItemToArray(steps, entry);
    }
    free(old_counts);
    free(new_counts);
    return status == DFC_OK;
}

static cJSON *error_json(const char *kind, const char *side, const char *list) {
    cJSON *error = cJSON_CreateObject();
    cJSON_AddStringToObject(error, "kind", kind);
    cJSON_AddStringToObject(error, "snapshot", side);
    if (list) cJSON_AddStringToObject(error, "list", list);
    cJSON_AddItemToObject(error, "identifiers", cJSON_CreateArray());
    cJSON_AddItemToObject(error, "positions", cJSON_CreateArray());
    return error;
}

static void section_and_item(const document *d, uint32_t flat, dfc_index_path *out) {
    uint32_t s = 0;
    while (d->starts[s + 1] <= flat) s++;
    out->section = s;
    out->item = flat - d->starts[s];
}

/* Duplicates of one kind in one snapshot, grouped by first occurrence (ascending). */
static cJSON *duplicate_error(const document *d, const char *side, int side_code, int is_section,
                              const dfc_duplicate *dups, size_t count) {
    cJSON *error = NULL;
    for (uint32_t first = 0; first < (is_section ? d->sections.count : d->items.count); first++) {
        cJSON *positions = NULL;
        for (size_t k = 0; k < count; k++) {
            if (dups[k].side != side_code || dups[k].is_section != is_section || dups[k].first != first) continue;
            if (positions == NULL) {
                if (error == NULL) error = error_json(is_section ? "duplicateSection" : "duplicateItem", side, NULL);
                positions = cJSON_CreateArray();
                cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(error, "identifiers"),
                                     cJSON_CreateString(is_section ? d->sections.names[first] : d->items.names[first]));
                cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(error, "positions"), positions);
                uint32_t where[1] = {first};
                dfc_index_path p;
                if (is_section) cJSON_AddItemToArray(positions, index_array(where, 1));
                else { section_and_item(d, first, &p); cJSON_AddItemToArray(positions, path(p)); }
            }
            dfc_index_path p;
            uint32_t where[1] = {dups[k].duplicate};
            if (is_section) cJSON_AddItemToArray(positions, index_array(where, 1));
            else { section_and_item(d, dups[k].duplicate, &p); cJSON_AddItemToArray(positions, path(p)); }
        }
    }
    return error;
}

/* Adds the position [index] to the group of `name` in an error object, opening a group (named
 * as first written) when no identifier of the error is canonically equivalent to it. */
static void error_add(cJSON *error, const char *name, uint32_t index) {
    cJSON *identifiers = cJSON_GetObjectItemCaseSensitive(error, "identifiers");
    cJSON *positions = cJSON_GetObjectItemCaseSensitive(error, "positions");
    int slot = -1, k = 0;
    char *form = nfc(name);
    const cJSON *known;
    cJSON_ArrayForEach(known, identifiers) {
        char *other = nfc(known->valuestring);
        if (form && other && strcmp(form, other) == 0) slot = k;
        free(other);
        k++;
    }
    free(form);
    if (slot < 0) {
        cJSON_AddItemToArray(identifiers, cJSON_CreateString(name));
        cJSON_AddItemToArray(positions, cJSON_CreateArray());
        slot = k;
    }
    uint32_t where[1] = {index};
    cJSON_AddItemToArray(cJSON_GetArrayItem(positions, slot), index_array(where, 1));
}

/* Refresh identifiers the snapshot lacks (the C API takes refresh requests as indices). */
static cJSON *unknown_error(const document *d, const char *side, dfc_idtable *items, dfc_idtable *sections) {
    static const char *lists[] = {"reloadItems", "reconfigureItems", "reloadSections"};
    for (int l = 0; l < 3; l++) {
        const cJSON *values = cJSON_GetObjectItemCaseSensitive(d->json, lists[l]);
        cJSON *error = NULL;
        uint32_t index = 0;
        const cJSON *value;
        cJSON_ArrayForEach(value, values) {
            int64_t found = l < 2 ? idlist_find(&d->items, items, value->valuestring)
                                  : idlist_find(&d->sections, sections, value->valuestring);
            if (found < 0) {
                if (error == NULL) error = error_json("unknownIdentifier", side, lists[l]);
                error_add(error, value->valuestring, index);
            }
            index++;
        }
        if (error) return error;
    }
    return NULL;
}

static uint32_t *refresh_indices(const document *d, const char *list, dfc_idtable *table, const idlist *ids, size_t *count) {
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(d->json, list);
    uint32_t *indices = calloc((size_t)cJSON_GetArraySize(values) + 1, sizeof(uint32_t));
    *count = 0;
    const cJSON *value;
    cJSON_ArrayForEach(value, values) {
        int64_t found = idlist_find(ids, table, value->valuestring);
        if (found >= 0) indices[(*count)++] = (uint32_t)found;
    }
    return indices;
}

/* ---- outlines ------------------------------------------------------------------------------ */

/* An outline document: entries (id, optional parent, optional expanded) in any order. */
typedef struct outline {
    idlist ids;
    const char **parent_names; /* NULL for a root */
    int *expanded;
    int64_t *parents; /* entry index of the parent, -1 for a root (after validation) */
    dfc_idtable *table;  /* key -> entry index */
} outline;

static int outline_init(outline *o, const cJSON *json) {
    memset(o, 0, sizeof(*o));
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(json, "outline");
    size_t count = (size_t)cJSON_GetArraySize(entries), k = 0;
    const char **names = calloc(count + 1, sizeof(char *));
    o->parent_names = calloc(count + 1, sizeof(char *));
    o->expanded = calloc(count + 1, sizeof(int));
    o->parents = calloc(count + 1, sizeof(int64_t));
    if (!names || !o->parent_names || !o->expanded || !o->parents) { free(names); return 0; }
    const cJSON *entry;
    cJSON_ArrayForEach(entry, entries) {
        const cJSON *parent = cJSON_GetObjectItemCaseSensitive(entry, "parent");
        names[k] = cJSON_GetObjectItemCaseSensitive(entry, "id")->valuestring;
        o->parent_names[k] = cJSON_IsString(parent) ? parent->valuestring : NULL;
        o->expanded[k] = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(entry, "expanded"));
        k++;
    }
    if (!idlist_init(&o->ids, names, count)) return 0;
    o->table = idlist_table(&o->ids);
    return o->table != NULL;
}

static void outline_free(outline *o) {
    idlist_free(&o->ids);
    dfc_idtable_free(o->table);
    free(o->parent_names);
    free(o->expanded);
    free(o->parents);
}

/* The first kind of problem of an outline (duplicates, unknown parents, cycles) as an error
 * object, or NULL when it is valid; then o->parents holds every entry's parent. */
static cJSON *outline_error(outline *o, const char *side) {
    size_t count = o->ids.count;
    cJSON *error = NULL;
    /* Duplicates: the table finds an entry's first occurrence (the lowest equal index). */
    int64_t *first = calloc(count + 1, sizeof(int64_t));
    size_t *occurrences = calloc(count + 1, sizeof(size_t));
    for (size_t k = 0; k < count; k++) {
        first[k] = (int64_t)k;
        size_t cursor = 0;
        int64_t found;
        while ((found = dfc_idtable_find(o->table, o->ids.keys[k], &cursor)) != DFC_NOT_FOUND) {
            size_t length = o->ids.offsets[k + 1] - o->ids.offsets[k];
            if (found < first[k] && idlist_equal(&o->ids, (size_t)found, o->ids.bytes + o->ids.offsets[k], length))
                first[k] = found;
        }
        occurrences[first[k]]++;
    }
    for (size_t k = 0; k < count; k++) {
        if (occurrences[first[k]] < 2) continue;
        if (error == NULL) error = error_json("duplicateItem", side, NULL);
        error_add(error, o->ids.names[first[k]], (uint32_t)k);
    }
    free(first);
    free(occurrences);
    if (error) return error;
    for (size_t k = 0; k < count; k++) {
        o->parents[k] = o->parent_names[k] ? idlist_find(&o->ids, o->table, o->parent_names[k]) : -1;
        if (o->parent_names[k] && o->parents[k] < 0) {
            if (error == NULL) error = error_json("unknownParent", side, NULL);
            error_add(error, o->parent_names[k], (uint32_t)k);
        }
    }
    if (error) return error;
    /* Cycles: follow parents from each entry; a walk that meets its own path closed a loop. */
    enum { UNSEEN, ON_PATH, DONE };
    unsigned char *state = calloc(count + 1, 1);
    unsigned char *on_cycle = calloc(count + 1, 1);
    int64_t *path = calloc(count + 1, sizeof(int64_t));
    for (size_t start = 0; start < count; start++) {
        size_t length = 0;
        int64_t node = (int64_t)start;
        while (node >= 0 && state[node] == UNSEEN) {
            state[node] = ON_PATH;
            path[length++] = node;
            node = o->parents[node];
        }
        if (node >= 0 && state[node] == ON_PATH) {
            size_t k = length;
            do on_cycle[path[--k]] = 1;
            while (path[k] != node);
        }
        for (size_t k = 0; k < length; k++) state[path[k]] = DONE;
    }
    for (size_t k = 0; k < count; k++) {
        if (!on_cycle[k]) continue;
        if (error == NULL) error = error_json("cycle", side, NULL);
        error_add(error, o->ids.names[k], (uint32_t)k);
    }
    free(state);
    free(on_cycle);
    free(path);
    return error;
}

/* {"sections": [{"id": "0", "items": visible rows}]}: depth first, children in entry order,
 * the children of a collapsed item skipped. */
static cJSON *outline_rows(const outline *o) {
    size_t count = o->ids.count;
    /* Children of each entry in entry order (counting sort); slot `count` holds the roots. */
    size_t *starts = calloc(count + 2, sizeof(size_t)), *fill = calloc(count + 2, sizeof(size_t));
    size_t *children = calloc(count + 1, sizeof(size_t)), *stack = calloc(count + 1, sizeof(size_t));
    for (size_t k = 0; k < count; k++) starts[(o->parents[k] < 0 ? count : (size_t)o->parents[k]) + 1]++;
    for (size_t slot = 0; slot <= count; slot++) starts[slot + 1] += starts[slot];
    memcpy(fill, starts, (count + 2) * sizeof(size_t));
    for (size_t k = 0; k < count; k++) children[fill[o->parents[k] < 0 ? count : (size_t)o->parents[k]]++] = k;
    cJSON *rows = cJSON_CreateArray();
    size_t depth = 0;
    for (size_t c = starts[count + 1]; c > starts[count]; c--) stack[depth++] = children[c - 1];
    while (depth > 0) {
        size_t k = stack[--depth];
        cJSON_AddItemToArray(rows, cJSON_CreateString(o->ids.names[k]));
        if (!o->expanded[k]) continue;
        for (size_t c = starts[k + 1]; c > starts[k]; c--) stack[depth++] = children[c - 1];
    }
    free(starts);
    free(fill);
    free(children);
    free(stack);
    cJSON *section = cJSON_CreateObject();
    cJSON_AddStringToObject(section, "id", "0");
    cJSON_AddItemToObject(section, "items", rows);
    cJSON *sections = cJSON_CreateArray();
    cJSON_AddItemToArray(sections, section);
    cJSON *document = cJSON_CreateObject();
    cJSON_AddItemToObject(document, "sections", sections);
    return document;
}

/* The rows document of an outline, or NULL with *error set (or, out of memory, neither). */
static cJSON *outline_document(const cJSON *json, const char *side, cJSON **error) {
    outline o;
    cJSON *rows = NULL;
    if (outline_init(&o, json)) {
        *error = outline_error(&o, side);
        if (*error == NULL) rows = outline_rows(&o);
    }
    outline_free(&o);
    return rows;
}

static int replays_checked = 0; /* results the oracle replayed */

/* The expect object for a fixture, computed with the C core. */
static cJSON *expect_via_c(const cJSON *old_json, const cJSON *new_json, char *problem, size_t problem_size) {
    document old_doc, new_doc;
    cJSON *result = NULL;
    if (!document_init(&old_doc, old_json) || !document_init(&new_doc, new_json)) {
        snprintf(problem, problem_size, "cannot read snapshots (invalid UTF-8 or out of memory)");
        document_free(&old_doc);
        document_free(&new_doc);
        return NULL;
    }
    dfc_idtable *old_items = idlist_table(&old_doc.items), *old_sections = idlist_table(&old_doc.sections);
    dfc_idtable *new_items = idlist_table(&new_doc.items), *new_sections = idlist_table(&new_doc.sections);
    size_t reload_count, reconfigure_count, section_count;
    uint32_t *reload = refresh_indices(&new_doc, "reloadItems", new_items, &new_doc.items, &reload_count);
    uint32_t *reconfigure = refresh_indices(&new_doc, "reconfigureItems", new_items, &new_doc.items, &reconfigure_count);
    uint32_t *reload_sections = refresh_indices(&new_doc, "reloadSections", new_sections, &new_doc.sections, &section_count);
    dfc_refresh refresh = {reload, reload_count, reconfigure, reconfigure_count, reload_sections, section_count};
    dfc_snapshot a = document_snapshot(&old_doc), b = document_snapshot(&new_doc);
    dfc_match bytes = {DFC_MATCH_BYTES, NULL, NULL};
    dfc_sections_result r;
    dfc_context *context = dfc_context_create(NULL);
    int status = dfc_diff_sections(context, &a, &b, &refresh, &bytes, &bytes, 0, &r);
    size_t dup_count = 0;
    const dfc_duplicate *dups = status == DFC_ERR_DUPLICATE ? dfc_context_duplicates(context, &dup_count) : NULL;
    if (status != DFC_OK && status != DFC_ERR_DUPLICATE) {
        snprintf(problem, problem_size, "dfc_diff_sections: %s", dfc_status_string(status));
    } else {
        cJSON *error = NULL;
        const char *wrong = NULL;
        const document *docs[2] = {&old_doc, &new_doc};
        dfc_idtable *item_tables[2] = {old_items, new_items}, *section_tables[2] = {old_sections, new_sections};
        const char *sides[2] = {"old", "new"};
        for (int side = 0; side < 2 && error == NULL; side++) {
            error = duplicate_error(docs[side], sides[side], side, 1, dups, dup_count);
            if (!error) error = duplicate_error(docs[side], sides[side], side, 0, dups, dup_count);
            if (!error) error = unknown_error(docs[side], sides[side], item_tables[side], section_tables[side]);
        }
        result = cJSON_CreateObject();
        if (error) {
            cJSON_AddItemToObject(result, "error", error);
        } else if (status == DFC_ERR_DUPLICATE) {
            snprintf(problem, problem_size, "the core reported duplicates nobody could name");
            cJSON_Delete(result);
            result = NULL;
        } else if ((wrong = oracle_verdict(&old_doc, &new_doc, &r)) != NULL) {
            snprintf(problem, problem_size, "the oracle rejects the batches: %s", wrong);
            cJSON_Delete(result);
            result = NULL;
        } else {
            replays_checked++;
            cJSON *batches = cJSON_CreateArray();
            if (r.has_structural) cJSON_AddItemToArray(batches, batch_json(&r.structural));
            if (r.has_refresh) cJSON_AddItemToArray(batches, batch_json(&r.refresh));
            cJSON_AddItemToObject(result, "batches", batches);
            /* Steps of the structural batch from the old shape, the refresh batch's in the new one. */
            cJSON *steps = cJSON_CreateArray();
            if ((r.has_structural && !append_steps(steps, context, &r.structural, &a, &b)) ||
                (r.has_refresh && !append_steps(steps, context, &r.refresh, &b, &b)))
                snprintf(problem, problem_size, "dfc_batch_steps refused the diff's batch");
            cJSON_AddItemToObject(result, "steps", steps);
        }
    }
    dfc_context_free(context);
    dfc_idtable_free(old_items);
    dfc_idtable_free(old_sections);
    dfc_idtable_free(new_items);
    dfc_idtable_free(new_sections);
    free(reload);
    free(reconfigure);
    free(reload_sections);
    document_free(&old_doc);
    document_free(&new_doc);
    return result;
}

/* The expect object of either form: outlines are validated (old first) and their rows diffed. */
static cJSON *expect_of_fixture(const cJSON *old_json, const cJSON *new_json, char *problem, size_t problem_size) {
    if (!cJSON_GetObjectItemCaseSensitive(old_json, "outline")) return expect_via_c(old_json, new_json, problem, problem_size);
    cJSON *error = NULL, *old_rows = outline_document(old_json, "old", &error), *new_rows = NULL, *result = NULL;
    if (old_rows) new_rows = outline_document(new_json, "new", &error);
    if (error) {
        result = cJSON_CreateObject();
        cJSON_AddItemToObject(result, "error", error);
    } else if (old_rows && new_rows) {
        result = expect_via_c(old_rows, new_rows, problem, problem_size);
    } else {
        snprintf(problem, problem_size, "cannot read outlines (invalid UTF-8 or out of memory)");
    }
    cJSON_Delete(old_rows);
    cJSON_Delete(new_rows);
    return result;
}

/* ---- driver ---------------------------------------------------------------------------------- */

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text && fread(text, 1, (size_t)size, file) != (size_t)size) { free(text); text = NULL; }
    if (text) text[size] = 0;
    fclose(file);
    return text;
}

static int passed = 0, failed = 0, keys_checked = 0;

static void check_fixture(const char *path) {
    char problem[512] = "";
    char *text = read_file(path);
    cJSON *fixture = text ? cJSON_Parse(text) : NULL;
    if (!fixture) {
        snprintf(problem, sizeof(problem), "not readable JSON");
    } else {
        cJSON *actual = expect_of_fixture(cJSON_GetObjectItemCaseSensitive(fixture, "old"),
                                          cJSON_GetObjectItemCaseSensitive(fixture, "new"), problem, sizeof(problem));
        const cJSON *expect = cJSON_GetObjectItemCaseSensitive(fixture, "expect");
        if (actual && !cJSON_Compare(expect, actual, 1)) {
            char *printed = cJSON_PrintUnformatted(actual);
            snprintf(problem, sizeof(problem), "C core gave %.400s", printed ? printed : "?");
            free(printed);
        }
        cJSON_Delete(actual);
        const cJSON *key;
        cJSON_ArrayForEach(key, cJSON_GetObjectItemCaseSensitive(fixture, "keys")) {
            char *form = nfc(key->string);
            uint64_t computed = dfc_hash_one(form, strlen(form), 0);
            char hex[32];
            snprintf(hex, sizeof(hex), "0x%016" PRIx64, computed);
            if (strcmp(hex, key->valuestring) != 0)
                snprintf(problem, sizeof(problem), "key of \"%s\" is %s, pinned %s", key->string, hex, key->valuestring);
            free(form);
            keys_checked++;
        }
    }
    if (problem[0]) {
        failed++;
        printf("FAIL %s: %s\n", path, problem);
    } else {
        passed++;
    }
    cJSON_Delete(fixture);
    free(text);
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void walk(const char *directory) {
    DIR *dir = opendir(directory);
    if (!dir) return;
    char **names = NULL;
    size_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char **grown = realloc(names, (count + 1) * sizeof(char *));
        if (!grown) break;
        names = grown;
        size_t length = strlen(directory) + strlen(entry->d_name) + 2;
        names[count] = malloc(length);
        snprintf(names[count++], length, "%s/%s", directory, entry->d_name);
    }
    closedir(dir);
    qsort(names, count, sizeof(char *), compare_names);
    for (size_t k = 0; k < count; k++) {
        size_t length = strlen(names[k]);
        DIR *sub = opendir(names[k]);
        if (sub) {
            closedir(sub);
            walk(names[k]);
        } else if (length > 5 && strcmp(names[k] + length - 5, ".json") == 0 && !strstr(names[k], ".schema.json")) {
            check_fixture(names[k]);
        }
        free(names[k]);
    }
    free(names);
}

int main(int argc, char **argv) {
    const char *directory = argc > 1 ? argv[1] : "Tests/Fixtures";
    walk(directory);
    printf("C fixtures: %d passed, %d failed (%d pinned keys; %d batches replayed by the oracle, moves minimal)\n", passed,
           failed, keys_checked, replays_checked);
    return failed == 0 && passed > 0 ? 0 : 1;
}
