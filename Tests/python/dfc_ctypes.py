"""The C core (build/libdfc.so, built by plain cc from the Makefile) driven from Python with ctypes.

`expect_via_c(old, new)` computes a fixture's expected output through the C API:
identifiers become NFC UTF-8 bytes keyed with dfc_hash_bytes and matched with
DFC_MATCH_BYTES; duplicates come from dfc_context_duplicates. Unknown refresh
identifiers are detected here (the C API takes refresh requests as indices).
"""
import ctypes
import os
import pathlib
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIBRARY = pathlib.Path(os.environ.get("DFC_LIBRARY", ROOT / "build" / "libdfc.so"))

DFC_OK, DFC_ERR_DUPLICATE = 0, 4
DFC_MATCH_BYTES = 1
DFC_SIDE_OLD, DFC_SIDE_NEW = 0, 1

u32p = ctypes.POINTER(ctypes.c_uint32)
u64p = ctypes.POINTER(ctypes.c_uint64)


class List(ctypes.Structure):
    _fields_ = [("keys", u64p), ("count", ctypes.c_size_t), ("bytes", ctypes.c_void_p), ("offsets", u64p)]


class Snapshot(ctypes.Structure):
    _fields_ = [("sections", List), ("items", List), ("section_starts", u32p)]


class Refresh(ctypes.Structure):
    _fields_ = [("reload_items", u32p), ("reload_item_count", ctypes.c_size_t),
                ("reconfigure_items", u32p), ("reconfigure_item_count", ctypes.c_size_t),
                ("reload_sections", u32p), ("reload_section_count", ctypes.c_size_t)]


class IndexPath(ctypes.Structure):
    _fields_ = [("section", ctypes.c_uint32), ("item", ctypes.c_uint32)]


pathp = ctypes.POINTER(IndexPath)


class Batch(ctypes.Structure):
    _fields_ = [("delete_sections", u32p), ("delete_section_count", ctypes.c_size_t),
                ("insert_sections", u32p), ("insert_section_count", ctypes.c_size_t),
                ("move_section_from", u32p), ("move_section_to", u32p), ("move_section_count", ctypes.c_size_t),
                ("reload_sections", u32p), ("reload_section_count", ctypes.c_size_t),
                ("delete_items", pathp), ("delete_item_count", ctypes.c_size_t),
                ("insert_items", pathp), ("insert_item_count", ctypes.c_size_t),
                ("move_item_from", pathp), ("move_item_to", pathp), ("move_item_count", ctypes.c_size_t),
                ("reload_items", pathp), ("reload_item_count", ctypes.c_size_t),
                ("reconfigure_items", pathp), ("reconfigure_item_count", ctypes.c_size_t)]


class SectionsResult(ctypes.Structure):
    _fields_ = [("has_structural", ctypes.c_int), ("has_refresh", ctypes.c_int),
                ("structural", Batch), ("refresh", Batch),
                ("old_item_to_new", ctypes.POINTER(ctypes.c_int32)), ("new_item_to_old", ctypes.POINTER(ctypes.c_int32)),
                ("old_section_to_new", ctypes.POINTER(ctypes.c_int32)), ("new_section_to_old", ctypes.POINTER(ctypes.c_int32))]


class Match(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("equal", ctypes.c_void_p), ("user_data", ctypes.c_void_p)]


class Duplicate(ctypes.Structure):
    _fields_ = [("side", ctypes.c_int), ("is_section", ctypes.c_int), ("first", ctypes.c_uint32),
                ("duplicate", ctypes.c_uint32)]


def load():
    library = ctypes.CDLL(str(LIBRARY))
    library.dfc_hash_one.restype = ctypes.c_uint64  # without this ctypes truncates to 32 bits
    library.dfc_hash_one.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
    library.dfc_hash_bytes.argtypes = [ctypes.c_char_p, u64p, ctypes.c_size_t, ctypes.c_uint64, u64p]
    library.dfc_context_create.restype = ctypes.c_void_p
    library.dfc_context_create.argtypes = [ctypes.c_void_p]
    library.dfc_context_free.argtypes = [ctypes.c_void_p]
    library.dfc_diff_sections.argtypes = [ctypes.c_void_p, ctypes.POINTER(Snapshot), ctypes.POINTER(Snapshot),
                                          ctypes.POINTER(Refresh), ctypes.POINTER(Match), ctypes.POINTER(Match),
                                          ctypes.c_uint, ctypes.POINTER(SectionsResult)]
    library.dfc_context_duplicates.restype = ctypes.POINTER(Duplicate)
    library.dfc_context_duplicates.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
    library.dfc_status_string.restype = ctypes.c_char_p
    return library


def nfc_bytes(text):
    return unicodedata.normalize("NFC", text).encode("utf-8")


class _ByteList:
    """Identifiers packed as one buffer + offsets, with XXH3 keys computed by the C core."""

    def __init__(self, library, identifiers):
        encoded = [nfc_bytes(i) for i in identifiers]
        self.blob = b"".join(encoded)
        offsets = [0]
        for part in encoded:
            offsets.append(offsets[-1] + len(part))
        self.offsets = (ctypes.c_uint64 * len(offsets))(*offsets)
        self.keys = (ctypes.c_uint64 * max(1, len(encoded)))()
        status = library.dfc_hash_bytes(self.blob, self.offsets, len(encoded), 0, self.keys)
        assert status == DFC_OK, library.dfc_status_string(status)
        self.list = List(self.keys, len(encoded), ctypes.cast(ctypes.c_char_p(self.blob), ctypes.c_void_p), self.offsets)


