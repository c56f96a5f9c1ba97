/* SPDX-License-Identifier: Zlib */
/*
 * The registry's insides, shared by its files in their order (ORDER): the base every
 * handler builds on (cmd_base.c), the schema validator (schema.c), the handlers (cmd_*.c),
 * the table and front-end lines (commands.c) and MCP (mcp.c).
 */
#ifndef EAR_COMMANDS_INTERNAL_H
#define EAR_COMMANDS_INTERNAL_H

#include "earshot/assets.h"
#include "earshot/commands.h"
#include "earshot/mixer.h"
#include "earshot/level.h"
#include "earshot/physics.h"
#include "earshot/world.h"
#include "earshot/stage.h"

#include "json_kind.h"

#define EAR__RATE      48000u
#define EAR__MAX_NOTES 64

/* A voice started through the commands, for audio.voices and audio.status. */
typedef struct ear__cmd_voice {
    ear_voice_id id;
    char kind[8]; /* "sound", "blend", "pool" */
    char name[EAR_SOUND_NAME_MAX];
} ear__cmd_voice;

/* A clip defined by audio.clip.define: registered again in a new assets folder. */
typedef struct ear__cmd_clip {
    char name[EAR_SOUND_NAME_MAX];
    ear_clip *clip; /* one reference */
} ear__cmd_clip;

typedef char ear__cmd_name[EAR_NAME_MAX];

/* A blend's parameter names, so audio.play can refuse an unknown one before it starts a
 * voice (blends defined by command or audio.json; a .blend.json read on first play is not
 * known here, and its parameters are checked by the stage after the start). */
typedef struct ear__cmd_blend {
    ear__cmd_name name;
    uint32_t count;
    ear__cmd_name params[EAR_BLEND_MAX_PARAMS];
} ear__cmd_blend;

/* The parts of the memory budget (commands.c), each counted on its own for audio.status
 * (docs/commands.md, "audio.status"). */
typedef enum ear__cmd_part {
    EAR__PART_SOUNDS, /* clips defined, decoded and cached; synth results */
    EAR__PART_NAMES,  /* the clip table and its name index */
    EAR__PART_RENDER, /* the last render and analysis transforms */
    EAR__PART_WORLD,  /* the physics world and its document */
    EAR__PART_HRTF,   /* an HRTF set while it is loaded and made into filters */
    EAR__PART_STAGE,  /* the stage: voices, pools, blends, the HRTF bank, the reverb */
    EAR__PART_JSON,   /* parsed JSON: the request running, a scene (charged, measured) */
    EAR__PART_FIXED,  /* what the stage allocates when it is made (the same for every
                         session, 3.05 MiB): reported, not counted in used_bytes */
    EAR__PART_COUNT
} ear__cmd_part;
extern const char *const ear__cmd_part_names[EAR__PART_COUNT];

typedef struct ear__cmd_part_user {
    ear_commands *c;
    size_t part;
} ear__cmd_part_user;

/* A schema compiled for fast checking (schema.c). */
typedef struct ear__schema ear__schema;
/* Compiles a JSON schema (which must outlive the result); NULL when out of memory. */
ear__schema *ear__schema_compile(const json_t *schema);
void ear__schema_free(ear__schema *schema);
/* Whether value conforms: the same answer as ear_schema_check returning NULL. */
bool ear__schema_valid(const ear__schema *schema, const json_t *value);

struct ear_commands {
    ear_commands_config config;
    char assets_root[4096];
    json_t **schemas; /* parsed, one per table entry */
    ear__schema **compiled;
    ear_stage *stage;
    ear_assets *assets;
    uint64_t seed;
    uint64_t random_starts; /* audio.play random_start draws so far (since the reset) */

    ear__cmd_voice *voices;
    size_t voice_count;
    uint32_t voice_cap;
    ear__cmd_clip *clips; /* through `alloc`: the budget counts the names */
    size_t clip_count, clip_cap;
    ear__name_index clip_index; /* names -> positions in clips */
    ear__cmd_name *ducks, *blends, *pools;
    ear__cmd_blend *blend_defs;
    size_t blend_def_count;
    uint32_t blend_def_cap;
    size_t duck_count, blend_count, pool_count;
    uint32_t duck_cap, blend_cap, pool_cap; /* ear__grow's (core) */

