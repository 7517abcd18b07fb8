/* The C API contract (docs/RELIABILITY_METHOD.md, G8 and G9) as one table: for every exported function
 * and every kind of hostile argument (NULL with a non-zero count, zero counts, a count
 * above DFC_MAX_COUNT, size arithmetic that would overflow, the k-th allocation failing
 * for every k) a row with the documented result, or the reason the case cannot arise.
 * Each row runs against fresh objects made with the test allocator (harness.h); afterwards the
 * context and the table must still work, and every block must have been released.
 * CSources/CDiffCore/README.md tables the same promises; check_symbols.sh fails when
 * an export has no row here (`cdiffcore-tests --list-contract`). */
#include "dfc.h"
#include "harness.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- canonical inputs and what they must give ---------------------------------- */

static const dfc_match by_bytes = {DFC_MATCH_BYTES, NULL, NULL};

static const uint64_t flat_old[] = {1, 2, 3, 4, 5, 6}, flat_new[] = {3, 1, 2, 7, 6, 5};
static const uint64_t flat_warm_old[] = {1, 2, 3, 4, 5}, flat_warm_new[] = {5, 4, 3, 2, 1};
static const uint64_t section_old_keys[] = {100, 200, 300}, section_new_keys[] = {300, 100, 400};
static const uint32_t section_old_starts[] = {0, 2, 4, 6}, section_new_starts[] = {0, 1, 5, 6};
/* Items 1 and 2 stay in section 100, so their refreshes survive; section 2 is new, so its reload does not. */
static const uint32_t refresh_items[] = {1, 2}, refresh_sections[] = {2};
/* 20 repeats of one identifier: the duplicate list outgrows its first 16 entries. */
enum { DUPLICATES = 20 };
static uint64_t duplicate_keys[DUPLICATES + 1];

static dfc_list list_of(const uint64_t *keys, size_t count) {
    dfc_list list = {keys, count, NULL, NULL};
    return list;
}

static dfc_snapshot snapshot_of(const uint64_t *sections, size_t section_count, const uint64_t *items,
                                const uint32_t *starts) {
    dfc_snapshot snapshot = {list_of(sections, section_count), list_of(items, starts[section_count]), starts};
    return snapshot;
}

static const dfc_refresh some_refresh = {refresh_items, 1, refresh_items + 1, 1, refresh_sections, 1};

/* Identifiers as 8-byte strings whose keys all collide: only the bytes tell them apart. */
typedef struct byte_list {
    unsigned char bytes[8 * 8];
    uint64_t offsets[9];
    uint64_t keys[8];
    dfc_list list;
} byte_list;

static void byte_list_init(byte_list *b, const uint64_t *values, size_t count) {
    for (size_t i = 0; i < count; i++) {
        memcpy(b->bytes + 8 * i, &values[i], 8);
        b->offsets[i] = 8 * i;
        b->keys[i] = 42;
    }
    b->offsets[count] = 8 * count;
    dfc_list list = {b->keys, count, b->bytes, b->offsets};
    b->list = list;
}

/* FNV-1a over result arrays: equal digests mean equal outputs. */
typedef struct digest {
    uint64_t value;
} digest;

static void digest_add(digest *d, const void *data, size_t size) {
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; i++) d->value = (d->value ^ bytes[i]) * UINT64_C(1099511628211);
}

static uint64_t digest_flat(const dfc_flat_result *r) {
    digest d = {UINT64_C(14695981039346656037)};
    digest_add(&d, r->deletes, r->delete_count * sizeof(uint32_t));
    digest_add(&d, r->inserts, r->insert_count * sizeof(uint32_t));
    digest_add(&d, r->move_from, r->move_count * sizeof(uint32_t));
    digest_add(&d, r->move_to, r->move_count * sizeof(uint32_t));
    digest_add(&d, r->old_to_new, r->old_count * sizeof(int32_t));
    digest_add(&d, r->new_to_old, r->new_count * sizeof(int32_t));
    size_t counts[] = {r->delete_count, r->insert_count, r->move_count, r->matched, r->common_prefix, r->common_suffix};
    digest_add(&d, counts, sizeof(counts));
    return d.value;
}

static void digest_batch(digest *d, const dfc_batch *b) {
    digest_add(d, b->delete_sections, b->delete_section_count * sizeof(uint32_t));
    digest_add(d, b->insert_sections, b->insert_section_count * sizeof(uint32_t));
    digest_add(d, b->move_section_from, b->move_section_count * sizeof(uint32_t));
    digest_add(d, b->move_section_to, b->move_section_count * sizeof(uint32_t));
    digest_add(d, b->reload_sections, b->reload_section_count * sizeof(uint32_t));
    digest_add(d, b->delete_items, b->delete_item_count * sizeof(dfc_index_path));
    digest_add(d, b->insert_items, b->insert_item_count * sizeof(dfc_index_path));
    digest_add(d, b->move_item_from, b->move_item_count * sizeof(dfc_index_path));
    digest_add(d, b->move_item_to, b->move_item_count * sizeof(dfc_index_path));
    digest_add(d, b->reload_items, b->reload_item_count * sizeof(dfc_index_path));
    digest_add(d, b->reconfigure_items, b->reconfigure_item_count * sizeof(dfc_index_path));
    size_t counts[] = {b->delete_section_count, b->insert_section_count, b->move_section_count,
                       b->reload_section_count, b->delete_item_count,    b->insert_item_count,
                       b->move_item_count,      b->reload_item_count,    b->reconfigure_item_count};
    digest_add(d, counts, sizeof(counts));
}

static uint64_t digest_sections(const dfc_sections_result *r) {
    digest d = {UINT64_C(14695981039346656037)};
    int flags[] = {r->has_structural, r->has_refresh};
    digest_add(&d, flags, sizeof(flags));
    digest_batch(&d, &r->structural);
    digest_batch(&d, &r->refresh);
    digest_add(&d, r->old_item_to_new, 6 * sizeof(int32_t));
    digest_add(&d, r->new_item_to_old, 6 * sizeof(int32_t));
    digest_add(&d, r->old_section_to_new, 3 * sizeof(int32_t));
    digest_add(&d, r->new_section_to_old, 3 * sizeof(int32_t));
    return d.value;
}

/* The outputs of a plain malloc context, computed once. */
static uint64_t reference_flat, reference_sections, reference_sections_refreshed;

static int run_flat(dfc_context *context, const dfc_match *match, unsigned flags, dfc_flat_result *r) {
    dfc_list old_list = list_of(flat_old, 6), new_list = list_of(flat_new, 6);
    byte_list old_bytes, new_bytes;
    if (match->kind == DFC_MATCH_BYTES) {
        byte_list_init(&old_bytes, flat_old, 6);
        byte_list_init(&new_bytes, flat_new, 6);
        old_list = old_bytes.list;
        new_list = new_bytes.list;
    }
    return dfc_diff_flat(context, &old_list, &new_list, match, flags, r);
}

static int run_sections(dfc_context *context, const dfc_refresh *refresh, const dfc_match *item_match,
                        dfc_sections_result *r) {
    dfc_snapshot old_snapshot = snapshot_of(section_old_keys, 3, flat_old, section_old_starts);
    dfc_snapshot new_snapshot = snapshot_of(section_new_keys, 3, flat_new, section_new_starts);
    byte_list old_bytes, new_bytes;
    if (item_match->kind == DFC_MATCH_BYTES) {
        byte_list_init(&old_bytes, flat_old, 6);
        byte_list_init(&new_bytes, flat_new, 6);
        old_snapshot.items = old_bytes.list;
        new_snapshot.items = new_bytes.list;
    }
    return dfc_diff_sections(context, &old_snapshot, &new_snapshot, refresh, &injective, item_match, 0, r);
}

static void compute_references(void) {
    for (size_t i = 0; i <= DUPLICATES; i++) duplicate_keys[i] = i == 0 ? 1 : 9;
    dfc_context *context = dfc_context_create(NULL);
    dfc_flat_result flat;
    dfc_sections_result sections;
    CHECK_EQ_INT(run_flat(context, &injective, 0, &flat), DFC_OK);
    reference_flat = digest_flat(&flat);
    CHECK_EQ_INT(run_sections(context, NULL, &injective, &sections), DFC_OK);
    reference_sections = digest_sections(&sections);
    CHECK_EQ_INT(run_sections(context, &some_refresh, &injective, &sections), DFC_OK);
    reference_sections_refreshed = digest_sections(&sections);
    CHECK(sections.has_refresh && sections.refresh.reload_item_count == 1 && sections.refresh.reconfigure_item_count == 1);
    CHECK(reference_sections != reference_sections_refreshed);
    dfc_context_free(context);
}

/* ---- the objects every row runs against ---------------------------------------- */

typedef struct contract_outputs {
    dfc_flat_result flat;
    dfc_sections_result sections;
    uint64_t keys[4];
    uint8_t flags[DUPLICATES + 1];
    size_t size;
    dfc_steps steps;
} contract_outputs;

/* Values the rows give entries stay below this; keys[v] is 10 * (v + 1) for the three
 * originals, 1000 + v for the entries rows add (a row that files a key elsewhere records it). */
enum { TABLE_KEYS = 64 };

typedef struct contract_env {
    test_heap heap;
    dfc_allocator allocator;
    dfc_context *context;
    dfc_idtable *table; /* 10 -> 0, 20 -> 1, 30 -> 2, in 16 slots */
    uint64_t keys[TABLE_KEYS + 1]; /* the table's key array: keys[value] for every entry a row makes */
    contract_outputs out;
} contract_env;

static contract_outputs poisoned; /* what untouched outputs look like */

static void env_open(contract_env *e) {
    memset(e, 0, sizeof(*e));
    dfc_allocator allocator = {test_allocate, test_release, &e->heap};
    e->allocator = allocator;
    e->context = dfc_context_create(&e->allocator);
    e->table = dfc_idtable_create(&e->allocator);
    CHECK(e->context != NULL && e->table != NULL);
    for (uint32_t v = 0; v <= TABLE_KEYS; v++) e->keys[v] = v < 3 ? 10 * (v + 1) : 1000 + v;
    CHECK_EQ_INT(dfc_idtable_reserve(e->table, 3, e->keys, 3), DFC_OK);
    for (uint32_t v = 0; v < 3; v++) CHECK_EQ_INT(dfc_idtable_insert(e->table, e->keys[v], v), DFC_OK);
    memset(&poisoned, 0xA5, sizeof(poisoned));
    e->out = poisoned;
}

/* The three entries every table starts with are there, with their values. */
static bool table_holds_originals(const dfc_idtable *table) {
    for (uint32_t v = 0; v < 3; v++) {
        size_t cursor = 0;
        if (dfc_idtable_find(table, 10 * (v + 1), &cursor) != (int64_t)v) return false;
    }
    return true;
}

/* The context diffs exactly like a fresh one; the table grows (from its key array), then
 * takes, finds and drops an entry. */
static bool env_usable(contract_env *e) {
    e->heap.fail_at = 0;
    dfc_flat_result flat;
    dfc_sections_result sections;
    size_t count = 0;
    bool ok = run_flat(e->context, &injective, 0, &flat) == DFC_OK && digest_flat(&flat) == reference_flat &&
              run_sections(e->context, &some_refresh, &injective, &sections) == DFC_OK &&
              digest_sections(&sections) == reference_sections_refreshed;
    dfc_list duplicated = list_of(duplicate_keys, 3);
    ok = ok && dfc_diff_flat(e->context, &duplicated, &duplicated, &injective, 0, &flat) == DFC_ERR_DUPLICATE &&
         dfc_context_duplicates(e->context, &count) != NULL && count == 2;
    size_t entries = dfc_idtable_count(e->table), cursor = 0;
    ok = ok && dfc_idtable_reserve(e->table, entries + 1, e->keys, TABLE_KEYS + 1) == DFC_OK &&
         dfc_idtable_insert(e->table, 99, TABLE_KEYS) == DFC_OK &&
         dfc_idtable_find(e->table, 99, &cursor) == TABLE_KEYS && dfc_idtable_remove(e->table, 99, TABLE_KEYS) == 1 &&
         dfc_idtable_count(e->table) == entries;
    return ok;
}

static void env_close(contract_env *e) {
    dfc_context_free(e->context);
    dfc_idtable_free(e->table);
    CHECK_EQ_INT(e->heap.live, 0);
}

/* ---- the table ------------------------------------------------------------------- */

typedef enum {
    CASE_VALID,     /* ordinary arguments: the baseline */
    CASE_NULL,      /* NULL where a count says there are elements (or any required pointer) */
    CASE_ZERO,      /* zero counts, NULL pointers allowed there, empty objects */
    CASE_TOO_LARGE, /* a count above DFC_MAX_COUNT */
    CASE_OVERFLOW,  /* values whose size or index arithmetic would overflow */
    CASE_ALLOCATION, /* the k-th allocation fails, for every k */
    CASE_KINDS
} contract_case;

static const char *const case_names[CASE_KINDS] = {"valid", "NULL", "zero", "too large", "overflow", "allocation"};

/* A call's observable result: a dfc status, or a value the wrapper reduces to a number. */
typedef enum { RESULT_STATUS, RESULT_VALUE } result_kind;

/* Wrappers return this when a call succeeded but its output is wrong. */
enum { WRONG_OUTPUT = -999 };

typedef struct contract_row {
    const char *function;
    contract_case kind;
    const char *what;                /* the case; for a row that does not apply, why not */
    long (*call)(contract_env *env); /* NULL: the case cannot arise */
    result_kind result;
    long expected;                   /* allocation rows: the result when an allocation failed */
    long succeeded;                  /* allocation rows: the result when none failed */
    void (*prepare)(contract_env *env); /* allocation rows: runs before allocations fail */
} contract_row;

