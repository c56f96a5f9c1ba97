/* SPDX-License-Identifier: Zlib */
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

#include "earshot/mixer.h"
#include "earshot/stage.h"
#include "hrtf_stage.h"
#include "ring.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

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
 * eight (AVX2) or sixteen (AVX-512) at a time, a group's scratch, states and clip lines staying
 * in L1 between its read, filter and mix (docs/performance.md, "Why the stage is shaped as it
 * is"). */
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
    EAR__CMD_LISTENER_AXES,
    EAR__CMD_MASTER_GAIN,
    EAR__CMD_MOTION,
    EAR__CMD_BUS_VOLUME,
    EAR__CMD_BUS_MUTE,
    EAR__CMD_DUCK_SET,
    EAR__CMD_DUCK_REMOVE,
    EAR__CMD_DUCK_TRIGGER,
    EAR__CMD_ENVELOPE,
    EAR__CMD_PARAM,
    EAR__CMD_REVERB_SEND, /* a voice's send (reverb.c) */
    EAR__CMD_REVERB_BUS,  /* a bus's send */
    EAR__CMD_REVERB_A,    /* a room, first half: rt60s, crossover, pre-delay, size, density */
    EAR__CMD_REVERB_B,    /* and second: damping, wet, transition (applies the room) */
    EAR__CMD_LIMITER,
    EAR__CMD_SPATIALIZER, /* a voice's (id: voice.c) or the stage's (id 0: hrtf_stage.c) */
    EAR__CMD_HRTF_SET,    /* hrtf_stage.c: a new bank (hrtf_bank.c's, or none) */
} ear__cmd_type;

/* A music envelope: fading in with sin, or out with cos (then the voice ends). */
typedef enum ear__envelope {
    EAR__ENV_NONE = 0,
    EAR__ENV_IN = 1,
    EAR__ENV_OUT = 2,
} ear__envelope;

/* Slots beyond max_total_voices for voices being stolen while they fade out. */
#define EAR__STEAL_RESERVE      32u
#define EAR__MAX_DUCKS          16u
#define EAR__MAX_STREAMS        4u
#define EAR__MAX_BLENDS         64u
#define EAR__MAX_POOLS          64u
#define EAR__POOL_MAX_INSTANCES 64u
#define EAR__INAUDIBLE          1e-4f /* -80 dB: below this a voice is virtual */
#define EAR__HYSTERESIS         1.15f
/* Virtual voices are brought up to date every this many blocks (staggered by slot). */
#define EAR__VIRTUAL_EVERY 8u
/* Per-slot flags (ear_stage.vflags): why a voice must be brought up to date this block. */
#define EAR__VF_RENDERED 1u /* real in the last block: it renders now, or fades out */
#define EAR__VF_TOUCHED  2u /* a command changed it */
#define EAR__VF_NEW      4u /* not evaluated yet */
#define EAR__VF_ALWAYS   8u /* a stream: its FIFO is fed every block */

/* Where a voice is and how it moves, as the last commands said (audio side). */
typedef struct ear__motion {
    ear_vec3 position, velocity;
} ear__motion;

/* The voice manager's ranking entry. */
typedef struct ear__rank {
    double key; /* priority, then audibility (with hysteresis) */
    uint64_t serial;
    uint32_t index; /* into the active list */
} ear__rank;

/* Audio-side duck state. */
typedef struct ear__duck {
    bool used;
    uint8_t trigger, target;
    float floor; /* linear gain at full duck: 10^(gain_db / 20) */
    float threshold;
    float attack_s, hold_s, release_s;
    float level;         /* current gain, floor .. 1 */
    float hold_left_s;   /* after the trigger stops */
    float manual_left_s; /* trigger_duck's hold */
} ear__duck;

/* Audio-side state of a music stream being played. */
typedef struct ear__stream_slot {
    ear_stream stream;
    float *fifo;       /* capacity frames x channels */
    uint32_t capacity; /* frames */
    uint32_t count;    /* valid frames */
    uint64_t underruns;
} ear__stream_slot;

/* A registered blend (immutable once registered; replacing a name adds an entry). */
typedef struct ear__blend {
    ear_blend_def def;
    bool used;
    /* Game side only: a newer entry of its name was registered (only the current one
     * plays), and the voices that play this entry (from their start until their return is
     * collected). A superseded entry is freed, clips and all, once none plays it. */
    bool superseded;
    uint32_t voices;
    /* For each layer's curves, the parameter index of each curve. */
    uint8_t gain_param[EAR_BLEND_MAX_LAYERS][EAR_BLEND_MAX_CURVES];
    uint8_t pitch_param[EAR_BLEND_MAX_LAYERS][EAR_BLEND_MAX_CURVES];
} ear__blend;

/* A registered pool, with its game-side state. */
typedef struct ear__pool {
    ear_pool_def def;
    bool used;
    int32_t last_pick;
    uint32_t instance_count, instance_head;
    ear_voice_id instances[EAR__POOL_MAX_INSTANCES];
} ear__pool;

