/* SPDX-License-Identifier: Zlib */
/*
 * The hearing bot (bot.h). Everything it knows comes from bot_hear_line, bot_hear_speaking
 * and bot_hear_audio; it keeps only measurements of what it heard and its own intentions.
 */
#include "bot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW      30 /* frames: one period of the guide bell at 60 frames a second */
#define PI_F        3.14159265f
#define BELL_HZ     1000.0f
#define BRIGHT_HZ   4000.0f
#define BUZZ_HZ     55.0f
#define BRIGHT_HIST 180    /* frames: 3 s of the bright partial */
#define BESIDE_HZ   180.0f /* the bell's neighbours, 820 and 1180 Hz, three bins away */
/* walking: the game turns the player 90 degrees a second, 1.5 a frame */
#define TURN_DEG_PER_FRAME 1.5f
#define PROBE_DEG          20.0f /* the least turn that tells front from behind */
#define TELL_DEG           12.0f /* how much better one side must explain what is heard */
#define WALKS_UNCHECKED    6     /* walks (of a window each) before it checks again */
#define MAX_DOUBTS         6
#define SURE_TURN_DEG      25.0f /* a turn this small is followed by a walk at once */
/* driving: stuck when the bell's level has not changed for this long (the car stands
 * against a wall), then a back-up of BACK_FRAMES with the wheel turned */
#define STUCK_FRAMES 180
#define STUCK_LEVEL  1.1f /* the loudest / the softest of the bell in that time */
#define BACK_FRAMES  70
/* circling: the wheel turned the same way this long and the bell still to that side (it is
 * inside the car's turning circle): backing up takes the nose round to it */
#define CIRCLE_FRAMES 300

typedef enum mode { MODE_MENU, MODE_WALK, MODE_DRIVE } mode;
typedef enum act { ACT_LISTEN, ACT_TURN, ACT_WALK, ACT_WAIT } act;

typedef struct bands {
    float bell_l, bell_r, bright, buzz;
    float beside; /* at 820 and 1180 Hz: what is not the bell around it */
} bands;

enum {
    W_COMPLETE,
    W_GAME_OVER,
    W_PLAY,
    W_NEXT,
    W_EXIT,
    W_RETRY,
    W_FOLLOW,
    W_CAR,
    W_LEVEL1,
    W_COUNT = W_LEVEL1 + 3
};

static const char *const english_words[W_COUNT] = {"Level complete",
                                                   "Game over",
                                                   "Play",
                                                   "Next level",
                                                   "Exit",
                                                   "Retry",
                                                   "Follow the bell",
                                                   "You are in the car",
                                                   "Level 1: the garden",
                                                   "Level 2: the cellar",
                                                   "Level 3: the road"};

struct bot {
    bool play_all;
    char words[W_COUNT][96];
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
    /* walking: where the bot believes the bell is (degrees, as bot_bell_direction; none
     * yet: !believed), whether its last turn was a test of front and behind (probing), its
     * own turn since the belief was heard, the walks since a test told, the tests in a
     * row that told nothing, and news heard meanwhile */
    float belief;
    bool believed, probing;
    float turned;
    int walks, doubts;
    bool walk_after; /* a small turn: then walk at once */
    bool news;
    int silent_frames, bell_frames; /* frames in a row without and with the bell */
    int stopped_frames;             /* since it stopped */
    float bright_hist[BRIGHT_HIST]; /* each frame's window of the bright partial */
    float stop_ref;                 /* the loudest bright partial when it stopped */
    bool stopped;
    bool speaking; /* the game's voice is sounding (bot_hear_speaking) */
    /* driving: how loud the bell was heard each of the last STUCK_FRAMES frames (its
     * bright partial), the frames driven since the last start or back-up, and the back-up
     * under way (frames left; the side it steers to) */
    float drive_bright[STUCK_FRAMES];
    int driven, backing, back_steer;
    int steered; /* frames in a row with the wheel turned one way (sign: the side) */
};