#define STATUS(fn, kind, what, call, expected) {#fn, kind, what, call, RESULT_STATUS, expected, 0, NULL}
#define VALUE(fn, kind, what, call, expected) {#fn, kind, what, call, RESULT_VALUE, expected, 0, NULL}
#define FAILING(fn, what, prepare, call, failed, succeeded) \
    {#fn, CASE_ALLOCATION, what, call, RESULT_STATUS, failed, succeeded, prepare}
#define FAILING_VALUE(fn, what, call, failed, succeeded) \
    {#fn, CASE_ALLOCATION, what, call, RESULT_VALUE, failed, succeeded, NULL}
#define CANNOT(fn, kind, why) {#fn, kind, why, NULL, RESULT_VALUE, 0, 0, NULL}

/* ---- wrappers: version, status -------------------------------------------------- */

static long version_number(contract_env *e) { (void)e; return (long)dfc_version(); }
/* The default allocator hands out a writable block (small, and huge-page sized) and takes it back. */
static long default_allocator_works(contract_env *e) {
    (void)e;
    const dfc_allocator *a = dfc_default_allocator();
    if (a == NULL || a->allocate == NULL || a->release == NULL || a != dfc_default_allocator()) return 0;
    const size_t sizes[] = {16, (size_t)9 << 20};
    for (size_t k = 0; k < 2; k++) {
        unsigned char *block = a->allocate(a->user_data, sizes[k]);
        if (block == NULL) return 0;
        block[0] = 1, block[sizes[k] - 1] = 2;
        a->release(a->user_data, block);
    }
    a->release(a->user_data, NULL);
    return 1;
}
static long version_text(contract_env *e) { (void)e; return strcmp(dfc_version_string(), DFC_VERSION_STRING) == 0; }
static long status_named(contract_env *e) {
    (void)e;
    return strncmp(dfc_status_string(DFC_ERR_DUPLICATE), "DFC_ERR_DUPLICATE:", 18) == 0 &&
           strncmp(dfc_status_string(DFC_ERR_NO_ROOM), "DFC_ERR_NO_ROOM:", 16) == 0;
}
static long status_zero(contract_env *e) { (void)e; return strncmp(dfc_status_string(0), "DFC_OK:", 7) == 0; }
static long status_unknown(contract_env *e) {
    (void)e;
    return strstr(dfc_status_string(INT_MAX), "UNKNOWN") != NULL && strstr(dfc_status_string(INT_MIN), "UNKNOWN") != NULL;
}

/* ---- wrappers: context ------------------------------------------------------------ */

static long context_create_alone(contract_env *e) {
    dfc_context *context = dfc_context_create(&e->allocator);
    dfc_context_free(context);
    return context != NULL;
}
static long context_create_counted(contract_env *e) {
    dfc_context *context = dfc_context_create(&e->allocator);
    if (context == NULL) return 0;
    dfc_flat_result r;
    bool works = run_flat(context, &injective, 0, &r) == DFC_OK && digest_flat(&r) == reference_flat;
    dfc_context_free(context);
    return works ? 1 : WRONG_OUTPUT;
}
static long context_create_default(contract_env *e) {
    long before = e->heap.calls;
    dfc_allocator half = {NULL, test_release, &e->heap}; /* incomplete hooks mean malloc/free too */
    dfc_context *a = dfc_context_create(NULL), *b = dfc_context_create(&half);
    long made = (a != NULL) + (b != NULL);
    dfc_flat_result r;
    if (b != NULL && (run_flat(b, &injective, 0, &r) != DFC_OK || digest_flat(&r) != reference_flat)) made = WRONG_OUTPUT;
    dfc_context_free(a);
    dfc_context_free(b);
    return e->heap.calls == before ? made : WRONG_OUTPUT;
}
static long context_free_counted(contract_env *e) {
    long live = e->heap.live;
    dfc_context *context = dfc_context_create(&e->allocator);
    dfc_flat_result r;
    if (context == NULL || run_flat(context, &injective, 0, &r) != DFC_OK) return WRONG_OUTPUT;
    dfc_context_free(context);
    return e->heap.live == live;
}
static long context_free_null(contract_env *e) { (void)e; dfc_context_free(NULL); return 0; }
static long context_reset_valid(contract_env *e) {
    dfc_list duplicated = list_of(duplicate_keys, 3);
    size_t count = 9;
    if (dfc_diff_flat(e->context, &duplicated, &duplicated, &injective, 0, &e->out.flat) != DFC_ERR_DUPLICATE)
        return WRONG_OUTPUT;
    uint64_t allocations = dfc_context_allocation_count(e->context);
    size_t size = dfc_context_sizeof(e->context);
    dfc_context_reset(e->context);
    return dfc_context_duplicates(e->context, &count) == NULL && count == 0 &&
           dfc_context_sizeof(e->context) == size && dfc_context_allocation_count(e->context) == allocations;
}
static long context_reset_null(contract_env *e) { (void)e; dfc_context_reset(NULL); return 0; }
static long context_reset_fresh(contract_env *e) {
    dfc_context *context = dfc_context_create(&e->allocator);
    dfc_context_reset(context);
    long ok = context != NULL && dfc_context_sizeof(context) < 1024;
    dfc_context_free(context);
    return ok;
}
static long context_shrink_valid(contract_env *e) {
    dfc_context *fresh = dfc_context_create(&e->allocator);
    dfc_flat_result r;
    if (fresh == NULL || run_flat(e->context, &injective, 0, &r) != DFC_OK) return WRONG_OUTPUT;
    long grew = dfc_context_sizeof(e->context) > dfc_context_sizeof(fresh);
    dfc_context_shrink(e->context);
    long ok = grew && dfc_context_sizeof(e->context) == dfc_context_sizeof(fresh);
    dfc_context_free(fresh);
    return ok;
}
static long context_shrink_null(contract_env *e) { (void)e; dfc_context_shrink(NULL); return 0; }
static long context_shrink_fresh(contract_env *e) {
    size_t size = dfc_context_sizeof(e->context);
    dfc_context_shrink(e->context);
    dfc_context_shrink(e->context);
    return dfc_context_sizeof(e->context) == size;
}
static long reserve_valid(contract_env *e) {
    int status = dfc_context_reserve(e->context, 100, 100);
    uint64_t before = dfc_context_allocation_count(e->context);
    dfc_flat_result r;
    if (status != DFC_OK || run_flat(e->context, &injective, 0, &r) != DFC_OK || digest_flat(&r) != reference_flat)
        return status != DFC_OK ? status : WRONG_OUTPUT;
    return dfc_context_allocation_count(e->context) == before ? DFC_OK : WRONG_OUTPUT; /* a reserved diff allocates nothing */
}
static long reserve_null(contract_env *e) { (void)e; return dfc_context_reserve(NULL, 5, 5); }
static long reserve_zero(contract_env *e) { return dfc_context_reserve(e->context, 0, 0); }
static long reserve_old_too_large(contract_env *e) { return dfc_context_reserve(e->context, DFC_MAX_COUNT + 1, 1); }
static long reserve_new_too_large(contract_env *e) { return dfc_context_reserve(e->context, 1, SIZE_MAX); }
static long reserve_largest(contract_env *e) { return dfc_context_reserve(e->context, DFC_MAX_COUNT, DFC_MAX_COUNT); }
static long reserve_some(contract_env *e) { return dfc_context_reserve(e->context, 50, 60); }
static long context_sizeof_valid(contract_env *e) {
    size_t before = dfc_context_sizeof(e->context);
    dfc_flat_result r;
    run_flat(e->context, &injective, 0, &r);
    return dfc_context_sizeof(e->context) > before + 6 * sizeof(uint32_t);
}
static long context_sizeof_null(contract_env *e) { (void)e; return (long)dfc_context_sizeof(NULL); }
static long context_sizeof_fresh(contract_env *e) {
    size_t size = dfc_context_sizeof(e->context);
    return size > 0 && size < 1024;
}
static long allocation_count_valid(contract_env *e) {
    test_heap own = {0};
    dfc_allocator allocator = {test_allocate, test_release, &own};
    dfc_context *context = dfc_context_create(&allocator);
    dfc_flat_result r;
    if (context == NULL || run_flat(context, &injective, 0, &r) != DFC_OK) return WRONG_OUTPUT;
    long counted = dfc_context_allocation_count(context) == (uint64_t)own.calls && own.calls > 1;
    dfc_context_free(context);
    (void)e;
    return counted && own.live == 0;
}
static long allocation_count_null(contract_env *e) { (void)e; return (long)dfc_context_allocation_count(NULL); }
static long allocation_count_fresh(contract_env *e) { return (long)dfc_context_allocation_count(e->context); }
static long duplicates_valid(contract_env *e) {
    dfc_list duplicated = list_of(duplicate_keys, DUPLICATES + 1), empty = list_of(NULL, 0);
    size_t count = 0;
    if (dfc_diff_flat(e->context, &duplicated, &empty, &injective, 0, &e->out.flat) != DFC_ERR_DUPLICATE) return WRONG_OUTPUT;
    const dfc_duplicate *d = dfc_context_duplicates(e->context, &count);
    for (size_t k = 0; d != NULL && k < count; k++)
        if (d[k].side != DFC_SIDE_OLD || d[k].first != 1 || d[k].duplicate != k + 2) return WRONG_OUTPUT;
    return (long)count;
}
static long duplicates_null_context(contract_env *e) {
    (void)e;
    size_t count = 7;
    return dfc_context_duplicates(NULL, &count) == NULL && count == 0 && dfc_context_duplicates(NULL, NULL) == NULL;
}
static long duplicates_null_count(contract_env *e) {
    dfc_list duplicated = list_of(duplicate_keys, 3);
    dfc_flat_result r;
    if (dfc_diff_flat(e->context, &duplicated, &duplicated, &injective, 0, &r) != DFC_ERR_DUPLICATE) return WRONG_OUTPUT;
    return dfc_context_duplicates(e->context, NULL) != NULL;
}
static long duplicates_fresh(contract_env *e) {
    size_t count = 7;
    return dfc_context_duplicates(e->context, &count) == NULL && count == 0;
}

/* ---- wrappers: keys --------------------------------------------------------------- */

#define EMPTY_KEY UINT64_C(0x2D06800538D394C2)

static long hash_one_valid(contract_env *e) { (void)e; return dfc_hash_one("abc", 3, 0) == UINT64_C(0x78af5f94892f3950); }
static long hash_one_null(contract_env *e) { (void)e; return dfc_hash_one(NULL, 5, 0) == EMPTY_KEY; }
static long hash_one_zero(contract_env *e) { (void)e; return dfc_hash_one("abc", 0, 0) == EMPTY_KEY; }
static long hash_16_valid(contract_env *e) {
    (void)e;
    const char *bytes = "0123456789abcdef";
    return dfc_hash_16(bytes, 0) == dfc_hash_one(bytes, 16, 0) && dfc_hash_16(bytes, 7) == dfc_hash_one(bytes, 16, 7);
}
static long hash_16_null(contract_env *e) { (void)e; return dfc_hash_16(NULL, 0) == EMPTY_KEY; }
/* dfc_hash_if_nfc: 1 and the key for strings it knows are NFC; 0 (key untouched) otherwise. */
static long hash_if_nfc_ascii(contract_env *e) {
    (void)e;
    uint64_t key = 0;
    return dfc_hash_if_nfc("abc", 3, 0, &key) == 1 && key == dfc_hash_one("abc", 3, 0);
}
static long hash_if_nfc_combining(contract_env *e) {
    (void)e;
    uint64_t key = 7; /* "e" + U+0301 COMBINING ACUTE ACCENT: not NFC, the caller normalizes */
    return dfc_hash_if_nfc("e\xCC\x81", 3, 0, &key) == 0 && key == 7;
}
static long hash_if_nfc_invalid_utf8(contract_env *e) {
    (void)e;
    uint64_t key = 7; /* an overlong "/" and a lone continuation byte */
    return dfc_hash_if_nfc("\xC0\xAF", 2, 0, &key) == 0 && dfc_hash_if_nfc("a\x80", 2, 0, &key) == 0 && key == 7;
}
static long hash_if_nfc_null_bytes(contract_env *e) { (void)e; uint64_t key = 7; return dfc_hash_if_nfc(NULL, 5, 0, &key) == 0 && key == 7; }
static long hash_if_nfc_null_key(contract_env *e) { (void)e; return dfc_hash_if_nfc("abc", 3, 0, NULL) == 0; }
static long hash_if_nfc_zero(contract_env *e) { (void)e; uint64_t key = 0; return dfc_hash_if_nfc(NULL, 0, 0, &key) == 1 && key == EMPTY_KEY; }
/* dfc_hash_if_nfc_many: dfc_hash_if_nfc's answer for each string, the others' indices listed. */
static long hash_if_nfc_many_valid(contract_env *e) {
    const void *starts[] = {"abc", "e\xCC\x81", NULL, "de"};
    const size_t lengths[] = {3, 3, 0, 2};
    size_t unhashed[4] = {9, 9, 9, 9}, misses = 9;
    e->out.keys[1] = 7;
    int status = dfc_hash_if_nfc_many(starts, lengths, 4, 0, e->out.keys, unhashed, &misses);
    if (status != DFC_OK) return status;
    bool right = misses == 1 && unhashed[0] == 1 && e->out.keys[1] == 7 && e->out.keys[0] == dfc_hash_one("abc", 3, 0) &&
                 e->out.keys[2] == EMPTY_KEY && e->out.keys[3] == dfc_hash_one("de", 2, 0);
    return right ? DFC_OK : WRONG_OUTPUT;
}
static long hash_if_nfc_many_null_start(contract_env *e) {
    const void *starts[] = {NULL};
    const size_t lengths[] = {5};
    size_t unhashed[1] = {9}, misses = 9;
    int status = dfc_hash_if_nfc_many(starts, lengths, 1, 0, e->out.keys, unhashed, &misses);
    if (status != DFC_OK) return status;
    return misses == 1 && unhashed[0] == 0 ? DFC_OK : WRONG_OUTPUT;
}
static long hash_if_nfc_many_null_keys(contract_env *e) {
    (void)e;
    const void *starts[] = {"a"};
    const size_t lengths[] = {1};
    size_t unhashed[1], misses;
    return dfc_hash_if_nfc_many(starts, lengths, 1, 0, NULL, unhashed, &misses);
}
static long hash_if_nfc_many_null_count(contract_env *e) {
    (void)e;
    const void *starts[] = {"a"};
    const size_t lengths[] = {1};
    uint64_t keys[1];
    size_t unhashed[1];
    return dfc_hash_if_nfc_many(starts, lengths, 1, 0, keys, unhashed, NULL);
}
static long hash_if_nfc_many_zero(contract_env *e) {
    (void)e;
    size_t misses = 9;
    int status = dfc_hash_if_nfc_many(NULL, NULL, 0, 0, NULL, NULL, &misses);
    return status == DFC_OK && misses != 0 ? WRONG_OUTPUT : status;
}
static long hash_if_nfc_many_too_large(contract_env *e) {
    const void *starts[] = {"a"};
    const size_t lengths[] = {1};
    size_t unhashed[1], misses;
    return dfc_hash_if_nfc_many(starts, lengths, DFC_MAX_COUNT + 1, 0, e->out.keys, unhashed, &misses);
}
static long hash_bytes_valid(contract_env *e) {
    const uint64_t offsets[] = {0, 3, 3, 5};
    int status = dfc_hash_bytes("abcde", offsets, 3, 0, e->out.keys);
    if (status != DFC_OK) return status;
    bool right = e->out.keys[0] == dfc_hash_one("abc", 3, 0) && e->out.keys[1] == EMPTY_KEY &&
                 e->out.keys[2] == dfc_hash_one("de", 2, 0);
    return right ? DFC_OK : WRONG_OUTPUT;
}
static const uint64_t two_offsets[] = {0, 1, 2};
static long hash_bytes_null_offsets(contract_env *e) { return dfc_hash_bytes("ab", NULL, 2, 0, e->out.keys); }
static long hash_bytes_null_keys(contract_env *e) { (void)e; return dfc_hash_bytes("ab", two_offsets, 2, 0, NULL); }
static long hash_bytes_null_bytes(contract_env *e) { return dfc_hash_bytes(NULL, two_offsets, 2, 0, e->out.keys); }
static long hash_bytes_zero(contract_env *e) { (void)e; return dfc_hash_bytes(NULL, NULL, 0, 0, NULL); }
static long hash_bytes_empty_strings(contract_env *e) {
    const uint64_t offsets[] = {4, 4, 4};
    int status = dfc_hash_bytes(NULL, offsets, 2, 0, e->out.keys);
    if (status != DFC_OK) return status;
    return e->out.keys[0] == EMPTY_KEY && e->out.keys[1] == EMPTY_KEY ? DFC_OK : WRONG_OUTPUT;
}
static long hash_bytes_too_large(contract_env *e) { return dfc_hash_bytes("ab", two_offsets, DFC_MAX_COUNT + 1, 0, e->out.keys); }
/* Three 16-byte identifiers at a stride of 24 (a struct's field), and four 5-byte ones at 8. */
static long hash_strided_valid(contract_env *e) {
    unsigned char values[72];
    for (size_t i = 0; i < sizeof values; i++) values[i] = (unsigned char)(i * 13 + 1);
    int status = dfc_hash_strided(values, 16, 24, 3, 0, e->out.keys);
    if (status != DFC_OK) return status;
    for (size_t i = 0; i < 3; i++)
        if (e->out.keys[i] != dfc_hash_one(values + i * 24, 16, 0)) return WRONG_OUTPUT;
    if ((status = dfc_hash_strided(values, 5, 8, 4, 0, e->out.keys)) != DFC_OK) return status;
    for (size_t i = 0; i < 4; i++)
        if (e->out.keys[i] != dfc_hash_one(values + i * 8, 5, 0)) return WRONG_OUTPUT;
    return DFC_OK;
}
static long hash_strided_null_bytes(contract_env *e) { return dfc_hash_strided(NULL, 16, 16, 2, 0, e->out.keys); }
static long hash_strided_null_keys(contract_env *e) { (void)e; return dfc_hash_strided("abcd", 2, 2, 2, 0, NULL); }
static long hash_strided_zero(contract_env *e) { (void)e; return dfc_hash_strided(NULL, 16, 16, 0, 0, NULL); }
static long hash_strided_too_large(contract_env *e) { return dfc_hash_strided("ab", 1, 1, DFC_MAX_COUNT + 1, 0, e->out.keys); }
static long hash_strided_span_overflows(contract_env *e) { return dfc_hash_strided("ab", 1, SIZE_MAX / 2, 3, 0, e->out.keys); }
/* (count - 1) * stride + size wraps around to 1 byte: refused by the overflow check itself. */
static long hash_strided_span_wraps(contract_env *e) { return dfc_hash_strided("ab", 1, SIZE_MAX / 2 + 1, 3, 0, e->out.keys); }
/* One identifier reads `size` bytes whatever the stride: a stride no element uses is no overflow. */
static long hash_strided_one_at_any_stride(contract_env *e) {
    const char one[] = "q";
    int status = dfc_hash_strided(one, 1, SIZE_MAX, 1, 0, e->out.keys);
    if (status != DFC_OK) return status;
    return e->out.keys[0] == dfc_hash_one(one, 1, 0) ? DFC_OK : WRONG_OUTPUT;
}
static long hash_strided_size_above_stride(contract_env *e) { return dfc_hash_strided("abcd", 3, 2, 2, 0, e->out.keys); }
static long hash_bytes_offsets_past_memory(contract_env *e) {
    const uint64_t offsets[] = {0, 2, UINT64_MAX};
    return dfc_hash_bytes("ab", offsets, 2, 0, e->out.keys);
}
static long hash_bytes_offsets_past_ptrdiff(contract_env *e) {
    const uint64_t offsets[] = {0, (uint64_t)PTRDIFF_MAX + 1};
    return dfc_hash_bytes("ab", offsets, 1, 0, e->out.keys);
}

/* ---- wrappers: identifier table ------------------------------------------------- */

static long idtable_create_alone(contract_env *e) {
    dfc_idtable *table = dfc_idtable_create(&e->allocator);
    dfc_idtable_free(table);
    return table != NULL;
}
static long idtable_create_counted(contract_env *e) {
    dfc_idtable *table = dfc_idtable_create(&e->allocator);
    if (table == NULL) return 0;
    long works = dfc_idtable_reserve(table, 2, NULL, 0) == DFC_OK && dfc_idtable_insert(table, 5, 1) == DFC_OK &&
                 dfc_idtable_count(table) == 1;
    dfc_idtable_free(table);
    return works ? 1 : WRONG_OUTPUT;
}
static long idtable_create_default(contract_env *e) {
    long before = e->heap.calls;
    dfc_idtable *table = dfc_idtable_create(NULL);
    long made = table != NULL && dfc_idtable_reserve(table, 2, NULL, 0) == DFC_OK &&
                dfc_idtable_insert(table, 5, 1) == DFC_OK;
    dfc_idtable_free(table);
    return e->heap.calls == before ? made : WRONG_OUTPUT;
}
static long idtable_copy_valid(contract_env *e) {
    dfc_idtable *copy = dfc_idtable_copy(e->table, &e->allocator);
    if (copy == NULL) return 0;
    long same = table_holds_originals(copy) && dfc_idtable_count(copy) == 3 && dfc_idtable_remove(copy, 10, 0) == 1 &&
                table_holds_originals(e->table) && dfc_idtable_count(e->table) == 3;
    dfc_idtable_free(copy);
    return same ? 1 : WRONG_OUTPUT;
}
static long idtable_copy_null(contract_env *e) { return dfc_idtable_copy(NULL, &e->allocator) != NULL; }
static long idtable_copy_empty(contract_env *e) {
    dfc_idtable *empty = dfc_idtable_create(&e->allocator);
    dfc_idtable *copy = dfc_idtable_copy(empty, &e->allocator);
    /* no slots copied: full until reserved */
    long ok = copy != NULL && dfc_idtable_count(copy) == 0 && dfc_idtable_insert(copy, 1, 1) == DFC_ERR_NO_ROOM &&
              dfc_idtable_reserve(copy, 2, NULL, 0) == DFC_OK && dfc_idtable_insert(copy, 1, 1) == DFC_OK;
    dfc_idtable_free(copy);
    dfc_idtable_free(empty);
    return ok;
}
static long idtable_free_valid(contract_env *e) {
    long live = e->heap.live;
    dfc_idtable *table = dfc_idtable_create(&e->allocator);
    dfc_idtable_reserve(table, 40, NULL, 0);
    for (uint32_t v = 0; v < 40; v++) dfc_idtable_insert(table, v, v);
    dfc_idtable_free(table);
    return e->heap.live == live;
}
static long idtable_free_null(contract_env *e) { (void)e; dfc_idtable_free(NULL); return 0; }
static long idtable_clear_valid(contract_env *e) {
    size_t size = dfc_idtable_sizeof(e->table), cursor = 0;
    dfc_idtable_clear(e->table);
    return dfc_idtable_count(e->table) == 0 && dfc_idtable_find(e->table, 10, &cursor) == DFC_NOT_FOUND &&
           dfc_idtable_sizeof(e->table) == size;
}
static long idtable_clear_null(contract_env *e) { (void)e; dfc_idtable_clear(NULL); return 0; }
static long idtable_clear_empty(contract_env *e) {
    dfc_idtable *empty = dfc_idtable_create(&e->allocator);
    dfc_idtable_clear(empty);
    long ok = empty != NULL && dfc_idtable_count(empty) == 0;
    dfc_idtable_free(empty);
    return ok;
}
/* key_count above the entries: rebuilt by walking the old slots. */
static long idtable_reserve_valid(contract_env *e) {
    int status = dfc_idtable_reserve(e->table, TABLE_KEYS, e->keys, TABLE_KEYS);
    if (status != DFC_OK) return status;
    long before = e->heap.calls;
    for (uint32_t v = 3; v < TABLE_KEYS; v++)
        if (dfc_idtable_insert(e->table, e->keys[v], v) != DFC_OK) return WRONG_OUTPUT;
    /* TABLE_KEYS entries fit without growing, and the entries already there survived the rehash */
    return e->heap.calls == before && table_holds_originals(e->table) && dfc_idtable_count(e->table) == TABLE_KEYS
               ? DFC_OK : WRONG_OUTPUT;
}
/* The in-order rebuild: as many keys as entries, values 0 ..< 3. */
static long idtable_reserve_in_order(contract_env *e) {
    size_t size = dfc_idtable_sizeof(e->table);
    int status = dfc_idtable_reserve(e->table, TABLE_KEYS, e->keys, 3);
    if (status != DFC_OK) return status;
    return dfc_idtable_sizeof(e->table) > size && table_holds_originals(e->table) ? DFC_OK : WRONG_OUTPUT;
}
static long idtable_reserve_null(contract_env *e) { return dfc_idtable_reserve(NULL, 10, e->keys, 3); }
/* A table with entries cannot grow without their keys; the table is left as it was. */
static long idtable_reserve_null_keys(contract_env *e) {
    size_t size = dfc_idtable_sizeof(e->table);
    int status = dfc_idtable_reserve(e->table, 100, NULL, 3);
    return dfc_idtable_sizeof(e->table) == size ? status : WRONG_OUTPUT;
}
static long idtable_reserve_zero(contract_env *e) { return dfc_idtable_reserve(e->table, 0, e->keys, 3); }
/* An empty table needs no keys: NULL and 0 keys, room for 100. */
static long idtable_reserve_empty_no_keys(contract_env *e) {
    dfc_idtable *empty = dfc_idtable_create(&e->allocator);
    int status = dfc_idtable_reserve(empty, 100, NULL, 0);
    if (status == DFC_OK && dfc_idtable_insert(empty, 7, 99) != DFC_OK) status = WRONG_OUTPUT;
    dfc_idtable_free(empty);
    return status;
}
static long idtable_reserve_too_large(contract_env *e) { return dfc_idtable_reserve(e->table, DFC_MAX_COUNT + 1, e->keys, 3); }
static long idtable_reserve_keys_too_large(contract_env *e) {
    return dfc_idtable_reserve(e->table, 10, e->keys, DFC_MAX_COUNT + 1);
}
static long idtable_reserve_largest(contract_env *e) { return dfc_idtable_reserve(e->table, DFC_MAX_COUNT, e->keys, 3); }
/* An entry's value (2) not below key_count (2): the slot walk stops, the table unchanged. */
static long idtable_reserve_value_past_keys(contract_env *e) {
    size_t size = dfc_idtable_sizeof(e->table);
    int status = dfc_idtable_reserve(e->table, 100, e->keys, 2);
    return dfc_idtable_sizeof(e->table) == size && dfc_idtable_count(e->table) == 3 ? status : WRONG_OUTPUT;
}
static long idtable_reserve_some(contract_env *e) {
    size_t size = dfc_idtable_sizeof(e->table);
    int status = dfc_idtable_reserve(e->table, 100, e->keys, 3);
    return status != DFC_OK && dfc_idtable_sizeof(e->table) != size ? WRONG_OUTPUT : status;
}
static long idtable_insert_valid(contract_env *e) {
    int status = dfc_idtable_insert(e->table, e->keys[3], 3);
    size_t cursor = 0;
    if (status == DFC_OK && dfc_idtable_find(e->table, e->keys[3], &cursor) != 3) return WRONG_OUTPUT;
    return status;
}
static long idtable_insert_null(contract_env *e) { (void)e; return dfc_idtable_insert(NULL, 1, 1); }
static long idtable_insert_empty(contract_env *e) {
    (void)e;
    dfc_idtable *empty = dfc_idtable_create(NULL); /* not counted: the insert must allocate nothing */
    int status = dfc_idtable_insert(empty, 7, 0);
    size_t cursor = 0;
    if (status == DFC_OK && dfc_idtable_find(empty, 7, &cursor) != 0) status = WRONG_OUTPUT;
    dfc_idtable_free(empty);
    return status;
}
static long idtable_insert_max_value(contract_env *e) { return dfc_idtable_insert(e->table, 1, UINT32_MAX); }
/* 16 slots keep 4 value bits, 15 (all ones) marking a removed slot: value 14 does not fit. */
static long idtable_insert_value_past_slots(contract_env *e) { return dfc_idtable_insert(e->table, 1014, 14); }
/* Nine inserts fill the 16 slots to their limit of 12; the thirteenth finds no room. */
static long idtable_insert_full(contract_env *e) {
    for (uint32_t v = 3; v < 12; v++)
        if (dfc_idtable_insert(e->table, e->keys[v], v) != DFC_OK) return WRONG_OUTPUT;
    size_t size = dfc_idtable_sizeof(e->table);
    int status = dfc_idtable_insert(e->table, e->keys[12], 12);
    return dfc_idtable_count(e->table) == 12 && dfc_idtable_sizeof(e->table) == size ? status : WRONG_OUTPUT;
}
static const uint64_t batch_keys[DUPLICATES] = {20, 41, 42, 43, 41, 44, 45, 46, 47, 48,
                                                49, 50, 51, 52, 53, 54, 55, 56, 57, 58};
/* Files the keys a batch inserted (values from 3 on) in the key array. */
static void record_batch(contract_env *e) {
    uint32_t value = 3;
    for (size_t i = 0; i < DUPLICATES; i++)
        if (e->out.flags[i] == 0) e->keys[value++] = batch_keys[i];
}
static long insert_batch_valid(contract_env *e) {
    int status = dfc_idtable_reserve(e->table, 3 + DUPLICATES, e->keys, 3);
    if (status != DFC_OK) return status;
    status = dfc_idtable_insert_batch(e->table, batch_keys, DUPLICATES, 3, e->out.flags, &e->out.size);
    if (status != DFC_OK) return status;
    record_batch(e);
    size_t cursor = 0;
    bool right = e->out.size == DUPLICATES - 2 && e->out.flags[0] == 1 && e->out.flags[4] == 1 && e->out.flags[1] == 0 &&
                 dfc_idtable_find(e->table, 42, &cursor) == 4 && dfc_idtable_count(e->table) == 3 + DUPLICATES - 2;
    return right ? DFC_OK : WRONG_OUTPUT;
}
static long insert_batch_null_table(contract_env *e) { return dfc_idtable_insert_batch(NULL, batch_keys, 3, 0, e->out.flags, &e->out.size); }
static long insert_batch_null_keys(contract_env *e) { return dfc_idtable_insert_batch(e->table, NULL, 3, 0, e->out.flags, &e->out.size); }
static long insert_batch_null_conflicts(contract_env *e) { return dfc_idtable_insert_batch(e->table, batch_keys, 3, 0, NULL, &e->out.size); }
static long insert_batch_zero(contract_env *e) {
    size_t inserted = 9;
    int status = dfc_idtable_insert_batch(e->table, NULL, 0, 0, NULL, &inserted);
    return status == DFC_OK && inserted != 0 ? WRONG_OUTPUT : status;
}
static long insert_batch_too_large(contract_env *e) {
    return dfc_idtable_insert_batch(e->table, batch_keys, DFC_MAX_COUNT + 1, 0, e->out.flags, &e->out.size);
}
static long insert_batch_values_overflow(contract_env *e) {
    return dfc_idtable_insert_batch(e->table, batch_keys, 5, (uint32_t)DFC_MAX_COUNT - 3, e->out.flags, &e->out.size);
}
/* Twenty keys into 16 slots holding 3 entries: no room, nothing inserted, conflicts untouched. */
static long insert_batch_no_room(contract_env *e) {
    int status = dfc_idtable_insert_batch(e->table, batch_keys, DUPLICATES, 3, e->out.flags, &e->out.size);
    return status != DFC_OK && dfc_idtable_count(e->table) != 3 ? WRONG_OUTPUT : status;
}
/* The batch again, each shared fingerprint confirmed against the keys by value: the same
 * two conflicts (20 is an entry's key, 41 repeats). */
static long insert_batch_confirmed_valid(contract_env *e) {
    int status = dfc_idtable_reserve(e->table, 3 + DUPLICATES, e->keys, 3);
    if (status != DFC_OK) return status;
    status = dfc_idtable_insert_batch_confirmed(e->table, batch_keys, DUPLICATES, 3, e->keys, 3, e->out.flags, &e->out.size);
    if (status != DFC_OK) return status;
    record_batch(e);
    size_t cursor = 0;
    bool right = e->out.size == DUPLICATES - 2 && e->out.flags[0] == 1 && e->out.flags[4] == 1 && e->out.flags[1] == 0 &&
                 dfc_idtable_find(e->table, 42, &cursor) == 4 &&
                 dfc_idtable_count(e->table) == 3 + DUPLICATES - 2;
    return right ? DFC_OK : WRONG_OUTPUT;
}
static long insert_batch_confirmed_null_table(contract_env *e) {
    return dfc_idtable_insert_batch_confirmed(NULL, batch_keys, 3, 0, NULL, 0, e->out.flags, &e->out.size);
}
static long insert_batch_confirmed_null_keys(contract_env *e) {
    return dfc_idtable_insert_batch_confirmed(e->table, NULL, 3, 0, NULL, 0, e->out.flags, &e->out.size);
}
static long insert_batch_confirmed_null_conflicts(contract_env *e) {
    return dfc_idtable_insert_batch_confirmed(e->table, batch_keys, 3, 0, NULL, 0, NULL, &e->out.size);
}
static long insert_batch_confirmed_null_value_keys(contract_env *e) {
    int status = dfc_idtable_insert_batch_confirmed(e->table, batch_keys, 3, 3, NULL, 3, e->out.flags, &e->out.size);
    return status != DFC_OK && dfc_idtable_count(e->table) != 3 ? WRONG_OUTPUT : status;
}
static long insert_batch_confirmed_zero(contract_env *e) {
    size_t inserted = 9;
    int status = dfc_idtable_insert_batch_confirmed(e->table, NULL, 0, 0, NULL, 0, NULL, &inserted);
    return status == DFC_OK && inserted != 0 ? WRONG_OUTPUT : status;
}
/* An empty batch is checked as any other: its arguments decide, not its size. */
static long insert_batch_confirmed_zero_known_past_first(contract_env *e) {
    return dfc_idtable_insert_batch_confirmed(e->table, NULL, 0, 2, e->keys, 3, NULL, &e->out.size);
}
/* A NULL argument is named before an inconsistent one, as at every entry point. */
static long insert_batch_confirmed_null_keys_and_known_past_first(contract_env *e) {
    return dfc_idtable_insert_batch_confirmed(e->table, NULL, 2, 2, e->keys, 3, e->out.flags, &e->out.size);
}
static long insert_batch_confirmed_zero_null_value_keys(contract_env *e) {
    return dfc_idtable_insert_batch_confirmed(e->table, NULL, 0, 3, NULL, 3, NULL, &e->out.size);
}
static long insert_batch_confirmed_too_large(contract_env *e) {
    return dfc_idtable_insert_batch_confirmed(e->table, batch_keys, DFC_MAX_COUNT + 1, 0, NULL, 0, e->out.flags,
                                              &e->out.size);
}
static long insert_batch_confirmed_values_overflow(contract_env *e) {
    return dfc_idtable_insert_batch_confirmed(e->table, batch_keys, 5, (uint32_t)DFC_MAX_COUNT - 3, NULL, 0,
                                              e->out.flags, &e->out.size);
}
/* Keys by value past first_value would stand for the batch's own values: refused, table unchanged. */
static long insert_batch_confirmed_known_past_first(contract_env *e) {
    int status = dfc_idtable_insert_batch_confirmed(e->table, batch_keys, 2, 3, e->keys, 4, e->out.flags, &e->out.size);
    return status != DFC_OK && dfc_idtable_count(e->table) != 3 ? WRONG_OUTPUT : status;
}
static long insert_batch_confirmed_no_room(contract_env *e) {
    int status = dfc_idtable_insert_batch_confirmed(e->table, batch_keys, DUPLICATES, 3, e->keys, 3, e->out.flags,
                                                    &e->out.size);
    return status != DFC_OK && dfc_idtable_count(e->table) != 3 ? WRONG_OUTPUT : status;
}
static long idtable_find_valid(contract_env *e) {
    size_t cursor = 0;
    int64_t first = dfc_idtable_find(e->table, 20, &cursor);
    return first == 1 && dfc_idtable_find(e->table, 20, &cursor) == DFC_NOT_FOUND ? first : WRONG_OUTPUT;
}
static long idtable_find_null_table(contract_env *e) { (void)e; size_t cursor = 0; return (long)dfc_idtable_find(NULL, 20, &cursor); }
static long idtable_find_null_cursor(contract_env *e) { return (long)dfc_idtable_find(e->table, 20, NULL); }
static long idtable_find_empty(contract_env *e) {
    dfc_idtable *empty = dfc_idtable_create(&e->allocator);
    size_t cursor = 0;
    long found = (long)dfc_idtable_find(empty, 20, &cursor);
    dfc_idtable_free(empty);
    return found;
}
static long idtable_find_cursor_past_end(contract_env *e) {
    size_t cursor = SIZE_MAX;
    return (long)dfc_idtable_find(e->table, 20, &cursor);
}
static long idtable_remove_valid(contract_env *e) {
    size_t cursor = 0;
    int removed = dfc_idtable_remove(e->table, 20, 1);
    return removed == 1 && dfc_idtable_find(e->table, 20, &cursor) == DFC_NOT_FOUND && dfc_idtable_count(e->table) == 2
               ? removed : WRONG_OUTPUT;
}
static long idtable_remove_null(contract_env *e) { (void)e; return dfc_idtable_remove(NULL, 20, 1); }
static long idtable_remove_empty(contract_env *e) {
    dfc_idtable *empty = dfc_idtable_create(&e->allocator);
    long removed = dfc_idtable_remove(empty, 20, 1);
    dfc_idtable_free(empty);
    return removed;
}
static long idtable_remove_max_value(contract_env *e) { return dfc_idtable_remove(e->table, 10, UINT32_MAX); }
static long idtable_update_valid(contract_env *e) {
    size_t cursor = 0;
    int updated = dfc_idtable_update(e->table, 20, 1, 8);
    e->keys[8] = 20;
    return updated == 1 && dfc_idtable_find(e->table, 20, &cursor) == 8 ? updated : WRONG_OUTPUT;
}
static long idtable_update_null(contract_env *e) { (void)e; return dfc_idtable_update(NULL, 20, 1, 8); }
static long idtable_update_empty(contract_env *e) {
    dfc_idtable *empty = dfc_idtable_create(&e->allocator);
    long updated = dfc_idtable_update(empty, 20, 1, 8);
    dfc_idtable_free(empty);
    return updated;
}
static long idtable_update_max_value(contract_env *e) {
    return dfc_idtable_update(e->table, 20, 1, UINT32_MAX) + dfc_idtable_update(e->table, 20, UINT32_MAX, 5);
}
/* A prefetch is a hint: the table reads the same after it, for keys present and absent. */
static long idtable_prefetch_valid(contract_env *e) {
    dfc_idtable_prefetch(e->table, 20);
    dfc_idtable_prefetch(e->table, 12345);
    return table_holds_originals(e->table) && dfc_idtable_count(e->table) == 3 ? 1 : WRONG_OUTPUT;
}
static long idtable_prefetch_null(contract_env *e) {
    (void)e;
    dfc_idtable_prefetch(NULL, 20);
    return 0;
}
static long idtable_prefetch_empty(contract_env *e) {
    dfc_idtable *empty = dfc_idtable_create(&e->allocator);
    dfc_idtable_prefetch(empty, 20);
    long count = (long)dfc_idtable_count(empty);
    dfc_idtable_free(empty);
    return count;
}
static long idtable_count_valid(contract_env *e) { return (long)dfc_idtable_count(e->table); }
static long idtable_count_null(contract_env *e) { (void)e; return (long)dfc_idtable_count(NULL); }
/* What `read` says of a table never reserved. */
static long read_empty_table(contract_env *e, size_t (*read)(const dfc_idtable *)) {
    dfc_idtable *empty = dfc_idtable_create(&e->allocator);
    long value = (long)read(empty);
    dfc_idtable_free(empty);
    return value;
}
static long idtable_count_empty(contract_env *e) { return read_empty_table(e, dfc_idtable_count); }
static long idtable_room_valid(contract_env *e) {
    /* 16 slots, limit 12, three entries: 9; reserving up to count + room neither allocates nor
     * changes the room, and an insert takes one. */
    size_t room = dfc_idtable_room(e->table);
    long calls = e->heap.calls;
    if (room != 9 || dfc_idtable_reserve(e->table, 3 + room, e->keys, 3) != DFC_OK || e->heap.calls != calls ||
        dfc_idtable_room(e->table) != room)
        return WRONG_OUTPUT;
    if (dfc_idtable_insert(e->table, 1004, 4) != DFC_OK || dfc_idtable_room(e->table) != room - 1) return WRONG_OUTPUT;
    return (long)room;
}
static long idtable_room_null(contract_env *e) { (void)e; return (long)dfc_idtable_room(NULL); }
static long idtable_room_empty(contract_env *e) { return read_empty_table(e, dfc_idtable_room); }
static long idtable_sizeof_valid(contract_env *e) {
    size_t before = dfc_idtable_sizeof(e->table);
    dfc_idtable_reserve(e->table, 40, e->keys, 3);
    for (uint32_t v = 3; v < 40; v++) dfc_idtable_insert(e->table, e->keys[v], v);
    return before > 0 && dfc_idtable_sizeof(e->table) > before;
}
static long idtable_sizeof_null(contract_env *e) { (void)e; return (long)dfc_idtable_sizeof(NULL); }
static long idtable_sizeof_empty(contract_env *e) {
    dfc_idtable *empty = dfc_idtable_create(&e->allocator);
    long size = (long)dfc_idtable_sizeof(empty);
    dfc_idtable_free(empty);
    return size > 0 && size < 1024;
}

/* ---- wrappers: LIS ------------------------------------------------------------------ */

static long lis_valid(contract_env *e) {
    const uint32_t values[] = {3, 1, 2};
    size_t length = 0;
    int status = dfc_lis(e->context, values, 3, e->out.flags, &length);
    if (status != DFC_OK) return status;
    return length == 2 && e->out.flags[0] == 0 && e->out.flags[1] == 1 && e->out.flags[2] == 1 ? DFC_OK : WRONG_OUTPUT;
}
static const uint32_t one_value[] = {1};
static long lis_null_context(contract_env *e) { return dfc_lis(NULL, one_value, 1, e->out.flags, &e->out.size); }
static long lis_null_values(contract_env *e) { return dfc_lis(e->context, NULL, 1, e->out.flags, &e->out.size); }
static long lis_null_keep(contract_env *e) { return dfc_lis(e->context, one_value, 1, NULL, &e->out.size); }
static long lis_zero(contract_env *e) {
    size_t length = 9;
    int status = dfc_lis(e->context, NULL, 0, NULL, &length);
    return status == DFC_OK && length != 0 ? WRONG_OUTPUT : status;
}
static long lis_too_large(contract_env *e) { return dfc_lis(e->context, one_value, DFC_MAX_COUNT + 1, e->out.flags, &e->out.size); }
static long lis_extreme_values(contract_env *e) {
    const uint32_t values[] = {UINT32_MAX, 0, UINT32_MAX - 1, 1};
    size_t length = 0;
    int status = dfc_lis(e->context, values, 4, e->out.flags, &length);
    if (status != DFC_OK) return status;
    const uint8_t expected[] = {0, 1, 0, 1}; /* ALGORITHM.md's tie-break, worked by hand */
    return length == 2 && memcmp(e->out.flags, expected, 4) == 0 ? DFC_OK : WRONG_OUTPUT;
}
static long lis_shuffled(contract_env *e) {
    uint32_t values[DUPLICATES];
    size_t best[DUPLICATES], longest = 0, length = 0;
    for (uint32_t j = 0; j < DUPLICATES; j++) values[j] = (j * 7) % DUPLICATES;
    for (size_t j = 0; j < DUPLICATES; j++) { /* the quadratic recurrence */
        best[j] = 1;
        for (size_t i = 0; i < j; i++)
            if (values[i] < values[j] && best[i] + 1 > best[j]) best[j] = best[i] + 1;
        if (best[j] > longest) longest = best[j];
    }
    int status = dfc_lis(e->context, values, DUPLICATES, e->out.flags, &length);
    return status == DFC_OK && length != longest ? WRONG_OUTPUT : status;
}

/* ---- wrappers: flat diff ------------------------------------------------------------ */

static long checked_flat(contract_env *e, int status) {
    return status == DFC_OK && digest_flat(&e->out.flat) != reference_flat ? WRONG_OUTPUT : status;
}
static long flat_valid(contract_env *e) { return checked_flat(e, run_flat(e->context, &injective, 0, &e->out.flat)); }
static long flat_trusted(contract_env *e) {
    return checked_flat(e, run_flat(e->context, &injective, DFC_DIFF_ASSUME_UNIQUE, &e->out.flat));
}
static long flat_bytes(contract_env *e) { return checked_flat(e, run_flat(e->context, &by_bytes, 0, &e->out.flat)); }
static void flat_warm(contract_env *e) {
    dfc_list old_list = list_of(flat_warm_old, 5), new_list = list_of(flat_warm_new, 5);
    dfc_flat_result r;
    CHECK_EQ_INT(dfc_diff_flat(e->context, &old_list, &new_list, &injective, 0, &r), DFC_OK);
}
static long flat_duplicates(contract_env *e) {
    dfc_list duplicated = list_of(duplicate_keys, DUPLICATES + 1), single = list_of(duplicate_keys, 1);
    int status = dfc_diff_flat(e->context, &duplicated, &single, &injective, 0, &e->out.flat);
    size_t count = 0;
    if (status == DFC_ERR_DUPLICATE && (dfc_context_duplicates(e->context, &count) == NULL || count != DUPLICATES - 1))
        return WRONG_OUTPUT;
    return status;
}
static dfc_list some_keys(void) { return list_of(flat_old, 6); }
static long flat_null_context(contract_env *e) {
    dfc_list a = some_keys();
    return dfc_diff_flat(NULL, &a, &a, &injective, 0, &e->out.flat);
}
static long flat_null_old(contract_env *e) {
    dfc_list a = some_keys();
    return dfc_diff_flat(e->context, NULL, &a, &injective, 0, &e->out.flat);
}
static long flat_null_new(contract_env *e) {
    dfc_list a = some_keys();
    return dfc_diff_flat(e->context, &a, NULL, &injective, 0, &e->out.flat);
}
static long flat_null_match(contract_env *e) {
    dfc_list a = some_keys();
    return dfc_diff_flat(e->context, &a, &a, NULL, 0, &e->out.flat);
}
static long flat_null_result(contract_env *e) {
    dfc_list a = some_keys();
    return dfc_diff_flat(e->context, &a, &a, &injective, 0, NULL);
}
static long flat_null_keys(contract_env *e) {
    dfc_list a = some_keys(), missing = list_of(NULL, 6);
    return dfc_diff_flat(e->context, &a, &missing, &injective, 0, &e->out.flat);
}
static long flat_zero(contract_env *e) {
    dfc_list empty = list_of(NULL, 0);
    int status = dfc_diff_flat(e->context, &empty, &empty, &by_bytes, 0, &e->out.flat);
    if (status != DFC_OK) return status;
    const dfc_flat_result *r = &e->out.flat;
    return r->delete_count + r->insert_count + r->move_count + r->matched + r->old_count + r->new_count == 0 ? DFC_OK
                                                                                                         : WRONG_OUTPUT;
}
static long flat_old_too_large(contract_env *e) {
    dfc_list a = some_keys(), huge = list_of(flat_old, DFC_MAX_COUNT + 1);
    return dfc_diff_flat(e->context, &huge, &a, &injective, 0, &e->out.flat);
}
static long flat_new_too_large(contract_env *e) {
    dfc_list a = some_keys(), huge = list_of(flat_old, SIZE_MAX);
    return dfc_diff_flat(e->context, &a, &huge, &injective, 0, &e->out.flat);
}
static long flat_offsets_past_memory(contract_env *e) {
    const uint64_t offsets[] = {0, 1, UINT64_MAX - 1};
    dfc_list a = {flat_old, 2, "ab", offsets};
    return dfc_diff_flat(e->context, &a, &a, &by_bytes, 0, &e->out.flat);
}

/* ---- wrappers: sectioned diff ------------------------------------------------------- */

static long checked_sections(contract_env *e, int status, uint64_t reference) {
    return status == DFC_OK && digest_sections(&e->out.sections) != reference ? WRONG_OUTPUT : status;
}
static long sections_valid(contract_env *e) {
    return checked_sections(e, run_sections(e->context, NULL, &injective, &e->out.sections), reference_sections);
}
static long sections_refreshed(contract_env *e) {
    return checked_sections(e, run_sections(e->context, &some_refresh, &injective, &e->out.sections),
                            reference_sections_refreshed);
}
static long sections_bytes(contract_env *e) {
    return checked_sections(e, run_sections(e->context, &some_refresh, &by_bytes, &e->out.sections),
                            reference_sections_refreshed);
}
static long sections_duplicates(contract_env *e) {
    const uint32_t starts[] = {0, DUPLICATES + 1}, new_starts[] = {0, 1, 1};
    const uint64_t repeated_sections[] = {100, 100};
    dfc_snapshot old_snapshot = snapshot_of(section_old_keys, 1, duplicate_keys, starts);
    dfc_snapshot new_snapshot = snapshot_of(repeated_sections, 2, duplicate_keys, new_starts);
    int status = dfc_diff_sections(e->context, &old_snapshot, &new_snapshot, NULL, &injective, &injective, 0,
                                   &e->out.sections);
    size_t count = 0;
    const dfc_duplicate *d = status == DFC_ERR_DUPLICATE ? dfc_context_duplicates(e->context, &count) : NULL;
    /* the new section repeat, then the 19 old item repeats */
    if (status == DFC_ERR_DUPLICATE && (d == NULL || count != DUPLICATES || d[0].side != DFC_SIDE_OLD ||
                                        d[0].is_section != 0 || d[count - 1].side != DFC_SIDE_NEW ||
                                        d[count - 1].is_section != 1))
        return WRONG_OUTPUT;
    return status;
}
static dfc_snapshot some_snapshot(void) { return snapshot_of(section_old_keys, 3, flat_old, section_old_starts); }
static long sections_null_context(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    return dfc_diff_sections(NULL, &s, &s, NULL, &injective, &injective, 0, &e->out.sections);
}
static long sections_null_old(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    return dfc_diff_sections(e->context, NULL, &s, NULL, &injective, &injective, 0, &e->out.sections);
}
static long sections_null_new(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    return dfc_diff_sections(e->context, &s, NULL, NULL, &injective, &injective, 0, &e->out.sections);
}
static long sections_null_section_match(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    return dfc_diff_sections(e->context, &s, &s, NULL, NULL, &injective, 0, &e->out.sections);
}
static long sections_null_item_match(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    return dfc_diff_sections(e->context, &s, &s, NULL, &injective, NULL, 0, &e->out.sections);
}
static long sections_null_result(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    return dfc_diff_sections(e->context, &s, &s, NULL, &injective, &injective, 0, NULL);
}
static long sections_null_starts(contract_env *e) {
    dfc_snapshot s = some_snapshot(), no_starts = s;
    no_starts.section_starts = NULL;
    return dfc_diff_sections(e->context, &s, &no_starts, NULL, &injective, &injective, 0, &e->out.sections);
}
static long sections_null_section_keys(contract_env *e) {
    dfc_snapshot s = some_snapshot(), no_keys = s;
    no_keys.sections.keys = NULL;
    return dfc_diff_sections(e->context, &no_keys, &s, NULL, &injective, &injective, 0, &e->out.sections);
}
static long sections_null_refresh_indices(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    const dfc_refresh refresh = {NULL, 0, NULL, 2, NULL, 0};
    return dfc_diff_sections(e->context, &s, &s, &refresh, &injective, &injective, 0, &e->out.sections);
}
static long sections_zero(contract_env *e) {
    const uint32_t starts[] = {0};
    dfc_snapshot empty = {list_of(NULL, 0), list_of(NULL, 0), starts};
    const dfc_refresh nothing = {NULL, 0, NULL, 0, NULL, 0};
    int status = dfc_diff_sections(e->context, &empty, &empty, &nothing, &injective, &by_bytes, 0, &e->out.sections);
    if (status != DFC_OK) return status;
    return e->out.sections.has_structural || e->out.sections.has_refresh ? WRONG_OUTPUT : DFC_OK;
}
static long sections_empty_sections(contract_env *e) {
    const uint32_t starts[] = {0, 0, 0, 0};
    dfc_snapshot old_snapshot = snapshot_of(section_old_keys, 3, NULL, starts);
    dfc_snapshot new_snapshot = snapshot_of(section_new_keys, 3, NULL, starts);
    int status = dfc_diff_sections(e->context, &old_snapshot, &new_snapshot, NULL, &injective, &injective, 0,
                                   &e->out.sections);
    if (status != DFC_OK) return status;
    const dfc_batch *b = &e->out.sections.structural;
    return b->delete_section_count == 1 && b->insert_section_count == 1 && b->move_section_count == 1 &&
                   b->delete_item_count + b->insert_item_count + b->move_item_count == 0
               ? DFC_OK : WRONG_OUTPUT;
}
static long sections_sections_too_large(contract_env *e) {
    dfc_snapshot s = some_snapshot(), huge = s;
    huge.sections.count = DFC_MAX_COUNT + 1;
    return dfc_diff_sections(e->context, &s, &huge, NULL, &injective, &injective, 0, &e->out.sections);
}
static long sections_items_too_large(contract_env *e) {
    dfc_snapshot s = some_snapshot(), huge = s;
    huge.items.count = SIZE_MAX;
    return dfc_diff_sections(e->context, &huge, &s, NULL, &injective, &injective, 0, &e->out.sections);
}
static long sections_refresh_too_large(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    const dfc_refresh refresh = {refresh_items, DFC_MAX_COUNT + 1, NULL, 0, NULL, 0};
    return dfc_diff_sections(e->context, &s, &s, &refresh, &injective, &injective, 0, &e->out.sections);
}
static long sections_offsets_past_memory(contract_env *e) {
    const uint64_t offsets[] = {0, 1, UINT64_MAX};
    const uint32_t starts[] = {0, 2};
    dfc_snapshot s = {list_of(section_old_keys, 1), {flat_old, 2, "ab", offsets}, starts};
    return dfc_diff_sections(e->context, &s, &s, NULL, &injective, &by_bytes, 0, &e->out.sections);
}
static long sections_starts_past_items(contract_env *e) {
    const uint32_t starts[] = {0, UINT32_MAX, 6};
    dfc_snapshot s = some_snapshot(), wrapped = snapshot_of(section_old_keys, 2, flat_old, starts);
    return dfc_diff_sections(e->context, &s, &wrapped, NULL, &injective, &injective, 0, &e->out.sections);
}

/* ---- wrappers: dfc_diff_sections_deciding ------------------------------------------- */

/* Marks what some_refresh requests of items (a reload of item 1, a reconfigure of item 2),
 * or returns the status `user_data` points at when it is not DFC_OK; a stray bit when asked. */
typedef struct contract_decision {
    int status;
    bool stray_bit;
} contract_decision;
static int contract_decide(void *user, const int32_t *new_to_old, size_t new_count, const int32_t *old_to_new,
                           size_t old_count, uint8_t *marks) {
    (void)new_to_old, (void)old_to_new, (void)old_count;
    const contract_decision *decision = user;
    if (decision->status != DFC_OK) return decision->status;
    if (new_count > 2) marks[refresh_items[0]] = DFC_REFRESH_RELOAD, marks[refresh_items[1]] = DFC_REFRESH_RECONFIGURE;
    if (decision->stray_bit && new_count > 0) marks[0] = 8;
    return DFC_OK;
}
/* The section reload of some_refresh; the items' refresh from the decider. */
static const dfc_refresh sections_only_refresh = {NULL, 0, NULL, 0, refresh_sections, 1};
static long deciding_run(contract_env *e, dfc_context *context, const dfc_snapshot *a, const dfc_snapshot *b,
                         const contract_decision *decision, dfc_sections_result *r) {
    (void)e;
    return dfc_diff_sections_deciding(context, a, b, &sections_only_refresh, contract_decide, (void *)decision, &injective,
                                      &injective, 0, r);
}
static long deciding_valid(contract_env *e) {
    dfc_snapshot a = snapshot_of(section_old_keys, 3, flat_old, section_old_starts);
    dfc_snapshot b = snapshot_of(section_new_keys, 3, flat_new, section_new_starts);
    const contract_decision decision = {DFC_OK, false};
    return checked_sections(e, (int)deciding_run(e, e->context, &a, &b, &decision, &e->out.sections),
                            reference_sections_refreshed);
}
static long deciding_refused(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    const contract_decision decision = {DFC_ERR_SHARED_KEY, false};
    return deciding_run(e, e->context, &s, &s, &decision, &e->out.sections);
}
static long deciding_stray_bit(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    const contract_decision decision = {DFC_OK, true};
    return deciding_run(e, e->context, &s, &s, &decision, &e->out.sections);
}
static long deciding_no_decider(contract_env *e) {
    dfc_snapshot a = snapshot_of(section_old_keys, 3, flat_old, section_old_starts);
    dfc_snapshot b = snapshot_of(section_new_keys, 3, flat_new, section_new_starts);
    return checked_sections(e, dfc_diff_sections_deciding(e->context, &a, &b, &some_refresh, NULL, NULL, &injective,
                                                          &injective, 0, &e->out.sections),
                            reference_sections_refreshed);
}
static long deciding_null_context(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    const contract_decision decision = {DFC_OK, false};
    return deciding_run(e, NULL, &s, &s, &decision, &e->out.sections);
}
static long deciding_null_result(contract_env *e) {
    dfc_snapshot s = some_snapshot();
    const contract_decision decision = {DFC_OK, false};
    return deciding_run(e, e->context, &s, &s, &decision, NULL);
}
static long deciding_zero(contract_env *e) {
    const uint32_t starts[] = {0};
    dfc_snapshot empty = snapshot_of(NULL, 0, NULL, starts);
    const contract_decision decision = {DFC_OK, true};
    int status = dfc_diff_sections_deciding(e->context, &empty, &empty, NULL, contract_decide, (void *)&decision,
                                            &injective, &injective, 0, &e->out.sections);
    if (status != DFC_OK) return status;
    return e->out.sections.has_structural || e->out.sections.has_refresh ? WRONG_OUTPUT : DFC_OK;
}
static long deciding_items_too_large(contract_env *e) {
    dfc_snapshot s = some_snapshot(), huge = s;
    huge.items.count = SIZE_MAX;
    const contract_decision decision = {DFC_OK, false};
    return deciding_run(e, e->context, &s, &huge, &decision, &e->out.sections);
}
static long deciding_starts_past_items(contract_env *e) {
    const uint32_t starts[] = {0, UINT32_MAX, 6};
    dfc_snapshot s = some_snapshot(), wrapped = snapshot_of(section_old_keys, 2, flat_old, starts);
    const contract_decision decision = {DFC_OK, false};
    return deciding_run(e, e->context, &s, &wrapped, &decision, &e->out.sections);
}

/* ---- wrappers: steps --------------------------------------------------------------- */

static const uint32_t steps_old_counts[] = {2, 2, 2}, steps_new_counts[] = {1, 4, 1};

/* The reference diff's structural batch as steps: every move of the batch one move step, and
 * the steps' count what the batch's lists add up to (the reference batch repeats nothing). */
static long steps_valid(contract_env *e) {
    dfc_sections_result r;
    int status = run_sections(e->context, NULL, &injective, &r);
    if (status != DFC_OK) return status;
    status = dfc_batch_steps(e->context, &r.structural, steps_old_counts, 3, steps_new_counts, 3, &e->out.steps);
    if (status != DFC_OK) return status;
    const dfc_batch *b = &r.structural;
    size_t moves = 0;
    for (size_t k = 0; k < e->out.steps.count; k++)
        moves += e->out.steps.steps[k].kind == DFC_STEP_MOVE_ITEM || e->out.steps.steps[k].kind == DFC_STEP_MOVE_SECTION;
    const size_t listed = b->delete_section_count + b->insert_section_count + b->move_section_count +
                          b->delete_item_count + b->insert_item_count + b->move_item_count;
    return moves == b->move_section_count + b->move_item_count && e->out.steps.count == listed ? DFC_OK : WRONG_OUTPUT;
}
static long steps_flat_valid(contract_env *e) {
    dfc_flat_result r;
    int status = run_flat(e->context, &injective, 0, &r);
    if (status != DFC_OK) return status;
    status = dfc_flat_steps(e->context, &r, &e->out.steps);
    if (status != DFC_OK) return status;
    return e->out.steps.count == r.delete_count + r.insert_count + r.move_count ? DFC_OK : WRONG_OUTPUT;
}
static const dfc_index_path one_path[] = {{0, 0}};
static long steps_null_context(contract_env *e) {
    dfc_batch b = {0};
    return dfc_batch_steps(NULL, &b, steps_old_counts, 3, steps_old_counts, 3, &e->out.steps);
}
static long steps_null_batch(contract_env *e) {
    return dfc_batch_steps(e->context, NULL, steps_old_counts, 3, steps_old_counts, 3, &e->out.steps);
}
static long steps_null_result(contract_env *e) {
    dfc_batch b = {0};
    return dfc_batch_steps(e->context, &b, steps_old_counts, 3, steps_old_counts, 3, NULL);
}
static long steps_null_counts(contract_env *e) {
    dfc_batch b = {0};
    return dfc_batch_steps(e->context, &b, NULL, 3, steps_old_counts, 3, &e->out.steps);
}
static long steps_null_list(contract_env *e) {
    dfc_batch b = {0};
    b.delete_item_count = 1;
    return dfc_batch_steps(e->context, &b, steps_old_counts, 3, steps_old_counts, 3, &e->out.steps);
}
static long steps_zero(contract_env *e) {
    dfc_batch b = {0};
    int status = dfc_batch_steps(e->context, &b, NULL, 0, NULL, 0, &e->out.steps);
    return status != DFC_OK ? status : e->out.steps.count == 0 ? DFC_OK : WRONG_OUTPUT;
}
static long steps_sections_too_large(contract_env *e) {
    dfc_batch b = {0};
    return dfc_batch_steps(e->context, &b, steps_old_counts, DFC_MAX_COUNT + 1, steps_old_counts, 3, &e->out.steps);
}
static long steps_list_too_large(contract_env *e) {
    dfc_batch b = {0};
    b.delete_items = one_path, b.delete_item_count = SIZE_MAX;
    return dfc_batch_steps(e->context, &b, steps_old_counts, 3, steps_old_counts, 3, &e->out.steps);
}
static long steps_index_past_end(contract_env *e) {
    const dfc_index_path past[] = {{0, UINT32_MAX}};
    dfc_batch b = {0};
    b.delete_items = past, b.delete_item_count = 1;
    return dfc_batch_steps(e->context, &b, steps_old_counts, 3, steps_old_counts, 3, &e->out.steps);
}
static long steps_reload_in_structural(contract_env *e) {
    dfc_batch b = {0};
    b.delete_items = one_path, b.delete_item_count = 1;
    b.reload_items = one_path + 0, b.reload_item_count = 1;
    return dfc_batch_steps(e->context, &b, steps_old_counts, 3, steps_old_counts, 3, &e->out.steps);
}
static long flat_steps_null_context(contract_env *e) {
    dfc_flat_result r = {0};
    return dfc_flat_steps(NULL, &r, &e->out.steps);
}
static long flat_steps_null_flat(contract_env *e) { return dfc_flat_steps(e->context, NULL, &e->out.steps); }
static long flat_steps_null_result(contract_env *e) {
    dfc_flat_result r = {0};
    return dfc_flat_steps(e->context, &r, NULL);
}
static long flat_steps_null_deletes(contract_env *e) {
    dfc_flat_result r = {0};
    r.old_count = 1, r.delete_count = 1;
    return dfc_flat_steps(e->context, &r, &e->out.steps);
}
static long flat_steps_zero(contract_env *e) {
    dfc_flat_result r = {0};
    int status = dfc_flat_steps(e->context, &r, &e->out.steps);
    return status != DFC_OK ? status : e->out.steps.count == 0 ? DFC_OK : WRONG_OUTPUT;
}
static long flat_steps_too_large(contract_env *e) {
    dfc_flat_result r = {0};
    r.old_count = DFC_MAX_COUNT + 1;
    return dfc_flat_steps(e->context, &r, &e->out.steps);
}
static long flat_steps_move_past_end(contract_env *e) {
    const uint32_t from[] = {UINT32_MAX}, to[] = {0};
    dfc_flat_result r = {0};
    r.old_count = 2, r.new_count = 2, r.move_from = from, r.move_to = to, r.move_count = 1;
    return dfc_flat_steps(e->context, &r, &e->out.steps);
}

/* ---- the rows ------------------------------------------------------------------------ */

#define NO_POINTER "takes no pointer"
#define NO_COUNT "takes no count"
#define NO_ARITHMETIC "does no size arithmetic on its arguments"
#define NO_ALLOCATION "allocates nothing"

static const contract_row rows[] = {
    VALUE(dfc_version, CASE_VALID, "the header's DFC_VERSION_NUMBER", version_number, DFC_VERSION_NUMBER),
    CANNOT(dfc_version, CASE_NULL, NO_POINTER),
    CANNOT(dfc_version, CASE_ZERO, NO_COUNT),
    CANNOT(dfc_version, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_version, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_version, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_default_allocator, CASE_VALID, "a static allocator: 16 B and 9 MiB blocks written and released",
          default_allocator_works, 1),
    CANNOT(dfc_default_allocator, CASE_NULL, NO_POINTER),
    CANNOT(dfc_default_allocator, CASE_ZERO, NO_COUNT),
    CANNOT(dfc_default_allocator, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_default_allocator, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_default_allocator, CASE_ALLOCATION, "allocates nothing itself; its allocate reports failure as NULL"),

    VALUE(dfc_version_string, CASE_VALID, "the header's DFC_VERSION_STRING", version_text, 1),
    CANNOT(dfc_version_string, CASE_NULL, NO_POINTER),
    CANNOT(dfc_version_string, CASE_ZERO, NO_COUNT),
    CANNOT(dfc_version_string, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_version_string, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_version_string, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_status_string, CASE_VALID, "DFC_ERR_DUPLICATE and DFC_ERR_NO_ROOM are named", status_named, 1),
    CANNOT(dfc_status_string, CASE_NULL, NO_POINTER),
    VALUE(dfc_status_string, CASE_ZERO, "status 0 is DFC_OK", status_zero, 1),
    VALUE(dfc_status_string, CASE_TOO_LARGE, "INT_MAX and INT_MIN give the generic unknown text", status_unknown, 1),
    CANNOT(dfc_status_string, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_status_string, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_context_create, CASE_VALID, "a context on the caller's allocator diffs", context_create_counted, 1),
    VALUE(dfc_context_create, CASE_NULL, "NULL allocator, or hooks missing: malloc/free", context_create_default, 2),
    CANNOT(dfc_context_create, CASE_ZERO, NO_COUNT),
    CANNOT(dfc_context_create, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_context_create, CASE_OVERFLOW, NO_ARITHMETIC),
    FAILING_VALUE(dfc_context_create, "NULL", context_create_alone, 0, 1),

    VALUE(dfc_context_free, CASE_VALID, "every block back", context_free_counted, 1),
    VALUE(dfc_context_free, CASE_NULL, "no-op", context_free_null, 0),
    CANNOT(dfc_context_free, CASE_ZERO, NO_COUNT),
    CANNOT(dfc_context_free, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_context_free, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_context_free, CASE_ALLOCATION, "only releases"),

    VALUE(dfc_context_reset, CASE_VALID, "duplicates forgotten, capacity kept", context_reset_valid, 1),
    VALUE(dfc_context_reset, CASE_NULL, "no-op", context_reset_null, 0),
    VALUE(dfc_context_reset, CASE_ZERO, "a context without buffers", context_reset_fresh, 1),
    CANNOT(dfc_context_reset, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_context_reset, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_context_reset, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_context_shrink, CASE_VALID, "back to a fresh context's size", context_shrink_valid, 1),
    VALUE(dfc_context_shrink, CASE_NULL, "no-op", context_shrink_null, 0),
    VALUE(dfc_context_shrink, CASE_ZERO, "a context without buffers, twice", context_shrink_fresh, 1),
    CANNOT(dfc_context_shrink, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_context_shrink, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_context_shrink, CASE_ALLOCATION, "only releases"),

    STATUS(dfc_context_reserve, CASE_VALID, "a reserved flat diff allocates nothing", reserve_valid, DFC_OK),
    STATUS(dfc_context_reserve, CASE_NULL, "NULL context", reserve_null, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_context_reserve, CASE_ZERO, "0 and 0", reserve_zero, DFC_OK),
    STATUS(dfc_context_reserve, CASE_TOO_LARGE, "old_count DFC_MAX_COUNT + 1", reserve_old_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_context_reserve, CASE_TOO_LARGE, "new_count SIZE_MAX", reserve_new_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_context_reserve, CASE_OVERFLOW, "DFC_MAX_COUNT twice: sized without overflow, the allocator refuses",
           reserve_largest, DFC_ERR_OUT_OF_MEMORY),
    FAILING(dfc_context_reserve, "DFC_ERR_OUT_OF_MEMORY", NULL, reserve_some, DFC_ERR_OUT_OF_MEMORY, DFC_OK),

    VALUE(dfc_context_sizeof, CASE_VALID, "grows with a diff", context_sizeof_valid, 1),
    VALUE(dfc_context_sizeof, CASE_NULL, "0", context_sizeof_null, 0),
    VALUE(dfc_context_sizeof, CASE_ZERO, "a fresh context: the struct alone", context_sizeof_fresh, 1),
    CANNOT(dfc_context_sizeof, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_context_sizeof, CASE_OVERFLOW, "sums a fixed number of capacities, each allocated"),
    CANNOT(dfc_context_sizeof, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_context_allocation_count, CASE_VALID, "equals the allocator's count", allocation_count_valid, 1),
    VALUE(dfc_context_allocation_count, CASE_NULL, "0", allocation_count_null, 0),
    VALUE(dfc_context_allocation_count, CASE_ZERO, "a fresh context: itself", allocation_count_fresh, 1),
    CANNOT(dfc_context_allocation_count, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_context_allocation_count, CASE_OVERFLOW, "a 64-bit count of allocations"),
    CANNOT(dfc_context_allocation_count, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_context_duplicates, CASE_VALID, "every duplicate with positions", duplicates_valid, DUPLICATES - 1),
    VALUE(dfc_context_duplicates, CASE_NULL, "NULL context: NULL and count 0", duplicates_null_context, 1),
    VALUE(dfc_context_duplicates, CASE_NULL, "NULL count: the list still returned", duplicates_null_count, 1),
    VALUE(dfc_context_duplicates, CASE_ZERO, "none yet: NULL and count 0", duplicates_fresh, 1),
    CANNOT(dfc_context_duplicates, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_context_duplicates, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_context_duplicates, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_hash_one, CASE_VALID, "XXH3-64 known answer", hash_one_valid, 1),
    VALUE(dfc_hash_one, CASE_NULL, "NULL with length 5 hashes as the empty string", hash_one_null, 1),
    VALUE(dfc_hash_one, CASE_ZERO, "length 0", hash_one_zero, 1),
    CANNOT(dfc_hash_one, CASE_TOO_LARGE, "a byte length, not an element count: any length the buffer holds"),
    CANNOT(dfc_hash_one, CASE_OVERFLOW, "reads `length` bytes; no arithmetic on it"),
    CANNOT(dfc_hash_one, CASE_ALLOCATION, NO_ALLOCATION),
    VALUE(dfc_hash_16, CASE_VALID, "16 bytes, two seeds: dfc_hash_one's keys", hash_16_valid, 1),
    VALUE(dfc_hash_16, CASE_NULL, "NULL hashes as the empty string", hash_16_null, 1),
    CANNOT(dfc_hash_16, CASE_ZERO, NO_COUNT),
    CANNOT(dfc_hash_16, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_hash_16, CASE_OVERFLOW, "reads 16 bytes; no arithmetic"),
    CANNOT(dfc_hash_16, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_hash_if_nfc, CASE_VALID, "ASCII: 1 and dfc_hash_one's key", hash_if_nfc_ascii, 1),
    VALUE(dfc_hash_if_nfc, CASE_VALID, "a combining mark: 0, key untouched", hash_if_nfc_combining, 1),
    VALUE(dfc_hash_if_nfc, CASE_VALID, "invalid UTF-8: 0, key untouched", hash_if_nfc_invalid_utf8, 1),
    VALUE(dfc_hash_if_nfc, CASE_NULL, "NULL bytes with length 5: 0", hash_if_nfc_null_bytes, 1),
    VALUE(dfc_hash_if_nfc, CASE_NULL, "NULL key: 0", hash_if_nfc_null_key, 1),
    VALUE(dfc_hash_if_nfc, CASE_ZERO, "length 0: the empty string's key", hash_if_nfc_zero, 1),
    CANNOT(dfc_hash_if_nfc, CASE_TOO_LARGE, "a byte length, not an element count: any length the buffer holds"),
    CANNOT(dfc_hash_if_nfc, CASE_OVERFLOW, "reads `length` bytes; no arithmetic on it"),
    CANNOT(dfc_hash_if_nfc, CASE_ALLOCATION, NO_ALLOCATION),

    STATUS(dfc_hash_if_nfc_many, CASE_VALID, "ASCII, a combining mark, empty, ASCII: keys and index 1 unhashed", hash_if_nfc_many_valid, DFC_OK),
    STATUS(dfc_hash_if_nfc_many, CASE_NULL, "a NULL string of length 5: reported unhashed", hash_if_nfc_many_null_start, DFC_OK),
    STATUS(dfc_hash_if_nfc_many, CASE_NULL, "NULL keys, count 1", hash_if_nfc_many_null_keys, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_hash_if_nfc_many, CASE_NULL, "NULL unhashed_count", hash_if_nfc_many_null_count, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_hash_if_nfc_many, CASE_ZERO, "count 0, every array NULL: 0 unhashed", hash_if_nfc_many_zero, DFC_OK),
    STATUS(dfc_hash_if_nfc_many, CASE_TOO_LARGE, "count DFC_MAX_COUNT + 1", hash_if_nfc_many_too_large, DFC_ERR_TOO_LARGE),
    CANNOT(dfc_hash_if_nfc_many, CASE_OVERFLOW, "byte lengths, each read where it lies; no arithmetic across strings"),
    CANNOT(dfc_hash_if_nfc_many, CASE_ALLOCATION, NO_ALLOCATION),

    STATUS(dfc_hash_bytes, CASE_VALID, "keys equal dfc_hash_one", hash_bytes_valid, DFC_OK),
    STATUS(dfc_hash_bytes, CASE_NULL, "NULL offsets, count 2", hash_bytes_null_offsets, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_hash_bytes, CASE_NULL, "NULL keys, count 2", hash_bytes_null_keys, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_hash_bytes, CASE_NULL, "NULL bytes, 2 bytes of identifiers", hash_bytes_null_bytes, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_hash_bytes, CASE_ZERO, "count 0, every pointer NULL", hash_bytes_zero, DFC_OK),
    STATUS(dfc_hash_bytes, CASE_ZERO, "empty identifiers, NULL bytes", hash_bytes_empty_strings, DFC_OK),
    STATUS(dfc_hash_bytes, CASE_TOO_LARGE, "count DFC_MAX_COUNT + 1", hash_bytes_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_hash_bytes, CASE_OVERFLOW, "offsets to UINT64_MAX", hash_bytes_offsets_past_memory, DFC_ERR_TOO_LARGE),
    STATUS(dfc_hash_bytes, CASE_OVERFLOW, "offsets past PTRDIFF_MAX", hash_bytes_offsets_past_ptrdiff, DFC_ERR_TOO_LARGE),
    CANNOT(dfc_hash_bytes, CASE_ALLOCATION, NO_ALLOCATION),

    STATUS(dfc_hash_strided, CASE_VALID, "keys equal dfc_hash_one, sizes 16 and 5", hash_strided_valid, DFC_OK),
    STATUS(dfc_hash_strided, CASE_VALID, "size above stride", hash_strided_size_above_stride, DFC_ERR_INVALID_ARGUMENT),
    STATUS(dfc_hash_strided, CASE_VALID, "one identifier at stride SIZE_MAX: its key", hash_strided_one_at_any_stride, DFC_OK),
    STATUS(dfc_hash_strided, CASE_NULL, "NULL bytes, count 2", hash_strided_null_bytes, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_hash_strided, CASE_NULL, "NULL keys, count 2", hash_strided_null_keys, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_hash_strided, CASE_ZERO, "count 0, every pointer NULL", hash_strided_zero, DFC_OK),
    STATUS(dfc_hash_strided, CASE_TOO_LARGE, "count DFC_MAX_COUNT + 1", hash_strided_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_hash_strided, CASE_OVERFLOW, "stride SIZE_MAX / 2, count 3", hash_strided_span_overflows, DFC_ERR_TOO_LARGE),
    STATUS(dfc_hash_strided, CASE_OVERFLOW, "stride SIZE_MAX / 2 + 1, count 3: the span wraps", hash_strided_span_wraps,
           DFC_ERR_TOO_LARGE),
    CANNOT(dfc_hash_strided, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_idtable_create, CASE_VALID, "a table on the caller's allocator", idtable_create_counted, 1),
    VALUE(dfc_idtable_create, CASE_NULL, "NULL allocator: malloc/free", idtable_create_default, 1),
    CANNOT(dfc_idtable_create, CASE_ZERO, NO_COUNT),
    CANNOT(dfc_idtable_create, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_idtable_create, CASE_OVERFLOW, NO_ARITHMETIC),
    FAILING_VALUE(dfc_idtable_create, "NULL", idtable_create_alone, 0, 1),

    VALUE(dfc_idtable_copy, CASE_VALID, "same entries, independent", idtable_copy_valid, 1),
    VALUE(dfc_idtable_copy, CASE_NULL, "NULL table: NULL", idtable_copy_null, 0),
    VALUE(dfc_idtable_copy, CASE_ZERO, "an empty table", idtable_copy_empty, 1),
    CANNOT(dfc_idtable_copy, CASE_TOO_LARGE, "copies an existing table's capacity"),
    CANNOT(dfc_idtable_copy, CASE_OVERFLOW, "the source's slot bytes were computed when it grew"),
    FAILING_VALUE(dfc_idtable_copy, "NULL, nothing kept", idtable_copy_valid, 0, 1),

    VALUE(dfc_idtable_free, CASE_VALID, "every block back", idtable_free_valid, 1),
    VALUE(dfc_idtable_free, CASE_NULL, "no-op", idtable_free_null, 0),
    CANNOT(dfc_idtable_free, CASE_ZERO, NO_COUNT),
    CANNOT(dfc_idtable_free, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_idtable_free, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_idtable_free, CASE_ALLOCATION, "only releases"),

    VALUE(dfc_idtable_clear, CASE_VALID, "no entries, capacity kept", idtable_clear_valid, 1),
    VALUE(dfc_idtable_clear, CASE_NULL, "no-op", idtable_clear_null, 0),
    VALUE(dfc_idtable_clear, CASE_ZERO, "a table without slots", idtable_clear_empty, 1),
    CANNOT(dfc_idtable_clear, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_idtable_clear, CASE_OVERFLOW, "clears the bytes computed when it grew"),
    CANNOT(dfc_idtable_clear, CASE_ALLOCATION, NO_ALLOCATION),

    STATUS(dfc_idtable_reserve, CASE_VALID, "the inserts up to count then allocate nothing", idtable_reserve_valid,
           DFC_OK),
    STATUS(dfc_idtable_reserve, CASE_VALID, "key_count == entries: rebuilt from the keys in order",
           idtable_reserve_in_order, DFC_OK),
    STATUS(dfc_idtable_reserve, CASE_NULL, "NULL table", idtable_reserve_null, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_reserve, CASE_NULL, "NULL keys for a table with entries: table unchanged",
           idtable_reserve_null_keys, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_reserve, CASE_ZERO, "count 0", idtable_reserve_zero, DFC_OK),
    STATUS(dfc_idtable_reserve, CASE_ZERO, "an empty table: NULL keys, key_count 0", idtable_reserve_empty_no_keys,
           DFC_OK),
    STATUS(dfc_idtable_reserve, CASE_TOO_LARGE, "count DFC_MAX_COUNT + 1", idtable_reserve_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_idtable_reserve, CASE_TOO_LARGE, "key_count DFC_MAX_COUNT + 1", idtable_reserve_keys_too_large,
           DFC_ERR_TOO_LARGE),
    STATUS(dfc_idtable_reserve, CASE_OVERFLOW, "DFC_MAX_COUNT: sized without overflow, the allocator refuses",
           idtable_reserve_largest, DFC_ERR_OUT_OF_MEMORY),
    STATUS(dfc_idtable_reserve, CASE_OVERFLOW, "an entry's value not below key_count: table unchanged",
           idtable_reserve_value_past_keys, DFC_ERR_INCONSISTENT),
    FAILING(dfc_idtable_reserve, "DFC_ERR_OUT_OF_MEMORY, table unchanged", NULL, idtable_reserve_some,
            DFC_ERR_OUT_OF_MEMORY, DFC_OK),

    STATUS(dfc_idtable_insert, CASE_VALID, "found afterwards", idtable_insert_valid, DFC_OK),
    STATUS(dfc_idtable_insert, CASE_NULL, "NULL table", idtable_insert_null, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert, CASE_ZERO, "into a table never reserved (no slots)", idtable_insert_empty,
           DFC_ERR_NO_ROOM),
    STATUS(dfc_idtable_insert, CASE_TOO_LARGE, "one entry past the limit (3/4 of the slots): table unchanged",
           idtable_insert_full, DFC_ERR_NO_ROOM),
    STATUS(dfc_idtable_insert, CASE_OVERFLOW, "value UINT32_MAX (value + 1 would wrap)", idtable_insert_max_value,
           DFC_ERR_TOO_LARGE),
    STATUS(dfc_idtable_insert, CASE_OVERFLOW, "value 14 in 16 slots (4 value bits, 15 marks removal)",
           idtable_insert_value_past_slots, DFC_ERR_TOO_LARGE),
    CANNOT(dfc_idtable_insert, CASE_ALLOCATION, "never grows the table: allocates nothing"),

    STATUS(dfc_idtable_insert_batch, CASE_VALID, "conflicts flagged, values consecutive", insert_batch_valid, DFC_OK),
    STATUS(dfc_idtable_insert_batch, CASE_NULL, "NULL table", insert_batch_null_table, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert_batch, CASE_NULL, "NULL keys, count 3", insert_batch_null_keys, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert_batch, CASE_NULL, "NULL conflicts, count 3", insert_batch_null_conflicts,
           DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert_batch, CASE_ZERO, "count 0, keys and conflicts NULL", insert_batch_zero, DFC_OK),
    STATUS(dfc_idtable_insert_batch, CASE_TOO_LARGE, "count DFC_MAX_COUNT + 1", insert_batch_too_large,
           DFC_ERR_TOO_LARGE),
    STATUS(dfc_idtable_insert_batch, CASE_OVERFLOW, "first_value + count past DFC_MAX_COUNT",
           insert_batch_values_overflow, DFC_ERR_TOO_LARGE),
    STATUS(dfc_idtable_insert_batch, CASE_TOO_LARGE, "more keys than free entries: table and conflicts unchanged",
           insert_batch_no_room, DFC_ERR_NO_ROOM),
    CANNOT(dfc_idtable_insert_batch, CASE_ALLOCATION, "never grows the table: allocates nothing"),

    STATUS(dfc_idtable_insert_batch_confirmed, CASE_VALID, "only equal keys conflict, values consecutive",
           insert_batch_confirmed_valid, DFC_OK),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_NULL, "NULL table", insert_batch_confirmed_null_table,
           DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_NULL, "NULL keys, count 3", insert_batch_confirmed_null_keys,
           DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_NULL, "NULL conflicts, count 3", insert_batch_confirmed_null_conflicts,
           DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_NULL, "NULL value_keys, known_count 3: table unchanged",
           insert_batch_confirmed_null_value_keys, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_ZERO, "count 0, every array NULL", insert_batch_confirmed_zero, DFC_OK),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_ZERO, "count 0, known_count 3 past first_value 2",
           insert_batch_confirmed_zero_known_past_first, DFC_ERR_INCONSISTENT),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_NULL, "NULL keys, count 2, known_count past first_value",
           insert_batch_confirmed_null_keys_and_known_past_first, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_ZERO, "count 0, NULL value_keys with known_count 3",
           insert_batch_confirmed_zero_null_value_keys, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_TOO_LARGE, "count DFC_MAX_COUNT + 1", insert_batch_confirmed_too_large,
           DFC_ERR_TOO_LARGE),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_OVERFLOW, "first_value + count past DFC_MAX_COUNT",
           insert_batch_confirmed_values_overflow, DFC_ERR_TOO_LARGE),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_OVERFLOW, "known_count past first_value: table unchanged",
           insert_batch_confirmed_known_past_first, DFC_ERR_INCONSISTENT),
    STATUS(dfc_idtable_insert_batch_confirmed, CASE_TOO_LARGE, "more keys than free entries: table and conflicts unchanged",
           insert_batch_confirmed_no_room, DFC_ERR_NO_ROOM),
    CANNOT(dfc_idtable_insert_batch_confirmed, CASE_ALLOCATION, "never grows the table: allocates nothing"),

    VALUE(dfc_idtable_find, CASE_VALID, "the value, then DFC_NOT_FOUND", idtable_find_valid, 1),
    VALUE(dfc_idtable_find, CASE_NULL, "NULL table: DFC_NOT_FOUND", idtable_find_null_table, DFC_NOT_FOUND),
    VALUE(dfc_idtable_find, CASE_NULL, "NULL cursor: DFC_NOT_FOUND", idtable_find_null_cursor, DFC_NOT_FOUND),
    VALUE(dfc_idtable_find, CASE_ZERO, "a table without slots", idtable_find_empty, DFC_NOT_FOUND),
    CANNOT(dfc_idtable_find, CASE_TOO_LARGE, NO_COUNT),
    VALUE(dfc_idtable_find, CASE_OVERFLOW, "cursor SIZE_MAX: DFC_NOT_FOUND", idtable_find_cursor_past_end, DFC_NOT_FOUND),
    CANNOT(dfc_idtable_find, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_idtable_remove, CASE_VALID, "1, then gone", idtable_remove_valid, 1),
    VALUE(dfc_idtable_remove, CASE_NULL, "NULL table: 0", idtable_remove_null, 0),
    VALUE(dfc_idtable_remove, CASE_ZERO, "a table without slots: 0", idtable_remove_empty, 0),
    CANNOT(dfc_idtable_remove, CASE_TOO_LARGE, NO_COUNT),
    VALUE(dfc_idtable_remove, CASE_OVERFLOW, "value UINT32_MAX (value + 1 wraps): 0", idtable_remove_max_value, 0),
    CANNOT(dfc_idtable_remove, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_idtable_update, CASE_VALID, "1, the new value found", idtable_update_valid, 1),
    VALUE(dfc_idtable_update, CASE_NULL, "NULL table: 0", idtable_update_null, 0),
    VALUE(dfc_idtable_update, CASE_ZERO, "a table without slots: 0", idtable_update_empty, 0),
    CANNOT(dfc_idtable_update, CASE_TOO_LARGE, NO_COUNT),
    VALUE(dfc_idtable_update, CASE_OVERFLOW, "old or new value UINT32_MAX: 0", idtable_update_max_value, 0),
    CANNOT(dfc_idtable_update, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_idtable_prefetch, CASE_VALID, "entries unchanged", idtable_prefetch_valid, 1),
    VALUE(dfc_idtable_prefetch, CASE_NULL, "no-op", idtable_prefetch_null, 0),
    VALUE(dfc_idtable_prefetch, CASE_ZERO, "a table without slots: no-op", idtable_prefetch_empty, 0),
    CANNOT(dfc_idtable_prefetch, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_idtable_prefetch, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_idtable_prefetch, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_idtable_count, CASE_VALID, "3", idtable_count_valid, 3),
    VALUE(dfc_idtable_count, CASE_NULL, "0", idtable_count_null, 0),
    VALUE(dfc_idtable_count, CASE_ZERO, "a table without slots: 0", idtable_count_empty, 0),
    CANNOT(dfc_idtable_count, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_idtable_count, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_idtable_count, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_idtable_room, CASE_VALID, "9 (16 slots, 3 entries); a reserve within it is free", idtable_room_valid, 9),
    VALUE(dfc_idtable_room, CASE_NULL, "0", idtable_room_null, 0),
    VALUE(dfc_idtable_room, CASE_ZERO, "a table without slots: 0", idtable_room_empty, 0),
    CANNOT(dfc_idtable_room, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_idtable_room, CASE_OVERFLOW, NO_ARITHMETIC),
    CANNOT(dfc_idtable_room, CASE_ALLOCATION, NO_ALLOCATION),

    VALUE(dfc_idtable_sizeof, CASE_VALID, "grows with the table", idtable_sizeof_valid, 1),
    VALUE(dfc_idtable_sizeof, CASE_NULL, "0", idtable_sizeof_null, 0),
    VALUE(dfc_idtable_sizeof, CASE_ZERO, "a table without slots: the struct alone", idtable_sizeof_empty, 1),
    CANNOT(dfc_idtable_sizeof, CASE_TOO_LARGE, NO_COUNT),
    CANNOT(dfc_idtable_sizeof, CASE_OVERFLOW, "the slot bytes were computed when it grew"),
    CANNOT(dfc_idtable_sizeof, CASE_ALLOCATION, NO_ALLOCATION),

    STATUS(dfc_lis, CASE_VALID, "ALGORITHM.md's positions", lis_valid, DFC_OK),
    STATUS(dfc_lis, CASE_NULL, "NULL context", lis_null_context, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_lis, CASE_NULL, "NULL values, count 1", lis_null_values, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_lis, CASE_NULL, "NULL keep, count 1", lis_null_keep, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_lis, CASE_ZERO, "count 0, values and keep NULL: length 0", lis_zero, DFC_OK),
    STATUS(dfc_lis, CASE_TOO_LARGE, "count DFC_MAX_COUNT + 1", lis_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_lis, CASE_OVERFLOW, "values at UINT32_MAX (the interpolating search)", lis_extreme_values, DFC_OK),
    FAILING(dfc_lis, "DFC_ERR_OUT_OF_MEMORY, keep untouched", NULL, lis_shuffled, DFC_ERR_OUT_OF_MEMORY, DFC_OK),

    STATUS(dfc_diff_flat, CASE_VALID, "the reference result", flat_valid, DFC_OK),
    STATUS(dfc_diff_flat, CASE_NULL, "NULL context", flat_null_context, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_flat, CASE_NULL, "NULL old list", flat_null_old, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_flat, CASE_NULL, "NULL new list", flat_null_new, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_flat, CASE_NULL, "NULL match", flat_null_match, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_flat, CASE_NULL, "NULL result", flat_null_result, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_flat, CASE_NULL, "NULL keys, count 6", flat_null_keys, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_flat, CASE_ZERO, "two empty lists, every pointer NULL", flat_zero, DFC_OK),
    STATUS(dfc_diff_flat, CASE_TOO_LARGE, "old count DFC_MAX_COUNT + 1", flat_old_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_diff_flat, CASE_TOO_LARGE, "new count SIZE_MAX", flat_new_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_diff_flat, CASE_OVERFLOW, "byte offsets to UINT64_MAX - 1", flat_offsets_past_memory, DFC_ERR_TOO_LARGE),
    FAILING(dfc_diff_flat, "validated: DFC_ERR_OUT_OF_MEMORY", NULL, flat_valid, DFC_ERR_OUT_OF_MEMORY, DFC_OK),
    FAILING(dfc_diff_flat, "trusted", NULL, flat_trusted, DFC_ERR_OUT_OF_MEMORY, DFC_OK),
    FAILING(dfc_diff_flat, "byte identity, colliding keys", NULL, flat_bytes, DFC_ERR_OUT_OF_MEMORY, DFC_OK),
    FAILING(dfc_diff_flat, "warm buffers growing by half (retry at the exact size)", flat_warm, flat_valid,
            DFC_ERR_OUT_OF_MEMORY, DFC_OK),
    FAILING(dfc_diff_flat, "19 duplicates (the list grows by copying)", NULL, flat_duplicates, DFC_ERR_OUT_OF_MEMORY,
            DFC_ERR_DUPLICATE),

    STATUS(dfc_diff_sections, CASE_VALID, "the reference result", sections_valid, DFC_OK),
    STATUS(dfc_diff_sections, CASE_NULL, "NULL context", sections_null_context, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections, CASE_NULL, "NULL old snapshot", sections_null_old, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections, CASE_NULL, "NULL new snapshot", sections_null_new, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections, CASE_NULL, "NULL section match", sections_null_section_match, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections, CASE_NULL, "NULL item match", sections_null_item_match, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections, CASE_NULL, "NULL result", sections_null_result, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections, CASE_NULL, "NULL section_starts", sections_null_starts, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections, CASE_NULL, "NULL section keys, count 3", sections_null_section_keys, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections, CASE_NULL, "NULL reconfigure indices, count 2", sections_null_refresh_indices,
           DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections, CASE_ZERO, "no sections, no items, an empty refresh", sections_zero, DFC_OK),
    STATUS(dfc_diff_sections, CASE_ZERO, "empty sections only", sections_empty_sections, DFC_OK),
    STATUS(dfc_diff_sections, CASE_TOO_LARGE, "section count DFC_MAX_COUNT + 1", sections_sections_too_large,
           DFC_ERR_TOO_LARGE),
    STATUS(dfc_diff_sections, CASE_TOO_LARGE, "item count SIZE_MAX", sections_items_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_diff_sections, CASE_TOO_LARGE, "refresh count DFC_MAX_COUNT + 1", sections_refresh_too_large,
           DFC_ERR_TOO_LARGE),
    STATUS(dfc_diff_sections, CASE_OVERFLOW, "byte offsets to UINT64_MAX", sections_offsets_past_memory,
           DFC_ERR_TOO_LARGE),
    STATUS(dfc_diff_sections, CASE_OVERFLOW, "a section start UINT32_MAX past the items", sections_starts_past_items,
           DFC_ERR_INCONSISTENT),
    FAILING(dfc_diff_sections, "DFC_ERR_OUT_OF_MEMORY", NULL, sections_valid, DFC_ERR_OUT_OF_MEMORY, DFC_OK),
    FAILING(dfc_diff_sections, "with refresh requests", NULL, sections_refreshed, DFC_ERR_OUT_OF_MEMORY, DFC_OK),
    FAILING(dfc_diff_sections, "byte identity, colliding keys", NULL, sections_bytes, DFC_ERR_OUT_OF_MEMORY, DFC_OK),
    FAILING(dfc_diff_sections, "a duplicate section and 19 duplicate items", NULL, sections_duplicates,
            DFC_ERR_OUT_OF_MEMORY, DFC_ERR_DUPLICATE),

    STATUS(dfc_diff_sections_deciding, CASE_VALID, "marks for some_refresh's items: its result", deciding_valid, DFC_OK),
    STATUS(dfc_diff_sections_deciding, CASE_VALID, "NULL decider: dfc_diff_sections", deciding_no_decider, DFC_OK),
    STATUS(dfc_diff_sections_deciding, CASE_VALID, "the decider's own status", deciding_refused, DFC_ERR_SHARED_KEY),
    STATUS(dfc_diff_sections_deciding, CASE_VALID, "a mark with a stray bit", deciding_stray_bit, DFC_ERR_INVALID_ARGUMENT),
    STATUS(dfc_diff_sections_deciding, CASE_NULL, "NULL context", deciding_null_context, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections_deciding, CASE_NULL, "NULL result", deciding_null_result, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_diff_sections_deciding, CASE_ZERO, "no sections, no items: no marks to set", deciding_zero, DFC_OK),
    STATUS(dfc_diff_sections_deciding, CASE_TOO_LARGE, "item count SIZE_MAX", deciding_items_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_diff_sections_deciding, CASE_OVERFLOW, "a section start UINT32_MAX past the items", deciding_starts_past_items,
           DFC_ERR_INCONSISTENT),
    FAILING(dfc_diff_sections_deciding, "DFC_ERR_OUT_OF_MEMORY (the marks among the buffers)", NULL, deciding_valid,
            DFC_ERR_OUT_OF_MEMORY, DFC_OK),

    STATUS(dfc_batch_steps, CASE_VALID, "the reference batch: one step per operation, moves as moves", steps_valid, DFC_OK),
    STATUS(dfc_batch_steps, CASE_NULL, "NULL context", steps_null_context, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_batch_steps, CASE_NULL, "NULL batch", steps_null_batch, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_batch_steps, CASE_NULL, "NULL result", steps_null_result, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_batch_steps, CASE_NULL, "NULL old counts, 3 sections", steps_null_counts, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_batch_steps, CASE_NULL, "NULL item deletes, count 1", steps_null_list, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_batch_steps, CASE_ZERO, "no sections, an empty batch: no steps", steps_zero, DFC_OK),
    STATUS(dfc_batch_steps, CASE_TOO_LARGE, "section count DFC_MAX_COUNT + 1", steps_sections_too_large,
           DFC_ERR_TOO_LARGE),
    STATUS(dfc_batch_steps, CASE_TOO_LARGE, "item delete count SIZE_MAX", steps_list_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_batch_steps, CASE_OVERFLOW, "a delete at item UINT32_MAX", steps_index_past_end, DFC_ERR_INCONSISTENT),
    STATUS(dfc_batch_steps, CASE_OVERFLOW, "a reload in a structural batch", steps_reload_in_structural,
           DFC_ERR_INVALID_ARGUMENT),
    FAILING(dfc_batch_steps, "DFC_ERR_OUT_OF_MEMORY, result untouched", NULL, steps_valid, DFC_ERR_OUT_OF_MEMORY, DFC_OK),

    STATUS(dfc_flat_steps, CASE_VALID, "the reference flat diff: one step per operation", steps_flat_valid, DFC_OK),
    STATUS(dfc_flat_steps, CASE_NULL, "NULL context", flat_steps_null_context, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_flat_steps, CASE_NULL, "NULL flat result", flat_steps_null_flat, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_flat_steps, CASE_NULL, "NULL result", flat_steps_null_result, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_flat_steps, CASE_NULL, "NULL deletes, count 1", flat_steps_null_deletes, DFC_ERR_NULL_ARGUMENT),
    STATUS(dfc_flat_steps, CASE_ZERO, "two empty lists: no steps", flat_steps_zero, DFC_OK),
    STATUS(dfc_flat_steps, CASE_TOO_LARGE, "old count DFC_MAX_COUNT + 1", flat_steps_too_large, DFC_ERR_TOO_LARGE),
    STATUS(dfc_flat_steps, CASE_OVERFLOW, "a move from index UINT32_MAX", flat_steps_move_past_end, DFC_ERR_INCONSISTENT),
    FAILING(dfc_flat_steps, "DFC_ERR_OUT_OF_MEMORY, result untouched", NULL, steps_flat_valid, DFC_ERR_OUT_OF_MEMORY,
            DFC_OK),
};

