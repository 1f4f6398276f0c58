// swift-format-ignore-file
// (Its nested withUnsafe… closure pyramids would be indented up to 100 columns; it is
// formatted once the world pipeline is split into stages, issue 11.)
// The incremental part of `updateWorld()`: recompute only the subtrees under layers
// whose inputs changed, in place in the cached plan and world.

extension LayerStore {
    /// Recomputes the subtrees of the dirty layers in place, serially: as runs of plan
    /// positions through `options.backend`'s kernel when the plan's order allows it
    /// (`updateDirtyRanges`), else layer by layer. False when a planar chain became
    /// non-finite: the caches are then dropped and the caller runs a full pass.
    mutating func updateDirtySubtrees(options: KernelOptions = .default) -> Bool {
        guard var world = worldCache, var plan = worldPlan else { return false }
        worldCache = nil
        worldPlan = nil
        world.modes = [] // shares plan.modes; drop it so writing the plan copies nothing
        if !plan.subtreeRangesBuilt {
            plan.subtreeRanges = makeSubtreeRangeIndex(for: plan)
            plan.subtreeRangesBuilt = true
        }
        var needsSubtreeWalk = true
        if let index = plan.subtreeRanges {
            let result = updateDirtyRanges(plan: &plan, world: &world, index: index, options: options)
            switch result {
            case .done:
                needsSubtreeWalk = false
                lastWorldUpdatePath = .rangeWalk
            case .needsSubtreeWalk: break
            case .nonFinite: return false
            case .subtreesTooLarge, .walkTooLong:
                needsSubtreeWalk = false
                guard propagateWorld(plan: plan, into: &world, options: options) else { return false }
                lastWorldUpdatePath = result == .walkTooLong ? .rangeWalkThenFullPropagation : .dirtyEntriesThenFullPropagation
            }
        }
        if needsSubtreeWalk {
            guard recomputeDirtySubtrees(plan: &plan, world: &world) else { return false }
            if plan.generalPositions == nil && !plan.cachesGeneralLocals { cacheGeneralLocals(in: &plan) }
            lastWorldUpdatePath = .subtreeWalk
        }
        world.modes = plan.modes
        worldCache = world
        worldPlan = plan
        return true
    }

    /// The layers whose subtrees need recomputing: dirty layers without a dirty
    /// ancestor (an ancestor's subtree already covers them). O(dirty × depth).
    private func topDirtyLayers() -> [Int] {
        changes.dirtyStates.withUnsafeBufferPointer { dirtyStates in
            parents.withUnsafeBufferPointer { parents in
                changes.dirtyLayers.compactMap { dirtyLayer -> Int? in
                    var ancestor = parents[Int(dirtyLayer)]
                    while ancestor >= 0 {
                        if dirtyStates[Int(ancestor)] != ChangeTracker.clean { return nil }
                        ancestor = parents[Int(ancestor)]
                    }
                    return Int(dirtyLayer)
                }
            }
        }
    }

