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
    /// Whether `step(of:under:in:)` reads the superlayer's step: when false, the hit walk
    /// keeps no steps for the layers it is inside of.
    var readsSuperlayerStep: Bool { get }
    /// `ToWorld(layer)` when it is at hand in the planar form without building a 4×4
    /// matrix (the world cache's planar columns); else nil. O(1).
    func planarWorld(of layer: Int, in store: borrowing LayerStore) -> PlanarWorld?
}

/// Computed from the superlayer's step (`worldStep(of:under:)`): any store.
struct ComputedWorldSteps: WorldStepSource {
    @inline(__always)
    func step(of layer: Int, under superlayer: WorldStep?, in store: borrowing LayerStore) -> WorldStep {
        store.worldStep(of: layer, under: superlayer)
    }

    var readsSuperlayerStep: Bool { true }

    @inline(__always)
    func planarWorld(of layer: Int, in store: borrowing LayerStore) -> PlanarWorld? { nil }
}

/// Read from the world cache: only when `worldCacheIsCurrent`.
struct CachedWorldSteps: WorldStepSource {
    @inline(__always)
    func step(of layer: Int, under superlayer: WorldStep?, in store: borrowing LayerStore) -> WorldStep {
        guard let cache = store.caches.worldCache else { return store.worldStep(of: layer, under: superlayer) }
        return WorldStep(mode: cache.modes[layer], matrix: cache[layer])
    }
}

extension CachedWorldSteps {
    var readsSuperlayerStep: Bool { false }

    @inline(__always)
    func planarWorld(of layer: Int, in store: borrowing LayerStore) -> PlanarWorld? {
        guard let cache = store.caches.worldCache, cache.modes[layer] & WorldTransforms.generalBit == 0 else {
            return nil
        }
        return PlanarWorld(
            a: cache.a[layer], b: cache.b[layer], c: cache.c[layer], d: cache.d[layer], tx: cache.tx[layer],
            ty: cache.ty[layer])
    }
}

/// A world matrix of the planar form `[[a b 0 0] [c d 0 0] [0 0 0 0] [tx ty 0 1]]`
/// (`WorldTransforms.isPlanarForm`), as its six doubles: what the hit walk unprojects
/// through without the 4×4 matrix's cofactors.
struct PlanarWorld {
    var a, b, c, d, tx, ty: Double

    @inline(__always)
    init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The six doubles of `m` when it has the planar form; else nil.
    @inline(__always)
    init?(_ m: Transform3D) {
        guard WorldTransforms.isPlanarForm(m) else { return nil }
        (a, b, c, d, tx, ty) = (m.m11, m.m12, m.m21, m.m22, m.m41, m.m42)
    }

    /// `unprojectPointInFrontOfEye(point)` of the 4×4 matrix, when every value is finite
    /// and the map is not singular; else nil (the caller then asks the 4×4 matrix).
    ///
    /// The same values: with m14 = m24 = 0 and m44 = 1 and finite entries, the
    /// homography's cofactors are c11 = d, c21 = -c, c12 = -b, c22 = a, c13 = c23 = ±0,
    /// c31 = c·ty - d·tx, c32 = b·tx - a·ty and c33 = det = a·d - b·c, each rounded as
    /// here, so its solve gives w = det (in front of the eye: det / w = 1) and the same x
    /// and y (the only difference is the sign of a zero, which no comparison sees).
    @inline(__always)
    func unprojectInFrontOfEye(_ point: Point) -> Point? {
        let det = a * d - b * c
        let c31 = c * ty - d * tx
        let c32 = b * tx - a * ty
        guard det != 0, det.isFinite, c31.isFinite, c32.isFinite, point.x.isFinite, point.y.isFinite,
            a.isFinite, b.isFinite, c.isFinite, d.isFinite
        else { return nil }
        let x = (point.x * d + point.y * -c) + c31
        let y = (point.x * -b + point.y * a) + c32
        return Point(x: x / det, y: y / det)
    }
}

extension PlaneMap {
    /// The plane map of a planar matrix.
    @inline(__always)
    init(_ m: PlanarWorld) {
        (m11, m12, m14, m21, m22, m24, m41, m42, m44) = (m.a, m.b, 0, m.c, m.d, 0, m.tx, m.ty, 1)
    }
}
