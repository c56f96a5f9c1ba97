/* SPDX-License-Identifier: Zlib */
/*
 * Earshot translations: one table of `key = text` per language code, loaded from
 * `<dir>/<code>.lang` files, with a fallback chain that always ends in an answer.
 *
 * ear_lang_get looks a key up in this order and returns the first text found:
 *
 *   1. the table of the current language ("de-at"),
 *   2. the table of its base language ("de"),
 *   3. the table of the fallback language (config, default "en") and its base,
 *   4. the built-in engine texts of the current language, then of its base,
 *   5. the built-in engine texts of the fallback language, then of its base,
 *   6. the built-in English engine texts,
 *   7. the key itself (warned once per key through ear_log, module "lang").
 *
 * Built-in engine texts exist for English and German; game files override them.
 * docs/modules/lang.md describes the file format and the choices behind it.
 */
#ifndef EARSHOT_LANG_H
#define EARSHOT_LANG_H

#include "earshot/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest normalised language code, including its terminating NUL. */
#define EAR_LANG_CODE_MAX 32

typedef struct ear_lang ear_lang;

typedef struct ear_lang_config {
    /* The language asked when the current one has no text for a key, and the
     * language current at creation. Normalised like every code. Default "en". */
    const char *fallback;
    /* Memory for the tables. Default NULL: malloc, realloc and free. */
    const ear_allocator *allocator;
} ear_lang_config;

/* What ear_lang_load_dir and ear_lang_load_text found. */
typedef struct ear_lang_load_info {
    size_t files;            /* .lang files read */
    size_t entries;          /* key = text lines taken (a repeated key counts each time) */
    size_t malformed_lines;  /* lines skipped as malformed (each was logged as an error) */
    size_t unreadable_files; /* .lang files that could not be read (each was logged) */
    /* The first problem, "<file>:<line>: <what is wrong>", or "" when there was none. */
    char first_error[256];
} ear_lang_load_info;

/* The defaults: fallback "en", the default allocator. Thread: any. */
ear_lang_config ear_lang_config_default(void);

/* Creates an empty set of tables whose current language is the fallback. A NULL
 * config means the defaults. Writes the new object to *out_lang, which the caller
 * owns and frees with ear_lang_destroy. Fails with EAR_E_INVALID_ARG when out_lang
 * is NULL or the fallback code is not a valid code, EAR_E_OUT_OF_MEMORY when the
 * allocator fails; on failure *out_lang is left untouched. Thread: any. */
ear_result ear_lang_create(const ear_lang_config *config, ear_lang **out_lang);

/* Frees the tables and every string they own. NULL does nothing. Thread: game. */
void ear_lang_destroy(ear_lang *lang);

/* Loads every `<code>.lang` file in dir (not recursive; file names are normalised
 * codes, so `de_AT.lang` fills the table "de-at"). Files are read in name order, so
 * when two files map to the same code the result does not depend on the file
 * system. Loading is lenient by design: a malformed line is logged as an error
 * naming the file and line number and skipped, and every other line of the file
 * still loads; a file that cannot be read is logged and skipped. A key already in
 * a table is replaced. info (may be NULL) receives counts and the first problem.
 * Returns EAR_E_INVALID_ARG for NULL lang or dir, EAR_E_NOT_FOUND when dir cannot
 * be opened (nothing changes then), EAR_E_OUT_OF_MEMORY when memory runs out
 * (tables may then hold part of the files). Malformed lines do not make it fail:
 * check info->malformed_lines. Thread: game. */
ear_result ear_lang_load_dir(ear_lang *lang, const char *dir, ear_lang_load_info *info);

/* Loads one file into the table of code (normalised), with the same rules as
 * ear_lang_load_dir. Returns EAR_E_NOT_FOUND when the file does not exist, EAR_E_IO
 * when it cannot be read, EAR_E_INVALID_ARG for a NULL argument or invalid code.
 * Thread: game. */
ear_result ear_lang_load_file(ear_lang *lang, const char *code, const char *path,
                              ear_lang_load_info *info);

/* Loads `key = text` lines from memory (size bytes, need not end in NUL) into the
 * table of code; name is used in messages in place of a file name (NULL:
 * "<text>"). The text is copied. Same rules and results as ear_lang_load_file,
 * without the I/O errors. Thread: game. */
