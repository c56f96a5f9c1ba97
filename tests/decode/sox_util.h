/* SPDX-License-Identifier: Zlib */
/*
 * Helpers for the tests that decode files: a scratch folder, files made by sox (and
 * opusenc, which sox cannot replace for Opus), sox's own measurements, and a log
 * catcher. The tests run sox in the test itself, so every file they read was made by
 * another program than the one that decodes it.
 *
 * EARSHOT_TEST_FILES=FOLDER keeps the files: each scratch folder is FOLDER/TAG (made afresh
 * natively), left in place, and each sox stat is written beside its file (FILE.sox-stat). That
 * is how the Windows build is tested (scripts/test-windows): a Windows program under Wine
 * cannot run a Linux sox and wait for it (Wine starts it but neither waits nor gets its exit
 * code), so the native test first makes the files and stats in FOLDER, then the Windows test
 * reads the same files: its run() checks that the file a command makes (its last quoted
 * path) is there, and its sox_stat() reads the stat sox gave natively.
 */
#ifndef EAR_TEST_SOX_UTIL_H
#define EAR_TEST_SOX_UTIL_H

#include "earshot/core.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* EARSHOT_TEST_FILES (see the top), or NULL. */
static inline const char *kept_files(void) {
    const char *d = getenv("EARSHOT_TEST_FILES");
    return d && *d ? d : NULL;
}

/* Makes a fresh folder under /tmp (its path in `out`), or FOLDER/tag under
 * EARSHOT_TEST_FILES: made afresh natively (what an earlier run left, a FIFO among it,
 * would fail this one), taken as the native run left it on Windows; false on failure. */
static inline bool scratch_dir(char *out, size_t cap, const char *tag) {
    const char *keep = kept_files();
    if (keep) {
        snprintf(out, cap, "%s/%s", keep, tag);
#ifndef _WIN32
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
        if (strchr(out, '\'') || system(cmd) != 0) return false;
#endif
        (void)mkdir(keep, 0700);
        return mkdir(out, 0700) == 0 || errno == EEXIST;
    }
    snprintf(out, cap, "/tmp/earshot-%s-XXXXXX", tag);
    return mkdtemp(out) != NULL;
}

static inline void remove_tree(const char *dir) {
    if (kept_files()) return;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* Runs a shell command built like printf; true when it exits 0. Its output is dropped.
 * On Windows: true when the file it makes, its last quoted path, is there (see the top). */
static inline bool run(const char *format, ...) {
    char cmd[2048];
    va_list args;
    va_start(args, format);
    vsnprintf(cmd, sizeof cmd, format, args);
    va_end(args);
#ifdef _WIN32
    char *last = strrchr(cmd, '\'');
    char *first = last ? (*last = '\0', strrchr(cmd, '\'')) : NULL;
    struct stat st;
    if (!kept_files() || !first || stat(first + 1, &st) != 0 || st.st_size == 0) {
        if (last) *last = '\'';
        fprintf(stderr,
                "run: %s: no file made (on Windows the native test makes them first, "
                "in EARSHOT_TEST_FILES%s%s)\n",
                first ? first + 1 : cmd, kept_files() ? " = " : ", which is not set",
                kept_files() ? kept_files() : "");
        return false;
    }
    return true;
#else
    char quiet[2100];
    snprintf(quiet, sizeof quiet, "%s >/dev/null 2>&1", cmd);
    return system(quiet) == 0;
#endif
}

/* sox's `stat` of a file: its RMS amplitude and the samples it read (all channels).
 * False when sox cannot read the file. On Windows, the stat the native run kept. */
static inline bool sox_stat(const char *path, double *rms, double *samples) {
    char kept[1200];
    snprintf(kept, sizeof kept, "%s.sox-stat", path);
#ifdef _WIN32
    FILE *k = fopen(kept, "r");
    bool got = k && fscanf(k, "%lf %lf", rms, samples) == 2;
    if (k) fclose(k);
    if (!got) fprintf(stderr, "sox_stat: %s: not kept by the native run\n", kept);
    return got;
#else
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "sox '%s' -n stat 2>&1", path);
    FILE *p = popen(cmd, "r");
    if (!p) return false;
    char line[256];
    int found = 0;
    while (fgets(line, sizeof line, p)) {
        if (sscanf(line, "RMS amplitude: %lf", rms) == 1 ||
            sscanf(line, "RMS     amplitude: %lf", rms) == 1)
            found |= 1;
        if (sscanf(line, "Samples read: %lf", samples) == 1) found |= 2;
    }
    pclose(p);
    if (found == 3 && kept_files()) {
        FILE *k = fopen(kept, "w");
        bool written = k && fprintf(k, "%.17g %.17g\n", *rms, *samples) > 0;
        if (k && fclose(k) != 0) written = false;
        if (!written) {
            fprintf(stderr, "sox_stat: could not keep %s\n", kept);
            return false;
        }
    }
    return found == 3;
#endif
}

/* Truncates a copy: writes the first `keep` bytes of src to dst. */
static inline bool copy_prefix(const char *src, const char *dst, long keep) {
    FILE *in = fopen(src, "rb");
    if (!in) return false;
    FILE *out = fopen(dst, "wb");
    if (!out) {
        fclose(in);
        return false;
    }
    long n = 0;
    int c;
    while (n < keep && (c = fgetc(in)) != EOF) {
        fputc(c, out);
        n++;
    }
    fclose(in);
    fclose(out);
    return n == keep;
}

static inline long file_size(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* Catches log lines into a buffer (the last 8 KiB) and counts them. */
typedef struct log_catcher {
    char text[8192];
    int lines;
    int warnings;
} log_catcher;

static inline void catch_log(void *user, ear_log_level level, const char *module,
                             const char *message) {
    log_catcher *c = user;
    size_t used = strlen(c->text);
    snprintf(c->text + used, sizeof c->text - used, "[%s] %s\n", module, message);
    c->lines++;
    if (level == EAR_LOG_WARN) c->warnings++;
}

static inline void start_catching(log_catcher *c) {
    memset(c, 0, sizeof *c);
    ear_log_set(catch_log, c, EAR_LOG_DEBUG);
}
static inline void stop_catching(void) {
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

#endif
