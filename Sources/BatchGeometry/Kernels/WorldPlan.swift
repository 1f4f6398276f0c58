// The per-layer state world propagation caches between updates (Chromium's property
// trees keep each node's local transform the same way): each layer's planar transform
// into its superlayer's world basis, `Local(L) * Adjust(S)` as six doubles, whether it
// may take the planar path, and a parents-first order grouped by depth level.

/// Bits of `WorldPlan.modes`.
enum WorldMode {
    /// The layer's world is computed as a full 4×4 product (shared with
    /// `WorldTransforms.generalBit`).
    static let general: UInt8 = 1
    /// Non-root: the layer's own inputs allow the planar path (affine transform, finite
    /// z values, superlayer adjustments affine, superlayer flattens). Root: its world
    /// (`Local`) is finite and leaves sublayers planar (m13 = m23 = m14 = m24 = m43 = 0,
    /// m44 = 1).
    static let eligible: UInt8 = 2
}

struct WorldPlan: Sendable {
    // Local(L) * Adjust(S), affine part, for eligible non-root layers (else unspecified).
    var a: [Double], b: [Double], c: [Double], d: [Double], tx: [Double], ty: [Double]
    var modes: [UInt8]
    /// Parents-first processing order grouped by level; nil = index order.
    var order: [Int32]?
    /// Start positions (in the order) of each depth level, then the count.
    var levelStarts: [Int]
    /// Positions (in the order) of the general layers, ascending; nil when stale after an
    /// incremental update changed some layer's mode (rebuilt from `modes` when needed).
    var generalPositions: [Int]?

    var count: Int { modes.count }

    @inline(__always) func layer(atPosition position: Int) -> Int {
        if let order { return Int(order[position]) }
        return position
    }
}

extension LayerStore {
    /// Builds the plan from scratch. O(count).
    func makeWorldPlan() -> WorldPlan {
        let n = count
        var plan = WorldPlan(a: Array(repeating: 1, count: n), b: Array(repeating: 0, count: n),
                             c: Array(repeating: 0, count: n), d: Array(repeating: 1, count: n),
                             tx: Array(repeating: 0, count: n), ty: Array(repeating: 0, count: n),
                             modes: Array(repeating: 0, count: n), order: nil, levelStarts: [0], generalPositions: [])
        guard n > 0 else { return plan }
        (plan.order, plan.levelStarts) = levelOrder()
        var generalPositions: [Int] = []
        for position in 0..<n {
            let layer = plan.layer(atPosition: position)
            refreshPlanEntry(layer, in: &plan)
            if plan.modes[layer] & WorldMode.general != 0 { generalPositions.append(position) }
        }
        plan.generalPositions = generalPositions
        return plan
    }

    /// A parents-first order grouped by depth (every level after the one above it), and
    /// where each level starts. Index order when layers are already appended level by
    /// level (the common case: nil order), else a stable counting sort by depth.
    func levelOrder() -> (order: [Int32]?, levelStarts: [Int]) {
        let n = count
        var depth = [Int32](repeating: 0, count: n)
        let parentFirst: [Int32]? = parentsPrecedeChildren ? nil : preorder()
        var maximumDepth: Int32 = 0
        var nondecreasing = parentFirst == nil
        var previousDepth: Int32 = 0
        parents.withUnsafeBufferPointer { parents in
            for position in 0..<n {
                let layer = parentFirst.map { Int($0[position]) } ?? position
                let parent = parents[layer]
                let value = parent < 0 ? 0 : depth[Int(parent)] + 1
                depth[layer] = value
                if value > maximumDepth { maximumDepth = value }
                if value < previousDepth { nondecreasing = false }
                previousDepth = value
            }
        }
        var levelSizes = [Int](repeating: 0, count: Int(maximumDepth) + 1)
        for value in depth { levelSizes[Int(value)] += 1 }
        var levelStarts = [Int](repeating: 0, count: levelSizes.count + 1)
        for level in 0..<levelSizes.count { levelStarts[level + 1] = levelStarts[level] + levelSizes[level] }
        if nondecreasing { return (nil, levelStarts) }
        var next = Array(levelStarts.dropLast())
        var order = [Int32](repeating: 0, count: n)
        for position in 0..<n {
            let layer = parentFirst.map { Int($0[position]) } ?? position
            let level = Int(depth[layer])
            order[next[level]] = Int32(truncatingIfNeeded: layer)
            next[level] += 1
        }
        return (order, levelStarts)
    }

