/* SPDX-License-Identifier: Zlib */
/*
 * The device player over SDL2's audio callback.
 *
 * Data and invariants. The stage is shared with the callback exactly as the stage's own
 * threading rules say: the callback is its render thread (ear_stage_render only), the
 * game thread everything else. `render_thread_separate` is true while a device is open and
 * false otherwise (muted, no device, lost: the game thread is then the only one that may
 * render). The counters the callback writes are atomics; everything else belongs to the
 * game thread. Between a close (SDL_CloseAudioDevice waits for a running callback to
 * return) and the next open, no callback runs, so switching the stage's mode there is
 * safe.
 *
 * The device turns the stage's output limiter on at open (config.no_limiter keeps it as it
 * is) and gives the stage back its own limiter setting at close.
 *
 * SDL's audio subsystem is initialised once per device object that wants sound (SDL counts
 * its own initialisations) and shut down with it. The mute rule never touches SDL.
 */
#define _POSIX_C_SOURCE 200809L

#include "earshot/device.h"

#include <SDL2/SDL.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Frames rendered and thrown away per call while muted or ending voices without a device. */
#define SCRATCH_FRAMES 1024u
/* 256 frames (5.3 ms at 48 kHz): a call's sound is out within 10 ms of the call
 * (bench/bench_latency: at 48 kHz mean 5.9 ms, worst seen 10.0 ms, against 8.7 / 15.3 ms at
 * 512; docs/performance.md, "Latency"). */
#define EAR__DEVICE_DEFAULT_BUFFER EAR_DEVICE_BUFFER_FRAMES_DEFAULT
/* Muted: at most this much time is caught up at once (a stalled game skips the rest). */
#define MUTED_MAX_CATCH_UP_S 0.25

struct ear_device {
    ear_stage *stage;
    ear_device_config config;
    char *device_name;
    uint32_t sample_rate;
    ear_device_state state;
    bool sdl_ready;          /* SDL_InitSubSystem(SDL_INIT_AUDIO) succeeded */
    SDL_AudioDeviceID id;    /* 0 when none is open */
    uint32_t granted_frames; /* buffer frames the device granted */
    float *scratch;          /* SCRATCH_FRAMES stereo frames, for renders thrown away */

    double muted_start_s;     /* wall clock when muted rendering began */
    uint64_t muted_frames;    /* frames rendered while muted since muted_start_s */
    double next_reopen_s;     /* LOST: when to try again */
    uint32_t failing_reopens; /* test hook: attempts still to fail */
    bool said_no_device;      /* the no-device message is given once */

    _Atomic uint64_t frame; /* the stage frame the next callback starts at */
    _Atomic uint64_t callbacks;
    _Atomic uint64_t frames_rendered;
    _Atomic uint64_t render_ns_max;
    _Atomic uint64_t render_ns_total;
    uint32_t opens, failed_opens, losses;
    bool limiter_set;        /* the device turned the stage's limiter on at open */
    ear_limiter limiter_was; /* the stage's limiter before, restored at close */
};

const char *ear_device_state_name(ear_device_state state) {
    switch (state) {
    case EAR_DEVICE_PLAYING: return "playing";
    case EAR_DEVICE_MUTED: return "muted";
    case EAR_DEVICE_NO_DEVICE: return "no device";
    case EAR_DEVICE_LOST: return "lost";
    }
    return "unknown";
}

ear_device_config ear_device_config_default(void) {
    return (ear_device_config){.buffer_frames = EAR__DEVICE_DEFAULT_BUFFER,
                               .reopen_interval_s = 1.0f};
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The audio thread. Renders straight into SDL's buffer (float stereo, as opened). */
static void SDLCALL audio_callback(void *user, Uint8 *stream, int len) {
    ear_device *d = user;
    uint32_t frames = (uint32_t)len / (uint32_t)(2 * sizeof(float));
    uint64_t frame = atomic_load_explicit(&d->frame, memory_order_relaxed);
    uint64_t t0 = now_ns();
    if (d->config.before_render)
        d->config.before_render(d->config.hook_user, d->stage, frame, frames);
    ear_stage_render(d->stage, (float *)(void *)stream, frames);
    uint64_t dt = now_ns() - t0;
    atomic_store_explicit(&d->frame, frame + frames, memory_order_release);
    atomic_fetch_add_explicit(&d->callbacks, 1u, memory_order_relaxed);
    atomic_fetch_add_explicit(&d->frames_rendered, frames, memory_order_relaxed);
    atomic_fetch_add_explicit(&d->render_ns_total, dt, memory_order_relaxed);
    if (dt > atomic_load_explicit(&d->render_ns_max, memory_order_relaxed))
        atomic_store_explicit(&d->render_ns_max, dt, memory_order_relaxed);
}

/* Opens and starts the device; false (with SDL's reason in `why`) when none will open. */
static bool open_sdl_device(ear_device *d, char *why, size_t why_cap) {
    if (d->failing_reopens > 0) {
        d->failing_reopens--;
        snprintf(why, why_cap, "no device (simulated)");
        return false;
    }
    if (!d->sdl_ready) {
        if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
            snprintf(why, why_cap, "%s", SDL_GetError());
            return false;
        }
        d->sdl_ready = true;
    }
    SDL_AudioSpec want, have;
    SDL_zero(want);
    want.freq = (int)d->sample_rate;
    want.format = AUDIO_F32SYS;
    want.channels = 2;
    want.samples = (Uint16)d->config.buffer_frames;
    want.callback = audio_callback;
    want.userdata = d;
    /* No allowed changes: SDL converts to what the card wants, and the stage always renders
     * at its own rate and layout (the same samples an offline render gives). */
    SDL_AudioDeviceID id = SDL_OpenAudioDevice(d->device_name, 0, &want, &have, 0);
    if (id == 0) {
        snprintf(why, why_cap, "%s", SDL_GetError());
        return false;
    }
    d->id = id;
    d->granted_frames = have.samples;
    ear_stage_set_render_thread_separate(d->stage, true);
    d->state = EAR_DEVICE_PLAYING;
    d->opens++;
    SDL_PauseAudioDevice(id, 0);
    return true;
}

