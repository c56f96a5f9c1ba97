/* SPDX-License-Identifier: Zlib */
/*
 * The asset cache: names resolve to clips, and decoded clips are kept one per file path
 * (or synth name) with a count of holders.
 *
 * Invariants. Each entry holds exactly one reference to its clip; `holders` counts the
 * acquires not yet released, and an entry with none is idle (kept until trim). Keys are
 * unique. Registered names hold one reference each and are never trimmed. Nothing is
 * stored for a load that failed, so the next acquire reads the file again. The tables are
 * small arrays searched in order (a game names tens to hundreds of sounds), but for the
 * registered names, which a client may define by the hundred thousand: a hash index.
 */
#define _DEFAULT_SOURCE /* realpath */

#include "assets_internal.h"
#include "earshot/synth.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const extensions[] = {".wav", ".ogg", ".flac", ".opus", ".mp3"};
/* Music is more often compressed: those first. */
static const char *const music_extensions[] = {"", ".ogg", ".opus", ".flac", ".mp3", ".wav"};

void *ear__assets_alloc(const ear_assets *a, size_t size) {
    return a->alloc.alloc_fn ? a->alloc.alloc_fn(size, a->alloc.user) : malloc(size);
}

void ear__assets_free(const ear_assets *a, void *p) {
    if (!p) return;
    if (a->alloc.free_fn)
        a->alloc.free_fn(p, a->alloc.user);
    else
        free(p);
}

char *ear__assets_strdup(const ear_assets *a, const char *s) {
    size_t n = strlen(s) + 1;
    char *copy = ear__assets_alloc(a, n);
    if (copy) memcpy(copy, s, n);
    return copy;
}

void ear__assets_forget_missing(ear_assets *a) {
    for (uint32_t i = 0; i < a->missing_count; i++) ear__assets_free(a, a->missing[i]);
    a->missing_count = 0;
}

static bool is_missing(const ear_assets *a, const char *name) {
    for (uint32_t i = 0; i < a->missing_count; i++)
        if (strcmp(a->missing[i], name) == 0) return true;
    return false;
}

/* Out of memory only means the name is looked up again next time. */
static void remember_missing(ear_assets *a, const char *name) {
    char *copy = ear__assets_strdup(a, name);
    if (copy && ear__grow(&a->alloc, (void **)&a->missing, &a->missing_cap,
                          a->missing_count + 1, sizeof *a->missing))
        a->missing[a->missing_count++] = copy;
    else
        ear__assets_free(a, copy);
}

