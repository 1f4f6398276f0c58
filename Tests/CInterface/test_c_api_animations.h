/*
 * test_c_api_animations.h: the animation functions of batchgeometry.h ("Animations: the
 * presentation tree") from C. The expected values are the conformance case
 * shared/conformance/animation/basic-position-easeinout (its expected output's
 * presentation at 0.125 s and 0.75 s), never the library's own output; bad input: each
 * rule with its exact message, and nothing changed. A deceleration animation is checked
 * against bg_deceleration_offset, the scalar function it must sample (whose values the
 * curve tests check against device traces). Included by test_c_api.c. (The same
 * bits as the Swift API for every kind of animation:
 * Tests/BatchGeometryCTests/AnimationInterfaceTests.swift.)
 */

/* The conformance case's tree: window (0, 0, 400, 800) > card (20, 40, 100, 60) > label
 * (10, 10, 80, 20). */
static bg_store *animation_scene(bg_layer layers[3]) {
    bg_store *store = NULL;
    const double frames[3][4] = {{0, 0, 400, 800}, {20, 40, 100, 60}, {10, 10, 80, 20}};
    EXPECT_OK(bg_store_create(0, &store));
    for (int k = 0; k < 3; k++) {
        EXPECT_OK(bg_layer_add(store, k == 0 ? BG_LAYER_NONE : layers[k - 1], &layers[k]));
        EXPECT_OK(bg_layer_set_frame(store, layers[k], frames[k]));
    }
    return store;
}

/* The case's two animations: the card's position (easeInEaseOut, 0.5 s) and the label's
 * opacity (0.5 s); their numbers are 0 and 1. */
static void add_case_animations(bg_animations *animations, bg_store *store, const bg_layer layers[3]) {
    const double from[2] = {70, 70}, to[2] = {270, 470}, clear = 0, opaque = 1;
    bg_animation animation;
    size_t number = 99;
    EXPECT_OK(bg_animation_init(&animation));
    animation.key_path = "position";
    animation.value_count = 2;
    animation.from_value = from;
    animation.to_value = to;
    animation.timing.duration = 0.5;
    animation.has_timing_function = true;
    EXPECT_OK(bg_timing_function_named(BG_TIMING_FUNCTION_EASE_IN_EASE_OUT, &animation.timing_function));
    EXPECT_OK(bg_animations_add(animations, store, layers[1], &animation, &number));
    CHECK(number == 0);
    EXPECT_OK(bg_animation_init(&animation));
    animation.key_path = "opacity";
    animation.value_count = 1;
    animation.from_value = &clear;
    animation.to_value = &opaque;
    animation.timing.duration = 0.5;
    EXPECT_OK(bg_animations_add(animations, store, layers[2], &animation, &number));
    CHECK(number == 1);
}

