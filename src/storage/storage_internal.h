/* SPDX-License-Identifier: Zlib */
/*
 * Internal to the storage module and its tests: the two files below the store
 * (src/storage/ORDER), crypto.c (libsodium: the key, sealing and opening a save) and
 * files.c (file safety: links followed, bounded reads, atomic writes, .broken kept).
 * Neither knows the store; each takes what it needs as arguments.
 */
#ifndef EARSHOT_STORAGE_INTERNAL_H
#define EARSHOT_STORAGE_INTERNAL_H

#include "earshot/core.h"
#include "earshot/storage.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- crypto.c ------------------------------------------------------------------------ */

/* The file format's sizes (libsodium's XChaCha20-Poly1305 IETF constants). */
#define EAR__SAVE_NONCE_LEN 24
#define EAR__SAVE_TAG_LEN   16
#define EAR__SAVE_KEY_LEN   32

/* Makes libsodium ready (sodium_init). EAR_E_CRYPTO when it cannot be; EAR_E_UNSUPPORTED
 * (logged) in a build without libsodium (the web build). */
ear_result ear__save_crypto_init(void);
/* key = crypto_kdf_derive_from_key(subkey 1, context "earsave1",
 *                                  master = crypto_generichash(32 bytes, secret)). */
void ear__save_derive_key(unsigned char key[EAR__SAVE_KEY_LEN], const void *secret,
                          size_t secret_size);
/* Zeroes n bytes in a way the compiler may not drop (sodium_memzero). */
void ear__save_wipe(void *p, size_t n);
/* Whether a file's bytes start with EAR_STORAGE_MAGIC (a sealed save). */
bool ear__save_is_sealed(const void *data, size_t size);
/* The size of plain_size bytes sealed: the magic, the nonce, the text, the tag. */
size_t ear__save_sealed_size(size_t plain_size);
/* Seals plain text into out (ear__save_sealed_size(plain_size) bytes of room) with a
 * fresh nonce; writes the size. EAR_E_CRYPTO when libsodium fails. */
ear_result ear__save_seal(const unsigned char key[EAR__SAVE_KEY_LEN], const void *plain,
                          size_t plain_size, unsigned char *out, size_t *out_size);
/* The size of the text a sealed file of sealed_size bytes holds; EAR_E_CRYPTO with the
 * reason in why ("is too short to be an encrypted save (N bytes)") when it can hold none. */
ear_result ear__save_opened_size(size_t sealed_size, size_t *out_size, char *why,
                                 size_t why_size);
/* Opens a sealed file into out (ear__save_opened_size bytes of room); writes the text's
 * size. EAR_E_CRYPTO with the reason in why when it is too short or does not decrypt
 * (changed, or sealed with another key). */
ear_result ear__save_open(const unsigned char key[EAR__SAVE_KEY_LEN], const void *sealed,
                          size_t sealed_size, unsigned char *out, size_t *out_size, char *why,
                          size_t why_size);

/* ---- files.c ------------------------------------------------------------------------- */

/* The file a save path names once symbolic links are followed (at most 40), as a new
 * string from a's memory: the path itself when it is no link, a link's target (relative
 * targets against the link's folder) otherwise. The target need not exist (a dangling
 * link is where a new save goes). NULL with errno set on failure; with *kind set ("a
 * FIFO", "a folder", "a socket", "a device"; errno EINVAL) when the path ends at
 * something that is not a regular file. */
char *ear__save_target(const ear_allocator *a, const char *save_path, const char **kind);
/* Reads a whole save through core's bounded read (ear_file_read, at most
 * EAR_FILE_MAX_SAVE_BYTES, a regular file checked on the open descriptor) into a's memory
 * (*out_data, NUL-terminated, the caller's). EAR_E_NOT_FOUND for a missing file;
 * otherwise the reason in why. */
ear_result ear__save_read(const ear_allocator *a, const char *path, char **out_data,
                          size_t *out_size, char *why, size_t why_size);
/* Removes the temporary files an interrupted save of file left beside it (its own
 * "<name>.tmp-XXXXXX" pattern, regular files of this user that no writer holds locked);
 * says in the log, naming save_path, how many. */
void ear__save_remove_stale_temps(const char *save_path, const char *file);
/* Moves an unusable file to the first free `<file>.broken`, `<file>.broken.1`, ...,
 * never replacing a file. Returns the new name (a's memory, the caller's), or NULL with
 * errno saying why. */
char *ear__save_move_aside(const ear_allocator *a, const char *file);
/* Writes bytes over file atomically: a temporary file beside it (mode 0600, write-locked
 * until after its rename), fsync'ed, renamed over file, the folder fsync'ed. On failure
 * the temporary file is removed, file is untouched and why says what failed. */
bool ear__save_write(const char *file, const void *bytes, size_t size, char *why,
                     size_t why_size);

/* Called by ear__save_write after the temporary file is written and fsync'ed (it
 * stays open, and locked, until after the rename), just before it is renamed over the save;
 * tmp_path is its name. NULL (the default) in normal use. Tests set it to stand in for a crash
 * between write and rename (the hook _exit()s in a forked child). Not thread-safe; tests only.
 */
extern void (*ear__storage_before_rename)(const char *tmp_path);

#endif
