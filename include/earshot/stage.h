/* SPDX-License-Identifier: Zlib */
/*
 * The sound stage: a deterministic software mixer that places sounds in 3D and
 * renders them to a buffer. It has no clock, no thread, no I/O and no hidden
 * randomness. The offline renderer and the audio device play the very same code.
 *
 * Threads. Functions marked "Thread: game" are called from one thread, the one
 * that owns the stage (the producer). They never block and never wait for the
 * mixer: each change becomes a command on a single-producer/single-consumer ring
 * that ear_stage_render drains at the start of every control block.
 * ear_stage_render is "Thread: audio" (the consumer): it allocates nothing (the
 * stage's memory is all allocated at create), takes no lock, logs nothing and
 * touches no file. Offline, one thread is both.
 *
 * See docs/stage.md for the model and every formula, with units and defaults.
 */
#ifndef EARSHOT_STAGE_H
#define EARSHOT_STAGE_H

#include "earshot/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Clips ---------------------------------------------------------------------- */

/* Mono or stereo float samples at their own rate, shared by reference count. A
 * playing voice holds a reference, so a clip outlives every voice that plays it,
 * and fifty voices of one clip cost fifty cursors, not fifty copies. */
typedef struct ear_clip ear_clip;

/* Creates a clip of `frames` frames of `channels` (1 or 2) interleaved samples at
 * `sample_rate` Hz (1000..384000), copying `samples` (NULL: the clip starts silent
 * and may be filled through ear_clip_data_mut before it is first played). The new
 * clip has one reference, owned by the caller. Non-finite samples are stored as 0.
 * Fails with EAR_E_INVALID_ARG (zero frames, bad channels or rate) or
 * EAR_E_OUT_OF_MEMORY. alloc NULL: the default allocator. Thread: any. */
ear_result ear_clip_create(const float *samples, uint64_t frames, uint32_t channels,
                           uint32_t sample_rate, const ear_allocator *alloc,
                           ear_clip **out_clip);

/* Clip storage flags for ear_clip_create_ex. EAR_CLIP_S16: the samples are stored as
 * 16-bit integers (2 bytes a sample instead of 4: half a game's sound memory and half the
 * bytes a voice reads); each float s is stored as q = round(s * 32768) clamped to
 * -32768 .. 32767 (ties away from zero; not finite: 0) and played as q / 32768, so the
 * stage renders a 16-bit clip bit for bit as the float clip of the values q / 32768. */
#define EAR_CLIP_S16 1u

/* ear_clip_create with storage flags (0 or EAR_CLIP_S16; any other bit:
 * EAR_E_INVALID_ARG). A 16-bit clip made with samples == NULL is silent and may be
 * filled through ear_clip_data_s16_mut. Thread: any. */
ear_result ear_clip_create_ex(const float *samples, uint64_t frames, uint32_t channels,
                              uint32_t sample_rate, uint32_t flags, const ear_allocator *alloc,
                              ear_clip **out_clip);

/* A 16-bit clip (EAR_CLIP_S16) from 16-bit samples (frames * channels interleaved, as a
 * 16-bit WAV holds them), copied as they are (NULL: silent). The errors of
 * ear_clip_create. Thread: any. */
ear_result ear_clip_create_s16(const int16_t *samples, uint64_t frames, uint32_t channels,
                               uint32_t sample_rate, const ear_allocator *alloc,
                               ear_clip **out_clip);

/* Creates a clip that takes `samples` (frames * channels interleaved floats) instead of
 * copying them: they must have come from `alloc`'s alloc_fn or realloc_fn (NULL: the
 * default allocator), and the clip frees them with its free_fn when the last reference
 * goes. For decoders that fill a buffer as they go: nothing is copied and nothing is
 * zeroed. Non-finite samples are set to 0 in place. On failure (the errors of
 * ear_clip_create) the samples stay the caller's, untouched. Thread: any. */
ear_result ear_clip_adopt(float *samples, uint64_t frames, uint32_t channels,
                          uint32_t sample_rate, const ear_allocator *alloc,
                          ear_clip **out_clip);

