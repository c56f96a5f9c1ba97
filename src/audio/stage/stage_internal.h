/*
 * The stage's private data. Two sides share one struct:
 *
 *  - the game side (producer) owns the id table (generations, which slots are
 *    alive, the free list), the per-slot start parameters it fills before sending
 *    a PLAY command, the overflow queue, and copies of the listener;
 *  - the audio side (consumer) owns the voices, the listener it mixes with, the
 *    filters' states and the mix buffers.
 *
 * They meet only through the command ring (game -> audio), the return ring
 * (audio -> game: ended voices with their clips) and per-slot published cursors
 * (atomics). A slot is reused only after the game side has taken its return, so the
 * start parameters of a slot are never read and written at once.
 */
#ifndef EAR_STAGE_INTERNAL_H
#define EAR_STAGE_INTERNAL_H

#include "earshot/stage.h"
#include "ring.h"

#include <stdatomic.h>

/* Frames of history kept per voice for the interaural delay (0.66 ms is 31.7
 * frames at 48 kHz, 253 at 384 kHz). */
#define EAR__HIST_MAX      320
#define EAR__PI            3.14159265358979323846
#define EAR__ITD_S         0.00066f
#define EAR__PAN_SPREAD    0.9f
#define EAR__BEHIND_GAIN   0.30f
#define EAR__BELOW_GAIN    0.15f
#define EAR__BELOW_FILTER  0.6f
#define EAR__CUE_OPEN_HZ   20000.0f
#define EAR__CUE_CLOSED_HZ 2500.0f
#define EAR__OCC_OPEN_HZ   20000.0f
#define EAR__OCC_CLOSED_HZ 400.0f
#define EAR__OCC_GAIN_DB   -12.0f
#define EAR__MIN_FADE_S    0.005f
#define EAR__MIN_PITCH     (1.0f / 256.0f)
#define EAR__MAX_PITCH     256.0f
/* Grouped rendering (SIMD kernels): up to EAR__LANES placed voices' blocks sit side
 * by side in the stage's lane scratch so that their serial filters run as SIMD lanes,
 * eight at a time (sixteen voices make about eight behind ones in a typical scene). */
#define EAR__LANES       16
#define EAR__LANE_FLOATS 8192
/* The behind cue's coefficient is interpolated from this many steps of its amount. */
#define EAR__CUE_STEPS 256

typedef enum ear__cmd_type {
    EAR__CMD_PLAY = 1,
    EAR__CMD_VOLUME,
    EAR__CMD_PITCH,
    EAR__CMD_PAN,
    EAR__CMD_POSITION,
    EAR__CMD_VELOCITY,
    EAR__CMD_FORWARD,
    EAR__CMD_OCCLUSION,
    EAR__CMD_STOP,
    EAR__CMD_STOP_ALL,
    EAR__CMD_LISTENER,
    EAR__CMD_MASTER_GAIN,
    EAR__CMD_MOTION,
} ear__cmd_type;

/* One command: 64 bytes. */
typedef struct ear__cmd {
    uint32_t type;
    uint32_t id;
    float f[14];
} ear__cmd;

/* What the audio side returns when a voice ends. */
typedef struct ear__ret {
    uint32_t id;
    uint32_t pad_;
    ear_clip *clip;
} ear__ret;

/* Start parameters, sanitised on the game side (defaults filled in). */
typedef struct ear__start {
    ear_clip *clip;
    ear_play p;
} ear__start;

/* The per-block targets of a placed voice, computed from the listener. */
typedef struct ear__spatial {
    float gain_l, gain_r;   /* pan x distance x cone x cue (not volume) */
    float delay_l, delay_r; /* interaural delay, frames */
    float cue_filter;       /* 0 (open) .. 1 (2.5 kHz) */
    float doppler;          /* playback-rate factor */
} ear__spatial;

/* The listener as the mixer uses it: an orthonormal basis. */
typedef struct ear__ears {
    ear_vec3 position, velocity;
    ear_vec3 right, up, forward;
} ear__ears;

/* What a voice ramps to over one block (end-of-block values). */
typedef struct ear__targets {
    uint64_t step_fx; /* playback step, clip frames per output frame, 32.32 */
    float gain_l, gain_r;
    float delay_l, delay_r;
    float cue_G, occ_G;
} ear__targets;

typedef struct ear__voice {
    ear_clip *clip;
    const float *data;
    uint64_t frames;
    uint32_t channels;
    uint32_t id;
    bool active;
    bool looping, placed, doppler_on, behind_cue;
    bool started; /* rendered at least one block */
    bool stopping;
    bool second_pass; /* looping: the loop point has been crossed (crossfade applies) */
    float volume_target, volume_s;
    float pitch_target, pitch_s;
    float occ_target, occ_s;
    float smooth_k; /* per-block smoothing factor exp(-block / tau) */
    float pan;
    ear_vec3 position, velocity, forward;
    ear_attenuation att;
    ear_cone cone;
    float doppler_factor;
    uint64_t xfade;    /* loop crossfade, clip frames (0: plain loop) */
    uint64_t loop_len; /* frames - xfade */
    /* Cursor, fixed point 32.32 in clip frames. */
    uint64_t pos;
    uint32_t frac;
    double base_step; /* clip rate / output rate */
    uint64_t step_fx; /* step at the end of the last block, 32.32 */
    /* Ramps: values at the end of the last block. */
    float gain_l, gain_r;
    float delay_l, delay_r;
    float cue_G, occ_G;
    float fade;      /* stop fade level, 1 .. 0 */
    float fade_step; /* per block */
    ear__targets t;  /* this block's targets (render_block's first pass) */
    /* The last placement result and the inputs it came from (valid once computed).
     * Reused while the listener, position, velocity and forward are unchanged; a
     * command that changes any other placement input (attenuation, cone, doppler
     * factor, behind cue) must clear sp_valid. */
    bool sp_valid;
    ear__spatial sp;
    ear_vec3 sp_position, sp_velocity, sp_forward;
    /* Filter states and delay history. */
    float z_cue, z_occ1, z_occ2;
    float hist[EAR__HIST_MAX];
} ear__voice;

