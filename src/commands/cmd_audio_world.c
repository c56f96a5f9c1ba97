/* SPDX-License-Identifier: Zlib */
/*
 * The audio world of the command tool: a world document's per-body "source", "impact",
 * "listener" and "vehicle_sound" objects (docs/modules/world.md) become components of an
 * ear_world over the registry's stage, assets and physics world; world.load builds it (a bad
 * object fails the load and changes nothing), world.step and audio.render_offline {"scene":
 * true} sync it.
 *
 * The document's top level adds "zones" (reverb zones: name, min, max, a preset and/or
 * the room's fields, priority, transition) and "follow" (the name of the body the ear rides).
 *
 * Every key is checked like the physics parser's: an unknown key, a wrong type or a value
 * out of range is an E_BAD_PARAM whose where is the JSON path of the field
 * ("params.world.bodies[2].source.volume", "params.world.zones[1].max").
 */
#include "commands_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI_F 3.14159265358979f

typedef struct doc_parse {
    const char *prefix; /* "params.world" or the file's path */
    json_t *err;
} doc_parse;

static bool fail(doc_parse *p, const char *where, const char *expected) {
    char full[320];
    snprintf(full, sizeof full, "%s.%s", p->prefix, where);
    p->err = ear_command_error("E_BAD_PARAM", full, "%s: expected %s", full, expected);
    if (p->err) json_object_set_new(p->err, "expected", json_string(expected));
    return false;
}

static bool keys_known(doc_parse *p, const json_t *obj, const char *where,
                       const char *const *known) {
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        bool ok = false;
        for (const char *const *k = known; *k; k++) ok = ok || strcmp(*k, key) == 0;
        if (ok) continue;
        char at[256], expected[512] = "one of";
        snprintf(at, sizeof at, "%s.%s", where, key);
        for (const char *const *k = known; *k; k++) {
            strncat(expected, " ", sizeof expected - strlen(expected) - 1);
            strncat(expected, *k, sizeof expected - strlen(expected) - 1);
        }
        char full[320];
        snprintf(full, sizeof full, "%s.%s", p->prefix, at);
        p->err = ear_command_error("E_BAD_PARAM", full, "%s: unknown key (expected %s)", full,
                                   expected + 7);
        return false;
    }
    return true;
}

/* The number at obj[key] into *out, checked against [lo, hi]; absent keeps *out. */
static bool num(doc_parse *p, const json_t *obj, const char *where, const char *key, double lo,
                double hi, float *out) {
    const json_t *v = json_object_get(obj, key);
    if (!v) return true;
    char at[256], expected[96];
    snprintf(at, sizeof at, "%s.%s", where, key);
    snprintf(expected, sizeof expected, "a number in %g..%g", lo, hi);
    if (!json_is_number(v)) return fail(p, at, expected);
    double x = json_number_value(v);
    if (!(x >= lo && x <= hi)) return fail(p, at, expected);
    *out = (float)x;
    return true;
}

static bool flag(doc_parse *p, const json_t *obj, const char *where, const char *key,
                 bool *out) {
    const json_t *v = json_object_get(obj, key);
    if (!v) return true;
    char at[256];
    snprintf(at, sizeof at, "%s.%s", where, key);
    if (!json_is_boolean(v)) return fail(p, at, "true or false");
    *out = json_is_true(v);
    return true;
}

static bool text(doc_parse *p, const json_t *obj, const char *where, const char *key, char *out,
                 size_t cap) {
    const json_t *v = json_object_get(obj, key);
    if (!v) return true;
    char at[256], expected[64];
    snprintf(at, sizeof at, "%s.%s", where, key);
    snprintf(expected, sizeof expected, "a string of 1..%zu bytes", cap - 1);
    if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= cap ||
        strlen(json_string_value(v)) != json_string_length(v))
        return fail(p, at, expected);
    memcpy(out, json_string_value(v), json_string_length(v) + 1);
    return true;
}

static bool bus(doc_parse *p, const json_t *obj, const char *where, ear_bus *out) {
    const json_t *v = json_object_get(obj, "bus");
    if (!v) return true;
    char at[256];
    snprintf(at, sizeof at, "%s.bus", where);
    if (!json_is_string(v) || ear_bus_from_name(json_string_value(v), out) != EAR_OK)
        return fail(p, at, "one of sfx, master, music, ui, engine, ambience");
    return true;
}

