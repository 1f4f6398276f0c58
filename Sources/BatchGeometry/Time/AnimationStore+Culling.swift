// The culled sample (issue 23, docs/ANIMATION.md section 10): only the animations that
// can show in a region are sampled; the others write nothing and their layers keep the
// model's values. Sampling is a pure function of time, so an animation skipped now and
// sampled later is exact then. A frame costs O(what shows + edits + ends due), not
// O(animations): the members are kept ordered by reach per superlayer (a binary search
// finds the band that can meet the region) and the animations that can end by end time
// (the others never need timing while culled).
//
// Each animated layer that can be bounded gets a reach: a box in its superlayer's bounds
// space that holds its whole subtree under every value its animations can take and under
// the model's values. A layer is culled when the world box of its reach (through its
// superlayer's world transform, read from the model) misses the region. Layers that
// cannot be bounded (other key paths, keyframes, ends read from the model, an animated
// ancestor or descendant, 3D) are always sampled. The tables: AnimationStore+CullTables.swift.

/// One animated layer whose animations the culled sample can bound: the ranges of the
/// values they take, resolved when the tables are made.
struct CullMember: Sendable {
    var layer: Int32
    /// Its superlayer's group (`AnimationCull.groups`).
    var group: Int32 = 0
    /// 0: no position animation; 1: additive (the range is added to the model's); 2: the
    /// range replaces the model's position.
    var positionMode: UInt8 = 0
    var positionLow = SIMD2<Double>(0, 0)
    var positionHigh = SIMD2<Double>(0, 0)
    var hasScale = false
    /// `transform.scale`'s range, 1 (the model's identity transform) included.
    var scaleLow = 1.0
    var scaleHigh = 1.0
    /// The reach from the model's values when it was computed (nil: not bounded), and
    /// whether it is still the model's: no layer of the subtree was edited since
    /// (`EditLog`).
    var reach: RectEdges?
    var isReachCurrent = false
    /// Its animations: `AnimationCull.memberAnimations[animations]`, in the order added.
    var animations: Range<Int32> = 0..<0
}

/// The members that share a superlayer (`members` indexes `AnimationCull.members`), and
/// their order by reach (`AnimationCull.order[members]`).
struct CullGroup: Sendable {
    var superlayer: Int32
    var members: Range<Int>
    /// The axis the order is along (0: x, 1: y): the wider spread of the reaches' centres.
    var axis = 1
    /// Whether the order was made (then only members whose reach changed move).
    var isOrdered = false
    /// Members whose reach is being redone (a scratch count of a sample).
    var staleCount = 0
    /// Members without a reach: while there are any, every member is tested.
    var unreached = 0
    /// Bounds of the reaches since the order was made (they only grow): the largest
    /// magnitude of an edge (bounds the test's margin in the band) and the largest extent
    /// along the axis, widened (a member whose low edge is that far before the band
    /// cannot reach it).
    var magnitude = 0.0
    var extent = 0.0
}

/// The culled sample's tables and scratch (`AnimationStore.cull`).
struct AnimationCull: Sendable {
    /// The live list's and the model's structure version the tables were made for (a
    /// removal keeps them: what left is skipped).
    var liveVersion: UInt64?
    var structureVersion: UInt64 = 0
    var members: [CullMember] = []
    var groups: [CullGroup] = []
    /// Per animation number: its layer's member, or −1 (always sampled).
    var memberOfAnimation: [Int32] = []
    /// Per layer slot: its member, or −1.
    var memberOfLayer: [Int32] = []
    /// The members' animations, member after member.
    var memberAnimations: [Int32] = []
    /// The live animations of no member (always sampled), in the order added.
    var unculled: [Int32] = []
    /// Per group, over `group.members`: its members by the low edge of their reach along
    /// the group's axis (searched by bisection), that edge (+∞ without a reach) and the
    /// high edge; per member, its place in `order`.
    var order: [Int32] = []
    var orderLow: [Double] = []
    var orderHigh: [Double] = []
    var placeOfMember: [Int32] = []
    /// The animations that can end (finite active duration, speed not 0), by a lower
    /// bound of their end time; those before `endCursor` have finished or left.
    var endKeys: [Double] = []
    var endAnimations: [Int32] = []
    var endCursor = 0
    /// The model's `EditLog.written` when the reaches were last brought up to date.
    var logRead: UInt64 = 0
    /// Scratch: members whose reach is stale, groups to reorder, members whose reach
    /// meets the region, the animations to sample.
    var stale: [Int32] = []
    var dirtyGroups: [Int32] = []
    var visible: [Int32] = []
    var shown: [Int32] = []
    /// Scratch of the subtree walk: a layer and its affine map to the member's bounds space.
    var stack: [(layer: Int32, map: AffineTransform)] = []
    /// The most descendants a member's subtree may have; past it, always sampled.
    static let maximumDescendants = 64
}

