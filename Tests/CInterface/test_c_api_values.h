/*
 * test_c_api_values.h: the result checks of test_c_api.c (included once, at its end, so the
 * two share the harness and the fixture). Expected values come from docs/GEOMETRY.md's
 * worked examples (seed 000/001, X1, X4, X6), from docs/SCENE-FORMAT.md's example, or are
 * computed here from the spec's formulas, step by step; none is copied from the library's
 * output.
 */

static const char *scene_path, *scene_output_path;

static bg_layer add_layer(bg_store *store, bg_layer superlayer, double x, double y, double w, double h) {
    bg_layer layer = BG_LAYER_NONE;
    const double frame[4] = {x, y, w, h};
    EXPECT_OK(bg_layer_add(store, superlayer, &layer));
    EXPECT_OK(bg_layer_set_frame(store, layer, frame));
    return layer;
}

/* GEOMETRY.md section 3, operation by operation (this file is compiled with
 * -ffp-contract=off, so no multiply-add is fused). */
static void frame_by_hand(double w, double h, double ax, double ay, const double t[6], double px, double py,
                          double out[4]) {
    double rx = -w * ax, ry = -h * ay;
    double xs[4] = {rx, rx, rx + w, rx + w}, ys[4] = {ry, ry + h, ry, ry + h};
    double minX = 0, minY = 0, maxX = 0, maxY = 0;
    for (int k = 0; k < 4; k++) {
        double X = (t[0] * xs[k] + t[2] * ys[k]) + t[4];
        double Y = (t[1] * xs[k] + t[3] * ys[k]) + t[5];
        if (k == 0) {
            minX = maxX = X;
            minY = maxY = Y;
            continue;
        }
        minX = X < minX ? X : minX;
        minY = Y < minY ? Y : minY;
        maxX = X > maxX ? X : maxX;
        maxY = Y > maxY ? Y : maxY;
    }
    out[0] = minX + px;
    out[1] = minY + py;
    out[2] = maxX - minX;
    out[3] = maxY - minY;
}

/* ==== Stores and handles ============================================================== */

static void test_store_lifetime(void) {
    bg_store *store = NULL, *copy = NULL;
    bg_layer a, b, c, reused, handle = 0;
    size_t count = 0, destroyed = 0;
    bool contains = true;
    double bounds[4];
    EXPECT_OK(bg_store_create(0, &store));
    EXPECT_OK(bg_store_slot_count(store, &count));
    CHECK(count == 0);
    a = add_layer(store, BG_LAYER_NONE, 0, 0, 10, 10);
    b = add_layer(store, a, 1, 1, 5, 5);
    c = add_layer(store, a, 2, 2, 5, 5);
    /* Handles: slot in the low half; store tag and generation (even, 0 for a new slot) in
     * the high half. */
    CHECK(bg_layer_slot(a) == 0 && bg_layer_slot(b) == 1 && bg_layer_slot(c) == 2);
    CHECK(bg_layer_generation(a) == 0 && a >> 32 == b >> 32 && b >> 32 == c >> 32 && a >> 52 != 0);
    EXPECT_OK(bg_store_reserve(store, 100));
    EXPECT_OK(bg_layer_destroy(store, b, &destroyed));
    CHECK(destroyed == 1);
    EXPECT_OK(bg_store_slot_count(store, &count));
    CHECK(count == 3);
    EXPECT_OK(bg_store_layer_count(store, &count));
    CHECK(count == 2);
    EXPECT_OK(bg_store_contains(store, b, &contains));
    CHECK(!contains);
    EXPECT_OK(bg_store_contains(store, c, &contains));
    CHECK(contains);
    EXPECT_OK(bg_store_handle_at(store, 1, &handle));
    CHECK(handle == BG_LAYER_NONE);
    EXPECT_OK(bg_store_handle_at(store, 2, &handle));
    CHECK(handle == c);
    EXPECT_OK(bg_store_handle_at(store, SIZE_MAX, &handle));
    CHECK(handle == BG_LAYER_NONE);
    /* The freed slot comes back under generation 2; the old handle is told apart. */
    EXPECT_OK(bg_layer_add(store, BG_LAYER_NONE, &reused));
    CHECK(bg_layer_slot(reused) == 1 && bg_layer_generation(reused) == 2);
    EXPECT(bg_layer_get_bounds(store, b, bounds), BG_ERROR_STALE_LAYER,
           "layer 1#0 is stale: the layer was destroyed and slot 1 now holds generation 2");
    /* A copy changes independently. */
    EXPECT_OK(bg_store_copy(store, &copy));
    const double moved[4] = {0, 0, 99, 99};
    EXPECT_OK(bg_layer_set_bounds(copy, c, moved));
    EXPECT_OK(bg_layer_get_bounds(store, c, bounds));
    EXPECT_DOUBLES(bounds, 4, 0, 0, 5, 5);
    EXPECT_OK(bg_layer_get_bounds(copy, c, bounds));
    EXPECT_DOUBLES(bounds, 4, 0, 0, 99, 99);
    bg_store_destroy(copy);
    bg_store_destroy(store);
}

static void test_structure(void) {
    bg_store *store = NULL;
    bg_layer window, a, b, c, list[8], layer = 0;
    size_t count = 0, destroyed = 0;
    bool detached = false;
    EXPECT_OK(bg_store_create(0, &store));
    window = add_layer(store, BG_LAYER_NONE, 0, 0, 100, 100);
    a = add_layer(store, window, 0, 0, 10, 10);
    b = add_layer(store, window, 0, 0, 10, 10);
    c = add_layer(store, a, 0, 0, 5, 5);
    EXPECT_OK(bg_layer_get_sublayers(store, window, list, 8, &count));
    CHECK(count == 2 && list[0] == a && list[1] == b);
    EXPECT_OK(bg_layer_insert(store, b, window, 0));
    EXPECT_OK(bg_layer_get_sublayers(store, window, list, 8, &count));
    CHECK(count == 2 && list[0] == b && list[1] == a);
    EXPECT_OK(bg_layer_move(store, b, window));
    EXPECT_OK(bg_layer_get_sublayers(store, window, list, 8, &count));
    CHECK(count == 2 && list[0] == a && list[1] == b);
    EXPECT_OK(bg_layer_move(store, c, BG_LAYER_NONE));
    EXPECT_OK(bg_store_roots(store, list, 8, &count));
    CHECK(count == 2 && list[0] == window && list[1] == c);
    EXPECT_OK(bg_layer_get_superlayer(store, c, &layer));
    CHECK(layer == BG_LAYER_NONE);
    EXPECT_OK(bg_layer_insert(store, c, a, 0));
    EXPECT_OK(bg_layer_get_superlayer(store, c, &layer));
    CHECK(layer == a);
    /* Each mistake is its LayerStoreError, word for word, and changes nothing. */
    unsigned long long before = fingerprint(store);
    EXPECT(bg_layer_insert(store, window, c, 0), BG_ERROR_CYCLE,
           "making layer 3#0 the superlayer of layer 0#0 would make a cycle (it is inside layer 0#0's subtree)");
    EXPECT(bg_layer_move(store, a, a), BG_ERROR_CYCLE, "layer 1#0 cannot be its own superlayer");
    EXPECT(bg_layer_insert(store, b, window, 5), BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE,
           "sublayer index 5 is out of range (1 sublayers)");
    EXPECT(bg_layer_insert(store, b, window, -1), BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE,
           "sublayer index -1 is out of range (1 sublayers)");
    EXPECT(bg_layer_move(store, a, (bg_layer)7), BG_ERROR_STALE_SUPERLAYER,
           "superlayer layer 7#0 is stale: no live layer of this store has that handle (destroyed, or never this "
           "store's)");
    EXPECT(bg_layer_add(store, ((bg_layer)4 << 32) | 1, &layer), BG_ERROR_STALE_SUPERLAYER,
           "superlayer layer 1#4 is stale: no live layer of this store has that handle (destroyed, or never this "
           "store's)");
    EXPECT(bg_layer_add_at(store, window, 3, &layer), BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE,
           "sublayer index 3 is out of range (2 sublayers)");
    CHECK(fingerprint(store) == before);
    /* A row insert: the new layer is sublayer 1, between a and b. */
    bg_layer row = 0;
    EXPECT_OK(bg_layer_add_at(store, window, 1, &row));
    EXPECT_OK(bg_layer_get_sublayers(store, window, list, 8, &count));
    CHECK(count == 3 && list[0] == a && list[1] == row && list[2] == b);
    EXPECT_OK(bg_layer_destroy(store, row, &destroyed));
    CHECK(destroyed == 1);
    /* A range move: sublayers 1..<2 of window (b) by {0.25, 0.1}, as bg_layer_set_position
     * with position + offset; a (sublayer 0) keeps (5, 5). Mistakes change nothing. */
    const double down[2] = {0.25, 0.1}, five[2] = {5, 5};
    double moved[2] = {0, 0};
    EXPECT_OK(bg_layer_offset_positions(store, window, 1, 1, down));
    EXPECT_OK(bg_layer_get_position(store, b, moved));
    CHECK(moved[0] == 5.0 + 0.25 && moved[1] == 5.0 + 0.1);
    EXPECT_OK(bg_layer_get_position(store, a, moved));
    CHECK(moved[0] == 5 && moved[1] == 5);
    EXPECT_OK(bg_layer_set_position(store, b, five));
    before = fingerprint(store);
    EXPECT(bg_layer_offset_positions(store, window, 1, 2, down), BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE,
           "sublayer index 3 is out of range (2 sublayers)");
    EXPECT(bg_layer_offset_positions(store, window, 0, -1, down), BG_ERROR_INVALID_ARGUMENT,
           "bg_layer_offset_positions: count is negative (-1)");
    EXPECT(bg_layer_offset_positions(store, c, 0, 1, down), BG_ERROR_SUBLAYER_INDEX_OUT_OF_RANGE,
           "sublayer index 1 is out of range (0 sublayers)");
    CHECK(fingerprint(store) == before);
    /* Detach: kept with its subtree, out of the tree. */
    EXPECT_OK(bg_layer_detach(store, a));
    EXPECT_OK(bg_layer_detach(store, a)); /* already detached: nothing happens */
    EXPECT_OK(bg_layer_is_detached(store, c, &detached));
    CHECK(detached);
    EXPECT_OK(bg_store_roots(store, list, 8, &count));
    CHECK(count == 1 && list[0] == window);
    EXPECT_OK(bg_store_preorder(store, list, 8, &count));
    CHECK(count == 4 && list[0] == window && list[1] == b && list[2] == a && list[3] == c);
    EXPECT_OK(bg_layer_move(store, a, window));
    EXPECT_OK(bg_layer_is_detached(store, c, &detached));
    CHECK(!detached);
    EXPECT_OK(bg_store_preorder(store, list, 8, &count));
    CHECK(count == 4 && list[0] == window && list[1] == b && list[2] == a && list[3] == c);
    /* Destroy: the subtree goes; its slots come back, the top of the subtree first. */
    EXPECT_OK(bg_layer_destroy(store, a, &destroyed));
    CHECK(destroyed == 2);
    EXPECT_OK(bg_layer_destroy(store, b, NULL));
    EXPECT_OK(bg_store_layer_count(store, &count));
    CHECK(count == 1);
    EXPECT(bg_layer_destroy(store, c, NULL), BG_ERROR_STALE_LAYER,
           "layer 3#0 is stale: no live layer of this store has that handle (destroyed, or never this store's)");
    bg_store_destroy(store);
}

