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
/* Producer: copies one entry in; false when full. */
bool ear__ring_push(ear__ring *ring, const void *entry);
/* Consumer: copies one entry out; false when empty. */
bool ear__ring_pop(ear__ring *ring, void *entry);
/* Entries waiting (exact for either side's own view). */
size_t ear__ring_count(ear__ring *ring);
size_t ear__ring_capacity(const ear__ring *ring);

#endif
