/*
 * ids.c — reading one list of identifiers for the core: Python lists and sequences of int, str,
 * bytes or other hashable objects, and integer buffers (numpy arrays, array.array, memoryview).
 * Arrow arrays are read by arrow.c. Nothing here runs Python code per item except key hashing of
 * generic objects and NFC normalization of text that may need it.
 */
#include "binding.h"

#include <stdlib.h>
#include <string.h>

int ids_error(PyObject *type, const char *side, size_t index, const char *message) {
    PyErr_Format(type, "%s[%zu]: %s", side, index, message);
    return -1;
}

int ids_scratch_reserve(ids_scratch *scratch, size_t count, int bytes) {
    if (count <= scratch->capacity && (!bytes || scratch->data != NULL || count == 0)) return 0;
    size_t capacity = count > scratch->capacity ? count : scratch->capacity;
    if (capacity < 16) capacity = 16;
    uint64_t *keys = realloc(scratch->keys, capacity * sizeof(uint64_t));
    if (keys == NULL) goto fail;
    scratch->keys = keys;
    if (bytes || scratch->data != NULL) {
        const char **data = realloc((void *)scratch->data, capacity * sizeof(char *));
        if (data == NULL) goto fail;
        scratch->data = data;
        size_t *size = realloc(scratch->size, capacity * sizeof(size_t));
        if (size == NULL) goto fail;
        scratch->size = size;
    }
    scratch->capacity = capacity;
    return 0;
fail:
    /* Arrays already grown keep their larger size; capacity stays what all of them hold. */
    PyErr_NoMemory();
    return -1;
}

void ids_scratch_free(ids_scratch *scratch) {
    free(scratch->keys);
    free((void *)scratch->data);
    free(scratch->size);
    memset(scratch, 0, sizeof *scratch);
}

void ids_release(ids *list) {
    Py_CLEAR(list->hold);
    Py_CLEAR(list->objects);
    if (list->has_view) {
        PyBuffer_Release(&list->view);
        list->has_view = 0;
    }
}

void ids_hash(ids *list) {
    if (!list->needs_hash) return;
    uint64_t *keys = (uint64_t *)list->keys;
    for (size_t i = 0; i < list->count; i++) keys[i] = dfc_hash_one(list->data[i], list->size[i], 0);
    list->needs_hash = 0;
}

int ids_below_combining(const char *bytes, size_t size) {
    /* U+0300 is the first combining mark; its UTF-8 lead byte is 0xCC. Every code point below
     * it is a one-byte or a 0xC2..0xCB-led two-byte sequence, and NFC leaves all of them alone. */
    const unsigned char *b = (const unsigned char *)bytes;
    for (size_t i = 0; i < size; i++)
        if (b[i] >= 0xCC) return 0;
    return 1;
}

PyObject *ids_nfc(PyObject *text) {
    static PyObject *normalize = NULL;  /* unicodedata.normalize, looked up once */
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &size);
    if (utf8 == NULL) return NULL;
    if (ids_below_combining(utf8, (size_t)size)) {
        Py_INCREF(text);
        return text;
    }
    if (normalize == NULL) {
        PyObject *module = PyImport_ImportModule("unicodedata");
        if (module == NULL) return NULL;
        normalize = PyObject_GetAttrString(module, "normalize");
        Py_DECREF(module);
        if (normalize == NULL) return NULL;
    }
    return PyObject_CallFunction(normalize, "sO", "NFC", text);
}

static const char *kind_name(int kind) {
    switch (kind) {
    case IDS_INT: return "int";
    case IDS_STR: return "str";
    case IDS_BYTES: return "bytes";
    default: return "hashable object";
    }
}

static int kind_of(PyObject *item) {
    if (PyLong_Check(item)) return IDS_INT;
    if (PyUnicode_Check(item)) return IDS_STR;
    if (PyBytes_Check(item)) return IDS_BYTES;
    return IDS_OBJECT;
}