static void close_sdl_device(ear_device *d) {
    if (d->id) {
        SDL_CloseAudioDevice(d->id); /* waits for a running callback */
        d->id = 0;
    }
    ear_stage_set_render_thread_separate(d->stage, false);
}

static bool env_mutes(void) {
    const char *m = getenv("EARSHOT_MUTE");
    return m && strcmp(m, "1") == 0;
}

ear_result ear_device_open(ear_stage *stage, const ear_device_config *config,
                           ear_device **out_device) {
    if (!stage || !out_device) return EAR_E_INVALID_ARG;
    ear_device_config c = config ? *config : ear_device_config_default();
    if (c.buffer_frames == 0) c.buffer_frames = EAR__DEVICE_DEFAULT_BUFFER;
    if (c.reopen_interval_s == 0.0f) c.reopen_interval_s = 1.0f;
    if (c.buffer_frames < 64 || c.buffer_frames > 16384 || !(c.reopen_interval_s > 0.0f) ||
        c.reopen_interval_s > 3600.0f)
        return EAR_E_INVALID_ARG;
    ear_stage_config sc = ear_stage_get_config(stage);
    if (sc.channels != 2) return EAR_E_INVALID_ARG;

    ear_device *d = calloc(1, sizeof *d);
    if (!d) return EAR_E_OUT_OF_MEMORY;
    d->scratch = malloc(SCRATCH_FRAMES * 2 * sizeof(float));
    if (c.device_name) {
        size_t n = strlen(c.device_name) + 1;
        d->device_name = malloc(n);
        if (d->device_name) memcpy(d->device_name, c.device_name, n);
    }
    if (!d->scratch || (c.device_name && !d->device_name)) {
        free(d->scratch);
        free(d->device_name);
        free(d);
        return EAR_E_OUT_OF_MEMORY;
    }
    d->stage = stage;
    d->config = c;
    d->config.device_name = d->device_name;
    d->sample_rate = sc.sample_rate;
    atomic_init(&d->frame, ear_stage_frames_rendered(stage));
    atomic_init(&d->callbacks, 0);
    atomic_init(&d->frames_rendered, 0);
    atomic_init(&d->render_ns_max, 0);
    atomic_init(&d->render_ns_total, 0);

    /* What reaches the sound card is limited (unless the config says no): the stage's own
     * limiter settings, turned on, before anything renders; close restores them. */
    if (!c.no_limiter) {
        ear_limiter lim = ear_stage_get_limiter(stage);
        d->limiter_was = lim;
        lim.enabled = true;
        if (ear_stage_set_limiter(stage, &lim) == EAR_OK)
            d->limiter_set = true;
        else
            ear_log(EAR_LOG_WARN, "device", "could not turn the output limiter on");
    }

    if (c.mute || env_mutes()) {
        d->state = EAR_DEVICE_MUTED;
        d->muted_start_s = now_s();
        ear_log(EAR_LOG_INFO, "device", "muted: no audio device is opened");
    } else {
        char why[256];
        if (!open_sdl_device(d, why, sizeof why)) {
            d->state = EAR_DEVICE_NO_DEVICE;
            d->failed_opens++;
            d->said_no_device = true;
            ear_log(EAR_LOG_WARN, "device", "no audio device (%s): running silently", why);
        }
    }
    *out_device = d;
    return EAR_OK;
}

