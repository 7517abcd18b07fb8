/*
 * binding.h — what the files of the diffable._core extension share.
 *
 * The extension is built on CPython's limited API (Py_LIMITED_API 3.11, one abi3 wheel for
 * every CPython >= 3.11). It reads Python objects, buffers and Arrow arrays into the key arrays
 * the C core (dfc.h) diffs, so no per-item work happens in Python code.
 */
#ifndef DIFFABLE_BINDING_H
#define DIFFABLE_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <dfc.h>

/* What one list of identifiers holds; both lists of a diff must agree (EMPTY fits any). */
enum { IDS_EMPTY = 0, IDS_INT, IDS_STR, IDS_BYTES, IDS_OBJECT };

/* Grow-only arrays a Differ keeps between diffs (one per list), so a warm Differ reuses them. */
typedef struct {
    uint64_t *keys;
    uint64_t *offsets;   /* byte identifiers: count + 1 offsets into `arena` */
    char *arena;         /* byte identifiers: their (NFC) bytes, one after another */
    size_t capacity;     /* entries of keys (and offsets, minus one) */
    size_t arena_capacity;
} ids_scratch;

/* One list read for the core. `keys` may point into a caller's buffer (int64 arrays). str and
 * bytes identifiers are copied into the scratch's arena as they are read, so the core compares
 * them without touching Python objects (DFC_MATCH_BYTES) and nothing needs holding while the GIL
 * is released. */
typedef struct {
    int kind;
    size_t count;
    const uint64_t *keys;
    const char *bytes;       /* IDS_STR/IDS_BYTES: the arena */
    const uint64_t *offsets; /* IDS_STR/IDS_BYTES: count + 1 offsets into `bytes` */
    PyObject *hold;          /* objects that keep borrowed buffers alive (Arrow capsules) */
    PyObject *objects;       /* IDS_OBJECT: the identifiers, for == (a private list) */
    Py_buffer view;
    int has_view;
} ids;

/* The module's state (no process-wide globals: each interpreter that imports the module has
 * its own): unicodedata.normalize, imported when the module is, so reading a list never imports
 * (an import runs Python code, which could let another thread change the list being read). */
typedef struct {
    PyObject *normalize;  /* unicodedata.normalize */
    PyObject *nfc;        /* "NFC", its first argument */
    Py_ssize_t normalize_calls;  /* how many strs went through it (the tests check NFC ones never do) */
} module_state;

/* Reads `source` (a sequence or an integer buffer; Arrow arrays are arrow.c's, and differ.c asks
 * it first) into `out`, using `scratch`, and keys it: str and bytes are hashed as they are read,
 * while their bytes are in cache. `side` names the list in error messages ("old"/"new").
 * Returns 0, or -1 with an exception set. O(n) C work; only a str the core's quick check cannot
 * prove NFC calls unicodedata.normalize. */
int ids_read(PyObject *source, const char *side, module_state *unicode, ids_scratch *scratch, ids *out);

/* Reads an object exposing __arrow_c_array__ (built on ids.c's scratch and error helpers, so
 * ids.c never calls it: the reader above both is differ.c). 1 when it handled `source` (0 or -1
 * with an exception), 0 when `source` is no Arrow array. */
int ids_read_arrow(PyObject *source, const char *side, module_state *unicode, ids_scratch *scratch, ids *out,
                   int *status);

/* Makes sure `scratch` holds `count` entries (keys, and offsets when `bytes`). -1 + MemoryError. */
int ids_scratch_reserve(ids_scratch *scratch, size_t count, int bytes);
void ids_scratch_free(ids_scratch *scratch);

/* Releases what ids_read took (references, buffer view). Safe on a zeroed or half-read `ids`. */
void ids_release(ids *list);

/* Grows the arena so that `size` more bytes fit after `used`. 0, or -1 with MemoryError. */
int ids_arena_grow(ids_scratch *scratch, size_t used, size_t size);

/* Appends one identifier's bytes to the arena: offsets[index + 1] = offsets[index] + size (the
 * caller sets offsets[0] = 0). Inline: it runs once per identifier. 0, or -1 with MemoryError. */
static inline int ids_arena_put(ids_scratch *scratch, size_t index, const char *data, size_t size) {
    size_t used = (size_t)scratch->offsets[index];
    if (size > scratch->arena_capacity - used && ids_arena_grow(scratch, used, size) != 0) return -1;
    if (size) memcpy(scratch->arena + used, data, size);
    scratch->offsets[index + 1] = used + size;
    return 0;
}

/* Finishes a byte list read into `scratch`: `out` points at its keys, arena and offsets. */
void ids_use_arena(ids *out, ids_scratch *scratch, int kind, size_t count);

/* The key of one identifier given as UTF-8 text: XXH3-64 of its NFC form. One pass when the core's
 * quick check (dfc_hash_if_nfc) proves the bytes NFC, which covers ASCII, Latin, Cyrillic, CJK
 * and most text in use; otherwise the text is normalized by the module state's
 * unicodedata.normalize and the NFC copy hashed. On return *bytes and *size are the bytes keyed:
 * the input's, or those of *keep, a new reference to the NFC str that the caller releases after
 * using them (NULL when the input was NFC). `text` is the str when the caller has one, else NULL
 * (the bytes are then decoded first). Returns 0; -1 with an exception (UnicodeDecodeError for
 * invalid UTF-8, MemoryError, ...). */
int ids_key_text(PyObject *text, const char *utf8, size_t length, module_state *unicode, PyObject **keep,
                 const char **bytes, size_t *size, uint64_t *key);

/* A ValueError/TypeError naming the list and the position, e.g. "new[3]: ...". */
int ids_error(PyObject *type, const char *side, size_t index, const char *message);

/* The uint32 values packed in a bytes object (section starts, refresh indices, maps). 0, or -1
 * with TypeError when it is not bytes, ValueError when its length is not whole words. O(1). */
int u32_view(PyObject *bytes, const uint32_t **values, size_t *count);

/* Registers the Differ type (created from the module, so its methods reach the module's state)
 * in the module. 0 or -1. */
int differ_register(PyObject *module);

#endif