/* ==== The frame getter and setter: docs/GEOMETRY.md sections 3, 4 and 9 =============== */

static void test_frame_rules(void) {
    bg_store *store = NULL;
    double frame[4], bounds[4], position[2];
    EXPECT_OK(bg_store_create(0, &store));
    /* Seed 001, Q1: frame (100, 100, 100, 100), then scale(2, 2): frame (50, 50, 200, 200). */
    bg_layer view = add_layer(store, BG_LAYER_NONE, 100, 100, 100, 100);
    const double scale2[6] = {2, 0, 0, 2, 0, 0};
    EXPECT_OK(bg_layer_set_affine_transform(store, view, scale2));
    EXPECT_OK(bg_layer_get_frame(store, view, frame));
    EXPECT_DOUBLES(frame, 4, 50, 50, 200, 200);
    EXPECT_OK(bg_layer_get_bounds(store, view, bounds));
    EXPECT_DOUBLES(bounds, 4, 0, 0, 100, 100);
    /* Q3: then frame (50, 50, 100, 100): bounds (0, 0, 50, 50), position (100, 100). */
    const double q3[4] = {50, 50, 100, 100};
    EXPECT_OK(bg_layer_set_frame(store, view, q3));
    EXPECT_OK(bg_layer_get_bounds(store, view, bounds));
    EXPECT_DOUBLES(bounds, 4, 0, 0, 50, 50);
    EXPECT_OK(bg_layer_get_position(store, view, position));
    EXPECT_DOUBLES(position, 2, 100, 100);
    EXPECT_OK(bg_layer_get_frame(store, view, frame));
    EXPECT_DOUBLES(frame, 4, 50, 50, 100, 100);
    /* Q6: anchor point (0, 0) on a view at (100, 100, 100, 100) moves it to (150, 150). */
    bg_layer q6 = add_layer(store, BG_LAYER_NONE, 100, 100, 100, 100);
    const double origin[2] = {0, 0};
    EXPECT_OK(bg_layer_set_anchor_point(store, q6, origin));
    EXPECT_OK(bg_layer_get_frame(store, q6, frame));
    EXPECT_DOUBLES(frame, 4, 150, 150, 100, 100);
    /* X1: rotated by 0.1 rad and given frame (20, 20, 100, 100) again, it reads back
     * (11.063205, 20, 117.873589, 100) on iOS. */
    bg_layer x1 = add_layer(store, BG_LAYER_NONE, 20, 20, 100, 100);
    const double rotation[6] = {cos(0.1), sin(0.1), -sin(0.1), cos(0.1), 0, 0};
    const double x1frame[4] = {20, 20, 100, 100};
    EXPECT_OK(bg_layer_set_affine_transform(store, x1, rotation));
    EXPECT_OK(bg_layer_set_frame(store, x1, x1frame));
    EXPECT_OK(bg_layer_get_frame(store, x1, frame));
    EXPECT_NEAR(frame[0], 11.063205, 1e-5); /* the log prints six decimals of a float */
    EXPECT_NEAR(frame[1], 20, 1e-5);
    EXPECT_NEAR(frame[2], 117.873589, 1e-5);
    EXPECT_NEAR(frame[3], 100, 1e-5);
    /* X1, GNUstep: frame (10, 20, 100, 50) under scale(2, 4): bounds 50 x 12.5, position
     * (60, 45); under translate(10, 20): bounds 100 x 50, position (50, 25). */
    const double scale24[6] = {2, 0, 0, 4, 0, 0}, translate[6] = {1, 0, 0, 1, 10, 20};
    const double gnustep[4] = {10, 20, 100, 50};
    bg_layer g = add_layer(store, BG_LAYER_NONE, 0, 0, 0, 0);
    EXPECT_OK(bg_layer_set_affine_transform(store, g, scale24));
    EXPECT_OK(bg_layer_set_frame(store, g, gnustep));
    EXPECT_OK(bg_layer_get_bounds(store, g, bounds));
    EXPECT_DOUBLES(bounds, 4, 0, 0, 50, 12.5);
    EXPECT_OK(bg_layer_get_position(store, g, position));
    EXPECT_DOUBLES(position, 2, 60, 45);
    EXPECT_OK(bg_layer_set_affine_transform(store, g, translate));
    EXPECT_OK(bg_layer_set_frame(store, g, gnustep));
    EXPECT_OK(bg_layer_get_bounds(store, g, bounds));
    EXPECT_DOUBLES(bounds, 4, 0, 0, 100, 50);
    EXPECT_OK(bg_layer_get_position(store, g, position));
    EXPECT_DOUBLES(position, 2, 50, 25);
    /* Step 1 of the setter: a negative size is standardized. */
    bg_layer n = add_layer(store, BG_LAYER_NONE, 10, 10, -20, -30);
    EXPECT_OK(bg_layer_get_frame(store, n, frame));
    EXPECT_DOUBLES(frame, 4, -10, -20, 20, 30);
    /* The getter, operation by operation, for an arbitrary layer. */
    const double skew[6] = {1.25, 0.5, -0.75, 0.8, 3.5, -2.25}, b5[4] = {7, 9, 33.3, 21.7}, p5[2] = {101.1, 57.9};
    const double a5[2] = {0.3, 0.85};
    EXPECT_OK(bg_layer_set_bounds(store, n, b5));
    EXPECT_OK(bg_layer_set_position(store, n, p5));
    EXPECT_OK(bg_layer_set_anchor_point(store, n, a5));
    EXPECT_OK(bg_layer_set_affine_transform(store, n, skew));
    double expected[4];
    frame_by_hand(33.3, 21.7, 0.3, 0.85, skew, 101.1, 57.9, expected);
    EXPECT_OK(bg_layer_get_frame(store, n, frame));
    expect_doubles_at(frame, expected, 4, "frame of a skewed layer", __LINE__);
    bg_store_destroy(store);
}

/* ==== Every property: set, then read back ============================================= */

