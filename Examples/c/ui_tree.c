/*
 * ui_tree.c: BatchGeometry from C. Builds a small UI tree (a window with a header, a card
 * scaled 2x with a button in it, and a scrolled list that clips its rows), runs three
 * frames that move the card and ask the frame query what to draw, then hit-tests,
 * converts and prints the drawing order and what is visible. scripts/c-examples.sh builds it and compares its output with
 * Examples/expected-output.txt, whose values are worked out by hand there.
 *
 *   swift build -c release --product BatchGeometryC
 *   cc -std=c99 -I Sources/CBatchGeometry/include Examples/c/ui_tree.c \
 *      -L .build/release -lBatchGeometryC -Wl,-rpath,$PWD/.build/release -o ui_tree
 */
#include "batchgeometry.h"

#include <stdio.h>
#include <stdlib.h>

/* Any failure: print the library's one-line message and stop. */
static void check(bg_status status, const char *what) {
    if (status != BG_OK) {
        fprintf(stderr, "%s: %s: %s\n", what, bg_status_name(status), bg_last_error_message());
        exit(1);
    }
}

enum { WINDOW, HEADER, CARD, BUTTON, LIST, ROW0, ROW1, LAYERS };
static const char *names[LAYERS] = {"window", "header", "card", "button", "list", "row0", "row1"};
static bg_layer layers[LAYERS];

static const char *name_of(bg_layer layer) {
    for (int k = 0; k < LAYERS; k++) {
        if (layers[k] == layer) return names[k];
    }
    return "none";
}

static void add(bg_store *store, int k, int superlayer, double x, double y, double w, double h) {
    const double frame[4] = {x, y, w, h};
    check(bg_layer_add(store, superlayer < 0 ? BG_LAYER_NONE : layers[superlayer], &layers[k]), "add");
    check(bg_layer_set_frame(store, layers[k], frame), "frame");
}

int main(void) {
    bg_store *store = NULL;
    check(bg_store_create(LAYERS, &store), "create");
    add(store, WINDOW, -1, 0, 0, 375, 812);
    add(store, HEADER, WINDOW, 0, 0, 375, 100);
    add(store, CARD, WINDOW, 100, 200, 100, 100);
    add(store, BUTTON, CARD, 10, 10, 30, 20);
    add(store, LIST, WINDOW, 0, 450, 375, 300);
    add(store, ROW0, LIST, 0, 0, 375, 50);
    add(store, ROW1, LIST, 0, 50, 375, 50);
    /* The rows are laid out at a pitch of 50; a gap of 670 opens below row 0: the rows from
     * sublayer 1 on move down in one call (the row move of a list after an insert above
     * them), so row1 ends at y 720. */
    const double gap[2] = {0, 670};
    check(bg_layer_offset_positions(store, layers[LIST], 1, 1, gap), "offset positions");
    const double scale2[6] = {2, 0, 0, 2, 0, 0}, content[2] = {375, 1000}, scroll_to[2] = {0, 900};
    double offset[2], frame[4];
    check(bg_layer_set_affine_transform(store, layers[CARD], scale2), "transform");
    check(bg_layer_set_masks_to_bounds(store, layers[LIST], true), "masks");
    check(bg_layer_set_scroll_view(store, layers[LIST], content, NULL), "scroll view");
    check(bg_layer_scroll(store, layers[LIST], scroll_to, offset), "scroll");

    size_t count = 0;
    check(bg_store_layer_count(store, &count), "count");
    printf("layers: %zu\n", count);
    check(bg_layer_get_frame(store, layers[CARD], frame), "card frame");
    printf("card frame: %g %g %g %g\n", frame[0], frame[1], frame[2], frame[3]);
    printf("list content offset: %g %g\n", offset[0], offset[1]);

    /* Three frames: move the card, read the frames in batch (one entry per slot; a layer's
     * entry is at bg_layer_slot(layer)), then ask the frame query what the window shows:
     * the visible layers back to front, each with its world transform, world rect and clip
     * rect (only the rects are asked for here), visiting only what can be on screen. */
    const double window[4] = {0, 0, 375, 812};
    double frames[LAYERS * 4], rects[LAYERS * 4];
    bg_layer drawn[LAYERS];
    for (int k = 1; k <= 3; k++) {
        double position[2];
        check(bg_layer_get_position(store, layers[CARD], position), "position");
        position[0] += 10;
        check(bg_layer_set_position(store, layers[CARD], position), "position");
        check(bg_store_frames(store, frames, LAYERS), "frames");
        check(bg_store_frame_query_geometry(store, window, drawn, NULL, rects, NULL, NULL, LAYERS, &count),
              "frame query");
        const double *card = frames + 4 * bg_layer_slot(layers[CARD]);
        const double *button = NULL;
        for (size_t d = 0; d < count; d++) {
            if (drawn[d] == layers[BUTTON]) button = rects + 4 * d;
        }
        if (button == NULL) {
            fprintf(stderr, "frame %d: the button is not visible\n", k);
            bg_store_destroy(store);
            return 1;
        }
        printf("frame %d: card frame %g %g %g %g, button world rect %g %g %g %g\n", k, card[0], card[1], card[2],
               card[3], button[0], button[1], button[2], button[3]);
    }

    const double points[] = {110, 180, 90, 160, 10, 10, 10, 480, 10, -230, 10, 800, 400, 10};
    bg_layer hits[7];
    check(bg_store_hit_test(store, points, 7, BG_HIT_TEST_LAYER, hits), "hit test");
    for (int k = 0; k < 7; k++) printf("hit %g %g: %s\n", points[2 * k], points[2 * k + 1], name_of(hits[k]));

    const double origin[2] = {0, 0}, touch[2] = {110, 180};
    double converted[2];
    check(bg_store_convert_points(store, origin, 1, layers[BUTTON], BG_LAYER_NONE, converted, NULL), "convert");
    printf("button 0 0 in world: %g %g\n", converted[0], converted[1]);
    check(bg_store_convert_points(store, touch, 1, BG_LAYER_NONE, layers[BUTTON], converted, NULL), "convert");
    printf("world 110 180 in button: %g %g\n", converted[0], converted[1]);

    bg_layer order[LAYERS];
    check(bg_store_draw_order(store, order, LAYERS, &count), "draw order");
    printf("draw order:");
    for (size_t k = 0; k < count; k++) printf(" %s", name_of(order[k]));
    printf("\n");

    bool visible[LAYERS];
    check(bg_store_visibility(store, window, visible, LAYERS), "visibility");
    printf("visible:");
    for (int k = 0; k < LAYERS; k++) {
        if (visible[bg_layer_slot(layers[k])]) printf(" %s", names[k]);
    }
    printf("\n");
    bg_store_destroy(store);
    return 0;
}
