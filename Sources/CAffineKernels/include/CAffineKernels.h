/*
 * CAffineKernels.h — the only public header of the CAffineKernels module.
 *
 * Batch kernels for Core Animation layer geometry over struct-of-arrays
 * columns of IEEE-754 doubles, with CPU-specific backends (AVX-512, AVX2,
 * NEON) chosen once at run time and a portable C fallback.
 *
 * Determinism contract (all kernels, all backends):
 *   Every result is computed with exactly the operation order written in the
 *   doc comments below, in binary64, round-to-nearest, with no fused
 *   multiply-add and no reassociation. Backends therefore agree bit for bit
 *   with each other and with a scalar reference written in the same order,
 *   for every input: zeros of either sign, subnormals, infinities and huge
 *   values included. NaN inputs yield NaN outputs in the same places; only
 *   the payload/sign bits of a NaN produced by combining two different NaNs
 *   are unspecified (IEEE 754 leaves them open and compilers may swap the
 *   operands of a commutative multiply or add).
 *
 * Units: whatever the caller uses (points, typically); the kernels are pure
 * arithmetic. Counts and indices are element indices (size_t), not bytes.
 *
 * Pointers: any alignment that is valid for double / int32_t. Output columns
 * must not overlap input columns unless a function says otherwise.
 */
#ifndef CAFFINEKERNELS_H
#define CAFFINEKERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A new value each call, process-wide and thread-safe (relaxed atomic increment),
/// never 0: the structure versions that tie LayerStore snapshots to the structure
/// they were computed for.
uint64_t BGNextStructureVersion(void);

/// The next store tag, process-wide and thread-safe (relaxed atomic increment): 1, 2, ...,
/// `tag_count`, then 1 again; never 0. Each new LayerStore takes one (its copies keep
/// it), so that a handle of another store is recognized. `tag_count` is at least 1.
uint32_t BGNextStoreTag(uint32_t tag_count);

/// Nanoseconds of a monotonic clock (CLOCK_MONOTONIC; an arbitrary origin), for the
/// optional phase timings of the frame query; 0 if the clock cannot be read.
uint64_t BGMonotonicNanoseconds(void);

/* ------------------------------------------------------------------------ */
/* Column memory (column_memory.c): the blocks behind the store's columns     */

/// A new block of at least `bytes` bytes (uninitialized), for a column that grows with
/// `BGColumnGrow` and is freed with `BGColumnFree` given the same size it was last
/// allocated or grown to. On Linux a block of 256 KiB or more is an anonymous mapping
/// (its writable part rounded up to whole 2 MiB pages, transparent huge pages asked for)
/// inside a larger reservation of inaccessible address space (2 MiB, 128 MiB, 8 GiB, …:
/// neither resident nor committed), smaller ones and other systems or sanitizer builds
/// use malloc. A mapping's next doubling is made writable ahead, inside its reservation
/// (neither resident nor touched; committed), so that its next growth makes no system
/// call; `*writable` receives the bytes writable from the block's start (`bytes` for a
/// heap block), which the next `BGColumnGrow` is given. Never NULL: out of memory writes
/// a message to standard error and aborts. O(1) (pages are touched when written).
void *BGColumnAllocate(size_t bytes, size_t *writable);

/// `block` (of `oldBytes`, from `BGColumnAllocate` or `BGColumnGrow`) grown to
/// `newBytes` (>= `oldBytes`), its first `oldBytes` kept; the old address is invalid
/// afterwards. A mapping grows inside its reservation (mprotect: no copy, no page
/// moved; the address is kept), and moves to a 64 times larger reservation when it
/// outgrows it (mremap: O(pages) page-table moves, no copy); a heap block grows with
/// realloc, and one that passes 256 KiB is copied once (at most 256 KiB) into a
/// mapping. `*writable` is the block's writable bytes as the last call set them: a
/// mapping that grows inside them makes no system call (and counts no mapping); one that
/// grows past them opens its next doubling ahead again, and `*writable` is updated.
/// Never NULL: out of memory aborts with a message.
void *BGColumnGrow(void *block, size_t oldBytes, size_t newBytes, size_t *writable);

