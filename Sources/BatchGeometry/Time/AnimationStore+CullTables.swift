// The culled sample's tables (docs/ANIMATION.md section 10): the members (animated
// layers that can be bounded) and their reaches, the groups by superlayer kept in order of
// reach, the animations by end time. The per-frame steps: AnimationStore+Culling.swift.

extension AnimationStore {
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

    /// Remakes the tables for the live list and the model's structure: which layers can
    /// be bounded (members), the ranges of their animations, the groups by superlayer, the
    /// animations that can end by end time; every reach is then stale. O(live animations
    /// × depth + layers); allocates.
    mutating func makeCullTables(model: borrowing LayerStore) {
        cull.liveVersion = liveVersion
        cull.structureVersion = model.hierarchy.structureVersion
        let (candidates, memberOfLayer) = cullCandidates(model: model)
        cull.memberOfLayer = memberOfLayer
        let parents = model.hierarchy.parents
        let kept = candidates.filter { cull.memberOfLayer[Int($0.layer)] >= 0 }
            .sorted { (parents[Int($0.layer)], $0.layer) < (parents[Int($1.layer)], $1.layer) }
        cull.members = kept
        cull.groups = []
        for m in kept.indices {
            let superlayer = parents[Int(kept[m].layer)]
            cull.memberOfLayer[Int(kept[m].layer)] = Int32(m)
            if let last = cull.groups.last, last.superlayer == superlayer {
                cull.groups[cull.groups.count - 1].members = last.members.lowerBound..<(m + 1)
            } else {
                cull.groups.append(CullGroup(superlayer: superlayer, members: m..<(m + 1)))
            }
            cull.members[m].group = Int32(cull.groups.count - 1)
        }
        makeMemberAnimations()
        cull.order = (0..<kept.count).map { Int32($0) }
        cull.orderLow = Array(repeating: 0, count: kept.count)
        cull.orderHigh = cull.orderLow
        cull.placeOfMember = cull.order
        cull.stale = (0..<kept.count).map { Int32($0) }
        cull.stale.reserveCapacity(kept.count)
        cull.dirtyGroups = []
        cull.dirtyGroups.reserveCapacity(cull.groups.count)
        cull.visible = []
        cull.visible.reserveCapacity(kept.count)
        cull.shown = []
        cull.shown.reserveCapacity(live.count)
        makeEndList()
        cull.logRead = model.caches.editLog.written
    }

    /// The animated layers (one candidate member each, its animations' ranges absorbed)
    /// and, per layer slot, its candidate when it can be bounded (else −1): each of its
    /// animations bounded, not a root, no animated ancestor or descendant. O(live
    /// animations × depth + layers).
    private func cullCandidates(model: borrowing LayerStore) -> ([CullMember], [Int32]) {
        var candidateOfLayer = Array(repeating: Int32(-1), count: model.count)
        var candidates: [CullMember] = []
        var bounded: [Bool] = []
        for i in live {
            let layer = Int(layerSlots[Int(i)])
            var c = Int(candidateOfLayer[layer])
            if c < 0 {
                c = candidates.count
                candidateOfLayer[layer] = Int32(c)
                candidates.append(CullMember(layer: Int32(layer)))
                bounded.append(true)
            }
            if !absorb(Int(i), into: &candidates[c]) { bounded[c] = false }
        }
        // An animated ancestor: neither layer's reach holds the other's motion.
        for c in candidates.indices {
            var ancestor = Int(model.hierarchy.parents[Int(candidates[c].layer)])
            if ancestor < 0 { bounded[c] = false }
            while ancestor >= 0 {
                let a = Int(candidateOfLayer[ancestor])
                if a >= 0 {
                    bounded[c] = false
                    bounded[a] = false
                }
                ancestor = Int(model.hierarchy.parents[ancestor])
            }
        }
        for c in candidates.indices where !bounded[c] { candidateOfLayer[Int(candidates[c].layer)] = -1 }
        return (candidates, candidateOfLayer)
    }

    /// Each live animation's member (`memberOfAnimation`), each member's animations in
    /// the order added (`memberAnimations`), and the animations of no member (`unculled`).
    /// O(animations); allocates.
    private mutating func makeMemberAnimations() {
        cull.memberOfAnimation = Array(repeating: -1, count: count)
        var counts = Array(repeating: Int32(0), count: cull.members.count + 1)
        cull.unculled = []
        for i in live {
            let m = cull.memberOfLayer[Int(layerSlots[Int(i)])]
            cull.memberOfAnimation[Int(i)] = m
            if m >= 0 { counts[Int(m) + 1] += 1 } else { cull.unculled.append(i) }
        }
        for m in cull.members.indices {
            counts[m + 1] += counts[m]
            cull.members[m].animations = counts[m]..<counts[m + 1]
        }
        cull.memberAnimations = Array(repeating: 0, count: Int(counts[cull.members.count]))
        for i in live where cull.memberOfAnimation[Int(i)] >= 0 {
            let m = Int(cull.memberOfAnimation[Int(i)])
            cull.memberAnimations[Int(counts[m])] = i
            counts[m] += 1
        }
    }

