/*
 * simd_avx512.c — AVX-512F backend (8 doubles per vector): the shared
 * algorithm of simd_template.h with AVX-512F intrinsics, in functions
 * carrying __attribute__((target("avx512f"))). It compiles on any x86 build
 * host; dispatch.c only selects it when __builtin_cpu_supports("avx512f")
 * (which also checks that the OS saves ZMM state).
 *
 * Note: target("avx512f") implies FMA, so without the pragmas below clang
 * would be allowed to fuse a*b + c. Only AVX-512F instructions are used
 * (e.g. the sign flip uses the integer xor; _mm512_xor_pd would need DQ).
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"
#define CA_SW 8
#include "spring_lanes.h"

#if CA_ARCH_X86
#include <immintrin.h>

#define CA_V __m512d
#define CA_VW 8
#define CA_VLOAD(p) _mm512_loadu_pd(p)
#define CA_VSTORE(p, v) _mm512_storeu_pd((p), (v))
#define CA_VADD(x, y) _mm512_add_pd((x), (y))
#define CA_VSUB(x, y) _mm512_sub_pd((x), (y))
#define CA_VMUL(x, y) _mm512_mul_pd((x), (y))
#define CA_VNEG(x) \
    _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(x), _mm512_set1_epi64((long long)0x8000000000000000ULL)))
/* vminpd(A, B) is exactly A < B ? A : B (NaN or equal -> B): MIN(p, q) is
 * vminpd(q, p); likewise for max. */
#define CA_VMIN_SEL(p, q) _mm512_min_pd((q), (p))
#define CA_VMAX_SEL(p, q) _mm512_max_pd((q), (p))
#define CA_SIMD_ATTR CA_HIDDEN __attribute__((target("avx512f")))
#define CA_SIMD_FRAMES_NAME ca_frames_avx512
#define CA_SIMD_CONCAT_NAME ca_concat_avx512
#include "simd_template.h"

/* The timing-function solve (BGTimingNewton8; the lane loop of ca_timing_newton_lane)
 * in one vector of eight with mask registers: a lane stops where the scalar loop stops
 * (converged, or a flat slope) and keeps its t. Ordered compares (NaN fails, as in the
 * scalar |e| < 1e-5). */
CA_HIDDEN __attribute__((target("avx512f"))) unsigned ca_timing_newton8_avx512(const double *coefficients,
                                                                             const int32_t *functions,
                                                                             double *values) {
    __m512d k[6];
    if (functions == NULL) {
        for (int j = 0; j < 6; j++) k[j] = _mm512_set1_pd(coefficients[j]);
    } else {
        const __m256i index = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)functions), _mm256_set1_epi32(6));
        for (int j = 0; j < 6; j++) k[j] = _mm512_i32gather_pd(index, coefficients + j, 8);
    }
    const __m512d near = _mm512_set1_pd(1e-5), nearNeg = _mm512_set1_pd(-1e-5);
    const __m512d flat = _mm512_set1_pd(1e-6), flatNeg = _mm512_set1_pd(-1e-6);
    const __m512d x = _mm512_cvtps_pd(_mm512_cvtpd_ps(_mm512_loadu_pd(values)));
    const __m512d sa = _mm512_mul_pd(_mm512_set1_pd(3), k[0]);
    const __m512d sb = _mm512_mul_pd(_mm512_set1_pd(2), k[1]);
    __m512d t = x;
    __mmask8 active = 0xff, converged = 0;
    for (int step = 0; step < 8; step++) {
        const __m512d X = _mm512_mul_pd(
            _mm512_add_pd(_mm512_mul_pd(_mm512_add_pd(_mm512_mul_pd(k[0], t), k[1]), t), k[2]), t);
        const __m512d e = _mm512_sub_pd(X, x);
        const __mmask8 in = active & _mm512_cmp_pd_mask(e, near, _CMP_LT_OQ) & _mm512_cmp_pd_mask(e, nearNeg, _CMP_GT_OQ);
        converged |= in;
        const __m512d g = _mm512_add_pd(_mm512_mul_pd(_mm512_add_pd(_mm512_mul_pd(sa, t), sb), t), k[2]);
        const __mmask8 level = _mm512_cmp_pd_mask(g, flat, _CMP_LT_OQ) & _mm512_cmp_pd_mask(g, flatNeg, _CMP_GT_OQ);
        active = active & (__mmask8)~(in | level);
        if (!active) break;
        t = _mm512_mask_sub_pd(t, active, t, _mm512_div_pd(e, g));
    }
    const __m512d Y = _mm512_mul_pd(
        _mm512_add_pd(_mm512_mul_pd(_mm512_add_pd(_mm512_mul_pd(k[3], t), k[4]), t), k[5]), t);
    _mm512_mask_storeu_pd(values, converged, _mm512_cvtps_pd(_mm512_cvtpd_ps(Y)));
    return ~(unsigned)converged & 0xffu;
}

/* The spring lanes (BGSpringProgress): spring_lanes.h's body, eight lanes one
 * AVX-512 register. */
CA_HIDDEN __attribute__((target("avx512f"))) void ca_spring_progress_avx512(const double *table,
                                                                          const int32_t *springs, double *values,
                                                                          size_t count) {
    ca_spring_body(table, springs, values, count);
}

#endif
