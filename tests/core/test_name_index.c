/* SPDX-License-Identifier: Zlib */
/*
 * The name index (src/core/name_index.c) that keeps the registry's and the assets' name
 * tables linear: 100k names are added and each found, with the names it reads counted
 * (the arrays searched in order read n * n / 2 of them: defining 100k clips took 77.6 s),
 * a missing name is missing, and an allocator that refuses leaves the index unchanged.
 */
#include "earshot/core.h"

#include "test.h"

#include <stdio.h>
#include <stdlib.h>

#define N 100000u

typedef struct names {
    char (*name)[16];
    uint64_t reads;
} names;

static const char *name_of(const void *user, uint32_t pos) {
    names *n = (names *)(uintptr_t)user;
    n->reads++;
    return n->name[pos];
}

static void *refuse(size_t size, void *user) {
    (void)size;
    (void)user;
    return NULL;
}

TEST(many_names_cost_linear_time) {
    names n = {calloc(N, sizeof *n.name), 0};
    ASSERT_TRUE(n.name != NULL);
    ear__name_index ix = {0};
    for (uint32_t i = 0; i < N; i++) {
        snprintf(n.name[i], sizeof n.name[i], "clip%u", i);
        ASSERT_EQ(ear__name_index_find(&ix, n.name[i], name_of, &n), UINT32_MAX);
        ASSERT_TRUE(ear__name_index_add(&ix, NULL, n.name[i], i, name_of, &n));
    }
    for (uint32_t i = 0; i < N; i++)
        ASSERT_EQ(ear__name_index_find(&ix, n.name[i], name_of, &n), i);
    ASSERT_EQ(ear__name_index_find(&ix, "clip100000", name_of, &n), UINT32_MAX);
    /* Adds, rehashes and finds: a few reads a name, where a search in order reads n/2. */
    printf("name_index: %llu names read for %u adds and %u finds\n",
           (unsigned long long)n.reads, N, 2 * N);
    ASSERT_LT(n.reads, (uint64_t)N * 12);
    ASSERT_LE(ear__name_index_bytes(&ix), (size_t)N * 4 * sizeof(uint32_t));
    /* A refused allocation changes nothing. */
    ear_allocator no = {refuse, NULL, NULL, NULL};
    ear__name_index small = {0};
    ASSERT_TRUE(!ear__name_index_add(&small, &no, "a", 0, name_of, &n));
    ASSERT_EQ(small.count, 0u);
    ASSERT_TRUE(!ear__name_index_add(&ix, NULL, "late", N + 1, name_of, &n)); /* not next */
    ASSERT_EQ(ix.count, N);
    ear__name_index_free(&ix, NULL);
    ear__name_index_free(&small, NULL);
    free(n.name);
}

TEST_MAIN(TEST_ENTRY(many_names_cost_linear_time))
