/* SPDX-License-Identifier: Zlib */
/*
 * Streamed music: one file, one decoder thread, one single-producer/single-consumer ring
 * of interleaved floats between the thread (producer) and the mixer's read on the audio
 * thread (consumer).
 *
 * The ring holds `capacity` frames (a power of two). `write_pos` and `read_pos` count
 * frames since the start and only grow; the producer owns write_pos and the samples in
 * [write_pos, read_pos + capacity), the consumer owns read_pos and the samples in
 * [read_pos, write_pos). Each side publishes its position with a release store after
 * touching the samples and reads the other's with an acquire load, so no lock is taken
 * and the reader never waits: with nothing decoded it returns what there is.
 *
 * The decoder sleeps (poll_ms) while the ring is full, rather than waiting on a
 * condition that the audio thread would have to signal. At the end of the file it seeks
 * back to the start when looping, or sets `decoded_all` and exits.
 */
#define _POSIX_C_SOURCE 200809L

#include "io_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STREAM_MAGIC 0x53545245414d3031ull /* "STREAM01" */
#define DECODE_CHUNK 4096u                 /* frames per libsndfile call */

typedef struct file_stream {
    uint64_t magic;
    char *path;
    SNDFILE *file;
    uint32_t channels;
    uint32_t sample_rate;
    bool loop;
    long poll_ns;
    const ear_allocator *alloc;

    float *ring;
    uint64_t capacity;          /* frames, a power of two */
    float *chunk;               /* the decoder's scratch, DECODE_CHUNK frames */
    uint64_t frames_since_seek; /* the decoder's own count, to catch a file that loops
                                   without yielding frames */

    _Atomic uint64_t write_pos;
    _Atomic uint64_t read_pos;
    atomic_bool decoded_all; /* the decoder has written the file's last frame */
    atomic_bool stop;
    _Atomic uint64_t frames_decoded;
    _Atomic uint64_t underruns;
    _Atomic uint64_t loops;

    pthread_t thread;
    bool thread_started;
} file_stream;

static void *alloc_bytes(const ear_allocator *a, size_t n) {
    if (a && a->alloc_fn) return a->alloc_fn(n, a->user);
    return malloc(n);
}
static void free_bytes(const ear_allocator *a, void *p) {
    if (!p) return;
    if (a && a->free_fn)
        a->free_fn(p, a->user);
    else
        free(p);
}

/* Decodes up to one chunk into the ring, if it has room for a whole chunk. Returns false
 * when the file is done (or failed) and the decoder should stop. Runs on the decoder
 * thread, or on the opening thread before the decoder starts. */
static bool decode_step(file_stream *s, bool *out_ring_full) {
    uint64_t w = atomic_load_explicit(&s->write_pos, memory_order_relaxed);
    uint64_t r = atomic_load_explicit(&s->read_pos, memory_order_acquire);
    uint64_t room = s->capacity - (w - r);
    *out_ring_full = room < DECODE_CHUNK;
    if (*out_ring_full) return true;

    sf_count_t got = sf_readf_float(s->file, s->chunk, DECODE_CHUNK);
    if (got < 0) got = 0;
    if (got > 0) {
        uint32_t ch = s->channels;
        /* A float file can hold NaN and infinities: stored as 0, as whole decoding does,
         * so that one bad sample cannot turn the mix into NaN. */
        for (size_t i = 0; i < (size_t)got * ch; i++)
            if (!isfinite(s->chunk[i])) s->chunk[i] = 0.0f;
        uint64_t start = w & (s->capacity - 1);
        uint64_t first =
            s->capacity - start < (uint64_t)got ? s->capacity - start : (uint64_t)got;
        memcpy(s->ring + start * ch, s->chunk, (size_t)(first * ch) * sizeof(float));
        if ((uint64_t)got > first)
            memcpy(s->ring, s->chunk + first * ch,
                   (size_t)(((uint64_t)got - first) * ch) * sizeof(float));
        atomic_store_explicit(&s->write_pos, w + (uint64_t)got, memory_order_release);
        atomic_fetch_add_explicit(&s->frames_decoded, (uint64_t)got, memory_order_relaxed);
        s->frames_since_seek += (uint64_t)got;
    }
    if (got == (sf_count_t)DECODE_CHUNK) return true;

    /* A short read: the end of the file, or an error in it. */
    if (sf_error(s->file) != SF_ERR_NO_ERROR) {
        ear_log(EAR_LOG_ERROR, "io", "%s: decoding stopped: %s", s->path, sf_strerror(s->file));
        atomic_store_explicit(&s->decoded_all, true, memory_order_release);
        return false;
    }
    if (s->loop) {
        /* A file that yields nothing between two seeks to its start would spin. */
        if (s->frames_since_seek == 0 || sf_seek(s->file, 0, SEEK_SET) < 0) {
            ear_log(EAR_LOG_ERROR, "io", "%s: cannot loop: %s", s->path,
                    s->frames_since_seek == 0 ? "no frames after a seek to the start"
                                              : "cannot seek back to the start");
            atomic_store_explicit(&s->decoded_all, true, memory_order_release);
            return false;
        }
        s->frames_since_seek = 0;
        atomic_fetch_add_explicit(&s->loops, 1u, memory_order_relaxed);
        return true;
    }
    atomic_store_explicit(&s->decoded_all, true, memory_order_release);
    return false;
}