extension AnimationStore {
    /// Samples the animations that can show in `region` (world space, the rectangle a
    /// frame's queries ask about, such as `visibleLayers(in:into:)`'s viewport) at `time`,
    /// and writes their layers' presentation values into `presentation` (cleared first).
    /// The other animations are not sampled: their layers get no values, so
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
    /// O(animations sampled + reach tests near the region + edits × depth + ends due +
    /// superlayers × depth) once the tables are made: per superlayer the members are kept
    /// in order of their reach, so a bisection finds those that can meet the region (when
    /// the superlayer's world map neither rotates nor shears; else each is tested); only
    /// animations with a finite active duration are timed while culled, in order of their
    /// end; a reach is redone (reading its subtree in the model) only when the model's
    /// setters edited its subtree. The first culled sample after an `add` or a structure
    /// change makes the tables (O(live animations × depth + layers), allocating; removals
    /// keep them): take one at load time, as with the sample buffers. Allocates nothing
    /// otherwise.
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
        refreshStaleReaches(model: model)
        markVisibleMembers(in: region, model: model)
        collectShown()
        lastCulledCount = live.count - cull.shown.count
        let finishedBefore = finished.count
        var removedAny = false
        if !cull.shown.isEmpty { removedAny = runSteadyTimingPass(time: time, over: cull.shown).removedAny }
        if checkEnds(at: time) { removedAny = true }
        if removedAny { compactLiveLists() }
        composeShowing(cull.shown, model: model, into: &presentation)
        if finished.count > finishedBefore { finished.sort() }
        sampledVersion = liveVersion
    }

    /// The animations to sample: the unculled ones, then each visible member's, skipping
    /// those that left. O(them), no allocation once the list has grown.
    private mutating func collectShown() {
        cull.shown.removeAll(keepingCapacity: true)
        // Index loops: an array's for-in allocates per element in unoptimized builds.
        for k in 0..<cull.unculled.count where !flags[Int(cull.unculled[k])].contains(.removed) {
            cull.shown.append(cull.unculled[k])
        }
        for k in 0..<cull.visible.count {
            let range = cull.members[Int(cull.visible[k])].animations
            for j in Int(range.lowerBound)..<Int(range.upperBound) {
                let i = cull.memberAnimations[j]
                if !flags[Int(i)].contains(.removed) { cull.shown.append(i) }
            }
        }
    }

    /// The end checks of the animations that can end, in order of end: those whose lower
    /// bound is past are checked exactly (`isAfterEnd`, as the timing pass; a sampled one
    /// was already), and marked finished or removed as the full sample does. Time never
    /// goes back, so one found after its end stays so. Returns whether any left the store.
    private mutating func checkEnds(at time: Double) -> Bool {
        var removedAny = false
        var settled = true
        var k = cull.endCursor
        while k < cull.endKeys.count && cull.endKeys[k] <= time {
            let i = Int(cull.endAnimations[k])
            let timing = timings[i]
            if !flags[i].contains(.removed) && timing.isAfterEnd(time) {
                _ = noteEnd(i, timing, removedAny: &removedAny)
            }
            settled = settled && !flags[i].isDisjoint(with: [.finished, .removed])
            if settled { cull.endCursor = k + 1 }
            k += 1
        }
        return removedAny
    }

    /// Marks stale the reach of every member with a layer in its subtree that the model's
    /// `EditLog` recorded since the last sample (every member when the log went round).
    /// O(edits × depth), no allocation.
    private mutating func invalidateEditedReaches(model: borrowing LayerStore) {
        let written = model.caches.editLog.written
        if written &- cull.logRead > UInt64(EditLog.capacity) {
            for m in 0..<cull.members.count { markStale(m) }
        } else {
            var number = cull.logRead
            while number < written {
                var layer = model.caches.editLog.layer(number)
                while layer >= 0 && layer < cull.memberOfLayer.count {
                    let m = Int(cull.memberOfLayer[layer])
                    if m >= 0 { markStale(m) }
                    layer = Int(model.hierarchy.parents[layer])
                }
                number += 1
            }
        }
        cull.logRead = written
    }

    private mutating func markStale(_ m: Int) {
        guard cull.members[m].isReachCurrent else { return }
        cull.members[m].isReachCurrent = false
        cull.stale.append(Int32(m))
    }

    /// Redoes the stale reaches and moves their members in their group's order (the
    /// whole group sorted again when it was not ordered or an eighth of it moved).
    /// O(stale subtrees + moves), no allocation.
    private mutating func refreshStaleReaches(model: borrowing LayerStore) {
        for k in 0..<cull.stale.count {
            let m = Int(cull.stale[k])
            cull.members[m].reach = reach(of: cull.members[m], model: model)
            cull.members[m].isReachCurrent = true
            let g = Int(cull.members[m].group)
            if cull.groups[g].staleCount == 0 { cull.dirtyGroups.append(Int32(g)) }
            cull.groups[g].staleCount += 1
        }
        for k in 0..<cull.stale.count {
            let m = Int(cull.stale[k])
            let group = cull.groups[Int(cull.members[m].group)]
            if group.isOrdered && group.staleCount * 8 <= group.members.count { moveInOrder(member: m) }
        }
        cull.stale.removeAll(keepingCapacity: true)
        for k in 0..<cull.dirtyGroups.count {
            let g = Int(cull.dirtyGroups[k])
            let group = cull.groups[g]
            if !group.isOrdered || group.staleCount * 8 > group.members.count { reorder(group: g) }
            cull.groups[g].staleCount = 0
        }
        cull.dirtyGroups.removeAll(keepingCapacity: true)
    }

    /// Lists in `cull.visible` the members whose reach can meet `region`, a superlayer at
    /// a time: with a band (`band(of:through:region:)`), only the members in it along the
    /// group's order are tested; else every one. No allocation.
    private mutating func markVisibleMembers(in region: Rect, model: borrowing LayerStore) {
        cull.visible.removeAll(keepingCapacity: true)
        for g in 0..<cull.groups.count {
            let group = cull.groups[g]
            guard let toWorld = Self.planarSublayerToWorld(of: Int(group.superlayer), model: model) else {
                for m in group.members { cull.visible.append(Int32(m)) }
                continue
            }
            var k = group.members.lowerBound
            var end = group.members.upperBound
            var low = -Double.infinity
            if group.unreached == 0, let band = Self.band(of: group, through: toWorld, region: region) {
                low = band.low
                // Members before the first low edge within `extent` of the band end before
                // it; those from the first low edge past it start after it.
                k = Self.firstIndex(in: cull.orderLow, k..<end) { $0 >= band.low - group.extent }
                end = Self.firstIndex(in: cull.orderLow, k..<end) { $0 > band.high }
            }
            while k < end {
                let m = Int(cull.order[k])
                if cull.orderHigh[k] >= low {
                    if let reach = cull.members[m].reach {
                        if Self.worldBox(of: reach, through: toWorld, meets: region) { cull.visible.append(Int32(m)) }
                    } else {
                        cull.visible.append(Int32(m))
                    }
                }
                k += 1
            }
        }
    }

    /// The interval along `group`'s axis, in its superlayer's bounds space, outside which
    /// a reach's world box cannot meet `region` (`worldBox(of:through:meets:)`), when the
    /// map `m` neither rotates nor shears; else nil. The region is widened by twice a
    /// bound of that test's margin (1e-9 of the world box's size and place plus 1e-6; the
    /// group's `magnitude` bounds the reaches' edges), which also covers this
    /// computation's rounding.
    static func band(of group: CullGroup, through m: Transform3D, region: Rect) -> (low: Double, high: Double)? {
        guard m.m12 == 0 && m.m21 == 0 else { return nil }
        let s = group.axis == 0 ? m.m11 : m.m22
        let t = group.axis == 0 ? m.m41 : m.m42
        let low = group.axis == 0 ? region.minX : region.minY
        let high = group.axis == 0 ? region.maxX : region.maxY
        let place = abs(m.m41) + abs(m.m42) + abs(region.minX) + abs(region.maxX) + abs(region.minY) + abs(region.maxY)
        let margin = 1e-9 * (2 * (abs(m.m11) + abs(m.m22)) * group.magnitude + place) + 1e-6
        let a = (low - 2 * margin - t) / s
        let b = (high + 2 * margin - t) / s
        guard s != 0, (a + b).isFinite else { return nil }
        return (min(a, b), max(a, b))
    }

    /// The first index of `range` whose element of `column` satisfies `isPast`, which
    /// holds from some index on (`range.upperBound` if none). O(log range).
    static func firstIndex(in column: [Double], _ range: Range<Int>, where isPast: (Double) -> Bool) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let mid = low + (high - low) / 2
            if isPast(column[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
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
}
