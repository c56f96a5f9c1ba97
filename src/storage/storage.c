/* SPDX-License-Identifier: Zlib */
/*
 * Saves. A store is an array of items (key, value) in insertion order plus an
 * open-addressing index (linear probing, power-of-two capacity, at most half full)
 * whose slots hold item position + 1 (0 is empty). Removing an item shifts the
 * array and rebuilds the index: saves hold tens or hundreds of keys and removal is
 * rare, so simplicity wins over O(1).
 *
 * Invariants: every key satisfies valid_key and every value is valid UTF-8 without
 * NUL; keys are unique; `dirty` is true exactly when the items differ from what
 * the file holds (or the file is plain and should be rewritten encrypted).
 *
 * This file is the store: its items, the text format (parse_text, serialize), and the
 * load and save that put them together. What keeps a save safe on disk (links followed,
 * bounded reads, the temporary file and rename, fsync, `.broken`) is files.c; the crypto
 * (libsodium: the key, sealing, opening) is crypto.c. Both sit below this file in
 * src/storage/ORDER and know nothing of the store. The key is derived once at creation
 * and wiped in ear_storage_destroy.
 */
#include "earshot/storage.h"

#include "storage_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct item {
    char *key;
    char *value;
    uint32_t hash;
} item;

struct ear_storage {
    ear_allocator alloc;
    char *path;        /* NULL for an in-memory store */
    char *broken_path; /* where a broken file was moved, or NULL */
    item *items;
    size_t count, capacity;
    size_t *index; /* item position + 1, 0 when empty */
    size_t index_capacity;
    bool dirty;
    bool can_save;
    bool encrypt;
    ear_result load_result;
    unsigned char key[EAR__SAVE_KEY_LEN];
    char error[768];
};

/* ---- Memory --------------------------------------------------------------------- */

static void *mem_alloc(const ear_storage *s, size_t size) {
    return s->alloc.alloc_fn(size, s->alloc.user);
}

static void *mem_realloc(const ear_storage *s, void *ptr, size_t size) {
    return s->alloc.realloc_fn(ptr, size, s->alloc.user);
}

static void mem_free(const ear_storage *s, void *ptr) {
    if (ptr) s->alloc.free_fn(ptr, s->alloc.user);
}

static char *mem_strndup(const ear_storage *s, const char *text, size_t len) {
    char *copy = mem_alloc(s, len + 1);
    if (!copy) return NULL;
    memcpy(copy, text, len);
    copy[len] = '\0';
    return copy;
}

/* A growable byte buffer from the store's allocator. */
typedef struct buffer {
    char *data;
    size_t len, capacity;
} buffer;

static bool buffer_reserve(const ear_storage *s, buffer *b, size_t extra) {
    if (b->len + extra <= b->capacity) return true;
    size_t capacity = b->capacity ? b->capacity : 256;
    while (capacity < b->len + extra) capacity *= 2;
    char *data = mem_realloc(s, b->data, capacity);
    if (!data) return false;
    b->data = data;
    b->capacity = capacity;
    return true;
}

static bool buffer_append(const ear_storage *s, buffer *b, const void *bytes, size_t n) {
    if (!buffer_reserve(s, b, n)) return false;
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
    return true;
}

static void buffer_free(const ear_storage *s, buffer *b, bool wipe) {
    if (b->data && wipe) ear__save_wipe(b->data, b->capacity);
    mem_free(s, b->data);
    b->data = NULL;
    b->len = b->capacity = 0;
}

/* ---- Errors --------------------------------------------------------------------- */

