/*
 * ids.c — reading one list of identifiers for the core: Python lists and sequences of int, str,
 * bytes or other hashable objects, and integer buffers (numpy arrays, array.array, memoryview).
 * Arrow arrays are read by arrow.c. Nothing here runs Python code per item except key hashing of
 * generic objects and NFC normalization of text the core's quick check cannot prove NFC.
 *
 * Lists and tuples are read in place, item by item through the (bounds-checked) getters: an item
 * is referenced while it is read, and str/bytes are copied into the Differ's arena at once, so
 * nothing read depends on the list afterwards (another thread, or a finalizer run by a
 * collection during an allocation here, may change the list: the diff then sees some mix of its
 * states, never freed memory).
 */
#include "binding.h"

#include <stdlib.h>
#include <string.h>

int ids_error(PyObject *type, const char *side, size_t index, const char *message) {
    PyErr_Format(type, "%s[%zu]: %s", side, index, message);
    return -1;
}

int ids_scratch_reserve(ids_scratch *scratch, size_t count, int bytes) {
    if (count <= scratch->capacity && (!bytes || scratch->offsets != NULL)) return 0;
    /* Every caller checks its count first; this keeps the sizes below from overflowing anyway. */
    if (count > DFC_MAX_COUNT) {
        PyErr_Format(PyExc_OverflowError, "%zu identifiers; at most %zu are supported", count, (size_t)DFC_MAX_COUNT);
        return -1;
    }
    size_t capacity = count > scratch->capacity ? count : scratch->capacity;
    if (capacity < 16) capacity = 16;
    uint64_t *keys = realloc(scratch->keys, capacity * sizeof(uint64_t));
    if (keys == NULL) goto fail;
    scratch->keys = keys;
    if (bytes || scratch->offsets != NULL) {
        uint64_t *offsets = realloc(scratch->offsets, (capacity + 1) * sizeof(uint64_t));
        if (offsets == NULL) goto fail;
        scratch->offsets = offsets;
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
    free(scratch->offsets);
    free(scratch->arena);
    memset(scratch, 0, sizeof *scratch);
}

int ids_arena_grow(ids_scratch *scratch, size_t used, size_t size) {
    size_t capacity = scratch->arena_capacity < 4096 ? 4096 : scratch->arena_capacity;
    while (size > capacity - used) {
        if (capacity > SIZE_MAX / 2) {
            PyErr_NoMemory();
            return -1;
        }
        capacity *= 2;
    }
    char *arena = realloc(scratch->arena, capacity);
    if (arena == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    scratch->arena = arena, scratch->arena_capacity = capacity;
    return 0;
}

void ids_use_arena(ids *out, ids_scratch *scratch, int kind, size_t count) {
    out->kind = count ? kind : IDS_EMPTY;
    out->count = count;
    out->keys = scratch->keys;
    out->bytes = scratch->arena ? scratch->arena : "";
    out->offsets = scratch->offsets;
}

void ids_release(ids *list) {
    Py_CLEAR(list->hold);
    Py_CLEAR(list->objects);
    if (list->has_view) {
        PyBuffer_Release(&list->view);
        list->has_view = 0;
    }
}

/* Keys text by its UTF-8 form when that form is provably NFC: 1, or 0 when only unicodedata can
 * tell. A str (`text`, NULL for bytes from elsewhere) with as many code points as UTF-8 bytes is
 * ASCII, which is NFC, so its bytes need no look (PyUnicode_GetLength is O(1)); other text takes
 * the core's one-pass check and hash. No Python code runs. */
static inline int key_if_nfc(PyObject *text, const char *utf8, size_t length, uint64_t *key) {
    if (text != NULL && (Py_ssize_t)length == PyUnicode_GetLength(text)) {
        *key = dfc_hash_one(utf8, length, 0);
        return 1;
    }
    return dfc_hash_if_nfc(utf8, length, 0, key);
}

int ids_key_text(PyObject *text, const char *utf8, size_t length, module_state *unicode, PyObject **keep,
                 const char **bytes, size_t *size, uint64_t *key) {
    *keep = NULL;
    *bytes = utf8, *size = length;
    if (key_if_nfc(text, utf8, length, key)) return 0; /* the common case */
    PyObject *decoded = text;
    if (decoded == NULL && (decoded = PyUnicode_DecodeUTF8(utf8, (Py_ssize_t)length, "strict")) == NULL) return -1;
    unicode->normalize_calls++;
    PyObject *normal = PyObject_CallFunctionObjArgs(unicode->normalize, unicode->nfc, decoded, NULL);
    if (decoded != text) Py_DECREF(decoded);
    if (normal == NULL) return -1;
    Py_ssize_t normal_size;
    const char *normal_bytes = PyUnicode_AsUTF8AndSize(normal, &normal_size);
    if (normal_bytes == NULL) {
        Py_DECREF(normal);
        return -1;
    }
    *keep = normal;
    *bytes = normal_bytes, *size = (size_t)normal_size;
    *key = dfc_hash_one(normal_bytes, (size_t)normal_size, 0);
    return 0;
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

/* The hint for identifiers that need mapping: diff() takes key=; diff_sections() (whose sides
 * are named "old items", "new sections", ...) does not. */
static const char *key_hint(const char *side) {
    return strcmp(side, "old") == 0 || strcmp(side, "new") == 0 ? "; pass key= to map them" : "";
}

static int mixed(const char *side, size_t index, PyObject *item, int kind) {
    PyObject *name = PyType_GetName(Py_TYPE(item));
    if (name == NULL) return -1;
    PyErr_Format(PyExc_TypeError,
                 "%s[%zu] is %U but %s[0] is %s: the identifiers of a diff must all be int, all str, "
                 "all bytes, or all other hashable objects%s",
                 side, index, name, side, kind_name(kind), key_hint(side));
    Py_DECREF(name);
    return -1;
}

/* Reports a numpy array whose dtype the core does not read, by its dtype (e.g. <U5), which its
 * users know (the buffer format, '5w', they do not). Returns 0 with nothing reported when `source`
 * has no dtype. */
static int report_unsupported_dtype(PyObject *source, const char *side) {
    PyObject *dtype = PyObject_HasAttrString(source, "dtype") ? PyObject_GetAttrString(source, "dtype") : NULL;
    if (dtype == NULL) return 0;
    PyErr_Format(PyExc_TypeError,
                 "%s: a numpy array of dtype %S is not supported (integer arrays are); pass .tolist() "
                 "for strings or objects, or a pyarrow array", side, dtype);
    Py_DECREF(dtype);
    return 1;
}

/* Integer buffers: numpy integer arrays, array.array, memoryview. */
static int read_buffer(PyObject *source, const char *side, ids_scratch *scratch, ids *out) {
    if (PyObject_GetBuffer(source, &out->view, PyBUF_RECORDS_RO) != 0) {
        /* numpy refuses a buffer of some dtypes (datetime64, timedelta64) with a ValueError that
         * names neither the list nor the dtype: report it as every unsupported dtype is. */
        if (!PyErr_ExceptionMatches(PyExc_ValueError) && !PyErr_ExceptionMatches(PyExc_BufferError)) return -1;
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        if (report_unsupported_dtype(source, side)) {
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(traceback);
        } else {
            PyErr_Restore(type, value, traceback);
        }
        return -1;
    }
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
        if (!report_unsupported_dtype(source, side)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "%s: a buffer of identifiers must hold native integers (format '%s' is not supported)",
                         side, view->format ? view->format : "B");
        }
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

/* Item `index` of a list or tuple, borrowed; NULL + IndexError when the list has shrunk. */
static inline PyObject *item_at(PyObject *sequence, int is_list, size_t index) {
    return is_list ? PyList_GetItem(sequence, (Py_ssize_t)index) : PyTuple_GetItem(sequence, (Py_ssize_t)index);
}

/* How far ahead of the identifier being read its list's objects are prefetched. A shuffled
 * list's objects sit at scattered addresses, and reading one at a time waits for each cache
 * miss in turn; fetched ahead, the misses overlap. */
enum { IDS_PREFETCH_AHEAD = 16 };

/* A hint to start loading `address` (nothing is read). */
#if defined(__GNUC__) || defined(__clang__)
#define IDS_PREFETCH(address) __builtin_prefetch(address)
#else
#define IDS_PREFETCH(address) ((void)(address))
#endif

/* Starts loading the object `IDS_PREFETCH_AHEAD` places after `index`, if any. O(1). */
static inline void prefetch_ahead(PyObject *sequence, int is_list, size_t index, size_t count) {
    if (index + IDS_PREFETCH_AHEAD < count) IDS_PREFETCH(item_at(sequence, is_list, index + IDS_PREFETCH_AHEAD));
}

static int read_ints(PyObject *sequence, int is_list, const char *side, size_t count, ids *out, uint64_t *keys) {
    for (size_t i = 0; i < count; i++) {
        prefetch_ahead(sequence, is_list, i, count);
        PyObject *item = item_at(sequence, is_list, i);
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

/* One str's key and NFC bytes into the arena. 0 or -1. */
static int read_str(PyObject *item, const char *side, size_t i, module_state *unicode, ids_scratch *scratch) {
    Py_ssize_t utf8_size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(item, &utf8_size);
    PyObject *normal = NULL;
    const char *data;
    size_t size;
    if (utf8 == NULL ||
        ids_key_text(item, utf8, (size_t)utf8_size, unicode, &normal, &data, &size, &scratch->keys[i]) != 0) {
        if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            PyErr_Clear();
            return ids_error(PyExc_ValueError, side, i, "the str cannot be encoded as UTF-8 (it holds a lone surrogate)");
        }
        return -1;
    }
    int status = ids_arena_put(scratch, i, data, size);
    Py_XDECREF(normal);
    return status;
}

/* Refills `ahead` with the borrowed items from..from+IDS_PREFETCH_AHEAD (those that exist),
 * prefetching each. 0, or -1 with IndexError when the list has shrunk below `count`. */
static int fill_ahead(PyObject *sequence, int is_list, size_t from, size_t count, PyObject **ahead) {
    for (size_t k = from; k < from + IDS_PREFETCH_AHEAD && k < count; k++) {
        PyObject *item = item_at(sequence, is_list, k);
        if (item == NULL) return -1;
        ahead[k % IDS_PREFETCH_AHEAD] = item;
        IDS_PREFETCH(item);
    }
    return 0;
}

static int read_bytes(PyObject *sequence, int is_list, const char *side, size_t count, int kind, module_state *unicode,
                      ids *out, ids_scratch *scratch) {
    scratch->offsets[0] = 0;
    /* The next IDS_PREFETCH_AHEAD items, fetched (and prefetched) once each. Borrowed: valid while
     * no Python code runs, which holds on the fast path below; after a str went through
     * unicodedata (which may allocate, collect, and so run a finalizer that changes the list),
     * the ring is fetched again. */
    PyObject *ahead[IDS_PREFETCH_AHEAD];
    if (fill_ahead(sequence, is_list, 0, count, ahead) != 0) return -1;
    for (size_t i = 0; i < count; i++) {
        PyObject *item = ahead[i % IDS_PREFETCH_AHEAD];
        if (i + IDS_PREFETCH_AHEAD < count) {
            PyObject *next = item_at(sequence, is_list, i + IDS_PREFETCH_AHEAD);
            if (next == NULL) return -1;
            ahead[i % IDS_PREFETCH_AHEAD] = next;
            IDS_PREFETCH(next);
        }
        /* The exact type first: a pointer compare, where kind_of asks for the type's flags. */
        if (!Py_IS_TYPE(item, kind == IDS_STR ? &PyUnicode_Type : &PyBytes_Type) && kind_of(item) != kind)
            return mixed(side, i, item, kind);
        int status;
        if (kind == IDS_BYTES) {
            char *data;
            Py_ssize_t size;
            if (PyBytes_AsStringAndSize(item, &data, &size) != 0) return -1;
            scratch->keys[i] = dfc_hash_one(data, (size_t)size, 0);
            status = ids_arena_put(scratch, i, data, (size_t)size);
        } else {
            Py_ssize_t utf8_size;
            const char *utf8 = PyUnicode_AsUTF8AndSize(item, &utf8_size);
            if (utf8 != NULL && key_if_nfc(item, utf8, (size_t)utf8_size, &scratch->keys[i])) {
                /* The common case: proven NFC and keyed; no Python code ran. */
                status = ids_arena_put(scratch, i, utf8, (size_t)utf8_size);
            } else {
                PyErr_Clear();  /* read_str asks again and reports it */
                Py_INCREF(item);
                status = read_str(item, side, i, unicode, scratch);
                Py_DECREF(item);
                if (status == 0) status = fill_ahead(sequence, is_list, i + 1, count, ahead);
            }
        }
        if (status != 0) return -1;
    }
    ids_use_arena(out, scratch, kind, count);
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
                PyErr_Format(PyExc_TypeError, "%s[%zu]: identifiers must be hashable (%U is not)%s", side, i,
                             name, key_hint(side));
                Py_DECREF(name);
            }
            return -1;
        }
        keys[i] = (uint64_t)hash;
    }
    out->keys = keys;
    return 0;
}

static int too_many(const char *side, size_t count) {
    PyErr_Format(PyExc_OverflowError, "%s holds %zu identifiers; at most %zu are supported", side, count,
                 (size_t)DFC_MAX_COUNT);
    return -1;
}

/* Sources whose order means nothing are refused rather than diffed in an arbitrary order. */
static int unordered(PyObject *source, const char *side) {
    if (!PyAnySet_Check(source)) return 0;
    PyObject *name = PyType_GetName(Py_TYPE(source));
    if (name == NULL) return -1;
    PyErr_Format(PyExc_TypeError,
                 "%s is a %U: its iteration order is arbitrary, so moves between two of them mean nothing; "
                 "pass an ordered sequence (e.g. sorted(%s))", side, name, side);
    Py_DECREF(name);
    return -1;
}

int ids_read(PyObject *source, const char *side, module_state *unicode, ids_scratch *scratch, ids *out) {
    memset(out, 0, sizeof *out);
    if (PyUnicode_Check(source)) {
        PyErr_Format(PyExc_TypeError, "%s is a str; pass a sequence of identifiers (e.g. list(text))", side);
        return -1;
    }
    if (unordered(source, side)) return -1;
    int is_list = PyList_Check(source);
    if (!is_list && !PyTuple_Check(source) && PyObject_CheckBuffer(source))
        return read_buffer(source, side, scratch, out);
    /* Lists and tuples are read in place; anything else is first copied into a list. */
    PyObject *sequence = source, *copy = NULL;
    if (!is_list && !PyTuple_Check(source)) {
        Py_ssize_t length = PyObject_Length(source);
        if (length < 0) {
            PyErr_Clear();  /* no len(): an iterator is read in full below */
        } else if ((size_t)length > DFC_MAX_COUNT) {
            return too_many(side, (size_t)length);
        }
        if ((sequence = copy = PySequence_List(source)) == NULL) return -1;
        is_list = 1;
    }
    size_t count = (size_t)(is_list ? PyList_Size(sequence) : PyTuple_Size(sequence));
    int result = 0, kind = IDS_EMPTY;
    if (count > DFC_MAX_COUNT) {
        result = too_many(side, count);
    } else if (count > 0) {
        kind = kind_of(item_at(sequence, is_list, 0));
        if (ids_scratch_reserve(scratch, count, kind == IDS_STR || kind == IDS_BYTES) != 0) {
            result = -1;
        } else if (kind == IDS_INT) {
            result = read_ints(sequence, is_list, side, count, out, scratch->keys);
        } else if (kind == IDS_OBJECT) {
            /* == runs while the core diffs (GIL held): the identifiers must stay as read, so a
             * list is copied (a tuple cannot change). */
            if (copy == NULL && (copy = PySequence_List(sequence)) == NULL) return -1;
            sequence = copy;
            result = read_objects(sequence, side, count, out, scratch->keys);
            if (result == 0) out->objects = Py_NewRef(sequence);
        } else {
            result = read_bytes(sequence, is_list, side, count, kind, unicode, out, scratch);
        }
    }
    out->kind = kind;
    out->count = count;
    Py_XDECREF(copy);
    return result;
}
