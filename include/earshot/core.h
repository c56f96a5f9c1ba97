/* SPDX-License-Identifier: Zlib */
/*
 * Earshot core: result codes and the version, vectors, UTF-8, FNV-1a hashes, a seeded
 * random generator, logging, allocator hooks, and files read and written the one safe
 * way (docs/modules/core.md). Everything else in Earshot builds on this header; core
 * uses only libc, libm and POSIX file calls.
 */
#ifndef EARSHOT_CORE_H
#define EARSHOT_CORE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* UTF-8, the one home of its rules for every module (translations, saves, speech, the
 * UI's text fields, maps, the command tool's JSON). "Well-formed": no overlong forms, no
 * surrogates, nothing above U+10FFFF. All functions are pure. Thread: any. */

/* True when the `size` bytes at text are well-formed UTF-8 (NUL bytes are allowed). */
bool ear_utf8_valid(const char *text, size_t size);
/* Decodes the character at text (at most `size` bytes are read): its length in bytes
 * (1 to 4) with the code point in *cp (cp may be NULL), or 0 when size is 0 or the bytes
 * are not a well-formed character (a truncated one included); *cp is untouched then. */
size_t ear_utf8_decode(const char *text, size_t size, uint32_t *cp);
/* Writes code point cp as UTF-8 into out (no NUL added): its length, 1 to 4, or 0 for a
 * surrogate or a value above U+10FFFF (out untouched). */
size_t ear_utf8_encode(uint32_t cp, char out[4]);
/* The length of the longest prefix of the `len` bytes at text that is at most `max`
 * bytes and does not end inside a character (a cut never leaves half a sequence). */
size_t ear_utf8_cut(const char *text, size_t len, size_t max);
/* The offset of the character after the one at `at` (len when at >= len), and of the
 * one before it (0 at 0): steps over continuation bytes. */
size_t ear_utf8_next(const char *text, size_t len, size_t at);
size_t ear_utf8_prev(const char *text, size_t at);
/* The number of characters (bytes that are not continuation bytes) in `len` bytes. */
size_t ear_utf8_count(const char *text, size_t len);

/* ---- Hashing -------------------------------------------------------------------------- */

/* FNV-1a (64-bit and 32-bit): cheap, stable, and any changed byte changes it; for
 * determinism checks and hash tables with no adversary, not for security. Start a 64-bit
 * hash at EAR_FNV1A64_OFFSET and feed it through the calls. Thread: any (pure). */
#define EAR_FNV1A64_OFFSET UINT64_C(0xcbf29ce484222325)
uint64_t ear_fnv1a64(uint64_t hash, const void *data, size_t size);
/* Each float's bits, least significant byte first: the same hash on every machine. */
uint64_t ear_fnv1a64_floats(uint64_t hash, const float *samples, size_t count);
/* The 32-bit FNV-1a of a NUL-terminated string. */
uint32_t ear_fnv1a32_str(const char *text);

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

/* ---- JSON's cost ---------------------------------------------------------------- */

/* What parsing a JSON text with jansson would take, measured on the text before it is
 * parsed (jansson's allocation hooks are process-wide, so they cannot count into one
 * session's budget): `values` counts the values and object keys; `bytes` is an upper
 * bound of the bytes jansson 2.14 allocates (malloc chunks included) at its peak while it
 * parses the text and holds the result. docs/modules/core.md, "JSON's cost". */
typedef struct ear_json_cost {
    uint64_t values;
    uint64_t bytes;
} ear_json_cost;

/* Measures text[0, length) in one pass; never fails (NULL text: zero). Thread: any. */
ear_json_cost ear_json_measure(const char *text, size_t length);

/* ---- Files -------------------------------------------------------------------- */

/* Every file Earshot reads goes through ear_file_open_read or ear_file_read: the path is
 * opened without waiting (O_NONBLOCK, so a FIFO planted at it never blocks the open) and
 * checked on the open descriptor, so nothing swapped in between a check and the open is
 * read: a folder, a FIFO, a device or a socket is refused at once, and a regular file
 * larger than the caller's limit is refused before a byte is read, the limit named.
 * The limits each kind of file gets by default (docs/modules/core.md, "Files"): */
