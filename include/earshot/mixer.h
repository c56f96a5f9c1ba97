/* SPDX-License-Identifier: Zlib */
/*
 * The game mixer on top of the stage: buses, ducking, blend sounds (layers driven by
 * parameters), one-shot pools, music with crossfades, fire-and-forget events and the
 * room reverb.
 * Everything goes through the stage's command path and stays deterministic and
 * chunk-independent; nothing here allocates while rendering. Formulas and defaults:
 * docs/stage.md ("The mixer").
 */
#ifndef EARSHOT_MIXER_H
#define EARSHOT_MIXER_H

#include "earshot/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EAR_NAME_MAX 32 /* names of ducks, blends, pools, parameters: at most 31 bytes */

/* "sfx", "master", "music", "ui", "engine", "ambience"; NULL for anything else.
 * Thread: any. */
const char *ear_bus_name(ear_bus bus);
/* The bus of that name; EAR_E_NOT_FOUND otherwise. Thread: any. */
ear_result ear_bus_from_name(const char *name, ear_bus *out_bus);

/* ---- Buses ------------------------------------------------------------------------- */

/* Sets a bus's volume (linear; negative or not finite is silence), ramped over one
 * block; cancels a fade in progress. Thread: game. */
ear_result ear_stage_set_bus_volume(ear_stage *stage, ear_bus bus, float volume);
/* Mutes or unmutes a bus (ramped over one block, so it never clicks). Thread: game. */
ear_result ear_stage_set_bus_muted(ear_stage *stage, ear_bus bus, bool muted);
/* Moves a bus's volume linearly to `volume` over `seconds` (0: one block). Any failure
 * (EAR_E_INVALID_ARG, EAR_E_OUT_OF_MEMORY) changes nothing. Thread: game. */
ear_result ear_stage_fade_bus(ear_stage *stage, ear_bus bus, float volume, float seconds);

/* The game side's view of a bus: what was last asked for. */
typedef struct ear_bus_state {
    float volume; /* the target (or the fade's end) */
    bool muted;
} ear_bus_state;
/* Thread: game. */
ear_bus_state ear_stage_get_bus(const ear_stage *stage, ear_bus bus);

/* ---- Ducking ---------------------------------------------------------------------- */

/* Lowers `target` by gain_db while `trigger` sounds above threshold (the trigger bus's
 * peak after its volume, per block), or while ear_stage_trigger_duck holds it: a linear
 * ramp (in gain) down to gain_db over attack_s, held hold_s after the trigger stops,
 * back over release_s. Several rules on one target multiply. Zero fields mean:
 * gain_db -12, threshold 0.01 (-40 dBFS), attack 0.05 s, hold 0.2 s, release 0.5 s. */
typedef struct ear_duck_rule {
    char name[EAR_NAME_MAX];
    ear_bus trigger;
    ear_bus target;
    float gain_db;
    float threshold;
    float attack_s;
    float hold_s;
    float release_s;
} ear_duck_rule;

/* Adds a rule, or replaces the rule of the same name (its current level is kept).
 * At most 16 rules. EAR_E_INVALID_ARG for an empty name or trigger == target.
 * Thread: game. */
ear_result ear_stage_set_duck(ear_stage *stage, const ear_duck_rule *rule);
/* Removes the named rule (EAR_E_NOT_FOUND otherwise). Thread: game. */
ear_result ear_stage_remove_duck(ear_stage *stage, const char *name);
/* Holds the named duck down for hold_s seconds from now (a crash under the music), as
 * if its trigger sounded. EAR_E_NOT_FOUND for an unknown name. Thread: game. */
ear_result ear_stage_trigger_duck(ear_stage *stage, const char *name, float hold_s);
/* Copies the rule named `name` into *out (EAR_E_NOT_FOUND otherwise). Thread: game. */
ear_result ear_stage_get_duck(const ear_stage *stage, const char *name, ear_duck_rule *out);

