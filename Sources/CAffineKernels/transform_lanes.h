/*
 * transform_lanes.h — the whole-transform lanes' write (BGTransformLanesWrite,
 * CAffineKernels.h), one body for every instruction set: included by
 * transform_portable.c (the portable and NEON tables) and simd_avx2.c (inside
 * target("avx2") functions), which differ only in what the compiler makes of the
 * four-lane vectors below (two SSE2 or NEON registers, or one AVX register). The
 * operations are Swift's `TransformMix.matrix(at:rotation:)` (Time/
 * TransformInterpolation.swift) in its order, lanewise, every one rounded (never
 * fused: the pragmas), so every table gives its bits. Four members a block: the
 * mix and rotation columns are laid out so (AoSoA), one vector load a field.
 */
#ifndef CAFFINEKERNELS_TRANSFORM_LANES_H
#define CAFFINEKERNELS_TRANSFORM_LANES_H

#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

typedef double ca_tv4 __attribute__((vector_size(32)));
typedef int64_t ca_tm4 __attribute__((vector_size(32)));

/* Loads, stores and selects as macros: a function taking or returning a 32-byte vector
 * by value changes the ABI where AVX is off (-Wpsabi), even when it is inlined. */
#define CA_TV4_LOAD(v, p) __builtin_memcpy(&(v), (p), sizeof(ca_tv4))
#define CA_TV4_STORE(p, v) __builtin_memcpy((p), &(v), sizeof(ca_tv4))
/* mask ? v : +0.0, lanewise (mask lanes all ones or zero). */
#define CA_TV4_KEEP(mask, v) ((ca_tv4)((ca_tm4)(v) & (mask)))

/* Elements 0..15 (m11 … m44, row-major) of one block's four matrices, lanewise:
 * v = start + delta * f for the thirteen numbers, then `init(recomposing:quaternion:)`. */
static CA_ALWAYS_INLINE void ca_transform_block(const double *mix, const double *rotation, const double fs[4],
                                                ca_tv4 m[16]) {
    ca_tv4 v[13], f, start, delta, x, y, z, w;
    CA_TV4_LOAD(f, fs);
    for (int j = 0; j < 13; j++) {
        CA_TV4_LOAD(start, mix + 4 * j);
        CA_TV4_LOAD(delta, mix + 4 * (13 + j));
        v[j] = start + delta * f;
    }
    CA_TV4_LOAD(x, rotation);
    CA_TV4_LOAD(y, rotation + 4);
    CA_TV4_LOAD(z, rotation + 8);
    CA_TV4_LOAD(w, rotation + 12);
    const ca_tv4 one = {1, 1, 1, 1}, two = {2, 2, 2, 2};
    const ca_tv4 r00 = one - two * (y * y + z * z), r01 = two * (x * y + z * w), r02 = two * (x * z - y * w);
    const ca_tv4 r10 = two * (x * y - z * w), r11 = one - two * (x * x + z * z), r12 = two * (y * z + x * w);
    const ca_tv4 r20 = two * (x * z + y * w), r21 = two * (y * z - x * w), r22 = one - two * (x * x + y * y);
    const ca_tv4 tx = v[0], ty = v[1], tz = v[2], sx = v[3], sy = v[4], sz = v[5];
    const ca_tv4 kxy = v[6], kxz = v[7], kyz = v[8], px = v[9], py = v[10], pz = v[11], pw = v[12];
    m[0] = sx * r00, m[1] = sx * r01, m[2] = sx * r02;
    m[4] = sy * (kxy * r00 + r10), m[5] = sy * (kxy * r01 + r11), m[6] = sy * (kxy * r02 + r12);
    m[8] = sz * ((kxz * r00 + kyz * r10) + r20);
    m[9] = sz * ((kxz * r01 + kyz * r11) + r21);
    m[10] = sz * ((kxz * r02 + kyz * r12) + r22);
    m[12] = tx, m[13] = ty, m[14] = tz;
    /* Swift's `if px != 0 || py != 0 || pz != 0` (NaN != 0 holds), as a select: the
     * products where it holds, else 0, 0, 0 and pw. */
    const ca_tm4 p = (px != 0) | (py != 0) | (pz != 0);
    m[3] = CA_TV4_KEEP(p, (m[0] * px + m[1] * py) + m[2] * pz);
    m[7] = CA_TV4_KEEP(p, (m[4] * px + m[5] * py) + m[6] * pz);
    m[11] = CA_TV4_KEEP(p, (m[8] * px + m[9] * py) + m[10] * pz);
    const ca_tv4 w44 = ((tx * px + ty * py) + tz * pz) + pw;
    m[15] = (ca_tv4)(((ca_tm4)w44 & p) | ((ca_tm4)pw & ~p));
}

