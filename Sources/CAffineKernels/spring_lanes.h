/*
 * spring_lanes.h — the spring lanes (BGSpringProgress, CAffineKernels.h), one body for
 * every instruction set: included by vmath.c (the portable and NEON tables, four lanes
 * as the baseline's registers), simd_avx2.c (four lanes, one AVX register) and
 * simd_avx512.c (eight lanes), each after defining CA_SW (lanes) and CA_SPRING_NAME
 * (the function). Each block of CA_SW members: the springs' coefficients gathered,
 * the exp and sincos of vmath.h on the whole vector (lanes outside their fast ranges
 * recomputed by the scalar functions), Spring.value(at:)'s three formulas selected by
 * regime, rounded to float. The last partial block goes member by member through
 * ca_spring_value: the same operations, so the same bits.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "vmath.h"

typedef double ca_sv __attribute__((vector_size(8 * CA_SW)));
typedef uint64_t ca_su __attribute__((vector_size(8 * CA_SW)));
typedef int64_t ca_sm __attribute__((vector_size(8 * CA_SW)));
typedef float ca_sf __attribute__((vector_size(4 * CA_SW)));

#define CA_SV_BITS(v) ((ca_su)(v))
#define CA_SV_FROM(u) ((ca_sv)(u))
/* mask ? a : b, lanewise (mask lanes all ones or zero). */
#define CA_SV_SELECT(mask, a, b) CA_SV_FROM((CA_SV_BITS(a) & (ca_su)(mask)) | (CA_SV_BITS(b) & ~(ca_su)(mask)))
/* 1 when every lane of the mask is set. */
#define CA_SV_ALL(mask, all)                                          \
    do {                                                              \
        (all) = 1;                                                    \
        for (int ca_l_ = 0; ca_l_ < CA_SW; ca_l_++) (all) &= (mask)[ca_l_] != 0; \
    } while (0)

/* e^x lanewise: ca_exp's bits. Pointers, not vectors by value (-Wpsabi). */
static CA_ALWAYS_INLINE void ca_sv_exp(const ca_sv *x, ca_sv *out) {
    ca_sv y;
    ca_su k;
    CA_EXP_REDUCE(ca_sv, ca_su, CA_SV_BITS, *x, y, k);
    *out = y * CA_POW2(CA_SV_FROM, k);
    const ca_sv magnitude = CA_SV_FROM(CA_SV_BITS(*x) & 0x7fffffffffffffffull);
    const ca_sm fast = (ca_sm)(magnitude <= CA_EXP_FAST_MAX);
    int all;
    CA_SV_ALL(fast, all);
    if (__builtin_expect(!all, 0))
        for (int l = 0; l < CA_SW; l++)
            if (!fast[l]) (*out)[l] = ca_exp((*x)[l]);
}

/* sin x and cos x lanewise: ca_sincos's bits. */
static CA_ALWAYS_INLINE void ca_sv_sincos(const ca_sv *x, ca_sv *sinx, ca_sv *cosx) {
    CA_SINCOS(ca_sv, ca_su, CA_SV_BITS, CA_SV_FROM, *x, *sinx, *cosx);
    const ca_sv magnitude = CA_SV_FROM(CA_SV_BITS(*x) & 0x7fffffffffffffffull);
    const ca_sm fast = (ca_sm)(magnitude < CA_TRIG_FAST_MAX);
    int all;
    CA_SV_ALL(fast, all);
    if (__builtin_expect(!all, 0))
        for (int l = 0; l < CA_SW; l++)
            if (!fast[l]) {
                double s, c;
                ca_sincos((*x)[l], &s, &c);
                (*sinx)[l] = s;
                (*cosx)[l] = c;
            }
}

/* One whole block, members i .. i + CA_SW − 1. A regime's exp or sincos runs only when
 * a lane has that regime, on 0 in the other lanes (their results are not selected). */
