/*
 * module.c — the diffable._core module: key(), the step builders (the core's dfc_flat_steps and
 * dfc_batch_steps), and the Differ type's
 * registration. The public API is diffable/__init__.py; this module is its engine.
 */
#include "binding.h"

#include <stdlib.h>
#include <string.h>

static PyObject *module_key(PyObject *module, PyObject *identifier) {
    module_state *state = PyModule_GetState(module);
    if (state == NULL) return NULL;
    if (PyBytes_Check(identifier)) {
        char *data;
        Py_ssize_t size;
        if (PyBytes_AsStringAndSize(identifier, &data, &size) != 0) return NULL;
        return PyLong_FromUnsignedLongLong(dfc_hash_one(data, (size_t)size, 0));
    }
    if (PyUnicode_Check(identifier)) {
        Py_ssize_t size;
        const char *utf8 = PyUnicode_AsUTF8AndSize(identifier, &size);
        PyObject *normal = NULL;
        const char *bytes;
        size_t length;
        uint64_t key;
        int status = utf8 ? ids_key_text(identifier, utf8, (size_t)size, state, &normal, &bytes, &length,
                                         &key) : -1;
        Py_XDECREF(normal);
        if (status != 0) {
            if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "the str cannot be encoded as UTF-8 (it holds a lone surrogate)");
            }
            return NULL;
        }
        return PyLong_FromUnsignedLongLong(key);
    }
    if (PyLong_Check(identifier)) {
        int overflow = 0;
        long long value = PyLong_AsLongLongAndOverflow(identifier, &overflow);
        if (overflow) return PyErr_Format(PyExc_OverflowError, "an int identifier must fit in 64 signed bits");
        if (value == -1 && PyErr_Occurred()) return NULL;
        return PyLong_FromUnsignedLongLong((unsigned long long)value);
    }
    PyErr_SetString(PyExc_TypeError, "key() takes a str, bytes or int identifier");
    return NULL;
}

/* The steps the core listed, as Python tuples: flat ones as ("delete", i), ("move", a, b),
 * ("insert", j); sectioned ones as ("delete_item", (s, i)), ("move_section", a, b), … */
static PyObject *steps_to_list(const dfc_steps *steps, int flat) {
    static const char *const names[] = {NULL, "delete_item", "delete_section", "move_section", "insert_section",
                                        "move_item", "insert_item", "reload_section", "reload_item", "reconfigure_item"};
    PyObject *list = PyList_New((Py_ssize_t)steps->count);
    if (list == NULL) return NULL;
    for (size_t k = 0; k < steps->count; k++) {
        const dfc_step *s = &steps->steps[k];
        PyObject *item;
        if (flat) {
            item = s->kind == DFC_STEP_MOVE_ITEM ? Py_BuildValue("(sII)", "move", s->at.item, s->to.item)
                   : Py_BuildValue("(sI)", s->kind == DFC_STEP_DELETE_ITEM ? "delete" : "insert", s->at.item);
        } else {
            switch (s->kind) {
            case DFC_STEP_DELETE_SECTION: case DFC_STEP_INSERT_SECTION: case DFC_STEP_RELOAD_SECTION:
                item = Py_BuildValue("(sI)", names[s->kind], s->at.section);
                break;
            case DFC_STEP_MOVE_SECTION:
                item = Py_BuildValue("(sII)", names[s->kind], s->at.section, s->to.section);
                break;
            case DFC_STEP_MOVE_ITEM:
                item = Py_BuildValue("(s(II)(II))", names[s->kind], s->at.section, s->at.item, s->to.section, s->to.item);
                break;
            default:
                item = Py_BuildValue("(s(II))", names[s->kind], s->at.section, s->at.item);
            }
        }
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, (Py_ssize_t)k, item);
    }
    return list;
}

/* A core status other than DFC_OK as a Python exception naming the helper. */
static PyObject *steps_error(const char *helper, int status) {
    if (status == DFC_ERR_OUT_OF_MEMORY) return PyErr_NoMemory();
    return PyErr_Format(PyExc_ValueError, "%s: the batch does not fit the counts (%s)", helper, dfc_status_string(status));
}

/* flat_steps(old_to_new, new_to_old, moves) -> [("delete", i) | ("move", a, b) | ("insert", j)],
 * listed by the core's dfc_flat_steps (ALGORITHM.md, "Steps"). The maps and the (from, to) move
 * pairs are bytes of uint32; the core checks every index against the counts, so bad input gives
 * ValueError, never a read out of bounds. O(n + m + moves log moves). */
