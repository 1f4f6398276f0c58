/*
 * test_c_api_opacity.h: the table properties (opacity, userInteractionEnabled) through
 * bg_layer_get_property / bg_layer_set_property, world opacity and the view rule of hit
 * testing (GEOMETRY.md sections 2, 6, 7), from C, with good and bad input. Expected values
 * are computed here from the contract's formulas (a float store, a double product root
 * first), never copied from the library's output. Included by test_c_api.c.
 */

static double property_of(bg_store *store, bg_layer layer, int32_t property) {
    double value = -99;
    EXPECT_OK(bg_layer_get_property(store, layer, property, &value));
    return value;
}

static double world_opacity_of(bg_store *store, bg_layer layer) {
    double value = -99;
    EXPECT_OK(bg_layer_get_world_opacity(store, layer, &value));
    return value;
}

static bg_layer hit_at(bg_store *store, double x, double y, int32_t rule) {
    const double point[2] = {x, y};
    bg_layer hit = 0;
    EXPECT_OK(bg_store_hit_test(store, point, 1, rule, &hit));
    return hit;
}

/* Storage as a 32-bit float, read back widened; no clamping; NaN and infinities kept. */
static void test_opacity_storage(bg_store *store, bg_layer layer) {
    CHECK(property_of(store, layer, BG_PROPERTY_OPACITY) == 1);
    CHECK(property_of(store, layer, BG_PROPERTY_USER_INTERACTION_ENABLED) == 1);
    EXPECT_OK(bg_layer_set_property(store, layer, BG_PROPERTY_OPACITY, 0.3));
    CHECK(property_of(store, layer, BG_PROPERTY_OPACITY) == (double)0.3f);
    CHECK(property_of(store, layer, BG_PROPERTY_OPACITY) != 0.3);
    CHECK(property_of(store, layer, BG_PROPERTY_OPACITY) == 0.30000001192092896);
    EXPECT_OK(bg_layer_set_property(store, layer, BG_PROPERTY_OPACITY, 1e39)); /* beyond FLT_MAX */
    CHECK(property_of(store, layer, BG_PROPERTY_OPACITY) == INFINITY);
    EXPECT_OK(bg_layer_set_property(store, layer, BG_PROPERTY_OPACITY, -0.5));
    CHECK(property_of(store, layer, BG_PROPERTY_OPACITY) == -0.5);
    EXPECT_OK(bg_layer_set_property(store, layer, BG_PROPERTY_OPACITY, 2));
    CHECK(property_of(store, layer, BG_PROPERTY_OPACITY) == 2);
    EXPECT_OK(bg_layer_set_property(store, layer, BG_PROPERTY_OPACITY, NAN));
    CHECK(isnan(property_of(store, layer, BG_PROPERTY_OPACITY)));
    EXPECT_OK(bg_layer_set_property(store, layer, BG_PROPERTY_OPACITY, 1));
    EXPECT_OK(bg_layer_set_property(store, layer, BG_PROPERTY_USER_INTERACTION_ENABLED, 0));
    CHECK(property_of(store, layer, BG_PROPERTY_USER_INTERACTION_ENABLED) == 0);
    EXPECT_OK(bg_layer_set_property(store, layer, BG_PROPERTY_USER_INTERACTION_ENABLED, 1));
    CHECK(property_of(store, layer, BG_PROPERTY_USER_INTERACTION_ENABLED) == 1);
}

/* Bad input: an unknown property, a flag given something else than 0 or 1. Each fails with
 * its status and message and changes nothing. */
static void test_property_bad_input(bg_store *store, bg_layer layer) {
    /* The message lists every constant (BG_PROPERTY_OPACITY 0, ...): checked by its start,
     * so that a new property does not change this test. */
    const char *listing = "is not a layer property (BG_PROPERTY_OPACITY 0, BG_PROPERTY_USER_INTERACTION_ENABLED 1";
    double value = -7;
    unsigned long long before = fingerprint(store);
    EXPECT(bg_layer_set_property(store, layer, 999, 1), BG_ERROR_INVALID_ARGUMENT, NULL);
    CHECK(strncmp(bg_last_error_message(), fmt("bg_layer_set_property: 999 %s", listing), strlen(listing) + 27) == 0);
    EXPECT(bg_layer_set_property(store, layer, -1, 1), BG_ERROR_INVALID_ARGUMENT, NULL);
    CHECK(strncmp(bg_last_error_message(), fmt("bg_layer_set_property: -1 %s", listing), strlen(listing) + 26) == 0);
    EXPECT(bg_layer_get_property(store, layer, 999, &value), BG_ERROR_INVALID_ARGUMENT, NULL);
    CHECK(strncmp(bg_last_error_message(), fmt("bg_layer_get_property: 999 %s", listing), strlen(listing) + 27) == 0);
    CHECK(value == -7);
    EXPECT(bg_layer_set_property(store, layer, BG_PROPERTY_USER_INTERACTION_ENABLED, 0.5), BG_ERROR_INVALID_ARGUMENT,
           "bg_layer_set_property: userInteractionEnabled is a flag: it takes 0 or 1, not 0.5");
    EXPECT(bg_layer_set_property(store, layer, BG_PROPERTY_USER_INTERACTION_ENABLED, 2), BG_ERROR_INVALID_ARGUMENT,
           "bg_layer_set_property: userInteractionEnabled is a flag: it takes 0 or 1, not 2.0");
    EXPECT(bg_layer_set_property(store, layer, BG_PROPERTY_USER_INTERACTION_ENABLED, NAN), BG_ERROR_INVALID_ARGUMENT,
           "bg_layer_set_property: userInteractionEnabled is a flag: it takes 0 or 1, not nan");
    CHECK(fingerprint(store) == before);
}

