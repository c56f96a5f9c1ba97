/* SPDX-License-Identifier: Zlib */
/*
 * The command registry behind the `earshot` tool: one table of commands (name, JSON schema,
 * handler) served by every front end (call, serve, MCP, render), tests and the fuzzer.
 * A command takes a JSON object of params, checked against its schema
 * (schemas/commands/<name>.json, embedded at build time), and gives a JSON result or an
 * error {code, message, where}. An error changes nothing. See docs/commands.md.
 *
 * Everything here is Thread: game (one registry per thread; it owns a stage and reads
 * files).
 */
#ifndef EARSHOT_COMMANDS_H
#define EARSHOT_COMMANDS_H

#include "earshot/core.h"

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ear_commands ear_commands;

/* Called between chunks of a render (every 800 frames, a 60 Hz frame at 48 kHz, and once
 * at the end): frames rendered so far of `total`. It may run commands that change voices
 * and the listener (a scene's timed commands); it must not render. */
typedef void (*ear_render_step_fn)(void *user, ear_commands *commands, uint64_t done,
                                   uint64_t total);

/* Called while a long command runs (world.step, audio.render_offline): `done` of `total`
 * in `unit` ("steps" or "frames"), after every step or 800-frame chunk, so it must be
 * cheap (a front end looks at the clock and its input only now and then). Returning false
 * cancels the command: it stops where it is with E_CANCELLED (the world keeps the steps
 * already taken, a render's buffer is dropped) and the session stays usable. It must not
 * run commands. */
typedef bool (*ear_progress_fn)(void *user, const char *unit, uint64_t done, uint64_t total);

/* The work budget's defaults (docs/commands.md, "Limits"): far past what a game asks,
 * short of what ties a machine up for hours. Work is in ear_physics_work's units (a body
 * walked, a collider tested). */
#define EAR_COMMANDS_DEFAULT_COMMAND_STEPS          1000000u
#define EAR_COMMANDS_DEFAULT_COMMAND_WORK           ((uint64_t)400000000)
#define EAR_COMMANDS_DEFAULT_SESSION_STEPS          ((uint64_t)100000000)
#define EAR_COMMANDS_DEFAULT_SESSION_WORK           ((uint64_t)40000000000)
#define EAR_COMMANDS_DEFAULT_SESSION_RENDER_SECONDS 36000.0
/* Physics ray casts (world.ray's, and the audio world's occlusion rays while a command
 * steps the world): a 600 s scene at 60 Hz with 25 occluded sources casts 900000. */
#define EAR_COMMANDS_DEFAULT_COMMAND_RAYS ((uint64_t)1000000)
#define EAR_COMMANDS_DEFAULT_SESSION_RAYS ((uint64_t)100000000)

/* The session's memory budget when none is given: 1 GiB (a 600 s render is 220 MiB, an
 * hour-long synth clip 660 MiB). */
#define EAR_COMMANDS_DEFAULT_MEMORY_BYTES ((uint64_t)1 << 30)

/* The session's output quota when none is given: 1 GiB of files written by commands
 * (audio.render_offline's WAVs; a 600 s render is 230 MB). */
#define EAR_COMMANDS_DEFAULT_OUTPUT_BYTES ((uint64_t)1 << 30)