enum { ROW_COUNT = sizeof(rows) / sizeof(rows[0]) };

/* ---- the runner ------------------------------------------------------------------------ */

static void report(const contract_row *row, const char *problem, long actual, long expected) {
    fprintf(stderr, "  %s, %s (%s): %s: got %ld, expected %ld\n", row->function, case_names[row->kind], row->what,
            problem, actual, expected);
    harness_failures_in_test++;
}

/* A status other than success or running out of memory must come before any allocation. */
static bool rejects_before_allocating(const contract_row *row, long expected) {
    /* A refresh decider's verdict (its own status, a stray mark) comes once the items are matched. */
    if (row->kind == CASE_VALID && strcmp(row->function, "dfc_diff_sections_deciding") == 0) return false;
    return row->result == RESULT_STATUS && expected != DFC_OK && expected != DFC_ERR_OUT_OF_MEMORY &&
           expected != DFC_ERR_DUPLICATE;
}

/* After the call: outputs untouched on an error status, the objects usable, no leak. */
static void check_after(const contract_row *row, contract_env *e, long result) {
    if (row->result == RESULT_STATUS && result != DFC_OK && result != WRONG_OUTPUT &&
        memcmp(&e->out, &poisoned, sizeof(poisoned)) != 0)
        report(row, "an output changed although the call failed", result, row->expected);
    if (row->result == RESULT_STATUS && result != DFC_OK && result != DFC_ERR_DUPLICATE && result != WRONG_OUTPUT &&
        e->table != NULL && !table_holds_originals(e->table))
        report(row, "the table changed although the call failed", result, row->expected);
    if (!env_usable(e)) report(row, "the context or table is no longer usable", result, row->expected);
    env_close(e);
    if (e->heap.live != 0) report(row, "blocks leaked", e->heap.live, 0);
}

