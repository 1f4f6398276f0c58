/*
 * batchgeometry.h: the C interface of BatchGeometry.
 *
 * Core Animation / UIKit layer geometry for millions of layers, for C and C++ engines
 * (and anything with a C FFI: Python ctypes, Rust, C#, Lua). Install it under a prefix and
 * build against it with pkg-config or CMake (README.md, "The C interface"):
 *
 *     scripts/install.sh --prefix DIR
 *     cc app.c $(pkg-config --cflags --libs batchgeometry)          (DIR/lib/pkgconfig)
 *     find_package(BatchGeometry) + BatchGeometry::batchgeometry   (CMAKE_PREFIX_PATH=DIR)
 *
 * libbatchgeometry.so.<BG_ABI_VERSION> exports only the bg_* functions below and loads
 * libswiftCore.so from its own directory; libbatchgeometry.a (pkg-config
 * batchgeometry-static, BatchGeometry::batchgeometry_static) holds the Swift runtime and
 * needs only libc, libm, libstdc++ and libgcc_s. Inside the package, the SwiftPM products
 * BatchGeometryC and BatchGeometryCStatic are the same code. Every result is the Swift
 * API's (the `LayerStore` of the BatchGeometry module), which follows docs/GEOMETRY.md;
 * this header names the Swift call each function runs. The header compiles as C99 and as
 * C++ (C++17 is tested), with no warnings under -Wall -Wextra.
 *
 * CONVENTIONS
 *
 * Status codes. Every function that can fail returns a `bg_status`: BG_OK (0), or an
 * error code. On an error the function has changed nothing: no store, no output (the one
 * exception: BG_ERROR_BUFFER_TOO_SMALL writes the needed count to the `count` output of
 * the functions that have one), and bg_last_error_message() returns one line saying why,
 * the same text the Swift API and `batchbench eval` give for the same mistake
 * (`layer 3#2 is stale: the layer was destroyed and its slot is free`); mistakes only C
 * can make (NULL pointers, enum values, buffer sizes) name the function
 * (`bg_store_frames: capacity 3 is too small: 4 needed`). Nothing traps
 * across this interface: a stale handle, another store's handle, a sublayer index out of
 * range, a structure cycle, a NULL pointer, an unknown enum value or a too-small buffer is
 * a status code. A count or length whose buffer could not fit in the address space is
 * BG_ERROR_INVALID_ARGUMENT before anything is read or allocated. What the library cannot
 * detect is undefined behaviour as in any C library: a pointer to a destroyed object
 * (a debug build of the library reports a destroyed store: "Threads"), a buffer shorter
 * than the capacity or count passed with it. (Another store's handle is detected unless
 * the two stores share a tag: "Layers".)
 * Running out of memory stops the program, as it does in Swift.
 *
 * Layers. A layer is named by a `bg_layer`, a 64-bit handle: its slot in the low 32 bits,
 * and in the high 32 its store's tag (12 bits) over its generation (20 bits) (the Swift
 * `LayerHandle.rawValue`). A handle stays valid while other layers are added, moved,
 * detached or destroyed; bg_layer_destroy makes the handles of the destroyed layers stale,
 * and a later bg_layer_add may reuse their slots under a new generation, so a stale handle
 * of this store is always detected (status BG_ERROR_STALE_LAYER; a slot is retired after
 * 524,288 layers lived in it rather than let its generation wrap). Each new store takes a
 * tag from a process-wide counter, so another store's handle is detected too: the same
 * status (BG_ERROR_STALE_LAYER, or BG_ERROR_STALE_SUPERLAYER for a superlayer argument),
 * with a message saying it belongs to another store. Tags repeat every 4,094 stores made
 * in a process, so two stores made 4,094 x k stores apart accept each other's handles:
 * keep each handle with its store. A handle made up from a small integer has tag 0,
 * which no store has: it is stale for every store. A copy made by bg_store_copy keeps its
 * original's tag, so the original's handles name the same layers in the copy.
 * BG_LAYER_NONE means "no layer": a root's superlayer, a hit test that hits nothing,
 * world space in conversions. It never names a live layer.
 *
 * Slots. Per-layer batch outputs (frames, world transforms, world rects, clip rects,
 * visibility) have one entry per slot, bg_store_slot_count() entries, and layer L's entry
 * is at index bg_layer_slot(L). Free slots (of destroyed layers) hold defaults: a zero
 * frame, an identity world transform, a null world rect, not visible. (The frame query's
 * outputs are the exception: one entry per layer it shows, in drawing order.)
 *
 * Numbers. Every number is a double, in points (the display scale converts to pixels
 * only in content offsets). Arrays of doubles, in the order the scene format uses:
 *   point      double[2]   {x, y}
 *   size       double[2]   {width, height}
 *   rect       double[4]   {x, y, width, height}                 (CGRect)
 *   edges      double[4]   {minX, minY, maxX, maxY}              (a rect as its edges)
 *   insets     double[4]   {top, left, bottom, right}            (UIEdgeInsets)
 *   affine     double[6]   {a, b, c, d, tx, ty}                  (CGAffineTransform)
 *   transform  double[16]  {m11, m12, m13, m14, m21, ..., m44}   (CATransform3D, row-major;
 *                          row vectors, p' = p * M, translation in m41 m42 m43)
 * World rects and clip rects are edges, so that a rect that reaches to infinity on one
 * side (a layer crossing the eye plane) keeps exact edges; the null rect (nothing, as
 * CGRectNull) has all four edges +infinity. NaN and infinities are accepted wherever the
 * Swift setters accept them (everywhere but the display scale) and reach only the layers
 * they touch.
 *
 * Buffers. The caller owns every input and output buffer. `capacity` counts entries
 * (layers, points, handles), not bytes or doubles: a `double *frames` with capacity n
 * has room for n rects, 4n doubles. A buffer that is too small is BG_ERROR_BUFFER_TOO_SMALL
 * before anything is written; a buffer may be NULL when its capacity is 0, to ask for the
 * count. Variable-length results (sublayers, roots, pre-order, drawing order, the frame
 * query) take `(out, capacity, count)`: on success *count is the number written; when
 * the buffer is too small, *count is the number needed, so a second call can succeed.
 *
 * Ownership. Objects returned through `bg_store **`, `bg_scene **` and
 * `bg_evaluation **` belong to the caller, who frees each with its destroy function
 * (which accepts NULL). Pointers the library returns (messages, frame columns, JSON
 * text) are borrowed: each function says how long one stays valid.
 *
 * Threads. A store is used from one thread at a time: any call on a store, reading calls
 * included (they may update its caches), must not overlap another call on the same store.
 * Different stores (copies included: bg_store_copy shares storage copy-on-write, safely)
 * may be used from many threads at once. Scenes and evaluations are immutable once made:
 * any number of threads may read one at once. bg_last_error_message() is per thread.
 * Batch calls may spread their work over the store's worker threads
 * (bg_store_set_options) and return when all of it is done. A debug build of the library
 * (scripts/install.sh --debug) checks the store rules at the cost of a mutex try-lock a
 * call: a call on a store that another thread's call is using, a call on a destroyed
 * store and a second bg_store_destroy are BG_ERROR_INVALID_ARGUMENT (bg_store_destroy:
 * nothing done, the message also on standard error) instead of undefined behaviour; a
 * destroyed store's few hundred bytes are then kept. Release builds check none of this.
 *
 * Complexity. n is the store's slot count; d a layer's depth; p the points of a batch.
 *
 * ABI RULE. BG_ABI_VERSION names the binary interface. Within one ABI version a release
 * only adds: new functions, new constants, new status codes for new functions. The
 * signature and meaning of an existing function, the layout of bg_layer and of every
 * array above, the values of existing constants and the ownership and lifetime rules do
 * not change; anything that would change them increments BG_ABI_VERSION. Message text is
 * for people and may change in any release: branch on status codes. Treat an unknown
 * status code as a failure. A program checks bg_abi_version() == BG_ABI_VERSION at start
 * when the library is loaded at run time (dlopen, FFI) or may be replaced after linking.
 */
#ifndef BATCHGEOMETRY_H
#define BATCHGEOMETRY_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#define BG_INTERNAL_CAST(type, value) static_cast<type>(value) /* clean under -Wold-style-cast */
#else
#define BG_INTERNAL_CAST(type, value) ((type)(value))
#endif

/* ==== Version ========================================================================= */

/** The library version this header describes: BG_VERSION is major << 16 | minor << 8 | patch. */
#define BG_VERSION_MAJOR 0
#define BG_VERSION_MINOR 1
#define BG_VERSION_PATCH 0
#define BG_VERSION ((BG_VERSION_MAJOR << 16) | (BG_VERSION_MINOR << 8) | BG_VERSION_PATCH)
/** The binary interface this header describes (see ABI RULE above). */
#define BG_ABI_VERSION 2

/** The version of the loaded library, in BG_VERSION's form. Never fails; O(1). */
uint32_t bg_version(void);
/** The ABI version of the loaded library; equal to BG_ABI_VERSION when this header fits it.
 *  Never fails; O(1). */
uint32_t bg_abi_version(void);

/* ==== Status codes and errors ========================================================= */

/** What a call did: BG_OK, or one of the errors below. */
typedef int32_t bg_status;

enum {
    /** Success. */
    BG_OK = 0,
    /** A pointer argument that must not be NULL was NULL (the message names it). */
    BG_ERROR_NULL_ARGUMENT = 1,
    /** An argument outside its domain: an unknown backend or hit-test rule, a negative
     *  thread count, a capacity larger than a store can hold, a count or length whose
     *  buffer could not fit in the address space (the message names the argument). */
    BG_ERROR_INVALID_ARGUMENT = 2,
    /** An output buffer's capacity is smaller than the result; nothing was written except
     *  the needed count (where the function has a count output). */
    BG_ERROR_BUFFER_TOO_SMALL = 3,
    /** A layer handle names no live layer of this store: destroyed, or another store's
     *  (the message says which). */
    BG_ERROR_STALE_LAYER = 4,
    /** The same, for a superlayer argument of a structure edit. */
    BG_ERROR_STALE_SUPERLAYER = 5,
    /** The structure edit would make a layer its own ancestor. */
    BG_ERROR_CYCLE = 6,
    /** A sublayer index outside 0...n (n: the superlayer's other sublayers). */
    BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE = 7,
    /** A scroll-view call on a layer without a content size. */
    BG_ERROR_NOT_A_SCROLL_VIEW = 8,
    /** The store already holds BG_MAX_LAYER_COUNT layers. */
    BG_ERROR_TOO_MANY_LAYERS = 9,
    /** A display scale that is not a positive finite number. */
    BG_ERROR_INVALID_DISPLAY_SCALE = 10,
    /** A malformed scene file; the message is `<path>: <problem>`, as batchbench eval
     *  prints it after `error: `. */
    BG_ERROR_SCENE = 11,
    /** A BATCHGEOMETRY_BACKEND, BATCHGEOMETRY_THREADS, BATCHGEOMETRY_SPLIT or
     *  BATCHGEOMETRY_C_KERNEL value this process cannot use; the message names the
     *  variable. */
    BG_ERROR_ENVIRONMENT = 12
};

