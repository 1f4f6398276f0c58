// batchgeometry.h, "Curves": UIScrollView's deceleration and rubber band
// (docs/ANIMATION.md section 11), from numbers or from a scroll view of a store.

import BatchGeometry
import CBatchGeometry

/// `bg_deceleration_make`: `ScrollDeceleration(offset:velocity:rate:displayScale:scrollRange:)`.
@_cdecl("bg_deceleration_make")
public func bgDecelerationMake(
    _ offset: UnsafePointer<Double>?, _ velocity: UnsafePointer<Double>?, _ rate: Double, _ displayScale: Double,
    _ scrollRange: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<bg_deceleration>?
) -> Int32 {
    cCall("bg_deceleration_make") {
        let offset = Point(c: try required(offset, "offset"))
        let velocity = Point(c: try required(velocity, "velocity"))
        let out = try required(out, "out")
        let range = scrollRange.map { ($0[0], $0[1], $0[2], $0[3]) } ?? unboundedScrollRange
        try ScrollDeceleration.check(
            offset: offset, velocity: velocity, rate: rate, displayScale: displayScale, range: range, field: { $0 })
        out.pointee = bg_deceleration(
            ScrollDeceleration(offset: offset, velocity: velocity, rate: rate, displayScale: displayScale, range: range)
        )
    }
}

/// `bg_layer_decelerate`: `deceleration(of:velocity:rate:)`.
@_cdecl("bg_layer_decelerate")
public func bgLayerDecelerate(
    _ store: OpaquePointer?, _ layer: UInt64, _ velocity: UnsafePointer<Double>?, _ rate: Double,
    _ out: UnsafeMutablePointer<bg_deceleration>?
) -> Int32 {
    cCall("bg_layer_decelerate") {
        let box = try CStore.from(store)
        let velocity = Point(c: try required(velocity, "velocity"))
        let out = try required(out, "out")
        let handle = try box.live(layer)
        guard box.store.scrollView(of: handle) != nil else { throw LayerStoreError.notAScrollView(layer: handle) }
        guard velocity.x.isFinite && velocity.y.isFinite else {
            throw CFailure.invalid("velocity must be finite, got {\(velocity.x), \(velocity.y)}")
        }
        guard !rate.isNaN else { throw CFailure.invalid("rate is NaN") }
        guard let deceleration = box.store.deceleration(of: handle, velocity: velocity, rate: rate) else {
            throw CFailure.invalid("\(handle) has no scroll range: NaN in its bounds, content size or insets")
        }
        out.pointee = bg_deceleration(deceleration)
    }
}

/// `bg_deceleration_offset`: `offset(at:)` of the struct's inputs.
@_cdecl("bg_deceleration_offset")
public func bgDecelerationOffset(
    _ deceleration: UnsafePointer<bg_deceleration>?, _ time: Double, _ out: UnsafeMutablePointer<Double>?
) -> Int32 {
    sampleOne("bg_deceleration_offset", deceleration, "deceleration", out) { $0.offset(at: time).write(to: $1) }
}

/// `bg_deceleration_offsets`: `offsets(at:into:)`, straight into the caller's array.
@_cdecl("bg_deceleration_offsets")
public func bgDecelerationOffsets(
    _ deceleration: UnsafePointer<bg_deceleration>?, _ times: UnsafePointer<Double>?, _ count: Int,
    _ out: UnsafeMutablePointer<Double>?
) -> Int32 {
    sampleBatch("bg_deceleration_offsets", deceleration, "deceleration", times, "times", count, out, width: 2) {
        $0.offset(at: $1).write(to: $2)
    }
}

/// `bg_rubber_band_offset`: `rubberBandOffset(overscroll:dimension:constant:)`.
@_cdecl("bg_rubber_band_offset")
public func bgRubberBandOffset(
    _ overscroll: Double, _ dimension: Double, _ constant: Double,
    _ out: UnsafeMutablePointer<Double>?
) -> Int32 {
    cCall("bg_rubber_band_offset") {
        let out = try required(out, "out")
        guard overscroll.isFinite else { throw CFailure.invalid("overscroll must be finite, got \(overscroll)") }
        guard dimension > 0 && dimension.isFinite else {
            throw CFailure.invalid("dimension must be positive and finite, got \(dimension)")
        }
        guard constant.isFinite else { throw CFailure.invalid("constant must be finite, got \(constant)") }
        out.pointee = rubberBandOffset(overscroll: overscroll, dimension: dimension, constant: constant)
    }
}
