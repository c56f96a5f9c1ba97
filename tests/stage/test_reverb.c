/* SPDX-License-Identifier: Zlib */
/*
 * The room reverb, measured on rendered impulse responses: RT60 by Schroeder backward
 * integration per band (band-filtered IR, T30 fit), the normalised echo density (Abel &
 * Huang), the tail's energy against its formula, the distance rule of a voice's send;
 * no subnormal float in the state through an hour of silent input, deterministic wake-up;
 * chunk independence; a send of 0 bit-identical to a stage without a reverb.
 */
#include "earshot/mixer.h"
#include "stage_util.h"
#include "test.h"

#include <float.h>

/* A one-frame impulse of height 1. */
static ear_clip *impulse_clip(void) {
    float one = 1.0f;
    ear_clip *c = NULL;
    if (ear_clip_create(&one, 1, 1, RATE, NULL, &c) != EAR_OK) return NULL;
    return c;
}

static ear_stage *stage_with(uint32_t block, bool no_reverb) {
    ear_stage_config c = ear_stage_config_default();
    c.kernel = test_kernel();
    c.block_frames = block;
    c.no_reverb = no_reverb;
    ear_stage *s = NULL;
    if (ear_stage_create(&c, &s) != EAR_OK) return NULL;
    return s;
}

/* The test room: two clearly different bands, a crossover well between them. */
static ear_reverb_params test_room(void) {
    ear_reverb_params p = ear_reverb_params_default();
    p.rt60_low_s = 2.0f;
    p.rt60_high_s = 1.0f;
    p.crossover_hz = 1000.0f;
    p.predelay_ms = 10.0f;
    p.size = 1.0f;
    p.density = 1.0f;
    p.damping = 0.0f;
    p.wet = 1.0f;
    return p;
}

/* The wet impulse response (left and right, `frames` long, from the impulse on): a flat
 * impulse voice sending 1 into the room; the dry impulse (frame 0) is removed. */
static float *impulse_response(const ear_reverb_params *room, uint32_t frames) {
    ear_stage *s = stage_with(160, false);
    ear_clip *imp = impulse_clip();
    if (ear_stage_set_reverb(s, room, 0.0f) != EAR_OK) return NULL;
    free(render(s, 9600)); /* the room's 20 ms transition is over long before */
    ear_stage_play(s, imp, &(ear_play){.reverb_send = 1.0f}, NULL);
    float *out = render(s, frames);
    out[0] = out[1] = 0.0f;
    ear_stage_destroy(s);
    ear_clip_release(imp);
    return out;
}

/* RBJ band-pass (constant 0 dB peak), applied twice: a 4th-order band around fc. */
static void band_filter(const float *in, size_t stride, double *out, size_t n, double fc,
                        double q) {
    double w = 2.0 * PI_D * fc / RATE, al = sin(w) / (2.0 * q), a0 = 1.0 + al;
    double b0 = al / a0, b2 = -al / a0, a1 = -2.0 * cos(w) / a0, a2 = (1.0 - al) / a0;
    for (size_t i = 0; i < n; i++) out[i] = in[i * stride];
    for (int pass = 0; pass < 2; pass++) {
        double x1 = 0, x2 = 0, y1 = 0, y2 = 0;
        for (size_t i = 0; i < n; i++) {
            double x = out[i], y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2;
            x2 = x1, x1 = x, y2 = y1, y1 = y;
            out[i] = y;
        }
    }
}

/* RT60 from Schroeder's backward integral: a least-squares line through the decay curve
 * between -5 and -35 dB (T30), extrapolated to -60 dB. */
static double schroeder_rt60(const double *h, size_t n) {
    double *e = malloc(n * sizeof *e), acc = 0.0;
    for (size_t i = n; i-- > 0;) e[i] = acc += h[i] * h[i];
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double db = 10.0 * log10(e[i] / e[0]);
        if (db > -5.0 || db < -35.0) continue;
        double t = (double)i / RATE;
        sx += t, sy += db, sxx += t * t, sxy += t * db, m++;
    }
    free(e);
    double slope = ((double)m * sxy - sx * sy) / ((double)m * sxx - sx * sx);
    return -60.0 / slope;
}

