// batchgeometry.h, "Table properties": the generic property accessors keyed by a
// `BG_PROPERTY_` constant (`LayerProperty`), world opacity, and the frame query with
// world opacities. A property added to `LayerProperty` is reachable here with no new
// function.

import BatchGeometry
import CBatchGeometry

/// The property of a `BG_PROPERTY_` constant, or `.invalid` listing them all.
func layerProperty(_ raw: Int32) throws(CFailure) -> LayerProperty {
    guard let property = LayerProperty(rawValue: raw) else {
        let known = LayerProperty.allCases.map { "\($0.cName) \($0.rawValue)" }.joined(separator: ", ")
        throw CFailure.invalid("\(raw) is not a layer property (\(known))")
    }
    return property
}

/// `bg_layer_get_property`: `value(of:for:)`.
@_cdecl("bg_layer_get_property")
public func bgLayerGetProperty(
    _ store: OpaquePointer?, _ layer: UInt64, _ property: Int32, _ out: UnsafeMutablePointer<Double>?
) -> Int32 {
    cCall("bg_layer_get_property") {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        let property = try layerProperty(property)
        let handle = try box.live(layer)
        out.pointee = box.store.value(of: property, for: handle)
    }
}

/// `bg_layer_set_property`: `setValue(_:of:for:)`, after checking what it would stop on.
@_cdecl("bg_layer_set_property")
public func bgLayerSetProperty(_ store: OpaquePointer?, _ layer: UInt64, _ property: Int32, _ value: Double)
    -> Int32
{
    cCall("bg_layer_set_property") {
        let box = try CStore.from(store)
        let property = try layerProperty(property)
        guard property.accepts(value) else {
            throw CFailure.invalid("\(property.name) is a flag: it takes 0 or 1, not \(value)")
        }
        let handle = try box.live(layer)
        box.mutate { $0.setValue(value, of: property, for: handle) }
    }
}

/// `bg_layer_get_world_opacity`: `worldOpacity(of:)`.
@_cdecl("bg_layer_get_world_opacity")
public func bgLayerGetWorldOpacity(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    layerGetter("bg_layer_get_world_opacity", store, layer, out) { $2.pointee = $0.worldOpacity(of: $1) }
}

/// `bg_store_world_opacities`: `worldOpacities(into:)`.
@_cdecl("bg_store_world_opacities")
public func bgStoreWorldOpacities(_ store: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?, _ capacity: Int)
    -> Int32
{
    cCall("bg_store_world_opacities") {
        let box = try CStore.from(store)
        let count = box.store.count
        if count > 0 && out == nil { throw CFailure.null("out") }
        try checkCapacity(capacity, needed: count)
        guard let out else { return }
        let opacities = box.worldOpacities()
        var slot = 0
        while slot < count {
            out[slot] = opacities[slot]
            slot += 1
        }
    }
}

/// `bg_store_frame_query_opacities`: `visibleLayers(in:into:)` with each layer's world
/// opacity where asked for.
@_cdecl("bg_store_frame_query_opacities")
public func bgStoreFrameQueryOpacities(
    _ store: OpaquePointer?, _ viewport: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<UInt64>?,
    _ worldOpacities: UnsafeMutablePointer<Double>?, _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_store_frame_query_opacities") {
        let outputs = FrameQueryOutputs(layers: out, worldOpacities: worldOpacities)
        try frameQuery(store, viewport, outputs, capacity: capacity, count: count)
    }
}
