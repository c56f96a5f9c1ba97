/* SPDX-License-Identifier: Zlib */
/*
 * The assets object's insides, shared by the cache (cache.c), the audio.json parser
 * (setup_parse.c), its loading (setup_load.c) and its application to a stage
 * (setup_apply.c, the one file that calls the mixer).
 */
#ifndef EAR_ASSETS_INTERNAL_H
#define EAR_ASSETS_INTERNAL_H

#include "earshot/assets.h"

/* A cached clip: a file path, or a synth name, and its holders. */
typedef struct ear__asset_entry {
    char *key;
    ear_clip *clip;
    uint32_t holders;
} ear__asset_entry;

/* A name registered by the game; never trimmed. */
typedef struct ear__asset_registered {
    char *name;
    ear_clip *clip;
    uint32_t holders;
} ear__asset_registered;

/* A name from audio.json's "clips": the file's full path. */
typedef struct ear__asset_alias {
    char *name;
    char *path;
} ear__asset_alias;

struct ear_assets {
    ear_allocator alloc;
    char *root;
    ear__asset_entry *entries;
    uint32_t entry_count, entry_cap;
    ear__asset_registered *registered;
    uint32_t registered_count, registered_cap;
    ear__name_index registered_index; /* names -> positions in registered */
    ear__asset_alias *aliases;
    uint32_t alias_count, alias_cap;
    char **warned; /* names already warned about, so each warns once */
    uint32_t warned_count, warned_cap;
    /* Names found nowhere (not registered, no alias, no file): answered EAR_E_NOT_FOUND
     * without looking at the disk again until a define or load changes what names mean
     * (ear__assets_forget_missing). */
    char **missing;
    uint32_t missing_count, missing_cap;
    ear_assets_stats stats;
    bool setup_applied;
    bool confined; /* files must lie inside one of roots (ear_assets_config) */
    char **roots;  /* realpath'd allowed folders */
    uint32_t root_count;
    /* Why the last file that would not load did not ("<path>: <reason>"), for messages
     * that name a sound by where it is used (audio.json's pools and blends). */
    char last_load_error[EAR_ERROR_TEXT_MAX];
    float synth_max_s; /* ear_assets_config.synth_max_s, the default applied */
};

/* Whether path may be opened: always when not confined; else when it exists and its
 * realpath lies inside one of the allowed folders. */
bool ear__assets_allowed(const ear_assets *a, const char *path);

void *ear__assets_alloc(const ear_assets *a, size_t size);
void ear__assets_free(const ear_assets *a, void *p);
/* A copy of s made with the assets' allocator; NULL when out of memory. */
char *ear__assets_strdup(const ear_assets *a, const char *s);
/* Arrays grow with core's ear__grow through the assets' allocator (&a->alloc). */

/* Warns "message" once per name (module "assets"); later calls with the same name say
 * nothing. */
/* Clears the list of missing names: called by everything that can make a name resolve
 * (registering a clip, loading or applying audio.json, loading a blend file). */
void ear__assets_forget_missing(ear_assets *a);
void ear__assets_warn_once(ear_assets *a, const char *name, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Adds or replaces an audio.json clip name. */
ear_result ear__assets_set_alias(ear_assets *a, const char *name, const char *path);

/* Reads a whole file (ear_file_read: a regular file of at most EAR_FILE_MAX_DOCUMENT_BYTES)
 * into a NUL-terminated buffer (free with free()). EAR_E_NOT_FOUND when it does not exist
 * or is outside the allowed folders (the same message); EAR_E_IO for a folder, FIFO or
 * device (refused at once, never waited on); EAR_E_FORMAT over the limit; the reason
 * goes into err. */
ear_result ear__assets_read_file(const ear_assets *a, const char *path, char **out_text,
                                 size_t *out_len, ear_io_error *err);

/* Resolves every clip name of a blend or pool source through the assets (holding a
 * reference to each clip); on failure nothing is held and err names `label` and `path`
 * ("blends[0]" ...). */
ear_result ear__assets_resolve_blend(ear_assets *a, ear_blend_source *b, const char *label,
                                     const char *path, ear_io_error *err);
ear_result ear__assets_resolve_pool(ear_assets *a, ear_pool_source *p, const char *label,
                                    const char *path, ear_io_error *err);
/* Releases what resolve took. */
void ear__assets_unresolve_blend(ear_blend_source *b);
void ear__assets_unresolve_pool(ear_pool_source *p);

#endif
