/*
 * world_kinds.c — world propagation in index order with per-block transform
 * kinds (Skia's type masks): translate and scale-translate blocks skip
 * loading the local columns they know.
 *
 * Why it is bit-identical to ca_world_checked: each kind path computes
 * CA_AFFINE_PRODUCT, the same expression in the same order, with the known
 * local values (1, +0.0, +0.0, 1) as literals instead of loads. The compiler
 * may fold `1 * x` to x (exact) but not `0 * x` (it is -0, or NaN for
 * infinite x, not 0) as long as no fast-math flag is set, and the module is
 * never built with one. So only the bytes read change.
 *
 * The kind is chosen per block of 1 << CA_WORLD_KIND_BLOCK_SHIFT layers, so
 * the choice depends only on the block, never on where a thread's chunk
 * starts: every chunking gives the same bits (they would be the same anyway,
 * since every path computes the same values).
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

/* One run of layers [start, end) of one kind; `kind` is a literal at every
 * call site, so the selects below fold away after inlining. */
static CA_ALWAYS_INLINE int ca_world_kind_run(const BGAffineColumns *local, const int32_t *parent,
                                              BGAffineColumns *world, size_t start, size_t end,
                                              const int kind) {
    CA_PROPAGATION_COLUMNS(local, parent, world);
    double poison = 0.0;

    for (size_t i = start; i < end; i++) {
        const double la = kind == CA_WORLD_KIND_TRANSLATE ? 1.0 : La[i];
        const double lb = kind == CA_WORLD_KIND_AFFINE ? Lb[i] : 0.0;
        const double lc = kind == CA_WORLD_KIND_AFFINE ? Lc[i] : 0.0;
        const double ld = kind == CA_WORLD_KIND_TRANSLATE ? 1.0 : Ld[i];
        const double ltx = Ltx[i], lty = Lty[i];
        ca_world_layer(la, lb, lc, ld, ltx, lty, P[i], i, Wa, Wb, Wc, Wd, Wtx, Wty, &poison, 0);
    }
    return poison == 0.0;
}

int ca_world_kinds_checked(const BGAffineColumns *local, const int32_t *parent, const uint8_t *blockKind,
                           BGAffineColumns *world, size_t start, size_t end) {
    int finite = 1;
    size_t i = start;
    while (i < end) {
        /* Neighbouring blocks of one kind run as one loop. */
        const size_t lastBlock = (end - 1) >> CA_WORLD_KIND_BLOCK_SHIFT;
        size_t block = i >> CA_WORLD_KIND_BLOCK_SHIFT;
        const uint8_t kind = blockKind[block];
        while (block < lastBlock && blockKind[block + 1] == kind) block++;
        size_t stop = (block + 1) << CA_WORLD_KIND_BLOCK_SHIFT;
        if (stop > end) stop = end;
        switch (kind) {
        case CA_WORLD_KIND_TRANSLATE:
            finite &= ca_world_kind_run(local, parent, world, i, stop, CA_WORLD_KIND_TRANSLATE);
            break;
        case CA_WORLD_KIND_SCALE_TRANSLATE:
            finite &= ca_world_kind_run(local, parent, world, i, stop, CA_WORLD_KIND_SCALE_TRANSLATE);
            break;
        default:
            finite &= ca_world_kind_run(local, parent, world, i, stop, CA_WORLD_KIND_AFFINE);
            break;
        }
        i = stop;
    }
    return finite;
}
