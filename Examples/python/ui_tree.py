#!/usr/bin/env python3
"""BatchGeometry from Python through ctypes: loads the shared library (the SwiftPM product
BatchGeometryC), builds the UI tree of Examples/c/ui_tree.c and prints the same output
(Examples/expected-output.txt).

    swift build -c release --product BatchGeometryC
    python3 Examples/python/ui_tree.py .build/release/libBatchGeometryC.so
"""
import ctypes
import sys
from ctypes import POINTER, byref, c_bool, c_char_p, c_double, c_int32, c_size_t, c_uint32, c_uint64, c_void_p

LAYER_NONE = 0xFFFFFFFFFFFFFFFF  # BG_LAYER_NONE
HIT_TEST_LAYER = 0  # BG_HIT_TEST_LAYER
Doubles = POINTER(c_double)

lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "libBatchGeometryC.so")
# Every function used, with the types batchgeometry.h declares.
SIGNATURES = {
    "bg_abi_version": (c_uint32, []),
    "bg_last_error_message": (c_char_p, []),
    "bg_status_name": (c_char_p, [c_int32]),
    "bg_store_create": (c_int32, [c_size_t, POINTER(c_void_p)]),
    "bg_store_destroy": (None, [c_void_p]),
    "bg_store_layer_count": (c_int32, [c_void_p, POINTER(c_size_t)]),
    "bg_layer_add": (c_int32, [c_void_p, c_uint64, POINTER(c_uint64)]),
    "bg_layer_set_frame": (c_int32, [c_void_p, c_uint64, Doubles]),
    "bg_layer_get_frame": (c_int32, [c_void_p, c_uint64, Doubles]),
    "bg_layer_get_position": (c_int32, [c_void_p, c_uint64, Doubles]),
    "bg_layer_set_position": (c_int32, [c_void_p, c_uint64, Doubles]),
    "bg_layer_set_affine_transform": (c_int32, [c_void_p, c_uint64, Doubles]),
    "bg_layer_set_masks_to_bounds": (c_int32, [c_void_p, c_uint64, c_bool]),
    "bg_layer_set_scroll_view": (c_int32, [c_void_p, c_uint64, Doubles, Doubles]),
    "bg_layer_scroll": (c_int32, [c_void_p, c_uint64, Doubles, Doubles]),
    "bg_store_update_world": (c_int32, [c_void_p]),
    "bg_store_frames": (c_int32, [c_void_p, Doubles, c_size_t]),
    "bg_store_world_rects": (c_int32, [c_void_p, Doubles, c_size_t]),
    "bg_store_hit_test": (c_int32, [c_void_p, Doubles, c_size_t, c_int32, POINTER(c_uint64)]),
    "bg_store_convert_points": (c_int32, [c_void_p, Doubles, c_size_t, c_uint64, c_uint64, Doubles, POINTER(c_bool)]),
    "bg_store_draw_order": (c_int32, [c_void_p, POINTER(c_uint64), c_size_t, POINTER(c_size_t)]),
    "bg_store_visibility": (c_int32, [c_void_p, Doubles, POINTER(c_bool), c_size_t]),
}
for name, (restype, argtypes) in SIGNATURES.items():
    function = getattr(lib, name)
    function.restype, function.argtypes = restype, argtypes


class BatchGeometryError(Exception):
    pass


def check(status):
    if status != 0:
        raise BatchGeometryError(f"{lib.bg_status_name(status).decode()}: {lib.bg_last_error_message().decode()}")


def doubles(*values):
    return (c_double * len(values))(*values)


def slot(layer):
    return layer & 0xFFFFFFFF  # bg_layer_slot


def main():
    assert lib.bg_abi_version() == 2, "this example was written for BG_ABI_VERSION 2"
    store = c_void_p()
    check(lib.bg_store_create(7, byref(store)))
    names = {}

    def add(name, superlayer, *frame):
        layer = c_uint64()
        check(lib.bg_layer_add(store, superlayer, byref(layer)))
        check(lib.bg_layer_set_frame(store, layer.value, doubles(*frame)))
        names[layer.value] = name
        return layer.value

    try:
        window = add("window", LAYER_NONE, 0, 0, 375, 812)
        add("header", window, 0, 0, 375, 100)
        card = add("card", window, 100, 200, 100, 100)
        button = add("button", card, 10, 10, 30, 20)
        scroller = add("list", window, 0, 450, 375, 300)
        add("row0", scroller, 0, 0, 375, 50)
        add("row1", scroller, 0, 720, 375, 50)
        offset, frame = doubles(0, 0), doubles(0, 0, 0, 0)
        check(lib.bg_layer_set_affine_transform(store, card, doubles(2, 0, 0, 2, 0, 0)))
        check(lib.bg_layer_set_masks_to_bounds(store, scroller, True))
        check(lib.bg_layer_set_scroll_view(store, scroller, doubles(375, 1000), None))
        check(lib.bg_layer_scroll(store, scroller, doubles(0, 900), offset))

        count = c_size_t()
        check(lib.bg_store_layer_count(store, byref(count)))
        print(f"layers: {count.value}")
        check(lib.bg_layer_get_frame(store, card, frame))
        print("card frame: %g %g %g %g" % tuple(frame))
        print("list content offset: %g %g" % tuple(offset))

        frames, rects = (c_double * 28)(), (c_double * 28)()
        for k in range(1, 4):
            position = doubles(0, 0)
            check(lib.bg_layer_get_position(store, card, position))
            position[0] += 10
            check(lib.bg_layer_set_position(store, card, position))
            check(lib.bg_store_update_world(store))
            check(lib.bg_store_frames(store, frames, 7))
            check(lib.bg_store_world_rects(store, rects, 7))
            c, b = 4 * slot(card), 4 * slot(button)
            print("frame %d: card frame %g %g %g %g, button world rect %g %g %g %g"
                  % ((k,) + tuple(frames[c:c + 4]) + tuple(rects[b:b + 4])))

        points = [110, 180, 90, 160, 10, 10, 10, 480, 10, -230, 10, 800, 400, 10]
        hits = (c_uint64 * 7)()
        check(lib.bg_store_hit_test(store, doubles(*points), 7, HIT_TEST_LAYER, hits))
        for k, hit in enumerate(hits):
            print("hit %g %g: %s" % (points[2 * k], points[2 * k + 1], names.get(hit, "none")))

        converted = doubles(0, 0)
        check(lib.bg_store_convert_points(store, doubles(0, 0), 1, button, LAYER_NONE, converted, None))
        print("button 0 0 in world: %g %g" % tuple(converted))
        check(lib.bg_store_convert_points(store, doubles(110, 180), 1, LAYER_NONE, button, converted, None))
        print("world 110 180 in button: %g %g" % tuple(converted))

        order = (c_uint64 * 7)()
        check(lib.bg_store_draw_order(store, order, 7, byref(count)))
        print("draw order: " + " ".join(names[layer] for layer in order[:count.value]))

        visible = (c_bool * 7)()
        check(lib.bg_store_visibility(store, doubles(0, 0, 375, 812), visible, 7))
        print("visible: " + " ".join(name for layer, name in names.items() if visible[slot(layer)]))
    finally:
        lib.bg_store_destroy(store)


if __name__ == "__main__":
    main()
