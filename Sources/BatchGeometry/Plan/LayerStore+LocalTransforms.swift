// The per-layer pieces of GEOMETRY.md section 5, as 4×4 matrices:
//   Local(L)  = T(-(bo.x + ax*w), -(bo.y + ay*h), -anchorPointZ) * L.transform * T(position, zPosition)
//   Adjust(S) = Flip(S) * Sub(S)
//   Flat(S)   = diag(1, 1, 0, 1) unless S is a transform layer
//   ToWorld(L) = Local(L) * Adjust(S) * Flat(S) * ToWorld(S)
// Every world path starts from these: the plan caches them (WorldPlan.swift), and the
// non-finite full pass and the scalar references (Reference/) multiply them out.

extension LayerStore {
    /// `Local(L)`: from the layer's bounds space to its superlayer's bounds space, before
    /// the superlayer's own sublayer adjustments.
    public func localTransform(of layer: LayerHandle) -> Transform3D {
        localTransform(of: slot(of: layer))
    }
    func localTransform(of layer: Int) -> Transform3D {
        checkIndex(layer)
        let anchorInBoundsX = columns.boundsX[layer] + columns.anchorX[layer] * columns.boundsWidth[layer]
        let anchorInBoundsY = columns.boundsY[layer] + columns.anchorY[layer] * columns.boundsHeight[layer]
        let toAnchor = Transform3D.translation(
            x: -anchorInBoundsX, y: -anchorInBoundsY, z: -columns.zValues.anchorPointZ(at: layer))
        let toPosition = Transform3D.translation(
            x: columns.positionX[layer], y: columns.positionY[layer], z: columns.zValues.zPosition(at: layer))
        return toAnchor.concatenating(columns.transforms[layer]).concatenating(toPosition)
    }

    /// `Adjust(S) = Flip(S) * Sub(S)`: what a superlayer applies to all its sublayers
    /// (geometryFlipped, then sublayerTransform about its anchor point).
    public func sublayerAdjustment(of superlayer: LayerHandle) -> Transform3D {
        sublayerAdjustment(of: slot(of: superlayer))
    }
    func sublayerAdjustment(of superlayer: Int) -> Transform3D {
        checkIndex(superlayer)
        var result = Transform3D.identity
        if columns.flags[superlayer].contains(.geometryFlipped) {
            // y -> (2*bo.y + h) - y: mirror about the bounds' horizontal mid-line.
            result.m22 = -1
            result.m42 = 2 * columns.boundsY[superlayer] + columns.boundsHeight[superlayer]
        }
        let sublayerTransform = columns.sublayerTransforms[superlayer]
        if sublayerTransform.kind != .identity {
            let pivotX = columns.boundsX[superlayer] + columns.anchorX[superlayer] * columns.boundsWidth[superlayer]
            let pivotY = columns.boundsY[superlayer] + columns.anchorY[superlayer] * columns.boundsHeight[superlayer]
            let pivotZ = columns.zValues.anchorPointZ(at: superlayer)
            let sub = Transform3D.translation(x: -pivotX, y: -pivotY, z: -pivotZ)
                .concatenating(sublayerTransform)
                .concatenating(.translation(x: pivotX, y: pivotY, z: pivotZ))
            result = result.concatenating(sub)
        }
        return result
    }

    /// `Local(L) * Adjust(S) * Flat(S)` for a sublayer, `Local(L)` for a root: the
    /// layer's transform to the space its superlayer's `ToWorld` starts from.
    public func transformToSuperlayer(of layer: LayerHandle) -> Transform3D {
        transformToSuperlayer(of: slot(of: layer))
    }
    func transformToSuperlayer(of layer: Int) -> Transform3D {
        let local = localTransform(of: layer)
        let superlayer = hierarchy.parents[layer]
        if superlayer < 0 { return local }
        var result = local.concatenating(sublayerAdjustment(of: Int(superlayer)))
        if !columns.flags[Int(superlayer)].contains(.transformLayer) {
            // p * diag(1, 1, 0, 1) drops z: zero the matrix's third column.
            result.m13 = 0
            result.m23 = 0
            result.m33 = 0
            result.m43 = 0
        }
        return result
    }

    /// `ToWorld(layer)` computed by walking up to the root: O(depth). For many layers use
    /// `worldTransforms()` (one pass over the whole store).
    public func worldTransform(of layer: LayerHandle) -> Transform3D {
        worldTransform(of: slot(of: layer))
    }
    func worldTransform(of layer: Int) -> Transform3D {
        checkIndex(layer)
        var result = transformToSuperlayer(of: layer)
        var ancestor = hierarchy.parents[layer]
        while ancestor >= 0 {
            result = result.concatenating(transformToSuperlayer(of: Int(ancestor)))
            ancestor = hierarchy.parents[Int(ancestor)]
        }
        return result
    }
}
