/* SPDX-License-Identifier: Zlib */
/*
 * The step (ear_physics_step): vehicles driven, kinematic bodies moved, dynamic bodies
 * moved through resolve (resolve.c) with bounce and ground, then this step's contact pairs
 * and sensor overlaps compared with the last step's.
 *
 * A step visits bodies in id order, so the outcome never depends on memory or timing.
 * Contacts found while a body moved are its bounce and ground contacts and the step's
 * contact pairs; pairs are sorted by their ids and compared with the last step's for
 * CollisionStarted / CollisionEnded, and sensor overlaps likewise for Entered / Left.
 *
 * The top of the module's file order (ORDER): it calls the vehicles' step and resolve.
 */
#include "physics_internal.h"

#include <stdlib.h>
#include <string.h>

/* A new pair must close at least this fast to count as a collision (m/s). */
#define COLLISION_MIN_SPEED 0.01f

/* ---- Pair lists -----------------------------------------------------------------------------
 */

static bool pair_less(const ear__pair *x, const ear__pair *y) {
    return x->lo < y->lo || (x->lo == y->lo && x->hi < y->hi);
}

/* The digits of a pair's key for the radix sort, least significant first: an id is
 * (generation << 32) | slot, so (lo, hi) in numbers is (lo's generation, lo's slot, hi's
 * generation, hi's slot); generations go in two 16-bit digits. */
#define SORT_DIGITS 6
static uint32_t pair_digit(const ear__pair *p, int d) {
    ear_body_id id = d < 3 ? p->hi : p->lo;
    switch (d % 3) {
    case 0: return (uint32_t)id;
    case 1: return (uint32_t)(id >> 32) & 0xffffu;
    default: return (uint32_t)(id >> 48);
    }
}

/* Sorts by key, stably (so the first mover of a pair is kept), and merges duplicates,
 * keeping the largest speed. An LSD radix sort (counting sort per digit, through the
 * world's sort buffer, grown only past the largest count so far): a digit that is the
 * same in every pair is skipped, so a world whose slots were never reused sorts in two
 * passes whatever N, where a comparison sort's passes grow with log N (and qsort
 * allocates for large lists). When the buffer cannot grow, an insertion sort in place. */
static void sort_unique(ear_physics *w, ear__pair *p, uint32_t *count) {
    uint32_t n = *count;
    if (n < 2) return;
    bool sorted = true;
    for (uint32_t k = 1; k < n && sorted; k++)
        if (pair_less(&p[k], &p[k - 1])) sorted = false;
    if (!sorted) {
        uint32_t lo_d[SORT_DIGITS], hi_d[SORT_DIGITS];
        for (int d = 0; d < SORT_DIGITS; d++) lo_d[d] = hi_d[d] = pair_digit(&p[0], d);
        for (uint32_t k = 1; k < n; k++)
            for (int d = 0; d < SORT_DIGITS; d++) {
                uint32_t v = pair_digit(&p[k], d);
                if (v < lo_d[d]) lo_d[d] = v;
                if (v > hi_d[d]) hi_d[d] = v;
            }
        uint32_t width = 1;
        for (int d = 0; d < SORT_DIGITS; d++)
            if (hi_d[d] - lo_d[d] + 1 > width) width = hi_d[d] - lo_d[d] + 1;
        if (width <= (1u << 24) &&
            ear__grow(&w->alloc, (void **)&w->sort_tmp, &w->sort_tmp_cap, n,
                      sizeof *w->sort_tmp) &&
            ear__grow(&w->alloc, (void **)&w->sort_count, &w->sort_count_cap, width + 1,
                      sizeof *w->sort_count)) {
            ear__pair *src = p, *dst = w->sort_tmp;
            uint32_t *cnt = w->sort_count;
            for (int d = 0; d < SORT_DIGITS; d++) {
                if (lo_d[d] == hi_d[d]) continue;
                uint32_t span = hi_d[d] - lo_d[d] + 1;
                memset(cnt, 0, (size_t)(span + 1) * sizeof *cnt);
                for (uint32_t k = 0; k < n; k++) cnt[pair_digit(&src[k], d) - lo_d[d] + 1]++;
                for (uint32_t v = 1; v <= span; v++) cnt[v] += cnt[v - 1];
                for (uint32_t k = 0; k < n; k++)
                    dst[cnt[pair_digit(&src[k], d) - lo_d[d]]++] = src[k];
                ear__pair *t = src;
                src = dst;
                dst = t;
            }
            if (src != p) memcpy(p, src, (size_t)n * sizeof *p);
        } else {
            for (uint32_t k = 1; k < n; k++) {
                ear__pair v = p[k];
                uint32_t j = k;
                for (; j > 0 && pair_less(&v, &p[j - 1]); j--) p[j] = p[j - 1];
                p[j] = v;
            }
        }
    }
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (m > 0 && p[m - 1].lo == p[k].lo && p[m - 1].hi == p[k].hi) {
            if (p[k].speed > p[m - 1].speed) p[m - 1].speed = p[k].speed;
            continue;
        }
        p[m++] = p[k];
    }
    *count = m;
}

