/*
 * test_kernels.c — differential tests of CAffineKernels: every implementation
 * table that runs on this machine (plus the dispatching entry points and an
 * emulated 8-lane instantiation of the SIMD template) against a
 * straightforward reference written here from the spec, compared bit for bit.
 *
 * The SwiftPM executable c-kernel-tests; run.sh builds it in each
 * configuration and runs it. Modes:
 *   test_kernels [--seed N]   differential tests (default; the timing solve
 *                             BGTimingNewton8 against a reference too)
 *   test_kernels --env-check  first use in the process must honour
 *                             BATCHGEOMETRY_C_KERNEL (or fall back correctly)
 *   test_kernels --threads    first use from many threads at once
 * Each mode ends with a line "N passed, M failed" and exits non-zero on any
 * failure.
 *
 * Comparison: the bits must be equal, except that two NaNs compare equal
 * whatever their payload/sign (IEEE 754 does not define which NaN a
 * two-NaN operation returns, and the compiler may commute a*b). Such cases
 * are counted and reported separately ("NaN-payload differences").
 */
#define _POSIX_C_SOURCE 200809L /* pthread barriers under -std=c11 */

#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "CAffineKernels.h"
#include "../../Sources/CAffineKernels/testing/CAffineKernelsTesting.h"
#include "column_memory_tests.h"
#include "emu8.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- counts */

static long g_passed, g_failed, g_skipped, g_nan_payload_diffs;

static void check(int ok, const char *what, const char *backend, size_t n, size_t start, const char *detail) {
    if (ok) {
        g_passed++;
    } else {
        g_failed++;
        if (g_failed <= 40)
            fprintf(stderr, "FAIL %s [%s] n=%zu start=%zu %s\n", what, backend, n, start, detail ? detail : "");
    }
}

static uint64_t bits_of(double x) { uint64_t u; memcpy(&u, &x, sizeof u); return u; }
static double from_bits(uint64_t u) { double x; memcpy(&x, &u, sizeof x); return x; }

/* Bit-equal, or both NaN (then counted as a payload difference if the bits differ). */
static int same_value(double got, double want) {
    if (bits_of(got) == bits_of(want)) return 1;
    if (isnan(got) && isnan(want)) { g_nan_payload_diffs++; return 1; }
    return 0;
}

/* ------------------------------------------------------------------- rng */

static uint64_t g_rng = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd64(void) { /* splitmix64 */
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static double rnd01(void) { return (double)(rnd64() >> 11) * (1.0 / 9007199254740992.0); }
static double rnd_range(double lo, double hi) { return lo + (hi - lo) * rnd01(); }

static const double k_specials[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 1e300, -1e300, 1e-310, -1e-310, 4.9406564584124654e-324,
    DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX, 1e154, 3.0, 1e-300,
};

static double special_value(void) {
    switch (rnd64() % 8) {
    case 0: return NAN;
    case 1: return -NAN;
    case 2: return from_bits(0x7FF8000000000000ULL | (rnd64() & 0x0007FFFFFFFFFFFFULL)); /* quiet NaN, payload */
    case 3: return (rnd64() & 1) ? INFINITY : -INFINITY;
    case 4: return from_bits(rnd64()); /* any bit pattern: every class */
    default: return k_specials[rnd64() % (sizeof k_specials / sizeof k_specials[0])];
    }
}

/* A value for an input column; `special_rate` is the chance of an edge value.
 * kind: 0 size, 1 anchor, 2 linear coefficient, 3 translation/position. */
static double gen_value(int kind, double special_rate) {
    if (rnd01() < special_rate) return special_value();
    switch (kind) {
    case 0: return (rnd64() % 8 == 0) ? 0.0 : rnd_range(0.0, 2000.0);
    case 1: return rnd_range(-1.5, 2.5); /* anchors outside 0..1 too */
    case 2: {
        double m = rnd_range(-3.0, 3.0);
        return (rnd64() % 6 == 0) ? ldexp(m, (int)(rnd64() % 120) - 60) : m;
    }
    default: return rnd_range(-1e5, 1e5);
    }
}

/* --------------------------------------------------------------- frames */

enum { F_W, F_H, F_AX, F_AY, F_A, F_B, F_C, F_D, F_TX, F_TY, F_PX, F_PY, F_NIN };
enum { F_FX, F_FY, F_FW, F_FH, F_NOUT };
static const int k_frame_kind[F_NIN] = {0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};

static double ref_min(double p, double q) { return (q < p) ? q : p; }
static double ref_max(double p, double q) { return (q > p) ? q : p; }

/* The spec, verbatim. */
static void ref_frame(const double in[F_NIN], double out[F_NOUT]) {
    const double w = in[F_W], h = in[F_H], ax = in[F_AX], ay = in[F_AY];
    const double a = in[F_A], b = in[F_B], c = in[F_C], d = in[F_D], tx = in[F_TX], ty = in[F_TY];
    const double rx = (-w) * ax, ry = (-h) * ay;
    const double x[4] = {rx, rx, rx + w, rx + w};
    const double y[4] = {ry, ry + h, ry, ry + h};
    double X[4], Y[4];
    for (int k = 0; k < 4; k++) {
        X[k] = ((a * x[k]) + (c * y[k])) + tx;
        Y[k] = ((b * x[k]) + (d * y[k])) + ty;
    }
    const double minX = ref_min(ref_min(ref_min(X[0], X[1]), X[2]), X[3]);
    const double maxX = ref_max(ref_max(ref_max(X[0], X[1]), X[2]), X[3]);
    const double minY = ref_min(ref_min(ref_min(Y[0], Y[1]), Y[2]), Y[3]);
    const double maxY = ref_max(ref_max(ref_max(Y[0], Y[1]), Y[2]), Y[3]);
    out[F_FX] = minX + in[F_PX];
    out[F_FY] = minY + in[F_PY];
    out[F_FW] = maxX - minX;
    out[F_FH] = maxY - minY;
}

/* The implementation tables, best first (those this build or CPU lacks are skipped). */
static const char *const k_names[] = {"avx512", "avx2", "neon", "portable"};
#define N_NAMES (sizeof k_names / sizeof k_names[0])

typedef void (*frames_fn)(const BGFrameColumns *, size_t, size_t);
typedef void (*concat_fn)(size_t, const BGAffineColumns *, const BGAffineColumns *, BGAffineColumns *);

/* What the differential tests run: each available table's kernel, the emulated
 * 8-lane template and the dispatching entry point (filled by init_backends). */
static struct { const char *name; frames_fn frames; concat_fn concat; } g_backends[N_NAMES + 2];
static size_t g_backend_count;

#define CANARY 0x7FF4DEADBEEF1234ULL /* signalling-NaN pattern no kernel writes */

static void *xmalloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) { perror("malloc"); exit(2); }
    return p;
}

/* One differential case: columns hold exactly `start + n` elements (so a
 * read or write past `end` trips ASan), outputs start as canaries. */
static void frames_case(frames_fn fn, const char *name, size_t n, size_t start, double special_rate) {
    const size_t len = start + n;
    double *in[F_NIN], *out[F_NOUT];
    for (int c = 0; c < F_NIN; c++) {
        in[c] = xmalloc(len * sizeof(double));
        for (size_t i = 0; i < len; i++) in[c][i] = gen_value(k_frame_kind[c], special_rate);
    }
    for (int c = 0; c < F_NOUT; c++) {
        out[c] = xmalloc(len * sizeof(double));
        for (size_t i = 0; i < len; i++) out[c][i] = from_bits(CANARY);
    }
    BGFrameColumns cols = {in[F_W], in[F_H], in[F_AX], in[F_AY], in[F_A], in[F_B], in[F_C], in[F_D],
                           in[F_TX], in[F_TY], in[F_PX], in[F_PY],
                           out[F_FX], out[F_FY], out[F_FW], out[F_FH]};
    fn(&cols, start, start + n);
    {
        int ok = 1;
        char detail[160] = "";
        for (size_t i = 0; i < len && ok; i++) {
            if (i < start) { /* untouched */
                for (int c = 0; c < F_NOUT; c++)
                    if (bits_of(out[c][i]) != CANARY) {
                        ok = 0;
                        snprintf(detail, sizeof detail, "wrote outside range at %zu", i);
                    }
                continue;
            }
            double e[F_NIN], want[F_NOUT];
            for (int c = 0; c < F_NIN; c++) e[c] = in[c][i];
            ref_frame(e, want);
            for (int c = 0; c < F_NOUT && ok; c++)
                if (!same_value(out[c][i], want[c])) {
                    ok = 0;
                    snprintf(detail, sizeof detail, "i=%zu out%d got %a (%016llx) want %a (%016llx)", i, c,
                             out[c][i], (unsigned long long)bits_of(out[c][i]), want[c],
                             (unsigned long long)bits_of(want[c]));
                }
        }
        check(ok, "frames", name, n, start, detail);
    }
    for (int c = 0; c < F_NIN; c++) free(in[c]);
    for (int c = 0; c < F_NOUT; c++) free(out[c]);
}

static const size_t k_starts[] = {0, 1, 2, 3, 5, 7, 8, 13};
static const double k_special_rates[] = {0.0, 0.03, 0.3};

static void test_frames(void) {
    for (size_t b = 0; b < g_backend_count; b++)
        for (size_t n = 0; n <= 67; n++)
            for (size_t s = 0; s < sizeof k_starts / sizeof k_starts[0]; s++)
                for (size_t r = 0; r < sizeof k_special_rates / sizeof k_special_rates[0]; r++)
                    frames_case(g_backends[b].frames, g_backends[b].name, n, k_starts[s], k_special_rates[r]);
    /* A few larger runs. */
    for (size_t b = 0; b < g_backend_count; b++) {
        frames_case(g_backends[b].frames, g_backends[b].name, 1000, 3, 0.0);
        frames_case(g_backends[b].frames, g_backends[b].name, 4099, 0, 0.05);
    }
}

/* Hand-picked lanes whose select semantics matter: NaN corners, signed
 * zeros, infinities; placed at every lane position of every width. */