/**
 * The message of the last call on this thread that returned an error: one line, UTF-8,
 * NUL-terminated, without `error: `. A successful call leaves it as it was (it is not
 * cleared); "" before the thread's first error. The pointer is the thread's message
 * buffer: it stays valid until the thread ends, and each failing call on the thread
 * overwrites the text in place, so `printf("%s: %s\n", bg_status_name(f()),
 * bg_last_error_message())` prints f's message whichever argument C evaluates first. Copy
 * the text to keep it past the next failure. A message longer than 4,095 bytes is cut at
 * a character boundary and ends in "...". Never fails; O(1) (the first call on a thread
 * allocates its 4 KB buffer, freed when the thread ends).
 */
const char *bg_last_error_message(void);

/** The name of a status code ("BG_OK", "BG_ERROR_CYCLE", ...), or "BG_UNKNOWN_STATUS"
 *  for a value this library does not define. A static string. Never fails; O(1). */
const char *bg_status_name(bg_status status);

/* ==== Layer handles =================================================================== */

/** A layer: (store tag << 20 | generation) << 32 | slot (Swift: LayerHandle.rawValue). */
typedef uint64_t bg_layer;

/** No layer: a root's superlayer, a miss, world space. Never the handle of a live layer
 *  (its generation is odd, and live generations are even). */
#define BG_LAYER_NONE BG_INTERNAL_CAST(bg_layer, UINT64_MAX)

/** The slot of `layer`: its index in every per-layer batch output. */
static inline uint32_t bg_layer_slot(bg_layer layer) { return BG_INTERNAL_CAST(uint32_t, layer & 0xFFFFFFFFu); }
/** The generation of `layer` (20 bits, without the store tag): even while the layer lives. */
static inline uint32_t bg_layer_generation(bg_layer layer) {
    return BG_INTERNAL_CAST(uint32_t, (layer >> 32) & 0xFFFFFu);
}

/** The most layers one store holds (Swift: LayerStore.maximumLayerCount). */
#define BG_MAX_LAYER_COUNT 2147483646

/* ==== Opaque objects ================================================================== */

/** A layer store: the layers' properties and hierarchy, plus caches of the last results
 *  (Swift: a LayerStore value and the storage its batch calls reuse). */
typedef struct bg_store bg_store;
/** A decoded scene file (Swift: Scene). */
typedef struct bg_scene bg_scene;
/** A scene's answers, as `batchbench eval` prints them (Swift: SceneEvaluation). */
typedef struct bg_evaluation bg_evaluation;

/* ==== Stores ========================================================================== */

/**
 * Creates an empty store with room for `capacity` layers before its columns grow, using
 * the process's default backend and threads (BATCHGEOMETRY_BACKEND, BATCHGEOMETRY_THREADS;
 * BG_BACKEND_AUTO and every processor when unset). *out receives the store; free it with
 * bg_store_destroy.
 * Errors: NULL_ARGUMENT (out); INVALID_ARGUMENT (capacity > BG_MAX_LAYER_COUNT);
 * ENVIRONMENT (a BATCHGEOMETRY_* variable this process cannot use). O(capacity).
 */
bg_status bg_store_create(size_t capacity, bg_store **out);

/** A new store with the same layers, handles, properties, display scale and options as
 *  `store`; the two then change independently (copy-on-write: O(1) now, each column copied
 *  on its first change). Errors: NULL_ARGUMENT. */
bg_status bg_store_copy(const bg_store *store, bg_store **out);

/** Frees a store and its caches. NULL is allowed (nothing happens). Every pointer
 *  borrowed from the store (frame columns) becomes invalid. O(1) plus the memory freed. */
void bg_store_destroy(bg_store *store);

/** Reserves room for `capacity` layers in every column (Swift: reserveCapacity).
 *  Errors: NULL_ARGUMENT; INVALID_ARGUMENT (capacity > BG_MAX_LAYER_COUNT). O(capacity). */
bg_status bg_store_reserve(bg_store *store, size_t capacity);

/** The number of slots, live layers plus free ones: the length of every per-layer batch
 *  output (Swift: count). Errors: NULL_ARGUMENT. O(1). */
bg_status bg_store_slot_count(const bg_store *store, size_t *out);

/** The number of live layers, attached or detached (Swift: layerCount). O(1). */
bg_status bg_store_layer_count(const bg_store *store, size_t *out);

/** Whether `layer` names a live layer of the store (Swift: contains). Never an error for a
 *  stale handle: *out is false. Errors: NULL_ARGUMENT. O(1). */
bg_status bg_store_contains(const bg_store *store, bg_layer layer, bool *out);

/** The handle of the live layer in `slot`, or BG_LAYER_NONE when the slot is out of range
 *  or free (Swift: handle(at:)). Errors: NULL_ARGUMENT. O(1). */
bg_status bg_store_handle_at(const bg_store *store, size_t slot, bg_layer *out);

/* ---- Backends and threads ---- */

/** Batch-kernel backends (Swift: Backend). All give bit-identical results (hierarchical
 *  ones agree with the reference to 1e-12 relative); BG_BACKEND_AUTO, the default, runs
 *  each kernel on the one measured fastest for it. The others force one backend for every
 *  kernel: for verification and benchmarks, never faster than BG_BACKEND_AUTO. */
enum {
    /** The process default: BATCHGEOMETRY_BACKEND, or BG_BACKEND_AUTO when unset. */
    BG_BACKEND_DEFAULT = 0,
    /** Plain Swift, one layer at a time: the reference. */
    BG_BACKEND_SCALAR = 1,
    /** Swift SIMD4<Double>. */
    BG_BACKEND_SIMD = 2,
    /** The C kernels (AVX-512, AVX2, NEON or portable, chosen at run time). */
    BG_BACKEND_C = 3,
    /** Each kernel on the backend measured fastest for it (Swift: KernelOptions.backend nil):
     *  frames and the 4x4 world kernel in C, a wide level of the planar world pass in SIMD4. */
    BG_BACKEND_AUTO = 4
};

/**
 * Sets the backend and the number of worker threads the store's batch calls use
 * (Swift: KernelOptions(backend:threads:)). `backend` is a BG_BACKEND_ constant; `threads`
 * 0 means the process default (BATCHGEOMETRY_THREADS, or every processor). Results do not
 * depend on either. Errors: NULL_ARGUMENT; INVALID_ARGUMENT (unknown backend, threads < 0);
 * ENVIRONMENT (a default was asked for and the variable is unusable, or BG_BACKEND_C was
 * asked for and BATCHGEOMETRY_C_KERNEL names an instruction set this build or CPU cannot run).
 * O(1).
 */
bg_status bg_store_set_options(bg_store *store, int32_t backend, int32_t threads);

/** The store's backend (never BG_BACKEND_DEFAULT: the resolved one, BG_BACKEND_AUTO unless a
 *  backend was forced) and thread count.
 *  Either output may be NULL. Errors: NULL_ARGUMENT (store). O(1). */
bg_status bg_store_get_options(const bg_store *store, int32_t *backend, int32_t *threads);

/** The instruction set the C backend runs on this machine: "avx512", "avx2", "neon" or
 *  "portable" (Swift: KernelOptions.cInstructionSet). A static string. Never fails. */
const char *bg_c_instruction_set(void);

/* ---- Display scale ---- */

/** The store's display scale: points to pixels (1, 2 or 3 on iOS; default 1), used only by
 *  content offsets. Errors: NULL_ARGUMENT. O(1). */
bg_status bg_store_get_display_scale(const bg_store *store, double *out);

/** Sets the display scale; changes no geometry by itself (Swift: setDisplayScale).
 *  Errors: NULL_ARGUMENT; INVALID_DISPLAY_SCALE (not a positive finite number). O(1). */
bg_status bg_store_set_display_scale(bg_store *store, double scale);

/* ==== Structure ======================================================================= */

/**
 * Adds a layer with Core Animation's defaults (zero bounds and position, anchor point
 * (0.5, 0.5), identity transforms, visible) as the last sublayer of `superlayer`, or as the
 * last root when `superlayer` is BG_LAYER_NONE; *out receives its handle. It takes a free
 * slot when there is one, else a new slot at the end (Swift: addLayer(superlayer:)).
 * Errors: NULL_ARGUMENT (store, out); STALE_SUPERLAYER; TOO_MANY_LAYERS. Amortized O(1).
 */
bg_status bg_layer_add(bg_store *store, bg_layer superlayer, bg_layer *out);

/**
 * bg_layer_add, but the new layer becomes sublayer number `index` of `superlayer` (0 =
 * back; n, the sublayer count, = the end), or root number `index` among the attached roots
 * when `superlayer` is BG_LAYER_NONE: the row insert of a list (Swift:
 * addLayer(superlayer:at:)). Errors, checked in this order: NULL_ARGUMENT (store, out);
 * STALE_SUPERLAYER; SUBLAYER_INDEX_OUT_OF_RANGE (`index` outside 0...n); TOO_MANY_LAYERS;
 * the store is then unchanged. Expected O(log w) in a list of w >= 64 sublayers once the
 * caches are built (the first frame query or bg_store_warm_up), else O(index); allocates
 * nothing once the store has room.
 */
bg_status bg_layer_add_at(bg_store *store, bg_layer superlayer, int64_t index, bg_layer *out);

/**
 * Moves `layer`, with its subtree, into `superlayer`'s sublayers at position `index`
 * (0 = back), or among the roots when `superlayer` is BG_LAYER_NONE; a detached layer is
 * attached again. Handles stay valid (Swift: insertSublayer(_:into:at:)).
 * Errors, checked in this order: NULL_ARGUMENT; STALE_LAYER; STALE_SUPERLAYER; CYCLE
 * (`superlayer` is `layer` or inside its subtree); SUBLAYER_INDEX_OUT_OF_RANGE (`index`
 * outside 0...n, n = the superlayer's sublayers, or the roots, other than `layer`).
 * O(depth), plus expected O(log w) to find `index` in a list of w >= 64 sublayers once the
 * caches are built (the first frame query or bg_store_warm_up), else O(index); allocates
 * nothing.
 */
bg_status bg_layer_insert(bg_store *store, bg_layer layer, bg_layer superlayer, int64_t index);

/** bg_layer_insert at the end: `layer` becomes the last (frontmost) sublayer of
 *  `superlayer`, or the last root. The same errors but the index. O(depth). */
bg_status bg_layer_move(bg_store *store, bg_layer layer, bg_layer superlayer);

