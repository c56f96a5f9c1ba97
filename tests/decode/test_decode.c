/* SPDX-License-Identifier: Zlib */
/*
 * Decoding: each format made by sox (Opus by opusenc) decodes to the frames, rate and
 * channels of the file, with the RMS sox's own `stat` measures; missing, corrupt and
 * truncated files give errors that name the file and the reason, and never crash
 * (this runs under ASan and UBSan in `make test`).
 */
#define _DEFAULT_SOURCE /* mkfifo, symlink, alarm */
#include "earshot/decode.h"
#include "sox_util.h"
#include "test.h"

#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

static const char *at(const char *name) {
    static char paths[8][512];
    static int next = 0;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static double clip_rms(const ear_clip *clip) {
    const float *s = ear_clip_data(clip);
    size_t n = (size_t)ear_clip_frames(clip) * ear_clip_channels(clip);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += (double)s[i] * s[i];
    return sqrt(sum / (double)n);
}

/* Decodes `name` and checks it against the expectations and sox's stat of `stat_of`
 * (the file itself when sox reads it). frame_slack: how far the count may stray (MP3
 * carries encoder delay and padding); rms_rel: relative RMS tolerance. */
static void check_file(const char *name, ear_audio_format format, uint64_t frames,
                       uint32_t rate, uint32_t channels, uint64_t frame_slack,
                       const char *stat_of, double rms_rel) {
    ear_audio_info info;
    ear_io_error err = {{0}};
    ASSERT_OK(ear_decode_info(at(name), &info, &err));
    ASSERT_EQ(info.format, format);
    ASSERT_EQ(info.sample_rate, rate);
    ASSERT_EQ(info.channels, channels);

    ear_clip *clip = NULL;
    ear_result r = ear_decode_file(at(name), NULL, &clip, &err);
    if (r != EAR_OK) fprintf(stderr, "%s\n", err.message);
    ASSERT_OK(r);
    ASSERT_EQ(ear_clip_sample_rate(clip), rate);
    ASSERT_EQ(ear_clip_channels(clip), channels);
    ASSERT_LE(ear_clip_frames(clip), frames + frame_slack);
    ASSERT_GE(ear_clip_frames(clip), frames);
    double sox_rms = 0, sox_samples = 0;
    ASSERT_TRUE(sox_stat(at(stat_of), &sox_rms, &sox_samples));
    if (frame_slack == 0 && strcmp(stat_of, name) == 0)
        ASSERT_EQ((uint64_t)sox_samples, ear_clip_frames(clip) * channels);
    ASSERT_REL(clip_rms(clip), sox_rms, rms_rel);
    printf("  %-10s %8llu frames  %6u Hz  %u ch  rms %.6f  sox %.6f\n", name,
           (unsigned long long)ear_clip_frames(clip), rate, channels, clip_rms(clip), sox_rms);
    ear_clip_release(clip);
}

static void remove_files(void) {
    remove_tree(dir);
}

/* The files the tests read, made by sox in a scratch folder by the first test that names
 * them (SETUP_ONCE, so each test also runs alone) and removed when the process exits. */
static void make_files(void) {
    ASSERT_TRUE(scratch_dir(dir, sizeof dir, "decode"));
    atexit(remove_files);
    /* Stereo, 44.1 kHz, a different tone per channel; 2 s = 88200 frames. */
    ASSERT_TRUE(run("sox -n -b 16 -r 44100 -c 2 '%s' synth 2 sine 440 sine 660 gain -6",
                    at("two.wav")));
    ASSERT_TRUE(
        run("sox -n -b 24 -r 48000 -c 1 '%s' synth 1.5 sine 1000 gain -3", at("mono.flac")));
    ASSERT_TRUE(run("sox '%s' '%s'", at("two.wav"), at("two.flac")));
    ASSERT_TRUE(run("sox '%s' '%s'", at("two.wav"), at("two.ogg")));
    ASSERT_TRUE(run("sox '%s' '%s'", at("two.wav"), at("two.mp3")));
    ASSERT_TRUE(run("sox -n -b 32 -e floating-point -r 22050 -c 1 '%s' synth 0.5 square 300 "
                    "gain -10",
                    at("float.wav")));
    /* sox writes no Opus: opusenc encodes sox's 48 kHz WAV. */
    ASSERT_TRUE(run("sox -n -b 16 -r 48000 -c 2 '%s' synth 2 sine 440 sine 660 gain -6",
                    at("two48.wav")));
    ASSERT_TRUE(run("opusenc --quiet '%s' '%s'", at("two48.wav"), at("two.opus")));
}

TEST(wav_16_bit_stereo) {
    SETUP_ONCE(make_files);
    check_file("two.wav", EAR_AUDIO_WAV, 88200, 44100, 2, 0, "two.wav", 1e-5);
}
TEST(wav_32_bit_float) {
    SETUP_ONCE(make_files);
    check_file("float.wav", EAR_AUDIO_WAV, 11025, 22050, 1, 0, "float.wav", 1e-5);
}
TEST(flac_stereo_and_mono_24_bit) {
    SETUP_ONCE(make_files);
    check_file("two.flac", EAR_AUDIO_FLAC, 88200, 44100, 2, 0, "two.flac", 1e-5);
    check_file("mono.flac", EAR_AUDIO_FLAC, 72000, 48000, 1, 0, "mono.flac", 1e-5);
}
TEST(ogg_vorbis) {
    SETUP_ONCE(make_files);
    check_file("two.ogg", EAR_AUDIO_VORBIS, 88200, 44100, 2, 0, "two.ogg", 1e-4);
}
/* The formats this build decodes: all five on Linux; the Windows build's libsndfile has no
 * MP3 (docs/windows.md), and an MP3 file is refused there by name. */
#ifdef _WIN32
#define MP3_HERE false
#else
#define MP3_HERE true
#endif
TEST(the_formats_this_build_decodes) {
    ASSERT_TRUE(ear_decode_supports(EAR_AUDIO_WAV));
    ASSERT_TRUE(ear_decode_supports(EAR_AUDIO_FLAC));
    ASSERT_TRUE(ear_decode_supports(EAR_AUDIO_VORBIS));
    ASSERT_TRUE(ear_decode_supports(EAR_AUDIO_OPUS));
    ASSERT_EQ(ear_decode_supports(EAR_AUDIO_MP3), MP3_HERE);
    ASSERT_FALSE(ear_decode_supports(EAR_AUDIO_OTHER));
}

static void expect_error(const char *path, ear_result expected, const char *reason);
#define NO_MP3_HERE                                                                            \
    "is an MP3 file, and this build decodes no MP3 (its libsndfile was built without MPEG)"

TEST(mp3) {
    SETUP_ONCE(make_files);
    if (!MP3_HERE) {
        expect_error(at("two.mp3"), EAR_E_UNSUPPORTED, NO_MP3_HERE);
        ear_audio_info info;
        ear_io_error err = {{0}};
        ASSERT_EQ(ear_decode_info(at("two.mp3"), &info, &err), EAR_E_UNSUPPORTED);
        return;
    }
    /* libsndfile keeps the encoder's delay and padding (under two MP3 frames); sox reads
     * the same file with libmad, which trims differently, so RMS agrees to 1%. */
    check_file("two.mp3", EAR_AUDIO_MP3, 88200, 44100, 2, 2 * 1152, "two.mp3", 0.01);
}
TEST(opus) {
    SETUP_ONCE(make_files);
    /* sox cannot read Opus: compare with sox's stat of the WAV it was encoded from. */
    check_file("two.opus", EAR_AUDIO_OPUS, 96000, 48000, 2, 0, "two48.wav", 0.01);
}

/* Decodes path expecting `expected`; the message must name the file and hold `reason`. */
static void expect_error(const char *path, ear_result expected, const char *reason) {
    ear_io_error err = {{0}};
    ear_clip *clip = NULL;
    ear_result r = ear_decode_file(path, NULL, &clip, &err);
    printf("  %s\n", err.message);
    ASSERT_EQ(r, expected);
    ASSERT_NULL(clip);
    ASSERT_STR_CONTAINS(err.message, path);
    ASSERT_STR_CONTAINS(err.message, reason);
}

TEST(missing_file_names_it) {
    SETUP_ONCE(make_files);
    expect_error(at("nothing-here.wav"), EAR_E_NOT_FOUND, "no such file");
    expect_error(dir, EAR_E_IO, "folder");
}

/* libsndfile reads about twenty-five formats; Earshot decodes the five decode.md names.
 * An AIFF, a Creative VOC and an AU file (all of which libsndfile reads) are refused by
 * name, never decoded. */
TEST(formats_the_docs_do_not_name_are_refused_by_name) {
    SETUP_ONCE(make_files);
    ASSERT_TRUE(run("sox -n -b 16 -r 8000 -c 1 '%s' synth 0.1 sine 440", at("beep.aiff")));
    ASSERT_TRUE(run("sox -n -b 16 -r 8000 -c 1 '%s' synth 0.1 sine 440", at("beep.voc")));
    ASSERT_TRUE(run("sox -n -b 16 -r 8000 -c 1 '%s' synth 0.1 sine 440", at("beep.au")));
    expect_error(
        at("beep.aiff"), EAR_E_UNSUPPORTED,
        "its format, AIFF (Apple/SGI), is not one Earshot decodes (WAV, FLAC, Ogg Vorbis, "
        "Opus, MP3)");
    expect_error(at("beep.voc"), EAR_E_UNSUPPORTED, "VOC");
    expect_error(at("beep.au"), EAR_E_UNSUPPORTED, "AU");
    ear_audio_info info;
    ear_io_error err = {{0}};
    ASSERT_EQ(ear_decode_info(at("beep.voc"), &info, &err), EAR_E_UNSUPPORTED);
}

/* A FIFO or a link to /dev/zero where a sound should be is refused at once. */
TEST(a_fifo_or_a_device_is_not_a_sound_file) {
    SETUP_ONCE(make_files);
    ASSERT_EQ(mkfifo(at("pipe.wav"), 0600), 0);
    alarm(10);
    expect_error(at("pipe.wav"), EAR_E_IO, "is a FIFO, not a file");
    alarm(0);
    ASSERT_EQ(symlink("/dev/zero", at("zero.wav")), 0);
    expect_error(at("zero.wav"), EAR_E_IO, "is a character device, not a file");
}

TEST(not_audio_names_the_reason) {
    SETUP_ONCE(make_files);
    FILE *f = fopen(at("text.wav"), "w");
    ASSERT_NOT_NULL(f);
    fputs("this is a text file, not a sound\n", f);
    fclose(f);
    expect_error(at("text.wav"), EAR_E_FORMAT, "is a text file, not a sound file");
    f = fopen(at("empty.flac"), "w");
    ASSERT_NOT_NULL(f);
    fclose(f);
    expect_error(at("empty.flac"), EAR_E_FORMAT, "empty");
    /* Random bytes behind an Ogg name. */
    f = fopen(at("noise.ogg"), "wb");
    ASSERT_NOT_NULL(f);
    ear_rng rng;
    ear_rng_seed(&rng, 7);
    for (int i = 0; i < 20000; i++) fputc((int)(ear_rng_next(&rng) & 0xff), f);
    fclose(f);
    expect_error(at("noise.ogg"), EAR_E_FORMAT, "not a sound file libsndfile can read");
}

TEST(more_than_two_channels_is_unsupported) {
    SETUP_ONCE(make_files);
    ASSERT_TRUE(run("sox -n -r 48000 -c 6 '%s' synth 0.1 sine 440", at("surround.wav")));
    expect_error(at("surround.wav"), EAR_E_UNSUPPORTED, "has 6 channels");
}

TEST(truncated_files_name_the_reason) {
    SETUP_ONCE(make_files);
    ASSERT_TRUE(copy_prefix(at("two.wav"), at("cut.wav"), file_size(at("two.wav")) / 2));
    expect_error(at("cut.wav"), EAR_E_FORMAT, "truncated");
    ASSERT_TRUE(copy_prefix(at("two.flac"), at("cut.flac"), file_size(at("two.flac")) / 2));
    expect_error(at("cut.flac"), EAR_E_FORMAT, "truncated");
    ASSERT_TRUE(copy_prefix(at("two.ogg"), at("cut.ogg"), file_size(at("two.ogg")) / 2));
    expect_error(at("cut.ogg"), EAR_E_FORMAT, "truncated");
    ASSERT_TRUE(copy_prefix(at("two.opus"), at("cut.opus"), file_size(at("two.opus")) / 2));
    expect_error(at("cut.opus"), EAR_E_FORMAT, "truncated");
    /* A header alone. */
    ASSERT_TRUE(copy_prefix(at("two.wav"), at("head.wav"), 30));
    expect_error(at("head.wav"), EAR_E_FORMAT, at("head.wav"));
}

/* Flips bytes through the body of a file: an error or a clip, never a crash. */
TEST(corrupt_bodies_never_crash) {
    SETUP_ONCE(make_files);
    const char *names[] = {"two.flac", "two.ogg", "two.mp3", "two.opus", "two.wav"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        long size = file_size(at(names[k]));
        ASSERT_GT(size, 0);
        FILE *in = fopen(at(names[k]), "rb");
        ASSERT_NOT_NULL(in);
        unsigned char *bytes = malloc((size_t)size);
        ASSERT_EQ(fread(bytes, 1, (size_t)size, in), (size_t)size);
        fclose(in);
        for (long i = 200; i < size; i += 331) bytes[i] ^= 0x5a;
        char name[64];
        snprintf(name, sizeof name, "bad-%s", names[k]);
        FILE *out = fopen(at(name), "wb");
        fwrite(bytes, 1, (size_t)size, out);
        fclose(out);
        free(bytes);
        ear_io_error err = {{0}};
        ear_clip *clip = NULL;
        ear_result r = ear_decode_file(at(name), NULL, &clip, &err);
        if (r == EAR_OK) {
            const float *s = ear_clip_data(clip);
            size_t n = (size_t)ear_clip_frames(clip) * ear_clip_channels(clip);
            for (size_t i = 0; i < n; i++) ASSERT_TRUE(isfinite(s[i]));
            ear_clip_release(clip);
            printf("  %s: decoded (%zu samples)\n", name, n);
        } else {
            printf("  %s\n", err.message);
            ASSERT_STR_CONTAINS(err.message, at(name));
        }
    }
}

/* ---- Headers that claim more than the file holds ------------------------------------ */

/* An allocator that counts: live bytes now and at most (each block remembers its size). */
typedef struct counting {
    size_t live, peak, calls;
} counting;

static void *count_alloc(size_t size, void *user) {
    counting *c = user;
    unsigned char *p = malloc(size + 16);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    c->live += size;
    c->calls++;
    if (c->live > c->peak) c->peak = c->live;
    return p + 16;
}

static void count_free(void *ptr, void *user) {
    if (!ptr) return;
    counting *c = user;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t size;
    memcpy(&size, p, sizeof size);
    c->live -= size;
    free(p);
}

static void *count_realloc(void *ptr, size_t size, void *user) {
    if (!ptr) return count_alloc(size, user);
    counting *c = user;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t old;
    memcpy(&old, p, sizeof old);
    unsigned char *q = realloc(p, size + 16);
    if (!q) return NULL;
    memcpy(q, &size, sizeof size);
    c->live = c->live - old + size;
    c->calls++;
    if (c->live > c->peak) c->peak = c->live;
    return q + 16;
}

static unsigned char *read_all(const char *path, long *size) {
    *size = file_size(path);
    FILE *f = fopen(path, "rb");
    if (!f || *size <= 0) {
        if (f) fclose(f);
        return NULL;
    }
    unsigned char *b = malloc((size_t)*size);
    if (b && fread(b, 1, (size_t)*size, f) != (size_t)*size) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

static bool write_all(const char *path, const unsigned char *b, long size) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(b, 1, (size_t)size, f) == (size_t)size;
    return fclose(f) == 0 && ok;
}

/* Writes a copy of a FLAC file whose STREAMINFO claims `total` frames (36 bits at bytes
 * 21..25, after "fLaC", the block header and 10 bytes of sizes). */
static bool flac_claiming(const char *from, const char *to, uint64_t total) {
    long size;
    unsigned char *b = read_all(from, &size);
    if (!b || size < 42 || memcmp(b, "fLaC", 4) != 0) {
        free(b);
        return false;
    }
    b[21] = (unsigned char)((b[21] & 0xf0) | ((total >> 32) & 0x0f));
    for (int i = 0; i < 4; i++) b[22 + i] = (unsigned char)(total >> (24 - 8 * i));
    bool ok = write_all(to, b, size);
    free(b);
    return ok;
}

/* Ogg's page checksum: CRC-32, polynomial 0x04c11db7, no reflection, over the page with
 * its checksum field zero. */
static uint32_t ogg_crc(const unsigned char *p, size_t n) {
    uint32_t crc = 0;
    for (size_t i = 0; i < n; i++) {
        crc ^= (uint32_t)p[i] << 24;
        for (int k = 0; k < 8; k++)
            crc = crc & 0x80000000u ? (crc << 1) ^ 0x04c11db7u : crc << 1;
    }
    return crc;
}

/* Writes a copy of an Ogg file whose last page's granule position (where libsndfile reads
 * the length) is `granule`, with the page's checksum made right again. */
static bool ogg_claiming(const char *from, const char *to, uint64_t granule) {
    long size;
    unsigned char *b = read_all(from, &size);
    long last = -1;
    for (long i = 0; b && i + 27 <= size; i++)
        if (memcmp(b + i, "OggS", 4) == 0) last = i;
    bool ok = false;
    if (last >= 0) {
        unsigned char *pg = b + last;
        size_t len = 27u + pg[26];
        for (unsigned k = 0; k < pg[26]; k++) len += pg[27 + k];
        if ((long)len <= size - last) {
            for (int i = 0; i < 8; i++) pg[6 + i] = (unsigned char)(granule >> (8 * i));
            memset(pg + 22, 0, 4);
            uint32_t crc = ogg_crc(pg, len);
            for (int i = 0; i < 4; i++) pg[22 + i] = (unsigned char)(crc >> (8 * i));
            ok = write_all(to, b, size);
        }
    }
    free(b);
    return ok;
}

/* Decodes through a counting allocator; the error (if any) in err, the peak in *peak. */
static ear_result decode_counted(const char *path, ear_clip **clip, ear_io_error *err,
                                 counting *c) {
    *c = (counting){0};
    ear_allocator a = {count_alloc, count_realloc, count_free, c};
    *clip = NULL;
    return ear_decode_file(path, &a, clip, err);
}

/* A few kilobytes that claim billions of frames cost nothing; a claim the file's size
 * allows but its body does not keep is found while decoding, at the memory of what the
 * body holds. Four seconds of mono 48 kHz (192000 frames) in each format. */
TEST(overclaiming_headers_cost_what_the_file_holds) {
    SETUP_ONCE(make_files);
    ASSERT_TRUE(run("sox -n -b 16 -r 48000 -c 1 '%s' synth 4 sine 440 gain -3", at("c.wav")));
    ASSERT_TRUE(run("sox '%s' '%s'", at("c.wav"), at("c.flac")));
    ASSERT_TRUE(run("sox '%s' -C 0 '%s'", at("c.wav"), at("c.ogg")));
    ASSERT_TRUE(run("opusenc --quiet --bitrate 16 '%s' '%s'", at("c.wav"), at("c.opus")));
    ASSERT_TRUE(flac_claiming(at("c.flac"), at("huge.flac"), ((uint64_t)1 << 36) - 1));
    ASSERT_TRUE(flac_claiming(at("c.flac"), at("mid.flac"), 10000000));
    ASSERT_TRUE(ogg_claiming(at("c.ogg"), at("huge.ogg"), (uint64_t)1 << 40));
    ASSERT_TRUE(ogg_claiming(at("c.ogg"), at("mid.ogg"), 10000000));
    ASSERT_TRUE(ogg_claiming(at("c.opus"), at("huge.opus"), (uint64_t)1 << 40));
    ASSERT_TRUE(ogg_claiming(at("c.opus"), at("mid.opus"), 10000000));

    const char *huge[] = {"huge.flac", "huge.ogg", "huge.opus"};
    for (size_t k = 0; k < 3; k++) {
        ear_audio_info info;
        ear_io_error err = {{0}};
        ASSERT_EQ(ear_decode_info(at(huge[k]), &info, &err), EAR_E_FORMAT);
        ear_clip *clip;
        counting c;
        ASSERT_EQ(decode_counted(at(huge[k]), &clip, &err, &c), EAR_E_FORMAT);
        printf("  %s\n", err.message);
        ASSERT_STR_CONTAINS(err.message, at(huge[k]));
        ASSERT_STR_CONTAINS(err.message, "corrupt: the header claims");
        ASSERT_NULL(clip);
        ASSERT_EQ(c.peak, 0); /* refused before a byte was allocated */
    }
    const char *mid[] = {"mid.flac", "mid.ogg", "mid.opus"};
    for (size_t k = 0; k < 3; k++) {
        ear_io_error err = {{0}};
        ear_clip *clip;
        counting c;
        ASSERT_EQ(decode_counted(at(mid[k]), &clip, &err, &c), EAR_E_FORMAT);
        printf("  %s (peak %zu bytes)\n", err.message, c.peak);
        ASSERT_STR_CONTAINS(err.message, "truncated: the header promises");
        ASSERT_NULL(clip);
        ASSERT_EQ(c.live, 0);
        /* The documented bound: the first guess (8 frames a byte of the file plus 65536)
         * or twice the frames really there (192000, and a packet more for Ogg), whichever
         * is larger; 4 bytes a sample. */
        size_t guess = (size_t)file_size(at(mid[k])) * 8 + 65536;
        size_t twice = 2 * (192000 + 1024);
        ASSERT_LE(c.peak, (guess > twice ? guess : twice) * sizeof(float));
        /* and far below what the claim would have cost (10 M frames, 40 MB) */
        ASSERT_LT(c.peak, (size_t)10000000 * sizeof(float) / 8);
    }
    /* MP3 has no exact count, but a Xing frame (put first) sets libsndfile's estimate:
     * 2^31 - 1 MP3 frames, 2.5 T audio frames. The file decodes to what it holds. */
    ASSERT_TRUE(run("sox '%s' '%s'", at("c.wav"), at("c.mp3")));
    if (!MP3_HERE) {
        expect_error(at("c.mp3"), EAR_E_UNSUPPORTED, NO_MP3_HERE);
    } else {
        long size;
        unsigned char *b = read_all(at("c.mp3"), &size);
        ASSERT_NOT_NULL(b);
        ASSERT_GT(size, 4);
        ASSERT_EQ(b[0], 0xff);
        ASSERT_EQ(b[1] & 0xe0, 0xe0);
        /* sox's first frame: MPEG-1 layer III, 64 kbit/s, 48 kHz, mono (ff fb 54 c4): 192
         * bytes, the Xing tag after 4 + 17 bytes of header and side information. */
        ASSERT_EQ(b[1], 0xfb);
        ASSERT_EQ(b[2], 0x54);
        ASSERT_EQ(b[3] & 0xc0, 0xc0);
        unsigned char xing[192] = {0};
        memcpy(xing, b, 4);
        memcpy(xing + 21, "Xing\0\0\0\x01\x7f\xff\xff\xff", 12);
        FILE *f = fopen(at("xing.mp3"), "wb");
        ASSERT_NOT_NULL(f);
        ASSERT_EQ(fwrite(xing, 1, sizeof xing, f), sizeof xing);
        ASSERT_EQ(fwrite(b, 1, (size_t)size, f), (size_t)size);
        ASSERT_EQ(fclose(f), 0);
        free(b);
        ear_audio_info info;
        ear_io_error err = {{0}};
        ASSERT_OK(ear_decode_info(at("xing.mp3"), &info, &err));
        ASSERT_GT(info.frames, (uint64_t)1 << 40); /* the claim libsndfile passes on */
        ear_clip *clip;
        counting c;
        ASSERT_OK(decode_counted(at("xing.mp3"), &clip, &err, &c));
        printf("  xing.mp3: claims %llu frames, holds %llu, peak %zu bytes\n",
               (unsigned long long)info.frames, (unsigned long long)ear_clip_frames(clip),
               c.peak);
        ASSERT_GE(ear_clip_frames(clip), 192000);
        ASSERT_LE(ear_clip_frames(clip), 192000 + 2 * 1152 + 1152);
        size_t guess = (size_t)(size + 192) * 8 + 65536;
        size_t twice = 2 * (size_t)ear_clip_frames(clip);
        ASSERT_LE(c.peak, (guess > twice ? guess : twice) * sizeof(float) + 256);
        ear_clip_release(clip);
    }
    /* The true files, through the same allocator: exactly their frames, nothing kept. */
    const char *good[] = {"c.flac", "c.ogg", "c.opus"};
    for (size_t k = 0; k < 3; k++) {
        ear_io_error err = {{0}};
        ear_clip *clip;
        counting c;
        ASSERT_OK(decode_counted(at(good[k]), &clip, &err, &c));
        ASSERT_U64_EQ(ear_clip_frames(clip), 192000);
        ASSERT_LE(c.live, 192000 * sizeof(float) + 256); /* the samples and the header */
        ear_clip_release(clip);
        ASSERT_EQ(c.live, 0);
    }
}

/* A file whose real frames exceed the first guess (silence compresses to almost nothing)
 * grows its buffer: every frame arrives, and what is kept is exactly the clip. */
TEST(a_very_compressible_file_decodes_whole) {
    SETUP_ONCE(make_files);
    ASSERT_TRUE(run("sox -D -n -b 16 -r 48000 -c 1 '%s' trim 0 60", at("quiet.flac")));
    long bytes = file_size(at("quiet.flac"));
    ASSERT_LT((size_t)bytes * 8 + 65536, 2880000); /* the first guess is too small */
    ear_io_error err = {{0}};
    ear_clip *clip;
    counting c;
    ASSERT_OK(decode_counted(at("quiet.flac"), &clip, &err, &c));
    ASSERT_U64_EQ(ear_clip_frames(clip), 2880000);
    ASSERT_LE(c.live, 2880000 * sizeof(float) + 256);
    ASSERT_LE(c.peak, 2 * 2880000 * sizeof(float) + 256); /* doubling: at most twice */
    printf("  %ld bytes -> %llu frames, peak %zu bytes\n", bytes,
           (unsigned long long)ear_clip_frames(clip), c.peak);
    ear_clip_release(clip);
}

TEST(errors_are_logged_without_an_error_buffer) {
    SETUP_ONCE(make_files);
    log_catcher c;
    start_catching(&c);
    ear_clip *clip = NULL;
    ear_result r = ear_decode_file(at("nothing-here.ogg"), NULL, &clip, NULL);
    stop_catching();
    ASSERT_EQ(r, EAR_E_NOT_FOUND);
    ASSERT_EQ(c.lines, 1);
    ASSERT_STR_CONTAINS(c.text, "[io]");
    ASSERT_STR_CONTAINS(c.text, "nothing-here.ogg: no such file");
    ASSERT_EQ(ear_decode_file(NULL, NULL, &clip, NULL), EAR_E_INVALID_ARG);
}

TEST_MAIN(TEST_ENTRY(wav_16_bit_stereo), TEST_ENTRY(wav_32_bit_float),
          TEST_ENTRY(flac_stereo_and_mono_24_bit), TEST_ENTRY(ogg_vorbis),
          TEST_ENTRY(the_formats_this_build_decodes), TEST_ENTRY(mp3), TEST_ENTRY(opus),
          TEST_ENTRY(missing_file_names_it), TEST_ENTRY(not_audio_names_the_reason),
          TEST_ENTRY(formats_the_docs_do_not_name_are_refused_by_name),
          TEST_ENTRY(a_fifo_or_a_device_is_not_a_sound_file),
          TEST_ENTRY(more_than_two_channels_is_unsupported),
          TEST_ENTRY(truncated_files_name_the_reason), TEST_ENTRY(corrupt_bodies_never_crash),
          TEST_ENTRY(overclaiming_headers_cost_what_the_file_holds),
          TEST_ENTRY(a_very_compressible_file_decodes_whole),
          TEST_ENTRY(errors_are_logged_without_an_error_buffer))