static double band_rt60(const float *ir, uint32_t frames, uint32_t channel, double fc) {
    double *h = malloc(frames * sizeof *h);
    band_filter(ir + channel, 2, h, frames, fc, 1.414);
    double rt = schroeder_rt60(h, frames);
    free(h);
    return rt;
}

TEST(rt60_by_schroeder_within_10_percent_in_each_band) {
    ear_reverb_params room = test_room();
    uint32_t frames = 4 * RATE;
    float *ir = impulse_response(&room, frames);
    ASSERT_NOT_NULL(ir);
    for (uint32_t ch = 0; ch < 2; ch++) {
        double lo = band_rt60(ir, frames, ch, 125.0), hi = band_rt60(ir, frames, ch, 8000.0);
        printf("  channel %u: RT60 %.3f s at 125 Hz (set %.2f), %.3f s at 8 kHz (set %.2f)\n",
               ch, lo, (double)room.rt60_low_s, hi, (double)room.rt60_high_s);
        ASSERT_REL(lo, room.rt60_low_s, 0.10);
        ASSERT_REL(hi, room.rt60_high_s, 0.10);
    }
    free(ir);
    /* The other way round (bright room), and every preset's low band. */
    room.rt60_low_s = 0.8f;
    room.rt60_high_s = 1.6f;
    ir = impulse_response(&room, frames);
    ASSERT_REL(band_rt60(ir, frames, 0, 125.0), 0.8, 0.10);
    ASSERT_REL(band_rt60(ir, frames, 0, 8000.0), 1.6, 0.10);
    free(ir);
    for (uint32_t k = 0; k < EAR_REVERB_PRESET_COUNT; k++) {
        ear_reverb_params p;
        ASSERT_OK(ear_reverb_preset_params((ear_reverb_preset)k, &p));
        uint32_t n = (uint32_t)(p.rt60_low_s * 1.2f * RATE) + RATE / 2;
        float *pir = impulse_response(&p, n);
        double lo = band_rt60(pir, n, 0, p.crossover_hz / 8.0);
        printf("  %s: RT60 %.3f s at %.0f Hz (set %.2f)\n",
               ear_reverb_preset_name((ear_reverb_preset)k), lo, (double)p.crossover_hz / 8.0,
               (double)p.rt60_low_s);
        ASSERT_REL(lo, p.rt60_low_s, 0.10);
        free(pir);
    }
}

/* Abel & Huang's normalised echo density over a 20 ms window centred at each frame step:
 * the fraction of samples beyond one standard deviation, over erfc(1 / sqrt 2). */
static double ned_at(const float *ir, size_t center, size_t half) {
    double e = 0.0;
    for (size_t i = center - half; i < center + half; i++) e += (double)ir[2 * i] * ir[2 * i];
    double sd = sqrt(e / (double)(2 * half));
    size_t over = 0;
    for (size_t i = center - half; i < center + half; i++)
        if (fabs(ir[2 * i]) > sd) over++;
    return (double)over / (double)(2 * half) / 0.31731050786291415;
}

TEST(echo_density_reaches_gaussian_within_100_ms) {
    const char *names[] = {"test room", "room", "hall", "cave", "corridor", "outdoors"};
    for (int k = -1; k < (int)EAR_REVERB_PRESET_COUNT; k++) {
        ear_reverb_params p = test_room();
        if (k >= 0) ASSERT_OK(ear_reverb_preset_params((ear_reverb_preset)k, &p));
        uint32_t frames = RATE;
        float *ir = impulse_response(&p, frames);
        size_t half = RATE / 100; /* a 20 ms window */
        double first = -1.0, least = 10.0, sum = 0.0;
        uint32_t count = 0;
        for (size_t c = half; c + half < frames; c += RATE / 1000) {
            double ned = ned_at(ir, c, half);
            double t = (double)c / RATE - (double)p.predelay_ms / 1000.0; /* from onset */
            if (first < 0.0 && ned >= 0.9) first = t;
            if (t >= 0.1 && t <= 0.5) {
                least = ned < least ? ned : least;
                sum += ned, count++;
            }
        }
        printf("  %s (density %.1f): NED >= 0.9 from %.0f ms after the pre-delay; 100..500 ms "
               "mean %.3f, least %.3f\n",
               names[k + 1], (double)p.density, first * 1000.0, sum / count, least);
        /* Required for the test room and every preset but outdoors, whose sparse, short
         * tail is the point: NED reaches 0.9 within 100 ms of the reverb's onset (the end
         * of its pre-delay) and stays Gaussian on average (no flutter). */
        if (k != EAR_REVERB_OUTDOORS) {
            ASSERT_DBL_GE(first, 0.0);
            ASSERT_DBL_LE(first, 0.100);
            ASSERT_DBL_GE(sum / count, 0.9);
        }
        free(ir);
    }
}

