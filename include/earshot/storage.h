/* SPDX-License-Identifier: Zlib */
/*
 * Earshot saves: an ordered set of `key = value` strings, kept in memory, read
 * from one file when the store is created and written back to it by
 * ear_storage_save, optionally encrypted with XChaCha20-Poly1305.
 *
 * Guarantees:
 *   - Keys keep the order in which they were first set (and the file's order).
 *   - ear_storage_save writes nothing when nothing changed since the last load or
 *     save.
 *   - A save is atomic: a temporary file in the same folder is written and
 *     fsync'ed, renamed over the save, and the folder is fsync'ed. A crash at any
 *     moment leaves either the previous save or the new one, never a mix.
 *   - A file that cannot be read as a save (it does not decrypt, or it is not
 *     UTF-8 text of `key = value` lines) is renamed to `<file>.broken` (or
 *     `<file>.broken.1`, `.2` ... when that name is taken) before anything can
 *     overwrite it; the store then starts empty. If the rename fails, saving is
 *     disabled until ear_storage_allow_overwrite is called.
 *   - A missing file is an empty store, not an error.
 *   - The path is followed through symbolic links before every load and save: a save
 *     that is a link is read from and written to its target (the temporary file beside
 *     the target; the link stays). A path that ends at a FIFO, a device, a socket or a
 *     folder is refused at once (never waited on, never written): the store starts
 *     empty with saving disabled and ear_storage_load_result EAR_E_IO.
 *
 * The file formats and the key derivation are described in docs/modules/storage.md.
 */
#ifndef EARSHOT_STORAGE_H
#define EARSHOT_STORAGE_H

#include "earshot/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The first bytes of an encrypted save; also its associated data. */
#define EAR_STORAGE_MAGIC "EARSHOT-SAVE-ENC1\n"

typedef struct ear_storage ear_storage;

typedef struct ear_storage_config {
    /* The save file. Default NULL: in-memory store (headless runs, tests); nothing
     * is ever read or written. */
    const char *path;
    /* The game's secret (any bytes, borrowed during ear_storage_create only).
     * Default NULL: saves are written as plain text. When set, saves are
     * encrypted, plain files still load and are rewritten encrypted on the next
     * save. */
    const void *secret;
    size_t secret_size;
    /* Memory for the store. Default NULL: malloc, realloc and free. */
    const ear_allocator *allocator;
} ear_storage_config;

/* The defaults: in memory, no secret, the default allocator. Thread: any. */
ear_storage_config ear_storage_config_default(void);

/* Creates a store and loads config->path when it exists. A NULL config means the
 * defaults. The path is copied. Writes the new store to *out_storage; the caller
 * frees it with ear_storage_destroy.
 *
 * A file that cannot be used does not make creation fail: the store starts empty
 * and ear_storage_load_result / ear_storage_last_error say why (the file was
 * renamed to `<file>.broken`, or, if it could not be read or renamed, saving is
 * disabled). Creation fails only with EAR_E_INVALID_ARG (out_storage NULL, a
 * secret pointer with size 0 or the reverse), EAR_E_OUT_OF_MEMORY, or EAR_E_CRYPTO
 * when libsodium cannot be initialised; *out_storage is untouched then.
 * Thread: any (the store itself belongs to one thread afterwards). */
ear_result ear_storage_create(const ear_storage_config *config, ear_storage **out_storage);

/* Frees the store and wipes the key. It does not save: call ear_storage_save
 * first. NULL does nothing. Thread: game. */
void ear_storage_destroy(ear_storage *storage);

/* Writes the store to its file when it is dirty, atomically (see the top of this
 * header), encrypted when a secret was given. Does nothing and returns EAR_OK when
 * nothing changed or the store is in memory (the dirty flag is cleared then).
 * Returns EAR_E_STATE when saving is disabled, EAR_E_IO when the file cannot be
 * written (the previous save is intact, the store stays dirty, the reason is in
 * ear_storage_last_error and logged), EAR_E_CRYPTO when encryption fails,
 * EAR_E_OUT_OF_MEMORY. Thread: game. */
ear_result ear_storage_save(ear_storage *storage);

/* True when something changed since the last load or successful save (a plain
 * file loaded with a secret set counts as changed). Thread: game. */
bool ear_storage_is_dirty(const ear_storage *storage);

