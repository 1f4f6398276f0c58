import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The subtree bounds keep their boxes with `Float` edges rounded outward (`BoxColumn`,
/// issue 22's bytes-a-layer target). Culling by them must stay conservative: every
/// stored box holds the box a `Double` cache would hold (the same computation, unrounded,
/// over unrounded sublayer boxes), so no subtree the `Double` boxes keep is skipped.
final class FloatBoxTests: XCTestCase {
    /// The outward roundings give the nearest `Float` on the right side, and leave
    /// `Float` values, infinities and the null rect as they are.
    func testRoundingOutwardGivesTheNearestFloatOnTheOutside() {
        var random = SplitMix64(seed: 99)
        var values: [Double] = [
            0, -0.0, 1, -1, 0.1, -0.1, 1e-45, -1e-45, 1e-300, -1e-300, 3.4028234663852886e38, 3.5e38, -3.5e38,
            1e300, -1e300, .infinity, -.infinity, Double(Float.greatestFiniteMagnitude).nextUp,
        ]
        for _ in 0..<2000 {
            let magnitude = Double(sign: .plus, exponent: random.below(120) - 60, significand: 1)
            values.append((random.unit() * 2 - 1) * magnitude)
        }
        for x in values {
            let below = floatAtOrBelow(x)
            let above = floatAtOrAbove(x)
            XCTAssertLessThanOrEqual(Double(below), x, "\(x)")
            XCTAssertGreaterThanOrEqual(Double(above), x, "\(x)")
            if below != .infinity { XCTAssertGreaterThan(Double(below.nextUp), x, "\(x): not the largest below") }
            if above != -.infinity { XCTAssertLessThan(Double(above.nextDown), x, "\(x): not the smallest above") }
            if Double(Float(x)) == x {
                XCTAssertEqual(Double(below), x)
                XCTAssertEqual(Double(above), x)
            }
        }
        XCTAssertTrue(RectEdges.null.roundedOutwardToFloat.isNull)
        XCTAssertEqual(RectEdges.unbounded.roundedOutwardToFloat, .unbounded)
        let box = RectEdges(minX: 0.1, minY: -0.1, maxX: 1e39, maxY: 1234.5678)
        var column = BoxColumn(repeating: .null, count: 2)
        column[1] = box
        XCTAssertTrue(column[0].isNull)
        XCTAssertEqual(column[1], box.roundedOutwardToFloat)
        XCTAssertTrue(Self.box(column[1], holds: box))
        XCTAssertEqual(column[1].maxX, .infinity, "past Float's range: unbounded on that side")
    }

    /// On random trees (3D, perspective, transform layers, masks, a scrolled list, a
    /// rotated wide layer), before and after random edits: every stored extent and
    /// content holds the unrounded one, and for random world rects every sublayer whose
    /// unrounded extent, mapped by its superlayer's world transform, reaches into the
    /// rect also does with the stored extent (the walks' test).
    func testFloatBoxesHoldTheDoubleBoxesSoNothingMoreIsCulled() {
        var rounded = 0
        var kept = 0
        for seed in UInt64(0)..<8 {
            var store = FrameQueryTests.makeStore(seed: seed)
            var random = SplitMix64(seed: seed &+ 5)
            var result = VisibleLayers()
            for round in 0..<3 {
                if round > 0 { for _ in 0..<20 { FrameQueryTests.randomEdit(&store, &random) } }
                store.visibleLayers(in: Rect(0, 0, 400, 800), into: &result)
                let (content, extent) = Self.doubleBoxes(store)
                let bounds = store.caches.subtreeBounds
                for layer in 0..<store.count {
                    XCTAssertTrue(
                        Self.box(bounds.extent[layer], holds: extent[layer]),
                        "seed \(seed) layer \(layer) \(bounds.extent[layer]) \(extent[layer]) state \(bounds.state[layer])")
                    XCTAssertTrue(Self.box(bounds.content[layer], holds: content[layer]), "seed \(seed) layer \(layer)")
                    if bounds.extent[layer] != extent[layer] { rounded += 1 }
                }
                for _ in 0..<20 {
                    let (x, y) = (random.unit() * 1000 - 300, random.unit() * 3000 - 300)
                    let cull = RectEdges(minX: x, minY: y, maxX: x + 50, maxY: y + 80)
                    for layer in 0..<store.count {
                        let superlayer = Int(store.hierarchy.parents[layer])
                        let map = superlayer < 0 ? PlaneMap(AffineTransform.identity) : PlaneMap(store.worldTransform(of: superlayer))
                        guard mappedBox(extent[layer], through: map).overlapsOpenly(cull) else { continue }
                        kept += 1
                        XCTAssertTrue(
                            mappedBox(bounds.extent[layer], through: map).overlapsOpenly(cull),
                            "seed \(seed) layer \(layer): culled by the Float box, kept by the Double box")
                    }
                }
            }
        }
        XCTAssertGreaterThan(rounded, 1000, "the rounding is exercised")
        XCTAssertGreaterThan(kept, 1000, "the culling test is exercised")
    }

    /// The boxes a `Double` cache would hold: `exactExtent` over unrounded sublayer
    /// boxes, sublayers before superlayers.
    static func doubleBoxes(_ store: borrowing LayerStore) -> (content: [RectEdges], extent: [RectEdges]) {
        var content = [RectEdges](repeating: .null, count: store.count)
        var extent = [RectEdges](repeating: .null, count: store.count)
        let bounds = store.caches.subtreeBounds
        let order = store.preorderIndices()
        // A parked layer's box waits for a query to descend (LayerStore+DeferredBounds),
        // in a Double cache as here: its subtree keeps the boxes the cache holds.
        var waits = [Bool](repeating: false, count: store.count)
        for layer in order {
            let superlayer = Int(store.hierarchy.parents[layer])
            waits[layer] = bounds.state[layer] & SubtreeBounds.Mark.parked != 0 || (superlayer >= 0 && waits[superlayer])
        }
        for layer in order.reversed() {
            if waits[layer] {
                (content[layer], extent[layer]) = (bounds.content[layer], bounds.extent[layer])
                continue
            }
            var union = RectEdges.null
            var sublayer = store.hierarchy.firstSublayers[layer]
            while sublayer >= 0 {
                union = union.union(extent[Int(sublayer)])
                sublayer = store.hierarchy.nextSiblings[Int(sublayer)]
            }
            content[layer] = union
            extent[layer] = store.exactExtent(of: layer, content: union) { extent[$0] }
        }
        return (content, extent)
    }

    /// `outer` holds `inner` (a null `inner` is held by anything).
    static func box(_ outer: RectEdges, holds inner: RectEdges) -> Bool {
        inner.isNull
            || (!outer.isNull && outer.minX <= inner.minX && outer.minY <= inner.minY && outer.maxX >= inner.maxX
                && outer.maxY >= inner.maxY)
    }
}