static bool attenuation(doc_parse *p, const json_t *obj, const char *where,
                        ear_attenuation *a) {
    const json_t *m = json_object_get(obj, "model");
    if (m) {
        static const char *const names[] = {"inverse", "linear", "exponential", "none", "fade"};
        static const ear_distance_model models[] = {EAR_MODEL_INVERSE, EAR_MODEL_LINEAR,
                                                    EAR_MODEL_EXPONENTIAL, EAR_MODEL_NONE,
                                                    EAR_MODEL_FADE};
        bool ok = false;
        for (size_t i = 0; i < 5 && json_is_string(m); i++)
            if (strcmp(json_string_value(m), names[i]) == 0) a->model = models[i], ok = true;
        char at[256];
        snprintf(at, sizeof at, "%s.model", where);
        if (!ok) return fail(p, at, "one of inverse, linear, exponential, none, fade");
    }
    return num(p, obj, where, "min_distance", 0.001, 1e6, &a->ref_distance_m) &&
           num(p, obj, where, "max_distance", 0.001, 1e6, &a->max_distance_m) &&
           num(p, obj, where, "rolloff", 0, 100, &a->rolloff);
}

static const char *const source_keys[] = {"sound",
                                          "blend",
                                          "bus",
                                          "volume",
                                          "pitch",
                                          "looping",
                                          "play",
                                          "random_start",
                                          "spatial",
                                          "model",
                                          "min_distance",
                                          "max_distance",
                                          "rolloff",
                                          "cone",
                                          "doppler",
                                          "priority",
                                          "occlusion",
                                          "smoothing_ms",
                                          "loop_crossfade_ms",
                                          "params",
                                          "drive",
                                          "reverb_send",
                                          NULL};

