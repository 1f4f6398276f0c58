// swift-format-ignore-file
// (Its nested withUnsafe… closure pyramids would be indented up to 100 columns; it is
// formatted once the world pipeline is split into stages, issue 11.)
import CAffineKernels

// The fast incremental update: in a level order that lists each level's sublayers
// grouped by superlayer, in the superlayers' order (see `levelOrder`), the sublayers of
// a run of positions [lo, hi) are the run [childStart[lo], childStart[hi]) of the next
// level. So the dirty subtrees are, level by level, a few runs of positions, and each
// run goes through the streaming propagation kernel of the full pass: no pointer
// chasing. Short runs of a level are gathered into one list per level, and a moved
// layer under an unchanged superlayer recomputes only its translation
// (PlanarPropagation+Lists.swift).

/// Where each layer's sublayers sit in a plan's order (a CSR-style index).
struct SubtreeRangeIndex: Sendable {
    /// The position of each layer in the order; nil for index order (position = layer).
    var positions: [Int32]?
    /// `childStart[p] ..< childStart[p + 1]`: the positions of the sublayers of the layer
    /// at position `p`. `count + 1` entries; the last is `count`.
    var childStart: [Int32]
    /// What the range walk spends on the subtree of the layer at position `p`, in its
    /// work units: one per layer (itself included) and `runWorkCost` per level of the
    /// subtree (a run each), capped at `Int32.max`. Known before the walk starts.
    var walkCosts: [Int32]
}

/// What the range walk did.
enum RangeUpdateResult {
    /// The dirty subtrees are up to date.
    case done
    /// Some dirty layer's mode changed or it adjusts its sublayers: the plan entries
    /// below it need the layer-by-layer walk (dirty layers' entries are already written).
    case needsSubtreeWalk
    /// A planar chain became non-finite: the caches must be rebuilt by a full pass.
    case nonFinite
    /// The plan is up to date, but walking the dirty subtrees would cost more than an
    /// eighth of the tree's layers (their `walkCosts` say so before any walk): the caller
    /// runs the full pass over the cached plan.
    case subtreesTooLarge
    /// As `subtreesTooLarge`, found during the walk: with its per-level bookkeeping the
    /// walk grew past the budget (a deep chain: one layer per level).
    case walkTooLong
}

extension LayerStore {
    /// Runs at least this long go through the kernel directly (contiguous loads); shorter
    /// ones are gathered into the level's list of layers.
    static let directRunLength = 32
    /// How many dirty layers ahead the position shortcut prefetches.
    static let prefetchDistance = 16
    /// The smallest walk budget (layers) before the range walk gives up for a full pass,
    /// so that small trees still take the walk.
    static let minimumIncrementalBudget = 1_024
    /// The walk's work units beyond one per layer: per run of positions (a kernel call or
    /// a list entry's share of one), and per level (its bookkeeping).
    static let runWorkCost = 4, levelWorkCost = 16

