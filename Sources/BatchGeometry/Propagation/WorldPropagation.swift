import CAffineKernels

// One full world pass from a plan: planar layers stream six doubles of cached local
// transform and six of their superlayer's world per layer (the superlayer's usually in
// cache) through `PlanarPropagation`; general layers multiply their cached 4×4 local by
// their superlayer's world (`GeneralPropagation`); every backend agrees bit for bit.
// Levels (all layers of one depth) are independent, so a wide level is split over
// threads; narrow levels run serially, in order.
//
// The pass is three stages: `propagateWorld` lists the general layers, then
// `runWorldPass(plan:world:…)` gathers every pointer the pass needs into one `WorldPass`, then
// `WorldPass.run` picks a strategy (WorldStrategies.swift) that calls the kernels.

extension LayerStore {
    /// The widest level below which the plan prefers the subtree layout for a big tree
    /// (half of it; `worldLayout()`), and a level split over threads in the clip and
    /// visibility passes (twice it).
    static let worldParallelCutoff = 16_384
    /// Layers per chunk of a split over threads (`forEachChunk`): about 10–20 µs of a
    /// per-layer kernel, long enough that claiming a chunk costs nothing in comparison,
    /// short enough that 16 threads share a 100k-layer pass evenly.
    static let parallelGrain = 4_096
    /// The fewest layers `computeFrames` splits over threads. A frame is a few ns a layer,
    /// so below this the split's fixed cost (~45–50 µs to wake and join workers on a
    /// 16-core VM) is more than the threads save. Measured there: 10k layers 33–42 µs on
    /// one thread, 48–61 µs split; 16k about even; 24k 146–196 µs on one, 63–78 µs split
    /// (Benchmarks/README.md, "Results: 16 cores", sixth session).
    static let framesSplitMinimum = 16_384
    /// Tasks per thread of `runSubtreeRuns`: enough that threads which start late or run
    /// slower still end together.
    static let tasksPerThread = 8
    /// Levels narrower than this give the SIMD backend nothing to vectorize: runs of them
    /// go through the scalar loop as one stretch.
    static let narrowLevelWidth = 8

    /// Fills `world` for every layer from `plan`, with the chosen backend and threads.
    /// `world` must have `count` entries; its `modes` become `plan.modes`. Returns false
    /// when some planar chain produced a non-finite value (then `world` is incomplete
    /// and the caller redoes the pass with `propagateWorldInFull`, WorldFallback.swift). O(count).
    func propagateWorld(plan: WorldPlan, into world: inout WorldTransforms, options: KernelOptions) -> Bool {
        let n = count
        world.modes = plan.modes
        world.general.removeAll()
        guard n > 0 else { return true }
        let generalPositions =
            plan.generalPositions
            ?? (0..<n).filter {
                plan.modes[plan.layer(atPosition: $0)] & WorldMode.general != 0
            }
        return runWorldPass(plan: plan, world: &world, generalPositions: generalPositions, options: options)
    }