/* ---- The step -------------------------------------------------------------------------------
 */

static void bounce(ear_physics *w, uint32_t i, const ear__resolve_out *r, uint32_t carried_by,
                   float speeds[]) {
    ear__body *b = &w->bodies[i];
    float g = ear_vec3_length(w->cfg.gravity_mps2) *
              (b->gravity_scale < 0 ? -b->gravity_scale : b->gravity_scale);
    /* Below this closing speed a contact is resting: no restitution, or a body on the
     * floor would hop by e * g * dt every step. */
    float rest = 2.0f * g * w->dt;
    for (uint32_t c = 0; c < r->count; c++) {
        ear__body *o = &w->bodies[r->c[c].other];
        ear_vec3 n = r->c[c].normal;
        /* A body carried by its ground moves with it already: its velocity is relative
         * to that ground. */
        ear_vec3 ov = r->c[c].other == carried_by ? ear_vec3_make(0, 0, 0) : o->vel;
        float vc = ear_vec3_dot(ear_vec3_sub(b->vel, ov), n);
        speeds[c] = 0;
        if (!(vc < 0)) continue;
        float e = b->bounciness > o->bounciness ? b->bounciness : o->bounciness;
        if (-vc < rest) e = 0;
        if (o->kind == EAR_BODY_DYNAMIC && !o->sensor) {
            float j = -(1.0f + e) * vc / (b->inv_mass + o->inv_mass);
            b->vel = ear_vec3_add(b->vel, ear_vec3_scale(n, j * b->inv_mass));
            o->vel = ear_vec3_sub(o->vel, ear_vec3_scale(n, j * o->inv_mass));
        } else {
            b->vel = ear_vec3_sub(b->vel, ear_vec3_scale(n, (1.0f + e) * vc));
        }
        speeds[c] = -vc;
    }
}

