import CAffineKernels
import Foundation
import XCTest

@testable import BatchGeometry

/// docs/ANIMATION.md section 7's mix, slerp and recompose, written here step by step on
/// SIMD3 rows in the contract's order (independently of the library's scalar form), held
/// bit for bit against `Transform3D(interpolating:_:fraction:)`, `Transform3D(recomposing:)`
/// and the lanes' `TransformMix` on random decomposable matrices: perspective, shear,
/// left-handed bases, fractions inside and outside [0, 1].
final class TransformMixTests: XCTestCase {
    /// Section 7's recompose, row by row.
    private func recomposed(_ d: DecomposedTransform) -> [Double] {
        let (x, y, z, w) = (d.quaternion.x, d.quaternion.y, d.quaternion.z, d.quaternion.w)
        let rot0 = SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w))
        let rot1 = SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w))
        let rot2 = SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
        let k = d.shear
        let row0 = d.scale.x * rot0
        let row1 = d.scale.y * (k.x * rot0 + rot1)
        let row2 = d.scale.z * ((k.y * rot0 + k.z * rot1) + rot2)
        let (t, p) = (d.translation, d.perspective)
        var last = SIMD4<Double>(0, 0, 0, p.w)
        if p.x != 0 || p.y != 0 || p.z != 0 {
            func m4(_ r: SIMD3<Double>) -> Double { (r.x * p.x + r.y * p.y) + r.z * p.z }
            last = SIMD4(m4(row0), m4(row1), m4(row2), ((t.x * p.x + t.y * p.y) + t.z * p.z) + p.w)
        }
        return [row0.x, row0.y, row0.z, last.x, row1.x, row1.y, row1.z, last.y]
            + [row2.x, row2.y, row2.z, last.z, t.x, t.y, t.z, last.w]
    }

    /// Section 7's interpolation of two decompositions: x + (y − x)·f per number, the
    /// slerp the shorter way, then `recomposed`.
    private func interpolated(_ a: DecomposedTransform, _ b: DecomposedTransform, _ f: Double) -> [Double] {
        func mix<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar == Double {
            var r = x
            for i in x.indices { r[i] = x[i] + (y[i] - x[i]) * f }
            return r
        }
        var q = b.quaternion
        let qa = a.quaternion
        var dot = ((qa.x * q.x + qa.y * q.y) + qa.z * q.z) + qa.w * q.w
        if dot < 0 {
            q = -q
            dot = -dot
        }
        var rotation = qa
        if dot < 1 {
            let theta = acos(dot)
            let sinTheta = sqrt(1 - dot * dot)
            // The package's sin (BGSinCosOf, docs/ANIMATION.md section 1), as the lanes'.
            let wa = BGSinCosOf((1 - f) * theta).sin / sinTheta
            let wb = BGSinCosOf(f * theta).sin / sinTheta
            rotation = SIMD4(qa.x * wa + q.x * wb, qa.y * wa + q.y * wb, qa.z * wa + q.z * wb, qa.w * wa + q.w * wb)
        }
        return recomposed(
            DecomposedTransform(
                translation: mix(a.translation, b.translation), scale: mix(a.scale, b.scale),
                shear: mix(a.shear, b.shear), perspective: mix(a.perspective, b.perspective), quaternion: rotation))
    }

    private func randomMatrix(_ random: inout SystemRandomNumberGenerator, perspective: Bool) -> Transform3D {
        func unit() -> Double { Double.random(in: -1...1, using: &random) }
        var m = Transform3D.rotation(radians: 3 * unit(), x: unit(), y: unit(), z: unit() + 1.5)
            .concatenating(.scale(x: 2 * unit(), y: 1 + unit(), z: 0.5 + unit()))
        m.m21 += 0.4 * unit()
        m.m32 += 0.4 * unit()
        (m.m41, m.m42, m.m43) = (100 * unit(), 100 * unit(), 10 * unit())
        if perspective { (m.m14, m.m24, m.m34) = (0.002 * unit(), 0.002 * unit(), -0.002 * unit()) }
        return m
    }

    func testScalarRecomposeKeepsSectionSevensBits() throws {
        var random = SystemRandomNumberGenerator()
        var checked = 0
        for trial in 0..<2000 {
            let a = trial % 3 == 0 ? Transform3D.identity : randomMatrix(&random, perspective: trial % 2 == 0)
            let b = randomMatrix(&random, perspective: trial % 5 == 0)
            guard let da = a.decomposed(), let db = b.decomposed() else { continue }
            XCTAssertEqual(Transform3D(recomposing: da).rowMajor.map(\.bitPattern), recomposed(da).map(\.bitPattern))
            let mix = TransformMix(da, db, slerp: PreparedSlerp(da.quaternion, db.quaternion))
            XCTAssertTrue(mix.decomposable)
            for f in [Double.random(in: 0...1, using: &random), 0.5, 1e-9, 0.999_999, -0.2, 1.3] {
                let expected = interpolated(da, db, f).map(\.bitPattern)
                XCTAssertEqual(Transform3D(interpolating: da, db, fraction: f).rowMajor.map(\.bitPattern), expected)
                XCTAssertEqual(mix.matrix(at: f).rowMajor.map(\.bitPattern), expected, "trial \(trial), f \(f)")
                XCTAssertEqual(a.interpolated(to: b, fraction: f).rowMajor.map(\.bitPattern), expected)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
    }

    /// An end without a decomposition: the mix says so (the lanes show the nearer end).
    func testUndecomposableEndIsMarked() throws {
        let d = try XCTUnwrap(Transform3D.identity.decomposed())
        let slerp = PreparedSlerp(d.quaternion, d.quaternion)
        XCTAssertFalse(TransformMix(d, Transform3D.scale(x: 0, y: 1).decomposed(), slerp: slerp).decomposable)
        XCTAssertFalse(TransformMix(nil, d, slerp: slerp).decomposable)
    }
}