static int mixed(const char *side, size_t index, PyObject *item, int kind) {
    PyObject *name = PyType_GetName(Py_TYPE(item));
    if (name == NULL) return -1;
    PyErr_Format(PyExc_TypeError,
                 "%s[%zu] is %U but %s[0] is %s: the identifiers of a diff must all be int, all str, "
                 "all bytes, or all other hashable objects (pass key= to map them)",
                 side, index, name, side, kind_name(kind));
    Py_DECREF(name);
    return -1;
}

/* Integer buffers: numpy integer arrays, array.array, memoryview. */
static int read_buffer(PyObject *source, const char *side, ids_scratch *scratch, ids *out) {
    if (PyObject_GetBuffer(source, &out->view, PyBUF_RECORDS_RO) != 0) return -1;
    out->has_view = 1;
    Py_buffer *view = &out->view;
    if (view->ndim != 1) {
        PyErr_Format(PyExc_TypeError, "%s: a buffer of identifiers must be one-dimensional (it has %d dimensions)",
                     side, view->ndim);
        return -1;
    }
    size_t count = (size_t)view->shape[0];
    if (count > DFC_MAX_COUNT) {
        PyErr_Format(PyExc_OverflowError, "%s holds %zu identifiers; at most %zu are supported", side, count,
                     (size_t)DFC_MAX_COUNT);
        return -1;
    }
    const char *format = view->format ? view->format : "B";
    if (*format == '@' || *format == '=' ||
        (*format == '<' && PY_LITTLE_ENDIAN) || ((*format == '>' || *format == '!') && PY_BIG_ENDIAN))
        format++;
    char code = format[0];
    if (code == 0 || format[1] != 0 || strchr("bBhHiIlLqQnN", code) == NULL) {
        PyErr_Format(PyExc_TypeError,
                     "%s: a buffer of identifiers must hold native integers (format '%s' is not supported)", side,
                     view->format ? view->format : "B");
        return -1;
    }
    int is_signed = strchr("bhilqn", code) != NULL;
    size_t width = (size_t)view->itemsize;
    Py_ssize_t stride = view->strides ? view->strides[0] : view->itemsize;
    out->kind = count ? IDS_INT : IDS_EMPTY;
    out->count = count;
    /* Contiguous int64: the core reads the caller's memory as it is. */
    if (width == 8 && stride == 8 && is_signed) {
        out->keys = (const uint64_t *)view->buf;
        return 0;
    }
    if (ids_scratch_reserve(scratch, count, 0) != 0) return -1;
    uint64_t *keys = scratch->keys;
    const char *base = view->buf;
    for (size_t i = 0; i < count; i++) {
        const char *at = base + (Py_ssize_t)i * stride;
        uint64_t value;
        switch (width) {
        case 1: value = is_signed ? (uint64_t)(int64_t)*(const int8_t *)at : *(const uint8_t *)at; break;
        case 2: { int16_t s; uint16_t u; memcpy(&s, at, 2); memcpy(&u, at, 2); value = is_signed ? (uint64_t)(int64_t)s : u; break; }
        case 4: { int32_t s; uint32_t u; memcpy(&s, at, 4); memcpy(&u, at, 4); value = is_signed ? (uint64_t)(int64_t)s : u; break; }
        case 8: memcpy(&value, at, 8); break;
        default:
            PyErr_Format(PyExc_TypeError, "%s: integers of %zu bytes are not supported", side, width);
            return -1;
        }
        /* Keys are int64 values: an unsigned value past INT64_MAX would meet a negative one. */
        if (!is_signed && width == 8 && value > (uint64_t)INT64_MAX)
            return ids_error(PyExc_OverflowError, side, i, "an unsigned identifier above 2**63 - 1 is not supported");
        keys[i] = value;
    }
    out->keys = keys;
    return 0;
}

