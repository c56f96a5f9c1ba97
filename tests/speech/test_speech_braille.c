/* SPDX-License-Identifier: Zlib */
/*
 * Braille through BrlAPI, against a private brltty (Debian's brltty 6.5) that the test
 * starts and stops itself:
 *
 *   brltty -n -e -q -Z -f /dev/null -F /dev/null -x no -s no -b vr \
 *          -d server:<dir>/vr.sock -A host=:<n>,auth=none -W <dir> -U <dir> -P <dir>/pid
 *
 * `vr` is brltty's Virtual driver: it waits on a Unix socket for a "display"
 * program and tells it, in a line protocol, what the cells show ("Visual \"text\"").
 * The test is that display (a 40-cell one); BrlAPI listens on /var/lib/BrlAPI/<n>
 * (world-writable, sticky), so no hardware and no privileges are needed. The daemon is
 * forked with PR_SET_PDEATHSIG = SIGKILL and killed by an atexit handler.
 */
#define _GNU_SOURCE
#include "earshot/speech.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir_[64];
static pid_t brltty_pid_;
static char api_host_[32];

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void stop_brltty(void) {
    if (brltty_pid_ > 0) {
        /* SIGTERM first: brltty removes its BrlAPI socket on the way out. */
        kill(brltty_pid_, SIGTERM);
        bool gone = false;
        for (int i = 0; i < 200 && !gone; i++) {
            gone = waitpid(brltty_pid_, NULL, WNOHANG) == brltty_pid_;
            if (!gone) sleep_ms(10);
        }
        kill(-brltty_pid_, SIGKILL);
        if (!gone) waitpid(brltty_pid_, NULL, 0);
        brltty_pid_ = 0;
        char path[64];
        snprintf(path, sizeof path, "/var/lib/BrlAPI/%s", api_host_ + 1);
        unlink(path);
        snprintf(path, sizeof path, "/var/lib/BrlAPI/.%s", api_host_ + 1);
        unlink(path);
    }
    if (dir_[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir_);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir_);
        dir_[0] = '\0';
    }
}

static bool start_brltty(char *vr_socket, size_t size) {
    snprintf(dir_, sizeof dir_, "/tmp/earshot-brltty-XXXXXX");
    if (!mkdtemp(dir_)) return false;
    atexit(stop_brltty);
    snprintf(vr_socket, size, "%s/vr.sock", dir_);
    snprintf(api_host_, sizeof api_host_, ":%d", 30000 + (int)(getpid() % 20000));
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1);
        setpgid(0, 0);
        char path[160], device[160], api[64], pidfile[160];
        snprintf(path, sizeof path, "%s/brltty.out", dir_);
        int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        snprintf(device, sizeof device, "server:%s", vr_socket);
        snprintf(api, sizeof api, "host=%s,auth=none", api_host_);
        snprintf(pidfile, sizeof pidfile, "%s/pid", dir_);
        execlp("brltty", "brltty", "-n", "-e", "-q", "-Z", "-f", "/dev/null", "-F", "/dev/null",
               "-x", "no", "-s", "no", "-b", "vr", "-d", device, "-A", api, "-W", dir_, "-U",
               dir_, "-P", pidfile, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    brltty_pid_ = pid;
    return true;
}

/* Connects as the Virtual driver's display (at most 10 s) and announces 40 cells. A path
 * that does not fit a socket address is refused (cut, it would name another socket). */
static int connect_display(const char *vr_socket) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t len = strlen(vr_socket);
    if (len >= sizeof addr.sun_path) {
        fprintf(stderr, "%s: longer than a socket address (%zu bytes)\n", vr_socket,
                sizeof addr.sun_path - 1);
        return -1;
    }
    memcpy(addr.sun_path, vr_socket, len + 1);
    for (int i = 0; i < 1000; i++) {
        int s = socket(AF_UNIX, SOCK_STREAM, 0);
        if (s >= 0 && connect(s, (struct sockaddr *)&addr, sizeof addr) == 0) {
            if (write(s, "cells 40\n", 9) == 9) return s;
        }
        if (s >= 0) close(s);
        sleep_ms(10);
    }
    return -1;
}

