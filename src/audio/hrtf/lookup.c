/* SPDX-License-Identifier: Zlib */
/*
 * Directions between measurements: the stage's lookup (ear_hrtf_rings_weights, bilinear in
 * elevation between the two rings around it and in azimuth between the two measured
 * azimuths around it in each ring, across 0/360) over a loaded set's rings, and the
 * filters summed with its weights. No allocation, so a renderer may run it in its audio
 * thread. Also the set as the stage takes it (ear_hrtf_stage_view).
 */
#include <math.h>
#include <string.h>

#include "earshot/hrtf.h"

uint32_t ear_hrtf_weights(const ear_hrtf_set *s, float azimuth_deg, float elevation_deg,
                          uint32_t index[4], float weight[4]) {
    const ear_hrtf_rings rings = {s->azimuth_deg, s->ring_elevation, s->ring_start,
                                  s->ring_index, s->rings};
    return ear_hrtf_rings_weights(&rings, azimuth_deg, elevation_deg, index, weight);
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
