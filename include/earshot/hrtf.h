/* SPDX-License-Identifier: Zlib */
/*
 * HRTF sets: a SOFA file (AES69) read with libmysofa, resampled to the stage's rate and
 * turned, direction by direction, into short minimum-phase filters for the two ears plus
 * each ear's delay in fractional samples. The result is plain data (ear_hrtf_set: float
 * arrays and counts) that a renderer written in C11 + libm can use as it is; libmysofa and
 * the transforms (Earshot's real FFT in double) stay inside this module. ear_hrtf_lookup
 * interpolates between measured directions.
 *
 * Directions follow SOFA: azimuth in degrees counter-clockwise from the front seen from
 * above (90 = left, 180 = behind, 270 = right), elevation in degrees up from the horizontal
 * plane (90 = above). Near-field HRTFs (sources closer than the measuring distance) are out
 * of scope: every direction uses the set's one distance.
 */
#ifndef EARSHOT_HRTF_H
#define EARSHOT_HRTF_H

#include <stddef.h>
#include <stdint.h>

#include "earshot/core.h"
#include "earshot/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest filter a set may have (taps per ear). */
#define EAR_HRTF_MAX_TAPS 256

/* The reason a load failed, naming the file. */
#define EAR_HRTF_ERROR_MAX 512
typedef struct ear_hrtf_error {
    char message[EAR_HRTF_ERROR_MAX];
    /* With EAR_E_OUT_OF_MEMORY for a file past max_load_bytes: the bytes its load would
     * take (ear_hrtf_load_bytes); else 0. */
    uint64_t needed_bytes;
} ear_hrtf_error;

typedef struct ear_hrtf_config {
    uint32_t sample_rate; /* the stage's rate the filters are made for; default 48000 */
    uint32_t taps;        /* filter length per ear, 8..EAR_HRTF_MAX_TAPS; default 112 */
    const ear_allocator *allocator; /* the set's arrays; NULL (default): malloc/free */
    /* The most a load may take (libmysofa's arrays, as the file's dataspaces declare them,
     * and the set's own): a file that declares more is refused before libmysofa reads it,
     * EAR_E_OUT_OF_MEMORY with needed_bytes. 0 (default): no limit. */
    uint64_t max_load_bytes;
} ear_hrtf_config;

/* The defaults above. Thread: any. */
ear_hrtf_config ear_hrtf_config_default(void);

/* A loaded set: plain arrays, read-only once loaded (any number of threads may read it).
 * Direction d's left filter is left[d * taps .. d * taps + taps - 1]; its delays say how
 * many samples (fractional) each ear's filtered signal is to be delayed. The earlier ear's
 * delay is 0, so delay_right[d] - delay_left[d] is the interaural time difference in
 * samples (positive when the right ear hears later). Directions are in the file's order,
 * grouped for lookup into elevation rings (ring r holds directions ring_index[ring_start[r]
 * .. ring_start[r + 1] - 1], sorted by azimuth; ring_elevation[r] ascending). */
typedef struct ear_hrtf_set {
    uint32_t sample_rate;
    uint32_t taps;
    uint32_t count;        /* measured directions */
    float *azimuth_deg;    /* count, 0 <= az < 360 */
    float *elevation_deg;  /* count */
    float *left;           /* count * taps */
    float *right;          /* count * taps */
    float *delay_left;     /* count, samples at sample_rate */
    float *delay_right;    /* count */
    uint32_t rings;        /* elevation rings */
    float *ring_elevation; /* rings */
    uint32_t *ring_start;  /* rings + 1 */
    uint32_t *ring_index;  /* count: direction indices, ring by ring, by azimuth */
    double file_rate;      /* the SOFA file's sampling rate */
    uint32_t file_taps;    /* the file's HRIR length */
    char source[256];      /* the file's path as given (cut to fit) */
    ear_allocator alloc;   /* what the set was allocated with (ear_hrtf_free uses it) */
    uint64_t load_bytes;   /* what its load took at most (ear_hrtf_load_bytes) */
} ear_hrtf_set;

/* What loading the SOFA file open at fd would take at most, from what the file declares,
 * before libmysofa reads it: every HDF5 dataspace in it (the dimensions each dataset and
 * attribute declares, found by their message's layout) at 8 bytes an element, plus the
 * set's own arrays for the directions the largest declares at `taps`. The file position
 * is left where it was. 0 when it cannot be read. Thread: any. */
uint64_t ear_hrtf_load_bytes(int fd, uint32_t taps);

/* Loads path into a new set for config (NULL: the defaults). On success *out_set owns the
 * arrays until ear_hrtf_free. Fails with *out_set untouched and the reason, naming the file,
 * in err (when err is NULL the reason is logged, module "hrtf"): EAR_E_INVALID_ARG for NULL
 * path/out_set or a config out of range; EAR_E_NOT_FOUND when the file does not exist;
 * EAR_E_IO when it cannot be read; EAR_E_FORMAT when it is not a SOFA HRIR set libmysofa
 * accepts (two receivers, finite data, a sampling rate, at least one direction);
 * EAR_E_OUT_OF_MEMORY (also for a file that declares more than config's max_load_bytes:
 * refused before libmysofa reads it, err's needed_bytes set). Thread: any (each load has its
 * own work arrays). */
ear_result ear_hrtf_load(const char *path, const ear_hrtf_config *config,
                         ear_hrtf_set **out_set, ear_hrtf_error *err);

/* Frees a set from ear_hrtf_load; NULL is a no-op. Thread: any, once nobody reads it. */
void ear_hrtf_free(ear_hrtf_set *set);

/* The path of the set Debian's libmysofa1 installs (MIT KEMAR, normal pinna). On Windows,
 * where no package installs one, the same file ships with the game in its assets folder
 * (scripts/package-windows; sdk/share/hrtf/default.sofa for a game of its own): a path
 * relative to the working folder, which is the game's own folder when Explorer starts it.
 * A game started from elsewhere should build the path from its own folder, as Three Errands
 * does from its assets folder. */
#ifdef _WIN32
#define EAR_HRTF_DEFAULT_PATH "assets/hrtf/default.sofa"
#else
#define EAR_HRTF_DEFAULT_PATH "/usr/share/libmysofa/default.sofa"
#endif

/* Up to four measured directions and their weights (summing to 1) for a direction:
 * bilinear between the two elevation rings around it and, in each ring, the two
 * measured azimuths around it (elevations outside the measured range use the nearest
 * ring). Returns how many entries were written (1..4): the stage's
 * ear_hrtf_rings_weights over the set's rings. No allocation. Thread: any. */
uint32_t ear_hrtf_weights(const ear_hrtf_set *set, float azimuth_deg, float elevation_deg,
                          uint32_t index[4], float weight[4]);

/* The filters and delays for any direction: the weighted sum (ear_hrtf_weights) of the
 * measured directions' minimum-phase filters and of their delays. left and right receive
 * set->taps floats each; delays in samples. Returns EAR_E_INVALID_ARG for NULL pointers or
 * non-finite angles (outputs untouched). Pure C11 + libm, no allocation. Thread: any. */
ear_result ear_hrtf_lookup(const ear_hrtf_set *set, float azimuth_deg, float elevation_deg,
                           float *left, float *right, float *delay_left, float *delay_right);

/* The set as the stage takes it (ear_stage_set_hrtf copies the arrays): borrowed
 * pointers into set, valid while it lives. Thread: any. */
ear_stage_hrtf ear_hrtf_stage_view(const ear_hrtf_set *set);

#ifdef __cplusplus
}
#endif

#endif
