/*
 * libFuzzer target for the command parser: each input is split into lines and fed to one
 * registry as `earshot serve` lines; when the input starts with 'M' it goes to the MCP
 * handler instead. Every line must get an answer (never NULL for serve), nothing may
 * crash, leak or trip a sanitizer, and renders are capped at 50 ms so that a valid
 * render command stays cheap. Built by `make fuzz` (clang, -fsanitize=fuzzer,address,
 * undefined); `make test` runs it for 10 s on the seeds in tests/fuzz/corpus.
 */
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
        config.confine_paths = true;
        config.assets_root = "/nonexistent-earshot-fuzz-assets";
        if (ear_commands_create(&config, &c) != EAR_OK) abort();
    }
    bool mcp = size > 0 && data[0] == 'M';
    const char *text = (const char *)data + (mcp ? 1 : 0);
    size_t left = size - (mcp ? 1 : 0);
    while (left > 0) {
        const char *nl = memchr(text, '\n', left);
        size_t n = nl ? (size_t)(nl - text) : left;
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
