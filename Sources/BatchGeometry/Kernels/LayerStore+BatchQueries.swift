// Queries for many points or layers at once, on top of a world-transform snapshot,
// spread over `options.threads`. Each entry is exactly what the single-item function
// returns (the same expressions, in the same order).

extension LayerStore {
    /// The world rect of every layer (see `worldRect(of:in:)`), over `options.threads`.
    /// Backend `.scalar` calls `worldRect(of:in:)` per layer; the others take a planar
    /// fast path for layers whose world matrix is planar and whose bounds corners are
    /// finite (there `W = 1` for every corner, so the projection divides by one and no
    /// corner is clipped) and `worldRect(of:in:)` for the rest. Same bits either way.
    /// - Precondition: `world` was computed for the store's current structure (else the
    ///   program stops with a message naming both structures).
    /// Complexity: O(count), reading 32 bytes of bounds and 48 of world per planar layer.
    public func worldRects(in world: WorldTransforms, options: KernelOptions = .default) -> [RectEdges] {
        checkSnapshot(world)
        var result = [RectEdges](repeating: .null, count: count)
        result.withUnsafeMutableBufferPointer { output in
            guard let base = output.baseAddress else { return }
            let out = SendablePointer(base)
            forEachChunk(count: count, threads: options.threads, minimumPerThread: 8_192) { range in
                for layer in range {
                    out.pointer[layer] =
                        options.backend == .scalar
                        ? projectedWorldRect(of: layer, in: world) : fastWorldRect(of: layer, in: world)
                }
            }
        }
        if detachedLayerCount > 0 { nullDetachedSubtrees(&result) }
        return result
    }

    /// Detached subtrees have no world rect. O(roots + the detached subtrees).
    private func nullDetachedSubtrees(_ rects: inout [RectEdges]) {
        var root = firstRoot
        while root >= 0 {
            if flags[Int(root)].contains(.detached) { forEachInSubtree(of: Int(root)) { rects[$0] = .null } }
            root = nextSiblings[Int(root)]
        }
    }