/* How far ahead of the identifier being read its list's objects are prefetched. A shuffled
 * list's objects sit at scattered addresses, and reading one at a time waits for each cache
 * miss in turn; fetched ahead, the misses overlap. */
enum { IDS_PREFETCH_AHEAD = 16 };

/* Starts loading the object `IDS_PREFETCH_AHEAD` places after `index` in `list`, if any.
 * O(1); a hint only (nothing is read). */
static inline void prefetch_ahead(PyObject *list, size_t index, size_t count) {
#if defined(__GNUC__) || defined(__clang__)
    if (index + IDS_PREFETCH_AHEAD < count) __builtin_prefetch(PyList_GetItem(list, (Py_ssize_t)(index + IDS_PREFETCH_AHEAD)));
#else
    (void)list, (void)index, (void)count;
#endif
}

static int read_ints(PyObject *list, const char *side, size_t count, ids *out, uint64_t *keys) {
    for (size_t i = 0; i < count; i++) {
        prefetch_ahead(list, i, count);
        PyObject *item = PyList_GetItem(list, (Py_ssize_t)i);
        if (item == NULL) return -1;
        if (!PyLong_Check(item)) return mixed(side, i, item, IDS_INT);
        int overflow = 0;
        long long value = PyLong_AsLongLongAndOverflow(item, &overflow);
        if (overflow) return ids_error(PyExc_OverflowError, side, i, "an int identifier must fit in 64 signed bits");
        if (value == -1 && PyErr_Occurred()) return -1;
        keys[i] = (uint64_t)value;
    }
    out->keys = keys;
    return 0;
}

static int read_bytes(PyObject *list, const char *side, size_t count, int kind, ids *out, ids_scratch *scratch) {
    for (size_t i = 0; i < count; i++) {
        prefetch_ahead(list, i, count);
        PyObject *item = PyList_GetItem(list, (Py_ssize_t)i);
        if (item == NULL) return -1;
        if (kind_of(item) != kind) return mixed(side, i, item, kind);
        char *data;
        Py_ssize_t size;
        if (kind == IDS_BYTES) {
            if (PyBytes_AsStringAndSize(item, &data, &size) != 0) return -1;
        } else {
            PyObject *normal = ids_nfc(item);
            if (normal == NULL) {
                if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
                    PyErr_Clear();
                    return ids_error(PyExc_ValueError, side, i,
                                     "the str cannot be encoded as UTF-8 (it holds a lone surrogate)");
                }
                return -1;
            }
            if (normal != item) {
                /* The normalized copy must outlive the diff: the list holds it. */
                if (out->hold == NULL && (out->hold = PyList_New(0)) == NULL) {
                    Py_DECREF(normal);
                    return -1;
                }
                if (PyList_Append(out->hold, normal) != 0) {
                    Py_DECREF(normal);
                    return -1;
                }
            }
            data = (char *)PyUnicode_AsUTF8AndSize(normal, &size);
            Py_DECREF(normal);  /* alive through `list` or `out->hold` */
            if (data == NULL) return -1;
        }
        scratch->data[i] = data;
        scratch->size[i] = (size_t)size;
    }
    out->keys = scratch->keys;
    out->data = scratch->data;
    out->size = scratch->size;
    out->needs_hash = 1;
    return 0;
}

static int read_objects(PyObject *list, const char *side, size_t count, ids *out, uint64_t *keys) {
    for (size_t i = 0; i < count; i++) {
        PyObject *item = PyList_GetItem(list, (Py_ssize_t)i);
        if (item == NULL) return -1;
        if (kind_of(item) != IDS_OBJECT) return mixed(side, i, item, IDS_OBJECT);
        if (PyFloat_Check(item)) {
            double value = PyFloat_AsDouble(item);
            if (value != value)
                return ids_error(PyExc_ValueError, side, i, "NaN is not equal to itself, so it cannot identify anything");
        }
        Py_hash_t hash = PyObject_Hash(item);
        if (hash == -1) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyObject *name = PyType_GetName(Py_TYPE(item));
                if (name == NULL) return -1;
                PyErr_Format(PyExc_TypeError, "%s[%zu]: identifiers must be hashable (%U is not); pass key=", side,
                             i, name);
                Py_DECREF(name);
            }
            return -1;
        }
        keys[i] = (uint64_t)hash;
    }
    out->keys = keys;
    Py_INCREF(list);
    out->objects = list;
    return 0;
}

