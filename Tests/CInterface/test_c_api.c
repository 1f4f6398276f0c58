/*
 * test_c_api.c: the C interface (batchgeometry.h) tested from C, built and run by
 * scripts/c-examples.sh (with -std=c99 -Wall -Wextra -Werror -ffp-contract=off).
 *
 * Three tables call every function that takes a store with bad input and check the
 * status, the exact message and that the store did not change: a NULL store, a stale
 * handle in every form (a freed slot, a slot past the end, BG_LAYER_NONE), a NULL for
 * every other pointer, a too-small buffer; each row also runs the call with good input.
 * The other cases check results against docs/GEOMETRY.md's worked examples and against
 * values computed here by hand from its formulas. A frame loop of every per-frame call
 * must allocate nothing once warmed up (allocations.h counts malloc and friends).
 * scripts/c-examples.sh checks that every function and status code of the header appears
 * in this file.
 *
 * usage: test_c_api SCENE.json EXPECTED-OUTPUT.json   (the example of docs/SCENE-FORMAT.md)
 * The last line is "N passed, M failed"; the exit status is 1 when M > 0.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, pthreads */
#include "allocations.h"
#include "check.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The bytes of the user address space the library assumes (Values.swift). */
#if defined(__x86_64__)
#define ADDRESS_SPACE (1ull << 47)
#else
#define ADDRESS_SPACE (1ull << 48)
#endif

/* ==== A fixture: the store every table row starts from ================================ */

/* root (0, 0, 375, 812) > L (a scroll view at frame (10, 20, 100, 50), content 100 x 500)
 * > child; a fourth layer was added under root and destroyed, so slot 3 is free. */
static bg_store *S;
static bg_layer root, L, child, dead;
static double D[64];
static bool B[8];
static bg_layer H[8];
static size_t N;
static int32_t I32;
static uint32_t U32;

static void make_fixture(void) {
    const double window[4] = {0, 0, 375, 812}, frame[4] = {10, 20, 100, 50}, content[2] = {100, 500};
    bg_store_create(0, &S);
    bg_layer_add(S, BG_LAYER_NONE, &root);
    bg_layer_set_frame(S, root, window);
    bg_layer_add(S, root, &L);
    bg_layer_set_frame(S, L, frame);
    bg_layer_set_scroll_view(S, L, content, NULL);
    bg_layer_add(S, L, &child);
    bg_layer_add(S, root, &dead);
    bg_layer_destroy(S, dead, NULL);
}

static void free_fixture(void) {
    bg_store_destroy(S);
    S = NULL;
}

/* ==== Table 1: every function that takes a store, with a NULL store, stale handles and
 *      good input ==================================================================== */

typedef bg_status (*api_call)(void);
#define ADAPTER(id, expression)                                                                      \
    static bg_status id(void) { return expression; }

static const double P2[2] = {1, 2}, R4[4] = {1, 2, 30, 40}, A6[6] = {1, 0, 0, 1, 5, 6};
static const double M16[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 4, 0, 1};
static const double *V = NULL; /* no viewport */
/* The fixture's window: it shows root and L (child has no area). */
static const double VP[4] = {0, 0, 375, 812};

ADAPTER(a_slot_count, bg_store_slot_count(S, &N))
ADAPTER(a_layer_count, bg_store_layer_count(S, &N))
ADAPTER(a_contains, bg_store_contains(S, L, B))
ADAPTER(a_handle_at, bg_store_handle_at(S, 0, H))
ADAPTER(a_copy, bg_store_copy(S, (bg_store **)(void *)H))
ADAPTER(a_reserve, bg_store_reserve(S, 16))
ADAPTER(a_set_options, bg_store_set_options(S, BG_BACKEND_SCALAR, 1))
ADAPTER(a_get_options, bg_store_get_options(S, &I32, &I32))
ADAPTER(a_get_display_scale, bg_store_get_display_scale(S, D))
ADAPTER(a_set_display_scale, bg_store_set_display_scale(S, 2))
ADAPTER(a_add, bg_layer_add(S, L, H))
ADAPTER(a_add_at, bg_layer_add_at(S, L, 0, H))
ADAPTER(a_insert, bg_layer_insert(S, L, root, 0))
ADAPTER(a_move, bg_layer_move(S, L, BG_LAYER_NONE))
ADAPTER(a_detach, bg_layer_detach(S, L))
ADAPTER(a_destroy, bg_layer_destroy(S, L, &N))
ADAPTER(a_is_detached, bg_layer_is_detached(S, L, B))
ADAPTER(a_get_superlayer, bg_layer_get_superlayer(S, L, H))
ADAPTER(a_get_sublayers, bg_layer_get_sublayers(S, L, H, 8, &N))
ADAPTER(a_roots, bg_store_roots(S, H, 8, &N))
ADAPTER(a_preorder, bg_store_preorder(S, H, 8, &N))
ADAPTER(a_get_bounds, bg_layer_get_bounds(S, L, D))
ADAPTER(a_set_bounds, bg_layer_set_bounds(S, L, R4))
ADAPTER(a_get_position, bg_layer_get_position(S, L, D))
ADAPTER(a_set_position, bg_layer_set_position(S, L, P2))
ADAPTER(a_offset_positions, bg_layer_offset_positions(S, L, 0, 1, P2))
ADAPTER(a_get_center, bg_layer_get_center(S, L, D))
ADAPTER(a_set_center, bg_layer_set_center(S, L, P2))
ADAPTER(a_get_anchor_point, bg_layer_get_anchor_point(S, L, D))
ADAPTER(a_set_anchor_point, bg_layer_set_anchor_point(S, L, P2))
ADAPTER(a_get_z_position, bg_layer_get_z_position(S, L, D))
ADAPTER(a_set_z_position, bg_layer_set_z_position(S, L, 3))
ADAPTER(a_get_anchor_point_z, bg_layer_get_anchor_point_z(S, L, D))
ADAPTER(a_set_anchor_point_z, bg_layer_set_anchor_point_z(S, L, 3))
ADAPTER(a_get_frame, bg_layer_get_frame(S, L, D))
ADAPTER(a_set_frame, bg_layer_set_frame(S, L, R4))
ADAPTER(a_get_transform, bg_layer_get_transform(S, L, D))
ADAPTER(a_set_transform, bg_layer_set_transform(S, L, M16))
ADAPTER(a_get_affine_transform, bg_layer_get_affine_transform(S, L, D))
ADAPTER(a_set_affine_transform, bg_layer_set_affine_transform(S, L, A6))
ADAPTER(a_get_transform_kind, bg_layer_get_transform_kind(S, L, &I32))
ADAPTER(a_get_sublayer_transform, bg_layer_get_sublayer_transform(S, L, D))
ADAPTER(a_set_sublayer_transform, bg_layer_set_sublayer_transform(S, L, M16))
ADAPTER(a_get_geometry_flipped, bg_layer_get_geometry_flipped(S, L, B))
ADAPTER(a_set_geometry_flipped, bg_layer_set_geometry_flipped(S, L, true))
ADAPTER(a_get_masks_to_bounds, bg_layer_get_masks_to_bounds(S, L, B))
ADAPTER(a_set_masks_to_bounds, bg_layer_set_masks_to_bounds(S, L, true))
ADAPTER(a_get_hidden, bg_layer_get_hidden(S, L, B))
ADAPTER(a_set_hidden, bg_layer_set_hidden(S, L, true))
ADAPTER(a_get_transform_layer, bg_layer_get_transform_layer(S, L, B))
ADAPTER(a_set_transform_layer, bg_layer_set_transform_layer(S, L, true))
ADAPTER(a_get_autoresizing_mask, bg_layer_get_autoresizing_mask(S, L, &U32))
ADAPTER(a_set_autoresizing_mask, bg_layer_set_autoresizing_mask(S, L, BG_AUTORESIZING_ALL))
ADAPTER(a_get_autoresizes_subviews, bg_layer_get_autoresizes_subviews(S, L, B))
ADAPTER(a_set_autoresizes_subviews, bg_layer_set_autoresizes_subviews(S, L, false))
ADAPTER(a_get_content_offset, bg_layer_get_content_offset(S, L, D))
ADAPTER(a_set_content_offset, bg_layer_set_content_offset(S, L, P2))
ADAPTER(a_get_scroll_view, bg_layer_get_scroll_view(S, L, B, D, D + 2))
ADAPTER(a_set_scroll_view, bg_layer_set_scroll_view(S, L, P2, R4))
ADAPTER(a_get_scroll_range, bg_layer_get_scroll_range(S, L, D))
ADAPTER(a_scroll, bg_layer_scroll(S, L, P2, D))
ADAPTER(a_get_local_transform, bg_layer_get_local_transform(S, L, D))
ADAPTER(a_get_sublayer_adjustment, bg_layer_get_sublayer_adjustment(S, L, D))
ADAPTER(a_get_transform_to_superlayer, bg_layer_get_transform_to_superlayer(S, L, D))
ADAPTER(a_frames, bg_store_frames(S, D, 16))
ADAPTER(a_frames_columns,
        bg_store_frames_columns(S, (const double **)(void *)H, (const double **)(void *)(H + 1),
                                (const double **)(void *)(H + 2), (const double **)(void *)(H + 3), &N))
