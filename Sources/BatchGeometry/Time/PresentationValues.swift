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
    public private(set) var layers: [Int] = []
    /// Per entry (parallel to `layers`), the properties written.
    private(set) var touched: [PresentationProperties] = []
    /// Per layer slot, its entry in `layers`, or −1; grown to the model's slot count.
    private var entries: [Int32] = []
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
    private var transformFunctionColumn: [AnimationKeyPath?] = []
    private var transformArgumentColumn: [SIMD2<Double>] = []

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
        for k in 0..<layers.count { entries[layers[k]] = -1 }
        layers.removeAll(keepingCapacity: true)
        touched.removeAll(keepingCapacity: true)
        if entries.count < slotCount {
            entries.append(contentsOf: repeatElement(-1, count: slotCount - entries.count))
        }
    }

    /// The entry of `layer`, new (nothing written) when the layer is new to this sample.
    /// O(1) amortized.
    @inline(__always)
    mutating func entry(for layer: Int) -> Int {
        let existing = entries[layer]
        if existing >= 0 { return Int(existing) }
        let entry = layers.count
        entries[layer] = Int32(entry)
        layers.append(layer)
        touched.append([])
        if boundsColumn.count <= entry { growColumns() }
        return entry
    }

    /// `entry(for: layer)` with `property` marked written, and whether it was written
    /// before (its cell holds the value underneath). A new entry's set is appended with
    /// the property in it: one array write fewer than appending it empty, then inserting.
    /// O(1) amortized.
    @inline(__always)
    mutating func entry(for layer: Int, writing property: PresentationProperties) -> (entry: Int, loaded: Bool) {
        let existing = entries[layer]
        if existing >= 0 {
            let entry = Int(existing)
            if touched[entry].contains(property) { return (entry, true) }
            touched[entry].insert(property)
            return (entry, false)
        }
        let entry = layers.count
        entries[layer] = Int32(entry)
        layers.append(layer)
        touched.append(property)
        if boundsColumn.count <= entry { growColumns() }
        return (entry, false)
    }

    /// One more cell in every property column (only while a sample has more entries than
    /// any before).
    private mutating func growColumns() {
        boundsColumn.append(Rect(x: 0, y: 0, width: 0, height: 0))
        positionColumn.append(Point(x: 0, y: 0))
        anchorPointColumn.append(Point(x: 0, y: 0))
        zPositionColumn.append(0)
        anchorPointZColumn.append(0)
        opacityColumn.append(0)
        transformColumn.append(.identity)
        sublayerTransformColumn.append(.identity)
        transformFunctionColumn.append(nil)
        transformArgumentColumn.append(SIMD2(0, 0))
    }

    /// The transform of `entry` (written): the matrix stored, or the value function's
    /// matrix made now. O(1). Inlined: the apply keeps the matrix in its frame.
    @inline(__always)
    func transform(at e: Int) -> Transform3D {
        guard let keyPath = transformFunctionColumn[e] else { return transformColumn[e] }
        let v = transformArgumentColumn[e]
        return keyPath.valueFunctionMatrix(v[0], v[1])
    }

    /// Writes the whole transform of `entry`.
    @inline(__always)
    mutating func setTransform(_ matrix: Transform3D, entry e: Int) {
        transformColumn[e] = matrix
        // Read first: a cell keeps its form from sample to sample, and a read costs no
        // uniqueness check.
        if transformFunctionColumn[e] != nil { transformFunctionColumn[e] = nil }
    }

    /// Writes the transform of `entry` as value function `keyPath`'s matrix for `v` and `w`
    /// (`AnimationKeyPath.valueFunctionMatrix`), kept as the numbers until read.
    @inline(__always)
    mutating func setValueFunction(_ keyPath: AnimationKeyPath, _ v: Double, _ w: Double, entry e: Int) {
        transformArgumentColumn[e] = SIMD2(v, w)
        if transformFunctionColumn[e] != keyPath { transformFunctionColumn[e] = keyPath }
    }

    /// Marks `property` of `entry` written without reading the model: the caller writes
    /// the whole property next.
    @inline(__always)
    mutating func willOverwrite(_ property: PresentationProperties, entry: Int) {
        touched[entry].insert(property)
    }

    /// Makes `property` of `entry` hold the value underneath the next animation: what an
    /// earlier animation wrote, else the model's value of `layer` (read now). O(1).
    @inline(__always)
    mutating func load(
        _ property: PresentationProperties, entry: Int, layer: Int, model: borrowing LayerStore
    ) {
        guard !touched[entry].contains(property) else { return }
        touched[entry].insert(property)
        readModel(property, entry: entry, layer: layer, model: model)
    }

    /// Writes `model`'s value of `property` of `layer` into the cell of `entry`. O(1).
    @inline(__always)
    mutating func readModel(
        _ property: PresentationProperties, entry: Int, layer: Int, model: borrowing LayerStore
    ) {
        switch property {
        case .bounds: boundsColumn[entry] = model.bounds(of: layer)
        case .position: positionColumn[entry] = model.position(of: layer)
        case .anchorPoint: anchorPointColumn[entry] = model.anchorPoint(of: layer)
        case .zPosition: zPositionColumn[entry] = model.zPosition(of: layer)
        case .anchorPointZ: anchorPointZColumn[entry] = model.anchorPointZ(of: layer)
        case .opacity: opacityColumn[entry] = model.opacity(of: layer)
        case .transform: setTransform(model.transform(of: layer), entry: entry)
        default: sublayerTransformColumn[entry] = model.sublayerTransform(of: layer)
        }
    }

    /// The 1, 2 or 4 numbers of a vector key path of `entry` (loaded), in the low lanes.
    /// Mutating only so that a caller holding the values `inout` passes them in place (a
    /// non-mutating call copied the whole struct to the stack).
    mutating func vector(at keyPath: AnimationKeyPath, entry e: Int) -> SIMD4<Double> {
        switch keyPath {
        case .position: return SIMD4(positionColumn[e].x, positionColumn[e].y, 0, 0)
        case .positionX: return SIMD4(positionColumn[e].x, 0, 0, 0)
        case .positionY: return SIMD4(positionColumn[e].y, 0, 0, 0)
        case .bounds:
            let b = boundsColumn[e]
            return SIMD4(b.x, b.y, b.width, b.height)
        case .boundsOrigin: return SIMD4(boundsColumn[e].x, boundsColumn[e].y, 0, 0)
        case .boundsSize: return SIMD4(boundsColumn[e].width, boundsColumn[e].height, 0, 0)
        case .anchorPoint: return SIMD4(anchorPointColumn[e].x, anchorPointColumn[e].y, 0, 0)
        case .zPosition: return SIMD4(zPositionColumn[e], 0, 0, 0)
        case .anchorPointZ: return SIMD4(anchorPointZColumn[e], 0, 0, 0)
        case .opacity: return SIMD4(Double(opacityColumn[e]), 0, 0, 0)
        default: preconditionFailure("\(keyPath.rawValue) is not a vector key path")
        }
    }

    /// Writes the numbers of a vector key path of `entry` (loaded, or wholly overwritten;
    /// opacity rounded to a float).
    mutating func setVector(_ v: SIMD4<Double>, at keyPath: AnimationKeyPath, entry e: Int) {
        switch keyPath {
        case .position: positionColumn[e] = Point(x: v[0], y: v[1])
        case .positionX: positionColumn[e].x = v[0]
        case .positionY: positionColumn[e].y = v[0]
        case .bounds: boundsColumn[e] = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        case .boundsOrigin: boundsColumn[e].origin = Point(x: v[0], y: v[1])
        case .boundsSize: boundsColumn[e].size = Size(width: v[0], height: v[1])
        case .anchorPoint: anchorPointColumn[e] = Point(x: v[0], y: v[1])
        case .zPosition: zPositionColumn[e] = v[0]
        case .anchorPointZ: anchorPointZColumn[e] = v[0]
        case .opacity: opacityColumn[e] = Float(v[0])
        default: preconditionFailure("\(keyPath.rawValue) is not a vector key path")
        }
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