static void step_dynamic(ear_physics *w, uint32_t i, float dt) {
    ear__body *b = &w->bodies[i];
    uint32_t carried_by = UINT32_MAX;
    /* 1. Carried by the ground's motion this step (a platform, a vehicle). */
    if (b->on_ground) {
        ear__body *gnd = ear__body_lookup(w, b->ground);
        if (gnd && (gnd->carry.x != 0 || gnd->carry.y != 0 || gnd->carry.z != 0)) {
            carried_by = (uint32_t)(gnd - w->bodies);
            b->pos = ear_vec3_add(b->pos, gnd->carry);
            b->carry = ear_vec3_add(b->carry, gnd->carry);
            ear__broad_moved(w, i);
        }
    }
    /* 2. Gravity and force. */
    ear_vec3 acc = ear_vec3_add(ear_vec3_scale(w->cfg.gravity_mps2, b->gravity_scale),
                                ear_vec3_scale(b->force, b->inv_mass));
    b->vel = ear_vec3_add(b->vel, ear_vec3_scale(acc, dt));
    b->force = ear_vec3_make(0, 0, 0);
    /* 3. Damping, ground friction (horizontal, never past zero), the speed clamp. */
    if (b->damping > 0) {
        float f = 1.0f - b->damping * dt;
        b->vel = ear_vec3_scale(b->vel, f > 0 ? f : 0);
    }
    if (b->on_ground && b->friction > 0) {
        float h = sqrtf(b->vel.x * b->vel.x + b->vel.z * b->vel.z);
        if (h > 0) {
            float g = ear_vec3_length(w->cfg.gravity_mps2) * fabsf(b->gravity_scale);
            float nh = h - b->friction * g * dt;
            float s = nh > 0 ? nh / h : 0;
            b->vel.x *= s;
            b->vel.z *= s;
        }
    }
    if (b->max_speed > 0) {
        float v = ear_vec3_length(b->vel);
        if (v > b->max_speed) b->vel = ear_vec3_scale(b->vel, b->max_speed / v);
    }
    if (b->sensor) {
        /* Sensors pass through everything. */
        ear_vec3 d = ear_vec3_scale(b->vel, dt);
        b->pos = ear_vec3_add(b->pos, d);
        b->carry = ear_vec3_add(b->carry, d);
        ear__broad_moved(w, i);
        return;
    }
    /* 4. Sub-steps no longer than the smallest half extent, resolved after each. */
    ear__resolve_out r;
    memset(&r, 0, sizeof r);
    ear__move_by(w, i, ear_vec3_scale(b->vel, dt), &r);
    /* 5. Bounce. */
    float speeds[16];
    bounce(w, i, &r, carried_by, speeds);
    /* 6. Ground, and the step's contact pairs. */
    bool was = b->on_ground;
    b->on_ground = false;
    b->ground = EAR_BODY_NONE;
    uint32_t landed_on = UINT32_MAX;
    for (uint32_t c = 0; c < r.count; c++) {
        const ear__body *o = &w->bodies[r.c[c].other];
        if (r.c[c].normal.y > 0.7f && !b->on_ground) {
            b->on_ground = true;
            b->ground = o->id;
            landed_on = c;
        }
        ear__record_pair(w, b->id, o->id, r.c[c].normal, r.c[c].point, speeds[c]);
    }
    if (!was && b->on_ground) {
        ear_physics_event e;
        memset(&e, 0, sizeof e);
        e.type = EAR_PHYS_LANDED;
        e.body = b->id;
        e.other = b->ground;
        e.speed_mps = speeds[landed_on];
        e.normal = r.c[landed_on].normal;
        e.point_m = r.c[landed_on].point;
        ear__emit(w, &e);
    }
}

static void compare_pairs(ear_physics *w) {
    sort_unique(w, w->pairs, &w->pair_count);
    /* Keep only pairs that were touching already or hit with some speed now. */
    uint32_t n = 0, j = 0;
    for (uint32_t k = 0; k < w->pair_count; k++) {
        ear__pair *p = &w->pairs[k];
        while (j < w->last_pair_count && ear__pair_cmp(&w->last_pairs[j], p) < 0) {
            ear_physics_event e;
            memset(&e, 0, sizeof e);
            e.type = EAR_PHYS_COLLISION_ENDED;
            e.body = ear__pair_body(&w->last_pairs[j]);
            e.other = ear__pair_other(&w->last_pairs[j]);
            ear__emit(w, &e);
            j++;
        }
        bool old = j < w->last_pair_count && ear__pair_cmp(&w->last_pairs[j], p) == 0;
        if (old) {
            j++;
        } else if (p->speed > COLLISION_MIN_SPEED) {
            ear_physics_event e;
            memset(&e, 0, sizeof e);
            e.type = EAR_PHYS_COLLISION_STARTED;
            const ear__pair_info *in = &w->pair_info[p->aux >> 1];
            e.body = ear__pair_body(p);
            e.other = ear__pair_other(p);
            e.speed_mps = p->speed;
            e.normal = in->normal;
            e.point_m = in->point;
            ear__emit(w, &e);
        } else {
            continue;
        }
        w->pairs[n++] = *p;
    }
    for (; j < w->last_pair_count; j++) {
        ear_physics_event e;
        memset(&e, 0, sizeof e);
        e.type = EAR_PHYS_COLLISION_ENDED;
        e.body = ear__pair_body(&w->last_pairs[j]);
        e.other = ear__pair_other(&w->last_pairs[j]);
        ear__emit(w, &e);
    }
    w->pair_count = n;
}

