/* SPDX-License-Identifier: Zlib */
/*
 * Saves: typed round trips, escapes, order, the dirty flag, atomic writes across a
 * crash, encryption (format, fresh nonces, the documented key derivation) and what
 * happens to files that cannot be used (moved to .broken, never overwritten).
 */
#define _DEFAULT_SOURCE
#include "earshot/storage.h"

#include "storage_internal.h"
#include "test.h"

#include <sodium.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifndef _WIN32
#include <sys/wait.h> /* tests/win_test_shims.h stands in on Windows */
#endif
#include <time.h>
#include <unistd.h>

/* ---- Helpers -------------------------------------------------------------------- */

static const char SECRET[] = "correct horse battery staple";

static int error_logs;

static void count_errors(void *user, ear_log_level level, const char *module,
                         const char *message) {
    (void)user;
    (void)message;
    if (level == EAR_LOG_ERROR && strcmp(module, "storage") == 0) error_logs++;
}

static int warn_logs;
static char last_warning[1024];

static void count_warnings(void *user, ear_log_level level, const char *module,
                           const char *message) {
    (void)user;
    if (level == EAR_LOG_WARN && strcmp(module, "storage") == 0) {
        warn_logs++;
        snprintf(last_warning, sizeof last_warning, "%s", message);
    }
}

/* A fresh folder under /tmp and the save's path inside it. */
typedef struct sandbox {
    char dir[64];
    char path[128];
    char broken[160];
} sandbox;

static bool sandbox_open(sandbox *sb) {
    snprintf(sb->dir, sizeof sb->dir, "/tmp/earshot-storage-XXXXXX");
    if (!mkdtemp(sb->dir)) return false;
    snprintf(sb->path, sizeof sb->path, "%s/save.txt", sb->dir);
    snprintf(sb->broken, sizeof sb->broken, "%s.broken", sb->path);
    return true;
}

static void sandbox_close(sandbox *sb) {
    DIR *d = opendir(sb->dir);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", sb->dir, de->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(sb->dir);
}

static size_t count_files(const char *dir, const char *containing) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strstr(de->d_name, containing)) n++;
    closedir(d);
    return n;
}

/* Reads a whole file into buf; returns its size, or -1. */
static long read_bytes(const char *path, unsigned char *buf, size_t capacity) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t n = fread(buf, 1, capacity, f);
    fclose(f);
    return (long)n;
}

static bool write_bytes(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

static bool exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static ear_storage *open_store(const char *path, const char *secret) {
    ear_storage_config c = ear_storage_config_default();
    c.path = path;
    if (secret) {
        c.secret = secret;
        c.secret_size = strlen(secret);
    }
    ear_storage *s = NULL;
    if (ear_storage_create(&c, &s) != EAR_OK) return NULL;
    return s;
}

/* ---- Tests ---------------------------------------------------------------------- */

TEST(create_arguments) {
    ear_storage *s = NULL;
    ear_storage_config c = ear_storage_config_default();
    ASSERT_EQ(ear_storage_create(&c, NULL), EAR_E_INVALID_ARG);
    c.secret = SECRET;
    ASSERT_EQ(ear_storage_create(&c, &s), EAR_E_INVALID_ARG); /* secret without size */
    c.secret = NULL;
    c.secret_size = 4;
    ASSERT_EQ(ear_storage_create(&c, &s), EAR_E_INVALID_ARG); /* size without secret */
    ASSERT_NULL(s);
    ear_storage_destroy(NULL);
}

TEST(in_memory_store) {
    ear_storage *s = NULL;
    ASSERT_OK(ear_storage_create(NULL, &s));
    ASSERT_NULL(ear_storage_path(s));
    ASSERT_OK(ear_storage_set_int(s, "score", 12));
    ASSERT_TRUE(ear_storage_is_dirty(s));
    ASSERT_OK(ear_storage_save(s));
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_EQ(ear_storage_get_int(s, "score", 0), 12);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_STR_EQ(ear_storage_last_error(s), "");
    ear_storage_destroy(s);
}

TEST(missing_file_is_empty) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, SECRET);
    ASSERT_NOT_NULL(s);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_EQ(ear_storage_count(s), 0);
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_TRUE(ear_storage_can_save(s));
    ASSERT_STR_EQ(ear_storage_last_error(s), "");
    ASSERT_OK(ear_storage_save(s));
    ASSERT_FALSE(exists(sb.path)); /* nothing changed, nothing written */
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

