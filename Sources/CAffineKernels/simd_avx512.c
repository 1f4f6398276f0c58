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

#endif