TEST(tail_energy_follows_wet_squared_times_rt60) {
    /* Three rooms of flat decay (damping 0): the energy per channel is wet^2 x RT60 / 1 s
     * within 0.5 dB. */
    const float rt[3] = {1.5f, 1.0f, 0.5f}, size[3] = {1.0f, 2.0f, 0.4f},
                wet[3] = {0.5f, 1.0f, 2.0f};
    for (uint32_t k = 0; k < 3; k++) {
        ear_reverb_params p = test_room();
        p.rt60_low_s = p.rt60_high_s = rt[k];
        p.size = size[k];
        p.wet = wet[k];
        uint32_t frames = (uint32_t)(rt[k] * 2.5f * RATE);
        float *ir = impulse_response(&p, frames);
        for (uint32_t ch = 0; ch < 2; ch++) {
            double e = 0.0;
            for (uint32_t i = 0; i < frames; i++) e += (double)ir[2 * i + ch] * ir[2 * i + ch];
            double want = (double)wet[k] * wet[k] * rt[k];
            printf("  RT60 %.1f s, size %.1f, wet %.1f, channel %u: energy %.4f, formula %.4f "
                   "(%+.2f dB)\n",
                   (double)rt[k], (double)size[k], (double)wet[k], ch, e, want,
                   10.0 * log10(e / want));
            ASSERT_NEAR(10.0 * log10(e / want), 0.0, 0.5);
        }
        free(ir);
    }
}

/* The wet tail of a placed impulse voice straight ahead at `distance_m` (inverse model,
 * reference 1 m), sending 1: its energy. The dry impulse is the first block only. */
static double wet_energy_at(float distance_m) {
    ear_stage *s = stage_with(160, false);
    ear_clip *imp = impulse_clip();
    ear_reverb_params room = test_room();
    ear_stage_set_reverb(s, &room, 0.0f);
    free(render(s, 9600));
    ear_play p = placed_at(0.0f, 0.0f, -distance_m);
    p.looping = false;
    p.reverb_send = 1.0f;
    ear_stage_play(s, imp, &p, NULL);
    float *out = render(s, 3 * RATE);
    double e = 0.0;
    for (uint32_t i = 480; i < 3 * RATE; i++) e += (double)out[2 * i] * out[2 * i];
    free(out);
    ear_stage_destroy(s);
    ear_clip_release(imp);
    return e;
}

TEST(far_voices_send_relatively_more_wet) {
    /* Dry gain 1 at 1 m, 1/4 at 4 m: the wet amplitude goes as sqrt(1/4) = 1/2. */
    double near = wet_energy_at(1.0f), far = wet_energy_at(4.0f);
    printf("  wet amplitude ratio 4 m / 1 m: %.4f (formula 0.5)\n", sqrt(far / near));
    ASSERT_REL(sqrt(far / near), 0.5, 0.01);
}

