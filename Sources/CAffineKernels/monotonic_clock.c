// A monotonic clock for the library's optional phase timings (VisibleLayers
// .measuresPhaseTimes). In C because the Swift standard library's clocks live in
// the concurrency runtime, which the C library does not ship, and need newer
// Apple systems than the package supports.
#define _POSIX_C_SOURCE 199309L
#include "CAffineKernels.h"

#if defined(_WIN32)
#include <windows.h>

uint64_t BGMonotonicNanoseconds(void) {
    LARGE_INTEGER frequency, counter;
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&counter);
    return (uint64_t)((double)counter.QuadPart * (1e9 / (double)frequency.QuadPart));
}
#else
#include <time.h>

uint64_t BGMonotonicNanoseconds(void) {
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return 0;
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}
#endif
