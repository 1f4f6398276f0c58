/*
 * dispatch.c — the one dispatch scheme of the module: an implementation table
 * per instruction set (simdjson's implementation table, Skia's SkOpts), one
 * chosen per process, and every public kernel entry point calling through it.
 *
 * Why this shape: the module may not be built with CPU-specific flags, so
 * the SIMD code lives in functions with target attributes and is only
 * called after a run-time CPU check. The choice is a pointer to a constant
 * table, published with an atomic compare-and-swap; the hot path is one
 * acquire load per kernel call. Racing first calls compute the same default
 * and the first CAS wins, so no lock is needed; BGKernelSetBackend simply
 * stores over it.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* The planar world kernels, the same portable C loops in every table. World
 * propagation is a dependent gather: each layer needs its superlayer's finished
 * world, loaded from wherever that superlayer sits, so neighbouring layers are
 * not independent lanes, and within one layer the product is six two-term sums,
 * too narrow to pay for shuffles. They still go through the table, so that every
 * kernel family is chosen the same way, once, and an instruction set that had a
 * faster loop would only fill its own struct. */
static const struct ca_world_kernels ca_world_kernels_portable = {
    ca_world_checked,
    ca_world_chain_checked,
    ca_world_kinds_checked,
    ca_world_scattered_parents_checked,
    ca_world_list_checked,
    ca_world_translation_list_checked,
};

static int ca_always_available(void) { return 1; }

static const BGKernelTable ca_backend_portable = {"portable", ca_always_available, ca_frames_portable,
                                                  ca_concat_portable, ca_general_portable,
                                                  &ca_world_kernels_portable, ca_timing_newton8_portable,
                                                  ca_lane_times_portable, ca_transform_lanes_portable,
                                                  ca_spring_progress_portable, ca_slerp_lanes_portable};

#if CA_ARCH_X86
/* CPU features, probed once. __builtin_cpu_supports also checks that the OS
 * saves the YMM/ZMM registers (XGETBV), not just the CPUID bits. */
enum { CA_FEAT_PROBED = 1, CA_FEAT_AVX2 = 2, CA_FEAT_AVX512F = 4 };
static int ca_x86_features_cache; /* 0 = not probed yet; accessed atomically */

static int ca_x86_features(void) {
    int f = __atomic_load_n(&ca_x86_features_cache, __ATOMIC_RELAXED);
    if (__builtin_expect(f != 0, 1)) return f;
    __builtin_cpu_init(); /* safe to call early, e.g. from a constructor */
    f = CA_FEAT_PROBED;
    if (__builtin_cpu_supports("avx2")) f |= CA_FEAT_AVX2;
    if (__builtin_cpu_supports("avx512f")) f |= CA_FEAT_AVX512F;
    __atomic_store_n(&ca_x86_features_cache, f, __ATOMIC_RELAXED); /* idempotent */
    return f;
}

static int ca_cpu_has_avx2(void) { return (ca_x86_features() & CA_FEAT_AVX2) != 0; }
static int ca_cpu_has_avx512(void) { return (ca_x86_features() & CA_FEAT_AVX512F) != 0; }

static const BGKernelTable ca_backend_avx2 = {"avx2", ca_cpu_has_avx2, ca_frames_avx2, ca_concat_avx2,
                                              ca_general_avx2, &ca_world_kernels_portable,
                                              ca_timing_newton8_avx2, ca_lane_times_avx2,
                                              ca_transform_lanes_avx2, ca_spring_progress_avx2,
                                              ca_slerp_lanes_avx2};
/* AVX-512 runs the AVX2 lane timing loop and transform write (every AVX-512F CPU has
 * AVX2): the timing loop's compares and selects on four members a vector already leave
 * it bound by the loads, and the write's four-member blocks are its columns' layout. */
static const BGKernelTable ca_backend_avx512 = {"avx512", ca_cpu_has_avx512, ca_frames_avx512, ca_concat_avx512,
                                                ca_general_avx512, &ca_world_kernels_portable,
                                                ca_timing_newton8_avx512, ca_lane_times_avx2,
                                                ca_transform_lanes_avx2, ca_spring_progress_avx512,
                                                ca_slerp_lanes_avx2};
