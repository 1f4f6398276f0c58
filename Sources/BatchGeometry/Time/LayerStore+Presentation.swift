// Putting one sample's presentation values into a layer store (docs/ANIMATION.md section
// 10): the store then stands for the presentation tree, and every query of the package
// answers for it with its usual cost.

extension LayerStore {
    /// Writes `presentation`'s values into this store's columns, as a presentation tree
    /// (docs/ANIMATION.md section 10): bounds, position, anchorPoint, zPosition,
    /// anchorPointZ, opacity, transform and sublayerTransform of each animated layer.
    /// Unlike the setters, a new bounds size autoresizes nothing (autoresizing is a
    /// model-side effect); every cache follows the changes as after a setter, so the
    /// next `updateWorld()` is incremental. Only properties that differ are written.
    ///
    /// Call it on a copy of the model (`copy()`), or on a presentation store kept across
    /// frames after `restoreModelValues(of:from:)` undid the previous sample. O(animated layers); allocates nothing. A slot that is
    /// not live in this store is skipped.
    public mutating func applyPresentation(_ presentation: PresentationValues) {
        for k in 0..<presentation.layers.count where isLiveSlot(presentation.layers[k]) {
            applyPresentationLayer(presentation.values[k], at: presentation.layers[k])
        }
    }

    /// Puts `model`'s values back into this store for the layers `presentation` touched:
    /// the undo of `applyPresentation(_:)`, so that one presentation store can follow a
    /// frame loop (restore the previous sample, sample, apply) without copying the model
    /// each frame. Only properties that differ are written. O(animated layers); allocates
    /// nothing. A slot that is not live in both stores is skipped.
    public mutating func restoreModelValues(of presentation: PresentationValues, from model: borrowing LayerStore) {
        for k in 0..<presentation.layers.count {
            let layer = presentation.layers[k]
            guard isLiveSlot(layer) && model.isLiveSlot(layer) else { continue }
            applyPresentationLayer(PresentationLayer(model: model, layer: layer), at: layer)
        }
    }

    private mutating func applyPresentationLayer(_ values: PresentationLayer, at layer: Int) {
        if values.bounds != bounds(of: layer) {
            columns.boundsX[layer] = values.bounds.x
            columns.boundsY[layer] = values.bounds.y
            columns.boundsWidth[layer] = values.bounds.width
            columns.boundsHeight[layer] = values.bounds.height
            noteChange(layer, .geometry)
        }
        if values.position != position(of: layer) { setPosition(values.position, of: layer) }
        if values.anchorPoint != anchorPoint(of: layer) { setAnchorPoint(values.anchorPoint, of: layer) }
        if values.zPosition != zPosition(of: layer) { setZPosition(values.zPosition, of: layer) }
        if values.anchorPointZ != anchorPointZ(of: layer) { setAnchorPointZ(values.anchorPointZ, of: layer) }
        if values.opacity != opacity(of: layer) { setOpacity(values.opacity, of: layer) }
        if values.transform != transform(of: layer) { setTransform(values.transform, of: layer) }
        if values.sublayerTransform != sublayerTransform(of: layer) {
            setSublayerTransform(values.sublayerTransform, of: layer)
        }
    }
}
