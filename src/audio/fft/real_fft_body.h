/* SPDX-License-Identifier: Zlib */
/*
 * The transform's body, written once for both precisions: real_fft.c includes it with
 * REAL (float or double) and NAME(x) (its public names) defined. Arithmetic is in REAL,
 * as the stage's transform works in float; twiddles are rounded to REAL from the double
 * tables.
 */

/* e^(-2 pi i t / n) for 0 <= t < n/2, rounded to REAL (conjugated when inv). */
static inline void NAME(twiddle)(const ear__rfft *f, uint32_t t, int inv, REAL *c, REAL *s) {
    double re, im;
    if (t < (1u << f->lo_bits)) { /* always so with one table */
        re = f->lo_re[t];
        im = f->lo_im[t];
    } else {
        uint32_t hi = t >> f->lo_bits, lo = t & ((1u << f->lo_bits) - 1u);
        double ar = f->hi_re[hi], ai = f->hi_im[hi], br = f->lo_re[lo], bi = f->lo_im[lo];
        re = ar * br - ai * bi;
        im = ar * bi + ai * br;
    }
    *c = (REAL)re;
    *s = (REAL)(inv ? -im : im);
}

/* e^(-2 pi i t / n) for 0 <= t < n (radix 4's w^3p reaches 3n/4): the half turn is -1. */
static inline void NAME(twiddle_any)(const ear__rfft *f, uint32_t t, int inv, REAL *c,
                                     REAL *s) {
    if (t < f->m) {
        NAME(twiddle)(f, t, inv, c, s);
    } else {
        NAME(twiddle)(f, t - f->m, inv, c, s);
        *c = -*c;
        *s = -*s;
    }
}

/* A radix-2 pass at stride s (sub-length L = m / s): a = x[q + s p], b = x[q + s p + m/2]
 * (p < L/2, q < s) -> y[2 s p + q] = a + b, y[2 s p + q + s] = (a - b) w^p, with
 * w = e^(-2 pi i / L) (conjugated for the inverse): w^p = e^(-2 pi i (2 p s) / n). */
static void NAME(radix2)(const ear__rfft *f, uint32_t s, int inv, const REAL *xr,
                         const REAL *xi, REAL *yr, REAL *yi) {
    uint32_t half = f->m / 2u, L = f->m / s;
    for (uint32_t p = 0; p < L / 2u; p++) {
        REAL c, d;
        NAME(twiddle)(f, 2u * p * s, inv, &c, &d);
        const REAL *ur = xr + s * p, *ui = xi + s * p, *vr = ur + half, *vi = ui + half;
        REAL *or_ = yr + 2u * s * p, *oi = yi + 2u * s * p;
        for (uint32_t q = 0; q < s; q++) {
            REAL a_r = ur[q], a_i = ui[q], b_r = vr[q], b_i = vi[q];
            REAL dr = a_r - b_r, di = a_i - b_i;
            or_[q] = a_r + b_r;
            oi[q] = a_i + b_i;
            or_[q + s] = dr * c - di * d;
            oi[q + s] = dr * d + di * c;
        }
    }
}

/* A radix-4 pass at stride s: a, b, c, d = x[q + s p + l m/4] (p < L/4) ->
 * y[4sp + q]      = (a + c) + (b + d),
 * y[4sp + q + s]  = ((a - c) -+ i (b - d)) w^p,
 * y[4sp + q + 2s] = ((a + c) - (b + d)) w^2p,
 * y[4sp + q + 3s] = ((a - c) +- i (b - d)) w^3p   (forward, inverse; w conjugated too),
 * as the stage's radix4_scalar. */
static void NAME(radix4)(const ear__rfft *f, uint32_t s, int inv, const REAL *xr,
                         const REAL *xi, REAL *yr, REAL *yi) {
    uint32_t q4 = f->m / 4u, L = f->m / s;
    for (uint32_t p = 0; p < L / 4u; p++) {
        REAL c1, s1, c2, s2, c3, s3;
        NAME(twiddle)(f, 2u * p * s, inv, &c1, &s1);
        NAME(twiddle)(f, 4u * p * s, inv, &c2, &s2);
        NAME(twiddle_any)(f, 6u * p * s, inv, &c3, &s3);
        const REAL *xr0 = xr + s * p, *xi0 = xi + s * p;
        REAL *yr0 = yr + 4u * s * p, *yi0 = yi + 4u * s * p;
        for (uint32_t q = 0; q < s; q++) {
            REAL ar = xr0[q], ai = xi0[q], br = xr0[q + q4], bi = xi0[q + q4];
            REAL cr = xr0[q + 2u * q4], ci = xi0[q + 2u * q4];
            REAL dr = xr0[q + 3u * q4], di = xi0[q + 3u * q4];
            REAL pr = ar + cr, pi = ai + ci, mr = ar - cr, mi = ai - ci;
            REAL qr = br + dr, qi = bi + di, nr = br - dr, ni = bi - di;
            /* i (b - d) = (-ni, nr); the inverse takes -i */
            REAL jr = inv ? ni : -ni, ji = inv ? -nr : nr;
            REAL y1r = mr - jr, y1i = mi - ji, y2r = pr - qr, y2i = pi - qi;
            REAL y3r = mr + jr, y3i = mi + ji;
            yr0[q] = pr + qr;
            yi0[q] = pi + qi;
            yr0[q + s] = y1r * c1 - y1i * s1;
            yi0[q + s] = y1r * s1 + y1i * c1;
            yr0[q + 2u * s] = y2r * c2 - y2i * s2;
            yi0[q + 2u * s] = y2r * s2 + y2i * c2;
            yr0[q + 3u * s] = y3r * c3 - y3i * s3;
            yi0[q + 3u * s] = y3r * s3 + y3i * c3;
        }
    }
}