#endif

#if CA_ARCH_ARM64
/* NEON has no 4x4 kernel or timing kernels of its own: it runs the portable ones (the
 * portable Newton steps and transform write are already vectors, two lanes a NEON
 * register, through the compiler's vector extension). */
static const BGKernelTable ca_backend_neon = {"neon", ca_always_available, ca_frames_neon, ca_concat_neon,
                                              ca_general_portable, &ca_world_kernels_portable,
                                              ca_timing_newton8_portable, ca_lane_times_portable,
                                              ca_transform_lanes_portable, ca_spring_progress_portable,
                                              ca_slerp_lanes_portable};
#endif

/* Every backend compiled into this build, best first. */
static const BGKernelTable *const ca_backends[] = {
#if CA_ARCH_X86
    &ca_backend_avx512,
    &ca_backend_avx2,
#endif
#if CA_ARCH_ARM64
    &ca_backend_neon,
#endif
    &ca_backend_portable,
};
#define CA_BACKEND_COUNT (sizeof(ca_backends) / sizeof(ca_backends[0]))

static const BGKernelTable *ca_best_available(void) {
    for (size_t i = 0; i < CA_BACKEND_COUNT; i++)
        if (ca_backends[i]->available()) return ca_backends[i];
    return &ca_backend_portable; /* unreachable: portable is always available */
}

/* ASCII case-insensitive equality (no locale: this may run very early). */
static int ca_name_equals(const char *s, const char *name) {
    for (;; s++, name++) {
        char c = *s;
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != *name) return 0;
        if (c == '\0') return 1;
    }
}

/* The named backend if it exists in this build and runs on this CPU. */
static const BGKernelTable *ca_find_available(const char *name) {
    for (size_t i = 0; i < CA_BACKEND_COUNT; i++)
        if (ca_name_equals(name, ca_backends[i]->name))
            return ca_backends[i]->available() ? ca_backends[i] : NULL;
    return NULL;
}

/* Default choice: BATCHGEOMETRY_C_KERNEL if it names an available backend,
 * else the best one this CPU supports. A value that names none is an error,
 * but C has no way to stop here or to say so (the module prints nothing):
 * BGKernelEnvironmentProblem returns the message, and the callers check it
 * before their first kernel call (Swift: KernelOptions.default, batchbench,
 * the C interface). */
static const BGKernelTable *ca_default_backend(void) {
    const char *forced = getenv("BATCHGEOMETRY_C_KERNEL");
    if (forced && *forced) {
        const BGKernelTable *b = ca_find_available(forced);
        if (b) return b;
    }
    return ca_best_available();
}