/** Takes `layer` (with its subtree) out of the tree, keeping it, its properties and its
 *  handle: it is not drawn, hit, clipped or visible until bg_layer_insert / bg_layer_move
 *  attaches it again; nothing happens when it is already detached
 *  (Swift: removeFromSuperlayer). Errors: NULL_ARGUMENT; STALE_LAYER. O(1). */
bg_status bg_layer_detach(bg_store *store, bg_layer layer);

/** Destroys `layer` and its subtree: their handles become stale and their slots free. No
 *  other handle or slot changes (Swift: destroyLayer). `destroyed` (may be NULL) receives
 *  how many layers were destroyed. Errors: NULL_ARGUMENT (store); STALE_LAYER. O(subtree). */
bg_status bg_layer_destroy(bg_store *store, bg_layer layer, size_t *destroyed);

/** Whether `layer` or an ancestor is detached (Swift: isDetached). Errors: NULL_ARGUMENT;
 *  STALE_LAYER. O(d). */
bg_status bg_layer_is_detached(const bg_store *store, bg_layer layer, bool *out);

/** The superlayer of `layer`, or BG_LAYER_NONE for a root or a detached layer
 *  (Swift: superlayer(of:)). Errors: NULL_ARGUMENT; STALE_LAYER. O(1). */
bg_status bg_layer_get_superlayer(const bg_store *store, bg_layer layer, bg_layer *out);

/** The sublayers of `layer`, back to front in sublayer order (zPosition not applied)
 *  (Swift: sublayers(of:)). Errors: NULL_ARGUMENT (store, count; out unless capacity is 0);
 *  STALE_LAYER; BUFFER_TOO_SMALL. O(sublayers). */
bg_status bg_layer_get_sublayers(const bg_store *store, bg_layer layer, bg_layer *out, size_t capacity,
                                 size_t *count);

/** The roots (no superlayer, not detached) in order (Swift: roots). Errors as
 *  bg_layer_get_sublayers but STALE_LAYER. O(roots). */
bg_status bg_store_roots(const bg_store *store, bg_layer *out, size_t capacity, size_t *count);

/** Every live layer in depth-first pre-order over the roots, then the detached trees;
 *  each layer after its superlayer (Swift: preorder()). Errors as bg_store_roots. O(n). */
bg_status bg_store_preorder(const bg_store *store, bg_layer *out, size_t capacity, size_t *count);

/* ==== Layer properties ================================================================ */
/* Every getter and setter: Errors: NULL_ARGUMENT (store, and the value pointer);
 * STALE_LAYER. O(1) unless stated. Setters that change a layer's bounds size (bounds,
 * frame) resize its sublayers that have autoresizing masks (O(the sublayers resized)). */

/** The bounds rect: origin = the scroll offset, size = the layer's size. Setting keeps the
 *  position, so the frame grows or shrinks about the anchor point; never rounded. */
bg_status bg_layer_get_bounds(const bg_store *store, bg_layer layer, double out[4]);
bg_status bg_layer_set_bounds(bg_store *store, bg_layer layer, const double bounds[4]);

/** The position point: where the anchor point sits in the superlayer's space. */
bg_status bg_layer_get_position(const bg_store *store, bg_layer layer, double out[2]);
bg_status bg_layer_set_position(bg_store *store, bg_layer layer, const double position[2]);

/**
 * Moves sublayers `start` ..< `start + count` of `superlayer` (in sublayer order, before
 * zPosition) by `offset` {dx, dy}: each one's position becomes position + offset, x and y
 * added apart, exactly as bg_layer_set_position with that sum would set it, one sublayer
 * after another (Swift: offsetPositions(ofSublayersOf:in:by:)). The row move of a list:
 * the rows below an inserted or removed row move by its pitch, in one call, without a
 * handle per row. Errors, checked in this order before anything changes: NULL_ARGUMENT
 * (store, offset); INVALID_ARGUMENT (`count` negative, or `start + count` overflows);
 * STALE_SUPERLAYER (also for BG_LAYER_NONE: the roots are not a list here);
 * SUBLAYER_INDEX_OUT_OF_RANGE (the range not within 0...n, n = the superlayer's
 * sublayers; the message names the first index out of range and n). Expected O(log w) to
 * find and check the range in a list of w >= 64 sublayers once the caches are built (the
 * first frame query or bg_store_warm_up), else O(start + count); plus O(count) for the
 * moves, each cheaper than a bg_layer_set_position; allocates only when the setters would.
 */
bg_status bg_layer_offset_positions(bg_store *store, bg_layer superlayer, int64_t start, int64_t count,
                                    const double offset[2]);

/** UIView's center: the same as the position. */
bg_status bg_layer_get_center(const bg_store *store, bg_layer layer, double out[2]);
bg_status bg_layer_set_center(bg_store *store, bg_layer layer, const double center[2]);

/** The anchor point, in unit coordinates of the bounds (outside 0...1 allowed). Setting
 *  keeps the position, so the frame moves. */
bg_status bg_layer_get_anchor_point(const bg_store *store, bg_layer layer, double out[2]);
bg_status bg_layer_set_anchor_point(bg_store *store, bg_layer layer, const double anchor_point[2]);

/** The z position: toward the eye, and the order among siblings for drawing and for the
 *  layer rule's hit testing. */
bg_status bg_layer_get_z_position(const bg_store *store, bg_layer layer, double *out);
bg_status bg_layer_set_z_position(bg_store *store, bg_layer layer, double z_position);

/** The anchor point's z coordinate. */
bg_status bg_layer_get_anchor_point_z(const bg_store *store, bg_layer layer, double *out);
bg_status bg_layer_set_anchor_point_z(bg_store *store, bg_layer layer, double anchor_point_z);

/**
 * The frame rect, in the superlayer's space: derived from bounds size, anchor point, the
 * affine part of the transform and position, bit for bit as Core Animation
 * (GEOMETRY.md section 3). Setting it runs the frame setter (section 4): under a
 * non-identity transform the size goes through the inverse 2x2 part as a signed vector,
 * so under a rotation the frame does not read back as set, as on a device.
 */
bg_status bg_layer_get_frame(const bg_store *store, bg_layer layer, double out[4]);
bg_status bg_layer_set_frame(bg_store *store, bg_layer layer, const double frame[4]);

/** The transform (a CATransform3D, row-major), applied about the anchor point. */
bg_status bg_layer_get_transform(const bg_store *store, bg_layer layer, double out[16]);
bg_status bg_layer_set_transform(bg_store *store, bg_layer layer, const double transform[16]);

/** The affine part of the transform (UIView.transform): m11 m12 m21 m22 m41 m42. Setting
 *  it sets the whole transform to the affine one. */
bg_status bg_layer_get_affine_transform(const bg_store *store, bg_layer layer, double out[6]);
bg_status bg_layer_set_affine_transform(bg_store *store, bg_layer layer, const double affine[6]);

/** Transform kinds, cheapest first (Swift: TransformKind). */
enum {
    BG_TRANSFORM_IDENTITY = 0,
    BG_TRANSFORM_TRANSLATE = 1,
    BG_TRANSFORM_SCALE = 2,
    BG_TRANSFORM_AFFINE = 3,
    BG_TRANSFORM_THREE_DIMENSIONAL = 4,
    BG_TRANSFORM_PERSPECTIVE = 5
};
/** The kind of the layer's transform, a BG_TRANSFORM_ constant. */
bg_status bg_layer_get_transform_kind(const bg_store *store, bg_layer layer, int32_t *out);

/** The sublayer transform, applied to the sublayers about this layer's anchor point. */
bg_status bg_layer_get_sublayer_transform(const bg_store *store, bg_layer layer, double out[16]);
bg_status bg_layer_set_sublayer_transform(bg_store *store, bg_layer layer, const double transform[16]);

/** geometryFlipped: the sublayers' y axis is mirrored about the middle of the bounds. */
bg_status bg_layer_get_geometry_flipped(const bg_store *store, bg_layer layer, bool *out);
bg_status bg_layer_set_geometry_flipped(bg_store *store, bg_layer layer, bool value);

/** masksToBounds: sublayers are clipped to the bounds, for clip rects and hit testing. */
bg_status bg_layer_get_masks_to_bounds(const bg_store *store, bg_layer layer, bool *out);
bg_status bg_layer_set_masks_to_bounds(bg_store *store, bg_layer layer, bool value);

/** hidden: the layer and its subtree are not drawn, hit or visible. */
bg_status bg_layer_get_hidden(const bg_store *store, bg_layer layer, bool *out);
bg_status bg_layer_set_hidden(bg_store *store, bg_layer layer, bool value);

/** A CATransformLayer: its sublayers keep their z instead of being flattened into it. */
bg_status bg_layer_get_transform_layer(const bg_store *store, bg_layer layer, bool *out);
bg_status bg_layer_set_transform_layer(bg_store *store, bg_layer layer, bool value);

/* ---- Autoresizing ---- */

/** UIViewAutoresizing flags (GEOMETRY.md section 2). */
enum {
    BG_AUTORESIZING_NONE = 0,
    BG_AUTORESIZING_FLEXIBLE_LEFT_MARGIN = 1,
    BG_AUTORESIZING_FLEXIBLE_WIDTH = 2,
    BG_AUTORESIZING_FLEXIBLE_RIGHT_MARGIN = 4,
    BG_AUTORESIZING_FLEXIBLE_TOP_MARGIN = 8,
    BG_AUTORESIZING_FLEXIBLE_HEIGHT = 16,
    BG_AUTORESIZING_FLEXIBLE_BOTTOM_MARGIN = 32,
    BG_AUTORESIZING_ALL = 63
};
/** The autoresizing mask: which parts of the frame follow the superlayer's size. Setting
 *  resizes nothing by itself; bits other than the six flags are dropped, as UIKit
 *  defines none. */
bg_status bg_layer_get_autoresizing_mask(const bg_store *store, bg_layer layer, uint32_t *out);
bg_status bg_layer_set_autoresizing_mask(bg_store *store, bg_layer layer, uint32_t mask);

/** autoresizesSubviews (default true): whether a size change resizes the masked sublayers. */
bg_status bg_layer_get_autoresizes_subviews(const bg_store *store, bg_layer layer, bool *out);
bg_status bg_layer_set_autoresizes_subviews(bg_store *store, bg_layer layer, bool value);

/* ---- Table properties: opacity, userInteractionEnabled (GEOMETRY.md sections 2, 6, 7) ---- */

/** The layer properties read and written by name (Swift: LayerProperty, whose rawValue is
 *  the constant). A value crosses as a double: a flag is 0 or 1. */
