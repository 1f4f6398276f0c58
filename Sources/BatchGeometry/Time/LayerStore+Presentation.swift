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
        for k in 0..<presentation.layers.count {
            let layer = presentation.layers[k]
            guard isLiveSlot(layer), let values = presentation.values(ofLayerAt: layer, model: self) else { continue }
            applyPresentationLayer(values, properties: presentation.touched[k], at: layer)
        }
    }

    /// Puts `model`'s values back into this store for the properties `presentation`
    /// wrote: the undo of `applyPresentation(_:)`, so that one presentation store can
    /// follow a frame loop (restore the previous sample, sample, apply) without copying
    /// the model each frame. Only properties that differ are written. O(animated layers);
    /// allocates nothing. A slot that is not live in both stores is skipped.
    public mutating func restoreModelValues(of presentation: PresentationValues, from model: borrowing LayerStore) {
        for k in 0..<presentation.layers.count {
            let layer = presentation.layers[k]
            guard isLiveSlot(layer) && model.isLiveSlot(layer) else { continue }
            applyPresentationLayer(
                PresentationLayer(model: model, layer: layer), properties: presentation.touched[k], at: layer)
        }
    }

    /// Writes the `properties` of `values` that differ from this store's.
    private mutating func applyPresentationLayer(
        _ values: PresentationLayer, properties: PresentationProperties, at layer: Int
    ) {
        if properties.contains(.bounds) && values.bounds != bounds(of: layer) {
            columns.boundsX[layer] = values.bounds.x
            columns.boundsY[layer] = values.bounds.y
            columns.boundsWidth[layer] = values.bounds.width
            columns.boundsHeight[layer] = values.bounds.height
            noteChange(layer, .geometry)
        }
        if properties.contains(.position) && values.position != position(of: layer) {
            setPosition(values.position, of: layer)
        }
        if properties.contains(.anchorPoint) && values.anchorPoint != anchorPoint(of: layer) {
            setAnchorPoint(values.anchorPoint, of: layer)
        }
        if properties.contains(.zPosition) && values.zPosition != zPosition(of: layer) {
            setZPosition(values.zPosition, of: layer)
        }
        if properties.contains(.anchorPointZ) && values.anchorPointZ != anchorPointZ(of: layer) {
            setAnchorPointZ(values.anchorPointZ, of: layer)
        }
        if properties.contains(.opacity) && values.opacity != opacity(of: layer) {
            setOpacity(values.opacity, of: layer)
        }
        if properties.contains(.transform) && values.transform != transform(of: layer) {
            setTransform(values.transform, of: layer)
        }
        if properties.contains(.sublayerTransform) && values.sublayerTransform != sublayerTransform(of: layer) {
            setSublayerTransform(values.sublayerTransform, of: layer)
        }
    }
}