typedef struct ear_commands_config {
    uint64_t seed;              /* the stage's seed; 0 means 1 */
    const char *assets_root;    /* the assets folder for sound names; NULL: "assets" */
    bool confine_paths;         /* paths must resolve under the working directory (MCP) */
    double max_render_seconds;  /* the longest render; 0 means 600 */
    double max_synth_seconds;   /* the longest synth clip a command may build (a define or a
                                   synth: name); 0 means 3600, the synth's own limit */
    uint32_t max_world_steps;   /* the most world steps one command may take (a world.step,
                                   a scene render: seconds * step_hz); 0 means
                                   EAR_COMMANDS_DEFAULT_COMMAND_STEPS */
    uint64_t max_command_work;  /* the most physics work one command may cost; 0 means
                                   EAR_COMMANDS_DEFAULT_COMMAND_WORK */
    uint64_t max_session_steps; /* world steps over the session's life; 0: the default */
    uint64_t max_session_work;  /* physics work over the session's life; 0: the default */
    double max_session_render_seconds; /* seconds of audio rendered over the session's
                                          life (not wall clock); 0: the default */
    uint64_t max_command_rays;         /* ray casts one command may make; 0: the default */
    uint64_t max_session_rays;         /* ray casts over the session's life; 0: the default */
    ear_progress_fn on_progress;       /* NULL: none (nothing can cancel) */
    void *progress_user;
    uint64_t max_memory_bytes;  /* the session's memory budget: the live bytes of clips
                                   (defined, decoded, cached), synth results, the last render
                                   and analysis transforms; a command that would pass it
                                   fails with E_TOO_BIG after idle cached sounds have been
                                   trimmed. 0 means EAR_COMMANDS_DEFAULT_MEMORY_BYTES */
    ear_render_step_fn on_step; /* NULL: none */
    void *step_user;
    /* With confine_paths, the folders every file a command names must resolve inside,
     * after symbolic links (realpath): `path` params, sound and music names, audio.json
     * clips, .blend.json files. A path outside them is refused with exactly the error of a
     * missing file (E_NOT_FOUND, "no such file"), so a client cannot probe what exists
     * outside. Resolved (and copied) at creation. NULL (default): the working directory. */
    const char *const *allowed_roots;
    size_t allowed_root_count;
    /* The session's output quota: the bytes of every file its commands write (a WAV's
     * header and samples). A write that would pass it is refused before the render with
     * E_TOO_BIG naming the bytes asked, written and allowed; nothing changes. 0 means
     * EAR_COMMANDS_DEFAULT_OUTPUT_BYTES (`--max-output-mb`). */
    uint64_t max_output_bytes;
} ear_commands_config;

/* The defaults above. Thread: any. */
ear_commands_config ear_commands_config_default(void);

/* Creates a registry with a fresh 48 kHz stereo stage and an empty assets cache (config
 * NULL: defaults). EAR_E_INVALID_ARG, EAR_E_OUT_OF_MEMORY, EAR_E_FORMAT (an embedded schema
 * does not parse: a build problem).
 * Thread: game (the one thread that will use the registry). */
ear_result ear_commands_create(const ear_commands_config *config, ear_commands **out);
/* Frees the registry, its stage and everything it holds. NULL does nothing. Thread: game. */
void ear_commands_destroy(ear_commands *commands);

/* The table: count, the i-th command's name ("audio.play") and its schema (borrowed, valid
 * while the registry lives; NULL for i out of range). Names are in alphabetical order.
 * Thread: any (the table is constant; a schema is read-only once created). */
size_t ear_commands_count(void);
const char *ear_commands_name(size_t i);
const json_t *ear_commands_schema(const ear_commands *commands, size_t i);
/* The index of a command by name, or -1. Thread: any (pure). */
long ear_commands_find(const char *name);

/* Runs one command. params (borrowed; NULL means {}) is checked against the schema. On
 * success returns the result (a new reference); on failure NULL, and *out_error (when not
 * NULL) receives a new {code, message, where, ...} object. Codes: E_UNKNOWN_COMMAND (with
 * "nearest"), E_BAD_PARAM (where: the JSON path, e.g. "params.position[1]", with
 * "expected"), E_NOT_FOUND (with "name"), E_AUDIO_TOO_MANY_VOICES, E_STATE, E_IO,
 * E_TOO_BIG (past the memory budget, with "needed_bytes", "used_bytes", "budget_bytes"),
 * E_OUT_OF_MEMORY (the system's memory, not the budget, ran out), E_INTERNAL. Thread: game. */
json_t *ear_commands_run(ear_commands *commands, const char *name, json_t *params,
                         json_t **out_error);

/* Checks `value` against a schema of the subset the commands use (type, properties,
 * required, enum, minimum/maximum, minLength/maxLength, items, minItems/maxItems,
 * additionalProperties false or a schema, oneOf). NULL when it conforms, else a new
 * E_BAD_PARAM error whose where starts with `path` ("params"). Thread: any. */
json_t *ear_schema_check(const json_t *schema, const json_t *value, const char *path);