enum {
    /** opacity (CALayer.opacity, UIView alpha), default 1: stored as a 32-bit float (the
     *  double rounded to nearest; a finite value beyond the float range becomes an
     *  infinity), read back widened (0.3 reads 0.30000001192092896); never clamped, NaN and
     *  infinities kept. The view rule of hit testing skips a layer, with its subtree, whose
     *  opacity is below 0.01 (a NaN opacity is not skipped). */
    BG_PROPERTY_OPACITY = 0,
    /** userInteractionEnabled (UIView), default 1: 0 makes the view rule of hit testing
     *  skip the layer with its subtree; nothing else reads it. */
    BG_PROPERTY_USER_INTERACTION_ENABLED = 1
};

/** The value of `property` (a BG_PROPERTY_ constant) for `layer` (Swift:
 *  value(of:for:)). Errors: NULL_ARGUMENT (store, out); INVALID_ARGUMENT (unknown
 *  property); STALE_LAYER. O(1). */
bg_status bg_layer_get_property(const bg_store *store, bg_layer layer, int32_t property, double *out);
/** Sets `property` of `layer` (Swift: setValue(_:of:for:)); a flag takes exactly 0 or 1,
 *  any other double is INVALID_ARGUMENT (and changes nothing); opacity takes any double.
 *  Errors: NULL_ARGUMENT (store); INVALID_ARGUMENT (unknown property, a flag's value not
 *  0 or 1); STALE_LAYER. O(1). */
bg_status bg_layer_set_property(bg_store *store, bg_layer layer, int32_t property, double value);

/** The world opacity of `layer`: the product, in double, of the opacities (each widened
 *  from its float) from its root down to it, root first (Swift: worldOpacity(of:);
 *  GEOMETRY.md section 6). Hidden layers and visibility play no part. Errors: NULL_ARGUMENT;
 *  STALE_LAYER. O(d). */
bg_status bg_layer_get_world_opacity(const bg_store *store, bg_layer layer, double *out);

/** The world opacity of every slot into `out` (`capacity` doubles; a free slot's entry is
 *  1), bit for bit bg_layer_get_world_opacity's (Swift: worldOpacities(into:)). Needs no
 *  world update. Errors: NULL_ARGUMENT (store; out unless the store has no slots);
 *  BUFFER_TOO_SMALL. O(n); no allocation once warmed up. */
bg_status bg_store_world_opacities(bg_store *store, double *out, size_t capacity);

/** bg_store_frame_query with each listed layer's world opacity: world_opacities[k] is
 *  out[k]'s, the same bits as bg_store_world_opacities (Swift:
 *  VisibleLayers.worldOpacities). `world_opacities` may be NULL when not wanted, else it
 *  has room for `capacity` doubles. Opacity does not decide visibility: a layer of
 *  opacity 0 is listed when visible. Errors and complexity as bg_store_frame_query. */
bg_status bg_store_frame_query_opacities(bg_store *store, const double viewport[4], bg_layer *out,
                                         double *world_opacities, size_t capacity, size_t *count);

/* ---- Scroll views (GEOMETRY.md section 8) ---- */

/** The content offset: the bounds origin. Setting it rounds each coordinate to the
 *  display scale's pixels as UIScrollView does (at 3x, -187.5 becomes
 *  -187.33333333333334), without clamping. */
bg_status bg_layer_get_content_offset(const bg_store *store, bg_layer layer, double out[2]);
bg_status bg_layer_set_content_offset(bg_store *store, bg_layer layer, const double offset[2]);

/**
 * Whether the layer is a scroll view, and its content size and content insets.
 * `content_size` and `content_inset` may be NULL; they are written only when the layer
 * is a scroll view. Errors: NULL_ARGUMENT (store, is_scroll_view); STALE_LAYER.
 */
bg_status bg_layer_get_scroll_view(const bg_store *store, bg_layer layer, bool *is_scroll_view,
                                   double content_size[2], double content_inset[4]);

/** Makes the layer a scroll view with this content size and insets (NULL insets: zero),
 *  or an ordinary layer when `content_size` is NULL. Errors: NULL_ARGUMENT (store);
 *  STALE_LAYER. */
bg_status bg_layer_set_scroll_view(bg_store *store, bg_layer layer, const double content_size[2],
                                   const double content_inset[4]);

/** The valid content offsets {minX, maxX, minY, maxY}: x in [-left, max(-left, cw + right
 *  - w)], y likewise; NaN in all four when NaN in the numbers leaves no range.
 *  Errors: NULL_ARGUMENT; STALE_LAYER; NOT_A_SCROLL_VIEW. */
bg_status bg_layer_get_scroll_range(const bg_store *store, bg_layer layer, double out[4]);

/** Scrolls to `offset` clamped to the scroll range, then sets it as the content offset
 *  (so it is rounded); `out` (may be NULL) receives the offset set (Swift: scroll(_:to:)).
 *  Errors: NULL_ARGUMENT (store, offset); STALE_LAYER; NOT_A_SCROLL_VIEW. */
bg_status bg_layer_scroll(bg_store *store, bg_layer layer, const double offset[2], double out[2]);

/* ---- Transforms between spaces, one layer at a time ---- */

/** Local(L): from the layer's bounds space to its superlayer's, before the superlayer's
 *  own adjustments (GEOMETRY.md section 5; Swift: localTransform(of:)). */
bg_status bg_layer_get_local_transform(const bg_store *store, bg_layer layer, double out[16]);
/** Adjust(S) = Flip(S) * Sub(S): what the layer applies to all its sublayers
 *  (Swift: sublayerAdjustment(of:)). */
bg_status bg_layer_get_sublayer_adjustment(const bg_store *store, bg_layer layer, double out[16]);
/** Local(L) * Adjust(S) * Flat(S) for a sublayer, Local(L) for a root
 *  (Swift: transformToSuperlayer(of:)). */
bg_status bg_layer_get_transform_to_superlayer(const bg_store *store, bg_layer layer, double out[16]);

/* ==== Batches: frames and world transforms ============================================ */

/**
 * The frame of every slot into `frames` (4 doubles per slot: x, y, width, height; a free
 * slot's is zero), computed by the store's backend and threads into storage the store
 * keeps and reuses, then copied (Swift: computeFrames(into:options:)). `capacity` >= the
 * slot count. Errors: NULL_ARGUMENT (store; frames unless the store has no slots);
 * BUFFER_TOO_SMALL. O(n), no allocation after the first call at a given slot count.
 */
bg_status bg_store_frames(bg_store *store, double *frames, size_t capacity);

/**
 * The same frames, without the copy: computes them into the store's storage and points
 * *x, *y, *width, *height at its four columns (entry i = slot i; *count = the slot count).
 * The pointers are borrowed: valid until the next bg_store_frames or
 * bg_store_frames_columns on this store, or bg_store_destroy; other calls leave them
 * valid (and their values as computed). Errors: NULL_ARGUMENT (any argument). O(n).
 */
bg_status bg_store_frames_columns(bg_store *store, const double **x, const double **y, const double **width,
                                  const double **height, size_t *count);

/**
 * Brings the store's world transforms up to date incrementally: only the subtrees of the
 * layers changed since the last update, unless the hierarchy changed or more than a
 * quarter of the layers did (then a full pass) (Swift: updateWorld(options:)). The world
 * queries below use the result; calling this first is optional (each brings the world up
 * to date the same way when it is not). Errors: NULL_ARGUMENT. O(dirty subtrees), O(n) for
 * a full pass.
 */
bg_status bg_store_update_world(bg_store *store);

/** Marks every layer changed, so the next update is a full pass (Swift: invalidateWorld).
 *  Errors: NULL_ARGUMENT. O(1). */
bg_status bg_store_invalidate_world(bg_store *store);

/**
 * Builds every cache the per-frame calls keep, ahead of the first frame (during a loading
 * screen): the world plan and world transforms (as bg_store_update_world), the cached
 * drawing order, and the subtree bounds and wide layers' R-trees that bg_store_frame_query
 * and bg_store_hit_test walk (Swift: warmUp(options:)). With a `viewport` (a rect; NULL
 * for none) it also runs the frame query over it once (Swift: warmUp(in:into:options:)),
 * so that the storage the store keeps for the query's result has grown to what that
 * viewport shows, and the data the first frame reads are the last touched (in the CPU
 * caches rather than evicted by the build's O(n) walk). Without it the
 * first frame pays for all of this (Benchmarks/README.md, "First frame": 60-100 ms at
 * 110,000 layers, against 13 ms for the next ones). Changes no geometry and no result a
 * query reports (bg_store_get_frame_query_cost included); later edits mark the caches as
 * usual. Errors: NULL_ARGUMENT (store). O(n) the first time, O(changed * d) after edits,
 * plus the frame query's cost with a viewport.
 */
bg_status bg_store_warm_up(bg_store *store, const double *viewport);

/**
 * A full pass of world transforms (ToWorld of every layer, GEOMETRY.md section 5) into
 * storage the store keeps and reuses; the world queries use it until the store changes
 * (Swift: computeWorldTransforms(into:options:)). Use bg_store_update_world instead when
 * few layers changed. Errors: NULL_ARGUMENT. O(n).
 */
bg_status bg_store_compute_world(bg_store *store);

/** ToWorld of every slot into `transforms` (16 doubles per slot, row-major; a free slot's
 *  is the identity), from the current world (brought up to date incrementally unless
 *  bg_store_compute_world made it since the last change). `capacity` >= the slot count.
 *  Errors: NULL_ARGUMENT; BUFFER_TOO_SMALL. O(n) (plus the update). */
bg_status bg_store_world_transforms(bg_store *store, double *transforms, size_t capacity);

/**
 * The affine part of ToWorld of every slot into `affine` (6 doubles per slot: m11 m12 m21
 * m22 m41 m42, as {a, b, c, d, tx, ty}), from the current world as bg_store_world_transforms
 * reads it: a third of the memory, for 2D engines. exact[i] (when `exact` is not NULL) is
 * true when that part maps the layer's plane exactly as the full matrix does (m14 = m24 =
 * 0 and m44 = 1: no perspective), false where only the 16 doubles are right.
 * Errors: NULL_ARGUMENT; BUFFER_TOO_SMALL. O(n) (plus the update).
 */
bg_status bg_store_world_affine_transforms(bg_store *store, double *affine, bool *exact, size_t capacity);

/** ToWorld of one layer from the current world. Errors: NULL_ARGUMENT; STALE_LAYER. O(1)
 *  plus the update. */
bg_status bg_layer_get_world_transform(bg_store *store, bg_layer layer, double out[16]);

/* ==== Batches: world rects, clip rects, visibility (GEOMETRY.md sections 5, 6) ======== */

/**
 * The world rect of every slot into `edges` (4 doubles per slot, edges form): the bounds
 * through ToWorld, projected, with corners behind the eye clipped (the box then reaches to
 * infinity); null (all +infinity) when every corner is behind the eye, for detached
 * layers and free slots (Swift: worldRects(in:options:)). Kept until the store changes, so
 * clip rects and visibility reuse it. Errors: NULL_ARGUMENT; BUFFER_TOO_SMALL. O(n).
 */