bot *bot_create(bool play_all, FILE *log) {
    bot *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->play_all = play_all;
    b->log = log;
    b->mode = MODE_MENU;
    for (int i = 0; i < W_COUNT; i++)
        snprintf(b->words[i], sizeof b->words[i], "%s", english_words[i]);
    b->want[0] = b->words[W_PLAY];
    b->want_count = 1;
    return b;
}

void bot_set_words(bot *b, const bot_words *w) {
    const char *given[W_COUNT] = {w->complete,  w->game_over, w->play,     w->next,
                                  w->exit,      w->retry,     w->follow,   w->car,
                                  w->levels[0], w->levels[1], w->levels[2]};
    for (int i = 0; i < W_COUNT; i++)
        if (given[i] && *given[i]) snprintf(b->words[i], sizeof b->words[i], "%s", given[i]);
}

void bot_destroy(bot *b) {
    free(b);
}

static void note(bot *b, const char *what) {
    if (b->log) fprintf(b->log, "bot %llu: %s\n", (unsigned long long)b->frame, what);
}

/* "<label>, <kind>, 2 of 4" in any language ("Spielen, Schalter, 1 von 5"): the label
 * before the first comma and the count, the last number. A menu's title ("Main menu,
 * menu") has no count. */
static bool item_of(const char *text, char *label, size_t cap, size_t *total) {
    const char *comma = strstr(text, ", ");
    size_t len = strlen(text);
    if (!comma || !strstr(comma + 2, ", ") || len == 0 || text[len - 1] < '0' ||
        text[len - 1] > '9')
        return false;
    /* the position, "1 of 4": two numbers (a line cut before its end, "…, button, 1",
     * is not an item) */
    const char *pos = text + len;
    while (pos > text && !(pos[-1] == ' ' && pos - 2 > text && pos[-2] == ',')) pos--;
    if (pos[0] < '0' || pos[0] > '9' || !strchr(pos, ' ')) return false;
    size_t n = (size_t)(comma - text);
    if (n >= cap) n = cap - 1;
    memcpy(label, text, n);
    label[n] = '\0';
    const char *last = text + len;
    while (last > text && last[-1] >= '0' && last[-1] <= '9') last--;
    *total = (size_t)atoi(last);
    return true;
}

/* A level's first sentence: its title, then ". ", and the guide's name in it. */
static bool level_intro(const bot *b, const char *text) {
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(b->words[W_LEVEL1 + i]);
        if (strncmp(text, b->words[W_LEVEL1 + i], n) == 0 && strncmp(text + n, ". ", 2) == 0)
            return strstr(text, b->words[W_FOLLOW]) != NULL;
    }
    return false;
}

/* The game speaks: let go of every key and listen (after a level's end the keys would cut
 * what it says, and move the menu that follows), as when the bell stops. In the car it
 * speaks only of the end (the finish, the fuel) once the intro is said. */
static void listen(bot *b) {
    if (b->stopped) return;
    b->stopped = true;
    b->stopped_frames = 0;
    b->silent_frames = WINDOW;
    b->bell_frames = 0;
    b->stop_ref = 0;
    for (size_t i = 0; i < BRIGHT_HIST; i++)
        if (b->bright_hist[i] > b->stop_ref) b->stop_ref = b->bright_hist[i];
    b->backing = 0;
    note(b, "the game speaks: listening");
}

