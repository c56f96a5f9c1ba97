/* SPDX-License-Identifier: Zlib */
/*
 * Replay files. Little-endian throughout:
 *
 *   magic     16 bytes  "EARSHOT-REPLAY\n\0"
 *   version   u32       EAR_REPLAY_VERSION (1)
 *   flags     u32       bit 0: rows carry the stage's output hash
 *   step_hz   f64       the fixed step rate it was recorded at
 *   rows      u64       number of fixed steps
 *   then per step: scene_hash u64, stage_hash u64, event count u16, and per event:
 *   type u8, key u8, text length u8, text bytes. A gamepad event (types 5..9) puts its
 *   button or axis in the key byte and three payload bytes where the text goes: the pad's
 *   slot u8 and the value i16 (the raw axis value, or PAD_ADDED's flags).
 *
 * The writer streams rows as steps run and patches the row count when it closes, so a
 * long recording never sits in memory. The reader loads everything (a 10,000-step
 * replay is a few hundred kilobytes) and checks every length against the file size.
 */
#define _POSIX_C_SOURCE 200809L
#include "runtime_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t ear__mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

static void put_u8(uint8_t *b, size_t *n, uint8_t v) {
    b[(*n)++] = v;
}

static void put_le(uint8_t *b, size_t *n, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) b[(*n)++] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *b, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static uint64_t double_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* A file this writer may replace unasked: one that starts with the replay magic, or an
 * empty one (nothing in it is lost: a name made ready with mkstemp or touch). */
static bool is_replay(int fd, void *user) {
    (void)user;
    char head[EAR__REPLAY_MAGIC_LEN];
    ssize_t got = read(fd, head, sizeof head);
    if (got == 0) return true;
    return got == (ssize_t)sizeof head &&
           memcmp(head, EAR__REPLAY_MAGIC, EAR__REPLAY_MAGIC_LEN) == 0;
}

ear_result ear__replay_writer_open(ear__replay_writer *writer, const char *path, double step_hz,
                                   uint32_t flags) {
    memset(writer, 0, sizeof *writer);
    /* Core's safe write (core.md): nothing at the path or an earlier replay is replaced,
     * any other file, a link, a FIFO or a device is kept; the rows go to a temporary
     * file renamed over the path when the recording ends. */
    ear_file_write_config c = ear_file_write_config_default();
    c.ours = is_replay;
    c.ours_name = "a replay Earshot recorded";
    c.overwrite_hint = "";
    char why[512];
    ear_result r = ear_file_write_begin(path, &c, &writer->out, why, sizeof why);
    FILE *f = r == EAR_OK ? ear_file_writer_stream(&writer->out) : NULL;
    if (!f) {
        if (r == EAR_OK) ear_file_write_abort(&writer->out);
        ear_log(EAR_LOG_ERROR, "runtime", "replay %s", r == EAR_OK ? "out of memory" : why);
        return r == EAR_OK ? EAR_E_OUT_OF_MEMORY : r;
    }
    uint8_t h[EAR__REPLAY_MAGIC_LEN + 24];
    size_t n = 0;
    memcpy(h, EAR__REPLAY_MAGIC, EAR__REPLAY_MAGIC_LEN);
    n = EAR__REPLAY_MAGIC_LEN;
    put_le(h, &n, EAR_REPLAY_VERSION, 4);
    put_le(h, &n, flags, 4);
    put_le(h, &n, double_bits(step_hz), 8);
    put_le(h, &n, 0, 8);
    if (fwrite(h, 1, n, f) != n) {
        ear_file_write_abort(&writer->out);
        ear_log(EAR_LOG_ERROR, "runtime", "replay '%s': cannot be written", path);
        return EAR_E_IO;
    }
    size_t len = strlen(path);
    writer->path = malloc(len + 1);
    if (!writer->path) {
        ear_file_write_abort(&writer->out);
        return EAR_E_OUT_OF_MEMORY;
    }
    memcpy(writer->path, path, len + 1);
    writer->file = f;
    return EAR_OK;
}

