// batchgeometry.hpp: a small C++17 RAII wrapper over batchgeometry.h. A bg::Store owns a
// bg_store (move-only; copy() makes an independent copy), every failing call throws
// bg::Error with the library's status and one-line message, and batch results come back as
// std::vector. Only what Examples/cpp/ui_tree.cpp uses; the rest of the C API is one
// `bg::check(bg_...(store.get(), ...))` away.
#pragma once

#include "batchgeometry.h"

#include <stdexcept>
#include <utility>
#include <vector>

namespace bg {

using Layer = bg_layer;
constexpr Layer none = BG_LAYER_NONE;

// A failed call: status() is the bg_status, what() the library's message.
class Error : public std::runtime_error {
  public:
    Error(bg_status status, const char *message) : std::runtime_error(message), status_(status) {}
    bg_status status() const noexcept { return status_; }

  private:
    bg_status status_;
};

inline void check(bg_status status) {
    if (status != BG_OK) throw Error(status, bg_last_error_message());
}

class Store {
  public:
    explicit Store(size_t capacity = 0) { check(bg_store_create(capacity, &store_)); }
    ~Store() { bg_store_destroy(store_); }
    Store(Store &&other) noexcept : store_(std::exchange(other.store_, nullptr)) {}
    Store &operator=(Store &&other) noexcept {
        std::swap(store_, other.store_);
        return *this;
    }
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;
    Store copy() const {
        bg_store *copied = nullptr;
        check(bg_store_copy(store_, &copied));
        return Store(copied);
    }
    bg_store *get() const noexcept { return store_; }

    Layer add(Layer superlayer = none) {
        Layer layer = none;
        check(bg_layer_add(store_, superlayer, &layer));
        return layer;
    }
    size_t slots() const {
        size_t count = 0;
        check(bg_store_slot_count(store_, &count));
        return count;
    }
    // Per-slot batches: 4 doubles per slot (frames: x y w h; world rects: edges).
    std::vector<double> frames() { return perSlot(4, bg_store_frames); }
    std::vector<double> worldRects() { return perSlot(4, bg_store_world_rects); }
    // One layer (or bg::none) per point; `points` holds x, y pairs.
    std::vector<Layer> hitTest(const std::vector<double> &points, int32_t rule = BG_HIT_TEST_LAYER) {
        std::vector<Layer> hits(points.size() / 2);
        check(bg_store_hit_test(store_, points.data(), hits.size(), rule, hits.data()));
        return hits;
    }
    std::vector<Layer> drawOrder() const {
        size_t count = 0;
        bg_status status = bg_store_draw_order(store_, nullptr, 0, &count);
        if (status != BG_ERROR_BUFFER_TOO_SMALL) check(status);
        std::vector<Layer> order(count);
        check(bg_store_draw_order(store_, order.data(), order.size(), &count));
        return order;
    }

  private:
    explicit Store(bg_store *store) : store_(store) {}
    template <typename Call> std::vector<double> perSlot(size_t stride, Call call) {
        std::vector<double> result(stride * slots());
        check(call(store_, result.data(), result.size() / stride));
        return result;
    }
    bg_store *store_ = nullptr;
};

} // namespace bg
