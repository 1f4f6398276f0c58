// The shape every per-layer getter and setter of batchgeometry.h shares: check the store,
// the value pointer and the handle (before any Swift accessor runs, since those stop the
// program on a stale handle), then read or write one property.

import BatchGeometry
import CBatchGeometry

/// A getter: `read` writes the property of the live layer `layer` to `out`.
@inline(__always)
func layerGetter<Out>(
    _ function: StaticString, _ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Out>?,
    _ read: (borrowing LayerStore, LayerHandle, UnsafeMutablePointer<Out>) -> Void
) -> Int32 {
    cCall(function) {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        let handle = try box.live(layer)
        read(box.store, handle, out)
    }
}

/// A setter of a value passed by value (a number or a flag).
@inline(__always)
func layerSetter(
    _ function: StaticString, _ store: OpaquePointer?, _ layer: UInt64,
    _ write: (inout LayerStore, LayerHandle) -> Void
) -> Int32 {
    cCall(function) {
        let box = try CStore.from(store)
        let handle = try box.live(layer)
        box.mutate { write(&$0, handle) }
    }
}

/// A setter of a value passed as an array of doubles (`name` is the parameter).
@inline(__always)
func layerSetter(
    _ function: StaticString, _ store: OpaquePointer?, _ layer: UInt64, _ value: UnsafePointer<Double>?,
    _ name: String, _ write: (inout LayerStore, LayerHandle, UnsafePointer<Double>) -> Void
) -> Int32 {
    cCall(function) {
        let box = try CStore.from(store)
        let value = try required(value, name)
        let handle = try box.live(layer)
        box.mutate { write(&$0, handle, value) }
    }
}
