/*
 * column_memory.c: the blocks behind LayerStore's per-layer columns (RemappedColumn in
 * Sources/BatchGeometry/Memory). A Swift Array grows by allocate-and-copy: at a million
 * layers one column's growth cost 0.4-42 ms, mostly the first touch of the new block's
 * pages plus the copy (Benchmarks/KERNELS.md, "Growth by remapping"). On Linux a block of
 * 256 KiB or more is an anonymous mapping instead, inside a reservation of inaccessible
 * address space many times its size: it grows by making more of the reservation
 * writable (mprotect), which copies nothing, moves no page and keeps its address, and
 * only when it outgrows the reservation is it moved, with mremap (page-table entries
 * moved, nothing copied, no old page faulted in). An mremap of every column in the
 * growing addLayer cost ~1 ms at a million layers (each one a TLB shootdown), and the
 * copy of the 1-byte columns as they crossed the old 2 MiB threshold another ~2 ms
 * (Benchmarks/KERNELS.md, "Growth inside reservations"). Such a
 * block asks for transparent huge pages (madvise(MADV_HUGEPAGE); the systems measured
 * have THP set to "madvise"), which take TLB misses off the kernels' streaming passes,
 * but only where the block is already filled: the first touch of a huge page can stall
 * for milliseconds (zeroing 2 MiB, or compacting memory to find them: up to 17 ms a page
 * measured on the development VM), and every column of a grown store touches its next
 * page in the same addLayer, so a grown tail gets small pages (MADV_NOHUGEPAGE) until the
 * next growth, when the block, then full, asks for huge pages again and the kernel's
 * khugepaged collapses it in the background.
 * Every call that makes system calls anyway also opens the block's next doubling ahead
 * (writable, small pages, untouched), so the growth after it makes none: each change to a
 * VMA's boundary costs ~2.5 us, ~50 of them in the growing addLayer at a million layers
 * (Benchmarks/KERNELS.md, "Growth opened ahead"). The caller keeps the writable length.
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

void *BGColumnAllocate(size_t bytes, size_t *writable) {
    void *block = malloc(bytes == 0 ? 1 : bytes);
    if (block == NULL) ca_out_of_memory(bytes);
    *writable = bytes;
    return block;
}

void *BGColumnGrow(void *block, size_t oldBytes, size_t newBytes, size_t *writable) {
    (void)oldBytes;
    void *grown = realloc(block, newBytes == 0 ? 1 : newBytes);
    if (grown == NULL) ca_out_of_memory(newBytes);
    *writable = newBytes;
    return grown;
}

void *BGColumnOpenAhead(void *block, size_t bytes, size_t aheadBytes, size_t *writable) {
    (void)bytes, (void)aheadBytes, (void)writable;
    return block;
}

void BGColumnFree(void *block, size_t bytes, size_t writable) {
    (void)bytes, (void)writable;
    free(block);
}

#else

/* Blocks of this size or more are mappings: a heap block's one copy into a mapping
 * (when it passes this size) is at most this many bytes, whatever the store's size. */
enum { CA_MAPPED_MINIMUM = 256u << 10 };
/* A mapping's read-write part is its size rounded up to whole huge pages, so that each
 * one can be backed by huge pages and the rounding is the same whichever call computes
 * it. */
enum { CA_HUGE_PAGE = 2u << 20 };

static int ca_is_mapped(size_t bytes) { return bytes >= CA_MAPPED_MINIMUM; }

static size_t ca_mapped_length(size_t bytes) {
    return (bytes + (CA_HUGE_PAGE - 1)) & ~(size_t)(CA_HUGE_PAGE - 1);
}

/* The address space reserved for a mapping whose read-write part is `length`: the
 * smallest of 2 MiB, 128 MiB, 8 GiB, 512 GiB, ... (64 times apart) that holds it. A
 * block grows inside its reservation by making more of it writable (mprotect: no page
 * moves, no TLB shootdown), so a growth costs a few system calls however large the
 * column; only every sixth doubling moves the block to a larger reservation (an mremap
 * of its page tables). Reserved but inaccessible pages are neither resident nor
 * committed. A pure function of the length, so Free and Grow find the reservation the
 * last call made. */
static size_t ca_reserved_length(size_t length) {
#if UINTPTR_MAX > 0xffffffffu
    size_t reserved = CA_HUGE_PAGE;
    while (reserved < length) {
        if (reserved > (SIZE_MAX >> 6)) return length; /* past any real column */
        reserved <<= 6;
    }
    return reserved;
#else
    return length; /* a 32-bit address space has no room to spare: every growth moves */
#endif
}

/* `reserved` bytes of address space, inaccessible, starting at a huge-page boundary
 * (over-reserved by a huge page, then trimmed: mmap only promises page alignment),
 * advised small pages: an mprotect that makes part of it writable keeps that advice, so
 * a growth's new tail needs no madvise of its own (one system call fewer per column in
 * the growing addLayer: ~0.4 us each, ~50 columns at a million layers). */
