/* SPDX-License-Identifier: Zlib */
/*
 * A crash in the middle of writing the save, for tests/game/game.sh: preloaded into the
 * game (LD_PRELOAD), this write() passes everything through until the process writes to a
 * file whose name contains EARSHOT_KILL_WRITE_MATCH (the save's temporary file). Then it
 * writes half of those bytes, notes "<asked> <written>" in EARSHOT_KILL_WRITE_NOTE and
 * kills the process with SIGKILL: no handler, no atexit, no chance to tidy up, as when
 * the power goes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t count) {
    static ssize_t (*real_write)(int, const void *, size_t);
    if (!real_write)
        real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    const char *match = getenv("EARSHOT_KILL_WRITE_MATCH");
    if (match && *match && count > 1) {
        char link[64], target[PATH_MAX];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            if (strstr(target, match)) {
                ssize_t done = real_write(fd, buf, count / 2);
                const char *note = getenv("EARSHOT_KILL_WRITE_NOTE");
                if (note) {
                    int nfd = open(note, O_WRONLY | O_CREAT | O_TRUNC, 0600);
                    if (nfd >= 0) {
                        char line[64];
                        int len = snprintf(line, sizeof line, "%zu %zd\n", count, done);
                        if (len > 0) real_write(nfd, line, (size_t)len);
                        close(nfd);
                    }
                }
                raise(SIGKILL);
            }
        }
    }
    return real_write(fd, buf, count);
}
