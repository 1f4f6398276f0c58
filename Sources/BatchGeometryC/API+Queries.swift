// batchgeometry.h, "Hit testing and conversion", "Drawing order" (with the frame query)
// and the projected quad.

import BatchGeometry
import CBatchGeometry

/// `bg_store_hit_test`: `hitTest(points:rule:into:)`, the culled walk (the answers of
/// `hitTest(points:in:rule:options:)`), `pointChunk` points at a time.
@_cdecl("bg_store_hit_test")
public func bgStoreHitTest(
    _ store: OpaquePointer?, _ points: UnsafePointer<Double>?, _ count: Int, _ rule: Int32,
    _ hits: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    cCall("bg_store_hit_test") {
        let box = try CStore.from(store)
        let count = try pointCount(count)
        let rule = try hitTestRule(rule)
        guard count > 0 else { return }
        let input = try required(points, "points")
        let hits = try required(hits, "hits")
        for start in stride(from: 0, to: count, by: pointChunk) {
            let chunk = box.points(input + 2 * start, count: min(pointChunk, count - start))
            for (k, hit) in box.hitTest(chunk, rule: rule).enumerated() { hits[start + k] = hit?.rawValue ?? noLayer }
        }
    }
}

/// `bg_store_convert_points`: `convert(points:from:to:in:options:)`, `pointChunk` points
/// at a time; nil as NaN.
@_cdecl("bg_store_convert_points")
public func bgStoreConvertPoints(
    _ store: OpaquePointer?, _ points: UnsafePointer<Double>?, _ count: Int, _ from: UInt64, _ to: UInt64,
    _ out: UnsafeMutablePointer<Double>?, _ converted: UnsafeMutablePointer<Bool>?
) -> Int32 {
    cCall("bg_store_convert_points") {
        let box = try CStore.from(store)
        let count = try pointCount(count)
        if count > 0 && (points == nil || out == nil) { throw CFailure.null(points == nil ? "points" : "out") }
        let source = try box.liveOrNone(from)
        let destination = try box.liveOrNone(to)
        guard let points, let out else { return }
        // Each chunk is copied in before its results are written, so `out` may be `points`.
        for start in stride(from: 0, to: count, by: pointChunk) {
            let chunk = box.points(points + 2 * start, count: min(pointChunk, count - start))
            for (k, point) in box.convert(chunk, from: source, to: destination).enumerated() {
                (point ?? Point(x: .nan, y: .nan)).write(to: out + 2 * (start + k))
                converted?[start + k] = point != nil
            }
        }
    }
}

/// `bg_store_convert_rect`: `convert(_:from:to:in:)` for a rect; nil as NaN.
@_cdecl("bg_store_convert_rect")
public func bgStoreConvertRect(
    _ store: OpaquePointer?, _ rect: UnsafePointer<Double>?, _ from: UInt64, _ to: UInt64,
    _ out: UnsafeMutablePointer<Double>?, _ converted: UnsafeMutablePointer<Bool>?
) -> Int32 {
    cCall("bg_store_convert_rect") {
        let box = try CStore.from(store)
        let rect = Rect(c: try required(rect, "rect"))
        let (out, converted) = (try required(out, "out"), try required(converted, "converted"))
        let source = try box.liveOrNone(from)
        let destination = try box.liveOrNone(to)
        let result = box.store.convert(rect, from: source, to: destination, in: box.currentWorld())
        (result ?? Rect(x: .nan, y: .nan, width: .nan, height: .nan)).write(to: out)
        converted.pointee = result != nil
    }
}

/// `bg_layer_point_from_world`: `pointInLayer(_:fromWorld:in:)`; nil as NaN.
@_cdecl("bg_layer_point_from_world")
public func bgLayerPointFromWorld(
    _ store: OpaquePointer?, _ layer: UInt64, _ point: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<Double>?,
    _ converted: UnsafeMutablePointer<Bool>?
) -> Int32 {
    cCall("bg_layer_point_from_world") {
        let box = try CStore.from(store)
        let point = Point(c: try required(point, "point"))
        let (out, converted) = (try required(out, "out"), try required(converted, "converted"))
        let handle = try box.live(layer)
        let result = box.store.pointInLayer(handle, fromWorld: point, in: box.currentWorld())
        (result ?? Point(x: .nan, y: .nan)).write(to: out)
        converted.pointee = result != nil
    }
}

/// `bg_layer_get_projected_quad`: `projectedQuad(of:in:nearW:)`.
@_cdecl("bg_layer_get_projected_quad")
public func bgLayerGetProjectedQuad(
    _ store: OpaquePointer?, _ layer: UInt64, _ nearW: Double, _ out: UnsafeMutablePointer<Double>?, _ capacity: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_layer_get_projected_quad") {
        let box = try CStore.from(store)
        let count = try required(count, "count")
        if capacity != 0 && out == nil { throw CFailure.null("out") }
        let handle = try box.live(layer)
        let quad = box.store.projectedQuad(of: handle, in: box.currentWorld(), nearW: nearW)
        if sizeArgument(capacity) < quad.count {
            count.pointee = quad.count
            try checkCapacity(capacity, needed: quad.count)
        }
        for (k, point) in quad.enumerated() { point.write(to: out! + 2 * k) }
        count.pointee = quad.count
    }
}

