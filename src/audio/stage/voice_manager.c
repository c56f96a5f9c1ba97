/* SPDX-License-Identifier: Zlib */
/*
 * The voice manager's audio side: which voices are rendered. (Its game side, stealing
 * when max_total_voices voices exist, is voices.c's ear__steal.)
 *
 * Each block at most max_voices voices are real, chosen by priority, then audibility
 * (15 % more for a voice already real, so near-equal voices do not swap every block),
 * then age. A voice below -80 dB is never real. The choice reads compact per-slot arrays
 * (audibility, priority, serial, flags), never the voices, and runs in linear time
 * (histograms over priority and over the audibility's octave; an exact ranking only in
 * the boundary octave). While every real voice still ranks strictly above every other
 * candidate, last block's choice stands and only the voices brought up to date are
 * looked at (ear__choose_real).
 */
#include "stage_internal.h"

#include <math.h>
#include <string.h>

/* ---- audio side: the real set -------------------------------------------- */

/* a before b: higher key, then older. A total order, so the choice is deterministic. */
static bool before(const ear__rank *a, const ear__rank *b) {
    if (a->key != b->key) return a->key > b->key;
    return a->serial < b->serial;
}

/* Moves the `k` best of r[0..n) to the front (quickselect, median-of-three pivots). */
static void select_top(ear__rank *r, uint32_t n, uint32_t k) {
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        ear__rank a = r[lo], b = r[mid], c = r[hi - 1], p;
        if (before(&a, &b))
            p = before(&b, &c) ? b : (before(&a, &c) ? c : a);
        else
            p = before(&a, &c) ? a : (before(&b, &c) ? c : b);
        uint32_t i = lo, j = hi - 1;
        for (;;) {
            while (before(&r[i], &p)) i++;
            while (before(&p, &r[j])) j--;
            if (i >= j) break;
            ear__rank t = r[i];
            r[i] = r[j];
            r[j] = t;
            i++;
            j--;
        }
        uint32_t split = j + 1; /* r[lo..split) are not after p, r[split..hi) not before */
        if (k <= lo || k >= hi) return;
        if (k < split)
            hi = split;
        else if (k > split)
            lo = split;
        else
            return;
        if (split == hi || split == lo) return;
    }
}

/* The exponent byte of a positive float: a coarse, order-preserving bucket. */
static uint32_t exponent_of(float x) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (bits >> 23) & 0xffu;
}

/* Marks the max_voices best voices real: priority first, then audibility (15 % more
 * for a voice already real), then age. Linear time however many voices there are: a
 * histogram over priority finds the boundary priority, one over the audibility's
 * exponent within it finds the boundary octave, and only the voices in that octave are
 * ranked exactly. */
/* A voice's ranking key: priority, then audibility (15 % more for a voice that was real);
 * -1 for a voice too quiet to be a candidate. */
static double rank_key(const ear_stage *s, uint32_t slot, float *eff_out) {
    float a = s->aud[slot];
    if (!(a >= EAR__INAUDIBLE)) {
        *eff_out = -1.0f;
        return -1.0;
    }
    a *= (s->vflags[slot] & EAR__VF_RENDERED) ? EAR__HYSTERESIS : 1.0f;
    a = a < 1e30f ? a : 1e30f;
    *eff_out = a;
    return (double)s->prio[slot] * 1e9 + (double)a;
}

