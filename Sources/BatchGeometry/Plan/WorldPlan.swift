// The per-layer state world propagation caches between updates (Chromium's property
// trees keep each node's local transform the same way): each layer's planar transform
// into its superlayer's world basis, `Local(L) * Adjust(S)` as six doubles, whether it
// may take the planar path, and a parents-first order grouped by depth level.

import CAffineKernels

/// Bits of `WorldPlan.modes`.
enum WorldMode {
    /// The layer's world is computed as a full 4×4 product: `CA_WORLD_MODE_GENERAL`, the
    /// bit the C kernels read in the same bytes (also `WorldTransforms.generalBit`).
    static let general = UInt8(CA_WORLD_MODE_GENERAL)
    /// Non-root: the layer's own inputs allow the planar path (affine transform, finite
    /// z values, superlayer adjustments affine, superlayer flattens). Root: its world
    /// (`Local`) is finite and leaves sublayers planar (m13 = m23 = m14 = m24 = m43 = 0,
    /// m44 = 1).
    static let eligible: UInt8 = 2
    /// The layer has (or, until the next full pass, may have had) a geometry flip, a
    /// sublayerTransform or the transform-layer flag: its sublayers' plan entries depend
    /// on its properties, so they are refreshed when it changes.
    static let adjustsSublayers: UInt8 = 4
    /// The entry was computed by `writeCommonEntry` (no superlayer adjustment), so its
    /// tx, ty are the unpositioned translation (`PlanInputs.unpositioned`) plus
    /// `positionX`, `positionY`: a position change needs only that translation, computed
    /// again from the unchanged inputs, and the two additions.
    static let positionSum: UInt8 = 8
}

struct WorldPlan: Sendable {
    // Local(L) * Adjust(S), affine part, for eligible non-root layers (else unspecified).
    var a: [Double], b: [Double], c: [Double], d: [Double], tx: [Double], ty: [Double]
    var modes: [UInt8]
    /// Parents-first processing order grouped by level; nil = index order.
    var order: [Int32]?
    /// Start positions (in the order) of each depth level, then the count. In subtree
    /// layout (`subtreeBlocks` not empty) it is just `[0, count]`.
    var levelStarts: [Int]
    /// Subtree layout, for deep and narrow trees (no level wide enough to split): the
    /// order is a serial prefix of ancestors, then independent subtrees, each one block
    /// of positions in pre-order. Empty for the level layout.
    var subtreeBlocks: [Range<Int>] = []
    /// Positions (in the order) of the general layers, ascending; nil when stale after an
    /// incremental update changed some layer's mode (rebuilt from `modes` when needed).
    var generalPositions: [Int]?
    /// Where each layer's sublayers sit in the order, for the incremental update's range
    /// walk; built on first use (`subtreeRangesBuilt`), nil when the layout has none.
    var subtreeRanges: SubtreeRangeIndex?
    var subtreeRangesBuilt = false
    /// The transform kind (`LocalKind`) of each block of `1 << LocalKind.blockShift`
    /// layers by layer index: at least the kind of every local in the block (exact after
    /// a full build; incremental passes only raise it). Empty: no kinds, every pass takes
    /// the affine path.
    var blockKinds: [UInt8] = []
    /// Each general layer's `transformToSuperlayer(of:)`, 16 doubles an entry (layer i's
    /// at `16 * generalLocalSlots[i]`), or empty when only roots are general (see
    /// `makeGeneralLocals`).
    var generalLocals: [Double] = []
    /// Per layer, its entry in `generalLocals` or -1 (every general layer has one while
    /// locals are cached); empty when they are not.
    var generalLocalSlots: [Int32] = []
    /// The layer of each entry of `generalLocals`.
    var generalLocalLayers: [Int32] = []
    /// Most layers' superlayers are far apart in the columns (`parentsAreScattered()`),
    /// so index-order passes prefetch the superlayers' worlds (C backend).
    var scatteredParents = false
    /// Most layers' superlayer is the layer just before them in the order
    /// (`parentsAreChained(order:)`): a chain, or the pre-order blocks of a deep tree.
    /// The C backend then takes its kernel for dependent layers.
    var chainedParents = false

    var count: Int { modes.count }

    @inline(__always) func layer(atPosition position: Int) -> Int {
        if let order { return Int(order[position]) }
        return position
    }
}

