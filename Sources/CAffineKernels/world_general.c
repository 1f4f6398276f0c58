/*
 * world_general.c — world transforms of general (4x4) layers: one 4x4 x 4x4
 * product per layer, G = L * P, from the plan's cached local matrix L and the
 * superlayer's world P.
 *
 * Row form: row r of G is L.mr1 * P.row1 + L.mr2 * P.row2 + L.mr3 * P.row3 +
 * L.mr4 * P.row4, summed left to right; lane c of that sum is exactly the
 * scalar ((L.mr1*P.m1c + L.mr2*P.m2c) + L.mr3*P.m3c) + L.mr4*P.m4c of
 * Transform3D.concatenating, so every variant is bit-identical to it. AVX2
 * computes one row per vector (broadcast times row), AVX-512 two rows per
 * vector. The vector variants live in functions with target attributes and
 * run only after a CPU check (no compiler flags for the module).
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

/* The superlayer's world as 16 doubles: the general table's entry, or the
 * planar form rebuilt from the six affine columns. */
static CA_ALWAYS_INLINE const double *ca_general_superlayer(const BGGeneralWorld *k, size_t p, double planar[16]) {
    if (k->modes[p] & CA_WORLD_MODE_GENERAL) return k->generalWorld + 16 * p;
    planar[0] = k->world.a[p]; planar[1] = k->world.b[p]; planar[2] = 0.0; planar[3] = 0.0;
    planar[4] = k->world.c[p]; planar[5] = k->world.d[p]; planar[6] = 0.0; planar[7] = 0.0;
    planar[8] = 0.0; planar[9] = 0.0; planar[10] = 0.0; planar[11] = 0.0;
    planar[12] = k->world.tx[p]; planar[13] = k->world.ty[p]; planar[14] = 0.0; planar[15] = 1.0;
    return planar;
}

/* Writes the affine columns and the presence flag of layer i from G. */
static CA_ALWAYS_INLINE void ca_general_finish(const BGGeneralWorld *k, size_t i, const double *G) {
    k->world.a[i] = G[0]; k->world.b[i] = G[1]; k->world.c[i] = G[4];
    k->world.d[i] = G[5]; k->world.tx[i] = G[12]; k->world.ty[i] = G[13];
    k->present[i] = 1;
}

static CA_ALWAYS_INLINE size_t ca_general_layer(const BGGeneralWorld *k, ptrdiff_t position) {
    return k->order ? (size_t)k->order[position] : (size_t)position;
}

void ca_general_portable(const BGGeneralWorld *k, const ptrdiff_t *positions, size_t count) {
    for (size_t n = 0; n < count; n++) {
        const size_t i = ca_general_layer(k, positions[n]);
        const double *L = k->locals + 16 * (size_t)k->localSlots[i];
        double *G = k->generalWorld + 16 * i;
        const int32_t p = k->parent[i];
        if (p < 0) {
            for (int e = 0; e < 16; e++) G[e] = L[e];
        } else {
            double planar[16];
            const double *P = ca_general_superlayer(k, (size_t)p, planar);
            double R[16];
            for (int r = 0; r < 4; r++) {
                const double l1 = L[4 * r], l2 = L[4 * r + 1], l3 = L[4 * r + 2], l4 = L[4 * r + 3];
                for (int c = 0; c < 4; c++) {
                    R[4 * r + c] = (((l1 * P[c]) + (l2 * P[4 + c])) + (l3 * P[8 + c])) + (l4 * P[12 + c]);
                }
            }
            for (int e = 0; e < 16; e++) G[e] = R[e];
        }
        ca_general_finish(k, i, G);
    }
}

#if CA_ARCH_X86
#include <immintrin.h>