/* The complex transform of m points in (xr, xi): radix-4 passes while four divides what
 * is left, then a radix 2 if a two is left (the stage's order), ping-ponging with
 * (yr, yi); the result back in (xr, xi). */
static void NAME(complex)(const ear__rfft *f, int inv, REAL *xr, REAL *xi, REAL *yr, REAL *yi) {
    uint32_t m = f->m, s = 1;
    REAL *ar_ = xr, *ai_ = xi, *br_ = yr, *bi_ = yi, *t;
    while (s < m) {
        if (m / s >= 4u) {
            NAME(radix4)(f, s, inv, ar_, ai_, br_, bi_);
            s *= 4u;
        } else {
            NAME(radix2)(f, s, inv, ar_, ai_, br_, bi_);
            s *= 2u;
        }
        t = ar_;
        ar_ = br_;
        br_ = t;
        t = ai_;
        ai_ = bi_;
        bi_ = t;
    }
    if (ar_ != xr) {
        memcpy(xr, ar_, sizeof(REAL) * m);
        memcpy(xi, ai_, sizeof(REAL) * m);
    }
}

void NAME(forward)(const ear__rfft *f, REAL *re, REAL *im, REAL *work) {
    uint32_t m = f->m;
    NAME(complex)(f, 0, re, im, work, work + m);
    /* The split, in place: E = (Z[k] + conj Z[m-k]) / 2, O = (Z[k] - conj Z[m-k]) / 2i,
     * X[k] = E + W^k O and X[m-k] = conj(E - W^k O), W = e^(-2 pi i / n); each pair
     * (k, m - k) is read before it is written. */
    REAL z0r = re[0], z0i = im[0];
    re[0] = z0r + z0i;
    im[0] = 0;
    re[m] = z0r - z0i;
    im[m] = 0;
    for (uint32_t k = 1; k <= m / 2u; k++) {
        uint32_t j = m - k;
        REAL ar = re[k], ai = im[k], br = re[j], bi = -im[j];
        REAL er = (REAL)0.5 * (ar + br), ei = (REAL)0.5 * (ai + bi);
        REAL or_ = (REAL)0.5 * (ai - bi), oi = (REAL)0.5 * (br - ar);
        REAL c, s;
        NAME(twiddle)(f, k, 0, &c, &s);
        REAL tr = c * or_ - s * oi, ti = c * oi + s * or_;
        re[k] = er + tr;
        im[k] = ei + ti;
        if (k != j) {
            re[j] = er - tr;
            im[j] = ti - ei;
        }
    }
}

void NAME(inverse)(const ear__rfft *f, REAL *re, REAL *im, REAL *work) {
    uint32_t m = f->m;
    /* The split backwards without the halvings (so the result is n times the signal):
     * Z[k] = E + i O from X[k] and conj X[m-k]. */
    REAL x0 = re[0], xm = re[m];
    re[0] = x0 + xm;
    im[0] = x0 - xm;
    for (uint32_t k = 1; k <= m / 2u; k++) {
        uint32_t j = m - k;
        REAL ar = re[k], ai = im[k], br = re[j], bi = -im[j];
        REAL er = ar + br, ei = ai + bi;
        REAL dr = ar - br, di = ai - bi;
        REAL c, s;
        NAME(twiddle)(f, k, 0, &c, &s);
        REAL or_ = dr * c + di * s, oi = di * c - dr * s;
        re[k] = er - oi;
        im[k] = ei + or_;
        if (k != j) {
            re[j] = er + oi;
            im[j] = or_ - ei;
        }
    }
    NAME(complex)(f, 1, re, im, work, work + m);
}
