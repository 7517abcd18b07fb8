/* A minimal test harness: CHECK records a failure and keeps going. */
#ifndef DFC_TEST_HARNESS_H
#define DFC_TEST_HARNESS_H

#include <stdio.h>

extern int harness_failures_in_test;

#define CHECK(condition)                                                                  \
    do {                                                                                  \
        if (!(condition)) {                                                               \
            fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
            harness_failures_in_test++;                                                   \
        }                                                                                 \
    } while (0)

#define CHECK_EQ_INT(actual, expected)                                                    \
    do {                                                                                  \
        long long harness_a = (long long)(actual), harness_e = (long long)(expected);     \
        if (harness_a != harness_e) {                                                     \
            fprintf(stderr, "  %s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__,   \
                    #actual, harness_a, harness_e);                                       \
            harness_failures_in_test++;                                                   \
        }                                                                                 \
    } while (0)

typedef void (*harness_test_fn)(void);
typedef struct harness_test {
    const char *name;
    harness_test_fn run;
} harness_test;

/* Tests in test_contract.c, run by test_main.c. */
void test_contract(void);
void test_size_guards(void);
int contract_list(void); /* prints every function the contract table covers */

#endif
