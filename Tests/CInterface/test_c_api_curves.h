/*
 * test_c_api_curves.h: the curve functions of batchgeometry.h ("Curves": timing
 * functions, springs, UIKit's spring mapping, scroll deceleration, the rubber band) from
 * C. The expected values are Apple's, from docs/ANIMATION.md section 13's evidence
 * (floats bit for bit where the source printed them so, doubles to the bit), and the
 * conformance cases of shared/conformance/animation for the reconstructions; never the
 * library's own output. Bad input: every struct rule and NULL, with the exact message,
 * and nothing written. Included by test_c_api.c. (The same bits as the Swift calls:
 * Tests/BatchGeometryCTests/CurveInterfaceTests.swift.)
 */

static float timing_value(int32_t name, double input) {
    bg_timing_function function;
    float value = -1;
    EXPECT_OK(bg_timing_function_named(name, &function));
    EXPECT_OK(bg_timing_function_value(&function, input, &value));
    return value;
}

/* "%f" of a float, as the GNUstep test printed Apple's results. */
static const char *printed(float value) { return fmt("%f", (double)value); }

static void test_timing_function_evidence(void) {
    /* GNUstep's test against Apple's QuartzCore, at 0.67, to the 6 printed digits. */
    bg_timing_function custom;
    float value = -1;
    CHECK(strcmp(printed(timing_value(BG_TIMING_FUNCTION_DEFAULT, 0.67)), "0.926527") == 0);
    CHECK(strcmp(printed(timing_value(BG_TIMING_FUNCTION_EASE_IN_EASE_OUT, 0.67)), "0.772850") == 0);
    CHECK(strcmp(printed(timing_value(BG_TIMING_FUNCTION_EASE_IN, 0.67)), "0.515911") == 0);
    CHECK(strcmp(printed(timing_value(BG_TIMING_FUNCTION_EASE_OUT, 0.67)), "0.846581") == 0);
    CHECK(strcmp(printed(timing_value(BG_TIMING_FUNCTION_LINEAR, 0.67)), "0.669997") == 0);
    EXPECT_OK(bg_timing_function_make(0.1, 1, 1, 0.2, &custom));
    EXPECT_OK(bg_timing_function_value(&custom, 0.67, &value));
    CHECK(strcmp(printed(value), "0.589449") == 0);
    /* ChouTiUI: Apple's floats, bit for bit, through the batch form. */
    const double inputs[3] = {0.25, 0.5, 0.75};
    const int32_t names[4] = {BG_TIMING_FUNCTION_EASE_IN, BG_TIMING_FUNCTION_EASE_OUT,
                              BG_TIMING_FUNCTION_EASE_IN_EASE_OUT, BG_TIMING_FUNCTION_LINEAR};
    const float expected[4][3] = {{0.09346466f, 0.31535682f, 0.6218605f},
                                  {0.37813953f, 0.6846432f, 0.9065353f},
                                  {0.12916191f, 0.5f, 0.8708381f},
                                  {0.25f, 0.5f, 0.75f}};
    bg_timing_function functions[4];
    float values[3], each[4];
    for (int k = 0; k < 4; k++) {
        EXPECT_OK(bg_timing_function_named(names[k], &functions[k]));
        EXPECT_OK(bg_timing_function_values(&functions[k], inputs, 3, values));
        CHECK(memcmp(values, expected[k], sizeof values) == 0);
    }
    /* Each function at its own input: the diagonal-ish picks of the table above. */
    const double one_each[4] = {0.25, 0.5, 0.75, 0.5};
    EXPECT_OK(bg_timing_function_values_each(functions, one_each, 4, each));
    CHECK(each[0] == expected[0][0] && each[1] == expected[1][1] && each[2] == expected[2][2] && each[3] == 0.5f);
}

