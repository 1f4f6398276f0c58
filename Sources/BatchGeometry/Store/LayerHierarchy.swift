/// The store's slots and hierarchy: generations and free slots, parent links and ordered
/// sublayer lists (`Int32`, -1 = none), the structure version and the counters and cached
/// flags that follow from the links alone.
///
/// A plain copyable value held whole by `LayerStore.hierarchy`, so that `copy()` assigns it
/// in one statement and a property added here cannot be left out of a copy.
/// `@usableFromInline` (with `generations`, `freeSlots`, `parents`): the store's O(1) lookups
/// (`handle(at:)`, `contains(_:)`, `count`) are `@inlinable` and read them in the caller.
@usableFromInline
struct LayerHierarchy: Sendable {
    /// Per slot: its `LayerHandle.stamp`, the store tag over its generation, even while a
    /// layer lives in it, odd while it is free (`destroyLayer` and `addLayer` each add
    /// one). A handle is live while its (even) stamp equals its slot's: one load checks
    /// the generation and the store together.
    @usableFromInline var generations: RemappedColumn<UInt32> = []
    /// The store tag of `LayerHandle`: set by `LayerStore.init()`, kept by `copy()`.
    var storeTag: UInt32 = 0
    /// Free slots (destroyed layers), a stack: `addLayer` takes the last one, which is the
    /// top of the most recently destroyed subtree, then the rest of it in pre-order. A free slot
    /// is a detached root with Core Animation's defaults and an odd generation, so every
    /// pass covers it and no query reports it.
    @usableFromInline var freeSlots: [Int32] = []
    @usableFromInline var parents: RemappedColumn<Int32> = []
    var firstSublayers: RemappedColumn<Int32> = []
    var lastSublayers: RemappedColumn<Int32> = []
    var nextSiblings: RemappedColumn<Int32> = []
    var previousSiblings: RemappedColumn<Int32> = []
    var firstRoot: Int32 = -1
    var lastRoot: Int32 = -1
    /// Names the store's current structure (its layers and their hierarchy): a new,
    /// process-wide unique value after every structural change (0 for a new store,
    /// which has no layers). Snapshots record it, so that using one with a store whose
    /// structure is no longer the one it was computed for is detected.
    var structureVersion: UInt64 = 0
    /// How many adjacent sublayer pairs (same superlayer, roots excluded) are out of
    /// drawing order (the later one has the smaller zPosition key). Zero, the usual case,
    /// means every sublayer list is already in drawing order, so drawing order and the
    /// layer rule's hit testing walk the lists as they are. Kept in O(1) by the link
    /// primitives and `setZPosition`.
    var zOrderInversions = 0
    /// Cached answer to "does every layer come after its superlayer?"; nil = unknown.
    var parentsPrecedeChildrenCache: Bool? = true
    /// The limit `addLayer` enforces: `LayerStore.maximumLayerCount`, lowered only by
    /// tests so that the `.tooManyLayers` path can be exercised without two billion layers.
    var layerLimit = LayerStore.maximumLayerCount

    /// Reserves room for `capacity` layers in every per-layer link column. O(1) a
    /// column from 256 KiB on (grown in place); below, a realloc.
    mutating func reserveCapacity(_ capacity: Int) {
        generations.reserveCapacity(capacity)
        parents.reserveCapacity(capacity)
        firstSublayers.reserveCapacity(capacity)
        lastSublayers.reserveCapacity(capacity)
        nextSiblings.reserveCapacity(capacity)
        previousSiblings.reserveCapacity(capacity)
    }
}
