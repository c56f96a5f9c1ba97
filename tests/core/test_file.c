/* SPDX-License-Identifier: Zlib */
/*
 * Tests of core's file helpers (src/core/file.c): every read is a regular file of bounded
 * size, checked on the open descriptor, and refused at once otherwise (a sparse 20 GB
 * file, a link to /dev/zero, a FIFO, a folder); every write goes to a temporary file and a
 * rename, follows no link, keeps foreign files and never replaces a folder, FIFO or device,
 * and a failing write (a full device, a file-size limit) leaves the previous file as it was.
 * Each test runs under alarm(10): a helper that waits on a FIFO fails instead of hanging.
 */
#define _DEFAULT_SOURCE
#include "earshot/core.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#ifndef _WIN32
#include <sys/resource.h> /* tests/win_test_shims.h stands in on Windows */
#endif
#include <sys/stat.h>
#include <sys/time.h>
#ifndef _WIN32
#include <sys/wait.h>
#endif
#include <unistd.h>

typedef struct sandbox {
    char dir[256];
} sandbox;

static bool sandbox_open(sandbox *sb) {
    snprintf(sb->dir, sizeof sb->dir, "/tmp/ear_file_XXXXXX");
    return mkdtemp(sb->dir) != NULL;
}

static void sandbox_close(sandbox *sb) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", sb->dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", sb->dir);
}

static void at(const sandbox *sb, const char *name, char *out, size_t size) {
    snprintf(out, size, "%s/%s", sb->dir, name);
}

static bool put(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(text, 1, strlen(text), f) == strlen(text);
    return fclose(f) == 0 && ok;
}

/* The file's text (at most 255 bytes), "" when it cannot be read. */
static const char *get(const char *path) {
    static char text[256];
    text[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) return text;
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* How many names in the folder start with prefix. */
static int count_prefixed(const sandbox *sb, const char *prefix) {
    DIR *d = opendir(sb->dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) n++;
    closedir(d);
    return n;
}

static double now_s(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

#define HAS(text, part)     ASSERT_TRUE(strstr((text), (part)) != NULL)
#define HAS_NOT(text, part) ASSERT_TRUE(strstr((text), (part)) == NULL)

TEST(a_file_is_read_whole_with_a_nul_after_it) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    char p[300];
    at(&sb, "a.json", p, sizeof p);
    ASSERT_TRUE(put(p, "{\"clips\": {}}"));
    char *data = NULL, error[512];
    size_t size = 0;
    ASSERT_EQ(ear_file_read(p, 1024, NULL, &data, &size, error, sizeof error), EAR_OK);
    ASSERT_EQ(size, 13);
    ASSERT_STR_EQ(data, "{\"clips\": {}}");
    free(data);
    /* Exactly at the limit is allowed, a byte over is not. */
    ASSERT_EQ(ear_file_read(p, 13, NULL, &data, &size, error, sizeof error), EAR_OK);
    free(data);
    data = NULL;
    ASSERT_EQ(ear_file_read(p, 12, NULL, &data, &size, error, sizeof error), EAR_E_FORMAT);
    ASSERT_TRUE(data == NULL);
    HAS(error, "is 13 bytes, over the 12-byte limit");
    at(&sb, "missing.json", p, sizeof p);
    ASSERT_EQ(ear_file_read(p, 1024, NULL, &data, &size, error, sizeof error), EAR_E_NOT_FOUND);
    HAS(error, "no such file");
    sandbox_close(&sb);
}

/* The repro: a 12 KB folder whose audio.json is a sparse 20 GB file reached
 * 3-6 GB. Now it is refused from its size at open, in well under a second. */
TEST(a_sparse_twenty_gigabyte_file_is_refused_at_once_naming_the_limit) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    char p[300];
    at(&sb, "audio.json", p, sizeof p);
    int fd = open(p, O_WRONLY | O_CREAT, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, (off_t)20 << 30), 0);
    close(fd);
    char *data = NULL, error[512];
    size_t size = 0;
    double t0 = now_s();
    ear_result r =
        ear_file_read(p, EAR_FILE_MAX_DOCUMENT_BYTES, NULL, &data, &size, error, sizeof error);
    double took = now_s() - t0;
    ASSERT_EQ(r, EAR_E_FORMAT);
    ASSERT_DBL_LT(took, 1.0);
    HAS(error, "is 21474836480 bytes, over the 16 MiB limit");
    HAS(error, p);
    sandbox_close(&sb);
}