static void set_error(ear_storage *s, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void set_error(ear_storage *s, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(s->error, sizeof s->error, format, args);
    va_end(args);
    ear_log(EAR_LOG_ERROR, "storage", "%s", s->error);
}

/* ---- Text rules ----------------------------------------------------------------- */

static bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

static bool valid_key(const char *key) {
    size_t n = strlen(key);
    if (n == 0 || key[0] == '#' || is_blank(key[0]) || is_blank(key[n - 1])) return false;
    if (strpbrk(key, "=\n\r")) return false;
    return ear_utf8_valid(key, n) && !memchr(key, 0, n);
}

static bool valid_value(const char *value) {
    return ear_utf8_valid(value, strlen(value));
}

/* ---- Items and index -------------------------------------------------------------- */

/* The position of key in items, or SIZE_MAX. */
static size_t find_item(const ear_storage *s, const char *key) {
    if (!s->index_capacity) return SIZE_MAX;
    uint32_t hash = ear_fnv1a32_str(key);
    size_t mask = s->index_capacity - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        size_t slot = s->index[i];
        if (slot == 0) return SIZE_MAX;
        const item *it = &s->items[slot - 1];
        if (it->hash == hash && strcmp(it->key, key) == 0) return slot - 1;
    }
}

static void index_insert(ear_storage *s, size_t position) {
    size_t mask = s->index_capacity - 1;
    size_t i = s->items[position].hash & mask;
    while (s->index[i]) i = (i + 1) & mask;
    s->index[i] = position + 1;
}

static bool index_rebuild(ear_storage *s, size_t capacity) {
    if (capacity != s->index_capacity) {
        size_t *index = mem_alloc(s, capacity * sizeof *index);
        if (!index) return false;
        mem_free(s, s->index);
        s->index = index;
        s->index_capacity = capacity;
    }
    memset(s->index, 0, s->index_capacity * sizeof *s->index);
    for (size_t i = 0; i < s->count; i++) index_insert(s, i);
    return true;
}

/* Sets key to the first value_len bytes of value; both already valid. Marks dirty
 * when the stored value changes. On failure nothing changes. */
static ear_result put(ear_storage *s, const char *key, size_t key_len, const char *value,
                      size_t value_len) {
    char *lookup = mem_strndup(s, key, key_len);
    if (!lookup) return EAR_E_OUT_OF_MEMORY;
    size_t pos = find_item(s, lookup);
    if (pos != SIZE_MAX) {
        mem_free(s, lookup);
        item *it = &s->items[pos];
        if (strlen(it->value) == value_len && memcmp(it->value, value, value_len) == 0)
            return EAR_OK;
        char *copy = mem_strndup(s, value, value_len);
        if (!copy) return EAR_E_OUT_OF_MEMORY;
        mem_free(s, it->value);
        it->value = copy;
        s->dirty = true;
        return EAR_OK;
    }
    char *value_copy = mem_strndup(s, value, value_len);
    if (!value_copy) {
        mem_free(s, lookup);
        return EAR_E_OUT_OF_MEMORY;
    }
    if (s->count == s->capacity) {
        size_t capacity = s->capacity ? s->capacity * 2 : 16;
        item *items = mem_realloc(s, s->items, capacity * sizeof *items);
        if (!items) goto out_of_memory;
        s->items = items;
        s->capacity = capacity;
    }
    if ((s->count + 1) * 2 > s->index_capacity) {
        size_t capacity = s->index_capacity ? s->index_capacity * 2 : 32;
        if (!index_rebuild(s, capacity)) goto out_of_memory;
    }
    s->items[s->count] = (item){lookup, value_copy, ear_fnv1a32_str(lookup)};
    index_insert(s, s->count);
    s->count++;
    s->dirty = true;
    return EAR_OK;

out_of_memory:
    mem_free(s, lookup);
    mem_free(s, value_copy);
    return EAR_E_OUT_OF_MEMORY;
}

static void clear_items(ear_storage *s) {
    for (size_t i = 0; i < s->count; i++) {
        mem_free(s, s->items[i].key);
        mem_free(s, s->items[i].value);
    }
    s->count = 0;
    if (s->index) memset(s->index, 0, s->index_capacity * sizeof *s->index);
}

/* ---- Parsing -------------------------------------------------------------------- */

/* Fills the (empty) store from plain text. On EAR_E_FORMAT the reason is written to
 * why and the store is left empty. */
