/* SPDX-License-Identifier: Zlib */
/*
 * State and mixer commands: audio.status, audio.voices, audio.reset, audio.bus.set,
 * audio.duck.set, audio.duck.trigger, audio.listener.set, audio.limiter.set. The schema has
 * checked every type and range before these run.
 */
#include "commands_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *vec(ear_vec3 v) {
    return json_pack("[f, f, f]", (double)v.x, (double)v.y, (double)v.z);
}

static json_t *names(ear__cmd_name *list, size_t count) {
    json_t *a = json_array();
    for (size_t i = 0; i < count; i++) json_array_append_new(a, json_string(list[i]));
    return a;
}

static json_t *voice_list(ear_commands *c) {
    ear__cmd_prune_voices(c);
    json_t *a = json_array();
    for (size_t i = 0; i < c->voice_count; i++) {
        const ear__cmd_voice *v = &c->voices[i];
        uint64_t cursor = 0;
        ear_stage_get_cursor(c->stage, v->id, &cursor);
        json_array_append_new(a, json_pack("{s:I, s:s, s:s, s:b, s:I}", "voice",
                                           (json_int_t)v->id, "kind", v->kind, "name", v->name,
                                           "real", ear_stage_is_real(c->stage, v->id), "cursor",
                                           (json_int_t)cursor));
    }
    return a;
}

json_t *ear__cmd_status(ear_commands *c, json_t *params, json_t **err) {
    (void)params;
    (void)err;
    json_t *buses = json_object();
    for (int b = 0; b < EAR_BUS_COUNT; b++) {
        ear_bus_state s = ear_stage_get_bus(c->stage, (ear_bus)b);
        json_object_set_new(
            buses, ear_bus_name((ear_bus)b),
            json_pack("{s:f, s:b}", "volume", (double)s.volume, "muted", s.muted));
    }
    json_t *ducks = json_array();
    for (size_t i = 0; i < c->duck_count; i++) {
        ear_duck_rule d;
        if (ear_stage_get_duck(c->stage, c->ducks[i], &d) != EAR_OK) continue;
        json_array_append_new(
            ducks, json_pack("{s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:f}", "name", d.name,
                             "trigger", ear_bus_name(d.trigger), "target",
                             ear_bus_name(d.target), "gain_db", (double)d.gain_db, "threshold",
                             (double)d.threshold, "attack_s", (double)d.attack_s, "hold_s",
                             (double)d.hold_s, "release_s", (double)d.release_s));
    }
    ear_stage_stats st = ear_stage_get_stats(c->stage);
    ear_listener l = ear_stage_get_listener(c->stage);
    json_t *clips = json_array();
    for (size_t i = 0; i < c->clip_count; i++)
        json_array_append_new(clips, json_string(c->clips[i].name));
    json_t *notes = json_array();
    for (size_t i = 0; i < c->note_count; i++)
        json_array_append_new(notes, json_string(c->notes[i]));
    uint64_t frames = ear_stage_frames_rendered(c->stage);
    const char *music = ear_stage_music_name(c->stage);
    ear_assets_stats as = ear_assets_get_stats(c->assets);
    json_t *memory = json_pack("{s:I, s:I, s:I, s:i, s:i}", "used_bytes",
                               (json_int_t)c->mem_used, "peak_bytes", (json_int_t)c->mem_peak,
                               "budget_bytes", (json_int_t)c->config.max_memory_bytes,
                               "cached_sounds", (int)as.entries, "idle_sounds", (int)as.idle);
    /* Every part of the budget on its own (all but stage_fixed add up to used_bytes). */
    json_t *parts = json_object();
    for (size_t p = 0; p < EAR__PART_COUNT; p++)
        json_object_set_new(parts, ear__cmd_part_names[p],
                            json_integer((json_int_t)c->part_used[p]));
    if (memory)
        json_object_set_new(memory, "parts", parts);
    else
        json_decref(parts);
    if (memory)
        json_object_set_new(memory, "hrtf_load_peak_bytes",
                            json_integer((json_int_t)c->hrtf_load_peak));
    json_t *status = json_pack(
        "{s:i, s:i, s:I, s:f, s:I, s:o, s:{s:i, s:i, s:i, s:I, s:I, s:o}, s:o, s:{s:s?}, "
        "s:{s:o, s:o, s:o, s:o}, s:{s:o, s:o, s:o}, s:s, s:o}",
        "sample_rate", (int)EAR__RATE, "channels", 2, "frames_rendered", (json_int_t)frames,
        "seconds_rendered", (double)frames / EAR__RATE, "seed", (json_int_t)c->seed, "buses",
        buses, "voices", "count", (int)st.voices, "real", (int)st.real_voices, "virtual",
        (int)st.virtual_voices, "refused", (json_int_t)st.refused, "stolen",
        (json_int_t)st.stolen, "list", voice_list(c), "ducks", ducks, "music", "name",
        music && *music ? music : NULL, "listener", "position", vec(l.position), "velocity",
        vec(l.velocity), "forward", vec(l.forward), "up", vec(l.up), "names", "clips", clips,
        "blends", names(c->blends, c->blend_count), "pools", names(c->pools, c->pool_count),
        "assets", c->assets_root, "notes", notes);
    if (status)
        json_object_set_new(status, "memory", memory);
    else
        json_decref(memory);
    if (status) json_object_set_new(status, "reverb", ear__cmd_reverb_status(c));
    if (status) json_object_set_new(status, "limiter", ear__cmd_limiter_json(c));
    if (status) json_object_set_new(status, "hrtf", ear__cmd_hrtf_status(c));
    /* The latency a device at its default buffer would give this stage: the session renders
     * offline, so there is no device of its own (docs/commands.md). */
    if (status) {
        ear_stage_call_latency lat = ear_stage_get_call_latency(c->stage, 0);
        json_object_set_new(
            status, "latency",
            json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:f, s:f}", "device",
                      "none: rendered offline; the figures are for a device at its default "
                      "buffer",
                      "buffer_frames", (int)lat.buffer_frames, "block_frames",
                      (int)lat.block_frames, "lag_frames", (int)lat.lag_frames, "best_frames",
                      (int)lat.best_frames, "worst_frames", (int)lat.worst_frames, "best_ms",
                      lat.best_ms, "worst_ms", lat.worst_ms));
    }
    /* The work budget: what the session has used of each part, and its limits. */
    if (status)
        json_object_set_new(
            status, "work",
            json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:I, s:I}", "steps",
                      (json_int_t)c->session_steps, "max_steps",
                      (json_int_t)c->config.max_session_steps, "physics_work",
                      (json_int_t)c->session_work, "max_physics_work",
                      (json_int_t)c->config.max_session_work, "seconds_rendered",
                      (double)c->session_frames / EAR__RATE, "max_seconds_rendered",
                      c->config.max_session_render_seconds, "max_steps_per_command",
                      (json_int_t)c->config.max_world_steps, "max_physics_work_per_command",
                      (json_int_t)c->config.max_command_work));
    json_t *work = status ? json_object_get(status, "work") : NULL;
    if (work) {
        json_object_set_new(work, "rays", json_integer((json_int_t)c->session_rays));
        json_object_set_new(work, "max_rays",
                            json_integer((json_int_t)c->config.max_session_rays));
        json_object_set_new(work, "max_rays_per_command",
                            json_integer((json_int_t)c->config.max_command_rays));
    }
    return status;
}