void bot_hear_line(bot *b, const char *text) {
    /* speech that began and was cut before a word: only the car stops for it (below) */
    if (!text[0] && b->mode != MODE_DRIVE) return;
    if (strstr(text, b->words[W_COMPLETE])) {
        b->mode = MODE_MENU;
        b->want_count = 0;
        if (b->play_all) b->want[b->want_count++] = b->words[W_NEXT];
        b->want[b->want_count++] = b->words[W_EXIT];
        b->seen_items = 0;
        note(b, "the level is complete: to the menu");
        return;
    }
    if (strstr(text, b->words[W_GAME_OVER])) {
        b->mode = MODE_MENU;
        b->want_count = 1;
        b->want[0] = b->words[W_RETRY];
        b->seen_items = 0;
        note(b, "game over: retry");
        return;
    }
    if (level_intro(b, text)) {
        b->mode = strstr(text, b->words[W_CAR]) ? MODE_DRIVE : MODE_WALK;
        b->act = ACT_LISTEN;
        b->frames_left = WINDOW;
        b->heard = 0;
        b->believed = b->probing = false;
        b->turned = 0;
        b->walks = b->doubts = 0;
        b->news = false;
        b->stopped = false;
        b->silent_frames = b->bell_frames = 0;
        memset(b->bright_hist, 0, sizeof b->bright_hist);
        b->driven = b->backing = b->steered = 0;
        note(b, b->mode == MODE_DRIVE ? "driving: listening for the bell"
                                      : "walking: listening for the bell");
        return;
    }
    char label[128];
    size_t total = 0;
    if (b->mode != MODE_MENU && item_of(text, label, sizeof label, &total)) {
        /* A menu while playing whose title it missed (cut by its own keys): the
         * completion menu has "Next level", the game-over menu "Retry"; else Exit. */
        b->mode = MODE_MENU;
        b->want_count = 0;
        if (b->play_all) b->want[b->want_count++] = b->words[W_NEXT];
        b->want[b->want_count++] = b->words[W_RETRY];
        b->want[b->want_count++] = b->words[W_EXIT];
        b->seen_items = 0;
        note(b, "a menu: choosing");
    }
    if (b->mode == MODE_DRIVE) {
        listen(b);
        return;
    }
    if (b->mode == MODE_WALK) {
        /* something happened (a goal found: the next is elsewhere): look again */
        b->news = true;
        note(b, "news: checking where the bell is");
        return;
    }
    if (b->mode != MODE_MENU) return;
    if (!item_of(text, label, sizeof label, &total)) return;
    b->item_total = total;
    b->seen_items++;
    /* the best wanted item not yet given up on */
    size_t skip = total ? (b->seen_items - 1) / (total + 1) : 0;
    for (size_t i = skip; i < b->want_count && i <= skip; i++) {
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
    x.beside = 0;
    for (int ch = 0; ch < 2; ch++)
        x.beside += power(stereo, frames, ch, BELL_HZ - BESIDE_HZ, rate) +
                    power(stereo, frames, ch, BELL_HZ + BESIDE_HZ, rate);
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
        s.beside += x->beside;
    }
    return s;
}

/* The bell's angle from the two ears' levels alone (the inverse of the stage's
 * equal-power pan), -90 (left) .. 90 (right): a bell behind is heard at its mirror image
 * in front. */
static bool bell_lateral(const bot *b, float *out_deg, float *bright_share) {
    bands s = window_sum(b, WINDOW);
    float total = s.bell_l + s.bell_r;
    if (total < 1e-7f) return false;
    float theta = atanf(sqrtf(s.bell_r / (s.bell_l + 1e-12f))); /* 0 left .. pi/2 right */
    float p = theta * 4.0f / PI_F - 1.0f;
    float lx = p / 0.9f;
    if (lx > 1) lx = 1;
    if (lx < -1) lx = -1;
    *out_deg = asinf(lx) * 180.0f / PI_F;
    *bright_share = s.bright / total;
    return true;
}

/* The same lateral angle heard from behind. */
static float mirror(float lat) {
    return lat >= 0 ? 180.0f - lat : -180.0f - lat;
}

/* Where the bell is, in degrees (positive: to the right; beyond +-90: behind), from the
 * two ears' levels (the stage's equal-power pan) and the bright partial's dullness. */
bool bot_bell_direction(const bot *b, float *out_deg) {
    float ang, ratio;
    if (!bell_lateral(b, &ang, &ratio)) return false;
    /* In front the bright partial keeps its share; behind the cue's low-pass takes most
     * of it (4 kHz through a 2.5 kHz pole, against 1 kHz). */
    const float front_ratio = 0.20f;
    if (ratio < front_ratio * 0.55f) ang = mirror(ang);
    *out_deg = ang;
    return true;
}