static void round_trip_types_with(const char *secret) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, secret);
    ASSERT_NOT_NULL(s);
    ASSERT_OK(ear_storage_set_string(s, "name", "Ada Lovelace – Überprüfung ✓"));
    ASSERT_OK(ear_storage_set_int(s, "max", INT64_MAX));
    ASSERT_OK(ear_storage_set_int(s, "min", INT64_MIN));
    ASSERT_OK(ear_storage_set_int(s, "zero", 0));
    ASSERT_OK(ear_storage_set_double(s, "tenth", 0.1));
    ASSERT_OK(ear_storage_set_double(s, "third", 1.0 / 3.0));
    ASSERT_OK(ear_storage_set_double(s, "tiny", -4.9406564584124654e-324));
    ASSERT_OK(ear_storage_set_double(s, "huge", 1.7976931348623157e308));
    ASSERT_OK(ear_storage_set_double(s, "inf", INFINITY));
    ASSERT_OK(ear_storage_set_bool(s, "yes", true));
    ASSERT_OK(ear_storage_set_bool(s, "no", false));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);

    s = open_store(sb.path, secret);
    ASSERT_NOT_NULL(s);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_EQ(ear_storage_count(s), 11);
    ASSERT_STR_EQ(ear_storage_get_string(s, "name", NULL), "Ada Lovelace – Überprüfung ✓");
    ASSERT_U64_EQ(ear_storage_get_int(s, "max", 0), INT64_MAX);
    ASSERT_U64_EQ(ear_storage_get_int(s, "min", 0), INT64_MIN);
    ASSERT_EQ(ear_storage_get_int(s, "zero", 7), 0);
    ASSERT_FLOAT_EQ(ear_storage_get_double(s, "tenth", 0), 0.1);
    ASSERT_STR_EQ(ear_storage_get_string(s, "tenth", NULL), "0.1"); /* shortest form */
    ASSERT_FLOAT_EQ(ear_storage_get_double(s, "third", 0), 1.0 / 3.0);
    ASSERT_FLOAT_EQ(ear_storage_get_double(s, "tiny", 0), -4.9406564584124654e-324);
    ASSERT_FLOAT_EQ(ear_storage_get_double(s, "huge", 0), 1.7976931348623157e308);
    ASSERT_TRUE(isinf(ear_storage_get_double(s, "inf", 0)));
    ASSERT_TRUE(ear_storage_get_bool(s, "yes", false));
    ASSERT_FALSE(ear_storage_get_bool(s, "no", true));
    ASSERT_DBL_GE(ear_storage_get_double(s, "max", 0), 9.2e18); /* an int reads as double */
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

TEST(round_trip_all_types_plain) {
    round_trip_types_with(NULL);
}

TEST(round_trip_all_types_encrypted) {
    round_trip_types_with(SECRET);
}

TEST(defaults_for_missing_and_unparsable) {
    ear_storage *s = NULL;
    ASSERT_OK(ear_storage_create(NULL, &s));
    ASSERT_OK(ear_storage_set_string(s, "word", "abc"));
    ASSERT_OK(ear_storage_set_string(s, "frac", "1.5"));
    ASSERT_OK(ear_storage_set_string(s, "big", "99999999999999999999"));
    ASSERT_OK(ear_storage_set_string(s, "spaced", " 12"));
    ASSERT_OK(ear_storage_set_string(s, "trail", "12x"));
    ASSERT_OK(ear_storage_set_string(s, "empty", ""));
    ASSERT_OK(ear_storage_set_string(s, "one", "1"));
    ASSERT_EQ(ear_storage_get_int(s, "missing", -5), -5);
    ASSERT_EQ(ear_storage_get_int(s, "word", -5), -5);
    ASSERT_EQ(ear_storage_get_int(s, "frac", -5), -5);
    ASSERT_EQ(ear_storage_get_int(s, "big", -5), -5);
    ASSERT_EQ(ear_storage_get_int(s, "spaced", -5), -5);
    ASSERT_EQ(ear_storage_get_int(s, "trail", -5), -5);
    ASSERT_EQ(ear_storage_get_int(s, "empty", -5), -5);
    ASSERT_NEAR(ear_storage_get_double(s, "frac", 0), 1.5, 0);
    ASSERT_NEAR(ear_storage_get_double(s, "word", 2.5), 2.5, 0);
    ASSERT_NEAR(ear_storage_get_double(s, "trail", 2.5), 2.5, 0);
    ASSERT_NEAR(ear_storage_get_double(s, "empty", 2.5), 2.5, 0);
    ASSERT_TRUE(ear_storage_get_bool(s, "one", false));
    ASSERT_TRUE(ear_storage_get_bool(s, "word", true));
    ASSERT_FALSE(ear_storage_get_bool(s, "word", false));
    ASSERT_STR_EQ(ear_storage_get_string(s, "missing", "dflt"), "dflt");
    ASSERT_NULL(ear_storage_get_string(s, "missing", NULL));
    ear_storage_destroy(s);
}

TEST(invalid_keys_and_values_rejected) {
    ear_storage *s = NULL;
    ASSERT_OK(ear_storage_create(NULL, &s));
    static const char *const bad_keys[] = {"",         "a=b",        " lead", "trail ",
                                           "#comment", "two\nlines", "cr\r",  "\xff\xfe"};
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++)
        ASSERT_EQ(ear_storage_set_string(s, bad_keys[i], "v"), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_storage_set_string(s, "key", "\xC3\x28"), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_storage_set_string(s, "key", NULL), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_storage_set_string(s, NULL, "v"), EAR_E_INVALID_ARG);
    ASSERT_EQ(ear_storage_count(s), 0);
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_OK(ear_storage_set_string(s, "inner space ok.#", "v"));
    ear_storage_destroy(s);
}

static const char *const tricky_values[] = {
    "back\\slash",
    "line1\nline2",
    "cr\rhere",
    "crlf\r\n",
    "x = y == z",
    "  lead and trail  ",
    "",
    "\\n is not a newline",
    "ends with \\",
    "\\\\",
    "=",
    " ",
    "# not a comment",
    "\n",
    "tab\there\t",
};
#define TRICKY_COUNT (sizeof tricky_values / sizeof tricky_values[0])

static void escapes_with(const char *secret) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, secret);
    char key[32];
    for (size_t i = 0; i < TRICKY_COUNT; i++) {
        snprintf(key, sizeof key, "k%zu", i);
        ASSERT_OK(ear_storage_set_string(s, key, tricky_values[i]));
    }
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);

    s = open_store(sb.path, secret);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_EQ(ear_storage_count(s), TRICKY_COUNT);
    for (size_t i = 0; i < TRICKY_COUNT; i++) {
        snprintf(key, sizeof key, "k%zu", i);
        ASSERT_STR_EQ(ear_storage_get_string(s, key, NULL), tricky_values[i]);
    }
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

