// Whole-transform interpolation (docs/ANIMATION.md section 7): decompose both matrices
// (CSS Transforms Level 2's 3D decomposition in the row-vector convention), interpolate
// the pieces, slerp the rotation the shorter way, recompose. Operation order as written
// in the contract.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A transform taken apart (section 7): translation, scale, shear (xy, xz, yz),
/// perspective and a rotation quaternion (x, y, z, w).
struct DecomposedTransform: Equatable, Sendable {
    var translation: SIMD3<Double>
    var scale: SIMD3<Double>
    var shear: SIMD3<Double>
    var perspective: SIMD4<Double>
    var quaternion: SIMD4<Double>
}

extension Transform3D {
    /// The interpolation between `self` (f = 0) and `other` (f = 1) by decomposition
    /// (docs/ANIMATION.md section 7): exact ends; when either matrix cannot be decomposed
    /// (m44 = 0, a non-finite element, a singular upper 3×3) the nearer end. O(1), no
    /// allocation.
    public func interpolated(to other: Transform3D, fraction f: Double) -> Transform3D {
        if f == 0 { return self }
        if f == 1 { return other }
        guard let a = decomposed(), let b = other.decomposed() else { return f < 0.5 ? self : other }
        return Transform3D(interpolating: a, b, fraction: f)
    }

    /// The pieces mixed at `f` (slerp for the rotation), recomposed: `interpolated`
    /// between its ends once both are decomposed (the animation store decomposes
    /// constant ends once, when the animation is added).
    init(interpolating a: DecomposedTransform, _ b: DecomposedTransform, fraction f: Double) {
        self.init(interpolating: a, b, fraction: f, slerp: PreparedSlerp(a.quaternion, b.quaternion))
    }

    /// `init(interpolating:_:fraction:)` with the slerp's constants made beforehand
    /// (`PreparedSlerp(a.quaternion, b.quaternion)`); the same bits.
    init(interpolating a: DecomposedTransform, _ b: DecomposedTransform, fraction f: Double, slerp: PreparedSlerp) {
        func mix<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar == Double {
            var result = x
            for i in x.indices { result[i] = x[i] + (y[i] - x[i]) * f }
            return result
        }
        self.init(
            recomposing: DecomposedTransform(
                translation: mix(a.translation, b.translation), scale: mix(a.scale, b.scale),
                shear: mix(a.shear, b.shear), perspective: mix(a.perspective, b.perspective),
                quaternion: slerp.interpolate(from: a.quaternion, f)))
    }

    /// The decomposition of section 7, or nil when there is none. O(1).
    func decomposed() -> DecomposedTransform? {
        // SIMD16 keeps the 16 elements on the stack: decomposing allocates nothing.
        var e = SIMD16<Double>(
            m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44)
        guard m44 != 0 else { return nil }
        for i in 0..<16 where !e[i].isFinite { return nil }
        if m44 != 1 {
            let w = m44
            for i in 0..<16 { e[i] = e[i] / w }
        }
        var r0 = SIMD3(e[0], e[1], e[2])
        var r1 = SIMD3(e[4], e[5], e[6])
        var r2 = SIMD3(e[8], e[9], e[10])
        let det = determinant3(r0, r1, r2)
        guard det != 0 else { return nil }
        var perspective = SIMD4<Double>(0, 0, 0, 1)
        if e[3] != 0 || e[7] != 0 || e[11] != 0 {
            let column = SIMD3(e[3], e[7], e[11])
            let p0 = determinant3(replacing: 0, of: (r0, r1, r2), with: column) / det
            let p1 = determinant3(replacing: 1, of: (r0, r1, r2), with: column) / det
            let p2 = determinant3(replacing: 2, of: (r0, r1, r2), with: column) / det
            perspective = SIMD4(p0, p1, p2, e[15] - ((e[12] * p0 + e[13] * p1) + e[14] * p2))
        }
        let translation = SIMD3(e[12], e[13], e[14])
        var scale = SIMD3<Double>(0, 0, 0)
        scale.x = length3(r0)
        r0 = r0 / scale.x
        var kxy = dot3(r0, r1)
        r1 = SIMD3(r1.x - kxy * r0.x, r1.y - kxy * r0.y, r1.z - kxy * r0.z)
        scale.y = length3(r1)
        r1 = r1 / scale.y
        kxy = kxy / scale.y
        var kxz = dot3(r0, r2)
        r2 = SIMD3(r2.x - kxz * r0.x, r2.y - kxz * r0.y, r2.z - kxz * r0.z)
        var kyz = dot3(r1, r2)
        r2 = SIMD3(r2.x - kyz * r1.x, r2.y - kyz * r1.y, r2.z - kyz * r1.z)
        scale.z = length3(r2)
        r2 = r2 / scale.z
        kxz = kxz / scale.z
        kyz = kyz / scale.z
        if dot3(r0, cross3(r1, r2)) < 0 {
            scale = -scale
            (r0, r1, r2) = (-r0, -r1, -r2)
        }
        return DecomposedTransform(
            translation: translation, scale: scale, shear: SIMD3(kxy, kxz, kyz), perspective: perspective,
            quaternion: quaternion(r0, r1, r2))
    }