/* window (0, 0, 400, 800) > a (0, 0, 100, 100) > b (10, 10, 50, 50); the view rule skips
 * a subtree whose top has Double(opacity) < 0.01 or interaction disabled; the layer rule
 * reads neither. */
static void test_view_rule(bg_store *store, bg_layer window, bg_layer a, bg_layer b) {
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_VIEW) == b);
    EXPECT_OK(bg_layer_set_property(store, b, BG_PROPERTY_OPACITY, 0.005));
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_VIEW) == a);
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_LAYER) == b);
    EXPECT_OK(bg_layer_set_property(store, b, BG_PROPERTY_OPACITY, 0.01)); /* 0.009999999776482582 < 0.01 */
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_VIEW) == a);
    EXPECT_OK(bg_layer_set_property(store, b, BG_PROPERTY_OPACITY, 0.011));
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_VIEW) == b);
    EXPECT_OK(bg_layer_set_property(store, b, BG_PROPERTY_OPACITY, NAN)); /* NaN < 0.01 is false */
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_VIEW) == b);
    EXPECT_OK(bg_layer_set_property(store, a, BG_PROPERTY_USER_INTERACTION_ENABLED, 0));
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_VIEW) == window); /* a's whole subtree is skipped */
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_LAYER) == b);
    EXPECT_OK(bg_layer_set_property(store, window, BG_PROPERTY_OPACITY, 0));
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_VIEW) == BG_LAYER_NONE); /* roots are skipped too */
    CHECK(hit_at(store, 20, 20, BG_HIT_TEST_LAYER) == b);
    EXPECT_OK(bg_layer_set_property(store, window, BG_PROPERTY_OPACITY, 1));
    EXPECT_OK(bg_layer_set_property(store, a, BG_PROPERTY_USER_INTERACTION_ENABLED, 1));
    EXPECT_OK(bg_layer_set_property(store, b, BG_PROPERTY_OPACITY, 1));
}

/* World opacity: the float opacities widened and multiplied root first, one layer, every
 * slot, and in the frame query's output. */
static void test_world_opacity(bg_store *store, bg_layer window, bg_layer a, bg_layer b) {
    EXPECT_OK(bg_layer_set_property(store, window, BG_PROPERTY_OPACITY, 0.9));
    EXPECT_OK(bg_layer_set_property(store, a, BG_PROPERTY_OPACITY, 0.5));
    EXPECT_OK(bg_layer_set_property(store, b, BG_PROPERTY_OPACITY, 0.3));
    const double w = (double)0.9f, wa = w * (double)0.5f, wab = wa * (double)0.3f;
    CHECK(world_opacity_of(store, window) == w);
    CHECK(world_opacity_of(store, a) == wa);
    CHECK(world_opacity_of(store, b) == wab);
    size_t slots = 0;
    EXPECT_OK(bg_store_slot_count(store, &slots));
    double all[8];
    CHECK(slots <= 8);
    EXPECT_OK(bg_store_world_opacities(store, all, 8));
    CHECK(all[bg_layer_slot(window)] == w && all[bg_layer_slot(a)] == wa && all[bg_layer_slot(b)] == wab);
    /* An opacity-0 layer is still visible and listed, with world opacity 0. */
    EXPECT_OK(bg_layer_set_property(store, a, BG_PROPERTY_OPACITY, 0));
    const double viewport[4] = {0, 0, 400, 800};
    bg_layer out[8];
    double opacities[8];
    size_t count = 0;
    EXPECT_OK(bg_store_frame_query_opacities(store, viewport, out, opacities, 8, &count));
    CHECK(count == 3 && out[0] == window && out[1] == a && out[2] == b);
    CHECK(opacities[0] == w && opacities[1] == 0 && opacities[2] == 0);
    EXPECT_OK(bg_store_frame_query_opacities(store, viewport, out, NULL, 8, &count)); /* opacities not wanted */
    CHECK(count == 3);
}

static void test_table_properties(void) {
    bg_store *store = NULL;
    EXPECT_OK(bg_store_create(0, &store));
    bg_layer window = add_layer(store, BG_LAYER_NONE, 0, 0, 400, 800);
    bg_layer a = add_layer(store, window, 0, 0, 100, 100);
    bg_layer b = add_layer(store, a, 10, 10, 50, 50);
    test_opacity_storage(store, b);
    test_property_bad_input(store, b);
    test_view_rule(store, window, a, b);
    test_world_opacity(store, window, a, b);
    /* A destroyed layer's slot is free and holds the defaults; a new layer there too. */
    EXPECT_OK(bg_layer_set_property(store, b, BG_PROPERTY_USER_INTERACTION_ENABLED, 0));
    EXPECT_OK(bg_layer_destroy(store, b, NULL));
    double all[8];
    EXPECT_OK(bg_store_world_opacities(store, all, 8));
    CHECK(all[bg_layer_slot(b)] == 1);
    bg_layer c = BG_LAYER_NONE;
    EXPECT_OK(bg_layer_add(store, window, &c));
    CHECK(bg_layer_slot(c) == bg_layer_slot(b));
    CHECK(property_of(store, c, BG_PROPERTY_OPACITY) == 1);
    CHECK(property_of(store, c, BG_PROPERTY_USER_INTERACTION_ENABLED) == 1);
    bg_store_destroy(store);
}
