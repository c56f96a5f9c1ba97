/* SPDX-License-Identifier: Zlib */
/*
 * The physics world of the command tool: world.load, world.status, world.step, world.get,
 * world.set, world.move, world.ray, world.describe and world.path.
 *
 * The registry holds one world document (c->world: the physics world, its level and step
 * rate). Before any world.load it is an empty world with the default gravity at 60 Hz,
 * made on first use. world.load builds the new world completely before it replaces the
 * old one, so a bad document changes nothing. Bodies are named in commands and results by
 * their names (unique within a document; a level's walls are "wall:<row>:<column>").
 */
#define _POSIX_C_SOURCE 200809L
#include "commands_internal.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DOCUMENT_BYTES EAR_FILE_MAX_DOCUMENT_BYTES /* 16 MiB: core.md */

/* Per-body and top-level keys of world documents that other commands read from the same
 * document; the physics parser tolerates them. The audio world adds its keys here. */
static const char *const doc_extra_keys[] = {"zones", "follow", NULL};
static const char *const doc_extra_body_keys[] = {"source", "impact", "listener",
                                                  "vehicle_sound", NULL};

/* A float as the shortest decimal that reads back as the same float (9.81, not
 * 9.81000042). */
static double clean(float x) {
    char text[32];
    snprintf(text, sizeof text, "%.9g", (double)x);
    for (int digits = 6; digits < 9; digits++) {
        char shorter[32];
        snprintf(shorter, sizeof shorter, "%.*g", digits, (double)x);
        if ((float)strtod(shorter, NULL) == x) return strtod(shorter, NULL);
    }
    return strtod(text, NULL);
}

static json_t *num_json(float x) {
    return json_real(clean(x));
}

static json_t *vec_json(ear_vec3 v) {
    return json_pack("[f, f, f]", clean(v.x), clean(v.y), clean(v.z));
}

/* A body's name, or JSON null for none or a removed body. */
static json_t *name_json(const ear_commands *c, ear_body_id id) {
    const char *name = id == EAR_BODY_NONE ? NULL : ear_body_name(c->world.world, id);
    return name ? json_string(name) : json_null();
}

static ear_result ensure_world(ear_commands *c) {
    if (c->world.world) return EAR_OK;
    ear_physics *world = NULL;
    /* The world's memory counts in the session's budget. */
    ear_physics_config pc = ear_physics_config_default();
    pc.allocator = ear__cmd_alloc(c, EAR__PART_WORLD);
    ear_result r = ear_physics_create(&pc, &world);
    if (r != EAR_OK) return r;
    memset(&c->world, 0, sizeof c->world);
    c->world.world = world;
    c->world.step_hz = 60;
    return EAR_OK;
}

void ear__cmd_world_forget(ear_commands *c) {
    ear_level_doc_unload(&c->world);
}

/* The body named params[key], or EAR_BODY_NONE with *err set. */
static ear_body_id find_body(ear_commands *c, const json_t *params, const char *key,
                             json_t **err) {
    const char *name = ear__str(params, key);
    ear_body_id id = name ? ear_physics_find(c->world.world, name) : EAR_BODY_NONE;
    if (id == EAR_BODY_NONE) {
        char where[64];
        snprintf(where, sizeof where, "params.%s", key);
        *err = ear_command_error("E_NOT_FOUND", where, "%s: no body is named \"%.100s\"", where,
                                 name ? name : "");
        if (*err) json_object_set_new(*err, "name", json_string(name ? name : ""));
    }
    return id;
}

static json_t *level_json(const ear_level *level) {
    if (!level) return json_null();
    ear_level_config lc = ear_level_config_of(level);
    json_t *tiles = json_object();
    for (size_t i = 0; i < ear_level_tile_kinds(level); i++) {
        uint32_t ch;
        size_t count;
        ear_level_tile_kind(level, i, &ch, &count);
        char key[8] = {0}; /* the character as UTF-8 */
        ear_utf8_encode(ch, key);
        json_object_set_new(tiles, key, json_integer((json_int_t)count));
    }
    return json_pack("{s:i, s:i, s:f, s:f, s:o, s:i, s:o}", "rows",
                     (json_int_t)ear_level_rows(level), "columns",
                     (json_int_t)ear_level_columns(level), "cell", clean(lc.cell_m), "height",
                     clean(lc.wall_height_m), "origin", vec_json(lc.origin), "walls",
                     (json_int_t)ear_level_wall_count(level), "tiles", tiles);
}

