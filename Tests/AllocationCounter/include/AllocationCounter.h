// A process-wide count of heap allocations, for the frame-loop allocation tests only
// (BatchGeometryTests depends on this target; the library does not).
//
// On Linux with glibc, and only when no sanitizer is built in, this target defines
// malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, valloc and pvalloc:
// the test executable's definitions interpose glibc's for the whole process (the Swift
// runtime, Foundation, Dispatch and XCTest included), add one to an atomic counter and
// call glibc's own allocator (`__libc_malloc` and friends, so there is no dlsym
// bootstrap to recurse through). `free` is left to glibc, which owns every block.
// Calls from every thread count. Elsewhere (a sanitizer replaces malloc, or another
// platform or C library) nothing is interposed and `BGAllocationCounterIsActive()` is 0.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when allocations are being counted in this build, else 0.
int BGAllocationCounterIsActive(void);

/// Why allocations are not counted (a sanitizer, or an unsupported platform), or NULL
/// when they are.
const char *BGAllocationCounterInactiveReason(void);

/// The number of allocation calls (every thread) since the process started: the
/// interposed malloc family's calls plus the store's column blocks that CAffineKernels
/// mapped or remapped (`BGColumnMappingCount`: mmap and mremap bypass malloc). Relaxed
/// atomic read: take it on the thread that did the work, after joining any others.
long long BGAllocationCount(void);

/// While on, each counted allocation also writes its call stack to standard error
/// (glibc's `backtrace_symbols_fd`, which allocates nothing): a diagnostic for finding
/// which call allocated. Off by default. Does nothing while inactive.
void BGAllocationTraceSetEnabled(int enabled);

#ifdef __cplusplus
}
#endif

#endif
