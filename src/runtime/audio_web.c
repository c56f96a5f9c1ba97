/* SPDX-License-Identifier: Zlib */
/*
 * The engine's default audio hooks in the web build (audio_device.c's twins): the stage
 * plays through the page's Web Audio context. A ScriptProcessorNode asks for a block of
 * frames; its callback calls ear__web_audio_render, which renders the very same stage
 * the native device plays (ear_stage_render) into one interleaved buffer the page
 * copies into its output channels. Emscripten 3.1.6 has no AudioWorklet, and the page
 * runs one thread, so the callback runs on the game's thread between frames; the
 * stage's command ring is drained at each render as natively.
 *
 * The context is made inside the Start button's click (a browser plays sound only after
 * a user gesture), at the stage's sample rate (the browser resamples to the device's).
 */
#include "runtime_internal.h"

#include <emscripten.h>

#include <stdlib.h>

/* Frames per ScriptProcessorNode callback: 1024 at 48 kHz is 21 ms. */
#define WEB_BLOCK_FRAMES 1024

typedef struct web_audio {
    ear_stage *stage;
    uint32_t channels;
    uint32_t capacity;       /* frames */
    float *buffer;           /* capacity * channels */
    bool limiter_set;        /* the limiter was turned on at attach */
    ear_limiter limiter_was; /* the stage's own setting, given back at detach */
} web_audio;

float *ear__web_audio_render(web_audio *audio, int frames);

/* Renders frames (at most the buffer's) and returns the interleaved samples. Called by
 * the page's audio callback. */
EMSCRIPTEN_KEEPALIVE float *ear__web_audio_render(web_audio *audio, int frames) {
    if (!audio || frames <= 0) return NULL;
    uint32_t n = (uint32_t)frames > audio->capacity ? audio->capacity : (uint32_t)frames;
    ear_stage_render(audio->stage, audio->buffer, n);
    return audio->buffer;
}

/* The page's side (web/page/earshot-web.js): 1 when the node plays, 0 when the page has
 * no Web Audio. */
EM_JS(int, ear__web_audio_open, (void *audio, int rate, int channels, int block), {
    return Module["earAudioOpen"] ? Module["earAudioOpen"](audio, rate, channels, block) : 0;
})
EM_JS(void, ear__web_audio_close, (void), {
    if (Module["earAudioClose"]) Module["earAudioClose"]();
})

ear_result ear__device_attach(ear_stage *stage, void *user, void **out_device) {
    (void)user;
    ear_stage_config sc = ear_stage_get_config(stage);
    web_audio *a = calloc(1, sizeof *a);
    if (!a) return EAR_E_OUT_OF_MEMORY;
    a->stage = stage;
    a->channels = sc.channels;
    a->capacity = WEB_BLOCK_FRAMES;
    a->buffer = calloc((size_t)a->capacity * a->channels, sizeof *a->buffer);
    if (!a->buffer) {
        free(a);
        return EAR_E_OUT_OF_MEMORY;
    }
    /* What reaches the browser's output is limited, as the native device's is: the stage's
     * limiter, turned on before anything renders (docs/stage.md, "Output limiter"). */
    a->limiter_was = ear_stage_get_limiter(stage);
    ear_limiter lim = a->limiter_was;
    lim.enabled = true;
    a->limiter_set = ear_stage_set_limiter(stage, &lim) == EAR_OK;
    if (!a->limiter_set)
        ear_log(EAR_LOG_WARN, "device", "could not turn the output limiter on");
    if (!ear__web_audio_open(a, (int)sc.sample_rate, (int)a->channels, WEB_BLOCK_FRAMES)) {
        if (a->limiter_set) (void)ear_stage_set_limiter(stage, &a->limiter_was);
        free(a->buffer);
        free(a);
        return EAR_E_NO_DEVICE;
    }
    *out_device = a;
    return EAR_OK;
}

void ear__device_update(void *device, void *user) {
    (void)device, (void)user; /* the page's context needs no housekeeping */
}

void ear__device_detach(void *device, void *user) {
    (void)user;
    web_audio *a = device;
    if (!a) return;
    ear__web_audio_close(); /* no callback after this */
    if (a->limiter_set) (void)ear_stage_set_limiter(a->stage, &a->limiter_was);
    free(a->buffer);
    free(a);
}