static ear_result parse_text(ear_storage *s, const char *text, size_t size, char *why,
                             size_t why_size) {
    size_t pos = 0;
    if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) pos = 3;
    if (!ear_utf8_valid(text + pos, size - pos) || memchr(text + pos, 0, size - pos)) {
        snprintf(why, why_size, "is not UTF-8 text");
        return EAR_E_FORMAT;
    }
    buffer value = {0};
    ear_result result = EAR_OK;
    for (size_t line_no = 1; pos < size && result == EAR_OK; line_no++) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - line) : size - pos;
        pos += len + 1;
        /* A raw CR can only come from an editor (values escape theirs). */
        if (len > 0 && line[len - 1] == '\r') len--;
        size_t start = 0;
        while (start < len && is_blank(line[start])) start++;
        if (start == len || line[start] == '#') continue;
        const char *eq = memchr(line, '=', len);
        if (!eq) {
            snprintf(why, why_size, "line %zu has no '=' (expected: key = value)", line_no);
            result = EAR_E_FORMAT;
            break;
        }
        size_t key_end = (size_t)(eq - line);
        while (key_end > start && is_blank(line[key_end - 1])) key_end--;
        if (key_end == start) {
            snprintf(why, why_size, "line %zu has an empty key", line_no);
            result = EAR_E_FORMAT;
            break;
        }
        /* The writer puts exactly one space after '='; everything after it is the
         * value, so leading and trailing spaces survive. */
        size_t v = (size_t)(eq - line) + 1;
        if (v < len && line[v] == ' ') v++;
        value.len = 0;
        if (!buffer_reserve(s, &value, len - v + 1)) {
            result = EAR_E_OUT_OF_MEMORY;
            break;
        }
        for (size_t i = v; i < len; i++) {
            char c = line[i];
            if (c == '\\' && i + 1 < len) {
                char next = line[i + 1];
                if (next == '\\' || next == 'n' || next == 'r') {
                    c = next == 'n' ? '\n' : next == 'r' ? '\r' : '\\';
                    i++;
                }
                /* Any other backslash is kept as written: Earshot never writes one,
                 * and a hand-edited file should not be lost over it. */
            }
            value.data[value.len++] = c;
        }
        result = put(s, line + start, key_end - start, value.data, value.len);
    }
    buffer_free(s, &value, true);
    if (result != EAR_OK) clear_items(s);
    return result;
}

/* ---- Loading -------------------------------------------------------------------- */

