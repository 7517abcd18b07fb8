/*
 * arrow.c — reading an Arrow array through the Arrow PyCapsule interface (__arrow_c_array__):
 * pyarrow's Array, polars' Series (to_arrow) and any library that exports it. The two C structs
 * come from the Arrow C data interface specification (stable ABI); no pyarrow headers or library
 * are needed. Strings ("u"/"U"), string views ("vu"), binaries ("z"/"Z"/"vz"), integers
 * ("c"/"C"/"s"/"S"/"i"/"I"/"l"/"L") and dictionary-encoded arrays of any of them are read from
 * their buffers without a Python call per item (only text the core's NFC quick check cannot prove
 * NFC is normalized).
 *
 * The exporter is trusted for what the interface cannot check (that each buffer is as long as
 * the lengths and offsets say); offsets, view buffer numbers and dictionary indices are checked.
 */
#include "binding.h"

#include <stdio.h>
#include <string.h>

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

static int hold(ids *out, PyObject *object) {
    if (out->hold == NULL && (out->hold = PyList_New(0)) == NULL) return -1;
    return PyList_Append(out->hold, object);
}

/* -1 with ValueError at the first null, 0 when there is none. */
static int check_nulls(const struct ArrowArray *array, const char *side) {
    if (array->null_count == 0 || array->n_buffers < 1 || array->buffers[0] == NULL) return 0;
    const uint8_t *validity = array->buffers[0];
    for (int64_t i = 0; i < array->length; i++) {
        int64_t bit = array->offset + i;
        if (!(validity[bit >> 3] & (1u << (bit & 7))))
            return ids_error(PyExc_ValueError, side, (size_t)i, "a null cannot identify anything");
    }
    return 0;
}

/* Integer `at` of a buffer of Arrow integer format `code` ('c' int8 ... 'L' uint64), as int64 bits. */
static uint64_t integer_at(const char *base, char code, size_t at) {
    switch (code) {
    case 'c': return (uint64_t)(int64_t)((const int8_t *)base)[at];
    case 'C': return ((const uint8_t *)base)[at];
    case 's': { int16_t v; memcpy(&v, base + 2 * at, 2); return (uint64_t)(int64_t)v; }
    case 'S': { uint16_t v; memcpy(&v, base + 2 * at, 2); return v; }
    case 'i': { int32_t v; memcpy(&v, base + 4 * at, 4); return (uint64_t)(int64_t)v; }
    case 'I': { uint32_t v; memcpy(&v, base + 4 * at, 4); return v; }
    default: { uint64_t v; memcpy(&v, base + 8 * at, 8); return v; }
    }
}

static int is_integer_format(const char *format) {
    return format[0] != 0 && format[1] == 0 && strchr("cCsSiIlL", format[0]) != NULL;
}

static int read_integers(const struct ArrowArray *array, char code, const char *side, ids_scratch *scratch, ids *out) {
    size_t count = (size_t)array->length;
    if (ids_scratch_reserve(scratch, count, 0) != 0) return -1;
    const char *base = array->buffers[1];
    uint64_t *keys = scratch->keys;
    for (size_t i = 0; i < count; i++) {
        uint64_t value = integer_at(base, code, (size_t)array->offset + i);
        if (code == 'L' && value > (uint64_t)INT64_MAX)
            return ids_error(PyExc_OverflowError, side, i, "an unsigned identifier above 2**63 - 1 is not supported");
        keys[i] = value;
    }
    out->keys = keys;
    out->kind = count ? IDS_INT : IDS_EMPTY;
    out->count = count;
    return 0;
}

/* One identifier's key and (NFC) bytes into the scratch. 0 or -1. */
static int put_bytes(const char *data, size_t size, int text, const char *side, size_t i, module_state *unicode,
                     ids_scratch *scratch) {
    PyObject *normal = NULL;
    if (text) {
        /* One pass checks NFC and hashes; only text it cannot prove NFC is decoded and normalized. */
        if (ids_key_text(NULL, data, size, unicode, &normal, &data, &size, &scratch->keys[i]) != 0) {
            if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
                PyErr_Clear();
                return ids_error(PyExc_ValueError, side, i, "the Arrow string is not valid UTF-8");
            }
            return -1;
        }
    } else {
        scratch->keys[i] = dfc_hash_one(data, size, 0);
    }
    int status = ids_arena_put(scratch, i, data, size);
    Py_XDECREF(normal);
    return status;
}

