// batchgeometry.h, "Layer properties": transforms, flags and autoresizing; and
// "Transforms between spaces, one layer at a time".

import BatchGeometry
import CBatchGeometry

/// `bg_layer_get_transform`: `transform(of:)`.
@_cdecl("bg_layer_get_transform")
public func bgLayerGetTransform(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    layerGetter("bg_layer_get_transform", store, layer, out) { $0.transform(of: $1).write(to: $2) }
}

/// `bg_layer_set_transform`: `setTransform(_:of:)`.
@_cdecl("bg_layer_set_transform")
public func bgLayerSetTransform(_ store: OpaquePointer?, _ layer: UInt64, _ transform: UnsafePointer<Double>?)
    -> Int32
{
    layerSetter("bg_layer_set_transform", store, layer, transform, "transform") {
        $0.setTransform(Transform3D(c: $2), of: $1)
    }
}

/// `bg_layer_get_affine_transform`: `affineTransform(of:)`.
@_cdecl("bg_layer_get_affine_transform")
public func bgLayerGetAffineTransform(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    layerGetter("bg_layer_get_affine_transform", store, layer, out) { $0.affineTransform(of: $1).write(to: $2) }
}

/// `bg_layer_set_affine_transform`: `setAffineTransform(_:of:)`.
@_cdecl("bg_layer_set_affine_transform")
public func bgLayerSetAffineTransform(_ store: OpaquePointer?, _ layer: UInt64, _ affine: UnsafePointer<Double>?)
    -> Int32
{
    layerSetter("bg_layer_set_affine_transform", store, layer, affine, "affine") {
        $0.setAffineTransform(AffineTransform(c: $2), of: $1)
    }
}

/// `bg_layer_get_transform_kind`: `transformKind(of:)` as a `BG_TRANSFORM_` constant.
@_cdecl("bg_layer_get_transform_kind")
public func bgLayerGetTransformKind(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Int32>?)
    -> Int32
{
    layerGetter("bg_layer_get_transform_kind", store, layer, out) {
        $2.pointee = Int32($0.transformKind(of: $1).rawValue)
    }
}

/// `bg_layer_get_sublayer_transform`: `sublayerTransform(of:)`.
@_cdecl("bg_layer_get_sublayer_transform")
public func bgLayerGetSublayerTransform(
    _ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?
) -> Int32 {
    layerGetter("bg_layer_get_sublayer_transform", store, layer, out) { $0.sublayerTransform(of: $1).write(to: $2) }
}

/// `bg_layer_set_sublayer_transform`: `setSublayerTransform(_:of:)`.
@_cdecl("bg_layer_set_sublayer_transform")
public func bgLayerSetSublayerTransform(
    _ store: OpaquePointer?, _ layer: UInt64, _ transform: UnsafePointer<Double>?
) -> Int32 {
    layerSetter("bg_layer_set_sublayer_transform", store, layer, transform, "transform") {
        $0.setSublayerTransform(Transform3D(c: $2), of: $1)
    }
}

/// `bg_layer_get_geometry_flipped`: `isGeometryFlipped(_:)`.
@_cdecl("bg_layer_get_geometry_flipped")
public func bgLayerGetGeometryFlipped(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Bool>?)
    -> Int32
{
    layerGetter("bg_layer_get_geometry_flipped", store, layer, out) { $2.pointee = $0.isGeometryFlipped($1) }
}

/// `bg_layer_set_geometry_flipped`: `setGeometryFlipped(_:of:)`.
@_cdecl("bg_layer_set_geometry_flipped")
public func bgLayerSetGeometryFlipped(_ store: OpaquePointer?, _ layer: UInt64, _ value: Bool) -> Int32 {
    layerSetter("bg_layer_set_geometry_flipped", store, layer) { $0.setGeometryFlipped(value, of: $1) }
}

/// `bg_layer_get_masks_to_bounds`: `masksToBounds(_:)`.
@_cdecl("bg_layer_get_masks_to_bounds")
public func bgLayerGetMasksToBounds(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Bool>?)
    -> Int32
{
    layerGetter("bg_layer_get_masks_to_bounds", store, layer, out) { $2.pointee = $0.masksToBounds($1) }
}

/// `bg_layer_set_masks_to_bounds`: `setMasksToBounds(_:of:)`.
@_cdecl("bg_layer_set_masks_to_bounds")
public func bgLayerSetMasksToBounds(_ store: OpaquePointer?, _ layer: UInt64, _ value: Bool) -> Int32 {
    layerSetter("bg_layer_set_masks_to_bounds", store, layer) { $0.setMasksToBounds(value, of: $1) }
}

