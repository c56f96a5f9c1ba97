/* SPDX-License-Identifier: Zlib */
/*
 * Earshot core: result codes, vectors, a seeded random generator, logging and
 * allocator hooks. Everything else in Earshot builds on this header; it uses only
 * libc and libm.
 */
#ifndef EARSHOT_CORE_H
#define EARSHOT_CORE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Result codes ------------------------------------------------------------ */

/* Every function that can fail returns an ear_result: EAR_OK (0) or a negative
 * error. On failure the function changes nothing and writes no output. */
typedef enum ear_result {
    EAR_OK = 0,
    EAR_E_INVALID_ARG = -1,     /* a parameter is NULL, out of range or not finite */
    EAR_E_OUT_OF_MEMORY = -2,   /* the allocator hook returned NULL */
    EAR_E_STALE_ID = -3,        /* a voice id whose voice has ended (generation mismatch) */
    EAR_E_NOT_FOUND = -4,       /* a name or file that does not exist */
    EAR_E_TOO_MANY_VOICES = -5, /* the voice budget is spent and nothing could be stolen */
    EAR_E_UNSUPPORTED = -6,     /* a valid request this build or device cannot do */
    EAR_E_IO = -7,              /* reading or writing a file failed */
    EAR_E_FORMAT = -8,          /* a file or text is not in the expected format */
    EAR_E_NO_DEVICE = -9,       /* no audio device could be opened */
    EAR_E_STATE = -10,          /* the call is not allowed in the object's current state */
    EAR_E_CRYPTO = -11,         /* encryption or authentication failed */
} ear_result;

/* A fixed English sentence for every ear_result value ("unknown result" for
 * anything else). Thread: any. */
const char *ear_result_string(ear_result result);

/* The library's version, "major.minor.patch" (static storage). Thread: any. */
const char *ear_version(void);

/* A short stable name such as "EAR_E_STALE_ID". Thread: any. */
const char *ear_result_name(ear_result result);

/* ---- Vectors ------------------------------------------------------------------ */

/* Right-handed coordinates: +X right, +Y up, -Z forward (a camera looks along -Z).
 * Units are metres unless a name says otherwise. */
typedef struct ear_vec3 {
    float x, y, z;
} ear_vec3;

