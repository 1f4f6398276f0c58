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
    /// frames after `restoreModelValues(of:from:)` undid the previous sample (or use
    /// `updatePresentation(from:to:model:)`, both in one pass). O(animated layers);
    /// allocates nothing. A slot that is not live in this store is skipped.
    public mutating func applyPresentation(_ presentation: PresentationValues) {
        let layers = presentation.layers
        for k in 0..<layers.count {
            let ahead = k + Self.presentationLookahead
            if ahead < layers.count { prefetchPresentedColumns(of: layers[ahead], presentation.touched[ahead]) }
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
            let ahead = k + Self.presentationLookahead
            if ahead < layers.count {
                prefetchPresentedColumns(of: layers[ahead], presentation.touched[ahead])
                model.prefetchModelColumns(of: layers[ahead], presentation.touched[ahead])
            }
            let layer = layers[k]
            guard isLiveSlot(layer) && model.isLiveSlot(layer) else { continue }
            restoreModelEntry(presentation.touched[k], from: model, at: layer)
        }
    }

    /// Moves this presentation store from sample `previous` to sample `next` of `model`:
    /// the result of `restoreModelValues(of: previous, from: model)` then
    /// `applyPresentation(next)` (the same column values by `==`, frame-query and hit-test
    /// answers),
    /// in one pass that writes each property once. A property both samples wrote gets
    /// `next`'s value, written only when it differs from the store's; a property only
    /// `previous` wrote gets `model`'s value back (when the slot is live in both stores);
    /// the others are left as they are.
    ///
    /// The frame loop keeps two `PresentationValues`, swaps them, samples into one and
    /// calls this with both (docs/ANIMATION.md section 10). Between frames the host gives
    /// this store the model's edits too, as the same setter calls, before or after them
    /// on the model: an edit of a property that a sample wrote is overwritten here (by
    /// `next`'s value, or the model's), so it counts only where no sample writes it.
    /// Unlike after a restore, such an edit lands on the previous sample's value: a
    /// setter whose effect depends on the value it replaces (`setBounds` autoresizes the
    /// sublayers by the change of size) gives another result on a layer whose bounds
    /// `previous` wrote, so for that edit restore and apply instead.
    ///
    /// A slot not live in this store is skipped, as by the two calls. O(entries of both
    /// samples); allocates nothing.
    public mutating func updatePresentation(
        from previous: PresentationValues, to next: PresentationValues, model: borrowing LayerStore
    ) {
        restoreModelValues(of: previous, notIn: next, from: model)
        applyPresentation(next)
    }

    /// Restores from `model` the properties `previous` wrote and `next` does not.
    private mutating func restoreModelValues(
        of previous: PresentationValues, notIn next: PresentationValues, from model: borrowing LayerStore
    ) {
        let layers = previous.layers
        for k in 0..<layers.count {
            let ahead = k + Self.presentationLookahead
            if ahead < layers.count {
                let gone = Self.propertiesGone(at: ahead, of: previous, in: next)
                if !gone.isEmpty {
                    prefetchPresentedColumns(of: layers[ahead], gone)
                    model.prefetchModelColumns(of: layers[ahead], gone)
                }
            }
            let gone = Self.propertiesGone(at: k, of: previous, in: next)
            let layer = layers[k]
            guard !gone.isEmpty && isLiveSlot(layer) && model.isLiveSlot(layer) else { continue }
            restoreModelEntry(gone, from: model, at: layer)
        }
    }

    /// The properties entry `k` of `previous` wrote that `next` does not write on its
    /// layer. O(1): a frame's entries mostly come in the previous one's order, so the
    /// same entry of `next` is tried before its slot map (a cache miss per layer).
    @inline(__always)
    private static func propertiesGone(
        at k: Int, of previous: PresentationValues, in next: PresentationValues
    ) -> PresentationProperties {
        let layer = previous.layers[k]
        let written = previous.touched[k]
        if k < next.layers.count && next.layers[k] == layer { return written.subtracting(next.touched[k]) }
        return written.subtracting(next.properties(ofLayerAt: layer))
    }

    // The animated layers are scattered (a card every hundred slots), and one entry's
    // restore or apply reads some twenty cache lines across the columns and caches in a
    // chain of dependent setters: hinting the lines of the entry `presentationLookahead`
    // ahead overlaps their misses. Hints only: no effect on what is written.
    static let presentationLookahead = 8

    /// Hints the lines of this store that writing `properties` of `layer` reads first:
    /// its slot's generation, the properties' columns (position; transform kind and
    /// scale; opacity with the view rule's inputs) and, for a geometric one, the caches
    /// the setters note changes in (change marks, box state, drift reference). O(1).
    @inline(__always)
    func prefetchPresentedColumns(of layer: Int, _ properties: PresentationProperties) {
        prefetchModelColumns(of: layer, properties)
        if properties.contains(.opacity) {
            prefetchElement(columns.attributes.interactionEnabled, layer)
            prefetchElement(columns.flags, layer)
        }
        guard properties != .opacity else { return }
        prefetchElement(caches.changes.dirtyStates, layer)
        prefetchElement(caches.subtreeBounds.state, layer)
        prefetchElement(caches.subtreeBounds.drift.referenceSlots, layer)
    }

    /// Hints the lines of this store that reading `properties` of `layer` reads first:
    /// its slot's generation and the properties' columns (no cache: a model is only read).
    /// O(1).
    @inline(__always)
    func prefetchModelColumns(of layer: Int, _ properties: PresentationProperties) {
        prefetchElement(hierarchy.generations, layer)
        if properties.contains(.position) {
            prefetchElement(columns.positionX, layer)
            prefetchElement(columns.positionY, layer)
        }
        if properties.contains(.transform) {
            prefetchElement(columns.transforms.kind, layer)
            prefetchElement(columns.transforms.a, layer)
            prefetchElement(columns.transforms.d, layer)
        }
        if properties.contains(.opacity) { prefetchElement(columns.attributes.opacities, layer) }
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
        if written.contains(.transform) { writePresentedTransform(entry: k, of: presentation, at: layer) }
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
        guard
            value
                != Rect(
                    x: columns.boundsX[layer], y: columns.boundsY[layer], width: columns.boundsWidth[layer],
                    height: columns.boundsHeight[layer])
        else { return }
        columns.boundsX[layer] = value.x
        columns.boundsY[layer] = value.y
        columns.boundsWidth[layer] = value.width
        columns.boundsHeight[layer] = value.height
        noteChange(layer, .geometry)
    }

    // The writers read this store's columns, not its getters: a non-mutating getter
    // called from a mutating method copied the whole store (1,240 bytes, a `memcpy` of
    // ~150 instructions) for each position and opacity entry.

    private mutating func writePresentedPosition(_ value: Point, of layer: Int) {
        if value != Point(x: columns.positionX[layer], y: columns.positionY[layer]) { setPosition(value, of: layer) }
    }

    private mutating func writePresentedAnchorPoint(_ value: Point, of layer: Int) {
        if value != Point(x: columns.anchorX[layer], y: columns.anchorY[layer]) { setAnchorPoint(value, of: layer) }
    }

    private mutating func writePresentedZPosition(_ value: Double, of layer: Int) {
        if value != columns.zValues.zPosition(at: layer) { setZPosition(value, of: layer) }
    }

    private mutating func writePresentedAnchorPointZ(_ value: Double, of layer: Int) {
        if value != columns.zValues.anchorPointZ(at: layer) { setAnchorPointZ(value, of: layer) }
    }

    private mutating func writePresentedOpacity(_ value: Float, of layer: Int) {
        if value != columns.attributes.opacities[layer] { setOpacity(value, of: layer) }
    }

    private mutating func writePresentedTransform(_ value: Transform3D, of layer: Int) {
        if !Self.holds(value, columns.transforms, at: layer) { setTransform(value, of: layer) }
    }

    /// `writePresentedTransform(presentation.transform(at: k), of: layer)` with the
    /// setter's steps inlined (`setTransform`'s own, in its order, so the same bits and
    /// marks): the matrix, made here from a value function's numbers or read from the
    /// sample, stays in this frame instead of being passed down three calls. A planar value
    /// function (the cards' `transform.scale`) makes no matrix at all.
    @inline(never)
    private mutating func writePresentedTransform(entry k: Int, of presentation: PresentationValues, at layer: Int) {
        if let keyPath = presentation.transformFunctionColumn[k] {
            let v = presentation.transformArgumentColumn[k]
            if let planar = keyPath.planarValueFunction(v[0], v[1]) {
                writePresentedTransform(planar, of: layer)
                return
            }
        }
        let value = presentation.transform(at: k)
        guard !Self.holds(value, columns.transforms, at: layer) else { return }
        checkIndexForUpdate(layer)
        columns.transforms.store(value, at: layer)
        noteChange(layer, .localTransform)
        noteTransformDrift(layer, to: value)
    }

    /// `writePresentedTransform(value.matrix, of: layer)` without the 4×4 (a planar value
    /// function, the cards' `transform.scale`): the same comparison by `==`, the same
    /// column bits and kind (`TransformColumns.store(_:kind:at:)`), change mark and drift
    /// note as `setTransform`, in its order. O(1).
    @inline(__always)
    private mutating func writePresentedTransform(_ value: PlanarTransform, of layer: Int) {
        let kind = value.kind
        guard !columns.transforms.holds(value, kind: kind, at: layer) else { return }
        checkIndexForUpdate(layer)
        columns.transforms.store(value, kind: kind, at: layer)
        noteChange(layer, .localTransform)
        if caches.subtreeBounds.isBuilt { noteTransformDrift(layer, planeScale: value.planeScale) }
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