/* Row `row` of the block's matrices (elements 4*row .. 4*row+3) transposed: out[l] is
 * member l's four elements of that row. */
static CA_ALWAYS_INLINE void ca_transform_rows(const ca_tv4 m[16], int row, ca_tv4 out[4]) {
    const ca_tv4 a = m[4 * row], b = m[4 * row + 1], c = m[4 * row + 2], d = m[4 * row + 3];
#if defined(__clang__)
    const ca_tv4 ab0 = __builtin_shufflevector(a, b, 0, 4, 2, 6), ab1 = __builtin_shufflevector(a, b, 1, 5, 3, 7);
    const ca_tv4 cd0 = __builtin_shufflevector(c, d, 0, 4, 2, 6), cd1 = __builtin_shufflevector(c, d, 1, 5, 3, 7);
    out[0] = __builtin_shufflevector(ab0, cd0, 0, 1, 4, 5);
    out[1] = __builtin_shufflevector(ab1, cd1, 0, 1, 4, 5);
    out[2] = __builtin_shufflevector(ab0, cd0, 2, 3, 6, 7);
    out[3] = __builtin_shufflevector(ab1, cd1, 2, 3, 6, 7);
#else
    for (int l = 0; l < 4; l++) out[l] = (ca_tv4){a[l], b[l], c[l], d[l]};
#endif
}

/* 1 when members i .. i+3 all take the mix (0 < f < 1 or outside, both ends
 * decompose): `&`, not `&&`, so the test is branch-free. */
static CA_ALWAYS_INLINE int ca_transform_block_plain(const BGTransformLanes *k, size_t i, const double f[4]) {
    int plain = 1;
    for (int l = 0; l < 4; l++) plain &= (f[l] != 0) & (f[l] != 1) & (k->decomposable[i + (size_t)l] != 0);
    return plain;
}

/* Writes members i .. i+lanes-1 of the block: the ends' matrices at f = 0 or 1, the
 * nearer end's when one has no decomposition, else the block's matrix (Swift's
 * `writeTransformLane` choice, in its order of tests). A whole block of plain members,
 * the usual case, stores each transposed row as it is made (no spill of all sixteen). */
static CA_ALWAYS_INLINE void ca_transform_block_write(const BGTransformLanes *k, size_t i, size_t lanes,
                                                      const double f[4], const ca_tv4 m[16]) {
    if (lanes == 4 && ca_transform_block_plain(k, i, f)) {
        double *out[4];
        for (int l = 0; l < 4; l++) out[l] = k->out + 16 * (size_t)k->entries[i + (size_t)l];
        for (int row = 0; row < 4; row++) {
            ca_tv4 rows[4];
            ca_transform_rows(m, row, rows);
            for (int l = 0; l < 4; l++) CA_TV4_STORE(out[l] + 4 * row, rows[l]);
        }
        return;
    }
    ca_tv4 rows[4][4];
    for (int row = 0; row < 4; row++) ca_transform_rows(m, row, rows[row]);
    for (size_t l = 0; l < lanes; l++) {
        double *out = k->out + 16 * (size_t)k->entries[i + l];
        const size_t end = (size_t)k->ends[i + l];
        if (f[l] == 0 || f[l] == 1) {
            __builtin_memcpy(out, k->endMatrices + 16 * (f[l] == 0 ? end : end + 1), 16 * sizeof(double));
        } else if (k->decomposable[i + l]) {
            for (int row = 0; row < 4; row++) CA_TV4_STORE(out + 4 * row, rows[row][l]);
        } else {
            __builtin_memcpy(out, k->endMatrices + 16 * (f[l] < 0.5 ? end : end + 1), 16 * sizeof(double));
        }
    }
}

/* The whole write: blocks of four (a partial last block computes its padding lanes,
 * zeros in memory, with f = 0, and writes only its members). */
static CA_ALWAYS_INLINE void ca_transform_lanes_body(const BGTransformLanes *k, size_t count) {
    for (size_t i = 0; i < count; i += 4) {
        const size_t lanes = count - i < 4 ? count - i : 4;
        double f[4];
        /* Fixed-size copies, so that no memset or memcpy call is made a block. */
        if (lanes == 4) {
            __builtin_memcpy(f, k->progress + i, sizeof f);
        } else {
            for (size_t l = 0; l < 4; l++) f[l] = l < lanes ? k->progress[i + l] : 0;
        }
        ca_tv4 m[16];
        ca_transform_block(k->mix + 104 * (i / 4), k->rotation + 16 * (i / 4), f, m);
        ca_transform_block_write(k, i, lanes, f, m);
    }
}

#endif /* CAFFINEKERNELS_TRANSFORM_LANES_H */