    /// The range index of `plan`, or nil when its order does not group sublayers by
    /// superlayer (the subtree layout, or a layout made before the hierarchy changed).
    /// O(count), once per hierarchy change.
    func makeSubtreeRangeIndex(for plan: WorldPlan) -> SubtreeRangeIndex? {
        let n = plan.count
        guard n == count, n > 0, n < Int(Int32.max), plan.subtreeBlocks.isEmpty, plan.levelStarts.count >= 2,
              plan.levelStarts.last == n else { return nil }
        var positions: [Int32]? = nil
        if let order = plan.order {
            var inverse = [Int32](repeating: 0, count: n)
            for position in 0..<n { inverse[Int(order[position])] = Int32(truncatingIfNeeded: position) }
            positions = inverse
        }
        let firstSublayerPosition = plan.levelStarts[1]
        var childStart = [Int32](repeating: 0, count: n + 1)
        var previousSuperlayerPosition: Int32 = -1
        for position in firstSublayerPosition..<n {
            let superlayer = parents[plan.layer(atPosition: position)]
            guard superlayer >= 0 else { return nil }
            let superlayerPosition = positions.map { $0[Int(superlayer)] } ?? superlayer
            // Not grouped by superlayer in the superlayers' order: no runs to rely on.
            guard superlayerPosition >= previousSuperlayerPosition else { return nil }
            previousSuperlayerPosition = superlayerPosition
            childStart[Int(superlayerPosition) + 1] += 1
        }
        childStart[0] = Int32(truncatingIfNeeded: firstSublayerPosition)
        for position in 0..<n { childStart[position + 1] += childStart[position] }
        guard childStart[n] == Int32(truncatingIfNeeded: n) else { return nil }
        // Sublayers sit at later positions, so one backward sweep sizes each subtree and
        // counts its levels (both below n < Int32.max).
        var walkCosts = [Int32](repeating: 1, count: n)   // sizes, then costs
        var levels = [Int32](repeating: 1, count: n)
        for position in stride(from: n - 1, through: 0, by: -1) {
            var size: Int32 = 1, levelsBelow: Int32 = 0
            for child in Int(childStart[position])..<Int(childStart[position + 1]) {
                size += walkCosts[child]
                levelsBelow = Swift.max(levelsBelow, levels[child])
            }
            walkCosts[position] = size
            levels[position] = 1 + levelsBelow
        }
        for position in 0..<n {
            let cost = Int64(walkCosts[position]) + Int64(Self.runWorkCost) * Int64(levels[position])
            walkCosts[position] = Int32(Swift.min(cost, Int64(Int32.max)))
        }
        return SubtreeRangeIndex(positions: positions, childStart: childStart, walkCosts: walkCosts)
    }

