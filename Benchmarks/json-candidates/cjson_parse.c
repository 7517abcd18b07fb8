// Candidate measurement: cJSON parses a snapshot file and its tree is copied into flat
// arrays (identifier bytes + offsets, section starts), as the CLI would need them.
// Prints the parse and flatten times in ms; run under /usr/bin/time -v for the peak.
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: cjson_parse FILE\n"); return 2; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 2; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc((size_t)size);
    if (fread(bytes, 1, (size_t)size, file) != (size_t)size) return 2;
    fclose(file);
    double start = now_ms();
    cJSON *root = cJSON_ParseWithLength(bytes, (size_t)size);
    double parsed = now_ms();
    if (!root) { fprintf(stderr, "parse error at byte %ld\n", (long)(cJSON_GetErrorPtr() - bytes)); return 1; }
    size_t capacity = (size_t)size, used = 0, count = 0, sections = 0;
    char *text = malloc(capacity);
    size_t *offsets = malloc(sizeof(size_t) * ((size_t)size / 4 + 1));
    cJSON *section;
    cJSON_ArrayForEach(section, cJSON_GetObjectItemCaseSensitive(root, "sections")) {
        sections++;
        cJSON *item;
        cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(section, "items")) {
            size_t length = strlen(item->valuestring);
            memcpy(text + used, item->valuestring, length);
            used += length;
            offsets[count++] = used;
        }
    }
    double flattened = now_ms();
    cJSON_Delete(root);
    printf("cJSON: parse %.1f ms, flatten %.1f ms, free %.1f ms: %zu sections, %zu items\n", parsed - start, flattened - parsed,
           now_ms() - flattened, sections, count);
    return 0;
}