TEST(devices_fifos_and_folders_are_refused_at_once_by_what_they_are) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    char p[300], error[512];
    char *data = NULL;
    size_t size = 0;
    /* A link to /dev/zero is a character device, not "empty". */
    at(&sb, "zero.json", p, sizeof p);
    ASSERT_EQ(symlink("/dev/zero", p), 0);
    ASSERT_EQ(
        ear_file_read(p, EAR_FILE_MAX_DOCUMENT_BYTES, NULL, &data, &size, error, sizeof error),
        EAR_E_IO);
    HAS(error, "is a character device, not a file");
    HAS_NOT(error, "empty");
    /* A FIFO with no writer: opened without waiting, refused. */
    at(&sb, "fifo.json", p, sizeof p);
    ASSERT_EQ(mkfifo(p, 0600), 0);
    double t0 = now_s();
    int fd = -1;
    ASSERT_EQ(ear_file_open_read(p, 1024, &fd, NULL, error, sizeof error), EAR_E_IO);
    ASSERT_DBL_LT(now_s() - t0, 1.0);
    ASSERT_EQ(fd, -1);
    HAS(error, "is a FIFO, not a file");
    at(&sb, "folder", p, sizeof p);
    ASSERT_EQ(mkdir(p, 0700), 0);
    ASSERT_EQ(ear_file_read(p, 1024, NULL, &data, &size, error, sizeof error), EAR_E_IO);
    HAS(error, "is a folder, not a file");
    ASSERT_TRUE(data == NULL);
    sandbox_close(&sb);
}

TEST(open_read_gives_a_checked_blocking_descriptor) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    char p[300], error[512];
    at(&sb, "x.sofa", p, sizeof p);
    ASSERT_TRUE(put(p, "0123456789"));
    int fd = -1;
    uint64_t size = 0;
    ASSERT_EQ(ear_file_open_read(p, 64, &fd, &size, error, sizeof error), EAR_OK);
    ASSERT_GE(fd, 0);
    ASSERT_U64_EQ(size, 10);
    ASSERT_EQ(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    ASSERT_NE(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
    close(fd);
    sandbox_close(&sb);
}

static bool starts_with_ours(int fd, void *user) {
    (void)user;
    char head[4] = {0};
    return read(fd, head, 4) == 4 && memcmp(head, "OURS", 4) == 0;
}

TEST(a_write_replaces_nothing_or_its_own_and_keeps_the_rest) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    char p[300], q[300], error[512];
    ear_file_write_config c = ear_file_write_config_default();
    c.ours = starts_with_ours;
    c.overwrite_hint = " (use --overwrite)";
    at(&sb, "plot.svg", p, sizeof p);
    ASSERT_EQ(ear_file_write(p, "OURS 1", 6, &c, error, sizeof error), EAR_OK);
    ASSERT_STR_EQ(get(p), "OURS 1");
    struct stat st;
    ASSERT_EQ(stat(p, &st), 0);
    ASSERT_EQ(st.st_mode & 0777, 0644);
    ASSERT_EQ(ear_file_write(p, "OURS 2", 6, &c, error, sizeof error), EAR_OK);
    ASSERT_STR_EQ(get(p), "OURS 2");
    /* A foreign file is kept, the message says how to replace it. */
    ASSERT_TRUE(put(p, "main.c"));
    ASSERT_EQ(ear_file_write(p, "OURS 3", 6, &c, error, sizeof error), EAR_E_STATE);
    ASSERT_STR_EQ(get(p), "main.c");
    HAS(error, "exists and is not a file Earshot wrote; it is kept (use --overwrite)");
    c.overwrite = true;
    ASSERT_EQ(ear_file_write(p, "OURS 3", 6, &c, error, sizeof error), EAR_OK);
    ASSERT_STR_EQ(get(p), "OURS 3");
    /* A planted link is not followed: refused, and with overwrite the link itself is
     * replaced while its target keeps its bytes. */
    c.overwrite = false;
    at(&sb, "precious", q, sizeof q);
    ASSERT_TRUE(put(q, "OURS but precious"));
    at(&sb, "link.svg", p, sizeof p);
    ASSERT_EQ(symlink(q, p), 0);
    ASSERT_EQ(ear_file_write(p, "OURS 4", 6, &c, error, sizeof error), EAR_E_STATE);
    HAS(error, "is a symbolic link, which is not followed");
    c.overwrite = true;
    ASSERT_EQ(ear_file_write(p, "OURS 4", 6, &c, error, sizeof error), EAR_OK);
    ASSERT_STR_EQ(get(q), "OURS but precious");
    ASSERT_EQ(lstat(p, &st), 0);
    ASSERT_TRUE(S_ISREG(st.st_mode));
    ASSERT_STR_EQ(get(p), "OURS 4");
    ASSERT_EQ(count_prefixed(&sb, "plot.svg.tmp-"), 0);
    /* No folder: named. */
    at(&sb, "none/plot.svg", p, sizeof p);
    ASSERT_EQ(ear_file_write(p, "x", 1, &c, error, sizeof error), EAR_E_IO);
    HAS(error, "no such folder");
    sandbox_close(&sb);
}