/// Makes a mapping's part up to `aheadBytes` writable ahead of a growth that will jump
/// there (a side table that grows by more than a doubling), inside its reservation
/// (opened, not touched; committed), so that the growth makes no system call;
/// `*writable` as for `BGColumnGrow`, updated. A block in the smallest reservation (2
/// MiB) that the jump outgrows is moved now into a larger one (one mremap, counted as a
/// mapping) if the commit limit grants the part ahead; the block's address is returned
/// (the old one is invalid if it moved). A heap block, a size already writable, a refusal
/// of the commit limit (the block stays where it is), or the part past a larger block's
/// reservation (which the growth's move opens): nothing. O(1).
void *BGColumnOpenAhead(void *block, size_t bytes, size_t aheadBytes, size_t *writable);

/// Frees `block`, whose size is `bytes` as last allocated or grown and whose writable
/// bytes are `writable` as the last call set them (the reservation to unmap is named by
/// them); NULL is ignored.
void BGColumnFree(void *block, size_t bytes, size_t writable);

/// How many mappings `BGColumnAllocate` and `BGColumnGrow` made, moved or grew with a
/// system call since the process started (every thread; relaxed read; a growth inside the
/// part opened ahead is not counted). Those calls
/// bypass malloc, so the tests' allocation counter adds this count to the mallocs it
/// sees.
uint64_t BGColumnMappingCount(void);

/* ------------------------------------------------------------------------ */
/* Kernel 1: layer frames (the CALayer `frame` getter)                       */
/* ------------------------------------------------------------------------ */

/// Columns for `BGFramesCompute`: one entry per layer, index i in every column.
///
/// Inputs (read only): the layer's bounds size (`width`, `height`), its
/// `anchorPoint` (`anchorX`, `anchorY`, unit coordinates, any value allowed),
/// its affine transform (`a`, `b`, `c`, `d`, `tx`, `ty`, row-vector
/// convention, see `BGAffineColumns`) and its `position` (`positionX`,
/// `positionY`, in the superlayer's space).
///
/// Outputs (written): the frame origin and size in the superlayer's space.
/// Output columns must not overlap any input column.
typedef struct BGFrameColumns {
    const double *width, *height, *anchorX, *anchorY;
    const double *a, *b, *c, *d, *tx, *ty;
    const double *positionX, *positionY;
    double *frameX, *frameY, *frameWidth, *frameHeight;
} BGFrameColumns;

/// Computes the frames of layers [start, end) with the selected backend
/// (see `BGKernelBackendName`). Elements outside [start, end) are neither
/// read nor written. Does nothing when start >= end (and then does not
/// dereference `columns`, which may be NULL).
///
/// Per layer i, exactly (IEEE double, no FMA):
///
///     rx = (-w) * ax;   ry = (-h) * ay
///     corners (x, y): (rx, ry), (rx, ry + h), (rx + w, ry), (rx + w, ry + h)
///     Xk = ((a*xk) + (c*yk)) + tx;   Yk = ((b*xk) + (d*yk)) + ty
///     minX = MIN(MIN(MIN(X0, X1), X2), X3), MIN(p, q) = (q < p) ? q : p
///     maxX = MAX(MAX(MAX(X0, X1), X2), X3), MAX(p, q) = (q > p) ? q : p
///     (the same for Y)
///     frameX = minX + px;  frameY = minY + py
///     frameWidth = maxX - minX;  frameHeight = maxY - minY
///
/// Complexity: O(end - start), streaming; no allocation, no locking.
/// Thread safety: concurrent calls on disjoint output ranges are safe.
void BGFramesCompute(const BGFrameColumns *columns, size_t start, size_t end);


/* ------------------------------------------------------------------------ */
/* Kernel 2: world transforms of planar (2D affine) chains                   */
/* ------------------------------------------------------------------------ */

/// Six columns of 2D affine transforms (a, b, c, d, tx, ty): entry i is the
/// 3x3 matrix [[a, b, 0], [c, d, 0], [tx, ty, 1]] applied to row vectors,
/// p' = p * M, i.e. x' = a*x + c*y + tx, y' = b*x + d*y + ty.
/// "A then B" is the product A * B. Columns that a function only reads are
/// passed as `const BGAffineColumns *` and are not written through.
typedef struct BGAffineColumns {
    double *a, *b, *c, *d, *tx, *ty;
} BGAffineColumns;


