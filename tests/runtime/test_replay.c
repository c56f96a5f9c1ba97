/* SPDX-License-Identifier: Zlib */
/*
 * Replays: a headless run of 10,000 fixed steps with random keys is recorded; playing it
 * back reproduces the scene's state hash and the stage's rendered output at every step.
 * A scene changed to act differently (in its state, or only in what it plays) is caught
 * at the step where it starts. Files from an older or unknown format are refused with a
 * message that names the file and the version.
 */
#include "earshot/engine.h"
#include "runtime_internal.h"
#include "test.h"

#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <unistd.h>

#define STEPS 10000

typedef struct walker {
    int64_t x;
    uint32_t jumps;
    uint64_t chars;
    ear_clip *blip;
    int variant; /* 0 faithful; 1 state differs from step 5000; 2 only the sound */
    uint64_t hashes[STEPS];
    uint64_t steps;
} walker;

static uint64_t walker_hash(ear_ctx *ctx, void *user) {
    (void)ctx;
    walker *w = user;
    return ear__mix64((uint64_t)w->x * 1000003u ^ ((uint64_t)w->jumps << 32) ^ w->chars);
}

static void walker_start(ear_ctx *ctx, void *user) {
    (void)ctx;
    walker *w = user;
    float s[2400];
    for (int i = 0; i < 2400; i++)
        s[i] = 0.2f * sinf(2.0f * 3.14159265f * 440.0f * (float)i / 48000.0f);
    ear_clip_create(s, 2400, 1, 48000, NULL, &w->blip);
}

static void walker_end(ear_ctx *ctx, void *user) {
    (void)ctx;
    walker *w = user;
    ear_clip_release(w->blip);
    w->blip = NULL;
}

static void walker_fixed(ear_ctx *ctx, void *user) {
    walker *w = user;
    uint64_t step = ear_ctx_step(ctx);
    if (ear_key_held(ctx, EAR_KEY_RIGHT)) w->x++;
    if (ear_key_held(ctx, EAR_KEY_LEFT)) w->x--;
    if (w->variant == 1 && step >= 5000) w->x += 2;
    if (ear_key_pressed(ctx, EAR_KEY_SPACE)) {
        w->jumps++;
        ear_play p = {0};
        p.placed = true;
        p.position = ear_vec3_make((float)(w->x % 20), 0, -2);
        p.pitch = (w->variant == 2 && step >= 5000) ? 1.5f : 1.0f;
        ear_stage_play(ear_ctx_stage(ctx), w->blip, &p, NULL);
    }
    for (const char *t = ear_text_typed(ctx); *t; t++) w->chars = w->chars * 31u + (uint8_t)*t;
    if (w->steps < STEPS) w->hashes[w->steps] = walker_hash(ctx, user);
    w->steps++;
}

static ear_scene walker_scene(walker *w) {
    ear_scene s = {.name = "walker",
                   .start = walker_start,
                   .end = walker_end,
                   .fixed_update = walker_fixed,
                   .hash_state = walker_hash,
                   .user = w};
    return s;
}

/* Random keys: each frame, a few percent chance of a key going down or up, some text. */
static ear_script_event *random_script(size_t *count) {
    ear_rng rng;
    ear_rng_seed(&rng, 2026);
    static const ear_key keys[] = {EAR_KEY_LEFT, EAR_KEY_RIGHT, EAR_KEY_SPACE};
    static const char *const texts[] = {"a", "bc", "ü"};
    ear_script_event *ev = calloc(STEPS * 2, sizeof *ev);
    size_t n = 0;
    for (uint64_t f = 1; f <= STEPS && ev; f++) {
        uint32_t r = ear_rng_below(&rng, 100);
        if (r < 8) {
            ev[n].frame = f;
            ev[n].action = r < 4 ? EAR_SCRIPT_DOWN : EAR_SCRIPT_UP;
            ev[n].key = keys[ear_rng_below(&rng, 3)];
            n++;
        } else if (r < 10) {
            ev[n].frame = f;
            ev[n].action = EAR_SCRIPT_PRESS;
            ev[n].key = EAR_KEY_SPACE;
            n++;
        } else if (r == 10) {
            ev[n].frame = f;
            ev[n].action = EAR_SCRIPT_TEXT;
            ev[n].text = texts[ear_rng_below(&rng, 3)];
            n++;
        }
    }
    *count = n;
    return ev;
}

