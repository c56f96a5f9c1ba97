/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for world documents (src/physics/world_doc.c): each input is read as a
 * document, with the audio world's per-body keys and top-level keys ("zones", "follow")
 * tolerated. A document either builds (then the world holds its walls and bodies in that
 * number, steps three times at 60 Hz without a non-finite position, answers a ray and is
 * unloaded) or is refused with a message that starts with the field it names. A document
 * that builds then goes through the command tool's world.load (src/commands: the audio
 * world's per-body objects, "zones" and "follow"): it loads, steps once and reports its
 * zones, or it is refused as E_BAD_PARAM with where inside params.world and a message that
 * starts with it. Seeds: tests/fuzz/seeds/world_doc.
 */
#include "earshot/commands.h"
#include "earshot/level.h"
#include "earshot/physics.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok) {
    if (!ok) abort();
}

static void quiet(void *user, ear_log_level level, const char *module, const char *message) {
    (void)user, (void)level, (void)module, (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ear_log_set(quiet, NULL, EAR_LOG_ERROR);
    static const char *const body_keys[] = {"source", "impact", "listener", "vehicle_sound",
                                            NULL};
    static const char *const top_keys[] = {"zones", "follow", NULL};
    ear_level_doc_options options = ear_level_doc_options_default();
    options.extra_body_keys = body_keys;
    options.extra_keys = top_keys;
    options.max_bodies = 2000;
    ear_level_doc doc;
    memset(&doc, 0, sizeof doc);
    ear_level_doc_error err;
    ear_result r = ear_level_doc_load((const char *)data, size, &options, &doc, &err);
    if (r != EAR_OK) {
        check(r == EAR_E_FORMAT || r == EAR_E_OUT_OF_MEMORY);
        check(doc.world == NULL);
        check(err.message[0] != '\0');
        check(strncmp(err.message, err.where, strlen(err.where)) == 0);
        return 0;
    }
    check(doc.world != NULL);
    check(ear_physics_body_count(doc.world) == doc.wall_count + doc.body_count);
    check(doc.step_hz >= 1);
    for (int i = 0; i < 3; i++) check(ear_physics_step(doc.world, 1.0f / 60) == EAR_OK);
    for (size_t i = 0; i < ear_physics_body_count(doc.world); i++) {
        ear_vec3 p;
        check(ear_body_position(doc.world, ear_physics_body_at(doc.world, i), &p) == EAR_OK);
        check(ear_vec3_is_finite(p));
    }
    ear_ray_hit hit;
    bool found;
    check(ear_physics_ray_cast(doc.world, ear_vec3_make(-100, 1, 0), ear_vec3_make(100, 1, 0),
                               NULL, &hit, &found) == EAR_OK);
    size_t bodies = ear_physics_body_count(doc.world);
    ear_level_doc_unload(&doc);
    if (bodies > 200) return 0; /* keeps the command path quick */
    /* the same document through world.load: the audio world's keys, zones and follow */
    static ear_commands *c;
    static unsigned runs;
    if (!c || ++runs % 256 == 0) {
        ear_commands_destroy(c);
        c = NULL;
        /* A session's budget under libFuzzer's one-allocation limit (64 MiB): a source
         * whose synth name asks for minutes of sound is refused by the budget, as a
         * game's would be by its own, not by the harness. */
        ear_commands_config config = ear_commands_config_default();
        config.max_memory_bytes = (uint64_t)48 << 20;
        if (ear_commands_create(&config, &c) != EAR_OK) return 0;
    }
    json_t *world = json_loadb((const char *)data, size, 0, NULL);
    check(world != NULL); /* the physics parser read it */
    json_t *params = json_pack("{s:o}", "world", world);
    json_t *cerr = NULL;
    json_t *res = ear_commands_run(c, "world.load", params, &cerr);
    json_decref(params);
    if (res) {
        json_decref(res);
        json_t *step = json_pack("{s:i}", "steps", 1), *e2 = NULL;
        json_decref(ear_commands_run(c, "world.step", step, &e2));
        json_decref(step);
        json_decref(e2);
        e2 = NULL;
        json_t *st = ear_commands_run(c, "audio.status", NULL, &e2);
        check(st != NULL);
        check(json_is_array(json_object_get(json_object_get(st, "reverb"), "zones")));
        json_decref(st);
        json_decref(e2);
        return 0;
    }
    check(cerr != NULL);
    const char *code = json_string_value(json_object_get(cerr, "code"));
    const char *where = json_string_value(json_object_get(cerr, "where"));
    const char *message = json_string_value(json_object_get(cerr, "message"));
    check(code && where && message);
    if (strcmp(code, "E_BAD_PARAM") == 0) {
        check(strncmp(where, "params.world", 12) == 0);
        check(strncmp(message, where, strlen(where)) == 0);
    } else {
        check(strcmp(code, "E_OUT_OF_MEMORY") == 0 || strcmp(code, "E_TOO_BIG") == 0 ||
              strcmp(code, "E_NOT_FOUND") == 0);
    }
    json_decref(cerr);
    return 0;
}