/// World transforms along parent chains: for k = start, start+1, ..., end-1,
/// with i = order[k] (or i = k when `order` is NULL: index order):
///
///     world[i] = parent[i] < 0 ? local[i] : local[i] * world[parent[i]]
///
/// with the planar product ("local then parent"), exactly:
///
///     r.a  = (l.a*p.a) + (l.b*p.c)
///     r.b  = (l.a*p.b) + (l.b*p.d)
///     r.c  = (l.c*p.a) + (l.d*p.c)
///     r.d  = (l.c*p.b) + (l.d*p.d)
///     r.tx = ((l.tx*p.a) + (l.ty*p.c)) + p.tx
///     r.ty = ((l.tx*p.b) + (l.ty*p.d)) + p.ty
///
/// `local[i]` is the layer's complete transform into its parent's space; a
/// negative `parent[i]` (use -1) marks a root. Returns 1 when every value it
/// wrote is finite, 0 when some entry is an infinity or a NaN (all entries are
/// still written): callers use it to detect non-finite chains and redo them
/// with full 4x4 products. Returns 1 when start >= end (and dereferences
/// nothing then).
///
/// Preconditions (not checked):
///  - parents come first: for every listed i with parent[i] >= 0, the parent
///    is processed at an earlier position k' < k within this call, or
///    world[parent[i]] already holds that parent's final world transform
///    (e.g. from an earlier call);
///  - every order[k] for k in [start, end) is a valid, distinct layer index,
///    and parent[i] indexes valid world entries;
///  - `local` and `world` columns do not overlap.
/// Complexity: O(end - start), one dependent gather per non-root layer. Like
/// every planar world kernel below, portable C on every instruction set (the
/// parent dependence makes it a serial gather), reached through the same
/// implementation table as every kernel (`BGKernelBackendName`).
int BGWorldAffinePropagateChecked(const BGAffineColumns *local, const int32_t *parent,
                                  const int32_t *order, BGAffineColumns *world,
                                  size_t start, size_t end);

/// `BGWorldAffinePropagateChecked` over a list of layers instead of a range:
/// for k = 0, ..., count-1, with i = layers[k], the same product and the same
/// finiteness report. Made for lists of layers scattered over the columns
/// (one level of an incremental update's dirty subtrees): it prefetches the
/// cache lines of the layers a few entries ahead, which a range does not need.
///
/// Preconditions (not checked): as `BGWorldAffinePropagateChecked` with
/// order = layers and the range [0, count); in practice no layer of the list
/// is the parent of another (all of one level).
/// Complexity: O(count). Returns 1 when count == 0 (dereferences nothing).
int BGWorldAffinePropagateListChecked(const BGAffineColumns *local, const int32_t *parent,
                                      const int32_t *layers, BGAffineColumns *world, size_t count);

/// For k = 0, ..., count-1, with i = layers[k] and q = parent[i]: only the
/// translation of layer i's world,
///
///     world.tx[i] = ((local.tx[i] * world.a[q]) + (local.ty[i] * world.c[q])) + world.tx[q]
///     world.ty[i] = ((local.tx[i] * world.b[q]) + (local.ty[i] * world.d[q])) + world.ty[q]
///
/// (the tx, ty rows of the product of `BGWorldAffinePropagateChecked`, same order, so
/// the same bits), leaving world.a..d[i] as they are: for layers whose local
/// transform changed only in its translation, under a parent whose world did
/// not change. Prefetches a few entries ahead. Returns 1 when every value
/// written is finite (1 when count == 0; dereferences nothing then).
///
/// Preconditions (not checked): every layers[k] is a valid layer index with a
/// parent (parent[i] >= 0) whose world is final; no listed layer is the parent
/// of another.
int BGWorldTranslationListChecked(const BGAffineColumns *local, const int32_t *parent,
                                  const int32_t *layers, BGAffineColumns *world, size_t count);