typedef struct ear__kernel_io {
    float *mono;  /* scratch: hist_len + block frames */
    float *right; /* scratch for stereo flat voices: block frames */
    float *mix_l, *mix_r;
    uint32_t frames;   /* the control block */
    uint32_t hist_len; /* frames of delay history in use (<= EAR__HIST_MAX) */
} ear__kernel_io;

/* Placed voices whose read pass is done, waiting for their filters and mix towards
 * their targets (voice->t): voice i's block (after hist_len frames of room for its
 * history) is in buf[i]. */
typedef struct ear__group {
    ear__voice *voice[EAR__LANES];
    float *buf[EAR__LANES];
    uint32_t n;
} ear__group;

/* One voice's block: ear__voice_render or an equivalent SIMD kernel. */
typedef bool (*ear__render_fn)(ear__voice *voice, const ear__kernel_io *io,
                               const ear__targets *t);

struct ear_stage {
    ear_stage_config config;
    ear_allocator alloc;
    ear_rng rng;
    double block_s;

    /* ---- game side ---- */
    uint16_t *gen;  /* per slot: generation of the current or next voice */
    uint8_t *alive; /* per slot: a voice exists (game's view) */
    uint32_t *free_slots;
    uint32_t free_count;
    uint32_t alive_count;
    ear__start *start; /* per slot */
    ear__cmd *overflow;
    size_t overflow_count, overflow_cap, overflow_head;
    ear_listener listener_game;
    bool render_separate;

    /* ---- shared ---- */
    ear__ring commands;
    ear__ring returns;
    _Atomic uint64_t *cursor;   /* per slot, published by the audio side */
    _Atomic uint32_t *ended_id; /* per slot: the id of the voice that last ended there */

    /* ---- audio side ---- */
    ear__voice *voices; /* per slot */
    uint32_t *active;   /* dense list of active slots */
    uint32_t active_count;
    ear__ears ears;
    float master_target, master_gain;
    float *block_out; /* interleaved, one block */
    uint32_t block_pos;
    float *mix_l, *mix_r, *mono, *right;
    ear__render_fn render_voice;   /* the kernel chosen at create */
    float lanes[EAR__LANE_FLOATS]; /* grouped voices' scratch (SIMD kernels) */
    /* The listener of the previous block, to tell whether it moved. */
    ear__ears ears_last;
    bool ears_last_valid, ears_same;
    /* The cue coefficient G at amount k / EAR__CUE_STEPS, built at the first block. */
    float cue_table[EAR__CUE_STEPS + 1];
    bool cue_table_built;
    uint64_t frames_rendered;
};

/* spatial.c */
float ear__distance_gain(const ear_attenuation *att, float distance_m);
float ear__cone_gain(const ear_cone *cone, ear_vec3 forward, ear_vec3 to_listener_unit);
float ear__doppler(ear_vec3 source_pos, ear_vec3 source_vel, ear_vec3 listener_pos,
                   ear_vec3 listener_vel, float factor, float speed_of_sound);
void ear__ears_from_listener(const ear_listener *listener, ear__ears *ears);
void ear__spatialise(const ear__ears *ears, const ear__voice *voice, float sample_rate,
                     float speed_of_sound, float doppler_scale, ear__spatial *out);
/* One-pole TPT low-pass coefficient G = g / (1 + g), g = tan(pi fc / fs); 1 = open. */
float ear__lowpass_G(float cutoff_hz, float sample_rate);

/* voice_render.c */
/* Pass 1 of the scalar kernel (the read), shared with the SIMD kernels for the
 * blocks their fast paths do not take. */
bool ear__read_block(ear__voice *voice, uint64_t step_end_fx, uint32_t frames, float *out,
                     float *out_r);
/* Renders one block of a real voice into io's mix buffers, ramping from the voice's
 * last values to t; returns true when a one-shot reached its end in this block. */
bool ear__voice_render(ear__voice *voice, const ear__kernel_io *io, const ear__targets *t);
/* Moves a virtual voice's cursor as rendering would, without rendering; returns true
 * when a one-shot reached its end. */
bool ear__voice_advance(ear__voice *voice, uint32_t frames, uint64_t step_end_fx);

/* voice_render_avx2.c: the same kernel with AVX2 and FMA (x86-64 only). */
bool ear__kernel_avx2_available(void);
bool ear__voice_render_avx2(ear__voice *voice, const ear__kernel_io *io, const ear__targets *t);
/* The same kernel split for grouped placed voices: the read and occlusion filters of
 * one voice into buf + hist_len (returns true when a one-shot ended), then the behind
 * cue filters of the whole group as SIMD lanes and each voice's mix, in group order.
 * The output is bit for bit that of ear__voice_render_avx2 on each voice in turn. */
bool ear__voice_read_avx2(ear__voice *voice, const ear__kernel_io *io, const ear__targets *t,
                          float *buf);
void ear__group_finish_avx2(ear__group *group, const ear__kernel_io *io);

#endif
