// The culled sample (issue 23, docs/ANIMATION.md section 10): only the animations that
// can show in a region are sampled; the others are timed (for `finished` and removal)
// and their layers keep the model's values. Sampling is a pure function of time, so an
// animation skipped now and sampled later is exact then.
//
// Each animated layer that can be bounded gets a reach: a box in its superlayer's bounds
// space that holds its whole subtree under every value its animations can take and under
// the model's values. A layer is culled when the world box of its reach (through its
// superlayer's world transform, read from the model) misses the region. Layers that
// cannot be bounded (other key paths, keyframes, ends read from the model, an animated
// ancestor or descendant, 3D) are always sampled.

/// One animated layer whose animations the culled sample can bound: the ranges of the
/// values they take, resolved when the live list or the model's structure changes.
struct CullMember: Sendable {
    var layer: Int32
    /// 0: no position animation; 1: additive (the range is added to the model's); 2: the
    /// range replaces the model's position.
    var positionMode: UInt8 = 0
    var positionLow = SIMD2<Double>(0, 0)
    var positionHigh = SIMD2<Double>(0, 0)
    var hasScale = false
    /// `transform.scale`'s range, 1 (the model's identity transform) included.
    var scaleLow = 1.0
    var scaleHigh = 1.0
    /// Whether the layer's reach met the region at the latest culled sample.
    var isVisible = true
    /// The reach from the model's values when it was computed (nil: not bounded), and
    /// whether it is still the model's: no layer of the subtree was edited since
    /// (`EditLog`).
    var reach: RectEdges?
    var isReachCurrent = false
}

/// The members that share a superlayer (`members` indexes `AnimationCull.members`).
struct CullGroup: Sendable {
    var superlayer: Int32
    var members: Range<Int>
}

/// The culled sample's tables and scratch (`AnimationStore.cull`).
struct AnimationCull: Sendable {
    /// The live list's and the model's structure version the tables were made for.
    var liveVersion: UInt64?
    var structureVersion: UInt64 = 0
    var members: [CullMember] = []
    var groups: [CullGroup] = []
    /// Per animation number: its layer's member, or −1 (always sampled).
    var memberOfAnimation: [Int32] = []
    /// The member of each member's layer.
    var memberOfLayer: [Int32: Int32] = [:]
    /// The model's `EditLog.written` when the reaches were last brought up to date.
    var logRead: UInt64 = 0
    /// Scratch: the live animations sampled and culled, in the order added.
    var shown: [Int32] = []
    var culled: [Int32] = []
    /// Scratch of the subtree walk: a layer and its affine map to the member's bounds space.
    var stack: [(layer: Int32, map: AffineTransform)] = []
    /// The most descendants a member's subtree may have; past it, always sampled.
    static let maximumDescendants = 64
}