/* One command: 32 bytes, two to a cache line. `type` says which payload `u` holds (one
 * switch reads it: block.c's apply_command); `id` is the voice a voice command names, 0
 * for the others. */
typedef struct ear__cmd {
    uint32_t type; /* ear__cmd_type */
    uint32_t id;
    union {
        float value;  /* VOLUME, PITCH, PAN, OCCLUSION (sanitised), MASTER_GAIN */
        ear_vec3 vec; /* POSITION, VELOCITY, FORWARD */
        float fade_s; /* STOP, STOP_ALL: at least EAR__MIN_FADE_S */
        struct {      /* MOTION, LISTENER */
            ear_vec3 position, velocity;
        } motion;
        struct { /* LISTENER_AXES */
            ear_vec3 forward, up;
        } axes;
        struct { /* BUS_VOLUME: reach volume over seconds (0: one block) */
            uint32_t bus;
            float volume, seconds;
        } bus_volume;
        struct { /* BUS_MUTE */
            uint32_t bus;
            bool muted;
        } bus_mute;
        struct { /* DUCK_SET: a rule with its defaults filled in */
            uint8_t slot, trigger, target;
            float gain_db, threshold, attack_s, hold_s, release_s;
        } duck_set;
        struct { /* DUCK_REMOVE, DUCK_TRIGGER */
            uint32_t slot;
            float hold_s;
        } duck;
        struct {           /* ENVELOPE */
            uint32_t kind; /* ear__envelope */
            float seconds;
        } envelope;
        struct { /* PARAM: a blend parameter's index and clamped value */
            uint32_t index;
            float value;
        } param;
        struct { /* REVERB_BUS */
            uint32_t bus;
            float send;
        } rv_bus;
        float f[6];          /* REVERB_A, REVERB_B: a room's parameters in two commands */
        struct {             /* LIMITER: limiter.c's settings, checked and converted */
            uint32_t on;     /* 0 or 1 */
            uint32_t look;   /* lookahead, frames (1 .. the buffers' capacity - 2) */
            float ceiling;   /* linear, 0.001 .. 1 */
            float release_k; /* per-frame rise of the gain: 1 - exp(-1 / (release * rate)) */
        } limiter;
        uint32_t spatializer;            /* SPATIALIZER: an ear_spatializer */
        struct {                         /* HRTF_SET */
            struct ear__hrtf_bank *bank; /* NULL: none */
            uint64_t generation;
        } hrtf;
    } u;
} ear__cmd;
_Static_assert(sizeof(ear__cmd) == 32, "a command is 32 bytes, two to a cache line");

/* What the audio side returns when a voice ends. */
typedef struct ear__ret {
    uint32_t id;
    int32_t stream; /* stream slot to release, or -1 */
    ear_clip *clip;
} ear__ret;

/* Start parameters, sanitised on the game side (defaults filled in). */
typedef struct ear__start {
    ear_clip *clip;
    ear_play p;
    int32_t blend;  /* index into the blend table, or -1 */
    int32_t stream; /* stream slot, or -1 */
    float env_in_s; /* music: fade in with sin over this time (0: none) */
} ear__start;