    /// The live animations that can still end (a finite active duration and a speed not
    /// 0; not finished yet), by a lower bound of the time they are after their end:
    /// `beginTime + active / |speed|` less 1e-9 of its terms, far more than the rounding
    /// of `isAfterEnd` (a NaN bound: checked at every sample). O(live × log live); allocates.
    private mutating func makeEndList() {
        var ends: [(key: Double, animation: Int32)] = []
        for i in live where !flags[Int(i)].contains(.finished) {
            let timing = timings[Int(i)]
            let span = timing.active / abs(timing.speed)
            guard span != .infinity else { continue }
            let key = timing.beginTime + span - 1e-9 * (abs(timing.beginTime) + span) - 1e-300
            ends.append((key.isNaN ? -.infinity : key, i))
        }
        ends.sort { $0.key < $1.key }
        cull.endKeys = ends.map(\.key)
        cull.endAnimations = ends.map(\.animation)
        cull.endCursor = 0
    }

    /// Sorts group `g`'s order again: its members' edges along the axis (chosen again)
    /// refreshed, then a heap sort, and the bounds of the reaches made again. O(members ×
    /// log members), no allocation.
    mutating func reorder(group g: Int) {
        var group = cull.groups[g]
        let range = group.members
        group.axis = spreadAxis(of: range)
        group.unreached = 0
        group.magnitude = 0
        group.extent = 0
        for k in range {
            let (low, high) = Self.edges(cull.members[Int(cull.order[k])].reach, axis: group.axis, into: &group)
            cull.orderLow[k] = low
            cull.orderHigh[k] = high
        }
        heapSortOrder(range)
        for k in range { cull.placeOfMember[Int(cull.order[k])] = Int32(k) }
        group.isOrdered = true
        cull.groups[g] = group
    }

    /// Member `m`'s new edges (its reach redone) put in place, and the member moved to
    /// its place in the group's order. O(places moved), no allocation.
    mutating func moveInOrder(member m: Int) {
        let g = Int(cull.members[m].group)
        var k = Int(cull.placeOfMember[m])
        var group = cull.groups[g]
        if cull.orderLow[k] == .infinity { group.unreached -= 1 }
        let (low, high) = Self.edges(cull.members[m].reach, axis: group.axis, into: &group)
        cull.groups[g] = group
        cull.orderLow[k] = low
        cull.orderHigh[k] = high
        let range = group.members
        while k > range.lowerBound && cull.orderLow[k - 1] > cull.orderLow[k] {
            swapOrder(k - 1, k)
            k -= 1
        }
        while k + 1 < range.upperBound && cull.orderLow[k + 1] < cull.orderLow[k] {
            swapOrder(k, k + 1)
            k += 1
        }
    }

    /// A reach's low and high edges along `axis` (+∞ and −∞ without one), counted into
    /// `group`'s bounds (`unreached`, `magnitude`, `extent`: the extent widened by 10⁻⁶
    /// of the edges and 10⁻⁶, more than the rounding of the band's subtraction).
    static func edges(_ reach: RectEdges?, axis: Int, into group: inout CullGroup) -> (Double, Double) {
        guard let r = reach else {
            group.unreached += 1
            return (.infinity, -.infinity)
        }
        group.magnitude = max(max(group.magnitude, max(abs(r.minX), abs(r.maxX))), max(abs(r.minY), abs(r.maxY)))
        let low = axis == 0 ? r.minX : r.minY
        let high = axis == 0 ? r.maxX : r.maxY
        group.extent = max(group.extent, (high - low) + 1e-6 * (abs(high) + abs(low)) + 1e-6)
        return (low, high)
    }

    /// The axis (0: x, 1: y) along which the centres of the reaches in `range` of the
    /// order spread wider.
    private func spreadAxis(of range: Range<Int>) -> Int {
        var low = SIMD2(repeating: Double.infinity)
        var high = SIMD2(repeating: -Double.infinity)
        for k in range {
            guard let r = cull.members[Int(cull.order[k])].reach else { continue }
            let centre = SIMD2((r.minX + r.maxX) * 0.5, (r.minY + r.maxY) * 0.5)
            low = pointwiseMin(low, centre)
            high = pointwiseMax(high, centre)
        }
        let spread = high - low
        return spread.x > spread.y ? 0 : 1
    }

    /// Swaps entries `a` and `b` of the order and its edges (and the members' places).
    private mutating func swapOrder(_ a: Int, _ b: Int) {
        cull.order.swapAt(a, b)
        cull.orderLow.swapAt(a, b)
        cull.orderHigh.swapAt(a, b)
        cull.placeOfMember[Int(cull.order[a])] = Int32(a)
        cull.placeOfMember[Int(cull.order[b])] = Int32(b)
    }

    /// Sorts `range` of the order by low edge in place. O(n log n), no allocation.
    private mutating func heapSortOrder(_ range: Range<Int>) {
        let base = range.lowerBound
        let n = range.count
        var root = n / 2
        while root > 0 {
            root -= 1
            siftDown(root, count: n, base: base)
        }
        var end = n
        while end > 1 {
            end -= 1
            swapOrder(base, base + end)
            siftDown(0, count: end, base: base)
        }
    }

    /// Moves heap entry `root` (of `count` from `base` in the order) down to its place.
    private mutating func siftDown(_ root: Int, count: Int, base: Int) {
        var parent = root
        while true {
            var child = 2 * parent + 1
            guard child < count else { return }
            if child + 1 < count && cull.orderLow[base + child + 1] > cull.orderLow[base + child] { child += 1 }
            guard cull.orderLow[base + child] > cull.orderLow[base + parent] else { return }
            swapOrder(base + parent, base + child)
            parent = child
        }
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
