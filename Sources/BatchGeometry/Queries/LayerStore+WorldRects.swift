// World rects with clipping behind the eye, clip rects, visibility (GEOMETRY.md
// sections 5 and 6).

extension LayerStore {
    /// The layer's bounds mapped to the world and projected: the bounding box of the four
    /// corners when all are in front of the eye (`W > 0`); corners behind it are clipped
    /// the way Chromium's `MathUtil::MapClippedRect` does (each edge from a visible to a
    /// clipped corner pushes the box to infinity in the direction it crosses `W = 0`).
    /// `RectEdges.null` when every corner is behind the eye, and for a detached layer
    /// (`removeFromSuperlayer(_:)`). O(1), O(depth) while some layer is detached.
    public func worldRect(of layer: LayerHandle, in world: WorldTransforms) -> RectEdges {
        worldRect(of: slot(of: layer), in: world)
    }
    func worldRect(of layer: Int, in world: WorldTransforms) -> RectEdges {
        checkIndex(layer)
        checkSnapshot(world)
        if columns.detachedLayerCount > 0 && columns.flags[topmostAncestor(of: layer)].contains(.detached) {
            return .null
        }
        return projectedWorldRect(of: layer, in: world)
    }

    /// The world rect from the bounds and `world` alone (detachment not considered).
    @inline(__always)
    func projectedWorldRect(of layer: Int, in world: WorldTransforms) -> RectEdges {
        projectedWorldRect(of: layer, through: world[layer])
    }

    /// The world rect from the bounds and the layer's world matrix (the frame query
    /// computes that matrix itself).
    @inline(__always)
    func projectedWorldRect(of layer: Int, through matrix: Transform3D) -> RectEdges {
        let minX = columns.boundsX[layer]
        let minY = columns.boundsY[layer]
        return projectedBox(
            minX: minX, minY: minY, maxX: minX + columns.boundsWidth[layer], maxY: minY + columns.boundsHeight[layer],
            through: matrix)
    }

}

/// The projected bounding box of the rect `(minX, minY) … (maxX, maxY)` under
/// `transform`, with clipping behind the eye (see `LayerStore.worldRect`). No heap
/// allocation, in optimized and unoptimized builds alike (its helpers take the box
/// `inout` rather than capture it): it runs once per layer in `worldRects`.
func projectedBox(
    minX: Double, minY: Double, maxX: Double, maxY: Double,
    through transform: Transform3D
) -> RectEdges {
    // Corners in the spec's order: (xMin,yMin) (xMin,yMax) (xMax,yMin) (xMax,yMax).
    let c0 = transform.applyHomogeneous(x: minX, y: minY)
    let c1 = transform.applyHomogeneous(x: minX, y: maxY)
    let c2 = transform.applyHomogeneous(x: maxX, y: minY)
    let c3 = transform.applyHomogeneous(x: maxX, y: maxY)
    var box = RectEdges(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    // `W > 0` is in front of the eye; NaN counts as behind (it is not > 0).
    let inFront = (c0.w > 0, c1.w > 0, c2.w > 0, c3.w > 0)
    if inFront.0 { include(c0, in: &box) }
    if inFront.1 { include(c1, in: &box) }
    if inFront.2 { include(c2, in: &box) }
    if inFront.3 { include(c3, in: &box) }
    if !inFront.0 && !inFront.1 && !inFront.2 && !inFront.3 { return .null }
    if inFront.0 && inFront.1 && inFront.2 && inFront.3 { return box }
    // The quad's edges, going around: (xMin,yMin) (xMax,yMin) (xMax,yMax) (xMin,yMax).
    clipEdge(c0, inFront.0, c2, inFront.2, &box)
    clipEdge(c2, inFront.2, c3, inFront.3, &box)
    clipEdge(c3, inFront.3, c1, inFront.1, &box)
    clipEdge(c1, inFront.1, c0, inFront.0, &box)
    return box
}

/// Grows `box` to the projection of the corner in front of the eye (`W > 0`).
@inline(__always)
private func include(_ corner: SIMD4<Double>, in box: inout RectEdges) {
    let x = corner.x / corner.w
    let y = corner.y / corner.w
    box.minX = selectMin(box.minX, x)
    box.maxX = selectMax(box.maxX, x)
    box.minY = selectMin(box.minY, y)
    box.maxY = selectMax(box.maxY, y)
}

/// An edge from a corner in front of the eye to one behind crosses W = 0 at a point at
/// infinity in direction (X, Y): the box reaches to infinity that way.
@inline(__always)
private func clipEdge(
    _ p: SIMD4<Double>, _ pInFront: Bool, _ q: SIMD4<Double>, _ qInFront: Bool, _ box: inout RectEdges
) {
    guard pInFront != qInFront else { return }
    let (visible, clipped) = pInFront ? (p, q) : (q, p)
    let t = visible.w / (visible.w - clipped.w)
    let x = visible.x + t * (clipped.x - visible.x)
    let y = visible.y + t * (clipped.y - visible.y)
    if x > 0 { box.maxX = .infinity } else if x < 0 { box.minX = -.infinity }
    if y > 0 { box.maxY = .infinity } else if y < 0 { box.minY = -.infinity }
}
