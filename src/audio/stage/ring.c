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

bool ear__ring_push(ear__ring *ring, const void *entry) {
    size_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    if (head - ring->tail_seen > ring->mask) {
        ring->tail_seen = atomic_load_explicit(&ring->tail, memory_order_acquire);
        if (head - ring->tail_seen > ring->mask) return false;
    }
    memcpy(ring->entries + (head & ring->mask) * ring->entry_size, entry, ring->entry_size);
    atomic_store_explicit(&ring->head, head + 1, memory_order_release);
    return true;
}

bool ear__ring_pop(ear__ring *ring, void *entry) {
    size_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    if (tail == ring->head_seen) {
        ring->head_seen = atomic_load_explicit(&ring->head, memory_order_acquire);
        if (tail == ring->head_seen) return false;
    }
    memcpy(entry, ring->entries + (tail & ring->mask) * ring->entry_size, ring->entry_size);
    atomic_store_explicit(&ring->tail, tail + 1, memory_order_release);
    return true;
}

size_t ear__ring_count(ear__ring *ring) {
    size_t head = atomic_load_explicit(&ring->head, memory_order_acquire);
    size_t tail = atomic_load_explicit(&ring->tail, memory_order_acquire);
    return head - tail;
}

size_t ear__ring_capacity(const ear__ring *ring) {
    return ring->mask + 1;
}
