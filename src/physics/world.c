/* SPDX-License-Identifier: Zlib */
/*
 * The physics world's storage: bodies in a dense array kept in id order, a slot table
 * that turns an id (slot, generation) into a place in that array, validation of
 * descriptions, the event list and the state hash.
 *
 * Invariants: bodies[k].id's slot maps back to k (slots[slot].dense == k) and its
 * generation equals slots[slot].generation; a free slot has dense == UINT32_MAX and sits
 * in free_slots. Removal shifts the bodies after it down by one (memmove) and rewrites
 * their slots, so the order of the survivors never changes. A slot's generation grows on
 * every removal, so an old id never names a new body.
 */
#include "physics_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- Memory ------------------------------------------------------------------------ */

static void free_body_mem(ear_physics *w, ear__body *b);

/* ---- Defaults ------------------------------------------------------------------------ */

ear_physics_config ear_physics_config_default(void) {
    ear_physics_config c;
    memset(&c, 0, sizeof c);
    c.gravity_mps2 = ear_vec3_make(0, -9.81f, 0);
    c.grid_cell_m = 0;
    c.max_events = 65536;
    c.resolve_iterations = 4;
    c.allocator = NULL;
    return c;
}

ear_body_desc ear_body_desc_default(void) {
    ear_body_desc d;
    memset(&d, 0, sizeof d);
    d.kind = EAR_BODY_DYNAMIC;
    d.shape = EAR_SHAPE_BOX;
    d.half_extents_m = ear_vec3_make(0.5f, 0.5f, 0.5f);
    d.radius_m = 0.5f;
    d.mass_kg = 1;
    d.bounciness = 0;
    d.friction = 0.5f;
    d.damping_per_s = 0;
    d.gravity_scale = 1;
    d.max_speed_mps = 0;
    return d;
}

/* ---- Creation ------------------------------------------------------------------------ */

ear_result ear_physics_create(const ear_physics_config *config, ear_physics **out) {
    if (!out) return EAR_E_INVALID_ARG;
    ear_physics_config c = config ? *config : ear_physics_config_default();
    if (!ear_vec3_is_finite(c.gravity_mps2) || !(c.grid_cell_m >= 0) ||
        !isfinite(c.grid_cell_m) || c.max_events == 0 || c.resolve_iterations == 0 ||
        c.resolve_iterations > 64)
        return EAR_E_INVALID_ARG;
    ear_allocator a = ear_allocator_resolve(c.allocator);
    ear_physics *w = a.alloc_fn(sizeof *w, a.user);
    if (!w) return EAR_E_OUT_OF_MEMORY;
    memset(w, 0, sizeof *w);
    w->cfg = c;
    w->cfg.allocator = NULL;
    w->alloc = a;
    w->fixed_dirty = true;
    *out = w;
    return EAR_OK;
}

void ear_physics_destroy(ear_physics *w) {
    if (!w) return;
    for (uint32_t k = 0; k < w->count; k++) free_body_mem(w, &w->bodies[k]);
    ear__grid_free(w, &w->fixed_grid);
    ear__grid_free(w, &w->moving_grid);
    void *blocks[] = {w->bodies,   w->slots,   w->free_slots, w->fat_lo,   w->fat_hi,
                      w->scratch,  w->pairs,   w->last_pairs, w->sense,    w->last_sense,
                      w->events,   w->stamps,  w->nb_start,   w->nb_idx,   w->exited,
                      w->xnext,    w->xbucket, w->xlist,      w->sort_tmp, w->sort_count,
                      w->pair_info};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (blocks[i]) w->alloc.free_fn(blocks[i], w->alloc.user);
    w->alloc.free_fn(w, w->alloc.user);
}

void ear_physics_clear(ear_physics *w) {
    if (!w) return;
    /* Every live slot's generation moves on, so old ids stay stale. */
    for (uint32_t k = 0; k < w->count; k++) {
        free_body_mem(w, &w->bodies[k]);
        uint32_t slot = (uint32_t)(w->bodies[k].id & 0xffffffffu);
        w->slots[slot].generation++;
        w->slots[slot].dense = UINT32_MAX;
        w->free_slots[w->free_count++] = slot;
    }
    w->count = 0;
    w->pair_count = w->last_pair_count = 0;
    w->sense_count = w->last_sense_count = 0;
    w->event_count = 0;
    w->events_dropped = 0;
    w->steps = 0;
    w->work = w->last_step_work = 0;
    w->time_s = 0;
    w->fixed_dirty = true;
    w->grid_valid = false;
}

