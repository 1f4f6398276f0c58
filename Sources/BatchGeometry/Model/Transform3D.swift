/// A 4×4 transform with Core Animation's conventions (`CATransform3D`): row-major
/// `m11 … m44`, row vectors (`p' = p * M`), translation in `m41 m42 m43`, perspective in
/// `m14 m24 m34` (usually `m34 = -1/d` for an eye at distance `d`).
///
/// `a.concatenating(b)` is `CATransform3DConcat(a, b)`: `a` first, then `b` (`a * b`).
/// Products use a fixed operation order (row of `a` times column of `b`, summed left to
/// right) so that every backend computes the same bits.
public struct Transform3D: Hashable, Sendable, CustomStringConvertible {
    public var m11: Double, m12: Double, m13: Double, m14: Double
    public var m21: Double, m22: Double, m23: Double, m24: Double
    public var m31: Double, m32: Double, m33: Double, m34: Double
    public var m41: Double, m42: Double, m43: Double, m44: Double

    @inlinable public init(
        m11: Double, m12: Double, m13: Double, m14: Double,
        m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double,
        m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        self.m11 = m11
        self.m12 = m12
        self.m13 = m13
        self.m14 = m14
        self.m21 = m21
        self.m22 = m22
        self.m23 = m23
        self.m24 = m24
        self.m31 = m31
        self.m32 = m32
        self.m33 = m33
        self.m34 = m34
        self.m41 = m41
        self.m42 = m42
        self.m43 = m43
        self.m44 = m44
    }

    /// From 16 numbers in row-major order `m11, m12, …, m44`.
    /// - Precondition: `values.count == 16`.
    public init(rowMajor values: [Double]) {
        require(values.count == 16, "Transform3D(rowMajor:) needs 16 numbers, got \(values.count)")
        self.init(
            m11: values[0], m12: values[1], m13: values[2], m14: values[3],
            m21: values[4], m22: values[5], m23: values[6], m24: values[7],
            m31: values[8], m32: values[9], m33: values[10], m34: values[11],
            m41: values[12], m42: values[13], m43: values[14], m44: values[15])
    }

    /// The embedding of an affine transform: `m11=a m12=b m21=c m22=d m41=tx m42=ty`, the
    /// rest identity (`CATransform3DMakeAffineTransform`).
    @inlinable public init(_ affine: AffineTransform) {
        self.init(
            m11: affine.a, m12: affine.b, m13: 0, m14: 0,
            m21: affine.c, m22: affine.d, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0,
            m41: affine.tx, m42: affine.ty, m43: 0, m44: 1)
    }

    public static let identity = Transform3D(AffineTransform.identity)

    /// The 16 numbers in row-major order.
    public var rowMajor: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// `CATransform3DMakeTranslation`.
    @inlinable public static func translation(x: Double, y: Double, z: Double = 0) -> Transform3D {
        var result = Transform3D.identity
        result.m41 = x
        result.m42 = y
        result.m43 = z
        return result
    }
    /// `CATransform3DMakeScale`.
    @inlinable public static func scale(x: Double, y: Double, z: Double = 1) -> Transform3D {
        var result = Transform3D.identity
        result.m11 = x
        result.m22 = y
        result.m33 = z
        return result
    }
    /// `CATransform3DMakeRotation(angle, x, y, z)`: a rotation by `radians` about the
    /// axis `(x, y, z)` (normalized here; a zero axis gives the identity, as in Core
    /// Animation).
    public static func rotation(radians angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        if length == 0 { return .identity }
        let ux = x / length
        let uy = y / length
        let uz = z / length
        let (s, c) = sineAndCosine(angle)
        let t = 1 - c
        return Transform3D(
            m11: t * ux * ux + c, m12: t * ux * uy + s * uz, m13: t * ux * uz - s * uy, m14: 0,
            m21: t * ux * uy - s * uz, m22: t * uy * uy + c, m23: t * uy * uz + s * ux, m24: 0,
            m31: t * ux * uz + s * uy, m32: t * uy * uz - s * ux, m33: t * uz * uz + c, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }
    /// A perspective projection with the eye at `distance` points on the +z axis:
    /// identity with `m34 = -1 / distance`, the usual Core Animation idiom.
    @inlinable public static func perspective(distance: Double) -> Transform3D {
        var result = Transform3D.identity
        result.m34 = -1 / distance
        return result
    }

    /// The affine part `(m11, m12, m21, m22, m41, m42)`; what `frame` uses.
    @inlinable public var affinePart: AffineTransform {
        AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }

    /// True when the matrix is exactly the embedding of its affine part.
    @inlinable public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0
            && m33 == 1 && m34 == 0 && m43 == 0 && m44 == 1
    }

    /// The cheapest kind that represents this matrix exactly (see `TransformKind`).
    @inlinable public var kind: TransformKind {
        if m14 != 0 || m24 != 0 || m34 != 0 || m44 != 1 { return .perspective }
        if !isAffine { return .threeDimensional }
        return affinePart.kind
    }

    @inlinable public var isIdentity: Bool { kind == .identity }