static void test_frames_edge_lanes(void) {
    static const double probe[][F_NIN] = {
        /* w,   h,    ax,   ay,  a,    b,    c,    d,    tx,   ty,   px,   py */
        {0.0, 0.0, 0.5, 0.5, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0},        /* zero size: -0/+0 corners */
        {-0.0, -0.0, 0.5, 0.5, -1.0, -0.0, 0.0, -1.0, -0.0, 0.0, -0.0, 0.0}, /* negative zeros */
        {10.0, 10.0, 0.5, 0.5, INFINITY, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0}, /* inf * 0 -> NaN corner */
        {10.0, 10.0, 0.0, 0.0, INFINITY, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0}, /* corner x = -0 */
        {10.0, 20.0, 0.5, 0.5, NAN, 1.0, 1.0, 1.0, 0.0, 0.0, 5.0, 5.0},      /* all X NaN */
        {10.0, 20.0, 2.0, -1.0, 1.0, 2.0, 3.0, 4.0, 1e300, -1e300, 1e300, 1e300},
        {1e300, 1e300, 0.5, 0.5, 1e300, 0.0, 0.0, 1e300, 0.0, 0.0, 0.0, 0.0}, /* overflow */
        {5e-324, 5e-324, 0.5, 0.5, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0},   /* subnormal */
        {10.0, 20.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0},       /* zero matrix */
    };
    const size_t np = sizeof probe / sizeof probe[0];
    const size_t len = 37;
    for (size_t b = 0; b < g_backend_count; b++) {
        for (size_t p = 0; p < np; p++) {
            for (size_t lane = 0; lane < 17; lane++) {
                double *in[F_NIN], *out[F_NOUT];
                for (int c = 0; c < F_NIN; c++) {
                    in[c] = xmalloc(len * sizeof(double));
                    for (size_t i = 0; i < len; i++) in[c][i] = gen_value(k_frame_kind[c], 0.0);
                    in[c][lane] = probe[p][c];
                    in[c][lane + 16] = probe[p][c];
                }
                for (int c = 0; c < F_NOUT; c++) out[c] = xmalloc(len * sizeof(double));
                BGFrameColumns cols = {in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9],
                                       in[10], in[11], out[0], out[1], out[2], out[3]};
                g_backends[b].frames(&cols, 0, len);
                {
                    int ok = 1;
                    for (size_t i = 0; i < len; i++) {
                        double e[F_NIN], want[F_NOUT];
                        for (int c = 0; c < F_NIN; c++) e[c] = in[c][i];
                        ref_frame(e, want);
                        for (int c = 0; c < F_NOUT; c++) ok &= same_value(out[c][i], want[c]);
                    }
                    char detail[64];
                    snprintf(detail, sizeof detail, "edge probe %zu at lane %zu", p, lane);
                    check(ok, "frames-edge", g_backends[b].name, len, 0, detail);
                }
                for (int c = 0; c < F_NIN; c++) free(in[c]);
                for (int c = 0; c < F_NOUT; c++) free(out[c]);
            }
        }
    }
}

/* ---------------------------------------------------------------- affine */

static void ref_product(const double A[6], const double B[6], double R[6]) {
    R[0] = (A[0] * B[0]) + (A[1] * B[2]);
    R[1] = (A[0] * B[1]) + (A[1] * B[3]);
    R[2] = (A[2] * B[0]) + (A[3] * B[2]);
    R[3] = (A[2] * B[1]) + (A[3] * B[3]);
    R[4] = ((A[4] * B[0]) + (A[5] * B[2])) + B[4];
    R[5] = ((A[4] * B[1]) + (A[5] * B[3])) + B[5];
}

typedef struct { double *col[6]; } affine_cols;

static affine_cols affine_alloc(size_t len, double special_rate) {
    affine_cols m;
    for (int c = 0; c < 6; c++) {
        m.col[c] = xmalloc(len * sizeof(double));
        for (size_t i = 0; i < len; i++) m.col[c][i] = gen_value(c < 4 ? 2 : 3, special_rate);
    }
    return m;
}
static void affine_free(affine_cols *m) { for (int c = 0; c < 6; c++) free(m->col[c]); }
static BGAffineColumns affine_view(affine_cols *m) {
    BGAffineColumns v = {m->col[0], m->col[1], m->col[2], m->col[3], m->col[4], m->col[5]};
    return v;
}
static void affine_get(const affine_cols *m, size_t i, double e[6]) { for (int c = 0; c < 6; c++) e[c] = m->col[c][i]; }


/* mode 0: separate output, 1: out == A (in place), 2: out == B. */
static void concat_case(concat_fn fn, const char *name, size_t n, double special_rate, int mode) {
    affine_cols A = affine_alloc(n, special_rate), B = affine_alloc(n, special_rate), O = affine_alloc(n, 0.0);
    affine_cols A0 = affine_alloc(n, 0.0), B0 = affine_alloc(n, 0.0); /* pristine copies */
    for (int c = 0; c < 6; c++) {
        memcpy(A0.col[c], A.col[c], n * sizeof(double));
        memcpy(B0.col[c], B.col[c], n * sizeof(double));
    }
    BGAffineColumns va = affine_view(&A), vb = affine_view(&B), vo = affine_view(&O);
    BGAffineColumns *out = mode == 1 ? &va : mode == 2 ? &vb : &vo;
    affine_cols *res = mode == 1 ? &A : mode == 2 ? &B : &O;
    fn(n, &va, &vb, out);
    {
        int ok = 1;
        for (size_t i = 0; i < n; i++) {
            double a[6], b[6], want[6], got[6];
            affine_get(&A0, i, a);
            affine_get(&B0, i, b);
            ref_product(a, b, want);
            affine_get(res, i, got);
            for (int c = 0; c < 6; c++) ok &= same_value(got[c], want[c]);
        }
        check(ok, mode == 0 ? "concat" : mode == 1 ? "concat-inplace-A" : "concat-inplace-B", name, n, 0, NULL);
    }
    affine_free(&A); affine_free(&B); affine_free(&O); affine_free(&A0); affine_free(&B0);
}

static void test_concat(void) {
    for (size_t b = 0; b < g_backend_count; b++) {
        for (size_t n = 0; n <= 67; n++)
            for (size_t r = 0; r < sizeof k_special_rates / sizeof k_special_rates[0]; r++)
                for (int mode = 0; mode < 3; mode++)
                    concat_case(g_backends[b].concat, g_backends[b].name, n, k_special_rates[r], mode);
        concat_case(g_backends[b].concat, g_backends[b].name, 3001, 0.02, 0);
    }
}

/* ----------------------------------------------------------- propagation */

/* Random forest in parent-first index order: parent[i] in [-1, i). */
static void make_forest(int32_t *parent, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || rnd64() % 5 == 0) parent[i] = -1;
        else if (rnd64() % 2) parent[i] = (int32_t)(i - 1); /* deep chains too */
        else parent[i] = (int32_t)(rnd64() % i);
    }
}

/* Reference: world[i] for the given processing order (NULL = index order). */
static void ref_world(const affine_cols *local, const int32_t *parent, const int32_t *order, affine_cols *world,
                      size_t n) {
    for (size_t k = 0; k < n; k++) {
        const size_t i = order ? (size_t)order[k] : k;
        double l[6], p[6], r[6];
        affine_get(local, i, l);
        if (parent[i] < 0) {
            memcpy(r, l, sizeof r);
        } else {
            affine_get(world, (size_t)parent[i], p);
            ref_product(l, p, r);
        }
        for (int c = 0; c < 6; c++) world->col[c][i] = r[c];
    }
}

static int world_equal(const affine_cols *got, const affine_cols *want, size_t n) {
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 6; c++) ok &= same_value(got->col[c][i], want->col[c][i]);
    return ok;
}

