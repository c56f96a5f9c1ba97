/* SPDX-License-Identifier: Zlib */
/*
 * Playing: audio.play (a sound, a blend or a pool), audio.voice.set, audio.stop,
 * audio.music.play and audio.music.stop. Voice ids go out and come back as JSON integers
 * (an ear_voice_id: slot and generation), so a stale id is an E_NOT_FOUND error, never
 * another voice.
 */
#include "commands_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const models[] = {"", "inverse", "linear", "exponential", "none", "fade"};

static ear_play play_params(const json_t *p) {
    ear_play play = {0};
    play.looping = ear__bool(p, "looping", false);
    bool has_pos = ear__vec3(p, "position", &play.position);
    bool has_vel = ear__vec3(p, "velocity", &play.velocity);
    ear__vec3(p, "forward", &play.forward);
    play.placed = ear__bool(p, "placed", has_pos || has_vel);
    play.volume = (float)ear__num(p, "volume", 1);
    /* 0 would mean "the default 1" to the stage; a volume of 0 asks for silence. */
    if (play.volume == 0) play.volume = -1;
    play.pitch = (float)ear__num(p, "pitch", 0);
    play.pan = (float)ear__num(p, "pan", 0);
    play.bus = ear__bus(p, "bus", EAR_BUS_SFX);
    const char *model = ear__str(p, "model");
    for (size_t i = 1; model && i < sizeof models / sizeof models[0]; i++)
        if (strcmp(model, models[i]) == 0) play.attenuation.model = (ear_distance_model)i;
    play.attenuation.ref_distance_m = (float)ear__num(p, "ref_distance", 0);
    play.attenuation.max_distance_m = (float)ear__num(p, "max_distance", 0);
    play.attenuation.rolloff = (float)ear__num(p, "rolloff", 0);
    play.doppler_factor = (float)ear__num(p, "doppler", 0);
    play.no_doppler = ear__bool(p, "no_doppler", false) ||
                      (json_object_get(p, "doppler") && ear__num(p, "doppler", 1) == 0);
    play.no_behind_cue = ear__bool(p, "no_behind_cue", false);
    play.occlusion = (float)ear__num(p, "occlusion", 0);
    play.reverb_send = (float)ear__num(p, "reverb_send", 0);
    play.priority = (uint8_t)ear__num(p, "priority", 0);
    play.spatializer = ear__spatializer(p, "spatializer", EAR_SPATIALIZER_DEFAULT);
    play.smoothing_ms = (float)ear__num(p, "smoothing_ms", 0);
    play.loop_crossfade_s = (float)ear__num(p, "loop_crossfade", 0);
    const json_t *cone = json_object_get(p, "cone");
    if (cone) {
        const double rad = 3.14159265358979323846 / 180.0;
        play.cone.inner_angle_rad = (float)(ear__num(cone, "inner_deg", 0) * rad);
        play.cone.outer_angle_rad = (float)(ear__num(cone, "outer_deg", 0) * rad);
        play.cone.outer_gain = (float)ear__num(cone, "outer_gain", 0);
    }
    return play;
}

/* The n-th random start of a session with this seed (splitmix64), in [0, frames). */
static uint64_t random_frame(uint64_t seed, uint64_t n, uint64_t frames) {
    uint64_t x = seed + (n + 1u) * 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return frames ? x % frames : 0;
}

/* The blend parameters of params.params, checked against the blend (stage) one by one
 * after the voice exists; an unknown name ends the voice again, so nothing is left. */
static json_t *set_params(ear_commands *c, ear_voice_id id, const json_t *ps) {
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)ps, key, v) {
        ear_result r = ear_stage_set_param(c->stage, id, key, (float)json_number_value(v));
        if (r != EAR_OK) {
            char at[160];
            snprintf(at, sizeof at, "params.params.%.100s", key);
            json_t *e = ear_command_error(
                "E_BAD_PARAM", at, "%s: %s", at,
                r == EAR_E_NOT_FOUND ? "the blend has no parameter of that name"
                                     : "the voice is not a blend, or the value is refused");
            json_object_set_new(e, "expected", json_string("a parameter of the blend"));
            return e;
        }
    }
    return NULL;
}

