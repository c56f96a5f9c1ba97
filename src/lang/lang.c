/* SPDX-License-Identifier: Zlib */
/*
 * Translations. An ear_lang holds one table per normalised language code; the
 * tables are kept in an array of pointers sorted by code (so listing them is stable
 * and a code pointer handed out stays valid), and each table is an open-addressing
 * hash map (linear probing, power-of-two capacity, at most half full) from key to
 * text. Each entry is one allocation holding "key\0text\0", so replacing a text
 * frees exactly one block. The set of keys already warned about as missing is a
 * table of the same kind whose entries have an empty text.
 *
 * Invariants: every code in the array is normalised (ear_lang_normalize) and
 * unique; current and fallback are normalised; every stored string is valid UTF-8
 * when it came from a file (lines that are not are rejected as malformed).
 *
 * The built-in engine texts are constant arrays in builtin_texts.c; they are read
 * only after every loaded table along the chain missed, so a game file overrides
 * any of them.
 */
#include "earshot/lang.h"

#include "lang_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    char *block; /* "key\0text\0", NULL when the slot is empty */
    const char *text;
    uint32_t hash;
} entry;

typedef struct table {
    char code[EAR_LANG_CODE_MAX];
    entry *slots;
    size_t capacity; /* 0 or a power of two */
    size_t count;
} table;

struct ear_lang {
    ear_allocator alloc;
    table **tables; /* sorted by code */
    size_t table_count;
    size_t table_capacity;
    table warned; /* keys already reported as missing */
    char current[EAR_LANG_CODE_MAX];
    char fallback[EAR_LANG_CODE_MAX];
};

/* ---- Memory --------------------------------------------------------------------- */

static void *mem_alloc(const ear_lang *lang, size_t size) {
    return lang->alloc.alloc_fn(size, lang->alloc.user);
}

static void *mem_realloc(const ear_lang *lang, void *ptr, size_t size) {
    return lang->alloc.realloc_fn(ptr, size, lang->alloc.user);
}

static void mem_free(const ear_lang *lang, void *ptr) {
    if (ptr) lang->alloc.free_fn(ptr, lang->alloc.user);
}

/* ---- Hash tables ---------------------------------------------------------------- */

static entry *table_find(const table *t, const char *key, uint32_t hash) {
    if (t->capacity == 0) return NULL;
    size_t mask = t->capacity - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        entry *e = &t->slots[i];
        if (!e->block) return NULL;
        if (e->hash == hash && strcmp(e->block, key) == 0) return e;
    }
}

static const char *table_get(const table *t, const char *key) {
    const entry *e = table_find(t, key, ear_fnv1a32_str(key));
    return e ? e->text : NULL;
}

static bool table_grow(ear_lang *lang, table *t) {
    size_t capacity = t->capacity ? t->capacity * 2 : 16;
    entry *slots = mem_alloc(lang, capacity * sizeof *slots);
    if (!slots) return false;
    memset(slots, 0, capacity * sizeof *slots);
    for (size_t i = 0; i < t->capacity; i++) {
        entry *e = &t->slots[i];
        if (!e->block) continue;
        size_t j = e->hash & (capacity - 1);
        while (slots[j].block) j = (j + 1) & (capacity - 1);
        slots[j] = *e;
    }
    mem_free(lang, t->slots);
    t->slots = slots;
    t->capacity = capacity;
    return true;
}

/* Sets key to the first text_len bytes of text (copied). On failure the table is
 * unchanged. */
static bool table_put(ear_lang *lang, table *t, const char *key, const char *text,
                      size_t text_len) {
    size_t key_len = strlen(key);
    char *block = mem_alloc(lang, key_len + 1 + text_len + 1);
    if (!block) return false;
    memcpy(block, key, key_len + 1);
    memcpy(block + key_len + 1, text, text_len);
    block[key_len + 1 + text_len] = '\0';

    uint32_t hash = ear_fnv1a32_str(key);
    entry *e = table_find(t, key, hash);
    if (e) {
        mem_free(lang, e->block);
        e->block = block;
        e->text = block + key_len + 1;
        return true;
    }
    if ((t->count + 1) * 2 > t->capacity && !table_grow(lang, t)) {
        mem_free(lang, block);
        return false;
    }
    size_t mask = t->capacity - 1;
    size_t i = hash & mask;
    while (t->slots[i].block) i = (i + 1) & mask;
    t->slots[i].block = block;
    t->slots[i].text = block + key_len + 1;
    t->slots[i].hash = hash;
    t->count++;
    return true;
}

