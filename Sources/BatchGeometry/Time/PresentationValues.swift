// What one sample of the animations produces (docs/ANIMATION.md sections 9, 10): the
// presentation values of the animated layers only, readable per layer and in batch. The
// model store is never written; `LayerStore.applyPresentation(_:)` puts the values into
// a store that stands for the presentation tree.

/// The animatable properties of one layer as shown at a sample time.
public struct PresentationLayer: Hashable, Sendable {
    /// Bounds, points (origin and size animate separately through `bounds.origin`/`.size`).
    public var bounds: Rect
    /// Position in the superlayer's space, points.
    public var position: Point
    /// Anchor point, unit coordinates of the bounds.
    public var anchorPoint: Point
    /// z position, points.
    public var zPosition: Double
    /// The anchor point's z, points.
    public var anchorPointZ: Double
    /// A 32-bit float, as `CALayer.opacity`: every animated write rounds.
    public var opacity: Float
    /// The layer's transform (whole-matrix and value-function key paths write it).
    public var transform: Transform3D
    /// The transform applied to the sublayers.
    public var sublayerTransform: Transform3D

    /// The model values of `layer` (a live slot of `store`). O(1).
    init(model store: borrowing LayerStore, layer: Int) {
        bounds = store.bounds(of: layer)
        position = store.position(of: layer)
        anchorPoint = store.anchorPoint(of: layer)
        zPosition = store.zPosition(of: layer)
        anchorPointZ = store.anchorPointZ(of: layer)
        opacity = store.opacity(of: layer)
        transform = store.transform(of: layer)
        sublayerTransform = store.sublayerTransform(of: layer)
    }
}

/// Which animatable properties of a layer the animations wrote at a sample (each key
/// path writes one: `position.x` writes `position`, `transform.scale` writes `transform`).
public struct PresentationProperties: OptionSet, Hashable, Sendable {
    /// One bit per property, in the order below.
    public let rawValue: UInt8
    /// Makes a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `bounds`, `bounds.origin`, `bounds.size`.
    public static let bounds = PresentationProperties(rawValue: 1)
    /// `position`, `position.x`, `position.y`.
    public static let position = PresentationProperties(rawValue: 2)
    /// `anchorPoint`.
    public static let anchorPoint = PresentationProperties(rawValue: 4)
    /// `zPosition`.
    public static let zPosition = PresentationProperties(rawValue: 8)
    /// `anchorPointZ`.
    public static let anchorPointZ = PresentationProperties(rawValue: 16)
    /// `opacity`.
    public static let opacity = PresentationProperties(rawValue: 32)
    /// `transform` and the value-function key paths (`transform.rotation`, ...).
    public static let transform = PresentationProperties(rawValue: 64)
    /// `sublayerTransform`.
    public static let sublayerTransform = PresentationProperties(rawValue: 128)
}

/// The presentation values of one sample: for each layer that an animation touched at
/// that sample (in the order first touched), the properties the animations wrote — the
/// model values with the animations applied in the order added. Layers no animation
/// touched are absent, and so are the properties no animation wrote: their presentation
/// is the model's. A sample reads from the model only the properties it writes, so its
/// cost does not grow with what a layer has but with what is animated.
///
/// Filled by `AnimationStore.sample(at:model:into:)`, which reuses the storage: once warm,
/// a sample allocates nothing. Read a layer's whole presentation with
/// `values(of:model:)` (the model fills in what no animation wrote).
public struct PresentationValues: Sendable {
    /// The slots of the animated layers (`LayerHandle.index`), first-touched first.
    public internal(set) var layers: [Int] = []
    /// Per entry (parallel to `layers`), the properties written.
    var touched: [PresentationProperties] = []
    /// Per layer slot, its entry in `layers`, or −1; grown to the model's slot count.
    var entries: [Int32] = []
    // Per entry, one column per property: a cell holds a value only while its property
    // is in the entry's `touched` set. The columns only grow (to the most entries any
    // sample had), so a new entry writes nothing but its `touched` set.
    var boundsColumn: [Rect] = []
    var positionColumn: [Point] = []
    var anchorPointColumn: [Point] = []
    var zPositionColumn: [Double] = []
    var anchorPointZColumn: [Double] = []
    var opacityColumn: [Float] = []
    var transformColumn: [Transform3D] = []
    var sublayerTransformColumn: [Transform3D] = []
    /// Per entry whose transform is written: the value-function key path whose matrix it
    /// is, made when read from its numbers in `transformArgumentColumn`; nil when
    /// `transformColumn` holds the matrix. A value function writes 17 bytes, not a 4×4
    /// (128 bytes, a write-allocated cache line pair per animated layer), and makes no
    /// matrix the reader may not need; the matrix read is the same function of the same
    /// numbers, so the same bits.
    var transformFunctionColumn: [AnimationKeyPath?] = []
    var transformArgumentColumn: [SIMD2<Double>] = []
    /// The lane layout (`AnimationLanes.layout`) whose slot map, `layers` and `touched`
    /// the values hold from the sample that wrote them, or 0: the sample through those
    /// lanes rewrites only the cells (Benchmarks/KERNELS.md, "The lane layout kept").
    /// Every other writer calls `reset(slotCount:)` first, which clears it.
    var laneLayout: UInt64 = 0
    /// What `reserveCells` appends as the room for new entries (grown to the largest room).
    private var placeholderLayers: [Int] = []
    private var placeholderTouched: [PresentationProperties] = []