static json_t *status_json(const ear_commands *c) {
    const ear_physics *w = c->world.world;
    ear_physics_config pc = ear_physics_get_config(w);
    return json_pack("{s:i, s:f, s:I, s:f, s:o, s:o}", "bodies",
                     (json_int_t)ear_physics_body_count(w), "time_s", ear_physics_time_s(w),
                     "steps", (json_int_t)ear_physics_steps(w), "step_hz",
                     clean(c->world.step_hz), "gravity", vec_json(pc.gravity_mps2), "level",
                     level_json(c->world.level));
}

/* ---- world.load ------------------------------------------------------------------------ */

json_t *ear__cmd_world_load(ear_commands *c, json_t *params, json_t **err) {
    const json_t *doc = json_object_get(params, "world");
    const char *path = ear__str(params, "path");
    char *text = NULL, resolved[4096];
    size_t size = 0;
    if (doc) {
        text = json_dumps(doc, JSON_COMPACT);
        if (!text) return NULL;
        size = strlen(text);
    } else {
        if ((*err = ear__cmd_path(c, path, false, "params.path", resolved, sizeof resolved)))
            return NULL;
        /* A regular file of at most MAX_DOCUMENT_BYTES, checked on the open descriptor
         * (core.md): a FIFO is refused, never waited on. The message names the path as
         * the client gave it, never the server's folder. */
        char why[EAR_ERROR_TEXT_MAX];
        ear_result r =
            ear_file_read(resolved, MAX_DOCUMENT_BYTES, NULL, &text, &size, why, sizeof why);
        if (r != EAR_OK) {
            const char *reason = ear_file_reason(why, resolved);
            if (r == EAR_E_NOT_FOUND) {
                *err = ear_command_error("E_NOT_FOUND", "params.path",
                                         "params.path: no such file: %.300s", path);
                if (*err) json_object_set_new(*err, "name", json_string(path));
            } else if (r == EAR_E_IO || r == EAR_E_FORMAT) {
                *err = ear_command_error("E_BAD_PARAM", "params.path",
                                         "params.path: %.300s: %.300s", path, reason);
                if (*err) json_object_set_new(*err, "expected", json_string("a JSON file"));
            } else {
                *err = ear__cmd_result_error(r, "params.path", path);
            }
            return NULL;
        }
    }
    /* The document is parsed twice, one parse after the other (the physics world, then
     * the audio world's objects): one parse's measured cost counts in the budget while
     * they run, and a document whose parse has no room is refused before either. */
    ear_json_cost cost = ear_json_measure(text, size);
    char what[96];
    snprintf(what, sizeof what, "parsing the world document's %llu JSON values",
             (unsigned long long)cost.values);
    if ((*err = ear__cmd_charge(c, doc ? "params.world" : "params.path", what, cost.bytes))) {
        free(text);
        return NULL;
    }
    ear_level_doc_options options = ear_level_doc_options_default();
    options.extra_keys = doc_extra_keys;
    options.extra_body_keys = doc_extra_body_keys;
    options.allocator = ear__cmd_alloc(c, EAR__PART_WORLD);
    ear_level_doc loaded;
    ear_level_doc_error de;
    ear_result r = ear_level_doc_load(text, size, &options, &loaded, &de);
    /* The audio world reads the same document's per-body sound objects. */
    json_t *parsed = r == EAR_OK ? json_loadb(text, size, 0, NULL) : NULL;
    free(text);
    if (!parsed) ear__cmd_uncharge(c, cost.bytes);
    if (r != EAR_OK) {
        if (r == EAR_E_OUT_OF_MEMORY) return NULL;
        char where[240];
        if (doc)
            snprintf(where, sizeof where, "params.world%s%s", de.where[0] ? "." : "", de.where);
        else
            snprintf(where, sizeof where, "params.path");
        if (doc)
            *err = ear_command_error("E_BAD_PARAM", where, "params.world.%s", de.message);
        else
            *err = ear_command_error("E_BAD_PARAM", where, "%.300s: %s", path, de.message);
        if (*err) json_object_set_new(*err, "field", json_string(de.where));
        return NULL;
    }
    ear_world *audio = NULL;
    if (parsed) {
        char prefix[4200];
        snprintf(prefix, sizeof prefix, "%s", doc ? "params.world" : path);
        *err = ear__cmd_audio_world_build(c, parsed, loaded.world, prefix, &audio);
        json_decref(parsed);
        ear__cmd_uncharge(c, cost.bytes);
        if (*err) {
            ear_level_doc_unload(&loaded);
            return NULL;
        }
    }
    ear__cmd_audio_world_forget(c);
    c->audio_world = audio;
    c->audio_rays_seen = 0; /* a new audio world counts its rays from 0 */
    ear_level_doc_unload(&c->world);
    c->world = loaded;
    return json_pack("{s:i, s:i, s:f, s:o}", "bodies",
                     (json_int_t)ear_physics_body_count(c->world.world), "walls",
                     (json_int_t)c->world.wall_count, "step_hz", clean(c->world.step_hz),
                     "level", level_json(c->world.level));
}

