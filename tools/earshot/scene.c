/* SPDX-License-Identifier: Zlib */
/*
 * Scene files for `earshot render` (scene.h). Checking comes first and runs nothing: the
 * document's shape, every command and every motion. Playing then runs the commands that
 * are not timed in the file's order, and the render's step callback (every 800 frames)
 * runs each timed command once the render reaches its time and moves each motion's voice
 * to from + velocity * (t - start) while t lies in [start, end]. A command's "voice":
 * "<as name>" becomes the id of the voice that an earlier command played "as" that name.
 */
#include "scene.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

json_t *scene_from_world(json_t *doc) {
    if (!json_is_object(doc) ||
        (!json_object_get(doc, "bodies") && !json_object_get(doc, "level")))
        return doc;
    json_t *world = json_deep_copy(doc);
    json_t *render = json_deep_copy(json_object_get(doc, "render"));
    json_t *own = json_object_get(doc, "commands");
    json_t *commands = json_array();
    if (!world || !commands) {
        json_decref(world);
        json_decref(render);
        json_decref(commands);
        json_decref(doc);
        return NULL;
    }
    json_object_del(world, "commands");
    json_object_del(world, "render");
    json_object_del(world, "description");
    if (!json_is_object(render)) {
        json_decref(render);
        render = json_object();
    }
    json_object_set_new(render, "scene", json_true());
    json_array_append_new(commands, json_pack("{s:s, s:{s:o}}", "command", "world.load",
                                              "params", "world", world));
    size_t i;
    json_t *e;
    json_array_foreach(own, i, e) json_array_append(commands, e);
    json_decref(doc);
    return json_pack("{s:o, s:o}", "commands", commands, "render", render);
}