static void *decoder_main(void *arg) {
    file_stream *s = arg;
    struct timespec nap = {0, s->poll_ns};
    while (!atomic_load_explicit(&s->stop, memory_order_acquire)) {
        bool full;
        if (!decode_step(s, &full)) break;
        if (full) nanosleep(&nap, NULL);
    }
    return NULL;
}

/* Audio thread: copies what the ring holds, up to `frames`. */
static uint32_t stream_read(void *user, float *out, uint32_t frames) {
    file_stream *s = user;
    uint64_t r = atomic_load_explicit(&s->read_pos, memory_order_relaxed);
    uint64_t w = atomic_load_explicit(&s->write_pos, memory_order_acquire);
    uint64_t avail = w - r;
    uint32_t n = avail < frames ? (uint32_t)avail : frames;
    if (n > 0) {
        uint32_t ch = s->channels;
        uint64_t start = r & (s->capacity - 1);
        uint64_t first = s->capacity - start < n ? s->capacity - start : n;
        memcpy(out, s->ring + start * ch, (size_t)(first * ch) * sizeof(float));
        if (n > first)
            memcpy(out + first * ch, s->ring, (size_t)((n - first) * ch) * sizeof(float));
        atomic_store_explicit(&s->read_pos, r + n, memory_order_release);
    }
    if (n < frames && !atomic_load_explicit(&s->decoded_all, memory_order_acquire))
        atomic_fetch_add_explicit(&s->underruns, 1u, memory_order_relaxed);
    return n;
}

/* Audio thread: the file is decoded to its end and every frame has been read. */
static bool stream_ended(void *user) {
    file_stream *s = user;
    if (!atomic_load_explicit(&s->decoded_all, memory_order_acquire)) return false;
    return atomic_load_explicit(&s->read_pos, memory_order_relaxed) ==
           atomic_load_explicit(&s->write_pos, memory_order_acquire);
}

static void stream_free(file_stream *s) {
    if (s->file) sf_close(s->file);
    const ear_allocator *a = s->alloc;
    free_bytes(a, s->ring);
    free_bytes(a, s->chunk);
    free_bytes(a, s->path);
    free_bytes(a, s);
}

/* Game thread: stops and joins the decoder, then frees everything. */
static void stream_release(void *user) {
    file_stream *s = user;
    if (!s) return;
    atomic_store_explicit(&s->stop, true, memory_order_release);
    if (s->thread_started) pthread_join(s->thread, NULL);
    s->magic = 0;
    stream_free(s);
}