static void test_propagate(void) {
    static const size_t sizes[] = {0, 1, 2, 3, 7, 8, 31, 64, 67, 500, 2000};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const size_t n = sizes[si];
        for (size_t r = 0; r < sizeof k_special_rates / sizeof k_special_rates[0]; r++) {
            const double rate = k_special_rates[r] * 0.2; /* chains compound: keep most values finite */
            affine_cols local = affine_alloc(n, rate), want = affine_alloc(n, 0.0), got = affine_alloc(n, 0.0);
            int32_t *parent = xmalloc(n * sizeof(int32_t));
            make_forest(parent, n);
            ref_world(&local, parent, NULL, &want, n);
            BGAffineColumns vl = affine_view(&local), vg = affine_view(&got);

            /* Whole range at once: the reference's values, and 1 exactly when every
             * result is finite (the reference's own verdict, computed here independently). */
            {
                int all_finite = 1;
                for (size_t i = 0; i < n; i++)
                    for (int c = 0; c < 6; c++) all_finite &= isfinite(want.col[c][i]) ? 1 : 0;
                for (int c = 0; c < 6; c++)
                    for (size_t i = 0; i < n; i++) got.col[c][i] = from_bits(CANARY);
                int verdict = BGWorldAffinePropagateChecked(&vl, parent, NULL, &vg, 0, n);
                check(world_equal(&got, &want, n), "propagate-checked", "portable", n, 0, NULL);
                check(verdict == all_finite, "propagate-checked-verdict", "portable", n, 0, NULL);
            }

            /* Scattered-parents variant (index order, prefetching the parents' worlds):
             * same values and verdict as the checked one. */
            {
                int all_finite = 1;
                for (size_t i = 0; i < n; i++)
                    for (int c = 0; c < 6; c++) all_finite &= isfinite(want.col[c][i]) ? 1 : 0;
                for (int c = 0; c < 6; c++)
                    for (size_t i = 0; i < n; i++) got.col[c][i] = from_bits(CANARY);
                int verdict = BGWorldAffinePropagateScatteredParentsChecked(&vl, parent, &vg, 0, n);
                check(world_equal(&got, &want, n), "propagate-scattered", "portable", n, 0, NULL);
                check(verdict == all_finite, "propagate-scattered-verdict", "portable", n, 0, NULL);
            }

            /* Chain variant (finiteness from the exponent bits): same values and verdict
             * as the checked one, whole and in chunks. */
            {
                int all_finite = 1;
                for (size_t i = 0; i < n; i++)
                    for (int c = 0; c < 6; c++) all_finite &= isfinite(want.col[c][i]) ? 1 : 0;
                for (int c = 0; c < 6; c++)
                    for (size_t i = 0; i < n; i++) got.col[c][i] = from_bits(CANARY);
                int verdict = BGWorldAffinePropagateChainChecked(&vl, parent, NULL, &vg, 0, n);
                check(world_equal(&got, &want, n), "propagate-chain", "portable", n, 0, NULL);
                check(verdict == all_finite, "propagate-chain-verdict", "portable", n, 0, NULL);
                int chunks_finite = 1;
                for (size_t s = 0; s < n;) {
                    size_t e = s + 1 + (size_t)(rnd64() % 13);
                    if (e > n) e = n;
                    chunks_finite &= BGWorldAffinePropagateChainChecked(&vl, parent, NULL, &vg, s, e);
                    s = e;
                }
                check(world_equal(&got, &want, n), "propagate-chain-chunked", "portable", n, 0, NULL);
                check(chunks_finite == all_finite, "propagate-chain-chunked-verdict", "portable", n, 0, NULL);
                check(BGWorldAffinePropagateChainChecked(&vl, parent, NULL, &vg, n, n) == 1,
                      "propagate-chain-empty", "portable", n, 0, NULL);
            }

            /* List variant (the incremental update's scattered layers): every layer in
             * index order, then every third layer recomputed over finished worlds, with
             * the verdict of exactly the listed layers. */
            {
                int32_t *list = xmalloc((n + 1) * sizeof(int32_t));
                for (size_t i = 0; i < n; i++) list[i] = (int32_t)i;
                for (int c = 0; c < 6; c++)
                    for (size_t i = 0; i < n; i++) got.col[c][i] = from_bits(CANARY);
                int every_finite = 1;
                for (size_t i = 0; i < n; i++)
                    for (int c = 0; c < 6; c++) every_finite &= isfinite(want.col[c][i]) ? 1 : 0;
                int verdict = BGWorldAffinePropagateListChecked(&vl, parent, list, &vg, n);
                check(world_equal(&got, &want, n), "propagate-list", "portable", n, 0, NULL);
                check(verdict == every_finite, "propagate-list-all-verdict", "portable", n, 0, NULL);
                size_t listed = 0;
                int all_finite = 1;
                for (size_t i = 1; i < n; i += 3) {
                    list[listed++] = (int32_t)i;
                    for (int c = 0; c < 6; c++) {
                        all_finite &= isfinite(want.col[c][i]) ? 1 : 0;
                        got.col[c][i] = from_bits(CANARY);
                    }
                }
                verdict = BGWorldAffinePropagateListChecked(&vl, parent, list, &vg, listed);
                check(world_equal(&got, &want, n), "propagate-list-subset", "portable", n, 0, NULL);
                check(verdict == all_finite, "propagate-list-verdict", "portable", n, 0, NULL);
                free(list);
            }

            /* Translation list: leaves (nobody's parent) with a parent get a new local
             * translation; recomputing only their world translation over the old worlds
             * must give the reference world of the new locals, bit for bit. */
            if (n > 0) {
                char *is_parent = calloc(n, 1);
                int32_t *list = xmalloc(n * sizeof(int32_t));
                affine_cols moved = affine_alloc(n, 0.0), want_moved = affine_alloc(n, 0.0);
                for (size_t i = 0; i < n; i++) if (parent[i] >= 0) is_parent[parent[i]] = 1;
                for (int c = 0; c < 6; c++) memcpy(moved.col[c], local.col[c], n * sizeof(double));
                size_t listed = 0;
                for (size_t i = 0; i < n; i++) {
                    if (is_parent[i] || parent[i] < 0 || rnd64() % 2) continue;
                    list[listed++] = (int32_t)i;
                    moved.col[4][i] = gen_value(0, rate);
                    moved.col[5][i] = gen_value(0, rate);
                }
                ref_world(&moved, parent, NULL, &want_moved, n);
                int all_finite = 1;
                for (size_t k = 0; k < listed; k++)
                    all_finite &= (isfinite(want_moved.col[4][list[k]]) && isfinite(want_moved.col[5][list[k]])) ? 1 : 0;
                for (int c = 0; c < 6; c++) memcpy(got.col[c], want.col[c], n * sizeof(double));
                BGAffineColumns vm = affine_view(&moved);
                int verdict = BGWorldTranslationListChecked(&vm, parent, list, &vg, listed);
                check(world_equal(&got, &want_moved, n), "translation-list", "portable", n, listed, NULL);
                check(verdict == all_finite, "translation-list-verdict", "portable", n, listed, NULL);
                affine_free(&moved); affine_free(&want_moved);
                free(list); free(is_parent);
            }

            /* Kind variant: make block k's locals translate (k % 3 == 0), scale-translate
             * (k % 3 == 1) or leave them affine; one -0.0 in b makes a block affine. Block
             * kinds exact or raised (every 5th block claims affine): the reference's bits,
             * the same verdict, whole and chunked. */
            {
                affine_cols klocal = affine_alloc(n, 0.0), kwant = affine_alloc(n, 0.0);
                const size_t blocks = (n + 63) / 64;
                uint8_t *kinds = xmalloc(blocks + 1);
                for (size_t i = 0; i < n; i++) {
                    for (int c = 0; c < 6; c++) klocal.col[c][i] = local.col[c][i];
                    const size_t k = i >> CA_WORLD_KIND_BLOCK_SHIFT;
                    if (k % 3 != 2) { klocal.col[1][i] = 0.0; klocal.col[2][i] = 0.0; }
                    if (k % 3 == 0) { klocal.col[0][i] = 1.0; klocal.col[3][i] = 1.0; }
                }
                if (n > 100) klocal.col[1][100] = -0.0; /* block 1: affine by bits */
                for (size_t k = 0; k < blocks; k++) kinds[k] = CA_WORLD_KIND_TRANSLATE;
                for (size_t i = 0; i < n; i++) {
                    const double a = klocal.col[0][i], b = klocal.col[1][i], cc = klocal.col[2][i], d = klocal.col[3][i];
                    uint8_t kind = (bits_of(b) | bits_of(cc)) != 0 ? CA_WORLD_KIND_AFFINE
                                 : (a == 1.0 && d == 1.0) ? CA_WORLD_KIND_TRANSLATE : CA_WORLD_KIND_SCALE_TRANSLATE;
                    if (kind > kinds[i >> CA_WORLD_KIND_BLOCK_SHIFT]) kinds[i >> CA_WORLD_KIND_BLOCK_SHIFT] = kind;
                }
                for (size_t k = 0; k < blocks; k += 5) kinds[k] = CA_WORLD_KIND_AFFINE;
                ref_world(&klocal, parent, NULL, &kwant, n);
                int all_finite = 1;
                for (size_t i = 0; i < n; i++)
                    for (int c = 0; c < 6; c++) all_finite &= isfinite(kwant.col[c][i]) ? 1 : 0;
                BGAffineColumns vkl = affine_view(&klocal);
                for (int c = 0; c < 6; c++)
                    for (size_t i = 0; i < n; i++) got.col[c][i] = from_bits(CANARY);
                int verdict = BGWorldAffinePropagateKindsChecked(&vkl, parent, kinds, &vg, 0, n);
                check(world_equal(&got, &kwant, n), "propagate-kinds", "portable", n, 0, NULL);
                check(verdict == all_finite, "propagate-kinds-verdict", "portable", n, 0, NULL);
                for (int c = 0; c < 6; c++)
                    for (size_t i = 0; i < n; i++) got.col[c][i] = from_bits(CANARY);
                int chunked = 1;
                for (size_t st = 0; st < n;) {
                    size_t e = st + 1 + (size_t)(rnd64() % 150);
                    if (e > n) e = n;
                    chunked &= BGWorldAffinePropagateKindsChecked(&vkl, parent, kinds, &vg, st, e);
                    st = e;
                }
                check(world_equal(&got, &kwant, n), "propagate-kinds-chunked", "portable", n, 0, NULL);
                check(chunked == all_finite, "propagate-kinds-chunked-verdict", "portable", n, 0, NULL);
                free(kinds);
                affine_free(&klocal); affine_free(&kwant);
            }

            /* Prefix already done (parents < start), remainder in one call. */
            for (size_t start = 0; start <= n && start < 70; start += 1 + start / 2) {
                for (int c = 0; c < 6; c++) {
                    memcpy(got.col[c], want.col[c], start * sizeof(double));
                    for (size_t i = start; i < n; i++) got.col[c][i] = from_bits(CANARY);
                }
                BGWorldAffinePropagateChecked(&vl, parent, NULL, &vg, start, n);
                check(world_equal(&got, &want, n), "propagate-from-start", "portable", n, start, NULL);
            }

            /* Chunked calls (as a level/range scheduler would issue them). */
            for (int c = 0; c < 6; c++)
                for (size_t i = 0; i < n; i++) got.col[c][i] = from_bits(CANARY);
            for (size_t s = 0; s < n;) {
                size_t e = s + 1 + (size_t)(rnd64() % 9);
                if (e > n) e = n;
                BGWorldAffinePropagateChecked(&vl, parent, NULL, &vg, s, e);
                s = e;
            }
            check(world_equal(&got, &want, n), "propagate-chunked", "portable", n, 0, NULL);

            /* Ordered variant: relabel the forest with a random permutation so
             * parents are no longer first by index; order = topological. */
            int32_t *perm = xmalloc(n * sizeof(int32_t)), *pparent = xmalloc(n * sizeof(int32_t));
            for (size_t i = 0; i < n; i++) perm[i] = (int32_t)i;
            for (size_t i = n; i > 1; i--) {
                size_t j = (size_t)(rnd64() % i);
                int32_t t = perm[i - 1]; perm[i - 1] = perm[j]; perm[j] = t;
            }
            for (size_t k = 0; k < n; k++) pparent[perm[k]] = parent[k] < 0 ? -1 : perm[parent[k]];
            affine_cols plocal = affine_alloc(n, 0.0), pwant = affine_alloc(n, 0.0), pgot = affine_alloc(n, 0.0);
            for (size_t k = 0; k < n; k++)
                for (int c = 0; c < 6; c++) plocal.col[c][perm[k]] = local.col[c][k];
            ref_world(&plocal, pparent, perm, &pwant, n);
            /* The relabelled result must equal the original one, permuted. */
            int same = 1;
            for (size_t k = 0; k < n; k++)
                for (int c = 0; c < 6; c++) same &= same_value(pwant.col[c][perm[k]], want.col[c][k]);
            check(same, "propagate-ordered-reference", "reference", n, 0, NULL);

            BGAffineColumns vpl = affine_view(&plocal), vpg = affine_view(&pgot);
            BGWorldAffinePropagateChecked(&vpl, pparent, perm, &vpg, 0, n);
            check(world_equal(&pgot, &pwant, n), "propagate-ordered", "portable", n, 0, NULL);
            for (int c = 0; c < 6; c++)
                for (size_t i = 0; i < n; i++) pgot.col[c][i] = from_bits(CANARY);
            for (size_t s = 0; s < n;) {
                size_t e = s + 1 + (size_t)(rnd64() % 13);
                if (e > n) e = n;
                BGWorldAffinePropagateChecked(&vpl, pparent, perm, &vpg, s, e);
                s = e;
            }
            check(world_equal(&pgot, &pwant, n), "propagate-ordered-chunked", "portable", n, 0, NULL);
            for (int c = 0; c < 6; c++)
                for (size_t i = 0; i < n; i++) pgot.col[c][i] = from_bits(CANARY);
            {
                int all_finite = 1;
                for (size_t i = 0; i < n; i++)
                    for (int c = 0; c < 6; c++) all_finite &= isfinite(pwant.col[c][i]) ? 1 : 0;
                int verdict = BGWorldAffinePropagateChainChecked(&vpl, pparent, perm, &vpg, 0, n);
                check(world_equal(&pgot, &pwant, n), "propagate-chain-ordered", "portable", n, 0, NULL);
                check(verdict == all_finite, "propagate-chain-ordered-verdict", "portable", n, 0, NULL);
            }

            /* Propagation must equal concat of the same operands. */
            if (n > 0) {
                affine_cols B = affine_alloc(n, 0.0), C = affine_alloc(n, 0.0);
                for (size_t i = 0; i < n; i++)
                    for (int c = 0; c < 6; c++) B.col[c][i] = parent[i] < 0 ? 0.0 : want.col[c][parent[i]];
                BGAffineColumns vb = affine_view(&B), vc = affine_view(&C);
                BGAffineConcat(n, &vl, &vb, &vc);
                int ok = 1;
                for (size_t i = 0; i < n; i++)
                    if (parent[i] >= 0)
                        for (int c = 0; c < 6; c++) ok &= same_value(C.col[c][i], want.col[c][i]);
                check(ok, "propagate-equals-concat", "dispatch", n, 0, NULL);
                affine_free(&B); affine_free(&C);
            }

            free(perm); free(pparent); free(parent);
            affine_free(&plocal); affine_free(&pwant); affine_free(&pgot);
            affine_free(&local); affine_free(&want); affine_free(&got);
        }
    }
}

