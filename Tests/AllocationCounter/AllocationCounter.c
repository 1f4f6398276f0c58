// See include/AllocationCounter.h.
#include "AllocationCounter.h"

#include "CAffineKernels.h"

#include <stddef.h>
#include <stdlib.h>  // defines __GLIBC__ on glibc

// A sanitizer runtime replaces malloc itself: defining it here too would take its
// place (and break the sanitizer), so nothing is interposed in such a build.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BG_SANITIZER_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer) \
    || __has_feature(hwaddress_sanitizer)
#define BG_SANITIZER_BUILD 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(BG_SANITIZER_BUILD)
#define BG_INTERPOSE 1
#endif

#if BG_INTERPOSE

#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

// glibc's own allocator, exported under these names (GLIBC_2.2.5 on x86_64).
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static _Atomic long long allocationCount;
static _Atomic int traceEnabled;
// Set while this thread is inside the tracer (backtrace may allocate on first use).
static __thread int tracing;

static void counted(void) {
    atomic_fetch_add_explicit(&allocationCount, 1, memory_order_relaxed);
    if (atomic_load_explicit(&traceEnabled, memory_order_relaxed) && !tracing) {
        tracing = 1;
        void *frames[64];
        int depth = backtrace(frames, 64);
        static const char header[] = "--- allocation\n";
        (void)!write(2, header, sizeof header - 1);
        backtrace_symbols_fd(frames, depth, 2);
        tracing = 0;
    }
}

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

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    counted();
    // glibc's checks: a power of two, and a multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

void *valloc(size_t size) {
    counted();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    counted();
    return __libc_pvalloc(size);
}

int BGAllocationCounterIsActive(void) { return 1; }

const char *BGAllocationCounterInactiveReason(void) { return NULL; }

// Plus the column blocks mapped or remapped past malloc (CAffineKernels' column_memory.c):
// each mmap or mremap of a column counts as one allocation, as its realloc would.
long long BGAllocationCount(void) {
    return atomic_load_explicit(&allocationCount, memory_order_relaxed) + (long long)BGColumnMappingCount();
}

void BGAllocationTraceSetEnabled(int enabled) {
    if (enabled) {
        // The first backtrace loads the unwinder (which allocates): do it now.
        void *frames[2];
        tracing = 1;
        (void)backtrace(frames, 2);
        tracing = 0;
    }
    atomic_store_explicit(&traceEnabled, enabled, memory_order_relaxed);
}

#else

int BGAllocationCounterIsActive(void) { return 0; }

const char *BGAllocationCounterInactiveReason(void) {
#if defined(BG_SANITIZER_BUILD)
    return "built with a sanitizer, whose runtime replaces malloc (the counter would take its place)";
#else
    return "allocations are counted only on Linux with glibc (malloc interposition by symbol)";
#endif
}

long long BGAllocationCount(void) { return 0; }

void BGAllocationTraceSetEnabled(int enabled) { (void)enabled; }

#endif
