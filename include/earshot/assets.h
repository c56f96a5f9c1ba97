/* SPDX-License-Identifier: Zlib */
/*
 * Assets: sounds by name, a reference-counted cache of decoded clips, and the assets
 * folder's audio.json (buses, ducks, clips, blends, pools). See docs/modules/assets.md.
 *
 * A name resolves, in this order, to
 *   1. a clip registered under it (ear_assets_register_clip),
 *   2. a clip named in audio.json's "clips" (a file under <root>/sounds/),
 *   3. a synth name, "synth:<waveform>:<hz>[:<seconds>[:<amplitude>]]", built on the spot,
 *   4. the file <root>/sounds/<name>, or <root>/sounds/<name> with .wav, .ogg, .flac,
 *      .opus or .mp3 appended (the first that exists).
 *
 * The cache keeps one entry per file path (and per synth name), with a count of holders.
 * Acquire loads once and returns the cached clip after; release lowers the count, and an
 * entry with no holders is idle: still loaded, because the next level very likely wants
 * it; trim unloads the idle entries. A file that failed to load is not remembered, so a
 * later acquire tries again. A sound that cannot be found warns once per name (module
 * "assets") and plays nothing; the game goes on.
 *
 * Everything here is Thread: game (it reads files) unless a function says otherwise.
 */
#ifndef EARSHOT_ASSETS_H
#define EARSHOT_ASSETS_H

#include "earshot/core.h"
#include "earshot/decode.h"
#include "earshot/mixer.h"
#include "earshot/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sound names (and clip names inside audio.json) are at most this long, with the NUL. */
#define EAR_SOUND_NAME_MAX 256

typedef struct ear_assets ear_assets;

typedef struct ear_assets_config {
    const char *root;               /* the assets folder; NULL or "": "assets" (copied) */
    const ear_allocator *allocator; /* the cache and the clips it decodes; NULL: malloc */
    /* Folders that every file the cache opens (sounds, music, audio.json, its clips,
     * .blend.json files) must lie inside once symbolic links are followed (realpath); a
     * file outside them is treated exactly as a missing one: the same warning, the same
     * EAR_E_NOT_FOUND, so a caller cannot tell what exists outside. The folders are
     * resolved when the cache is created (one that does not exist then admits nothing).
     * NULL (the default): any file. Copied. */
    const char *const *allowed_roots;
    size_t allowed_root_count;
    /* The longest clip a synth name ("synth:<waveform>:<hz>:<seconds>") may make here, in
     * seconds: a name asking for more is refused with EAR_E_UNSUPPORTED and a warning
     * (once) naming the sound, its seconds field and this limit, and plays nothing; an
     * audio.json blend layer or pool clip asking for more fails the setup with the file,
     * the JSON path and the same reason. It bounds what a few bytes of a name can cost
     * (an hour of 48 kHz sound is 660 MiB). 0 (the default): EAR_ASSETS_SYNTH_MAX_S
     * (60 s); at most 3600 (the synth's own limit); EAR_E_INVALID_ARG otherwise. */
    float synth_max_s;
} ear_assets_config;

/* The default longest synth clip of an assets cache (ear_assets_config.synth_max_s). */
#define EAR_ASSETS_SYNTH_MAX_S 60.0f

/* The defaults above. Thread: any. */
ear_assets_config ear_assets_config_default(void);

/* Creates an empty cache for one assets folder (config NULL: defaults). The folder need
 * not exist yet. EAR_E_INVALID_ARG, EAR_E_OUT_OF_MEMORY. Thread: game. */
ear_result ear_assets_create(const ear_assets_config *config, ear_assets **out_assets);

/* Releases every clip the cache and registry hold (voices that still play one keep
 * their own reference) and frees the cache. NULL does nothing. Thread: game. */
void ear_assets_destroy(ear_assets *assets);

/* The assets folder (borrowed, valid while the assets live). Thread: any (fixed at create). */
const char *ear_assets_root(const ear_assets *assets);

/* Registers `clip` under `name` (taking a reference; replacing, and releasing, an earlier
 * clip of that name). A registered name wins over every other way of resolving it, and
 * is never trimmed. EAR_E_INVALID_ARG for NULLs, an empty name or one too long.
 * Thread: game. */
ear_result ear_assets_register_clip(ear_assets *assets, const char *name, ear_clip *clip);

/* Writes into `out` the file a name resolves to ("" for registered and synth names);
 * EAR_E_NOT_FOUND when nothing answers to it. Warns nothing. Thread: game. */
ear_result ear_assets_resolve(ear_assets *assets, const char *name, char *out, size_t cap);

