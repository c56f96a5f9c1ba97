/* SPDX-License-Identifier: Zlib */
/*
 * An audio.json setup's lifetime, below the parser and the loader, which both end one: a
 * resolved source's clip references released (ear__assets_unresolve_*) and the setup
 * freed. The native parser (setup_parse.c), the web build's refusing one
 * (setup_parse_web.c) and the loader (setup_load.c) share it.
 */
#include "assets_internal.h"

#include <stdlib.h>

void ear__assets_unresolve_blend(ear_blend_source *b) {
    for (uint32_t i = 0; i < b->def.layer_count; i++) {
        ear_clip_release(b->def.layers[i].clip);
        b->def.layers[i].clip = NULL;
    }
}

void ear__assets_unresolve_pool(ear_pool_source *p) {
    for (uint32_t i = 0; i < p->def.clip_count; i++) {
        ear_clip_release(p->def.clips[i]);
        p->def.clips[i] = NULL;
    }
}

void ear_audio_setup_destroy(ear_audio_setup *s) {
    if (!s) return;
    if (s->clips_resolved) {
        for (uint32_t i = 0; i < s->blend_count; i++)
            ear__assets_unresolve_blend(&s->blends[i]);
        for (uint32_t i = 0; i < s->pool_count; i++) ear__assets_unresolve_pool(&s->pools[i]);
    }
    free(s->ducks);
    free(s->clips);
    free(s->blends);
    free(s->pools);
    free(s);
}
