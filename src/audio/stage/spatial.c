/* SPDX-License-Identifier: Zlib */
/*
 * Placement maths: from the listener's pose and a voice's emitter to the per-block
 * targets the kernel ramps towards (per-ear gains, interaural delays, the behind/below
 * filter amount and the doppler factor). Pure functions of their inputs; every
 * formula is written out in docs/stage.md.
 *
 * Listener space: x along the listener's right (cross(forward, up)), y along its
 * forward, z along its up. Only x pans, so a sound straight above or below is
 * centred; y < 0 is behind, z < 0 below.
 */
#include "portable_math.h"
#include "stage_internal.h"

#include <math.h>

static float clampf(float v, float lo, float hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

float ear__distance_gain(const ear_attenuation *att, float distance_m) {
    float ref = att->ref_distance_m, max = att->max_distance_m, rolloff = att->rolloff;
    float d = clampf(distance_m, ref, max);
    switch (att->model) {
    case EAR_MODEL_NONE: return 1.0f;
    case EAR_MODEL_LINEAR: {
        if (!(max > ref)) return 1.0f;
        float g = 1.0f - rolloff * (d - ref) / (max - ref);
        return g > 0.0f ? g : 0.0f;
    }
    case EAR_MODEL_EXPONENTIAL: return ear__powf(d / ref, -rolloff);
    case EAR_MODEL_FADE: {
        float t = max > ref ? (d - ref) / (max - ref) : 1.0f;
        float g = ear__powf(ref / d, rolloff) * (1.0f - t * t);
        return g > 0.0f ? g : 0.0f;
    }
    case EAR_MODEL_DEFAULT:
    case EAR_MODEL_INVERSE:
    default: return ref / (ref + rolloff * (d - ref));
    }
}

bool ear_attenuation_silent_at(const ear_attenuation *a, float distance_m) {
    float ref = a->ref_distance_m > 0.0f ? a->ref_distance_m : 1.0f;
    float max = a->max_distance_m > 0.0f ? a->max_distance_m : 100.0f;
    float rolloff = a->rolloff > 0.0f ? a->rolloff : 1.0f;
    /* A linear range at or below the reference distance does not attenuate at all
     * (ear__distance_gain gives 1), so such a request is audible everywhere. */
    bool silent_at_max = a->model == EAR_MODEL_FADE ||
                         (a->model == EAR_MODEL_LINEAR && rolloff >= 1.0f && max > ref);
    return silent_at_max && distance_m >= max;
}

float ear__cone_gain(const ear_cone *cone, ear_vec3 forward, ear_vec3 to_listener_unit) {
    if (!(cone->outer_angle_rad > 0.0f)) return 1.0f;
    float flen = ear_vec3_length(forward);
    if (!(flen > 1e-9f)) return 1.0f;
    float c = ear_vec3_dot(forward, to_listener_unit) / flen;
    /* Full opening angles: compare twice the angle off the axis. */
    float angle = 2.0f * ear__acosf(clampf(c, -1.0f, 1.0f));
    float inner = cone->inner_angle_rad, outer = cone->outer_angle_rad;
    if (inner > outer) inner = outer;
    if (angle <= inner) return 1.0f;
    if (angle >= outer) return cone->outer_gain;
    float t = (angle - inner) / (outer - inner);
    return 1.0f + t * (cone->outer_gain - 1.0f);
}

/* The doppler factor from the source -> listener vector (sx, sy, sz) and its length. */
static float doppler_along(double sx, double sy, double sz, double dist, ear_vec3 source_vel,
                           ear_vec3 listener_vel, float factor, float speed_of_sound) {
    if (!(factor > 0.0f) || !(speed_of_sound > 0.0f)) return 1.0f;
    if (!(dist > 1e-6)) return 1.0f;
    float vls =
        (float)((sx * listener_vel.x + sy * listener_vel.y + sz * listener_vel.z) / dist);
    float vss = (float)((sx * source_vel.x + sy * source_vel.y + sz * source_vel.z) / dist);
    /* Speeds are limited to just below c / f so the ratio stays finite and positive. */
    float limit = speed_of_sound / factor * 0.999f;
    vls = clampf(vls, -limit, limit);
    vss = clampf(vss, -limit, limit);
    return (speed_of_sound - factor * vls) / (speed_of_sound - factor * vss);
}

float ear__doppler(ear_vec3 source_pos, ear_vec3 source_vel, ear_vec3 listener_pos,
                   ear_vec3 listener_vel, float factor, float speed_of_sound) {
    if (!(factor > 0.0f) || !(speed_of_sound > 0.0f)) return 1.0f;
    /* Source -> listener, in double so that huge but finite coordinates stay finite. */
    double sx = (double)listener_pos.x - source_pos.x,
           sy = (double)listener_pos.y - source_pos.y,
           sz = (double)listener_pos.z - source_pos.z;
    double dist = sqrt(sx * sx + sy * sy + sz * sz);
    return doppler_along(sx, sy, sz, dist, source_vel, listener_vel, factor, speed_of_sound);
}

void ear__ears_from_listener(const ear_listener *listener, ear__ears *ears) {
    ear_vec3 fwd = ear_vec3_normalize_or(listener->forward, ear_vec3_make(0, 0, -1));
    ear_vec3 up = ear_vec3_normalize_or(listener->up, ear_vec3_make(0, 1, 0));
    ear_vec3 right = ear_vec3_cross(fwd, up);
    if (!(ear_vec3_length(right) > 1e-6f)) {
        /* forward parallel to up: pick any up perpendicular to forward. */
        ear_vec3 alt = fabsf(fwd.y) < 0.9f ? ear_vec3_make(0, 1, 0) : ear_vec3_make(0, 0, 1);
        right = ear_vec3_cross(fwd, alt);
    }
    right = ear_vec3_normalize_or(right, ear_vec3_make(1, 0, 0));
    ears->right = right;
    ears->forward = fwd;
    ears->up = ear_vec3_cross(right, fwd);
    ears->position = listener->position;
    ears->velocity = listener->velocity;
}

float ear__lowpass_G(float cutoff_hz, float sample_rate) {
    if (cutoff_hz >= 0.499f * sample_rate) return 1.0f;
    float g = ear__tanf((float)EAR__PI * cutoff_hz / sample_rate);
    return g / (1.0f + g);
}

void ear__spatial_coarse(const ear__ears *ears, const ear__voice *voice, float speed_of_sound,
                         float doppler_scale, ear__spatial *sp) {
    /* Direction in double: huge but finite coordinates must not overflow to NaN. */
    double dx = (double)voice->position.x - ears->position.x,
           dy = (double)voice->position.y - ears->position.y,
           dz = (double)voice->position.z - ears->position.z;
    double dd = sqrt(dx * dx + dy * dy + dz * dz);
    float dist = (float)dd; /* may be +inf: the distance models clamp it to max */
    sp->lx = sp->ly = sp->lz = 0.0f;
    sp->doppler = 1.0f;
    float gain = ear__distance_gain(&voice->att, dist);
    if (dd > 1e-4) {
        double inv = 1.0 / dd;
        ear_vec3 u = {(float)(dx * inv), (float)(dy * inv), (float)(dz * inv)};
        sp->lx = ear_vec3_dot(u, ears->right);
        sp->ly = ear_vec3_dot(u, ears->forward);
        sp->lz = ear_vec3_dot(u, ears->up);
        ear_vec3 to_listener = ear_vec3_scale(u, -1.0f);
        if (voice->cone.outer_angle_rad > 0.0f)
            gain *= ear__cone_gain(&voice->cone, voice->forward, to_listener);
        float f = voice->doppler_factor * doppler_scale;
        if (voice->doppler_on && f > 0.0f) {
            /* OpenAL's formula on radial speeds along the source -> listener direction,
             * each limited to just below c / f (ear__doppler, without a second sqrt). */
            float vls = ear_vec3_dot(to_listener, ears->velocity);
            float vss = ear_vec3_dot(to_listener, voice->velocity);
            float limit = speed_of_sound / f * 0.999f;
            vls = clampf(vls, -limit, limit);
            vss = clampf(vss, -limit, limit);
            sp->doppler = (speed_of_sound - f * vls) / (speed_of_sound - f * vss);
        }
    }
    sp->distance_gain = gain;
}

void ear__spatial_fine(const ear__voice *voice, float sample_rate, ear__spatial *sp) {
    float lx = sp->lx, ly = sp->ly, lz = sp->lz;
    float gain = 1.0f, filter = 0.0f;
    if (voice->behind_cue) {
        float behind = ly < 0.0f ? -ly : 0.0f;
        float below = lz < 0.0f ? -lz : 0.0f;
        gain = (1.0f - EAR__BEHIND_GAIN * behind) *
               (1.0f - EAR__BELOW_GAIN * below * (1.0f - behind));
        filter = behind > EAR__BELOW_FILTER * below ? behind : EAR__BELOW_FILTER * below;
    }
    sp->cue_filter = filter;

    /* Equal-power pan: theta = (pan + 1) pi / 4 from 0 (left) to pi/2 (right). With
     * u = theta - pi / 4 = pan pi / 4, cos theta = (cos u - sin u) / sqrt 2 and
     * sin theta = (cos u + sin u) / sqrt 2; |u| <= pi / 4, where the Taylor series below
     * are within 2e-9 (far below float precision), in place of two libm calls. */
    float pan = clampf(EAR__PAN_SPREAD * lx, -1.0f, 1.0f);
    double u = (double)pan * (EAR__PI / 4.0), u2 = u * u;
    double su =
        u * (1.0 + u2 * (-1.0 / 6.0 +
                         u2 * (1.0 / 120.0 + u2 * (-1.0 / 5040.0 + u2 * (1.0 / 362880.0)))));
    double cu =
        1.0 +
        u2 * (-0.5 + u2 * (1.0 / 24.0 + u2 * (-1.0 / 720.0 +
                                              u2 * (1.0 / 40320.0 - u2 * (1.0 / 3628800.0)))));
    const double r2 = 0.70710678118654752440;
    sp->gain_l = gain * (float)((cu - su) * r2);
    sp->gain_r = gain * (float)((cu + su) * r2);

    /* The far ear hears the sound later, up to 0.66 ms for a source at the side. */
    float itd = EAR__ITD_S * sample_rate * fabsf(lx);
    sp->delay_l = lx > 0.0f ? itd : 0.0f;
    sp->delay_r = lx < 0.0f ? itd : 0.0f;
}