static void run_plain_row(const contract_row *row) {
    contract_env e;
    env_open(&e);
    long calls = e.heap.calls;
    long result = row->call(&e);
    if (result != row->expected) report(row, "wrong result", result, row->expected);
    if (rejects_before_allocating(row, row->expected) && e.heap.calls != calls)
        report(row, "allocated before rejecting", e.heap.calls - calls, 0);
    check_after(row, &e, result);
}

/* Fails the 1st, 2nd, ... allocation the call makes until it makes fewer than k. */
static void run_allocation_row(const contract_row *row) {
    long failures = 0;
    for (long k = 1;; k++) {
        contract_env e;
        env_open(&e);
        if (row->prepare != NULL) row->prepare(&e);
        e.heap.fail_at = e.heap.calls + k;
        long result = row->call(&e);
        bool injected = e.heap.calls >= e.heap.fail_at;
        e.heap.fail_at = 0;
        if (!injected) {
            if (result != row->succeeded) report(row, "wrong result without a failure", result, row->succeeded);
        } else if (result == row->expected) {
            failures++;
        } else if (result != row->succeeded) { /* a retry at a smaller size may still succeed */
            report(row, "wrong result when allocation k failed", result, row->expected);
        }
        check_after(row, &e, injected ? result : DFC_OK);
        if (!injected) break;
        if (k > 10000) {
            report(row, "still allocating after 10000 failures", k, 0);
            break;
        }
    }
    if (failures == 0) report(row, "no allocation could be made to fail", 0, 1);
}