ear_physics_config ear_physics_get_config(const ear_physics *w) {
    return w->cfg;
}

ear_result ear_physics_set_gravity(ear_physics *w, ear_vec3 g) {
    if (!w || !ear_vec3_is_finite(g)) return EAR_E_INVALID_ARG;
    w->cfg.gravity_mps2 = g;
    return EAR_OK;
}

ear_result ear_physics_reserve(ear_physics *w, size_t n) {
    if (!w) return EAR_E_INVALID_ARG;
    if (n > UINT32_MAX / 4) return EAR_E_OUT_OF_MEMORY;
    uint32_t need = (uint32_t)n;
    if (!ear__grow(&w->alloc, (void **)&w->bodies, &w->cap, need, sizeof *w->bodies) ||
        !ear__grow(&w->alloc, (void **)&w->slots, &w->slot_cap, need, sizeof *w->slots) ||
        !ear__grow(&w->alloc, (void **)&w->free_slots, &w->free_cap, need,
                   sizeof *w->free_slots))
        return EAR_E_OUT_OF_MEMORY;
    return EAR_OK;
}

/* ---- Lookup ------------------------------------------------------------------------------ */

#define LOOKUP(w, id, b)                                                                       \
    ear__body *b = ear__body_lookup(w, id);                                                    \
    if (!b) return ear__missing(w, id)

bool ear_body_exists(const ear_physics *w, ear_body_id id) {
    return ear__body_lookup(w, id) != NULL;
}

size_t ear_physics_body_count(const ear_physics *w) {
    return w ? w->count : 0;
}

ear_body_id ear_physics_body_at(const ear_physics *w, size_t index) {
    return w && index < w->count ? w->bodies[index].id : EAR_BODY_NONE;
}

ear_body_id ear_physics_find(const ear_physics *w, const char *name) {
    if (!w || !name) return EAR_BODY_NONE;
    for (uint32_t k = 0; k < w->count; k++)
        if (strcmp(w->bodies[k].name, name) == 0) return w->bodies[k].id;
    return EAR_BODY_NONE;
}

/* ---- Validation ------------------------------------------------------------------------- */

static bool finite_f(float x) {
    return isfinite(x);
}

/* Returns NULL when desc is valid, else what is wrong (for the log). */
static const char *desc_problem(const ear_body_desc *d) {
    if (d->kind != EAR_BODY_DYNAMIC && d->kind != EAR_BODY_KINEMATIC &&
        d->kind != EAR_BODY_FIXED)
        return "kind is not dynamic, kinematic or fixed";
    if (d->shape == EAR_SHAPE_BOX) {
        if (!ear_vec3_is_finite(d->half_extents_m) || !(d->half_extents_m.x > 0) ||
            !(d->half_extents_m.y > 0) || !(d->half_extents_m.z > 0))
            return "a box's half extents must be finite and > 0";
    } else if (d->shape == EAR_SHAPE_SPHERE) {
        if (!finite_f(d->radius_m) || !(d->radius_m > 0))
            return "a sphere's radius must be finite and > 0";
    } else {
        return "shape is not box or sphere";
    }
    if (!ear_vec3_is_finite(d->position_m)) return "position is not finite";
    if (!ear_vec3_is_finite(d->velocity_mps)) return "velocity is not finite";
    if (!finite_f(d->facing_deg) || !finite_f(d->pitch_deg))
        return "facing or pitch is not finite";
    if (!finite_f(d->mass_kg) || !(d->mass_kg > 0)) return "mass must be finite and > 0";
    /* 1 / mass must be a number a step can multiply (1e-40 kg made it infinite, then NaN). */
    if (!(d->mass_kg >= 1e-6f)) return "mass must be at least 1e-6 kg";
    if (!(d->bounciness >= 0 && d->bounciness <= 1)) return "bounciness must be in 0..1";
    if (!finite_f(d->friction) || !(d->friction >= 0)) return "friction must be >= 0";
    if (!finite_f(d->damping_per_s) || !(d->damping_per_s >= 0)) return "damping must be >= 0";
    if (!finite_f(d->gravity_scale)) return "gravity_scale is not finite";
    if (!finite_f(d->max_speed_mps) || !(d->max_speed_mps >= 0))
        return "max_speed must be >= 0";
    if (d->vehicle && ear__vehicle_validate(d->vehicle) != EAR_OK)
        return "the vehicle's config is out of range";
    return NULL;
}

