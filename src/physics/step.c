/* SPDX-License-Identifier: Zlib */
/*
 * The step, resolve and move_by.
 *
 * resolve pushes one body out of the deepest overlap it has, up to resolve_iterations
 * times (corners need more than one push). Who moves follows one table:
 *
 *   mover      other              what moves
 *   any        fixed / kinematic  the mover, fully out
 *   kinematic  dynamic            the other, fully away (a player shoves a crate)
 *   dynamic    dynamic            both, shared by mass (the lighter moves more)
 *
 * and one rule: when pushing the other body would drive it into a third solid in the
 * push's direction (obstructed: a crate against a wall), that push is undone and the
 * mover is pushed out fully instead, and is blocked.
 *
 * The bodies near a mover come from its neighbour list (broad_phase.c) while it stays in
 * its fat box, so resting bodies query no grid; one query per resolve otherwise.
 *
 * A step visits bodies in id order, so the outcome never depends on memory or timing.
 * Contacts found while a body moved are its bounce and ground contacts and the step's
 * contact pairs; pairs are sorted by their ids and compared with the last step's for
 * CollisionStarted / CollisionEnded, and sensor overlaps likewise for Entered / Left.
 */
#include "physics_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SUBSTEPS 256
/* A new pair must close at least this fast to count as a collision (m/s). */
#define COLLISION_MIN_SPEED 0.01f

static float minf(float a, float b) {
    return a < b ? a : b;
}

static float min_half(const ear__body *b) {
    return minf(b->half.x, minf(b->half.y, b->half.z));
}

/* ---- Overlap search ------------------------------------------------------------------- */

/* The solid bodies near a mover, gathered with one broad-phase query per resolve: the
 * mover's box grown by a margin, so the pushes of one resolve stay inside it. */
#define MAX_NEAR 48

typedef struct near_set {
    uint32_t self;
    uint32_t n;
    bool overflow;
    bool from_list; /* gathered from the neighbour list (valid while inside the fat box) */
    uint32_t idx[MAX_NEAR];
} near_set;

static bool collect_near(ear_physics *w, uint32_t k, void *user) {
    near_set *s = user;
    if (k == s->self || w->bodies[k].sensor) return true;
    if (s->n == MAX_NEAR) {
        s->overflow = true;
        return false;
    }
    s->idx[s->n++] = k;
    return true;
}

static bool box_touches(const ear__body *b, ear_vec3 lo, ear_vec3 hi) {
    return b->pos.x + b->half.x >= lo.x && b->pos.x - b->half.x <= hi.x &&
           b->pos.y + b->half.y >= lo.y && b->pos.y - b->half.y <= hi.y &&
           b->pos.z + b->half.z >= lo.z && b->pos.z - b->half.z <= hi.z;
}

static void gather_near(ear_physics *w, uint32_t self, float margin, near_set *s) {
    const ear__body *b = &w->bodies[self];
    ear_vec3 m = ear_vec3_make(margin, margin, margin);
    ear_vec3 lo = ear_vec3_sub(ear_vec3_sub(b->pos, b->half), m);
    ear_vec3 hi = ear_vec3_add(ear_vec3_add(b->pos, b->half), m);
    s->self = self;
    s->n = 0;
    s->overflow = false;
    s->from_list = ear__list_usable(w, self);
    if (s->from_list) {
        /* The neighbour list and the bodies that left their fat boxes cover everything
         * that can touch the body while it stays inside its own fat box. */
        for (uint32_t j = w->nb_start[self]; j < w->nb_start[self + 1]; j++) {
            uint32_t k = w->nb_idx[j];
            if (box_touches(&w->bodies[k], lo, hi) && !collect_near(w, k, s)) return;
        }
        if (ear__near_extra(w, self)) ear__broad_query_extras(w, lo, hi, collect_near, s);
        return;
    }
    ear__broad_query(w, lo, hi, collect_near, s);
}

typedef struct deepest {
    uint32_t self;
    uint32_t best;
    float depth;
    ear_vec3 normal;
    ear_collider me;
} deepest;

