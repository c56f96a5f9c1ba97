/* SPDX-License-Identifier: Zlib */
/*
 * Translations: code normalisation, the lookup chain from the current language
 * down to the key itself, warn-once for missing keys, lenient loading that names
 * the file and line of a malformed line, formatting, and the start language.
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/lang.h"

#include "test.h"

#include <dirent.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- Helpers -------------------------------------------------------------------- */

typedef struct captured {
    int count;
    ear_log_level levels[32];
    char modules[32][16];
    char messages[32][256];
} captured;

static captured logs;

static void capture(void *user, ear_log_level level, const char *module, const char *message) {
    (void)user;
    if (logs.count >= 32) return;
    logs.levels[logs.count] = level;
    snprintf(logs.modules[logs.count], sizeof logs.modules[0], "%s", module);
    snprintf(logs.messages[logs.count], sizeof logs.messages[0], "%s", message);
    logs.count++;
}

static void capture_logs(void) {
    memset(&logs, 0, sizeof logs);
    ear_log_set(capture, NULL, EAR_LOG_DEBUG);
}

static void restore_logs(void) {
    ear_log_set(NULL, NULL, EAR_LOG_WARN);
}

static char *make_dir(void) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/earshot-lang-XXXXXX");
    return mkdtemp(path);
}

static void write_text(const char *dir, const char *name, const char *text) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(text, 1, strlen(text), f);
    fclose(f);
}

static void remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static ear_lang *new_lang(const char *fallback) {
    ear_lang_config c = ear_lang_config_default();
    c.fallback = fallback;
    ear_lang *lang = NULL;
    if (ear_lang_create(&c, &lang) != EAR_OK) return NULL;
    return lang;
}

/* ---- Tests ---------------------------------------------------------------------- */

TEST(normalize_codes) {
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"de_AT.UTF-8", "de-at"},
        {"de-AT", "de-at"},
        {"C", "en"},
        {"POSIX", "en"},
        {"C.UTF-8", "en"},
        {"EN", "en"},
        {"de_DE@euro", "de-de"},
        {"pt_BR.utf8", "pt-br"},
        {"sr_RS@latin", "sr-rs"},
        {"zh-Hant-TW", "zh-hant-tw"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[EAR_LANG_CODE_MAX] = "";
        ASSERT_OK(ear_lang_normalize(cases[i].in, out, sizeof out));
        ASSERT_STR_EQ(out, cases[i].out);
    }
    static const char *const bad[] = {"",    "-de",      "de-",   "de at", "/usr/lib/locale",
                                      "1de", "deutsch!", ".UTF-8"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char out[EAR_LANG_CODE_MAX] = "untouched";
        ASSERT_EQ(ear_lang_normalize(bad[i], out, sizeof out), EAR_E_INVALID_ARG);
        ASSERT_STR_EQ(out, "untouched");
    }
    char small[3] = "xy";
    ASSERT_EQ(ear_lang_normalize("de-at", small, sizeof small), EAR_E_INVALID_ARG);
    ASSERT_STR_EQ(small, "xy");
    ASSERT_OK(ear_lang_normalize("de", small, sizeof small));
    ASSERT_STR_EQ(small, "de");
    ASSERT_EQ(ear_lang_normalize(NULL, small, sizeof small), EAR_E_INVALID_ARG);
}

TEST(create_and_arguments) {
    ear_lang *lang = NULL;
    ear_lang_config c = ear_lang_config_default();
    c.fallback = "not a code";
    ASSERT_EQ(ear_lang_create(&c, &lang), EAR_E_INVALID_ARG);
    ASSERT_NULL(lang);
    ASSERT_EQ(ear_lang_create(NULL, NULL), EAR_E_INVALID_ARG);
    ASSERT_OK(ear_lang_create(NULL, &lang));
    ASSERT_STR_EQ(ear_lang_language(lang), "en");
    ASSERT_STR_EQ(ear_lang_fallback(lang), "en");
    ASSERT_EQ(ear_lang_set_language(lang, "??"), EAR_E_INVALID_ARG);
    ASSERT_STR_EQ(ear_lang_language(lang), "en");
    ASSERT_OK(ear_lang_set_language(lang, "de_CH.UTF-8"));
    ASSERT_STR_EQ(ear_lang_language(lang), "de-ch");
    ASSERT_EQ(ear_lang_set_text(lang, "en", "", "x"), EAR_E_INVALID_ARG);
    ASSERT_NULL(ear_lang_get(lang, NULL));
    ear_lang_destroy(lang);
    ear_lang_destroy(NULL);
}

