import Foundation
import XCTest

@testable import BatchGeometry

/// docs/ANIMATION.md sections 5.4 (a spring in an animation), 6 (keyframes), 7 (whole
/// transforms), 8 (value functions) and 9 (the additive stack): values the spec quotes
/// from macOS measurements, or computed independently here.
final class AnimationValueTests: XCTestCase {
    /// Section 5.4, measured: the default spring cut at 0.5 s shows 34.03 at 0.1 s and
    /// 108.34 at 0.49 s of a 0 → 100 move; the progress is `f32(x(λ))`.
    func testSpringRunsInSecondsOfLocalTime() throws {
        var bench = try AnimationBench()
        let spring = Spring()
        var animation = Animation(keyPath: .positionX, content: .spring(spring, from: [0], to: [100], by: nil))
        animation.timing.duration = 0.5
        try bench.add(animation)
        let early = try bench.sample(0.1).position.x
        XCTAssertEqual(early, 0 + 100 * Double(Float(spring.value(at: 0.1))))
        XCTAssertEqual(early, 34.03, accuracy: 0.005)
        XCTAssertEqual(try bench.sample(0.49).position.x, 108.34, accuracy: 0.005)
    }

    /// Section 8, measured: `transform.scale` 1 → 3 shows m11 = m22 = 2 half way, and
    /// `transform.rotation.z` 0 → 1 shows m12 = sin 0.5.
    func testValueFunctions() throws {
        var scale = try AnimationBench()
        try scale.add(basic(.transformScale, from: [1], to: [3]))
        let scaled = try scale.sample(0.5).transform
        XCTAssertEqual([scaled.m11, scaled.m22, scaled.m33, scaled.m44], [2, 2, 2, 1])

        var rotation = try AnimationBench()
        try rotation.add(basic(.transformRotationZ, from: [0], to: [1]))
        let rotated = try rotation.sample(0.5).transform
        XCTAssertEqual(rotated.m12, sin(0.5))
        XCTAssertEqual(rotated.m21, -sin(0.5))
    }

    /// Section 8's table: the value-function paths are exactly the `transform.` sub-paths,
    /// and the arities are the table's.
    func testKeyPathTable() {
        for keyPath in AnimationKeyPath.allCases {
            XCTAssertEqual(keyPath.isValueFunction, keyPath.rawValue.hasPrefix("transform."), keyPath.rawValue)
        }
        let arities = AnimationKeyPath.allCases.map { "\($0.rawValue) \($0.arity)" }
        XCTAssertTrue(arities.contains("bounds 4"))
        XCTAssertTrue(arities.contains("transform.translation 2"))
        XCTAssertTrue(arities.contains("sublayerTransform 16"))
        XCTAssertTrue(arities.contains("opacity 1"))
    }

    /// Section 9: non-additive value functions replace the transform; additive ones put
    /// `C(v)` first: `Concat(C(v), U)`.
    func testAdditiveValueFunctionConcatenatesFirst() throws {
        var bench = try AnimationBench()
        let model = Transform3D.translation(x: 10, y: 0)
        bench.model.setTransform(model, of: bench.layer)
        try bench.add(basic(.transformScale, from: [2], to: [2]) { $0.isAdditive = true })
        XCTAssertEqual(try bench.sample(0.5).transform, Transform3D.scale(x: 2, y: 2, z: 2).concatenating(model))
        var replacing = try AnimationBench()
        replacing.model.setTransform(model, of: replacing.layer)
        try replacing.add(basic(.transformTranslationY, from: [4], to: [4]))
        XCTAssertEqual(try replacing.sample(0.5).transform, Transform3D.translation(x: 0, y: 4))
    }

    /// Section 9: additive animations add in the order added; a later non-additive one
    /// replaces only its own component.
    func testStackOrder() throws {
        var bench = try AnimationBench()
        bench.model.setPosition(Point(x: 100, y: 200), of: bench.layer)
        try bench.add(basic(.position, from: [-50, 10], to: [0, 0]) { $0.isAdditive = true })
        try bench.add(basic(.positionY, from: [7], to: [7]))
        try bench.add(basic(.position, from: [1, 1], to: [1, 1]) { $0.isAdditive = true })
        let shown = try bench.sample(0.5)
        XCTAssertEqual(shown.position, Point(x: (100 + (-50 + 50 * 0.5)) + 1, y: 7 + 1))
    }