bg_status bg_store_world_rects(bg_store *store, double *edges, size_t capacity);

/** The world rect of one layer (edges). Errors: NULL_ARGUMENT; STALE_LAYER. O(1), O(d)
 *  while some layer is detached. */
bg_status bg_layer_get_world_rect(bg_store *store, bg_layer layer, double out[4]);

/**
 * The clip rect of every slot into `edges`: the intersection of the world rects of the
 * ancestors that mask to bounds (Swift: clipRects(worldRects:options:)). A layer no
 * ancestor masks is unclipped: its entry is the infinite rect (-inf, -inf, +inf, +inf)
 * and masked[i] (when `masked` is not NULL) is false; a layer masked away entirely has
 * the null rect. Errors: NULL_ARGUMENT (store, edges); BUFFER_TOO_SMALL. O(n).
 */
bg_status bg_store_clip_rects(bg_store *store, double *edges, bool *masked, size_t capacity);

/**
 * Whether each slot is visible: it and its ancestors are not hidden or detached, its
 * world rect is not null, and its intersection with the clip rect and the viewport has a
 * positive area (Swift: visibility(worldRects:clipRects:viewport:options:)). `viewport` is
 * a rect in world space, or NULL for none. Errors: NULL_ARGUMENT (store, visible);
 * BUFFER_TOO_SMALL. O(n).
 */
bg_status bg_store_visibility(bg_store *store, const double viewport[4], bool *visible, size_t capacity);

/**
 * The layer's bounds as drawn: its four corners through ToWorld, projected, with the part
 * behind the plane W = near_w cut away (Swift: projectedQuad(of:in:nearW:); near_w should
 * be positive, Chromium uses 1e-5, and is not checked, as in Swift). Writes up to 5 points
 * (2 doubles each), going around the bounds from (minX, minY) through (maxX, minY);
 * *count = 0 when it is wholly behind the eye.
 * Errors: NULL_ARGUMENT (store, count; out unless capacity is 0); STALE_LAYER;
 * BUFFER_TOO_SMALL (*count = the points needed). O(1).
 */
bg_status bg_layer_get_projected_quad(bg_store *store, bg_layer layer, double near_w, double *out, size_t capacity,
                                      size_t *count);

/* ==== Hit testing and conversion (GEOMETRY.md sections 5, 7) ========================== */

/** Hit-test rules (Swift: HitTestRule). */
enum {
    /** -[CALayer hitTest:]: sublayers by zPosition, front first; a layer outside its
     *  superlayer can be hit unless an ancestor masks to bounds. */
    BG_HIT_TEST_LAYER = 0,
    /** -[UIView hitTest:withEvent:]: sublayer order; a point outside a layer misses its
     *  whole subtree; a hidden layer, one with userInteractionEnabled 0 and one whose
     *  opacity is below 0.01 is skipped with its subtree. */
    BG_HIT_TEST_VIEW = 1
};

/**
 * Hit-tests `count` world-space points (`points`: 2 doubles each) under `rule`; hits[k]
 * receives the frontmost layer under point k, or BG_LAYER_NONE. `hits` has room for
 * `count` handles. The answers are those of the walk over every layer
 * (Swift: hitTest(points:in:rule:options:)), found by the culled walk
 * (Swift: hitTest(points:rule:into:)): only the subtrees whose subtree bounds hold the
 * point are visited, back to front, with world transforms computed on the way down, so
 * the world need not be up to date first. Like bg_store_frame_query, it brings the
 * store's internal caches up to date and changes nothing else; it runs on the calling
 * thread (the store's thread option does not apply). Errors: NULL_ARGUMENT (store; points
 * and hits unless count is 0); INVALID_ARGUMENT (unknown rule; a count of more points
 * than the address space holds, 16 bytes each: 2^43 on x86-64, 2^44 elsewhere).
 * O(p * (d + visited)), visited being the layers under or near the point (O(p * n) at
 * worst), plus O(changed * d) for the edits since the last frame query or hit test; the
 * first builds the caches, O(n) (bg_store_warm_up builds them ahead). The points are read
 * 65,536 at a time into storage the store keeps: no allocation once warmed up.
 */
bg_status bg_store_hit_test(bg_store *store, const double *points, size_t count, int32_t rule, bg_layer *hits);

/**
 * Converts `count` points (2 doubles each) from the bounds space of `from` to that of `to`
 * (BG_LAYER_NONE: world space, for either) (Swift: convert(points:from:to:in:options:)).
 * `out` (2 doubles per point) may be `points` itself. Where `to` is singular the point
 * cannot be converted: its entry is NaN, NaN and converted[k] (when `converted` is not
 * NULL) is false. Errors: NULL_ARGUMENT (store; points and out unless count is 0);
 * STALE_LAYER (from or to); INVALID_ARGUMENT (a count of more points than the address
 * space holds, as bg_store_hit_test). O(p); the points are read 65,536 at a time, and
 * each group's results allocate (the Swift call has no caller-owned form).
 */
bg_status bg_store_convert_points(bg_store *store, const double *points, size_t count, bg_layer from, bg_layer to,
                                  double *out, bool *converted);

/**
 * Converts a rect from `from`'s bounds space to `to`'s: the bounding box of its converted
 * corners; *converted is false (and `out` NaN) when a corner cannot be converted
 * (Swift: convert(_:from:to:in:) for a Rect). Errors: NULL_ARGUMENT (store, rect, out,
 * converted); STALE_LAYER. O(1).
 */
bg_status bg_store_convert_rect(bg_store *store, const double rect[4], bg_layer from, bg_layer to, double out[4],
                                bool *converted);

/** The point of `layer`'s plane under world point `point`, in its bounds space; *converted
 *  false (out NaN) when the layer is singular (Swift: pointInLayer(_:fromWorld:in:)).
 *  Errors: NULL_ARGUMENT; STALE_LAYER. O(1). */
bg_status bg_layer_point_from_world(bg_store *store, bg_layer layer, const double point[2], double out[2],
                                    bool *converted);

/* ==== Drawing order (GEOMETRY.md section 6) =========================================== */

/**
 * The painter's order, back to front: each layer, then its sublayers stably sorted by
 * zPosition, each with its subtree; roots in order; hidden and detached subtrees left out
 * (Swift: drawOrder(into:scratch:)). Errors: NULL_ARGUMENT (store, count; out unless
 * capacity is 0); BUFFER_TOO_SMALL (*count = the layers needed). O(n), O(n log sublayers)
 * when some sublayers are out of zPosition order (O(n) again once a frame query, hit test
 * or world update has cached the sorted lists). No allocation once warmed up.
 */
bg_status bg_store_draw_order(const bg_store *store, bg_layer *out, size_t capacity, size_t *count);

/**
 * The frame query: the layers that `viewport` (a rect in world space) shows, back to
 * front. Exactly the layers bg_store_visibility marks visible for this viewport, in
 * bg_store_draw_order's order (Swift: visibleLayers(in:into:)), but found by visiting only
 * the layers that the store's subtree bounds cannot rule out, with their world transforms
 * computed on the way down: a frame costs what is on screen, not the store's size, and the
 * world need not be up to date first. Infinite edges are fine ({0, 0, INFINITY, INFINITY}
 * is the whole quadrant x, y >= 0), but a viewport without a positive area shows
 * nothing, and so does one with a NaN edge (a NaN number, or x = -INFINITY with an
 * infinite width), where bg_store_visibility ignores the NaN edges instead. `out`,
 * `capacity` and `count` follow bg_store_draw_order's rules (a capacity of
 * bg_store_slot_count() always suffices; after BUFFER_TOO_SMALL a second call runs the
 * query again).
 *
 * The store keeps the result's storage and reuses it: a frame loop allocates nothing once
 * warmed up. The query first brings the store's internal caches (subtree bounds, sorted
 * sublayer lists) up to date with the edits made since the last one, hence the non-const
 * store; no layer and no other result changes.
 * Errors: NULL_ARGUMENT (store, viewport, count; out unless capacity is 0);
 * BUFFER_TOO_SMALL (*count = the layers needed). O(visible + visited) (see
 * bg_store_get_frame_query_cost) plus O(changed * d) for the edits since the last frame
 * query or hit test; the first call builds the caches, O(n).
 */
bg_status bg_store_frame_query(bg_store *store, const double viewport[4], bg_layer *out, size_t capacity,
                               size_t *count);

/**
 * bg_store_frame_query with what drawing each layer takes, entry k describing out[k]:
 * its world transform (16 doubles, row-major, as bg_store_world_transforms), its world
 * rect and its clip rect (edges, as bg_store_world_rects and bg_store_clip_rects: a layer
 * no ancestor masks has the infinite clip rect and masked[k] false). The values are the
 * full passes' (world transforms bit for bit wherever they are finite). Each of
 * `world_transforms`, `world_rects`, `clip_rects` and `masked` may be NULL when not
 * wanted; each one given has room for `capacity` entries (16, 4, 4 doubles or 1 bool
 * each). On an error none is written. Errors and complexity as bg_store_frame_query.
 */
bg_status bg_store_frame_query_geometry(bg_store *store, const double viewport[4], bg_layer *out,
                                        double *world_transforms, double *world_rects, double *clip_rects,
                                        bool *masked, size_t capacity, size_t *count);

/**
 * What the store's last successful frame query cost: *visited, the layers it computed a
 * world transform for (the visible ones and those it entered to find them); *tested, the
 * sublayers whose subtree bounds it tested against the viewport (Swift:
 * VisibleLayers.visitedLayerCount, testedSublayerCount). Both 0 before the store's first
 * frame query (a copy starts there too). Either output may be NULL.
 * Errors: NULL_ARGUMENT (store). O(1).
 */
bg_status bg_store_get_frame_query_cost(const bg_store *store, size_t *visited, size_t *tested);

/* ==== Scene files (docs/SCENE-FORMAT.md) ============================================== */

/**
 * Decodes a scene file (UTF-8 JSON, `length` bytes, no NUL needed) and builds its layers
 * (Swift: Scene(json:)). Every structural mistake is found here. *out receives the scene;
 * free it with bg_scene_destroy. `json` may be NULL when `length` is 0.
 * Errors: NULL_ARGUMENT (out; json when length > 0); INVALID_ARGUMENT (a length of more
 * bytes than the address space holds: 2^47 on x86-64, 2^48 elsewhere); SCENE (the message is
 * `<path>: <problem>`, e.g. `layers[3].transform: expected 6 or 16 numbers, got 5`).
 * O(length).
 */
bg_status bg_scene_load(const void *json, size_t length, bg_scene **out);

/** Frees a scene; NULL is allowed. */
void bg_scene_destroy(bg_scene *scene);

/** The number of layers in the scene's `layers` array. Errors: NULL_ARGUMENT. O(1). */
bg_status bg_scene_layer_count(const bg_scene *scene, size_t *out);

