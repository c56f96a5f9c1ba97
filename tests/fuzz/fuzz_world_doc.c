/*
 * libFuzzer target for world documents (src/physics/world_doc.c): each input is read as a
 * document, with the audio world's per-body keys tolerated. A document either builds (then
 * the world holds its walls and bodies in that number, steps three times at 60 Hz without
 * a non-finite position, answers a ray and is unloaded) or is refused with a message that
 * starts with the field it names. Seeds: tests/fuzz/seeds/world_doc.
 */
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
    static const char *const body_keys[] = {"source", "impact", "listener", NULL};
    ear_world_doc_options options = ear_world_doc_options_default();
    options.extra_body_keys = body_keys;
    options.max_bodies = 2000;
    ear_world_doc doc;
    memset(&doc, 0, sizeof doc);
    ear_world_doc_error err;
    ear_result r = ear_world_doc_load((const char *)data, size, &options, &doc, &err);
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
    ear_world_doc_unload(&doc);
    return 0;
}