TEST(escapes_survive_exactly_plain) {
    escapes_with(NULL);
    /* And the file itself is one line per key with the documented escapes. */
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, NULL);
    ASSERT_OK(ear_storage_set_string(s, "a", "x\\y\nz\r"));
    ASSERT_OK(ear_storage_set_string(s, "b", " spaced "));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    unsigned char buf[256];
    long n = read_bytes(sb.path, buf, sizeof buf - 1);
    ASSERT_GT(n, 0);
    buf[n] = '\0';
    ASSERT_STR_EQ((const char *)buf, "a = x\\\\y\\nz\\r\nb =  spaced \n");
    sandbox_close(&sb);
}

TEST(escapes_survive_exactly_encrypted) {
    escapes_with(SECRET);
}

TEST(hand_edited_plain_file_loads) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    const char text[] = "\xEF\xBB\xBF# written by hand\r\n"
                        "\r\n"
                        "tight=1\r\n"
                        "   indented   = two words\r\n"
                        "odd = C:\\path\\n\\t\n"
                        "last = no newline";
    ASSERT_TRUE(write_bytes(sb.path, text, sizeof text - 1));
    ear_storage *s = open_store(sb.path, NULL);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_EQ(ear_storage_count(s), 4);
    ASSERT_STR_EQ(ear_storage_key_at(s, 0), "tight");
    ASSERT_EQ(ear_storage_get_int(s, "tight", 0), 1);
    ASSERT_STR_EQ(ear_storage_get_string(s, "indented", NULL), "two words");
    /* Unknown escapes are kept as written; \n is a newline. */
    ASSERT_STR_EQ(ear_storage_get_string(s, "odd", NULL), "C:\\path\n\\t");
    ASSERT_STR_EQ(ear_storage_get_string(s, "last", NULL), "no newline");
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

/* A key may begin with U+FEFF (it is UTF-8 like any other); as the first key it comes
 * first in the file, where the reader skips one byte order mark. Found by fuzz_storage:
 * "\xEF\xBB\xBF@" loaded, was saved, and came back as "@". */
static void first_key_with_bom_with(const char *secret) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, secret);
    ASSERT_OK(ear_storage_set_string(s, "\xEF\xBB\xBF@", "v"));
    ASSERT_OK(ear_storage_set_string(s, "b", "w"));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    s = open_store(sb.path, secret);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_EQ(ear_storage_count(s), 2);
    ASSERT_STR_EQ(ear_storage_key_at(s, 0), "\xEF\xBB\xBF@");
    ASSERT_STR_EQ(ear_storage_get_string(s, "\xEF\xBB\xBF@", NULL), "v");
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

TEST(first_key_starting_with_bom_survives) {
    first_key_with_bom_with(NULL);
    first_key_with_bom_with(SECRET);
    /* The plain file starts with a byte order mark of its own, then the key's. */
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, NULL);
    ASSERT_OK(ear_storage_set_string(s, "\xEF\xBB\xBFk", "1"));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    unsigned char buf[64];
    long n = read_bytes(sb.path, buf, sizeof buf - 1);
    ASSERT_EQ(n, 12);
    buf[n] = '\0';
    ASSERT_STR_EQ((const char *)buf, "\xEF\xBB\xBF\xEF\xBB\xBFk = 1\n");
    sandbox_close(&sb);
}

TEST(order_is_kept) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, NULL);
    ASSERT_OK(ear_storage_set_int(s, "zebra", 1));
    ASSERT_OK(ear_storage_set_int(s, "apple", 2));
    ASSERT_OK(ear_storage_set_int(s, "mango", 3));
    ASSERT_OK(ear_storage_set_int(s, "apple", 20)); /* keeps its place */
    ASSERT_TRUE(ear_storage_remove(s, "mango"));
    ASSERT_FALSE(ear_storage_remove(s, "mango"));
    ASSERT_OK(ear_storage_set_int(s, "banana", 4));
    /* Many keys: the index grows and stays consistent with the order. */
    char key[32];
    for (int i = 0; i < 200; i++) {
        snprintf(key, sizeof key, "n%03d", i);
        ASSERT_OK(ear_storage_set_int(s, key, i));
    }
    for (int i = 0; i < 200; i += 2) {
        snprintf(key, sizeof key, "n%03d", i);
        ASSERT_TRUE(ear_storage_remove(s, key));
    }
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);

    s = open_store(sb.path, NULL);
    ASSERT_EQ(ear_storage_count(s), 103);
    ASSERT_STR_EQ(ear_storage_key_at(s, 0), "zebra");
    ASSERT_STR_EQ(ear_storage_key_at(s, 1), "apple");
    ASSERT_STR_EQ(ear_storage_value_at(s, 1), "20");
    ASSERT_STR_EQ(ear_storage_key_at(s, 2), "banana");
    for (int i = 1, at = 3; i < 200; i += 2, at++) {
        snprintf(key, sizeof key, "n%03d", i);
        ASSERT_STR_EQ(ear_storage_key_at(s, (size_t)at), key);
        ASSERT_EQ(ear_storage_get_int(s, key, -1), i);
    }
    ASSERT_NULL(ear_storage_key_at(s, 103));
    ASSERT_FALSE(ear_storage_has(s, "n000"));
    ASSERT_TRUE(ear_storage_has(s, "n001"));
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