/* Adds a reference. Thread: any (atomic). NULL does nothing. */
void ear_clip_retain(ear_clip *clip);
/* Drops a reference; the last one frees the clip through its allocator. Never
 * called by the stage on the audio thread (finished clips go back to the game
 * thread). Thread: any (atomic). NULL does nothing. */
void ear_clip_release(ear_clip *clip);

/* Frames, channels and sample rate, fixed at creation. Thread: any. */
uint64_t ear_clip_frames(const ear_clip *clip);
uint32_t ear_clip_channels(const ear_clip *clip);
uint32_t ear_clip_sample_rate(const ear_clip *clip);
/* Length in seconds (frames / sample rate). Thread: any. */
double ear_clip_seconds(const ear_clip *clip);
/* The interleaved samples of a float clip (borrowed; valid while a reference is held);
 * NULL for a 16-bit clip. Thread: any. */
const float *ear_clip_data(const ear_clip *clip);
/* Writable samples, for filling a clip made with samples == NULL (NULL for a 16-bit
 * clip). Writing to a clip that a voice is playing is a data race: fill first, then play.
 * Thread: the one filling it, before any voice plays it. */
float *ear_clip_data_mut(ear_clip *clip);
/* The same for a 16-bit clip's samples (NULL for a float clip). Thread: as above. */
const int16_t *ear_clip_data_s16(const ear_clip *clip);
int16_t *ear_clip_data_s16_mut(ear_clip *clip);
/* The clip's storage flags: EAR_CLIP_S16 or 0. Thread: any. */
uint32_t ear_clip_flags(const ear_clip *clip);
/* The current number of references (for tests and diagnostics). Thread: any (atomic). */
uint32_t ear_clip_refcount(const ear_clip *clip);

/* ---- Stage configuration ------------------------------------------------------------- */

/* Which mixing kernel renders the voices. Every kernel computes the same formulas;
 * outputs differ only by floating-point rounding (at most 1e-5 on full-scale
 * signals). Each kernel is deterministic: the same calls give the same bits. */
typedef enum ear_kernel {
    EAR_KERNEL_AUTO = 0, /* the fastest this CPU runs (AVX-512, else AVX2+FMA on x86-64,
                            else scalar) */
    EAR_KERNEL_SCALAR,   /* portable C, the reference */
    EAR_KERNEL_AVX2,     /* x86-64 with AVX2 and FMA; EAR_E_UNSUPPORTED elsewhere */
    EAR_KERNEL_AVX512,   /* x86-64 with AVX-512 F, BW, DQ and VL (and AVX2+FMA): the AVX2
                            kernel's output bit for bit, faster; EAR_E_UNSUPPORTED elsewhere */
} ear_kernel;

/* The output limiter on the master (docs/stage.md, "The output limiter"): a lookahead peak
 * limiter with linked stereo gain that keeps every output sample within the ceiling. The
 * output is delayed by the lookahead while it is on; where the gain is 1 (no peak above
 * the ceiling within the lookahead and the release has recovered) each sample passes
 * bit for bit. Off by default, so that offline renders measure the mix as it is; the
 * device (device.h) turns it on. Zero fields mean their defaults, so
 * (ear_limiter){.enabled = true} is the default limiter. */
typedef struct ear_limiter {
    bool enabled;       /* default false */
    float ceiling_db;   /* dBFS, the largest |sample| allowed and the threshold (the two are
                           one value); 0 means the default -1 dBFS; -60 .. 0 (exclusive) */
    float lookahead_ms; /* the delay the gain has to reach its target before a peak; 0 means
                           the default 2 ms; up to 10 ms (at least one frame) */
    float release_ms;   /* time constant of the gain's return to 1 (1 - gain decays as
                           exp(-t / release)); 0 means the default 50 ms; up to 10000 ms */
} ear_limiter;

