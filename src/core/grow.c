/* SPDX-License-Identifier: Zlib */
/*
 * The growing array: one rule for every module's lists (the physics world's bodies, grids
 * and pairs; the assets cache's entries): room doubles from 16 items until it holds what
 * is asked, through the caller's allocator (its realloc; alloc, copy and free when it
 * gives alloc without realloc), and nothing changes when that fails.
 *
 * Like the name index, internal to each shared library (its `ear__` name is not exported).
 */
#include "earshot/core.h"

#include <stdint.h>
#include <string.h>

bool ear__grow(const ear_allocator *alloc, void **items, uint32_t *cap, uint32_t need,
               size_t elem) {
    if (need <= *cap) return true;
    uint32_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > UINT32_MAX / 2) return false;
        n *= 2;
    }
    if (elem && (size_t)n > SIZE_MAX / elem) return false;
    size_t bytes = (size_t)n * elem;
    ear_allocator a = ear_allocator_resolve(alloc);
    void *grown;
    if (!alloc || alloc->realloc_fn || !alloc->alloc_fn) {
        grown = a.realloc_fn(*items, bytes, a.user);
        if (!grown) return false;
    } else {
        /* An allocator that gives alloc and free but no realloc: a new block, the items
         * copied, the old block freed, all through its own functions. */
        grown = a.alloc_fn(bytes, a.user);
        if (!grown) return false;
        if (*items) {
            memcpy(grown, *items, (size_t)*cap * elem);
            a.free_fn(*items, a.user);
        }
    }
    *items = grown;
    *cap = n;
    return true;
}
