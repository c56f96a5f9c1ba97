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

bool cli_load_script(const char *program, const char *path, ear_script *script) {
    /* A regular file of at most EAR_FILE_MAX_DOCUMENT_BYTES, checked on the open
     * descriptor (core.md): a FIFO given as the script is refused, not waited on. */
    char error[512];
    char *text = NULL;
    size_t size = 0;
    if (ear_file_read(path, EAR_FILE_MAX_DOCUMENT_BYTES, NULL, &text, &size, error,
                      sizeof error) != EAR_OK) {
        fprintf(stderr, "%s: script '%s': %s\n", program, path, ear_file_reason(error, path));
        return false;
    }
    ear_script parsed = {0};
    bool ok = ear_script_parse(text, &parsed, error, sizeof error) == EAR_OK;
    if (!ok)
        fprintf(stderr, "%s: script '%s': %s\n", program, path, error);
    else
        *script = parsed;
    free(text);
    return ok;
}