static float wrap_deg(float deg) {
    float f = fmodf(deg, 360.0f);
    if (f < 0) f += 360.0f;
    if (f >= 360.0f) f = 0;
    return f;
}

static void copy_name(char *dst, const char *src) {
    if (!src) src = "";
    size_t n = strlen(src);
    if (n > EAR__NAME_MAX - 1) n = EAR__NAME_MAX - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* The memory a description needs that the body may not have yet: a name copy and, for a
 * vehicle, its state. Allocated before anything changes, so failure changes nothing. */
typedef struct desc_mem {
    char *name;
    ear__vehicle *vehicle; /* NULL: none needed (or the body's own is reused) */
} desc_mem;

static char *copy_name_alloc(ear_physics *w, const char *src) {
    char tmp[EAR__NAME_MAX];
    copy_name(tmp, src);
    size_t n = strlen(tmp) + 1;
    char *p = w->alloc.alloc_fn(n, w->alloc.user);
    if (p) memcpy(p, tmp, n);
    return p;
}

static bool desc_mem_get(ear_physics *w, const ear__body *b, const ear_body_desc *d,
                         desc_mem *m) {
    m->name = copy_name_alloc(w, d->name);
    m->vehicle = NULL;
    if (!m->name) return false;
    if (d->vehicle && !(b && b->vehicle)) {
        m->vehicle = w->alloc.alloc_fn(sizeof *m->vehicle, w->alloc.user);
        if (!m->vehicle) {
            w->alloc.free_fn(m->name, w->alloc.user);
            return false;
        }
    }
    return true;
}

/* Writes the description into b (validated before), taking m's memory. */
static void apply_desc(ear_physics *w, ear__body *b, const ear_body_desc *d, desc_mem *m) {
    if (b->name) w->alloc.free_fn(b->name, w->alloc.user); /* d->name was copied already */
    b->name = m->name;
    b->user_tag = d->user_tag;
    b->user_data = d->user_data;
    b->kind = d->vehicle ? EAR_BODY_KINEMATIC : d->kind;
    b->shape = d->shape;
    if (d->shape == EAR_SHAPE_BOX) {
        b->half = d->half_extents_m;
        b->radius = 0;
    } else {
        b->half = ear_vec3_make(d->radius_m, d->radius_m, d->radius_m);
        b->radius = d->radius_m;
    }
    b->sensor = d->sensor;
    b->pos = d->position_m;
    b->vel = d->velocity_mps;
    b->facing = wrap_deg(d->facing_deg);
    b->pitch = d->pitch_deg;
    b->mass = d->mass_kg;
    b->inv_mass = b->kind == EAR_BODY_DYNAMIC ? 1.0f / d->mass_kg : 0.0f;
    b->bounciness = d->bounciness;
    b->friction = d->friction;
    b->damping = d->damping_per_s;
    b->gravity_scale = d->gravity_scale;
    b->max_speed = d->max_speed_mps;
    if (d->vehicle) {
        ear_vehicle_config cfg = *d->vehicle; /* may point into the body's own vehicle */
        if (!b->vehicle) {
            b->vehicle = m->vehicle;
            ear__vehicle_init(b->vehicle, &cfg);
        } else if (memcmp(&b->vehicle->cfg, &cfg, sizeof cfg) != 0) {
            ear__vehicle_init(b->vehicle, &cfg);
        }
        b->is_vehicle = true;
    } else {
        if (b->vehicle) w->alloc.free_fn(b->vehicle, w->alloc.user);
        b->vehicle = NULL;
        b->is_vehicle = false;
    }
}

static void free_body_mem(ear_physics *w, ear__body *b) {
    if (b->name) w->alloc.free_fn(b->name, w->alloc.user);
    if (b->vehicle) w->alloc.free_fn(b->vehicle, w->alloc.user);
    b->name = NULL;
    b->vehicle = NULL;
}

/* ---- Adding and removing ------------------------------------------------------------------
 */

ear_result ear_physics_add_body(ear_physics *w, const ear_body_desc *d, ear_body_id *out_id) {
    if (!w || !d || !out_id) return EAR_E_INVALID_ARG;
    const char *problem = desc_problem(d);
    if (problem) {
        ear_log(EAR_LOG_ERROR, "physics", "body '%s' refused: %s", d->name ? d->name : "",
                problem);
        return EAR_E_INVALID_ARG;
    }
    if (w->count == UINT32_MAX - 1) return EAR_E_OUT_OF_MEMORY;
    if (!ear__grow(&w->alloc, (void **)&w->bodies, &w->cap, w->count + 1, sizeof *w->bodies))
        return EAR_E_OUT_OF_MEMORY;
    uint32_t slot;
    if (w->free_count > 0) {
        slot = w->free_slots[--w->free_count];
    } else {
        if (!ear__grow(&w->alloc, (void **)&w->slots, &w->slot_cap, w->slot_count + 1,
                       sizeof *w->slots) ||
            !ear__grow(&w->alloc, (void **)&w->free_slots, &w->free_cap, w->slot_count + 1,
                       sizeof *w->free_slots))
            return EAR_E_OUT_OF_MEMORY;
        slot = w->slot_count++;
        w->slots[slot].generation = 0;
    }
    desc_mem mem;
    if (!desc_mem_get(w, NULL, d, &mem)) {
        if (slot == w->slot_count - 1 && w->slots[slot].generation == 0) {
            w->slot_count--; /* a fresh slot: give it back */
        } else {
            w->free_slots[w->free_count++] = slot;
        }
        return EAR_E_OUT_OF_MEMORY;
    }
    ear__slot *s = &w->slots[slot];
    s->generation++;
    if (s->generation == 0) s->generation = 1; /* after 2^32 reuses: still never 0 */
    s->dense = w->count;
    ear__body *b = &w->bodies[w->count++];
    memset(b, 0, sizeof *b);
    apply_desc(w, b, d, &mem);
    b->id = ((uint64_t)s->generation << 32) | slot;
    b->ground = EAR_BODY_NONE;
    if (b->kind == EAR_BODY_FIXED) w->fixed_dirty = true;
    w->grid_valid = false;
    *out_id = b->id;
    return EAR_OK;
}

/* Removes entries naming id from a pair list (keeps the order). */
static void drop_pairs_of(ear__pair *p, uint32_t *count, ear_body_id id) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < *count; k++)
        if (p[k].lo != id && p[k].hi != id) p[n++] = p[k];
    *count = n;
}