json_t *ear__cmd_play(ear_commands *c, json_t *params, json_t **err) {
    ear_play play = play_params(params);
    const char *sound = ear__str(params, "sound");
    const char *blend = ear__str(params, "blend");
    const char *pool = ear__str(params, "pool");
    json_t *ps = json_object_get(params, "params");
    if (ps && !blend) {
        *err = ear_command_error("E_BAD_PARAM", "params.params",
                                 "params.params: only a blend has parameters");
        json_object_set_new(*err, "expected", json_string("no params without a blend"));
        return NULL;
    }
    /* A parameter the blend does not have is refused before any voice starts. */
    const ear__cmd_blend *known = blend ? ear__cmd_find_blend(c, blend) : NULL;
    const char *key;
    json_t *value;
    json_object_foreach(known ? ps : NULL, key, value) {
        bool found = false;
        for (uint32_t i = 0; i < known->count && !found; i++)
            found = strcmp(known->params[i], key) == 0;
        if (!found) {
            char at[160];
            snprintf(at, sizeof at, "params.params.%.100s", key);
            *err = ear_command_error("E_BAD_PARAM", at,
                                     "%s: the blend \"%s\" has no parameter of that name", at,
                                     blend);
            json_object_set_new(*err, "expected", json_string("a parameter of the blend"));
            return NULL;
        }
    }
    ear_voice_id id = EAR_VOICE_NONE;
    ear_result r;
    const char *kind, *name, *where;
    if (sound) {
        kind = "sound", name = sound, where = "params.sound";
        if ((*err = ear__cmd_check_synth(c, sound, where))) return NULL;
        ear_clip *clip = NULL;
        r = ear_assets_get(c->assets, sound, &clip);
        if (r == EAR_OK) {
            uint64_t frames = ear_clip_frames(clip);
            if (ear__bool(params, "random_start", false))
                play.start_frame = random_frame(c->seed, c->random_starts++, frames);
            else if (json_object_get(params, "start"))
                play.start_frame = (uint64_t)llround(ear__num(params, "start", 0) *
                                                     (double)ear_clip_sample_rate(clip));
            r = ear_stage_play(c->stage, clip, &play, &id);
        }
    } else if (blend) {
        kind = "blend", name = blend, where = "params.blend";
        /* The blend's own bus and volume unless the params set them. */
        if (!json_object_get(params, "bus")) play.bus = EAR_BUS_SFX;
        if (!json_object_get(params, "volume")) play.volume = 0;
        r = ear_assets_play_blend(c->assets, c->stage, blend, &play, &id);
    } else {
        kind = "pool", name = pool, where = "params.pool";
        r = ear_stage_play_pool(c->stage, pool, &play, &id);
    }
    if (r != EAR_OK) {
        *err = sound ? ear__cmd_sound_error(c, r, where, name)
                     : ear__cmd_result_error(r, where, name);
        return NULL;
    }
    if (ps && (*err = set_params(c, id, ps))) {
        ear_stage_stop(c->stage, id, 0.005f);
        return NULL;
    }
    ear__cmd_track_voice(c, id, kind, name);
    return json_pack("{s:I, s:s, s:s}", "voice", (json_int_t)id, "kind", kind, "name", name);
}

static ear_voice_id voice_of(const json_t *params) {
    return (ear_voice_id)json_integer_value(json_object_get(params, "voice"));
}

