/*
 * vmath.c — the package's exp and sincos as scalar functions over the whole double
 * range (BGExp, BGSinCos; vmath.h has the algorithms and their sources), and the
 * portable spring lanes (BGSpringProgress; spring_lanes.h). The fast paths are
 * vmath.h's macros on doubles, bit for bit what every lane kernel computes; the slow
 * paths are here only, and the lane kernels call these functions for such lanes.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include <math.h>

#include "vmath.h"

#define CA_SCALAR_BITS(v) ca_bits(v)
#define CA_SCALAR_FROM(u) ca_from_bits(u)

/* e^x: |x| <= 708 by the macro (2^k normal). Beyond, the same reduction with 2^k
 * applied in two steps so that the result is rounded once: above 708, y·2 (exact)
 * times 2^(k−1), overflowing to +inf past the largest double; below −708, y·2^(k+1000)
 * (exact, normal) times 2^−1000, rounded once into the subnormals. Past ±710/−746 the
 * answer is +inf or 0 (e^710 > DBL_MAX, e^−746 < half the smallest subnormal); NaN in,
 * NaN out. */
double ca_exp(double x) {
    double y;
    uint64_t k;
    if (__builtin_fabs(x) <= CA_EXP_FAST_MAX) {
        CA_EXP_REDUCE(double, uint64_t, CA_SCALAR_BITS, x, y, k);
        return y * CA_POW2(CA_SCALAR_FROM, k);
    }
    if (x != x) return x + x;
    if (x > 710) return __builtin_inf();
    if (x < -746) return 0;
    CA_EXP_REDUCE(double, uint64_t, CA_SCALAR_BITS, x, y, k);
    if (x > 0) return (y * 2.0) * CA_POW2(CA_SCALAR_FROM, k - 1);
    return (y * CA_POW2(CA_SCALAR_FROM, k + 1000)) * 0x1p-1000;
}

/* sin x and cos x: |x| < 1.5·2^20 by the macro; NaN and ±inf give NaN; larger finite
 * arguments, where the three-part reduction is no longer exact, the C library's (the
 * lane kernels come here for them too, so every backend still agrees). */
void ca_sincos(double x, double *sinx, double *cosx) {
    if (__builtin_fabs(x) < CA_TRIG_FAST_MAX) {
        double s, c;
        CA_SINCOS(double, uint64_t, CA_SCALAR_BITS, CA_SCALAR_FROM, x, s, c);
        *sinx = s;
        *cosx = c;
        return;
    }
    if (x - x != 0) {
        *sinx = *cosx = x - x;
        return;
    }
    *sinx = sin(x);
    *cosx = cos(x);
}

double BGExp(double x) { return ca_exp(x); }

BGSinCos BGSinCosOf(double x) {
    BGSinCos r;
    ca_sincos(x, &r.sin, &r.cos);
    return r;
}

double BGSpringValue(const double *coefficients, double time) { return ca_spring_value(coefficients, time); }

/* The portable and NEON tables' spring lanes: four lanes, two SSE2 or NEON registers
 * each. */
#define CA_SW 4
#include "spring_lanes.h"

void ca_spring_progress_portable(const double *table, const int32_t *springs, double *values, size_t count) {
    ca_spring_body(table, springs, values, count);
}

void ca_slerp_lanes_portable(const double *slerp, const double *progress, double *rotation, size_t count) {
    ca_slerp_body(slerp, progress, rotation, count);
}
