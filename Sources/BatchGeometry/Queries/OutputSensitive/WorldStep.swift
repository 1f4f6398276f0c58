// One layer's world transform for the queries that visit only some layers: read from the
// world cache when it is current (one producer: the full pass or the incremental update,
// which agree bit for bit), else computed from its superlayer's by the full pass's
// expressions.

/// A layer's world matrix and its world-plan mode bits (`WorldMode`), which decide how
/// its sublayers' world matrices are formed.
struct WorldStep {
    var mode: UInt8
    var matrix: Transform3D
}

extension LayerStore {
    /// Whether the world cache holds the current world transforms (`updateWorld()` ran
    /// after the last change; it then equals a full pass bit for bit, which
    /// `_invariantViolations()` checks). O(1).
    var worldCacheIsCurrent: Bool { caches.worldCache != nil && !caches.changes.hasChanges }

    /// `ToWorld(layer)` from its superlayer's step (nil for a root), by the full pass's
    /// expressions: the plan entry decides between the planar product of the cached
    /// local (`planarProduct`) and the 4×4 reference product, as `propagateWorld` and
    /// `SubtreeRecompute` do, so the matrix has the same bits as `worldTransforms()`'s
    /// whenever that pass is finite. (A planar product that is not finite falls back to
    /// the 4×4 product here; the full pass then recomputes the whole store as 4×4
    /// products, `propagateWorldInFull`, which agrees to 1e-12.) O(1).
    @inline(__always)
    func worldStep(of layer: Int, under superlayer: WorldStep?) -> WorldStep {
        guard let superlayer else {
            let local = transformToSuperlayer(of: layer)
            let mode = WorldMode.general | (leavesSublayersPlanar(local) ? WorldMode.eligible : 0)
            return WorldStep(mode: mode, matrix: local)
        }
        let entry = planEntry(layer, superlayerMode: superlayer.mode)
        if entry.mode & WorldMode.general == 0 {
            let l = entry.local
            let w = superlayer.matrix
            let p = planarProduct(l.a, l.b, l.c, l.d, l.tx, l.ty, w.m11, w.m12, w.m21, w.m22, w.m41, w.m42)
            if p.a.isFinite && p.b.isFinite && p.c.isFinite && p.d.isFinite && p.tx.isFinite && p.ty.isFinite {
                return WorldStep(
                    mode: entry.mode, matrix: Transform3D(planarA: p.a, b: p.b, c: p.c, d: p.d, tx: p.tx, ty: p.ty))
            }
        }
        let matrix = transformToSuperlayer(of: layer).concatenating(superlayer.matrix)
        return WorldStep(mode: entry.mode | WorldMode.general, matrix: matrix)
    }
}

/// Where a walk takes each visited layer's world transform from. The walks are generic
/// over it, so each is compiled once per source: the computing walk stays as it was, and
/// the one that reads the cache reads the store's cache in place (a copy of it would
/// retain and release its columns, which costs a short hit test more than it saves).
protocol WorldStepSource {
    /// `ToWorld(layer)` of `store`, its superlayer's step given (nil for a root). O(1).
    func step(of layer: Int, under superlayer: WorldStep?, in store: borrowing LayerStore) -> WorldStep
}

/// Computed from the superlayer's step (`worldStep(of:under:)`): any store.
struct ComputedWorldSteps: WorldStepSource {
    @inline(__always)
    func step(of layer: Int, under superlayer: WorldStep?, in store: borrowing LayerStore) -> WorldStep {
        store.worldStep(of: layer, under: superlayer)
    }
}

/// Read from the world cache: only when `worldCacheIsCurrent`.
struct CachedWorldSteps: WorldStepSource {
    @inline(__always)
    func step(of layer: Int, under superlayer: WorldStep?, in store: borrowing LayerStore) -> WorldStep {
        guard let cache = store.caches.worldCache else { return store.worldStep(of: layer, under: superlayer) }
        return WorldStep(mode: cache.modes[layer], matrix: cache[layer])
    }
}
