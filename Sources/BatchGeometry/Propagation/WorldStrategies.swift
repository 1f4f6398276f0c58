import Dispatch

// The strategies of a full world pass (`runWorldPass` picks one), each over the
// pointers of one `WorldPass`:
//
//   runSerial             every layer in order, levels merged where the backend allows
//   runLevelInParallel    one wide level split over threads
//   runSubtreesInParallel the subtree layout: a serial prefix, then subtrees over threads
//   runInIndexOrder       a level order whose superlayers precede sublayers in index order
//
// Every strategy gives the same bits: a layer's world is the same product of the same
// operands whichever strategy, chunk or thread computes it.

extension LayerStore {
    /// Every layer of `range` in order: in the level layout, level by level (levels
    /// without general layers merged into one call on the serial backends); else general
    /// layers between planar runs (the subtree layout's prefix). True when finite.
    func runSerial(_ range: Range<Int>, _ pass: WorldPass) -> Bool {
        guard !range.isEmpty else { return true }
        guard pass.subtreeBlocks.isEmpty else { return runSerialWithGenerals(range, pass) }
        let levelStarts = pass.levelStarts
        let simd = pass.backend == .simd
        // Levels without general layers: the serial backends take them in one call (a
        // superlayer comes earlier in the order), which matters for deep trees (a chain
        // is one layer per level). SIMD needs levels, except narrow ones, which it would
        // run as scalar tails anyway: a stretch of those goes to the scalar loop (same
        // bits).
        func mergeable(_ segment: Range<Int>) -> Bool {
            !pass.hasGeneral(segment) && (!simd || segment.count < Self.narrowLevelWidth)
        }
        var allFinite = true
        var level = levelIndex(containing: range.lowerBound, levelStarts)
        var start = range.lowerBound
        while start < range.upperBound {
            var end = Swift.min(range.upperBound, levelStarts[level + 1])
            level += 1
            guard mergeable(start..<end) else {
                if !runLevelSegment(start..<end, pass, includeGenerals: true) { allFinite = false }
                start = end
                continue
            }
            while end < range.upperBound {
                let next = Swift.min(range.upperBound, levelStarts[level + 1])
                guard mergeable(end..<next) else { break }
                end = next
                level += 1
            }
            if !pass.planar.run(simd ? .scalar : pass.backend, start..<end) { allFinite = false }
            start = end
        }
        return allFinite
    }

    /// The subtree layout's serial part: planar runs between the general layers, each
    /// run of consecutive general layers in one call.
    private func runSerialWithGenerals(_ range: Range<Int>, _ pass: WorldPass) -> Bool {
        let generalPositions = pass.generalPositions
        var allFinite = true
        var start = range.lowerBound
        var g = pass.firstGeneral(atOrAfter: range.lowerBound)
        while g < generalPositions.count && generalPositions[g] < range.upperBound {
            if !runPlanarInSubtreeLayout(start..<generalPositions[g], pass) { allFinite = false }
            // A run of consecutive general positions: nothing planar between them.
            var end = g + 1
            while end < generalPositions.count && generalPositions[end] == generalPositions[end - 1] + 1
                && generalPositions[end] < range.upperBound
            {
                end += 1
            }
            computeGenerals(g..<end, pass)
            start = generalPositions[end - 1] + 1
            g = end
        }
        if !runPlanarInSubtreeLayout(start..<range.upperBound, pass) { allFinite = false }
        return allFinite
    }

    /// Planar layers of `range` in the subtree layout, which has dependences inside any
    /// range: one layer at a time (SIMD runs its scalar lane code: same bits).
    private func runPlanarInSubtreeLayout(_ range: Range<Int>, _ pass: WorldPass) -> Bool {
        guard !range.isEmpty else { return true }
        guard pass.backend == .simd else { return pass.planar.run(pass.backend, range) }
        return pass.planar.runScalar(range)
    }

    /// Part of one level: its planar layers, then its general layers (no layer of a
    /// level depends on another). `includeGenerals` false leaves those out.
    func runLevelSegment(_ range: Range<Int>, _ pass: WorldPass, includeGenerals: Bool) -> Bool {
        let generalPositions = pass.generalPositions
        var start = range.lowerBound
        let first = pass.firstGeneral(atOrAfter: range.lowerBound)
        var g = first
        var finite = true
        while g < generalPositions.count && generalPositions[g] < range.upperBound {
            if !pass.planar.run(pass.backend, start..<generalPositions[g]) { finite = false }
            start = generalPositions[g] + 1
            g += 1
        }
        if !pass.planar.run(pass.backend, start..<range.upperBound) { finite = false }
        if includeGenerals { computeGenerals(first..<g, pass) }
        return finite
    }