ADAPTER(a_update_world, bg_store_update_world(S))
ADAPTER(a_invalidate_world, bg_store_invalidate_world(S))
ADAPTER(a_warm_up, bg_store_warm_up(S, VP))
ADAPTER(a_compute_world, bg_store_compute_world(S))
ADAPTER(a_world_transforms, bg_store_world_transforms(S, D, 4))
ADAPTER(a_world_affine_transforms, bg_store_world_affine_transforms(S, D, B, 4))
ADAPTER(a_get_world_transform, bg_layer_get_world_transform(S, L, D))
ADAPTER(a_world_rects, bg_store_world_rects(S, D, 4))
ADAPTER(a_get_world_rect, bg_layer_get_world_rect(S, L, D))
ADAPTER(a_clip_rects, bg_store_clip_rects(S, D, B, 4))
ADAPTER(a_visibility, bg_store_visibility(S, V, B, 4))
ADAPTER(a_get_projected_quad, bg_layer_get_projected_quad(S, L, 1e-5, D, 5, &N))
ADAPTER(a_hit_test, bg_store_hit_test(S, P2, 1, BG_HIT_TEST_LAYER, H))
ADAPTER(a_convert_points_from, bg_store_convert_points(S, P2, 1, L, BG_LAYER_NONE, D, B))
ADAPTER(a_convert_points_to, bg_store_convert_points(S, P2, 1, BG_LAYER_NONE, L, D, B))
ADAPTER(a_convert_rect_from, bg_store_convert_rect(S, R4, L, BG_LAYER_NONE, D, B))
ADAPTER(a_convert_rect_to, bg_store_convert_rect(S, R4, root, L, D, B))
ADAPTER(a_point_from_world, bg_layer_point_from_world(S, L, P2, D, B))
ADAPTER(a_draw_order, bg_store_draw_order(S, H, 8, &N))
ADAPTER(a_frame_query, bg_store_frame_query(S, VP, H, 8, &N))
ADAPTER(a_frame_query_geometry, bg_store_frame_query_geometry(S, VP, H, D, D + 32, D + 40, B, 2, &N))
ADAPTER(a_get_frame_query_cost, bg_store_get_frame_query_cost(S, &N, NULL))
ADAPTER(a_get_property, bg_layer_get_property(S, L, BG_PROPERTY_OPACITY, D))
ADAPTER(a_set_property, bg_layer_set_property(S, L, BG_PROPERTY_USER_INTERACTION_ENABLED, 0))
ADAPTER(a_get_world_opacity, bg_layer_get_world_opacity(S, L, D))
ADAPTER(a_world_opacities, bg_store_world_opacities(S, D, 4))
ADAPTER(a_frame_query_opacities, bg_store_frame_query_opacities(S, VP, H, D, 2, &N))

/* How a row reports a stale L: as the accessors do (the wording of
 * LayerStore+Handles.swift), as the structure edits do (LayerStoreError.staleLayer), as a
 * stale superlayer, or not at all (the row takes no layer). For SUPERLAYER and SPACE rows
 * (an accessor whose BG_LAYER_NONE means world space) BG_LAYER_NONE is valid input. */
enum stale_kind { NO_LAYER, ACCESSOR, SPACE, EDIT, SUPERLAYER };

static const struct table_row {
    const char *name;
    api_call call;
    enum stale_kind stale;
} store_calls[] = {
    {"bg_store_slot_count", a_slot_count, NO_LAYER},
    {"bg_store_layer_count", a_layer_count, NO_LAYER},
    {"bg_store_contains", a_contains, NO_LAYER},
    {"bg_store_handle_at", a_handle_at, NO_LAYER},
    {"bg_store_copy", a_copy, NO_LAYER},
    {"bg_store_reserve", a_reserve, NO_LAYER},
    {"bg_store_set_options", a_set_options, NO_LAYER},
    {"bg_store_get_options", a_get_options, NO_LAYER},
    {"bg_store_get_display_scale", a_get_display_scale, NO_LAYER},
    {"bg_store_set_display_scale", a_set_display_scale, NO_LAYER},
    {"bg_layer_add", a_add, SUPERLAYER},
    {"bg_layer_add_at", a_add_at, SUPERLAYER},
    {"bg_layer_insert", a_insert, EDIT},
    {"bg_layer_move", a_move, EDIT},
    {"bg_layer_detach", a_detach, EDIT},
    {"bg_layer_destroy", a_destroy, EDIT},
    {"bg_layer_is_detached", a_is_detached, ACCESSOR},
    {"bg_layer_get_superlayer", a_get_superlayer, ACCESSOR},
    {"bg_layer_get_sublayers", a_get_sublayers, ACCESSOR},
    {"bg_store_roots", a_roots, NO_LAYER},
    {"bg_store_preorder", a_preorder, NO_LAYER},
    {"bg_layer_get_bounds", a_get_bounds, ACCESSOR},
    {"bg_layer_set_bounds", a_set_bounds, ACCESSOR},
    {"bg_layer_get_position", a_get_position, ACCESSOR},
    {"bg_layer_set_position", a_set_position, ACCESSOR},
    {"bg_layer_offset_positions", a_offset_positions, SUPERLAYER},
    {"bg_layer_get_center", a_get_center, ACCESSOR},
    {"bg_layer_set_center", a_set_center, ACCESSOR},
    {"bg_layer_get_anchor_point", a_get_anchor_point, ACCESSOR},
    {"bg_layer_set_anchor_point", a_set_anchor_point, ACCESSOR},
    {"bg_layer_get_z_position", a_get_z_position, ACCESSOR},
    {"bg_layer_set_z_position", a_set_z_position, ACCESSOR},
    {"bg_layer_get_anchor_point_z", a_get_anchor_point_z, ACCESSOR},
    {"bg_layer_set_anchor_point_z", a_set_anchor_point_z, ACCESSOR},
    {"bg_layer_get_frame", a_get_frame, ACCESSOR},
    {"bg_layer_set_frame", a_set_frame, ACCESSOR},
    {"bg_layer_get_transform", a_get_transform, ACCESSOR},
    {"bg_layer_set_transform", a_set_transform, ACCESSOR},
    {"bg_layer_get_affine_transform", a_get_affine_transform, ACCESSOR},
    {"bg_layer_set_affine_transform", a_set_affine_transform, ACCESSOR},
    {"bg_layer_get_transform_kind", a_get_transform_kind, ACCESSOR},
    {"bg_layer_get_sublayer_transform", a_get_sublayer_transform, ACCESSOR},
    {"bg_layer_set_sublayer_transform", a_set_sublayer_transform, ACCESSOR},
    {"bg_layer_get_geometry_flipped", a_get_geometry_flipped, ACCESSOR},
    {"bg_layer_set_geometry_flipped", a_set_geometry_flipped, ACCESSOR},
    {"bg_layer_get_masks_to_bounds", a_get_masks_to_bounds, ACCESSOR},
    {"bg_layer_set_masks_to_bounds", a_set_masks_to_bounds, ACCESSOR},
    {"bg_layer_get_hidden", a_get_hidden, ACCESSOR},
    {"bg_layer_set_hidden", a_set_hidden, ACCESSOR},
    {"bg_layer_get_transform_layer", a_get_transform_layer, ACCESSOR},
    {"bg_layer_set_transform_layer", a_set_transform_layer, ACCESSOR},
    {"bg_layer_get_autoresizing_mask", a_get_autoresizing_mask, ACCESSOR},
    {"bg_layer_set_autoresizing_mask", a_set_autoresizing_mask, ACCESSOR},
    {"bg_layer_get_autoresizes_subviews", a_get_autoresizes_subviews, ACCESSOR},
    {"bg_layer_set_autoresizes_subviews", a_set_autoresizes_subviews, ACCESSOR},
    {"bg_layer_get_content_offset", a_get_content_offset, ACCESSOR},
    {"bg_layer_set_content_offset", a_set_content_offset, ACCESSOR},
    {"bg_layer_get_scroll_view", a_get_scroll_view, ACCESSOR},
    {"bg_layer_set_scroll_view", a_set_scroll_view, ACCESSOR},
    {"bg_layer_get_scroll_range", a_get_scroll_range, ACCESSOR},
    {"bg_layer_scroll", a_scroll, EDIT},
    {"bg_layer_get_local_transform", a_get_local_transform, ACCESSOR},
    {"bg_layer_get_sublayer_adjustment", a_get_sublayer_adjustment, ACCESSOR},
    {"bg_layer_get_transform_to_superlayer", a_get_transform_to_superlayer, ACCESSOR},
    {"bg_store_frames", a_frames, NO_LAYER},
    {"bg_store_frames_columns", a_frames_columns, NO_LAYER},
    {"bg_store_update_world", a_update_world, NO_LAYER},
    {"bg_store_invalidate_world", a_invalidate_world, NO_LAYER},
    {"bg_store_warm_up", a_warm_up, NO_LAYER},
    {"bg_store_compute_world", a_compute_world, NO_LAYER},
    {"bg_store_world_transforms", a_world_transforms, NO_LAYER},
    {"bg_store_world_affine_transforms", a_world_affine_transforms, NO_LAYER},
    {"bg_layer_get_world_transform", a_get_world_transform, ACCESSOR},
    {"bg_store_world_rects", a_world_rects, NO_LAYER},
    {"bg_layer_get_world_rect", a_get_world_rect, ACCESSOR},
    {"bg_store_clip_rects", a_clip_rects, NO_LAYER},
    {"bg_store_visibility", a_visibility, NO_LAYER},
    {"bg_layer_get_projected_quad", a_get_projected_quad, ACCESSOR},
    {"bg_store_hit_test", a_hit_test, NO_LAYER},
    {"bg_store_convert_points", a_convert_points_from, SPACE},
    {"bg_store_convert_points", a_convert_points_to, SPACE},
    {"bg_store_convert_rect", a_convert_rect_from, SPACE},
    {"bg_store_convert_rect", a_convert_rect_to, SPACE},
    {"bg_layer_point_from_world", a_point_from_world, ACCESSOR},
    {"bg_store_draw_order", a_draw_order, NO_LAYER},
    {"bg_store_frame_query", a_frame_query, NO_LAYER},
    {"bg_store_frame_query_geometry", a_frame_query_geometry, NO_LAYER},
    {"bg_store_get_frame_query_cost", a_get_frame_query_cost, NO_LAYER},
    {"bg_layer_get_property", a_get_property, ACCESSOR},
    {"bg_layer_set_property", a_set_property, ACCESSOR},
    {"bg_layer_get_world_opacity", a_get_world_opacity, ACCESSOR},
    {"bg_store_world_opacities", a_world_opacities, NO_LAYER},
    {"bg_store_frame_query_opacities", a_frame_query_opacities, NO_LAYER},
};

