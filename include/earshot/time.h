/* SPDX-License-Identifier: Zlib */
/*
 * Earshot time: the game clock (scaled, pausable, with pause reasons), the real clock,
 * a scheduler of named events on game time, and three small helpers (timer, cooldown,
 * interval) that take the current time as an argument, so they work with any clock and
 * without an engine.
 *
 * Game time advances by the real frame time (clamped to max_frame_s, 0.25 s by default)
 * times the scale, and not at all while any pause reason is set. Fixed simulation steps
 * are taken from game time (see engine.h), so pausing or slowing the clock pauses or
 * slows the simulation. docs/modules/runtime.md explains the choices.
 *
 * Thread: each clock, timer, cooldown and interval belongs to one thread (nothing
 * locks); ear_now_s is safe anywhere.
 */
#ifndef EARSHOT_TIME_H
#define EARSHOT_TIME_H

#include "earshot/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds on a monotonic clock (CLOCK_MONOTONIC) since an unspecified start.
 * Thread: any. */
double ear_now_s(void);

/* ---- Timer, cooldown, interval (no engine needed) ----------------------------------- */

/* A one-shot countdown: done once `duration_s` has passed since it was started. */
typedef struct ear_timer {
    double start_s;
    double duration_s;
} ear_timer;

/* Starts (or restarts) the timer at now_s. Thread: the timer's owner. */
void ear_timer_start(ear_timer *timer, double duration_s, double now_s);
/* Seconds since the start (never negative). Thread: the timer's owner. */
double ear_timer_elapsed_s(const ear_timer *timer, double now_s);
/* Seconds left (0 once done). Thread: the timer's owner. */
double ear_timer_remaining_s(const ear_timer *timer, double now_s);
/* True once elapsed >= duration. Thread: the timer's owner. */
bool ear_timer_done(const ear_timer *timer, double now_s);
/* Elapsed / duration clamped to 0..1 (1 for a zero duration). Thread: the timer's owner. */
double ear_timer_progress(const ear_timer *timer, double now_s);

/* Something that may happen at most once every duration_s (a weapon, a footstep). A
 * zero-initialised cooldown with a duration is ready at once. */
typedef struct ear_cooldown {
    double duration_s;
    double ready_at_s;
    bool used; /* false until the first use: ready at any time */
} ear_cooldown;

/* A cooldown of duration_s, ready at once. Thread: the cooldown's owner. */
void ear_cooldown_init(ear_cooldown *cooldown, double duration_s);
/* True when the cooldown may be used at now_s. Thread: the cooldown's owner. */
bool ear_cooldown_ready(const ear_cooldown *cooldown, double now_s);
/* Uses the cooldown when ready (returns true and starts the wait), else returns false
 * and changes nothing. Thread: the cooldown's owner. */
bool ear_cooldown_try(ear_cooldown *cooldown, double now_s);
/* Makes it ready again at once. Thread: the cooldown's owner. */
void ear_cooldown_reset(ear_cooldown *cooldown);

/* A steady beat: every_s after the start, then every every_s. Keeps its rhythm: the
 * next due time is the previous due time plus every_s, not now plus every_s. */
typedef struct ear_interval {
    double every_s;
    double due_s;
} ear_interval;

/* First tick at now_s + every_s. every_s must be > 0 (otherwise the interval never
 * ticks). Thread: the interval's owner. */
void ear_interval_init(ear_interval *interval, double every_s, double now_s);
/* How many ticks fell due up to now_s (usually 0 or 1; more after a long frame); they
 * are consumed. Thread: the interval's owner. */
uint32_t ear_interval_tick(ear_interval *interval, double now_s);

/* ---- The clocks and the scheduler ------------------------------------------------------ */

/* Why the game clock is paused: a bit set, so that regaining focus does not end a pause
 * the player asked for. Bits from EAR_PAUSE_USER up are the game's own. */
enum {
    EAR_PAUSE_PLAYER = 1u << 0,  /* the player paused the game */
    EAR_PAUSE_FOCUS = 1u << 1,   /* the window lost focus */
    EAR_PAUSE_MENU = 1u << 2,    /* a menu or settings screen is open */
    EAR_PAUSE_LOADING = 1u << 3, /* a level is loading */
    EAR_PAUSE_USER = 1u << 8,
};

#define EAR_EVENT_NAME_MAX 32 /* scheduler event names: at most 31 bytes */

typedef struct ear_time_event {
    char name[EAR_EVENT_NAME_MAX];
    double due_s;      /* game time */
    double interval_s; /* 0: one-shot */
    bool fired;        /* fired during the last ear_time_advance */
    bool done;         /* a one-shot that fired (kept one frame so fired() sees it) */
} ear_time_event;

typedef struct ear_time {
    double real_s;      /* real seconds since the first advance */
    double game_s;      /* game seconds (scaled, paused) */
    double real_dt_s;   /* this frame's real delta, clamped */
    double game_dt_s;   /* this frame's game delta: real_dt_s * scale, 0 while paused */
    double raw_dt_s;    /* this frame's real delta before the clamp */
    double scale;       /* default 1 */
    double max_frame_s; /* the clamp; default 0.25 */
    uint32_t pause_reasons;
    uint64_t frame; /* frames advanced */
    double last_now_s;
    bool started;
    ear_time_event *events;
    size_t event_count, event_capacity;
} ear_time;

/* Initialises the clocks at zero, scale 1, clamp 0.25 s, no events. Thread: owner. */
void ear_time_init(ear_time *time);
/* Frees the scheduler's events. Thread: owner. */
void ear_time_deinit(ear_time *time);

/* Advances both clocks to the real time now_s (the first call only records now_s), with
 * the delta clamped to max_frame_s, and fires due events: each event whose due time is
 * <= the new game time is marked fired; a repeating one moves its due time by its
 * interval until it lies ahead (so it keeps its rhythm). Returns the clamped real delta.
 * Thread: owner. */
double ear_time_advance(ear_time *time, double now_s);

/* Pause reasons. pause adds bits, resume removes them; the clock runs when none are set.
 * Thread: owner. */
void ear_time_pause(ear_time *time, uint32_t reasons);
void ear_time_resume(ear_time *time, uint32_t reasons);
bool ear_time_paused(const ear_time *time);
/* The scale (negative or not finite is ignored: EAR_E_INVALID_ARG). Thread: owner. */
ear_result ear_time_set_scale(ear_time *time, double scale);

/* Schedules `name` to fire once, seconds of game time from now (replacing an event of
 * that name). EAR_E_INVALID_ARG for an empty or too long name or a negative or not finite
 * time; EAR_E_OUT_OF_MEMORY. Thread: owner. */
ear_result ear_time_after(ear_time *time, const char *name, double seconds);
/* Schedules `name` to fire every interval_s of game time, first at now + interval_s.
 * Thread: owner. */
ear_result ear_time_every(ear_time *time, const char *name, double interval_s);
/* True when `name` fired during the last ear_time_advance. Thread: owner. */
bool ear_time_fired(const ear_time *time, const char *name);
/* Removes an event; true when it existed. Thread: owner. */
bool ear_time_cancel(ear_time *time, const char *name);
/* True while an event of that name waits (a one-shot until it has fired). Thread: owner. */
bool ear_time_scheduled(const ear_time *time, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* EARSHOT_TIME_H */
