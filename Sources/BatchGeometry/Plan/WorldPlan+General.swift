// General (4×4) layers in the world plan: each one's `transformToSuperlayer(of:)`
// (`Local * Adjust * Flat`, or `Local` for a root) is cached as 16 doubles, so a world
// pass is one 4×4 product per general layer, `local.concatenating(superlayerWorld)`,
// instead of rebuilding the local matrix from the layer properties (several 4×4
// products) every frame. The cache follows the planar entries' dependencies exactly:
// it is written wherever a general layer's plan entry is written.
//
// The table is compact: an entry per general layer (in the order of the last full
// build, so a full pass reads it front to back), found through a slot column. A store
// with a dozen 3D layers pays 4 bytes a layer and a dozen entries, not 128 bytes a layer.

/// A plan's cached general locals: the compact table and the slot column (see
/// `WorldPlan.generalLocals`).
struct GeneralLocalsStorage {
    var table: [Double] = []
    var slots: [Int32] = []
    /// The layer of each entry, so that a rebuild resets only the slots in use.
    var layers: [Int32] = []
}

/// Raw pointers to a plan's cached general locals (made by `withGeneralLocals`, never
/// kept past its closure: the rule atop Memory/RawColumns.swift).
struct GeneralLocalTable {
    let table: RawColumn<Double>
    let slots: RawColumn<Int32>

    /// `layer`'s 16 doubles, or nil when it has no entry. O(1).
    @inline(__always) func entry(of layer: Int) -> RawColumn<Double>? {
        let slot = Int(slots[layer])
        return slot < 0 ? nil : table + 16 * slot
    }
}

/// Calls `body` with pointers to `table` and `slots`, or nil when either is empty (no
/// locals cached).
@inline(__always)
func withGeneralLocals<R>(
    _ table: inout [Double], _ slots: inout [Int32], _ body: (GeneralLocalTable?) -> R
) -> R {
    withOptionalRawColumn(&table) { table in
        withOptionalRawColumn(&slots) { slots in
            guard let table, let slots else { return body(nil) }
            return body(GeneralLocalTable(table: table, slots: slots))
        }
    }
}

/// As `withGeneralLocals(_:_:_:)`, for reading.
@inline(__always)
func withGeneralLocals<R>(reading table: [Double], _ slots: [Int32], _ body: (GeneralLocalTable?) -> R) -> R {
    withOptionalRawColumn(reading: table) { table in
        withOptionalRawColumn(reading: slots) { slots in
            guard let table, let slots else { return body(nil) }
            return body(GeneralLocalTable(table: table, slots: slots))
        }
    }
}

extension WorldPlan {
    /// True when general layers' local matrices are cached in `generalLocals`.
    var cachesGeneralLocals: Bool { !generalLocalSlots.isEmpty }

    /// Caches `local` as `layer`'s general local, giving the layer an entry when it has
    /// none (locals must be cached). O(1), amortized when the table grows.
    mutating func storeGeneralLocal(_ local: Transform3D, of layer: Int) {
        var slot = Int(generalLocalSlots[layer])
        if slot < 0 {
            slot = generalLocals.count / 16
            generalLocalSlots[layer] = Int32(truncatingIfNeeded: slot)
            generalLocalLayers.append(Int32(truncatingIfNeeded: layer))
            generalLocals.append(contentsOf: repeatElement(0, count: 16))
        }
        generalLocals.storeRowMajor(local, at: 16 * slot)
    }
}

extension LayerStore {
    /// The cached local matrices for `plan`: an entry of 16 doubles (row-major) for every
    /// general layer, in `generalPositions` order, and the slot column, or both empty when
    /// no layer but a root is general (a store without 3D pays neither memory nor time;
    /// roots are few and are computed from their properties). Reuses `donor`'s storage,
    /// resetting only its slots in use and growing or trimming its slot column to the
    /// count. O(count) to find the general layers (O(donor entries + growth) for the
    /// slots), plus one `transformToSuperlayer` per general layer.
    func makeGeneralLocals(
        for plan: WorldPlan, generalPositions: [Int], reusing donor: GeneralLocalsStorage
    ) -> GeneralLocalsStorage {
        let n = plan.count
        let hasGeneralSublayer = withRawList(reading: hierarchy.parents) { parents in
            generalPositions.contains { parents[plan.layer(atPosition: $0)] >= 0 }
        }
        guard hasGeneralSublayer else { return GeneralLocalsStorage() }
        var locals = donor
        // Reset only the slots in use (O(entries), not O(n)), then fit the column to n.
        let kept = locals.slots.count
        for layer in locals.layers where Int(layer) < kept { locals.slots[Int(layer)] = -1 }
        if kept > n {
            locals.slots.removeLast(kept - n)
        } else {
            locals.slots.append(contentsOf: repeatElement(-1, count: n - kept))
        }
        var layers = locals.layers
        locals.layers = []
        layers.removeAll(keepingCapacity: true)
        layers.reserveCapacity(generalPositions.count)
        let entries = 16 * generalPositions.count
        locals.table.removeAll(keepingCapacity: true)
        locals.table.append(contentsOf: repeatElement(0, count: entries))
        withRawColumn(&locals.table) { table in
            withRawColumn(&locals.slots) { slots in
                for k in 0..<generalPositions.count {
                    let layer = plan.layer(atPosition: generalPositions[k])
                    slots[layer] = Int32(truncatingIfNeeded: k)
                    layers.append(Int32(truncatingIfNeeded: layer))
                    transformToSuperlayer(of: layer).storeRowMajor(at: table + 16 * k)
                }
            }
        }
        locals.layers = layers
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
        let locals = makeGeneralLocals(for: plan, generalPositions: positions, reusing: GeneralLocalsStorage())
        (plan.generalLocals, plan.generalLocalSlots, plan.generalLocalLayers) = (
            locals.table, locals.slots, locals.layers
        )
    }

    /// Caches `layer`'s 4×4 transform to its superlayer's world basis in its entry of
    /// `locals` (the exact value the 4×4 product multiplies by the superlayer's world).
    /// False, writing nothing, when the layer has no entry (it turned general during an
    /// incremental update: the caller gives it one after). O(1).
    @inline(__always) @discardableResult
    func writeGeneralLocal(_ layer: Int, to locals: GeneralLocalTable) -> Bool {
        guard let entry = locals.entry(of: layer) else { return false }
        transformToSuperlayer(of: layer).storeRowMajor(at: entry)
        return true
    }
}
