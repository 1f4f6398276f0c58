/*
 * first_frame.c: what the first frame of a C engine costs, with and without
 * bg_store_warm_up (issue 24). Builds a sprite scene through batchgeometry.h (a window,
 * 1,000 cards of 109 sprites each: 110,001 layers, every card scaled and rotated a
 * little), then times frames: move 100 sprites, bg_store_update_world, the frame query
 * over the window with world rects, and a hit test of 5 touches. The first frame builds
 * the caches (world plan, drawing order, subtree bounds, R-trees) unless
 * bg_store_warm_up ran first. Prints one line per mode: the warm-up's time, the first
 * frame's and the median of the next 20 (milliseconds).
 *
 *   scripts/c-examples.sh --first-frame        (builds it against the release library)
 *
 * usage: first_frame [--warm-up]   (one mode per process, so that nothing is warm)
 */
#define _POSIX_C_SOURCE 200809L
#include "batchgeometry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CARDS = 1000, SPRITES = 109, FRAMES = 21 };

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void check(bg_status status, const char *what) {
    if (status != BG_OK) {
        fprintf(stderr, "%s: %s: %s\n", what, bg_status_name(status), bg_last_error_message());
        exit(1);
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static bg_layer sprites[CARDS * SPRITES];

static bg_store *build(void) {
    bg_store *store;
    bg_layer window, card;
    const double window_frame[4] = {0, 0, 1920, 1080};
    check(bg_store_create(CARDS * (SPRITES + 1) + 1, &store), "create");
    check(bg_layer_add(store, BG_LAYER_NONE, &window), "add window");
    check(bg_layer_set_frame(store, window, window_frame), "window frame");
    for (int c = 0; c < CARDS; c++) {
        const double frame[4] = {(c % 40) * 48.0, (c / 40) * 43.0, 120, 90};
        const double turn[6] = {0.99, 0.05, -0.05, 0.99, 0, 0};
        check(bg_layer_add(store, window, &card), "add card");
        check(bg_layer_set_frame(store, card, frame), "card frame");
        check(bg_layer_set_affine_transform(store, card, turn), "card transform");
        for (int s = 0; s < SPRITES; s++) {
            const double sprite[4] = {(s % 11) * 10.0, (s / 11) * 9.0, 8, 8};
            bg_layer *layer = &sprites[c * SPRITES + s];
            check(bg_layer_add(store, card, layer), "add sprite");
            check(bg_layer_set_frame(store, *layer, sprite), "sprite frame");
        }
    }
    return store;
}

/* One frame of the engine: edits, the world, what to draw, the touches. */
static double frame(bg_store *store, int k, bg_layer *out, double *rects, size_t capacity) {
    const double viewport[4] = {0, 0, 1920, 1080};
    const double touches[10] = {100, 100, 500, 300, 900, 700, 1500, 200, 1800, 1000};
    bg_layer hits[5];
    size_t count = 0;
    double start = now_ms();
    for (int s = 0; s < 100; s++) {
        const double position[2] = {5 + (k + s) % 7, 5 + s % 9};
        check(bg_layer_set_position(store, sprites[(s * 1093 + k) % (CARDS * SPRITES)], position), "position");
    }
    check(bg_store_update_world(store), "update world");
    check(bg_store_frame_query_geometry(store, viewport, out, NULL, rects, NULL, NULL, capacity, &count), "query");
    check(bg_store_hit_test(store, touches, 5, BG_HIT_TEST_LAYER, hits), "hit test");
    return now_ms() - start;
}

int main(int argc, char **argv) {
    const double viewport[4] = {0, 0, 1920, 1080};
    int warm = argc > 1 && strcmp(argv[1], "--warm-up") == 0;
    size_t capacity = CARDS * (SPRITES + 1) + 1;
    bg_layer *out = malloc(capacity * sizeof *out);
    double *rects = malloc(4 * capacity * sizeof *rects);
    double times[FRAMES], warm_up = 0;
    memset(out, 0, capacity * sizeof *out); /* the engine's buffers are not the library's cost */
    memset(rects, 0, 4 * capacity * sizeof *rects);
    bg_store *store = build();
    if (warm) {
        double start = now_ms();
        check(bg_store_warm_up(store, viewport), "warm up");
        warm_up = now_ms() - start;
    }
    for (int k = 0; k < FRAMES; k++) times[k] = frame(store, k, out, rects, capacity);
    qsort(times + 1, FRAMES - 1, sizeof(double), compare);
    printf("%-12s warm-up %6.2f ms   first frame %6.2f ms   next %d: median %5.2f ms\n",
           warm ? "--warm-up" : "no warm-up", warm_up, times[0], FRAMES - 1, times[FRAMES / 2]);
    bg_store_destroy(store);
    free(out);
    free(rects);
    return 0;
}