static void table_clear(ear_lang *lang, table *t) {
    for (size_t i = 0; i < t->capacity; i++) mem_free(lang, t->slots[i].block);
    mem_free(lang, t->slots);
    t->slots = NULL;
    t->capacity = 0;
    t->count = 0;
}

/* The table of a normalised code, or NULL. Binary search over the sorted array. */
static table *find_table(const ear_lang *lang, const char *code, size_t *out_pos) {
    size_t lo = 0, hi = lang->table_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(lang->tables[mid]->code, code);
        if (c == 0) {
            if (out_pos) *out_pos = mid;
            return lang->tables[mid];
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (out_pos) *out_pos = lo;
    return NULL;
}

static table *get_or_add_table(ear_lang *lang, const char *code) {
    size_t pos;
    table *t = find_table(lang, code, &pos);
    if (t) return t;
    if (lang->table_count == lang->table_capacity) {
        size_t capacity = lang->table_capacity ? lang->table_capacity * 2 : 4;
        table **tables = mem_realloc(lang, lang->tables, capacity * sizeof *tables);
        if (!tables) return NULL;
        lang->tables = tables;
        lang->table_capacity = capacity;
    }
    t = mem_alloc(lang, sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    memcpy(t->code, code, strlen(code) + 1);
    memmove(&lang->tables[pos + 1], &lang->tables[pos],
            (lang->table_count - pos) * sizeof *lang->tables);
    lang->tables[pos] = t;
    lang->table_count++;
    return t;
}

/* ---- Codes ---------------------------------------------------------------------- */

static char lower_ascii(char c) {
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

ear_result ear_lang_normalize(const char *code, char *out, size_t out_size) {
    if (!code || !out) return EAR_E_INVALID_ARG;
    char buf[EAR_LANG_CODE_MAX];
    size_t n = 0;
    for (const char *p = code; *p && *p != '.' && *p != '@'; p++) {
        char c = lower_ascii(*p);
        if (c == '_') c = '-';
        bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        if (!ok || n + 1 >= sizeof buf) return EAR_E_INVALID_ARG;
        buf[n++] = c;
    }
    buf[n] = '\0';
    if (strcmp(buf, "c") == 0 || strcmp(buf, "posix") == 0) {
        memcpy(buf, "en", 3);
        n = 2;
    }
    /* A code must start with a letter and not end in '-' ("-de", "de-" are typos). */
    if (n == 0 || !(buf[0] >= 'a' && buf[0] <= 'z') || buf[n - 1] == '-')
        return EAR_E_INVALID_ARG;
    if (n + 1 > out_size) return EAR_E_INVALID_ARG;
    memcpy(out, buf, n + 1);
    return EAR_OK;
}

/* Writes the part of a normalised code before its first '-' to out; false when the
 * code has no '-' (its base is itself). */
static bool base_code(const char *code, char out[EAR_LANG_CODE_MAX]) {
    const char *dash = strchr(code, '-');
    if (!dash) return false;
    size_t n = (size_t)(dash - code);
    memcpy(out, code, n);
    out[n] = '\0';
    return true;
}

/* The codes to try, in order, without repeats: current, its base, fallback, its
 * base. Returns how many were written. */
static size_t chain_codes(const ear_lang *lang, char codes[4][EAR_LANG_CODE_MAX]) {
    char candidates[4][EAR_LANG_CODE_MAX];
    bool have[4];
    memcpy(candidates[0], lang->current, EAR_LANG_CODE_MAX);
    have[0] = true;
    have[1] = base_code(lang->current, candidates[1]);
    memcpy(candidates[2], lang->fallback, EAR_LANG_CODE_MAX);
    have[2] = true;
    have[3] = base_code(lang->fallback, candidates[3]);
    size_t n = 0;
    for (size_t i = 0; i < 4; i++) {
        if (!have[i]) continue;
        bool seen = false;
        for (size_t j = 0; j < n; j++) seen = seen || strcmp(codes[j], candidates[i]) == 0;
        if (!seen) memcpy(codes[n++], candidates[i], EAR_LANG_CODE_MAX);
    }
    return n;
}

/* ---- Lifetime ------------------------------------------------------------------- */

ear_lang_config ear_lang_config_default(void) {
    ear_lang_config c = {.fallback = "en", .allocator = NULL};
    return c;
}

ear_result ear_lang_create(const ear_lang_config *config, ear_lang **out_lang) {
    if (!out_lang) return EAR_E_INVALID_ARG;
    ear_lang_config c = config ? *config : ear_lang_config_default();
    char fallback[EAR_LANG_CODE_MAX];
    if (ear_lang_normalize(c.fallback ? c.fallback : "en", fallback, sizeof fallback) != EAR_OK)
        return EAR_E_INVALID_ARG;

    ear_allocator alloc = ear_allocator_resolve(c.allocator);
    ear_lang *lang = alloc.alloc_fn(sizeof *lang, alloc.user);
    if (!lang) return EAR_E_OUT_OF_MEMORY;
    memset(lang, 0, sizeof *lang);
    lang->alloc = alloc;
    memcpy(lang->fallback, fallback, sizeof fallback);
    memcpy(lang->current, fallback, sizeof fallback);
    *out_lang = lang;
    return EAR_OK;
}

void ear_lang_destroy(ear_lang *lang) {
    if (!lang) return;
    for (size_t i = 0; i < lang->table_count; i++) {
        table_clear(lang, lang->tables[i]);
        mem_free(lang, lang->tables[i]);
    }
    mem_free(lang, lang->tables);
    table_clear(lang, &lang->warned);
    mem_free(lang, lang);
}

/* ---- Parsing -------------------------------------------------------------------- */

static bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

typedef struct load_state {
    ear_lang *lang;
    table *table;
    const char *name;
    ear_lang_load_info *info;
    char *scratch; /* holds one unescaped text */
    size_t scratch_size;
} load_state;

static void report(load_state *st, size_t line, const char *what) {
    ear_log(EAR_LOG_ERROR, "lang", "%s:%zu: %s", st->name, line, what);
    if (st->info) {
        if (st->info->first_error[0] == '\0')
            snprintf(st->info->first_error, sizeof st->info->first_error, "%s:%zu: %s",
                     st->name, line, what);
        st->info->malformed_lines++;
    }
}

/* Parses one line (without its '\n'). Returns false only when memory runs out. */
static bool parse_line(load_state *st, const char *line, size_t len, size_t line_no) {
    if (len > 0 && line[len - 1] == '\r') len--; /* files written on Windows */
    size_t start = 0;
    while (start < len && is_blank(line[start])) start++;
    if (start == len || line[start] == '#') return true;

    if (!ear_utf8_valid(line, len) || memchr(line, '\0', len)) {
        report(st, line_no, "not valid UTF-8 text");
        return true;
    }
    const char *eq = memchr(line + start, '=', len - start);
    if (!eq) {
        report(st, line_no, "no '=' (expected: key = text)");
        return true;
    }
    size_t key_end = (size_t)(eq - line);
    while (key_end > start && is_blank(line[key_end - 1])) key_end--;
    if (key_end == start) {
        report(st, line_no, "empty key before '='");
        return true;
    }
    size_t text_start = (size_t)(eq - line) + 1, text_end = len;
    while (text_start < text_end && is_blank(line[text_start])) text_start++;
    while (text_end > text_start && is_blank(line[text_end - 1])) text_end--;

    /* Unescape into scratch; the key is copied there too, after the text. */
    size_t key_len = key_end - start;
    size_t need = (text_end - text_start) + 1 + key_len + 1;
    if (need > st->scratch_size) {
        char *grown = mem_realloc(st->lang, st->scratch, need);
        if (!grown) return false;
        st->scratch = grown;
        st->scratch_size = need;
    }
    size_t n = 0;
    for (size_t i = text_start; i < text_end; i++) {
        char c = line[i];
        if (c != '\\') {
            st->scratch[n++] = c;
            continue;
        }
        char next = i + 1 < text_end ? line[i + 1] : '\0';
        if (next == 'n')
            st->scratch[n++] = '\n';
        else if (next == '\\')
            st->scratch[n++] = '\\';
        else {
            char what[64];
            if (next == '\0')
                snprintf(what, sizeof what, "a lone '\\' at the end of the text");
            else
                snprintf(what, sizeof what, "unknown escape '\\%c' (use \\n or \\\\)", next);
            report(st, line_no, what);
            return true;
        }
        i++;
    }
    char *key = st->scratch + n + 1;
    memcpy(key, line + start, key_len);
    key[key_len] = '\0';
    if (!table_put(st->lang, st->table, key, st->scratch, n)) return false;
    if (st->info) st->info->entries++;
    return true;
}

static ear_result load_buffer(ear_lang *lang, const char *code, const char *text, size_t size,
                              const char *name, ear_lang_load_info *info) {
    table *t = get_or_add_table(lang, code);
    if (!t) return EAR_E_OUT_OF_MEMORY;
    load_state st = {lang, t, name, info, NULL, 0};
    size_t pos = 0;
    if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) pos = 3; /* byte order mark */
    ear_result result = EAR_OK;
    for (size_t line_no = 1; pos < size; line_no++) {
        const char *nl = memchr(text + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - (text + pos)) : size - pos;
        if (!parse_line(&st, text + pos, len, line_no)) {
            result = EAR_E_OUT_OF_MEMORY;
            break;
        }
        pos += len + 1;
    }
    mem_free(lang, st.scratch);
    return result;
}

static void reset_info(ear_lang_load_info *info) {
    if (info) memset(info, 0, sizeof *info);
}

static ear_result load_file(ear_lang *lang, const char *code, const char *path,
                            ear_lang_load_info *info) {
    char *data = NULL;
    size_t size = 0;
    /* A regular file of at most EAR_FILE_MAX_DOCUMENT_BYTES, checked on the open
     * descriptor (core.md): a FIFO is refused, not waited on. */
    char why[256];
    ear_result r = ear_file_read(path, EAR_FILE_MAX_DOCUMENT_BYTES, &lang->alloc, &data, &size,
                                 why, sizeof why);
    if (r != EAR_OK) {
        if (r != EAR_E_OUT_OF_MEMORY) {
            ear_log(EAR_LOG_ERROR, "lang", "cannot read %s", why);
            if (info) {
                info->unreadable_files++;
                if (info->first_error[0] == '\0')
                    snprintf(info->first_error, sizeof info->first_error, "%s", why);
            }
        }
        return r;
    }
    if (info) info->files++;
    r = load_buffer(lang, code, data, size, path, info);
    mem_free(lang, data);
    return r;
}

ear_result ear_lang_load_text(ear_lang *lang, const char *code, const char *text, size_t size,
                              const char *name, ear_lang_load_info *info) {
    char norm[EAR_LANG_CODE_MAX];
    if (!lang || !code || (!text && size > 0)) return EAR_E_INVALID_ARG;
    if (ear_lang_normalize(code, norm, sizeof norm) != EAR_OK) return EAR_E_INVALID_ARG;
    reset_info(info);
    return load_buffer(lang, norm, text ? text : "", size, name ? name : "<text>", info);
}

ear_result ear_lang_load_file(ear_lang *lang, const char *code, const char *path,
                              ear_lang_load_info *info) {
    char norm[EAR_LANG_CODE_MAX];
    if (!lang || !code || !path) return EAR_E_INVALID_ARG;
    if (ear_lang_normalize(code, norm, sizeof norm) != EAR_OK) return EAR_E_INVALID_ARG;
    reset_info(info);
    return load_file(lang, norm, path, info);
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

ear_result ear_lang_load_dir(ear_lang *lang, const char *dir, ear_lang_load_info *info) {
    if (!lang || !dir) return EAR_E_INVALID_ARG;
    reset_info(info);
    DIR *d = opendir(dir);
    if (!d) {
        ear_log(EAR_LOG_ERROR, "lang", "%s: cannot open the translations folder: %s", dir,
                strerror(errno));
        return EAR_E_NOT_FOUND;
    }
    /* Collect the names first so files load in a stable order. */
    char **names = NULL;
    size_t count = 0, capacity = 0;
    ear_result result = EAR_OK;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || strcmp(de->d_name + len - 5, ".lang") != 0) continue;
        if (count == capacity) {
            size_t grown_capacity = capacity ? capacity * 2 : 8;
            char **grown = mem_realloc(lang, names, grown_capacity * sizeof *names);
            if (!grown) {
                result = EAR_E_OUT_OF_MEMORY;
                break;
            }
            names = grown;
            capacity = grown_capacity;
        }
        names[count] = mem_alloc(lang, len + 1);
        if (!names[count]) {
            result = EAR_E_OUT_OF_MEMORY;
            break;
        }
        memcpy(names[count++], de->d_name, len + 1);
    }
    closedir(d);
    if (result == EAR_OK && count > 1) qsort(names, count, sizeof *names, compare_names);

    size_t dir_len = strlen(dir);
    for (size_t i = 0; i < count && result == EAR_OK; i++) {
        size_t len = strlen(names[i]);
        char code_text[EAR_LANG_CODE_MAX], code[EAR_LANG_CODE_MAX];
        bool valid = len - 5 < sizeof code_text;
        if (valid) {
            memcpy(code_text, names[i], len - 5);
            code_text[len - 5] = '\0';
            valid = ear_lang_normalize(code_text, code, sizeof code) == EAR_OK;
        }
        if (!valid) {
            ear_log(EAR_LOG_WARN, "lang", "%s/%s: not a language code; file skipped", dir,
                    names[i]);
            continue;
        }
        char *path = mem_alloc(lang, dir_len + 1 + len + 1);
        if (!path) {
            result = EAR_E_OUT_OF_MEMORY;
            break;
        }
        snprintf(path, dir_len + 1 + len + 1, "%s/%s", dir, names[i]);
        ear_result r = load_file(lang, code, path, info);
        if (r == EAR_E_OUT_OF_MEMORY) result = r;
        mem_free(lang, path);
    }
    for (size_t i = 0; i < count; i++) mem_free(lang, names[i]);
    mem_free(lang, names);
    return result;
}

ear_result ear_lang_set_text(ear_lang *lang, const char *code, const char *key,
                             const char *text) {
    char norm[EAR_LANG_CODE_MAX];
    if (!lang || !code || !key || !text || key[0] == '\0') return EAR_E_INVALID_ARG;
    if (ear_lang_normalize(code, norm, sizeof norm) != EAR_OK) return EAR_E_INVALID_ARG;
    table *t = get_or_add_table(lang, norm);
    if (!t || !table_put(lang, t, key, text, strlen(text))) return EAR_E_OUT_OF_MEMORY;
    return EAR_OK;
}

/* ---- Languages ------------------------------------------------------------------ */

ear_result ear_lang_set_language(ear_lang *lang, const char *code) {
    char norm[EAR_LANG_CODE_MAX];
    if (!lang || !code) return EAR_E_INVALID_ARG;
    if (ear_lang_normalize(code, norm, sizeof norm) != EAR_OK) return EAR_E_INVALID_ARG;
    memcpy(lang->current, norm, sizeof norm);
    return EAR_OK;
}

const char *ear_lang_language(const ear_lang *lang) {
    return lang ? lang->current : NULL;
}

const char *ear_lang_fallback(const ear_lang *lang) {
    return lang ? lang->fallback : NULL;
}

bool ear_lang_has_language(const ear_lang *lang, const char *code) {
    char norm[EAR_LANG_CODE_MAX], base[EAR_LANG_CODE_MAX];
    if (!lang || !code || ear_lang_normalize(code, norm, sizeof norm) != EAR_OK) return false;
    if (find_table(lang, norm, NULL) || ear__lang_builtin_has(norm)) return true;
    return base_code(norm, base) &&
           (find_table(lang, base, NULL) || ear__lang_builtin_has(base));
}

size_t ear_lang_language_count(const ear_lang *lang) {
    return lang ? lang->table_count : 0;
}

const char *ear_lang_language_at(const ear_lang *lang, size_t index) {
    if (!lang || index >= lang->table_count) return NULL;
    return lang->tables[index]->code;
}

/* ---- Lookup --------------------------------------------------------------------- */

/* The text along the chain, or NULL when nothing but the key itself is left. */
static const char *resolve(const ear_lang *lang, const char *key) {
    char codes[4][EAR_LANG_CODE_MAX];
    size_t n = chain_codes(lang, codes);
    for (size_t i = 0; i < n; i++) {
        const table *t = find_table(lang, codes[i], NULL);
        const char *text = t ? table_get(t, key) : NULL;
        if (text) return text;
    }
    for (size_t i = 0; i < n; i++) {
        const char *text = ear__lang_builtin_get(codes[i], key);
        if (text) return text;
    }
    return ear__lang_builtin_get("en", key);
}

const char *ear_lang_get(ear_lang *lang, const char *key) {
    if (!lang || !key) return key;
    const char *text = resolve(lang, key);
    if (text) return text;
    if (!table_get(&lang->warned, key)) {
        ear_log(EAR_LOG_WARN, "lang", "no text for '%s' (language %s, fallback %s)", key,
                lang->current, lang->fallback);
        /* If memory runs out the key is simply warned about again next time. */
        (void)table_put(lang, &lang->warned, key, "", 0);
    }
    return key;
}

/* Appends n bytes to out when they fit; always counts them. */
static void emit(char *out, size_t out_size, size_t *len, const char *s, size_t n) {
    if (out && *len + n < out_size) memcpy(out + *len, s, n);
    *len += n;
}

static size_t expand(const char *pattern, const ear_lang_arg *args, size_t arg_count, char *out,
                     size_t out_size) {
    size_t len = 0;
    for (const char *p = pattern; *p;) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            emit(out, out_size, &len, p, 1);
            p += 2;
            continue;
        }
        if (*p == '{') {
            const char *close = strchr(p + 1, '}');
            if (close) {
                size_t name_len = (size_t)(close - (p + 1));
                const ear_lang_arg *found = NULL;
                for (size_t i = 0; i < arg_count && !found; i++) {
                    if (args[i].name && strlen(args[i].name) == name_len &&
                        memcmp(args[i].name, p + 1, name_len) == 0)
                        found = &args[i];
                }
                if (found) {
                    const char *v = found->value ? found->value : "";
                    emit(out, out_size, &len, v, strlen(v));
                    p = close + 1;
                    continue;
                }
            }
        }
        emit(out, out_size, &len, p, 1);
        p++;
    }
    return len;
}

