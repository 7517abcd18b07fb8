// The snapshot document parsed by simdjson's DOM parser (runtime-dispatched SIMD kernels,
// full validation before anything is read) into identifier numbers. docs/CLI_IO.md says
// why DOM and not On-Demand, and what the other parsers measured.
#include "snapshot_json.h"

#include <simdjson.h>

#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace {

// The key names the caller gave (snapshot_json_keys), owned by the parser.
struct Keys {
    std::string sections, reload_items, reconfigure_items, reload_sections, id, items;
};

struct Storage {
    std::vector<uint32_t> sections, items, reload_items, reconfigure_items, reload_sections;
    std::vector<size_t> section_item_ends;
    // One array's strings, interned as one batch.
    std::vector<snapshot_string> batch;
};

snapshot_json_ids view(const std::vector<uint32_t> &ids) { return {ids.data(), ids.size()}; }

// The interner failing is the one error simdjson has no code for: MEMALLOC stands for it.
simdjson::error_code intern(snapshot_interner *interner, Storage &storage, std::vector<uint32_t> &ids) {
    size_t first = ids.size();
    ids.resize(first + storage.batch.size());
    if (snapshot_interner_intern_batch(interner, storage.batch.data(), storage.batch.size(), ids.data() + first) != 0)
        return simdjson::MEMALLOC;
    return simdjson::SUCCESS;
}

// Interns every element of `value` (an array of strings) and appends the numbers to `ids`.
simdjson::error_code read_strings(simdjson::dom::element value, snapshot_interner *interner, Storage &storage,
                                  std::vector<uint32_t> &ids) {
    simdjson::dom::array array;
    if (auto error = value.get_array().get(array)) return error;
    storage.batch.clear();
    for (simdjson::dom::element element : array) {
        std::string_view string;
        if (auto error = element.get_string().get(string)) return error;
        storage.batch.push_back({string.data(), string.size()});
    }
    return intern(interner, storage, ids);
}

// One section object: exactly the id key (a string) and the items key (an array of strings).
simdjson::error_code read_section(simdjson::dom::element value, const Keys &keys, bool lenient, snapshot_interner *interner,
                                  Storage &storage) {
    simdjson::dom::object object;
    if (auto error = value.get_object().get(object)) return error;
    bool has_id = false, has_items = false;
    for (auto field : object) {
        if (field.key == keys.id && !has_id) {
            std::string_view id;
            if (auto error = field.value.get_string().get(id)) return error;
            storage.batch.assign(1, {id.data(), id.size()});
            if (auto error = intern(interner, storage, storage.sections)) return error;
            has_id = true;
        } else if (field.key == keys.items && !has_items) {
            if (auto error = read_strings(field.value, interner, storage, storage.items)) return error;
            has_items = true;
        } else if (!lenient || field.key == keys.id || field.key == keys.items) {
            return simdjson::NO_SUCH_FIELD;  // unknown or repeated key
        }
    }
    if (!has_id || !has_items) return simdjson::NO_SUCH_FIELD;
    storage.section_item_ends.push_back(storage.items.size());
    return simdjson::SUCCESS;
}

simdjson::error_code read_document(simdjson::dom::element root, const Keys &keys, bool lenient, snapshot_interner *interner,
                                   Storage &storage) {
    simdjson::dom::object object;
    if (auto error = root.get_object().get(object)) return error;
    bool seen[4] = {false, false, false, false};
    // Index 0 is the sections; the others are the refresh lists and where they go.
    const std::string *names[4] = {&keys.sections, &keys.reload_items, &keys.reconfigure_items, &keys.reload_sections};
    std::vector<uint32_t> *lists[4] = {nullptr, &storage.reload_items, &storage.reconfigure_items, &storage.reload_sections};
    for (auto field : object) {
        int known = -1;
        for (int k = 0; k < 4; k++)
            if (field.key == *names[k]) known = k;
        if (known < 0) {
            if (lenient) continue;
            return simdjson::NO_SUCH_FIELD;
        }
        if (seen[known]) return simdjson::NO_SUCH_FIELD;
        seen[known] = true;
        if (known > 0) {
            if (auto error = read_strings(field.value, interner, storage, *lists[known])) return error;
            continue;
        }
        simdjson::dom::array sections;
        if (auto error = field.value.get_array().get(sections)) return error;
        for (simdjson::dom::element section : sections)
            if (auto error = read_section(section, keys, lenient, interner, storage)) return error;
    }
    return seen[0] ? simdjson::SUCCESS : simdjson::NO_SUCH_FIELD;
}

}  // namespace

struct snapshot_json_parser {
    simdjson::dom::parser parser;
    Keys keys;
};

extern "C" snapshot_json_parser *snapshot_json_parser_create(const snapshot_json_keys *keys) {
    auto *parser = new (std::nothrow) snapshot_json_parser();
    if (!parser) return nullptr;
    try {
        auto copy = [](snapshot_string name) { return std::string(name.bytes, name.length); };
        parser->keys = Keys{copy(keys->sections), copy(keys->reload_items), copy(keys->reconfigure_items),
                            copy(keys->reload_sections), copy(keys->id),       copy(keys->items)};
    } catch (const std::exception &) {
        delete parser;
        return nullptr;
    }
    return parser;
}

extern "C" void snapshot_json_parser_free(snapshot_json_parser *parser) { delete parser; }

extern "C" snapshot_json_status snapshot_json_parse(snapshot_json_parser *parser, const char *bytes, size_t length, bool lenient,
                                                   snapshot_interner *interner, snapshot_json_document *document) {
    *document = snapshot_json_document{};
    try {
        auto *storage = new Storage();
        document->storage = storage;
        // Upper bounds (a string takes 3 input bytes at least: "",): address space, not memory.
        if (snapshot_interner_reserve(interner, length / 3 + 1, length) != 0) return SNAPSHOT_JSON_OUT_OF_MEMORY;
        storage->items.reserve(length / 3 + 1);
        simdjson::dom::element root;
        simdjson::error_code error = parser->parser.parse(bytes, length, false).get(root);
        if (!error) error = read_document(root, parser->keys, lenient, interner, *storage);
        storage->batch = {};
        if (error == simdjson::MEMALLOC) return SNAPSHOT_JSON_OUT_OF_MEMORY;
        if (error) {
            document->error_message = simdjson::error_message(error);
            return SNAPSHOT_JSON_INVALID;
        }
        document->sections = view(storage->sections);
        document->section_item_ends = storage->section_item_ends.data();
        document->items = view(storage->items);
        document->reload_items = view(storage->reload_items);
        document->reconfigure_items = view(storage->reconfigure_items);
        document->reload_sections = view(storage->reload_sections);
        return SNAPSHOT_JSON_OK;
    } catch (const std::exception &) {
        return SNAPSHOT_JSON_OUT_OF_MEMORY;
    }
}

extern "C" void snapshot_json_free(snapshot_json_document *document) {
    delete static_cast<Storage *>(document->storage);
    *document = snapshot_json_document{};
}