extension LayerStore {
    /// Builds the plan from scratch. O(count): one pass over the layer properties in
    /// level order; the common layer (affine transform under a plain superlayer) is
    /// computed inline from the columns, every other one through `planEntry`.
    /// `reusing` donates the columns of a previous plan of the same size (written over,
    /// no allocation), and its general locals' storage whatever its size; with `keepOrder` its level order is kept too (the hierarchy must
    /// not have changed since it was made).
    func makeWorldPlan() -> WorldPlan {
        var none: WorldPlan? = nil
        return makeWorldPlan(reusing: &none, keepOrder: false)
    }

    func makeWorldPlan(reusing donor: inout WorldPlan?, keepOrder: Bool) -> WorldPlan {
        let n = count
        // Every entry is written below (eligible or not), so no zero-fill.
        func column() -> [Double] { [Double](unsafeUninitializedCapacity: n) { $1 = n } }
        var a: [Double]
        var b: [Double]
        var c: [Double]
        var d: [Double]
        var tx: [Double]
        var ty: [Double]
        var modes: [UInt8]
        let order: [Int32]?
        let levelStarts: [Int]
        let subtreeBlocks: [Range<Int>]
        var subtreeRanges: SubtreeRangeIndex? = nil
        var subtreeRangesBuilt = false
        var blockKinds: [UInt8] = []
        var donatedLocals = GeneralLocalsStorage()
        var keptScatteredParents: Bool? = nil
        var keptChainedParents: Bool? = nil
        if donor != nil {  // the general locals' storage, whatever the size (resized in place)
            swap(&donatedLocals.table, &donor!.generalLocals)
            swap(&donatedLocals.slots, &donor!.generalLocalSlots)
            swap(&donatedLocals.layers, &donor!.generalLocalLayers)
        }
        if var old = donor.take(), old.count == n {
            (a, b, c, d, tx, ty, modes) = (old.a, old.b, old.c, old.d, old.tx, old.ty, old.modes)
            old.a = []
            old.b = []
            old.c = []
            old.d = []
            old.tx = []
            old.ty = []
            old.modes = []
            blockKinds = old.blockKinds
            old.blockKinds = []
            if keepOrder && !old.levelStarts.isEmpty {
                (order, levelStarts, subtreeBlocks) = (old.order, old.levelStarts, old.subtreeBlocks)
                (subtreeRanges, subtreeRangesBuilt) = (old.subtreeRanges, old.subtreeRangesBuilt)
                keptScatteredParents = old.scatteredParents
                keptChainedParents = old.chainedParents
            } else {
                (order, levelStarts, subtreeBlocks) = worldLayout()
            }
        } else {
            a = column()
            b = column()
            c = column()
            d = column()
            tx = column()
            ty = column()
            modes = [UInt8](unsafeUninitializedCapacity: n) { $1 = n }
            (order, levelStarts, subtreeBlocks) = worldLayout()
        }
        var generalPositions: [Int] = []
        // Exact kinds: start every block at the cheapest kind, and every write raises it.
        blockKinds.removeAll(keepingCapacity: true)
        blockKinds.append(contentsOf: repeatElement(LocalKind.translate, count: LocalKind.blockCount(n)))
        withBlockKinds(&blockKinds, layerCount: n) { kinds in
            withAffinePointers(&a, &b, &c, &d, &tx, &ty) { local in
                withRawColumn(&modes) { modes in
                    let output = PlanOutput(
                        a: local.a, b: local.b, c: local.c, d: local.d, tx: local.tx, ty: local.ty,
                        modes: modes, blockKinds: kinds, marksPositionSum: true)
                    generalPositions = writePlanEntries(order: order, to: output)
                }
            }
        }
        var plan = WorldPlan(
            a: a, b: b, c: c, d: d, tx: tx, ty: ty, modes: modes, order: order,
            levelStarts: levelStarts, subtreeBlocks: subtreeBlocks, generalPositions: generalPositions,
            subtreeRanges: subtreeRanges, subtreeRangesBuilt: subtreeRangesBuilt, blockKinds: blockKinds)
        let locals = makeGeneralLocals(for: plan, generalPositions: generalPositions, reusing: donatedLocals)
        (plan.generalLocals, plan.generalLocalSlots, plan.generalLocalLayers) = (
            locals.table, locals.slots, locals.layers
        )
        plan.scatteredParents = keptScatteredParents ?? parentsAreScattered()
        plan.chainedParents = keptChainedParents ?? parentsAreChained(order: order)
        return plan
    }

