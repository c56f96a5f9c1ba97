/*
 * The stage's own elementary functions, in place of libm's in the audio path.
 *
 * glibc (native) and emscripten's musl (wasm) round sinf, cosf, tanf, acosf and exp
 * differently in the last bit, and glibc's x86-64 builds pick FMA variants at run time,
 * so a scene whose voices, listener or occlusion move rendered different bits on the
 * two builds, and could on two x86-64 CPUs. These are written with IEEE +, -, *, / and
 * sqrt only (each correctly rounded on every target), in one fixed order, in double
 * precision: the same inputs give the same bits on every build that keeps C's
 * evaluation (no -ffast-math, no contraction into fused multiply-adds; docs/web.md).
 *
 * Accuracy (tests/stage/test_portable_math.c measures it against the double-precision
 * libm): the float functions are within 0.5 ulp plus 1e-4 ulp of the exact value, that
 * is the nearest float except for values within a hair of half-way between two floats,
 * over their whole finite domain for expf, exp2f, exp10f, powf (x > 0) and acosf, and
 * for |x| <= 65536 for sinf, cosf and tanf (the reduction by pi / 2 is exact to
 * |x| < 2^20 and loses accuracy slowly beyond; |x| >= 2^50 gives sin 0, cos 1, tan 0).
 * ear__exp and ear__log are within 4 ulp of a double. Every function is pure and
 * allocation-free. Thread: any.
 */
#ifndef EAR_STAGE_PORTABLE_MATH_H
#define EAR_STAGE_PORTABLE_MATH_H

/* e^x and the natural logarithm in double (NaN in, NaN out; log of x < 0 is NaN, of 0
 * is -inf). */
double ear__exp(double x);
double ear__log(double x);

/* e^x, 2^x and 10^x; 2^n is exact for integer n in the normal range. */
float ear__expf(float x);
float ear__exp2f(float x);
float ear__exp10f(float x);
/* x^y for x >= 0 (x^0 = 1^y = 1; 0^y is 0 for y > 0 and +inf for y < 0; x < 0 is NaN:
 * the stage raises only positive ratios to powers). */
float ear__powf(float x, float y);

/* Sine, cosine and tangent of x radians; NaN for infinite or NaN x. */
float ear__sinf(float x);
float ear__cosf(float x);
float ear__tanf(float x);
/* sin(t pi / 2) and cos(t pi / 2) for t in [0, 1] (clamped into it; NaN is 0): the
 * quarter turns of fades and equal-power curves, with pi / 2 in double and no
 * reduction (cheaper than ear__sinf(t * (float)(pi / 2)), and as accurate). */
float ear__sin_quarter(float t);
float ear__cos_quarter(float t);
/* Arc cosine in [0, pi]; NaN outside [-1, 1]. */
float ear__acosf(float x);

#endif