extension AnimationStore {
    /// Samples the animations that can show in `region` (world space, the rectangle a
    /// frame's queries ask about, such as `visibleLayers(in:into:)`'s viewport) at `time`,
    /// and writes their layers' presentation values into `presentation` (cleared first).
    /// The other animations are timed but not sampled: their layers get no values, so
    /// `LayerStore.updatePresentation(from:to:model:)` leaves them holding the model's.
    ///
    /// The contract: after `updatePresentation(from: previous, to: presentation, model:)`
    /// the presentation store answers every query about `region` — the layers visible in
    /// it, their world rectangles, clips, opacities and draw order, hit tests at points in
    /// it — exactly (the same bits) as after the full `sample(at:model:into:)`. Outside the
    /// region a culled layer holds its model values, so a query there answers for the
    /// model. `finished`, removal on completion and the live list are the full sample's.
    /// The host makes each model edit to both stores before the sample (section 10's
    /// rule), and keeps the previous sample for the update as with the full sample.
    ///
    /// An animated layer is culled only when every animation on it is a basic or spring
    /// animation with ends resolved at `add` (not the value underneath), not cumulative,
    /// on `position`, `transform.scale` or `opacity` (at most one of each geometric key
    /// path), its model transform is the identity, no ancestor or descendant is animated,
    /// its subtree is planar (2D affine transforms, no sublayer transform, flip or
    /// transform layer) with at most 64 descendants, and its superlayer's world transform
    /// is 2D affine; and when its reach, a box that holds its subtree under every value
    /// those animations can take (timing-function curves by their control points, springs
    /// by their envelope) and under the model's, misses `region` in the world. Anything
    /// else is sampled. A sample with a layer timing set, or the first after an `add` or a
    /// structure change of the model, samples everything (it verifies the layers).
    ///
    /// O(live animations) for the timing of the culled ones and the test of each layer's
    /// reach, kept from sample to sample and redone (reading its subtree in the model) only
    /// for the layers whose subtree the model's setters edited since (O(edits × depth) to
    /// find them), plus the full sample's cost for the animations that show, plus
    /// O(superlayers × depth) for the superlayers' world transforms. Allocates nothing once warm, except when the live list or the model's
    /// structure changed since the previous culled sample (the tables are remade).
    ///
    /// - Throws: `AnimationError` (field `time`) as `sample(at:model:into:)`.
    public mutating func sample(
        at time: Double, model: borrowing LayerStore, into presentation: inout PresentationValues,
        culledTo region: Rect
    ) throws(AnimationError) {
        let structure = model.hierarchy.structureVersion
        guard layerTimings.isEmpty && verifiedStructure == structure && !live.isEmpty else {
            try sample(at: time, model: model, into: &presentation)
            return
        }
        try checkSampleTime(time)
        lastSampleTime = time
        _ = Self.usableCKernel
        presentation.reset(slotCount: model.count)
        if cull.liveVersion != liveVersion || cull.structureVersion != structure {
            makeCullTables(model: model)
        }
        invalidateEditedReaches(model: model)
        markVisibleMembers(in: region, model: model)
        splitLiveList()
        let finishedBefore = finished.count
        var removedAny = false
        if !cull.shown.isEmpty { removedAny = runSteadyTimingPass(time: time, over: cull.shown).removedAny }
        if timeCulled(at: time) { removedAny = true }
        lastCulledCount = cull.culled.count
        if removedAny { compactLiveLists() }
        composeShowing(model: model, into: &presentation)
        if finished.count > finishedBefore { finished.sort() }
        sampledVersion = liveVersion
    }

    /// Splits the live list into the animations to sample and the culled ones, in the
    /// order added. O(live animations), no allocation once the lists have grown.
    private mutating func splitLiveList() {
        cull.shown.removeAll(keepingCapacity: true)
        cull.culled.removeAll(keepingCapacity: true)
        // An index loop: an array's for-in allocates per element in unoptimized builds.
        for k in 0..<live.count {
            let i = live[k]
            let member = Int(cull.memberOfAnimation[Int(i)])
            if member < 0 || cull.members[member].isVisible {
                cull.shown.append(i)
            } else {
                cull.culled.append(i)
            }
        }
    }

    /// The culled animations' timing: finished (and removed on completion) exactly as the
    /// timing pass does it, not showing otherwise. Returns whether any left the store.
    private mutating func timeCulled(at time: Double) -> Bool {
        var removedAny = false
        for k in cull.culled.indices {
            let i = Int(cull.culled[k])
            states[i].isShowing = false
            let timing = timings[i]
            guard timing.isAfterEnd(time) else { continue }
            if !flags[i].contains(.finished) {
                flags[i].insert(.finished)
                finished.append(i)
            }
            if timing.removedOnCompletion {
                flags[i].insert(.removed)
                removedAny = true
            }
        }
        return removedAny
    }

    /// Marks stale the reach of every member with a layer in its subtree that the model's
    /// `EditLog` recorded since the last sample (every member when the log went round).
    /// O(edits × depth), no allocation.
    private mutating func invalidateEditedReaches(model: borrowing LayerStore) {
        let written = model.caches.editLog.written
        if written &- cull.logRead > UInt64(EditLog.capacity) {
            for m in cull.members.indices { cull.members[m].isReachCurrent = false }
        } else {
            var number = cull.logRead
            while number < written {
                var layer = model.caches.editLog.layer(number)
                while layer >= 0 && layer < model.count {
                    if let m = cull.memberOfLayer[Int32(layer)] { cull.members[Int(m)].isReachCurrent = false }
                    layer = Int(model.hierarchy.parents[layer])
                }
                number += 1
            }
        }
        cull.logRead = written
    }

    /// Sets each member's `isVisible` for `region`, a superlayer at a time.
    private mutating func markVisibleMembers(in region: Rect, model: borrowing LayerStore) {
        for g in cull.groups.indices {
            let group = cull.groups[g]
            guard let toWorld = Self.planarSublayerToWorld(of: Int(group.superlayer), model: model) else {
                for m in group.members { cull.members[m].isVisible = true }
                continue
            }
            for m in group.members {
                if !cull.members[m].isReachCurrent {
                    cull.members[m].reach = reach(of: cull.members[m], model: model)
                    cull.members[m].isReachCurrent = true
                }
                if let reach = cull.members[m].reach {
                    cull.members[m].isVisible = Self.worldBox(of: reach, through: toWorld, meets: region)
                } else {
                    cull.members[m].isVisible = true
                }
            }
        }
    }