/// Layers per transform-kind block of `BGWorldAffinePropagateKindsChecked`:
/// block k holds layers [k << CA_WORLD_KIND_BLOCK_SHIFT, (k + 1) << ...).
#define CA_WORLD_KIND_BLOCK_SHIFT 6
/// Kinds of a block's local transforms (Skia's type masks), ordered so that a
/// block's kind is the maximum of its layers' kinds:
///  - translate: a == 1, b and c are +0.0 (bit pattern 0; -0.0 does not count), d == 1
///  - scale-translate: b and c are +0.0
///  - affine: anything else.
#define CA_WORLD_KIND_TRANSLATE 0
#define CA_WORLD_KIND_SCALE_TRANSLATE 1
#define CA_WORLD_KIND_AFFINE 2

/// `BGWorldAffinePropagateChecked` in index order (order == NULL) with the
/// same results bit for bit, taking cheaper paths per block of layers:
/// `blockKind[i >> CA_WORLD_KIND_BLOCK_SHIFT]` is a kind at least as general
/// as that of every local in the block among [start, end). A translate block
/// does not read local a, b, c, d (it computes the affine expression with the
/// constants 1, +0, +0, 1 in their place: `0 * x` is not folded, so NaN,
/// infinities and signed zeros propagate exactly as in the affine kernel); a
/// scale-translate block does not read local b, c. Only the memory read
/// differs, not the arithmetic. Any other kind value takes the affine path.
/// Preconditions as for `BGWorldAffinePropagateChecked`, plus a valid `blockKind`
/// for every block that [start, end) touches. Returns 1 when every value
/// written is finite (1 when start >= end), else 0.
int BGWorldAffinePropagateKindsChecked(const BGAffineColumns *local, const int32_t *parent,
                                       const uint8_t *blockKind, BGAffineColumns *world,
                                       size_t start, size_t end);

/// `BGWorldAffinePropagateChecked` for chains: orders in which most layers'
/// superlayer is the layer just before them (a chain, or the pre-order blocks
/// of a deep, narrow tree), where each layer waits for the world just stored.
/// The same products, values and verdict; the finiteness test runs on the
/// exponent bits in integer registers instead of a floating-point sum, which
/// frees the FP pipes for that dependency but costs a streaming pass more.
/// Same preconditions; returns 1 when start >= end.
int BGWorldAffinePropagateChainChecked(const BGAffineColumns *local, const int32_t *parent,
                                       const int32_t *order, BGAffineColumns *world,
                                       size_t start, size_t end);

/// `BGWorldAffinePropagateChecked` in index order (order == NULL) for trees
/// whose parents are far apart in the columns (a random or depth-first-built
/// tree): the same products and finiteness report, and it prefetches the
/// parent's world a few layers ahead, which a tree whose sublayers sit next
/// to their superlayer does not need (it would only cost instructions there).
/// Same preconditions; returns 1 when start >= end.
int BGWorldAffinePropagateScatteredParentsChecked(const BGAffineColumns *local, const int32_t *parent,
                                                  BGAffineColumns *world, size_t start, size_t end);

/// Asks the CPU to start loading the cache line that holds `address`, for a
/// read (`BGPrefetchForRead`) or a write (`BGPrefetchForWrite`): a hint with no
/// effect on any result, a no-op where the compiler has no prefetch builtin.
/// Inline, so Swift loops over scattered layers can use it (Swift has no
/// prefetch of its own). Any address may be passed; nothing is dereferenced.
static inline void BGPrefetchForRead(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 0, 3);
#else
    (void)address;
#endif
}

static inline void BGPrefetchForWrite(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 1, 3);
#else
    (void)address;
#endif
}

/// Adds one to `*counter` atomically (relaxed order) and returns the value it
/// had: how the threads of one parallel split claim its chunks one by one, so a
/// thread that starts late (a worker still waking up) takes fewer of them instead
/// of the split waiting for it. Inline, and in C because the Swift standard
/// library's atomics need newer Apple systems than the package supports.
static inline long BGClaimNext(long *counter) {
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_fetch_add(counter, 1L, __ATOMIC_RELAXED);
#else
#error "BGClaimNext needs the GCC/Clang atomic builtins"
#endif
}