/* ---- Blend sounds ----------------------------------------------------------------- */

#define EAR_BLEND_MAX_PARAMS 8
#define EAR_BLEND_MAX_LAYERS 8
#define EAR_BLEND_MAX_CURVES 4 /* gain curves, and pitch curves, per layer */
#define EAR_CURVE_MAX_POINTS 16

typedef enum ear_curve_shape {
    EAR_CURVE_LINEAR = 0, /* linear in amplitude: two in-phase layers sum to constant */
    EAR_CURVE_EQUAL_POWER /* sin/cos: two unrelated layers sum to constant power; 0.707
                             halfway */
} ear_curve_shape;

/* A piecewise curve over one parameter: points (x, y) in increasing x; outside the first
 * and last point it holds the end values. With EAR_CURVE_EQUAL_POWER each segment from
 * y0 to y1 follows y0 + (y1 - y0) * sin(t * pi / 2) when rising, and
 * y1 + (y0 - y1) * cos(t * pi / 2) when falling (t in 0..1 along the segment). */
typedef struct ear_curve {
    char param[EAR_NAME_MAX];
    uint32_t count;
    float x[EAR_CURVE_MAX_POINTS];
    float y[EAR_CURVE_MAX_POINTS];
    ear_curve_shape shape;
} ear_curve;

typedef struct ear_blend_param {
    char name[EAR_NAME_MAX];
    float min, max, initial; /* initial: the default value, clamped into min..max */
} ear_blend_param;

/* A looping layer: its clip (a reference is taken at registration), the product of its
 * gain curves is its volume, the product of its pitch curves its pitch. */
typedef struct ear_blend_layer {
    ear_clip *clip;
    float loop_crossfade_s;
    uint32_t gain_count, pitch_count;
    ear_curve gain[EAR_BLEND_MAX_CURVES];
    ear_curve pitch[EAR_BLEND_MAX_CURVES];
} ear_blend_layer;

/* A blend sound: data. Played, it is one voice (one position, one bus, counts once
 * towards the voice limits). Zero fields: bus sfx, smoothing 30 ms, volume 1. */
typedef struct ear_blend_def {
    char name[EAR_NAME_MAX];
    ear_bus bus;
    float smoothing_ms; /* how parameters are followed */
    float volume;
    uint32_t param_count, layer_count;
    ear_blend_param params[EAR_BLEND_MAX_PARAMS];
    ear_blend_layer layers[EAR_BLEND_MAX_LAYERS];
} ear_blend_def;

/* Registers (or replaces) a blend by name; the stage copies the definition and holds a
 * reference to each layer's clip. Errors name the problem through the log and return
 * EAR_E_INVALID_ARG: an unknown parameter in a curve, points not increasing, no layers,
 * a NULL clip, min > max. Thread: game. */
ear_result ear_stage_register_blend(ear_stage *stage, const ear_blend_def *def);
/* Plays a registered blend with the placement and flags of params (its bus, volume
 * and smoothing come from the definition unless params sets volume or bus).
 * EAR_E_NOT_FOUND for an unknown name, EAR_E_TOO_MANY_VOICES beyond max_blend_voices.
 * Thread: game. */
ear_result ear_stage_play_blend(ear_stage *stage, const char *name, const ear_play *params,
                                ear_voice_id *out_id);
/* Sets a blend voice's parameter (clamped to min..max, followed through the blend's
 * smoothing). EAR_E_NOT_FOUND for a parameter the blend does not have;
 * EAR_E_INVALID_ARG for a value that is not finite. Thread: game. */
ear_result ear_stage_set_param(ear_stage *stage, ear_voice_id id, const char *param,
                               float value);

/* ---- One-shot pools --------------------------------------------------------------- */

#define EAR_POOL_MAX_CLIPS 16