    /// Writes every layer's plan entry to `output`, superlayers first, and returns the
    /// positions (in `order`) of the general layers, ascending.
    private func writePlanEntries(order: [Int32]?, to output: PlanOutput) -> [Int] {
        let n = count
        var generalPositions: [Int] = []
        withPlanInputs { inputs in
            func writeEntry(_ layer: Int) {
                if !inputs.writeCommonEntry(layer, to: output) {
                    let superlayer = Int(inputs.parents[layer])
                    output.write(
                        planEntry(layer, superlayerMode: superlayer >= 0 ? output.modes[superlayer] : 0), at: layer)
                }
            }
            guard let order else {
                for layer in 0..<n {
                    writeEntry(layer)
                    if output.modes[layer] & WorldMode.general != 0 { generalPositions.append(layer) }
                }
                return
            }
            // An entry needs only its superlayer's entry first. When superlayers come
            // before their sublayers in index order (a depth-first build does that, not
            // only a breadth-first one), index order streams the columns where the level
            // order would jump around in them.
            if parentsPrecedeChildren {
                for layer in 0..<n { writeEntry(layer) }
                for position in 0..<n where output.modes[Int(order[position])] & WorldMode.general != 0 {
                    generalPositions.append(position)
                }
            } else {
                for position in 0..<n {
                    let layer = Int(order[position])
                    writeEntry(layer)
                    if output.modes[layer] & WorldMode.general != 0 { generalPositions.append(position) }
                }
            }
        }
        return generalPositions
    }