    /// `Adjust(S) · Flat(S) · ToWorld(S)` of superlayer `s` (what takes a point of its
    /// bounds space, before its sublayer adjustments, to the world), from the model, when
    /// it is a 2D affine map whatever the point's z; else nil. O(depth).
    static func planarSublayerToWorld(of s: Int, model: borrowing LayerStore) -> Transform3D? {
        var adjust = model.sublayerAdjustment(of: s)
        if !model.columns.flags[s].contains(.transformLayer) {
            adjust.m13 = 0
            adjust.m23 = 0
            adjust.m33 = 0
            adjust.m43 = 0
        }
        let m = adjust.concatenating(model.worldTransform(of: s))
        guard m.m31 == 0 && m.m32 == 0 && m.m34 == 0 && m.m14 == 0 && m.m24 == 0 && m.m44 == 1 else { return nil }
        return m
    }

    /// Whether the world bounding box of `box` through the affine `m` meets `region`,
    /// widened by a margin for the queries' own rounding. True for anything not finite.
    static func worldBox(of box: RectEdges, through m: Transform3D, meets region: Rect) -> Bool {
        let cx = (box.minX + box.maxX) * 0.5
        let cy = (box.minY + box.maxY) * 0.5
        let hx = (box.maxX - box.minX) * 0.5
        let hy = (box.maxY - box.minY) * 0.5
        let wx = cx * m.m11 + cy * m.m21 + m.m41
        let wy = cx * m.m12 + cy * m.m22 + m.m42
        let ex = hx * abs(m.m11) + hy * abs(m.m21)
        let ey = hx * abs(m.m12) + hy * abs(m.m22)
        let margin = 1e-9 * (abs(wx) + abs(wy) + ex + ey) + 1e-6
        let misses =
            wx + ex + margin < region.minX || wx - ex - margin > region.maxX
            || wy + ey + margin < region.minY || wy - ey - margin > region.maxY
        return !misses
    }

    /// Member `member`'s reach in its superlayer's bounds space, from the model's values
    /// now; nil when it cannot be bounded (the caller samples it). O(its subtree).
    mutating func reach(of member: CullMember, model: borrowing LayerStore) -> RectEdges? {
        let layer = Int(member.layer)
        guard model.columns.transforms.kind(at: layer) == .identity, let content = subtreeBox(of: layer, model: model)
        else { return nil }
        let anchorX = model.columns.boundsX[layer] + model.columns.anchorX[layer] * model.columns.boundsWidth[layer]
        let anchorY = model.columns.boundsY[layer] + model.columns.anchorY[layer] * model.columns.boundsHeight[layer]
        let position = SIMD2(model.columns.positionX[layer], model.columns.positionY[layer])
        var low = position
        var high = position
        if member.positionMode == 1 {
            low = position + member.positionLow
            high = position + member.positionHigh
        } else if member.positionMode == 2 {
            low = pointwiseMin(position, member.positionLow)
            high = pointwiseMax(position, member.positionHigh)
        }
        let x = Self.scaledRange(content.minX - anchorX, content.maxX - anchorX, member.scaleLow, member.scaleHigh)
        let y = Self.scaledRange(content.minY - anchorY, content.maxY - anchorY, member.scaleLow, member.scaleHigh)
        let box = RectEdges(minX: low.x + x.low, minY: low.y + y.low, maxX: high.x + x.high, maxY: high.y + y.high)
        // min and max drop a NaN: a value that is not finite anywhere is not bounded.
        let sum = box.minX + box.minY + box.maxX + box.maxY + anchorX + anchorY + position.x + position.y
        return sum.isFinite ? box : nil
    }

    /// The range of s·d for s in [sLow, sHigh] and d in [dLow, dHigh] (bilinear: the
    /// corners bound it).
    static func scaledRange(_ dLow: Double, _ dHigh: Double, _ sLow: Double, _ sHigh: Double) -> (
        low: Double, high: Double
    ) {
        let a = sLow * dLow
        let b = sLow * dHigh
        let c = sHigh * dLow
        let d = sHigh * dHigh
        return (min(min(a, b), min(c, d)), max(max(a, b), max(c, d)))
    }
}

