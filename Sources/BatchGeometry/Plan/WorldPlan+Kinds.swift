import CAffineKernels

// Transform kinds of the cached planar locals, the way Skia's type masks pick a cheaper
// matrix proc: a block of layers whose locals are all translations (or all
// scale-translations) propagates without reading the local a, b, c, d columns it knows.
// The plan keeps one kind per block of 64 layers (by layer index), the maximum kind of
// its layers. Every path computes the affine expression in the same order, with the
// known values as literals, so the kind only changes the bytes read, never the bits.

/// Kinds of a planar local `Local(L) * Adjust(S)`, ordered from cheapest to most general
/// (the values of `CA_WORLD_KIND_*`).
enum LocalKind {
    /// a == 1, b and c are +0.0 (bit pattern 0: -0.0 would change a product's sign), d == 1.
    static let translate = UInt8(CA_WORLD_KIND_TRANSLATE)
    /// b and c are +0.0.
    static let scaleTranslate = UInt8(CA_WORLD_KIND_SCALE_TRANSLATE)
    /// Anything else.
    static let affine = UInt8(CA_WORLD_KIND_AFFINE)

    /// Layers per block are `1 << blockShift`; block k holds layers `k << blockShift ..<
    /// (k + 1) << blockShift`.
    static let blockShift = Int(CA_WORLD_KIND_BLOCK_SHIFT)

    /// Full passes over more layers than this take the affine path everywhere. Measured
    /// (Benchmarks/KERNELS.md, "Transform kinds"): while a pass's columns stay in cache
    /// (100,000 layers, ≈ 15 MB) skipping the known local columns gains up to 1.4×; from
    /// memory (1,000,000 layers) reading them in short scattered pieces defeats the
    /// hardware prefetcher and costs 1.3–1.5×. Incremental passes, whose runs are short
    /// and scattered anyway, always use the kinds.
    static let fullPassMaximumLayers = 1 << 17

    /// The number of kind blocks for `count` layers.
    @inline(__always) static func blockCount(_ count: Int) -> Int { (count + (1 << blockShift) - 1) >> blockShift }

    /// The kind of one local, from exact bit patterns.
    @inline(__always) static func of(a: Double, b: Double, c: Double, d: Double) -> UInt8 {
        if (b.bitPattern | c.bitPattern) != 0 { return affine }
        return a == 1 && d == 1 ? translate : scaleTranslate
    }
}

/// Raises the kind of `layer`'s block to cover a local with these entries (a block may
/// claim a more general kind than its layers have, never a cheaper one).
@inline(__always)
func raiseBlockKind(
    _ blockKinds: RawColumn<UInt8>?, layer: Int,
    a: Double, b: Double, c: Double, d: Double
) {
    guard let blockKinds else { return }
    let kind = LocalKind.of(a: a, b: b, c: c, d: d)
    let block = layer >> LocalKind.blockShift
    if kind > blockKinds[block] { blockKinds[block] = kind }
}

extension WorldPlan {
    /// The exact kind of every block, from the local columns (what a full plan build
    /// leaves). O(count); for tests and checks.
    func exactBlockKinds() -> [UInt8] {
        var kinds = [UInt8](repeating: LocalKind.translate, count: LocalKind.blockCount(count))
        withRawColumn(&kinds) { kinds in
            for layer in 0..<count {
                raiseBlockKind(kinds, layer: layer, a: a[layer], b: b[layer], c: c[layer], d: d[layer])
            }
        }
        return kinds
    }

    /// True when no block claims a cheaper kind than one of its layers' locals has
    /// (or the plan keeps no kinds, and every pass takes the affine path). O(count).
    func blockKindsCoverLocals() -> Bool {
        guard blockKinds.count == LocalKind.blockCount(count) else { return blockKinds.isEmpty }
        return zip(exactBlockKinds(), blockKinds).allSatisfy { exact, kept in exact <= kept }
    }
}

/// Calls `body` with a pointer to `blockKinds` when it has one entry per block of
/// `layerCount` layers, else with nil (no kinds kept: writers skip raising, passes take
/// the affine path).
@inline(__always)
func withBlockKinds<R>(
    _ blockKinds: inout [UInt8], layerCount: Int,
    _ body: (RawColumn<UInt8>?) -> R
) -> R {
    guard blockKinds.count == LocalKind.blockCount(layerCount), !blockKinds.isEmpty else { return body(nil) }
    return withRawColumn(&blockKinds) { body($0) }
}
