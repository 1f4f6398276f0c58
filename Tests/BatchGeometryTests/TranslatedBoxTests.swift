import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The subtree bounds' shortcut for translated layers (`translatedBox`, and
/// `computedExtent`'s translation) gives the general path's values bit for bit: the boxes a
/// refresh writes are the ones `mappedBox` of the planar local transform gives.
final class TranslatedBoxTests: XCTestCase {
    func testTranslatedBoxIsTheGeneralMapsBitForBit() {
        let values: [Double] = [0, -0.0, 1, -1, 0.5, -3.25, 1e-300, -1e300, 123_456.789, .ulpOfOne, -7e15]
        var checked = 0
        for x0 in values {
            for y0 in values.reversed() {
                for (x1, y1) in [(x0 + 10, y0 + 4), (x0, y0), (-x0, 2 * y0)] {
                    for (tx, ty) in [(0.0, 0.0), (-0.0, -0.0), (-x0, -y0), (5.5, -1e300), (1e308, 1e308)] {
                        let box = RectEdges(minX: x0, minY: y0, maxX: x1, maxY: y1)
                        let map = PlaneMap(AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty))
                        let general = mappedBox(box, through: map)
                        let shortcut = translatedBox(box, by: (tx, ty))
                        XCTAssertEqual(bits(shortcut), bits(general), "box \(box), shift (\(tx), \(ty))")
                        checked += 1
                    }
                }
            }
        }
        XCTAssertEqual(
            bits(translatedBox(.null, by: (1, 2))), bits(mappedBox(.null, through: PlaneMap(AffineTransform.identity))))
        XCTAssertGreaterThan(checked, 1_000)
    }

    /// Random trees, some layers given translations (one with -0 entries) and positions
    /// of -0: every translated layer's extent is `mappedBox` of its own box and content
    /// through the planar local transform, computed here by the general path.
    func testRefreshedExtentsOfTranslatedLayersAreTheGeneralPaths() {
        var checked = 0
        for seed: UInt64 in 1...6 {
            var store = FrameQueryTests.makeStore(seed: seed)
            store.warmUp()
            var random = SplitMix64(seed: seed &+ 99)
            for layer in stride(from: Int(seed % 3), to: store.count, by: 5) where store.isLiveSlot(layer) {
                switch random.next() % 4 {
                case 0: store.setAffineTransform(.translation(x: Double(random.next() % 9) - 4, y: 0.5), of: layer)
                case 1: store.setAffineTransform(AffineTransform(a: 1, b: -0.0, c: 0, d: 1, tx: 3, ty: -0.0), of: layer)
                case 2: store.setPosition(Point(x: -0.0, y: -0.0), of: layer)
                default: store.setBounds(Rect(-0.0, 0, 0, -0.0), of: layer)
                }
            }
            store.refreshSubtreeBoundsFully()
            for layer in 0..<store.count where store.isLiveSlot(layer) {
                guard let expected = generalExtent(of: layer, in: store) else { continue }
                XCTAssertEqual(
                    bits(store.caches.subtreeBounds.extent[layer]), bits(expected), "seed \(seed), layer \(layer)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    /// `computedExtent`'s general path for a layer whose planar local transform is a
    /// translation (a = d = 1, b = c = 0 of any sign); nil for any other layer.
    private func generalExtent(of layer: Int, in store: borrowing LayerStore) -> RectEdges? {
        let flags = store.columns.flags[layer]
        let superlayer = Int(store.hierarchy.parents[layer])
        guard superlayer >= 0, !flags.contains(.hidden), !store.columns.flags[superlayer].contains(.transformLayer),
            let local = store.planarTransformToSuperlayer(of: layer, superlayer: superlayer),
            local.a == 1, local.b == 0, local.c == 0, local.d == 1
        else { return nil }
        let content = flags.contains(.masksToBounds) ? RectEdges.null : store.caches.subtreeBounds.content(of: layer)
        let box = store.ownBox(of: layer).union(content)
        return box.isNull ? .null : mappedBox(box, through: PlaneMap(local))
    }

    private func bits(_ box: RectEdges) -> [UInt64] {
        [box.minX.bitPattern, box.minY.bitPattern, box.maxX.bitPattern, box.maxY.bitPattern]
    }
}
