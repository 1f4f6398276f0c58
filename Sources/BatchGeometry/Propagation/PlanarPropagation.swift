import CAffineKernels

// The planar propagation kernel of a world pass: each planar layer's world is its cached
// local transform (six doubles) times its superlayer's world, in three backends that agree
// bit for bit (scalar, SIMD4, C), with cheaper paths for translate-only and
// scale-translate blocks (WorldPlan+Kinds.swift).

/// Raw pointers for one propagation pass. Chunks running at once write disjoint layers
/// of one level and read only layers of earlier levels, which makes sharing them safe.
/// Made from a bundle inside its opener, never kept past it (Memory/RawColumns.swift).
struct PlanarPropagation: @unchecked Sendable {
    let la, lb, lc, ld, ltx, lty: RawColumn<Double>
    let parents: RawColumn<Int32>
    var order: RawColumn<Int32>?
    let wa, wb, wc, wd, wtx, wty: RawColumn<Double>
    /// The plan's `blockKinds` (see `LocalKind`), used only in index order (`order ==
    /// nil`, where a position is its layer): a translate or scale-translate block then
    /// skips loading the local columns it knows. Nil: every layer takes the affine path.
    var blockKinds: RawColumn<UInt8>? = nil
    /// The tree's superlayers are far apart in the columns (`WorldPlan.scatteredParents`):
    /// in index order the C backend then prefetches their worlds.
    var prefetchParents = false
    /// Most layers' superlayer comes just before them (`WorldPlan.chainedParents`): the
    /// C backend then takes its kernel for a chain of dependent layers.
    var chainedParents = false

    @inline(__always) func layer(_ position: Int) -> Int { order.map { Int($0[position]) } ?? position }

    /// The same kernel over the layers listed in `list` (position k is layer `list[k]`),
    /// for the incremental update's gathered short runs of one level.
    func indexed(by list: RawColumn<Int32>) -> PlanarPropagation {
        var copy = self
        copy.order = list
        return copy
    }

    /// Planar layers at positions `range` (parents processed before, or earlier in the
    /// range for the serial backends). True when every value written is finite.
    func run(_ backend: Backend, _ range: Range<Int>) -> Bool {
        switch backend {
        case .scalar: return runScalar(range)
        case .simd: return runSIMD(range)
        case .c: return runC(range)
        }
    }

    /// Calls `body` for each piece of `range` inside one kind block, with the block's
    /// kind (affine for every piece when kinds are not used). True when all bodies are.
    @inline(__always)
    private func forEachKindRun(_ range: Range<Int>, _ body: (Range<Int>, UInt8) -> Bool) -> Bool {
        guard order == nil, let blockKinds else { return body(range, LocalKind.affine) }
        var allFinite = true
        var start = range.lowerBound
        let lastBlock = (range.upperBound - 1) >> LocalKind.blockShift
        while start < range.upperBound {
            // Neighbouring blocks of one kind run as one loop (no per-block overhead
            // where every block is affine).
            var block = start >> LocalKind.blockShift
            let kind = blockKinds[block]
            while block < lastBlock && blockKinds[block + 1] == kind { block += 1 }
            let end = Swift.min(range.upperBound, (block + 1) << LocalKind.blockShift)
            if !body(start..<end, kind) { allFinite = false }
            start = end
        }
        return allFinite
    }

    /// The plain version: one layer at a time, `world = local then world(superlayer)`.
    func runScalar(_ range: Range<Int>) -> Bool {
        guard order == nil, blockKinds != nil else { return runScalar(range, kind: LocalKind.affine) }
        return forEachKindRun(range) { run, kind in
            switch kind {
            case LocalKind.translate: return runScalar(run, kind: LocalKind.translate)
            case LocalKind.scaleTranslate: return runScalar(run, kind: LocalKind.scaleTranslate)
            default: return runScalar(run, kind: LocalKind.affine)
            }
        }
    }

    /// `runScalar` for layers whose locals have `kind` (a literal at every call site, so
    /// the selects fold): the known entries are the literals 1 and +0.0 in the same
    /// expression (`0 * x` is not folded, so the bits are the affine path's).
    @inline(__always)
    private func runScalar(_ range: Range<Int>, kind: UInt8) -> Bool {
        var allFinite = true
        for position in range {
            let i = layer(position)
            let p = Int(parents[i])
            let xa = kind == LocalKind.translate ? 1.0 : la[i]
            let xd = kind == LocalKind.translate ? 1.0 : ld[i]
            let xb = kind == LocalKind.affine ? lb[i] : 0.0
            let xc = kind == LocalKind.affine ? lc[i] : 0.0
            let w = planarProduct(xa, xb, xc, xd, ltx[i], lty[i], wa[p], wb[p], wc[p], wd[p], wtx[p], wty[p])
            wa[i] = w.a
            wb[i] = w.b
            wc[i] = w.c
            wd[i] = w.d
            wtx[i] = w.tx
            wty[i] = w.ty
            if !(w.a.isFinite && w.b.isFinite && w.c.isFinite && w.d.isFinite && w.tx.isFinite && w.ty.isFinite) {
                allFinite = false
            }
        }
        return allFinite
    }