static void temp_path(char *path) {
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
}

TEST(replay_reproduces_10000_steps_of_state_and_sound) {
    static walker rec, rep;
    memset(&rec, 0, sizeof rec);
    memset(&rep, 0, sizeof rep);
    char path[] = "/tmp/earshot-replay-XXXXXX";
    temp_path(path);
    size_t n;
    ear_script_event *ev = random_script(&n);
    ASSERT_NOT_NULL(ev);
    ear_script script = {ev, n};

    ear_engine_config cfg = ear_engine_config_default("replay");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.script = &script;
    cfg.frames = STEPS + 1; /* frame 0 only starts the scene */
    cfg.record_path = path;
    ear_scene s1 = walker_scene(&rec);
    ASSERT_OK(ear_engine_run(&cfg, &s1));
    free(ev);
    ASSERT_EQ(rec.steps, STEPS);
    ASSERT_GT(rec.jumps, 100);

    ear_replay *rp;
    char err[256];
    ASSERT_OK(ear_replay_load(path, &rp, err, sizeof err));
    ASSERT_EQ(ear_replay_steps(rp), STEPS);
    ASSERT_NEAR(ear_replay_step_hz(rp), 60, 0);
    ASSERT_TRUE(ear_replay_hashes_stage(rp));
    ASSERT_U64_EQ(ear__replay_get_row(rp, 1234)->scene_hash, rec.hashes[1234]);
    /* Jumps played sound: some rows' stage hash differs from the silent one. */
    uint64_t silent = ear__replay_get_row(rp, 0)->stage_hash, sounding = 0;
    for (uint64_t i = 0; i < STEPS; i++)
        sounding += ear__replay_get_row(rp, i)->stage_hash != silent;
    ASSERT_GT(sounding, 300); /* about 700 with this seed */
    ear_replay_free(rp);

    ear_engine_config pcfg = ear_engine_config_default("replay");
    pcfg.replay_path = path;
    ear_scene s2 = walker_scene(&rep);
    ASSERT_OK(ear_engine_run(&pcfg, &s2));
    ASSERT_EQ(rep.steps, STEPS);
    for (uint64_t i = 0; i < STEPS; i++) ASSERT_U64_EQ(rep.hashes[i], rec.hashes[i]);
    ASSERT_EQ(rep.x, rec.x);
    ASSERT_EQ(rep.jumps, rec.jumps);
    ASSERT_U64_EQ(rep.chars, rec.chars);

    /* A scene that changes its state from step 5000, and one that changes only what it
     * plays: both are caught at the first step that differs. */
    for (int variant = 1; variant <= 2; variant++) {
        static walker bad;
        memset(&bad, 0, sizeof bad);
        bad.variant = variant;
        ear_scene s3 = walker_scene(&bad);
        ear_runner *r;
        ASSERT_OK(ear_runner_create(&pcfg, &s3, &r));
        for (int f = 0; ear_runner_running(r) && !ear_runner_replay_done(r); f++)
            ear_runner_frame(r, f / 60.0);
        uint64_t mismatch = ear_runner_replay_mismatch(r);
        ear_runner_destroy(r);
        if (variant == 1) {
            ASSERT_U64_EQ(mismatch, 5000);
        } else {
            /* The first jump at or after step 5000 sounds different. */
            ASSERT_GE(mismatch, 5000);
            ASSERT_LT(mismatch, 5300);
        }
    }
    ear_scene s4 = walker_scene(&rep);
    memset(&rep, 0, sizeof rep);
    rep.variant = 1;
    ASSERT_EQ(ear_engine_run(&pcfg, &s4), EAR_E_STATE);
    unlink(path);
}

