import CAffineKernels
import XCTest

@testable import BatchGeometry

/// The whole-transform lanes' C write (`BGTransformLanesWrite` through
/// `LaneGroup.writeTransforms`) on every instruction set this CPU runs, against the Swift
/// scalar path bit for bit: `Transform3D.interpolated(to:fraction:)` (held to
/// docs/ANIMATION.md section 7's transcription by TransformMixTests) and
/// `TransformMix.matrix(at:)`, on random pairs (perspective, shear, left-handed bases,
/// ends without a decomposition), fractions 0, 1, inside and outside [0, 1], groups of 1
/// to 23 members (whole blocks of four and a partial one) written to scattered entries.
final class TransformLaneKernelTests: XCTestCase {
    private func randomMatrix(_ random: inout SplitMix64) -> Transform3D {
        func unit() -> Double { random.value(in: -1...1) }
        switch random.below(12) {
        case 0: return .identity
        case 1: return .scale(x: 0, y: 1)  // singular: no decomposition
        case 2:
            var m = Transform3D.translation(x: unit(), y: unit())
            m.m44 = 0  // no decomposition
            return m
        default: break
        }
        var m = Transform3D.rotation(radians: 3 * unit(), x: unit(), y: unit(), z: unit() + 1.5)
            .concatenating(.scale(x: 2 * unit(), y: 1 + unit(), z: random.below(3) == 0 ? -1 : 0.5 + unit()))
        m.m21 += 0.4 * unit()
        m.m32 += 0.4 * unit()
        (m.m41, m.m42, m.m43) = (100 * unit(), 100 * unit(), 10 * unit())
        if random.below(2) == 0 { (m.m14, m.m24, m.m34) = (0.002 * unit(), 0.002 * unit(), -0.002 * unit()) }
        if random.below(8) == 0 { m.m44 = 1 + unit() }
        return m
    }

    private func fraction(_ random: inout SplitMix64) -> Double {
        switch random.below(8) {
        case 0: return 0
        case 1: return 1
        case 2: return random.value(in: -0.5...1.5)
        case 3: return [1e-9, 0.999_999, 0.5, -1e-300][random.below(4)]
        default: return random.value(in: 0...1)
        }
    }

    /// `Transform3D` is sixteen doubles, row-major, as the C write takes it
    /// (`RawColumn<Transform3D>.elements`).
    func testTransformIsSixteenDoublesRowMajor() {
        XCTAssertEqual(MemoryLayout<Transform3D>.size, 128)
        XCTAssertEqual(MemoryLayout<Transform3D>.stride, 128)
        XCTAssertEqual(MemoryLayout<Transform3D>.offset(of: \.m12), 8)
        XCTAssertEqual(MemoryLayout<Transform3D>.offset(of: \.m21), 32)
        XCTAssertEqual(MemoryLayout<Transform3D>.offset(of: \.m44), 120)
    }

    func testWriteEqualsTheScalarPathOnEveryInstructionSet() {
        defer { _ = BGKernelSetBackend("auto") }
        let sets = TimingSolveKernelTests.instructionSets
        XCTAssertTrue(sets.contains("portable"))
        let sentinel = Transform3D.translation(x: 7, y: 7)
        var compared = 0
        for name in sets {
            XCTAssertEqual(BGKernelSetBackend(name), 1)
            var random = SplitMix64(seed: 2323)
            for round in 0..<400 {
                let count = 1 + random.below(23)
                var group = LaneGroup(curve: .timingFunction, keyPath: .transform, additive: false, cumulative: false)
                var ends: [Transform3D] = []
                for m in 0..<count {
                    let (a, b) = (randomMatrix(&random), randomMatrix(&random))
                    let (da, db) = (a.decomposed(), b.decomposed())
                    let identity = SIMD4<Double>(0, 0, 0, 1)
                    let slerp = PreparedSlerp(da?.quaternion ?? identity, db?.quaternion ?? identity)
                    group.appendTransformMix(TransformMix(da, db, slerp: slerp))
                    group.numbers.append(Int32(m))
                    group.ends.append(Int32(2 * m))
                    group.progress.append(fraction(&random))
                    ends += [a, b]
                }
                // Scattered entries: a permutation of 0 ..< count + 5, the rest untouched.
                let entries = (0..<(count + 5)).shuffled(using: &random).prefix(count).map { Int32($0) }
                group.entries = entries
                XCTAssertEqual(group.count, count)
                group.slerpRotations()
                var out = [Transform3D](repeating: sentinel, count: count + 5)
                withRawColumn(&out) { group.writeTransforms(endMatrices: ends, into: $0) }
                var expected = [Transform3D](repeating: sentinel, count: count + 5)
                for m in 0..<count {
                    let (a, b, f) = (ends[2 * m], ends[2 * m + 1], group.progress[m])
                    let value = a.interpolated(to: b, fraction: f)
                    let mix = group.transformMixes[m]
                    if f != 0 && f != 1 && mix.decomposable {
                        XCTAssertEqual(value.rowMajor.map(\.bitPattern), mix.matrix(at: f).rowMajor.map(\.bitPattern))
                    }
                    expected[Int(entries[m])] = value
                }
                for e in 0..<out.count {
                    XCTAssertEqual(
                        out[e].rowMajor.map(\.bitPattern), expected[e].rowMajor.map(\.bitPattern),
                        "\(name) round \(round) entry \(e)")
                }
                compared += count
            }
        }
        XCTAssertGreaterThan(compared, 4000 * sets.count / 2)
    }
}
