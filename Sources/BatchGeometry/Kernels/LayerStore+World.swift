// World transforms over the whole store with the selected backend, and the cached,
// incremental update.

/// The ways `updateWorld()` can bring the cached world up to date (see
/// `LayerStore.lastWorldUpdatePath`).
enum WorldUpdatePath: Sendable, Equatable {
    case none
    /// Plan rebuilt from the layer properties, then propagated.
    case full
    /// The dirty subtrees as runs of plan positions (`updateDirtyRanges`).
    case rangeWalk
    /// The dirty layers' plan entries, then the full pass over the cached plan: the
    /// dirty subtrees hold more than an eighth of the layers, so no walk was started.
    case dirtyEntriesThenFullPropagation
    /// The range walk began, grew past its budget (many levels or runs), and the full
    /// pass over the cached plan finished the update.
    case rangeWalkThenFullPropagation
    /// The dirty subtrees layer by layer (`recomputeDirtySubtrees`).
    case subtreeWalk
}

extension LayerStore {
    /// `ToWorld` of every layer (GEOMETRY.md section 5), in one pass with superlayers
    /// before sublayers, no recursion (any depth works). Chains of 2D affine transforms
    /// under flattening superlayers are propagated as six doubles per layer with
    /// `options.backend` over `options.threads` (level by level); other layers take the
    /// 4×4 reference expression. Agrees with `referenceWorldTransforms()` to 1e-12
    /// relative (NaN where it has NaN), identically for every thread count.
    ///
    /// When `updateWorld()` has run and nothing changed since, the cached local
    /// transforms are reused and the pass streams about 100 bytes per layer; otherwise
    /// local transforms are computed first from the layer properties. O(count).
    public func worldTransforms(options: KernelOptions = .default) -> WorldTransforms {
        let plan = (changes.hasChanges ? nil : worldPlan) ?? makeWorldPlan()
        var world = WorldTransforms(uninitializedCount: count)
        world.structureVersion = structureVersion
        if propagateWorld(plan: plan, into: &world, options: options) { return world }
        return referenceWorldTransforms()
    }

    /// Computes `ToWorld` of every layer into `world`, reusing its storage (resized to
    /// `count` if needed) so a frame loop allocates nothing; otherwise the same as
    /// `worldTransforms(options:)`. O(count).
    public func computeWorldTransforms(into world: inout WorldTransforms, options: KernelOptions = .default) {
        let plan = (changes.hasChanges ? nil : worldPlan) ?? makeWorldPlan()
        if world.count != count { world = WorldTransforms(uninitializedCount: count) }
        if !propagateWorld(plan: plan, into: &world, options: options) { world = referenceWorldTransforms() }
        world.structureVersion = structureVersion
    }

    /// Brings the cached world transforms up to date and returns them: only the subtrees
    /// of layers changed since the last update are recomputed, unless the hierarchy
    /// changed (layers added, removed or reparented) or many layers did (more than a
    /// quarter): then it is one full pass. Changing `masksToBounds` or `hidden` does not
    /// dirty anything.
    ///
    /// Copy-on-write: the result shares storage with the store's cache. Discarding it
    /// (`_ = store.updateWorld()` once per frame) keeps the next update copy-free; a
    /// caller that keeps the previous result alive while updating makes that update copy
    /// the cache once (O(count)), after which the kept snapshot stays unchanged.
    ///
    /// Complexity: O(size of the dirty subtrees + dirty layers × depth), or O(count) for a
    /// full pass.
    @discardableResult
    public mutating func updateWorld(options: KernelOptions = .default) -> WorldTransforms {
        if let cached = worldCache, !changes.hasChanges { return cached }
        if !changes.needsFullUpdate, worldCache != nil, worldPlan != nil,
            changes.dirtyLayers.count <= count / 4, updateDirtySubtrees(options: options)
        {
            changes.clear()
            return worldCache!
        }
        fullWorldUpdate(options: options)
        lastWorldUpdatePath = .full
        changes.clear()
        return worldCache!
    }

    /// Marks every layer dirty, so the next `updateWorld()` is a full pass (local
    /// transforms rebuilt from the properties, then propagated). O(1).
    public mutating func invalidateWorld() {
        changes.markAllChanged()
    }

    /// Rebuilds the plan and the world in full, reusing the cached plan's and world's
    /// storage (and the level order, when the hierarchy did not change) when nothing
    /// else holds them.
    private mutating func fullWorldUpdate(options: KernelOptions) {
        var oldPlan = worldPlan
        var world = worldCache ?? WorldTransforms(uninitializedCount: count)
        worldCache = nil
        worldPlan = nil
        world.modes = []  // shared with the old plan's modes
        if world.count != count { world = WorldTransforms(uninitializedCount: count) }
        if changes.hierarchyChanged {
            oldPlan?.order = nil
            oldPlan?.levelStarts = []
        }
        let plan = makeWorldPlan(reusing: &oldPlan, keepOrder: !changes.hierarchyChanged)
        world.structureVersion = structureVersion
        if propagateWorld(plan: plan, into: &world, options: options) {
            worldPlan = plan
            worldCache = world
        } else {
            // Non-finite values reached a planar chain: keep the reference result and no
            // plan, so the next update is a full pass again.
            worldCache = referenceWorldTransforms()
        }
    }
}