static void consider(ear_physics *w, uint32_t k, deepest *d) {
    const ear__body *o = &w->bodies[k];
    ear_collider c = ear__collider_of(o);
    ear_vec3 n;
    float depth;
    w->work++;
    if (!ear_collider_penetration(&d->me, &c, &n, &depth)) return;
    /* Ties go to the earlier body in id order, whatever order the grid lists them. */
    if (depth > d->depth || (depth == d->depth && k < d->best)) {
        d->best = k;
        d->depth = depth;
        d->normal = n;
    }
}

static bool find_deepest(ear_physics *w, uint32_t k, void *user) {
    deepest *d = user;
    if (k == d->self || w->bodies[k].sensor) return true;
    consider(w, k, d);
    return true;
}

/* The deepest overlap of body self: among the gathered bodies, or (when there were too
 * many to gather) from a fresh query. */
static bool deepest_overlap(ear_physics *w, uint32_t self, const near_set *near, deepest *d) {
    const ear__body *b = &w->bodies[self];
    d->self = self;
    d->best = UINT32_MAX;
    d->depth = 0;
    d->me = ear__collider_of(b);
    if (near && !near->overflow) {
        for (uint32_t i = 0; i < near->n; i++) consider(w, near->idx[i], d);
    } else {
        ear__broad_query(w, ear_vec3_sub(b->pos, b->half), ear_vec3_add(b->pos, b->half),
                         find_deepest, d);
    }
    return d->best != UINT32_MAX;
}

/* Would moving body k by push drive it into a third solid (not `mover`)? */
typedef struct obstruct {
    uint32_t self, mover;
    ear_vec3 dir;
    ear_collider me;
    bool hit;
} obstruct;

static bool find_obstacle(ear_physics *w, uint32_t k, void *user) {
    obstruct *o = user;
    if (k == o->self || k == o->mover) return true;
    const ear__body *t = &w->bodies[k];
    if (t->sensor) return true;
    ear_collider c = ear__collider_of(t);
    ear_vec3 n;
    float depth;
    w->work++;
    if (!ear_collider_penetration(&o->me, &c, &n, &depth)) return true;
    if (ear_vec3_dot(n, o->dir) < -0.1f) {
        o->hit = true;
        return false;
    }
    return true;
}

static bool obstructed(ear_physics *w, uint32_t k, uint32_t mover, ear_vec3 push) {
    ear__body *b = &w->bodies[k];
    obstruct o;
    o.self = k;
    o.mover = mover;
    o.dir = ear_vec3_normalize_or(push, ear_vec3_make(0, 0, 0));
    o.hit = false;
    ear_vec3 p = ear_vec3_add(b->pos, push);
    o.me = ear__collider_of(b);
    o.me.center_m = p;
    ear_vec3 lo = ear_vec3_sub(p, b->half), hi = ear_vec3_add(p, b->half);
    if (ear__list_usable(w, k) && lo.x >= w->fat_lo[k].x && lo.y >= w->fat_lo[k].y &&
        lo.z >= w->fat_lo[k].z && hi.x <= w->fat_hi[k].x && hi.y <= w->fat_hi[k].y &&
        hi.z <= w->fat_hi[k].z) {
        /* Pushed within its fat box: its neighbour list (and the extras that may reach it)
         * holds everything the pushed box can meet, as in gather_near. */
        for (uint32_t j = w->nb_start[k]; j < w->nb_start[k + 1]; j++) {
            uint32_t t = w->nb_idx[j];
            if (box_touches(&w->bodies[t], lo, hi) && !find_obstacle(w, t, &o)) return true;
        }
        if (ear__near_extra(w, k)) ear__broad_query_extras(w, lo, hi, find_obstacle, &o);
        return o.hit;
    }
    ear__broad_query(w, lo, hi, find_obstacle, &o);
    return o.hit;
}

/* ---- Contacts -----------------------------------------------------------------------------
 */

static void note_contact(ear_physics *w, uint32_t i, uint32_t other, ear_vec3 n, float depth,
                         ear__resolve_out *out) {
    const ear__body *b = &w->bodies[i], *o = &w->bodies[other];
    ear_collider ca = ear__collider_of(b), cb = ear__collider_of(o);
    ear_vec3 point = ear__contact_point(&ca, &cb, n, depth);
    for (uint32_t c = 0; c < out->count; c++) {
        if (out->c[c].other == other) {
            out->c[c].normal = n;
            out->c[c].point = point;
            return;
        }
    }
    if (out->count < sizeof out->c / sizeof out->c[0]) {
        out->c[out->count].other = other;
        out->c[out->count].normal = n;
        out->c[out->count].point = point;
        out->count++;
    }
}