/* The full choice, in linear time, and the bounds the next blocks check against. */
static void choose_all(ear_stage *s) {
    uint32_t n = s->active_count, max = s->config.max_voices;
    float *eff = s->eff;
    uint32_t by_prio[256] = {0}, by_exp_all[256] = {0}, candidates = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t slot = s->active[i];
        s->real_idx[i] = 0;
        (void)rank_key(s, slot, &eff[i]);
        if (eff[i] < 0.0f) continue;
        by_prio[s->prio[slot]]++;
        by_exp_all[exponent_of(eff[i])]++; /* serves when every candidate shares a priority */
        candidates++;
    }
    uint32_t take = candidates < max ? candidates : max;
    if (candidates <= max) {
        for (uint32_t i = 0; i < n; i++) s->real_idx[i] = eff[i] >= 0.0f;
    } else {
        uint32_t p = 256, above = 0;
        while (p > 0 && above + by_prio[p - 1] <= max) above += by_prio[--p];
        uint32_t P = p - 1, need = max - above; /* 0 < need < by_prio[P] + 1 */
        uint32_t by_exp_one[256] = {0};
        const uint32_t *by_exp = by_exp_all;
        if (by_prio[P] != candidates) {
            for (uint32_t i = 0; i < n; i++)
                if (eff[i] >= 0.0f && s->prio[s->active[i]] == P)
                    by_exp_one[exponent_of(eff[i])]++;
            by_exp = by_exp_one;
        }
        uint32_t e = 256, above_e = 0;
        while (e > 0 && above_e + by_exp[e - 1] <= need) above_e += by_exp[--e];
        uint32_t E = e - 1, need_e = need - above_e;
        ear__rank *r = s->rank;
        uint32_t count = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (eff[i] < 0.0f) continue;
            uint32_t pr = s->prio[s->active[i]];
            if (pr > P) {
                s->real_idx[i] = 1;
                continue;
            }
            if (pr < P) continue;
            uint32_t ex = exponent_of(eff[i]);
            if (ex > E) {
                s->real_idx[i] = 1;
            } else if (ex == E) {
                r[count].key = eff[i];
                r[count].serial = s->serial_of[s->active[i]];
                r[count].index = i;
                count++;
            }
        }
        if (need_e > 0) {
            if (count > need_e) select_top(r, count, need_e);
            for (uint32_t k = 0; k < need_e && k < count; k++) s->real_idx[r[k].index] = 1;
        }
    }
    /* Exact bounds: every real voice's key is at least sel_min_real, every other
     * candidate's at most sel_max_virt. */
    double lo = 1e300, hi = -1.0;
    for (uint32_t i = 0; i < n; i++) {
        if (eff[i] < 0.0f) continue;
        double key = (double)s->prio[s->active[i]] * 1e9 + (double)eff[i];
        if (s->real_idx[i])
            lo = key < lo ? key : lo;
        else
            hi = key > hi ? key : hi;
    }
    /* With room left every candidate is real, so a voice that becomes a candidate later
     * (one started silent and raised) must be taken: no key is below -1. */
    s->sel_min_real = candidates < max ? -1.0 : lo;
    s->sel_max_virt = hi;
    s->sel_valid = true;
    atomic_store_explicit(&s->stat_real, take, memory_order_relaxed);
    atomic_store_explicit(&s->stat_virtual, n - take, memory_order_relaxed);
}

/* Marks at most max_voices voices real (real_idx, by active index): priority first,
 * then audibility (15 % more for a voice already real), then age. Only the voices
 * brought up to date this block (`work`, `count` of them) have new keys; while each
 * real one still ranks strictly above every other candidate and each other one strictly
 * below every real one, last block's choice stands and nothing else is looked at.
 * Otherwise (or after voices started or ended) the full choice runs; returns true then. */
bool ear__choose_real(ear_stage *s, const uint32_t *work, uint32_t count) {
    if (s->sel_valid) {
        double lo = s->sel_min_real, hi = s->sel_max_virt;
        bool holds = true;
        for (uint32_t k = 0; k < count && holds; k++) {
            uint32_t i = work[k];
            float eff;
            double key = rank_key(s, s->active[i], &eff);
            if (s->real_idx[i]) {
                if (!(eff >= 0.0f && key > hi)) holds = false;
                lo = key < lo ? key : lo;
            } else {
                if (eff >= 0.0f && !(key < lo)) holds = false;
                hi = key > hi ? key : hi;
            }
        }
        if (holds) {
            /* Bounds only loosen (a real key lower, a virtual key higher): still true. */
            s->sel_min_real = lo;
            s->sel_max_virt = hi;
            return false;
        }
    }
    choose_all(s);
    return true;
}