TEST(folders_fifos_and_devices_are_never_replaced_and_never_told_to_overwrite) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    char p[300], error[512];
    ear_file_write_config c = ear_file_write_config_default();
    c.overwrite = true; /* even so */
    c.overwrite_hint = " (use --overwrite)";
    at(&sb, "fifo", p, sizeof p);
    ASSERT_EQ(mkfifo(p, 0600), 0);
    ASSERT_EQ(ear_file_write(p, "x", 1, &c, error, sizeof error), EAR_E_STATE);
    HAS(error, "is a FIFO; it is never replaced");
    HAS_NOT(error, "overwrite");
    struct stat st;
    ASSERT_EQ(lstat(p, &st), 0);
    ASSERT_TRUE(S_ISFIFO(st.st_mode));
    at(&sb, "folder", p, sizeof p);
    ASSERT_EQ(mkdir(p, 0700), 0);
    ASSERT_EQ(ear_file_write(p, "x", 1, &c, error, sizeof error), EAR_E_STATE);
    HAS(error, "is a folder; it is never replaced");
    ASSERT_EQ(ear_file_write("/dev/null", "x", 1, &c, error, sizeof error), EAR_E_STATE);
    HAS(error, "/dev/null: is a character device; it is never replaced");
    HAS_NOT(error, "overwrite");
    /* A log may be sent into a device; a FIFO with no reader is refused without waiting. */
    c.stream_devices = true;
    ASSERT_EQ(ear_file_write("/dev/null", "x", 1, &c, error, sizeof error), EAR_OK);
    at(&sb, "fifo", p, sizeof p);
    ASSERT_EQ(ear_file_write(p, "x", 1, &c, error, sizeof error), EAR_E_STATE);
    HAS(error, "is a FIFO with no reader");
    sandbox_close(&sb);
}

/* A log sent to /dev/full: the failure is an error at the write, or at the latest at the
 * commit's flush, never a silent success. */
TEST(a_write_into_a_full_device_is_an_error) {
    char error[512];
    ear_file_write_config c = ear_file_write_config_default();
    c.stream_devices = true;
    ASSERT_EQ(ear_file_write("/dev/full", "line\n", 5, &c, error, sizeof error), EAR_E_IO);
    HAS(error, "/dev/full: cannot be written (No space left on device)");
    ear_file_writer w;
    ASSERT_EQ(ear_file_write_begin("/dev/full", &c, &w, error, sizeof error), EAR_OK);
    FILE *f = ear_file_writer_stream(&w);
    ASSERT_TRUE(f != NULL);
    fprintf(f, "a short line that stays in the stream's buffer\n");
    ASSERT_EQ(ear_file_write_commit(&w, error, sizeof error), EAR_E_IO);
    HAS(error, "No space left on device");
    ASSERT_EQ(w.fd, -1);
}