/* Picks a clip at random from the stage's seeded generator (never the one just played,
 * when there are two or more and no_repeat is set), a volume uniform in
 * [volume_min, volume_max] and a pitch of 2^(s / 12) with s uniform in
 * [pitch_semitones_min, pitch_semitones_max], and fades out the oldest instance beyond
 * max_instances (0: no limit). Zero volumes mean 1. */
typedef struct ear_pool_def {
    char name[EAR_NAME_MAX];
    uint32_t clip_count;
    ear_clip *clips[EAR_POOL_MAX_CLIPS];
    ear_bus bus;
    float volume_min, volume_max;
    float pitch_semitones_min, pitch_semitones_max;
    bool no_repeat;
    uint32_t max_instances;
    uint8_t priority;
} ear_pool_def;

/* Registers (or replaces) a pool; it takes a reference to each clip. EAR_E_INVALID_ARG
 * (logged) for a bad definition, EAR_E_STATE when the 64 pools are taken; nothing changes
 * then. Thread: game. */
ear_result ear_stage_register_pool(ear_stage *stage, const ear_pool_def *def);
/* Plays one pick of the pool with the placement of params. EAR_E_NOT_FOUND for an unknown
 * name; the stage's play errors otherwise. Thread: game. */
ear_result ear_stage_play_pool(ear_stage *stage, const char *name, const ear_play *params,
                               ear_voice_id *out_id);

/* ---- Music -------------------------------------------------------------------------- */

/* A stream of frames pulled by the mixer on the audio thread (a file decoded ahead on
 * another thread, for instance). read writes up to `frames` interleaved frames and
 * returns how many it wrote; it must not block, allocate, lock or log. A short read is
 * an underrun (silence is played for the rest); `ended` tells the mixer the stream has
 * no more frames (a looping stream never ends). release is called on the game thread
 * once the stage no longer uses the stream. */
typedef struct ear_stream {
    uint32_t channels;    /* 1 or 2 */
    uint32_t sample_rate; /* 1000..384000 */
    uint32_t (*read)(void *user, float *out, uint32_t frames);
    bool (*ended)(void *user);
    void (*release)(void *user);
    void *user;
} ear_stream;

/* What a music track plays: a clip in memory, or a stream (exactly one of the two). */
typedef struct ear_music_source {
    ear_clip *clip;
    const ear_stream *stream; /* copied; the stage calls release when done with it */
} ear_music_source;

/* A music track to start. Zero fields are the defaults. */
typedef struct ear_music_params {
    const char *name;        /* kept for status (copied, up to 31 bytes); NULL: "" */
    ear_music_source source; /* a clip or a stream, exactly one */
    bool loop;               /* clips: loop; default false (streams loop themselves) */
    float volume;            /* linear; 0 means the default 1; negative is silence */
    float crossfade_s;       /* default 0: the old tracks stop (5 ms), the new one starts */
} ear_music_params;

/* Starts a track on the music bus: it fades in over crossfade_s while every playing
 * track fades out over the same time with constant-power gains (sin and cos of the
 * fade's progress times pi/2). Tracks at another rate are resampled. A stream source is
 * taken (its release is called when the stage is done with it) only when this returns
 * EAR_OK. EAR_E_INVALID_ARG (no or two sources, a bad stream, a negative or non-finite
 * crossfade), EAR_E_TOO_MANY_VOICES (all 4 stream slots in use, or the voice budget);
 * on failure the playing tracks keep playing. Thread: game. */
ear_result ear_stage_music_play(ear_stage *stage, const ear_music_params *params);
/* Fades all music out over fade_s and ends it. Thread: game. */
ear_result ear_stage_music_stop(ear_stage *stage, float fade_s);
/* The bus music plays on (default EAR_BUS_MUSIC); applies to tracks started later.
 * Thread: game. */
ear_result ear_stage_set_music_bus(ear_stage *stage, ear_bus bus);
/* The name of the newest track, or "" when none plays (borrowed, until the next music
 * call). Thread: game. */