/* Every exported function, once, in table order (for check_symbols.sh). */
int contract_list(void) {
    for (size_t i = 0; i < ROW_COUNT; i++)
        if (i == 0 || strcmp(rows[i].function, rows[i - 1].function) != 0) printf("%s\n", rows[i].function);
    return 0;
}

void test_contract(void) {
    compute_references();
    size_t checked = 0, not_applicable = 0;
    for (size_t i = 0; i < ROW_COUNT; i++) {
        const contract_row *row = &rows[i];
        if (row->call == NULL) {
            not_applicable++;
            continue;
        }
        checked++;
        if (row->kind == CASE_ALLOCATION) run_allocation_row(row);
        else run_plain_row(row);
    }
    /* Every function answers every case: with a row that runs, or a reason it cannot arise. */
    for (size_t i = 0; i < ROW_COUNT; i++) {
        if (i > 0 && strcmp(rows[i].function, rows[i - 1].function) == 0) continue;
        bool seen[CASE_KINDS] = {false};
        for (size_t j = i; j < ROW_COUNT && strcmp(rows[j].function, rows[i].function) == 0; j++) seen[rows[j].kind] = true;
        for (int kind = 0; kind < CASE_KINDS; kind++)
            if (!seen[kind]) {
                fprintf(stderr, "  %s has no row for the %s case\n", rows[i].function, case_names[kind]);
                harness_failures_in_test++;
            }
    }
    printf("     contract: %zu rows run, %zu cases that cannot arise (each with its reason)\n", checked, not_applicable);
}