TEST(bus_send_equals_voice_send_and_mute_silences_it) {
    ear_reverb_params room = test_room();
    float *a = impulse_response(&room, RATE);
    /* The same impulse on sfx sending 0, the bus sending 1. */
    ear_stage *s = stage_with(160, false);
    ear_clip *imp = impulse_clip();
    ear_stage_set_reverb(s, &room, 0.0f);
    free(render(s, 9600));
    ASSERT_OK(ear_stage_set_bus_reverb_send(s, EAR_BUS_SFX, 1.0f));
    ASSERT_REL(ear_stage_get_bus_reverb_send(s, EAR_BUS_SFX), 1.0, 0);
    free(render(s, 160)); /* the send's one-block ramp */
    ear_stage_play(s, imp, NULL, NULL);
    float *b = render(s, RATE);
    b[0] = b[1] = 0.0f;
    ASSERT_EQ(memcmp(a, b, (size_t)RATE * 2 * sizeof(float)), 0);
    free(b);
    ear_stage_destroy(s);
    /* Muting a bus silences its voices' sends too (after the one-block ramp). */
    s = stage_with(160, false);
    ear_stage_set_reverb(s, &room, 0.0f);
    ear_stage_set_bus_muted(s, EAR_BUS_SFX, true);
    free(render(s, 320));
    ear_stage_play(s, imp, &(ear_play){.reverb_send = 1.0f}, NULL);
    b = render(s, RATE);
    double before = ear_rms(a + 2 * 4800, 4800, 2, 0);
    ASSERT_DBL_GT(before, 1e-3);
    ASSERT_DBL_LE(ear_peak(b, RATE, 2, EAR_ALL_CHANNELS), 0.0);
    free(a);
    free(b);
    ear_stage_destroy(s);
    ear_clip_release(imp);
}

TEST(an_hour_of_silence_leaves_no_subnormal_and_wakes_deterministically) {
    /* Long blocks keep an hour's render quick; the reverb is the same at any block. */
    uint32_t block = 4096;
    ear_stage *s = stage_with(block, false);
    ear_clip *imp = impulse_clip();
    float zeros[480] = {0};
    ear_clip *silent = NULL;
    ASSERT_OK(ear_clip_create(zeros, 480, 1, RATE, NULL, &silent));
    ear_reverb_params room = test_room();
    room.rt60_low_s = room.rt60_high_s = 3.0f; /* a long tail */
    ASSERT_OK(ear_stage_set_reverb(s, &room, 0.0f));
    free(render(s, block * 4));
    ear_stage_play(s, imp, &(ear_play){.reverb_send = 1.0f}, NULL);
    float *first = render(s, block * 16);
    /* Silence still sent: a looping silent voice sending 1 and its bus sending 1. */
    ear_stage_play(s, silent, &(ear_play){.looping = true, .reverb_send = 1.0f}, NULL);
    ear_stage_set_bus_reverb_send(s, EAR_BUS_SFX, 1.0f);
    float *buf = malloc((size_t)RATE * 2 * sizeof(float));
    /* While the tail decays: no float of the state is ever subnormal. */
    for (int sec = 0; sec < 30; sec++) {
        ear_stage_render(s, buf, RATE);
        ear_reverb_state st = ear_stage_reverb_state(s);
        ASSERT_EQ(st.subnormals, 0u);
    }
    ear_reverb_state st = ear_stage_reverb_state(s);
    ASSERT_FALSE(st.awake);
    ASSERT_GE(st.sleeps, 1u);
    ASSERT_DBL_LE(st.peak, 0.0);
    uint64_t blocks = st.blocks;
    /* The rest of the hour: the bus still sends, its silent voice gone (rendering it for
     * an hour would only make the test slow: the reverb's input is the same zeros). */
    ear_stage_stop_all(s);
    for (int sec = 30; sec < 3600; sec++) ear_stage_render(s, buf, RATE);
    st = ear_stage_reverb_state(s);
    printf("  after 1 h of silent input: %u state floats, %u subnormal, peak %g, awake %d, "
           "%llu blocks processed (%llu in the first 30 s)\n",
           st.state_floats, st.subnormals, (double)st.peak, (int)st.awake,
           (unsigned long long)st.blocks, (unsigned long long)blocks);
    ASSERT_EQ(st.subnormals, 0u);
    ASSERT_DBL_LE(st.peak, 0.0);
    ASSERT_FALSE(st.awake);
    ASSERT_U64_EQ(st.blocks, blocks); /* asleep: not one block processed since */
    /* Waking after the hour: the impulse response is the first one, bit for bit. */
    ear_stage_set_bus_reverb_send(s, EAR_BUS_SFX, 0.0f);
    /* (at a block boundary, as the first was: an hour is not whole blocks of 4096) */
    uint32_t rest = (uint32_t)(block - ear_stage_frames_rendered(s) % block) % block;
    free(render(s, block * 4 + rest));
    ear_stage_play(s, imp, &(ear_play){.reverb_send = 1.0f}, NULL);
    float *again = render(s, block * 16);
    ASSERT_EQ(memcmp(first, again, (size_t)block * 16 * 2 * sizeof(float)), 0);
    /* And it starts without a click: the wet part grows from silence. */
    ASSERT_DBL_LE(ear_max_delta(again + 2, block * 16 - 1, 2, 0), 0.25);
    free(first);
    free(again);
    free(buf);
    ear_stage_destroy(s);
    ear_clip_release(imp);
    ear_clip_release(silent);
}