ear_result ear_lang_format(ear_lang *lang, const char *key, const ear_lang_arg *args,
                           size_t arg_count, char *out, size_t out_size, size_t *out_needed) {
    if (!lang || !key || (!args && arg_count > 0) || (!out && out_size > 0))
        return EAR_E_INVALID_ARG;
    const char *pattern = ear_lang_get(lang, key);
    size_t needed = expand(pattern, args, arg_count, NULL, 0);
    if (out_needed) *out_needed = needed;
    if (needed + 1 > out_size) return EAR_E_INVALID_ARG;
    expand(pattern, args, arg_count, out, out_size);
    out[needed] = '\0';
    return EAR_OK;
}

/* ---- Start language ------------------------------------------------------------- */

ear_result ear_lang_choose_start(const char *saved, const char *engine_setting, bool headless,
                                 char *out, size_t out_size) {
    if (!out || out_size < EAR_LANG_CODE_MAX) return EAR_E_INVALID_ARG;
    if (saved && saved[0] && ear_lang_normalize(saved, out, out_size) == EAR_OK) return EAR_OK;
    if (engine_setting && engine_setting[0] &&
        ear_lang_normalize(engine_setting, out, out_size) == EAR_OK)
        return EAR_OK;
    if (!headless) {
        static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
        for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
            const char *value = getenv(vars[i]);
            if (!value || !value[0]) continue;
            /* The first variable that is set decides, as in POSIX; a value that is
             * not a language code (a path, say) falls through to "en". */
            if (ear_lang_normalize(value, out, out_size) == EAR_OK) return EAR_OK;
            break;
        }
    }
    memcpy(out, "en", 3);
    return EAR_OK;
}
