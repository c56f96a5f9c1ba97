/* SPDX-License-Identifier: Zlib */
/*
 * xoshiro256** (Blackman and Vigna), seeded by splitmix64 so that any 64-bit seed,
 * including 0, expands to a non-zero state. The sequence depends only on the seed:
 * no clock, no address, no global state.
 */
#include "earshot/core.h"

static uint64_t rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void ear_rng_seed(ear_rng *rng, uint64_t seed) {
    uint64_t sm = seed;
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&sm);
}

uint64_t ear_rng_next(ear_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double ear_rng_uniform(ear_rng *rng) {
    return (double)(ear_rng_next(rng) >> 11) * 0x1.0p-53;
}

float ear_rng_range(ear_rng *rng, float lo, float hi) {
    if (!(hi > lo)) return lo;
    double u = ear_rng_uniform(rng);
    return (float)((double)lo + u * ((double)hi - (double)lo));
}

uint32_t ear_rng_below(ear_rng *rng, uint32_t n) {
    if (n == 0) return 0;
    /* Lemire's multiply-shift with rejection: unbiased for every n. */
    uint32_t x = (uint32_t)(ear_rng_next(rng) >> 32);
    uint64_t m = (uint64_t)x * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            x = (uint32_t)(ear_rng_next(rng) >> 32);
            m = (uint64_t)x * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}