static CA_ALWAYS_INLINE void ca_spring_block(const double *table, const int32_t *springs, double *values,
                                             size_t i) {
    ca_sv t, regime, w0, zeta, f, A, B, h;
    for (int l = 0; l < CA_SW; l++) {
        const double *c = table + 8 * (size_t)springs[i + (size_t)l];
        t[l] = values[i + (size_t)l];
        regime[l] = c[0], w0[l] = c[1], zeta[l] = c[2], f[l] = c[3];
        A[l] = c[4], B[l] = c[5], h[l] = c[6];
    }
    const ca_sm under = (ca_sm)(regime == 0), critical = (ca_sm)(regime == 1), over = (ca_sm)(regime == 2);
    const ca_sv none = {0};
    const ca_sv a1 = CA_SV_SELECT(under, -(t * zeta) * w0, CA_SV_SELECT(critical, -(t * w0), (f - h) * t));
    ca_sv E1, E2 = none, S = none, C = none;
    ca_sv_exp(&a1, &E1);
    int anyUnder = 0, anyOver = 0;
    for (int l = 0; l < CA_SW; l++) anyUnder |= under[l] != 0, anyOver |= over[l] != 0;
    if (anyOver) {
        const ca_sv a2 = CA_SV_SELECT(over, -(t * (h + f)), none);
        ca_sv_exp(&a2, &E2);
    }
    if (anyUnder) {
        const ca_sv a3 = CA_SV_SELECT(under, f * t, none);
        ca_sv_sincos(&a3, &S, &C);
    }
    const ca_sv xU = 1.0 - (S * B + C * A) * E1;
    const ca_sv xC = 1.0 - E1 * (A + B * t);
    const ca_sv xO = 1.0 - (E1 * B + E2 * A);
    const ca_sv x = CA_SV_SELECT(under, xU, CA_SV_SELECT(critical, xC, xO));
    const ca_sv rounded = __builtin_convertvector(__builtin_convertvector(x, ca_sf), ca_sv);
    __builtin_memcpy(values + i, &rounded, sizeof rounded);
}

static CA_ALWAYS_INLINE void ca_spring_body(const double *table, const int32_t *springs, double *values,
                                            size_t count) {
    size_t i = 0;
    for (; count - i >= (size_t)CA_SW; i += CA_SW) ca_spring_block(table, springs, values, i);
    for (; i < count; i++) values[i] = (double)(float)ca_spring_value(table + 8 * (size_t)springs[i], values[i]);
}

#if CA_SW == 4
/* The whole-transform lanes' slerp (BGSlerpLanes, CAffineKernels.h): Swift's
 * PreparedSlerp.interpolate(from:_:) four members a block, lanewise, in its order:
 * wa = sin((1 − f)·θ) / sin θ, wb = sin(f·θ) / sin θ, q = a·wa + b·wb, or a where the
 * slerp returns its start. The sines are ca_sv_sincos's (the scalar BGSinCosOf's bits).
 * A partial last block computes its padding lanes (zeros in memory, f = 0) and writes
 * them to the rotation block's padding. */
static CA_ALWAYS_INLINE void ca_slerp_body(const double *slerp, const double *progress, double *rotation,
                                           size_t count) {
    for (size_t i = 0; i < count; i += 4) {
        const size_t lanes = count - i < 4 ? count - i : 4;
        const double *k = slerp + 44 * (i / 4);
        ca_sv f = {0}, a[4], b[4], theta, sinTheta, start;
        for (size_t l = 0; l < lanes; l++) f[l] = progress[i + l];
        for (int j = 0; j < 4; j++) {
            __builtin_memcpy(&a[j], k + 4 * j, sizeof(ca_sv));
            __builtin_memcpy(&b[j], k + 4 * (4 + j), sizeof(ca_sv));
        }
        __builtin_memcpy(&theta, k + 32, sizeof theta);
        __builtin_memcpy(&sinTheta, k + 36, sizeof sinTheta);
        __builtin_memcpy(&start, k + 40, sizeof start);
        const ca_sv argA = (1.0 - f) * theta, argB = f * theta;
        ca_sv sinA, cosA, sinB, cosB;
        ca_sv_sincos(&argA, &sinA, &cosA);
        ca_sv_sincos(&argB, &sinB, &cosB);
        const ca_sv wa = sinA / sinTheta, wb = sinB / sinTheta;
        const ca_sm keep = (ca_sm)(start != 0);
        for (int j = 0; j < 4; j++) {
            const ca_sv q = CA_SV_SELECT(keep, a[j], a[j] * wa + b[j] * wb);
            __builtin_memcpy(rotation + 16 * (i / 4) + 4 * j, &q, sizeof q);
        }
    }
}
#endif
