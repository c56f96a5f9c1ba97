/* SPDX-License-Identifier: Zlib */
/*
 * What the audio world reads from a physics body, and only reads: its pose, the velocity
 * doppler hears (the physics velocity of a dynamic body or a vehicle; for every other
 * body how far it moved since the last sync over the time the physics stepped in between,
 * never over one frame's length when the motion came from steps, where a jump faster
 * than the teleport speed counts as a teleport and gives 0), the numbers drive bindings ask
 * for, and the previous/current poses drawing blends between.
 */
#include "world_internal.h"

#include <math.h>
#include <string.h>

bool ear__read_body(ear_world *w, ear__entry *e, double dt_s) {
    e->info_valid = ear_body_get(w->config.physics, e->body, &e->info) == EAR_OK;
    if (!e->info_valid) return false;
    ear_vec3 pos = e->info.desc.position_m;
    bool physical = e->info.desc.kind == EAR_BODY_DYNAMIC || e->info.desc.vehicle != NULL;
    if (physical) {
        e->velocity = e->info.desc.velocity_mps;
    } else if (!(dt_s > 0)) {
        /* A read between syncs (attach): the motion since the last sync is measured at
         * the next one; the velocity stays. */
        if (!e->last_valid) e->velocity = ear_vec3_make(0, 0, 0);
        return true;
    } else if (e->last_valid) {
        ear_vec3 moved = ear_vec3_sub(pos, e->last_pos);
        bool still = moved.x == 0 && moved.y == 0 && moved.z == 0;
        /* The time the motion took: the physics' steps since the last sync when it
         * stepped (a frame of the same length as its steps keeps the frame's dt); a frame
         * without a step leaves a body where its last step put it, so a still body keeps
         * that step's velocity; motion without a step (the game moved the body outside
         * the steps, or never steps) took the frame. */
        double over = dt_s;
        if (w->sync_phys_dt_s > 0 && fabs(w->sync_phys_dt_s - dt_s) > 1e-6 * dt_s)
            over = w->sync_phys_dt_s;
        if (w->sync_phys_dt_s > 0 || !still) {
            ear_vec3 v = ear_vec3_scale(moved, (float)(1.0 / over));
            e->velocity =
                ear_vec3_length(v) > w->config.teleport_speed_mps ? ear_vec3_make(0, 0, 0) : v;
        } else if (!w->phys_stepped) {
            e->velocity = ear_vec3_make(0, 0, 0);
        }
    } else {
        e->velocity = ear_vec3_make(0, 0, 0);
    }
    if (!ear_vec3_is_finite(e->velocity)) e->velocity = ear_vec3_make(0, 0, 0);
    e->last_pos = pos;
    e->last_valid = true;
    return true;
}

static bool axis(const char *name, ear_vec3 v, float *out) {
    if (strcmp(name, "x") == 0)
        *out = v.x;
    else if (strcmp(name, "y") == 0)
        *out = v.y;
    else if (strcmp(name, "z") == 0)
        *out = v.z;
    else
        return false;
    return true;
}

bool ear__drive_value(const ear_world *w, const ear__entry *e, const char *from, float *out) {
    if (!e->info_valid || !from) return false;
    const ear_body_desc *d = &e->info.desc;
    ear_vec3 v = e->velocity;
    if (strcmp(from, "@speed") == 0) {
        *out = ear_vec3_length(v);
        return true;
    }
    if (strcmp(from, "@speed_kmh") == 0) {
        *out = ear_vec3_length(v) * 3.6f;
        return true;
    }
    if (strcmp(from, "@forward_speed") == 0) {
        *out = ear_vec3_dot(v, ear_forward_from_facing(d->facing_deg, 0.0f));
        return true;
    }
    if (strncmp(from, "vehicle.", 8) == 0) {
        ear_vehicle_state s;
        if (ear_vehicle_get_state(w->config.physics, e->body, &s) != EAR_OK) return false;
        const char *f = from + 8;
        if (strcmp(f, "rpm") == 0)
            *out = s.rpm;
        else if (strcmp(f, "speed") == 0)
            *out = s.speed_mps;
        else if (strcmp(f, "load") == 0)
            *out = s.load;
        else if (strcmp(f, "gear") == 0)
            *out = (float)s.gear;
        else if (strcmp(f, "fuel") == 0)
            *out = s.fuel_l;
        else if (strcmp(f, "turn_rate") == 0)
            *out = s.turn_rate_dps;
        else
            return false;
        return true;
    }
    if (strncmp(from, "position.", 9) == 0) return axis(from + 9, d->position_m, out);
    if (strncmp(from, "velocity.", 9) == 0) return axis(from + 9, d->velocity_mps, out);
    if (strcmp(from, "facing") == 0)
        *out = d->facing_deg;
    else if (strcmp(from, "pitch") == 0)
        *out = d->pitch_deg;
    else if (strcmp(from, "mass") == 0)
        *out = d->mass_kg;
    else if (strcmp(from, "on_ground") == 0)
        *out = e->info.on_ground ? 1.0f : 0.0f;
    else if (strcmp(from, "user_tag") == 0)
        *out = (float)d->user_tag;
    else
        return false;
    return isfinite(*out);
}

/* ---- drawing ------------------------------------------------------------------------- */

void ear_pose_track_note(ear_pose_track *track, ear_vec3 position_m) {
    if (!track) return;
    track->previous = track->valid ? track->current : position_m;
    track->current = position_m;
    track->valid = true;
}

ear_vec3 ear_pose_track_blend(const ear_pose_track *track, double alpha, float snap_m) {
    if (!track || !track->valid) return ear_vec3_make(0, 0, 0);
    ear_vec3 step = ear_vec3_sub(track->current, track->previous);
    if (!(alpha < 1.0) || ear_vec3_length(step) > snap_m) return track->current;
    if (!(alpha > 0.0)) return track->previous;
    return ear_vec3_add(track->previous, ear_vec3_scale(step, (float)alpha));
}