/* A new error object {code, message, where}. Thread: any. */
json_t *ear_command_error(const char *code, const char *where, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* One line of `earshot serve`: {"command": name, "params": {...}, "id": any, "progress":
 * bool} in, one line out (no newline; free() it): {"ok": true, "result": ...} or {"ok":
 * false, "error": ...}, with "id" echoed when given. "progress": true makes the id the
 * request's progress token (ear_commands_progress_token). The command "cancel" is the
 * front end's (it acts on it while a command runs); read here it answers {"running":
 * false}. Bad JSON is E_BAD_JSON with its line and column. Never
 * NULL unless out of memory. Thread: game. */
char *ear_commands_serve_line(ear_commands *commands, const char *line, size_t length);
/* As ear_commands_serve_line, for the request on line `line_number` (from 1) of the input:
 * every error carries "line": line_number, and a bad JSON error's where is "line
 * <line_number>, column <c>". 0: the line is not known (as ear_commands_serve_line).
 * Thread: game. */
char *ear_commands_serve_line_at(ear_commands *commands, const char *line, size_t length,
                                 uint64_t line_number);

/* The one answer `earshot serve` gives a line longer than limit_bytes (the line itself is
 * never read): {"ok": false, "error": {"code": "E_TOO_BIG", "where": "line N", "line": N,
 * "limit_bytes": limit, "message": ...}}, one line (no newline; free() it). Thread: any. */
char *ear_commands_serve_overlong(size_t line_number, size_t limit_bytes);

/* The work the session has done so far: world steps, physics work, rendered frames.
 * Thread: game. */
typedef struct ear_commands_work {
    uint64_t steps, work, frames, rays;
} ear_commands_work;
ear_commands_work ear_commands_get_work(const ear_commands *commands);

/* The request a front end is running now, for a progress hook: its id, and its progress
 * token (MCP: params._meta.progressToken; serve: the id, when the line asked
 * "progress": true). Borrowed; NULL when there is none. Thread: game. */
const json_t *ear_commands_request_id(const ear_commands *commands);
const json_t *ear_commands_progress_token(const ear_commands *commands);

/* The memory the registry's budget counts now, at most so far, and its limit, in bytes.
 * Thread: game. */
typedef struct ear_commands_memory {
    uint64_t used_bytes, peak_bytes, budget_bytes;
} ear_commands_memory;
ear_commands_memory ear_commands_get_memory(const ear_commands *commands);

/* Counts `bytes` of something the caller parsed or holds outside the registry (a scene
 * file's JSON, measured with ear_json_measure) in the session's memory budget, in its
 * "json" part, until ear_commands_uncharge. NULL when it fits; else a new E_TOO_BIG error
 * whose where is `what` (nothing is counted). Thread: game. */
json_t *ear_commands_charge(ear_commands *commands, const char *what, uint64_t bytes);
/* Gives back bytes an ear_commands_charge counted. Thread: game. */
void ear_commands_uncharge(ear_commands *commands, uint64_t bytes);

/* One message of `earshot mcp` (JSON-RPC 2.0, protocol 2025-11-25): initialize, ping,
 * tools/list, tools/call; notifications get no answer (NULL). The answer is one line (no
 * newline; free() it). Thread: game. */
char *ear_mcp_handle_line(ear_commands *commands, const char *line, size_t length);

/* The same for `earshot mcp`: a JSON-RPC error response with id null, code -32600 and
 * data {"code": "E_TOO_BIG", "line": N, "limit_bytes": limit}. Thread: any. */
char *ear_mcp_overlong(size_t line_number, size_t limit_bytes);

/* The MCP tool name of a command ("audio.bus.set" -> "audio_bus_set"), written into out.
 * Thread: any (pure). */
void ear_mcp_tool_name(const char *command, char *out, size_t capacity);

/* Adds a note (a warning, a missing sound) that audio.status reports; the oldest of more
 * than 64 are dropped. A log callback is the usual caller.
 * Thread: game (it takes no lock: a log callback on another thread must not call it). */
void ear_commands_add_note(ear_commands *commands, const char *text);

/* The last buffer audio.render_offline rendered: interleaved stereo at 48 kHz (borrowed,
 * valid until the next render or reset); NULL and 0 frames before any. Thread: game. */
const float *ear_commands_last_buffer(const ear_commands *commands, uint64_t *out_frames);

#ifdef __cplusplus
}
#endif

#endif