    char *notes[EAR__MAX_NOTES];
    size_t note_count;

    char **roots; /* with confine_paths: the allowed folders, realpath'd */
    size_t root_count;

    /* Files this session wrote (cmd_measure.c): their device and inode, so that with
     * confine_paths "overwrite" replaces only those; and the bytes written, against
     * config.max_output_bytes. */
    struct ear__cmd_written {
        uint64_t dev, ino;
    } * written;
    size_t written_count, written_cap;
    uint64_t output_bytes;

    float *buffer; /* the last render, interleaved stereo (through `alloc`) */
    uint64_t buffer_frames;
    bool rendering;

    /* The physics world of the world.* commands (cmd_world.c): empty (world NULL) until
     * first used; world.load replaces it whole. */
    ear_level_doc world;
    /* The audio world over it (cmd_audio_world.c): the document's per-body source, impact
     * and listener objects; NULL before a world.load. */
    ear_world *audio_world;
    /* The session's memory budget (commands.c). Clips (defined, decoded and cached),
     * synth results, render buffers and analysis transforms are allocated through `alloc`,
     * which counts their live bytes and refuses an allocation that would take them past
     * config.max_memory_bytes (recording its size in mem_refused). */
    ear_allocator alloc; /* the sounds' part; the others are part_alloc[part] */
    ear_allocator part_alloc[EAR__PART_COUNT];
    ear__cmd_part_user part_user[EAR__PART_COUNT];
    size_t part_used[EAR__PART_COUNT];
    size_t mem_used, mem_peak, mem_refused;
    /* The largest transient load an HRTF set took (libmysofa's arrays, cmd_hrtf.c). */
    uint64_t hrtf_load_peak;
    bool changed; /* a handler that failed after changing state (a render): no retry */
    /* The work budget (commands.c): totals over the session, and the command's own. */
    uint64_t session_steps, session_work, session_frames, session_rays;
    uint64_t command_steps, command_work, command_rays;
    uint64_t audio_rays_seen; /* the audio world's occlusion rays counted so far */
    /* The request a front end runs now (borrowed while it runs, else NULL). */
    const json_t *request_id, *progress_token;
};

typedef json_t *(*ear__cmd_fn)(ear_commands *c, json_t *params, json_t **err);

/* Handlers, one per command (the table in commands.c lists them). Each returns a new result,
 * or NULL with *err set; on failure nothing has changed. */
