/* SPDX-License-Identifier: Zlib */
/*
 * Sound definitions: audio.clip.define (a synth part or a file), audio.blend.define and
 * audio.pool.define (in their audio.json form, parsed by the assets module), audio.load (an
 * assets folder's audio.json). Defined clips are registered with the assets under their
 * name, so every way of playing a name (sounds, blend layers, pools, music) finds them.
 */
#include "commands_internal.h"

#include "earshot/synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const waveforms[] = {"sine", "square", "triangle", "saw", "noise", "engine"};

json_t *ear__cmd_clip_define(ear_commands *c, json_t *params, json_t **err) {
    const char *name = ear__str(params, "name");
    json_t *synth = json_object_get(params, "synth");
    ear_clip *clip = NULL;
    ear_result r;
    if (synth) {
        ear_synth s = {0};
        const char *w = ear__str(synth, "waveform");
        for (size_t i = 0; w && i < sizeof waveforms / sizeof waveforms[0]; i++)
            if (strcmp(w, waveforms[i]) == 0) s.waveform = (ear_waveform)i;
        s.frequency_hz = (float)ear__num(synth, "frequency", 0);
        s.end_frequency_hz = (float)ear__num(synth, "end_frequency", 0);
        s.seconds = (float)ear__num(synth, "seconds", 0);
        s.amplitude = (float)ear__num(synth, "amplitude", 0);
        s.seed = (uint64_t)ear__num(synth, "seed", 0);
        s.envelope.attack_s = (float)ear__num(synth, "attack", 0);
        s.envelope.decay_s = (float)ear__num(synth, "decay", 0);
        s.envelope.release_s = (float)ear__num(synth, "release", 0);
        if ((*err = ear__cmd_check_seconds(c, s.seconds > 0 ? s.seconds : 1.0,
                                           "params.synth.seconds")))
            return NULL;
        r = ear_synth_clip(&s, &c->alloc, &clip);
        if (r != EAR_OK) {
            *err = r == EAR_E_OUT_OF_MEMORY
                       ? ear__cmd_alloc_error(c, "params.synth",
                                              (size_t)(s.seconds > 0 ? s.seconds : 1.0) *
                                                  EAR__RATE * sizeof(float))
                       : ear__cmd_result_error(r, "params.synth", "the synth refused the part");
            return NULL;
        }
    } else {
        char path[4096];
        if ((*err = ear__cmd_path(c, ear__str(params, "path"), false, "params.path", path,
                                  sizeof path)))
            return NULL;
        ear_io_error io;
        r = ear_decode_file(path, &c->alloc, &clip, &io);
        if (r == EAR_E_OUT_OF_MEMORY) {
            *err = ear__cmd_alloc_error(c, "params.path", 0);
            return NULL;
        }
        if (r != EAR_OK) {
            const char *code = r == EAR_E_NOT_FOUND ? "E_NOT_FOUND" : "E_BAD_PARAM";
            *err = ear_command_error(code, "params.path", "params.path: %s", io.message);
            if (r == EAR_E_NOT_FOUND) json_object_set_new(*err, "name", json_string(path));
            return NULL;
        }
    }
    /* The name table (through the budget) and its index make room first: registering
     * in the assets is the one change, and what follows it cannot fail. */
    uint32_t found = ear__name_index_find(&c->clip_index, name, ear__cmd_clip_name, c);
    size_t slot = found == UINT32_MAX ? c->clip_count : found;
    if (slot == c->clip_count &&
        (c->clip_count >= UINT32_MAX / 8 ||
         !ear__name_index_reserve(&c->clip_index, ear__cmd_alloc(c, EAR__PART_NAMES),
                                  (uint32_t)c->clip_count + 1, ear__cmd_clip_name, c))) {
        ear_clip_release(clip);
        *err = ear__cmd_alloc_error(c, "params.name", ear__name_index_bytes(&c->clip_index));
        return NULL;
    }
    if (slot == c->clip_count) {
        /* (clip_count < UINT32_MAX / 8, checked above) */
        uint32_t cap = (uint32_t)c->clip_cap;
        void *items = c->clips;
        if (!ear__grow(ear__cmd_alloc(c, EAR__PART_NAMES), &items, &cap,
                       (uint32_t)c->clip_count + 1, sizeof *c->clips)) {
            ear_clip_release(clip);
            *err = ear__cmd_alloc_error(c, "params.name",
                                        (size_t)(cap ? cap * 2u : 16u) * sizeof *c->clips);
            return NULL;
        }
        c->clips = items;
        c->clip_cap = cap;
    }
    r = ear_assets_register_clip(c->assets, name, clip);
    if (r != EAR_OK) {
        ear_clip_release(clip);
        *err = ear__cmd_result_error(r, "params.name", name);
        return NULL;
    }
    if (slot == c->clip_count) {
        snprintf(c->clips[slot].name, sizeof c->clips[slot].name, "%s", name);
        (void)ear__name_index_add(&c->clip_index, ear__cmd_alloc(c, EAR__PART_NAMES),
                                  c->clips[slot].name, (uint32_t)slot, ear__cmd_clip_name,
                                  c); /* reserved */
        c->clip_count++;
    } else {
        ear_clip_release(c->clips[slot].clip);
    }
    c->clips[slot].clip = clip;
    return json_pack("{s:s, s:I, s:f, s:i, s:i}", "name", name, "frames",
                     (json_int_t)ear_clip_frames(clip), "seconds", ear_clip_seconds(clip),
                     "channels", (int)ear_clip_channels(clip), "sample_rate",
                     (int)ear_clip_sample_rate(clip));
}

