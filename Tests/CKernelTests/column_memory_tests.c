/*
 * column_memory_tests.c — Sources/CAffineKernels/column_memory.c's mappings, from the
 * outside: each block's reservation is gone after BGColumnFree (read from
 * /proc/self/maps), and a refusal of the part opened ahead (the commit limit of
 * vm.overcommit_memory 2, provoked here with RLIMIT_DATA: Linux charges the pages an
 * mprotect makes writable in a private mapping to it) leaves a block whose writable
 * length still names its reservation, so that Free unmaps all of it.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "column_memory_tests.h"
#include "CAffineKernels.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if !defined(__linux__)

long test_column_memory(column_memory_report report, const char **why) {
    (void)report;
    *why = "column memory: not Linux (heap blocks)";
    return 1;
}

#else

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

enum { MIB = 1 << 20 };
static char g_maps[1 << 20];

/* The bytes of this process's mappings but the heap's (which malloc may grow or keep):
 * /proc/self/maps read with read(2) into a static buffer, no allocation. A freed block
 * whose reservation is unmapped leaves it as it was before the block's allocation. */
static size_t mapped_bytes(void) {
    int fd = open("/proc/self/maps", O_RDONLY);
    if (fd < 0) return 0;
    size_t used = 0;
    ssize_t got;
    while (used + 1 < sizeof g_maps && (got = read(fd, g_maps + used, sizeof g_maps - 1 - used)) > 0) used += (size_t)got;
    close(fd);
    g_maps[used] = 0;
    size_t total = 0;
    for (char *line = g_maps; *line;) {
        char *end = strchr(line, '\n');
        if (end) *end = 0;
        unsigned long low = 0, high = 0;
        if (sscanf(line, "%lx-%lx", &low, &high) == 2 && !strstr(line, "[heap]")) total += high - low;
        if (!end) break;
        line = end + 1;
    }
    return total;
}

/* The process's private writable bytes (VmData), which RLIMIT_DATA bounds. */
static size_t data_bytes(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return 0;
    char line[256];
    size_t kib = 0;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "VmData: %zu kB", &kib) == 1) break;
    fclose(status);
    return kib << 10;
}

/* Sets RLIMIT_DATA's soft limit to `room` bytes past the process's data now (0: back to
 * `saved`). */
static int limit_data(size_t room, const struct rlimit *saved) {
    struct rlimit limit = *saved;
    if (room) limit.rlim_cur = data_bytes() + room;
    return setrlimit(RLIMIT_DATA, &limit);
}

/* Whether this kernel refuses an mprotect past RLIMIT_DATA (it may ignore the limit:
 * ignore_rlimit_data). */
static int limit_is_enforced(const struct rlimit *saved) {
    char *probe = mmap(NULL, 8 * (size_t)MIB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (probe == MAP_FAILED) return 0;
    int refused = 0;
    if (limit_data(MIB, saved) == 0) {
        refused = mprotect(probe, 4 * (size_t)MIB, PROT_READ | PROT_WRITE) != 0;
        limit_data(0, saved);
    }
    munmap(probe, 8 * (size_t)MIB);
    return refused;
}

/* Writes every byte of `block`'s `bytes` and frees it; reports whether the process's
 * mappings are back to `before` (their bytes before the block was allocated). */
static void fill_and_free(
    column_memory_report report, char *block, size_t bytes, size_t writable, size_t before, const char *what) {
    memset(block, 0x5a, bytes);
    BGColumnFree(block, bytes, writable);
    report(mapped_bytes() == before, what);
}

/* Allocate, grow inside the part opened ahead, grow past the reservation (a move),
 * open ahead across the smallest reservation (a move): nothing is left after Free. */
static void test_lifecycle(column_memory_report report) {
    size_t writable = 0, before = mapped_bytes();
    char *block = BGColumnAllocate(MIB, &writable);
    report(writable >= MIB, "column-allocate-writable");
    block = BGColumnGrow(block, MIB, 3 * (size_t)MIB, &writable);
    report(writable >= 3 * (size_t)MIB, "column-grow-move-writable");
    block = BGColumnGrow(block, 3 * (size_t)MIB, 5 * (size_t)MIB, &writable);
    fill_and_free(report, block, 5 * (size_t)MIB, writable, before, "column-free-after-growth");
    block = BGColumnAllocate(MIB, &writable);
    block = BGColumnOpenAhead(block, MIB, 8 * (size_t)MIB, &writable);
    report(writable >= 8 * (size_t)MIB, "column-open-ahead-move-writable");
    block = BGColumnGrow(block, MIB, 8 * (size_t)MIB, &writable);
    fill_and_free(report, block, 8 * (size_t)MIB, writable, before, "column-free-after-open-ahead");
}

/* The commit limit refuses the part opened ahead: an open ahead that would move the block
 * leaves it where it was; an allocation and a growth open their length alone; each
 * block is whole and its reservation gone after Free. */
static void test_refusals(column_memory_report report, const struct rlimit *saved) {
    size_t writable = 0, before = mapped_bytes();
    char *block = BGColumnAllocate(MIB, &writable);
    size_t opened = writable;
    limit_data(MIB, saved);
    char *same = BGColumnOpenAhead(block, MIB, 8 * (size_t)MIB, &writable);
    limit_data(0, saved);
    report(same == block && writable == opened, "column-open-ahead-refused-keeps-block");
    fill_and_free(report, same, MIB, writable, before, "column-free-after-refused-open-ahead");

    limit_data(5 * (size_t)MIB, saved);
    block = BGColumnAllocate(3 * (size_t)MIB, &writable);
    limit_data(0, saved);
    report(writable >= 3 * (size_t)MIB && writable < 6 * (size_t)MIB, "column-allocate-refused-ahead-length");
    block = BGColumnGrow(block, 3 * (size_t)MIB, 5 * (size_t)MIB, &writable);
    report(writable >= 5 * (size_t)MIB, "column-grow-after-refused-ahead");
    limit_data(5 * (size_t)MIB, saved); /* the 4 MiB to 14 MiB, not the 16 MiB to 26 MiB */
    block = BGColumnGrow(block, 5 * (size_t)MIB, 13 * (size_t)MIB, &writable);
    limit_data(0, saved);
    report(writable >= 13 * (size_t)MIB && writable < 26 * (size_t)MIB, "column-grow-refused-ahead-length");
    fill_and_free(report, block, 13 * (size_t)MIB, writable, before, "column-free-after-refused-growth");
}

long test_column_memory(column_memory_report report, const char **why) {
    uint64_t calls = BGColumnMappingCount();
    size_t writable = 0;
    void *probe = BGColumnAllocate(MIB, &writable);
    int mapped = BGColumnMappingCount() != calls;
    BGColumnFree(probe, MIB, writable);
    if (!mapped) {
        *why = "column memory: heap blocks in this build (sanitizers)";
        return 1;
    }
    test_lifecycle(report);
    struct rlimit saved;
    if (getrlimit(RLIMIT_DATA, &saved) != 0 || !limit_is_enforced(&saved)) {
        *why = "column memory refusals: this kernel does not apply RLIMIT_DATA to mprotect";
        return 1;
    }
    test_refusals(report, &saved);
    return 0;
}

#endif