typedef struct sense_ctx {
    uint32_t sensor;
    ear_collider me;
} sense_ctx;

static bool sense_visit(ear_physics *w, uint32_t k, void *user) {
    sense_ctx *s = user;
    if (k == s->sensor) return true;
    const ear__body *o = &w->bodies[k];
    if (o->sensor) return true;
    ear_collider c = ear__collider_of(o);
    ear_vec3 n;
    float depth;
    w->work++;
    if (!ear_collider_penetration(&s->me, &c, &n, &depth)) return true;
    ear__pair p;
    memset(&p, 0, sizeof p);
    p.lo = w->bodies[s->sensor].id; /* the event's body, aux 0 */
    p.hi = o->id;
    ear__add_pair(w, &w->sense, &w->sense_count, &w->sense_cap, &p);
    return true;
}

static void compare_sensors(ear_physics *w) {
    for (uint32_t k = 0; k < w->count; k++) {
        const ear__body *b = &w->bodies[k];
        if (!b->sensor) continue;
        sense_ctx s = {k, ear__collider_of(b)};
        ear__broad_query(w, ear_vec3_sub(b->pos, b->half), ear_vec3_add(b->pos, b->half),
                         sense_visit, &s);
    }
    sort_unique(w, w->sense, &w->sense_count);
    uint32_t j = 0;
    for (uint32_t k = 0; k <= w->sense_count; k++) {
        /* Everything in last before this one has left. */
        while (j < w->last_sense_count &&
               (k == w->sense_count || ear__pair_cmp(&w->last_sense[j], &w->sense[k]) < 0)) {
            ear_physics_event e;
            memset(&e, 0, sizeof e);
            e.type = EAR_PHYS_LEFT;
            e.body = w->last_sense[j].lo;
            e.other = w->last_sense[j].hi;
            ear__emit(w, &e);
            j++;
        }
        if (k == w->sense_count) break;
        if (j < w->last_sense_count && ear__pair_cmp(&w->last_sense[j], &w->sense[k]) == 0) {
            j++;
            continue;
        }
        ear_physics_event e;
        memset(&e, 0, sizeof e);
        e.type = EAR_PHYS_ENTERED;
        e.body = w->sense[k].lo;
        e.other = w->sense[k].hi;
        ear__emit(w, &e);
    }
}

static void swap_lists(ear__pair **a, uint32_t *ac, uint32_t *acap, ear__pair **b, uint32_t *bc,
                       uint32_t *bcap) {
    ear__pair *t = *a;
    *a = *b;
    *b = t;
    uint32_t c = *acap;
    *acap = *bcap;
    *bcap = c;
    *bc = *ac;
    *ac = 0;
}

/* ---- The cost of a step, before it is taken ------------------------------------------- */

typedef struct estimate_ctx {
    uint64_t count, limit;
} estimate_ctx;

static bool count_visit(ear_physics *w, uint32_t k, void *user) {
    (void)w;
    (void)k;
    estimate_ctx *e = user;
    return ++e->count <= e->limit;
}