static bool parse_source(doc_parse *p, const json_t *o, const char *where, ear_source *s) {
    *s = ear_source_default();
    if (!json_is_object(o)) return fail(p, where, "an object describing a source");
    if (!keys_known(p, o, where, source_keys)) return false;
    float priority = 0;
    if (!text(p, o, where, "sound", s->sound, sizeof s->sound) ||
        !text(p, o, where, "blend", s->blend, sizeof s->blend) || !bus(p, o, where, &s->bus) ||
        !num(p, o, where, "volume", 0, 1000, &s->volume) ||
        !num(p, o, where, "pitch", 1.0 / 256, 256, &s->pitch) ||
        !flag(p, o, where, "looping", &s->looping) || !flag(p, o, where, "play", &s->play) ||
        !flag(p, o, where, "random_start", &s->random_start) ||
        !flag(p, o, where, "spatial", &s->spatial) ||
        !attenuation(p, o, where, &s->attenuation) ||
        !num(p, o, where, "doppler", 0, 100, &s->doppler) ||
        !num(p, o, where, "priority", 0, 255, &priority) ||
        !flag(p, o, where, "occlusion", &s->occlusion) ||
        !num(p, o, where, "smoothing_ms", 0, 10000, &s->smoothing_ms) ||
        !num(p, o, where, "loop_crossfade_ms", 0, 60000, &s->loop_crossfade_ms) ||
        !num(p, o, where, "reverb_send", 0, 1, &s->reverb_send))
        return false;
    s->priority = (uint8_t)priority;
    if (!s->sound[0] && !s->blend[0]) {
        char at[256];
        snprintf(at, sizeof at, "%s.sound", where);
        return fail(p, at, "a sound or a blend name (one of the two is required)");
    }
    const json_t *cone = json_object_get(o, "cone");
    if (cone) {
        char at[256];
        snprintf(at, sizeof at, "%s.cone", where);
        static const char *const cone_keys[] = {"inner", "outer", "outer_gain", NULL};
        if (!json_is_object(cone))
            return fail(p, at, "an object {inner, outer (degrees), outer_gain}");
        float inner = 0, outer = 0;
        if (!keys_known(p, cone, at, cone_keys) || !num(p, cone, at, "inner", 0, 360, &inner) ||
            !num(p, cone, at, "outer", 0, 360, &outer) ||
            !num(p, cone, at, "outer_gain", 0, 1, &s->cone.outer_gain))
            return false;
        s->cone.inner_angle_rad = inner * PI_F / 180.0f;
        s->cone.outer_angle_rad = outer * PI_F / 180.0f;
    }
    const json_t *params = json_object_get(o, "params");
    if (params) {
        char at[256];
        snprintf(at, sizeof at, "%s.params", where);
        if (!json_is_object(params) || json_object_size(params) > EAR_BLEND_MAX_PARAMS)
            return fail(p, at, "an object of at most 8 parameters {name: number}");
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)params, key, v) {
            char item[320];
            snprintf(item, sizeof item, "%s.%s", at, key);
            if (strlen(key) == 0 || strlen(key) >= EAR_NAME_MAX)
                return fail(p, item, "a parameter name of 1..31 bytes");
            if (!json_is_number(v) || !isfinite(json_number_value(v)))
                return fail(p, item, "a number");
            ear_param_value *pv = &s->params[s->param_count++];
            snprintf(pv->name, sizeof pv->name, "%s", key);
            pv->value = (float)json_number_value(v);
        }
    }
    const json_t *drive = json_object_get(o, "drive");
    if (drive) {
        char at[256];
        snprintf(at, sizeof at, "%s.drive", where);
        if (!json_is_array(drive) || json_array_size(drive) > EAR_WORLD_MAX_DRIVES)
            return fail(p, at, "an array of at most 8 {param, from, scale, offset}");
        static const char *const drive_keys[] = {"param", "from", "scale", "offset", NULL};
        size_t i;
        json_t *d;
        json_array_foreach(drive, i, d) {
            char item[280];
            snprintf(item, sizeof item, "%s[%zu]", at, i);
            if (!json_is_object(d))
                return fail(p, item, "an object {param, from, scale, offset}");
            ear_drive *b = &s->drive[s->drive_count++];
            *b = ear_drive_default("", "");
            if (!keys_known(p, d, item, drive_keys) ||
                !text(p, d, item, "param", b->param, sizeof b->param) ||
                !text(p, d, item, "from", b->from, sizeof b->from) ||
                !num(p, d, item, "scale", -1e9, 1e9, &b->scale) ||
                !num(p, d, item, "offset", -1e9, 1e9, &b->offset))
                return false;
            if (!b->param[0] || !b->from[0]) {
                char miss[300];
                snprintf(miss, sizeof miss, "%s.%s", item, b->param[0] ? "from" : "param");
                return fail(p, miss, "a string (param and from are required)");
            }
        }
    }
    return true;
}

static const char *const impact_keys[] = {
    "sound",       "pool",     "bus",   "min_speed",    "full_speed",
    "volume",      "cooldown", "model", "min_distance", "max_distance",
    "rolloff",     "priority", "duck",  "duck_hold",    "duck_min_speed",
    "reverb_send", NULL};

static bool parse_impact(doc_parse *p, const json_t *o, const char *where, ear_impact *im) {
    *im = ear_impact_default();
    if (!json_is_object(o)) return fail(p, where, "an object describing an impact sound");
    float priority = 0;
    if (!keys_known(p, o, where, impact_keys) ||
        !text(p, o, where, "sound", im->sound, sizeof im->sound) ||
        !text(p, o, where, "pool", im->pool, sizeof im->pool) || !bus(p, o, where, &im->bus) ||
        !num(p, o, where, "min_speed", 0, 1000, &im->min_speed_mps) ||
        !num(p, o, where, "full_speed", 0, 1000, &im->full_speed_mps) ||
        !num(p, o, where, "volume", 0, 1000, &im->volume) ||
        !num(p, o, where, "cooldown", 0, 60, &im->cooldown_s) ||
        !attenuation(p, o, where, &im->attenuation) ||
        !num(p, o, where, "priority", 0, 255, &priority) ||
        !text(p, o, where, "duck", im->duck, sizeof im->duck) ||
        !num(p, o, where, "duck_hold", 0, 60, &im->duck_hold_s) ||
        !num(p, o, where, "duck_min_speed", 0, 1000, &im->duck_min_speed_mps) ||
        !num(p, o, where, "reverb_send", 0, 1, &im->reverb_send))
        return false;
    im->priority = (uint8_t)priority;
    if (!im->sound[0] && !im->pool[0]) {
        char at[256];
        snprintf(at, sizeof at, "%s.sound", where);
        return fail(p, at, "a sound or a pool name (one of the two is required)");
    }
    if (!(im->full_speed_mps > im->min_speed_mps)) {
        char at[256];
        snprintf(at, sizeof at, "%s.full_speed", where);
        return fail(p, at, "a speed above min_speed");
    }
    return true;
}