/* The store tag a handle carries: the high 12 bits (batchgeometry.h, "Layers"). */
static unsigned store_tag(bg_layer layer) { return (unsigned)(layer >> 52); }

/* The message for L of another store (the fixture's tag is its live handles' tag). */
static const char *foreign_message(enum stale_kind kind, bg_layer layer) {
    const char *text = handle_text(layer);
    const char *rule = "a handle works only with the store that made it and its copies";
    if (kind == EDIT) return fmt("%s belongs to another store (store tag %u): %s", text, store_tag(layer), rule);
    if (kind == SUPERLAYER) {
        return fmt("superlayer %s belongs to another store (store tag %u): %s", text, store_tag(layer), rule);
    }
    return fmt("%s belongs to another store (store tag %u; this store's is %u): %s", text, store_tag(layer),
               store_tag(root), rule);
}

/* The message for a stale L of this kind, for the fixture's store (4 slots, slot 3 free). */
static const char *stale_message(enum stale_kind kind, bg_layer layer) {
    const char *text = handle_text(layer);
    if (store_tag(layer) != 0 && store_tag(layer) != store_tag(root) && layer != BG_LAYER_NONE) {
        return foreign_message(kind, layer);
    }
    if (kind == EDIT) {
        return fmt("%s is stale: no live layer of this store has that handle (destroyed, or never this store's)", text);
    }
    if (kind == SUPERLAYER) {
        return fmt("superlayer %s is stale: no live layer of this store has that handle (destroyed, or never this "
                   "store's)",
                   text);
    }
    if (bg_layer_slot(layer) >= 4) {
        return fmt("%s is stale: this store has no slot %u (4 slots)", text, bg_layer_slot(layer));
    }
    return fmt("%s is stale: the layer was destroyed and its slot is free", text);
}

static void test_store_table(void) {
    for (size_t row = 0; row < COUNT(store_calls); row++) {
        const struct table_row *r = &store_calls[row];
        current_case = r->name;
        /* A NULL store. */
        make_fixture();
        /* Another store's handle to its slot 1, generation 0: L's slot and generation. */
        bg_store *other = NULL;
        bg_layer other_root = 0, foreign = 0;
        EXPECT_OK(bg_store_create(0, &other));
        EXPECT_OK(bg_layer_add(other, BG_LAYER_NONE, &other_root));
        EXPECT_OK(bg_layer_add(other, other_root, &foreign));
        CHECK(bg_layer_slot(foreign) == bg_layer_slot(L) && bg_layer_generation(foreign) == bg_layer_generation(L));
        const bg_layer stale_handles[] = {dead, (bg_layer)9, BG_LAYER_NONE, foreign};
        bg_store *kept = S;
        S = NULL;
        EXPECT(r->call(), BG_ERROR_NULL_ARGUMENT, fmt("%s: store is NULL", r->name));
        S = kept;
        /* Stale handles: a freed slot, a slot past the end, BG_LAYER_NONE; another store's. */
        for (size_t k = 0; r->stale != NO_LAYER && k < COUNT(stale_handles); k++) {
            bg_layer live = L;
            L = stale_handles[k];
            if (L == BG_LAYER_NONE && (r->stale == SUPERLAYER || r->stale == SPACE)) {
                L = live;
                continue;
            }
            unsigned long long before = fingerprint(S);
            enum stale_kind kind = r->stale;
            bg_status want = kind == SUPERLAYER ? BG_ERROR_STALE_SUPERLAYER : BG_ERROR_STALE_LAYER;
            EXPECT(r->call(), want, stale_message(kind, L));
            CHECK(fingerprint(S) == before);
            L = live;
        }
        /* Good input. */
        EXPECT_OK(r->call());
        if (r->call == a_copy) bg_store_destroy((bg_store *)(void *)(uintptr_t)H[0]);
        bg_store_destroy(other);
        free_fixture();
    }
}

/* Another store's handle is told apart from this store's (bg_store_contains says no, every
 * call that takes it fails: the table above), while a copy keeps the original's tag: it
 * takes the original's handles, and the original takes the copy's for the layers they
 * share. */
static void test_foreign_handles(void) {
    bg_store *other = NULL, *copy = NULL;
    bg_layer other_root = 0, foreign = 0, added = 0;
    bool contains = true;
    double bounds[4] = {0};
    make_fixture();
    EXPECT_OK(bg_store_create(0, &other));
    EXPECT_OK(bg_layer_add(other, BG_LAYER_NONE, &other_root));
    EXPECT_OK(bg_layer_add(other, other_root, &foreign));
    CHECK(foreign != L && bg_layer_slot(foreign) == bg_layer_slot(L));
    CHECK(store_tag(foreign) != store_tag(L) && store_tag(L) == store_tag(root));
    EXPECT_OK(bg_store_contains(S, foreign, &contains));
    CHECK(!contains);
    EXPECT_OK(bg_store_contains(other, L, &contains));
    CHECK(!contains);
    EXPECT(bg_layer_get_bounds(S, foreign, bounds), BG_ERROR_STALE_LAYER, foreign_message(ACCESSOR, foreign));
    EXPECT(bg_layer_destroy(S, foreign, NULL), BG_ERROR_STALE_LAYER, foreign_message(EDIT, foreign));
    EXPECT_OK(bg_store_copy(S, &copy));
    EXPECT_OK(bg_store_contains(copy, L, &contains));
    CHECK(contains);
    EXPECT_OK(bg_layer_get_bounds(copy, L, bounds));
    EXPECT_DOUBLES(bounds, 4, 0, 0, 100, 50);
    EXPECT_OK(bg_layer_add(copy, L, &added));
    CHECK(store_tag(added) == store_tag(L));
    EXPECT_OK(bg_store_contains(S, added, &contains));
    /* The copy reused slot 3, free in S: a handle of S's lineage that S never gave out. */
    CHECK(bg_layer_slot(added) == 3 && bg_layer_generation(added) == 2 && !contains);
    EXPECT(bg_layer_get_bounds(S, added, bounds), BG_ERROR_STALE_LAYER,
           "layer 3#2 is stale: no layer ever had this handle (slot 3 is at generation 1, and live layers' "
           "generations are even)");
    EXPECT(bg_layer_get_bounds(copy, foreign, bounds), BG_ERROR_STALE_LAYER, foreign_message(ACCESSOR, foreign));
    bg_store_destroy(copy);
    bg_store_destroy(other);
    free_fixture();
}

