// The steps of the frame query's walk (`visibleLayers(in:into:)`).

extension LayerStore {
    /// The drawing-order links after `refreshDrawOrder()`: the cache while some list is
    /// out of zPosition order, else the store's own lists. O(1), no copy.
    var currentDrawOrderLinks: SiblingLinks {
        zOrderInversions > 0 ? drawOrderCache.links : SiblingLinks(first: firstSublayers, next: nextSiblings)
    }

    /// Visits `layer` (its superlayer's frame at `depth`, nil for a root): its world
    /// transform, world rect and clip rect, by the full passes' expressions; appends it
    /// when visible; pushes a frame for its sublayers unless none can be visible.
    func enterVisible(
        _ layer: Int, under depth: Int?, view: RectEdges, _ links: SiblingLinks, into result: inout VisibleLayers
    ) {
        let step = worldStep(of: layer, under: depth.map { result.frames[$0].step })
        result.visitedLayerCount += 1
        let rect = projectedBox(
            minX: boundsX[layer], minY: boundsY[layer], maxX: boundsX[layer] + boundsWidth[layer],
            maxY: boundsY[layer] + boundsHeight[layer], through: step.matrix)
        let clip = depth.flatMap { result.frames[$0].clip }
        if !rect.isNull {
            // visibility(worldRects:clipRects:viewport:)'s expression.
            var area = rect
            if let clip { area = area.intersection(clip) }
            area = area.intersection(view)
            if area.hasPositiveArea { result.append(handle(atSlot: layer), step.matrix, rect, clip) }
        }
        let first = links.first[layer]
        guard first >= 0 else { return }
        var sublayerClip = clip
        // clipRects(worldRects:)'s expression.
        if flags[layer].contains(.masksToBounds) { sublayerClip = clip.map { $0.intersection(rect) } ?? rect }
        let cull = sublayerClip.map { $0.intersection(view) } ?? view
        guard cull.hasPositiveArea else { return }
        var frame = VisitFrame(
            layer: Int32(layer), step: step, clip: sublayerClip, cull: cull, point: nil, inside: false, next: first)
        if subtreeBounds.state[layer] & SubtreeBounds.Mark.indexed != 0,
            let region = planeRegion(of: cull, under: step.matrix)
        {
            pushCandidates(of: layer, into: &result.candidates, frame: &frame, byDrawRank: true) { $0.meets(region) }
        }
        result.frames.append(frame)
    }

    /// The next sublayer of `frame`'s layer whose extent, mapped to the world, reaches
    /// into the frame's cull rect; nil when none is left.
    func nextCandidate(
        _ frame: inout VisitFrame, _ candidates: [UInt64], tested: inout Int, _ links: SiblingLinks
    ) -> Int? {
        let map = PlaneMap(frame.step.matrix)
        while let sublayer = nextSublayer(&frame, candidates, links.next) {
            tested += 1
            if mappedBox(subtreeBounds.extent[sublayer], through: map).overlapsOpenly(frame.cull) { return sublayer }
        }
        return nil
    }

    /// The next sublayer in the frame's order (its list, or its candidates), or nil.
    @inline(__always)
    func nextSublayer(_ frame: inout VisitFrame, _ candidates: [UInt64], _ next: [Int32]) -> Int? {
        if frame.fromCandidates {
            guard frame.next < frame.end else { return nil }
            defer { frame.next += 1 }
            return Int(UInt32(truncatingIfNeeded: candidates[Int(frame.next)]))
        }
        guard frame.next >= 0 else { return nil }
        let sublayer = Int(frame.next)
        frame.next = next[sublayer]
        return sublayer
    }

    /// Appends the sublayers of indexed `layer` whose extent `accepts` takes to
    /// `candidates`, sorted by drawing rank (sublayer rank when `byDrawRank` is false),
    /// and points `frame` at them.
    func pushCandidates(
        of layer: Int, into candidates: inout [UInt64], frame: inout VisitFrame, byDrawRank: Bool,
        _ accepts: (RectEdges) -> Bool
    ) {
        guard let index = subtreeBounds.indexes[Int32(layer)] else { return }
        let start = candidates.count
        index.forEachCandidate(accepts) { leaf in
            let rank = byDrawRank ? index.drawRanks[leaf] : index.listRanks[leaf]
            candidates.append(UInt64(UInt32(rank)) << 32 | UInt64(UInt32(index.sublayers[leaf])))
        }
        sortInPlace(&candidates, from: start)
        frame.fromCandidates = true
        frame.start = Int32(start)
        frame.next = Int32(start)
        frame.end = Int32(candidates.count)
    }

    /// The box in `matrix`'s plane that holds every plane point whose image lies in
    /// `rect`, widened past the rounding of the unprojection; nil when it cannot be used
    /// to prune: the map is not axis-aligned (an image's bounding box can then reach where
    /// the image does not), it is too close to singular, or a corner lies beyond the
    /// horizon.
    func planeRegion(of rect: RectEdges, under matrix: Transform3D) -> RectEdges? {
        let map = PlaneMap(matrix)
        guard map.m12 == 0, map.m21 == 0, map.m14 == 0, map.m24 == 0, map.m44 == 1,
            let margin = map.unprojectionMargin(
                of: Point(x: Swift.max(abs(rect.minX), abs(rect.maxX)), y: Swift.max(abs(rect.minY), abs(rect.maxY))),
                result: Point(x: 0, y: 0))
        else { return nil }
        let homography = Homography(matrix)
        var region = RectEdges.null
        var found = true
        // Four calls, not a loop over an array literal: no allocation per query.
        func include(_ x: Double, _ y: Double) {
            guard let p = homography.unprojectInFrontOfEye(Point(x: x, y: y)), p.x.isFinite, p.y.isFinite else {
                found = false
                return
            }
            region = region.union(RectEdges(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y))
        }
        include(rect.minX, rect.minY)
        include(rect.minX, rect.maxY)
        include(rect.maxX, rect.minY)
        include(rect.maxX, rect.maxY)
        guard found else { return nil }
        let pad =
            margin + 0x1p-36
            * Swift.max(Swift.max(abs(region.minX), abs(region.maxX)), Swift.max(abs(region.minY), abs(region.maxY)))
        guard pad.isFinite else { return nil }
        return RectEdges(
            minX: region.minX - pad, minY: region.minY - pad, maxX: region.maxX + pad, maxY: region.maxY + pad)
    }
}

/// Sorts `values[start...]` ascending in place, without allocating: insertion sort for
/// short runs, heapsort otherwise.
func sortInPlace(_ values: inout [UInt64], from start: Int) {
    let count = values.count - start
    guard count > 1 else { return }
    if count <= 24 {
        for k in (start + 1)..<values.count {
            let value = values[k]
            var position = k
            while position > start && values[position - 1] > value {
                values[position] = values[position - 1]
                position -= 1
            }
            values[position] = value
        }
        return
    }
    func siftDown(_ root: Int, _ end: Int) {
        var parent = root
        while true {
            let left = 2 * parent + 1
            guard left < end else { return }
            var larger = left
            if left + 1 < end && values[start + left + 1] > values[start + left] { larger = left + 1 }
            guard values[start + parent] < values[start + larger] else { return }
            values.swapAt(start + parent, start + larger)
            parent = larger
        }
    }
    for root in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(root, count) }
    for end in stride(from: count - 1, to: 0, by: -1) {
        values.swapAt(start, start + end)
        siftDown(0, end)
    }
}