static void test_timing_function_names(void) {
    bg_timing_function function;
    int32_t name = 99;
    /* The named points, and a custom curve within 0.001 of one becomes it. */
    EXPECT_OK(bg_timing_function_named(BG_TIMING_FUNCTION_DEFAULT, &function));
    CHECK(function.x1 == 0.25f && function.y1 == 0.1f && function.x2 == 0.25f && function.y2 == 1);
    EXPECT_OK(bg_timing_function_make(0.0005, 0, 0.5795, 1.0009, &function));
    CHECK(function.x1 == 0 && function.y1 == 0 && function.x2 == 0.58f && function.y2 == 1);
    EXPECT_OK(bg_timing_function_get_name(&function, &name));
    CHECK(name == BG_TIMING_FUNCTION_EASE_OUT);
    /* A struct filled by hand is checked and snapped the same way. */
    const bg_timing_function by_hand = {0.25f, 0.1f, 0.2505f, 1};
    EXPECT_OK(bg_timing_function_get_name(&by_hand, &name));
    CHECK(name == BG_TIMING_FUNCTION_DEFAULT);
    const bg_timing_function custom = {0.1f, 1, 1, 0.2f};
    EXPECT_OK(bg_timing_function_get_name(&custom, &name));
    CHECK(name == BG_TIMING_FUNCTION_CUSTOM);
}

/* ANIMATION.md section 13's springs: mass 1, stiffness (2 pi / response)^2, damping
 * 4 pi zeta / response, as the ChouTiUI and ComposeUI sources build them. */
static bg_spring response_spring(double zeta, double response, double velocity) {
    const double pi = 3.141592653589793, w = 2 * pi / response;
    bg_spring spring = {1, w * w, 4 * pi * zeta / response, velocity, false};
    return spring;
}

static double for_epsilon(const bg_spring *spring, double epsilon) {
    bg_spring_durations durations = {-1, -1, -1};
    EXPECT_OK(bg_spring_get_durations(spring, epsilon, 1, &durations));
    return durations.for_epsilon;
}

static void test_spring_evidence(void) {
    /* ChouTiUI: zeta 1, response 1: exact doubles of the accumulated 0.1 s search. */
    const bg_spring critical = response_spring(1, 1, 0);
    const double epsilons[5] = {0.01, 0.02, 0.03, 0.04, 0.05};
    const double durations[5] = {1.0999999999999999, 0.9999999999999999, 0.8999999999999999, 0.7999999999999999,
                                 0.7999999999999999};
    for (int k = 0; k < 5; k++) CHECK(for_epsilon(&critical, epsilons[k]) == durations[k]);
    /* ... and _solveForInput: of an animation lasting 1.2 s, f32(x(1.2 * f32(input))). */
    const double inputs[4] = {0.25, 0.5, 0.75, 1.0};
    const float expected[4] = {0.56196046f, 0.89003396f, 0.976705f, 0.99546117f};
    double times[4];
    float progress[4];
    for (int k = 0; k < 4; k++) times[k] = 1.2 * (double)(float)inputs[k];
    EXPECT_OK(bg_spring_progress(&critical, times, 4, progress));
    CHECK(memcmp(progress, expected, sizeof progress) == 0);
    /* ComposeUI: Apple's settlingDuration and durationForEpsilon, bit for bit, in one batch. */
    const bg_spring springs[3] = {response_spring(0.8, 0.5, 0), response_spring(0.3, 1.5, 0),
                                  {1, 1, 1, 0.1, false}};
    bg_spring_durations each[3];
    EXPECT_OK(bg_spring_get_durations_each(springs, 3, 0.005, 1, each));
    CHECK(each[0].settling == 0.7714094006693448);
    CHECK(each[1].settling == 5.71461784505134);
    CHECK(each[2].for_epsilon == 11.35608158495006);
    CHECK(for_epsilon(&springs[2], 0.1) == 5.364617037842078);
    CHECK(each[0].perceptual == 0.5); /* as the conformance case springs-apple-points prints it */
    EXPECT_NEAR(each[1].perceptual, 1.5, 1e-15);
    const bg_spring composed[2] = {response_spring(0.7, 0.6, 0), response_spring(0.6, 0.5, 0)};
    CHECK(for_epsilon(&composed[0], 0.005) == 0.8159891974978289);
    CHECK(for_epsilon(&composed[1], 0.005) == 0.7769325148649515);
    /* Apple's documentation: stiffness 100 with damping 5 settles in about 2.85 s, with 15
     * in just over 1 s; and a speed halves the time. */
    const bg_spring documented[2] = {{1, 100, 5, 0, false}, {1, 100, 15, 0, false}};
    bg_spring_durations doubled;
    EXPECT_OK(bg_spring_get_durations_each(documented, 2, 0.001, 1, each));
    EXPECT_NEAR(each[0].settling, 2.855, 0.001);
    CHECK(each[1].settling > 1 && each[1].settling < 1.03);
    EXPECT_OK(bg_spring_get_durations(&documented[0], 0.001, -2, &doubled));
    CHECK(doubled.for_epsilon == each[0].settling / 2);
}