json_t *ear__cmd_voices(ear_commands *c, json_t *params, json_t **err) {
    (void)params;
    (void)err;
    return json_pack("{s:o}", "voices", voice_list(c));
}

json_t *ear__cmd_reset(ear_commands *c, json_t *params, json_t **err) {
    uint64_t seed = (uint64_t)ear__num(params, "seed", (double)c->config.seed);
    if (!json_object_get(params, "seed")) seed = c->config.seed ? c->config.seed : 1;
    ear_stage *stage;
    ear_assets *assets;
    /* The folder audio.load chose is forgotten too: back to the configured one. */
    snprintf(c->assets_root, sizeof c->assets_root, "%s",
             c->config.assets_root && *c->config.assets_root ? c->config.assets_root
                                                             : "assets");
    ear_result r = ear__cmd_make_stage(c, seed, &stage, &assets);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params", NULL);
        return NULL;
    }
    ear__cmd_forget(c);
    ear_stage_destroy(c->stage);
    ear_assets_destroy(c->assets);
    c->stage = stage;
    c->assets = assets;
    c->seed = seed;
    c->random_starts = 0;
    return json_pack("{s:I}", "seed", (json_int_t)seed);
}

json_t *ear__cmd_bus_set(ear_commands *c, json_t *params, json_t **err) {
    (void)err;
    ear_bus bus = ear__bus(params, "bus", EAR_BUS_SFX);
    json_t *volume = json_object_get(params, "volume");
    json_t *muted = json_object_get(params, "muted");
    if (volume) {
        float v = (float)json_number_value(volume);
        if (json_object_get(params, "fade"))
            ear_stage_fade_bus(c->stage, bus, v, (float)ear__num(params, "fade", 0));
        else
            ear_stage_set_bus_volume(c->stage, bus, v);
    }
    if (muted) ear_stage_set_bus_muted(c->stage, bus, json_is_true(muted));
    ear_bus_state s = ear_stage_get_bus(c->stage, bus);
    return json_pack("{s:s, s:f, s:b}", "bus", ear_bus_name(bus), "volume", (double)s.volume,
                     "muted", s.muted);
}