int ids_read(PyObject *source, const char *side, ids_scratch *scratch, ids *out) {
    memset(out, 0, sizeof *out);
    if (PyUnicode_Check(source)) {
        PyErr_Format(PyExc_TypeError, "%s is a str; pass a sequence of identifiers (e.g. list(text))", side);
        return -1;
    }
    if (!PyList_Check(source) && !PyTuple_Check(source) && PyObject_CheckBuffer(source))
        return read_buffer(source, side, scratch, out);
    /* A list of ints is read in one pass that runs no Python code, so nothing can change it
     * meanwhile: no copy. */
    if (PyList_Check(source) && PyList_Size(source) > 0 && kind_of(PyList_GetItem(source, 0)) == IDS_INT) {
        size_t count = (size_t)PyList_Size(source);
        if (count > DFC_MAX_COUNT) {
            PyErr_Format(PyExc_OverflowError, "%s holds %zu identifiers; at most %zu are supported", side, count,
                         (size_t)DFC_MAX_COUNT);
            return -1;
        }
        out->kind = IDS_INT;
        out->count = count;
        if (ids_scratch_reserve(scratch, count, 0) != 0) return -1;
        return read_ints(source, side, count, out, scratch->keys);
    }
    /* Other identifiers stay referenced while the GIL is released: a private copy of the list
     * holds them, and another thread cannot change it. */
    if (!PyList_Check(source) && !PyTuple_Check(source)) {
        Py_ssize_t length = PyObject_Length(source);
        if (length < 0) {
            PyErr_Clear();  /* no len(): an iterator is read in full below */
        } else if ((size_t)length > DFC_MAX_COUNT) {
            PyErr_Format(PyExc_OverflowError, "%s holds %zd identifiers; at most %zu are supported", side, length,
                         (size_t)DFC_MAX_COUNT);
            return -1;
        }
    }
    PyObject *list = PySequence_List(source);
    if (list == NULL) return -1;
    out->hold = NULL;
    Py_ssize_t length = PyList_Size(list);
    size_t count = (size_t)length;
    if (count > DFC_MAX_COUNT) {
        Py_DECREF(list);
        PyErr_Format(PyExc_OverflowError, "%s holds %zu identifiers; at most %zu are supported", side, count,
                     (size_t)DFC_MAX_COUNT);
        return -1;
    }
    out->count = count;
    if (count == 0) {
        Py_DECREF(list);
        out->kind = IDS_EMPTY;
        return 0;
    }
    int kind = kind_of(PyList_GetItem(list, 0));
    out->kind = kind;
    int result;
    if (ids_scratch_reserve(scratch, count, kind == IDS_STR || kind == IDS_BYTES) != 0) {
        result = -1;
    } else if (kind == IDS_INT) {
        result = read_ints(list, side, count, out, scratch->keys);
    } else if (kind == IDS_OBJECT) {
        result = read_objects(list, side, count, out, scratch->keys);
    } else {
        result = read_bytes(list, side, count, kind, out, scratch);
    }
    /* The copy keeps str/bytes identifiers alive while the core reads their bytes. */
    if (result == 0 && (kind == IDS_STR || kind == IDS_BYTES)) {
        if (out->hold == NULL) {
            out->hold = list;
            list = NULL;
        } else if (PyList_Append(out->hold, list) != 0) {
            result = -1;
        }
    }
    Py_XDECREF(list);
    return result;
}
