/* SPDX-License-Identifier: Zlib */
/*
 * The device player: Earshot's whole surface onto the sound card (SDL2). It plays a stage
 * from the audio device's callback, so what a player hears is what an offline render of
 * the same calls measures. See docs/modules/device.md.
 *
 * Threads. The callback (SDL's audio thread) only renders the stage: it takes no lock of
 * ours, allocates nothing, logs nothing. The game thread keeps calling the stage as it
 * always does (the command ring carries every change), reads back what the stage
 * publishes (a voice finished, its cursor), and calls ear_device_update once a frame, which
 * frees the clips of ended voices on the game thread and watches the device.
 *
 * States. PLAYING: a device plays the stage. MUTED (the mute rule: EARSHOT_MUTE=1 in the
 * environment, or config.mute): no device is opened and everything else behaves like a
 * real run (update renders the stage in real time and throws the samples away, so sounds
 * end when they would). NO_DEVICE (no sound card, or it will not open): said once, silent,
 * and update ends every sound, so every sound reads as finished and gameplay waiting on one
 * moves on. LOST (the device went away while playing): nothing renders, voices hold where
 * they are; update reopens the device at the same rate and layout, trying again every
 * reopen_interval_s while none opens, and what was playing carries on.
 */
#ifndef EARSHOT_DEVICE_H
#define EARSHOT_DEVICE_H

#include "earshot/core.h"
#include "earshot/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ear_device_state {
    EAR_DEVICE_PLAYING = 0,
    EAR_DEVICE_MUTED,
    EAR_DEVICE_NO_DEVICE,
    EAR_DEVICE_LOST,
} ear_device_state;

/* "playing", "muted", "no device", "lost". Thread: any. */
const char *ear_device_state_name(ear_device_state state);

/* Called on the audio thread at the start of every callback, before the stage renders
 * `frames` frames starting at stage frame `frame`. For tests and tools that script the
 * stage in step with the device: while a hook is set, the hook is the stage's game side
 * (the game thread must not call the stage, and ear_device_update leaves it alone). */
typedef void (*ear_device_hook)(void *user, ear_stage *stage, uint64_t frame, uint32_t frames);

typedef struct ear_device_config {
    uint32_t buffer_frames;        /* frames per callback; default 256 (64..16384) */
    bool mute;                     /* default false; EARSHOT_MUTE=1 mutes too */
    float reopen_interval_s;       /* default 1 s */
    const char *device_name;       /* an SDL output name; NULL: the default output */
    ear_device_hook before_render; /* default NULL */
    void *hook_user;
    bool no_limiter; /* default false: while the device is open the stage's output limiter
                        is on (ear_stage_set_limiter with the stage's own settings, enabled;
                        the output then lags by its lookahead, 2 ms by default); close
                        restores the stage's setting. true: the stage's limiter is left
                        as it is. */
} ear_device_config;

/* The defaults above. Thread: any. */
ear_device_config ear_device_config_default(void);

typedef struct ear_device ear_device;

/* Opens the default output (or device_name) at the stage's rate, stereo, 32-bit float (SDL
 * converts if the card wants something else), turns the stage's output limiter on (unless
 * config.no_limiter), and starts playing the stage. The stage must
 * outlive the device. Muted, nothing is opened; when no device will open, that is said once
 * (log warning, module "device") and the device runs silent: both return EAR_OK, and
 * ear_device_get_state says which. Fails only with EAR_E_INVALID_ARG (NULLs, a bad config,
 * a stage that is not stereo) or EAR_E_OUT_OF_MEMORY. One device per stage.
 * Thread: game. */
ear_result ear_device_open(ear_stage *stage, const ear_device_config *config,
                           ear_device **out_device);

/* Stops the callback (waiting for a running one to return), closes the device and frees
 * it. The stage is left as it was (voices stay; render it offline or attach it again; its
 * limiter setting is the one it had before the device opened).
 * NULL does nothing. Thread: game. */
void ear_device_close(ear_device *device);

/* Game-thread housekeeping, once a frame: ear_stage_update (ended voices' clips are freed
 * here, never on the audio thread); MUTED: renders the stage up to the wall clock;
 * NO_DEVICE: ends every voice; PLAYING: notices a lost device; LOST: tries to reopen when
 * the interval has passed. Thread: game. */
void ear_device_update(ear_device *device);

/* The device's state (EAR_DEVICE_NO_DEVICE for NULL). Thread: game. */
ear_device_state ear_device_get_state(const ear_device *device);

/* True only while a device plays the stage: false when muted, without a device, or lost.
 * This is how attaching reports that nothing plays. Thread: game. */
bool ear_device_is_audible(const ear_device *device);

typedef struct ear_device_stats {
    uint32_t sample_rate;   /* the stage's (and the device's) rate */
    uint32_t buffer_frames; /* frames per callback, as the device granted */
    uint64_t callbacks;     /* callbacks that rendered */
    uint64_t frames;        /* frames rendered by callbacks (and, muted, by update) */
    uint64_t render_ns_max; /* the longest callback render */
    uint64_t render_ns_total;
    uint32_t opens;        /* devices opened, the first included */
    uint32_t failed_opens; /* attempts that failed (no device, or while lost) */
    uint32_t losses;       /* times the device was lost */
} ear_device_stats;

/* Counters (atomics written by the callback). Thread: game. */
ear_device_stats ear_device_get_stats(const ear_device *device);

/* The time from a call to its sound at this device's output, at the buffer it was granted
 * (ear_stage_get_call_latency: best and worst in frames and ms). Thread: game. */
ear_stage_call_latency ear_device_get_latency(const ear_device *device);

/* For tests: acts as if the device had been removed (SDL's removal event): closes it and
 * goes LOST; the next `failing_reopens` attempts to reopen fail as if no device were
 * there. EAR_E_STATE unless PLAYING. Thread: game. */
ear_result ear_device_simulate_loss(ear_device *device, uint32_t failing_reopens);

#ifdef __cplusplus
}
#endif

#endif