/* --------------------------------------------------------------- general */

/* The 4x4 kernel's reference: layers in list order, G = L * P with each entry summed
 * left to right (CAffineKernelsGeneral.h), P rebuilt from the planar columns for a
 * planar superlayer. */
static void ref_general(const BGGeneralWorld *k, const ptrdiff_t *positions, size_t count) {
    for (size_t n = 0; n < count; n++) {
        const size_t i = k->order ? (size_t)k->order[positions[n]] : (size_t)positions[n];
        const double *L = k->locals + 16 * (size_t)k->localSlots[i];
        double G[16];
        if (k->parent[i] < 0) {
            memcpy(G, L, sizeof G);
        } else {
            const size_t p = (size_t)k->parent[i];
            double P[16] = {0};
            if (k->modes[p] & CA_WORLD_MODE_GENERAL) {
                memcpy(P, k->generalWorld + 16 * p, sizeof P);
            } else {
                P[0] = k->world.a[p]; P[1] = k->world.b[p]; P[4] = k->world.c[p]; P[5] = k->world.d[p];
                P[12] = k->world.tx[p]; P[13] = k->world.ty[p]; P[15] = 1.0;
            }
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++)
                    G[4 * r + c] = (((L[4 * r] * P[c]) + (L[4 * r + 1] * P[4 + c])) + (L[4 * r + 2] * P[8 + c]))
                                 + (L[4 * r + 3] * P[12 + c]);
        }
        memcpy(k->generalWorld + 16 * i, G, sizeof G);
        k->world.a[i] = G[0]; k->world.b[i] = G[1]; k->world.c[i] = G[4];
        k->world.d[i] = G[5]; k->world.tx[i] = G[12]; k->world.ty[i] = G[13];
        k->present[i] = 1;
    }
}

/* What one general-kernel run reads and writes, owned. */
typedef struct {
    double *locals, *general;
    affine_cols world;
    uint8_t *present;
} general_state;

static general_state general_copy(const general_state *from, size_t n) {
    general_state g = {xmalloc(16 * n * sizeof(double)), xmalloc(16 * n * sizeof(double)), affine_alloc(n, 0.0),
                       xmalloc(n)};
    memcpy(g.locals, from->locals, 16 * n * sizeof(double));
    memcpy(g.general, from->general, 16 * n * sizeof(double));
    for (int c = 0; c < 6; c++) memcpy(g.world.col[c], from->world.col[c], n * sizeof(double));
    memcpy(g.present, from->present, n);
    return g;
}

static void general_free(general_state *g) {
    free(g->locals); free(g->general); affine_free(&g->world); free(g->present);
}

static int general_equal(const general_state *a, const general_state *b, size_t n) {
    int ok = memcmp(a->present, b->present, n) == 0;
    for (size_t e = 0; e < 16 * n; e++) ok &= same_value(a->general[e], b->general[e]);
    return ok & world_equal(&a->world, &b->world, n);
}

typedef void (*general_fn)(const BGGeneralWorld *, const ptrdiff_t *, size_t);

/* Every table's 4x4 kernel and the dispatching entry point against the reference, on
 * forests where about half the layers are general (the rest planar, with worlds as a
 * planar pass would have left them), in index order and through an order list. */
static void test_general(void) {
    static const size_t sizes[] = {0, 1, 2, 5, 33, 300};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const size_t n = sizes[si];
        for (size_t r = 0; r < 2; r++) {
            const double rate = r == 0 ? 0.0 : 0.01;
            int32_t *parent = xmalloc(n * sizeof(int32_t)), *order = xmalloc(n * sizeof(int32_t));
            int32_t *slots = xmalloc(n * sizeof(int32_t));
            uint8_t *modes = xmalloc(n);
            ptrdiff_t *positions = xmalloc(n * sizeof(ptrdiff_t));
            make_forest(parent, n);
            general_state start = {xmalloc(16 * n * sizeof(double)), xmalloc(16 * n * sizeof(double)),
                                   affine_alloc(n, rate), xmalloc(n)};
            size_t count = 0;
            for (size_t i = 0; i < n; i++) {
                order[i] = (int32_t)i;
                slots[i] = (int32_t)(n - 1 - i); /* reversed: the kernels must follow the slots */
                modes[i] = (rnd64() % 2) ? CA_WORLD_MODE_GENERAL : 0;
                start.present[i] = 0;
                for (int e = 0; e < 16; e++) {
                    start.locals[16 * i + e] = gen_value(e % 5 == 3 ? 3 : 2, rate);
                    start.general[16 * i + e] = from_bits(CANARY);
                }
                if (modes[i] & CA_WORLD_MODE_GENERAL) positions[count++] = (ptrdiff_t)i;
            }
            for (int ordered = 0; ordered < 2; ordered++) {
                general_state want = general_copy(&start, n);
                BGGeneralWorld kw = {want.locals, slots, parent, ordered ? order : NULL, modes,
                                     affine_view(&want.world), want.general, want.present};
                ref_general(&kw, positions, count);
                for (size_t b = 0; b <= N_NAMES; b++) {
                    const BGKernelTable *t = b < N_NAMES ? BGKernelTableNamed(k_names[b]) : NULL;
                    if (b < N_NAMES && t == NULL) continue;
                    const general_fn fn = t ? t->general : BGWorldGeneralPropagate;
                    general_state got = general_copy(&start, n);
                    BGGeneralWorld kg = {got.locals, slots, parent, ordered ? order : NULL, modes,
                                         affine_view(&got.world), got.general, got.present};
                    fn(&kg, positions, count);
                    check(general_equal(&got, &want, n), ordered ? "general-ordered" : "general",
                          t ? t->name : "dispatch", n, count, NULL);
                    general_free(&got);
                }
                general_free(&want);
            }
            general_free(&start);
            free(parent); free(order); free(slots); free(modes); free(positions);
        }
    }
}

/* ---------------------------------------------------------------- timing */

/* Newton's steps of docs/ANIMATION.md section 3.2 for one lane, written here from the
 * spec: 1 and *y when a step lands within 1e-5, 0 when the slope is flat or 8 steps
 * do not. c: ax, bx, cx, ay, by, cy. */
static int ref_timing_newton(const double *c, double input, double *y) {
    const double x = (double)(float)input;
    double t = x;
    for (int step = 0; step < 8; step++) {
        const double e = ((c[0] * t + c[1]) * t + c[2]) * t - x;
        if (fabs(e) < 1e-5) { *y = (double)(float)(((c[3] * t + c[4]) * t + c[5]) * t); return 1; }
        const double g = ((3 * c[0]) * t + 2 * c[1]) * t + c[2];
        if (fabs(g) < 1e-6) return 0;
        t = t - e / g;
    }
    return 0;
}

/* The coefficients of control points (x1, y1, x2, y2) as TimingFunction makes them
 * (each point a float). */
static void timing_coefficients(float x1, float y1, float x2, float y2, double *c) {
    const double cx = (double)x1 * 3, gx = ((double)x2 - (double)x1) * 3;
    const double cy = (double)y1 * 3, gy = ((double)y2 - (double)y1) * 3;
    c[0] = 1 - gx; c[1] = gx - cx; c[2] = cx;
    c[3] = 1 - gy; c[4] = gy - cy; c[5] = cy;
}

/* BGTimingNewton8 of every table and the dispatching entry point against the
 * reference, broadcast and gathered: the lanes left, the values written (exact bits)
 * and the left lanes untouched. Named curves, curves at the limits, random ones;
 * inputs in and out of [0, 1], the ends, tiny, NaN, infinities. */