/* current -> base -> fallback -> built-in current -> built-in fallback -> English ->
 * the key itself, each step shown by a key that only that step has. */
TEST(fallback_chain) {
    ear_lang *lang = new_lang("en");
    ASSERT_NOT_NULL(lang);
    ASSERT_OK(ear_lang_set_text(lang, "de-AT", "only.current", "de-at text"));
    ASSERT_OK(ear_lang_set_text(lang, "de-AT", "everywhere", "from de-at"));
    ASSERT_OK(ear_lang_set_text(lang, "de", "everywhere", "from de"));
    ASSERT_OK(ear_lang_set_text(lang, "de", "in.base", "from de"));
    ASSERT_OK(ear_lang_set_text(lang, "en", "everywhere", "from en"));
    ASSERT_OK(ear_lang_set_text(lang, "en", "in.base", "from en"));
    ASSERT_OK(ear_lang_set_text(lang, "en", "in.fallback", "from en"));
    /* A game's fallback file overrides a built-in text of the current language. */
    ASSERT_OK(ear_lang_set_text(lang, "en", "menu.quit", "Leave"));
    ASSERT_OK(ear_lang_set_language(lang, "de_AT.UTF-8"));

    ASSERT_STR_EQ(ear_lang_get(lang, "everywhere"), "from de-at");   /* current */
    ASSERT_STR_EQ(ear_lang_get(lang, "only.current"), "de-at text"); /* current */
    ASSERT_STR_EQ(ear_lang_get(lang, "in.base"), "from de");         /* base */
    ASSERT_STR_EQ(ear_lang_get(lang, "in.fallback"), "from en");     /* fallback */
    ASSERT_STR_EQ(ear_lang_get(lang, "menu.quit"), "Leave");         /* fallback table */
    ASSERT_STR_EQ(ear_lang_get(lang, "menu.back"), "Zurück");        /* built-in current */
    capture_logs();
    ASSERT_STR_EQ(ear_lang_get(lang, "nowhere.at.all"), "nowhere.at.all"); /* key */
    restore_logs();

    /* A game file overrides the built-in text of its own language. */
    ASSERT_OK(ear_lang_set_text(lang, "de", "menu.yes", "Jawohl"));
    ASSERT_STR_EQ(ear_lang_get(lang, "menu.yes"), "Jawohl");
    ear_lang_destroy(lang);

    /* Built-in fallback: French has no texts at all, the fallback is German. */
    lang = new_lang("de");
    ASSERT_OK(ear_lang_set_language(lang, "fr_FR"));
    ASSERT_STR_EQ(ear_lang_get(lang, "menu.no"), "Nein");
    ear_lang_destroy(lang);

    /* English is the last resort when neither language has built-in texts. */
    lang = new_lang("es");
    ASSERT_OK(ear_lang_set_language(lang, "fr"));
    ASSERT_STR_EQ(ear_lang_get(lang, "menu.no"), "No");
    ASSERT_STR_EQ(ear_lang_get(lang, "speech.muted"), "Speech muted");
    ear_lang_destroy(lang);
}