json_t *scene_load_file(const char *file, uint64_t budget_bytes, uint64_t *out_cost,
                        FILE *messages) {
    *out_cost = 0;
    /* A regular file of at most EAR_FILE_MAX_DOCUMENT_BYTES (16 MiB), checked on the open
     * descriptor (core.md): a FIFO given as the scene is refused, never waited on; a
     * 100 MB scene is refused by its size before it is read. */
    char *text = NULL;
    size_t size = 0;
    char why[600];
    if (ear_file_read(file, EAR_FILE_MAX_DOCUMENT_BYTES, NULL, &text, &size, why, sizeof why) !=
        EAR_OK) {
        fprintf(messages, "%s\n", why);
        return NULL;
    }
    /* Its parse must fit the memory budget (core.md, "JSON's cost"): measured before it
     * is parsed, twice over (a world document is copied into the scene it renders as,
     * the two alive at once for a moment); the render then counts it once in the
     * registry's budget (ear_commands_charge). A 16 MiB file of numbers would take some
     * 450 MiB parsed. */
    ear_json_cost cost = ear_json_measure(text, size);
    if (cost.bytes > budget_bytes / 2) {
        fprintf(messages,
                "%s: E_TOO_BIG: parsing its %llu JSON values would take about %.1f MiB, "
                "and a scene may take at most half the memory budget of %.1f MiB (nothing "
                "was rendered; the budget is set with --memory-mb)\n",
                file, (unsigned long long)cost.values, (double)cost.bytes / (1024.0 * 1024.0),
                (double)budget_bytes / (1024.0 * 1024.0));
        free(text);
        return NULL;
    }
    *out_cost = cost.bytes;
    json_error_t jerr;
    /* JSON_DECODE_ANY: a file of valid JSON that is no object ("[]", "42") is told what
     * it is, not called invalid. */
    json_t *v = json_loadb(text, size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    free(text);
    if (!v) {
        fprintf(messages, "%s: E_BAD_JSON: line %d, column %d: %s\n", file, jerr.line,
                jerr.column, jerr.text);
    } else if (!json_is_object(v)) {
        fprintf(messages,
                "%s: E_BAD_JSON: expected a JSON object (a scene or a world), got %s\n", file,
                json_is_array(v)    ? "an array"
                : json_is_string(v) ? "a string"
                : json_is_number(v) ? "a number"
                : json_is_null(v)   ? "null"
                                    : "true or false");
        json_decref(v);
        v = NULL;
    }
    return v;
}

static bool vec3_of(const json_t *v, float out[3]) {
    if (!json_is_array(v) || json_array_size(v) != 3) return false;
    for (size_t i = 0; i < 3; i++) {
        if (!json_is_number(json_array_get(v, i))) return false;
        out[i] = (float)json_number_value(json_array_get(v, i));
    }
    return true;
}

/* The scene's warnings: a timed command past the render's end, a motion for a voice no
 * command names with "as", an "as" name given twice. They do not stop the render. */
static void warn_scene(const scene *s, const json_t *commands, const json_t *motions,
                       double seconds) {
    size_t i, k;
    json_t *entry, *other;
    json_array_foreach(commands, i, entry) {
        double at = json_number_value(json_object_get(entry, "at"));
        if (at > seconds)
            fprintf(s->messages,
                    "%s: warning: commands[%zu]: at %g s is past the end of the render "
                    "(%g s); it never runs\n",
                    s->file, i, at, seconds);
        const char *as = json_string_value(json_object_get(entry, "as"));
        json_array_foreach(commands, k, other) {
            if (k >= i) break;
            const char *before = json_string_value(json_object_get(other, "as"));
            if (as && before && strcmp(as, before) == 0) {
                fprintf(s->messages,
                        "%s: warning: commands[%zu]: \"as\": \"%s\" was already given by "
                        "commands[%zu]; the later voice takes the name\n",
                        s->file, i, as, k);
                break;
            }
        }
    }
    json_array_foreach(motions, i, entry) {
        const char *voice = json_string_value(json_object_get(entry, "voice"));
        bool known = false;
        json_array_foreach(commands, k, other) {
            const char *as = json_string_value(json_object_get(other, "as"));
            if (voice && as && strcmp(voice, as) == 0) known = true;
        }
        if (voice && !known)
            fprintf(s->messages,
                    "%s: warning: motions[%zu]: no command plays a voice \"as\": \"%s\"; the "
                    "motion moves nothing\n",
                    s->file, i, voice);
    }
}

bool scene_parse(scene *s, json_t *root, const char *file, FILE *messages) {
    memset(s, 0, sizeof *s);
    s->file = file;
    s->messages = messages;
    s->root = root;
    s->last_percent = -1;
    if (!root) return false;
    json_t *commands = json_object_get(root, "commands");
    json_t *render = json_object_get(root, "render");
    json_t *motions = json_object_get(root, "motions");
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        if (strcmp(key, "commands") && strcmp(key, "render") && strcmp(key, "motions") &&
            strcmp(key, "description")) {
            fprintf(messages,
                    "%s: %s: unknown key (expected commands, motions, render, "
                    "description)\n",
                    file, key);
            return false;
        }
    }
    if (!json_is_array(commands) || (render && !json_is_object(render)) ||
        (motions && !json_is_array(motions))) {
        fprintf(messages,
                "%s: expected {\"commands\": [...], \"motions\": [...], \"render\": "
                "{seconds, window, tones}}\n",
                file);
        return false;
    }
    s->render = render;
    json_t *secs = json_object_get(render, "seconds");
    warn_scene(s, commands, motions, json_is_number(secs) ? json_number_value(secs) : 1);

    s->now = calloc(json_array_size(commands) + 1, sizeof *s->now);
    s->timed = calloc(json_array_size(commands) + 1, sizeof *s->timed);
    s->motions = calloc(json_array_size(motions) + 1, sizeof *s->motions);
    if (!s->now || !s->timed || !s->motions) {
        fprintf(messages, "%s: out of memory\n", file);
        return false;
    }
    size_t i;
    json_t *entry;
    json_array_foreach(commands, i, entry) {
        json_t *at = json_object_get(entry, "at");
        if (!json_is_object(entry) || !json_is_string(json_object_get(entry, "command")) ||
            (at && !json_is_number(at))) {
            fprintf(messages,
                    "%s: commands[%zu]: expected {\"command\", \"params\", \"at\", "
                    "\"as\"}\n",
                    file, i);
            return false;
        }
        if (at && json_number_value(at) > 0) {
            /* Stable insertion by time: commands at the same time keep their order. */
            size_t k = s->timed_count++;
            while (k > 0 && s->timed[k - 1].at_s > json_number_value(at)) {
                s->timed[k] = s->timed[k - 1];
                k--;
            }
            s->timed[k] = (scene_timed){json_number_value(at), entry, i};
        } else {
            s->now[s->now_count++] = (scene_timed){0, entry, i};
        }
    }
    json_array_foreach(motions, i, entry) {
        scene_motion *m = &s->motions[s->motion_count];
        const char *voice = json_string_value(json_object_get(entry, "voice"));
        if (!voice || !vec3_of(json_object_get(entry, "from"), m->from) ||
            !vec3_of(json_object_get(entry, "velocity"), m->velocity)) {
            fprintf(messages,
                    "%s: motions[%zu]: expected {\"voice\": <as name>, \"from\": "
                    "[x, y, z], \"velocity\": [x, y, z], \"start\", \"end\"}\n",
                    file, i);
            return false;
        }
        snprintf(m->voice, sizeof m->voice, "%s", voice);
        m->start_s = json_number_value(json_object_get(entry, "start"));
        json_t *end = json_object_get(entry, "end");
        m->end_s = json_is_number(end) ? json_number_value(end) : 1e300;
        s->motion_count++;
    }
    return true;
}

