/* SPDX-License-Identifier: Zlib */
/*
 * Ray casts along a segment and overlap queries. Boxes use the slab method (the segment
 * clipped against the three pairs of planes; the last plane entered gives the normal),
 * spheres the quadratic |from + t d - c|^2 = r^2. A segment that starts inside a body
 * hits it at distance 0 with the normal against the ray. Candidates come from the broad
 * phase along the segment, so a cast costs what lies near it.
 *
 * The queries are declared on a const world, but the broad phase marks bodies it has
 * visited (a stamp) and may rebuild a stale grid; both are bookkeeping invisible to the
 * caller, done on the world's own thread.
 */
#include "physics_internal.h"

#include <string.h>

static bool ray_box(ear_vec3 p, ear_vec3 d, const ear__body *b, float *t_out, ear_vec3 *n_out) {
    const float pp[3] = {p.x, p.y, p.z}, dd[3] = {d.x, d.y, d.z};
    const float lo[3] = {b->pos.x - b->half.x, b->pos.y - b->half.y, b->pos.z - b->half.z};
    const float hi[3] = {b->pos.x + b->half.x, b->pos.y + b->half.y, b->pos.z + b->half.z};
    float tmin = -INFINITY, tmax = INFINITY;
    int axis = -1;
    float sign = 0;
    for (int k = 0; k < 3; k++) {
        if (dd[k] == 0) {
            if (pp[k] < lo[k] || pp[k] > hi[k]) return false;
            continue;
        }
        float inv = 1.0f / dd[k];
        float t1 = (lo[k] - pp[k]) * inv, t2 = (hi[k] - pp[k]) * inv;
        float s = -1.0f; /* entering through the low face: normal -axis */
        if (t1 > t2) {
            float t = t1;
            t1 = t2;
            t2 = t;
            s = 1.0f;
        }
        if (t1 > tmin) {
            tmin = t1;
            axis = k;
            sign = s;
        }
        if (t2 < tmax) tmax = t2;
        if (tmin > tmax) return false;
    }
    if (tmax < 0 || tmin > 1) return false;
    if (tmin <= 0 || axis < 0) {
        *t_out = 0;
        *n_out = ear_vec3_scale(ear_vec3_normalize_or(d, ear_vec3_make(0, 1, 0)), -1.0f);
        return true;
    }
    *t_out = tmin;
    *n_out = ear_vec3_make(axis == 0 ? sign : 0, axis == 1 ? sign : 0, axis == 2 ? sign : 0);
    return true;
}

static bool ray_sphere(ear_vec3 p, ear_vec3 d, const ear__body *b, float *t_out,
                       ear_vec3 *n_out) {
    ear_vec3 m = ear_vec3_sub(p, b->pos);
    float c = ear_vec3_dot(m, m) - b->radius * b->radius;
    if (c <= 0) {
        *t_out = 0;
        *n_out = ear_vec3_scale(ear_vec3_normalize_or(d, ear_vec3_make(0, 1, 0)), -1.0f);
        return true;
    }
    float a = ear_vec3_dot(d, d);
    if (a == 0) return false;
    float hb = ear_vec3_dot(m, d);
    if (hb > 0) return false; /* outside and pointing away */
    float disc = hb * hb - a * c;
    if (disc < 0) return false;
    float t = (-hb - sqrtf(disc)) / a;
    if (t < 0 || t > 1) return false;
    *t_out = t;
    ear_vec3 q = ear_vec3_add(p, ear_vec3_scale(d, t));
    *n_out = ear_vec3_scale(ear_vec3_sub(q, b->pos), 1.0f / b->radius);
    return true;
}

typedef struct ray_ctx {
    ear_vec3 from, d;
    float len;
    const ear_ray_options *opt;
    /* nearest */
    bool found;
    ear_ray_hit best;
    uint32_t best_index;
    /* all */
    ear_ray_hit *hits;
    size_t cap, kept, total;
} ray_ctx;

/* The dense index of a live body's id (ids in a hit list are live). */
static uint32_t dense_of(const ear_physics *w, ear_body_id id) {
    return w->slots[(uint32_t)(id & 0xffffffffu)].dense;
}

static bool skipped(const ear_physics *w, uint32_t k, const ear_ray_options *opt) {
    const ear__body *b = &w->bodies[k];
    if (b->sensor && !(opt && opt->include_sensors)) return true;
    if (opt && opt->ignore)
        for (size_t i = 0; i < opt->ignore_count; i++)
            if (opt->ignore[i] == b->id) return true;
    return false;
}

static bool hit_of(const ear_physics *w, uint32_t k, const ray_ctx *r, ear_ray_hit *h) {
    const ear__body *b = &w->bodies[k];
    float t;
    ear_vec3 n;
    bool hit = b->shape == EAR_SHAPE_BOX ? ray_box(r->from, r->d, b, &t, &n)
                                         : ray_sphere(r->from, r->d, b, &t, &n);
    if (!hit) return false;
    h->body = b->id;
    h->distance_m = t * r->len;
    h->point_m = ear_vec3_add(r->from, ear_vec3_scale(r->d, t));
    h->normal = n;
    return true;
}

/* a before b: nearer, then earlier in id order. */
static bool before(const ear_ray_hit *a, uint32_t ai, const ear_ray_hit *b, uint32_t bi) {
    return a->distance_m < b->distance_m || (a->distance_m == b->distance_m && ai < bi);
}