/* A plot on a full disk must not truncate the previous one: the child writes under a
 * file-size limit of 100 bytes (the kernel's EFBIG, as a full disk gives ENOSPC). */
TEST(a_write_that_fails_midway_keeps_the_previous_file_and_no_temporary) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    char p[300];
    at(&sb, "plot.svg", p, sizeof p);
    ASSERT_TRUE(put(p, "<svg>previous</svg>"));
    fflush(NULL);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {100, 100};
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0) _exit(3);
        char big[4096], error[512];
        memset(big, 'x', sizeof big);
        ear_file_write_config c = ear_file_write_config_default();
        c.overwrite = true;
        ear_result r = ear_file_write(p, big, sizeof big, &c, error, sizeof error);
        if (r != EAR_E_IO) _exit(4);
        if (!strstr(error, "the previous file is kept")) _exit(5);
        /* Through a stream, the error surfaces at the commit. */
        ear_file_writer w;
        if (ear_file_write_begin(p, &c, &w, error, sizeof error) != EAR_OK) _exit(6);
        FILE *f = ear_file_writer_stream(&w);
        for (int i = 0; i < 100; i++) fprintf(f, "<rect width=\"%d\"/>\n", i);
        if (ear_file_write_commit(&w, error, sizeof error) != EAR_E_IO) _exit(7);
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    ASSERT_STR_EQ(get(p), "<svg>previous</svg>");
    ASSERT_EQ(count_prefixed(&sb, "plot.svg.tmp-"), 0);
    sandbox_close(&sb);
}

TEST(a_file_put_at_the_path_during_a_write_is_kept) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    char p[300], error[512];
    at(&sb, "out.wav", p, sizeof p);
    ear_file_writer w;
    ASSERT_EQ(ear_file_write_begin(p, NULL, &w, error, sizeof error), EAR_OK);
    ASSERT_TRUE(ear_file_write_all(w.fd, "new", 3));
    ASSERT_TRUE(put(p, "planted"));
    ASSERT_EQ(ear_file_write_commit(&w, error, sizeof error), EAR_E_STATE);
    HAS(error, "was changed by someone else while it was written; it is kept");
    ASSERT_STR_EQ(get(p), "planted");
    ASSERT_EQ(count_prefixed(&sb, "out.wav.tmp-"), 0);
    /* Abort leaves nothing. */
    ASSERT_EQ(ear_file_write_begin(p, &(ear_file_write_config){.overwrite = true}, &w, error,
                                   sizeof error),
              EAR_OK);
    ear_file_write_abort(&w);
    ASSERT_STR_EQ(get(p), "planted");
    ASSERT_EQ(count_prefixed(&sb, "out.wav.tmp-"), 0);
    sandbox_close(&sb);
}

/* A test that waits on a FIFO is killed by SIGALRM rather than hanging the suite. */
__attribute__((constructor)) static void arm_alarm(void) {
    alarm(10);
}

TEST_MAIN(TEST_ENTRY(a_file_is_read_whole_with_a_nul_after_it),
          TEST_ENTRY(a_sparse_twenty_gigabyte_file_is_refused_at_once_naming_the_limit),
          TEST_ENTRY(devices_fifos_and_folders_are_refused_at_once_by_what_they_are),
          TEST_ENTRY(open_read_gives_a_checked_blocking_descriptor),
          TEST_ENTRY(a_write_replaces_nothing_or_its_own_and_keeps_the_rest),
          TEST_ENTRY(folders_fifos_and_devices_are_never_replaced_and_never_told_to_overwrite),
          TEST_ENTRY(a_write_into_a_full_device_is_an_error),
          TEST_ENTRY(a_write_that_fails_midway_keeps_the_previous_file_and_no_temporary),
          TEST_ENTRY(a_file_put_at_the_path_during_a_write_is_kept))