static void load(ear_storage *s) {
    buffer file = {0};
    const char *kind = NULL;
    char *real = ear__save_target(&s->alloc, s->path, &kind);
    if (!real) {
        s->load_result = errno == ENOMEM ? EAR_E_OUT_OF_MEMORY : EAR_E_IO;
        s->can_save = false;
        if (kind)
            set_error(s,
                      "save '%s' is %s, not a file; it is not read or written (saving is "
                      "disabled)",
                      s->path, kind);
        else
            set_error(s,
                      "save '%s': cannot be read (%s); saving is disabled so it is not "
                      "overwritten",
                      s->path, strerror(errno));
        return;
    }
    ear__save_remove_stale_temps(s->path, real);
    char why_read[512] = "";
    ear_result r =
        ear__save_read(&s->alloc, real, &file.data, &file.len, why_read, sizeof why_read);
    if (r == EAR_OK) file.capacity = file.len + 1;
    if (r == EAR_E_NOT_FOUND) {
        mem_free(s, real);
        buffer_free(s, &file, false);
        return;
    }
    if (r != EAR_OK) {
        mem_free(s, real);
        s->load_result = r == EAR_E_OUT_OF_MEMORY ? r : EAR_E_IO;
        s->can_save = false;
        set_error(s,
                  "save '%s': cannot be read (%s); saving is disabled so it is not "
                  "overwritten",
                  s->path, why_read);
        buffer_free(s, &file, false);
        return;
    }

    char why[256] = "";
    ear_result result = EAR_OK;
    bool encrypted = ear__save_is_sealed(file.data, file.len);
    if (encrypted) {
        buffer plain = {0};
        size_t plain_size = 0;
        if (!s->encrypt) {
            snprintf(why, sizeof why, "is encrypted but no secret was given");
            result = EAR_E_CRYPTO;
        } else {
            result = ear__save_opened_size(file.len, &plain_size, why, sizeof why);
        }
        if (result == EAR_OK && !buffer_reserve(s, &plain, plain_size + 1))
            result = EAR_E_OUT_OF_MEMORY;
        if (result == EAR_OK)
            result = ear__save_open(s->key, file.data, file.len, (unsigned char *)plain.data,
                                    &plain.len, why, sizeof why);
        if (result == EAR_OK) result = parse_text(s, plain.data, plain.len, why, sizeof why);
        buffer_free(s, &plain, true);
    } else {
        result = parse_text(s, file.data, file.len, why, sizeof why);
    }
    buffer_free(s, &file, true);
    if (result == EAR_OK) {
        /* The file matches the store, except that a plain file is rewritten
         * encrypted at the next save when a secret is set. */
        s->dirty = !encrypted && s->encrypt;
        mem_free(s, real);
        return;
    }
    s->load_result = result;
    s->dirty = false;
    if (result == EAR_E_OUT_OF_MEMORY) {
        mem_free(s, real);
        s->can_save = false;
        set_error(s, "save '%s': out of memory while loading; saving is disabled", s->path);
        return;
    }
    s->broken_path = ear__save_move_aside(&s->alloc, real);
    mem_free(s, real);
    if (s->broken_path) {
        set_error(s, "save '%s' %s; moved to '%s' and starting empty", s->path, why,
                  s->broken_path);
    } else {
        s->can_save = false;
        set_error(s,
                  "save '%s' %s, and it could not be moved to '%s.broken' (%s); saving "
                  "is disabled so it is not overwritten",
                  s->path, why, s->path, strerror(errno));
    }
}

/* ---- Lifetime ------------------------------------------------------------------- */

ear_storage_config ear_storage_config_default(void) {
    ear_storage_config c = {NULL, NULL, 0, NULL};
    return c;
}

ear_result ear_storage_create(const ear_storage_config *config, ear_storage **out_storage) {
    if (!out_storage) return EAR_E_INVALID_ARG;
    ear_storage_config c = config ? *config : ear_storage_config_default();
    if ((c.secret == NULL) != (c.secret_size == 0)) return EAR_E_INVALID_ARG;
    if (c.secret) {
        ear_result r = ear__save_crypto_init();
        if (r != EAR_OK) return r;
    }

    ear_allocator alloc = ear_allocator_resolve(c.allocator);
    ear_storage *s = alloc.alloc_fn(sizeof *s, alloc.user);
    if (!s) return EAR_E_OUT_OF_MEMORY;
    memset(s, 0, sizeof *s);
    s->alloc = alloc;
    s->can_save = true;
    s->load_result = EAR_OK;
    if (c.path) {
        s->path = mem_strndup(s, c.path, strlen(c.path));
        if (!s->path) {
            mem_free(s, s);
            return EAR_E_OUT_OF_MEMORY;
        }
    }
    if (c.secret) {
        s->encrypt = true;
        ear__save_derive_key(s->key, c.secret, c.secret_size);
    }
    if (s->path) load(s);
    *out_storage = s;
    return EAR_OK;
}

void ear_storage_destroy(ear_storage *storage) {
    if (!storage) return;
    clear_items(storage);
    ear__save_wipe(storage->key, sizeof storage->key);
    mem_free(storage, storage->items);
    mem_free(storage, storage->index);
    mem_free(storage, storage->path);
    mem_free(storage, storage->broken_path);
    mem_free(storage, storage);
}

/* ---- Saving --------------------------------------------------------------------- */