uint64_t ear_physics_estimate_step_work(ear_physics *w, uint64_t limit) {
    if (!w) return 0;
    estimate_ctx e = {w->count, limit};
    /* Each moving body tests, at the least, every body whose box reaches its own grown by
     * its size (the reach of one resolve and its pushes): a query that only counts. */
    for (uint32_t k = 0; k < w->count && e.count <= limit; k++) {
        const ear__body *b = &w->bodies[k];
        if (b->kind == EAR_BODY_FIXED) continue;
        ear_vec3 grow = ear_vec3_scale(b->half, 2.0f);
        ear__broad_query(w, ear_vec3_sub(b->pos, grow), ear_vec3_add(b->pos, grow), count_visit,
                         &e);
    }
    uint64_t last = w->last_step_work;
    return e.count > last ? e.count : last;
}

ear_result ear_physics_step(ear_physics *w, float dt) {
    if (!w || !isfinite(dt) || !(dt > 0) || dt > 1.0f) return EAR_E_INVALID_ARG;
    if (w->stepping) return EAR_E_STATE;
    w->stepping = true;
    w->dt = dt;
    uint64_t work_before = w->work;
    w->work += w->count; /* every body is walked at least once */
    /* This step's contact lists start empty; removal may have left entries. */
    w->pair_count = 0;
    w->pair_info_count = 0;
    w->sense_count = 0;
    if (ear__broad_begin_step(w) != EAR_OK) {
        /* No memory for the grid: queries scan every body. */
        w->grid_valid = false;
    }
    /* One pass over the bodies clears the step's displacements and counts the kinds the
     * passes below need, so a world of crates alone is walked twice, not five times (at
     * 10,000 bodies the array no longer fits the caches; each pass costs memory traffic). */
    uint32_t vehicles = 0, kinematic = 0, sensors = 0;
    for (uint32_t k = 0; k < w->count; k++) {
        ear__body *b = &w->bodies[k];
        b->carry = ear_vec3_make(0, 0, 0);
        vehicles += b->is_vehicle ? 1u : 0u;
        kinematic += b->kind == EAR_BODY_KINEMATIC && !b->is_vehicle ? 1u : 0u;
        sensors += b->sensor ? 1u : 0u;
    }

    /* 0. Vehicles. */
    for (uint32_t k = 0; vehicles > 0 && k < w->count; k++)
        if (w->bodies[k].is_vehicle) ear__vehicle_step(w, k, dt);
    /* 1. Kinematic bodies by their velocity. */
    for (uint32_t k = 0; kinematic > 0 && k < w->count; k++) {
        ear__body *b = &w->bodies[k];
        if (b->kind != EAR_BODY_KINEMATIC || b->is_vehicle) continue;
        ear_vec3 d = ear_vec3_scale(b->vel, dt);
        if (d.x == 0 && d.y == 0 && d.z == 0) continue;
        b->pos = ear_vec3_add(b->pos, d);
        b->carry = ear_vec3_add(b->carry, d);
        ear__broad_moved(w, k);
    }
    /* 2. Dynamic bodies. */
    for (uint32_t k = 0; k < w->count; k++)
        if (w->bodies[k].kind == EAR_BODY_DYNAMIC) step_dynamic(w, k, dt);
    /* 3. Contact pairs; 4. sensors. */
    compare_pairs(w);
    if (sensors > 0 || w->last_sense_count > 0) compare_sensors(w);

    /* carry now holds each body's displacement of this step (ear_body_get reports it);
     * it is only added to while stepping, so it stays until the next step clears it. */
    swap_lists(&w->pairs, &w->pair_count, &w->pair_cap, &w->last_pairs, &w->last_pair_count,
               &w->last_pair_cap);
    swap_lists(&w->sense, &w->sense_count, &w->sense_cap, &w->last_sense, &w->last_sense_count,
               &w->last_sense_cap);
    w->steps++;
    w->last_step_work = w->work - work_before;
    w->time_s += (double)dt;
    w->stepping = false;
    return EAR_OK;
}