void ear__resolve(ear_physics *w, uint32_t i, ear__resolve_out *out) {
    ear__body *b = &w->bodies[i];
    if (b->sensor || b->kind == EAR_BODY_FIXED) return;
    near_set near;
    float margin = 0.5f * min_half(b) + 0.01f;
    gather_near(w, i, margin, &near);
    float pushed = 0;
    for (uint32_t iter = 0; iter < w->cfg.resolve_iterations; iter++) {
        deepest d;
        if (pushed > margin) {
            /* Pushed past what was gathered: gather again around the new place. */
            gather_near(w, i, margin, &near);
            pushed = 0;
        }
        if (!deepest_overlap(w, i, &near, &d)) break;
        ear__body *o = &w->bodies[d.best];
        ear_vec3 n = d.normal;
        float depth = d.depth;
        /* How far the mover itself is pushed back. */
        float back = depth;
        if (o->kind == EAR_BODY_DYNAMIC) {
            /* The other is dynamic: it takes all (mover kinematic) or its mass share. */
            float share = b->kind == EAR_BODY_KINEMATIC ? 1.0f : b->mass / (b->mass + o->mass);
            ear_vec3 push = ear_vec3_scale(n, -depth * share);
            if (!obstructed(w, d.best, i, push)) {
                o->pos = ear_vec3_add(o->pos, push);
                o->carry = ear_vec3_add(o->carry, push);
                ear__broad_moved(w, d.best);
                back = depth * (1.0f - share);
            }
        }
        if (back > 0) {
            b->pos = ear_vec3_add(b->pos, ear_vec3_scale(n, back));
            pushed += back;
            /* Out of its fat box: its list no longer covers it. */
            ear__broad_moved(w, i);
            if (near.from_list && !ear__list_usable(w, i)) pushed = margin * 2;
        }
        note_contact(w, i, d.best, n, depth, out);
        /* Blocked: the mover itself was pushed back against its move. */
        if (back > 0 && ear_vec3_dot(n, out->move_dir) < -1e-3f) out->blocked = true;
    }
}

void ear__move_by(ear_physics *w, uint32_t i, ear_vec3 delta, ear__resolve_out *out) {
    ear__body *b = &w->bodies[i];
    ear_vec3 start = b->pos;
    float len = ear_vec3_length(delta);
    out->move_dir = len > 0 ? ear_vec3_scale(delta, 1.0f / len) : ear_vec3_make(0, 0, 0);
    if (b->kind == EAR_BODY_FIXED || b->sensor) {
        b->pos = ear_vec3_add(b->pos, delta);
    } else {
        float h = min_half(b);
        uint32_t n = 1;
        if (len > h) {
            float f = ceilf(len / h);
            n = f > MAX_SUBSTEPS ? MAX_SUBSTEPS : (uint32_t)f;
        }
        w->work += n;
        ear_vec3 part = ear_vec3_scale(delta, 1.0f / (float)n);
        for (uint32_t s = 0; s < n; s++) {
            b->pos = ear_vec3_add(b->pos, part);
            ear__broad_moved(w, i);
            ear__resolve(w, i, out);
        }
        /* A resolve with no motion still settles what overlapped before. */
        if (len == 0) ear__resolve(w, i, out);
    }
    /* Outside a step (a game's move_by) the displacement of the last step stays. */
    if (w->stepping) b->carry = ear_vec3_add(b->carry, ear_vec3_sub(b->pos, start));
    ear__broad_moved(w, i);
}

ear_result ear_body_move_by(ear_physics *w, ear_body_id id, ear_vec3 delta, bool *out_blocked) {
    ear__body *b = ear__body_lookup(w, id);
    if (!b) return ear__missing(w, id);
    if (!ear_vec3_is_finite(delta)) return EAR_E_INVALID_ARG;
    ear__resolve_out out;
    memset(&out, 0, sizeof out);
    ear__move_by(w, (uint32_t)(b - w->bodies), delta, &out);
    if (out_blocked) *out_blocked = out.blocked;
    return EAR_OK;
}