ear_result ear_lang_load_text(ear_lang *lang, const char *code, const char *text, size_t size,
                              const char *name, ear_lang_load_info *info);

/* Sets one text (copied) in the table of code, creating the table if needed.
 * EAR_E_INVALID_ARG for NULL arguments, an invalid code or an empty key.
 * Thread: game. */
ear_result ear_lang_set_text(ear_lang *lang, const char *code, const char *key,
                             const char *text);

/* Makes code (normalised) the current language. Any valid code is accepted, even
 * one without a table: lookups then go on down the chain (its base, the fallback,
 * the built-in texts). Use ear_lang_has_language to ask first. Returns
 * EAR_E_INVALID_ARG for NULL or a code that normalises to nothing valid; nothing
 * changes then. Thread: game. */
ear_result ear_lang_set_language(ear_lang *lang, const char *code);

/* The current language's normalised code, owned by lang and valid until the next
 * ear_lang_set_language. Thread: game. */
const char *ear_lang_language(const ear_lang *lang);

/* The fallback language's normalised code, owned by lang. Thread: game. */
const char *ear_lang_fallback(const ear_lang *lang);

/* True when a loaded table or the built-in texts exist for code or its base
 * ("de-at" is true when "de" was loaded). False for NULL or invalid codes.
 * Thread: game. */
bool ear_lang_has_language(const ear_lang *lang, const char *code);

/* The number of loaded tables, and the code of the table at index (sorted by code,
 * so the list is stable), or NULL when index is out of range. Built-in texts are
 * not listed. Thread: game. */
size_t ear_lang_language_count(const ear_lang *lang);
const char *ear_lang_language_at(const ear_lang *lang, size_t index);

/* The text for key along the chain described at the top of this header. The
 * result is owned by lang (or is key itself, or a built-in constant) and stays
 * valid until lang is destroyed or that table entry is replaced. A key found
 * nowhere is returned as is and warned once per key (EAR_LOG_WARN, module "lang").
 * NULL lang or key returns key (NULL for NULL). Thread: game (the warn-once
 * memory is written). */
const char *ear_lang_get(ear_lang *lang, const char *key);

/* One `{name}` placeholder's value for ear_lang_format. */
typedef struct ear_lang_arg {
    const char *name;
    const char *value;
} ear_lang_arg;

/* Looks key up with ear_lang_get and replaces each `{name}` with the value of the
 * first arg of that name; `{{` and `}}` write `{` and `}`; a placeholder with no
 * arg is kept as written. *out_needed (may be NULL) receives the length of the
 * whole result without its NUL. When the result and its NUL fit in out_size bytes
 * it is written to out and EAR_OK is returned; otherwise EAR_E_INVALID_ARG is
 * returned and out is left untouched (call again with *out_needed + 1 bytes).
 * args may be NULL when arg_count is 0. Thread: game. */
ear_result ear_lang_format(ear_lang *lang, const char *key, const ear_lang_arg *args,
                           size_t arg_count, char *out, size_t out_size, size_t *out_needed);

/* Normalises a language code into out (at least EAR_LANG_CODE_MAX bytes is always
 * enough): lower case, '_' becomes '-', anything from '.' or '@' on is dropped
 * (`de_AT.UTF-8@euro` -> `de-at`), and "C" and "POSIX" become "en". Returns
 * EAR_E_INVALID_ARG for NULL, for an empty result, for characters other than
 * letters, digits, '-' and '_', and when out_size is too small (out untouched).
 * Thread: any (pure). */
ear_result ear_lang_normalize(const char *code, char *out, size_t out_size);

/* Picks the language a game starts in and writes its normalised code to out: the
 * saved setting when valid, else the engine setting when valid, else the system
 * locale (the first non-empty of LC_ALL, LC_MESSAGES and LANG) unless headless,
 * else "en". Headless runs never read the locale, so tests do not depend on the
 * machine. NULL or empty saved / engine_setting mean "not set". Returns
 * EAR_E_INVALID_ARG for NULL out or out_size < EAR_LANG_CODE_MAX.
 * Thread: any (reads the environment). */
ear_result ear_lang_choose_start(const char *saved, const char *engine_setting, bool headless,
                                 char *out, size_t out_size);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_LANG_H */
