// swift-format-ignore-file
// (Its nested withUnsafe… closure pyramids would be indented up to 100 columns; it is
// formatted once the world pipeline is split into stages, issue 11.)
import CAffineKernels
import Dispatch

// One full world pass from a plan: planar layers stream six doubles of cached local
// transform and six of their superlayer's world per layer (the superlayer's usually in
// cache) through `PlanarPropagation`; general layers multiply their cached 4×4 local by
// their superlayer's world (`GeneralPropagation`); every backend agrees bit for bit.
// Levels (all layers of one depth) are independent, so a wide level is split over
// threads; narrow levels run serially, in order.

extension LayerStore {
    /// Layers per thread below which a level is not split (the hand-off costs more).
    static let worldParallelCutoff = 16_384
    /// Levels narrower than this give the SIMD backend nothing to vectorize: runs of them
    /// go through the scalar loop as one stretch.
    static let narrowLevelWidth = 8

    /// Fills `world` for every layer from `plan`, with the chosen backend and threads.
    /// `world` must have `count` entries; its `modes` become `plan.modes`. Returns false
    /// when some planar chain produced a non-finite value (then `world` is incomplete
    /// and the caller redoes the pass with the 4×4 reference). O(count).
    func propagateWorld(plan: WorldPlan, into world: inout WorldTransforms, options: KernelOptions) -> Bool {
        let n = count
        world.modes = plan.modes
        world.general.removeAll()
        guard n > 0 else { return true }
        let generalPositions = plan.generalPositions ?? (0..<n).filter {
            plan.modes[plan.layer(atPosition: $0)] & WorldMode.general != 0
        }
        // Move the world columns out so their pointers and the general table can be used
        // side by side (no overlapping access to `world`), then move them back.
        var columns = (world.a, world.b, world.c, world.d, world.tx, world.ty)
        world.a = []; world.b = []; world.c = []; world.d = []; world.tx = []; world.ty = []
        var general = world.general
        world.general = GeneralMatrices()
        defer {
            (world.a, world.b, world.c, world.d, world.tx, world.ty) = columns
            world.general = general
        }
        // Room for every general layer first: the pass writes the table through raw
        // pointers, from several threads when the locals are cached.
        general.reserve(layers: highestLayer(atPositions: generalPositions, of: plan) + 1)
        let cachedLocals = plan.cachesGeneralLocals
        var allFinite = true
        plan.a.withUnsafeBufferPointer { la in plan.b.withUnsafeBufferPointer { lb in
        plan.c.withUnsafeBufferPointer { lc in plan.d.withUnsafeBufferPointer { ld in
        plan.tx.withUnsafeBufferPointer { ltx in plan.ty.withUnsafeBufferPointer { lty in
        columns.0.withUnsafeMutableBufferPointer { wa in columns.1.withUnsafeMutableBufferPointer { wb in
        columns.2.withUnsafeMutableBufferPointer { wc in columns.3.withUnsafeMutableBufferPointer { wd in
        columns.4.withUnsafeMutableBufferPointer { wtx in columns.5.withUnsafeMutableBufferPointer { wty in
        parents.withUnsafeBufferPointer { parents in
        plan.modes.withUnsafeBufferPointer { modes in
        plan.blockKinds.withUnsafeBufferPointer { blockKinds in
        plan.generalLocals.withUnsafeBufferPointer { locals in
        generalPositions.withUnsafeBufferPointer { generalList in
        general.withUnsafeMutablePointers { generalWorld, present in
            withOptionalBuffer(plan.order) { order in
                var kernel = PlanarPropagation(
                    la: la.baseAddress!, lb: lb.baseAddress!, lc: lc.baseAddress!, ld: ld.baseAddress!,
                    ltx: ltx.baseAddress!, lty: lty.baseAddress!, parents: parents.baseAddress!, order: order,
                    wa: wa.baseAddress!, wb: wb.baseAddress!, wc: wc.baseAddress!, wd: wd.baseAddress!,
                    wtx: wtx.baseAddress!, wty: wty.baseAddress!,
                    blockKinds: options.transformKindPaths && n <= LocalKind.fullPassMaximumLayers && !blockKinds.isEmpty
                        && blockKinds.count == LocalKind.blockCount(n) ? blockKinds.baseAddress : nil)
                kernel.prefetchParents = plan.scatteredParents
                kernel.chainedParents = plan.chainedParents
                let generalKernel = GeneralPropagation(columns: CAGeneralWorld(
                    locals: cachedLocals ? locals.baseAddress : nil, parent: parents.baseAddress!, order: order, modes: modes.baseAddress!,
                    world: CAAffineColumns(a: wa.baseAddress!, b: wb.baseAddress!, c: wc.baseAddress!,
                                           d: wd.baseAddress!, tx: wtx.baseAddress!, ty: wty.baseAddress!),
                    generalWorld: generalWorld, present: present))
                /// The general layers listed at `slots` of `generalPositions`, in order.
                func computeGenerals(_ slots: Range<Int>) {
                    guard !slots.isEmpty else { return }
                    if cachedLocals {
                        generalKernel.run(options.backend, UnsafeBufferPointer(rebasing: generalList[slots]))
                    } else {
                        for slot in slots { computeGeneralFromProperties(kernel.layer(generalList[slot]), generalKernel) }
                    }
                }
                /// Planar layers of `range` (a SIMD range never crosses a level).
                func runPlanar(_ range: Range<Int>) -> Bool {
                    guard !range.isEmpty else { return true }
                    guard options.backend == .simd else { return kernel.run(options.backend, range) }
                    // The subtree layout has dependences inside any range: one layer at a time.
                    guard plan.subtreeBlocks.isEmpty else { return kernel.runScalar(range) }
                    var finite = true
                    var level = levelIndex(containing: range.lowerBound, plan.levelStarts)
                    var start = range.lowerBound
                    while start < range.upperBound {
                        let end = Swift.min(range.upperBound, plan.levelStarts[level + 1])
                        if !kernel.runSIMD(start..<end) { finite = false }
                        start = end; level += 1
                    }
                    return finite
                }
                /// Part of one level: its planar layers, then its general layers (no layer of
                /// a level depends on another). `includeGenerals` false leaves those out.
                func runLevelSegment(_ range: Range<Int>, includeGenerals: Bool) -> Bool {
                    var start = range.lowerBound
                    let first = lowerBound(generalPositions, range.lowerBound)
                    var g = first
                    var finite = true
                    while g < generalPositions.count && generalPositions[g] < range.upperBound {
                        if !kernel.run(options.backend, start..<generalPositions[g]) { finite = false }
                        start = generalPositions[g] + 1; g += 1
                    }
                    if !kernel.run(options.backend, start..<range.upperBound) { finite = false }
                    if includeGenerals { computeGenerals(first..<g) }
                    return finite
                }
                /// Every layer of `range` in order: in the level layout, level by level
                /// (levels without general layers merged into one call on the serial
                /// backends); else general layers between planar runs (the subtree
                /// layout's prefix).
                func runSerial(_ range: Range<Int>) {
                    guard !range.isEmpty else { return }
                    if plan.subtreeBlocks.isEmpty {
                        var level = levelIndex(containing: range.lowerBound, plan.levelStarts)
                        var start = range.lowerBound
                        while start < range.upperBound {
                            var end = Swift.min(range.upperBound, plan.levelStarts[level + 1])
                            level += 1
                            // Levels without general layers: the serial backends take them in
                            // one call (a superlayer comes earlier in the order), which matters
                            // for deep trees (a chain is one layer per level). SIMD needs
                            // levels, except narrow ones, which it would run as scalar tails
                            // anyway: a stretch of those goes to the scalar loop (same bits).
                            let simd = options.backend == .simd
                            func mergeable(_ segment: Range<Int>) -> Bool {
                                !hasGeneral(segment) && (!simd || segment.count < Self.narrowLevelWidth)
                            }
                            guard mergeable(start..<end) else {
                                if !runLevelSegment(start..<end, includeGenerals: true) { allFinite = false }
                                start = end
                                continue
                            }
                            while end < range.upperBound {
                                let next = Swift.min(range.upperBound, plan.levelStarts[level + 1])
                                guard mergeable(end..<next) else { break }
                                end = next; level += 1
                            }
                            if !kernel.run(simd ? .scalar : options.backend, start..<end) { allFinite = false }
                            start = end
                        }
                        return
                    }
                    var start = range.lowerBound
                    var g = lowerBound(generalPositions, range.lowerBound)
                    while g < generalPositions.count && generalPositions[g] < range.upperBound {
                        if !runPlanar(start..<generalPositions[g]) { allFinite = false }
                        // A run of consecutive general positions: nothing planar between them.
                        var end = g + 1
                        while end < generalPositions.count && generalPositions[end] == generalPositions[end - 1] + 1
                            && generalPositions[end] < range.upperBound { end += 1 }
                        computeGenerals(g..<end)
                        start = generalPositions[end - 1] + 1; g = end
                    }
                    if !runPlanar(start..<range.upperBound) { allFinite = false }
                }
                /// True when some general layer sits at a position in `range`.
                func hasGeneral(_ range: Range<Int>) -> Bool {
                    let g = lowerBound(generalPositions, range.lowerBound)
                    return g < generalPositions.count && generalPositions[g] < range.upperBound
                }
                /// One wide level: planar layers over threads, then its general layers.
                func runLevelInParallel(_ range: Range<Int>) {
                    let chunkFinite = UnsafeMutableBufferPointer<Bool>.allocate(capacity: options.threads)
                    chunkFinite.initialize(repeating: true)
                    defer { chunkFinite.deallocate() }
                    let flags = SendablePointer(chunkFinite.baseAddress!)
                    forEachIndexedChunk(count: range.count, threads: options.threads,
                                        minimumPerThread: Self.worldParallelCutoff) { slot, chunk in
                        let start = range.lowerBound + chunk.lowerBound, end = range.lowerBound + chunk.upperBound
                        // Cached locals: each chunk computes its own general layers too.
                        if !runLevelSegment(start..<end, includeGenerals: cachedLocals) { flags.pointer[slot] = false }
                    }
                    if chunkFinite.contains(false) { allFinite = false }
                    guard !cachedLocals else { return }
                    computeGenerals(lowerBound(generalPositions, range.lowerBound)..<lowerBound(generalPositions, range.upperBound))
                }
                /// Subtree layout: the prefix serially, then the independent subtrees over
                /// threads, each one sequentially (so SIMD runs its scalar lane code).
                func runSubtreesInParallel() -> Bool {
                    let prefixEnd = plan.subtreeBlocks[0].lowerBound
                    // General layers write the shared table: only in the serial prefix.
                    guard generalPositions.last.map({ $0 < prefixEnd }) ?? true else { return false }
                    runSerial(0..<prefixEnd)
                    let backend = options.backend == .simd ? Backend.scalar : options.backend
                    // Largest first into the least loaded bin; a layer's value does not
                    // depend on the binning.
                    var bins = [[Range<Int>]](repeating: [], count: options.threads)
                    var load = [Int](repeating: 0, count: options.threads)
                    for block in plan.subtreeBlocks.sorted(by: { $0.count > $1.count }) {
                        let bin = load.indices.min(by: { load[$0] < load[$1] })!
                        bins[bin].append(block); load[bin] += block.count
                    }
                    let binFinite = UnsafeMutableBufferPointer<Bool>.allocate(capacity: bins.count)
                    binFinite.initialize(repeating: true)
                    defer { binFinite.deallocate() }
                    let flags = SendablePointer(binFinite.baseAddress!)
                    let sharedBins = bins
                    DispatchQueue.concurrentPerform(iterations: sharedBins.count) { bin in
                        for block in sharedBins[bin] where !kernel.run(backend, block) { flags.pointer[bin] = false }
                    }
                    if binFinite.contains(false) { allFinite = false }
                    return true
                }
                /// The whole pass in index order, for a level order that is not index order
                /// but where superlayers still precede their sublayers in index order (a
                /// depth-first build): locals and worlds stream instead of being gathered
                /// through the order, leaving the superlayers' worlds as the only scattered
                /// reads. Serial loops only (SIMD runs its scalar lane code: same bits).
                func runInIndexOrder() {
                    var planar = kernel
                    planar.order = nil
                    var generals = generalKernel
                    generals.columns.order = nil
                    let backend = options.backend == .simd ? Backend.scalar : options.backend
                    let generalLayers = generalList.map { kernel.layer($0) }.sorted()
                    generalLayers.withUnsafeBufferPointer { layers in
                        var start = 0, g = 0
                        while g < layers.count {
                            if !planar.run(backend, start..<layers[g]) { allFinite = false }
                            // Consecutive general layers in one call (it takes them in order).
                            var end = g + 1
                            while end < layers.count && layers[end] == layers[end - 1] + 1 { end += 1 }
                            if cachedLocals {
                                generals.run(options.backend, UnsafeBufferPointer(rebasing: layers[g..<end]))
                            } else {
                                for slot in g..<end { computeGeneralFromProperties(layers[slot], generals) }
                            }
                            start = layers[end - 1] + 1; g = end
                        }
                        if !planar.run(backend, start..<n) { allFinite = false }
                    }
                }
                if options.threads > 1, !plan.subtreeBlocks.isEmpty, runSubtreesInParallel() { return }
                let splitsLevels = options.threads > 1 && plan.subtreeBlocks.isEmpty && plan.levelStarts.indices.dropLast()
                    .contains { plan.levelStarts[$0 + 1] - plan.levelStarts[$0] >= 2 * Self.worldParallelCutoff }
                if plan.order != nil, plan.subtreeBlocks.isEmpty, !splitsLevels, parentsPrecedeChildren {
                    runInIndexOrder()
                    return
                }
                var runStart = 0
                if options.threads > 1 && plan.subtreeBlocks.isEmpty {
                    for level in 0..<(plan.levelStarts.count - 1) {
                        let start = plan.levelStarts[level], end = plan.levelStarts[level + 1]
                        guard end - start >= 2 * Self.worldParallelCutoff else { continue }
                        runSerial(runStart..<start)
                        runLevelInParallel(start..<end)
                        runStart = end
                    }
                }
                runSerial(runStart..<n)
            }
        }}}}}}}}}}}}}}}}}}
        return allFinite
    }
}

/// A raw pointer that chunks running on other threads may write through (each chunk
/// writes its own slot).
struct SendablePointer<Element>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Element>
    init(_ pointer: UnsafeMutablePointer<Element>) { self.pointer = pointer }
}

/// Calls `body` with the array's base address, or nil for a nil array.
@inline(__always)
func withOptionalBuffer<R>(_ array: [Int32]?, _ body: (UnsafePointer<Int32>?) -> R) -> R {
    guard let array else { return body(nil) }
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
}

/// The first index of the ascending `values` whose value is `>= key`.
@inline(__always)
func lowerBound(_ values: [Int], _ key: Int) -> Int {
    var low = 0, high = values.count
    while low < high {
        let middle = (low + high) / 2
        if values[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
}

/// The level whose range `levelStarts[l] ..< levelStarts[l + 1]` holds `position`.
func levelIndex(containing position: Int, _ levelStarts: [Int]) -> Int {
    var low = 0, high = levelStarts.count - 1
    while high - low > 1 {
        let middle = (low + high) / 2
        if levelStarts[middle] <= position { low = middle } else { high = middle }
    }
    return low
}