/* A scene with every reverb path: a placed noise voice sending, a flat sine on music with
 * the bus sending, a send change, a room change with its glide. */
static float *scene(uint32_t chunk, bool no_reverb, bool sends) {
    ear_stage *s = stage_with(160, no_reverb);
    ear_clip *n = noise_clip(0.5, RATE, 0.3f, 7);
    ear_clip *t = sine_clip(440.0, 0.5, RATE, 0.2f);
    ear_play p = placed_at(3.0f, 0.0f, -2.0f);
    p.reverb_send = sends ? 0.6f : 0.0f;
    ear_voice_id v = 0;
    ear_stage_play(s, n, &p, &v);
    ear_stage_play(s, t, &(ear_play){.looping = true, .bus = EAR_BUS_MUSIC}, NULL);
    ear_reverb_params hall;
    ear_reverb_preset_params(EAR_REVERB_HALL, &hall);
    ear_result r = ear_stage_set_reverb(s, &hall, 0.3f);
    if (r != (no_reverb ? EAR_E_UNSUPPORTED : EAR_OK)) return NULL;
    if (sends) ear_stage_set_bus_reverb_send(s, EAR_BUS_MUSIC, 0.5f);
    /* Render calls of `chunk` frames, with the changes made at frame 24037 (not a block
     * boundary) whatever the chunk. */
    uint32_t total = RATE, done = 0, at = 24037;
    float *out = malloc((size_t)total * 2 * sizeof(float));
    while (done < total) {
        uint32_t k = total - done < chunk ? total - done : chunk;
        if (done < at && done + k > at) k = at - done;
        if (done == at) {
            ear_reverb_params cave;
            ear_reverb_preset_params(EAR_REVERB_CAVE, &cave);
            if (sends) ear_stage_set_reverb_send(s, v, 0.2f);
            ear_stage_set_reverb(s, &cave, 0.2f);
            ear_stage_set_position(s, v, ear_vec3_make(-4.0f, 0.0f, 1.0f));
        }
        ear_stage_render(s, out + (size_t)done * 2, k);
        done += k;
    }
    ear_stage_destroy(s);
    ear_clip_release(n);
    ear_clip_release(t);
    return out;
}

TEST(chunk_independent_and_run_twice_equal) {
    float *a = scene(1, false, true), *b = scene(512, false, true),
          *c = scene(512, false, true);
    ASSERT_TRUE(a && b && c);
    ASSERT_EQ(memcmp(a, b, (size_t)RATE * 2 * sizeof(float)), 0);
    ASSERT_EQ(memcmp(b, c, (size_t)RATE * 2 * sizeof(float)), 0);
    /* And the reverb is really in it. */
    float *dry = scene(512, false, false);
    double diff = 0.0;
    for (uint32_t i = 0; i < RATE * 2; i++) diff += fabs((double)a[i] - dry[i]);
    ASSERT_DBL_GT(diff / (RATE * 2), 1e-3);
    free(a);
    free(b);
    free(c);
    free(dry);
}

TEST(send_zero_is_bit_identical_to_a_stage_without_reverb) {
    float *with = scene(160, false, false), *without = scene(160, true, false);
    ASSERT_TRUE(with && without);
    ASSERT_EQ(memcmp(with, without, (size_t)RATE * 2 * sizeof(float)), 0);
    free(with);
    free(without);
    /* Nothing sent: the reverb never processed a block. */
    ear_stage *s = stage_with(160, false);
    ear_clip *n = noise_clip(0.2, RATE, 0.3f, 3);
    ear_stage_play(s, n, &(ear_play){.looping = true}, NULL);
    free(render(s, RATE));
    ear_reverb_state st = ear_stage_reverb_state(s);
    ASSERT_U64_EQ(st.blocks, 0u);
    ASSERT_FALSE(st.awake);
    ear_stage_destroy(s);
    ear_clip_release(n);
}

