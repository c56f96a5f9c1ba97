/* SPDX-License-Identifier: Zlib */
/*
 * audio.json from the assets folder: read, parsed (setup_parse.c), its clip names
 * registered, and every blend layer's and pool's sound resolved through the cache. A
 * resolved source holds one reference to each of its clips, released by
 * ear__assets_unresolve_* (the stage takes references of its own when it registers them).
 */
#include "assets_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ear_result resolve_clip(ear_assets *a, const char *name, const char *label,
                               const char *where, ear_io_error *err, ear_clip **out) {
    ear_clip *clip = NULL;
    a->last_load_error[0] = '\0';
    ear_result r = ear_assets_get(a, name, &clip);
    if (r == EAR_OK) {
        ear_clip_retain(clip);
        *out = clip;
        return EAR_OK;
    }
    if (err) {
        if (r == EAR_E_NOT_FOUND)
            snprintf(err->message, sizeof err->message,
                     "%.200s: %.150s: no sound named \"%.100s\"", label, where, name);
        else if (a->last_load_error[0] && r != EAR_E_OUT_OF_MEMORY)
            snprintf(err->message, sizeof err->message,
                     "%.150s: %.60s: sound \"%.40s\" will not load: %.220s", label, where, name,
                     a->last_load_error);
        else
            snprintf(err->message, sizeof err->message,
                     "%.200s: %.150s: sound \"%.100s\" will not load (%s)", label, where, name,
                     ear_result_string(r));
    }
    return r == EAR_E_NOT_FOUND ? EAR_E_FORMAT : r;
}

ear_result ear__assets_resolve_blend(ear_assets *a, ear_blend_source *b, const char *label,
                                     const char *path, ear_io_error *err) {
    for (uint32_t i = 0; i < b->def.layer_count; i++) {
        char where[300];
        snprintf(where, sizeof where, "%s%slayers[%u].clip", path, *path ? "." : "", i);
        ear_result r =
            resolve_clip(a, b->clip_names[i], label, where, err, &b->def.layers[i].clip);
        if (r != EAR_OK) {
            ear__assets_unresolve_blend(b);
            return r;
        }
    }
    return EAR_OK;
}

ear_result ear__assets_resolve_pool(ear_assets *a, ear_pool_source *p, const char *label,
                                    const char *path, ear_io_error *err) {
    for (uint32_t i = 0; i < p->def.clip_count; i++) {
        char where[300];
        snprintf(where, sizeof where, "%s.clips[%u]", path, i);
        ear_result r = resolve_clip(a, p->clip_names[i], label, where, err, &p->def.clips[i]);
        if (r != EAR_OK) {
            ear__assets_unresolve_pool(p);
            return r;
        }
    }
    return EAR_OK;
}

ear_result ear_assets_load_setup(ear_assets *a, ear_audio_setup **out_setup,
                                 ear_io_error *err) {
    if (!a || !out_setup) return EAR_E_INVALID_ARG;
    ear__assets_forget_missing(a);
    char path[4096];
    snprintf(path, sizeof path, "%s/audio.json", a->root);
    char *text;
    size_t len;
    ear_result r = ear__assets_read_file(a, path, &text, &len, err);
    if (r == EAR_E_NOT_FOUND && err) err->message[0] = '\0';
    if (r != EAR_OK) return r;
    ear_audio_setup *s = NULL;
    r = ear_audio_setup_parse(text, len, path, &s, err);
    free(text);
    if (r != EAR_OK) return r;

    /* The "clips" names first: blends and pools may use them. */
    for (uint32_t i = 0; i < s->clip_count; i++) {
        char file[4096];
        if (s->clips[i].file[0] == '/')
            snprintf(file, sizeof file, "%s", s->clips[i].file);
        else
            snprintf(file, sizeof file, "%s/sounds/%s", a->root, s->clips[i].file);
        /* Outside the allowed folders reads exactly as a missing file. The check is the
         * one every read makes (a FIFO is refused, not waited on). */
        char why[EAR_ERROR_TEXT_MAX] = "";
        int fd = -1;
        ear_result opened =
            ear__assets_allowed(a, file)
                ? ear_file_open_read(file, EAR_FILE_MAX_SOUND_BYTES, &fd, NULL, why, sizeof why)
                : EAR_E_NOT_FOUND;
        if (opened == EAR_OK)
            close(fd);
        else {
            if (err && opened == EAR_E_NOT_FOUND)
                snprintf(err->message, sizeof err->message,
                         "%.200s: clips.%.100s: no file %.180s", path, s->clips[i].name, file);
            else if (err)
                snprintf(err->message, sizeof err->message, "%.150s: clips.%.80s: %.250s", path,
                         s->clips[i].name, why);
            ear_audio_setup_destroy(s);
            return EAR_E_FORMAT;
        }
        r = ear__assets_set_alias(a, s->clips[i].name, file);
        if (r != EAR_OK) {
            ear_audio_setup_destroy(s);
            return r;
        }
    }
    s->clips_resolved = true;
    uint32_t blends = s->blend_count, pools = s->pool_count;
    /* destroy releases only the sources resolved so far. */
    s->blend_count = 0;
    s->pool_count = 0;
    for (uint32_t i = 0; i < blends; i++) {
        char where[32];
        snprintf(where, sizeof where, "blends[%u]", i);
        r = ear__assets_resolve_blend(a, &s->blends[i], path, where, err);
        if (r != EAR_OK) {
            ear_audio_setup_destroy(s);
            return r;
        }
        s->blend_count++;
    }
    for (uint32_t i = 0; i < pools; i++) {
        char where[32];
        snprintf(where, sizeof where, "pools[%u]", i);
        r = ear__assets_resolve_pool(a, &s->pools[i], path, where, err);
        if (r != EAR_OK) {
            ear_audio_setup_destroy(s);
            return r;
        }
        s->pool_count++;
    }
    *out_setup = s;
    return EAR_OK;
}
