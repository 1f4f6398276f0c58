/*
 * allocations.h: counts the process's heap allocations, for test_c_api.c's check that a
 * frame loop through the C interface allocates nothing once warmed up (included once, by
 * test_c_api.c). Like Tests/AllocationCounter (the Swift tests' counter), it interposes
 * malloc and friends by defining them in the test program, which the shared library and
 * the Swift runtime then call, and forwards to glibc's own allocator. That works on Linux
 * with glibc and no sanitizer (a sanitizer's runtime owns malloc); elsewhere nothing is
 * counted and the test says it was skipped.
 */
#ifndef BATCHGEOMETRY_ALLOCATIONS_H
#define BATCHGEOMETRY_ALLOCATIONS_H

#include <stddef.h>
#include <stdlib.h> /* defines __GLIBC__ on glibc */

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BG_TEST_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define BG_TEST_SANITIZER 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(BG_TEST_SANITIZER)
#define BG_TEST_COUNTS_ALLOCATIONS 1

#include <errno.h>

/* glibc's allocator under its own names. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static long long allocation_count;

static void counted(void) { __atomic_fetch_add(&allocation_count, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    counted();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size);
void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size);
void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    counted();
    /* glibc's checks: a power of two, and a multiple of sizeof(void *). */
    if (alignment == 0 || alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

/* The allocations counted so far, on every thread. */
static long long allocations(void) { return __atomic_load_n(&allocation_count, __ATOMIC_RELAXED); }

#else
#define BG_TEST_COUNTS_ALLOCATIONS 0
static long long allocations(void) { return 0; }
#endif

#endif
