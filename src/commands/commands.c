/* SPDX-License-Identifier: Zlib */
/*
 * The command table and what every front end shares: creating the registry, running a
 * command (schema check, then handler), serve's JSON lines, errors, notes and the helpers
 * the handlers read params with.
 *
 * Invariant: a command either succeeds or changes nothing. The schema check happens before
 * any handler runs, and each handler validates everything it can before its first change
 * to the stage.
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

typedef struct command {
    const char *name;
    ear__cmd_fn fn;
} command;

/* Alphabetical, like the generated schema list, so index i is the same in both. */
static const command table[] = {
    {"audio.analyze", ear__cmd_analyze},
    {"audio.blend.define", ear__cmd_blend_define},
    {"audio.bus.set", ear__cmd_bus_set},
    {"audio.clip.define", ear__cmd_clip_define},
    {"audio.duck.set", ear__cmd_duck_set},
    {"audio.duck.trigger", ear__cmd_duck_trigger},
    {"audio.hrtf.load", ear__cmd_hrtf_load},
    {"audio.limiter.set", ear__cmd_limiter_set},
    {"audio.listener.set", ear__cmd_listener_set},
    {"audio.load", ear__cmd_load},
    {"audio.music.play", ear__cmd_music_play},
    {"audio.music.stop", ear__cmd_music_stop},
    {"audio.play", ear__cmd_play},
    {"audio.pool.define", ear__cmd_pool_define},
    {"audio.render_offline", ear__cmd_render_offline},
    {"audio.reset", ear__cmd_reset},
    {"audio.reverb.set", ear__cmd_reverb_set},
    {"audio.status", ear__cmd_status},
    {"audio.stop", ear__cmd_stop},
    {"audio.voice.set", ear__cmd_voice_set},
    {"audio.voices", ear__cmd_voices},
    {"world.attach", ear__cmd_world_attach},
    {"world.describe", ear__cmd_world_describe},
    {"world.follow", ear__cmd_world_follow},
    {"world.get", ear__cmd_world_get},
    {"world.load", ear__cmd_world_load},
    {"world.move", ear__cmd_world_move},
    {"world.once", ear__cmd_world_once},
    {"world.path", ear__cmd_world_path},
    {"world.ray", ear__cmd_world_ray},
    {"world.set", ear__cmd_world_set},
    {"world.status", ear__cmd_world_status},
    {"world.step", ear__cmd_world_step},
};
#define TABLE_SIZE (sizeof table / sizeof table[0])

size_t ear_commands_count(void) {
    return TABLE_SIZE;
}

const char *ear_commands_name(size_t i) {
    return i < TABLE_SIZE ? table[i].name : NULL;
}

long ear_commands_find(const char *name) {
    if (!name) return -1;
    for (size_t i = 0; i < TABLE_SIZE; i++)
        if (strcmp(table[i].name, name) == 0) return (long)i;
    return -1;
}

const json_t *ear_commands_schema(const ear_commands *c, size_t i) {
    return c && i < TABLE_SIZE ? c->schemas[i] : NULL;
}

ear_commands_config ear_commands_config_default(void) {
    ear_commands_config config = {0};
    config.seed = 1;
    config.max_render_seconds = 600;
    config.max_memory_bytes = EAR_COMMANDS_DEFAULT_MEMORY_BYTES;
    config.max_output_bytes = EAR_COMMANDS_DEFAULT_OUTPUT_BYTES;
    return config;
}

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
static void scrub_error(const ear_commands *c, json_t *err) {
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

static bool grow(void **items, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return true;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need) n *= 2;
    void *p = realloc(*items, n * size);
    if (!p) return false;
    *items = p;
    *cap = n;
    return true;
}

void ear__cmd_remember(ear__cmd_name **list, size_t *count, size_t *cap, const char *name) {
    for (size_t i = 0; i < *count; i++)
        if (strcmp((*list)[i], name) == 0) return;
    if (!grow((void **)list, cap, *count + 1, sizeof **list)) return;
    snprintf((*list)[*count], sizeof(ear__cmd_name), "%s", name);
    (*count)++;
}

