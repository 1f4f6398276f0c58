// The incremental part of `updateWorld()`: recompute only the subtrees under layers
// whose inputs changed, in place in the cached plan and world.

extension LayerStore {
    /// Recomputes the subtrees of the dirty layers in place, serially: as runs of plan
    /// positions through `options.backend(for:)`'s kernels when the plan's order allows it
    /// (`updateDirtyRanges`), else layer by layer. False when a planar chain became
    /// non-finite: the caches are then dropped and the caller runs a full pass.
    mutating func updateDirtySubtrees(options: KernelOptions = .default) -> Bool {
        guard var world = caches.worldCache, var plan = caches.worldPlan else { return false }
        caches.worldCache = nil
        caches.worldPlan = nil
        world.modes = []  // shares plan.modes; drop it so writing the plan copies nothing
        if !plan.subtreeRangesBuilt {
            plan.subtreeRanges = makeSubtreeRangeIndex(for: plan)
            plan.subtreeRangesBuilt = true
        }
        var needsSubtreeWalk = true
        if let index = plan.subtreeRanges {
            // The walk's arrays: the store's, moved out for the update and back after.
            var scratch = IncrementalScratch()
            swap(&scratch, &caches.incrementalScratch)
            let result = updateDirtyRanges(
                plan: &plan, world: &world, index: index, scratch: &scratch, options: options)
            swap(&scratch, &caches.incrementalScratch)
            switch result {
            case .done:
                needsSubtreeWalk = false
                caches.lastWorldUpdatePath = .rangeWalk
            case .needsSubtreeWalk: break
            case .nonFinite: return false
            case .subtreesTooLarge, .walkTooLong:
                needsSubtreeWalk = false
                guard propagateWorld(plan: plan, into: &world, options: options) else { return false }
                caches.lastWorldUpdatePath =
                    result == .walkTooLong ? .rangeWalkThenFullPropagation : .dirtyEntriesThenFullPropagation
            }
        }
        if needsSubtreeWalk {
            guard recomputeDirtySubtrees(plan: &plan, world: &world) else { return false }
            if plan.generalPositions == nil && !plan.cachesGeneralLocals { cacheGeneralLocals(in: &plan) }
            caches.lastWorldUpdatePath = .subtreeWalk
        }
        world.modes = plan.modes
        caches.worldCache = world
        caches.worldPlan = plan
        return true
    }