/* ---- size guards the public API cannot reach on a 64-bit machine ---------------------- */

/* 32-bit counts never overflow a 64-bit size_t, so the guards below only fire on smaller
 * machines; they are tested here directly. */
#include "../../CSources/CDiffCore/dfc_internal.h"

void test_size_guards(void) {
    size_t product = 7;
    CHECK(!dfc__mul_size(SIZE_MAX / 2 + 1, 2, &product) && product == 7);
    CHECK(dfc__mul_size(SIZE_MAX, 1, &product) && product == SIZE_MAX);
    CHECK(dfc__mul_size(SIZE_MAX, 0, &product) && product == 0);
    size_t capacity = 0;
    unsigned shift = 0;
    CHECK(!dfc__slot_capacity_for(SIZE_MAX, &capacity, &shift));
    CHECK(dfc__slot_capacity_for(0, &capacity, &shift) && capacity == 16 && shift == 60);
    CHECK(dfc__slot_capacity_for(DFC_MAX_COUNT, &capacity, &shift) && capacity == (size_t)1 << 32 && shift == 32);
    CHECK(dfc__byte_range_overflows(NULL, (uint64_t)PTRDIFF_MAX + 1));
    CHECK(dfc__byte_range_overflows((const void *)(UINTPTR_MAX - 3), 8));
    CHECK(!dfc__byte_range_overflows("ab", 2));
    CHECK(!dfc__byte_range_overflows(NULL, 0));
    dfc_heap heap;
    dfc__heap_init(&heap, NULL);
    dfc_buffer buffer = {NULL, 0};
    CHECK_EQ_INT(dfc__buffer_reserve(&heap, &buffer, SIZE_MAX / 4, 8), DFC_ERR_TOO_LARGE);
    CHECK(buffer.data == NULL && buffer.capacity == 0 && heap.allocation_count == 0);
    CHECK_EQ_INT(dfc__buffer_reserve(&heap, &buffer, 3, 4), DFC_OK);
    CHECK(buffer.data != NULL && buffer.capacity == 12 && heap.allocation_count == 1);
    dfc__buffer_release(&heap, &buffer);
}
