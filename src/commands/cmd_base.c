/* SPDX-License-Identifier: Zlib */
/*
 * What every command handler builds on: the session's memory budget (the allocator that
 * counts every block) and work budget, errors in the registry's shape, reading params,
 * paths confined to the allowed roots, the checks of seconds and synth names, the names,
 * voices and notes the session remembers, and making a stage and an assets cache. The base
 * of the module's file order (ORDER): it calls no other file of the module.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "commands_internal.h"

#include "earshot/synth.h"
#include "earshot/core.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- The memory budget ---------------------------------------------------------------- */

/* Each block carries its size and its part in a 16-byte header (which keeps the 16-byte
 * alignment the allocator hooks promise), so frees and reallocs can be counted, each in
 * the part it was allocated for (audio.status reports the parts). */
#define BUDGET_HEADER 16u

const char *const ear__cmd_part_names[EAR__PART_COUNT] = {
    "sounds", "names", "render", "world", "hrtf", "stage", "json", "stage_fixed"};

static bool budget_admits(ear_commands *c, size_t old_size, size_t size) {
    size_t limit = (size_t)c->config.max_memory_bytes;
    size_t after = c->mem_used - old_size;
    if (size > limit || after > limit - size) {
        c->mem_refused = size;
        return false;
    }
    return true;
}

static void budget_count(ear_commands *c, size_t part, size_t old_size, size_t size) {
    c->part_used[part] = c->part_used[part] - old_size + size;
    if (part == EAR__PART_FIXED) return;
    c->mem_used = c->mem_used - old_size + size;
    if (c->mem_used > c->mem_peak) c->mem_peak = c->mem_used;
}

static void *budget_alloc(size_t size, void *user) {
    ear__cmd_part_user *u = user;
    ear_commands *c = u->c;
    if (size > SIZE_MAX - BUDGET_HEADER ||
        (u->part != EAR__PART_FIXED && !budget_admits(c, 0, size)))
        return NULL;
    unsigned char *p = malloc(size + BUDGET_HEADER);
    if (!p) return NULL;
    size_t part = u->part;
    memcpy(p, &size, sizeof size);
    memcpy(p + sizeof size, &part, sizeof part);
    budget_count(c, part, 0, size);
    return p + BUDGET_HEADER;
}

static void *budget_realloc(void *ptr, size_t size, void *user) {
    if (!ptr) return budget_alloc(size, user);
    ear_commands *c = ((ear__cmd_part_user *)user)->c;
    unsigned char *p = (unsigned char *)ptr - BUDGET_HEADER;
    size_t old, part;
    memcpy(&old, p, sizeof old);
    memcpy(&part, p + sizeof old, sizeof part);
    if (size > SIZE_MAX - BUDGET_HEADER ||
        (part != EAR__PART_FIXED && !budget_admits(c, old, size)))
        return NULL;
    unsigned char *q = realloc(p, size + BUDGET_HEADER);
    if (!q) return NULL;
    memcpy(q, &size, sizeof size);
    budget_count(c, part, old, size);
    return q + BUDGET_HEADER;
}

static void budget_free(void *ptr, void *user) {
    if (!ptr) return;
    ear_commands *c = ((ear__cmd_part_user *)user)->c;
    unsigned char *p = (unsigned char *)ptr - BUDGET_HEADER;
    size_t size, part;
    memcpy(&size, p, sizeof size);
    memcpy(&part, p + sizeof size, sizeof part);
    budget_count(c, part, size, 0);
    free(p);
}

ear_allocator *ear__cmd_alloc(ear_commands *c, ear__cmd_part part) {
    return &c->part_alloc[part];
}

