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

    /// The 1, 2 or 4 numbers at a vector key path, in the low lanes (the rest 0).
    func vector(at keyPath: AnimationKeyPath) -> SIMD4<Double> {
        switch keyPath {
        case .position: return SIMD4(position.x, position.y, 0, 0)
        case .positionX: return SIMD4(position.x, 0, 0, 0)
        case .positionY: return SIMD4(position.y, 0, 0, 0)
        case .bounds: return SIMD4(bounds.x, bounds.y, bounds.width, bounds.height)
        case .boundsOrigin: return SIMD4(bounds.x, bounds.y, 0, 0)
        case .boundsSize: return SIMD4(bounds.width, bounds.height, 0, 0)
        case .anchorPoint: return SIMD4(anchorPoint.x, anchorPoint.y, 0, 0)
        case .zPosition: return SIMD4(zPosition, 0, 0, 0)
        case .anchorPointZ: return SIMD4(anchorPointZ, 0, 0, 0)
        case .opacity: return SIMD4(Double(opacity), 0, 0, 0)
        default: preconditionFailure("\(keyPath.rawValue) is not a vector key path")
        }
    }

    /// Writes the numbers of a vector key path (opacity rounded to a float).
    mutating func setVector(_ v: SIMD4<Double>, at keyPath: AnimationKeyPath) {
        switch keyPath {
        case .position: position = Point(x: v[0], y: v[1])
        case .positionX: position.x = v[0]
        case .positionY: position.y = v[0]
        case .bounds: bounds = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        case .boundsOrigin: bounds.origin = Point(x: v[0], y: v[1])
        case .boundsSize: bounds.size = Size(width: v[0], height: v[1])
        case .anchorPoint: anchorPoint = Point(x: v[0], y: v[1])
        case .zPosition: zPosition = v[0]
        case .anchorPointZ: anchorPointZ = v[0]
        case .opacity: opacity = Float(v[0])
        default: preconditionFailure("\(keyPath.rawValue) is not a vector key path")
        }
    }
}

/// The presentation values of one sample: for each layer that an animation touched at
/// that sample (in the order first touched), its animatable properties — the model
/// values with the animations applied in the order added. Layers no animation touched
/// are absent: their presentation is the model. Filled by `AnimationStore.sample(at:model:into:)`,
/// which reuses the storage: once warm, a sample allocates nothing.
public struct PresentationValues: Sendable {
    /// The slots of the animated layers (`LayerHandle.index`), first-touched first.
    public private(set) var layers: [Int] = []
    /// `values[i]` belongs to `layers[i]`.
    public internal(set) var values: [PresentationLayer] = []
    /// Per layer slot, its entry in `layers`, or −1; grown to the model's slot count.
    private var entries: [Int32] = []

    /// An empty set of values.
    public init() {}

    /// The number of animated layers.
    public var count: Int { layers.count }

    /// The presentation values of the layer in `slot`, or nil when no animation touched
    /// it at this sample (its presentation is its model). O(1).
    public func values(ofLayerAt slot: Int) -> PresentationLayer? {
        guard slot >= 0 && slot < entries.count, entries[slot] >= 0 else { return nil }
        return values[Int(entries[slot])]
    }

    /// `values(ofLayerAt: layer.index)`. O(1).
    public func values(of layer: LayerHandle) -> PresentationLayer? { values(ofLayerAt: layer.index) }

    /// Forgets the previous sample (O(layers it had)) and sizes the slot map for `slotCount`.
    mutating func reset(slotCount: Int) {
        for k in 0..<layers.count { entries[layers[k]] = -1 }
        layers.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        if entries.count < slotCount {
            entries.append(contentsOf: repeatElement(-1, count: slotCount - entries.count))
        }
    }

    /// The entry of `layer`, made from the model values when the layer is new to this
    /// sample. O(1) amortized.
    mutating func entry(for layer: Int, model: borrowing LayerStore) -> Int {
        let existing = entries[layer]
        if existing >= 0 { return Int(existing) }
        entries[layer] = Int32(layers.count)
        layers.append(layer)
        values.append(PresentationLayer(model: model, layer: layer))
        return layers.count - 1
    }

}
