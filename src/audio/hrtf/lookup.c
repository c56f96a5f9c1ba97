/* SPDX-License-Identifier: Zlib */
/*
 * Directions between measurements: bilinear in elevation (between the two rings around
 * it) and azimuth (between the two measured azimuths around it in each ring, across 0/360).
 * C11 + libm only, no allocation, so a renderer may run it in its audio thread. Also the
 * set as the stage takes it (ear_hrtf_stage_view).
 */
#include <math.h>
#include <string.h>

#include "earshot/hrtf.h"

/* In ring r, the two neighbours of azimuth a and the weight u of the second. */
static void ring_pair(const ear_hrtf_set *s, uint32_t r, float a, uint32_t *i0, uint32_t *i1,
                      float *u) {
    uint32_t lo = s->ring_start[r], hi = s->ring_start[r + 1];
    const uint32_t *idx = s->ring_index;
    if (hi - lo == 1) {
        *i0 = *i1 = idx[lo];
        *u = 0.0f;
        return;
    }
    float first = s->azimuth_deg[idx[lo]], last = s->azimuth_deg[idx[hi - 1]];
    if (a < first || a >= last) { /* between the last and (across 360) the first */
        float gap = first + 360.0f - last;
        float off = a >= last ? a - last : a + 360.0f - last;
        *i0 = idx[hi - 1];
        *i1 = idx[lo];
        *u = gap > 0.0f ? off / gap : 0.0f;
        return;
    }
    uint32_t a0 = lo, a1 = hi - 1; /* binary search: az[a0] <= a < az[a1] */
    while (a1 - a0 > 1) {
        uint32_t mid = a0 + (a1 - a0) / 2;
        if (s->azimuth_deg[idx[mid]] <= a) {
            a0 = mid;
        } else {
            a1 = mid;
        }
    }
    float z0 = s->azimuth_deg[idx[a0]], z1 = s->azimuth_deg[idx[a1]];
    *i0 = idx[a0];
    *i1 = idx[a1];
    *u = z1 > z0 ? (a - z0) / (z1 - z0) : 0.0f;
}

static uint32_t add(uint32_t n, uint32_t index[4], float weight[4], uint32_t i, float w) {
    if (w <= 0.0f) return n;
    for (uint32_t k = 0; k < n; k++) {
        if (index[k] == i) {
            weight[k] += w;
            return n;
        }
    }
    index[n] = i;
    weight[n] = w;
    return n + 1;
}

uint32_t ear_hrtf_weights(const ear_hrtf_set *s, float azimuth_deg, float elevation_deg,
                          uint32_t index[4], float weight[4]) {
    float a = fmodf(azimuth_deg, 360.0f);
    if (a < 0.0f) a += 360.0f;
    if (a >= 360.0f) a = 0.0f;
    uint32_t r0 = 0, r1 = 0;
    float t = 0.0f;
    if (elevation_deg <= s->ring_elevation[0]) {
        r0 = r1 = 0;
    } else if (elevation_deg >= s->ring_elevation[s->rings - 1]) {
        r0 = r1 = s->rings - 1;
    } else {
        while (r0 + 1 < s->rings && s->ring_elevation[r0 + 1] <= elevation_deg) r0++;
        r1 = r0 + 1 < s->rings ? r0 + 1 : r0;
        float e0 = s->ring_elevation[r0], e1 = s->ring_elevation[r1];
        t = e1 > e0 ? (elevation_deg - e0) / (e1 - e0) : 0.0f;
    }
    uint32_t p0, p1, q0, q1;
    float u0, u1;
    ring_pair(s, r0, a, &p0, &p1, &u0);
    ring_pair(s, r1, a, &q0, &q1, &u1);
    uint32_t n = 0;
    n = add(n, index, weight, p0, (1.0f - t) * (1.0f - u0));
    n = add(n, index, weight, p1, (1.0f - t) * u0);
    n = add(n, index, weight, q0, t * (1.0f - u1));
    n = add(n, index, weight, q1, t * u1);
    if (n == 0) { /* rounding left every weight at 0: the nearest */
        index[0] = p0;
        weight[0] = 1.0f;
        n = 1;
    }
    float sum = 0.0f;
    for (uint32_t k = 0; k < n; k++) sum += weight[k];
    for (uint32_t k = 0; k < n; k++) weight[k] /= sum;
    return n;
}

ear_result ear_hrtf_lookup(const ear_hrtf_set *s, float azimuth_deg, float elevation_deg,
                           float *left, float *right, float *delay_left, float *delay_right) {
    if (!s || !left || !right || !delay_left || !delay_right || !isfinite(azimuth_deg) ||
        !isfinite(elevation_deg) || s->rings == 0)
        return EAR_E_INVALID_ARG;
    uint32_t index[4];
    float weight[4];
    uint32_t n = ear_hrtf_weights(s, azimuth_deg, elevation_deg, index, weight);
    uint32_t taps = s->taps;
    for (uint32_t i = 0; i < taps; i++) left[i] = right[i] = 0.0f;
    float dl = 0.0f, dr = 0.0f;
    for (uint32_t k = 0; k < n; k++) {
        const float *l = s->left + (size_t)index[k] * taps;
        const float *r = s->right + (size_t)index[k] * taps;
        float w = weight[k];
        for (uint32_t i = 0; i < taps; i++) {
            left[i] += w * l[i];
            right[i] += w * r[i];
        }
        dl += w * s->delay_left[index[k]];
        dr += w * s->delay_right[index[k]];
    }
    *delay_left = dl;
    *delay_right = dr;
    return EAR_OK;
}

ear_stage_hrtf ear_hrtf_stage_view(const ear_hrtf_set *s) {
    ear_stage_hrtf v;
    memset(&v, 0, sizeof v);
    if (!s) return v;
    v.sample_rate = s->sample_rate;
    v.taps = s->taps;
    v.count = s->count;
    v.azimuth_deg = s->azimuth_deg;
    v.elevation_deg = s->elevation_deg;
    v.left = s->left;
    v.right = s->right;
    v.delay_left = s->delay_left;
    v.delay_right = s->delay_right;
    v.source = s->source;
    return v;
}