/* Reads the display's lines until one is `Visual "<want, padded to 40>"` (at most
 * 10 s). */
static bool display_shows(int fd, const char *want) {
    char expect[64];
    snprintf(expect, sizeof expect, "Visual \"%-40s\"", want);
    static char buf[65536];
    static size_t used = 0;
    for (int i = 0; i < 1000; i++) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 10) > 0) {
            ssize_t got = read(fd, buf + used, sizeof buf - 1 - used);
            if (got <= 0) return false;
            used += (size_t)got;
            buf[used] = '\0';
        }
        char *line = buf, *eol;
        while ((eol = strchr(line, '\n')) != NULL) {
            *eol = '\0';
            if (eol > line && eol[-1] == '\r') eol[-1] = '\0';
            bool hit = strcmp(line, expect) == 0;
            line = eol + 1;
            if (hit) {
                used = strlen(line);
                memmove(buf, line, used + 1);
                return true;
            }
        }
        used = strlen(line);
        memmove(buf, line, used + 1);
    }
    return false;
}

static void ignore_line(void *user, const char *text) {
    (void)user;
    (void)text;
}

TEST(each_message_is_shown_on_the_braille_display) {
    char vr_socket[128];
    ASSERT_TRUE(start_brltty(vr_socket, sizeof vr_socket));
    int display = connect_display(vr_socket);
    ASSERT_GE(display, 0);

    ear_speech_config cfg = ear_speech_config_default();
    cfg.skip_dispatcher = true; /* the console speaks; braille goes with any output */
    cfg.line_fn = ignore_line;
    cfg.braille_host = api_host_;
    ear_speech *sp = NULL;
    /* brltty takes a moment to open its API socket: the next start finds it. */
    bool connected = false;
    for (int i = 0; i < 100 && !connected; i++) {
        ASSERT_OK(ear_speech_create(&cfg, &sp));
        connected = ear_speech_braille_connected(sp);
        if (!connected) {
            ear_speech_destroy(sp);
            sp = NULL;
            sleep_ms(50);
        }
    }
    ASSERT_TRUE(connected);
    ASSERT_OK(ear_speech_speak(sp, "hello braille"));
    ASSERT_TRUE(display_shows(display, "hello braille"));
    /* A message longer than the display: its first 40 characters. */
    ASSERT_OK(
        ear_speech_speak_queued(sp, "The door to the north is open, and a draft comes in."));
    ASSERT_TRUE(display_shows(display, "The door to the north is open, and a dra"));
    /* The display's panning keys move through it, and back. */
    ASSERT_EQ(write(display, "FWINRT\n", 7), 7);
    ASSERT_TRUE(display_shows(display, "ft comes in."));
    ASSERT_EQ(write(display, "FWINLT\n", 7), 7);
    ASSERT_TRUE(display_shows(display, "The door to the north is open, and a dra"));
    /* A typed character. */
    ASSERT_OK(ear_speech_say_char(sp, "x"));
    ASSERT_TRUE(display_shows(display, "x"));
    ear_speech_destroy(sp);
    close(display);

    /* Without brltty: not connected, and speech goes on. */
    stop_brltty();
    ASSERT_OK(ear_speech_create(&cfg, &sp));
    ASSERT_FALSE(ear_speech_braille_connected(sp));
    ASSERT_OK(ear_speech_speak(sp, "still spoken"));
    for (int i = 0; i < 500 && ear_speech_delivered(sp) < 1; i++) sleep_ms(10);
    ASSERT_U64_EQ(ear_speech_delivered(sp), 1);
    ear_speech_destroy(sp);
}

TEST_MAIN(TEST_ENTRY(each_message_is_shown_on_the_braille_display))