    /// The matrix of a decomposition (section 7's `recompose`). O(1).
    init(recomposing d: DecomposedTransform) {
        let (x, y, z, w) = (d.quaternion.x, d.quaternion.y, d.quaternion.z, d.quaternion.w)
        let rot0 = SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w))
        let rot1 = SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w))
        let rot2 = SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
        let (kxy, kxz, kyz) = (d.shear.x, d.shear.y, d.shear.z)
        var row0 = rot0
        var row1 = SIMD3(kxy * rot0.x + rot1.x, kxy * rot0.y + rot1.y, kxy * rot0.z + rot1.z)
        var row2 = SIMD3(
            (kxz * rot0.x + kyz * rot1.x) + rot2.x, (kxz * rot0.y + kyz * rot1.y) + rot2.y,
            (kxz * rot0.z + kyz * rot1.z) + rot2.z)
        row0 = d.scale.x * row0
        row1 = d.scale.y * row1
        row2 = d.scale.z * row2
        let t = d.translation
        let p = d.perspective
        var last = SIMD4<Double>(0, 0, 0, p.w)
        if p.x != 0 || p.y != 0 || p.z != 0 {
            func m4(_ row: SIMD3<Double>) -> Double { (row.x * p.x + row.y * p.y) + row.z * p.z }
            last = SIMD4(m4(row0), m4(row1), m4(row2), ((t.x * p.x + t.y * p.y) + t.z * p.z) + p.w)
        }
        self.init(
            m11: row0.x, m12: row0.y, m13: row0.z, m14: last.x,
            m21: row1.x, m22: row1.y, m23: row1.z, m24: last.y,
            m31: row2.x, m32: row2.y, m33: row2.z, m34: last.z,
            m41: t.x, m42: t.y, m43: t.z, m44: last.w)
    }
}

/// The rotation quaternion of an orthonormal row basis (section 7).
private func quaternion(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) -> SIMD4<Double> {
    var qx = 0.5 * sqrt(Swift.max(((1 + r0.x) - r1.y) - r2.z, 0))
    var qy = 0.5 * sqrt(Swift.max(((1 - r0.x) + r1.y) - r2.z, 0))
    var qz = 0.5 * sqrt(Swift.max(((1 - r0.x) - r1.y) + r2.z, 0))
    let qw = 0.5 * sqrt(Swift.max(((1 + r0.x) + r1.y) + r2.z, 0))
    if r2.y > r1.z { qx = -qx }
    if r0.z > r2.x { qy = -qy }
    if r1.x > r0.y { qz = -qz }
    return SIMD4(qx, qy, qz, qw)
}

/// Spherical interpolation the shorter way (section 7's `slerp`).
func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ f: Double) -> SIMD4<Double> {
    PreparedSlerp(a, b).interpolate(from: a, f)
}

/// What a slerp between two fixed quaternions computes before the fraction: the far end
/// turned the shorter way, the angle and its sine (an `acos` and a square root), made
/// once when both ends are constant. `interpolate` then does the rest of `slerp`'s
/// operations in its order, so the bits are the same.
struct PreparedSlerp: Sendable {
    /// The far end, negated when the dot product was negative.
    var b: SIMD4<Double>
    var theta: Double
    var sinTheta: Double
    /// The dot product is ≥ 1: the slerp returns the start.
    var returnsStart: Bool

    init(_ a: SIMD4<Double>, _ bIn: SIMD4<Double>) {
        var b = bIn
        var d = ((a.x * b.x + a.y * b.y) + a.z * b.z) + a.w * b.w
        if d < 0 {
            b = -b
            d = -d
        }
        self.b = b
        returnsStart = d >= 1
        theta = returnsStart ? 0 : acos(d)
        sinTheta = returnsStart ? 0 : sqrt(1 - d * d)
    }

    /// The slerp from `a` (the start this was made with) at fraction `f`.
    @inline(__always)
    func interpolate(from a: SIMD4<Double>, _ f: Double) -> SIMD4<Double> {
        if returnsStart { return a }
        let wa = sin((1 - f) * theta) / sinTheta
        let wb = sin(f * theta) / sinTheta
        return SIMD4(a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb)
    }
}

@inline(__always)
private func dot3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a.x * b.x + a.y * b.y) + a.z * b.z }

@inline(__always)
private func length3(_ v: SIMD3<Double>) -> Double { sqrt((v.x * v.x + v.y * v.y) + v.z * v.z) }

@inline(__always)
private func cross3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// det3 of the rows, in section 7's order.
private func determinant3(_ a0: SIMD3<Double>, _ a1: SIMD3<Double>, _ a2: SIMD3<Double>) -> Double {
    a0.x * (a1.y * a2.z - a1.z * a2.y) - a0.y * (a1.x * a2.z - a1.z * a2.x) + a0.z * (a1.x * a2.y - a1.y * a2.x)
}

/// det3 with column `j` replaced by `column` (Cramer's rule).
private func determinant3(
    replacing j: Int, of rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>), with column: SIMD3<Double>
) -> Double {
    var (a0, a1, a2) = rows
    a0[j] = column.x
    a1[j] = column.y
    a2[j] = column.z
    return determinant3(a0, a1, a2)
}