/* ---- world.status, world.step ------------------------------------------------------------ */

json_t *ear__cmd_world_status(ear_commands *c, json_t *params, json_t **err) {
    (void)params;
    ear_result r = ensure_world(c);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "command", NULL);
        return NULL;
    }
    return status_json(c);
}

static json_t *event_json(const ear_commands *c, const ear_physics_event *e, double dt) {
    json_t *o = json_pack("{s:s, s:o, s:o, s:I, s:f}", "type", ear_physics_event_name(e->type),
                          "body", name_json(c, e->body), "other", name_json(c, e->other),
                          "step", (json_int_t)e->step, "time_s", (double)(e->step + 1) * dt);
    if (!o) return NULL;
    switch (e->type) {
    case EAR_PHYS_LANDED:
    case EAR_PHYS_COLLISION_STARTED:
    case EAR_PHYS_CRASHED:
        json_object_set_new(o, "speed", num_json(e->speed_mps));
        json_object_set_new(o, "normal", vec_json(e->normal));
        json_object_set_new(o, "point", vec_json(e->point_m));
        break;
    case EAR_PHYS_GEAR_CHANGED:
        json_object_set_new(o, "gear", json_integer(e->gear));
        json_object_set_new(o, "previous_gear", json_integer(e->previous_gear));
        break;
    default: break;
    }
    return o;
}

json_t *ear__cmd_world_step(ear_commands *c, json_t *params, json_t **err) {
    ear_result r = ensure_world(c);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "command", NULL);
        return NULL;
    }
    json_int_t steps = json_integer_value(json_object_get(params, "steps"));
    if (steps <= 0) steps = 1;
    /* The work budget first, from what the next step will cost: a crowd too costly to
     * step so often is refused before a step is taken. */
    uint64_t left = c->config.max_command_work > c->command_work
                        ? c->config.max_command_work - c->command_work
                        : 0;
    uint64_t estimate =
        ear_physics_estimate_step_work(c->world.world, left / (uint64_t)steps + 1);
    if ((*err = ear__cmd_work_admit(c, "params.steps", (uint64_t)steps, estimate + 1, 0)))
        return NULL;
    double dt = 1.0 / c->world.step_hz;
    /* Steps change the world: a step the budget refuses is not run again. */
    c->changed = true;
    ear_physics_clear_events(c->world.world);
    for (json_int_t i = 0; i < steps; i++) {
        r = ear_physics_step(c->world.world, (float)dt);
        if (r != EAR_OK) {
            *err = ear__cmd_result_error(r, "params.steps", NULL);
            return NULL;
        }
        ear__cmd_audio_world_sync(c, dt); /* the sounds follow each step */
        if (!ear__cmd_work_tick(c, "steps", 1, ear_physics_last_step_work(c->world.world) + 1,
                                0, (uint64_t)i + 1, (uint64_t)steps, err))
            return NULL;
    }
    size_t count = 0;
    const ear_physics_event *events = ear_physics_events(c->world.world, &count);
    json_t *list = json_array();
    for (size_t i = 0; i < count; i++)
        json_array_append_new(list, event_json(c, &events[i], dt));
    json_t *result =
        json_pack("{s:f, s:I, s:o, s:i}", "time_s", ear_physics_time_s(c->world.world), "steps",
                  (json_int_t)ear_physics_steps(c->world.world), "events", list, "dropped",
                  (json_int_t)ear_physics_events_dropped(c->world.world));
    return result;
}