TEST(has_language_and_listing) {
    ear_lang *lang = new_lang("en");
    ASSERT_TRUE(ear_lang_has_language(lang, "de_AT")); /* built-in German */
    ASSERT_TRUE(ear_lang_has_language(lang, "en-GB"));
    ASSERT_FALSE(ear_lang_has_language(lang, "fr"));
    ASSERT_FALSE(ear_lang_has_language(lang, "not a code"));
    ASSERT_OK(ear_lang_set_text(lang, "fr_CA", "a", "b"));
    ASSERT_OK(ear_lang_set_text(lang, "de", "a", "b"));
    ASSERT_OK(ear_lang_set_text(lang, "ar", "a", "b"));
    ASSERT_TRUE(ear_lang_has_language(lang, "fr-ca"));
    ASSERT_FALSE(ear_lang_has_language(lang, "fr")); /* a region does not make a base */
    ASSERT_EQ(ear_lang_language_count(lang), 3);
    ASSERT_STR_EQ(ear_lang_language_at(lang, 0), "ar");
    ASSERT_STR_EQ(ear_lang_language_at(lang, 1), "de");
    ASSERT_STR_EQ(ear_lang_language_at(lang, 2), "fr-ca");
    ASSERT_NULL(ear_lang_language_at(lang, 3));
    ear_lang_destroy(lang);
}

TEST(missing_key_warns_once) {
    ear_lang *lang = new_lang("en");
    capture_logs();
    for (int i = 0; i < 3; i++)
        ASSERT_STR_EQ(ear_lang_get(lang, "menu.missing"), "menu.missing");
    int after_first = logs.count;
    ASSERT_STR_EQ(ear_lang_get(lang, "other.missing"), "other.missing");
    ASSERT_STR_EQ(ear_lang_get(lang, "other.missing"), "other.missing");
    ASSERT_STR_EQ(ear_lang_get(lang, "menu.back"), "Back"); /* found: no warning */
    int total = logs.count;
    restore_logs();
    ASSERT_EQ(after_first, 1);
    ASSERT_EQ(total, 2);
    ASSERT_EQ(logs.levels[0], EAR_LOG_WARN);
    ASSERT_STR_EQ(logs.modules[0], "lang");
    ASSERT_STR_CONTAINS(logs.messages[0], "menu.missing");
    ASSERT_STR_CONTAINS(logs.messages[1], "other.missing");
    ear_lang_destroy(lang);
}

TEST(load_dir_reports_malformed_lines) {
    char *dir = make_dir();
    ASSERT_NOT_NULL(dir);
    write_text(dir, "de.lang",
               "\xEF\xBB\xBF# Deutsch\n"              /* 1: BOM and comment */
               "\n"                                   /* 2: blank */
               "greeting = Hallo\n"                   /* 3 */
               "this line has no equals\n"            /* 4: malformed */
               "two.lines = Eins\\nZwei\n"            /* 5 */
               "   = no key\n"                        /* 6: malformed */
               "path = C:\\Spiele\n"                  /* 7: malformed (unknown escape) */
               "  spaced   =   Text mit  Raum   \r\n" /* 8: CRLF, trimmed */
               "slash = a\\\\b\n"                     /* 9 */
               "bad.utf8 = \xC3\x28\n"                /* 10: malformed */
               "last = no newline at end");           /* 11 */
    write_text(dir, "de_AT.lang", "greeting = Servus\n");
    write_text(dir, "readme.txt", "not = a language\n");
    write_text(dir, "bad code!.lang", "x = y\n");

    ear_lang *lang = new_lang("en");
    ear_lang_load_info info;
    capture_logs();
    ear_result r = ear_lang_load_dir(lang, dir, &info);
    captured seen = logs;
    restore_logs();
    ASSERT_OK(r);
    ASSERT_EQ(info.files, 2);
    ASSERT_EQ(info.malformed_lines, 4);
    ASSERT_EQ(info.entries, 6);
    ASSERT_STR_CONTAINS(info.first_error, "de.lang:4:");

    /* Each malformed line was logged as an error naming file and line. */
    const char *expect[] = {"de.lang:4:", "de.lang:6:", "de.lang:7:", "de.lang:10:"};
    for (size_t i = 0; i < 4; i++) {
        bool found = false;
        for (int k = 0; k < seen.count; k++)
            found = found || (seen.levels[k] == EAR_LOG_ERROR &&
                              strstr(seen.messages[k], expect[i]) != NULL &&
                              strcmp(seen.modules[k], "lang") == 0);
        ASSERT_TRUE(found);
    }

    ASSERT_EQ(ear_lang_language_count(lang), 2);
    ASSERT_STR_EQ(ear_lang_language_at(lang, 0), "de");
    ASSERT_STR_EQ(ear_lang_language_at(lang, 1), "de-at");
    ASSERT_OK(ear_lang_set_language(lang, "de"));
    ASSERT_STR_EQ(ear_lang_get(lang, "greeting"), "Hallo");
    ASSERT_STR_EQ(ear_lang_get(lang, "two.lines"), "Eins\nZwei");
    ASSERT_STR_EQ(ear_lang_get(lang, "spaced"), "Text mit  Raum");
    ASSERT_STR_EQ(ear_lang_get(lang, "slash"), "a\\b");
    ASSERT_STR_EQ(ear_lang_get(lang, "last"), "no newline at end");
    ASSERT_OK(ear_lang_set_language(lang, "de_AT"));
    ASSERT_STR_EQ(ear_lang_get(lang, "greeting"), "Servus");
    ASSERT_STR_EQ(ear_lang_get(lang, "two.lines"), "Eins\nZwei");

    capture_logs();
    ASSERT_STR_EQ(ear_lang_get(lang, "path"), "path"); /* the malformed line was skipped */
    restore_logs();
    ear_lang_destroy(lang);
    remove_dir(dir);
}

