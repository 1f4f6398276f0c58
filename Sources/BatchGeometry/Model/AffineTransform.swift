/// A 2D affine transform, `CGAffineTransform (a, b, c, d, tx, ty)`:
/// `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty` (row vectors, `p' = p * M`).
///
/// Every operation here is the exact sequence of IEEE-754 double operations written in
/// its body, never a fused multiply-add, so that all backends agree bit for bit.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }
    @inlinable public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ tx: Double, _ ty: Double) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// `CGAffineTransformMakeTranslation`.
    @inlinable public static func translation(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }
    /// `CGAffineTransformMakeScale`.
    @inlinable public static func scale(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }
    /// `CGAffineTransformMakeRotation`: `a = cos, b = sin, c = -sin, d = cos`; the angle
    /// is in radians, positive turns +x toward +y (clockwise on a y-down screen).
    @inlinable public static func rotation(radians angle: Double) -> AffineTransform {
        let (sine, cosine) = sineAndCosine(angle)
        return AffineTransform(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    @inlinable public var isIdentity: Bool {
        a == 1 && b == 0 && c == 0 && d == 1 && tx == 0 && ty == 0
    }

    /// The transform's kind: identity, translate, scale (with translation) or affine.
    @inlinable public var kind: TransformKind {
        if b != 0 || c != 0 { return .affine }
        if a != 1 || d != 1 { return .scale }
        if tx != 0 || ty != 0 { return .translate }
        return .identity
    }

    /// `self` then `other` (`CGAffineTransformConcat(self, other)`), in this exact
    /// operation order.
    @inlinable public func concatenating(_ other: AffineTransform) -> AffineTransform {
        planarProduct(a, b, c, d, tx, ty, other.a, other.b, other.c, other.d, other.tx, other.ty)
    }

    /// Maps a point: `((a*x) + (c*y)) + tx`, `((b*x) + (d*y)) + ty`.
    @inlinable public func apply(to point: Point) -> Point {
        Point(x: ((a * point.x) + (c * point.y)) + tx, y: ((b * point.x) + (d * point.y)) + ty)
    }

    /// The inverse, or `nil` when the determinant `a*d - b*c` is zero.
    @inlinable public var inverted: AffineTransform? {
        let determinant = (a * d) - (b * c)
        if determinant == 0 { return nil }
        let ia = d / determinant
        let ib = -b / determinant
        let ic = -c / determinant
        let id = a / determinant
        return AffineTransform(
            a: ia, b: ib, c: ic, d: id,
            tx: -((tx * ia) + (ty * ic)), ty: -((tx * ib) + (ty * id)))
    }

    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

/// `sin` and `cos` without Foundation. An angle that is exactly the double nearest to a
/// multiple of pi/2 (`.pi / 2`, `.pi`, `-.pi / 2`, `3 * .pi / 2`, ...) gives exact 0 and ±1,
/// so a right-angle rotation is an exact permutation and frames read back exactly; libm
/// (and so `CGAffineTransformMakeRotation` on Apple platforms) gives `cos(.pi / 2)` =
/// 6.1e-17 instead. Other angles: reduction by a two-part pi/2, then Taylor series, good
/// to about 1 ulp for moderate angles (|angle| up to about 1e6 radians).
@usableFromInline
func sineAndCosine(_ angle: Double) -> (sine: Double, cosine: Double) {
    guard angle.isFinite else { return (.nan, .nan) }
    // Reduce to r in [-pi/4, pi/4] and a quadrant, with a two-part pi/2 for accuracy.
    let halfPiHigh = 1.5707963267948966
    let halfPiLow = 6.123233995736766e-17
    let quadrantDouble = (angle / halfPiHigh).rounded()
    let r = (angle - quadrantDouble * halfPiHigh) - quadrantDouble * halfPiLow
    let quadrant = Int(quadrantDouble.truncatingRemainder(dividingBy: 4))
    // A right angle as written in code (`k * .pi / 2` rounds to `k * halfPiHigh`).
    let isRightAngleMultiple = angle == quadrantDouble * halfPiHigh
    let r2 = r * r
    // Horner forms of the Taylor series up to r^17 / r^16; |r| <= pi/4 makes them exact to < 1 ulp.
    var s = -1.0 / 355687428096000.0
    s = s * r2 + 1.0 / 1307674368000.0
    s = s * r2 - 1.0 / 6227020800.0
    s = s * r2 + 1.0 / 39916800.0
    s = s * r2 - 1.0 / 362880.0
    s = s * r2 + 1.0 / 5040.0
    s = s * r2 - 1.0 / 120.0
    s = s * r2 + 1.0 / 6.0
    let sine = r - r * r2 * s
    var c = 1.0 / 20922789888000.0
    c = c * r2 - 1.0 / 87178291200.0
    c = c * r2 + 1.0 / 479001600.0
    c = c * r2 - 1.0 / 3628800.0
    c = c * r2 + 1.0 / 40320.0
    c = c * r2 - 1.0 / 720.0
    c = c * r2 + 1.0 / 24.0
    c = c * r2 - 0.5
    let cosine = 1.0 + r2 * c
    if r == 0 || isRightAngleMultiple {
        switch (quadrant + 4) % 4 {
        case 0: return (0, 1)
        case 1: return (1, 0)
        case 2: return (0, -1)
        default: return (-1, 0)
        }
    }
    switch (quadrant + 4) % 4 {
    case 0: return (sine, cosine)
    case 1: return (cosine, -sine)
    case 2: return (-sine, -cosine)
    default: return (-cosine, sine)
    }
}

// The planar product, defined once for Swift. `world = local * parentWorld` ("x then w")
// for the six-double planar form, in exactly this operation order, every product rounded
// before its sum (Swift never contracts `a * b + c` into a fused multiply-add). It must
// stay the same expression as `CA_AFFINE_PRODUCT_OPS` in Sources/CAffineKernels/internal.h
// (the C kernels and their AVX2/AVX-512/NEON forms): a world transform is bit-identical
// whatever backend, instruction set, thread count, kind path or incremental path made it
// (ARCHITECTURE.md section 3). Used by `AffineTransform.concatenating` (and through it
// the plan's `Local(L) * Adjust(S)`), `PlanarPropagation.runScalar` and `runSIMD` (the
// SIMD4 overload below), `runTranslations` (`planarTranslation`) and the incremental
// subtree walk (`SubtreeRecompute.recompute`). Change it here, and in internal.h, or not
// at all.

/// The tx, ty rows of `planarProduct`: the translation of "x then w".
@inlinable @inline(__always)
func planarTranslation(
    _ xtx: Double, _ xty: Double, _ wa: Double, _ wb: Double, _ wc: Double, _ wd: Double, _ wtx: Double, _ wty: Double
) -> (tx: Double, ty: Double) {
    (((xtx * wa) + (xty * wc)) + wtx, ((xtx * wb) + (xty * wd)) + wty)
}

/// "x then w" for planar maps given as (a, b, c, d, tx, ty): the one scalar definition.
@inlinable @inline(__always)
func planarProduct(
    _ xa: Double, _ xb: Double, _ xc: Double, _ xd: Double, _ xtx: Double, _ xty: Double,
    _ wa: Double, _ wb: Double, _ wc: Double, _ wd: Double, _ wtx: Double, _ wty: Double
) -> AffineTransform {
    let t = planarTranslation(xtx, xty, wa, wb, wc, wd, wtx, wty)
    return AffineTransform(
        a: (xa * wa) + (xb * wc), b: (xa * wb) + (xb * wd),
        c: (xc * wa) + (xd * wc), d: (xc * wb) + (xd * wd),
        tx: t.tx, ty: t.ty)
}

/// Four planar products at once, one per lane: `planarProduct`'s expression on
/// `SIMD4<Double>` (lanewise IEEE multiply and add, never fused), for
/// `PlanarPropagation.runSIMD`.
@inline(__always)
func planarProduct(
    _ xa: SIMD4<Double>, _ xb: SIMD4<Double>, _ xc: SIMD4<Double>, _ xd: SIMD4<Double>,
    _ xtx: SIMD4<Double>, _ xty: SIMD4<Double>,
    _ wa: SIMD4<Double>, _ wb: SIMD4<Double>, _ wc: SIMD4<Double>, _ wd: SIMD4<Double>,
    _ wtx: SIMD4<Double>, _ wty: SIMD4<Double>
) -> (a: SIMD4<Double>, b: SIMD4<Double>, c: SIMD4<Double>, d: SIMD4<Double>, tx: SIMD4<Double>, ty: SIMD4<Double>) {
    (
        (xa * wa) + (xb * wc), (xa * wb) + (xb * wd),
        (xc * wa) + (xd * wc), (xc * wb) + (xd * wd),
        ((xtx * wa) + (xty * wc)) + wtx, ((xtx * wb) + (xty * wd)) + wty
    )
}
