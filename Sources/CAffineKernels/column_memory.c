/*
 * column_memory.c: the blocks behind LayerStore's per-layer columns (RemappedColumn in
 * Sources/BatchGeometry/Memory). A Swift Array grows by allocate-and-copy: at a million
 * layers one column's growth cost 0.4-42 ms, mostly the first touch of the new block's
 * pages plus the copy (Benchmarks/KERNELS.md, "Growth by remapping"). On Linux a block of
 * 2 MiB or more is an anonymous mapping instead, grown with mremap(MREMAP_MAYMOVE): the
 * kernel moves the page-table entries, copies nothing and faults in no old page. Such a
 * block asks for transparent huge pages (madvise(MADV_HUGEPAGE); the systems measured
 * have THP set to "madvise"), which take TLB misses off the kernels' streaming passes,
 * but only where the block is already filled: the first touch of a huge page can stall
 * for milliseconds (zeroing 2 MiB, or compacting memory to find them: up to 17 ms a page
 * measured on the development VM), and every column of a grown store touches its next
 * page in the same addLayer, so a grown tail gets small pages (MADV_NOHUGEPAGE) until the
 * next growth, when the block, then full, asks for huge pages again and the kernel's
 * khugepaged collapses it in the background.
 * Smaller blocks, other systems, and sanitizer builds (whose runtime must see every
 * block to check the columns' accesses) use malloc and realloc.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CAffineKernels.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BG_COLUMNS_USE_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer) \
    || __has_feature(hwaddress_sanitizer)
#define BG_COLUMNS_USE_MALLOC 1
#endif
#endif
#if !defined(__linux__)
#define BG_COLUMNS_USE_MALLOC 1
#endif

#if !defined(BG_COLUMNS_USE_MALLOC)
#include <sys/mman.h>
/* Linux 5.14's madvise advice (older headers lack the name). */
#if defined(MADV_POPULATE_WRITE)
#define CA_MADV_POPULATE_WRITE MADV_POPULATE_WRITE
#else
#define CA_MADV_POPULATE_WRITE 23
#endif
#endif

static _Atomic uint64_t ca_mapped_column_calls = 0;

uint64_t BGColumnMappingCount(void) { return atomic_load_explicit(&ca_mapped_column_calls, memory_order_relaxed); }

static void ca_out_of_memory(size_t bytes) {
    fprintf(stderr, "BatchGeometry: out of memory growing a layer column to %zu bytes\n", bytes);
    abort();
}

#if defined(BG_COLUMNS_USE_MALLOC)

void *BGColumnAllocate(size_t bytes) {
    void *block = malloc(bytes == 0 ? 1 : bytes);
    if (block == NULL) ca_out_of_memory(bytes);
    return block;
}

void *BGColumnGrow(void *block, size_t oldBytes, size_t newBytes) {
    (void)oldBytes;
    void *grown = realloc(block, newBytes == 0 ? 1 : newBytes);
    if (grown == NULL) ca_out_of_memory(newBytes);
    return grown;
}

void BGColumnFree(void *block, size_t bytes) {
    (void)bytes;
    free(block);
}

#else

/* Blocks of this size or more are mappings; a mapping's length is the size rounded up
 * to whole huge pages, so that each one can be backed by huge pages and the rounding is
 * the same whichever call computes it. */
enum { CA_MAPPED_MINIMUM = 2u << 20 };

static int ca_is_mapped(size_t bytes) { return bytes >= CA_MAPPED_MINIMUM; }

static size_t ca_mapped_length(size_t bytes) {
    return (bytes + (CA_MAPPED_MINIMUM - 1)) & ~(size_t)(CA_MAPPED_MINIMUM - 1);
}

static void *ca_map(size_t bytes) {
    size_t length = ca_mapped_length(bytes);
    void *block = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) ca_out_of_memory(bytes);
    (void)madvise(block, length, MADV_HUGEPAGE); /* advice only: fine to fail */
    atomic_fetch_add_explicit(&ca_mapped_column_calls, 1, memory_order_relaxed);
    return block;
}

/* mremap's fallback (it refuses a range that is not one mapping): a new mapping, a
 * copy and the old one unmapped. */
static void *ca_grow_by_copy(void *block, size_t oldLength, size_t newBytes) {
    void *mapped = ca_map(newBytes);
    memcpy(mapped, block, oldLength);
    (void)munmap(block, oldLength);
    return mapped;
}

void *BGColumnAllocate(size_t bytes) {
    if (ca_is_mapped(bytes)) return ca_map(bytes);
    void *block = malloc(bytes == 0 ? 1 : bytes);
    if (block == NULL) ca_out_of_memory(bytes);
    return block;
}

void *BGColumnGrow(void *block, size_t oldBytes, size_t newBytes) {
    if (!ca_is_mapped(newBytes)) {
        void *grown = realloc(block, newBytes == 0 ? 1 : newBytes);
        if (grown == NULL) ca_out_of_memory(newBytes);
        return grown;
    }
    if (!ca_is_mapped(oldBytes)) {
        /* The move from the heap to a mapping: the one copy of a column's life. Small
         * pages: the copy and the adds after it would fault huge ones in this call. */
        void *mapped = ca_map(newBytes);
        (void)madvise(mapped, ca_mapped_length(newBytes), MADV_NOHUGEPAGE);
        /* The pages the copy writes, faulted in one call rather than one fault each: at a
         * million layers a 2 MB table's move took 1.4-2 ms of a frame, 0.7-1.3 ms so (a
         * hint; older kernels refuse it and the copy faults them as before). */
        (void)madvise(mapped, (oldBytes + 4095) & ~(size_t)4095, CA_MADV_POPULATE_WRITE);
        memcpy(mapped, block, oldBytes);
        free(block);
        return mapped;
    }
    size_t oldLength = ca_mapped_length(oldBytes), newLength = ca_mapped_length(newBytes);
    if (newLength == oldLength) return block;
    /* The block is full: huge pages for all of it (this also merges a small-page tail
     * back into one mapping, which mremap needs); small ones for the new tail. */
    (void)madvise(block, oldLength, MADV_HUGEPAGE);
    void *grown = mremap(block, oldLength, newLength, MREMAP_MAYMOVE);
    if (grown == MAP_FAILED) grown = ca_grow_by_copy(block, oldLength, newBytes);
    (void)madvise((char *)grown + oldLength, newLength - oldLength, MADV_NOHUGEPAGE);
    atomic_fetch_add_explicit(&ca_mapped_column_calls, 1, memory_order_relaxed);
    return grown;
}

void BGColumnFree(void *block, size_t bytes) {
    if (block == NULL) return;
    if (ca_is_mapped(bytes)) {
        (void)munmap(block, ca_mapped_length(bytes));
    } else {
        free(block);
    }
}

#endif