/* ==== Table 2: a NULL in every other pointer parameter ================================= */

ADAPTER(n_create, bg_store_create(0, NULL))
ADAPTER(n_copy, bg_store_copy(S, NULL))
ADAPTER(n_slot_count, bg_store_slot_count(S, NULL))
ADAPTER(n_layer_count, bg_store_layer_count(S, NULL))
ADAPTER(n_contains, bg_store_contains(S, L, NULL))
ADAPTER(n_handle_at, bg_store_handle_at(S, 0, NULL))
ADAPTER(n_get_display_scale, bg_store_get_display_scale(S, NULL))
ADAPTER(n_add, bg_layer_add(S, root, NULL))
ADAPTER(n_add_at, bg_layer_add_at(S, root, 0, NULL))
ADAPTER(n_is_detached, bg_layer_is_detached(S, L, NULL))
ADAPTER(n_get_superlayer, bg_layer_get_superlayer(S, L, NULL))
ADAPTER(n_sublayers_out, bg_layer_get_sublayers(S, L, NULL, 8, &N))
ADAPTER(n_sublayers_count, bg_layer_get_sublayers(S, L, H, 8, NULL))
ADAPTER(n_roots_out, bg_store_roots(S, NULL, 8, &N))
ADAPTER(n_roots_count, bg_store_roots(S, H, 8, NULL))
ADAPTER(n_preorder_out, bg_store_preorder(S, NULL, 8, &N))
ADAPTER(n_preorder_count, bg_store_preorder(S, H, 8, NULL))
ADAPTER(n_get_bounds, bg_layer_get_bounds(S, L, NULL))
ADAPTER(n_set_bounds, bg_layer_set_bounds(S, L, NULL))
ADAPTER(n_get_position, bg_layer_get_position(S, L, NULL))
ADAPTER(n_set_position, bg_layer_set_position(S, L, NULL))
ADAPTER(n_offset_positions, bg_layer_offset_positions(S, L, 0, 1, NULL))
ADAPTER(n_get_center, bg_layer_get_center(S, L, NULL))
ADAPTER(n_set_center, bg_layer_set_center(S, L, NULL))
ADAPTER(n_get_anchor_point, bg_layer_get_anchor_point(S, L, NULL))
ADAPTER(n_set_anchor_point, bg_layer_set_anchor_point(S, L, NULL))
ADAPTER(n_get_z_position, bg_layer_get_z_position(S, L, NULL))
ADAPTER(n_get_anchor_point_z, bg_layer_get_anchor_point_z(S, L, NULL))
ADAPTER(n_get_frame, bg_layer_get_frame(S, L, NULL))
ADAPTER(n_set_frame, bg_layer_set_frame(S, L, NULL))
ADAPTER(n_get_transform, bg_layer_get_transform(S, L, NULL))
ADAPTER(n_set_transform, bg_layer_set_transform(S, L, NULL))
ADAPTER(n_get_affine_transform, bg_layer_get_affine_transform(S, L, NULL))
ADAPTER(n_set_affine_transform, bg_layer_set_affine_transform(S, L, NULL))
ADAPTER(n_get_transform_kind, bg_layer_get_transform_kind(S, L, NULL))
ADAPTER(n_get_sublayer_transform, bg_layer_get_sublayer_transform(S, L, NULL))
ADAPTER(n_set_sublayer_transform, bg_layer_set_sublayer_transform(S, L, NULL))
ADAPTER(n_get_geometry_flipped, bg_layer_get_geometry_flipped(S, L, NULL))
ADAPTER(n_get_masks_to_bounds, bg_layer_get_masks_to_bounds(S, L, NULL))
ADAPTER(n_get_hidden, bg_layer_get_hidden(S, L, NULL))
ADAPTER(n_get_transform_layer, bg_layer_get_transform_layer(S, L, NULL))
ADAPTER(n_get_autoresizing_mask, bg_layer_get_autoresizing_mask(S, L, NULL))
ADAPTER(n_get_autoresizes_subviews, bg_layer_get_autoresizes_subviews(S, L, NULL))
ADAPTER(n_get_content_offset, bg_layer_get_content_offset(S, L, NULL))
ADAPTER(n_set_content_offset, bg_layer_set_content_offset(S, L, NULL))
ADAPTER(n_get_scroll_view, bg_layer_get_scroll_view(S, L, NULL, D, D + 2))
ADAPTER(n_get_scroll_range, bg_layer_get_scroll_range(S, L, NULL))
ADAPTER(n_scroll, bg_layer_scroll(S, L, NULL, D))
ADAPTER(n_get_local_transform, bg_layer_get_local_transform(S, L, NULL))
ADAPTER(n_get_sublayer_adjustment, bg_layer_get_sublayer_adjustment(S, L, NULL))
ADAPTER(n_get_transform_to_superlayer, bg_layer_get_transform_to_superlayer(S, L, NULL))
ADAPTER(n_frames, bg_store_frames(S, NULL, 16))
ADAPTER(n_columns_x, bg_store_frames_columns(S, NULL, (const double **)(void *)H, (const double **)(void *)H,
                                             (const double **)(void *)H, &N))
ADAPTER(n_columns_count,
        bg_store_frames_columns(S, (const double **)(void *)H, (const double **)(void *)H, (const double **)(void *)H,
                                (const double **)(void *)H, NULL))
ADAPTER(n_world_transforms, bg_store_world_transforms(S, NULL, 4))
ADAPTER(n_world_affine_transforms, bg_store_world_affine_transforms(S, NULL, B, 4))
ADAPTER(n_get_world_transform, bg_layer_get_world_transform(S, L, NULL))
ADAPTER(n_world_rects, bg_store_world_rects(S, NULL, 4))
ADAPTER(n_get_world_rect, bg_layer_get_world_rect(S, L, NULL))
ADAPTER(n_clip_rects, bg_store_clip_rects(S, NULL, B, 4))
ADAPTER(n_visibility, bg_store_visibility(S, V, NULL, 4))
ADAPTER(n_quad_out, bg_layer_get_projected_quad(S, L, 1e-5, NULL, 5, &N))
ADAPTER(n_quad_count, bg_layer_get_projected_quad(S, L, 1e-5, D, 5, NULL))
ADAPTER(n_hit_points, bg_store_hit_test(S, NULL, 1, BG_HIT_TEST_LAYER, H))
ADAPTER(n_hit_hits, bg_store_hit_test(S, P2, 1, BG_HIT_TEST_LAYER, NULL))
ADAPTER(n_convert_points, bg_store_convert_points(S, NULL, 1, L, BG_LAYER_NONE, D, B))
ADAPTER(n_convert_out, bg_store_convert_points(S, P2, 1, L, BG_LAYER_NONE, NULL, B))
ADAPTER(n_convert_rect, bg_store_convert_rect(S, NULL, L, BG_LAYER_NONE, D, B))
ADAPTER(n_convert_rect_out, bg_store_convert_rect(S, R4, L, BG_LAYER_NONE, NULL, B))
ADAPTER(n_convert_rect_converted, bg_store_convert_rect(S, R4, L, BG_LAYER_NONE, D, NULL))
ADAPTER(n_point_from_world, bg_layer_point_from_world(S, L, NULL, D, B))
ADAPTER(n_point_from_world_out, bg_layer_point_from_world(S, L, P2, NULL, B))
ADAPTER(n_point_from_world_converted, bg_layer_point_from_world(S, L, P2, D, NULL))
ADAPTER(n_draw_order_out, bg_store_draw_order(S, NULL, 8, &N))
ADAPTER(n_draw_order_count, bg_store_draw_order(S, H, 8, NULL))
ADAPTER(n_frame_query_viewport, bg_store_frame_query(S, NULL, H, 8, &N))
ADAPTER(n_frame_query_out, bg_store_frame_query(S, VP, NULL, 8, &N))
ADAPTER(n_frame_query_count, bg_store_frame_query(S, VP, H, 8, NULL))
ADAPTER(n_frame_geometry_viewport, bg_store_frame_query_geometry(S, NULL, H, D, NULL, NULL, NULL, 2, &N))
ADAPTER(n_frame_geometry_out, bg_store_frame_query_geometry(S, VP, NULL, D, D + 32, D + 40, B, 2, &N))
ADAPTER(n_frame_geometry_count, bg_store_frame_query_geometry(S, VP, H, D, D + 32, D + 40, B, 2, NULL))
ADAPTER(n_get_property, bg_layer_get_property(S, L, BG_PROPERTY_OPACITY, NULL))
ADAPTER(n_get_world_opacity, bg_layer_get_world_opacity(S, L, NULL))
ADAPTER(n_world_opacities, bg_store_world_opacities(S, NULL, 4))
ADAPTER(n_frame_opacities_viewport, bg_store_frame_query_opacities(S, NULL, H, D, 2, &N))
ADAPTER(n_frame_opacities_out, bg_store_frame_query_opacities(S, VP, NULL, D, 2, &N))
ADAPTER(n_frame_opacities_count, bg_store_frame_query_opacities(S, VP, H, D, 2, NULL))
ADAPTER(n_scene_load_out, bg_scene_load("{}", 2, NULL))
ADAPTER(n_scene_load_json, bg_scene_load(NULL, 2, (bg_scene **)(void *)H))