const char *ear_stage_music_name(const ear_stage *stage);

/* ---- Fire-and-forget ---------------------------------------------------------------- */

/* Plays a one-shot nobody will stop or move (a footstep, a coin): no id comes back.
 * A placed request farther from the listener than its own max distance, where its model
 * reaches silence (EAR_MODEL_FADE, or EAR_MODEL_LINEAR with rolloff >= 1 and max above
 * ref), is dropped before it takes a voice: EAR_OK, and *out_dropped (if given) says so.
 * A linear range at or below ref does not attenuate, so it always plays. Looping is
 * ignored. Thread: game. */
ear_result ear_stage_play_event(ear_stage *stage, ear_clip *clip, const ear_play *params,
                                bool *out_dropped);

/* ---- Voice management --------------------------------------------------------------- */

typedef struct ear_stage_stats {
    uint32_t voices;            /* voices that exist */
    uint32_t real_voices;       /* rendered in the last block */
    uint32_t virtual_voices;    /* moving their cursor only */
    uint64_t refused;           /* plays refused with EAR_E_TOO_MANY_VOICES */
    uint64_t stolen;            /* voices faded out to make room */
    uint64_t dropped_far;       /* fire-and-forget requests dropped as out of range */
    uint64_t commands;          /* commands the game side has sent since creation (plays,
                                   moves, volumes, listener ...): what a caller costs */
    uint64_t blends_registered; /* ear_stage_register_blend calls that succeeded, ever */
} ear_stage_stats;

/* Counts as of the last rendered block (voices: now). Thread: game. */
ear_stage_stats ear_stage_get_stats(const ear_stage *stage);
/* Whether the voice was rendered (real) in the last block. Thread: game. */
bool ear_stage_is_real(const ear_stage *stage, ear_voice_id id);

/* ---- Room reverb ------------------------------------------------------------------ */

/* One room reverb per stage: the room the listener is in (the audio world's zones change
 * it as the listener walks). Voices and buses send to it; its wet output joins the master
 * before the master gain. Model, formulas and what was measured: docs/stage.md ("Room
 * reverb"). A stage made with ear_stage_config.no_reverb has none: these calls then
 * return EAR_E_UNSUPPORTED (the getters answer the defaults). */

typedef enum ear_reverb_preset {
    EAR_REVERB_ROOM = 0, /* a furnished room: short, soft */
    EAR_REVERB_HALL,     /* a concert hall: long, smooth, a clear pre-delay */
    EAR_REVERB_CAVE,     /* a stone cave: long, dark, sparse */
    EAR_REVERB_CORRIDOR, /* a tiled corridor: bright, medium, little diffusion */
    EAR_REVERB_OUTDOORS, /* open air: a short faint tail */
    EAR_REVERB_PRESET_COUNT
} ear_reverb_preset;

/* A room as a sound designer describes it. Fill it from ear_reverb_params_default() or
 * ear_reverb_preset() and change fields (zero is a real value here, not "default"). */
typedef struct ear_reverb_params {
    float rt60_low_s;   /* decay time to -60 dB below the crossover, s; 0.1 .. 30 */
    float rt60_high_s;  /* decay time above the crossover, s; 0.1 .. 30 */
    float crossover_hz; /* where the two decay bands meet; 50 .. 10000 (and < 0.4 rate) */
    float predelay_ms;  /* before the reverb's first sound; 0 .. 200 */
    float size;         /* scales the delay lines (room size); 0.25 .. 3, 1 = a medium
                           room (lines 21 .. 47 ms) */
    float density;      /* diffusion of the input, 0 (discrete echoes) .. 1 (smooth) */
    float damping;      /* softens the walls: a low-pass on the reverb's input from
                           20 kHz (0) down to 500 Hz (1), log-spaced */
    float wet;          /* linear level of the wet output; 0 .. 4 */
} ear_reverb_params;