static void test_animation_conformance_case(void) {
    bg_layer layers[3];
    bg_store *store = animation_scene(layers);
    bg_animations *animations = NULL;
    bg_presentation values[4], one;
    size_t count = 99, finished[4];
    bool animated = false;
    EXPECT_OK(bg_animations_create(&animations));
    add_case_animations(animations, store, layers);
    unsigned long long model = fingerprint(store);
    /* 0.125 s: the expected output's card position and label opacity, to the bit. */
    EXPECT_OK(bg_animations_sample(animations, store, 0.125));
    CHECK(fingerprint(store) == model);
    EXPECT_OK(bg_animations_presentation_count(animations, &count));
    CHECK(count == 2);
    EXPECT_OK(bg_animations_get_presentations(animations, store, values, 4, &count));
    CHECK(count == 2 && values[0].layer == layers[1] && values[1].layer == layers[2]);
    EXPECT_DOUBLES(values[0].position, 2, 95.83238184452057, 121.66476368904114);
    EXPECT_DOUBLES(values[0].bounds, 4, 0, 0, 100, 60);
    CHECK(values[0].opacity == 1.0f && values[1].opacity == 0.25f);
    EXPECT_DOUBLES(values[1].position, 2, 50, 20);
    EXPECT_OK(bg_animations_get_presentation(animations, store, layers[1], &one, &animated));
    CHECK(animated && memcmp(&one, &values[0], sizeof one) == 0);
    EXPECT_OK(bg_animations_get_presentation(animations, store, layers[0], &one, &animated));
    CHECK(!animated && one.layer == layers[0] && one.opacity == 1.0f);
    EXPECT_DOUBLES(one.position, 2, 200, 400);
    EXPECT_OK(bg_animations_get_finished(animations, finished, 4, &count));
    CHECK(count == 0);
    /* The presentation tree: a copy of the model with the sample applied, then restored. */
    bg_store *tree = NULL;
    double position[2], rect[4];
    EXPECT_OK(bg_store_copy(store, &tree));
    EXPECT_OK(bg_store_apply_presentation(tree, animations));
    EXPECT_OK(bg_layer_get_position(tree, layers[1], position));
    EXPECT_DOUBLES(position, 2, 95.83238184452057, 121.66476368904114);
    EXPECT_OK(bg_layer_get_frame(tree, layers[1], rect));
    EXPECT_DOUBLES(rect, 4, 45.83238184452057, 91.66476368904114, 100, 60);
    EXPECT_OK(bg_store_restore_model_values(tree, animations, store));
    CHECK(fingerprint(tree) == model);
    /* 0.75 s: both ended and were removed; the finished list names them, ascending. */
    EXPECT_OK(bg_animations_sample(animations, store, 0.75));
    EXPECT_OK(bg_animations_presentation_count(animations, &count));
    CHECK(count == 0);
    EXPECT(bg_animations_get_finished(animations, finished, 1, &count), BG_ERROR_BUFFER_TOO_SMALL,
           "bg_animations_get_finished: capacity 1 is too small: 2 needed");
    CHECK(count == 2);
    EXPECT_OK(bg_animations_get_finished(animations, finished, 4, &count));
    CHECK(count == 2 && finished[0] == 0 && finished[1] == 1);
    bg_store_destroy(tree);
    bg_animations_destroy(animations);
    bg_store_destroy(store);
}

static void test_animation_layer_timing_and_kinds(void) {
    bg_layer layers[3];
    bg_store *store = animation_scene(layers);
    bg_animations *animations = NULL;
    bg_presentation value;
    bool animated = false;
    EXPECT_OK(bg_animations_create(&animations));
    add_case_animations(animations, store, layers);
    /* The card's time runs twice as fast: at 0.0625 s its animation is where the case's
     * is at 0.125 s; the label's time (a sublayer's) too. */
    const bg_layer_timing fast = {0, 2, 0};
    EXPECT_OK(bg_animations_set_layer_timing(animations, store, layers[1], &fast));
    EXPECT_OK(bg_animations_sample(animations, store, 0.0625));
    EXPECT_OK(bg_animations_get_presentation(animations, store, layers[1], &value, &animated));
    EXPECT_DOUBLES(value.position, 2, 95.83238184452057, 121.66476368904114);
    EXPECT_OK(bg_animations_get_presentation(animations, store, layers[2], &value, &animated));
    CHECK(animated && value.opacity == 0.25f);
    /* Removed: the card's position is its model value from the next sample on. */
    EXPECT_OK(bg_animations_remove(animations, 0));
    EXPECT_OK(bg_animations_remove(animations, 0));
    EXPECT_OK(bg_animations_sample(animations, store, 0.0625));
    EXPECT_OK(bg_animations_get_presentation(animations, store, layers[1], &value, &animated));
    CHECK(!animated);
    EXPECT_DOUBLES(value.position, 2, 70, 70);
    /* A keyframe and a spring animation are accepted and sampled; their values are the
     * Swift API's (AnimationInterfaceTests). */
    const double keyframes[6] = {0, 0, 10, 20, 40, 0}, key_times[3] = {0, 0.25, 1}, from = 1, to = 2;
    bg_animation animation;
    size_t number = 99;
    EXPECT_OK(bg_animation_init(&animation));
    animation.key_path = "position";
    animation.kind = BG_ANIMATION_KEYFRAME;
    animation.value_count = 2;
    animation.values = keyframes;
    animation.keyframe_count = 3;
    animation.key_times = key_times;
    animation.key_time_count = 3;
    animation.timing.begin_time = 1;
    animation.additive = true;
    EXPECT_OK(bg_animations_add(animations, store, layers[0], &animation, &number));
    CHECK(number == 2);
    EXPECT_OK(bg_animation_init(&animation));
    animation.key_path = "transform.scale";
    animation.kind = BG_ANIMATION_SPRING;
    animation.value_count = 1;
    animation.from_value = &from;
    animation.to_value = &to;
    animation.timing.duration = 1;
    EXPECT_OK(bg_animations_add(animations, store, layers[2], &animation, &number));
    CHECK(number == 3);
    /* At 1.0625 s the keyframe animation is at a quarter of its first segment: additive
     * (10, 20) / 4 on the window's (200, 400). */
    EXPECT_OK(bg_animations_sample(animations, store, 1.0625));
    EXPECT_OK(bg_animations_get_presentation(animations, store, layers[0], &value, &animated));
    CHECK(animated);
    EXPECT_DOUBLES(value.position, 2, 210, 420);
    bg_animations_destroy(animations);
    bg_store_destroy(store);
}