/* The per-block targets of a placed voice, computed from the listener. */
typedef struct ear__spatial {
    /* coarse: every voice, every block */
    float distance_gain; /* distance x cone */
    float lx, ly, lz;    /* direction in listener space (0 when at the listener) */
    float doppler;       /* playback-rate factor */
    /* fine: voices that render */
    float gain_l, gain_r;   /* pan x cue (distance excluded) */
    float delay_l, delay_r; /* interaural delay, frames */
    float cue_filter;       /* 0 (open) .. 1 (2.5 kHz) */
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
    const void *data; /* the clip's samples: floats, or int16_t where s16 */
    uint64_t frames;
    uint32_t channels;
    uint32_t id;
    bool active;
    bool looping, placed, doppler_on, behind_cue;
    bool started; /* rendered at least one block */
    bool stopping;
    bool second_pass;    /* looping: the loop point has been crossed (crossfade applies) */
    uint8_t spatializer; /* ear_spatializer from ear_play or a command (hrtf_stage.c) */
    bool via_hrtf;       /* its last block was rendered through an HRTF bank */
    bool rv_on; /* the stage has a reverb and rv_send or rv_g is above 0 (ear__reverb_sends) */
    bool s16;   /* data holds 16-bit samples q, read as q / 32768 (EAR_CLIP_S16) */
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
    float rv_send;    /* the reverb send asked for (0 .. 1); here, in what was padding */
    double base_step; /* clip rate / output rate */
    uint64_t step_fx; /* step at the end of the last block, 32.32 */
    /* Ramps: values at the end of the last block. */
    float gain_l, gain_r;
    float delay_l, delay_r;
    float cue_G, occ_G;
    float fade;      /* stop fade level, 1 .. 0 */
    float fade_step; /* per block */
    ear__targets t;  /* this block's targets (render_block's first pass) */
    /* A placed blend's layers, already read and summed for this block: the kernel takes
     * them in place of reading a clip (NULL for every other voice). */
    const float *premixed;
    /* The last placement result and the inputs it came from (valid once computed).
     * Reused while the listener, position, velocity and forward are unchanged; a
     * command that changes any other placement input (attenuation, cone, doppler
     * factor, behind cue) must clear sp_valid. */
    bool sp_valid;      /* the coarse placement in sp is for sp_ears and sp_* below */
    bool sp_fine_valid; /* and so is its fine part (its pan part: not for a voice through
                           HRTF, which has none), and fine_t below for these: */
    float fine_gain_at, fine_occ_at;
    float rv_g; /* the reverb send gain applied at the end of the last block (reverb.c) */
    ear__targets fine_t;
    uint64_t sp_ears;
    ear__spatial sp;
    ear_vec3 sp_position, sp_velocity, sp_forward;
    /* Filter states and delay history. */
    float z_cue, z_occ1, z_occ2;
    /* The mixer. */
    uint8_t bus;
    uint8_t priority;
    bool real;       /* rendered in this block */
    bool was_real;   /* rendered in the last block */
    uint64_t serial; /* start order: lower is older */
    uint32_t rendered_blocks;
    float coarse_gain; /* volume x fade x envelope x distance x cone x occlusion */
    float audibility;  /* end-of-block gain x bus gain, for the voice manager */
    uint8_t env_kind;  /* ear__envelope */
    float env_t_s, env_len_s, env;
    int32_t stream; /* stream slot, or -1 */
    int32_t blend;  /* blend table index, or -1 */
    int32_t layers; /* first layer voice in the stage's layer array, or -1 */
    float param_target[EAR_BLEND_MAX_PARAMS];
    float param_s[EAR_BLEND_MAX_PARAMS];
    float param_k; /* per-block smoothing of the parameters */
    /* Blend layers: their curves' values and the parameters they were evaluated at. */
    bool curves_valid;
    float curve_gain, curve_pitch;
    float curve_at[EAR_BLEND_MAX_PARAMS];
    /* Cold: touched only by voices that render. The delay line is last, so the fields
     * every voice (real or virtual) reads each block share a few cache lines; it starts
     * on a line (voices are allocated on lines, and the struct's size is whole lines).
     * The size is 29 lines (1856 bytes), the fields above in 576 bytes; a new field goes
     * into a hole (gdb's ptype /o ear__voice lists them), so that the size stays 29 lines
     * (docs/performance.md, "Why the stage is shaped as it is", says why not 30). */
    _Alignas(64) float hist[EAR__HIST_MAX];
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
    float *mix_l[EAR__LANES], *mix_r[EAR__LANES]; /* each voice's bus */
    uint32_t n;
} ear__group;

/* The kernel: every ISA-specific primitive behind one table, chosen once at create
 * (ear__kernel_select, like OpenAL Soft's SelectMixer). The mixing code calls through it
 * and never names an instruction set. Each kernel is deterministic on its own, and the
 * kernels agree within 1e-5 (tests/stage/test_kernels.c). */
typedef struct ear__kernel {
    const char *name;
    /* One voice's block into io's mix buffers, ramping from the voice's last values to t;
     * true when a one-shot reached its end. */
    bool (*render)(ear__voice *voice, const ear__kernel_io *io, const ear__targets *t);
    /* A blend layer's block: resampled into buf and added into sum with its gain ramped
     * from g0 to g1 (no filter, no pan). */
    void (*read_layer)(ear__voice *voice, uint64_t step_end, uint32_t frames, float *buf,
                       float *sum, float g0, float g1);
    /* Placed voices in groups of up to max_lanes (0: the kernel does not group): each
     * voice's read and occlusion filters into buf + hist_len, then the group's cue
     * filters as SIMD lanes and each voice's mix, in group order; bit for bit render on
     * each voice in turn. */
    uint32_t max_lanes;
    bool (*read_grouped)(ear__voice *voice, const ear__kernel_io *io, const ear__targets *t,
                         float *buf);
    void (*group_finish)(ear__group *group, const ear__kernel_io *io);
} ear__kernel;

/* The output limiter's audio-side state (limiter.c). Its rings are sized for the longest
 * lookahead at the stage's rate (cap, a power of two) and carved with everything else. */
typedef struct ear__limiter {
    bool on;
    uint32_t look;   /* lookahead L, frames; the window is L + 1 frames */
    float ceiling;   /* linear */
    float release_k; /* per frame */
    uint32_t cap, mask;
    float *delay;  /* cap stereo frames: the input, read L frames later */
    float *box;    /* cap: the released reduction d, for the moving mean over the window */
    float *dq_val; /* cap: the sliding minimum's deque of required gains, ascending */
    uint32_t *dq_at;
    uint32_t dq_head, dq_count;
    uint32_t t;      /* frames processed (mod 2^32; rings index it with mask) */
    float reduction; /* d = 1 - e: the windowed minimum gain, released, as a reduction */
    double sum;      /* the sum of d over the window */
    uint32_t below;  /* entries of the window with d > 0 (none: the gain is exactly 1) */
} ear__limiter;

