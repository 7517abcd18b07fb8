/*
 * differ.c — the Differ type: one dfc_context (warm buffers reused by every diff), the key arrays
 * of the lists it read last, and the calls into the core. The GIL is released while the core
 * diffs (not for generic objects, whose == is Python code); str and bytes were hashed and copied
 * into the Differ's arenas while read, so the core touches no Python object meanwhile. Results
 * leave as bytes of 32-bit integers; the Python layer wraps them (diffable/_result.py).
 */
#include "binding.h"

#include <string.h>
#include <time.h>

typedef struct {
    PyObject_HEAD
    dfc_context *context;
    ids_scratch scratch[4];  /* old items, new items, old sections, new sections */
    int busy;                /* set while a call runs (the GIL may be released) */
} Differ;

/* Identity of one pair of lists, handed to the core's equality callback. */
typedef struct {
    const ids *lists[2];
    int failed;  /* a Python == raised: the error is pending */
} identity;

static int equal_objects(void *user_data, int a_side, uint32_t a, int b_side, uint32_t b) {
    identity *pair = user_data;
    if (pair->failed) return 0;
    PyObject *x = PyList_GetItem(pair->lists[a_side]->objects, a);
    PyObject *y = PyList_GetItem(pair->lists[b_side]->objects, b);
    int same = x && y ? PyObject_RichCompareBool(x, y, Py_EQ) : -1;
    if (same < 0) {
        pair->failed = 1;
        return 0;
    }
    return same;
}

static const char *kind_label(int kind) {
    static const char *labels[] = {"empty", "int", "str", "bytes", "hashable object"};
    return labels[kind];
}

/* The match policy of a pair of lists: their kinds must agree (an empty list fits any). */
static int pair_match(const char *what, identity *pair, dfc_match *match) {
    int a = pair->lists[0]->kind, b = pair->lists[1]->kind;
    if (a != IDS_EMPTY && b != IDS_EMPTY && a != b) {
        PyErr_Format(PyExc_TypeError, "old %s are %s identifiers but new %s are %s; both lists must hold one kind",
                     what, kind_label(a), what, kind_label(b));
        return -1;
    }
    int kind = a != IDS_EMPTY ? a : b;
    /* ints are their keys; str and bytes keys are confirmed by the core on the arenas' bytes
     * (no Python, no callback); other objects by their ==. */
    match->kind = kind == IDS_OBJECT ? DFC_MATCH_CALLBACK
                  : kind == IDS_STR || kind == IDS_BYTES ? DFC_MATCH_BYTES : DFC_MATCH_INJECTIVE;
    match->equal = kind == IDS_OBJECT ? equal_objects : NULL;
    match->user_data = pair;
    return kind;
}

static int enter(Differ *self) {
    if (self->busy) {
        /* Busy in another thread, or re-entered from Python code it runs (a key function, an
         * __eq__ or __hash__) in this one. */
        PyErr_SetString(PyExc_RuntimeError,
                        "this Differ is already diffing, in another thread or in code of this diff (an __eq__ or "
                        "__hash__); use one Differ per thread, and another one inside such code");
        return -1;
    }
    if (self->context == NULL && (self->context = dfc_context_create(NULL)) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->busy = 1;
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static PyObject *u32_bytes(const void *values, size_t count, size_t width) {
    return PyBytes_FromStringAndSize(count ? values : "", (Py_ssize_t)(count * width));
}

/* Pairs (a[i], b[i]) interleaved as bytes. */
static PyObject *u32_pairs(const uint32_t *a, const uint32_t *b, size_t count) {
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * 8));
    if (bytes == NULL) return NULL;
    uint32_t *out = (uint32_t *)PyBytes_AsString(bytes);
    for (size_t i = 0; i < count; i++) out[2 * i] = a[i], out[2 * i + 1] = b[i];
    return bytes;
}

static PyObject *duplicates(Differ *self) {
    size_t count = 0;
    const dfc_duplicate *found = dfc_context_duplicates(self->context, &count);
    PyObject *list = PyList_New((Py_ssize_t)count);
    if (list == NULL) return NULL;
    for (size_t i = 0; i < count; i++) {
        PyObject *entry = Py_BuildValue("(iiII)", found[i].side, found[i].is_section, found[i].first,
                                        found[i].duplicate);
        if (entry == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, (Py_ssize_t)i, entry);
    }
    return Py_BuildValue("(sN)", "duplicates", list);
}

static PyObject *status_error(int status) {
    if (status == DFC_ERR_OUT_OF_MEMORY) return PyErr_NoMemory();
    if (status == DFC_ERR_TOO_LARGE) return PyErr_Format(PyExc_OverflowError, "%s", dfc_status_string(status));
    return PyErr_Format(PyExc_ValueError, "%s", dfc_status_string(status));
}