/// `bg_store_draw_order`: `drawOrder()`.
@_cdecl("bg_store_draw_order")
public func bgStoreDrawOrder(
    _ store: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?, _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_store_draw_order") {
        let box = try CStore.from(store)
        try writeHandles(box.drawOrder(), to: out, capacity: capacity, count: count)
    }
}

/// `bg_store_frame_query`: `visibleLayers(in:into:)`, the layers only.
@_cdecl("bg_store_frame_query")
public func bgStoreFrameQuery(
    _ store: OpaquePointer?, _ viewport: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<UInt64>?,
    _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_store_frame_query") {
        try frameQuery(store, viewport, FrameQueryOutputs(layers: out), capacity: capacity, count: count)
    }
}

/// `bg_store_frame_query_geometry`: `visibleLayers(in:into:)`, with each layer's world
/// transform, world rect and clip rect where asked for.
@_cdecl("bg_store_frame_query_geometry")
public func bgStoreFrameQueryGeometry(
    _ store: OpaquePointer?, _ viewport: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<UInt64>?,
    _ worldTransforms: UnsafeMutablePointer<Double>?, _ worldRects: UnsafeMutablePointer<Double>?,
    _ clipRects: UnsafeMutablePointer<Double>?, _ masked: UnsafeMutablePointer<Bool>?, _ capacity: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_store_frame_query_geometry") {
        let outputs = FrameQueryOutputs(
            layers: out, worldTransforms: worldTransforms, worldRects: worldRects, clipRects: clipRects,
            masked: masked)
        try frameQuery(store, viewport, outputs, capacity: capacity, count: count)
    }
}

/// `bg_store_get_frame_query_cost`: the cost counters of the last successful frame query.
@_cdecl("bg_store_get_frame_query_cost")
public func bgStoreGetFrameQueryCost(
    _ store: OpaquePointer?, _ visited: UnsafeMutablePointer<Int>?, _ tested: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_store_get_frame_query_cost") {
        let box = try CStore.from(store)
        visited?.pointee = box.frameQueryCost.visited
        tested?.pointee = box.frameQueryCost.tested
    }
}

/// The caller's buffers of a frame query: the handles (NULL only when the capacity is 0)
/// and the optional per-layer outputs.
struct FrameQueryOutputs {
    var layers: UnsafeMutablePointer<bg_layer>?
    var worldTransforms: UnsafeMutablePointer<Double>? = nil
    var worldRects: UnsafeMutablePointer<Double>? = nil
    var clipRects: UnsafeMutablePointer<Double>? = nil
    var masked: UnsafeMutablePointer<Bool>? = nil
    var worldOpacities: UnsafeMutablePointer<Double>? = nil

    /// Writes entry k of each wanted output for `result`'s layer k; the buffers hold
    /// `result.count` entries. A clip of nil (no masking ancestor) is the infinite rect,
    /// with `masked` false, as `bg_store_clip_rects` writes it.
    func write(_ result: VisibleLayers) {
        for k in 0..<result.count {
            layers![k] = result.layers[k].rawValue
            if let worldTransforms { result.worldTransforms[k].write(to: worldTransforms + 16 * k) }
            if let worldRects { result.worldRects[k].write(to: worldRects + 4 * k) }
            let clip = result.clipRects[k]
            if let clipRects { (clip ?? .unclipped).write(to: clipRects + 4 * k) }
            masked?[k] = clip != nil
            worldOpacities?[k] = result.worldOpacities[k]
        }
    }
}

/// The frame query behind both C functions: checks the arguments, runs the query into
/// the store's kept result, and writes it with `bg_store_draw_order`'s buffer rules (a
/// too-small buffer gets nothing but `*count`, the layers needed). Then, and only on
/// success, records the query's cost.
func frameQuery(
    _ store: OpaquePointer?, _ viewport: UnsafePointer<Double>?, _ outputs: FrameQueryOutputs, capacity: Int,
    count: UnsafeMutablePointer<Int>?
) throws(CFailure) {
    let box = try CStore.from(store)
    let viewport = Rect(c: try required(viewport, "viewport"))
    let count = try required(count, "count")
    if capacity != 0 && outputs.layers == nil { throw CFailure.null("out") }
    let result = box.visibleLayers(in: viewport)
    if sizeArgument(capacity) < result.count {
        count.pointee = result.count
        try checkCapacity(capacity, needed: result.count)
    }
    outputs.write(result)
    count.pointee = result.count
    box.frameQueryCost = (result.visitedLayerCount, result.testedSublayerCount)
}
