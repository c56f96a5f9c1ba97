/*
 * The hearing bot (bot.h). Everything it knows comes from bot_hear_line and
 * bot_hear_audio; it keeps only measurements of what it heard and its own intentions.
 */
#include "bot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW    30 /* frames: one period of the guide bell at 60 frames a second */
#define PI_F      3.14159265f
#define BELL_HZ   1000.0f
#define BRIGHT_HZ 4000.0f
#define BUZZ_HZ   55.0f

typedef enum mode { MODE_MENU, MODE_WALK, MODE_DRIVE } mode;
typedef enum act { ACT_LISTEN, ACT_TURN, ACT_WALK, ACT_WAIT } act;

typedef struct bands {
    float bell_l, bell_r, bright, buzz;
} bands;

struct bot {
    bool play_all;
    FILE *log;
    mode mode;
    /* menus: the items wanted, best first */
    const char *want[3];
    size_t want_count, seen_items, item_total;
    ear_key pending_tap;
    /* hearing */
    bands ring[WINDOW];
    size_t ring_pos, heard;
    /* acting */
    act act;
    int frames_left;
    int turn_dir;
    uint64_t frame;
    float buzz_hist[16];
    int cycles;
};

bot *bot_create(bool play_all, FILE *log) {
    bot *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->play_all = play_all;
    b->log = log;
    b->mode = MODE_MENU;
    b->want[0] = "Play";
    b->want_count = 1;
    return b;
}

void bot_destroy(bot *b) {
    free(b);
}

static void note(bot *b, const char *what) {
    if (b->log) fprintf(b->log, "bot %llu: %s\n", (unsigned long long)b->frame, what);
}