/* A scene that pauses itself at step 10 and resumes when R is pressed (unless deaf). */
typedef struct pauser {
    bool deaf;
    uint64_t steps;
} pauser;

static void pauser_fixed(ear_ctx *ctx, void *user) {
    pauser *p = user;
    if (++p->steps == 10) ear_time_pause(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
}

static void pauser_update(ear_ctx *ctx, void *user) {
    pauser *p = user;
    if (!p->deaf && ear_key_pressed(ctx, EAR_KEY_R))
        ear_time_resume(ear_ctx_time(ctx), EAR_PAUSE_PLAYER);
}

TEST(replay_that_takes_no_step_stops_as_stalled) {
    char path[] = "/tmp/earshot-stall-XXXXXX";
    temp_path(path);
    ear_script_event ev[] = {{.frame = 30, .action = EAR_SCRIPT_PRESS, .key = EAR_KEY_R}};
    ear_script script = {ev, 1};
    static pauser rec, rep;
    memset(&rec, 0, sizeof rec);
    ear_engine_config cfg = ear_engine_config_default("stall");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.script = &script;
    cfg.frames = 100;
    cfg.record_path = path;
    ear_scene s1 = {.fixed_update = pauser_fixed, .update = pauser_update, .user = &rec};
    ASSERT_OK(ear_engine_run(&cfg, &s1));
    ASSERT_EQ(rec.steps, 10 + 69); /* paused from frame 11 to frame 30 */

    memset(&rep, 0, sizeof rep);
    rep.deaf = true; /* never resumes: the replay would wait forever */
    ear_engine_config pcfg = ear_engine_config_default("stall");
    pcfg.replay_path = path;
    ear_scene s2 = {.fixed_update = pauser_fixed, .update = pauser_update, .user = &rep};
    ASSERT_EQ(ear_engine_run(&pcfg, &s2), EAR_E_STATE);
    ASSERT_EQ(rep.steps, 10);
    unlink(path);
}

static void write_file(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, size, f);
    fclose(f);
}

TEST(old_and_unknown_formats_are_refused_by_name_and_version) {
    char path[] = "/tmp/earshot-oldreplay-XXXXXX";
    temp_path(path);
    uint8_t file[64] = {0};
    memcpy(file, EAR__REPLAY_MAGIC, EAR__REPLAY_MAGIC_LEN);
    char err[512], want[512];
    ear_replay *rp = NULL;

    file[16] = 0; /* version 0: the format before this one */
    write_file(path, file, sizeof file);
    ASSERT_EQ(ear_replay_load(path, &rp, err, sizeof err), EAR_E_FORMAT);
    snprintf(want, sizeof want,
             "replay '%s' is format version 0, an older format; this engine reads version 1 "
             "only: record it again",
             path);
    ASSERT_STR_EQ(err, want);
    ASSERT_NULL(rp);

    file[16] = 7; /* from a newer engine */
    write_file(path, file, sizeof file);
    ASSERT_EQ(ear_replay_load(path, &rp, err, sizeof err), EAR_E_FORMAT);
    ASSERT_STR_CONTAINS(err, "version 7, an unknown format");
    ASSERT_STR_CONTAINS(err, path);

    write_file(path, "key = value\n", 12);
    ASSERT_EQ(ear_replay_load(path, &rp, err, sizeof err), EAR_E_FORMAT);
    ASSERT_STR_CONTAINS(err, "not an Earshot replay");

    /* A version-1 header that promises rows the file does not hold. */
    file[16] = 1;
    double hz = 60;
    memcpy(file + 24, &hz, 8);
    file[32] = 5;
    write_file(path, file, 40);
    ASSERT_EQ(ear_replay_load(path, &rp, err, sizeof err), EAR_E_FORMAT);

    /* The engine refuses to start on such a file. */
    file[16] = 0;
    write_file(path, file, sizeof file);
    ear_engine_config cfg = ear_engine_config_default("old");
    cfg.replay_path = path;
    static walker w;
    memset(&w, 0, sizeof w);
    ear_scene s = walker_scene(&w);
    ASSERT_EQ(ear_engine_run(&cfg, &s), EAR_E_FORMAT);
    ASSERT_EQ(w.steps, 0);
    unlink(path);
    ASSERT_EQ(ear_replay_load(path, &rp, err, sizeof err), EAR_E_NOT_FOUND);
}

