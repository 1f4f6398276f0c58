/*
 * world_portable.c — world transforms of affine chains (portable C) and the
 * portable elementwise concat.
 *
 * Propagation is a dependent gather (a child needs its parent's finished
 * world transform), so it stays scalar; it is kept tight with restrict
 * column pointers (local and world never overlap, by precondition) so the
 * compiler keeps values in registers and does not reload column pointers.
 * The product is CA_AFFINE_PRODUCT, the same expression the concat kernels
 * use, so propagation is bit-identical to a concat of the same operands.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

/* Shared body of both propagation entry points; `order` is NULL for the
 * index-order variant (the branch folds away after inlining). */
static CA_ALWAYS_INLINE void ca_world_range(const CAAffineColumns *local, const int32_t *parent,
                                            const int32_t *order, CAAffineColumns *world,
                                            size_t start, size_t end) {
    if (start >= end) return; /* empty: touch nothing (pointers may be NULL) */
    CA_PROPAGATION_COLUMNS(local, parent, world);

    for (size_t k = start; k < end; k++) {
        const size_t i = order ? (size_t)order[k] : k;
        const double la = La[i], lb = Lb[i], lc = Lc[i], ld = Ld[i], ltx = Ltx[i], lty = Lty[i];
        const int32_t p = P[i];
        if (p < 0) { /* root: world = local */
            Wa[i] = la; Wb[i] = lb; Wc[i] = lc; Wd[i] = ld; Wtx[i] = ltx; Wty[i] = lty;
            continue;
        }
        const size_t q = (size_t)p;
        const double pa = Wa[q], pb = Wb[q], pc = Wc[q], pd = Wd[q], ptx = Wtx[q], pty = Wty[q];
        double ra, rb, rc, rd, rtx, rty;
        CA_AFFINE_PRODUCT(la, lb, lc, ld, ltx, lty, pa, pb, pc, pd, ptx, pty, ra, rb, rc, rd, rtx, rty);
        Wa[i] = ra; Wb[i] = rb; Wc[i] = rc; Wd[i] = rd; Wtx[i] = rtx; Wty[i] = rty;
    }
}

/* Same loop, also reporting whether every result is finite: x - x is 0 for a
 * finite x and NaN for an infinity or a NaN, so the sum stays 0 exactly when all
 * results are finite. Kept separate so the unchecked loop stays as lean as before. */
static CA_ALWAYS_INLINE int ca_world_range_checked(const CAAffineColumns *local, const int32_t *parent,
                                                   const int32_t *order, CAAffineColumns *world,
                                                   size_t start, size_t end, int check_bits) {
    if (start >= end) return 1;
    CA_PROPAGATION_COLUMNS(local, parent, world);
    double poison = 0.0;

    for (size_t k = start; k < end; k++) {
        const size_t i = order ? (size_t)order[k] : k;
        const double la = La[i], lb = Lb[i], lc = Lc[i], ld = Ld[i], ltx = Ltx[i], lty = Lty[i];
        ca_world_layer(la, lb, lc, ld, ltx, lty, P[i], i, Wa, Wb, Wc, Wd, Wtx, Wty, &poison, check_bits);
    }
    return poison == 0.0;
}

int CAWorldAffinePropagateChecked(const CAAffineColumns *local, const int32_t *parent,
                                  const int32_t *order, CAAffineColumns *world,
                                  size_t start, size_t end) {
    return ca_world_range_checked(local, parent, order, world, start, end, 0);
}

int CAWorldAffinePropagateChainChecked(const CAAffineColumns *local, const int32_t *parent,
                                       const int32_t *order, CAAffineColumns *world,
                                       size_t start, size_t end) {
    return ca_world_range_checked(local, parent, order, world, start, end, 1);
}

void CAWorldAffinePropagate(const CAAffineColumns *local, const int32_t *parent,
                            CAAffineColumns *world, size_t start, size_t end) {
    ca_world_range(local, parent, NULL, world, start, end);
}

void CAWorldAffinePropagateOrdered(const CAAffineColumns *local, const int32_t *parent,
                                   const int32_t *order, CAAffineColumns *world,
                                   size_t start, size_t end) {
    ca_world_range(local, parent, order, world, start, end);
}

void ca_concat_portable(size_t n, const CAAffineColumns *A, const CAAffineColumns *B, CAAffineColumns *out) {
    ca_concat_scalar_range(A, B, out, 0, n);
}

int CAAffineConcatPortable(size_t n, const CAAffineColumns *A, const CAAffineColumns *B, CAAffineColumns *out) {
    ca_concat_portable(n, A, B, out);
    return 1;
}
