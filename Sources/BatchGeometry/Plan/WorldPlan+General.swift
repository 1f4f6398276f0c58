// General (4×4) layers in the world plan: each one's `transformToSuperlayer(of:)`
// (`Local * Adjust * Flat`, or `Local` for a root) is cached as 16 doubles, so a world
// pass is one 4×4 product per general layer, `local.concatenating(superlayerWorld)`,
// instead of rebuilding the local matrix from the layer properties (several 4×4
// products) every frame. The cache follows the planar entries' dependencies exactly:
// it is written wherever a general layer's plan entry is written.

extension WorldPlan {
    /// True when general layers' local matrices are cached in `generalLocals`.
    var cachesGeneralLocals: Bool { !generalLocals.isEmpty }
}

extension LayerStore {
    /// The cached local matrices for `plan`: 16 doubles per layer (row-major, layer i at
    /// `16 * i`), written for every general layer, or empty when no layer but a root is
    /// general (a store without 3D pays neither memory nor time; roots are few and are
    /// computed from their properties). Reuses `donor`'s storage when it has the size.
    /// O(count) to find the general layers, plus one `transformToSuperlayer` per general
    /// layer.
    func makeGeneralLocals(for plan: WorldPlan, generalPositions: [Int], reusing donor: [Double]) -> [Double] {
        let n = plan.count
        let hasGeneralSublayer = withRawList(reading: hierarchy.parents) { parents in
            generalPositions.contains { parents[plan.layer(atPosition: $0)] >= 0 }
        }
        guard hasGeneralSublayer else { return [] }
        // Only general layers' entries are ever read, so no zero-fill of a new table.
        var locals = donor.count == 16 * n ? donor : [Double](unsafeUninitializedCapacity: 16 * n) { $1 = 16 * n }
        withRawColumn(&locals) { table in
            for position in generalPositions { writeGeneralLocal(plan.layer(atPosition: position), to: table) }
        }
        return locals
    }

    /// After an incremental update changed some modes of a plan that caches no locals:
    /// lists the general layers again and caches their locals when a sublayer among them
    /// is general (layers turned 3D since the last full pass). O(count), once per change
    /// of the general layers.
    func cacheGeneralLocals(in plan: inout WorldPlan) {
        var positions: [Int] = []
        for position in 0..<plan.count where plan.modes[plan.layer(atPosition: position)] & WorldMode.general != 0 {
            positions.append(position)
        }
        plan.generalPositions = positions
        plan.generalLocals = makeGeneralLocals(for: plan, generalPositions: positions, reusing: [])
    }

    /// Caches `layer`'s 4×4 transform to its superlayer's world basis in `table` (the
    /// exact value the 4×4 product multiplies by the superlayer's world). O(1).
    @inline(__always)
    func writeGeneralLocal(_ layer: Int, to table: RawColumn<Double>) {
        transformToSuperlayer(of: layer).storeRowMajor(at: table + 16 * layer)
    }
}