ear_result ear_physics_remove_body(ear_physics *w, ear_body_id id) {
    if (w && w->stepping) return EAR_E_STATE;
    LOOKUP(w, id, b);
    uint32_t k = (uint32_t)(b - w->bodies);
    if (b->kind == EAR_BODY_FIXED) w->fixed_dirty = true;
    uint32_t slot = (uint32_t)(id & 0xffffffffu);
    w->slots[slot].generation++;
    if (w->slots[slot].generation == 0) w->slots[slot].generation = 1;
    w->slots[slot].dense = UINT32_MAX;
    w->free_slots[w->free_count++] = slot;
    free_body_mem(w, b);
    memmove(&w->bodies[k], &w->bodies[k + 1], (size_t)(w->count - k - 1) * sizeof *w->bodies);
    w->count--;
    for (uint32_t j = k; j < w->count; j++)
        w->slots[(uint32_t)(w->bodies[j].id & 0xffffffffu)].dense = j;
    for (uint32_t j = 0; j < w->count; j++) {
        if (w->bodies[j].ground == id) {
            w->bodies[j].ground = EAR_BODY_NONE;
            w->bodies[j].on_ground = false;
        }
    }
    /* Its current contacts stay in last_pairs / last_sense, so the next step reports them
     * ended (with the stale id); this step's lists must not keep it. */
    drop_pairs_of(w->pairs, &w->pair_count, id);
    drop_pairs_of(w->sense, &w->sense_count, id);
    /* The grids hold dense indices: rebuilt at the next query. */
    w->grid_valid = false;
    return EAR_OK;
}

/* ---- Reading and changing -------------------------------------------------------------- */