static PyObject *module_flat_steps(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *old_bytes, *new_bytes, *move_bytes;
    if (!PyArg_ParseTuple(args, "SSS", &old_bytes, &new_bytes, &move_bytes)) return NULL;
    const uint32_t *old_to_new, *new_to_old, *moves;
    size_t n, m, move_words;
    if (u32_view(old_bytes, &old_to_new, &n) || u32_view(new_bytes, &new_to_old, &m) ||
        u32_view(move_bytes, &moves, &move_words))
        return NULL;
    if (move_words % 2) return PyErr_Format(PyExc_ValueError, "flat_steps: moves must be (from, to) pairs");
    const size_t move_count = move_words / 2;
    uint32_t *lists = malloc((n + m + 2 * move_count + 1) * sizeof(uint32_t));
    if (lists == NULL) return PyErr_NoMemory();
    uint32_t *deletes = lists, *inserts = lists + n, *from = inserts + m, *to = from + move_count;
    dfc_flat_result flat = {0};
    flat.deletes = deletes, flat.inserts = inserts, flat.move_from = from, flat.move_to = to;
    flat.old_count = n, flat.new_count = m, flat.move_count = move_count;
    for (size_t i = 0; i < n; i++)
        if ((int32_t)old_to_new[i] < 0) deletes[flat.delete_count++] = (uint32_t)i;
    for (size_t j = 0; j < m; j++)
        if ((int32_t)new_to_old[j] < 0) inserts[flat.insert_count++] = (uint32_t)j;
    for (size_t k = 0; k < move_count; k++) from[k] = moves[2 * k], to[k] = moves[2 * k + 1];
    dfc_context *context = dfc_context_create(NULL);
    dfc_steps steps;
    int status = context ? DFC_OK : DFC_ERR_OUT_OF_MEMORY;
    if (status == DFC_OK) {
        Py_BEGIN_ALLOW_THREADS
        status = dfc_flat_steps(context, &flat, &steps);
        Py_END_ALLOW_THREADS
    }
    PyObject *list = status == DFC_OK ? steps_to_list(&steps, 1) : steps_error("flat_steps", status);
    dfc_context_free(context);
    free(lists);
    return list;
}

/* batch_steps(old_counts, new_counts, delete_sections, insert_sections, move_sections,
 * reload_sections, delete_items, insert_items, move_items, reload_items, reconfigure_items) ->
 * the batch's steps, listed by the core's dfc_batch_steps. Every argument is bytes of uint32:
 * sections one word, section moves and index paths two, item moves four. ValueError when the
 * batch does not fit the counts. O(s + k log k + r log r). */