static const struct null_row {
    api_call call;
    const char *message;
} null_calls[] = {
    {n_create, "bg_store_create: out is NULL"},
    {n_copy, "bg_store_copy: out is NULL"},
    {n_slot_count, "bg_store_slot_count: out is NULL"},
    {n_layer_count, "bg_store_layer_count: out is NULL"},
    {n_contains, "bg_store_contains: out is NULL"},
    {n_handle_at, "bg_store_handle_at: out is NULL"},
    {n_get_display_scale, "bg_store_get_display_scale: out is NULL"},
    {n_add, "bg_layer_add: out is NULL"},
    {n_add_at, "bg_layer_add_at: out is NULL"},
    {n_is_detached, "bg_layer_is_detached: out is NULL"},
    {n_get_superlayer, "bg_layer_get_superlayer: out is NULL"},
    {n_sublayers_out, "bg_layer_get_sublayers: out is NULL"},
    {n_sublayers_count, "bg_layer_get_sublayers: count is NULL"},
    {n_roots_out, "bg_store_roots: out is NULL"},
    {n_roots_count, "bg_store_roots: count is NULL"},
    {n_preorder_out, "bg_store_preorder: out is NULL"},
    {n_preorder_count, "bg_store_preorder: count is NULL"},
    {n_get_bounds, "bg_layer_get_bounds: out is NULL"},
    {n_set_bounds, "bg_layer_set_bounds: bounds is NULL"},
    {n_get_position, "bg_layer_get_position: out is NULL"},
    {n_set_position, "bg_layer_set_position: position is NULL"},
    {n_offset_positions, "bg_layer_offset_positions: offset is NULL"},
    {n_get_center, "bg_layer_get_center: out is NULL"},
    {n_set_center, "bg_layer_set_center: center is NULL"},
    {n_get_anchor_point, "bg_layer_get_anchor_point: out is NULL"},
    {n_set_anchor_point, "bg_layer_set_anchor_point: anchor_point is NULL"},
    {n_get_z_position, "bg_layer_get_z_position: out is NULL"},
    {n_get_anchor_point_z, "bg_layer_get_anchor_point_z: out is NULL"},
    {n_get_frame, "bg_layer_get_frame: out is NULL"},
    {n_set_frame, "bg_layer_set_frame: frame is NULL"},
    {n_get_transform, "bg_layer_get_transform: out is NULL"},
    {n_set_transform, "bg_layer_set_transform: transform is NULL"},
    {n_get_affine_transform, "bg_layer_get_affine_transform: out is NULL"},
    {n_set_affine_transform, "bg_layer_set_affine_transform: affine is NULL"},
    {n_get_transform_kind, "bg_layer_get_transform_kind: out is NULL"},
    {n_get_sublayer_transform, "bg_layer_get_sublayer_transform: out is NULL"},
    {n_set_sublayer_transform, "bg_layer_set_sublayer_transform: transform is NULL"},
    {n_get_geometry_flipped, "bg_layer_get_geometry_flipped: out is NULL"},
    {n_get_masks_to_bounds, "bg_layer_get_masks_to_bounds: out is NULL"},
    {n_get_hidden, "bg_layer_get_hidden: out is NULL"},
    {n_get_transform_layer, "bg_layer_get_transform_layer: out is NULL"},
    {n_get_autoresizing_mask, "bg_layer_get_autoresizing_mask: out is NULL"},
    {n_get_autoresizes_subviews, "bg_layer_get_autoresizes_subviews: out is NULL"},
    {n_get_content_offset, "bg_layer_get_content_offset: out is NULL"},
    {n_set_content_offset, "bg_layer_set_content_offset: offset is NULL"},
    {n_get_scroll_view, "bg_layer_get_scroll_view: out is NULL"},
    {n_get_scroll_range, "bg_layer_get_scroll_range: out is NULL"},
    {n_scroll, "bg_layer_scroll: offset is NULL"},
    {n_get_local_transform, "bg_layer_get_local_transform: out is NULL"},
    {n_get_sublayer_adjustment, "bg_layer_get_sublayer_adjustment: out is NULL"},
    {n_get_transform_to_superlayer, "bg_layer_get_transform_to_superlayer: out is NULL"},
    {n_frames, "bg_store_frames: frames is NULL"},
    {n_columns_x, "bg_store_frames_columns: x is NULL"},
    {n_columns_count, "bg_store_frames_columns: count is NULL"},
    {n_world_transforms, "bg_store_world_transforms: transforms is NULL"},
    {n_world_affine_transforms, "bg_store_world_affine_transforms: affine is NULL"},
    {n_get_world_transform, "bg_layer_get_world_transform: out is NULL"},
    {n_world_rects, "bg_store_world_rects: edges is NULL"},
    {n_get_world_rect, "bg_layer_get_world_rect: out is NULL"},
    {n_clip_rects, "bg_store_clip_rects: edges is NULL"},
    {n_visibility, "bg_store_visibility: visible is NULL"},
    {n_quad_out, "bg_layer_get_projected_quad: out is NULL"},
    {n_quad_count, "bg_layer_get_projected_quad: count is NULL"},
    {n_hit_points, "bg_store_hit_test: points is NULL"},
    {n_hit_hits, "bg_store_hit_test: hits is NULL"},
    {n_convert_points, "bg_store_convert_points: points is NULL"},
    {n_convert_out, "bg_store_convert_points: out is NULL"},
    {n_convert_rect, "bg_store_convert_rect: rect is NULL"},
    {n_convert_rect_out, "bg_store_convert_rect: out is NULL"},
    {n_convert_rect_converted, "bg_store_convert_rect: converted is NULL"},
    {n_point_from_world, "bg_layer_point_from_world: point is NULL"},
    {n_point_from_world_out, "bg_layer_point_from_world: out is NULL"},
    {n_point_from_world_converted, "bg_layer_point_from_world: converted is NULL"},
    {n_draw_order_out, "bg_store_draw_order: out is NULL"},
    {n_draw_order_count, "bg_store_draw_order: count is NULL"},
    {n_frame_query_viewport, "bg_store_frame_query: viewport is NULL"},
    {n_frame_query_out, "bg_store_frame_query: out is NULL"},
    {n_frame_query_count, "bg_store_frame_query: count is NULL"},
    {n_frame_geometry_viewport, "bg_store_frame_query_geometry: viewport is NULL"},
    {n_frame_geometry_out, "bg_store_frame_query_geometry: out is NULL"},
    {n_frame_geometry_count, "bg_store_frame_query_geometry: count is NULL"},
    {n_get_property, "bg_layer_get_property: out is NULL"},
    {n_get_world_opacity, "bg_layer_get_world_opacity: out is NULL"},
    {n_world_opacities, "bg_store_world_opacities: out is NULL"},
    {n_frame_opacities_viewport, "bg_store_frame_query_opacities: viewport is NULL"},
    {n_frame_opacities_out, "bg_store_frame_query_opacities: out is NULL"},
    {n_frame_opacities_count, "bg_store_frame_query_opacities: count is NULL"},
    {n_scene_load_out, "bg_scene_load: out is NULL"},
    {n_scene_load_json, "bg_scene_load: json is NULL"},
};