TEST(dirty_flag_avoids_writes) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, SECRET);
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_OK(ear_storage_set_string(s, "level", "3"));
    ASSERT_TRUE(ear_storage_is_dirty(s));
    ASSERT_OK(ear_storage_save(s));
    ASSERT_FALSE(ear_storage_is_dirty(s));
    struct stat before, after;
    ASSERT_EQ(stat(sb.path, &before), 0);
    nanosleep(&(struct timespec){0, 20000000}, NULL); /* a rewrite would show in mtime */

    /* Setting the same value, removing a missing key, clearing nothing... */
    ASSERT_OK(ear_storage_set_string(s, "level", "3"));
    ASSERT_OK(ear_storage_set_int(s, "level", 3));
    ASSERT_FALSE(ear_storage_remove(s, "nothing"));
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);

    /* ...and reopening then saving an unchanged encrypted file write nothing. */
    s = open_store(sb.path, SECRET);
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_OK(ear_storage_save(s));
    ASSERT_EQ(stat(sb.path, &after), 0);
    ASSERT_U64_EQ(after.st_ino, before.st_ino);
#ifdef _WIN32 /* whole seconds there */
    ASSERT_EQ((long long)after.st_mtime, (long long)before.st_mtime);
#else
    ASSERT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
    ASSERT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
#endif

    /* A real change is written (atomically: a new inode replaces the old). */
    ASSERT_OK(ear_storage_set_string(s, "level", "4"));
    ASSERT_OK(ear_storage_save(s));
    ASSERT_EQ(stat(sb.path, &after), 0);
    ASSERT_NE(after.st_ino, before.st_ino);
    ASSERT_EQ(after.st_mode & 0777, 0600);
    ear_storage_clear(s);
    ASSERT_TRUE(ear_storage_is_dirty(s));
    ASSERT_EQ(ear_storage_count(s), 0);
    ear_storage_destroy(s);
    ASSERT_EQ(count_files(sb.dir, ".tmp-"), 0);
    sandbox_close(&sb);
}

static void crash_before_rename(const char *tmp_path) {
    (void)tmp_path;
    _exit(42);
}

TEST(crash_between_write_and_rename_keeps_previous_save) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, SECRET);
    ASSERT_OK(ear_storage_set_string(s, "progress", "chapter 1"));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    unsigned char before[512], after[512];
    long before_len = read_bytes(sb.path, before, sizeof before);
    ASSERT_GT(before_len, 0);

    fflush(NULL);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ear_storage *c = open_store(sb.path, SECRET);
        ear_storage_set_string(c, "progress", "chapter 2");
        ear__storage_before_rename = crash_before_rename;
        ear_storage_save(c);
        _exit(1); /* not reached: the hook "crashes" first */
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 42);

    /* The complete new file was written beside the save (the crash came between
     * write and rename)... */
    ASSERT_EQ(count_files(sb.dir, "save.txt.tmp-"), 1);
    /* ...and the save itself is the previous one, byte for byte, and loads. */
    long after_len = read_bytes(sb.path, after, sizeof after);
    ASSERT_EQ(after_len, before_len);
    ASSERT_MEM_EQ(before, after, (size_t)before_len);
    /* Opening it again removes the stray temporary file, saying so once. */
    warn_logs = 0;
    ear_log_set(count_warnings, NULL, EAR_LOG_WARN);
    s = open_store(sb.path, SECRET);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_STR_EQ(ear_storage_get_string(s, "progress", NULL), "chapter 1");
    ASSERT_EQ(count_files(sb.dir, "save.txt.tmp-"), 0);
    ASSERT_EQ(warn_logs, 1);
    ASSERT_STR_CONTAINS(last_warning, "removed 1 temporary file left by an interrupted save");
    ASSERT_STR_CONTAINS(last_warning, sb.path);
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

static bool make_file_at(const char *dir, const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return write_bytes(path, text, strlen(text));
}

static bool present(const char *dir, const char *name) {
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lstat(path, &st) == 0;
}

/* Only the save's own temporary files go: exactly "<save>.tmp-" and six letters or
 * digits, regular, ours, and held by no writer. Nothing else in the folder is touched,
 * no link is followed, and the log says it once for all of them. */
