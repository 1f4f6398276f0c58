// Building the caches the first frame would otherwise build: a warm-up call for loading
// screens, so that the first frame costs what the next ones do.

extension LayerStore {
    /// Builds every cache the per-frame calls keep, ahead of the first frame: the world
    /// plan and the world transforms (`updateWorld(options:)`), the cached drawing order
    /// (even while every sublayer list is in zPosition order: the first out-of-order
    /// zPosition would otherwise build it, O(n), in a frame),
    /// and the subtree bounds with the wide layers' R-trees that `visibleLayers(in:into:)`
    /// and `hitTest(_:rule:)` walk. Changes no geometry; later edits mark these caches as
    /// usual, and the next frame redoes only what they touched.
    ///
    /// Complexity: O(count) the first time (plus O(w log w) for each layer of w ≥ 64
    /// sublayers); O(changed × depth) after edits, as the first query would pay.
    public mutating func warmUp(options: KernelOptions = .default) {
        updateWorld(options: options)
        refreshDrawOrder(building: true)
        refreshSubtreeBounds()
    }
}