json_t *ear__cmd_duck_set(ear_commands *c, json_t *params, json_t **err) {
    ear_duck_rule d = {0};
    snprintf(d.name, sizeof d.name, "%s", ear__str(params, "name"));
    d.trigger = ear__bus(params, "trigger", EAR_BUS_SFX);
    d.target = ear__bus(params, "target", EAR_BUS_SFX);
    d.gain_db = (float)ear__num(params, "gain_db", 0);
    d.threshold = (float)ear__num(params, "threshold", 0);
    d.attack_s = (float)ear__num(params, "attack_s", 0);
    d.hold_s = (float)ear__num(params, "hold_s", 0);
    d.release_s = (float)ear__num(params, "release_s", 0);
    if (d.trigger == d.target) {
        *err = ear_command_error("E_BAD_PARAM", "params.target",
                                 "params.target: the trigger bus cannot duck itself");
        json_object_set_new(*err, "expected", json_string("a bus other than the trigger"));
        return NULL;
    }
    ear_result r = ear_stage_set_duck(c->stage, &d);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params.name", "all 16 duck rules are in use");
        return NULL;
    }
    ear__cmd_remember(&c->ducks, &c->duck_count, &c->duck_cap, d.name);
    ear_stage_get_duck(c->stage, d.name, &d);
    return json_pack("{s:s, s:s, s:s, s:f}", "name", d.name, "trigger", ear_bus_name(d.trigger),
                     "target", ear_bus_name(d.target), "gain_db", (double)d.gain_db);
}

json_t *ear__cmd_duck_trigger(ear_commands *c, json_t *params, json_t **err) {
    const char *name = ear__str(params, "name");
    double hold = ear__num(params, "hold", 0.2);
    ear_result r = ear_stage_trigger_duck(c->stage, name, (float)hold);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params.name", name);
        return NULL;
    }
    return json_pack("{s:s, s:f}", "name", name, "hold", hold);
}

json_t *ear__cmd_listener_set(ear_commands *c, json_t *params, json_t **err) {
    ear_listener l = ear_stage_get_listener(c->stage);
    ear__vec3(params, "position", &l.position);
    ear__vec3(params, "velocity", &l.velocity);
    ear__vec3(params, "forward", &l.forward);
    ear__vec3(params, "up", &l.up);
    /* Refuse what the stage would refuse, before changing anything. */
    if (ear_vec3_length(l.forward) < 1e-9f || ear_vec3_length(l.up) < 1e-9f ||
        ear_vec3_length(ear_vec3_cross(l.forward, l.up)) < 1e-9f * ear_vec3_length(l.forward)) {
        *err = ear_command_error("E_BAD_PARAM", "params.forward",
                                 "params.forward: forward and up must be non-zero and not "
                                 "parallel");
        json_object_set_new(*err, "expected", json_string("non-zero, non-parallel vectors"));
        return NULL;
    }
    ear_result r = ear_stage_set_listener(c->stage, &l);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params", NULL);
        return NULL;
    }
    l = ear_stage_get_listener(c->stage);
    return json_pack("{s:o, s:o, s:o, s:o}", "position", vec(l.position), "velocity",
                     vec(l.velocity), "forward", vec(l.forward), "up", vec(l.up));
}

/* The output limiter as the status and audio.limiter.set report it. */
json_t *ear__cmd_limiter_json(ear_commands *c) {
    ear_limiter l = ear_stage_get_limiter(c->stage);
    return json_pack("{s:b, s:f, s:f, s:f, s:i, s:f}", "enabled", l.enabled, "ceiling_db",
                     (double)l.ceiling_db, "lookahead_ms", (double)l.lookahead_ms, "release_ms",
                     (double)l.release_ms, "latency_frames",
                     (int)ear_stage_latency_frames(c->stage), "gain_db",
                     (double)ear_stage_limiter_gain_db(c->stage));
}

json_t *ear__cmd_limiter_set(ear_commands *c, json_t *params, json_t **err) {
    /* Absent fields keep what the limiter has now. */
    ear_limiter l = ear_stage_get_limiter(c->stage);
    l.enabled = ear__bool(params, "enabled", l.enabled);
    l.ceiling_db = (float)ear__num(params, "ceiling_db", (double)l.ceiling_db);
    l.lookahead_ms = (float)ear__num(params, "lookahead_ms", (double)l.lookahead_ms);
    l.release_ms = (float)ear__num(params, "release_ms", (double)l.release_ms);
    ear_result r = ear_stage_set_limiter(c->stage, &l);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params", NULL);
        return NULL;
    }
    return ear__cmd_limiter_json(c);
}

/* ---- Forgetting ---------------------------------------------------------------- */

void ear__cmd_forget(ear_commands *c) {
    ear__cmd_audio_world_forget(c); /* its voices and stage go with the rest */
    for (size_t i = 0; i < c->clip_count; i++) ear_clip_release(c->clips[i].clip);
    c->clip_count = c->clip_cap = 0;
    if (c->clips) /* counted in the budget */
        c->part_alloc[EAR__PART_NAMES].free_fn(c->clips, &c->part_user[EAR__PART_NAMES]);
    c->clips = NULL;
    ear__name_index_free(&c->clip_index, ear__cmd_alloc(c, EAR__PART_NAMES));
    c->voice_count = 0;
    c->duck_count = c->blend_count = c->pool_count = c->blend_def_count = 0;
    for (size_t i = 0; i < c->note_count; i++) free(c->notes[i]);
    c->note_count = 0;
    if (c->buffer)
        c->part_alloc[EAR__PART_RENDER].free_fn(c->buffer, &c->part_user[EAR__PART_RENDER]);
    c->buffer = NULL;
    c->buffer_frames = 0;
}
