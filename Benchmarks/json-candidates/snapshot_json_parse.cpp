// Candidate measurement: the shipped path (CSources/CSnapshotJSON: simdjson DOM, then every
// identifier numbered by the interner) on snapshot files, one interner for all, as
// `diffable diff` reads them. Prints simdjson's DOM parse alone and the whole path per file.
#include "snapshot_json.h"

#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

static double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
    std::vector<simdjson::padded_string> files;
    for (int i = 1; i < argc; i++) {
        simdjson::padded_string file;
        if (simdjson::padded_string::load(argv[i]).get(file)) return 2;
        files.push_back(std::move(file));
    }
    snapshot_interner *interner = snapshot_interner_create();
    // The CLI passes the format's one key table (DiffableTools' SnapshotFormatKeys); this
    // stand-alone measurement, outside the package, names the keys itself.
    auto name = [](const char *key) { return snapshot_string{key, std::strlen(key)}; };
    snapshot_json_keys keys = {name("sections"), name("reloadItems"), name("reconfigureItems"),
                               name("reloadSections"), name("id"), name("items")};
    snapshot_json_parser *parser = snapshot_json_parser_create(&keys);
    for (auto &file : files) {
        double start = now_ms();
        {
            simdjson::dom::parser alone;
            simdjson::dom::element root;
            if (alone.parse(file).get(root)) return 1;
        }
        double parsed = now_ms();
        snapshot_json_document document;
        snapshot_json_status status = snapshot_json_parse(parser, file.data(), file.size(), false, interner, &document);
        double numbered = now_ms();
        std::printf("simdjson DOM alone %.1f ms; DOM + interner %.1f ms: status %d, %zu items, %zu distinct identifiers so far\n",
                    parsed - start, numbered - parsed, static_cast<int>(status), document.items.count,
                    snapshot_interner_count(interner));
        snapshot_json_free(&document);
    }
    snapshot_json_parser_free(parser);
    snapshot_interner_free(interner);
    return 0;
}
