/// The store's per-layer data: one array per property (struct of arrays), one entry per
/// slot, plus the few store-wide values and counters derived from them.
///
/// A plain copyable value held whole by `LayerStore.columns`, so that `copy()` assigns it
/// in one statement and a property added here cannot be left out of a copy. The public
/// read-only columns (`LayerStore.boundsX`, …) forward to it.
struct LayerColumns: Sendable {
    // Geometry columns (section 2 of GEOMETRY.md), one entry per layer.
    var boundsX: [Double] = []
    var boundsY: [Double] = []
    var boundsWidth: [Double] = []
    var boundsHeight: [Double] = []
    var positionX: [Double] = []
    var positionY: [Double] = []
    var anchorX: [Double] = []
    var anchorY: [Double] = []
    var zPositions: [Double] = []
    var anchorPointZs: [Double] = []
    var transforms = TransformColumns(count: 0, denseAffine: true)
    var sublayerTransforms = TransformColumns(count: 0, denseAffine: false)
    var flags: [LayerFlags] = []
    /// `AutoresizingMask` raw values (the six flags fit a byte).
    var autoresizingMasks: [UInt8] = []
    /// The columns of the table-driven properties (opacity, userInteractionEnabled):
    /// `LayerAttributes.swift`.
    var attributes = LayerAttributes()
    /// How many layers carry the `.detached` flag (free slots included): at zero, world
    /// rects skip the check.
    var detachedLayerCount = 0
    /// How many layers have a non-empty autoresizing mask: at zero, the bounds setters
    /// skip autoresizing without looking at any sublayer.
    var autoresizingLayerCount = 0
    /// Points to pixels (GEOMETRY.md section 1): what contentOffset rounds to. A positive
    /// finite number; `setDisplayScale(_:)` checks.
    var displayScale: Double = 1
    /// Scroll-view state of the layers that have a `contentSize` (sparse: few layers do).
    var scrollViews: [Int32: ScrollViewState] = [:]

    /// Reserves room for `capacity` layers in every per-layer column the budget reaches
    /// (`StoreGrowth.swift`). O(n) for each column that reallocates.
    mutating func reserveCapacity(_ capacity: Int, budget: inout GrowthBudget) {
        budget.grow(&boundsX, to: capacity)
        budget.grow(&boundsY, to: capacity)
        budget.grow(&boundsWidth, to: capacity)
        budget.grow(&boundsHeight, to: capacity)
        budget.grow(&positionX, to: capacity)
        budget.grow(&positionY, to: capacity)
        budget.grow(&anchorX, to: capacity)
        budget.grow(&anchorY, to: capacity)
        budget.grow(&zPositions, to: capacity)
        budget.grow(&anchorPointZs, to: capacity)
        transforms.reserveCapacity(capacity, budget: &budget)
        sublayerTransforms.reserveCapacity(capacity, budget: &budget)
        budget.grow(&flags, to: capacity)
        budget.grow(&autoresizingMasks, to: capacity)
        attributes.reserveCapacity(capacity, budget: &budget)
    }
}