static void test_null_table(void) {
    current_case = "NULL pointers";
    for (size_t row = 0; row < COUNT(null_calls); row++) {
        make_fixture();
        unsigned long long before = fingerprint(S);
        EXPECT(null_calls[row].call(), BG_ERROR_NULL_ARGUMENT, null_calls[row].message);
        CHECK(fingerprint(S) == before);
        free_fixture();
    }
}

/* ==== Table 3: buffers too small ====================================================== */

ADAPTER(b_frames, bg_store_frames(S, D, 3))
ADAPTER(b_world_transforms, bg_store_world_transforms(S, D, 3))
ADAPTER(b_world_affine, bg_store_world_affine_transforms(S, D, NULL, 2))
ADAPTER(b_world_rects, bg_store_world_rects(S, D, 3))
ADAPTER(b_clip_rects, bg_store_clip_rects(S, D, B, 3))
ADAPTER(b_visibility, bg_store_visibility(S, V, B, 0))
ADAPTER(b_sublayers, bg_layer_get_sublayers(S, root, NULL, 0, &N))
ADAPTER(b_roots, bg_store_roots(S, NULL, 0, &N))
ADAPTER(b_preorder, bg_store_preorder(S, H, 2, &N))
ADAPTER(b_draw_order, bg_store_draw_order(S, H, 1, &N))
ADAPTER(b_quad, bg_layer_get_projected_quad(S, L, 1e-5, D, 3, &N))
ADAPTER(b_frame_query, bg_store_frame_query(S, VP, H, 1, &N))
ADAPTER(b_frame_query_none, bg_store_frame_query(S, VP, NULL, 0, &N))
ADAPTER(b_frame_query_geometry, bg_store_frame_query_geometry(S, VP, H, D, D + 16, D + 20, B, 1, &N))
ADAPTER(b_world_opacities, bg_store_world_opacities(S, D, 3))
ADAPTER(b_frame_query_opacities, bg_store_frame_query_opacities(S, VP, H, D, 1, &N))

static const struct buffer_row {
    api_call call;
    const char *message;
    size_t needed; /* the count written, or 0 for functions without a count output */
} buffer_calls[] = {
    {b_frames, "bg_store_frames: capacity 3 is too small: 4 needed", 0},
    {b_world_transforms, "bg_store_world_transforms: capacity 3 is too small: 4 needed", 0},
    {b_world_affine, "bg_store_world_affine_transforms: capacity 2 is too small: 4 needed", 0},
    {b_world_rects, "bg_store_world_rects: capacity 3 is too small: 4 needed", 0},
    {b_clip_rects, "bg_store_clip_rects: capacity 3 is too small: 4 needed", 0},
    {b_visibility, "bg_store_visibility: capacity 0 is too small: 4 needed", 0},
    {b_sublayers, "bg_layer_get_sublayers: capacity 0 is too small: 1 needed", 1},
    {b_roots, "bg_store_roots: capacity 0 is too small: 1 needed", 1},
    {b_preorder, "bg_store_preorder: capacity 2 is too small: 3 needed", 3},
    {b_draw_order, "bg_store_draw_order: capacity 1 is too small: 3 needed", 3},
    {b_quad, "bg_layer_get_projected_quad: capacity 3 is too small: 4 needed", 4},
    {b_frame_query, "bg_store_frame_query: capacity 1 is too small: 2 needed", 2},
    {b_frame_query_none, "bg_store_frame_query: capacity 0 is too small: 2 needed", 2},
    {b_frame_query_geometry, "bg_store_frame_query_geometry: capacity 1 is too small: 2 needed", 2},
    {b_world_opacities, "bg_store_world_opacities: capacity 3 is too small: 4 needed", 0},
    {b_frame_query_opacities, "bg_store_frame_query_opacities: capacity 1 is too small: 2 needed", 2},
};

static void test_buffer_table(void) {
    current_case = "buffers too small";
    for (size_t row = 0; row < COUNT(buffer_calls); row++) {
        make_fixture();
        for (size_t k = 0; k < COUNT(D); k++) D[k] = -7;
        for (size_t k = 0; k < COUNT(H); k++) H[k] = 77;
        for (size_t k = 0; k < COUNT(B); k++) B[k] = true;
        N = 12345;
        unsigned long long before = fingerprint(S);
        EXPECT(buffer_calls[row].call(), BG_ERROR_BUFFER_TOO_SMALL, buffer_calls[row].message);
        CHECK(fingerprint(S) == before);
        CHECK(buffer_calls[row].needed == 0 ? N == 12345 : N == buffer_calls[row].needed);
        int untouched = 1;
        for (size_t k = 0; k < COUNT(D); k++) untouched &= D[k] == -7;
        for (size_t k = 0; k < COUNT(H); k++) untouched &= H[k] == 77;
        for (size_t k = 0; k < COUNT(B); k++) untouched &= B[k];
        CHECK(untouched);
        free_fixture();
    }
}

/* ==== Other bad input: enum values, sizes, scenes, evaluations ======================== */

static void test_invalid_arguments(void) {
    current_case = "invalid arguments";
    bg_store *store = NULL;
    bg_layer hit = 0;
    double point[2] = {0, 0};
    EXPECT(bg_store_create((size_t)BG_MAX_LAYER_COUNT + 1, &store), BG_ERROR_INVALID_ARGUMENT,
           "bg_store_create: capacity 2147483647 is more than a store holds (2147483646 layers)");
    CHECK(store == NULL);
    EXPECT(bg_store_create(SIZE_MAX, &store), BG_ERROR_INVALID_ARGUMENT,
           "bg_store_create: capacity 18446744073709551615 is more than a store holds (2147483646 layers)");
    EXPECT_OK(bg_store_create(4, &store));
    EXPECT(bg_store_reserve(store, (size_t)BG_MAX_LAYER_COUNT + 1), BG_ERROR_INVALID_ARGUMENT,
           "bg_store_reserve: capacity 2147483647 is more than a store holds (2147483646 layers)");
    EXPECT(bg_store_set_options(store, 7, 1), BG_ERROR_INVALID_ARGUMENT,
           "bg_store_set_options: 7 is not a backend (BG_BACKEND_DEFAULT 0, BG_BACKEND_SCALAR 1, BG_BACKEND_SIMD 2, "
           "BG_BACKEND_C 3, BG_BACKEND_AUTO 4)");
    EXPECT(bg_store_set_options(store, -1, 1), BG_ERROR_INVALID_ARGUMENT, NULL);
    EXPECT(bg_store_set_options(store, BG_BACKEND_C, -2), BG_ERROR_INVALID_ARGUMENT,
           "bg_store_set_options: threads must be 0 (the process default) or a positive count, got -2");
    EXPECT(bg_store_hit_test(store, point, 1, 2, &hit), BG_ERROR_INVALID_ARGUMENT,
           "bg_store_hit_test: 2 is not a hit-test rule (BG_HIT_TEST_LAYER 0, BG_HIT_TEST_VIEW 1)");
    EXPECT(bg_store_hit_test(store, point, SIZE_MAX, BG_HIT_TEST_LAYER, &hit), BG_ERROR_INVALID_ARGUMENT,
           fmt("bg_store_hit_test: count 18446744073709551615 is too large: more points than the address space holds "
               "(at most %llu points, 16 bytes each)",
               ADDRESS_SPACE / 16));
    EXPECT(bg_store_convert_points(store, point, SIZE_MAX, BG_LAYER_NONE, BG_LAYER_NONE, point, NULL),
           BG_ERROR_INVALID_ARGUMENT,
           fmt("bg_store_convert_points: count 18446744073709551615 is too large: more points than the address space "
               "holds (at most %llu points, 16 bytes each)",
               ADDRESS_SPACE / 16));
    /* Empty batches need no buffers. */
    EXPECT_OK(bg_store_hit_test(store, NULL, 0, BG_HIT_TEST_VIEW, NULL));
    EXPECT_OK(bg_store_convert_points(store, NULL, 0, BG_LAYER_NONE, BG_LAYER_NONE, NULL, NULL));
    EXPECT_OK(bg_store_frames(store, NULL, 0));
    EXPECT_OK(bg_store_world_transforms(store, NULL, 0));
    EXPECT_OK(bg_store_world_affine_transforms(store, NULL, NULL, 0));
    EXPECT_OK(bg_store_world_rects(store, NULL, 0));
    EXPECT_OK(bg_store_clip_rects(store, NULL, NULL, 0));
    EXPECT_OK(bg_store_visibility(store, NULL, NULL, 0));
    size_t count = 99;
    EXPECT_OK(bg_store_draw_order(store, NULL, 0, &count));
    CHECK(count == 0);
    count = 99;
    EXPECT_OK(bg_store_frame_query(store, VP, NULL, 0, &count));
    CHECK(count == 0);
    /* The display scale: a positive finite number (LayerStoreError.invalidDisplayScale). */
    EXPECT(bg_store_set_display_scale(store, 0), BG_ERROR_INVALID_DISPLAY_SCALE,
           "the display scale must be a positive finite number, got 0.0");
    EXPECT(bg_store_set_display_scale(store, -1), BG_ERROR_INVALID_DISPLAY_SCALE,
           "the display scale must be a positive finite number, got -1.0");
    EXPECT(bg_store_set_display_scale(store, NAN), BG_ERROR_INVALID_DISPLAY_SCALE,
           "the display scale must be a positive finite number, got nan");
    EXPECT(bg_store_set_display_scale(store, INFINITY), BG_ERROR_INVALID_DISPLAY_SCALE,
           "the display scale must be a positive finite number, got inf");
    double scale = 0;
    EXPECT_OK(bg_store_get_display_scale(store, &scale));
    CHECK(scale == 1);
    bg_store_destroy(store);
    bg_store_destroy(NULL); /* allowed */
}