static const BGKernelTable *ca_selected; /* NULL until chosen; accessed atomically */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static const BGKernelTable *ca_select_slow(void) {
    const BGKernelTable *want = ca_default_backend();
    const BGKernelTable *expected = NULL;
    if (__atomic_compare_exchange_n(&ca_selected, &expected, want, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return want;
    return expected; /* another thread (or BGKernelSetBackend) got there first */
}

static CA_ALWAYS_INLINE const BGKernelTable *ca_current(void) {
    const BGKernelTable *b = __atomic_load_n(&ca_selected, __ATOMIC_ACQUIRE);
    if (__builtin_expect(b != NULL, 1)) return b;
    return ca_select_slow();
}

void BGFramesCompute(const BGFrameColumns *columns, size_t start, size_t end) {
    ca_current()->frames(columns, start, end);
}

void BGAffineConcat(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out) {
    ca_current()->concat(n, A, B, out);
}

void BGWorldGeneralPropagate(const BGGeneralWorld *k, const ptrdiff_t *positions, size_t count) {
    if (count > 0) ca_current()->general(k, positions, count);
}

int BGWorldAffinePropagateChecked(const BGAffineColumns *local, const int32_t *parent, const int32_t *order,
                                  BGAffineColumns *world, size_t start, size_t end) {
    return ca_current()->world->checked(local, parent, order, world, start, end);
}

int BGWorldAffinePropagateChainChecked(const BGAffineColumns *local, const int32_t *parent, const int32_t *order,
                                       BGAffineColumns *world, size_t start, size_t end) {
    return ca_current()->world->chain_checked(local, parent, order, world, start, end);
}

int BGWorldAffinePropagateKindsChecked(const BGAffineColumns *local, const int32_t *parent,
                                       const uint8_t *blockKind, BGAffineColumns *world, size_t start, size_t end) {
    return ca_current()->world->kinds_checked(local, parent, blockKind, world, start, end);
}

int BGWorldAffinePropagateScatteredParentsChecked(const BGAffineColumns *local, const int32_t *parent,
                                                  BGAffineColumns *world, size_t start, size_t end) {
    return ca_current()->world->scattered_parents_checked(local, parent, world, start, end);
}

int BGWorldAffinePropagateListChecked(const BGAffineColumns *local, const int32_t *parent, const int32_t *layers,
                                      BGAffineColumns *world, size_t count) {
    return ca_current()->world->list_checked(local, parent, layers, world, count);
}

int BGWorldTranslationListChecked(const BGAffineColumns *local, const int32_t *parent, const int32_t *layers,
                                  BGAffineColumns *world, size_t count) {
    return ca_current()->world->translation_list_checked(local, parent, layers, world, count);
}

unsigned BGTimingNewton8(const double *coefficients, const int32_t *functions, double *values) {
    return ca_current()->timing_newton8(coefficients, functions, values);
}

int BGLaneTimes(const BGLaneTimings *timings, size_t count, double time, int divide, double *progress,
                double *iterations) {
    return count > 0 ? ca_current()->lane_times(timings, count, time, divide, progress, iterations) : 0;
}

void BGTransformLanesWrite(const BGTransformLanes *lanes, size_t count) {
    if (count > 0) ca_current()->transform_lanes(lanes, count);
}

void BGSpringProgress(const double *table, const int32_t *springs, double *values, size_t count) {
    if (count > 0) ca_current()->spring_progress(table, springs, values, count);
}

void BGSlerpLanes(const double *slerp, const double *progress, double *rotation, size_t count) {
    if (count > 0) ca_current()->slerp_lanes(slerp, progress, rotation, count);
}

const char *BGKernelBackendName(void) {
    return ca_current()->name;
}

/* Not thread-safe to call while another thread changes the environment; it reads
 * BATCHGEOMETRY_C_KERNEL and formats into a static buffer. */
const char *BGKernelEnvironmentProblem(void) {
    static char message[256];
    const char *forced = getenv("BATCHGEOMETRY_C_KERNEL");
    if (forced == NULL || *forced == 0 || ca_name_equals(forced, "auto")) return NULL;
    for (size_t i = 0; i < CA_BACKEND_COUNT; i++) {
        if (!ca_name_equals(forced, ca_backends[i]->name)) continue;
        if (ca_backends[i]->available()) return NULL;
        snprintf(message, sizeof message,
                 "BATCHGEOMETRY_C_KERNEL=%.32s: this CPU cannot run it (best available: %s)", forced,
                 ca_best_available()->name);
        return message;
    }
    char names[96] = "";
    for (size_t i = 0; i < CA_BACKEND_COUNT; i++) {
        strncat(names, i == 0 ? "" : (i + 1 == CA_BACKEND_COUNT ? " or " : ", "), sizeof names - strlen(names) - 1);
        strncat(names, ca_backends[i]->name, sizeof names - strlen(names) - 1);
    }
    snprintf(message, sizeof message, "BATCHGEOMETRY_C_KERNEL=%.32s is not a C kernel (expected %s, or auto)",
             forced, names);
    return message;
}

const BGKernelTable *BGKernelTableNamed(const char *name) {
    return name ? ca_find_available(name) : NULL;
}

int BGKernelSetBackend(const char *name) {
    const BGKernelTable *b;
    if (name == NULL || ca_name_equals(name, "auto")) {
        b = ca_default_backend();
    } else {
        b = ca_find_available(name);
        if (b == NULL) return 0;
    }
    __atomic_store_n(&ca_selected, b, __ATOMIC_RELEASE);
    return 1;
}
