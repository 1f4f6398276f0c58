// batchgeometry.h, "Structure": adding, inserting, moving, detaching and destroying
// layers, and reading the hierarchy. Structure edits run the Swift calls directly: they
// throw `LayerStoreError` (stale handles included) and leave the store unchanged.

import BatchGeometry
import CBatchGeometry

/// `BG_LAYER_NONE` as nil, any other value as a handle (checked by the Swift call).
@inline(__always)
private func optionalHandle(_ raw: UInt64) -> LayerHandle? {
    raw == noLayer ? nil : LayerHandle(rawValue: raw)
}

/// `bg_layer_add`: `addLayer(superlayer:)`.
@_cdecl("bg_layer_add")
public func bgLayerAdd(_ store: OpaquePointer?, _ superlayer: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    cCall("bg_layer_add") {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        out.pointee = try box.mutate { try $0.addLayer(superlayer: optionalHandle(superlayer)) }.rawValue
    }
}

/// `bg_layer_insert`: `insertSublayer(_:into:at:)` at an index.
/// `bg_layer_add_at`: `addLayer(superlayer:at:)`.
@_cdecl("bg_layer_add_at")
public func bgLayerAddAt(
    _ store: OpaquePointer?, _ superlayer: UInt64, _ index: Int64, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    cCall("bg_layer_add_at") {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        out.pointee = try box.mutate {
            try $0.addLayer(superlayer: optionalHandle(superlayer), at: Int(clamping: index))
        }.rawValue
    }
}

@_cdecl("bg_layer_insert")
public func bgLayerInsert(_ store: OpaquePointer?, _ layer: UInt64, _ superlayer: UInt64, _ index: Int64) -> Int32 {
    cCall("bg_layer_insert") {
        let box = try CStore.from(store)
        try box.mutate {
            try $0.insertSublayer(
                LayerHandle(rawValue: layer), into: optionalHandle(superlayer), at: Int(clamping: index))
        }
    }
}

/// `bg_layer_move`: `insertSublayer(_:into:at: nil)`, to the end.
@_cdecl("bg_layer_move")
public func bgLayerMove(_ store: OpaquePointer?, _ layer: UInt64, _ superlayer: UInt64) -> Int32 {
    cCall("bg_layer_move") {
        let box = try CStore.from(store)
        try box.mutate { try $0.insertSublayer(LayerHandle(rawValue: layer), into: optionalHandle(superlayer)) }
    }
}

/// `bg_layer_detach`: `removeFromSuperlayer(_:)`.
@_cdecl("bg_layer_detach")
public func bgLayerDetach(_ store: OpaquePointer?, _ layer: UInt64) -> Int32 {
    cCall("bg_layer_detach") {
        let box = try CStore.from(store)
        try box.mutate { try $0.removeFromSuperlayer(LayerHandle(rawValue: layer)) }
    }
}

/// `bg_layer_destroy`: `destroyLayer(_:)`.
@_cdecl("bg_layer_destroy")
public func bgLayerDestroy(_ store: OpaquePointer?, _ layer: UInt64, _ destroyed: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall("bg_layer_destroy") {
        let box = try CStore.from(store)
        let count = try box.mutate { try $0.destroyLayer(LayerHandle(rawValue: layer)) }
        destroyed?.pointee = count
    }
}

/// `bg_layer_is_detached`: `isDetached(_:)`.
@_cdecl("bg_layer_is_detached")
public func bgLayerIsDetached(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    cCall("bg_layer_is_detached") {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        out.pointee = box.store.isDetached(try box.live(layer))
    }
}

/// `bg_layer_get_superlayer`: `superlayer(of:)`, `BG_LAYER_NONE` for nil.
@_cdecl("bg_layer_get_superlayer")
public func bgLayerGetSuperlayer(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<UInt64>?)
    -> Int32
{
    cCall("bg_layer_get_superlayer") {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        out.pointee = box.store.superlayer(of: try box.live(layer))?.rawValue ?? noLayer
    }
}

/// `bg_layer_get_sublayers`: `sublayers(of:)`.
@_cdecl("bg_layer_get_sublayers")
public func bgLayerGetSublayers(
    _ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<UInt64>?, _ capacity: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_layer_get_sublayers") {
        let box = try CStore.from(store)
        let handle = try box.live(layer)
        try writeHandles(box.store.sublayers(of: handle), to: out, capacity: capacity, count: count)
    }
}

/// `bg_store_roots`: `roots`.
@_cdecl("bg_store_roots")
public func bgStoreRoots(
    _ store: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?, _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_store_roots") {
        let box = try CStore.from(store)
        try writeHandles(box.store.roots, to: out, capacity: capacity, count: count)
    }
}

/// `bg_store_preorder`: `preorder()`.
@_cdecl("bg_store_preorder")
public func bgStorePreorder(
    _ store: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?, _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_store_preorder") {
        let box = try CStore.from(store)
        try writeHandles(box.store.preorder(), to: out, capacity: capacity, count: count)
    }
}
