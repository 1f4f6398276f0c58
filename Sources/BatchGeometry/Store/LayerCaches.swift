/// Everything the store derives from its columns and hierarchy, and the working storage
/// its queries and edits keep between calls: the one place a cache lives.
///
/// Held whole by `LayerStore.caches`. The setters do not name a cache: they report a
/// `LayerChange` through `noteChange` / `noteListChange`, which hand it to the caches
/// that read it. `LayerStore+Invariants.swift` compares each cache with a fresh build.
struct LayerCaches: Sendable {
    /// Which layers changed since the world transforms were last brought up to date.
    var changes = ChangeTracker()
    /// World transforms from the last `updateWorld()`, if any.
    var worldCache: WorldTransforms?
    /// Cached local transforms, modes and level order behind `worldCache` (valid with it:
    /// `updateWorld()` keeps both current for the layers it does not mark dirty).
    var worldPlan: WorldPlan?
    /// Per layer, a conservative box around its subtree, and spatial indexes of wide
    /// layers: what the output-sensitive queries skip subtrees by (built on first use).
    var subtreeBounds = SubtreeBounds()
    /// The sublayer lists in drawing order, re-sorted per list as lists change.
    var drawOrderCache = DrawOrderCache()
    /// How the last `updateWorld()` that did any work brought the cache up to date: a
    /// test hook, so tests can tell the incremental paths apart (their results agree).
    var lastWorldUpdatePath: WorldUpdatePath = .none
    /// The layers whose geometry changed lately (`EditLog`), for the culled animation sample.
    var editLog = EditLog()

    // Working storage, kept between calls so that a warmed-up frame loop allocates
    // nothing; never copied (`copy()` leaves it for the copy to grow again).
    /// The culled hit test's stack.
    var walkScratch = WalkScratch()
    /// The batch hit test's point order (apart from `walkScratch`, which every single
    /// hit test moves out and back: it stays small).
    var hitPointOrder = HitPointOrder()
    /// The batch hit test's packet walk.
    var hitPackets = HitPacket()
    /// The arrays an incremental `updateWorld()` fills and empties.
    var incrementalScratch = IncrementalScratch()
    /// The slots `destroyLayer` gathers.
    var structureScratch: [Int32] = []

    /// The caches without the working storage: what `LayerStore.copy()` gives the copy, so
    /// that it answers its first query as cheaply as the original would. O(1): the arrays
    /// are shared until either store writes to them.
    func copyWithoutScratch() -> LayerCaches {
        var copy = self
        copy.walkScratch = WalkScratch()
        copy.hitPointOrder = HitPointOrder()
        copy.hitPackets = HitPacket()
        copy.incrementalScratch = IncrementalScratch()
        copy.structureScratch = []
        return copy
    }

    /// Reserves room for `capacity` layers in the per-layer caches that are built (the
    /// others reserve the store's capacity when they are built).
    /// O(1) a column (in place inside its reservation, or one `mremap`; below 256 KiB a
    /// realloc). The world cache and its plan are not
    /// covered: a store that gained slots needs a full world pass, which writes a new
    /// snapshot of `count` entries whatever was reserved.
    mutating func reserveCapacity(_ capacity: Int) {
        changes.reserveCapacity(capacity)
        subtreeBounds.reserveCapacity(capacity)
        drawOrderCache.reserveCapacity(capacity)
    }
}
