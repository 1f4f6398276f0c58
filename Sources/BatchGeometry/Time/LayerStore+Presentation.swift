// Putting one sample's presentation values into a layer store (docs/ANIMATION.md section
// 10): the store then stands for the presentation tree, and every query of the package
// answers for it with its usual cost.

extension LayerStore {
    /// Writes `presentation`'s values into this store's columns, as a presentation tree
    /// (docs/ANIMATION.md section 10): of each animated layer, the properties the
    /// animations wrote (bounds, position, anchorPoint, zPosition, anchorPointZ, opacity,
    /// transform, sublayerTransform).
    /// Unlike the setters, a new bounds size autoresizes nothing (autoresizing is a
    /// model-side effect); every cache follows the changes as after a setter, so the
    /// next `updateWorld()` is incremental. Only properties that differ are written.
    ///
    /// Call it on a copy of the model (`copy()`), or on a presentation store kept across
    /// frames after `restoreModelValues(of:from:)` undid the previous sample. O(animated layers); allocates nothing. A slot that is
    /// not live in this store is skipped.
    public mutating func applyPresentation(_ presentation: PresentationValues) {
        let layers = presentation.layers
        for k in 0..<layers.count {
            if k + Self.presentationLookahead < layers.count {
                prefetchPresentedColumns(of: layers[k + Self.presentationLookahead])
            }
            let layer = layers[k]
            guard isLiveSlot(layer) else { continue }
            applyPresentationEntry(k, of: presentation, at: layer)
        }
    }

    /// Puts `model`'s values back into this store for the properties `presentation`
    /// wrote: the undo of `applyPresentation(_:)`, so that one presentation store can
    /// follow a frame loop (restore the previous sample, sample, apply) without copying
    /// the model each frame. Only properties that differ are written. O(animated layers);
    /// allocates nothing. A slot that is not live in both stores is skipped.
    public mutating func restoreModelValues(of presentation: PresentationValues, from model: borrowing LayerStore) {
        let layers = presentation.layers
        for k in 0..<layers.count {
            if k + Self.presentationLookahead < layers.count {
                let ahead = layers[k + Self.presentationLookahead]
                prefetchPresentedColumns(of: ahead)
                model.prefetchPresentedColumns(of: ahead)
            }
            let layer = layers[k]
            guard isLiveSlot(layer) && model.isLiveSlot(layer) else { continue }
            restoreModelEntry(presentation.touched[k], from: model, at: layer)
        }
    }

    // The animated layers are scattered (a card every hundred slots), and one entry's
    // restore or apply reads some twenty cache lines across the columns and caches in a
    // chain of dependent setters: hinting the lines of the entry `presentationLookahead`
    // ahead overlaps their misses. Hints only: no effect on what is written.
    static let presentationLookahead = 8

    /// Hints the lines a restore or an apply of `layer` reads first: its slot's
    /// generation, position, transform kind and scale, change marks, box state and drift
    /// reference. O(1).
    @inline(__always)
    func prefetchPresentedColumns(of layer: Int) {
        prefetchElement(hierarchy.generations, layer)
        prefetchElement(columns.positionX, layer)
        prefetchElement(columns.positionY, layer)
        prefetchElement(columns.transforms.kind, layer)
        prefetchElement(columns.transforms.a, layer)
        prefetchElement(columns.transforms.d, layer)
        prefetchElement(caches.changes.dirtyStates, layer)
        prefetchElement(caches.subtreeBounds.state, layer)
        prefetchElement(caches.subtreeBounds.drift.references, layer)
    }

    // Both directions read and write only the properties written (a `PresentationLayer`
    // made for the other six cost two 4×4 reads, a cache miss per column: ~0.5 µs a layer).

    /// Writes the properties entry `k` of `presentation` holds that differ from this store's.
    private mutating func applyPresentationEntry(_ k: Int, of presentation: PresentationValues, at layer: Int) {
        let written = presentation.touched[k]
        if written.contains(.bounds) { writePresentedBounds(presentation.boundsColumn[k], of: layer) }
        if written.contains(.position) { writePresentedPosition(presentation.positionColumn[k], of: layer) }
        if written.contains(.anchorPoint) { writePresentedAnchorPoint(presentation.anchorPointColumn[k], of: layer) }
        if written.contains(.zPosition) { writePresentedZPosition(presentation.zPositionColumn[k], of: layer) }
        if written.contains(.anchorPointZ) {
            writePresentedAnchorPointZ(presentation.anchorPointZColumn[k], of: layer)
        }
        if written.contains(.opacity) { writePresentedOpacity(presentation.opacityColumn[k], of: layer) }
        if written.contains(.transform) { writePresentedTransform(presentation.transform(at: k), of: layer) }
        if written.contains(.sublayerTransform) {
            writePresentedSublayerTransform(presentation.sublayerTransformColumn[k], of: layer)
        }
    }

