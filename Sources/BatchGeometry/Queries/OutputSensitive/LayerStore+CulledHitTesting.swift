// Hit testing through the subtree bounds: the same answers as `hitTest(_:in:rule:)`'s
// walk over every layer, visiting only the subtrees whose extent holds the point, with
// world transforms read from the current world cache, or computed on the way down.

/// The walk's stack and candidate lists, kept by the store between queries so a
/// warmed-up hit test allocates nothing.
struct WalkScratch: Sendable {
    var frames: [VisitFrame] = []
    var candidates: [UInt64] = []
}

extension LayerStore {
    /// The frontmost layer under `point` (world space), or nil: the answer of
    /// `hitTest(_:in:rule:)` with `worldTransforms()`, found without a snapshot. Only the
    /// subtrees whose subtree bounds hold the point are visited, back to front, and the
    /// walk stops at the first hit; a wide layer's sublayers are found through its
    /// spatial index. World transforms are read from the world cache when it is current
    /// (`updateWorld()` ran after the last change), else computed for the visited layers
    /// only (same bits).
    /// Mutating: it first brings the cached subtree bounds and drawing order up to date.
    ///
    /// Complexity: O(depth · log(width) + candidates) for a point in a typical interface
    /// (plus O(changed × depth) for the edits since the last query; the first call builds
    /// the caches in O(count)). Allocates nothing once warmed up.
    public mutating func hitTest(_ point: Point, rule: HitTestRule = .layer) -> LayerHandle? {
        refreshDrawOrder()
        refreshSubtreeBounds()
        var scratch = caches.walkScratch
        caches.walkScratch = WalkScratch()
        defer { caches.walkScratch = scratch }
        let hit =
            worldCacheIsCurrent
            ? culledHitTest(point, rule: rule, CachedWorldSteps(), &scratch)
            : culledHitTest(point, rule: rule, ComputedWorldSteps(), &scratch)
        return hit.map { handle(atSlot: $0) }
    }

    /// `hitTest(_:rule:)` for each of `points`, written into `results` (entry k for
    /// `points[k]`; resized to `points.count`). The caches are brought up to date once.
    /// Complexity: as `hitTest(_:rule:)` per point. Allocates nothing once `results` has
    /// grown to the batch.
    public mutating func hitTest(points: [Point], rule: HitTestRule = .layer, into results: inout [LayerHandle?]) {
        refreshDrawOrder()
        refreshSubtreeBounds()
        var scratch = caches.walkScratch
        caches.walkScratch = WalkScratch()
        defer { caches.walkScratch = scratch }
        results.removeAll(keepingCapacity: true)
        let readingCache = worldCacheIsCurrent
        var k = 0
        while k < points.count {  // not `for in`: its iterator allocates unoptimized
            results.append(
                (readingCache
                    ? culledHitTest(points[k], rule: rule, CachedWorldSteps(), &scratch)
                    : culledHitTest(points[k], rule: rule, ComputedWorldSteps(), &scratch)).map { handle(atSlot: $0) })
            k += 1
        }
    }

    /// The slot hit at `point`; the caches must be current. World transforms come from
    /// `steps` (the world cache when it is current, else computed on the way).
    func culledHitTest(
        _ point: Point, rule: HitTestRule, _ steps: some WorldStepSource, _ scratch: inout WalkScratch
    ) -> Int? {
        scratch.frames.removeAll(keepingCapacity: true)
        scratch.candidates.removeAll(keepingCapacity: true)
        let skip = skippedSubtreeFlags(rule)
        var root = hierarchy.lastRoot
        while root >= 0 {
            let top = Int(root)
            root = hierarchy.previousSiblings[top]
            guard columns.flags[top].isDisjoint(with: skip), caches.subtreeBounds.extent[top].containsClosed(point)
            else { continue }
            if let hit = hitSubtree(of: top, point, rule, steps, &scratch) { return hit }
        }
        return nil
    }

    /// Hit order below root `top`: each layer's sublayers last to first (drawing order
    /// for the layer rule, sublayer order for the view rule), then the layer; the first
    /// layer that contains the point wins. Explicit stack, any depth.
    private func hitSubtree(
        of top: Int, _ point: Point, _ rule: HitTestRule, _ steps: some WorldStepSource, _ scratch: inout WalkScratch
    ) -> Int? {
        if let hit = enterHit(top, under: nil, point, rule, steps, &scratch) { return hit }
        let skip = skippedSubtreeFlags(rule)
        while !scratch.frames.isEmpty {
            let depth = scratch.frames.count - 1
            if let sublayer = nextHitCandidate(&scratch.frames[depth], scratch.candidates, skip: skip) {
                if let hit = enterHit(sublayer, under: depth, point, rule, steps, &scratch) { return hit }
            } else {
                let frame = scratch.frames.removeLast()
                if frame.fromCandidates { scratch.candidates.removeLast(Int(frame.end - frame.start)) }
                if frame.inside { return Int(frame.layer) }
            }
        }
        return nil
    }

