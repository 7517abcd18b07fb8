/* Replays fuzz inputs (the files given as arguments) without libFuzzer, so a committed corpus
 * runs in ordinary builds too (the zstd tests/fuzz pattern); the C targets and the Swift ones
 * share it. Each input runs in a child process, so an oracle that aborts (or a sanitizer
 * report) fails that input alone and the replay goes on: every failing input is named, then
 * "<program>: N inputs replayed, F failed" (the program's name tells the corpora apart). Exits non-zero when an input failed, a file
 * could not be read, or there was no input at all. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole file in a malloc'd buffer (*size bytes), or NULL with errno set. */
static uint8_t *read_input(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    size_t capacity = 4096, length = 0;
    uint8_t *data = malloc(capacity);
    while (data != NULL) {
        length += fread(data + length, 1, capacity - length, file);
        if (length < capacity) break;
        uint8_t *grown = realloc(data, capacity *= 2);
        if (grown == NULL) free(data);
        data = grown;
    }
    const int failed = data == NULL || ferror(file);
    const int saved = data == NULL ? ENOMEM : EIO;
    fclose(file);
    if (failed) {
        free(data);
        errno = saved;
        return NULL;
    }
    *size = length;
    return data;
}

int main(int argc, char **argv) {
    const char *name = argc > 0 ? basename(argv[0]) : "fuzz corpus";
    int replayed = 0, failed = 0, unreadable = 0;
    for (int k = 1; k < argc; k++) {
        size_t size = 0;
        uint8_t *data = read_input(argv[k], &size);
        if (data == NULL) {
            fprintf(stderr, "%s: cannot read %s: %s\n", name, argv[k], strerror(errno));
            unreadable++;
            continue;
        }
        fflush(stdout);
        fflush(stderr);
        const pid_t child = fork();
        if (child == 0) {
            LLVMFuzzerTestOneInput(data, size);
            free(data);
            exit(0);
        }
        free(data);
        int status = 0;
        if (child < 0 || waitpid(child, &status, 0) != child) {
            fprintf(stderr, "%s: cannot run %s: %s\n", name, argv[k], strerror(errno));
            failed++;
            continue;
        }
        replayed++;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;
        failed++;
        if (WIFSIGNALED(status))
            fprintf(stderr, "%s: FAILED %s (signal %d, %s)\n", name, argv[k], WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            fprintf(stderr, "%s: FAILED %s (exit status %d)\n", name, argv[k], WEXITSTATUS(status));
    }
    printf("%s: %d inputs replayed, %d failed", name, replayed, failed);
    if (unreadable > 0) printf(", %d unreadable", unreadable);
    printf("\n");
    if (replayed == 0 && unreadable == 0) fprintf(stderr, "%s: no input given\n", name);
    return failed == 0 && unreadable == 0 && replayed > 0 ? 0 : 1;
}