typedef struct ear_stage_config {
    uint32_t sample_rate;           /* output rate in Hz; default 48000 (8000..384000) */
    uint32_t channels;              /* output channels; default 2 (only stereo for now) */
    uint32_t block_frames;          /* control block in frames; default 160 (16..4096) */
    uint32_t max_voices;            /* voices rendered per block; default 64 */
    uint32_t max_total_voices;      /* voices that may exist at once; default 512 (<= 65503) */
    uint32_t command_capacity;      /* commands the ring holds; default 8192 (a power of two) */
    uint32_t max_blend_voices;      /* blend voices existing at once; default 32 (<= 4096) */
    uint64_t seed;                  /* seed of the stage's random generator; default 1 */
    float speed_of_sound;           /* metres per second; default 343 */
    float doppler_scale;            /* multiplies every voice's doppler factor; default 1 */
    const ear_allocator *allocator; /* NULL: malloc/realloc/free */
    ear_kernel kernel;              /* mixing kernel; default EAR_KERNEL_AUTO. The stage's
                                       get_config reports the kernel AUTO chose. */
    bool no_reverb;                 /* default false: the stage has a room reverb (mixer.h),
                                       its delay lines sized at create (about 400 KB at
                                       48 kHz); true: no reverb, no memory for it */
    ear_limiter limiter;            /* the output limiter at create; default off (see
                                       ear_limiter; ear_stage_set_limiter changes it) */
} ear_stage_config;

/* The defaults listed above. Thread: any. */
ear_stage_config ear_stage_config_default(void);

typedef struct ear_stage ear_stage;

/* Creates a stage (config NULL: defaults). Everything the mixer needs is allocated
 * here, so rendering allocates nothing later. Fails with EAR_E_INVALID_ARG naming
 * nothing else changed, EAR_E_UNSUPPORTED (a kernel this CPU or build cannot run), or
 * EAR_E_OUT_OF_MEMORY. Thread: game. */
ear_result ear_stage_create(const ear_stage_config *config, ear_stage **out_stage);

/* Stops everything at once and frees the stage and its references to clips.
 * NULL does nothing. Thread: game, with no render running. */
void ear_stage_destroy(ear_stage *stage);

/* The configuration the stage was created with (defaults filled in; kernel AUTO resolved to
 * the kernel chosen). Thread: any. */
ear_stage_config ear_stage_get_config(const ear_stage *stage);

/* ---- Voices ------------------------------------------------------------------------ */

/* A voice handle: slot index in the low 16 bits, generation above. 0 is never a
 * valid id. Once the voice ends, its id is stale: calls with it return
 * EAR_E_STALE_ID, never touch another voice. */
typedef uint32_t ear_voice_id;
#define EAR_VOICE_NONE ((ear_voice_id)0)

typedef enum ear_distance_model {
    EAR_MODEL_DEFAULT = 0, /* EAR_MODEL_INVERSE */
    EAR_MODEL_INVERSE,     /* ref / (ref + rolloff * (d - ref)) */
    EAR_MODEL_LINEAR,      /* 1 - rolloff * (d - ref) / (max - ref), floored at 0 */
    EAR_MODEL_EXPONENTIAL, /* (d / ref) ^ -rolloff */
    EAR_MODEL_NONE,        /* 1 */
    EAR_MODEL_FADE,        /* (ref / d) ^ rolloff * (1 - t^2), t = (d - ref) / (max - ref):
                              reaches silence at max (the audio-game model) */
} ear_distance_model;

/* Distance attenuation. d is clamped to [ref, max] before the formula.
 * Zero fields mean: model INVERSE, ref 1 m, max 100 m, rolloff 1. */
typedef struct ear_attenuation {
    ear_distance_model model;
    float ref_distance_m;
    float max_distance_m;
    float rolloff;
} ear_attenuation;

/* True when a sound at distance_m with this attenuation is silent because it is at or
 * beyond its max distance, where its model reaches silence: EAR_MODEL_FADE, or
 * EAR_MODEL_LINEAR with rolloff >= 1 and max above ref (a linear range at or below ref
 * does not attenuate at all, so it is audible everywhere). Zero or negative fields take
 * their defaults, as ear_play's do. The one rule for dropping a request before it takes a
 * voice (ear_stage_play_event; the world's sound events). Thread: any. */
bool ear_attenuation_silent_at(const ear_attenuation *attenuation, float distance_m);

/* A directional cone: full opening angles in radians. Inside the inner cone the gain
 * is 1, outside the outer cone outer_gain, linear in between (in angle). A cone with
 * outer_angle == 0 is off (the voice is omnidirectional). */
typedef struct ear_cone {
    float inner_angle_rad;
    float outer_angle_rad;
    float outer_gain;
} ear_cone;