static void test_timing(void) {
    enum { FUNCTIONS = 48 };
    static const float named[][4] = {{0.25f, 0.1f, 0.25f, 1}, {0, 0, 1, 1}, {0.42f, 0, 1, 1}, {0, 0, 0.58f, 1},
                                     {0.42f, 0, 0.58f, 1}, {0, 0, 0, 0}, {1, 1, 1, 1}, {1, 0, 0, 1},
                                     {0, -1e6f, 1, 1e6f}, {1, 3e38f, 0, -3e38f}, {1, 0.5f, 1, 0.5f}};
    const size_t n_named = sizeof named / sizeof named[0];
    static const double special[] = {0, -0.0, 1, NAN, INFINITY, -INFINITY, 5e-324, 1e-300, 1e-9,
                                     1 - 1e-9, 1 + 1e-9, -0.25, 1.25, 3, 1e300, 0.5, 0.67};
    const size_t n_special = sizeof special / sizeof special[0];
    double table[6 * FUNCTIONS];
    for (size_t f = 0; f < FUNCTIONS; f++) {
        if (f < n_named) {
            timing_coefficients(named[f][0], named[f][1], named[f][2], named[f][3], table + 6 * f);
        } else {
            const double u = (double)(rnd64() >> 11) / 9007199254740992.0, v = (double)(rnd64() >> 11) / 9007199254740992.0;
            const double p = (double)(rnd64() >> 11) / 9007199254740992.0, q = (double)(rnd64() >> 11) / 9007199254740992.0;
            timing_coefficients((float)u, (float)(p * 4 - 1.5), (float)v, (float)(q * 4 - 1.5), table + 6 * f);
        }
    }
    for (size_t b = 0; b <= N_NAMES; b++) {
        const BGKernelTable *t = b < N_NAMES ? BGKernelTableNamed(k_names[b]) : NULL;
        if (b < N_NAMES && t == NULL) continue;
        const char *name = t ? t->name : "dispatch";
        long bad = 0, left_lanes = 0;
        for (int round = 0; round < 20000; round++) {
            int32_t functions[8];
            double in[8], got[8];
            const int uniform = round % 2;
            for (int k = 0; k < 8; k++) {
                functions[k] = (int32_t)(rnd64() % FUNCTIONS);
                in[k] = round % 3 == 0 ? special[rnd64() % n_special]
                                       : (double)(rnd64() >> 11) / 9007199254740992.0 * 1.2 - 0.1;
                got[k] = in[k];
            }
            const double *base = uniform ? table + 6 * (size_t)functions[0] : table;
            const int32_t *lanes = uniform ? NULL : functions;
            const unsigned left = t ? t->timing_newton8(base, lanes, got) : BGTimingNewton8(base, lanes, got);
            for (int k = 0; k < 8; k++) {
                double y = 0;
                const int solved = ref_timing_newton(table + 6 * (size_t)functions[uniform ? 0 : k], in[k], &y);
                const int ok = solved ? !(left & (1u << k)) && bits_of(got[k]) == bits_of(y)
                                      : (left & (1u << k)) && bits_of(got[k]) == bits_of(in[k]);
                if (!ok) bad++;
                left_lanes += !solved;
            }
            if (left >> 8) bad++;
        }
        check(bad == 0, "timing-newton8", name, 8, 0, NULL);
        check(left_lanes > 1000 && left_lanes < 160000 - 1000, "timing-newton8-both-outcomes", name, 8, 0, NULL);
    }
}

/* floor without libm (this executable links only the module): a double of magnitude
 * 2^52 or more is an integer; below, truncate and step down when that is above q. */
static double ref_floor(double q) {
    if (!(fabs(q) < 4503599627370496.0)) return q;
    const double k = (double)(long long)q;
    if (k > q) return k - 1;
    return k == 0 ? q * 0 : k;
}

/* The lane timing loop of docs/ANIMATION.md sections 2.3-2.4 for member i, written
 * here from the spec (Swift's max(x, y) is y >= x ? y : x, its min y < x ? y : x). */
static int ref_lane_time(const double *f, double time, int divide, double *progress, double *iteration) {
    const double b = f[0], s = f[1], off = f[2], I = f[3], D = f[4], d = f[5];
    if (!(time >= b)) return 0;
    const double tau = (time - b) * fabs(s);
    if (tau > D) return 0;
    const double l = (s < 0 ? -tau : tau) + off;
    double k = ref_floor(l / I), r = l - k * I;
    if (tau == D && s > 0 && r == 0) { r = I; k = k - 1; }
    r = (0 >= r) ? 0 : r;
    r = (I < r) ? I : r;
    double local = r;
    if (f[6] != 0) { local = r <= d ? r : I - r; k = 0; }
    *iteration = k;
    *progress = divide ? local / d : local;
    return 1;
}

/* BGLaneTimes of every table and the dispatching entry point against the reference:
 * random timings (speeds of both signs and 0, offsets, autoreverse, repeat counts,
 * times at the exact end of the active duration), counts 0 to 13 (the vector loop and
 * its tail), groups that all show (every column's bits) and groups where one member
 * does not (the return value). */
static void test_lane_times(void) {
    enum { N = 13 };
    static const double speeds[] = {1, 2, -1, 0.5, 0, -2, 1e-3};
    static const double durations[] = {0.25, 0.7, 1, 2, 0.1};
    for (size_t b = 0; b <= N_NAMES; b++) {
        const BGKernelTable *t = b < N_NAMES ? BGKernelTableNamed(k_names[b]) : NULL;
        if (b < N_NAMES && t == NULL) continue;
        const char *name = t ? t->name : "dispatch";
        long bad = 0, shown = 0, left = 0;
        for (int round = 0; round < 20000; round++) {
            double col[7][N], p[N], k[N], wp[N], wk[N];
            const size_t count = (size_t)(rnd64() % (N + 1));
            const double time = round % 7 == 0 ? 2.5 : (double)(rnd64() % 4000) / 997.0 - 0.5;
            const int divide = (int)(rnd64() % 2), all = round % 4 != 0;
            for (size_t i = 0; i < N; i++) {
                const double d = durations[rnd64() % 5];
                const int reverses = rnd64() % 3 == 0;
                const double I = reverses ? d + d : d, repeat = (double)(rnd64() % 4);
                col[0][i] = all ? -1 - (double)(rnd64() % 3) : (double)(rnd64() % 5) - 2;
                col[1][i] = speeds[rnd64() % 7];
                col[2][i] = rnd64() % 2 ? 0 : (double)(rnd64() % 100) / 37.0;
                col[3][i] = I;
                col[4][i] = all ? 1e9 : (rnd64() % 5 == 0 ? (time - col[0][i]) * fabs(col[1][i]) : repeat * I + I);
                col[5][i] = d;
                col[6][i] = reverses;
            }
            int want = 0;
            for (size_t i = 0; i < count; i++) {
                double f[7];
                for (int c = 0; c < 7; c++) f[c] = col[c][i];
                if (!ref_lane_time(f, time, divide, &wp[i], &wk[i])) { want = 1; break; }
            }
            const BGLaneTimings lt = {col[0], col[1], col[2], col[3], col[4], col[5], col[6]};
            const int got = t ? t->lane_times(&lt, count, time, divide, p, k) : BGLaneTimes(&lt, count, time, divide, p, k);
            if (got != want) bad++;
            if (!want) {
                shown++;
                for (size_t i = 0; i < count; i++)
                    if (bits_of(p[i]) != bits_of(wp[i]) || bits_of(k[i]) != bits_of(wk[i])) bad++;
            } else {
                left++;
            }
        }
        check(bad == 0, "lane-times", name, N, 0, NULL);
        check(shown > 1000 && left > 1000, "lane-times-both-outcomes", name, N, 0, NULL);
    }
}

/* BGTransformLanesWrite's contract (CAffineKernels.h), member by member, written from
 * the header: the end at f = 0 or 1, the mix and recompose when both ends decompose,
 * else the nearer end. */
static void ref_transform_member(const double *v, const double *q, double f, int decomposable, const double *e0,
                                 double *o) {
    if (f == 0 || f == 1 || !decomposable) {
        const int first = (f == 0 || f == 1) ? f == 0 : f < 0.5;
        memcpy(o, first ? e0 : e0 + 16, 16 * sizeof(double));
        return;
    }
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)},
                            {2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)},
                            {2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)}};
    const double px = v[9], py = v[10], pz = v[11], pw = v[12];
    for (int j = 0; j < 3; j++) {
        o[j] = v[3] * r[0][j];
        o[4 + j] = v[4] * (v[6] * r[0][j] + r[1][j]);
        o[8 + j] = v[5] * ((v[7] * r[0][j] + v[8] * r[1][j]) + r[2][j]);
        o[12 + j] = v[j];
    }
    const int p = px != 0 || py != 0 || pz != 0;
    for (int i = 0; i < 3; i++) o[4 * i + 3] = p ? (o[4 * i] * px + o[4 * i + 1] * py) + o[4 * i + 2] * pz : 0;
    o[15] = p ? ((v[0] * px + v[1] * py) + v[2] * pz) + pw : pw;
}

/* BGTransformLanesWrite of every table and the dispatching entry point against the
 * reference: random numbers (perspective zero or not, an infinite delta now and then:
 * only default NaNs, whose bits do not depend on operand order),
 * fractions 0, 1, inside and outside [0, 1], ends without a decomposition, counts 0 to
 * 13 (whole blocks and a partial one) to shuffled entries; other entries untouched. */
