/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for scene files (`earshot render`, tools/earshot/scene.c): each input is
 * written to a file, loaded and checked by the tool's own scene_load_file and scene_parse,
 * and a scene that passes is played on a fresh registry (confined to the scratch folder,
 * renders capped at 50 ms, synth clips at 0.5 s). Checked: a refused scene said why, on a
 * line that names the file; the timed commands are in time order; a render that succeeds
 * holds no more than the cap's 2400 frames. Seeds: examples/scenes and tests/fuzz/seeds/scene.
 */
#include "fuzz_files.h"

#include "scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static FILE *messages;
    static char root[1024];
    if (!messages) {
        snprintf(root, sizeof root, "%s", fuzz_scratch());
        messages = tmpfile();
        if (!messages) abort();
    }
    const char *path = fuzz_write("fuzz.scene.json", data, size);
    char file[1024];
    snprintf(file, sizeof file, "%s", path);
    rewind(messages);
    scene s;
    uint64_t cost = 0;
    bool parsed = scene_parse(
        &s, scene_from_world(scene_load_file(file, (uint64_t)64 << 20, &cost, messages)), file,
        messages);
    long said = ftell(messages);
    if (!parsed) {
        /* Said why, on a line that starts with the file's name. */
        char line[64] = "";
        rewind(messages);
        if (said <= 0 || !fgets(line, sizeof line, messages) ||
            strncmp(line, file, strlen(file) < 63 ? strlen(file) : 63) != 0)
            abort();
        scene_free(&s);
        return 0;
    }
    for (size_t i = 1; i < s.timed_count; i++)
        if (s.timed[i - 1].at_s > s.timed[i].at_s) abort();
    if (s.motion_count > json_array_size(json_object_get(s.root, "motions"))) abort();

    ear_commands_config config = ear_commands_config_default();
    scene_hook(&s, &config, false);
    config.max_render_seconds = 0.05;
    config.max_memory_bytes = (uint64_t)64 << 20; /* run-fuzz: 128 MiB of RSS at most */
    config.max_synth_seconds = 0.5;
    config.confine_paths = true;
    const char *roots[] = {root};
    config.allowed_roots = roots;
    config.allowed_root_count = 1;
    config.assets_root = root;
    ear_commands *c;
    if (ear_commands_create(&config, &c) != EAR_OK) abort();
    json_t *err = ear_commands_charge(c, file, cost);
    if (err) abort(); /* at most half the budget was measured: it fits */
    json_t *result = scene_play(&s, c, &err);
    if (result) {
        /* The cap holds: at most 50 ms at 48 kHz. */
        uint64_t frames = 0;
        ear_commands_last_buffer(c, &frames);
        if (frames > 2400) abort();
    }
    json_decref(result);
    json_decref(err);
    ear_commands_destroy(c);
    scene_free(&s);
    return 0;
}