/* ==== Version, status names, errors per thread ======================================== */

static void test_version_and_status(void) {
    current_case = "version and status";
    CHECK(bg_version() == BG_VERSION);
    CHECK(bg_version() == ((uint32_t)BG_VERSION_MAJOR << 16 | (uint32_t)BG_VERSION_MINOR << 8 | BG_VERSION_PATCH));
    CHECK(bg_abi_version() == BG_ABI_VERSION);
    static const struct {
        bg_status status;
        const char *name;
    } names[] = {
        {BG_OK, "BG_OK"},
        {BG_ERROR_NULL_ARGUMENT, "BG_ERROR_NULL_ARGUMENT"},
        {BG_ERROR_INVALID_ARGUMENT, "BG_ERROR_INVALID_ARGUMENT"},
        {BG_ERROR_BUFFER_TOO_SMALL, "BG_ERROR_BUFFER_TOO_SMALL"},
        {BG_ERROR_STALE_LAYER, "BG_ERROR_STALE_LAYER"},
        {BG_ERROR_STALE_SUPERLAYER, "BG_ERROR_STALE_SUPERLAYER"},
        {BG_ERROR_CYCLE, "BG_ERROR_CYCLE"},
        {BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE, "BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE"},
        {BG_ERROR_NOT_A_SCROLL_VIEW, "BG_ERROR_NOT_A_SCROLL_VIEW"},
        {BG_ERROR_TOO_MANY_LAYERS, "BG_ERROR_TOO_MANY_LAYERS"},
        {BG_ERROR_INVALID_DISPLAY_SCALE, "BG_ERROR_INVALID_DISPLAY_SCALE"},
        {BG_ERROR_SCENE, "BG_ERROR_SCENE"},
        {BG_ERROR_ENVIRONMENT, "BG_ERROR_ENVIRONMENT"},
        {13, "BG_UNKNOWN_STATUS"},
        {-1, "BG_UNKNOWN_STATUS"},
    };
    for (size_t k = 0; k < COUNT(names); k++) CHECK(strcmp(bg_status_name(names[k].status), names[k].name) == 0);
    const char *set = bg_c_instruction_set();
    CHECK(strcmp(set, "avx512") == 0 || strcmp(set, "avx2") == 0 || strcmp(set, "neon") == 0 ||
          strcmp(set, "portable") == 0);
    CHECK(bg_layer_slot(((bg_layer)7 << 32) | 5) == 5);
    CHECK(bg_layer_generation(((bg_layer)7 << 32) | 5) == 7);
}

/* TOO_MANY_LAYERS needs 2^31 layers; its mapping is tested from Swift (BatchGeometryCTests). */
static const bg_status tested_elsewhere = BG_ERROR_TOO_MANY_LAYERS;

struct thread_work {
    int index;
    int ok;
};

/* A store per thread, a frame loop on it, and an error of this thread's own whose message
 * must survive the other threads' errors. */
static void *thread_body(void *argument) {
    struct thread_work *work = (struct thread_work *)argument;
    bg_store *store = NULL;
    bg_layer layers[64];
    double frames[64 * 4];
    char expected[256];
    int ok = bg_store_create(64, &store) == BG_OK;
    for (int k = 0; k < 64 && ok; k++) {
        const double frame[4] = {work->index, k, 10, 10};
        ok &= bg_layer_add(store, k == 0 ? BG_LAYER_NONE : layers[k - 1], &layers[k]) == BG_OK;
        ok &= bg_layer_set_frame(store, layers[k], frame) == BG_OK;
    }
    ok &= bg_layer_get_bounds(store, (bg_layer)(1000 + work->index), frames) == BG_ERROR_STALE_LAYER;
    snprintf(expected, sizeof expected, "layer %d#0 is stale: this store has no slot %d (64 slots)",
             1000 + work->index, 1000 + work->index);
    for (int frame = 0; frame < 300 && ok; frame++) {
        /* The frame setter put position.x at index + 5; each frame moves one layer. */
        const double position[2] = {frame, work->index};
        ok &= bg_layer_set_position(store, layers[frame % 64], position) == BG_OK;
        ok &= bg_store_update_world(store) == BG_OK;
        ok &= bg_store_frames(store, frames, 64) == BG_OK;
        ok &= frames[4 * (frame % 64)] == frame - 5;
        ok &= strcmp(bg_last_error_message(), expected) == 0;
    }
    bg_store_destroy(store);
    work->ok = ok;
    return NULL;
}

static void test_threads(void) {
    current_case = "threads";
    pthread_t threads[4];
    struct thread_work work[4];
    bg_store *store = NULL;
    EXPECT_OK(bg_store_create(0, &store));
    EXPECT(bg_layer_get_bounds(store, 0, D), BG_ERROR_STALE_LAYER,
           "layer 0#0 is stale: this store has no slot 0 (0 slots)");
    for (int k = 0; k < 4; k++) {
        work[k].index = k;
        work[k].ok = 0;
        CHECK(pthread_create(&threads[k], NULL, thread_body, &work[k]) == 0);
    }
    for (int k = 0; k < 4; k++) pthread_join(threads[k], NULL);
    for (int k = 0; k < 4; k++) CHECK(work[k].ok);
    /* This thread's message was not replaced by the threads' errors. */
    CHECK(strcmp(bg_last_error_message(), "layer 0#0 is stale: this store has no slot 0 (0 slots)") == 0);
    bg_store_destroy(store);
}

/* ==== Careless callers (issue 24): nothing traps, and every number is exact ========== */

/* The printf idiom on a thread that has had no error yet: the message pointer taken
 * before the failing call (C may evaluate printf's arguments in any order) reads that
 * call's message, and the next failure overwrites the same buffer. */
static void *message_body(void *argument) {
    int *ok = (int *)argument;
    size_t count = 0;
    const char *before = bg_last_error_message();
    *ok = strcmp(before, "") == 0;
    *ok &= bg_store_slot_count(NULL, &count) == BG_ERROR_NULL_ARGUMENT;
    *ok &= strcmp(before, "bg_store_slot_count: store is NULL") == 0;
    *ok &= bg_store_layer_count(NULL, &count) == BG_ERROR_NULL_ARGUMENT;
    *ok &= before == bg_last_error_message() && strcmp(before, "bg_store_layer_count: store is NULL") == 0;
    return NULL;
}