TEST(stale_temporary_files_of_this_save_are_removed_at_open) {
    sandbox sb, other;
    ASSERT_TRUE(sandbox_open(&sb));
    ASSERT_TRUE(sandbox_open(&other));
    ASSERT_TRUE(write_bytes(sb.path, "level = 3\n", 10));
    ASSERT_TRUE(make_file_at(sb.dir, "save.txt.tmp-aB3xY9", "level = 4\n"));
    ASSERT_TRUE(make_file_at(sb.dir, "save.txt.tmp-000000", "level = 5\n"));
    /* Not this save's pattern. */
    ASSERT_TRUE(make_file_at(sb.dir, "save.txt.tmp-aB3xY", "x"));
    ASSERT_TRUE(make_file_at(sb.dir, "save.txt.tmp-aB3xY90", "x"));
    ASSERT_TRUE(make_file_at(sb.dir, "save.txt.tmp-aB3x-9", "x"));
    ASSERT_TRUE(make_file_at(sb.dir, "save.txt.tmp_aB3xY9", "x"));
    ASSERT_TRUE(make_file_at(sb.dir, "other.txt.tmp-aB3xY9", "x"));
    ASSERT_TRUE(make_file_at(sb.dir, "xsave.txt.tmp-aB3xY9", "x"));
    /* The pattern, but a link (to a file elsewhere, which must survive), a folder and a
     * FIFO. */
    ASSERT_TRUE(make_file_at(other.dir, "precious", "keep me"));
    char target[256], link_path[256], dir_path[256], fifo_path[256];
    snprintf(target, sizeof target, "%s/precious", other.dir);
    snprintf(link_path, sizeof link_path, "%s/save.txt.tmp-L1nk00", sb.dir);
    snprintf(dir_path, sizeof dir_path, "%s/save.txt.tmp-D1r000", sb.dir);
    snprintf(fifo_path, sizeof fifo_path, "%s/save.txt.tmp-F1f000", sb.dir);
    ASSERT_EQ(symlink(target, link_path), 0);
    ASSERT_EQ(mkdir(dir_path, 0700), 0);
    ASSERT_EQ(mkfifo(fifo_path, 0600), 0);
    /* Another user's file of the pattern (only root can make one). */
    bool root = geteuid() == 0;
    if (root) {
        ASSERT_TRUE(make_file_at(sb.dir, "save.txt.tmp-0ther0", "x"));
        char theirs[256];
        snprintf(theirs, sizeof theirs, "%s/save.txt.tmp-0ther0", sb.dir);
        ASSERT_EQ(chown(theirs, 65534, 65534), 0);
    }
    /* A live writer's temporary file: another process holds its write lock. */
    ASSERT_TRUE(make_file_at(sb.dir, "save.txt.tmp-L1ve00", "level = 6\n"));
    char live[256];
    snprintf(live, sizeof live, "%s/save.txt.tmp-L1ve00", sb.dir);
    int ready[2], done[2];
    ASSERT_EQ(pipe(ready), 0);
    ASSERT_EQ(pipe(done), 0);
    fflush(NULL);
    pid_t writer = fork();
    ASSERT_GE(writer, 0);
    if (writer == 0) {
        /* Only the parent holds done's write end: its exit, even a failed test's, ends
         * the wait below. */
        close(done[1]);
        close(ready[0]);
        int fd = open(live, O_RDWR);
        struct flock lk;
        memset(&lk, 0, sizeof lk);
        lk.l_type = F_WRLCK;
        lk.l_whence = SEEK_SET;
        char c = fd >= 0 && fcntl(fd, F_SETLKW, &lk) == 0 ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1) _exit(2);
        if (read(done[0], &c, 1) != 1) _exit(3);
        _exit(0);
    }
    char c = 0;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    ASSERT_EQ(c, 'y');

    warn_logs = 0;
    ear_log_set(count_warnings, NULL, EAR_LOG_WARN);
    ear_storage *s = open_store(sb.path, NULL);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    ASSERT_NOT_NULL(s);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_EQ(ear_storage_get_int(s, "level", 0), 3);
    ASSERT_EQ(warn_logs, 1);
    ASSERT_STR_CONTAINS(last_warning, "removed 2 temporary files left by an interrupted save");
    ASSERT_FALSE(present(sb.dir, "save.txt.tmp-aB3xY9"));
    ASSERT_FALSE(present(sb.dir, "save.txt.tmp-000000"));
    ASSERT_TRUE(present(sb.dir, "save.txt"));
    ASSERT_TRUE(present(sb.dir, "save.txt.tmp-aB3xY"));
    ASSERT_TRUE(present(sb.dir, "save.txt.tmp-aB3xY90"));
    ASSERT_TRUE(present(sb.dir, "save.txt.tmp-aB3x-9"));
    ASSERT_TRUE(present(sb.dir, "save.txt.tmp_aB3xY9"));
    ASSERT_TRUE(present(sb.dir, "other.txt.tmp-aB3xY9"));
    ASSERT_TRUE(present(sb.dir, "xsave.txt.tmp-aB3xY9"));
    ASSERT_TRUE(present(sb.dir, "save.txt.tmp-L1nk00"));
    ASSERT_TRUE(present(sb.dir, "save.txt.tmp-D1r000"));
    ASSERT_TRUE(present(sb.dir, "save.txt.tmp-F1f000"));
    ASSERT_TRUE(present(sb.dir, "save.txt.tmp-L1ve00"));
    if (root) ASSERT_TRUE(present(sb.dir, "save.txt.tmp-0ther0"));
    unsigned char kept[16];
    ASSERT_EQ(read_bytes(target, kept, sizeof kept), 7);
    ear_storage_destroy(s);

    /* The writer is gone (its lock with it): the next open removes its file, and a save
     * made meanwhile works as always. */
    ASSERT_EQ(write(done[1], "x", 1), 1);
    int status = 0;
    ASSERT_EQ(waitpid(writer, &status, 0), writer);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    warn_logs = 0;
    ear_log_set(count_warnings, NULL, EAR_LOG_WARN);
    s = open_store(sb.path, NULL);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    ASSERT_EQ(warn_logs, 1);
    ASSERT_FALSE(present(sb.dir, "save.txt.tmp-L1ve00"));
    ASSERT_OK(ear_storage_set_int(s, "level", 7));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    s = open_store(sb.path, NULL);
    ASSERT_EQ(ear_storage_get_int(s, "level", 0), 7);
    ear_storage_destroy(s);
    close(ready[0]), close(ready[1]), close(done[0]), close(done[1]);
    rmdir(dir_path);
    sandbox_close(&sb);
    sandbox_close(&other);
}

