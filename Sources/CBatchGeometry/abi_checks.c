/*
 * CBatchGeometry: the C interface's header, batchgeometry.h (in include/), as a SwiftPM C
 * target, so that the Swift target BatchGeometryC can import it and check every exported
 * function against it (Sources/BatchGeometryC/SignatureCheck.swift). A C target needs a
 * source file: this one compiles the header as C with the package's settings and checks
 * the facts of its ABI that the compiler can check. The library's code is all in
 * BatchGeometryC.
 */
#include "batchgeometry.h"

#include <limits.h>
#include <stddef.h>

_Static_assert(sizeof(bg_layer) == 8, "a layer handle is 64 bits: generation << 32 | slot");
_Static_assert(sizeof(bg_status) == 4, "status codes are 32-bit");
_Static_assert(BG_LAYER_NONE == UINT64_MAX, "BG_LAYER_NONE is all ones (an odd generation: never live)");
_Static_assert((BG_LAYER_NONE >> 32) % 2 == 1, "BG_LAYER_NONE's generation is odd");
_Static_assert(BG_MAX_LAYER_COUNT == INT32_MAX - 1, "slots are stored as Int32 (LayerStore.maximumLayerCount)");
_Static_assert(BG_AUTORESIZING_ALL == 63, "six autoresizing flags");
_Static_assert(BG_VERSION == ((BG_VERSION_MAJOR << 16) | (BG_VERSION_MINOR << 8) | BG_VERSION_PATCH),
               "BG_VERSION packs major, minor, patch");
_Static_assert(sizeof(size_t) == 8 && sizeof(void *) == 8, "the C interface is built for 64-bit platforms");
_Static_assert(sizeof(bg_timing_function) == 16, "a timing function is four floats");
_Static_assert(sizeof(bg_spring) == 40 && offsetof(bg_spring, allows_overdamping) == 32,
               "a spring is four doubles and a bool, padded to 40 bytes");
_Static_assert(sizeof(bg_spring_durations) == 24, "three durations");
_Static_assert(sizeof(bg_deceleration) == 13 * sizeof(double), "a deceleration is 13 doubles, no padding");
_Static_assert(sizeof(bg_media_timing) == 56, "six doubles, a fill mode and two bools, padded to 56 bytes");
_Static_assert(sizeof(bg_layer_timing) == 24, "three doubles");
_Static_assert(sizeof(bg_presentation) == 8 + 43 * sizeof(double),
               "a handle, 42 doubles and a float padded to 8 bytes");
_Static_assert(offsetof(bg_animation, timing) == 16 && offsetof(bg_animation, spring) == 96,
               "bg_animation's layout: key path, two enums, timing, three bools, a timing function, a spring");