    /// An empty set of values.
    public init() {}

    /// The number of animated layers.
    public var count: Int { layers.count }

    /// The properties the animations wrote on the layer in `slot` at this sample (empty
    /// when none touched it). O(1).
    public func properties(ofLayerAt slot: Int) -> PresentationProperties {
        guard slot >= 0 && slot < entries.count, entries[slot] >= 0 else { return [] }
        return touched[Int(entries[slot])]
    }

    /// `properties(ofLayerAt: layer.index)`. O(1).
    public func properties(of layer: LayerHandle) -> PresentationProperties { properties(ofLayerAt: layer.index) }

    /// The presentation values of the layer in `slot` — `model`'s values (the store
    /// sampled) with the properties the animations wrote replaced — or nil when no
    /// animation touched it at this sample (its presentation is its model) or `slot` is
    /// not a slot of `model` (not the store sampled). O(1).
    public func values(ofLayerAt slot: Int, model: borrowing LayerStore) -> PresentationLayer? {
        guard slot >= 0 && slot < entries.count && slot < model.count, entries[slot] >= 0 else { return nil }
        let entry = Int(entries[slot])
        var result = PresentationLayer(model: model, layer: slot)
        let written = touched[entry]
        if written.contains(.bounds) { result.bounds = boundsColumn[entry] }
        if written.contains(.position) { result.position = positionColumn[entry] }
        if written.contains(.anchorPoint) { result.anchorPoint = anchorPointColumn[entry] }
        if written.contains(.zPosition) { result.zPosition = zPositionColumn[entry] }
        if written.contains(.anchorPointZ) { result.anchorPointZ = anchorPointZColumn[entry] }
        if written.contains(.opacity) { result.opacity = opacityColumn[entry] }
        if written.contains(.transform) { result.transform = transform(at: entry) }
        if written.contains(.sublayerTransform) { result.sublayerTransform = sublayerTransformColumn[entry] }
        return result
    }

    /// `values(ofLayerAt: layer.index, model: model)`. O(1).
    public func values(of layer: LayerHandle, model: borrowing LayerStore) -> PresentationLayer? {
        values(ofLayerAt: layer.index, model: model)
    }

    /// Forgets the previous sample (O(layers it had)) and sizes the slot map for `slotCount`.
    mutating func reset(slotCount: Int) {
        laneLayout = 0
        if !layers.isEmpty {
            // Raw: an array write per layer was a bounds and a uniqueness check.
            let layers = self.layers
            withRawColumn(&entries) { e in
                withRawColumn(reading: layers) { l in
                    for k in 0..<layers.count { e[l[k]] = -1 }
                }
            }
        }
        layers.removeAll(keepingCapacity: true)
        touched.removeAll(keepingCapacity: true)
        if entries.count < slotCount {
            entries.append(contentsOf: repeatElement(-1, count: slotCount - entries.count))
        }
    }