/* Resolves a list of sound names through the assets, holding one reference to each. On
 * failure nothing is held and *err names the entry. */
static bool resolve(ear_commands *c, char (*names)[EAR_SOUND_NAME_MAX], uint32_t count,
                    ear_clip **out, const char *where, json_t **err) {
    for (uint32_t i = 0; i < count; i++) {
        char at[96];
        snprintf(at, sizeof at, where, i);
        if ((*err = ear__cmd_check_synth(c, names[i], at))) {
            for (uint32_t j = 0; j < i; j++) ear_clip_release(out[j]);
            return false;
        }
        ear_clip *clip = NULL;
        ear_result r = ear_assets_get(c->assets, names[i], &clip);
        if (r != EAR_OK) {
            for (uint32_t j = 0; j < i; j++) ear_clip_release(out[j]);
            *err = ear__cmd_sound_error(c, r, at, names[i]);
            return false;
        }
        ear_clip_retain(clip);
        out[i] = clip;
    }
    return true;
}

json_t *ear__cmd_blend_define(ear_commands *c, json_t *params, json_t **err) {
    char *text = json_dumps(json_object_get(params, "blend"), JSON_COMPACT);
    ear_blend_source *b = malloc(sizeof *b);
    ear_io_error io;
    ear_result r = text && b ? ear_blend_parse(text, strlen(text), "params.blend", b, &io)
                             : EAR_E_OUT_OF_MEMORY;
    free(text);
    if (r != EAR_OK) {
        *err = r == EAR_E_FORMAT
                   ? ear_command_error("E_BAD_PARAM", "params.blend", "%s", io.message)
                   : ear__cmd_result_error(r, "params.blend", NULL);
        free(b);
        return NULL;
    }
    ear_clip *clips[EAR_BLEND_MAX_LAYERS];
    if (!resolve(c, b->clip_names, b->def.layer_count, clips, "params.blend.layers[%u].clip",
                 err)) {
        free(b);
        return NULL;
    }
    for (uint32_t i = 0; i < b->def.layer_count; i++) b->def.layers[i].clip = clips[i];
    r = ear_stage_register_blend(c->stage, &b->def);
    for (uint32_t i = 0; i < b->def.layer_count; i++) ear_clip_release(clips[i]);
    json_t *result = NULL;
    if (r != EAR_OK) {
        *err = ear__cmd_result_error(r, "params.blend", "the stage refused the blend");
    } else {
        ear__cmd_remember_blend(c, &b->def);
        json_t *ps = json_array();
        for (uint32_t i = 0; i < b->def.param_count; i++)
            json_array_append_new(ps, json_string(b->def.params[i].name));
        result = json_pack("{s:s, s:i, s:o}", "name", b->def.name, "layers",
                           (int)b->def.layer_count, "params", ps);
    }
    free(b);
    return result;
}

json_t *ear__cmd_pool_define(ear_commands *c, json_t *params, json_t **err) {
    json_t *wrapped = json_pack("{s:[O]}", "pools", json_object_get(params, "pool"));
    char *text = wrapped ? json_dumps(wrapped, JSON_COMPACT) : NULL;
    json_decref(wrapped);
    ear_audio_setup *setup = NULL;
    ear_io_error io;
    ear_result r = text ? ear_audio_setup_parse(text, strlen(text), "params", &setup, &io)
                        : EAR_E_OUT_OF_MEMORY;
    free(text);
    if (r != EAR_OK) {
        /* The parser's paths start at the wrapper: "pools[0].clips" is "pool.clips". */
        char *at = strstr(io.message, "pools[0]");
        if (at) memmove(at + 4, at + 8, strlen(at + 8) + 1);
        *err = r == EAR_E_FORMAT
                   ? ear_command_error("E_BAD_PARAM", "params.pool", "%s", io.message)
                   : ear__cmd_result_error(r, "params.pool", NULL);
        return NULL;
    }
    ear_pool_source *p = &setup->pools[0];
    ear_clip *clips[EAR_POOL_MAX_CLIPS];
    json_t *result = NULL;
    if (resolve(c, p->clip_names, p->def.clip_count, clips, "params.pool.clips[%u]", err)) {
        for (uint32_t i = 0; i < p->def.clip_count; i++) p->def.clips[i] = clips[i];
        r = ear_stage_register_pool(c->stage, &p->def);
        for (uint32_t i = 0; i < p->def.clip_count; i++) {
            ear_clip_release(clips[i]);
            p->def.clips[i] = NULL;
        }
        if (r != EAR_OK) {
            *err = ear__cmd_result_error(r, "params.pool", "the stage refused the pool");
        } else {
            ear__cmd_remember(&c->pools, &c->pool_count, &c->pool_cap, p->def.name);
            result =
                json_pack("{s:s, s:i}", "name", p->def.name, "clips", (int)p->def.clip_count);
        }
    }
    ear_audio_setup_destroy(setup);
    return result;
}