void ear_device_close(ear_device *d) {
    if (!d) return;
    close_sdl_device(d);
    if (d->limiter_set) (void)ear_stage_set_limiter(d->stage, &d->limiter_was);
    if (d->sdl_ready) SDL_QuitSubSystem(SDL_INIT_AUDIO);
    free(d->scratch);
    free(d->device_name);
    free(d);
}

/* Renders `frames` frames on the game thread and throws them away. */
static void render_away(ear_device *d, uint64_t frames) {
    while (frames > 0) {
        uint32_t n = frames < SCRATCH_FRAMES ? (uint32_t)frames : SCRATCH_FRAMES;
        ear_stage_render(d->stage, d->scratch, n);
        frames -= n;
    }
}

static void update_muted(ear_device *d) {
    double elapsed = now_s() - d->muted_start_s;
    uint64_t due = (uint64_t)(elapsed * (double)d->sample_rate);
    if (due <= d->muted_frames) return;
    uint64_t behind = due - d->muted_frames;
    uint64_t cap = (uint64_t)(MUTED_MAX_CATCH_UP_S * d->sample_rate);
    if (behind > cap) {
        /* A stalled game: skip ahead rather than render seconds at once. */
        d->muted_frames += behind - cap;
        behind = cap;
    }
    render_away(d, behind);
    d->muted_frames += behind;
    atomic_fetch_add_explicit(&d->frames_rendered, behind, memory_order_relaxed);
}

/* No device: every voice ends now (stop_all's 5 ms fade, rendered away at once). */
static void update_no_device(ear_device *d) {
    if (ear_stage_voice_count(d->stage) == 0) return;
    ear_stage_stop_all(d->stage);
    ear_stage_config sc = ear_stage_get_config(d->stage);
    uint64_t fade = (uint64_t)(0.005 * d->sample_rate) + 1;
    render_away(d, fade + 3u * sc.block_frames);
    ear_stage_update(d->stage);
}

void ear_device_update(ear_device *d) {
    if (!d) return;
    bool hooked = d->config.before_render != NULL;
    switch (d->state) {
    case EAR_DEVICE_PLAYING:
        if (d->id && SDL_GetAudioDeviceStatus(d->id) == SDL_AUDIO_STOPPED) {
            /* SDL disables a removed device (and sends SDL_AUDIODEVICEREMOVED). */
            close_sdl_device(d);
            d->state = EAR_DEVICE_LOST;
            d->losses++;
            d->next_reopen_s = now_s();
            ear_log(EAR_LOG_WARN, "device", "the audio device was lost; reopening it");
        }
        break;
    case EAR_DEVICE_MUTED: update_muted(d); break;
    case EAR_DEVICE_NO_DEVICE: update_no_device(d); break;
    case EAR_DEVICE_LOST: break;
    }
    if (d->state == EAR_DEVICE_LOST && now_s() >= d->next_reopen_s) {
        char why[256];
        if (open_sdl_device(d, why, sizeof why)) {
            ear_log(EAR_LOG_INFO, "device", "the audio device is back");
        } else {
            d->failed_opens++;
            d->next_reopen_s = now_s() + d->config.reopen_interval_s;
        }
    }
    if (!hooked) ear_stage_update(d->stage);
}

ear_device_state ear_device_get_state(const ear_device *d) {
    return d ? d->state : EAR_DEVICE_NO_DEVICE;
}

bool ear_device_is_audible(const ear_device *d) {
    return d && d->state == EAR_DEVICE_PLAYING;
}

ear_device_stats ear_device_get_stats(const ear_device *d) {
    ear_device_stats s = {0};
    if (!d) return s;
    s.sample_rate = d->sample_rate;
    s.buffer_frames = d->granted_frames ? d->granted_frames : d->config.buffer_frames;
    s.callbacks = atomic_load(&((ear_device *)d)->callbacks);
    s.frames = atomic_load(&((ear_device *)d)->frames_rendered);
    s.render_ns_max = atomic_load(&((ear_device *)d)->render_ns_max);
    s.render_ns_total = atomic_load(&((ear_device *)d)->render_ns_total);
    s.opens = d->opens;
    s.failed_opens = d->failed_opens;
    s.losses = d->losses;
    return s;
}

ear_stage_call_latency ear_device_get_latency(const ear_device *d) {
    if (!d) return (ear_stage_call_latency){0};
    return ear_stage_get_call_latency(d->stage, ear_device_get_stats(d).buffer_frames);
}

ear_result ear_device_simulate_loss(ear_device *d, uint32_t failing_reopens) {
    if (!d) return EAR_E_INVALID_ARG;
    if (d->state != EAR_DEVICE_PLAYING) return EAR_E_STATE;
    close_sdl_device(d);
    d->state = EAR_DEVICE_LOST;
    d->losses++;
    d->failing_reopens = failing_reopens;
    d->next_reopen_s = now_s();
    ear_log(EAR_LOG_WARN, "device", "the audio device was lost; reopening it");
    return EAR_OK;
}