/* Runs one scene command: "voice": "<as name>" becomes that voice's id. */
static bool run_entry(ear_commands *c, scene *s, json_t *entry, size_t index) {
    const char *name = json_string_value(json_object_get(entry, "command"));
    json_t *params = json_object_get(entry, "params");
    json_t *copy = params ? json_deep_copy(params) : json_object();
    const char *voice = json_string_value(json_object_get(copy, "voice"));
    if (voice) {
        json_t *id = json_object_get(s->names, voice);
        if (!id) {
            fprintf(s->messages, "%s: commands[%zu]: no voice was played \"as\": \"%s\"\n",
                    s->file, index, voice);
            json_decref(copy);
            return false;
        }
        json_object_set(copy, "voice", id);
    }
    json_t *err = NULL;
    json_t *result = ear_commands_run(c, name ? name : "", copy, &err);
    json_decref(copy);
    if (!result) {
        fprintf(s->messages, "%s: commands[%zu] (%s): %s: %s\n", s->file, index,
                name ? name : "?", json_string_value(json_object_get(err, "code")),
                json_string_value(json_object_get(err, "message")));
        json_decref(err);
        return false;
    }
    const char *as = json_string_value(json_object_get(entry, "as"));
    if (as && json_object_get(result, "voice"))
        json_object_set(s->names, as, json_object_get(result, "voice"));
    json_decref(result);
    return true;
}

static void on_step(void *user, ear_commands *c, uint64_t done, uint64_t total) {
    scene *s = user;
    double t = (double)done / 48000.0;
    while (!s->failed && s->next < s->timed_count && s->timed[s->next].at_s <= t + 1e-9) {
        scene_timed *e = &s->timed[s->next++];
        if (!run_entry(c, s, e->entry, e->index)) s->failed = true;
    }
    for (size_t i = 0; i < s->motion_count && !s->failed; i++) {
        scene_motion *m = &s->motions[i];
        if (t < m->start_s || t > m->end_s) continue;
        json_t *id = json_object_get(s->names, m->voice);
        if (!id) continue;
        double dt = t - m->start_s;
        json_t *p =
            json_pack("{s:O, s:[f, f, f], s:[f, f, f]}", "voice", id, "position",
                      m->from[0] + m->velocity[0] * dt, m->from[1] + m->velocity[1] * dt,
                      m->from[2] + m->velocity[2] * dt, "velocity", (double)m->velocity[0],
                      (double)m->velocity[1], (double)m->velocity[2]);
        json_t *r = ear_commands_run(c, "audio.voice.set", p, NULL);
        json_decref(r); /* a voice that has ended simply stops moving */
        json_decref(p);
    }
    if (s->progress && total > 0) {
        int percent = (int)(100 * done / total);
        if (percent != s->last_percent) {
            s->last_percent = percent;
            int bar = percent * 40 / 100;
            fprintf(s->messages, "\rrendering [%.*s%*s] %3d%%", bar,
                    "########################################", 40 - bar, "", percent);
            if (done == total) fprintf(s->messages, "\n");
        }
    }
}

void scene_hook(scene *s, ear_commands_config *config, bool progress) {
    config->on_step = on_step;
    config->step_user = s;
    s->progress = progress;
}

json_t *scene_play(scene *s, ear_commands *c, json_t **out_error) {
    *out_error = NULL;
    if (!s->names) s->names = json_object();
    if (!s->names) {
        fprintf(s->messages, "%s: out of memory\n", s->file);
        return NULL;
    }
    for (size_t i = 0; i < s->now_count; i++)
        if (!run_entry(c, s, s->now[i].entry, s->now[i].index)) return NULL;
    json_t *params = s->render ? json_deep_copy(s->render) : json_object();
    json_t *err = NULL;
    json_t *result = ear_commands_run(c, "audio.render_offline", params, &err);
    json_decref(params);
    if (s->failed) {
        json_decref(result);
        json_decref(err);
        return NULL;
    }
    if (!result) *out_error = err;
    return result;
}

void scene_free(scene *s) {
    json_decref(s->names);
    json_decref(s->root);
    free(s->now);
    free(s->timed);
    free(s->motions);
    memset(s, 0, sizeof *s);
}
