// Hit testing through the subtree bounds: the same answers as `hitTest(_:in:rule:)`'s
// walk over every layer, visiting only the subtrees whose extent holds the point, with
// world transforms read from the current world cache, or computed on the way down.

/// The walk's stacks and candidate lists, kept by the store between queries so a
/// warmed-up hit test allocates nothing.
struct WalkScratch: Sendable {
    var frames: [HitFrame] = []
    /// The world steps of the layers in `frames`, when the walk computes each layer's from
    /// its superlayer's (`WorldStepSource.readsSuperlayerStep`); else empty.
    var steps: [WorldStep] = []
    var candidates: [UInt64] = []
    /// Layers the walks visited (unprojected the point into) and sublayers whose extents
    /// they tested, since the store was made: what a hit test's cost is counted in.
    var visitedLayers = 0
    var testedSublayers = 0
    /// Culled hit tests run since the store was made (the divisor for the two above).
    var points = 0

    /// The step of the layer on top of `frames` (nil: none kept, or at a root). Not
    /// `steps.last`: the generic getter allocates in unoptimized builds.
    var superlayerStep: WorldStep? { steps.isEmpty ? nil : steps[steps.count - 1] }

    /// Room in the walk's stacks for `levels` layers, one above the other (a walk holds
    /// one frame, and one step, a level it is inside): `warmUp(options:)` grows them to
    /// the tree's depth, else the first hit tests grow them as they go deeper.
    mutating func reserveStacks(levels: Int) {
        if frames.capacity < levels { frames.reserveCapacity(levels) }
        if steps.capacity < levels { steps.reserveCapacity(levels) }
    }
}

/// A layer whose sublayers the hit walk is going through. Small (no world matrix: that is
/// on `WalkScratch.steps` when it is needed at all), since the walk pushes one for every
/// layer it enters.
struct HitFrame {
    var layer: Int32
    /// The next sublayer to look at (-1: none left), or, when `fromCandidates`, one past
    /// the next position in the candidate list (walked backwards down to `start`).
    var next: Int32
    var start: Int32 = 0
    var end: Int32 = 0
    /// The point in the layer's bounds space, and how far it may be from the exact plane
    /// point (`unprojectionMargin`); a negative margin: the point cannot prune.
    var point: Point
    var margin: Double
    /// The layer itself contains the point.
    var inside: Bool
    var fromCandidates = false
}

/// What the hit walk does after visiting a layer.
enum HitVisit {
    /// The layer is the answer: it contains the point and no sublayer can be hit first.
    case hit(Int)
    /// Try this sublayer next (a frame for the layer was pushed).
    case descend(Int)
    /// Neither the layer nor its sublayers can be hit.
    case miss
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
        refreshDrawOrder(deferringIndexed: true)
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
    /// `points[k]`; resized to `points.count`): the same answers. The caches are brought
    /// up to date once; a batch of 64 points or more is put in a Z order of the points and
    /// walked in packets of 64 consecutive points (`HitPacket`): a packet goes down the
    /// tree once, each layer it reaches read and its extent tested once for all its
    /// points, and only the points the packet's box leaves in doubt tested one by one.
    /// Complexity: at most as `hitTest(_:rule:)` per point, plus O(n) for the order; near
    /// points share their visits. Allocates nothing once `results` and the store's
    /// scratch have grown to the batch.
    public mutating func hitTest(points: [Point], rule: HitTestRule = .layer, into results: inout [LayerHandle?]) {
        refreshDrawOrder(deferringIndexed: true)
        refreshSubtreeBounds()
        var scratch = caches.walkScratch
        caches.walkScratch = WalkScratch()
        defer { caches.walkScratch = scratch }
        results.removeAll(keepingCapacity: true)
        var k = 0
        while k < points.count {  // not `for in`: its iterator allocates unoptimized
            results.append(nil)
            k += 1
        }
        guard points.count >= HitPointOrder.smallestSortedBatch else {
            let readingCache = worldCacheIsCurrent
            k = 0
            while k < points.count {
                results[k] =
                    (readingCache
                    ? culledHitTest(points[k], rule: rule, CachedWorldSteps(), &scratch)
                    : culledHitTest(points[k], rule: rule, ComputedWorldSteps(), &scratch)).map { handle(atSlot: $0) }
                k += 1
            }
            return
        }
        caches.hitPointOrder.sort(points)
        var packet = caches.hitPackets
        caches.hitPackets = HitPacket()
        defer { caches.hitPackets = packet }
        let order = caches.hitPointOrder.order  // shared, not copied: nothing writes it below
        if worldCacheIsCurrent {
            packetHitTests(points, order, rule, CachedWorldSteps(), &scratch, &packet, into: &results)
        } else {
            packetHitTests(points, order, rule, ComputedWorldSteps(), &scratch, &packet, into: &results)
        }
    }