/* The room preset's parameters. Thread: any. */
ear_reverb_params ear_reverb_params_default(void);
/* A preset's parameters (EAR_E_INVALID_ARG for an unknown preset). Thread: any. */
ear_result ear_reverb_preset_params(ear_reverb_preset preset, ear_reverb_params *out);
/* "room", "hall", "cave", "corridor", "outdoors"; NULL for anything else. Thread: any. */
const char *ear_reverb_preset_name(ear_reverb_preset preset);
/* The preset of that name; EAR_E_NOT_FOUND otherwise. Thread: any. */
ear_result ear_reverb_preset_from_name(const char *name, ear_reverb_preset *out);
/* EAR_OK when every field is finite and in its range above; otherwise EAR_E_INVALID_ARG
 * and *out_field (if given) names the first field that is not (a static string). For
 * parsers that must say what is wrong. Thread: any. */
ear_result ear_reverb_params_check(const ear_reverb_params *params, const char **out_field);

/* Sets the room (copied), reached smoothly over transition_s seconds (at least 20 ms, so
 * nothing clicks). A room of the same size and pre-delay moves its levels in place (decay
 * times and crossover geometrically, the rest linearly); a room of another size or
 * pre-delay starts in the reverb's second network while the input crossfades to it and the
 * old room's tail rings out in the old room (docs/stage.md). EAR_E_INVALID_ARG (a field out
 * of range, logged by name; a negative or non-finite transition), EAR_E_UNSUPPORTED (no
 * reverb), EAR_E_OUT_OF_MEMORY (full ring, no overflow): the room is then unchanged.
 * Thread: game. */
ear_result ear_stage_set_reverb(ear_stage *stage, const ear_reverb_params *params,
                                float transition_s);
/* The room last set (the default room before any). Thread: game. */
ear_reverb_params ear_stage_get_reverb(const ear_stage *stage);

/* A bus's send to the reverb, linear 0 .. 1 (clamped; not finite is 0), default 0: the
 * bus's signal after its voices' own sends, before its volume, times send, feeds the
 * reverb, then scaled by the bus's gain like its dry signal. Ramped over one block.
 * Thread: game. */
ear_result ear_stage_set_bus_reverb_send(ear_stage *stage, ear_bus bus, float send);
/* The send last set for the bus (0 for a bad bus). Thread: game. */
float ear_stage_get_bus_reverb_send(const ear_stage *stage, ear_bus bus);

/* A voice's send to the reverb, linear 0 .. 1 (clamped; not finite is 0), ramped over one
 * block (ear_play.reverb_send sets it at the start). What the voice sends is its dry
 * output (after pan, distance, cone and occlusion) times send / sqrt(g), where g is the
 * voice's distance x cone gain (floored at 1e-4; 1 for flat voices): so the wet level
 * falls with distance at half the dry's rate in dB, and far voices are relatively wetter.
 * A voice that is virtual sends nothing. EAR_E_STALE_ID for an ended voice. Thread: game. */
ear_result ear_stage_set_reverb_send(ear_stage *stage, ear_voice_id id, float send);

typedef struct ear_reverb_state {
    bool awake;            /* processing (something sends, or the tail has not died) */
    uint64_t blocks;       /* control blocks processed since creation */
    uint64_t sleeps;       /* times the tail died and the state was cleared */
    uint32_t subnormals;   /* floats in the reverb's state that are subnormal (a scan) */
    float peak;            /* largest magnitude in the reverb's state */
    uint32_t state_floats; /* how many floats the scan looked at */
} ear_reverb_state;

/* Scans the reverb's state (delay lines, filters) for diagnostics and tests; costs a pass
 * over its memory (about 400 KB at 48 kHz). Zeroes when the stage has no reverb.
 * Thread: audio (offline: the game thread, between renders). */
ear_reverb_state ear_stage_reverb_state(const ear_stage *stage);

#ifdef __cplusplus
}
#endif

#endif