/* a - b on the circle, -180 .. 180 */
static float angle_diff(float a, float c) {
    float d = fmodf(a - c, 360.0f);
    if (d > 180.0f) d -= 360.0f;
    if (d < -180.0f) d += 360.0f;
    return d;
}

/* The lateral angle (-90 .. 90) a bell at bearing x is heard at. */
static float fold(float x) {
    x = angle_diff(x, 0);
    return fabsf(x) > 90.0f ? mirror(x) : x;
}

/* Turn by deg (positive: right), then listen. */
static void start_turn(bot *b, float deg) {
    b->act = ACT_TURN;
    b->walk_after = false;
    b->turn_dir = deg > 0 ? 1 : -1;
    b->frames_left = (int)(fabsf(deg) / TURN_DEG_PER_FRAME + 0.5f);
    if (b->frames_left < 1) b->frames_left = 1;
}

/* After a window of listening or walking: where the bell is, and what to do. The ears'
 * levels give its angle from the side (bell_lateral) but not front from behind; that the
 * bot learns as a player on headphones does, by turning its head: near the middle, after
 * a turn of t degrees to the right, a bell in front is heard t further left, one behind t
 * further right. Only near the middle: through the KEMAR ears the level difference at 1 kHz
 * stops growing beyond about 35 degrees (a bell at 50 degrees, 2 m away, is heard at 21
 * and, turned 21 towards, at 29), so a turn towards a bell heard far to one side tells
 * nothing of front and back. It checks at the start, after news (a line spoken: a goal
 * found, the next one elsewhere) and after a few walks (walking tells nothing either: the
 * bell moves ahead with the walker); in between each reading is taken on the side where
 * the last one, moved by the bot's own turn since, says the bell is. */