static inline ear_vec3 ear_vec3_make(float x, float y, float z) {
    ear_vec3 v = {x, y, z};
    return v;
}
static inline ear_vec3 ear_vec3_add(ear_vec3 a, ear_vec3 b) {
    return ear_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline ear_vec3 ear_vec3_sub(ear_vec3 a, ear_vec3 b) {
    return ear_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline ear_vec3 ear_vec3_scale(ear_vec3 a, float s) {
    return ear_vec3_make(a.x * s, a.y * s, a.z * s);
}
static inline float ear_vec3_dot(ear_vec3 a, ear_vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline ear_vec3 ear_vec3_cross(ear_vec3 a, ear_vec3 b) {
    return ear_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* Length of a vector, in the vector's units. Thread: any (pure). */
float ear_vec3_length(ear_vec3 a);
/* The unit vector along a, or fallback when a is shorter than 1e-9 or not finite.
 * Thread: any (pure). */
ear_vec3 ear_vec3_normalize_or(ear_vec3 a, ear_vec3 fallback);
/* True when all three components are finite. */
static inline bool ear_vec3_is_finite(ear_vec3 a) {
    return isfinite(a.x) && isfinite(a.y) && isfinite(a.z);
}

/* ---- Text ----------------------------------------------------------------------------- */

/* True when the `size` bytes at text are well-formed UTF-8: no overlong forms, no
 * surrogates, nothing above U+10FFFF (NUL bytes are allowed). Thread: any. */
bool ear_utf8_valid(const char *text, size_t size);

/* ---- Seeded random numbers ------------------------------------------------------ */

/* xoshiro256** seeded through splitmix64: the same seed gives the same sequence on
 * every machine. Not for cryptography. */
typedef struct ear_rng {
    uint64_t s[4];
} ear_rng;

/* Seeds the generator; every seed, 0 included, gives a valid state. Thread: any (the
 * generator itself is not shared). */
void ear_rng_seed(ear_rng *rng, uint64_t seed);
/* The next 64 random bits. Thread: the generator's owner (not shared). */
uint64_t ear_rng_next(ear_rng *rng);
/* A double uniform in [0, 1) with 53 random bits.
 * Thread: the generator's owner (not shared). */
double ear_rng_uniform(ear_rng *rng);
/* A float uniform in [lo, hi] (lo when hi <= lo).
 * Thread: the generator's owner (not shared). */
float ear_rng_range(ear_rng *rng, float lo, float hi);
/* An integer uniform in [0, n), without modulo bias; 0 when n is 0.
 * Thread: the generator's owner (not shared). */
uint32_t ear_rng_below(ear_rng *rng, uint32_t n);

/* ---- Logging ------------------------------------------------------------------ */

typedef enum ear_log_level {
    EAR_LOG_DEBUG = 0,
    EAR_LOG_INFO = 1,
    EAR_LOG_WARN = 2,
    EAR_LOG_ERROR = 3,
} ear_log_level;

/* Receives each message: the module that logs ("stage", "assets", ...) and one
 * line of text without a trailing newline. */
typedef void (*ear_log_fn)(void *user, ear_log_level level, const char *module,
                           const char *message);

/* Replaces the log callback for the whole process; NULL restores the default, which
 * writes warnings and errors to stderr. Messages below min_level are dropped before
 * formatting. The library never prints except through this callback.
 * Thread: any, but set it before other threads log (it is read without a lock). */
void ear_log_set(ear_log_fn fn, void *user, ear_log_level min_level);

/* Logs one formatted message (used by Earshot's modules and open to games).
 * Never called on the audio thread by Earshot. Thread: any. */
void ear_log(ear_log_level level, const char *module, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- Allocator hooks ------------------------------------------------------------ */

/* Memory for objects that take an allocator comes only through these hooks. A NULL
 * ear_allocator pointer, or NULL functions inside one, mean malloc/realloc/free.
 * alloc_fn returns memory aligned to at least 16 bytes, or NULL. */
typedef struct ear_allocator {
    void *(*alloc_fn)(size_t size, void *user);
    void *(*realloc_fn)(void *ptr, size_t size, void *user);
    void (*free_fn)(void *ptr, void *user);
    void *user;
} ear_allocator;

/* The allocator used when NULL is given: malloc, realloc and free. Thread: any (a constant). */
const ear_allocator *ear_allocator_default(void);

/* The allocator an object keeps: `given` with any NULL function (or a NULL `given`)
 * replaced by the default's. Thread: any. */
ear_allocator ear_allocator_resolve(const ear_allocator *given);

/* Internal to Earshot (not for games): a hash index over an append-only array of named
 * items, positions 0..count-1 (src/core/name_index.c). name_of(user, pos) gives item pos's
 * name. find: the position of name, or UINT32_MAX. add: indexes item pos, which must be
 * the next (pos == count) and not yet named in it; false when out of memory (unchanged).
 * reserve: room for `need` items, so that adds up to them cannot fail. bytes: what it
 * holds. free: empties it. Memory through alloc (NULL: malloc).
 * Thread: that of the array. */
typedef const char *(*ear__name_of_fn)(const void *user, uint32_t pos);
typedef struct ear__name_index {
    uint32_t *slots; /* position + 1, 0 empty */
    uint32_t cap, count;
} ear__name_index;
uint32_t ear__name_index_find(const ear__name_index *ix, const char *name,
                              ear__name_of_fn name_of, const void *user);
bool ear__name_index_add(ear__name_index *ix, const ear_allocator *alloc, const char *name,
                         uint32_t pos, ear__name_of_fn name_of, const void *user);
bool ear__name_index_reserve(ear__name_index *ix, const ear_allocator *alloc, uint32_t need,
                             ear__name_of_fn name_of, const void *user);
size_t ear__name_index_bytes(const ear__name_index *ix);
void ear__name_index_free(ear__name_index *ix, const ear_allocator *alloc);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_CORE_H */