    /// Recomputes `layer`'s cached local transform and its mode bits from its inputs, its
    /// superlayer's adjustments and its superlayer's mode (which must be current).
    @inline(__always)
    func refreshPlanEntry(_ layer: Int, in plan: inout WorldPlan) {
        let superlayer = Int(parents[layer])
        if superlayer < 0 {
            plan.modes[layer] = WorldMode.general
                | (leavesSublayersPlanar(transformToSuperlayer(of: layer)) ? WorldMode.eligible : 0)
            return
        }
        guard let local = planarTransformToSuperlayer(of: layer, superlayer: superlayer) else {
            plan.modes[layer] = WorldMode.general
            return
        }
        plan.a[layer] = local.a; plan.b[layer] = local.b; plan.c[layer] = local.c
        plan.d[layer] = local.d; plan.tx[layer] = local.tx; plan.ty[layer] = local.ty
        plan.modes[layer] = WorldMode.eligible | planarMode(superlayerMode: plan.modes[superlayer],
                                                            superlayerIsRoot: parents[superlayer] < 0)
    }

    /// The general bit of an eligible layer, from its superlayer's mode: planar under a
    /// planar superlayer, or under a root whose world leaves sublayers planar.
    @inline(__always)
    func planarMode(superlayerMode: UInt8, superlayerIsRoot: Bool) -> UInt8 {
        if superlayerIsRoot { return superlayerMode & WorldMode.eligible != 0 ? 0 : WorldMode.general }
        return superlayerMode & WorldMode.general
    }

    /// `Local(L) * Adjust(S)` with Flat(S) as a 2D affine map when that is exact (the
    /// product's third row and column are the structural zeros of the planar form and no
    /// structural zero meets a non-finite z value), else nil. Same operation order as the
    /// 4×4 reference minus the products with structural zeros.
    @inline(__always)
    func planarTransformToSuperlayer(of layer: Int, superlayer: Int) -> AffineTransform? {
        guard transforms.kind(at: layer) <= .affine, zPositions[layer].isFinite, anchorPointZs[layer].isFinite,
              !flags[superlayer].contains(.transformLayer) else { return nil }
        let subKind = sublayerTransforms.kind(at: superlayer)
        guard subKind <= .affine, subKind == .identity || anchorPointZs[superlayer].isFinite else { return nil }
        let m = transforms.affine(at: layer)
        let anchorInBoundsX = boundsX[layer] + anchorX[layer] * boundsWidth[layer]
        let anchorInBoundsY = boundsY[layer] + anchorY[layer] * boundsHeight[layer]
        let ax = -anchorInBoundsX, ay = -anchorInBoundsY
        var local = AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d,
                                    tx: (((ax * m.a) + (ay * m.c)) + m.tx) + positionX[layer],
                                    ty: (((ax * m.b) + (ay * m.d)) + m.ty) + positionY[layer])
        let flipped = flags[superlayer].contains(.geometryFlipped)
        if flipped || subKind != .identity {
            local = planarCompose(local, planarAdjustment(of: superlayer, flipped: flipped, subKind: subKind))
        }
        return local
    }

    /// `Adjust(S) = Flip(S) * Sub(S)` as an affine map (valid when Sub(S) is affine).
    func planarAdjustment(of superlayer: Int, flipped: Bool, subKind: TransformKind) -> AffineTransform {
        var result = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        if flipped {
            result = AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0,
                                     ty: 2 * boundsY[superlayer] + boundsHeight[superlayer])
        }
        if subKind != .identity {
            let s = sublayerTransforms.affine(at: superlayer)
            let pivotX = boundsX[superlayer] + anchorX[superlayer] * boundsWidth[superlayer]
            let pivotY = boundsY[superlayer] + anchorY[superlayer] * boundsHeight[superlayer]
            let px = -pivotX, py = -pivotY
            let sub = AffineTransform(a: s.a, b: s.b, c: s.c, d: s.d,
                                      tx: (((px * s.a) + (py * s.c)) + s.tx) + pivotX,
                                      ty: (((px * s.b) + (py * s.d)) + s.ty) + pivotY)
            result = planarCompose(result, sub)
        }
        return result
    }

    /// True when sublayers of a layer with world matrix `m` get planar world matrices:
    /// every entry finite and m13 = m23 = m14 = m24 = m43 = 0, m44 = 1.
    func leavesSublayersPlanar(_ m: Transform3D) -> Bool {
        m.rowMajor.allSatisfy { $0.isFinite }
            && m.m13 == 0 && m.m23 == 0 && m.m14 == 0 && m.m24 == 0 && m.m43 == 0 && m.m44 == 1
    }
}

/// "x then w" for planar maps, in the order of `CAAffineConcat` (the C kernels' product).
@inline(__always)
func planarCompose(_ x: AffineTransform, _ w: AffineTransform) -> AffineTransform {
    AffineTransform(a: (x.a * w.a) + (x.b * w.c), b: (x.a * w.b) + (x.b * w.d),
                    c: (x.c * w.a) + (x.d * w.c), d: (x.c * w.b) + (x.d * w.d),
                    tx: ((x.tx * w.a) + (x.ty * w.c)) + w.tx, ty: ((x.tx * w.b) + (x.ty * w.d)) + w.ty)
}
