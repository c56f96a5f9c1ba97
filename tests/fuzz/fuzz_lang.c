/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for translation files (src/lang): each input is loaded as a `.lang`
 * file (ear_lang_load_text, and ear_lang_load_file from a file) into the table "de", then
 * every key the input could name (the text before each line's first '=') is looked up and
 * formatted with an argument. Checked: loading never fails on content (malformed lines
 * are counted, and the first is reported with its line number), the counts add up to no
 * more than the input's lines, and every lookup answers with valid UTF-8. The input is
 * also tried as a language code (ear_lang_normalize). Seeds: tests/fuzz/seeds/lang.
 */
#include "fuzz_files.h"

#include "earshot/lang.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const char *text) {
    if (!text || !ear_utf8_valid(text, strlen(text))) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ear_lang *lang;
    if (ear_lang_create(NULL, &lang) != EAR_OK) abort();
    ear_lang_load_info info;
    memset(&info, 0, sizeof info);
    if (ear_lang_load_text(lang, "de", (const char *)data, size, "fuzz.lang", &info) != EAR_OK)
        abort();
    size_t lines = 1;
    for (size_t i = 0; i < size; i++) lines += data[i] == '\n';
    if (info.entries + info.malformed_lines > lines) abort();
    if (info.malformed_lines && strncmp(info.first_error, "fuzz.lang:", 10) != 0) abort();

    ear_lang_load_info file_info;
    memset(&file_info, 0, sizeof file_info);
    const char *path = fuzz_write("de.lang", data, size);
    if (ear_lang_load_file(lang, "de-at", path, &file_info) != EAR_OK) abort();
    if (file_info.entries != info.entries || file_info.malformed_lines != info.malformed_lines)
        abort();
    if (ear_lang_set_language(lang, "de-at") != EAR_OK) abort();

    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        const char *eq = memchr(p, '=', (size_t)(stop - p));
        if (eq) {
            char key[128];
            size_t n = (size_t)(eq - p) < sizeof key - 1 ? (size_t)(eq - p) : sizeof key - 1;
            memcpy(key, p, n);
            key[n] = '\0';
            while (n > 0 && (key[n - 1] == ' ' || key[n - 1] == '\t')) key[--n] = '\0';
            char *k = key;
            while (*k == ' ' || *k == '\t') k++;
            if (*k && ear_utf8_valid(k, strlen(k))) {
                check_text(ear_lang_get(lang, k));
                char out[256];
                size_t needed = 0;
                ear_lang_arg arg = {"name", "Ada"};
                ear_result r = ear_lang_format(lang, k, &arg, 1, out, sizeof out, &needed);
                if (r == EAR_OK) check_text(out);
                if (r != EAR_OK && needed < sizeof out) abort();
            }
        }
        p = stop + 1;
    }
    char code[EAR_LANG_CODE_MAX];
    char *as_code = malloc(size + 1);
    if (as_code) {
        memcpy(as_code, data, size);
        as_code[size] = '\0';
        if (ear_lang_normalize(as_code, code, sizeof code) == EAR_OK &&
            ear_lang_set_language(lang, code) != EAR_OK)
            abort();
        free(as_code);
    }
    ear_lang_destroy(lang);
    return 0;
}
