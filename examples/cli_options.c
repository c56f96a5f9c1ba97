/* SPDX-License-Identifier: Zlib */
/*
 * The command-line pieces of the examples and the demo game (cli_options.h). A script
 * file is read whole into memory and parsed; the parsed script owns copies of its texts,
 * so the file's text is freed at once.
 */
#include "cli_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EAR_VERSION
#define EAR_VERSION "0.1.0"
#endif

int cli_print_help(const char *usage) {
    fputs(usage, stdout);
    return fflush(stdout) == 0 ? 0 : 1;
}

int cli_print_version(const char *program) {
    printf("%s (Earshot) %s\n", program, EAR_VERSION);
    return fflush(stdout) == 0 ? 0 : 1;
}

bool cli_parse_frames(const char *program, const char *text, uint64_t *out) {
    bool ok = *text != '\0';
    for (const char *p = text; ok && *p; p++)
        if (*p < '0' || *p > '9') ok = false;
    unsigned long long n = 0;
    if (ok) {
        errno = 0;
        n = strtoull(text, NULL, 10);
        ok = !errno && n != 0 && n <= 100000000ull;
    }
    if (!ok) {
        fprintf(stderr, "%s: --headless %s: expected a number of frames from 1 to 100000000\n",
                program, text);
        return false;
    }
    *out = n;
    return true;
}

/* The whole file, or NULL with errno telling why (0 when memory ran out). Owned by the
 * caller. */
static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    size_t size = 0;
    for (;;) {
        char *grown = realloc(text, size + 4097);
        if (!grown) break;
        text = grown;
        size_t got = fread(text + size, 1, 4096, f);
        size += got;
        if (got == 0) break;
    }
    fclose(f);
    if (text) text[size] = '\0';
    return text;
}

bool cli_load_script(const char *program, const char *path, ear_script *script) {
    char error[256];
    errno = 0;
    char *text = read_text(path);
    int read_errno = errno;
    ear_script parsed = {0};
    bool ok = text && ear_script_parse(text, &parsed, error, sizeof error) == EAR_OK;
    if (!ok) {
        fprintf(stderr, "%s: script '%s': %s\n", program, path,
                text                   ? error
                : read_errno == ENOENT ? "no such file"
                : read_errno           ? strerror(read_errno)
                                       : "cannot be read");
    } else {
        *script = parsed;
    }
    free(text);
    return ok;
}