/** A new store holding the scene's layers as created, before its operations; scene layer
 *  k is in slot k (bg_store_handle_at(store, k)). Free it with bg_store_destroy.
 *  Errors: NULL_ARGUMENT; ENVIRONMENT. O(1) (copy-on-write). */
bg_status bg_scene_store(const bg_scene *scene, bg_store **out);

/**
 * Applies the scene's operations to a copy of its layers and answers every query, as
 * `batchbench eval` does (Swift: Scene.evaluate(options:)), with `backend` and `threads`
 * as in bg_store_set_options. *out receives the answers; free them with
 * bg_evaluation_destroy. Errors: NULL_ARGUMENT; INVALID_ARGUMENT; ENVIRONMENT.
 * O(layers + operations + hit tests * layers).
 */
bg_status bg_scene_evaluate(const bg_scene *scene, int32_t backend, int32_t threads, bg_evaluation **out);

/** Frees an evaluation; NULL is allowed. Its JSON text becomes invalid. */
void bg_evaluation_destroy(bg_evaluation *evaluation);

/** The output document of `batchbench eval`, byte for byte (UTF-8, NUL-terminated;
 *  *length, when `length` is not NULL, excludes the NUL). Borrowed: valid until
 *  bg_evaluation_destroy. Errors: NULL_ARGUMENT (evaluation, text). O(1). */
bg_status bg_evaluation_json(const bg_evaluation *evaluation, const char **text, size_t *length);

/** A new store holding the layers after the operations, to go on with (free it with
 *  bg_store_destroy). Errors: NULL_ARGUMENT; ENVIRONMENT. O(1) (copy-on-write). */
bg_status bg_evaluation_store(const bg_evaluation *evaluation, bg_store **out);

/** The handle, in bg_evaluation_store's stores, of scene layer `scene_index`.
 *  Errors: NULL_ARGUMENT; STALE_LAYER (an operation removed the layer, or the index is
 *  out of range). O(1). */
bg_status bg_evaluation_layer(const bg_evaluation *evaluation, size_t scene_index, bg_layer *out);

/* ==== Curves: timing functions, springs, scroll deceleration (ANIMATION.md 3, 5, 11) == */

/*
 * The curves animations are sampled with, as values that belong to no store: each
 * function runs the Swift call it names (the BatchGeometry types TimingFunction, Spring,
 * ScrollDeceleration), bit for bit, and so follows docs/ANIMATION.md. Parameters travel in
 * plain structs that the caller owns and fills, by hand or with the functions that make
 * them; every call checks the struct it is given, so a struct that breaks its rules (a NaN
 * control point, a negative mass, ...) is BG_ERROR_INVALID_ARGUMENT with a message naming
 * the argument and field (`bg_spring_value: spring.mass must be positive and finite, got
 * -1.0`), and nothing is written. Where Core Animation's setters silently replace a bad
 * value (a mass <= 0 by 1) these functions refuse it instead: a C caller's mistake is an
 * error. Inputs that are numbers of time (t, times, inputs) are not checked: NaN gives
 * NaN, as in Swift.
 *
 * Batch forms take an input array and its count and write one result per input into a
 * caller array with room for `count` results; the arrays may be NULL when `count` is 0. A
 * count whose array could not fit in the address space is INVALID_ARGUMENT; with a
 * batch of structs, every struct is checked before any result is written. Nothing here
 * allocates or keeps state: any thread may call any of these at any time. Cost: a struct
 * is turned into the curve it stands for on every call (for a timing function, its snap
 * to a named one and its coefficients), so the _each forms, one struct per sample, take
 * about twice the time of the Swift batch calls on curves built once (Benchmarks/README.md,
 * "The curve calls": 59 against 28 ns a timing-function sample, 28 against 14 ns a spring).
 */

/** Core Animation's named timing functions (Swift: TimingFunction.Name), in the order in
 *  which a custom curve is compared with them. */
enum {
    /** kCAMediaTimingFunctionDefault: (0.25, 0.1), (0.25, 1). */
    BG_TIMING_FUNCTION_DEFAULT = 0,
    /** kCAMediaTimingFunctionLinear: (0, 0), (1, 1); still solved in floats (0.67 gives
     *  0.669997...). */
    BG_TIMING_FUNCTION_LINEAR = 1,
    /** kCAMediaTimingFunctionEaseIn: (0.42, 0), (1, 1). */
    BG_TIMING_FUNCTION_EASE_IN = 2,
    /** kCAMediaTimingFunctionEaseOut: (0, 0), (0.58, 1). */
    BG_TIMING_FUNCTION_EASE_OUT = 3,
    /** kCAMediaTimingFunctionEaseInEaseOut: (0.42, 0), (0.58, 1). */
    BG_TIMING_FUNCTION_EASE_IN_EASE_OUT = 4,
    /** bg_timing_function_get_name's answer for a curve that is no named one. */
    BG_TIMING_FUNCTION_CUSTOM = -1
};

/** A timing function (CAMediaTimingFunction): the cubic Bezier curve from (0, 0) to (1, 1)
 *  with control points (x1, y1) and (x2, y2), kept as 32-bit floats as Core Animation
 *  keeps them. Rules: x1 and x2 in [0, 1], y1 and y2 finite. A struct whose four floats
 *  are each within 0.001 of a named function's is evaluated as that function
 *  (ANIMATION.md section 3.1), as Core Animation does. */
typedef struct bg_timing_function {
    float x1, y1, x2, y2;
} bg_timing_function;

/** The named function `name` (a BG_TIMING_FUNCTION_ constant other than CUSTOM)
 *  (Swift: TimingFunction(_:)). Errors: NULL_ARGUMENT (out); INVALID_ARGUMENT (unknown
 *  name). O(1). */
bg_status bg_timing_function_named(int32_t name, bg_timing_function *out);

/** A custom function (Swift: TimingFunction(controlPoints:_:_:_:)): the numbers rounded to
 *  floats, then replaced by a named function's points when each is within 0.001 of them.
 *  Errors: NULL_ARGUMENT (out); INVALID_ARGUMENT (x1 or x2 outside [0, 1], any number not
 *  finite; the message names it). O(1). */
bg_status bg_timing_function_make(double x1, double y1, double x2, double y2, bg_timing_function *out);

/** Which named function `function` is (Swift: TimingFunction.name), or
 *  BG_TIMING_FUNCTION_CUSTOM. Errors: NULL_ARGUMENT; INVALID_ARGUMENT (a field breaks the
 *  struct's rules). O(1). */
bg_status bg_timing_function_get_name(const bg_timing_function *function, int32_t *out);

/** The function's progress at time fraction `input`, a float, solved exactly as Core
 *  Animation solves it (Swift: TimingFunction.value(at:); ANIMATION.md section 3.2): the
 *  input rounded to a float, up to 8 Newton steps then bisection. An input outside [0, 1]
 *  extrapolates or gives Y(0) or Y(1). Errors: NULL_ARGUMENT (function, out);
 *  INVALID_ARGUMENT (a field breaks the struct's rules). O(1). */
bg_status bg_timing_function_value(const bg_timing_function *function, double input, float *out);

/** bg_timing_function_value of one function at `count` inputs: out[i] is its value at
 *  inputs[i] (Swift: values(at:into:)). Errors: NULL_ARGUMENT (function; inputs and out
 *  unless count is 0); INVALID_ARGUMENT (the struct; count too large). O(count). */
bg_status bg_timing_function_values(const bg_timing_function *function, const double *inputs, size_t count,
                                    float *out);

/** Many functions, each at its own input, as an engine samples its running animations:
 *  out[i] is functions[i] at inputs[i], bit for bit bg_timing_function_value's (Swift:
 *  TimingFunction.values(of:at:into:)). Errors: NULL_ARGUMENT (functions, inputs and out
 *  unless count is 0); INVALID_ARGUMENT (functions[i] breaks the rules: the message
 *  names i; count too large). O(count). */
bg_status bg_timing_function_values_each(const bg_timing_function *functions, const double *inputs, size_t count,
                                         float *out);

/** A spring (CASpringAnimation's physics): a mass moving from 0 toward 1 (Swift: Spring).
 *  Core Animation's defaults are {1, 100, 10, 0, false}. Rules: mass and stiffness
 *  positive and finite, damping 0 or more and finite, initial_velocity finite. */
typedef struct bg_spring {
    /** The mass. */
    double mass;
    /** The stiffness k. */
    double stiffness;
    /** The damping coefficient c. */
    double damping;
    /** The velocity at time 0, in units of the whole 0 -> 1 change per second. */
    double initial_velocity;
    /** Whether a damping ratio above 1 is overdamped (true) or critically damped (false,
     *  Core Animation's default). */
    bool allows_overdamping;
} bg_spring;

/** The spring's durations, in seconds (Swift: Spring.duration(forEpsilon:speed:),
 *  settlingDuration, perceptualDuration; ANIMATION.md section 5.3). */
typedef struct bg_spring_durations {
    /** durationForEpsilon(epsilon) at the given speed: until the spring stays within
     *  epsilon of 1 (FLT_MAX for an undamped spring or speed 0). */
    double for_epsilon;
    /** settlingDuration: durationForEpsilon(0.001) at speed 1. */
    double settling;
    /** perceptualDuration: sqrt(mass / stiffness) * 2 pi (SwiftUI's response). */
    double perceptual;
} bg_spring_durations;

/** The spring of UIView.animate(withDuration:delay:usingSpringWithDamping:
 *  initialSpringVelocity:...) (Swift: Spring(viewAnimationDuration:dampingRatio:
 *  initialVelocity:); ANIMATION.md section 5.5, a reconstruction): mass 1 and the
 *  stiffness and damping found by twelve Newton steps, with `initial_velocity` and
 *  overdamping off. The duration is clamped to [0.01, 10] s and the ratio to
 *  [FLT_EPSILON, 1]; parameters for which the iteration diverges give a struct with NaN
 *  or infinite fields, which the spring functions then refuse. Errors: NULL_ARGUMENT
 *  (out); INVALID_ARGUMENT (a NaN argument). O(1). */
bg_status bg_spring_for_view_animation(double duration, double damping_ratio, double initial_velocity,
                                       bg_spring *out);

/** The spring's position x(t) after `time` seconds, a double (Swift: Spring.value(at:);
 *  ANIMATION.md section 5.2). Errors: NULL_ARGUMENT (spring, out); INVALID_ARGUMENT (a
 *  field breaks the struct's rules). O(1). */
bg_status bg_spring_value(const bg_spring *spring, double time, double *out);

/** A spring animation's progress at `count` times (seconds of its local time): out[i] is
 *  x(times[i]) rounded to a float, as Core Animation keeps it (Swift:
 *  progress(at:into:)). Errors: NULL_ARGUMENT (spring; times and out unless count is 0);
 *  INVALID_ARGUMENT (the struct; count too large). O(count). */