ear_result ear_body_move_forward(ear_physics *w, ear_body_id id, float distance_m,
                                 bool *out_blocked) {
    ear__body *b = ear__body_lookup(w, id);
    if (!b) return ear__missing(w, id);
    if (!isfinite(distance_m)) return EAR_E_INVALID_ARG;
    ear_vec3 f = ear_forward_from_facing(b->facing, 0);
    return ear_body_move_by(w, id, ear_vec3_scale(f, distance_m), out_blocked);
}

ear_result ear_body_strafe(ear_physics *w, ear_body_id id, float distance_m,
                           bool *out_blocked) {
    ear__body *b = ear__body_lookup(w, id);
    if (!b) return ear__missing(w, id);
    if (!isfinite(distance_m)) return EAR_E_INVALID_ARG;
    ear_vec3 r = ear_right_from_facing(b->facing);
    return ear_body_move_by(w, id, ear_vec3_scale(r, distance_m), out_blocked);
}

/* ---- Pair lists -----------------------------------------------------------------------------
 */

static void add_pair(ear_physics *w, ear__pair **list, uint32_t *count, uint32_t *cap,
                     const ear__pair *p) {
    if (!ear__grow(w, (void **)list, cap, *count + 1, sizeof **list)) return;
    (*list)[(*count)++] = *p;
}

static int pair_cmp(const void *a, const void *b) {
    const ear__pair *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    return 0;
}

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
            ear__grow(w, (void **)&w->sort_tmp, &w->sort_tmp_cap, n, sizeof *w->sort_tmp) &&
            ear__grow(w, (void **)&w->sort_count, &w->sort_count_cap, width + 1,
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

bool ear__was_touching(const ear_physics *w, ear_body_id a, ear_body_id b) {
    ear__pair key;
    key.lo = a < b ? a : b;
    key.hi = a < b ? b : a;
    uint32_t lo = 0, hi = w->last_pair_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = pair_cmp(&w->last_pairs[mid], &key);
        if (c == 0) return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

void ear__record_pair(ear_physics *w, ear_body_id body, ear_body_id other, ear_vec3 normal,
                      ear_vec3 point, float speed) {
    if (!ear__grow(w, (void **)&w->pair_info, &w->pair_info_cap, w->pair_info_count + 1,
                   sizeof *w->pair_info) ||
        w->pair_info_count >= (1u << 31))
        return;
    ear__pair p;
    p.lo = body < other ? body : other;
    p.hi = body < other ? other : body;
    p.speed = speed;
    p.aux = (w->pair_info_count << 1) | (body < other ? 0u : 1u);
    uint32_t before = w->pair_count;
    add_pair(w, &w->pairs, &w->pair_count, &w->pair_cap, &p);
    if (w->pair_count == before) return;
    w->pair_info[w->pair_info_count].normal = normal;
    w->pair_info[w->pair_info_count].point = point;
    w->pair_info_count++;
}

static void compare_pairs(ear_physics *w) {
    sort_unique(w, w->pairs, &w->pair_count);
    /* Keep only pairs that were touching already or hit with some speed now. */
    uint32_t n = 0, j = 0;
    for (uint32_t k = 0; k < w->pair_count; k++) {
        ear__pair *p = &w->pairs[k];
        while (j < w->last_pair_count && pair_cmp(&w->last_pairs[j], p) < 0) {
            ear_physics_event e;
            memset(&e, 0, sizeof e);
            e.type = EAR_PHYS_COLLISION_ENDED;
            e.body = ear__pair_body(&w->last_pairs[j]);
            e.other = ear__pair_other(&w->last_pairs[j]);
            ear__emit(w, &e);
            j++;
        }
        bool old = j < w->last_pair_count && pair_cmp(&w->last_pairs[j], p) == 0;
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
    add_pair(w, &w->sense, &w->sense_count, &w->sense_cap, &p);
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
               (k == w->sense_count || pair_cmp(&w->last_sense[j], &w->sense[k]) < 0)) {
            ear_physics_event e;
            memset(&e, 0, sizeof e);
            e.type = EAR_PHYS_LEFT;
            e.body = w->last_sense[j].lo;
            e.other = w->last_sense[j].hi;
            ear__emit(w, &e);
            j++;
        }
        if (k == w->sense_count) break;
        if (j < w->last_sense_count && pair_cmp(&w->last_sense[j], &w->sense[k]) == 0) {
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