void ear__assets_warn_once(ear_assets *a, const char *name, const char *format, ...) {
    for (uint32_t i = 0; i < a->warned_count; i++)
        if (strcmp(a->warned[i], name) == 0) return;
    /* Out of memory only means the name may warn again. */
    char *copy = ear__assets_strdup(a, name);
    if (copy && ear__grow(&a->alloc, (void **)&a->warned, &a->warned_cap, a->warned_count + 1,
                          sizeof *a->warned))
        a->warned[a->warned_count++] = copy;
    else
        ear__assets_free(a, copy);
    char text[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    ear_log(EAR_LOG_WARN, "assets", "%s", text);
    a->stats.warnings++;
}

ear_assets_config ear_assets_config_default(void) {
    return (ear_assets_config){.root = "assets", .allocator = NULL};
}

ear_result ear_assets_create(const ear_assets_config *config, ear_assets **out_assets) {
    if (!out_assets) return EAR_E_INVALID_ARG;
    ear_assets_config c = config ? *config : ear_assets_config_default();
    if (!c.root || !*c.root) c.root = "assets";
    if (c.synth_max_s == 0.0f) c.synth_max_s = EAR_ASSETS_SYNTH_MAX_S;
    if (!(c.synth_max_s > 0.0f && c.synth_max_s <= 3600.0f)) return EAR_E_INVALID_ARG;
    ear_allocator alloc = {0};
    if (c.allocator) alloc = *c.allocator;
    void *mem = alloc.alloc_fn ? alloc.alloc_fn(sizeof(ear_assets), alloc.user)
                               : malloc(sizeof(ear_assets));
    if (!mem) return EAR_E_OUT_OF_MEMORY;
    ear_assets *a = mem;
    memset(a, 0, sizeof *a);
    a->alloc = alloc;
    a->synth_max_s = c.synth_max_s;
    /* A trailing slash would double in every path built from the root. */
    size_t len = strlen(c.root);
    while (len > 1 && c.root[len - 1] == '/') len--;
    a->root = ear__assets_alloc(a, len + 1);
    if (!a->root) {
        ear__assets_free(a, a);
        return EAR_E_OUT_OF_MEMORY;
    }
    memcpy(a->root, c.root, len);
    a->root[len] = '\0';
    if (c.allowed_roots) {
        a->confined = true;
        a->roots = ear__assets_alloc(a, (c.allowed_root_count + 1) * sizeof *a->roots);
        for (size_t i = 0; a->roots && i < c.allowed_root_count; i++) {
            char real[PATH_MAX];
            /* A folder that does not exist admits nothing. */
            if (!c.allowed_roots[i] || !realpath(c.allowed_roots[i], real)) continue;
            char *copy = ear__assets_strdup(a, real);
            if (!copy) {
                ear_assets_destroy(a);
                return EAR_E_OUT_OF_MEMORY;
            }
            a->roots[a->root_count++] = copy;
        }
        if (!a->roots) {
            ear_assets_destroy(a);
            return EAR_E_OUT_OF_MEMORY;
        }
    }
    *out_assets = a;
    return EAR_OK;
}

bool ear__assets_allowed(const ear_assets *a, const char *path) {
    if (!a->confined) return true;
    char real[PATH_MAX];
    if (!realpath(path, real)) return false;
    for (uint32_t i = 0; i < a->root_count; i++) {
        const char *root = a->roots[i];
        size_t n = strlen(root);
        if (strcmp(root, "/") == 0 ||
            (strncmp(real, root, n) == 0 && (real[n] == '\0' || real[n] == '/')))
            return true;
    }
    return false;
}

void ear_assets_destroy(ear_assets *a) {
    if (!a) return;
    for (uint32_t i = 0; i < a->entry_count; i++) {
        ear_clip_release(a->entries[i].clip);
        ear__assets_free(a, a->entries[i].key);
    }
    for (uint32_t i = 0; i < a->registered_count; i++) {
        ear_clip_release(a->registered[i].clip);
        ear__assets_free(a, a->registered[i].name);
    }
    for (uint32_t i = 0; i < a->root_count; i++) ear__assets_free(a, a->roots[i]);
    ear__assets_free(a, a->roots);
    for (uint32_t i = 0; i < a->alias_count; i++) {
        ear__assets_free(a, a->aliases[i].name);
        ear__assets_free(a, a->aliases[i].path);
    }
    for (uint32_t i = 0; i < a->warned_count; i++) ear__assets_free(a, a->warned[i]);
    ear__assets_forget_missing(a);
    ear__assets_free(a, a->missing);
    ear__assets_free(a, a->entries);
    ear__assets_free(a, a->registered);
    ear__name_index_free(&a->registered_index, &a->alloc);
    ear__assets_free(a, a->aliases);
    ear__assets_free(a, a->warned);
    ear__assets_free(a, a->root);
    ear__assets_free(a, a);
}

const char *ear_assets_root(const ear_assets *a) {
    return a ? a->root : NULL;
}

static bool name_ok(const char *name) {
    return name && *name && strlen(name) < EAR_SOUND_NAME_MAX;
}

static const char *registered_name(const void *user, uint32_t pos) {
    return ((const ear_assets *)user)->registered[pos].name;
}

static ear__asset_registered *find_registered(ear_assets *a, const char *name) {
    uint32_t i = ear__name_index_find(&a->registered_index, name, registered_name, a);
    return i == UINT32_MAX ? NULL : &a->registered[i];
}

static ear__asset_entry *find_entry(ear_assets *a, const char *key) {
    for (uint32_t i = 0; i < a->entry_count; i++)
        if (strcmp(a->entries[i].key, key) == 0) return &a->entries[i];
    return NULL;
}

ear_result ear_assets_register_clip(ear_assets *a, const char *name, ear_clip *clip) {
    if (!a || !name_ok(name) || !clip) return EAR_E_INVALID_ARG;
    ear__assets_forget_missing(a);
    ear__asset_registered *r = find_registered(a, name);
    if (r) {
        ear_clip_retain(clip);
        ear_clip_release(r->clip);
        r->clip = clip;
        a->stats.definitions++;
        return EAR_OK;
    }
    char *copy = ear__assets_strdup(a, name);
    if (!copy || !ear__grow(&a->alloc, (void **)&a->registered, &a->registered_cap,
                            a->registered_count + 1, sizeof *a->registered)) {
        ear__assets_free(a, copy);
        return EAR_E_OUT_OF_MEMORY;
    }
    a->registered[a->registered_count] = (ear__asset_registered){copy, clip, 0};
    if (!ear__name_index_add(&a->registered_index, &a->alloc, copy, a->registered_count,
                             registered_name, a)) {
        ear__assets_free(a, copy);
        return EAR_E_OUT_OF_MEMORY;
    }
    ear_clip_retain(clip);
    a->registered_count++;
    a->stats.definitions++;
    return EAR_OK;
}

ear_result ear__assets_set_alias(ear_assets *a, const char *name, const char *path) {
    for (uint32_t i = 0; i < a->alias_count; i++)
        if (strcmp(a->aliases[i].name, name) == 0) {
            char *p = ear__assets_strdup(a, path);
            if (!p) return EAR_E_OUT_OF_MEMORY;
            ear__assets_free(a, a->aliases[i].path);
            a->aliases[i].path = p;
            return EAR_OK;
        }
    char *n = ear__assets_strdup(a, name), *p = ear__assets_strdup(a, path);
    if (!n || !p ||
        !ear__grow(&a->alloc, (void **)&a->aliases, &a->alias_cap, a->alias_count + 1,
                   sizeof *a->aliases)) {
        ear__assets_free(a, n);
        ear__assets_free(a, p);
        return EAR_E_OUT_OF_MEMORY;
    }
    a->aliases[a->alias_count++] = (ear__asset_alias){n, p};
    return EAR_OK;
}

/* A regular file the cache may open (inside the allowed folders when confined). */
static bool is_file(const ear_assets *a, const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && ear__assets_allowed(a, path);
}

static bool is_synth_name(const char *name) {
    return strncmp(name, "synth:", 6) == 0;
}

/* The key of a name that is not registered: the synth name itself, an alias's path, or
 * the first file that exists. */
static ear_result resolve_key(ear_assets *a, const char *name, char *out, size_t cap) {
    if (is_synth_name(name)) {
        snprintf(out, cap, "%s", name);
        return EAR_OK;
    }
    for (uint32_t i = 0; i < a->alias_count; i++)
        if (strcmp(a->aliases[i].name, name) == 0) {
            snprintf(out, cap, "%s", a->aliases[i].path);
            /* Checked when audio.json was read; a link changed since is checked again. */
            return ear__assets_allowed(a, out) ? EAR_OK : EAR_E_NOT_FOUND;
        }
    int n = snprintf(out, cap, "%s/sounds/%s", a->root, name);
    if (n < 0 || (size_t)n >= cap) return EAR_E_NOT_FOUND;
    if (is_file(a, out)) return EAR_OK;
    for (size_t e = 0; e < sizeof extensions / sizeof extensions[0]; e++) {
        n = snprintf(out, cap, "%s/sounds/%s%s", a->root, name, extensions[e]);
        if (n >= 0 && (size_t)n < cap && is_file(a, out)) return EAR_OK;
    }
    return EAR_E_NOT_FOUND;
}

ear_result ear_assets_resolve(ear_assets *a, const char *name, char *out, size_t cap) {
    if (!a || !name_ok(name) || !out || cap == 0) return EAR_E_INVALID_ARG;
    if (find_registered(a, name) || is_synth_name(name)) {
        out[0] = '\0';
        return EAR_OK;
    }
    char key[4096];
    ear_result r = resolve_key(a, name, key, sizeof key);
    if (r != EAR_OK) return r;
    if (strlen(key) >= cap) return EAR_E_INVALID_ARG;
    memcpy(out, key, strlen(key) + 1);
    return EAR_OK;
}

static void warn_missing(ear_assets *a, const char *name) {
    ear__assets_warn_once(a, name,
                          "no sound named \"%s\" (not registered, not in audio.json's clips, "
                          "no file %s/sounds/%s[.wav|.ogg|.flac|.opus|.mp3]); it plays nothing",
                          name, a->root, name);
}

/* Finds or loads the entry for `name`; adds `holders` to it. */
static ear_result lookup(ear_assets *a, const char *name, uint32_t holders, ear_clip **out) {
    if (!a || !name_ok(name) || !out) return EAR_E_INVALID_ARG;
    a->last_load_error[0] = '\0';
    ear__asset_registered *reg = find_registered(a, name);
    if (reg) {
        reg->holders += holders;
        *out = reg->clip;
        return EAR_OK;
    }
    /* Missing before and nothing defined or loaded since: the disk is not asked again. */
    if (is_missing(a, name)) return EAR_E_NOT_FOUND;
    char key[4096];
    if (resolve_key(a, name, key, sizeof key) != EAR_OK) {
        warn_missing(a, name);
        remember_missing(a, name);
        return EAR_E_NOT_FOUND;
    }
    ear__asset_entry *e = find_entry(a, key);
    if (e) {
        e->holders += holders;
        *out = e->clip;
        return EAR_OK;
    }
    ear_clip *clip = NULL;
    ear_result r;
    const ear_allocator *alloc = (a->alloc.alloc_fn || a->alloc.free_fn) ? &a->alloc : NULL;
    if (is_synth_name(name)) {
        ear_synth sy;
        r = ear_synth_parse_name(name, &sy);
        if (r == EAR_OK && sy.seconds > a->synth_max_s) {
            /* Refused before a byte is allocated: the name alone sets the cost. */
            r = EAR_E_UNSUPPORTED;
            snprintf(a->last_load_error, sizeof a->last_load_error,
                     "its seconds field asks for %g s, more than the %g s a synth clip may "
                     "last here (ear_assets_config.synth_max_s)",
                     (double)sy.seconds, (double)a->synth_max_s);
        } else if (r == EAR_OK) {
            r = ear_synth_clip_from_name(name, alloc, &clip);
        }
        if (r != EAR_OK && !a->last_load_error[0])
            snprintf(a->last_load_error, sizeof a->last_load_error, "%s (%s)",
                     r == EAR_E_OUT_OF_MEMORY ? "out of memory" : "not a valid synth name",
                     ear_result_string(r));
        if (r != EAR_OK)
            ear__assets_warn_once(a, name, "sound \"%s\": %s", name, a->last_load_error);
    } else {
        ear_io_error err;
        r = ear_decode_file(key, alloc, &clip, &err);
        if (r != EAR_OK) {
            ear__assets_warn_once(a, name, "sound \"%s\" will not load: %s", name, err.message);
            memcpy(a->last_load_error, err.message, sizeof a->last_load_error);
        }
    }
    if (r != EAR_OK) {
        a->stats.failed_loads++;
        return r;
    }
    char *key_copy = ear__assets_strdup(a, key);
    if (!key_copy || !ear__grow(&a->alloc, (void **)&a->entries, &a->entry_cap,
                                a->entry_count + 1, sizeof *a->entries)) {
        ear__assets_free(a, key_copy);
        ear_clip_release(clip);
        return EAR_E_OUT_OF_MEMORY;
    }
    a->entries[a->entry_count++] = (ear__asset_entry){key_copy, clip, holders};
    a->stats.loads++;
    *out = clip;
    return EAR_OK;
}

ear_result ear_assets_acquire(ear_assets *a, const char *name, ear_clip **out_clip) {
    return lookup(a, name, 1, out_clip);
}

ear_result ear_assets_get(ear_assets *a, const char *name, ear_clip **out_clip) {
    return lookup(a, name, 0, out_clip);
}

ear_result ear_assets_release(ear_assets *a, ear_clip *clip) {
    if (!a || !clip) return EAR_E_INVALID_ARG;
    for (uint32_t i = 0; i < a->registered_count; i++)
        if (a->registered[i].clip == clip) {
            if (a->registered[i].holders == 0) return EAR_E_STATE;
            a->registered[i].holders--;
            return EAR_OK;
        }
    for (uint32_t i = 0; i < a->entry_count; i++)
        if (a->entries[i].clip == clip) {
            if (a->entries[i].holders == 0) return EAR_E_STATE;
            a->entries[i].holders--;
            return EAR_OK;
        }
    return EAR_E_NOT_FOUND;
}

uint32_t ear_assets_trim(ear_assets *a) {
    if (!a) return 0;
    uint32_t kept = 0, unloaded = 0;
    for (uint32_t i = 0; i < a->entry_count; i++) {
        if (a->entries[i].holders == 0) {
            ear_clip_release(a->entries[i].clip);
            ear__assets_free(a, a->entries[i].key);
            unloaded++;
        } else {
            a->entries[kept++] = a->entries[i];
        }
    }
    a->entry_count = kept;
    return unloaded;
}

ear_result ear_assets_play(ear_assets *a, ear_stage *stage, const char *name,
                           const ear_play *params, ear_voice_id *out_id) {
    if (out_id) *out_id = EAR_VOICE_NONE;
    if (!a || !stage || !name_ok(name)) return EAR_E_INVALID_ARG;
    ear_clip *clip;
    ear_result r = ear_assets_get(a, name, &clip);
    if (r != EAR_OK) return r;
    ear_voice_id id = EAR_VOICE_NONE;
    r = ear_stage_play(stage, clip, params ? params : &(ear_play){0}, &id);
    if (r == EAR_OK && out_id) *out_id = id;
    return r;
}

ear_asset_state ear_assets_state(ear_assets *a, const char *name) {
    ear_asset_state s = {false, 0};
    if (!a || !name_ok(name)) return s;
    ear__asset_registered *reg = find_registered(a, name);
    if (reg) return (ear_asset_state){true, reg->holders};
    char key[4096];
    if (resolve_key(a, name, key, sizeof key) != EAR_OK) return s;
    ear__asset_entry *e = find_entry(a, key);
    if (e) return (ear_asset_state){true, e->holders};
    return s;
}

const char *ear_assets_last_load_error(const ear_assets *a) {
    return a ? a->last_load_error : "";
}

ear_assets_stats ear_assets_get_stats(const ear_assets *a) {
    ear_assets_stats s = {0};
    if (!a) return s;
    s = a->stats;
    s.entries = a->entry_count;
    s.idle = 0;
    for (uint32_t i = 0; i < a->entry_count; i++)
        if (a->entries[i].holders == 0) s.idle++;
    return s;
}

ear_result ear__assets_read_file(const ear_assets *a, const char *path, char **out_text,
                                 size_t *out_len, ear_io_error *err) {
    /* Outside the allowed folders reads exactly as a missing file. */
    if (!ear__assets_allowed(a, path)) {
        if (err) snprintf(err->message, sizeof err->message, "%s: no such file", path);
        return EAR_E_NOT_FOUND;
    }
    /* A regular file of at most 16 MiB, checked on the open descriptor: a FIFO is not
     * waited on, /dev/zero and a sparse 20 GB file are refused at once (core.md). */
    char scratch[EAR_ERROR_TEXT_MAX];
    return ear_file_read(path, EAR_FILE_MAX_DOCUMENT_BYTES, NULL, out_text, out_len,
                         err ? err->message : scratch,
                         err ? sizeof err->message : sizeof scratch);
}

/* <root>/<folder>/<name> with each music extension; true when one exists. */
static bool find_music_in(ear_assets *a, const char *folder, const char *name, char *out,
                          size_t cap) {
    for (size_t e = 0; e < sizeof music_extensions / sizeof music_extensions[0]; e++) {
        int n = snprintf(out, cap, "%s/%s/%s%s", a->root, folder, name, music_extensions[e]);
        if (n >= 0 && (size_t)n < cap && is_file(a, out)) return true;
    }
    return false;
}

ear_result ear_assets_open_music(ear_assets *a, const char *name, bool loop,
                                 ear_stream *out_stream) {
    if (!a || !name_ok(name) || !out_stream) return EAR_E_INVALID_ARG;
    char path[4096];
    bool found = false;
    for (uint32_t i = 0; i < a->alias_count && !found; i++)
        if (strcmp(a->aliases[i].name, name) == 0) {
            snprintf(path, sizeof path, "%s", a->aliases[i].path);
            found = ear__assets_allowed(a, path);
        }
    if (!found) found = find_music_in(a, "music", name, path, sizeof path);
    if (!found) found = find_music_in(a, "sounds", name, path, sizeof path);
    if (!found) {
        ear__assets_warn_once(a, name,
                              "no music named \"%s\" (not in audio.json's clips, no file "
                              "%s/music/%s or %s/sounds/%s, with or without an extension); it "
                              "plays nothing",
                              name, a->root, name, a->root, name);
        return EAR_E_NOT_FOUND;
    }
    ear_io_error err;
    ear_file_stream_config c = {.loop = loop};
    if (a->alloc.alloc_fn || a->alloc.free_fn) c.allocator = &a->alloc;
    ear_result r = ear_file_stream_open(path, &c, out_stream, &err);
    if (r != EAR_OK)
        ear__assets_warn_once(a, name, "music \"%s\" will not play: %s", name, err.message);
    return r;
}