/* ------------------------------------------------------------------------ */
/* Timing functions                                                          */
/* ------------------------------------------------------------------------ */

/// The Newton steps of a Core Animation timing function's solve (docs/ANIMATION.md
/// section 3.2) for eight inputs at once, with the selected backend: the curve's
/// coefficients are six doubles a function in `coefficients` (ax, bx, cx, ay, by, cy,
/// as TimingFunction.swift makes them), lane k uses function `functions[k]`, or the
/// first (`coefficients[0..5]`) for every lane when `functions` is NULL. For each lane:
///
///     x = (double)(float)values[k];  t = x
///     up to 8 times:  e = ((ax*t + bx)*t + cx)*t - x
///                     if |e| < 1e-5: values[k] = (double)(float)(((ay*t + by)*t + cy)*t); done
///                     g = ((3*ax)*t + 2*bx)*t + cx;  if |g| < 1e-6: stop
///                     t = t - e/g
///
/// every operation rounded to double (never fused), so each lane has the bits of
/// TimingFunction.value(at:) whenever Newton converges. Returns the lanes it did not
/// solve (bit k: lane k), whose values are left as they were: the caller solves them
/// by value(at:) (its bisection or clamp; NaN and infinite inputs land there). Reads
/// 8 values, 8 indices (when given) and their coefficients; writes only `values`.
/// O(1): at most 8 steps. No allocation.
unsigned BGTimingNewton8(const double *coefficients, const int32_t *functions, double *values);

/// One lane group's member timings (Time/AnimationLanes.swift), one entry a member, as
/// resolved when each animation was added (ResolvedTiming, docs/ANIMATION.md section 2):
/// begin time, speed, time offset, one iteration I (forward and back when
/// autoreversing), the active duration D, the duration d, and 1 when autoreversing
/// (else 0).
typedef struct BGLaneTimings {
    const double *beginTime, *speed, *timeOffset, *iteration, *active, *duration, *autoreverses;
} BGLaneTimings;

/// A lane group's timing loop at scene time `time` (docs/ANIMATION.md sections 2.3 and
/// 2.4, `ResolvedTiming.localTime(activeTime:)`), with the selected backend: for each
/// member i in [0, count) that shows inside its active duration (time >= beginTime and
/// not tau > D, where tau = (time - beginTime) * |speed|):
///
///     l = (speed < 0 ? -tau : tau) + timeOffset;  k = floor(l / I);  r = l - k*I
///     if tau == D && speed > 0 && r == 0: r = I; k = k - 1
///     r = min(max(r, 0), I)                  (Swift's max: 0 >= r ? 0 : r; min: I < r ? I : r)
///     autoreversing: local = r <= d ? r : I - r; k = 0;  else local = r
///     iterations[i] = k;  progress[i] = divide ? local / d : local
///
/// every operation rounded to double, never fused: the bits of the Swift steps. Returns
/// 0 when every member shows; else 1, as soon as one does not (before its begin, after
/// its end), having written an unspecified part of the columns. O(count), no allocation.
int BGLaneTimes(const BGLaneTimings *timings, size_t count, double time, int divide, double *progress,
                double *iterations);

/// A whole-transform lane group (Time/AnimationLanes.swift; docs/ANIMATION.md section 7)
/// for `BGTransformLanesWrite`. Members go in blocks of four, member m is lane m % 4 of
/// block m / 4, and a partial last block is whole in memory (zeros past the members):
/// `mix` holds 104 doubles a block, the thirteen numbers' starts (translation x y z,
/// scale x y z, shear xy xz yz, perspective x y z w) then their end − start, each four
/// lanes; `rotation` 16 doubles a block, the quaternion at this sample (x, y, z, w, each
/// four lanes). The other columns have one entry a member: progress f; 1 when both ends
/// decompose (else 0); the start end's index in `endMatrices` (the end's is the next);
/// the entry its matrix goes to in `out`. Matrices are 16 doubles, row-major m11 … m44.
typedef struct BGTransformLanes {
    const double *mix, *rotation, *progress;
    const uint8_t *decomposable;
    const int32_t *ends;
    const double *endMatrices;
    const int32_t *entries;
    double *out;
} BGTransformLanes;

