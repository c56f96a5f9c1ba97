/* SPDX-License-Identifier: Zlib */
/*
 * FNV-1a, the one hash of the engine's determinism checks (audio hashes of renders,
 * physics state hashes, replays) and of its small string tables (translations, saves).
 * Stable across machines: floats are fed by their bits, least significant byte first,
 * never by their bytes in memory order.
 */
#include "earshot/core.h"

#include <string.h>

#define FNV64_PRIME  UINT64_C(0x100000001b3)
#define FNV32_OFFSET 2166136261u
#define FNV32_PRIME  16777619u

uint64_t ear_fnv1a64(uint64_t hash, const void *data, size_t size) {
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++) {
        hash ^= p[i];
        hash *= FNV64_PRIME;
    }
    return hash;
}

uint64_t ear_fnv1a64_floats(uint64_t hash, const float *samples, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint32_t bits;
        memcpy(&bits, &samples[i], sizeof bits);
        for (int b = 0; b < 4; b++) {
            hash ^= (uint64_t)((bits >> (8 * b)) & 0xffu);
            hash *= FNV64_PRIME;
        }
    }
    return hash;
}

uint32_t ear_fnv1a32_str(const char *text) {
    uint32_t h = FNV32_OFFSET;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= FNV32_PRIME;
    }
    return h;
}