/* A FIFO given as the replay is refused at once (it was opened with fopen, which waits
 * for a writer), and so is a link to /dev/zero. A recording keeps a foreign file, never
 * replaces a device, and one whose writes fail (a file-size limit, as a full disk) is the
 * run's error with the path as it was. */
TEST(replay_files_are_checked_and_recordings_written_safely) {
    char dir[] = "/tmp/earshot-replay-files-XXXXXX";
    ASSERT_TRUE(mkdtemp(dir) != NULL);
    char fifo[300], zero[300], foreign[300], out[300], err[512];
    snprintf(fifo, sizeof fifo, "%s/fifo.rep", dir);
    snprintf(zero, sizeof zero, "%s/zero.rep", dir);
    snprintf(foreign, sizeof foreign, "%s/notes.txt", dir);
    snprintf(out, sizeof out, "%s/run.rep", dir);
    ASSERT_EQ(mkfifo(fifo, 0600), 0);
    ASSERT_EQ(symlink("/dev/zero", zero), 0);
    ear_replay *rp = NULL;
    alarm(10);
    ASSERT_EQ(ear_replay_load(fifo, &rp, err, sizeof err), EAR_E_IO);
    alarm(0);
    ASSERT_TRUE(strstr(err, "fifo.rep: is a FIFO, not a file") != NULL);
    ASSERT_EQ(ear_replay_load(zero, &rp, err, sizeof err), EAR_E_IO);
    ASSERT_TRUE(strstr(err, "zero.rep: is a character device, not a file") != NULL);

    static walker w;
    memset(&w, 0, sizeof w);
    ear_scene s = walker_scene(&w);
    ear_engine_config cfg = ear_engine_config_default("record");
    cfg.backend = EAR_BACKEND_HEADLESS;
    cfg.frames = 30;
    write_file(foreign, "keep me", 7);
    cfg.record_path = foreign;
    ASSERT_EQ(ear_engine_run(&cfg, &s), EAR_E_STATE);
    FILE *f = fopen(foreign, "rb");
    char text[16] = {0};
    ASSERT_TRUE(f != NULL);
    ASSERT_EQ(fread(text, 1, sizeof text - 1, f), 7);
    fclose(f);
    ASSERT_STR_EQ(text, "keep me");
    cfg.record_path = "/dev/null";
    ASSERT_EQ(ear_engine_run(&cfg, &s), EAR_E_STATE);
    /* A recording that does not fit: the run fails, and the path holds nothing. */
    fflush(NULL);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {200, 200};
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0) _exit(3);
        cfg.record_path = out;
        cfg.frames = 600;
        memset(&w, 0, sizeof w);
        _exit(ear_engine_run(&cfg, &s) == EAR_E_IO ? 0 : 4);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    ASSERT_NE(access(out, F_OK), 0);
    /* Recorded again where one was, it is replaced. */
    cfg.record_path = out;
    ASSERT_OK(ear_engine_run(&cfg, &s));
    ASSERT_OK(ear_engine_run(&cfg, &s));
    ASSERT_OK(ear_replay_load(out, &rp, err, sizeof err));
    ear_replay_free(rp);
    unlink(out);
    unlink(foreign);
    unlink(fifo);
    unlink(zero);
    rmdir(dir);
}

TEST_MAIN(TEST_ENTRY(replay_reproduces_10000_steps_of_state_and_sound),
          TEST_ENTRY(replay_that_takes_no_step_stops_as_stalled),
          TEST_ENTRY(old_and_unknown_formats_are_refused_by_name_and_version),
          TEST_ENTRY(replay_files_are_checked_and_recordings_written_safely))
