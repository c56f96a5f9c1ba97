/* SPDX-License-Identifier: Zlib */
/*
 * The crypto of encrypted saves, all of it libsodium's: the key derived from the game's
 * secret, sealing a save's text and opening a sealed file, and wiping what held a key or
 * a save's text.
 *
 * A sealed save is EAR_STORAGE_MAGIC, a 24-byte nonce fresh from randombytes_buf, then
 * crypto_aead_xchacha20poly1305_ietf_encrypt of the text with the magic as associated
 * data (the text's length plus a 16-byte tag). The key:
 *   master = crypto_generichash(32 bytes, secret)          (BLAKE2b-256, no key)
 *   key    = crypto_kdf_derive_from_key(32 bytes, subkey 1, context "earsave1", master)
 * docs/modules/storage.md writes the same down, and test_storage decrypts a save by hand
 * with exactly these calls.
 *
 * The web build (EAR_STORAGE_NO_SODIUM) has no libsodium: ear__save_crypto_init says
 * EAR_E_UNSUPPORTED there, so no store gets a key, and sealing or opening is never asked
 * for (docs/web.md). Wiping works in both.
 *
 * The base of src/storage (src/storage/ORDER): it calls libsodium and nothing of the
 * module's. Thread: any (no state of its own; libsodium's is made once by sodium_init).
 */
#include "storage_internal.h"

#ifndef EAR_STORAGE_NO_SODIUM
#include <sodium.h>
#endif

#include <stdio.h>
#include <string.h>

#define MAGIC_LEN (sizeof EAR_STORAGE_MAGIC - 1)
/* The KDF context: exactly crypto_kdf_CONTEXTBYTES (8) characters. */
#define KDF_CONTEXT   "earsave1"
#define KDF_SUBKEY_ID 1

#ifndef EAR_STORAGE_NO_SODIUM
/* The file format's sizes are libsodium's constants. */
_Static_assert(EAR__SAVE_NONCE_LEN == crypto_aead_xchacha20poly1305_ietf_NPUBBYTES,
               "the nonce's size");
_Static_assert(EAR__SAVE_TAG_LEN == crypto_aead_xchacha20poly1305_ietf_ABYTES,
               "the tag's size");
_Static_assert(EAR__SAVE_KEY_LEN == crypto_aead_xchacha20poly1305_ietf_KEYBYTES,
               "the key's size");
#endif

void ear__save_wipe(void *p, size_t n) {
#ifdef EAR_STORAGE_NO_SODIUM
    /* sodium_memzero's promise: a volatile store the compiler may not drop. */
    volatile unsigned char *v = p;
    while (n--) *v++ = 0;
#else
    sodium_memzero(p, n);
#endif
}

ear_result ear__save_crypto_init(void) {
#ifdef EAR_STORAGE_NO_SODIUM
    ear_log(EAR_LOG_ERROR, "storage",
            "an encrypted save needs libsodium, which this build (the web build) does not "
            "have: saves here are plain text");
    return EAR_E_UNSUPPORTED;
#else
    return sodium_init() < 0 ? EAR_E_CRYPTO : EAR_OK;
#endif
}

void ear__save_derive_key(unsigned char key[EAR__SAVE_KEY_LEN], const void *secret,
                          size_t secret_size) {
#ifdef EAR_STORAGE_NO_SODIUM
    (void)secret, (void)secret_size;
    ear__save_wipe(key, EAR__SAVE_KEY_LEN); /* never called: init refused the secret */
#else
    unsigned char master[crypto_kdf_KEYBYTES];
    crypto_generichash(master, sizeof master, secret, secret_size, NULL, 0);
    crypto_kdf_derive_from_key(key, EAR__SAVE_KEY_LEN, KDF_SUBKEY_ID, KDF_CONTEXT, master);
    sodium_memzero(master, sizeof master);
#endif
}

bool ear__save_is_sealed(const void *data, size_t size) {
    return size >= MAGIC_LEN && memcmp(data, EAR_STORAGE_MAGIC, MAGIC_LEN) == 0;
}

size_t ear__save_sealed_size(size_t plain_size) {
    return MAGIC_LEN + EAR__SAVE_NONCE_LEN + plain_size + EAR__SAVE_TAG_LEN;
}

ear_result ear__save_seal(const unsigned char key[EAR__SAVE_KEY_LEN], const void *plain,
                          size_t plain_size, unsigned char *out, size_t *out_size) {
#ifdef EAR_STORAGE_NO_SODIUM
    (void)key, (void)plain, (void)plain_size, (void)out, (void)out_size;
    return EAR_E_UNSUPPORTED; /* never called: no store has a key */
#else
    memcpy(out, EAR_STORAGE_MAGIC, MAGIC_LEN);
    unsigned char *nonce = out + MAGIC_LEN;
    randombytes_buf(nonce, EAR__SAVE_NONCE_LEN);
    unsigned long long cipher_len = 0;
    if (crypto_aead_xchacha20poly1305_ietf_encrypt(
            nonce + EAR__SAVE_NONCE_LEN, &cipher_len, plain, plain_size,
            (const unsigned char *)EAR_STORAGE_MAGIC, MAGIC_LEN, NULL, nonce, key) != 0)
        return EAR_E_CRYPTO;
    *out_size = MAGIC_LEN + EAR__SAVE_NONCE_LEN + (size_t)cipher_len;
    return EAR_OK;
#endif
}

ear_result ear__save_opened_size(size_t sealed_size, size_t *out_size, char *why,
                                 size_t why_size) {
    if (sealed_size < ear__save_sealed_size(0)) {
        snprintf(why, why_size, "is too short to be an encrypted save (%zu bytes)",
                 sealed_size);
        return EAR_E_CRYPTO;
    }
    *out_size = sealed_size - ear__save_sealed_size(0);
    return EAR_OK;
}

ear_result ear__save_open(const unsigned char key[EAR__SAVE_KEY_LEN], const void *sealed,
                          size_t sealed_size, unsigned char *out, size_t *out_size, char *why,
                          size_t why_size) {
    size_t plain_size;
    ear_result r = ear__save_opened_size(sealed_size, &plain_size, why, why_size);
    if (r != EAR_OK) return r;
    const unsigned char *nonce = (const unsigned char *)sealed + MAGIC_LEN;
    const unsigned char *cipher = nonce + EAR__SAVE_NONCE_LEN;
    size_t cipher_len = sealed_size - MAGIC_LEN - EAR__SAVE_NONCE_LEN;
    unsigned long long plain_len = 0;
#ifdef EAR_STORAGE_NO_SODIUM
    (void)key, (void)cipher, (void)cipher_len, (void)out; /* never called: no key */
    if (true) {
#else
    if (crypto_aead_xchacha20poly1305_ietf_decrypt(out, &plain_len, NULL, cipher, cipher_len,
                                                   (const unsigned char *)EAR_STORAGE_MAGIC,
                                                   MAGIC_LEN, nonce, key) != 0) {
#endif
        snprintf(why, why_size,
                 "does not decrypt (it was changed, or saved with another secret)");
        return EAR_E_CRYPTO;
    }
    *out_size = (size_t)plain_len;
    return EAR_OK;
}