/* string / large_string / binary / large_binary: offsets (32 or 64 bits) into one data buffer. */
static int read_binary(const struct ArrowArray *array, int large, int text, const char *side, module_state *unicode,
                       ids_scratch *scratch, ids *out) {
    size_t count = (size_t)array->length;
    if (ids_scratch_reserve(scratch, count, 1) != 0) return -1;
    scratch->offsets[0] = 0;
    const char *bytes = array->buffers[2];
    const char *offsets = array->buffers[1];
    for (size_t i = 0; i < count; i++) {
        size_t at = (size_t)array->offset + i;
        int64_t start, end;
        if (large) {
            memcpy(&start, offsets + 8 * at, 8);
            memcpy(&end, offsets + 8 * (at + 1), 8);
        } else {
            int32_t s, e;
            memcpy(&s, offsets + 4 * at, 4);
            memcpy(&e, offsets + 4 * (at + 1), 4);
            start = s, end = e;
        }
        if (start < 0 || end < start) return ids_error(PyExc_ValueError, side, i, "the Arrow offsets are not ascending");
        if (put_bytes(bytes ? bytes + start : "", (size_t)(end - start), text, side, i, unicode, scratch) != 0)
            return -1;
    }
    ids_use_arena(out, scratch, text ? IDS_STR : IDS_BYTES, count);
    return 0;
}

/* string_view / binary_view: 16-byte views, each an int32 length and either the bytes inline
 * (12 or fewer) or a 4-byte prefix, an int32 buffer number and an int32 offset into that data
 * buffer (buffers[2 + number]; the last buffer holds the data buffers' sizes). */
static int read_views(const struct ArrowArray *array, int text, const char *side, module_state *unicode,
                      ids_scratch *scratch, ids *out) {
    size_t count = (size_t)array->length;
    if (array->n_buffers < 3) {
        PyErr_Format(PyExc_ValueError, "%s: an Arrow view array needs at least 3 buffers (it has %lld)", side,
                     (long long)array->n_buffers);
        return -1;
    }
    int64_t data_buffers = array->n_buffers - 3;
    const int64_t *buffer_sizes = array->buffers[array->n_buffers - 1];
    if (ids_scratch_reserve(scratch, count, 1) != 0) return -1;
    scratch->offsets[0] = 0;
    const char *views = array->buffers[1];
    for (size_t i = 0; i < count; i++) {
        const char *view = views + 16 * ((size_t)array->offset + i);
        int32_t length;
        memcpy(&length, view, 4);
        if (length < 0) return ids_error(PyExc_ValueError, side, i, "the Arrow view has a negative length");
        const char *data;
        if (length <= 12) {
            data = view + 4;
        } else {
            int32_t number, offset;
            memcpy(&number, view + 8, 4);
            memcpy(&offset, view + 12, 4);
            int64_t size = number >= 0 && number < data_buffers && buffer_sizes ? buffer_sizes[number] : -1;
            if (offset < 0 || size < 0 || (int64_t)offset + length > size || array->buffers[2 + number] == NULL)
                return ids_error(PyExc_ValueError, side, i, "the Arrow view points outside its data buffers");
            data = (const char *)array->buffers[2 + number] + offset;
        }
        if (put_bytes(data, (size_t)length, text, side, i, unicode, scratch) != 0) return -1;
    }
    ids_use_arena(out, scratch, text ? IDS_STR : IDS_BYTES, count);
    return 0;
}

static int read_values(const struct ArrowSchema *schema, const struct ArrowArray *array, const char *side,
                       module_state *unicode, ids_scratch *scratch, ids *out);

/* Dictionary-encoded: the dictionary is keyed once, then each index takes its entry's key and
 * bytes, so a value repeated under many indices is hashed once (and reported as a duplicate by
 * the core like any other). */