    /// The work of `updateDirtySubtrees`, non-mutating so the store is only borrowed.
    /// Columns are moved out of `plan` and `world` and walked through raw pointers.
    private func recomputeDirtySubtrees(plan: inout WorldPlan, world: inout WorldTransforms) -> Bool {
        let tops = topDirtyLayers()
        var (planColumns, worldColumns, general) = detachColumns(&plan, &world)
        var generalLocals = plan.generalLocals
        plan.generalLocals = []
        defer {
            reattachColumns(planColumns, worldColumns, general, to: &plan, &world)
            plan.generalLocals = generalLocals
        }
        var allFinite = true
        var generalChanged = false
        planColumns.0.withUnsafeMutableBufferPointer { pa in planColumns.1.withUnsafeMutableBufferPointer { pb in
        planColumns.2.withUnsafeMutableBufferPointer { pc in planColumns.3.withUnsafeMutableBufferPointer { pd in
        planColumns.4.withUnsafeMutableBufferPointer { ptx in planColumns.5.withUnsafeMutableBufferPointer { pty in
        planColumns.6.withUnsafeMutableBufferPointer { pm in
        worldColumns.0.withUnsafeMutableBufferPointer { wa in worldColumns.1.withUnsafeMutableBufferPointer { wb in
        worldColumns.2.withUnsafeMutableBufferPointer { wc in worldColumns.3.withUnsafeMutableBufferPointer { wd in
        worldColumns.4.withUnsafeMutableBufferPointer { wtx in worldColumns.5.withUnsafeMutableBufferPointer { wty in
        changes.dirtyStates.withUnsafeBufferPointer { dirtyStates in
        firstSublayers.withUnsafeBufferPointer { firstSublayers in nextSiblings.withUnsafeBufferPointer { nextSiblings in
        withBlockKinds(&plan.blockKinds, layerCount: count) { blockKinds in
        generalLocals.withUnsafeMutableBufferPointer { localsBuffer in
        // nil when not cached (an empty array may still have a base address).
        let locals: UnsafeMutablePointer<Double>? = localsBuffer.isEmpty ? nil : localsBuffer.baseAddress
        withPlanInputs { inputs in
            let output = PlanOutput(a: pa.baseAddress!, b: pb.baseAddress!, c: pc.baseAddress!, d: pd.baseAddress!,
                                    tx: ptx.baseAddress!, ty: pty.baseAddress!, modes: pm.baseAddress!,
                                    blockKinds: blockKinds)
            let parents = inputs.parents
            func superlayerWorld(_ superlayer: Int) -> Transform3D {
                if pm[superlayer] & WorldMode.general != 0 { return general[Int32(truncatingIfNeeded: superlayer)]! }
                return Transform3D(planarA: wa[superlayer], b: wb[superlayer], c: wc[superlayer],
                                   d: wd[superlayer], tx: wtx[superlayer], ty: wty[superlayer])
            }
            /// Recomputes one layer (its superlayer is done). False when non-finite.
            func recompute(_ layer: Int) -> Bool {
                let superlayer = Int(parents[layer])
                let oldMode = pm[layer]
                if dirtyStates[layer] != ChangeTracker.clean
                    || (superlayer >= 0 && dirtyStates[superlayer] != ChangeTracker.clean
                        && pm[superlayer] & WorldMode.adjustsSublayers != 0) {
                    // Its inputs, or its superlayer's adjustments, changed.
                    if !inputs.writeCommonEntry(layer, to: output) {
                        output.write(planEntry(layer, superlayerMode: superlayer >= 0 ? pm[superlayer] : 0), at: layer)
                    }
                    if pm[layer] & WorldMode.general != 0, let locals { writeGeneralLocal(layer, to: locals) }
                    // Sticky until the next full pass: an adjustment just removed must
                    // still refresh the sublayers that baked it in.
                    pm[layer] |= oldMode & WorldMode.adjustsSublayers
                } else if oldMode & WorldMode.eligible != 0 {
                    // Its entry is unchanged, so its cached unpositioned translation too.
                    pm[layer] = (oldMode & (WorldMode.adjustsSublayers | WorldMode.positionSum)) | WorldMode.eligible
                        | planarMode(superlayerMode: pm[superlayer], superlayerIsRoot: parents[superlayer] < 0)
                    // Turned general under a superlayer that did: its local was not cached.
                    if pm[layer] & ~oldMode & WorldMode.general != 0, let locals {
                        writeGeneralLocal(layer, to: locals)
                    }
                }
                let mode = pm[layer]
                if (mode ^ oldMode) & WorldMode.general != 0 { generalChanged = true }
                if mode & WorldMode.general == 0 {
                    let p = superlayer
                    let a = (pa[layer] * wa[p]) + (pb[layer] * wc[p])
                    let b = (pa[layer] * wb[p]) + (pb[layer] * wd[p])
                    let c = (pc[layer] * wa[p]) + (pd[layer] * wc[p])
                    let d = (pc[layer] * wb[p]) + (pd[layer] * wd[p])
                    let tx = ((ptx[layer] * wa[p]) + (pty[layer] * wc[p])) + wtx[p]
                    let ty = ((ptx[layer] * wb[p]) + (pty[layer] * wd[p])) + wty[p]
                    wa[layer] = a; wb[layer] = b; wc[layer] = c; wd[layer] = d; wtx[layer] = tx; wty[layer] = ty
                    if !(a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite) {
                        return false
                    }
                    if oldMode & WorldMode.general != 0 { general[Int32(truncatingIfNeeded: layer)] = nil }
                } else {
                    let local = locals.map { Transform3D(rowMajorAt: $0 + 16 * layer) }
                        ?? transformToSuperlayer(of: layer)
                    let matrix = superlayer < 0 ? local : local.concatenating(superlayerWorld(superlayer))
                    wa[layer] = matrix.m11; wb[layer] = matrix.m12; wc[layer] = matrix.m21
                    wd[layer] = matrix.m22; wtx[layer] = matrix.m41; wty[layer] = matrix.m42
                    general[Int32(truncatingIfNeeded: layer)] = matrix
                }
                return true
            }
            // Level by level over the dirty subtrees (they are disjoint): a layer's
            // superlayer is in the previous round. The loads of one round are independent
            // of each other, unlike a depth-first walk, so cache misses overlap.
            var frontier = tops.map { Int32(truncatingIfNeeded: $0) }
            var next: [Int32] = []
            while !frontier.isEmpty {
                for layer in frontier where !recompute(Int(layer)) { allFinite = false; return }
                next.removeAll(keepingCapacity: true)
                for layer in frontier {
                    var child = firstSublayers[Int(layer)]
                    while child >= 0 { next.append(child); child = nextSiblings[Int(child)] }
                }
                swap(&frontier, &next)
            }
        }}}}}}}}}}}}}}}}}}}
        if generalChanged { plan.generalPositions = nil }
        return allFinite
    }
}