ear_result ear_file_stream_open(const char *path, const ear_file_stream_config *config,
                                ear_stream *out_stream, ear_io_error *err) {
    if (!path || !out_stream) return EAR_E_INVALID_ARG;
    ear_file_stream_config c = config ? *config : (ear_file_stream_config){0};
    if (c.buffer_s == 0.0f) c.buffer_s = 2.0f;
    if (c.prefill_s == 0.0f) c.prefill_s = 0.25f;
    if (c.poll_ms == 0.0f) c.poll_ms = 5.0f;
    if (!(c.buffer_s >= 0.05f && c.buffer_s <= 60.0f) || !(c.prefill_s >= 0.0f) ||
        !(c.poll_ms > 0.0f && c.poll_ms <= 1000.0f))
        return EAR_E_INVALID_ARG;
    if (c.prefill_s > c.buffer_s) c.prefill_s = c.buffer_s;

    SNDFILE *file;
    SF_INFO info;
    ear_result r = ear__io_open(path, &file, &info, NULL, NULL, err);
    if (r != EAR_OK) return r;

    const ear_allocator *a = c.allocator;
    file_stream *s = alloc_bytes(a, sizeof *s);
    if (!s) {
        sf_close(file);
        return ear__io_fail(err, EAR_E_OUT_OF_MEMORY, path, "out of memory");
    }
    memset(s, 0, sizeof *s);
    s->magic = STREAM_MAGIC;
    s->file = file;
    s->alloc = a;
    s->channels = (uint32_t)info.channels;
    s->sample_rate = (uint32_t)info.samplerate;
    s->loop = c.loop;
    s->poll_ns = (long)(c.poll_ms * 1e6f);
    uint64_t want = (uint64_t)(c.buffer_s * (float)info.samplerate) + DECODE_CHUNK;
    s->capacity = 1;
    while (s->capacity < want) s->capacity <<= 1;
    atomic_init(&s->write_pos, 0);
    atomic_init(&s->read_pos, 0);
    atomic_init(&s->decoded_all, false);
    atomic_init(&s->stop, false);
    atomic_init(&s->frames_decoded, 0);
    atomic_init(&s->underruns, 0);
    atomic_init(&s->loops, 0);
    size_t path_len = strlen(path);
    s->path = alloc_bytes(a, path_len + 1);
    s->ring = alloc_bytes(a, (size_t)(s->capacity * s->channels) * sizeof(float));
    s->chunk = alloc_bytes(a, (size_t)DECODE_CHUNK * s->channels * sizeof(float));
    if (!s->path || !s->ring || !s->chunk) {
        stream_free(s);
        return ear__io_fail(err, EAR_E_OUT_OF_MEMORY, path, "out of memory");
    }
    memcpy(s->path, path, path_len + 1);

    /* Prefill on this thread, so the first reads find audio waiting. */
    uint64_t prefill = (uint64_t)(c.prefill_s * (float)info.samplerate);
    bool more = true, full = false;
    while (more && !full && atomic_load_explicit(&s->write_pos, memory_order_relaxed) < prefill)
        more = decode_step(s, &full);
    if (atomic_load_explicit(&s->write_pos, memory_order_relaxed) == 0) {
        stream_free(s);
        return ear__io_fail(err, EAR_E_FORMAT, path, "no audio could be decoded");
    }
    if (more) {
        if (pthread_create(&s->thread, NULL, decoder_main, s) != 0) {
            stream_free(s);
            return ear__io_fail(err, EAR_E_OUT_OF_MEMORY, path,
                                "cannot start the decoder thread");
        }
        s->thread_started = true;
    }
    *out_stream = (ear_stream){.channels = s->channels,
                               .sample_rate = s->sample_rate,
                               .read = stream_read,
                               .ended = stream_ended,
                               .release = stream_release,
                               .user = s};
    return EAR_OK;
}

ear_result ear_file_stream_get_stats(const ear_stream *stream, ear_file_stream_stats *out) {
    if (!stream || !out || stream->read != stream_read || !stream->user)
        return EAR_E_INVALID_ARG;
    file_stream *s = stream->user;
    if (s->magic != STREAM_MAGIC) return EAR_E_INVALID_ARG;
    out->frames_decoded = atomic_load(&s->frames_decoded);
    out->frames_read = atomic_load(&s->read_pos);
    out->underruns = atomic_load(&s->underruns);
    out->loops = atomic_load(&s->loops);
    out->buffer_frames = (uint32_t)s->capacity;
    return EAR_OK;
}
