/* SPDX-License-Identifier: Zlib */
/*
 * A single-producer/single-consumer ring of fixed-size entries. The producer owns
 * `head`, the consumer owns `tail`; each reads the other's index with acquire and
 * publishes its own with release, so an entry's bytes are visible before its index.
 * Neither side ever blocks or allocates: push on a full ring and pop on an empty one
 * return false. Each side remembers the other's index as last seen and reads the shared
 * one again only when that view says full (or empty), so a push or pop usually touches
 * no cache line the other thread writes.
 */
#ifndef EAR_STAGE_RING_H
#define EAR_STAGE_RING_H

#include "earshot/core.h"

#include <stdatomic.h>
#include <string.h>

typedef struct ear__ring {
    _Alignas(64) _Atomic size_t head; /* next slot to write (producer) */
    size_t tail_seen;                 /* producer's last view of tail (its own line) */
    _Alignas(64) _Atomic size_t tail; /* next slot to read (consumer) */
    size_t head_seen;                 /* consumer's last view of head */
    _Alignas(64) size_t mask;         /* capacity - 1; capacity is a power of two */
    size_t entry_size;
    unsigned char *entries;
} ear__ring;

/* Sets up a ring over caller-provided memory of capacity * entry_size bytes;
 * capacity must be a power of two. */
void ear__ring_init(ear__ring *ring, void *memory, size_t capacity, size_t entry_size);
size_t ear__ring_count(ear__ring *ring);
size_t ear__ring_capacity(const ear__ring *ring);

/* For the few functions on every command's path that the compiler must inline whatever
 * its budget says (measured: out of line they cost VIRT 3 % more instructions). */
#if defined(__GNUC__)
#define EAR__ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define EAR__ALWAYS_INLINE inline
#endif

/* The hot operations are inline: a command costs a few instructions on each side. */

/* Producer: the slot the next push would fill, to be written in place and published
 * with ear__ring_commit; NULL when full. */
static inline void *ear__ring_reserve(ear__ring *ring) {
    size_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    if (head - ring->tail_seen > ring->mask) {
        ring->tail_seen = atomic_load_explicit(&ring->tail, memory_order_acquire);
        if (head - ring->tail_seen > ring->mask) return NULL;
    }
    return ring->entries + (head & ring->mask) * ring->entry_size;
}

/* Producer: publishes the slot ear__ring_reserve returned. */
static inline void ear__ring_commit(ear__ring *ring) {
    size_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    atomic_store_explicit(&ring->head, head + 1, memory_order_release);
}

/* Producer: copies one entry in; false when full. */
static inline bool ear__ring_push(ear__ring *ring, const void *entry) {
    void *slot = ear__ring_reserve(ring);
    if (!slot) return false;
    memcpy(slot, entry, ring->entry_size);
    ear__ring_commit(ring);
    return true;
}

/* Consumer: true when there is nothing to pop (cheap: no shared line is read unless the
 * consumer's last view says empty). */
static EAR__ALWAYS_INLINE bool ear__ring_empty(ear__ring *ring) {
    size_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    if (tail != ring->head_seen) return false;
    ring->head_seen = atomic_load_explicit(&ring->head, memory_order_acquire);
    return tail == ring->head_seen;
}

/* Consumer: copies one entry out; false when empty. */
static inline bool ear__ring_pop(ear__ring *ring, void *entry) {
    if (ear__ring_empty(ring)) return false;
    size_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    memcpy(entry, ring->entries + (tail & ring->mask) * ring->entry_size, ring->entry_size);
    atomic_store_explicit(&ring->tail, tail + 1, memory_order_release);
    return true;
}

/* Consumer, in batches: every entry published so far is at indices [*tail, end) (entry
 * i at ear__ring_entry), read in place; ear__ring_release(ring, end) then frees them
 * all with one store. Returns end. */
static inline size_t ear__ring_published(ear__ring *ring, size_t *tail) {
    *tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    ring->head_seen = atomic_load_explicit(&ring->head, memory_order_acquire);
    return ring->head_seen;
}

static inline const void *ear__ring_entry(const ear__ring *ring, size_t i, size_t size) {
    return ring->entries + (i & ring->mask) * size;
}

static inline void ear__ring_release(ear__ring *ring, size_t end) {
    atomic_store_explicit(&ring->tail, end, memory_order_release);
}

#endif