static bool starts(const char *text, const char *prefix) {
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* "<label>, button, 2 of 4": the label and the count. */
static bool item_of(const char *text, char *label, size_t cap, size_t *total) {
    const char *comma = strstr(text, ", button, ");
    if (!comma) comma = strstr(text, ", submenu, ");
    if (!comma) return false;
    size_t n = (size_t)(comma - text);
    if (n >= cap) n = cap - 1;
    memcpy(label, text, n);
    label[n] = '\0';
    const char *of = strstr(comma, " of ");
    *total = of ? (size_t)atoi(of + 4) : 0;
    return true;
}

void bot_hear_line(bot *b, const char *text) {
    if (strstr(text, "Level complete")) {
        b->mode = MODE_MENU;
        b->want_count = 0;
        if (b->play_all) b->want[b->want_count++] = "Next level";
        b->want[b->want_count++] = "Exit";
        b->seen_items = 0;
        note(b, "the level is complete: to the menu");
        return;
    }
    if (strstr(text, "Game over")) {
        b->mode = MODE_MENU;
        b->want_count = 1;
        b->want[0] = "Retry";
        b->seen_items = 0;
        note(b, "game over: retry");
        return;
    }
    if (starts(text, "Level ") && strstr(text, "Follow the bell")) {
        b->mode = strstr(text, "You are in the car") ? MODE_DRIVE : MODE_WALK;
        b->act = ACT_LISTEN;
        b->frames_left = WINDOW;
        b->heard = 0;
        note(b, b->mode == MODE_DRIVE ? "driving: listening for the bell"
                                      : "walking: listening for the bell");
        return;
    }
    if (b->mode != MODE_MENU) return;
    char label[128];
    size_t total = 0;
    if (!item_of(text, label, sizeof label, &total)) return;
    b->item_total = total;
    b->seen_items++;
    /* the best wanted item not yet given up on */
    size_t skip = total ? (b->seen_items - 1) / (total + 1) : 0;
    for (size_t i = skip; i < b->want_count; i++) {
        if (strcmp(label, b->want[i]) == 0) {
            b->pending_tap = EAR_KEY_ENTER;
            note(b, label);
            return;
        }
    }
    b->pending_tap = EAR_KEY_DOWN;
}

/* Goertzel power of one frequency over n samples of channel ch. */
static float power(const float *stereo, uint32_t n, int ch, float hz, uint32_t rate) {
    float w = 2.0f * PI_F * hz / (float)rate, c = 2.0f * cosf(w);
    float s1 = 0, s2 = 0;
    for (uint32_t i = 0; i < n; i++) {
        float s0 = stereo[2 * i + (uint32_t)ch] + c * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    return (s1 * s1 + s2 * s2 - c * s1 * s2) / ((float)n * (float)n);
}

void bot_hear_audio(bot *b, const float *stereo, uint32_t frames, uint32_t rate) {
    bands x;
    x.bell_l = power(stereo, frames, 0, BELL_HZ, rate);
    x.bell_r = power(stereo, frames, 1, BELL_HZ, rate);
    x.bright =
        power(stereo, frames, 0, BRIGHT_HZ, rate) + power(stereo, frames, 1, BRIGHT_HZ, rate);
    x.buzz = power(stereo, frames, 0, BUZZ_HZ, rate) + power(stereo, frames, 1, BUZZ_HZ, rate);
    b->ring[b->ring_pos] = x;
    b->ring_pos = (b->ring_pos + 1) % WINDOW;
    if (b->heard < WINDOW) b->heard++;
}

static bands window_sum(const bot *b, size_t last) {
    bands s = {0};
    for (size_t k = 0; k < last && k < b->heard; k++) {
        const bands *x = &b->ring[(b->ring_pos + WINDOW - 1 - k) % WINDOW];
        s.bell_l += x->bell_l;
        s.bell_r += x->bell_r;
        s.bright += x->bright;
        s.buzz += x->buzz;
    }
    return s;
}

/* Where the bell is, in degrees (positive: to the right; beyond +-90: behind), from the
 * two ears' levels (the stage's equal-power pan) and the bright partial's dullness. */
bool bot_bell_direction(const bot *b, float *out_deg) {
    bands s = window_sum(b, WINDOW);
    float total = s.bell_l + s.bell_r;
    if (total < 1e-7f) return false;
    float theta = atanf(sqrtf(s.bell_r / (s.bell_l + 1e-12f))); /* 0 left .. pi/2 right */
    float p = theta * 4.0f / PI_F - 1.0f;
    float lx = p / 0.9f;
    if (lx > 1) lx = 1;
    if (lx < -1) lx = -1;
    float ang = asinf(lx) * 180.0f / PI_F;
    /* In front the bright partial keeps its share; behind the cue's low-pass takes most
     * of it (4 kHz through a 2.5 kHz pole, against 1 kHz). */
    float ratio = s.bright / total;
    const float front_ratio = 0.20f;
    if (ratio < front_ratio * 0.55f) ang = ang >= 0 ? 180.0f - ang : -180.0f - ang;
    *out_deg = ang;
    return true;
}

static void walk(bot *b, bot_keys *k) {
    /* The drone hums without a break; footsteps come and go. Its level is the least of
     * the last 12 frames, compared with that of a quarter second ago. */
    float low = 1e9f;
    for (size_t j = 0; j < 12 && j < b->heard; j++) {
        float v = b->ring[(b->ring_pos + WINDOW - 1 - j) % WINDOW].buzz;
        if (v < low) low = v;
    }
    b->buzz_hist[b->frame % 16] = low;
    float before = b->buzz_hist[(b->frame + 1) % 16];
    bool danger = low > 1.5e-3f && low > before * 1.15f;
    if (b->act != ACT_WAIT && danger && b->act == ACT_WALK) {
        b->act = ACT_WAIT;
        b->frames_left = 20;
        note(b, "the drone is coming: waiting");
    }
    switch (b->act) {
    case ACT_WAIT:
        if (--b->frames_left <= 0) {
            if (danger) {
                b->frames_left = 10;
            } else {
                b->act = ACT_LISTEN;
                b->frames_left = WINDOW;
            }
        }
        return;
    case ACT_TURN:
        k->held[b->turn_dir > 0 ? EAR_KEY_RIGHT : EAR_KEY_LEFT] = true;
        if (--b->frames_left <= 0) {
            b->act = ACT_LISTEN;
            b->frames_left = WINDOW;
        }
        return;
    case ACT_WALK:
        k->held[EAR_KEY_UP] = true;
        if (--b->frames_left > 0) return;
        break;
    case ACT_LISTEN:
        if (--b->frames_left > 0) return;
        break;
    }
    float ang;
    if (!bot_bell_direction(b, &ang)) {
        b->act = ACT_LISTEN;
        b->frames_left = WINDOW;
        return;
    }
    char line[96];
    if (fabsf(ang) > 14.0f) {
        b->act = ACT_TURN;
        b->turn_dir = ang > 0 ? 1 : -1;
        b->frames_left = (int)(fabsf(ang) / 90.0f * 60.0f + 0.5f);
        if (b->frames_left < 1) b->frames_left = 1;
        snprintf(line, sizeof line, "the bell is at %.0f degrees: turning", ang);
    } else {
        b->act = ACT_WALK;
        b->frames_left = WINDOW;
        snprintf(line, sizeof line, "the bell is ahead (%.0f degrees): walking", ang);
    }
    note(b, line);
}

static void drive(bot *b, bot_keys *k) {
    float ang;
    if (!bot_bell_direction(b, &ang)) return;
    if (fabsf(ang) > 100.0f) {
        /* behind: turn round slowly */
        k->held[ang > 0 ? EAR_KEY_RIGHT : EAR_KEY_LEFT] = true;
        if ((b->frame / 4) % 2 == 0) k->held[EAR_KEY_UP] = true;
    } else {
        if (ang > 8) k->held[EAR_KEY_RIGHT] = true;
        if (ang < -8) k->held[EAR_KEY_LEFT] = true;
        if (fabsf(ang) < 50 || (b->frame / 3) % 2 == 0) k->held[EAR_KEY_UP] = true;
    }
    if (b->frame % 60 == 0) {
        char line[80];
        snprintf(line, sizeof line, "driving: the bell is at %.0f degrees", ang);
        note(b, line);
    }
}

void bot_decide(bot *b, bot_keys *out) {
    memset(out, 0, sizeof *out);
    b->frame++;
    if (b->pending_tap != EAR_KEY_UNKNOWN) {
        out->taps[out->tap_count++] = b->pending_tap;
        b->pending_tap = EAR_KEY_UNKNOWN;
        return;
    }
    if (b->mode == MODE_WALK) walk(b, out);
    if (b->mode == MODE_DRIVE) drive(b, out);
}