    /// Gathers the pointers of a full pass (the plan's locals, modes, kinds and general
    /// locals; `world`'s columns and general table; the superlayer links) into one
    /// `WorldPass` and runs it; the pointers live until it returns. No closure here
    /// captures the store: that would copy its 40-odd column references (the release
    /// build retains and releases each, about 1 µs a pass).
    func runWorldPass(
        plan: WorldPlan, world: inout WorldTransforms, generalPositions: [Int], options: KernelOptions
    ) -> Bool {
        let computesGenerals = plan.cachesGeneralLocals || !writeGeneralRoots(generalPositions, of: plan, into: &world)
        // (A plan without cached locals whose general layers are not all roots is not
        // made by makeWorldPlan or the incremental update; cache them for this pass.)
        let locals =
            computesGenerals && !plan.cachesGeneralLocals
            ? makeGeneralLocals(for: plan, generalPositions: generalPositions, reusing: GeneralLocalsStorage())
            : GeneralLocalsStorage(table: plan.generalLocals, slots: plan.generalLocalSlots, layers: [])
        // Move the world columns out so their pointers and the general table can be used
        // side by side (no overlapping access to `world`), then move them back.
        var columns = (world.a, world.b, world.c, world.d, world.tx, world.ty)
        (world.a, world.b, world.c, world.d, world.tx, world.ty) = ([], [], [], [], [], [])
        var general = world.general
        world.general = GeneralMatrices()
        defer {
            (world.a, world.b, world.c, world.d, world.tx, world.ty) = columns
            world.general = general
        }
        // Room for every general layer first: the pass writes the table through raw
        // pointers, from several threads.
        general.reserve(layers: highestLayer(atPositions: generalPositions, of: plan) + 1)
        let n = count
        let useKinds =
            options.transformKindPaths && n <= LocalKind.fullPassMaximumLayers && !plan.blockKinds.isEmpty
            && plan.blockKinds.count == LocalKind.blockCount(n)
        let indexOrderWorks = plan.order != nil && plan.subtreeBlocks.isEmpty && parentsPrecedeChildren
        let parents = self.hierarchy.parents
        return withWorldPassColumns(
            plan: plan, parents: parents, generalLocals: locals, generalPositions: generalPositions,
            world: &columns, general: &general
        ) { pass in
            var planar = PlanarPropagation(
                local: pass.local, world: pass.world, parents: pass.parents, order: pass.order,
                blockKinds: useKinds ? pass.blockKinds : nil)
            planar.prefetchParents = plan.scatteredParents
            planar.chainedParents = plan.chainedParents
            let generalKernel = GeneralPropagation(
                locals: computesGenerals ? pass.generalLocals : nil, parents: pass.parents, order: pass.order,
                modes: pass.modes, world: pass.world, generalWorld: pass.generalWorld, present: pass.present)
            return WorldPass(
                planar: planar, general: generalKernel, generalPositions: pass.generalPositions,
                computesGenerals: computesGenerals, backends: options, threads: options.threads, count: n,
                indexOrderWorks: indexOrderWorks, levelStarts: plan.levelStarts, subtreeBlocks: plan.subtreeBlocks
            ).run()
        }
    }

    /// When the plan caches no 4×4 locals, only roots are general (`makeGeneralLocals`),
    /// and a root's world is its local: writes those worlds into `world` before the pass,
    /// which then leaves the general layers alone. False, writing nothing, when some
    /// general layer has a superlayer after all. O(general layers).
    private func writeGeneralRoots(_ positions: [Int], of plan: WorldPlan, into world: inout WorldTransforms) -> Bool {
        for k in 0..<positions.count where hierarchy.parents[plan.layer(atPosition: positions[k])] >= 0 { return false }
        for k in 0..<positions.count {
            let layer = plan.layer(atPosition: positions[k])
            let matrix = transformToSuperlayer(of: layer)
            world.general[Int32(truncatingIfNeeded: layer)] = matrix
            world.setAffineColumns(from: matrix, at: layer)
        }
        return true
    }
}

extension WorldPass {
    /// Picks the strategy for a full pass and runs it: subtree-parallel, index order,
    /// level-parallel for the wide levels, serial for the rest. True when every planar
    /// value written is finite.
    func run() -> Bool {
        let threaded = threads > 1
        if threaded, !subtreeBlocks.isEmpty, let finite = runSubtreesInParallel() { return finite }
        if let cut = subtreeRunsCut() { return runSubtreeRuns(cut: cut) }
        let levelStarts = self.levelStarts
        // The levels split over threads (none on one thread or in the subtree layout).
        let wideLevels =
            threaded && subtreeBlocks.isEmpty
            ? levelStarts.indices.dropLast().filter {
                levelStarts[$0 + 1] - levelStarts[$0] >= 2 * LayerStore.parallelGrain
            } : []
        if indexOrderWorks, wideLevels.isEmpty { return runInIndexOrder() }
        var allFinite = true
        var runStart = 0
        for level in wideLevels {
            let start = levelStarts[level]
            let end = levelStarts[level + 1]
            if !runSerial(runStart..<start) { allFinite = false }
            if !runLevelInParallel(start..<end) { allFinite = false }
            runStart = end
        }
        if !runSerial(runStart..<count) { allFinite = false }
        return allFinite
    }
}

