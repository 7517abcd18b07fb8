/*
 * module.c — the diffable._core module: key(), the step builders, and the Differ type's
 * registration. The public API is diffable/__init__.py; this module is its engine.
 */
#include "binding.h"

#include <stdlib.h>
#include <string.h>

static PyObject *module_key(PyObject *module, PyObject *identifier) {
    (void)module;
    if (PyBytes_Check(identifier)) {
        char *data;
        Py_ssize_t size;
        if (PyBytes_AsStringAndSize(identifier, &data, &size) != 0) return NULL;
        return PyLong_FromUnsignedLongLong(dfc_hash_one(data, (size_t)size, 0));
    }
    if (PyUnicode_Check(identifier)) {
        PyObject *normal = ids_nfc(identifier);
        if (normal == NULL) {
            if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "the str cannot be encoded as UTF-8 (it holds a lone surrogate)");
            }
            return NULL;
        }
        Py_ssize_t size;
        const char *data = PyUnicode_AsUTF8AndSize(normal, &size);
        PyObject *key = data ? PyLong_FromUnsignedLongLong(dfc_hash_one(data, (size_t)size, 0)) : NULL;
        Py_DECREF(normal);
        return key;
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

static PyObject *step(const char *kind, PyObject *a, PyObject *b) {
    return b ? Py_BuildValue("(sNN)", kind, a, b) : Py_BuildValue("(sN)", kind, a);
}

/* flat_steps(old_to_new, new_to_old, moves) -> [("delete", i) | ("move", a, b) | ("insert", j)]:
 * deletes last first, then every move in final order, then inserts first first, each index valid
 * in the list the steps before it left. O(n + m + moves log n). */
static PyObject *module_flat_steps(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *old_bytes, *new_bytes, *move_bytes;
    if (!PyArg_ParseTuple(args, "SSS", &old_bytes, &new_bytes, &move_bytes)) return NULL;
    const uint32_t *old_to_new, *new_to_old, *moves;
    size_t n, m, move_words;
    if (u32_view(old_bytes, &old_to_new, &n) || u32_view(new_bytes, &new_to_old, &m) ||
        u32_view(move_bytes, &moves, &move_words))
        return NULL;
    size_t move_count = move_words / 2;
    uint8_t *stays = malloc(n ? n : 1);
    uint32_t *current = malloc((n ? n : 1) * sizeof(uint32_t));
    uint32_t *target = malloc((m ? m : 1) * sizeof(uint32_t));
    uint32_t *out = malloc((move_count ? move_count : 1) * 4 * sizeof(uint32_t));
    PyObject *list = NULL;
    if (!stays || !current || !target || !out) {
        PyErr_NoMemory();
        goto done;
    }
    memset(stays, 1, n);
    for (size_t k = 0; k < move_count; k++) stays[moves[2 * k]] = 0;
    uint32_t current_starts[2] = {0, 0}, target_starts[2] = {0, 0};
    for (size_t i = 0; i < n; i++)
        if ((int32_t)old_to_new[i] >= 0) current[current_starts[1]++] = (uint32_t)i;
    for (size_t j = 0; j < m; j++)
        if ((int32_t)new_to_old[j] >= 0) target[target_starts[1]++] = new_to_old[j];
    size_t produced = 0;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = sequential_moves(1, current_starts, current, target_starts, target, stays, n, out, &produced);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    size_t deletes = n - current_starts[1], inserts = m - target_starts[1];
    list = PyList_New((Py_ssize_t)(deletes + produced + inserts));
    if (list == NULL) goto done;
    Py_ssize_t at = 0;
    for (size_t i = n; i-- > 0;)
        if ((int32_t)old_to_new[i] < 0) PyList_SetItem(list, at++, step("delete", PyLong_FromSize_t(i), NULL));
    for (size_t k = 0; k < produced; k++)
        PyList_SetItem(list, at++, step("move", PyLong_FromUnsignedLong(out[4 * k + 1]), PyLong_FromUnsignedLong(out[4 * k + 3])));
    for (size_t j = 0; j < m; j++)
        if ((int32_t)new_to_old[j] < 0) PyList_SetItem(list, at++, step("insert", PyLong_FromSize_t(j), NULL));
    if (PyErr_Occurred()) Py_CLEAR(list);
done:
    free(stays), free(current), free(target), free(out);
    return list;
}

/* sequential_moves(current_starts, current, target_starts, target, stays) -> bytes of uint32,
 * 4 per move (from group, from index, to group, to index); see binding.h. */
static PyObject *module_sequential_moves(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *arrays[4], *stays_bytes;
    if (!PyArg_ParseTuple(args, "SSSSS", &arrays[0], &arrays[1], &arrays[2], &arrays[3], &stays_bytes)) return NULL;
    const uint32_t *values[4];
    size_t counts[4];
    for (int i = 0; i < 4; i++)
        if (u32_view(arrays[i], &values[i], &counts[i])) return NULL;
    size_t groups = counts[0] ? counts[0] - 1 : 0;
    if (counts[2] != counts[0] || counts[0] == 0 || values[0][groups] != counts[1] || values[2][groups] != counts[3])
        return PyErr_Format(PyExc_ValueError, "sequential_moves: group starts do not match the element lists");
    char *stays;
    Py_ssize_t element_count;
    if (PyBytes_AsStringAndSize(stays_bytes, &stays, &element_count) != 0) return NULL;
    for (size_t i = 0; i < counts[1]; i++)
        if (values[1][i] >= (size_t)element_count) return PyErr_Format(PyExc_ValueError, "sequential_moves: element out of range");
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((counts[3] ? counts[3] : 1) * 16));
    if (out == NULL) return NULL;
    size_t produced;
    if (sequential_moves(groups, values[0], values[1], values[2], values[3], (const uint8_t *)stays,
                         (size_t)element_count, (uint32_t *)PyBytes_AsString(out), &produced) != 0) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    PyObject *result = PyBytes_FromStringAndSize(PyBytes_AsString(out), (Py_ssize_t)(produced * 16));
    Py_DECREF(out);
    return result;
}

static PyMethodDef module_methods[] = {
    {"key", module_key, METH_O, "key(identifier) -> int: XXH3-64 (seed 0) of a str's NFC UTF-8 or of bytes; an int is its own key."},
    {"flat_steps", module_flat_steps, METH_VARARGS, "The sequential steps of a flat diff (see diffable.Diff.steps)."},
    {"sequential_moves", module_sequential_moves, METH_VARARGS, "Moves applied one at a time, in groups."},
    {NULL, NULL, 0, NULL},
};

static int module_exec(PyObject *module) {
    if (differ_register(module) != 0) return -1;
    if (PyModule_AddStringConstant(module, "core_version", dfc_version_string()) != 0) return -1;
    return PyModule_AddIntConstant(module, "MAX_COUNT", (long)DFC_MAX_COUNT);
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "diffable._core", "The C core of diffable (see the diffable package).", 0,
    module_methods, module_slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModuleDef_Init(&module_def); }
