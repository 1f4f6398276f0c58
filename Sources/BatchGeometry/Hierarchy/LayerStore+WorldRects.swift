// World rects with clipping behind the eye, clip rects, visibility (GEOMETRY.md
// sections 5 and 6).

extension LayerStore {
    /// The layer's bounds mapped to the world and projected: the bounding box of the four
    /// corners when all are in front of the eye (`W > 0`); corners behind it are clipped
    /// the way Chromium's `MathUtil::MapClippedRect` does (each edge from a visible to a
    /// clipped corner pushes the box to infinity in the direction it crosses `W = 0`).
    /// `RectEdges.null` when every corner is behind the eye. O(1).
    public func worldRect(of layer: Int, in world: WorldTransforms) -> RectEdges {
        checkIndex(layer)
        let minX = boundsX[layer], minY = boundsY[layer]
        return projectedBox(
            minX: minX, minY: minY, maxX: minX + boundsWidth[layer], maxY: minY + boundsHeight[layer],
            through: world[layer])
    }

    /// World rects of every layer. O(count).
    public func worldRects(in world: WorldTransforms) -> [RectEdges] {
        (0..<count).map { worldRect(of: $0, in: world) }
    }

    /// For each layer, the intersection of the world rects of every ancestor with
    /// `masksToBounds` (the layer's own flag does not clip itself); nil when no ancestor
    /// masks. A masking ancestor entirely behind the eye clips everything (null rect).
    /// One pre-order pass, O(count).
    public func clipRects(worldRects: [RectEdges]) -> [RectEdges?] {
        var clips = [RectEdges?](repeating: nil, count: count)
        forEachParentFirst { layer in
            let superlayer = parents[layer]
            guard superlayer >= 0 else { return }
            let s = Int(superlayer)
            var clip = clips[s]
            if flags[s].contains(.masksToBounds) {
                clip = clip.map { $0.intersection(worldRects[s]) } ?? worldRects[s]
            }
            clips[layer] = clip
        }
        return clips
    }

    /// For each layer: it and all its ancestors are not hidden, its world rect is not
    /// null, and world rect ∩ clip rect ∩ viewport (when given) has positive area.
    /// O(count).
    public func visibility(worldRects: [RectEdges], clipRects: [RectEdges?], viewport: Rect?) -> [Bool] {
        var hiddenInTree = [Bool](repeating: false, count: count)
        var visible = [Bool](repeating: false, count: count)
        let viewportEdges = viewport?.edges
        forEachParentFirst { layer in
            let superlayer = parents[layer]
            let hidden = flags[layer].contains(.hidden) || (superlayer >= 0 && hiddenInTree[Int(superlayer)])
            hiddenInTree[layer] = hidden
            guard !hidden, !worldRects[layer].isNull else { return }
            var area = worldRects[layer]
            if let clip = clipRects[layer] { area = area.intersection(clip) }
            if let viewportEdges { area = area.intersection(viewportEdges) }
            visible[layer] = area.hasPositiveArea
        }
        return visible
    }

    /// Calls `body` for every layer with superlayers before sublayers: index order when
    /// that is already such an order, else depth-first pre-order.
    func forEachParentFirst(_ body: (Int) -> Void) {
        if parentsPrecedeChildren {
            for layer in 0..<count { body(layer) }
        } else {
            for layer in preorder() { body(Int(layer)) }
        }
    }
}

/// The projected bounding box of the rect `(minX, minY) … (maxX, maxY)` under
/// `transform`, with clipping behind the eye (see `LayerStore.worldRect`).
func projectedBox(minX: Double, minY: Double, maxX: Double, maxY: Double,
                  through transform: Transform3D) -> RectEdges {
    // Corners in the spec's order: (xMin,yMin) (xMin,yMax) (xMax,yMin) (xMax,yMax).
    let corners = [
        transform.applyHomogeneous(x: minX, y: minY), transform.applyHomogeneous(x: minX, y: maxY),
        transform.applyHomogeneous(x: maxX, y: minY), transform.applyHomogeneous(x: maxX, y: maxY),
    ]
    var boxMinX = Double.infinity, boxMinY = Double.infinity
    var boxMaxX = -Double.infinity, boxMaxY = -Double.infinity
    var anyVisible = false
    for corner in corners where corner.w > 0 {
        anyVisible = true
        let x = corner.x / corner.w, y = corner.y / corner.w
        boxMinX = selectMin(boxMinX, x); boxMaxX = selectMax(boxMaxX, x)
        boxMinY = selectMin(boxMinY, y); boxMaxY = selectMax(boxMaxY, y)
    }
    guard anyVisible else { return .null }
    if corners.allSatisfy({ $0.w > 0 }) {
        return RectEdges(minX: boxMinX, minY: boxMinY, maxX: boxMaxX, maxY: boxMaxY)
    }
    // The quad's edges, going around: 0-(xMin,yMin) 2-(xMax,yMin) 3-(xMax,yMax) 1-(xMin,yMax).
    let ring = [0, 2, 3, 1]
    for k in 0..<4 {
        let p = corners[ring[k]], q = corners[ring[(k + 1) % 4]]
        let (visible, clipped): (SIMD4<Double>, SIMD4<Double>)
        if p.w > 0 && !(q.w > 0) { (visible, clipped) = (p, q) }
        else if q.w > 0 && !(p.w > 0) { (visible, clipped) = (q, p) }
        else { continue }
        // Where the edge crosses W = 0; that point is at infinity in direction (X, Y).
        let t = visible.w / (visible.w - clipped.w)
        let x = visible.x + t * (clipped.x - visible.x)
        let y = visible.y + t * (clipped.y - visible.y)
        if x > 0 { boxMaxX = .infinity } else if x < 0 { boxMinX = -.infinity }
        if y > 0 { boxMaxY = .infinity } else if y < 0 { boxMinY = -.infinity }
    }
    return RectEdges(minX: boxMinX, minY: boxMinY, maxX: boxMaxX, maxY: boxMaxY)
}
