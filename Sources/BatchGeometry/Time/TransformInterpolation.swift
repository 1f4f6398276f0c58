// Whole-transform interpolation (docs/ANIMATION.md section 7): decompose both matrices
// (CSS Transforms Level 2's 3D decomposition in the row-vector convention), interpolate
// the pieces, slerp the rotation the shorter way, recompose. Operation order as written
// in the contract. The slerp's sines are the package's (`BGSinCosOf`, docs/ANIMATION.md
// section 1), so that the whole-transform lanes (`BGSlerpLanes`) give its bits.

import CAffineKernels

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
        // x + (y − x) · f per number (section 7's mix), lane by lane.
        let (x, y) = (TransformMix.numbers(of: a), TransformMix.numbers(of: b))
        self.init(recomposing: x + (y - x) * f, quaternion: slerp.interpolate(from: a.quaternion, f))
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
        self.init(recomposing: TransformMix.numbers(of: d), quaternion: d.quaternion)
    }

    /// `recompose` of the numbers `TransformMix.numbers(of:)` packs (translation, scale,
    /// shear, perspective) and quaternion `q`, in scalars: the SIMD3 form's operations in
    /// its order (the same bits) without its vector shuffles. O(1).
    @inline(__always)
    init(recomposing v: SIMD16<Double>, quaternion q: SIMD4<Double>) {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        let (r00, r01, r02) = (1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w))
        let (r10, r11, r12) = (2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w))
        let (r20, r21, r22) = (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
        let (kxy, kxz, kyz) = (v[6], v[7], v[8])
        let (sx, sy, sz) = (v[3], v[4], v[5])
        let (m11, m12, m13) = (sx * r00, sx * r01, sx * r02)
        let (m21, m22, m23) = (sy * (kxy * r00 + r10), sy * (kxy * r01 + r11), sy * (kxy * r02 + r12))
        let m31 = sz * ((kxz * r00 + kyz * r10) + r20)
        let m32 = sz * ((kxz * r01 + kyz * r11) + r21)
        let m33 = sz * ((kxz * r02 + kyz * r12) + r22)
        let (tx, ty, tz) = (v[0], v[1], v[2])
        let (px, py, pz, pw) = (v[9], v[10], v[11], v[12])
        var (m14, m24, m34, m44) = (0.0, 0.0, 0.0, pw)
        if px != 0 || py != 0 || pz != 0 {
            m14 = (m11 * px + m12 * py) + m13 * pz
            m24 = (m21 * px + m22 * py) + m23 * pz
            m34 = (m31 * px + m32 * py) + m33 * pz
            m44 = ((tx * px + ty * py) + tz * pz) + pw
        }
        self.init(
            m11: m11, m12: m12, m13: m13, m14: m14, m21: m21, m22: m22, m23: m23, m24: m24,
            m31: m31, m32: m32, m33: m33, m34: m34, m41: tx, m42: ty, m43: tz, m44: m44)
    }
}

/// A whole-transform interpolation between two constant ends (section 7), made once (the
/// lanes' whole-transform groups): the thirteen numbers that mix linearly as start and
/// end − start (`numbers(of:)`'s order), the start's quaternion and the slerp's constants.
/// A sample is then `start + delta · f` (the same operations as `mix`, so the same bits),
/// the slerp's two sines and the recomposition.
struct TransformMix: Sendable {
    var start: SIMD16<Double>
    var delta: SIMD16<Double>
    var quaternion: SIMD4<Double>
    var slerp: PreparedSlerp
    /// False when either end has no decomposition: the nearer end is shown.
    var decomposable: Bool

    init(_ a: DecomposedTransform?, _ b: DecomposedTransform?, slerp: PreparedSlerp) {
        let (x, y) = (a.map(Self.numbers) ?? SIMD16(), b.map(Self.numbers) ?? SIMD16())
        (start, delta, quaternion) = (x, y - x, a?.quaternion ?? SIMD4(0, 0, 0, 1))
        self.slerp = slerp
        decomposable = a != nil && b != nil
    }

    /// Translation (0–2), scale (3–5), shear (6–8) and perspective (9–12) in one vector.
    static func numbers(of d: DecomposedTransform) -> SIMD16<Double> {
        let (t, s, k, p) = (d.translation, d.scale, d.shear, d.perspective)
        return SIMD16(t.x, t.y, t.z, s.x, s.y, s.z, k.x, k.y, k.z, p.x, p.y, p.z, p.w, 0, 0, 0)
    }

    /// The matrix at fraction `f` (0 < f < 1, both ends decomposable).
    @inline(__always)
    func matrix(at f: Double) -> Transform3D { matrix(at: f, rotation: rotation(at: f)) }

    /// The slerped quaternion at `f` (its two sines: the lanes make them in a loop of
    /// their own, so that the recomposing loop makes no call).
    @inline(__always)
    func rotation(at f: Double) -> SIMD4<Double> { slerp.interpolate(from: quaternion, f) }

    /// The matrix at `f` with `rotation(at: f)` made beforehand.
    @inline(__always)
    func matrix(at f: Double, rotation: SIMD4<Double>) -> Transform3D {
        Transform3D(recomposing: start + delta * f, quaternion: rotation)
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
        let wa = BGSinCosOf((1 - f) * theta).sin / sinTheta
        let wb = BGSinCosOf(f * theta).sin / sinTheta
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