/* A FIFO among the translation files is refused at once (it was read with fopen, which
 * waits for a writer) and a link to /dev/zero is named a device; the other files load. */
TEST(a_fifo_or_a_device_among_the_files_is_refused_at_once) {
    char *dir = make_dir();
    ASSERT_TRUE(dir != NULL);
    write_text(dir, "de.lang", "greeting = Hallo\n");
    char path[512];
    snprintf(path, sizeof path, "%s/fr.lang", dir);
    ASSERT_EQ(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/it.lang", dir);
    ASSERT_EQ(symlink("/dev/zero", path), 0);
    ear_lang *lang = new_lang("en");
    ear_lang_load_info info;
    alarm(10);
    capture_logs();
    ear_result r = ear_lang_load_dir(lang, dir, &info);
    restore_logs();
    alarm(0);
    ASSERT_OK(r);
    ASSERT_EQ(info.files, 1);
    ASSERT_EQ(info.unreadable_files, 2);
    ASSERT_TRUE(strstr(info.first_error, "fr.lang: is a FIFO, not a file") != NULL);
    ASSERT_EQ(ear_lang_load_file(lang, "it", path, &info), EAR_E_IO);
    ASSERT_TRUE(strstr(info.first_error, "it.lang: is a character device, not a file") != NULL);
    ear_lang_destroy(lang);
    remove_dir(dir);
}

TEST(load_errors) {
    ear_lang *lang = new_lang("en");
    capture_logs();
    ASSERT_EQ(ear_lang_load_dir(lang, "/nonexistent/earshot/lang", NULL), EAR_E_NOT_FOUND);
    ASSERT_EQ(ear_lang_load_file(lang, "de", "/nonexistent/de.lang", NULL), EAR_E_NOT_FOUND);
    restore_logs();
    ASSERT_EQ(ear_lang_language_count(lang), 0);
    const char text[] = "a = 1\nb = 2";
    ear_lang_load_info info;
    ASSERT_OK(ear_lang_load_text(lang, "it", text, sizeof text - 1, "memory", &info));
    ASSERT_EQ(info.entries, 2);
    ASSERT_EQ(info.malformed_lines, 0);
    ASSERT_STR_EQ(info.first_error, "");
    ASSERT_OK(ear_lang_set_language(lang, "it"));
    ASSERT_STR_EQ(ear_lang_get(lang, "b"), "2");
    ear_lang_destroy(lang);
}

TEST(format_placeholders) {
    ear_lang *lang = new_lang("en");
    ear_lang_arg args[] = {{"index", "3"}, {"count", "10"}};
    char out[64];
    size_t needed = 0;
    ASSERT_OK(ear_lang_format(lang, "menu.item_of", args, 2, out, sizeof out, &needed));
    ASSERT_STR_EQ(out, "3 of 10");
    ASSERT_EQ(needed, 7);
    ASSERT_OK(ear_lang_set_language(lang, "de"));
    ASSERT_OK(ear_lang_format(lang, "menu.item_of", args, 2, out, sizeof out, NULL));
    ASSERT_STR_EQ(out, "3 von 10");

    ASSERT_OK(ear_lang_set_text(lang, "de", "braces", "{{literal}} {unknown} {count}}}"));
    ASSERT_OK(ear_lang_format(lang, "braces", args, 2, out, sizeof out, NULL));
    ASSERT_STR_EQ(out, "{literal} {unknown} 10}");

    /* Too small: nothing written, the needed length reported. */
    char small[5] = "keep";
    ASSERT_EQ(ear_lang_format(lang, "menu.item_of", args, 2, small, sizeof small, &needed),
              EAR_E_INVALID_ARG);
    ASSERT_EQ(needed, 8);
    ASSERT_STR_EQ(small, "keep");
    ear_lang_destroy(lang);
}

TEST(choose_start_language) {
    char out[EAR_LANG_CODE_MAX];
    setenv("LC_ALL", "", 1);
    setenv("LC_MESSAGES", "", 1);
    setenv("LANG", "de_DE.UTF-8", 1);

    ASSERT_OK(ear_lang_choose_start("fr", "it", false, out, sizeof out)); /* saved */
    ASSERT_STR_EQ(out, "fr");
    ASSERT_OK(ear_lang_choose_start(NULL, "pt_BR", false, out, sizeof out)); /* engine */
    ASSERT_STR_EQ(out, "pt-br");
    ASSERT_OK(ear_lang_choose_start("", "", false, out, sizeof out)); /* locale */
    ASSERT_STR_EQ(out, "de-de");
    ASSERT_OK(ear_lang_choose_start("not valid!", NULL, false, out, sizeof out));
    ASSERT_STR_EQ(out, "de-de");
    /* Headless never reads the locale. */
    ASSERT_OK(ear_lang_choose_start(NULL, NULL, true, out, sizeof out));
    ASSERT_STR_EQ(out, "en");
    ASSERT_OK(ear_lang_choose_start("sv", NULL, true, out, sizeof out));
    ASSERT_STR_EQ(out, "sv");

    /* LC_ALL beats LC_MESSAGES beats LANG. */
    setenv("LC_MESSAGES", "nl_NL.UTF-8", 1);
    ASSERT_OK(ear_lang_choose_start(NULL, NULL, false, out, sizeof out));
    ASSERT_STR_EQ(out, "nl-nl");
    setenv("LC_ALL", "C", 1);
    ASSERT_OK(ear_lang_choose_start(NULL, NULL, false, out, sizeof out));
    ASSERT_STR_EQ(out, "en");
    setenv("LC_ALL", "/weird/path", 1);
    ASSERT_OK(ear_lang_choose_start(NULL, NULL, false, out, sizeof out));
    ASSERT_STR_EQ(out, "en");
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    unsetenv("LANG");
    ASSERT_OK(ear_lang_choose_start(NULL, NULL, false, out, sizeof out));
    ASSERT_STR_EQ(out, "en");

    char small[4];
    ASSERT_EQ(ear_lang_choose_start(NULL, NULL, true, small, sizeof small), EAR_E_INVALID_ARG);
}

TEST_MAIN(TEST_ENTRY(normalize_codes), TEST_ENTRY(create_and_arguments),
          TEST_ENTRY(fallback_chain), TEST_ENTRY(has_language_and_listing),
          TEST_ENTRY(missing_key_warns_once), TEST_ENTRY(load_dir_reports_malformed_lines),
          TEST_ENTRY(load_errors),
          TEST_ENTRY(a_fifo_or_a_device_among_the_files_is_refused_at_once),
          TEST_ENTRY(format_placeholders), TEST_ENTRY(choose_start_language))
