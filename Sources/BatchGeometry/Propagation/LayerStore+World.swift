// World transforms over the whole store with the selected backend, and the cached,
// incremental update.

/// The ways `updateWorld()` can bring the cached world up to date (see
/// `LayerCaches.lastWorldUpdatePath`).
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
    /// `options.backend` (nil: each kernel on its measured best) over `options.threads`
    /// (a tree of 8,192 layers or more is split into independent subtrees, each thread
    /// claiming the next one); other layers take the 4×4 product. Agrees with the scalar reference (`referenceWorldTransforms()`) to 1e-12
    /// relative (NaN where it has NaN), identically for every thread count.
    ///
    /// When `updateWorld()` has run and nothing changed since, the cached local
    /// transforms are reused and the pass streams about 100 bytes per layer; otherwise
    /// local transforms are computed first from the layer properties. O(count).
    public func worldTransforms(options: KernelOptions = .default) -> WorldTransforms {
        let plan = (caches.changes.hasChanges ? nil : caches.worldPlan) ?? makeWorldPlan()
        var world = WorldTransforms(uninitializedCount: count)
        world.structureVersion = hierarchy.structureVersion
        if !propagateWorld(plan: plan, into: &world, options: options) {
            propagateWorldInFull(plan: plan, into: &world)
        }
        return world
    }

    /// Computes `ToWorld` of every layer into `world`, reusing its storage (resized to
    /// `count` if needed); otherwise the same as `worldTransforms(options:)`.
    ///
    /// Allocates nothing when `options.threads` is 1, the store's cached plan is current
    /// (`updateWorld()` has run since the last change), and `world` already has `count`
    /// layers and does not share its storage. Otherwise it may first build the local
    /// transforms from the layer properties (an O(count) plan it allocates and does not
    /// keep), and over more threads the pass's splits allocate (`DispatchQueue
    /// .concurrentPerform`). `world` keeps its own copy of the per-layer mode bytes, so
    /// it never holds on to the store's cache. O(count).
    public func computeWorldTransforms(into world: inout WorldTransforms, options: KernelOptions = .default) {
        let plan = (caches.changes.hasChanges ? nil : caches.worldPlan) ?? makeWorldPlan()
        if world.count != count { world = WorldTransforms(uninitializedCount: count) }
        // The pass shares the plan's mode bytes with `world`: copy them into `world`'s
        // own array instead, or the next `updateWorld()` would copy the plan's (an
        // allocation per frame) while `world` lives.
        var modes: [UInt8] = []
        swap(&modes, &world.modes)
        if !propagateWorld(plan: plan, into: &world, options: options) {
            propagateWorldInFull(plan: plan, into: &world)
        } else {
            modes.overwrite(with: world.modes)
            swap(&modes, &world.modes)
        }
        world.structureVersion = hierarchy.structureVersion
    }

    /// Brings the cached world transforms up to date and returns them: only the subtrees
    /// of layers changed since the last update are recomputed, unless the hierarchy
    /// changed (layers added, removed or reparented) or many layers did (more than a
    /// quarter): then it is one full pass. Changing `masksToBounds` or `hidden` does not
    /// dirty anything. It also brings the cached drawing order up to date (re-sorting
    /// only the sublayer lists whose zPositions or members changed; O(1) while every list
    /// is in order), so `drawOrder()` and the hit tests then sort nothing.
    ///
    /// Copy-on-write: the result shares storage with the store's cache. Discarding it
    /// (`_ = store.updateWorld()` once per frame) keeps the next update copy-free; a
    /// caller that keeps the previous result alive while updating makes that update copy
    /// the cache once (O(count)), after which the kept snapshot stays unchanged.
    ///
    /// Allocation: an incremental update allocates nothing once the arrays it keeps in
    /// the store have grown to what the frame's dirty layers need, when `options.threads`
    /// is 1 and no earlier result is kept alive (see above). Except where it walks layer
    /// by layer, which allocates: when a changed layer's world turned between planar and
    /// 3D, or the layer reaches its sublayers' locals (a geometry flip, a
    /// sublayerTransform, a transform layer), or the store has 65,536 layers or more and
    /// no level of 32,768 (the subtree layout). A full pass (the first update, a
    /// structural edit, `invalidateWorld()`, more than a quarter of the layers changed)
    /// allocates. Over several threads, an incremental update splits each level of 16,384
    /// layers or more of its walk over them (`DispatchQueue.concurrentPerform` then
    /// allocates a few blocks); the rest of it runs on the calling thread.
    ///
    /// Complexity: O(size of the dirty subtrees + dirty layers × depth), or O(count) for a
    /// full pass.
    @discardableResult
    public mutating func updateWorld(options: KernelOptions = .default) -> WorldTransforms {
        // The per-frame call: it also re-sorts the sublayer lists whose drawing order
        // changed, so `drawOrder` and hit tests read a current cache.
        refreshDrawOrder()
        if let cached = caches.worldCache, !caches.changes.hasChanges { return cached }
        if !caches.changes.needsFullUpdate, caches.worldCache != nil, caches.worldPlan != nil,
            caches.changes.dirtyLayers.count <= ChangeTracker.incrementalLimit(slots: count),
            updateDirtySubtrees(options: options)
        {
            caches.changes.clear()
            return caches.worldCache!
        }
        fullWorldUpdate(options: options)
        caches.lastWorldUpdatePath = .full
        caches.changes.clear()
        return caches.worldCache!
    }

    /// Marks every layer dirty, so the next `updateWorld()` is a full pass (local
    /// transforms rebuilt from the properties, then propagated). O(1).
    public mutating func invalidateWorld() {
        caches.changes.markAllChanged()
    }

    /// Rebuilds the plan and the world in full, reusing the cached plan's and world's
    /// storage (and the level order, when the hierarchy did not change) when nothing
    /// else holds them.
    private mutating func fullWorldUpdate(options: KernelOptions) {
        var oldPlan = caches.worldPlan
        var world = caches.worldCache ?? WorldTransforms(uninitializedCount: count)
        caches.worldCache = nil
        caches.worldPlan = nil
        world.modes = []  // shared with the old plan's modes
        if world.count != count { world = WorldTransforms(uninitializedCount: count) }
        if caches.changes.hierarchyChanged {
            oldPlan?.order = nil
            oldPlan?.levelStarts = []
        }
        let plan = makeWorldPlan(reusing: &oldPlan, keepOrder: !caches.changes.hierarchyChanged)
        world.structureVersion = hierarchy.structureVersion
        if propagateWorld(plan: plan, into: &world, options: options) {
            caches.worldPlan = plan
            caches.worldCache = world
        } else {
            // Non-finite values reached a planar chain: keep the 4×4 result and no plan,
            // so the next update is a full pass again.
            propagateWorldInFull(plan: plan, into: &world)
            caches.worldCache = world
        }
    }
}