/* ---- world.get, world.set, world.move -------------------------------------------------- */

static const char *const kinds[] = {"dynamic", "kinematic", "fixed"};

static json_t *body_json(const ear_commands *c, ear_body_id id) {
    ear_body_info info;
    if (ear_body_get(c->world.world, id, &info) != EAR_OK) return NULL;
    const ear_body_desc *d = &info.desc;
    json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:b, s:o, s:f, s:f, s:b, s:f, s:b}",
                          "body", d->name ? d->name : "", "kind", kinds[d->kind], "shape",
                          d->shape == EAR_SHAPE_BOX ? "box" : "sphere", "position",
                          vec_json(d->position_m), "velocity", vec_json(d->velocity_mps),
                          "force", vec_json(info.force_n), "on_ground", info.on_ground,
                          "ground", name_json(c, info.ground), "facing", clean(d->facing_deg),
                          "pitch", clean(d->pitch_deg), "sensor", d->sensor, "mass",
                          clean(d->mass_kg), "vehicle", d->vehicle != NULL);
    if (!o) return NULL;
    if (d->shape == EAR_SHAPE_BOX)
        json_object_set_new(o, "half_extents", vec_json(d->half_extents_m));
    else
        json_object_set_new(o, "radius", num_json(d->radius_m));
    ear_vehicle_state vs;
    if (d->vehicle && ear_vehicle_get_state(c->world.world, id, &vs) == EAR_OK) {
        json_object_set_new(o, "speed", num_json(vs.speed_mps));
        json_object_set_new(o, "rpm", num_json(vs.rpm));
        json_object_set_new(o, "gear", json_integer(vs.gear));
        json_object_set_new(o, "fuel", num_json(vs.fuel_l));
        json_object_set_new(o, "engine_on", json_boolean(vs.engine_on));
        json_object_set_new(o, "reversing", json_boolean(vs.reversing));
        json_object_set_new(o, "load", num_json(vs.load));
        json_object_set_new(o, "odometer", num_json(vs.odometer_m));
        json_object_set_new(o, "turn_rate", num_json(vs.turn_rate_dps));
        json_object_set_new(o, "controls",
                            json_pack("{s:f, s:f, s:f, s:b}", "gas", clean(vs.controls.gas),
                                      "brake", clean(vs.controls.brake), "steer",
                                      clean(vs.controls.steer), "handbrake",
                                      vs.controls.handbrake));
    }
    return o;
}

/* A body whose state is no longer a number (NaN or infinite: a step that ran away) is
 * contained: world.get and world.set answer E_STATE naming it, and world.set changes
 * nothing. NULL when the body is sound. */
static json_t *broken_body(const ear_commands *c, ear_body_id id) {
    ear_body_info info;
    if (ear_body_get(c->world.world, id, &info) != EAR_OK) return NULL;
    const ear_body_desc *d = &info.desc;
    if (ear_vec3_is_finite(d->position_m) && ear_vec3_is_finite(d->velocity_mps) &&
        ear_vec3_is_finite(info.force_n) && isfinite(d->facing_deg) && isfinite(d->pitch_deg))
        return NULL;
    json_t *e = ear_command_error(
        "E_STATE", "params.body",
        "params.body: the state of \"%.100s\" is not a number (NaN or "
        "infinite) after step %llu; load the world again",
        d->name ? d->name : "", (unsigned long long)ear_physics_steps(c->world.world));
    if (e) json_object_set_new(e, "name", json_string(d->name ? d->name : ""));
    return e;
}

json_t *ear__cmd_world_get(ear_commands *c, json_t *params, json_t **err) {
    if (ensure_world(c) != EAR_OK) return NULL;
    ear_body_id id = find_body(c, params, "body", err);
    if (id == EAR_BODY_NONE || (*err = broken_body(c, id))) return NULL;
    return body_json(c, id);
}

