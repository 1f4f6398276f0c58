/*
 * world_portable.c — world transforms of affine chains in a range (index order
 * or an order list), and the portable elementwise concat.
 *
 * Propagation is a dependent gather (a child needs its parent's finished
 * world transform), so it stays scalar on every instruction set; it is kept
 * tight with restrict column pointers (local and world never overlap, by
 * precondition) so the compiler keeps values in registers and does not
 * reload column pointers. Every layer goes through ca_world_layer, whose
 * product is CA_AFFINE_PRODUCT, the expression the concat kernels use, so
 * propagation is bit-identical to a concat of the same operands.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

/* Shared body of both range kernels; `order` is NULL for index order, and
 * `check_bits` a constant at each call site (see ca_world_layer). */
static CA_ALWAYS_INLINE int ca_world_range_checked(const BGAffineColumns *local, const int32_t *parent,
                                                   const int32_t *order, BGAffineColumns *world,
                                                   size_t start, size_t end, int check_bits) {
    if (start >= end) return 1; /* empty: touch nothing (pointers may be NULL) */
    CA_PROPAGATION_COLUMNS(local, parent, world);
    double poison = 0.0;

    for (size_t k = start; k < end; k++) {
        const size_t i = order ? (size_t)order[k] : k;
        const double la = La[i], lb = Lb[i], lc = Lc[i], ld = Ld[i], ltx = Ltx[i], lty = Lty[i];
        ca_world_layer(la, lb, lc, ld, ltx, lty, P[i], i, Wa, Wb, Wc, Wd, Wtx, Wty, &poison, check_bits);
    }
    return poison == 0.0;
}

int ca_world_checked(const BGAffineColumns *local, const int32_t *parent, const int32_t *order,
                     BGAffineColumns *world, size_t start, size_t end) {
    return ca_world_range_checked(local, parent, order, world, start, end, 0);
}

int ca_world_chain_checked(const BGAffineColumns *local, const int32_t *parent, const int32_t *order,
                           BGAffineColumns *world, size_t start, size_t end) {
    return ca_world_range_checked(local, parent, order, world, start, end, 1);
}

void ca_concat_portable(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out) {
    ca_concat_scalar_range(A, B, out, 0, n);
}