/// Everything one full pass needs, gathered once by `runWorldPass(plan:world:…)` (its pointers are
/// valid only inside that call). Shared by threads that write disjoint layers.
struct WorldPass: @unchecked Sendable {
    /// The planar kernel over the plan's order.
    var planar: PlanarPropagation
    /// The general (4×4) kernel over the plan's order.
    var general: GeneralPropagation
    /// The positions (in the order) of the general layers, ascending.
    let generalPositions: RawList<Int>
    /// False when the general layers were written before the pass (roots whose locals
    /// the plan does not cache); the strategies then leave them alone.
    let computesGenerals: Bool
    /// The planar kernel's backend over one level (no dependences inside a range).
    let levelBackend: Backend
    /// The planar kernel's backend over stretches with dependences (merged levels,
    /// chains, subtree blocks, index order): never SIMD, whose lanes need independent
    /// layers (its scalar lane code is the scalar loop: same bits).
    let serialBackend: Backend
    /// The planar kernel's backend over a narrow piece of a level (fewer than
    /// `narrowLevelWidth` layers between general layers): `serialBackend` by default,
    /// the forced backend when one is.
    let narrowBackend: Backend
    /// The 4×4 kernel's backend.
    let generalBackend: Backend
    let threads: Int
    /// The store's layer count.
    let count: Int
    /// The plan has a level order, no subtree layout, and every superlayer precedes its
    /// sublayers in index order (`runInIndexOrder` may run, if no level is split).
    let indexOrderWorks: Bool
    /// The plan's `levelStarts` and `subtreeBlocks`.
    let levelStarts: [Int]
    let subtreeBlocks: [Range<Int>]

    init(
        planar: PlanarPropagation, general: GeneralPropagation, generalPositions: RawList<Int>,
        computesGenerals: Bool, backends options: KernelOptions, threads: Int, count: Int, indexOrderWorks: Bool,
        levelStarts: [Int], subtreeBlocks: [Range<Int>]
    ) {
        self.planar = planar
        self.general = general
        self.generalPositions = generalPositions
        self.computesGenerals = computesGenerals
        levelBackend = options.backend(for: .worldLevel)
        let serial = options.backend(for: .worldSerial)
        serialBackend = serial == .simd ? .scalar : serial
        narrowBackend = options.backend == nil ? serialBackend : levelBackend
        generalBackend = options.backend(for: .worldGeneral)
        self.threads = threads
        self.count = count
        self.indexOrderWorks = indexOrderWorks
        self.levelStarts = levelStarts
        self.subtreeBlocks = subtreeBlocks
    }

    /// The index in `generalPositions` of the first general layer at or after `position`.
    @inline(__always) func firstGeneral(atOrAfter position: Int) -> Int {
        lowerBound(generalPositions, position)
    }

    /// True when some general layer sits at a position in `range`.
    func hasGeneral(_ range: Range<Int>) -> Bool {
        let g = firstGeneral(atOrAfter: range.lowerBound)
        return g < generalPositions.count && generalPositions[g] < range.upperBound
    }
}

extension LayerStore {
    /// The general layers at `slots` of `positions` (ascending positions in `general`'s
    /// order): one kernel call when their locals are cached, else each from its layer's
    /// properties. Used by the incremental range walk (the full pass writes roots
    /// without cached locals first, `writeGeneralRoots`).
    func computeGenerals(
        _ slots: Range<Int>, of positions: RawList<Int>, _ general: GeneralPropagation,
        cachedLocals: Bool, backend: Backend
    ) {
        guard !slots.isEmpty else { return }
        if cachedLocals {
            general.run(backend, positions.slice(slots))
        } else {
            for slot in slots { computeGeneralFromProperties(general.layer(positions[slot]), general) }
        }
    }
}

/// The first index of the ascending `values` whose value is `>= key`. (Not generic: a
/// generic collection's subscript allocates per call in unoptimized builds.)
@inline(__always)
func lowerBound(_ values: RawList<Int>, _ key: Int) -> Int {
    var low = 0
    var high = values.count
    while low < high {
        let middle = (low + high) / 2
        if values[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
}

/// The level whose range `levelStarts[l] ..< levelStarts[l + 1]` holds `position`.
func levelIndex(containing position: Int, _ levelStarts: [Int]) -> Int {
    var low = 0
    var high = levelStarts.count - 1
    while high - low > 1 {
        let middle = (low + high) / 2
        if levelStarts[middle] <= position { low = middle } else { high = middle }
    }
    return low
}
