/* SPDX-License-Identifier: Zlib */
/*
 * A private speech-dispatcher for the tests: the real daemon (Debian's
 * speech-dispatcher 0.11), started by the test in a folder of its own with its own
 * configuration, socket, runtime folder and HOME, and no sound card:
 *
 *   speech-dispatcher -s -C <dir>/conf -S <dir>/speechd.sock -c unix_socket -t 30
 *
 * Its only output module is `sd_generic`, set up to run <dir>/synth.sh for each
 * message, which appends "say|<text>|<voice>|<rate>|<punctuation>|<volume>" to
 * <dir>/said.log and, when it is done, "done|<text>". A message whose text contains
 * "hold" is not done until the test creates <dir>/release (at most 5 s), so a test can
 * keep the daemon busy for as long as it needs and see what a cancel cuts (a cut message
 * has no "done" line: the module kills the script's process group). Audio output is
 * libao with `default_driver=null` in <dir>/home/.libao (the generic module never plays
 * anything, but the daemon opens its audio output).
 *
 * The daemon never outlives the test: it is forked with PR_SET_PDEATHSIG = SIGKILL (a
 * crash or a CTest timeout kills it too), in its own process group that
 * speechd_stop kills, an atexit handler stops every daemon still running, and the
 * daemon's own -t 30 ends it when no client has been connected for 30 s.
 */
#ifndef EARSHOT_TEST_SPEECHD_FIXTURE_H
#define EARSHOT_TEST_SPEECHD_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct speechd_fixture {
    char dir[64];
    char socket[100];
    char log[128];
    char release[128];
    pid_t pid; /* also its process group; 0 when not running */
} speechd_fixture;

static speechd_fixture *speechd_running_[8];

static void speechd_sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static bool speechd_write_file(const char *path, const char *text, mode_t mode) {
    FILE *f = fopen(path, "w");
    if (!f) return false;
    bool ok = fputs(text, f) >= 0;
    ok = fclose(f) == 0 && ok;
    return ok && chmod(path, mode) == 0;
}

/* Kills the daemon's process group and reaps it. Its output module runs in a group of
 * its own and the synthesis script in another; the module exits when it sees the
 * daemon's pipe close, once the script ends, so a held script is released at once.
 * Safe to call twice. */
static void speechd_stop(speechd_fixture *f) {
    if (f->pid <= 0) return;
    kill(-f->pid, SIGKILL);
    waitpid(f->pid, NULL, 0);
    f->pid = 0;
    speechd_write_file(f->release, "", 0600);
    for (int i = 0; i < 8; i++)
        if (speechd_running_[i] == f) speechd_running_[i] = NULL;
}

static void speechd_stop_all_(void) {
    for (int i = 0; i < 8; i++)
        if (speechd_running_[i]) speechd_stop(speechd_running_[i]);
}

/* Removes the folder (after speechd_stop). */
static void speechd_remove(speechd_fixture *f) {
    if (!f->dir[0]) return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' 2>/dev/null", f->dir);
    /* A module still on its way out may write its log meanwhile: try again. */
    struct stat st;
    for (int i = 0; i < 20 && stat(f->dir, &st) == 0; i++) {
        if (system(cmd) != 0) speechd_sleep_ms(50);
    }
    if (stat(f->dir, &st) == 0) fprintf(stderr, "could not remove %s\n", f->dir);
}

/* Writes the configuration once (into a new folder when f->dir is empty). The player's
 * defaults: rate player_rate, volume player_volume, punctuation "none", voice
 * "earshot-alpha". */