/* The buses. Every voice plays on one; each bus has a volume, a mute and fades, and
 * the master scales all of them (see mixer.h). */
typedef enum ear_bus {
    EAR_BUS_SFX = 0, /* the default */
    EAR_BUS_MASTER,  /* straight onto the master */
    EAR_BUS_MUSIC,
    EAR_BUS_UI,
    EAR_BUS_ENGINE,
    EAR_BUS_AMBIENCE,
    EAR_BUS_COUNT
} ear_bus;

/* How a placed voice is heard. */
typedef enum ear_spatializer {
    EAR_SPATIALIZER_DEFAULT = 0, /* a voice: the stage's setting; the stage: PAN */
    EAR_SPATIALIZER_PAN,         /* equal-power pan, interaural delay, behind/below cue */
    EAR_SPATIALIZER_HRTF,        /* the loaded HRTF set's filters (headphones); pan while
                                    the stage has no set */
} ear_spatializer;

/* How a voice plays. Zero-initialise and set what you need: every zero field means
 * its documented default, so (ear_play){0} is a flat, centred, one-shot voice at
 * unity volume and pitch. */
typedef struct ear_play {
    bool looping;       /* default false: a one-shot ends at the clip's end */
    bool placed;        /* default false: flat (no 3D); true: placed at position */
    bool no_doppler;    /* default false: placed voices follow doppler */
    bool no_behind_cue; /* default false: the behind/below cue is on */
    float volume;       /* linear gain; 0 means the default 1. Negative or not finite is
                           silence (use -1 to start silent and raise it later) */
    float pitch;        /* playback-rate factor; 0 means 1. Floored at 1/256 */
    float pan;          /* flat voices: balance -1 (left) .. 1 (right); default 0 */
    ear_vec3 position;  /* placed voices, metres */
    ear_vec3 velocity;  /* placed voices, metres per second (doppler) */
    ear_vec3 forward;   /* placed voices: the cone's axis; zero = no direction */
    ear_attenuation attenuation;
    ear_cone cone;
    float doppler_factor;        /* 0 means 1 */
    float smoothing_ms;          /* volume and pitch time constant; 0 means 20 ms */
    float loop_crossfade_s;      /* looping voices: overlap the clip's end with its start
                                    linearly over this time; default 0 (a clean loop) */
    float occlusion;             /* 0 (open) .. 1 (blocked); default 0 */
    uint64_t start_frame;        /* where in the clip to start, in clip frames */
    ear_bus bus;                 /* default EAR_BUS_SFX */
    uint8_t priority;            /* 0 (default, lowest) .. 255: who stays real and who is
                                    stolen when voices run short */
    float reverb_send;           /* 0 (default: dry only) .. 1: the voice's send to the room
                                    reverb (mixer.h, ear_stage_set_reverb_send) */
    ear_spatializer spatializer; /* placed voices; default: the stage's setting */
} ear_play;

/* Starts a voice of `clip` (which gains a reference until the voice ends) and
 * writes its id. Returns EAR_E_INVALID_ARG (NULL clip or stage), or
 * EAR_E_TOO_MANY_VOICES when max_total_voices voices exist. The voice starts at the
 * next control block. Thread: game. */
ear_result ear_stage_play(ear_stage *stage, ear_clip *clip, const ear_play *params,
                          ear_voice_id *out_id);

/* Changes one parameter of a live voice. Volume and pitch follow their new target
 * with the voice's smoothing time constant; everything else is ramped inside the next
 * control block. A gain that is negative or not finite is silence; a pitch that is
 * zero, negative or not finite is floored (1/256); a non-finite vector is ignored
 * with a logged warning (EAR_E_INVALID_ARG). EAR_E_STALE_ID for an ended voice.
 * Thread: game. */
ear_result ear_stage_set_volume(ear_stage *stage, ear_voice_id id, float volume);
ear_result ear_stage_set_pitch(ear_stage *stage, ear_voice_id id, float pitch);
ear_result ear_stage_set_pan(ear_stage *stage, ear_voice_id id, float pan);
ear_result ear_stage_set_position(ear_stage *stage, ear_voice_id id, ear_vec3 position_m);
ear_result ear_stage_set_velocity(ear_stage *stage, ear_voice_id id, ear_vec3 velocity_mps);
/* Position and velocity in one command, as a game sets them each frame (half the cost of
 * two calls). Both must be finite, or neither is applied (EAR_E_INVALID_ARG, warning).
 * Thread: game. */