json_t *ear__cmd_world_set(ear_commands *c, json_t *params, json_t **err) {
    if (ensure_world(c) != EAR_OK) return NULL;
    ear_body_id id = find_body(c, params, "body", err);
    if (id == EAR_BODY_NONE || (*err = broken_body(c, id))) return NULL;
    ear_physics *w = c->world.world;
    bool vehicle = ear_body_is_vehicle(w, id);
    static const char *const controls[] = {"gas",       "brake",     "steer",
                                           "handbrake", "engine_on", "fuel"};
    /* Everything is checked before the first change. */
    for (size_t i = 0; i < sizeof controls / sizeof controls[0]; i++) {
        if (!json_object_get(params, controls[i]) || vehicle) continue;
        char where[48];
        snprintf(where, sizeof where, "params.%s", controls[i]);
        *err = ear_command_error("E_BAD_PARAM", where, "%s: body \"%.100s\" is not a vehicle",
                                 where, ear__str(params, "body"));
        if (*err) json_object_set_new(*err, "expected", json_string("a vehicle's body"));
        return NULL;
    }
    ear_vehicle_state vs;
    if (vehicle) {
        ear_vehicle_get_state(w, id, &vs);
        double fuel = ear__num(params, "fuel", vs.fuel_l);
        if (ear__bool(params, "engine_on", false) && fuel <= 0) {
            *err = ear_command_error("E_STATE", "params.engine_on",
                                     "params.engine_on: the tank of \"%.100s\" is empty",
                                     ear__str(params, "body"));
            return NULL;
        }
    }
    ear_vec3 v;
    if (ear__vec3(params, "position", &v)) ear_body_set_position(w, id, v);
    if (ear__vec3(params, "velocity", &v)) ear_body_set_velocity(w, id, v);
    if (ear__vec3(params, "force", &v)) ear_body_set_force(w, id, v);
    if (json_object_get(params, "facing"))
        ear_body_set_facing(w, id, (float)ear__num(params, "facing", 0));
    if (json_object_get(params, "pitch"))
        ear_body_set_pitch(w, id, (float)ear__num(params, "pitch", 0));
    if (vehicle) {
        if (json_object_get(params, "fuel"))
            ear_vehicle_set_fuel(w, id, (float)ear__num(params, "fuel", 0));
        ear_vehicle_controls ctl = vs.controls;
        ctl.gas = (float)ear__num(params, "gas", ctl.gas);
        ctl.brake = (float)ear__num(params, "brake", ctl.brake);
        ctl.steer = (float)ear__num(params, "steer", ctl.steer);
        ctl.handbrake = ear__bool(params, "handbrake", ctl.handbrake);
        ear_vehicle_set_controls(w, id, &ctl);
        if (json_object_get(params, "engine_on"))
            ear_vehicle_set_engine(w, id, ear__bool(params, "engine_on", true));
    }
    return body_json(c, id);
}

json_t *ear__cmd_world_move(ear_commands *c, json_t *params, json_t **err) {
    if (ensure_world(c) != EAR_OK) return NULL;
    ear_body_id id = find_body(c, params, "body", err);
    if (id == EAR_BODY_NONE) return NULL;
    ear_vec3 by = {0, 0, 0}, at;
    ear__vec3(params, "by", &by);
    bool blocked = false;
    ear_result r = ear_body_move_by(c->world.world, id, by, &blocked);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params.by", NULL);
        return NULL;
    }
    ear_body_position(c->world.world, id, &at);
    return json_pack("{s:b, s:o}", "blocked", blocked, "position", vec_json(at));
}

/* ---- world.ray ------------------------------------------------------------------------------
 */

