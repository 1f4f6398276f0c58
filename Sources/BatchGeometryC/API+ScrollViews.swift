// batchgeometry.h, "Scroll views": content offset, scroll-view state, range, scrolling.

import BatchGeometry
import CBatchGeometry

/// `bg_layer_get_content_offset`: `contentOffset(of:)`.
@_cdecl("bg_layer_get_content_offset")
public func bgLayerGetContentOffset(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    layerGetter("bg_layer_get_content_offset", store, layer, out) { $0.contentOffset(of: $1).write(to: $2) }
}

/// `bg_layer_set_content_offset`: `setContentOffset(_:of:)`, rounded to the display scale.
@_cdecl("bg_layer_set_content_offset")
public func bgLayerSetContentOffset(_ store: OpaquePointer?, _ layer: UInt64, _ offset: UnsafePointer<Double>?)
    -> Int32
{
    layerSetter("bg_layer_set_content_offset", store, layer, offset, "offset") {
        $0.setContentOffset(Point(c: $2), of: $1)
    }
}

/// `bg_layer_get_scroll_view`: `scrollView(of:)`.
@_cdecl("bg_layer_get_scroll_view")
public func bgLayerGetScrollView(
    _ store: OpaquePointer?, _ layer: UInt64, _ isScrollView: UnsafeMutablePointer<Bool>?,
    _ contentSize: UnsafeMutablePointer<Double>?, _ contentInset: UnsafeMutablePointer<Double>?
) -> Int32 {
    layerGetter("bg_layer_get_scroll_view", store, layer, isScrollView) { store, handle, isScrollView in
        let state = store.scrollView(of: handle)
        isScrollView.pointee = state != nil
        guard let state else { return }
        if let contentSize {
            contentSize[0] = state.contentSize.width
            contentSize[1] = state.contentSize.height
        }
        if let contentInset {
            contentInset[0] = state.contentInset.top
            contentInset[1] = state.contentInset.left
            contentInset[2] = state.contentInset.bottom
            contentInset[3] = state.contentInset.right
        }
    }
}

/// `bg_layer_set_scroll_view`: `setScrollView(_:of:)` (NULL content size: nil).
@_cdecl("bg_layer_set_scroll_view")
public func bgLayerSetScrollView(
    _ store: OpaquePointer?, _ layer: UInt64, _ contentSize: UnsafePointer<Double>?,
    _ contentInset: UnsafePointer<Double>?
) -> Int32 {
    let state = contentSize.map { size in
        ScrollViewState(
            contentSize: Size(width: size[0], height: size[1]),
            contentInset: contentInset.map { EdgeInsets(top: $0[0], left: $0[1], bottom: $0[2], right: $0[3]) }
                ?? .zero)
    }
    return layerSetter("bg_layer_set_scroll_view", store, layer) { $0.setScrollView(state, of: $1) }
}

/// `bg_layer_get_scroll_range`: `scrollRange(of:)` as `{minX, maxX, minY, maxY}`.
@_cdecl("bg_layer_get_scroll_range")
public func bgLayerGetScrollRange(_ store: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    cCall("bg_layer_get_scroll_range") {
        let box = try CStore.from(store)
        let out = try required(out, "out")
        let handle = try box.live(layer)
        guard box.store.scrollView(of: handle) != nil else {
            throw LayerStoreError.notAScrollView(layer: handle)
        }
        // scrollRange is nil for a scroll view only when NaN leaves no range.
        let range = box.store.scrollRange(of: handle)
        out[0] = range?.x.lowerBound ?? .nan
        out[1] = range?.x.upperBound ?? .nan
        out[2] = range?.y.lowerBound ?? .nan
        out[3] = range?.y.upperBound ?? .nan
    }
}

/// `bg_layer_scroll`: `scroll(_:to:)`, a clamped, rounded content offset.
@_cdecl("bg_layer_scroll")
public func bgLayerScroll(
    _ store: OpaquePointer?, _ layer: UInt64, _ offset: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<Double>?
) -> Int32 {
    cCall("bg_layer_scroll") {
        let box = try CStore.from(store)
        let offset = Point(c: try required(offset, "offset"))
        let result = try box.mutate { try $0.scroll(LayerHandle(rawValue: layer), to: offset) }
        if let out { result.write(to: out) }
    }
}
