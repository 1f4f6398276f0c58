/*
 * dispatch.c — picks the backend once per process and routes the generic
 * entry points (CAFramesCompute, CAAffineConcat) to it.
 *
 * Why this shape: the module may not be built with CPU-specific flags, so
 * the SIMD code lives in functions with target attributes and is only
 * called after a run-time CPU check (like simdjson or Skia's SkOpts).
 * The choice is a pointer to a constant backend descriptor, published with
 * an atomic compare-and-swap; the hot path is one acquire load. Racing
 * first calls compute the same default and the first CAS wins, so no lock
 * is needed; CAKernelSetBackend simply stores over it.
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include <stdio.h>
#include <string.h>
#include "internal.h"

#include <stdlib.h>

/* One implementation table per instruction set (simdjson's scheme): every kernel
 * family that has ISA-specific code goes through it, chosen once per process. */
typedef struct ca_backend {
    const char *name;
    ca_frames_fn frames;
    ca_concat_fn concat;
    ca_general_fn general; /* the 4x4 world kernel; NEON runs the portable loop */
    int (*available)(void);
} ca_backend;

static int ca_always_available(void) { return 1; }

static const ca_backend ca_backend_portable = {"portable", ca_frames_portable, ca_concat_portable,
                                               ca_general_portable, ca_always_available};

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

int ca_cpu_has_avx2(void) { return (ca_x86_features() & CA_FEAT_AVX2) != 0; }
int ca_cpu_has_avx512(void) { return (ca_x86_features() & CA_FEAT_AVX512F) != 0; }

static const ca_backend ca_backend_avx2 = {"avx2", ca_frames_avx2, ca_concat_avx2, ca_general_avx2, ca_cpu_has_avx2};
static const ca_backend ca_backend_avx512 = {"avx512", ca_frames_avx512, ca_concat_avx512, ca_general_avx512,
                                             ca_cpu_has_avx512};
#endif

#if CA_ARCH_ARM64
static const ca_backend ca_backend_neon = {"neon", ca_frames_neon, ca_concat_neon, ca_general_portable,
                                           ca_always_available};
#endif

/* Every backend compiled into this build, best first. */
static const ca_backend *const ca_backends[] = {
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

static const ca_backend *ca_best_available(void) {
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
static const ca_backend *ca_find_available(const char *name) {
    for (size_t i = 0; i < CA_BACKEND_COUNT; i++)
        if (ca_name_equals(name, ca_backends[i]->name))
            return ca_backends[i]->available() ? ca_backends[i] : NULL;
    return NULL;
}

/* Default choice: BATCHGEOMETRY_C_KERNEL if it names an available backend,
 * else the best one this CPU supports. */
static const ca_backend *ca_default_backend(void) {
    const char *forced = getenv("BATCHGEOMETRY_C_KERNEL");
    if (forced && *forced) {
        const ca_backend *b = ca_find_available(forced);
        if (b) return b;
    }
    return ca_best_available();
}

static const ca_backend *ca_selected; /* NULL until chosen; accessed atomically */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static const ca_backend *ca_select_slow(void) {
    const ca_backend *want = ca_default_backend();
    const ca_backend *expected = NULL;
    if (__atomic_compare_exchange_n(&ca_selected, &expected, want, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return want;
    return expected; /* another thread (or CAKernelSetBackend) got there first */
}

static CA_ALWAYS_INLINE const ca_backend *ca_current(void) {
    const ca_backend *b = __atomic_load_n(&ca_selected, __ATOMIC_ACQUIRE);
    if (__builtin_expect(b != NULL, 1)) return b;
    return ca_select_slow();
}

void CAFramesCompute(const CAFrameColumns *columns, size_t start, size_t end) {
    ca_current()->frames(columns, start, end);
}

void CAAffineConcat(size_t n, const CAAffineColumns *A, const CAAffineColumns *B, CAAffineColumns *out) {
    ca_current()->concat(n, A, B, out);
}

void CAWorldGeneralPropagate(const CAGeneralWorld *k, const ptrdiff_t *positions, size_t count) {
    if (count > 0) ca_current()->general(k, positions, count);
}

const char *CAKernelBackendName(void) {
    return ca_current()->name;
}

/* Not thread-safe to call while another thread changes the environment; it reads
 * BATCHGEOMETRY_C_KERNEL and formats into a static buffer. */
const char *CAKernelEnvironmentProblem(void) {
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

int CAKernelSetBackend(const char *name) {
    const ca_backend *b;
    if (name == NULL || ca_name_equals(name, "auto")) {
        b = ca_default_backend();
    } else {
        b = ca_find_available(name);
        if (b == NULL) return 0;
    }
    __atomic_store_n(&ca_selected, b, __ATOMIC_RELEASE);
    return 1;
}
