// Candidate measurement: simdjson (On-Demand, then DOM) parses a snapshot file into flat
// arrays (identifier bytes + offsets, section starts), as the CLI would need them.
// Prints the times in ms; run under /usr/bin/time -v for the peak.
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <string_view>
#include <vector>

static double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: simdjson_parse ondemand|dom FILE\n");
        return 2;
    }
    simdjson::padded_string json;
    if (simdjson::padded_string::load(argv[2]).get(json)) return 2;
    std::vector<char> text;
    std::vector<size_t> offsets;
    size_t sections = 0;
    double start = now_ms();
    if (std::string_view(argv[1]) == "ondemand") {
        simdjson::ondemand::parser parser;
        auto document = parser.iterate(json);
        for (auto section : document["sections"].get_array()) {
            sections++;
            for (auto item : section["items"].get_array()) {
                std::string_view value = item.get_string();
                text.insert(text.end(), value.begin(), value.end());
                offsets.push_back(text.size());
            }
        }
        std::printf("simdjson On-Demand: parse+flatten %.1f ms: %zu sections, %zu items\n", now_ms() - start, sections,
                    offsets.size());
    } else {
        simdjson::dom::parser parser;
        simdjson::dom::element root = parser.parse(json);
        double parsed = now_ms();
        for (auto section : root["sections"].get_array()) {
            sections++;
            for (auto item : section["items"].get_array()) {
                std::string_view value = item.get_string();
                text.insert(text.end(), value.begin(), value.end());
                offsets.push_back(text.size());
            }
        }
        std::printf("simdjson DOM: parse %.1f ms, flatten %.1f ms: %zu sections, %zu items\n", parsed - start, now_ms() - parsed,
                    sections, offsets.size());
    }
    return 0;
}
