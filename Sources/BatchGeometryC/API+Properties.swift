// batchgeometry.h, "Layer properties": geometry (bounds, position, center, anchor point,
// z, frame). Each pair runs the Swift getter and setter of the same name.

import BatchGeometry
import CBatchGeometry

/// `bg_layer_get_bounds`: `bounds(of:)`.
@_cdecl("bg_layer_get_bounds")
public func bgLayerGetBounds(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    layerGetter("bg_layer_get_bounds", store, layer, out) { $0.bounds(of: $1).write(to: $2) }
}

/// `bg_layer_set_bounds`: `setBounds(_:of:)`.
@_cdecl("bg_layer_set_bounds")
public func bgLayerSetBounds(_ store: OpaquePointer?, _ layer: UInt64, _ bounds: UnsafePointer<Double>?) -> Int32 {
    layerSetter("bg_layer_set_bounds", store, layer, bounds, "bounds") { $0.setBounds(Rect(c: $2), of: $1) }
}

/// `bg_layer_get_position`: `position(of:)`.
@_cdecl("bg_layer_get_position")
public func bgLayerGetPosition(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    layerGetter("bg_layer_get_position", store, layer, out) { $0.position(of: $1).write(to: $2) }
}

/// `bg_layer_set_position`: `setPosition(_:of:)`.
@_cdecl("bg_layer_set_position")
public func bgLayerSetPosition(_ store: OpaquePointer?, _ layer: UInt64, _ position: UnsafePointer<Double>?)
    -> Int32
{
    layerSetter("bg_layer_set_position", store, layer, position, "position") {
        $0.setPosition(Point(c: $2), of: $1)
    }
}

/// `bg_layer_offset_positions`: `offsetPositions(ofSublayersOf:in:by:)` over sublayers
/// `start ..< start + count`. `count` is checked here (a negative one, or one whose end
/// overflows, would trap building the `Range`); the rest by the Swift call, which throws
/// before it changes anything.
@_cdecl("bg_layer_offset_positions")
public func bgLayerOffsetPositions(
    _ store: OpaquePointer?, _ superlayer: UInt64, _ start: Int64, _ count: Int64, _ offset: UnsafePointer<Double>?
) -> Int32 {
    cCall("bg_layer_offset_positions") {
        let box = try CStore.from(store)
        let offset = Point(c: try required(offset, "offset"))
        guard count >= 0 else { throw CFailure.invalid("count is negative (\(count))") }
        let (end, overflow) = start.addingReportingOverflow(count)
        guard !overflow else { throw CFailure.invalid("start + count (\(start) + \(count)) overflows int64_t") }
        try box.mutate {
            try $0.offsetPositions(
                ofSublayersOf: LayerHandle(rawValue: superlayer), in: Int(start)..<Int(end), by: offset)
        }
    }
}

/// `bg_layer_get_center`: `center(of:)`.
@_cdecl("bg_layer_get_center")
public func bgLayerGetCenter(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    layerGetter("bg_layer_get_center", store, layer, out) { $0.center(of: $1).write(to: $2) }
}

/// `bg_layer_set_center`: `setCenter(_:of:)`.
@_cdecl("bg_layer_set_center")
public func bgLayerSetCenter(_ store: OpaquePointer?, _ layer: UInt64, _ center: UnsafePointer<Double>?) -> Int32 {
    layerSetter("bg_layer_set_center", store, layer, center, "center") { $0.setCenter(Point(c: $2), of: $1) }
}

/// `bg_layer_get_anchor_point`: `anchorPoint(of:)`.
@_cdecl("bg_layer_get_anchor_point")
public func bgLayerGetAnchorPoint(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    layerGetter("bg_layer_get_anchor_point", store, layer, out) { $0.anchorPoint(of: $1).write(to: $2) }
}

/// `bg_layer_set_anchor_point`: `setAnchorPoint(_:of:)`.
@_cdecl("bg_layer_set_anchor_point")
public func bgLayerSetAnchorPoint(_ store: OpaquePointer?, _ layer: UInt64, _ anchorPoint: UnsafePointer<Double>?)
    -> Int32
{
    layerSetter("bg_layer_set_anchor_point", store, layer, anchorPoint, "anchor_point") {
        $0.setAnchorPoint(Point(c: $2), of: $1)
    }
}

/// `bg_layer_get_z_position`: `zPosition(of:)`.
@_cdecl("bg_layer_get_z_position")
public func bgLayerGetZPosition(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    layerGetter("bg_layer_get_z_position", store, layer, out) { $2.pointee = $0.zPosition(of: $1) }
}

/// `bg_layer_set_z_position`: `setZPosition(_:of:)`.
@_cdecl("bg_layer_set_z_position")
public func bgLayerSetZPosition(_ store: OpaquePointer?, _ layer: UInt64, _ zPosition: Double) -> Int32 {
    layerSetter("bg_layer_set_z_position", store, layer) { $0.setZPosition(zPosition, of: $1) }
}

/// `bg_layer_get_anchor_point_z`: `anchorPointZ(of:)`.
@_cdecl("bg_layer_get_anchor_point_z")
public func bgLayerGetAnchorPointZ(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    layerGetter("bg_layer_get_anchor_point_z", store, layer, out) { $2.pointee = $0.anchorPointZ(of: $1) }
}

/// `bg_layer_set_anchor_point_z`: `setAnchorPointZ(_:of:)`.
@_cdecl("bg_layer_set_anchor_point_z")
public func bgLayerSetAnchorPointZ(_ store: OpaquePointer?, _ layer: UInt64, _ anchorPointZ: Double) -> Int32 {
    layerSetter("bg_layer_set_anchor_point_z", store, layer) { $0.setAnchorPointZ(anchorPointZ, of: $1) }
}

/// `bg_layer_get_frame`: `frame(of:)`.
@_cdecl("bg_layer_get_frame")
public func bgLayerGetFrame(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    layerGetter("bg_layer_get_frame", store, layer, out) { $0.frame(of: $1).write(to: $2) }
}

/// `bg_layer_set_frame`: `setFrame(_:of:)`, the frame setter.
@_cdecl("bg_layer_set_frame")
public func bgLayerSetFrame(_ store: OpaquePointer?, _ layer: UInt64, _ frame: UnsafePointer<Double>?) -> Int32 {
    layerSetter("bg_layer_set_frame", store, layer, frame, "frame") { $0.setFrame(Rect(c: $2), of: $1) }
}