static bool nearest_visit(ear_physics *w, uint32_t k, void *user) {
    ray_ctx *r = user;
    if (skipped(w, k, r->opt)) return true;
    ear_ray_hit h;
    if (!hit_of(w, k, r, &h)) return true;
    if (!r->found || before(&h, k, &r->best, r->best_index)) {
        r->found = true;
        r->best = h;
        r->best_index = k;
    }
    return true;
}

static bool all_visit(ear_physics *w, uint32_t k, void *user) {
    ray_ctx *r = user;
    if (skipped(w, k, r->opt)) return true;
    ear_ray_hit h;
    if (!hit_of(w, k, r, &h)) return true;
    r->total++;
    if (r->cap == 0) return true;
    /* Keep the cap nearest, sorted: insert h at its place, dropping the farthest. */
    size_t pos = r->kept;
    while (pos > 0 && before(&h, k, &r->hits[pos - 1], dense_of(w, r->hits[pos - 1].body)))
        pos--;
    if (pos >= r->cap) return true;
    size_t last = r->kept < r->cap ? r->kept : r->cap - 1;
    for (size_t i = last; i > pos; i--) r->hits[i] = r->hits[i - 1];
    r->hits[pos] = h;
    if (r->kept < r->cap) r->kept++;
    return true;
}

static bool valid_points(ear_vec3 a, ear_vec3 b) {
    return ear_vec3_is_finite(a) && ear_vec3_is_finite(b);
}

ear_result ear_physics_ray_cast(const ear_physics *cw, ear_vec3 from_m, ear_vec3 to_m,
                                const ear_ray_options *options, ear_ray_hit *out_hit,
                                bool *out_found) {
    if (!cw || !out_hit || !out_found || !valid_points(from_m, to_m)) return EAR_E_INVALID_ARG;
    ear_physics *w = (ear_physics *)cw;
    ray_ctx r;
    memset(&r, 0, sizeof r);
    r.from = from_m;
    r.d = ear_vec3_sub(to_m, from_m);
    r.len = ear_vec3_length(r.d);
    r.opt = options;
    ear__broad_query_segment(w, from_m, to_m, 0, nearest_visit, &r);
    *out_found = r.found;
    if (r.found) *out_hit = r.best;
    return EAR_OK;
}

ear_result ear_physics_ray_cast_all(const ear_physics *cw, ear_vec3 from_m, ear_vec3 to_m,
                                    const ear_ray_options *options, ear_ray_hit *hits,
                                    size_t capacity, size_t *out_count) {
    if (!cw || !out_count || (capacity > 0 && !hits) || !valid_points(from_m, to_m))
        return EAR_E_INVALID_ARG;
    ear_physics *w = (ear_physics *)cw;
    ray_ctx r;
    memset(&r, 0, sizeof r);
    r.from = from_m;
    r.d = ear_vec3_sub(to_m, from_m);
    r.len = ear_vec3_length(r.d);
    r.opt = options;
    r.hits = hits;
    r.cap = capacity;
    ear__broad_query_segment(w, from_m, to_m, 0, all_visit, &r);
    *out_count = r.total;
    return EAR_OK;
}

typedef struct overlap_ctx {
    ear_collider me;
    const ear_ray_options *opt;
    ear_body_id *ids;
    size_t cap, kept, total;
} overlap_ctx;

static bool overlap_visit(ear_physics *w, uint32_t k, void *user) {
    overlap_ctx *o = user;
    if (skipped(w, k, o->opt)) return true;
    ear_collider c = ear__collider_of(&w->bodies[k]);
    ear_vec3 n;
    float depth;
    if (!ear_collider_penetration(&o->me, &c, &n, &depth)) return true;
    o->total++;
    if (o->cap == 0) return true;
    /* Keep the first cap in id order. */
    size_t pos = o->kept;
    while (pos > 0 && k < dense_of(w, o->ids[pos - 1])) pos--;
    if (pos >= o->cap) return true;
    size_t last = o->kept < o->cap ? o->kept : o->cap - 1;
    for (size_t i = last; i > pos; i--) o->ids[i] = o->ids[i - 1];
    o->ids[pos] = w->bodies[k].id;
    if (o->kept < o->cap) o->kept++;
    return true;
}

ear_result ear_physics_query_overlaps(const ear_physics *cw, const ear_collider *collider,
                                      const ear_ray_options *options, ear_body_id *ids,
                                      size_t capacity, size_t *out_count) {
    if (!cw || !collider || !out_count || (capacity > 0 && !ids)) return EAR_E_INVALID_ARG;
    if (!ear_vec3_is_finite(collider->center_m)) return EAR_E_INVALID_ARG;
    if (collider->shape == EAR_SHAPE_BOX
            ? !(ear_vec3_is_finite(collider->half_extents_m) &&
                collider->half_extents_m.x >= 0 && collider->half_extents_m.y >= 0 &&
                collider->half_extents_m.z >= 0)
            : !(isfinite(collider->radius_m) && collider->radius_m >= 0))
        return EAR_E_INVALID_ARG;
    ear_physics *w = (ear_physics *)cw;
    overlap_ctx o;
    memset(&o, 0, sizeof o);
    o.me = *collider;
    o.opt = options;
    o.ids = ids;
    o.cap = capacity;
    ear_vec3 h =
        collider->shape == EAR_SHAPE_BOX
            ? collider->half_extents_m
            : ear_vec3_make(collider->radius_m, collider->radius_m, collider->radius_m);
    ear__broad_query(w, ear_vec3_sub(collider->center_m, h),
                     ear_vec3_add(collider->center_m, h), overlap_visit, &o);
    *out_count = o.total;
    return EAR_OK;
}