static void test_spring_values(void) {
    /* x(t) by the formula of ANIMATION.md section 5.2, in its order, computed here with
     * the C library's exp, sin and cos: the package's own are within 1 ulp of them, so
     * the value is within a few ulps (here 1 apart). */
    const bg_spring spring = {1, 100, 10, 0, false};
    const double w0 = 10, zeta = 0.5, wd = sqrt(-(zeta * zeta + -1)) * w0, b = -(0 - zeta * w0) / wd;
    double value = -1;
    EXPECT_OK(bg_spring_value(&spring, 0.3, &value));
    const double expected = 1 - (sin(wd * 0.3) * b + cos(wd * 0.3) * 1) * exp(-(0.3 * zeta) * w0);
    CHECK(fabs(value - expected) <= 0x1p-50 * expected); /* 4 ulps of [1, 2) */
    /* sidestep's measured presentation values of the default spring: 0 -> 100 shows 34.03
     * at 0.1 s (100 * f32(x)). */
    const bg_spring springs[2] = {{1, 100, 10, 0, false}, {1, 100, 30, 0, true}};
    const double times[2] = {0.1, 0.1};
    float progress[2];
    EXPECT_OK(bg_spring_progress_each(springs, times, 2, progress));
    EXPECT_NEAR(100.0 * progress[0], 34.03, 0.005);
    /* The conformance case springs-apple-points: the overdamped spring at 0.1 s. */
    CHECK(progress[1] == 1.0311812162399292);
    /* UIKit's mapping: the conformance case's stiffness and damping (a reconstruction). */
    bg_spring view;
    EXPECT_OK(bg_spring_for_view_animation(0.5, 0.7, 0, &view));
    CHECK(view.mass == 1 && view.stiffness == 387.2745799154265 && view.damping == 27.55101044670115);
    CHECK(view.initial_velocity == 0 && !view.allows_overdamping);
    EXPECT_OK(bg_spring_for_view_animation(0.3, 1, 0, &view));
    CHECK(view.stiffness == 947.2880491901974 && view.damping == 61.556089843010575);
}

static void test_deceleration_evidence(void) {
    /* Device traces on a 2x screen: the resting offsets exactly; the durations are
     * ANIMATION.md's reproduced ones (3.0647, 2.4679, 2.7354, 2.7118 s), within 17.2 ms
     * of the device's. */
    const double starts[4] = {364, 2595.5, 3094.5, 143}, speeds[4] = {4.619940, 1.398724, -2.389578, 2.279252};
    const double targets[4] = {2664.5, 3288.5, 1907.0, 1275.5}, seconds[4] = {3.069, 2.485, 2.752, 2.719};
    const double reproduced[4] = {3.0647, 2.4679, 2.7354, 2.7118};
    for (int k = 0; k < 4; k++) {
        const double offset[2] = {0, starts[k]}, velocity[2] = {0, speeds[k]};
        bg_deceleration deceleration;
        double at_end[2];
        EXPECT_OK(bg_deceleration_make(offset, velocity, BG_DECELERATION_RATE_NORMAL, 2, NULL, &deceleration));
        CHECK(deceleration.target[0] == 0 && deceleration.target[1] == targets[k]);
        EXPECT_NEAR(deceleration.duration, reproduced[k], 0.00005);
        EXPECT_NEAR(deceleration.duration, seconds[k], 0.0172);
        EXPECT_OK(bg_deceleration_offset(&deceleration, deceleration.duration, at_end));
        CHECK(at_end[1] == targets[k]);
    }
    /* The closed form at 0.1 s of a fast deceleration (rate 0.99, 1x), computed here, and
     * a rate between the two taken as the nearer. */
    const double offset[2] = {10, 20}, velocity[2] = {1.5, -0.5}, times[2] = {0, 0.1};
    bg_deceleration fast;
    double offsets[4];
    EXPECT_OK(bg_deceleration_make(offset, velocity, 0.9935, 1, NULL, &fast));
    CHECK(fast.rate == BG_DECELERATION_RATE_FAST);
    EXPECT_OK(bg_deceleration_offsets(&fast, times, 2, offsets));
    CHECK(offsets[0] == 10 && offsets[1] == 20);
    CHECK(offsets[2] == round(10 + ((1.5 * 0.99) * (1 - pow(0.99, 100))) / (1 - 0.99)));
    CHECK(offsets[3] == round(20 + ((-0.5 * 0.99) * (1 - pow(0.99, 100))) / (1 - 0.99)));
}

