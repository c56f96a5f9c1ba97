/* SPDX-License-Identifier: Zlib */
/*
 * The default allocator: the C library's malloc, realloc and free. Objects that take
 * an ear_allocator fall back to it when given NULL.
 */
#include "earshot/core.h"

#include <stdlib.h>

static void *default_alloc(size_t size, void *user) {
    (void)user;
    return malloc(size);
}

static void *default_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    return realloc(ptr, size);
}

static void default_free(void *ptr, void *user) {
    (void)user;
    free(ptr);
}

static const ear_allocator default_allocator = {default_alloc, default_realloc, default_free,
                                                NULL};

const ear_allocator *ear_allocator_default(void) {
    return &default_allocator;
}

ear_allocator ear_allocator_resolve(const ear_allocator *given) {
    ear_allocator a = default_allocator;
    if (given) {
        if (given->alloc_fn) a.alloc_fn = given->alloc_fn;
        if (given->realloc_fn) a.realloc_fn = given->realloc_fn;
        if (given->free_fn) a.free_fn = given->free_fn;
        a.user = given->user;
    }
    return a;
}
