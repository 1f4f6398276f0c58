// batchgeometry.h, "Batches": frames, world transforms, world rects, clip rects and
// visibility into caller buffers. Each computes (or reuses) the Swift result through a
// `CStore` helper, checks the caller's buffer, then copies: nothing is written on error.

import BatchGeometry
import CBatchGeometry

/// `bg_store_frames`: `computeFrames(into:options:)`, copied as `{x, y, width, height}` per slot.
@_cdecl("bg_store_frames")
public func bgStoreFrames(_ store: OpaquePointer?, _ frames: UnsafeMutablePointer<Double>?, _ capacity: Int) -> Int32 {
    cCall("bg_store_frames") {
        let box = try CStore.from(store)
        let count = box.store.count
        if count > 0 && frames == nil { throw CFailure.null("frames") }
        try checkCapacity(capacity, needed: count)
        guard let frames else { return }
        box.computeFrames()
        copyFrames(box.frames, to: frames)
    }
}

/// Interleaves the four frame columns into `out`, 4 doubles per layer.
private func copyFrames(_ frames: FrameColumns, to out: UnsafeMutablePointer<Double>) {
    frames.x.withUnsafeBufferPointer { x in
        frames.y.withUnsafeBufferPointer { y in
            frames.width.withUnsafeBufferPointer { width in
                frames.height.withUnsafeBufferPointer { height in
                    for i in 0..<x.count {
                        out[4 * i] = x[i]
                        out[4 * i + 1] = y[i]
                        out[4 * i + 2] = width[i]
                        out[4 * i + 3] = height[i]
                    }
                }
            }
        }
    }
}

/// `bg_store_frames_columns`: `computeFrames(into:options:)`, the kept columns lent out.
@_cdecl("bg_store_frames_columns")
public func bgStoreFramesColumns(
    _ store: OpaquePointer?, _ x: UnsafeMutablePointer<UnsafePointer<Double>?>?,
    _ y: UnsafeMutablePointer<UnsafePointer<Double>?>?, _ width: UnsafeMutablePointer<UnsafePointer<Double>?>?,
    _ height: UnsafeMutablePointer<UnsafePointer<Double>?>?, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_store_frames_columns") {
        let box = try CStore.from(store)
        let outputs = (try required(x, "x"), try required(y, "y"), try required(width, "width"))
        let (heightOut, countOut) = (try required(height, "height"), try required(count, "count"))
        box.computeFrames()
        // The columns' storage belongs to `box.frames`, which nothing else references:
        // it stays where it is until the next frames call recomputes into it (or resizes
        // it, when the slot count changed) or the store is destroyed, as the header says.
        outputs.0.pointee = box.frames.x.withUnsafeBufferPointer { $0.baseAddress }
        outputs.1.pointee = box.frames.y.withUnsafeBufferPointer { $0.baseAddress }
        outputs.2.pointee = box.frames.width.withUnsafeBufferPointer { $0.baseAddress }
        heightOut.pointee = box.frames.height.withUnsafeBufferPointer { $0.baseAddress }
        countOut.pointee = box.frames.count
    }
}

/// `bg_store_update_world`: `updateWorld(options:)`, incremental.
@_cdecl("bg_store_update_world")
public func bgStoreUpdateWorld(_ store: OpaquePointer?) -> Int32 {
    cCall("bg_store_update_world") { try CStore.from(store).updateWorld() }
}

/// `bg_store_invalidate_world`: `invalidateWorld()`.
@_cdecl("bg_store_invalidate_world")
public func bgStoreInvalidateWorld(_ store: OpaquePointer?) -> Int32 {
    cCall("bg_store_invalidate_world") { try CStore.from(store).invalidateWorld() }
}

/// `bg_store_warm_up`: `warmUp(options:)`, then the frame query over `viewport` if any.
@_cdecl("bg_store_warm_up")
public func bgStoreWarmUp(_ store: OpaquePointer?, _ viewport: UnsafePointer<Double>?) -> Int32 {
    cCall("bg_store_warm_up") { try CStore.from(store).warmUp(viewport: viewport.map { Rect(c: $0) }) }
}

/// `bg_store_compute_world`: `computeWorldTransforms(into:options:)` into the kept storage.
@_cdecl("bg_store_compute_world")
public func bgStoreComputeWorld(_ store: OpaquePointer?) -> Int32 {
    cCall("bg_store_compute_world") { try CStore.from(store).computeWorld() }
}