static void decide_walk(bot *b) {
    float lat, share;
    if (!bell_lateral(b, &lat, &share)) {
        b->act = ACT_LISTEN;
        b->frames_left = WINDOW;
        return;
    }
    float front = lat, back = mirror(lat), bearing = front;
    bool told = false;
    if (b->believed) {
        float p1 = b->belief - b->turned, from = p1;
        if (b->probing) {
            float p2 = mirror(angle_diff(b->belief, 0)) - b->turned;
            float e1 = fabsf(lat - fold(p1)), e2 = fabsf(lat - fold(p2));
            if (e1 + TELL_DEG < e2) {
                told = true;
            } else if (e2 + TELL_DEG < e1) {
                told = true;
                from = p2;
            }
        }
        bearing =
            fabsf(angle_diff(front, from)) <= fabsf(angle_diff(back, from)) ? front : back;
    }
    b->turned = 0;
    char line[112];
    bool doubt = !b->believed || b->news || b->walks >= WALKS_UNCHECKED;
    if (told) {
        b->doubts = 0;
        b->walks = 0;
        b->news = false;
        snprintf(line, sizeof line, "the turn tells: the bell is %s",
                 fabsf(bearing) > 90.0f ? "behind" : "in front");
        note(b, line);
    } else if (b->probing || doubt) {
        if (++b->doubts > MAX_DOUBTS) {
            /* the turns told nothing: the partial's dullness decides */
            bot_bell_direction(b, &bearing);
            snprintf(line, sizeof line, "unsure: the partial says %.0f degrees", bearing);
            note(b, line);
            b->doubts = 0;
            b->walks = 0;
            b->news = false;
        } else if (fabsf(lat) > PROBE_DEG) {
            /* heard far to one side: ahead or behind, it is that way round */
            b->believed = b->probing = false;
            start_turn(b, lat);
            snprintf(line, sizeof line, "the bell is at %.0f or %.0f degrees: turning", front,
                     back);
            note(b, line);
            return;
        } else {
            /* near the middle: turn a little and listen where it goes */
            float t = lat >= 0 ? PROBE_DEG : -PROBE_DEG;
            b->belief = front;
            b->believed = b->probing = true;
            b->news = false;
            b->walks = 0;
            start_turn(b, t);
            snprintf(line, sizeof line,
                     "the bell is at %.0f or %.0f degrees: turning %.0f to tell", front, back,
                     t);
            note(b, line);
            return;
        }
    }
    b->probing = false;
    b->belief = bearing;
    b->believed = true;
    if (fabsf(bearing) > 14.0f) {
        start_turn(b, bearing);
        /* near the middle the ears hear the angle truly (both outputs): no need to listen
         * again after the turn */
        if (fabsf(bearing) <= SURE_TURN_DEG) b->walk_after = true;
        snprintf(line, sizeof line, "the bell is at %.0f degrees: turning%s", bearing,
                 b->walk_after ? " and walking" : "");
    } else {
        b->act = ACT_WALK;
        b->frames_left = WINDOW;
        b->walks++;
        snprintf(line, sizeof line, "the bell is ahead (%.0f degrees): walking", bearing);
    }
    note(b, line);
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
        b->turned += (float)b->turn_dir * TURN_DEG_PER_FRAME;
        if (--b->frames_left <= 0 && b->walk_after) {
            b->act = ACT_WALK;
            b->frames_left = WINDOW;
            b->walks++;
        } else if (b->frames_left <= 0) {
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
    decide_walk(b);
}

/* Stuck: the car has been driven for STUCK_FRAMES and in all that time the bell's level
 * has not changed (moving, the bell jumps ahead along the road cell by cell, so its level
 * comes and goes). Its angle is no sign: standing against a wall the engine's revs in the
 * bell's 1000 Hz band move the angle heard by 6..21 degrees through the KEMAR ears (8..10
 * panned), and a bell heard at 6..21 degrees goes in and out of the wheel's dead zone (8),
 * so the wheel is never held long enough to count as circling either: the car stood there
 * to the end of the run. */
static bool stuck(const bot *b) {
    if (b->driven < STUCK_FRAMES) return false;
    float lo = 1e30f, hi = 0;
    for (int i = 0; i < STUCK_FRAMES; i++) {
        lo = fminf(lo, b->drive_bright[i]);
        hi = fmaxf(hi, b->drive_bright[i]);
    }
    return lo > 0 && hi < lo * STUCK_LEVEL;
}

static void drive(bot *b, bot_keys *k) {
    float ang;
    if (!bot_bell_direction(b, &ang)) return;
    if (b->backing > 0) {
        /* backing up: the pedals let go for a frame at each end (a pedal that stopped the
         * car is a brake until it is let go), the wheel turned so that the nose swings
         * towards the bell */
        b->backing--;
        if (b->backing > 0 && b->backing < BACK_FRAMES - 1) {
            k->held[EAR_KEY_DOWN] = true;
            k->held[b->back_steer > 0 ? EAR_KEY_RIGHT : EAR_KEY_LEFT] = true;
        }
        if (b->backing == 0) b->driven = b->steered = 0;
        return;
    }
    b->drive_bright[b->driven % STUCK_FRAMES] = window_sum(b, WINDOW).bright;
    b->driven++;
    bool circling = b->steered > CIRCLE_FRAMES || b->steered < -CIRCLE_FRAMES;
    if (stuck(b) || circling) {
        /* reversing turns the car the other way round: the wheel away from the bell */
        b->backing = BACK_FRAMES;
        b->back_steer = ang > 0 ? -1 : 1;
        char line[96];
        snprintf(line, sizeof line, "driving: the bell %s (%.0f degrees): backing up",
                 circling ? "goes round the car" : "has not moved", ang);
        note(b, line);
        return;
    }
    if (fabsf(ang) > 100.0f) {
        /* behind: turn round slowly */
        k->held[ang > 0 ? EAR_KEY_RIGHT : EAR_KEY_LEFT] = true;
        if ((b->frame / 4) % 2 == 0) k->held[EAR_KEY_UP] = true;
    } else {
        if (ang > 8) k->held[EAR_KEY_RIGHT] = true;
        if (ang < -8) k->held[EAR_KEY_LEFT] = true;
        if (fabsf(ang) < 50 || (b->frame / 3) % 2 == 0) k->held[EAR_KEY_UP] = true;
    }
    /* turning round to a bell behind is no circle */
    int side = fabsf(ang) > 100.0f      ? 0
               : k->held[EAR_KEY_RIGHT] ? 1
               : k->held[EAR_KEY_LEFT]  ? -1
                                        : 0;
    b->steered = side == 0  ? 0
                 : side > 0 ? (b->steered > 0 ? b->steered + 1 : 1)
                            : (b->steered < 0 ? b->steered - 1 : -1);
    if (b->frame % 60 == 0) {
        char line[80];
        float lo = 1e30f, hi = 0;
        for (int i = 0; i < STUCK_FRAMES; i++) {
            lo = fminf(lo, b->drive_bright[i]);
            hi = fmaxf(hi, b->drive_bright[i]);
        }
        snprintf(line, sizeof line, "driving: the bell is at %.0f degrees (level %.2f)", ang,
                 (double)(hi / (lo + 1e-20f)));
        note(b, line);
    }
}

/* The guide bell rings until the level's goal is reached: a player who hears it stop
 * stands still and listens for what the game says (a result is said whole only if no
 * key cuts it). On foot the bell has stopped when, for half a second, the window's
 * 1000 Hz is less than twice its neighbours' (the music and the world are broad; the bell
 * is a peak). In the car, where the engine fills 1000 Hz, when the bright partial
 * (4000 Hz) falls below a tenth of its loudest of the last 3 s. It goes on once the bell
 * is heard again for half a second, or after 8 s (the bell was there all along: a player
 * would try again). */
#define STOPPED_MAX_FRAMES 480

static bool bell_stopped(bot *b) {
    bands s = window_sum(b, WINDOW);
    b->bright_hist[b->frame % BRIGHT_HIST] = s.bright;
    float loudest = 0;
    for (size_t i = 0; i < BRIGHT_HIST; i++)
        if (b->bright_hist[i] > loudest) loudest = b->bright_hist[i];
    bool silent;
    if (b->mode == MODE_DRIVE)
        silent = b->heard >= WINDOW && s.bright < 0.1f * (b->stopped ? b->stop_ref : loudest);
    else
        silent = b->heard >= WINDOW && s.bell_l + s.bell_r < 2.0f * s.beside;
    b->silent_frames = silent ? b->silent_frames + 1 : 0;
    b->bell_frames = silent ? 0 : b->bell_frames + 1;
    if (!b->stopped && b->silent_frames >= WINDOW) {
        b->stopped = true;
        b->stopped_frames = 0;
        b->stop_ref = loudest;
        note(b, "the bell has stopped: listening");
    } else if (b->stopped && !b->speaking &&
               (b->bell_frames >= WINDOW || ++b->stopped_frames > STOPPED_MAX_FRAMES)) {
        /* (not while the game speaks: a player who listens lets it finish; the sounds
         * after a level, on headphones, could pass for the bell coming back) */
        b->stopped = false;
        b->silent_frames = 0;
        note(b, "going on");
    }
    return b->stopped;
}

void bot_hear_speaking(bot *b, bool speaking) {
    /* it stops as the voice begins, not once the line has ended: what the game says may
     * be a level's end, whose menu the next key would move */
    if (speaking && !b->speaking && (b->mode == MODE_DRIVE || b->mode == MODE_WALK)) listen(b);
    b->speaking = speaking;
}

void bot_decide(bot *b, bot_keys *out) {
    memset(out, 0, sizeof *out);
    b->frame++;
    if (b->mode != MODE_MENU && bell_stopped(b)) return; /* listening for what happened */
    if (b->pending_tap != EAR_KEY_UNKNOWN) {
        out->taps[out->tap_count++] = b->pending_tap;
        b->pending_tap = EAR_KEY_UNKNOWN;
        return;
    }
    if (b->mode == MODE_WALK) walk(b, out);
    if (b->mode == MODE_DRIVE) drive(b, out);
}
