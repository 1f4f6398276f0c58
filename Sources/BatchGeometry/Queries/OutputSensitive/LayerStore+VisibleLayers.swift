// The steps of the frame query's walk (`visibleLayers(in:into:)`).

extension LayerStore {
    /// Visits `layer` (its superlayer's frame at `depth`, nil for a root): its world
    /// transform (from `steps`: the world cache, or computed from its superlayer's), world rect and clip rect, by the full passes'
    /// expressions; appends it when visible; pushes a frame for its sublayers unless none
    /// can be visible, its parked sublayers redone first. `bounds` are the store's subtree
    /// bounds, moved out of it for the walk (`visibleLayers(in:into:)`).
    func enterVisible(
        _ layer: Int, under depth: Int?, view: RectEdges, _ steps: some WorldStepSource, _ links: SiblingLinks,
        _ bounds: inout SubtreeBounds, into result: inout VisibleLayers
    ) {
        let step = steps.step(of: layer, under: depth.map { result.frames[$0].step }, in: self)
        result.cost.visitedLayers += 1
        let rect = projectedWorldRect(of: layer, through: step.matrix)
        let clip = depth.flatMap { result.frames[$0].clip }
        // worldOpacities(into:)'s expression: the root's own, then superlayer's × own.
        let ownOpacity = Double(columns.attributes.opacities[layer])
        let opacity = depth.map { result.frames[$0].opacity * ownOpacity } ?? ownOpacity
        if !rect.isNull {
            // visibility(worldRects:clipRects:viewport:)'s expression.
            var area = rect
            if let clip { area = area.intersection(clip) }
            area = area.intersection(view)
            if area.hasPositiveArea { result.append(handle(atSlot: layer), step.matrix, rect, clip, opacity) }
        }
        // A deferred list's cached links are stale: its order is made below.
        let deferred = hierarchy.zOrderInversions > 0 && caches.drawOrderCache.isDeferred(layer)
        let first = deferred ? hierarchy.firstSublayers[layer] : links.first[layer]
        guard first >= 0 else { return }
        var sublayerClip = clip
        // clipRects(worldRects:)'s expression.
        if columns.flags[layer].contains(.masksToBounds) { sublayerClip = clip.map { $0.intersection(rect) } ?? rect }
        let cull = sublayerClip.map { $0.intersection(view) } ?? view
        guard cull.hasPositiveArea else { return }
        let indexed = bounds.state[layer] & SubtreeBounds.Mark.indexed != 0
        let near = indexed ? planeRegion(of: cull, under: step.matrix) : nil
        if bounds.state[layer] & SubtreeBounds.Mark.hasParked != 0 {
            refreshParkedSublayers(of: layer, near: near, &bounds)  // the boxes read below: current on descent
        }
        var frame = VisitFrame(
            layer: Int32(layer), step: step, clip: sublayerClip, opacity: opacity, cull: cull, next: first)
        if bounds.state[layer] & SubtreeBounds.Mark.indexed != 0, let region = near {
            if let range = pushCandidates(
                of: layer, into: &result.candidates, byDrawRank: true, in: bounds, { $0.meets(region) })
            {
                frame.fromCandidates = true
                (frame.start, frame.next, frame.end) = (range.start, range.start, range.end)
            }
        }
        if deferred && !frame.fromCandidates {
            let range = pushListInDrawOrder(of: layer, into: &result.candidates)
            frame.fromCandidates = true
            (frame.start, frame.next, frame.end) = (range.start, range.start, range.end)
        }
        result.frames.append(frame)
    }

    /// The next sublayer of `frame`'s layer whose extent, mapped to the world, reaches
    /// into the frame's cull rect (`extent`: the subtree bounds' extents); nil when none is
    /// left. Inlined: called out of line from a mutating walk, it was passed a copy of the
    /// whole store (~1.4 KB) per call.
    @inline(__always)
    func nextCandidate(
        _ frame: inout VisitFrame, _ candidates: [UInt64], tested: inout Int, _ links: SiblingLinks,
        _ extent: borrowing RemappedColumn<RectEdges>
    ) -> Int? {
        let map = PlaneMap(frame.step.matrix)
        while let sublayer = nextSublayer(&frame, candidates, links.next) {
            tested += 1
            if mappedBox(extent[sublayer], through: map).overlapsOpenly(frame.cull) {
                return sublayer
            }
        }
        return nil
    }

