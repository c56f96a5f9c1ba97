/* SPDX-License-Identifier: Zlib */
/*
 * Applying audio.json and .blend.json files to a stage, and starting music, through
 * mixer.h. The only file of the assets module that calls the mixer, so the cache and the
 * parser build and test on their own.
 */
#include "assets_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ear_result refused(ear_io_error *err, const char *file, const char *where,
                          ear_result r) {
    if (err)
        snprintf(err->message, sizeof err->message, "%.200s: %.100s: the stage refused it: %s",
                 file, where, ear_result_string(r));
    else
        ear_log(EAR_LOG_ERROR, "assets", "%s: %s: the stage refused it: %s", file, where,
                ear_result_string(r));
    return r;
}

ear_result ear_assets_apply_setup(ear_assets *a, ear_stage *stage, ear_io_error *err) {
    if (!a || !stage) return EAR_E_INVALID_ARG;
    ear__assets_forget_missing(a);
    if (a->setup_applied) return EAR_OK;
    ear_audio_setup *s = NULL;
    ear_result r = ear_assets_load_setup(a, &s, err);
    if (r == EAR_E_NOT_FOUND) {
        a->setup_applied = true;
        return EAR_OK;
    }
    if (r != EAR_OK) return r;
    char file[4096];
    snprintf(file, sizeof file, "%s/audio.json", a->root);
    char where[64];
    for (int b = 0; b < EAR_BUS_COUNT && r == EAR_OK; b++)
        if (s->has_bus_volume[b]) {
            r = ear_stage_set_bus_volume(stage, (ear_bus)b, s->bus_volume[b]);
            if (r != EAR_OK) {
                snprintf(where, sizeof where, "buses.%s", ear_bus_name((ear_bus)b));
                refused(err, file, where, r);
            }
        }
    if (s->has_reverb && r == EAR_OK) {
        r = ear_stage_set_reverb(stage, &s->reverb, 0.0f);
        if (r != EAR_OK) refused(err, file, "reverb", r);
    }
    for (int b = 0; b < EAR_BUS_COUNT && r == EAR_OK; b++)
        if (s->has_reverb_send[b]) {
            r = ear_stage_set_bus_reverb_send(stage, (ear_bus)b, s->reverb_send[b]);
            if (r != EAR_OK) {
                snprintf(where, sizeof where, "reverb.sends.%s", ear_bus_name((ear_bus)b));
                refused(err, file, where, r);
            }
        }
    for (uint32_t i = 0; i < s->duck_count && r == EAR_OK; i++) {
        r = ear_stage_set_duck(stage, &s->ducks[i]);
        if (r != EAR_OK) {
            snprintf(where, sizeof where, "ducks[%u]", i);
            refused(err, file, where, r);
        }
    }
    for (uint32_t i = 0; i < s->blend_count && r == EAR_OK; i++) {
        r = ear_stage_register_blend(stage, &s->blends[i].def);
        if (r != EAR_OK) {
            snprintf(where, sizeof where, "blends[%u]", i);
            refused(err, file, where, r);
        }
    }
    for (uint32_t i = 0; i < s->pool_count && r == EAR_OK; i++) {
        r = ear_stage_register_pool(stage, &s->pools[i].def);
        if (r != EAR_OK) {
            snprintf(where, sizeof where, "pools[%u]", i);
            refused(err, file, where, r);
        }
    }
    ear_audio_setup_destroy(s);
    if (r == EAR_OK) {
        a->setup_applied = true;
        a->stats.definitions++; /* its clip names resolve now */
    }
    return r;
}

ear_result ear_assets_load_blend_file(ear_assets *a, ear_stage *stage, const char *name,
                                      ear_io_error *err) {
    if (!a || !stage || !name || !*name || strlen(name) >= EAR_NAME_MAX)
        return EAR_E_INVALID_ARG;
    ear__assets_forget_missing(a);
    char path[4096];
    snprintf(path, sizeof path, "%s/sounds/%s.blend.json", a->root, name);
    char *text;
    size_t len;
    ear_result r = ear__assets_read_file(a, path, &text, &len, err);
    if (r != EAR_OK) return r;
    ear_blend_source *b = malloc(sizeof *b);
    if (!b) {
        free(text);
        return EAR_E_OUT_OF_MEMORY;
    }
    r = ear_blend_parse(text, len, path, b, err);
    free(text);
    if (r == EAR_OK && strcmp(b->def.name, name) != 0) {
        if (err)
            snprintf(err->message, sizeof err->message,
                     "%.200s: name: \"%s\" does not match the file's name \"%s\"", path,
                     b->def.name, name);
        r = EAR_E_FORMAT;
    }
    if (r == EAR_OK) r = ear__assets_resolve_blend(a, b, path, "", err);
    if (r == EAR_OK) {
        ear_result reg = ear_stage_register_blend(stage, &b->def);
        ear__assets_unresolve_blend(b);
        if (reg != EAR_OK) r = refused(err, path, "the blend", reg);
    }
    free(b);
    return r;
}

ear_result ear_assets_play_blend(ear_assets *a, ear_stage *stage, const char *name,
                                 const ear_play *params, ear_voice_id *out_id) {
    if (out_id) *out_id = EAR_VOICE_NONE;
    if (!a || !stage || !name || !*name) return EAR_E_INVALID_ARG;
    const ear_play defaults = {0};
    if (!params) params = &defaults;
    ear_result r = ear_stage_play_blend(stage, name, params, out_id);
    if (r != EAR_E_NOT_FOUND) return r;
    ear_io_error err;
    r = ear_assets_load_blend_file(a, stage, name, &err);
    if (r == EAR_E_NOT_FOUND) {
        ear__assets_warn_once(a, name,
                              "no blend named \"%s\" (not registered, not in audio.json, no "
                              "file %s/sounds/%s.blend.json); it plays nothing",
                              name, a->root, name);
        return EAR_E_NOT_FOUND;
    }
    if (r != EAR_OK) {
        ear__assets_warn_once(a, name, "blend \"%s\" will not load: %s", name, err.message);
        return r;
    }
    return ear_stage_play_blend(stage, name, params, out_id);
}

ear_result ear_assets_play_music(ear_assets *a, ear_stage *stage, const char *name, bool loop,
                                 float volume, float crossfade_s) {
    if (!a || !stage || !name) return EAR_E_INVALID_ARG;
    ear_stream stream;
    ear_result r = ear_assets_open_music(a, name, loop, &stream);
    if (r != EAR_OK) return r;
    /* A volume of 0 is silence here; the stage's 0 means its default. */
    ear_music_params mp = {.name = name,
                           .source = {.clip = NULL, .stream = &stream},
                           .loop = loop,
                           .volume = volume == 0.0f ? -1.0f : volume,
                           .crossfade_s = crossfade_s};
    r = ear_stage_music_play(stage, &mp);
    /* Refused, the stream was never handed over: it is ours to release. */
    if (r != EAR_OK) stream.release(stream.user);
    return r;
}