/// `bg_layer_get_hidden`: `isHidden(_:)`.
@_cdecl("bg_layer_get_hidden")
public func bgLayerGetHidden(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    layerGetter("bg_layer_get_hidden", store, layer, out) { $2.pointee = $0.isHidden($1) }
}

/// `bg_layer_set_hidden`: `setHidden(_:of:)`.
@_cdecl("bg_layer_set_hidden")
public func bgLayerSetHidden(_ store: OpaquePointer?, _ layer: UInt64, _ value: Bool) -> Int32 {
    layerSetter("bg_layer_set_hidden", store, layer) { $0.setHidden(value, of: $1) }
}

/// `bg_layer_get_transform_layer`: `isTransformLayer(_:)`.
@_cdecl("bg_layer_get_transform_layer")
public func bgLayerGetTransformLayer(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Bool>?)
    -> Int32
{
    layerGetter("bg_layer_get_transform_layer", store, layer, out) { $2.pointee = $0.isTransformLayer($1) }
}

/// `bg_layer_set_transform_layer`: `setTransformLayer(_:of:)`.
@_cdecl("bg_layer_set_transform_layer")
public func bgLayerSetTransformLayer(_ store: OpaquePointer?, _ layer: UInt64, _ value: Bool) -> Int32 {
    layerSetter("bg_layer_set_transform_layer", store, layer) { $0.setTransformLayer(value, of: $1) }
}

/// `bg_layer_get_autoresizing_mask`: `autoresizingMask(of:)`.
@_cdecl("bg_layer_get_autoresizing_mask")
public func bgLayerGetAutoresizingMask(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<UInt32>?)
    -> Int32
{
    layerGetter("bg_layer_get_autoresizing_mask", store, layer, out) {
        $2.pointee = UInt32(truncatingIfNeeded: $0.autoresizingMask(of: $1).rawValue)
    }
}

/// `bg_layer_set_autoresizing_mask`: `setAutoresizingMask(_:of:)`.
@_cdecl("bg_layer_set_autoresizing_mask")
public func bgLayerSetAutoresizingMask(_ store: OpaquePointer?, _ layer: UInt64, _ mask: UInt32) -> Int32 {
    layerSetter("bg_layer_set_autoresizing_mask", store, layer) {
        $0.setAutoresizingMask(AutoresizingMask(rawValue: UInt(mask)), of: $1)
    }
}

/// `bg_layer_get_autoresizes_subviews`: `autoresizesSubviews(_:)`.
@_cdecl("bg_layer_get_autoresizes_subviews")
public func bgLayerGetAutoresizesSubviews(
    _ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Bool>?
) -> Int32 {
    layerGetter("bg_layer_get_autoresizes_subviews", store, layer, out) { $2.pointee = $0.autoresizesSubviews($1) }
}

/// `bg_layer_set_autoresizes_subviews`: `setAutoresizesSubviews(_:of:)`.
@_cdecl("bg_layer_set_autoresizes_subviews")
public func bgLayerSetAutoresizesSubviews(_ store: OpaquePointer?, _ layer: UInt64, _ value: Bool) -> Int32 {
    layerSetter("bg_layer_set_autoresizes_subviews", store, layer) { $0.setAutoresizesSubviews(value, of: $1) }
}

/// `bg_layer_get_local_transform`: `localTransform(of:)`.
@_cdecl("bg_layer_get_local_transform")
public func bgLayerGetLocalTransform(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    layerGetter("bg_layer_get_local_transform", store, layer, out) { $0.localTransform(of: $1).write(to: $2) }
}

/// `bg_layer_get_sublayer_adjustment`: `sublayerAdjustment(of:)`.
@_cdecl("bg_layer_get_sublayer_adjustment")
public func bgLayerGetSublayerAdjustment(
    _ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?
) -> Int32 {
    layerGetter("bg_layer_get_sublayer_adjustment", store, layer, out) {
        $0.sublayerAdjustment(of: $1).write(to: $2)
    }
}

/// `bg_layer_get_transform_to_superlayer`: `transformToSuperlayer(of:)`.
@_cdecl("bg_layer_get_transform_to_superlayer")
public func bgLayerGetTransformToSuperlayer(
    _ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?
) -> Int32 {
    layerGetter("bg_layer_get_transform_to_superlayer", store, layer, out) {
        $0.transformToSuperlayer(of: $1).write(to: $2)
    }
}