/* The stage lives at the start of one allocation (create.c's heap layout) that holds
 * every buffer below too; only the overflow queue grows on its own (game side). */
struct ear_stage {
    ear_stage_config config;
    ear_allocator alloc;
    void *heap; /* the allocation, as alloc_fn returned it */
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
    /* Another thread renders (a device): set before that thread may render, read by it
     * (atomic: a game that attaches its own device may set it while one runs). */
    _Atomic bool render_separate;
    uint64_t commands_sent;     /* commands sent by the game side, ever (stats) */
    uint64_t blends_registered; /* successful ear_stage_register_blend calls (stats) */

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
    ear_listener listener_audio; /* the pose the ears were made from */
    float master_target, master_gain;
    float *block_out; /* interleaved, one block */
    uint32_t block_pos;
    float *mix_l, *mix_r, *mono, *right;
    float *blend_sum, *layer_buf; /* a placed blend's summed layers, and one layer's read */
    const ear__kernel *kernel;    /* chosen at create */
    float *lanes;                 /* grouped voices' scratch (SIMD kernels): EAR__LANE_FLOATS */
    /* The listener of the previous block, to tell whether it moved. */
    uint64_t ears_version; /* counts listener changes: cached placements compare it */
    /* The cue coefficient G at amount k / EAR__CUE_STEPS, built at the first block. */
    float cue_table[EAR__CUE_STEPS + 1];
    bool cue_table_built;
    uint64_t frames_rendered;

    /* ---- the mixer (buses.c, voice_manager.c, blends.c, music.c) ---- */
    uint32_t slot_count; /* max_total_voices + EAR__STEAL_RESERVE */
    /* game side */
    uint8_t *stolen;        /* per slot: fading out to make room */
    uint8_t *stopping;      /* per slot: a stop (or a music fade-out) was sent: finished to
                               the game (is_playing false), still counted until it ends */
    uint8_t *slot_priority; /* per slot */
    uint32_t counted;       /* alive and not stolen */
    bool saturated;         /* a refusal was logged and nothing freed since */
    uint64_t refused, stolen_count, dropped_far;
    ear_bus_state bus_game[EAR_BUS_COUNT];
    ear_duck_rule duck_game[EAR__MAX_DUCKS];
    bool duck_game_used[EAR__MAX_DUCKS];
    ear__blend *blends;
    ear__pool *pools;
    ear_bus music_bus;
    ear_voice_id music[8]; /* music voices, newest last */
    uint32_t music_count;
    char music_name[EAR_NAME_MAX];
    uint8_t stream_free[EAR__MAX_STREAMS];
    ear_stream stream_game[EAR__MAX_STREAMS];
    uint32_t blend_alive;        /* blend voices that exist (game's view) */
    uint32_t blends_reclaimable; /* superseded entries no voice plays, not yet freed */
    /* shared */
    _Atomic uint32_t *aud_bits; /* per slot: audibility as float bits (real flag in bit 0 of
                                    real_flag) */
    _Atomic uint8_t *real_flag; /* per slot */
    _Atomic uint32_t stat_real, stat_virtual;
    /* audio side */
    float bus_vol[EAR_BUS_COUNT];    /* volume now (after fades) */
    float bus_target[EAR_BUS_COUNT]; /* fade target */
    float bus_rate[EAR_BUS_COUNT];   /* fade step per block (>= 0) */
    bool bus_muted[EAR_BUS_COUNT];
    float bus_gain[EAR_BUS_COUNT]; /* applied gain at the end of the last block */
    bool bus_used[EAR_BUS_COUNT];
    float *bus_l[EAR_BUS_COUNT], *bus_r[EAR_BUS_COUNT];
    ear__duck ducks[EAR__MAX_DUCKS];
    ear__stream_slot streams[EAR__MAX_STREAMS];
    ear__voice *layer_voices; /* max_blend_voices x EAR_BLEND_MAX_LAYERS */
    uint32_t *layer_free;
    uint32_t layer_free_count;
    uint64_t serial;
    ear__targets *tgt; /* scratch: each active voice's targets for this block */
    /* Compact per-slot state, so ranking and skipping virtual voices touch no voice. */
    uint8_t *vflags;
    ear__motion *motion; /* per slot */
    uint32_t *slot_id;   /* per slot: the id of the voice playing there, 0 when none */
    uint32_t *state_at;  /* per slot: the block a voice's state is at (it has stepped through
                            every block before it); a skipped virtual voice is behind by
                            (this block - state_at), modulo 2^32 */
    float *aud;          /* audibility as of its last evaluation */
    uint8_t *prio;
    uint64_t *serial_of;
    uint8_t *real_idx; /* per active index: chosen real this block */
    float *eff;        /* per active index: audibility with hysteresis (voice manager) */
    uint64_t block_index;
    uint32_t *work; /* this block's active indices to bring up to date or render, ascending */
    /* The voice manager's last choice and its bounds (see ear__choose_real). */
    bool sel_valid;
    double sel_min_real, sel_max_virt;
    bool eval_all;                /* a bus changed: bring every voice up to date this block */
    float bus_now[EAR_BUS_COUNT]; /* each bus's gain this block, master included */
    ear__rank *rank;              /* scratch for the voice manager */
    uint8_t *ended_scratch;       /* per active index: the voice ended in this block */
    uint32_t touch_sink;          /* where touch_clip's loads go */
    struct ear__reverb *reverb;   /* the room reverb (reverb.h); NULL with no_reverb */