    /// The next sublayer in the frame's order (its list, or its candidates), or nil.
    @inline(__always)
    func nextSublayer(_ frame: inout VisitFrame, _ candidates: [UInt64], _ next: RemappedColumn<Int32>) -> Int? {
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

    /// `pushCandidates(of:into:byDrawRank:in:_:)` over the store's own subtree bounds (the
    /// single hit walk's; the frame and packet walks hold the bounds moved out).
    func pushCandidates(
        of layer: Int, into candidates: inout [UInt64], byDrawRank: Bool, _ accepts: (RectEdges) -> Bool
    ) -> (start: Int32, end: Int32)? {
        pushCandidates(of: layer, into: &candidates, byDrawRank: byDrawRank, in: caches.subtreeBounds, accepts)
    }

    /// Appends the sublayers of indexed `layer` whose extent `accepts` takes to
    /// `candidates`, in drawing order (list order when `byDrawRank` is false), and returns
    /// where they lie there (nil, nothing appended: `layer` has no index). Drawing order is by (zPosition key, order label), which is the
    /// stable sort by key of the list (`drawOrderLinks()`'s); the labels alone when no
    /// list is out of zPosition order. `bounds`: the store's subtree bounds (the frame
    /// walk holds them moved out of the store). Inlined: out of line, a mutating caller
    /// passes it a copy of the whole store, and an inout `bounds` a copy of those.
    @inline(__always)
    func pushCandidates(
        of layer: Int, into candidates: inout [UInt64], byDrawRank: Bool, in bounds: borrowing SubtreeBounds,
        _ accepts: (RectEdges) -> Bool
    ) -> (start: Int32, end: Int32)? {
        let slot = Int(bounds.indexSlot[layer])
        guard slot >= 0 else { return nil }
        let start = candidates.count
        // Each candidate carries its label's position in the side table in its high 32
        // bits (every sublayer of an indexed list has one), so that a comparison reads
        // the label without a dependent load; cleared after the sort.
        let entries = bounds.drift.referenceSlots
        bounds.indexes[slot].forEachCandidateSublayer(accepts) { sublayer in
            let entry = UInt64(UInt32(bitPattern: entries[Int(sublayer)]))
            candidates.append(entry << 32 | UInt64(UInt32(bitPattern: sublayer)))
        }
        let labels = bounds.drift.orderLabels
        if byDrawRank && hierarchy.zOrderInversions > 0 {
            let z = columns.zValues
            sortInPlace(&candidates, from: start) { a, b in
                let keyA = drawOrderKey(z.zPosition(at: Int(UInt32(truncatingIfNeeded: a))))
                let keyB = drawOrderKey(z.zPosition(at: Int(UInt32(truncatingIfNeeded: b))))
                return keyA < keyB || (!(keyB < keyA) && labels[Int(a >> 32)] < labels[Int(b >> 32)])
            }
        } else {
            sortInPlace(&candidates, from: start) { labels[Int($0 >> 32)] < labels[Int($1 >> 32)] }
        }
        var k = start
        while k < candidates.count {  // the sublayers alone, as the other candidates
            candidates[k] &= 0xFFFF_FFFF
            k += 1
        }
        return (Int32(start), Int32(candidates.count))
    }

    /// The sublayer lists in drawing order for the output-sensitive walks, just after
    /// `refreshDrawOrder(deferringIndexed: true)`: the cache's links, except for the
    /// lists it deferred (`DrawOrderCache.isDeferred`), which the walks order themselves
    /// (`pushListInDrawOrder`, or their R-tree's candidates); the store's own links when
    /// every list is in zPosition order. O(1), no copy.
    func walkOrderLinks() -> SiblingLinks {
        guard hierarchy.zOrderInversions > 0 else {
            return SiblingLinks(first: hierarchy.firstSublayers, next: hierarchy.nextSiblings)
        }
        return caches.drawOrderCache.links
    }

    /// Appends `layer`'s sublayers to `candidates` in drawing order (by zPosition key,
    /// list position breaking ties: `drawOrderLinks()`'s order) and returns where they
    /// lie: for a list whose cached order is deferred. O(w log w); allocates nothing
    /// once `candidates` has grown.
    func pushListInDrawOrder(of layer: Int, into candidates: inout [UInt64]) -> (start: Int32, end: Int32) {
        let start = candidates.count
        var position: UInt64 = 0
        var sublayer = hierarchy.firstSublayers[layer]
        while sublayer >= 0 {
            candidates.append(position << 32 | UInt64(UInt32(bitPattern: sublayer)))
            position += 1
            sublayer = hierarchy.nextSiblings[Int(sublayer)]
        }
        let z = columns.zValues
        sortInPlace(&candidates, from: start) { a, b in
            let keyA = drawOrderKey(z.zPosition(at: Int(UInt32(truncatingIfNeeded: a))))
            let keyB = drawOrderKey(z.zPosition(at: Int(UInt32(truncatingIfNeeded: b))))
            return keyA < keyB || (!(keyB < keyA) && a >> 32 < b >> 32)
        }
        var k = start
        while k < candidates.count {  // the sublayers alone, as the other candidates
            candidates[k] &= 0xFFFF_FFFF
            k += 1
        }
        return (Int32(start), Int32(candidates.count))
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
        // Four corners, written out: no array literal, no capturing local function (both
        // allocate in unoptimized builds).
        let corners = (
            homography.unprojectInFrontOfEye(Point(x: rect.minX, y: rect.minY)),
            homography.unprojectInFrontOfEye(Point(x: rect.minX, y: rect.maxY)),
            homography.unprojectInFrontOfEye(Point(x: rect.maxX, y: rect.minY)),
            homography.unprojectInFrontOfEye(Point(x: rect.maxX, y: rect.maxY))
        )
        guard let c0 = corners.0, let c1 = corners.1, let c2 = corners.2, let c3 = corners.3 else { return nil }
        region = RectEdges(
            minX: Swift.min(Swift.min(c0.x, c1.x), Swift.min(c2.x, c3.x)),
            minY: Swift.min(Swift.min(c0.y, c1.y), Swift.min(c2.y, c3.y)),
            maxX: Swift.max(Swift.max(c0.x, c1.x), Swift.max(c2.x, c3.x)),
            maxY: Swift.max(Swift.max(c0.y, c1.y), Swift.max(c2.y, c3.y)))
        let found = region.minX.isFinite && region.minY.isFinite && region.maxX.isFinite && region.maxY.isFinite
        guard found else { return nil }
        let pad =
            margin + 0x1p-36
            * Swift.max(Swift.max(abs(region.minX), abs(region.maxX)), Swift.max(abs(region.minY), abs(region.maxY)))
        guard pad.isFinite else { return nil }
        return RectEdges(
            minX: region.minX - pad, minY: region.minY - pad, maxX: region.maxX + pad, maxY: region.maxY + pad)
    }
}

/// Sorts `values[start...]` by `before` in place, without allocating: insertion sort for
/// short runs, heapsort otherwise. `before` must be a strict total order on the values.
func sortInPlace(_ values: inout [UInt64], from start: Int, by before: (UInt64, UInt64) -> Bool) {
    let count = values.count - start
    guard count > 1 else { return }
    if count <= 24 {
        var k = start + 1
        while k < values.count {
            defer { k += 1 }
            let value = values[k]
            var position = k
            while position > start && before(value, values[position - 1]) {
                values[position] = values[position - 1]
                position -= 1
            }
            values[position] = value
        }
        return
    }
    var root = count / 2 - 1
    while root >= 0 {
        siftDown(&values, start, root, count, before)
        root -= 1
    }
    var end = count - 1
    while end > 0 {
        defer { end -= 1 }
        let swapped = values[start]
        values[start] = values[start + end]
        values[start + end] = swapped
        siftDown(&values, start, 0, end, before)
    }
}

/// Heapsort's sift-down of `values[start + root]` in the heap of the `end` values from
/// `start`.
private func siftDown(
    _ values: inout [UInt64], _ start: Int, _ root: Int, _ end: Int, _ before: (UInt64, UInt64) -> Bool
) {
    var parent = root
    while true {
        let left = 2 * parent + 1
        guard left < end else { return }
        var larger = left
        if left + 1 < end && before(values[start + left], values[start + left + 1]) { larger = left + 1 }
        guard before(values[start + parent], values[start + larger]) else { return }
        let swapped = values[start + parent]
        values[start + parent] = values[start + larger]
        values[start + larger] = swapped
        parent = larger
    }
}