static int read_dictionary(const struct ArrowSchema *schema, const struct ArrowArray *array, const char *side,
                           module_state *unicode, ids_scratch *scratch, ids *out) {
    const char *format = schema->format ? schema->format : "";
    if (!is_integer_format(format) || array->n_buffers < 2 || array->dictionary == NULL) {
        PyErr_Format(PyExc_TypeError, "%s: an Arrow dictionary array with indices of format '%s' is not supported",
                     side, format);
        return -1;
    }
    char what[64];
    snprintf(what, sizeof what, "%s's dictionary", side);
    ids_scratch entries = {0};
    ids dictionary;
    memset(&dictionary, 0, sizeof dictionary);
    int status = read_values(schema->dictionary, array->dictionary, what, unicode, &entries, &dictionary);
    size_t count = (size_t)array->length, size = dictionary.count;
    int bytes = dictionary.kind == IDS_STR || dictionary.kind == IDS_BYTES;
    if (status == 0) status = ids_scratch_reserve(scratch, count, bytes);
    if (status == 0 && bytes) scratch->offsets[0] = 0;
    for (size_t i = 0; status == 0 && i < count; i++) {
        uint64_t index = integer_at(array->buffers[1], format[0], (size_t)array->offset + i);
        if (index >= size) {
            status = ids_error(PyExc_ValueError, side, i, "the dictionary index is out of range");
            break;
        }
        scratch->keys[i] = dictionary.keys[index];
        if (bytes)
            status = ids_arena_put(scratch, i, dictionary.bytes + dictionary.offsets[index],
                                   (size_t)(dictionary.offsets[index + 1] - dictionary.offsets[index]));
    }
    if (status == 0) {
        if (bytes) {
            ids_use_arena(out, scratch, dictionary.kind, count);
        } else {
            out->keys = scratch->keys;
            out->kind = count ? IDS_INT : IDS_EMPTY;
            out->count = count;
        }
    }
    ids_release(&dictionary);
    ids_scratch_free(&entries);
    return status;
}

static int read_values(const struct ArrowSchema *schema, const struct ArrowArray *array, const char *side,
                       module_state *unicode, ids_scratch *scratch, ids *out) {
    if (schema == NULL || array == NULL) {
        PyErr_Format(PyExc_ValueError, "%s: the Arrow array is incomplete (no schema or no data)", side);
        return -1;
    }
    if (array->length < 0 || (size_t)array->length > DFC_MAX_COUNT || array->offset < 0) {
        PyErr_Format(PyExc_OverflowError, "%s holds %lld identifiers; at most %zu are supported", side,
                     (long long)array->length, (size_t)DFC_MAX_COUNT);
        return -1;
    }
    if (check_nulls(array, side) != 0) return -1;
    const char *format = schema->format ? schema->format : "";
    if (schema->dictionary != NULL) return read_dictionary(schema, array, side, unicode, scratch, out);
    if (is_integer_format(format) && array->n_buffers >= 2)
        return read_integers(array, format[0], side, scratch, out);
    if (format[0] != 0 && format[1] == 0 && strchr("uUzZ", format[0]) != NULL && array->n_buffers >= 3)
        return read_binary(array, format[0] == 'U' || format[0] == 'Z', format[0] == 'u' || format[0] == 'U', side,
                           unicode, scratch, out);
    if (format[0] == 'v' && (format[1] == 'u' || format[1] == 'z') && format[2] == 0)
        return read_views(array, format[1] == 'u', side, unicode, scratch, out);
    PyErr_Format(PyExc_TypeError,
                 "%s: Arrow arrays of format '%s' are not supported (strings, string views, binaries, integers "
                 "and dictionaries of them are; cast the array first)", side, format);
    return -1;
}

int ids_read_arrow(PyObject *source, const char *side, module_state *unicode, ids_scratch *scratch, ids *out,
                   int *status) {
    if (!PyObject_HasAttrString(source, "__arrow_c_array__")) return 0;
    *status = -1;
    PyObject *pair = PyObject_CallMethod(source, "__arrow_c_array__", NULL);
    if (pair == NULL) return 1;
    /* The capsules release the Arrow structs when they die: holding them keeps the buffers alive. */
    if (hold(out, pair) != 0) {
        Py_DECREF(pair);
        return 1;
    }
    Py_DECREF(pair);
    PyObject *schema_capsule = PyTuple_Check(pair) && PyTuple_Size(pair) == 2 ? PyTuple_GetItem(pair, 0) : NULL;
    PyObject *array_capsule = schema_capsule ? PyTuple_GetItem(pair, 1) : NULL;
    if (array_capsule == NULL) {
        PyErr_Format(PyExc_TypeError, "%s: __arrow_c_array__ did not return (schema, array) capsules", side);
        return 1;
    }
    const struct ArrowSchema *schema = PyCapsule_GetPointer(schema_capsule, "arrow_schema");
    const struct ArrowArray *array = schema ? PyCapsule_GetPointer(array_capsule, "arrow_array") : NULL;
    if (array == NULL) return 1;
    *status = read_values(schema, array, side, unicode, scratch, out);
    return 1;
}