    /// One wide level: planar layers over threads, then its general layers (each chunk
    /// computes its own when their locals are cached).
    func runLevelInParallel(_ range: Range<Int>, _ pass: WorldPass) -> Bool {
        let chunkFinite = UnsafeMutableBufferPointer<Bool>.allocate(capacity: pass.threads)
        chunkFinite.initialize(repeating: true)
        defer { chunkFinite.deallocate() }
        let flags = SendablePointer(chunkFinite.baseAddress!)
        forEachIndexedChunk(count: range.count, threads: pass.threads, minimumPerThread: Self.worldParallelCutoff) {
            slot, chunk in
            let start = range.lowerBound + chunk.lowerBound
            let end = range.lowerBound + chunk.upperBound
            if !runLevelSegment(start..<end, pass, includeGenerals: pass.cachedLocals) { flags.pointer[slot] = false }
        }
        let allFinite = !chunkFinite.contains(false)
        guard !pass.cachedLocals else { return allFinite }
        computeGenerals(
            pass.firstGeneral(atOrAfter: range.lowerBound)..<pass.firstGeneral(atOrAfter: range.upperBound), pass)
        return allFinite
    }

    /// Subtree layout: the prefix serially, then the independent subtrees over threads,
    /// each one sequentially (so SIMD runs its scalar lane code). Nil, having run
    /// nothing, when a general layer lies outside the prefix (general layers write the
    /// shared table: only in the serial prefix); else true when finite.
    func runSubtreesInParallel(_ pass: WorldPass) -> Bool? {
        let prefixEnd = pass.subtreeBlocks[0].lowerBound
        guard pass.generalPositions.last.map({ $0 < prefixEnd }) ?? true else { return nil }
        var allFinite = runSerial(0..<prefixEnd, pass)
        let backend = pass.backend == .simd ? Backend.scalar : pass.backend
        // Largest first into the least loaded bin; a layer's value does not depend on
        // the binning.
        var bins = [[Range<Int>]](repeating: [], count: pass.threads)
        var load = [Int](repeating: 0, count: pass.threads)
        for block in pass.subtreeBlocks.sorted(by: { $0.count > $1.count }) {
            let bin = load.indices.min(by: { load[$0] < load[$1] })!
            bins[bin].append(block)
            load[bin] += block.count
        }
        let binFinite = UnsafeMutableBufferPointer<Bool>.allocate(capacity: bins.count)
        binFinite.initialize(repeating: true)
        defer { binFinite.deallocate() }
        let flags = SendablePointer(binFinite.baseAddress!)
        let sharedBins = bins
        let planar = pass.planar
        DispatchQueue.concurrentPerform(iterations: sharedBins.count) { bin in
            for block in sharedBins[bin] where !planar.run(backend, block) { flags.pointer[bin] = false }
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
    func runInIndexOrder(_ pass: WorldPass) -> Bool {
        var planar = pass.planar
        planar.order = nil
        var generals = pass.general
        generals.columns.order = nil
        let backend = pass.backend == .simd ? Backend.scalar : pass.backend
        let modes = pass.general.columns.modes!
        let n = count
        var allFinite = true
        var start = 0
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 128) { batch in
            while true {
                let first = nextGeneralLayer(modes, from: start, count: n)
                if first == n { break }
                if !planar.run(backend, start..<first) { allFinite = false }
                // Consecutive general layers in one call (it takes them in order).
                var end = first
                while end < n && end - first < batch.count && modes[end] & WorldMode.general != 0 {
                    batch[end - first] = end
                    end += 1
                }
                if pass.cachedLocals {
                    generals.run(pass.backend, UnsafeBufferPointer(rebasing: batch[0..<(end - first)]))
                } else {
                    for layer in first..<end { computeGeneralFromProperties(layer, generals) }
                }
                start = end
            }
        }
        if !planar.run(backend, start..<n) { allFinite = false }
        return allFinite
    }

    /// The general layers at `slots` of the pass's `generalPositions`.
    private func computeGenerals(_ slots: Range<Int>, _ pass: WorldPass) {
        computeGenerals(
            slots, of: pass.generalPositions, pass.general, cachedLocals: pass.cachedLocals, backend: pass.backend)
    }
}

/// The first layer at or after `start` whose mode has `WorldMode.general`, or `count`:
/// eight mode bytes per step while none has it.
@inline(__always)
private func nextGeneralLayer(_ modes: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
    let mask = UInt64(WorldMode.general) &* 0x0101_0101_0101_0101
    var layer = start
    while layer + 8 <= count
        && UnsafeRawPointer(modes + layer).loadUnaligned(as: UInt64.self) & mask == 0
    {
        layer += 8
    }
    while layer < count && modes[layer] & WorldMode.general == 0 { layer += 1 }
    return layer
}
