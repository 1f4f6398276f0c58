/*
 * structure_version.c: process-wide counters for LayerStore's structure versions and
 * store tags.
 *
 * Every structural change of any store (a layer added, removed or moved) takes the
 * next value, so a version names one structure of one store: two copies of a store
 * that change apart never share one. Swift's standard library has no atomics on every
 * platform the package supports without Foundation, hence C11 here.
 *
 * Every new store (not a copy) takes the next store tag, which its handles carry, so
 * that a store recognizes another store's handle (LayerHandle.swift). Tags cycle through
 * 1...tag_count: 0 is never a store's, so a handle made from a small integer is never
 * taken for a live one.
 */
#include "CAffineKernels.h"
#include <stdatomic.h>

static _Atomic uint64_t ca_structure_versions = 0;

uint64_t BGNextStructureVersion(void) {
    return atomic_fetch_add_explicit(&ca_structure_versions, 1, memory_order_relaxed) + 1;
}

static _Atomic uint64_t ca_store_tags = 0;

uint32_t BGNextStoreTag(uint32_t tag_count) {
    uint64_t n = atomic_fetch_add_explicit(&ca_store_tags, 1, memory_order_relaxed);
    return (uint32_t)(n % (tag_count ? tag_count : 1)) + 1;
}