ear_result ear_body_get(const ear_physics *w, ear_body_id id, ear_body_info *out) {
    if (!out) return EAR_E_INVALID_ARG;
    LOOKUP(w, id, b);
    ear_body_info info;
    memset(&info, 0, sizeof info);
    info.id = b->id;
    ear_body_desc *d = &info.desc;
    d->name = b->name;
    d->user_tag = b->user_tag;
    d->user_data = b->user_data;
    d->kind = b->kind;
    d->shape = b->shape;
    d->half_extents_m = b->shape == EAR_SHAPE_BOX ? b->half : ear_vec3_make(0.5f, 0.5f, 0.5f);
    d->radius_m = b->shape == EAR_SHAPE_SPHERE ? b->radius : 0.5f;
    d->sensor = b->sensor;
    d->position_m = b->pos;
    d->velocity_mps = b->vel;
    d->facing_deg = b->facing;
    d->pitch_deg = b->pitch;
    d->mass_kg = b->mass;
    d->bounciness = b->bounciness;
    d->friction = b->friction;
    d->damping_per_s = b->damping;
    d->gravity_scale = b->gravity_scale;
    d->max_speed_mps = b->max_speed;
    d->vehicle = b->vehicle ? &b->vehicle->cfg : NULL;
    info.force_n = b->force;
    info.on_ground = b->on_ground;
    info.ground = b->ground;
    info.displacement_m = b->carry; /* the last step's (cleared as a step begins) */
    info.index = (uint64_t)(b - w->bodies);
    *out = info;
    return EAR_OK;
}

ear_result ear_body_set(ear_physics *w, ear_body_id id, const ear_body_desc *d) {
    if (!d) return EAR_E_INVALID_ARG;
    LOOKUP(w, id, b);
    const char *problem = desc_problem(d);
    if (problem) {
        ear_log(EAR_LOG_ERROR, "physics", "body '%s' not changed: %s", b->name, problem);
        return EAR_E_INVALID_ARG;
    }
    if (b->kind == EAR_BODY_FIXED || d->kind == EAR_BODY_FIXED) w->fixed_dirty = true;
    desc_mem mem;
    if (!desc_mem_get(w, b, d, &mem)) return EAR_E_OUT_OF_MEMORY;
    apply_desc(w, b, d, &mem);
    w->grid_valid = false;
    return EAR_OK;
}

ear_result ear_body_set_position(ear_physics *w, ear_body_id id, ear_vec3 p) {
    LOOKUP(w, id, b);
    if (!ear_vec3_is_finite(p)) return EAR_E_INVALID_ARG;
    b->pos = p;
    b->ground = EAR_BODY_NONE;
    b->on_ground = false;
    ear__broad_moved(w, (uint32_t)(b - w->bodies));
    return EAR_OK;
}

ear_result ear_body_set_velocity(ear_physics *w, ear_body_id id, ear_vec3 v) {
    LOOKUP(w, id, b);
    if (!ear_vec3_is_finite(v)) return EAR_E_INVALID_ARG;
    b->vel = v;
    if (b->is_vehicle) {
        /* The vehicle's speed is its velocity along the facing. */
        b->vehicle->speed_mps = ear_vec3_dot(v, ear_forward_from_facing(b->facing, 0));
    }
    return EAR_OK;
}

ear_result ear_body_set_facing(ear_physics *w, ear_body_id id, float deg) {
    LOOKUP(w, id, b);
    if (!isfinite(deg)) return EAR_E_INVALID_ARG;
    b->facing = wrap_deg(deg);
    return EAR_OK;
}

ear_result ear_body_set_pitch(ear_physics *w, ear_body_id id, float deg) {
    LOOKUP(w, id, b);
    if (!isfinite(deg)) return EAR_E_INVALID_ARG;
    b->pitch = deg;
    return EAR_OK;
}

ear_result ear_body_set_name(ear_physics *w, ear_body_id id, const char *name) {
    LOOKUP(w, id, b);
    char *copy = copy_name_alloc(w, name);
    if (!copy) return EAR_E_OUT_OF_MEMORY;
    w->alloc.free_fn(b->name, w->alloc.user);
    b->name = copy;
    return EAR_OK;
}

ear_result ear_body_set_user_tag(ear_physics *w, ear_body_id id, uint64_t tag) {
    LOOKUP(w, id, b);
    b->user_tag = tag;
    return EAR_OK;
}

