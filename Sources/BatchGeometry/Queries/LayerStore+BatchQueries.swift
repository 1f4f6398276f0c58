// Queries for many points or layers at once, on top of a world-transform snapshot,
// spread over `options.threads`. Each entry is exactly what the single-item function
// returns (the same expressions, in the same order).

extension LayerStore {
    /// The world rect of every layer (see `worldRect(of:in:)`), over `options.threads`: the
    /// convenient form of `computeWorldRects(in:into:options:)`, returning a new array.
    /// - Precondition: `world` was computed for the store's current structure (else the
    ///   program stops with a message naming both structures).
    /// Complexity: O(count), reading 32 bytes of bounds and 48 of world per planar layer.
    public func worldRects(in world: WorldTransforms, options: KernelOptions = .default) -> [RectEdges] {
        var rects: [RectEdges] = []
        computeWorldRects(in: world, into: &rects, options: options)
        return rects
    }

    /// Computes the world rect of every layer (see `worldRect(of:in:)`) into `rects`, in
    /// world units: `rects` is resized to `count` (entry `handle.index` is the layer's)
    /// and every entry overwritten, its storage reused. A forced `.scalar` backend calls
    /// `worldRect(of:in:)`'s projection per layer; otherwise a planar fast path runs for
    /// layers whose world matrix is planar and whose bounds corners are finite (there
    /// `W = 1` for every corner, so the projection divides by one and no corner is
    /// clipped) and the projection for the rest. Same bits on every backend and thread
    /// count.
    ///
    /// Allocates nothing when `options.threads` is 1 and `rects` has the capacity for
    /// `count` entries and does not share its storage (after a first call on a store as
    /// large). Over more threads, a store of 8,192 layers or more is split, and
    /// `DispatchQueue.concurrentPerform` then allocates a few blocks per call.
    /// - Precondition: `world` was computed for the store's current structure (else the
    ///   program stops with a message naming both structures).
    /// Complexity: O(count), reading 32 bytes of bounds and 48 of world per planar layer.
    public func computeWorldRects(
        in world: WorldTransforms, into rects: inout [RectEdges], options: KernelOptions = .default
    ) {
        checkSnapshot(world)
        let count = self.count
        if rects.count != count && rects.capacity < count {
            // New storage is filled by the split itself, not first with a filler on
            // this thread: at 4M layers that serial fill (and its page faults) was most
            // of the call, and no thread count could shorten it.
            rects = makeArrayUninitialized(count: count) { fillWorldRects($0, in: world, options: options) }
        } else {
            rects.resize(to: count, filler: .null)
            withOptionalRawColumn(&rects) { fillWorldRects($0, in: world, options: options) }
        }
        if columns.detachedLayerCount > 0 { nullDetachedSubtrees(&rects) }
    }

    /// Writes (initializes) every layer's world rect into `output` (`count` entries).
    private func fillWorldRects(
        _ output: RawColumn<RectEdges>?, in world: WorldTransforms, options: KernelOptions
    ) {
        guard let out = output else { return }
        let projectEach = options.backend(for: .worldRects) == .scalar
        forEachChunk(count: count, threads: options.threads, grain: Self.parallelGrain) { range in
            for layer in range {
                // (RectEdges is trivial: assigning initializes.)
                out[layer] =
                    projectEach ? projectedWorldRect(of: layer, in: world) : fastWorldRect(of: layer, in: world)
            }
        }
    }

    /// Detached subtrees have no world rect. O(roots + the detached subtrees).
    private func nullDetachedSubtrees(_ rects: inout [RectEdges]) {
        var root = hierarchy.firstRoot
        while root >= 0 {
            if columns.flags[Int(root)].contains(.detached) { forEachInSubtree(of: Int(root)) { rects[$0] = .null } }
            root = hierarchy.nextSiblings[Int(root)]
        }
    }