TEST(encrypted_file_format_and_key_derivation) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, SECRET);
    ASSERT_OK(ear_storage_set_string(s, "gold", "250"));
    ASSERT_OK(ear_storage_set_string(s, "name", "Bo\nb"));
    ASSERT_OK(ear_storage_save(s));
    unsigned char first[512], second[512];
    long n1 = read_bytes(sb.path, first, sizeof first);
    ASSERT_OK(ear_storage_set_string(s, "gold", "251"));
    ASSERT_OK(ear_storage_set_string(s, "gold", "250")); /* same text as before */
    ASSERT_OK(ear_storage_save(s));
    long n2 = read_bytes(sb.path, second, sizeof second);
    ear_storage_destroy(s);

    const size_t magic = strlen(EAR_STORAGE_MAGIC);
    const size_t nonce = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
    const char plain[] = "gold = 250\nname = Bo\\nb\n";
    ASSERT_EQ(n1, (long)(magic + nonce + strlen(plain) + 16));
    ASSERT_EQ(n2, n1);
    ASSERT_MEM_EQ(first, EAR_STORAGE_MAGIC, magic);
    /* Same content, fresh nonce, so different bytes. */
    ASSERT_FALSE(memcmp(first + magic, second + magic, nonce) == 0);
    ASSERT_FALSE(memcmp(first, second, (size_t)n1) == 0);

    /* Decrypt by hand with the documented derivation. */
    ASSERT_GE(sodium_init(), 0);
    unsigned char master[crypto_kdf_KEYBYTES], key[crypto_aead_xchacha20poly1305_ietf_KEYBYTES];
    crypto_generichash(master, sizeof master, (const unsigned char *)SECRET, strlen(SECRET),
                       NULL, 0);
    crypto_kdf_derive_from_key(key, sizeof key, 1, "earsave1", master);
    unsigned char out[512];
    unsigned long long out_len = 0;
    ASSERT_EQ(crypto_aead_xchacha20poly1305_ietf_decrypt(
                  out, &out_len, NULL, second + magic + nonce,
                  (unsigned long long)n2 - magic - nonce,
                  (const unsigned char *)EAR_STORAGE_MAGIC, magic, second + magic, key),
              0);
    ASSERT_EQ(out_len, strlen(plain));
    out[out_len] = '\0';
    ASSERT_STR_EQ((const char *)out, plain);
    sandbox_close(&sb);
}

TEST(plain_file_is_rewritten_encrypted) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    const char text[] = "volume = 0.75\nmuted = false\n";
    ASSERT_TRUE(write_bytes(sb.path, text, sizeof text - 1));
    ear_storage *s = open_store(sb.path, SECRET);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_TRUE(ear_storage_is_dirty(s)); /* to be rewritten encrypted */
    ASSERT_NEAR(ear_storage_get_double(s, "volume", 0), 0.75, 0);
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);

    unsigned char buf[256];
    long n = read_bytes(sb.path, buf, sizeof buf);
    ASSERT_GT(n, (long)strlen(EAR_STORAGE_MAGIC));
    ASSERT_MEM_EQ(buf, EAR_STORAGE_MAGIC, strlen(EAR_STORAGE_MAGIC));
    for (long i = 0; i + 6 <= n; i++) ASSERT_FALSE(memcmp(buf + i, "volume", 6) == 0);

    s = open_store(sb.path, SECRET);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_FALSE(ear_storage_get_bool(s, "muted", true));
    ASSERT_NEAR(ear_storage_get_double(s, "volume", 0), 0.75, 0);
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

/* Loads sb->path expecting it to be moved aside with `expect`; checks the moved
 * file holds exactly the original bytes and the store is empty. */
static void expect_broken(sandbox *sb, const char *secret, ear_result expect,
                          const char *moved_to) {
    unsigned char original[4096], moved[4096];
    long n = read_bytes(sb->path, original, sizeof original);
    ASSERT_GE(n, 0);
    error_logs = 0;
    ear_log_set(count_errors, NULL, EAR_LOG_WARN);
    ear_storage *s = open_store(sb->path, secret);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    ASSERT_NOT_NULL(s);
    ASSERT_EQ(ear_storage_load_result(s), expect);
    ASSERT_EQ(error_logs, 1);
    ASSERT_EQ(ear_storage_count(s), 0);
    ASSERT_FALSE(ear_storage_is_dirty(s));
    ASSERT_TRUE(ear_storage_can_save(s));
    ASSERT_STR_EQ(ear_storage_broken_path(s), moved_to);
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), sb->path);
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), moved_to);
    ASSERT_FALSE(exists(sb->path));
    ASSERT_EQ(read_bytes(moved_to, moved, sizeof moved), n);
    ASSERT_MEM_EQ(original, moved, (size_t)n);

    /* A later save writes a new file; the broken one is never touched. */
    ASSERT_OK(ear_storage_set_string(s, "fresh", "start"));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    ASSERT_EQ(read_bytes(moved_to, moved, sizeof moved), n);
    ASSERT_MEM_EQ(original, moved, (size_t)n);
    s = open_store(sb->path, secret);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_STR_EQ(ear_storage_get_string(s, "fresh", NULL), "start");
    ear_storage_destroy(s);
}

TEST(tampered_ciphertext_is_moved_to_broken) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, SECRET);
    ASSERT_OK(ear_storage_set_string(s, "gold", "250"));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    unsigned char buf[256];
    long n = read_bytes(sb.path, buf, sizeof buf);
    buf[n - 20] ^= 0x01; /* one bit of the ciphertext */
    ASSERT_TRUE(write_bytes(sb.path, buf, (size_t)n));
    expect_broken(&sb, SECRET, EAR_E_CRYPTO, sb.broken);

    /* A second broken save does not replace the first: it goes to .broken.1. */
    n = read_bytes(sb.path, buf, sizeof buf);
    buf[strlen(EAR_STORAGE_MAGIC)] ^= 0x80; /* the nonce */
    ASSERT_TRUE(write_bytes(sb.path, buf, (size_t)n));
    char second[200];
    snprintf(second, sizeof second, "%s.1", sb.broken);
    expect_broken(&sb, SECRET, EAR_E_CRYPTO, second);
    ASSERT_TRUE(exists(sb.broken));
    sandbox_close(&sb);
}

