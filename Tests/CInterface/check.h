/*
 * check.h: the small test harness of the C interface tests (test_c_api.c): checks that
 * count passes and failures, expected statuses with exact messages, and a fingerprint of
 * a store's whole state, so that every failing call can be shown to change nothing.
 */
#ifndef BATCHGEOMETRY_CHECK_H
#define BATCHGEOMETRY_CHECK_H

#include "batchgeometry.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int checks_passed, checks_failed;
static const char *current_case = "";

static void check_at(int ok, const char *what, int line) {
    if (ok) {
        checks_passed++;
    } else {
        checks_failed++;
        printf("FAIL [%s] line %d: %s\n", current_case, line, what);
    }
}
#define CHECK(condition) check_at((condition) != 0, #condition, __LINE__)

/* A formatted string in one of eight rotating buffers (for expected messages). */
static const char *fmt(const char *format, ...) {
    static char buffers[8][512];
    static int next;
    char *buffer = buffers[next++ % 8];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(buffer, sizeof buffers[0], format, arguments);
    va_end(arguments);
    return buffer;
}

/* The text bg_layer handles have in messages: "layer <slot>#<generation>". */
static const char *handle_text(bg_layer layer) {
    return fmt("layer %u#%u", bg_layer_slot(layer), bg_layer_generation(layer));
}

/* Checks a call's status and, when `message` is not NULL, bg_last_error_message() exactly. */
static void expect_at(bg_status got, const char *call, bg_status want, const char *message, int line) {
    char what[1024];
    if (got != want) {
        snprintf(what, sizeof what, "%s returned %s (%s), expected %s", call, bg_status_name(got),
                 bg_last_error_message(), bg_status_name(want));
        check_at(0, what, line);
        return;
    }
    if (message != NULL && strcmp(bg_last_error_message(), message) != 0) {
        snprintf(what, sizeof what, "%s: message \"%s\", expected \"%s\"", call, bg_last_error_message(), message);
        check_at(0, what, line);
        return;
    }
    check_at(1, call, line);
}
#define EXPECT(call, status, message) expect_at((call), #call, (status), (message), __LINE__)
#define EXPECT_OK(call) expect_at((call), #call, BG_OK, NULL, __LINE__)

/* Exact equality of doubles, NaN equal to NaN (the library's results are bit-defined). */
static int same_double(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

static void expect_doubles_at(const double *got, const double *want, int n, const char *what, int line) {
    for (int i = 0; i < n; i++) {
        if (!same_double(got[i], want[i])) {
            check_at(0, fmt("%s[%d] = %.17g, expected %.17g", what, i, got[i], want[i]), line);
            return;
        }
    }
    check_at(1, what, line);
}
#define EXPECT_DOUBLES(got, n, ...)                                                                  \
    do {                                                                                             \
        const double expected_[] = {__VA_ARGS__};                                                    \
        expect_doubles_at((got), expected_, (n), #got, __LINE__);                                    \
    } while (0)

static void expect_near_at(double got, double want, double tolerance, const char *what, int line) {
    check_at(fabs(got - want) <= tolerance, fmt("%s = %.17g, expected %.17g (+- %g)", what, got, want, tolerance),
             line);
}
#define EXPECT_NEAR(got, want, tolerance) expect_near_at((got), (want), (tolerance), #got, __LINE__)

/* ---- A fingerprint of everything a store holds, read through the getters ---- */

static unsigned long long fingerprint_hash;
static void mix(const void *bytes, size_t count) {
    const unsigned char *p = (const unsigned char *)bytes;
    for (size_t i = 0; i < count; i++) fingerprint_hash = (fingerprint_hash ^ p[i]) * 1099511628211ull;
}

/* FNV-1a over the slot and layer counts, the display scale and, for every live layer, its
 * handle, superlayer, sublayers and every stored property. */
static unsigned long long fingerprint(const bg_store *store) {
    fingerprint_hash = 14695981039346656037ull;
    size_t slots = 0, layers = 0;
    double scale = 0;
    bg_store_slot_count(store, &slots);
    bg_store_layer_count(store, &layers);
    bg_store_get_display_scale(store, &scale);
    mix(&slots, sizeof slots);
    mix(&layers, sizeof layers);
    mix(&scale, sizeof scale);
    for (size_t slot = 0; slot < slots; slot++) {
        bg_layer layer = BG_LAYER_NONE, superlayer = BG_LAYER_NONE, sublayers[64];
        size_t count = 0;
        double values[16];
        bool flag = false, detached = false;
        uint32_t mask = 0;
        bg_store_handle_at(store, slot, &layer);
        mix(&layer, sizeof layer);
        if (layer == BG_LAYER_NONE) continue;
        bg_layer_get_superlayer(store, layer, &superlayer);
        mix(&superlayer, sizeof superlayer);
        if (bg_layer_get_sublayers(store, layer, sublayers, 64, &count) == BG_OK) {
            mix(sublayers, count * sizeof(bg_layer));
        }
        mix(&count, sizeof count);
        bg_layer_is_detached(store, layer, &detached);
        mix(&detached, sizeof detached);
        bg_layer_get_bounds(store, layer, values);
        mix(values, 4 * sizeof(double));
        bg_layer_get_position(store, layer, values);
        mix(values, 2 * sizeof(double));
        bg_layer_get_anchor_point(store, layer, values);
        mix(values, 2 * sizeof(double));
        bg_layer_get_z_position(store, layer, values);
        bg_layer_get_anchor_point_z(store, layer, values + 1);
        mix(values, 2 * sizeof(double));
        bg_layer_get_transform(store, layer, values);
        mix(values, 16 * sizeof(double));
        bg_layer_get_sublayer_transform(store, layer, values);
        mix(values, 16 * sizeof(double));
        bg_layer_get_geometry_flipped(store, layer, &flag);
        mix(&flag, sizeof flag);
        bg_layer_get_masks_to_bounds(store, layer, &flag);
        mix(&flag, sizeof flag);
        bg_layer_get_hidden(store, layer, &flag);
        mix(&flag, sizeof flag);
        bg_layer_get_transform_layer(store, layer, &flag);
        mix(&flag, sizeof flag);
        bg_layer_get_autoresizes_subviews(store, layer, &flag);
        mix(&flag, sizeof flag);
        bg_layer_get_autoresizing_mask(store, layer, &mask);
        mix(&mask, sizeof mask);
        bg_layer_get_property(store, layer, BG_PROPERTY_OPACITY, values);
        bg_layer_get_property(store, layer, BG_PROPERTY_USER_INTERACTION_ENABLED, values + 1);
        mix(values, 2 * sizeof(double));
        memset(values, 0, sizeof values);
        bg_layer_get_scroll_view(store, layer, &flag, values, values + 2);
        mix(&flag, sizeof flag);
        mix(values, 6 * sizeof(double));
    }
    return fingerprint_hash;
}

#endif