    /// `worldRect(of:in:)`, computed directly from the planar columns when that is exact.
    @inline(__always)
    func fastWorldRect(of layer: Int, in world: WorldTransforms) -> RectEdges {
        let minX = columns.boundsX[layer]
        let minY = columns.boundsY[layer]
        let maxX = minX + columns.boundsWidth[layer]
        let maxY = minY + columns.boundsHeight[layer]
        guard world.isPlanar(layer), minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
            return projectedWorldRect(of: layer, in: world)
        }
        let a = world.a[layer]
        let b = world.b[layer]
        let c = world.c[layer]
        let d = world.d[layer]
        let tx = world.tx[layer]
        let ty = world.ty[layer]
        // The corners in the spec's order, as Transform3D.applyHomogeneous maps them
        // (one call each: a literal array of corners, or a local function that updates
        // a captured variable, allocates in unoptimized builds).
        let matrix = (a, b, c, d, tx, ty)
        var box = RectEdges(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        includeCorner(&box, minX, minY, matrix)
        includeCorner(&box, minX, maxY, matrix)
        includeCorner(&box, maxX, minY, matrix)
        includeCorner(&box, maxX, maxY, matrix)
        return box
    }

    /// Hit-tests many world-space points (touches, cursor samples) at once: the
    /// convenient form of `hitTest(points:in:rule:into:scratch:options:)`, returning a
    /// new array (and using a new `QueryScratch`). Entry k is the layer hit by
    /// `points[k]`, or nil; same rules and answers as `hitTest(_:in:rule:)`.
    /// - Precondition: `world` was computed for the store's current structure.
    /// Complexity: O(points × count) in the worst case.
    public func hitTest(
        points: [Point], in world: WorldTransforms, rule: HitTestRule = .layer,
        options: KernelOptions = .default
    ) -> [LayerHandle?] {
        var hits: [LayerHandle?] = []
        var scratch = QueryScratch()
        hitTest(points: points, in: world, rule: rule, into: &hits, scratch: &scratch, options: options)
        return hits
    }

    /// Hit-tests many world-space points (touches, cursor samples) at once into `hits`:
    /// `hits` is resized to `points.count` and entry k overwritten with the layer hit by
    /// `points[k]` (world space, points), or nil. Same rules and answers as
    /// `hitTest(_:in:rule:)`; points are spread over `options.threads` (every backend
    /// runs the same Swift code here). With 4 points or more, each layer's unprojection
    /// is computed once (O(count)) into `scratch` and shared by all the points; when
    /// some sublayer list is out of zPosition order, the layer rule's sorted lists are
    /// built in `scratch` too.
    ///
    /// Allocates nothing when `options.threads` is 1 and `hits` and `scratch` have grown
    /// to `points.count` and the store's `count` (after a first call with as many points
    /// on a store as large, with the same rule) and do not share their storage. Over
    /// more threads, the points (and, from 16,384 layers, the unprojections) are split,
    /// and `DispatchQueue.concurrentPerform` then allocates a few blocks per split.
    /// - Precondition: `world` was computed for the store's current structure.
    /// Complexity: O(points × count) in the worst case, plus O(count) for the
    /// unprojections and O(count log sublayers) for unsorted lists.
    public func hitTest(
        points: [Point], in world: WorldTransforms, rule: HitTestRule = .layer,
        into hits: inout [LayerHandle?], scratch: inout QueryScratch, options: KernelOptions = .default
    ) {
        hits.resize(to: points.count, filler: nil)
        withOptionalRawColumn(&hits) { out in
            forEachHit(points: points, in: world, rule: rule, scratch: &scratch, options: options) { k, slot in
                if let slot {
                    out.unsafelyUnwrapped[k] = handle(atSlot: slot)
                } else {
                    out.unsafelyUnwrapped[k] = nil
                }
            }
        }
    }

