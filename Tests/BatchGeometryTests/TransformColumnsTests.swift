import XCTest

@testable import BatchGeometry

/// `TransformColumns`' side table: each layer reads back exactly what was stored (signed
/// zeros included), and only the layers that need an entry have one.
final class TransformColumnsTests: XCTestCase {
    private func assertSameBits(_ a: Transform3D, _ b: Transform3D, _ label: String, line: UInt = #line) {
        XCTAssertEqual(a.rowMajor.map(\.bitPattern), b.rowMajor.map(\.bitPattern), label, line: line)
    }

    private var samples: [Transform3D] {
        var negativeZero = Transform3D.identity
        negativeZero.m13 = -0.0
        negativeZero.m41 = -0.0
        return [
            .identity, .perspective(distance: 500), .rotation(radians: 0.3, x: 1, y: 0, z: 0),
            Transform3D(AffineTransform(a: 2, b: 0.5, c: -1, d: 3, tx: 7, ty: -8)), negativeZero,
            .translation(x: 1, y: 2, z: 3),
        ]
    }

    /// Every sample, set on one layer of ten and then another, reads back bit for bit, in
    /// both layouts, and the other layers stay identity.
    func testEveryLayerReadsBackWhatWasStored() {
        for denseAffine in [true, false] {
            var columns = TransformColumns(count: 0, denseAffine: denseAffine)
            for _ in 0..<10 { columns.appendIdentity() }
            for (k, sample) in samples.enumerated() {
                columns.set(sample, at: 3)
                columns.set(samples[(k + 1) % samples.count], at: 7)
                assertSameBits(columns[3], sample, "dense \(denseAffine), sample \(k)")
                assertSameBits(columns[7], samples[(k + 1) % samples.count], "dense \(denseAffine), next \(k)")
                XCTAssertEqual(columns.affine(at: 3), sample.affinePart, "dense \(denseAffine), sample \(k)")
                XCTAssertEqual(columns.kind(at: 3), sample.kind)
                for layer in [0, 5, 9] { assertSameBits(columns[layer], .identity, "untouched \(layer)") }
            }
            columns.appendIdentity()
            assertSameBits(columns[10], .identity, "appended")
        }
    }

    /// Only layers whose matrix needs the table get an entry, and a layer keeps its
    /// entry when it turns back (the table does not grow on a 3D ↔ affine round trip).
    func testOnlyLayersThatNeedTheTableHaveAnEntry() {
        var transforms = TransformColumns(count: 1000, denseAffine: true)
        transforms.set(Transform3D(AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 5, ty: 5)), at: 10)
        XCTAssertTrue(transforms.entries.isEmpty, "an affine transform needs no entry")
        for _ in 0..<3 {
            transforms.set(.perspective(distance: 300), at: 10)
            transforms.set(.identity, at: 10)
        }
        transforms.set(.rotation(radians: 1, x: 0, y: 1, z: 0), at: 20)
        XCTAssertEqual(transforms.entries.count, 2 * 10)
        XCTAssertEqual(transforms.entrySlots.count, 1000)
        var sublayerTransforms = TransformColumns(count: 1000, denseAffine: false)
        sublayerTransforms.set(.identity, at: 4)
        XCTAssertFalse(sublayerTransforms.isMaterialized)
        sublayerTransforms.set(.scale(x: 2, y: 2, z: 1), at: 4)
        XCTAssertEqual(sublayerTransforms.entries.count, 16)
        XCTAssertTrue(sublayerTransforms.a.isEmpty, "the sparse layout keeps no affine columns")
        XCTAssertEqual(sublayerTransforms.affine(at: 4), AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))
    }
}
