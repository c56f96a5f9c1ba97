/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for audio.json (src/audio/assets): each input is parsed by
 * ear_audio_setup_parse and then, as a game loads it, written to <assets>/audio.json and
 * applied to a fresh stage through an assets cache (ear_assets_apply_setup: clip names,
 * blends and pools resolved, bus volumes and ducks set). A failure's message must start
 * with the file's name; what does not parse does not apply either, with the same result;
 * what parses may still fail to apply (a clip that is not there, a stage that refuses) and
 * says so naming the file. A synth name in it may last at most 60 s
 * (EAR_AUDIO_SETUP_SYNTH_MAX_S; an hour, 660 MiB, fails the parse: seeds long_synth*.json)
 * and the cache's synth_max_s besides, and the
 * cache gets a 64 MiB budget through its allocator besides, so what does not fit must
 * fail cleanly, and every byte the cache took must be given back once it and the stage
 * are destroyed. Seeds: tests/fuzz/seeds/audio_json.
 */
#include "fuzz_files.h"

#include "earshot/assets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char root[1024];
    if (!root[0]) {
        snprintf(root, sizeof root, "%s", fuzz_path("assets"));
        if (mkdir(root, 0700) != 0) abort();
    }
    ear_io_error err;
    ear_audio_setup *setup = NULL;
    ear_result parsed =
        ear_audio_setup_parse((const char *)data, size, "assets/audio.json", &setup, &err);
    if (parsed != EAR_OK) {
        if (setup || strncmp(err.message, "assets/audio.json", 17) != 0) abort();
    } else {
        ear_audio_setup_destroy(setup);
    }

    fuzz_write("assets/audio.json", data, size);
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
    ear_result applied = ear_assets_apply_setup(assets, stage, &err);
    if (parsed != EAR_OK && applied != parsed) abort();
    if (applied != EAR_OK && !strstr(err.message, "audio.json")) abort();
    ear_stage_destroy(stage);
    ear_assets_destroy(assets);
    if (budget.used != 0) abort(); /* everything the cache took, it gave back */
    return 0;
}
