/* SPDX-License-Identifier: Zlib */
/*
 * For the fuzz targets whose parser reads a file: each process gets one scratch folder (in
 * /dev/shm when there is one, so that a save's fsync costs nothing, else in $TMPDIR or
 * /tmp), removed with everything in it when the process exits. Include this header first:
 * it asks for the POSIX functions it uses.
 */
#ifndef EARSHOT_FUZZ_FILES_H
#define EARSHOT_FUZZ_FILES_H

#define _XOPEN_SOURCE 700

#include "earshot/core.h"

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_dir[512];

static inline int fuzz_remove_one(const char *path, const struct stat *st, int flag,
                                  struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static inline void fuzz_remove_dir(void) {
    if (fuzz_dir[0]) nftw(fuzz_dir, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static inline void fuzz_quiet(void *user, ear_log_level level, const char *module,
                              const char *message) {
    (void)user, (void)level, (void)module, (void)message;
}

/* The scratch folder (made on first use, with logging silenced). */
static inline const char *fuzz_scratch(void) {
    if (fuzz_dir[0]) return fuzz_dir;
    struct stat st;
    const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm"
                       : getenv("TMPDIR")                                ? getenv("TMPDIR")
                                                                         : "/tmp";
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/earshot-fuzz-XXXXXX", base);
    if (!mkdtemp(fuzz_dir)) abort();
    atexit(fuzz_remove_dir);
    ear_log_set(fuzz_quiet, NULL, EAR_LOG_ERROR);
    return fuzz_dir;
}

/* The path of `name` in the scratch folder (a static buffer, valid until the next call). */
static inline const char *fuzz_path(const char *name) {
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", fuzz_scratch(), name);
    return path;
}

/* Writes data to `name` in the scratch folder and returns its path (as fuzz_path). */
static inline const char *fuzz_write(const char *name, const uint8_t *data, size_t size) {
    const char *path = fuzz_path(name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) abort();
    return path;
}

/* A memory budget, as a careful game gives its asset cache through ear_allocator: at most
 * `limit` live bytes; past it an allocation fails (NULL), which the code must survive. Each
 * block carries its size in a 16-byte header, so frees and reallocs are counted. */
typedef struct fuzz_budget {
    size_t limit, used;
} fuzz_budget;

static inline void *fuzz_budget_alloc(size_t size, void *user) {
    fuzz_budget *b = user;
    if (size > b->limit - b->used || size > SIZE_MAX - 16) return NULL;
    unsigned char *p = malloc(size + 16);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    b->used += size;
    return p + 16;
}

static inline void fuzz_budget_free(void *ptr, void *user) {
    if (!ptr) return;
    fuzz_budget *b = user;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t size;
    memcpy(&size, p, sizeof size);
    b->used -= size;
    free(p);
}

static inline void *fuzz_budget_realloc(void *ptr, size_t size, void *user) {
    if (!ptr) return fuzz_budget_alloc(size, user);
    fuzz_budget *b = user;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t old;
    memcpy(&old, p, sizeof old);
    if ((size > old && size - old > b->limit - b->used) || size > SIZE_MAX - 16) return NULL;
    unsigned char *q = realloc(p, size + 16);
    if (!q) return NULL;
    memcpy(q, &size, sizeof size);
    b->used = b->used - old + size;
    return q + 16;
}

static inline ear_allocator fuzz_budget_allocator(fuzz_budget *b) {
    return (ear_allocator){fuzz_budget_alloc, fuzz_budget_realloc, fuzz_budget_free, b};
}

#endif