    /// Calls `body` with raw pointers to the layer properties a plan entry reads.
    func withPlanInputs<R>(_ body: (PlanInputs) -> R) -> R {
        let plainSublayers = !columns.sublayerTransforms.isMaterialized
        return withOptionalRawColumn(reading: plainSublayers ? nil : columns.sublayerTransforms.kindColumn) {
            sublayerKinds in
            withRawColumn(reading: hierarchy.parents) { parents in
                withRawColumn(reading: columns.flags) { flags in
                    columns.transforms.withAffineColumns { m in
                        withRawColumn(reading: columns.transforms.kindColumn) { kinds in
                            withLayerGeometry { geometry in
                                body(
                                    PlanInputs(
                                        parents: parents, flags: flags, kinds: kinds, a: m.a, b: m.b, c: m.c, d: m.d,
                                        tx: m.tx, ty: m.ty, geometry: geometry, sublayerKinds: sublayerKinds))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with raw pointers to the bounds, anchor and position columns and the
    /// z values' finiteness check.
    @inline(__always)
    func withLayerGeometry<R>(_ body: (LayerGeometryPointers) -> R) -> R {
        withRawColumns(reading: columns.boundsX, columns.boundsY, columns.boundsWidth, columns.boundsHeight) {
            bx, by, bw, bh in
            withRawColumns(reading: columns.anchorX, columns.anchorY, columns.positionX, columns.positionY) {
                ax, ay, px, py in
                columns.zValues.withFinitenessCheck { zCheck in
                    body(
                        LayerGeometryPointers(
                            boundsX: bx, boundsY: by, width: bw, height: bh, anchorX: ax, anchorY: ay,
                            positionX: px, positionY: py, zCheck: zCheck))
                }
            }
        }
    }

    /// Recomputes `layer`'s cached local transform and its mode bits from its inputs, its
    /// superlayer's adjustments and its superlayer's mode (which must be current).
    @inline(__always)
    func refreshPlanEntry(_ layer: Int, in plan: inout WorldPlan) {
        let superlayer = Int(hierarchy.parents[layer])
        let entry = planEntry(layer, superlayerMode: superlayer >= 0 ? plan.modes[superlayer] : 0)
        plan.a[layer] = entry.local.a
        plan.b[layer] = entry.local.b
        plan.c[layer] = entry.local.c
        plan.d[layer] = entry.local.d
        plan.tx[layer] = entry.local.tx
        plan.ty[layer] = entry.local.ty
        plan.modes[layer] = entry.mode
        let layerCount = plan.count
        withBlockKinds(&plan.blockKinds, layerCount: layerCount) { kinds in
            raiseBlockKind(
                kinds, layer: layer,
                a: entry.local.a, b: entry.local.b, c: entry.local.c, d: entry.local.d)
        }
        if entry.mode & WorldMode.general != 0 && plan.cachesGeneralLocals {
            plan.storeGeneralLocal(transformToSuperlayer(of: layer), of: layer)
        }
    }

    /// `layer`'s plan entry: its mode bits and (for eligible layers) its planar local
    /// transform; `superlayerMode` is the superlayer's current mode (ignored for roots).
    func planEntry(_ layer: Int, superlayerMode: UInt8) -> (mode: UInt8, local: AffineTransform) {
        let entry = planEntryWithoutAdjustBit(layer, superlayerMode: superlayerMode)
        let adjusts =
            !columns.flags[layer].isDisjoint(with: .adjustingSublayers)
            || columns.sublayerTransforms.kind(at: layer) != .identity
        return (entry.mode | (adjusts ? WorldMode.adjustsSublayers : 0), entry.local)
    }

    private func planEntryWithoutAdjustBit(_ layer: Int, superlayerMode: UInt8) -> (mode: UInt8, local: AffineTransform)
    {
        let superlayer = Int(hierarchy.parents[layer])
        if superlayer < 0 {
            let planar = leavesSublayersPlanar(transformToSuperlayer(of: layer))
            return (WorldMode.general | (planar ? WorldMode.eligible : 0), .identity)
        }
        guard let local = planarTransformToSuperlayer(of: layer, superlayer: superlayer) else {
            return (WorldMode.general, .identity)
        }
        return (
            WorldMode.eligible
                | planarMode(superlayerMode: superlayerMode, superlayerIsRoot: hierarchy.parents[superlayer] < 0),
            local
        )
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
        guard columns.transforms.kind(at: layer) <= .affine, columns.zValues.areFinite(at: layer),
            !columns.flags[superlayer].contains(.transformLayer)
        else { return nil }
        let subKind = columns.sublayerTransforms.kind(at: superlayer)
        guard subKind <= .affine, subKind == .identity || columns.zValues.anchorPointZ(at: superlayer).isFinite
        else { return nil }
        let m = columns.transforms.affine(at: layer)
        return planarLocal(layer, m, superlayer: superlayer, subKind: subKind)
    }

    @inline(__always)
    private func planarLocal(_ layer: Int, _ m: AffineTransform, superlayer: Int, subKind: TransformKind)
        -> AffineTransform
    {
        let anchorInBoundsX = columns.boundsX[layer] + columns.anchorX[layer] * columns.boundsWidth[layer]
        let anchorInBoundsY = columns.boundsY[layer] + columns.anchorY[layer] * columns.boundsHeight[layer]
        let ax = -anchorInBoundsX
        let ay = -anchorInBoundsY
        var local = AffineTransform(
            a: m.a, b: m.b, c: m.c, d: m.d,
            tx: (((ax * m.a) + (ay * m.c)) + m.tx) + columns.positionX[layer],
            ty: (((ax * m.b) + (ay * m.d)) + m.ty) + columns.positionY[layer])
        let flipped = columns.flags[superlayer].contains(.geometryFlipped)
        if flipped || subKind != .identity {
            local = local.concatenating(planarAdjustment(of: superlayer, flipped: flipped, subKind: subKind))
        }
        return local
    }

    /// `Adjust(S) = Flip(S) * Sub(S)` as an affine map (valid when Sub(S) is affine).
    func planarAdjustment(of superlayer: Int, flipped: Bool, subKind: TransformKind) -> AffineTransform {
        var result = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        if flipped {
            result = AffineTransform(
                a: 1, b: 0, c: 0, d: -1, tx: 0,
                ty: 2 * columns.boundsY[superlayer] + columns.boundsHeight[superlayer])
        }
        if subKind != .identity {
            let s = columns.sublayerTransforms.affine(at: superlayer)
            let pivotX = columns.boundsX[superlayer] + columns.anchorX[superlayer] * columns.boundsWidth[superlayer]
            let pivotY = columns.boundsY[superlayer] + columns.anchorY[superlayer] * columns.boundsHeight[superlayer]
            let px = -pivotX
            let py = -pivotY
            let sub = AffineTransform(
                a: s.a, b: s.b, c: s.c, d: s.d,
                tx: (((px * s.a) + (py * s.c)) + s.tx) + pivotX,
                ty: (((px * s.b) + (py * s.d)) + s.ty) + pivotY)
            result = result.concatenating(sub)
        }
        return result
    }

    /// True when sublayers of a layer with world matrix `m` get planar world matrices:
    /// every entry finite and m13 = m23 = m14 = m24 = m43 = 0, m44 = 1. Entry by entry,
    /// not through `rowMajor` (an array): the frame query calls it per visited root.
    func leavesSublayersPlanar(_ m: Transform3D) -> Bool {
        guard m.m13 == 0, m.m23 == 0, m.m14 == 0, m.m24 == 0, m.m43 == 0, m.m44 == 1 else { return false }
        return m.m11.isFinite && m.m12.isFinite && m.m21.isFinite && m.m22.isFinite && m.m31.isFinite
            && m.m32.isFinite && m.m33.isFinite && m.m34.isFinite && m.m41.isFinite && m.m42.isFinite
    }
}

/// Raw pointers to a plan's columns, for the loops that fill them (made inside
/// `makeWorldPlan`'s or `withIncrementalColumns`' opener). Never kept past that closure (the rule atop Memory/RawColumns.swift).
struct PlanOutput {
    let a, b, c, d, tx, ty: RawColumn<Double>
    let modes: RawColumn<UInt8>
    /// The plan's `blockKinds`, raised by every write (nil: the plan keeps none).
    let blockKinds: RawColumn<UInt8>?
    /// Whether `writeCommonEntry` sets `WorldMode.positionSum` (else it clears it, and a
    /// later position change takes the full recompute).
    var marksPositionSum = false

    @inline(__always) func write(_ entry: (mode: UInt8, local: AffineTransform), at layer: Int) {
        a[layer] = entry.local.a
        b[layer] = entry.local.b
        c[layer] = entry.local.c
        d[layer] = entry.local.d
        tx[layer] = entry.local.tx
        ty[layer] = entry.local.ty
        modes[layer] = entry.mode
        raiseBlockKind(blockKinds, layer: layer, a: entry.local.a, b: entry.local.b, c: entry.local.c, d: entry.local.d)
    }
}

/// Raw pointers to the layer properties (valid inside `withPlanInputs`). Never kept past that closure (the rule atop Memory/RawColumns.swift).
struct PlanInputs {
    let parents: RawColumn<Int32>
    let flags: RawColumn<LayerFlags>
    let kinds: RawColumn<TransformKind>
    let a, b, c, d, tx, ty: RawColumn<Double>
    let boundsX, boundsY, width, height, anchorX, anchorY, positionX, positionY: RawColumn<Double>
    /// Answers whether a layer's zPosition and anchorPointZ are finite; nil while all are.
    let zCheck: ZFinitenessCheck?
    /// The kinds of the sublayerTransforms; nil while no layer has one.
    let sublayerKinds: RawColumn<TransformKind>?

    init(
        parents: RawColumn<Int32>, flags: RawColumn<LayerFlags>, kinds: RawColumn<TransformKind>,
        a: RawColumn<Double>, b: RawColumn<Double>, c: RawColumn<Double>, d: RawColumn<Double>,
        tx: RawColumn<Double>, ty: RawColumn<Double>, geometry: LayerGeometryPointers,
        sublayerKinds: RawColumn<TransformKind>?
    ) {
        (self.parents, self.flags, self.kinds) = (parents, flags, kinds)
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
        (boundsX, boundsY, width, height) = (geometry.boundsX, geometry.boundsY, geometry.width, geometry.height)
        (anchorX, anchorY, positionX, positionY) =
            (geometry.anchorX, geometry.anchorY, geometry.positionX, geometry.positionY)
        zCheck = geometry.zCheck
        self.sublayerKinds = sublayerKinds
    }

    /// The common layer, computed inline: a sublayer with an affine transform and finite
    /// z values, under a superlayer without flip, sublayerTransform or transform-layer
    /// flag. Writes its entry (the superlayer's mode must be current) and returns true;
    /// returns false, writing nothing, for any other layer.
    @inline(__always)
    func writeCommonEntry(_ layer: Int, to output: PlanOutput) -> Bool {
        let superlayer = Int(parents[layer])
        guard superlayer >= 0, kinds[layer] <= .affine,
            flags[superlayer].isDisjoint(with: .adjustingSublayers),
            sublayerKinds.map({ $0[superlayer] == .identity }) ?? true,
            zCheck.map({ $0.areFinite(layer) }) ?? true
        else { return false }
        // Local(L) with Adjust(S) = identity, as in `planarTransformToSuperlayer`.
        let anchorX = -(boundsX[layer] + self.anchorX[layer] * width[layer])
        let anchorY = -(boundsY[layer] + self.anchorY[layer] * height[layer])
        let m11 = a[layer]
        let m12 = b[layer]
        let m21 = c[layer]
        let m22 = d[layer]
        output.a[layer] = m11
        output.b[layer] = m12
        output.c[layer] = m21
        output.d[layer] = m22
        raiseBlockKind(output.blockKinds, layer: layer, a: m11, b: m12, c: m21, d: m22)
        // `unpositioned(_:)`'s expression (inline here: the loads above are shared).
        let unpositionedX = ((anchorX * m11) + (anchorY * m21)) + tx[layer]
        let unpositionedY = ((anchorX * m12) + (anchorY * m22)) + ty[layer]
        output.tx[layer] = unpositionedX + positionX[layer]
        output.ty[layer] = unpositionedY + positionY[layer]
        let sumBit = output.marksPositionSum ? WorldMode.positionSum : 0
        let superMode = output.modes[superlayer]
        let adjusts =
            !flags[layer].isDisjoint(with: .adjustingSublayers)
            || (sublayerKinds.map { $0[layer] != .identity } ?? false)
        output.modes[layer] =
            sumBit | (adjusts ? WorldMode.adjustsSublayers : 0) | WorldMode.eligible
            | (parents[superlayer] < 0
                ? (superMode & WorldMode.eligible != 0 ? 0 : WorldMode.general)
                : superMode & WorldMode.general)
        return true
    }

    /// The translation of `layer`'s common entry before its position is added:
    /// `writeCommonEntry`'s expression, operation for operation, so for unchanged
    /// bounds, anchor and transform the same bits it added to the position. O(1), twelve
    /// column reads (the position shortcut's cost since the plan keeps no copy of it:
    /// 16 bytes a layer, issue 22).
    @inline(__always)
    func unpositioned(_ layer: Int) -> (x: Double, y: Double) {
        let anchorX = -(boundsX[layer] + self.anchorX[layer] * width[layer])
        let anchorY = -(boundsY[layer] + self.anchorY[layer] * height[layer])
        let (m11, m12, m21, m22) = (a[layer], b[layer], c[layer], d[layer])
        return (((anchorX * m11) + (anchorY * m21)) + tx[layer], ((anchorX * m12) + (anchorY * m22)) + ty[layer])
    }

    /// Hints that `layer`'s inputs to `unpositioned(_:)` and its position will be read
    /// soon (the incremental refresh asks a few dirty layers ahead; no effect on results).
    @inline(__always)
    func prefetchCommonInputs(_ layer: Int) {
        boundsX.prefetchForRead(layer)
        width.prefetchForRead(layer)
        self.anchorX.prefetchForRead(layer)
        boundsY.prefetchForRead(layer)
        height.prefetchForRead(layer)
        self.anchorY.prefetchForRead(layer)
        a.prefetchForRead(layer)
        b.prefetchForRead(layer)
        c.prefetchForRead(layer)
        d.prefetchForRead(layer)
        tx.prefetchForRead(layer)
        ty.prefetchForRead(layer)
        positionX.prefetchForRead(layer)
        positionY.prefetchForRead(layer)
    }
}

/// Raw pointers to a store's bounds, anchor, position and z columns (valid inside
/// `withLayerGeometry`). Never kept past that closure (the rule atop Memory/RawColumns.swift).
struct LayerGeometryPointers {
    let boundsX, boundsY, width, height, anchorX, anchorY, positionX, positionY: RawColumn<Double>
    /// Nil while every z value is finite (`ZValueColumns.withFinitenessCheck`).
    let zCheck: ZFinitenessCheck?
}