static void test_deceleration_of_a_layer(void) {
    /* A scroll view at offset (0, 900) of 375 x 2000 content in 375 x 667 bounds, top
     * inset 20: flung down at 6 pt/ms, it stops at the range's end, 1333. */
    bg_store *store = NULL;
    bg_layer scroll, plain;
    const double frame[4] = {0, 0, 375, 667}, content[2] = {375, 2000}, inset[4] = {20, 0, 0, 0};
    const double offset[2] = {0, 900}, velocity[2] = {0, 6};
    const double range[4] = {0, 0, -20, 1333};
    bg_deceleration from_layer, from_numbers;
    EXPECT_OK(bg_store_create(0, &store));
    EXPECT_OK(bg_store_set_display_scale(store, 2));
    EXPECT_OK(bg_layer_add(store, BG_LAYER_NONE, &scroll));
    EXPECT_OK(bg_layer_add(store, BG_LAYER_NONE, &plain));
    EXPECT_OK(bg_layer_set_frame(store, scroll, frame));
    EXPECT_OK(bg_layer_set_scroll_view(store, scroll, content, inset));
    EXPECT_OK(bg_layer_set_content_offset(store, scroll, offset));
    EXPECT_OK(bg_layer_decelerate(store, scroll, velocity, BG_DECELERATION_RATE_NORMAL, &from_layer));
    EXPECT_OK(bg_deceleration_make(offset, velocity, BG_DECELERATION_RATE_NORMAL, 2, range, &from_numbers));
    CHECK(memcmp(&from_layer, &from_numbers, sizeof from_layer) == 0);
    CHECK(from_layer.target[1] == 1333 && from_layer.scroll_range[2] == -20);
    unsigned long long before = fingerprint(store);
    EXPECT(bg_layer_decelerate(store, plain, velocity, 0.998, &from_layer), BG_ERROR_NOT_A_SCROLL_VIEW, NULL);
    EXPECT(bg_layer_decelerate(store, BG_LAYER_NONE, velocity, 0.998, &from_layer), BG_ERROR_STALE_LAYER, NULL);
    EXPECT(bg_layer_decelerate(NULL, scroll, velocity, 0.998, &from_layer), BG_ERROR_NULL_ARGUMENT,
           "bg_layer_decelerate: store is NULL");
    EXPECT(bg_layer_decelerate(store, scroll, NULL, 0.998, &from_layer), BG_ERROR_NULL_ARGUMENT,
           "bg_layer_decelerate: velocity is NULL");
    EXPECT(bg_layer_decelerate(store, scroll, velocity, NAN, &from_layer), BG_ERROR_INVALID_ARGUMENT,
           "bg_layer_decelerate: rate is NaN");
    CHECK(fingerprint(store) == before);
    CHECK(memcmp(&from_layer, &from_numbers, sizeof from_layer) == 0);
    bg_store_destroy(store);
}