TEST(truncated_file_is_moved_to_broken) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, SECRET);
    ASSERT_OK(ear_storage_set_string(s, "gold", "250"));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    unsigned char buf[256];
    long n = read_bytes(sb.path, buf, sizeof buf);
    /* A truncated file keeps its header and fails authentication. */
    ASSERT_TRUE(write_bytes(sb.path, buf, (size_t)n - 1));
    expect_broken(&sb, SECRET, EAR_E_CRYPTO, sb.broken);
    sandbox_close(&sb);
}

TEST(wrong_secret_is_moved_to_broken) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, SECRET);
    ASSERT_OK(ear_storage_set_string(s, "gold", "250"));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    expect_broken(&sb, "another secret", EAR_E_CRYPTO, sb.broken);
    sandbox_close(&sb);
}

TEST(encrypted_without_secret_is_moved_to_broken) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ear_storage *s = open_store(sb.path, SECRET);
    ASSERT_OK(ear_storage_set_string(s, "gold", "250"));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    expect_broken(&sb, NULL, EAR_E_CRYPTO, sb.broken);
    sandbox_close(&sb);
}

TEST(binary_garbage_is_moved_to_broken) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    unsigned char garbage[1000];
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (unsigned char)((i * 2654435761u) >> 13);
    ASSERT_TRUE(write_bytes(sb.path, garbage, sizeof garbage));
    expect_broken(&sb, NULL, EAR_E_FORMAT, sb.broken);
    ASSERT_TRUE(write_bytes(sb.path, garbage, sizeof garbage));
    char second[200];
    snprintf(second, sizeof second, "%s.1", sb.broken);
    expect_broken(&sb, SECRET, EAR_E_FORMAT, second);
    sandbox_close(&sb);
}

TEST(line_without_equals_is_moved_to_broken) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    const char text[] = "ok = 1\nthis is not a save line\nok2 = 2\n";
    ASSERT_TRUE(write_bytes(sb.path, text, sizeof text - 1));
    error_logs = 0;
    ear_log_set(count_errors, NULL, EAR_LOG_WARN);
    ear_storage *s = open_store(sb.path, NULL);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    ASSERT_EQ(ear_storage_load_result(s), EAR_E_FORMAT);
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), "line 2");
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), sb.path);
    ASSERT_EQ(ear_storage_count(s), 0); /* nothing half-loaded */
    ASSERT_TRUE(exists(sb.broken));
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

TEST(failed_move_disables_saving) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    const char text[] = "no equals sign here\n";
    ASSERT_TRUE(write_bytes(sb.path, text, sizeof text - 1));
    /* Every name the file could be moved to is taken (this works as root too). */
    ASSERT_TRUE(write_bytes(sb.broken, "x", 1));
    char name[200];
    for (int i = 1; i < 100; i++) {
        snprintf(name, sizeof name, "%s.%d", sb.broken, i);
        ASSERT_TRUE(write_bytes(name, "x", 1));
    }
    ear_log_set(count_errors, NULL, EAR_LOG_WARN);
    ear_storage *s = open_store(sb.path, NULL);
    ASSERT_EQ(ear_storage_load_result(s), EAR_E_FORMAT);
    ASSERT_FALSE(ear_storage_can_save(s));
    ASSERT_NULL(ear_storage_broken_path(s));
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), "saving is disabled");
    ASSERT_OK(ear_storage_set_string(s, "k", "v"));
    ASSERT_EQ(ear_storage_save(s), EAR_E_STATE);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    unsigned char buf[64];
    ASSERT_EQ(read_bytes(sb.path, buf, sizeof buf), (long)(sizeof text - 1));
    ASSERT_MEM_EQ(buf, text, sizeof text - 1); /* untouched */

    /* The game accepts the loss: the next save overwrites. */
    ear_storage_allow_overwrite(s);
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    s = open_store(sb.path, NULL);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_STR_EQ(ear_storage_get_string(s, "k", NULL), "v");
    ear_storage_destroy(s);
    sandbox_close(&sb);
}

TEST(unreadable_path_disables_saving) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ASSERT_EQ(mkdir(sb.path, 0700), 0); /* a folder where the save should be */
    ear_log_set(count_errors, NULL, EAR_LOG_WARN);
    ear_storage *s = open_store(sb.path, NULL);
    ASSERT_EQ(ear_storage_load_result(s), EAR_E_IO);
    ASSERT_FALSE(ear_storage_can_save(s));
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), sb.path);
    ASSERT_OK(ear_storage_set_string(s, "k", "v"));
    ASSERT_EQ(ear_storage_save(s), EAR_E_STATE);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    ear_storage_destroy(s);
    rmdir(sb.path);
    sandbox_close(&sb);
}

TEST(write_failure_keeps_store_dirty) {
    ear_log_set(count_errors, NULL, EAR_LOG_WARN);
    ear_storage *s = open_store("/nonexistent-earshot-dir/save.txt", NULL);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK); /* missing: empty */
    ASSERT_OK(ear_storage_set_int(s, "a", 1));
    ASSERT_EQ(ear_storage_save(s), EAR_E_IO);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    ASSERT_TRUE(ear_storage_is_dirty(s));
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), "/nonexistent-earshot-dir/save.txt");
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), "temporary file");
    ear_storage_destroy(s);
}

/* A FIFO at the save path is refused at once (opening it for reading would wait for a
 * writer forever; the test's timeout catches a wait) and never replaced. */