static bool parse_listener(doc_parse *p, const json_t *o, const char *where,
                           ear_listener_component *l) {
    *l = ear_listener_component_default();
    static const char *const keys[] = {"enabled", "volume", NULL};
    if (!json_is_object(o)) return fail(p, where, "an object {enabled, volume}");
    return keys_known(p, o, where, keys) && flag(p, o, where, "enabled", &l->enabled) &&
           num(p, o, where, "volume", 0, 1000, &l->volume);
}

static const char *const vehicle_sound_keys[] = {
    "engine",     "blend",        "rpm_param",        "load_param",
    "idle_pitch", "max_pitch",    "volume",           "bus",
    "model",      "min_distance", "max_distance",     "rolloff",
    "shift",      "crash",        "crash_full_speed", NULL};

static bool parse_vehicle_sound(doc_parse *p, const json_t *o, const char *where,
                                ear_vehicle_sound *v) {
    *v = ear_vehicle_sound_default();
    if (!json_is_object(o)) return fail(p, where, "an object describing a vehicle's sounds");
    if (!keys_known(p, o, where, vehicle_sound_keys) ||
        !text(p, o, where, "engine", v->engine, sizeof v->engine) ||
        !text(p, o, where, "blend", v->blend, sizeof v->blend) ||
        !text(p, o, where, "rpm_param", v->rpm_param, sizeof v->rpm_param) ||
        !text(p, o, where, "load_param", v->load_param, sizeof v->load_param) ||
        !num(p, o, where, "idle_pitch", 1.0 / 256, 256, &v->idle_pitch) ||
        !num(p, o, where, "max_pitch", 1.0 / 256, 256, &v->max_pitch) ||
        !num(p, o, where, "volume", 0, 1000, &v->volume) || !bus(p, o, where, &v->bus) ||
        !attenuation(p, o, where, &v->attenuation) ||
        !text(p, o, where, "shift", v->shift, sizeof v->shift) ||
        !text(p, o, where, "crash", v->crash, sizeof v->crash) ||
        !num(p, o, where, "crash_full_speed", 0.5, 1000, &v->crash_full_speed_mps))
        return false;
    return true;
}

/* [x, y, z] at obj[key] (required), finite, each within +-1e6 m. */
static bool box_corner(doc_parse *p, const json_t *obj, const char *where, const char *key,
                       ear_vec3 *out) {
    const json_t *v = json_object_get(obj, key);
    char at[256];
    snprintf(at, sizeof at, "%s.%s", where, key);
    float c[3];
    if (!json_is_array(v) || json_array_size(v) != 3)
        return fail(p, at, "[x, y, z] in metres (a zone needs min and max)");
    for (size_t k = 0; k < 3; k++) {
        const json_t *x = json_array_get(v, k);
        double d = json_is_number(x) ? json_number_value(x) : NAN;
        if (!(d >= -1e6 && d <= 1e6)) {
            snprintf(at, sizeof at, "%s.%s[%zu]", where, key, k);
            return fail(p, at, "a number in -1e+06..1e+06 (metres)");
        }
        c[k] = (float)d;
    }
    *out = (ear_vec3){c[0], c[1], c[2]};
    return true;
}

static const char *const zone_keys[] = {
    "name",        "min",          "max",         "preset",     "rt60_low_s",
    "rt60_high_s", "crossover_hz", "predelay_ms", "size",       "density",
    "damping",     "wet",          "priority",    "transition", NULL};

