import Dispatch

// The strategies of a full world pass (`WorldPass.run` picks one), each a method of the
// `WorldPass` whose pointers it uses (none needs the store, so gathering the pointers
// copies nothing of it):
//
//   runSerial             every layer in order, levels merged where the backend allows
//   runSubtreeRuns        the level layout in index order as independent tasks: a run of
//                         one level's layers and, level by level, the runs of their
//                         descendants; one split for the whole pass
//   runLevelInParallel    one wide level split over threads
//   runSubtreesInParallel the subtree layout: a serial prefix, then subtrees over threads
//   runInIndexOrder       a level order whose superlayers precede sublayers in index order
//
// Every strategy gives the same bits: a layer's world is the same product of the same
// operands whichever strategy, chunk or thread computes it.

extension WorldPass {
    /// Every layer of `range` in order: in the level layout, level by level (levels
    /// without general layers merged into one call on the serial backends); else general
    /// layers between planar runs (the subtree layout's prefix). True when finite.
    func runSerial(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return true }
        guard subtreeBlocks.isEmpty else { return runSerialWithGenerals(range) }
        let levelStarts = levelStarts
        let simd = levelBackend == .simd
        // Levels without general layers: the serial kernel takes them in one call (a
        // superlayer comes earlier in the order), which matters for deep trees (a chain
        // is one layer per level). SIMD needs levels, except narrow ones, which it would
        // run as scalar tails anyway: a stretch of those goes to the serial kernel (same
        // bits).
        func mergeable(_ segment: Range<Int>) -> Bool {
            !hasGeneral(segment) && (!simd || segment.count < LayerStore.narrowLevelWidth)
        }
        var allFinite = true
        var level = levelIndex(containing: range.lowerBound, levelStarts)
        var start = range.lowerBound
        while start < range.upperBound {
            var end = Swift.min(range.upperBound, levelStarts[level + 1])
            level += 1
            guard mergeable(start..<end) else {
                if !runLevelSegment(start..<end, includeGenerals: true) { allFinite = false }
                start = end
                continue
            }
            while end < range.upperBound {
                let next = Swift.min(range.upperBound, levelStarts[level + 1])
                guard mergeable(end..<next) else { break }
                end = next
                level += 1
            }
            if !planar.run(serialBackend, start..<end) { allFinite = false }
            start = end
        }
        return allFinite
    }

    /// The subtree layout's serial part: planar runs between the general layers, each
    /// run of consecutive general layers in one call.
    private func runSerialWithGenerals(_ range: Range<Int>) -> Bool {
        let generalPositions = generalPositions
        var allFinite = true
        var start = range.lowerBound
        var g = firstGeneral(atOrAfter: range.lowerBound)
        while g < generalPositions.count && generalPositions[g] < range.upperBound {
            if !runPlanarInSubtreeLayout(start..<generalPositions[g]) { allFinite = false }
            // A run of consecutive general positions: nothing planar between them.
            var end = g + 1
            while end < generalPositions.count && generalPositions[end] == generalPositions[end - 1] + 1
                && generalPositions[end] < range.upperBound
            {
                end += 1
            }
            computeGenerals(g..<end)
            start = generalPositions[end - 1] + 1
            g = end
        }
        if !runPlanarInSubtreeLayout(start..<range.upperBound) { allFinite = false }
        return allFinite
    }

    /// Planar layers of `range` in the subtree layout, which has dependences inside any
    /// range: one layer at a time (`serialBackend`).
    private func runPlanarInSubtreeLayout(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return true }
        return planar.run(serialBackend, range)
    }

    /// Part of one level: its planar layers, then its general layers (no layer of a
    /// level depends on another). `includeGenerals` false leaves those out. Pieces
    /// between general layers narrower than `narrowLevelWidth` take `narrowBackend`.
    func runLevelSegment(_ range: Range<Int>, includeGenerals: Bool) -> Bool {
        let generalPositions = generalPositions
        var start = range.lowerBound
        let first = firstGeneral(atOrAfter: range.lowerBound)
        var g = first
        var finite = true
        while g < generalPositions.count && generalPositions[g] < range.upperBound {
            if !runLevelPiece(start..<generalPositions[g]) { finite = false }
            start = generalPositions[g] + 1
            g += 1
        }
        if !runLevelPiece(start..<range.upperBound) { finite = false }
        if includeGenerals { computeGenerals(first..<g) }
        return finite
    }

    /// Planar layers of one level: the level kernel, or for a narrow piece (between
    /// general layers, where SIMD4 would run mostly its scalar tail) `narrowBackend`.
    @inline(__always)
    private func runLevelPiece(_ range: Range<Int>) -> Bool {
        planar.run(range.count < LayerStore.narrowLevelWidth ? narrowBackend : levelBackend, range)
    }

    /// One wide level over threads: each chunk its planar layers, then its general ones.
    func runLevelInParallel(_ range: Range<Int>) -> Bool {
        let chunks = chunkCount(count: range.count, grain: LayerStore.parallelGrain)
        var chunkFinite = [Bool](repeating: true, count: Swift.max(1, chunks))
        withRawColumn(&chunkFinite) { flags in
            forEachIndexedChunk(count: range.count, threads: threads, grain: LayerStore.parallelGrain) {
                slot, chunk in
                let start = range.lowerBound + chunk.lowerBound
                let end = range.lowerBound + chunk.upperBound
                if !runLevelSegment(start..<end, includeGenerals: true) { flags[slot] = false }
            }
        }
        return !chunkFinite.contains(false)
    }

    /// The level layout in index order, from level `cut` down, as independent tasks, in
    /// one split: the levels above `cut` serially, then each task takes a run of level
    /// `cut`'s positions and, level by level, the run of their descendants (contiguous:
    /// a level lists sublayers grouped by superlayer in the superlayers' order), each run
    /// through the level kernel. A task reads only worlds it wrote itself, so no task
    /// waits for another and no level waits for the one above across threads; the
    /// result is the same product per layer as every other strategy. True when finite.
    func runSubtreeRuns(cut: Int) -> Bool {
        var allFinite = runSerial(0..<levelStarts[cut])
        let start = levelStarts[cut]
        let width = levelStarts[cut + 1] - start
        let tasks = Swift.min(width, threads * LayerStore.tasksPerThread)
        var taskFinite = [Bool](repeating: true, count: Swift.max(1, tasks))
        withRawColumn(&taskFinite) { flags in
            forEachTask(tasks, threads: threads) { task in
                var run = (start + task * width / tasks)..<(start + (task + 1) * width / tasks)
                var level = cut
                while !run.isEmpty {
                    if !runLevelSegment(run, includeGenerals: true) { flags[task] = false }
                    level += 1
                    guard level + 1 < levelStarts.count else { break }
                    run =
                        firstPosition(
                            withSuperlayerAtOrAfter: run.lowerBound, inLevel: level)..<firstPosition(
                            withSuperlayerAtOrAfter: run.upperBound, inLevel: level)
                }
            }
        }
        if taskFinite.contains(false) { allFinite = false }
        return allFinite
    }

    /// The level `runSubtreeRuns` starts its tasks at: the first level with at least
    /// `tasksPerThread` positions per thread, when the levels above it hold at most an
    /// eighth of the layers (they run serially); nil when the pass is not in index order
    /// (a position must be its layer, to find superlayers' positions), or too small to
    /// repay a split, or no such level exists.
    func subtreeRunsCut() -> Int? {
        guard threads > 1, subtreeBlocks.isEmpty, planar.order == nil, count >= 2 * LayerStore.parallelGrain
        else { return nil }
        let wanted = threads * LayerStore.tasksPerThread
        for level in 0..<(levelStarts.count - 1) {
            if levelStarts[level] > count / 8 { return nil }
            if levelStarts[level + 1] - levelStarts[level] >= wanted { return level }
        }
        return nil
    }

    /// The first position of level `level` whose superlayer's position is at least
    /// `position` (the level's end when none). In index order a position is its layer,
    /// and superlayers never decrease along a level. O(log width).
    @inline(__always)
    private func firstPosition(withSuperlayerAtOrAfter position: Int, inLevel level: Int) -> Int {
        let parents = planar.parents
        var low = levelStarts[level]
        var high = levelStarts[level + 1]
        while low < high {
            let middle = (low + high) / 2
            if Int(parents[middle]) < position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Subtree layout: the prefix serially, then the independent subtrees over threads,
    /// each one sequentially (so SIMD runs its scalar lane code). Nil, having run
    /// nothing, when a general layer lies outside the prefix (general layers write the
    /// shared table: only in the serial prefix); else true when finite.
    func runSubtreesInParallel() -> Bool? {
        let prefixEnd = subtreeBlocks[0].lowerBound
        guard generalPositions.last.map({ $0 < prefixEnd }) ?? true else { return nil }
        var allFinite = runSerial(0..<prefixEnd)
        let serialBackend = serialBackend
        // Largest first into the least loaded bin; a layer's value does not depend on
        // the binning.
        var bins = [[Range<Int>]](repeating: [], count: threads)
        var load = [Int](repeating: 0, count: threads)
        for block in subtreeBlocks.sorted(by: { $0.count > $1.count }) {
            let bin = load.indices.min(by: { load[$0] < load[$1] })!
            bins[bin].append(block)
            load[bin] += block.count
        }
        var binFinite = [Bool](repeating: true, count: Swift.max(1, bins.count))
        let sharedBins = bins
        let planar = planar
        withRawColumn(&binFinite) { flags in
            DispatchQueue.concurrentPerform(iterations: sharedBins.count) { bin in
                for block in sharedBins[bin] where !planar.run(serialBackend, block) { flags[bin] = false }
            }
        }
        if binFinite.contains(false) { allFinite = false }
        return allFinite
    }

    /// The whole pass in index order, for a level order that is not index order but
    /// where superlayers still precede their sublayers in index order (a depth-first
    /// build): locals and worlds stream instead of being gathered through the order,
    /// leaving the superlayers' worlds as the only scattered reads. Serial loops only
    /// (SIMD runs its scalar lane code: same bits).
    ///
    /// The general layers are found in index order from the modes (the set
    /// `generalPositions` lists in level order), eight bytes at a time, and each run of
    /// consecutive ones goes to the general kernel in one call (in batches of up to 128,
    /// listed in stack memory): no allocation.
    func runInIndexOrder() -> Bool {
        var planar = planar
        planar.order = nil
        var generals = general
        generals.columns.order = nil
        let modes = general.modes
        let n = count
        var allFinite = true
        var start = 0
        let batchCapacity = 128
        withTemporaryColumn(of: Int.self, capacity: batchCapacity) { batch in
            while true {
                let first = nextGeneralLayer(modes, from: start, count: n)
                if first == n { break }
                if !planar.run(serialBackend, start..<first) { allFinite = false }
                // Consecutive general layers in one call (it takes them in order).
                var end = first
                while end < n && end - first < batchCapacity && modes[end] & WorldMode.general != 0 {
                    batch[end - first] = end
                    end += 1
                }
                if computesGenerals {
                    generals.run(generalBackend, batch.prefix(end - first))
                }
                start = end
            }
        }
        if !planar.run(serialBackend, start..<n) { allFinite = false }
        return allFinite
    }

    /// The general layers at `slots` of `generalPositions`, in one kernel call; nothing
    /// when they were written before the pass (`computesGenerals` false).
    private func computeGenerals(_ slots: Range<Int>) {
        guard computesGenerals, !slots.isEmpty else { return }
        general.run(generalBackend, generalPositions.slice(slots))
    }
}

/// The first layer at or after `start` whose mode has `WorldMode.general`, or `count`:
/// eight mode bytes per step while none has it.
@inline(__always)
private func nextGeneralLayer(_ modes: RawColumn<UInt8>, from start: Int, count: Int) -> Int {
    let mask = UInt64(WorldMode.general) &* 0x0101_0101_0101_0101
    var layer = start
    while layer + 8 <= count
        && modes.load(at: layer, as: UInt64.self) & mask == 0
    {
        layer += 8
    }
    while layer < count && modes[layer] & WorldMode.general == 0 { layer += 1 }
    return layer
}