json_t *ear__cmd_world_ray(ear_commands *c, json_t *params, json_t **err) {
    if (ensure_world(c) != EAR_OK) return NULL;
    ear_vec3 from = {0, 0, 0}, to = {0, 0, 0};
    ear__vec3(params, "from", &from);
    ear__vec3(params, "to", &to);
    ear_ray_options options = {0};
    options.include_sensors = ear__bool(params, "include_sensors", false);
    /* Three casts: the nearest hit, the count along it, the bodies. */
    if ((*err = ear__cmd_rays_admit(c, "params.from", 3))) return NULL;
    ear_ray_hit hit;
    bool found = false;
    size_t count = 0;
    ear_result r = ear_physics_ray_cast(c->world.world, from, to, &options, &hit, &found);
    if (r == EAR_OK)
        r = ear_physics_ray_cast_all(c->world.world, from, to, &options, NULL, 0, &count);
    ear_ray_hit *hits = NULL;
    if (r == EAR_OK && count > 0) {
        hits = malloc(count * sizeof *hits);
        if (!hits) return NULL;
        r = ear_physics_ray_cast_all(c->world.world, from, to, &options, hits, count, &count);
    }
    if (r != EAR_OK) {
        free(hits);
        *err = ear__cmd_result_error(r, "params", NULL);
        return NULL;
    }
    json_t *bodies = json_array();
    for (size_t i = 0; i < count; i++)
        json_array_append_new(bodies, name_json(c, hits[i].body));
    free(hits);
    json_t *nearest = found ? json_pack("{s:o, s:f, s:o, s:o}", "body", name_json(c, hit.body),
                                        "distance", clean(hit.distance_m), "point",
                                        vec_json(hit.point_m), "normal", vec_json(hit.normal))
                            : json_null();
    return json_pack("{s:o, s:o, s:i}", "hit", nearest, "bodies", bodies, "count",
                     (json_int_t)count);
}

/* ---- world.describe ------------------------------------------------------------------------
 */

json_t *ear__cmd_world_describe(ear_commands *c, json_t *params, json_t **err) {
    if (ensure_world(c) != EAR_OK) return NULL;
    ear_body_id from = find_body(c, params, "from", err);
    if (from == EAR_BODY_NONE) return NULL;
    ear_body_id to = find_body(c, params, "to", err);
    if (to == EAR_BODY_NONE) return NULL;
    const char *language = ear__str(params, "language");
    ear_lang *lang = NULL;
    if (ear_lang_create(NULL, &lang) != EAR_OK) return NULL;
    if (language && (ear_lang_set_language(lang, language) != EAR_OK ||
                     !ear_lang_has_language(lang, language))) {
        ear_lang_destroy(lang);
        *err = ear_command_error("E_BAD_PARAM", "params.language",
                                 "params.language: no built-in texts for \"%.40s\"", language);
        if (*err) json_object_set_new(*err, "expected", json_string("\"en\" or \"de\""));
        return NULL;
    }
    ear_body_info a, b;
    ear_body_get(c->world.world, from, &a);
    ear_body_get(c->world.world, to, &b);
    ear_vec3 p = a.desc.position_m, q = b.desc.position_m;
    float facing = a.desc.facing_deg;
    char text[512], clock[128], compass[128], speed[128];
    ear_result r = ear_describe_position(lang, p, facing, q, text, sizeof text, NULL);
    if (r == EAR_OK)
        r = ear_describe_direction(lang, p, facing, q, EAR_DIRECTION_CLOCK, clock, sizeof clock,
                                   NULL);
    if (r == EAR_OK)
        r = ear_describe_direction(lang, p, facing, q, EAR_DIRECTION_COMPASS, compass,
                                   sizeof compass, NULL);
    json_t *result = NULL;
    if (r == EAR_OK) {
        result = json_pack("{s:s, s:s, s:s, s:f}", "text", text, "clock", clock, "compass",
                           compass, "distance", clean(ear_vec3_length(ear_vec3_sub(q, p))));
        ear_vehicle_state vs;
        if (result && ear_vehicle_get_state(c->world.world, from, &vs) == EAR_OK &&
            ear_describe_speed(lang, vs.speed_mps, EAR_SPEED_KMH, speed, sizeof speed, NULL) ==
                EAR_OK)
            json_object_set_new(result, "speed", json_string(speed));
    } else {
        *err = ear__cmd_result_error(r, "params", NULL);
    }
    ear_lang_destroy(lang);
    return result;
}

/* ---- world.path
 * ------------------------------------------------------------------------------ */

