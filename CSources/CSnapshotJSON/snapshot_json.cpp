// The snapshot document parsed by simdjson's DOM parser (runtime-dispatched SIMD kernels,
// full validation) and copied into flat arrays.
#include "snapshot_json.h"

#include <simdjson.h>

#include <new>
#include <string_view>
#include <vector>

namespace {

struct StringList {
    std::vector<char> bytes;
    std::vector<size_t> ends;

    void append(std::string_view value) {
        bytes.insert(bytes.end(), value.begin(), value.end());
        ends.push_back(bytes.size());
    }

    snapshot_json_strings view() const { return {bytes.data(), ends.data(), ends.size()}; }
};

struct Storage {
    simdjson::dom::parser parser;
    StringList section_ids, items, reload_items, reconfigure_items, reload_sections;
    std::vector<size_t> section_item_ends;
};

// Appends every element of `value` (an array of strings) to `list`.
simdjson::error_code read_strings(simdjson::dom::element value, StringList &list) {
    simdjson::dom::array array;
    if (auto error = value.get_array().get(array)) return error;
    for (simdjson::dom::element element : array) {
        std::string_view string;
        if (auto error = element.get_string().get(string)) return error;
        list.append(string);
    }
    return simdjson::SUCCESS;
}

// One section object: exactly "id" (a string) and "items" (an array of strings).
simdjson::error_code read_section(simdjson::dom::element value, bool lenient, Storage &storage) {
    simdjson::dom::object object;
    if (auto error = value.get_object().get(object)) return error;
    bool has_id = false, has_items = false;
    for (auto field : object) {
        if (field.key == "id" && !has_id) {
            std::string_view id;
            if (auto error = field.value.get_string().get(id)) return error;
            storage.section_ids.append(id);
            has_id = true;
        } else if (field.key == "items" && !has_items) {
            if (auto error = read_strings(field.value, storage.items)) return error;
            has_items = true;
        } else if (!lenient || field.key == "id" || field.key == "items") {
            return simdjson::NO_SUCH_FIELD;  // unknown or repeated key
        }
    }
    if (!has_id || !has_items) return simdjson::NO_SUCH_FIELD;
    storage.section_item_ends.push_back(storage.items.ends.size());
    return simdjson::SUCCESS;
}

simdjson::error_code read_document(simdjson::dom::element root, bool lenient, Storage &storage) {
    simdjson::dom::object object;
    if (auto error = root.get_object().get(object)) return error;
    bool seen[4] = {false, false, false, false};
    static const std::string_view keys[4] = {"sections", "reloadItems", "reconfigureItems", "reloadSections"};
    StringList *lists[4] = {nullptr, &storage.reload_items, &storage.reconfigure_items, &storage.reload_sections};
    for (auto field : object) {
        int known = -1;
        for (int k = 0; k < 4; k++)
            if (field.key == keys[k]) known = k;
        if (known < 0) {
            if (lenient) continue;
            return simdjson::NO_SUCH_FIELD;
        }
        if (seen[known]) return simdjson::NO_SUCH_FIELD;
        seen[known] = true;
        if (known > 0) {
            if (auto error = read_strings(field.value, *lists[known])) return error;
            continue;
        }
        simdjson::dom::array sections;
        if (auto error = field.value.get_array().get(sections)) return error;
        for (simdjson::dom::element section : sections)
            if (auto error = read_section(section, lenient, storage)) return error;
    }
    return seen[0] ? simdjson::SUCCESS : simdjson::NO_SUCH_FIELD;
}

}  // namespace

extern "C" snapshot_json_status snapshot_json_parse(const char *bytes, size_t length, bool lenient,
                                                   snapshot_json_document *document) {
    *document = snapshot_json_document{};
    try {
        auto *storage = new Storage();
        document->storage = storage;
        // Identifiers are at most the input's bytes; at least 3 input bytes each ("",).
        storage->items.bytes.reserve(length);
        storage->items.ends.reserve(length / 3 + 1);
        simdjson::dom::element root;
        simdjson::error_code error = storage->parser.parse(bytes, length, false).get(root);
        if (!error) error = read_document(root, lenient, *storage);
        if (error == simdjson::MEMALLOC) return SNAPSHOT_JSON_OUT_OF_MEMORY;
        if (error) {
            document->error_message = simdjson::error_message(error);
            return SNAPSHOT_JSON_INVALID;
        }
        document->section_ids = storage->section_ids.view();
        document->section_item_ends = storage->section_item_ends.data();
        document->items = storage->items.view();
        document->reload_items = storage->reload_items.view();
        document->reconfigure_items = storage->reconfigure_items.view();
        document->reload_sections = storage->reload_sections.view();
        // The parser's tape is no longer needed; the lists are.
        storage->parser = simdjson::dom::parser();
        return SNAPSHOT_JSON_OK;
    } catch (const std::bad_alloc &) {
        return SNAPSHOT_JSON_OUT_OF_MEMORY;
    }
}

extern "C" void snapshot_json_free(snapshot_json_document *document) {
    delete static_cast<Storage *>(document->storage);
    *document = snapshot_json_document{};
}
