/* SPDX-License-Identifier: Zlib */
/*
 * The room reverb's commands: audio.reverb.set (the stage's room, a bus's send, or a reverb
 * zone of the loaded world) and the "reverb" object of audio.status (the room, the sends,
 * the zones and the zone the listener is in). The schema has checked every field's range;
 * what it cannot check (a send without a bus, a zone without a world, a new zone without
 * its box, min above max) is an E_BAD_PARAM or E_STATE naming the field.
 */
#include "commands_internal.h"

#include <stdio.h>
#include <string.h>

static const char *const fields[8] = {"rt60_low_s",  "rt60_high_s", "crossover_hz",
                                      "predelay_ms", "size",        "density",
                                      "damping",     "wet"};

static float *field(ear_reverb_params *p, size_t k) {
    float *f[8] = {&p->rt60_low_s, &p->rt60_high_s, &p->crossover_hz, &p->predelay_ms,
                   &p->size,       &p->density,     &p->damping,      &p->wet};
    return f[k];
}

static json_t *room_json(const ear_reverb_params *p) {
    json_t *o = json_object();
    ear_reverb_params q = *p;
    for (size_t k = 0; k < 8; k++) json_object_set_new(o, fields[k], json_real(*field(&q, k)));
    return o;
}

static json_t *vec_json(ear_vec3 v) {
    return json_pack("[f, f, f]", (double)v.x, (double)v.y, (double)v.z);
}

/* The preset (or `base`) with the given fields over it. */
static ear_reverb_params room_of(const json_t *params, ear_reverb_params base) {
    const char *preset = ear__str(params, "preset");
    ear_reverb_preset pr;
    if (preset && ear_reverb_preset_from_name(preset, &pr) == EAR_OK)
        ear_reverb_preset_params(pr, &base);
    for (size_t k = 0; k < 8; k++) {
        const json_t *v = json_object_get(params, fields[k]);
        if (v) *field(&base, k) = (float)json_number_value(v);
    }
    return base;
}

static bool has_room_fields(const json_t *params) {
    if (json_object_get(params, "preset")) return true;
    for (size_t k = 0; k < 8; k++)
        if (json_object_get(params, fields[k])) return true;
    return false;
}

static json_t *bad(const char *where, const char *message, const char *expected) {
    json_t *e = ear_command_error("E_BAD_PARAM", where, "%s: %s", where, message);
    if (e) json_object_set_new(e, "expected", json_string(expected));
    return e;
}

static json_t *zone_set(ear_commands *c, json_t *params, json_t **err) {
    const char *name = ear__str(params, "zone");
    if (!c->audio_world) {
        *err = ear_command_error("E_STATE", "params.zone",
                                 "params.zone: no world is loaded (world.load a level first)");
        return NULL;
    }
    if (json_is_true(json_object_get(params, "remove"))) {
        ear_result r = ear_world_remove_reverb_zone(c->audio_world, name);
        if (r != EAR_OK) {
            *err = ear__cmd_result_error(r, "params.zone", name);
            return NULL;
        }
        return json_pack("{s:s, s:b}", "zone", name, "removed", 1);
    }
    ear_reverb_zone z = ear_reverb_zone_default(name);
    bool known = false;
    for (size_t i = 0; i < ear_world_reverb_zone_count(c->audio_world) && !known; i++) {
        ear_reverb_zone at;
        if (ear_world_reverb_zone_at(c->audio_world, i, &at) && strcmp(at.name, name) == 0)
            z = at, known = true;
    }
    bool has_min = ear__vec3(params, "min", &z.min_m);
    bool has_max = ear__vec3(params, "max", &z.max_m);
    if (!known && !(has_min && has_max)) {
        *err = bad(has_min ? "params.max" : "params.min", "a new zone needs its box",
                   "min and max, [x, y, z] in metres");
        return NULL;
    }
    if (z.min_m.x > z.max_m.x || z.min_m.y > z.max_m.y || z.min_m.z > z.max_m.z) {
        *err = bad("params.max", "the box's max is below its min on an axis",
                   "max >= min on every axis");
        return NULL;
    }
    z.room = room_of(params, z.room);
    if (json_object_get(params, "priority"))
        z.priority = (int32_t)ear__num(params, "priority", 0);
    if (json_object_get(params, "transition"))
        z.transition_s = (float)ear__num(params, "transition", 1.0);
    ear_result r = ear_world_set_reverb_zone(c->audio_world, &z);
    if (r != EAR_OK) {
        *err = r == EAR_E_STATE ? ear_command_error("E_STATE", "params.zone",
                                                    "params.zone: all %d zones are in use",
                                                    EAR_WORLD_MAX_ZONES)
                                : ear__cmd_result_error(r, "params.zone", name);
        return NULL;
    }
    return json_pack("{s:s, s:o, s:o, s:i, s:f, s:o}", "zone", name, "min", vec_json(z.min_m),
                     "max", vec_json(z.max_m), "priority", (int)z.priority, "transition",
                     (double)z.transition_s, "room", room_json(&z.room));
}