static void test_animation_bad_input(void) {
    bg_layer layers[3], dead = BG_LAYER_NONE;
    bg_store *store = animation_scene(layers);
    bg_animations *animations = NULL;
    bg_animation animation;
    bg_presentation value;
    bool animated;
    size_t number = 99, count = 99;
    const double two[3] = {1, 2, 3}, key_times[3] = {0, 0.5, 0.9};
    EXPECT(bg_animations_create(NULL), BG_ERROR_NULL_ARGUMENT, "bg_animations_create: out is NULL");
    EXPECT(bg_animation_init(NULL), BG_ERROR_NULL_ARGUMENT, "bg_animation_init: animation is NULL");
    EXPECT_OK(bg_animations_create(&animations));
    EXPECT_OK(bg_animation_init(&animation));
    EXPECT(bg_animations_add(animations, store, layers[1], &animation, &number), BG_ERROR_NULL_ARGUMENT,
           "bg_animations_add: animation.key_path is NULL");
    animation.key_path = "position.w";
    animation.value_count = 2;
    EXPECT(bg_animations_add(animations, store, layers[1], &animation, &number), BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add: animation.key_path \"position.w\" is not an animatable key path "
           "(ANIMATION.md section 8)");
    animation.key_path = "position";
    animation.value_count = 3;
    animation.from_value = two;
    EXPECT(bg_animations_add(animations, store, layers[1], &animation, &number), BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add: animation.from_value: position takes 2 numbers, got 3");
    animation.value_count = 17;
    EXPECT(bg_animations_add(animations, store, layers[1], &animation, &number), BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add: animation.value_count must be 1 to 16, got 17");
    animation.value_count = 2;
    animation.kind = BG_ANIMATION_KEYFRAME;
    animation.values = two;
    animation.keyframe_count = 1;
    animation.key_times = key_times;
    animation.key_time_count = 3;
    EXPECT(bg_animations_add(animations, store, layers[1], &animation, &number), BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add: animation.key_times: expected 1 (one per value), got 3");
    animation.kind = 7;
    EXPECT(bg_animations_add(animations, store, layers[1], &animation, &number), BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add: animation.kind 7 is not an animation kind (BG_ANIMATION_BASIC 0 to "
           "BG_ANIMATION_KEYFRAME 2)");
    animation.kind = BG_ANIMATION_BASIC;
    animation.timing.duration = -1;
    EXPECT(bg_animations_add(animations, store, layers[1], &animation, &number), BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add: animation.timing.duration: must be a finite number ≥ 0, got -1");
    animation.timing.duration = 0.5;
    EXPECT_OK(bg_layer_add(store, BG_LAYER_NONE, &dead));
    EXPECT_OK(bg_layer_destroy(store, dead, &count));
    EXPECT(bg_animations_add(animations, store, dead, &animation, &number), BG_ERROR_STALE_LAYER, NULL);
    EXPECT(bg_animations_add(NULL, store, layers[1], &animation, &number), BG_ERROR_NULL_ARGUMENT,
           "bg_animations_add: animations is NULL");
    EXPECT(bg_animations_add(animations, store, layers[1], &animation, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_animations_add: out is NULL");
    CHECK(number == 99);
    EXPECT(bg_animations_remove(animations, 0), BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_remove: number 0 is out of range (0 animations added)");
    const bg_layer_timing nan_speed = {0, NAN, 0};
    EXPECT(bg_animations_set_layer_timing(animations, store, layers[1], &nan_speed), BG_ERROR_INVALID_ARGUMENT,
           NULL);
    CHECK(strncmp(bg_last_error_message(), "bg_animations_set_layer_timing: timing.speed: ", 46) == 0);
    EXPECT(bg_animations_set_layer_timing(animations, store, layers[1], NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_animations_set_layer_timing: timing is NULL");
    /* Nothing was added: the first good animation is number 0. */
    EXPECT_OK(bg_animations_add(animations, store, layers[1], &animation, &number));
    CHECK(number == 0);
    EXPECT_OK(bg_animations_sample(animations, store, 0.25));
    EXPECT(bg_animations_sample(animations, store, NAN), BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_sample: time: must not be NaN");
    EXPECT(bg_animations_sample(animations, store, 0.125), BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_sample: time: 0.125 is before the previous sample (0.25)");
    EXPECT(bg_animations_get_presentations(animations, store, NULL, 1, &count), BG_ERROR_NULL_ARGUMENT,
           "bg_animations_get_presentations: out is NULL");
    EXPECT(bg_animations_get_presentations(animations, store, NULL, 0, &count), BG_ERROR_BUFFER_TOO_SMALL,
           "bg_animations_get_presentations: capacity 0 is too small: 1 needed");
    CHECK(count == 1);
    EXPECT(bg_animations_get_presentation(animations, store, dead, &value, &animated), BG_ERROR_STALE_LAYER,
           NULL);
    EXPECT(bg_animations_presentation_count(animations, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_animations_presentation_count: out is NULL");
    EXPECT(bg_store_apply_presentation(store, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_store_apply_presentation: animations is NULL");
    EXPECT(bg_store_restore_model_values(store, animations, store), BG_ERROR_INVALID_ARGUMENT,
           "bg_store_restore_model_values: model is store: the model values come from another store (the one "
           "sampled)");
    EXPECT(bg_store_restore_model_values(store, animations, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_store_restore_model_values: model is NULL");
    EXPECT(bg_store_update_presentation(NULL, animations, store), BG_ERROR_NULL_ARGUMENT,
           "bg_store_update_presentation: store is NULL");
    EXPECT(bg_store_update_presentation(store, NULL, store), BG_ERROR_NULL_ARGUMENT,
           "bg_store_update_presentation: animations is NULL");
    EXPECT(bg_store_update_presentation(store, animations, NULL), BG_ERROR_NULL_ARGUMENT,
           "bg_store_update_presentation: model is NULL");
    EXPECT(bg_store_update_presentation(store, animations, store), BG_ERROR_INVALID_ARGUMENT,
           "bg_store_update_presentation: model is store: the model values come from another store (the one "
           "sampled)");
    bg_animations_destroy(NULL);
    bg_animations_destroy(animations);
    bg_store_destroy(store);
}

/* A scroll view (375 x 667 over 375 x 2000 of content, top inset 20, 2x) at offset
 * (0, 900) flung down at `speed` pt/ms: *deceleration from bg_layer_decelerate, and the
 * model's content offset moved to its target, as UIScrollView does when it lets go. */
static bg_store *decelerating_scroll_view(double speed, bg_layer *scroll, bg_deceleration *deceleration) {
    bg_store *store = NULL;
    const double frame[4] = {0, 0, 375, 667}, content[2] = {375, 2000}, inset[4] = {20, 0, 0, 0};
    const double offset[2] = {0, 900}, velocity[2] = {0, speed};
    EXPECT_OK(bg_store_create(0, &store));
    EXPECT_OK(bg_store_set_display_scale(store, 2));
    EXPECT_OK(bg_layer_add(store, BG_LAYER_NONE, scroll));
    EXPECT_OK(bg_layer_set_frame(store, *scroll, frame));
    EXPECT_OK(bg_layer_set_scroll_view(store, *scroll, content, inset));
    EXPECT_OK(bg_layer_set_content_offset(store, *scroll, offset));
    EXPECT_OK(bg_layer_decelerate(store, *scroll, velocity, BG_DECELERATION_RATE_NORMAL, deceleration));
    EXPECT_OK(bg_layer_set_content_offset(store, *scroll, deceleration->target));
    return store;
}

/* Samples at `time` and checks that the scroll view shows the bounds origin
 * bg_deceleration_offset gives at `local` (the scalar reference), its size the model's. */
static void expect_decelerated_at(bg_animations *animations, bg_store *store, bg_layer scroll,
                                  const bg_deceleration *deceleration, double time, double local) {
    bg_presentation value;
    bool animated = false;
    double expected[2] = {NAN, NAN};
    EXPECT_OK(bg_animations_sample(animations, store, time));
    EXPECT_OK(bg_animations_get_presentation(animations, store, scroll, &value, &animated));
    EXPECT_OK(bg_deceleration_offset(deceleration, local, expected));
    CHECK(animated);
    CHECK(value.bounds[0] == expected[0] && value.bounds[1] == expected[1]);
    CHECK(value.bounds[2] == 375 && value.bounds[3] == 667);
}

/* A deceleration added to a scroll view is sampled like any animation of its content
 * offset: bg_deceleration_offset at the local time, then finished, or removed. */
static void test_animation_deceleration(void) {
    bg_layer scroll;
    bg_deceleration deceleration;
    bg_store *store = decelerating_scroll_view(0.8, &scroll, &deceleration);
    bg_animations *animations = NULL;
    bg_presentation value;
    bool animated = true;
    size_t number = 99, finished[2] = {99, 99}, count = 99;
    const double times[5] = {0, 0.05, 0.3, 1, 2};
    EXPECT_OK(bg_animations_create(&animations));
    /* Slow enough to stop inside the range, long enough for every time sampled. */
    CHECK(deceleration.duration > 2 && deceleration.target[1] > 900 && deceleration.target[1] < 1333);
    EXPECT_OK(bg_animations_add_deceleration(animations, store, scroll, &deceleration, NULL, &number));
    CHECK(number == 0);
    for (int k = 0; k < 5; k++) expect_decelerated_at(animations, store, scroll, &deceleration, times[k], times[k]);
    /* It moved: the offsets compared above are not all the start's. */
    EXPECT_OK(bg_animations_get_presentation(animations, store, scroll, &value, &animated));
    CHECK(value.bounds[1] > 900 && value.bounds[1] < deceleration.target[1]);
    EXPECT_OK(bg_animations_get_finished(animations, finished, 2, &count));
    CHECK(count == 0);
    expect_decelerated_at(animations, store, scroll, &deceleration, deceleration.duration, deceleration.duration);
    EXPECT_OK(bg_animations_sample(animations, store, deceleration.duration + 0.001));
    EXPECT_OK(bg_animations_get_finished(animations, finished, 2, &count));
    CHECK(count == 1 && finished[0] == 0);
    /* Removed on completion: the model shows, at the target. */
    EXPECT_OK(bg_animations_get_presentation(animations, store, scroll, &value, &animated));
    CHECK(!animated && value.bounds[0] == deceleration.target[0] && value.bounds[1] == deceleration.target[1]);
    bg_animations_destroy(animations);

    /* Its own timing (begin 0.5 s, speed 2) and a forward fill kept after the end;
     * duration and repeat_count are the deceleration's. */
    bg_media_timing timing;
    bg_animation defaults;
    EXPECT_OK(bg_animation_init(&defaults));
    timing = defaults.timing;
    timing.begin_time = 0.5;
    timing.speed = 2;
    timing.duration = 0.1;
    timing.repeat_count = 3;
    timing.fill_mode = BG_FILL_MODE_FORWARDS;
    timing.removed_on_completion = false;
    EXPECT_OK(bg_animations_create(&animations));
    EXPECT_OK(bg_animations_add_deceleration(animations, store, scroll, &deceleration, &timing, &number));
    CHECK(number == 0);
    EXPECT_OK(bg_animations_sample(animations, store, 0.25));
    EXPECT_OK(bg_animations_get_presentation(animations, store, scroll, &value, &animated));
    CHECK(!animated);
    for (int k = 0; k < 5; k++) {
        const double time = 0.5 + times[k] / 2;
        expect_decelerated_at(animations, store, scroll, &deceleration, time, (time - 0.5) * 2);
    }
    expect_decelerated_at(animations, store, scroll, &deceleration, 0.5 + deceleration.duration, deceleration.duration);
    EXPECT_OK(bg_animations_get_finished(animations, finished, 2, &count));
    CHECK(count == 1 && finished[0] == 0);
    /* bg_animations_remove stops it, as a touch stops a scroll view. */
    EXPECT_OK(bg_animations_remove(animations, number));
    EXPECT_OK(bg_animations_sample(animations, store, 1 + deceleration.duration));
    EXPECT_OK(bg_animations_get_presentation(animations, store, scroll, &value, &animated));
    CHECK(!animated);
    /* Mid-flight too: number 1 shows at 0.1 s local, and after its removal the model. */
    timing.begin_time = 2 + deceleration.duration;
    EXPECT_OK(bg_animations_add_deceleration(animations, store, scroll, &deceleration, &timing, &number));
    CHECK(number == 1);
    expect_decelerated_at(animations, store, scroll, &deceleration, timing.begin_time + 0.05, 0.1);
    EXPECT_OK(bg_animations_remove(animations, number));
    EXPECT_OK(bg_animations_sample(animations, store, timing.begin_time + 0.1));
    EXPECT_OK(bg_animations_get_presentation(animations, store, scroll, &value, &animated));
    CHECK(!animated && value.bounds[1] == deceleration.target[1]);
    bg_animations_destroy(animations);
    bg_store_destroy(store);
}

/* Bad input to bg_animations_add_deceleration: each with its status and message, and
 * nothing added (the next good one is number 0). */
static void test_animation_deceleration_bad_input(void) {
    bg_layer scroll, dead = BG_LAYER_NONE, foreign;
    bg_deceleration deceleration, broken;
    bg_store *store = decelerating_scroll_view(2, &scroll, &deceleration), *other = NULL;
    bg_animations *animations = NULL;
    bg_animation defaults;
    bg_media_timing timing;
    size_t number = 99, count;
    EXPECT_OK(bg_animations_create(&animations));
    EXPECT_OK(bg_animation_init(&defaults));
    EXPECT(bg_animations_add_deceleration(NULL, store, scroll, &deceleration, NULL, &number), BG_ERROR_NULL_ARGUMENT,
           "bg_animations_add_deceleration: animations is NULL");
    EXPECT(bg_animations_add_deceleration(animations, NULL, scroll, &deceleration, NULL, &number),
           BG_ERROR_NULL_ARGUMENT, "bg_animations_add_deceleration: store is NULL");
    EXPECT(bg_animations_add_deceleration(animations, store, scroll, NULL, NULL, &number), BG_ERROR_NULL_ARGUMENT,
           "bg_animations_add_deceleration: deceleration is NULL");
    EXPECT(bg_animations_add_deceleration(animations, store, scroll, &deceleration, NULL, NULL),
           BG_ERROR_NULL_ARGUMENT, "bg_animations_add_deceleration: out is NULL");
    EXPECT_OK(bg_layer_add(store, BG_LAYER_NONE, &dead));
    EXPECT_OK(bg_layer_destroy(store, dead, &count));
    EXPECT(bg_animations_add_deceleration(animations, store, dead, &deceleration, NULL, &number), BG_ERROR_STALE_LAYER,
           NULL);
    EXPECT(bg_animations_add_deceleration(animations, store, BG_LAYER_NONE, &deceleration, NULL, &number),
           BG_ERROR_STALE_LAYER, NULL);
    /* A handle of another store: a slot this store does not have. */
    EXPECT_OK(bg_store_create(0, &other));
    for (int k = 0; k < 4; k++) EXPECT_OK(bg_layer_add(other, BG_LAYER_NONE, &foreign));
    EXPECT(bg_animations_add_deceleration(animations, store, foreign, &deceleration, NULL, &number),
           BG_ERROR_STALE_LAYER, NULL);
    broken = deceleration;
    broken.velocity[1] = INFINITY;
    EXPECT(bg_animations_add_deceleration(animations, store, scroll, &broken, NULL, &number),
           BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add_deceleration: deceleration.velocity must be finite, got {0.0, inf}");
    broken = deceleration;
    broken.offset[0] = NAN;
    EXPECT(bg_animations_add_deceleration(animations, store, scroll, &broken, NULL, &number),
           BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add_deceleration: deceleration.offset must be finite, got {nan, 900.0}");
    broken = deceleration;
    broken.display_scale = 0;
    EXPECT(bg_animations_add_deceleration(animations, store, scroll, &broken, NULL, &number),
           BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add_deceleration: deceleration.display_scale must be positive and finite, got 0.0");
    timing = defaults.timing;
    timing.speed = NAN;
    EXPECT(bg_animations_add_deceleration(animations, store, scroll, &deceleration, &timing, &number),
           BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add_deceleration: timing.speed: expected a finite number, got \"NaN\"");
    timing = defaults.timing;
    timing.fill_mode = 4;
    EXPECT(bg_animations_add_deceleration(animations, store, scroll, &deceleration, &timing, &number),
           BG_ERROR_INVALID_ARGUMENT,
           "bg_animations_add_deceleration: timing.fill_mode 4 is not a fill mode (BG_FILL_MODE_REMOVED 0 to "
           "BG_FILL_MODE_BOTH 3)");
    CHECK(number == 99);
    EXPECT_OK(bg_animations_get_finished(animations, NULL, 0, &count));
    CHECK(count == 0);
    EXPECT_OK(bg_animations_add_deceleration(animations, store, scroll, &deceleration, NULL, &number));
    CHECK(number == 0);
    bg_animations_destroy(animations);
    bg_store_destroy(other);
    bg_store_destroy(store);
}

/* bg_store_update_presentation against its definition: one tree moved by the fused call,
 * another by restore before each sample and apply after it, equal to the bit at every
 * frame. Besides the case's two, the card's bounds animate for 0.25 s, so the card keeps
 * an entry whose bounds only the previous sample wrote; at 0.75 s every animation has
 * been removed (entries only in the previous sample). A failed sample in the middle must
 * leave the two samples as they were. */
static void test_animation_update_presentation(void) {
    bg_layer layers[3];
    bg_store *store = animation_scene(layers), *fused = NULL, *split = NULL;
    bg_animations *animations = NULL;
    bg_animation animation;
    const double small[4] = {0, 0, 100, 60}, large[4] = {0, 0, 200, 120};
    double position[2];
    bg_presentation before[4], after[4];
    size_t number = 0, count = 0;
    memset(before, 0, sizeof before);
    memset(after, 0, sizeof after);
    EXPECT_OK(bg_animations_create(&animations));
    add_case_animations(animations, store, layers);
    EXPECT_OK(bg_animation_init(&animation));
    animation.key_path = "bounds";
    animation.value_count = 4;
    animation.from_value = small;
    animation.to_value = large;
    animation.timing.duration = 0.25;
    EXPECT_OK(bg_animations_add(animations, store, layers[1], &animation, &number));
    EXPECT_OK(bg_store_copy(store, &fused));
    EXPECT_OK(bg_store_copy(store, &split));
    unsigned long long model = fingerprint(store);
    for (int frame = 0; frame <= 6; frame++) {
        EXPECT_OK(bg_store_restore_model_values(split, animations, store));
        EXPECT_OK(bg_animations_sample(animations, store, frame * 0.125));
        if (frame == 3) {
            EXPECT_OK(bg_animations_get_presentations(animations, store, before, 4, &count));
            EXPECT(bg_animations_sample(animations, store, 0.25), BG_ERROR_INVALID_ARGUMENT, NULL);
            EXPECT_OK(bg_animations_get_presentations(animations, store, after, 4, &count));
            CHECK(count == 2 && memcmp(before, after, sizeof before) == 0);
        }
        EXPECT_OK(bg_store_apply_presentation(split, animations));
        EXPECT_OK(bg_store_update_presentation(fused, animations, store));
        CHECK(fingerprint(fused) == fingerprint(split));
        if (frame >= 1 && frame <= 3) CHECK(fingerprint(fused) != model);
    }
    CHECK(fingerprint(fused) == model);
    /* Once more from a fresh copy at 0.125 s: the conformance case's card position. */
    bg_animations_destroy(animations);
    EXPECT_OK(bg_animations_create(&animations));
    add_case_animations(animations, store, layers);
    bg_store_destroy(fused);
    EXPECT_OK(bg_store_copy(store, &fused));
    EXPECT_OK(bg_animations_sample(animations, store, 0.125));
    EXPECT_OK(bg_store_update_presentation(fused, animations, store));
    EXPECT_OK(bg_layer_get_position(fused, layers[1], position));
    EXPECT_DOUBLES(position, 2, 95.83238184452057, 121.66476368904114);
    bg_store_destroy(split);
    bg_store_destroy(fused);
    bg_animations_destroy(animations);
    bg_store_destroy(store);
}

/* A warmed-up presentation-tree frame loop (restore, sample, read, apply; and the fused
 * update on a second tree) allocates nothing, as the header says of bg_animations_sample and the presentation calls. */
static void test_animation_frame_loop_allocations(void) {
    bg_layer layers[3];
    bg_store *store = animation_scene(layers), *tree = NULL, *fused = NULL;
    bg_animations *animations = NULL;
    bg_animation animation;
    bg_presentation values[4];
    size_t number, count;
    const double from[2] = {70, 70}, to[2] = {270, 470};
    EXPECT_OK(bg_animations_create(&animations));
    EXPECT_OK(bg_animation_init(&animation));
    animation.key_path = "position";
    animation.value_count = 2;
    animation.from_value = from;
    animation.to_value = to;
    animation.timing.repeat_count = INFINITY;
    EXPECT_OK(bg_animations_add(animations, store, layers[1], &animation, &number));
    animation.kind = BG_ANIMATION_SPRING;
    EXPECT_OK(bg_animations_add(animations, store, layers[2], &animation, &number));
    EXPECT_OK(bg_store_copy(store, &tree));
    EXPECT_OK(bg_store_copy(store, &fused));
    int ok = 1;
    long long before = 0;
    for (int frame = 0; frame < 200; frame++) {
        if (frame == 100) before = allocations();
        ok &= bg_store_restore_model_values(tree, animations, store) == BG_OK;
        ok &= bg_animations_sample(animations, store, frame / 60.0) == BG_OK;
        ok &= bg_animations_get_presentations(animations, store, values, 4, &count) == BG_OK && count == 2;
        ok &= bg_store_apply_presentation(tree, animations) == BG_OK;
        ok &= bg_store_update_presentation(fused, animations, store) == BG_OK;
    }
    CHECK(ok);
    if (BG_TEST_COUNTS_ALLOCATIONS) CHECK(allocations() == before);
    CHECK(fingerprint(fused) == fingerprint(tree));
    bg_store_destroy(fused);
    bg_store_destroy(tree);
    bg_animations_destroy(animations);
    bg_store_destroy(store);
}

static void test_animations(void) {
    test_animation_conformance_case();
    test_animation_frame_loop_allocations();
    test_animation_update_presentation();
    test_animation_layer_timing_and_kinds();
    test_animation_bad_input();
    test_animation_deceleration();
    test_animation_deceleration_bad_input();
}