    /// `self` then `other`: the matrix product `self * other` in row-vector convention.
    @inlinable public func concatenating(_ o: Transform3D) -> Transform3D {
        Transform3D(
            m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31 + m14 * o.m41,
            m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32 + m14 * o.m42,
            m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33 + m14 * o.m43,
            m14: m11 * o.m14 + m12 * o.m24 + m13 * o.m34 + m14 * o.m44,
            m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31 + m24 * o.m41,
            m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32 + m24 * o.m42,
            m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33 + m24 * o.m43,
            m24: m21 * o.m14 + m22 * o.m24 + m23 * o.m34 + m24 * o.m44,
            m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31 + m34 * o.m41,
            m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32 + m34 * o.m42,
            m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33 + m34 * o.m43,
            m34: m31 * o.m14 + m32 * o.m24 + m33 * o.m34 + m34 * o.m44,
            m41: m41 * o.m11 + m42 * o.m21 + m43 * o.m31 + m44 * o.m41,
            m42: m41 * o.m12 + m42 * o.m22 + m43 * o.m32 + m44 * o.m42,
            m43: m41 * o.m13 + m42 * o.m23 + m43 * o.m33 + m44 * o.m43,
            m44: m41 * o.m14 + m42 * o.m24 + m43 * o.m34 + m44 * o.m44)
    }

    /// Maps `(x, y, 0, 1)` to homogeneous `(X, Y, Z, W)`.
    @inlinable public func applyHomogeneous(x: Double, y: Double) -> SIMD4<Double> {
        SIMD4(
            x * m11 + y * m21 + m41,
            x * m12 + y * m22 + m42,
            x * m13 + y * m23 + m43,
            x * m14 + y * m24 + m44)
    }

    /// Maps `(x, y, 0, 1)` and projects: `(X/W, Y/W)`. `W <= 0` (behind the eye) still
    /// divides; callers that care use `applyHomogeneous`.
    @inlinable public func projectPoint(_ point: Point) -> Point {
        let p = applyHomogeneous(x: point.x, y: point.y)
        if p.w == 1 { return Point(x: p.x, y: p.y) }
        return Point(x: p.x / p.w, y: p.y / p.w)
    }

    /// The point on this transform's z = 0 plane that projects to `point`: inverts the
    /// 3×3 homography of rows and columns (x, y, w). `nil` when it is singular. O(1).
    public func unprojectPoint(_ point: Point) -> Point? {
        Homography(self).unproject(point)
    }

    /// Like `unprojectPoint`, but also `nil` when the plane point found maps to `W <= 0`
    /// (it lies behind the eye, so nothing of the plane is drawn under `point` there).
    /// Hit testing uses this; conversion does not (GEOMETRY.md defines it as the plain
    /// unprojection). O(1).
    public func unprojectPointInFrontOfEye(_ point: Point) -> Point? {
        Homography(self).unprojectInFrontOfEye(point)
    }

    public var description: String { "\(rowMajor)" }
}

/// The (x, y, w) homography of a transform, inverted up to a scale: what unprojecting a
/// world point onto a layer's z = 0 plane needs. The point-independent part (the
/// cofactors) is computed once, so a batch of points through one layer (hit testing
/// thousands of touches) pays it once; every unprojection in the package goes through
/// here, so single and batch answers are the same bits.
struct Homography: Sendable {
    // The adjugate of H = [[m11 m12 m14], [m21 m22 m24], [m41 m42 m44]] (cofactors,
    // transposed: H * adj(H) = det(H) * I) and det(H).
    let c11, c12, c13, c21, c22, c23, c31, c32, c33: Double
    let determinant: Double

    init(_ m: Transform3D) {
        let h11 = m.m11
        let h12 = m.m12
        let h13 = m.m14
        let h21 = m.m21
        let h22 = m.m22
        let h23 = m.m24
        let h31 = m.m41
        let h32 = m.m42
        let h33 = m.m44
        c11 = h22 * h33 - h23 * h32
        c12 = h13 * h32 - h12 * h33
        c13 = h12 * h23 - h13 * h22
        c21 = h23 * h31 - h21 * h33
        c22 = h11 * h33 - h13 * h31
        c23 = h13 * h21 - h11 * h23
        c31 = h21 * h32 - h22 * h31
        c32 = h12 * h31 - h11 * h32
        c33 = h11 * h22 - h12 * h21
        determinant = h11 * c11 + h12 * c21 + h13 * c31
    }

    /// `(px, py, 1) * adj(H)`: the plane point in homogeneous form (the inverse up to the
    /// factor 1/det, which the division by w cancels); nil when `det(H) == 0`.
    @inline(__always)
    func solve(_ point: Point) -> (x: Double, y: Double, w: Double)? {
        if determinant == 0 { return nil }
        return (
            point.x * c11 + point.y * c21 + c31,
            point.x * c12 + point.y * c22 + c32,
            point.x * c13 + point.y * c23 + c33
        )
    }

    @inline(__always)
    func unproject(_ point: Point) -> Point? {
        guard let solution = solve(point) else { return nil }
        return Point(x: solution.x / solution.w, y: solution.y / solution.w)
    }

    @inline(__always)
    func unprojectInFrontOfEye(_ point: Point) -> Point? {
        guard let solution = solve(point) else { return nil }
        // (x, y, 1) * H = (det / w) * (px, py, 1): the plane point's W is det / w.
        guard determinant / solution.w > 0 else { return nil }
        return Point(x: solution.x / solution.w, y: solution.y / solution.w)
    }
}