// The reach's pieces: the subtree's box and the tables of members.
extension AnimationStore {
    /// The box, in layer `root`'s bounds space, of its bounds and every descendant's
    /// (hidden ones and masks ignored: a larger box), or nil when a map on the way is not
    /// 2D affine or the subtree has more than `maximumDescendants` layers. O(subtree).
    mutating func subtreeBox(of root: Int, model: borrowing LayerStore) -> RectEdges? {
        var box = Self.boundsBox(of: root, columns: model.columns, through: .identity)
        cull.stack.removeAll(keepingCapacity: true)
        cull.stack.append((Int32(root), .identity))
        var descendants = 0
        while let (layer, map) = cull.stack.popLast() {
            var sublayer = Int(model.hierarchy.firstSublayers[Int(layer)])
            guard sublayer >= 0 else { continue }
            guard model.columns.flags[Int(layer)].isDisjoint(with: .adjustingSublayers),
                model.columns.sublayerTransforms.kind(at: Int(layer)) == .identity
            else { return nil }
            while sublayer >= 0 {
                descendants += 1
                guard descendants <= AnimationCull.maximumDescendants,
                    model.columns.transforms.kind(at: sublayer).isAffine
                else { return nil }
                let toRoot = Self.localAffine(of: sublayer, columns: model.columns).concatenating(map)
                let sublayerBox = Self.boundsBox(of: sublayer, columns: model.columns, through: toRoot)
                guard (sublayerBox.minX + sublayerBox.minY + sublayerBox.maxX + sublayerBox.maxY).isFinite else {
                    return nil
                }
                box = Self.union(box, sublayerBox)
                cull.stack.append((Int32(sublayer), toRoot))
                sublayer = Int(model.hierarchy.nextSiblings[sublayer])
            }
        }
        return box
    }

    /// `Local(L)` of a layer whose transform is 2D affine, as an affine map.
    static func localAffine(of layer: Int, columns: borrowing LayerColumns) -> AffineTransform {
        // Most sublayers are not transformed: their six entries are not read.
        let t = columns.transforms.kind(at: layer) == .identity ? .identity : columns.transforms.affine(at: layer)
        let ax = columns.boundsX[layer] + columns.anchorX[layer] * columns.boundsWidth[layer]
        let ay = columns.boundsY[layer] + columns.anchorY[layer] * columns.boundsHeight[layer]
        return AffineTransform(
            a: t.a, b: t.b, c: t.c, d: t.d,
            tx: (t.tx + columns.positionX[layer]) - (t.a * ax + t.c * ay),
            ty: (t.ty + columns.positionY[layer]) - (t.b * ax + t.d * ay))
    }

    /// The smallest box holding both (neither null nor NaN).
    static func union(_ a: RectEdges, _ b: RectEdges) -> RectEdges {
        RectEdges(
            minX: min(a.minX, b.minX), minY: min(a.minY, b.minY), maxX: max(a.maxX, b.maxX), maxY: max(a.maxY, b.maxY))
    }

    /// The box of `layer`'s bounds mapped by `map`.
    static func boundsBox(of layer: Int, columns: borrowing LayerColumns, through map: AffineTransform) -> RectEdges {
        let x0 = columns.boundsX[layer]
        let y0 = columns.boundsY[layer]
        let x1 = x0 + columns.boundsWidth[layer]
        let y1 = y0 + columns.boundsHeight[layer]
        let cx = (x0 + x1) * 0.5
        let cy = (y0 + y1) * 0.5
        let hx = abs(x1 - x0) * 0.5
        let hy = abs(y1 - y0) * 0.5
        let wx = map.a * cx + map.c * cy + map.tx
        let wy = map.b * cx + map.d * cy + map.ty
        let ex = abs(map.a) * hx + abs(map.c) * hy
        let ey = abs(map.b) * hx + abs(map.d) * hy
        return RectEdges(minX: wx - ex, minY: wy - ey, maxX: wx + ex, maxY: wy + ey)
    }