    /// The slot hit at `point`; the caches must be current. World transforms come from
    /// `steps` (the world cache when it is current, else computed on the way).
    mutating func culledHitTest(
        _ point: Point, rule: HitTestRule, _ steps: some WorldStepSource, _ scratch: inout WalkScratch
    ) -> Int? {
        scratch.frames.removeAll(keepingCapacity: true)
        scratch.steps.removeAll(keepingCapacity: true)
        scratch.candidates.removeAll(keepingCapacity: true)
        scratch.points += 1
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
    /// layer that contains the point wins. Explicit stack, any depth; a frame is pushed
    /// only for a layer with a sublayer left to try.
    private mutating func hitSubtree(
        of top: Int, _ point: Point, _ rule: HitTestRule, _ steps: some WorldStepSource, _ scratch: inout WalkScratch
    ) -> Int? {
        let skip = skippedSubtreeFlags(rule)
        var layer = top
        while true {
            switch enterHit(layer, point, rule, steps, skip: skip, &scratch) {
            case .hit(let hit): return hit
            case .descend(let sublayer):
                layer = sublayer
                continue
            case .miss: break
            }
            // Back up to the nearest layer with a sublayer left to try.
            var next: Int?
            while next == nil, !scratch.frames.isEmpty {
                let depth = scratch.frames.count - 1
                next = nextHitCandidate(&scratch.frames[depth], scratch.candidates, skip, &scratch.testedSublayers)
                if next != nil { break }
                let frame = scratch.frames.removeLast()
                if steps.readsSuperlayerStep { scratch.steps.removeLast() }
                if frame.fromCandidates { scratch.candidates.removeLast(Int(frame.end - frame.start)) }
                if frame.inside { return Int(frame.layer) }
            }
            guard let next else { return nil }
            layer = next
        }
    }

    /// Visits `layer` (its superlayer's frame on top of the stack, none for a root):
    /// unprojects the point into its plane, tests it, and finds its first sublayer to try
    /// (pushing a frame for the rest).
    private mutating func enterHit(
        _ layer: Int, _ point: Point, _ rule: HitTestRule, _ steps: some WorldStepSource, skip: LayerFlags,
        _ scratch: inout WalkScratch
    ) -> HitVisit {
        scratch.visitedLayers += 1
        // hitTestWalk's answers: the same unprojection (the planar form's shorter
        // expressions give the same values), the same containment.
        var step: WorldStep?
        var planar = steps.planarWorld(of: layer, in: self)
        if planar == nil {
            let computed = steps.step(of: layer, under: scratch.superlayerStep, in: self)
            step = computed
            planar = PlanarWorld(computed.matrix)
        }
        let local: Point?
        let margin: Double?
        if let planar, let fast = planar.unprojectInFrontOfEye(point) {
            local = fast
            margin = PlaneMap(planar).unprojectionMargin(of: point, result: fast)
        } else {
            let general = step ?? steps.step(of: layer, under: scratch.superlayerStep, in: self)
            step = general
            local = general.matrix.unprojectPointInFrontOfEye(point)
            margin = local.flatMap { PlaneMap(general.matrix).unprojectionMargin(of: point, result: $0) }
        }
        let inside = local.map { contains(layer, $0) } ?? false
        let entersSublayers = rule == .layer ? inside || !columns.flags[layer].contains(.masksToBounds) : inside
        guard entersSublayers, hierarchy.firstSublayers[layer] >= 0 else { return inside ? .hit(layer) : .miss }
        // Prune by the point in this layer's plane only when it is accurate, and then
        // with a margin for its rounding.
        let prunePoint = margin == nil ? Point(x: 0, y: 0) : local ?? Point(x: 0, y: 0)
        // The boxes read below: current on descent, near the point when it prunes.
        refreshParkedSublayers(of: layer, near: margin.map { RectEdges(around: prunePoint, margin: $0) })
        var frame = HitFrame(
            layer: Int32(layer), next: hierarchy.lastSublayers[layer], point: prunePoint, margin: margin ?? -1,
            inside: inside)
        if let margin, caches.subtreeBounds.state[layer] & SubtreeBounds.Mark.indexed != 0,
            let range = pushCandidates(
                of: layer, into: &scratch.candidates, byDrawRank: rule == .layer,
                { $0.containsClosed(prunePoint, margin: margin) })
        {
            (frame.fromCandidates, frame.start, frame.next, frame.end) = (true, range.start, range.end, range.end)
        } else if rule == .layer && hierarchy.zOrderInversions > 0 {
            let range = pushDrawOrderList(of: layer, into: &scratch.candidates)
            (frame.fromCandidates, frame.start, frame.end, frame.next) = (true, range.start, range.end, range.end)
        }
        guard let first = nextHitCandidate(&frame, scratch.candidates, skip, &scratch.testedSublayers) else {
            if frame.fromCandidates { scratch.candidates.removeLast(Int(frame.end - frame.start)) }
            return inside ? .hit(layer) : .miss
        }
        scratch.frames.append(frame)
        if steps.readsSuperlayerStep {
            scratch.steps.append(step ?? steps.step(of: layer, under: scratch.superlayerStep, in: self))
        }
        return .descend(first)
    }

    /// Puts `layer`'s sublayers, in drawing order, on the candidate list (to be walked
    /// backwards) and returns where they lie.
    func pushDrawOrderList(of layer: Int, into candidates: inout [UInt64]) -> (start: Int32, end: Int32) {
        if caches.drawOrderCache.isDeferred(layer) {  // its cached order is stale
            return pushListInDrawOrder(of: layer, into: &candidates)
        }
        let links = walkOrderLinks()
        let start = candidates.count
        var sublayer = links.first[layer]
        while sublayer >= 0 {
            candidates.append(UInt64(UInt32(sublayer)))
            sublayer = links.next[Int(sublayer)]
        }
        return (Int32(start), Int32(candidates.count))
    }

    /// The flags that make `rule` skip a layer with its subtree: hidden (a detached root
    /// too, for the roots); under the view rule also opacity < 0.01 and interaction
    /// disabled (`LayerFlags.skippedByViewRule`), so the walk prunes those subtrees
    /// without computing a world transform in them.
    @inline(__always)
    func skippedSubtreeFlags(_ rule: HitTestRule) -> LayerFlags {
        rule == .layer ? .hiddenOrDetached : .hiddenDetachedOrSkippedByViewRule
    }

    /// The next sublayer to try, last to first, skipping those whose extent cannot hold
    /// the point and those `skip` rules out; nil when none is left. Counts the sublayers
    /// it looks at into `tested`.
    @inline(__always)
    private func nextHitCandidate(
        _ frame: inout HitFrame, _ candidates: [UInt64], _ skip: LayerFlags, _ tested: inout Int
    ) -> Int? {
        let extents = caches.subtreeBounds.extent
        let flags = columns.flags
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
            tested += 1
            let extent = extents[sublayer]
            // Null: hidden, or nothing in the subtree has an area to be hit in.
            if extent.isNull || !flags[sublayer].isDisjoint(with: skip) { continue }
            if frame.margin >= 0, !extent.containsClosed(frame.point, margin: frame.margin) { continue }
            return sublayer
        }
    }
}

extension LayerStore {
    /// The culled hit tests' running counts since the store was made: points asked, layers
    /// visited (the point unprojected into them) and sublayer extents tested (batchbench's
    /// cost per point). O(1).
    package var culledHitTestCounts: (points: Int, visitedLayers: Int, testedSublayers: Int) {
        (caches.walkScratch.points, caches.walkScratch.visitedLayers, caches.walkScratch.testedSublayers)
    }
}

extension LayerFlags {
    /// `[.hidden, .detached, .skippedByViewRule]`: what the view rule's culled walk skips.
    static let hiddenDetachedOrSkippedByViewRule = LayerFlags(
        rawValue: hidden.rawValue | detached.rawValue | skippedByViewRule.rawValue)
}