static char *ca_reserve(size_t reserved) {
    size_t padded = reserved + CA_HUGE_PAGE;
    char *raw = mmap(NULL, padded, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) ca_out_of_memory(reserved);
    uintptr_t aligned = ((uintptr_t)raw + (CA_HUGE_PAGE - 1)) & ~(uintptr_t)(CA_HUGE_PAGE - 1);
    size_t head = aligned - (uintptr_t)raw;
    if (head > 0) (void)munmap(raw, head);
    if (padded - head > reserved) (void)munmap((char *)aligned + reserved, padded - head - reserved);
    (void)madvise((char *)aligned, reserved, MADV_NOHUGEPAGE); /* advice only: fine to fail */
    return (char *)aligned;
}

/* Makes [from, to) of a reservation writable: small pages (the reservation's advice,
 * which mprotect keeps) until the next growth finds it full (see the top of this file). */
static void ca_open(char *block, size_t from, size_t to, size_t bytes) {
    if (to <= from) return;
    if (mprotect(block + from, to - from, PROT_READ | PROT_WRITE) != 0) ca_out_of_memory(bytes);
}

/* The writable part a mapping of `bytes` gets when a call makes system calls anyway: its
 * length and the next doubling's, inside its reservation (Benchmarks/KERNELS.md, "Growth
 * opened ahead"). The growth after it then makes no system call at all: an mprotect
 * that opens a new range splits a VMA (~2.5 us each on the development VM, ~50 columns
 * in the growing addLayer at a million layers), and so does moving the huge-page advice's
 * boundary. The ahead part is neither resident nor touched; it is committed (charged
 * to the commit limit under vm.overcommit_memory 2, where the open falls back to the
 * length alone if the limit refuses it). */
static size_t ca_ahead_length(size_t bytes, size_t length) {
    size_t reserved = ca_reserved_length(length);
    size_t doubled = bytes > (SIZE_MAX >> 2) ? length : ca_mapped_length(2 * bytes);
    return doubled < reserved ? doubled : reserved;
}

/* Opens [from, ahead) of a reservation, or [from, needed) if the commit limit refuses the
 * ahead part: the bytes now writable from the block's start. */
static size_t ca_open_ahead(char *block, size_t from, size_t needed, size_t ahead, size_t bytes) {
    if (ahead > needed && ahead > from && mprotect(block + from, ahead - from, PROT_READ | PROT_WRITE) == 0) {
        return ahead;
    }
    ca_open(block, from, needed, bytes);
    return needed > from ? needed : from;
}

static void *ca_map(size_t bytes, size_t *writable) {
    size_t length = ca_mapped_length(bytes);
    char *block = ca_reserve(ca_reserved_length(length));
    *writable = ca_open_ahead(block, 0, length, ca_ahead_length(bytes, length), bytes);
    /* Advice only: fine to fail. Under 2 MiB, small pages (the reservation's advice), as
     * malloc's would be: a block asked for as scratch may be touched in a few places
     * only, and a huge page's first touch zeroes 2 MiB (in the frame that touches it) and
     * keeps it resident. The ahead part keeps small pages, as a grown tail. */
    if (bytes >= CA_HUGE_PAGE) (void)madvise(block, length, MADV_HUGEPAGE);
    atomic_fetch_add_explicit(&ca_mapped_column_calls, 1, memory_order_relaxed);
    return block;
}

/* Moves a mapping's written part (`oldLength`, in a reservation of `oldReserved`) into the
 * start of the reservation `moved` (from ca_reserve): mremap onto it moves the page tables
 * (nothing copied), and the old reservation's inaccessible rest is unmapped (not the moved
 * part's range, which another thread's mmap may already have taken). If the move fails, a
 * copy. */
static char *ca_move_into(char *moved, char *block, size_t oldLength, size_t oldReserved, size_t newBytes) {
    void *target = mremap(block, oldLength, oldLength, MREMAP_MAYMOVE | MREMAP_FIXED, moved);
    if (target == MAP_FAILED) {
        if (mprotect(moved, oldLength, PROT_READ | PROT_WRITE) != 0) ca_out_of_memory(newBytes);
        (void)madvise(moved, oldLength, MADV_HUGEPAGE); /* full: as the moved part would be */
        memcpy(moved, block, oldLength);
        (void)munmap(block, oldReserved);
    } else {
        if (oldReserved > oldLength) (void)munmap(block + oldLength, oldReserved - oldLength);
    }
    return moved;
}

/* A mapping that outgrew its reservation: moved into a larger one (ca_move_into). */
static char *ca_move(char *block, size_t oldLength, size_t oldReserved, size_t newLength, size_t newBytes) {
    return ca_move_into(ca_reserve(ca_reserved_length(newLength)), block, oldLength, oldReserved, newBytes);
}

/* The heap block's move into a mapping: the one copy of a column's life (at most
 * CA_MAPPED_MINIMUM bytes). Small pages: the copy and the adds after it would fault
 * huge ones in this call. */