    /// Makes room for `room` new entries before the composition loop opens the values raw
    /// (`withPresentationCells`): `layers` and `touched` get `room` placeholder elements
    /// past the entries (within reserved capacity once warm), the property columns at
    /// least `count + room` cells. `finishCells` cuts the placeholders off. The
    /// placeholders are made once for `most` (at least `room`: the largest room any sample
    /// of the same animations asks for), so that a culled sample showing more animations
    /// than the earlier ones does not remake them. O(room).
    mutating func reserveCells(room: Int, most: Int = 0) {
        let entryCount = layers.count
        // Copied from slices of placeholder arrays (a copy of contiguous memory): one by
        // one cost ~40 instructions a sample, and `repeatElement` read each element through
        // a coroutine that the debug build allocates.
        if placeholderLayers.count < room {
            // Sized to the room asked for alone, they were remade (two allocations) in the
            // first frame whose culled sample showed more animations than any before.
            let count = Swift.max(room, most)
            placeholderLayers = Array(repeating: 0, count: count)
            placeholderTouched = Array(repeating: [], count: count)
        }
        layers.append(contentsOf: placeholderLayers[0..<room])
        touched.append(contentsOf: placeholderTouched[0..<room])
        let needed = entryCount + room
        guard boundsColumn.count < needed else { return }
        let more = needed - boundsColumn.count
        boundsColumn.append(contentsOf: repeatElement(Rect(x: 0, y: 0, width: 0, height: 0), count: more))
        positionColumn.append(contentsOf: repeatElement(Point(x: 0, y: 0), count: more))
        anchorPointColumn.append(contentsOf: repeatElement(Point(x: 0, y: 0), count: more))
        zPositionColumn.append(contentsOf: repeatElement(0, count: more))
        anchorPointZColumn.append(contentsOf: repeatElement(0, count: more))
        opacityColumn.append(contentsOf: repeatElement(0, count: more))
        transformColumn.append(contentsOf: repeatElement(.identity, count: more))
        sublayerTransformColumn.append(contentsOf: repeatElement(.identity, count: more))
        transformFunctionColumn.append(contentsOf: repeatElement(nil, count: more))
        transformArgumentColumn.append(contentsOf: repeatElement(SIMD2(0, 0), count: more))
    }

    /// After `reset(slotCount:)`: the entries of a lane layout, in entry order — `slots`
    /// and `written` become `layers` and `touched` (two copies of contiguous memory), the
    /// slot map points at them, the property columns have a cell each, and `laneLayout`
    /// is `layout`. The same entries the strided per-group writes made. O(entries).
    mutating func setLaneLayout(_ layout: UInt64, slots: [Int], written: [PresentationProperties]) {
        layers.append(contentsOf: slots)
        touched.append(contentsOf: written)
        if !slots.isEmpty {
            withRawColumn(&entries) { e in
                withRawColumn(reading: slots) { s in
                    for k in 0..<slots.count { e[s[k]] = Int32(k) }
                }
            }
        }
        reserveCells(room: 0)
        laneLayout = layout
    }

    /// Keeps the first `count` entries of `layers` and `touched` (those the loop wrote)
    /// and drops the placeholders `reserveCells` added. O(placeholders), no allocation.
    mutating func finishCells(count: Int) {
        layers.removeLast(layers.count - count)
        touched.removeLast(touched.count - count)
    }

    /// The transform of `entry` (written): the matrix stored, or the value function's
    /// matrix made now. O(1). Inlined: the apply keeps the matrix in its frame.
    @inline(__always)
    func transform(at e: Int) -> Transform3D {
        guard let keyPath = transformFunctionColumn[e] else { return transformColumn[e] }
        let v = transformArgumentColumn[e]
        return keyPath.valueFunctionMatrix(v[0], v[1])
    }
}

extension AnimationKeyPath {
    /// The layer property the key path writes.
    var presentationProperty: PresentationProperties {
        switch self {
        case .position, .positionX, .positionY: return .position
        case .bounds, .boundsOrigin, .boundsSize: return .bounds
        case .anchorPoint: return .anchorPoint
        case .zPosition: return .zPosition
        case .anchorPointZ: return .anchorPointZ
        case .opacity: return .opacity
        case .sublayerTransform: return .sublayerTransform
        default: return .transform
        }
    }

    /// Whether a value of the key path replaces the whole property (so the model's value
    /// need not be read under a non-additive animation): not `position.x`, `bounds.size`, ...
    var writesWholeProperty: Bool {
        switch self {
        case .position, .bounds, .anchorPoint, .zPosition, .anchorPointZ, .opacity, .transform, .sublayerTransform:
            return true
        default: return false
        }
    }
}