void ear__replay_writer_step(ear__replay_writer *writer, uint64_t scene_hash,
                             uint64_t stage_hash, const ear_input_event *events,
                             uint32_t count) {
    if (!writer->file || writer->failed) return;
    uint8_t buf[18 + 3 + EAR_INPUT_TEXT_MAX];
    size_t n = 0;
    if (count > UINT16_MAX) count = UINT16_MAX;
    put_le(buf, &n, scene_hash, 8);
    put_le(buf, &n, stage_hash, 8);
    put_le(buf, &n, count, 2);
    bool ok = fwrite(buf, 1, n, writer->file) == n;
    for (uint32_t i = 0; ok && i < count; i++) {
        n = 0;
        const ear_input_event *e = &events[i];
        put_u8(buf, &n, (uint8_t)e->type);
        if (e->type >= EAR_INPUT_PAD_ADDED) {
            put_u8(buf, &n, e->control);
            put_u8(buf, &n, 3);
            put_u8(buf, &n, e->pad);
            put_le(buf, &n, (uint16_t)e->value, 2);
        } else {
            size_t tl = e->type == EAR_INPUT_TEXT ? strlen(e->text) : 0;
            put_u8(buf, &n, (uint8_t)e->key);
            put_u8(buf, &n, (uint8_t)tl);
            memcpy(buf + n, e->text, tl);
            n += tl;
        }
        ok = fwrite(buf, 1, n, writer->file) == n;
    }
    if (!ok) {
        writer->failed = true;
        ear_log(EAR_LOG_ERROR, "runtime", "replay '%s': write failed; recording stopped",
                writer->path);
        return;
    }
    writer->rows++;
}

ear_result ear__replay_writer_close(ear__replay_writer *writer) {
    ear_result r = EAR_OK;
    if (writer->file) {
        uint8_t b[8];
        size_t n = 0;
        put_le(b, &n, writer->rows, 8);
        bool ok = !writer->failed &&
                  fseek(writer->file, EAR__REPLAY_MAGIC_LEN + 16, SEEK_SET) == 0 &&
                  fwrite(b, 1, 8, writer->file) == 8;
        char why[512];
        if (!ok) {
            ear_file_write_abort(&writer->out);
            r = EAR_E_IO;
            ear_log(EAR_LOG_ERROR, "runtime",
                    "replay '%s': could not be finished; nothing was written there",
                    writer->path);
        } else if ((r = ear_file_write_commit(&writer->out, why, sizeof why)) != EAR_OK) {
            ear_log(EAR_LOG_ERROR, "runtime", "replay %s", why);
        }
        writer->file = NULL;
    }
    free(writer->path);
    writer->path = NULL;
    return r;
}

static void set_error(char *error, size_t size, const char *format, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, format);
    vsnprintf(msg, sizeof msg, format, ap);
    va_end(ap);
    ear_log(EAR_LOG_ERROR, "runtime", "%s", msg);
    if (error && size) snprintf(error, size, "%s", msg);
}

void ear_replay_free(ear_replay *replay) {
    if (!replay) return;
    free(replay->rows);
    free(replay->events);
    free(replay);
}

