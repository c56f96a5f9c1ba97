/* SPDX-License-Identifier: Zlib */
/*
 * The command table and what every front end shares: creating the registry, running a
 * command (schema check, then handler) and serve's JSON lines. The top of the module's
 * file order (ORDER): it calls every handler; the handlers build on cmd_base.c (errors,
 * budgets, params, names, notes), never on this file.
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
    ear__cmd_budget_init(c);
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
    if (err && c && c->config.confine_paths) ear__cmd_scrub_error(c, err);
    if (out_error)
        *out_error = err;
    else
        json_decref(err);
    return result;
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