    /// Writes `model`'s values of the `written` properties that differ from this store's.
    private mutating func restoreModelEntry(
        _ written: PresentationProperties, from model: borrowing LayerStore, at layer: Int
    ) {
        if written.contains(.bounds) { writePresentedBounds(model.bounds(of: layer), of: layer) }
        if written.contains(.position) { writePresentedPosition(model.position(of: layer), of: layer) }
        if written.contains(.anchorPoint) { writePresentedAnchorPoint(model.anchorPoint(of: layer), of: layer) }
        if written.contains(.zPosition) { writePresentedZPosition(model.zPosition(of: layer), of: layer) }
        if written.contains(.anchorPointZ) { writePresentedAnchorPointZ(model.anchorPointZ(of: layer), of: layer) }
        if written.contains(.opacity) { writePresentedOpacity(model.opacity(of: layer), of: layer) }
        if written.contains(.transform) {
            writePresentedTransform(Self.stored(model.columns.transforms, at: layer), of: layer)
        }
        if written.contains(.sublayerTransform) {
            writePresentedSublayerTransform(Self.stored(model.columns.sublayerTransforms, at: layer), of: layer)
        }
    }

    /// Bounds without the setter's autoresizing (a model-side effect), when they differ.
    private mutating func writePresentedBounds(_ value: Rect, of layer: Int) {
        guard value != bounds(of: layer) else { return }
        columns.boundsX[layer] = value.x
        columns.boundsY[layer] = value.y
        columns.boundsWidth[layer] = value.width
        columns.boundsHeight[layer] = value.height
        noteChange(layer, .geometry)
    }

    private mutating func writePresentedPosition(_ value: Point, of layer: Int) {
        if value != position(of: layer) { setPosition(value, of: layer) }
    }

    private mutating func writePresentedAnchorPoint(_ value: Point, of layer: Int) {
        if value != anchorPoint(of: layer) { setAnchorPoint(value, of: layer) }
    }

    private mutating func writePresentedZPosition(_ value: Double, of layer: Int) {
        if value != zPosition(of: layer) { setZPosition(value, of: layer) }
    }

    private mutating func writePresentedAnchorPointZ(_ value: Double, of layer: Int) {
        if value != anchorPointZ(of: layer) { setAnchorPointZ(value, of: layer) }
    }

    private mutating func writePresentedOpacity(_ value: Float, of layer: Int) {
        if value != opacity(of: layer) { setOpacity(value, of: layer) }
    }

    private mutating func writePresentedTransform(_ value: Transform3D, of layer: Int) {
        if !Self.holds(value, columns.transforms, at: layer) { setTransform(value, of: layer) }
    }

    private mutating func writePresentedSublayerTransform(_ value: Transform3D, of layer: Int) {
        if !Self.holds(value, columns.sublayerTransforms, at: layer) { setSublayerTransform(value, of: layer) }
    }

    // A transform read is seven columns (six affine, the kind) and, once a store holds a
    // non-affine transform, two more lines: a cache miss each for a scattered layer. The
    // kind, one byte, settles the common cases (an identity model, a kind that changed).

    /// The transform `columns` holds at `layer`, without reading the matrix when its kind
    /// is identity.
    @inline(__always)
    private static func stored(_ columns: borrowing TransformColumns, at layer: Int) -> Transform3D {
        columns.kind(at: layer) == .identity ? .identity : columns[layer]
    }

    /// Whether `columns` holds `value` at `layer` (`==`, as the setters compare): the kinds
    /// first, which equal values share (`Transform3D.kind` compares with `==`).
    @inline(__always)
    private static func holds(_ value: Transform3D, _ columns: borrowing TransformColumns, at layer: Int) -> Bool {
        let kind = value.kind
        guard columns.kind(at: layer) == kind else { return false }
        return kind == .identity || value == columns[layer]
    }
}