static void test_properties(void) {
    bg_store *store = NULL;
    double v[16];
    bool flag = true;
    int32_t kind = -1;
    uint32_t mask = 1;
    EXPECT_OK(bg_store_create(0, &store));
    bg_layer s = add_layer(store, BG_LAYER_NONE, 0, 0, 100, 50);
    bg_layer l = add_layer(store, s, 10, 20, 100, 50);
    /* Defaults (GEOMETRY.md section 2). */
    EXPECT_OK(bg_layer_get_anchor_point(store, l, v));
    EXPECT_DOUBLES(v, 2, 0.5, 0.5);
    EXPECT_OK(bg_layer_get_z_position(store, l, v));
    EXPECT_OK(bg_layer_get_anchor_point_z(store, l, v + 1));
    EXPECT_DOUBLES(v, 2, 0, 0);
    EXPECT_OK(bg_layer_get_hidden(store, l, &flag));
    CHECK(!flag);
    EXPECT_OK(bg_layer_get_autoresizes_subviews(store, l, &flag));
    CHECK(flag);
    EXPECT_OK(bg_layer_get_transform_kind(store, l, &kind));
    CHECK(kind == BG_TRANSFORM_IDENTITY);
    /* Position, center (the same), z. */
    const double p[2] = {60.5, 45.25};
    EXPECT_OK(bg_layer_set_center(store, l, p));
    EXPECT_OK(bg_layer_get_position(store, l, v));
    EXPECT_DOUBLES(v, 2, 60.5, 45.25);
    EXPECT_OK(bg_layer_get_center(store, l, v));
    EXPECT_DOUBLES(v, 2, 60.5, 45.25);
    EXPECT_OK(bg_layer_set_z_position(store, l, 4.5));
    EXPECT_OK(bg_layer_set_anchor_point_z(store, l, -2));
    EXPECT_OK(bg_layer_get_z_position(store, l, v));
    EXPECT_OK(bg_layer_get_anchor_point_z(store, l, v + 1));
    EXPECT_DOUBLES(v, 2, 4.5, -2);
    const double centered[2] = {60, 45};
    EXPECT_OK(bg_layer_set_position(store, l, centered));
    /* Local(L) = T(-(bo + a*size)) * transform * T(position): a translation by (10, 20). */
    EXPECT_OK(bg_layer_set_z_position(store, l, 0));
    EXPECT_OK(bg_layer_set_anchor_point_z(store, l, 0));
    EXPECT_OK(bg_layer_get_local_transform(store, l, v));
    EXPECT_DOUBLES(v, 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 0, 1);
    /* ... and Flat(S) of its (flattening) superlayer zeroes the third column. */
    EXPECT_OK(bg_layer_get_transform_to_superlayer(store, l, v));
    EXPECT_DOUBLES(v, 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 10, 20, 0, 1);
    /* Flip(S): y -> (2 bo.y + h) - y for S's bounds (0, 0, 100, 50). */
    EXPECT_OK(bg_layer_set_geometry_flipped(store, s, true));
    EXPECT_OK(bg_layer_get_geometry_flipped(store, s, &flag));
    CHECK(flag);
    EXPECT_OK(bg_layer_get_sublayer_adjustment(store, s, v));
    EXPECT_DOUBLES(v, 16, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, 0, 50, 0, 1);
    EXPECT_OK(bg_layer_set_geometry_flipped(store, s, false));
    /* Transforms: kinds, the affine part, the sublayer transform. */
    const double translation[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1};
    const double scale[6] = {2, 0, 0, 3, 0, 0}, rotate[6] = {0, 1, -1, 0, 0, 0};
    const double tilt[16] = {1, 0, 0.5, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const double perspective[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1};
    EXPECT_OK(bg_layer_set_transform(store, l, translation));
    EXPECT_OK(bg_layer_get_transform_kind(store, l, &kind));
    CHECK(kind == BG_TRANSFORM_TRANSLATE);
    EXPECT_OK(bg_layer_get_transform(store, l, v));
    expect_doubles_at(v, translation, 16, "transform", __LINE__);
    EXPECT_OK(bg_layer_set_affine_transform(store, l, scale));
    EXPECT_OK(bg_layer_get_transform_kind(store, l, &kind));
    CHECK(kind == BG_TRANSFORM_SCALE);
    EXPECT_OK(bg_layer_set_affine_transform(store, l, rotate));
    EXPECT_OK(bg_layer_get_transform_kind(store, l, &kind));
    CHECK(kind == BG_TRANSFORM_AFFINE);
    EXPECT_OK(bg_layer_get_transform(store, l, v));
    EXPECT_DOUBLES(v, 16, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    EXPECT_OK(bg_layer_set_transform(store, l, tilt));
    EXPECT_OK(bg_layer_get_transform_kind(store, l, &kind));
    CHECK(kind == BG_TRANSFORM_THREE_DIMENSIONAL);
    EXPECT_OK(bg_layer_set_transform(store, l, perspective));
    EXPECT_OK(bg_layer_get_transform_kind(store, l, &kind));
    CHECK(kind == BG_TRANSFORM_PERSPECTIVE);
    EXPECT_OK(bg_layer_get_affine_transform(store, l, v));
    EXPECT_DOUBLES(v, 6, 1, 0, 0, 1, 0, 0);
    EXPECT_OK(bg_layer_set_sublayer_transform(store, l, perspective));
    EXPECT_OK(bg_layer_get_sublayer_transform(store, l, v));
    expect_doubles_at(v, perspective, 16, "sublayer transform", __LINE__);
    /* Flags. */
    EXPECT_OK(bg_layer_set_masks_to_bounds(store, l, true));
    EXPECT_OK(bg_layer_get_masks_to_bounds(store, l, &flag));
    CHECK(flag);
    EXPECT_OK(bg_layer_set_hidden(store, l, true));
    EXPECT_OK(bg_layer_get_hidden(store, l, &flag));
    CHECK(flag);
    EXPECT_OK(bg_layer_set_transform_layer(store, l, true));
    EXPECT_OK(bg_layer_get_transform_layer(store, l, &flag));
    CHECK(flag);
    EXPECT_OK(bg_layer_set_autoresizes_subviews(store, l, false));
    EXPECT_OK(bg_layer_get_autoresizes_subviews(store, l, &flag));
    CHECK(!flag);
    /* Autoresizing masks keep the six UIKit bits only. */
    EXPECT_OK(bg_layer_set_autoresizing_mask(store, l, 0xFFFFu));
    EXPECT_OK(bg_layer_get_autoresizing_mask(store, l, &mask));
    CHECK(mask == BG_AUTORESIZING_ALL);
    EXPECT_OK(bg_layer_set_autoresizing_mask(store, l, BG_AUTORESIZING_NONE));
    EXPECT_OK(bg_layer_get_autoresizing_mask(store, l, &mask));
    CHECK(mask == 0);
    bg_store_destroy(store);
}

/* ==== Scroll views and the display scale: GEOMETRY.md section 8, X4 =================== */

static void test_scroll_views(void) {
    bg_store *store = NULL;
    double v[4], size[2] = {-1, -1}, inset[4] = {-1, -1, -1, -1};
    bool is_scroll_view = true;
    EXPECT_OK(bg_store_create(0, &store));
    bg_layer list = add_layer(store, BG_LAYER_NONE, 0, 400, 375, 300);
    /* contentOffset rounds to pixels: round() at scale 1 (ties away from zero), else
     * floor(v) + round((v - floor(v)) * s) / s. */
    const double offset[2] = {3.8, -2.5};
    EXPECT_OK(bg_layer_set_content_offset(store, list, offset));
    EXPECT_OK(bg_layer_get_content_offset(store, list, v));
    EXPECT_DOUBLES(v, 2, 4, -3);
    EXPECT_OK(bg_store_set_display_scale(store, 2));
    const double at2[2] = {3.8, 0};
    EXPECT_OK(bg_layer_set_content_offset(store, list, at2));
    EXPECT_OK(bg_layer_get_content_offset(store, list, v));
    EXPECT_DOUBLES(v, 2, 4, 0);
    EXPECT_OK(bg_store_set_display_scale(store, 3));
    EXPECT_OK(bg_store_get_display_scale(store, v));
    CHECK(v[0] == 3);
    const double at3[2] = {71.75, -187.5};
    EXPECT_OK(bg_layer_set_content_offset(store, list, at3));
    EXPECT_OK(bg_layer_get_content_offset(store, list, v));
    EXPECT_DOUBLES(v, 2, 71.66666666666667, -187.33333333333334);
    /* Bounds never round. */
    const double bounds[4] = {3.8, 0, 375, 300};
    EXPECT_OK(bg_layer_set_bounds(store, list, bounds));
    EXPECT_OK(bg_layer_get_content_offset(store, list, v));
    EXPECT_DOUBLES(v, 2, 3.8, 0);
    /* Not a scroll view yet. */
    EXPECT_OK(bg_layer_get_scroll_view(store, list, &is_scroll_view, size, inset));
    CHECK(!is_scroll_view && size[0] == -1);
    unsigned long long before = fingerprint(store);
    const double far[2] = {0, 5000};
    EXPECT(bg_layer_scroll(store, list, far, v), BG_ERROR_NOT_A_SCROLL_VIEW,
           "layer 0#0 is not a scroll view (it has no contentSize)");
    EXPECT(bg_layer_get_scroll_range(store, list, v), BG_ERROR_NOT_A_SCROLL_VIEW,
           "layer 0#0 is not a scroll view (it has no contentSize)");
    CHECK(fingerprint(store) == before);
    /* SCENE-FORMAT.md's scroller: content 375 x 2000, bottom inset 20, 300 high: y in
     * [0, 2000 + 20 - 300] = [0, 1720]; x in [0, max(0, 375 - 375)]. */
    const double content[2] = {375, 2000}, insets[4] = {0, 0, 20, 0};
    EXPECT_OK(bg_layer_set_scroll_view(store, list, content, insets));
    EXPECT_OK(bg_layer_get_scroll_view(store, list, &is_scroll_view, size, inset));
    CHECK(is_scroll_view);
    EXPECT_DOUBLES(size, 2, 375, 2000);
    EXPECT_DOUBLES(inset, 4, 0, 0, 20, 0);
    EXPECT_OK(bg_layer_get_scroll_range(store, list, v));
    EXPECT_DOUBLES(v, 4, 0, 0, 0, 1720);
    EXPECT_OK(bg_layer_scroll(store, list, far, v));
    EXPECT_DOUBLES(v, 2, 0, 1720);
    const double back[2] = {-50, -50};
    EXPECT_OK(bg_layer_scroll(store, list, back, NULL));
    EXPECT_OK(bg_layer_get_content_offset(store, list, v));
    EXPECT_DOUBLES(v, 2, 0, 0);
    /* NaN in an inset leaves no range: NaN in all four. */
    const double nan_inset[4] = {0, NAN, 0, 0};
    EXPECT_OK(bg_layer_set_scroll_view(store, list, content, nan_inset));
    EXPECT_OK(bg_layer_get_scroll_range(store, list, v));
    CHECK(isnan(v[0]) && isnan(v[1]) && isnan(v[2]) && isnan(v[3]));
    /* No content size: an ordinary layer again. */
    EXPECT_OK(bg_layer_set_scroll_view(store, list, NULL, NULL));
    EXPECT_OK(bg_layer_get_scroll_view(store, list, &is_scroll_view, NULL, NULL));
    CHECK(!is_scroll_view);
    bg_store_destroy(store);
}

/* ==== Autoresizing: GEOMETRY.md section 4, X6 ========================================= */

static void test_autoresizing(void) {
    bg_store *store = NULL;
    double frame[4];
    EXPECT_OK(bg_store_create(0, &store));
    bg_layer super = add_layer(store, BG_LAYER_NONE, 0, 0, 100, 100);
    bg_layer l = add_layer(store, super, 10, 10, 30, 30);
    EXPECT_OK(bg_layer_set_autoresizing_mask(store, l, BG_AUTORESIZING_FLEXIBLE_LEFT_MARGIN |
                                                           BG_AUTORESIZING_FLEXIBLE_RIGHT_MARGIN));
    /* Width 100 -> 200: p = 10, w = 30, r = (100 - 10) - 30 = 60, d = 100, T = p + r;
     * p' = p + (d * p) / T; position.x = (0 + p') + 0.5 * 30; the getter's x = -15 + position.x. */
    const double wider[4] = {0, 0, 200, 100};
    EXPECT_OK(bg_layer_set_bounds(store, super, wider));
    double p = 10, r = (100 - p) - 30, T = p + r;
    double p1 = p + (100 * p) / T;
    double x = -15 + ((0 + p1) + 0.5 * 30);
    EXPECT_OK(bg_layer_get_frame(store, l, frame));
    EXPECT_DOUBLES(frame, 4, x, 10, 30, 30);
    EXPECT_NEAR(frame[0], 24.285714285714285, 1e-12); /* X6: 24.2857... unrounded */
    /* autoresizesSubviews false: the superlayer's size changes resize nothing. */
    EXPECT_OK(bg_layer_set_autoresizes_subviews(store, super, false));
    const double back[4] = {0, 0, 100, 100};
    EXPECT_OK(bg_layer_set_bounds(store, super, back));
    EXPECT_OK(bg_layer_get_frame(store, l, frame));
    EXPECT_DOUBLES(frame, 4, x, 10, 30, 30);
    bg_store_destroy(store);
}

/* ==== Frames in batch ================================================================= */

static void test_batch_frames(void) {
    enum { LAYERS = 50 };
    bg_store *store = NULL;
    bg_layer layers[LAYERS];
    double frames[LAYERS * 4], again[LAYERS * 4], expected[4], one[4];
    EXPECT_OK(bg_store_create(LAYERS, &store));
    for (int i = 0; i < LAYERS; i++) {
        /* The benchmark workload's recipe (Benchmarks/README.md), small. */
        const double bounds[4] = {0, 0, 20 + i % 50, 10 + i % 30}, position[2] = {3 * (i % 97), 5 * (i % 89)};
        const double anchor[2] = {i % 7 == 0 ? 0 : 0.5, i % 7 == 0 ? 0 : 0.5};
        double angle = (i % 360) * 3.141592653589793 / 180;
        double t[6] = {1, 0, 0, 1, i % 13, i % 17 - 8};
        if (i % 10 >= 5 && i % 10 <= 6) t[0] = 1 + (i % 5) * 0.25, t[3] = 1.5, t[4] = t[5] = 0;
        if (i % 10 >= 7 && i % 10 <= 8) t[0] = cos(angle), t[1] = sin(angle), t[2] = -sin(angle), t[3] = cos(angle),
                                        t[4] = t[5] = 0;
        EXPECT_OK(bg_layer_add(store, i == 0 ? BG_LAYER_NONE : layers[(i - 1) / 8], &layers[i]));
        EXPECT_OK(bg_layer_set_bounds(store, layers[i], bounds));
        EXPECT_OK(bg_layer_set_position(store, layers[i], position));
        EXPECT_OK(bg_layer_set_anchor_point(store, layers[i], anchor));
        EXPECT_OK(bg_layer_set_affine_transform(store, layers[i], t));
    }
    EXPECT_OK(bg_store_frames(store, frames, LAYERS));
    int all_match = 1;
    for (int i = 0; i < LAYERS; i++) {
        double bounds[4], position[2], anchor[2], t[6];
        bg_layer_get_bounds(store, layers[i], bounds);
        bg_layer_get_position(store, layers[i], position);
        bg_layer_get_anchor_point(store, layers[i], anchor);
        bg_layer_get_affine_transform(store, layers[i], t);
        frame_by_hand(bounds[2], bounds[3], anchor[0], anchor[1], t, position[0], position[1], expected);
        bg_layer_get_frame(store, layers[i], one);
        for (int k = 0; k < 4; k++) all_match &= same_double(frames[4 * i + k], expected[k]) && one[k] == expected[k];
    }
    CHECK(all_match);
    /* Every backend and thread count gives the same bits. */
    const int32_t backends[] = {BG_BACKEND_SCALAR, BG_BACKEND_SIMD, BG_BACKEND_C, BG_BACKEND_AUTO};
    for (size_t b = 0; b < COUNT(backends); b++) {
        for (int32_t threads = 1; threads <= 3; threads++) {
            EXPECT_OK(bg_store_set_options(store, backends[b], threads));
            EXPECT_OK(bg_store_frames(store, again, LAYERS));
            CHECK(memcmp(frames, again, sizeof frames) == 0);
        }
    }
    /* The columns, lent without a copy. */
    const double *x = NULL, *y = NULL, *w = NULL, *h = NULL;
    size_t count = 0;
    EXPECT_OK(bg_store_frames_columns(store, &x, &y, &w, &h, &count));
    CHECK(count == LAYERS);
    int columns_match = 1;
    for (int i = 0; i < LAYERS; i++) {
        columns_match &= x[i] == frames[4 * i] && y[i] == frames[4 * i + 1] && w[i] == frames[4 * i + 2] &&
                         h[i] == frames[4 * i + 3];
    }
    CHECK(columns_match);
    /* A free slot's frame is zero; the others keep theirs. */
    EXPECT_OK(bg_layer_destroy(store, layers[LAYERS - 1], NULL));
    EXPECT_OK(bg_store_frames(store, again, LAYERS));
    EXPECT_DOUBLES(again + 4 * (LAYERS - 1), 4, 0, 0, 0, 0);
    CHECK(memcmp(frames, again, 4 * (LAYERS - 1) * sizeof(double)) == 0);
    bg_store_destroy(store);
}

/* ==== World transforms: SCENE-FORMAT.md's example, built with setters ================= */

static bg_layer spec_window, spec_card, spec_scroller;

/* The scene of docs/SCENE-FORMAT.md ("Input"), layer keys in creation order, then its
 * two operations. */
static bg_store *spec_scene(void) {
    bg_store *store = NULL;
    EXPECT_OK(bg_store_create(0, &store));
    EXPECT_OK(bg_store_set_display_scale(store, 3));
    spec_window = add_layer(store, BG_LAYER_NONE, 0, 0, 375, 812);
    const double card_bounds[4] = {0, 0, 200, 120}, card_position[2] = {187.5, 300}, center[2] = {0.5, 0.5};
    const double scale2[6] = {2, 0, 0, 2, 0, 0};
    EXPECT_OK(bg_layer_add(store, spec_window, &spec_card));
    EXPECT_OK(bg_layer_set_anchor_point(store, spec_card, center));
    EXPECT_OK(bg_layer_set_bounds(store, spec_card, card_bounds));
    EXPECT_OK(bg_layer_set_position(store, spec_card, card_position));
    EXPECT_OK(bg_layer_set_affine_transform(store, spec_card, scale2));
    EXPECT_OK(bg_layer_set_masks_to_bounds(store, spec_card, true));
    spec_scroller = add_layer(store, spec_window, 0, 400, 375, 300);
    const double content[2] = {375, 2000}, inset[4] = {0, 0, 20, 0}, origin[2] = {0, 0}, far[2] = {0, 5000};
    EXPECT_OK(bg_layer_set_scroll_view(store, spec_scroller, content, inset));
    EXPECT_OK(bg_layer_set_anchor_point(store, spec_card, origin));
    EXPECT_OK(bg_layer_scroll(store, spec_scroller, far, NULL));
    return store;
}

static void test_world(void) {
    bg_store *store = spec_scene();
    double world[4 * 16], again[4 * 16], one[16], frame[4];
    EXPECT_OK(bg_layer_get_frame(store, spec_card, frame));
    EXPECT_DOUBLES(frame, 4, 187.5, 300, 400, 240);
    EXPECT_OK(bg_store_world_transforms(store, world, 3));
    /* "toWorld" of SCENE-FORMAT.md's output. */
    EXPECT_DOUBLES(world, 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    EXPECT_DOUBLES(world + 16, 16, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 187.5, 300, 0, 1);
    EXPECT_DOUBLES(world + 32, 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, -1320, 0, 1);
    EXPECT_OK(bg_layer_get_world_transform(store, spec_card, one));
    CHECK(memcmp(one, world + 16, sizeof one) == 0);
    /* The affine parts: m11 m12 m21 m22 m41 m42; exact without perspective. */
    bool exact[3] = {false, false, false};
    EXPECT_OK(bg_store_world_affine_transforms(store, again, exact, 3));
    EXPECT_DOUBLES(again, 18, 1, 0, 0, 1, 0, 0, 2, 0, 0, 2, 187.5, 300, 1, 0, 0, 1, 0, -1320);
    CHECK(exact[0] && exact[1] && exact[2]);
    /* On a copy: a perspective sublayer transform leaves the card's plane (z = 0) affine
     * (its m34 multiplies z only); a transform with m14 != 0 does not. */
    bg_store *tilted = NULL;
    EXPECT_OK(bg_store_copy(store, &tilted));
    const double perspective[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1};
    const double tilt[16] = {1, 0, 0, 0.001, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    EXPECT_OK(bg_layer_set_sublayer_transform(tilted, spec_window, perspective));
    EXPECT_OK(bg_store_world_affine_transforms(tilted, again, exact, 3));
    CHECK(exact[0] && exact[1] && exact[2]);
    EXPECT_OK(bg_layer_set_transform(tilted, spec_card, tilt));
    EXPECT_OK(bg_store_world_affine_transforms(tilted, again, NULL, 3));
    EXPECT_OK(bg_store_world_affine_transforms(tilted, again, exact, 3));
    CHECK(exact[0] && !exact[1] && exact[2]);
    bg_store_destroy(tilted);
    /* The full pass gives the same bits as the incremental update, before and after a change. */
    EXPECT_OK(bg_store_compute_world(store));
    EXPECT_OK(bg_store_world_transforms(store, again, 3));
    CHECK(memcmp(world, again, 3 * 16 * sizeof(double)) == 0);
    const double moved[2] = {200, 310};
    EXPECT_OK(bg_layer_set_position(store, spec_card, moved));
    EXPECT_OK(bg_store_update_world(store));
    EXPECT_OK(bg_store_world_transforms(store, world, 3));
    EXPECT_DOUBLES(world + 16, 16, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 200, 310, 0, 1);
    EXPECT_OK(bg_store_invalidate_world(store));
    EXPECT_OK(bg_store_compute_world(store));
    EXPECT_OK(bg_store_world_transforms(store, again, 3));
    CHECK(memcmp(world, again, 3 * 16 * sizeof(double)) == 0);
    /* A free slot's entry is the identity. */
    bg_layer extra = add_layer(store, spec_card, 5, 5, 5, 5);
    EXPECT_OK(bg_layer_destroy(store, extra, NULL));
    EXPECT_OK(bg_store_world_transforms(store, world, 4));
    EXPECT_DOUBLES(world + 48, 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    bg_store_destroy(store);
    /* Seed 000: a view at (100, 100, 200, 200) with bounds origin (-20, -20); its subview at
     * frame (0, 0, 100, 100) appears at world (120, 120). Bounds origins add up: two views
     * with bounds (0, 100, 100, 100) shift a view inside both 200 points up. */
    double rect[4];
    EXPECT_OK(bg_store_create(0, &store));
    bg_layer view = add_layer(store, BG_LAYER_NONE, 100, 100, 200, 200);
    const double shifted[4] = {-20, -20, 200, 200}, scrolled[4] = {0, 100, 100, 100};
    EXPECT_OK(bg_layer_set_bounds(store, view, shifted));
    bg_layer sub = add_layer(store, view, 0, 0, 100, 100);
    bg_layer view1 = add_layer(store, BG_LAYER_NONE, 0, 0, 100, 100);
    bg_layer view2 = add_layer(store, view1, 0, 0, 100, 100);
    EXPECT_OK(bg_layer_set_bounds(store, view1, scrolled));
    EXPECT_OK(bg_layer_set_bounds(store, view2, scrolled));
    bg_layer view3 = add_layer(store, view2, 0, 0, 100, 100);
    EXPECT_OK(bg_layer_get_world_rect(store, sub, rect));
    EXPECT_DOUBLES(rect, 4, 120, 120, 220, 220);
    EXPECT_OK(bg_layer_get_world_rect(store, view3, rect));
    EXPECT_DOUBLES(rect, 4, 0, -200, 100, -100);
    bg_store_destroy(store);
}

static void test_rects_clips_visibility(void) {
    bg_store *store = spec_scene();
    double rects[6 * 4], clips[6 * 4], one[4], quad[10];
    bool masked[6], visible[6];
    size_t count = 0;
    /* A badge in the card: frame (150, 100, 100, 50) in card space; the card maps (x, y) to
     * (2x + 187.5, 2y + 300), so its world rect is (487.5, 500)...(687.5, 600). */
    bg_layer badge = add_layer(store, spec_card, 150, 100, 100, 50);
    bg_layer hidden = add_layer(store, spec_window, 0, 0, 10, 10);
    EXPECT_OK(bg_layer_set_hidden(store, hidden, true));
    bg_layer detached = add_layer(store, spec_window, 0, 0, 10, 10);
    EXPECT_OK(bg_layer_detach(store, detached));
    EXPECT_OK(bg_store_world_rects(store, rects, 6));
    EXPECT_DOUBLES(rects, 4, 0, 0, 375, 812);
    EXPECT_DOUBLES(rects + 4, 4, 187.5, 300, 587.5, 540);
    EXPECT_DOUBLES(rects + 8, 4, 0, 400, 375, 700);
    EXPECT_DOUBLES(rects + 12, 4, 487.5, 500, 687.5, 600);
    EXPECT_DOUBLES(rects + 16, 4, 0, 0, 10, 10);
    EXPECT_DOUBLES(rects + 20, 4, INFINITY, INFINITY, INFINITY, INFINITY); /* detached: null */
    EXPECT_OK(bg_layer_get_world_rect(store, badge, one));
    CHECK(memcmp(one, rects + 12, sizeof one) == 0);
    EXPECT_OK(bg_layer_get_world_rect(store, detached, one));
    EXPECT_DOUBLES(one, 4, INFINITY, INFINITY, INFINITY, INFINITY);
    /* Clip rects: only the card masks, and a layer does not clip itself. */
    EXPECT_OK(bg_store_clip_rects(store, clips, masked, 6));
    CHECK(!masked[0] && !masked[1] && !masked[2] && masked[3] && !masked[4]);
    EXPECT_DOUBLES(clips, 4, -INFINITY, -INFINITY, INFINITY, INFINITY);
    EXPECT_DOUBLES(clips + 4, 4, -INFINITY, -INFINITY, INFINITY, INFINITY);
    EXPECT_DOUBLES(clips + 12, 4, 187.5, 300, 587.5, 540);
    EXPECT_OK(bg_store_clip_rects(store, clips, NULL, 6));
    /* Visibility: world rect, clip rect and viewport must share a positive area; hidden and
     * detached layers are not visible. */
    const double viewport[4] = {0, 0, 375, 812};
    EXPECT_OK(bg_store_visibility(store, viewport, visible, 6));
    CHECK(visible[0] && visible[1] && visible[2] && !visible[3] && !visible[4] && !visible[5]);
    EXPECT_OK(bg_store_visibility(store, NULL, visible, 6));
    CHECK(visible[3]); /* 487.5...587.5 x 500...540 is inside the card's clip */
    EXPECT_OK(bg_layer_set_hidden(store, hidden, false));
    EXPECT_OK(bg_store_visibility(store, NULL, visible, 6));
    CHECK(visible[4]);
    /* A clip that removes everything: the card's world rect moved off the badge. */
    const double small[4] = {0, 0, 10, 10};
    EXPECT_OK(bg_layer_set_bounds(store, spec_card, small));
    EXPECT_OK(bg_store_visibility(store, NULL, visible, 6));
    CHECK(!visible[3]);
    /* The card's quad: its world rect's corners, around from (minX, minY). */
    EXPECT_OK(bg_layer_set_bounds(store, spec_card, (const double[4]){0, 0, 200, 120}));
    EXPECT_OK(bg_layer_get_projected_quad(store, spec_card, 1e-5, quad, 5, &count));
    CHECK(count == 4);
    EXPECT_DOUBLES(quad, 8, 187.5, 300, 587.5, 300, 587.5, 540, 187.5, 540);
    count = 0;
    EXPECT(bg_layer_get_projected_quad(store, spec_card, 1e-5, NULL, 0, &count), BG_ERROR_BUFFER_TOO_SMALL,
           "bg_layer_get_projected_quad: capacity 0 is too small: 4 needed");
    CHECK(count == 4);
    bg_store_destroy(store);
}

/* ==== Hit testing and conversion: GEOMETRY.md sections 5 and 7 ======================== */

static void test_hit_testing_and_conversion(void) {
    bg_store *store = spec_scene();
    bg_layer hits[8];
    double points[8], out[8];
    bool converted[4] = {false, false, false, false};
    /* SCENE-FORMAT.md: hitTests [[190, 310], [10, 10]] hit the card, then the window. */
    const double spec_points[6] = {190, 310, 10, 10, 400, 900};
    EXPECT_OK(bg_store_hit_test(store, spec_points, 3, BG_HIT_TEST_LAYER, hits));
    CHECK(hits[0] == spec_card && hits[1] == spec_window && hits[2] == BG_LAYER_NONE);
    EXPECT_OK(bg_store_hit_test(store, spec_points, 3, BG_HIT_TEST_VIEW, hits));
    CHECK(hits[0] == spec_card && hits[1] == spec_window && hits[2] == BG_LAYER_NONE);
    /* A layer outside its superlayer: the layer rule hits it (nothing masks), the view
     * rule does not (a point outside the window misses its subtree). */
    bg_layer tab = add_layer(store, spec_window, 400, 0, 50, 50);
    const double outside[2] = {420, 10};
    EXPECT_OK(bg_store_hit_test(store, outside, 1, BG_HIT_TEST_LAYER, hits));
    CHECK(hits[0] == tab);
    EXPECT_OK(bg_store_hit_test(store, outside, 1, BG_HIT_TEST_VIEW, hits));
    CHECK(hits[0] == BG_LAYER_NONE);
    /* Two siblings in one place, the first with the higher zPosition: the layer rule goes by
     * zPosition, the view rule by sublayer order. */
    bg_layer first = add_layer(store, spec_window, 0, 750, 50, 50);
    bg_layer second = add_layer(store, spec_window, 0, 750, 50, 50);
    EXPECT_OK(bg_layer_set_z_position(store, first, 1));
    const double both[2] = {10, 760};
    EXPECT_OK(bg_store_hit_test(store, both, 1, BG_HIT_TEST_LAYER, hits));
    CHECK(hits[0] == first);
    EXPECT_OK(bg_store_hit_test(store, both, 1, BG_HIT_TEST_VIEW, hits));
    CHECK(hits[0] == second);
    EXPECT_OK(bg_layer_set_hidden(store, second, true));
    EXPECT_OK(bg_store_hit_test(store, both, 1, BG_HIT_TEST_VIEW, hits));
    CHECK(hits[0] == first);
    /* A batch answers as single points do. */
    const double many[10] = {190, 310, 10, 10, 420, 10, 10, 760, 400, 900};
    bg_layer single;
    EXPECT_OK(bg_store_hit_test(store, many, 5, BG_HIT_TEST_LAYER, hits));
    int batch_matches = 1;
    for (int k = 0; k < 5; k++) {
        bg_store_hit_test(store, many + 2 * k, 1, BG_HIT_TEST_LAYER, &single);
        batch_matches &= single == hits[k];
    }
    CHECK(batch_matches);
    /* Conversion through the card's ToWorld, (x, y) -> (2x + 187.5, 2y + 300), and back;
     * `out` may be `points`. */
    points[0] = 0, points[1] = 0, points[2] = 10, points[3] = 5;
    EXPECT_OK(bg_store_convert_points(store, points, 2, spec_card, BG_LAYER_NONE, out, converted));
    EXPECT_DOUBLES(out, 4, 187.5, 300, 207.5, 310);
    CHECK(converted[0] && converted[1]);
    EXPECT_OK(bg_store_convert_points(store, out, 2, BG_LAYER_NONE, spec_card, out, NULL));
    EXPECT_DOUBLES(out, 4, 0, 0, 10, 5);
    /* The scroller's bounds origin is (0, 1720): world (0, 400) is its (0, 1720). */
    points[0] = 0, points[1] = 400;
    EXPECT_OK(bg_store_convert_points(store, points, 1, BG_LAYER_NONE, spec_scroller, out, NULL));
    EXPECT_DOUBLES(out, 2, 0, 1720);
    const double card_rect[4] = {0, 0, 10, 10};
    bool rect_converted = false;
    EXPECT_OK(bg_store_convert_rect(store, card_rect, spec_card, BG_LAYER_NONE, out, &rect_converted));
    CHECK(rect_converted);
    EXPECT_DOUBLES(out, 4, 187.5, 300, 20, 20);
    const double world_point[2] = {207.5, 310};
    EXPECT_OK(bg_layer_point_from_world(store, spec_card, world_point, out, &rect_converted));
    CHECK(rect_converted);
    EXPECT_DOUBLES(out, 2, 10, 5);
    /* A singular layer (scale 0) is never hit, and nothing converts into it. */
    bg_layer flat = add_layer(store, spec_window, 0, 0, 375, 812);
    const double zero[6] = {0, 0, 0, 0, 0, 0};
    EXPECT_OK(bg_layer_set_affine_transform(store, flat, zero));
    EXPECT_OK(bg_store_hit_test(store, spec_points, 1, BG_HIT_TEST_LAYER, hits));
    CHECK(hits[0] == spec_card);
    converted[0] = true;
    EXPECT_OK(bg_store_convert_points(store, spec_points, 1, BG_LAYER_NONE, flat, out, converted));
    CHECK(!converted[0] && isnan(out[0]) && isnan(out[1]));
    EXPECT_OK(bg_store_convert_rect(store, card_rect, BG_LAYER_NONE, flat, out, &rect_converted));
    CHECK(!rect_converted && isnan(out[0]));
    EXPECT_OK(bg_layer_point_from_world(store, flat, world_point, out, &rect_converted));
    CHECK(!rect_converted && isnan(out[0]));
    bg_store_destroy(store);
}

/* ==== Drawing order: GEOMETRY.md section 6 ============================================ */

static void test_draw_order(void) {
    bg_store *store = NULL;
    bg_layer order[8];
    size_t count = 0;
    EXPECT_OK(bg_store_create(0, &store));
    bg_layer window = add_layer(store, BG_LAYER_NONE, 0, 0, 100, 100);
    bg_layer a = add_layer(store, window, 0, 0, 10, 10);
    bg_layer b = add_layer(store, window, 0, 0, 10, 10);
    bg_layer c = add_layer(store, window, 0, 0, 10, 10);
    bg_layer a1 = add_layer(store, a, 0, 0, 5, 5);
    bg_layer other = add_layer(store, BG_LAYER_NONE, 0, 0, 10, 10);
    /* Sublayers stably by zPosition (b first at -1, a and its sublayer, c at 1); roots in
     * order whatever their zPosition. */
    EXPECT_OK(bg_layer_set_z_position(store, b, -1));
    EXPECT_OK(bg_layer_set_z_position(store, c, 1));
    EXPECT_OK(bg_layer_set_z_position(store, window, 5));
    EXPECT_OK(bg_store_draw_order(store, order, 8, &count));
    CHECK(count == 6 && order[0] == window && order[1] == b && order[2] == a && order[3] == a1 && order[4] == c &&
          order[5] == other);
    /* Hidden and detached subtrees are left out. */
    EXPECT_OK(bg_layer_set_hidden(store, a, true));
    EXPECT_OK(bg_layer_detach(store, c));
    EXPECT_OK(bg_store_draw_order(store, order, 8, &count));
    CHECK(count == 3 && order[0] == window && order[1] == b && order[2] == other);
    bg_store_destroy(store);
}

/* ==== The frame query: visible layers in drawing order, with their geometry ========== */

/* Examples/c/ui_tree.c's tree, plus a layer far outside the window and a hidden one:
 * window (0, 0, 375, 812) > header (0, 0, 375, 100); card (100, 200, 100, 100) scaled 2x
 * about its centre > button (10, 10, 30, 20); list (0, 450, 375, 300), masking, a scroll
 * view scrolled to (0, 700) > row0 (0, 0, 375, 50), row1 (0, 720, 375, 50); far (1000,
 * 1000, 10, 10); hidden (0, 0, 10, 10). By hand (Examples/README.md): the card maps (x, y)
 * to (2x + 50, 2y + 150), so its world rect is (50, 150)...(250, 350) and the button's
 * (70, 170)...(130, 210); the list shifts its sublayers by -700, so row0 lies at y
 * -250...-200, outside the list's clip (0, 450)...(375, 750), and row1 at 470...520. */
enum { F_WINDOW, F_HEADER, F_CARD, F_BUTTON, F_LIST, F_ROW0, F_ROW1, F_FAR, F_HIDDEN, F_LAYERS };
static bg_layer fq[F_LAYERS];

static bg_store *frame_scene(void) {
    bg_store *store = NULL;
    const double scale2[6] = {2, 0, 0, 2, 0, 0}, content[2] = {375, 1000}, scroll_to[2] = {0, 700};
    EXPECT_OK(bg_store_create(0, &store));
    fq[F_WINDOW] = add_layer(store, BG_LAYER_NONE, 0, 0, 375, 812);
    fq[F_HEADER] = add_layer(store, fq[F_WINDOW], 0, 0, 375, 100);
    fq[F_CARD] = add_layer(store, fq[F_WINDOW], 100, 200, 100, 100);
    fq[F_BUTTON] = add_layer(store, fq[F_CARD], 10, 10, 30, 20);
    fq[F_LIST] = add_layer(store, fq[F_WINDOW], 0, 450, 375, 300);
    fq[F_ROW0] = add_layer(store, fq[F_LIST], 0, 0, 375, 50);
    fq[F_ROW1] = add_layer(store, fq[F_LIST], 0, 720, 375, 50);
    fq[F_FAR] = add_layer(store, fq[F_WINDOW], 1000, 1000, 10, 10);
    fq[F_HIDDEN] = add_layer(store, fq[F_WINDOW], 0, 0, 10, 10);
    EXPECT_OK(bg_layer_set_affine_transform(store, fq[F_CARD], scale2));
    EXPECT_OK(bg_layer_set_masks_to_bounds(store, fq[F_LIST], true));
    EXPECT_OK(bg_layer_set_scroll_view(store, fq[F_LIST], content, NULL));
    EXPECT_OK(bg_layer_scroll(store, fq[F_LIST], scroll_to, NULL));
    EXPECT_OK(bg_layer_set_hidden(store, fq[F_HIDDEN], true));
    return store;
}

/* Checks that `got` (count entries) names the frame scene's layers `want` (-1 ends it). */
static void expect_frame_at(const bg_layer *got, size_t count, const int *want, const char *what, int line) {
    size_t wanted = 0;
    while (want[wanted] >= 0) wanted++;
    int same = count == wanted;
    for (size_t k = 0; same && k < count; k++) same = got[k] == fq[want[k]];
    check_at(same, fmt("%s: %zu layers, expected %zu in the order given", what, count, wanted), line);
}
#define EXPECT_FRAME(got, count, ...)                                                                \
    do {                                                                                             \
        const int wanted_[] = {__VA_ARGS__, -1};                                                     \
        expect_frame_at((got), (count), wanted_, #got, __LINE__);                                    \
    } while (0)

static void test_frame_query(void) {
    bg_store *store = frame_scene();
    bg_layer out[F_LAYERS];
    double transforms[F_LAYERS * 16], rects[F_LAYERS * 4], clips[F_LAYERS * 4], full[F_LAYERS * 16];
    bool masked[F_LAYERS];
    size_t count = 0, visited = 99, tested = 99;
    const double window[4] = {0, 0, 375, 812}, top[4] = {0, 0, 375, 120}, touch[4] = {60, 160, 20, 20};
    const double far_away[4] = {995, 995, 10, 10}, flipped[4] = {375, 812, -375, -812};
    /* Nothing measured before the first query. */
    EXPECT_OK(bg_store_get_frame_query_cost(store, &visited, &tested));
    CHECK(visited == 0 && tested == 0);
    /* The window shows everything but row0 (masked away), far and hidden, in drawing order. */
    EXPECT_OK(bg_store_frame_query_geometry(store, window, out, transforms, rects, clips, masked, F_LAYERS, &count));
    EXPECT_FRAME(out, count, F_WINDOW, F_HEADER, F_CARD, F_BUTTON, F_LIST, F_ROW1);
    EXPECT_DOUBLES(rects, 24, 0, 0, 375, 812, 0, 0, 375, 100, 50, 150, 250, 350, 70, 170, 130, 210, 0, 450, 375, 750,
                   0, 470, 375, 520);
    CHECK(!masked[0] && !masked[1] && !masked[2] && !masked[3] && !masked[4] && masked[5]);
    EXPECT_DOUBLES(clips, 8, -INFINITY, -INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, INFINITY, INFINITY);
    EXPECT_DOUBLES(clips + 20, 4, 0, 450, 375, 750);
    /* ToWorld: m11, m22, m41, m42 by hand; all 16 against the full pass, bit for bit. */
    const double *card = transforms + 2 * 16, *button = transforms + 3 * 16, *row1 = transforms + 5 * 16;
    CHECK(card[0] == 2 && card[5] == 2 && card[12] == 50 && card[13] == 150);
    CHECK(button[0] == 2 && button[5] == 2 && button[12] == 70 && button[13] == 170);
    CHECK(row1[0] == 1 && row1[5] == 1 && row1[12] == 0 && row1[13] == 470);
    EXPECT_OK(bg_store_world_transforms(store, full, F_LAYERS));
    int same_bits = 1;
    for (size_t k = 0; k < count; k++) {
        same_bits &= memcmp(transforms + 16 * k, full + 16 * bg_layer_slot(out[k]), 16 * sizeof(double)) == 0;
    }
    CHECK(same_bits);
    /* The layers-only form gives the same layers; a flipped rect is the same viewport. */
    bg_layer again[F_LAYERS];
    size_t again_count = 0;
    EXPECT_OK(bg_store_frame_query(store, flipped, again, F_LAYERS, &again_count));
    CHECK(again_count == count && memcmp(again, out, count * sizeof(bg_layer)) == 0);
    /* Smaller viewports: the header strip; a touch-sized rect on the button; a rect that
     * only far reaches, under a window it does not show (the walk enters the window). */
    EXPECT_OK(bg_store_frame_query(store, top, out, F_LAYERS, &count));
    EXPECT_FRAME(out, count, F_WINDOW, F_HEADER);
    EXPECT_OK(bg_store_frame_query(store, touch, out, F_LAYERS, &count));
    EXPECT_FRAME(out, count, F_WINDOW, F_CARD, F_BUTTON);
    EXPECT_OK(bg_store_frame_query_geometry(store, far_away, out, NULL, rects, NULL, NULL, F_LAYERS, &count));
    EXPECT_FRAME(out, count, F_FAR);
    EXPECT_DOUBLES(rects, 4, 1000, 1000, 1010, 1010);
    /* Its cost: the window and far visited; the window's five sublayers tested. */
    EXPECT_OK(bg_store_get_frame_query_cost(store, &visited, &tested));
    CHECK(visited == 2 && tested == 5);
    EXPECT_OK(bg_store_get_frame_query_cost(store, NULL, NULL));
    /* A failing call changes nothing, not even the cost: too small a buffer gets *count. */
    for (size_t k = 0; k < F_LAYERS; k++) out[k] = 77;
    EXPECT(bg_store_frame_query(store, window, out, 2, &count), BG_ERROR_BUFFER_TOO_SMALL,
           "bg_store_frame_query: capacity 2 is too small: 6 needed");
    CHECK(count == 6 && out[0] == 77 && out[1] == 77);
    EXPECT_OK(bg_store_get_frame_query_cost(store, &visited, &tested));
    CHECK(visited == 2 && tested == 5);
    /* No area, or a NaN: nothing shown. */
    const double empty[4] = {0, 0, 0, 812}, not_a_number[4] = {NAN, 0, 375, 812};
    count = 99;
    EXPECT_OK(bg_store_frame_query(store, empty, NULL, 0, &count));
    CHECK(count == 0);
    count = 99;
    EXPECT_OK(bg_store_frame_query(store, not_a_number, NULL, 0, &count));
    CHECK(count == 0);
    /* bg_store_visibility ignores the NaN edge instead, as the header says. */
    EXPECT_OK(bg_store_visibility(store, not_a_number, masked, F_LAYERS));
    CHECK(masked[bg_layer_slot(fq[F_WINDOW])]);
    /* Edits between frames: showing the hidden layer adds it (last sublayer: drawn last);
     * moving the card off the window takes it and its button away. */
    EXPECT_OK(bg_layer_set_hidden(store, fq[F_HIDDEN], false));
    EXPECT_OK(bg_store_frame_query(store, window, out, F_LAYERS, &count));
    EXPECT_FRAME(out, count, F_WINDOW, F_HEADER, F_CARD, F_BUTTON, F_LIST, F_ROW1, F_HIDDEN);
    EXPECT_OK(bg_store_world_rects(store, rects, F_LAYERS)); /* cached until the store changes */
    const double off_screen[2] = {600, 250};
    EXPECT_OK(bg_layer_set_position(store, fq[F_CARD], off_screen));
    EXPECT_OK(bg_store_frame_query(store, window, out, F_LAYERS, &count));
    EXPECT_FRAME(out, count, F_WINDOW, F_HEADER, F_LIST, F_ROW1, F_HIDDEN);
    /* The query left the cached world rects stale, as the edit made them: they follow it. */
    EXPECT_OK(bg_store_world_rects(store, rects, F_LAYERS));
    EXPECT_DOUBLES(rects + 4 * bg_layer_slot(fq[F_CARD]), 4, 500, 150, 700, 350);
    /* A copy starts with no cost measured. */
    bg_store *copy = NULL;
    EXPECT_OK(bg_store_copy(store, &copy));
    EXPECT_OK(bg_store_get_frame_query_cost(copy, &visited, &tested));
    CHECK(visited == 0 && tested == 0);
    bg_store_destroy(copy);
    bg_store_destroy(store);
}

/* ==== The frame query against the full passes ======================================== */

enum { MAX_SLOTS = 256 };

/* A fixed pseudo-random tree (xorshift): frames anywhere around the window, rotations,
 * zPositions out of order, masks, hidden layers, a perspective sublayer transform. */
static bg_store *random_scene(unsigned long long seed) {
    bg_store *store = NULL;
    bg_layer layers[200];
    EXPECT_OK(bg_store_create(0, &store));
    for (int k = 0; k < 200; k++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        int parent = k == 0 ? -1 : (int)(seed % (unsigned long long)(k < 40 ? k : 40));
        double x = (double)(seed >> 8 & 255) - 60, y = (double)(seed >> 17 & 511) - 60;
        double w = (double)(seed >> 27 & 255), h = (double)(seed >> 35 & 127);
        layers[k] = add_layer(store, parent < 0 || k % 37 == 0 ? BG_LAYER_NONE : layers[parent], x, y, w, h);
        unsigned roll = (unsigned)(seed >> 45 & 63);
        const double turn[6] = {0.8, 0.6, -0.6, 0.8, 0, 0};
        if (roll < 6) EXPECT_OK(bg_layer_set_affine_transform(store, layers[k], turn));
        if (roll % 5 == 1) EXPECT_OK(bg_layer_set_z_position(store, layers[k], (double)(roll % 3) - 1));
        if (roll % 7 == 2) EXPECT_OK(bg_layer_set_masks_to_bounds(store, layers[k], true));
        if (roll == 40 || roll == 41) EXPECT_OK(bg_layer_set_hidden(store, layers[k], true));
    }
    const double perspective[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1};
    const double tilt[16] = {0.9, 0, -0.43589, 0, 0, 1, 0, 0, 0.43589, 0, 0.9, 0, 0, 0, 0, 1};
    EXPECT_OK(bg_layer_set_sublayer_transform(store, layers[3], perspective));
    EXPECT_OK(bg_layer_set_transform(store, layers[4], tilt));
    return store;
}

/* Draw order filtered by visibility, and the full passes' geometry, against the frame query
 * for `viewport`; returns how many layers it shows. */
static size_t expect_full_passes_at(bg_store *store, const double viewport[4], int line) {
    static bg_layer order[MAX_SLOTS], out[MAX_SLOTS];
    static double world[MAX_SLOTS * 16], rects[MAX_SLOTS * 4], clips[MAX_SLOTS * 4];
    static double got_world[MAX_SLOTS * 16], got_rects[MAX_SLOTS * 4], got_clips[MAX_SLOTS * 4];
    static bool visible[MAX_SLOTS], masked[MAX_SLOTS], got_masked[MAX_SLOTS];
    size_t slots = 0, drawn = 0, count = 0, expected = 0;
    int ok = bg_store_slot_count(store, &slots) == BG_OK && slots <= MAX_SLOTS;
    ok = ok && bg_store_draw_order(store, order, MAX_SLOTS, &drawn) == BG_OK;
    ok = ok && bg_store_visibility(store, viewport, visible, MAX_SLOTS) == BG_OK;
    ok = ok && bg_store_world_transforms(store, world, MAX_SLOTS) == BG_OK;
    ok = ok && bg_store_world_rects(store, rects, MAX_SLOTS) == BG_OK;
    ok = ok && bg_store_clip_rects(store, clips, masked, MAX_SLOTS) == BG_OK;
    ok = ok && bg_store_frame_query_geometry(store, viewport, out, got_world, got_rects, got_clips, got_masked,
                                             MAX_SLOTS, &count) == BG_OK;
    int same = ok;
    for (size_t k = 0; ok && k < drawn; k++) {
        uint32_t slot = bg_layer_slot(order[k]);
        if (!visible[slot]) continue;
        size_t e = expected++;
        same = same && e < count && out[e] == order[k] &&
               memcmp(got_world + 16 * e, world + 16 * slot, 16 * sizeof(double)) == 0 &&
               memcmp(got_rects + 4 * e, rects + 4 * slot, 4 * sizeof(double)) == 0 &&
               memcmp(got_clips + 4 * e, clips + 4 * slot, 4 * sizeof(double)) == 0 && got_masked[e] == masked[slot];
    }
    check_at(ok && same && expected == count,
             fmt("frame query for (%g, %g, %g, %g): %zu layers, the full passes show %zu%s", viewport[0], viewport[1],
                 viewport[2], viewport[3], count, expected, same ? "" : " (and other layers or values)"),
             line);
    return count;
}
#define EXPECT_FULL_PASSES(store, ...)                                                               \
    expect_full_passes_at((store), (const double[4]){__VA_ARGS__}, __LINE__)

static void test_frame_query_matches_full_passes(void) {
    /* The spec scene: a viewport that contains everything shows the whole drawing order. */
    bg_store *store = spec_scene();
    bg_layer order[8], out[8];
    size_t drawn = 0, count = 0;
    const double everything[4] = {-1e6, -1e6, 2e6, 2e6};
    EXPECT_OK(bg_store_draw_order(store, order, 8, &drawn));
    EXPECT_OK(bg_store_frame_query(store, everything, out, 8, &count));
    CHECK(drawn == 3 && count == drawn && memcmp(out, order, drawn * sizeof(bg_layer)) == 0);
    EXPECT_FULL_PASSES(store, 0, 0, 375, 812);
    EXPECT_FULL_PASSES(store, 190, 310, 5, 5);
    bg_store_destroy(store);
    store = frame_scene();
    CHECK(EXPECT_FULL_PASSES(store, 0, 0, 375, 812) == 6);
    EXPECT_FULL_PASSES(store, 60, 160, 20, 20);
    EXPECT_FULL_PASSES(store, 995, 995, 10, 10);
    bg_store_destroy(store);
    /* Random trees, each viewport on two backends: every result is the full passes'. */
    size_t shown = 0;
    for (unsigned long long seed = 1; seed <= 4; seed++) {
        store = random_scene(seed * 0x9E3779B97F4A7C15ull);
        for (int pass = 0; pass < 2; pass++) {
            EXPECT_OK(bg_store_set_options(store, pass == 0 ? BG_BACKEND_C : BG_BACKEND_SCALAR, 1));
            shown += EXPECT_FULL_PASSES(store, 0, 0, 375, 812);
            shown += EXPECT_FULL_PASSES(store, -100, -100, 700, 1200);
            shown += EXPECT_FULL_PASSES(store, 150, 300, 40, 40);
            shown += EXPECT_FULL_PASSES(store, -50, 500, 200, 10);
            shown += EXPECT_FULL_PASSES(store, 3000, 3000, 10, 10);
            shown += EXPECT_FULL_PASSES(store, -1e308, -1e308, INFINITY, INFINITY);
        }
        bg_store_destroy(store);
    }
    CHECK(shown > 1200); /* the random trees show plenty (1,946 as written) */
}

/* ==== A frame loop allocates nothing once warmed up ==================================== */

/* The calls of one frame as an engine makes them, each counted apart (allocations.h). */
static const char *const frame_steps[] = {
    "bg_layer_set_content_offset", "bg_layer_set_position", "bg_store_update_world",
    "bg_store_frames",             "bg_store_world_transforms", "bg_store_world_rects",
    "bg_store_clip_rects",         "bg_store_visibility",    "bg_store_hit_test",
    "bg_store_draw_order",         "bg_store_frame_query_geometry", "bg_store_frame_query",
    "bg_store_get_frame_query_cost", "bg_store_world_opacities",   "bg_store_frame_query_opacities",
    "bg_store_hit_test (view rule)", "bg_layer_offset_positions",
};
enum { LOOP_SLOTS = 1024 };
static long long step_allocations[COUNT(frame_steps)];
static bg_layer loop_layers[LOOP_SLOTS], loop_out[LOOP_SLOTS];
static double loop_doubles[LOOP_SLOTS * 16], loop_rects[LOOP_SLOTS * 4], loop_clips[LOOP_SLOTS * 4];
static bool loop_flags[LOOP_SLOTS];

#define STEP(k, call)                                                                                \
    do {                                                                                             \
        long long start_ = allocations();                                                            \
        ok &= (call) == BG_OK;                                                                       \
        step_allocations[k] += allocations() - start_;                                               \
    } while (0)

/* Frame `frame`: scroll the list, move one item, then every per-frame query. */
static int loop_frame(bg_store *store, bg_layer list, int frame) {
    const double offset[2] = {0, 10.0 * (frame % 50)}, position[2] = {30 + frame % 7, 25};
    const double viewport[4] = {0, 0, 375, 812};
    const double points[16] = {10, 10, 100, 200, 200, 300, 30, 500, 300, 700, 5, 805, 400, 10, 187, 406};
    size_t count = 0, visited = 0, tested = 0;
    int ok = 1;
    STEP(0, bg_layer_set_content_offset(store, list, offset));
    STEP(1, bg_layer_set_position(store, loop_layers[10 + frame % 100], position));
    STEP(2, bg_store_update_world(store));
    STEP(3, bg_store_frames(store, loop_doubles, LOOP_SLOTS));
    STEP(4, bg_store_world_transforms(store, loop_doubles, LOOP_SLOTS));
    STEP(5, bg_store_world_rects(store, loop_rects, LOOP_SLOTS));
    STEP(6, bg_store_clip_rects(store, loop_clips, loop_flags, LOOP_SLOTS));
    STEP(7, bg_store_visibility(store, viewport, loop_flags, LOOP_SLOTS));
    STEP(8, bg_store_hit_test(store, points, 8, BG_HIT_TEST_LAYER, loop_out));
    STEP(9, bg_store_draw_order(store, loop_out, LOOP_SLOTS, &count));
    STEP(10, bg_store_frame_query_geometry(store, viewport, loop_out, loop_doubles, loop_rects, loop_clips,
                                           loop_flags, LOOP_SLOTS, &count));
    STEP(11, bg_store_frame_query(store, viewport, loop_out, LOOP_SLOTS, &count));
    STEP(12, bg_store_get_frame_query_cost(store, &visited, &tested));
    STEP(13, bg_store_world_opacities(store, loop_doubles, LOOP_SLOTS));
    STEP(14, bg_store_frame_query_opacities(store, viewport, loop_out, loop_doubles, LOOP_SLOTS, &count));
    STEP(15, bg_store_hit_test(store, points, 8, BG_HIT_TEST_VIEW, loop_out));
    /* The rows below row 150 move down a point and back up, frame by frame. */
    const double pitch[2] = {0, frame % 2 == 0 ? 1 : -1};
    STEP(16, bg_layer_offset_positions(store, list, 150, 50, pitch));
    return ok && count > 0 && visited >= count;
}

static void test_frame_loop_allocations(void) {
    if (!BG_TEST_COUNTS_ALLOCATIONS) {
        printf("  (skipped: allocations are counted only on Linux with glibc, without a sanitizer)\n");
        return;
    }
    if (getenv("BATCHGEOMETRY_TEST_DEBUG_LIBRARY")) {
        printf("  (skipped: a debug (-Onone) build of the library allocates in some queries; docs/DEBTS.md)\n");
        return;
    }
    /* The counter sees the library's allocations: a new store allocates. */
    long long before = allocations();
    bg_store *store = NULL;
    EXPECT_OK(bg_store_create(0, &store));
    CHECK(allocations() > before);
    /* A window with a masking list of 200 rows of 2 items (every third row's items in
     * reverse zPosition order), scrolled every frame: 602 layers. */
    const double content[2] = {375, 12000};
    int n = 0;
    bg_layer window = add_layer(store, BG_LAYER_NONE, 0, 0, 375, 812);
    bg_layer list = add_layer(store, window, 0, 100, 375, 700);
    EXPECT_OK(bg_layer_set_masks_to_bounds(store, list, true));
    EXPECT_OK(bg_layer_set_scroll_view(store, list, content, NULL));
    for (int row = 0; row < 200; row++) {
        bg_layer cell = add_layer(store, list, 0, 60.0 * row, 375, 60);
        for (int k = 0; k < 2; k++) {
            loop_layers[n] = add_layer(store, cell, 10 + 180.0 * k, 5, 170, 50);
            if (row % 3 == 0) EXPECT_OK(bg_layer_set_z_position(store, loop_layers[n], 2.0 - k));
            n++;
        }
    }
    EXPECT_OK(bg_store_set_options(store, BG_BACKEND_C, 1));
    int ok = 1;
    for (int frame = 0; frame < 3; frame++) ok &= loop_frame(store, list, frame); /* warm-up */
    for (size_t k = 0; k < COUNT(frame_steps); k++) step_allocations[k] = 0;
    for (int frame = 3; frame < 40; frame++) ok &= loop_frame(store, list, frame);
    CHECK(ok);
    for (size_t k = 0; k < COUNT(frame_steps); k++) {
        check_at(step_allocations[k] == 0,
                 fmt("%s allocated %lld times in 37 warmed-up frames", frame_steps[k], step_allocations[k]),
                 __LINE__);
    }
    bg_store_destroy(store);
}

/* ==== Scenes: docs/SCENE-FORMAT.md ==================================================== */

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    char *text = (char *)malloc(1 << 20);
    *length = text == NULL ? 0 : fread(text, 1, (1 << 20) - 1, file);
    fclose(file);
    if (text != NULL) text[*length] = 0;
    return text;
}

static void test_scenes(void) {
    size_t json_length = 0, expected_length = 0, length = 0, count = 0;
    char *json = read_file(scene_path, &json_length);
    char *expected = read_file(scene_output_path, &expected_length);
    CHECK(json != NULL && expected != NULL);
    if (json == NULL || expected == NULL) return;
    bg_scene *scene = NULL;
    bg_evaluation *evaluation = NULL;
    bg_store *store = NULL;
    bg_layer layer = 0;
    const char *text = NULL;
    double frame[4];
    EXPECT_OK(bg_scene_load(json, json_length, &scene));
    EXPECT_OK(bg_scene_layer_count(scene, &count));
    CHECK(count == 3);
    /* The output is SCENE-FORMAT.md's, byte for byte, on every backend. */
    const int32_t backends[] = {BG_BACKEND_DEFAULT, BG_BACKEND_SCALAR, BG_BACKEND_SIMD, BG_BACKEND_C,
                                BG_BACKEND_AUTO};
    for (size_t b = 0; b < COUNT(backends); b++) {
        EXPECT_OK(bg_scene_evaluate(scene, backends[b], (int32_t)b, &evaluation));
        EXPECT_OK(bg_evaluation_json(evaluation, &text, &length));
        CHECK(length == expected_length && strcmp(text, expected) == 0);
        EXPECT_OK(bg_evaluation_json(evaluation, &text, NULL));
        if (b + 1 < COUNT(backends)) bg_evaluation_destroy(evaluation);
    }
    /* The store after the operations: the card's anchor is (0, 0), so its frame is
     * (187.5, 300, 400, 240); before them it is centred: (187.5 - 200, 300 - 120, 400, 240). */
    EXPECT_OK(bg_evaluation_store(evaluation, &store));
    EXPECT_OK(bg_evaluation_layer(evaluation, 1, &layer));
    EXPECT_OK(bg_layer_get_frame(store, layer, frame));
    EXPECT_DOUBLES(frame, 4, 187.5, 300, 400, 240);
    bg_store_destroy(store);
    EXPECT_OK(bg_scene_store(scene, &store));
    EXPECT_OK(bg_store_handle_at(store, 1, &layer));
    EXPECT_OK(bg_layer_get_frame(store, layer, frame));
    EXPECT_DOUBLES(frame, 4, -12.5, 180, 400, 240);
    bg_store_destroy(store);
    EXPECT(bg_evaluation_layer(evaluation, 5, &layer), BG_ERROR_STALE_LAYER,
           "scene layer 5 is out of range (3 layers)");
    bg_evaluation_destroy(evaluation);
    /* A layer removed by an operation has no handle. */
    const char *removing = "{\"layers\": [{}, {\"parent\": 0}], \"operations\": [{\"layer\": 1, \"remove\": true}]}";
    bg_scene *second = NULL;
    EXPECT_OK(bg_scene_load(removing, strlen(removing), &second));
    EXPECT_OK(bg_scene_evaluate(second, BG_BACKEND_DEFAULT, 0, &evaluation));
    EXPECT(bg_evaluation_layer(evaluation, 1, &layer), BG_ERROR_STALE_LAYER,
           "scene layer 1 was removed by an operation");
    EXPECT_OK(bg_evaluation_layer(evaluation, 0, &layer));
    CHECK(bg_layer_slot(layer) == 0 && bg_layer_generation(layer) == 0);
    /* Malformed scenes: SceneError's `<path>: <message>`, as batchbench eval prints it. */
    bg_scene *bad = NULL;
    const char *five = "{\"layers\": [{}, {}, {}, {\"transform\": [1, 2, 3, 4, 5]}]}";
    EXPECT(bg_scene_load(five, strlen(five), &bad), BG_ERROR_SCENE,
           "layers[3].transform: expected 6 or 16 numbers, got 5");
    const char *parent = "{\"layers\": [{}, {}, {}, {\"parent\": 7}, {}, {}, {}]}";
    EXPECT(bg_scene_load(parent, strlen(parent), &bad), BG_ERROR_SCENE,
           "layers[3].parent: 7 is out of range (7 layers)");
    EXPECT(bg_scene_load(NULL, 0, &bad), BG_ERROR_SCENE, NULL);
    CHECK(bad == NULL);
    /* NULL objects and outputs. */
    EXPECT(bg_scene_layer_count(NULL, &count), BG_ERROR_NULL_ARGUMENT, "bg_scene_layer_count: scene is NULL");
    EXPECT(bg_scene_layer_count(scene, NULL), BG_ERROR_NULL_ARGUMENT, "bg_scene_layer_count: out is NULL");
    EXPECT(bg_scene_store(NULL, &store), BG_ERROR_NULL_ARGUMENT, "bg_scene_store: scene is NULL");
    EXPECT(bg_scene_store(scene, NULL), BG_ERROR_NULL_ARGUMENT, "bg_scene_store: out is NULL");
    EXPECT(bg_scene_evaluate(NULL, 0, 0, &evaluation), BG_ERROR_NULL_ARGUMENT, "bg_scene_evaluate: scene is NULL");
    EXPECT(bg_scene_evaluate(scene, 0, 0, NULL), BG_ERROR_NULL_ARGUMENT, "bg_scene_evaluate: out is NULL");
    EXPECT(bg_scene_evaluate(scene, 9, 0, &evaluation), BG_ERROR_INVALID_ARGUMENT, NULL);
    EXPECT(bg_scene_evaluate(scene, 0, -1, &evaluation), BG_ERROR_INVALID_ARGUMENT, NULL);
    EXPECT(bg_evaluation_json(NULL, &text, &length), BG_ERROR_NULL_ARGUMENT, "bg_evaluation_json: evaluation is NULL");
    EXPECT(bg_evaluation_json(evaluation, NULL, &length), BG_ERROR_NULL_ARGUMENT, "bg_evaluation_json: text is NULL");
    EXPECT(bg_evaluation_store(NULL, &store), BG_ERROR_NULL_ARGUMENT, "bg_evaluation_store: evaluation is NULL");
    EXPECT(bg_evaluation_store(evaluation, NULL), BG_ERROR_NULL_ARGUMENT, "bg_evaluation_store: out is NULL");
    EXPECT(bg_evaluation_layer(NULL, 0, &layer), BG_ERROR_NULL_ARGUMENT, "bg_evaluation_layer: evaluation is NULL");
    EXPECT(bg_evaluation_layer(evaluation, 0, NULL), BG_ERROR_NULL_ARGUMENT, "bg_evaluation_layer: out is NULL");
    bg_evaluation_destroy(evaluation);
    bg_evaluation_destroy(NULL);
    bg_scene_destroy(second);
    bg_scene_destroy(scene);
    bg_scene_destroy(NULL);
    free(json);
    free(expected);
}

/* ==== Options and the environment ===================================================== */

static void restore(const char *name, const char *saved) {
    if (saved != NULL) {
        setenv(name, saved, 1);
    } else {
        unsetenv(name);
    }
}

static void test_options_and_environment(void) {
    bg_store *store = NULL, *other = NULL;
    bg_scene *scene = NULL;
    bg_evaluation *evaluation = NULL;
    int32_t backend = -1, threads = -1;
    EXPECT_OK(bg_store_create(0, &store));
    EXPECT_OK(bg_store_set_options(store, BG_BACKEND_SIMD, 3));
    EXPECT_OK(bg_store_get_options(store, &backend, &threads));
    CHECK(backend == BG_BACKEND_SIMD && threads == 3);
    EXPECT_OK(bg_store_get_options(store, NULL, NULL));
    EXPECT_OK(bg_store_set_options(store, BG_BACKEND_DEFAULT, 0));
    EXPECT_OK(bg_store_get_options(store, &backend, &threads));
    CHECK(backend >= BG_BACKEND_SCALAR && backend <= BG_BACKEND_AUTO && threads >= 1);
    EXPECT_OK(bg_store_set_options(store, BG_BACKEND_AUTO, 2));
    EXPECT_OK(bg_store_get_options(store, &backend, &threads));
    CHECK(backend == BG_BACKEND_AUTO && threads == 2);
    const char *one_layer = "{\"layers\": [{}]}";
    EXPECT_OK(bg_scene_load(one_layer, strlen(one_layer), &scene));
    EXPECT_OK(bg_scene_evaluate(scene, BG_BACKEND_C, 1, &evaluation));
    /* A variable the process cannot use is an error naming it, never a fallback. */
    char saved_backend[64] = "", saved_threads[64] = "";
    const char *backend_value = getenv("BATCHGEOMETRY_BACKEND"), *threads_value = getenv("BATCHGEOMETRY_THREADS");
    if (backend_value) snprintf(saved_backend, sizeof saved_backend, "%s", backend_value);
    if (threads_value) snprintf(saved_threads, sizeof saved_threads, "%s", threads_value);
    setenv("BATCHGEOMETRY_BACKEND", "bogus", 1);
    const char *message = "BATCHGEOMETRY_BACKEND=bogus is not a backend (expected scalar, simd, c or auto)";
    EXPECT(bg_store_create(0, &other), BG_ERROR_ENVIRONMENT, message);
    CHECK(other == NULL);
    EXPECT(bg_store_set_options(store, BG_BACKEND_DEFAULT, 1), BG_ERROR_ENVIRONMENT, message);
    EXPECT(bg_store_set_options(store, BG_BACKEND_C, 0), BG_ERROR_ENVIRONMENT, message);
    EXPECT_OK(bg_store_set_options(store, BG_BACKEND_C, 2)); /* nothing taken from the environment */
    EXPECT(bg_scene_store(scene, &other), BG_ERROR_ENVIRONMENT, message);
    EXPECT(bg_scene_evaluate(scene, BG_BACKEND_DEFAULT, 1, &evaluation), BG_ERROR_ENVIRONMENT, message);
    EXPECT(bg_evaluation_store(evaluation, &other), BG_ERROR_ENVIRONMENT, message);
    restore("BATCHGEOMETRY_BACKEND", backend_value ? saved_backend : NULL);
    setenv("BATCHGEOMETRY_THREADS", "abc", 1);
    EXPECT(bg_store_create(0, &other), BG_ERROR_ENVIRONMENT,
           "BATCHGEOMETRY_THREADS=abc is not a positive number of threads");
    restore("BATCHGEOMETRY_THREADS", threads_value ? saved_threads : NULL);
    /* Choosing the C backend or BG_BACKEND_AUTO (which runs C kernels) checks
     * BATCHGEOMETRY_C_KERNEL (the Swift API would stop the program on it); the other
     * backends do not read it. */
    const char *kernel_value = getenv("BATCHGEOMETRY_C_KERNEL");
    char saved_kernel[64] = "";
    if (kernel_value) snprintf(saved_kernel, sizeof saved_kernel, "%s", kernel_value);
    setenv("BATCHGEOMETRY_C_KERNEL", "avx9", 1);
    EXPECT(bg_store_set_options(store, BG_BACKEND_C, 2), BG_ERROR_ENVIRONMENT, NULL);
    CHECK(strncmp(bg_last_error_message(), "BATCHGEOMETRY_C_KERNEL=avx9 is not a C kernel (expected ", 56) == 0);
    EXPECT(bg_scene_evaluate(scene, BG_BACKEND_C, 1, &evaluation), BG_ERROR_ENVIRONMENT, NULL);
    EXPECT(bg_store_set_options(store, BG_BACKEND_AUTO, 2), BG_ERROR_ENVIRONMENT, NULL); /* runs C kernels */
    EXPECT_OK(bg_store_set_options(store, BG_BACKEND_SIMD, 2));
    restore("BATCHGEOMETRY_C_KERNEL", kernel_value ? saved_kernel : NULL);
    EXPECT_OK(bg_store_create(0, &other));
    bg_store_destroy(other);
    bg_evaluation_destroy(evaluation);
    bg_scene_destroy(scene);
    bg_store_destroy(store);
}

/* ==== Non-finite input reaches only the layers it touches ============================= */

static void test_non_finite(void) {
    bg_store *store = NULL;
    double frames[3 * 4], rects[3 * 4];
    EXPECT_OK(bg_store_create(0, &store));
    bg_layer window = add_layer(store, BG_LAYER_NONE, 0, 0, 100, 100);
    bg_layer broken = add_layer(store, window, 0, 0, 10, 10);
    bg_layer fine = add_layer(store, window, 20, 20, 10, 10);
    const double nan_position[2] = {NAN, 5}, infinite_bounds[4] = {0, 0, INFINITY, 10};
    EXPECT_OK(bg_layer_set_position(store, broken, nan_position));
    EXPECT_OK(bg_store_frames(store, frames, 3));
    CHECK(isnan(frames[4]) && frames[5] == 0);
    EXPECT_DOUBLES(frames + 8, 4, 20, 20, 10, 10);
    EXPECT_OK(bg_layer_set_bounds(store, broken, infinite_bounds));
    EXPECT_OK(bg_store_world_rects(store, rects, 3));
    EXPECT_DOUBLES(rects + 8, 4, 20, 20, 30, 30);
    EXPECT_DOUBLES(rects, 4, 0, 0, 100, 100);
    (void)fine;
    bg_store_destroy(store);
}