/* The one code point of a UTF-8 key, or 0 when the key is not exactly one. */
static uint32_t one_char(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || !ear_utf8_valid(s, n)) return 0;
    unsigned char b = (unsigned char)s[0];
    size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : 4;
    if (len != n) return 0;
    uint32_t cp = len == 1 ? b : len == 2 ? (b & 0x1fu) : len == 3 ? (b & 0x0fu) : (b & 0x07u);
    for (size_t i = 1; i < len; i++) cp = (cp << 6) | ((unsigned char)s[i] & 0x3fu);
    return cp;
}

json_t *ear__cmd_world_path(ear_commands *c, json_t *params, json_t **err) {
    if (ensure_world(c) != EAR_OK) return NULL;
    const ear_level *level = c->world.level;
    if (!level) {
        *err = ear_command_error("E_STATE", "command",
                                 "world.path needs a level: load a world document with one");
        return NULL;
    }
    ear_vec3 from = {0, 0, 0}, to = {0, 0, 0};
    ear__vec3(params, "from", &from);
    ear__vec3(params, "to", &to);
    const char *ends[2] = {"from", "to"};
    ear_vec3 points[2] = {from, to};
    for (int i = 0; i < 2; i++) {
        if (ear_level_cell_at(level, points[i], NULL, NULL)) continue;
        char where[32];
        snprintf(where, sizeof where, "params.%s", ends[i]);
        *err = ear_command_error("E_BAD_PARAM", where,
                                 "%s: [%g, %g, %g] is outside the level's map", where,
                                 (double)points[i].x, (double)points[i].y, (double)points[i].z);
        if (*err) json_object_set_new(*err, "expected", json_string("a point over the map"));
        return NULL;
    }
    const json_t *costs = json_object_get(params, "costs");
    size_t n = costs ? json_object_size(costs) : 0;
    ear_path_cost *list = malloc((n ? n : 1) * sizeof *list);
    if (!list) return NULL;
    size_t k = 0;
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)costs, key, value) {
        uint32_t ch = one_char(key);
        double cost = json_number_value(value);
        const char *problem = ch == 0     ? "expected one character as the key"
                              : cost == 0 ? "a cost of 0 is not allowed (negative: impassable)"
                                          : NULL;
        if (problem) {
            free(list);
            char where[160];
            snprintf(where, sizeof where, "params.costs.%.60s", key);
            *err = ear_command_error("E_BAD_PARAM", where, "%s: %s", where, problem);
            return NULL;
        }
        list[k].ch = ch;
        list[k].cost = (float)cost;
        k++;
    }
    ear_path_config pc = ear_path_config_default();
    pc.diagonal = ear__bool(params, "diagonal", false);
    pc.costs = list;
    pc.cost_count = k;
    pc.default_cost = (float)ear__num(params, "default_cost", 1);
    pc.allocator = ear__cmd_alloc(c, EAR__PART_WORLD);
    if (pc.default_cost == 0) {
        free(list);
        *err =
            ear_command_error("E_BAD_PARAM", "params.default_cost",
                              "params.default_cost: 0 is not allowed (negative: impassable)");
        return NULL;
    }
    ear_path path;
    ear_result r = ear_level_find_path(level, from, to, &pc, &path);
    free(list);
    if (r == EAR_E_NOT_FOUND)
        return json_pack("{s:n, s:n, s:n, s:i}", "path", "length", "cost", "cells", 0);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params", NULL);
        return NULL;
    }
    json_t *pts = json_array();
    for (size_t i = 0; i < path.count; i++)
        json_array_append_new(pts, vec_json(path.points[i]));
    json_t *result =
        json_pack("{s:o, s:f, s:f, s:i}", "path", pts, "length", clean(path.length_m), "cost",
                  clean(path.cost), "cells", (json_int_t)path.count);
    ear_path_release(&path);
    return result;
}

/* The body named params[key] for the other world.* files (cmd_world_sounds.c), or
 * EAR_BODY_NONE with *err set (E_NOT_FOUND, naming the param). */
ear_body_id ear__cmd_world_body(ear_commands *c, const json_t *params, const char *key,
                                json_t **err) {
    if (ensure_world(c) != EAR_OK) {
        *err = ear__cmd_result_error(EAR_E_OUT_OF_MEMORY, "command", NULL);
        return EAR_BODY_NONE;
    }
    return find_body(c, params, key, err);
}