    /* ---- the output limiter (limiter.c) ---- */
    ear_limiter limiter_game;           /* game side: as last set, defaults filled in */
    ear__limiter lim;                   /* audio side */
    _Atomic uint32_t limiter_gain_bits; /* the last block's lowest gain, float bits */

    /* ---- HRTF (hrtf_bank.c: game side, hrtf_stage.c: audio side) ---- */
    ear__hrtf_state hrtf; /* the HRTF banks and the spatializer */
};

/* Who calls whom: one way, in the order src/audio/stage/ORDER writes down (a file calls
 * only files listed before it; scripts/check-architecture checks it on the object files).
 * At the bottom, the pure parts: ring.c, clip.c, the FFT (fft.c, fft_avx2.c), spatial.c
 * and the kernels (voice_render*.c, hrtf_conv_avx2.c). Game side: api.c is the base (ids,
 * the command path, the sanitisers) and calls none of the others; limiter.c, reverb.c,
 * buses.c, hrtf_bank.c (banks and the direction lookup) and voices.c (play, set, stop,
 * stealing) send through it; music.c and blends.c start voices through voices.c.
 * Audio side, one way down from the block loop: block.c -> voice_manager.c, blends.c
 * (which uses voice.c's block helpers), voice.c -> hrtf_stage.c (which uses hrtf_bank.c's
 * lookup and buses.c's buffers), streams.c, reverb.c's send buffers, buses.c (-> reverb.c's
 * gather and render), the kernels. create.c makes and destroys it all (and holds
 * ear_stage_update); block.c is the top. */

/* create.c: the configuration and the heap layout */
uint32_t ear__hist_len(const ear_stage *s);
/* Asks for the cache lines of [p, p + bytes) (a hint: no result depends on it). A volatile
 * instruction on x86-64: GCC counts __builtin_prefetch as no effect at all, and deleted the
 * whole call of a static function whose loop did nothing else (block.c's clip prefetch was
 * not in any build until 2026-12-02). */
static inline void ear__prefetch_lines(const void *p, size_t bytes) {
    /* From the line p is on, so that the last line is asked for too. */
    const char *end = (const char *)p + bytes;
    const char *c = (const char *)p - ((uintptr_t)p & 63u);
    for (; c < end; c += 64) {
#if defined(__x86_64__) && defined(__GNUC__)
        __asm__ volatile("prefetcht0 %0" : : "m"(*c));
#elif defined(__GNUC__)
        __builtin_prefetch(c);
#endif
    }
}
/* Room for h frames of history rounded up to whole cache lines (16 floats), so that the
 * block after it starts on a line. */
static inline uint32_t ear__hist_room(uint32_t h) {
    return (h + 15u) & ~15u;
}

/* api.c: ids, the command path and the sanitisers (game side) */
uint32_t ear__make_id(uint32_t slot, uint16_t gen);
bool ear__id_slot(const ear_stage *s, ear_voice_id id, uint32_t *slot);
bool ear__id_live(const ear_stage *s, ear_voice_id id, uint32_t *slot);
void ear__collect_returns(ear_stage *s);
/* Game side, at the start of every call: takes back voices that ended (their clips are
 * released and ids freed here, on the game thread). Inline: usually nothing ended. */
static inline void ear__collect(ear_stage *s) {
    if (!ear__ring_empty(&s->returns)) ear__collect_returns(s);
}
ear_result ear__send(ear_stage *s, const ear__cmd *cmd);
/* Makes room for `count` more commands (in the ring, or by growing the overflow queue) so
 * that the next `count` ear__send calls cannot fail: all-or-nothing calls that send
 * several commands reserve first. EAR_E_OUT_OF_MEMORY changes nothing. */
ear_result ear__reserve(ear_stage *s, size_t count);
/* Moves the overflow queue into the ring as far as it goes (block.c, offline). */
void ear__flush_overflow(ear_stage *s);
float ear__sane_gain(float g);
float ear__sane_pitch(float p);
bool ear__sane_vec(ear_vec3 v, const char *what);
/* A name that fits EAR_NAME_MAX (ducks, blends, pools). */
static inline bool ear__name_ok(const char *name) {
    return name && name[0] && strlen(name) < EAR_NAME_MAX;
}
/* v, or d where v is zero, negative or not finite. */
static inline float ear__or_default(float v, float d) {
    return (v == 0.0f || !isfinite(v) || v < 0.0f) ? d : v;
}