    /// Section 6: default key times (j/(n−1); j/n for discrete), paced key times from the
    /// distances, segment timing functions, and cubic Hermite values computed by hand.
    func testKeyframeModes() throws {
        func keyframes(_ values: [Double], _ mode: CalculationMode, keyTimes: [Double]? = nil) -> Animation {
            var animation = Animation(
                keyPath: .positionX,
                content: .keyframe(
                    Keyframes(values: values.map { [$0] }, keyTimes: keyTimes, calculationMode: mode)))
            animation.timing.duration = 1
            return animation
        }
        func shown(_ animation: Animation, at u: Double) throws -> Double {
            var bench = try AnimationBench()
            try bench.add(animation)
            return try bench.sample(u).position.x
        }
        // Discrete: each of 3 values for a third of the time.
        XCTAssertEqual(try shown(keyframes([5, 6, 7], .discrete), at: 0.3), 5)
        XCTAssertEqual(try shown(keyframes([5, 6, 7], .discrete), at: 0.34), 6)
        XCTAssertEqual(try shown(keyframes([5, 6, 7], .discrete), at: 0.7), 7)
        // Linear, even: 0 → 10 → 30 at 0, 0.5, 1.
        XCTAssertEqual(try shown(keyframes([0, 10, 30], .linear), at: 0.75), 10 + 20 * 0.5)
        // Paced: lengths 10 and 20, key times 0, 1/3, 1: at 0.5 a quarter of segment 1.
        let paced = 10 + (30 - 10) * ((0.5 - 10.0 / 30.0) / (1 - 10.0 / 30.0))
        XCTAssertEqual(try shown(keyframes([0, 10, 30], .paced), at: 0.5), paced, accuracy: 1e-12)
        // Cubic 0, 30, 0 at 0, 0.5, 1: at u = 0.25, σ = 0.5, out_0 = 30, in_1 = 0:
        // h10·30 + h01·30 = 0.125·30 + 0.5·30.
        XCTAssertEqual(try shown(keyframes([0, 30, 0], .cubic), at: 0.25), 0.125 * 30 + 0.5 * 30)
        // A segment timing function maps the segment's progress.
        var eased = keyframes([0, 100], .linear)
        eased.content = .keyframe(Keyframes(values: [[0], [100]], timingFunctions: [TimingFunction(.easeIn)]))
        XCTAssertEqual(try shown(eased, at: 0.5), 100 * Double(TimingFunction(.easeIn).value(at: 0.5)))
    }

    /// Section 7, measured on macOS: 170° about z a quarter of the way is 42.5°, 270° is
    /// taken as −90° (so −22.5°), 1.2 rad about y is 0.3 rad, and scale and rotation
    /// interpolate separately.
    func testWholeTransformInterpolation() {
        func zAngle(_ m: Transform3D) -> Double { atan2(m.m12, m.m11) }
        let degree = Double.pi / 180
        let quarter170 = Transform3D.identity.interpolated(
            to: .rotation(radians: 170 * degree, x: 0, y: 0, z: 1), fraction: 0.25)
        XCTAssertEqual(zAngle(quarter170) / degree, 42.5, accuracy: 1e-9)
        let quarter270 = Transform3D.identity.interpolated(
            to: .rotation(radians: 270 * degree, x: 0, y: 0, z: 1), fraction: 0.25)
        XCTAssertEqual(zAngle(quarter270) / degree, -22.5, accuracy: 1e-9)
        let aboutY = Transform3D.identity.interpolated(to: .rotation(radians: 1.2, x: 0, y: 1, z: 0), fraction: 0.25)
        XCTAssertEqual(atan2(-aboutY.m13, aboutY.m11), 0.3, accuracy: 1e-9)
        let target = Transform3D.scale(x: 3, y: 3).concatenating(.rotation(radians: 90 * degree, x: 0, y: 0, z: 1))
        let half = Transform3D.identity.interpolated(to: target, fraction: 0.5)
        XCTAssertEqual(hypot(half.m11, half.m12), 2, accuracy: 1e-12)
        XCTAssertEqual(zAngle(half) / degree, 45, accuracy: 1e-9)
    }

    /// Section 7: recompose(decompose(M)) gives M back (to rounding), perspective and
    /// shear included; the ends are exact; an undecomposable matrix snaps to the nearer end.
    func testDecompositionRoundTrip() throws {
        var m = Transform3D.rotation(radians: 0.7, x: 1, y: 2, z: 3).concatenating(.scale(x: 1.5, y: 0.5, z: 2))
        m.m21 += 0.3  // shear
        m.m14 = 0.001
        m.m34 = -0.002
        m.m41 = 12
        m.m42 = -7
        let d = try XCTUnwrap(m.decomposed())
        let back = Transform3D(recomposing: d)
        for (x, y) in zip(back.rowMajor, m.rowMajor) { XCTAssertEqual(x, y, accuracy: 1e-12) }
        XCTAssertEqual(m.interpolated(to: .identity, fraction: 0), m)
        XCTAssertEqual(m.interpolated(to: .identity, fraction: 1), .identity)
        let singular = Transform3D.scale(x: 0, y: 1)
        XCTAssertEqual(singular.interpolated(to: m, fraction: 0.4), singular)
        XCTAssertEqual(singular.interpolated(to: m, fraction: 0.6), m)
    }
}