    /// The slots of `hitTest(points:in:rule:options:)`'s answers.
    func hitTestIndices(
        points: [Point], in world: WorldTransforms, rule: HitTestRule = .layer,
        options: KernelOptions = .default
    ) -> [Int?] {
        var result = [Int?](repeating: nil, count: points.count)
        var scratch = QueryScratch()
        withOptionalRawColumn(&result) { out in
            forEachHit(points: points, in: world, rule: rule, scratch: &scratch, options: options) { k, slot in
                out.unsafelyUnwrapped[k] = slot
            }
        }
        return result
    }

    /// The batch hit test: calls `record(k, slot)` once for each point k with the slot
    /// of the layer it hits (nil: none), over `options.threads`, so `record` may be
    /// called from several threads at once (for different k). The storage around the
    /// walk: the unprojection table and the sorted sublayer lists live in `scratch`;
    /// the walk itself is `hitTestWalk`.
    func forEachHit(
        points: [Point], in world: WorldTransforms, rule: HitTestRule, scratch: inout QueryScratch,
        options: KernelOptions, _ record: (Int, Int?) -> Void
    ) {
        checkSnapshot(world)
        guard !points.isEmpty else { return }
        // Every point unprojects into the same layers: with enough points, invert each
        // layer's homography once (the point-independent cofactors of
        // `Transform3D.unprojectPoint`) and reuse it for every point.
        let useTable = points.count >= 4
        if useTable { computeUnprojections(world, into: &scratch.unprojections, options) }
        let links =
            rule == .layer
            ? drawOrderLinks(reusing: &scratch)
            : SiblingLinks(first: hierarchy.firstSublayers, next: hierarchy.nextSiblings)
        // One point costs a tree walk: split even small batches when the tree is big.
        let minimum = Swift.max(1, 65_536 / Swift.max(1, count))
        withRawList(reading: scratch.unprojections) { table in
            forEachChunk(count: points.count, threads: options.threads, grain: minimum) { range in
                if useTable {
                    for k in range {
                        let point = points[k]
                        record(k, hitTestWalk(rule: rule, links: links) { table[$0].unprojectInFrontOfEye(point) })
                    }
                } else {
                    for k in range {
                        let point = points[k]
                        record(k, hitTestWalk(rule: rule, links: links) { world[$0].unprojectPointInFrontOfEye(point) })
                    }
                }
            }
        }
    }

    /// Each layer's unprojection into `table` (resized to `count`), over
    /// `options.threads`. O(count).
    private func computeUnprojections(
        _ world: WorldTransforms, into table: inout [Homography], _ options: KernelOptions
    ) {
        table.resize(to: count, filler: Homography(.identity))
        withOptionalRawColumn(&table) { out in
            guard let out else { return }
            forEachChunk(count: count, threads: options.threads, grain: Self.parallelGrain) { range in
                for layer in range { out[layer] = Homography(world[layer]) }
            }
        }
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
        withOptionalRawColumn(&result) { out in
            guard let out else { return }
            forEachChunk(count: points.count, threads: options.threads, grain: Self.parallelGrain) { range in
                for k in range {
                    let worldPoint = sourceMatrix.map { $0.projectPoint(points[k]) } ?? points[k]
                    if let destinationHomography {
                        out[k] = destinationHomography.unproject(worldPoint)
                    } else {
                        out[k] = worldPoint
                    }
                }
            }
        }
        return result
    }
}

/// Grows `box` to the corner `(x, y)` mapped by the planar `matrix` (a, b, c, d, tx,
/// ty), as `fastWorldRect` takes each corner.
@inline(__always)
private func includeCorner(
    _ box: inout RectEdges, _ x: Double, _ y: Double,
    _ matrix: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)
) {
    let cornerX = x * matrix.a + y * matrix.c + matrix.tx
    let cornerY = x * matrix.b + y * matrix.d + matrix.ty
    box.minX = selectMin(box.minX, cornerX)
    box.maxX = selectMax(box.maxX, cornerX)
    box.minY = selectMin(box.minY, cornerY)
    box.maxY = selectMax(box.maxY, cornerY)
}