json_t *ear__cmd_load(ear_commands *c, json_t *params, json_t **err) {
    char path[4096];
    if ((*err = ear__cmd_path(c, ear__str(params, "path"), false, "params.path", path,
                              sizeof path)))
        return NULL;
    /* The assets folder: the path itself when it is a folder, else the file's folder (the
     * file must be that folder's audio.json). */
    char root[4096];
    size_t n = strlen(path);
    const char *tail = "audio.json";
    size_t tn = strlen(tail);
    if (n >= tn && strcmp(path + n - tn, tail) == 0 && (n == tn || path[n - tn - 1] == '/')) {
        if (n == tn)
            snprintf(root, sizeof root, ".");
        else
            snprintf(root, sizeof root, "%.*s", (int)(n - tn - 1), path);
    } else {
        snprintf(root, sizeof root, "%s", path);
        struct stat st;
        if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
            *err = ear_command_error("E_BAD_PARAM", "params.path",
                                     "params.path: %s is a file, not an assets folder or its "
                                     "audio.json",
                                     path);
            json_object_set_new(*err, "expected",
                                json_string("an assets folder or its audio.json"));
            return NULL;
        }
    }
    ear_assets *assets = NULL;
    ear_result r = ear__cmd_make_assets(c, root, &assets);
    for (size_t i = 0; i < c->clip_count && r == EAR_OK; i++)
        r = ear_assets_register_clip(assets, c->clips[i].name, c->clips[i].clip);
    ear_audio_setup *setup = NULL;
    ear_io_error io = {{0}};
    if (r == EAR_OK) r = ear_assets_load_setup(assets, &setup, &io);
    if (r != EAR_OK) {
        ear_assets_destroy(assets);
        if (r == EAR_E_NOT_FOUND) {
            *err = ear_command_error("E_NOT_FOUND", "params.path",
                                     "params.path: no audio.json in %s", root);
            json_object_set_new(*err, "name", json_string(path));
        } else {
            *err = ear_command_error(r == EAR_E_FORMAT ? "E_BAD_PARAM" : "E_IO", "params.path",
                                     "%s", io.message[0] ? io.message : ear_result_string(r));
        }
        return NULL;
    }
    /* Checked in full: now apply (the same file again, through the mixer). */
    r = ear_assets_apply_setup(assets, c->stage, &io);
    if (r != EAR_OK) {
        ear_audio_setup_destroy(setup);
        ear_assets_destroy(assets);
        *err = ear_command_error("E_BAD_PARAM", "params.path", "%s", io.message);
        return NULL;
    }
    json_t *ducks = json_array(), *blends = json_array(), *pools = json_array();
    for (uint32_t i = 0; i < setup->duck_count; i++) {
        ear__cmd_remember(&c->ducks, &c->duck_count, &c->duck_cap, setup->ducks[i].name);
        json_array_append_new(ducks, json_string(setup->ducks[i].name));
    }
    for (uint32_t i = 0; i < setup->blend_count; i++) {
        ear__cmd_remember_blend(c, &setup->blends[i].def);
        json_array_append_new(blends, json_string(setup->blends[i].def.name));
    }
    for (uint32_t i = 0; i < setup->pool_count; i++) {
        ear__cmd_remember(&c->pools, &c->pool_count, &c->pool_cap, setup->pools[i].def.name);
        json_array_append_new(pools, json_string(setup->pools[i].def.name));
    }
    json_t *clips = json_array();
    for (uint32_t i = 0; i < setup->clip_count; i++)
        json_array_append_new(clips, json_string(setup->clips[i].name));
    ear_audio_setup_destroy(setup);
    ear_assets_destroy(c->assets);
    c->assets = assets;
    snprintf(c->assets_root, sizeof c->assets_root, "%s", root);
    return json_pack("{s:s, s:o, s:o, s:o, s:o}", "assets", root, "clips", clips, "ducks",
                     ducks, "blends", blends, "pools", pools);
}