/// `bg_store_world_transforms`: the current world, 16 doubles per slot.
@_cdecl("bg_store_world_transforms")
public func bgStoreWorldTransforms(
    _ store: OpaquePointer?, _ transforms: UnsafeMutablePointer<Double>?, _ capacity: Int
)
    -> Int32
{
    cCall("bg_store_world_transforms") {
        let box = try CStore.from(store)
        let count = box.store.count
        if count > 0 && transforms == nil { throw CFailure.null("transforms") }
        try checkCapacity(capacity, needed: count)
        guard let transforms else { return }
        let world = box.currentWorld()
        for slot in 0..<count { world[slot].write(to: transforms + 16 * slot) }
    }
}

/// `bg_store_world_affine_transforms`: the affine part of the current world, 6 doubles per slot.
@_cdecl("bg_store_world_affine_transforms")
public func bgStoreWorldAffineTransforms(
    _ store: OpaquePointer?, _ affine: UnsafeMutablePointer<Double>?, _ exact: UnsafeMutablePointer<Bool>?,
    _ capacity: Int
) -> Int32 {
    cCall("bg_store_world_affine_transforms") {
        let box = try CStore.from(store)
        let count = box.store.count
        if count > 0 && affine == nil { throw CFailure.null("affine") }
        try checkCapacity(capacity, needed: count)
        guard let affine else { return }
        let world = box.currentWorld()
        for slot in 0..<count {
            let matrix = world[slot]
            matrix.affinePart.write(to: affine + 6 * slot)
            // A point (x, y, 0, 1) has W = x*m14 + y*m24 + m44: 1 everywhere only then.
            exact?[slot] = matrix.m14 == 0 && matrix.m24 == 0 && matrix.m44 == 1
        }
    }
}

/// `bg_layer_get_world_transform`: `ToWorld` of one layer from the current world.
@_cdecl("bg_layer_get_world_transform")
public func bgLayerGetWorldTransform(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    cCall("bg_layer_get_world_transform") {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        let handle = try box.live(layer)
        box.currentWorld()[handle].write(to: out)
    }
}

/// `bg_store_world_rects`: `worldRects(in:options:)` as edges.
@_cdecl("bg_store_world_rects")
public func bgStoreWorldRects(_ store: OpaquePointer?, _ edges: UnsafeMutablePointer<Double>?, _ capacity: Int) -> Int32
{
    cCall("bg_store_world_rects") {
        let box = try CStore.from(store)
        let count = box.store.count
        if count > 0 && edges == nil { throw CFailure.null("edges") }
        try checkCapacity(capacity, needed: count)
        guard let edges else { return }
        for (slot, rect) in box.worldRects().enumerated() { rect.write(to: edges + 4 * slot) }
    }
}

/// `bg_layer_get_world_rect`: `worldRect(of:in:)` as edges.
@_cdecl("bg_layer_get_world_rect")
public func bgLayerGetWorldRect(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    cCall("bg_layer_get_world_rect") {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        let handle = try box.live(layer)
        box.store.worldRect(of: handle, in: box.currentWorld()).write(to: out)
    }
}

/// `bg_store_clip_rects`: `clipRects(worldRects:options:)`; nil (no masking ancestor) as
/// the infinite rect with `masked` false.
@_cdecl("bg_store_clip_rects")
public func bgStoreClipRects(
    _ store: OpaquePointer?, _ edges: UnsafeMutablePointer<Double>?, _ masked: UnsafeMutablePointer<Bool>?,
    _ capacity: Int
) -> Int32 {
    cCall("bg_store_clip_rects") {
        let box = try CStore.from(store)
        let count = box.store.count
        if count > 0 && edges == nil { throw CFailure.null("edges") }
        try checkCapacity(capacity, needed: count)
        guard let edges else { return }
        for (slot, clip) in box.clipRects().enumerated() {
            (clip ?? .unclipped).write(to: edges + 4 * slot)
            masked?[slot] = clip != nil
        }
    }
}

/// `bg_store_visibility`: `visibility(worldRects:clipRects:viewport:options:)`.
@_cdecl("bg_store_visibility")
public func bgStoreVisibility(
    _ store: OpaquePointer?, _ viewport: UnsafePointer<Double>?, _ visible: UnsafeMutablePointer<Bool>?,
    _ capacity: Int
) -> Int32 {
    cCall("bg_store_visibility") {
        let box = try CStore.from(store)
        let count = box.store.count
        if count > 0 && visible == nil { throw CFailure.null("visible") }
        try checkCapacity(capacity, needed: count)
        guard let visible else { return }
        let result = box.visibility(viewport: viewport.map { Rect(c: $0) })
        for slot in 0..<count { visible[slot] = result[slot] }
    }
}
