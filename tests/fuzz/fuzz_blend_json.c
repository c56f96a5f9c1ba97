/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for .blend.json files (src/audio/assets): each input is parsed by
 * ear_blend_parse and then, as a game meets it, written to <assets>/sounds/fuzz.blend.json,
 * loaded onto a fresh stage (ear_assets_load_blend_file: its clips resolved, the blend
 * registered) and played once. A failure's message must start with the file's label. The
 * cache gets a 64 MiB budget through its allocator, which must balance at the end.
 * Seeds: tests/fuzz/seeds/blend_json.
 */
#include "fuzz_files.h"

#include "earshot/assets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char root[1024];
    if (!root[0]) {
        snprintf(root, sizeof root, "%s", fuzz_path("assets"));
        if (mkdir(root, 0700) != 0 || mkdir(fuzz_path("assets/sounds"), 0700) != 0) abort();
    }
    ear_io_error err;
    ear_blend_source blend;
    ear_result parsed =
        ear_blend_parse((const char *)data, size, "fuzz.blend.json", &blend, &err);
    if (parsed != EAR_OK && strncmp(err.message, "fuzz.blend.json", 15) != 0) abort();

    fuzz_write("assets/sounds/fuzz.blend.json", data, size);
    /* The cache's clips (synth names, decoded files) within a budget of 64 MiB, as a game
     * that loads others' files gives it; what does not fit fails, it is not allocated. */
    fuzz_budget budget = {64u << 20, 0};
    ear_allocator alloc = fuzz_budget_allocator(&budget);
    ear_assets_config ac = ear_assets_config_default();
    ac.root = root;
    ac.allocator = &alloc;
    ear_assets *assets;
    ear_stage *stage;
    if (ear_assets_create(&ac, &assets) != EAR_OK) abort();
    if (ear_stage_create(NULL, &stage) != EAR_OK) abort();
    ear_result loaded = ear_assets_load_blend_file(assets, stage, "fuzz", &err);
    if (parsed != EAR_OK && loaded == EAR_OK) abort();
    if (loaded == EAR_OK) {
        ear_voice_id id;
        ear_play play = {.looping = false};
        if (ear_assets_play_blend(assets, stage, "fuzz", &play, &id) == EAR_OK) {
            static float out[2 * 480];
            ear_stage_render(stage, out, 480);
        }
    }
    ear_stage_destroy(stage);
    ear_assets_destroy(assets);
    if (budget.used != 0) abort(); /* everything the cache took, it gave back */
    return 0;
}
