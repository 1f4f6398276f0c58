/*
 * world_scattered.c — world transforms of a list of scattered layers (the
 * incremental update's dirty subtrees), with software prefetch.
 *
 * A list of layers of one level, far apart in the columns, costs a cache line
 * per column per layer; the loop is bound by how many of those misses are in
 * flight. Touching the lines of the layer `CA_SCATTERED_PREFETCH_DISTANCE`
 * entries ahead (its local, its world, its parent's world) keeps more of them
 * in flight: measured 1.45 -> 1.15 ms for the 1%-dirty update of 1,000,000
 * layers (Benchmarks/KERNELS.md). The prefetch is BGPrefetchForRead/Write, the
 * helper Swift's loops use too (CAffineKernels.h). The arithmetic is
 * CA_AFFINE_PRODUCT, as in world_portable.c, so the results are the same bits.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

#define CA_SCATTERED_PREFETCH_DISTANCE 16

int ca_world_list_checked(const BGAffineColumns *local, const int32_t *parent, const int32_t *layers,
                          BGAffineColumns *world, size_t count) {
    if (count == 0) return 1; /* touch nothing (pointers may be NULL) */
    CA_PROPAGATION_COLUMNS(local, parent, world);
    double poison = 0.0;

    for (size_t k = 0; k < count; k++) {
        if (k + CA_SCATTERED_PREFETCH_DISTANCE < count) {
            const size_t j = (size_t)layers[k + CA_SCATTERED_PREFETCH_DISTANCE];
            BGPrefetchForRead(&La[j]); BGPrefetchForRead(&Lb[j]); BGPrefetchForRead(&Lc[j]);
            BGPrefetchForRead(&Ld[j]); BGPrefetchForRead(&Ltx[j]); BGPrefetchForRead(&Lty[j]);
            BGPrefetchForWrite(&Wa[j]); BGPrefetchForWrite(&Wb[j]); BGPrefetchForWrite(&Wc[j]);
            BGPrefetchForWrite(&Wd[j]); BGPrefetchForWrite(&Wtx[j]); BGPrefetchForWrite(&Wty[j]);
            const int32_t pj = P[j];
            if (pj >= 0) {
                const size_t q = (size_t)pj;
                BGPrefetchForRead(&Wa[q]); BGPrefetchForRead(&Wb[q]); BGPrefetchForRead(&Wc[q]);
                BGPrefetchForRead(&Wd[q]); BGPrefetchForRead(&Wtx[q]); BGPrefetchForRead(&Wty[q]);
            }
        }
        const size_t i = (size_t)layers[k];
        const double la = La[i], lb = Lb[i], lc = Lc[i], ld = Ld[i], ltx = Ltx[i], lty = Lty[i];
        ca_world_layer(la, lb, lc, ld, ltx, lty, P[i], i, Wa, Wb, Wc, Wd, Wtx, Wty, &poison, 0);
    }
    return poison == 0.0;
}

int ca_world_translation_list_checked(const BGAffineColumns *local, const int32_t *parent,
                                      const int32_t *layers, BGAffineColumns *world, size_t count) {
    if (count == 0) return 1;
    const double *restrict Ltx = local->tx, *restrict Lty = local->ty;
    const double *restrict Wa = world->a, *restrict Wb = world->b, *restrict Wc = world->c;
    const double *restrict Wd = world->d;
    double *restrict Wtx = world->tx, *restrict Wty = world->ty;
    const int32_t *restrict P = parent;
    double poison = 0.0;

    for (size_t k = 0; k < count; k++) {
        if (k + CA_SCATTERED_PREFETCH_DISTANCE < count) {
            const size_t j = (size_t)layers[k + CA_SCATTERED_PREFETCH_DISTANCE];
            BGPrefetchForRead(&Ltx[j]); BGPrefetchForRead(&Lty[j]);
            BGPrefetchForWrite(&Wtx[j]); BGPrefetchForWrite(&Wty[j]);
            const size_t q = (size_t)P[j];
            BGPrefetchForRead(&Wa[q]); BGPrefetchForRead(&Wb[q]); BGPrefetchForRead(&Wc[q]);
            BGPrefetchForRead(&Wd[q]); BGPrefetchForRead(&Wtx[q]); BGPrefetchForRead(&Wty[q]);
        }
        const size_t i = (size_t)layers[k];
        const size_t q = (size_t)P[i];
        const double ltx = Ltx[i], lty = Lty[i];
        /* The tx, ty rows of CA_AFFINE_PRODUCT (its own definition). */
        double rtx, rty;
        CA_AFFINE_TRANSLATION(ltx, lty, Wa[q], Wb[q], Wc[q], Wd[q], Wtx[q], Wty[q], rtx, rty);
        Wtx[i] = rtx; Wty[i] = rty;
        poison += (rtx - rtx) + (rty - rty);
    }
    return poison == 0.0;
}

int ca_world_scattered_parents_checked(const BGAffineColumns *local, const int32_t *parent,
                                       BGAffineColumns *world, size_t start, size_t end) {
    if (start >= end) return 1;
    CA_PROPAGATION_COLUMNS(local, parent, world);
    double poison = 0.0;

    for (size_t i = start; i < end; i++) {
        /* The locals and worlds stream (the hardware prefetcher has them); the
         * parents' worlds do not. */
        if (i + CA_SCATTERED_PREFETCH_DISTANCE < end) {
            const int32_t pj = P[i + CA_SCATTERED_PREFETCH_DISTANCE];
            if (pj >= 0) {
                const size_t q = (size_t)pj;
                BGPrefetchForRead(&Wa[q]); BGPrefetchForRead(&Wb[q]); BGPrefetchForRead(&Wc[q]);
                BGPrefetchForRead(&Wd[q]); BGPrefetchForRead(&Wtx[q]); BGPrefetchForRead(&Wty[q]);
            }
        }
        const double la = La[i], lb = Lb[i], lc = Lc[i], ld = Ld[i], ltx = Ltx[i], lty = Lty[i];
        ca_world_layer(la, lb, lc, ld, ltx, lty, P[i], i, Wa, Wb, Wc, Wd, Wtx, Wty, &poison, 0);
    }
    return poison == 0.0;
}
