/* SPDX-License-Identifier: Zlib */
/*
 * Clocks, the scheduler and the small timing helpers.
 *
 * ear_time keeps two clocks as doubles in seconds: real time (the sum of clamped frame
 * deltas) and game time (the same deltas times the scale, not advanced while a pause
 * reason is set). The scheduler is an unsorted array of named events: games schedule
 * tens of them, so a linear scan per frame is cheaper than keeping an order. A one-shot
 * event that fired stays one frame, marked done, so ear_time_fired sees it; the next
 * advance removes it. A repeating event moves its due time by whole intervals, which
 * keeps its rhythm however the frames fall.
 */
#define _POSIX_C_SOURCE 200809L
#include "earshot/time.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double ear_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- Timer, cooldown, interval ---------------------------------------------------- */

void ear_timer_start(ear_timer *timer, double duration_s, double now_s) {
    timer->start_s = now_s;
    timer->duration_s = duration_s > 0 ? duration_s : 0;
}

double ear_timer_elapsed_s(const ear_timer *timer, double now_s) {
    double e = now_s - timer->start_s;
    return e > 0 ? e : 0;
}

double ear_timer_remaining_s(const ear_timer *timer, double now_s) {
    double r = timer->duration_s - ear_timer_elapsed_s(timer, now_s);
    return r > 0 ? r : 0;
}

bool ear_timer_done(const ear_timer *timer, double now_s) {
    return ear_timer_elapsed_s(timer, now_s) >= timer->duration_s;
}

double ear_timer_progress(const ear_timer *timer, double now_s) {
    if (timer->duration_s <= 0) return 1;
    double p = ear_timer_elapsed_s(timer, now_s) / timer->duration_s;
    return p < 1 ? p : 1;
}

void ear_cooldown_init(ear_cooldown *cooldown, double duration_s) {
    cooldown->duration_s = duration_s > 0 ? duration_s : 0;
    cooldown->ready_at_s = 0;
    cooldown->used = false;
}

bool ear_cooldown_ready(const ear_cooldown *cooldown, double now_s) {
    return !cooldown->used || now_s >= cooldown->ready_at_s;
}

bool ear_cooldown_try(ear_cooldown *cooldown, double now_s) {
    if (!ear_cooldown_ready(cooldown, now_s)) return false;
    cooldown->used = true;
    cooldown->ready_at_s = now_s + cooldown->duration_s;
    return true;
}

void ear_cooldown_reset(ear_cooldown *cooldown) {
    cooldown->used = false;
}

void ear_interval_init(ear_interval *interval, double every_s, double now_s) {
    interval->every_s = every_s;
    interval->due_s = now_s + every_s;
}

uint32_t ear_interval_tick(ear_interval *interval, double now_s) {
    if (!(interval->every_s > 0)) return 0;
    uint32_t n = 0;
    while (interval->due_s <= now_s && n < UINT32_MAX) {
        interval->due_s += interval->every_s;
        n++;
    }
    return n;
}

/* ---- Clocks ---------------------------------------------------------------------- */

void ear_time_init(ear_time *time) {
    memset(time, 0, sizeof *time);
    time->scale = 1;
    time->max_frame_s = 0.25;
}

void ear_time_deinit(ear_time *time) {
    free(time->events);
    time->events = NULL;
    time->event_count = time->event_capacity = 0;
}

static void fire_events(ear_time *time) {
    size_t keep = 0;
    for (size_t i = 0; i < time->event_count; i++) {
        ear_time_event *e = &time->events[i];
        if (e->done) continue; /* a one-shot that fired last frame: gone now */
        e->fired = false;
        if (e->due_s <= time->game_s) {
            e->fired = true;
            if (e->interval_s > 0) {
                /* Whole intervals from the old due time: the rhythm is kept. */
                while (e->due_s <= time->game_s) e->due_s += e->interval_s;
            } else {
                e->done = true;
            }
        }
        time->events[keep++] = *e;
    }
    time->event_count = keep;
}

double ear_time_advance(ear_time *time, double now_s) {
    double dt = 0;
    if (time->started) dt = now_s - time->last_now_s;
    time->started = true;
    time->last_now_s = now_s;
    if (!(dt > 0)) dt = 0; /* a clock that went back, or NaN */
    time->raw_dt_s = dt;
    if (dt > time->max_frame_s) dt = time->max_frame_s;
    time->real_dt_s = dt;
    time->real_s += dt;
    time->game_dt_s = time->pause_reasons ? 0 : dt * time->scale;
    time->game_s += time->game_dt_s;
    time->frame++;
    fire_events(time);
    return dt;
}

void ear_time_pause(ear_time *time, uint32_t reasons) {
    time->pause_reasons |= reasons;
}

void ear_time_resume(ear_time *time, uint32_t reasons) {
    time->pause_reasons &= ~reasons;
}

bool ear_time_paused(const ear_time *time) {
    return time->pause_reasons != 0;
}

ear_result ear_time_set_scale(ear_time *time, double scale) {
    if (!time || !isfinite(scale) || scale < 0) return EAR_E_INVALID_ARG;
    time->scale = scale;
    return EAR_OK;
}

/* ---- Scheduler ------------------------------------------------------------------- */

static ear_time_event *find_event(const ear_time *time, const char *name) {
    for (size_t i = 0; i < time->event_count; i++)
        if (strcmp(time->events[i].name, name) == 0) return &time->events[i];
    return NULL;
}

static ear_result schedule(ear_time *time, const char *name, double seconds, double interval) {
    if (!time || !name || !name[0] || strlen(name) >= EAR_EVENT_NAME_MAX)
        return EAR_E_INVALID_ARG;
    if (!isfinite(seconds) || seconds < 0) return EAR_E_INVALID_ARG;
    ear_time_event *e = find_event(time, name);
    if (!e) {
        if (time->event_count == time->event_capacity) {
            size_t cap = time->event_capacity ? time->event_capacity * 2 : 8;
            ear_time_event *grown = realloc(time->events, cap * sizeof *grown);
            if (!grown) return EAR_E_OUT_OF_MEMORY;
            time->events = grown;
            time->event_capacity = cap;
        }
        e = &time->events[time->event_count++];
        memset(e, 0, sizeof *e);
        memcpy(e->name, name, strlen(name) + 1);
    }
    e->due_s = time->game_s + seconds;
    e->interval_s = interval;
    e->fired = false;
    e->done = false;
    return EAR_OK;
}

ear_result ear_time_after(ear_time *time, const char *name, double seconds) {
    return schedule(time, name, seconds, 0);
}

ear_result ear_time_every(ear_time *time, const char *name, double interval_s) {
    if (!isfinite(interval_s) || interval_s <= 0) return EAR_E_INVALID_ARG;
    return schedule(time, name, interval_s, interval_s);
}

bool ear_time_fired(const ear_time *time, const char *name) {
    if (!time || !name) return false;
    const ear_time_event *e = find_event(time, name);
    return e && e->fired;
}

bool ear_time_cancel(ear_time *time, const char *name) {
    if (!time || !name) return false;
    ear_time_event *e = find_event(time, name);
    if (!e) return false;
    size_t i = (size_t)(e - time->events);
    memmove(e, e + 1, (time->event_count - i - 1) * sizeof *e);
    time->event_count--;
    return true;
}

bool ear_time_scheduled(const ear_time *time, const char *name) {
    if (!time || !name) return false;
    const ear_time_event *e = find_event(time, name);
    return e && !e->done;
}