static PyObject *module_batch_steps(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *arrays[11];
    if (!PyArg_ParseTuple(args, "SSSSSSSSSSS", &arrays[0], &arrays[1], &arrays[2], &arrays[3], &arrays[4], &arrays[5],
                          &arrays[6], &arrays[7], &arrays[8], &arrays[9], &arrays[10]))
        return NULL;
    const uint32_t *v[11];
    size_t c[11];
    static const size_t width[11] = {1, 1, 1, 1, 2, 1, 2, 2, 4, 2, 2};
    for (int i = 0; i < 11; i++) {
        if (u32_view(arrays[i], &v[i], &c[i])) return NULL;
        if (c[i] % width[i]) return PyErr_Format(PyExc_ValueError, "batch_steps: argument %d is not whole entries", i + 1);
        c[i] /= width[i];
    }
    /* Item moves arrive as (s, i, t, j) rows; the core takes sources and targets apart. */
    dfc_index_path *move_paths = malloc((2 * c[8] + 1) * sizeof(dfc_index_path));
    uint32_t *section_moves = malloc((2 * c[4] + 1) * sizeof(uint32_t));
    if (move_paths == NULL || section_moves == NULL) {
        free(move_paths), free(section_moves);
        return PyErr_NoMemory();
    }
    for (size_t k = 0; k < c[8]; k++) {
        move_paths[k] = (dfc_index_path){v[8][4 * k], v[8][4 * k + 1]};
        move_paths[c[8] + k] = (dfc_index_path){v[8][4 * k + 2], v[8][4 * k + 3]};
    }
    for (size_t k = 0; k < c[4]; k++) section_moves[k] = v[4][2 * k], section_moves[c[4] + k] = v[4][2 * k + 1];
    dfc_batch batch = {0};
    batch.delete_sections = v[2], batch.delete_section_count = c[2];
    batch.insert_sections = v[3], batch.insert_section_count = c[3];
    batch.move_section_from = section_moves, batch.move_section_to = section_moves + c[4];
    batch.move_section_count = c[4];
    batch.reload_sections = v[5], batch.reload_section_count = c[5];
    batch.delete_items = (const dfc_index_path *)v[6], batch.delete_item_count = c[6];
    batch.insert_items = (const dfc_index_path *)v[7], batch.insert_item_count = c[7];
    batch.move_item_from = move_paths, batch.move_item_to = move_paths + c[8], batch.move_item_count = c[8];
    batch.reload_items = (const dfc_index_path *)v[9], batch.reload_item_count = c[9];
    batch.reconfigure_items = (const dfc_index_path *)v[10], batch.reconfigure_item_count = c[10];
    dfc_context *context = dfc_context_create(NULL);
    dfc_steps steps;
    int status = context ? DFC_OK : DFC_ERR_OUT_OF_MEMORY;
    if (status == DFC_OK) {
        Py_BEGIN_ALLOW_THREADS
        status = dfc_batch_steps(context, &batch, v[0], c[0], v[1], c[1], &steps);
        Py_END_ALLOW_THREADS
    }
    PyObject *list = status == DFC_OK ? steps_to_list(&steps, 0) : steps_error("batch_steps", status);
    dfc_context_free(context);
    free(move_paths), free(section_moves);
    return list;
}

/* normalize_calls() -> how many strs this interpreter's module has passed to unicodedata.normalize
 * (those the core's quick check could not prove NFC). For the tests. */
static PyObject *module_normalize_calls(PyObject *module, PyObject *unused) {
    (void)unused;
    const module_state *state = PyModule_GetState(module);
    return state ? PyLong_FromSsize_t(state->normalize_calls) : NULL;
}

static PyMethodDef module_methods[] = {
    {"normalize_calls", module_normalize_calls, METH_NOARGS, "How many strs went through unicodedata.normalize."},
    {"key", module_key, METH_O, "key(identifier) -> int: XXH3-64 (seed 0) of a str's NFC UTF-8 or of bytes; an int is its own key."},
    {"flat_steps", module_flat_steps, METH_VARARGS, "The sequential steps of a flat diff (see diffable.Diff.steps)."},
    {"batch_steps", module_batch_steps, METH_VARARGS, "The sequential steps of one batch (see diffable.SectionsDiff.steps)."},
    {NULL, NULL, 0, NULL},
};

static int module_exec(PyObject *module) {
    module_state *state = PyModule_GetState(module);
    PyObject *unicodedata = PyImport_ImportModule("unicodedata");
    if (unicodedata == NULL) return -1;
    state->normalize = PyObject_GetAttrString(unicodedata, "normalize");
    Py_DECREF(unicodedata);
    if (state->normalize == NULL || (state->nfc = PyUnicode_FromString("NFC")) == NULL) return -1;
    if (differ_register(module) != 0) return -1;
    if (PyModule_AddStringConstant(module, "core_version", dfc_version_string()) != 0) return -1;
    return PyModule_AddIntConstant(module, "MAX_COUNT", (long)DFC_MAX_COUNT);
}

static int module_traverse(PyObject *module, visitproc visit, void *arg) {
    module_state *state = PyModule_GetState(module);
    Py_VISIT(state->normalize);
    Py_VISIT(state->nfc);
    return 0;
}

static int module_clear(PyObject *module) {
    module_state *state = PyModule_GetState(module);
    Py_CLEAR(state->normalize);
    Py_CLEAR(state->nfc);
    return 0;
}

static void module_free(void *module) { module_clear(module); }

/* Multi-phase initialization with per-module state: each interpreter that imports the module gets
 * its own module, state and CoreDiffer type. (Declaring per-interpreter-GIL support,
 * Py_mod_multiple_interpreters, needs the 3.12 limited API; this is built on 3.11's.) */
static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "diffable._core", "The C core of diffable (see the diffable package).",
    sizeof(module_state), module_methods, module_slots, module_traverse, module_clear, module_free,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModuleDef_Init(&module_def); }
