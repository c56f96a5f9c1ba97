/* SPDX-License-Identifier: Zlib */
/*
 * Reverb zones: boxes of the level with a room each. After the ear is placed in a sync,
 * the zone it is in (highest priority, then smallest box, then first set) is looked up;
 * when that changes, the stage's room changes to the zone's over the zone's transition
 * (the stage's reverb makes the change smooth: docs/stage.md). The room outside every zone
 * is the one the stage had when the ear last walked into a zone from outside.
 *
 * Zones live in one array (at most EAR_WORLD_MAX_ZONES), kept in the order they were first
 * set; a sync costs one box test per zone.
 */
#include "world_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MODULE "world"

ear_reverb_zone ear_reverb_zone_default(const char *name) {
    ear_reverb_zone z;
    memset(&z, 0, sizeof z);
    if (name && strlen(name) < EAR_NAME_MAX) memcpy(z.name, name, strlen(name) + 1);
    z.room = ear_reverb_params_default();
    z.transition_s = 1.0f;
    return z;
}

static long find_zone(const ear_world *w, const char *name) {
    for (size_t i = 0; i < w->zone_count; i++)
        if (strcmp(w->zones[i].name, name) == 0) return (long)i;
    return -1;
}

static bool box_ok(ear_vec3 lo, ear_vec3 hi) {
    return ear_vec3_is_finite(lo) && ear_vec3_is_finite(hi) && lo.x <= hi.x && lo.y <= hi.y &&
           lo.z <= hi.z;
}

ear_result ear_world_set_reverb_zone(ear_world *w, const ear_reverb_zone *zone) {
    if (!w || !zone || !zone->name[0] || !memchr(zone->name, '\0', EAR_NAME_MAX))
        return EAR_E_INVALID_ARG;
    const char *bad = NULL;
    if (!box_ok(zone->min_m, zone->max_m)) {
        ear_log(EAR_LOG_WARN, MODULE, "zone \"%s\": its box needs min <= max, finite",
                zone->name);
        return EAR_E_INVALID_ARG;
    }
    if (ear_reverb_params_check(&zone->room, &bad) != EAR_OK) {
        ear_log(EAR_LOG_WARN, MODULE, "zone \"%s\": room.%s out of range", zone->name, bad);
        return EAR_E_INVALID_ARG;
    }
    if (!isfinite(zone->transition_s) || zone->transition_s < 0.0f) return EAR_E_INVALID_ARG;
    long k = find_zone(w, zone->name);
    if (k < 0) {
        if (w->zone_count >= EAR_WORLD_MAX_ZONES) return EAR_E_STATE;
        if (!w->zones) {
            w->zones = calloc(EAR_WORLD_MAX_ZONES, sizeof *w->zones);
            if (!w->zones) return EAR_E_OUT_OF_MEMORY;
        }
        k = (long)w->zone_count++;
    }
    w->zones[k] = *zone;
    if (w->zones[k].transition_s == 0.0f) w->zones[k].transition_s = 1.0f;
    w->zones_changed = true;
    return EAR_OK;
}

ear_result ear_world_remove_reverb_zone(ear_world *w, const char *name) {
    if (!w || !name) return EAR_E_INVALID_ARG;
    long k = find_zone(w, name);
    if (k < 0) return EAR_E_NOT_FOUND;
    memmove(&w->zones[k], &w->zones[k + 1],
            (w->zone_count - (size_t)k - 1u) * sizeof *w->zones);
    w->zone_count--;
    /* The zone the ear was in moved down one place, or went. */
    if (w->zone_in == (size_t)k + 1u)
        w->zone_in = (size_t)-1; /* gone: the next sync chooses afresh */
    else if (w->zone_in > (size_t)k + 1u && w->zone_in != (size_t)-1)
        w->zone_in--;
    w->zones_changed = true;
    return EAR_OK;
}

size_t ear_world_reverb_zone_count(const ear_world *w) {
    return w ? w->zone_count : 0;
}

bool ear_world_reverb_zone_at(const ear_world *w, size_t i, ear_reverb_zone *out) {
    if (!w || !out || i >= w->zone_count) return false;
    *out = w->zones[i];
    return true;
}

const char *ear_world_current_zone(const ear_world *w) {
    if (!w || w->zone_in == 0 || w->zone_in == (size_t)-1 || w->zone_in > w->zone_count)
        return NULL;
    return w->zones[w->zone_in - 1u].name;
}

static bool inside(const ear_reverb_zone *z, ear_vec3 p) {
    return p.x >= z->min_m.x && p.x <= z->max_m.x && p.y >= z->min_m.y && p.y <= z->max_m.y &&
           p.z >= z->min_m.z && p.z <= z->max_m.z;
}

static double volume(const ear_reverb_zone *z) {
    return ((double)z->max_m.x - z->min_m.x) * ((double)z->max_m.y - z->min_m.y) *
           ((double)z->max_m.z - z->min_m.z);
}

void ear__world_zones_sync(ear_world *w) {
    if (!w->zone_count && w->zone_in == 0) return;
    /* 1 + the zone the ear is in now (0: none, or no ear). */
    size_t best = 0;
    if (w->have_ear)
        for (size_t i = 0; i < w->zone_count; i++) {
            const ear_reverb_zone *z = &w->zones[i];
            if (!inside(z, w->ear_pos)) continue;
            const ear_reverb_zone *b = best ? &w->zones[best - 1u] : NULL;
            if (!b || z->priority > b->priority ||
                (z->priority == b->priority && volume(z) < volume(b)))
                best = i + 1u;
        }
    bool changed = best != w->zone_in || (w->zones_changed && best != 0);
    w->zones_changed = false;
    if (!changed) return;
    ear_stage *stage = w->config.stage;
    if (best == 0) {
        /* Out of every zone: the room from before, over the last zone's transition. */
        float t = 1.0f;
        if (w->zone_in != 0 && w->zone_in != (size_t)-1 && w->zone_in <= w->zone_count)
            t = w->zones[w->zone_in - 1u].transition_s;
        if (w->zone_in != 0) ear_stage_set_reverb(stage, &w->outside, t);
    } else {
        if (w->zone_in == 0) w->outside = ear_stage_get_reverb(stage);
        const ear_reverb_zone *z = &w->zones[best - 1u];
        ear_stage_set_reverb(stage, &z->room, z->transition_s);
    }
    w->zone_in = best;
}