json_t *ear__cmd_status(ear_commands *c, json_t *params, json_t **err);
/* cmd_reverb.c: audio.reverb.set, and the rooms for audio.status. */
json_t *ear__cmd_reverb_set(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_reverb_status(ear_commands *c);
json_t *ear__cmd_voices(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_reset(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_bus_set(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_duck_set(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_limiter_set(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_limiter_json(ear_commands *c);
json_t *ear__cmd_duck_trigger(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_clip_define(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_blend_define(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_pool_define(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_load(ear_commands *c, json_t *params, json_t **err);
/* cmd_hrtf.c: audio.hrtf.load, the set for audio.status, and "spatializer" params. */
json_t *ear__cmd_hrtf_load(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_hrtf_status(const ear_commands *c);
ear_spatializer ear__spatializer(const json_t *params, const char *key,
                                 ear_spatializer fallback);
json_t *ear__cmd_play(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_voice_set(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_stop(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_listener_set(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_music_play(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_music_stop(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_render_offline(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_analyze(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_describe(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_get(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_load(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_move(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_path(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_ray(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_set(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_status(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_step(ear_commands *c, json_t *params, json_t **err);
/* The audio world of a world document (cmd_audio_world.c): builds a new ear_world over the
 * registry's stage and assets and `physics` from the document's per-body "source",
 * "impact" and "listener" objects. NULL on success (*out set); else a new E_BAD_PARAM
 * error whose where starts with `prefix`, and nothing is built. */
json_t *ear__cmd_audio_world_build(ear_commands *c, const json_t *doc, ear_physics *physics,
                                   const char *prefix, ear_world **out);
/* Stops the audio world's voices and frees it (reset, a new world.load, destroy). */
void ear__cmd_audio_world_forget(ear_commands *c);
/* Notes the step's poses and syncs the audio world (nothing without one). */
void ear__cmd_audio_world_sync(ear_commands *c, double dt_s);
/* Frees the world of the world.* commands (the registry's destroy). */
void ear__cmd_world_forget(ear_commands *c);
/* The body named params[key] (cmd_world.c), or EAR_BODY_NONE with *err set. */
ear_body_id ear__cmd_world_body(ear_commands *c, const json_t *params, const char *key,
                                json_t **err);
/* world.follow, world.attach, world.once: the audio world's shortcuts
 * (cmd_world_sounds.c). */
json_t *ear__cmd_world_follow(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_attach(ear_commands *c, json_t *params, json_t **err);
json_t *ear__cmd_world_once(ear_commands *c, json_t *params, json_t **err);
/* audio.play's params as an ear_play (cmd_play.c): volume 0 is silence, absent fields the
 * stage's defaults. */
ear_play ear__cmd_play_params(const json_t *params);

/* The embedded schema texts (generated from schemas/commands/ at build time), in the
 * table's alphabetical order. */
extern const char *const ear__schema_names[];
extern const char *const ear__schema_texts[];
extern const size_t ear__schema_count;

/* The error for a failed stage or assets call: E_NOT_FOUND, E_AUDIO_TOO_MANY_VOICES,
 * E_STATE (a stale voice), E_BAD_PARAM, E_IO, E_OUT_OF_MEMORY or E_INTERNAL, naming
 * `where`. */
json_t *ear__cmd_result_error(ear_result r, const char *where, const char *what);
/* The error for a sound name that would not play: a bad synth name says what a synth name
 * is; a file that will not decode gives the decoder's reason ("is a text file", "not a
 * sound file libsndfile can read: ..."); otherwise as ear__cmd_result_error. */
json_t *ear__cmd_sound_error(ear_commands *c, ear_result r, const char *where,
                             const char *name);

/* Params helpers: the number at key, or fallback when absent (the schema has checked
 * types and ranges). */
double ear__num(const json_t *params, const char *key, double fallback);
bool ear__bool(const json_t *params, const char *key, bool fallback);
const char *ear__str(const json_t *params, const char *key);
/* Reads [x, y, z] at key into *out; false when absent. */
bool ear__vec3(const json_t *params, const char *key, ear_vec3 *out);
/* The bus named by params[key], else fallback. */
ear_bus ear__bus(const json_t *params, const char *key, ear_bus fallback);

/* What a JSON value is, for messages: ear__json_kind (src/json/json_kind.h). */

/* Resolves a path given to a command: as given, or, with confine_paths, inside the allowed
 * folders (realpath; for a file to write, its folder must exist there). NULL on success
 * with the path in out; else a new E_NOT_FOUND error ("no such file" or "no such folder",
 * the same for a path outside the folders as for a missing one) or E_BAD_PARAM (not a
 * file name, too long). */
json_t *ear__cmd_path(const ear_commands *c, const char *path, bool for_write,
                      const char *where, char *out, size_t capacity);

/* Refuses a synth: name that does not parse, or one (or a synth part of `seconds`) longer
 * than max_synth_seconds, with a new E_BAD_PARAM error at `where`; NULL when it is fine or
 * not a synth name. */
json_t *ear__cmd_check_synth(const ear_commands *c, const char *name, const char *where);
json_t *ear__cmd_check_seconds(const ear_commands *c, double seconds, const char *where);

/* The session's memory budget as allocators, one a part (ear__cmd_alloc): every block
 * counted against max_memory_bytes and in its part; c->alloc is the sounds' part. */
void ear__cmd_budget_init(ear_commands *c);
/* Removes the allowed roots' real paths from an error's texts (confine_paths). */
void ear__cmd_scrub_error(const ear_commands *c, json_t *err);

/* Makes room for `need` more bytes in the budget, trimming idle cache entries (sounds that
 * no voice plays and nobody holds, loaded again when next asked for) if that helps; false
 * when even then the budget has no room. */
bool ear__cmd_room(ear_commands *c, size_t need);
/* The allocator of one part of the budget. */
ear_allocator *ear__cmd_alloc(ear_commands *c, ear__cmd_part part);
/* Counts `bytes` of parsed JSON (measured, not allocated through the budget: jansson's
 * allocator is the process's) in the json part; NULL, or a new E_TOO_BIG error at `where`
 * naming `what` when the budget has no room (nothing is counted then). */
json_t *ear__cmd_charge(ear_commands *c, const char *where, const char *what, uint64_t bytes);
void ear__cmd_uncharge(ear_commands *c, uint64_t bytes);
/* Parses a JSON text within the budget: measured first (ear_json_measure) and refused
 * with E_TOO_BIG (*err, with "values") when its parse has no room; else charged
 * (*charged, to uncharge once the value is freed) and parsed (the fast reader, then
 * jansson with `flags` and any value; NULL with *jerr for bad JSON). */
json_t *ear__cmd_json_read(ear_commands *c, const char *text, size_t length, size_t flags,
                           const char *where, uint64_t *charged, json_t **err,
                           json_error_t *jerr);
/* A new E_TOO_BIG error at `where`: `need` bytes do not fit in the budget. */
json_t *ear__cmd_too_big(const ear_commands *c, const char *where, size_t need);
/* The error for a failed allocation of `need` bytes through c->alloc: E_TOO_BIG when the
 * budget refused it, else E_OUT_OF_MEMORY. */
json_t *ear__cmd_alloc_error(const ear_commands *c, const char *where, size_t need);

/* The work budget. ear__cmd_work_admit checks, before anything changes, that `steps`
 * more world steps (each estimated to cost `step_work`) and `frames` more rendered frames
 * fit the command's and the session's budgets; NULL, or a new E_TOO_BIG error at `where`
 * naming the limit, what was asked and what is left. */
json_t *ear__cmd_work_admit(const ear_commands *c, const char *where, uint64_t steps,
                            uint64_t step_work, uint64_t frames);
/* Counts one world step that cost `work` (or, with steps 0, `frames` rendered frames), then
 * asks the front end's progress hook; false with *err set when the command must stop:
 * E_CANCELLED (the hook said so) or E_TOO_BIG (the world grew costlier while the command
 * ran than its estimate, past the budget). */
bool ear__cmd_work_tick(ear_commands *c, const char *unit, uint64_t steps, uint64_t work,
                        uint64_t frames, uint64_t done, uint64_t total, json_t **err);

/* Admits `rays` more ray casts against the command's and the session's ray budgets and
 * counts them: NULL, or a new E_TOO_BIG error at `where` (nothing counted). */
json_t *ear__cmd_rays_admit(ear_commands *c, const char *where, uint64_t rays);

/* The name of clips[pos], for clip_index. */
const char *ear__cmd_clip_name(const void *commands, uint32_t pos);

/* Name lists (ducks, blends, pools) for audio.status: adds a name once. */
void ear__cmd_remember(ear__cmd_name **list, size_t *count, uint32_t *cap, const char *name);
/* Records (or replaces) a blend's parameter names. */
void ear__cmd_remember_blend(ear_commands *c, const ear_blend_def *def);
/* The recorded blend of that name, or NULL. */
const ear__cmd_blend *ear__cmd_find_blend(const ear_commands *c, const char *name);
/* Records a voice started by a command. */
void ear__cmd_track_voice(ear_commands *c, ear_voice_id id, const char *kind, const char *name);
/* Drops tracked voices that have ended. */
void ear__cmd_prune_voices(ear_commands *c);

/* Reads a JSON object quickly (json_fast.c); NULL for anything it does not accept, which
 * the caller then reads with json_loadb for the value or the error. */
json_t *ear__json_read_fast(const char *text, size_t length);
/* Compact JSON text of a value (reals to 9 significant digits, non-finite as null); free()
 * it. NULL when out of memory. */
char *ear__json_write(const json_t *value);

/* An assets cache for root, confined like the registry's paths. */
ear_result ear__cmd_make_assets(const ear_commands *c, const char *root, ear_assets **out);
/* Creates the stage and assets of a (re)set registry; on failure changes nothing. */
ear_result ear__cmd_make_stage(ear_commands *c, uint64_t seed, ear_stage **out_stage,
                               ear_assets **out_assets);
/* Forgets every voice, clip, name, note and the buffer (the stage and assets stay);
 * cmd_state.c, beside audio.reset. */
void ear__cmd_forget(ear_commands *c);

#endif