def _pack(library, document):
    sections = [s["id"] for s in document["sections"]]
    items = [i for s in document["sections"] for i in s["items"]]
    starts = [0]
    for s in document["sections"]:
        starts.append(starts[-1] + len(s["items"]))
    section_list, item_list = _ByteList(library, sections), _ByteList(library, items)
    starts_array = (ctypes.c_uint32 * len(starts))(*starts)
    return Snapshot(section_list.list, item_list.list, starts_array), (section_list, item_list, starts_array)


def _error(kind, side, groups, list_name=None):
    """Error object from {first index: [positions…]} groups in first-occurrence order."""
    error = {"kind": kind, "snapshot": side, "identifiers": [g[0] for g in groups], "positions": [g[1] for g in groups]}
    if list_name:
        error["list"] = list_name
    return error


def _duplicate_error(document, side, duplicates):
    """The first kind of duplicate in one snapshot, in the fixture error format."""
    side_code = DFC_SIDE_OLD if side == "old" else DFC_SIDE_NEW
    flat_paths = [[s, i] for s, section in enumerate(document["sections"]) for i in range(len(section["items"]))]
    flat_names = [name for section in document["sections"] for name in section["items"]]
    for is_section, kind in ((1, "duplicateSection"), (0, "duplicateItem")):
        pairs = [d for d in duplicates if d[0] == side_code and d[1] == is_section]
        if not pairs:
            continue
        groups = {}
        for _, _, first, duplicate in pairs:
            groups.setdefault(first, [first]).append(duplicate)
        ordered = sorted(groups.items())
        if is_section:
            return _error(kind, side, [(document["sections"][first]["id"], [[p] for p in sorted(set(ps))]) for first, ps in ordered])
        return _error(kind, side, [(flat_names[first], [flat_paths[p] for p in sorted(set(ps))]) for first, ps in ordered])
    return None


def _unknown_error(document, side):
    items = {unicodedata.normalize("NFC", i) for s in document["sections"] for i in s["items"]}
    sections = {unicodedata.normalize("NFC", s["id"]) for s in document["sections"]}
    for list_name, known in (("reloadItems", items), ("reconfigureItems", items), ("reloadSections", sections)):
        groups = {}
        for index, value in enumerate(document.get(list_name, [])):
            key = unicodedata.normalize("NFC", value)
            if key not in known:
                groups.setdefault(key, [value, []])[1].append([index])
        if groups:
            return _error("unknownIdentifier", side, [tuple(g) for g in groups.values()], list_name)
    return None


def expect_via_c(library, old, new):
    """The fixture `expect` object computed by dfc_diff_sections."""
    context = library.dfc_context_create(None)
    try:
        old_snapshot, keep_old = _pack(library, old)
        new_snapshot, keep_new = _pack(library, new)
        item_index = {unicodedata.normalize("NFC", i): k for k, i in enumerate(i for s in new["sections"] for i in s["items"])}
        section_index = {unicodedata.normalize("NFC", s["id"]): k for k, s in enumerate(new["sections"])}

        def indices(values, table):
            found = [table[unicodedata.normalize("NFC", v)] for v in values if unicodedata.normalize("NFC", v) in table]
            return (ctypes.c_uint32 * max(1, len(found)))(*found), len(found)

        reload, reload_count = indices(new.get("reloadItems", []), item_index)
        reconfigure, reconfigure_count = indices(new.get("reconfigureItems", []), item_index)
        reload_sections, reload_section_count = indices(new.get("reloadSections", []), section_index)
        refresh = Refresh(reload, reload_count, reconfigure, reconfigure_count, reload_sections, reload_section_count)
        match = Match(DFC_MATCH_BYTES, None, None)
        result = SectionsResult()
        status = library.dfc_diff_sections(context, ctypes.byref(old_snapshot), ctypes.byref(new_snapshot),
                                           ctypes.byref(refresh), ctypes.byref(match), ctypes.byref(match), 0,
                                           ctypes.byref(result))
        duplicates = []
        if status == DFC_ERR_DUPLICATE:
            count = ctypes.c_size_t()
            entries = library.dfc_context_duplicates(context, ctypes.byref(count))
            duplicates = [(entries[k].side, entries[k].is_section, entries[k].first, entries[k].duplicate) for k in range(count.value)]
        elif status != DFC_OK:
            raise RuntimeError(library.dfc_status_string(status).decode())
        for side, document in (("old", old), ("new", new)):
            error = _duplicate_error(document, side, duplicates) or _unknown_error(document, side)
            if error:
                return {"error": error}
        del keep_old, keep_new
        batches = []
        if result.has_structural:
            batches.append(_batch(result.structural))
        if result.has_refresh:
            batches.append(_batch(result.refresh))
        return {"batches": batches}
    finally:
        library.dfc_context_free(context)


def _batch(batch):
    def ints(pointer, count):
        return [pointer[k] for k in range(count)]

    def paths(pointer, count):
        return [[pointer[k].section, pointer[k].item] for k in range(count)]

    return {
        "deleteSections": ints(batch.delete_sections, batch.delete_section_count),
        "insertSections": ints(batch.insert_sections, batch.insert_section_count),
        "moveSections": [[a, b] for a, b in zip(ints(batch.move_section_from, batch.move_section_count),
                                                 ints(batch.move_section_to, batch.move_section_count))],
        "reloadSections": ints(batch.reload_sections, batch.reload_section_count),
        "deleteItems": paths(batch.delete_items, batch.delete_item_count),
        "insertItems": paths(batch.insert_items, batch.insert_item_count),
        "moveItems": [[a, b] for a, b in zip(paths(batch.move_item_from, batch.move_item_count),
                                             paths(batch.move_item_to, batch.move_item_count))],
        "reloadItems": paths(batch.reload_items, batch.reload_item_count),
        "reconfigureItems": paths(batch.reconfigure_items, batch.reconfigure_item_count),
    }
