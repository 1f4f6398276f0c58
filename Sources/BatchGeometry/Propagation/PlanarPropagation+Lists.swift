import CAffineKernels

// The planar kernels over lists of scattered layers, for the incremental update: each
// level's short dirty runs go through one call, and moved layers under an unchanged
// superlayer recompute only their translation.

extension PlanarPropagation {
    /// The planar layers listed in `list` (all of one level, so in any order) through
    /// `backend`'s kernel; the C backend's list kernel also prefetches the lines of the
    /// layers a few entries ahead. Same bits as `run` on the same layers. True when every
    /// value written is finite.
    func runList(_ backend: Backend, _ list: RawList<Int32>) -> Bool {
        guard let base = list.column else { return true }
        guard backend == .c else { return indexed(by: base).run(backend, 0..<list.count) }
        var local = localColumns
        var world = worldColumns
        return BGWorldAffinePropagateListChecked(&local, parents.base, base.base, &world, list.count) != 0
    }
}

extension PlanarPropagation {
    /// For layers whose only change is their cached local translation (a moved layer
    /// under an unchanged superlayer): recomputes their world tx and ty with the
    /// expressions of the full kernels, keeping a, b, c, d (computed before from the same
    /// inputs, so the same bits). Scalar and SIMD share the Swift loop (a gather per
    /// layer: nothing for lanes to share); C prefetches ahead. True when every value
    /// written is finite.
    func runTranslations(_ backend: Backend, _ list: RawList<Int32>) -> Bool {
        guard let base = list.column else { return true }
        if backend == .c {
            var local = localColumns
            var world = worldColumns
            return BGWorldTranslationListChecked(&local, parents.base, base.base, &world, list.count) != 0
        }
        var allFinite = true
        for layer in list {
            let i = Int(layer)
            let p = Int(parents[i])
            let t = planarTranslation(ltx[i], lty[i], wa[p], wb[p], wc[p], wd[p], wtx[p], wty[p])
            wtx[i] = t.tx
            wty[i] = t.ty
            if !(t.tx.isFinite && t.ty.isFinite) { allFinite = false }
        }
        return allFinite
    }
}