static bool speechd_configure(speechd_fixture *f, int player_rate, int player_volume) {
    if (!f->dir[0]) {
        snprintf(f->dir, sizeof f->dir, "/tmp/earshot-speechd-XXXXXX");
        if (!mkdtemp(f->dir)) return false;
    }
    char path[256], text[2048];
    const char *subdirs[] = {"conf", "conf/modules", "home", "run", "log"};
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", f->dir, subdirs[i]);
        if (mkdir(path, 0700) != 0 && errno != EEXIST) return false;
    }
    snprintf(f->socket, sizeof f->socket, "%s/speechd.sock", f->dir);
    snprintf(f->log, sizeof f->log, "%s/said.log", f->dir);
    snprintf(f->release, sizeof f->release, "%s/release", f->dir);
    snprintf(path, sizeof path, "%s/home/.libao", f->dir);
    if (!speechd_write_file(path, "default_driver=null\n", 0600)) return false;
    snprintf(path, sizeof path, "%s/synth.sh", f->dir);
    snprintf(text, sizeof text,
             "#!/bin/sh\n"
             "# $1 text, $2 voice, $3 rate, $4 punctuation, $5 volume\n"
             "printf 'say|%%s|%%s|%%s|%%s|%%s\\n' \"$1\" \"$2\" \"$3\" \"$4\" \"$5\" >> '%s'\n"
             "case \"$1\" in *hold*)\n"
             "  i=0\n"
             "  while [ ! -e '%s' ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done\n"
             "  rm -f '%s' ;;\n"
             "esac\n"
             "printf 'done|%%s\\n' \"$1\" >> '%s'\n"
             "exit 0\n",
             f->log, f->release, f->release, f->log);
    if (!speechd_write_file(path, text, 0700)) return false;
    snprintf(path, sizeof path, "%s/conf/speechd.conf", f->dir);
    snprintf(text, sizeof text,
             "LogLevel 3\n"
             "LogDir \"%s/log\"\n"
             "AudioOutputMethod \"libao\"\n"
             "AddModule \"earlog\" \"sd_generic\" \"earlog.conf\"\n"
             "DefaultModule earlog\n"
             "DefaultLanguage \"en\"\n"
             "DefaultVoiceType \"MALE1\"\n"
             "DefaultRate %d\n"
             "DefaultVolume %d\n"
             "DefaultPunctuationMode \"none\"\n"
             "SymbolsPreproc \"char\"\n"
             "SymbolsPreprocFile \"symbols.dic\"\n"
             "SymbolsPreprocFile \"orca.dic\"\n"
             "SymbolsPreprocFile \"orca-chars.dic\"\n",
             f->dir, player_rate, player_volume);
    if (!speechd_write_file(path, text, 0600)) return false;
    snprintf(path, sizeof path, "%s/conf/modules/earlog.conf", f->dir);
    /* $RATE = rate * 100 / 100 + 0 (the SSIP value); the delimiter \x01 never occurs,
     * so a message is never cut into sentences. */
    snprintf(text, sizeof text,
             "Debug 0\n"
             "GenericExecuteSynth \"/bin/sh %s/synth.sh '$DATA' '$VOICE' '$RATE' '$PUNCT' "
             "'$VOLUME'\"\n"
             "GenericDelimiters \"\x01\"\n"
             "GenericMaxChunkLength 4000\n"
             "GenericPunctNone \"none\"\n"
             "GenericPunctSome \"some\"\n"
             "GenericPunctMost \"most\"\n"
             "GenericPunctAll \"all\"\n"
             "GenericLanguage \"en\" \"en\" \"utf-8\"\n"
             "AddVoice \"en\" \"MALE1\" \"earshot-alpha\"\n"
             "AddVoice \"en\" \"FEMALE1\" \"earshot-beta\"\n"
             "DefaultVoice \"earshot-alpha\"\n"
             "GenericRateAdd 0\n"
             "GenericRateMultiply 100\n"
             "GenericRateForceInteger 1\n"
             "GenericVolumeAdd 0\n"
             "GenericVolumeMultiply 100\n"
             "GenericVolumeForceInteger 1\n",
             f->dir);
    return speechd_write_file(path, text, 0600);
}

/* Starts the daemon (speechd_configure first) with an empty log and waits until its
 * socket accepts a connection (at most 10 s). */
static bool speechd_start(speechd_fixture *f) {
    static bool registered = false;
    if (!registered) {
        atexit(speechd_stop_all_);
        registered = true;
    }
    unlink(f->log);
    unlink(f->release);
    unlink(f->socket);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1);
        setpgid(0, 0);
        char path[256];
        snprintf(path, sizeof path, "%s/daemon.out", f->dir);
        int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        int null_fd = open("/dev/null", O_RDONLY);
        if (null_fd >= 0) dup2(null_fd, 0);
        snprintf(path, sizeof path, "%s/home", f->dir);
        setenv("HOME", path, 1);
        snprintf(path, sizeof path, "%s/run", f->dir);
        setenv("XDG_RUNTIME_DIR", path, 1);
        setenv("TMPDIR", f->dir, 1);
        char conf[128];
        snprintf(conf, sizeof conf, "%s/conf", f->dir);
        execlp("speech-dispatcher", "speech-dispatcher", "-s", "-C", conf, "-S", f->socket,
               "-c", "unix_socket", "-t", "30", (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* either side may win the race; both set the same group */
    f->pid = pid;
    for (int i = 0; i < 8; i++) {
        if (!speechd_running_[i]) {
            speechd_running_[i] = f;
            break;
        }
    }
    for (int i = 0; i < 1000; i++) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            f->pid = 0;
            return false; /* it exited: see <dir>/daemon.out */
        }
        int s = socket(AF_UNIX, SOCK_STREAM, 0);
        struct sockaddr_un addr = {.sun_family = AF_UNIX};
        snprintf(addr.sun_path, sizeof addr.sun_path, "%s", f->socket);
        bool up = s >= 0 && connect(s, (struct sockaddr *)&addr, sizeof addr) == 0;
        if (s >= 0) close(s);
        if (up) return true;
        speechd_sleep_ms(10);
    }
    speechd_stop(f);
    return false;
}

/* Lets the message that holds the module finish. */
static void speechd_release(speechd_fixture *f) {
    speechd_write_file(f->release, "", 0600);
}

/* Reads the log: up to max lines (without newlines) into lines; returns the count. */
static int speechd_lines(speechd_fixture *f, char lines[][160], int max) {
    FILE *file = fopen(f->log, "r");
    if (!file) return 0;
    int n = 0;
    while (n < max && fgets(lines[n], 160, file)) {
        lines[n][strcspn(lines[n], "\n")] = '\0';
        n++;
    }
    fclose(file);
    return n;
}

/* The index of the first line equal to want (or starting with it, when prefix), or
 * -1. */
static int speechd_find(speechd_fixture *f, const char *want, bool prefix) {
    static char lines[256][160];
    int n = speechd_lines(f, lines, 256);
    for (int i = 0; i < n; i++) {
        if (prefix ? strncmp(lines[i], want, strlen(want)) == 0 : strcmp(lines[i], want) == 0)
            return i;
    }
    return -1;
}

/* Waits (at most 10 s) for such a line; its index or -1. */
static int speechd_wait(speechd_fixture *f, const char *want, bool prefix) {
    for (int i = 0; i < 1000; i++) {
        int at = speechd_find(f, want, prefix);
        if (at >= 0) return at;
        speechd_sleep_ms(10);
    }
    return -1;
}

#endif