bg_status bg_spring_progress(const bg_spring *spring, const double *times, size_t count, float *out);

/** Many springs, each at its own time: out[i] is springs[i]'s progress at times[i] (Swift:
 *  Spring.progress(of:at:into:)). Errors: NULL_ARGUMENT (springs, times and out unless
 *  count is 0); INVALID_ARGUMENT (springs[i] breaks the rules: the message names i;
 *  count too large). O(count). */
bg_status bg_spring_progress_each(const bg_spring *springs, const double *times, size_t count, float *out);

/** The spring's durations: for_epsilon with `epsilon` (below 1e-6 counts as 1e-6) and
 *  the animation's `speed` (1 for none), settling and perceptual. Errors: NULL_ARGUMENT
 *  (spring, out); INVALID_ARGUMENT (the struct; a NaN epsilon or speed). O(1) for an
 *  underdamped spring, else a 0.1 s sampled search (a few dozen evaluations for usual
 *  springs, at most 10,000,000). */
bg_status bg_spring_get_durations(const bg_spring *spring, double epsilon, double speed, bg_spring_durations *out);

/** bg_spring_get_durations of `count` springs into out[0 ..< count]. Errors:
 *  NULL_ARGUMENT (springs and out unless count is 0); INVALID_ARGUMENT (springs[i]
 *  breaks the rules: the message names i; a NaN epsilon or speed; count too large).
 *  O(count) such searches. */
bg_status bg_spring_get_durations_each(const bg_spring *springs, size_t count, double epsilon, double speed,
                                       bg_spring_durations *out);

/** UIScrollView.DecelerationRate.normal and .fast, per millisecond. */
#define BG_DECELERATION_RATE_NORMAL 0.998
#define BG_DECELERATION_RATE_FAST 0.99

/** A scroll view decelerating after a drag (Swift: ScrollDeceleration; ANIMATION.md
 *  section 11): the inputs, then what bg_deceleration_make computed from them. The
 *  functions that take one read only the inputs (and check them: offset and velocity
 *  finite, rate not NaN, display_scale positive and finite, scroll_range without NaN and
 *  each minimum <= its maximum); target and duration are outputs. */
typedef struct bg_deceleration {
    /** The content offset at release, in points. */
    double offset[2];
    /** The release velocity, in points per millisecond per axis. */
    double velocity[2];
    /** The rate per millisecond: BG_DECELERATION_RATE_NORMAL or _FAST (any other value
     *  counts as the nearer one: >= 0.994 as normal). */
    double rate;
    /** The display scale whose pixel grid offsets are rounded to (1, 2, 3). */
    double display_scale;
    /** The valid offsets {minX, maxX, minY, maxY}, as bg_layer_get_scroll_range gives
     *  them; {-INFINITY, INFINITY, -INFINITY, INFINITY} for no clamp. */
    double scroll_range[4];
    /** Output: where the scroll comes to rest, clamped and rounded. */
    double target[2];
    /** Output: how long it lasts, in seconds (the slower axis's). */
    double duration;
} bg_deceleration;

/** A deceleration from `offset` at `velocity` (points per millisecond), with its target
 *  and duration (Swift: ScrollDeceleration(offset:velocity:rate:displayScale:
 *  scrollRange:)). `scroll_range` may be NULL for no clamp. *out's rate is the one used
 *  (0.998 or 0.99). Errors: NULL_ARGUMENT (offset, velocity, out); INVALID_ARGUMENT (an
 *  input breaks the struct's rules). O(1). */
bg_status bg_deceleration_make(const double offset[2], const double velocity[2], double rate, double display_scale,
                               const double scroll_range[4], bg_deceleration *out);

/** The deceleration of scroll view `layer` released at `velocity` (points per
 *  millisecond): from its content offset, clamped to its scroll range and rounded to the
 *  store's display scale (Swift: deceleration(of:velocity:rate:)). Errors: NULL_ARGUMENT
 *  (store, velocity, out); STALE_LAYER; NOT_A_SCROLL_VIEW; INVALID_ARGUMENT (a
 *  non-finite velocity, a NaN rate, a NaN in the scroll view's numbers that leaves no
 *  scroll range). O(1). */
bg_status bg_layer_decelerate(const bg_store *store, bg_layer layer, const double velocity[2], double rate,
                              bg_deceleration *out);

/** The content offset `time` seconds after release: per axis the closed form until the
 *  axis stops, its resting offset after, then clamped and rounded like the target
 *  (Swift: offset(at:)). Errors: NULL_ARGUMENT (deceleration, out); INVALID_ARGUMENT (an
 *  input field breaks the rules). O(1). */
bg_status bg_deceleration_offset(const bg_deceleration *deceleration, double time, double out[2]);

/** bg_deceleration_offset at `count` times into `out` (2 doubles per time) (Swift:
 *  offsets(at:into:)). Errors: NULL_ARGUMENT (deceleration; times and out unless count is
 *  0); INVALID_ARGUMENT (the struct; count too large). O(count). */
bg_status bg_deceleration_offsets(const bg_deceleration *deceleration, const double *times, size_t count,
                                  double *out);

/** UIScrollView's rubber band: how far the content moves when a drag pulls it
 *  `overscroll` points beyond an edge, (1 - 1 / ((|x| * constant) / dimension + 1)) *
 *  dimension with the sign of x (Swift: rubberBandOffset(overscroll:dimension:constant:);
 *  a reconstruction; UIKit's constant is 0.55). Errors: NULL_ARGUMENT (out);
 *  INVALID_ARGUMENT (overscroll or constant not finite, dimension not positive and
 *  finite). O(1). */
bg_status bg_rubber_band_offset(double overscroll, double dimension, double constant, double *out);

/* ---- Animations: the presentation tree ---- */

/* What a device draws at time t is the presentation tree: the model values plus every
 * running animation (ANIMATION.md section 10). A bg_animations holds the animations
 * (Swift: AnimationStore) and the presentation values of its latest sample and of the one
 * before it (Swift: two PresentationValues, swapped by each sample); it reads a bg_store
 * (the model) and never writes it. A frame loop: bg_animations_sample(animations, model,
 * t), then read the values (bg_animations_get_presentations) or put them into a second
 * store that stands for the presentation tree (bg_store_copy once, then each frame sample
 * and bg_store_update_presentation, which moves it from the previous sample to the latest
 * in one pass; or bg_store_restore_model_values before the sample and
 * bg_store_apply_presentation after it, the same result) and run any query on it. The
 * host's edits between frames go to both stores, as the same calls (ANIMATION.md section
 * 10 has the rule and its one exception). Animations are numbered
 * 0, 1, 2, ... in the order added; a number is never reused. Errors name the argument
 * and field (for a malformed animation, the Core Animation property: "animation.keyTimes[2]:
 * must be 1") and change nothing. A bg_animations is used by one thread at a time, as a
 * store is (debug builds check the stores' locks, not the animations'). */

/** An opaque set of animations and the presentation values of its latest two samples. */
typedef struct bg_animations bg_animations;

/** What an animation interpolates (Swift: Animation.Content). */
enum {
    /** CABasicAnimation: from_value, to_value, by_value (ANIMATION.md section 4.1). */
    BG_ANIMATION_BASIC = 0,
    /** CASpringAnimation: a basic animation whose progress is `spring`'s (section 5.4). */
    BG_ANIMATION_SPRING = 1,
    /** CAKeyframeAnimation: values, key_times, timing_functions, calculation_mode (section 6). */
    BG_ANIMATION_KEYFRAME = 2
};

/** What shows before the start and after the end (Swift: FillMode; CAMediaTimingFillMode). */
enum {
    /** Nothing outside the active span (kCAFillModeRemoved, the default). */
    BG_FILL_MODE_REMOVED = 0,
    /** The last value after the end. */
    BG_FILL_MODE_FORWARDS = 1,
    /** The first value before the start. */
    BG_FILL_MODE_BACKWARDS = 2,
    /** Both. */
    BG_FILL_MODE_BOTH = 3
};

/** How a keyframe animation goes from value to value (Swift: CalculationMode). */
enum {
    /** Straight lines between the values, at the key times. */
    BG_CALCULATION_MODE_LINEAR = 0,
    /** Each value held until the next key time (key_time_count may be keyframe_count + 1). */
    BG_CALCULATION_MODE_DISCRETE = 1,
    /** Straight lines, key times from the distances between the values (not on whole transforms). */
    BG_CALCULATION_MODE_PACED = 2,
    /** Catmull-Rom tangents for unequal key times (not on whole transforms; key times increase). */
    BG_CALCULATION_MODE_CUBIC = 3
};

/** An animation's CAMediaTiming (Swift: AnimationTiming; ANIMATION.md section 2.2), in the
 *  time of the layer it is added to; seconds. Rules: begin_time, speed, time_offset finite;
 *  duration and repeat_duration finite and >= 0; repeat_count >= 0 (INFINITY: forever);
 *  not both repeat_count and repeat_duration; fill_mode a BG_FILL_MODE_ constant. */
typedef struct bg_media_timing {
    /** When the animation starts, in the layer's time. */
    double begin_time;
    /** One iteration's length; 0 means 0.25 s (Core Animation's default). */
    double duration;
    /** The rate: 0 freezes the animation at time_offset, negative plays it backward. */
    double speed;
    /** Seconds of local time added after the speed. */
    double time_offset;
    /** Iterations to play (fractional allowed); 0 means 1. */
    double repeat_count;
    /** Seconds of active time to play instead of a count; 0 means unused. */
    double repeat_duration;
    /** A BG_FILL_MODE_ constant. */
    int32_t fill_mode;
    /** Whether each iteration plays forward then back. */
    bool autoreverses;
    /** Whether the animation leaves the set at the first sample after its end. */
    bool removed_on_completion;
} bg_media_timing;

/** A layer's own timing (Swift: LayerTiming; ANIMATION.md section 2.1): local time =
 *  (superlayer time - begin_time) * speed + time_offset. All finite. {0, 1, 0} is the
 *  identity. */
typedef struct bg_layer_timing {
    /** Seconds of the superlayer's time. */
    double begin_time;
    /** The rate. */
    double speed;
    /** Seconds added after the speed. */
    double time_offset;
} bg_layer_timing;

/** One animation of one layer property (Swift: Animation), as plain fields and arrays
 *  that bg_animations_add reads and copies (the caller keeps ownership). Start from
 *  bg_animation_init, which sets Core Animation's defaults. A value is `value_count`
 *  doubles: the key path's arity (position 2, bounds 4, opacity 1, ...; ANIMATION.md
 *  section 8), or for "transform" and "sublayerTransform" 16 (row-major) or 6 (an affine
 *  transform a, b, c, d, tx, ty). Every number finite. */
