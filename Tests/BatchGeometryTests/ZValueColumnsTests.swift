import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The sparse zPosition and anchorPointZ storage (`ZValueColumns`, issue 22): every value
/// reads back bit for bit through the getters and the public column views, against a
/// plain dictionary of what was set; only layers with a value other than `+0` take an
/// entry; and the world transforms (the plan's finiteness checks included) equal the
/// scalar reference's over random stores with zero, `-0`, large, infinite and NaN values.
final class ZValueColumnsTests: XCTestCase {
    static let specials: [Double] = [0, -0.0, 1, -2.5, 1e300, .infinity, -.infinity, .nan, 0]

    func testValuesReadBackBitForBitAndOnlyNonZeroTakeEntries() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        var layers = [root]
        for k in 0..<300 { layers.append(try store.addLayer(superlayer: layers[k / 4])) }
        XCTAssertTrue(store.columns.zValues.slots.isEmpty, "no entry, no slots")
        XCTAssertEqual(store.columns.zValues.allocatedBytes, 0)
        var expected: [Int: (z: Double, anchorZ: Double)] = [:]
        var random = SystemRandomNumberGenerator()
        for step in 0..<2_000 {
            let k = Int.random(in: 0..<layers.count, using: &random)
            let value = Self.specials.randomElement(using: &random)!
            var entry = expected[k] ?? (0, 0)
            if step % 2 == 0 {
                store.setZPosition(value, of: layers[k])
                entry.z = value
            } else {
                store.setAnchorPointZ(value, of: layers[k])
                entry.anchorZ = value
            }
            expected[k] = entry
        }
        let zs = store.zPositions
        let anchorZs = store.anchorPointZs
        XCTAssertEqual(zs.count, store.count)
        XCTAssertEqual(anchorZs.count, store.count)
        var everNonZero = 0
        for (k, layer) in layers.enumerated() {
            let entry = expected[k] ?? (0, 0)
            assertSameBits(store.zPosition(of: layer), entry.z, "zPosition of \(k)")
            assertSameBits(store.anchorPointZ(of: layer), entry.anchorZ, "anchorPointZ of \(k)")
            assertSameBits(zs[store.slot(of: layer)], entry.z, "zPositions[\(k)]")
            assertSameBits(anchorZs[store.slot(of: layer)], entry.anchorZ, "anchorPointZs[\(k)]")
            if store.columns.zValues.slots[store.slot(of: layer)] >= 0 { everNonZero += 1 }
        }
        XCTAssertLessThanOrEqual(store.columns.zValues.entries.count, 2 * everNonZero)
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// A layer keeps its entry: values going back and forth never grow the table, and a
    /// freed slot comes back with zeros.
    func testEntriesAreKeptAndFreedSlotsReadZero() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let cards = try (0..<64).map { _ in try store.addLayer(superlayer: root) }
        for (k, card) in cards.enumerated() where k % 4 == 0 { store.setZPosition(1, of: card) }
        XCTAssertEqual(store.columns.zValues.entries.count, 2 * 16)
        for round in 0..<10 {
            for (k, card) in cards.enumerated() where k % 4 == 0 { store.setZPosition(Double(round % 3), of: card) }
        }
        XCTAssertEqual(store.columns.zValues.entries.count, 2 * 16)
        store.setAnchorPointZ(-0.0, of: cards[1])
        XCTAssertEqual(store.columns.zValues.entries.count, 2 * 17, "-0 is stored")
        assertSameBits(store.anchorPointZ(of: cards[1]), -0.0)
        store.setZPosition(.nan, of: cards[8])
        XCTAssertEqual(store.columns.zValues.nonFiniteCount, 1)
        try store.destroyLayer(cards[8])
        XCTAssertEqual(store.columns.zValues.nonFiniteCount, 0)
        let reused = try store.addLayer(superlayer: root)
        assertSameBits(store.zPosition(of: reused), 0)
        assertSameBits(store.anchorPointZ(of: reused), 0)
        XCTAssertEqual(store._invariantViolations(), [])
    }

    /// The world transforms from the plan (its common-entry and planar paths skip the
    /// finiteness reads while every z value is finite) equal the 4×4 reference's, bit for
    /// bit, before and after non-finite values come and go.
    func testWorldTransformsMatchTheReferenceWithSparseZ() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<6 {
            var store = LayerStore()
            let root = try store.addLayer()
            var layers = [root]
            for k in 0..<200 {
                let layer = try store.addLayer(superlayer: layers[Int.random(in: 0...k, using: &random)])
                store.setBounds(Rect(x: 0, y: 0, width: 10, height: 20), of: layer)
                store.setPosition(Point(x: Double(k), y: Double(k % 7)), of: layer)
                layers.append(layer)
            }
            for _ in 0..<3 {
                for _ in 0..<20 {
                    let layer = layers.randomElement(using: &random)!
                    let value = Self.specials.randomElement(using: &random)!
                    if Bool.random(using: &random) {
                        store.setZPosition(value, of: layer)
                    } else {
                        store.setAnchorPointZ(value, of: layer)
                    }
                }
                let world = store.updateWorld()
                let reference = store.referenceWorldTransforms()
                for layer in layers {
                    let (a, b) = (world[layer].rowMajor, reference[layer].rowMajor)
                    XCTAssertTrue(
                        zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) },
                        "world of \(layer): \(a) vs \(b)")
                }
                XCTAssertEqual(store._invariantViolations(), [])
            }
        }
    }
}