ear_result ear_body_add_force(ear_physics *w, ear_body_id id, ear_vec3 f) {
    LOOKUP(w, id, b);
    if (!ear_vec3_is_finite(f)) return EAR_E_INVALID_ARG;
    b->force = ear_vec3_add(b->force, f);
    return EAR_OK;
}

ear_result ear_body_set_force(ear_physics *w, ear_body_id id, ear_vec3 f) {
    LOOKUP(w, id, b);
    if (!ear_vec3_is_finite(f)) return EAR_E_INVALID_ARG;
    b->force = f;
    return EAR_OK;
}

ear_result ear_body_position(const ear_physics *w, ear_body_id id, ear_vec3 *out) {
    if (!out) return EAR_E_INVALID_ARG;
    LOOKUP(w, id, b);
    *out = b->pos;
    return EAR_OK;
}

ear_result ear_body_velocity(const ear_physics *w, ear_body_id id, ear_vec3 *out) {
    if (!out) return EAR_E_INVALID_ARG;
    LOOKUP(w, id, b);
    *out = b->vel;
    return EAR_OK;
}

const char *ear_body_name(const ear_physics *w, ear_body_id id) {
    ear__body *b = ear__body_lookup(w, id);
    return b ? b->name : NULL;
}

ear_result ear_body_turn(ear_physics *w, ear_body_id id, float degrees) {
    LOOKUP(w, id, b);
    if (!isfinite(degrees)) return EAR_E_INVALID_ARG;
    b->facing = wrap_deg(b->facing + degrees);
    return EAR_OK;
}

bool ear_body_is_vehicle(const ear_physics *w, ear_body_id id) {
    ear__body *b = ear__body_lookup(w, id);
    return b && b->is_vehicle;
}

/* ---- Time and the state hash ------------------------------------------------------------ */

uint64_t ear_physics_steps(const ear_physics *w) {
    return w ? w->steps : 0;
}

double ear_physics_time_s(const ear_physics *w) {
    return w ? w->time_s : 0;
}

uint64_t ear_physics_work(const ear_physics *w) {
    return w ? w->work : 0;
}

uint64_t ear_physics_last_step_work(const ear_physics *w) {
    return w ? w->last_step_work : 0;
}

static uint64_t fnv_f(uint64_t h, float f) {
    if (f == 0) f = 0; /* -0 and +0 are the same state */
    return ear_fnv1a64(h, &f, sizeof f);
}

static uint64_t fnv_v(uint64_t h, ear_vec3 v) {
    return fnv_f(fnv_f(fnv_f(h, v.x), v.y), v.z);
}

uint64_t ear_physics_hash(const ear_physics *w) {
    uint64_t h = EAR_FNV1A64_OFFSET;
    if (!w) return h;
    for (uint32_t k = 0; k < w->count; k++) {
        const ear__body *b = &w->bodies[k];
        h = ear_fnv1a64(h, &b->id, sizeof b->id);
        uint8_t flags[4] = {(uint8_t)b->kind, (uint8_t)b->shape, b->on_ground, b->sensor};
        h = ear_fnv1a64(h, flags, sizeof flags);
        h = fnv_v(h, b->pos);
        h = fnv_v(h, b->vel);
        h = fnv_v(h, b->force);
        h = fnv_f(fnv_f(h, b->facing), b->pitch);
        h = ear_fnv1a64(h, &b->ground, sizeof b->ground);
        h = ear_fnv1a64(h, &b->user_tag, sizeof b->user_tag);
        if (b->is_vehicle) {
            const ear__vehicle *v = b->vehicle;
            h = fnv_f(fnv_f(fnv_f(h, v->controls.gas), v->controls.brake), v->controls.steer);
            h = ear_fnv1a64(h, &v->controls.handbrake, sizeof v->controls.handbrake);
            h = fnv_f(fnv_f(fnv_f(h, v->speed_mps), v->rpm), v->cfg.fuel_l);
            h = ear_fnv1a64(h, &v->gear, sizeof v->gear);
            h = ear_fnv1a64(h, &v->hold, sizeof v->hold);
            h = ear_fnv1a64(h, &v->cfg.engine_on, sizeof v->cfg.engine_on);
        }
    }
    return h;
}