static void *ca_map_from_heap(void *block, size_t oldBytes, size_t newBytes, size_t *writable) {
    size_t length = ca_mapped_length(newBytes);
    char *mapped = ca_reserve(ca_reserved_length(length));
    *writable = ca_open_ahead(mapped, 0, length, ca_ahead_length(newBytes, length), newBytes);
    /* The pages the copy writes, faulted in one call rather than one fault each (a
     * hint; older kernels refuse it and the copy faults them as before). */
    (void)madvise(mapped, (oldBytes + 4095) & ~(size_t)4095, CA_MADV_POPULATE_WRITE);
    memcpy(mapped, block, oldBytes);
    free(block);
    atomic_fetch_add_explicit(&ca_mapped_column_calls, 1, memory_order_relaxed);
    return mapped;
}

void *BGColumnAllocate(size_t bytes, size_t *writable) {
    if (ca_is_mapped(bytes)) return ca_map(bytes, writable);
    void *block = malloc(bytes == 0 ? 1 : bytes);
    if (block == NULL) ca_out_of_memory(bytes);
    *writable = bytes;
    return block;
}

void *BGColumnGrow(void *block, size_t oldBytes, size_t newBytes, size_t *writable) {
    if (!ca_is_mapped(newBytes)) {
        void *grown = realloc(block, newBytes == 0 ? 1 : newBytes);
        if (grown == NULL) ca_out_of_memory(newBytes);
        *writable = newBytes;
        return grown;
    }
    if (!ca_is_mapped(oldBytes)) return ca_map_from_heap(block, oldBytes, newBytes, writable);
    size_t oldLength = ca_mapped_length(oldBytes), newLength = ca_mapped_length(newBytes);
    size_t opened = *writable > oldLength ? *writable : oldLength;
    /* Inside the part already writable (opened ahead by the last call that made system
     * calls, inside the same reservation): nothing to do, no system call. The part filled
     * since that call keeps its small pages until the next growth that makes system
     * calls advises it huge (KERNELS.md, "Growth opened ahead"). */
    if (newLength <= opened) return block;
    /* The block is full: huge pages for all of it (khugepaged collapses the small-page
     * tail in the background); small ones for the new tail. */
    (void)madvise(block, oldLength, MADV_HUGEPAGE);
    char *grown = block;
    /* The reservation is a function of the writable length (which a move ahead may have
     * put in a larger reservation than its length alone would name). */
    size_t oldReserved = ca_reserved_length(opened);
    if (ca_reserved_length(newLength) > oldReserved) {
        grown = ca_move(block, oldLength, oldReserved, newLength, newBytes);
        opened = oldLength;
    }
    *writable = ca_open_ahead(grown, opened, newLength, ca_ahead_length(newBytes, newLength), newBytes);
    atomic_fetch_add_explicit(&ca_mapped_column_calls, 1, memory_order_relaxed);
    return grown;
}

/* OpenAhead's move of a block in the smallest reservation (`length` written, `opened`
 * writable) into the reservation that holds `ahead`: the ahead part is opened in the new
 * reservation before the move, so a refusal of the commit limit leaves the block where it
 * was. The writable length names the reservation (ca_reserved_length; Grow and Free find
 * it so): a block moved whose ahead part was then refused kept a writable length of the
 * old reservation, and Free unmapped 2 MiB of the larger one. */
static char *ca_move_ahead(char *block, size_t length, size_t opened, size_t ahead, size_t *writable) {
    size_t reserved = ca_reserved_length(ahead);
    char *target = ca_reserve(reserved);
    if (mprotect(target + length, ahead - length, PROT_READ | PROT_WRITE) != 0) {
        (void)munmap(target, reserved);
        *writable = opened;
        return block;
    }
    char *moved = ca_move_into(target, block, length, CA_HUGE_PAGE, ahead);
    *writable = ahead;
    atomic_fetch_add_explicit(&ca_mapped_column_calls, 1, memory_order_relaxed);
    return moved;
}

void *BGColumnOpenAhead(void *block, size_t bytes, size_t aheadBytes, size_t *writable) {
    if (!ca_is_mapped(bytes) || aheadBytes <= bytes) return block;
    size_t length = ca_mapped_length(bytes);
    size_t opened = *writable > length ? *writable : length;
    size_t reserved = ca_reserved_length(opened), ahead = ca_mapped_length(aheadBytes);
    if (ahead > reserved && reserved == CA_HUGE_PAGE) {
        /* A block in the smallest reservation (2 MiB, one mapping with one advice: mremap
         * moves it whole) moves now, not in the growing addLayer. A larger block may be
         * two mappings (huge and small pages), which mremap refuses: its move is left
         * to the growth. */
        return ca_move_ahead(block, length, opened, ahead, writable);
    }
    if (ahead > reserved) ahead = reserved;
    *writable = opened;
    /* A hint: under the commit limit of vm.overcommit_memory 2 it may be refused. */
    if (ahead > opened && mprotect((char *)block + opened, ahead - opened, PROT_READ | PROT_WRITE) == 0) {
        *writable = ahead;
    }
    return block;
}

void BGColumnFree(void *block, size_t bytes, size_t writable) {
    if (block == NULL) return;
    if (ca_is_mapped(bytes)) {
        size_t length = ca_mapped_length(bytes);
        (void)munmap(block, ca_reserved_length(writable > length ? writable : length));
    } else {
        free(block);
    }
}

#endif
