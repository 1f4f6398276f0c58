/*
 * column_memory_tests.h — the column-memory tests (column_memory_tests.c), reported
 * through test_kernels.c's counts.
 */
#ifndef COLUMN_MEMORY_TESTS_H
#define COLUMN_MEMORY_TESTS_H

/// Reports one check: `ok` non-zero when it passed, `what` names it.
typedef void (*column_memory_report)(int ok, const char *what);

/// Runs the checks of Sources/CAffineKernels/column_memory.c's mappings: no address space
/// left behind by Free, and the fallbacks when the commit limit refuses the part opened
/// ahead (provoked with RLIMIT_DATA, which Linux applies to mprotect's new writable
/// pages). Returns how many checks it skipped (a heap build, a kernel that does not
/// enforce the limit, not Linux), with `*why` saying why.
long test_column_memory(column_memory_report report, const char **why);

#endif
