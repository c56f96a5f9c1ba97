/* SPDX-License-Identifier: Zlib */
/*
 * bench_cli: the earshot tool's two speed targets, measured on the real binary.
 *
 *   1. Commands per second through `earshot serve` for audio.voice.set (target >= 200,000/s
 *      on one core): one audio.play, then N audio.voice.set lines (position, velocity and
 *      volume, as a game sends each frame) written from a file to the server's stdin; the
 *      time is from the spawn to the last reply read, and every reply must say "ok":true.
 *   2. `earshot call audio.status` from process start to result (target <= 10 ms): R spawns
 *      one after another, each waited for; the median and the best are reported.
 *
 * Usage: bench_cli <path to earshot> [N commands, default 1000000] [R spawns, default 100]
 */
#define _GNU_SOURCE /* memmem */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int serve_bench(const char *earshot, long n) {
    char path[] = "/tmp/bench_cli_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    FILE *f = fdopen(fd, "w");
    fprintf(f, "{\"command\": \"audio.play\", \"params\": {\"sound\": \"synth:sine:440:1\", "
               "\"looping\": true, \"position\": [0, 0, -5]}}\n");
    for (long i = 0; i < n; i++)
        fprintf(f,
                "{\"command\": \"audio.voice.set\", \"params\": {\"voice\": 65537, "
                "\"position\": [%ld.5, 0, -5], \"velocity\": [3, 0, 0], \"volume\": 0.8}}\n",
                i % 100);
    fclose(f);
    int in = open(path, O_RDONLY);
    int out[2];
    if (in < 0 || pipe(out) != 0) return 1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    char *argv[] = {(char *)earshot, "serve", NULL};
    pid_t pid;
    double t0 = now_s();
    if (posix_spawn(&pid, earshot, &fa, NULL, argv, environ) != 0) return 1;
    close(out[1]);
    close(in);
    /* Count replies and their "ok":true as they stream by; the last 8 bytes of each read
     * are carried into the next, so a match split across two reads is still counted. */
    static char buf[8 + (1 << 16)];
    size_t carry = 0;
    long lines = 0, oks = 0;
    ssize_t got;
    while ((got = read(out[0], buf + carry, sizeof buf - carry)) > 0) {
        size_t len = carry + (size_t)got;
        for (size_t i = carry; i < len; i++)
            if (buf[i] == '\n') lines++;
        for (char *p = buf; (p = memmem(p, (size_t)(buf + len - p), "\"ok\":true", 9)); p += 9)
            oks++;
        carry = len < 8 ? len : 8;
        memmove(buf, buf + len - carry, carry);
    }
    int status;
    waitpid(pid, &status, 0);
    double dt = now_s() - t0;
    close(out[0]);
    unlink(path);
    posix_spawn_file_actions_destroy(&fa);
    printf("serve: %ld audio.voice.set lines (+1 play) in %.3f s: %.0f commands/s "
           "(target >= 200000); %ld replies, %ld ok\n",
           n, dt, (double)(n + 1) / dt, lines, oks);
    return lines == n + 1 && oks == n + 1 ? 0 : 1;
}

static int call_bench(const char *earshot, int runs) {
    double *t = malloc((size_t)runs * sizeof *t);
    if (!t) return 1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)earshot, "call", "audio.status", NULL};
    for (int i = 0; i < runs; i++) {
        pid_t pid;
        int status;
        double t0 = now_s();
        if (posix_spawn(&pid, earshot, &fa, NULL, argv, environ) != 0) return 1;
        waitpid(pid, &status, 0);
        t[i] = now_s() - t0;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    double sum = 0;
    for (int i = 0; i < runs; i++) sum += t[i];
    printf("call: earshot call audio.status, %d runs: median %.2f ms, best %.2f ms, mean %.2f "
           "ms (target <= 10 ms)\n",
           runs, t[runs / 2] * 1e3, t[0] * 1e3, sum / runs * 1e3);
    free(t);
    posix_spawn_file_actions_destroy(&fa);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_cli <earshot> [commands] [spawns]\n");
        return 2;
    }
    long n = argc > 2 ? atol(argv[2]) : 1000000;
    int runs = argc > 3 ? atoi(argv[3]) : 100;
    if (n < 1 || runs < 1) return 2;
    int r = serve_bench(argv[1], n);
    r |= call_bench(argv[1], runs);
    return r;
}