void ear__cmd_remember_blend(ear_commands *c, const ear_blend_def *def) {
    ear__cmd_remember(&c->blends, &c->blend_count, &c->blend_cap, def->name);
    size_t slot = c->blend_def_count;
    for (size_t i = 0; i < c->blend_def_count; i++)
        if (strcmp(c->blend_defs[i].name, def->name) == 0) slot = i;
    if (slot == c->blend_def_count) {
        if (!grow((void **)&c->blend_defs, &c->blend_def_cap, c->blend_def_count + 1,
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
    if (!grow((void **)&c->voices, &c->voice_cap, c->voice_count + 1, sizeof *c->voices))
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

void ear__cmd_forget(ear_commands *c) {
    ear__cmd_audio_world_forget(c); /* its voices and stage go with the rest */
    for (size_t i = 0; i < c->clip_count; i++) ear_clip_release(c->clips[i].clip);
    c->clip_count = c->clip_cap = 0;
    if (c->clips) /* counted in the budget */
        c->part_alloc[EAR__PART_NAMES].free_fn(c->clips, &c->part_user[EAR__PART_NAMES]);
    c->clips = NULL;
    ear__name_index_free(&c->clip_index, ear__cmd_alloc(c, EAR__PART_NAMES));
    c->voice_count = 0;
    c->duck_count = c->blend_count = c->pool_count = c->blend_def_count = 0;
    for (size_t i = 0; i < c->note_count; i++) free(c->notes[i]);
    c->note_count = 0;
    if (c->buffer)
        c->part_alloc[EAR__PART_RENDER].free_fn(c->buffer, &c->part_user[EAR__PART_RENDER]);
    c->buffer = NULL;
    c->buffer_frames = 0;
}

ear_result ear_commands_create(const ear_commands_config *config, ear_commands **out) {
    if (!out) return EAR_E_INVALID_ARG;
    ear_commands *c = calloc(1, sizeof *c);
    if (!c) return EAR_E_OUT_OF_MEMORY;
    c->config = config ? *config : ear_commands_config_default();
    if (c->config.max_render_seconds <= 0) c->config.max_render_seconds = 600;
    if (c->config.max_synth_seconds <= 0) c->config.max_synth_seconds = 3600;
    if (c->config.max_world_steps == 0)
        c->config.max_world_steps = EAR_COMMANDS_DEFAULT_COMMAND_STEPS;
    if (c->config.max_command_work == 0)
        c->config.max_command_work = EAR_COMMANDS_DEFAULT_COMMAND_WORK;
    if (c->config.max_session_steps == 0)
        c->config.max_session_steps = EAR_COMMANDS_DEFAULT_SESSION_STEPS;
    if (c->config.max_session_work == 0)
        c->config.max_session_work = EAR_COMMANDS_DEFAULT_SESSION_WORK;
    if (!(c->config.max_session_render_seconds > 0))
        c->config.max_session_render_seconds = EAR_COMMANDS_DEFAULT_SESSION_RENDER_SECONDS;
    if (c->config.max_memory_bytes == 0)
        c->config.max_memory_bytes = EAR_COMMANDS_DEFAULT_MEMORY_BYTES;
    if (c->config.max_command_rays == 0)
        c->config.max_command_rays = EAR_COMMANDS_DEFAULT_COMMAND_RAYS;
    if (c->config.max_session_rays == 0)
        c->config.max_session_rays = EAR_COMMANDS_DEFAULT_SESSION_RAYS;
    if (c->config.max_output_bytes == 0)
        c->config.max_output_bytes = EAR_COMMANDS_DEFAULT_OUTPUT_BYTES;
    if (c->config.max_memory_bytes > SIZE_MAX / 2) c->config.max_memory_bytes = SIZE_MAX / 2;
    for (size_t part = 0; part < EAR__PART_COUNT; part++) {
        c->part_user[part] = (ear__cmd_part_user){c, part};
        c->part_alloc[part] =
            (ear_allocator){budget_alloc, budget_realloc, budget_free, &c->part_user[part]};
    }
    c->alloc = c->part_alloc[EAR__PART_SOUNDS];
    c->seed = c->config.seed ? c->config.seed : 1;
    snprintf(c->assets_root, sizeof c->assets_root, "%s",
             c->config.assets_root && *c->config.assets_root ? c->config.assets_root
                                                             : "assets");
    c->config.assets_root = c->assets_root;
    ear_result r = EAR_OK;
    if (c->config.confine_paths) {
        size_t n = c->config.allowed_roots ? c->config.allowed_root_count : 1;
        c->roots = calloc(n + 1, sizeof *c->roots);
        if (!c->roots) r = EAR_E_OUT_OF_MEMORY;
        for (size_t i = 0; i < n && r == EAR_OK; i++) {
            const char *given = c->config.allowed_roots ? c->config.allowed_roots[i] : ".";
            char real[PATH_MAX];
            /* A folder that does not exist admits nothing. */
            if (!given || !realpath(given, real)) continue;
            if (!(c->roots[c->root_count] = strdup(real))) r = EAR_E_OUT_OF_MEMORY;
            c->root_count++;
        }
        /* Borrowed from the caller: not kept. */
        c->config.allowed_roots = NULL;
        c->config.allowed_root_count = 0;
    }
    c->schemas = calloc(TABLE_SIZE, sizeof *c->schemas);
    c->compiled = calloc(TABLE_SIZE, sizeof *c->compiled);
    if (!c->compiled) r = EAR_E_OUT_OF_MEMORY;
    if (!c->schemas || ear__schema_count != TABLE_SIZE)
        r = c->schemas ? EAR_E_FORMAT : EAR_E_OUT_OF_MEMORY;
    for (size_t i = 0; i < TABLE_SIZE && r == EAR_OK; i++) {
        if (strcmp(ear__schema_names[i], table[i].name) != 0) {
            r = EAR_E_FORMAT;
            break;
        }
        c->schemas[i] = json_loads(ear__schema_texts[i], 0, NULL);
        if (!c->schemas[i]) r = EAR_E_FORMAT;
        if (r == EAR_OK && !(c->compiled[i] = ear__schema_compile(c->schemas[i])))
            r = EAR_E_OUT_OF_MEMORY;
    }
    if (r == EAR_OK) r = ear__cmd_make_stage(c, c->seed, &c->stage, &c->assets);
    if (r != EAR_OK) {
        ear_commands_destroy(c);
        return r;
    }
    *out = c;
    return EAR_OK;
}

void ear_commands_destroy(ear_commands *c) {
    if (!c) return;
    ear__cmd_forget(c);
    ear__cmd_world_forget(c);
    ear_stage_destroy(c->stage);
    ear_assets_destroy(c->assets);
    if (c->compiled)
        for (size_t i = 0; i < TABLE_SIZE; i++) ear__schema_free(c->compiled[i]);
    free(c->compiled);
    if (c->schemas)
        for (size_t i = 0; i < TABLE_SIZE; i++) json_decref(c->schemas[i]);
    free(c->schemas);
    free(c->voices);
    free(c->ducks);
    free(c->blends);
    free(c->blend_defs);
    free(c->pools);
    for (size_t i = 0; i < c->root_count; i++) free(c->roots[i]);
    free(c->roots);
    free(c->written);
    free(c);
}

/* ---- Running -------------------------------------------------------------------------- */

/* Levenshtein distance, for "did you mean". Names are short (< 64 bytes). */
static size_t distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 1000;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static json_t *unknown_command(const char *name) {
    const char *nearest = table[0].name;
    size_t best = (size_t)-1;
    for (size_t i = 0; i < TABLE_SIZE; i++) {
        size_t d = distance(name, table[i].name);
        if (d < best) {
            best = d;
            nearest = table[i].name;
        }
    }
    json_t *e =
        ear_command_error("E_UNKNOWN_COMMAND", "command",
                          "unknown command \"%.100s\"; the nearest is \"%s\"", name, nearest);
    if (e) json_object_set_new(e, "nearest", json_string(nearest));
    return e;
}

json_t *ear_commands_run(ear_commands *c, const char *name, json_t *params,
                         json_t **out_error) {
    json_t *err = NULL, *result = NULL;
    long i = ear_commands_find(name);
    if (!c || !name) {
        err = ear_command_error("E_INTERNAL", "", "no registry or command name");
    } else if (i < 0) {
        err = unknown_command(name);
    } else if (c->rendering &&
               (strcmp(name, "audio.render_offline") == 0 || strcmp(name, "audio.reset") == 0 ||
                strcmp(name, "audio.load") == 0)) {
        /* A render's step hook may change voices, not swap the stage under the render. */
        err =
            ear_command_error("E_STATE", "command", "%s cannot run while a render runs", name);
    } else {
        json_t *empty = params ? NULL : json_object();
        json_t *p = params ? params : empty;
        /* The compiled check answers most calls; the JSON one explains a failure. */
        if (!ear__schema_valid(c->compiled[i], p)) {
            err = ear_schema_check(c->schemas[i], p, "params");
            if (!err)
                err = ear_command_error("E_INTERNAL", "params", "the schema checks disagree");
        }
        if (!err) {
            /* A command a render's step hook runs keeps the render's own budget state. */
            size_t outer_refused = c->mem_refused;
            bool outer_changed = c->changed, nested = c->rendering;
            c->mem_refused = 0;
            c->changed = false;
            /* A command a render runs shares the render's work budget. */
            if (!nested) c->command_steps = c->command_work = c->command_rays = 0;
            result = table[i].fn(c, p, &err);
            /* Refused by the budget: idle cached sounds go (they load again when asked
             * for), and the command, which changed nothing, runs once more. */
            if (!result && c->mem_refused && !c->changed && ear_assets_trim(c->assets) > 0) {
                json_decref(err);
                err = NULL;
                c->mem_refused = 0;
                result = table[i].fn(c, p, &err);
            }
            if (!result && c->mem_refused) {
                const char *where = json_string_value(json_object_get(err, "where"));
                bool already =
                    json_is_string(json_object_get(err, "code")) &&
                    strcmp(json_string_value(json_object_get(err, "code")), "E_TOO_BIG") == 0;
                if (!already) {
                    json_t *big =
                        ear__cmd_too_big(c, where && *where ? where : "params", c->mem_refused);
                    json_decref(err);
                    err = big;
                }
            }
            if (!result && !err) err = ear_command_error("E_INTERNAL", "", "out of memory");
            if (nested) {
                c->mem_refused = outer_refused;
                c->changed = outer_changed;
            }
        }
        json_decref(empty);
    }
    if (err && c && c->config.confine_paths) scrub_error(c, err);
    if (out_error)
        *out_error = err;
    else
        json_decref(err);
    return result;
}

const char *ear__json_kind(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    case JSON_NULL: break;
    }
    return "null";
}

char *ear_commands_serve_line(ear_commands *c, const char *line, size_t length) {
    return ear_commands_serve_line_at(c, line, length, 0);
}

char *ear_commands_serve_line_at(ear_commands *c, const char *line, size_t length,
                                 uint64_t line_number) {
    json_error_t jerr;
    memset(&jerr, 0, sizeof jerr);
    json_t *err = NULL, *result = NULL;
    /* The line's parse counts in the memory budget while it runs: one whose values would
     * not fit is E_TOO_BIG before it is parsed. JSON_DECODE_ANY: a line that is valid
     * JSON but no object ("42") is told so. */
    char at[48];
    snprintf(at, sizeof at, line_number ? "line %llu" : "line",
             (unsigned long long)line_number);
    uint64_t charged = 0;
    json_t *msg =
        ear__cmd_json_read(c, line, length, JSON_REJECT_DUPLICATES, at, &charged, &err, &jerr);
    c->mem_refused = 0;
    json_t *reply = json_object();
    if (err) {
    } else if (!msg) {
        /* One request is one line: its line in the input, when known, is the line. */
        json_int_t at_line = line_number ? (json_int_t)line_number : jerr.line;
        char where[64];
        snprintf(where, sizeof where, "line %lld, column %d", (long long)at_line, jerr.column);
        err = ear_command_error("E_BAD_JSON", where, "not valid JSON: %s", jerr.text);
        json_object_set_new(err, "line", json_integer(at_line));
        json_object_set_new(err, "column", json_integer(jerr.column));
    } else if (!json_is_object(msg)) {
        err = ear_command_error("E_BAD_JSON", "",
                                "expected a JSON object {\"command\", \"params\"}, got %s",
                                ear__json_kind(msg));
    } else {
        json_t *id = json_object_get(msg, "id");
        if (id) json_object_set(reply, "id", id);
        json_t *name = json_object_get(msg, "command");
        json_t *params = json_object_get(msg, "params");
        const char *key;
        json_t *v;
        json_object_foreach(msg, key, v) {
            if (strcmp(key, "command") && strcmp(key, "params") && strcmp(key, "id") &&
                strcmp(key, "progress")) {
                err = ear_command_error(
                    "E_BAD_PARAM", key,
                    "%.100s: unknown key (expected command, params, id, progress)", key);
                break;
            }
        }
        if (err) {
        } else if (!json_is_string(name)) {
            err = ear_command_error("E_BAD_PARAM", "command",
                                    "command: expected a string naming the command");
            json_object_set_new(err, "expected", json_string("a string"));
        } else if (params && !json_is_object(params)) {
            err = ear_command_error("E_BAD_PARAM", "params", "params: expected an object");
            json_object_set_new(err, "expected", json_string("an object"));
        } else if (strcmp(json_string_value(name), "cancel") == 0) {
            /* The front end acts on a cancel while the command it names runs (that
             * command answers E_CANCELLED); read in its turn, nothing runs any more. */
            result = json_pack("{s:b}", "running", 0);
        } else {
            c->request_id = id;
            c->progress_token = json_is_true(json_object_get(msg, "progress")) ? id : NULL;
            result = ear_commands_run(c, json_string_value(name), params, &err);
            c->request_id = c->progress_token = NULL;
        }
    }
    if (err && line_number && !json_object_get(err, "line"))
        json_object_set_new(err, "line", json_integer((json_int_t)line_number));
    json_object_set_new(reply, "ok", json_boolean(result != NULL));
    if (result)
        json_object_set_new(reply, "result", result);
    else
        json_object_set_new(reply, "error", err);
    json_decref(msg);
    ear__cmd_uncharge(c, charged);
    char *text = ear__json_write(reply);
    json_decref(reply);
    return text;
}