/* Resolves `name` and adds a holder to its entry, loading it if the cache does not hold it;
 * writes the clip (borrowed from the cache: valid until the last holder has released it
 * and a trim has run; retain it to keep it longer). EAR_E_NOT_FOUND (warned once per
 * name) when nothing answers to the name; a decoding error (warned once per name, with the
 * file and the reason) when the file will not load, and nothing is remembered. Thread: game. */
ear_result ear_assets_acquire(ear_assets *assets, const char *name, ear_clip **out_clip);

/* Drops one holder of the entry holding `clip` (an entry with none left is idle, still
 * loaded). EAR_E_NOT_FOUND when the cache holds no such clip; EAR_E_STATE when it has no
 * holders. Thread: game. */
ear_result ear_assets_release(ear_assets *assets, ear_clip *clip);

/* Unloads every idle entry (the clips' memory goes when no voice plays them any more) and
 * returns how many. Registered clips stay. Thread: game. */
uint32_t ear_assets_trim(ear_assets *assets);

/* Like acquire, but adds no holder: the clip is cached as an idle entry, borrowed until the
 * next trim. For playing a sound now (the voice holds its own reference). Thread: game. */
ear_result ear_assets_get(ear_assets *assets, const char *name, ear_clip **out_clip);

/* Plays the sound `name` on `stage` with params (ear_play; NULL: defaults). A sound that
 * cannot be found or loaded warns once per name, writes EAR_VOICE_NONE (which reads as
 * finished: ear_stage_is_playing is false) and returns EAR_E_NOT_FOUND or the decoding
 * error; the game goes on. Otherwise as ear_stage_play. Thread: game. */
ear_result ear_assets_play(ear_assets *assets, ear_stage *stage, const char *name,
                           const ear_play *params, ear_voice_id *out_id);

/* What a name's entry holds: its holders (0 when idle or not cached) and whether it is
 * loaded. Registered names report loaded with their holder count. */
typedef struct ear_asset_state {
    bool loaded;
    uint32_t holders;
} ear_asset_state;
/* The state of `name`'s entry (nothing loaded, no holders for an unknown name).
 * Thread: game. */
ear_asset_state ear_assets_state(ear_assets *assets, const char *name);

/* Why the last acquire, get or play that had to load a file could not: the decoder's
 * "<path>: <reason>" ("" when that load succeeded or none was needed). Borrowed, valid until
 * the next call on the assets. Thread: game. */
const char *ear_assets_last_load_error(const ear_assets *assets);

typedef struct ear_assets_stats {
    uint32_t entries;      /* cached entries (files and synth names) */
    uint32_t idle;         /* of which with no holders */
    uint64_t loads;        /* files decoded and synth clips built, ever */
    uint64_t failed_loads; /* loads that failed (not remembered) */
    uint64_t warnings;     /* missing-sound warnings given (one per name) */
    uint64_t definitions;  /* clips registered and audio.json setups applied, ever (a name
                              that was missing may resolve now: the audio world retries) */
} ear_assets_stats;
/* The counters above. Thread: game. */
ear_assets_stats ear_assets_get_stats(const ear_assets *assets);

/* ---- Music ------------------------------------------------------------------------ */

/* Opens the music file `name` as a stream decoded on its own thread (ear_file_stream_open):
 * an audio.json clip name, <root>/music/<name>, or <root>/sounds/<name> (each also with
 * .ogg, .opus, .flac, .mp3 or .wav appended). A name that cannot be found or opened warns
 * once per name (the reason included) and returns EAR_E_NOT_FOUND or the decoding error,
 * with *out_stream untouched: the game plays on without it. Thread: game. */
ear_result ear_assets_open_music(ear_assets *assets, const char *name, bool loop,
                                 ear_stream *out_stream);

/* Opens `name` as above and starts it on the stage's music channel (ear_stage_music_play,
 * which then owns the stream): loop, volume and crossfade_s as there. A missing file warns
 * once and plays nothing. Thread: game. */
ear_result ear_assets_play_music(ear_assets *assets, ear_stage *stage, const char *name,
                                 bool loop, float volume, float crossfade_s);

/* ---- audio.json -------------------------------------------------------------------- */

/* A blend, or a pool, as audio.json (or a .blend.json file) describes it: the definition
 * and, for each layer or pool clip, the sound name it asked for. After parsing the clips
 * are NULL; ear_assets_load_setup fills them (and holds a reference to each). */
typedef struct ear_blend_source {
    ear_blend_def def;
    char clip_names[EAR_BLEND_MAX_LAYERS][EAR_SOUND_NAME_MAX];
} ear_blend_source;