static ear_result parse(const char *path, const uint8_t *b, size_t size, ear_replay *rp,
                        char *error, size_t error_size) {
    if (size < EAR__REPLAY_MAGIC_LEN + 4 ||
        memcmp(b, EAR__REPLAY_MAGIC, EAR__REPLAY_MAGIC_LEN)) {
        set_error(error, error_size, "replay '%s' is not an Earshot replay (no replay header)",
                  path);
        return EAR_E_FORMAT;
    }
    uint32_t version = (uint32_t)get_le(b + EAR__REPLAY_MAGIC_LEN, 4);
    if (version != EAR_REPLAY_VERSION) {
        set_error(error, error_size,
                  "replay '%s' is format version %u, %s; this engine reads version %d only: "
                  "record it again",
                  path, version,
                  version < EAR_REPLAY_VERSION ? "an older format" : "an unknown format",
                  EAR_REPLAY_VERSION);
        return EAR_E_FORMAT;
    }
    size_t at = EAR__REPLAY_MAGIC_LEN + 4;
    if (size < at + 20) goto truncated;
    rp->flags = (uint32_t)get_le(b + at, 4);
    uint64_t hz_bits = get_le(b + at + 4, 8);
    memcpy(&rp->step_hz, &hz_bits, sizeof rp->step_hz);
    uint64_t rows = get_le(b + at + 12, 8);
    at += 20;
    if (!(rp->step_hz > 0) || rows > (size - at) / 18) {
        set_error(error, error_size, "replay '%s' (version %u): bad step rate or row count",
                  path, version);
        return EAR_E_FORMAT;
    }
    rp->rows = calloc(rows ? (size_t)rows : 1, sizeof *rp->rows); /* rows <= size / 18 */
    size_t event_cap = 64;
    rp->events = malloc(event_cap * sizeof *rp->events);
    if (!rp->rows || !rp->events) return EAR_E_OUT_OF_MEMORY;
    for (uint64_t r = 0; r < rows; r++) {
        if (size - at < 18) goto truncated;
        ear__replay_row *row = &rp->rows[r];
        row->scene_hash = get_le(b + at, 8);
        row->stage_hash = get_le(b + at + 8, 8);
        row->event_count = (uint32_t)get_le(b + at + 16, 2);
        row->first_event = (uint32_t)rp->event_count;
        at += 18;
        for (uint32_t i = 0; i < row->event_count; i++) {
            if (size - at < 3) goto truncated;
            uint8_t type = b[at], key = b[at + 1], tl = b[at + 2];
            at += 3;
            bool pad = type >= EAR_INPUT_PAD_ADDED;
            unsigned limit = type == EAR_INPUT_PAD_AXIS ? EAR_PAD_AXIS_COUNT
                             : pad                      ? EAR_PAD_BUTTON_COUNT
                                                        : EAR_KEY_COUNT;
            if (tl >= EAR_INPUT_TEXT_MAX || size - at < tl || type < EAR_INPUT_KEY_DOWN ||
                type > EAR_INPUT_PAD_AXIS || key >= limit || (pad && tl != 3) ||
                (pad && b[at] >= EAR_PAD_MAX)) {
                set_error(error, error_size, "replay '%s' (version %u): bad event in step %llu",
                          path, version, (unsigned long long)r);
                return EAR_E_FORMAT;
            }
            if (rp->event_count == event_cap) {
                event_cap *= 2;
                ear_input_event *grown = realloc(rp->events, event_cap * sizeof *grown);
                if (!grown) return EAR_E_OUT_OF_MEMORY;
                rp->events = grown;
            }
            ear_input_event *e = &rp->events[rp->event_count++];
            memset(e, 0, sizeof *e);
            e->type = (ear_input_event_type)type;
            if (pad) {
                e->control = key;
                e->pad = b[at];
                e->value = (int16_t)(uint16_t)get_le(b + at + 1, 2);
            } else {
                e->key = (ear_key)key;
                memcpy(e->text, b + at, tl);
            }
            at += tl;
        }
        rp->row_count = r + 1;
    }
    return EAR_OK;
truncated:
    set_error(error, error_size, "replay '%s' (version %u) is cut short", path, version);
    return EAR_E_FORMAT;
}

ear_result ear_replay_load(const char *path, ear_replay **out_replay, char *error,
                           size_t error_size) {
    if (!path || !out_replay) return EAR_E_INVALID_ARG;
    if (error && error_size) error[0] = '\0';
    /* A regular file of at most EAR_FILE_MAX_REPLAY_BYTES, checked on the open descriptor
     * (core.md): a FIFO is refused, not waited on. */
    char *text = NULL;
    size_t size = 0;
    char why[512];
    ear_result res =
        ear_file_read(path, EAR_FILE_MAX_REPLAY_BYTES, NULL, &text, &size, why, sizeof why);
    if (res != EAR_OK) {
        set_error(error, error_size, "replay %s", why);
        return res;
    }
    uint8_t *data = (uint8_t *)text;
    ear_replay *rp = NULL;
    if (res == EAR_OK) {
        rp = calloc(1, sizeof *rp);
        if (!rp) res = EAR_E_OUT_OF_MEMORY;
    }
    if (res == EAR_OK) res = parse(path, data, size, rp, error, error_size);
    free(data);
    if (res != EAR_OK) {
        ear_replay_free(rp);
        return res;
    }
    *out_replay = rp;
    return EAR_OK;
}

uint64_t ear_replay_steps(const ear_replay *replay) {
    return replay ? replay->row_count : 0;
}

double ear_replay_step_hz(const ear_replay *replay) {
    return replay ? replay->step_hz : 0;
}

uint64_t ear_replay_step_hash(const ear_replay *replay, uint64_t index) {
    if (!replay || index >= replay->row_count) return 0;
    const ear__replay_row *row = &replay->rows[index];
    return ear__mix64(row->scene_hash ^ ear__mix64(row->stage_hash));
}

bool ear_replay_hashes_stage(const ear_replay *replay) {
    return replay && (replay->flags & EAR__REPLAY_FLAG_STAGE);
}

const ear__replay_row *ear__replay_get_row(const ear_replay *replay, uint64_t step) {
    if (!replay || step >= replay->row_count) return NULL;
    return &replay->rows[step];
}
