/* SPDX-License-Identifier: Zlib */
/*
 * The base every other file of the physics builds on: an id to its body (and the error for
 * an id that names none), a body's collider, the direction vectors of a facing, and the
 * event list (ear__emit and the public event calls). It calls nothing else of the module.
 */
#include "physics_internal.h"

#include "portable_math.h"

/* ---- Lookup ------------------------------------------------------------------------------ */

ear__body *ear__body_lookup(const ear_physics *w, ear_body_id id) {
    if (!w || id == EAR_BODY_NONE) return NULL;
    uint32_t slot = (uint32_t)(id & 0xffffffffu);
    uint32_t gen = (uint32_t)(id >> 32);
    if (slot >= w->slot_count) return NULL;
    const ear__slot *s = &w->slots[slot];
    if (s->generation != gen || s->dense == UINT32_MAX) return NULL;
    return &w->bodies[s->dense];
}

/* EAR_E_INVALID_ARG for NONE or a slot never handed out, EAR_E_STALE_ID otherwise. */
ear_result ear__missing(const ear_physics *w, ear_body_id id) {
    if (!w || id == EAR_BODY_NONE) return EAR_E_INVALID_ARG;
    uint32_t slot = (uint32_t)(id & 0xffffffffu);
    if (slot >= w->slot_count || (uint32_t)(id >> 32) > w->slots[slot].generation)
        return EAR_E_INVALID_ARG;
    return EAR_E_STALE_ID;
}

ear_collider ear__collider_of(const ear__body *b) {
    ear_collider c;
    c.shape = b->shape;
    c.center_m = b->pos;
    c.half_extents_m = b->half;
    c.radius_m = b->radius;
    return c;
}

/* Directions from angles through the portable sin and cos (earshot/portable_math.h):
 * the same vectors natively and in the web build, so a replay's listener and voices
 * turn the same bits on both. */
ear_vec3 ear_forward_from_facing(float facing_deg, float pitch_deg) {
    double f = (double)facing_deg * (3.14159265358979323846 / 180.0);
    double p = (double)pitch_deg * (3.14159265358979323846 / 180.0);
    double sf, cf, sp, cp;
    ear__sincos(f, &sf, &cf); /* the bits of ear__sin and ear__cos, one reduction each */
    ear__sincos(p, &sp, &cp);
    return ear_vec3_make((float)(sf * cp), (float)sp, (float)(-cf * cp));
}

ear_vec3 ear_right_from_facing(float facing_deg) {
    double f = (double)facing_deg * (3.14159265358979323846 / 180.0);
    double s, c;
    ear__sincos(f, &s, &c);
    return ear_vec3_make((float)c, 0, (float)s);
}

/* ---- Events ---------------------------------------------------------------------------- */

void ear__emit(ear_physics *w, const ear_physics_event *e) {
    if (w->event_count >= w->cfg.max_events) {
        w->events_dropped++;
        return;
    }
    if (w->event_count == w->event_cap) {
        size_t n = w->event_cap ? w->event_cap * 2 : 64;
        if (n > w->cfg.max_events) n = w->cfg.max_events;
        void *p = w->alloc.realloc_fn(w->events, n * sizeof *w->events, w->alloc.user);
        if (!p) {
            w->events_dropped++;
            return;
        }
        w->events = p;
        w->event_cap = n;
    }
    w->events[w->event_count] = *e;
    w->events[w->event_count].step = w->steps;
    w->event_count++;
}

const ear_physics_event *ear_physics_events(const ear_physics *w, size_t *out_count) {
    if (out_count) *out_count = w ? w->event_count : 0;
    return w ? w->events : NULL;
}

size_t ear_physics_event_count(const ear_physics *w) {
    return w ? w->event_count : 0;
}

size_t ear_physics_events_dropped(const ear_physics *w) {
    return w ? w->events_dropped : 0;
}

void ear_physics_clear_events(ear_physics *w) {
    if (!w) return;
    w->event_count = 0;
    w->events_dropped = 0;
}

const char *ear_physics_event_name(ear_physics_event_type t) {
    switch (t) {
    case EAR_PHYS_LANDED: return "landed";
    case EAR_PHYS_COLLISION_STARTED: return "collision_started";
    case EAR_PHYS_COLLISION_ENDED: return "collision_ended";
    case EAR_PHYS_ENTERED: return "entered";
    case EAR_PHYS_LEFT: return "left";
    case EAR_PHYS_GEAR_CHANGED: return "gear_changed";
    case EAR_PHYS_CRASHED: return "crashed";
    }
    return "unknown";
}
