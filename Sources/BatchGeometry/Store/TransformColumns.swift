/// One transform per layer, struct-of-arrays: the affine part in six columns that the
/// frame and 2D world kernels stream, plus the other ten entries in one interleaved
/// array that exists only once some layer holds a non-affine transform.
///
/// A column set that was never written (`isMaterialized == false`) stands for identity
/// everywhere and costs nothing, which is how `sublayerTransform` (rarely set) stays free
/// for stores of millions of layers.
struct TransformColumns: Sendable {
    private(set) var count: Int
    /// The kind of each layer's transform; empty while not materialized.
    private(set) var kind: [TransformKind] = []
    private(set) var a: [Double] = [], b: [Double] = [], c: [Double] = [], d: [Double] = []
    private(set) var tx: [Double] = [], ty: [Double] = []
    /// `m13 m14 m23 m24 m31 m32 m33 m34 m43 m44` of each layer, 10 per layer; empty until
    /// the first non-affine transform is stored.
    private(set) var nonAffine: [Double] = []
    /// The largest kind ever stored here (a cheap upper bound that lets a batch skip
    /// work: no layer needs more than this).
    private(set) var maximumKind: TransformKind = .identity

    static let nonAffineStride = 10
    private static let nonAffineIdentity: [Double] = [0, 0, 0, 0, 0, 0, 1, 0, 0, 1]

    init(count: Int, materialized: Bool) {
        self.count = count
        if materialized { materialize() }
    }

    /// False while every layer is identity and no column has been allocated.
    private(set) var isMaterialized = false
    var hasNonAffine: Bool { !nonAffine.isEmpty }

    private mutating func materialize() {
        guard !isMaterialized else { return }
        isMaterialized = true
        kind = Array(repeating: .identity, count: count)
        a = Array(repeating: 1, count: count)
        b = Array(repeating: 0, count: count)
        c = Array(repeating: 0, count: count)
        d = Array(repeating: 1, count: count)
        tx = Array(repeating: 0, count: count)
        ty = Array(repeating: 0, count: count)
    }

    private mutating func materializeNonAffine() {
        guard nonAffine.isEmpty, count > 0 else { return }
        nonAffine.reserveCapacity(count * Self.nonAffineStride)
        for _ in 0..<count { nonAffine.append(contentsOf: Self.nonAffineIdentity) }
    }

    func kind(at index: Int) -> TransformKind {
        isMaterialized ? kind[index] : .identity
    }

    func affine(at index: Int) -> AffineTransform {
        if !isMaterialized { return .identity }
        return AffineTransform(a: a[index], b: b[index], c: c[index], d: d[index], tx: tx[index], ty: ty[index])
    }

    subscript(index: Int) -> Transform3D {
        if !isMaterialized { return .identity }
        var result = Transform3D(affine(at: index))
        if !nonAffine.isEmpty {
            let base = index * Self.nonAffineStride
            result.m13 = nonAffine[base]
            result.m14 = nonAffine[base + 1]
            result.m23 = nonAffine[base + 2]
            result.m24 = nonAffine[base + 3]
            result.m31 = nonAffine[base + 4]
            result.m32 = nonAffine[base + 5]
            result.m33 = nonAffine[base + 6]
            result.m34 = nonAffine[base + 7]
            result.m43 = nonAffine[base + 8]
            result.m44 = nonAffine[base + 9]
        }
        return result
    }

    mutating func set(_ transform: Transform3D, at index: Int) {
        let newKind = transform.kind
        if !isMaterialized {
            if newKind == .identity { return }
            materialize()
        }
        kind[index] = newKind
        if newKind > maximumKind { maximumKind = newKind }
        a[index] = transform.m11
        b[index] = transform.m12
        c[index] = transform.m21
        d[index] = transform.m22
        tx[index] = transform.m41
        ty[index] = transform.m42
        if newKind > .affine { materializeNonAffine() }
        if !nonAffine.isEmpty {
            let base = index * Self.nonAffineStride
            nonAffine[base] = transform.m13
            nonAffine[base + 1] = transform.m14
            nonAffine[base + 2] = transform.m23
            nonAffine[base + 3] = transform.m24
            nonAffine[base + 4] = transform.m31
            nonAffine[base + 5] = transform.m32
            nonAffine[base + 6] = transform.m33
            nonAffine[base + 7] = transform.m34
            nonAffine[base + 8] = transform.m43
            nonAffine[base + 9] = transform.m44
        }
    }

    /// Appends one identity transform.
    mutating func appendIdentity() {
        count += 1
        guard isMaterialized else { return }
        kind.append(.identity)
        a.append(1)
        b.append(0)
        c.append(0)
        d.append(1)
        tx.append(0)
        ty.append(0)
        if !nonAffine.isEmpty { nonAffine.append(contentsOf: Self.nonAffineIdentity) }
    }

    mutating func reserveCapacity(_ capacity: Int, budget: inout GrowthBudget) {
        guard isMaterialized else { return }
        budget.grow(&kind, to: capacity)
        budget.grow(&a, to: capacity)
        budget.grow(&b, to: capacity)
        budget.grow(&c, to: capacity)
        budget.grow(&d, to: capacity)
        budget.grow(&tx, to: capacity)
        budget.grow(&ty, to: capacity)
    }

    /// The kind of every layer's transform (empty while not materialized).
    var kindColumn: [TransformKind] { kind }

    /// Read access to the raw affine columns for kernels (valid inside `body` only).
    /// Valid only when materialized with at least one layer.
    @inline(__always)
    func withAffineColumns<R>(_ body: (AffinePointers) -> R) -> R {
        withAffinePointers(reading: a, b, c, d, tx, ty, body)
    }
}