static bool serialize(const ear_storage *s, buffer *out) {
    /* The reader skips one byte order mark at the start of the text, so a first key that
     * begins with U+FEFF (a valid key) gets one written before it, or it would lose it. */
    if (s->count > 0 && strncmp(s->items[0].key, "\xEF\xBB\xBF", 3) == 0 &&
        !buffer_append(s, out, "\xEF\xBB\xBF", 3))
        return false;
    for (size_t i = 0; i < s->count; i++) {
        const item *it = &s->items[i];
        if (!buffer_append(s, out, it->key, strlen(it->key)) ||
            !buffer_append(s, out, " = ", 3))
            return false;
        for (const char *p = it->value; *p; p++) {
            const char *esc = *p == '\\'   ? "\\\\"
                              : *p == '\n' ? "\\n"
                              : *p == '\r' ? "\\r"
                                           : NULL;
            if (!(esc ? buffer_append(s, out, esc, 2) : buffer_append(s, out, p, 1)))
                return false;
        }
        if (!buffer_append(s, out, "\n", 1)) return false;
    }
    return true;
}

static ear_result encrypt(const ear_storage *s, const buffer *plain, buffer *out) {
    if (!buffer_reserve(s, out, ear__save_sealed_size(plain->len))) return EAR_E_OUT_OF_MEMORY;
    return ear__save_seal(s->key, plain->data, plain->len, (unsigned char *)out->data,
                          &out->len);
}

ear_result ear_storage_save(ear_storage *storage) {
    if (!storage) return EAR_E_INVALID_ARG;
    ear_storage *s = storage;
    if (!s->dirty) return EAR_OK;
    if (!s->path) {
        s->dirty = false;
        return EAR_OK;
    }
    if (!s->can_save) {
        set_error(s,
                  "save '%s': not written, saving is disabled because the file on disk "
                  "could not be read or moved aside",
                  s->path);
        return EAR_E_STATE;
    }
    buffer plain = {0}, sealed = {0};
    ear_result result = EAR_OK;
    if (!serialize(s, &plain))
        result = EAR_E_OUT_OF_MEMORY;
    else if (s->encrypt)
        result = encrypt(s, &plain, &sealed);
    const char *kind = NULL;
    char *file = result == EAR_OK ? ear__save_target(&s->alloc, s->path, &kind) : NULL;
    if (result == EAR_OK && !file) {
        result = errno == ENOMEM ? EAR_E_OUT_OF_MEMORY : EAR_E_IO;
        if (kind)
            set_error(s, "save '%s': not written, it is %s, not a file", s->path, kind);
        else
            set_error(s, "save '%s': not written, its path cannot be followed (%s)", s->path,
                      strerror(errno));
    } else if (result == EAR_OK) {
        char why[600];
        const buffer *bytes = s->encrypt ? &sealed : &plain;
        if (!ear__save_write(file, bytes->data, bytes->len, why, sizeof why)) {
            result = EAR_E_IO;
            set_error(s, "save '%s': %s; the previous save is intact", s->path, why);
        }
    } else {
        set_error(s, "save '%s': %s", s->path,
                  result == EAR_E_CRYPTO ? "encryption failed" : "out of memory");
    }
    mem_free(s, file);
    buffer_free(s, &plain, true);
    buffer_free(s, &sealed, false);
    if (result == EAR_OK) s->dirty = false;
    return result;
}

/* ---- State ---------------------------------------------------------------------- */

bool ear_storage_is_dirty(const ear_storage *storage) {
    return storage && storage->dirty;
}

ear_result ear_storage_load_result(const ear_storage *storage) {
    return storage ? storage->load_result : EAR_E_INVALID_ARG;
}

const char *ear_storage_last_error(const ear_storage *storage) {
    return storage ? storage->error : "";
}

const char *ear_storage_broken_path(const ear_storage *storage) {
    return storage ? storage->broken_path : NULL;
}

bool ear_storage_can_save(const ear_storage *storage) {
    return storage && storage->can_save;
}

void ear_storage_allow_overwrite(ear_storage *storage) {
    if (storage) storage->can_save = true;
}

const char *ear_storage_path(const ear_storage *storage) {
    return storage ? storage->path : NULL;
}

/* ---- Values --------------------------------------------------------------------- */

ear_result ear_storage_set_string(ear_storage *storage, const char *key, const char *value) {
    if (!storage || !key || !value || !valid_key(key) || !valid_value(value))
        return EAR_E_INVALID_ARG;
    return put(storage, key, strlen(key), value, strlen(value));
}