    /// The layers whose subtrees need recomputing: dirty layers without a dirty
    /// ancestor (an ancestor's subtree already covers them). O(dirty × depth).
    private func topDirtyLayers() -> [Int] {
        withRawList(reading: caches.changes.dirtyStates) { dirtyStates in
            withRawList(reading: hierarchy.parents) { parents in
                caches.changes.dirtyLayers.compactMap { dirtyLayer -> Int? in
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
    /// The work of `updateDirtySubtrees`, non-mutating so the store is only borrowed:
    /// the dirty subtrees level by level (they are disjoint), each layer through
    /// `SubtreeRecompute.recompute`, over the columns of `withIncrementalColumns`.
    private func recomputeDirtySubtrees(plan: inout WorldPlan, world: inout WorldTransforms) -> Bool {
        let tops = topDirtyLayers()
        let (allFinite, generalChanged, missingLocals) = withIncrementalColumns(plan: &plan, world: &world) {
            columns, general in
            withPlanInputs { inputs in
                withRawColumn(reading: caches.changes.dirtyStates) { dirtyStates in
                    var stage = SubtreeRecompute(
                        columns: columns, output: columns.planOutput(markingPositionSum: false), inputs: inputs,
                        dirtyStates: dirtyStates)
                    let finite = recomputeLevels(from: tops, &stage, &general)
                    return (finite, stage.generalChanged, stage.missingLocals)
                }
            }
        }
        if generalChanged { plan.generalPositions = nil }
        for layer in missingLocals {
            plan.storeGeneralLocal(transformToSuperlayer(of: Int(layer)), of: Int(layer))
        }
        return allFinite
    }

    /// Level by level over the subtrees of `tops`: a layer's superlayer is in the
    /// previous round. The loads of one round are independent of each other, unlike a
    /// depth-first walk, so cache misses overlap. False at the first non-finite layer.
    private func recomputeLevels(
        from tops: [Int], _ stage: inout SubtreeRecompute, _ general: inout GeneralMatrices
    ) -> Bool {
        var frontier = tops.map { Int32(truncatingIfNeeded: $0) }
        var next: [Int32] = []
        while !frontier.isEmpty {
            for layer in frontier where !stage.recompute(Int(layer), store: self, general: &general) { return false }
            next.removeAll(keepingCapacity: true)
            for layer in frontier {
                var child = hierarchy.firstSublayers[Int(layer)]
                while child >= 0 {
                    next.append(child)
                    child = hierarchy.nextSiblings[Int(child)]
                }
            }
            swap(&frontier, &next)
        }
        return true
    }
}

/// The layer-by-layer stage of an incremental update: one layer's plan entry (when its
/// inputs or its superlayer's adjustments changed) and world, its superlayer's world
/// being current. Pointers from `withIncrementalColumns` and `withPlanInputs`.
struct SubtreeRecompute {
    let columns: IncrementalColumns
    let output: PlanOutput
    let inputs: PlanInputs
    let dirtyStates: RawColumn<UInt8>
    /// Some layer turned general or planar: the plan's `generalPositions` are stale.
    var generalChanged = false
    /// Layers that turned general without an entry in the cached locals (their worlds
    /// were computed from their properties): the caller gives them one.
    var missingLocals: [Int32] = []

    /// Recomputes `layer` (its superlayer is done). False when its world is non-finite.
    mutating func recompute(_ layer: Int, store: borrowing LayerStore, general: inout GeneralMatrices) -> Bool {
        let mode = refreshEntry(layer, store: store)
        let superlayer = Int(inputs.parents[layer])
        let world = columns.world
        guard mode.new & WorldMode.general == 0 else {
            // (No entry: it turned general in this update; `missingLocals` has it.)
            let local =
                columns.generalLocals?.entry(of: layer).map { Transform3D(rowMajorAt: $0) }
                ?? store.transformToSuperlayer(of: layer)
            let matrix = superlayer < 0 ? local : local.concatenating(superlayerWorld(superlayer, general))
            world.a[layer] = matrix.m11
            world.b[layer] = matrix.m12
            world.c[layer] = matrix.m21
            world.d[layer] = matrix.m22
            world.tx[layer] = matrix.m41
            world.ty[layer] = matrix.m42
            general[Int32(truncatingIfNeeded: layer)] = matrix
            return true
        }
        let p = superlayer
        let local = columns.local
        let w = planarProduct(
            local.a[layer], local.b[layer], local.c[layer], local.d[layer], local.tx[layer], local.ty[layer],
            world.a[p], world.b[p], world.c[p], world.d[p], world.tx[p], world.ty[p])
        world.a[layer] = w.a
        world.b[layer] = w.b
        world.c[layer] = w.c
        world.d[layer] = w.d
        world.tx[layer] = w.tx
        world.ty[layer] = w.ty
        if !(w.a.isFinite && w.b.isFinite && w.c.isFinite && w.d.isFinite && w.tx.isFinite && w.ty.isFinite) {
            return false
        }
        if mode.old & WorldMode.general != 0 { general[Int32(truncatingIfNeeded: layer)] = nil }
        return true
    }

    /// Refreshes `layer`'s plan entry and mode; returns its old and new mode.
    private mutating func refreshEntry(_ layer: Int, store: borrowing LayerStore) -> (old: UInt8, new: UInt8) {
        let modes = columns.modes
        let superlayer = Int(inputs.parents[layer])
        let oldMode = modes[layer]
        if dirtyStates[layer] != ChangeTracker.clean
            || (superlayer >= 0 && dirtyStates[superlayer] != ChangeTracker.clean
                && modes[superlayer] & WorldMode.adjustsSublayers != 0)
        {
            // Its inputs, or its superlayer's adjustments, changed.
            if !inputs.writeCommonEntry(layer, to: output) {
                let entry = store.planEntry(layer, superlayerMode: superlayer >= 0 ? modes[superlayer] : 0)
                output.write(entry, at: layer)
            }
            if modes[layer] & WorldMode.general != 0, let locals = columns.generalLocals,
                !store.writeGeneralLocal(layer, to: locals)
            {
                missingLocals.append(Int32(truncatingIfNeeded: layer))
            }
            // Sticky until the next full pass: an adjustment just removed must still
            // refresh the sublayers that baked it in.
            modes[layer] |= oldMode & WorldMode.adjustsSublayers
        } else if oldMode & WorldMode.eligible != 0 {
            // Its entry is unchanged, so the position shortcut stays valid.
            modes[layer] =
                (oldMode & (WorldMode.adjustsSublayers | WorldMode.positionSum)) | WorldMode.eligible
                | store.planarMode(superlayerMode: modes[superlayer], superlayerIsRoot: inputs.parents[superlayer] < 0)
            // Turned general under a superlayer that did: its local was not cached.
            if modes[layer] & ~oldMode & WorldMode.general != 0, let locals = columns.generalLocals,
                !store.writeGeneralLocal(layer, to: locals)
            {
                missingLocals.append(Int32(truncatingIfNeeded: layer))
            }
        }
        if (modes[layer] ^ oldMode) & WorldMode.general != 0 { generalChanged = true }
        return (oldMode, modes[layer])
    }

    /// The world of `superlayer` (finished) as a 4×4 matrix.
    private func superlayerWorld(_ superlayer: Int, _ general: GeneralMatrices) -> Transform3D {
        if columns.modes[superlayer] & WorldMode.general != 0 {
            return general[Int32(truncatingIfNeeded: superlayer)]!
        }
        let world = columns.world
        return Transform3D(
            planarA: world.a[superlayer], b: world.b[superlayer], c: world.c[superlayer], d: world.d[superlayer],
            tx: world.tx[superlayer], ty: world.ty[superlayer])
    }
}
