/* SPDX-License-Identifier: Zlib */
/*
 * Penetration between axis-aligned boxes and spheres: the shortest push that takes a out
 * of b, as a unit normal (from b towards a) and a depth. Overlap must be strictly
 * positive, so bodies that only touch (a box resting exactly on a floor, two walls edge
 * to edge) are not in contact. Shapes never rotate, so every test is a handful of
 * comparisons.
 */
#include "physics_internal.h"

static float absf(float x) {
    return x < 0 ? -x : x;
}

static float clampf(float x, float lo, float hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

static bool box_box(const ear_collider *a, const ear_collider *b, ear_vec3 *n, float *depth) {
    float d[3] = {a->center_m.x - b->center_m.x, a->center_m.y - b->center_m.y,
                  a->center_m.z - b->center_m.z};
    float h[3] = {a->half_extents_m.x + b->half_extents_m.x,
                  a->half_extents_m.y + b->half_extents_m.y,
                  a->half_extents_m.z + b->half_extents_m.z};
    int best = -1;
    float best_o = 0;
    for (int k = 0; k < 3; k++) {
        float o = h[k] - absf(d[k]);
        if (!(o > 0)) return false;
        if (best < 0 || o < best_o) {
            best = k;
            best_o = o;
        }
    }
    float s = d[best] < 0 ? -1.0f : 1.0f;
    *n = ear_vec3_make(best == 0 ? s : 0, best == 1 ? s : 0, best == 2 ? s : 0);
    *depth = best_o;
    return true;
}

static bool sphere_sphere(const ear_collider *a, const ear_collider *b, ear_vec3 *n,
                          float *depth) {
    ear_vec3 d = ear_vec3_sub(a->center_m, b->center_m);
    float r = a->radius_m + b->radius_m;
    float d2 = ear_vec3_dot(d, d);
    if (!(d2 < r * r)) return false;
    float dist = sqrtf(d2);
    *n = dist > 1e-9f ? ear_vec3_scale(d, 1.0f / dist) : ear_vec3_make(0, 1, 0);
    *depth = r - dist;
    return *depth > 0;
}

/* Sphere s against box b: normal from the box towards the sphere. */
static bool sphere_box(const ear_collider *s, const ear_collider *b, ear_vec3 *n,
                       float *depth) {
    ear_vec3 c = s->center_m, bc = b->center_m, h = b->half_extents_m;
    ear_vec3 q =
        ear_vec3_make(clampf(c.x, bc.x - h.x, bc.x + h.x), clampf(c.y, bc.y - h.y, bc.y + h.y),
                      clampf(c.z, bc.z - h.z, bc.z + h.z));
    ear_vec3 d = ear_vec3_sub(c, q);
    float d2 = ear_vec3_dot(d, d);
    if (d2 > 0) {
        if (!(d2 < s->radius_m * s->radius_m)) return false;
        float dist = sqrtf(d2);
        *n = ear_vec3_scale(d, 1.0f / dist);
        *depth = s->radius_m - dist;
        return *depth > 0;
    }
    /* The centre is inside: out through the nearest face. */
    float rel[3] = {c.x - bc.x, c.y - bc.y, c.z - bc.z};
    float hh[3] = {h.x, h.y, h.z};
    int best = 0;
    float best_gap = hh[0] - absf(rel[0]);
    for (int k = 1; k < 3; k++) {
        float gap = hh[k] - absf(rel[k]);
        if (gap < best_gap) {
            best = k;
            best_gap = gap;
        }
    }
    float sgn = rel[best] < 0 ? -1.0f : 1.0f;
    *n = ear_vec3_make(best == 0 ? sgn : 0, best == 1 ? sgn : 0, best == 2 ? sgn : 0);
    *depth = s->radius_m + best_gap;
    return true;
}

bool ear_collider_penetration(const ear_collider *a, const ear_collider *b,
                              ear_vec3 *out_normal, float *out_depth_m) {
    if (!a || !b || !out_normal || !out_depth_m) return false;
    ear_vec3 n;
    float depth;
    bool hit;
    if (a->shape == EAR_SHAPE_BOX && b->shape == EAR_SHAPE_BOX) {
        hit = box_box(a, b, &n, &depth);
    } else if (a->shape == EAR_SHAPE_SPHERE && b->shape == EAR_SHAPE_SPHERE) {
        hit = sphere_sphere(a, b, &n, &depth);
    } else if (a->shape == EAR_SHAPE_SPHERE) {
        hit = sphere_box(a, b, &n, &depth);
    } else {
        hit = sphere_box(b, a, &n, &depth);
        n = ear_vec3_scale(n, -1.0f);
    }
    if (!hit) return false;
    *out_normal = n;
    *out_depth_m = depth;
    return true;
}

bool ear_body_penetration(const ear_physics *w, ear_body_id a, ear_body_id b,
                          ear_vec3 *out_normal, float *out_depth_m) {
    ear__body *ba = ear__body_lookup(w, a), *bb = ear__body_lookup(w, b);
    if (!ba || !bb) return false;
    ear_collider ca = ear__collider_of(ba), cb = ear__collider_of(bb);
    return ear_collider_penetration(&ca, &cb, out_normal, out_depth_m);
}

ear_vec3 ear__contact_point(const ear_collider *a, const ear_collider *b, ear_vec3 n,
                            float depth) {
    if (a->shape == EAR_SHAPE_SPHERE)
        return ear_vec3_sub(a->center_m, ear_vec3_scale(n, a->radius_m - 0.5f * depth));
    if (b->shape == EAR_SHAPE_SPHERE)
        return ear_vec3_add(b->center_m, ear_vec3_scale(n, b->radius_m - 0.5f * depth));
    /* Two boxes: the middle of their overlap. */
    float lo[3], hi[3];
    const float ac[3] = {a->center_m.x, a->center_m.y, a->center_m.z};
    const float ah[3] = {a->half_extents_m.x, a->half_extents_m.y, a->half_extents_m.z};
    const float bc[3] = {b->center_m.x, b->center_m.y, b->center_m.z};
    const float bh[3] = {b->half_extents_m.x, b->half_extents_m.y, b->half_extents_m.z};
    for (int k = 0; k < 3; k++) {
        float alo = ac[k] - ah[k], ahi = ac[k] + ah[k];
        float blo = bc[k] - bh[k], bhi = bc[k] + bh[k];
        lo[k] = alo > blo ? alo : blo;
        hi[k] = ahi < bhi ? ahi : bhi;
    }
    return ear_vec3_make(0.5f * (lo[0] + hi[0]), 0.5f * (lo[1] + hi[1]),
                         0.5f * (lo[2] + hi[2]));
}
