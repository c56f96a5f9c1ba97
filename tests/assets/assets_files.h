/* SPDX-License-Identifier: Zlib */
/*
 * Helpers for the assets tests that build an assets folder on disk: `root` is the
 * folder (a mkdtemp result the test fills in), at() a path inside it, write_text() a
 * small file.
 */
#ifndef EAR_TEST_ASSETS_FILES_H
#define EAR_TEST_ASSETS_FILES_H

#include <stdbool.h>
#include <stdio.h>

static char root[256];

/* root/name, in one of eight rotating buffers (so a call can hold a few at once). */
static inline const char *at(const char *name) {
    static char paths[8][512];
    static int next = 0;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", root, name);
    return p;
}

static inline bool write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fputs(text, f);
    fclose(f);
    return true;
}

#endif