/* voices.c: play, set, stop and stealing (game side) */
/* Makes room for a voice of `priority` when the budget is spent (the quietest voice of
 * equal or lower priority fades out over 5 ms in a reserve slot); false when nothing may
 * be stolen. */
bool ear__steal(ear_stage *s, uint8_t priority);
/* Starts a voice: a clip, a blend (clip NULL, blend >= 0) or a stream (stream >= 0). */
ear_result ear__play(ear_stage *s, ear_clip *clip, const ear_play *params, int32_t blend,
                     int32_t stream, float env_in_s, ear_voice_id *out_id);

/* voice_manager.c: the real set (audio side) */
/* Marks at most max_voices voices real (real_idx); true when the full choice
 * ran (the real set may then include voices that were not brought up to date). */
bool ear__choose_real(ear_stage *s, const uint32_t *work, uint32_t count);

/* voice.c: one voice on the audio side */
float ear__smoothing_k(const ear_stage *s, float smoothing_ms);
float ear__smooth(float current, float target, float k);
uint64_t ear__to_fx(double step);
void ear__voice_start(ear_stage *s, uint32_t id);
ear__voice *ear__voice_for(ear_stage *s, uint32_t id);
void ear__voice_apply(ear_stage *s, ear__voice *v, const ear__cmd *c);
void ear__begin_stop(ear_stage *s, ear__voice *v, float fade_s);
/* True when a block of the voice's own evolution would change nothing. */
bool ear__voice_settled(const ear_stage *s, const ear__voice *v);
/* One block of a voice's own state: smoothers, fade, envelope, blend parameters. */
void ear__voice_step_state(ear_stage *s, ear__voice *v);
/* Steps the state (unless settled) and computes this block's coarse targets. */
void ear__voice_targets(ear_stage *s, ear__voice *v, ear__targets *t);
/* Catches a skipped virtual voice up on `blocks` blocks (state and cursor); true when a
 * one-shot ran out meanwhile. */
bool ear__voice_catch_up(ear_stage *s, ear__voice *v, uint32_t blocks);
/* The fine targets (pan, delays, filters) of a voice about to render. */
void ear__voice_targets_fine_slow(ear_stage *s, ear__voice *v, ear__targets *t);
static inline void ear__voice_targets_fine(ear_stage *s, ear__voice *v, ear__targets *t) {
    /* Between a game's moves (several blocks apart) nothing here changes: reuse. */
    if (v->placed && v->sp_fine_valid && v->fine_gain_at == v->coarse_gain &&
        v->fine_occ_at == v->occ_s) {
        uint64_t step = t->step_fx;
        *t = v->fine_t;
        t->step_fx = step;
        return;
    }
    ear__voice_targets_fine_slow(s, v, t);
}
/* Before a voice renders: its first block starts at its targets; one entering the real
 * set starts from silence with clean filters. */
void ear__voice_prime(ear__voice *v, const ear__targets *t, bool first, bool entering);
/* Renders one real (or leaving) voice's block; placed voices join `group` when lanes >= 2
 * (SIMD kernels); true when a one-shot ended. */
bool ear__voice_render_one(ear_stage *s, ear__voice *v, const ear__targets *t,
                           const ear__kernel_io *io, ear__group *group, uint32_t lanes,
                           uint32_t stride);
bool ear__voice_block_begin(ear_stage *s, ear__voice *v, ear__targets *t,
                            const ear__kernel_io *io, ear__kernel_io *bio);
void ear__voice_block_end(ear_stage *s, ear__voice *v);
/* Renders (real) or advances (virtual) one clip or stream voice; true when it ended.
 * The caller finishes the group. */
bool ear__voice_block(ear_stage *s, ear__voice *v, ear__targets *t, const ear__kernel_io *io,
                      ear__group *group, uint32_t lanes, uint32_t stride);

/* buses.c: audio side */
void ear__buses_apply(ear_stage *s, const ear__cmd *c);
void ear__buses_begin(ear_stage *s);
float ear__bus_gain_now(const ear_stage *s, uint8_t bus);
float *ear__bus_buffer(ear_stage *s, uint8_t bus, bool right);
void ear__buses_mixdown(ear_stage *s);

/* blends.c: audio side */
void ear__blend_start(ear_stage *s, ear__voice *v, const ear__start *st);
void ear__blend_release(ear_stage *s, ear__voice *v);
/* A blend voice's block, in place of ear__voice_block. */
bool ear__blend_block(ear_stage *s, ear__voice *v, ear__targets *t, const ear__kernel_io *io,
                      ear__group *group, uint32_t lanes, uint32_t stride);