typedef struct ear_pool_source {
    ear_pool_def def;
    char clip_names[EAR_POOL_MAX_CLIPS][EAR_SOUND_NAME_MAX];
} ear_pool_source;

typedef struct ear_clip_alias {
    char name[EAR_SOUND_NAME_MAX];
    char file[EAR_SOUND_NAME_MAX]; /* relative to <root>/sounds/, or absolute */
} ear_clip_alias;

/* An assets folder's audio.json, parsed. */
typedef struct ear_audio_setup {
    bool has_bus_volume[EAR_BUS_COUNT];
    float bus_volume[EAR_BUS_COUNT];
    uint32_t duck_count, clip_count, blend_count, pool_count;
    ear_duck_rule *ducks;
    ear_clip_alias *clips;
    ear_blend_source *blends;
    ear_pool_source *pools;
    bool clips_resolved; /* the blends' and pools' clips are filled and held */
    bool has_reverb;     /* "reverb": the stage's room (a preset, fields over it) */
    ear_reverb_params reverb;
    bool has_reverb_send[EAR_BUS_COUNT]; /* "reverb"."sends": bus -> send 0..1 */
    float reverb_send[EAR_BUS_COUNT];
} ear_audio_setup;

/* The longest synth clip a setup file (audio.json, a .blend.json) may name, in seconds:
 * a blend layer's "clip" or a pool's clip that is a synth name asking for more fails the
 * parse (EAR_E_FORMAT) naming the file, the JSON path, the sound and its seconds field. */
#define EAR_AUDIO_SETUP_SYNTH_MAX_S 60.0f

/* Parses audio.json's text (`label` names the file in errors, e.g. "assets/audio.json")
 * into a new setup (free with ear_audio_setup_destroy). Every key is checked: an unknown
 * key, a wrong type or a value out of range fails with EAR_E_FORMAT and an error naming
 * the file and the JSON path, e.g.
 * "assets/audio.json: blends[0].layers[1].gain[0].points: expected an array of [x, y]
 * pairs". Thread: any. */
ear_result ear_audio_setup_parse(const char *text, size_t length, const char *label,
                                 ear_audio_setup **out_setup, ear_io_error *err);

/* Parses one blend (the text of a <name>.blend.json file) into *out (clips NULL, names in
 * clip_names). Errors as ear_audio_setup_parse's, with paths from the blend's root
 * ("layers[0].clip"). Thread: any. */
ear_result ear_blend_parse(const char *text, size_t length, const char *label,
                           ear_blend_source *out, ear_io_error *err);

/* Releases the clips a resolved setup holds and frees it. NULL does nothing.
 * Thread: the setup's holder (clip references are atomic). */
void ear_audio_setup_destroy(ear_audio_setup *setup);

/* Reads and parses <root>/audio.json, registers its "clips" names with the assets, and
 * resolves every blend layer's and pool's clip through the assets (holding a reference to
 * each). EAR_E_NOT_FOUND (no error text: a folder without audio.json is fine) when there
 * is none; EAR_E_FORMAT with the file and key for bad JSON or a clip name nothing answers
 * to ("assets/audio.json: pools[0].clips[2]: no sound named \"thud\""). Thread: game. */
ear_result ear_assets_load_setup(ear_assets *assets, ear_audio_setup **out_setup,
                                 ear_io_error *err);

/* Applies <root>/audio.json to the stage once per assets object: bus volumes, ducks,
 * blends and pools, through mixer.h. Later calls return EAR_OK and change nothing; a
 * folder without audio.json is EAR_OK. Errors as ear_assets_load_setup's, or a mixer
 * error naming the entry ("assets/audio.json: blends[1]: the stage refused it: ...").
 * Thread: game. */
ear_result ear_assets_apply_setup(ear_assets *assets, ear_stage *stage, ear_io_error *err);

/* Reads <root>/sounds/<name>.blend.json, resolves its clips and registers the blend on the
 * stage. EAR_E_NOT_FOUND when there is no such file. Thread: game. */
ear_result ear_assets_load_blend_file(ear_assets *assets, ear_stage *stage, const char *name,
                                      ear_io_error *err);

/* Plays a blend found by name: registered on the stage, listed in audio.json (apply the
 * setup first), or read from <root>/sounds/<name>.blend.json on first use. A blend that
 * cannot be found warns once per name and writes EAR_VOICE_NONE. Thread: game. */
ear_result ear_assets_play_blend(ear_assets *assets, ear_stage *stage, const char *name,
                                 const ear_play *params, ear_voice_id *out_id);

#ifdef __cplusplus
}
#endif

#endif