    /// The cached locals as the C kernels take them (they only read through them).
    var localColumns: BGAffineColumns {
        BGAffineColumns(a: la.base, b: lb.base, c: lc.base, d: ld.base, tx: ltx.base, ty: lty.base)
    }

    /// The world columns as the C kernels take them.
    var worldColumns: BGAffineColumns {
        BGAffineColumns(a: wa.base, b: wb.base, c: wc.base, d: wd.base, tx: wtx.base, ty: wty.base)
    }

    func runC(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return true }
        var local = localColumns
        var world = worldColumns
        // Before the kind paths: on a chain the wait for the superlayer's world, not the
        // loads that a kind skips, decides the time.
        if chainedParents {
            return BGWorldAffinePropagateChainChecked(
                &local, parents.base, order?.base, &world, range.lowerBound, range.upperBound) != 0
        }
        if order == nil, let blockKinds {
            return BGWorldAffinePropagateKindsChecked(
                &local, parents.base, blockKinds.base, &world,
                range.lowerBound, range.upperBound) != 0
        }
        if order == nil && prefetchParents {
            return BGWorldAffinePropagateScatteredParentsChecked(
                &local, parents.base, &world,
                range.lowerBound, range.upperBound) != 0
        }
        return BGWorldAffinePropagateChecked(
            &local, parents.base, order?.base, &world, range.lowerBound, range.upperBound) != 0
    }

    /// Four layers of one level per step: gathers the superlayers' world entries into
    /// `SIMD4<Double>` lanes, `planarProduct`'s SIMD4 form (the order of `runScalar`). Every layer of the
    /// range must be in the same level (no dependences inside the range).
    func runSIMD(_ range: Range<Int>) -> Bool {
        guard order == nil, blockKinds != nil else { return runSIMD(range, kind: LocalKind.affine) }
        return forEachKindRun(range) { run, kind in
            switch kind {
            case LocalKind.translate: return runSIMD(run, kind: LocalKind.translate)
            case LocalKind.scaleTranslate: return runSIMD(run, kind: LocalKind.scaleTranslate)
            default: return runSIMD(run, kind: LocalKind.affine)
            }
        }
    }

    /// `runSIMD` for layers whose locals have `kind` (a literal at every call site).
    @inline(__always)
    private func runSIMD(_ range: Range<Int>, kind: UInt8) -> Bool {
        var position = range.lowerBound
        var poison = SIMD4<Double>(repeating: 0)
        while position + 4 <= range.upperBound {
            let i0 = layer(position)
            let i1 = layer(position + 1)
            let i2 = layer(position + 2)
            let i3 = layer(position + 3)
            let p0 = Int(parents[i0])
            let p1 = Int(parents[i1])
            let p2 = Int(parents[i2])
            let p3 = Int(parents[i3])
            // Unoptimized builds: a copy for the local functions, since one that captured
            // the `var` would box it on the heap (an allocation per step). Optimized builds
            // capture `position` itself: the copy measured 10-17% slower there (the SIMD
            // world pass at 100k layers), and no box is made.
            #if DEBUG
            let first = position
            #endif
            @inline(__always) func local(_ column: RawColumn<Double>) -> SIMD4<Double> {
                #if DEBUG
                let offset = first
                #else
                let offset = position
                #endif
                if order == nil { return column.load(at: offset, as: SIMD4<Double>.self) }
                return SIMD4(column[i0], column[i1], column[i2], column[i3])
            }
            @inline(__always) func parent(_ column: RawColumn<Double>) -> SIMD4<Double> {
                SIMD4(column[p0], column[p1], column[p2], column[p3])
            }
            @inline(__always) func store(_ value: SIMD4<Double>, _ column: RawColumn<Double>) {
                #if DEBUG
                let offset = first
                #else
                let offset = position
                #endif
                if order == nil {
                    column.store(value, at: offset)
                } else {
                    column[i0] = value[0]
                    column[i1] = value[1]
                    column[i2] = value[2]
                    column[i3] = value[3]
                }
            }
            let one = SIMD4<Double>(repeating: 1)
            let zero = SIMD4<Double>(repeating: 0)
            let xa = kind == LocalKind.translate ? one : local(la)
            let xd = kind == LocalKind.translate ? one : local(ld)
            let xb = kind == LocalKind.affine ? local(lb) : zero
            let xc = kind == LocalKind.affine ? local(lc) : zero
            let xtx = local(ltx)
            let xty = local(lty)
            let pa = parent(wa)
            let pb = parent(wb)
            let pc = parent(wc)
            let pd = parent(wd)
            let ptx = parent(wtx)
            let pty = parent(wty)
            let (a, b, c, d, tx, ty) = planarProduct(xa, xb, xc, xd, xtx, xty, pa, pb, pc, pd, ptx, pty)
            store(a, wa)
            store(b, wb)
            store(c, wc)
            store(d, wd)
            store(tx, wtx)
            store(ty, wty)
            // x - x is 0 when x is finite, NaN otherwise.
            poison += ((a - a) + (b - b)) + ((c - c) + (d - d)) + ((tx - tx) + (ty - ty))
            position += 4
        }
        let tailFinite = runScalar(position..<range.upperBound, kind: kind)
        return tailFinite && poison == SIMD4(repeating: 0)
    }
}