TEST(fifo_save_is_refused_not_waited_on) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    ASSERT_EQ(mkfifo(sb.path, 0600), 0);
    ear_log_set(count_errors, NULL, EAR_LOG_WARN);
    ear_storage *s = open_store(sb.path, NULL);
    ASSERT_NOT_NULL(s);
    ASSERT_EQ(ear_storage_load_result(s), EAR_E_IO);
    ASSERT_FALSE(ear_storage_can_save(s));
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), "is a FIFO, not a file");
    ASSERT_OK(ear_storage_set_string(s, "k", "v"));
    ASSERT_EQ(ear_storage_save(s), EAR_E_STATE);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    struct stat st;
    ASSERT_EQ(lstat(sb.path, &st), 0);
    ASSERT_TRUE(S_ISFIFO(st.st_mode)); /* still the FIFO: nothing renamed over it */
    ASSERT_EQ(count_files(sb.dir, ".broken"), 0);
    ear_storage_destroy(s);
    /* A device likewise (and through a link to it). */
    char link_path[200];
    snprintf(link_path, sizeof link_path, "%s/null.txt", sb.dir);
    ASSERT_EQ(symlink("/dev/null", link_path), 0);
    ear_log_set(count_errors, NULL, EAR_LOG_WARN);
    s = open_store(link_path, NULL);
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
    ASSERT_EQ(ear_storage_load_result(s), EAR_E_IO);
    ASSERT_STR_CONTAINS(ear_storage_last_error(s), "is a device, not a file");
    ear_storage_destroy(s);
    unlink(link_path);
    unlink(sb.path);
    sandbox_close(&sb);
}

/* A save that is a symbolic link is read and written through to the file it names; the
 * link stays a link, the temporary file is made beside the target, and a dangling link
 * gets its target created. */
TEST(symlinked_save_is_written_through_to_its_target) {
    sandbox sb;
    ASSERT_TRUE(sandbox_open(&sb));
    char real_dir[200], target[260];
    snprintf(real_dir, sizeof real_dir, "%s/real", sb.dir);
    ASSERT_EQ(mkdir(real_dir, 0700), 0);
    snprintf(target, sizeof target, "%s/slot1.txt", real_dir);
    ASSERT_TRUE(write_bytes(target, "level = 3\n", 10));
    ASSERT_EQ(symlink("real/slot1.txt", sb.path), 0); /* relative to the link's folder */
    ear_storage *s = open_store(sb.path, NULL);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_EQ(ear_storage_get_int(s, "level", 0), 3);
    ASSERT_OK(ear_storage_set_int(s, "level", 4));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    struct stat st;
    ASSERT_EQ(lstat(sb.path, &st), 0);
    ASSERT_TRUE(S_ISLNK(st.st_mode)); /* the link was not replaced by a file */
    unsigned char buf[64];
    long n = read_bytes(target, buf, sizeof buf);
    ASSERT_EQ(n, 10);
    ASSERT_EQ(memcmp(buf, "level = 4\n", 10), 0);
    ASSERT_EQ(count_files(real_dir, ".tmp-"), 0);
    ASSERT_EQ(count_files(sb.dir, ".tmp-"), 0);
    /* A dangling link: the save creates the file it names. */
    ASSERT_EQ(unlink(target), 0);
    s = open_store(sb.path, NULL);
    ASSERT_EQ(ear_storage_load_result(s), EAR_OK);
    ASSERT_OK(ear_storage_set_int(s, "level", 5));
    ASSERT_OK(ear_storage_save(s));
    ear_storage_destroy(s);
    ASSERT_EQ(lstat(sb.path, &st), 0);
    ASSERT_TRUE(S_ISLNK(st.st_mode));
    n = read_bytes(target, buf, sizeof buf);
    ASSERT_EQ(n, 10);
    ASSERT_EQ(memcmp(buf, "level = 5\n", 10), 0);
    unlink(target);
    rmdir(real_dir);
    unlink(sb.path);
    sandbox_close(&sb);
}

TEST_MAIN(
    TEST_ENTRY(create_arguments), TEST_ENTRY(in_memory_store),
    TEST_ENTRY(missing_file_is_empty), TEST_ENTRY(round_trip_all_types_plain),
    TEST_ENTRY(round_trip_all_types_encrypted), TEST_ENTRY(defaults_for_missing_and_unparsable),
    TEST_ENTRY(invalid_keys_and_values_rejected), TEST_ENTRY(escapes_survive_exactly_plain),
    TEST_ENTRY(escapes_survive_exactly_encrypted), TEST_ENTRY(hand_edited_plain_file_loads),
    TEST_ENTRY(order_is_kept), TEST_ENTRY(dirty_flag_avoids_writes),
    TEST_ENTRY(crash_between_write_and_rename_keeps_previous_save),
    TEST_ENTRY(stale_temporary_files_of_this_save_are_removed_at_open),
    TEST_ENTRY(encrypted_file_format_and_key_derivation),
    TEST_ENTRY(plain_file_is_rewritten_encrypted),
    TEST_ENTRY(first_key_starting_with_bom_survives),
    TEST_ENTRY(tampered_ciphertext_is_moved_to_broken),
    TEST_ENTRY(truncated_file_is_moved_to_broken), TEST_ENTRY(wrong_secret_is_moved_to_broken),
    TEST_ENTRY(encrypted_without_secret_is_moved_to_broken),
    TEST_ENTRY(binary_garbage_is_moved_to_broken),
    TEST_ENTRY(line_without_equals_is_moved_to_broken), TEST_ENTRY(failed_move_disables_saving),
    TEST_ENTRY(unreadable_path_disables_saving), TEST_ENTRY(write_failure_keeps_store_dirty),
    TEST_ENTRY(fifo_save_is_refused_not_waited_on),
    TEST_ENTRY(symlinked_save_is_written_through_to_its_target))
