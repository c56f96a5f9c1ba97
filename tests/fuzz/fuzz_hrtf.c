/* SPDX-License-Identifier: Zlib */
/*
 * libFuzzer target for HRTF sets (src/audio/hrtf): each input is a SOFA file's bytes,
 * written to a scratch file and loaded with ear_hrtf_load (libmysofa's HDF5 reader,
 * mysofa_check, then our checks and the filter design) at 8 kHz and 8 taps so that a file
 * that parses is quick to make. Through a file, as the engine reads sets: libmysofa
 * 1.3.1's in-memory reader (mysofa_load_data) reads out of bounds on the first truncated
 * seed (a negative-size memcpy, found here), so the loader does not offer it.
 * Checked: a load either fails with a code and a message naming the input, or gives a set
 * whose every filter tap and delay is finite, whose delays are not negative and whose
 * rings cover every direction once; a lookup anywhere gives finite filters. Seeds: the
 * first 16 KiB of the KEMAR set libmysofa1 installs (tests/fuzz/run-fuzz).
 */
#include "fuzz_files.h"

#include "earshot/hrtf.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ear_hrtf_config c = ear_hrtf_config_default();
    /* What a 64 MiB session allows (run-fuzz holds the target to 128 MiB of RSS): a file
     * whose dataspaces declare more is refused before libmysofa reads it. */
    c.max_load_bytes = (uint64_t)64 << 20;
    c.sample_rate = 8000;
    c.taps = 8;
    ear_hrtf_set *set = NULL;
    ear_hrtf_error err;
    memset(&err, 0, sizeof err);
    const char *path = fuzz_write("fuzz.sofa", data, size);
    ear_result r = ear_hrtf_load(path, &c, &set, &err);
    if (r != EAR_OK) {
        if (set || !strstr(err.message, "fuzz.sofa")) abort();
        return 0;
    }
    if (!set || set->count == 0 || set->rings == 0 || set->ring_start[set->rings] != set->count)
        abort();
    for (uint32_t i = 0; i < set->count * set->taps; i++)
        if (!isfinite(set->left[i]) || !isfinite(set->right[i])) abort();
    for (uint32_t d = 0; d < set->count; d++)
        if (!(set->delay_left[d] >= 0.0f) || !(set->delay_right[d] >= 0.0f)) abort();
    float l[EAR_HRTF_MAX_TAPS], rr[EAR_HRTF_MAX_TAPS], dl, dr;
    if (ear_hrtf_lookup(set, 37.0f, 12.0f, l, rr, &dl, &dr) != EAR_OK) abort();
    for (uint32_t i = 0; i < set->taps; i++)
        if (!isfinite(l[i]) || !isfinite(rr[i])) abort();
    ear_hrtf_free(set);
    return 0;
}