/* A click is broadband: the largest second difference in a 10 ms window over the
 * window's RMS. For a sine of frequency f it is about sqrt 2 (2 pi f / rate)^2. */
static double worst_curvature(const float *x, uint32_t frames) {
    double worst = 0.0;
    for (uint32_t w = 0; w + 480 <= frames; w += 480) {
        double e = 0.0, m = 0.0;
        for (uint32_t i = w; i < w + 480; i++) {
            e += (double)x[2 * i] * x[2 * i];
            if (i < 2) continue;
            double d2 = fabs((double)x[2 * i] - 2.0 * x[2 * i - 2] + x[2 * i - 4]);
            m = d2 > m ? d2 : m;
        }
        double rms = sqrt(e / 480.0);
        if (rms > 1e-6 && m / rms > worst) worst = m / rms;
    }
    return worst;
}

TEST(room_changes_glide_without_clicks) {
    /* A steady 300 Hz tone sent into a hall; the room turns into a small room (every line
     * shorter, gliding) over 0.5 s, then into a cave at once (the 20 ms floor): the
     * output's curvature stays that of a low tone (a click would be a spike of it). */
    ear_stage *s = stage_with(160, false);
    ear_clip *t = sine_clip(300.0, 1.0, RATE, 0.5f);
    ear_reverb_params hall, small, cave;
    ear_reverb_preset_params(EAR_REVERB_HALL, &hall);
    ear_reverb_preset_params(EAR_REVERB_ROOM, &small);
    ear_reverb_preset_params(EAR_REVERB_CAVE, &cave);
    ear_stage_set_reverb(s, &hall, 0.0f);
    ear_stage_play(s, t, &(ear_play){.looping = true, .reverb_send = 1.0f}, NULL);
    free(render(s, 3 * RATE));
    float *steady = render(s, RATE);
    ear_stage_set_reverb(s, &small, 0.5f);
    float *change = render(s, RATE);
    ear_stage_set_reverb(s, &cave, 0.0f);
    float *jump = render(s, 2 * RATE);
    /* Back and forth faster than tails die: hall, room again, back to the cave (the
     * network still ringing with it takes the room back), then a corridor while both
     * networks ring (the older tail is evicted over 20 ms first). */
    float *busy = malloc((size_t)RATE * 2 * sizeof(float));
    ear_stage_set_reverb(s, &hall, 0.1f);
    ear_stage_render(s, busy, 4800);
    ear_stage_set_reverb(s, &cave, 0.1f);
    ear_stage_render(s, busy + 2 * 4800, 4800);
    ear_reverb_params corridor;
    ear_reverb_preset_params(EAR_REVERB_CORRIDOR, &corridor);
    ear_stage_set_reverb(s, &corridor, 0.1f);
    ear_stage_render(s, busy + 2 * 9600, RATE - 9600);
    double c3 = worst_curvature(busy, RATE);
    printf("  back and forth: %.5f\n", c3);
    ASSERT_DBL_LE(c3, 1.5 * sqrt(2.0) * pow(2.0 * PI_D * 300.0 / RATE, 2.0));
    free(busy);
    double c0 = worst_curvature(steady, RATE), c1 = worst_curvature(change, RATE);
    double c2 = worst_curvature(jump, 2 * RATE);
    double tone = sqrt(2.0) * pow(2.0 * PI_D * 300.0 / RATE, 2.0);
    printf("  curvature / rms: tone %.5f, steady %.5f, 0.5 s change %.5f, 20 ms change "
           "%.5f\n",
           tone, c0, c1, c2);
    ASSERT_DBL_LE(c0, 1.5 * tone);
    ASSERT_DBL_LE(c1, 1.5 * tone);
    ASSERT_DBL_LE(c2, 1.5 * tone);
    free(steady);
    free(change);
    free(jump);
    ear_stage_destroy(s);
    ear_clip_release(t);
}