#define EAR_FILE_MAX_DOCUMENT_BYTES ((uint64_t)16 << 20)  /* JSON, lang files, scripts */
#define EAR_FILE_MAX_SOUND_BYTES    ((uint64_t)512 << 20) /* sound files (decoded, streamed) */
#define EAR_FILE_MAX_HRTF_BYTES     ((uint64_t)64 << 20)  /* SOFA files */
#define EAR_FILE_MAX_SAVE_BYTES     ((uint64_t)256 << 20) /* saves (storage) */
#define EAR_FILE_MAX_REPLAY_BYTES   ((uint64_t)256 << 20) /* replays */

/* Opens path for reading and checks the open descriptor: a regular file of at most
 * max_bytes. On success *out_fd is the descriptor (close-on-exec, blocking again; the
 * caller closes it, or hands it to a library that does) and *out_size the size at open.
 * EAR_E_NOT_FOUND when nothing is at path (or a folder on the way is missing); EAR_E_IO
 * for a folder, FIFO, device or socket ("<path>: is a character device, not a file") or
 * a failing open; EAR_E_FORMAT for a file over max_bytes ("<path>: is N bytes, over the
 * 16 MiB limit for this file"). Every failure writes "<path>: <reason>" into error
 * (error_size bytes, NUL-terminated; error may be NULL) and leaves nothing open.
 * Thread: any. */
ear_result ear_file_open_read(const char *path, uint64_t max_bytes, int *out_fd,
                              uint64_t *out_size, char *error, size_t error_size);

/* Reads a whole file through ear_file_open_read into memory from allocator (NULL: the
 * default), with a NUL after the last byte (not counted in *out_size); the caller frees
 * *out_data through the same allocator. A file that grows past max_bytes while it is
 * read is refused (EAR_E_FORMAT) rather than read on. EAR_E_OUT_OF_MEMORY when the
 * allocator fails. Failures as ear_file_open_read, with nothing allocated.
 * Thread: any. */
ear_result ear_file_read(const char *path, uint64_t max_bytes, const ear_allocator *allocator,
                         char **out_data, size_t *out_size, char *error, size_t error_size);

/* What a write may replace. What is at the path is looked at without following a link:
 * nothing there, or a regular file `ours` accepts, is replaced; a symbolic link or
 * another regular file is kept and refused unless `overwrite` (then the link itself, or
 * the file, is replaced: a link's target is never written); a folder, a FIFO, a socket or
 * a device is never replaced, overwrite or not (with `stream_devices` a character device
 * or a FIFO with a reader is written into instead, for logs sent to /dev/stderr or a
 * pipe). */
typedef struct ear_file_write_config {
    bool overwrite;      /* default false */
    bool stream_devices; /* default false */
    unsigned mode;       /* the new file's permission bits; 0 (the default) is 0644 */
    /* Whether the regular file open at fd (read-only) is one this writer made and may
     * replace unasked (a WAV with Earshot's software string); NULL (the default): none. */
    bool (*ours)(int fd, void *user);
    void *ours_user;
    /* What `ours` accepts, for the message that keeps another file ("exists and is not a
     * WAV that Earshot wrote; it is kept"); NULL (the default) is "a file Earshot wrote". */
    const char *ours_name;
    /* Added to the message that refuses a foreign file or a link, saying how to replace
     * it; NULL (the default) is " (overwrite replaces it)". The tools say
     * " (use --overwrite)". Never added for a folder, FIFO or device. */
    const char *overwrite_hint;
} ear_file_write_config;

/* The defaults above. Thread: any. */
ear_file_write_config ear_file_write_config_default(void);

/* A write in progress: the bytes go to `fd`, a temporary file "<path>.tmp-XXXXXX" made
 * with mkstemp (O_EXCL: no planted name is opened) beside path, which commit fsyncs and
 * renames over path; until then path is untouched, and a failure leaves it as it was.
 * Fields are read-only for the caller but fd (write to it) and stream. */
