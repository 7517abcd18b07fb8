/* Plain-C timing of dfc_diff_flat on the churn scenario (no Swift involved):
 *   make c-bench                       (n = 1,000,000, median of 7 runs)
 *   flat_bench [N] [unique]            (unique: DFC_DIFF_ASSUME_UNIQUE)
 *   DFC_BENCH_REPEAT=30 perf record …  (each timed run repeats the diff, so a profile
 *                                       is not dominated by building the input)
 * Useful with perf/callgrind when the Swift bench shows a regression. */
#define _POSIX_C_SOURCE 199309L
#include "dfc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t state = 1;
static uint64_t next_random(void) {
    uint64_t z = (state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* churn: delete 5%, move 5%, insert 5% (moves and inserts at random places) */
static size_t make_churn(const uint64_t *old, size_t n, uint64_t *out) {
    size_t share = n / 20, k = 0;
    unsigned char *gone = calloc(n, 1);
    for (size_t i = 0; i < share; i++) gone[next_random() % n] = 1;
    for (size_t i = 0; i < n; i++) if (!gone[i]) out[k++] = old[i];
    for (size_t i = 0; i < share && k > 1; i++) {
        size_t from = (size_t)(next_random() % k), to = (size_t)(next_random() % k);
        uint64_t moved = out[from];
        if (from < to) memmove(out + from, out + from + 1, (to - from) * sizeof(uint64_t));
        else memmove(out + to + 1, out + to, (from - to) * sizeof(uint64_t));
        out[to] = moved;
    }
    for (size_t i = 0; i < share; i++) {
        size_t at = (size_t)(next_random() % (k + 1));
        memmove(out + at + 1, out + at, (k - at) * sizeof(uint64_t));
        out[at] = n + i;
        k++;
    }
    free(gone);
    return k;
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    unsigned flags = argc > 2 && strcmp(argv[2], "unique") == 0 ? DFC_DIFF_ASSUME_UNIQUE : 0;
    uint64_t *old = malloc(n * sizeof(uint64_t)), *new_keys = malloc((n + n / 10 + 1) * sizeof(uint64_t));
    for (size_t i = 0; i < n; i++) old[i] = i;
    size_t m = make_churn(old, n, new_keys);
    dfc_context *ctx = dfc_context_create(NULL);
    dfc_list a = {old, n, NULL, NULL}, b = {new_keys, m, NULL, NULL};
    dfc_match match = {DFC_MATCH_INJECTIVE, NULL, NULL};
    dfc_flat_result r;
    double samples[7];
    int repeat = getenv("DFC_BENCH_REPEAT") ? atoi(getenv("DFC_BENCH_REPEAT")) : 1;
    dfc_diff_flat(ctx, &a, &b, &match, flags, &r); /* warm-up */
    for (int run = 0; run < 7; run++) {
        double start = now();
        int status = DFC_OK;
        for (int k = 0; k < repeat && status == DFC_OK; k++) status = dfc_diff_flat(ctx, &a, &b, &match, flags, &r);
        samples[run] = (now() - start) / repeat;
        if (status != DFC_OK) { fprintf(stderr, "%s\n", dfc_status_string(status)); return 1; }
    }
    qsort(samples, 7, sizeof(double), compare_double);
    printf("flat churn n=%zu %s: median %.2f ms, %zu moves, %zu inserts, %zu deletes, workspace %.1f MB\n", n,
           flags ? "assume-unique" : "validated", samples[3] * 1000, r.move_count, r.insert_count,
           r.delete_count, (double)dfc_context_sizeof(ctx) / 1048576.0);
    dfc_context_free(ctx);
    free(old);
    free(new_keys);
    return 0;
}