/* streams.c: a stream voice's FIFO (audio side) */
void ear__stream_start(ear_stage *s, ear__voice *v, const ear__start *st);
/* Tops a stream voice's FIFO up before its read; drops what the read used after. */
void ear__stream_prepare(ear_stage *s, ear__voice *v, uint64_t step_end);
void ear__stream_consume(ear_stage *s, ear__voice *v);

/* limiter.c: the output limiter on the master */
/* Frames the limiter's rings hold at a sample rate (the longest lookahead, 10 ms, plus 2,
 * rounded up to a power of two). */
uint32_t ear__limiter_capacity(uint32_t sample_rate);
/* Game side: checks a limiter's settings and fills in its defaults (resolved) and the
 * command that sets it; EAR_E_INVALID_ARG with a warning naming the bad value. */
ear_result ear__limiter_resolve(const ear_limiter *in, uint32_t sample_rate,
                                ear_limiter *resolved, ear__cmd *cmd);
/* Audio side: a LIMITER command (also used once at create). */
void ear__limiter_apply(ear_stage *s, const ear__cmd *c);
/* Audio side: limits one block of interleaved stereo output in place (limiter on). */
void ear__limiter_block(ear_stage *s, float *out, uint32_t frames);

/* spatial.c */
float ear__distance_gain(const ear_attenuation *att, float distance_m);
float ear__cone_gain(const ear_cone *cone, ear_vec3 forward, ear_vec3 to_listener_unit);
float ear__doppler(ear_vec3 source_pos, ear_vec3 source_vel, ear_vec3 listener_pos,
                   ear_vec3 listener_vel, float factor, float speed_of_sound);
void ear__ears_from_listener(const ear_listener *listener, ear__ears *ears);
/* Distance, cone, direction and doppler (every voice, every block). */
void ear__spatial_coarse(const ear__ears *ears, const ear__voice *voice, float speed_of_sound,
                         float doppler_scale, ear__spatial *sp);
/* Pan, interaural delay and the behind/below cue from the coarse direction. */
void ear__spatial_fine(const ear__voice *voice, float sample_rate, ear__spatial *sp);
/* One-pole TPT low-pass coefficient G = g / (1 + g), g = tan(pi fc / fs); 1 = open. */
float ear__lowpass_G(float cutoff_hz, float sample_rate);

/* voice_render.c: the scalar kernel (the reference, any CPU) */
extern const ear__kernel ear__kernel_scalar;
/* The read pass of the scalar kernel, shared with the SIMD kernels for the blocks their
 * fast paths do not take. */
bool ear__read_block(ear__voice *voice, uint64_t step_end_fx, uint32_t frames, float *out,
                     float *out_r);
bool ear__voice_render(ear__voice *voice, const ear__kernel_io *io, const ear__targets *t);
void ear__read_layer(ear__voice *v, uint64_t step_end, uint32_t frames, float *buf, float *sum,
                     float g0, float g1);
/* After a voice's block: its ramps end at the block's targets, where the next block starts. */
static inline void ear__adopt_targets(ear__voice *v, const ear__targets *t) {
    v->gain_l = t->gain_l;
    v->gain_r = t->gain_r;
    v->delay_l = t->delay_l;
    v->delay_r = t->delay_r;
    v->cue_G = t->cue_G;
    v->occ_G = t->occ_G;
}
/* The far ear's two fixed delays as taps into buf (h frames of history, then the block):
 * delay d0 reads from b0 with weight w0, d1 from b1 with w1, and inv is 1 / frames for the
 * crossfade from one to the other (0, and d0's taps made d1's, when the two are the same).
 * The SIMD kernels' mix; the scalar kernel's does the same sums in its own order. */
typedef struct ear__taps {
    const float *b0, *b1;
    float w0, w1, inv;
} ear__taps;
static inline ear__taps ear__delay_taps(const float *buf, uint32_t h, uint32_t frames, float d0,
                                        float d1) {
    float p0 = (float)h - d0, p1 = (float)h - d1;
    float f0 = floorf(p0), f1 = floorf(p1);
    ear__taps t = {buf + (uint32_t)f0, buf + (uint32_t)f1, p0 - f0, p1 - f1,
                   d0 == d1 ? 0.0f : 1.0f / (float)frames};
    if (d0 == d1) {
        t.b0 = t.b1;
        t.w0 = t.w1;
    }
    return t;
}
/* The voices of a SIMD group whose behind cue filters this block (the others only take
 * their last filtered sample as the state: the filter is open), for the kernels' lanes. */
typedef struct ear__cue_lanes {
    float *x[EAR__LANES];     /* each voice's block (its buffer after the history) */
    float *state[EAR__LANES]; /* its z_cue */
    float g0[EAR__LANES], g1[EAR__LANES];
    uint32_t k;
} ear__cue_lanes;
void ear__group_cue_lanes(ear__group *gr, uint32_t h, uint32_t frames, ear__cue_lanes *out);
/* Moves a virtual voice's cursor as rendering would, without rendering (any kernel);
 * returns true when a one-shot reached its end. */