/// Writes each member's matrix at its entry of `out`, with the selected backend (Swift's
/// `TransformMix.matrix(at:rotation:)` and the lanes' choice of it):
///
///     f == 0 or f == 1:   endMatrices[ends + (f == 0 ? 0 : 1)]
///     decomposable:       v = start + delta * f (each number); x y z w = rotation;
///                         r = the quaternion's rows, e.g. r00 = 1 - 2*(y*y + z*z),
///                         r01 = 2*(x*y + z*w); m11.. = sx*r0j, m2j = sy*(kxy*r0j + r1j),
///                         m3j = sz*((kxz*r0j + kyz*r1j) + r2j), m4j = t; when px, py or
///                         pz != 0: mi4 = (mi1*px + mi2*py) + mi3*pz and
///                         m44 = ((tx*px + ty*py) + tz*pz) + pw, else 0, 0, 0, pw
///     otherwise:          endMatrices[ends + (f < 0.5 ? 0 : 1)]
///
/// every operation rounded to double, never fused: the bits of the Swift code on every
/// backend. Entries must be distinct. O(count), no allocation.
void BGTransformLanesWrite(const BGTransformLanes *lanes, size_t count);

/* ------------------------------------------------------------------------ */
/* The package's exp and sincos, and the spring lanes                        */
/* ------------------------------------------------------------------------ */

/// e^x, the package's own (docs/ANIMATION.md section 5.2; vmath.h: fdlibm's algorithm,
/// within 1 ulp of the correctly rounded result), the same bits on every platform and
/// backend: the lane kernels compute it with the same operations. Overflow gives +inf,
/// underflow 0 or a subnormal rounded once, NaN gives NaN. O(1), no allocation.
double BGExp(double x);

/// sin x and cos x (same accuracy and sources as `BGExp`).
typedef struct BGSinCos {
    double sin, cos;
} BGSinCos;

/// sin x and cos x together, the package's own: for |x| < 1.5·2^20 from a 151-bit
/// reduction by π/2 and fdlibm's kernels, within 1 ulp; ±inf and NaN give NaN; larger
/// finite x the C library's sin and cos (the lane kernels call this for them). O(1).
BGSinCos BGSinCosOf(double x);

/// One spring's x(t) at `time` seconds (`Spring.value(at:)`, docs/ANIMATION.md section
/// 5.2) from its coefficients, 8 doubles: regime (0 underdamped, 1 critically damped,
/// 2 overdamped), ω0, ζ, ωd (underdamped) or σ (overdamped), A, B, h = ω0·ζ
/// (overdamped), unused:
///
///     0:  1 - (sin(ωd*t)*B + cos(ωd*t)*A) * exp(-(t*ζ)*ω0)
///     1:  1 - exp(-(t*ω0)) * (A + B*t)
///     2:  1 - (exp((σ - h)*t)*B + exp(-(t*(h + σ)))*A)
///
/// with `BGExp` and `BGSinCosOf`, every operation rounded to double, never fused. O(1).
double BGSpringValue(const double *coefficients, double time);

/// A spring lane group's progress, with the selected backend: for each member i in
/// [0, count), `values[i]` (its local time in seconds) becomes
/// `(double)(float)BGSpringValue(table + 8 * springs[i], values[i])`, bit for bit on
/// every backend. O(count), no allocation.
void BGSpringProgress(const double *table, const int32_t *springs, double *values, size_t count);

/// A keyframe lane group (Time/AnimationLanes.swift; docs/ANIMATION.md section 6) for
/// `BGKeyframeSegments`. `sets` holds four numbers a member: the start of its key times
/// in `keyTimes`, its last segment (values − 2, ≥ 0), the start of its values in
/// `values` (four doubles a value) and of its segment timing functions (−1: none).
/// `progress` holds each member's u and gets its σ; `starts` and `deltas` (four doubles
/// a member), `segments` and `functions` are the member's current segment's, kept from
/// the call before while the segment stays (−1 in `segments` before the first).
typedef struct BGKeyframeLanes {
    const int32_t *sets;
    const double *keyTimes, *values;
    double *progress, *starts, *deltas;
    int32_t *segments, *functions;
} BGKeyframeLanes;

