/// The store's per-layer data: one remapped column per property (struct of arrays), one
/// entry per slot, plus the few store-wide values and counters derived from them.
///
/// A plain copyable value held whole by `LayerStore.columns`, so that `copy()` assigns it
/// in one statement and a property added here cannot be left out of a copy. The public
/// read-only columns (`LayerStore.boundsX`, …) forward to it.
struct LayerColumns: Sendable {
    // Geometry columns (section 2 of GEOMETRY.md), one entry per layer.
    var boundsX: RemappedColumn<Double> = []
    var boundsY: RemappedColumn<Double> = []
    var boundsWidth: RemappedColumn<Double> = []
    var boundsHeight: RemappedColumn<Double> = []
    var positionX: RemappedColumn<Double> = []
    var positionY: RemappedColumn<Double> = []
    var anchorX: RemappedColumn<Double> = []
    var anchorY: RemappedColumn<Double> = []
    /// zPosition and anchorPointZ, sparse: only the layers where they are not zero.
    var zValues = ZValueColumns()
    var transforms = TransformColumns(count: 0, denseAffine: true)
    var sublayerTransforms = TransformColumns(count: 0, denseAffine: false)
    var flags: RemappedColumn<LayerFlags> = []
    /// `AutoresizingMask` raw values (the six flags fit a byte).
    var autoresizingMasks: RemappedColumn<UInt8> = []
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

    /// Reserves room for `capacity` layers in every per-layer column: grown in place from
    /// 256 KiB on, a realloc below (`LayerStore.reserveCapacity(_:)`).
    mutating func reserveCapacity(_ capacity: Int) {
        boundsX.reserveCapacity(capacity)
        boundsY.reserveCapacity(capacity)
        boundsWidth.reserveCapacity(capacity)
        boundsHeight.reserveCapacity(capacity)
        positionX.reserveCapacity(capacity)
        positionY.reserveCapacity(capacity)
        anchorX.reserveCapacity(capacity)
        anchorY.reserveCapacity(capacity)
        zValues.reserveCapacity(capacity)
        transforms.reserveCapacity(capacity)
        sublayerTransforms.reserveCapacity(capacity)
        flags.reserveCapacity(capacity)
        autoresizingMasks.reserveCapacity(capacity)
        attributes.reserveCapacity(capacity)
    }
}