    /// `worldRect(of:in:)`, computed directly from the planar columns when that is exact.
    @inline(__always)
    func fastWorldRect(of layer: Int, in world: WorldTransforms) -> RectEdges {
        let minX = boundsX[layer]
        let minY = boundsY[layer]
        let maxX = minX + boundsWidth[layer]
        let maxY = minY + boundsHeight[layer]
        guard world.isPlanar(layer), minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
            return projectedWorldRect(of: layer, in: world)
        }
        let a = world.a[layer]
        let b = world.b[layer]
        let c = world.c[layer]
        let d = world.d[layer]
        let tx = world.tx[layer]
        let ty = world.ty[layer]
        // The corners in the spec's order, as Transform3D.applyHomogeneous maps them.
        var boxMinX = Double.infinity
        var boxMinY = Double.infinity
        var boxMaxX = -Double.infinity
        var boxMaxY = -Double.infinity
        for (x, y) in [(minX, minY), (minX, maxY), (maxX, minY), (maxX, maxY)] {
            let cornerX = x * a + y * c + tx
            let cornerY = x * b + y * d + ty
            boxMinX = selectMin(boxMinX, cornerX)
            boxMaxX = selectMax(boxMaxX, cornerX)
            boxMinY = selectMin(boxMinY, cornerY)
            boxMaxY = selectMax(boxMaxY, cornerY)
        }
        return RectEdges(minX: boxMinX, minY: boxMinY, maxX: boxMaxX, maxY: boxMaxY)
    }

    /// Hit-tests many world-space points (touches, cursor samples) at once; entry k is
    /// the layer hit by `points[k]`, or nil. Same rules and answers as
    /// `hitTest(_:in:rule:)`. Points are spread over `options.threads` (every backend
    /// runs the same Swift code here).
    /// - Precondition: `world` was computed for the store's current structure.
    /// Complexity: O(points × count) in the worst case.
    public func hitTest(
        points: [Point], in world: WorldTransforms, rule: HitTestRule = .layer,
        options: KernelOptions = .default
    ) -> [LayerHandle?] {
        hitTestIndices(points: points, in: world, rule: rule, options: options).map { $0.map { handle(atSlot: $0) } }
    }

    /// The slots of `hitTest(points:in:rule:options:)`'s answers.
    func hitTestIndices(
        points: [Point], in world: WorldTransforms, rule: HitTestRule = .layer,
        options: KernelOptions = .default
    ) -> [Int?] {
        checkSnapshot(world)
        var result = [Int?](repeating: nil, count: points.count)
        // Every point unprojects into the same layers: with enough points, invert each
        // layer's homography once (the point-independent cofactors of
        // `Transform3D.unprojectPoint`) and reuse it for every point.
        let table: [Homography]? = points.count >= 4 ? unprojectionTable(world, options) : nil
        let links = hitTestLinks(rule)
        result.withUnsafeMutableBufferPointer { output in
            guard let base = output.baseAddress else { return }
            let out = SendablePointer(base)
            // One point costs a tree walk: split even small batches when the tree is big.
            let minimum = Swift.max(1, 65_536 / Swift.max(1, count))
            forEachChunk(count: points.count, threads: options.threads, minimumPerThread: minimum) { range in
                if let table {
                    table.withUnsafeBufferPointer { table in
                        for k in range {
                            let point = points[k]
                            out.pointer[k] = hitTestWalk(rule: rule, links: links) {
                                table[$0].unprojectInFrontOfEye(point)
                            }
                        }
                    }
                } else {
                    for k in range {
                        let point = points[k]
                        out.pointer[k] = hitTestWalk(rule: rule, links: links) {
                            world[$0].unprojectPointInFrontOfEye(point)
                        }
                    }
                }
            }
        }
        return result
    }

    /// Each layer's unprojection, over `options.threads`. O(count).
    private func unprojectionTable(_ world: WorldTransforms, _ options: KernelOptions) -> [Homography] {
        var table = [Homography](repeating: Homography(.identity), count: count)
        table.withUnsafeMutableBufferPointer { output in
            guard let base = output.baseAddress else { return }
            let out = SendablePointer(base)
            forEachChunk(count: count, threads: options.threads, minimumPerThread: 8_192) { range in
                for layer in range { out.pointer[layer] = Homography(world[layer]) }
            }
        }
        return table
    }

    /// Converts many points from `source`'s bounds space to `destination`'s (nil = world
    /// space); entry k is what `convert(_:from:to:in:)` returns for `points[k]` (nil when
    /// the destination is singular). The two world matrices are read once; points are
    /// spread over `options.threads`.
    /// - Precondition: `source` and `destination` are nil or live handles.
    /// Complexity: O(points).
    public func convert(
        points: [Point], from source: LayerHandle?, to destination: LayerHandle?, in world: WorldTransforms,
        options: KernelOptions = .default
    ) -> [Point?] {
        convert(
            points: points, from: source.map { slot(of: $0) }, to: destination.map { slot(of: $0) }, in: world,
            options: options)
    }

    /// `convert(points:from:to:in:options:)` with slots.
    @_disfavoredOverload
    func convert(
        points: [Point], from source: Int?, to destination: Int?, in world: WorldTransforms,
        options: KernelOptions = .default
    ) -> [Point?] {
        checkSnapshot(world)
        if let source { checkIndex(source) }
        if let destination { checkIndex(destination) }
        let sourceMatrix = source.map { world[$0] }
        // The destination's homography is inverted once for the whole batch.
        let destinationHomography = destination.map { Homography(world[$0]) }
        var result = [Point?](repeating: nil, count: points.count)
        result.withUnsafeMutableBufferPointer { output in
            guard let base = output.baseAddress else { return }
            let out = SendablePointer(base)
            forEachChunk(count: points.count, threads: options.threads, minimumPerThread: 16_384) { range in
                for k in range {
                    let worldPoint = sourceMatrix.map { $0.projectPoint(points[k]) } ?? points[k]
                    if let destinationHomography {
                        out.pointer[k] = destinationHomography.unproject(worldPoint)
                    } else {
                        out.pointer[k] = worldPoint
                    }
                }
            }
        }
        return result
    }
}