    /// Recomputes the dirty layers' plan entries, then (when no mode changed and none
    /// adjusts its sublayers) their subtrees' world transforms as runs of positions with
    /// `options.backend`, serially. Bit-identical to a full pass with any backend.
    /// O(dirty log dirty + size of the dirty subtrees + runs × levels).
    func updateDirtyRanges(plan: inout WorldPlan, world: inout WorldTransforms, index: SubtreeRangeIndex,
                           options: KernelOptions) -> RangeUpdateResult {
        let n = plan.count
        // The dirty layers' positions, ascending (usually already: setters in index order).
        var dirty: [Int32]
        if let positions = index.positions {
            dirty = changes.dirtyLayers.map { positions[Int($0)] }
        } else {
            dirty = changes.dirtyLayers
        }
        var sorted = true
        for i in dirty.indices.dropFirst() where dirty[i - 1] > dirty[i] { sorted = false; break }
        if !sorted { dirty.sort() }
        if plan.generalPositions == nil {
            plan.generalPositions = (0..<n).filter { plan.modes[plan.layer(atPosition: $0)] & WorldMode.general != 0 }
        }
        let generalPositions = plan.generalPositions!
        var (planColumns, worldColumns, general) = detachColumns(&plan, &world)
        var generalLocals = plan.generalLocals
        plan.generalLocals = []
        defer {
            reattachColumns(planColumns, worldColumns, general, to: &plan, &world)
            plan.generalLocals = generalLocals
        }
        general.reserve(layers: highestLayer(atPositions: generalPositions, of: plan) + 1)
        var result = RangeUpdateResult.done
        var generalChanged = false
        // Per dirty position: a planar layer whose only change was its position (step 1's
        // shortcut), so its world's linear part (a, b, c, d) stays what it was unless its
        // superlayer's world changes too.
        var movedOnly = [Bool](repeating: false, count: dirty.count)
        planColumns.0.withUnsafeMutableBufferPointer { pa in planColumns.1.withUnsafeMutableBufferPointer { pb in
        planColumns.2.withUnsafeMutableBufferPointer { pc in planColumns.3.withUnsafeMutableBufferPointer { pd in
        planColumns.4.withUnsafeMutableBufferPointer { ptx in planColumns.5.withUnsafeMutableBufferPointer { pty in
        planColumns.6.withUnsafeMutableBufferPointer { pm in
        worldColumns.0.withUnsafeMutableBufferPointer { wa in worldColumns.1.withUnsafeMutableBufferPointer { wb in
        worldColumns.2.withUnsafeMutableBufferPointer { wc in worldColumns.3.withUnsafeMutableBufferPointer { wd in
        worldColumns.4.withUnsafeMutableBufferPointer { wtx in worldColumns.5.withUnsafeMutableBufferPointer { wty in
        plan.unpositioned.withUnsafeMutableBufferPointer { unpositioned in
        changes.dirtyStates.withUnsafeBufferPointer { dirtyStates in
        index.childStart.withUnsafeBufferPointer { childStart in index.walkCosts.withUnsafeBufferPointer { walkCosts in
        withOptionalBuffer(plan.order) { order in
        withBlockKinds(&plan.blockKinds, layerCount: n) { blockKinds in
        generalLocals.withUnsafeMutableBufferPointer { localsBuffer in
        // nil when not cached (an empty array may still have a base address).
        let locals: UnsafeMutablePointer<Double>? = localsBuffer.isEmpty ? nil : localsBuffer.baseAddress
        general.withUnsafeMutablePointers { generalWorld, present in
        withPlanInputs { inputs in
            let output = PlanOutput(a: pa.baseAddress!, b: pb.baseAddress!, c: pc.baseAddress!, d: pd.baseAddress!,
                                    tx: ptx.baseAddress!, ty: pty.baseAddress!, modes: pm.baseAddress!,
                                    blockKinds: blockKinds,
                                    unpositioned: unpositioned.baseAddress!)
            let positionX = inputs.positionX, positionY = inputs.positionY
            let parents = inputs.parents
            @inline(__always) func layer(_ position: Int) -> Int { order.map { Int($0[position]) } ?? position }
            // (1) The dirty layers' own entries, superlayers first. Unchanged modes leave
            // every other entry valid; a changed one needs the layer-by-layer walk.
            let unpositioned = unpositioned.baseAddress!
            // What the walk will cost, from the subtrees' costs (nested and adjacent dirty
            // subtrees counted apart, so this errs high; refined below when that matters).
            var walkEstimate = 0
            for (index, position) in dirty.enumerated() {
                // The dirty layers are scattered: ask for the lines of the one a few
                // entries ahead, so that many misses are in flight (no effect on results).
                if index + Self.prefetchDistance < dirty.count {
                    let ahead = layer(Int(dirty[index + Self.prefetchDistance]))
                    CAPrefetchForRead(dirtyStates.baseAddress! + ahead); CAPrefetchForRead(pm.baseAddress! + ahead)
                    CAPrefetchForRead(unpositioned + 2 * ahead)
                    CAPrefetchForRead(walkCosts.baseAddress! + Int(dirty[index + Self.prefetchDistance]))
                    CAPrefetchForWrite(ptx.baseAddress! + ahead); CAPrefetchForWrite(pty.baseAddress! + ahead)
                }
                let layer = layer(Int(position))
                walkEstimate += Int(walkCosts[Int(position)])
                let oldMode = pm[layer]
                if dirtyStates[layer] == ChangeTracker.positionOnly && oldMode & WorldMode.positionSum != 0 {
                    // Only the position moved: the same two additions as a full recompute,
                    // and nothing else about the entry (or its sublayers' entries) changes.
                    ptx[layer] = unpositioned[2 * layer] + positionX[layer]
                    pty[layer] = unpositioned[2 * layer + 1] + positionY[layer]
                    movedOnly[index] = oldMode & WorldMode.general == 0
                    if oldMode & WorldMode.general != 0, let locals { writeGeneralLocal(layer, to: locals) }
                    continue
                }
                let superlayer = Int(parents[layer])
                if !inputs.writeCommonEntry(layer, to: output) {
                    output.write(planEntry(layer, superlayerMode: superlayer >= 0 ? pm[superlayer] : 0), at: layer)
                }
                if pm[layer] & WorldMode.general != 0, let locals { writeGeneralLocal(layer, to: locals) }
                // Sticky until the next full pass, as in the subtree walk.
                pm[layer] |= oldMode & WorldMode.adjustsSublayers
                if (pm[layer] ^ oldMode) & WorldMode.general != 0 { generalChanged = true }
                // (`positionSum` concerns only this layer's own entry.)
                if (pm[layer] ^ oldMode) & ~WorldMode.positionSum != 0 || pm[layer] & WorldMode.adjustsSublayers != 0 {
                    result = .needsSubtreeWalk
                }
            }
            guard result == .done else { return }
            // A walk that grows past this many layers (each run and level counted as a few
            // more) costs more than the full pass over the cached locals, which the caller
            // then runs instead: deep chains (one layer per level), or random trees, whose
            // scattered 1% of dirty layers hold a tenth of the tree in short runs. When the
            // estimate says so, the walk is not started at all.
            let workBudget = Swift.max(n / 8, Self.minimumIncrementalBudget)
            if walkEstimate > workBudget {
                // A dirty layer under a dirty superlayer is inside that subtree: not counted
                // again (a scattered read per dirty layer, so only when it can matter).
                walkEstimate = 0
                for position in dirty {
                    let superlayer = Int(parents[layer(Int(position))])
                    if superlayer < 0 || dirtyStates[superlayer] == ChangeTracker.clean {
                        walkEstimate += Int(walkCosts[Int(position)])
                    }
                }
                guard walkEstimate <= workBudget else { result = .subtreesTooLarge; return }
            }
            let kernel = PlanarPropagation(
                la: pa.baseAddress!, lb: pb.baseAddress!, lc: pc.baseAddress!, ld: pd.baseAddress!,
                ltx: ptx.baseAddress!, lty: pty.baseAddress!, parents: parents, order: order,
                wa: wa.baseAddress!, wb: wb.baseAddress!, wc: wc.baseAddress!, wd: wd.baseAddress!,
                wtx: wtx.baseAddress!, wty: wty.baseAddress!,
                blockKinds: options.transformKindPaths ? blockKinds.map { UnsafePointer($0) } : nil)
            let generalKernel = GeneralPropagation(columns: CAGeneralWorld(
                locals: UnsafePointer(locals), parent: parents, order: order, modes: UnsafePointer(pm.baseAddress!),
                world: CAAffineColumns(a: wa.baseAddress!, b: wb.baseAddress!, c: wc.baseAddress!,
                                       d: wd.baseAddress!, tx: wtx.baseAddress!, ty: wty.baseAddress!),
                generalWorld: generalWorld, present: present))
            /// The general layers listed at `slots` of `generalPositions` (one level).
            func computeGenerals(_ slots: Range<Int>) {
                guard !slots.isEmpty else { return }
                if locals != nil {
                    generalPositions.withUnsafeBufferPointer {
                        generalKernel.run(options.backend, UnsafeBufferPointer(rebasing: $0[slots]))
                    }
                } else {
                    for slot in slots { computeGeneralFromProperties(layer(generalPositions[slot]), generalKernel) }
                }
            }
            var allFinite = true
            // Short runs of one level are gathered into one list of layers and go through
            // the kernel in one call at the level's end (the layers of a level are
            // independent): a tight loop over scattered layers keeps many cache misses in
            // flight, where a kernel call per run of one or eight layers kept one or two.
            var levelLayers: [Int32] = []
            var levelGeneralSlots: [Range<Int>] = []  // ranges of `generalPositions`
            /// The planar layers at positions [low, high) of one level.
            func addPlanar(_ low: Int, _ high: Int) {
                guard low < high else { return }
                if high - low >= Self.directRunLength {
                    if !kernel.run(options.backend, low..<high) { allFinite = false }
                    return
                }
                for position in low..<high { levelLayers.append(Int32(truncatingIfNeeded: layer(position))) }
            }
            /// One run of one level: planar layers to the kernel or the level's list, general
            /// ones (4×4) queued for the level's end.
            func run(_ low: Int, _ high: Int) {
                var start = low
                let firstGeneral = lowerBound(generalPositions, low)
                var g = firstGeneral
                while g < generalPositions.count && generalPositions[g] < high {
                    addPlanar(start, generalPositions[g])
                    start = generalPositions[g] + 1; g += 1
                }
                addPlanar(start, high)
                // Its general layers go at the level's end (a level's layers are independent).
                if firstGeneral < g { levelGeneralSlots.append(firstGeneral..<g) }
            }
            // Moved layers whose superlayer's world did not change: only their world
            // translation is recomputed (`runTranslations`), 8 cache lines instead of 16.
            var levelMovedLayers: [Int32] = []
            /// Computes what the level's runs queued.
            func finishLevel() {
                if !levelMovedLayers.isEmpty {
                    levelMovedLayers.withUnsafeBufferPointer { list in
                        if !kernel.runTranslations(options.backend, list) { allFinite = false }
                    }
                    levelMovedLayers.removeAll(keepingCapacity: true)
                }
                if !levelLayers.isEmpty {
                    levelLayers.withUnsafeBufferPointer { list in
                        if !kernel.runList(options.backend, list) { allFinite = false }
                    }
                    levelLayers.removeAll(keepingCapacity: true)
                }
                for slots in levelGeneralSlots { computeGenerals(slots) }
                levelGeneralSlots.removeAll(keepingCapacity: true)
            }
            // The estimate leaves out the per-level costs: the walk still counts them all.
            var work = 0
            // (2) Level by level: this level's runs are the sublayer runs of the previous
            // level's runs merged with the dirty positions of this level.
            var runs: [Int32] = [], nextRuns: [Int32] = []  // flattened (low, high) pairs
            var nextDirty = 0
            var level = 0
            while allFinite {
                if runs.isEmpty {
                    guard nextDirty < dirty.count else { break }
                    level = levelIndex(containing: Int(dirty[nextDirty]), plan.levelStarts)
                }
                work += Self.levelWorkCost
                guard work <= workBudget else { result = .walkTooLong; return }
                let levelEnd = Int32(truncatingIfNeeded: plan.levelStarts[level + 1])
                // The last level has no sublayers (no need to look them up).
                let isLastLevel = level + 2 == plan.levelStarts.count
                nextRuns.removeAll(keepingCapacity: true)
                var pendingLow: Int32 = -1, pendingHigh: Int32 = -1
                /// Queues the run of the sublayers of positions [low, high) (merged with
                /// the previous one when they touch: both are ascending).
                func queueSublayers(_ low: Int32, _ high: Int32) {
                    guard !isLastLevel else { return }
                    let childLow = childStart[Int(low)], childHigh = childStart[Int(high)]
                    guard childLow < childHigh else { return }
                    if let last = nextRuns.last, last == childLow { nextRuns[nextRuns.count - 1] = childHigh } else {
                        nextRuns.append(childLow); nextRuns.append(childHigh)
                    }
                }
                /// Runs the pending run and queues its sublayers' run.
                func flush() {
                    guard pendingLow >= 0 else { return }
                    run(Int(pendingLow), Int(pendingHigh))
                    work += Int(pendingHigh - pendingLow) + Self.runWorkCost
                    queueSublayers(pendingLow, pendingHigh)
                    pendingLow = -1
                }
                // The end of the last sublayer run taken from the previous level: a dirty
                // position below it lies in a subtree being recomputed.
                var recomputedUpTo: Int32 = -1
                var r = 0
                while true {
                    let low: Int32, high: Int32
                    let dirtyHere = nextDirty < dirty.count && dirty[nextDirty] < levelEnd
                    if r < runs.count && (!dirtyHere || runs[r] <= dirty[nextDirty]) {
                        low = runs[r]; high = runs[r + 1]; r += 2
                        recomputedUpTo = high
                    } else if dirtyHere {
                        low = dirty[nextDirty]; high = low + 1
                        let moved = movedOnly[nextDirty]
                        nextDirty += 1
                        if moved && low >= recomputedUpTo && !(pendingLow >= 0 && low < pendingHigh) {
                            // Its superlayer's world is unchanged: only its translation.
                            flush()
                            levelMovedLayers.append(Int32(truncatingIfNeeded: layer(Int(low))))
                            work += 1 + Self.runWorkCost
                            queueSublayers(low, high)
                            continue
                        }
                    } else {
                        break
                    }
                    if pendingLow >= 0 && low <= pendingHigh {
                        pendingHigh = Swift.max(pendingHigh, high)
                    } else {
                        flush()
                        pendingLow = low; pendingHigh = high
                    }
                }
                flush()
                finishLevel()
                if work > workBudget { result = .walkTooLong; return }
                swap(&runs, &nextRuns)
                level += 1
            }
            if !allFinite { result = .nonFinite }
        }}}}}}}}}}}}}}}}}}}}}}
        if generalChanged { plan.generalPositions = nil }
        return result
    }
}
