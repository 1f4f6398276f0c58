/*
 * CAffineKernelsGeneral.h — world transforms of general (4x4) layers.
 * Included by CAffineKernels.h (the module's umbrella header); same
 * determinism contract as every kernel there.
 */
#ifndef CAFFINEKERNELS_GENERAL_H
#define CAFFINEKERNELS_GENERAL_H

#include <stddef.h>
#include <stdint.h>

#include "CAffineKernels.h" /* BGAffineColumns */

#ifdef __cplusplus
extern "C" {
#endif

/// The mode bit that marks a layer whose world is a full 4×4 matrix (in `generalWorld`)
/// rather than six planar doubles. Defined once here and used by the C kernels and, as
/// `WorldMode.general` and `WorldTransforms.generalBit`, by Swift: the plan's mode bytes
/// are handed to the kernels as they are, so both sides must read the same bit.
#define CA_WORLD_MODE_GENERAL 1

/// What `BGWorldGeneralPropagate` reads and writes. A 4x4 matrix is 16
/// doubles in row-major order (m11 m12 m13 m14 m21 ... m44, row vectors,
/// Core Animation's convention); the world table `generalWorld` holds layer i at 16 * i.
///
///  - `locals` (read): each general layer's transform into its superlayer's
///    world basis (`Local * Adjust * Flat`, or `Local` for a root), layer i's at
///    16 * localSlots[i] (a compact table: only the general layers have an entry);
///  - `localSlots` (read): each computed layer's entry in `locals`;
///  - `parent` (read): superlayer index, negative for a root;
///  - `order` (read, may be NULL): the layer at each position (NULL: the
///    position is the layer);
///  - `modes` (read): bit CA_WORLD_MODE_GENERAL set = the layer's world is in `generalWorld`,
///    clear = it is planar, only in the six affine columns `world`, standing
///    for [[a b 0 0] [c d 0 0] [0 0 0 0] [tx ty 0 1]];
///  - `world` (written for the computed layers, read for planar superlayers):
///    m11 m12 m21 m22 m41 m42 of every layer;
///  - `generalWorld` (written for the computed layers, read for general
///    superlayers), and `present` (set to 1 for the computed layers).
typedef struct BGGeneralWorld {
    const double *locals;
    const int32_t *localSlots;
    const int32_t *parent;
    const int32_t *order;
    const uint8_t *modes;
    BGAffineColumns world;
    double *generalWorld;
    uint8_t *present;
} BGGeneralWorld;

/// For k = 0, 1, ..., count-1, with i the layer at position positions[k]:
///
///     G[i] = parent[i] < 0 ? L[i] : L[i] * P,   P = the superlayer's world
///     (L[i] at locals + 16 * localSlots[i])
///
/// (then world.a[i] = G[i].m11, .b = m12, .c = m21, .d = m22, .tx = m41,
/// .ty = m42, present[i] = 1), with each entry of the product summed left to
/// right exactly as `Transform3D.concatenating` (no FMA):
///
///     G.mrc = ((L.mr1*P.m1c + L.mr2*P.m2c) + L.mr3*P.m3c) + L.mr4*P.m4c
///
/// A planar superlayer's P has its structural zeros and one multiplied in
/// like any other entry. Layers are computed in list order, so a layer may
/// follow its superlayer in the same call. Preconditions (not checked):
/// every superlayer is computed earlier in this call or already final; the
/// tables cover every index read or written; no two threads write the same
/// layer. Complexity: O(count), 64 multiplies and 48 adds per layer.
/// Does nothing when count == 0. Uses the backend `BGKernelBackendName`
/// reports, through the same implementation table as every kernel family
/// (avx512, avx2; neon and portable run the portable loop).
void BGWorldGeneralPropagate(const BGGeneralWorld *k, const ptrdiff_t *positions, size_t count);


#ifdef __cplusplus
}
#endif

#endif /* CAFFINEKERNELS_GENERAL_H */