static void release_all(ids *lists, size_t count) {
    for (size_t i = 0; i < count; i++) ids_release(&lists[i]);
}

/* Differ._diff(old, new) -> ("ok", deletes, inserts, moves, old_to_new, new_to_old, matched,
 * core_seconds) or ("duplicates", [(side, is_section, first, duplicate)]). */
/* One side's identifiers from any source: an Arrow array (arrow.c), else a sequence or buffer
 * (ids.c). Kept here, above both files, so that neither calls the other. 0 or -1. */
static int read_identifiers(Differ *self, PyObject *source, const char *side, ids_scratch *scratch, ids *out) {
    memset(out, 0, sizeof *out);
    module_state *state = PyType_GetModuleState(Py_TYPE((PyObject *)self));
    if (state == NULL) return -1;
    int status = 0;
    if (!PyUnicode_Check(source) && ids_read_arrow(source, side, state, scratch, out, &status)) return status;
    return ids_read(source, side, state, scratch, out);
}

/* The core's view of one list read: keys, and for str/bytes the arena and its offsets. */
static dfc_list core_list(const ids *list) {
    int bytes = list->kind == IDS_STR || list->kind == IDS_BYTES;
    return (dfc_list){list->keys, list->count, bytes ? list->bytes : NULL, bytes ? list->offsets : NULL};
}

static PyObject *differ_diff(Differ *self, PyObject *args) {
    PyObject *old_source, *new_source;
    if (!PyArg_ParseTuple(args, "OO", &old_source, &new_source)) return NULL;
    if (enter(self) != 0) return NULL;
    ids lists[2];
    memset(lists, 0, sizeof lists);
    PyObject *result = NULL;
    identity pair = {{&lists[0], &lists[1]}, 0};
    dfc_match match;
    if (read_identifiers(self, old_source, "old", &self->scratch[0], &lists[0]) != 0) goto done;
    if (read_identifiers(self, new_source, "new", &self->scratch[1], &lists[1]) != 0) goto done;
    int kind = pair_match("identifiers", &pair, &match);
    if (kind < 0) goto done;
    dfc_list old_list = core_list(&lists[0]), new_list = core_list(&lists[1]);
    dfc_flat_result r;
    int status;
    double started = now();
    if (kind == IDS_OBJECT) {
        status = dfc_diff_flat(self->context, &old_list, &new_list, &match, 0, &r);
    } else {
        Py_BEGIN_ALLOW_THREADS
        status = dfc_diff_flat(self->context, &old_list, &new_list, &match, 0, &r);
        Py_END_ALLOW_THREADS
    }
    double seconds = now() - started;
    if (pair.failed) goto done;
    if (status == DFC_ERR_DUPLICATE) {
        result = duplicates(self);
    } else if (status != DFC_OK) {
        status_error(status);
    } else {
        result = Py_BuildValue("(sNNNNNnd)", "ok", u32_bytes(r.deletes, r.delete_count, 4),
                               u32_bytes(r.inserts, r.insert_count, 4), u32_pairs(r.move_from, r.move_to, r.move_count),
                               u32_bytes(r.old_to_new, r.old_count, 4), u32_bytes(r.new_to_old, r.new_count, 4),
                               (Py_ssize_t)r.matched, seconds);
    }
done:
    release_all(lists, 2);
    self->busy = 0;
    return result;
}

int u32_view(PyObject *bytes, const uint32_t **values, size_t *count) {
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(bytes, &data, &size) != 0) return -1;
    if (size % 4) {
        PyErr_Format(PyExc_ValueError, "an index array of %zd bytes is not whole 32-bit words", size);
        return -1;
    }
    *values = (const uint32_t *)data;
    *count = (size_t)size / 4;
    return 0;
}

static PyObject *paths(const dfc_index_path *p, size_t count) {
    return u32_bytes(p, count, sizeof(dfc_index_path));
}

static PyObject *path_moves(const dfc_index_path *from, const dfc_index_path *to, size_t count) {
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * 16));
    if (bytes == NULL) return NULL;
    uint32_t *out = (uint32_t *)PyBytes_AsString(bytes);
    for (size_t i = 0; i < count; i++)
        out[4 * i] = from[i].section, out[4 * i + 1] = from[i].item, out[4 * i + 2] = to[i].section,
        out[4 * i + 3] = to[i].item;
    return bytes;
}

