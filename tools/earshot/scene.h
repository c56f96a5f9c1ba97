/* SPDX-License-Identifier: Zlib */
/*
 * Scene files (`earshot render`): a JSON document of commands (some at a time, some now),
 * motions that move a voice in a straight line, and render_offline's params. Loaded and
 * checked here, then played on a command registry: the commands without a positive "at"
 * run in order before the render, the others and the motions on the registry's step
 * callback as the render reaches their time. A fuzz target (tests/fuzz/fuzz_scene.c) calls
 * the same functions as the tool. Thread: the one that owns the registry.
 */
#ifndef EARSHOT_TOOL_SCENE_H
#define EARSHOT_TOOL_SCENE_H

#include "earshot/commands.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct scene_timed {
    double at_s;
    json_t *entry; /* {command, params, at, as}, borrowed from the document */
    size_t index;  /* in "commands", for messages */
} scene_timed;

typedef struct scene_motion {
    char voice[64]; /* an "as" name */
    float from[3], velocity[3];
    double start_s, end_s;
} scene_motion;

typedef struct scene {
    const char *file; /* names the scene in messages (borrowed) */
    FILE *messages;   /* errors and warnings, each a line starting with file (borrowed) */
    json_t *root;     /* the document (owned) */
    json_t *render;   /* render_offline's params as the scene gives them, or NULL */
    scene_timed *now; /* commands without a positive "at", in the file's order */
    size_t now_count;
    scene_timed *timed; /* commands at a positive "at", by time (the file's order at ties) */
    size_t timed_count;
    scene_motion *motions;
    size_t motion_count;
    /* While playing. */
    json_t *names; /* "as" name -> voice id */
    size_t next;   /* the next timed command */
    bool progress; /* a progress bar on messages */
    int last_percent;
    bool failed; /* a timed command failed (said on messages); the render's result is void */
} scene;

/* Reads a file as JSON (duplicate keys refused), if its parse (measured first) takes at
 * most half of budget_bytes; *out_cost is that measure, for the registry's budget. NULL
 * after saying why on messages: "no such file", "is a folder", E_TOO_BIG, or bad JSON
 * with its line and column. */
json_t *scene_load_file(const char *file, uint64_t budget_bytes, uint64_t *out_cost,
                        FILE *messages);

/* A world document (an object with "bodies" or "level") as a scene: {"commands":
 * [world.load {world}, the document's own commands...], "render": its render with "scene":
 * true}; the document's "commands", "render" and "description" are not part of the world.
 * Any other doc is returned as it is. Takes doc; NULL for NULL or out of memory. */
json_t *scene_from_world(json_t *doc);

/* Checks a scene document (root is taken, whatever the outcome) and fills *s: only the keys
 * commands, motions, render and description; each command an object with a string
 * "command" and a numeric "at" if any; each motion {voice, from, velocity[, start, end]}.
 * Warns (without failing) of an "at" past the render's end, an "as" name given twice and a
 * motion for a voice no command names. false after saying why; scene_free is safe either
 * way. */
bool scene_parse(scene *s, json_t *root, const char *file, FILE *messages);

/* Points config's step callback at the scene, so that its timed commands and motions run
 * as the render goes; progress draws a bar on messages. Call before ear_commands_create. */
void scene_hook(scene *s, ear_commands_config *config, bool progress);

/* Runs the scene's commands that are not timed, then audio.render_offline with the scene's
 * render params, on c (made with a config passed to scene_hook). Returns the render's
 * result (a new reference). NULL and *out_error NULL: a scene command failed, and that was
 * said on messages; NULL and *out_error set (a new reference): the render itself failed. */
json_t *scene_play(scene *s, ear_commands *c, json_t **out_error);

/* Frees what scene_parse and scene_play made. */
void scene_free(scene *s);

#endif