/* One reverb zone: the preset (default "room"), then the room's own fields over it, each
 * checked against ear_reverb_params' range (the first bad one is named). */
static bool parse_zone(doc_parse *p, const json_t *o, const char *where, ear_reverb_zone *z) {
    if (!json_is_object(o))
        return fail(p, where,
                    "an object describing a reverb zone {name, min, max, preset ...}");
    *z = ear_reverb_zone_default("");
    if (!keys_known(p, o, where, zone_keys)) return false;
    char at[256];
    snprintf(at, sizeof at, "%s.name", where);
    if (!json_object_get(o, "name")) return fail(p, at, "the zone's name (a string)");
    if (!text(p, o, where, "name", z->name, sizeof z->name) ||
        !box_corner(p, o, where, "min", &z->min_m) ||
        !box_corner(p, o, where, "max", &z->max_m))
        return false;
    if (z->min_m.x > z->max_m.x || z->min_m.y > z->max_m.y || z->min_m.z > z->max_m.z) {
        snprintf(at, sizeof at, "%s.max", where);
        return fail(p, at, "max >= min on every axis");
    }
    const json_t *pr = json_object_get(o, "preset");
    if (pr) {
        ear_reverb_preset preset;
        snprintf(at, sizeof at, "%s.preset", where);
        if (!json_is_string(pr) ||
            ear_reverb_preset_from_name(json_string_value(pr), &preset) != EAR_OK)
            return fail(p, at, "one of room, hall, cave, corridor, outdoors");
        ear_reverb_preset_params(preset, &z->room);
    }
    float prio = 0;
    if (!num(p, o, where, "rt60_low_s", 0.1, 30, &z->room.rt60_low_s) ||
        !num(p, o, where, "rt60_high_s", 0.1, 30, &z->room.rt60_high_s) ||
        !num(p, o, where, "crossover_hz", 50, 10000, &z->room.crossover_hz) ||
        !num(p, o, where, "predelay_ms", 0, 200, &z->room.predelay_ms) ||
        !num(p, o, where, "size", 0.25, 3, &z->room.size) ||
        !num(p, o, where, "density", 0, 1, &z->room.density) ||
        !num(p, o, where, "damping", 0, 1, &z->room.damping) ||
        !num(p, o, where, "wet", 0, 4, &z->room.wet) ||
        !num(p, o, where, "priority", -1000000, 1000000, &prio) ||
        !num(p, o, where, "transition", 0, 60, &z->transition_s))
        return false;
    if (prio != floorf(prio)) {
        snprintf(at, sizeof at, "%s.priority", where);
        return fail(p, at, "a whole number in -1e+06..1e+06");
    }
    z->priority = (int32_t)prio;
    if (z->transition_s == 0.0f) z->transition_s = 1.0f; /* the zone's default */
    const char *bad_field = NULL;
    if (ear_reverb_params_check(&z->room, &bad_field) != EAR_OK) {
        snprintf(at, sizeof at, "%s.%s", where, bad_field ? bad_field : "preset");
        return fail(p, at,
                    "a room within the reverb's ranges (docs/stage.md, \"Room reverb\")");
    }
    return true;
}

/* The document's "zones" (an array, at most EAR_WORLD_MAX_ZONES, names used once) and
 * "follow" (a body's name). */