bool ear__voice_advance(ear__voice *voice, uint32_t frames, uint64_t step_end_fx);

/* voice_render_avx2.c: AVX2 and FMA (x86-64 with both; NULL elsewhere) */
extern const ear__kernel *const ear__kernel_avx2;
/* voice_render_avx512.c: the AVX2 kernel sixteen wide, its output bit for bit (NULL off
 * x86-64); available where the CPU has AVX-512 F, BW, DQ and VL as well. */
extern const ear__kernel *const ear__kernel_avx512;
bool ear__kernel_avx512_available(void);
/* True for the kernels that run AVX2 and FMA (the HRTF's FFT and convolution follow). */
static inline bool ear__kernel_runs_avx2(const ear__kernel *k) {
    return k && (k == ear__kernel_avx2 || k == ear__kernel_avx512);
}
/* True when the CPU runs AVX2 and FMA (false off x86-64). */
bool ear__kernel_avx2_available(void);
/* The kernel for a configuration's choice (EAR_KERNEL_AUTO: the fastest this CPU runs);
 * NULL when the CPU lacks the one asked for. create.c, once. */
const ear__kernel *ear__kernel_select(ear_kernel kind);

/* hrtf_bank.c: the HRTF's game side (banks, settings; the direction lookup is public:
 * ear_hrtf_rings_weights) */
/* Frees banks the audio side has let go (every bank, when destroying). */
void ear__hrtf_collect(ear_stage *s, bool all);

/* hrtf_stage.c: the HRTF spatializer's audio side */
/* The stage's SPATIALIZER (id 0) and HRTF_SET commands. */
void ear__hrtf_apply(ear_stage *s, const ear__cmd *c);
/* Audio side, after a block: the bank a swap replaced is let go. */
void ear__hrtf_block_end(ear_stage *s);
/* A placed voice that renders through HRTF in this block (a set is loaded and the voice's
 * spatializer, or the stage's, says HRTF). */
bool ear__hrtf_wants(const ear_stage *s, const ear__voice *v);
/* The voice's block must go through ear__hrtf_render: it wants HRTF, or it is still
 * heard through a bank it is crossfading out of. */
bool ear__hrtf_involved(const ear_stage *s, const ear__voice *v);
/* One voice's block through the HRTF bank (crossfading from or to the pan or another bank
 * where the voice changes); true when a one-shot ended. */
bool ear__hrtf_render(ear_stage *s, ear__voice *v, const ear__kernel_io *io,
                      const ear__targets *t);
/* Audio side, after every voice and before the buses are summed: the HRTF voices' sums
 * (per bus) become sound in their buses. */
void ear__hrtf_flush(ear_stage *s);
/* A hint that voice v renders through HRTF soon: its filters and history are asked for. */
void ear__hrtf_prefetch(ear_stage *s, const ear__voice *v);
/* The fast convolution's frequency-domain loops (hrtf_fast.h): the scalar kernel's and
 * the AVX2 one's (NULL off x86-64), which give the same bits. */
typedef struct ear__hf_kernel {
    void (*mac)(uint32_t k, uint32_t kpad, const float *x, const float *sp, float *a0,
                float *a1); /* both ears */
    void (*mac_xfade)(uint32_t k, uint32_t kpad, const float *x, const float *so,
                      const float *sn, float *a0, float *a1); /* both ears */
    void (*combine)(uint32_t h, uint32_t j0, float inv_b, const float *y0, const float *y1,
                    float *out);
    void (*build)(uint32_t k, uint32_t kpad, const float *m0, const float *m1, const float *m2,
                  const float *m3, const float w[4], const float *fa, const float *fb, float fx,
                  const float *q, float *out);
    void (*product)(uint32_t k, uint32_t kpad, const float *x, const float *sp, float *y);
    void (*gain)(uint32_t n, uint32_t j0, float g0, float d, const float *x, float *out);
} ear__hf_kernel;
extern const ear__hf_kernel ear__hf_scalar;
extern const ear__hf_kernel *const ear__hf_avx2;

/* One TPT one-pole low-pass over x in place, G ramped from g0 to g1 across the block
 * (occlusion, the behind cue): the scalar kernel's and the HRTF path's one copy. A state
 * that went non-finite (a bad sample) must not poison later blocks. */
static inline void ear__lowpass_ramp(float *x, uint32_t frames, float *state, float g0,
                                     float g1) {
    if (g0 >= 1.0f && g1 >= 1.0f) {
        *state = x[frames - 1];
        return;
    }
    float s = *state;
    float dg = (g1 - g0) / (float)frames;
    float g = g0;
    for (uint32_t j = 0; j < frames; j++) {
        g += dg;
        float vv = (x[j] - s) * g;
        float y = vv + s;
        s = y + vv;
        x[j] = y;
    }
    *state = isfinite(s) ? s : 0.0f;
}

#endif