static void test_rubber_band(void) {
    double moved = -1;
    /* The conformance case scroll-deceleration-traces, and the formula computed here. */
    EXPECT_OK(bg_rubber_band_offset(100, 667, 0.55, &moved));
    CHECK(moved == 50.81024930747918);
    EXPECT_OK(bg_rubber_band_offset(-40, 375, 0.55, &moved));
    CHECK(moved == -20.780856423173788);
    EXPECT_OK(bg_rubber_band_offset(1e9, 100, 0.55, &moved));
    CHECK(moved < 100 && moved > 99.99);
    EXPECT(bg_rubber_band_offset(10, 0, 0.55, &moved), BG_ERROR_INVALID_ARGUMENT,
           "bg_rubber_band_offset: dimension must be positive and finite, got 0.0");
    EXPECT(bg_rubber_band_offset(NAN, 10, 0.55, &moved), BG_ERROR_INVALID_ARGUMENT,
           "bg_rubber_band_offset: overscroll must be finite, got nan");
    EXPECT(bg_rubber_band_offset(1, 10, INFINITY, &moved), BG_ERROR_INVALID_ARGUMENT,
           "bg_rubber_band_offset: constant must be finite, got inf");
    EXPECT(bg_rubber_band_offset(1, 10, 0.55, NULL), BG_ERROR_NULL_ARGUMENT, "bg_rubber_band_offset: out is NULL");
    CHECK(moved > 99.99);
}