static bool parse_top(doc_parse *p, const json_t *doc, ear_physics *physics, ear_world *w) {
    const json_t *zones = json_object_get(doc, "zones");
    if (zones && !json_is_array(zones)) return fail(p, "zones", "an array of reverb zones");
    size_t n = zones ? json_array_size(zones) : 0;
    for (size_t i = 0; i < n; i++) {
        char where[64];
        snprintf(where, sizeof where, "zones[%zu]", i);
        if (i >= EAR_WORLD_MAX_ZONES) return fail(p, where, "at most 64 zones");
        ear_reverb_zone z;
        if (!parse_zone(p, json_array_get(zones, i), where, &z)) return false;
        for (size_t j = 0; j < i; j++) {
            ear_reverb_zone other;
            if (ear_world_reverb_zone_at(w, j, &other) && strcmp(other.name, z.name) == 0) {
                char at[96], expected[160];
                snprintf(at, sizeof at, "%s.name", where);
                snprintf(expected, sizeof expected,
                         "a name not already used (\"%s\" is zones[%zu]'s)", z.name, j);
                return fail(p, at, expected);
            }
        }
        if (ear_world_set_reverb_zone(w, &z) != EAR_OK) return fail(p, where, "a valid zone");
    }
    const json_t *follow = json_object_get(doc, "follow");
    if (follow) {
        const char *name = json_string_value(follow);
        ear_body_id id = name ? ear_physics_find(physics, name) : EAR_BODY_NONE;
        if (!name || id == EAR_BODY_NONE) {
            char expected[200];
            snprintf(expected, sizeof expected,
                     "the name of one of the document's bodies%s%.80s%s",
                     name ? " (none is named \"" : "", name ? name : "", name ? "\")" : "");
            return fail(p, "follow", expected);
        }
        if (ear_world_follow(w, id) != EAR_OK) return fail(p, "follow", "a body to follow");
    }
    return true;
}

json_t *ear__cmd_audio_world_build(ear_commands *c, const json_t *doc, ear_physics *physics,
                                   const char *prefix, ear_world **out) {
    *out = NULL;
    doc_parse p = {.prefix = prefix, .err = NULL};
    ear_world_config wc = ear_world_config_default();
    wc.stage = c->stage;
    wc.assets = c->assets;
    wc.physics = physics;
    wc.seed = c->seed;
    ear_world *w = NULL;
    ear_result r = ear_world_create(&wc, &w);
    if (r != EAR_OK) return ear__cmd_result_error(r, prefix, NULL);
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(doc, "bodies"), i, b) {
        const json_t *src = json_object_get(b, "source"), *imp = json_object_get(b, "impact"),
                     *lis = json_object_get(b, "listener"),
                     *veh = json_object_get(b, "vehicle_sound");
        if (!src && !imp && !lis && !veh) continue;
        const char *name = json_string_value(json_object_get(b, "name"));
        ear_body_id id = name ? ear_physics_find(physics, name) : EAR_BODY_NONE;
        char where[64];
        bool ok = true;
        if (src) {
            ear_source s;
            snprintf(where, sizeof where, "bodies[%zu].source", i);
            ok = parse_source(&p, src, where, &s) &&
                 (ear_world_set_source(w, id, &s) == EAR_OK ||
                  fail(&p, where, "a valid source"));
        }
        if (ok && imp) {
            ear_impact im;
            snprintf(where, sizeof where, "bodies[%zu].impact", i);
            ok = parse_impact(&p, imp, where, &im) &&
                 (ear_world_set_impact(w, id, &im) == EAR_OK ||
                  fail(&p, where, "a valid impact"));
        }
        if (ok && lis) {
            ear_listener_component l;
            snprintf(where, sizeof where, "bodies[%zu].listener", i);
            ok = parse_listener(&p, lis, where, &l) &&
                 (ear_world_set_listener(w, id, &l) == EAR_OK ||
                  fail(&p, where, "a valid listener"));
        }
        if (ok && veh) {
            ear_vehicle_sound vs;
            snprintf(where, sizeof where, "bodies[%zu].vehicle_sound", i);
            ok = parse_vehicle_sound(&p, veh, where, &vs) &&
                 (ear_body_is_vehicle(physics, id) ||
                  fail(&p, where, "a body with a vehicle (this one has none)")) &&
                 (ear_world_set_vehicle_sound(w, id, &vs) == EAR_OK ||
                  fail(&p, where, "valid vehicle sounds"));
        }
        if (!ok) {
            ear_world_destroy(w);
            return p.err;
        }
    }
    if (!parse_top(&p, doc, physics, w)) {
        ear_world_destroy(w);
        return p.err;
    }
    *out = w;
    return NULL;
}

void ear__cmd_audio_world_forget(ear_commands *c) {
    ear_world_destroy(c->audio_world);
    c->audio_world = NULL;
}

void ear__cmd_audio_world_sync(ear_commands *c, double dt_s) {
    if (!c->audio_world) return;
    ear_world_note_step(c->audio_world);
    ear_world_sync(c->audio_world, dt_s);
}
