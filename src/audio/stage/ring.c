/* SPDX-License-Identifier: Zlib */
/*
 * SPSC ring (see ring.h). Indices grow without wrapping (size_t) and are masked on
 * use, so full and empty are told apart by head - tail without a spare slot.
 */
#include "ring.h"

#include <string.h>

void ear__ring_init(ear__ring *ring, void *memory, size_t capacity, size_t entry_size) {
    atomic_init(&ring->head, 0);
    atomic_init(&ring->tail, 0);
    ring->tail_seen = 0;
    ring->head_seen = 0;
    ring->mask = capacity - 1;
    ring->entry_size = entry_size;
    ring->entries = memory;
}

size_t ear__ring_count(ear__ring *ring) {
    size_t head = atomic_load_explicit(&ring->head, memory_order_acquire);
    size_t tail = atomic_load_explicit(&ring->tail, memory_order_acquire);
    return head - tail;
}

size_t ear__ring_capacity(const ear__ring *ring) {
    return ring->mask + 1;
}