/// The plan's local columns and modes, and the world's columns, as an incremental pass
/// holds them while it writes them through raw pointers.
typealias DetachedPlanColumns = ([Double], [Double], [Double], [Double], [Double], [Double], [UInt8])
typealias DetachedWorldColumns = ([Double], [Double], [Double], [Double], [Double], [Double])

/// Moves the columns an incremental pass writes out of `plan` and `world`: the pass can
/// then hold raw pointers into them and write the general table without overlapping
/// access to `plan` or `world`, and no other reference shares their buffers, so writing
/// copies nothing. `reattachColumns` puts them back (call it from a `defer`). O(1).
func detachColumns(_ plan: inout WorldPlan, _ world: inout WorldTransforms)
    -> (DetachedPlanColumns, DetachedWorldColumns, GeneralMatrices) {
    let detached = ((plan.a, plan.b, plan.c, plan.d, plan.tx, plan.ty, plan.modes),
                    (world.a, world.b, world.c, world.d, world.tx, world.ty), world.general)
    plan.a = []; plan.b = []; plan.c = []; plan.d = []; plan.tx = []; plan.ty = []; plan.modes = []
    world.a = []; world.b = []; world.c = []; world.d = []; world.tx = []; world.ty = []
    world.general = GeneralMatrices()
    return detached
}

/// Puts back what `detachColumns` moved out. O(1).
func reattachColumns(_ planColumns: DetachedPlanColumns, _ worldColumns: DetachedWorldColumns,
                     _ general: GeneralMatrices, to plan: inout WorldPlan, _ world: inout WorldTransforms) {
    (plan.a, plan.b, plan.c, plan.d, plan.tx, plan.ty, plan.modes) = planColumns
    (world.a, world.b, world.c, world.d, world.tx, world.ty) = worldColumns
    world.general = general
}