ear_result ear_storage_set_int(ear_storage *storage, const char *key, int64_t value) {
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, value);
    return ear_storage_set_string(storage, key, text);
}

/* Runs number formatting and parsing in the C locale, so a game that called
 * setlocale(LC_ALL, "") still writes "0.5", not "0,5". */
typedef struct c_numeric {
    locale_t c, old;
} c_numeric;

static c_numeric c_numeric_begin(void) {
    c_numeric n = {newlocale(LC_NUMERIC_MASK, "C", (locale_t)0), (locale_t)0};
    if (n.c) n.old = uselocale(n.c);
    return n;
}

static void c_numeric_end(c_numeric n) {
    if (!n.c) return;
    uselocale(n.old);
    freelocale(n.c);
}

ear_result ear_storage_set_double(ear_storage *storage, const char *key, double value) {
    char text[40];
    c_numeric n = c_numeric_begin();
    /* The shortest of 15, 16 or 17 digits that reads back as the same double. */
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, value);
        if (value != value || strtod(text, NULL) == value) break;
    }
    c_numeric_end(n);
    return ear_storage_set_string(storage, key, text);
}

ear_result ear_storage_set_bool(ear_storage *storage, const char *key, bool value) {
    return ear_storage_set_string(storage, key, value ? "true" : "false");
}

const char *ear_storage_get_string(const ear_storage *storage, const char *key,
                                   const char *fallback) {
    if (!storage || !key) return fallback;
    size_t pos = find_item(storage, key);
    return pos == SIZE_MAX ? fallback : storage->items[pos].value;
}

static bool starts_like_number(const char *text) {
    char c = text[0];
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'i' || c == 'I' ||
           c == 'n' || c == 'N';
}

int64_t ear_storage_get_int(const ear_storage *storage, const char *key, int64_t fallback) {
    const char *text = ear_storage_get_string(storage, key, NULL);
    if (!text || !starts_like_number(text)) return fallback;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0') return fallback;
    return (int64_t)v;
}

double ear_storage_get_double(const ear_storage *storage, const char *key, double fallback) {
    const char *text = ear_storage_get_string(storage, key, NULL);
    if (!text || !starts_like_number(text)) return fallback;
    char *end = NULL;
    c_numeric n = c_numeric_begin();
    double v = strtod(text, &end);
    c_numeric_end(n);
    if (end == text || *end != '\0') return fallback;
    return v;
}

bool ear_storage_get_bool(const ear_storage *storage, const char *key, bool fallback) {
    const char *text = ear_storage_get_string(storage, key, NULL);
    if (!text) return fallback;
    if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0) return true;
    if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0) return false;
    return fallback;
}

bool ear_storage_has(const ear_storage *storage, const char *key) {
    return storage && key && find_item(storage, key) != SIZE_MAX;
}

bool ear_storage_remove(ear_storage *storage, const char *key) {
    if (!storage || !key) return false;
    size_t pos = find_item(storage, key);
    if (pos == SIZE_MAX) return false;
    mem_free(storage, storage->items[pos].key);
    mem_free(storage, storage->items[pos].value);
    memmove(&storage->items[pos], &storage->items[pos + 1],
            (storage->count - pos - 1) * sizeof *storage->items);
    storage->count--;
    /* Same capacity, so this cannot fail. */
    (void)index_rebuild(storage, storage->index_capacity);
    storage->dirty = true;
    return true;
}

void ear_storage_clear(ear_storage *storage) {
    if (!storage || storage->count == 0) return;
    clear_items(storage);
    storage->dirty = true;
}

size_t ear_storage_count(const ear_storage *storage) {
    return storage ? storage->count : 0;
}

const char *ear_storage_key_at(const ear_storage *storage, size_t index) {
    return storage && index < storage->count ? storage->items[index].key : NULL;
}

const char *ear_storage_value_at(const ear_storage *storage, size_t index) {
    return storage && index < storage->count ? storage->items[index].value : NULL;
}