static void test_transform_lanes(void) {
    enum { N = 13, B = (N + 3) / 4, E = N + 4 };
    for (size_t b = 0; b <= N_NAMES; b++) {
        const BGKernelTable *t = b < N_NAMES ? BGKernelTableNamed(k_names[b]) : NULL;
        if (b < N_NAMES && t == NULL) continue;
        const char *name = t ? t->name : "dispatch";
        long bad = 0;
        for (int round = 0; round < 3000; round++) {
            static double mix[104 * B], rot[16 * B], f[N], ends[32 * N], out[16 * E], want[16 * E];
            uint8_t dec[N];
            int32_t endIndex[N], entries[N], perm[E];
            const size_t count = (size_t)(rnd64() % (N + 1));
            memset(mix, 0, sizeof mix);
            memset(rot, 0, sizeof rot);
            for (int e = 0; e < E; e++) perm[e] = e;
            for (int e = E - 1; e > 0; e--) {
                const int j = (int)(rnd64() % (uint64_t)(e + 1)), s = perm[e];
                perm[e] = perm[j], perm[j] = s;
            }
            for (size_t i = 0; i < 16 * E; i++) out[i] = want[i] = from_bits(CANARY);
            for (size_t m = 0; m < count; m++) {
                double v[13], q[4];
                const int flat = rnd64() % 3 == 0; /* no perspective */
                for (int j = 0; j < 13; j++) {
                    const double start = (j >= 9 && j < 12 && flat) ? 0 : rnd_range(-3, 3);
                    const double delta = (j >= 9 && j < 12 && flat) ? 0 : rnd_range(-2, 2);
                    const double d = rnd64() % 200 == 0 ? ((rnd64() & 1) ? INFINITY : -INFINITY) : delta;
                    mix[104 * (m / 4) + 4 * j + m % 4] = start;
                    mix[104 * (m / 4) + 4 * (13 + j) + m % 4] = d;
                }
                for (int c = 0; c < 4; c++) q[c] = rot[16 * (m / 4) + 4 * c + m % 4] = rnd_range(-1, 1);
                const uint64_t pick = rnd64() % 8;
                f[m] = pick == 0 ? 0 : pick == 1 ? 1 : pick == 2 ? rnd_range(-0.5, 1.5) : rnd01();
                dec[m] = rnd64() % 5 != 0;
                endIndex[m] = (int32_t)(2 * m);
                entries[m] = perm[m];
                for (int i = 0; i < 32; i++) ends[32 * m + i] = rnd_range(-9, 9);
                for (int j = 0; j < 13; j++)
                    v[j] = mix[104 * (m / 4) + 4 * j + m % 4] + mix[104 * (m / 4) + 4 * (13 + j) + m % 4] * f[m];
                ref_transform_member(v, q, f[m], dec[m], ends + 32 * m, want + 16 * perm[m]);
            }
            const BGTransformLanes k = {mix, rot, f, dec, endIndex, ends, entries, out};
            if (t) t->transform_lanes(&k, count);
            else BGTransformLanesWrite(&k, count);
            for (size_t i = 0; i < 16 * E; i++) bad += bits_of(out[i]) != bits_of(want[i]);
        }
        check(bad == 0, "transform-lanes", name, N, 0, NULL);
    }
}

/* ------------------------------------------------- exp, sincos, springs */

/* Distance in ulps between two doubles of the same sign region (the bits mapped to a
 * monotone integer line); both NaN: 0, one NaN: huge. */
static uint64_t ulps_apart(double a, double b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) ? 0 : UINT64_MAX;
    const int64_t ia = (int64_t)bits_of(a), ib = (int64_t)bits_of(b);
    const int64_t oa = ia < 0 ? INT64_MIN - ia : ia, ob = ib < 0 ? INT64_MIN - ib : ib;
    return oa > ob ? (uint64_t)oa - (uint64_t)ob : (uint64_t)ob - (uint64_t)oa;
}

/* A random double from its bits (every exponent equally likely), NaN excluded. */
static double rnd_bits_double(void) {
    for (;;) {
        const double x = from_bits(rnd64());
        if (!isnan(x)) return x;
    }
}

struct ulp_tally { long count, differ, over; uint64_t worst; double worstAt; };
static void tally(struct ulp_tally *t, double got, double want, double x) {
    const uint64_t d = ulps_apart(got, want);
    t->count++;
    if (d) t->differ++;
    if (d > 1) t->over++;
    if (d > t->worst) t->worst = d, t->worstAt = x;
}

/* The package's exp, sin and cos (BGExp, BGSinCosOf) against the C library's (glibc's
 * are correctly rounded in practice): at most 1 ulp apart everywhere, on 1.2M random
 * arguments each (the springs' ranges, the whole fast ranges, random bit patterns over
 * the whole double range) and the edge cases; exact on the edges whose answer is
 * exact. Prints how many differ at all. */
static void test_vmath(void) {
    struct ulp_tally e = {0}, s = {0}, c = {0};
    for (long i = 0; i < 1200000; i++) {
        double x;
        switch (i % 4) {
        case 0: x = rnd_range(-60, 1); break;      /* springs: -(t·ζ)·ω0, (σ − h)·t */
        case 1: x = rnd_range(-746, 710); break;   /* the whole finite range */
        case 2: x = rnd_bits_double(); break;      /* every binade */
        default: x = rnd_range(-1e-6, 1e-6); break;
        }
        tally(&e, BGExp(x), exp(x), x);
        double y;
        switch (i % 4) {
        case 0: y = rnd_range(-400, 400); break;   /* springs: ωd·t */
        case 1: y = rnd_range(-0x1.8p20, 0x1.8p20); break;
        case 2: y = rnd_bits_double(); break;
        default: y = rnd_range(-0.8, 0.8); break;
        }
        const BGSinCos sc = BGSinCosOf(y);
        tally(&s, sc.sin, sin(y), y);
        tally(&c, sc.cos, cos(y), y);
    }
    /* Multiples of π/2 (the hardest reductions) and their neighbours. */
    for (long k = -3000; k <= 3000; k++) {
        const double y = (double)k * 1.5707963267948966;
        for (int d = -2; d <= 2; d++) {
            const double z = nextafter(y, d < 0 ? -INFINITY : INFINITY);
            const double w = d == 0 ? y : (abs(d) == 1 ? z : nextafter(z, d < 0 ? -INFINITY : INFINITY));
            const BGSinCos sc = BGSinCosOf(w);
            tally(&s, sc.sin, sin(w), w);
            tally(&c, sc.cos, cos(w), w);
        }
    }
    const double edges[] = {0.0, -0.0, 5e-324, -5e-324, 1e-300, -1e-300, DBL_MIN, 1e-17, -1e-17, 1, -1,
                            708, -708, nextafter(708, 709), nextafter(-708, -709), 709.78, 709.782712893384,
                            709.7827128933841, 710, -745.1332191019411, -745.1332191019412, -745.14, -746,
                            -740, -720, -1000, 1000, DBL_MAX, -DBL_MAX, INFINITY, -INFINITY, NAN, -NAN,
                            0x1.8p20, -0x1.8p20, nextafter(0x1.8p20, 0), 1e22, -1e300, 3.14159265358979,
                            1.5707963267948966, 0x1.921fb54442d18p+1, 6381956970095103.0 * 0x1p797};
    long exactEdges = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        const double x = edges[i];
        tally(&e, BGExp(x), exp(x), x);
        const BGSinCos sc = BGSinCosOf(x);
        tally(&s, sc.sin, sin(x), x);
        tally(&c, sc.cos, cos(x), x);
        exactEdges += bits_of(BGExp(x)) == bits_of(exp(x)) || (isnan(x) && isnan(BGExp(x)));
    }
    check(e.over == 0, "vmath-exp-within-1ulp", "scalar", (size_t)e.count, 0, NULL);
    check(s.over == 0, "vmath-sin-within-1ulp", "scalar", (size_t)s.count, 0, NULL);
    check(c.over == 0, "vmath-cos-within-1ulp", "scalar", (size_t)c.count, 0, NULL);
    /* Exact answers: e^0 = 1, sin ±0 = ±0, cos 0 = 1, overflow +inf, underflow 0, NaN. */
    const BGSinCos z = BGSinCosOf(-0.0), inf = BGSinCosOf(INFINITY);
    check(BGExp(0) == 1 && BGExp(-0.0) == 1 && bits_of(z.sin) == bits_of(-0.0) && z.cos == 1 &&
              BGExp(710) == INFINITY && BGExp(INFINITY) == INFINITY && bits_of(BGExp(-746)) == 0 &&
              bits_of(BGExp(-INFINITY)) == 0 && isnan(BGExp(NAN)) && isnan(inf.sin) && isnan(inf.cos) &&
              BGExp(709.7827128933841) == INFINITY && BGExp(-745.1332191019411) == 5e-324,
          "vmath-exact-edges", "scalar", 0, 0, NULL);
    printf("vmath against the C library: exp %ld of %ld differ (worst %llu ulp at %a), sin %ld of %ld "
           "(worst %llu at %a), cos %ld of %ld (worst %llu at %a); %ld of %zu edges exact\n",
           e.differ, e.count, (unsigned long long)e.worst, e.worstAt, s.differ, s.count,
           (unsigned long long)s.worst, s.worstAt, c.differ, c.count, (unsigned long long)c.worst, c.worstAt,
           exactEdges, sizeof edges / sizeof edges[0]);
}

/* A random spring's eight coefficients (regime, ω0, ζ, ωd or σ, A, B, h, 0) as
 * Spring.swift makes them, from mass 1, stiffness k, damping c, velocity v. */
static void random_spring(double *out) {
    const double k = rnd_range(1, 2000), c = rnd01() < 0.1 ? 0 : rnd_range(0, 120), v = rnd_range(-30, 30);
    const double w0 = sqrt(k), r = sqrt(k), zeta = c / (r + r);
    const int over = rnd64() % 2;
    memset(out, 0, 8 * sizeof *out);
    out[1] = w0, out[2] = zeta;
    if (zeta < 1) {
        const double wd = sqrt(-(zeta * zeta + -1)) * w0;
        out[0] = 0, out[3] = wd, out[4] = 1, out[5] = -(v - zeta * w0) / wd;
    } else if (zeta > 1 && over) {
        const double sigma = sqrt(zeta * zeta + -1) * w0, q = v + zeta * w0;
        out[0] = 2, out[3] = sigma, out[4] = (q + sigma) / (sigma + sigma), out[5] = (sigma - q) / (sigma + sigma);
        out[6] = w0 * zeta;
    } else {
        out[0] = 1, out[4] = 1, out[5] = w0 - v;
    }
    if (rnd64() % 50 == 0) out[3] = rnd_range(1e6, 1e9); /* ωd·t past sincos's fast range */
}

/* The spring lanes (BGSpringProgress) on every table and through the dispatching entry
 * point, against (double)(float)BGSpringValue member by member, bit for bit: groups of
 * 0..37 members (whole blocks and a tail), mixed regimes in a block, times in [0, 3]
 * and a few negative, huge (exp's and sincos's slow paths), NaN and infinite. Also
 * BGSpringValue against the formulas written here with BGExp and BGSinCosOf. */
