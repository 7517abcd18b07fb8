/*
 * arrow.c — reading an Arrow array through the Arrow PyCapsule interface (__arrow_c_array__):
 * pyarrow's Array, and any library that exports it. The two C structs come from the Arrow C data
 * interface specification (stable ABI); no pyarrow headers or library are needed. Strings
 * ("u"/"U"), binaries ("z"/"Z") and integers ("c"/"C"/"s"/"S"/"i"/"I"/"l"/"L") are read from
 * their buffers without a Python call per item (only text at or above U+0300 is normalized).
 */
#include "binding.h"

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

static int read_integers(const struct ArrowArray *array, char code, const char *side, ids_scratch *scratch, ids *out) {
    size_t count = (size_t)array->length;
    if (ids_scratch_reserve(scratch, count, 0) != 0) return -1;
    const char *base = array->buffers[1];
    uint64_t *keys = scratch->keys;
    for (size_t i = 0; i < count; i++) {
        size_t at = (size_t)array->offset + i;
        uint64_t value;
        switch (code) {
        case 'c': value = (uint64_t)(int64_t)((const int8_t *)base)[at]; break;
        case 'C': value = ((const uint8_t *)base)[at]; break;
        case 's': { int16_t v; memcpy(&v, base + 2 * at, 2); value = (uint64_t)(int64_t)v; break; }
        case 'S': { uint16_t v; memcpy(&v, base + 2 * at, 2); value = v; break; }
        case 'i': { int32_t v; memcpy(&v, base + 4 * at, 4); value = (uint64_t)(int64_t)v; break; }
        case 'I': { uint32_t v; memcpy(&v, base + 4 * at, 4); value = v; break; }
        default: memcpy(&value, base + 8 * at, 8); break;
        }
        if (code == 'L' && value > (uint64_t)INT64_MAX)
            return ids_error(PyExc_OverflowError, side, i, "an unsigned identifier above 2**63 - 1 is not supported");
        keys[i] = value;
    }
    out->keys = keys;
    out->kind = count ? IDS_INT : IDS_EMPTY;
    return 0;
}

static int read_binary(const struct ArrowArray *array, int large, int text, const char *side, ids_scratch *scratch,
                       ids *out) {
    size_t count = (size_t)array->length;
    if (ids_scratch_reserve(scratch, count, 1) != 0) return -1;
    const char *bytes = array->buffers[2];
    for (size_t i = 0; i < count; i++) {
        size_t at = (size_t)array->offset + i;
        int64_t start, end;
        if (large) {
            memcpy(&start, (const char *)array->buffers[1] + 8 * at, 8);
            memcpy(&end, (const char *)array->buffers[1] + 8 * (at + 1), 8);
        } else {
            int32_t s, e;
            memcpy(&s, (const char *)array->buffers[1] + 4 * at, 4);
            memcpy(&e, (const char *)array->buffers[1] + 4 * (at + 1), 4);
            start = s, end = e;
        }
        if (start < 0 || end < start) return ids_error(PyExc_ValueError, side, i, "the Arrow offsets are not ascending");
        const char *data = bytes ? bytes + start : "";
        size_t size = (size_t)(end - start);
        if (text && !ids_below_combining(data, size)) {
            /* Rare: text that NFC may change goes through unicodedata, and the copy is kept. */
            PyObject *decoded = PyUnicode_DecodeUTF8(data, (Py_ssize_t)size, "strict");
            if (decoded == NULL) {
                PyErr_Clear();
                return ids_error(PyExc_ValueError, side, i, "the Arrow string is not valid UTF-8");
            }
            PyObject *normal = ids_nfc(decoded);
            Py_DECREF(decoded);
            if (normal == NULL || hold(out, normal) != 0) {
                Py_XDECREF(normal);
                return -1;
            }
            Py_ssize_t normal_size;
            data = PyUnicode_AsUTF8AndSize(normal, &normal_size);
            Py_DECREF(normal);
            if (data == NULL) return -1;
            size = (size_t)normal_size;
        }
        scratch->data[i] = data;
        scratch->size[i] = size;
    }
    out->keys = scratch->keys;
    out->data = scratch->data;
    out->size = scratch->size;
    out->needs_hash = 1;
    out->kind = count == 0 ? IDS_EMPTY : text ? IDS_STR : IDS_BYTES;
    return 0;
}

int ids_read_arrow(PyObject *source, const char *side, ids_scratch *scratch, ids *out, int *status) {
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
    if (array->length < 0 || (size_t)array->length > DFC_MAX_COUNT) {
        PyErr_Format(PyExc_OverflowError, "%s holds %lld identifiers; at most %zu are supported", side,
                     (long long)array->length, (size_t)DFC_MAX_COUNT);
        return 1;
    }
    out->count = (size_t)array->length;
    const char *format = schema->format ? schema->format : "";
    if (check_nulls(array, side) != 0) return 1;
    if (format[0] != 0 && format[1] == 0 && strchr("cCsSiIlL", format[0]) != NULL && array->n_buffers >= 2) {
        *status = read_integers(array, format[0], side, scratch, out);
    } else if (format[0] != 0 && format[1] == 0 && strchr("uUzZ", format[0]) != NULL && array->n_buffers >= 3) {
        *status = read_binary(array, format[0] == 'U' || format[0] == 'Z', format[0] == 'u' || format[0] == 'U', side,
                              scratch, out);
    } else {
        PyErr_Format(PyExc_TypeError,
                     "%s: Arrow arrays of format '%s' are not supported (strings, binaries and integers are; "
                     "cast the array first)", side, format);
    }
    return 1;
}
