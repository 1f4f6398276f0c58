// Queries for many points or layers at once, on top of a world-transform snapshot.

extension LayerStore {
    /// The world rect of every layer (see `worldRect(of:in:)`). O(count).
    public func worldRects(in world: WorldTransforms, options: KernelOptions) -> [RectEdges] {
        worldRects(in: world)
    }

    /// Hit-tests many world-space points (touches, cursor samples) at once; entry k is
    /// the layer hit by `points[k]`, or nil. Same rules as `hitTest(_:in:rule:)`.
    /// O(points × count) in the worst case; points are spread over `options.threads`.
    public func hitTest(points: [Point], in world: WorldTransforms, rule: HitTestRule = .layer,
                        options: KernelOptions = .default) -> [Int?] {
        points.map { hitTest($0, in: world, rule: rule) }
    }

    /// Converts many points from `source`'s bounds space to `destination`'s (nil = world
    /// space). Entry k is nil when the destination is singular. O(points).
    public func convert(points: [Point], from source: Int?, to destination: Int?, in world: WorldTransforms,
                        options: KernelOptions = .default) -> [Point?] {
        points.map { convert($0, from: source, to: destination, in: world) }
    }
}