json_t *ear__cmd_reverb_set(ear_commands *c, json_t *params, json_t **err) {
    bool has_bus = json_object_get(params, "bus") != NULL;
    bool has_send = json_object_get(params, "send") != NULL;
    bool has_zone = json_object_get(params, "zone") != NULL;
    if (has_send && !has_bus) {
        *err = bad("params.send", "a send belongs to a bus", "bus with send");
        return NULL;
    }
    if (has_bus) {
        if (!has_send) {
            *err = bad("params.send", "missing: the bus's send", "a number in 0..1");
            return NULL;
        }
        if (has_zone || has_room_fields(params)) {
            *err = bad("params.bus", "a bus takes only a send; the room is the stage's",
                       "bus and send alone, or a room without bus");
            return NULL;
        }
        ear_bus bus = ear__bus(params, "bus", EAR_BUS_SFX);
        ear_result r =
            ear_stage_set_bus_reverb_send(c->stage, bus, (float)ear__num(params, "send", 0));
        if (r != EAR_OK) {
            *err = ear__cmd_result_error(r, "params.bus", ear__str(params, "bus"));
            return NULL;
        }
        return json_pack("{s:s, s:f}", "bus", ear_bus_name(bus), "send",
                         (double)ear_stage_get_bus_reverb_send(c->stage, bus));
    }
    if (has_zone) return zone_set(c, params, err);
    const char *zone_only[] = {"min", "max", "priority", "remove"};
    for (size_t k = 0; k < 4; k++)
        if (json_object_get(params, zone_only[k])) {
            char at[48];
            snprintf(at, sizeof at, "params.%s", zone_only[k]);
            *err = bad(at, "only a zone has this", "zone with it");
            return NULL;
        }
    ear_reverb_params room = room_of(params, ear_stage_get_reverb(c->stage));
    const char *wrong = NULL;
    if (ear_reverb_params_check(&room, &wrong) != EAR_OK) {
        char at[48];
        snprintf(at, sizeof at, "params.%s", wrong);
        *err = bad(at, "out of range", "see the schema");
        return NULL;
    }
    ear_result r =
        ear_stage_set_reverb(c->stage, &room, (float)ear__num(params, "transition", 0.5));
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params", "the room");
        return NULL;
    }
    return json_pack("{s:o}", "room", room_json(&room));
}

json_t *ear__cmd_reverb_status(ear_commands *c) {
    ear_reverb_params room = ear_stage_get_reverb(c->stage);
    json_t *sends = json_object();
    for (int b = 0; b < EAR_BUS_COUNT; b++)
        json_object_set_new(sends, ear_bus_name((ear_bus)b),
                            json_real(ear_stage_get_bus_reverb_send(c->stage, (ear_bus)b)));
    json_t *zones = json_array();
    const char *in = NULL;
    if (c->audio_world) {
        for (size_t i = 0; i < ear_world_reverb_zone_count(c->audio_world); i++) {
            ear_reverb_zone z;
            if (!ear_world_reverb_zone_at(c->audio_world, i, &z)) continue;
            json_array_append_new(
                zones, json_pack("{s:s, s:o, s:o, s:i, s:f, s:o}", "name", z.name, "min",
                                 vec_json(z.min_m), "max", vec_json(z.max_m), "priority",
                                 (int)z.priority, "transition", (double)z.transition_s, "room",
                                 room_json(&z.room)));
        }
        in = ear_world_current_zone(c->audio_world);
    }
    ear_reverb_state st = ear_stage_reverb_state(c->stage);
    return json_pack("{s:o, s:b, s:o, s:o, s:s?}", "room", room_json(&room), "awake", st.awake,
                     "sends", sends, "zones", zones, "zone", in);
}