typedef struct bg_animation {
    /** Core Animation's key path, NUL-terminated: "position", "position.x", "bounds",
     *  "bounds.size", "anchorPoint", "zPosition", "opacity", "transform",
     *  "transform.scale", "transform.rotation.z", "sublayerTransform", ... */
    const char *key_path;
    /** A BG_ANIMATION_ constant. */
    int32_t kind;
    /** Keyframe animations: a BG_CALCULATION_MODE_ constant. */
    int32_t calculation_mode;
    /** The media timing. */
    bg_media_timing timing;
    /** Basic and keyframe animations: whether `timing_function` applies (else progress =
     *  time). A spring takes none. */
    bool has_timing_function;
    /** Adds to the value underneath instead of replacing it (section 4.3). */
    bool additive;
    /** Each completed iteration adds the iteration's change (not on whole transforms). */
    bool cumulative;
    /** The animation's timing function, read when has_timing_function. */
    bg_timing_function timing_function;
    /** Spring animations: the spring (bg_spring's rules). */
    bg_spring spring;
    /** The numbers in one value. */
    size_t value_count;
    /** Basic and spring animations: NULL or value_count numbers each (section 4.1 picks
     *  the ends from those given; by_value not on whole transforms). */
    const double *from_value;
    /** See from_value. */
    const double *to_value;
    /** See from_value. */
    const double *by_value;
    /** Keyframe animations: keyframe_count values, one after another
     *  (keyframe_count * value_count numbers). */
    const double *values;
    /** The number of keyframe values, >= 1. */
    size_t keyframe_count;
    /** NULL (evenly spaced) or key_time_count times: 0 first, 1 last, not decreasing. */
    const double *key_times;
    /** keyframe_count (or keyframe_count + 1 for discrete) when key_times is not NULL. */
    size_t key_time_count;
    /** NULL (each segment linear) or keyframe_count - 1 functions, one per segment. */
    const bg_timing_function *timing_functions;
    /** The number of timing_functions. */
    size_t timing_function_count;
} bg_animation;

/** A layer's animatable properties at one sample (Swift: PresentationLayer). */
typedef struct bg_presentation {
    /** The layer (BG_LAYER_NONE when its slot is no longer live in the model). */
    bg_layer layer;
    /** {x, y, width, height}. */
    double bounds[4];
    /** {x, y}. */
    double position[2];
    /** {x, y} in unit coordinates. */
    double anchor_point[2];
    /** zPosition. */
    double z_position;
    /** anchorPointZ. */
    double anchor_point_z;
    /** 16 doubles, row-major. */
    double transform[16];
    /** 16 doubles, row-major. */
    double sublayer_transform[16];
    /** A 32-bit float, as CALayer.opacity. */
    float opacity;
} bg_presentation;

/** Fills *animation with Core Animation's defaults: a basic animation with key_path NULL,
 *  no values, timing {0, 0 (0.25 s), 1, 0, 0, 0, BG_FILL_MODE_REMOVED, false, true}, no
 *  timing function, not additive or cumulative, the spring {1, 100, 10, 0, false}, linear
 *  keyframes. Errors: NULL_ARGUMENT. O(1). */
bg_status bg_animation_init(bg_animation *animation);

/** A new, empty set of animations (Swift: AnimationStore()); free it with
 *  bg_animations_destroy. Errors: NULL_ARGUMENT (out). O(1); allocates. */
bg_status bg_animations_create(bg_animations **out);

/** Frees a set of animations (NULL: nothing). O(animations). */
void bg_animations_destroy(bg_animations *animations);

/** Adds `animation` to `layer` of the model `store`, on top of the layer's stack, and
 *  writes its number to *out (Swift: AnimationStore.add(_:to:in:)). Errors:
 *  NULL_ARGUMENT (animations, store, animation, out, key_path, and an array a count says
 *  is there); STALE_LAYER; INVALID_ARGUMENT (an unknown key path or kind, a value of the
 *  wrong count, a non-finite number, bad key times, a struct breaking its rules, a count
 *  too large; the message names the field and index). Nothing is added on error.
 *  O(values) amortized; the set's arrays grow. */
bg_status bg_animations_add(bg_animations *animations, const bg_store *store, bg_layer layer,
                            const bg_animation *animation, size_t *out);

/** Adds `deceleration` to `layer` of the model `store` as an animation of its
 *  contentOffset (bounds origin, replacing the value underneath) and writes its number
 *  to *out, numbered with the other animations (Swift: AnimationStore.addDeceleration(_:
 *  to:in:timing:); ANIMATION.md section 11). At local time t seconds from its begin
 *  (after the layer's timing and `timing`'s begin_time, speed and time_offset) the bounds
 *  origin is bg_deceleration_offset(deceleration, t): clamped to the struct's scroll
 *  range and rounded to its display scale. It lasts the struct's duration (0: 0.25 s),
 *  once, forwards: `timing`'s duration, repeat_count, repeat_duration and autoreverses
 *  are ignored; fill_mode and removed_on_completion apply. Then it is in
 *  bg_animations_get_finished; bg_animations_remove stops it (UIScrollView's stop on
 *  touch). Set the model's content offset to the struct's target when adding it, as
 *  UIScrollView does, so that the model is right when it ends. `timing` NULL: the
 *  defaults of bg_animation_init. Errors: NULL_ARGUMENT (animations, store,
 *  deceleration, out); STALE_LAYER; INVALID_ARGUMENT (the deceleration's inputs break
 *  its rules; a fill mode out of range or a non-finite begin_time, speed or
 *  time_offset; the message names the field). Nothing is added on error. O(1)
 *  amortized; the set's arrays grow. */
bg_status bg_animations_add_deceleration(bg_animations *animations, const bg_store *store, bg_layer layer,
                                         const bg_deceleration *deceleration, const bg_media_timing *timing,
                                         size_t *out);

/** Removes animation `number` (removeAnimation(forKey:)): it contributes nothing from the
 *  next sample on; removing it again does nothing (Swift: remove(_:)). Errors:
 *  NULL_ARGUMENT; INVALID_ARGUMENT (a number never returned by bg_animations_add).
 *  O(live animations). */
bg_status bg_animations_remove(bg_animations *animations, size_t number);

/** Sets `layer`'s own timing, which maps its superlayer's time to the time of its
 *  animations and its sublayers (Swift: setTiming(_:of:in:)). Errors: NULL_ARGUMENT;
 *  STALE_LAYER; INVALID_ARGUMENT (a non-finite field, named). O(1). */
bg_status bg_animations_set_layer_timing(bg_animations *animations, const bg_store *store, bg_layer layer,
                                         const bg_layer_timing *timing);

/** Samples every live animation at `time` (seconds of the scene's clock) against the
 *  model `store` and keeps the presentation values of the layers they touch; the previous
 *  latest sample's become the one before (for bg_store_update_presentation), and the one
 *  before that is dropped (Swift: sample(at:model:into:)); afterwards the finished list
 *  names every animation that has been after its end, and animations with
 *  removed_on_completion leave the set. The model is only read. Errors: NULL_ARGUMENT;
 *  INVALID_ARGUMENT (a NaN time, or one before the previous sample's). O(live
 *  animations); allocates nothing once warm. */
bg_status bg_animations_sample(bg_animations *animations, const bg_store *store, double time);

/** The number of layers the latest sample animated. Errors: NULL_ARGUMENT. O(1). */
bg_status bg_animations_presentation_count(const bg_animations *animations, size_t *out);

/** `layer`'s presentation values at the latest sample: *animated tells whether an
 *  animation touched it; when none did, *out holds its model values from `store` (its
 *  presentation is its model) (Swift: PresentationValues.values(of:model:), `store` as the
 *  model). Errors: NULL_ARGUMENT (animations, store, out, animated); STALE_LAYER. O(1). */
bg_status bg_animations_get_presentation(const bg_animations *animations, const bg_store *store, bg_layer layer,
                                         bg_presentation *out, bool *animated);

/** The presentation values of every layer the latest sample animated, in the order first
 *  touched, into out[0 ..< *count]; each entry's layer is its handle in `store`, and the
 *  properties no animation wrote are `store`'s (pass the model sampled). When
 *  `capacity` is too small, *count is the number needed, nothing else is written, and
 *  the status is BUFFER_TOO_SMALL. Errors: NULL_ARGUMENT (animations, store, count; out
 *  unless capacity is 0); BUFFER_TOO_SMALL; INVALID_ARGUMENT (`store` has fewer slots than
 *  the store sampled). O(animated layers). */
bg_status bg_animations_get_presentations(const bg_animations *animations, const bg_store *store,
                                          bg_presentation *out, size_t capacity, size_t *count);

/** The numbers of the animations that have finished (been after their end) at the latest
 *  sample or an earlier one, ascending (Swift: finished), with the buffer rules of
 *  bg_animations_get_presentations. Errors: NULL_ARGUMENT; BUFFER_TOO_SMALL.
 *  O(finished). */
bg_status bg_animations_get_finished(const bg_animations *animations, size_t *out, size_t capacity,
                                     size_t *count);

/** Writes the latest sample's presentation values into `store`, which then stands for the
 *  presentation tree; every query answers for it (Swift: LayerStore.applyPresentation(_:);
 *  ANIMATION.md section 10). Use a copy of the model (bg_store_copy). Only properties that
 *  differ are written; a slot not live in `store` is skipped. Errors: NULL_ARGUMENT.
 *  O(animated layers); allocates nothing. */
bg_status bg_store_apply_presentation(bg_store *store, const bg_animations *animations);

/** Puts the model's values back into `store` for the layers the latest sample touched:
 *  the undo of bg_store_apply_presentation, called before the next sample so that one
 *  presentation store follows a frame loop (Swift: restoreModelValues(of:from:)). Errors:
 *  NULL_ARGUMENT; INVALID_ARGUMENT (`model` is `store`). O(animated layers); allocates
 *  nothing. */
bg_status bg_store_restore_model_values(bg_store *store, const bg_animations *animations, const bg_store *model);

/** Moves `store`, a presentation tree kept across frames, from the sample before the
 *  latest to the latest: the result of bg_store_restore_model_values before the latest
 *  sample then bg_store_apply_presentation after it, in one pass that writes each property
 *  once (Swift: LayerStore.updatePresentation(from:to:model:); ANIMATION.md section 10).
 *  A property both samples wrote gets the latest value, written only when it differs; one
 *  only the previous sample wrote gets `model`'s value back; a slot not live in `store` is
 *  skipped. Before the second sample the previous one is empty (the call applies the
 *  latest); on a fresh bg_store_copy of the model it gives what the apply gives. Errors:
 *  NULL_ARGUMENT; INVALID_ARGUMENT (`model` is `store`). O(animated layers of both
 *  samples); allocates nothing. */
bg_status bg_store_update_presentation(bg_store *store, const bg_animations *animations, const bg_store *model);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BATCHGEOMETRY_H */