__attribute__((target("avx2"))) void ca_general_avx2(const BGGeneralWorld *k, const ptrdiff_t *positions,
                                                            size_t count) {
    for (size_t n = 0; n < count; n++) {
        const size_t i = ca_general_layer(k, positions[n]);
        const double *L = k->locals + 16 * (size_t)k->localSlots[i];
        double *G = k->generalWorld + 16 * i;
        const int32_t p = k->parent[i];
        if (p < 0) {
            _mm256_storeu_pd(G, _mm256_loadu_pd(L));
            _mm256_storeu_pd(G + 4, _mm256_loadu_pd(L + 4));
            _mm256_storeu_pd(G + 8, _mm256_loadu_pd(L + 8));
            _mm256_storeu_pd(G + 12, _mm256_loadu_pd(L + 12));
        } else {
            const size_t q = (size_t)p;
            __m256d p1, p2, p3, p4;
            if (k->modes[q] & CA_WORLD_MODE_GENERAL) {
                const double *P = k->generalWorld + 16 * q;
                p1 = _mm256_loadu_pd(P); p2 = _mm256_loadu_pd(P + 4);
                p3 = _mm256_loadu_pd(P + 8); p4 = _mm256_loadu_pd(P + 12);
            } else {
                p1 = _mm256_set_pd(0.0, 0.0, k->world.b[q], k->world.a[q]);
                p2 = _mm256_set_pd(0.0, 0.0, k->world.d[q], k->world.c[q]);
                p3 = _mm256_setzero_pd();
                p4 = _mm256_set_pd(1.0, 0.0, k->world.ty[q], k->world.tx[q]);
            }
            __m256d rows[4];
            for (int r = 0; r < 4; r++) {
                __m256d sum = _mm256_add_pd(_mm256_mul_pd(_mm256_broadcast_sd(L + 4 * r), p1),
                                            _mm256_mul_pd(_mm256_broadcast_sd(L + 4 * r + 1), p2));
                sum = _mm256_add_pd(sum, _mm256_mul_pd(_mm256_broadcast_sd(L + 4 * r + 2), p3));
                rows[r] = _mm256_add_pd(sum, _mm256_mul_pd(_mm256_broadcast_sd(L + 4 * r + 3), p4));
            }
            /* All loads of L and P are done: G may be P's table, never L. */
            for (int r = 0; r < 4; r++) _mm256_storeu_pd(G + 4 * r, rows[r]);
        }
        ca_general_finish(k, i, G);
    }
}

__attribute__((target("avx512f"))) void ca_general_avx512(const BGGeneralWorld *k, const ptrdiff_t *positions,
                                                                 size_t count) {
    /* Lane selectors: entry c of row r in the low half, of row r + 1 in the high half. */
    const __m512i pick1 = _mm512_set_epi64(4, 4, 4, 4, 0, 0, 0, 0);
    const __m512i pick2 = _mm512_set_epi64(5, 5, 5, 5, 1, 1, 1, 1);
    const __m512i pick3 = _mm512_set_epi64(6, 6, 6, 6, 2, 2, 2, 2);
    const __m512i pick4 = _mm512_set_epi64(7, 7, 7, 7, 3, 3, 3, 3);
    for (size_t n = 0; n < count; n++) {
        const size_t i = ca_general_layer(k, positions[n]);
        const double *L = k->locals + 16 * (size_t)k->localSlots[i];
        double *G = k->generalWorld + 16 * i;
        const int32_t p = k->parent[i];
        if (p < 0) {
            _mm512_storeu_pd(G, _mm512_loadu_pd(L));
            _mm512_storeu_pd(G + 8, _mm512_loadu_pd(L + 8));
        } else {
            const size_t q = (size_t)p;
            __m512d p1, p2, p3, p4; /* each superlayer row in both halves */
            if (k->modes[q] & CA_WORLD_MODE_GENERAL) {
                const double *P = k->generalWorld + 16 * q;
                p1 = _mm512_broadcast_f64x4(_mm256_loadu_pd(P));
                p2 = _mm512_broadcast_f64x4(_mm256_loadu_pd(P + 4));
                p3 = _mm512_broadcast_f64x4(_mm256_loadu_pd(P + 8));
                p4 = _mm512_broadcast_f64x4(_mm256_loadu_pd(P + 12));
            } else {
                p1 = _mm512_broadcast_f64x4(_mm256_set_pd(0.0, 0.0, k->world.b[q], k->world.a[q]));
                p2 = _mm512_broadcast_f64x4(_mm256_set_pd(0.0, 0.0, k->world.d[q], k->world.c[q]));
                p3 = _mm512_setzero_pd();
                p4 = _mm512_broadcast_f64x4(_mm256_set_pd(1.0, 0.0, k->world.ty[q], k->world.tx[q]));
            }
            __m512d halves[2];
            for (int h = 0; h < 2; h++) {
                const __m512d l = _mm512_loadu_pd(L + 8 * h); /* rows 2h and 2h + 1 */
                __m512d sum = _mm512_add_pd(_mm512_mul_pd(_mm512_permutexvar_pd(pick1, l), p1),
                                            _mm512_mul_pd(_mm512_permutexvar_pd(pick2, l), p2));
                sum = _mm512_add_pd(sum, _mm512_mul_pd(_mm512_permutexvar_pd(pick3, l), p3));
                halves[h] = _mm512_add_pd(sum, _mm512_mul_pd(_mm512_permutexvar_pd(pick4, l), p4));
            }
            _mm512_storeu_pd(G, halves[0]);
            _mm512_storeu_pd(G + 8, halves[1]);
        }
        ca_general_finish(k, i, G);
    }
}

#endif /* CA_ARCH_X86 */
