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

/// The arrays an incremental update fills and empties on every `updateWorld()`, kept by
/// the store between updates (`LayerCaches.incrementalScratch`) so that a frame loop's
/// updates allocate nothing once they have grown: the dirty positions, which of them
/// only moved, the range walk's per-level lists, and sorting space.
struct IncrementalScratch: Sendable {
    var dirty: [Int32] = []
    var movedOnly: [Bool] = []
    var sortSpace: [Int32] = []
    var levelLayers: [Int32] = []
    var levelGeneralSlots: [Range<Int>] = []
    var levelMovedLayers: [Int32] = []
    var levelRuns: [Int32] = []
    var runs: [Int32] = []
    var nextRuns: [Int32] = []
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
    /// The fewest layers of one level (its runs and lists) that the range walk splits over
    /// threads: below it a split's fixed cost (~45 µs on a 16-core VM) outweighs the
    /// work (scattered layers, ~10–20 ns each).
    static let incrementalLevelSplitMinimum = 16_384

    /// The range index of `plan`, or nil when its order does not group sublayers by
    /// superlayer (the subtree layout, or a layout made before the hierarchy changed).
    /// O(count), once per hierarchy change.
    func makeSubtreeRangeIndex(for plan: WorldPlan) -> SubtreeRangeIndex? {
        let n = plan.count
        guard n == count, n > 0, n < Int(Int32.max), plan.subtreeBlocks.isEmpty, plan.levelStarts.count >= 2,
            plan.levelStarts.last == n
        else { return nil }
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
            let superlayer = hierarchy.parents[plan.layer(atPosition: position)]
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
        var walkCosts = [Int32](repeating: 1, count: n)  // sizes, then costs
        var levels = [Int32](repeating: 1, count: n)
        for position in stride(from: n - 1, through: 0, by: -1) {
            var size: Int32 = 1
            var levelsBelow: Int32 = 0
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
    /// adjusts its sublayers) their subtrees' world transforms as runs of positions
    /// (`options.backend(for:)`: long runs are level kernels, short ones lists),
    /// serially. Bit-identical to a full pass with any backend.
    /// O(dirty log dirty + size of the dirty subtrees + runs × levels).
    ///
    /// Stages: `dirtyPositions`, then `DirtyEntryRefresh` (the dirty layers' own
    /// entries and the walk's cost estimate), then `RangeWalk` (the subtrees' worlds).
    /// Their arrays come from `scratch` and go back to it (no allocation once grown).
    func updateDirtyRanges(
        plan: inout WorldPlan, world: inout WorldTransforms, index: SubtreeRangeIndex,
        scratch: inout IncrementalScratch, options: KernelOptions
    ) -> RangeUpdateResult {
        let n = plan.count
        dirtyPositions(index, into: &scratch)
        let dirty = scratch.dirty
        if plan.generalPositions == nil {
            plan.generalPositions = (0..<n).filter { plan.modes[plan.layer(atPosition: $0)] & WorldMode.general != 0 }
        }
        let generalPositions = plan.generalPositions!
        let levelStarts = plan.levelStarts
        let highestGeneral = highestLayer(atPositions: generalPositions, of: plan)
        // A walk that grows past this many layers (each run and level counted as a few
        // more) costs more than the full pass over the cached locals, which the caller
        // then runs instead: deep chains (one layer per level), or random trees, whose
        // scattered 1% of dirty layers hold a tenth of the tree in short runs.
        let workBudget = Swift.max(n / 8, Self.minimumIncrementalBudget)
        var generalChanged = false
        let result = withIncrementalColumns(plan: &plan, world: &world) { columns, general in
            general.reserve(layers: highestGeneral + 1)
            return withPlanInputs { inputs in
                withRawColumn(reading: caches.changes.dirtyStates) { dirtyStates in
                    withRawColumn(reading: index.walkCosts) { walkCosts in
                        var refresh = DirtyEntryRefresh(
                            columns: columns, output: columns.planOutput(markingPositionSum: true), inputs: inputs,
                            dirtyStates: dirtyStates, walkCosts: walkCosts)
                        // Moved in and out (a swap, not a copy that would share storage).
                        swap(&refresh.movedOnly, &scratch.movedOnly)
                        // Grown, never shrunk (entries past `dirty.count` are not read).
                        if refresh.movedOnly.count < dirty.count {
                            refresh.movedOnly.resize(to: dirty.count, filler: false)
                        }
                        for k in 0..<dirty.count { refresh.movedOnly[k] = false }
                        let estimate = refresh.run(dirty, store: self)
                        generalChanged = refresh.generalChanged
                        defer { swap(&refresh.movedOnly, &scratch.movedOnly) }
                        guard !refresh.needsSubtreeWalk else { return RangeUpdateResult.needsSubtreeWalk }
                        // When the estimate says so, the walk is not started at all.
                        guard estimate <= workBudget || refresh.walkCost(dirty) <= workBudget else {
                            return .subtreesTooLarge
                        }
                        return walkRanges(
                            RangeWalkInputs(
                                columns: columns, parents: inputs.parents, dirty: dirty, movedOnly: refresh.movedOnly,
                                levelStarts: levelStarts, generalPositions: generalPositions, workBudget: workBudget,
                                options: options),
                            index: index, general: &general, scratch: &scratch)
                    }
                }
            }
        }
        if generalChanged { plan.generalPositions = nil }
        return result
    }

    /// The dirty layers' positions in the plan's order, ascending (usually already:
    /// setters in index order), into `scratch.dirty`.
    private func dirtyPositions(_ index: SubtreeRangeIndex, into scratch: inout IncrementalScratch) {
        let layers = caches.changes.dirtyLayers
        scratch.dirty.removeAll(keepingCapacity: true)
        if let positions = index.positions {
            for k in 0..<layers.count { scratch.dirty.append(positions[Int(layers[k])]) }
        } else {
            // By index: `append(contentsOf:)` reads a column through the generic
            // subscript, which allocates per element in unoptimized builds.
            for k in 0..<layers.count { scratch.dirty.append(layers[k]) }
        }
        var sorted = true
        var k = 1
        while k < scratch.dirty.count && sorted {
            sorted = scratch.dirty[k - 1] <= scratch.dirty[k]
            k += 1
        }
        if !sorted { stableSort(&scratch.dirty, space: &scratch.sortSpace) { $0 < $1 } }
    }

    /// Gathers the range walk's kernels (the pointers of `withIncrementalColumns`, the
    /// range index and the general table) and walks the dirty subtrees.
    private func walkRanges(
        _ walkInputs: RangeWalkInputs, index: SubtreeRangeIndex, general: inout GeneralMatrices,
        scratch: inout IncrementalScratch
    ) -> RangeUpdateResult {
        let columns = walkInputs.columns
        return withRawColumn(reading: index.childStart) { childStart in
            withRawList(reading: walkInputs.generalPositions) { generalList in
                general.withRawColumns { generalWorld, present in
                    let kernel = PlanarPropagation(
                        local: columns.local, world: columns.world, parents: walkInputs.parents, order: columns.order,
                        blockKinds: walkInputs.options.transformKindPaths ? columns.blockKinds : nil)
                    let generalKernel = GeneralPropagation(
                        locals: columns.generalLocals, parents: walkInputs.parents, order: columns.order,
                        modes: columns.modes, world: columns.world, generalWorld: generalWorld, present: present)
                    var walk = RangeWalk(
                        inputs: walkInputs, kernel: kernel, general: generalKernel, generalPositions: generalList,
                        childStart: childStart)
                    walk.borrowLists(from: &scratch)
                    defer { walk.returnLists(to: &scratch) }
                    return walk.run(store: self)
                }
            }
        }
    }
}

/// Stage 1 of the range update: the dirty layers' own plan entries, superlayers first.
/// Unchanged modes leave every other entry valid; a changed one needs the
/// layer-by-layer walk (`needsSubtreeWalk`).
struct DirtyEntryRefresh {
    let columns: IncrementalColumns
    let output: PlanOutput
    let inputs: PlanInputs
    let dirtyStates: RawColumn<UInt8>
    let walkCosts: RawColumn<Int32>
    /// Per dirty position (entry k for `dirty[k]`; the array may be longer): a planar
    /// layer whose only change was its position (the shortcut), so its world's linear
    /// part (a, b, c, d) stays what it was unless its superlayer's world changes too.
    var movedOnly: [Bool] = []
    var generalChanged = false
    var needsSubtreeWalk = false

    /// Refreshes the entries of the layers at the (ascending) positions `dirty`.
    /// Returns what the walk will cost, from the subtrees' costs (nested and adjacent
    /// dirty subtrees counted apart, so this errs high; see `walkCost`).
    @inline(__always)
    mutating func run(_ dirty: [Int32], store: borrowing LayerStore) -> Int {
        var walkEstimate = 0
        // By index: an array's for-in allocates per element in unoptimized builds.
        for index in 0..<dirty.count {
            let position = dirty[index]
            // The dirty layers are scattered: ask for the lines of the one a few
            // entries ahead, so that many misses are in flight (no effect on results).
            if index + LayerStore.prefetchDistance < dirty.count {
                prefetch(position: Int(dirty[index + LayerStore.prefetchDistance]))
            }
            let layer = columns.layer(Int(position))
            walkEstimate += Int(walkCosts[Int(position)])
            refresh(layer, dirtyIndex: index, store: store)
        }
        return walkEstimate
    }

    @inline(__always) private func prefetch(position: Int) {
        let ahead = columns.layer(position)
        dirtyStates.prefetchForRead(ahead)
        columns.modes.prefetchForRead(ahead)
        inputs.prefetchCommonInputs(ahead)
        walkCosts.prefetchForRead(position)
        columns.local.tx.prefetchForWrite(ahead)
        columns.local.ty.prefetchForWrite(ahead)
    }

    @inline(__always) private mutating func refresh(_ layer: Int, dirtyIndex: Int, store: borrowing LayerStore) {
        let modes = columns.modes
        let oldMode = modes[layer]
        if dirtyStates[layer] == ChangeTracker.positionOnly && oldMode & WorldMode.positionSum != 0 {
            // Only the position moved: the translation and the two additions of a full
            // recompute, and nothing else about the entry (or its sublayers' entries)
            // changes.
            let unpositioned = inputs.unpositioned(layer)
            output.tx[layer] = unpositioned.x + inputs.positionX[layer]
            output.ty[layer] = unpositioned.y + inputs.positionY[layer]
            movedOnly[dirtyIndex] = oldMode & WorldMode.general == 0
            if oldMode & WorldMode.general != 0, let locals = columns.generalLocals {
                store.writeGeneralLocal(layer, to: locals)
            }
            return
        }
        let superlayer = Int(inputs.parents[layer])
        if !inputs.writeCommonEntry(layer, to: output) {
            output.write(store.planEntry(layer, superlayerMode: superlayer >= 0 ? modes[superlayer] : 0), at: layer)
        }
        if modes[layer] & WorldMode.general != 0, let locals = columns.generalLocals {
            store.writeGeneralLocal(layer, to: locals)
        }
        // Sticky until the next full pass, as in the subtree walk.
        modes[layer] |= oldMode & WorldMode.adjustsSublayers
        if (modes[layer] ^ oldMode) & WorldMode.general != 0 { generalChanged = true }
        // (`positionSum` concerns only this layer's own entry.)
        if (modes[layer] ^ oldMode) & ~WorldMode.positionSum != 0 || modes[layer] & WorldMode.adjustsSublayers != 0 {
            needsSubtreeWalk = true
        }
    }

    /// The walk's cost counting each dirty subtree once: a dirty layer under a dirty
    /// superlayer is inside that subtree (a scattered read per dirty layer, so only
    /// when the estimate of `run` is over budget).
    func walkCost(_ dirty: [Int32]) -> Int {
        var cost = 0
        for k in 0..<dirty.count {
            let position = dirty[k]
            let superlayer = Int(inputs.parents[columns.layer(Int(position))])
            if superlayer < 0 || dirtyStates[superlayer] == ChangeTracker.clean {
                cost += Int(walkCosts[Int(position)])
            }
        }
        return cost
    }
}

/// What the range walk reads besides its kernels: the update's columns, dirty
/// positions and budget.
struct RangeWalkInputs {
    let columns: IncrementalColumns
    let parents: RawColumn<Int32>
    /// The dirty positions, ascending, and which of them only moved (`DirtyEntryRefresh`).
    let dirty: [Int32]
    let movedOnly: [Bool]
    let levelStarts: [Int]
    let generalPositions: [Int]
    let workBudget: Int
    let options: KernelOptions
}

/// Stage 2 of the range update: level by level, this level's runs are the sublayer runs
/// of the previous level's runs merged with the dirty positions of this level. Long
/// runs go through the streaming kernel; short runs of one level are gathered into one
/// list and go through the kernel in one call at the level's end (the layers of a level
/// are independent): a tight loop over scattered layers keeps many cache misses in
/// flight, where a kernel call per run of one or eight layers kept one or two.
struct RangeWalk {
    let inputs: RangeWalkInputs
    let kernel: PlanarPropagation
    let general: GeneralPropagation
    let generalPositions: RawList<Int>
    let childStart: RawColumn<Int32>
    var allFinite = true
    /// Work units spent (the estimate left out the per-level costs: the walk counts all).
    var work = 0
    /// The level's planar layers from short runs, its general layers (ranges of
    /// `generalPositions`), and its moved layers whose superlayer's world did not change
    /// (only their translation is recomputed, `runTranslations`: 8 cache lines, not 16).
    var levelLayers: [Int32] = []
    var levelGeneralSlots: [Range<Int>] = []
    var levelMovedLayers: [Int32] = []
    /// Over several threads: the level's long runs ((low, high) position pairs), kept for
    /// `finishLevel` to split with the lists; then the same runs cut to tasks.
    var levelRuns: [Int32] = []
    /// This level's and the next level's runs: flattened (low, high) pairs.
    var runs: [Int32] = []
    var nextRuns: [Int32] = []
    var nextDirty = 0
    var level = 0
    var isLastLevel = false
    /// The run being extended (-1: none).
    var pendingLow: Int32 = -1
    var pendingHigh: Int32 = -1

    init(
        inputs: RangeWalkInputs, kernel: PlanarPropagation, general: GeneralPropagation,
        generalPositions: RawList<Int>, childStart: RawColumn<Int32>
    ) {
        self.inputs = inputs
        self.kernel = kernel
        self.general = general
        self.generalPositions = generalPositions
        self.childStart = childStart
    }

    /// Takes `scratch`'s lists for the walk's (emptied, their storage kept), leaving the
    /// walk's empty ones there.
    mutating func borrowLists(from scratch: inout IncrementalScratch) {
        exchangeLists(with: &scratch)
        levelLayers.removeAll(keepingCapacity: true)
        levelGeneralSlots.removeAll(keepingCapacity: true)
        levelMovedLayers.removeAll(keepingCapacity: true)
        levelRuns.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        nextRuns.removeAll(keepingCapacity: true)
    }

    /// Gives the lists' storage back to `scratch` after the walk.
    mutating func returnLists(to scratch: inout IncrementalScratch) { exchangeLists(with: &scratch) }

    private mutating func exchangeLists(with scratch: inout IncrementalScratch) {
        swap(&levelLayers, &scratch.levelLayers)
        swap(&levelGeneralSlots, &scratch.levelGeneralSlots)
        swap(&levelMovedLayers, &scratch.levelMovedLayers)
        swap(&levelRuns, &scratch.levelRuns)
        swap(&runs, &scratch.runs)
        swap(&nextRuns, &scratch.nextRuns)
    }

    /// Walks every level that has runs or dirty positions.
    mutating func run(store: borrowing LayerStore) -> RangeUpdateResult {
        let dirty = inputs.dirty
        while allFinite {
            if runs.isEmpty {
                guard nextDirty < dirty.count else { break }
                level = levelIndex(containing: Int(dirty[nextDirty]), inputs.levelStarts)
            }
            work += LayerStore.levelWorkCost
            guard work <= inputs.workBudget else { return .walkTooLong }
            walkLevel()
            finishLevel(store: store)
            if work > inputs.workBudget { return .walkTooLong }
            swap(&runs, &nextRuns)
            level += 1
        }
        return allFinite ? .done : .nonFinite
    }

    /// Merges this level's runs with its dirty positions, running each merged run and
    /// queueing its sublayers' run for the next level.
    private mutating func walkLevel() {
        let dirty = inputs.dirty
        let levelEnd = Int32(truncatingIfNeeded: inputs.levelStarts[level + 1])
        // The last level has no sublayers (no need to look them up).
        isLastLevel = level + 2 == inputs.levelStarts.count
        nextRuns.removeAll(keepingCapacity: true)
        pendingLow = -1
        pendingHigh = -1
        // The end of the last sublayer run taken from the previous level: a dirty
        // position below it lies in a subtree being recomputed.
        var recomputedUpTo: Int32 = -1
        var r = 0
        while true {
            let low: Int32
            let high: Int32
            let dirtyHere = nextDirty < dirty.count && dirty[nextDirty] < levelEnd
            if r < runs.count && (!dirtyHere || runs[r] <= dirty[nextDirty]) {
                low = runs[r]
                high = runs[r + 1]
                r += 2
                recomputedUpTo = high
            } else if dirtyHere {
                low = dirty[nextDirty]
                high = low + 1
                let moved = inputs.movedOnly[nextDirty]
                nextDirty += 1
                if moved && low >= recomputedUpTo && !(pendingLow >= 0 && low < pendingHigh) {
                    // Its superlayer's world is unchanged: only its translation.
                    flush()
                    levelMovedLayers.append(Int32(truncatingIfNeeded: inputs.columns.layer(Int(low))))
                    work += 1 + LayerStore.runWorkCost
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
                pendingLow = low
                pendingHigh = high
            }
        }
        flush()
    }

    /// Queues the run of the sublayers of positions [low, high) (merged with the
    /// previous one when they touch: both are ascending).
    private mutating func queueSublayers(_ low: Int32, _ high: Int32) {
        guard !isLastLevel else { return }
        let childLow = childStart[Int(low)]
        let childHigh = childStart[Int(high)]
        guard childLow < childHigh else { return }
        if let last = nextRuns.last, last == childLow {
            nextRuns[nextRuns.count - 1] = childHigh
        } else {
            nextRuns.append(childLow)
            nextRuns.append(childHigh)
        }
    }

    /// Runs the pending run and queues its sublayers' run.
    private mutating func flush() {
        guard pendingLow >= 0 else { return }
        runPositions(Int(pendingLow), Int(pendingHigh))
        work += Int(pendingHigh - pendingLow) + LayerStore.runWorkCost
        queueSublayers(pendingLow, pendingHigh)
        pendingLow = -1
    }

    /// One run of one level: planar layers to the kernel or the level's list, general
    /// ones (4×4) queued for the level's end (a level's layers are independent).
    private mutating func runPositions(_ low: Int, _ high: Int) {
        var start = low
        let firstGeneral = lowerBound(generalPositions, low)
        var g = firstGeneral
        while g < generalPositions.count && generalPositions[g] < high {
            addPlanar(start, generalPositions[g])
            start = generalPositions[g] + 1
            g += 1
        }
        addPlanar(start, high)
        if firstGeneral < g { levelGeneralSlots.append(firstGeneral..<g) }
    }

    /// The planar layers at positions [low, high) of one level.
    private mutating func addPlanar(_ low: Int, _ high: Int) {
        guard low < high else { return }
        if high - low >= LayerStore.directRunLength {
            if inputs.options.threads > 1 {
                levelRuns.append(Int32(truncatingIfNeeded: low))
                levelRuns.append(Int32(truncatingIfNeeded: high))
            } else if !kernel.run(inputs.options.backend(for: .worldLevel), low..<high) {
                allFinite = false
            }
            return
        }
        for position in low..<high { levelLayers.append(Int32(truncatingIfNeeded: inputs.columns.layer(position))) }
    }

    /// Computes what the level's runs queued.
    private mutating func finishLevel(store: borrowing LayerStore) {
        let backend = inputs.options.backend(for: .worldList)
        if !levelRuns.isEmpty || inputs.options.threads > 1 { runLevelOverThreads() }
        if !levelMovedLayers.isEmpty {
            let finite = withRawList(reading: levelMovedLayers) { kernel.runTranslations(backend, $0) }
            if !finite { allFinite = false }
            levelMovedLayers.removeAll(keepingCapacity: true)
        }
        if !levelLayers.isEmpty {
            let finite = withRawList(reading: levelLayers) { kernel.runList(backend, $0) }
            if !finite { allFinite = false }
            levelLayers.removeAll(keepingCapacity: true)
        }
        for k in 0..<levelGeneralSlots.count {
            store.computeGenerals(
                levelGeneralSlots[k], of: generalPositions, general, cachedLocals: inputs.columns.generalLocals != nil,
                backend: inputs.options.backend(for: .worldGeneral))
        }
        levelGeneralSlots.removeAll(keepingCapacity: true)
    }

    /// Over several threads: the level's deferred runs, and when the level has at least
    /// `levelSplitMinimum` layers, its lists too, as tasks of at most `levelSplitGrain`
    /// layers over `threads` (a level's planar layers are independent: each reads only
    /// its superlayer's world, computed a level before, and writes its own). Else the
    /// runs here, the lists after as on one thread. The same kernels on the same layers,
    /// so the same bits.
    private mutating func runLevelOverThreads() {
        var work = levelMovedLayers.count + levelLayers.count
        for k in stride(from: 0, to: levelRuns.count, by: 2) { work += Int(levelRuns[k + 1] - levelRuns[k]) }
        guard work >= inputs.options.levelSplitMinimum else {
            for k in stride(from: 0, to: levelRuns.count, by: 2)
            where !kernel.run(inputs.options.backend(for: .worldLevel), Int(levelRuns[k])..<Int(levelRuns[k + 1])) {
                allFinite = false
            }
            levelRuns.removeAll(keepingCapacity: true)
            return
        }
        let grain = Swift.max(1, inputs.options.levelSplitGrain)
        // The runs cut to pieces of at most `grain`, after the runs themselves.
        let runEnd = levelRuns.count
        for k in stride(from: 0, to: runEnd, by: 2) {
            var low = levelRuns[k]
            while low < levelRuns[k + 1] {
                let high = Swift.min(levelRuns[k + 1], low &+ Int32(truncatingIfNeeded: grain))
                levelRuns.append(low)
                levelRuns.append(high)
                low = high
            }
        }
        if !runLevelTasks(pieces: runEnd..<levelRuns.count, grain: grain) { allFinite = false }
        levelRuns.removeAll(keepingCapacity: true)
        levelMovedLayers.removeAll(keepingCapacity: true)
        levelLayers.removeAll(keepingCapacity: true)
    }

    /// One split over threads: the moved layers' translations, the short runs' list, and
    /// the run pieces at `levelRuns[pieces]`, in tasks of at most `grain` layers. True
    /// when every value written is finite.
    private func runLevelTasks(pieces: Range<Int>, grain: Int) -> Bool {
        let options = inputs.options
        let kernel = kernel
        let movedTasks = (levelMovedLayers.count + grain - 1) / grain
        let listTasks = (levelLayers.count + grain - 1) / grain
        let tasks = movedTasks + listTasks + pieces.count / 2
        return withRawList(reading: levelMovedLayers) { moved in
            withRawList(reading: levelLayers) { list in
                withRawList(reading: levelRuns) { runs in
                    withTemporaryColumn(of: UInt8.self, capacity: tasks) { finite in
                        forEachTask(tasks, threads: options.threads) { task in
                            let done: Bool
                            if task < movedTasks {
                                let part = moved.slice(task * grain..<Swift.min(moved.count, (task + 1) * grain))
                                done = kernel.runTranslations(options.backend(for: .worldList), part)
                            } else if task < movedTasks + listTasks {
                                let first = (task - movedTasks) * grain
                                let part = list.slice(first..<Swift.min(list.count, first + grain))
                                done = kernel.runList(options.backend(for: .worldList), part)
                            } else {
                                let k = pieces.lowerBound + 2 * (task - movedTasks - listTasks)
                                done = kernel.run(options.backend(for: .worldLevel), Int(runs[k])..<Int(runs[k + 1]))
                            }
                            finite[task] = done ? 1 : 0
                        }
                        return (0..<tasks).allSatisfy { finite[$0] != 0 }
                    }
                }
            }
        }
    }
}
