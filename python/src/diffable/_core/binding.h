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
#include <dfc.h>

/* What one list of identifiers holds; both lists of a diff must agree (EMPTY fits any). */
enum { IDS_EMPTY = 0, IDS_INT, IDS_STR, IDS_BYTES, IDS_OBJECT };

/* Grow-only arrays a Differ keeps between diffs (one per list), so a warm Differ reuses them. */
typedef struct {
    uint64_t *keys;
    const char **data;   /* byte identifiers: start of each identifier's bytes */
    size_t *size;        /* byte identifiers: their lengths */
    size_t capacity;
} ids_scratch;

/* One list read for the core. `keys` may point into a caller's buffer (int64 arrays). */
typedef struct {
    int kind;
    size_t count;
    const uint64_t *keys;
    const char *const *data;
    const size_t *size;
    int needs_hash;      /* byte identifiers are keyed after the GIL is released */
    PyObject *hold;      /* a list of objects that keep the identifiers (and their bytes) alive */
    PyObject *objects;   /* IDS_OBJECT: the identifiers, for == */
    Py_buffer view;
    int has_view;
} ids;

/* Reads `source` (a sequence or an integer buffer; Arrow arrays are arrow.c's, and differ.c asks
 * it first) into `out`, using `scratch`. `side` names the list in error messages ("old"/"new").
 * Returns 0, or -1 with an exception set. O(n) C work; str identifiers that are not ASCII-like
 * may call unicodedata.normalize. */
int ids_read(PyObject *source, const char *side, ids_scratch *scratch, ids *out);

/* Reads an object exposing __arrow_c_array__ (built on ids.c's scratch and error helpers, so
 * ids.c never calls it: the reader above both is differ.c). 1 when it handled `source` (0 or -1
 * with an exception), 0 when `source` is no Arrow array. */
int ids_read_arrow(PyObject *source, const char *side, ids_scratch *scratch, ids *out, int *status);

/* Makes sure `scratch` holds `count` entries (keys, and data/size when `bytes`). -1 + MemoryError. */
int ids_scratch_reserve(ids_scratch *scratch, size_t count, int bytes);
void ids_scratch_free(ids_scratch *scratch);

/* Releases what ids_read took (references, buffer view). Safe on a zeroed or half-read `ids`. */
void ids_release(ids *list);

/* The XXH3 keys of a byte list (no Python calls: run it without the GIL). O(total bytes). */
void ids_hash(ids *list);

/* NFC-normalizes one str when it may need it: returns a new reference to the str whose UTF-8 is
 * the identifier (the same object for ASCII and other text below U+0300), NULL + exception. */
PyObject *ids_nfc(PyObject *text);

/* 1 when the UTF-8 bytes hold only code points below U+0300, which NFC leaves unchanged. */
int ids_below_combining(const char *bytes, size_t size);

/* A ValueError/TypeError naming the list and the position, e.g. "new[3]: ...". */
int ids_error(PyObject *type, const char *side, size_t index, const char *message);

/* The uint32 values packed in a bytes object (section starts, refresh indices, maps). 0, or -1
 * with TypeError when it is not bytes. O(1). */
int u32_view(PyObject *bytes, const uint32_t **values, size_t *count);

/* Registers the Differ type and its helpers in the module. 0 or -1. */
int differ_register(PyObject *module);

#endif