static void test_spring_lanes(void) {
    enum { SPRINGS = 40, N = 37 };
    static double table[8 * SPRINGS];
    for (int k = 0; k < SPRINGS; k++) random_spring(table + 8 * k);
    long formulaBad = 0;
    for (int k = 0; k < SPRINGS; k++) {
        const double *q = table + 8 * k, t = rnd_range(0, 3);
        double x;
        if (q[0] == 0) {
            const BGSinCos sc = BGSinCosOf(q[3] * t);
            x = 1 - (sc.sin * q[5] + sc.cos * q[4]) * BGExp(-(t * q[2]) * q[1]);
        } else if (q[0] == 1) {
            x = 1 - BGExp(-(t * q[1])) * (q[4] + q[5] * t);
        } else {
            x = 1 - (BGExp((q[3] - q[6]) * t) * q[5] + BGExp(-(t * (q[6] + q[3]))) * q[4]);
        }
        formulaBad += !same_value(BGSpringValue(q, t), x);
    }
    check(formulaBad == 0, "spring-value-formula", "scalar", SPRINGS, 0, NULL);
    for (size_t b = 0; b <= N_NAMES; b++) {
        const BGKernelTable *t = b < N_NAMES ? BGKernelTableNamed(k_names[b]) : NULL;
        if (b < N_NAMES && t == NULL) continue;
        const char *name = t ? t->name : "dispatch";
        long bad = 0;
        for (int round = 0; round < 4000; round++) {
            int32_t springs[N];
            double values[N + 1], want[N + 1];
            const size_t count = (size_t)(rnd64() % (N + 1));
            const int32_t shared = (int32_t)(rnd64() % SPRINGS);
            for (size_t m = 0; m < count; m++) {
                springs[m] = round % 3 == 0 ? shared : (int32_t)(rnd64() % SPRINGS);
                const uint64_t pick = rnd64() % 64;
                values[m] = pick == 0 ? NAN : pick == 1 ? INFINITY : pick == 2 ? -rnd01() : pick == 3 ? rnd_range(5, 1e4)
                          : pick == 4 ? 0 : rnd_range(0, 3);
                want[m] = (double)(float)BGSpringValue(table + 8 * springs[m], values[m]);
            }
            values[count] = want[count] = from_bits(CANARY);
            if (t) t->spring_progress(table, springs, values, count);
            else BGSpringProgress(table, springs, values, count);
            for (size_t m = 0; m < count; m++) bad += !same_value(values[m], want[m]);
            bad += bits_of(values[count]) != CANARY; /* nothing written past the group */
        }
        check(bad == 0, "spring-lanes", name, N, 0, NULL);
    }
}

/* The keyframe lanes' segments (BGKeyframeSegments; scalar, no table) against the
 * header's search and σ written here, member by member, bit for bit: 2 to 6 values,
 * nondecreasing key times with repeats (zero-width segments), u on key times, inside
 * and outside [0, 1], NaN; members whose kept segment is the one found keep their
 * ends and function (canaries untouched), the others get a, b − a, the segment and
 * function start + segment; nothing written past the group. */
static void test_keyframe_segments(void) {
    enum { N = 23, SETS = 12, MAXV = 6 };
    static double times[SETS * MAXV], values[SETS * MAXV * 4];
    int32_t counts[SETS];
    for (int k = 0; k < SETS; k++) {
        const int n = 2 + (int)(rnd64() % (MAXV - 1));
        counts[k] = n;
        double *kt = times + MAXV * k;
        kt[0] = 0, kt[n - 1] = 1;
        for (int j = 1; j < n - 1; j++) kt[j] = rnd64() % 3 == 0 ? kt[j - 1] : rnd_range(kt[j - 1], 1);
        if (n > 2 && rnd64() % 4 == 0) kt[n - 2] = 1;
        for (int j = 0; j < 4 * MAXV; j++) values[4 * MAXV * k + j] = rnd_range(-100, 100);
    }
    long bad = 0;
    for (int round = 0; round < 4000; round++) {
        int32_t sets[4 * N], segments[N + 1], functions[N + 1], want_segment[N];
        double progress[N + 1], starts[4 * N + 4], deltas[4 * N + 4], sigma[N];
        const size_t count = (size_t)(rnd64() % (N + 1));
        for (size_t m = 0; m < count; m++) {
            const int k = (int)(rnd64() % SETS), n = counts[k];
            sets[4 * m] = MAXV * k, sets[4 * m + 1] = n - 2, sets[4 * m + 2] = 4 * MAXV * k;
            sets[4 * m + 3] = rnd64() % 2 ? -1 : 7 * k;
            const double *kt = times + MAXV * k;
            const uint64_t pick = rnd64() % 16;
            const double u = pick == 0 ? NAN : pick == 1 ? -rnd01() : pick == 2 ? 1 + rnd01()
                           : pick < 7 ? kt[rnd64() % (uint64_t)n] : rnd01();
            progress[m] = u;
            int32_t i = 0;
            for (int32_t j = n - 2; j > 0; j--)
                if (kt[j] <= u) { i = j; break; }
            const double w = kt[i + 1] - kt[i];
            want_segment[m] = i, sigma[m] = w == 0 ? 1 : (u - kt[i]) / w;
            segments[m] = rnd64() % 2 ? i : (int32_t)(rnd64() % (uint64_t)n) - 1;
            functions[m] = -77;
            for (int l = 0; l < 4; l++) starts[4 * m + l] = deltas[4 * m + l] = from_bits(CANARY);
        }
        int32_t kept[N];
        for (size_t m = 0; m < count; m++) kept[m] = segments[m] == want_segment[m];
        progress[count] = from_bits(CANARY), segments[count] = functions[count] = -99;
        for (int l = 0; l < 4; l++) starts[4 * count + l] = deltas[4 * count + l] = from_bits(CANARY);
        const BGKeyframeLanes lanes = {sets, times, values, progress, starts, deltas, segments, functions};
        BGKeyframeSegments(&lanes, count);
        for (size_t m = 0; m < count; m++) {
            const int32_t i = want_segment[m];
            bad += !same_value(progress[m], sigma[m]) || segments[m] != i;
            if (kept[m]) {
                bad += functions[m] != -77;
                for (int l = 0; l < 4; l++) bad += bits_of(starts[4 * m + l]) != CANARY || bits_of(deltas[4 * m + l]) != CANARY;
                continue;
            }
            bad += functions[m] != sets[4 * m + 3] + i;
            const double *a = values + sets[4 * m + 2] + 4 * i;
            for (int l = 0; l < 4; l++)
                bad += !same_value(starts[4 * m + l], a[l]) || !same_value(deltas[4 * m + l], a[4 + l] - a[l]);
        }
        bad += bits_of(progress[count]) != CANARY || segments[count] != -99 || functions[count] != -99;
        for (int l = 0; l < 4; l++) bad += bits_of(starts[4 * count + l]) != CANARY || bits_of(deltas[4 * count + l]) != CANARY;
    }
    check(bad == 0, "keyframe-segments", "scalar", N, 0, NULL);
}

/* The whole-transform lanes' slerp (BGSlerpLanes) on every table and through the
 * dispatching entry point, against the header's formula written here with BGSinCosOf,
 * member by member, bit for bit: counts 0..13 (whole blocks and a partial one), the
 * slerp returning its start now and then, f = 0, 1, inside and outside [0, 1], NaN;
 * nothing written past the last block. */
static void test_slerp_lanes(void) {
    enum { N = 13, B = (N + 3) / 4 };
    for (size_t t = 0; t <= N_NAMES; t++) {
        const BGKernelTable *table = t < N_NAMES ? BGKernelTableNamed(k_names[t]) : NULL;
        if (t < N_NAMES && table == NULL) continue;
        const char *name = table ? table->name : "dispatch";
        long bad = 0;
        for (int round = 0; round < 3000; round++) {
            static double slerp[44 * B], f[N], rotation[16 * B + 1], want[4 * N];
            const size_t count = (size_t)(rnd64() % (N + 1));
            memset(slerp, 0, sizeof slerp);
            for (size_t i = 0; i < 16 * B + 1; i++) rotation[i] = from_bits(CANARY);
            for (size_t m = 0; m < count; m++) {
                double *k = slerp + 44 * (m / 4) + m % 4, a[4], b[4];
                for (int j = 0; j < 4; j++) k[4 * j] = a[j] = rnd_range(-1, 1), k[4 * (4 + j)] = b[j] = rnd_range(-1, 1);
                const double d = rnd_range(0, 1), theta = acos(d), sinTheta = sqrt(1 - d * d);
                const int start = rnd64() % 6 == 0;
                k[32] = start ? 0 : theta, k[36] = start ? 0 : sinTheta, k[40] = start;
                const uint64_t pick = rnd64() % 10;
                f[m] = pick == 0 ? 0 : pick == 1 ? 1 : pick == 2 ? rnd_range(-0.5, 1.5) : pick == 3 ? NAN : rnd01();
                for (int j = 0; j < 4; j++) {
                    if (start) {
                        want[4 * m + (size_t)j] = a[j];
                    } else {
                        const double wa = BGSinCosOf((1 - f[m]) * theta).sin / sinTheta;
                        const double wb = BGSinCosOf(f[m] * theta).sin / sinTheta;
                        want[4 * m + (size_t)j] = a[j] * wa + b[j] * wb;
                    }
                }
            }
            if (table) table->slerp_lanes(slerp, f, rotation, count);
            else BGSlerpLanes(slerp, f, rotation, count);
            for (size_t m = 0; m < count; m++)
                for (int j = 0; j < 4; j++)
                    bad += !same_value(rotation[16 * (m / 4) + 4 * (size_t)j + m % 4], want[4 * m + (size_t)j]);
            bad += bits_of(rotation[16 * ((count + 3) / 4)]) != CANARY;
        }
        check(bad == 0, "slerp-lanes", name, N, 0, NULL);
    }
}

/* -------------------------------------------------------------- dispatch */