ear_result ear_stage_set_motion(ear_stage *stage, ear_voice_id id, ear_vec3 position_m,
                                ear_vec3 velocity_mps);
/* The cone's axis (zero: no direction). Thread: game. */
ear_result ear_stage_set_forward(ear_stage *stage, ear_voice_id id, ear_vec3 forward);
/* 0 (open) .. 1 (fully blocked), clamped; smoothed with the voice's time constant.
 * Thread: game. */
ear_result ear_stage_set_occlusion(ear_stage *stage, ear_voice_id id, float occlusion);

/* Fades the voice out linearly over fade_s (at least 5 ms; never a cut) and then
 * ends it. From the call on the voice reads as finished (ear_stage_is_playing is false);
 * it still exists, and counts in ear_stage_voice_count, until its fade has ended.
 * Thread: game. */
ear_result ear_stage_stop(ear_stage *stage, ear_voice_id id, float fade_s);

/* Fades every voice out over 5 ms. EAR_E_INVALID_ARG for a NULL stage;
 * EAR_E_OUT_OF_MEMORY when the command ring is full and its overflow queue cannot grow, and
 * then nothing is stopped (all or nothing). Thread: game. */
ear_result ear_stage_stop_all(ear_stage *stage);

/* True while the voice plays (started or playing); false once it was stopped (and is
 * fading out), stolen or crossfaded out, once it has ended, and for any id that is not a
 * live voice. Thread: game. */
bool ear_stage_is_playing(const ear_stage *stage, ear_voice_id id);

/* The voice's play position in clip frames, as of the last rendered control block (0
 * before its first block; for a virtual voice, as of the last time it was brought up to
 * date, at most 8 blocks before). EAR_E_STALE_ID once it has ended. Thread: game. */
ear_result ear_stage_get_cursor(const ear_stage *stage, ear_voice_id id, uint64_t *out_frames);

/* Number of voices that exist (playing, starting, or fading out after a stop).
 * Thread: game. */
uint32_t ear_stage_voice_count(const ear_stage *stage);

/* ---- Listener ------------------------------------------------------------------------ */

/* The ears. forward and up need not be unit length or exactly perpendicular: the
 * stage makes them orthonormal (up is adjusted). Default: at the origin, still, looking
 * along -Z with +Y up. */
typedef struct ear_listener {
    ear_vec3 position;
    ear_vec3 velocity;
    ear_vec3 forward;
    ear_vec3 up;
} ear_listener;

/* Sets the whole pose; ramped inside the next control block. All or nothing: a vector
 * that is not finite, or a zero forward or up, refuses the whole pose (EAR_E_INVALID_ARG,
 * a warning naming the vector), and so does a full ring whose overflow queue cannot grow
 * (EAR_E_OUT_OF_MEMORY); the listener then stays as it was. Thread: game. */
ear_result ear_stage_set_listener(ear_stage *stage, const ear_listener *listener);
/* The pose last set (defaults before any). Thread: game. */
ear_listener ear_stage_get_listener(const ear_stage *stage);

/* Linear master gain, ramped over one block. Negative or not finite is silence.
 * Default 1. EAR_E_INVALID_ARG for a NULL stage; EAR_E_OUT_OF_MEMORY when the command ring
 * is full and its overflow queue cannot grow, and then the gain is unchanged.
 * Thread: game. */
ear_result ear_stage_set_master_gain(ear_stage *stage, float gain);

/* Sets the output limiter (copied; zero fields take their defaults), from the next control
 * block on. Turning it on starts its delay line empty (the output lags by the lookahead from
 * then on: lookahead frames of silence come first), turning it off drops the lookahead
 * frames it held, and so does a new lookahead: set it before sound plays (the device does
 * so when it opens). A new ceiling or release carries the gain on smoothly. Fails with
 * EAR_E_INVALID_ARG (NULL, a value out of its range or not finite; a warning names it) or
 * EAR_E_OUT_OF_MEMORY (the command ring is full and its overflow queue cannot grow); the
 * limiter is then unchanged. Thread: game. */