/// Each member's segment and σ at u = progress (Swift's `AnimationStore.segment`: the
/// last segment j ≥ 1 with keyTimes[j] <= u, else 0; w = kt[i+1] − kt[i]; σ = w == 0 ?
/// 1 : (u − kt[i]) / w, every operation rounded to double, never fused), σ into
/// `progress`; when the segment is not the member's kept one, its values a and b into
/// `starts` (a) and `deltas` (b − a), the segment into `segments` and function start +
/// segment into `functions`. O(count × segments), no allocation.
void BGKeyframeSegments(const BGKeyframeLanes *lanes, size_t count);

/// The whole-transform lanes' slerp (docs/ANIMATION.md section 7; Swift's
/// `PreparedSlerp.interpolate(from:_:)`), with the selected backend. Members go in
/// blocks of four as in `BGTransformLanes`: `slerp` holds 44 doubles a block, the start
/// quaternion a (x, y, z, w, each four lanes), the far end b (likewise), θ, sin θ, and 1
/// where the slerp returns its start (else 0); `progress` one f a member. Writes each
/// member's rotation into `rotation` (16 doubles a block: x, y, z, w, each four lanes):
///
///     returns start:  a
///     otherwise:      wa = sin((1 - f)*θ) / sin θ;  wb = sin(f*θ) / sin θ;  a*wa + b*wb
///
/// with `BGSinCosOf`'s sines, every operation rounded to double, never fused: the bits of
/// the Swift code on every backend. A partial last block's padding lanes are written
/// too. O(count), no allocation.
void BGSlerpLanes(const double *slerp, const double *progress, double *rotation, size_t count);

/* ------------------------------------------------------------------------ */
/* Backend selection                                                         */
/* ------------------------------------------------------------------------ */

/// Name of the implementation table that every kernel call uses (frames, the
/// planar and the 4x4 world kernels): "avx512", "avx2", "neon" or "portable"
/// (a static string).
///
/// On first use the best backend this CPU supports is chosen (avx512 >
/// avx2 > portable on x86; neon on arm64), unless the environment variable
/// BATCHGEOMETRY_C_KERNEL=portable|avx2|avx512|neon|auto (case-insensitive)
/// forces one. Any other value, or a backend that this build or CPU cannot
/// run, is an error that `BGKernelEnvironmentProblem` describes; the module
/// cannot stop the program or print, so it then runs the best available
/// backend, and callers must check `BGKernelEnvironmentProblem` before their
/// first kernel call. Selection happens once, is thread-safe, and costs one
/// atomic load per kernel call afterwards.
const char *BGKernelBackendName(void);

/// NULL when BATCHGEOMETRY_C_KERNEL is unset, empty, "auto" or names a C kernel this
/// CPU runs; else the error message for it, e.g. "BATCHGEOMETRY_C_KERNEL=avx9 is not a
/// C kernel (expected avx512, avx2 or portable, or auto)" or "BATCHGEOMETRY_C_KERNEL=
/// avx512: this CPU cannot run it (best available: avx2)" (a static buffer, valid until
/// the next call; reads the environment now). Callers check it before their first kernel
/// call and stop with the message (KernelOptions.default, batchbench and the C interface
/// do): the selection cannot stop, and would otherwise run the best backend.
const char *BGKernelEnvironmentProblem(void);

/// Forces the backend for subsequent calls (process-wide, thread-safe):
/// "portable", "avx2", "avx512" or "neon" (case-insensitive). "auto" or NULL
/// re-runs the default selection (CPU features plus the environment
/// variable). Returns 1 on success, 0 (and changes nothing) when the name is
/// unknown or that backend is unavailable on this CPU/build. Meant for tests
/// and benchmarks; calls already running keep the backend they started with.
int BGKernelSetBackend(const char *name);

#ifdef __cplusplus
}
#endif

/* World transforms of general (4x4) layers. */
#include "CAffineKernelsGeneral.h"

#endif /* CAFFINEKERNELS_H */
