/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for the command parser: each input is split into lines and fed to one
 * registry as `earshot serve` lines; when the input starts with 'M' it goes to the MCP
 * handler instead. Every line must get an answer (never NULL for serve), nothing may
 * crash, leak or trip a sanitizer, and renders are capped at 50 ms so that a valid
 * render command stays cheap. Two fast paths are checked against their references on every
 * line: the fast JSON reader against json_loadb (whatever it accepts, jansson reads to an
 * equal value), and each compiled schema against the JSON one (the same verdict on the
 * line's params for every command). Built by `make fuzz` (clang, -fsanitize=fuzzer,address,
 * undefined); `make test` runs it for 10 s on the seeds in tests/fuzz/corpus.
 */
#include "commands_internal.h" /* the fast reader and compiled schemas, cross-checked */
#include "earshot/commands.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *user, ear_log_level level, const char *module, const char *message) {
    (void)user, (void)level, (void)module, (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ear_commands *c;
    static unsigned runs;
    if (!c || ++runs % 256 == 0) {
        /* A fresh registry now and then, so that state cannot grow without bound. */
        ear_commands_destroy(c);
        ear_log_set(quiet, NULL, EAR_LOG_ERROR);
        ear_commands_config config = ear_commands_config_default();
        config.max_render_seconds = 0.05;
        config.max_synth_seconds = 0.5;
        config.max_world_steps = 120; /* a fuzzed world.step stays cheap, like a render */
        config.confine_paths = true;
        config.assets_root = "/nonexistent-earshot-fuzz-assets";
        /* A 64 MiB session: run-fuzz holds every target to 128 MiB of RSS, so whatever
         * the input, the budget (and what it states may pass it) must keep it there. */
        config.max_memory_bytes = (uint64_t)64 << 20;
        if (ear_commands_create(&config, &c) != EAR_OK) abort();
    }
    bool mcp = size > 0 && data[0] == 'M';
    const char *text = (const char *)data + (mcp ? 1 : 0);
    size_t left = size - (mcp ? 1 : 0);
    while (left > 0) {
        const char *nl = memchr(text, '\n', left);
        size_t n = nl ? (size_t)(nl - text) : left;
        json_t *fast = ear__json_read_fast(text, n);
        if (fast) {
            json_t *ref = json_loadb(text, n, JSON_REJECT_DUPLICATES, NULL);
            if (!ref || !json_equal(fast, ref)) abort();
            json_decref(ref);
            json_t *params = json_object_get(fast, "params");
            if (json_is_object(params))
                for (size_t i = 0; i < ear_commands_count(); i++) {
                    json_t *e = ear_schema_check(ear_commands_schema(c, i), params, "params");
                    if ((e == NULL) != ear__schema_valid(c->compiled[i], params)) abort();
                    json_decref(e);
                }
            char *again = ear__json_write(fast);
            json_t *back = again ? json_loads(again, 0, NULL) : NULL;
            if (!back) abort();
            json_decref(back);
            free(again);
            json_decref(fast);
        }
        char *reply =
            mcp ? ear_mcp_handle_line(c, text, n) : ear_commands_serve_line(c, text, n);
        if (!mcp && !reply) abort();
        free(reply);
        if (!nl) break;
        left -= n + 1;
        text += n + 1;
    }
    return 0;
}
