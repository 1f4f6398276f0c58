// The projected quadrilateral of a layer, clipped at the eye plane: what a picture of the
// scene draws (GEOMETRY.md section 5, "World rect", gives the bounding box of the same
// corners).

extension Transform3D {
    /// The rect's four corners mapped through this transform and projected, as the
    /// polygon they bound, with the part behind the eye cut away.
    ///
    /// Corners go around the rect: `(minX, minY)`, `(maxX, minY)`, `(maxX, maxY)`,
    /// `(minX, maxY)`. Each is mapped to homogeneous `(X, Y, Z, W)` with
    /// ``applyHomogeneous(x:y:)``. The polygon is clipped against the plane
    /// `W = nearW` (Sutherland–Hodgman, one plane, in homogeneous coordinates), keeping
    /// `W >= nearW`, and each remaining vertex is projected to `(X/W, Y/W)`. With every
    /// corner in front (`W >= nearW`) the result is the four projected corners in the
    /// order above; a rect partly behind the eye gives 3 to 5 vertices, where those on
    /// the cut lie far out (at `W = nearW`) in the direction the edge leaves the view,
    /// as Chromium's `MathUtil::MapClippedQuad` does; a rect wholly behind gives `[]`.
    ///
    /// - Parameters:
    ///   - rect: a rect in the transform's source space (a layer's bounds space), in
    ///     points; a negative width or height is standardized first.
    ///   - nearW: the smallest `W` kept; positive. The default, `1e-5`, is Chromium's.
    /// - Returns: the projected vertices in world points, going around the polygon.
    ///   NaN in the transform or the rect gives NaN coordinates (a NaN `W` counts as
    ///   behind the eye, so such corners are cut away).
    /// - Complexity: O(1); at most five vertices.
    public func projectedPolygon(of rect: Rect, nearW: Double = 1e-5) -> [Point] {
        let corners = [
            applyHomogeneous(x: rect.minX, y: rect.minY), applyHomogeneous(x: rect.maxX, y: rect.minY),
            applyHomogeneous(x: rect.maxX, y: rect.maxY), applyHomogeneous(x: rect.minX, y: rect.maxY),
        ]
        var kept: [SIMD4<Double>] = []
        kept.reserveCapacity(5)
        for index in 0..<4 {
            let current = corners[index]
            let next = corners[(index + 1) % 4]
            let currentInFront = current.w >= nearW
            let nextInFront = next.w >= nearW
            if currentInFront { kept.append(current) }
            if currentInFront != nextInFront {
                // The edge crosses W = nearW: the point on it where W is exactly nearW.
                let t = (nearW - current.w) / (next.w - current.w)
                if t.isFinite { kept.append(current + t * (next - current)) }
            }
        }
        return kept.map { Point(x: $0.x / $0.w, y: $0.y / $0.w) }
    }
}

extension LayerStore {
    /// The layer's bounds as drawn: its four corners through `ToWorld`, projected, with
    /// the part behind the eye cut away (``Transform3D/projectedPolygon(of:nearW:)``
    /// with the layer's bounds and `world[layer]`).
    ///
    /// The bounding box of the result lies within ``worldRect(of:in:)`` (equal to it
    /// when every corner is in front of the eye); the world rect reaches to infinity
    /// where this polygon reaches `W = nearW`.
    ///
    /// - Parameters:
    ///   - layer: a live layer; a stale handle stops the program with a message (in
    ///     release builds too).
    ///   - world: a snapshot of this store's current structure (from
    ///     ``updateWorld(options:)`` or ``worldTransforms(options:)``); a stale one stops
    ///     the program with a message.
    ///   - nearW: the smallest homogeneous `W` kept; positive, default `1e-5`.
    /// - Returns: the polygon's vertices in world points, going around the bounds from
    ///   `(minX, minY)` through `(maxX, minY)`; `[]` when every corner is behind the eye.
    ///   It does not consider hidden layers or clipping (see ``visibility(worldRects:clipRects:viewport:options:)``).
    /// - Complexity: O(1).
    public func projectedQuad(of layer: LayerHandle, in world: WorldTransforms, nearW: Double = 1e-5) -> [Point] {
        projectedQuad(of: slot(of: layer), in: world, nearW: nearW)
    }

    /// `projectedQuad(of:in:nearW:)` for the layer in slot `layer`.
    func projectedQuad(of layer: Int, in world: WorldTransforms, nearW: Double = 1e-5) -> [Point] {
        checkIndex(layer)
        checkSnapshot(world)
        return world[layer].projectedPolygon(of: bounds(of: layer), nearW: nearW)
    }
}