json_t *ear__cmd_charge(ear_commands *c, const char *where, const char *what, uint64_t bytes) {
    if (bytes > SIZE_MAX || !ear__cmd_room(c, (size_t)bytes)) {
        json_t *e = ear_command_error(
            "E_TOO_BIG", where,
            "%s: %s would take about %.1f MiB, over the room left in the session's memory "
            "budget (%.1f MiB of %.1f MiB in use; nothing of it ran; the budget is set with "
            "--memory-mb)",
            where, what, (double)bytes / (1024.0 * 1024.0),
            (double)c->mem_used / (1024.0 * 1024.0),
            (double)c->config.max_memory_bytes / (1024.0 * 1024.0));
        if (e) {
            json_object_set_new(e, "needed_bytes", json_integer((json_int_t)bytes));
            json_object_set_new(e, "used_bytes", json_integer((json_int_t)c->mem_used));
            json_object_set_new(e, "budget_bytes",
                                json_integer((json_int_t)c->config.max_memory_bytes));
        }
        return e;
    }
    budget_count(c, EAR__PART_JSON, 0, (size_t)bytes);
    return NULL;
}

void ear__cmd_uncharge(ear_commands *c, uint64_t bytes) {
    budget_count(c, EAR__PART_JSON, (size_t)bytes, 0);
}

json_t *ear_commands_charge(ear_commands *c, const char *what, uint64_t bytes) {
    if (!c) return NULL;
    return ear__cmd_charge(c, what ? what : "document", "parsing it", bytes);
}

void ear_commands_uncharge(ear_commands *c, uint64_t bytes) {
    if (c && bytes <= c->part_used[EAR__PART_JSON]) ear__cmd_uncharge(c, bytes);
}

json_t *ear__cmd_json_read(ear_commands *c, const char *text, size_t length, size_t flags,
                           const char *where, uint64_t *charged, json_t **err,
                           json_error_t *jerr) {
    ear_json_cost cost = ear_json_measure(text, length);
    *charged = 0;
    char what[96];
    snprintf(what, sizeof what, "parsing its %llu JSON values",
             (unsigned long long)cost.values);
    if ((*err = ear__cmd_charge(c, where, what, cost.bytes))) {
        if (*err) json_object_set_new(*err, "values", json_integer((json_int_t)cost.values));
        return NULL;
    }
    *charged = cost.bytes;
    json_t *v = ear__json_read_fast(text, length);
    if (!v) v = json_loadb(text, length, flags | JSON_DECODE_ANY, jerr);
    return v;
}

void ear__cmd_budget_init(ear_commands *c) {
    for (size_t part = 0; part < EAR__PART_COUNT; part++) {
        c->part_user[part] = (ear__cmd_part_user){c, part};
        c->part_alloc[part] =
            (ear_allocator){budget_alloc, budget_realloc, budget_free, &c->part_user[part]};
    }
    c->alloc = c->part_alloc[EAR__PART_SOUNDS];
}

bool ear__cmd_room(ear_commands *c, size_t need) {
    size_t limit = (size_t)c->config.max_memory_bytes;
    if (need <= limit && c->mem_used <= limit - need) return true;
    ear_assets_trim(c->assets);
    if (need <= limit && c->mem_used <= limit - need) return true;
    c->mem_refused = need;
    return false;
}

static double mib(size_t bytes) {
    return (double)bytes / (1024.0 * 1024.0);
}

json_t *ear__cmd_too_big(const ear_commands *c, const char *where, size_t need) {
    json_t *e = ear_command_error(
        "E_TOO_BIG", where,
        "%s: over the session's memory budget: %.1f MiB more would pass %.1f MiB (%.1f MiB "
        "in use by clips, cached sounds and the last render; nothing was changed; the "
        "budget is set with --memory-mb)",
        where, mib(need), mib((size_t)c->config.max_memory_bytes), mib(c->mem_used));
    if (e) {
        json_object_set_new(e, "needed_bytes", json_integer((json_int_t)need));
        json_object_set_new(e, "used_bytes", json_integer((json_int_t)c->mem_used));
        json_object_set_new(e, "budget_bytes",
                            json_integer((json_int_t)c->config.max_memory_bytes));
    }
    return e;
}

json_t *ear__cmd_alloc_error(const ear_commands *c, const char *where, size_t need) {
    if (c->mem_refused) return ear__cmd_too_big(c, where, c->mem_refused);
    return ear_command_error("E_OUT_OF_MEMORY", where,
                             "%s: out of memory: %.1f MiB could not be allocated", where,
                             mib(need));
}

