/*
 * simd_avx2.c — AVX2 backend (4 doubles per vector): the shared algorithm of
 * simd_template.h instantiated with AVX intrinsics inside functions carrying
 * __attribute__((target("avx2"))), so the module needs no compiler flags and
 * still runs on older x86 CPUs (dispatch.c only selects it when the CPU has
 * AVX2). Explicit mul + add intrinsics and the pragmas below keep clang from
 * fusing anything into FMA.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

#if CA_ARCH_X86
#include <immintrin.h>

#define CA_V __m256d
#define CA_VW 4
#define CA_VLOAD(p) _mm256_loadu_pd(p)
#define CA_VSTORE(p, v) _mm256_storeu_pd((p), (v))
#define CA_VADD(x, y) _mm256_add_pd((x), (y))
#define CA_VSUB(x, y) _mm256_sub_pd((x), (y))
#define CA_VMUL(x, y) _mm256_mul_pd((x), (y))
#define CA_VNEG(x) _mm256_xor_pd((x), _mm256_set1_pd(-0.0))
/* vminpd(A, B) is exactly A < B ? A : B (NaN or equal -> B), so the spec's
 * MIN(p, q) = (q < p) ? q : p is vminpd(q, p); likewise for max. */
#define CA_VMIN_SEL(p, q) _mm256_min_pd((q), (p))
#define CA_VMAX_SEL(p, q) _mm256_max_pd((q), (p))
#define CA_SIMD_ATTR CA_HIDDEN __attribute__((target("avx2")))
#define CA_SIMD_FRAMES_NAME ca_frames_avx2
#define CA_SIMD_CONCAT_NAME ca_concat_avx2
#include "simd_template.h"

#endif