static void init_backends(void) {
    for (size_t i = 0; i < N_NAMES; i++) {
        const BGKernelTable *t = BGKernelTableNamed(k_names[i]);
        if (t == NULL) { g_skipped++; continue; }
        g_backends[g_backend_count].name = t->name;
        g_backends[g_backend_count].frames = t->frames;
        g_backends[g_backend_count].concat = t->concat;
        g_backend_count++;
    }
    g_backends[g_backend_count].name = "emu8";
    g_backends[g_backend_count].frames = test_emu8_frames;
    g_backends[g_backend_count].concat = test_emu8_concat;
    g_backend_count++;
    g_backends[g_backend_count].name = "dispatch";
    g_backends[g_backend_count].frames = BGFramesCompute;
    g_backends[g_backend_count].concat = BGAffineConcat;
    g_backend_count++;
}

/* The lookup: names case-insensitive, NULL for unknown names, and every table sharing
 * the one set of planar world kernels. */
static void test_tables(void) {
    const BGKernelTable *portable = BGKernelTableNamed("portable");
    check(portable != NULL, "table-portable", "portable", 0, 0, NULL);
    check(BGKernelTableNamed("bogus") == NULL && BGKernelTableNamed(NULL) == NULL && BGKernelTableNamed("") == NULL,
          "table-unknown", "bogus", 0, 0, NULL);
    check(BGKernelTableNamed("PortABLE") == portable, "table-case", "PortABLE", 0, 0, NULL);
    for (size_t i = 0; i < N_NAMES && portable; i++) {
        const BGKernelTable *t = BGKernelTableNamed(k_names[i]);
        if (t == NULL) continue;
        check(!strcmp(t->name, k_names[i]) && t->available(), "table-name", k_names[i], 0, 0, NULL);
        check(t->world == portable->world, "table-planar-shared", k_names[i], 0, 0, NULL);
    }
}

static int backend_available(const char *name) { return BGKernelTableNamed(name) != NULL; }

static const char *best_available(void) {
    for (size_t i = 0; i < N_NAMES; i++)
        if (backend_available(k_names[i])) return k_names[i];
    return "portable";
}

static int ascii_ieq(const char *a, const char *b) {
    for (;; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
        if (x != y) return 0;
        if (!x) return 1;
    }
}

/* What the first selection must be, given the environment. */
static const char *expected_default(void) {
    const char *env = getenv("BATCHGEOMETRY_C_KERNEL");
    if (env)
        for (size_t i = 0; i < N_NAMES; i++)
            if (ascii_ieq(env, k_names[i]) && backend_available(k_names[i])) return k_names[i];
    return best_available();
}

static void test_set_backend(void) {
    for (size_t i = 0; i < N_NAMES; i++) {
        const int avail = backend_available(k_names[i]);
        const char *before = BGKernelBackendName();
        const int ok = BGKernelSetBackend(k_names[i]);
        check(ok == avail, "set-backend-return", k_names[i], 0, 0, NULL);
        check(!strcmp(BGKernelBackendName(), ok ? k_names[i] : before), "set-backend-name", k_names[i], 0, 0, NULL);
        if (ok) { /* the dispatching entry points must now match the reference */
            for (size_t n = 0; n <= 20; n++) frames_case(BGFramesCompute, k_names[i], n, n % 3, 0.1);
            for (size_t n = 0; n <= 20; n++) concat_case(BGAffineConcat, k_names[i], n, 0.1, 0);
        }
    }
    const char *before = BGKernelBackendName();
    check(BGKernelSetBackend("bogus") == 0 && !strcmp(BGKernelBackendName(), before), "set-backend-unknown", "bogus",
          0, 0, NULL);
    check(BGKernelSetBackend("PORTABLE") == 1 && !strcmp(BGKernelBackendName(), "portable"), "set-backend-case",
          "PORTABLE", 0, 0, NULL);
    check(BGKernelSetBackend(NULL) == 1 && !strcmp(BGKernelBackendName(), expected_default()), "set-backend-auto",
          "NULL", 0, 0, NULL);
    check(BGKernelSetBackend("auto") == 1 && !strcmp(BGKernelBackendName(), expected_default()), "set-backend-auto",
          "auto", 0, 0, NULL);
}

/* The C kernels this build compiles (dispatch.c's list, best first), as
 * BGKernelEnvironmentProblem names them. */
#if defined(__x86_64__) || defined(__i386__)
static const char *const k_built[] = {"avx512", "avx2", "portable"};
#define K_BUILT_LIST "avx512, avx2 or portable"
#elif defined(__aarch64__) || defined(_M_ARM64)
static const char *const k_built[] = {"neon", "portable"};
#define K_BUILT_LIST "neon or portable"
#else
static const char *const k_built[] = {"portable"};
#define K_BUILT_LIST "portable"
#endif

/* The error message BATCHGEOMETRY_C_KERNEL=env must give, or NULL for a usable value. */
static const char *expected_problem(const char *env, char *buffer, size_t size) {
    if (env == NULL || *env == 0 || ascii_ieq(env, "auto")) return NULL;
    for (size_t i = 0; i < sizeof k_built / sizeof k_built[0]; i++) {
        if (!ascii_ieq(env, k_built[i])) continue;
        if (backend_available(k_built[i])) return NULL;
        snprintf(buffer, size, "BATCHGEOMETRY_C_KERNEL=%s: this CPU cannot run it (best available: %s)", env,
                 best_available());
        return buffer;
    }
    snprintf(buffer, size, "BATCHGEOMETRY_C_KERNEL=%s is not a C kernel (expected " K_BUILT_LIST ", or auto)", env);
    return buffer;
}

static int env_check(void) {
    const char *env = getenv("BATCHGEOMETRY_C_KERNEL");
    const char *want = expected_default();
    char buffer[256];
    const char *want_problem = expected_problem(env, buffer, sizeof buffer);
    const char *problem = BGKernelEnvironmentProblem();
    const char *got = BGKernelBackendName(); /* first use in this process */
    printf("env BATCHGEOMETRY_C_KERNEL=%s -> backend %s (expected %s); problem: %s\n", env ? env : "(unset)", got,
           want, problem ? problem : "none");
    check(!strcmp(got, want), "env-override", env ? env : "(unset)", 0, 0, NULL);
    /* A bad value is an error message (the callers stop on it), never only a fallback. */
    check(want_problem ? problem != NULL && !strcmp(problem, want_problem) : problem == NULL, "env-problem",
          env ? env : "(unset)", 0, 0, want_problem ? want_problem : "expected no problem");
    /* and the frames entry point really runs (reference-equal) after it */
    for (size_t n = 0; n <= 12; n++) frames_case(BGFramesCompute, got, n, 1, 0.1);
    check(!strcmp(BGKernelBackendName(), want), "env-override-stable", got, 0, 0, NULL);
    return 0;
}

/* ------------------------------------------------------ thread first use */

#define N_THREADS 8
#define PER_THREAD 997
static pthread_barrier_t g_barrier;
static BGFrameColumns g_tcols;
static const char *g_tnames[N_THREADS];

static void *thread_main(void *arg) {
    const size_t t = (size_t)(uintptr_t)arg;
    pthread_barrier_wait(&g_barrier);
    BGFramesCompute(&g_tcols, t * PER_THREAD, (t + 1) * PER_THREAD); /* racing first selection */
    g_tnames[t] = BGKernelBackendName();
    return NULL;
}

static int threads_check(void) {
    const size_t len = N_THREADS * PER_THREAD;
    double *in[F_NIN], *out[F_NOUT];
    for (int c = 0; c < F_NIN; c++) {
        in[c] = xmalloc(len * sizeof(double));
        for (size_t i = 0; i < len; i++) in[c][i] = gen_value(k_frame_kind[c], 0.05);
    }
    for (int c = 0; c < F_NOUT; c++) out[c] = xmalloc(len * sizeof(double));
    BGFrameColumns cols = {in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9],
                           in[10], in[11], out[0], out[1], out[2], out[3]};
    g_tcols = cols;
    pthread_t th[N_THREADS];
    pthread_barrier_init(&g_barrier, NULL, N_THREADS);
    for (size_t t = 0; t < N_THREADS; t++) pthread_create(&th[t], NULL, thread_main, (void *)(uintptr_t)t);
    for (size_t t = 0; t < N_THREADS; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&g_barrier);
    int ok = 1;
    for (size_t i = 0; i < len; i++) {
        double e[F_NIN], want[F_NOUT];
        for (int c = 0; c < F_NIN; c++) e[c] = in[c][i];
        ref_frame(e, want);
        for (int c = 0; c < F_NOUT; c++) ok &= same_value(out[c][i], want[c]);
    }
    check(ok, "threads-results", BGKernelBackendName(), len, 0, NULL);
    int same = 1;
    for (size_t t = 0; t < N_THREADS; t++) same &= !strcmp(g_tnames[t], expected_default());
    check(same, "threads-same-backend", BGKernelBackendName(), N_THREADS, 0, NULL);
    for (int c = 0; c < F_NIN; c++) free(in[c]);
    for (int c = 0; c < F_NOUT; c++) free(out[c]);
    return 0;
}

/* ------------------------------------------------------------------ main */

static void report_column(int ok, const char *what) { check(ok, what, "column-memory", 0, 0, NULL); }

/* column_memory_tests.c's checks, counted here. */
static void test_columns(void) {
    const char *why = NULL;
    if (test_column_memory(report_column, &why) > 0) printf("skipped %s\n", why);
}

int main(int argc, char **argv) {
    int mode = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--env-check")) mode = 1;
        else if (!strcmp(argv[i], "--threads")) mode = 2;
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) g_rng = strtoull(argv[++i], NULL, 0);
        else { fprintf(stderr, "usage: %s [--seed N] [--env-check | --threads]\n", argv[0]); return 2; }
    }
    if (mode == 1) {
        env_check();
    } else if (mode == 2) {
        threads_check();
    } else {
        init_backends();
        printf("selected backend: %s; available:", BGKernelBackendName());
        for (size_t i = 0; i < N_NAMES; i++)
            if (backend_available(k_names[i])) printf(" %s", k_names[i]);
        printf("\n");
        test_frames();
        test_frames_edge_lanes();
        test_concat();
        test_propagate();
        test_general();
        test_timing();
        test_lane_times();
        test_transform_lanes();
        test_vmath();
        test_spring_lanes();
        test_slerp_lanes();
        test_keyframe_segments();
        test_tables();
        test_set_backend();
        test_columns();
        printf("skipped (tables not available here): %ld; NaN-payload differences tolerated: %ld\n", g_skipped,
               g_nan_payload_diffs);
    }
    printf("%ld passed, %ld failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