/* ---- The work budget ------------------------------------------------------------------ */

static json_t *work_error(const char *where, const char *what, uint64_t asked, uint64_t left,
                          uint64_t limit, const char *set_by) {
    json_t *e = ear_command_error(
        "E_TOO_BIG", where,
        "%s: over the %s budget: %llu asked, %llu left of %llu (nothing was changed; the "
        "budget is set with %s)",
        where, what, (unsigned long long)asked, (unsigned long long)left,
        (unsigned long long)limit, set_by);
    if (e) {
        json_object_set_new(e, "budget", json_string(what));
        json_object_set_new(e, "asked", json_integer((json_int_t)asked));
        json_object_set_new(e, "left", json_integer((json_int_t)left));
        json_object_set_new(e, "limit", json_integer((json_int_t)limit));
    }
    return e;
}

static uint64_t left_of(uint64_t limit, uint64_t used) {
    return used < limit ? limit - used : 0;
}

/* a * b, saturating. */
static uint64_t times(uint64_t a, uint64_t b) {
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

json_t *ear__cmd_work_admit(const ear_commands *c, const char *where, uint64_t steps,
                            uint64_t step_work, uint64_t frames) {
    const ear_commands_config *k = &c->config;
    uint64_t work = times(steps, step_work);
    uint64_t left;
    if (steps > (left = left_of(k->max_world_steps, c->command_steps)))
        return work_error(where, "steps per command", steps, left, k->max_world_steps,
                          "the registry's max_world_steps");
    if (steps > (left = left_of(k->max_session_steps, c->session_steps)))
        return work_error(where, "steps per session", steps, left, k->max_session_steps,
                          "--max-steps");
    if (work > (left = left_of(k->max_command_work, c->command_work)))
        return work_error(where, "physics work per command", work, left, k->max_command_work,
                          "--max-work");
    if (work > (left = left_of(k->max_session_work, c->session_work)))
        return work_error(where, "physics work per session", work, left, k->max_session_work,
                          "--max-work");
    uint64_t frame_limit = (uint64_t)(k->max_session_render_seconds * EAR__RATE);
    if (frames > (left = left_of(frame_limit, c->session_frames)))
        return work_error(where, "rendered frames per session", frames, left, frame_limit,
                          "--max-render-seconds");
    return NULL;
}

json_t *ear__cmd_rays_admit(ear_commands *c, const char *where, uint64_t rays) {
    const ear_commands_config *k = &c->config;
    uint64_t left;
    if (rays > (left = left_of(k->max_command_rays, c->command_rays)))
        return work_error(where, "ray casts per command", rays, left, k->max_command_rays,
                          "--max-rays");
    if (rays > (left = left_of(k->max_session_rays, c->session_rays)))
        return work_error(where, "ray casts per session", rays, left, k->max_session_rays,
                          "--max-rays");
    c->command_rays += rays;
    c->session_rays += rays;
    return NULL;
}

/* The audio world's occlusion rays cast since they were last counted. */
static uint64_t new_audio_rays(ear_commands *c) {
    if (!c->audio_world) return 0;
    uint64_t seen = ear_world_get_stats(c->audio_world).rays;
    uint64_t fresh = seen >= c->audio_rays_seen ? seen - c->audio_rays_seen : seen;
    c->audio_rays_seen = seen;
    return fresh;
}

bool ear__cmd_work_tick(ear_commands *c, const char *unit, uint64_t steps, uint64_t work,
                        uint64_t frames, uint64_t done, uint64_t total, json_t **err) {
    /* The occlusion rays the step's sync cast count like world.ray's; a world that casts
     * more than its ray budget stops where it is, as when its work runs out. */
    uint64_t rays = new_audio_rays(c);
    c->command_rays += rays;
    c->session_rays += rays;
    if (c->command_rays > c->config.max_command_rays ||
        c->session_rays > c->config.max_session_rays) {
        bool session = c->session_rays > c->config.max_session_rays;
        *err = ear_command_error(
            "E_TOO_BIG", "command",
            "the ray casts %s budget of %llu ran out after %llu of %llu %s (the audio "
            "world's occlusion rays; the budget is set with --max-rays); the steps taken "
            "stay",
            session ? "per session" : "per command",
            (unsigned long long)(session ? c->config.max_session_rays
                                         : c->config.max_command_rays),
            (unsigned long long)done, (unsigned long long)total, unit);
        if (*err) {
            json_object_set_new(*err, "budget", json_string("ray casts"));
            json_object_set_new(*err, "done", json_integer((json_int_t)done));
            json_object_set_new(*err, "total", json_integer((json_int_t)total));
        }
        return false;
    }
    c->session_steps += steps;
    c->command_steps += steps;
    c->session_work += work;
    c->command_work += work;
    c->session_frames += frames;
    if (c->command_work > c->config.max_command_work ||
        c->session_work > c->config.max_session_work) {
        bool session = c->session_work > c->config.max_session_work;
        *err = ear_command_error(
            "E_TOO_BIG", "command",
            "the physics work %s budget of %llu ran out after %llu of %llu %s: the world "
            "grew costlier while it ran than it was when the command began; the steps taken "
            "stay (the world is at step %llu)",
            session ? "per session" : "per command",
            (unsigned long long)(session ? c->config.max_session_work
                                         : c->config.max_command_work),
            (unsigned long long)done, (unsigned long long)total, unit,
            (unsigned long long)c->session_steps);
        if (*err) {
            json_object_set_new(*err, "budget", json_string("physics work"));
            json_object_set_new(*err, "done", json_integer((json_int_t)done));
            json_object_set_new(*err, "total", json_integer((json_int_t)total));
        }
        return false;
    }
    if (c->config.on_progress &&
        !c->config.on_progress(c->config.progress_user, unit, done, total)) {
        *err = ear_command_error("E_CANCELLED", "command",
                                 "cancelled after %llu of %llu %s; the session goes on",
                                 (unsigned long long)done, (unsigned long long)total, unit);
        if (*err) {
            json_object_set_new(*err, "done", json_integer((json_int_t)done));
            json_object_set_new(*err, "total", json_integer((json_int_t)total));
        }
        return false;
    }
    return true;
}

const json_t *ear_commands_request_id(const ear_commands *c) {
    return c ? c->request_id : NULL;
}

const json_t *ear_commands_progress_token(const ear_commands *c) {
    return c ? c->progress_token : NULL;
}

ear_commands_work ear_commands_get_work(const ear_commands *c) {
    ear_commands_work w = {0, 0, 0, 0};
    if (c) {
        w.steps = c->session_steps;
        w.work = c->session_work;
        w.frames = c->session_frames;
        w.rays = c->session_rays;
    }
    return w;
}

char *ear_commands_serve_overlong(size_t line_number, size_t limit_bytes) {
    char where[48];
    snprintf(where, sizeof where, "line %zu", line_number);
    json_t *e = ear_command_error("E_TOO_BIG", where,
                                  "line %zu is longer than the limit of %zu bytes "
                                  "(--max-line-bytes); it was skipped up to its newline and "
                                  "nothing in it ran",
                                  line_number, limit_bytes);
    if (e) {
        json_object_set_new(e, "line", json_integer((json_int_t)line_number));
        json_object_set_new(e, "limit_bytes", json_integer((json_int_t)limit_bytes));
    }
    json_t *reply = json_pack("{s:b, s:o}", "ok", 0, "error", e);
    char *text = reply ? ear__json_write(reply) : NULL;
    json_decref(reply);
    return text;
}

json_t *ear_command_error(const char *code, const char *where, const char *format, ...) {
    char message[600];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return json_pack("{s:s, s:s, s:s}", "code", code, "message", message, "where",
                     where ? where : "");
}

json_t *ear__cmd_result_error(ear_result r, const char *where, const char *what) {
    switch (r) {
    case EAR_E_NOT_FOUND: {
        json_t *e = ear_command_error("E_NOT_FOUND", where, "%s: nothing is named \"%s\"",
                                      where, what ? what : "");
        if (e) json_object_set_new(e, "name", json_string(what ? what : ""));
        return e;
    }
    case EAR_E_TOO_MANY_VOICES:
        return ear_command_error("E_AUDIO_TOO_MANY_VOICES", where,
                                 "every voice is taken and none may be stolen");
    case EAR_E_STALE_ID:
        return ear_command_error("E_NOT_FOUND", where, "%s: voice %s has ended", where,
                                 what ? what : "");
    case EAR_E_INVALID_ARG:
    case EAR_E_FORMAT:
    case EAR_E_UNSUPPORTED:
        return ear_command_error("E_BAD_PARAM", where, "%s: %s%s%s", where,
                                 ear_result_string(r), what ? ": " : "", what ? what : "");
    case EAR_E_IO:
        return ear_command_error("E_IO", where, "%s: %s", where, ear_result_string(r));
    case EAR_E_OUT_OF_MEMORY:
        /* ear_commands_run makes this E_TOO_BIG when the session's budget refused it. */
        return ear_command_error("E_OUT_OF_MEMORY", where, "%s: out of memory", where);
    case EAR_E_STATE:
        /* A table that is full (17 ducks, 65 blends or pools) or a call out of turn. */
        return ear_command_error("E_STATE", where, "%s: not possible now%s%s", where,
                                 what ? ": " : "", what ? what : "");
    case EAR_E_NO_DEVICE:
        return ear_command_error("E_NO_DEVICE", where, "%s: no audio device could be opened",
                                 where);
    case EAR_E_CRYPTO:
        return ear_command_error("E_CRYPTO", where, "%s: encryption or authentication failed",
                                 where);
    case EAR_OK:
    default:
        return ear_command_error("E_INTERNAL", where, "%s: %s", where, ear_result_string(r));
    }
}

/* A synth: name that does not parse: what a synth name is. */
static json_t *synth_name_error(const char *where, const char *name) {
    json_t *e = ear_command_error(
        "E_BAD_PARAM", where,
        "%s: \"%.200s\" is not a valid synth name (expected "
        "synth:<waveform>:<hz>[:<seconds>[:<amplitude>]], waveform sine, square, "
        "triangle, saw, noise or engine)",
        where, name);
    if (e)
        json_object_set_new(e, "expected",
                            json_string("synth:<waveform>:<hz>[:<seconds>[:<amplitude>]]"));
    return e;
}

json_t *ear__cmd_sound_error(ear_commands *c, ear_result r, const char *where,
                             const char *name) {
    if (r == EAR_E_NOT_FOUND || r == EAR_E_TOO_MANY_VOICES || r == EAR_E_STALE_ID || !name)
        return ear__cmd_result_error(r, where, name);
    /* A valid synth name longer than the cache allows is said as the cache says it. */
    if (strncmp(name, "synth:", 6) == 0 && r != EAR_E_UNSUPPORTED)
        return synth_name_error(where, name);
    /* The file the name resolves to says why it will not load: the decoder's own reason
     * when the cache just tried (a body that ends early is found only by decoding), else
     * its header's. */
    const char *reason = ear_assets_last_load_error(c->assets);
    if ((r == EAR_E_FORMAT || r == EAR_E_IO || r == EAR_E_UNSUPPORTED) && *reason) {
        json_t *e =
            ear_command_error(r == EAR_E_IO ? "E_IO" : "E_BAD_PARAM", where,
                              "%s: sound \"%.200s\" will not load: %s", where, name, reason);
        if (e) json_object_set_new(e, "name", json_string(name));
        return e;
    }
    char file[4096];
    ear_io_error io = {{0}};
    ear_audio_info info;
    if ((r == EAR_E_FORMAT || r == EAR_E_IO || r == EAR_E_UNSUPPORTED) &&
        ear_assets_resolve(c->assets, name, file, sizeof file) == EAR_OK && *file &&
        ear_decode_info(file, &info, &io) != EAR_OK && io.message[0]) {
        json_t *e = ear_command_error(r == EAR_E_IO ? "E_IO" : "E_BAD_PARAM", where,
                                      "%s: sound \"%.200s\" will not load: %s", where, name,
                                      io.message);
        if (e) json_object_set_new(e, "name", json_string(name));
        return e;
    }
    return ear__cmd_result_error(r, where, name);
}

/* ---- Params --------------------------------------------------------------------------- */

double ear__num(const json_t *params, const char *key, double fallback) {
    const json_t *v = json_object_get(params, key);
    return json_is_number(v) ? json_number_value(v) : fallback;
}

bool ear__bool(const json_t *params, const char *key, bool fallback) {
    const json_t *v = json_object_get(params, key);
    return json_is_boolean(v) ? json_is_true(v) : fallback;
}

const char *ear__str(const json_t *params, const char *key) {
    return json_string_value(json_object_get(params, key));
}

bool ear__vec3(const json_t *params, const char *key, ear_vec3 *out) {
    const json_t *v = json_object_get(params, key);
    if (!json_is_array(v) || json_array_size(v) != 3) return false;
    out->x = (float)json_number_value(json_array_get(v, 0));
    out->y = (float)json_number_value(json_array_get(v, 1));
    out->z = (float)json_number_value(json_array_get(v, 2));
    return true;
}

ear_bus ear__bus(const json_t *params, const char *key, ear_bus fallback) {
    ear_bus bus;
    const char *name = ear__str(params, key);
    return name && ear_bus_from_name(name, &bus) == EAR_OK ? bus : fallback;
}

/* Whether real (a realpath) lies inside one of the registry's allowed folders. */
static bool inside_roots(const ear_commands *c, const char *real) {
    for (size_t i = 0; i < c->root_count; i++) {
        const char *root = c->roots[i];
        size_t n = strlen(root);
        if (strcmp(root, "/") == 0 ||
            (strncmp(real, root, n) == 0 && (real[n] == '\0' || real[n] == '/')))
            return true;
    }
    return false;
}

/* text with every allowed folder's absolute path taken out ("<root>/a/b.wav" becomes
 * "a/b.wav", the root itself "."), as a new string; NULL when nothing changed or memory
 * ran out. An MCP client names files relative to its folders and is told about them so:
 * the server's own working folder is never shown. */
static char *strip_roots(const ear_commands *c, const char *text) {
    char *out = NULL;
    for (size_t r = 0; r < c->root_count; r++) {
        const char *root = c->roots[r];
        size_t n = strlen(root);
        if (n <= 1) continue; /* "/" is every path's start: nothing to hide */
        const char *src = out ? out : text;
        if (!strstr(src, root)) continue;
        size_t len = strlen(src);
        char *next = malloc(len + 2);
        if (!next) break;
        size_t w = 0;
        for (const char *p = src; *p;) {
            if (strncmp(p, root, n) == 0 && (p[n] == '/' || p[n] == '\0' || p[n] == '\'' ||
                                             p[n] == '"' || p[n] == ':' || p[n] == ' ')) {
                p += n;
                if (*p == '/')
                    p++;
                else
                    next[w++] = '.';
                continue;
            }
            next[w++] = *p++;
        }
        next[w] = '\0';
        free(out);
        out = next;
    }
    return out;
}

/* strip_roots over every string in an error object (message, name, ...). */
void ear__cmd_scrub_error(const ear_commands *c, json_t *err) {
    const char *key;
    json_t *value;
    json_object_foreach(err, key, value) {
        if (!json_is_string(value)) continue;
        char *clean = strip_roots(c, json_string_value(value));
        if (clean) json_string_set(value, clean);
        free(clean);
    }
}

json_t *ear__cmd_path(const ear_commands *c, const char *path, bool for_write,
                      const char *where, char *out, size_t capacity) {
    if (!c->config.confine_paths) {
        if (strlen(path) >= capacity)
            return ear_command_error("E_BAD_PARAM", where, "%s: the path is too long", where);
        strcpy(out, path);
        return NULL;
    }
    char real[PATH_MAX];
    const char *probe = path;
    char folder[PATH_MAX];
    const char *base = NULL;
    if (for_write) {
        /* The file need not exist; its folder must, inside the allowed folders. */
        const char *slash = strrchr(path, '/');
        if (slash) {
            size_t n = (size_t)(slash - path);
            if (n >= sizeof folder)
                return ear_command_error("E_BAD_PARAM", where, "%s: the path is too long",
                                         where);
            memcpy(folder, path, n);
            folder[n] = '\0';
            if (n == 0) strcpy(folder, "/");
            base = slash + 1;
        } else {
            strcpy(folder, ".");
            base = path;
        }
        if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
            return ear_command_error("E_BAD_PARAM", where, "%s: not a file name", where);
        probe = folder;
    }
    /* Outside the allowed folders answers exactly as missing: nothing to probe with. */
    if (!realpath(probe, real) || !inside_roots(c, real)) {
        json_t *e = ear_command_error("E_NOT_FOUND", where, "%s: no such %s: %s", where,
                                      for_write ? "folder" : "file", probe);
        if (e) json_object_set_new(e, "name", json_string(probe));
        return e;
    }
    int len = for_write ? snprintf(out, capacity, "%s/%s", real, base)
                        : snprintf(out, capacity, "%s", real);
    if (len < 0 || (size_t)len >= capacity)
        return ear_command_error("E_BAD_PARAM", where, "%s: the path is too long", where);
    return NULL;
}

json_t *ear__cmd_check_seconds(const ear_commands *c, double seconds, const char *where) {
    if (seconds <= c->config.max_synth_seconds) return NULL;
    char expected[64];
    snprintf(expected, sizeof expected, "a synth of at most %g seconds",
             c->config.max_synth_seconds);
    json_t *e = ear_command_error("E_BAD_PARAM", where,
                                  "%s: %g seconds is longer than this server builds (%s)",
                                  where, seconds, expected);
    if (e) json_object_set_new(e, "expected", json_string(expected));
    return e;
}

json_t *ear__cmd_check_synth(const ear_commands *c, const char *name, const char *where) {
    ear_synth s;
    if (!name || strncmp(name, "synth:", 6) != 0) return NULL;
    /* A synth name that does not parse is refused here, with what a synth name is. */
    if (ear_synth_parse_name(name, &s) != EAR_OK) return synth_name_error(where, name);
    return ear__cmd_check_seconds(c, s.seconds > 0 ? s.seconds : 1.0, where);
}

/* ---- Names, voices, notes ------------------------------------------------------------- */

/* Grows one of the session's lists by one item (core's ear__grow, through malloc: the lists
 * are freed with free). */
static bool grow_one(void **items, uint32_t *cap, size_t count, size_t size) {
    return count < UINT32_MAX && ear__grow(NULL, items, cap, (uint32_t)count + 1, size);
}

void ear__cmd_remember(ear__cmd_name **list, size_t *count, uint32_t *cap, const char *name) {
    for (size_t i = 0; i < *count; i++)
        if (strcmp((*list)[i], name) == 0) return;
    if (!grow_one((void **)list, cap, *count, sizeof **list)) return;
    snprintf((*list)[*count], sizeof(ear__cmd_name), "%s", name);
    (*count)++;
}

void ear__cmd_remember_blend(ear_commands *c, const ear_blend_def *def) {
    ear__cmd_remember(&c->blends, &c->blend_count, &c->blend_cap, def->name);
    size_t slot = c->blend_def_count;
    for (size_t i = 0; i < c->blend_def_count; i++)
        if (strcmp(c->blend_defs[i].name, def->name) == 0) slot = i;
    if (slot == c->blend_def_count) {
        if (!grow_one((void **)&c->blend_defs, &c->blend_def_cap, c->blend_def_count,
                      sizeof *c->blend_defs))
            return;
        c->blend_def_count++;
    }
    ear__cmd_blend *b = &c->blend_defs[slot];
    snprintf(b->name, sizeof b->name, "%s", def->name);
    b->count = def->param_count;
    for (uint32_t i = 0; i < def->param_count; i++)
        snprintf(b->params[i], sizeof b->params[i], "%s", def->params[i].name);
}

const char *ear__cmd_clip_name(const void *commands, uint32_t pos) {
    return ((const ear_commands *)commands)->clips[pos].name;
}

const ear__cmd_blend *ear__cmd_find_blend(const ear_commands *c, const char *name) {
    for (size_t i = 0; i < c->blend_def_count; i++)
        if (strcmp(c->blend_defs[i].name, name) == 0) return &c->blend_defs[i];
    return NULL;
}

void ear__cmd_prune_voices(ear_commands *c) {
    size_t kept = 0;
    for (size_t i = 0; i < c->voice_count; i++)
        if (ear_stage_is_playing(c->stage, c->voices[i].id)) c->voices[kept++] = c->voices[i];
    c->voice_count = kept;
}

void ear__cmd_track_voice(ear_commands *c, ear_voice_id id, const char *kind,
                          const char *name) {
    if (c->voice_count >= 4096) ear__cmd_prune_voices(c);
    if (!grow_one((void **)&c->voices, &c->voice_cap, c->voice_count, sizeof *c->voices))
        return;
    ear__cmd_voice *v = &c->voices[c->voice_count++];
    v->id = id;
    snprintf(v->kind, sizeof v->kind, "%s", kind);
    snprintf(v->name, sizeof v->name, "%s", name);
}

void ear_commands_add_note(ear_commands *c, const char *text) {
    if (!c || !text) return;
    if (c->note_count == EAR__MAX_NOTES) {
        free(c->notes[0]);
        memmove(c->notes, c->notes + 1, (EAR__MAX_NOTES - 1) * sizeof c->notes[0]);
        c->note_count--;
    }
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    if (!copy) return;
    memcpy(copy, text, n + 1);
    c->notes[c->note_count++] = copy;
}

ear_commands_memory ear_commands_get_memory(const ear_commands *c) {
    ear_commands_memory m = {0, 0, 0};
    if (c) {
        m.used_bytes = c->mem_used;
        m.peak_bytes = c->mem_peak;
        m.budget_bytes = c->config.max_memory_bytes;
    }
    return m;
}

const float *ear_commands_last_buffer(const ear_commands *c, uint64_t *out_frames) {
    if (out_frames) *out_frames = c ? c->buffer_frames : 0;
    return c ? c->buffer : NULL;
}

/* ---- Life ----------------------------------------------------------------------------- */

ear_result ear__cmd_make_assets(const ear_commands *c, const char *root, ear_assets **out) {
    ear_assets_config ac = ear_assets_config_default();
    ac.root = root;
    ac.allocator = &c->alloc; /* the session's memory budget */
    /* synth: names up to the registry's own limit (audio.json's are limited by its parser). */
    ac.synth_max_s =
        (float)(c->config.max_synth_seconds < 3600 ? c->config.max_synth_seconds : 3600);
    if (c->config.confine_paths) {
        /* An empty list still confines: it admits nothing. */
        static const char *const none[1] = {NULL};
        ac.allowed_roots = c->root_count ? (const char *const *)c->roots : none;
        ac.allowed_root_count = c->root_count;
    }
    return ear_assets_create(&ac, out);
}

ear_result ear__cmd_make_stage(ear_commands *c, uint64_t seed, ear_stage **out_stage,
                               ear_assets **out_assets) {
    ear_stage_config sc = ear_stage_config_default();
    sc.seed = seed;
    /* The stage's memory (voices, pools, blends, the HRTF bank, the reverb's lines) counts
     * in the budget: the registry renders offline, on its own thread, so the budget's
     * counter is only touched there. */
    sc.allocator = ear__cmd_alloc(c, EAR__PART_STAGE);
    ear_stage *stage = NULL;
    /* What the stage allocates as it is made is the same for every session: tagged as
     * the fixed part, reported and not counted against the budget (so a small budget is
     * not eaten by it); all it allocates later counts. */
    c->part_user[EAR__PART_STAGE].part = EAR__PART_FIXED;
    ear_result r = ear_stage_create(&sc, &stage);
    c->part_user[EAR__PART_STAGE].part = EAR__PART_STAGE;
    if (r != EAR_OK) return r;
    ear_assets *assets = NULL;
    r = ear__cmd_make_assets(c, c->assets_root, &assets);
    if (r != EAR_OK) {
        ear_stage_destroy(stage);
        return r;
    }
    *out_stage = stage;
    *out_assets = assets;
    return EAR_OK;
}