TEST(parameters_presets_and_errors) {
    ear_stage *s = stage_with(160, false);
    ear_reverb_params p = ear_reverb_params_default();
    ASSERT_OK(ear_reverb_params_check(&p, NULL));
    const char *bad = NULL;
    p.rt60_high_s = 0.0f;
    ASSERT_EQ(ear_reverb_params_check(&p, &bad), EAR_E_INVALID_ARG);
    ASSERT_STR_EQ(bad, "rt60_high_s");
    ASSERT_EQ(ear_stage_set_reverb(s, &p, 0.0f), EAR_E_INVALID_ARG);
    p = ear_reverb_params_default();
    p.size = NAN;
    ASSERT_EQ(ear_reverb_params_check(&p, &bad), EAR_E_INVALID_ARG);
    ASSERT_STR_EQ(bad, "size");
    p = ear_reverb_params_default();
    ASSERT_EQ(ear_stage_set_reverb(s, &p, -1.0f), EAR_E_INVALID_ARG);
    /* Refused rooms leave the room as it was. */
    ear_reverb_params got = ear_stage_get_reverb(s);
    ASSERT_REL(got.rt60_low_s, ear_reverb_params_default().rt60_low_s, 0);
    for (uint32_t k = 0; k < EAR_REVERB_PRESET_COUNT; k++) {
        ear_reverb_preset back;
        ASSERT_OK(
            ear_reverb_preset_from_name(ear_reverb_preset_name((ear_reverb_preset)k), &back));
        ASSERT_EQ(back, k);
        ASSERT_OK(ear_reverb_preset_params(back, &p));
        ASSERT_OK(ear_reverb_params_check(&p, NULL));
    }
    ear_reverb_preset none;
    ASSERT_EQ(ear_reverb_preset_from_name("bathroom", &none), EAR_E_NOT_FOUND);
    ASSERT_NULL(ear_reverb_preset_name(EAR_REVERB_PRESET_COUNT));
    ASSERT_OK(ear_reverb_preset_params(EAR_REVERB_CAVE, &p));
    ASSERT_OK(ear_stage_set_reverb(s, &p, 1.0f));
    ASSERT_REL(ear_stage_get_reverb(s).rt60_low_s, p.rt60_low_s, 0);
    ASSERT_EQ(ear_stage_set_reverb_send(s, 12345u, 0.5f), EAR_E_STALE_ID);
    ASSERT_EQ(ear_stage_set_bus_reverb_send(s, EAR_BUS_COUNT, 0.5f), EAR_E_INVALID_ARG);
    ASSERT_OK(ear_stage_set_bus_reverb_send(s, EAR_BUS_UI, 7.0f));
    ASSERT_REL(ear_stage_get_bus_reverb_send(s, EAR_BUS_UI), 1.0, 0); /* clamped */
    ear_stage_destroy(s);
    /* No reverb: the calls say so. */
    s = stage_with(160, true);
    ASSERT_EQ(ear_stage_set_reverb(s, &p, 0.0f), EAR_E_UNSUPPORTED);
    ASSERT_EQ(ear_stage_set_bus_reverb_send(s, EAR_BUS_SFX, 0.5f), EAR_E_UNSUPPORTED);
    ASSERT_EQ(ear_stage_reverb_state(s).state_floats, 0u);
    ear_stage_destroy(s);
}

TEST_MAIN(TEST_ENTRY(rt60_by_schroeder_within_10_percent_in_each_band),
          TEST_ENTRY(echo_density_reaches_gaussian_within_100_ms),
          TEST_ENTRY(tail_energy_follows_wet_squared_times_rt60),
          TEST_ENTRY(far_voices_send_relatively_more_wet),
          TEST_ENTRY(bus_send_equals_voice_send_and_mute_silences_it),
          TEST_ENTRY(an_hour_of_silence_leaves_no_subnormal_and_wakes_deterministically),
          TEST_ENTRY(chunk_independent_and_run_twice_equal),
          TEST_ENTRY(send_zero_is_bit_identical_to_a_stage_without_reverb),
          TEST_ENTRY(room_changes_glide_without_clicks),
          TEST_ENTRY(parameters_presets_and_errors))