static PyObject *batch_tuple(const dfc_batch *b) {
    return Py_BuildValue("(NNNNNNNNN)", u32_bytes(b->delete_sections, b->delete_section_count, 4),
                         u32_bytes(b->insert_sections, b->insert_section_count, 4),
                         u32_pairs(b->move_section_from, b->move_section_to, b->move_section_count),
                         u32_bytes(b->reload_sections, b->reload_section_count, 4),
                         paths(b->delete_items, b->delete_item_count), paths(b->insert_items, b->insert_item_count),
                         path_moves(b->move_item_from, b->move_item_to, b->move_item_count),
                         paths(b->reload_items, b->reload_item_count),
                         paths(b->reconfigure_items, b->reconfigure_item_count));
}

/* Differ._diff_sections(old_sections, old_items, old_starts, new_sections, new_items, new_starts,
 * reload_items, reconfigure_items, reload_sections) -> ("ok", structural or None, refresh or None,
 * old_item_to_new, new_item_to_old, old_section_to_new, new_section_to_old, core_seconds)
 * or ("duplicates", [...]). Starts and refresh indices are bytes of uint32. */
static PyObject *differ_diff_sections(Differ *self, PyObject *args) {
    PyObject *sources[4], *starts[2], *refresh_bytes[3];
    if (!PyArg_ParseTuple(args, "OOSOOSSSS", &sources[2], &sources[0], &starts[0], &sources[3], &sources[1],
                          &starts[1], &refresh_bytes[0], &refresh_bytes[1], &refresh_bytes[2]))
        return NULL;
    if (enter(self) != 0) return NULL;
    ids lists[4];
    memset(lists, 0, sizeof lists);
    PyObject *result = NULL;
    /* An item's index counts across sections (the items of every section, in order). */
    static const char *names[4] = {"old items", "new items", "old sections", "new sections"};
    for (int i = 0; i < 4; i++)
        if (read_identifiers(self, sources[i], names[i], &self->scratch[i], &lists[i]) != 0) goto done;
    identity items = {{&lists[0], &lists[1]}, 0}, sections = {{&lists[2], &lists[3]}, 0};
    dfc_match item_match, section_match;
    int item_kind = pair_match("items", &items, &item_match);
    if (item_kind < 0) goto done;
    int section_kind = pair_match("sections", &sections, &section_match);
    if (section_kind < 0) goto done;
    const uint32_t *start_values[2];
    size_t start_counts[2];
    for (int side = 0; side < 2; side++) {
        if (u32_view(starts[side], &start_values[side], &start_counts[side]) != 0) goto done;
        if (start_counts[side] != lists[2 + side].count + 1) {
            PyErr_SetString(PyExc_ValueError, "section starts must hold one entry per section, plus one");
            goto done;
        }
    }
    dfc_refresh refresh;
    if (u32_view(refresh_bytes[0], &refresh.reload_items, &refresh.reload_item_count) != 0 ||
        u32_view(refresh_bytes[1], &refresh.reconfigure_items, &refresh.reconfigure_item_count) != 0 ||
        u32_view(refresh_bytes[2], &refresh.reload_sections, &refresh.reload_section_count) != 0)
        goto done;
    dfc_snapshot snapshots[2];
    for (int side = 0; side < 2; side++) {
        snapshots[side].sections = core_list(&lists[2 + side]);
        snapshots[side].items = core_list(&lists[side]);
        snapshots[side].section_starts = start_values[side];
    }
    dfc_sections_result r;
    int status;
    double started = now();
    if (item_kind == IDS_OBJECT || section_kind == IDS_OBJECT) {
        status = dfc_diff_sections(self->context, &snapshots[0], &snapshots[1], &refresh, &section_match, &item_match,
                                   0, &r);
    } else {
        Py_BEGIN_ALLOW_THREADS
        status = dfc_diff_sections(self->context, &snapshots[0], &snapshots[1], &refresh, &section_match, &item_match,
                                   0, &r);
        Py_END_ALLOW_THREADS
    }
    double seconds = now() - started;
    if (items.failed || sections.failed) goto done;
    if (status == DFC_ERR_DUPLICATE) {
        result = duplicates(self);
    } else if (status != DFC_OK) {
        status_error(status);
    } else {
        PyObject *structural = r.has_structural ? batch_tuple(&r.structural) : Py_NewRef(Py_None);
        PyObject *fresh = r.has_refresh ? batch_tuple(&r.refresh) : Py_NewRef(Py_None);
        result = Py_BuildValue("(sNNNNNNd)", "ok", structural, fresh, u32_bytes(r.old_item_to_new, lists[0].count, 4),
                               u32_bytes(r.new_item_to_old, lists[1].count, 4),
                               u32_bytes(r.old_section_to_new, lists[2].count, 4),
                               u32_bytes(r.new_section_to_old, lists[3].count, 4), seconds);
    }
done:
    release_all(lists, 4);
    self->busy = 0;
    return result;
}