    /// Remakes the members and groups for the live list and the model's structure:
    /// which layers can be bounded, and the ranges of their animations. O(live
    /// animations × depth); allocates.
    mutating func makeCullTables(model: borrowing LayerStore) {
        cull.liveVersion = liveVersion
        cull.structureVersion = model.hierarchy.structureVersion
        cull.memberOfAnimation = Array(repeating: -1, count: count)
        var byLayer: [Int32: CullMember] = [:]
        var unbounded: Set<Int32> = []
        for i in live {
            let layer = layerSlots[Int(i)]
            var member = byLayer[layer] ?? CullMember(layer: layer)
            if !absorb(Int(i), into: &member) { unbounded.insert(layer) }
            byLayer[layer] = member
        }
        // An animated ancestor: neither layer's reach holds the other's motion.
        for layer in byLayer.keys {
            var ancestor = model.hierarchy.parents[Int(layer)]
            if ancestor < 0 { unbounded.insert(layer) }
            while ancestor >= 0 {
                if byLayer[ancestor] != nil {
                    unbounded.insert(layer)
                    unbounded.insert(ancestor)
                }
                ancestor = model.hierarchy.parents[Int(ancestor)]
            }
        }
        let kept = byLayer.values.filter { !unbounded.contains($0.layer) }
            .sorted {
                (model.hierarchy.parents[Int($0.layer)], $0.layer) < (model.hierarchy.parents[Int($1.layer)], $1.layer)
            }
        cull.members = kept
        cull.groups = []
        var memberOfLayer: [Int32: Int32] = [:]
        for (m, member) in kept.enumerated() {
            memberOfLayer[member.layer] = Int32(m)
            let superlayer = model.hierarchy.parents[Int(member.layer)]
            if let last = cull.groups.last, last.superlayer == superlayer {
                cull.groups[cull.groups.count - 1].members = last.members.lowerBound..<(m + 1)
            } else {
                cull.groups.append(CullGroup(superlayer: superlayer, members: m..<(m + 1)))
            }
        }
        for i in live { cull.memberOfAnimation[Int(i)] = memberOfLayer[layerSlots[Int(i)]] ?? -1 }
        cull.memberOfLayer = memberOfLayer
        cull.logRead = model.caches.editLog.written
        cull.shown.reserveCapacity(live.count)
        cull.culled.reserveCapacity(live.count)
    }

    /// Adds animation `i`'s range to `member`; false when it cannot be bounded.
    private func absorb(_ i: Int, into member: inout CullMember) -> Bool {
        let r = Int(resolvedEndIndices[i])
        guard r >= 0, !flags[i].contains(.cumulative), let f = progressRange(i) else { return false }
        let start = resolvedVectors[r]
        let delta = resolvedVectors[r + 1]
        let a = start + delta * f.low
        let b = start + delta * f.high
        switch keyPaths[i] {
        case .opacity:
            return true
        case .position:
            guard member.positionMode == 0 else { return false }
            let low = SIMD2(min(a[0], b[0]), min(a[1], b[1]))
            let high = SIMD2(max(a[0], b[0]), max(a[1], b[1]))
            let additive = flags[i].contains(.additive)
            member.positionMode = additive ? 1 : 2
            // Additive: the model's position (a culled layer's) is the range's 0.
            member.positionLow = additive ? pointwiseMin(low, .zero) : low
            member.positionHigh = additive ? pointwiseMax(high, .zero) : high
            return (low + high).x.isFinite && (low + high).y.isFinite
        case .transformScale:
            guard !member.hasScale else { return false }
            member.hasScale = true
            member.scaleLow = min(min(a[0], b[0]), 1)
            member.scaleHigh = max(max(a[0], b[0]), 1)
            return (member.scaleLow + member.scaleHigh).isFinite
        default:
            return false
        }
    }

    /// The range of animation `i`'s progress f over its active duration, widened for the
    /// float rounding: a timing function's curve lies in the hull of its control points'
    /// y (0, y1, y2, 1); a spring's |1 − x(t)| is at most |A| + |B| when underdamped or
    /// overdamped (both exponentials decay), 1 + |B|/(e·ω0) when critically damped
    /// (t·exp(−ω0·t) ≤ 1/(e·ω0)). Nil for other curves or a bound that is not finite.
    func progressRange(_ i: Int) -> (low: Double, high: Double)? {
        var low = 0.0
        var high = 1.0
        switch curveKinds[i] {
        case .basic:
            let function = Int(timingFunctionIndices[i])
            if function >= 0 {
                let tf = timingFunctions[function]
                low = min(0, Double(min(tf.y1, tf.y2)))
                high = max(1, Double(max(tf.y1, tf.y2)))
            }
        case .spring:
            let spring = springs[Int(curveIndices[i])]
            let a = abs(spring.coefficientA)
            let b = abs(spring.coefficientB)
            let w0 = spring.naturalFrequency
            let amplitude = spring.regime == .criticallyDamped ? a + b / (2.718281828459045 * w0) : a + b
            guard amplitude.isFinite, w0 > 0 else { return nil }
            low = 1 - amplitude
            high = 1 + amplitude
        case .keyframe, .deceleration:
            return nil
        }
        let margin = 1e-6 * (1 + abs(low) + abs(high))
        return (low - margin, high + margin)
    }
}
