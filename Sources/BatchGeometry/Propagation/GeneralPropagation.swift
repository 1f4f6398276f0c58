import CAffineKernels

// The general (4×4) layers of a world pass: `GeneralPropagation` multiplies each one's
// cached local matrix (`WorldPlan.generalLocals`) by its superlayer's finished world,
// with the scalar, SIMD or C kernel (`world_general.c`); all three give the same bits
// as `Transform3D.concatenating`.

extension LayerStore {
    /// The highest layer index among `positions` (-1 when empty): the general world table
    /// must have room up to it before a pass writes through raw pointers. O(count).
    func highestLayer(atPositions positions: [Int], of plan: WorldPlan) -> Int {
        guard plan.order != nil else { return positions.isEmpty ? -1 : positions[positions.count - 1] }
        var highest = -1
        for k in 0..<positions.count { highest = Swift.max(highest, plan.layer(atPosition: positions[k])) }
        return highest
    }

    /// A general layer's world when its local matrix is not cached:
    /// `transformToSuperlayer(of:)` times the superlayer's world (same bits as the
    /// cached path), written like the kernels write it.
    func computeGeneralFromProperties(_ layer: Int, _ kernel: GeneralPropagation) {
        let superlayer = Int(kernel.columns.parent[layer])
        let local = transformToSuperlayer(of: layer)
        let matrix = superlayer < 0 ? local : local.concatenating(kernel.world(of: superlayer))
        kernel.store(matrix, at: layer)
    }
}

/// Raw pointers for the general layers of one pass (the C struct, shared by all three
/// backends). Calls running at once write disjoint layers and read only finished ones.
/// Made from a bundle inside its opener, never kept past it (Memory/RawColumns.swift).
struct GeneralPropagation: @unchecked Sendable {
    var columns: BGGeneralWorld

    @inline(__always) func layer(_ position: Int) -> Int {
        columns.order.map { Int($0[position]) } ?? position
    }

    /// The world of `layer` (finished): its general matrix, or its planar form.
    @inline(__always) func world(of layer: Int) -> Transform3D {
        if columns.modes[layer] & WorldMode.general != 0 {
            return Transform3D(rowMajorAt: generalWorld + 16 * layer)
        }
        let world = columns.world
        return Transform3D(
            planarA: world.a[layer], b: world.b[layer], c: world.c[layer],
            d: world.d[layer], tx: world.tx[layer], ty: world.ty[layer])
    }

    /// Writes a general layer's world: its matrix, affine columns and presence flag.
    @inline(__always) func store(_ matrix: Transform3D, at layer: Int) {
        matrix.storeRowMajor(at: generalWorld + 16 * layer)
        finish(layer)
    }

    @inline(__always) private func finish(_ layer: Int) {
        let g = generalWorld + 16 * layer
        let world = columns.world
        world.a[layer] = g[0]
        world.b[layer] = g[1]
        world.c[layer] = g[4]
        world.d[layer] = g[5]
        world.tx[layer] = g[12]
        world.ty[layer] = g[13]
        columns.present[layer] = 1
    }

    /// The general layers at `positions`, in that order, from their cached locals (a
    /// layer may follow its superlayer in the list). Bit-identical for every backend.
    func run(_ backend: Backend, _ positions: RawList<Int>) {
        guard let base = positions.column else { return }
        switch backend {
        case .scalar: runScalar(positions)
        case .simd: runSIMD(positions)
        case .c: withRawValue(columns) { BGWorldGeneralPropagate($0, base.base, positions.count) }
        }
    }

    /// The plain version: `local.concatenating(superlayerWorld)`.
    func runScalar(_ positions: RawList<Int>) {
        for position in positions {
            let i = layer(position)
            let p = Int(columns.parent[i])
            let local = Transform3D(rowMajorAt: local(of: i))
            store(p < 0 ? local : local.concatenating(world(of: p)), at: i)
        }
    }

    /// Row form: row r of the result is `l[r][0] * P.row1 + l[r][1] * P.row2 +
    /// l[r][2] * P.row3 + l[r][3] * P.row4` in `SIMD4<Double>`, summed left to right (lane
    /// c is the scalar expression of `concatenating`, so the bits are the same).
    func runSIMD(_ positions: RawList<Int>) {
        typealias Row = SIMD4<Double>
        for position in positions {
            let i = layer(position)
            let p = Int(columns.parent[i])
            let l = local(of: i)
            let g = generalWorld + 16 * i
            if p < 0 {
                for e in 0..<16 { g[e] = l[e] }
                finish(i)
                continue
            }
            let p1: Row
            let p2: Row
            let p3: Row
            let p4: Row
            if columns.modes[p] & WorldMode.general != 0 {
                let s = generalWorld + 16 * p
                p1 = s.load(at: 0, as: Row.self)
                p2 = s.load(at: 4, as: Row.self)
                p3 = s.load(at: 8, as: Row.self)
                p4 = s.load(at: 12, as: Row.self)
            } else {
                let world = columns.world
                p1 = Row(world.a[p], world.b[p], 0, 0)
                p2 = Row(world.c[p], world.d[p], 0, 0)
                p3 = Row(0, 0, 0, 0)
                p4 = Row(world.tx[p], world.ty[p], 0, 1)
            }
            @inline(__always) func row(_ r: Int) -> Row {
                let sum = (Row(repeating: l[4 * r]) * p1) + (Row(repeating: l[4 * r + 1]) * p2)
                return (sum + (Row(repeating: l[4 * r + 2]) * p3)) + (Row(repeating: l[4 * r + 3]) * p4)
            }
            let r1 = row(0)
            let r2 = row(1)
            let r3 = row(2)
            let r4 = row(3)
            g.store(r1, at: 0)
            g.store(r2, at: 4)
            g.store(r3, at: 8)
            g.store(r4, at: 12)
            finish(i)
        }
    }
}
