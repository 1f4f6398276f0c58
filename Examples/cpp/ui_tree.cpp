// ui_tree.cpp: BatchGeometry from C++17 through the RAII wrapper batchgeometry.hpp. The
// same UI tree, frames and queries as Examples/c/ui_tree.c, and the same output
// (Examples/expected-output.txt). Errors arrive as bg::Error exceptions.
//
//   swift build -c release --product BatchGeometryC
//   c++ -std=c++17 -I Sources/CBatchGeometry/include -I Examples/cpp Examples/cpp/ui_tree.cpp
//       -L .build/release -lBatchGeometryC -Wl,-rpath,$PWD/.build/release -o ui_tree_cpp
#include "batchgeometry.hpp"

#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

int main() try {
    bg::Store store;
    std::map<bg::Layer, std::string> names;
    auto add = [&](const char *name, bg::Layer superlayer, std::array<double, 4> frame) {
        bg::Layer layer = store.add(superlayer);
        bg::check(bg_layer_set_frame(store.get(), layer, frame.data()));
        names[layer] = name;
        return layer;
    };
    bg::Layer window = add("window", bg::none, {0, 0, 375, 812});
    add("header", window, {0, 0, 375, 100});
    bg::Layer card = add("card", window, {100, 200, 100, 100});
    bg::Layer button = add("button", card, {10, 10, 30, 20});
    bg::Layer list = add("list", window, {0, 450, 375, 300});
    add("row0", list, {0, 0, 375, 50});
    add("row1", list, {0, 720, 375, 50});
    const double scale2[6] = {2, 0, 0, 2, 0, 0}, content[2] = {375, 1000}, scrollTo[2] = {0, 900};
    double offset[2], frame[4];
    bg::check(bg_layer_set_affine_transform(store.get(), card, scale2));
    bg::check(bg_layer_set_masks_to_bounds(store.get(), list, true));
    bg::check(bg_layer_set_scroll_view(store.get(), list, content, nullptr));
    bg::check(bg_layer_scroll(store.get(), list, scrollTo, offset));

    size_t count = 0;
    bg::check(bg_store_layer_count(store.get(), &count));
    std::printf("layers: %zu\n", count);
    bg::check(bg_layer_get_frame(store.get(), card, frame));
    std::printf("card frame: %g %g %g %g\n", frame[0], frame[1], frame[2], frame[3]);
    std::printf("list content offset: %g %g\n", offset[0], offset[1]);

    for (int k = 1; k <= 3; k++) {
        double position[2];
        bg::check(bg_layer_get_position(store.get(), card, position));
        position[0] += 10;
        bg::check(bg_layer_set_position(store.get(), card, position));
        bg::check(bg_store_update_world(store.get()));
        std::vector<double> frames = store.frames(), rects = store.worldRects();
        const double *c = &frames[4 * bg_layer_slot(card)], *b = &rects[4 * bg_layer_slot(button)];
        std::printf("frame %d: card frame %g %g %g %g, button world rect %g %g %g %g\n", k, c[0], c[1], c[2], c[3],
                    b[0], b[1], b[2], b[3]);
    }

    const std::vector<double> points = {110, 180, 90, 160, 10, 10, 10, 480, 10, -230, 10, 800, 400, 10};
    std::vector<bg::Layer> hits = store.hitTest(points);
    for (size_t k = 0; k < hits.size(); k++) {
        std::printf("hit %g %g: %s\n", points[2 * k], points[2 * k + 1],
                    hits[k] == bg::none ? "none" : names[hits[k]].c_str());
    }

    const double origin[2] = {0, 0}, touch[2] = {110, 180};
    double converted[2];
    bg::check(bg_store_convert_points(store.get(), origin, 1, button, bg::none, converted, nullptr));
    std::printf("button 0 0 in world: %g %g\n", converted[0], converted[1]);
    bg::check(bg_store_convert_points(store.get(), touch, 1, bg::none, button, converted, nullptr));
    std::printf("world 110 180 in button: %g %g\n", converted[0], converted[1]);

    std::printf("draw order:");
    for (bg::Layer layer : store.drawOrder()) std::printf(" %s", names[layer].c_str());
    std::printf("\n");

    const double viewport[4] = {0, 0, 375, 812};
    std::unique_ptr<bool[]> visible(new bool[store.slots()]);
    bg::check(bg_store_visibility(store.get(), viewport, visible.get(), store.slots()));
    std::printf("visible:");
    for (const auto &[layer, name] : names) {  // in handle order: the order they were added
        if (visible[bg_layer_slot(layer)]) std::printf(" %s", name.c_str());
    }
    std::printf("\n");

    // Misuse is an exception with the library's message, and the store is unchanged.
    try {
        bg::check(bg_layer_move(store.get(), window, card));
    } catch (const bg::Error &error) {
        if (error.status() != BG_ERROR_CYCLE) return 1;
    }
    return 0;
} catch (const bg::Error &error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
}