typedef struct ear_file_writer {
    int fd;            /* write here */
    FILE *stream;      /* NULL, or set by ear_file_writer_stream */
    char *path;        /* the target (malloc'ed copy) */
    char *tmp;         /* the temporary file; NULL when writing into a device or FIFO */
    bool existed;      /* something was at path when the write began */
    uint64_t dev, ino; /* what was at path then (lstat) */
} ear_file_writer;

/* Checks what is at path as ear_file_write_config says and opens the temporary file (or
 * the device). EAR_E_STATE for a refusal ("<path>: is a FIFO; it is never replaced",
 * "<path>: exists and is not a file Earshot wrote; it is kept (use --overwrite)"),
 * EAR_E_IO when the temporary file cannot be made ("<path>: no such folder"),
 * EAR_E_INVALID_ARG for an empty path or one ending in '/', EAR_E_OUT_OF_MEMORY; error
 * as for ear_file_open_read. On failure nothing is created and *w is zeroed (fd -1).
 * Thread: any (one writer per object). */
ear_result ear_file_write_begin(const char *path, const ear_file_write_config *config,
                                ear_file_writer *w, char *error, size_t error_size);

/* A stdio stream on the writer's descriptor (made once; commit and abort close it), for
 * writers that print. NULL when out of memory. Thread: the writer's. */
FILE *ear_file_writer_stream(ear_file_writer *w);

/* Flushes the stream (if any), fsyncs and closes the temporary file, checks that what is
 * at path is still what was there at begin, renames the temporary file over path and
 * fsyncs the folder. Any failure (a full disk: ENOSPC at the flush or the fsync) is
 * EAR_E_IO with "<path>: <reason>; the previous file is kept", the temporary file
 * removed. Either way the writer is finished (nothing open). Thread: the writer's. */
ear_result ear_file_write_commit(ear_file_writer *w, char *error, size_t error_size);

/* Ends a write without touching path: the temporary file is closed and removed. Safe on
 * a zeroed or finished writer. Thread: the writer's. */
void ear_file_write_abort(ear_file_writer *w);

/* Writes size bytes at fd, through EINTR and short writes. false with errno set (ENOSPC
 * on a full disk). Thread: any. */
bool ear_file_write_all(int fd, const void *data, size_t size);

/* begin, write the bytes, commit: a whole file in one call. Thread: any. */
ear_result ear_file_write(const char *path, const void *data, size_t size,
                          const ear_file_write_config *config, char *error, size_t error_size);

/* The reason in a message these functions wrote about path ("<path>: <reason>"), so a
 * caller can say it in its own words ("script 'x': no such file"); the whole message when
 * it does not start with path. Thread: any (pure). */
const char *ear_file_reason(const char *message, const char *path);

/* fsyncs the folder that holds path (".", "/" or the part before the last '/'), so a
 * rename or a link made in it is on disk: 0, or an errno (a folder's name over 4095 bytes
 * is ENAMETOOLONG). A file system that cannot fsync a folder (EINVAL) counts as done.
 * Thread: any. */
int ear_file_sync_folder_of(const char *path);

/* The kind of a file that is not a regular file, for messages ("a FIFO", "a folder",
 * "a character device"...), or NULL for a regular file; from struct stat's st_mode.
 * Thread: any. */
const char *ear_file_kind_name(unsigned mode);

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

/* Internal to Earshot (not for games): the growing array (src/core/grow.c). Makes *items
 * (elem-byte items, room for *cap) hold at least need items: room doubles from 16 until it
 * does, through alloc (NULL: realloc; an allocator with alloc but no realloc: a new block,
 * a copy and a free). True when it holds them; false when out of memory or past
 * UINT32_MAX items, *items and *cap unchanged. Thread: that of the array. */
bool ear__grow(const ear_allocator *alloc, void **items, uint32_t *cap, uint32_t need,
               size_t elem);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_CORE_H */
