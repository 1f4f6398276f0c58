// `PresentationValues` opened raw around the composition loop (`withPresentationCells`):
// each write of the slot map, the entry lists and the property cells was an array write
// with a uniqueness and a bounds check, and each new layer two appends. The cells are the
// same operations on the same values as the arrays' were, so the same bits.

/// The arrays of a `PresentationValues` by address, valid only inside
/// `withPresentationCells`: `layers` and `touched` hold `count` entries followed by the
/// room `reserveCells` made, the property columns as many cells; the slot map covers the
/// model's slots. Unchecked: the composition loop adds at most the room it reserved.
struct PresentationCells {
    let entries: RawColumn<Int32>
    let layers: RawColumn<Int>
    let touched: RawColumn<PresentationProperties>
    let bounds: RawColumn<Rect>
    let position: RawColumn<Point>
    let anchorPoint: RawColumn<Point>
    let zPosition: RawColumn<Double>
    let anchorPointZ: RawColumn<Double>
    let opacity: RawColumn<Float>
    let transform: RawColumn<Transform3D>
    let sublayerTransform: RawColumn<Transform3D>
    let transformFunction: RawColumn<AnimationKeyPath?>
    let transformArgument: RawColumn<SIMD2<Double>>
    /// The entries so far (new ones are written at `count`).
    var count: Int

    /// The entry of `layer`, new (nothing written) when the layer is new to this sample.
    @inline(__always)
    mutating func entry(for layer: Int) -> Int {
        let existing = entries[layer]
        if existing >= 0 { return Int(existing) }
        return add(layer, touched: [])
    }

    /// `entry(for: layer)` with `property` marked written, and whether it was written
    /// before (its cell holds the value underneath).
    @inline(__always)
    mutating func entry(for layer: Int, writing property: PresentationProperties) -> (entry: Int, loaded: Bool) {
        let existing = entries[layer]
        guard existing >= 0 else { return (add(layer, touched: property), false) }
        let entry = Int(existing)
        let written = touched[entry]
        if written.contains(property) { return (entry, true) }
        touched[entry] = written.union(property)
        return (entry, false)
    }

    /// A new entry for `layer` with `written` as its set (one write: not appended empty,
    /// then inserted).
    @inline(__always)
    private mutating func add(_ layer: Int, touched written: PresentationProperties) -> Int {
        let entry = count
        entries[layer] = Int32(entry)
        layers[entry] = layer
        touched[entry] = written
        count = entry + 1
        return entry
    }

    /// The transform of `entry` (written): the matrix stored, or the value function's
    /// matrix made now.
    @inline(__always)
    func transform(at e: Int) -> Transform3D {
        guard let keyPath = transformFunction[e] else { return transform[e] }
        let v = transformArgument[e]
        return keyPath.valueFunctionMatrix(v[0], v[1])
    }

    /// Writes the whole transform of `entry`.
    @inline(__always)
    func setTransform(_ matrix: Transform3D, entry e: Int) {
        transform[e] = matrix
        // Read first: a cell keeps its form from sample to sample (no write when it is
        // already a matrix).
        if transformFunction[e] != nil { transformFunction[e] = nil }
    }

    /// Writes the transform of `entry` as value function `keyPath`'s matrix for `v` and `w`
    /// (`AnimationKeyPath.valueFunctionMatrix`), kept as the numbers until read.
    @inline(__always)
    func setValueFunction(_ keyPath: AnimationKeyPath, _ v: Double, _ w: Double, entry e: Int) {
        transformArgument[e] = SIMD2(v, w)
        if transformFunction[e] != keyPath { transformFunction[e] = keyPath }
    }

    /// Marks `property` of `entry` written without reading the model: the caller writes
    /// the whole property next.
    @inline(__always)
    func willOverwrite(_ property: PresentationProperties, entry: Int) {
        touched[entry] = touched[entry].union(property)
    }

    /// Makes `property` of `entry` hold the value underneath the next animation: what an
    /// earlier animation wrote, else the model's value of `layer` (read now).
    @inline(__always)
    func load(_ property: PresentationProperties, entry: Int, layer: Int, model: borrowing LayerStore) {
        let written = touched[entry]
        guard !written.contains(property) else { return }
        touched[entry] = written.union(property)
        readModel(property, entry: entry, layer: layer, model: model)
    }

    /// Writes `model`'s value of `property` of `layer` into the cell of `entry`.
    @inline(__always)
    func readModel(_ property: PresentationProperties, entry: Int, layer: Int, model: borrowing LayerStore) {
        switch property {
        case .bounds: bounds[entry] = model.bounds(of: layer)
        case .position: position[entry] = model.position(of: layer)
        case .anchorPoint: anchorPoint[entry] = model.anchorPoint(of: layer)
        case .zPosition: zPosition[entry] = model.zPosition(of: layer)
        case .anchorPointZ: anchorPointZ[entry] = model.anchorPointZ(of: layer)
        case .opacity: opacity[entry] = model.opacity(of: layer)
        case .transform: setTransform(model.transform(of: layer), entry: entry)
        default: sublayerTransform[entry] = model.sublayerTransform(of: layer)
        }
    }

    /// The 1, 2 or 4 numbers of a vector key path of `entry` (loaded), in the low lanes.
    func vector(at keyPath: AnimationKeyPath, entry e: Int) -> SIMD4<Double> {
        switch keyPath {
        case .position: return SIMD4(position[e].x, position[e].y, 0, 0)
        case .positionX: return SIMD4(position[e].x, 0, 0, 0)
        case .positionY: return SIMD4(position[e].y, 0, 0, 0)
        case .bounds:
            let b = bounds[e]
            return SIMD4(b.x, b.y, b.width, b.height)
        case .boundsOrigin: return SIMD4(bounds[e].x, bounds[e].y, 0, 0)
        case .boundsSize: return SIMD4(bounds[e].width, bounds[e].height, 0, 0)
        case .anchorPoint: return SIMD4(anchorPoint[e].x, anchorPoint[e].y, 0, 0)
        case .zPosition: return SIMD4(zPosition[e], 0, 0, 0)
        case .anchorPointZ: return SIMD4(anchorPointZ[e], 0, 0, 0)
        case .opacity: return SIMD4(Double(opacity[e]), 0, 0, 0)
        default: preconditionFailure("\(keyPath.rawValue) is not a vector key path")
        }
    }

    /// Writes the numbers of a vector key path of `entry` (loaded, or wholly overwritten;
    /// opacity rounded to a float).
    func setVector(_ v: SIMD4<Double>, at keyPath: AnimationKeyPath, entry e: Int) {
        switch keyPath {
        case .position: position[e] = Point(x: v[0], y: v[1])
        case .positionX: position[e].x = v[0]
        case .positionY: position[e].y = v[0]
        case .bounds: bounds[e] = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        case .boundsOrigin: bounds[e].origin = Point(x: v[0], y: v[1])
        case .boundsSize: bounds[e].size = Size(width: v[0], height: v[1])
        case .anchorPoint: anchorPoint[e] = Point(x: v[0], y: v[1])
        case .zPosition: zPosition[e] = v[0]
        case .anchorPointZ: anchorPointZ[e] = v[0]
        case .opacity: opacity[e] = Float(v[0])
        default: preconditionFailure("\(keyPath.rawValue) is not a vector key path")
        }
    }
}
