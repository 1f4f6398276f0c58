// A scroll view of the store, decelerated after a drag (docs/ANIMATION.md section 11):
// the deceleration starts from the layer's contentOffset with its scroll range and the
// store's display scale, so that sampling it and setting the contentOffset is what
// UIScrollView does frame by frame. Only the store's public API is used.

extension LayerStore {
    /// The deceleration of scroll view `layer` released at `velocity` (points per
    /// millisecond): from its current contentOffset (`bounds.origin`), clamped to its
    /// `scrollRange(of:)` and rounded to ``displayScale``. Sample it with
    /// ``ScrollDeceleration/offset(at:)`` and set the result with
    /// ``setContentOffset(_:of:)`` (which leaves an offset already on the pixel grid as
    /// it is), as UIScrollView does each frame.
    ///
    /// Returns nil when the layer is not a scroll view (it has no contentSize) or its
    /// scroll range is not defined (a NaN size). The handle must be live (a stale handle
    /// stops the program with a message, as every accessor does). O(1), no allocation.
    public func deceleration(
        of layer: LayerHandle, velocity: Point, rate: Double = ScrollDeceleration.normalRate
    ) -> ScrollDeceleration? {
        guard let range = scrollRange(of: layer) else { return nil }
        let bounds = bounds(of: layer)
        return ScrollDeceleration(
            offset: Point(x: bounds.x, y: bounds.y), velocity: velocity, rate: rate, displayScale: columns.displayScale,
            scrollRange: range)
    }
}