/* Bad input to the timing functions: each rule, NULLs, counts; nothing written. */
static void test_timing_function_bad_input(void) {
    bg_timing_function function = {0.5f, 0.5f, 0.5f, 0.5f};
    const bg_timing_function bad_x1 = {NAN, 0, 1, 1}, good = {0.42f, 0, 1, 1};
    const double inputs[3] = {0.1, 0.5, 0.9};
    float out[3] = {7, 7, 7};
    int32_t name = 99;
    EXPECT(bg_timing_function_named(5, &function), BG_ERROR_INVALID_ARGUMENT,
           "bg_timing_function_named: 5 is not a timing function name (BG_TIMING_FUNCTION_DEFAULT 0 to "
           "BG_TIMING_FUNCTION_EASE_IN_EASE_OUT 4)");
    EXPECT(bg_timing_function_named(BG_TIMING_FUNCTION_CUSTOM, &function), BG_ERROR_INVALID_ARGUMENT, NULL);
    EXPECT(bg_timing_function_named(BG_TIMING_FUNCTION_LINEAR, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_timing_function_named: out is NULL");
    EXPECT(bg_timing_function_make(NAN, 0, 1, 1, &function), BG_ERROR_INVALID_ARGUMENT,
           "bg_timing_function_make: x1 must be in [0, 1], got nan");
    EXPECT(bg_timing_function_make(0.5, INFINITY, 1, 1, &function), BG_ERROR_INVALID_ARGUMENT,
           "bg_timing_function_make: y1 must be finite, got inf");
    EXPECT(bg_timing_function_make(0.5, 0, 1.5, 1, &function), BG_ERROR_INVALID_ARGUMENT,
           "bg_timing_function_make: x2 must be in [0, 1], got 1.5");
    EXPECT(bg_timing_function_make(0.5, 0, 1, -NAN, &function), BG_ERROR_INVALID_ARGUMENT, NULL);
    CHECK(function.x1 == 0.5f && function.y2 == 0.5f);
    EXPECT(bg_timing_function_value(&bad_x1, 0.5, out), BG_ERROR_INVALID_ARGUMENT,
           "bg_timing_function_value: function.x1 must be in [0, 1], got nan");
    EXPECT(bg_timing_function_value(NULL, 0.5, out), BG_ERROR_NULL_ARGUMENT,
           "bg_timing_function_value: function is NULL");
    EXPECT(bg_timing_function_value(&good, 0.5, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_timing_function_value: out is NULL");
    EXPECT(bg_timing_function_get_name(&bad_x1, &name), BG_ERROR_INVALID_ARGUMENT,
           "bg_timing_function_get_name: function.x1 must be in [0, 1], got nan");
    EXPECT(bg_timing_function_values(&good, NULL, 3, out), BG_ERROR_NULL_ARGUMENT,
           "bg_timing_function_values: inputs is NULL");
    EXPECT(bg_timing_function_values(&good, inputs, SIZE_MAX, out), BG_ERROR_INVALID_ARGUMENT,
           fmt("bg_timing_function_values: count 18446744073709551615 is too large: more inputs than the address "
               "space holds (at most %llu inputs, 8 bytes each)",
               ADDRESS_SPACE / 8));
    EXPECT_OK(bg_timing_function_values(&good, NULL, 0, NULL));
    const bg_timing_function functions[3] = {good, good, {0.5f, 0, 1, INFINITY}};
    EXPECT(bg_timing_function_values_each(functions, inputs, 3, out), BG_ERROR_INVALID_ARGUMENT,
           "bg_timing_function_values_each: functions[2].y2 must be finite, got inf");
    EXPECT(bg_timing_function_values_each(NULL, inputs, 3, out), BG_ERROR_NULL_ARGUMENT,
           "bg_timing_function_values_each: functions is NULL");
    EXPECT_OK(bg_timing_function_values_each(NULL, NULL, 0, NULL));
    CHECK(out[0] == 7 && out[1] == 7 && out[2] == 7 && name == 99);
}

/* Bad input to the springs: each rule (Core Animation's setters would replace these
 * values; C refuses them), NULLs, counts; nothing written. */
static void test_spring_bad_input(void) {
    const bg_spring good = {1, 100, 10, 0, false};
    bg_spring springs[3] = {good, good, good};
    const double times[3] = {0.1, 0.2, 0.3};
    float out[3] = {7, 7, 7};
    double value = 7;
    bg_spring_durations durations[3] = {{7, 7, 7}, {7, 7, 7}, {7, 7, 7}};
    springs[0].mass = -1;
    EXPECT(bg_spring_value(&springs[0], 0.1, &value), BG_ERROR_INVALID_ARGUMENT,
           "bg_spring_value: spring.mass must be positive and finite, got -1.0");
    springs[0] = good;
    springs[0].stiffness = 0;
    EXPECT(bg_spring_progress(&springs[0], times, 3, out), BG_ERROR_INVALID_ARGUMENT,
           "bg_spring_progress: spring.stiffness must be positive and finite, got 0.0");
    springs[0] = good;
    springs[2].damping = -1;
    EXPECT(bg_spring_progress_each(springs, times, 3, out), BG_ERROR_INVALID_ARGUMENT,
           "bg_spring_progress_each: springs[2].damping must be 0 or more and finite, got -1.0");
    springs[2] = good;
    springs[1].initial_velocity = NAN;
    EXPECT(bg_spring_get_durations_each(springs, 3, 0.001, 1, durations), BG_ERROR_INVALID_ARGUMENT,
           "bg_spring_get_durations_each: springs[1].initial_velocity must be finite, got nan");
    EXPECT(bg_spring_get_durations(&good, NAN, 1, durations), BG_ERROR_INVALID_ARGUMENT,
           "bg_spring_get_durations: epsilon is NaN");
    EXPECT(bg_spring_get_durations(&good, 0.001, NAN, durations), BG_ERROR_INVALID_ARGUMENT,
           "bg_spring_get_durations: speed is NaN");
    EXPECT(bg_spring_get_durations(&good, 0.001, 1, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_spring_get_durations: out is NULL");
    EXPECT(bg_spring_value(NULL, 0.1, &value), BG_ERROR_NULL_ARGUMENT, "bg_spring_value: spring is NULL");
    EXPECT(bg_spring_progress_each(springs, times, 3, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_spring_progress_each: out is NULL");
    EXPECT(bg_spring_progress_each(springs, times, ADDRESS_SPACE, out), BG_ERROR_INVALID_ARGUMENT,
           fmt("bg_spring_progress_each: count %llu is too large: more springs than the address space holds "
               "(at most %llu springs, 40 bytes each)",
               ADDRESS_SPACE, ADDRESS_SPACE / 40));
    EXPECT_OK(bg_spring_get_durations_each(NULL, 0, 0.001, 1, NULL));
    EXPECT(bg_spring_for_view_animation(NAN, 1, 0, &springs[0]), BG_ERROR_INVALID_ARGUMENT,
           "bg_spring_for_view_animation: duration is NaN");
    EXPECT(bg_spring_for_view_animation(0.5, 1, INFINITY, &springs[0]), BG_ERROR_INVALID_ARGUMENT,
           "bg_spring_for_view_animation: initial_velocity must be finite, got inf");
    CHECK(value == 7 && out[0] == 7 && out[2] == 7 && durations[0].settling == 7 && durations[2].for_epsilon == 7);
    CHECK(memcmp(&springs[0], &good, sizeof good) == 0);
}

/* Bad input to the decelerations; nothing written. */
static void test_deceleration_bad_input(void) {
    const double offset[2] = {0, 100}, velocity[2] = {0, 2}, bad[2] = {0, INFINITY}, times[2] = {0.1, 0.2};
    const double inverted[4] = {0, 10, 5, 4};
    bg_deceleration deceleration, broken;
    double out[4] = {7, 7, 7, 7};
    EXPECT_OK(bg_deceleration_make(offset, velocity, 0.998, 2, NULL, &deceleration));
    broken = deceleration;
    EXPECT(bg_deceleration_make(offset, velocity, 0.998, 0, NULL, &broken), BG_ERROR_INVALID_ARGUMENT,
           "bg_deceleration_make: display_scale must be positive and finite, got 0.0");
    EXPECT(bg_deceleration_make(offset, bad, 0.998, 2, NULL, &broken), BG_ERROR_INVALID_ARGUMENT,
           "bg_deceleration_make: velocity must be finite, got {0.0, inf}");
    EXPECT(bg_deceleration_make(bad, velocity, 0.998, 2, NULL, &broken), BG_ERROR_INVALID_ARGUMENT,
           "bg_deceleration_make: offset must be finite, got {0.0, inf}");
    EXPECT(bg_deceleration_make(offset, velocity, NAN, 2, NULL, &broken), BG_ERROR_INVALID_ARGUMENT,
           "bg_deceleration_make: rate is NaN");
    EXPECT(bg_deceleration_make(offset, velocity, 0.998, 2, inverted, &broken), BG_ERROR_INVALID_ARGUMENT,
           "bg_deceleration_make: scroll_range must be {minX, maxX, minY, maxY} with each minimum at most its "
           "maximum and no NaN, got {0.0, 10.0, 5.0, 4.0}");
    EXPECT(bg_deceleration_make(offset, NULL, 0.998, 2, NULL, &broken), BG_ERROR_NULL_ARGUMENT,
           "bg_deceleration_make: velocity is NULL");
    CHECK(memcmp(&broken, &deceleration, sizeof broken) == 0);
    broken.scroll_range[1] = NAN;
    EXPECT(bg_deceleration_offset(&broken, 0.1, out), BG_ERROR_INVALID_ARGUMENT,
           "bg_deceleration_offset: deceleration.scroll_range must be {minX, maxX, minY, maxY} with each minimum "
           "at most its maximum and no NaN, got {-inf, nan, -inf, inf}");
    broken = deceleration;
    broken.display_scale = -2;
    EXPECT(bg_deceleration_offsets(&broken, times, 2, out), BG_ERROR_INVALID_ARGUMENT,
           "bg_deceleration_offsets: deceleration.display_scale must be positive and finite, got -2.0");
    EXPECT(bg_deceleration_offsets(&deceleration, times, ADDRESS_SPACE / 16 + 1, out), BG_ERROR_INVALID_ARGUMENT,
           NULL);
    EXPECT(bg_deceleration_offsets(&deceleration, NULL, 2, out), BG_ERROR_NULL_ARGUMENT,
           "bg_deceleration_offsets: times is NULL");
    EXPECT(bg_deceleration_offset(&deceleration, 0.1, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_deceleration_offset: out is NULL");
    EXPECT_OK(bg_deceleration_offsets(&deceleration, NULL, 0, NULL));
    CHECK(out[0] == 7 && out[1] == 7 && out[2] == 7 && out[3] == 7);
}

static void test_curves(void) {
    test_timing_function_evidence();
    test_timing_function_names();
    test_spring_evidence();
    test_spring_values();
    test_deceleration_evidence();
    test_deceleration_of_a_layer();
    test_rubber_band();
    test_timing_function_bad_input();
    test_spring_bad_input();
    test_deceleration_bad_input();
}