ear_result ear_stage_set_limiter(ear_stage *stage, const ear_limiter *limiter);
/* The limiter as last set (or configured), defaults filled in. Thread: game. */
ear_limiter ear_stage_get_limiter(const ear_stage *stage);
/* The limiter's gain in the last rendered control block, in dB: its lowest (0 when it did
 * not reduce, or is off). Thread: any (an atomic the audio side publishes). */
float ear_stage_limiter_gain_db(const ear_stage *stage);
/* Frames by which the output lags the commands, as last set: the limiter's lookahead
 * (round(lookahead_ms * sample_rate / 1000), at least 1) while it is on, else 0.
 * Thread: game. */
uint32_t ear_stage_latency_frames(const ear_stage *stage);

/* The device module's default frames per callback (device.h's buffer_frames): the stage's
 * call latency below is reported at it where no device is open (the command tool). */
#define EAR_DEVICE_BUFFER_FRAMES_DEFAULT 256u

/* The time from a call (ear_stage_play, a move) to its sound at the output of a device
 * that takes buffer_frames frames a callback (docs/performance.md, "Latency"). A call is
 * drained at the next control block the device's next callback renders: a callback starts
 * at a multiple of the buffer, so the wait for a block is at most block - gcd(block,
 * buffer) frames. The limiter's lookahead (ear_stage_latency_frames) follows, and the
 * device then plays what it holds first: up to one buffer more (SDL's double buffer; a
 * sound server or the hardware may add buffers no program sees). bench_latency measures
 * the same bounds from a real device callback's output. */
typedef struct ear_stage_call_latency {
    uint32_t buffer_frames; /* the device's, as given */
    uint32_t block_frames;  /* the stage's control block */
    uint32_t lag_frames;    /* the limiter's lookahead (0 when it is off) */
    uint32_t best_frames;   /* lag: the call just before its block is drained */
    uint32_t worst_frames;  /* block - gcd(block, buffer) + lag + buffer */
    double best_ms, worst_ms;
} ear_stage_call_latency;
/* Thread: game. buffer_frames 0 means EAR_DEVICE_BUFFER_FRAMES_DEFAULT. */
ear_stage_call_latency ear_stage_get_call_latency(const ear_stage *stage,
                                                  uint32_t buffer_frames);

/* ---- Rendering ------------------------------------------------------------------------ */

/* Renders `frames` frames of interleaved output (channels per the config) into out,
 * overwriting it. Commands are drained at each control-block boundary, so the same
 * calls give the same samples whatever the frame counts of the render calls.
 * Thread: audio (offline: the game thread). Returns EAR_E_INVALID_ARG for NULL. */
ear_result ear_stage_render(ear_stage *stage, float *out, uint32_t frames);

/* Game-thread housekeeping: moves overflowed commands into the ring, releases clips
 * of voices that ended and frees their ids. Every game-thread call does this too;
 * call it once a frame when the game otherwise calls nothing. Thread: game. */
void ear_stage_update(ear_stage *stage);

/* Frames rendered since the stage was created. Thread: audio. */
uint64_t ear_stage_frames_rendered(const ear_stage *stage);

/* Marks that a different thread (a device callback) now calls ear_stage_render.
 * Offline (the default) render also moves overflowed commands into the ring; attached,
 * only game-thread calls do. Thread: game, before the device starts. */
void ear_stage_set_render_thread_separate(ear_stage *stage, bool separate);
/* Whether it is so marked. Thread: any. */
bool ear_stage_render_thread_is_separate(const ear_stage *stage);

/* ---- HRTF (3D on headphones; docs/stage.md, "HRTF") ---------------------------------- */

/* An HRTF set as plain arrays, the stage's input (the audio/hrtf module makes one from a
 * SOFA file: ear_hrtf_stage_view). Directions in degrees, SOFA's convention: azimuth
 * counter-clockwise from the front seen from above (90 = left), elevation up from the
 * horizontal. Direction d's minimum-phase filters are left/right[d * taps .. + taps - 1];
 * its delays (fractional samples at sample_rate, >= 0) delay each ear's filtered signal. */