static PyObject *differ_reserve(Differ *self, PyObject *args) {
    Py_ssize_t old_count, new_count;
    if (!PyArg_ParseTuple(args, "nn", &old_count, &new_count)) return NULL;
    if (old_count < 0 || new_count < 0) return PyErr_Format(PyExc_ValueError, "counts must not be negative");
    if (enter(self) != 0) return NULL;
    int status = dfc_context_reserve(self->context, (size_t)old_count, (size_t)new_count);
    int failed = status == DFC_OK ? 0 : -1;
    if (!failed) failed = ids_scratch_reserve(&self->scratch[0], (size_t)old_count, 0) ||
                          ids_scratch_reserve(&self->scratch[1], (size_t)new_count, 0);
    else status_error(status);
    self->busy = 0;
    if (failed) return NULL;
    Py_RETURN_NONE;
}

static PyObject *differ_shrink(Differ *self, PyObject *unused) {
    (void)unused;
    if (enter(self) != 0) return NULL;
    dfc_context_shrink(self->context);
    for (int i = 0; i < 4; i++) ids_scratch_free(&self->scratch[i]);
    self->busy = 0;
    Py_RETURN_NONE;
}

static PyObject *differ_allocations(Differ *self, void *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(dfc_context_allocation_count(self->context));
}

static PyObject *differ_memory(Differ *self, void *unused) {
    (void)unused;
    size_t bytes = dfc_context_sizeof(self->context);
    for (int i = 0; i < 4; i++)
        bytes += self->scratch[i].capacity * (sizeof(uint64_t) + (self->scratch[i].offsets ? sizeof(uint64_t) : 0)) +
                 self->scratch[i].arena_capacity;
    return PyLong_FromSize_t(bytes);
}

static PyObject *differ_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, ":Differ", keywords)) return NULL;
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    Differ *self = (Differ *)alloc(type, 0);
    if (self == NULL) return NULL;
    self->context = dfc_context_create(NULL);
    if (self->context == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static void differ_dealloc(Differ *self) {
    PyTypeObject *type = Py_TYPE((PyObject *)self);
    dfc_context_free(self->context);
    for (int i = 0; i < 4; i++) ids_scratch_free(&self->scratch[i]);
    freefunc release = (freefunc)PyType_GetSlot(type, Py_tp_free);
    release(self);
    Py_DECREF(type);
}

static PyMethodDef differ_methods[] = {
    {"_diff", (PyCFunction)differ_diff, METH_VARARGS, "The flat diff of two lists (see diffable.Differ.diff)."},
    {"_diff_sections", (PyCFunction)differ_diff_sections, METH_VARARGS,
     "The sectioned diff of two flattened snapshots (see diffable.Differ.diff_sections)."},
    {"reserve", (PyCFunction)differ_reserve, METH_VARARGS,
     "reserve(old_count, new_count): grows the buffers so that a flat diff of lists this long allocates\n"
     "nothing in the core. O(1) besides the allocator."},
    {"shrink", (PyCFunction)differ_shrink, METH_NOARGS, "Releases every buffer (the next diff grows them again). O(1)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef differ_getset[] = {
    {"allocation_count", (getter)differ_allocations, NULL,
     "How many allocations the core's context has made since this Differ was created (a warm Differ adds none).",
     NULL},
    {"memory", (getter)differ_memory, NULL, "Bytes this Differ holds in its buffers (context and key arrays).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot differ_slots[] = {
    {Py_tp_new, differ_new},
    {Py_tp_dealloc, differ_dealloc},
    {Py_tp_methods, differ_methods},
    {Py_tp_getset, differ_getset},
    {Py_tp_doc, "The C core's reusable context (the private base of diffable.Differ)."},
    {0, NULL},
};

/* Not a base type: its methods find the module's state through their own type, which a subclass
 * would not have (diffable.Differ holds a CoreDiffer rather than deriving from it). */
static PyType_Spec differ_spec = {"diffable._core.CoreDiffer", sizeof(Differ), 0, Py_TPFLAGS_DEFAULT, differ_slots};

int differ_register(PyObject *module) {
    PyObject *type = PyType_FromModuleAndSpec(module, &differ_spec, NULL);
    if (type == NULL) return -1;
    /* PyModule_AddType takes its own reference (and none on failure), unlike PyModule_AddObject,
     * which steals one only on success. */
    int status = PyModule_AddType(module, (PyTypeObject *)type);
    Py_DECREF(type);
    return status;
}