/* What happened when the file was loaded: EAR_OK (loaded, missing, or in memory),
 * EAR_E_CRYPTO (did not decrypt: tampered, wrong secret, or encrypted without a
 * secret), EAR_E_FORMAT (not a save: not UTF-8, a line without '=', ...), EAR_E_IO
 * (could not be read). Thread: game. */
ear_result ear_storage_load_result(const ear_storage *storage);

/* The last problem in words, naming the file ("save '/x/save.txt': line 3 has no
 * '=' ... ; moved to '/x/save.txt.broken'"), or "" when there was none. Owned by
 * the store, valid until the next call that changes it. Thread: game. */
const char *ear_storage_last_error(const ear_storage *storage);

/* The path the broken file was moved to, or NULL when nothing was moved.
 * Thread: game. */
const char *ear_storage_broken_path(const ear_storage *storage);

/* False when saving is disabled: a file that could not be used could not be moved
 * aside, or could not be read at all, so writing would destroy it. Thread: game. */
bool ear_storage_can_save(const ear_storage *storage);

/* Enables saving after it was disabled: the game (or player) accepts that the
 * next save overwrites the unusable file. Thread: game. */
void ear_storage_allow_overwrite(ear_storage *storage);

/* The file's path (owned by the store), or NULL for an in-memory store. Thread: game. */
const char *ear_storage_path(const ear_storage *storage);

/* ---- Values --------------------------------------------------------------------- */

/* Keys: non-empty valid UTF-8 without '=', newline or carriage return, without
 * leading or trailing spaces or tabs, not starting with '#'. Values: any valid
 * UTF-8 without NUL bytes (backslash, newline and carriage return included; they
 * are escaped in the file). */

/* Sets key to a copy of value (appended at the end when new, in place otherwise).
 * The store becomes dirty only when the value differs. Returns EAR_E_INVALID_ARG
 * for NULL arguments or a key or value that breaks the rules above,
 * EAR_E_OUT_OF_MEMORY; nothing changes on failure. Thread: game. */
ear_result ear_storage_set_string(ear_storage *storage, const char *key, const char *value);
/* Stored in decimal ("-42"). Thread: game. */
ear_result ear_storage_set_int(ear_storage *storage, const char *key, int64_t value);
/* Stored with 17 significant digits and a '.' whatever the locale, so the same
 * double reads back ("0.10000000000000001", "inf", "nan"). Thread: game. */
ear_result ear_storage_set_double(ear_storage *storage, const char *key, double value);
/* Stored as "true" or "false". Thread: game. */
ear_result ear_storage_set_bool(ear_storage *storage, const char *key, bool value);

/* The value of key, owned by the store and valid until key is set or removed or
 * the store destroyed; fallback when the key is missing (or arguments are NULL).
 * Thread: game. */
const char *ear_storage_get_string(const ear_storage *storage, const char *key,
                                   const char *fallback);
/* The value parsed as a whole decimal int64 (optional sign, no spaces, no
 * fraction); fallback when missing, unparsable or out of range. Thread: game. */
int64_t ear_storage_get_int(const ear_storage *storage, const char *key, int64_t fallback);
/* The value parsed as a whole double (strtod syntax in the C locale); fallback when
 * missing or unparsable. Thread: game. */
double ear_storage_get_double(const ear_storage *storage, const char *key, double fallback);
/* "true"/"1" or "false"/"0"; fallback for anything else. Thread: game. */
bool ear_storage_get_bool(const ear_storage *storage, const char *key, bool fallback);

/* True when key exists. Thread: game. */
bool ear_storage_has(const ear_storage *storage, const char *key);

/* Removes key; true when it existed (the store is then dirty). Thread: game. */
bool ear_storage_remove(ear_storage *storage, const char *key);

/* Removes every key (dirty when there was any). Thread: game. */
void ear_storage_clear(ear_storage *storage);

/* Iteration in insertion order: the number of keys, and the key and value at
 * index (NULL when out of range), both owned by the store and valid until the
 * next change. Thread: game. */
size_t ear_storage_count(const ear_storage *storage);
const char *ear_storage_key_at(const ear_storage *storage, size_t index);
const char *ear_storage_value_at(const ear_storage *storage, size_t index);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_STORAGE_H */