typedef struct ear_stage_hrtf {
    uint32_t sample_rate;                     /* must be the stage's */
    uint32_t taps;                            /* 8..256 */
    uint32_t count;                           /* measured directions, >= 1 */
    const float *azimuth_deg, *elevation_deg; /* count each */
    const float *left, *right;                /* count * taps each */
    const float *delay_left, *delay_right;    /* count each, 0 .. 0.005 s of samples */
    const char *source;                       /* where it came from (status); may be NULL */
} ear_stage_hrtf;

/* A set's directions grouped into elevation rings for lookup, as the stage's HRTF and
 * the audio/hrtf module's sets keep them: ring r holds the directions ring_index[
 * ring_start[r] .. ring_start[r + 1] - 1], sorted by azimuth_deg (0 <= az < 360);
 * ring_elevation_deg[r] ascending, rings >= 1. The arrays are borrowed. */
typedef struct ear_hrtf_rings {
    const float *azimuth_deg;        /* per direction */
    const float *ring_elevation_deg; /* rings */
    const uint32_t *ring_start;      /* rings + 1 */
    const uint32_t *ring_index;      /* per direction: indices, ring by ring, by azimuth */
    uint32_t rings;
} ear_hrtf_rings;

/* Up to four measured directions and their weights (summing to 1) for a direction:
 * bilinear between the two elevation rings around it and, in each ring, the two measured
 * azimuths around it, across 0/360 (elevations outside the measured range use the nearest
 * ring). Returns how many entries were written (1..4). The one HRTF direction lookup: the
 * stage's spatializer and ear_hrtf_weights (hrtf.h) both use it. Pure, no allocation.
 * Thread: any. */
uint32_t ear_hrtf_rings_weights(const ear_hrtf_rings *rings, float azimuth_deg,
                                float elevation_deg, uint32_t index[4], float weight[4]);

/* What the stage holds (ear_stage_get_hrtf). */
typedef struct ear_stage_hrtf_info {
    bool loaded;
    ear_spatializer spatializer; /* the stage-wide setting (PAN or HRTF) */
    uint32_t sample_rate, taps, count;
    uint32_t filter_taps; /* per ear as rendered: taps + the fractional delay's 7, to 8s */
    uint32_t fft_length;  /* the fast convolution's transform length (docs/stage.md) */
    uint32_t fft_parts;   /* and the parts a control block is cut into */
    char source[256];
} ear_stage_hrtf_info;

/* Gives the stage an HRTF set (NULL: none; voices go back to panning). The arrays are
 * copied (the caller's stay the caller's and may be freed at once); the copy lives in one
 * allocation through the stage's allocator, made here on the game thread, and reaches the
 * mixer through the command ring, so swapping sets while rendering is safe: in the next
 * control block every HRTF voice crossfades from the old set (or the pan) to the new one,
 * and the old copy is freed by a later game-thread call once the mixer has let it go.
 * EAR_E_INVALID_ARG (a rate not the stage's, taps or count out of range, a NULL array, a
 * value not finite or out of range: nothing changes, a warning names it),
 * EAR_E_OUT_OF_MEMORY (nothing changes). Thread: game. */
ear_result ear_stage_set_hrtf(ear_stage *stage, const ear_stage_hrtf *hrtf);

/* The stage-wide spatializer for placed voices whose own is DEFAULT: PAN (the default)
 * or HRTF (used once a set is loaded; pan until then). DEFAULT means PAN. Switching
 * crossfades each playing voice over one control block. EAR_E_INVALID_ARG for a value
 * out of the enum. Thread: game. */
ear_result ear_stage_set_spatializer(ear_stage *stage, ear_spatializer spatializer);

/* One voice's spatializer (DEFAULT: follow the stage's), crossfaded over one block.
 * EAR_E_STALE_ID, EAR_E_INVALID_ARG. Thread: game. */
ear_result ear_stage_set_voice_spatializer(ear_stage *stage, ear_voice_id id,
                                           ear_spatializer spatializer);

/* What the stage holds, as the game last set it. Thread: game. */
ear_result ear_stage_get_hrtf(const ear_stage *stage, ear_stage_hrtf_info *out_info);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_STAGE_H */