    /// Visits `layer`: returns it when it is hit with no sublayer to try first; else
    /// pushes a frame for its sublayers (when the rule enters them) and returns nil.
    private func enterHit(
        _ layer: Int, under depth: Int?, _ point: Point, _ rule: HitTestRule, _ steps: some WorldStepSource,
        _ scratch: inout WalkScratch
    ) -> Int? {
        let step = steps.step(of: layer, under: depth.map { scratch.frames[$0].step }, in: self)
        // hitTestWalk's expressions: the same unprojection, the same containment.
        let local = step.matrix.unprojectPointInFrontOfEye(point)
        var inside = false
        if let local { inside = contains(layer, local) }
        let entersSublayers =
            rule == .layer ? inside || !columns.flags[layer].contains(.masksToBounds) : inside
        guard entersSublayers, hierarchy.firstSublayers[layer] >= 0 else { return inside ? layer : nil }
        // Prune by the point in this layer's plane only when it is accurate, and then
        // with a margin for its rounding.
        let margin = local.flatMap { PlaneMap(step.matrix).unprojectionMargin(of: point, result: $0) }
        let prunePoint = margin == nil ? nil : local
        var frame = VisitFrame(
            layer: Int32(layer), step: step, clip: nil, cull: .null, point: prunePoint, pointMargin: margin ?? 0,
            inside: inside, next: hierarchy.lastSublayers[layer])
        if let prunePoint, let margin, caches.subtreeBounds.state[layer] & SubtreeBounds.Mark.indexed != 0 {
            pushCandidates(of: layer, into: &scratch.candidates, frame: &frame, byDrawRank: rule == .layer) {
                $0.containsClosed(prunePoint, margin: margin)
            }
            frame.next = frame.end
        } else if rule == .layer && hierarchy.zOrderInversions > 0 {
            pushDrawOrderList(of: layer, into: &scratch.candidates, frame: &frame)
        }
        scratch.frames.append(frame)
        return nil
    }

    /// Puts `layer`'s sublayers, in drawing order, on the candidate list (to be walked
    /// backwards).
    private func pushDrawOrderList(of layer: Int, into candidates: inout [UInt64], frame: inout VisitFrame) {
        let links = drawOrderLinks()
        let start = candidates.count
        var sublayer = links.first[layer]
        while sublayer >= 0 {
            candidates.append(UInt64(UInt32(sublayer)))
            sublayer = links.next[Int(sublayer)]
        }
        frame.fromCandidates = true
        frame.start = Int32(start)
        frame.end = Int32(candidates.count)
        frame.next = frame.end
    }

    /// The flags that make `rule` skip a layer with its subtree: hidden (a detached root
    /// too, for the roots); under the view rule also opacity < 0.01 and interaction
    /// disabled (`LayerFlags.skippedByViewRule`), so the walk prunes those subtrees
    /// without computing a world transform in them.
    @inline(__always)
    private func skippedSubtreeFlags(_ rule: HitTestRule) -> LayerFlags {
        rule == .layer ? .hiddenOrDetached : .hiddenDetachedOrSkippedByViewRule
    }

    /// The next sublayer to try, last to first, skipping those whose extent cannot hold
    /// the point and those `skip` rules out; nil when none is left.
    private func nextHitCandidate(_ frame: inout VisitFrame, _ candidates: [UInt64], skip: LayerFlags) -> Int? {
        while true {
            let sublayer: Int
            if frame.fromCandidates {
                guard frame.next > frame.start else { return nil }
                frame.next -= 1
                sublayer = Int(UInt32(truncatingIfNeeded: candidates[Int(frame.next)]))
            } else {
                guard frame.next >= 0 else { return nil }
                sublayer = Int(frame.next)
                frame.next = hierarchy.previousSiblings[sublayer]
            }
            let extent = caches.subtreeBounds.extent[sublayer]
            // Null: hidden, or nothing in the subtree has an area to be hit in.
            if extent.isNull || !columns.flags[sublayer].isDisjoint(with: skip) { continue }
            if let point = frame.point, !extent.containsClosed(point, margin: frame.pointMargin) { continue }
            return sublayer
        }
    }
}

extension LayerFlags {
    /// `[.hidden, .detached, .skippedByViewRule]`: what the view rule's culled walk skips.
    static let hiddenDetachedOrSkippedByViewRule = LayerFlags(
        rawValue: hidden.rawValue | detached.rawValue | skippedByViewRule.rawValue)
}
