/*
 * structure_version.c: a process-wide counter for LayerStore's structure versions.
 *
 * Every structural change of any store (a layer added, removed or moved) takes the
 * next value, so a version names one structure of one store: two copies of a store
 * that change apart never share one. Swift's standard library has no atomics on every
 * platform the package supports without Foundation, hence C11 here.
 */
#include "CAffineKernels.h"
#include <stdatomic.h>

static _Atomic uint64_t ca_structure_versions = 0;

uint64_t BGNextStructureVersion(void) {
    return atomic_fetch_add_explicit(&ca_structure_versions, 1, memory_order_relaxed) + 1;
}