static void test_careless_messages(void) {
    char line[256];
    pthread_t thread;
    int ok = 0;
    CHECK(pthread_create(&thread, NULL, message_body, &ok) == 0);
    pthread_join(thread, NULL);
    CHECK(ok);
    /* The idiom itself, as an engine writes it (either evaluation order prints this). */
    snprintf(line, sizeof line, "%s: %s", bg_status_name(bg_store_frames(NULL, D, 1)), bg_last_error_message());
    CHECK(strcmp(line, "BG_ERROR_NULL_ARGUMENT: bg_store_frames: store is NULL") == 0);
    const char *held = bg_last_error_message();
    EXPECT(bg_store_update_world(NULL), BG_ERROR_NULL_ARGUMENT, "bg_store_update_world: store is NULL");
    CHECK(held == bg_last_error_message());
    /* A message longer than the buffer is cut at a character boundary and ends in "...". */
    static char json[6000];
    int length = snprintf(json, sizeof json, "{\"layers\": [{\"");
    for (int k = 0; k < 2500; k++) length += snprintf(json + length, sizeof json - (size_t)length, "\xc3\xa9");
    length += snprintf(json + length, sizeof json - (size_t)length, "\": 1}]}");
    bg_scene *scene = NULL;
    CHECK(bg_scene_load(json, (size_t)length, &scene) == BG_ERROR_SCENE && scene == NULL);
    const char *message = bg_last_error_message();
    size_t size = strlen(message);
    CHECK(size <= 4095 && size > 4000 && strcmp(message + size - 3, "...") == 0);
    CHECK(((unsigned char)message[size - 4] & 0xC0) != 0xC0); /* no lead byte without its continuation */
}

static void test_careless_counts(bg_store *store) {
    bg_layer hits[2] = {7, 7};
    double points[4] = {1, 2, 3, 4}, out[4] = {9, 9, 9, 9};
    const size_t huge = (size_t)1 << 60, past = ADDRESS_SPACE / 16 + 1;
    /* A count whose points cannot fit in the address space, whatever the buffer: refused
     * before anything is read, allocated or written. */
    EXPECT(bg_store_hit_test(store, points, huge, BG_HIT_TEST_LAYER, hits), BG_ERROR_INVALID_ARGUMENT,
           fmt("bg_store_hit_test: count 1152921504606846976 is too large: more points than the address space "
               "holds (at most %llu points, 16 bytes each)",
               ADDRESS_SPACE / 16));
    EXPECT(bg_store_hit_test(store, points, past, BG_HIT_TEST_LAYER, hits), BG_ERROR_INVALID_ARGUMENT, NULL);
    CHECK(hits[0] == 7 && hits[1] == 7);
    EXPECT(bg_store_convert_points(store, points, huge, BG_LAYER_NONE, BG_LAYER_NONE, out, NULL),
           BG_ERROR_INVALID_ARGUMENT,
           fmt("bg_store_convert_points: count 1152921504606846976 is too large: more points than the address "
               "space holds (at most %llu points, 16 bytes each)",
               ADDRESS_SPACE / 16));
    CHECK(out[0] == 9 && out[3] == 9);
    bg_scene *scene = NULL;
    EXPECT(bg_scene_load("{}", SIZE_MAX, &scene), BG_ERROR_INVALID_ARGUMENT,
           fmt("bg_scene_load: length 18446744073709551615 is too large: more bytes than the address space holds "
               "(at most %llu bytes)",
               ADDRESS_SPACE));
    EXPECT(bg_scene_load("{}", (size_t)ADDRESS_SPACE + 1, &scene), BG_ERROR_INVALID_ARGUMENT, NULL);
    CHECK(scene == NULL);
}

/* A batch larger than the library's chunk of 65,536 points: every answer, at the chunk
 * boundaries too, and `out` may be `points`. */
static void test_careless_big_batch(bg_store *store, bg_layer layer) {
    enum { POINTS = 150000 };
    double *points = malloc(2 * POINTS * sizeof(double));
    bg_layer *hits = malloc(POINTS * sizeof(bg_layer));
    bool *converted = malloc(POINTS);
    int hits_ok = 1, converted_ok = 1;
    for (int k = 0; k < POINTS; k++) {
        points[2 * k] = k % 2 ? 50 : 500; /* the layer's frame: (10, 20, 100, 100) */
        points[2 * k + 1] = k;
    }
    EXPECT_OK(bg_store_hit_test(store, points, POINTS, BG_HIT_TEST_LAYER, hits));
    for (int k = 0; k < POINTS; k++) hits_ok &= hits[k] == (k % 2 && k > 20 && k < 120 ? layer : BG_LAYER_NONE);
    CHECK(hits_ok);
    EXPECT_OK(bg_store_convert_points(store, points, POINTS, BG_LAYER_NONE, layer, points, converted));
    for (int k = 0; k < POINTS; k++) {
        converted_ok &= converted[k] && points[2 * k] == (k % 2 ? 40 : 490) && points[2 * k + 1] == k - 20;
    }
    CHECK(converted_ok);
    free(points);
    free(hits);
    free(converted);
}

static void test_careless_callers(void) {
    bg_store *store = NULL, *other = NULL;
    bg_layer a[2], b[2];
    const double frame[4] = {10, 20, 100, 100}, position[2] = {1, 2};
    double bounds[4];
    EXPECT_OK(bg_store_create(0, &store));
    EXPECT_OK(bg_store_create(0, &other));
    EXPECT_OK(bg_layer_add(store, BG_LAYER_NONE, &a[0]));
    EXPECT_OK(bg_layer_add(store, a[0], &a[1]));
    EXPECT_OK(bg_layer_set_frame(store, a[0], frame));
    test_careless_messages();
    test_careless_counts(store);
    test_careless_big_batch(store, a[0]);
    /* A handle whose generation is newer than its slot's never existed. */
    EXPECT(bg_layer_get_bounds(store, (bg_layer)2 << 32, bounds), BG_ERROR_STALE_LAYER,
           "layer 0#2 is stale: no layer ever had this handle (slot 0 is at generation 0, and live layers' "
           "generations are even)");
    /* Handles are per store (the header's "Layers"): a handle carries its store's tag, so
     * another store's handle to the same slot and generation is refused, and changes nothing. */
    EXPECT_OK(bg_layer_add(other, BG_LAYER_NONE, &b[0]));
    EXPECT_OK(bg_layer_add(other, b[0], &b[1]));
    CHECK(a[1] != b[1] && bg_layer_slot(a[1]) == bg_layer_slot(b[1]));
    EXPECT(bg_layer_set_position(other, a[1], position), BG_ERROR_STALE_LAYER, NULL);
    EXPECT_OK(bg_layer_get_position(other, b[1], bounds));
    EXPECT_DOUBLES(bounds, 2, 0, 0);
    bg_store_destroy(other);
    bg_store_destroy(store);
}

#include "test_c_api_values.h"
#include "test_c_api_opacity.h"
#include "test_c_api_curves.h"
#include "test_c_api_animations.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: test_c_api SCENE.json EXPECTED-OUTPUT.json\n");
        return 2;
    }
    scene_path = argv[1];
    scene_output_path = argv[2];
    static const struct {
        const char *name;
        void (*run)(void);
    } cases[] = {
        {"version and status", test_version_and_status},
        {"store table", test_store_table},
        {"foreign handles", test_foreign_handles},
        {"NULL table", test_null_table},
        {"buffer table", test_buffer_table},
        {"invalid arguments", test_invalid_arguments},
        {"store lifetime", test_store_lifetime},
        {"structure", test_structure},
        {"frame rules", test_frame_rules},
        {"properties", test_properties},
        {"scroll views", test_scroll_views},
        {"autoresizing", test_autoresizing},
        {"batch frames", test_batch_frames},
        {"world", test_world},
        {"rects, clips, visibility", test_rects_clips_visibility},
        {"hit testing and conversion", test_hit_testing_and_conversion},
        {"drawing order", test_draw_order},
        {"frame query", test_frame_query},
        {"frame query = full passes", test_frame_query_matches_full_passes},
        {"frame loop allocations", test_frame_loop_allocations},
        {"table properties and the view rule", test_table_properties},
        {"scenes", test_scenes},
        {"options and environment", test_options_and_environment},
        {"non-finite input", test_non_finite},
        {"threads", test_threads},
        {"careless callers", test_careless_callers},
        {"curves", test_curves},
        {"animations", test_animations},
    };
    (void)tested_elsewhere;
    for (size_t k = 0; k < COUNT(cases); k++) {
        int before = checks_failed;
        current_case = cases[k].name;
        cases[k].run();
        printf("%-30s %s\n", cases[k].name, checks_failed == before ? "ok" : "FAILED");
    }
    printf("%d passed, %d failed\n", checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}