json_t *ear__cmd_voice_set(ear_commands *c, json_t *params, json_t **err) {
    ear_voice_id id = voice_of(params);
    if (!ear_stage_is_playing(c->stage, id)) {
        char name[24];
        snprintf(name, sizeof name, "%u", (unsigned)id);
        *err = ear__cmd_result_error(EAR_E_STALE_ID, "params.voice", name);
        return NULL;
    }
    json_t *ps = json_object_get(params, "params");
    /* Parameters first: they are the one part that can be refused (an unknown name). */
    if (ps && (*err = set_params(c, id, ps))) return NULL;
    json_t *v;
    if ((v = json_object_get(params, "volume"))) {
        double vol = json_number_value(v);
        ear_stage_set_volume(c->stage, id, vol == 0 ? 0.0f : (float)vol);
    }
    if ((v = json_object_get(params, "pitch")))
        ear_stage_set_pitch(c->stage, id, (float)json_number_value(v));
    if ((v = json_object_get(params, "pan")))
        ear_stage_set_pan(c->stage, id, (float)json_number_value(v));
    ear_vec3 pos, vel, fwd;
    bool has_pos = ear__vec3(params, "position", &pos);
    bool has_vel = ear__vec3(params, "velocity", &vel);
    if (has_pos && has_vel)
        ear_stage_set_motion(c->stage, id, pos, vel);
    else if (has_pos)
        ear_stage_set_position(c->stage, id, pos);
    else if (has_vel)
        ear_stage_set_velocity(c->stage, id, vel);
    if (ear__vec3(params, "forward", &fwd)) ear_stage_set_forward(c->stage, id, fwd);
    if ((v = json_object_get(params, "occlusion")))
        ear_stage_set_occlusion(c->stage, id, (float)json_number_value(v));
    if ((v = json_object_get(params, "reverb_send")))
        ear_stage_set_reverb_send(c->stage, id, (float)json_number_value(v));
    if (json_object_get(params, "spatializer"))
        ear_stage_set_voice_spatializer(
            c->stage, id, ear__spatializer(params, "spatializer", EAR_SPATIALIZER_DEFAULT));
    return json_pack("{s:I}", "voice", (json_int_t)id);
}

json_t *ear__cmd_stop(ear_commands *c, json_t *params, json_t **err) {
    ear_voice_id id = voice_of(params);
    double fade = ear__num(params, "fade", 0.005);
    ear_result r = ear_stage_stop(c->stage, id, (float)fade);
    if (r != EAR_OK) {
        char name[24];
        snprintf(name, sizeof name, "%u", (unsigned)id);
        *err = ear__cmd_result_error(r, "params.voice", name);
        return NULL;
    }
    return json_pack("{s:I, s:f}", "voice", (json_int_t)id, "fade",
                     fade < 0.005 ? 0.005 : fade);
}

json_t *ear__cmd_music_play(ear_commands *c, json_t *params, json_t **err) {
    const char *sound = ear__str(params, "sound");
    bool loop = ear__bool(params, "loop", true);
    float volume = (float)ear__num(params, "volume", 1);
    float crossfade = (float)ear__num(params, "crossfade", 0);
    /* A sound the assets know (defined, synth:, sounds/) plays from memory; otherwise a
     * file under music/ streams. A failed get warns once; the music path then decides. */
    if ((*err = ear__cmd_check_synth(c, sound, "params.sound"))) return NULL;
    ear_clip *clip = NULL;
    char resolved[4096];
    ear_result r;
    if (ear_assets_resolve(c->assets, sound, resolved, sizeof resolved) != EAR_E_NOT_FOUND ||
        strncmp(sound, "synth:", 6) == 0) {
        r = ear_assets_get(c->assets, sound, &clip);
        if (r == EAR_OK) {
            ear_music_params mp = {.name = sound,
                                   .source = {.clip = clip, .stream = NULL},
                                   .loop = loop,
                                   .volume = volume == 0.0f ? -1.0f : volume, /* 0: silence */
                                   .crossfade_s = crossfade};
            r = ear_stage_music_play(c->stage, &mp);
        }
    } else {
        r = ear_assets_play_music(c->assets, c->stage, sound, loop, volume, crossfade);
    }
    if (r != EAR_OK) {
        *err = ear__cmd_sound_error(c, r, "params.sound", sound);
        return NULL;
    }
    return json_pack("{s:s, s:b, s:f, s:f}", "sound", sound, "loop", loop, "volume",
                     (double)volume, "crossfade", (double)crossfade);
}

json_t *ear__cmd_music_stop(ear_commands *c, json_t *params, json_t **err) {
    double fade = ear__num(params, "fade", 0.005);
    ear_result r = ear_stage_music_stop(c->stage, (float)fade);
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params.fade", NULL);
        return NULL;
    }
    return json_pack("{s:f}", "fade", fade);
}

ear_play ear__cmd_play_params(const json_t *params) {
    return play_params(params);
}
