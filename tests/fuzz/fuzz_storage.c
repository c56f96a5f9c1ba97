/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for saves (src/storage): the first byte picks how the rest is met.
 *   even: a plain save file, loaded without a secret and then with one; a file that loads
 *         with a secret is rewritten encrypted by the next save, which is loaded again with
 *         the secret and must hold the same keys and values in the same order (the
 *         encrypted writer and reader round trip).
 *   odd:  the bytes after EAR_STORAGE_MAGIC, loaded with a secret: the encrypted header,
 *         the nonce and the authentication (a forged or cut file must be refused).
 * A file that does not load is moved to <file>.broken (removed here after each run) and the
 * store starts empty, with a message naming the file. Seeds: tests/fuzz/seeds/storage.
 */
#include "fuzz_files.h"

#include "earshot/storage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char secret[] = "fuzz secret";

static ear_storage *open_save(const char *path, bool with_secret) {
    ear_storage_config c = ear_storage_config_default();
    c.path = path;
    if (with_secret) {
        c.secret = secret;
        c.secret_size = sizeof secret - 1;
    }
    ear_storage *s;
    if (ear_storage_create(&c, &s) != EAR_OK) abort();
    if (ear_storage_load_result(s) != EAR_OK) {
        /* Refused: empty, said so naming the file, and moved aside. */
        if (ear_storage_count(s) != 0 || !strstr(ear_storage_last_error(s), path)) abort();
        const char *broken = ear_storage_broken_path(s);
        if (broken && remove(broken) != 0) abort();
    }
    return s;
}

static bool same_items(const ear_storage *a, const ear_storage *b) {
    if (ear_storage_count(a) != ear_storage_count(b)) return false;
    for (size_t i = 0; i < ear_storage_count(a); i++)
        if (strcmp(ear_storage_key_at(a, i), ear_storage_key_at(b, i)) != 0 ||
            strcmp(ear_storage_value_at(a, i), ear_storage_value_at(b, i)) != 0)
            return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const char *path = fuzz_path("game.save");
    char save[1024];
    snprintf(save, sizeof save, "%s", path);
    if (data[0] & 1) {
        size_t magic = strlen(EAR_STORAGE_MAGIC);
        uint8_t *file = malloc(magic + size - 1);
        if (!file) return 0;
        memcpy(file, EAR_STORAGE_MAGIC, magic);
        memcpy(file + magic, data + 1, size - 1);
        fuzz_write("game.save", file, magic + size - 1);
        free(file);
        ear_storage *s = open_save(save, true);
        /* Only the writer's key can make a file that authenticates. */
        if (ear_storage_load_result(s) != EAR_E_CRYPTO) abort();
        ear_storage_destroy(s);
        remove(save);
        return 0;
    }

    fuzz_write("game.save", data + 1, size - 1);
    ear_storage *plain = open_save(save, false);
    ear_result plain_result = ear_storage_load_result(plain);
    if (plain_result == EAR_OK) {
        ear_storage *keyed = open_save(save, true);
        if (ear_storage_load_result(keyed) != EAR_OK || !same_items(plain, keyed)) abort();
        if (ear_storage_save(keyed) != EAR_OK) abort();
        ear_storage *again = open_save(save, true);
        if (ear_storage_load_result(again) != EAR_OK || !same_items(plain, again)) abort();
        ear_storage_destroy(again);
        ear_storage_destroy(keyed);
    }
    ear_storage_destroy(plain);
    remove(save);
    return 0;
}
